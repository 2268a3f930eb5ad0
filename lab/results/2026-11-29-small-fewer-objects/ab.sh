#!/bin/bash
# The cells where this run's verdicts differed most from 2026-11-29-perf-ten-forks/small, the lab
# jar of 7685562 (before) and of 8ebaa6fe (after) alternately, two rounds each, five forks per
# cell: did the change or the machine move them?
set -e
OUT=/work/main/lab/results/2026-11-29-small-fewer-objects
[ -d /tmp/wt-before ] || { git -C /work/main worktree add /tmp/wt-before 7685562 && (cd /tmp/wt-before && mvn -q -B -Plab -pl lab/sluice-bench,lab/sluice-lab-cli -am package -DskipTests -Dsluice.stress.skip=true -Djacoco.skip=true); }
ARGS="small --cells READ:1K:1,READ:1K:100,READ:1K:1000,READ:64K:100,WRITE:1K:1,COPY:1K:1 --providers sluice,sluice-lent,loop-reused-direct-64k,loop-reused-staged-256k,loop-transfer --forks 5 --warmup 2 --iterations 1"
for round in 1 2; do
  echo "$(date -u +%FT%TZ) before-$round start $(cat /proc/loadavg)" >> $OUT/runs.log
  (cd /tmp/wt-before && java -jar lab/sluice-lab-cli/target/lab.jar bench $ARGS --out $OUT/before-$round > $OUT/before-$round.console 2>&1)
  echo "$(date -u +%FT%TZ) after-$round start $(cat /proc/loadavg)" >> $OUT/runs.log
  (cd /work/main && java -jar lab/sluice-lab-cli/target/lab.jar bench $ARGS --out $OUT/after-$round > $OUT/after-$round.console 2>&1)
done
echo "$(date -u +%FT%TZ) all done $(cat /proc/loadavg)" >> $OUT/runs.log
