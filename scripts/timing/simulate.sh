#!/bin/bash
# The timing diagrams' JSON from the RTL (docs/TIMING.md): generates the
# default stc cache into a fresh folder (STCGEN --out DIR --force, with
# STCGEN-ARGS if given), runs tests/rtl/tb_timing.v on it in Icarus (it must
# print "tb_timing: PASS", and compile without a warning), and converts its
# VCD with scripts/vcd2wavedrom.js into JSONDIR/NAME.json, one per diagram of
# SCENARIOS (default docs/timing/scenarios.txt). Used by
# scripts/render-timing.sh (make docs-timing) and tests/timing-check.sh.
# Usage: simulate.sh STCGEN JSONDIR [SCENARIOS [STCGEN-ARGS...]]
set -eu
STCGEN=${1:?usage: simulate.sh STCGEN JSONDIR [SCENARIOS [STCGEN-ARGS...]]}
JSONDIR=${2:?usage: simulate.sh STCGEN JSONDIR [SCENARIOS [STCGEN-ARGS...]]}
root="$(cd "$(dirname "$0")/../.." && pwd)"
SCENARIOS=${3:-$root/docs/timing/scenarios.txt}
shift 2
[ $# -gt 0 ] && shift
"$root/scripts/ensure-tools.sh" iverilog:iverilog vvp:iverilog node:nodejs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$STCGEN" "$@" --out "$work/rtl" --force >"$work/stcgen.log" 2>&1 || {
    echo "timing: $STCGEN $* --out DIR failed:" >&2
    cat "$work/stcgen.log" >&2
    exit 1
}
if ! iverilog -g2005 -Wall -I"$root/tests/rtl" -o "$work/tb.vvp" "$root/tests/rtl/tb_timing.v" \
    "$work/rtl"/*.v >"$work/iverilog.log" 2>&1 || [ -s "$work/iverilog.log" ]; then
    echo "timing: tb_timing does not compile cleanly:" >&2
    head -30 "$work/iverilog.log" >&2
    exit 1
fi
(cd "$work" && vvp -n tb.vvp +vcd="$work/tb_timing.vcd") >"$work/sim.log" 2>&1 || true
if ! grep -q "^tb_timing: PASS" "$work/sim.log" || grep -q "^FAIL" "$work/sim.log"; then
    echo "timing: tb_timing failed:" >&2
    grep -v "^VCD info" "$work/sim.log" | head -30 >&2
    exit 1
fi
mkdir -p "$JSONDIR"
node "$root/scripts/vcd2wavedrom.js" "$work/tb_timing.vcd" "$SCENARIOS" "$JSONDIR"
