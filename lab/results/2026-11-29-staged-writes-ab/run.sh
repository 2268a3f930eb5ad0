#!/bin/bash
# The quick profile, the lab jar of 9e34e16 (before) and of 909e307 (after), alternately, four rounds each;
# then the careful-loops grid and the small files from 909e307.
set -e
OUT=/work/ab-run/out
PERF=/work/ab-run/perf
mkdir -p $OUT $PERF
for round in 1 2 3 4; do
  echo "$(date -u +%FT%TZ) before-$round start" >> $OUT/runs.log
  (cd /work/old && java -jar lab/sluice-lab-cli/target/lab.jar bench quick --out $OUT/before-$round --charts /work/ab-run/charts/before-$round > $OUT/before-$round.console 2>&1)
  echo "$(date -u +%FT%TZ) before-$round done" >> $OUT/runs.log
  echo "$(date -u +%FT%TZ) after-$round start" >> $OUT/runs.log
  (cd /work/main && java -jar lab/sluice-lab-cli/target/lab.jar bench quick --out $OUT/after-$round --charts /work/ab-run/charts/after-$round > $OUT/after-$round.console 2>&1)
  echo "$(date -u +%FT%TZ) after-$round done" >> $OUT/runs.log
done
echo "$(date -u +%FT%TZ) all done" >> $OUT/runs.log
cd /work/main
echo "start $(date -u +%FT%TZ) $(cat /proc/loadavg)" >> $PERF/runs.log
java -jar lab/sluice-lab-cli/target/lab.jar bench quick --cells WRITE:1M:1,WRITE:1M:10,WRITE:10M:1,WRITE:100M:1,READ:1M:1,READ:1M:10,READ:10M:1,COPY:1M:1,COPY:1M:10,COPY:10M:1,COPY:100M:1 --providers sluice,sluice-lent,rio,loop,loop-gather,loop-reused-staged-256k,loop-staged-256k,loop-reused-direct-64k,loop-direct-64k,loop-transfer,files-copy --forks 5 --warmup 2 --iterations 1 --out $PERF/grid > $PERF/grid.console 2>&1
echo "grid done $(date -u +%FT%TZ) $(cat /proc/loadavg)" >> $PERF/runs.log
java -jar lab/sluice-lab-cli/target/lab.jar bench small --forks 5 --warmup 2 --iterations 1 --out $PERF/small > $PERF/small.console 2>&1
echo "small done $(date -u +%FT%TZ) $(cat /proc/loadavg)" >> $PERF/runs.log
