/*
 * report.h - what the harness tells: the history of recent operations, the
 * mismatch report (the first difference ends the run) and the coverage
 * report printed at the end of a run (tb/README.md, "Reading a mismatch
 * report" and "Coverage report").
 */
#ifndef STC_TB_REPORT_H
#define STC_TB_REPORT_H

#include "cache.h"
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct harness harness;

/* Where a counter clear falls inside a request (--clear-in-request). */
typedef enum { CLEAR_NONE, CLEAR_AT_ACCEPT, CLEAR_AT_RESPONSE } busy_clear;

/* One operation and its outcome in the model, kept for the report (made
 * into text only when a mismatch is reported). */
typedef enum { OP_NONE, OP_LOAD, OP_STORE, OP_RECONFIG, OP_ILLEGAL, OP_CLEAR, OP_MAINTAIN } op_kind;
typedef struct {
    op_kind kind;
    bool done;
    uint64_t start;  /* the cycle the operation was first offered */
    uint64_t addr;
    unsigned be;
    uint32_t wdata;
    stc_config from, to;
    unsigned fields[4]; /* a maintenance operation: op, all */
    /* outcome */
    bool hit;
    unsigned bank;
    uint64_t cycles;
    unsigned writebacks;
    bool by_tuner;    /* a reconfiguration the top's tuner asked for */
    busy_clear clear_inside; /* a request: where a counter clear fell inside it */
} op_record;

/* What a run exercised, per section of ARCHITECTURE.md. */
typedef struct {
    /* configuration coverage */
    uint64_t requests_in[STC_MAX_CONFIGS];
    uint64_t transitions[STC_MAX_CONFIGS][STC_MAX_CONFIGS];
    /* spec cases */
    uint64_t hits, misses, misses_by_n[5], partial_lines, split_bursts, dirty_victims;
    uint64_t first_probe, second_probe, wp_misses;
    uint64_t stores, partial_stores, empty_stores;
    uint64_t walks, walk_writebacks, walk_invalidations, wakes, zero_cost, same, illegal;
    uint64_t walk_moves, moving_rows; /* lines walks moved (ARCHITECTURE.md 7), rows with any */
    uint64_t clears, clears_at_accept, clears_at_response, checkpoints, power_offs, trace_refs, rejected;
    uint64_t counter_port_reads; /* times every counter was read through cnt_value_o */
    uint64_t directed_cases, overlapped, tuner_changes;
    /* requests offered in the previous request's response cycle, and of
     * them accepted there (back to back: section 15.3) */
    uint64_t back_to_back_offered, back_to_back;
    /* maintenance operations (section 7.1) by op and scope (0 line, 1 all);
     * of the line ones, those that found their line */
    uint64_t maintenance[4][2], maintenance_line_present;
    uint64_t maintenance_writebacks, maintenance_invalidations;
} coverage;

/* The name of counter `index` in the RTL's numbering (0 .. NCOUNTERS-1). */
const char *counter_name(unsigned index);

/* A configuration's name (8K_4W_32B style) in the harness's geometry. */
void config_name(harness *h, const stc_config *config, char *buf, size_t len);
/* The index of `config` among the legal configurations h->configs, -1 if
 * it is not one. */
int config_index(harness *h, const stc_config *config);

/* The current operation h->cur is done: mark it and keep it in the history. */
void commit_history(harness *h);

/* The first difference: print the report (who broke the contract: "RTL",
 * "MODEL" or "memory images", what differs, the operation, configurations,
 * history and counters), close the DUT and exit 1, or exit 0 with
 * --expect-mismatch. Does not return. */
void mismatch(harness *h, const char *who, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* The coverage report and the run's summary line ("0 mismatches"). */
void report_coverage(harness *h, double seconds);

#endif
