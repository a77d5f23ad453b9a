/*
 * explore.h - the design-space explorer behind `stcsim explore`: which
 * geometry to generate for a set of programs (docs/EXPLORER.md).
 *
 * A candidate is what one `stcgen` run builds: a geometry (banks, bank
 * bytes, physical line, address width) with way prediction built or not,
 * and the default (monitor) tuner. For every candidate and every trace,
 * every legal configuration of the geometry is simulated in one pass by
 * the LRU-stack engine (stack.h), exactly as plain `stcsim` does, and the
 * cheapest configuration of each cache is kept: the I-cache and the
 * D-cache are chosen independently, as the two caches of the generated
 * pair are tuned independently. A candidate without way prediction may use
 * only the configurations without _P (stcgen --no-way-prediction refuses
 * them at the configuration port), so both variants of one geometry share
 * one simulation and differ only in the choice.
 *
 * The cheapest configuration is the whole-trace optimum, what an ideal
 * tuner would reach; with `tuned` the hardware tuner's twin (stc_tune in
 * hardware mode with the generator's defaults, tune.h, docs/TUNING.md 6)
 * also runs, so the gap between the two is visible per candidate.
 *
 * Work is split into jobs of one trace and a few geometries; each job
 * reads its trace once and feeds every geometry of the job. Jobs run on
 * worker threads; every result depends only on its own geometry, table
 * and trace, and totals are summed in a fixed order after all jobs
 * finish, so the results are identical for any number of workers.
 */
#ifndef STC_EXPLORE_H
#define STC_EXPLORE_H

#include "cache.h"
#include "config.h"
#include "counters.h"
#include "energy.h"
#include "geometry.h"
#include "trace.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    STC_EXPLORE_NAME_MAX = 64,    /* as stcgen's output names */
    STC_EXPLORE_COMMAND_MAX = 160 /* the stcgen command line of a candidate */
};

typedef struct {
    stc_geometry geometry;            /* passed stc_geometry_init */
    bool way_prediction;              /* built: configurations with _P allowed */
    char name[STC_EXPLORE_NAME_MAX];  /* stcgen's output name, b4_2k_l16_a32[_nowp] */
    stc_energy_table energy_table;    /* prices this candidate's runs */
} stc_explore_candidate;

/* Make a candidate of geometry (its user fields set; banks, bank_bytes,
 * line_bytes usually from the explored ranges) with the default energy
 * table of the geometry. Returns 0, or -1 with the reason in why (name and
 * stcgen command still usable, to say what was skipped) when
 * plain `stcgen` with these options would refuse the geometry (the
 * geometry rules, the monitor tuner's shape and its coefficients: the
 * generator's own checks, made with the same library calls) or the
 * default energy model does not cover it. */
int stc_explore_candidate_init(stc_explore_candidate *candidate, const stc_geometry *geometry,
                               bool way_prediction, char *why, size_t why_len);

/* The exact stcgen command that generates the candidate, e.g.
 * "stcgen --banks 4 --bank-bytes 2048 --line-bytes 16"
 * (--addr-bits only when not 32, --no-way-prediction when not built). */
void stc_explore_stcgen_command(const stc_explore_candidate *candidate, char *buf,
                                size_t buf_len);

/* Why the tuned figures of a candidate cannot be had (NULL: they can).
 * The tuner's twin always considers every configuration, _P included, so
 * it does not model a cache built without way prediction. */
const char *stc_explore_tuned_unavailable(const stc_explore_candidate *candidate);

/* The cheapest configuration of one cache over one trace. */
typedef struct {
    stc_config config;
    stc_counters counters;
    stc_energy energy;
} stc_explore_best;

/* One candidate on one trace. */
typedef struct {
    stc_explore_best best[2];   /* [STC_ICACHE], [STC_DCACHE] */
    double energy_nj;           /* best[I] + best[D] */
    uint64_t request_misses;    /* both caches' references with a miss */
    uint64_t cycles;            /* both caches' cycles */
    bool tuned;                 /* the tuner's twin ran: */
    double tuned_nj;            /* its whole run, both caches, its own energy included */
    stc_config tuned_final[2];  /* the configuration each cache ended in */
} stc_explore_cell;

typedef struct {
    const stc_explore_candidate *candidates;
    size_t candidate_count;
    const char *const *traces;  /* file names ("-" is refused: jobs re-read a trace) */
    size_t trace_count;
    stc_trace_format format;
    uint64_t limit;             /* references read per trace; 0: all */
    bool tuned;                 /* also run the tuner's twin where available */
    unsigned workers;           /* threads; 0: one per online CPU */
    /* Called after every finished job, from the thread that finished it,
     * never by two threads at once; NULL: no progress report. */
    void (*progress)(void *context, size_t jobs_done, size_t jobs_total);
    void *progress_context;
} stc_explore_request;

typedef struct {
    size_t candidate_count;
    size_t trace_count;
    stc_explore_cell *cells;    /* [candidate * trace_count + trace] */
    uint64_t *references;       /* [trace]: references read */
    unsigned workers;           /* threads used */
} stc_explore_result;

/* Run every (candidate, trace) pair. Returns 0, 1 for a trace that cannot
 * be read (err holds the reader's "FILE:LINE: message" of the first such
 * trace in the request's order, whatever the number of workers) or 2 for a
 * bad request, with nothing allocated in result on failure. */
int stc_explore_run(const stc_explore_request *request, stc_explore_result *result, char *err,
                    size_t err_len);

void stc_explore_result_free(stc_explore_result *result);

static inline const stc_explore_cell *stc_explore_cell_at(const stc_explore_result *result,
                                                          size_t candidate, size_t trace)
{
    return &result->cells[candidate * result->trace_count + trace];
}

/* Online CPUs (at least 1): the default number of workers. */
unsigned stc_explore_online_cpus(void);

/* ---- Pareto front ---------------------------------------------------- */

typedef struct {
    double energy;  /* lower is better */
    double area;    /* lower is better */
} stc_explore_point;

/* Mark in on_front the points no other point dominates (at most as much
 * energy and area, and less of one of them) and return how many. Equal
 * points do not dominate each other, so exact ties are all on the front,
 * and all off it when a third point dominates them. A point with a NaN is
 * never on the front and dominates nothing. */
size_t stc_explore_pareto(const stc_explore_point *points, size_t count, bool *on_front);

#endif
