/*
 * area_model.h - the silicon area of what one plain `stcgen` run builds,
 * without synthesizing it (docs/EXPLORER.md section 3 states the model,
 * its calibration and its error).
 *
 * stcgen writes an I+D pair (stc_cache_pair): two caches of the same
 * geometry, the I-cache read-only, each with its monitor tuner. The area of
 * one cache is
 *
 *   SRAM: every array behind stc_sram, in bits, exactly as the generator
 *         shapes them (ARCHITECTURE.md 14.3: per bank a tag array of R rows
 *         x tag bits and a data array of R rows x 8P bits; the monitor's
 *         shadow-tag arrays, ARCHITECTURE.md 17.2), times an area per bit.
 *         The synthesis flow blackboxes the SRAMs, so that figure is not
 *         measured: it is the energy model's 6T cell (4.5 um^2 in a 0.18 um
 *         logic process) with its x 1.3 periphery (docs/ENERGY.md 3.2), an
 *         assumption;
 *   logic: per synthesized module (controller, monitor, decision unit,
 *         power controller, top) a linear model in a few counts the
 *         geometry fixes (flop bits of the per-row state, bank datapath
 *         bits, monitor counts, decision steps, ...), its coefficients
 *         fitted by least squares to the synth/ reports of 17 caches
 *         (scripts/area-calibrate.sh re-derives them; within 2.6 % of each
 *         of them, about 5 % for a geometry left out of the fit): gate
 *         equivalents (synth/lib/stc_ge.lib, NAND2 = 1), OSU 0.18 um cell
 *         area in um^2 (no wiring), and flip-flops.
 *
 * Total um^2 = SRAM um^2 + logic um^2 (OSU). The model is for plain stcgen
 * (the monitor tuner, 32-bit counters, the monitor's default shape); way
 * prediction built or not.
 */
#ifndef STC_AREA_MODEL_H
#define STC_AREA_MODEL_H

#include "cache.h"
#include "geometry.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Area of one SRAM bit, um^2: 4.5 um^2 6T cell x 1.3 periphery. */
#define STC_AREA_SRAM_UM2_PER_BIT 5.85
/* One bit of the controller's always-on row-state register file
 * (stc_regfile, ARCHITECTURE.md 14.2), which synthesis blackboxes, as a
 * standard-cell latch array (an assumption, not measured): a latch (2.33
 * GE, NanGate DLH_X1 / NAND2_X1) and its share of the read multiplexer,
 * one 2:1 mux (2.33 GE); in OSU 0.18 um, 40 um^2 for the latch (the
 * library gives its LATCH no area: the DFFPOSX1's 96 um^2 x 2.33 / 5.67)
 * and the MUX2X1's 48 um^2. A register-file macro would be smaller. */
#define STC_AREA_REGFILE_GE_PER_BIT 4.67
#define STC_AREA_REGFILE_UM2_PER_BIT 88.0

/* The synthesized modules of one stc_cache, in the reports' order. */
typedef enum {
    STC_AREA_TOP = 0,      /* stc_cache: wiring and one flop */
    STC_AREA_CTRL = 1,     /* stc_cache_ctrl */
    STC_AREA_MONITOR = 2,  /* stc_monitor */
    STC_AREA_DECISION = 3, /* stc_monitor_tuner */
    STC_AREA_POWER = 4,    /* stc_power_ctrl */
    STC_AREA_MODULES = 5
} stc_area_module;

enum { STC_AREA_MAX_TERMS = 5 };

/* The modelled logic of one module: terms[k] x coefficient[k], summed. */
typedef struct {
    size_t term_count;
    double terms[STC_AREA_MAX_TERMS];   /* the counts the model multiplies */
    double ge;                          /* gate equivalents */
    double um2;                         /* OSU 0.18 um cell area */
    double flops;
} stc_area_logic;

typedef struct {
    uint64_t bank_sram_bits;            /* all banks' tag and data arrays */
    uint64_t monitor_sram_bits;         /* the monitor's shadow-tag arrays */
    uint64_t regfile_bits;              /* the controller's register files (row state, counters) */
    double regfile_ge;                  /* regfile_bits x STC_AREA_REGFILE_GE_PER_BIT */
    double regfile_um2;                 /* regfile_bits x STC_AREA_REGFILE_UM2_PER_BIT */
    stc_area_logic module[STC_AREA_MODULES];
    double logic_ge;                    /* the modules summed */
    double logic_um2;
    double flops;
    double sram_um2;                    /* all bits x STC_AREA_SRAM_UM2_PER_BIT */
    double total_um2;                   /* sram_um2 + regfile_um2 + logic_um2 */
} stc_area_cache;

typedef struct {
    stc_area_cache cache[2];            /* [STC_ICACHE] (read-only), [STC_DCACHE] */
    uint64_t sram_bits;                 /* the pair's, summed */
    uint64_t regfile_bits;
    double regfile_ge;
    double regfile_um2;
    /* The pair's logic: the caches' synthesized modules (logic_*) and their
     * register files (regfile_*). */
    double logic_ge;
    double logic_um2;
    double sram_um2;
    double total_um2;
} stc_area;

/* The area of the pair stcgen builds for geometry (passed stc_geometry_init)
 * with way prediction built or not. Returns 0, or -1 with a message when
 * the monitor tuner cannot be shaped for the geometry (stcgen refuses such
 * a geometry too). */
int stc_area_of(const stc_geometry *geometry, bool way_prediction, stc_area *area, char *err,
                size_t err_len);

/* The controller's register files (ARCHITECTURE.md 15.1): the row state, its
 * words (one per aligned group of 4 rows, at least 2) x the bits of a word
 * (4 rows of B valid bits, max(1, B(B-1)/2) recency bits, unless read_only
 * (an I-cache) B dirty bits, and 2B fill-length bits), and the split
 * counters' two copies of 16 words of STC_AREA_COUNTER_BITS - 8 bits. */
enum { STC_AREA_COUNTER_BITS = 32 }; /* stcgen's default counter width */
uint64_t stc_area_regfile_bits(const stc_geometry *geometry, bool read_only);
unsigned stc_area_row_state_word_bits(const stc_geometry *geometry, bool read_only);

/* The synthesized module's name ("stc_cache_ctrl") and the name of each
 * of its terms ("state_bits"), for reports and scripts/area-calibrate.sh. */
const char *stc_area_module_name(stc_area_module module);
const char *stc_area_term_name(stc_area_module module, size_t term);

/* ---- The calibration ---------------------------------------------------
 *
 * One synthesized stc_cache (synth/synth.sh on a plain stcgen output; an
 * I-cache is the same output with the top's READ_ONLY parameter set to 1,
 * as stc_cache_pair instantiates u_icache): what its report measured.
 */
typedef struct {
    const char *name;        /* its folder under the synthesis output */
    unsigned banks, bank_bytes, line_bytes;
    bool way_prediction;
    bool read_only;          /* an I-cache */
    uint64_t sram_bits;      /* the report's SRAM instances, summed */
    double ge, um2, flops;   /* the report's logic totals */
} stc_area_calibration_point;

/* The points the coefficients were fitted to (32-bit addresses). */
size_t stc_area_calibration_points(const stc_area_calibration_point **points);

/* The worst relative error of the model's logic over those points: OSU
 * um^2, GE and flops (fractions: 0.05 is 5 %). */
double stc_area_calibration_error_um2(void);
double stc_area_calibration_error_ge(void);
double stc_area_calibration_error_flops(void);

/* Whether the geometry lies inside the calibrated ranges (banks, bank
 * bytes, line bytes between the points' smallest and largest); outside,
 * the logic is an extrapolation of the linear models. */
bool stc_area_calibrated(const stc_geometry *geometry);

#endif
