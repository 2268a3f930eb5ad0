#!/usr/bin/env bash
# The core alone: the old bench harness (3a0e34b) with its own sluice-core, against the same
# harness with the new sluice-core first on the class path (forks inherit it), alternating three
# times over the quick profile's cells. Needs a quiet machine.
set -u
cd "$(dirname "$0")"
OLD=${OLD:-/tmp/bench-old-3a0e34b.jar}          # sluice-bench built at 3a0e34b
CORE=${CORE:-/tmp/core-new-9e62422.jar}         # sluice-core built at 9e62422
log() { echo "$(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg) $*" >> runs.log; }
for round in 1 2 3; do
  for side in old newcore; do
    if [ $side = old ]; then cp="$OLD"; else cp="$CORE:$OLD"; fi
    log "start quick swap-$side round $round"
    java -cp "$cp" io.sluice.bench.BenchMain quick --providers sluice,sluice-lent,loop-gather,loop \
      --out /tmp/swap-$side-r$round > /tmp/swap-$side-r$round.txt 2>&1
    log "end quick swap-$side round $round exit $?"
    cp /tmp/swap-$side-r$round/quick-samples.csv samples/swap-$side-r$round.csv
  done
done
log DONE
