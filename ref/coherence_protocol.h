/*
 * coherence_protocol.h - snooping write-invalidate coherence protocols
 * (MSI, MESI, MOESI) as data: one table of rows per protocol
 * (docs/COHERENCE.md, the single definition; Hennessy & Patterson 5.3,
 * figures 5.5-5.7).
 *
 * The tables describe ONE cache block in ONE private write-back cache on an
 * ATOMIC bus: a bus transaction is issued, every other cache snoops it and
 * answers, and the requester finishes, all before the next transaction
 * starts. Only stable states exist; the split-transaction bus and its
 * transient states (IS^D, IM^AD, SM^AD, ...) come later by adding states
 * and rows, which is why a table is a list of rows and not code.
 *
 * Two kinds of row:
 *  - a processor row: what this cache does when its own processor loads,
 *    stores or evicts the block in a given state (next state, bus
 *    transaction issued, hit or miss);
 *  - a snoop row: what this cache does when it observes another cache's bus
 *    transaction for the block (next state, whether it supplies the data,
 *    writes it back to memory, asserts the shared line).
 * Every (state, event) pair of a protocol has exactly one row; a row may be
 * marked impossible where the protocol's invariants exclude it (e.g. M
 * snooping BusUpgr: nobody else holds a copy to upgrade), and the model
 * check (tools/stcmurphi, tests/coherence-check.sh) must then prove it
 * unreachable.
 *
 * The tables are const; a caller that wants to change one (the deliberately
 * broken tables of `stcmurphi --break`) copies the stc_coh_table struct and
 * edits the copy with stc_coh_table_apply_break. No global mutable state.
 */
#ifndef STC_COHERENCE_PROTOCOL_H
#define STC_COHERENCE_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>

/* The protocols; their CLI names are "msi", "mesi", "moesi". */
typedef enum {
    STC_COH_MSI,
    STC_COH_MESI,
    STC_COH_MOESI,
    STC_COH_PROTOCOL_COUNT
} stc_coh_protocol;

/* The stable states of a block in one cache. A protocol has a subset
 * (MSI: I S M; MESI: I S E M; MOESI: I S E O M); I is in every protocol
 * and is the state of every cache at reset.
 *   I  invalid: no copy.
 *   S  shared: clean read-only copy; others may hold S (or, in MOESI, one
 *      may hold O); memory is up to date unless some cache is in O.
 *   E  exclusive: the only copy, clean (memory up to date); a store needs
 *      no bus transaction.
 *   O  owned (MOESI): a dirty copy others may share in S; memory is stale,
 *      so this cache supplies the block on a miss and writes it back when
 *      evicted.
 *   M  modified: the only copy, dirty (memory stale). */
typedef enum {
    STC_COH_I,
    STC_COH_S,
    STC_COH_E,
    STC_COH_O,
    STC_COH_M,
    STC_COH_STATE_COUNT
} stc_coh_state;

/* What this cache's own processor does to the block:
 *   LOAD   read it;
 *   STORE  write it (the whole block: the model's block is one value);
 *   EVICT  replace it (the set needs the frame for another block). */
typedef enum {
    STC_COH_LOAD,
    STC_COH_STORE,
    STC_COH_EVICT,
    STC_COH_PROC_EVENT_COUNT
} stc_coh_proc_event;

/* Bus transactions. A processor row issues one (or NONE); a snoop row
 * answers one issued by another cache (never NONE).
 *   BUS_RD     read miss: the requester wants a readable copy.
 *   BUS_RDX    write miss: the requester wants the only copy, with data;
 *              every other copy is invalidated.
 *   BUS_UPGR   upgrade: the requester already holds current data (S or O)
 *              and wants the only copy; invalidation only, no data moves.
 *   BUS_WB     the requester writes its dirty copy back to memory (BusWB,
 *              "Flush" on eviction); snoopers only observe it. */
typedef enum {
    STC_COH_BUS_NONE,
    STC_COH_BUS_RD,
    STC_COH_BUS_RDX,
    STC_COH_BUS_UPGR,
    STC_COH_BUS_WB,
    STC_COH_BUS_COUNT
} stc_coh_bus;

/* What a cache does for a processor event in a state. */
typedef struct {
    stc_coh_state state;       /* the block's state in this cache before the event */
    stc_coh_proc_event event;
    /* The state after the event. They differ only for a BusRd (a read miss
     * in MESI/MOESI): next_alone when no other cache asserted the shared
     * line (the requester may take E), next_shared when one did. */
    stc_coh_state next_alone;
    stc_coh_state next_shared;
    stc_coh_bus bus;           /* transaction issued, or STC_COH_BUS_NONE */
    /* The block was valid in this cache (tag match) when the event came: a
     * load or store hit (a store to S or O is a hit that still needs
     * BusUpgr, H&P's "write hit ... place invalidate on bus"); for an
     * evict, whether there was anything to evict. */
    bool hit;
    bool impossible;           /* cannot happen (none so far: kept for transient states) */
} stc_coh_proc_row;

/* What a cache does when it snoops another cache's transaction for the
 * block. The requester gets its data from the one cache that supplies, else
 * from memory as it was before the transaction (docs/COHERENCE.md 2). */
typedef struct {
    stc_coh_state state;       /* this (snooping) cache's state before the transaction */
    stc_coh_bus bus;           /* the snooped transaction, never STC_COH_BUS_NONE */
    stc_coh_state next;
    bool supplies;             /* puts its copy on the bus for the requester (cache-to-cache) */
    bool flushes;              /* writes its copy back to memory */
    bool asserts_shared;       /* raises the shared line (a BusRd requester then takes S, not E) */
    /* The protocol's invariants exclude this pair (e.g. M snooping BusUpgr);
     * the generated model raises an error if it is ever reached. An
     * impossible row has no actions and next == state. */
    bool impossible;
} stc_coh_snoop_row;

/* Room for every pair of the stable protocols (5 states x 3 events, 5 x 4
 * snooped transactions); grows when transient states are added. */
enum {
    STC_COH_MAX_PROC_ROWS = STC_COH_STATE_COUNT * STC_COH_PROC_EVENT_COUNT,
    STC_COH_MAX_SNOOP_ROWS = STC_COH_STATE_COUNT * (STC_COH_BUS_COUNT - 1)
};

/* One protocol: its states and rows. Rows are listed, not indexed, so a
 * missing or doubled pair is a fact the self-check can report. A plain
 * struct: copying it (`stc_coh_table copy = *stc_coh_table_of(p);`) gives
 * an editable table. */
typedef struct {
    stc_coh_protocol protocol;
    unsigned state_count;
    stc_coh_state states[STC_COH_STATE_COUNT];  /* in canonical order I S E O M */
    unsigned proc_row_count;
    stc_coh_proc_row proc_rows[STC_COH_MAX_PROC_ROWS];
    unsigned snoop_row_count;
    stc_coh_snoop_row snoop_rows[STC_COH_MAX_SNOOP_ROWS];
} stc_coh_table;

/* Deliberately broken tables, for showing that the model check catches a
 * wrong protocol (tests/coherence-check.sh). Each is an edit of one row:
 *   NO_INVALIDATE  S snooping BusRdX stays S (a missing invalidation);
 *   NO_SUPPLY      M snooping BusRd neither supplies nor flushes, so the
 *                  requester reads memory's stale value;
 *   NO_SHARED      the BusRd requester (I + Load) takes E even when the
 *                  shared line is asserted (MESI, MOESI only). */
typedef enum {
    STC_COH_BREAK_NO_INVALIDATE,
    STC_COH_BREAK_NO_SUPPLY,
    STC_COH_BREAK_NO_SHARED,
    STC_COH_BREAK_COUNT
} stc_coh_break;

/* The protocol's table (static storage; never NULL for a valid protocol). */
const stc_coh_table *stc_coh_table_of(stc_coh_protocol protocol);

/* Whether the protocol of table has state. */
bool stc_coh_table_has_state(const stc_coh_table *table, stc_coh_state state);

/* The row for a pair, or NULL if the table has none (a state outside the
 * protocol, or a table that fails stc_coh_table_check). */
const stc_coh_proc_row *stc_coh_proc_lookup(const stc_coh_table *table, stc_coh_state state,
                                            stc_coh_proc_event event);
const stc_coh_snoop_row *stc_coh_snoop_lookup(const stc_coh_table *table, stc_coh_state state,
                                              stc_coh_bus bus);

/* Self-check: 0 if the table is well formed, else -1 with the first problem
 * in err. Well formed: I is a state; every (state, processor event) and
 * every (state, snooped transaction) pair of the protocol's states has
 * exactly one row and no row names another state; next states are the
 * protocol's; a Load issues only BusRd, a Store only BusRdX or BusUpgr, an
 * Evict only BusWB (or nothing); a Load or Store in I fetches the block
 * (BusRd or BusRdX); BusUpgr and BusWB only from a valid state;
 * next_alone and next_shared differ only on BusRd; hit iff the state is
 * valid; only BusRd and BusRdX are supplied; only BusRd is answered with
 * the shared line; I supplies and flushes nothing; an impossible row has no
 * actions. Whether the protocol is CORRECT is not checked here: that is the
 * model check's job (a broken table passes this check). */
int stc_coh_table_check(const stc_coh_table *table, char *err, size_t err_len);

/* Edit table (a copy) into the broken variant; -1 with a message if the
 * break changes nothing in this protocol (no-shared in MSI). */
int stc_coh_table_apply_break(stc_coh_table *table, stc_coh_break which, char *err,
                              size_t err_len);

/* Names. Protocols: "msi", "mesi", "moesi" (lower case, as on the command
 * line). States: "I" "S" "E" "O" "M". Events: "Load" "Store" "Evict". Bus:
 * "none" "BusRd" "BusRdX" "BusUpgr" "BusWB". Breaks: "no-invalidate",
 * "no-supply", "no-shared". Out of range: "?". */
const char *stc_coh_protocol_name(stc_coh_protocol protocol);
const char *stc_coh_state_name(stc_coh_state state);
const char *stc_coh_proc_event_name(stc_coh_proc_event event);
const char *stc_coh_bus_name(stc_coh_bus bus);
const char *stc_coh_break_name(stc_coh_break which);
/* One line on what a break does, for the generated model's header. */
const char *stc_coh_break_what(stc_coh_break which);

/* Parse a protocol name (exactly as stc_coh_protocol_name spells it) or a
 * break name; -1 with a message listing the accepted names. */
int stc_coh_protocol_parse(const char *name, stc_coh_protocol *protocol, char *err,
                           size_t err_len);
int stc_coh_break_parse(const char *name, stc_coh_break *which, char *err, size_t err_len);

#endif
