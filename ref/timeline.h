/*
 * timeline.h - a tuned cache's energy over the run, beside the conventional
 * caches it is compared with (docs/TUNING.md 4.1, `stcsim tune --timeline`).
 *
 * A tuned cache (tune.h) with a timeline records a point every `interval`
 * of its accesses and one at the end of the run. Each point holds
 * cumulative values, so the last point is the whole run and the energy of
 * an interval is the difference of two points:
 * - the tuned cache's energy so far: every segment charged in the
 *   configuration it ran in, the walks, and the monitor's lookups and
 *   leakage (what stc_tuned_report.energy holds at the end);
 * - each baseline's energy so far (stc_tune_baselines: 8K_4W_32B and
 *   8K_1W_32B for the paper's cache), from a plain cache model in that
 *   configuration fed the same requests. At the end of the run it equals
 *   the oracle's whole-trace energy of that configuration (a stack sweep,
 *   computed independently: tests/test_tune.c checks the two agree);
 * - the configuration in use at the end of the interval and the number of
 *   configuration changes so far, which show the search and its choice.
 */
#ifndef STC_TIMELINE_H
#define STC_TIMELINE_H

#include "cache.h"
#include "config.h"
#include "energy.h"
#include "geometry.h"

#include <stddef.h>
#include <stdint.h>

enum { STC_TIMELINE_BASELINES = 2 };

typedef struct {
    uint64_t accesses;   /* the cache's accesses so far (one per physical line touched) */
    uint64_t cycles;     /* the tuned cache's cycles so far, walks included */
    stc_config config;   /* the tuned cache's configuration at this point */
    uint64_t changes;    /* configuration changes the tuner has made so far */
    double tuned_nj;     /* the tuned cache's energy so far */
    double baseline_nj[STC_TIMELINE_BASELINES]; /* each baseline's energy so far */
} stc_timeline_point;

typedef struct stc_timeline stc_timeline;

/* A recorder for one cache of kind `kind`, a point every `interval`
 * accesses (>= 1), comparing with the configurations baselines[] (legal
 * under geometry). The table is copied. Returns NULL with a message. */
stc_timeline *stc_timeline_create(const stc_geometry *geometry, stc_cache_kind kind,
                                  const stc_energy_table *table,
                                  const stc_config baselines[STC_TIMELINE_BASELINES],
                                  uint64_t interval, char *err, size_t err_len);
void stc_timeline_destroy(stc_timeline *timeline);

/* The request the tuned cache just served, for the baselines. */
void stc_timeline_request(stc_timeline *timeline, stc_op op, uint64_t addr, unsigned bytes);

/* True when the tuned cache, at `accesses` so far, has passed the next
 * interval mark and a point is due. */
bool stc_timeline_due(const stc_timeline *timeline, uint64_t accesses);

/* Record a point: the tuned cache's state (accesses, cycles, tuned_nj,
 * config, changes in *point), the baselines' energies filled in here.
 * Moves the next mark past point->accesses. Returns -1 when out of memory
 * (the point is dropped, and every later call fails too). */
int stc_timeline_record(stc_timeline *timeline, const stc_timeline_point *point);

/* The points so far, in order; valid until the next record or destroy.
 * Returns their count, or 0 with *points NULL if a record failed. */
size_t stc_timeline_points(const stc_timeline *timeline, const stc_timeline_point **points);

#endif
