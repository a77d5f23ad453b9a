/*
 * monitor_twin.h - the default tuner's two parts as the generated top wires
 * them: the miss monitor (monitor.h) and its decision unit
 * (monitor_tuner.h) reading the monitor's counts through a 16-bit port
 * (docs/ARCHITECTURE.md 17 and 18).
 *
 * Why one object: `stcsim tune --search monitor` (ref/tune.c), the
 * single-cache lockstep (tb/monitor_side.c) and the coherent lockstep
 * (tb/coh/coh_tuner.c) all build the same pair the same way: the monitor
 * of a shape, coefficients quantised from an energy table, the program
 * from both, the unit reset on it; and all read a count as the unit's
 * port shows it. Built in one place, the three cannot drift apart.
 *
 * The unit keeps a pointer to the program inside the twin: a twin must
 * not be copied or moved after stc_monitor_twin_init.
 */
#ifndef STC_MONITOR_TWIN_H
#define STC_MONITOR_TWIN_H

#include "energy.h"
#include "geometry.h"
#include "monitor.h"
#include "monitor_tuner.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    stc_monitor *monitor;        /* owned */
    stc_monitor_program program; /* the unit's steps and coefficients */
    stc_monitor_tuner unit;      /* reset, stepped by the caller */
} stc_monitor_twin;

/* Build the monitor of `shape` for the geometry (shape->read_only: an
 * I-cache, whose program multiplies no writebacks), the program from the
 * table's quantised coefficients (way_prediction: the cache has it built;
 * without it no configuration with prediction is closed) and reset the unit
 * with `build`. Returns 0, or -1 with a message and nothing to free. */
int stc_monitor_twin_init(stc_monitor_twin *twin, const stc_geometry *geometry,
                          const stc_monitor_shape *shape, const stc_energy_table *table,
                          bool way_prediction, const stc_monitor_tuner_build *build, char *err,
                          size_t err_len);
void stc_monitor_twin_free(stc_monitor_twin *twin);

/* Count `select` of the monitor as the unit's count port shows it: 0 past
 * the last count, saturated at 16 bits (the port's width). */
uint16_t stc_monitor_twin_count(const stc_monitor_twin *twin, unsigned select);

#endif
