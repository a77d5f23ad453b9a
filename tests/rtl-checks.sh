#!/bin/bash
# The generator and its output (docs/ARCHITECTURE.md section 14):
#   - five geometries (the default, 8 banks, 32-byte lines, 2 banks, 8 banks
#     of 32-byte lines; the monitor tuner, sections 17-18), the seed tuner
#     (--tuner seed) and the fixed baseline: every
#     module lint-clean under `verilator --lint-only -Wall` (with and without
#     SYNTHESIS, the SRAM also at the geometry's tag and data shapes),
#     compiled by Icarus Verilog (-g2005 -Wall) without a warning, and clean
#     after Yosys `proc; check -assert` with no latch; every file declares
#     the one timescale (gen/emit.h), so the output links with foreign IP
#     that has a timescale of its own (Verilator's TIMESCALEMOD, Icarus's
#     warnings, in either file order); the C header agrees with
#     the model; the UPF has a domain, switch, isolation and CORRUPT state per
#     bank; the FuseSoC core lists exactly the generated Verilog;
#   - behaviour: tests/rtl/tb_power_ctrl.v (sequence, timing, staggering) at
#     three acknowledge delays and tests/rtl/tb_sram.v (read latency, masks,
#     power-off loss) at every SRAM shape, in Icarus; for the default geometry
#     also in Verilator, whose SRAM garbage must equal Icarus's;
#   - determinism: the same command twice gives the same bytes, --out does
#     not change them, and the committed rtl_out/<default name>/ is exactly
#     what the generator writes now;
#   - the output folder: never replaced without --force, --force replaces
#     only stcgen's own files, a failure mid-write leaves nothing behind;
#   - bad parameters: the exit status, the message naming the option and
#     the rule, and no output or temporary folder.
# Usage: rtl-checks.sh STCGEN
set -u
STCGEN=${1:?usage: rtl-checks.sh STCGEN}
STCGEN="$(cd "$(dirname "$STCGEN")" && pwd)/$(basename "$STCGEN")"
root="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
skipped=0
CC=${CC:-gcc}

# shellcheck source=tests/lib/checks.sh
. "$root/tests/lib/checks.sh"
# shellcheck source=tests/lib/vl-build.sh
. "$root/tests/lib/vl-build.sh"

# A value from a generated C header: header_value DIR NAME.
header_value() {
    sed -n "s/^#define STC_GEN_$2 *\([0-9]*\)u.*/\1/p" "$1/stc_geometry_gen.h"
}

# No ".NAME.tmp.*" or ".NAME.old.*" folder of stcgen's left in $1.
no_temp_left() {
    local entry
    for entry in "$1"/.*.tmp.* "$1"/.*.old.*; do
        if [ -e "$entry" ]; then return 1; fi
    done
    return 0
}

for tool in verilator iverilog vvp yosys "$CC"; do
    if ! command -v "$tool" >/dev/null; then
        echo "rtl-checks: $tool is missing (make installs it: scripts/ensure-tools.sh)"
        exit 1
    fi
done

# (single quotes: the $ names Yosys cell types)
# shellcheck disable=SC2016
YOSYS_CHECK='proc; check -assert; select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$sr'

# The timescale every generated file must open with: the generator's own
# definition, not a copy.
TIMESCALE=$(sed -n 's/^#define STCGEN_TIMESCALE "\(.*\)"$/\1/p' "$root/gen/emit.h")
if [ -z "$TIMESCALE" ]; then
    echo "rtl-checks: no STCGEN_TIMESCALE in gen/emit.h"
    exit 1
fi
# A foreign IP block with a timescale of its own (another unit than ours,
# and a delay that needs it), linked with the generated files as an SoC
# would: if a generated module had no timescale, Verilator stops
# (TIMESCALEMOD) and Icarus warns.
mkdir "$work/foreign"
cat >"$work/foreign/foreign_ip.v" <<'VERILOG'
`timescale 10ns / 100ps
`default_nettype none
module foreign_ip (
  input  wire clk_i,
  input  wire d_i,
  output reg  q_o
);
  always @(posedge clk_i) q_o <= #1 d_i;
endmodule
`resetall
VERILOG

geometries=(
    "default|"
    "banks8|--banks 8"
    "line32|--line-bytes 32"
    "banks2|--banks 2"
    "fixed|--fixed 8K_4W_32B"
    "seed|--tuner seed"
    "banks8-l32|--banks 8 --line-bytes 32"
    "nomv|--no-walk-moves"
)

for entry in "${geometries[@]}"; do
    tag=${entry%%|*}
    args=${entry#*|}
    out="$work/$tag"
    # shellcheck disable=SC2086
    quiet "$tag: stcgen $args" "$STCGEN" $args --out "$out"
    [ -d "$out" ] || continue
    verilog=("$out"/*.v)

    # Every file: the header names the command (as typed, without --out) and
    # leaks no path of this machine.
    for file in "$out"/*; do
        check "$tag: $(basename "$file") header has the command" \
            grep -qx "\(//\|#\| \*\)   stcgen${args:+ $args}" "$file"
    done
    check "$tag: no machine path in the output" bash -c "! grep -rq -- '$work' '$out'"

    # One module per file, named after it; the timescale, default_nettype
    # none ... resetall.
    modules=()
    for file in "${verilog[@]}"; do
        module=$(basename "$file" .v)
        modules+=("$module")
        check "$tag: $module.v holds exactly module $module" \
            test "$(grep -c '^module ' "$file")" = 1 -a "$(grep -c "^module $module\b" "$file")" = 1
        check "$tag: $module.v timescale and default_nettype none first, resetall last" \
            test "$(grep -v '^//' "$file" | grep -v '^$' | head -2 | tr '\n' '|')" \
            = "$TIMESCALE|\`default_nettype none|" -a "$(tail -1 "$file")" = '`resetall'
        check "$tag: $module.v has one timescale" test "$(grep -c '`timescale' "$file")" = 1
    done

    # Verilator: every module as the top. (The top as an I-cache,
    # READ_ONLY = 1, is linted inside stc_cache_pair: its u_icache.)
    for module in "${modules[@]}"; do
        for define in "" -DSYNTHESIS; do
            quiet "$tag: verilator -Wall $module $define" \
                verilator --lint-only -Wall --default-language 1364-2005 $define \
                --top-module "$module" "${verilog[@]}"
        done
    done
    check "$tag: stc_cache_pair holds an I-cache (READ_ONLY = 1) for the lint" \
        grep -q '^    \.READ_ONLY (1)' "$out/stc_cache_pair.v"
    # Yosys: every module at once. `hierarchy -check` without -top keeps
    # each module as a top with its defaults and derives every instance's
    # parameters (stc_cache as the pair's READ_ONLY = 1 I-cache too), so
    # one run checks what a run per module did, in a third of the time
    # (make test's length, 2026-12-07). On a failure the runs per module
    # name the module.
    if yosys -q -p "read_verilog ${verilog[*]}; hierarchy -check; $YOSYS_CHECK" >"$work/log" 2>&1 &&
        [ ! -s "$work/log" ]; then
        passed=$((passed + 1))
    else
        fail "$tag: yosys, every module"
        for module in "${modules[@]}"; do
            quiet "$tag: yosys $module" \
                yosys -q -p "read_verilog ${verilog[*]}; hierarchy -check -top $module; $YOSYS_CHECK"
        done
    fi
    for define in "" -DSYNTHESIS; do
        quiet "$tag: iverilog -g2005 -Wall $define" \
            iverilog -g2005 -Wall $define -o "$work/all.vvp" "${verilog[@]}"
    done

    # With foreign IP that has its own timescale, before and after ours.
    # Verilator lets a timescale run on into the next file (even past a
    # `resetall), so it also sees each file alone with the foreign module:
    # only then would one file without a timescale stop it.
    foreign="$work/foreign/foreign_ip.v"
    for order in first last; do
        if [ "$order" = first ]; then
            files=("$foreign" "${verilog[@]}")
        else
            files=("${verilog[@]}" "$foreign")
        fi
        quiet "$tag: verilator -Wall -Werror-TIMESCALEMOD, foreign IP $order" \
            verilator --lint-only -Wall --timing -Werror-TIMESCALEMOD --default-language 1364-2005 \
            --top-module foreign_ip "${files[@]}"
        quiet "$tag: iverilog -g2005 -Wall without a warning, foreign IP $order" \
            iverilog -g2005 -Wall -o "$work/foreign.vvp" "${files[@]}"
    done
    for file in "${verilog[@]}"; do
        quiet "$tag: verilator -Werror-TIMESCALEMOD, $(basename "$file") then foreign IP" \
            verilator --lint-only --timing -Werror-TIMESCALEMOD --default-language 1364-2005 \
            --top-module foreign_ip "$file" "$foreign"
    done

    # The SRAM wrapper at each of the geometry's shapes.
    roles=$(sed -n 's/^#define STC_GEN_SRAM_\([A-Z]*\)_DEPTH .*/\1/p' "$out/stc_geometry_gen.h" \
        | tr '\n' ' ')
    check "$tag: header lists the tag and data SRAM shapes" test "$roles" = "TAG DATA "
    for role in $roles; do
        depth=$(header_value "$out" "SRAM_${role}_DEPTH")
        width=$(header_value "$out" "SRAM_${role}_WIDTH")
        gran=$(header_value "$out" "SRAM_${role}_GRAN")
        shape="${depth}x${width}/${gran}"
        for define in "" -DSYNTHESIS -DSTC_SRAM_FAST; do
            quiet "$tag: verilator -Wall stc_sram $role $shape $define" \
                verilator --lint-only -Wall --default-language 1364-2005 $define \
                -GDEPTH="$depth" -GWIDTH="$width" -GGRAN="$gran" --top-module stc_sram \
                "$out/stc_sram.v"
        done
        quiet "$tag: yosys stc_sram $role $shape" \
            yosys -q -p "read_verilog $out/stc_sram.v; chparam -set DEPTH $depth -set WIDTH $width -set GRAN $gran stc_sram; hierarchy -check -top stc_sram; $YOSYS_CHECK"
        if iverilog -g2005 -Wall -Ptb_sram.DEPTH="$depth" -Ptb_sram.WIDTH="$width" \
            -Ptb_sram.GRAN="$gran" -o "$work/sram.vvp" "$root/tests/rtl/tb_sram.v" \
            "$out/stc_sram.v" >"$work/log" 2>&1 && [ ! -s "$work/log" ]; then
            sim "$tag: tb_sram $role $shape" "tb_sram: PASS" vvp -n "$work/sram.vvp"
            grep "tb_sram: PASS" "$work/log" >"$work/icarus-$tag-$role.txt"
        else
            fail "$tag: tb_sram $role $shape compiles"
        fi
    done

    # The power controller's behaviour at several acknowledge delays.
    banks=$(header_value "$out" BANKS)
    overhead=$(header_value "$out" WAKE_OVERHEAD)
    for delay in 0 1 3; do
        if iverilog -g2005 -Wall -Ptb_power_ctrl.B="$banks" -Ptb_power_ctrl.ACK_DELAY="$delay" \
            -Ptb_power_ctrl.WAKE_OVERHEAD="$overhead" -o "$work/power.vvp" \
            "$root/tests/rtl/tb_power_ctrl.v" "$out/stc_power_ctrl.v" >"$work/log" 2>&1 \
            && [ ! -s "$work/log" ]; then
            sim "$tag: tb_power_ctrl ack delay $delay" "tb_power_ctrl: PASS" vvp -n "$work/power.vvp"
        else
            fail "$tag: tb_power_ctrl compiles"
        fi
    done

    # The cache top: a directed smoke test (default geometry only: its
    # addresses and expected values are computed by hand for it).
    if [ "$tag" = default ]; then
        if iverilog -g2005 -Wall -I "$root/tests/rtl" -o "$work/cache.vvp" "$root/tests/rtl/tb_cache.v" \
            "${verilog[@]}" >"$work/log" 2>&1 && [ ! -s "$work/log" ]; then
            sim "$tag: tb_cache (miss, hit, store, dirty eviction, walk)" "tb_cache: PASS" \
                vvp -n "$work/cache.vvp"
        else
            fail "$tag: tb_cache compiles"
        fi
    fi

    # The I+D pair: each cache on its own ports.
    if [ "$tag" = default ]; then
        if iverilog -g2005 -Wall -o "$work/pair.vvp" "$root/tests/rtl/tb_pair.v" \
            "${verilog[@]}" >"$work/log" 2>&1 && [ ! -s "$work/log" ]; then
            sim "$tag: tb_pair (I fetch, D store and load, separate ports)" "tb_pair: PASS" \
                vvp -n "$work/pair.vvp"
        else
            fail "$tag: tb_pair compiles"
        fi
    fi

    # The fixed baseline: its reset configuration, refusals and 32 B lines.
    if [ "$tag" = fixed ]; then
        if iverilog -g2005 -Wall -I "$root/tests/rtl" -o "$work/fixed.vvp" \
            "$root/tests/rtl/tb_fixed.v" "${verilog[@]}" >"$work/log" 2>&1 && [ ! -s "$work/log" ]; then
            sim "$tag: tb_fixed (stays 8K_4W_32B, refuses changes, 32 B fills)" "tb_fixed: PASS" \
                vvp -n "$work/fixed.vvp"
        else
            fail "$tag: tb_fixed compiles"
        fi
    fi

    # The C header agrees with the model's geometry code.
    fixed_define=()
    case "$args" in --fixed\ *) fixed_define=("-DFIXED_CONFIG=\"${args#--fixed }\"") ;; esac
    if "$CC" -std=c11 -Wall -Wextra -Werror -I"$root/ref" -I"$out" "${fixed_define[@]}" \
        -o "$work/check_header" "$root/tests/rtl/check_header.c" "$root/ref/geometry.c" "$root/ref/config.c" \
        >"$work/log" 2>&1; then
        sim "$tag: C header agrees with the model" "check_header: PASS" "$work/check_header"
    else
        fail "$tag: check_header compiles"
    fi

    # UPF: per bank a domain holding its SRAMs, a switch with control and
    # acknowledge, isolation in the parent, an OFF state that corrupts.
    upf="$out/stc_cache.upf"
    for pattern in "^create_power_domain PD_BANK" "^create_power_switch SW_BANK" \
        "-control_port {sw_ctrl pwr_en_o\[" "-ack_port {sw_ack pwr_ack_i\[" \
        "^set_isolation ISO_BANK" "-location parent" "-simstate CORRUPT"; do
        check "$tag: UPF has '$pattern' once per bank" \
            test "$(grep -c -- "$pattern" "$upf")" = "$banks"
    done
    bank=0
    while [ "$bank" -lt "$banks" ]; do
        check "$tag: UPF domain of bank $bank holds its SRAMs" \
            grep -qx "create_power_domain PD_BANK$bank -elements {u_bank${bank}_tag u_bank${bank}_data}" "$upf"
        bank=$((bank + 1))
    done

    # FuseSoC core: CAPI2, and the rtl fileset is exactly the Verilog files.
    core="$out/stc_cache.core"
    check "$tag: core starts with CAPI=2:" test "$(head -1 "$core")" = "CAPI=2:"
    listed=$(sed -n '/^  rtl:/,/file_type/s/^      - \(.*\.v\)$/\1/p' "$core" | sort | tr '\n' ' ')
    present=$(cd "$out" && printf '%s\n' *.v | sort | tr '\n' ' ')
    check "$tag: core lists every Verilog file" test "$listed" = "$present"
    if python3 -c 'import yaml' 2>/dev/null; then
        check "$tag: core is valid YAML with the expected targets" python3 -c '
import sys, yaml
core = yaml.safe_load(open(sys.argv[1]))
assert set(core["targets"]) == {"default", "lint"}, core["targets"]
assert core["targets"]["lint"]["tools"]["verilator"]["mode"] == "lint-only"
for fileset in core["filesets"].values():
    for item in fileset["files"]:
        name = item if isinstance(item, str) else next(iter(item))
        open(sys.argv[2] + "/" + name).close()
' "$core" "$out"
    else
        skipped=$((skipped + 1))
    fi
done

# Verilator runs the same testbenches on the default geometry: the same
# verdicts, and the same garbage after a power-off as Icarus (the simulation
# model is deterministic). Verilator's builds need a C++ compiler.
if command -v g++ >/dev/null && command -v make >/dev/null; then
    out="$work/default"
    for role in TAG DATA; do
        depth=$(header_value "$out" "SRAM_${role}_DEPTH")
        width=$(header_value "$out" "SRAM_${role}_WIDTH")
        gran=$(header_value "$out" "SRAM_${role}_GRAN")
        # (testbench code: only the generated RTL is held to -Wall)
        if vl_build "$work/vl-sram-$role" -- --cc --exe --main --timing -Wno-fatal -Wno-lint \
            -Wno-style --top-module tb_sram -GDEPTH="$depth" -GWIDTH="$width" -GGRAN="$gran" \
            -o tb "$root/tests/rtl/tb_sram.v" "$out/stc_sram.v" >"$work/log" 2>&1; then
            check "verilator: tb_sram $role equals Icarus" \
                bash -c "'$work/vl-sram-$role/tb' | grep 'tb_sram: PASS' | diff - '$work/icarus-default-$role.txt'"
        else
            fail "verilator: tb_sram $role builds"
        fi
    done
    banks=$(header_value "$out" BANKS)
    overhead=$(header_value "$out" WAKE_OVERHEAD)
    if vl_build "$work/vl-power" -- --cc --exe --main --timing -Wno-fatal -Wno-lint -Wno-style \
        --top-module tb_power_ctrl -GB="$banks" -GACK_DELAY=2 -GWAKE_OVERHEAD="$overhead" -o tb \
        "$root/tests/rtl/tb_power_ctrl.v" "$out/stc_power_ctrl.v" >"$work/log" 2>&1; then
        sim "verilator: tb_power_ctrl ack delay 2" "tb_power_ctrl: PASS" "$work/vl-power/tb"
    else
        fail "verilator: tb_power_ctrl builds"
    fi
    if vl_build "$work/vl-cache" -- --cc --exe --main --timing -Wno-fatal -Wno-lint -Wno-style \
        --top-module tb_cache -I"$root/tests/rtl" -o tb "$root/tests/rtl/tb_cache.v" "$out"/*.v \
        >"$work/log" 2>&1; then
        sim "verilator: tb_cache" "tb_cache: PASS" "$work/vl-cache/tb"
    else
        fail "verilator: tb_cache builds"
    fi
else
    echo "rtl-checks: no C++ compiler: Verilator simulations skipped"
    skipped=$((skipped + 4))
fi

# Determinism: the same command twice, and --out versus the default folder.
quiet "stcgen twice (1)" "$STCGEN" --banks 8 --out "$work/twice1"
quiet "stcgen twice (2)" "$STCGEN" --banks 8 --out "$work/twice2"
check "same command, same bytes" diff -r "$work/twice1" "$work/twice2"
check "--banks 8 equals the checked geometry's output" diff -r "$work/twice1" "$work/banks8"
mkdir -p "$work/cwd/rtl_out"
default_name=$(sed -n 's/^#define STC_GEN_NAME "\(.*\)"/\1/p' "$work/default/stc_geometry_gen.h")
check "default name is b4_2k_l16_a32" test "$default_name" = b4_2k_l16_a32
check "stcgen writes rtl_out/NAME by default" bash -c "cd '$work/cwd' && '$STCGEN'"
check "--out does not change the bytes" diff -r "$work/default" "$work/cwd/rtl_out/$default_name"
check "committed rtl_out/$default_name is what stcgen writes" \
    diff -r "$root/rtl_out/$default_name" "$work/default"

# The output folder.
expect_refusal() {
    local name=$1 status=$2 message=$3
    shift 3
    local got=0
    "$STCGEN" "$@" >"$work/out" 2>"$work/err" || got=$?
    : >"$work/log"
    if [ "$got" -ne "$status" ]; then
        echo "exit status $got, want $status" >"$work/log"; cat "$work/err" >>"$work/log"
        fail "$name"
    elif [ -s "$work/out" ]; then
        cp "$work/out" "$work/log"; fail "$name: wrote to stdout"
    elif ! grep -qF -- "$message" "$work/err"; then
        { echo "stderr lacks: $message"; cat "$work/err"; } >"$work/log"; fail "$name"
    else
        passed=$((passed + 1))
    fi
}
cp -r "$work/default" "$work/existing"
expect_refusal "existing folder without --force" 2 "exists (--force replaces it)" \
    --banks 2 --out "$work/existing"
check "existing folder untouched" diff -r "$work/default" "$work/existing"
quiet "existing folder with --force" "$STCGEN" --banks 2 --out "$work/existing" --force
check "--force replaced the contents" diff -r "$work/banks2" "$work/existing"
touch "$work/existing/notes.txt"
expect_refusal "--force refuses a folder with foreign files" 2 \
    "holds 'notes.txt', which stcgen does not write" --out "$work/existing" --force
check "foreign file kept" test -f "$work/existing/notes.txt"
check "no temporary folder left after the replacements" no_temp_left "$work"
mkdir "$work/failing"
STCGEN_TEST_FAIL_AFTER=2 expect_refusal "failure mid-write" 1 "simulated failure" \
    --out "$work/failing/out"
check "failure mid-write leaves nothing" test -z "$(ls -A "$work/failing")"

# Bad parameters: status 2, the message, nothing written.
expect_error() {
    local name=$1 message=$2
    shift 2
    mkdir -p "$work/bad"
    # --out first: a case may override it, or need its own option last.
    expect_refusal "bad parameter $name" 2 "$message" --out "$work/bad/out" "$@"
    check "bad parameter $name: nothing written" test -z "$(ls -A "$work/bad")"
}
expect_error banks-3        "stcgen: --banks 3: must be a power of two from 1 to 32" --banks 3
expect_error banks-64       "stcgen: --banks 64: must be a power of two" --banks 64
expect_error banks-0        "stcgen: --banks 0: must be a power of two" --banks=0
expect_error bank-bytes     "stcgen: --bank-bytes 3000: must be a power of two" --bank-bytes 3000
expect_error line-24        "stcgen: --line-bytes 24: must be a power of two of at least 4" \
    --line-bytes 24
expect_error line-2         "stcgen: --line-bytes 2: must be a power of two of at least 4" \
    --line-bytes 2
expect_error line-over-bank "stcgen: --bank-bytes 2048: must hold at least 4 physical lines of 4096 bytes" \
    --line-bytes 4096
expect_error bank-small     "stcgen: --bank-bytes 32: must hold at least 4 physical lines of 16 bytes" \
    --bank-bytes 32
expect_error bank-4-rows    "stcgen: --bank-bytes 64: the generated RTL needs at least 8 physical lines of 16 bytes" \
    --bank-bytes 64
expect_error addr-few       "stcgen: --addr-bits 13: must exceed log2(bank_bytes)+log2(banks)=13" \
    --addr-bits 13
expect_error addr-range     "stcgen: --addr-bits 65: must be from 8 to 64" --addr-bits 65
expect_error counter-bits   "stcgen: --counter-bits 8: must be from 16 to 64" --counter-bits 8
expect_error not-number     "stcgen: --banks four: not a decimal number" --banks four
expect_error negative       "stcgen: --banks -4: not a decimal number" --banks -4
expect_error too-large      "stcgen: --banks 99999999999: too large" --banks 99999999999
expect_error unknown        "stcgen: unknown option '--frobnicate'" --frobnicate
expect_error fixed-illegal  "stcgen: --fixed 16K_4W_32B: configuration '16K_4W_32B' is illegal for 4 banks" \
    --fixed 16K_4W_32B
expect_error fixed-small    "stcgen: --fixed 2K_1W_16B: must use all 4 banks" --fixed 2K_1W_16B
expect_error fixed-nowp     "stcgen: --fixed 8K_4W_32B_P: way prediction is not built" \
    --fixed 8K_4W_32B_P --no-way-prediction
expect_error break-no-moves "stcgen: --debug-break walk-move-dirty: breaks the walk's moves, which --no-walk-moves, --fixed and --protocol (atomic bus) leave out" \
    --no-walk-moves --debug-break walk-move-dirty
expect_error fixed-syntax   "stcgen: --fixed 8K: configuration '8K': expected SIZE_WAYSW_LINEB" --fixed 8K
expect_error fixed-empty    "stcgen: option --fixed needs a value" --fixed=
expect_error tuner-kind     "stcgen: --tuner fast: must be seed or monitor" --tuner fast
expect_error tuner-mult-monitor "stcgen: --tuner monitor: --tuner-mult, --tuner-coeff, --tuner-regs and --tuner-triggers are options of the seed tuner (add --tuner seed)" \
    --tuner-mult serial
expect_error flag-value     "stcgen: unknown option '--force=1'" --force=1
expect_error positional     "stcgen: unexpected argument 'banks=4'" banks=4
expect_error missing-value  "stcgen: option --banks needs a value" --banks
expect_error no-parent      "the parent folder $work/bad/none does not exist" \
    --out "$work/bad/none/out"
check "bad parameters left no temporary folder" no_temp_left "$work"
check "stcgen -h prints the usage" bash -c "'$STCGEN' -h | grep -q '^usage: stcgen'"

echo "rtl-checks: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
