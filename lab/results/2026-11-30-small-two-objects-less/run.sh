#!/bin/bash
# The small-file profile, ten forks, from the commit at HEAD (clean).
set -e
OUT=/work/main/lab/results/2026-11-30-small-two-objects-less
cd /work/main
echo "$(date -u +%FT%TZ) small start $(cat /proc/loadavg)" >> $OUT/runs.log
java -jar lab/sluice-lab-cli/target/lab.jar bench small --forks 10 --warmup 2 --iterations 1 --out $OUT/small > $OUT/small.console 2>&1
echo "$(date -u +%FT%TZ) small done $(cat /proc/loadavg)" >> $OUT/runs.log
