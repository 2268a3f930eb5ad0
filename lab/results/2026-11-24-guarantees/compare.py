#!/usr/bin/env python3
"""Old against new jar, same machine, alternating runs: per cell, sluice's throughput new/old
(ratio of medians, 95% bootstrap interval over samples) and the same for a baseline as a
noise check, for each of sluice, sluice-lent, loop-gather and loop that the samples hold (the
2026-11-25-structure run calls this script too). Usage: compare.py OLD_CSV... -- NEW_CSV..."""
import csv, random, statistics, sys

def load(paths):
    rows = []
    for p in paths:
        with open(p) as f:
            for r in csv.reader(f):
                if len(r) == 13 and r[0] != 'fork' and r[12] == 'OK':
                    rows.append(r)
    return rows

def speeds(rows, provider):
    cells = {}
    for r in rows:
        if r[4] != provider:
            continue
        cell = f"{r[1].lower()} {int(r[2]) // 1024} KiB x{r[3]}"
        cells.setdefault(cell, []).append(int(r[2]) * int(r[3]) / int(r[6]))   # bytes per ns = GB/s
    return cells

def interval(old, new, rounds=4000, seed=1):
    rnd = random.Random(seed)
    ratios = sorted(statistics.median(rnd.choices(new, k=len(new))) /
                    statistics.median(rnd.choices(old, k=len(old))) for _ in range(rounds))
    return ratios[int(0.025 * rounds)], ratios[int(0.975 * rounds) - 1]

def verdict(lo, hi):
    return "faster" if lo > 1 else "slower" if hi < 1 else "no difference shown"

args = sys.argv[1:]
split = args.index('--')
old_rows, new_rows = load(args[:split]), load(args[split + 1:])
for provider in ("sluice", "sluice-lent", "loop-gather", "loop"):
    old, new = speeds(old_rows, provider), speeds(new_rows, provider)
    if not old and not new:
        continue
    print(f"\n{provider}: new / old throughput, median of samples (95% bootstrap interval)")
    print("| cell | old GB/s | new GB/s | new/old | 95% interval | verdict | samples old/new |")
    print("|---|---:|---:|---:|---|---|---|")
    for cell in sorted(old):
        if cell not in new:
            continue
        o, n = old[cell], new[cell]
        lo, hi = interval(o, n)
        print(f"| {cell} | {statistics.median(o):.2f} | {statistics.median(n):.2f} | "
              f"{statistics.median(n) / statistics.median(o):.3f} | {lo:.3f}-{hi:.3f} | {verdict(lo, hi)} | {len(o)}/{len(n)} |")
