/*
 * test_fixed.c - the tuner's fixed-point arithmetic (fixed.h,
 * docs/FIXED_POINT.md):
 * - the unit, rounding and clamping of stc_fixed_from_table on tables
 *   worked out by hand, and its refusals;
 * - energies worked out by hand, step by step through the schedule;
 * - the extremes: every counter saturated with the largest coefficients a
 *   table can give (exact, no saturation; at most 2^32 - 2^16, the sum
 *   budget's boundary), hand-loaded coefficients that must saturate at
 *   2^32 - 1 and stay there, zero accesses;
 * - every coefficient of many tables within the documented error of its
 *   float value, nonzero stays nonzero, the unit the finest allowed;
 * - on synthetic counter sets (a simple cache model) the fixed-point energy
 *   within its error bound of the float model, and the two ordering every
 *   pair of configurations the same way whenever their float energies
 *   differ by more than the bounds;
 * - when build/traces holds real traces: the same order comparison on the
 *   LRU-stack counters of every configuration, scaled into one 16-bit
 *   window, with every inversion against the full float model reported
 *   with its cause (skipped, with a note, when there are no traces).
 */
#include "check.h"
#include "config.h"
#include "counters.h"
#include "energy.h"
#include "fixed.h"
#include "geometry.h"
#include "stack.h"
#include "sweep.h"
#include "trace.h"

#include <glob.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { ERR_LEN = 512 };

/* Doubles add in a different order than the integers; this much relative
 * slack covers their rounding and nothing else. */
#define FLOAT_SLACK 1e-9

/* ------------------------------------------------------------------------ */
/* Deterministic randomness (no global state)                               */
/* ------------------------------------------------------------------------ */

static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 33;
}

/* Uniform in [0, 1). */
static double random_unit(uint64_t *state)
{
    return (double)next_random(state) / (double)(1ULL << 31);
}

/* Log-uniform in [low, high]. */
static double random_log(uint64_t *state, double low, double high)
{
    return low * pow(high / low, random_unit(state));
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

static stc_geometry make_geometry(const char *assignments)
{
    stc_geometry geometry;
    char err[ERR_LEN];
    stc_geometry_default(&geometry);
    if (stc_geometry_parse(&geometry, assignments, err, sizeof err) != 0) {
        fprintf(stderr, "test_fixed: geometry %s: %s\n", assignments, err);
        abort();
    }
    return geometry;
}

static unsigned size_count(const stc_geometry *geometry)
{
    return stc_log2(geometry->banks) + 1;
}

/* A table of zeros for geometry, to be filled in by hand. */
static stc_energy_table blank_table(const stc_geometry *geometry, const char *source)
{
    stc_energy_table table;
    memset(&table, 0, sizeof table);
    table.geometry = *geometry;
    snprintf(table.source, sizeof table.source, "%s", source);
    return table;
}

static stc_fixed_counters make_counters(unsigned accesses, unsigned misses, unsigned cycles,
                                        unsigned first_probe_hits)
{
    stc_fixed_counters counters = {(uint16_t)accesses, (uint16_t)misses, (uint16_t)cycles,
                                   (uint16_t)first_probe_hits};
    return counters;
}

static stc_config make_config(unsigned banks_on, unsigned ways, unsigned sublines,
                              bool way_predict)
{
    stc_config config = {banks_on, ways, sublines, way_predict};
    return config;
}

/* The float model's energy of the tuner's three terms (probe, miss,
 * static) for the counts the tuner holds. */
static double float_tuner_nj(const stc_energy_table *table, const stc_config *config,
                             const stc_fixed_counters *fixed)
{
    stc_counters counters;
    memset(&counters, 0, sizeof counters);
    counters.requests = fixed->accesses;
    counters.accesses = fixed->accesses;
    counters.misses = fixed->misses;
    counters.cycles = fixed->cycles;
    counters.first_probe_hits = config->way_predict ? fixed->first_probe_hits : 0;
    stc_energy energy = stc_energy_of(table, config, &counters);
    return energy.probe_nj + energy.miss_nj + energy.static_nj;
}

/* How far fixed x nj_per_unit may be from the float energy: each count
 * times how far its coefficient is from the float value (exact per
 * coefficient, so this is the tightest bound the rounding allows). */
static double error_bound_nj(const stc_energy_table *table,
                             const stc_fixed_coefficients *coefficients, const stc_config *config,
                             const stc_fixed_counters *counters)
{
    const double unit = coefficients->nj_per_unit;
    const unsigned size_index = stc_log2(config->banks_on);
    const unsigned ways_index = stc_log2(config->ways);
    const unsigned line_index = stc_log2(config->sublines);
    unsigned first_probe_hits = 0;
    if (config->way_predict) {
        first_probe_hits = counters->first_probe_hits < counters->accesses
                               ? counters->first_probe_hits
                               : counters->accesses;
    }
    const unsigned full_probes = counters->accesses - first_probe_hits;
    double bound = first_probe_hits * fabs(coefficients->hit[size_index][0] * unit -
                                           table->hit_nj[size_index][0]);
    if (config->way_predict) {
        bound += full_probes *
                 fabs(coefficients->stall_per_cycle * unit - table->stall_nj_per_cycle);
    }
    bound += full_probes * fabs(coefficients->hit[size_index][ways_index] * unit -
                                table->hit_nj[size_index][ways_index]);
    bound += counters->misses *
             fabs(coefficients->miss[line_index] * unit - table->miss_nj[line_index]);
    bound += counters->cycles * fabs(coefficients->static_per_cycle[size_index] * unit -
                                     table->static_nj_per_cycle[size_index]);
    return bound;
}

static int compare_doubles(double left, double right)
{
    return (left > right) - (left < right);
}

static int compare_u32(uint32_t left, uint32_t right)
{
    return (left > right) - (left < right);
}

/* ------------------------------------------------------------------------ */
/* Hand-made tables                                                          */
/* ------------------------------------------------------------------------ */

/*
 * Table A (default geometry, 4 banks). Largest hit 1.0 nJ, miss 4.0 nJ,
 * static 0.5 nJ. A unit of 2^-14 nJ would make the miss 65536 (over 16
 * bits); 2^-13 nJ makes them 8192 + 32768 + 4096 = 45056 <= 65536. So
 * unit = 2^-13 nJ, and:
 *   hit[0][0] = 0.3 nJ       -> 2457.6 -> 2458 (rounded to nearest)
 *   hit[1][0] = 2.5 units    -> 3 (a half rounds up)
 *   hit[1][1] = 0.1 units    -> 1 (nonzero never becomes 0)
 *   hit[2][0..2] = 0.25, 0.5, 1.0 nJ -> 2048, 4096, 8192
 *   miss = 1, 2, 4 nJ        -> 8192, 16384, 32768
 *   static = 0.125, 0.25, 0.5 nJ -> 1024, 2048, 4096
 *   stall = 0.125 nJ          -> 1024
 * (The largest probe coefficient is then 8192 + 1024, and
 * 9216 + 32768 + 4096 <= 65536.)
 */
static stc_energy_table table_a(void)
{
    stc_geometry geometry = make_geometry("banks=4");
    stc_energy_table table = blank_table(&geometry, "hand table A");
    const double unit = ldexp(1.0, -13);
    table.hit_nj[0][0] = 0.3;
    table.hit_nj[1][0] = 2.5 * unit;
    table.hit_nj[1][1] = 0.1 * unit;
    table.hit_nj[2][0] = 0.25;
    table.hit_nj[2][1] = 0.5;
    table.hit_nj[2][2] = 1.0;
    table.miss_nj[0] = 1.0;
    table.miss_nj[1] = 2.0;
    table.miss_nj[2] = 4.0;
    table.static_nj_per_cycle[0] = 0.125;
    table.static_nj_per_cycle[1] = 0.25;
    table.static_nj_per_cycle[2] = 0.5;
    table.stall_nj_per_cycle = 0.125;
    return table;
}

static void test_table_a_coefficients(void)
{
    stc_energy_table table = table_a();
    /* Entries no configuration uses must not matter, whatever they hold. */
    table.hit_nj[0][1] = -5.0;
    table.hit_nj[1][2] = NAN;
    table.static_nj_per_cycle[3] = 1e30;
    stc_fixed_coefficients coefficients;
    char err[ERR_LEN] = "";
    CHECK(stc_fixed_from_table(&table, &coefficients, err, sizeof err) == 0, "table A: %s", err);
    CHECK(coefficients.nj_per_unit == ldexp(1.0, -13), "unit %g, want 2^-13",
          coefficients.nj_per_unit);
    CHECK_EQ_U64(coefficients.hit[0][0], 2458, "0.3 nJ rounds to nearest");
    CHECK_EQ_U64(coefficients.hit[1][0], 3, "2.5 units round half up");
    CHECK_EQ_U64(coefficients.hit[1][1], 1, "0.1 units clamps to 1");
    CHECK_EQ_U64(coefficients.hit[2][0], 2048, "hit 8K 1-way");
    CHECK_EQ_U64(coefficients.hit[2][1], 4096, "hit 8K 2-way");
    CHECK_EQ_U64(coefficients.hit[2][2], 8192, "hit 8K 4-way");
    CHECK_EQ_U64(coefficients.miss[0], 8192, "miss 16 B");
    CHECK_EQ_U64(coefficients.miss[1], 16384, "miss 32 B");
    CHECK_EQ_U64(coefficients.miss[2], 32768, "miss 64 B");
    CHECK_EQ_U64(coefficients.static_per_cycle[0], 1024, "static 2K");
    CHECK_EQ_U64(coefficients.static_per_cycle[1], 2048, "static 4K");
    CHECK_EQ_U64(coefficients.static_per_cycle[2], 4096, "static 8K");
    CHECK_EQ_U64(coefficients.stall_per_cycle, 1024, "stall");
    /* Registers that do not exist are 0. */
    CHECK_EQ_U64(coefficients.hit[0][1], 0, "illegal pair");
    CHECK_EQ_U64(coefficients.hit[1][2], 0, "illegal pair");
    CHECK_EQ_U64(coefficients.static_per_cycle[3], 0, "size the geometry lacks");
    CHECK_EQ_U64(coefficients.hit[5][5], 0, "size the geometry lacks");

    /* A coefficient of exactly 0 stays 0: a table may declare a term free. */
    table.static_nj_per_cycle[0] = 0.0;
    CHECK(stc_fixed_from_table(&table, &coefficients, err, sizeof err) == 0, "%s", err);
    CHECK_EQ_U64(coefficients.static_per_cycle[0], 0, "zero stays zero");
}

/* The sum budget, not the largest coefficient, decides the unit: hit 0.9,
 * miss 1.0, static 0.5 nJ. At 2^-15 nJ the miss is 32768 (it would fit),
 * but 29491 + 32768 + 16384 = 78643 > 65536; at 2^-14 nJ the sum is
 * 14746 + 16384 + 8192 = 39322. */
static void test_sum_budget_decides_unit(void)
{
    stc_geometry geometry = make_geometry("banks=4");
    stc_energy_table table = blank_table(&geometry, "hand table B");
    table.hit_nj[0][0] = 0.9;
    table.miss_nj[0] = 1.0;
    table.static_nj_per_cycle[2] = 0.5;
    stc_fixed_coefficients coefficients;
    char err[ERR_LEN] = "";
    CHECK(stc_fixed_from_table(&table, &coefficients, err, sizeof err) == 0, "table B: %s", err);
    CHECK(coefficients.nj_per_unit == ldexp(1.0, -14), "unit %g, want 2^-14",
          coefficients.nj_per_unit);
    CHECK_EQ_U64(coefficients.hit[0][0], 14746, "0.9 nJ at 2^-14");
    CHECK_EQ_U64(coefficients.miss[0], 16384, "1.0 nJ at 2^-14");
    CHECK_EQ_U64(coefficients.static_per_cycle[2], 8192, "0.5 nJ at 2^-14");
    CHECK_EQ_U64(coefficients.miss[1], 0, "zero miss energy");

    /* The unit follows the table's magnitude both ways: the same table in
     * picojoules-as-nanojoules (x 1024) has a unit 1024 times larger and
     * the same coefficients. */
    stc_energy_table scaled = table;
    scaled.hit_nj[0][0] *= 1024.0;
    scaled.miss_nj[0] *= 1024.0;
    scaled.static_nj_per_cycle[2] *= 1024.0;
    stc_fixed_coefficients scaled_coefficients;
    CHECK(stc_fixed_from_table(&scaled, &scaled_coefficients, err, sizeof err) == 0, "%s", err);
    CHECK(scaled_coefficients.nj_per_unit == ldexp(1.0, -4), "unit %g, want 2^-4",
          scaled_coefficients.nj_per_unit);
    CHECK_EQ_U64(scaled_coefficients.hit[0][0], 14746, "scale-free");
}

/* Geometries other than the default get one register per legal pair and
 * per size, and nothing else. */
static void test_other_geometry_registers(void)
{
    stc_geometry geometry = make_geometry("banks=16,bank_bytes=1024,line_bytes=32");
    stc_energy_table table = blank_table(&geometry, "hand table C");
    const unsigned sizes = size_count(&geometry);
    for (unsigned size_index = 0; size_index < STC_MAX_SIZES; size_index++) {
        for (unsigned ways_index = 0; ways_index < STC_MAX_SIZES; ways_index++) {
            table.hit_nj[size_index][ways_index] = 0.01 * (1 + size_index + ways_index);
        }
        table.static_nj_per_cycle[size_index] = 0.001 * (size_index + 1);
    }
    table.miss_nj[0] = 5.0;
    table.miss_nj[1] = 6.0;
    table.miss_nj[2] = 8.0;
    stc_fixed_coefficients coefficients;
    char err[ERR_LEN] = "";
    CHECK(stc_fixed_from_table(&table, &coefficients, err, sizeof err) == 0, "table C: %s", err);
    unsigned hit_registers = 0;
    unsigned static_registers = 0;
    for (unsigned size_index = 0; size_index < STC_MAX_SIZES; size_index++) {
        for (unsigned ways_index = 0; ways_index < STC_MAX_SIZES; ways_index++) {
            bool legal = size_index < sizes && ways_index <= size_index;
            hit_registers += coefficients.hit[size_index][ways_index] != 0;
            CHECK((coefficients.hit[size_index][ways_index] != 0) == legal,
                  "hit[%u][%u] = %u", size_index, ways_index,
                  coefficients.hit[size_index][ways_index]);
        }
        static_registers += coefficients.static_per_cycle[size_index] != 0;
    }
    CHECK_EQ_U64(hit_registers, sizes * (sizes + 1) / 2, "hit registers of 16 banks");
    CHECK_EQ_U64(static_registers, sizes, "static registers of 16 banks");
}

static void expect_refusal(const stc_energy_table *table, const char *needle, const char *what)
{
    stc_fixed_coefficients coefficients;
    char err[ERR_LEN] = "";
    int status = stc_fixed_from_table(table, &coefficients, err, sizeof err);
    CHECK(status == -1, "%s: accepted", what);
    CHECK(strstr(err, needle) != NULL, "%s: message \"%s\" lacks \"%s\"", what, err, needle);
    CHECK(strstr(err, table->source) != NULL, "%s: message \"%s\" lacks the source", what, err);
}

static void test_refusals(void)
{
    stc_energy_table table = table_a();
    table.miss_nj[1] = -0.5;
    expect_refusal(&table, "miss energy of a 32 B line (miss_nj[1]) = -0.5 nJ", "negative miss");

    table = table_a();
    table.hit_nj[2][1] = NAN;
    expect_refusal(&table, "hit energy of 4 banks, 2-way (hit_nj[2][1])", "NaN hit");

    table = table_a();
    table.static_nj_per_cycle[1] = INFINITY;
    expect_refusal(&table, "static energy per cycle of 2 banks (static_nj_per_cycle[1])",
                   "infinite static");

    table = table_a();
    table.stall_nj_per_cycle = -1.0;
    expect_refusal(&table, "stall energy per cycle (stall_nj_per_cycle) = -1 nJ", "negative stall");

    /* A one-bank cache has no way prediction: its stall entry is unused
     * and ignored, whatever it holds. */
    stc_geometry one_bank = make_geometry("banks=1");
    stc_energy_table single = blank_table(&one_bank, "one bank");
    single.hit_nj[0][0] = 0.1;
    single.miss_nj[0] = 3.0;
    single.stall_nj_per_cycle = NAN;
    stc_fixed_coefficients single_coefficients;
    char single_err[ERR_LEN] = "";
    CHECK(stc_fixed_from_table(&single, &single_coefficients, single_err, sizeof single_err) == 0,
          "one bank: %s", single_err);
    CHECK_EQ_U64(single_coefficients.stall_per_cycle, 0, "one bank: no stall register");

    table = table_a();
    table.geometry.banks = 3;
    expect_refusal(&table, "3 banks: must be a power of two", "3 banks");
    table.geometry.banks = 64;
    expect_refusal(&table, "64 banks: must be a power of two, 1..32", "64 banks");
    table.geometry.banks = 4;

    stc_energy_table zeros = blank_table(&table.geometry, "all zero");
    expect_refusal(&zeros, "every hit, miss and static energy is 0", "all zero");

    /* The unit of a table whose largest energy is a subnormal double would
     * itself not be representable. */
    zeros.miss_nj[0] = 1e-320;
    expect_refusal(&zeros, "outside what a double represents", "subnormal table");

    /* The largest finite double still fits (unit 2^1009 nJ). */
    zeros.miss_nj[0] = 1.7976931348623157e308;
    stc_fixed_coefficients coefficients;
    char err[ERR_LEN] = "";
    CHECK(stc_fixed_from_table(&zeros, &coefficients, err, sizeof err) == 0, "DBL_MAX: %s", err);
    CHECK_EQ_U64(coefficients.miss[0], 32768, "DBL_MAX in units of 2^1009 nJ");
}

/* ------------------------------------------------------------------------ */
/* Energies by hand                                                          */
/* ------------------------------------------------------------------------ */

static void test_hand_energies(void)
{
    stc_energy_table table = table_a();
    stc_fixed_coefficients coefficients;
    char err[ERR_LEN] = "";
    CHECK(stc_fixed_from_table(&table, &coefficients, err, sizeof err) == 0, "%s", err);

    /* 8K_4W_64B, 10 accesses, 2 misses, 60 cycles:
     * step 1: 2 x 32768 = 65536; step 2: + 60 x 4096 = 311296;
     * step 3: + 10 x 8192 = 393216. */
    stc_config big = make_config(4, 4, 4, false);
    stc_fixed_counters counters = make_counters(10, 2, 60, 0);
    CHECK_EQ_U64(stc_fixed_energy(&coefficients, &big, &counters), 393216, "8K_4W_64B");
    /* first_probe_hits is not read without way prediction. */
    counters.first_probe_hits = 7;
    CHECK_EQ_U64(stc_fixed_energy(&coefficients, &big, &counters), 393216, "8K_4W_64B fph");

    /* 8K_4W_64B_P with 7 first-probe hits: steps 1, 2 as above; step 3:
     * + (10 - 7) x 8192 = 335872; step 4: + 3 x stall 1024 = 338944;
     * step 5: + 7 x hit[2][0] = 7 x 2048. */
    stc_config predicted = make_config(4, 4, 4, true);
    CHECK_EQ_U64(stc_fixed_energy(&coefficients, &predicted, &counters), 353280, "8K_4W_64B_P");

    /* 2K_1W_16B, 100 accesses, 5 misses, 220 cycles:
     * 5 x 8192 + 220 x 1024 + 100 x 2458 = 40960 + 225280 + 245800. */
    stc_config small = make_config(1, 1, 1, false);
    counters = make_counters(100, 5, 220, 0);
    CHECK_EQ_U64(stc_fixed_energy(&coefficients, &small, &counters), 512040, "2K_1W_16B");

    /* 4K_2W_32B (hit[1][1] clamped to 1): 3 x 16384 + 40 x 2048 + 30 x 1. */
    stc_config middle = make_config(2, 2, 2, false);
    counters = make_counters(30, 3, 40, 0);
    CHECK_EQ_U64(stc_fixed_energy(&coefficients, &middle, &counters), 131102, "4K_2W_32B");

    /* Zero accesses: the energy is the leakage of the cycles, or 0. */
    counters = make_counters(0, 0, 500, 0);
    CHECK_EQ_U64(stc_fixed_energy(&coefficients, &big, &counters), 500u * 4096, "idle 8K");
    CHECK_EQ_U64(stc_fixed_energy(&coefficients, &predicted, &counters), 500u * 4096,
                 "idle 8K_P");
    counters = make_counters(0, 0, 0, 0);
    for (unsigned banks_on = 1; banks_on <= 4; banks_on *= 2) {
        stc_config config = make_config(banks_on, banks_on, 1, banks_on > 1);
        CHECK_EQ_U64(stc_fixed_energy(&coefficients, &config, &counters), 0,
                     "all zero, %u banks", banks_on);
    }

    /* Counters the hardware cannot produce (more first-probe hits than
     * accesses) are clamped as the float model clamps them: first-probe
     * hits at most the accesses. 8K_2W_16B_P: 0 x (hit[2][1] + stall) +
     * 3 x hit[2][0]. */
    stc_config odd = make_config(4, 2, 1, true);
    counters = make_counters(3, 0, 0, 5);
    CHECK_EQ_U64(stc_fixed_energy(&coefficients, &odd, &counters), 3u * 2048, "fph > accesses");
    CHECK(fabs(float_tuner_nj(&table, &odd, &counters) - 3 * 0.25) < 1e-12,
          "float model clamps alike: %g", float_tuner_nj(&table, &odd, &counters));

    /* Configurations the registers cannot hold compare as the worst. */
    counters = make_counters(1, 0, 1, 0);
    const stc_config illegal[] = {
        make_config(3, 1, 1, false), make_config(4, 8, 1, false), make_config(4, 3, 1, false),
        make_config(4, 2, 3, false), make_config(64, 1, 1, false), make_config(0, 1, 1, false),
    };
    for (size_t index = 0; index < sizeof illegal / sizeof illegal[0]; index++) {
        CHECK_EQ_U64(stc_fixed_energy(&coefficients, &illegal[index], &counters), UINT32_MAX,
                     "illegal configuration %zu", index);
    }

    /* The float model agrees on table A up to the rounding of hit[0][0],
     * hit[1][*] (the table's other energies are exact in units). */
    counters = make_counters(100, 5, 220, 0);
    double float_nj = float_tuner_nj(&table, &small, &counters);
    double fixed_nj = 512040 * coefficients.nj_per_unit;
    CHECK(fabs(float_nj - fixed_nj) <= 100 * 0.4 * coefficients.nj_per_unit + 1e-9,
          "2K_1W_16B float %.9g nJ fixed %.9g nJ", float_nj, fixed_nj);
}

static void test_counters_of(void)
{
    stc_counters counters;
    memset(&counters, 0, sizeof counters);
    counters.accesses = 65535;
    counters.misses = 65536;
    counters.cycles = UINT64_MAX;
    counters.first_probe_hits = 12345;
    counters.writebacks = 99; /* not a tuner counter */
    stc_fixed_counters fixed = stc_fixed_counters_of(&counters);
    CHECK_EQ_U64(fixed.accesses, 65535, "at the limit");
    CHECK_EQ_U64(fixed.misses, 65535, "one over saturates");
    CHECK_EQ_U64(fixed.cycles, 65535, "far over saturates");
    CHECK_EQ_U64(fixed.first_probe_hits, 12345, "below");
    memset(&counters, 0, sizeof counters);
    fixed = stc_fixed_counters_of(&counters);
    CHECK(fixed.accesses == 0 && fixed.misses == 0 && fixed.cycles == 0 &&
              fixed.first_probe_hits == 0,
          "zero stays zero");
}

/* ------------------------------------------------------------------------ */
/* Extremes                                                                  */
/* ------------------------------------------------------------------------ */

/* Every configuration of a table's geometry with every counter at 65535:
 * the energy is the exact sum (computed here in 64 bits) and never
 * saturates, however the table's energies are spread. */
static void check_saturated_counters_exact(const stc_energy_table *table)
{
    stc_fixed_coefficients coefficients;
    char err[ERR_LEN] = "";
    if (stc_fixed_from_table(table, &coefficients, err, sizeof err) != 0) {
        CHECK(0, "%s: %s", table->source, err);
        return;
    }
    stc_config configs[STC_MAX_CONFIGS];
    size_t config_count = stc_config_enumerate(&table->geometry, configs, STC_MAX_CONFIGS);
    /* first_probe_hits both at 0 (all second probes) and saturated. */
    const unsigned first_probe_choices[] = {0, 65535};
    for (size_t index = 0; index < config_count; index++) {
        const stc_config *config = &configs[index];
        const unsigned size_index = stc_log2(config->banks_on);
        const unsigned ways_index = stc_log2(config->ways);
        const unsigned line_index = stc_log2(config->sublines);
        for (size_t choice = 0; choice < 2; choice++) {
            stc_fixed_counters counters =
                make_counters(65535, 65535, 65535, first_probe_choices[choice]);
            /* Every access probed all a banks (and, with way prediction,
             * waited a second cycle), or every access was a first-probe
             * hit. */
            uint64_t hit = coefficients.hit[size_index][ways_index];
            if (config->way_predict) {
                hit = choice == 1 ? coefficients.hit[size_index][0]
                                  : hit + coefficients.stall_per_cycle;
            }
            uint64_t exact = 65535ULL * (coefficients.miss[line_index] +
                                         coefficients.static_per_cycle[size_index] + hit);
            CHECK(exact < UINT32_MAX, "%s: exact sum %" PRIu64 " reaches all ones",
                  table->source, exact);
            CHECK_EQ_U64(stc_fixed_energy(&coefficients, config, &counters), exact,
                         "%s: config %zu saturated counters", table->source, index);
        }
    }
}

static void test_extremes(void)
{
    stc_geometry geometry = make_geometry("banks=4");

    /* All four largest energies equal: the budget binds hardest. */
    stc_energy_table equal = blank_table(&geometry, "equal maxima");
    equal.stall_nj_per_cycle = 1.0;
    for (unsigned size_index = 0; size_index < 3; size_index++) {
        for (unsigned ways_index = 0; ways_index <= size_index; ways_index++) {
            equal.hit_nj[size_index][ways_index] = 1.0;
        }
        equal.static_nj_per_cycle[size_index] = 1.0;
    }
    for (unsigned line_index = 0; line_index < STC_LINE_SIZES; line_index++) {
        equal.miss_nj[line_index] = 1.0;
    }
    check_saturated_counters_exact(&equal);
    stc_fixed_coefficients coefficients;
    char err[ERR_LEN] = "";
    CHECK(stc_fixed_from_table(&equal, &coefficients, err, sizeof err) == 0, "%s", err);
    CHECK_EQ_U64(coefficients.miss[0], 16384,
                 "four equal maxima: (16384 + 16384) + 16384 + 16384 <= 65536");

    /* The stall counts in the budget only on top of a multi-way hit: hit
     * 1-way 40000 units, 4-way 1 unit, stall 32767, miss 25534, static 1:
     * probe max(40000, 1 + 32767) = 40000, total 65535 at 2^-16 nJ. With
     * the stall one unit larger than the 1-way hit the probe is the
     * stall's: 1 + 40001 + 25534 + 1 > 2^16, the unit doubles. */
    stc_energy_table stalls = blank_table(&geometry, "stall budget");
    const double fine_unit = ldexp(1.0, -16);
    stalls.hit_nj[0][0] = 40000 * fine_unit;
    stalls.hit_nj[2][2] = 1 * fine_unit;
    stalls.stall_nj_per_cycle = 32767 * fine_unit;
    stalls.miss_nj[0] = 25534 * fine_unit;
    stalls.static_nj_per_cycle[0] = 1 * fine_unit;
    CHECK(stc_fixed_from_table(&stalls, &coefficients, err, sizeof err) == 0, "%s", err);
    CHECK(coefficients.nj_per_unit == fine_unit, "stall budget unit %g",
          coefficients.nj_per_unit);
    check_saturated_counters_exact(&stalls);
    stalls.stall_nj_per_cycle = 40001 * fine_unit;
    CHECK(stc_fixed_from_table(&stalls, &coefficients, err, sizeof err) == 0, "%s", err);
    CHECK(coefficients.nj_per_unit == 2 * fine_unit, "stall over budget unit %g",
          coefficients.nj_per_unit);
    check_saturated_counters_exact(&stalls);

    /* The boundary: miss 65534 units, hit 1, static 1 add to exactly 2^16,
     * so saturated counters give 65535 x 65536 = 2^32 - 2^16: the largest
     * energy a table's coefficients can produce, below all ones. */
    stc_energy_table boundary = blank_table(&geometry, "boundary");
    const double unit = ldexp(1.0, -16);
    boundary.miss_nj[2] = 65534.4 * unit;
    boundary.hit_nj[2][2] = 1.0 * unit;
    boundary.static_nj_per_cycle[2] = 0.6 * unit;
    CHECK(stc_fixed_from_table(&boundary, &coefficients, err, sizeof err) == 0, "%s", err);
    CHECK(coefficients.nj_per_unit == unit, "boundary unit %g", coefficients.nj_per_unit);
    CHECK(coefficients.miss[2] == 65534 && coefficients.hit[2][2] == 1 &&
              coefficients.static_per_cycle[2] == 1,
          "boundary coefficients %u %u %u", coefficients.miss[2], coefficients.hit[2][2],
          coefficients.static_per_cycle[2]);
    stc_config big = make_config(4, 4, 4, false);
    stc_fixed_counters full = make_counters(65535, 65535, 65535, 65535);
    CHECK_EQ_U64(stc_fixed_energy(&coefficients, &big, &full), 4294901760u, "2^32 - 2^16");
    check_saturated_counters_exact(&boundary);
    /* One more unit anywhere and the table no longer fits at 2^-16 nJ: the
     * unit doubles (65535 alone would still fit in 16 bits). */
    boundary.miss_nj[2] = 65535.0 * unit;
    CHECK(stc_fixed_from_table(&boundary, &coefficients, err, sizeof err) == 0, "%s", err);
    CHECK(coefficients.nj_per_unit == 2 * unit, "boundary + 1: unit %g",
          coefficients.nj_per_unit);
    check_saturated_counters_exact(&boundary);

    /* Table A and the default tables. */
    stc_energy_table hand = table_a();
    check_saturated_counters_exact(&hand);
    const char *const geometries[] = {"banks=4", "banks=1", "banks=2", "banks=8", "banks=16",
                                      "banks=32"};
    for (size_t index = 0; index < sizeof geometries / sizeof geometries[0]; index++) {
        stc_geometry other = make_geometry(geometries[index]);
        stc_energy_table table;
        if (stc_energy_default(&other, &table, err, sizeof err) == 0) {
            check_saturated_counters_exact(&table);
        }
    }

    /* Coefficients loaded by hand outside the budget (all ones): the
     * accumulator saturates at 2^32 - 1 and stays there. */
    stc_fixed_coefficients loaded;
    memset(&loaded, 0, sizeof loaded);
    loaded.nj_per_unit = 1.0;
    for (unsigned size_index = 0; size_index < STC_MAX_SIZES; size_index++) {
        for (unsigned ways_index = 0; ways_index <= size_index; ways_index++) {
            loaded.hit[size_index][ways_index] = 65535;
        }
        loaded.static_per_cycle[size_index] = 65535;
    }
    for (unsigned line_index = 0; line_index < STC_LINE_SIZES; line_index++) {
        loaded.miss[line_index] = 65535;
    }
    loaded.stall_per_cycle = 65535;
    CHECK_EQ_U64(stc_fixed_energy(&loaded, &big, &full), UINT32_MAX, "all ones saturate");
    stc_config predicted = make_config(4, 4, 4, true);
    CHECK_EQ_U64(stc_fixed_energy(&loaded, &predicted, &full), UINT32_MAX, "all ones, wp");
    /* Steps 1 and 2 alone: 2 x 65535^2 = 8589672450 > 2^32 - 1; step 3 then
     * adds 0 and the register stays saturated. */
    stc_fixed_counters two_terms = make_counters(0, 65535, 65535, 0);
    CHECK_EQ_U64(stc_fixed_energy(&loaded, &big, &two_terms), UINT32_MAX, "sticky");
    /* One over: 65535 x (65535 + 1 + 2) = 2^32 + 65534 saturates. */
    loaded.miss[2] = 65535;
    loaded.static_per_cycle[2] = 1;
    loaded.hit[2][2] = 2;
    CHECK_EQ_U64(stc_fixed_energy(&loaded, &big, &full), UINT32_MAX, "one over");
    /* One under: 65535 x (65535 + 1 + 1) = 2^32 - 1 exactly. */
    loaded.hit[2][2] = 1;
    CHECK_EQ_U64(stc_fixed_energy(&loaded, &big, &full), UINT32_MAX, "exact");
    stc_fixed_counters less = make_counters(65535, 65535, 65534, 0);
    CHECK_EQ_U64(stc_fixed_energy(&loaded, &big, &less), UINT32_MAX - 1, "one below");
}

/* ------------------------------------------------------------------------ */
/* Quantisation error                                                        */
/* ------------------------------------------------------------------------ */

/* One coefficient against its energy; counts clamped ones in *clamped. */
static void check_one_coefficient(const char *source, const char *what, double nj,
                                  unsigned coefficient, double unit, unsigned *clamped)
{
    if (nj == 0.0) {
        CHECK_EQ_U64(coefficient, 0, "%s: %s: 0 nJ", source, what);
        return;
    }
    CHECK(coefficient >= 1, "%s: %s: %g nJ became 0", source, what, nj);
    if (nj < unit / 2) {
        CHECK_EQ_U64(coefficient, 1, "%s: %s: %g nJ below half a unit (%g nJ)", source, what, nj,
                     unit);
        (*clamped)++;
        return;
    }
    double error = fabs(coefficient * unit - nj);
    CHECK(error <= unit / 2, "%s: %s: %g nJ -> %u x %g nJ, error %g nJ over half a unit", source,
          what, nj, coefficient, unit, error);
}

/* The rounding the code under test promises, done independently: to the
 * nearest unit, halves up, a positive energy at least 1 unit. */
static double units_of(double nj, double unit)
{
    return nj == 0 ? 0 : fmax(1.0, floor(nj / unit + 0.5));
}

/* Whether coefficients rounded at `unit` keep the rules: each in 16 bits,
 * and the largest probe (hit, or hit + stall for a multi-way pair), miss
 * and static adding up to at most 2^16. */
static bool unit_keeps_rules(const stc_energy_table *table, double unit)
{
    const unsigned sizes = size_count(&table->geometry);
    const double stall = sizes > 1 ? units_of(table->stall_nj_per_cycle, unit) : 0;
    double largest_probe = 0;
    double largest_miss = 0;
    double largest_static = 0;
    bool fits = stall <= 65535;
    for (unsigned size_index = 0; size_index < sizes; size_index++) {
        for (unsigned ways_index = 0; ways_index <= size_index; ways_index++) {
            double hit = units_of(table->hit_nj[size_index][ways_index], unit);
            fits = fits && hit <= 65535;
            largest_probe = fmax(largest_probe, ways_index > 0 ? hit + stall : hit);
        }
        double leak = units_of(table->static_nj_per_cycle[size_index], unit);
        fits = fits && leak <= 65535;
        largest_static = fmax(largest_static, leak);
    }
    for (unsigned line_index = 0; line_index < STC_LINE_SIZES; line_index++) {
        double miss = units_of(table->miss_nj[line_index], unit);
        fits = fits && miss <= 65535;
        largest_miss = fmax(largest_miss, miss);
    }
    return fits && largest_probe + largest_miss + largest_static <= 65536;
}

/* Every coefficient within half a unit of the float energy (relative error
 * at most unit / (2 x energy)), nonzero stays nonzero, and the unit is the
 * finest power of two that keeps the rules. Returns how many coefficients
 * were raised to 1 unit. */
static unsigned check_quantisation(const stc_energy_table *table)
{
    unsigned clamped = 0;
    stc_fixed_coefficients coefficients;
    char err[ERR_LEN] = "";
    if (stc_fixed_from_table(table, &coefficients, err, sizeof err) != 0) {
        CHECK(0, "%s: %s", table->source, err);
        return clamped;
    }
    const double unit = coefficients.nj_per_unit;
    CHECK(unit > 0 && frexp(unit, &(int){0}) == 0.5, "%s: unit %g not a power of two",
          table->source, unit);
    const unsigned sizes = size_count(&table->geometry);
    char what[64];
    for (unsigned size_index = 0; size_index < sizes; size_index++) {
        for (unsigned ways_index = 0; ways_index <= size_index; ways_index++) {
            snprintf(what, sizeof what, "hit[%u][%u]", size_index, ways_index);
            check_one_coefficient(table->source, what, table->hit_nj[size_index][ways_index],
                                  coefficients.hit[size_index][ways_index], unit, &clamped);
        }
        snprintf(what, sizeof what, "static[%u]", size_index);
        check_one_coefficient(table->source, what, table->static_nj_per_cycle[size_index],
                              coefficients.static_per_cycle[size_index], unit, &clamped);
    }
    for (unsigned line_index = 0; line_index < STC_LINE_SIZES; line_index++) {
        snprintf(what, sizeof what, "miss[%u]", line_index);
        check_one_coefficient(table->source, what, table->miss_nj[line_index],
                              coefficients.miss[line_index], unit, &clamped);
    }
    if (sizes > 1) {
        check_one_coefficient(table->source, "stall", table->stall_nj_per_cycle,
                              coefficients.stall_per_cycle, unit, &clamped);
    }
    CHECK(unit_keeps_rules(table, unit), "%s: unit %g nJ breaks the 16-bit or budget rule",
          table->source, unit);
    CHECK(!unit_keeps_rules(table, unit / 2), "%s: unit %g nJ is coarser than needed",
          table->source, unit);
    return clamped;
}

/* A random table with the structure of a real one (hit grows with ways
 * and a little with size, miss with the line, static with the size) and a
 * random spread between the classes, from leakage far below one unit to
 * leakage as large as a hit. */
static stc_energy_table random_table(const stc_geometry *geometry, uint64_t *state,
                                     unsigned number)
{
    char source[64];
    snprintf(source, sizeof source, "random table %u (%u banks)", number, geometry->banks);
    stc_energy_table table = blank_table(geometry, source);
    const double scale = random_log(state, 1e-3, 1e3); /* units need not be nJ-sized */
    const double hit_base = scale * random_log(state, 0.01, 1.0);
    const double hit_per_way = random_log(state, 0.3, 1.0);
    const double hit_per_size = random_log(state, 0.001, 0.2);
    const double miss_base = scale * random_log(state, 0.5, 100.0);
    const double miss_per_line = random_log(state, 0.1, 1.0);
    const double static_base = scale * random_log(state, 1e-7, 0.3);
    table.stall_nj_per_cycle = number % 5 == 0 ? 0.0 : scale * random_log(state, 0.01, 3.0);
    const unsigned sizes = size_count(geometry);
    for (unsigned size_index = 0; size_index < sizes; size_index++) {
        for (unsigned ways_index = 0; ways_index <= size_index; ways_index++) {
            table.hit_nj[size_index][ways_index] = hit_base * (1 + hit_per_size * size_index) *
                                                   (1 + hit_per_way * ((1u << ways_index) - 1));
        }
        table.static_nj_per_cycle[size_index] = static_base * (1u << size_index);
    }
    for (unsigned line_index = 0; line_index < STC_LINE_SIZES; line_index++) {
        table.miss_nj[line_index] = miss_base * (1 + miss_per_line * ((1u << line_index) - 1));
    }
    if (number % 7 == 0) {
        table.static_nj_per_cycle[0] = 0.0; /* a free term */
    }
    return table;
}

/* Print, per class, the range of coefficients and the worst relative error
 * (docs/FIXED_POINT.md quotes these for the default table). */
static void describe_default_table(const stc_energy_table *table)
{
    stc_fixed_coefficients coefficients;
    char err[ERR_LEN] = "";
    if (stc_fixed_from_table(table, &coefficients, err, sizeof err) != 0) {
        return; /* check_quantisation has reported it */
    }
    const double unit = coefficients.nj_per_unit;
    const unsigned sizes = size_count(&table->geometry);
    enum { HIT, MISS, STATIC, CLASSES };
    static const char *const class_names[CLASSES] = {"hit", "miss", "static"};
    unsigned low[CLASSES] = {65535, 65535, 65535};
    unsigned high[CLASSES] = {0, 0, 0};
    double worst[CLASSES] = {0, 0, 0};
    for (unsigned size_index = 0; size_index < sizes; size_index++) {
        for (unsigned ways_index = 0; ways_index <= size_index + 1; ways_index++) {
            bool is_static = ways_index == size_index + 1;
            unsigned class_index = is_static ? STATIC : HIT;
            double nj = is_static ? table->static_nj_per_cycle[size_index]
                                  : table->hit_nj[size_index][ways_index];
            unsigned value = is_static ? coefficients.static_per_cycle[size_index]
                                       : coefficients.hit[size_index][ways_index];
            low[class_index] = value < low[class_index] ? value : low[class_index];
            high[class_index] = value > high[class_index] ? value : high[class_index];
            if (nj > 0) {
                worst[class_index] = fmax(worst[class_index], fabs(value * unit - nj) / nj);
            }
        }
    }
    for (unsigned line_index = 0; line_index < STC_LINE_SIZES; line_index++) {
        unsigned value = coefficients.miss[line_index];
        low[MISS] = value < low[MISS] ? value : low[MISS];
        high[MISS] = value > high[MISS] ? value : high[MISS];
        if (table->miss_nj[line_index] > 0) {
            worst[MISS] = fmax(worst[MISS], fabs(value * unit - table->miss_nj[line_index]) /
                                                table->miss_nj[line_index]);
        }
    }
    printf("test_fixed: default table: unit 2^%d nJ;", (int)lround(log2(unit)));
    for (unsigned class_index = 0; class_index < CLASSES; class_index++) {
        printf(" %s %u..%u units (worst error %.3g%%),", class_names[class_index],
               low[class_index], high[class_index], 100 * worst[class_index]);
    }
    printf(" stall %u units (error %.3g%%)\n", coefficients.stall_per_cycle,
           100 * fabs(coefficients.stall_per_cycle * unit - table->stall_nj_per_cycle) /
               table->stall_nj_per_cycle);
}

static void test_quantisation(void)
{
    char err[ERR_LEN];
    const char *const geometries[] = {"banks=4", "banks=1", "banks=2", "banks=8", "banks=16",
                                      "banks=32", "banks=4,line_bytes=32,mem_latency=100"};
    for (size_t index = 0; index < sizeof geometries / sizeof geometries[0]; index++) {
        stc_geometry geometry = make_geometry(geometries[index]);
        stc_energy_table table;
        if (stc_energy_default(&geometry, &table, err, sizeof err) != 0) {
            printf("test_fixed: no default table for %s (%s); random tables only\n",
                   geometries[index], err);
            continue;
        }
        check_quantisation(&table);
        if (index == 0) {
            describe_default_table(&table);
        }
    }
    stc_energy_table hand = table_a();
    CHECK_EQ_U64(check_quantisation(&hand), 1, "table A clamps one coefficient");
    uint64_t state = 0x5eed;
    const unsigned bank_choices[] = {1, 2, 4, 8, 16, 32};
    for (unsigned number = 0; number < 600; number++) {
        char assignment[32];
        snprintf(assignment, sizeof assignment, "banks=%u", bank_choices[number % 6]);
        stc_geometry geometry = make_geometry(assignment);
        stc_energy_table table = random_table(&geometry, &state, number);
        check_quantisation(&table);
        check_saturated_counters_exact(&table);
    }
}

/* ------------------------------------------------------------------------ */
/* Order on synthetic counters                                               */
/* ------------------------------------------------------------------------ */

/* What one comparison of all configurations over one counter set found. */
typedef struct {
    unsigned long long pairs_checked;   /* float apart by more than the bounds */
    unsigned long long pairs_close;     /* within the bounds: order not promised */
    unsigned long long close_inverted;  /* ...and ordered differently (allowed) */
    unsigned long long failures;        /* promised order broken, or bound broken */
} order_tally;

typedef struct {
    stc_config config;
    stc_fixed_counters counters;
    double float_nj;
    double bound_nj;
    uint32_t fixed;
} order_entry;

/* The fixed energies within their bounds of the float ones, and every pair
 * whose float energies differ by more than both bounds ordered alike. */
static void compare_orders(const stc_energy_table *table,
                           const stc_fixed_coefficients *coefficients, order_entry *entries,
                           size_t count, const char *what, order_tally *tally)
{
    const double unit = coefficients->nj_per_unit;
    for (size_t index = 0; index < count; index++) {
        order_entry *entry = &entries[index];
        entry->float_nj = float_tuner_nj(table, &entry->config, &entry->counters);
        entry->bound_nj = error_bound_nj(table, coefficients, &entry->config, &entry->counters) +
                          FLOAT_SLACK * entry->float_nj;
        entry->fixed = stc_fixed_energy(coefficients, &entry->config, &entry->counters);
        double distance = fabs(entry->fixed * unit - entry->float_nj);
        if (distance > entry->bound_nj) {
            if (tally->failures++ < 10) {
                char name[STC_CONFIG_NAME_MAX];
                stc_config_name(&table->geometry, &entry->config, name, sizeof name);
                CHECK(0, "%s: %s: fixed %" PRIu32 " x %g nJ is %g nJ from float %g nJ, bound %g",
                      what, name, entry->fixed, unit, distance, entry->float_nj,
                      entry->bound_nj);
            }
        }
    }
    for (size_t left = 0; left < count; left++) {
        for (size_t right = left + 1; right < count; right++) {
            const order_entry *a = &entries[left];
            const order_entry *b = &entries[right];
            double gap = fabs(a->float_nj - b->float_nj);
            int float_order = compare_doubles(a->float_nj, b->float_nj);
            int fixed_order = compare_u32(a->fixed, b->fixed);
            if (gap <= a->bound_nj + b->bound_nj) {
                tally->pairs_close++;
                tally->close_inverted += float_order != fixed_order;
                continue;
            }
            tally->pairs_checked++;
            if (float_order != fixed_order && tally->failures++ < 10) {
                char name_a[STC_CONFIG_NAME_MAX];
                char name_b[STC_CONFIG_NAME_MAX];
                stc_config_name(&table->geometry, &a->config, name_a, sizeof name_a);
                stc_config_name(&table->geometry, &b->config, name_b, sizeof name_b);
                CHECK(0,
                      "%s: %s vs %s: float %.9g vs %.9g nJ (bounds %.3g, %.3g) but fixed "
                      "%" PRIu32 " vs %" PRIu32,
                      what, name_a, name_b, a->float_nj, b->float_nj, a->bound_nj, b->bound_nj,
                      a->fixed, b->fixed);
            }
        }
    }
}

/*
 * One window's counters for every configuration, from a simple model of a
 * program: a base miss rate that falls with size (capacity) and
 * associativity (conflicts), changes with the line (spatial locality helps,
 * pollution hurts small caches), and per-configuration noise; cycles as the
 * timing of ARCHITECTURE.md section 10 gives them (a miss costs the probe,
 * the fill burst and, for a share of dirty victims, their writebacks; a
 * second probe costs a cycle); first-probe hits a share of the hits. All
 * configurations see the same accesses, as the tuner's windows do. Counts
 * saturate at 16 bits like the hardware's.
 */
static size_t synthetic_window(const stc_geometry *geometry, uint64_t *state, order_entry *entries)
{
    stc_config configs[STC_MAX_CONFIGS];
    size_t count = stc_config_enumerate(geometry, configs, STC_MAX_CONFIGS);
    const double accesses = floor(random_log(state, 50, 60000));
    const double base_rate = random_log(state, 1e-4, 0.4);
    const double capacity = random_log(state, 1.05, 2.5);
    const double conflict = random_log(state, 1.0, 1.8);
    const double spatial = random_log(state, 0.45, 1.0);
    const double pollution = random_unit(state) * 0.6;
    const double dirty_share = random_unit(state) * 0.5;
    const double predicted_share = 0.5 + 0.49 * random_unit(state);
    for (size_t index = 0; index < count; index++) {
        const stc_config *config = &configs[index];
        const unsigned size_index = stc_log2(config->banks_on);
        const unsigned ways_index = stc_log2(config->ways);
        const unsigned line_index = stc_log2(config->sublines);
        double rate = base_rate / pow(capacity, size_index) / pow(conflict, ways_index) *
                      pow(spatial, line_index) *
                      (1 + pollution * line_index / (1 + size_index)) *
                      (0.9 + 0.2 * random_unit(state));
        double misses = floor(fmin(1.0, rate) * accesses + 0.5);
        double hits = accesses - misses;
        double line_cycles = (double)geometry->mem_latency +
                             (double)config->sublines * geometry->line_bytes / STC_WORD_BYTES;
        double writeback_cycles =
            dirty_share * config->sublines *
            (geometry->mem_latency + (double)geometry->line_bytes / STC_WORD_BYTES);
        double first_probe_hits = 0;
        double cycles = accesses + misses * (line_cycles + writeback_cycles);
        if (config->way_predict) {
            first_probe_hits = floor(hits * predicted_share + 0.5);
            cycles += accesses - first_probe_hits; /* second probes and missing probes */
        }
        stc_counters counters;
        memset(&counters, 0, sizeof counters);
        counters.accesses = (uint64_t)accesses;
        counters.misses = (uint64_t)misses;
        counters.cycles = (uint64_t)floor(cycles + 0.5);
        counters.first_probe_hits = (uint64_t)first_probe_hits;
        entries[index].config = *config;
        entries[index].counters = stc_fixed_counters_of(&counters);
    }
    return count;
}

static void order_test_table(const stc_energy_table *table, unsigned windows, uint64_t seed,
                             order_tally *tally)
{
    stc_fixed_coefficients coefficients;
    char err[ERR_LEN] = "";
    if (stc_fixed_from_table(table, &coefficients, err, sizeof err) != 0) {
        CHECK(0, "%s: %s", table->source, err);
        return;
    }
    order_entry entries[STC_MAX_CONFIGS];
    uint64_t state = seed;
    for (unsigned window = 0; window < windows; window++) {
        size_t count = synthetic_window(&table->geometry, &state, entries);
        compare_orders(table, &coefficients, entries, count, table->source, tally);
    }
}

static void test_synthetic_order(void)
{
    order_tally tally = {0, 0, 0, 0};
    char err[ERR_LEN];
    const char *const geometries[] = {"banks=4", "banks=2", "banks=8", "banks=32"};
    for (size_t index = 0; index < sizeof geometries / sizeof geometries[0]; index++) {
        stc_geometry geometry = make_geometry(geometries[index]);
        stc_energy_table table;
        if (stc_energy_default(&geometry, &table, err, sizeof err) == 0) {
            order_test_table(&table, index == 0 ? 4000 : 300, 17 + index, &tally);
        }
    }
    stc_energy_table hand = table_a();
    order_test_table(&hand, 500, 99, &tally);
    uint64_t state = 0xfeed;
    for (unsigned number = 0; number < 120; number++) {
        stc_geometry geometry = make_geometry(number % 3 == 0 ? "banks=8" : "banks=4");
        stc_energy_table table = random_table(&geometry, &state, number);
        order_test_table(&table, 60, number, &tally);
    }
    CHECK(tally.failures == 0, "%llu order or bound failures", tally.failures);
    /* The test must have had something to test: many promised orders, and
     * close calls too (or the bounds would never have been exercised). */
    CHECK(tally.pairs_checked > 1000000, "only %llu pairs checked", tally.pairs_checked);
    CHECK(tally.pairs_close > 0, "no pair within the bounds");
    printf("test_fixed: synthetic windows: %llu pairs ordered as the float model, %llu within "
           "the error bounds (%llu of those ordered differently, allowed)\n",
           tally.pairs_checked, tally.pairs_close, tally.close_inverted);
}

/* ------------------------------------------------------------------------ */
/* Order on real traces                                                      */
/* ------------------------------------------------------------------------ */

enum { TRACE_BATCH = 1 << 16, ACCESS_WINDOW = 65535 };

/* The real traces: TRACE_DIR/NAME.ARCH.lackey.zst (not the .main variants),
 * ARCH as traces/make-traces.sh recorded it in TRACE_DIR/arch.txt: i386, or
 * amd64 on a machine that cannot run 32-bit programs. */
#define TRACE_DIR "build/traces"

/* The glob of the real traces into pattern; false (nothing to glob) without
 * a TRACE_DIR/arch.txt. */
static bool trace_glob(char *pattern, size_t size)
{
    char arch[16] = "";
    FILE *file = fopen(TRACE_DIR "/arch.txt", "r");
    if (!file) {
        return false;
    }
    int got = fscanf(file, "%15s", arch);
    fclose(file);
    if (got != 1 || (strcmp(arch, "i386") != 0 && strcmp(arch, "amd64") != 0)) {
        CHECK(0, "%s/arch.txt holds '%s', not i386 or amd64 (make traces rewrites it)",
              TRACE_DIR, arch);
        return false;
    }
    snprintf(pattern, size, TRACE_DIR "/*.%s.lackey.zst", arch);
    return true;
}

/* One configuration of one cache over one trace, at each step from the
 * full float model to the datapath. */
typedef struct {
    stc_config config;
    char name[STC_CONFIG_NAME_MAX];
    stc_counters full;               /* whole-trace counters */
    double total_nj;                 /* full float model (with writebacks) */
    double tuner_full_nj;            /* probe + miss + static, whole trace */
    order_entry window;              /* the same counts scaled into one 16-bit window */
    uint32_t fixed_access_window;    /* fixed energy over a 65535-access window */
} trace_entry;

/* Scale whole-trace counts into a window: the tuner sees the same mix of
 * events over fewer accesses. Rounding is monotone, so first_probe_hits <=
 * accesses and misses <= accesses survive it. */
static stc_fixed_counters scale_counters(const stc_counters *full, double factor)
{
    stc_counters scaled;
    memset(&scaled, 0, sizeof scaled);
    scaled.accesses = (uint64_t)floor(full->accesses * factor + 0.5);
    scaled.misses = (uint64_t)floor(full->misses * factor + 0.5);
    scaled.cycles = (uint64_t)floor(full->cycles * factor + 0.5);
    scaled.first_probe_hits = (uint64_t)floor(full->first_probe_hits * factor + 0.5);
    return stc_fixed_counters_of(&scaled);
}

/* Which energy of a trace_entry a pick is made on. */
typedef enum { BY_TOTAL, BY_TUNER_TERMS, BY_FIXED, BY_FIXED_ACCESS_WINDOW } pick_basis;

static double pick_value(const trace_entry *entry, pick_basis basis)
{
    switch (basis) {
    case BY_TOTAL:
        return entry->total_nj;
    case BY_TUNER_TERMS:
        return entry->tuner_full_nj;
    case BY_FIXED:
        return entry->window.fixed;
    case BY_FIXED_ACCESS_WINDOW:
        return entry->fixed_access_window;
    }
    return entry->total_nj;
}

/* The configuration with the lowest energy; of equal ones the first, as the
 * tuner moves only on a strictly lower energy (canonical order stands in
 * for its search order). */
static size_t pick(const trace_entry *entries, size_t count, pick_basis basis)
{
    size_t best = 0;
    for (size_t index = 1; index < count; index++) {
        if (pick_value(&entries[index], basis) < pick_value(&entries[best], basis)) {
            best = index;
        }
    }
    return best;
}

/* Inversions of the datapath's order against the full float model's, each
 * with the first approximation at which the pair's order changed. */
typedef struct {
    unsigned long writebacks;   /* writeback energy is not in the datapath */
    unsigned long window;       /* counts scaled into the window and rounded */
    unsigned long quantisation; /* coefficients rounded, within the bounds */
    unsigned long pairs;
} inversion_tally;

static void report_inversions(const char *label, const stc_fixed_coefficients *coefficients,
                              const trace_entry *entries, size_t count, inversion_tally *tally)
{
    const double unit = coefficients->nj_per_unit;
    for (size_t left = 0; left < count; left++) {
        for (size_t right = left + 1; right < count; right++) {
            const trace_entry *a = &entries[left];
            const trace_entry *b = &entries[right];
            tally->pairs++;
            int truth = compare_doubles(a->total_nj, b->total_nj);
            int without_writebacks = compare_doubles(a->tuner_full_nj, b->tuner_full_nj);
            int in_window = compare_doubles(a->window.float_nj, b->window.float_nj);
            int fixed = compare_u32(a->window.fixed, b->window.fixed);
            if (fixed == truth) {
                continue;
            }
            char reason[200];
            if (without_writebacks != truth) {
                tally->writebacks++;
                snprintf(reason, sizeof reason,
                         "writeback energy is not in the datapath (%" PRIu64 " vs %" PRIu64
                         " writebacks)",
                         a->full.writebacks + a->full.walk_writebacks,
                         b->full.writebacks + b->full.walk_writebacks);
            } else if (in_window != truth) {
                tally->window++;
                snprintf(reason, sizeof reason,
                         "window rounding: whole-trace tuner energies differ by %.3g%%, the "
                         "window's counts are rounded (misses %u vs %u)",
                         100 * fabs(a->tuner_full_nj - b->tuner_full_nj) /
                             fmin(a->tuner_full_nj, b->tuner_full_nj),
                         a->window.counters.misses, b->window.counters.misses);
            } else {
                tally->quantisation++;
                snprintf(reason, sizeof reason,
                         "coefficient rounding: window float energies differ by %.3g nJ, "
                         "within the error bounds %.3g + %.3g nJ",
                         fabs(a->window.float_nj - b->window.float_nj), a->window.bound_nj,
                         b->window.bound_nj);
            }
            printf("  %s: %s vs %s: full model %.6g vs %.6g nJ; window float %.6g vs %.6g nJ; "
                   "fixed %" PRIu32 " vs %" PRIu32 " units (%.6g vs %.6g nJ): %s\n",
                   label, a->name, b->name, a->total_nj, b->total_nj, a->window.float_nj,
                   b->window.float_nj, a->window.fixed, b->window.fixed, a->window.fixed * unit,
                   b->window.fixed * unit, reason);
        }
    }
}

static void compare_trace_cache(const char *trace_name, stc_cache_kind kind,
                                const stc_energy_table *table,
                                const stc_fixed_coefficients *coefficients,
                                const stc_stack_sweep *sweep, trace_entry *entries, size_t count,
                                inversion_tally *tally, order_tally *order)
{
    char label[160];
    snprintf(label, sizeof label, "%s %s", trace_name, kind == STC_ICACHE ? "I" : "D");
    uint64_t slowest_cycles = 0;
    for (size_t index = 0; index < count; index++) {
        trace_entry *entry = &entries[index];
        stc_stack_sweep_counters(sweep, &entry->config, kind, &entry->full);
        stc_config_name(&table->geometry, &entry->config, entry->name, sizeof entry->name);
        stc_energy energy = stc_energy_of(table, &entry->config, &entry->full);
        entry->total_nj = energy.total_nj;
        entry->tuner_full_nj = energy.probe_nj + energy.miss_nj + energy.static_nj;
        slowest_cycles = entry->full.cycles > slowest_cycles ? entry->full.cycles : slowest_cycles;
    }
    if (entries[0].full.accesses == 0) {
        printf("  %s: no accesses\n", label);
        return;
    }
    /* The window: as long as it can be without the slowest configuration's
     * cycles counter saturating (cycles is the largest counter). */
    const double factor = slowest_cycles > 65535 ? 65535.0 / (double)slowest_cycles : 1.0;
    /* The other window: 65535 accesses, cycles saturating where they will. */
    const double access_factor = (double)ACCESS_WINDOW / (double)entries[0].full.accesses;
    unsigned saturated = 0;
    order_entry window_entries[STC_MAX_CONFIGS];
    for (size_t index = 0; index < count; index++) {
        window_entries[index].config = entries[index].config;
        window_entries[index].counters = scale_counters(&entries[index].full, factor);
        stc_fixed_counters access_window = scale_counters(&entries[index].full, access_factor);
        entries[index].fixed_access_window =
            stc_fixed_energy(coefficients, &entries[index].config, &access_window);
        saturated += access_window.cycles == 65535;
    }
    compare_orders(table, coefficients, window_entries, count, label, order);
    for (size_t index = 0; index < count; index++) {
        entries[index].window = window_entries[index];
    }
    inversion_tally local = {0, 0, 0, 0};
    report_inversions(label, coefficients, entries, count, &local);
    size_t best_truth = pick(entries, count, BY_TOTAL);
    size_t best_tuner = pick(entries, count, BY_TUNER_TERMS);
    size_t best_fixed = pick(entries, count, BY_FIXED);
    size_t best_access = pick(entries, count, BY_FIXED_ACCESS_WINDOW);
    const double truth = entries[best_truth].total_nj;
    printf("  %s: window %u accesses; best: full model %s, without writebacks %s "
           "(+%.3f%%), fixed %s (+%.3f%%); 65535-access window (cycles saturated in %u of %zu) "
           "fixed %s (+%.3f%%); %lu inversions of %lu pairs (%lu writebacks, %lu window, "
           "%lu quantisation)\n",
           label, window_entries[0].counters.accesses, entries[best_truth].name,
           entries[best_tuner].name, 100 * (entries[best_tuner].total_nj / truth - 1),
           entries[best_fixed].name, 100 * (entries[best_fixed].total_nj / truth - 1), saturated,
           count, entries[best_access].name, 100 * (entries[best_access].total_nj / truth - 1),
           local.writebacks + local.window + local.quantisation, local.pairs, local.writebacks,
           local.window, local.quantisation);
    tally->writebacks += local.writebacks;
    tally->window += local.window;
    tally->quantisation += local.quantisation;
    tally->pairs += local.pairs;
}

/* Run every configuration over one trace with the LRU-stack engine. */
static stc_stack_sweep *sweep_trace(const char *path, const stc_geometry *geometry)
{
    char err[ERR_LEN] = "";
    stc_stack_sweep *sweep = stc_stack_sweep_create(geometry, err, sizeof err);
    stc_trace *trace = stc_trace_open(path, STC_TRACE_AUTO, err, sizeof err);
    stc_ref *batch = malloc(TRACE_BATCH * sizeof *batch);
    stc_filtered_batch filtered = {0};
    filtered.ifetch = malloc(TRACE_BATCH * sizeof *filtered.ifetch);
    filtered.data = malloc(TRACE_BATCH * sizeof *filtered.data);
    bool ok = sweep && trace && batch && filtered.ifetch && filtered.data;
    CHECK(ok, "%s: %s", path, err[0] ? err : "out of memory");
    if (ok) {
        stc_repeat_filter filter;
        stc_repeat_filter_init(&filter, geometry);
        long got;
        while ((got = stc_trace_read(trace, batch, TRACE_BATCH)) > 0) {
            stc_repeat_filter_run(&filter, batch, (size_t)got, &filtered);
            stc_stack_sweep_run(sweep, &filtered);
        }
        CHECK(got == 0, "%s: %s", path, stc_trace_error(trace));
        ok = got == 0;
    }
    if (trace && stc_trace_close(trace, err, sizeof err) != 0) {
        CHECK(0, "%s: %s", path, err);
        ok = false;
    }
    free(batch);
    free(filtered.ifetch);
    free(filtered.data);
    if (!ok) {
        stc_stack_sweep_destroy(sweep);
        return NULL;
    }
    return sweep;
}

static void test_real_traces(void)
{
    glob_t found;
    char pattern[64] = TRACE_DIR "/arch.txt";
    int status = trace_glob(pattern, sizeof pattern) ? glob(pattern, 0, NULL, &found) : GLOB_NOMATCH;
    if (status != 0) {
        printf("test_fixed: real-trace order comparison skipped: no %s (build them with "
               "make traces, then run this test again from the repository root)\n",
               pattern);
        if (status != GLOB_NOMATCH) {
            CHECK(0, "glob %s failed (%d)", pattern, status);
        }
        return;
    }
    stc_geometry geometry = make_geometry("banks=4");
    stc_energy_table table;
    stc_fixed_coefficients coefficients;
    char err[ERR_LEN] = "";
    if (stc_energy_default(&geometry, &table, err, sizeof err) != 0 ||
        stc_fixed_from_table(&table, &coefficients, err, sizeof err) != 0) {
        CHECK(0, "default table: %s", err);
        globfree(&found);
        return;
    }
    trace_entry entries[STC_MAX_CONFIGS];
    stc_config configs[STC_MAX_CONFIGS];
    size_t count = stc_config_enumerate(&geometry, configs, STC_MAX_CONFIGS);
    inversion_tally tally = {0, 0, 0, 0};
    order_tally order = {0, 0, 0, 0};
    printf("test_fixed: real-trace order comparison, default geometry and table (unit %g nJ), "
           "all %zu configurations, every pair; inversions of the datapath's order against "
           "the full float model:\n",
           coefficients.nj_per_unit, count);
    for (size_t path_index = 0; path_index < found.gl_pathc; path_index++) {
        const char *path = found.gl_pathv[path_index];
        stc_stack_sweep *sweep = sweep_trace(path, &geometry);
        if (!sweep) {
            continue;
        }
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        char trace_name[128];
        snprintf(trace_name, sizeof trace_name, "%.*s", (int)(strstr(base, ".lackey.zst") - base),
                 base);
        for (int kind = STC_ICACHE; kind <= STC_DCACHE; kind++) {
            memset(entries, 0, sizeof entries);
            for (size_t index = 0; index < count; index++) {
                entries[index].config = configs[index];
            }
            compare_trace_cache(trace_name, (stc_cache_kind)kind, &table, &coefficients, sweep,
                                entries, count, &tally, &order);
        }
        stc_stack_sweep_destroy(sweep);
    }
    globfree(&found);
    CHECK(order.failures == 0, "%llu real-trace order or bound failures", order.failures);
    printf("test_fixed: real traces: %lu inversions of %lu pairs: %lu from writebacks (not in "
           "the datapath), %lu from window rounding, %lu from coefficient rounding (within the "
           "bounds); %llu window pairs ordered as the float model, %llu within the bounds\n",
           tally.writebacks + tally.window + tally.quantisation, tally.pairs, tally.writebacks,
           tally.window, tally.quantisation, order.pairs_checked, order.pairs_close);
}

int main(void)
{
    test_table_a_coefficients();
    test_sum_budget_decides_unit();
    test_other_geometry_registers();
    test_refusals();
    test_hand_energies();
    test_counters_of();
    test_extremes();
    test_quantisation();
    test_synthetic_order();
    test_real_traces();
    return check_done("test_fixed");
}
