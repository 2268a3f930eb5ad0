#!/bin/bash
# Lent reads and write(read(lent)) copies, the lab jar of bab0252 (before: an arena stripe per core)
# and of 6dddf69 (after: 64 stripes), alternately, two rounds each, five forks per cell.
set -e
OUT=lab/results/2026-11-29-stripes-ab
mkdir -p $OUT
ARGS="quick --cells READ:1M:1,READ:1M:10,READ:10M:1,COPY:1M:1,COPY:1M:10,READ:1K:100 --providers sluice-lent,loop-reused-direct-64k --forks 5 --warmup 2 --iterations 1"
for round in 1 2; do
  echo "$(date -u +%FT%TZ) before-$round start $(cat /proc/loadavg)" >> $OUT/runs.log
  (cd /work/before && java -jar lab/sluice-lab-cli/target/lab.jar bench $ARGS --out $OUT/before-$round > $OUT/before-$round.console 2>&1)
  echo "$(date -u +%FT%TZ) after-$round start $(cat /proc/loadavg)" >> $OUT/runs.log
  (cd /work/main && java -jar lab/sluice-lab-cli/target/lab.jar bench $ARGS --out $OUT/after-$round > $OUT/after-$round.console 2>&1)
done
echo "$(date -u +%FT%TZ) all done $(cat /proc/loadavg)" >> $OUT/runs.log
