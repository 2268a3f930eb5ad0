#!/bin/bash
# run.sh, ab.sh and swapped.sh one after another, nothing else on the machine.
set -e
D=$(dirname "$0")
"$D/run.sh"; "$D/ab.sh"; "$D/swapped.sh"
