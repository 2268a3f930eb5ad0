#!/usr/bin/env bash
# The copy cells of the standard grid once the Vert.x bridge's copy delivers its whole file: the
# bridge (vertx, vertx-64k) beside Vert.x's native pipe, sluice and the JDK baselines, the standard
# profile's 2 forks x 3 measured rounds (6 samples per provider and cell). Run it on a quiet
# machine: nothing else running.
set -euo pipefail
cd "$(dirname "$0")/../../.."
here=docs/results/2026-11-27-vertx-copy
jar=sluice-bench/target/sluice-bench.jar
mvn -q -B -DskipTests -Dsluice.stress.skip=true package -pl sluice-bench -am
{ echo "start $(date -u +%FT%TZ) $(cat /proc/loadavg)"; } > "$here/runs.log"
java -jar "$jar" standard --cells COPY:1M:1,COPY:1M:10,COPY:1M:100,COPY:10M:1,COPY:10M:10,COPY:100M:1 \
    --providers sluice,vertx,vertx-64k,vertx-pipe,vertx-pipe-64k,files-copy,loop-direct-64k \
    --out "$here" --charts "$here/images" > "$here/console.txt" 2>&1
{ echo "copy done $(date -u +%FT%TZ) $(cat /proc/loadavg)"; } >> "$here/runs.log"
java -jar "$jar" report --from "$here"
