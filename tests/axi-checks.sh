#!/bin/bash
# The AXI4 bridge stc_cache_axi of the memory port (docs/INTEGRATION.md 3;
# gen/emit_axi.c writes stc_cache_axi.v):
#   - for the default geometry, 32-byte lines, 64-bit addresses, the seed
#     tuner and 512-byte lines (transfers over 256 beats, cut into 256-beat
#     transactions; without a tuner, which the default energy model does not
#     price for such lines): stc_cache_axi.v is written with the command in
#     its header, `verilator --lint-only -Wall` clean with and without
#     SYNTHESIS, the whole output compiles in Icarus (-g2005 -Wall) without
#     a warning, Yosys `proc; check -assert` finds no latch, the FuseSoC
#     core lists it; stc_cache_pair with two bridges (the I-cache's write
#     inputs tied off, as docs/INTEGRATION.md 3.3 says) is Verilator -Wall
#     clean;
#   - tests/rtl/tb_axi.v (stc_cache + the bridge, a seeded random AXI4
#     subordinate, a protocol checker, data against a shadow, memory after
#     a clean, an SLVERR) on the default geometry in Icarus and Verilator,
#     on the others in Icarus (fewer requests for 512-byte lines);
#   - red: the checker fails the model's early RLAST (+bad_rlast), and
#     tb_axi fails on every broken bridge (--debug-break axi-wlast,
#     axi-valid-drop); every other --debug-break name still generates;
#   - the same command twice gives the same bytes.
# Usage: axi-checks.sh STCGEN
set -u
STCGEN=${1:?usage: axi-checks.sh STCGEN}
STCGEN="$(cd "$(dirname "$STCGEN")" && pwd)/$(basename "$STCGEN")"
root="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# shellcheck source=tests/lib/checks.sh
. "$root/tests/lib/checks.sh"

for tool in verilator iverilog vvp yosys; do
    if ! command -v "$tool" >/dev/null; then
        echo "axi-checks: $tool is missing (make installs it: scripts/ensure-tools.sh)"
        exit 1
    fi
done

# shellcheck disable=SC2016
YOSYS_CHECK='proc; check -assert; select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$sr'

# A value from a generated geometry header: header_value DIR NAME.
header_value() {
    sed -n "s/^#define STC_GEN_$2 *\([0-9]*\)u.*/\1/p" "$1/stc_geometry_gen.h"
}

# pair_wrapper DIR: stc_cache_pair and two bridges, the memory ports
# connected by name (the I-cache's bridge with its write inputs tied off).
pair_wrapper() {
    local dir=$1 a lnb
    a=$(header_value "$dir" ADDR_BITS)
    lnb=$((a - $(header_value "$dir" OFFSET_BITS)))
    cat <<EOF
\`timescale 1ns / 1ps
\`default_nettype none
module axi_pair_wrap (input wire clk, input wire rst_n);
  wire         i_mem_req_valid, i_mem_req_ready, i_mem_rvalid;
  wire [$((lnb - 1)):0]  i_mem_req_line;
  wire [2:0]   i_mem_req_lines;
  wire [31:0]  i_mem_rdata;
  wire         d_mem_req_valid, d_mem_req_ready, d_mem_req_we, d_mem_wvalid, d_mem_wready;
  wire         d_mem_bvalid, d_mem_rvalid;
  wire [$((lnb - 1)):0]  d_mem_req_line;
  wire [2:0]   d_mem_req_lines;
  wire [31:0]  d_mem_wdata, d_mem_rdata;
  stc_cache_pair u_pair (
    .clk_i (clk), .rst_ni (rst_n),
    .i_mem_req_valid_o (i_mem_req_valid), .i_mem_req_ready_i (i_mem_req_ready),
    .i_mem_req_line_o (i_mem_req_line), .i_mem_req_lines_o (i_mem_req_lines),
    .i_mem_rvalid_i (i_mem_rvalid), .i_mem_rdata_i (i_mem_rdata),
    .d_mem_req_valid_o (d_mem_req_valid), .d_mem_req_ready_i (d_mem_req_ready),
    .d_mem_req_we_o (d_mem_req_we), .d_mem_req_line_o (d_mem_req_line),
    .d_mem_req_lines_o (d_mem_req_lines), .d_mem_wvalid_o (d_mem_wvalid),
    .d_mem_wready_i (d_mem_wready), .d_mem_wdata_o (d_mem_wdata),
    .d_mem_bvalid_i (d_mem_bvalid), .d_mem_rvalid_i (d_mem_rvalid),
    .d_mem_rdata_i (d_mem_rdata)
  );
EOF
    local p
    for p in i d; do
        if [ "$p" = i ]; then
            echo "  stc_cache_axi #(.AXI_ID_BITS (2), .AXI_ID (2'd0), .AXI_PROT (3'b100)) u_i_axi ("
            echo "    .mem_req_we_i (1'b0), .mem_wvalid_i (1'b0), .mem_wready_o (), .mem_wdata_i (32'd0),"
            echo "    .mem_bvalid_o (),"
        else
            echo "  stc_cache_axi #(.AXI_ID_BITS (2), .AXI_ID (2'd1)) u_d_axi ("
            echo "    .mem_req_we_i (d_mem_req_we), .mem_wvalid_i (d_mem_wvalid), .mem_wready_o (d_mem_wready),"
            echo "    .mem_wdata_i (d_mem_wdata), .mem_bvalid_o (d_mem_bvalid),"
        fi
        cat <<EOF
    .clk_i (clk), .rst_ni (rst_n),
    .mem_req_valid_i (${p}_mem_req_valid), .mem_req_ready_o (${p}_mem_req_ready),
    .mem_req_line_i (${p}_mem_req_line), .mem_req_lines_i (${p}_mem_req_lines),
    .mem_rvalid_o (${p}_mem_rvalid), .mem_rdata_o (${p}_mem_rdata),
    .m_axi_awready_i (1'b0), .m_axi_wready_i (1'b0), .m_axi_bid_i (2'd0), .m_axi_bresp_i (2'd0),
    .m_axi_bvalid_i (1'b0), .m_axi_arready_i (1'b0), .m_axi_rid_i (2'd0), .m_axi_rdata_i (32'd0),
    .m_axi_rresp_i (2'd0), .m_axi_rlast_i (1'b0), .m_axi_rvalid_i (1'b0), .axi_err_clear_i (1'b0)
  );
EOF
    done
    echo "endmodule"
}

# run_tb TAG DIR EXPECT [iverilog options...]: tb_axi in Icarus on the
# output DIR; EXPECT pass: "tb_axi: PASS", fail: a FAIL line and no PASS.
run_tb() {
    local tag=$1 dir=$2 expect=$3
    shift 3
    local params=(-Ptb_axi.ADDR_BITS="$(header_value "$dir" ADDR_BITS)"
        -Ptb_axi.LINE_BYTES="$(header_value "$dir" LINE_BYTES)"
        -Ptb_axi.OFFSET_BITS="$(header_value "$dir" OFFSET_BITS)")
    if ! iverilog -g2005 -Wall -I"$root/tests/rtl" "${params[@]}" "$@" -o "$work/axi.vvp" "$root/tests/rtl/tb_axi.v" \
        "$dir"/*.v >"$work/log" 2>&1 || [ -s "$work/log" ]; then
        fail "$tag: tb_axi compiles"
        return
    fi
    if [ "$expect" = pass ]; then
        sim "$tag: tb_axi" "tb_axi: PASS" vvp -n "$work/axi.vvp" "${plusargs[@]}"
    else
        vvp -n "$work/axi.vvp" "${plusargs[@]}" >"$work/log" 2>&1
        if grep -q "^FAIL" "$work/log" && ! grep -q "tb_axi: PASS" "$work/log"; then
            passed=$((passed + 1))
            echo "red as wanted ($tag): $(grep -m1 '^FAIL' "$work/log")"
        else
            fail "$tag: tb_axi must fail"
        fi
    fi
}

geometries=(
    "default|"
    "l32|--line-bytes 32"
    "a64|--addr-bits 64"
    "seed|--tuner seed"
    "l512|--line-bytes 512 --bank-bytes 4096 --no-tuner"
)
for entry in "${geometries[@]}"; do
    tag=${entry%%|*}
    args=${entry#*|}
    out="$work/$tag"
    # shellcheck disable=SC2086
    quiet "$tag: stcgen $args" "$STCGEN" $args --out "$out"
    [ -s "$out/stc_cache_axi.v" ] || { fail "$tag: stc_cache_axi.v written"; continue; }
    check "$tag: stc_cache_axi.v header has the command" \
        grep -qx "//   stcgen${args:+ $args}" "$out/stc_cache_axi.v"
    for define in "" -DSYNTHESIS; do
        quiet "$tag: verilator -Wall stc_cache_axi $define" \
            verilator --lint-only -Wall --default-language 1364-2005 $define \
            --top-module stc_cache_axi "$out/stc_cache_axi.v"
        quiet "$tag: iverilog -g2005 -Wall $define (every file)" \
            iverilog -g2005 -Wall $define -o "$work/all.vvp" "$out"/*.v
    done
    quiet "$tag: yosys stc_cache_axi (no latch)" \
        yosys -q -p "read_verilog $out/stc_cache_axi.v; hierarchy -check -top stc_cache_axi; $YOSYS_CHECK"
    check "$tag: the core lists stc_cache_axi.v" grep -qx "      - stc_cache_axi.v" "$out/stc_cache.core"
    pair_wrapper "$out" >"$work/wrap-$tag.v"
    quiet "$tag: stc_cache_pair and two bridges connected by name (verilator -Wall)" \
        verilator --lint-only -Wall -Wno-PINMISSING -Wno-UNUSEDSIGNAL -Wno-DECLFILENAME \
        -Wno-PINCONNECTEMPTY --default-language 1364-2005 --top-module axi_pair_wrap \
        "$work/wrap-$tag.v" "$out"/*.v
done
check "l512: transfers cut into 256-beat transactions" grep -q "left_q" "$work/l512/stc_cache_axi.v"
check "default: no cutting logic" bash -c "! grep -q left_q '$work/default/stc_cache_axi.v'"

# The bridge beside a generated cache.
plusargs=()
run_tb "default" "$work/default" pass
run_tb "l32" "$work/l32" pass -Ptb_axi.OPS=600
run_tb "a64" "$work/a64" pass -Ptb_axi.OPS=600
run_tb "l512 (4-line transfers of 512 beats)" "$work/l512" pass -DTB_AXI_NO_TUNER \
    -Ptb_axi.OPS=12 -Ptb_axi.SUB_LOG=2
if command -v g++ >/dev/null && command -v make >/dev/null; then
    out="$work/default"
    vparams=()
    for name in ADDR_BITS LINE_BYTES OFFSET_BITS; do
        vparams+=("-G$name=$(header_value "$out" "$name")")
    done
    # (testbench code: only the generated RTL is held to -Wall)
    if verilator --binary --timing -Wno-fatal -Wno-lint -Wno-style --top-module tb_axi \
        "${vparams[@]}" -I"$root/tests/rtl" --Mdir "$work/vl-axi" -o tb "$root/tests/rtl/tb_axi.v" "$out"/*.v \
        >"$work/log" 2>&1; then
        sim "verilator: tb_axi" "tb_axi: PASS" "$work/vl-axi/tb"
    else
        fail "verilator: tb_axi builds"
    fi
else
    echo "axi-checks: no C++ compiler: the Verilator run of tb_axi skipped"
fi

# Red: the checker catches a wrong subordinate, tb_axi every broken bridge.
plusargs=(+bad_rlast)
run_tb "checker: the model's early RLAST" "$work/default" fail
plusargs=()
for name in axi-wlast axi-valid-drop; do
    quiet "stcgen --debug-break $name" "$STCGEN" --debug-break "$name" --out "$work/broken-$name"
    check "$name: the bridge says it is broken" \
        grep -q "^// BROKEN on purpose (--debug-break $name)" "$work/broken-$name/stc_cache_axi.v"
    check "$name: only the bridge differs in the RTL" bash -c \
        "for f in '$work/default'/*.v; do b=\$(basename \"\$f\"); [ \"\$b\" = stc_cache_axi.v ] && continue; \
         diff <(grep -v '^//' \"\$f\") <(grep -v '^//' '$work/broken-$name'/\"\$b\") || exit 1; done"
    run_tb "$name" "$work/broken-$name" fail
done
# Every other deliberate bug still generates (their modules are unchanged).
"$STCGEN" --debug-break no-such-bug --out "$work/nobug" >/dev/null 2>"$work/names"
names=$(sed -n 's/.*(known: \(.*\)).*/\1/p' "$work/names")
check "--debug-break lists the AXI bugs" bash -c "echo '$names' | grep -qw axi-wlast"
for name in $names; do
    case $name in axi-*) continue ;; esac
    quiet "stcgen --debug-break $name" "$STCGEN" --debug-break "$name" --out "$work/b-$name"
    check "$name: the bridge is the correct one" bash -c \
        "diff <(grep -v '^//' '$work/default/stc_cache_axi.v') <(grep -v '^//' '$work/b-$name/stc_cache_axi.v')"
    rm -rf "$work/b-$name"
done

# Determinism.
quiet "stcgen twice (1)" "$STCGEN" --line-bytes 32 --out "$work/twice1"
quiet "stcgen twice (2)" "$STCGEN" --line-bytes 32 --out "$work/twice2"
check "same command, same bytes" diff -r "$work/twice1" "$work/twice2"
check "same bytes as the checked output" diff -r "$work/twice1" "$work/l32"

echo "axi-checks: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
