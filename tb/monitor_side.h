/*
 * monitor_side.h - the top's monitor tuner in lockstep (a top generated
 * with `stcgen --tuner monitor`; docs/ARCHITECTURE.md sections 17-18,
 * tb/README.md "Tuner runs").
 *
 * Two C models run beside the RTL's u_monitor and u_tuner from reset, in
 * every cycle of every run of such a top:
 *   - ref/monitor.c (with the hardware's clear walk) observes every access
 *     the top's ev_access strobe shows, with the address and store bit of
 *     the request the harness itself issued (not the RTL's: a wrong line
 *     or store bit in the top's wiring makes the counts, and so the
 *     energies, differ), at the start of the cycle after it, when
 *     stc_monitor's count port first shows it;
 *   - ref/monitor_tuner.c, the decision unit's model, steps with the same
 *     inputs as u_tuner (the strobe, the model monitor's count at the
 *     unit's select, the configuration in use as the top shows it, the
 *     configuration port as the top's multiplexer gives it, the register
 *     port). After every edge every flop of u_tuner must equal the model's;
 *     in every cycle busy, the register read port and, while deciding, the
 *     count the RTL's monitor returns.
 * Without --tune the harness disables decisions in the first cycle after
 * reset (CTRL = 0), so software owns the configuration; with --tune they
 * stay disabled through the directed tests and are enabled in the cycle
 * after software's next change is accepted (the unit's first offer may
 * then wait for that change), and every change the unit offers is made by
 * the model too (tuner_side_serve), so the cache stays in lockstep.
 */
#ifndef STC_TB_MONITOR_SIDE_H
#define STC_TB_MONITOR_SIDE_H

#include "monitor_twin.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct harness harness;

typedef struct {
    bool present;             /* the top has the monitor tuner */
    stc_monitor_twin twin;    /* the models of u_monitor and u_tuner */
    stc_monitor_tuner_in in;  /* its inputs in the settled cycle */
    /* The access of the previous cycle, for the model monitor now. */
    bool event_pending;
    uint64_t event_addr;
    bool event_write;
    /* report */
    uint64_t events, decisions, offers, count_reads;
} monitor_side;

/* Before reset: build both models from the generated header (exits 2 if
 * the header says monitor tuner and the top has none). */
void monitor_side_init(harness *h);
/* Free the model monitor. */
void monitor_side_free(harness *h);
/* In every settled cycle after reset: the unit's inputs, the comparisons
 * of the cycle. */
void monitor_side_settle(harness *h, int strobes);
/* After every rising edge after reset: step both models, compare the
 * unit's flops. */
void monitor_side_edge(harness *h);
/* Whether the unit offers a change now, and which (packed). */
bool monitor_side_offer(const harness *h, unsigned *code);
/* Whether this settled cycle's access is the last step of the unit's
 * decision (its change lands before the next request, so the top holds
 * that request: back_to_back_i, ARCHITECTURE.md 15.3, 18.7). */
bool monitor_side_last_step(const harness *h);
/* The report's line. */
void monitor_side_report(const harness *h);

#endif
