#!/bin/bash
# The OBI adapter stc_cache_obi of the CPU port and the uncached path through
# the AXI4 bridge (docs/INTEGRATION.md 4, ARCHITECTURE.md 14.9, 14.10;
# gen/emit_obi.c writes stc_cache_obi.v):
#   - for the default geometry, 32-byte lines, 64-bit addresses, the seed
#     tuner and 512-byte lines: stc_cache_obi.v is written with the command
#     in its header, `verilator --lint-only -Wall` clean with and without
#     SYNTHESIS (also with READ_ONLY = 1 and an uncached range), as is
#     stc_cache_axi.v; the whole output compiles in Icarus (-g2005 -Wall)
#     without a warning; Yosys `proc; check -assert` finds no latch in
#     either (the adapter also with READ_ONLY = 1 and a range); the FuseSoC
#     core lists it; stc_cache_pair with an adapter per cache and a bridge
#     per cache (the I-cache's adapter READ_ONLY, its store ports left off,
#     as docs/INTEGRATION.md 4.3 shows) is Verilator -Wall clean;
#   - tests/rtl/tb_obi.v (stc_cache + the adapter + the bridge, a random OBI
#     manager, an OBI protocol checker, data against a shadow, the AXI4
#     checker of tb_axi_mem.vh) on the default geometry in Icarus and
#     Verilator, with READ_ONLY = 1 in Icarus, on 32-byte lines, 64-bit
#     addresses and 512-byte lines in Icarus;
#   - red: tb_obi fails on every broken adapter (--debug-break obi-order,
#     obi-gnt-early), whose output differs from the correct one only in
#     stc_cache_obi.v; every other --debug-break name leaves the adapter
#     as it is;
#   - the same command twice gives the same bytes.
# Usage: obi-checks.sh STCGEN
set -u
STCGEN=${1:?usage: obi-checks.sh STCGEN}
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

need_tools obi-checks verilator iverilog vvp yosys

# pair_wrapper DIR: stc_cache_pair, an OBI adapter and an AXI4 bridge per
# cache, connected by name (docs/INTEGRATION.md 4.3): the I-cache's adapter
# READ_ONLY with the pair's missing store ports left off, its bridge's
# write inputs tied off.
pair_wrapper() {
    local dir=$1 a lnb p
    a=$(header_value "$dir" ADDR_BITS)
    lnb=$((a - $(header_value "$dir" OFFSET_BITS)))
    cat <<EOF
\`timescale 1ns / 1ps
\`default_nettype none
module obi_pair_wrap (input wire clk, input wire rst_n);
EOF
    for p in i d; do
        cat <<EOF
  wire         ${p}_obi_req, ${p}_obi_gnt, ${p}_obi_we, ${p}_obi_rvalid, ${p}_obi_err;
  wire [$((a - 1)):0]  ${p}_obi_addr;
  wire [3:0]   ${p}_obi_be;
  wire [31:0]  ${p}_obi_wdata, ${p}_obi_rdata;
  wire         ${p}_cpu_req_valid, ${p}_cpu_req_ready, ${p}_cpu_req_we, ${p}_cpu_rsp_valid, ${p}_cpu_rsp_err;
  wire [$((a - 3)):0]  ${p}_cpu_req_addr;
  wire [3:0]   ${p}_cpu_req_be;
  wire [31:0]  ${p}_cpu_req_wdata, ${p}_cpu_rsp_rdata;
  wire         ${p}_unc_req_valid, ${p}_unc_req_ready, ${p}_unc_req_we, ${p}_unc_rsp_valid, ${p}_unc_rsp_err;
  wire [$((a - 3)):0]  ${p}_unc_req_addr;
  wire [3:0]   ${p}_unc_req_be;
  wire [31:0]  ${p}_unc_req_wdata, ${p}_unc_rsp_rdata;
  wire         ${p}_mem_req_valid, ${p}_mem_req_ready, ${p}_mem_req_we, ${p}_mem_wvalid, ${p}_mem_wready;
  wire         ${p}_mem_bvalid, ${p}_mem_rvalid;
  wire [$((lnb - 1)):0]  ${p}_mem_req_line;
  wire [2:0]   ${p}_mem_req_lines;
  wire [31:0]  ${p}_mem_wdata, ${p}_mem_rdata;
EOF
    done
    cat <<EOF
  assign i_obi_req = 1'b0; assign i_obi_we = 1'b0; assign i_obi_addr = {${a}{1'b0}};
  assign i_obi_be = 4'd0; assign i_obi_wdata = 32'd0;
  assign d_obi_req = 1'b0; assign d_obi_we = 1'b0; assign d_obi_addr = {${a}{1'b0}};
  assign d_obi_be = 4'd0; assign d_obi_wdata = 32'd0;
  stc_cache_pair u_pair (
    .clk_i (clk), .rst_ni (rst_n),
    .i_cpu_req_valid_i (i_cpu_req_valid), .i_cpu_req_ready_o (i_cpu_req_ready),
    .i_cpu_req_addr_i (i_cpu_req_addr), .i_cpu_rsp_valid_o (i_cpu_rsp_valid),
    .i_cpu_rsp_rdata_o (i_cpu_rsp_rdata),
    .d_cpu_req_valid_i (d_cpu_req_valid), .d_cpu_req_ready_o (d_cpu_req_ready),
    .d_cpu_req_we_i (d_cpu_req_we), .d_cpu_req_addr_i (d_cpu_req_addr),
    .d_cpu_req_be_i (d_cpu_req_be), .d_cpu_req_wdata_i (d_cpu_req_wdata),
    .d_cpu_rsp_valid_o (d_cpu_rsp_valid), .d_cpu_rsp_err_o (d_cpu_rsp_err),
    .d_cpu_rsp_rdata_o (d_cpu_rsp_rdata),
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
    for p in i d; do
        if [ "$p" = i ]; then
            echo "  stc_cache_obi #(.UNCACHED_BASE ($a'h1000_0000), .UNCACHED_SIZE ($((a + 1))'h1000_0000), .READ_ONLY (1)) u_i_obi ("
            echo "    .cpu_req_we_o (), .cpu_req_be_o (), .cpu_req_wdata_o (), .cpu_rsp_err_i (1'b0),"
        else
            echo "  stc_cache_obi #(.UNCACHED_BASE ($a'h1000_0000), .UNCACHED_SIZE ($((a + 1))'h1000_0000)) u_d_obi ("
            echo "    .cpu_req_we_o (d_cpu_req_we), .cpu_req_be_o (d_cpu_req_be),"
            echo "    .cpu_req_wdata_o (d_cpu_req_wdata), .cpu_rsp_err_i (d_cpu_rsp_err),"
        fi
        cat <<EOF
    .clk_i (clk), .rst_ni (rst_n),
    .obi_req_i (${p}_obi_req), .obi_gnt_o (${p}_obi_gnt), .obi_addr_i (${p}_obi_addr),
    .obi_we_i (${p}_obi_we), .obi_be_i (${p}_obi_be), .obi_wdata_i (${p}_obi_wdata),
    .obi_rvalid_o (${p}_obi_rvalid), .obi_rdata_o (${p}_obi_rdata), .obi_err_o (${p}_obi_err),
    .cpu_req_valid_o (${p}_cpu_req_valid), .cpu_req_ready_i (${p}_cpu_req_ready),
    .cpu_req_addr_o (${p}_cpu_req_addr), .cpu_rsp_valid_i (${p}_cpu_rsp_valid),
    .cpu_rsp_rdata_i (${p}_cpu_rsp_rdata),
    .unc_req_valid_o (${p}_unc_req_valid), .unc_req_ready_i (${p}_unc_req_ready),
    .unc_req_we_o (${p}_unc_req_we), .unc_req_addr_o (${p}_unc_req_addr),
    .unc_req_be_o (${p}_unc_req_be), .unc_req_wdata_o (${p}_unc_req_wdata),
    .unc_rsp_valid_i (${p}_unc_rsp_valid), .unc_rsp_rdata_i (${p}_unc_rsp_rdata),
    .unc_rsp_err_i (${p}_unc_rsp_err)
  );
EOF
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
    .unc_req_valid_i (${p}_unc_req_valid), .unc_req_ready_o (${p}_unc_req_ready),
    .unc_req_we_i (${p}_unc_req_we), .unc_req_addr_i (${p}_unc_req_addr),
    .unc_req_be_i (${p}_unc_req_be), .unc_req_wdata_i (${p}_unc_req_wdata),
    .unc_rsp_valid_o (${p}_unc_rsp_valid), .unc_rsp_rdata_o (${p}_unc_rsp_rdata),
    .unc_rsp_err_o (${p}_unc_rsp_err),
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
    generate "$tag" "$args" "$out" stc_cache_obi.v || continue
    a=$(header_value "$out" ADDR_BITS)
    verilator_wall "$tag" "$out/stc_cache_obi.v" stc_cache_obi ""
    verilator_wall "$tag" "$out/stc_cache_obi.v" stc_cache_obi "READ_ONLY, a range" -GREAD_ONLY=1 \
        -GUNCACHED_BASE="$a'h8000_0000" -GUNCACHED_SIZE="$((a + 1))'h4000_0000"
    verilator_wall "$tag" "$out/stc_cache_axi.v" stc_cache_axi ""
    iverilog_all "$tag" "$out"
    yosys_no_latch "$tag" "$out/stc_cache_obi.v" stc_cache_obi ""
    yosys_no_latch "$tag" "$out/stc_cache_obi.v" stc_cache_obi "READ_ONLY, a range" \
        "chparam -set READ_ONLY 1 -set UNCACHED_SIZE 4096 stc_cache_obi"
    yosys_no_latch "$tag" "$out/stc_cache_axi.v" stc_cache_axi ""
    pair_wrapper "$out" >"$work/wrap-$tag.v"
    quiet "$tag: stc_cache_pair, two adapters and two bridges connected by name (verilator -Wall)" \
        verilator --lint-only -Wall -Wno-PINMISSING -Wno-UNUSEDSIGNAL -Wno-DECLFILENAME \
        -Wno-PINCONNECTEMPTY --default-language 1364-2005 --top-module obi_pair_wrap \
        "$work/wrap-$tag.v" "$out"/*.v
done

# The adapter, the cache and the bridge together. (In Icarus the default
# geometry's run is 1500 operations; the Verilator run below is the same
# testbench at its full 4000: Icarus simulates ~20x slower, make test's
# length, 2026-12-07.)
run_tb tb_obi "default" "$work/default" pass -Ptb_obi.OPS=1500
run_tb tb_obi "default, READ_ONLY" "$work/default" pass -Ptb_obi.RO=1 -Ptb_obi.OPS=2000
run_tb tb_obi "l32" "$work/l32" pass -Ptb_obi.OPS=1500
run_tb tb_obi "a64" "$work/a64" pass -Ptb_obi.OPS=1500
# (512-byte lines simulate slowly: a short run, the bridge's cutting path
# beside single uncached words.)
run_tb tb_obi "l512" "$work/l512" pass -DTB_NO_TUNER -Ptb_obi.OPS=40 -Ptb_obi.TRAFFIC=0
verilator_tb obi-checks tb_obi "$work/default"

# Red: tb_obi fails on every broken adapter.
broken tb_obi stc_cache_obi.v adapter obi-order obi-gnt-early
# Every other deliberate bug leaves the adapter as it is.
others_intact stc_cache_obi.v adapter obi obi-order obi-gnt-early

determinism

echo "obi-checks: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
