#!/bin/bash
# synth/run-all.sh - `make synth`: generate and synthesize every geometry of
# the comparison, then print the summary (synth/summary.sh).
#
# Usage: synth/run-all.sh STCGEN OUT_DIR [NAME:FLAGS ...]
#
# Always: the 4 geometries `stcgen` (default), `--banks 8`,
# `--line-bytes 32`, `--banks 2`; the fixed baseline `--fixed 8K_4W_32B`
# if this stcgen knows the option (else the summary says "not available").
# Each NAME:FLAGS argument adds a variant, e.g. a tuner option
# (`mulser:--tuner-mult,serial`); FLAGS are split at commas (so that make
# can pass several variants in one variable). A variant the generator
# rejects is an error (status 1), so a typo is not silently lost.
# RTL goes to OUT_DIR/rtl/NAME, reports to OUT_DIR/NAME/, the summary to
# OUT_DIR/summary.md. Variables: STC_SYNTH_BASELINE=DIR uses an existing
# baseline folder instead of generating one.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: synth/run-all.sh STCGEN OUT_DIR [NAME:FLAGS ...]" >&2; exit 2; }
stcgen=$1
out=${2%/}
shift 2
[ -x "$stcgen" ] || { echo "run-all: $stcgen: not an executable" >&2; exit 2; }

variants=("default:" "banks8:--banks,8" "line32:--line-bytes,32" "banks2:--banks,2" "$@")
mkdir -p "$out/rtl"

gen() { # NAME FLAGS...
    local name=$1; shift
    "$stcgen" "$@" --out "$out/rtl/$name" --force >/dev/null
}

names=()
for v in "${variants[@]}"; do
    name=${v%%:*}
    flags=${v#*:}
    flags=${flags//,/ }
    case $name in ''|*[!A-Za-z0-9_-]*) echo "run-all: bad variant name '$name'" >&2; exit 2;; esac
    # shellcheck disable=SC2086
    gen "$name" $flags || { echo "run-all: stcgen $flags failed" >&2; exit 1; }
    names+=("$name")
done

baseline=""
if [ -n "${STC_SYNTH_BASELINE:-}" ]; then
    rm -rf "$out/rtl/fixed_8K_4W_32B"
    cp -r "$STC_SYNTH_BASELINE" "$out/rtl/fixed_8K_4W_32B"
    baseline=fixed_8K_4W_32B
elif "$stcgen" --fixed 8K_4W_32B --out "$out/rtl/fixed_8K_4W_32B" --force >/dev/null 2>&1; then
    baseline=fixed_8K_4W_32B
else
    echo "run-all: this stcgen has no --fixed: baseline not available" >&2
fi
[ -n "$baseline" ] && names+=("$baseline")

for name in "${names[@]}"; do
    synth/synth.sh "$out/rtl/$name" "$out/$name"
    synth/check-report.sh "$out/$name/report.json"
done

args=()
for name in "${names[@]}"; do
    [ "$name" = "$baseline" ] && continue
    args+=("$out/$name/report.json")
done
if [ -n "$baseline" ]; then
    synth/summary.sh --baseline "$out/$baseline/report.json" "${args[@]}" > "$out/summary.md"
else
    synth/summary.sh "${args[@]}" > "$out/summary.md"
fi
cat "$out/summary.md"
