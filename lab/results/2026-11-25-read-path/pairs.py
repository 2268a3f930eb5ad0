#!/usr/bin/env python3
"""Within one run: named provider pairs per cell, ratio of median throughputs with a 95% bootstrap
interval (4,000 resamples). Usage: pairs.py SAMPLES_CSV A/B [A/B ...]"""
import csv, random, statistics, sys

cells = {}
for r in csv.reader(open(sys.argv[1])):
    if len(r) == 13 and r[0] != 'fork' and r[12] == 'OK':
        key = (r[1], int(r[2]), int(r[3]))
        cells.setdefault(key, {}).setdefault(r[4], []).append(int(r[2]) * int(r[3]) / int(r[6]))
rnd = random.Random(1)
print("| cell | ratio | median | 95% interval | GiB/s (first, second) |")
print("|---|---|---:|---|---|")
for key in sorted(cells):
    op, size, par = key
    label = f"{op.lower()} {size // 2**20} MiB x{par}"
    for pair in sys.argv[2:]:
        a, b = pair.split('/')
        if a not in cells[key] or b not in cells[key]:
            continue
        xs, ys = cells[key][a], cells[key][b]
        boots = sorted(statistics.median(rnd.choices(xs, k=len(xs))) / statistics.median(rnd.choices(ys, k=len(ys)))
                       for _ in range(4000))
        print(f"| {label} | {a} / {b} | {statistics.median(xs) / statistics.median(ys):.2f} | {boots[100]:.2f}-{boots[3899]:.2f} "
              f"| {statistics.median(xs) * 1e9 / 2**30:.2f}, {statistics.median(ys) * 1e9 / 2**30:.2f} |")
