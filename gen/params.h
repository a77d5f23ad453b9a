/*
 * params.h - everything stcgen knows about the cache it generates, derived in
 * one place (docs/ARCHITECTURE.md sections 1 and 14).
 *
 * The geometry and every width that depends on it come from the C model's
 * stc_geometry_init (ref/geometry.c), so the model and the RTL cannot
 * disagree about an address bit; stcgen_params_init adds only what the model
 * has no use for (counter width, options, SRAM shapes, the power controller's
 * constants, the output name). Emitters read this struct and compute nothing
 * from the geometry themselves.
 */
#ifndef STCGEN_PARAMS_H
#define STCGEN_PARAMS_H

#include "coherence_protocol.h"
#include "config.h"
#include "geometry.h"
#include "monitor_tuner.h"
#include "tuner_hw.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    STCGEN_NAME_MAX = 64,
    STCGEN_MAX_BANK_SRAMS = 4, /* SRAM instances in one bank's power domain */
    STCGEN_MAX_VALUES = 64, /* the header's parameter list (a coherent build lists the most) */
    STCGEN_VALUE_NAME_MAX = 32,
    STCGEN_DEFAULT_COUNTER_BITS = 32,
    STCGEN_MIN_COUNTER_BITS = 16, /* the tuner reads 16-bit counters (FIXED_POINT.md) */
    STCGEN_MAX_COUNTER_BITS = 64,
    STCGEN_PWR_SYNC_STAGES = 2 /* flops synchronising each power switch acknowledge */
};

/* Hierarchy names shared by the UPF now and the top (stc_cache) later:
 * docs/ARCHITECTURE.md section 14.3. */
#define STCGEN_TOP_MODULE "stc_cache"
#define STCGEN_POWER_MODULE "stc_power_ctrl"
#define STCGEN_POWER_INSTANCE "u_power"
#define STCGEN_SRAM_MODULE "stc_sram"
#define STCGEN_REGFILE_MODULE "stc_regfile"
/* Simulation pattern of the controller's row-state register file before
 * its reset-time initialisation (the bank SRAMs use 0..2B-1). */
#define STCGEN_ROWSTATE_SEED 1000u
/* The split counters' two register files (their words are garbage until
 * the carry service writes them: zero_q masks them; ARCHITECTURE.md 15.1). */
#define STCGEN_COUNTER_SEED 1100u
/* --debug-break names that break the coherence protocol's table instead
 * of a template line: "coh-" and the table break's name (params.c). */
#define STCGEN_COH_BREAK_PREFIX "coh-"
/* The one coherence break that is not a table's: the arbiter's pointer
 * never moves (fixed priority, core 0 first: unfair). */
#define STCGEN_COH_BREAK_ARBITER "coh-arb-fixed"
/* The snoop port's breaks (atomic bus, ARCHITECTURE.md 19.4): a lookup
 * that does not see the controller's write of the same cycle, and one that
 * takes every bank for a candidate (powered or not, any group). */
#define STCGEN_COH_BREAK_SNOOP_NO_FORWARD "coh-snoop-no-forward"
#define STCGEN_COH_BREAK_SNOOP_ALL_BANKS "coh-snoop-all-banks"
/* The bus sequencer's (atomic bus, 19.6): every memory line of a burst
 * waits the memory's latency, as if memory did not stream a burst. */
#define STCGEN_COH_BREAK_BUS_LATENCY "coh-bus-latency-again"
/* ... and one that ignores the memory's handshake for reads: a run's first
 * beat exactly mem_latency cycles after mem_rd_o, right only for a memory
 * of that fixed latency (the bus before the handshake). */
#define STCGEN_COH_BREAK_BUS_FIXED_LATENCY "coh-bus-fixed-latency"
/* The coherent controller's (template lines, ARCHITECTURE.md 19.5): a store
 * that hits S or O writes without its BusUpgr; a read line always takes S
 * (MESI, MOESI: never E, so a later store upgrades a line nobody shares). */
#define STCGEN_BREAK_UPGRADE_SILENT "upgrade-silent"
#define STCGEN_BREAK_FILL_SHARED "fill-shared"
#define STCGEN_BREAK_NO_SUPPLY "no-supply"
#define STCGEN_BREAK_LOST_UPGRADE "lost-upgrade"
#define STCGEN_TOP_PWR_EN_PORT "pwr_en_o"   /* top output: switch enables */
#define STCGEN_TOP_PWR_ACK_PORT "pwr_ack_i" /* top input: switch acknowledges */

/* One SRAM of a bank: instance u_bank<b>_<role> of stc_sram. */
typedef struct {
    const char *role;      /* "tag", "data": instance and #define names */
    const char *what;      /* one-line description for comments */
    unsigned depth;        /* words (rows) */
    unsigned width;        /* bits per word */
    unsigned gran;         /* bits per write-mask bit (GRAN) */
    unsigned mask_bits;    /* width / gran */
} stcgen_sram_shape;

/* One set mapping of the monitor (ARCHITECTURE.md section 17): the LRU
 * stacks of the configurations with `ways` ways and logical lines of
 * `sublines` physical lines, one SRAM row per watched set. */
typedef struct {
    unsigned ways;         /* W = banks / set groups */
    unsigned sublines;     /* s */
    unsigned sublines_log; /* log2 s */
    unsigned set_bits;     /* log2 of the mapping's sets (groups x rows / s) */
    unsigned rows;         /* watched sets: sets / 2^sample_bits */
    unsigned row_bits;     /* log2 rows */
    unsigned tag_bits;     /* bits of a stored tag */
    unsigned dirty_bits;   /* bits of one clean_upto value (0 .. W) */
    unsigned entry_bits;   /* valid + tag + sublines x clean_upto */
    unsigned buckets;      /* depth buckets: log2 W + 1 */
    unsigned count_base;   /* index of its first count (hit bucket 0) */
} stcgen_monitor_map;

enum { STCGEN_MAX_MONITOR_MAPS = 18 };

typedef struct {
    /* User parameters: the model's geometry plus what only the RTL has. */
    stc_geometry geometry; /* derived fields filled by stc_geometry_init */
    unsigned counter_bits; /* saturating event counters (section 9) */
    bool way_prediction;   /* build the second-probe logic (section 8) */
    bool walk_moves;       /* a reconfiguration's walk moves lines to free slots of
                              their new candidates (section 7); false with
                              --no-walk-moves, --fixed (no walk) and --protocol
                              on the atomic bus (the coherent controller drops
                              them) */
    bool tuner;            /* build the hardware tuner (ARCHITECTURE.md section 16) */
    unsigned tuner_mult;   /* tuner multiplier, STC_TUNER_MULT_* (ref/tuner_hw.h): array,
                              serial (16 cycles a step), radix 4 (8), radix 16 (4) */
    bool tuner_const_coefs; /* tuner coefficients are constants instead of registers */
    bool tuner_lean_regs;  /* the seed tuner's lean register block (ARCHITECTURE.md 16.7) */
    bool tuner_no_triggers; /* the seed tuner without its re-tune triggers (16.7) */
    bool tuner_monitor;    /* the tuner is the monitor tuner (stc_monitor and
                              stc_monitor_tuner, sections 17-18) instead of the
                              seed heuristic's stc_tuner (section 16) */
    bool monitor;          /* write stc_monitor.v (section 17) */
    unsigned monitor_sample_bits; /* 1 / 2^bits of the sets watched at a time */
    unsigned monitor_rotate;      /* observed accesses per watched group (0: fixed) */
    unsigned monitor_tag_bits;    /* bits of a shadow tag */
    unsigned monitor_count_bits;  /* bits of a count; all halved when one fills */
    unsigned monitor_window;      /* decision unit: accesses between decisions */
    unsigned monitor_margin;      /* decision unit: move only if 1/2^margin lower */
    unsigned monitor_walk_min;    /* decision unit: watched accesses before a change
                                     that walks may be offered (0: any change) */
    /* Test aid, never on by default: the name of one deliberate bug
     * (stcgen --debug-break NAME, emit_ctrl.c's list) the lockstep harness
     * must catch; NULL for a correct controller. */
    const char *debug_break;
    const char *fixed;     /* NULL, or the configuration of a non-configurable
                              baseline (--fixed NAME, section 14.1; not owned) */
    /* The coherence protocol's tables as RTL (--protocol P [--bus B],
     * ARCHITECTURE.md 19.1): false writes none. */
    bool coherence;
    stc_coh_protocol coh_protocol;
    stc_coh_bus_model coh_bus;
    bool coh_bus_given;    /* --bus was on the command line (needs --protocol) */
    unsigned coh_cores;    /* --cores: the bus arbiter's requesters, 2..8 (2 with
                              --protocol when not given) */
    bool coh_cores_given;  /* --cores was on the command line (needs --protocol) */
    /* Test aid: "coh-NAME" of --debug-break, a break of the protocol's table
     * (stc_coh_break or stc_coh_sp_break NAME) that the table check must
     * catch; NULL for the protocol's own table. Not owned. */
    const char *coh_break;

    /* The command that made the output, for the file headers (not owned). */
    const char *command;

    /* Derived by stcgen_params_init. */
    char name[STCGEN_NAME_MAX]; /* b4_2k_l16_a32: see stcgen_params_name */
    char reset_config[STC_CONFIG_NAME_MAX];
    stc_config reset;         /* the reset configuration (the fixed one with --fixed) */
    unsigned configs;         /* legal configurations (stc_config_enumerate) */
    unsigned line_bits;       /* line_bytes * 8 */
    unsigned word_bits;       /* STC_WORD_BYTES * 8 */
    stcgen_sram_shape bank_srams[STCGEN_MAX_BANK_SRAMS];
    unsigned bank_sram_count;
    unsigned pwr_sync_stages; /* acknowledge synchroniser depth */
    unsigned pwr_state_bits;  /* per-bank sequencer state register */
    unsigned wake_overhead;   /* T_wake = acknowledge delay + wake_overhead */

    /* The tuner (when built): coefficient registers in register order
     * (ref/tuner_hw.h) with their reset values, from stc_fixed_from_table
     * on the default energy table of the geometry (ref/energy.c), the unit
     * they are in, and the compute cycles of the longest heuristic search. */
    size_t tuner_coefs;
    uint16_t tuner_coef_reset[STC_TUNER_MAX_COEFS];
    double tuner_nj_per_unit;
    unsigned tuner_step_cycles;         /* 1 array, 16 serial */
    unsigned tuner_longest_candidates;  /* configurations the longest search measures */
    unsigned tuner_longest_compute;     /* its compute cycles */

    /* The monitor (when written): its mappings in the model's order
     * (sublines 1, 2, 4 outer, set groups 1 .. banks inner), its counts
     * (0: watched accesses, then per mapping hits by bucket, misses,
     * writebacks by bucket), the clear walk's rows (the largest array's),
     * the width of a physical line number and of the rotation counter. */
    size_t monitor_maps;
    stcgen_monitor_map monitor_map[STCGEN_MAX_MONITOR_MAPS];
    unsigned monitor_counts;
    unsigned monitor_clear_rows;
    unsigned monitor_line_bits;
    unsigned monitor_since_bits;
    unsigned monitor_sel_bits;   /* the count select (cnt_sel_i) */
    unsigned monitor_clear_bits; /* the clear walk's row counter (0 .. clear rows) */
    unsigned monitor_step_bits;  /* the decision unit's step register (longer program) */
    unsigned monitor_win_bits;   /* its window counter (0 .. window - 1) */
    /* The decision unit's programs (ref/monitor_tuner.h), for a D-cache
     * ([0]) and an I-cache ([1], READ_ONLY: no writeback steps), on the
     * default energy table of the geometry. */
    stc_monitor_program monitor_program[2];

    /* With --protocol: the tables the modules are generated from (the
     * protocol's own, or a copy broken by coh_break) and the width of a
     * state code (ARCHITECTURE.md 19.1: a state's code is its index in the
     * table's state list). */
    stc_coh_table coh_table;
    stc_coh_sp_table coh_sp_table;
    unsigned coh_state_bits;
    unsigned coh_core_bits; /* the arbiter's grant index: ceil(log2(coh_cores)) */
    /* The snoop port's duplicate tag array (atomic bus, ARCHITECTURE.md
     * 19.4): a snooped physical line number (addr_bits - offset_bits bits)
     * and one slot's entry (state code, then the cache's full tag). */
    unsigned coh_line_bits;
    unsigned coh_entry_bits;
} stcgen_params;

/* Whether stc_tuner (the seed heuristic's tuner, section 16) is built,
 * and whether the monitor tuner is (sections 17-18): at most one of the two. */
bool stcgen_seed_tuner(const stcgen_params *params);
/* --tuner-mult's values, indexed by STC_TUNER_MULT_*. */
extern const char *const stcgen_tuner_mult_names[4];
bool stcgen_monitor_tuner(const stcgen_params *params);

/* One named number for the file headers and the C header. */
typedef struct {
    char name[STCGEN_VALUE_NAME_MAX]; /* lower case: "tag_bits" */
    uint64_t value;
    const char *what;
    bool derived; /* false: a user parameter */
} stcgen_value;

/* The defaults: ARCHITECTURE.md section 1, 32-bit counters, way prediction
 * and tuner on. command is NULL. */
void stcgen_params_default(stcgen_params *params);

/* Check the user fields, derive the rest. On an illegal value returns -1 and
 * writes into err the model's message ("banks=3: must be a power of two from
 * 1 to 32") or, for the generator's own fields, the same form
 * ("counter_bits=8: must be from 16 to 64"). */
int stcgen_params_init(stcgen_params *params, char *err, size_t err_len);

/* All parameters and derived values, user parameters first, in a fixed
 * order. Returns the number written (at most max). */
size_t stcgen_params_values(const stcgen_params *params, stcgen_value *out, size_t max);

#endif
