#!/usr/bin/env bash
# Optional closed-loop A1 with wrk (Debian package; installed here, never by the Maven build):
# fast 16 KiB GETs at 64/256/1024 connections per lane, server on CPU 0, wrk on CPU 1.
#   sluice-server/scripts/wrk-a1.sh [seconds per step, default 20]
set -euo pipefail
SECONDS_PER_STEP=${1:-20}
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
cd "$(dirname "$0")/../.."
command -v wrk >/dev/null || { apt-get update -q && apt-get install -y -q wrk; }
JAR=sluice-server/target/sluice-server.jar
# (Re)build when the jar is missing or older than any main source or pom: a stale jar measures old code.
if [ ! -f "$JAR" ] || [ -n "$(find sluice-core/src/main sluice-server/src/main pom.xml sluice-core/pom.xml \
    sluice-server/pom.xml -newer "$JAR" -print -quit)" ]; then
  mvn -q -B -pl sluice-server -am package -DskipTests
fi
DATA=$(mktemp -d)
head -c 16384 /dev/urandom > "$DATA/small.bin"
trap 'rm -rf "$DATA"' EXIT
for LANE in A B C; do
  for CONNECTIONS in 64 256 1024; do
    LOG=$(mktemp)
    taskset -c 0 "$JAVA" -Xmx1g -jar "$JAR" --lane "$LANE" --port 0 --dir "$DATA" > "$LOG" 2>&1 &
    SERVER=$!
    until grep -q READY "$LOG"; do sleep 0.2; done
    PORT=$(sed -n 's/^READY port=\([0-9]*\).*/\1/p' "$LOG")
    echo "== lane $LANE, $CONNECTIONS connections"
    taskset -c 1 wrk -t1 -c"$CONNECTIONS" -d"${SECONDS_PER_STEP}s" --timeout 2s --latency \
      "http://127.0.0.1:$PORT/files/small.bin" | grep -E 'Requests/sec|Transfer/sec|50%|99%|Socket errors|timeout'
    kill "$SERVER"; wait "$SERVER" || true
    rm -f "$LOG"
  done
done
