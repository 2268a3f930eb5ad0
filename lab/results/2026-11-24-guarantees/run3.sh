#!/usr/bin/env bash
# The write cells again: old, candidate without the W8 fast path (new), candidate with it (w8).
set -u
cd /work/results/perf
for round in 1 2 3; do
  for jar in bench-old-13a66ce.jar bench-new-58c76c7.jar bench-w8.jar; do
    tag=${jar%.jar}
    echo "== w8 round $round $tag load: $(cut -d' ' -f1-3 /proc/loadavg) start: $(date -u +%T)" >> runs.log
    java -jar $jar quick --cells WRITE:10M:1,WRITE:1M:1,WRITE:1M:10 --providers sluice,loop-gather --forks 2 \
      --out out-w8-$tag-r$round > w8-$tag-r$round.txt 2>&1
    echo "   end: $(date -u +%T) exit $?" >> runs.log
  done
done
echo DONE3 >> runs.log
