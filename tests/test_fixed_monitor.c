/*
 * test_fixed_monitor.c - the monitor tuner's fixed-point decision
 * (fixed.h, docs/FIXED_POINT.md section 9): coefficients and energies of
 * a hand table worked out on paper, the float model (stc_energy_of on the
 * same estimate) as the oracle on random tables and counts, the unit's
 * two rules (fits, and the finest that fits), the no-saturation bound, and
 * refusals.
 */
#include "check.h"
#include "config.h"
#include "energy.h"
#include "fixed.h"
#include "geometry.h"
#include "timing.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

enum { ERR_LEN = 256 };

static stc_geometry make_geometry(const char *assignments)
{
    stc_geometry geometry;
    char err[ERR_LEN];
    stc_geometry_default(&geometry);
    if (stc_geometry_parse(&geometry, assignments, err, sizeof err) != 0) {
        fprintf(stderr, "test_fixed_monitor: geometry %s: %s\n", assignments, err);
        abort();
    }
    return geometry;
}

/*
 * Hand table, default geometry (4 banks, 16 B lines, 4 beats a line, T_mem
 * 20: a miss of s physical lines takes 20 + 4s + 2 cycles = 26, 30, 38,
 * a writeback 20 + 4 + 2 = 26; ARCHITECTURE.md section 10). Charges
 * in nJ:
 *   probe[k][a] = hit + static:  1+1/32, 1+1/16, 2+1/16, 1.125, 2.125, 4.125
 *   second[k] = 1/8 + static:    5/32, 3/16, 1/4
 *   miss[k][L] = miss + cycles x static, e.g. miss[2][L] = 8 + 3.25,
 *                16 + 3.75, 32 + 4.75
 *   writeback[k] = 4 + 26 x static: 4.8125, 5.625, 7.25
 * Largest 36.75 nJ -> first unit tried 2^-10; an access's most is
 * 4.125 + 0.25 + 36.75 + 4 x 7.25 = 70.125 nJ = 71808 units > 65536, so
 * the unit is 2^-9 nJ (35904 units).
 * Each coefficient keeps 8 significant bits (fixed.h): miss[0][1] =
 * 16.9375 nJ = 8672 units = 135.5 x 64 -> 136 x 64 = 8704; miss[0][2] =
 * 33.1875 nJ = 16992 = 265.5 x 64, too many bits, 132.75 x 128 -> 133 x
 * 128 = 17024; miss[1][2] = 34.375 nJ = 17600 = 137.5 x 128 -> 17664;
 * every other value already has at most 8 (e.g. 18816 = 147 x 128).
 */
static stc_energy_table hand_table(void)
{
    stc_energy_table table;
    memset(&table, 0, sizeof table);
    table.geometry = make_geometry("banks=4");
    snprintf(table.source, sizeof table.source, "hand table");
    for (unsigned size = 0; size < 3; size++) {
        for (unsigned ways = 0; ways <= size; ways++) {
            table.hit_nj[size][ways] = (double)(1u << ways);
        }
    }
    table.static_nj_per_cycle[0] = 1.0 / 32;
    table.static_nj_per_cycle[1] = 1.0 / 16;
    table.static_nj_per_cycle[2] = 1.0 / 8;
    table.stall_nj_per_cycle = 1.0 / 8;
    table.miss_nj[0] = 8;
    table.miss_nj[1] = 16;
    table.miss_nj[2] = 32;
    table.writeback_nj = 4;
    return table;
}

static void test_hand_table(void)
{
    stc_energy_table table = hand_table();
    stc_fixed_monitor_coefficients coefficients;
    char err[ERR_LEN] = "";
    CHECK(stc_fixed_monitor_from_table(&table, &coefficients, err, sizeof err) == 0, "%s", err);
    CHECK(coefficients.nj_per_unit == ldexp(1.0, -9), "unit %g", coefficients.nj_per_unit);
    const unsigned probe[3][3] = {{528, 0, 0}, {544, 1056, 0}, {576, 1088, 2112}};
    const unsigned miss[3][3] = {{4512, 8704, 17024}, {4928, 9152, 17664}, {5760, 10112, 18816}};
    const unsigned second[3] = {80, 96, 128};
    const unsigned writeback[3] = {2464, 2880, 3712};
    for (unsigned size = 0; size < 3; size++) {
        for (unsigned ways = 0; ways <= size; ways++) {
            CHECK_EQ_U64(coefficients.probe[size][ways], probe[size][ways], "probe[%u][%u]",
                         size, ways);
        }
        for (unsigned line = 0; line < 3; line++) {
            CHECK_EQ_U64(coefficients.miss[size][line], miss[size][line], "miss[%u][%u]", size,
                         line);
        }
        CHECK_EQ_U64(coefficients.second_probe[size], second[size], "second_probe[%u]", size);
        CHECK_EQ_U64(coefficients.writeback[size], writeback[size], "writeback[%u]", size);
    }

    /* 8K_4W_64B_P on 100 accesses, 10 misses, 70 first-probe hits, 5
     * writebacks: 10 x 18816 + 5 x 3712 + 30 x 2112 + 30 x 128 + 70 x 576
     * = 314240 units = 613.75 nJ, the float model's energy of the same counts
     * with cycles 130 + 10 x 38 + 5 x 26 = 640. */
    stc_fixed_monitor_counts counts = {100, 10, 70, 5};
    stc_config predicted = {4, 4, 4, true};
    CHECK_EQ_U64(stc_fixed_monitor_energy(&coefficients, &predicted, &counts), 314240,
                 "8K_4W_64B_P");
    stc_counters estimate;
    memset(&estimate, 0, sizeof estimate);
    estimate.accesses = 100;
    estimate.misses = 10;
    estimate.first_probe_hits = 70;
    estimate.writebacks = 5;
    estimate.cycles = 640;
    CHECK(stc_energy_of(&table, &predicted, &estimate).total_nj == 613.75, "float %g",
          stc_energy_of(&table, &predicted, &estimate).total_nj);
    /* Without prediction fph is not read: 188160 + 18560 + 100 x 2112. */
    stc_config plain = {4, 4, 4, false};
    CHECK_EQ_U64(stc_fixed_monitor_energy(&coefficients, &plain, &counts), 417920, "8K_4W_64B");
    /* More first-probe hits than accesses are clamped: every access a
     * first-probe hit, 100 x 576. */
    stc_fixed_monitor_counts clamped = {100, 0, 300, 0};
    CHECK_EQ_U64(stc_fixed_monitor_energy(&coefficients, &predicted, &clamped), 57600, "clamp");
    /* A configuration without coefficients compares as the worst. */
    stc_config odd = {4, 3, 1, false};
    CHECK_EQ_U64(stc_fixed_monitor_energy(&coefficients, &odd, &counts), UINT32_MAX, "3 ways");
}

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* log-uniform in [low, high): energies over several orders of magnitude. */
static double random_log(uint64_t *state, double low, double high)
{
    double unit = (double)(next_random(state) >> 11) / 9007199254740992.0;
    return low * pow(high / low, unit);
}

static stc_energy_table random_table(const stc_geometry *geometry, uint64_t *state)
{
    stc_energy_table table;
    memset(&table, 0, sizeof table);
    table.geometry = *geometry;
    snprintf(table.source, sizeof table.source, "random");
    unsigned sizes = stc_log2(geometry->banks) + 1;
    for (unsigned size = 0; size < sizes; size++) {
        for (unsigned ways = 0; ways <= size; ways++) {
            table.hit_nj[size][ways] = random_log(state, 1e-3, 10);
        }
        table.static_nj_per_cycle[size] = random_log(state, 1e-5, 1);
    }
    for (unsigned line = 0; line < STC_LINE_SIZES; line++) {
        table.miss_nj[line] = random_log(state, 1e-2, 100);
    }
    table.stall_nj_per_cycle = random_log(state, 1e-4, 1);
    table.writeback_nj = random_log(state, 1e-2, 100);
    return table;
}

/* The test's own rounding (FIXED_POINT.md sections 3 and 9): nearest,
 * halves up, a positive energy at least 1, on the finest grid of 2^g
 * units that leaves at most 8 significant bits. */
static uint64_t units_of(double nj, double unit)
{
    if (nj == 0.0) {
        return 0;
    }
    for (unsigned grid = 0;; grid++) {
        double step = ldexp(unit, (int)grid);
        double units = floor(nj / step + 0.5);
        uint64_t mantissa = units < 1.0 ? 1 : (uint64_t)units;
        if (mantissa <= 256) {
            return mantissa << grid;
        }
    }
}

/* At most 8 significant bits, and split into the mantissa and shift the
 * decision unit's case table holds. */
static void check_mantissa(uint16_t coefficient, const char *what, unsigned size)
{
    unsigned mantissa = 999, shift = 99;
    stc_fixed_monitor_split(coefficient, &mantissa, &shift);
    CHECK(mantissa < 256 && shift <= 8 && (mantissa << shift) == coefficient &&
              (shift == 0 || mantissa >= 128),
          "%s[%u] = %u: mantissa %u shift %u", what, size, coefficient, mantissa, shift);
}

/* The rounding error a count's charge may carry: half a unit from the
 * unit, half the grid from the mantissa (at most coefficient / 256 units
 * when the grid is coarser than the unit), one unit in all for a small
 * coefficient. */
static double charge_error(uint16_t coefficient)
{
    double grid_half = coefficient >= 256 ? (double)coefficient / 256.0 : 0.0;
    return 1.0 + grid_half;
}

/* Whether a unit keeps section 9's two rules for table. */
static bool unit_keeps_rules(const stc_energy_table *table, double unit)
{
    const stc_geometry *geometry = &table->geometry;
    unsigned sizes = stc_log2(geometry->banks) + 1;
    uint64_t probe = 0, miss = 0, writeback = 0;
    bool fits = true;
    for (unsigned size = 0; size < sizes; size++) {
        double leak = table->static_nj_per_cycle[size];
        uint64_t second = sizes > 1 ? units_of(table->stall_nj_per_cycle + leak, unit) : 0;
        fits = fits && second <= 65535;
        for (unsigned ways = 0; ways <= size; ways++) {
            uint64_t first = units_of(table->hit_nj[size][ways] + leak, unit);
            fits = fits && first <= 65535;
            uint64_t most = first + (ways > 0 ? second : 0);
            probe = most > probe ? most : probe;
        }
        for (unsigned line = 0; line < STC_LINE_SIZES; line++) {
            uint64_t value = units_of(
                table->miss_nj[line] + (double)stc_line_miss_cycles(geometry, 1u << line) * leak,
                unit);
            miss = value > miss ? value : miss;
        }
        uint64_t value =
            units_of(table->writeback_nj + (double)stc_writeback_cycles(geometry) * leak, unit);
        writeback = value > writeback ? value : writeback;
    }
    return fits && miss <= 65535 && writeback <= 65535 &&
           probe + miss + 4 * writeback <= 65536;
}

/* On random tables of three geometries: the unit keeps the rules and is
 * the finest that does; on random counts of every configuration the
 * energy is the float model's within one unit per count charged, and
 * saturated counts never reach the all-ones value. */
static void test_random_tables(void)
{
    const char *geometries[] = {"banks=1", "banks=4", "banks=8,bank_bytes=4096,line_bytes=32"};
    uint64_t state = 0x9e3779b97f4a7c15u;
    unsigned compared = 0;
    for (size_t shape = 0; shape < sizeof geometries / sizeof geometries[0]; shape++) {
        stc_geometry geometry = make_geometry(geometries[shape]);
        stc_config configs[STC_MAX_CONFIGS];
        size_t config_count = stc_config_enumerate(&geometry, configs, STC_MAX_CONFIGS);
        for (unsigned trial = 0; trial < 200; trial++) {
            stc_energy_table table = random_table(&geometry, &state);
            stc_fixed_monitor_coefficients coefficients;
            char err[ERR_LEN] = "";
            if (stc_fixed_monitor_from_table(&table, &coefficients, err, sizeof err) != 0) {
                CHECK(false, "%s: %s", geometries[shape], err);
                continue;
            }
            double unit = coefficients.nj_per_unit;
            for (unsigned size = 0; size < stc_log2(geometry.banks) + 1; size++) {
                for (unsigned ways = 0; ways <= size; ways++) {
                    check_mantissa(coefficients.probe[size][ways], "probe", size);
                }
                for (unsigned line = 0; line < STC_LINE_SIZES; line++) {
                    check_mantissa(coefficients.miss[size][line], "miss", size);
                }
                check_mantissa(coefficients.second_probe[size], "second_probe", size);
                check_mantissa(coefficients.writeback[size], "writeback", size);
            }
            CHECK(unit_keeps_rules(&table, unit), "%s trial %u: unit %g breaks a rule",
                  geometries[shape], trial, unit);
            CHECK(!unit_keeps_rules(&table, unit / 2), "%s trial %u: unit %g is not the finest",
                  geometries[shape], trial, unit);
            for (size_t index = 0; index < config_count; index++) {
                const stc_config *config = &configs[index];
                unsigned accesses = (unsigned)(next_random(&state) % 65536);
                unsigned misses = accesses ? (unsigned)(next_random(&state) % (accesses + 1)) : 0;
                unsigned first = config->way_predict
                                     ? (unsigned)(next_random(&state) % (accesses - misses + 1))
                                     : 0;
                unsigned writebacks =
                    (unsigned)(next_random(&state) % (misses * config->sublines + 1));
                writebacks = writebacks > 65535 ? 65535 : writebacks;
                stc_fixed_monitor_counts counts = {(uint16_t)accesses, (uint16_t)misses,
                                                   (uint16_t)first, (uint16_t)writebacks};
                uint32_t energy = stc_fixed_monitor_energy(&coefficients, config, &counts);
                stc_counters estimate;
                memset(&estimate, 0, sizeof estimate);
                estimate.accesses = accesses;
                estimate.misses = misses;
                estimate.first_probe_hits = first;
                estimate.writebacks = writebacks;
                estimate.cycles = accesses + (config->way_predict ? accesses - first : 0) +
                                  misses * stc_line_miss_cycles(&geometry, config->sublines) +
                                  writebacks * stc_writeback_cycles(&geometry);
                double float_nj = stc_energy_of(&table, config, &estimate).total_nj;
                unsigned size_index = stc_log2(config->banks_on);
                unsigned ways_index = stc_log2(config->ways);
                unsigned line_index = stc_log2(config->sublines);
                double charged =
                    (double)misses * charge_error(coefficients.miss[size_index][line_index]) +
                    (double)writebacks * charge_error(coefficients.writeback[size_index]) +
                    (double)(accesses - first) *
                        charge_error(coefficients.probe[size_index][ways_index]);
                if (config->way_predict) {
                    charged += (double)(accesses - first) *
                                   charge_error(coefficients.second_probe[size_index]) +
                               (double)first * charge_error(coefficients.probe[size_index][0]);
                }
                CHECK(fabs((double)energy * unit - float_nj) <= charged * unit,
                      "%s trial %u config %zu: fixed %g nJ float %g nJ", geometries[shape], trial,
                      index, (double)energy * unit, float_nj);
                stc_fixed_monitor_counts full = {65535, 65535, 0, 65535};
                CHECK(stc_fixed_monitor_energy(&coefficients, config, &full) < UINT32_MAX,
                      "%s trial %u config %zu saturates", geometries[shape], trial, index);
                compared++;
            }
        }
    }
    printf("test_fixed_monitor: %u random energies within a unit and a 256th per count of the "
           "float model\n",
           compared);
}

static void test_refusals(void)
{
    stc_energy_table table = hand_table();
    stc_fixed_monitor_coefficients coefficients;
    char err[ERR_LEN] = "";
    table.writeback_nj = -1.0;
    CHECK(stc_fixed_monitor_from_table(&table, &coefficients, err, sizeof err) == -1 &&
              strstr(err, "writeback_nj") != NULL,
          "negative writeback: %s", err);
    table = hand_table();
    table.miss_nj[1] = NAN;
    CHECK(stc_fixed_monitor_from_table(&table, &coefficients, err, sizeof err) == -1 &&
              strstr(err, "miss_nj[1]") != NULL,
          "NaN miss: %s", err);
    memset(table.hit_nj, 0, sizeof table.hit_nj);
    memset(table.miss_nj, 0, sizeof table.miss_nj);
    memset(table.static_nj_per_cycle, 0, sizeof table.static_nj_per_cycle);
    table.stall_nj_per_cycle = 0;
    table.writeback_nj = 0;
    CHECK(stc_fixed_monitor_from_table(&table, &coefficients, err, sizeof err) == -1 &&
              strstr(err, "is 0") != NULL,
          "all zero: %s", err);
}

int main(void)
{
    test_hand_table();
    test_random_tables();
    test_refusals();
    return check_done("test_fixed_monitor");
}
