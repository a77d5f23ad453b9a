/* monitor_twin.c - the monitor and its decision unit, built together (monitor_twin.h). */
#include "monitor_twin.h"

#include "counters.h"
#include "fixed.h"

/* Every count a monitor can have: the watched accesses, then per mapping
 * (one array each) a hit and a writeback count per depth bucket. */
enum { MAX_COUNTS = 1 + STC_MONITOR_MAX_ARRAYS * 2 * STC_MONITOR_MAX_HIT_TERMS };

int stc_monitor_twin_init(stc_monitor_twin *twin, const stc_geometry *geometry,
                          const stc_monitor_shape *shape, const stc_energy_table *table,
                          bool way_prediction, const stc_monitor_tuner_build *build, char *err,
                          size_t err_len)
{
    stc_fixed_monitor_coefficients coefficients;
    twin->monitor = stc_monitor_create(geometry, shape, err, err_len);
    if (!twin->monitor ||
        stc_fixed_monitor_from_table(table, &coefficients, err, err_len) != 0 ||
        stc_monitor_program_build(twin->monitor, geometry, &coefficients, shape->read_only,
                                  way_prediction, &twin->program, err, err_len) != 0 ||
        stc_monitor_tuner_reset(&twin->unit, build, &twin->program, err, err_len) != 0) {
        stc_monitor_twin_free(twin);
        return -1;
    }
    return 0;
}

void stc_monitor_twin_free(stc_monitor_twin *twin)
{
    stc_monitor_destroy(twin->monitor);
    twin->monitor = NULL;
}

uint16_t stc_monitor_twin_count(const stc_monitor_twin *twin, unsigned select)
{
    uint64_t counts[MAX_COUNTS];
    size_t count = stc_monitor_counts(twin->monitor, counts, MAX_COUNTS);
    uint64_t value = select < count ? counts[select] : 0;
    return (uint16_t)stc_counter_saturate(value, STC_FIXED_COUNTER_BITS);
}
