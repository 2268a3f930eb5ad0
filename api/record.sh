#!/usr/bin/env bash
# Records the public API of the published modules as the baseline the build compares against
# (japicmp in `mvn verify` fails on any difference, additions included). Run it when an API change
# is deliberate, and commit the changed jars with the change: the build's report
# (MODULE/target/japicmp/api-baseline.diff) shows what changed.
# Each jar holds the module's classes outside its internal packages: what users compile against.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(sluice-core sluice-spring sluice-spring-boot sluice-s3)
mvn -q -B -DskipTests -Dsluice.stress.skip=true -Djapicmp.skip=true package \
  -pl "$(IFS=,; echo "${modules[*]}")" -am
for module in "${modules[@]}"; do
  (cd "$module/target/classes" \
    && find io -name '*.class' ! -path '*/internal/*' | LC_ALL=C sort > ../api-classes.txt \
    && rm -f "../../../api/$module.jar" \
    && jar --create --date=2026-01-01T00:00:00Z --file "../../../api/$module.jar" @../api-classes.txt)
  echo "recorded api/$module.jar ($(wc -l < "$module/target/api-classes.txt") classes)"
done
