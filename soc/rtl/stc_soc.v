// stc_soc.v - the example system on chip: an RV32I core running C programs
// through the generated I- and D-caches (soc/README.md)
//
//   stc_rv32i --I OBI--> stc_cache_obi (READ_ONLY) --> stc_cache_pair.i_cpu
//             --D OBI--> stc_soc_obi_demux --+--> stc_cache_obi --> stc_cache_pair.d_cpu
//                                            +--> stc_soc_periph (OBI to APB4)
//   stc_cache_pair.i_mem --> stc_cache_axi --> m_axi_i_* (AXI4 manager, read only)
//   stc_cache_pair.d_mem --> stc_cache_axi --> m_axi_d_* (AXI4 manager)
//   APB: 0x1000_0000 I-cache stc_cache_apb, 0x1000_1000 D-cache
//        stc_cache_apb, 0x1000_2000 console (stc_soc_console)
//
// Memory map (byte addresses):
//   0x0000_0000-0x0FFF_FFFF  memory, cached (the testbench's AXI4 memory
//                            decodes what it holds: 256 KiB from 0)
//   0x1000_0000-0x1FFF_FFFF  peripherals, D side only, uncached (above)
//   0x2000_0000-0x2FFF_FFFF  D side only: the D adapter's uncached window
//                            (UNCACHED_BASE/SIZE), single AXI4 transfers
//                            through the D bridge; the testbench memory
//                            makes it an uncached alias of memory
//
// The two AXI4 ports go to the system's memory; here the testbench's
// two-port memory model (soc/tb/tb_axi_mem.v). The debug port dbg_* reaches
// the APB bus like the core does (the testbench reads the counters with it
// after the core stops). The peripheral region is split off before the
// D-cache's adapter (APB is not AXI4); the D adapter's uncached window goes
// to the D bridge's unc_* port, the I bridge's is tied off.
//
// Widths are those of the default geometry (stcgen without options,
// b4_2k_l16_a32): 28-bit line addresses, 4 banks, 30-bit word addresses,
// 32-bit counters, the monitor tuner's 3-bit register address. Another
// geometry changes them: the header of its stc_cache_pair.v says which.
`timescale 1ns / 1ps
`default_nettype none
module stc_soc #(
  parameter [31:0] BOOT_ADDR     = 32'h0000_0000,
  // The D side's uncached window (stc_cache_obi's range, a power of two,
  // aligned): its loads and stores bypass the D-cache as single AXI4
  // transfers through the D bridge's unc_* port. The testbench memory
  // decodes it as an alias of memory (address bit 29 ignored).
  parameter [31:0] UNCACHED_BASE = 32'h2000_0000,
  parameter [32:0] UNCACHED_SIZE = 33'h0_1000_0000
) (
  input  wire        clk_i,
  input  wire        rst_ni,          // asynchronous reset, active low
  input  wire        fetch_en_i,      // the core starts when 1
  // Core status
  output wire        halted_o,
  output wire [3:0]  halt_cause_o,
  output wire [31:0] halt_pc_o,
  output wire [31:0] instret_o,
  // Console
  output wire        tx_valid_o,
  output wire [7:0]  tx_data_o,
  output wire        exit_valid_o,
  output wire [7:0]  exit_code_o,
  // Debug OBI subordinate into the peripheral bus
  input  wire        dbg_req_i,
  output wire        dbg_gnt_o,
  input  wire [31:0] dbg_addr_i,
  input  wire        dbg_we_i,
  input  wire [3:0]  dbg_be_i,
  input  wire [31:0] dbg_wdata_i,
  output wire        dbg_rvalid_o,
  output wire [31:0] dbg_rdata_o,
  output wire        dbg_err_o,
  // AXI4 manager: the I-cache's line fills (read only: AW, W, B idle)
  output wire [1:0]  m_axi_i_arid_o,
  output wire [31:0] m_axi_i_araddr_o,
  output wire [7:0]  m_axi_i_arlen_o,
  output wire [2:0]  m_axi_i_arsize_o,
  output wire [1:0]  m_axi_i_arburst_o,
  output wire        m_axi_i_arvalid_o,
  input  wire        m_axi_i_arready_i,
  input  wire [31:0] m_axi_i_rdata_i,
  input  wire [1:0]  m_axi_i_rresp_i,
  input  wire        m_axi_i_rlast_i,
  input  wire        m_axi_i_rvalid_i,
  output wire        m_axi_i_rready_o,
  // AXI4 manager: the D-cache's fills and writebacks
  output wire [1:0]  m_axi_d_awid_o,
  output wire [31:0] m_axi_d_awaddr_o,
  output wire [7:0]  m_axi_d_awlen_o,
  output wire [2:0]  m_axi_d_awsize_o,
  output wire [1:0]  m_axi_d_awburst_o,
  output wire        m_axi_d_awvalid_o,
  input  wire        m_axi_d_awready_i,
  output wire [31:0] m_axi_d_wdata_o,
  output wire [3:0]  m_axi_d_wstrb_o,
  output wire        m_axi_d_wlast_o,
  output wire        m_axi_d_wvalid_o,
  input  wire        m_axi_d_wready_i,
  input  wire [1:0]  m_axi_d_bresp_i,
  input  wire        m_axi_d_bvalid_i,
  output wire        m_axi_d_bready_o,
  output wire [1:0]  m_axi_d_arid_o,
  output wire [31:0] m_axi_d_araddr_o,
  output wire [7:0]  m_axi_d_arlen_o,
  output wire [2:0]  m_axi_d_arsize_o,
  output wire [1:0]  m_axi_d_arburst_o,
  output wire        m_axi_d_arvalid_o,
  input  wire        m_axi_d_arready_i,
  input  wire [31:0] m_axi_d_rdata_i,
  input  wire [1:0]  m_axi_d_rresp_i,
  input  wire        m_axi_d_rlast_i,
  input  wire        m_axi_d_rvalid_i,
  output wire        m_axi_d_rready_o,
  // Sticky AXI error of either bridge (a fill or writeback answered badly)
  output wire        axi_err_o
);

  // ------------------------------------------------------------ core
  wire        core_i_req, core_i_gnt, core_i_we, core_i_rvalid, core_i_err;
  wire [31:0] core_i_addr, core_i_wdata, core_i_rdata;
  wire [3:0]  core_i_be;
  wire        core_d_req, core_d_gnt, core_d_we, core_d_rvalid, core_d_err;
  wire [31:0] core_d_addr, core_d_wdata, core_d_rdata;
  wire [3:0]  core_d_be;

  stc_rv32i #(.BOOT_ADDR (BOOT_ADDR)) u_core (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .fetch_en_i     (fetch_en_i),
    .instr_req_o    (core_i_req),
    .instr_gnt_i    (core_i_gnt),
    .instr_addr_o   (core_i_addr),
    .instr_we_o     (core_i_we),
    .instr_be_o     (core_i_be),
    .instr_wdata_o  (core_i_wdata),
    .instr_rvalid_i (core_i_rvalid),
    .instr_rdata_i  (core_i_rdata),
    .instr_err_i    (core_i_err),
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

  // ------------------------------------------------------------ D decoder
  wire        dm_req, dm_gnt, dm_we, dm_rvalid, dm_err;   // memory (cached)
  wire [31:0] dm_addr, dm_wdata, dm_rdata;
  wire [3:0]  dm_be;
  wire        dp_req, dp_gnt, dp_we, dp_rvalid, dp_err;   // peripherals
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
    .m_req_o    (dm_req),
    .m_gnt_i    (dm_gnt),
    .m_addr_o   (dm_addr),
    .m_we_o     (dm_we),
    .m_be_o     (dm_be),
    .m_wdata_o  (dm_wdata),
    .m_rvalid_i (dm_rvalid),
    .m_rdata_i  (dm_rdata),
    .m_err_i    (dm_err),
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

  // ------------------------------------------------------------ OBI adapters
  // The caches' CPU ports. The testbench logs every request these accept
  // (valid && ready at a rising edge) as the trace stcsim replays.
  wire        ic_req_valid, ic_req_ready, ic_rsp_valid;
  wire [29:0] ic_req_addr;
  wire [31:0] ic_rsp_rdata;
  wire        ic_req_we_unused;
  wire [3:0]  ic_req_be_unused;
  wire [31:0] ic_req_wdata_unused;
  wire        dc_req_valid, dc_req_ready, dc_req_we, dc_rsp_valid, dc_rsp_err;
  wire [29:0] dc_req_addr;
  wire [3:0]  dc_req_be;
  wire [31:0] dc_req_wdata, dc_rsp_rdata;
  // Uncached ports: the I side has no uncached range (it never asks); the
  // D side's goes to its bridge's unc_* port.
  wire        ic_unc_valid, ic_unc_we, dc_unc_valid, dc_unc_we;
  wire        dc_unc_ready, dc_unc_rsp_valid, dc_unc_rsp_err;
  wire [31:0] dc_unc_rsp_rdata;
  wire [29:0] ic_unc_addr, dc_unc_addr;
  wire [3:0]  ic_unc_be, dc_unc_be;
  wire [31:0] ic_unc_wdata, dc_unc_wdata;

  stc_cache_obi #(
    .UNCACHED_BASE (32'd0),
    .UNCACHED_SIZE (33'd0),
    .READ_ONLY     (1)
  ) u_iobi (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .obi_req_i       (core_i_req),
    .obi_gnt_o       (core_i_gnt),
    .obi_addr_i      (core_i_addr),
    .obi_we_i        (core_i_we),
    .obi_be_i        (core_i_be),
    .obi_wdata_i     (core_i_wdata),
    .obi_rvalid_o    (core_i_rvalid),
    .obi_rdata_o     (core_i_rdata),
    .obi_err_o       (core_i_err),
    .cpu_req_valid_o (ic_req_valid),
    .cpu_req_ready_i (ic_req_ready),
    .cpu_req_we_o    (ic_req_we_unused),     // the pair's I port has no store inputs
    .cpu_req_addr_o  (ic_req_addr),
    .cpu_req_be_o    (ic_req_be_unused),
    .cpu_req_wdata_o (ic_req_wdata_unused),
    .cpu_rsp_valid_i (ic_rsp_valid),
    .cpu_rsp_err_i   (1'b0),
    .cpu_rsp_rdata_i (ic_rsp_rdata),
    .unc_req_valid_o (ic_unc_valid),
    .unc_req_ready_i (1'b0),
    .unc_req_we_o    (ic_unc_we),
    .unc_req_addr_o  (ic_unc_addr),
    .unc_req_be_o    (ic_unc_be),
    .unc_req_wdata_o (ic_unc_wdata),
    .unc_rsp_valid_i (1'b0),
    .unc_rsp_rdata_i (32'd0),
    .unc_rsp_err_i   (1'b0)
  );

  stc_cache_obi #(
    .UNCACHED_BASE (UNCACHED_BASE),
    .UNCACHED_SIZE (UNCACHED_SIZE),
    .READ_ONLY     (0)
  ) u_dobi (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .obi_req_i       (dm_req),
    .obi_gnt_o       (dm_gnt),
    .obi_addr_i      (dm_addr),
    .obi_we_i        (dm_we),
    .obi_be_i        (dm_be),
    .obi_wdata_i     (dm_wdata),
    .obi_rvalid_o    (dm_rvalid),
    .obi_rdata_o     (dm_rdata),
    .obi_err_o       (dm_err),
    .cpu_req_valid_o (dc_req_valid),
    .cpu_req_ready_i (dc_req_ready),
    .cpu_req_we_o    (dc_req_we),
    .cpu_req_addr_o  (dc_req_addr),
    .cpu_req_be_o    (dc_req_be),
    .cpu_req_wdata_o (dc_req_wdata),
    .cpu_rsp_valid_i (dc_rsp_valid),
    .cpu_rsp_err_i   (dc_rsp_err),
    .cpu_rsp_rdata_i (dc_rsp_rdata),
    .unc_req_valid_o (dc_unc_valid),
    .unc_req_ready_i (dc_unc_ready),
    .unc_req_we_o    (dc_unc_we),
    .unc_req_addr_o  (dc_unc_addr),
    .unc_req_be_o    (dc_unc_be),
    .unc_req_wdata_o (dc_unc_wdata),
    .unc_rsp_valid_i (dc_unc_rsp_valid),
    .unc_rsp_rdata_i (dc_unc_rsp_rdata),
    .unc_rsp_err_i   (dc_unc_rsp_err)
  );

  // ------------------------------------------------------------ caches
  // Control nets, named as INTEGRATION.md 1.2 names them, prefixed i_/d_.
  wire        i_cfg_valid, i_cfg_ready, i_cfg_wp, i_cfg_done, i_cfg_err, i_cur_wp;
  wire [2:0]  i_cfg_banks_log, i_cfg_ways_log, i_cur_banks_log, i_cur_ways_log;
  wire [1:0]  i_cfg_sub_log, i_cur_sub_log;
  wire        i_mnt_valid, i_mnt_ready, i_mnt_all, i_mnt_done;
  wire [1:0]  i_mnt_op;
  wire [29:0] i_mnt_addr;
  wire [4:0]  i_cnt_sel;
  wire        i_cnt_clear;
  wire [31:0] i_cnt_value;
  wire        i_tun_we, i_tun_busy;
  wire [2:0]  i_tun_addr;
  wire [31:0] i_tun_wdata, i_tun_rdata;
  wire        d_cfg_valid, d_cfg_ready, d_cfg_wp, d_cfg_done, d_cfg_err, d_cur_wp;
  wire [2:0]  d_cfg_banks_log, d_cfg_ways_log, d_cur_banks_log, d_cur_ways_log;
  wire [1:0]  d_cfg_sub_log, d_cur_sub_log;
  wire        d_mnt_valid, d_mnt_ready, d_mnt_all, d_mnt_done;
  wire [1:0]  d_mnt_op;
  wire [29:0] d_mnt_addr;
  wire [4:0]  d_cnt_sel;
  wire        d_cnt_clear;
  wire [31:0] d_cnt_value;
  wire        d_tun_we, d_tun_busy;
  wire [2:0]  d_tun_addr;
  wire [31:0] d_tun_wdata, d_tun_rdata;
  // Memory ports
  wire        i_mem_req_valid, i_mem_req_ready, i_mem_rvalid;
  wire [27:0] i_mem_req_line;
  wire [2:0]  i_mem_req_lines;
  wire [31:0] i_mem_rdata;
  wire        d_mem_req_valid, d_mem_req_ready, d_mem_req_we, d_mem_wvalid, d_mem_wready;
  wire        d_mem_bvalid, d_mem_rvalid;
  wire [27:0] d_mem_req_line;
  wire [2:0]  d_mem_req_lines;
  wire [31:0] d_mem_wdata, d_mem_rdata;
  // Power switches: modelled as acknowledging at once (INTEGRATION.md,
  // ARCHITECTURE.md 14.3: in plain RTL simulation ack = enable).
  wire [3:0]  i_pwr_en, d_pwr_en;

  stc_cache_pair u_caches (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .i_cpu_req_valid_i (ic_req_valid),
    .i_cpu_req_ready_o (ic_req_ready),
    .i_cpu_req_addr_i  (ic_req_addr),
    .i_cpu_rsp_valid_o (ic_rsp_valid),
    .i_cpu_rsp_rdata_o (ic_rsp_rdata),
    .i_cfg_valid_i     (i_cfg_valid),
    .i_cfg_ready_o     (i_cfg_ready),
    .i_cfg_banks_log_i (i_cfg_banks_log),
    .i_cfg_ways_log_i  (i_cfg_ways_log),
    .i_cfg_sub_log_i   (i_cfg_sub_log),
    .i_cfg_wp_i        (i_cfg_wp),
    .i_cfg_done_o      (i_cfg_done),
    .i_cfg_err_o       (i_cfg_err),
    .i_cfg_banks_log_o (i_cur_banks_log),
    .i_cfg_ways_log_o  (i_cur_ways_log),
    .i_cfg_sub_log_o   (i_cur_sub_log),
    .i_cfg_wp_o        (i_cur_wp),
    .i_mnt_valid_i     (i_mnt_valid),
    .i_mnt_ready_o     (i_mnt_ready),
    .i_mnt_op_i        (i_mnt_op),
    .i_mnt_all_i       (i_mnt_all),
    .i_mnt_addr_i      (i_mnt_addr),
    .i_mnt_done_o      (i_mnt_done),
    .i_cnt_sel_i       (i_cnt_sel),
    .i_cnt_clear_i     (i_cnt_clear),
    .i_cnt_value_o     (i_cnt_value),
    .i_mem_req_valid_o (i_mem_req_valid),
    .i_mem_req_ready_i (i_mem_req_ready),
    .i_mem_req_line_o  (i_mem_req_line),
    .i_mem_req_lines_o (i_mem_req_lines),
    .i_mem_rvalid_i    (i_mem_rvalid),
    .i_mem_rdata_i     (i_mem_rdata),
    .i_tun_we_i        (i_tun_we),
    .i_tun_addr_i      (i_tun_addr),
    .i_tun_wdata_i     (i_tun_wdata),
    .i_tun_rdata_o     (i_tun_rdata),
    .i_tun_busy_o      (i_tun_busy),
    .i_pwr_en_o        (i_pwr_en),
    .i_pwr_ack_i       (i_pwr_en),
    .d_cpu_req_valid_i (dc_req_valid),
    .d_cpu_req_ready_o (dc_req_ready),
    .d_cpu_req_we_i    (dc_req_we),
    .d_cpu_req_addr_i  (dc_req_addr),
    .d_cpu_req_be_i    (dc_req_be),
    .d_cpu_req_wdata_i (dc_req_wdata),
    .d_cpu_rsp_valid_o (dc_rsp_valid),
    .d_cpu_rsp_err_o   (dc_rsp_err),
    .d_cpu_rsp_rdata_o (dc_rsp_rdata),
    .d_cfg_valid_i     (d_cfg_valid),
    .d_cfg_ready_o     (d_cfg_ready),
    .d_cfg_banks_log_i (d_cfg_banks_log),
    .d_cfg_ways_log_i  (d_cfg_ways_log),
    .d_cfg_sub_log_i   (d_cfg_sub_log),
    .d_cfg_wp_i        (d_cfg_wp),
    .d_cfg_done_o      (d_cfg_done),
    .d_cfg_err_o       (d_cfg_err),
    .d_cfg_banks_log_o (d_cur_banks_log),
    .d_cfg_ways_log_o  (d_cur_ways_log),
    .d_cfg_sub_log_o   (d_cur_sub_log),
    .d_cfg_wp_o        (d_cur_wp),
    .d_mnt_valid_i     (d_mnt_valid),
    .d_mnt_ready_o     (d_mnt_ready),
    .d_mnt_op_i        (d_mnt_op),
    .d_mnt_all_i       (d_mnt_all),
    .d_mnt_addr_i      (d_mnt_addr),
    .d_mnt_done_o      (d_mnt_done),
    .d_cnt_sel_i       (d_cnt_sel),
    .d_cnt_clear_i     (d_cnt_clear),
    .d_cnt_value_o     (d_cnt_value),
    .d_mem_req_valid_o (d_mem_req_valid),
    .d_mem_req_ready_i (d_mem_req_ready),
    .d_mem_req_we_o    (d_mem_req_we),
    .d_mem_req_line_o  (d_mem_req_line),
    .d_mem_req_lines_o (d_mem_req_lines),
    .d_mem_wvalid_o    (d_mem_wvalid),
    .d_mem_wready_i    (d_mem_wready),
    .d_mem_wdata_o     (d_mem_wdata),
    .d_mem_bvalid_i    (d_mem_bvalid),
    .d_mem_rvalid_i    (d_mem_rvalid),
    .d_mem_rdata_i     (d_mem_rdata),
    .d_tun_we_i        (d_tun_we),
    .d_tun_addr_i      (d_tun_addr),
    .d_tun_wdata_i     (d_tun_wdata),
    .d_tun_rdata_o     (d_tun_rdata),
    .d_tun_busy_o      (d_tun_busy),
    .d_pwr_en_o        (d_pwr_en),
    .d_pwr_ack_i       (d_pwr_en)
  );

  // ------------------------------------------------------------ AXI bridges
  // Unused by the read-only I side: AW, W and B (INTEGRATION.md 3.3).
  wire [1:0]  i_awid, i_awburst;
  wire [31:0] i_awaddr, i_wdata;
  wire [7:0]  i_awlen;
  wire [2:0]  i_awsize, i_awprot, i_arprot, d_awprot, d_arprot;
  wire [3:0]  i_awcache, i_wstrb, i_arcache, d_awcache, d_arcache;
  wire        i_awlock, i_awvalid, i_wlast, i_wvalid, i_bready, i_arlock, d_awlock, d_arlock;
  wire        i_mem_wready_unused, i_mem_bvalid_unused;
  wire        i_axi_err, i_axi_err_write, d_axi_err, d_axi_err_write;
  wire [31:0] i_axi_err_addr, d_axi_err_addr;
  wire        i_unc_ready, i_unc_rsp_valid, i_unc_rsp_err;
  wire [31:0] i_unc_rsp_rdata;

  stc_cache_axi #(.AXI_ID_BITS (2), .AXI_ID (2'd0), .AXI_PROT (3'b100)) u_iaxi (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .mem_req_valid_i (i_mem_req_valid),
    .mem_req_ready_o (i_mem_req_ready),
    .mem_req_we_i    (1'b0),
    .mem_req_line_i  (i_mem_req_line),
    .mem_req_lines_i (i_mem_req_lines),
    .mem_wvalid_i    (1'b0),
    .mem_wready_o    (i_mem_wready_unused),
    .mem_wdata_i     (32'd0),
    .mem_bvalid_o    (i_mem_bvalid_unused),
    .mem_rvalid_o    (i_mem_rvalid),
    .mem_rdata_o     (i_mem_rdata),
    .unc_req_valid_i (1'b0),
    .unc_req_ready_o (i_unc_ready),
    .unc_req_we_i    (1'b0),
    .unc_req_addr_i  (30'd0),
    .unc_req_be_i    (4'd0),
    .unc_req_wdata_i (32'd0),
    .unc_rsp_valid_o (i_unc_rsp_valid),
    .unc_rsp_rdata_o (i_unc_rsp_rdata),
    .unc_rsp_err_o   (i_unc_rsp_err),
    .m_axi_awid_o    (i_awid),
    .m_axi_awaddr_o  (i_awaddr),
    .m_axi_awlen_o   (i_awlen),
    .m_axi_awsize_o  (i_awsize),
    .m_axi_awburst_o (i_awburst),
    .m_axi_awlock_o  (i_awlock),
    .m_axi_awcache_o (i_awcache),
    .m_axi_awprot_o  (i_awprot),
    .m_axi_awvalid_o (i_awvalid),
    .m_axi_awready_i (1'b0),
    .m_axi_wdata_o   (i_wdata),
    .m_axi_wstrb_o   (i_wstrb),
    .m_axi_wlast_o   (i_wlast),
    .m_axi_wvalid_o  (i_wvalid),
    .m_axi_wready_i  (1'b0),
    .m_axi_bid_i     (2'd0),
    .m_axi_bresp_i   (2'd0),
    .m_axi_bvalid_i  (1'b0),
    .m_axi_bready_o  (i_bready),
    .m_axi_arid_o    (m_axi_i_arid_o),
    .m_axi_araddr_o  (m_axi_i_araddr_o),
    .m_axi_arlen_o   (m_axi_i_arlen_o),
    .m_axi_arsize_o  (m_axi_i_arsize_o),
    .m_axi_arburst_o (m_axi_i_arburst_o),
    .m_axi_arlock_o  (i_arlock),
    .m_axi_arcache_o (i_arcache),
    .m_axi_arprot_o  (i_arprot),
    .m_axi_arvalid_o (m_axi_i_arvalid_o),
    .m_axi_arready_i (m_axi_i_arready_i),
    .m_axi_rid_i     (2'd0),
    .m_axi_rdata_i   (m_axi_i_rdata_i),
    .m_axi_rresp_i   (m_axi_i_rresp_i),
    .m_axi_rlast_i   (m_axi_i_rlast_i),
    .m_axi_rvalid_i  (m_axi_i_rvalid_i),
    .m_axi_rready_o  (m_axi_i_rready_o),
    .axi_err_o       (i_axi_err),
    .axi_err_write_o (i_axi_err_write),
    .axi_err_addr_o  (i_axi_err_addr),
    .axi_err_clear_i (1'b0)
  );

  stc_cache_axi #(.AXI_ID_BITS (2), .AXI_ID (2'd1), .AXI_PROT (3'b000)) u_daxi (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .mem_req_valid_i (d_mem_req_valid),
    .mem_req_ready_o (d_mem_req_ready),
    .mem_req_we_i    (d_mem_req_we),
    .mem_req_line_i  (d_mem_req_line),
    .mem_req_lines_i (d_mem_req_lines),
    .mem_wvalid_i    (d_mem_wvalid),
    .mem_wready_o    (d_mem_wready),
    .mem_wdata_i     (d_mem_wdata),
    .mem_bvalid_o    (d_mem_bvalid),
    .mem_rvalid_o    (d_mem_rvalid),
    .mem_rdata_o     (d_mem_rdata),
    .unc_req_valid_i (dc_unc_valid),
    .unc_req_ready_o (dc_unc_ready),
    .unc_req_we_i    (dc_unc_we),
    .unc_req_addr_i  (dc_unc_addr),
    .unc_req_be_i    (dc_unc_be),
    .unc_req_wdata_i (dc_unc_wdata),
    .unc_rsp_valid_o (dc_unc_rsp_valid),
    .unc_rsp_rdata_o (dc_unc_rsp_rdata),
    .unc_rsp_err_o   (dc_unc_rsp_err),
    .m_axi_awid_o    (m_axi_d_awid_o),
    .m_axi_awaddr_o  (m_axi_d_awaddr_o),
    .m_axi_awlen_o   (m_axi_d_awlen_o),
    .m_axi_awsize_o  (m_axi_d_awsize_o),
    .m_axi_awburst_o (m_axi_d_awburst_o),
    .m_axi_awlock_o  (d_awlock),
    .m_axi_awcache_o (d_awcache),
    .m_axi_awprot_o  (d_awprot),
    .m_axi_awvalid_o (m_axi_d_awvalid_o),
    .m_axi_awready_i (m_axi_d_awready_i),
    .m_axi_wdata_o   (m_axi_d_wdata_o),
    .m_axi_wstrb_o   (m_axi_d_wstrb_o),
    .m_axi_wlast_o   (m_axi_d_wlast_o),
    .m_axi_wvalid_o  (m_axi_d_wvalid_o),
    .m_axi_wready_i  (m_axi_d_wready_i),
    .m_axi_bid_i     (2'd1),
    .m_axi_bresp_i   (m_axi_d_bresp_i),
    .m_axi_bvalid_i  (m_axi_d_bvalid_i),
    .m_axi_bready_o  (m_axi_d_bready_o),
    .m_axi_arid_o    (m_axi_d_arid_o),
    .m_axi_araddr_o  (m_axi_d_araddr_o),
    .m_axi_arlen_o   (m_axi_d_arlen_o),
    .m_axi_arsize_o  (m_axi_d_arsize_o),
    .m_axi_arburst_o (m_axi_d_arburst_o),
    .m_axi_arlock_o  (d_arlock),
    .m_axi_arcache_o (d_arcache),
    .m_axi_arprot_o  (d_arprot),
    .m_axi_arvalid_o (m_axi_d_arvalid_o),
    .m_axi_arready_i (m_axi_d_arready_i),
    .m_axi_rid_i     (2'd1),
    .m_axi_rdata_i   (m_axi_d_rdata_i),
    .m_axi_rresp_i   (m_axi_d_rresp_i),
    .m_axi_rlast_i   (m_axi_d_rlast_i),
    .m_axi_rvalid_i  (m_axi_d_rvalid_i),
    .m_axi_rready_o  (m_axi_d_rready_o),
    .axi_err_o       (d_axi_err),
    .axi_err_write_o (d_axi_err_write),
    .axi_err_addr_o  (d_axi_err_addr),
    .axi_err_clear_i (1'b0)
  );

  assign axi_err_o = i_axi_err || d_axi_err;

  // ------------------------------------------------------------ peripherals
  wire        apb_penable, apb_pwrite;
  wire [11:0] apb_paddr;
  wire [31:0] apb_pwdata;
  wire [3:0]  apb_pstrb;
  wire        apb_psel_icache, apb_pready_icache, apb_pslverr_icache;
  wire        apb_psel_dcache, apb_pready_dcache, apb_pslverr_dcache;
  wire [31:0] apb_prdata_icache, apb_prdata_dcache;

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
    .icache_pready_i  (apb_pready_icache),
    .icache_prdata_i  (apb_prdata_icache),
    .icache_pslverr_i (apb_pslverr_icache),
    .dcache_psel_o    (apb_psel_dcache),
    .dcache_pready_i  (apb_pready_dcache),
    .dcache_prdata_i  (apb_prdata_dcache),
    .dcache_pslverr_i (apb_pslverr_dcache),
    .tx_valid_o       (tx_valid_o),
    .tx_data_o        (tx_data_o),
    .exit_valid_o     (exit_valid_o),
    .exit_code_o      (exit_code_o)
  );

  stc_cache_apb u_icache_regs (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .psel_i          (apb_psel_icache),
    .penable_i       (apb_penable),
    .pwrite_i        (apb_pwrite),
    .paddr_i         (apb_paddr),
    .pwdata_i        (apb_pwdata),
    .pstrb_i         (apb_pstrb),
    .pready_o        (apb_pready_icache),
    .prdata_o        (apb_prdata_icache),
    .pslverr_o       (apb_pslverr_icache),
    .cfg_valid_o     (i_cfg_valid),
    .cfg_ready_i     (i_cfg_ready),
    .cfg_banks_log_o (i_cfg_banks_log),
    .cfg_ways_log_o  (i_cfg_ways_log),
    .cfg_sub_log_o   (i_cfg_sub_log),
    .cfg_wp_o        (i_cfg_wp),
    .cfg_done_i      (i_cfg_done),
    .cfg_err_i       (i_cfg_err),
    .cfg_banks_log_i (i_cur_banks_log),
    .cfg_ways_log_i  (i_cur_ways_log),
    .cfg_sub_log_i   (i_cur_sub_log),
    .cfg_wp_i        (i_cur_wp),
    .mnt_valid_o     (i_mnt_valid),
    .mnt_ready_i     (i_mnt_ready),
    .mnt_op_o        (i_mnt_op),
    .mnt_all_o       (i_mnt_all),
    .mnt_addr_o      (i_mnt_addr),
    .mnt_done_i      (i_mnt_done),
    .cnt_sel_o       (i_cnt_sel),
    .cnt_clear_o     (i_cnt_clear),
    .cnt_value_i     (i_cnt_value),
    .tun_we_o        (i_tun_we),
    .tun_addr_o      (i_tun_addr),
    .tun_wdata_o     (i_tun_wdata),
    .tun_rdata_i     (i_tun_rdata),
    .tun_busy_i      (i_tun_busy)
  );

  stc_cache_apb u_dcache_regs (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .psel_i          (apb_psel_dcache),
    .penable_i       (apb_penable),
    .pwrite_i        (apb_pwrite),
    .paddr_i         (apb_paddr),
    .pwdata_i        (apb_pwdata),
    .pstrb_i         (apb_pstrb),
    .pready_o        (apb_pready_dcache),
    .prdata_o        (apb_prdata_dcache),
    .pslverr_o       (apb_pslverr_dcache),
    .cfg_valid_o     (d_cfg_valid),
    .cfg_ready_i     (d_cfg_ready),
    .cfg_banks_log_o (d_cfg_banks_log),
    .cfg_ways_log_o  (d_cfg_ways_log),
    .cfg_sub_log_o   (d_cfg_sub_log),
    .cfg_wp_o        (d_cfg_wp),
    .cfg_done_i      (d_cfg_done),
    .cfg_err_i       (d_cfg_err),
    .cfg_banks_log_i (d_cur_banks_log),
    .cfg_ways_log_i  (d_cur_ways_log),
    .cfg_sub_log_i   (d_cur_sub_log),
    .cfg_wp_i        (d_cur_wp),
    .mnt_valid_o     (d_mnt_valid),
    .mnt_ready_i     (d_mnt_ready),
    .mnt_op_o        (d_mnt_op),
    .mnt_all_o       (d_mnt_all),
    .mnt_addr_o      (d_mnt_addr),
    .mnt_done_i      (d_mnt_done),
    .cnt_sel_o       (d_cnt_sel),
    .cnt_clear_o     (d_cnt_clear),
    .cnt_value_i     (d_cnt_value),
    .tun_we_o        (d_tun_we),
    .tun_addr_o      (d_tun_addr),
    .tun_wdata_o     (d_tun_wdata),
    .tun_rdata_i     (d_tun_rdata),
    .tun_busy_i      (d_tun_busy)
  );

  // Left open on purpose: the I side's store and write-channel outputs (it
  // never writes), the unused AXI attributes (constants the testbench
  // memory does not need), the uncached ports (no uncached range), the
  // bridges' error details (axi_err_o says that one happened).
  wire unused_ok = &{1'b0, ic_req_we_unused, ic_req_be_unused, ic_req_wdata_unused,
                     ic_unc_valid, ic_unc_we, ic_unc_addr, ic_unc_be, ic_unc_wdata,
                     i_awid, i_awaddr, i_awlen, i_awsize, i_awburst, i_awlock, i_awcache,
                     i_awprot, i_awvalid, i_wdata, i_wstrb, i_wlast, i_wvalid, i_bready,
                     i_arlock, i_arcache, i_arprot, d_awlock, d_awcache, d_awprot,
                     d_arlock, d_arcache, d_arprot, i_mem_wready_unused, i_mem_bvalid_unused,
                     i_axi_err_write, i_axi_err_addr, d_axi_err_write, d_axi_err_addr,
                     i_unc_ready, i_unc_rsp_valid, i_unc_rsp_rdata, i_unc_rsp_err};

endmodule
`default_nettype wire
