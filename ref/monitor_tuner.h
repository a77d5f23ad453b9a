/*
 * monitor_tuner.h - the monitor tuner's decision unit stc_monitor_tuner,
 * clock by clock: a C model holding every flop of the generated RTL under
 * the same name (docs/ARCHITECTURE.md section 18 is the contract).
 *
 * What it does: every `window` accesses it reads the miss monitor's counts
 * (monitor.h, the RTL's stc_monitor) through the monitor's count port and
 * computes the fixed-point energy of every configuration of the geometry
 * (docs/FIXED_POINT.md section 9); the cache moves to the first lowest if
 * that is below the current configuration's energy less 1/2^margin of it.
 *
 * How: a *program* of steps, built once from the geometry and the energy
 * table (stc_monitor_program_build) and shared by this model and the
 * generator, which writes it into the RTL as a case table. One step runs
 * per access the cache completes (the event strobe), not per clock: the
 * unit is paced by the accesses, so a model that knows only the order of
 * accesses (ref/tune.c) is exact without knowing their cycles, and the
 * counts a step reads are the monitor's after every earlier access
 * (stc_monitor counts an event at the end of the cycle after it, and its
 * count port already shows that cycle's increments, so even an access in
 * the very next cycle reads counts that include it: ARCHITECTURE.md 17.3).
 *
 * A step may do three things at once, on the values the flops held before
 * it (so one operand is loaded while the previous one is multiplied):
 * - operand: load a count into the 16-bit operand register, subtract one
 *   from it (stopping at 0: misses are watched accesses less hits), or load watched - min(count, watched) or
 *   min(count, watched) (accesses without / with a first-probe hit; watched
 *   is the count of watched accesses taken when the decision started);
 * - multiply-accumulate: energy += operand x coefficient (32-bit,
 *   saturating; the first product of a configuration replaces the energy);
 * - close a configuration: its energy (the accumulator before the step) is
 *   compared with the lowest so far (strictly lower wins: the first lowest
 *   in enumeration order) and, if it is the configuration in use, kept as
 *   the current energy.
 * The last step decides.
 *
 * Usage, one clock: stc_monitor_tuner_outputs (from the flops alone),
 * stc_monitor_tuner_count_select (the count to put on the monitor's read
 * port), then stc_monitor_tuner_step with that count's value and the other
 * inputs (the rising edge).
 */
#ifndef STC_MONITOR_TUNER_H
#define STC_MONITOR_TUNER_H

#include "config.h"
#include "fixed.h"
#include "geometry.h"
#include "monitor.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The defaults of the generated unit and of `stcsim tune --search monitor`
 * (docs/TUNING.md section 8). */
enum {
    STC_MONITOR_TUNER_DEFAULT_WINDOW = 256, /* accesses between decisions */
    /* 7 and the monitor's 20480 / 6-bit tags chosen together (TUNING.md
     * 8.1, 2026-12-07); 6 before */
    STC_MONITOR_TUNER_DEFAULT_MARGIN = 7,   /* move only if 1/128 lower */
    STC_MONITOR_TUNER_DEFAULT_WALK_MIN = 256 /* watched accesses before a change that walks */
};

typedef enum {
    STC_OPERAND_KEEP = 0,
    STC_OPERAND_LOAD = 1,    /* operand = count */
    STC_OPERAND_SUB = 2,     /* operand = operand - min(count, operand) */
    STC_OPERAND_MISSED = 3,  /* operand = watched - min(count, watched) */
    STC_OPERAND_HIT = 4,     /* operand = min(count, watched) */
    STC_OPERAND_WATCHED = 5, /* operand = watched */
    STC_OPERAND_UNHIT = 6    /* operand = watched now - min(count, watched now) */
} stc_operand_op;

typedef struct {
    stc_operand_op operand;
    unsigned count;        /* the count read (0 when the operand does not read one) */
    bool mac;              /* energy = (mac_first ? 0 : energy) + operand x coefficient */
    bool mac_first;
    unsigned coefficient;  /* index into the program's coefficients */
    bool close;            /* the energy before this step is config_code's */
    unsigned config_code;  /* packed as stc_tuner_config_pack */
} stc_monitor_step;

enum {
    STC_MONITOR_MAX_STEPS = STC_MAX_CONFIGS * (STC_MONITOR_MAX_HIT_TERMS + 7) + 2,
    STC_MONITOR_MAX_COEFFICIENTS = 64
};

/* The steps of one decision and the constants they multiply by. The last
 * step decides (it only reads the registers). */
typedef struct {
    size_t step_count;
    stc_monitor_step steps[STC_MONITOR_MAX_STEPS];
    size_t coefficient_count;
    uint16_t coefficients[STC_MONITOR_MAX_COEFFICIENTS];
    char coefficient_names[STC_MONITOR_MAX_COEFFICIENTS][24]; /* "miss_8K_32B", ... */
    size_t config_count;   /* configurations closed, in stc_config_enumerate's order */
    double nj_per_unit;    /* the coefficients' unit */
} stc_monitor_program;

/* Build the program for the monitor's geometry and layout (only its count
 * order is used) and coefficients quantised from an energy table
 * (stc_fixed_monitor_from_table). read_only: an I-cache (its monitor counts
 * no writebacks, so no step multiplies them). way_prediction: the cache has
 * it built; without it the configurations with prediction are not closed
 * (the controller refuses them, so the unit must never choose one).
 * Returns -1 with a message if a configuration has no mapping in the
 * monitor. */
int stc_monitor_program_build(const stc_monitor *monitor, const stc_geometry *geometry,
                              const stc_fixed_monitor_coefficients *coefficients,
                              bool read_only, bool way_prediction,
                              stc_monitor_program *program, char *err, size_t err_len);

/* What the unit was generated with. */
typedef struct {
    uint32_t window;       /* accesses per decision window, 2 .. 65536 */
    unsigned margin;       /* 0 .. 16: move only if lower than current - current >> margin
                              (0: plainly lower) */
    uint32_t walk_min;     /* 0 .. 65535: a change that walks (fewer banks, or more bank
                              groups: ARCHITECTURE.md 7) is offered only if the decision's
                              watched count is at least this (0: any change). Why: the
                              first decisions judge a few dozen watched accesses of
                              start-up code, and a walk's writebacks and refills cost
                              more than a wrong guess that needs none (TUNING.md 6) */
} stc_monitor_tuner_build;

/* Register map (word addresses, 32-bit data). */
enum {
    STC_MREG_CTRL = 0,     /* R/W [0] decisions enabled (reset 1) */
    STC_MREG_STATUS = 1,   /* R [0] busy (a change requested or in progress) [1] deciding
                              [15:8] decisions made (mod 256) [23:16] changes requested (mod 256) */
    STC_MREG_CHOICE = 2,   /* R [8:0] the last decision's lowest configuration (packed) */
    STC_MREG_LOWEST = 3,   /* R its energy */
    STC_MREG_CURRENT = 4,  /* R the energy of the configuration in use at that decision
                              (all ones if it was not among those closed) */
    STC_MREG_ADDR_BITS = 3
};

/* Every flop of stc_monitor_tuner, named as in the RTL (without _q). */
typedef struct {
    uint32_t enable;
    uint32_t win;          /* accesses in the current window, 0 .. window - 1 */
    uint32_t deciding;
    uint32_t step;         /* the step the next access runs */
    uint32_t watched;      /* 16 bits: count 0 when the decision started */
    uint32_t operand;      /* 16 bits */
    uint32_t energy;       /* 32 bits */
    uint32_t lowest, lowest_code;
    uint32_t current;
    uint32_t pending;      /* a change is offered on the configuration port */
    uint32_t sent;         /* ... accepted, waiting for done */
    uint32_t target;       /* the configuration offered */
    uint32_t decisions, changes; /* 8 bits, wrapping */
} stc_monitor_tuner_regs;

typedef struct {
    stc_monitor_tuner_build build;
    const stc_monitor_program *program; /* not owned; outlives the tuner */
    stc_monitor_tuner_regs q;
} stc_monitor_tuner;

/* Inputs of one clock. */
typedef struct {
    bool ev_access;        /* the cache completed an access this cycle */
    uint16_t count;        /* the monitor's count at stc_monitor_tuner_count_select */
    uint16_t watched;      /* its count 0 (watched accesses), from its own port */
    unsigned current_code; /* the cache's configuration, packed */
    bool cfg_ready, cfg_done, cfg_err;
    bool reg_we;
    unsigned reg_addr;
    uint32_t reg_wdata;
} stc_monitor_tuner_in;

typedef struct {
    bool busy;             /* owns the configuration port */
    bool cfg_valid;
    unsigned cfg_code;     /* the configuration offered, packed */
} stc_monitor_tuner_out;

/* Reset. Returns -1 with a message on a build out of range. */
int stc_monitor_tuner_reset(stc_monitor_tuner *tuner, const stc_monitor_tuner_build *build,
                            const stc_monitor_program *program, char *err, size_t err_len);
void stc_monitor_tuner_outputs(const stc_monitor_tuner *tuner, stc_monitor_tuner_out *out);
/* The count the unit reads this cycle (its cnt_sel_o). */
unsigned stc_monitor_tuner_count_select(const stc_monitor_tuner *tuner);
uint32_t stc_monitor_tuner_read(const stc_monitor_tuner *tuner, unsigned addr);
/* Whether the next access runs the decision's last step: the deciding
 * access, whose change lands before any further request (ARCHITECTURE.md
 * 18.3), so the top does not take the next request back to back (18.7). */
bool stc_monitor_tuner_last_step(const stc_monitor_tuner *tuner);
void stc_monitor_tuner_step(stc_monitor_tuner *tuner, const stc_monitor_tuner_in *in);

#endif
