#!/bin/bash
# The stress case (1 GiB of 1 KiB buffers under -Xmx64m, then 1,000 concurrent writes' threads), whose
# chart the run draws from results it does not keep otherwise, from the commit at HEAD (clean tree), on
# a quiet machine. The chart moves to lab/images at the end, with its data file.
set -e
cd "$(dirname "$0")/../../.."
OUT=lab/results/2026-11-30-charts
mvn -q -B -o -Plab -pl lab/sluice-bench,lab/sluice-lab-cli -am package -DskipTests -Dsluice.stress.skip=true -Djacoco.skip=true
mkdir -p $OUT/stress
sleep 30 # let the build's load settle
echo "$(date -u +%FT%TZ) stress start $(cat /proc/loadavg)" >> $OUT/runs.log
java -jar lab/sluice-lab-cli/target/lab.jar bench stress --out $OUT/stress --charts $OUT/drawn > $OUT/stress.console 2>&1
echo "$(date -u +%FT%TZ) stress done $(cat /proc/loadavg)" >> $OUT/runs.log
mv $OUT/drawn/* lab/images/
rmdir $OUT/drawn
