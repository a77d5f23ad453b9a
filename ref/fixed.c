/*
 * fixed.c - the tuner's integer energy arithmetic (docs/FIXED_POINT.md).
 *
 * Two halves:
 * - stc_fixed_from_table turns an energy table (nanojoules, double) into
 *   16-bit coefficients in one common power-of-two unit. The unit is the
 *   finest one for which the largest probe (hit, or hit + stall), miss and
 *   static coefficients together stay within 2^16 units, so no window's
 *   energy, even with every counter saturated, reaches 2^32 - 1 (which is
 *   left to mean "saturated").
 * - stc_fixed_energy is the datapath: one 16x16 multiplier feeding a 32-bit
 *   saturating accumulator, in the documented order of steps.
 */
#include "fixed.h"

#include "timing.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum {
    COUNTER_MAX = (1 << STC_FIXED_COUNTER_BITS) - 1,         /* 65535 */
    COEFFICIENT_MAX = (1 << STC_FIXED_COEFFICIENT_BITS) - 1, /* 65535 */
};

/* All ones in the energy register: the largest energy, and what a sum that
 * would not fit saturates to. */
#define ENERGY_MAX ((uint32_t)UINT32_MAX)

/* The most the largest probe, miss and static coefficients may add up to,
 * where an access's probe coefficient is hit[k][a], or with way prediction
 * hit[k][1] (first-probe hit) or hit[k][a] + stall (any other access). A
 * window's energy is at most COUNTER_MAX times that sum (way prediction's
 * probe terms split the accesses between two probe coefficients, never
 * adding to more than accesses x the larger one), so it is at most
 * 65535 x 65536 = 2^32 - 2^16 < 2^32 - 1: the accumulator never saturates
 * on a table's coefficients, and the all-ones value stays free to mean
 * "saturated or invalid". (65537 would be the exact limit of 32 bits; the
 * one unit less matters only to a table whose largest probe, miss and
 * static coefficients would add up to exactly 65537: its unit doubles.) */
#define COEFFICIENT_SUM_MAX ((uint64_t)1 << STC_FIXED_COEFFICIENT_BITS)

_Static_assert(STC_FIXED_ENERGY_BITS == 32, "the energy register is a uint32_t");
_Static_assert(STC_FIXED_COUNTER_BITS == 16 && STC_FIXED_COEFFICIENT_BITS == 16,
               "counters and coefficients are uint16_t");

static void set_error(char *err, size_t err_len, const char *format, ...)
{
    if (!err || err_len == 0) {
        return;
    }
    va_list args;
    va_start(args, format);
    vsnprintf(err, err_len, format, args);
    va_end(args);
}

/* Coefficient value of nj in units of 2^unit_exponent nJ: rounded to the
 * nearest unit, halves up; a positive energy never becomes 0 (it would make
 * the term free, e.g. a larger cache's leakage), so it is at least 1 unit.
 * The scaling by a power of two is exact, so the only error is the
 * rounding. The cap at 32 bits only keeps the conversion defined; the
 * search for the unit never gets near it. */
static uint32_t quantise(double nj, int unit_exponent)
{
    if (nj == 0.0) {
        return 0;
    }
    double units = floor(ldexp(nj, -unit_exponent) + 0.5);
    if (units < 1.0) {
        return 1;
    }
    return units >= (double)ENERGY_MAX ? ENERGY_MAX : (uint32_t)units;
}

/* What the unit is chosen from: the largest energy of each class the tuner
 * uses, and the multi-way hit energy that the stall is added to. */
typedef struct {
    unsigned sizes;                /* log2(banks) + 1 */
    double largest_hit_nj;         /* over every legal (size, ways) */
    double largest_multiway_hit_nj; /* over ways > 1 (way prediction's pairs); 0 if none */
    double largest_miss_nj;
    double largest_static_nj;
    double stall_nj;               /* 0 when no configuration can use it */
} table_extent;

static int check_energy(const stc_energy_table *table, double nj, const char *what, char *err,
                        size_t err_len)
{
    if (!isfinite(nj) || nj < 0.0) {
        set_error(err, err_len, "energy table (%s): %s = %g nJ: must be a finite number >= 0",
                  table->source, what, nj);
        return -1;
    }
    return 0;
}

static int measure_table(const stc_energy_table *table, table_extent *extent, char *err,
                         size_t err_len)
{
    const unsigned banks = table->geometry.banks;
    if (!stc_is_power_of_two(banks) || banks > STC_MAX_BANKS ||
        stc_log2(banks) + 1 > STC_MAX_SIZES) {
        set_error(err, err_len,
                  "energy table (%s): geometry has %u banks: must be a power of two, 1..%u",
                  table->source, banks, (unsigned)STC_MAX_BANKS);
        return -1;
    }
    memset(extent, 0, sizeof *extent);
    extent->sizes = stc_log2(banks) + 1;
    char what[96];
    for (unsigned size_index = 0; size_index < extent->sizes; size_index++) {
        for (unsigned ways_index = 0; ways_index <= size_index; ways_index++) {
            double nj = table->hit_nj[size_index][ways_index];
            snprintf(what, sizeof what, "hit energy of %u banks, %u-way (hit_nj[%u][%u])",
                     1u << size_index, 1u << ways_index, size_index, ways_index);
            if (check_energy(table, nj, what, err, err_len) != 0) {
                return -1;
            }
            extent->largest_hit_nj = fmax(extent->largest_hit_nj, nj);
            if (ways_index > 0) {
                extent->largest_multiway_hit_nj = fmax(extent->largest_multiway_hit_nj, nj);
            }
        }
        double nj = table->static_nj_per_cycle[size_index];
        snprintf(what, sizeof what, "static energy per cycle of %u banks (static_nj_per_cycle[%u])",
                 1u << size_index, size_index);
        if (check_energy(table, nj, what, err, err_len) != 0) {
            return -1;
        }
        extent->largest_static_nj = fmax(extent->largest_static_nj, nj);
    }
    for (unsigned line_index = 0; line_index < STC_LINE_SIZES; line_index++) {
        double nj = table->miss_nj[line_index];
        snprintf(what, sizeof what, "miss energy of a %u B line (miss_nj[%u])",
                 table->geometry.line_bytes << line_index, line_index);
        if (check_energy(table, nj, what, err, err_len) != 0) {
            return -1;
        }
        extent->largest_miss_nj = fmax(extent->largest_miss_nj, nj);
    }
    /* Only way prediction uses the stall, and it needs a multi-way pair: a
     * one-bank geometry ignores the entry like any other unused one. */
    if (extent->sizes > 1) {
        if (check_energy(table, table->stall_nj_per_cycle,
                         "stall energy per cycle (stall_nj_per_cycle)", err, err_len) != 0) {
            return -1;
        }
        extent->stall_nj = table->stall_nj_per_cycle;
    }
    return 0;
}

/* Whether a unit of 2^unit_exponent nJ keeps every coefficient in 16 bits
 * and the largest probe, miss and static coefficients within the sum
 * budget. Quantisation is monotone in the energy, so the largest energy of
 * a class gives its largest coefficient. */
static bool unit_fits(const table_extent *extent, int unit_exponent)
{
    uint64_t hit = quantise(extent->largest_hit_nj, unit_exponent);
    uint64_t multiway_hit = quantise(extent->largest_multiway_hit_nj, unit_exponent);
    uint64_t stall = quantise(extent->stall_nj, unit_exponent);
    uint64_t miss = quantise(extent->largest_miss_nj, unit_exponent);
    uint64_t leak = quantise(extent->largest_static_nj, unit_exponent);
    uint64_t probe = multiway_hit + stall > hit ? multiway_hit + stall : hit;
    return hit <= COEFFICIENT_MAX && stall <= COEFFICIENT_MAX && miss <= COEFFICIENT_MAX &&
           leak <= COEFFICIENT_MAX && probe + miss + leak <= COEFFICIENT_SUM_MAX;
}

/* The finest unit 2^unit_exponent nJ that fits (the rule `fits` checks
 * on `what`), or -1 with a message if every energy is 0 or the unit is not
 * a normal double. largest_nj = m x 2^e with m in [0.5, 1): in units of
 * 2^(e - 16) it is 32768..65536, the finest unit that can fit, so the
 * search starts there and doubles. */
static int choose_unit(const stc_energy_table *table, double largest_nj,
                       bool (*fits)(const void *what, int unit_exponent), const void *what,
                       int *unit_exponent, char *err, size_t err_len)
{
    if (largest_nj == 0.0) {
        set_error(err, err_len,
                  "energy table (%s): every hit, miss and static energy is 0: no configuration "
                  "could be told from another",
                  table->source);
        return -1;
    }
    int largest_exponent;
    frexp(largest_nj, &largest_exponent);
    *unit_exponent = largest_exponent - STC_FIXED_COEFFICIENT_BITS;
    while (!fits(what, *unit_exponent)) {
        (*unit_exponent)++;
    }
    if (!isnormal(ldexp(1.0, *unit_exponent))) {
        set_error(err, err_len,
                  "energy table (%s): largest coefficient %g nJ needs a unit of 2^%d nJ, "
                  "outside what a double represents",
                  table->source, largest_nj, *unit_exponent);
        return -1;
    }
    return 0;
}

static bool seed_unit_fits(const void *extent, int unit_exponent)
{
    return unit_fits(extent, unit_exponent);
}

int stc_fixed_from_table(const stc_energy_table *table, stc_fixed_coefficients *coefficients,
                         char *err, size_t err_len)
{
    table_extent extent;
    if (measure_table(table, &extent, err, err_len) != 0) {
        return -1;
    }
    double largest_nj =
        fmax(fmax(extent.largest_hit_nj, extent.stall_nj),
             fmax(extent.largest_miss_nj, extent.largest_static_nj));
    /* The search ends at most two doublings after it starts: there each
     * of the four largest energies (hit, stall, miss, static) is at most
     * 16384 units, and 4 x 16384 = 2^16. */
    int unit_exponent;
    if (choose_unit(table, largest_nj, seed_unit_fits, &extent, &unit_exponent, err, err_len) !=
        0) {
        return -1;
    }
    double nj_per_unit = ldexp(1.0, unit_exponent);

    memset(coefficients, 0, sizeof *coefficients);
    coefficients->nj_per_unit = nj_per_unit;
    for (unsigned size_index = 0; size_index < extent.sizes; size_index++) {
        for (unsigned ways_index = 0; ways_index <= size_index; ways_index++) {
            coefficients->hit[size_index][ways_index] =
                (uint16_t)quantise(table->hit_nj[size_index][ways_index], unit_exponent);
        }
        coefficients->static_per_cycle[size_index] =
            (uint16_t)quantise(table->static_nj_per_cycle[size_index], unit_exponent);
    }
    for (unsigned line_index = 0; line_index < STC_LINE_SIZES; line_index++) {
        coefficients->miss[line_index] =
            (uint16_t)quantise(table->miss_nj[line_index], unit_exponent);
    }
    coefficients->stall_per_cycle = (uint16_t)quantise(extent.stall_nj, unit_exponent);
    return 0;
}

static uint16_t saturate_counter(uint64_t value)
{
    return (uint16_t)stc_counter_saturate(value, STC_FIXED_COUNTER_BITS);
}

stc_fixed_counters stc_fixed_counters_of(const stc_counters *counters)
{
    stc_fixed_counters fixed = {
        .accesses = saturate_counter(counters->accesses),
        .misses = saturate_counter(counters->misses),
        .cycles = saturate_counter(counters->cycles),
        .first_probe_hits = saturate_counter(counters->first_probe_hits),
    };
    return fixed;
}

/* One step of the datapath: the multiplier's 16x16-bit product (at most
 * 65535^2 < 2^32, so it never overflows) added into the 32-bit energy
 * register; a carry out of bit 31 sets the register to all ones. Since
 * every product is >= 0 the saturation is sticky, and the result of a whole
 * schedule is min(exact sum, 2^32 - 1) whatever the order of the steps. */
uint32_t stc_fixed_multiply_accumulate(uint32_t energy, uint16_t count, uint16_t coefficient)
{
    uint32_t product = (uint32_t)count * (uint32_t)coefficient;
    uint32_t sum = energy + product; /* unsigned: wraps, and the wrap is the carry */
    return sum < energy ? ENERGY_MAX : sum;
}

/* Whether a configuration has coefficients at all (one the registers can
 * hold); any other compares as the worst, so a tuner fed one can never
 * pick it. */
static bool coefficients_hold(const stc_config *config)
{
    return stc_is_power_of_two(config->banks_on) && stc_log2(config->banks_on) < STC_MAX_SIZES &&
           stc_is_power_of_two(config->ways) && config->ways <= config->banks_on &&
           (config->sublines == 1 || config->sublines == 2 || config->sublines == 4);
}

/* The first-probe hits a schedule charges: 0 without way prediction (a
 * first-probe hit read one bank, every other access the whole candidate
 * group). The counters guarantee first_probe_hits <= accesses (every
 * first-probe hit is an access, and both saturate at the same value);
 * inconsistent input is clamped the way the float model clamps it, so no
 * input can wrap the subtractor. In hardware the subtractor's borrow
 * selects the clamp. */
static uint16_t first_probe_hits_of(const stc_config *config, uint16_t first_probe_hits,
                                    uint16_t accesses)
{
    if (!config->way_predict) {
        return 0;
    }
    return first_probe_hits < accesses ? first_probe_hits : accesses;
}

uint32_t stc_fixed_energy(const stc_fixed_coefficients *coefficients, const stc_config *config,
                          const stc_fixed_counters *counters)
{
    if (!coefficients_hold(config)) {
        return ENERGY_MAX;
    }
    const unsigned size_index = stc_log2(config->banks_on);
    const unsigned ways_index = stc_log2(config->ways);
    const unsigned line_index = stc_log2(config->sublines);

    const uint16_t first_probe_hits =
        first_probe_hits_of(config, counters->first_probe_hits, counters->accesses);
    const uint16_t full_probes = (uint16_t)(counters->accesses - first_probe_hits);

    /* The schedule (docs/FIXED_POINT.md "The schedule"): the register is
     * cleared, then one product per step. */
    uint32_t energy = 0;
    /* Step 1: misses x miss energy of the logical line. */
    energy = stc_fixed_multiply_accumulate(energy, counters->misses, coefficients->miss[line_index]);
    /* Step 2: cycles x static energy per cycle of the powered banks. */
    energy = stc_fixed_multiply_accumulate(energy, counters->cycles,
                                 coefficients->static_per_cycle[size_index]);
    /* Step 3: accesses that probed all a candidates x hit energy (k, a). */
    energy = stc_fixed_multiply_accumulate(energy, full_probes, coefficients->hit[size_index][ways_index]);
    if (config->way_predict) {
        /* Step 4: the same accesses took a second probe cycle in which the
         * processor waited. */
        energy = stc_fixed_multiply_accumulate(energy, full_probes, coefficients->stall_per_cycle);
        /* Step 5: first-probe hits x hit energy (k, 1). */
        energy = stc_fixed_multiply_accumulate(energy, first_probe_hits, coefficients->hit[size_index][0]);
    }
    return energy;
}

/* ---- The monitor's decision ------------------------------------------ */

/* A monitor coefficient: nj rounded as quantise does, but on the finest
 * grid of 2^e units (the least e >= 0) on which it has at most
 * STC_FIXED_MONITOR_MANTISSA_BITS significant bits, so the decision unit's
 * multiplier takes a mantissa and a shift (fixed.h). Each rounding is to
 * the nearest multiple, halves up; a value that rounds up to 2^bits on one
 * grid is 2^(bits-1) on the next, the same number. */
static uint64_t monitor_quantise(double nj, int unit_exponent)
{
    for (int grid = 0;; grid++) {
        uint64_t mantissa = quantise(nj, unit_exponent + grid);
        if (mantissa <= (1u << STC_FIXED_MONITOR_MANTISSA_BITS)) {
            return mantissa << grid;
        }
    }
}

void stc_fixed_monitor_split(uint16_t coefficient, unsigned *mantissa, unsigned *shift)
{
    unsigned bits = 0;
    while (bits < 16 && (coefficient >> bits) != 0) {
        bits++;
    }
    *shift = bits > STC_FIXED_MONITOR_MANTISSA_BITS ? bits - STC_FIXED_MONITOR_MANTISSA_BITS : 0;
    *mantissa = coefficient >> *shift;
}

/* The monitor's charges in nJ before rounding (fixed.h). */
typedef struct {
    unsigned sizes;
    double probe[STC_MAX_SIZES][STC_MAX_SIZES];
    double second_probe[STC_MAX_SIZES];
    double miss[STC_MAX_SIZES][STC_LINE_SIZES];
    double writeback[STC_MAX_SIZES];
} monitor_charges;

static void monitor_charges_of(const stc_energy_table *table, unsigned sizes,
                               monitor_charges *charges)
{
    const stc_geometry *geometry = &table->geometry;
    memset(charges, 0, sizeof *charges);
    charges->sizes = sizes;
    for (unsigned size_index = 0; size_index < sizes; size_index++) {
        double leak = table->static_nj_per_cycle[size_index];
        for (unsigned ways_index = 0; ways_index <= size_index; ways_index++) {
            charges->probe[size_index][ways_index] = table->hit_nj[size_index][ways_index] + leak;
        }
        if (sizes > 1) {
            charges->second_probe[size_index] = table->stall_nj_per_cycle + leak;
        }
        for (unsigned line_index = 0; line_index < STC_LINE_SIZES; line_index++) {
            charges->miss[size_index][line_index] =
                table->miss_nj[line_index] +
                (double)stc_line_miss_cycles(geometry, 1u << line_index) * leak;
        }
        charges->writeback[size_index] =
            table->writeback_nj + (double)stc_writeback_cycles(geometry) * leak;
    }
}

static double monitor_largest(const monitor_charges *charges)
{
    double largest = 0.0;
    for (unsigned size_index = 0; size_index < charges->sizes; size_index++) {
        for (unsigned ways_index = 0; ways_index <= size_index; ways_index++) {
            largest = fmax(largest, charges->probe[size_index][ways_index]);
        }
        largest = fmax(largest, charges->second_probe[size_index]);
        for (unsigned line_index = 0; line_index < STC_LINE_SIZES; line_index++) {
            largest = fmax(largest, charges->miss[size_index][line_index]);
        }
        largest = fmax(largest, charges->writeback[size_index]);
    }
    return largest;
}

/* Every coefficient in 16 bits, and an access's largest charge (fixed.h)
 * within the sum budget. */
static bool monitor_unit_fits(const void *what, int unit_exponent)
{
    const monitor_charges *charges = what;
    uint64_t probe = 0, miss = 0, writeback = 0;
    for (unsigned size_index = 0; size_index < charges->sizes; size_index++) {
        uint64_t second = monitor_quantise(charges->second_probe[size_index], unit_exponent);
        for (unsigned ways_index = 0; ways_index <= size_index; ways_index++) {
            uint64_t first = monitor_quantise(charges->probe[size_index][ways_index], unit_exponent);
            if (first > COEFFICIENT_MAX) {
                return false;
            }
            uint64_t most = first + (ways_index > 0 ? second : 0);
            probe = most > probe ? most : probe;
        }
        for (unsigned line_index = 0; line_index < STC_LINE_SIZES; line_index++) {
            uint64_t value = monitor_quantise(charges->miss[size_index][line_index], unit_exponent);
            miss = value > miss ? value : miss;
        }
        uint64_t value = monitor_quantise(charges->writeback[size_index], unit_exponent);
        writeback = value > writeback ? value : writeback;
        if (second > COEFFICIENT_MAX) {
            return false;
        }
    }
    return miss <= COEFFICIENT_MAX && writeback <= COEFFICIENT_MAX &&
           probe + miss + STC_MAX_SUBLINES * writeback <= COEFFICIENT_SUM_MAX;
}

int stc_fixed_monitor_from_table(const stc_energy_table *table,
                                 stc_fixed_monitor_coefficients *coefficients, char *err,
                                 size_t err_len)
{
    /* The seed's coefficients check every energy the monitor uses but the
     * writeback one. */
    table_extent extent;
    if (measure_table(table, &extent, err, err_len) != 0 ||
        check_energy(table, table->writeback_nj, "writeback energy (writeback_nj)", err,
                     err_len) != 0) {
        return -1;
    }
    monitor_charges charges;
    monitor_charges_of(table, extent.sizes, &charges);
    int unit_exponent;
    if (choose_unit(table, monitor_largest(&charges), monitor_unit_fits, &charges, &unit_exponent,
                    err, err_len) != 0) {
        return -1;
    }
    double nj_per_unit = ldexp(1.0, unit_exponent);
    memset(coefficients, 0, sizeof *coefficients);
    coefficients->nj_per_unit = nj_per_unit;
    for (unsigned size_index = 0; size_index < extent.sizes; size_index++) {
        for (unsigned ways_index = 0; ways_index <= size_index; ways_index++) {
            coefficients->probe[size_index][ways_index] =
                (uint16_t)monitor_quantise(charges.probe[size_index][ways_index], unit_exponent);
        }
        coefficients->second_probe[size_index] =
            (uint16_t)monitor_quantise(charges.second_probe[size_index], unit_exponent);
        for (unsigned line_index = 0; line_index < STC_LINE_SIZES; line_index++) {
            coefficients->miss[size_index][line_index] =
                (uint16_t)monitor_quantise(charges.miss[size_index][line_index], unit_exponent);
        }
        coefficients->writeback[size_index] =
            (uint16_t)monitor_quantise(charges.writeback[size_index], unit_exponent);
    }
    return 0;
}

uint32_t stc_fixed_monitor_energy(const stc_fixed_monitor_coefficients *coefficients,
                                  const stc_config *config,
                                  const stc_fixed_monitor_counts *counts)
{
    if (!coefficients_hold(config)) {
        return ENERGY_MAX;
    }
    const unsigned size_index = stc_log2(config->banks_on);
    const unsigned ways_index = stc_log2(config->ways);
    const unsigned line_index = stc_log2(config->sublines);
    const uint16_t first_probe_hits =
        first_probe_hits_of(config, counts->first_probe_hits, counts->accesses);
    const uint16_t full_probes = (uint16_t)(counts->accesses - first_probe_hits);
    uint32_t energy = 0;
    energy = stc_fixed_multiply_accumulate(energy, counts->misses, coefficients->miss[size_index][line_index]);
    energy = stc_fixed_multiply_accumulate(energy, counts->writebacks, coefficients->writeback[size_index]);
    energy = stc_fixed_multiply_accumulate(energy, full_probes, coefficients->probe[size_index][ways_index]);
    if (config->way_predict) {
        energy = stc_fixed_multiply_accumulate(energy, full_probes, coefficients->second_probe[size_index]);
        energy = stc_fixed_multiply_accumulate(energy, first_probe_hits, coefficients->probe[size_index][0]);
    }
    return energy;
}
