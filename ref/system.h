/*
 * system.h - an I-cache and a D-cache in one configuration, fed by trace
 * references (docs/ARCHITECTURE.md section 12), with an optional schedule of
 * reconfigurations.
 *
 * A simulator that sweeps many configurations keeps one stc_system per
 * configuration and hands each the same batches of references: the trace is
 * parsed once, and each system's state stays hot in the CPU cache while it
 * works through a batch.
 */
#ifndef STC_SYSTEM_H
#define STC_SYSTEM_H

#include "cache.h"
#include "config.h"
#include "energy.h"
#include "trace.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
    stc_cache *icache;
    stc_cache *dcache;

    /* Reconfiguration schedule: after every `every` references the system
     * moves to the next entry of `schedule` (wrapping). every = 0: none. */
    uint64_t every;
    uint64_t until_next;     /* references left before the next change */
    const stc_config *schedule;
    size_t schedule_len;
    size_t schedule_pos;     /* index of the configuration in use */

    /* Energy of a scheduled run, charged segment by segment with the
     * configuration in force (stc_system_charge_energy). */
    const stc_energy_table *energy_table; /* NULL: not charged */
    stc_counters charged[2];              /* I, D counters already charged */
    stc_energy energy[2];                 /* I, D energy so far */
} stc_system;

/* Both caches in config, without data. Returns -1 with a message. */
int stc_system_init(stc_system *system, const stc_geometry *geometry, const stc_config *config,
                    char *err, size_t err_len);

/* Start in schedule[0] and change every `every` references. schedule must
 * outlive the system. */
int stc_system_init_scheduled(stc_system *system, const stc_geometry *geometry,
                              const stc_config *schedule, size_t schedule_len, uint64_t every,
                              char *err, size_t err_len);

void stc_system_free(stc_system *system);

/* Charge energy from now on: each segment between reconfigurations is
 * charged at the configuration in force during it, its closing
 * reconfiguration (walk, wake-up, writebacks) included. table must outlive
 * the system. */
void stc_system_track_energy(stc_system *system, const stc_energy_table *table);

/* Charge the open segment (call once at the end of the run). */
void stc_system_charge_energy(stc_system *system);

/* Feed references (addresses are taken modulo 2^addr_bits by the caches). */
void stc_system_run(stc_system *system, const stc_ref *refs, size_t count);

/* Change both caches' configuration now. */
int stc_system_reconfigure(stc_system *system, const stc_config *next);

#endif
