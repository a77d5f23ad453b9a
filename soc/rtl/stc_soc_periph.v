// stc_soc_periph.v - the example SoC's peripheral bus: OBI to APB4, the
// APB decoder, the console; the two cache register blocks hang off it
//
// Peripheral region (the D side's decoder sends 0x1000_0000-0x1FFF_FFFF
// here; this block looks at PADDR[15:12] only):
//   0x1000_0000  I-cache registers (stc_cache_apb, outside: icache_*)
//   0x1000_1000  D-cache registers (stc_cache_apb, outside: dcache_*)
//   0x1000_2000  console and exit (stc_soc_console, inside)
//   others       refused (PSLVERR), so a stray pointer stops the core
// The register blocks stay outside so that the reference top without
// caches can put stubs in their place (stc_soc_ref).
`timescale 1ns / 1ps
`default_nettype none
module stc_soc_periph (
  input  wire        clk_i,
  input  wire        rst_ni,        // asynchronous reset, active low
  // OBI subordinate: the core's peripheral accesses
  input  wire        obi_req_i,
  output wire        obi_gnt_o,
  input  wire [31:0] obi_addr_i,
  input  wire        obi_we_i,
  input  wire [3:0]  obi_be_i,
  input  wire [31:0] obi_wdata_i,
  output wire        obi_rvalid_o,
  output wire [31:0] obi_rdata_o,
  output wire        obi_err_o,
  // OBI subordinate: the testbench's debug accesses
  input  wire        dbg_req_i,
  output wire        dbg_gnt_o,
  input  wire [31:0] dbg_addr_i,
  input  wire        dbg_we_i,
  input  wire [3:0]  dbg_be_i,
  input  wire [31:0] dbg_wdata_i,
  output wire        dbg_rvalid_o,
  output wire [31:0] dbg_rdata_o,
  output wire        dbg_err_o,
  // The APB bus toward the two register blocks (shared but PSEL)
  output wire        apb_penable_o,
  output wire        apb_pwrite_o,
  output wire [11:0] apb_paddr_o,
  output wire [31:0] apb_pwdata_o,
  output wire [3:0]  apb_pstrb_o,
  output wire        icache_psel_o,
  input  wire        icache_pready_i,
  input  wire [31:0] icache_prdata_i,
  input  wire        icache_pslverr_i,
  output wire        dcache_psel_o,
  input  wire        dcache_pready_i,
  input  wire [31:0] dcache_prdata_i,
  input  wire        dcache_pslverr_i,
  // Console
  output wire        tx_valid_o,
  output wire [7:0]  tx_data_o,
  output wire        exit_valid_o,
  output wire [7:0]  exit_code_o
);

  wire        psel, penable, pwrite, pready, pslverr;
  wire [31:0] paddr, pwdata, prdata;
  wire [3:0]  pstrb;
  wire [2:0]  pprot;

  stc_soc_obi_apb u_bridge (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .obi_req_i    (obi_req_i),
    .obi_gnt_o    (obi_gnt_o),
    .obi_addr_i   (obi_addr_i),
    .obi_we_i     (obi_we_i),
    .obi_be_i     (obi_be_i),
    .obi_wdata_i  (obi_wdata_i),
    .obi_rvalid_o (obi_rvalid_o),
    .obi_rdata_o  (obi_rdata_o),
    .obi_err_o    (obi_err_o),
    .dbg_req_i    (dbg_req_i),
    .dbg_gnt_o    (dbg_gnt_o),
    .dbg_addr_i   (dbg_addr_i),
    .dbg_we_i     (dbg_we_i),
    .dbg_be_i     (dbg_be_i),
    .dbg_wdata_i  (dbg_wdata_i),
    .dbg_rvalid_o (dbg_rvalid_o),
    .dbg_rdata_o  (dbg_rdata_o),
    .dbg_err_o    (dbg_err_o),
    .psel_o       (psel),
    .penable_o    (penable),
    .pwrite_o     (pwrite),
    .paddr_o      (paddr),
    .pwdata_o     (pwdata),
    .pstrb_o      (pstrb),
    .pprot_o      (pprot),
    .pready_i     (pready),
    .prdata_i     (prdata),
    .pslverr_i    (pslverr)
  );

  // Decode on PADDR[15:12]: the 4 KiB windows.
  wire sel_icache  = psel && (paddr[15:12] == 4'd0);
  wire sel_dcache  = psel && (paddr[15:12] == 4'd1);
  wire sel_console = psel && (paddr[15:12] == 4'd2);
  wire sel_none    = psel && !sel_icache && !sel_dcache && !sel_console;

  wire        con_pready, con_pslverr;
  wire [31:0] con_prdata;

  stc_soc_console u_console (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .psel_i       (sel_console),
    .penable_i    (penable),
    .pwrite_i     (pwrite),
    .paddr_i      (paddr[11:0]),
    .pwdata_i     (pwdata),
    .pstrb_i      (pstrb),
    .pready_o     (con_pready),
    .prdata_o     (con_prdata),
    .pslverr_o    (con_pslverr),
    .tx_valid_o   (tx_valid_o),
    .tx_data_o    (tx_data_o),
    .exit_valid_o (exit_valid_o),
    .exit_code_o  (exit_code_o)
  );

  assign apb_penable_o = penable;
  assign apb_pwrite_o  = pwrite;
  assign apb_paddr_o   = paddr[11:0];
  assign apb_pwdata_o  = pwdata;
  assign apb_pstrb_o   = pstrb;
  assign icache_psel_o = sel_icache;
  assign dcache_psel_o = sel_dcache;

  // The selected completer answers; no completer: ready at once, refused.
  assign pready  = sel_icache ? icache_pready_i : sel_dcache ? dcache_pready_i :
                   sel_console ? con_pready : 1'b1;
  assign prdata  = sel_icache ? icache_prdata_i : sel_dcache ? dcache_prdata_i :
                   sel_console ? con_prdata : 32'd0;
  assign pslverr = sel_icache ? icache_pslverr_i : sel_dcache ? dcache_pslverr_i :
                   sel_console ? con_pslverr : (sel_none && penable);

  // Above the window number nothing is decoded (the D side's decoder
  // already chose the region); PPROT has no completer that reads it.
  wire unused_ok = &{1'b0, paddr[31:16], pprot};

endmodule
`default_nettype wire
