#!/usr/bin/env bash
# bench.sh STCSIM TRACEDIR [NAME] - stcsim speed on a real trace.
#
# Prints references per second (CPU time, best of 3) for:
#   one I+D configuration, plain text input (the >= 20 M refs/s target)
#   one configuration, zstd input (decompressed in-process, CPU included)
#   all configurations in one pass, against the same configurations run as
#   separate processes (the >= 5x target)
#   all configurations in one pass on the same references as DineroIV din
#   text, wall time beside CPU time (the reading runs on its own thread and
#   the I-cache on another: issue 19's 55 M refs/s for the whole sweep is a
#   wall-clock target)
# and, for scale, valgrind cachegrind's time running the traced program with
# one configuration. A benchmark, not a test: it asserts nothing.
set -euo pipefail
STCSIM=${1:?usage: bench.sh STCSIM TRACEDIR [NAME]}
TRACEDIR=${2:?usage: bench.sh STCSIM TRACEDIR [NAME]}
if [ $# -ge 3 ]; then
    NAME=$3
else
    # djpeg of the traces' architecture (i386, or amd64 where 32-bit programs
    # cannot run; traces/make-traces.sh records it in TRACEDIR/arch.txt).
    ARCH=$("$(dirname "$0")/trace-arch.sh" "$TRACEDIR")
    NAME=djpeg.$ARCH
fi
ZST=$TRACEDIR/$NAME.lackey.zst
[ -f "$ZST" ] || { echo "bench: no trace $ZST (run make traces)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Repeat the trace so each run takes long enough to time.
plain=$work/$NAME.lackey
for _ in 1 2 3 4 5 6 7 8; do zstd -dcq "$ZST"; done >"$plain"
refs=$(grep -c . "$plain")
# The same text as one zstd file, so both inputs time the same references.
zstd -q -c "$plain" >"$work/$NAME.lackey.zst"
# The same references as din ("LABEL ADDRESS SIZE"; lackey's M, a read and
# a write of the same bytes, has no din label: it becomes a write).
din=$work/$NAME.din
awk '$1 == "I" || $1 == "L" || $1 == "S" || $1 == "M" {
         split($2, field, ",")
         print ($1 == "I" ? 2 : $1 == "L" ? 0 : 1), field[1], field[2]
     }' "$plain" >"$din"
din_refs=$(wc -l <"$din")

# shellcheck source=scripts/lib/cpu-time.sh
. "$(dirname "$0")/lib/cpu-time.sh"
# wall_and_cpu CMD...: "WALL CPU" seconds of the run with the lowest wall
# time of 3.
wall_and_cpu() {
    local TIMEFORMAT='%R %U %S' best="" line
    for _ in 1 2 3; do
        { time "$@" >/dev/null 2>"$work/stderr"; } 2>"$work/time"
        line=$(awk '{ print $1, $2 + $3 }' "$work/time")
        if [ -z "$best" ] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
            best=$line
        fi
    done
    echo "$best"
}
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.1f M refs/s", n / (s > 0 ? s : 1e-9) / 1e6 }'; }

echo "stcsim benchmark on $NAME x8: $refs references ($(nproc) cores, CPU time, best of 3)"
one=$(cpu_seconds "$STCSIM" -c 8K_4W_32B "$plain")
printf '  %-46s %7.2f s  %s\n' "one configuration (8K_4W_32B), text" "$one" "$(rate "$refs" "$one")"
one_zst=$(cpu_seconds "$STCSIM" -c 8K_4W_32B "$work/$NAME.lackey.zst")
printf '  %-46s %7.2f s  %s (decompression included)\n' \
    "one configuration, zstd input" "$one_zst" "$(rate "$refs" "$one_zst")"

: >"$work/empty"
configs=$("$STCSIM" --json "$work/empty" | jq -r '.configs[].name')
count=$(echo "$configs" | wc -l)
sweep=$(cpu_seconds "$STCSIM" --all "$plain")
printf '  %-46s %7.2f s  %s\n' "all $count configurations, one pass" "$sweep" \
    "$(rate $((refs * count)) "$sweep") (configuration x references)"
model_sweep=$(cpu_seconds "$STCSIM" --all --engine model "$plain")
printf '  %-46s %7.2f s  %s\n' "all $count, one pass, one cache model each" "$model_sweep" \
    "$(rate $((refs * count)) "$model_sweep") (configuration x references)"
separate=0
for config in $configs; do
    t=$(cpu_once "$STCSIM" -c "$config" "$plain")
    separate=$(awk -v a="$separate" -v b="$t" 'BEGIN { print a + b }')
done
printf '  %-46s %7.2f s\n' "the same $count configurations, separate runs" "$separate"
awk -v a="$separate" -v b="$sweep" 'BEGIN { printf "  one-pass speed-up over separate runs: %.1fx (target 5x)\n", a / b }'
read -r din_wall din_cpu <<<"$(wall_and_cpu "$STCSIM" --all "$din")"
printf '  %-46s %7.2f s  %s wall (target 55), CPU %.2f s\n' "all $count, one pass, din text, wall time" \
    "$din_wall" "$(rate "$din_refs" "$din_wall")" "$din_cpu"
read -r lackey_wall lackey_cpu <<<"$(wall_and_cpu "$STCSIM" --all "$plain")"
printf '  %-46s %7.2f s  %s wall, CPU %.2f s\n' "all $count, one pass, lackey text, wall time" \
    "$lackey_wall" "$(rate "$refs" "$lackey_wall")" "$lackey_cpu"

# cachegrind on the traced program itself, for scale.
cmd=$TRACEDIR/$NAME.cmd
if [ -f "$cmd" ]; then
    cwd=$(sed -n 's/^cwd: //p' "$cmd")
    prefix=$(sed -n 's/^prefix: //p' "$cmd")
    command=$(sed -n 's/^command: //p' "$cmd")
    run_cachegrind() {
        # shellcheck disable=SC2086
        (cd "$TRACEDIR/$cwd" && $prefix --tool=cachegrind --cache-sim=yes --I1=8192,4,32 \
            --D1=8192,4,32 --LL=1048576,16,64 --cachegrind-out-file=/dev/null $command)
    }
    cg=$(cpu_once run_cachegrind)
    if [ -n "$cg" ]; then
        printf '  %-46s %7.2f s  %s (program run + simulation, 1/8 of the refs)\n' \
            "valgrind cachegrind, one configuration" "$cg" "$(rate $((refs / 8)) "$cg")"
    fi
fi
