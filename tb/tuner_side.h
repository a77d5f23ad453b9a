/*
 * tuner_side.h - the hardware tuner of the top in lockstep (`--tune`,
 * tb/README.md "Tuner runs", docs/ARCHITECTURE.md section 16).
 *
 * Two references run beside the RTL's u_tuner:
 *   - its C twin ref/tuner_hw.c, stepped every clock with the same inputs
 *     (the cache's event strobes, the configuration port as the top's
 *     multiplexer gives it, the register port); after every edge every flop
 *     must equal the twin's, and in every cycle the register read port;
 *   - at search level, ref/search.c's heuristic fed with the energy of
 *     each window computed by stc_fixed_energy from the C cache model's own
 *     counters over that window: the tuner must measure the same candidates
 *     in the same order, compute exactly those energies and choose the same
 *     configuration.
 * Every configuration change the tuner makes is done by the model too (the
 * same reconfiguration, compared like a software one: cycles, walk
 * writebacks, rows, counters), so the cache stays in lockstep while the
 * tuner searches.
 */
#ifndef STC_TB_TUNER_SIDE_H
#define STC_TB_TUNER_SIDE_H

#include "counters.h"
#include "fixed.h"
#include "search.h"
#include "tuner_hw.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct harness harness;

enum { TUNE_CHOICES = 8 }; /* chosen configurations kept for the report */

typedef struct {
    bool on;                  /* --tune given: searches run */
    unsigned window;          /* WINDOW register */
    unsigned retune;          /* RETUNE register (0: one search only) */
    unsigned threshold;       /* THRESHOLD; phase trigger on if > 0 */
    stc_tuner_hw twin;        /* the C twin of u_tuner */
    stc_tuner_hw_in in;       /* its inputs in the settled cycle */
    stc_fixed_coefficients fixed;
    /* The model's accesses, misses, cycles and first-probe hits since the
     * start, never cleared (the counters are); their values before the
     * model did the current operation and when the current window began;
     * `ahead`: the model has done an operation the RTL has not finished. */
    stc_counters total, total_before_op, total_at_window;
    bool ahead;
    stc_fixed_counters window_counts; /* the model's, of the window being computed */
    uint32_t start_in_change; /* CTRL value to write in the cycle after software's next
                                 change is accepted (0: none), so the tuner starts while
                                 that change is in progress (16.5); operations.c */
    uint64_t started_in_change; /* report: searches started so */
    uint64_t coef_seed;       /* --tune-coefs: non-default coefficients (0: stcgen's) */
    unsigned contend;         /* --contend: every N-th offer finds software waiting (0: never) */
    uint64_t offers_served, contended; /* report: the tuner's changes made, and made so */
    /* report: monitored windows closed with the misses' distance from the
     * tuned window's equal to THRESHOLD (no trigger) and one above it
     * (trigger), and windows closed with the top bit of a 16-bit count set */
    uint64_t at_threshold, above_threshold, top_bit_windows;
    stc_search search;        /* the search-level reference of the search in progress */
    bool searching;
    /* report */
    uint64_t searches, completed, windows, candidates, compute_cycles;
    unsigned choices[TUNE_CHOICES];
    unsigned choice_count;
} tuner_side;

/* Before reset: the twin's build from the generated header, the
 * coefficients as stcgen computes them; the monitor tuner's models
 * (monitor_side_init), which run whether or not --tune is given. Checks
 * that the top has the tuner (exits 2 if --tune is asked of a top without
 * one, or with options a monitor tuner does not have). */
void tuner_side_init(harness *h);
/* In the first cycles after reset: a monitor tuner (monitor_side.h), whose
 * decisions are enabled at reset, is disabled (CTRL = 0) until
 * tuner_side_start. */
void tuner_side_after_reset(harness *h);
/* After reset and the directed tests (a monitor tuner: only CTRL = 1, in
 * the cycle after a software change is accepted, as below): write WINDOW, RETUNE, THRESHOLD
 * through the register port, then CTRL (start, phase trigger) in the cycle
 * after the port accepted a software change to a configuration other than
 * the tuner's first candidate (the tuner must wait for that change to
 * complete); compare every coefficient register's read-back with the
 * twin's. */
void tuner_side_start(harness *h);
/* In every settled cycle (rtl_side.c), with the cache's event strobes of
 * the cycle (dut_strobes): take the twin's inputs from the RTL and compare
 * the register read port and the twin's outputs. */
void tuner_side_settle(harness *h, int strobes);
/* The top's tun_busy_o and register read port (at the address on the
 * pins) against a model's (`model` names it in the message); both tuners. */
void tuner_side_compare_port(harness *h, const char *model, bool busy, uint32_t rdata);
/* After every rising edge: step the twin, compare every flop, follow the
 * search (window energies against the model, the trail against
 * ref/search.c, the choice). */
void tuner_side_edge(harness *h);
/* Called when an operation begins, before the model does anything: if the
 * tuner is asking for the configuration port, the model and the RTL make
 * its change first (the operation's CPU request, if any, offered in the
 * same cycles and kept waiting). */
void tuner_side_serve(harness *h);
/* Whether tuner_side_serve would make a change now (--tune: the tuner
 * offers one in this cycle). */
bool tuner_side_offers(harness *h);
/* The model has done the current operation (before the RTL), which took
 * its counters from `before` to `after`: keep the totals. The operation
 * sets h->tune.ahead = false once the RTL has done it too. */
void tuner_side_account(harness *h, const stc_counters *before, const stc_counters *after);
/* At the end: stop the triggers and keep the traffic going (loads from the
 * flush region) until a search in progress is over, so that the final
 * checkpoint can take the configuration port. */
void tuner_side_finish(harness *h);
/* The report's lines on the tuner. */
void tuner_side_report(harness *h);

#endif
