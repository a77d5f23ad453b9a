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
 * per size).
 */
#ifndef STC_FIXED_H
#define STC_FIXED_H

#include "config.h"
#include "counters.h"
#include "energy.h"
#include "geometry.h"

#include <stdint.h>

enum { STC_FIXED_COUNTER_BITS = 16, STC_FIXED_COEFFICIENT_BITS = 16, STC_FIXED_ENERGY_BITS = 32 };

/* The tuner's coefficient registers. */
typedef struct {
    uint16_t hit[STC_MAX_SIZES][STC_MAX_SIZES]; /* [size_index][ways_index], 0 where illegal */
    uint16_t miss[STC_LINE_SIZES];              /* [line_index] */
    uint16_t static_per_cycle[STC_MAX_SIZES];   /* [size_index] */
    double nj_per_unit;                         /* energy of one coefficient unit (for reports) */
} stc_fixed_coefficients;

/* The tuner's event counters for one measurement window, each a saturating
 * STC_FIXED_COUNTER_BITS counter. */
typedef struct {
    uint16_t accesses;
    uint16_t misses;
    uint16_t cycles;
    uint16_t first_probe_hits;
} stc_fixed_counters;

/* Quantise a table into coefficients. Returns -1 with a message if a
 * coefficient cannot be represented (documented rule). */
int stc_fixed_from_table(const stc_energy_table *table, stc_fixed_coefficients *coefficients,
                         char *err, size_t err_len);

/* Saturate 64-bit model counters into the tuner's 16-bit window counters. */
stc_fixed_counters stc_fixed_counters_of(const stc_counters *counters);

/* The 32-bit energy the tuner computes for config from counters, exactly as
 * the datapath does it (one multiplier, products and sum as documented). */
uint32_t stc_fixed_energy(const stc_fixed_coefficients *coefficients, const stc_config *config,
                          const stc_fixed_counters *counters);

#endif
