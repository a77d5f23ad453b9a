/*
 * coh_dut.h - the coherence lockstep's view of its device (tb/coh/README.md):
 * tb_coh_system (N coherent stc caches on the atomic bus, a memory whose
 * handshake this layer drives with the latencies the harness gives),
 * one cycle at a time. Implemented by coh_dut_verilator.cpp over
 * Verilator's model; the harness (coh_lockstep.c) is C.
 *
 * A cycle: set the inputs (coh_dut_set_request, coh_dut_set_counter),
 * coh_dut_settle, read the outputs of the cycle, coh_dut_tick (the rising
 * edge that ends it).
 */
#ifndef STC_COH_DUT_H
#define STC_COH_DUT_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct coh_dut coh_dut;

/* The device in reset (held low for a few cycles, then released); NULL if
 * it cannot be made. cores: the number it was built with (checked). */
coh_dut *coh_dut_create(unsigned cores, const char *trace_path);
void coh_dut_destroy(coh_dut *dut);

/* The memory's latency, >= 2 cycles (ARCHITECTURE.md 19.6): each wait for
 * it, a run of lines read or a write that is not posted, takes
 * latency(context)'s next value when it starts (in the cycle of its
 * mem_rd_o or mem_wr_o): a read's first beat comes that many cycles after
 * its request, a write ends that many after its last beat. Must be set
 * before the first memory access. */
typedef unsigned (*coh_dut_latency_fn)(void *context);
void coh_dut_set_memory_latency(coh_dut *dut, unsigned beats_per_line, coh_dut_latency_fn latency,
                                void *context);

/* Core's CPU request port for this cycle (word address, byte enables). */
void coh_dut_set_request(coh_dut *dut, unsigned core, bool valid, bool we, uint32_t word_addr,
                         unsigned byte_enables, uint32_t wdata);
/* Core's configuration port for this cycle (log2 of banks, ways and
 * sublines; way prediction). */
void coh_dut_set_config(coh_dut *dut, unsigned core, bool valid, unsigned banks_log,
                        unsigned ways_log, unsigned sub_log, bool way_predict);
/* Core's counter select (ARCHITECTURE.md 9 numbers). */
void coh_dut_set_counter(coh_dut *dut, unsigned core, unsigned select);
/* Evaluate the cycle's combinational outputs. */
void coh_dut_settle(coh_dut *dut);

bool coh_dut_ready(const coh_dut *dut, unsigned core);
/* Whether core answers this cycle, and its word. */
bool coh_dut_response(const coh_dut *dut, unsigned core, uint32_t *rdata);
bool coh_dut_config_ready(const coh_dut *dut, unsigned core);
/* Whether core's configuration change completes this cycle (*err: it was
 * refused). */
bool coh_dut_config_done(const coh_dut *dut, unsigned core, bool *err);
/* The bus's grant this cycle (one bit per core). */
unsigned coh_dut_grant(const coh_dut *dut);
/* The cores whose reference's ordering point is this cycle (one bit per
 * core): the address cycle of its burst or BusUpgr, where the bus snoops
 * its lines (ARCHITECTURE.md 19.6). */
unsigned coh_dut_order(const coh_dut *dut);
/* The cores whose data array a supply reads this cycle (one bit per core;
 * ARCHITECTURE.md 19.5). */
unsigned coh_dut_supply_read(const coh_dut *dut);
bool coh_dut_bus_error(const coh_dut *dut);
/* Whether a tenure is open this cycle. */
bool coh_dut_bus_busy(const coh_dut *dut);
uint64_t coh_dut_counter(const coh_dut *dut, unsigned core);

/* Whether a core's snoop port flags a snoop it cannot take (two slots
 * holding the line, or a state and transaction with no row). */
bool coh_dut_snoop_error(const coh_dut *dut);
/* The row whose slots coh_dut_slot reads (after coh_dut_settle). */
void coh_dut_set_debug_row(coh_dut *dut, unsigned row);
/* Core's snoop-port array, bank's slot of the debug row: the state code in
 * the low bits, the tag above (ARCHITECTURE.md 19.4). */
uint32_t coh_dut_slot(const coh_dut *dut, unsigned core, unsigned bank);
/* Core's controller's row state of the debug row: bank b's valid bit at
 * bit b, its dirty bit at bit banks + b, its excl bit (MESI, MOESI; else 0)
 * at bit 2 * banks + b. */
uint32_t coh_dut_row_state(const coh_dut *dut, unsigned core);

/* Core's maintenance port for this cycle: clean + invalidate every line
 * (the drain at a run's end; ARCHITECTURE.md 7.1). Ready and done as the
 * port's mnt_ready_o and mnt_done_o. */
void coh_dut_set_drain(coh_dut *dut, unsigned core, bool valid);
bool coh_dut_drain_ready(const coh_dut *dut, unsigned core);
bool coh_dut_drain_done(const coh_dut *dut, unsigned core);
/* Core's data SRAM of bank, row row: its line_bytes bytes into data,
 * straight from the arrays (tb/coh/coh.vlt makes them readable; nothing
 * is evaluated). -1 if the model has no such array or another width. */
int coh_dut_line_data(const coh_dut *dut, unsigned core, unsigned bank, unsigned row,
                      uint8_t *data, unsigned line_bytes);
/* The memory's word at word_addr, straight from its array; -1 if the
 * model does not make it readable. */
int coh_dut_memory_peek(const coh_dut *dut, uint32_t word_addr, uint32_t *value);
/* The memory's word at word address word_addr (after coh_dut_settle). */
uint32_t coh_dut_memory_word(coh_dut *dut, uint32_t word_addr);

/* The monitor tuners (ARCHITECTURE.md 17-18), when the device was built
 * with them (stcgen without --no-tuner; tb_coh_system with TB_COH_TUNER):
 * what stcgen wrote into stc_geometry_gen.h for them, so that the harness
 * builds the same monitor and decision unit. */
typedef struct {
    bool present;          /* 0: the caches have no tuner (the rest is 0) */
    unsigned sample_bits, tag_bits, counter_bits;
    uint64_t rotate_every;
    uint32_t window, margin, walk_min;
    unsigned steps;        /* a decision's steps (checked against the model's program) */
    bool way_prediction;
} coh_dut_tuner_build;
void coh_dut_tuner_build_of(coh_dut_tuner_build *build);

/* Core's decision unit this cycle (after coh_dut_settle): its handshake
 * and event inputs and every flop the C model has (stc_monitor_tuner_regs,
 * named as there). */
typedef struct {
    bool ev_access, cfg_ready, cfg_done, cfg_err;
    uint32_t enable, win, deciding, step, watched, operand, energy, lowest, lowest_code, current,
        pending, sent, target, decisions, changes;
} coh_dut_tuner_view;
void coh_dut_tuner_view_of(const coh_dut *dut, unsigned core, coh_dut_tuner_view *view);

/* The rising edge: the cycle ends. */
void coh_dut_tick(coh_dut *dut);

#ifdef __cplusplus
}
#endif

#endif
