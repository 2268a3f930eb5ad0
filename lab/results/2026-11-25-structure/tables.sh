#!/usr/bin/env bash
# Regenerates the tables in README.md from the committed samples (python3, no other dependency),
# with the comparison script of the 2026-11-24-guarantees folder.
cd "$(dirname "$0")"
echo "## 1. sluice-core alone: the old harness with its own core against the same harness with the new core (run2.sh)"
python3 ../2026-11-24-guarantees/compare.py samples/swap-old-r*.csv -- samples/swap-newcore-r*.csv
echo; echo "## 2. Whole jars, old first in each pair (run.sh)"
python3 ../2026-11-24-guarantees/compare.py samples/old-3a0e34b-r*.csv -- samples/new-*-r*.csv
echo; echo "## 3. Whole jars again, new first in each pair (run3.sh)"
python3 ../2026-11-24-guarantees/compare.py samples/again-old-r*.csv -- samples/again-new-r*.csv
