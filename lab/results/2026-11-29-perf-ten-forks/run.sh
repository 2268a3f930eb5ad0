#!/bin/bash
# The careful-loops grid and the small files, 10 forks each, from the commit at HEAD (clean).
set -e
PERF=lab/results/2026-11-29-perf-ten-forks
cd /work/main
echo "start $(date -u +%FT%TZ) $(cat /proc/loadavg)" >> $PERF/runs.log
java -jar lab/sluice-lab-cli/target/lab.jar bench quick --cells WRITE:1M:1,WRITE:1M:10,WRITE:10M:1,WRITE:100M:1,READ:1M:1,READ:1M:10,READ:10M:1,COPY:1M:1,COPY:1M:10,COPY:10M:1,COPY:100M:1 --providers sluice,sluice-lent,rio,loop,loop-gather,loop-reused-staged-256k,loop-staged-256k,loop-reused-direct-64k,loop-direct-64k,loop-transfer,files-copy --forks 10 --warmup 2 --iterations 1 --out $PERF/grid > $PERF/grid.console 2>&1
echo "grid done $(date -u +%FT%TZ) $(cat /proc/loadavg)" >> $PERF/runs.log
java -jar lab/sluice-lab-cli/target/lab.jar bench small --forks 10 --warmup 2 --iterations 1 --out $PERF/small > $PERF/small.console 2>&1
echo "small done $(date -u +%FT%TZ) $(cat /proc/loadavg)" >> $PERF/runs.log
