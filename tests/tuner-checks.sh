#!/bin/bash
# The hardware tuner stc_tuner (docs/ARCHITECTURE.md section 16):
#   - for four geometries (the default, 8 banks, 32-byte lines, 2 banks) and
#     the default without way prediction, and
#     each multiplier (array, serial, radix4, radix16) and coefficient option
#     (regs, const), and the lean register block (radix16 + const, array +
#     regs):
#     stc_tuner.v is `verilator --lint-only -Wall` clean with and without
#     SYNTHESIS and passes Yosys `proc; check -assert` with no latch; the
#     whole design compiles in Icarus (-g2005 -Wall) without a warning and
#     lints clean with stc_cache_pair on top (every option on the default
#     geometry, three option sets on the others); the file is there exactly
#     when the tuner is built (--no-tuner leaves it out) and the output name
#     carries the options;
#   - the lockstep test (tests/rtl/tuner_lockstep.c through the Verilator
#     shim tests/rtl/tb_tuner.cpp): the RTL against ref/tuner_hw.c every
#     cycle (outputs, every register address, every flop; each window's
#     energy against stc_fixed_energy) for the default geometry with all
#     ten option sets, the other geometries with the array multiplier, and
#     the default without way prediction; the
#     seed's example and the mpeg2 case on the default; a radix multiplier
#     whose step ends one digit early (--debug-break tuner-radix) must fail;
#   - the tuner in the top (tests/rtl/tb_tuner_top.v, Icarus and Verilator):
#     a search on a real CPU stream through the controller, software's
#     configuration port held off meanwhile, the window counters wired;
#     every top lint-clean with every option;
#   - the generator's summary prints the compute cycles of the longest search.
# Usage: tuner-checks.sh STCGEN
set -u
STCGEN=${1:?usage: tuner-checks.sh STCGEN}
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
        echo "tuner-checks: $tool is missing (make installs it: scripts/ensure-tools.sh)"
        exit 1
    fi
done

# shellcheck disable=SC2016
YOSYS_CHECK='proc; check -assert; select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$sr'

# lockstep_build TAG OUT DIR: the lockstep harness for the stc_tuner.v in
# OUT, built into $work/vl-DIR/tb; fails TAG when it does not build.
lockstep_build() {
    if ! "$CC" -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra -Werror \
        -I"$root/ref" -I"$root/tests" -I"$root/tests/rtl" -I"$2" \
        -c "$root/tests/rtl/tuner_lockstep.c" -o "$work/lockstep.o" >"$work/log" 2>&1; then
        fail "$1: tuner_lockstep.c compiles"
        return 1
    fi
    rm -f "$work/libtl.a"
    ar rcs "$work/libtl.a" "$work/lockstep.o" "$lib"/*.o
    # (the shim is testbench code: only the generated RTL is held to -Wall)
    if ! vl_build "$work/vl-$3" -- --cc --exe --public-flat-rw -Wno-fatal -Wno-lint -Wno-style \
        --top-module stc_tuner -o tb \
        -CFLAGS "-I$root/ref -I$root/tests -I$root/tests/rtl -I$2" \
        "$root/tests/rtl/tb_tuner.cpp" "$work/libtl.a" "$2/stc_tuner.v" \
        >"$work/log" 2>&1; then
        fail "$1: lockstep harness builds"
        return 1
    fi
}

# The model's objects for the lockstep harness, built once.
lib="$work/lib"
mkdir -p "$lib"
for file in tuner_hw fixed energy config geometry; do
    if ! "$CC" -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra -Werror -I"$root/ref" \
        -c "$root/ref/$file.c" -o "$lib/$file.o" >"$work/log" 2>&1; then
        fail "compile ref/$file.c"
    fi
done

geometries=(
    "default|"
    "banks8|--banks 8"
    "line32|--line-bytes 32"
    "banks2|--banks 2"
    "nowp|--no-way-prediction"
)
options=(
    "array-regs|--tuner seed"
    "serial-regs|--tuner seed --tuner-mult serial"
    "array-const|--tuner seed --tuner-coeff const"
    "serial-const|--tuner seed --tuner-mult serial --tuner-coeff const"
    "radix16-regs|--tuner seed --tuner-mult radix16"
    "radix4-regs|--tuner seed --tuner-mult radix4"
    "radix16-const|--tuner seed --tuner-mult radix16 --tuner-coeff const"
    "radix4-const|--tuner seed --tuner-mult radix4 --tuner-coeff const"
    "radix16-const-lean|--tuner seed --tuner-mult radix16 --tuner-coeff const --tuner-regs lean"
    "array-regs-lean|--tuner seed --tuner-regs lean"
    "radix16-const-lean-notrig|--tuner seed --tuner-mult radix16 --tuner-coeff const --tuner-regs lean --tuner-triggers off"
    "serial-regs-notrig|--tuner seed --tuner-mult serial --tuner-triggers off"
)

for entry in "${geometries[@]}"; do
    gtag=${entry%%|*}
    gargs=${entry#*|}
    for option in "${options[@]}"; do
        otag=${option%%|*}
        oargs=${option#*|}
        tag="$gtag/$otag"
        out="$work/$gtag-$otag"
        # shellcheck disable=SC2086
        quiet "$tag: stcgen" "$STCGEN" $gargs $oargs --out "$out"
        [ -f "$out/stc_tuner.v" ] || { fail "$tag: stc_tuner.v written"; continue; }
        name=$(sed -n 's/^#define STC_GEN_NAME "\(.*\)"/\1/p' "$out/stc_geometry_gen.h")
        # tag MULT-COEF[-lean]: _seed[_MULT][_coefconst][_lean]
        suffix="_seed"
        case $otag in array-*) ;; *) suffix="${suffix}_${otag%%-*}" ;; esac
        case $otag in *-const*) suffix="${suffix}_coefconst" ;; esac
        case $otag in *-lean | *-lean-*) suffix="${suffix}_lean" ;; esac
        case $otag in *-notrig) suffix="${suffix}_notrig" ;; esac
        [ "$gtag" = nowp ] && suffix="_nowp$suffix"
        check "$tag: name $name ends in '$suffix'" bash -c "[[ '$name' == *_a32$suffix ]]"
        for define in "" -DSYNTHESIS; do
            quiet "$tag: verilator -Wall stc_tuner $define" \
                verilator --lint-only -Wall --default-language 1364-2005 $define \
                --top-module stc_tuner "$out/stc_tuner.v"
        done
        # The whole design (the tuner in the tops) with every option on the
        # default geometry; on the others with one option set per
        # multiplier family, coefficient style and register block (the
        # tops' wiring of the tuner does not depend on the multiplier, and
        # stc_tuner itself is linted above with every option everywhere).
        case $gtag/$otag in
        default/* | */array-regs | */serial-regs | */radix16-const-lean) ;;
        *) whole=no ;;
        esac
        if [ "${whole:-yes}" = yes ]; then
            for define in "" -DSYNTHESIS; do
                quiet "$tag: iverilog -g2005 -Wall $define" \
                    iverilog -g2005 -Wall $define -o "$work/tuner.vvp" "$out"/*.v
            done
            quiet "$tag: verilator -Wall stc_cache_pair (tuner in the tops)" \
                verilator --lint-only -Wall --default-language 1364-2005 \
                --top-module stc_cache_pair "$out"/*.v
        fi
        unset whole
        quiet "$tag: yosys stc_tuner" \
            yosys -q -p "read_verilog $out/stc_tuner.v; hierarchy -check -top stc_tuner; $YOSYS_CHECK"

        # Lockstep: all options on the default geometry, the array
        # multiplier with loadable coefficients on the others (what a
        # geometry changes, the configurations and their energies, does not
        # depend on the multiplier; every option is linted on every
        # geometry above).
        case $otag in array-regs) ;; *) [ "$gtag" != default ] && continue ;; esac
        if lockstep_build "$tag" "$out" "$gtag-$otag"; then
            if "$work/vl-$gtag-$otag/tb" >"$work/log" 2>&1 && grep -q "tuner_lockstep: PASS" "$work/log"; then
                passed=$((passed + 1))
                if [ "$gtag" = default ]; then sed 's/^/    /' "$work/log" | grep -E "seed|mpeg2"; fi
            else
                fail "$tag: lockstep RTL = model every cycle"
            fi
            rm -rf "$work/vl-$gtag-$otag"
        fi
    done
done

# A broken radix multiplier (each step one digit short: the top digit of
# every count lost) must be caught by the lockstep.
out="$work/broken-radix"
quiet "stcgen --debug-break tuner-radix" "$STCGEN" --tuner seed --tuner-mult radix16 \
    --debug-break tuner-radix --out "$out"
if lockstep_build "broken radix" "$out" broken-radix; then
    if "$work/vl-broken-radix/tb" >"$work/log" 2>&1; then
        fail "broken radix multiplier (tuner-radix) caught by the lockstep"
    else
        cp "$work/log" "$work/broken.log"
        check "broken radix multiplier (tuner-radix) caught by the lockstep" \
            grep -q "tuner_lockstep: FAIL" "$work/broken.log"
        grep -m1 "tuner_lockstep: FAIL" "$work/broken.log" | sed 's/^/    /'
    fi
    rm -rf "$work/vl-broken-radix"
fi

# The tuner inside the top, default geometry: tests/rtl/tb_tuner_top.v in
# Icarus (array and radix-16 multipliers) and Verilator (array).
for otag in array-regs radix16-const; do
    out="$work/default-$otag"
    if iverilog -g2005 -Wall -I"$root/tests/rtl" -o "$work/tt.vvp" "$root/tests/rtl/tb_tuner_top.v" \
        "$out"/*.v >"$work/log" 2>&1 && [ ! -s "$work/log" ]; then
        if vvp -n "$work/tt.vvp" >"$work/log" 2>&1 && grep -q "tb_tuner_top: PASS" "$work/log"; then
            passed=$((passed + 1))
            grep "search examined" "$work/log" | sed "s/^/    $otag: /"
        else
            fail "tb_tuner_top (Icarus, $otag)"
        fi
    else
        fail "tb_tuner_top compiles in Icarus ($otag)"
    fi
done
out="$work/default-array-regs"
if vl_build "$work/vl-top" -- --cc --exe --main --timing -Wno-fatal -Wno-lint -Wno-style \
    --top-module tb_tuner_top -I"$root/tests/rtl" -o tb "$root/tests/rtl/tb_tuner_top.v" \
    "$out"/*.v >"$work/log" 2>&1; then
    if "$work/vl-top/tb" >"$work/log" 2>&1 && grep -q "tb_tuner_top: PASS" "$work/log"; then
        passed=$((passed + 1))
    else
        fail "tb_tuner_top (Verilator)"
    fi
else
    fail "tb_tuner_top builds in Verilator"
fi

# The default tuner is the monitor tuner (ARCHITECTURE.md 18.7): no stc_tuner.v.
quiet "stcgen (default)" "$STCGEN" --out "$work/plain"
check "default: the monitor tuner's files, no stc_tuner.v" bash -c \
    "[ -f '$work/plain/stc_monitor.v' ] && [ -f '$work/plain/stc_monitor_tuner.v' ] && [ ! -e '$work/plain/stc_tuner.v' ]"
check "default: u_monitor and u_tuner in stc_cache" bash -c \
    "grep -q 'stc_monitor #(' '$work/plain/stc_cache.v' && grep -q ') u_tuner (' '$work/plain/stc_cache.v' && grep -q 'stc_monitor_tuner #(' '$work/plain/stc_cache.v'"
# --no-tuner leaves the tuner out; the summary prints the cycle figures.
quiet "stcgen --no-tuner" "$STCGEN" --no-tuner --out "$work/notuner"
check "--no-tuner: no stc_tuner.v" test ! -e "$work/notuner/stc_tuner.v"
check "--no-tuner: no monitor" test ! -e "$work/notuner/stc_monitor_tuner.v"
check "--no-tuner: the core does not list it" bash -c "! grep -q stc_tuner '$work/notuner/stc_cache.core'"
check "the core lists stc_tuner.v" grep -q "stc_tuner.v" "$work/default-array-regs/stc_cache.core"
check "summary: array 55 compute cycles" bash -c \
    "'$STCGEN' --tuner seed --out '$work/sum1' --summary | grep -q 'longest search (8 configurations) 55 compute cycles'"
check "summary: serial 445 compute cycles" bash -c \
    "'$STCGEN' --tuner seed --tuner-mult serial --out '$work/sum2' --summary | grep -q 'longest search (8 configurations) 445 compute cycles'"
check "summary: radix4 237 compute cycles" bash -c \
    "'$STCGEN' --tuner seed --tuner-mult radix4 --out '$work/sum3' --summary | grep -q 'longest search (8 configurations) 237 compute cycles'"
check "summary: radix16 133 compute cycles" bash -c \
    "'$STCGEN' --tuner seed --tuner-mult radix16 --out '$work/sum4' --summary | grep -q 'longest search (8 configurations) 133 compute cycles'"
check "header: radix16 lists tuner_mult 3" grep -q "define STC_GEN_TUNER_MULT  *3u" "$work/sum4/stc_geometry_gen.h"
check "header: array does not list tuner_mult" bash -c "! grep -q STC_GEN_TUNER_MULT '$work/sum1/stc_geometry_gen.h'"
check "--summary is not in the command of the headers" bash -c \
    "grep -qx '//   stcgen --tuner seed' '$work/sum1/stc_tuner.v'"
if "$STCGEN" --tuner-mult fast --out "$work/bad" >"$work/err" 2>&1; then
    fail "--tuner-mult fast is refused"
else
    check "--tuner-mult fast: message" grep -q "stcgen: --tuner-mult fast: must be array, serial, radix4 or radix16" "$work/err"
    check "--tuner-mult fast: nothing written" test ! -e "$work/bad"
fi
if "$STCGEN" --tuner seed --tuner-regs small --out "$work/bad" >"$work/err" 2>&1; then
    fail "--tuner-regs small is refused"
else
    check "--tuner-regs small: message" grep -q "stcgen: --tuner-regs small: must be full or lean" "$work/err"
fi
if "$STCGEN" --tuner-regs lean --out "$work/bad" >"$work/err" 2>&1; then
    fail "--tuner-regs lean without --tuner seed is refused"
else
    check "--tuner-regs lean with the monitor tuner: message" \
        grep -q "are options of the seed tuner (add --tuner seed)" "$work/err"
fi
if "$STCGEN" --tuner-triggers off --out "$work/bad" >"$work/err" 2>&1; then
    fail "--tuner-triggers off without --tuner seed is refused"
else
    check "--tuner-triggers off with the monitor tuner: message and nothing written" \
        bash -c "grep -q 'are options of the seed tuner (add --tuner seed)' '$work/err' && [ ! -e '$work/bad' ]"
fi
if "$STCGEN" --tuner seed --tuner-triggers maybe --out "$work/bad" >"$work/err" 2>&1; then
    fail "--tuner-triggers maybe is refused"
else
    check "--tuner-triggers maybe: message" grep -q "stcgen: --tuner-triggers maybe: must be on or off" "$work/err"
fi

echo "tuner-checks: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
