#!/usr/bin/env bash
# Second look at the write cells: old and new alternate, 2 forks each, nothing else running.
set -u
cd /work/results/perf
OLD=bench-old-13a66ce.jar   # java -jar of sluice-bench built at 13a66ce
NEW=$(ls bench-new-*.jar)
for round in 1 2 3; do
  for jar in $OLD $NEW; do
    tag=${jar%.jar}
    echo "== writes round $round $tag load: $(cut -d' ' -f1-3 /proc/loadavg) start: $(date -u +%T)" >> runs.log
    java -jar $jar quick --cells WRITE:10M:1,WRITE:1M:1 --providers sluice,loop-gather --forks 2 \
      --out out-writes-$tag-r$round > writes-$tag-r$round.txt 2>&1
    echo "   end: $(date -u +%T) exit $?" >> runs.log
  done
done
echo DONE2 >> runs.log
