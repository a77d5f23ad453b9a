/*
 * search.h - the configuration search of the cache tuner, as a state
 * machine that does not know how energies are obtained.
 *
 * The caller loops:
 *
 *     stc_search_start(&search, geometry, &plan, err, sizeof err);
 *     while (stc_search_next(&search, &candidate)) {
 *         ... put the cache in candidate, measure ...
 *         stc_search_report(&search, energy);
 *     }
 *     best = stc_search_best(&search);
 *
 * so the same decisions serve the oracle (energies of whole-trace runs),
 * the as-hardware tuner (fixed-point energies of measurement windows) and,
 * later, the RTL tuner, which mirrors this machine state for state.
 *
 * Two searches (docs/TUNING.md gives every rule and why):
 *
 * - heuristic (the seed's, sections 5.3-5.5, implementing its TEXT, not
 *   Figure 11's inverted exits): start with every parameter at its
 *   smallest legal value (largest when descending); then walk the
 *   parameters in the plan's order; each walk steps the parameter one
 *   value at a time away from its start, keeps a value while the energy
 *   drops, and at the first value that does not lower it (equal counts as
 *   not lower) keeps the previous one. A step that would need another
 *   parameter RAISED to be legal (a 2-way 2K cache) ends the walk; a step
 *   that makes a dependent parameter illegal LOWERS it (shrinking to 2K
 *   drops 4 ways to 1 and way prediction off).
 * - exhaustive: every legal configuration in canonical order (reversed when
 *   descending); the lowest energy wins, the first visited on a tie.
 *
 * Energies are doubles: the tuner's 32-bit fixed-point energies are exact
 * in a double, and the oracle's are floating point anyway.
 */
#ifndef STC_SEARCH_H
#define STC_SEARCH_H

#include "config.h"
#include "geometry.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    STC_PARAM_SIZE = 0,        /* powered banks */
    STC_PARAM_LINE = 1,        /* sublines per logical line */
    STC_PARAM_ASSOC = 2,       /* ways */
    STC_PARAM_WAY_PREDICT = 3, /* way prediction off/on */
    STC_PARAM_COUNT = 4
} stc_param;

/* STC_SEARCH_PROBE and STC_SEARCH_MONITOR are the as-hardware tuner's
 * estimating searches (tune.h): probe judges every configuration from a
 * few probe windows, monitor from sampled shadow tags watching the whole
 * run (monitor.h). As searches over known energies (the oracle) both are
 * the exhaustive search, the ideal that their estimates approximate. */
typedef enum {
    STC_SEARCH_HEURISTIC = 0,
    STC_SEARCH_EXHAUSTIVE = 1,
    STC_SEARCH_PROBE = 2,
    STC_SEARCH_MONITOR = 3
} stc_search_kind;

typedef struct {
    stc_search_kind kind;
    stc_param order[STC_PARAM_COUNT]; /* heuristic: a permutation of the parameters */
    bool descending;                  /* walk from the largest values down */
    /* Heuristic, for measurements that drift (windows of a running
     * program); both 0/false give the seed's rule. */
    unsigned margin_shift;            /* a candidate is lower only if energy <
                                         best - floor(best / 2^margin_shift); 0: plain < */
    bool remeasure;                   /* after a candidate that was not lower, measure the
                                         best again before the next candidate, and compare
                                         that candidate with the fresh value */
} stc_search_plan;

/* The seed's heuristic: size, line, associativity, way prediction, each
 * from its smallest value upward. */
stc_search_plan stc_search_plan_seed(void);

/* "size", "line", "assoc", "wp". */
const char *stc_param_name(stc_param param);

/* Parse an order such as "line,assoc,wp,size": each of the four names
 * exactly once. Returns -1 with a message naming the problem. */
int stc_search_order_parse(const char *text, stc_param order[STC_PARAM_COUNT], char *err,
                           size_t err_len);

/* "size,line,assoc,wp" */
void stc_search_order_format(const stc_param order[STC_PARAM_COUNT], char *buf, size_t buf_len);

/* One measured candidate. */
typedef struct {
    stc_config config;
    double energy;
} stc_search_entry;

/* The machine's whole state, by value so a tuner can embed it without
 * allocating. Read it only through the functions below. */
typedef struct {
    stc_geometry geometry;
    stc_search_plan plan;
    int phase;                /* internal: start, walk, exhaustive, done */
    unsigned param_index;     /* heuristic: index into plan.order of the walk in progress */
    size_t exhaustive_index;  /* exhaustive: next entry of all[] */
    bool pending;             /* candidate handed out, energy not yet reported */
    stc_config candidate;
    bool have_best;
    stc_config best;
    double best_energy;
    size_t all_count;
    stc_config all[STC_MAX_CONFIGS];           /* exhaustive: visiting order */
    size_t examined_count;
    stc_search_entry examined[STC_MAX_CONFIGS]; /* every distinct candidate measured, in order */
    bool stale;               /* remeasure: the best's energy is older than the last window */
    bool remeasuring;         /* the outstanding candidate is the best, measured again */
    size_t remeasures;        /* re-measurements of the best so far */
} stc_search;

/* Begin a search. Returns -1 with a message if the plan is malformed (an
 * order that is not a permutation, an unknown kind). The geometry must
 * have passed stc_geometry_init. */
int stc_search_start(stc_search *search, const stc_geometry *geometry,
                     const stc_search_plan *plan, char *err, size_t err_len);

/* The next configuration to measure: returns true and writes it to
 * *candidate, or false when the search is over. Calling it again before
 * stc_search_report returns the same candidate. A candidate measured
 * earlier in this search is never handed out twice: its recorded energy
 * is reused. */
bool stc_search_next(stc_search *search, stc_config *candidate);

/* True while the outstanding candidate is a re-measurement of the best
 * (plan.remeasure), which replaces the best's energy instead of competing
 * with it and does not count as examined. */
bool stc_search_remeasuring(const stc_search *search);

/* Re-measurements of the best so far. */
size_t stc_search_remeasures(const stc_search *search);

/* The energy of the candidate stc_search_next last handed out. Returns -1
 * (and changes nothing) if no candidate is outstanding. */
int stc_search_report(stc_search *search, double energy);

bool stc_search_done(const stc_search *search);

/* The lowest-energy configuration accepted so far (the start until it is
 * measured), and its energy. */
stc_config stc_search_best(const stc_search *search);
double stc_search_best_energy(const stc_search *search);

/* Distinct configurations measured so far ("configurations examined"),
 * and, if entries is not NULL, the list in the order they were measured. */
size_t stc_search_examined(const stc_search *search, const stc_search_entry **entries);

#endif
