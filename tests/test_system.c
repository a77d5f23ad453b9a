/*
 * test_system.c - reconfiguration schedules and their energy: each segment
 * is charged at the configuration in force, its closing reconfiguration
 * (walk, wake-up, writebacks) included.
 */
#include "cache.h"
#include "check.h"
#include "config.h"
#include "energy.h"
#include "geometry.h"
#include "system.h"

#include <math.h>
#include <string.h>

enum { REFS = 30000, EVERY = 7000 };

static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 33;
}

static void make_refs(stc_ref *refs, size_t count)
{
    uint64_t state = 99;
    for (size_t index = 0; index < count; index++) {
        uint64_t choice = next_random(&state) % 4;
        refs[index].kind = (uint8_t)(choice == 0 ? STC_REF_IFETCH
                                     : choice == 1 ? STC_REF_LOAD
                                     : choice == 2 ? STC_REF_STORE
                                                   : STC_REF_MODIFY);
        refs[index].size = 4;
        refs[index].addr = (choice == 0 ? 0x400000 : 0x10000000) + 4 * (next_random(&state) % 6000);
    }
}

static bool near(double got, double want)
{
    return fabs(got - want) <= 1e-9 * fabs(want) + 1e-9;
}

static stc_config named(const stc_geometry *geometry, const char *name)
{
    stc_config config;
    char err[256];
    CHECK(stc_config_parse(geometry, name, &config, err, sizeof err) == 0, "%s", err);
    return config;
}

/* The energy of one cache driven by hand through the same schedule: run a
 * segment, remember the counters, reconfigure, charge the difference at the
 * configuration that was in force. */
static double energy_by_hand(const stc_geometry *geometry, const stc_energy_table *table,
                             const stc_config *schedule, size_t schedule_len, const stc_ref *refs,
                             bool instruction_side)
{
    char err[256];
    stc_cache *cache = stc_cache_create(geometry, instruction_side ? STC_ICACHE : STC_DCACHE,
                                        &schedule[0], NULL, err, sizeof err);
    stc_counters charged;
    memset(&charged, 0, sizeof charged);
    double total = 0.0;
    size_t position = 0;
    for (size_t start = 0; start < REFS; start += EVERY) {
        size_t end = start + EVERY < REFS ? start + EVERY : REFS;
        for (size_t index = start; index < end; index++) {
            bool fetch = refs[index].kind == STC_REF_IFETCH;
            if (fetch != instruction_side) {
                continue;
            }
            stc_op op = refs[index].kind == STC_REF_STORE    ? STC_OP_WRITE
                        : refs[index].kind == STC_REF_MODIFY ? STC_OP_MODIFY
                                                             : STC_OP_READ;
            stc_cache_request(cache, op, refs[index].addr, refs[index].size, NULL, NULL, NULL);
        }
        stc_config in_force = schedule[position];
        if (end == start + EVERY) {
            position = (position + 1) % schedule_len;
            stc_cache_reconfigure(cache, &schedule[position], NULL);
        }
        const stc_counters *now = stc_cache_counters(cache);
        stc_counters segment;
        const uint64_t *now_fields = (const uint64_t *)now;
        const uint64_t *charged_fields = (const uint64_t *)&charged;
        uint64_t *segment_fields = (uint64_t *)&segment;
        for (size_t field = 0; field < sizeof segment / sizeof(uint64_t); field++) {
            segment_fields[field] = now_fields[field] - charged_fields[field];
        }
        total += stc_energy_of(table, &in_force, &segment).total_nj;
        charged = *now;
    }
    stc_cache_destroy(cache);
    return total;
}

int main(void)
{
    char err[256];
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    CHECK(stc_geometry_init(&geometry, err, sizeof err) == 0, "%s", err);
    stc_energy_table table;
    CHECK(stc_energy_default(&geometry, &table, err, sizeof err) == 0, "%s", err);
    static stc_ref refs[REFS];
    make_refs(refs, REFS);

    /* A schedule of one configuration never changes anything: its energy
     * is the plain energy of the whole run. */
    stc_config single[1] = {named(&geometry, "4K_2W_32B_P")};
    stc_system system;
    CHECK(stc_system_init_scheduled(&system, &geometry, single, 1, EVERY, err, sizeof err) == 0,
          "%s", err);
    stc_system_track_energy(&system, &table);
    stc_system_run(&system, refs, REFS);
    stc_system_charge_energy(&system);
    double plain_i = stc_energy_of(&table, &single[0], stc_cache_counters(system.icache)).total_nj;
    double plain_d = stc_energy_of(&table, &single[0], stc_cache_counters(system.dcache)).total_nj;
    CHECK(near(system.energy[0].total_nj, plain_i), "single I: %g vs %g", system.energy[0].total_nj,
          plain_i);
    CHECK(near(system.energy[1].total_nj, plain_d), "single D: %g vs %g", system.energy[1].total_nj,
          plain_d);
    stc_system_free(&system);

    /* Growing and shrinking: every segment at its own configuration. */
    stc_config schedule[3] = {named(&geometry, "2K_1W_16B"), named(&geometry, "8K_4W_64B_P"),
                              named(&geometry, "4K_1W_32B")};
    CHECK(stc_system_init_scheduled(&system, &geometry, schedule, 3, EVERY, err, sizeof err) == 0,
          "%s", err);
    stc_system_track_energy(&system, &table);
    stc_system_run(&system, refs, REFS);
    stc_system_charge_energy(&system);
    double want_i = energy_by_hand(&geometry, &table, schedule, 3, refs, true);
    double want_d = energy_by_hand(&geometry, &table, schedule, 3, refs, false);
    CHECK(near(system.energy[0].total_nj, want_i), "scheduled I: %g vs %g",
          system.energy[0].total_nj, want_i);
    CHECK(near(system.energy[1].total_nj, want_d), "scheduled D: %g vs %g",
          system.energy[1].total_nj, want_d);
    CHECK(stc_cache_counters(system.dcache)->reconfigs == REFS / EVERY,
          "one reconfiguration per full segment");
    CHECK(system.energy[1].reconfig_nj > 0 && system.energy[1].writeback_nj > 0,
          "the schedule's walks and writebacks are charged");
    /* Charging the whole run at one configuration gives a different answer:
     * the segments matter. */
    double flat = stc_energy_of(&table, &schedule[0], stc_cache_counters(system.dcache)).total_nj;
    CHECK(!near(flat, want_d), "segments must not all be charged at one configuration");
    stc_system_free(&system);
    return check_done("test_system");
}
