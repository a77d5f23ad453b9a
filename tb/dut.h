/*
 * dut.h - the generated cache top (stc_cache, built by Verilator) as seen
 * from the C lockstep harness. tb/dut_verilator.cpp implements it: the only
 * C++ in the harness, because Verilator's model is a C++ class.
 *
 * One clock cycle is: fill the inputs of `dut_pins`, call dut_settle (clock
 * low, inputs applied, combinational logic settled, outputs read back), look
 * at the outputs (handshakes of this cycle), then dut_edge (the rising edge
 * that ends the cycle; outputs read back again, e.g. the new pwr_en).
 */
#ifndef STC_TB_DUT_H
#define STC_TB_DUT_H

#include "monitor_tuner.h"
#include "tuner_hw.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { DUT_COUNTERS = 20 };
/* Counters from this number up are split in the RTL: their low 8 bits in
 * flops, the rest in the counter register file (ARCHITECTURE.md 15.1). */
enum { DUT_SPLIT_COUNTER_FIRST = 8 };
/* Counter numbers (cnt_sel_i, ARCHITECTURE.md 15.2) of those the harness
 * names: the four derived ones and what they derive from. */
enum {
    COUNTER_REQUESTS = 0,
    COUNTER_REQUEST_MISSES = 1,
    COUNTER_ACCESSES = 2,
    COUNTER_READS = 3,
    COUNTER_WRITES = 4,
    COUNTER_MISSES = 5,
    COUNTER_READ_MISSES = 6,
    COUNTER_WRITE_MISSES = 7,
};

typedef struct {
    /* inputs */
    uint32_t rst_n;
    uint32_t cpu_req_valid, cpu_req_we, cpu_req_be, cpu_req_wdata;
    uint64_t cpu_req_addr; /* word address */
    uint32_t cfg_valid, cfg_banks_log, cfg_ways_log, cfg_sub_log, cfg_wp;
    uint32_t mnt_valid, mnt_op, mnt_all; /* maintenance port (ARCHITECTURE.md 7.1) */
    uint64_t mnt_addr;                   /* word address */
    uint32_t cnt_sel, cnt_clear;
    uint32_t mem_req_ready, mem_wready, mem_bvalid, mem_rvalid, mem_rdata;
    uint32_t pwr_ack;
    uint32_t tun_we, tun_addr, tun_wdata; /* the tuner's register port (section 16) */
    /* outputs */
    uint32_t cpu_req_ready, cpu_rsp_valid, cpu_rsp_err, cpu_rsp_rdata;
    uint32_t cfg_ready, cfg_done, cfg_err;
    uint32_t mnt_ready, mnt_done;
    uint32_t cur_banks_log, cur_ways_log, cur_sub_log, cur_wp;
    uint64_t cnt_value;
    uint32_t mem_req_valid, mem_req_we, mem_req_lines, mem_wvalid, mem_wdata;
    uint64_t mem_req_line;
    uint32_t pwr_en;
    uint32_t tun_rdata, tun_busy;
} dut_pins;

typedef struct dut dut;

/* Build the model; wave_path, if not NULL, receives an FST waveform of
 * every cycle; tag_bits is the geometry's (the tag SRAM words must be that
 * wide). plain_eval: evaluate as a waveform run does (clock toggled,
 * Verilator's eval() at both edges) without writing one, instead of the
 * fast evaluation (tb/README.md, Speed), so that a build without waveform
 * support can show that the two agree. Returns NULL with a message
 * in err. */
dut *dut_open(const char *wave_path, bool plain_eval, unsigned tag_bits, char *err,
              size_t err_len);
void dut_close(dut *d);

void dut_settle(dut *d, dut_pins *pins);
void dut_edge(dut *d, dut_pins *pins);

/* Internal state (read through Verilator's public scopes). The counters'
 * flops; the four counters the RTL derives when read (requests,
 * request_misses, reads, read_misses: ARCHITECTURE.md 9) have none and are
 * filled in from the others by the rule the RTL's read port follows
 * (stc_counter_derived), which dut_counter_port checks. */
void dut_counters(dut *d, uint64_t out[DUT_COUNTERS]);
/* Counter `index` as the RTL's read port shows it (cnt_sel_i, cnt_value_o)
 * in the settled cycle; it evaluates the model, so call it between
 * requests. Indexes from DUT_COUNTERS up read 0. */
uint64_t dut_counter_port(dut *d, unsigned index);
/* Valid and dirty bits of one row, bit b = bank b, and the fill lengths
 * (log2 of the sublines each line was filled with, bank b at bits 2b+1..2b)
 * (from the row-state register file; dirty and fill reported for valid
 * slots only). */
void dut_row_state(dut *d, unsigned row, uint32_t *valid, uint32_t *dirty, uint32_t *fill);
/* Banks whose tag or data SRAM is accessed in the settled cycle. */
uint32_t dut_sram_access(dut *d);
/* The bank the controller touches (serves) in the settled cycle. */
unsigned dut_touch_bank(dut *d);
/* The controller's event strobes for the tuner in the settled cycle, bit 0
 * access, 1 miss, 2 first-probe hit, 3 busy cycle; -1 if the top has none
 * (before the tuner, ARCHITECTURE.md section 16). */
int dut_strobes(dut *d);
/* The tuner in the top (ARCHITECTURE.md section 16): whether the top has
 * one; its configuration-port inputs in the settled cycle (what stc_cache
 * gives u_tuner: the controller's ready, done and error while the tuner
 * owns the port, else 0); every flop of u_tuner under the C model's names
 * (ref/tuner_hw.h; coefficient registers too, or the constants when built
 * with constant coefficients). dut_tuner_flops returns -1 if a flop is
 * missing. */
int dut_has_tuner(dut *d);
void dut_tuner_cfg_inputs(dut *d, unsigned *ready, unsigned *done, unsigned *err);
int dut_tuner_flops(dut *d, stc_tuner_hw_regs *regs, size_t coef_count);
/* The monitor tuner in the top (sections 17-18; tb/monitor_side.h):
 * whether u_tuner is the decision unit; every flop of it under the C
 * model's names (ref/monitor_tuner.h; -1 if one is missing); the count
 * u_monitor returns at the unit's select in the settled cycle. */
int dut_has_monitor_tuner(dut *d);
int dut_monitor_tuner_flops(dut *d, stc_monitor_tuner_regs *regs);
unsigned dut_monitor_count(dut *d);
/* Overwrite bank b's tag and data SRAMs with garbage from seed: what a
 * power switch turning off does to the contents. */
void dut_scramble_bank(dut *d, unsigned bank, uint64_t seed);
/* The tag and line bank b's SRAMs hold in row `row` (line_bytes bytes into
 * data). Returns -1 if the arrays do not have the expected shape. */
int dut_slot(dut *d, unsigned bank, unsigned row, uint64_t *tag, uint8_t *data,
             unsigned line_bytes);
/* stc_cache_pair (LOCKSTEP_PAIR_SIDE): the other side is held idle (no
 * requests, switches acknowledging at once); what it did since the last
 * call, 0 if nothing: bit 0 cpu_req_ready_o low, 1 cpu_rsp_valid_o,
 * 2 cfg_done_o, 3 mem_req_valid_o, 4 tun_busy_o, 5 mnt_done_o. Always 0 for stc_cache. */
unsigned dut_other_side_moved(dut *d);
/* Flush the waveform (on a mismatch, before exiting). */
void dut_flush(dut *d);

#ifdef __cplusplus
}
#endif

#endif
