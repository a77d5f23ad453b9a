/*
 * coherent_tune.h - choosing every core's configuration of a coherent stc
 * system (coherent_stc.h) with coherence traffic in the cost: oracle
 * tuning over a whole multi-core trace (docs/COHERENCE.md 11.8; "oracle"
 * as in docs/TUNING.md 2: every candidate judged on the whole trace,
 * which hardware cannot do).
 *
 * The objective is the SYSTEM's energy: every core's accesses and snoop
 * lookups, the memory reads and writes, cache-to-cache transfers and bus
 * address phases of every core (coherence_energy.h, stc_cstc_energy_of,
 * docs/ENERGY.md 3.9.1), and every cache's leakage over the run's cycles
 * and the processors' stall over each core's waited cycles (docs/ENERGY.md
 * 3.9.2, COHERENCE.md 11.9): total_with_stall_nj, the whole energy, as the
 * single-cache tuner's objective has a miss's stall in it. One core's
 * configuration changes the others' energy: a longer logical line fetches siblings by BusRd that demote
 * other cores' M copies, a smaller cache sends more transactions that
 * every other core snoops.
 *
 * The search (stc_ctune_descend) is coordinate descent: from a start
 * assignment, core 0, 1, .., N-1 in turn tries every legal configuration
 * with the other cores fixed (each candidate one whole run of the trace)
 * and keeps the cheapest if it is strictly cheaper than the current one
 * (ties: the current, then canonical order); rounds repeat until a round
 * changes no core. The result is a local optimum: no single core can
 * lower the system's energy alone, but two cores changing together might.
 * Cost: at most rounds x N x (configurations - 1) + 1 runs; assignments
 * already run are not run again (`runs` counts the distinct ones).
 *
 * The comparison (stc_ctune_alone) is what the single-cache tuner of
 * TUNING.md would pick for each core ignoring coherence: the core's own
 * references alone through one stc cache (cache.h, no other core, no
 * snoop), every configuration priced by the single-cache model
 * (energy.h's stc_energy_of under the default table: probes, misses with
 * their stall, leakage over the cache's cycles, writebacks), the cheapest
 * taken (first in canonical order on a tie).
 */
#ifndef STC_COHERENT_TUNE_H
#define STC_COHERENT_TUNE_H

#include "coherence_energy.h"
#include "coherent_stc.h"
#include "mc_trace.h"

#include <stddef.h>
#include <stdint.h>

/* The value the n-th store of a run writes (splitmix64 of n; what
 * `stcsim coherence` stores, so every store writes a value no other store
 * wrote and the data check sees any stale load). */
uint64_t stc_mc_store_value(uint64_t n);

/* One trace record into system: a fetch counts, a load or store (size at
 * most the physical line) is an access; *stores counts the stores so far
 * and picks the stored value. Returns 0, or -1 (stc_cstc_error says why). */
int stc_cstc_apply(stc_cstc_system *system, const stc_mc_ref *ref, uint64_t *stores);

typedef struct {
    stc_cstc_config system;              /* cores, geometry, protocol; configs ignored */
    const stc_cstc_energy_model *energy; /* for system.geometry */
    const stc_mc_ref *refs;              /* the whole trace in order, each size <= line_bytes */
    size_t ref_count;
} stc_ctune_problem;

/* One assignment of configurations to cores and its run's energy. */
typedef struct {
    stc_config configs[STC_COH_MAX_CORES];
    stc_coh_energy per_core[STC_COH_MAX_CORES];
    stc_coh_energy total; /* the objective: total.total_with_stall_nj */
    stc_coh_run_cycles cycles; /* the run's (coherent_cycles.h) */
    uint64_t violations;  /* of the run (0 unless the model is broken) */
    stc_cstc_counters counters; /* the run's counters summed over the cores */
} stc_ctune_assignment;

/* Run the trace with core c in configs[c]; fill *out. Returns -1 with a
 * message (an illegal configuration, a record the system refuses). */
int stc_ctune_evaluate(const stc_ctune_problem *problem, const stc_config *configs,
                       stc_ctune_assignment *out, char *err, size_t err_len);

/* The coordinate descent from start (one configuration per core). best is
 * the local optimum, rounds the rounds run (the last changes nothing),
 * runs the distinct assignments simulated. Returns -1 with a message. */
int stc_ctune_descend(const stc_ctune_problem *problem, const stc_config *start,
                      stc_ctune_assignment *best, unsigned *rounds, unsigned *runs, char *err,
                      size_t err_len);

/* Each core's single-cache choice: configs[c] the cheapest configuration
 * for core c's references alone, single_nj[c] its single-cache energy.
 * Returns -1 with a message. */
int stc_ctune_alone(const stc_ctune_problem *problem, stc_config *configs, double *single_nj,
                    char *err, size_t err_len);

#endif
