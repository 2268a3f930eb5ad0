#!/usr/bin/env bash
# Same-run comparison: the old and the new bench jar alternate, quick profile, nothing else running.
set -u
cd /work/results/perf
OLD=bench-old-13a66ce.jar   # java -jar of sluice-bench built at 13a66ce
NEW=$(ls bench-new-*.jar)
for round in 1 2; do
  for jar in $OLD $NEW; do
    tag=${jar%.jar}
    echo "== round $round $tag load: $(cut -d' ' -f1-3 /proc/loadavg) start: $(date -u +%T)" >> runs.log
    java -jar $jar quick --out out-$tag-r$round > quick-$tag-r$round.txt 2>&1
    echo "   end: $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg) exit $?" >> runs.log
  done
done
echo "== hard bound $(cut -d' ' -f1-3 /proc/loadavg) $(date -u +%T)" >> runs.log
java -jar $NEW quick --cells WRITE:1M:1,WRITE:10M:1,WRITE:1M:10,WRITE:1K:100 \
  --providers sluice,sluice-max-item-1k,sluice-max-item-64k,loop-gather --forks 2 --out out-hardbound > hardbound.txt 2>&1
echo "   end: $(date -u +%T) load: $(cut -d' ' -f1-3 /proc/loadavg) exit $?" >> runs.log
echo DONE >> runs.log
