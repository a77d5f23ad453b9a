#!/usr/bin/env bash
# run-jobs.sh JOBFILE RAWDIR: run the jobs of JOBFILE (lines "NAME<TAB>COMMAND",
# words without blanks) two at a time: the machine has 2 cores and every job
# is one single-threaded stcsim run. Each job's output is RAWDIR/NAME.json.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: run-jobs.sh JOBFILE RAWDIR" >&2; exit 2; }
jobs=$1 raw=$2
here=$(dirname "$0")
[ -s "$jobs" ] || exit 0
# xargs -L 1: one job per line; its blanks split NAME and the words.
xargs -P 2 -L 1 "$here/run-one.sh" "$raw" <"$jobs"
