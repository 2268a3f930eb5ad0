#!/bin/bash
# ab.sh's cells with the roles swapped: "before" is the new jar (HEAD) and "after" the old
# (1b98a8f), so the jar that runs second in each round is the old one.
set -e
OUT=/work/main/lab/results/2026-11-30-small-two-objects-less/swapped
mkdir -p $OUT
[ -d /tmp/wt-1b9 ] || git -C /work/main worktree add /tmp/wt-1b9 1b98a8f
[ -f /tmp/wt-1b9/lab/sluice-lab-cli/target/lab.jar ] || (cd /tmp/wt-1b9 && mvn -q -B -Plab -pl lab/sluice-bench,lab/sluice-lab-cli -am package -DskipTests -Dsluice.stress.skip=true -Djacoco.skip=true)
ARGS="small --cells READ:1K:1,READ:1K:100,READ:1K:1000,WRITE:1K:1,COPY:1K:1 --providers sluice,sluice-lent,loop-reused-direct-64k,loop-reused-staged-256k,loop-transfer --forks 5 --warmup 2 --iterations 1"
for round in 1 2; do
  echo "$(date -u +%FT%TZ) swapped before-$round (new) start $(cat /proc/loadavg)" >> $OUT/../runs.log
  (cd /work/main && java -jar lab/sluice-lab-cli/target/lab.jar bench $ARGS --out $OUT/before-$round > $OUT/before-$round.console 2>&1)
  echo "$(date -u +%FT%TZ) swapped after-$round (old) start $(cat /proc/loadavg)" >> $OUT/../runs.log
  (cd /tmp/wt-1b9 && java -jar lab/sluice-lab-cli/target/lab.jar bench $ARGS --out $OUT/after-$round > $OUT/after-$round.console 2>&1)
done
echo "$(date -u +%FT%TZ) swapped all done $(cat /proc/loadavg)" >> $OUT/../runs.log
