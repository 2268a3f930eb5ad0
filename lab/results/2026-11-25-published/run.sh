#!/usr/bin/env bash
# The published run: the adaptive scenarios (measured and modelled, 3 repetitions), then the
# benchmark's standard grid (2 forks x 3 measured rounds per provider and cell). Run it on a quiet
# machine from a clean checkout: nothing else running, no build, no test.
set -euo pipefail
cd "$(dirname "$0")/../../.."
here=docs/results/2026-11-25-published
jar=sluice-bench/target/sluice-bench.jar
mvn -q -B -DskipTests -Dsluice.stress.skip=true package -pl sluice-bench -am
mkdir -p "$here/adaptive" "$here/grid"
{ echo "start $(date -u +%FT%TZ) $(cat /proc/loadavg)"; } > "$here/runs.log"
java -Xmx3g -cp "$jar" io.sluice.bench.adaptive.ScenarioMain --repetitions 3 \
    --results "$here/adaptive" --images docs/images > "$here/adaptive/console.txt" 2>&1
{ echo "adaptive done $(date -u +%FT%TZ) $(cat /proc/loadavg)"; } >> "$here/runs.log"
java -jar "$jar" standard --out "$here/grid" --charts docs/images > "$here/grid/console.txt" 2>&1
{ echo "grid done $(date -u +%FT%TZ) $(cat /proc/loadavg)"; } >> "$here/runs.log"
# Regenerate every docs block from these folders:
java -jar "$jar" report --from "$here/adaptive"
java -jar "$jar" report --from "$here/grid"
