#!/usr/bin/env bash
# Regenerates the tables in README.md from the committed samples (python3, no other dependency).
cd "$(dirname "$0")"
echo "## Quick profile, old (3a0e34b) against new, 3 alternating runs each"
python3 compare.py samples/old-3a0e34b-r*.csv -- samples/new-*-r*.csv
