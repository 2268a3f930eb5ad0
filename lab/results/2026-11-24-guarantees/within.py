#!/usr/bin/env python3
"""Within one run: each provider's throughput against a reference provider, per cell (ratio of
medians over samples, 95% bootstrap interval). Usage: within.py REFERENCE SAMPLES_CSV..."""
import csv, random, statistics, sys

ref, paths = sys.argv[1], sys.argv[2:]
cells = {}
for p in paths:
    with open(p) as f:
        for r in csv.reader(f):
            if len(r) == 13 and r[0] != 'fork' and r[12] == 'OK':
                cell = f"{r[1].lower()} {int(r[2]) // 1024} KiB x{r[3]}"
                cells.setdefault(cell, {}).setdefault(r[4], []).append(int(r[2]) * int(r[3]) / int(r[6]))
rnd = random.Random(1)
print(f"| cell | provider | GB/s | / {ref} | 95% interval | verdict | samples |")
print("|---|---|---:|---:|---|---|---:|")
for cell in sorted(cells):
    base = cells[cell][ref]
    for provider, xs in sorted(cells[cell].items()):
        if provider == ref:
            continue
        boots = sorted(statistics.median(rnd.choices(xs, k=len(xs))) / statistics.median(rnd.choices(base, k=len(base)))
                       for _ in range(4000))
        lo, hi = boots[100], boots[3899]
        verdict = "faster" if lo > 1 else "slower" if hi < 1 else "no difference shown"
        print(f"| {cell} | {provider} | {statistics.median(xs):.2f} | {statistics.median(xs) / statistics.median(base):.3f} "
              f"| {lo:.3f}-{hi:.3f} | {verdict} | {len(xs)} |")
