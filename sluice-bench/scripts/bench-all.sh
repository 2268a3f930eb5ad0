#!/bin/sh
# Regenerates every figure in docs/BENCHMARKS.md: the standard grid (2 forks), the demand-strategy
# scenario and the memory stress. About 30 minutes on 2 busy cores. Run from the repository root
# after `mvn -q -B -DskipTests install`. Use a JDK 21+ (JAVA=...) to include the virtual-thread rows.
set -eu
JAVA=${JAVA:-java}
JAR=sluice-bench/target/sluice-bench.jar
OUT=${OUT:-target/bench-results}
IMAGES=${IMAGES:-docs/images}
"$JAVA" -jar "$JAR" standard --out "$OUT" --charts "$IMAGES"
"$JAVA" -jar "$JAR" demand --out "$OUT" --charts "$IMAGES"
"$JAVA" -jar "$JAR" stress --out "$OUT" --charts "$IMAGES"
echo "tables: $OUT/standard-report.md $OUT/demand-report.md $OUT/stress-report.md; charts: $IMAGES"
