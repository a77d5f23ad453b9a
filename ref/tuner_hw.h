/*
 * tuner_hw.h - the hardware tuner stc_tuner, cycle by cycle: a C model that
 * holds every flop of the generated RTL and steps it one clock at a time
 * (docs/ARCHITECTURE.md section 16 is the contract). The lockstep harness
 * (tests/rtl/tb_tuner.cpp) compares it with the RTL after every clock; the
 * generator (gen/emit_tuner.c) takes the coefficient registers' reset values
 * and the register map from here.
 *
 * Three state machines, as in the seed's Figure 13:
 * - the parameter machine (psm): idle, start point, size, line,
 *   associativity, way prediction, final (apply the best);
 * - the value machine (vsm), reused by every parameter: propose the next
 *   value (V0), hand it to the cache's configuration port and wait for the
 *   change to complete (CFG), measure a window (WIN), compute its energy
 *   (CALC), compare with the best (CMP);
 * - the calculation machine (csm): clear the energy, then one step per
 *   product through the one multiplier, in the order of
 *   docs/FIXED_POINT.md section 2 (misses x miss[L], cycles x static[k],
 *   (accesses - fph) x hit[k][a], and with way prediction (accesses - fph) x
 *   stall, fph x hit[k][1]). The array multiplier takes one cycle per step,
 *   the serial one 16 (one multiplier bit per cycle, shift-and-add into a
 *   32-bit product register), the radix-4 / radix-16 one 8 / 4 (2 / 4 bits
 *   of the counter a cycle: coefficient x digit, shifted to the digit's
 *   place, added straight into the energy; no product register).
 *
 * The search is the seed's heuristic exactly as ref/search.c runs it
 * (ascending, order size, line, assoc, wp, from 1 bank, 1 way, 1 subline,
 * no prediction; "lower" is the strict energy < best_energy); the energy of
 * a window is exactly stc_fixed_energy of its 16-bit counters.
 *
 * Usage, one clock: stc_tuner_hw_outputs (Moore outputs, from the state
 * alone), choose the inputs (cfg_done may answer cfg_valid in the same
 * cycle), stc_tuner_hw_read for a register read (combinational), then
 * stc_tuner_hw_step (the rising edge).
 */
#ifndef STC_TUNER_HW_H
#define STC_TUNER_HW_H

#include "config.h"
#include "fixed.h"
#include "geometry.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Parameter machine states (psm_q). */
enum {
    STC_PSM_IDLE = 0,
    STC_PSM_START = 1,
    STC_PSM_SIZE = 2,
    STC_PSM_LINE = 3,
    STC_PSM_ASSOC = 4,
    STC_PSM_WP = 5,
    STC_PSM_FINAL = 6
};

/* Value machine states (vsm_q). */
enum { STC_VSM_V0 = 0, STC_VSM_CFG = 1, STC_VSM_WIN = 2, STC_VSM_CALC = 3, STC_VSM_CMP = 4 };

/* Calculation machine states (csm_q). */
enum {
    STC_CSM_IDLE = 0,
    STC_CSM_CLEAR = 1,
    STC_CSM_MISS = 2,   /* misses x miss[L] */
    STC_CSM_STATIC = 3, /* cycles x static[k] */
    STC_CSM_HIT = 4,    /* (accesses - fph) x hit[k][a] */
    STC_CSM_STALL = 5,  /* (accesses - fph) x stall, way prediction only */
    STC_CSM_FPH = 6     /* fph x hit[k][1], way prediction only */
};

/* Software register map (word addresses, 32-bit data). */
enum {
    STC_TREG_CTRL = 0,      /* W: bit 0 start a search (ignored while busy); R/W: bit 1 phase
                               trigger enable */
    STC_TREG_WINDOW = 1,    /* R/W [15:0]: accesses per measurement window (reset 1024) */
    STC_TREG_RETUNE = 2,    /* R/W [15:0]: re-tune after this many monitored windows; 0 off */
    STC_TREG_THRESHOLD = 3, /* R/W [15:0]: phase trigger: |misses - tuned misses| > this */
    STC_TREG_STATUS = 4,    /* R: [0] busy [1] done [2] monitoring [3] tuned window taken
                               [6:4] psm [10:8] vsm [14:12] csm [23:16] examined
                               [31:24] searches started (mod 256) */
    STC_TREG_CONFIG = 5,    /* R: [8:0] best (chosen) configuration, [24:16] candidate */
    STC_TREG_ENERGY = 6,    /* R: energy of the last window computed */
    STC_TREG_BEST = 7,      /* R: best energy of the search */
    STC_TREG_COMPUTE = 8,   /* R [15:0]: compute cycles of the current / last search */
    STC_TREG_COUNT_A = 9,   /* R: [15:0] accesses [31:16] misses (window counters) */
    STC_TREG_COUNT_B = 10,  /* R: [15:0] cycles [31:16] first-probe hits */
    STC_TREG_TUNED = 11,    /* R: [15:0] tuned window's misses [31:16] windows since search */
    STC_TREG_BUILD = 12,    /* R: [5:0] coefficients [8] serial multiplier [9] constant
                               coefficients [10] way prediction built [13:12] radix
                               multiplier: 2 radix 4, 3 radix 16 (0 array or serial)
                               [15] lean register block [16] no triggers */
    STC_TREG_COEF = 32,     /* R/W (R only when constant) 32 + i: coefficient register i */
    STC_TREG_ADDR_BITS = 6
};

/* The multiplier (stc_tuner_hw_build.multiplier). Radix 4 / 16 takes 2 / 4
 * bits of the counter a cycle (8 / 4 cycles a step): coefficient x digit,
 * shifted to the digit's place and added straight into the saturating
 * energy (no product register). */
enum {
    STC_TUNER_MULT_ARRAY = 0,
    STC_TUNER_MULT_SERIAL = 1,
    STC_TUNER_MULT_RADIX4 = 2,
    STC_TUNER_MULT_RADIX16 = 3
};

/* stc_tuner_hw_build.options. The lean register block (--tuner-regs lean)
 * has no compute, examined or searches flops (the model still counts them,
 * for the tests; the lockstep does not compare them) and reads only CTRL,
 * WINDOW, RETUNE, THRESHOLD, STATUS [3:0], CONFIG [8:0], TUNED [15:0] and
 * BUILD; every other address reads 0 (coefficient registers are
 * write-only). */
enum { STC_TUNER_OPT_CONST_COEFS = 1, STC_TUNER_OPT_LEAN_REGS = 2, STC_TUNER_OPT_NO_TRIGGERS = 4 };
/* Without triggers (--tuner-triggers off: the seed's tuner, which searches
 * when told to and then rests) nothing is monitored after a search: the
 * window counters stay cleared while idle, CTRL bit 1, RETUNE and
 * THRESHOLD writes are ignored, CTRL, RETUNE, THRESHOLD and TUNED read 0
 * and STATUS [3:2] read 0. The hardware has no phase_en, retune, thresh,
 * tuned, have_ref, ref_miss or since flops (the model keeps them, unused
 * by the outputs; the lockstep does not compare them). BUILD [16] is 1. */
/* ... and its RETUNE register and monitored-window count are 8 bits (a
 * re-tune every 1 to 255 windows; the count saturates at 255). */
enum { STC_TUNER_LEAN_RETUNE_BITS = 8 };

/* Counter bits the multiplier takes a cycle: 16 array, 1 serial, 2, 4. */
unsigned stc_tuner_hw_digit_bits(unsigned multiplier);

enum {
    STC_TUNER_MAX_COEFS = STC_MAX_SIZES * (STC_MAX_SIZES + 1) / 2 + STC_LINE_SIZES + STC_MAX_SIZES + 1,
    STC_TUNER_DEFAULT_WINDOW = 1024,
    STC_TUNER_SERIAL_STEP = 16 /* cycles per multiplier step, serial */
};

/* A configuration as the tuner's registers and the configuration port hold
 * it: [2:0] log2 k, [5:3] log2 a, [7:6] log2 sublines, [8] way prediction. */
unsigned stc_tuner_config_pack(const stc_config *config);
stc_config stc_tuner_config_unpack(unsigned packed);

/* "8K", "512B": the size of 2^size_index banks, as names of coefficients
 * spell it. */
void stc_tuner_size_name(const stc_geometry *geometry, unsigned size_index, char *buf,
                         size_t len);

/* What the hardware was generated with. */
typedef struct {
    stc_geometry geometry;
    unsigned multiplier;    /* STC_TUNER_MULT_*: 0 array (one step per cycle), 1 serial
                               (so a bool "serial" initialises it), 2 radix 4, 3 radix 16 */
    unsigned options;       /* STC_TUNER_OPT_*: 1 constant coefficients (writes ignored; so a
                               bool "constant" initialises it), 2 lean register block,
                               4 no re-tune triggers */
    bool way_prediction;    /* the cache has way prediction (else the wp walk is skipped) */
} stc_tuner_hw_build;

/* Cycles per multiplier step: 1 array, 16 serial, 16 / radix_bits radix. */
unsigned stc_tuner_hw_step_cycles(const stc_tuner_hw_build *build);

/* The coefficient registers in register order: hit (size s, ways w) at
 * s(s+1)/2 + w, then miss[0..2], then static[0..n-1], then the stall
 * register if banks > 1 (n = log2 banks + 1). Returns the count. */
size_t stc_tuner_coef_count(const stc_geometry *geometry);
size_t stc_tuner_coef_registers(const stc_geometry *geometry,
                                const stc_fixed_coefficients *coefficients,
                                uint16_t registers[STC_TUNER_MAX_COEFS]);
/* "hit_8K_4W", "miss_32B", "static_4K", "stall": the register's name. */
void stc_tuner_coef_name(const stc_geometry *geometry, size_t index, char *buf, size_t buf_len);
/* Index of hit[s][w], miss[l], static[s], stall in register order. */
size_t stc_tuner_coef_hit(unsigned size_index, unsigned ways_index);
size_t stc_tuner_coef_miss(const stc_geometry *geometry, unsigned line_index);
size_t stc_tuner_coef_static(const stc_geometry *geometry, unsigned size_index);
size_t stc_tuner_coef_stall(const stc_geometry *geometry);

/* Every flop of stc_tuner, named as in the RTL (without _q). */
typedef struct {
    uint32_t psm, vsm, csm;
    uint32_t mbit;          /* serial: multiplier bit in this step; radix: digit (0 when array) */
    uint32_t prod;          /* serial: shift-add product register (0 when array) */
    uint32_t phase_en;
    uint32_t win_len, retune, thresh;
    uint32_t acc, miss, cyc, fph; /* 16-bit saturating window counters */
    uint32_t cand, best;          /* packed configurations */
    uint32_t cfg_sent;            /* the candidate was accepted, waiting for done */
    uint32_t energy, best_energy;
    uint32_t examined;            /* 8 bits */
    uint32_t compute;             /* 16 bits, saturating */
    uint32_t done, tuned, have_ref;
    uint32_t ref_miss, since;     /* 16 bits; since saturates */
    uint32_t searches;            /* 8 bits, wraps */
    uint16_t coef[STC_TUNER_MAX_COEFS];
} stc_tuner_hw_regs;

typedef struct {
    stc_tuner_hw_build build;
    size_t coef_count;
    uint16_t coef_reset[STC_TUNER_MAX_COEFS];
    stc_tuner_hw_regs q;
} stc_tuner_hw;

/* Inputs of one clock. */
typedef struct {
    bool ev_access, ev_miss, ev_fph, ev_cycle; /* one-cycle event strobes of the cache */
    bool cfg_ready, cfg_done, cfg_err;         /* the cache's configuration port */
    bool reg_we;
    unsigned reg_addr;
    uint32_t reg_wdata;
} stc_tuner_hw_in;

/* Outputs (functions of the state only). */
typedef struct {
    bool busy;
    bool cfg_valid;
    unsigned cfg_banks_log, cfg_ways_log, cfg_sub_log;
    bool cfg_wp;
} stc_tuner_hw_out;

/* Reset: every flop to its reset value; the coefficient registers (and the
 * constants) to coef_reset, coef_count of them (stc_tuner_coef_count). */
void stc_tuner_hw_reset(stc_tuner_hw *tuner, const stc_tuner_hw_build *build,
                        const uint16_t *coef_reset);

void stc_tuner_hw_outputs(const stc_tuner_hw *tuner, stc_tuner_hw_out *out);

/* The register read port: the value at addr (0 for an unmapped address). */
uint32_t stc_tuner_hw_read(const stc_tuner_hw *tuner, unsigned addr);

/* One rising clock edge. */
void stc_tuner_hw_step(stc_tuner_hw *tuner, const stc_tuner_hw_in *in);

/* Compute cycles a search costs (cycles in V0, CALC and CMP): for
 * `candidates` measured configurations of which `wp_candidates` had way
 * prediction, and `failed_steps` value proposals that found no legal next
 * value. Each candidate costs V0 + CALC + CMP = 1 + (1 + steps x M) + 1,
 * steps 3 or 5, M = step_cycles (stc_tuner_hw_step_cycles: 1 array, 16
 * serial, 8 radix 4, 4 radix 16); each failed proposal 1; the final
 * application of the best 1. */
unsigned stc_tuner_hw_compute_cycles(unsigned step_cycles, unsigned candidates,
                                     unsigned wp_candidates, unsigned failed_steps);

/* The longest heuristic search of a geometry (every value lower than the
 * one before, so every walk runs to its end: 1 + log2 B + 2 + log2 B + 1
 * candidates with way prediction, the last with prediction on, and 4
 * failed proposals, one per walk): its candidates and compute cycles. */
void stc_tuner_hw_longest_search(const stc_geometry *geometry, bool way_prediction,
                                 unsigned step_cycles, unsigned *candidates,
                                 unsigned *compute_cycles);

#endif
