#!/bin/bash
# The small-file profile of 2026-11-29-perf-ten-forks again, from the same commit's lab jar
# (cd0e2e9, built in a worktree of that commit), ten forks, on the next day: the same code on a
# second day, for the between-runs comparison.
set -e
OUT=/work/main/lab/results/2026-11-30-same-code-small
mkdir -p $OUT
[ -d /tmp/wt-cd0 ] || git -C /work/main worktree add /tmp/wt-cd0 cd0e2e9
[ -f /tmp/wt-cd0/lab/sluice-lab-cli/target/lab.jar ] || (cd /tmp/wt-cd0 && mvn -q -B -Plab -pl lab/sluice-bench,lab/sluice-lab-cli -am package -DskipTests -Dsluice.stress.skip=true -Djacoco.skip=true)
cd /tmp/wt-cd0
echo "start $(date -u +%FT%TZ) $(cat /proc/loadavg)" >> $OUT/runs.log
java -jar lab/sluice-lab-cli/target/lab.jar bench small --forks 10 --warmup 2 --iterations 1 --out $OUT/small > $OUT/small.console 2>&1
echo "small done $(date -u +%FT%TZ) $(cat /proc/loadavg)" >> $OUT/runs.log
