/*
 * coherent_split_layer.h - the split-transaction bus's machinery
 * (coherent_split.c) as a CACHE LAYER drives it: a model whose caches are
 * not coherent_split.h's set-associative ones (coherent_stc_split.h: the
 * configurable stc caches) keeps the bus, memory's bookkeeping, the rows,
 * the checks, the counters and the scheduler of coherent_split.c and
 * replaces only how a core finds, allocates and fills its frames. INTERNAL:
 * for ref/ only; the public API stays coherent_split.h.
 *
 * A layered system's frames are the layer's (frame_count of them, indexed
 * as the layer likes); the bus finds a core's copy of a block with
 * layer.find_frame (snoops, SWMR, state queries, the processor's lookup),
 * and the hooks below replace the attempt, the allocation of a miss's
 * frame and what happens when a row performs the processor's access.
 */
#ifndef STC_COHERENT_SPLIT_LAYER_H
#define STC_COHERENT_SPLIT_LAYER_H

#include "coherence_book.h"
#include "coherent_split.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct stc_cs_layer {
    void *context;
    /* The frame of core holding block in a state other than I, or -1. */
    long (*find_frame)(void *context, const stc_cs_system *system, unsigned core, uint64_t block);
    /* The frame core's miss on block (book entry `entry`) takes, its block
     * and entry set, its state I; -1 if none is free (the attempt waits). */
    long (*allocate_frame)(void *context, stc_cs_system *system, unsigned core, uint64_t block,
                           uint32_t entry);
    /* Whether core's attempt may run, and the attempt itself (the layer
     * calls stc_csl_attempt_enabled / stc_csl_attempt for the default). */
    bool (*attempt_enabled)(void *context, stc_cs_system *system, unsigned core);
    void (*attempt)(void *context, stc_cs_system *system, unsigned core);
    /* A row performed core's current block access in frame f. Returns
     * whether the access is done now (the reference moves on); false: the
     * layer calls stc_csl_access_done later. */
    bool (*performed)(void *context, stc_cs_system *system, unsigned core, long f);
    /* After every event (before its SWMR checks): the layer syncs its
     * caches with the states the event changed (system->touched). */
    void (*after_event)(void *context, stc_cs_system *system);
} stc_cs_layer;

enum {
    MAX_WINDOW = 64,
    DEFAULT_WINDOW = 8,
    DEFAULT_MAX_DELAY = 8,
    FROM_MEMORY = -1,
    NOBODY = -1
};
#define DEFAULT_WATCHDOG 1000000u

typedef struct {
    uint64_t block;
    uint64_t lru;
    uint32_t entry;
    uint8_t state; /* stc_coh_sp_state; SP_I = the frame is free */
} frame;

/* Memory's view of one block (COHERENCE.md 8.1 item 4). */
typedef struct {
    uint64_t block;
    int owner;                          /* the owning cache, or NOBODY: memory owns */
    uint32_t pending;                   /* writebacks promised, not yet received */
    uint32_t owed[STC_COH_MAX_CORES];   /* 0, or answer after this many more writebacks */
    bool writeback_in_flight;
    /* memory owns because an owner-to-be promised it the data (owe mem),
     * the cause data_from_memory_promised counts */
    bool owned_by_promise;
} block_entry;

typedef struct {
    bool full;
    int from;        /* a core, or FROM_MEMORY */
    uint32_t entry;
    uint64_t ready;  /* deliverable from this time on */
    uint8_t data[STC_COH_MAX_LINE];
} response;

typedef struct {
    uint32_t entry;
    uint64_t ready;
    uint8_t data[STC_COH_MAX_LINE];
} writeback;

typedef struct {
    stc_coh_op op;
    uint64_t addr;
    uint32_t size;
    uint64_t tag;
    uint64_t seq; /* submission order over all cores */
    uint8_t bytes[STC_COH_MAX_LINE];
} reference;

/* A put waiting in a writeback buffer slot for the bus to order it. */
typedef struct {
    stc_coh_sp_req put; /* PutM or PutE */
    uint64_t issued;    /* step, for its latency */
} buffered_put;

typedef struct {
    reference queue[MAX_WINDOW];
    unsigned head, count;
    uint32_t done;                   /* bytes of the head reference performed */
    uint8_t loaded[STC_COH_MAX_LINE];
    bool counted;                    /* the current block access is in hits/misses */
    bool hit;                        /* ... as a hit (its block readable at the first attempt) */
    bool booked;                     /* ... and told to the book (at its ordering point) */
    bool stalled;                    /* ... and in stalls */
    stc_coh_sp_req req;              /* the outstanding request */
    bool ordered;
    size_t req_frame;
    uint64_t req_issued;             /* step */
    int fwd;                         /* the requester promised the block, or NOBODY */
    uint8_t expect[STC_COH_MAX_LINE]; /* the shadow's block at the own request's ordering */
    response resp;
    /* the outstanding request fetches a line for a cache layer (a
     * logical line's sibling): no access of the processor's is ordered or
     * performed with it; its ordering tells the book a fill */
    bool fetch_only;
    /* the writeback buffer: ring position k (oldest first from wb_head)
     * is the slot buffer_slot(core, k); wb_count puts not yet ordered */
    buffered_put wb[STC_CS_MAX_WB_BUFFER];
    unsigned wb_head, wb_count;
} core_state;

/* The block access the head reference is at. */
typedef struct {
    uint64_t block;
    uint32_t offset, len;
} block_access;

typedef struct {
    stc_cs_event kind;
    unsigned index; /* the core, or the writeback */
} sched_event;

struct stc_cs_system {
    stc_cs_config config;
    stc_coh_sp_table table;
    const stc_coh_sp_row *row[STC_COH_SP_STATE_COUNT][STC_COH_SP_EVENT_COUNT];
    bool shared_line; /* some row raises it: a GetS ordered with it low grants E */
    uint32_t sets, line, line_shift;
    frame *frames;  /* every cache's frames, then every core's writeback buffer slots */
    uint8_t *data;
    size_t wb_base; /* frames[wb_base + core * wb_buffer + k]: core's buffer slot k */

    stc_coh_book book;     /* memory's and the shadow's bytes, the miss classes */
    block_entry *entries;  /* [book entry] */
    uint32_t entry_count, entry_capacity;

    core_state core[STC_COH_MAX_CORES];
    writeback *writebacks;
    uint32_t writeback_count, writeback_capacity;

    uint64_t rng;
    uint64_t now;   /* time: one per event, jumps ahead over delays */
    uint64_t steps; /* events run */
    uint64_t clock; /* LRU stamps */
    uint64_t seq;
    uint64_t last_progress;
    bool stuck;
    uint32_t touched[2]; /* the blocks this step touched, for the SWMR check */
    unsigned acting;     /* the core whose event this step runs (0 for a writeback) */
    unsigned touched_count;

    stc_cs_counters counters[STC_COH_MAX_CORES];
    /* The book counts in the atomic models' counters; their miss classes
     * are copied into `counters` after every access told to it. */
    stc_coh_counters book_counters[STC_COH_MAX_CORES];
    uint64_t violations;
    uint64_t violations_of[STC_CS_VIOL_KIND_COUNT];
    stc_cs_violation kept[STC_COH_VIOLATIONS_KEPT];
    char error[256];
    stc_cs_layer layer; /* all NULL: the set-associative caches of coherent_split.h */
};


/* A system driven by layer (copied), with frame_count frames for the
 * layer (at most cores x size_bytes / line_bytes of config: its geometry
 * only sizes the frames, the layer indexes them), then config.wb_buffer
 * writeback buffer slots per core, and book FA caches of fa_lines lines.
 * NULL with err as stc_cs_create. */
stc_cs_system *stc_csl_create(const stc_cs_config *config, const stc_cs_layer *layer,
                              size_t frame_count, uint32_t fa_lines, char *err, size_t err_len);

/* coherent_split.c's own steps, for a layer to call. */
bool stc_csl_attempt_enabled(stc_cs_system *system, unsigned core);
void stc_csl_attempt(stc_cs_system *system, unsigned core);
/* Core's victim frame f (valid, stable) runs its Evict row: true if the
 * frame is free now (dropped, or moved into the writeback buffer), false
 * while its put is the outstanding request (no buffer) or the buffer is
 * full (nothing done). stc_csl_evict_may_run: false exactly in the last
 * case. */
bool stc_csl_evict(stc_cs_system *system, unsigned core, size_t f);
bool stc_csl_evict_may_run(const stc_cs_system *system, unsigned core, size_t f);
/* Whether block waits in core's writeback buffer (its put not ordered):
 * an access to it waits (COHERENCE.md 10.11). */
bool stc_csl_buffered(const stc_cs_system *system, unsigned core, uint64_t block);
/* Core's current block access waited (counted once per access). */
void stc_csl_count_stall(stc_cs_system *system, unsigned core);
/* Core fetches block (entry) into frame f, in I, by the Load row's request
 * (fetch_only: no processor access rides on it). */
void stc_csl_fetch(stc_cs_system *system, unsigned core, size_t f, uint64_t block, uint32_t entry);
void stc_csl_access_done(stc_cs_system *system, unsigned core);
block_access stc_csl_current_access(stc_cs_system *system, unsigned core);
const reference *stc_csl_head(const stc_cs_system *system, unsigned core);
/* A MARKER in core's reference stream (a reference of size 0, tag for
 * the layer): it waits for the window like a reference, takes its place
 * in the core's order and in the serial schedule's submission order, and
 * is never a block access; the default attempt must not see one (a layer
 * whose head is a marker runs its own operation instead, then calls
 * stc_csl_marker_done, which pops it uncounted). */
int stc_csl_submit_marker(stc_cs_system *system, unsigned core, uint64_t tag);
bool stc_csl_head_is_marker(const stc_cs_system *system, unsigned core);
void stc_csl_marker_done(stc_cs_system *system, unsigned core);
long stc_csl_find_block(stc_cs_system *system, uint64_t block);
uint8_t *stc_csl_frame_data(stc_cs_system *system, size_t f);
void stc_csl_violation(stc_cs_system *system, stc_cs_violation_kind kind, unsigned core,
                       uint64_t addr, const char *fmt, ...) STC_PRINTF_LIKE(5, 6);

#endif
