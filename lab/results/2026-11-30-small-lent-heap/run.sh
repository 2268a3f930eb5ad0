#!/bin/bash
# The small profile's read cells, ten forks, from the commit at HEAD (clean); then three lent-read
# cells from the jars of 9ed3040 (before) and HEAD (after) alternately, two rounds, five forks, the
# old jar first; then the same with the roles swapped.
set -e
OUT=/work/main/lab/results/2026-11-30-small-lent-heap
[ -d /tmp/wt-9ed ] || git -C /work/main worktree add /tmp/wt-9ed 9ed30406
[ -f /tmp/wt-9ed/lab/sluice-lab-cli/target/lab.jar ] || (cd /tmp/wt-9ed && mvn -q -B -Plab -pl lab/sluice-bench,lab/sluice-lab-cli -am package -DskipTests -Dsluice.stress.skip=true -Djacoco.skip=true)
NEW=/work/main
OLD=/tmp/wt-9ed
echo "$(date -u +%FT%TZ) reads start $(cat /proc/loadavg)" >> $OUT/runs.log
(cd $NEW && java -jar lab/sluice-lab-cli/target/lab.jar bench small --cells READ:1K:1,READ:1K:100,READ:1K:1000,READ:64K:1,READ:64K:100,READ:64K:1000 --forks 10 --warmup 2 --iterations 1 --out $OUT/reads > $OUT/reads.console 2>&1)
ARGS="small --cells READ:1K:1,READ:1K:100,READ:1K:1000 --providers sluice,sluice-lent,loop-reused-direct-64k --forks 5 --warmup 2 --iterations 1"
pair() { # DIR FIRST SECOND: round N of FIRST as before-N, SECOND as after-N
  for round in 1 2; do
    echo "$(date -u +%FT%TZ) $1 before-$round start $(cat /proc/loadavg)" >> $OUT/runs.log
    (cd $2 && java -jar lab/sluice-lab-cli/target/lab.jar bench $ARGS --out $OUT/$1/before-$round > $OUT/$1/before-$round.console 2>&1)
    echo "$(date -u +%FT%TZ) $1 after-$round start $(cat /proc/loadavg)" >> $OUT/runs.log
    (cd $3 && java -jar lab/sluice-lab-cli/target/lab.jar bench $ARGS --out $OUT/$1/after-$round > $OUT/$1/after-$round.console 2>&1)
  done
}
mkdir -p $OUT/ab $OUT/swapped
pair ab $OLD $NEW
pair swapped $NEW $OLD
echo "$(date -u +%FT%TZ) all done $(cat /proc/loadavg)" >> $OUT/runs.log
