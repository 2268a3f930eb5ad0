#!/bin/bash
# The careful-loops grid of 2026-11-29-perf-ten-forks again, from the same commit's lab jar
# (cd0e2e9, built in a worktree of that commit), ten forks, on the next day: the same code on a
# second day, for the between-runs comparison.
set -e
OUT=/work/main/lab/results/2026-11-30-same-code-grid
mkdir -p $OUT
[ -d /tmp/wt-cd0 ] || { git -C /work/main worktree add /tmp/wt-cd0 cd0e2e9 && (cd /tmp/wt-cd0 && mvn -q -B -Plab -pl lab/sluice-bench,lab/sluice-lab-cli -am package -DskipTests -Dsluice.stress.skip=true -Djacoco.skip=true); }
cd /tmp/wt-cd0
echo "start $(date -u +%FT%TZ) $(cat /proc/loadavg)" >> $OUT/runs.log
java -jar lab/sluice-lab-cli/target/lab.jar bench quick --cells WRITE:1M:1,WRITE:1M:10,WRITE:10M:1,WRITE:100M:1,READ:1M:1,READ:1M:10,READ:10M:1,COPY:1M:1,COPY:1M:10,COPY:10M:1,COPY:100M:1 --providers sluice,sluice-lent,rio,loop,loop-gather,loop-reused-staged-256k,loop-staged-256k,loop-reused-direct-64k,loop-direct-64k,loop-transfer,files-copy --forks 10 --warmup 2 --iterations 1 --out $OUT/grid > $OUT/grid.console 2>&1
echo "grid done $(date -u +%FT%TZ) $(cat /proc/loadavg)" >> $OUT/runs.log
