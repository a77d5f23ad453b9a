// stc_soc_ref.v - the example SoC without caches: the reference run
//
// The same core, D-side decoder and peripherals as stc_soc, with the
// core's two OBI ports going straight out (to the testbench's OBI memory
// model, soc/tb/tb_obi_mem.v: an answer 2 cycles after the grant) instead
// of through the caches. soc/run.sh
// runs every program on both and compares the console output: what the
// caches change must be timing only.
//
// The cache register windows (0x1000_0000, 0x1000_1000) answer every
// access with 0 and no error, so a program that asks for the ID register
// learns that there is no cache (ID's magic 0x57CA missing) and skips what
// needs one, instead of stopping on a bus error.
`timescale 1ns / 1ps
`default_nettype none
module stc_soc_ref #(
  parameter [31:0] BOOT_ADDR = 32'h0000_0000
) (
  input  wire        clk_i,
  input  wire        rst_ni,          // asynchronous reset, active low
  input  wire        fetch_en_i,
  output wire        halted_o,
  output wire [3:0]  halt_cause_o,
  output wire [31:0] halt_pc_o,
  output wire [31:0] instret_o,
  output wire        tx_valid_o,
  output wire [7:0]  tx_data_o,
  output wire        exit_valid_o,
  output wire [7:0]  exit_code_o,
  input  wire        dbg_req_i,
  output wire        dbg_gnt_o,
  input  wire [31:0] dbg_addr_i,
  input  wire        dbg_we_i,
  input  wire [3:0]  dbg_be_i,
  input  wire [31:0] dbg_wdata_i,
  output wire        dbg_rvalid_o,
  output wire [31:0] dbg_rdata_o,
  output wire        dbg_err_o,
  // OBI manager: instructions, to memory
  output wire        mi_req_o,
  input  wire        mi_gnt_i,
  output wire [31:0] mi_addr_o,
  input  wire        mi_rvalid_i,
  input  wire [31:0] mi_rdata_i,
  input  wire        mi_err_i,
  // OBI manager: data, to memory
  output wire        md_req_o,
  input  wire        md_gnt_i,
  output wire [31:0] md_addr_o,
  output wire        md_we_o,
  output wire [3:0]  md_be_o,
  output wire [31:0] md_wdata_o,
  input  wire        md_rvalid_i,
  input  wire [31:0] md_rdata_i,
  input  wire        md_err_i
);

  wire        core_i_we;
  wire [3:0]  core_i_be;
  wire [31:0] core_i_wdata;
  wire        core_d_req, core_d_gnt, core_d_we, core_d_rvalid, core_d_err;
  wire [31:0] core_d_addr, core_d_wdata, core_d_rdata;
  wire [3:0]  core_d_be;

  stc_rv32i #(.BOOT_ADDR (BOOT_ADDR)) u_core (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .fetch_en_i     (fetch_en_i),
    .instr_req_o    (mi_req_o),
    .instr_gnt_i    (mi_gnt_i),
    .instr_addr_o   (mi_addr_o),
    .instr_we_o     (core_i_we),
    .instr_be_o     (core_i_be),
    .instr_wdata_o  (core_i_wdata),
    .instr_rvalid_i (mi_rvalid_i),
    .instr_rdata_i  (mi_rdata_i),
    .instr_err_i    (mi_err_i),
    .data_req_o     (core_d_req),
    .data_gnt_i     (core_d_gnt),
    .data_addr_o    (core_d_addr),
    .data_we_o      (core_d_we),
    .data_be_o      (core_d_be),
    .data_wdata_o   (core_d_wdata),
    .data_rvalid_i  (core_d_rvalid),
    .data_rdata_i   (core_d_rdata),
    .data_err_i     (core_d_err),
    .halted_o       (halted_o),
    .halt_cause_o   (halt_cause_o),
    .halt_pc_o      (halt_pc_o),
    .instret_o      (instret_o)
  );

  wire        dp_req, dp_gnt, dp_we, dp_rvalid, dp_err;
  wire [31:0] dp_addr, dp_wdata, dp_rdata;
  wire [3:0]  dp_be;

  stc_soc_obi_demux #(
    .PERIPH_BASE (32'h1000_0000),
    .PERIPH_MASK (32'hf000_0000)
  ) u_ddemux (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .s_req_i    (core_d_req),
    .s_gnt_o    (core_d_gnt),
    .s_addr_i   (core_d_addr),
    .s_we_i     (core_d_we),
    .s_be_i     (core_d_be),
    .s_wdata_i  (core_d_wdata),
    .s_rvalid_o (core_d_rvalid),
    .s_rdata_o  (core_d_rdata),
    .s_err_o    (core_d_err),
    .m_req_o    (md_req_o),
    .m_gnt_i    (md_gnt_i),
    .m_addr_o   (md_addr_o),
    .m_we_o     (md_we_o),
    .m_be_o     (md_be_o),
    .m_wdata_o  (md_wdata_o),
    .m_rvalid_i (md_rvalid_i),
    .m_rdata_i  (md_rdata_i),
    .m_err_i    (md_err_i),
    .p_req_o    (dp_req),
    .p_gnt_i    (dp_gnt),
    .p_addr_o   (dp_addr),
    .p_we_o     (dp_we),
    .p_be_o     (dp_be),
    .p_wdata_o  (dp_wdata),
    .p_rvalid_i (dp_rvalid),
    .p_rdata_i  (dp_rdata),
    .p_err_i    (dp_err)
  );

  wire        apb_penable, apb_pwrite, apb_psel_icache, apb_psel_dcache;
  wire [11:0] apb_paddr;
  wire [31:0] apb_pwdata;
  wire [3:0]  apb_pstrb;

  stc_soc_periph u_periph (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .obi_req_i        (dp_req),
    .obi_gnt_o        (dp_gnt),
    .obi_addr_i       (dp_addr),
    .obi_we_i         (dp_we),
    .obi_be_i         (dp_be),
    .obi_wdata_i      (dp_wdata),
    .obi_rvalid_o     (dp_rvalid),
    .obi_rdata_o      (dp_rdata),
    .obi_err_o        (dp_err),
    .dbg_req_i        (dbg_req_i),
    .dbg_gnt_o        (dbg_gnt_o),
    .dbg_addr_i       (dbg_addr_i),
    .dbg_we_i         (dbg_we_i),
    .dbg_be_i         (dbg_be_i),
    .dbg_wdata_i      (dbg_wdata_i),
    .dbg_rvalid_o     (dbg_rvalid_o),
    .dbg_rdata_o      (dbg_rdata_o),
    .dbg_err_o        (dbg_err_o),
    .apb_penable_o    (apb_penable),
    .apb_pwrite_o     (apb_pwrite),
    .apb_paddr_o      (apb_paddr),
    .apb_pwdata_o     (apb_pwdata),
    .apb_pstrb_o      (apb_pstrb),
    .icache_psel_o    (apb_psel_icache),
    .icache_pready_i  (1'b1),      // no cache: reads 0, writes ignored
    .icache_prdata_i  (32'd0),
    .icache_pslverr_i (1'b0),
    .dcache_psel_o    (apb_psel_dcache),
    .dcache_pready_i  (1'b1),
    .dcache_prdata_i  (32'd0),
    .dcache_pslverr_i (1'b0),
    .tx_valid_o       (tx_valid_o),
    .tx_data_o        (tx_data_o),
    .exit_valid_o     (exit_valid_o),
    .exit_code_o      (exit_code_o)
  );

  // The I port never writes; the stubs' APB inputs are not needed.
  wire unused_ok = &{1'b0, core_i_we, core_i_be, core_i_wdata, apb_penable, apb_pwrite,
                     apb_psel_icache, apb_psel_dcache, apb_paddr, apb_pwdata, apb_pstrb};

endmodule
`default_nettype wire
