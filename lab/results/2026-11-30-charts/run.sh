#!/bin/bash
# The charts the adaptive scenarios draw during a run, whose series the run does not keep: one
# repetition (scenario C among them), from the commit at HEAD (clean tree), on a quiet machine.
# Charts go to a folder of their own here (a run refuses a tree with tracked files changed) and move
# to lab/images at the end, each with its data file.
set -e
cd "$(dirname "$0")/../../.."
OUT=lab/results/2026-11-30-charts
mvn -q -B -o -Plab -pl lab/sluice-bench,lab/sluice-lab-cli -am package -DskipTests -Dsluice.stress.skip=true -Djacoco.skip=true
mkdir -p $OUT/adaptive
sleep 30 # let the build's load settle
echo "$(date -u +%FT%TZ) adaptive start $(cat /proc/loadavg)" >> $OUT/runs.log
java -jar lab/sluice-lab-cli/target/lab.jar -J-Xmx3g adaptive --repetitions 1 \
    --results $OUT/adaptive --images $OUT/drawn > $OUT/adaptive.console 2>&1
echo "$(date -u +%FT%TZ) adaptive done $(cat /proc/loadavg)" >> $OUT/runs.log
mv $OUT/drawn/* lab/images/
rmdir $OUT/drawn
