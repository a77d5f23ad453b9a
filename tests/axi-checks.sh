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
# shellcheck source=tests/lib/vl-build.sh
. "$root/tests/lib/vl-build.sh"
# shellcheck source=tests/lib/port-checks.sh
. "$root/tests/lib/port-checks.sh"

need_tools axi-checks verilator iverilog vvp yosys

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

for entry in "${port_geometries[@]}"; do
    tag=${entry%%|*}
    args=${entry#*|}
    out="$work/$tag"
    generate "$tag" "$args" "$out" stc_cache_axi.v || continue
    verilator_wall "$tag" "$out/stc_cache_axi.v" stc_cache_axi ""
    iverilog_all "$tag" "$out"
    yosys_no_latch "$tag" "$out/stc_cache_axi.v" stc_cache_axi ""
    pair_wrapper "$out" >"$work/wrap-$tag.v"
    quiet "$tag: stc_cache_pair and two bridges connected by name (verilator -Wall)" \
        verilator --lint-only -Wall -Wno-PINMISSING -Wno-UNUSEDSIGNAL -Wno-DECLFILENAME \
        -Wno-PINCONNECTEMPTY --default-language 1364-2005 --top-module axi_pair_wrap \
        "$work/wrap-$tag.v" "$out"/*.v
done
check "l512: transfers cut into 256-beat transactions" grep -q "left_q" "$work/l512/stc_cache_axi.v"
check "default: no cutting logic" bash -c "! grep -q left_q '$work/default/stc_cache_axi.v'"

# The bridge beside a generated cache. (In Icarus the default geometry's
# run is 600 operations; the Verilator run below is the same testbench at
# its full 1500: Icarus simulates ~20x slower, make test's length,
# 2026-12-07.)
run_tb tb_axi "default" "$work/default" pass -Ptb_axi.OPS=600
run_tb tb_axi "l32" "$work/l32" pass -Ptb_axi.OPS=600
run_tb tb_axi "a64" "$work/a64" pass -Ptb_axi.OPS=600
run_tb tb_axi "l512 (4-line transfers of 512 beats)" "$work/l512" pass -DTB_NO_TUNER \
    -Ptb_axi.OPS=12 -Ptb_axi.SUB_LOG=2
verilator_tb axi-checks tb_axi "$work/default"

# Red: the checker catches a wrong subordinate, tb_axi every broken bridge.
plusargs=(+bad_rlast)
run_tb tb_axi "checker: the model's early RLAST" "$work/default" fail
plusargs=()
broken tb_axi stc_cache_axi.v bridge axi-wlast axi-valid-drop
# Every other deliberate bug still generates (their modules are unchanged).
others_intact stc_cache_axi.v bridge axi axi-wlast

determinism

echo "axi-checks: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
