#!/usr/bin/env bash
# The load harness (scenarios A1, A2, B) with the server pinned to CPU 0 and the load generator to
# CPU 1, a fresh server JVM per lane and step. Usage, from the repository root:
#   lab/sluice-server/scripts/run-load.sh [smoke|full] [scenarios, default A1,A2,B] [lanes, default all] [--results DIR] [--charts DIR] [--repeats N]
# RUN_SECONDS=8 shortens every step (a reduced full run); the default full run takes about 20 minutes per repeat.
# --repeats N (default 1) runs every lane and step N times, interleaved (repeat 1 of everything, then
# repeat 2, ...); the gates are then met, missed or inconclusive by their 95% intervals. A published
# run has 5 repeats: about 95 minutes at full scale (the first repeat prints what the rest will take).
# --charts DIR (last) writes server-a1.png, server-a2.png and server-b.png into DIR.
# --results DIR keeps the raw results (rows.csv, run.properties) and the console output (output.md)
# there; `java -jar lab/sluice-lab-cli/target/lab.jar server report --from DIR` regenerates the docs from them.
# JAVA picks the JDK for both sides (default: JDK 25, so lane B runs). Output: a Markdown table,
# one PASS/FAIL line per gate and "N passed, N failed", also saved to lab/sluice-server/target/ (DIR/output.md with --results).
set -euo pipefail
CHARTS=
RESULTS=
REPEATS=1
ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --charts) CHARTS=${2:?--charts needs a directory}; shift 2 ;;
    --results) RESULTS=${2:?--results needs a directory}; shift 2 ;;
    --repeats) REPEATS=${2:?--repeats needs a number}; shift 2 ;;
    *) ARGS+=("$1"); shift ;;
  esac
done
set -- "${ARGS[@]+"${ARGS[@]}"}"
SCALE=${1:-full}
SCENARIOS=${2:-A1,A2,B}
LANES=${3:-A,B,C,C-unbounded}
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
cd "$(dirname "$0")/../.."
command -v wrk >/dev/null || { apt-get update -q && apt-get install -y -q wrk; } # A1 and A2's generator
JAR=lab/sluice-server/target/sluice-server.jar
# (Re)build when the jar is missing or older than any main source or pom: a stale jar measures old code.
if [ ! -f "$JAR" ] || [ -n "$(find sluice-core/src/main lab/sluice-server/src/main pom.xml sluice-core/pom.xml \
    lab/sluice-server/pom.xml -newer "$JAR" -print -quit)" ]; then
  mvn -q -B -Plab -pl lab/sluice-server -am package -DskipTests
fi
OUT=lab/sluice-server/target/load-$SCALE-$(date -u +%Y%m%dT%H%M%SZ).md
if [ -n "$RESULTS" ]; then mkdir -p "$RESULTS"; OUT=$RESULTS/output.md; fi
echo "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$OUT"
STATUS=0
taskset -c 1 "$JAVA" -Dsluice.server.java="$JAVA" -cp "$JAR" io.sluice.server.load.LoadMain \
  --scale "$SCALE" --scenarios "$SCENARIOS" --lanes "$LANES" --server-cpu 0 --repeats "$REPEATS" ${RUN_SECONDS:+--run-seconds "$RUN_SECONDS"} ${CHARTS:+--charts "$CHARTS"} ${RESULTS:+--results "$RESULTS"} \
  | tee -a "$OUT" || STATUS=$?
echo "load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT"
exit "$STATUS"
