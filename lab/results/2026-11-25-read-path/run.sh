#!/usr/bin/env bash
# The read-path run: the `read` profile (11 cells x 9 providers), once with the JVM's default heap
# (as users run it) and once with a fixed, pre-touched 2 GiB heap. Needs a quiet machine.
set -euo pipefail
cd "$(dirname "$0")"
jar=../../../sluice-bench/target/sluice-bench.jar
mkdir -p samples
log() { echo "$(date -u +%FT%TZ) $(cat /proc/loadavg | cut -d' ' -f1-3) $*" >> runs.log; }
log "start default heap, commit $(git rev-parse --short HEAD)"
java -jar $jar read --forks 2 --out /tmp/read-default > /tmp/read-default.log 2>&1
cp /tmp/read-default/read-samples.csv samples/default-heap.csv
log "end default heap"
log "start fixed heap"
java -jar $jar read --forks 1 --jvm-args "-Xms2g -Xmx2g -XX:+AlwaysPreTouch" --out /tmp/read-fixed > /tmp/read-fixed.log 2>&1
cp /tmp/read-fixed/read-samples.csv samples/fixed-heap.csv
log "end fixed heap"
# Chunk sizes: owned and lent chunks of 64, 128 and 256 KiB (bench defaults: -Xms2g -Xmx2g).
log "start chunk sizes"
java -jar $jar read --forks 2 --cells READ:1M:1,READ:1M:100,READ:10M:1,READ:100M:1,READ:100M:10,COPY:10M:1,COPY:100M:1 \
    --providers sluice,sluice-owned-64k,sluice-owned-128k,sluice-owned-256k,sluice-lent-64k,sluice-lent-128k,sluice-lent-256k,loop,loop-direct-64k \
    --out /tmp/read-sizes > /tmp/read-sizes.log 2>&1
cp /tmp/read-sizes/read-samples.csv samples/chunk-sizes.csv
log "end chunk sizes"
# Equal buffers: lent 256 KiB chunks against a reused 256 KiB direct buffer.
log "start equal buffers"
java -jar $jar read --forks 2 --cells READ:1M:10,READ:10M:1,READ:100M:1,READ:100M:10,COPY:10M:1,COPY:100M:1 \
    --providers sluice,sluice-lent-64k,sluice-lent-256k,loop-direct-64k,loop-direct-256k --out /tmp/read-equal > /tmp/read-equal.log 2>&1
cp /tmp/read-equal/read-samples.csv samples/equal-buffers.csv
log "end equal buffers"
