#!/bin/bash
# The monitor tuner: the miss monitor stc_monitor and the decision unit
# stc_monitor_tuner (docs/ARCHITECTURE.md sections 17 and 18):
#   - for the default geometry and three others (8 banks with 32-byte lines
#     and a short rotation, 2 banks watching every set with 12-bit tags and
#     plain-lower moves, one bank with a fixed group), READ_ONLY 0 and 1:
#     stc_monitor.v and stc_monitor_tuner.v are `verilator --lint-only
#     -Wall` clean with and without SYNTHESIS, compile in Icarus (-g2005
#     -Wall) without a warning, pass Yosys `proc; check -assert` with no
#     latch; the files are there exactly with --monitor;
#   - the lockstep test (tests/rtl/monitor_lockstep.c through the Verilator
#     shim tests/rtl/tb_monitor.cpp and the wiring tb_monitor_top.v): every
#     count of the monitor against the C model ref/monitor.c (with the clear
#     walk), back-to-back events included, and the unit's outputs and registers
#     against ref/monitor_tuner.c, every cycle;
#   - the output is the same bytes when generated twice;
#   - bad monitor options are refused with the parameter named and nothing
#     written.
# Usage: monitor-checks.sh STCGEN [EVENTS]  (EVENTS: the lockstep's program
# stream on the default geometry, default 300000: long enough to halve
# every count once)
set -u
STCGEN=${1:?usage: monitor-checks.sh STCGEN [EVENTS]}
EVENTS=${2:-300000}
STCGEN="$(cd "$(dirname "$STCGEN")" && pwd)/$(basename "$STCGEN")"
root="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
CC=${CC:-gcc}

# shellcheck source=tests/lib/checks.sh
. "$root/tests/lib/checks.sh"
# shellcheck source=tests/lib/vl-build.sh
. "$root/tests/lib/vl-build.sh"

for tool in verilator iverilog yosys g++ "$CC"; do
    if ! command -v "$tool" >/dev/null; then
        echo "monitor-checks: $tool is missing (make installs it: scripts/ensure-tools.sh)"
        exit 1
    fi
done

# shellcheck disable=SC2016
YOSYS_CHECK='proc; check -assert; select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$sr'

lib="$work/lib"
mkdir -p "$lib"
for file in monitor monitor_tuner tuner_hw fixed energy count config geometry; do
    if ! "$CC" -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra -Werror -I"$root/ref" \
        -c "$root/ref/$file.c" -o "$lib/$file.o" >"$work/log" 2>&1; then
        fail "compile ref/$file.c"
    fi
done

# tag|stcgen options|lockstep events
# (banks2 watches every set: count 0 and the unit's window both count every
# event, so where a halving falls in a decision moves only because the
# window, 72, does not divide the halvings' 2^15 steps (16-bit counts
# there): 64 would put every halving at the same step of a decision.
# banks1's 10-bit counts halve every 512 watched accesses.)
geometries=(
    "default||$EVENTS"
    "banks8|--banks 8 --bank-bytes 4096 --line-bytes 32 --monitor-rotate 5000|60000"
    "banks2|--banks 2 --monitor-sample-bits 0 --monitor-tag-bits 12 --monitor-margin 0 --monitor-window 72 --monitor-count-bits 16|150000"
    "banks1|--banks 1 --monitor-rotate 0 --monitor-count-bits 10|40000"
)
for entry in "${geometries[@]}"; do
    IFS='|' read -r gtag opts events <<<"$entry"
    out="$work/$gtag"
    # shellcheck disable=SC2086
    if ! "$STCGEN" --monitor $opts --out "$out" >"$work/log" 2>&1; then
        fail "$gtag: stcgen --monitor $opts"
        continue
    fi
    for ro in 0 1; do
        for define in "" "-DSYNTHESIS"; do
            quiet "$gtag: verilator -Wall stc_monitor READ_ONLY=$ro $define" \
                verilator --lint-only -Wall --default-language 1364-2005 $define -GREAD_ONLY=$ro \
                --top-module stc_monitor "$out/stc_monitor.v" "$out/stc_regfile.v"
            quiet "$gtag: verilator -Wall stc_monitor_tuner READ_ONLY=$ro $define" \
                verilator --lint-only -Wall --default-language 1364-2005 $define -GREAD_ONLY=$ro \
                --top-module stc_monitor_tuner "$out/stc_monitor_tuner.v"
        done
        quiet "$gtag: yosys stc_monitor READ_ONLY=$ro" \
            yosys -q -p "read_verilog $out/stc_monitor.v $out/stc_regfile.v; chparam -set READ_ONLY $ro stc_monitor; hierarchy -check -top stc_monitor; $YOSYS_CHECK"
        quiet "$gtag: yosys stc_monitor_tuner READ_ONLY=$ro" \
            yosys -q -p "read_verilog $out/stc_monitor_tuner.v; chparam -set READ_ONLY $ro stc_monitor_tuner; hierarchy -check -top stc_monitor_tuner; $YOSYS_CHECK"
    done
    quiet "$gtag: iverilog -Wall stc_monitor" \
        iverilog -g2005 -Wall -o "$work/mon.vvp" "$out/stc_monitor.v" "$out/stc_regfile.v"
    quiet "$gtag: iverilog -Wall stc_monitor_tuner" \
        iverilog -g2005 -Wall -o "$work/mon.vvp" "$out/stc_monitor_tuner.v"
    header="$out/stc_geometry_gen.h"
    value() { awk -v name="$1" '$1 == "#define" && $2 == name { sub(/u$/, "", $3); print $3 }' "$header"; }
    line_bits=$(($(value STC_GEN_ADDR_BITS) - $(value STC_GEN_OFFSET_BITS)))
    counts=$(value STC_GEN_MONITOR_COUNTS)
    sel_bits=1
    while [ $((1 << sel_bits)) -lt "$counts" ]; do sel_bits=$((sel_bits + 1)); done

    if ! "$CC" -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra -Werror \
        -I"$root/ref" -I"$root/tests" -I"$root/tests/rtl" -I"$out" \
        -c "$root/tests/rtl/monitor_lockstep.c" -o "$work/lockstep.o" >"$work/log" 2>&1; then
        fail "$gtag: monitor_lockstep.c compiles"
        continue
    fi
    rm -f "$work/libml.a"
    ar rcs "$work/libml.a" "$work/lockstep.o" "$lib"/*.o
    # An I-cache's monitor (READ_ONLY: no dirty state) on the default and
    # the 8-bank geometry; READ_ONLY changes the arrays' width and the
    # writeback counts, not how a geometry maps (linted everywhere above).
    ros="0 1"
    case $gtag in banks2 | banks1) ros=0 ;; esac
    for ro in $ros; do
        # (the shim is testbench code: only the generated RTL is held to -Wall)
        if vl_build "$work/vl-$gtag-$ro" -- --cc --exe -Wno-fatal -Wno-lint -Wno-style \
            -GREAD_ONLY=$ro -DSTC_LINE_BITS="$line_bits" -DSTC_SEL_BITS="$sel_bits" \
            --top-module tb_monitor_top -o tb \
            -CFLAGS "-I$root/ref -I$root/tests -I$root/tests/rtl -I$out -DMONITOR_READ_ONLY=$ro" \
            "$root/tests/rtl/tb_monitor.cpp" "$work/libml.a" "$root/tests/rtl/tb_monitor_top.v" \
            "$out/stc_monitor.v" "$out/stc_monitor_tuner.v" "$out/stc_regfile.v" >"$work/log" 2>&1; then
            if "$work/vl-$gtag-$ro/tb" "$events" >"$work/log" 2>&1 &&
                grep -q "monitor_lockstep: PASS" "$work/log"; then
                passed=$((passed + 1))
                sed 's/^/    /' "$work/log" | grep -v PASS | sed "s/^    /    $gtag: /"
                # Every count watched, a short window: decisions run most
                # of the time, so a halving lands inside one that it would
                # otherwise have moved (18.3's check must hold it).
                if [ "$gtag" = banks2 ] && ! grep -Eq '\([1-9][0-9]* of them held' "$work/log"; then
                    fail "$gtag READ_ONLY=$ro: no decision held by the halving check"
                fi
                # From reset, the first decisions see few watched accesses:
                # a move that walks must be held there (18.3) at least once
                # (one bank cannot walk).
                if [ "$gtag" != banks1 ] && ! grep -Eq ' [1-9][0-9]* walking moves held' "$work/log"; then
                    fail "$gtag READ_ONLY=$ro: no walking move held for evidence"
                fi
            else
                fail "$gtag READ_ONLY=$ro: lockstep RTL = model every cycle"
            fi
            rm -rf "$work/vl-$gtag-$ro"
        else
            fail "$gtag READ_ONLY=$ro: lockstep harness builds"
        fi
    done
done

# The files come with the default (monitor) tuner, or beside the seed
# tuner with --monitor; not with the seed tuner alone; the core lists them.
quiet "stcgen --tuner seed" "$STCGEN" --tuner seed --out "$work/plain"
check "no stc_monitor.v with the seed tuner alone" test ! -e "$work/plain/stc_monitor.v"
check "no stc_monitor_tuner.v with the seed tuner alone" test ! -e "$work/plain/stc_monitor_tuner.v"
quiet "stcgen --tuner seed --monitor" "$STCGEN" --tuner seed --monitor --out "$work/both"
check "--tuner seed --monitor: both tuners' files, the name ends in _seed_monitor" bash -c \
    "[ -f '$work/both/stc_tuner.v' ] && [ -f '$work/both/stc_monitor_tuner.v' ] && grep -q 'STC_GEN_NAME \"b4_2k_l16_a32_seed_monitor\"' '$work/both/stc_geometry_gen.h'"
check "the core lists stc_monitor.v" grep -q "stc_monitor.v" "$work/default/stc_cache.core"
check "the default output has stc_monitor.v" test -e "$work/default/stc_monitor.v"
check "the core lists stc_monitor_tuner.v" grep -q "stc_monitor_tuner.v" "$work/default/stc_cache.core"
quiet "stcgen --monitor again" "$STCGEN" --monitor --out "$work/again"
check "stcgen --monitor is deterministic (same bytes twice)" diff -r "$work/default" "$work/again"
for bad in "--monitor-sample-bits 6|stcgen: --monitor-sample-bits 6: this geometry allows 0..5" \
    "--monitor-sample-bits 5|stcgen: --monitor-sample-bits 5: the 4-way mapping with logical lines of 4 physical lines would watch 1 set" \
    "--monitor-tag-bits 0|stcgen: --monitor-tag-bits 0: must be from 1 to 32" \
    "--monitor-rotate 70000|stcgen: --monitor-rotate 70000: must be from 0 to 65535" \
    "--monitor-window 1|stcgen: --monitor-window 1: must be from 2 to 65536" \
    "--monitor-margin 17|stcgen: --monitor-margin 17: must be from 0 to 16" \
    "--monitor-count-bits 3|stcgen: --monitor-count-bits 3: must be from 4 to 16" \
    "--monitor-count-bits 17|stcgen: --monitor-count-bits 17: must be from 4 to 16" \
    "--monitor-walk-min 16384|stcgen: --monitor-walk-min 16384: must be from 0 to 16383" \
    "--monitor-count-bits 16 --monitor-walk-min 65536|stcgen: --monitor-walk-min 65536: must be from 0 to 65535"; do
    IFS='|' read -r opt message <<<"$bad"
    # shellcheck disable=SC2086
    if "$STCGEN" --monitor $opt --out "$work/bad" >"$work/err" 2>&1; then
        fail "$opt is refused"
    else
        check "$opt: message" grep -qF "$message" "$work/err"
        check "$opt: nothing written" test ! -e "$work/bad"
    fi
done

echo "monitor-checks: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
