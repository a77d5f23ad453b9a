#!/bin/bash
# The timing diagrams of docs/TIMING.md cannot drift from the RTL:
#   - scripts/timing/simulate.sh regenerates the default stc cache with
#     STCGEN, runs tests/rtl/tb_timing.v (Icarus, which must pass) and
#     converts its VCD into JSON in a scratch folder: the same diagrams as
#     docs/timing/*.json, byte for byte (no npm here: the SVGs are rendered
#     by `make docs-timing`, and each committed JSON must have its SVG and
#     be shown in docs/TIMING.md);
#   - red: a changed scenario (the CPU window one cycle later) and a changed
#     RTL behaviour (`stcgen --debug-break axi-wlast`: WLAST one beat early)
#     give JSON that differs from the committed one, so this check fails
#     when the RTL or the scenarios change without `make docs-timing`;
#   - the converter refuses a bad scenario file; the same run twice gives
#     the same bytes.
# Usage: timing-check.sh STCGEN
set -u
STCGEN=${1:?usage: timing-check.sh STCGEN}
STCGEN="$(cd "$(dirname "$STCGEN")" && pwd)/$(basename "$STCGEN")"
root="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# shellcheck source=tests/lib/checks.sh
. "$root/tests/lib/checks.sh"

docs="$root/docs/timing"
simulate="$root/scripts/timing/simulate.sh"

check "simulate: stcgen, tb_timing (PASS), vcd2wavedrom" "$simulate" "$STCGEN" "$work/json"
names=$(for f in "$docs"/*.json; do [ -e "$f" ] && basename "$f"; done)
check "docs/timing holds diagrams" test -n "$names"
for f in $names; do
    name=${f%.json}
    if cmp "$docs/$f" "$work/json/$f" >"$work/log" 2>&1; then
        passed=$((passed + 1))
    else
        diff "$docs/$f" "$work/json/$f" >>"$work/log" 2>&1
        echo "    (the RTL or docs/timing/scenarios.txt changed: run make docs-timing)" >>"$work/log"
        fail "docs/timing/$f equals what the RTL does"
    fi
    check "docs/timing/$name.svg is there" test -s "$docs/$name.svg"
    check "docs/TIMING.md shows $name.svg" grep -q "(timing/$name.svg)" "$root/docs/TIMING.md"
done
for f in "$work/json"/*.json; do
    check "$(basename "$f") is committed in docs/timing" test -f "$docs/$(basename "$f")"
done

# Red: another scenario window.
sed 's/^window 199 20$/window 200 20/' "$docs/scenarios.txt" >"$work/shifted.txt"
check "red setup: the CPU window moved" bash -c "! cmp -s '$docs/scenarios.txt' '$work/shifted.txt'"
check "red: simulate with the moved window" "$simulate" "$STCGEN" "$work/shifted" "$work/shifted.txt"
check "red: cpu.json differs after the window moved" bash -c "! cmp -s '$docs/cpu.json' '$work/shifted/cpu.json'"
# Red: a broken bridge (WLAST a beat early).
check "red: simulate on --debug-break axi-wlast" "$simulate" "$STCGEN" "$work/wlast" \
    "$docs/scenarios.txt" --debug-break axi-wlast
check "red: axi.json differs on the broken bridge" bash -c "! cmp -s '$docs/axi.json' '$work/wlast/axi.json'"
check "red: the cache's own diagrams do not" cmp "$docs/cpu.json" "$work/wlast/cpu.json"

# The converter refuses what it cannot draw.
printf 'diagram x\nclock tb_timing.clk\nwindow 1 4\nsignal tb_timing.no_such_net n\n' >"$work/bad1.txt"
printf 'diagram x\nclock tb_timing.clk\nwindow 1 4\nwiggle\n' >"$work/bad2.txt"
printf 'diagram x\nclock tb_timing.clk\nwindow 10 4\nelide 9 11\n' >"$work/bad3.txt"
for b in bad1 bad2 bad3; do
    check "vcd2wavedrom refuses $b" bash -c "! '$simulate' '$STCGEN' '$work/$b' '$work/$b.txt' 2>/dev/null"
done

# Determinism.
check "simulate twice" "$simulate" "$STCGEN" "$work/json2"
check "same command, same bytes" diff -r "$work/json" "$work/json2"

echo "timing-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
