#!/usr/bin/env bash
# Regenerates every table of README.md (and of BENCHMARKS.md's read section) from samples/ (python3 only).
cd "$(dirname "$0")"
echo "## 1. Read profile, the bench's JVM (-Xms2g -Xmx2g), 2 forks x 5 rounds"
python3 targets.py samples/default-heap.csv
echo; echo "## 2. Read profile, pre-touched heap (-Xms2g -Xmx2g -XX:+AlwaysPreTouch), 1 fork x 5 rounds"
python3 targets.py samples/fixed-heap.csv | sed -n '1,32p'
echo; echo "## 3. Chunk sizes, owned and lent, 2 forks x 5 rounds"
python3 pairs.py samples/chunk-sizes.csv sluice-owned-128k/sluice-owned-64k sluice-owned-256k/sluice-owned-64k \
    sluice-lent-128k/sluice-lent-64k sluice-lent-256k/sluice-lent-64k
echo; echo "## 4. Equal buffers: lent chunks against a reused direct buffer of the same size, 2 forks x 5 rounds"
python3 pairs.py samples/equal-buffers.csv sluice-lent-64k/loop-direct-64k sluice-lent-256k/loop-direct-256k \
    sluice-lent-64k/sluice sluice-lent-256k/sluice
