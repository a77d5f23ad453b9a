/*
 * coherence_protocol.h - snooping write-invalidate coherence protocols
 * (MSI, MESI, MOESI) as data: one table of rows per protocol
 * (docs/COHERENCE.md, the single definition; Hennessy & Patterson 5.3,
 * figures 5.5-5.7).
 *
 * The tables describe ONE cache block in ONE private write-back cache on an
 * ATOMIC bus: a bus transaction is issued, every other cache snoops it and
 * answers, and the requester finishes, all before the next transaction
 * starts. Only stable states exist there. The split-transaction bus, with
 * its transient states (IS^D, IM^AD, SM^AD, ...), has tables of its own,
 * declared at the end of this header.
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
#include <stdint.h>

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

/* How often each (state, event) pair of a table ran in an atomic model:
 * a processor row per access (an upgrade included), per line a miss
 * fetches beside the requested one (I, Load) and per copy that leaves
 * (state, Evict); a snoop row per cache that looked the block up for
 * another's transaction, in I when it holds no copy (a snoop filter's
 * excluded caches look nothing up). The pairs a protocol tester and the
 * lockstep harness report as covered ([coherence-rtl]). */
typedef struct {
    uint64_t proc[STC_COH_STATE_COUNT][STC_COH_PROC_EVENT_COUNT];
    uint64_t snoop[STC_COH_STATE_COUNT][STC_COH_BUS_COUNT];
} stc_coh_row_uses;

/* A state's code in RTL (docs/ARCHITECTURE.md 19.1): its index in
 * table->states; 0 if the protocol has no such state. */
unsigned stc_coh_state_code(const stc_coh_table *table, stc_coh_state state);

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


/* ==== The split-transaction bus (docs/COHERENCE.md section 8) ====
 *
 * The second bus model. A cache's request (GetS, GetM, PutM, PutE) is issued into
 * its request queue and later ORDERED by the bus (arbitration picks any
 * pending request); at that point every cache observes it at once (its own
 * row "Own-X", the others "Other-X") and memory decides whether it answers.
 * Data travels separately and later: to a cache on its own response channel
 * (event Own-Data), to memory as a writeback. Between the two the requester
 * waits in a TRANSIENT state named after the textbook (Sorin, Hill & Wood's
 * primer; the seed's figure 5.8): XY^AD goes from X to Y and waits for its
 * own request to be ordered (A) and for data (D); XY^D_Z has seen its
 * request ordered and then another cache's request that will take it to Z
 * once its data has come. The first letter of a state's name is the
 * permission it holds now (I none, S read, O read as the owner of dirty
 * data, E and M read and write).
 *
 * MESI and MOESI (docs/COHERENCE.md 8.7) add the shared line: when a GetS
 * is ordered, every other cache whose row says so raises it (a cache that
 * holds or will hold a copy, or owns the block); the requester's Own-GetS
 * row then takes next_shared, else next, and memory records a requester
 * granted E this way as the owner (E may become M without a bus request,
 * so memory cannot answer for it). E and O answer requests like M.
 *
 * One kind of row: (state, event) -> outcome. Every pair of a protocol's
 * states and the ten events has exactly one row, whose outcome is
 *   ACT         do the row's actions and take its next state,
 *   STALL       a processor event waits until the state has changed
 *               (transient states; never for a bus or data event),
 *   IMPOSSIBLE  the protocol excludes the pair (the model check proves it
 *               unreachable).
 * The atomic tables above are untouched: the C system model (coherent.h)
 * stays on the atomic bus. */

/* The states of a block in one cache on the split-transaction bus. */
typedef enum {
    STC_COH_SP_I,
    STC_COH_SP_S,
    STC_COH_SP_M,
    STC_COH_SP_IS_AD,   /* IS^AD: issued GetS, waiting for it to be ordered and for data */
    STC_COH_SP_IS_D,    /* IS^D: GetS ordered, waiting for data */
    STC_COH_SP_IS_D_I,  /* IS^D_I: then another GetM: load once, then I */
    STC_COH_SP_IM_AD,   /* IM^AD: issued GetM */
    STC_COH_SP_IM_D,    /* IM^D: GetM ordered: owner-to-be, waiting for data */
    STC_COH_SP_IM_D_I,  /* IM^D_I: then another GetM: store, pass the data on, I */
    STC_COH_SP_IM_D_S,  /* IM^D_S: then a GetS: store, data to it and memory, S */
    STC_COH_SP_IM_D_SI, /* IM^D_SI: a GetS, then a GetM: as IM^D_S, but end in I */
    STC_COH_SP_SM_AD,   /* SM^AD: S copy kept readable, GetM issued */
    STC_COH_SP_SM_D,    /* SM^D .. SM^D_SI: as IM^D .., from S */
    STC_COH_SP_SM_D_I,
    STC_COH_SP_SM_D_S,
    STC_COH_SP_SM_D_SI,
    STC_COH_SP_MI_A,    /* MI^A: PutM issued, block in the writeback buffer, still the owner */
    STC_COH_SP_II_A,    /* II^A: lost ownership before its PutM was ordered */
    /* MESI, MOESI */
    STC_COH_SP_E,       /* E: the only copy, clean, owner (a store makes it M silently) */
    STC_COH_SP_IE_D,    /* IE^D: GetS ordered with the shared line low: owner-to-be, E when data comes */
    STC_COH_SP_IE_D_I,  /* IE^D_I .. IE^D_SI: as IM^D_I .., the load instead of a store */
    STC_COH_SP_IE_D_S,
    STC_COH_SP_IE_D_SI,
    /* MOESI */
    STC_COH_SP_O,       /* O: owner of dirty data others may share in S */
    STC_COH_SP_OM_AD,   /* OM^AD: O copy kept readable and owned, GetM issued (needs no data) */
    STC_COH_SP_OI_A,    /* OI^A: PutM issued from O, still the owner, still supplies */
    /* MESI, MOESI (after MOESI's so that the older states keep their numbers) */
    STC_COH_SP_EI_A,    /* EI^A: PutE issued from E, still the owner; no store (no data follows) */
    STC_COH_SP_STATE_COUNT
} stc_coh_sp_state;

/* The events a cache's row answers. */
typedef enum {
    STC_COH_SP_LOAD,        /* processor events, as on the atomic bus */
    STC_COH_SP_STORE,
    STC_COH_SP_EVICT,
    STC_COH_SP_OWN_GETS,    /* this cache's own request is ordered by the bus */
    STC_COH_SP_OWN_GETM,
    STC_COH_SP_OWN_PUTM,    /* a put (PutM or PutE: both are puts to every cache) */
    STC_COH_SP_OWN_DATA,    /* the data for this cache's GetS/GetM arrives */
    STC_COH_SP_OTHER_GETS,  /* another cache's request is ordered */
    STC_COH_SP_OTHER_GETM,
    STC_COH_SP_OTHER_PUTM,
    STC_COH_SP_EVENT_COUNT
} stc_coh_sp_event;

/* Bus requests: GetS (a readable copy), GetM (the only copy, with data:
 * also from S, since the copy may be lost before the request is ordered),
 * PutM (the owner writes back), PutE (an E owner gives ownership back
 * without data: memory's copy is current; docs/COHERENCE.md 8.7 decision
 * 3). A PutE is a PutM flavour to the caches: both are ordered as the
 * Own-PutM / Other-PutM events (stc_coh_sp_ordered_event); only memory
 * tells them apart, expecting a writeback after a PutM and none after a
 * PutE. */
typedef enum {
    STC_COH_SP_REQ_NONE,
    STC_COH_SP_GETS,
    STC_COH_SP_GETM,
    STC_COH_SP_PUTM,
    STC_COH_SP_PUTE,
    STC_COH_SP_REQ_COUNT
} stc_coh_sp_req;

typedef enum {
    STC_COH_SP_ACT,
    STC_COH_SP_STALL,
    STC_COH_SP_IMPOSSIBLE,
    STC_COH_SP_OUTCOME_COUNT
} stc_coh_sp_outcome;

/* What the processor operation does in this row: nothing, the load (which
 * returns the copy's value), or the store (which writes the value chosen
 * when the GetM was ordered, or now for a hit). */
typedef enum { STC_COH_SP_DO_NONE, STC_COH_SP_DO_LOAD, STC_COH_SP_DO_STORE } stc_coh_sp_perform;

/* Sending the block: NONE; NOW (this cache's copy goes out in this row);
 * LATER (promised in an Other-X row of a state still waiting for its own
 * data: to the requester, whose id the cache remembers; to memory, which
 * counts the writeback it now waits for), kept by an Own-Data row with
 * NOW. */
typedef enum { STC_COH_SP_SEND_NONE, STC_COH_SP_SEND_NOW, STC_COH_SP_SEND_LATER } stc_coh_sp_send;

typedef struct {
    stc_coh_sp_state state;
    stc_coh_sp_event event;
    stc_coh_sp_outcome outcome;
    stc_coh_sp_state next;       /* == state unless ACT changes it */
    stc_coh_sp_req issue;        /* processor rows: the request put in the queue */
    stc_coh_sp_perform perform;  /* Load/Store hits, Own-Data */
    stc_coh_sp_send to_requester; /* Other-GetS/GetM: the other requester; Own-Data: the remembered one */
    stc_coh_sp_send to_memory;   /* Other-GetS, Own-PutM, Own-Data */
    /* Own-GetS: the next state when some other cache raised the shared
     * line (next is then the state when none did: the E grant); == next in
     * every other row and wherever the protocol has no E. */
    stc_coh_sp_state next_shared;
    bool asserts_shared;         /* Other-GetS: raises the shared line */
} stc_coh_sp_row;

enum { STC_COH_SP_MAX_ROWS = STC_COH_SP_STATE_COUNT * STC_COH_SP_EVENT_COUNT };

typedef struct {
    stc_coh_protocol protocol;
    unsigned state_count;
    stc_coh_sp_state states[STC_COH_SP_STATE_COUNT];  /* stable ones first */
    unsigned row_count;
    stc_coh_sp_row rows[STC_COH_SP_MAX_ROWS];
} stc_coh_sp_table;

/* The bus models; CLI names "atomic", "split". */
typedef enum { STC_COH_BUS_ATOMIC, STC_COH_BUS_SPLIT, STC_COH_BUS_MODEL_COUNT } stc_coh_bus_model;

/* Broken split tables (tests/coherence-check.sh), one row each:
 *   SP_NO_TRANSIENT_INVALIDATE  SM^AD seeing Other-GetM keeps its S copy
 *                               (stays SM^AD instead of IM^AD);
 *   SP_NO_IS_D_I                IS^D seeing Other-GetM stays IS^D (so it
 *                               ends in S with a copy about to be stale);
 *   SP_NO_WRITEBACK             MI^A's own PutM goes to I without sending
 *                               the data memory counts on;
 *   SP_NO_SHARED                IS^AD's Own-GetS takes IE^D even when the
 *                               shared line is raised (MESI, MOESI);
 *   SP_SILENT_E_EVICT           E is evicted silently (to I, no PutM) while
 *                               memory still records it as the owner (MESI,
 *                               MOESI);
 *   SP_OWNER_NO_SUPPLY          O seeing Other-GetS does not send the data
 *                               (MOESI);
 *   SP_STORE_AFTER_PUTE         EI^A performs a store (as MI^A may) although
 *                               its PutE tells memory no data follows: the
 *                               store is lost (MESI, MOESI). */
typedef enum {
    STC_COH_SP_BREAK_NO_TRANSIENT_INVALIDATE,
    STC_COH_SP_BREAK_NO_IS_D_I,
    STC_COH_SP_BREAK_NO_WRITEBACK,
    STC_COH_SP_BREAK_NO_SHARED,
    STC_COH_SP_BREAK_SILENT_E_EVICT,
    STC_COH_SP_BREAK_OWNER_NO_SUPPLY,
    STC_COH_SP_BREAK_STORE_AFTER_PUTE,
    STC_COH_SP_BREAK_COUNT
} stc_coh_sp_break;

/* The protocol's split-transaction table (every protocol has one; NULL
 * only out of range). */
const stc_coh_sp_table *stc_coh_sp_table_of(stc_coh_protocol protocol);
bool stc_coh_sp_table_has_state(const stc_coh_sp_table *table, stc_coh_sp_state state);
/* As stc_coh_state_code, for the split table's states. */
unsigned stc_coh_sp_state_code(const stc_coh_sp_table *table, stc_coh_sp_state state);
const stc_coh_sp_row *stc_coh_sp_lookup(const stc_coh_sp_table *table, stc_coh_sp_state state,
                                        stc_coh_sp_event event);

/* Self-check, as stc_coh_table_check: every (state, event) pair exactly one
 * row; next states the protocol's; STALL only for processor events;
 * IMPOSSIBLE and STALL rows without actions; a request issued only by a
 * processor event that fits it (Load GetS, Store GetM, Evict PutM, or
 * PutE from E) and only from a stable state, which then changes; the state
 * a PutE leads to sends memory nothing on its Own-PutM; a load or store performed
 * only by its processor event or by Own-Data (a store also by Own-GetM
 * from a state holding the data: an upgrade that needs none); next_shared
 * differing from next only on Own-GetS, asserts_shared only on
 * Other-GetS; data sent NOW only from a
 * state holding the block (first letter S or M) or by Own-Data; LATER
 * only in Other-X rows; to the requester only on Other-GetS/GetM and
 * Own-Data, to memory only on Other-GetS, Own-PutM and Own-Data. */
int stc_coh_sp_table_check(const stc_coh_sp_table *table, char *err, size_t err_len);
int stc_coh_sp_table_apply_break(stc_coh_sp_table *table, stc_coh_sp_break which, char *err,
                                 size_t err_len);

/* Names: states "IS^D_I" (stc_coh_sp_state_name) or "IS_D_I" (an
 * identifier: stc_coh_sp_state_ident); events "Own-GetS"; requests "GetS";
 * bus models "atomic", "split"; breaks "no-transient-invalidate",
 * "no-is-d-i", "no-writeback", "no-shared", "silent-e-evict",
 * "owner-no-supply", "store-after-pute". Out of range: "?". */
const char *stc_coh_sp_state_name(stc_coh_sp_state state);
const char *stc_coh_sp_state_ident(stc_coh_sp_state state);
const char *stc_coh_sp_event_name(stc_coh_sp_event event);
const char *stc_coh_sp_req_name(stc_coh_sp_req req);
const char *stc_coh_bus_model_name(stc_coh_bus_model model);
const char *stc_coh_sp_break_name(stc_coh_sp_break which);
const char *stc_coh_sp_break_what(stc_coh_sp_break which);
/* The permission a state holds now, from the first letter of its name:
 * STC_COH_I (none), STC_COH_S (read), STC_COH_O (read; owner),
 * STC_COH_E or STC_COH_M (read and write). */
stc_coh_state stc_coh_sp_permission(stc_coh_sp_state state);
/* Stable: I, S, E, O, M (no pending request, no awaited data). */
bool stc_coh_sp_stable(stc_coh_sp_state state);
/* The event ordering request req is to the requester (own) or to every
 * other cache: Own-GetS / Other-GetS for GetS, and so on; a PutE is ordered
 * as Own-PutM / Other-PutM. */
stc_coh_sp_event stc_coh_sp_ordered_event(stc_coh_sp_req req, bool own);

int stc_coh_bus_model_parse(const char *name, stc_coh_bus_model *model, char *err,
                            size_t err_len);
int stc_coh_sp_break_parse(const char *name, stc_coh_sp_break *which, char *err,
                           size_t err_len);

#endif
