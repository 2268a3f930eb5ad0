#!/usr/bin/env python3
"""The read path's targets from raw samples: per cell, the ratio of median throughputs of two
providers with a 95% bootstrap interval (4,000 resamples), judged "met" only when the interval
clears the target, "missed" when it lies below, else "inconclusive"; then heap allocated per GiB
and peak direct memory per provider. Usage: targets.py SAMPLES_CSV... (columns: Sample.HEADER)."""
import csv, random, statistics, sys

cells = {}
for path in sys.argv[1:]:
    with open(path) as f:
        for r in csv.reader(f):
            if len(r) == 13 and r[0] != 'fork' and r[12] == 'OK':
                key = (r[1], int(r[2]), int(r[3]))
                bytes_moved = int(r[2]) * int(r[3])
                cells.setdefault(key, {}).setdefault(r[4], []).append(
                    (bytes_moved / int(r[6]), int(r[8]) / bytes_moved * 1024, int(r[10]) / 2**20))

def label(key):
    op, size, par = key
    unit = f"{size // 2**20} MiB" if size >= 2**20 else f"{size // 1024} KiB"
    return f"{op.lower()} {unit} x{par}"

rnd = random.Random(1)
def ratio(xs, ys):
    boots = sorted(statistics.median(rnd.choices(xs, k=len(xs))) / statistics.median(rnd.choices(ys, k=len(ys)))
                   for _ in range(4000))
    return statistics.median(xs) / statistics.median(ys), boots[100], boots[3899]

TARGETS = {'READ': [('sluice-lent', 'loop', 1.0), ('sluice-lent', 'loop-direct-64k', 0.85), ('sluice', 'loop', 0.8)],
           'COPY': [('sluice-lent', 'sluice', 0.7), ('sluice-lent', 'loop', 1.0)]}
NAMES = {('COPY', 'sluice-lent'): 'write(read(lent))', ('COPY', 'sluice'): 'copyTo'}

print("| cell | ratio | target | median | 95% interval | verdict | samples |")
print("|---|---|---:|---:|---|---|---:|")
for key in sorted(cells, key=lambda k: (k[0], k[1], k[2])):
    for a, b, target in TARGETS.get(key[0], []):
        if a not in cells[key] or b not in cells[key]:
            continue
        xs = [s[0] for s in cells[key][a]]
        ys = [s[0] for s in cells[key][b]]
        med, lo, hi = ratio(xs, ys)
        verdict = "met" if lo >= target else "missed" if hi < target else "inconclusive"
        na, nb = NAMES.get((key[0], a), a), NAMES.get((key[0], b), b)
        print(f"| {label(key)} | {na} / {nb} | {target:.2f} | {med:.2f} | {lo:.2f}-{hi:.2f} | {verdict} | {len(xs)}/{len(ys)} |")

print()
print("| cell | provider | GiB/s (median) | heap MiB per GiB (median) | peak direct MiB (max) |")
print("|---|---|---:|---:|---:|")
for key in sorted(cells, key=lambda k: (k[0], k[1], k[2])):
    for provider, samples in sorted(cells[key].items()):
        print(f"| {label(key)} | {provider} | {statistics.median(s[0] for s in samples) / 2**30 * 1e9:.2f} "
              f"| {statistics.median(s[1] for s in samples):.1f} | {max(s[2] for s in samples):.1f} |")
