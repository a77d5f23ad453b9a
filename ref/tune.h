/*
 * tune.h - the cache tuner around the search state machine (search.h), in
 * two evaluation modes, and the `stcsim tune` command (docs/TUNING.md).
 *
 * Oracle mode: every configuration's counters over the WHOLE trace come
 * from one LRU-stack pass (stack.h) and are turned into floating-point
 * energies (energy.h); the search runs over those. This is what the seed's
 * Table 1 compares: the configuration the heuristic picks against the best
 * of all, each judged on the whole program.
 *
 * As-hardware mode: the trace drives a real cache model (cache.h) per
 * cache; the tuner applies each candidate with stc_cache_reconfigure (the
 * walk and its writebacks happen and are counted), clears the counters,
 * measures a window of W accesses of that cache and compares candidates by
 * the 32-bit fixed-point energy the hardware tuner computes (fixed.h).
 * Triggers: a one-off search at start, a periodic re-tune, and a
 * phase-change re-tune. Everything the run cost (windows spent in
 * sub-optimal candidates, the walks between them) is charged in floating
 * point from the model's counters, segment by segment.
 *
 * The I- and D-caches are tuned independently, each with its own search
 * and its own configuration.
 */
#ifndef STC_TUNE_H
#define STC_TUNE_H

#include "cache.h"
#include "config.h"
#include "counters.h"
#include "energy.h"
#include "fixed.h"
#include "geometry.h"
#include "search.h"
#include "stack.h"
#include "timeline.h"
#include "trace.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { STC_TUNE_BASELINES = STC_TIMELINE_BASELINES };

/* The conventional caches a tuned one is compared with: the largest size
 * with every way, and the largest size direct-mapped, both with 2-subline
 * lines (8K_4W_32B and 8K_1W_32B for the paper's cache). */
void stc_tune_baselines(const stc_geometry *geometry, stc_config baselines[STC_TUNE_BASELINES]);

/* ---- Oracle mode ---------------------------------------------------- */

/* One cache's whole-trace counters and energy for every legal
 * configuration, in canonical order. */
typedef struct {
    size_t count;
    stc_config configs[STC_MAX_CONFIGS];
    stc_counters counters[STC_MAX_CONFIGS];
    stc_energy energy[STC_MAX_CONFIGS];
} stc_oracle_table;

/* Fill from a stack sweep that has seen the whole trace. Returns -1 if the
 * sweep and the energy table disagree about the configurations. */
int stc_oracle_table_fill(stc_oracle_table *oracle, const stc_stack_sweep *sweep,
                          const stc_energy_table *table, stc_cache_kind kind);

/* Index of config in the table, or -1. */
long stc_oracle_table_find(const stc_oracle_table *oracle, const stc_config *config);

typedef struct {
    stc_config chosen;   /* the search's choice */
    double chosen_nj;    /* its whole-trace energy */
    size_t examined;     /* distinct configurations the search measured */
    stc_config optimum;  /* the exhaustive minimum */
    double optimum_nj;
} stc_oracle_choice;

/* Run the plan's search over the table's energies, and an exhaustive one
 * for the optimum. Returns -1 with a message on a malformed plan. */
int stc_oracle_search(const stc_oracle_table *oracle, const stc_geometry *geometry,
                      const stc_search_plan *plan, stc_oracle_choice *choice, char *err,
                      size_t err_len);

/* ---- As-hardware mode ----------------------------------------------- */

typedef struct {
    stc_search_plan plan;
    uint64_t window;                  /* accesses per measurement window, >= 1 */
    uint64_t warmup;                  /* accesses run unmeasured after every change, so
                                         the window measures the candidate rather than
                                         the refill after the change; 0: none */
    uint64_t retune_every;            /* re-tune after this many accesses in the chosen
                                         configuration (checked at window ends); 0: never */
    bool phase_trigger;               /* re-tune on a phase change: */
    unsigned phase_threshold_percent; /* a window's misses differ from the tuned window's
                                         by more than this percentage of the latter */
    unsigned probe_rounds;            /* probe search: rounds through the probes, each
                                         configuration's estimates summed; >= 1 */
    unsigned monitor_sample_bits;     /* monitor search: 1 / 2^bits of the sets watched
                                         (monitor.h) */
    unsigned monitor_decay;           /* monitor search: shift the counts right by this
                                         after every decision (0: whole-run counts) */
    uint64_t monitor_rotate;          /* monitor search: accesses between moves of the
                                         watched sample (0: a fixed sample; monitor.h;
                                         ignored when every set is watched) */
    bool monitor_rotate_empty;        /* monitor search: empty the stacks when the sample
                                         moves instead of the next group inheriting them
                                         (monitor.h; the RTL always inherits) */
    unsigned monitor_tag_bits;        /* monitor search: bits of a shadow tag (0: whole
                                         line numbers) */
    unsigned monitor_counter_bits;    /* monitor search: width of its counts, all halved
                                         when one fills (0: unbounded) */
    unsigned monitor_walk_min;        /* monitor search: watched accesses a decision needs
                                         before it may offer a change that walks
                                         (stc_monitor_tuner_build.walk_min; 0: none) */
    bool walk_moves;                  /* hardware mode: walks move lines to a free slot of
                                         their new candidates instead of dropping them
                                         (stc_cache_set_walk_moves; on by default, as
                                         stcgen's controller; false as stcgen
                                         --no-walk-moves), each move and each row
                                         with moves charged by
                                         stc_energy_walk_move_default */
    uint64_t timeline_interval;       /* hardware mode: record each cache's energy over the
                                         run every this many accesses (timeline.h); 0: no
                                         timeline */
} stc_tune_options;

/* The seed's heuristic, 1024-access windows, no warm-up, one-off tuning. */
stc_tune_options stc_tune_options_default(void);

/* Returns NULL if the options are usable, else a message naming the bad one. */
const char *stc_tune_options_check(const stc_tune_options *options);

/* What one tuned cache did over a run. */
typedef struct {
    unsigned searches_started;
    unsigned searches_completed;
    unsigned periodic_triggers;
    unsigned phase_triggers;
    bool first_valid;            /* the first search completed */
    stc_config first_choice;     /* ... and chose this */
    size_t first_examined;       /* ... after measuring this many candidates */
    size_t examined_total;       /* candidates measured by all searches */
    stc_config final_config;     /* in use at the end of the run */

    unsigned switches;           /* monitor search: decisions that changed the configuration */
    uint64_t monitor_bits;       /* monitor search: its shadow storage (monitor.h) */
    uint64_t monitor_lookups;    /* monitor search: watched accesses */
    uint64_t monitor_array_accesses; /* ... of them that read and wrote its arrays */
    stc_energy monitor_energy;   /* monitor search: its lookups (probe_nj) and leakage
                                    (static_nj), priced by stc_energy_small_sram; also
                                    in energy */

    uint64_t windows;            /* measurement windows completed */
    uint64_t saturated_windows;  /* windows in which a 16-bit tuner counter saturated */

    stc_counters counters;       /* the whole run (every segment summed) */
    stc_energy energy;           /* the whole run, each segment charged in its configuration */

    uint64_t search_accesses;    /* accesses measured while searching */
    stc_energy search_energy;    /* their energy, plus the walks between candidates */
    double search_at_chosen_nj;  /* estimate: the same accesses in the configuration each
                                    search chose (its energy per access after the search,
                                    or in its own search window if none followed) */

    stc_counters walks;          /* reconfigurations alone: walk rows, walk writebacks,
                                    banks woken, their cycles */
    stc_energy walk_energy;      /* their energy; writeback_nj is the flush cost */
    uint64_t walk_moves;         /* lines the walks moved (options.walk_moves; their
                                    energy in walk_energy.reconfig_nj) */
} stc_tuned_report;

typedef struct stc_tuned_cache stc_tuned_cache;

/* A cache of kind `kind` under its own tuner. It starts in the reset
 * configuration and begins its first search at once. The table is copied;
 * the fixed-point coefficients are derived from it. Returns NULL with a
 * message on bad options or a table the tuner cannot represent. */
stc_tuned_cache *stc_tuned_cache_create(const stc_geometry *geometry, stc_cache_kind kind,
                                        const stc_energy_table *table,
                                        const stc_tune_options *options, char *err,
                                        size_t err_len);
void stc_tuned_cache_destroy(stc_tuned_cache *tuned);

/* One CPU request to this cache (stc_cache_request's rules). Returns -1 on
 * a misuse (a write to an I-cache, size 0). */
int stc_tuned_cache_request(stc_tuned_cache *tuned, stc_op op, uint64_t addr, unsigned bytes);

/* The references of refs that belong to this cache: instruction fetches for
 * an I-cache, loads, stores and modifies for a D-cache. */
void stc_tuned_cache_run(stc_tuned_cache *tuned, const stc_ref *refs, size_t count);

/* End the run: charge the partial window and fill the report. Call once. */
void stc_tuned_cache_finish(stc_tuned_cache *tuned, stc_tuned_report *report);

/* Inspection (tests): the model, and the search in progress or last done. */
const stc_cache *stc_tuned_cache_model(const stc_tuned_cache *tuned);
const stc_search *stc_tuned_cache_search(const stc_tuned_cache *tuned);
bool stc_tuned_cache_searching(const stc_tuned_cache *tuned);

/* The timeline's points (options.timeline_interval), the last one at the
 * end of the run once finished. Returns 0 with *points NULL when there is
 * no timeline or it ran out of memory. */
size_t stc_tuned_cache_timeline(const stc_tuned_cache *tuned, const stc_timeline_point **points);

/* ---- One trace, both caches, either mode ---------------------------- */

typedef struct {
    bool valid;                 /* a choice exists (hardware: the first search completed) */
    stc_config chosen;          /* oracle: the search's choice; hardware: the first search's
                                   (monitor search: the configuration in use at the end) */
    size_t examined;            /* candidates measured for that choice */
    double chosen_oracle_nj;    /* the choice's energy over the whole trace */
    stc_config optimum;         /* the whole-trace optimum (exhaustive) */
    double optimum_nj;
    stc_energy run_energy;      /* the tuned cache over the trace: oracle, the choice's
                                   whole-trace energy; hardware, the tuned run */
    uint64_t run_cycles;
    stc_energy baseline_energy[STC_TUNE_BASELINES];
    uint64_t baseline_cycles[STC_TUNE_BASELINES];
    stc_tuned_report hardware;  /* hardware mode only */
} stc_tune_cache_result;

typedef struct {
    bool hardware;
    uint64_t references;
    stc_config baselines[STC_TUNE_BASELINES];
    stc_tune_cache_result cache[2]; /* [STC_ICACHE], [STC_DCACHE] */
} stc_tune_result;

typedef struct stc_tune_run stc_tune_run;

stc_tune_run *stc_tune_run_create(const stc_geometry *geometry, const stc_energy_table *table,
                                  const stc_tune_options *options, bool hardware, char *err,
                                  size_t err_len);
void stc_tune_run_destroy(stc_tune_run *run);

/* Feed references in trace order, any batch size. */
void stc_tune_run_feed(stc_tune_run *run, const stc_ref *refs, size_t count);

/* After the last reference. Returns -1 with a message on a malformed plan. */
int stc_tune_run_finish(stc_tune_run *run, stc_tune_result *result, char *err, size_t err_len);

/* Hardware mode with options.timeline_interval: the cache's timeline
 * (stc_tuned_cache_timeline), complete after stc_tune_run_finish. */
size_t stc_tune_run_timeline(const stc_tune_run *run, stc_cache_kind kind,
                             const stc_timeline_point **points);


#endif
