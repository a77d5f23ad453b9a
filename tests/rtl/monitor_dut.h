/*
 * monitor_dut.h - the generated stc_monitor under Verilator, as the C
 * lockstep harness (monitor_lockstep.c) sees it; tb_monitor.cpp
 * implements it.
 */
#ifndef STC_MONITOR_DUT_H
#define STC_MONITOR_DUT_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct monitor_dut monitor_dut;

/* Reset (rst_ni low for one clock, then high), no event. */
void monitor_dut_reset(monitor_dut *dut);
/* Apply one cycle's event (valid, physical line number, store) and clock
 * one rising edge. */
void monitor_dut_step(monitor_dut *dut, bool valid, uint64_t line, bool write);
/* cnt_o for cnt_sel_i = index (combinational, between clocks). */
uint16_t monitor_dut_count(monitor_dut *dut, unsigned index);
uint16_t monitor_dut_dropped(monitor_dut *dut);

/* The harness: 0 when the RTL's counts equal the model's in every cycle.
 * read_only: the RTL was built with READ_ONLY = 1. */
int monitor_lockstep_main(monitor_dut *dut, bool read_only, int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
