#!/bin/bash
# The SDK's multipart upload on its defaults beside the same upload tuned, for each part size and
# count at once (connections, and parts in flight per upload) of a small grid but the defaults: one
# 1 GiB file from one client (128 parts at the SDK's 8 MiB, more than the 50 it keeps in flight),
# five interleaved samples of each after one warm-up. From the commit at HEAD (clean tree), on a
# quiet machine; one harness run (its own S3Proxy) per setting.
set -e
cd "$(dirname "$0")/../../.."
OUT=lab/results/2026-11-30-s3-sdk-tuning
mvn -q -B -o -Plab -pl lab/sluice-s3-load,lab/sluice-lab-cli -am package -DskipTests -Dsluice.stress.skip=true -Djacoco.skip=true
sleep 30 # let the build's load settle
for part in 8 16 32 64; do
  for connections in 50 200; do
    [ "$part-$connections" = "8-50" ] && continue # the SDK's defaults: nothing to tune
    run=$OUT/part-${part}MiB-connections-$connections
    echo "$(date -u +%FT%TZ) $run start $(cat /proc/loadavg)" >> $OUT/runs.log
    java -jar lab/sluice-lab-cli/target/lab.jar s3 --results $run --work /var/tmp/s3-work \
      --sizes 1GiB --clients 1 --samples 5 --warmup 1 --client-jvm -Xmx1g --server-heap 1g \
      --transfers sdk-multipart-fromFile,sdk-multipart-fromFile-tuned \
      --sdk-part-size ${part}MiB --sdk-connections $connections > $run.console 2>&1
  done
done
echo "$(date -u +%FT%TZ) all done $(cat /proc/loadavg)" >> $OUT/runs.log
