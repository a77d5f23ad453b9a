# tests/lib/port-checks.sh - what tests/axi-checks.sh and tests/obi-checks.sh
# both check of the generated port modules (stc_cache_axi.v, stc_cache_obi.v)
# and their testbenches (tests/rtl/tb_axi.v, tb_obi.v); sourced after
# tests/lib/checks.sh. The caller sets `root`, `work`, `STCGEN`, `passed`
# and `failed` as checks.sh asks; `plusargs` (the simulation's plusargs for
# run_tb) starts empty.
# shellcheck shell=bash disable=SC2154

plusargs=()

# The geometries both port checks lint and run, TAG|STCGEN ARGS: the
# default, 32 B lines, 64-bit addresses, the seed tuner, and 512 B lines
# (the longest bursts).
# shellcheck disable=SC2034
port_geometries=(
    "default|"
    "l32|--line-bytes 32"
    "a64|--addr-bits 64"
    "seed|--tuner seed"
    "l512|--line-bytes 512 --bank-bytes 4096 --no-tuner"
)

# shellcheck disable=SC2016
YOSYS_CHECK='proc; check -assert; select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$sr'

# need_tools NAME TOOL...: NAME (the calling script) stops when a tool is
# missing.
need_tools() {
    local name=$1 tool
    shift
    for tool in "$@"; do
        if ! command -v "$tool" >/dev/null; then
            echo "$name: $tool is missing (make installs it: scripts/ensure-tools.sh)"
            exit 1
        fi
    done
}

# A value from a generated geometry header: header_value DIR NAME.
header_value() {
    sed -n "s/^#define STC_GEN_$2 *\([0-9]*\)u.*/\1/p" "$1/stc_geometry_gen.h"
}

# generate TAG ARGS OUT FILE: stcgen ARGS writes OUT quietly, with FILE
# (a port module) in it whose header has the command and which the FuseSoC
# core lists. Returns 1 (the geometry's other checks skipped) without FILE.
generate() {
    local tag=$1 args=$2 out=$3 file=$4
    # shellcheck disable=SC2086
    quiet "$tag: stcgen $args" "$STCGEN" $args --out "$out"
    [ -s "$out/$file" ] || { fail "$tag: $file written"; return 1; }
    check "$tag: $file header has the command" grep -qx "//   stcgen${args:+ $args}" "$out/$file"
    check "$tag: the core lists $file" grep -qx "      - $file" "$out/stc_cache.core"
}

# verilator_wall TAG FILE TOP LABEL [VERILATOR-OPTION...]: `verilator
# --lint-only -Wall` finds nothing in TOP, with and without SYNTHESIS; LABEL
# (may be empty) tells the options apart in the check's name.
verilator_wall() {
    local tag=$1 file=$2 top=$3 label=$4 define
    shift 4
    for define in "" -DSYNTHESIS; do
        quiet "$tag: verilator -Wall $top${label:+ $label} $define" \
            verilator --lint-only -Wall --default-language 1364-2005 $define "$@" \
            --top-module "$top" "$file"
    done
}

# iverilog_all TAG DIR: the whole output compiles in Icarus (-g2005 -Wall)
# without a warning, with and without SYNTHESIS.
iverilog_all() {
    local tag=$1 dir=$2 define
    for define in "" -DSYNTHESIS; do
        quiet "$tag: iverilog -g2005 -Wall $define (every file)" \
            iverilog -g2005 -Wall $define -o "$work/all.vvp" "$dir"/*.v
    done
}

# yosys_no_latch TAG FILE TOP LABEL [CHPARAM]: Yosys `proc; check -assert`
# finds no latch in TOP, its parameters first set by CHPARAM (a Yosys
# command) if given.
yosys_no_latch() {
    local tag=$1 file=$2 top=$3 label=$4 chparam=${5:-}
    quiet "$tag: yosys $top${label:+ $label} (no latch)" \
        yosys -q -p "read_verilog $file; ${chparam:+$chparam; }hierarchy -check -top $top; $YOSYS_CHECK"
}

# run_tb TB TAG DIR EXPECT [iverilog options...]: tests/rtl/TB.v in Icarus on
# the output DIR, with ${plusargs[@]}; EXPECT pass: "TB: PASS", fail: a FAIL
# line and no PASS (the run stops at its first error).
run_tb() {
    local tb=$1 tag=$2 dir=$3 expect=$4
    shift 4
    local params=(-P"$tb".ADDR_BITS="$(header_value "$dir" ADDR_BITS)"
        -P"$tb".LINE_BYTES="$(header_value "$dir" LINE_BYTES)"
        -P"$tb".OFFSET_BITS="$(header_value "$dir" OFFSET_BITS)")
    if ! iverilog -g2005 -Wall -I"$root/tests/rtl" "${params[@]}" "$@" -o "$work/$tb.vvp" \
        "$root/tests/rtl/$tb.v" "$dir"/*.v >"$work/log" 2>&1 || [ -s "$work/log" ]; then
        fail "$tag: $tb compiles"
        return
    fi
    if [ "$expect" = pass ]; then
        sim "$tag: $tb" "$tb: PASS" vvp -n "$work/$tb.vvp" "${plusargs[@]}"
    else
        # (a red run ends at its first error: +stop_at_first_fail)
        vvp -n "$work/$tb.vvp" "${plusargs[@]}" +stop_at_first_fail >"$work/log" 2>&1
        if grep -q "^FAIL" "$work/log" && ! grep -q "$tb: PASS" "$work/log"; then
            passed=$((passed + 1))
            echo "red as wanted ($tag): $(grep -m1 '^FAIL' "$work/log")"
        else
            fail "$tag: $tb must fail"
        fi
    fi
}

# verilator_tb NAME TB DIR: tests/rtl/TB.v built by Verilator on the output
# DIR must print "TB: PASS" (skipped, as NAME says, without a C++ compiler).
verilator_tb() {
    local name=$1 tb=$2 dir=$3 param
    if ! command -v g++ >/dev/null || ! command -v make >/dev/null; then
        echo "$name: no C++ compiler: the Verilator run of $tb skipped"
        return
    fi
    local vparams=()
    for param in ADDR_BITS LINE_BYTES OFFSET_BITS; do
        vparams+=("-G$param=$(header_value "$dir" "$param")")
    done
    # (testbench code: only the generated RTL is held to -Wall)
    if vl_build "$work/vl-$tb" -- --cc --exe --main --timing -Wno-fatal -Wno-lint -Wno-style \
        --top-module "$tb" "${vparams[@]}" -I"$root/tests/rtl" -o tb "$root/tests/rtl/$tb.v" \
        "$dir"/*.v >"$work/log" 2>&1; then
        sim "verilator: $tb" "$tb: PASS" "$work/vl-$tb/tb"
    else
        fail "verilator: $tb builds"
    fi
}

# broken TB FILE WHAT BUG...: each deliberately broken module (stcgen
# --debug-break BUG) says so in FILE, differs from the correct output
# ($work/default) only in FILE, and fails TB. WHAT names the module.
broken() {
    local tb=$1 file=$2 what=$3 bug
    shift 3
    for bug in "$@"; do
        quiet "stcgen --debug-break $bug" "$STCGEN" --debug-break "$bug" --out "$work/broken-$bug"
        check "$bug: the $what says it is broken" \
            grep -q "^// BROKEN on purpose (--debug-break $bug)" "$work/broken-$bug/$file"
        check "$bug: only the $what differs in the RTL" bash -c \
            "for f in '$work/default'/*.v; do b=\$(basename \"\$f\"); [ \"\$b\" = $file ] && continue; \
             diff <(grep -v '^//' \"\$f\") <(grep -v '^//' '$work/broken-$bug'/\"\$b\") || exit 1; done"
        run_tb "$tb" "$bug" "$work/broken-$bug" fail
    done
}

# others_intact FILE WHAT KIND BUG...: stcgen lists the BUGs among its
# deliberate bugs, and every bug not named KIND-* leaves FILE (WHAT) as in
# $work/default.
others_intact() {
    local file=$1 what=$2 kind=$3 bug names listed=""
    shift 3
    "$STCGEN" --debug-break no-such-bug --out "$work/nobug" >/dev/null 2>"$work/names"
    names=$(sed -n 's/.*(known: \(.*\)).*/\1/p' "$work/names")
    for bug in "$@"; do
        listed="$listed${listed:+ && }echo '$names' | grep -qw $bug"
    done
    check "--debug-break lists the ${kind^^} bugs" bash -c "$listed"
    for bug in $names; do
        case $bug in "$kind"-*) continue ;; esac
        # (a break of the coherent controller is refused without --protocol:
        # tests/coh-rtl-checks.sh checks that; it touches no port adapter)
        if "$STCGEN" --debug-break "$bug" --out "$work/b-probe" 2>&1 | grep -q "needs --protocol"; then
            continue
        fi
        rm -rf "$work/b-probe"
        quiet "stcgen --debug-break $bug" "$STCGEN" --debug-break "$bug" --out "$work/b-$bug"
        check "$bug: the $what is the correct one" bash -c \
            "diff <(grep -v '^//' '$work/default/$file') <(grep -v '^//' '$work/b-$bug/$file')"
        rm -rf "$work/b-$bug"
    done
}

# determinism: the same command twice gives the same bytes, those of the
# l32 geometry's output ($work/l32).
determinism() {
    quiet "stcgen twice (1)" "$STCGEN" --line-bytes 32 --out "$work/twice1"
    quiet "stcgen twice (2)" "$STCGEN" --line-bytes 32 --out "$work/twice2"
    check "same command, same bytes" diff -r "$work/twice1" "$work/twice2"
    check "same bytes as the checked output" diff -r "$work/twice1" "$work/l32"
}
