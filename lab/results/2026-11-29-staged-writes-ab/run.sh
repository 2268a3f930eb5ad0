#!/bin/bash
# The quick profile, the lab jar of 50db633 (before) and of 4666ed4 (after), alternately, four rounds each.
set -e
OUT=/work/ab-run/out
mkdir -p $OUT
for round in 1 2 3 4; do
  echo "$(date -u +%FT%TZ) before-$round start" >> $OUT/runs.log
  (cd /work/old && java -jar lab/sluice-lab-cli/target/lab.jar bench quick --out $OUT/before-$round --charts /work/ab-run/charts/before-$round > $OUT/before-$round.console 2>&1)
  echo "$(date -u +%FT%TZ) before-$round done" >> $OUT/runs.log
  echo "$(date -u +%FT%TZ) after-$round start" >> $OUT/runs.log
  (cd /work/main && java -jar lab/sluice-lab-cli/target/lab.jar bench quick --out $OUT/after-$round --charts /work/ab-run/charts/after-$round > $OUT/after-$round.console 2>&1)
  echo "$(date -u +%FT%TZ) after-$round done" >> $OUT/runs.log
done
echo "$(date -u +%FT%TZ) all done" >> $OUT/runs.log
