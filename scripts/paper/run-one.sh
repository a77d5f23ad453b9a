#!/usr/bin/env bash
# run-one.sh RAWDIR NAME COMMAND...: run one job of jobs.tsv, its stdout to
# RAWDIR/NAME.json. Written under a temporary name and moved, so a failed
# or interrupted job never leaves a half file that looks finished. Exit 255
# on failure: xargs then stops starting new jobs.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: run-one.sh RAWDIR NAME COMMAND..." >&2; exit 255; }
raw=$1 name=$2
shift 2
if ! "$@" >"$raw/$name.json.tmp" 2>"$raw/$name.err"; then
    echo "paper: job $name failed: $*" >&2
    cat "$raw/$name.err" >&2
    exit 255
fi
mv "$raw/$name.json.tmp" "$raw/$name.json"
rm -f "$raw/$name.err"
