// tb_harness.vh: the D-cache instance, the fixed-latency memory and the CPU
// tasks shared by the directed testbenches of the default geometry
// (tb_cache.v, tb_fixed.v); included inside their module.
  localparam integer T_MEM = 20;
  localparam integer BPL = 4;            // beats per line

  reg         clk = 1'b0;
  reg         rst_n = 1'b0;
  always #5 clk = ~clk;

  reg         req_valid = 1'b0, req_we = 1'b0;
  reg  [29:0] req_addr = 30'd0;
  reg  [3:0]  req_be = 4'd0;
  reg  [31:0] req_wdata = 32'd0;
  wire        req_ready, rsp_valid, rsp_err;
  wire [31:0] rsp_rdata;
  reg         cfg_valid = 1'b0;
  reg  [2:0]  cfg_k = 3'd0, cfg_a = 3'd0;
  reg  [1:0]  cfg_l = 2'd0;
  reg         cfg_wp = 1'b0;
  wire        cfg_ready, cfg_done, cfg_err;
  wire [2:0]  cur_k, cur_a;
  wire [1:0]  cur_l;
  wire        cur_wp;
  reg  [4:0]  cnt_sel = 5'd0;
  wire [31:0] cnt_value;
  wire        mreq_valid, mreq_we, mwvalid;
  wire [27:0] mreq_line;
  wire [2:0]  mreq_lines;
  wire [31:0] mwdata;
  reg         mreq_ready, mwready, mbvalid, mrvalid;
  wire [31:0] mrdata;
  wire [3:0]  pwr_en;

`ifndef TB_NO_TUNER
  reg         tun_we = 1'b0;       // the tuner's register port (idle unless a test drives it)
`ifdef TB_SEED_TUNER
  reg  [5:0]  tun_addr = 6'd0;     // stc_tuner's register addresses (--tuner seed)
`else
  reg  [2:0]  tun_addr = 3'd0;     // the monitor tuner's (the default)
`endif
  reg  [31:0] tun_wdata = 32'd0;
  wire [31:0] tun_rdata;
  wire        tun_busy;
`endif

  stc_cache dut (
    .clk_i(clk), .rst_ni(rst_n),
    .cpu_req_valid_i(req_valid), .cpu_req_ready_o(req_ready), .cpu_req_we_i(req_we),
    .cpu_req_addr_i(req_addr), .cpu_req_be_i(req_be), .cpu_req_wdata_i(req_wdata),
    .cpu_rsp_valid_o(rsp_valid), .cpu_rsp_err_o(rsp_err), .cpu_rsp_rdata_o(rsp_rdata),
    .cfg_valid_i(cfg_valid), .cfg_ready_o(cfg_ready), .cfg_banks_log_i(cfg_k),
    .cfg_ways_log_i(cfg_a), .cfg_sub_log_i(cfg_l), .cfg_wp_i(cfg_wp), .cfg_done_o(cfg_done),
    .cfg_err_o(cfg_err), .cfg_banks_log_o(cur_k), .cfg_ways_log_o(cur_a),
    .cfg_sub_log_o(cur_l), .cfg_wp_o(cur_wp),
    .mnt_valid_i(1'b0), .mnt_ready_o(), .mnt_op_i(2'd0), .mnt_all_i(1'b0),
    .mnt_addr_i(30'd0), .mnt_done_o(),
    .cnt_sel_i(cnt_sel), .cnt_clear_i(1'b0), .cnt_value_o(cnt_value),
`ifndef TB_NO_TUNER
    .tun_we_i(tun_we), .tun_addr_i(tun_addr), .tun_wdata_i(tun_wdata), .tun_rdata_o(tun_rdata),
    .tun_busy_o(tun_busy),
`endif
    .mem_req_valid_o(mreq_valid), .mem_req_ready_i(mreq_ready), .mem_req_we_o(mreq_we),
    .mem_req_line_o(mreq_line), .mem_req_lines_o(mreq_lines), .mem_wvalid_o(mwvalid),
    .mem_wready_i(mwready), .mem_wdata_o(mwdata), .mem_bvalid_i(mbvalid),
    .mem_rvalid_i(mrvalid), .mem_rdata_i(mrdata),
    .pwr_en_o(pwr_en), .pwr_ack_i(pwr_en)
  );

  // 64 Ki words; word w initially holds pattern(w).
  reg [31:0] mem [0:65535];
  function [31:0] pattern;
    input [31:0] w;
    begin
      pattern = (w * 32'h9e3779b1) ^ 32'h5a5a0000;
    end
  endfunction
  integer i;
  initial for (i = 0; i < 65536; i = i + 1) mem[i] = pattern(i);

  integer cycle = 0;
  always @(posedge clk) cycle <= cycle + 1;

  // Fixed latency: a request accepted in cycle c (mem_req_ready_i = 1) is
  //   read:  beat j of the burst in cycle c + T_MEM + 1 + j
  //   write: beats accepted in cycles c+1 .. c+BPL, mem_bvalid_i in cycle
  //          c + BPL + T_MEM
  // so a burst of n lines occupies T_MEM + n*BPL cycles after c.
  integer    m_state = 0;     // 0 idle, 1 read wait, 2 read beats, 3 write beats, 4 write wait
  integer    m_count = 0, m_beats = 0, m_word = 0;
  integer    n_reads = 0, n_writes = 0;
  reg [27:0] last_read_line, last_write_line;
  reg [2:0]  last_read_lines;
  reg [31:0] wb_beats [0:3];
  assign mrdata = mem[m_word[15:0]];
  always @(*) begin
    mreq_ready = (m_state == 0);
    mwready    = (m_state == 3);
    mbvalid    = (m_state == 4) && (m_count == 0);
    mrvalid    = (m_state == 2);
  end
  always @(posedge clk) begin
    case (m_state)
      0: if (mreq_valid) begin
        m_word = mreq_line * BPL;
        if (mreq_line >= 28'd16384) begin
          $display("FAIL memory request beyond the model's 64 Ki words: line %h", mreq_line);
          errors = errors + 1;
        end
        if (mreq_we) begin
          n_writes = n_writes + 1; last_write_line = mreq_line;
          m_beats = BPL; m_state = 3;
        end else begin
          n_reads = n_reads + 1; last_read_line = mreq_line; last_read_lines = mreq_lines;
          m_beats = mreq_lines * BPL; m_count = T_MEM - 1; m_state = 1;
        end
      end
      1: if (m_count == 0) m_state = 2; else m_count = m_count - 1;
      2: begin
        m_word = m_word + 1; m_beats = m_beats - 1;
        if (m_beats == 0) m_state = 0;
      end
      3: if (mwvalid) begin
        mem[m_word[15:0]] = mwdata; wb_beats[BPL - m_beats] = mwdata;
        m_word = m_word + 1; m_beats = m_beats - 1;
        if (m_beats == 0) begin m_count = T_MEM - 1; m_state = 4; end
      end
      4: if (m_count == 0) m_state = 0; else m_count = m_count - 1;
      default: m_state = 0;
    endcase
  end


  // ------------------------------------------------------------ CPU side
  integer    errors = 0;
  integer    t_accept, latency;
  reg [31:0] got;

  task access;                       // one request, wait for its answer
    input        we;
    input [31:0] byte_addr;
    input [3:0]  be;
    input [31:0] wdata;
    begin
      @(negedge clk);
      req_valid = 1'b1; req_we = we; req_addr = byte_addr[31:2]; req_be = be; req_wdata = wdata;
      while (!req_ready) @(negedge clk);
      @(posedge clk); t_accept = cycle;
      @(negedge clk); req_valid = 1'b0;
      while (!rsp_valid) @(negedge clk);
      latency = cycle - t_accept; got = rsp_rdata;
    end
  endtask

  // Reset released: the controller writes its R/4 = 32 row-state words
  // (ARCHITECTURE.md 15.1), one per clock edge, ready 0 meanwhile; it is
  // ready after the 32nd edge and has counted no cycle.
  task reset_and_init;
    integer t_release, waited;
    begin
      repeat (3) @(posedge clk);
      #1 rst_n = 1'b1;
      t_release = cycle;
      @(negedge clk);
      while (!req_ready || !cfg_ready) @(negedge clk);
      waited = cycle - t_release;
      check_eq("reset to ready: init edges", waited, 32);
      cnt_sel = 5'd13; #1;
      check_eq("init counts no cycles", cnt_value, 0);
    end
  endtask

  task check_eq;
    input [255:0] what;
    input [31:0]  value, want;
    begin
      if (value !== want) begin
        $display("FAIL %0s: got %h, want %h", what, value, want);
        errors = errors + 1;
      end
    end
  endtask

  task counter;                       // expect counter number sel to hold want
    input [4:0]  sel;
    input [31:0] want;
    begin
      cnt_sel = sel; #1;
      check_eq("counter", cnt_value, want);
    end
  endtask
