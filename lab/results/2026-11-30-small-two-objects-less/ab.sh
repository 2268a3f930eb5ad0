#!/bin/bash
# Five small-file cells from the lab jar of 1b98a8f (before) and of HEAD (after) alternately, two
# rounds, five forks per cell, the old jar first in each round.
set -e
OUT=/work/main/lab/results/2026-11-30-small-two-objects-less
[ -d /tmp/wt-1b9 ] || git -C /work/main worktree add /tmp/wt-1b9 1b98a8f
[ -f /tmp/wt-1b9/lab/sluice-lab-cli/target/lab.jar ] || (cd /tmp/wt-1b9 && mvn -q -B -Plab -pl lab/sluice-bench,lab/sluice-lab-cli -am package -DskipTests -Dsluice.stress.skip=true -Djacoco.skip=true)
ARGS="small --cells READ:1K:1,READ:1K:100,READ:1K:1000,WRITE:1K:1,COPY:1K:1 --providers sluice,sluice-lent,loop-reused-direct-64k,loop-reused-staged-256k,loop-transfer --forks 5 --warmup 2 --iterations 1"
for round in 1 2; do
  echo "$(date -u +%FT%TZ) before-$round start $(cat /proc/loadavg)" >> $OUT/runs.log
  (cd /tmp/wt-1b9 && java -jar lab/sluice-lab-cli/target/lab.jar bench $ARGS --out $OUT/before-$round > $OUT/before-$round.console 2>&1)
  echo "$(date -u +%FT%TZ) after-$round start $(cat /proc/loadavg)" >> $OUT/runs.log
  (cd /work/main && java -jar lab/sluice-lab-cli/target/lab.jar bench $ARGS --out $OUT/after-$round > $OUT/after-$round.console 2>&1)
done
echo "$(date -u +%FT%TZ) ab done $(cat /proc/loadavg)" >> $OUT/runs.log
