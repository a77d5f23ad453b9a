/*
 * test_monitor_tuner.c - the monitor tuner's decision unit
 * (ref/monitor_tuner.h, docs/ARCHITECTURE.md section 18).
 *
 * Oracles that do not share the unit's code: the monitor's own estimate
 * (stc_monitor_estimate, itself equal to 27 real caches in test_monitor.c)
 * for the count map, and stc_fixed_monitor_energy for every energy the
 * program computes step by step. Then the unit's timing rules: one step
 * per access, the window, the margin, the configuration handshake, the
 * enable bit, and a window without a watched access.
 */
#include "check.h"
#include "config.h"
#include "energy.h"
#include "fixed.h"
#include "geometry.h"
#include "monitor.h"
#include "monitor_tuner.h"
#include "tuner_hw.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { ERR_LEN = 256, MAX_COUNTS = 512 };

typedef struct {
    stc_geometry geometry;
    stc_energy_table table;
    stc_fixed_monitor_coefficients coefficients;
    stc_monitor *monitor;
    stc_monitor_program program;
    bool read_only;
} fixture;

static uint32_t next_random(uint32_t *state)
{
    uint32_t x = *state ? *state : 1;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}

static bool fixture_open(fixture *f, const char *assignments, bool read_only)
{
    char err[ERR_LEN] = "";
    memset(f, 0, sizeof *f);
    f->read_only = read_only;
    stc_geometry_default(&f->geometry);
    if (stc_geometry_parse(&f->geometry, assignments, err, sizeof err) != 0 ||
        stc_energy_default(&f->geometry, &f->table, err, sizeof err) != 0 ||
        stc_fixed_monitor_from_table(&f->table, &f->coefficients, err, sizeof err) != 0) {
        CHECK(false, "fixture %s: %s", assignments, err);
        return false;
    }
    stc_monitor_shape shape = {2, 3000, 8, read_only, 16, true, false};
    f->monitor = stc_monitor_create(&f->geometry, &shape, err, sizeof err);
    CHECK(f->monitor != NULL, "%s", err);
    if (!f->monitor) {
        return false;
    }
    int built = stc_monitor_program_build(f->monitor, &f->geometry, &f->coefficients, read_only,
                                          true, &f->program, err, sizeof err);
    CHECK(built == 0, "program: %s", err);
    return built == 0;
}

/* A program-like stream into the monitor: hot lines, runs, far lines. */
static void feed(fixture *f, uint32_t *rng, unsigned accesses)
{
    uint64_t run = 0;
    for (unsigned index = 0; index < accesses; index++) {
        uint32_t pick = next_random(rng) % 100;
        uint64_t line;
        if (pick < 55) {
            line = (uint64_t)(next_random(rng) % 300) * 7;
        } else if (pick < 85) {
            line = ++run;
        } else {
            line = next_random(rng) % 100000;
        }
        bool write = !f->read_only && next_random(rng) % 100 < 30;
        stc_monitor_observe(f->monitor, line << f->geometry.offset_bits, write);
    }
}

/* The count map reads, for every configuration, what the monitor's own
 * estimate says. */
static void check_count_map(fixture *f)
{
    uint64_t counts[MAX_COUNTS];
    size_t count = stc_monitor_counts(f->monitor, counts, MAX_COUNTS);
    stc_config configs[STC_MAX_CONFIGS];
    size_t config_count = stc_config_enumerate(&f->geometry, configs, STC_MAX_CONFIGS);
    for (size_t index = 0; index < config_count; index++) {
        stc_config config = configs[index];
        stc_monitor_count_map map;
        CHECK(stc_monitor_count_map_of(f->monitor, &config, &map) == 0, "config %zu", index);
        uint64_t misses = counts[0]; /* watched, less the hits above the ways */
        for (unsigned term = 0; term < map.hit_terms; term++) {
            CHECK(map.hits[term] < count, "index in range");
            misses -= misses < counts[map.hits[term]] ? misses : counts[map.hits[term]];
        }
        config.way_predict = config.ways > 1;
        stc_counters estimate;
        stc_monitor_estimate(f->monitor, &config, &estimate);
        CHECK_EQ_U64(counts[0], estimate.accesses, "watched, config %zu", index);
        CHECK_EQ_U64(misses, estimate.misses, "misses, config %zu", index);
        CHECK_EQ_U64(counts[map.writebacks], estimate.writebacks, "writebacks, config %zu", index);
        if (config.way_predict) {
            CHECK_EQ_U64(counts[map.first_probe_hits], estimate.first_probe_hits,
                         "first-probe hits, config %zu", index);
        }
    }
}

/* One clock of the unit with the monitor frozen: the count it selects. */
static void clock_unit(stc_monitor_tuner *unit, const uint64_t *counts,
                       const stc_monitor_tuner_in *base)
{
    stc_monitor_tuner_in in = *base;
    uint64_t value = counts[stc_monitor_tuner_count_select(unit)];
    in.count = (uint16_t)(value > 0xffff ? 0xffff : value);
    in.watched = (uint16_t)(counts[0] > 0xffff ? 0xffff : counts[0]);
    stc_monitor_tuner_step(unit, &in);
}

/* The 16-bit counts the decision reads for config (as ref/tune.c's
 * window-level decision reads them). */
static stc_fixed_monitor_counts decision_counts(const fixture *f, const stc_config *config)
{
    stc_counters estimate;
    stc_monitor_estimate(f->monitor, config, &estimate);
    stc_fixed_monitor_counts counts = {
        .accesses = (uint16_t)stc_counter_saturate(estimate.accesses, 16),
        .misses = (uint16_t)stc_counter_saturate(estimate.misses, 16),
        .first_probe_hits = (uint16_t)stc_counter_saturate(estimate.first_probe_hits, 16),
        .writebacks = (uint16_t)stc_counter_saturate(estimate.writebacks, 16),
    };
    return counts;
}

/* With the counts frozen, a decision computes stc_fixed_monitor_energy of
 * every configuration: run it once per configuration "in use" and read
 * the current energy; the lowest and the choice are the first minimum. */
static void check_energies(fixture *f, unsigned margin)
{
    uint64_t counts[MAX_COUNTS];
    stc_monitor_counts(f->monitor, counts, MAX_COUNTS);
    stc_config configs[STC_MAX_CONFIGS];
    size_t config_count = stc_config_enumerate(&f->geometry, configs, STC_MAX_CONFIGS);
    CHECK_EQ_U64(f->program.config_count, config_count, "configurations closed");
    uint32_t energies[STC_MAX_CONFIGS];
    size_t lowest = 0;
    for (size_t index = 0; index < config_count; index++) {
        stc_fixed_monitor_counts fixed = decision_counts(f, &configs[index]);
        energies[index] = stc_fixed_monitor_energy(&f->coefficients, &configs[index], &fixed);
        if (energies[index] < energies[lowest]) {
            lowest = index;
        }
    }
    stc_monitor_tuner_build build = {4, margin, 0};
    for (size_t index = 0; index < config_count; index++) {
        stc_monitor_tuner unit;
        char err[ERR_LEN];
        CHECK(stc_monitor_tuner_reset(&unit, &build, &f->program, err, sizeof err) == 0, "%s",
              err);
        stc_monitor_tuner_in in = {.current_code = stc_tuner_config_pack(&configs[index])};
        in.ev_access = true;
        for (unsigned access = 0; access < build.window; access++) {
            clock_unit(&unit, counts, &in);
        }
        CHECK(unit.q.deciding == (counts[0] != 0), "the window's last access starts it");
        /* Idle cycles between the accesses change nothing. */
        for (size_t steps = 0, clock = 0; steps < f->program.step_count; clock++) {
            in.ev_access = clock % 3 != 1;
            clock_unit(&unit, counts, &in);
            steps += in.ev_access;
        }
        CHECK(!unit.q.deciding, "decided after %zu steps", f->program.step_count);
        CHECK_EQ_U64(unit.q.current, energies[index], "energy of configuration %zu", index);
        CHECK_EQ_U64(unit.q.lowest, energies[lowest], "lowest");
        CHECK_EQ_U64(unit.q.lowest_code, stc_tuner_config_pack(&configs[lowest]), "choice");
        uint32_t bar = energies[index] - (margin ? energies[index] >> margin : 0);
        bool move = energies[lowest] < bar;
        stc_monitor_tuner_out out;
        stc_monitor_tuner_outputs(&unit, &out);
        CHECK(out.cfg_valid == move && out.busy == move, "configuration %zu: move %d", index,
              move);
        if (move) {
            CHECK_EQ_U64(out.cfg_code, stc_tuner_config_pack(&configs[lowest]), "offered");
        }
        CHECK_EQ_U64(stc_monitor_tuner_read(&unit, STC_MREG_STATUS),
                     (move ? 1u : 0u) | 1u << 8 | (move ? 1u : 0u) << 16, "status");
    }
}

static void test_against_oracles(void)
{
    const char *geometries[] = {"banks=4", "banks=8,bank_bytes=4096,line_bytes=32", "banks=2",
                                "banks=1"};
    uint32_t rng = 0x1234567u;
    for (size_t g = 0; g < sizeof geometries / sizeof geometries[0]; g++) {
        for (int read_only = 0; read_only <= 1; read_only++) {
            fixture f;
            if (!fixture_open(&f, geometries[g], read_only)) {
                stc_monitor_destroy(f.monitor);
                continue;
            }
            printf("test_monitor_tuner: %s%s: %zu configurations, %zu steps, %zu coefficients\n",
                   geometries[g], read_only ? " (I-cache)" : "", f.program.config_count,
                   f.program.step_count, f.program.coefficient_count);
            for (unsigned round = 0; round < 3; round++) {
                feed(&f, &rng, 4000 + round * 20000);
                check_count_map(&f);
                check_energies(&f, round == 0 ? 0 : 6);
            }
            stc_monitor_destroy(f.monitor);
        }
    }
}

/* The default geometry's program in numbers: one step per load, products
 * alongside, so the decision is the loads plus a few. */
static void test_default_program(void)
{
    fixture f;
    if (!fixture_open(&f, "banks=4", false)) {
        stc_monitor_destroy(f.monitor);
        return;
    }
    size_t loads = 0, macs = 0, closes = 0;
    for (size_t index = 0; index < f.program.step_count; index++) {
        const stc_monitor_step *step = &f.program.steps[index];
        loads += step->operand != STC_OPERAND_KEEP;
        macs += step->mac;
        closes += step->close;
    }
    /* 27 configurations: misses 1 + (log2 W - log2 a) loads, a writeback,
     * a probe operand, and for the 9 with prediction a first-probe one;
     * 3 products, or 5 with prediction. */
    CHECK_EQ_U64(closes, 27, "closes");
    CHECK_EQ_U64(macs, 18 * 3 + 9 * 5, "products");
    CHECK(f.program.step_count < STC_MONITOR_TUNER_DEFAULT_WINDOW,
          "a decision fits in a window: %zu steps", f.program.step_count);
    CHECK_EQ_U64(f.program.coefficient_count, 20, "coefficients used");
    printf("test_monitor_tuner: default D-cache program: %zu steps (%zu loads, %zu products)\n",
           f.program.step_count, loads, macs);
    stc_monitor_destroy(f.monitor);
}

/* Timing: the window, a busy decision ignoring a window end, the
 * handshake, the enable bit, nothing watched. */
static void test_timing(void)
{
    fixture f;
    if (!fixture_open(&f, "banks=4", false)) {
        stc_monitor_destroy(f.monitor);
        return;
    }
    uint64_t counts[MAX_COUNTS];
    memset(counts, 0, sizeof counts);
    stc_monitor_tuner unit;
    char err[ERR_LEN];
    stc_monitor_tuner_build build = {8, 6, 0};
    CHECK(stc_monitor_tuner_reset(&unit, &build, &f.program, err, sizeof err) == 0, "%s", err);
    stc_monitor_tuner_in in = {.ev_access = true, .current_code = 0};
    /* Nothing watched: window ends, no decision. */
    for (unsigned access = 0; access < 3 * build.window; access++) {
        clock_unit(&unit, counts, &in);
        CHECK(!unit.q.deciding, "nothing watched, access %u", access);
    }
    /* Misses in 1 bank direct-mapped only: everything else is cheaper. */
    uint32_t rng = 99;
    feed(&f, &rng, 20000);
    stc_monitor_counts(f.monitor, counts, MAX_COUNTS);
    for (unsigned access = 0; access < build.window - 1; access++) {
        clock_unit(&unit, counts, &in);
    }
    CHECK(!unit.q.deciding, "not before the window's last access");
    clock_unit(&unit, counts, &in);
    CHECK(unit.q.deciding && unit.q.watched == counts[0], "the last access starts it");
    /* A window ends while deciding (window 8 < steps): nothing restarts. */
    for (size_t step = 0; step + 1 < f.program.step_count; step++) {
        clock_unit(&unit, counts, &in);
        CHECK(unit.q.deciding && unit.q.step == step + 1, "step %zu", step);
    }
    clock_unit(&unit, counts, &in);
    stc_monitor_tuner_out out;
    stc_monitor_tuner_outputs(&unit, &out);
    CHECK(!unit.q.deciding && out.cfg_valid && out.busy, "a move from 512B_1W_16B");
    /* The offer stays until ready; done later; then free. Accesses do not
     * happen meanwhile, and a window end cannot start a decision. */
    stc_monitor_tuner_in wait = {.current_code = 0};
    clock_unit(&unit, counts, &wait);
    stc_monitor_tuner_outputs(&unit, &out);
    CHECK(out.cfg_valid, "held until accepted");
    wait.cfg_ready = true;
    clock_unit(&unit, counts, &wait);
    stc_monitor_tuner_outputs(&unit, &out);
    CHECK(!out.cfg_valid && out.busy, "accepted, waiting for done");
    wait.cfg_ready = false;
    wait.cfg_done = true;
    clock_unit(&unit, counts, &wait);
    stc_monitor_tuner_outputs(&unit, &out);
    CHECK(!out.busy, "done");
    /* Done in the accepting cycle. */
    unit.q.pending = 1;
    wait.cfg_ready = true;
    clock_unit(&unit, counts, &wait);
    stc_monitor_tuner_outputs(&unit, &out);
    CHECK(!out.busy, "done with the acceptance");
    /* The same decision with every count halved before its last step
     * (the monitor's counts filled up meanwhile): the last step reads
     * count 0 below watched_q and offers nothing, though the energies
     * say move. */
    uint64_t halved[MAX_COUNTS];
    for (size_t index = 0; index < MAX_COUNTS; index++) {
        halved[index] = counts[index] / 2;
    }
    while (unit.q.win != build.window - 1) {
        clock_unit(&unit, counts, &in);
    }
    clock_unit(&unit, counts, &in);
    CHECK(unit.q.deciding && unit.q.step == 0, "a second decision started");
    for (size_t step = 0; step + 1 < f.program.step_count; step++) {
        clock_unit(&unit, counts, &in);
    }
    uint32_t decisions = unit.q.decisions, changes = unit.q.changes;
    stc_monitor_tuner unhalved = unit;
    clock_unit(&unhalved, counts, &in);
    clock_unit(&unit, halved, &in);
    stc_monitor_tuner_outputs(&unhalved, &out);
    CHECK(out.cfg_valid, "without the halving the decision moves");
    stc_monitor_tuner_outputs(&unit, &out);
    CHECK(!unit.q.deciding && !out.cfg_valid && !out.busy, "a halving inside the decision: no move");
    CHECK_EQ_U64(unit.q.decisions, decisions + 1, "the decision counts");
    CHECK_EQ_U64(unit.q.changes, changes, "no change offered");
    /* Disabled: windows end, nothing decides; the register reads back. */
    stc_monitor_tuner_in write = {.reg_we = true, .reg_addr = STC_MREG_CTRL, .reg_wdata = 0};
    clock_unit(&unit, counts, &write);
    CHECK_EQ_U64(stc_monitor_tuner_read(&unit, STC_MREG_CTRL), 0, "disabled");
    for (unsigned access = 0; access < 3 * build.window; access++) {
        clock_unit(&unit, counts, &in);
        CHECK(!unit.q.deciding, "disabled, access %u", access);
    }
    CHECK_EQ_U64(stc_monitor_tuner_read(&unit, 7), 0, "unmapped address");
    /* Builds out of range. */
    stc_monitor_tuner_build bad_window = {1, 6, 0}, bad_margin = {256, 17, 0};
    CHECK(stc_monitor_tuner_reset(&unit, &bad_window, &f.program, err, sizeof err) != 0 &&
              strstr(err, "window 1") != NULL,
          "%s", err);
    CHECK(stc_monitor_tuner_reset(&unit, &bad_margin, &f.program, err, sizeof err) != 0 &&
              strstr(err, "margin 17") != NULL,
          "%s", err);
    stc_monitor_destroy(f.monitor);
}

/* A change that walks (fewer banks, or more bank groups) is offered only
 * from a decision on at least walk_min watched accesses; any other change
 * whenever it is lower. Every configuration in use, walk_min just at and
 * just above the watched count: the rule is written here from
 * ARCHITECTURE.md 7 and 18.3, not taken from the model. */
static void test_walk_evidence(void)
{
    fixture f;
    if (!fixture_open(&f, "banks=4", false)) {
        stc_monitor_destroy(f.monitor);
        return;
    }
    /* A hot set of 24 lines: a small cache is the lowest, so most
     * configurations in use would walk to it. */
    uint32_t rng = 7;
    for (unsigned access = 0; access < 20000; access++) {
        uint64_t line = next_random(&rng) % 24;
        stc_monitor_observe(f.monitor, line << f.geometry.offset_bits, next_random(&rng) % 4 == 0);
    }
    uint64_t counts[MAX_COUNTS];
    memset(counts, 0, sizeof counts);
    stc_monitor_counts(f.monitor, counts, MAX_COUNTS);
    uint32_t watched = (uint32_t)counts[0];
    CHECK(watched > 0 && watched < 0xffff, "watched %u", (unsigned)watched);
    stc_config configs[STC_MAX_CONFIGS];
    size_t config_count = stc_config_enumerate(&f.geometry, configs, STC_MAX_CONFIGS);
    unsigned held = 0, walked = 0, free_moves = 0;
    for (size_t index = 0; index < config_count; index++) {
        const stc_config *in_use = &configs[index];
        for (uint32_t walk_min = watched; walk_min <= watched + 1; walk_min++) {
            stc_monitor_tuner unit;
            char err[ERR_LEN];
            stc_monitor_tuner_build build = {8, 0, walk_min};
            CHECK(stc_monitor_tuner_reset(&unit, &build, &f.program, err, sizeof err) == 0, "%s",
                  err);
            stc_monitor_tuner_in in = {.ev_access = true,
                                       .current_code = stc_tuner_config_pack(in_use)};
            for (unsigned access = 0; access < build.window + f.program.step_count; access++) {
                clock_unit(&unit, counts, &in);
            }
            CHECK(!unit.q.deciding && unit.q.decisions == 1, "one decision, config %zu", index);
            stc_config lowest = stc_tuner_config_unpack(unit.q.lowest_code);
            bool walks = lowest.banks_on < in_use->banks_on ||
                         lowest.banks_on / lowest.ways > in_use->banks_on / in_use->ways;
            bool lower = unit.q.lowest < unit.q.current;
            stc_monitor_tuner_out out;
            stc_monitor_tuner_outputs(&unit, &out);
            CHECK_EQ_U64(out.cfg_valid, lower && (!walks || watched >= walk_min),
                         "config %zu, walk_min %u, walks %d", index, (unsigned)walk_min, walks);
            held += lower && walks && !out.cfg_valid;
            walked += lower && walks && out.cfg_valid;
            free_moves += lower && !walks && out.cfg_valid;
        }
    }
    CHECK(held > 0 && walked > 0 && free_moves > 0,
          "cases: held %u, walks offered %u, other changes %u", held, walked, free_moves);
    stc_monitor_tuner unit;
    char err[ERR_LEN];
    stc_monitor_tuner_build bad = {256, 6, 65536};
    CHECK(stc_monitor_tuner_reset(&unit, &bad, &f.program, err, sizeof err) != 0 &&
              strstr(err, "65536") != NULL,
          "%s", err);
    stc_monitor_destroy(f.monitor);
}

/* A cache built without way prediction refuses the configurations with it
 * (ARCHITECTURE.md 15.2): its unit's program closes none of them, so it can
 * never offer one. */
static void test_without_way_prediction(void)
{
    fixture f;
    if (!fixture_open(&f, "banks=4", false)) {
        stc_monitor_destroy(f.monitor);
        return;
    }
    stc_monitor_program *plain = malloc(sizeof *plain);
    char err[ERR_LEN] = "";
    CHECK(plain != NULL && stc_monitor_program_build(f.monitor, &f.geometry, &f.coefficients, false,
                                                     false, plain, err, sizeof err) == 0,
          "%s", err);
    if (plain) {
        stc_config configs[STC_MAX_CONFIGS];
        size_t count = stc_config_enumerate(&f.geometry, configs, STC_MAX_CONFIGS), without = 0;
        for (size_t index = 0; index < count; index++) {
            without += !configs[index].way_predict;
        }
        CHECK_EQ_U64(plain->config_count, without, "configurations closed");
        size_t closes = 0;
        for (size_t step = 0; step < plain->step_count; step++) {
            if (plain->steps[step].close) {
                closes++;
                CHECK(!stc_tuner_config_unpack(plain->steps[step].config_code).way_predict,
                      "step %zu closes a configuration with prediction", step);
            }
        }
        CHECK_EQ_U64(closes, without, "one close per configuration");
        CHECK(plain->step_count < f.program.step_count, "%zu steps, with prediction %zu",
              plain->step_count, f.program.step_count);
    }
    free(plain);
    stc_monitor_destroy(f.monitor);
}

int main(void)
{
    test_default_program();
    test_against_oracles();
    test_timing();
    test_walk_evidence();
    test_without_way_prediction();
    return check_done("test_monitor_tuner");
}
