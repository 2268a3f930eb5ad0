#!/bin/sh
# Regenerates every figure in lab/docs/BENCHMARKS.md: the paper's whole grid (2 forks, 1 warm-up + 2
# rounds), the demand-strategy scenario and the memory stress. About 85 minutes on 2 cores. Run from
# the repository root after `mvn -q -B -DskipTests install`. Use a JDK 21+ (JAVA=...) to include the
# virtual-thread rows, as lab/docs/BENCHMARKS.md does.
set -eu
JAVA=${JAVA:-java}
JAR=lab/sluice-bench/target/sluice-bench.jar
OUT=${OUT:-target/bench-results}
IMAGES=${IMAGES:-lab/images}
"$JAVA" -jar "$JAR" full --forks 2 --warmup 1 --iterations 2 --min-sample-ms 300 --out "$OUT/full" --charts "$IMAGES"
"$JAVA" -jar "$JAR" demand --out "$OUT/demand" --charts "$IMAGES"
"$JAVA" -jar "$JAR" stress --out "$OUT" --charts "$IMAGES"
echo "runs: $OUT/full $OUT/demand (samples.csv, run.properties, report.md); $OUT/stress-report.md; charts: $IMAGES"
