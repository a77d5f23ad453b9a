/*
 * emit_power.c - stc_power_ctrl, the per-bank sleep-transistor sequencer
 * (docs/ARCHITECTURE.md section 14.4 is its contract, cycle by cycle).
 *
 * The bank count and the synchroniser depth are baked in; the module has no
 * parameters.
 */
#include "emit.h"

#include <stdio.h>
#include <string.h>

/* "4'b1111" */
static void ones(char *buf, size_t len, unsigned bits)
{
    int used = snprintf(buf, len, "%u'b", bits);
    for (unsigned bit = 0; bit < bits && (size_t)used + 1 < len; bit++) {
        buf[used++] = '1';
    }
    buf[used] = '\0';
}

void stcgen_emit_power(stcgen_text *text, const stcgen_file *file, const stcgen_params *params)
{
    const unsigned banks = params->geometry.banks;
    const unsigned stages = params->pwr_sync_stages;
    const unsigned sbits = params->pwr_state_bits;
    char vec[32];
    snprintf(vec, sizeof vec, "[%u:0]", banks - 1);
    char all_ones[64 + 8];
    ones(all_ones, sizeof all_ones, banks);
    const int vw = (int)strlen(vec) > 5 ? (int)strlen(vec) : 5; /* port column */

    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    stcgen_text_blank(text);
    stcgen_text_line(text, STCGEN_TIMESCALE);
    stcgen_text_line(text, "`default_nettype none");
    stcgen_text_blank(text);
    stcgen_text_line(text,
                     "// stc_power_ctrl: the power switch and isolation of each of the %u banks.",
                     banks);
    static const char *const intro[] = {
        "//",
        "// on_req_i[b] is the state the cache controller wants for bank b. Before",
        "// it drops a request the controller has stopped allocating into the bank,",
        "// written back its dirty lines and invalidated it (ARCHITECTURE.md",
        "// section 7); after a bank reports ready its slots are invalid (valid bits",
        "// are always-on state). Per bank (section 14.4 gives every cycle):",
        "//   off: isolate (iso_o = 1, ready_o = 0) -> next cycle switch off",
        "//        (pwr_en_o = 0) -> wait for the acknowledge to fall -> OFF",
        "//   on:  switch on (pwr_en_o = 1) -> wait for the acknowledge -> release",
        "//        isolation (iso_o = 0) and report ready (ready_o = 1)",
        "// A sequence once started completes; a request that changed meanwhile",
        "// starts the opposite sequence afterwards. Wake-ups are staggered: one bank",
        "// at a time is between switch-on and acknowledge, lowest index first. The",
        "// acknowledges are asynchronous and pass a synchroniser. pwr_en_o, iso_o,",
        "// ready_o and busy_o come straight from flops. Reset (asynchronous, active",
        "// low) leaves every bank on, as in the reset configuration.",
        NULL,
    };
    stcgen_text_lines(text, intro);
    stcgen_text_line(text, "module stc_power_ctrl (");
    stcgen_text_in(text);
    stcgen_text_line(text, "input  wire %-*s clk_i,", vw, "");
    stcgen_text_line(text, "input  wire %-*s rst_ni,    // asynchronous reset, active low", vw, "");
    stcgen_text_line(text, "input  wire %-*s on_req_i,  // per bank: 1 = be on, 0 = be off", vw,
                     vec);
    stcgen_text_line(text, "input  wire %-*s ack_i,     // per bank: switch acknowledge (async)",
                     vw, vec);
    stcgen_text_line(text, "output wire %-*s pwr_en_o,  // per bank: switch enable", vw, vec);
    stcgen_text_line(text, "output wire %-*s iso_o,     // per bank: clamp the bank's outputs to 0",
                     vw, vec);
    stcgen_text_line(text, "output wire %-*s ready_o,   // per bank: on, isolation released", vw,
                     vec);
    stcgen_text_line(text, "output wire %-*s busy_o     // a bank is in or awaits a sequence", vw,
                     "");
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
    stcgen_text_blank(text);
    stcgen_text_in(text);

    stcgen_text_line(text, "// Sequencer state of one bank.");
    stcgen_text_line(text, "localparam [%u:0] ST_OFF  = %u'd0;  // switch off, isolated", sbits - 1,
                     sbits);
    stcgen_text_line(text,
                     "localparam [%u:0] ST_WAKE = %u'd1;  // switch on, isolated, awaiting ack",
                     sbits - 1, sbits);
    stcgen_text_line(text, "localparam [%u:0] ST_ON   = %u'd2;  // switch on, isolation released",
                     sbits - 1, sbits);
    stcgen_text_line(text, "localparam [%u:0] ST_ISO  = %u'd3;  // isolated, switch still on",
                     sbits - 1, sbits);
    stcgen_text_line(text,
                     "localparam [%u:0] ST_DOWN = %u'd4;  // switch off, isolated, "
                     "awaiting ack low",
                     sbits - 1, sbits);
    stcgen_text_blank(text);

    stcgen_text_line(text,
                     "// Acknowledge synchroniser, %u flops per bank; reset to 1 (all banks on).",
                     stages);
    for (unsigned stage = 1; stage <= stages; stage++) {
        stcgen_text_line(text, "reg %s ack_s%u_q;", vec, stage);
    }
    stcgen_text_line(text, "always @(posedge clk_i or negedge rst_ni) begin");
    stcgen_text_in(text);
    stcgen_text_line(text, "if (!rst_ni) begin");
    stcgen_text_in(text);
    for (unsigned stage = 1; stage <= stages; stage++) {
        stcgen_text_line(text, "ack_s%u_q <= %s;", stage, all_ones);
    }
    stcgen_text_out(text);
    stcgen_text_line(text, "end else begin");
    stcgen_text_in(text);
    for (unsigned stage = 1; stage <= stages; stage++) {
        if (stage == 1) {
            stcgen_text_line(text, "ack_s1_q <= ack_i;");
        } else {
            stcgen_text_line(text, "ack_s%u_q <= ack_s%u_q;", stage, stage - 1);
        }
    }
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_line(text, "wire %s ack_sync = ack_s%u_q;", vec, stages);
    stcgen_text_blank(text);

    stcgen_text_line(text,
                     "// Staggered wake-up: while no bank is waking, the lowest-numbered bank");
    stcgen_text_line(text, "// that is off and requested on may start.");
    stcgen_text_line(text, "wire %s waking;       // bank in ST_WAKE", vec);
    stcgen_text_line(text, "wire %s wake_want;    // bank in ST_OFF, requested on", vec);
    stcgen_text_line(text, "wire %s bank_busy_d;  // bank in or awaiting a sequence next cycle",
                     vec);
    stcgen_text_line(text,
                     "wire %s wake_grant = (|waking) ? %u'd0 : (wake_want & (~wake_want + %u'd1));",
                     vec, banks, banks);
    stcgen_text_blank(text);

    static const char *const bank_logic[] = {
        "genvar b;",
        "generate",
        "  for (b = 0; b < BANKS; b = b + 1) begin : g_bank",
        "    reg [SB:0] state_q;",
        "    reg [SB:0] state_d;",
        "    reg       pwr_en_q;",
        "    reg       pwr_en_d;",
        "    reg       iso_q;",
        "    reg       iso_d;",
        "    reg       ready_q;",
        "    reg       ready_d;",
        "",
        "    always @(*) begin",
        "      state_d  = state_q;",
        "      pwr_en_d = pwr_en_q;",
        "      iso_d    = iso_q;",
        "      ready_d  = ready_q;",
        "      case (state_q)",
        "        ST_OFF: begin",
        "          if (wake_grant[b]) begin",
        "            state_d  = ST_WAKE;",
        "            pwr_en_d = 1'b1;",
        "          end",
        "        end",
        "        ST_WAKE: begin",
        "          if (ack_sync[b]) begin",
        "            state_d = ST_ON;",
        "            iso_d   = 1'b0;",
        "            ready_d = 1'b1;",
        "          end",
        "        end",
        "        ST_ON: begin",
        "          if (!on_req_i[b]) begin",
        "            state_d = ST_ISO;",
        "            iso_d   = 1'b1;",
        "            ready_d = 1'b0;",
        "          end",
        "        end",
        "        ST_ISO: begin",
        "          state_d  = ST_DOWN;",
        "          pwr_en_d = 1'b0;",
        "        end",
        "        ST_DOWN: begin",
        "          if (!ack_sync[b]) begin",
        "            state_d = ST_OFF;",
        "          end",
        "        end",
        "        default: begin",
        "          // Unreachable; leave safely: isolate now, switch off next.",
        "          state_d = ST_ISO;",
        "          iso_d   = 1'b1;",
        "          ready_d = 1'b0;",
        "        end",
        "      endcase",
        "    end",
        "",
        "    always @(posedge clk_i or negedge rst_ni) begin",
        "      if (!rst_ni) begin",
        "        state_q  <= ST_ON;",
        "        pwr_en_q <= 1'b1;",
        "        iso_q    <= 1'b0;",
        "        ready_q  <= 1'b1;",
        "      end else begin",
        "        state_q  <= state_d;",
        "        pwr_en_q <= pwr_en_d;",
        "        iso_q    <= iso_d;",
        "        ready_q  <= ready_d;",
        "      end",
        "    end",
        "",
        "    assign waking[b]      = (state_q == ST_WAKE);",
        "    assign wake_want[b]   = (state_q == ST_OFF) && on_req_i[b];",
        "    assign bank_busy_d[b] = (state_d == ST_WAKE) || (state_d == ST_ISO)",
        "                            || (state_d == ST_DOWN)",
        "                            || ((state_d == ST_OFF) && on_req_i[b])",
        "                            || ((state_d == ST_ON) && !on_req_i[b]);",
        "    assign pwr_en_o[b]    = pwr_en_q;",
        "    assign iso_o[b]       = iso_q;",
        "    assign ready_o[b]     = ready_q;",
        "  end",
        "endgenerate",
        NULL,
    };
    for (const char *const *line = bank_logic; *line; line++) {
        /* The block is fixed text but for the bank count and state width. */
        const char *banks_at = strstr(*line, "BANKS");
        const char *sb_at = strstr(*line, "[SB:0]");
        if (banks_at) {
            stcgen_text_line(text, "%.*s%u%s", (int)(banks_at - *line), *line, banks,
                             banks_at + strlen("BANKS"));
        } else if (sb_at) {
            stcgen_text_line(text, "%.*s[%u:0]%s", (int)(sb_at - *line), *line, sbits - 1,
                             sb_at + strlen("[SB:0]"));
        } else {
            stcgen_text_line(text, "%s", *line);
        }
    }
    stcgen_text_blank(text);
    stcgen_text_line(text, "reg busy_q;");
    stcgen_text_line(text, "always @(posedge clk_i or negedge rst_ni) begin");
    stcgen_text_in(text);
    stcgen_text_line(text, "if (!rst_ni) begin");
    stcgen_text_line(text, "  busy_q <= 1'b0;");
    stcgen_text_line(text, "end else begin");
    stcgen_text_line(text, "  busy_q <= |bank_busy_d;");
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_line(text, "assign busy_o = busy_q;");
    stcgen_text_out(text);
    stcgen_text_blank(text);
    stcgen_text_line(text, "endmodule");
    stcgen_text_blank(text);
    stcgen_text_line(text, "`resetall");
}
