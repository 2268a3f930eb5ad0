#!/usr/bin/env bash
# The whole jars again, new first in each pair this time, to see whether run.sh's difference
# (baselines included) repeats. Needs a quiet machine.
set -u
cd "$(dirname "$0")"
OLD=${OLD:-/tmp/bench-old-3a0e34b.jar}
NEW=${NEW:-/tmp/bench-new-9e62422.jar}          # sluice-bench built at 9e62422
log() { echo "$(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg) $*" >> runs.log; }
for round in 1 2 3; do
  for side in new old; do
    if [ $side = old ]; then jar=$OLD; else jar=$NEW; fi
    log "start quick again-$side round $round"
    java -jar "$jar" quick --providers sluice,sluice-lent,loop-gather,loop --out /tmp/again-$side-r$round \
      > /tmp/again-$side-r$round.txt 2>&1
    log "end quick again-$side round $round exit $?"
    cp /tmp/again-$side-r$round/quick-samples.csv samples/again-$side-r$round.csv
  done
done
log DONE
