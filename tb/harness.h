/*
 * harness.h - the state of one lockstep run: the options, the model and
 * its memory, the DUT and the C models of its memory and power switches,
 * the shadow memory, the transaction logs, the random stream, the stimuli
 * and the bookkeeping of the reports. One `harness` is made by main and
 * passed by pointer to every part of the harness.
 */
#ifndef STC_TB_HARNESS_H
#define STC_TB_HARNESS_H

#include "cache.h"
#include "config.h"
#include "dut.h"
#include "geometry.h"
#include "memory_image.h"
#include "monitor_side.h"
#include "report.h"
#include "rng.h"
#include "stimuli.h"
#include "tuner_side.h"
#include "txn_log.h"
#include "variant.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The command line (lockstep -h). */
typedef struct {
    uint64_t seed;
    uint64_t requests;
    unsigned reconfig_every; /* mean requests between reconfigurations, 0 = never */
    unsigned checkpoint_every;
    unsigned clear_every;
    unsigned clear_in_request; /* mean requests between clears inside a request, 0 = never */
    unsigned maintain_every;   /* mean requests between maintenance operations, 0 = never */
    unsigned locality; /* percent of requests near the previous one */
    unsigned hot_lines;
    unsigned writes;   /* percent stores */
    unsigned latency;  /* T_mem of the fixed-latency memory */
    unsigned ack_delay;
    unsigned model_latency; /* test aids: the model's T_mem and T_wake, */
    unsigned model_wake;    /* UINT32_MAX = follow the memory and switches */
    bool random_memory;
    const char *trace;
    const char *wave;
    bool plain_eval;   /* --plain-eval: dut_open's plain_eval */
    const char *start_config;
    bool directed;
    bool expect_mismatch;
    bool quiet;
    bool bench;
    /* --tune: the top's tuner searches (tuner_side.h) */
    bool tune;
    unsigned tune_window, retune, phase_threshold;
    uint64_t tune_coef_seed;    /* --tune-coefs: non-default coefficients from this seed (0: none) */
    unsigned contend;           /* --contend: every N-th tuner change finds software waiting (0: never) */
} options;

struct harness {
    options opt;
    rng rng; /* every random draw of the run */
    stimuli stimuli;

    /* the model */
    stc_geometry geometry;                /* the generated geometry, T_mem, T_wake */
    stc_config configs[STC_MAX_CONFIGS]; /* the legal configurations */
    size_t config_count;
    stc_cache *model;
    /* the model's memory, the RTL's memory, what the CPU wrote */
    memory_image model_mem, rtl_mem, shadow;
    /* the current operation's memory transactions */
    txn_log model_log, rtl_log;

    /* the RTL */
    dut *rtl;
    dut_pins pins;
    uint64_t cycle; /* clock cycles since reset */
    bool accepted_at_edge; /* the last edge accepted a CPU request */

    /* the RTL memory model */
    enum { M_IDLE, M_RWAIT, M_RBEATS, M_WBEATS, M_WWAIT } mstate;
    unsigned mcount, mbeats;
    uint64_t maddr;
    bool m_ready, m_rvalid, m_wready, m_bvalid;
    transaction *mtxn;

    /* power switches */
    uint32_t pwr_en_prev, ack;
    bool initialising;        /* wait_row_state_init: the pair's other side initialises too */
    bool maintaining;         /* a maintenance operation is offered or running */
    uint32_t ack_pending_mask, ack_pending_value;
    uint64_t ack_time[32];
    uint64_t last_cfg_done;
    bool last_cfg_shrank;       /* that change powered banks down (section 14.4's gap) */
    unsigned max_ack_delay;

    /* bookkeeping */
    uint64_t ops, requests, reconfigs;
    op_record history[HISTORY];
    unsigned history_next;
    op_record cur;
    coverage cov;
    uint32_t stamp;
    uint64_t rtl_counts[NCOUNTERS]; /* the RTL's counters when last read */
    bool counts_fresh;              /* read in this cycle: no need to read again */
    bool strobes;              /* the top has the tuner's event strobes */
    uint64_t strobe_counts[4]; /* strobes seen since the last counter clear */
    int config_at; /* index of the model's configuration in configs */
    /* A CPU request offered together with a configuration (section 15.2:
     * the configuration goes first; the request waits, then is served). */
    struct {
        bool on, we;
        uint64_t addr;
        unsigned be;
        uint32_t wdata;
    } pending;
    uint64_t scramble_seed; /* the garbage of the next bank switched off */
    tuner_side tune;        /* the top's tuner and its references (--tune) */
    monitor_side mon;       /* the top's monitor tuner and its models (always, if built) */
    busy_clear busy_clear; /* a counter clear inside the next request (--clear-in-request) */
    /* A request whose response cycle is settled but whose edge is still to
     * come, so that the next request can be offered in that cycle
     * (ARCHITECTURE.md 15.3); what is left to compare of it runs after the
     * edge (finish_request, operations.h). */
    struct {
        bool on, we, rejected;
        uint64_t addr;
        busy_clear clear;
        stc_access_result result;
        uint32_t model_word, rdata, err;
        unsigned touch;
        int response_strobes;
        uint64_t accept_cycle, response_cycle;
        uint64_t before[NCOUNTERS];
    } open;
};

#endif
