/*
 * monitor_dut.h - the generated stc_monitor and stc_monitor_tuner under
 * Verilator (wired by tests/rtl/tb_monitor_top.v), as the C lockstep
 * harness (monitor_lockstep.c) sees them; tb_monitor.cpp implements it.
 */
#ifndef STC_MONITOR_DUT_H
#define STC_MONITOR_DUT_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct monitor_dut monitor_dut;

/* One cycle's inputs. */
typedef struct {
    bool valid;          /* an access completed (the monitor's event, the unit's step) */
    uint64_t line;       /* its physical line number */
    bool write;
    unsigned cur_code;   /* the configuration in use, packed */
    bool cfg_ready, cfg_done, cfg_err;
    bool reg_we;
    unsigned reg_addr;
    uint32_t reg_wdata;
} monitor_dut_in;

typedef struct {
    bool cfg_valid;
    unsigned cfg_code;
    bool busy;
    unsigned tuner_sel;  /* the count the unit reads */
    uint32_t row_writes; /* rows the monitor wrote back (its simulation counter) */
    uint16_t watched;    /* the monitor's count 0 port (watched_o), which the unit reads */
} monitor_dut_out;

/* Reset (rst_ni low for one clock, then high), no event. */
void monitor_dut_reset(monitor_dut *dut);
/* Apply one cycle's inputs and clock one rising edge. */
void monitor_dut_step(monitor_dut *dut, const monitor_dut_in *in);
/* Between clocks: a count of the monitor (through the peek port), the
 * outputs, a register of the unit. */
uint16_t monitor_dut_count(monitor_dut *dut, unsigned index);
void monitor_dut_outputs(monitor_dut *dut, monitor_dut_out *out);
uint32_t monitor_dut_register(monitor_dut *dut, unsigned addr);

/* The harness: 0 when the RTL equals the model in every cycle.
 * read_only: the RTL was built with READ_ONLY = 1. */
int monitor_lockstep_main(monitor_dut *dut, bool read_only, int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
