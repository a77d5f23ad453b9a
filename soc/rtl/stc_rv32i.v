// stc_rv32i.v - a small multi-cycle RV32I core, the test client of the
// example SoC (soc/README.md)
//
// Not a product: it exists so that compiled C programs can drive the
// generated I- and D-caches with real instruction and data streams. It is
// written for clarity, one instruction at a time:
//
//   S_FREQ  instruction request on the I port until granted
//   S_FWAIT wait for its response (rvalid), latch the instruction
//   S_EXEC  decode and execute: ALU ops, branches and jumps write rd and
//           the pc here; a load or store computes its address and goes on
//   S_MREQ  data request on the D port until granted
//   S_MWAIT wait for its response; a load writes rd
//
// so an instruction takes 2 cycles plus the I port's latency (grant to
// response: 1 for a cache hit), and a load or store 1 more plus the D
// port's. At most one request is outstanding on
// each port, so responses need no ordering logic.
//
// ISA: RV32I (the unprivileged base, 2.1) without CSRs, counters or traps.
// FENCE and FENCE.I execute as no-ops (one hart, and the example never
// writes code). ECALL, EBREAK, an illegal instruction, a misaligned load,
// store or jump target, and a bus error all stop the core (S_HALT) with a
// cause on halt_cause_o and the pc of the instruction on halt_pc_o: the
// testbench reports them. There is no trap handler: a stop is the end of
// the run.
//
// Ports: two OBI 1.x managers (req/gnt address phase, rvalid response
// phase, no rready), byte addresses; a load requests its whole word
// (be = the bytes it reads) and takes its bytes from the word's lanes; a
// store puts its data on the lanes its address selects.
`timescale 1ns / 1ps
`default_nettype none
module stc_rv32i #(
  parameter [31:0] BOOT_ADDR = 32'h0000_0000
) (
  input  wire        clk_i,
  input  wire        rst_ni,         // asynchronous reset, active low
  input  wire        fetch_en_i,     // 1: leave S_IDLE and start at BOOT_ADDR
  // OBI manager: instructions
  output wire        instr_req_o,
  input  wire        instr_gnt_i,
  output wire [31:0] instr_addr_o,
  output wire        instr_we_o,
  output wire [3:0]  instr_be_o,
  output wire [31:0] instr_wdata_o,
  input  wire        instr_rvalid_i,
  input  wire [31:0] instr_rdata_i,
  input  wire        instr_err_i,
  // OBI manager: data
  output wire        data_req_o,
  input  wire        data_gnt_i,
  output wire [31:0] data_addr_o,
  output wire        data_we_o,
  output wire [3:0]  data_be_o,
  output wire [31:0] data_wdata_o,
  input  wire        data_rvalid_i,
  input  wire [31:0] data_rdata_i,
  input  wire        data_err_i,
  // Stop
  output wire        halted_o,
  output wire [3:0]  halt_cause_o,   // HC_* below
  output wire [31:0] halt_pc_o,
  output wire [31:0] instret_o       // instructions retired
);

  // Stop causes (the testbench prints them by number).
  localparam [3:0] HC_NONE       = 4'd0;
  localparam [3:0] HC_ECALL      = 4'd1;
  localparam [3:0] HC_EBREAK     = 4'd2;
  localparam [3:0] HC_ILLEGAL    = 4'd3;
  localparam [3:0] HC_IBUS_ERR   = 4'd4;
  localparam [3:0] HC_DBUS_ERR   = 4'd5;
  localparam [3:0] HC_MISALIGNED = 4'd6;   // load or store address
  localparam [3:0] HC_JUMP_ALIGN = 4'd7;   // jump or branch target not 4-byte aligned

  localparam [2:0] S_IDLE  = 3'd0;
  localparam [2:0] S_FREQ  = 3'd1;
  localparam [2:0] S_FWAIT = 3'd2;
  localparam [2:0] S_EXEC  = 3'd3;
  localparam [2:0] S_MREQ  = 3'd4;
  localparam [2:0] S_MWAIT = 3'd5;
  localparam [2:0] S_HALT  = 3'd6;

  // Major opcodes (instr[6:0]).
  localparam [6:0] OP_LUI    = 7'b0110111;
  localparam [6:0] OP_AUIPC  = 7'b0010111;
  localparam [6:0] OP_JAL    = 7'b1101111;
  localparam [6:0] OP_JALR   = 7'b1100111;
  localparam [6:0] OP_BRANCH = 7'b1100011;
  localparam [6:0] OP_LOAD   = 7'b0000011;
  localparam [6:0] OP_STORE  = 7'b0100011;
  localparam [6:0] OP_IMM    = 7'b0010011;
  localparam [6:0] OP_REG    = 7'b0110011;
  localparam [6:0] OP_FENCE  = 7'b0001111;
  localparam [6:0] OP_SYSTEM = 7'b1110011;

  reg  [2:0]  state_q, state_d;
  reg  [31:0] pc_q, pc_d;
  reg  [31:0] instr_q, instr_d;
  reg  [3:0]  cause_q, cause_d;
  reg  [31:0] instret_q, instret_d;
  // The memory access of a load or store, fixed in S_EXEC and held on the
  // D port until granted (OBI: the address phase must not change).
  reg  [31:0] maddr_q, maddr_d;
  reg         mwe_q, mwe_d;
  reg  [3:0]  mbe_q, mbe_d;
  reg  [31:0] mwdata_q, mwdata_d;

  // Register file x1..x31 (x0 reads 0 and is never written). No reset: the
  // ABI sets every register it reads (crt0 sets sp and gp first).
  reg  [31:0] rf_q [1:31];
  reg         rf_we;
  reg  [31:0] rf_wdata;

  // ------------------------------------------------------------ decode
  wire [6:0]  opcode = instr_q[6:0];
  wire [4:0]  rd     = instr_q[11:7];
  wire [2:0]  funct3 = instr_q[14:12];
  wire [4:0]  rs1    = instr_q[19:15];
  wire [4:0]  rs2    = instr_q[24:20];
  wire [6:0]  funct7 = instr_q[31:25];

  wire [31:0] rs1_val = (rs1 == 5'd0) ? 32'd0 : rf_q[rs1];
  wire [31:0] rs2_val = (rs2 == 5'd0) ? 32'd0 : rf_q[rs2];

  wire [31:0] imm_i = {{20{instr_q[31]}}, instr_q[31:20]};
  wire [31:0] imm_s = {{20{instr_q[31]}}, instr_q[31:25], instr_q[11:7]};
  wire [31:0] imm_b = {{19{instr_q[31]}}, instr_q[31], instr_q[7], instr_q[30:25], instr_q[11:8], 1'b0};
  wire [31:0] imm_u = {instr_q[31:12], 12'd0};
  wire [31:0] imm_j = {{11{instr_q[31]}}, instr_q[31], instr_q[19:12], instr_q[20], instr_q[30:21], 1'b0};

  wire [31:0] pc_plus4 = pc_q + 32'd4;

  // ALU: OP-IMM takes imm_i as its second operand; a shift's amount is
  // the operand's low 5 bits either way. funct7[5] selects SUB and SRA for
  // OP, only SRA for OP-IMM (ADDI has no subtract form).
  wire        is_op_imm = (opcode == OP_IMM);
  wire [31:0] alu_b     = is_op_imm ? imm_i : rs2_val;
  wire [4:0]  shamt     = alu_b[4:0];
  reg  [31:0] alu_res;
  reg         alu_legal;
  always @(*) begin
    alu_res   = 32'd0;
    alu_legal = 1'b1;
    case (funct3)
      3'b000: begin
        if (!is_op_imm && funct7 == 7'b0100000) alu_res = rs1_val - alu_b;
        else alu_res = rs1_val + alu_b;
        alu_legal = is_op_imm || funct7 == 7'b0000000 || funct7 == 7'b0100000;
      end
      3'b001: begin
        alu_res   = rs1_val << shamt;
        alu_legal = (funct7 == 7'b0000000);
      end
      3'b010: begin
        alu_res   = {31'd0, $signed(rs1_val) < $signed(alu_b)};
        alu_legal = is_op_imm || funct7 == 7'b0000000;
      end
      3'b011: begin
        alu_res   = {31'd0, rs1_val < alu_b};
        alu_legal = is_op_imm || funct7 == 7'b0000000;
      end
      3'b100: begin
        alu_res   = rs1_val ^ alu_b;
        alu_legal = is_op_imm || funct7 == 7'b0000000;
      end
      3'b101: begin
        if (funct7 == 7'b0100000) alu_res = $unsigned($signed(rs1_val) >>> shamt);
        else alu_res = rs1_val >> shamt;
        alu_legal = (funct7 == 7'b0000000) || (funct7 == 7'b0100000);
      end
      3'b110: begin
        alu_res   = rs1_val | alu_b;
        alu_legal = is_op_imm || funct7 == 7'b0000000;
      end
      default: begin
        alu_res   = rs1_val & alu_b;
        alu_legal = is_op_imm || funct7 == 7'b0000000;
      end
    endcase
  end

  // Branch condition.
  reg br_taken;
  reg br_legal;
  always @(*) begin
    br_legal = 1'b1;
    case (funct3)
      3'b000:  br_taken = (rs1_val == rs2_val);
      3'b001:  br_taken = (rs1_val != rs2_val);
      3'b100:  br_taken = ($signed(rs1_val) < $signed(rs2_val));
      3'b101:  br_taken = ($signed(rs1_val) >= $signed(rs2_val));
      3'b110:  br_taken = (rs1_val < rs2_val);
      3'b111:  br_taken = (rs1_val >= rs2_val);
      default: begin
        br_taken = 1'b0;
        br_legal = 1'b0;
      end
    endcase
  end

  // Load and store address, byte enables and store lanes.
  wire [31:0] ls_addr = rs1_val + ((opcode == OP_STORE) ? imm_s : imm_i);
  reg  [3:0]  ls_be;
  reg         ls_misaligned;
  reg         ls_legal;
  always @(*) begin
    ls_be         = 4'b0000;
    ls_misaligned = 1'b0;
    ls_legal      = 1'b1;
    case (funct3[1:0])
      2'b00: ls_be = 4'b0001 << ls_addr[1:0];
      2'b01: begin
        ls_be         = 4'b0011 << ls_addr[1:0];
        ls_misaligned = ls_addr[0];
      end
      2'b10: begin
        ls_be         = 4'b1111;
        ls_misaligned = (ls_addr[1:0] != 2'b00);
      end
      default: ls_legal = 1'b0;
    endcase
    // Loads: LB LH LW LBU LHU (funct3 3, 6, 7 illegal); stores: SB SH SW.
    if (opcode == OP_LOAD && (funct3 == 3'b011 || funct3 == 3'b110 || funct3 == 3'b111)) ls_legal = 1'b0;
    if (opcode == OP_STORE && funct3[2]) ls_legal = 1'b0;
  end
  // A store's data replicated on every lane; be picks the lanes written.
  wire [31:0] st_data = (funct3[1:0] == 2'b00) ? {4{rs2_val[7:0]}} :
                        (funct3[1:0] == 2'b01) ? {2{rs2_val[15:0]}} : rs2_val;

  // A load's result from the response word (maddr_q and instr_q are still
  // the load's in S_MWAIT).
  wire [31:0] ld_word    = data_rdata_i >> {maddr_q[1:0], 3'b000};
  wire [15:0] ld_shifted = ld_word[15:0];  // LB, LH: the bytes above are not needed
  wire        unused_ld  = &{1'b0, ld_word[31:16]};
  reg  [31:0] ld_value;
  always @(*) begin
    case (funct3)
      3'b000:  ld_value = {{24{ld_shifted[7]}}, ld_shifted[7:0]};
      3'b001:  ld_value = {{16{ld_shifted[15]}}, ld_shifted[15:0]};
      3'b100:  ld_value = {24'd0, ld_shifted[7:0]};
      3'b101:  ld_value = {16'd0, ld_shifted[15:0]};
      default: ld_value = data_rdata_i;
    endcase
  end

  // ------------------------------------------------------------ FSM
  always @(*) begin
    state_d   = state_q;
    pc_d      = pc_q;
    instr_d   = instr_q;
    cause_d   = cause_q;
    instret_d = instret_q;
    maddr_d   = maddr_q;
    mwe_d     = mwe_q;
    mbe_d     = mbe_q;
    mwdata_d  = mwdata_q;
    rf_we     = 1'b0;
    rf_wdata  = 32'd0;
    case (state_q)
      S_IDLE: if (fetch_en_i) state_d = S_FREQ;
      S_FREQ: if (instr_gnt_i) state_d = S_FWAIT;
      S_FWAIT: if (instr_rvalid_i) begin
        if (instr_err_i) begin
          cause_d = HC_IBUS_ERR;
          state_d = S_HALT;
        end else begin
          instr_d = instr_rdata_i;
          state_d = S_EXEC;
        end
      end
      S_EXEC: begin
        // Most instructions retire here; loads and stores in S_MWAIT.
        state_d   = S_FREQ;
        pc_d      = pc_plus4;
        instret_d = instret_q + 32'd1;
        case (opcode)
          OP_LUI: begin
            rf_we    = 1'b1;
            rf_wdata = imm_u;
          end
          OP_AUIPC: begin
            rf_we    = 1'b1;
            rf_wdata = pc_q + imm_u;
          end
          OP_JAL: begin
            rf_we    = 1'b1;
            rf_wdata = pc_plus4;
            pc_d     = pc_q + imm_j;
          end
          OP_JALR: begin
            rf_we    = 1'b1;
            rf_wdata = pc_plus4;
            pc_d     = (rs1_val + imm_i) & 32'hffff_fffe;
            if (funct3 != 3'b000) begin
              rf_we   = 1'b0;
              cause_d = HC_ILLEGAL;
            end
          end
          OP_BRANCH: begin
            if (!br_legal) cause_d = HC_ILLEGAL;
            else if (br_taken) pc_d = pc_q + imm_b;
          end
          OP_IMM, OP_REG: begin
            rf_we    = alu_legal;
            rf_wdata = alu_res;
            if (!alu_legal) cause_d = HC_ILLEGAL;
          end
          OP_LOAD, OP_STORE: begin
            instret_d = instret_q;
            pc_d      = pc_q;   // advanced when the access is answered
            maddr_d   = ls_addr;
            mwe_d     = (opcode == OP_STORE);
            mbe_d     = ls_be;
            mwdata_d  = st_data;
            if (!ls_legal) cause_d = HC_ILLEGAL;
            else if (ls_misaligned) cause_d = HC_MISALIGNED;
            else state_d = S_MREQ;
          end
          OP_FENCE: begin
            // FENCE and FENCE.I: nothing to order (one hart, one request
            // at a time, and the example never writes code).
          end
          OP_SYSTEM: begin
            if (instr_q == 32'h0000_0073) cause_d = HC_ECALL;
            else if (instr_q == 32'h0010_0073) cause_d = HC_EBREAK;
            else cause_d = HC_ILLEGAL;
          end
          default: cause_d = HC_ILLEGAL;
        endcase
        // A stop keeps the pc of the instruction that caused it.
        if (cause_d == HC_NONE && pc_d[1:0] != 2'b00) cause_d = HC_JUMP_ALIGN;
        if (cause_d != HC_NONE) begin
          rf_we     = 1'b0;
          pc_d      = pc_q;
          instret_d = instret_q;
          state_d   = S_HALT;
        end
      end
      S_MREQ: if (data_gnt_i) state_d = S_MWAIT;
      S_MWAIT: if (data_rvalid_i) begin
        if (data_err_i) begin
          cause_d = HC_DBUS_ERR;
          state_d = S_HALT;
        end else begin
          rf_we     = !mwe_q;
          rf_wdata  = ld_value;
          pc_d      = pc_plus4;
          instret_d = instret_q + 32'd1;
          state_d   = S_FREQ;
        end
      end
      default: ;  // S_HALT: stays
    endcase
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= S_IDLE;
      pc_q      <= BOOT_ADDR;
      instr_q   <= 32'h0000_0013;  // nop
      cause_q   <= HC_NONE;
      instret_q <= 32'd0;
      maddr_q   <= 32'd0;
      mwe_q     <= 1'b0;
      mbe_q     <= 4'b0000;
      mwdata_q  <= 32'd0;
    end else begin
      state_q   <= state_d;
      pc_q      <= pc_d;
      instr_q   <= instr_d;
      cause_q   <= cause_d;
      instret_q <= instret_d;
      maddr_q   <= maddr_d;
      mwe_q     <= mwe_d;
      mbe_q     <= mbe_d;
      mwdata_q  <= mwdata_d;
    end
  end

  // The register file has no reset (a memory, not flops with a reset).
  always @(posedge clk_i) begin
    if (rf_we && rd != 5'd0) rf_q[rd] <= rf_wdata;
  end

  // ------------------------------------------------------------ ports
  assign instr_req_o   = (state_q == S_FREQ);
  assign instr_addr_o  = pc_q;
  assign instr_we_o    = 1'b0;
  assign instr_be_o    = 4'b1111;
  assign instr_wdata_o = 32'd0;

  assign data_req_o    = (state_q == S_MREQ);
  assign data_addr_o   = maddr_q;
  assign data_we_o     = mwe_q;
  assign data_be_o     = mbe_q;
  assign data_wdata_o  = mwdata_q;

  assign halted_o      = (state_q == S_HALT);
  assign halt_cause_o  = cause_q;
  assign halt_pc_o     = pc_q;
  assign instret_o     = instret_q;

endmodule
`default_nettype wire
