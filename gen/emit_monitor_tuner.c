/*
 * emit_monitor_tuner.c - stc_monitor_tuner, the monitor tuner's decision
 * unit (docs/ARCHITECTURE.md section 18; the model is ref/monitor_tuner.c,
 * whose every flop has the same name here, and the lockstep test
 * tests/rtl/monitor_lockstep.c).
 *
 * The decision is a program of steps built by the model's own builder
 * (stc_monitor_program_build, in params.c): this file writes it as a
 * case table on the step register (one table per READ_ONLY value) and
 * the small datapath every step shares: an operand register, one 16 x 16
 * multiplier, a 32-bit saturating accumulator, the lowest energy and its
 * configuration, the current configuration's energy, and the move.
 */
#include "emit.h"

#include <stdio.h>

/* Widths every part agrees on. */
typedef struct {
    unsigned sel;    /* the monitor's count select */
    unsigned step;   /* the step register */
    unsigned win;    /* the window counter (0 .. window - 1) */
    unsigned count;  /* the monitor's counts, so every operand */
} widths;

/* The step's controls as ctl_q holds them: not a field of the model's
 * registers but a function of step_q while deciding (ARCHITECTURE.md
 * 18.3): operation 3, count select, mac, first, mantissa, shift 4, close,
 * code 9, last. */
static unsigned ctl_bits_of(const widths *w)
{
    return 3 + w->sel + 1 + 1 + STC_FIXED_MONITOR_MANTISSA_BITS + 4 + 1 + 9 + 1;
}

static widths widths_of(const stcgen_params *params)
{
    widths w = {params->monitor_sel_bits, params->monitor_step_bits, params->monitor_win_bits,
                params->monitor_count_bits};
    return w;
}

static void emit_ports(stcgen_text *text, const widths *w)
{
    stcgen_text_raw(text, "module stc_monitor_tuner #(\n");
    stcgen_text_raw(text, "  parameter integer READ_ONLY = 0  // 1: an I-cache's (no writeback "
                          "steps)\n");
    stcgen_text_raw(text, ") (\n");
    stcgen_text_raw(text, "  input  wire        clk_i,\n");
    stcgen_text_raw(text, "  input  wire        rst_ni,          // asynchronous reset, active "
                          "low\n");
    stcgen_text_raw(text, "  input  wire        ev_access_i,     // the cache completed an access "
                          "(one step)\n");
    stcgen_text_raw(text, "  output wire [%u:0]  cnt_sel_o,       // the monitor count this step "
                          "reads\n",
                    w->sel - 1);
    stcgen_text_raw(text, "  input  wire [15:0] cnt_i,           // its value\n");
    stcgen_text_raw(text, "  input  wire [15:0] watched_i,       // the monitor's count 0 in the "
                          "same clock\n");
    stcgen_text_raw(text, "  input  wire [2:0]  cur_banks_log_i, // the configuration in use\n");
    stcgen_text_raw(text, "  input  wire [2:0]  cur_ways_log_i,\n");
    stcgen_text_raw(text, "  input  wire [1:0]  cur_sub_log_i,\n");
    stcgen_text_raw(text, "  input  wire        cur_wp_i,\n");
    stcgen_text_raw(text, "  output wire        cfg_valid_o,     // the controller's "
                          "configuration port\n");
    stcgen_text_raw(text, "  input  wire        cfg_ready_i,\n");
    stcgen_text_raw(text, "  output wire [2:0]  cfg_banks_log_o,\n");
    stcgen_text_raw(text, "  output wire [2:0]  cfg_ways_log_o,\n");
    stcgen_text_raw(text, "  output wire [1:0]  cfg_sub_log_o,\n");
    stcgen_text_raw(text, "  output wire        cfg_wp_o,\n");
    stcgen_text_raw(text, "  input  wire        cfg_done_i,\n");
    stcgen_text_raw(text, "  input  wire        cfg_err_i,\n");
    stcgen_text_raw(text, "  output wire        busy_o,          // a change offered or in "
                          "progress\n");
    stcgen_text_raw(text, "  output wire        last_step_o,     // deciding, at the last step: "
                          "the next access decides\n");
    stcgen_text_raw(text, "  input  wire        reg_we_i,        // register block (18.3)\n");
    stcgen_text_raw(text, "  input  wire [%u:0]  reg_addr_i,\n", STC_MREG_ADDR_BITS - 1);
    stcgen_text_raw(text, "  input  wire [31:0] reg_wdata_i,\n");
    stcgen_text_raw(text, "  output reg  [31:0] reg_rdata_o\n");
    stcgen_text_raw(text, ");\n");
}

static const char *const operand_names[] = {"OP_KEEP", "OP_LOAD",    "OP_SUB",  "OP_MISSED",
                                            "OP_HIT",  "OP_WATCHED", "OP_UNHIT"};

/* One program as case items. */
static void emit_program(stcgen_text *text, const stcgen_params *params, const widths *w,
                         int read_only)
{
    const stc_monitor_program *program = &params->monitor_program[read_only];
    stcgen_text_raw(text, "      case (step_sel)\n");
    for (size_t index = 0; index < program->step_count; index++) {
        const stc_monitor_step *step = &program->steps[index];
        bool last = index + 1 == program->step_count;
        stcgen_text_raw(text, "        %u'd%zu: begin", w->step, index);
        if (last) {
            stcgen_text_raw(text, " nx_last = 1'b1;");
        }
        if (step->operand != STC_OPERAND_KEEP) {
            stcgen_text_raw(text, " nx_op = %s;", operand_names[step->operand]);
            if (step->operand != STC_OPERAND_WATCHED) {
                stcgen_text_raw(text, " nx_cnt = %u'd%u;", w->sel, step->count);
            }
        }
        if (step->mac) {
            unsigned mantissa, shift;
            stc_fixed_monitor_split(program->coefficients[step->coefficient], &mantissa, &shift);
            stcgen_text_raw(text, " nx_mac = 1'b1;%s nx_mant = %u'd%u;",
                            step->mac_first ? " nx_first = 1'b1;" : "",
                            STC_FIXED_MONITOR_MANTISSA_BITS, mantissa);
            if (shift) {
                stcgen_text_raw(text, " nx_shift = 4'd%u;", shift);
            }
        }
        if (step->close) {
            stcgen_text_raw(text, " nx_close = 1'b1; nx_code = 9'h%03x;", step->config_code);
        }
        stcgen_text_raw(text, " end");
        if (step->mac) {
            stcgen_text_raw(text, "  // %s", program->coefficient_names[step->coefficient]);
        }
        stcgen_text_raw(text, "\n");
    }
    stcgen_text_raw(text, "        default: ;\n");
    stcgen_text_raw(text, "      endcase\n");
}

static void emit_table(stcgen_text *text, const stcgen_params *params, const widths *w)
{
    stcgen_text_raw(text, "\n  // ---- The program: one step per access while deciding "
                          "(ref/monitor_tuner.c builds it),\n");
    stcgen_text_raw(text, "  // decoded for step_sel, the step the next access runs: the step's "
                          "controls\n");
    stcgen_text_raw(text, "  // are flops (ctl_q), off the multiplier's and the count port's "
                          "paths (18.3)\n");
    stcgen_text_raw(text, "  localparam [2:0] OP_KEEP = 3'd0, OP_LOAD = 3'd1, OP_SUB = 3'd2, "
                          "OP_MISSED = 3'd3,\n");
    stcgen_text_raw(text, "                   OP_HIT = 3'd4, OP_WATCHED = 3'd5, OP_UNHIT = 3'd6;\n");
    stcgen_text_raw(text, "  // operand: keep, load, less the count (stopping at 0), watched - hits, "
                          "hits,\n");
    stcgen_text_raw(text, "  // watched, count 0 now (watched_i) less the count (a misses count)\n");
    stcgen_text_raw(text, "  reg  [2:0]  nx_op;\n");
    stcgen_text_raw(text, "  reg  [%u:0]  nx_cnt;    // the count it reads\n", w->sel - 1);
    stcgen_text_raw(text, "  reg         nx_mac;    // energy += operand x (st_mant << st_shift)\n");
    stcgen_text_raw(text, "  reg         nx_first;  // ... from 0: a configuration's first "
                          "product\n");
    stcgen_text_raw(text, "  reg  [%u:0]  nx_mant;   // the coefficient: a mantissa and a shift "
                          "(FIXED_POINT.md 9)\n",
                    STC_FIXED_MONITOR_MANTISSA_BITS - 1);
    stcgen_text_raw(text, "  reg  [3:0]  nx_shift;\n");
    stcgen_text_raw(text, "  reg         nx_close;  // the energy before this step is st_code's\n");
    stcgen_text_raw(text, "  reg  [8:0]  nx_code;   // [2:0] log2 k [5:3] log2 a [7:6] log2 L/P "
                          "[8] wp\n");
    stcgen_text_raw(text, "  reg         nx_last;   // the decision\n");
    stcgen_text_raw(text, "  always @* begin\n");
    stcgen_text_raw(text, "    nx_op = OP_KEEP; nx_cnt = %u'd0; nx_mac = 1'b0; nx_first = 1'b0; "
                          "nx_mant = %u'd0;\n",
                    w->sel, STC_FIXED_MONITOR_MANTISSA_BITS);
    stcgen_text_raw(text, "    nx_shift = 4'd0; nx_close = 1'b0; nx_code = 9'h000; nx_last = 1'b0;\n");
    stcgen_text_raw(text, "    if (READ_ONLY != 0) begin  // %zu steps\n",
                    params->monitor_program[1].step_count);
    emit_program(text, params, w, 1);
    stcgen_text_raw(text, "    end else begin  // %zu steps\n",
                    params->monitor_program[0].step_count);
    emit_program(text, params, w, 0);
    stcgen_text_raw(text, "    end\n");
    stcgen_text_raw(text, "  end\n");
}

/* Bit s set: some multiply-accumulate step of either program shifts its
 * coefficient's mantissa left by s (FIXED_POINT.md 9). */
static unsigned used_shifts(const stcgen_params *params)
{
    unsigned shifts = 0;
    for (unsigned read_only = 0; read_only < 2; read_only++) {
        const stc_monitor_program *program = &params->monitor_program[read_only];
        for (size_t index = 0; index < program->step_count; index++) {
            const stc_monitor_step *step = &program->steps[index];
            if (step->mac) {
                unsigned mantissa, shift;
                stc_fixed_monitor_split(program->coefficients[step->coefficient], &mantissa,
                                        &shift);
                shifts |= 1u << shift;
            }
        }
    }
    return shifts;
}

static void emit_datapath(stcgen_text *text, const stcgen_params *params, const widths *w)
{
    unsigned cb = w->count;
    stcgen_text_raw(text, "\n  // ---- Flops (the model's names)\n");
    stcgen_text_raw(text, "  reg         enable_q, enable_d;\n");
    stcgen_text_raw(text, "  reg  [%u:0] win_q, win_d;            // accesses in this window\n",
                    w->win - 1);
    stcgen_text_raw(text, "  reg         deciding_q, deciding_d;\n");
    stcgen_text_raw(text, "  reg  [%u:0]  step_q, step_d;\n", w->step - 1);
    stcgen_text_raw(text, "  reg  [%u:0] watched_q, watched_d;    // count 0 when the decision "
                          "started\n", cb - 1);
    stcgen_text_raw(text, "  reg  [%u:0] operand_q, operand_d;\n", cb - 1);
    stcgen_text_raw(text, "  reg  [31:0] energy_q, energy_d;\n");
    stcgen_text_raw(text, "  reg  [31:0] lowest_q, lowest_d;\n");
    stcgen_text_raw(text, "  reg  [8:0]  lowest_code_q, lowest_code_d;\n");
    stcgen_text_raw(text, "  reg  [31:0] current_q, current_d;\n");
    stcgen_text_raw(text, "  reg         pending_q, pending_d;    // a change offered\n");
    stcgen_text_raw(text, "  reg         sent_q, sent_d;          // ... accepted, not yet done\n");
    stcgen_text_raw(text, "  reg  [8:0]  target_q, target_d;\n");
    stcgen_text_raw(text, "  reg  [7:0]  decisions_q, decisions_d;\n");
    stcgen_text_raw(text, "  reg  [7:0]  changes_q, changes_d;\n");
    unsigned ctl_bits = ctl_bits_of(w);
    stcgen_text_raw(text, "  reg  [%u:0] ctl_q, ctl_d;            // the step's decoded controls "
                          "(while deciding)\n",
                    ctl_bits - 1);
    stcgen_text_raw(text, "\n  // ---- The step's controls\n");
    stcgen_text_raw(text, "  wire [%u:0]  step_sel = deciding_q ? step_q + %u'd1 : %u'd0;  // the "
                          "next access's step\n",
                    w->step - 1, w->step, w->step);
    stcgen_text_raw(text, "  wire [%u:0] ctl_next = {nx_last, nx_code, nx_close, nx_shift, nx_mant, "
                          "nx_first, nx_mac,\n",
                    ctl_bits - 1);
    stcgen_text_raw(text, "                          nx_cnt, nx_op};\n");
    stcgen_text_raw(text, "  wire [2:0]  st_op;\n");
    stcgen_text_raw(text, "  wire [%u:0]  st_cnt;\n", w->sel - 1);
    stcgen_text_raw(text, "  wire        st_mac, st_first, st_close, st_last;\n");
    stcgen_text_raw(text, "  wire [%u:0]  st_mant;\n", STC_FIXED_MONITOR_MANTISSA_BITS - 1);
    stcgen_text_raw(text, "  wire [3:0]  st_shift;\n");
    stcgen_text_raw(text, "  wire [8:0]  st_code;\n");
    stcgen_text_raw(text, "  assign {st_last, st_code, st_close, st_shift, st_mant, st_first, "
                          "st_mac, st_cnt, st_op} = ctl_q;\n");
    stcgen_text_raw(text, "\n  // ---- Datapath\n");
    if (cb < 16) {
        /* Every operand is a count or a difference of counts, and the
         * monitor halves its counts before any reaches 2^cb. */
        stcgen_text_raw(text, "  // the monitor's counts are %u bits (halved before 2^%u): so is every "
                              "operand\n", cb, cb);
        stcgen_text_raw(text, "  wire [%u:0] cnt         = cnt_i[%u:0];\n", cb - 1, cb - 1);
        stcgen_text_raw(text, "  wire [%u:0] watched_now = watched_i[%u:0];\n", cb - 1, cb - 1);
        stcgen_text_raw(text, "  wire        unused_cnt_hi = ^{cnt_i[15:%u], watched_i[15:%u]};\n",
                        cb, cb);
    } else {
        stcgen_text_raw(text, "  wire [15:0] cnt         = cnt_i;\n");
        stcgen_text_raw(text, "  wire [15:0] watched_now = watched_i;\n");
    }
    stcgen_text_raw(text, "  // one comparator and subtractor: base - min(cnt, base)\n");
    stcgen_text_raw(text, "  wire [%u:0] base      = (st_op == OP_SUB)   ? operand_q :\n", cb - 1);
    stcgen_text_raw(text, "                          (st_op == OP_UNHIT) ? watched_now : watched_q;\n");
    stcgen_text_raw(text, "  wire [%u:0] taken     = (cnt < base) ? cnt : base;\n", cb - 1);
    stcgen_text_raw(text, "  wire [%u:0] left      = base - taken;\n", cb - 1);
    /* C + 8 + the largest shift (16 - 8) = C + 16 <= 32 bits, as the
     * C x 16 product was. The shift is a case over the shifts the two
     * programs use (the default geometry: 5 and 6), not a barrel shifter:
     * it sits between the multiplier and the accumulator, on the unit's
     * longest path. */
    unsigned mant = STC_FIXED_MONITOR_MANTISSA_BITS;
    unsigned shifts = used_shifts(params);
    stcgen_text_raw(text, "  wire [%u:0] scaled    = operand_q * st_mant;   // C x %u bits\n",
                    cb + mant - 1, mant);
    stcgen_text_raw(text, "  reg  [31:0] product;\n");
    stcgen_text_raw(text, "  always @* begin\n");
    stcgen_text_raw(text, "    case (st_shift)  // the shifts the programs use\n");
    for (unsigned shift = 1; shift <= 16 - mant; shift++) {
        if (shifts & (1u << shift)) {
            stcgen_text_raw(text, "      4'd%u: product = {%u'd0, scaled, %u'd0};\n", shift,
                            32 - cb - mant - shift, shift);
        }
    }
    stcgen_text_raw(text, "      default: product = {%u'd0, scaled};\n", 32 - cb - mant);
    stcgen_text_raw(text, "    endcase\n");
    stcgen_text_raw(text, "  end\n");
    /* No saturation: a configuration's energy is at most (2^C - 1) x 2^16
     * units (FIXED_POINT.md 9's unit rule: its coefficients sum to at most
     * 2^16, every operand is below 2^C <= 2^16), below all ones, so the
     * model's saturating sum never saturates here (test_fixed_monitor). */
    stcgen_text_raw(text, "  // a configuration's energy stays below 2^%u (FIXED_POINT.md 9): "
                          "no carry out\n",
                    cb + 16 > 32 ? 32 : cb + 16);
    stcgen_text_raw(text, "  wire [31:0] mac_value = (st_first ? 32'd0 : energy_q) + product;\n");
    stcgen_text_raw(text, "  wire [8:0]  cur_code  = {cur_wp_i, cur_sub_log_i, cur_ways_log_i, "
                          "cur_banks_log_i};\n");
    if (params->monitor_margin) {
        stcgen_text_raw(text, "  // move only below the current energy less 1/2^%u of it\n",
                        params->monitor_margin);
        stcgen_text_raw(text, "  wire [31:0] bar       = current_q - {%u'd0, current_q[31:%u]};\n",
                        params->monitor_margin, params->monitor_margin);
    } else {
        stcgen_text_raw(text, "  wire [31:0] bar       = current_q;  // plainly lower\n");
    }
    if (params->monitor_walk_min) {
        stcgen_text_raw(text, "  // a change that walks (fewer banks, or more bank groups: "
                              "ARCHITECTURE.md 7) only\n");
        stcgen_text_raw(text, "  // from a decision on at least %u watched accesses\n",
                        params->monitor_walk_min);
        stcgen_text_raw(text, "  wire [2:0]  low_groups_log = lowest_code_q[2:0] - "
                              "lowest_code_q[5:3];\n");
        stcgen_text_raw(text, "  wire [2:0]  cur_groups_log = cur_banks_log_i - cur_ways_log_i;\n");
        stcgen_text_raw(text, "  wire        walks      = (lowest_code_q[2:0] < cur_banks_log_i) ||\n");
        stcgen_text_raw(text, "                           (low_groups_log > cur_groups_log);\n");
        stcgen_text_raw(text, "  wire        hasty      = walks && (watched_q < %u'd%u);\n", cb,
                        params->monitor_walk_min);
    } else {
        stcgen_text_raw(text, "  wire        hasty      = 1'b0;  // any change may be offered\n");
    }
    stcgen_text_raw(text, "  wire        window_end = (win_q == %u'd%u);\n", w->win,
                    params->monitor_window - 1);
    stcgen_text_raw(text, "  wire        answered   = cfg_done_i || cfg_err_i;\n");
    stcgen_text_raw(text, "  wire        unused_wdata = ^reg_wdata_i[31:1];  // CTRL has one bit\n");
    stcgen_text_raw(text, "\n  always @* begin\n");
    static const char *const hold[] = {"enable",  "deciding", "step",        "watched",
                                       "operand", "energy",   "lowest",      "lowest_code",
                                       "current", "pending",  "sent",        "target",
                                       "decisions", "changes", "ctl"};
    for (size_t index = 0; index < sizeof hold / sizeof hold[0]; index++) {
        stcgen_text_raw(text, "    %s_d = %s_q;\n", hold[index], hold[index]);
    }
    stcgen_text_raw(text, "    win_d = win_q;\n");
    stcgen_text_raw(text, "    if (reg_we_i && reg_addr_i == %u'd%u) enable_d = reg_wdata_i[0];\n",
                    STC_MREG_ADDR_BITS, STC_MREG_CTRL);
    stcgen_text_raw(text, "    if (pending_q && cfg_ready_i) begin\n");
    stcgen_text_raw(text, "      pending_d = 1'b0;\n");
    stcgen_text_raw(text, "      sent_d    = !answered;\n");
    stcgen_text_raw(text, "    end else if (sent_q && answered) begin\n");
    stcgen_text_raw(text, "      sent_d = 1'b0;\n");
    stcgen_text_raw(text, "    end\n");
    stcgen_text_raw(text, "    if (ev_access_i) begin\n");
    stcgen_text_raw(text, "      win_d = window_end ? %u'd0 : win_q + %u'd1;\n", w->win, w->win);
    stcgen_text_raw(text, "      if (deciding_q && st_last) begin\n");
    stcgen_text_raw(text, "        deciding_d  = 1'b0;\n");
    stcgen_text_raw(text, "        decisions_d = decisions_q + 8'd1;\n");
    stcgen_text_raw(text, "        // cnt is count 0 again: below watched_q, the monitor halved its\n");
    stcgen_text_raw(text, "        // counts during the decision (mixed energies): offer nothing; nor a\n");
    stcgen_text_raw(text, "        // change that walks on too few watched accesses (hasty)\n");
    stcgen_text_raw(text, "        if (lowest_q < bar && cnt >= watched_q && !hasty) begin\n");
    stcgen_text_raw(text, "          pending_d = 1'b1;\n");
    stcgen_text_raw(text, "          target_d  = lowest_code_q;\n");
    stcgen_text_raw(text, "          changes_d = changes_q + 8'd1;\n");
    stcgen_text_raw(text, "        end\n");
    stcgen_text_raw(text, "      end else if (deciding_q) begin\n");
    stcgen_text_raw(text, "        case (st_op)\n");
    stcgen_text_raw(text, "          OP_LOAD:    operand_d = cnt;\n");
    stcgen_text_raw(text, "          OP_SUB:     operand_d = left;\n");
    stcgen_text_raw(text, "          OP_MISSED:  operand_d = left;\n");
    stcgen_text_raw(text, "          OP_HIT:     operand_d = taken;\n");
    stcgen_text_raw(text, "          OP_UNHIT:   operand_d = left;\n");
    stcgen_text_raw(text, "          OP_WATCHED: operand_d = watched_q;\n");
    stcgen_text_raw(text, "          default:    ;\n");
    stcgen_text_raw(text, "        endcase\n");
    stcgen_text_raw(text, "        if (st_mac) energy_d = mac_value;\n");
    stcgen_text_raw(text, "        if (st_close && energy_q < lowest_q) begin\n");
    stcgen_text_raw(text, "          lowest_d      = energy_q;\n");
    stcgen_text_raw(text, "          lowest_code_d = st_code;\n");
    stcgen_text_raw(text, "        end\n");
    stcgen_text_raw(text, "        if (st_close && st_code == cur_code) current_d = energy_q;\n");
    stcgen_text_raw(text, "        step_d = step_q + %u'd1;\n", w->step);
    stcgen_text_raw(text, "        ctl_d  = ctl_next;\n");
    stcgen_text_raw(text, "      end else if (window_end && enable_q && !pending_q && !sent_q) "
                          "begin\n");
    stcgen_text_raw(text, "        // a window with nothing watched (the clear walk's start) "
                          "decides nothing\n");
    stcgen_text_raw(text, "        watched_d  = cnt;\n");
    stcgen_text_raw(text, "        deciding_d = (cnt != %u'd0);\n", cb);
    stcgen_text_raw(text, "        step_d     = %u'd0;\n", w->step);
    stcgen_text_raw(text, "        ctl_d      = ctl_next;\n");
    stcgen_text_raw(text, "        lowest_d   = 32'hffffffff;\n");
    stcgen_text_raw(text, "        current_d  = 32'hffffffff;\n");
    stcgen_text_raw(text, "      end\n");
    stcgen_text_raw(text, "    end\n");
    stcgen_text_raw(text, "  end\n");
}

static void emit_outputs_and_flops(stcgen_text *text, const widths *w)
{
    unsigned cb = w->count;
    stcgen_text_raw(text, "\n  assign cnt_sel_o       = deciding_q ? st_cnt : %u'd0;\n", w->sel);
    stcgen_text_raw(text, "  assign cfg_valid_o     = pending_q;\n");
    stcgen_text_raw(text, "  assign cfg_banks_log_o = target_q[2:0];\n");
    stcgen_text_raw(text, "  assign cfg_ways_log_o  = target_q[5:3];\n");
    stcgen_text_raw(text, "  assign cfg_sub_log_o   = target_q[7:6];\n");
    stcgen_text_raw(text, "  assign cfg_wp_o        = target_q[8];\n");
    stcgen_text_raw(text, "  assign busy_o          = pending_q || sent_q;\n");
    stcgen_text_raw(text, "  assign last_step_o     = deciding_q && st_last;\n");
    stcgen_text_raw(text, "\n  always @* begin\n");
    stcgen_text_raw(text, "    case (reg_addr_i)\n");
    stcgen_text_raw(text, "      %u'd%u: reg_rdata_o = {31'd0, enable_q};\n", STC_MREG_ADDR_BITS,
                    STC_MREG_CTRL);
    stcgen_text_raw(text, "      %u'd%u: reg_rdata_o = {8'd0, changes_q, decisions_q, 6'd0, "
                          "deciding_q, busy_o};\n",
                    STC_MREG_ADDR_BITS, STC_MREG_STATUS);
    stcgen_text_raw(text, "      %u'd%u: reg_rdata_o = {23'd0, lowest_code_q};\n",
                    STC_MREG_ADDR_BITS, STC_MREG_CHOICE);
    stcgen_text_raw(text, "      %u'd%u: reg_rdata_o = lowest_q;\n", STC_MREG_ADDR_BITS,
                    STC_MREG_LOWEST);
    stcgen_text_raw(text, "      %u'd%u: reg_rdata_o = current_q;\n", STC_MREG_ADDR_BITS,
                    STC_MREG_CURRENT);
    stcgen_text_raw(text, "      default: reg_rdata_o = 32'd0;\n");
    stcgen_text_raw(text, "    endcase\n");
    stcgen_text_raw(text, "  end\n");
    stcgen_text_raw(text, "\n  always @(posedge clk_i or negedge rst_ni) begin\n");
    stcgen_text_raw(text, "    if (!rst_ni) begin\n");
    stcgen_text_raw(text, "      enable_q      <= 1'b1;\n");
    stcgen_text_raw(text, "      win_q         <= %u'd0;\n", w->win);
    stcgen_text_raw(text, "      deciding_q    <= 1'b0;\n");
    stcgen_text_raw(text, "      step_q        <= %u'd0;\n", w->step);
    stcgen_text_raw(text, "      watched_q     <= %u'd0;\n", cb);
    stcgen_text_raw(text, "      operand_q     <= %u'd0;\n", cb);
    stcgen_text_raw(text, "      energy_q      <= 32'd0;\n");
    stcgen_text_raw(text, "      lowest_q      <= 32'hffffffff;\n");
    stcgen_text_raw(text, "      lowest_code_q <= 9'h000;\n");
    stcgen_text_raw(text, "      current_q     <= 32'hffffffff;\n");
    stcgen_text_raw(text, "      pending_q     <= 1'b0;\n");
    stcgen_text_raw(text, "      sent_q        <= 1'b0;\n");
    stcgen_text_raw(text, "      target_q      <= 9'h000;\n");
    stcgen_text_raw(text, "      decisions_q   <= 8'd0;\n");
    stcgen_text_raw(text, "      changes_q     <= 8'd0;\n");
    stcgen_text_raw(text, "      ctl_q         <= %u'd0;\n", ctl_bits_of(w));
    stcgen_text_raw(text, "    end else begin\n");
    static const char *const flops[] = {"enable",  "win",      "deciding",  "step",
                                        "watched", "operand",  "energy",    "lowest",
                                        "lowest_code", "current", "pending", "sent",
                                        "target",  "decisions", "changes", "ctl"};
    for (size_t index = 0; index < sizeof flops / sizeof flops[0]; index++) {
        char name[24];
        snprintf(name, sizeof name, "%s_q", flops[index]);
        stcgen_text_raw(text, "      %-13s <= %s_d;\n", name, flops[index]);
    }
    stcgen_text_raw(text, "    end\n");
    stcgen_text_raw(text, "  end\n");
}

void stcgen_emit_monitor_tuner(stcgen_text *text, const stcgen_file *file,
                               const stcgen_params *params)
{
    widths w = widths_of(params);
    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    stcgen_text_blank(text);
    stcgen_text_raw(text, STCGEN_TIMESCALE "\n`default_nettype none\n\n");
    stcgen_text_raw(text, "// stc_monitor_tuner: every %u accesses, the fixed-point energy of "
                          "all %zu configurations\n",
                    params->monitor_window, params->monitor_program[0].config_count);
    stcgen_text_raw(text, "// from stc_monitor's counts (FIXED_POINT.md 9), one step per access; "
                          "then a move to the\n");
    stcgen_text_raw(text, "// first lowest if it is below the current configuration's energy less "
                          "1/2^%u of it.\n",
                    params->monitor_margin);
    stcgen_text_raw(text, "// Coefficients: the default energy table, unit %g nJ.\n",
                    params->monitor_program[0].nj_per_unit);
    emit_ports(text, &w);
    emit_table(text, params, &w);
    emit_datapath(text, params, &w);
    emit_outputs_and_flops(text, &w);
    stcgen_text_raw(text, "\nendmodule\n\n`resetall\n");
}
