/*
 * rtl_side.h - the RTL's side of the lockstep: one clock cycle of the DUT
 * against the C models of its memory and power switches (tb/README.md,
 * "Memory and power switches").
 *
 * A cycle is rtl_cycle_settle (memory and switch outputs applied, the DUT
 * settled, its outputs in h->pins: the caller looks at the handshakes of
 * the cycle), then rtl_cycle_edge (the rising edge ending it). Every cycle
 * also checks the protocol (no SRAM access to a switched-off bank, no
 * mem_wvalid_o outside a write burst, burst lengths) and counts the tuner's
 * event strobes; a bank whose switch turns off has its SRAMs scrambled.
 *
 * The memory: fixed latency T_mem (--latency), or with --random-memory
 * random latencies, back-pressure and acknowledge delays drawn from the
 * harness's random stream. Every burst is appended to h->rtl_log.
 */
#ifndef STC_TB_RTL_SIDE_H
#define STC_TB_RTL_SIDE_H

#include <stdint.h>

typedef struct harness harness;

/* The first half of a cycle with the CPU and configuration inputs the
 * caller set in h->pins. */
void rtl_cycle_settle(harness *h);
/* The rising edge ending the cycle: the memory and switch models advance. */
void rtl_cycle_edge(harness *h);
/* After reset (released when h->cycle was `released`): idle cycles until
 * the controller is ready (it first writes its row-state register file,
 * ARCHITECTURE.md 15.1); a mismatch unless that took max(2, R/4) cycles
 * from the release. */
void wait_row_state_init(harness *h, uint64_t released);
/* `count` cycles with no CPU request and no configuration offered; any
 * response is a mismatch. */
void idle_cycles(harness *h, unsigned count);

#endif
