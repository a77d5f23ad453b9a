/*
 * snooptb.h - what the two halves of stcsnooptb share (tools/stcsnooptb.c:
 * the seeded traffic against its own reference; tools/snooptb_model.c: the
 * traffic of the coherent stc model, its slots and lookups the expected
 * answers): the cycle's inputs and answers, and the testbench lines.
 *
 * A snoop covers the lines of one aligned group of SNOOP_GROUP_LINES
 * physical lines (a bus item's, 19.4): the port is given one line of the
 * group and a bus code per position p of the group (line (line & ~3) | p,
 * code 0: not snooped), and answers per position.
 */
#ifndef STC_TOOLS_SNOOPTB_H
#define STC_TOOLS_SNOOPTB_H

#include "coherence_protocol.h"
#include "geometry.h"

#include <stdbool.h>
#include <stdint.h>

enum { SNOOP_GROUP_LINES = 4 }; /* the lines of one snoop: an aligned group */

typedef struct {
    unsigned state; /* code: index in the table's state list; 0 is I */
    uint64_t tag;
} tag_slot;

typedef struct {
    const stc_coh_table *table;
    const stc_geometry *geometry;
    unsigned state_bits;
    unsigned bank_index_bits;
    tag_slot *slots; /* rows x banks, row-major */
} reference;

/* One cycle's inputs. */
typedef struct {
    unsigned banks_log, ways_log;
    bool wr_valid, wr_set_tag;
    unsigned wr_row, wr_banks, wr_state;
    uint64_t wr_tag;
    bool snp_valid;
    uint64_t snp_line; /* a line of the group (its position bits are not looked at) */
    unsigned snp_bus[SNOOP_GROUP_LINES]; /* position p's bus code, 0: p not snooped */
} cycle_in;

/* What the port must answer for one line of the group. */
typedef struct {
    bool hit, multi, change, supplies, flushes, shared, known;
    unsigned bank, state, next;
} line_out;

/* What the port must answer in a cycle: position p's line at line[p]. */
typedef struct {
    line_out line[SNOOP_GROUP_LINES];
} cycle_out;

typedef struct {
    /* per snooped line */
    unsigned long hits, forwarded_hits, multi, changes, unknown_rows;
    unsigned long snoop_over_write; /* a snoop's change to a slot wr_* also writes */
    /* per cycle */
    unsigned long slot_writes, reconfigs; /* the model-driven traffic's */
    unsigned long multi_line_changes;     /* snoops changing 2 or more lines */
    bool row_reached[STC_COH_STATE_COUNT][STC_COH_BUS_COUNT];
} coverage;

/* Whether position p of the group is snooped this cycle. */
bool snooptb_snooped(const cycle_in *in, unsigned position);

/* The physical line at position p of snooped line's group. */
uint64_t snooptb_group_line(uint64_t line, unsigned position);

/* The answer of a cycle that snoops nothing: every output 0 but known,
 * which says "not snooped, or a row of the protocol". */
cycle_out snooptb_quiet(void);

/* The table's answer for a snooped line's state code (out->state, out->hit
 * set) and bus code: next, actions, known, change; the row counted in cov. */
void snooptb_answer_row(const reference *ref, unsigned bus, line_out *out, coverage *cov);

/* Counts in cov a snoop that changes the state of 2 or more lines. */
void snooptb_count_group(const cycle_out *out, coverage *cov);

/* The snoops' own writes (19.5): every changing line's slot takes its next
 * state, over what this cycle's wr_* wrote there (after apply_write). */
void snooptb_apply_snoop(reference *ref, const cycle_in *in, const cycle_out *out,
                         coverage *cov);

/* One cyc() line of the testbench: the inputs and the expected answer. */
void print_cycle(const reference *ref, const cycle_in *in, const cycle_out *out,
                 unsigned long number);

/* The reset walk of 19.4's contract: every slot of every row written I
 * (tag 0), one row a cycle, no snoop, in the configuration *in names. */
void snooptb_reset_walk(reference *ref, cycle_in *in, bool print, unsigned long *number);


/* The traffic of a coherent stc system (ref/coherent_stc.h: 3 cores of
 * the reference's geometry and protocol, random loads and stores on lines
 * of a few hot groups of rows, core 0 reconfigured now and then): after
 * every reference each slot of core 0 that changed (valid, tag or state)
 * is written to the port as 19.4's contract says the controller writes
 * it, then lines of a hot line's group (a run of 1-4 positions) are
 * snooped and the answers expected are the model's own (stc_cache_lookup
 * for the bank, stc_cstc_state_of for the state). Starts with the reset
 * walk; *number counts the cycles; prints them if print. Returns 0, or -1
 * with a message in err if the model refuses something. */
int snooptb_model_traffic(reference *ref, coverage *cov, bool print, unsigned long *number,
                          char *err, size_t err_len);

#endif
