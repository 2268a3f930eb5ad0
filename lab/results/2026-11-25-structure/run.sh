#!/usr/bin/env bash
# Same-run comparison for the restructuring: the bench jar built before it (3a0e34b) and after it
# alternate three times over the quick profile's cells, for sluice (owned and lent reads) and two
# plain-JDK baselines; then the adaptive scenarios with the model beside them. Needs a quiet
# machine. OLD and NEW are jars of sluice-bench (each bundles its sluice-core).
set -u
cd "$(dirname "$0")"
OLD=${OLD:-/tmp/bench-old-3a0e34b.jar}
NEW=${NEW:-../../../sluice-bench/target/sluice-bench.jar}
new=$(git rev-parse --short HEAD)
log() { echo "$(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg) $*" >> runs.log; }
for round in 1 2 3; do
  for side in old new; do
    if [ $side = old ]; then jar=$OLD; tag=old-3a0e34b; else jar=$NEW; tag=new-$new; fi
    log "start quick $tag round $round"
    java -jar "$jar" quick --providers sluice,sluice-lent,loop-gather,loop --out /tmp/structure-$tag-r$round \
      > /tmp/structure-$tag-r$round.txt 2>&1
    log "end quick $tag round $round exit $?"
    cp /tmp/structure-$tag-r$round/quick-samples.csv samples/$tag-r$round.csv
  done
done
log "start adaptive scenarios (model against measurement) on $new"
java -cp "$NEW" io.sluice.bench.adaptive.ScenarioMain --results /tmp/structure-adaptive --images /tmp/structure-adaptive \
  > /tmp/structure-adaptive.txt 2>&1
log "end adaptive scenarios exit $?"
cp /tmp/structure-adaptive.txt samples/adaptive-console.txt
cp /tmp/structure-adaptive/scenarios.csv samples/adaptive-scenarios.csv
cp /tmp/structure-adaptive/scenarios.md adaptive-report.md
log DONE
