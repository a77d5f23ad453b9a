/* timeline.c - a tuned cache's energy over the run (timeline.h). */
#include "timeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct stc_timeline {
    stc_energy_table table;
    uint64_t interval;
    uint64_t next_mark;
    stc_config baseline_config[STC_TIMELINE_BASELINES];
    stc_cache *baseline[STC_TIMELINE_BASELINES];
    stc_timeline_point *points;
    size_t count;
    size_t capacity;
    bool failed;
};

void stc_timeline_destroy(stc_timeline *timeline)
{
    if (!timeline) {
        return;
    }
    for (int base = 0; base < STC_TIMELINE_BASELINES; base++) {
        stc_cache_destroy(timeline->baseline[base]);
    }
    free(timeline->points);
    free(timeline);
}

stc_timeline *stc_timeline_create(const stc_geometry *geometry, stc_cache_kind kind,
                                  const stc_energy_table *table,
                                  const stc_config baselines[STC_TIMELINE_BASELINES],
                                  uint64_t interval, char *err, size_t err_len)
{
    if (interval == 0) {
        snprintf(err, err_len, "the timeline interval must be at least 1 access");
        return NULL;
    }
    stc_timeline *timeline = calloc(1, sizeof *timeline);
    if (!timeline) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    timeline->table = *table;
    timeline->interval = interval;
    timeline->next_mark = interval;
    for (int base = 0; base < STC_TIMELINE_BASELINES; base++) {
        timeline->baseline_config[base] = baselines[base];
        timeline->baseline[base] =
            stc_cache_create(geometry, kind, &baselines[base], NULL, err, err_len);
        if (!timeline->baseline[base]) {
            stc_timeline_destroy(timeline);
            return NULL;
        }
    }
    return timeline;
}

void stc_timeline_request(stc_timeline *timeline, stc_op op, uint64_t addr, unsigned bytes)
{
    for (int base = 0; base < STC_TIMELINE_BASELINES; base++) {
        stc_cache_request(timeline->baseline[base], op, addr, bytes, NULL, NULL, NULL);
    }
}

bool stc_timeline_due(const stc_timeline *timeline, uint64_t accesses)
{
    return accesses >= timeline->next_mark;
}

int stc_timeline_record(stc_timeline *timeline, const stc_timeline_point *point)
{
    if (timeline->failed) {
        return -1;
    }
    if (timeline->count == timeline->capacity) {
        size_t capacity = timeline->capacity ? 2 * timeline->capacity : 256;
        stc_timeline_point *grown = realloc(timeline->points, capacity * sizeof *grown);
        if (!grown) {
            timeline->failed = true;
            return -1;
        }
        timeline->points = grown;
        timeline->capacity = capacity;
    }
    stc_timeline_point *slot = &timeline->points[timeline->count++];
    *slot = *point;
    for (int base = 0; base < STC_TIMELINE_BASELINES; base++) {
        /* The baselines never change configuration: their counters since
         * the start are one segment. */
        slot->baseline_nj[base] =
            stc_energy_of(&timeline->table, &timeline->baseline_config[base],
                          stc_cache_counters(timeline->baseline[base]))
                .total_nj;
    }
    while (timeline->next_mark <= point->accesses) {
        timeline->next_mark += timeline->interval;
    }
    return 0;
}

size_t stc_timeline_points(const stc_timeline *timeline, const stc_timeline_point **points)
{
    if (timeline->failed) {
        *points = NULL;
        return 0;
    }
    *points = timeline->points;
    return timeline->count;
}
