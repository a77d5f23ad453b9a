// tb_cache_axi.vh: a generated stc_cache (instance dut) and its AXI4 bridge
// stc_cache_axi (instance u_axi) on the cache's memory port, shared by
// tb_axi.v, tb_obi.v and tb_timing.v; included inside their module, so that
// every net keeps its place at the top level (tb_timing's VCD and
// docs/timing/scenarios.txt name them there).
//
// Declared here: the memory port between the two (mem_*) and the bridge's
// outputs toward AXI4 (awid .. rready, axi_err, axi_err_write,
// axi_err_addr). The including module declares the rest, which it drives
// or reads: clk, rst_n; ADDR_BITS, LNB (physical line address bits), RO
// (the cache's READ_ONLY) and AXI_ID (the bridge's 1-bit ID, also the BID /
// RID it is answered with); the cache's CPU port (cpu_req_*, cpu_rsp_*),
// configuration (cfg_valid, cfg_banks_log, cfg_ways_log, cfg_sub_log,
// cfg_wp, cfg_ready, cfg_done, cfg_err, cur_banks_log, cur_ways_log,
// cur_sub_log, cur_wp), maintenance (mnt_*), counter (cnt_sel, cnt_clear,
// cnt_value) and tuner (tun_we, tun_addr, tun_wdata, tun_rdata, tun_busy;
// none with TB_NO_TUNER, for an output without a tuner) ports and pwr_en;
// the bridge's uncached port (unc_req_*, unc_rsp_*) and the AXI4
// subordinate's outputs (awready, wready, bresp, bvalid, arready, rdata,
// rresp, rlast, rvalid) and axi_err_clear.
  wire                 mem_req_valid, mem_req_ready, mem_req_we, mem_wvalid, mem_wready;
  wire                 mem_bvalid, mem_rvalid;
  wire [LNB-1:0]       mem_req_line;
  wire [2:0]           mem_req_lines;
  wire [31:0]          mem_wdata, mem_rdata;
  wire [0:0]           awid, arid;
  wire [ADDR_BITS-1:0] awaddr, araddr, axi_err_addr;
  wire [7:0]           awlen, arlen;
  wire [2:0]           awsize, arsize, awprot, arprot;
  wire [1:0]           awburst, arburst;
  wire                 awlock, arlock;
  wire [3:0]           awcache, arcache, wstrb;
  wire                 awvalid, wvalid, wlast, bready, arvalid, rready;
  wire [31:0]          wdata;
  wire                 axi_err, axi_err_write;

  stc_cache #(.READ_ONLY (RO)) dut (
    .clk_i           (clk),
    .rst_ni          (rst_n),
    .cpu_req_valid_i (cpu_req_valid),
    .cpu_req_ready_o (cpu_req_ready),
    .cpu_req_we_i    (cpu_req_we),
    .cpu_req_addr_i  (cpu_req_addr),
    .cpu_req_be_i    (cpu_req_be),
    .cpu_req_wdata_i (cpu_req_wdata),
    .cpu_rsp_valid_o (cpu_rsp_valid),
    .cpu_rsp_err_o   (cpu_rsp_err),
    .cpu_rsp_rdata_o (cpu_rsp_rdata),
    .cfg_valid_i     (cfg_valid),
    .cfg_ready_o     (cfg_ready),
    .cfg_banks_log_i (cfg_banks_log),
    .cfg_ways_log_i  (cfg_ways_log),
    .cfg_sub_log_i   (cfg_sub_log),
    .cfg_wp_i        (cfg_wp),
    .cfg_done_o      (cfg_done),
    .cfg_err_o       (cfg_err),
    .cfg_banks_log_o (cur_banks_log),
    .cfg_ways_log_o  (cur_ways_log),
    .cfg_sub_log_o   (cur_sub_log),
    .cfg_wp_o        (cur_wp),
    .mnt_valid_i     (mnt_valid),
    .mnt_ready_o     (mnt_ready),
    .mnt_op_i        (mnt_op),
    .mnt_all_i       (mnt_all),
    .mnt_addr_i      (mnt_addr),
    .mnt_done_o      (mnt_done),
    .cnt_sel_i       (cnt_sel),
    .cnt_clear_i     (cnt_clear),
    .cnt_value_o     (cnt_value),
    .mem_req_valid_o (mem_req_valid),
    .mem_req_ready_i (mem_req_ready),
    .mem_req_we_o    (mem_req_we),
    .mem_req_line_o  (mem_req_line),
    .mem_req_lines_o (mem_req_lines),
    .mem_wvalid_o    (mem_wvalid),
    .mem_wready_i    (mem_wready),
    .mem_wdata_o     (mem_wdata),
    .mem_bvalid_i    (mem_bvalid),
    .mem_rvalid_i    (mem_rvalid),
    .mem_rdata_i     (mem_rdata),
`ifndef TB_NO_TUNER
    .tun_we_i        (tun_we),
    .tun_addr_i      (tun_addr),
    .tun_wdata_i     (tun_wdata),
    .tun_rdata_o     (tun_rdata),
    .tun_busy_o      (tun_busy),
`endif
    // Power switches that acknowledge at once (plain RTL simulation).
    .pwr_en_o        (pwr_en),
    .pwr_ack_i       (pwr_en)
  );

  stc_cache_axi #(
    .AXI_ID_BITS (1),
    .AXI_ID      (AXI_ID),
    .AXI_PROT    (3'b000)
  ) u_axi (
    .clk_i           (clk),
    .rst_ni          (rst_n),
    .mem_req_valid_i (mem_req_valid),
    .mem_req_ready_o (mem_req_ready),
    .mem_req_we_i    (mem_req_we),
    .mem_req_line_i  (mem_req_line),
    .mem_req_lines_i (mem_req_lines),
    .mem_wvalid_i    (mem_wvalid),
    .mem_wready_o    (mem_wready),
    .mem_wdata_i     (mem_wdata),
    .mem_bvalid_o    (mem_bvalid),
    .mem_rvalid_o    (mem_rvalid),
    .mem_rdata_o     (mem_rdata),
    .unc_req_valid_i (unc_req_valid),
    .unc_req_ready_o (unc_req_ready),
    .unc_req_we_i    (unc_req_we),
    .unc_req_addr_i  (unc_req_addr),
    .unc_req_be_i    (unc_req_be),
    .unc_req_wdata_i (unc_req_wdata),
    .unc_rsp_valid_o (unc_rsp_valid),
    .unc_rsp_rdata_o (unc_rsp_rdata),
    .unc_rsp_err_o   (unc_rsp_err),
    .m_axi_awid_o    (awid),
    .m_axi_awaddr_o  (awaddr),
    .m_axi_awlen_o   (awlen),
    .m_axi_awsize_o  (awsize),
    .m_axi_awburst_o (awburst),
    .m_axi_awlock_o  (awlock),
    .m_axi_awcache_o (awcache),
    .m_axi_awprot_o  (awprot),
    .m_axi_awvalid_o (awvalid),
    .m_axi_awready_i (awready),
    .m_axi_wdata_o   (wdata),
    .m_axi_wstrb_o   (wstrb),
    .m_axi_wlast_o   (wlast),
    .m_axi_wvalid_o  (wvalid),
    .m_axi_wready_i  (wready),
    .m_axi_bid_i     (AXI_ID),
    .m_axi_bresp_i   (bresp),
    .m_axi_bvalid_i  (bvalid),
    .m_axi_bready_o  (bready),
    .m_axi_arid_o    (arid),
    .m_axi_araddr_o  (araddr),
    .m_axi_arlen_o   (arlen),
    .m_axi_arsize_o  (arsize),
    .m_axi_arburst_o (arburst),
    .m_axi_arlock_o  (arlock),
    .m_axi_arcache_o (arcache),
    .m_axi_arprot_o  (arprot),
    .m_axi_arvalid_o (arvalid),
    .m_axi_arready_i (arready),
    .m_axi_rid_i     (AXI_ID),
    .m_axi_rdata_i   (rdata),
    .m_axi_rresp_i   (rresp),
    .m_axi_rlast_i   (rlast),
    .m_axi_rvalid_i  (rvalid),
    .m_axi_rready_o  (rready),
    .axi_err_o       (axi_err),
    .axi_err_write_o (axi_err_write),
    .axi_err_addr_o  (axi_err_addr),
    .axi_err_clear_i (axi_err_clear)
  );
