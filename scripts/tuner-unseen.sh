#!/usr/bin/env bash
# tuner-unseen.sh STCSIM TRACEDIR - `make bench-tuner`'s table (optimum,
# oracle seed, hw seed, hw probe, hw monitor; scripts/tuner-table.sh) for
# the traces listed in TRACEDIR/index.txt: by default the programs the
# project was not developed on, made by traces/make-unseen-traces.sh
# (issue 13: the targets hold "on programs the project has not seen").
# The .main traces are left out, as in bench-tuner. PROBE_OPTS,
# MONITOR_OPTS and TUNE_OPTS pass through to tuner-table.sh.
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: $0 STCSIM TRACEDIR" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
STCSIM=$1
DIR=$2
[ -f "$DIR/index.txt" ] ||
    { echo "tuner-unseen: no $DIR/index.txt (traces/make-unseen-traces.sh $DIR makes it)" >&2; exit 1; }
ARCH=$("$HERE/trace-arch.sh" "$DIR")
TRACES=()
# index.txt: name arch class oracle_comparable trace main_trace
while read -r name arch _ _ trace _; do
    case $name in '#'* | '') continue ;; esac
    [ "$arch" = "$ARCH" ] || continue
    [ -f "$DIR/$trace" ] || { echo "tuner-unseen: $DIR/$trace is missing" >&2; exit 1; }
    TRACES+=("$DIR/$trace")
done <"$DIR/index.txt"
[ ${#TRACES[@]} -gt 0 ] || { echo "tuner-unseen: no $ARCH traces listed in $DIR/index.txt" >&2; exit 1; }
exec "$HERE/tuner-table.sh" "$STCSIM" "${TRACES[@]}"
