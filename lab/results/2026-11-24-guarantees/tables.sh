#!/usr/bin/env bash
# Regenerates every table in README.md from the committed samples (python3, no other dependency).
cd "$(dirname "$0")"
s=samples
echo "## 1. Quick profile, old (13a66ce) against the fixes without the W8 fast path (58c76c7), 2 runs each"
python3 compare.py $s/old-13a66ce-r1.csv $s/old-13a66ce-r2.csv -- $s/new-58c76c7-r1.csv $s/new-58c76c7-r2.csv
echo; echo "## 2. Write cells again, 3 more runs each (pooled with 1.)"
python3 compare.py $s/writes-old-13a66ce-r*.csv $s/old-13a66ce-r*.csv -- $s/writes-new-58c76c7-r*.csv $s/new-58c76c7-r*.csv | sed -n '1,14p'
echo; echo "## 3. Write cells: old against the final W8 (w8), and 58c76c7 against it, 3 runs each"
python3 compare.py $s/w8-old-13a66ce-r*.csv -- $s/w8-w8-r*.csv | sed -n '1,14p'
python3 compare.py $s/w8-new-58c76c7-r*.csv -- $s/w8-w8-r*.csv | sed -n '1,7p'
echo; echo "## 4. withMaxItemBytes against the default, one run (2 forks x 4 rounds), 1 KiB items"
python3 within.py sluice $s/hardbound.csv
