/* system.c - an I/D cache pair driven by trace references. */
#include "system.h"

#include <stdio.h>
#include <string.h>

int stc_system_init(stc_system *system, const stc_geometry *geometry, const stc_config *config,
                    char *err, size_t err_len)
{
    memset(system, 0, sizeof *system);
    system->icache = stc_cache_create(geometry, STC_ICACHE, config, NULL, err, err_len);
    system->dcache = stc_cache_create(geometry, STC_DCACHE, config, NULL, err, err_len);
    if (!system->icache || !system->dcache) {
        stc_system_free(system);
        return -1;
    }
    return 0;
}

int stc_system_init_scheduled(stc_system *system, const stc_geometry *geometry,
                              const stc_config *schedule, size_t schedule_len, uint64_t every,
                              char *err, size_t err_len)
{
    if (schedule_len == 0) {
        snprintf(err, err_len, "empty reconfiguration schedule");
        return -1;
    }
    if (stc_system_init(system, geometry, &schedule[0], err, err_len) != 0) {
        return -1;
    }
    system->every = every;
    system->until_next = every;
    system->schedule = schedule;
    system->schedule_len = schedule_len;
    return 0;
}

void stc_system_free(stc_system *system)
{
    stc_cache_destroy(system->icache);
    stc_cache_destroy(system->dcache);
    system->icache = NULL;
    system->dcache = NULL;
}

void stc_system_track_energy(stc_system *system, const stc_energy_table *table)
{
    system->energy_table = table;
    system->charged[0] = *stc_cache_counters(system->icache);
    system->charged[1] = *stc_cache_counters(system->dcache);
    memset(system->energy, 0, sizeof system->energy);
}

/* Charge the counters since the last charge at configuration in_force. */
static void charge_segment(stc_system *system, const stc_config *in_force)
{
    if (!system->energy_table) {
        return;
    }
    stc_cache *caches[2] = {system->icache, system->dcache};
    for (unsigned kind = 0; kind < 2; kind++) {
        const stc_counters *now = stc_cache_counters(caches[kind]);
        stc_counters segment = stc_counters_since(now, &system->charged[kind]);
        stc_energy part = stc_energy_of(system->energy_table, in_force, &segment);
        stc_energy_add(&system->energy[kind], &part);
        system->charged[kind] = *now;
    }
}

void stc_system_charge_energy(stc_system *system)
{
    stc_config in_force = *stc_cache_config(system->icache);
    charge_segment(system, &in_force);
}

int stc_system_reconfigure(stc_system *system, const stc_config *next)
{
    if (stc_config_check(stc_cache_geometry(system->icache), next)) {
        return -1;
    }
    /* The reconfiguration's own cost (walk, wake-up, writebacks) closes the
     * segment of the old configuration and is charged with it. */
    stc_config before = *stc_cache_config(system->icache);
    stc_cache_reconfigure(system->icache, next, NULL);
    stc_cache_reconfigure(system->dcache, next, NULL);
    charge_segment(system, &before);
    return 0;
}

static void run_refs(stc_system *system, const stc_ref *refs, size_t count)
{
    static const stc_op op_of_kind[] = {
        [STC_REF_IFETCH] = STC_OP_READ,
        [STC_REF_LOAD] = STC_OP_READ,
        [STC_REF_STORE] = STC_OP_WRITE,
        [STC_REF_MODIFY] = STC_OP_MODIFY,
    };
    for (size_t index = 0; index < count; index++) {
        const stc_ref *ref = &refs[index];
        stc_cache *cache = ref->kind == STC_REF_IFETCH ? system->icache : system->dcache;
        stc_cache_request(cache, op_of_kind[ref->kind & 3], ref->addr, ref->size, NULL, NULL, NULL);
    }
}

void stc_system_run(stc_system *system, const stc_ref *refs, size_t count)
{
    if (system->every == 0) {
        run_refs(system, refs, count);
        return;
    }
    while (count > 0) {
        size_t chunk = count < system->until_next ? count : (size_t)system->until_next;
        run_refs(system, refs, chunk);
        refs += chunk;
        count -= chunk;
        system->until_next -= chunk;
        if (system->until_next == 0) {
            system->schedule_pos = (system->schedule_pos + 1) % system->schedule_len;
            stc_system_reconfigure(system, &system->schedule[system->schedule_pos]);
            system->until_next = system->every;
        }
    }
}
