// tb_cache: directed smoke test of the generated top stc_cache, default
// geometry (4 banks of 2 KiB, 16-byte lines, 32-bit addresses), D-cache.
// A fixed-latency memory (T_MEM cycles, ARCHITECTURE.md section 15) holds a
// known pattern; every expected value and cycle count is computed by hand
// from sections 3-10 and 15 in the comments. Prints "tb_cache: PASS".
`timescale 1ns / 1ps
`default_nettype none
module tb_cache;
  `include "tb_harness.vh"


  // Addresses: row = addr[10:4], tag = addr[31:11]. A..E share row 0x10.
  localparam [31:0] A = 32'h0000_1104;  // line 0x110, word 1
  localparam [31:0] B = A + 32'h800, C = A + 32'h1000, D = A + 32'h1800, E = A + 32'h2000;
  localparam [31:0] F = 32'h0002_0040;  // row 4, addr[11] = 0
  localparam [31:0] G = F + 32'h1000;    // same rows and bank group
  localparam [31:0] H = 32'h0003_0080;  // row 8
  localparam [31:0] K = F + 32'h3000, M = F + 32'h2000;  // rows 4..7 too
  localparam [31:0] J = 32'h0000_4140;  // row 20 (memory: 64 Ki words)
  integer reads_before, writes_before;

  // A read-only instance (I-cache): only its store rejection is checked.
  reg         i_req_valid = 1'b0;
  wire        i_req_ready, i_rsp_valid, i_rsp_err, i_mem_req;
  wire [3:0]  i_pwr_en;
  stc_cache #(.READ_ONLY(1)) icache (
    .clk_i(clk), .rst_ni(rst_n),
    .cpu_req_valid_i(i_req_valid), .cpu_req_ready_o(i_req_ready), .cpu_req_we_i(1'b1),
    .cpu_req_addr_i(30'd0), .cpu_req_be_i(4'hf), .cpu_req_wdata_i(32'd0),
    .cpu_rsp_valid_o(i_rsp_valid), .cpu_rsp_err_o(i_rsp_err), .cpu_rsp_rdata_o(),
    .cfg_valid_i(1'b0), .cfg_ready_o(), .cfg_banks_log_i(3'd0), .cfg_ways_log_i(3'd0),
    .cfg_sub_log_i(2'd0), .cfg_wp_i(1'b0), .cfg_done_o(), .cfg_err_o(), .cfg_banks_log_o(),
    .cfg_ways_log_o(), .cfg_sub_log_o(), .cfg_wp_o(),
    .mnt_valid_i(1'b0), .mnt_ready_o(), .mnt_op_i(2'd0), .mnt_all_i(1'b0),
    .mnt_addr_i(30'd0), .mnt_done_o(),
    .cnt_sel_i(5'd0), .cnt_clear_i(1'b0), .cnt_value_o(),
    .tun_we_i(1'b0), .tun_addr_i(3'd0), .tun_wdata_i(32'd0), .tun_rdata_o(), .tun_busy_o(),
    .mem_req_valid_o(i_mem_req), .mem_req_ready_i(1'b0), .mem_req_we_o(), .mem_req_line_o(),
    .mem_req_lines_o(), .mem_wvalid_o(), .mem_wready_i(1'b0), .mem_wdata_o(),
    .mem_bvalid_i(1'b0), .mem_rvalid_i(1'b0), .mem_rdata_i(32'd0),
    .pwr_en_o(i_pwr_en), .pwr_ack_i(i_pwr_en)
  );

  initial begin
    reset_and_init;

    // 1. Read miss (8K_4W_16B, reset), section 10: probe 1 (which also reads
    //    the tags of r0) + fill burst T+4 + 1 per subline (the check; the
    //    last one requests the first burst) + 1 per burst (a later burst's
    //    request, or the answer): 1 + 24 + 1 + 1 = 27.
    access(1'b0, A, 4'h0, 32'h0);
    check_eq("read miss data", got, pattern(A >> 2));
    check_eq("read miss burst line", last_read_line, A >> 4);
    check_eq("read miss burst lines", last_read_lines, 1);
    check_eq("read miss reads", n_reads, 1);
    check_eq("read miss latency", latency, 27);

    // 2. Hit in the same line, another word: 1 cycle, no memory traffic.
    access(1'b0, A + 32'h4, 4'h0, 32'h0);
    check_eq("hit data", got, pattern((A + 4) >> 2));
    check_eq("hit latency", latency, 1);
    check_eq("hit reads", n_reads, 1);

    // 3. Store hit, bytes 0 and 2, then read back the merged word.
    access(1'b1, A, 4'b0101, 32'hAABBCCDD);
    check_eq("store latency", latency, 1);
    access(1'b0, A, 4'h0, 32'h0);
    check_eq("merged word", got, (pattern(A >> 2) & 32'hFF00FF00) | 32'h00BB00DD);

    // 4. Fill the other three banks of row 0x10 (invalid first), then E
    //    evicts the least recent: A's bank (0). A's line is dirty: one write
    //    burst of line 0x110 with the merged word, then the fill.
    access(1'b0, B, 4'h0, 32'h0);
    access(1'b0, C, 4'h0, 32'h0);
    access(1'b0, D, 4'h0, 32'h0);
    check_eq("B C D are misses", n_reads, 4);
    writes_before = n_writes;
    access(1'b0, E, 4'h0, 32'h0);
    check_eq("eviction writes back", n_writes, writes_before + 1);
    check_eq("writeback line", last_write_line, A >> 4);
    check_eq("writeback beat 0", wb_beats[0], pattern((A >> 2) - 1));
    check_eq("writeback beat 1", wb_beats[1], (pattern(A >> 2) & 32'hFF00FF00) | 32'h00BB00DD);
    check_eq("writeback beat 2", wb_beats[2], pattern((A >> 2) + 1));
    check_eq("writeback beat 3", wb_beats[3], pattern((A >> 2) + 2));
    check_eq("E data", got, pattern(E >> 2));
    //    section 10: 1 + (T+4+2) writeback (its request, and the fill's
    //    request after it) + (T+4) fill + check + answer = 53.
    check_eq("dirty miss latency", latency, 53);

    // 5. A again: a miss that reads back what was written back.
    reads_before = n_reads;
    access(1'b0, A, 4'h0, 32'h0);
    check_eq("A refetched", n_reads, reads_before + 1);
    check_eq("A after writeback", got, (pattern(A >> 2) & 32'hFF00FF00) | 32'h00BB00DD);

    @(negedge clk);
    // Counters (section 9): 9 requests, misses: A, B, C, D, E, A = 6,
    // 1 write, 1 writeback, 6 fills.
    counter(5'd0, 9);
    counter(5'd5, 6);
    counter(5'd4, 1);
    counter(5'd12, 1);
    counter(5'd10, 6);

    // 6. Reconfigure to 2K_1W_16B (k=1, a=1): walk all 4 banks (g grows),
    //    banks 1..3 go off. Nothing is dirty now; cfg_done after 128 + 1
    //    cycles (section 10).
    @(negedge clk);
    cfg_valid = 1'b1; cfg_k = 3'd0; cfg_a = 3'd0; cfg_l = 2'd0; cfg_wp = 1'b0;
    @(posedge clk); t_accept = cycle;
    @(negedge clk); cfg_valid = 1'b0;
    while (!cfg_done) @(negedge clk);
    check_eq("walk cycles", cycle - t_accept, 129);
    repeat (10) @(negedge clk);
    check_eq("config k", cur_k, 0);
    check_eq("banks off", pwr_en, 4'b0001);
    counter(5'd16, 128);
    // A was refetched in step 5 into bank 1 (B's, the least recent) and
    // dropped by the walk: a miss, with the data written back in step 4.
    reads_before = n_reads;
    access(1'b0, A, 4'h0, 32'h0);
    check_eq("A missed after the walk", n_reads, reads_before + 1);
    check_eq("A after walk", got, (pattern(A >> 2) & 32'hFF00FF00) | 32'h00BB00DD);

    // 7. Reconfigure to 8K_2W_64B_P (k=4, a=2, L=4P, wp): wakes banks 1..3
    //    one after another, T_wake = 4 each (pwr_ack_i = pwr_en_o), and g
    //    grows from 1 to 2, so bank 0 is walked. Model 3*4 + 128 = 140;
    //    RTL + 1 (the cycle that sees the last bank ready) = 141.
    @(negedge clk);
    cfg_valid = 1'b1; cfg_k = 3'd2; cfg_a = 3'd1; cfg_l = 2'd2; cfg_wp = 1'b1;
    @(posedge clk); t_accept = cycle;
    @(negedge clk); cfg_valid = 1'b0;
    while (!cfg_done) @(negedge clk);
    check_eq("wake + walk cycles", cycle - t_accept, 141);
    check_eq("all banks on", pwr_en, 4'b1111);
    check_eq("config", {cur_k, cur_a, cur_l, cur_wp}, {3'd2, 3'd1, 2'd2, 1'b1});

    // 8. A 64-byte logical line: F is row 4 (r0 = 4, rows 4..7), tag bit 0
    //    = addr[11] = 0: candidates banks 0 and 2, both invalid there, so
    //    the victim is bank 0. One read burst of 4 lines from line F >> 4.
    //    2 probes + T + 16 = 38, + 2: the row state shows the whole line
    //    absent (both candidates' rows 4..7 invalid), so the cycle after
    //    the probes requests all 4 lines unchecked, and the answer = 40.
    reads_before = n_reads;
    access(1'b0, F, 4'h0, 32'h0);
    check_eq("64B miss data", got, pattern(F >> 2));
    check_eq("64B miss one burst", n_reads, reads_before + 1);
    check_eq("64B burst lines", last_read_lines, 4);
    check_eq("64B burst line", last_read_line, F >> 4);
    check_eq("64B miss latency", latency, 40);
    //    Another subline (row 7) of the same logical line: predicted bank =
    //    the most recent candidate there = bank 0: first-probe hit, 1 cycle.
    access(1'b0, F + 32'h3C, 4'h0, 32'h0);
    check_eq("subline hit data", got, pattern((F + 32'h3C) >> 2));
    check_eq("first-probe hit latency", latency, 1);
    //    G: same rows and group, other tag: victim bank 2 (invalid), then F
    //    again: predicted bank 2 (G, most recent), F is in bank 0: second-
    //    probe hit, 2 cycles.
    access(1'b0, G, 4'h0, 32'h0);
    check_eq("G data", got, pattern(G >> 2));
    check_eq("G latency", latency, 40);   // bank 0 holds F whole (filled at 64 B)
    access(1'b0, F + 32'h10, 4'h0, 32'h0);
    check_eq("second-probe hit data", got, pattern((F + 32'h10) >> 2));
    check_eq("second-probe hit latency", latency, 2);
    @(negedge clk);
    counter(5'd8, 1);   // first_probe_hits
    counter(5'd9, 1);   // second_probe_hits
    // fill_bursts: A, B, C, D, E, A (step 5: into bank 1, B's, the least
    // recent), A again after the walk (bank 1 went off, A was dropped), F, G.
    counter(5'd11, 9);
    // walk_invalidations: step 6 kept E in bank 0 and dropped A, C, D of
    // banks 1..3; step 7 walked bank 0, where A (tag 2, tag bit 0 = 0) may
    // stay under g = 2: 3.
    counter(5'd19, 3);

    // 8b. Store into G (bank 2, row 4: that subline dirty), then shrink to
    //     4K_2W_64B_P (k=2, a=2, g=1): banks 2 and 3 are walked and go off.
    //     G's 4 sublines (bank 2, rows 4..7) are taken; their new candidates
    //     are banks 0 and 1, bank 0 holds F there, bank 1 nothing: each
    //     moves to bank 1 (section 7), the dirty one with its store, and
    //     nothing is written back. Model 128 + 4 moves + 4 rows with a move
    //     = 136; RTL + 1 = 137.
    access(1'b1, G, 4'b1111, 32'h1234_5678);
    writes_before = n_writes;
    reads_before = n_reads;
    @(negedge clk);
    cfg_valid = 1'b1; cfg_k = 3'd1; cfg_a = 3'd1; cfg_l = 2'd2; cfg_wp = 1'b1;
    @(posedge clk); t_accept = cycle;
    @(negedge clk); cfg_valid = 1'b0;
    while (!cfg_done) @(negedge clk);
    check_eq("walk with moves cycles", cycle - t_accept, 137);
    check_eq("moves write nothing back", n_writes, writes_before);
    repeat (10) @(negedge clk);
    check_eq("banks 2, 3 off", pwr_en, 4'b0011);
    counter(5'd18, 0);  // walk_writebacks
    counter(5'd19, 3);  // walk_invalidations: 3 before, none now
    //     G kept its place in row 4's order (the most recent), now in bank
    //     1: the predicted bank, a first-probe hit with the stored word.
    access(1'b0, G, 4'h0, 32'h0);
    check_eq("moved G data", got, 32'h1234_5678);
    check_eq("moved G first-probe hit", latency, 1);
    access(1'b0, G + 32'h3C, 4'h0, 32'h0);
    check_eq("moved G other subline", got, pattern((G + 32'h3C) >> 2));
    check_eq("moved G no refetch", n_reads, reads_before);

    // 8c. A logical line partly present. Only L changes to 16 B: no wake,
    //     no walk, done in the accepting cycle (0 cycles, as the model).
    //     H (row 8) misses into bank 0 (lowest invalid candidate); back to
    //     64 B lines (again 0 cycles), H + 0x10 (row 9) misses: r0 = 8, the
    //     victim is bank 1 (invalid at row 8), subline 0 (H) stays in bank 0
    //     and sublines 1..3 come in one 3-line burst into bank 1:
    //     2 + T + 12 = 34, + 4 checks + the answer = 39.
    @(negedge clk);
    cfg_valid = 1'b1; cfg_k = 3'd1; cfg_a = 3'd1; cfg_l = 2'd0; cfg_wp = 1'b1;
    #1 check_eq("L-only change done at once", cfg_done, 1'b1);
    @(negedge clk); cfg_valid = 1'b0;
    access(1'b0, H, 4'h0, 32'h0);
    check_eq("H data", got, pattern(H >> 2));
    @(negedge clk);
    cfg_valid = 1'b1; cfg_k = 3'd1; cfg_a = 3'd1; cfg_l = 2'd2; cfg_wp = 1'b1;
    #1 check_eq("L-only change back done at once", cfg_done, 1'b1);
    @(negedge clk); cfg_valid = 1'b0;
    reads_before = n_reads;
    access(1'b0, H + 32'h14, 4'h0, 32'h0);
    check_eq("partial line data", got, pattern((H + 32'h14) >> 2));
    check_eq("partial line one burst", n_reads, reads_before + 1);
    check_eq("partial line burst lines", last_read_lines, 3);
    check_eq("partial line burst start", last_read_line, (H >> 4) + 1);
    check_eq("partial line latency", latency, 39);
    access(1'b0, H + 32'h38, 4'h0, 32'h0);   // row 11, bank 1: predicted
    check_eq("row 11 data", got, pattern((H + 32'h38) >> 2));
    check_eq("row 11 first-probe hit", latency, 1);
    access(1'b0, H + 32'h8, 4'h0, 32'h0);    // row 8, bank 0: not predicted
    check_eq("row 8 data", got, pattern((H + 32'h8) >> 2));
    check_eq("row 8 second-probe hit", latency, 2);
    check_eq("no further memory reads", n_reads, reads_before + 1);

    // 8d. Missing sublines split by present ones: with 16-byte lines J+0x10
    //     (row 21) and J+0x30 (row 23) go to bank 0; with 64-byte lines J
    //     (row 20, r0 = 20) misses, victim bank 0 (invalid at row 20):
    //     sublines 0 and 2 are missing, 1 and 3 present: two 1-line bursts.
    //     2 + 2 (T + 4) = 50, + 4 checks (the last requests the first
    //     burst) + the second burst's request + the answer = 56.
    @(negedge clk);
    cfg_valid = 1'b1; cfg_k = 3'd1; cfg_a = 3'd1; cfg_l = 2'd0; cfg_wp = 1'b1;
    @(negedge clk); cfg_valid = 1'b0;
    access(1'b0, J + 32'h10, 4'h0, 32'h0);
    access(1'b0, J + 32'h30, 4'h0, 32'h0);
    @(negedge clk);
    cfg_valid = 1'b1; cfg_k = 3'd1; cfg_a = 3'd1; cfg_l = 2'd2; cfg_wp = 1'b1;
    @(negedge clk); cfg_valid = 1'b0;
    reads_before = n_reads;
    access(1'b0, J + 32'hC, 4'h0, 32'h0);
    check_eq("split runs data", got, pattern((J + 32'hC) >> 2));
    check_eq("split runs: two bursts", n_reads, reads_before + 2);
    check_eq("split runs: second burst line", last_read_line, (J >> 4) + 2);
    check_eq("split runs: second burst lines", last_read_lines, 1);
    check_eq("split runs latency", latency, 56);
    access(1'b0, J + 32'h28, 4'h0, 32'h0);   // row 22, just filled
    check_eq("row 22 data", got, pattern((J + 32'h28) >> 2));
    check_eq("row 22 hit", n_reads, reads_before + 2);

    // 8e. A dirty logical line evicted: F (bank 0, rows 4..7) gets stores in
    //     rows 4 and 6; K (same rows) fills bank 1 (invalid); M then evicts
    //     the least recent, bank 0: two write bursts (rows 4 and 6,
    //     ascending), then one 4-line read burst. 2 + 2 (T + 4) +
    //     (T + 16) = 86, + 2 (banks 0 and 1 each hold one whole line filled
    //     at 64 B: M known absent, no check) + 2 per writeback (its
    //     request, then row 6's tag read, or the burst's request) = 92.
    access(1'b1, F, 4'b1111, 32'hF0F0_0004);
    access(1'b1, F + 32'h20, 4'b1111, 32'hF0F0_0006);
    access(1'b0, K, 4'h0, 32'h0);
    writes_before = n_writes;
    reads_before = n_reads;
    access(1'b0, M, 4'h0, 32'h0);
    check_eq("logical eviction data", got, pattern(M >> 2));
    check_eq("logical eviction: two writebacks", n_writes, writes_before + 2);
    check_eq("logical eviction: last writeback line", last_write_line, (F >> 4) + 2);
    check_eq("logical eviction: stored word written back", wb_beats[0], 32'hF0F0_0006);
    check_eq("logical eviction: one read burst", n_reads, reads_before + 1);
    check_eq("logical eviction latency", latency, 92);
    check_eq("row 4 written back", mem[F >> 2], 32'hF0F0_0004);

    // 9. An illegal configuration (a > k) is refused and changes nothing.
    @(negedge clk);
    cfg_valid = 1'b1; cfg_k = 3'd0; cfg_a = 3'd1; cfg_l = 2'd0; cfg_wp = 1'b0;
    #1 check_eq("illegal config refused", {cfg_done, cfg_err}, 2'b11);
    @(negedge clk); cfg_valid = 1'b0;
    check_eq("config unchanged", {cur_k, cur_a, cur_l, cur_wp}, {3'd1, 3'd1, 2'd2, 1'b1});

    // 10. The I-cache (READ_ONLY = 1) answers a store with an error in 1
    //     cycle and sends nothing to memory.
    @(negedge clk);
    i_req_valid = 1'b1;
    while (!i_req_ready) @(negedge clk);
    @(negedge clk); i_req_valid = 1'b0;
    check_eq("I-cache store rejected", {i_rsp_valid, i_rsp_err}, 2'b11);
    check_eq("I-cache no memory request", i_mem_req, 1'b0);

    // 11. Back to back (section 15.3): five hits in consecutive cycles in
    //     M's logical line (just filled: bank 1, rows 4..7, most recent, so
    //     every first probe hits; 2K_2W_64B_P). Each request is presented
    //     in the previous one's response cycle and accepted at its edge
    //     (ready 1 there); each is answered the cycle after. Nothing is
    //     watched by the monitor yet (its clear walk leaves the first 128
    //     accesses after reset unwatched), so the top asks for no gap.
    //     R1 stores M+8; R2, a load accepted in R1's response cycle, took
    //     the data SRAM's cycle, so R1 waits in the store buffer and R2's
    //     word comes from it. R3 (a store: tags only) frees the data SRAMs
    //     in R2's response cycle, where the buffer is written; R3 itself
    //     waits while R4 loads its word (bytes 0-1 stored, 2-3 from
    //     memory's pattern), then R5 reads row 5.
    @(negedge clk);
    req_valid = 1'b1; req_we = 1'b1; req_addr = (M + 32'h8) >> 2; req_be = 4'hf;
    req_wdata = 32'h1111_1111;
    #1 check_eq("b2b: R1 ready when idle", req_ready, 1);
    @(negedge clk);
    check_eq("b2b: R1 answered 1 cycle after", rsp_valid, 1);
    req_we = 1'b0; req_addr = (M + 32'h8) >> 2; req_be = 4'h0;
    #1 check_eq("b2b: R2 accepted in R1's response cycle", req_ready, 1);
    @(negedge clk);
    check_eq("b2b: R2 answered", rsp_valid, 1);
    check_eq("b2b: R2 reads R1's word from the store buffer", rsp_rdata, 32'h1111_1111);
    req_we = 1'b1; req_addr = (M + 32'hC) >> 2; req_be = 4'b0011; req_wdata = 32'h2222_3333;
    #1 check_eq("b2b: R3 accepted in R2's response cycle", req_ready, 1);
    @(negedge clk);
    check_eq("b2b: R3 answered", rsp_valid, 1);
    req_we = 1'b0; req_addr = (M + 32'hC) >> 2; req_be = 4'h0;
    #1 check_eq("b2b: R4 accepted in R3's response cycle", req_ready, 1);
    @(negedge clk);
    check_eq("b2b: R4 answered", rsp_valid, 1);
    check_eq("b2b: R4 merges R3's bytes", rsp_rdata,
             (pattern((M + 32'hC) >> 2) & 32'hFFFF_0000) | 32'h0000_3333);
    req_addr = (M + 32'h14) >> 2;
    #1 check_eq("b2b: R5 accepted in R4's response cycle", req_ready, 1);
    @(negedge clk);
    check_eq("b2b: R5 answered", rsp_valid, 1);
    check_eq("b2b: R5 data", rsp_rdata, pattern((M + 32'h14) >> 2));
    req_valid = 1'b0;
    // Both stores reached their lines (R3's buffer write in a later free
    // cycle): read back one at a time.
    access(1'b0, M + 32'h8, 4'h0, 32'h0);
    check_eq("b2b: R1's word in the line", got, 32'h1111_1111);
    access(1'b0, M + 32'hC, 4'h0, 32'h0);
    check_eq("b2b: R3's bytes in the line", got,
             (pattern((M + 32'hC) >> 2) & 32'hFFFF_0000) | 32'h0000_3333);

    if (errors == 0) $display("tb_cache: PASS");
    else $display("tb_cache: FAIL (%0d errors)", errors);
    $finish;
  end

  initial begin
    #2000000;
    $display("FAIL tb_cache: timeout");
    $finish;
  end
endmodule
`default_nettype wire
