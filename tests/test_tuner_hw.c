/*
 * test_tuner_hw.c - the cycle model of the hardware tuner (ref/tuner_hw.h):
 * its decisions equal ref/search.c's heuristic fed the same fixed-point
 * energies (stc_fixed_energy of the same 16-bit counters) on many random
 * landscapes, both multipliers, 2, 4 and 8 banks, with and without way
 * prediction, random configuration latencies; the mpeg2-like case the
 * heuristic misses (docs/TUNING.md 1.2); every window's energy equals
 * stc_fixed_energy; compute cycles against the hand count; coefficient
 * registers (reset values, writes, constants); the phase and periodic
 * triggers.
 */
#include "check.h"
#include "energy.h"
#include "fixed.h"
#include "search.h"
#include "tuner_env.h"
#include "tuner_hw.h"

#include <stdio.h>
#include <string.h>

enum { MAX_CYCLES = 40000000 };

typedef struct {
    unsigned candidates[64]; /* packed, in the order measured */
    uint32_t energies[64];
    unsigned count;
    unsigned wp_candidates;
    unsigned failed_steps;   /* V0 cycles that proposed nothing (not START/FINAL) */
    unsigned chosen;
    uint32_t compute;
    unsigned long cycles;
    bool finished;
} search_log;

static stc_geometry geometry_of(unsigned banks)
{
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    geometry.banks = banks;
    char err[256];
    if (stc_geometry_init(&geometry, err, sizeof err) != 0) {
        fprintf(stderr, "geometry: %s\n", err);
    }
    return geometry;
}

/* The multipliers: array, serial, radix 4, radix 16 (ARCHITECTURE.md 16.7). */
enum { MULTS = 4 };
static const char *const mult_name[MULTS] = {"array", "serial", "radix4", "radix16"};

static stc_tuner_hw_build build_of(const stc_geometry *geometry, unsigned mult, bool wp)
{
    stc_tuner_hw_build build = {*geometry, mult, false, wp};
    return build;
}

static void default_coefficients(const stc_geometry *geometry, stc_fixed_coefficients *fixed,
                                 uint16_t registers[STC_TUNER_MAX_COEFS])
{
    stc_energy_table table;
    char err[256];
    CHECK(stc_energy_default(geometry, &table, err, sizeof err) == 0, "%s", err);
    CHECK(stc_fixed_from_table(&table, fixed, err, sizeof err) == 0, "%s", err);
    stc_tuner_coef_registers(geometry, fixed, registers);
}

/* Clock the tuner with the environment until the search started by a
 * software start has applied its choice; log what it measured. */
static void run_one_search(stc_tuner_hw *tuner, tuner_env *env,
                           const stc_fixed_coefficients *fixed, search_log *log)
{
    memset(log, 0, sizeof *log);
    stc_tuner_hw_out out;
    stc_tuner_hw_in in;
    bool started = false;
    for (unsigned long cycle = 0; cycle < MAX_CYCLES; cycle++) {
        const stc_tuner_hw_regs *q = &tuner->q;
        if (started && q->psm == STC_PSM_IDLE) {
            log->finished = true;
            log->chosen = q->best;
            log->compute = q->compute;
            log->cycles = cycle;
            return;
        }
        stc_tuner_hw_outputs(tuner, &out);
        tuner_env_inputs(env, &out, &in);
        if (!started) {
            in.reg_we = true;
            in.reg_addr = STC_TREG_CTRL;
            in.reg_wdata = 1 | q->phase_en << 1;
            started = true;
        }
        if (q->psm != STC_PSM_IDLE && q->vsm == STC_VSM_CMP && log->count < 64) {
            stc_config config = stc_tuner_config_unpack(q->cand);
            const stc_fixed_counters counters = {(uint16_t)q->acc, (uint16_t)q->miss,
                                                 (uint16_t)q->cyc, (uint16_t)q->fph};
            uint32_t want = stc_fixed_energy(fixed, &config, &counters);
            CHECK_EQ_U64(q->energy, want, "window energy of candidate %u", log->count);
            log->candidates[log->count] = q->cand;
            log->energies[log->count] = q->energy;
            log->wp_candidates += config.way_predict;
            log->count++;
        }
        if (q->psm >= STC_PSM_SIZE && q->psm <= STC_PSM_WP && q->vsm == STC_VSM_V0) {
            uint32_t psm = q->psm;
            stc_tuner_hw_step(tuner, &in);
            log->failed_steps += tuner->q.vsm == STC_VSM_V0 && tuner->q.psm != psm;
            continue;
        }
        stc_tuner_hw_step(tuner, &in);
    }
}

/* The same energies through ref/search.c; compare the trail and the choice. */
static void compare_with_search(const stc_geometry *geometry, const tuner_env *env,
                                const stc_fixed_coefficients *fixed, const search_log *log,
                                bool skip_wp, const char *what)
{
    char err[256];
    stc_search search;
    stc_search_plan plan = stc_search_plan_seed();
    CHECK(stc_search_start(&search, geometry, &plan, err, sizeof err) == 0, "%s", err);
    stc_config candidate;
    unsigned index = 0;
    while (stc_search_next(&search, &candidate)) {
        unsigned packed = stc_tuner_config_pack(&candidate);
        if (skip_wp && candidate.way_predict) {
            /* built without way prediction: the tuner never proposes it */
            stc_search_report(&search, (double)UINT32_MAX);
            continue;
        }
        uint32_t energy = stc_fixed_energy(fixed, &candidate, &env->counters[packed]);
        CHECK(index < log->count && log->candidates[index] == packed,
              "%s: candidate %u: tuner %03x, search %03x", what, index,
              index < log->count ? log->candidates[index] : 0, packed);
        stc_search_report(&search, energy);
        index++;
    }
    CHECK_EQ_U64(log->count, index, "%s: candidates examined", what);
    stc_config best = stc_search_best(&search);
    CHECK_EQ_U64(log->chosen, stc_tuner_config_pack(&best), "%s: choice", what);
    CHECK(log->finished, "%s: search finished", what);
    CHECK_EQ_U64(env->applied, log->chosen, "%s: the choice is applied", what);
}

static void set_landscape_random(tuner_env *env, unsigned window)
{
    stc_config all[STC_MAX_CONFIGS];
    size_t count = stc_config_enumerate(&env->geometry, all, STC_MAX_CONFIGS);
    for (size_t index = 0; index < count; index++) {
        unsigned packed = stc_tuner_config_pack(&all[index]);
        stc_fixed_counters *c = &env->counters[packed];
        uint32_t r = tuner_env_random(env);
        c->accesses = (uint16_t)window;
        c->misses = (uint16_t)(r % (window / 4 + 1));
        unsigned cycles = window + c->misses * (20 + r % 40);
        if (tuner_env_random(env) % 50 == 0) {
            cycles = 70000; /* saturates */
        }
        c->cycles = (uint16_t)(cycles > 65535 ? 65535 : cycles);
        c->first_probe_hits = (uint16_t)(tuner_env_random(env) % (window + window / 8 + 1));
        if (index > 0 && tuner_env_random(env) % 8 == 0) {
            /* a tie with the previous configuration's counters */
            *c = env->counters[stc_tuner_config_pack(&all[index - 1])];
        }
    }
}

static void test_random_landscapes(void)
{
    static const unsigned banks_list[] = {2, 4, 8};
    unsigned runs = 0;
    for (unsigned b = 0; b < 3; b++) {
        stc_geometry geometry = geometry_of(banks_list[b]);
        stc_fixed_coefficients fixed;
        uint16_t registers[STC_TUNER_MAX_COEFS];
        default_coefficients(&geometry, &fixed, registers);
        for (unsigned variant = 0; variant < 2 * MULTS; variant++) {
            stc_tuner_hw_build build = build_of(&geometry, variant % MULTS, variant < MULTS);
            for (unsigned seed = 1; seed <= 60; seed++) {
                const unsigned window = 64 + seed * 7;
                stc_tuner_hw tuner;
                stc_tuner_hw_reset(&tuner, &build, registers);
                tuner.q.win_len = window;
                tuner_env env;
                tuner_env_init(&env, &geometry, window, seed * 7919u + variant);
                env.max_delay = seed % 4 == 0 ? 0 : 5;
                env.busy_percent = seed % 3 == 0 ? 20 : 0;
                set_landscape_random(&env, window);
                search_log log;
                run_one_search(&tuner, &env, &fixed, &log);
                char what[64];
                snprintf(what, sizeof what, "B=%u variant %u seed %u", banks_list[b], variant,
                         seed);
                compare_with_search(&geometry, &env, &fixed, &log, !build.way_prediction, what);
                if (!build.way_prediction) {
                    CHECK_EQ_U64(log.wp_candidates, 0, "%s: no wp without way prediction", what);
                }
                CHECK_EQ_U64(log.compute,
                             stc_tuner_hw_compute_cycles(stc_tuner_hw_step_cycles(&build),
                                                         log.count,
                                                         log.wp_candidates, log.failed_steps),
                             "%s: compute cycles", what);
                runs++;
            }
        }
    }
    CHECK(runs == 1440, "ran %u searches", runs);
}

/* The seed's example (docs/TUNING.md 1.1) with hand-counted cycles:
 * 2K_1W_16B, 4K_1W_16B (lower), 8K_1W_16B (not), 4K_1W_32B (lower),
 * 4K_1W_64B (not), 4K_2W_32B (lower; 4 ways illegal at 4K: one failed
 * proposal), 4K_2W_32B_P (not) -> 4K_2W_32B. Per candidate V0 + CLEAR +
 * 3 or 5 steps + CMP; array: 6 x (1 + 1 + 3 + 1) + (1 + 1 + 5 + 1) + 1
 * failed + 1 final = 46; serial: 6 x (1 + 1 + 48 + 1) + (1 + 1 + 80 + 1) +
 * 1 + 1 = 391; radix 4 (8 cycles a step) 6 x 27 + 43 + 2 = 207; radix 16
 * (4 cycles a step) 6 x 15 + 23 + 2 = 115. */
static void test_seed_example(void)
{
    stc_geometry geometry = geometry_of(4);
    stc_fixed_coefficients fixed;
    uint16_t registers[STC_TUNER_MAX_COEFS];
    default_coefficients(&geometry, &fixed, registers);
    static const struct {
        const char *name;
        unsigned misses;
    } landscape[] = {
        {"2K_1W_16B", 300}, {"4K_1W_16B", 200}, {"8K_1W_16B", 200}, {"4K_1W_32B", 90},
        {"4K_1W_64B", 90},  {"4K_2W_32B", 60},  {"4K_2W_32B_P", 60},
    };
    static const unsigned want_compute[MULTS] = {46, 391, 207, 115};
    for (unsigned mult = 0; mult < MULTS; mult++) {
        stc_tuner_hw_build build = build_of(&geometry, mult, true);
        stc_tuner_hw tuner;
        stc_tuner_hw_reset(&tuner, &build, registers);
        tuner_env env;
        tuner_env_init(&env, &geometry, 1024, 5);
        for (unsigned packed = 0; packed < 512; packed++) {
            env.counters[packed] = (stc_fixed_counters){1024, 1000, 30000, 0};
        }
        for (size_t i = 0; i < sizeof landscape / sizeof landscape[0]; i++) {
            stc_config config;
            char err[128];
            CHECK(stc_config_parse(&geometry, landscape[i].name, &config, err, sizeof err) == 0,
                  "%s", err);
            env.counters[stc_tuner_config_pack(&config)] = (stc_fixed_counters){
                1024, (uint16_t)landscape[i].misses, (uint16_t)(1024 + 30 * landscape[i].misses),
                0};
        }
        search_log log;
        run_one_search(&tuner, &env, &fixed, &log);
        compare_with_search(&geometry, &env, &fixed, &log, false, "seed example");
        stc_config chosen = stc_tuner_config_unpack(log.chosen);
        char name[STC_CONFIG_NAME_MAX];
        stc_config_name(&geometry, &chosen, name, sizeof name);
        CHECK(!strcmp(name, "4K_2W_32B"), "seed example chose %s", name);
        CHECK_EQ_U64(log.count, 7, "seed example examined");
        CHECK_EQ_U64(log.failed_steps, 1, "seed example failed proposals");
        CHECK_EQ_U64(log.compute, want_compute[mult], "seed example compute cycles, %s",
                     mult_name[mult]);
        CHECK_EQ_U64(stc_tuner_hw_read(&tuner, STC_TREG_COMPUTE), want_compute[mult],
                     "compute register");
        printf("seed example (7 examined): %u compute cycles with the %s multiplier "
               "(seed: 164)\n", log.compute, mult_name[mult]);
    }
}

/* The mpeg2 D-cache of Table 1 with the tuner's counters and the default
 * coefficients: 8K_1W_16B does not pay for itself, so the size walk stops
 * at 4K; 4K_2W_16B is lower; prediction is not. The heuristic picks
 * 4K_2W_16B after 6 (as in Table 1) while 8K_2W_16B, never measured, is
 * the lowest of all. */
static void test_mpeg2_case(void)
{
    stc_geometry geometry = geometry_of(4);
    stc_fixed_coefficients fixed;
    uint16_t registers[STC_TUNER_MAX_COEFS];
    default_coefficients(&geometry, &fixed, registers);
    for (unsigned mult = 0; mult < MULTS; mult++) {
        stc_tuner_hw_build build = build_of(&geometry, mult, true);
        stc_tuner_hw tuner;
        stc_tuner_hw_reset(&tuner, &build, registers);
        tuner.q.win_len = 4096;
        tuner_env env;
        tuner_env_init(&env, &geometry, 4096, 11);
        env.max_delay = 3;
        stc_config all[STC_MAX_CONFIGS];
        size_t count = stc_config_enumerate(&geometry, all, STC_MAX_CONFIGS);
        /* misses of a 4096-access window, 16 B lines; [size][ways] */
        static const unsigned misses[3][3] = {{82, 0, 0}, {34, 20, 0}, {34, 6, 6}};
        static const unsigned line_misses[3] = {100, 110, 120}; /* percent: longer lines lose */
        for (size_t i = 0; i < count; i++) {
            unsigned s = stc_log2(all[i].banks_on), w = stc_log2(all[i].ways);
            unsigned l = stc_log2(all[i].sublines);
            unsigned m = misses[s][w] * line_misses[l] / 100;
            stc_fixed_counters *c = &env.counters[stc_tuner_config_pack(&all[i])];
            c->accesses = 4096;
            c->misses = (uint16_t)m;
            c->cycles = (uint16_t)(4096 + m * 24);
            c->first_probe_hits = all[i].way_predict ? 2867 : 0; /* 70 % predicted */
        }
        search_log log;
        run_one_search(&tuner, &env, &fixed, &log);
        compare_with_search(&geometry, &env, &fixed, &log, false, "mpeg2");
        char trail[256] = "";
        for (unsigned i = 0; i < log.count; i++) {
            stc_config config = stc_tuner_config_unpack(log.candidates[i]);
            char name[STC_CONFIG_NAME_MAX];
            stc_config_name(&geometry, &config, name, sizeof name);
            strcat(trail, i ? " " : "");
            strcat(trail, name);
        }
        CHECK(!strcmp(trail, "2K_1W_16B 4K_1W_16B 8K_1W_16B 4K_1W_32B 4K_2W_16B 4K_2W_16B_P"),
              "mpeg2 trail %s", trail);
        stc_config chosen = stc_tuner_config_unpack(log.chosen);
        char name[STC_CONFIG_NAME_MAX];
        stc_config_name(&geometry, &chosen, name, sizeof name);
        CHECK(!strcmp(name, "4K_2W_16B"), "mpeg2 chose %s", name);
        /* The optimum over the same fixed-point energies is 8K_2W_16B. */
        uint32_t lowest = UINT32_MAX;
        stc_config optimum = all[0];
        for (size_t i = 0; i < count; i++) {
            uint32_t e = stc_fixed_energy(&fixed, &all[i],
                                          &env.counters[stc_tuner_config_pack(&all[i])]);
            if (e < lowest) {
                lowest = e;
                optimum = all[i];
            }
        }
        stc_config_name(&geometry, &optimum, name, sizeof name);
        CHECK(!strcmp(name, "8K_2W_16B"), "mpeg2 optimum %s", name);
        CHECK_EQ_U64(log.compute,
                     stc_tuner_hw_compute_cycles(stc_tuner_hw_step_cycles(&build), 6, 1, 1),
                     "mpeg2 compute cycles");
    }
}

/* Every step lower than the one before: every walk runs to its end, the
 * longest search (the generator's summary prints its compute cycles). */
static void test_longest_search(void)
{
    static const unsigned banks_list[] = {2, 4, 8};
    for (unsigned b = 0; b < 3; b++) {
        stc_geometry geometry = geometry_of(banks_list[b]);
        stc_fixed_coefficients fixed;
        uint16_t registers[STC_TUNER_MAX_COEFS];
        default_coefficients(&geometry, &fixed, registers);
        for (unsigned variant = 0; variant < 2 * MULTS; variant++) {
            bool wp = variant < MULTS;
            stc_tuner_hw_build build = build_of(&geometry, variant % MULTS, wp);
            stc_tuner_hw tuner;
            stc_tuner_hw_reset(&tuner, &build, registers);
            tuner_env env;
            tuner_env_init(&env, &geometry, 1024, 77);
            stc_config all[STC_MAX_CONFIGS];
            size_t count = stc_config_enumerate(&geometry, all, STC_MAX_CONFIGS);
            for (size_t i = 0; i < count; i++) {
                unsigned steps = stc_log2(all[i].banks_on) + stc_log2(all[i].ways) +
                                 stc_log2(all[i].sublines) + all[i].way_predict;
                unsigned misses = 20000u >> steps;
                unsigned cycles = 1024 + 20 * misses;
                env.counters[stc_tuner_config_pack(&all[i])] = (stc_fixed_counters){
                    1024, (uint16_t)misses, (uint16_t)(cycles > 65535 ? 65535 : cycles),
                    (uint16_t)(all[i].way_predict ? 1024 : 0)};
            }
            search_log log;
            run_one_search(&tuner, &env, &fixed, &log);
            unsigned candidates, compute;
            stc_tuner_hw_longest_search(&geometry, wp, stc_tuner_hw_step_cycles(&build),
                                        &candidates, &compute);
            CHECK_EQ_U64(log.count, candidates, "longest search B=%u variant %u: candidates",
                         banks_list[b], variant);
            CHECK_EQ_U64(log.compute, compute, "longest search B=%u variant %u: compute",
                         banks_list[b], variant);
            CHECK_EQ_U64(log.failed_steps, 4, "longest search: every walk ends by proposal");
            if (banks_list[b] == 4 && wp) {
                printf("longest search (%u examined): %u compute cycles with the %s multiplier "
                       "(seed: 164)\n", candidates, compute, mult_name[variant % MULTS]);
            }
        }
    }
}

static void test_coefficients(void)
{
    stc_geometry geometry = geometry_of(4);
    stc_fixed_coefficients fixed;
    uint16_t registers[STC_TUNER_MAX_COEFS];
    default_coefficients(&geometry, &fixed, registers);
    CHECK_EQ_U64(stc_tuner_coef_count(&geometry), 13, "B=4: 6 hit, 3 miss, 3 static, stall");
    CHECK_EQ_U64(registers[stc_tuner_coef_miss(&geometry, 2)], fixed.miss[2], "64 B miss");
    CHECK_EQ_U64(registers[stc_tuner_coef_stall(&geometry)], fixed.stall_per_cycle, "stall");
    CHECK_EQ_U64(registers[stc_tuner_coef_hit(2, 2)], fixed.hit[2][2], "hit 8K_4W");
    CHECK_EQ_U64(stc_tuner_coef_hit(2, 2), 5, "8K_4W is register 5");
    char name[32];
    stc_tuner_coef_name(&geometry, 5, name, sizeof name);
    CHECK(!strcmp(name, "hit_8K_4W"), "name %s", name);
    stc_tuner_coef_name(&geometry, 8, name, sizeof name);
    CHECK(!strcmp(name, "miss_64B"), "name %s", name);
    stc_tuner_coef_name(&geometry, 11, name, sizeof name);
    CHECK(!strcmp(name, "static_8K"), "name %s", name);
    stc_tuner_coef_name(&geometry, 12, name, sizeof name);
    CHECK(!strcmp(name, "stall"), "name %s", name);
    stc_geometry one = geometry_of(1);
    CHECK_EQ_U64(stc_tuner_coef_count(&one), 5, "B=1: no stall");
    stc_geometry many = geometry_of(32);
    CHECK_EQ_U64(stc_tuner_coef_count(&many), 31, "B=32: 21 + 3 + 6 + 1");
    CHECK(STC_TREG_COEF + 31 <= 1u << STC_TREG_ADDR_BITS, "register map holds B=32");

    for (unsigned constant = 0; constant < 2; constant++) {
        stc_tuner_hw_build build = {geometry, false, constant != 0, true};
        stc_tuner_hw tuner;
        stc_tuner_hw_reset(&tuner, &build, registers);
        CHECK_EQ_U64(stc_tuner_hw_read(&tuner, STC_TREG_COEF + 8), fixed.miss[2], "read reset value");
        stc_tuner_hw_in in = {0};
        in.reg_we = true;
        in.reg_addr = STC_TREG_COEF + 8;
        in.reg_wdata = 0x12345;
        stc_tuner_hw_step(&tuner, &in);
        CHECK_EQ_U64(stc_tuner_hw_read(&tuner, STC_TREG_COEF + 8), constant ? fixed.miss[2] : 0x2345u,
                     "coefficient write, constant=%u", constant);
        CHECK_EQ_U64(stc_tuner_hw_read(&tuner, STC_TREG_BUILD), 13u | constant << 9 | 1u << 10,
                     "build register");
        CHECK_EQ_U64(stc_tuner_hw_read(&tuner, STC_TREG_COEF + 13), 0, "beyond the last");
    }
}

/* The lean register block (--tuner-regs lean): the same search (the seed
 * example's choice and cycles, radix 16), coefficient registers written but
 * not read back, and only CTRL, WINDOW, RETUNE, THRESHOLD, STATUS [3:0],
 * CONFIG [8:0], TUNED [15:0] and BUILD readable. */
static void test_lean(void)
{
    stc_geometry geometry = geometry_of(4);
    stc_fixed_coefficients fixed;
    uint16_t registers[STC_TUNER_MAX_COEFS];
    default_coefficients(&geometry, &fixed, registers);
    stc_tuner_hw_build full = build_of(&geometry, STC_TUNER_MULT_RADIX16, true);
    stc_tuner_hw_build lean = full;
    lean.options |= STC_TUNER_OPT_LEAN_REGS;
    stc_tuner_hw a, b;
    stc_tuner_hw_reset(&a, &full, registers);
    stc_tuner_hw_reset(&b, &lean, registers);
    tuner_env env_a, env_b;
    tuner_env_init(&env_a, &geometry, 300, 3);
    set_landscape_random(&env_a, 300);
    env_b = env_a;
    a.q.win_len = b.q.win_len = 300;
    search_log log_a, log_b;
    run_one_search(&a, &env_a, &fixed, &log_a);
    run_one_search(&b, &env_b, &fixed, &log_b);
    CHECK(memcmp(&a.q, &b.q, sizeof a.q) == 0, "lean: the same flops after a search");
    CHECK_EQ_U64(log_b.compute, log_a.compute, "lean: the same compute cycles");
    for (unsigned addr = 0; addr < 1u << STC_TREG_ADDR_BITS; addr++) {
        uint32_t got = stc_tuner_hw_read(&b, addr), all = stc_tuner_hw_read(&a, addr);
        uint32_t want = addr == STC_TREG_STATUS   ? (all & 0xf)
                        : addr == STC_TREG_CONFIG ? (all & 0x1ff)
                        : addr == STC_TREG_TUNED  ? (all & 0xffff)
                        : addr == STC_TREG_BUILD  ? (all | 1u << 15)
                        : addr <= STC_TREG_THRESHOLD ? all
                                                     : 0;
        CHECK_EQ_U64(got, want, "lean: read at address %u", addr);
    }
    CHECK_EQ_U64(stc_tuner_hw_read(&b, STC_TREG_BUILD), 13u | 1u << 10 | 3u << 12 | 1u << 15,
                 "lean: build register (radix 16, lean)");
    stc_tuner_hw_in in = {0};
    in.reg_we = true;
    in.reg_addr = STC_TREG_COEF + 8;
    in.reg_wdata = 0x2345;
    stc_tuner_hw_step(&b, &in);
    CHECK_EQ_U64(b.q.coef[8], 0x2345u, "lean: coefficient written");
    CHECK_EQ_U64(stc_tuner_hw_read(&b, STC_TREG_COEF + 8), 0, "lean: coefficient not read back");
}

/* After a search the tuner monitors windows: the phase trigger fires when
 * a window's misses move by more than the threshold from the tuned
 * window's, not before; the periodic one after RETUNE windows. */
static void test_triggers(void)
{
    stc_geometry geometry = geometry_of(4);
    stc_fixed_coefficients fixed;
    uint16_t registers[STC_TUNER_MAX_COEFS];
    default_coefficients(&geometry, &fixed, registers);
    stc_tuner_hw_build build = {geometry, false, false, true};
    stc_tuner_hw tuner;
    stc_tuner_hw_reset(&tuner, &build, registers);
    const unsigned window = 256;
    tuner.q.win_len = window;
    tuner.q.phase_en = 1;
    tuner.q.thresh = 10;
    tuner_env env;
    tuner_env_init(&env, &geometry, window, 3);
    for (unsigned packed = 0; packed < 512; packed++) {
        env.counters[packed] = (stc_fixed_counters){(uint16_t)window, 40, 2000, 0};
    }
    search_log log;
    run_one_search(&tuner, &env, &fixed, &log);
    CHECK(log.finished && tuner.q.tuned, "first search done, monitoring");
    CHECK_EQ_U64(tuner.q.searches, 1, "one search");
    /* Steady windows (misses within the threshold) trigger nothing. */
    stc_tuner_hw_out out;
    stc_tuner_hw_in in;
    unsigned long cycle;
    unsigned window_cycles = tuner_env_window_cycles(&env.counters[0]) + 1;
    for (cycle = 0; cycle < 20ul * window_cycles; cycle++) {
        if (cycle == 5ul * window_cycles) {
            for (unsigned packed = 0; packed < 512; packed++) {
                env.counters[packed].misses = 50; /* moves by exactly the threshold */
            }
        }
        stc_tuner_hw_outputs(&tuner, &out);
        tuner_env_inputs(&env, &out, &in);
        unsigned searches = tuner.q.searches;
        stc_tuner_hw_step(&tuner, &in);
        CHECK_EQ_U64(tuner.q.searches, searches, "no search in a steady phase (cycle %lu)", cycle);
    }
    CHECK_EQ_U64(tuner.q.psm, STC_PSM_IDLE, "no trigger within the threshold");
    CHECK_EQ_U64(tuner.q.ref_miss, 40, "tuned window's misses");
    CHECK(tuner.q.since >= 19, "windows counted: %u", tuner.q.since);
    for (unsigned packed = 0; packed < 512; packed++) {
        env.counters[packed].misses = 51; /* one more: a phase change */
    }
    bool triggered = false;
    for (cycle = 0; cycle < 3ul * window_cycles && !triggered; cycle++) {
        stc_tuner_hw_outputs(&tuner, &out);
        tuner_env_inputs(&env, &out, &in);
        stc_tuner_hw_step(&tuner, &in);
        triggered = tuner.q.psm != STC_PSM_IDLE;
    }
    CHECK(triggered, "phase trigger fired");
    CHECK_EQ_U64(tuner.q.searches, 2, "second search");

    /* Periodic: phase off, re-tune every 3 windows. */
    tuner.q.phase_en = 0;
    tuner.q.retune = 3;
    /* Each re-tune starts after exactly 3 monitored windows. */
    unsigned long idle_cycles = 0;
    for (cycle = 0; cycle < 200000 && tuner.q.searches < 5; cycle++) {
        stc_tuner_hw_outputs(&tuner, &out);
        tuner_env_inputs(&env, &out, &in);
        bool monitoring = tuner.q.psm == STC_PSM_IDLE && tuner.q.tuned;
        unsigned searches = tuner.q.searches;
        stc_tuner_hw_step(&tuner, &in);
        idle_cycles += monitoring;
        if (tuner.q.searches != searches) {
            CHECK_EQ_U64(idle_cycles, 3ul * window_cycles, "periodic: 3 windows monitored");
            idle_cycles = 0;
        }
    }
    CHECK_EQ_U64(tuner.q.searches, 5, "periodic re-tunes");
}

/* Built without triggers: the same search, flop for flop; afterwards no
 * window is counted and nothing restarts it, with the triggers' registers
 * written as test_triggers sets them; their reads are 0; software's start
 * still starts a search. */
static void test_no_triggers(void)
{
    stc_geometry geometry = geometry_of(4);
    stc_fixed_coefficients fixed;
    uint16_t registers[STC_TUNER_MAX_COEFS];
    default_coefficients(&geometry, &fixed, registers);
    stc_tuner_hw_build with = build_of(&geometry, STC_TUNER_MULT_RADIX16, true);
    stc_tuner_hw_build without = with;
    without.options |= STC_TUNER_OPT_NO_TRIGGERS;
    stc_tuner_hw a, b;
    stc_tuner_hw_reset(&a, &with, registers);
    stc_tuner_hw_reset(&b, &without, registers);
    const unsigned window = 200;
    tuner_env env_a, env_b;
    tuner_env_init(&env_a, &geometry, window, 5);
    set_landscape_random(&env_a, window);
    env_b = env_a;
    a.q.win_len = b.q.win_len = window;
    search_log log_a, log_b;
    run_one_search(&a, &env_a, &fixed, &log_a);
    run_one_search(&b, &env_b, &fixed, &log_b);
    CHECK(memcmp(&a.q, &b.q, sizeof a.q) == 0, "no triggers: the same flops after a search");
    CHECK_EQ_U64(log_b.compute, log_a.compute, "no triggers: the same compute cycles");
    static const struct {
        unsigned addr;
        uint32_t data;
    } writes[] = {{STC_TREG_CTRL, 2}, {STC_TREG_RETUNE, 1}, {STC_TREG_THRESHOLD, 0}};
    for (size_t i = 0; i < sizeof writes / sizeof writes[0]; i++) {
        stc_tuner_hw_in in = {0};
        in.reg_we = true;
        in.reg_addr = writes[i].addr;
        in.reg_wdata = writes[i].data;
        stc_tuner_hw_step(&b, &in);
    }
    for (unsigned addr = 0; addr < 1u << STC_TREG_ADDR_BITS; addr++) {
        uint32_t got = stc_tuner_hw_read(&b, addr), all = stc_tuner_hw_read(&a, addr);
        uint32_t want = addr == STC_TREG_CTRL || addr == STC_TREG_RETUNE ||
                                addr == STC_TREG_THRESHOLD || addr == STC_TREG_TUNED
                            ? 0
                        : addr == STC_TREG_STATUS ? (all & ~UINT32_C(0xc))
                        : addr == STC_TREG_BUILD  ? (all | 1u << 16)
                                                  : all;
        CHECK_EQ_U64(got, want, "no triggers: read at address %u", addr);
    }
    for (unsigned packed = 0; packed < 512; packed++) {
        env_b.counters[packed].misses = (uint16_t)(env_b.counters[packed].misses + 50);
    }
    stc_tuner_hw_out out;
    stc_tuner_hw_in in;
    unsigned window_cycles = tuner_env_window_cycles(&env_b.counters[0]) + 1;
    for (unsigned long cycle = 0; cycle < 10ul * window_cycles; cycle++) {
        stc_tuner_hw_outputs(&b, &out);
        tuner_env_inputs(&env_b, &out, &in);
        stc_tuner_hw_step(&b, &in);
        if (b.q.psm != STC_PSM_IDLE || b.q.acc != 0) {
            CHECK(false, "no triggers: idle and counting nothing after the search (cycle %lu)",
                  cycle);
            break;
        }
    }
    CHECK_EQ_U64(b.q.searches, 1, "no triggers: one search");
    stc_tuner_hw_in start = {0};
    start.reg_we = true;
    start.reg_addr = STC_TREG_CTRL;
    start.reg_wdata = 1;
    stc_tuner_hw_step(&b, &start);
    CHECK(b.q.psm != STC_PSM_IDLE && b.q.searches == 2, "no triggers: software starts a search");
}

int main(void)
{
    test_coefficients();
    test_lean();
    test_no_triggers();
    test_seed_example();
    test_mpeg2_case();
    test_longest_search();
    test_random_landscapes();
    test_triggers();
    return check_done("test_tuner_hw");
}
