#!/bin/bash
# The small files, 10 forks, from the commit at HEAD (clean): what a read allocates, after 8ebaa6fe.
set -e
OUT=lab/results/2026-11-29-small-fewer-objects
cd "$(dirname "$0")/../../.."
echo "start $(date -u +%FT%TZ) $(cat /proc/loadavg)" >> $OUT/runs.log
java -jar lab/sluice-lab-cli/target/lab.jar bench small --forks 10 --warmup 2 --iterations 1 --out $OUT/small > $OUT/small.console 2>&1
echo "small done $(date -u +%FT%TZ) $(cat /proc/loadavg)" >> $OUT/runs.log
