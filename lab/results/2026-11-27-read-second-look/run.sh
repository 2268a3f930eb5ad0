#!/usr/bin/env bash
# A second look at the read path's cells that the 2026-11-26 published run left inconclusive on
# their targets: the same cells, the providers the targets compare, 4 forks x 5 measured rounds
# (20 samples per provider and cell). Run it on a quiet machine: nothing else running.
set -euo pipefail
cd "$(dirname "$0")/../../.."
here=docs/results/2026-11-27-read-second-look
jar=sluice-bench/target/sluice-bench.jar
mvn -q -B -DskipTests -Dsluice.stress.skip=true package -pl sluice-bench -am
{ echo "start $(date -u +%FT%TZ) $(cat /proc/loadavg)"; } > "$here/runs.log"
java -jar "$jar" read --forks 4 --cells READ:1M:10,READ:100M:10,COPY:1M:10,COPY:1M:100,COPY:10M:10 \
    --providers sluice,sluice-lent,loop,loop-direct-64k --out "$here" > "$here/console.txt" 2>&1
{ echo "read done $(date -u +%FT%TZ) $(cat /proc/loadavg)"; } >> "$here/runs.log"
java -jar "$jar" report --from "$here"
