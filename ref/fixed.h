/*
 * fixed.h - the exact integer energy arithmetic of the hardware tuner (the
 * seed's datapath table, generalised to any geometry), and the conversion
 * of an energy table into the tuner's 16-bit coefficients. The generator
 * takes the tuner's reset values from stc_fixed_from_table, so the RTL and
 * this model cannot disagree (docs/FIXED_POINT.md: scaling, rounding,
 * overflow, saturation).
 *
 * Deviations from the seed's datapath, each for a reason given in
 * docs/FIXED_POINT.md: the event counters are accesses, misses and cycles
 * plus first-probe hits (way prediction's energy depends on it); the
 * coefficient count follows the geometry (one hit energy per legal
 * (size, associativity), one miss energy per line size, one static energy
 * per size) plus one stall energy (way prediction's second probe cycle,
 * as the float model charges it).
 */
#ifndef STC_FIXED_H
#define STC_FIXED_H

#include "config.h"
#include "counters.h"
#include "energy.h"
#include "geometry.h"

#include <stdint.h>

enum { STC_FIXED_COUNTER_BITS = 16, STC_FIXED_COEFFICIENT_BITS = 16, STC_FIXED_ENERGY_BITS = 32 };

/* The tuner's coefficient registers, all in one unit of nj_per_unit nJ (a
 * power of two chosen per table: the finest with every coefficient in 16
 * bits and the largest probe (hit, or hit + stall), miss and static
 * coefficients adding up to at most 2^16, so no window's energy can reach
 * 2^32 - 1). Indices as in energy.h. */
typedef struct {
    uint16_t hit[STC_MAX_SIZES][STC_MAX_SIZES]; /* [size_index][ways_index], 0 where illegal */
    uint16_t miss[STC_LINE_SIZES];              /* [line_index] */
    uint16_t static_per_cycle[STC_MAX_SIZES];   /* [size_index], 0 beyond the geometry */
    uint16_t stall_per_cycle;                   /* way prediction's second probe cycle; 0 if
                                                   the geometry has no multi-way pair */
    double nj_per_unit;                         /* energy of one coefficient unit (for reports) */
} stc_fixed_coefficients;

/* The tuner's event counters for one measurement window, each a saturating
 * STC_FIXED_COUNTER_BITS counter. first_probe_hits is read only for a
 * way-prediction configuration. */
typedef struct {
    uint16_t accesses;
    uint16_t misses;
    uint16_t cycles;
    uint16_t first_probe_hits;
} stc_fixed_counters;

/* Quantise a table into coefficients: each energy rounded to the nearest
 * unit (halves up), 0 stays 0, a positive energy is at least 1 unit;
 * entries no configuration of the table's geometry uses are ignored and
 * left 0. Returns -1 with a message naming the table's source and the
 * entry if a used energy is negative or not finite, the geometry's bank
 * count is not a power of two in 1..STC_MAX_BANKS, every energy is 0, or
 * the unit would not be a normal double. */
int stc_fixed_from_table(const stc_energy_table *table, stc_fixed_coefficients *coefficients,
                         char *err, size_t err_len);

/* Saturate 64-bit model counters into the tuner's 16-bit window counters. */
stc_fixed_counters stc_fixed_counters_of(const stc_counters *counters);

/* The 32-bit energy the tuner computes for config from counters, exactly as
 * the datapath does it: one 16x16 multiplier, steps misses x miss[L],
 * cycles x static[k], (accesses - fph) x hit[k][a] and, with way prediction
 * only, (accesses - fph) x stall and fph x hit[k][1], where
 * fph = min(first_probe_hits, accesses) (0 without way prediction); each
 * product added into a 32-bit register that saturates at 2^32 - 1. With
 * coefficients from stc_fixed_from_table the register never saturates;
 * 2^32 - 1 is also returned for a configuration the registers cannot hold,
 * so it always compares as the worst. */
uint32_t stc_fixed_energy(const stc_fixed_coefficients *coefficients, const stc_config *config,
                          const stc_fixed_counters *counters);

/* One step of the tuners' datapath: energy + count x coefficient, the
 * 32-bit register saturating at all ones (sticky: products are >= 0). */
uint32_t stc_fixed_multiply_accumulate(uint32_t energy, uint16_t count, uint16_t coefficient);

/* ---- The monitor's decision (docs/FIXED_POINT.md section 9) ----------
 *
 * The monitor tuner (TUNING.md 8) has no measured cycle count for the
 * configurations it estimates, so it cannot use the cycles x static step
 * above. Instead every count is charged with its whole energy, the
 * leakage of its cycles folded into the coefficient at generation time
 * (the cycles of a probe, a miss of a logical line and a writeback are
 * constants of the geometry, docs/ARCHITECTURE.md section 10):
 *   probe[k][a]     = hit[k][a] + static[k]          an access's first probe
 *   second_probe[k] = stall + static[k]              way prediction's second probe cycle
 *   miss[k][L]      = miss[L] + line_miss_cycles(L) x static[k]
 *   writeback[k]    = writeback + writeback_cycles x static[k]
 * These are exactly the float model's charges for the monitor's estimate
 * (stc_monitor_estimate then stc_energy_of), so the only error is the
 * rounding to one common unit. */
typedef struct {
    uint16_t probe[STC_MAX_SIZES][STC_MAX_SIZES]; /* [size_index][ways_index], 0 where illegal */
    uint16_t second_probe[STC_MAX_SIZES];         /* [size_index]; 0 for one bank */
    uint16_t miss[STC_MAX_SIZES][STC_LINE_SIZES]; /* [size_index][line_index] */
    uint16_t writeback[STC_MAX_SIZES];            /* [size_index] */
    double nj_per_unit;
} stc_fixed_monitor_coefficients;

/* What the decision reads for one configuration, each at most 2^16 - 1
 * (the monitor's 16-bit counts; writebacks 0 for an I-cache). */
typedef struct {
    uint16_t accesses;
    uint16_t misses;
    uint16_t first_probe_hits; /* read only for a way-prediction configuration */
    uint16_t writebacks;
} stc_fixed_monitor_counts;

/* Significant bits of a monitor coefficient: each is a mantissa below
 * 2^8 shifted left, so the decision unit multiplies its C-bit operand by 8
 * bits and shifts the product (a C x 8 multiplier, not C x 16). Why 8:
 * the decisions on the 13 development traces are those of the 16-bit
 * coefficients (bench 29.95 -> 29.96 % mean saved, the same worst loss);
 * 6 bits begin to change them (FIXED_POINT.md 9). */
#define STC_FIXED_MONITOR_MANTISSA_BITS 8

/* Quantise table (for its geometry's timing) into the monitor's
 * coefficients, each rounded as stc_fixed_from_table does (nearest, halves
 * up, a positive energy at least 1) but to the finest power-of-two
 * multiple of the unit on which it keeps STC_FIXED_MONITOR_MANTISSA_BITS
 * significant bits (a miss of ~7660 units is a multiple of 32). The unit is the
 * finest power of two with every coefficient in 16 bits and the largest
 * probe + second_probe + miss + STC_MAX_SUBLINES x writeback within 2^16
 * units (an access's most: a miss evicts at most one logical line of dirty
 * physical lines), so no decision's energy reaches 2^32 - 1. Errors as
 * stc_fixed_from_table's. */
int stc_fixed_monitor_from_table(const stc_energy_table *table,
                                 stc_fixed_monitor_coefficients *coefficients, char *err,
                                 size_t err_len);

/* A monitor coefficient as the decision unit holds it: coefficient ==
 * mantissa << shift, mantissa < 2^STC_FIXED_MONITOR_MANTISSA_BITS, shift
 * the least that allows it (0 for coefficients below 2^8). Exact for every
 * coefficient stc_fixed_monitor_from_table makes. */
void stc_fixed_monitor_split(uint16_t coefficient, unsigned *mantissa, unsigned *shift);

/* The 32-bit energy the monitor tuner computes for config, in the order of
 * its steps: misses x miss[k][L], writebacks x writeback[k], (accesses -
 * fph) x probe[k][a] and, with way prediction only, (accesses - fph) x
 * second_probe[k] and fph x probe[k][1 way], fph = min(first_probe_hits,
 * accesses), 0 without prediction; saturating at 2^32 - 1 (also returned
 * for a configuration the coefficients cannot hold). */
uint32_t stc_fixed_monitor_energy(const stc_fixed_monitor_coefficients *coefficients,
                                  const stc_config *config,
                                  const stc_fixed_monitor_counts *counts);

#endif
