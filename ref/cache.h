/*
 * cache.h - bit-exact model of one configurable cache (I or D) as defined by
 * docs/ARCHITECTURE.md: address mapping, full-tag compare, recency (LRU)
 * order, logical-line fills, write-back/write-allocate, way prediction, the
 * reconfiguration walk, cycle timing and event counters.
 *
 * The model is sequential: each call is one complete CPU access (or one
 * reconfiguration) and returns its cycle cost against a fixed-latency memory.
 *
 * Data is optional. Created with a memory (stc_memory), the cache holds real
 * bytes, fetches lines through memory->read_burst and writes dirty lines back
 * through memory->write_burst, in exactly the order the hardware issues those
 * transactions. Created without one, it keeps tags and state only, which is
 * all a miss-count or energy study needs, and is faster.
 */
#ifndef STC_CACHE_H
#define STC_CACHE_H

#include "config.h"
#include "counters.h"
#include "geometry.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { STC_ICACHE = 0, STC_DCACHE = 1 } stc_cache_kind;

typedef enum {
    STC_OP_READ = 0,   /* load or instruction fetch */
    STC_OP_WRITE = 1,  /* store (D-cache only) */
    STC_OP_MODIFY = 2  /* load then store of the same bytes, one access (D-cache only) */
} stc_op;

/* The memory below the cache. addr is always aligned to the physical line;
 * bytes is a multiple of the physical line. */
typedef struct {
    void *context;
    void (*read_burst)(void *context, uint64_t addr, uint8_t *data, unsigned bytes);
    void (*write_burst)(void *context, uint64_t addr, const uint8_t *data, unsigned bytes);
} stc_memory;

/* What one access did. */
typedef struct {
    bool hit;               /* the accessed physical line was present */
    bool predicted;         /* way prediction on and the first probe hit */
    unsigned bank;          /* bank holding the accessed line afterwards */
    unsigned probes;        /* 1, or 2 when way prediction's first probe failed */
    unsigned cycles;        /* total cycles of the access */
    unsigned fills;         /* physical lines read from memory */
    unsigned bursts;        /* read bursts issued */
    unsigned writebacks;    /* dirty physical lines written back */
} stc_access_result;

/* What one reconfiguration (or maintenance operation) did. */
typedef struct {
    uint64_t cycles;        /* wake-up + walk rows + writeback cycles (a walk of
                               many dirty banks with a slow memory exceeds 32 bits) */
    unsigned woken_banks;   /* banks powered up */
    unsigned slept_banks;   /* banks powered down */
    unsigned walked_rows;   /* 0 when no walk was needed */
    unsigned writebacks;    /* dirty lines written back by the walk */
    unsigned invalidations; /* valid lines dropped by the walk */
    unsigned moves;         /* lines the walk moved to another bank of their row
                               (stc_cache_set_walk_moves; always 0 when off) */
    unsigned moving_rows;   /* rows with at least one move (each costs a cycle more) */
} stc_reconfig_result;

typedef struct stc_cache stc_cache;

/* Create a cache in configuration config (all lines invalid, recency order
 * bank 0 most recent .. bank B-1 least). memory may be NULL (no data kept).
 * Returns NULL with a message in err on an illegal geometry/configuration or
 * out of memory. The geometry must have passed stc_geometry_init. */
stc_cache *stc_cache_create(const stc_geometry *geometry, stc_cache_kind kind,
                            const stc_config *config, const stc_memory *memory, char *err,
                            size_t err_len);
void stc_cache_destroy(stc_cache *cache);

/* One access that lies inside one physical line: bytes in 1..line_bytes and
 * (addr % line_bytes) + bytes <= line_bytes. Addresses are taken modulo
 * 2^addr_bits. write_data (WRITE, MODIFY) supplies bytes; write_mask, if not
 * NULL, has one entry per byte, nonzero = write that byte (byte enables).
 * read_data (READ, MODIFY; may be NULL) receives the bytes before the write.
 * Returns 0, or -1 for a misuse (a write to an I-cache, a piece crossing a
 * physical line): such calls change nothing. */
int stc_cache_access(stc_cache *cache, stc_op op, uint64_t addr, unsigned bytes,
                     const uint8_t *write_data, const uint8_t *write_mask, uint8_t *read_data,
                     stc_access_result *result);

/* One CPU request of any size (a trace reference): split at physical-line
 * boundaries into accesses performed in address order. Counts one request,
 * and one request miss if any piece missed. Returns the number of pieces
 * that missed, or -1 for a misuse. Buffers, if given, hold `bytes` bytes. */
int stc_cache_request(stc_cache *cache, stc_op op, uint64_t addr, unsigned bytes,
                      const uint8_t *write_data, uint8_t *read_data, unsigned *cycles);

/* Account `count` one-piece requests of kind op that each fall in the
 * physical line of the cache's previous access, without performing them:
 * each is a hit in the bank that served that access (already the most
 * recent, so recency does not change), 1 cycle, a first-probe hit with way
 * prediction; a write marks the line dirty. Exactly what `count` calls of
 * stc_cache_request would do. A sweep over many configurations uses it to
 * skip such requests once for all of them (they repeat the same physical
 * line in every configuration). Returns -1 if there is no previous access
 * (e.g. right after a reconfiguration) or op writes to an I-cache. */
int stc_cache_count_repeats(stc_cache *cache, stc_op op, uint64_t count);

/* Requests that repeated the physical line of the access just before them
 * and changed no state: reads, and writes/modifies of a line already dirty. */
typedef struct {
    uint64_t reads;
    uint64_t writes;
    uint64_t modifies;
} stc_repeat_counts;

/* Add the counters of such requests (counted by a caller that skipped
 * them, see sweep.h): requests, accesses, reads/writes, 1 cycle each and,
 * with way prediction, first-probe hits. Changes no other state. */
void stc_cache_add_repeat_counts(stc_cache *cache, const stc_repeat_counts *counts);

/* Switch to next, restoring the invariant of ARCHITECTURE.md section 7
 * (wake-up, walk, writebacks, power-down). Returns -1 with no change if next
 * is illegal. Switching to the same configuration costs nothing. */
int stc_cache_reconfigure(stc_cache *cache, const stc_config *next, stc_reconfig_result *result);

/* A walk that moves lines (ARCHITECTURE.md 7 step 2; the generated
 * controller's unless stcgen --no-walk-moves, --fixed or --protocol; off by
 * default here, the cache API's behaviour since before the RTL had it, and
 * switched on by the tools that model the default hardware). With it on, a
 * reconfiguration's walk does, per row: every walked valid line that would
 * be dropped (its bank goes off or is no longer among its candidates) is
 * taken out of the row first; then, in ascending order of the bank it came
 * from, each is put into the lowest-numbered candidate bank under the new
 * configuration (powered, b mod g' = tag mod g') whose slot in that row is
 * invalid by then, keeping its tag, dirty bit and data; only lines that
 * find no such slot are written back if dirty and invalidated, in
 * ascending old-bank order, as without moves. A moved line becomes a
 * fragment (fill state 1 subline): its new bank's neighbouring rows may
 * hold other lines, and the whole-line rule (ARCHITECTURE.md 10) must not
 * take them for one logical line. Recency: a moved line takes its row's
 * recency stamp with it; each slot that lost a line without receiving one
 * takes, in ascending bank order, the stamp of a slot that received a line
 * without losing one (ascending), every other slot keeps its own: the
 * row's order stays a permutation of the same stamps. Cost: in a row with
 * m > 0 moves, m + 1 cycles more (one write into the new bank per line, the
 * row's data read in the row's cycle, and a cycle that ends the row),
 * counted in the result's cycles and the reconfig_cycles and cycles
 * counters; result->moves counts them (no counter). Maintenance walks
 * (stc_cache_maintain) never move. */
void stc_cache_set_walk_moves(stc_cache *cache, bool on);

/* Maintenance operations (ARCHITECTURE.md 7.1): what each selected valid
 * line undergoes. The codes are the hardware port's mnt_op_i. */
typedef enum {
    STC_MAINT_NONE = 0,            /* nothing, no cost */
    STC_MAINT_CLEAN = 1,           /* written back if dirty, stays valid and clean */
    STC_MAINT_INVALIDATE = 2,      /* dropped without writeback (dirty data lost) */
    STC_MAINT_CLEAN_INVALIDATE = 3 /* written back if dirty, then dropped */
} stc_maint_op;

/* Which lines an operation selects: the physical line holding an address
 * (if present), or every valid line. The codes are the port's mnt_all_i. */
typedef enum { STC_MAINT_LINE = 0, STC_MAINT_ALL = 1 } stc_maint_scope;

/* Perform one maintenance operation as the hardware's walk does: rows
 * 0..R-1 (scope line: the row of addr, a byte address taken modulo
 * 2^addr_bits), powered banks ascending, writebacks through the memory in
 * that order. result (may be NULL) gets the cycles (R or 1 walked rows
 * + V (T_mem + P/W) + 1 + 2V; 0 for STC_MAINT_NONE), walked_rows,
 * writebacks and invalidations (woken and slept banks 0). Counted as a
 * walk: walk_rows, walk_writebacks, walk_invalidations, cycles and
 * reconfig_cycles, not reconfigs. Returns -1 with no change for an op or
 * scope out of range. */
int stc_cache_maintain(stc_cache *cache, stc_maint_op op, stc_maint_scope scope, uint64_t addr,
                       stc_reconfig_result *result);

/* Write back every dirty line (in bank-major, row-ascending order) and mark
 * it clean, without invalidating: lets a test compare memory with a shadow.
 * Counts the writebacks as walk writebacks. Returns the number written. */
unsigned stc_cache_clean(stc_cache *cache);

const stc_counters *stc_cache_counters(const stc_cache *cache);

/* Zero every counter (the hardware's write to its counter block). Nothing
 * else changes. */
void stc_cache_clear_counters(stc_cache *cache);

/* Hits by depth in their set's LRU stack: depth d = d valid candidates of
 * the line's row were used more recently. In a configuration of a ways,
 * the same accesses would have hit in a' < a ways of the same set mapping
 * (same banks / ways, same line) exactly when d < a' (LRU inclusion), and
 * at the first probe with way prediction when d = 0. Off by default (it
 * costs a scan of the candidates per hit); cleared with the counters.
 * Repeats of the previous line count at depth 0. */
void stc_cache_track_depths(stc_cache *cache, bool on);
const uint64_t *stc_cache_depth_hits(const stc_cache *cache); /* STC_MAX_BANKS entries */
const stc_config *stc_cache_config(const stc_cache *cache);
const stc_geometry *stc_cache_geometry(const stc_cache *cache);

/* Inspection, for tests and the lockstep harness. */

/* The bank holding the physical line of addr under the current
 * configuration, or -1 if absent. No side effects. */
int stc_cache_lookup(const stc_cache *cache, uint64_t addr);

/* The state of one slot. data is NULL for a cache without data. */
typedef struct {
    bool valid;
    bool dirty;
    /* The logical line (in sublines) the line was filled with, 1 for a line
     * a fill left beside sublines it brought (ARCHITECTURE.md 10: a miss
     * skips its presence checks when every candidate's rows of the line are
     * invalid, or valid and filled with at least the current sublines). */
    unsigned fill_sublines;
    uint64_t tag;         /* addr >> bank_shift of the line held */
    uint64_t line_addr;   /* address of the line held */
    const uint8_t *data;  /* line_bytes bytes */
} stc_slot;
void stc_cache_slot(const stc_cache *cache, unsigned bank, unsigned row, stc_slot *slot);

/* Hooks for a coherence layer (coherent_stc.h), which keeps a protocol
 * state per slot beside the cache and answers other caches' snoops. Each
 * acts on one slot (bank, row) and changes nothing else: no memory
 * transaction, no counter, no recency. The layer finds a slot with
 * stc_cache_lookup and reads its bytes with stc_cache_slot; every fill and
 * writeback of the cache itself still goes through stc_memory, where the
 * layer turns it into bus transactions. */

/* Drop the line in (bank, row) without writing it back, dirty or not (a
 * snoop row that invalidates: the protocol says where, if anywhere, its
 * data went). No effect on an invalid slot. */
void stc_cache_invalidate_slot(stc_cache *cache, unsigned bank, unsigned row);

/* Set or clear the dirty flag of the valid line in (bank, row) (a snoop
 * row that flushes an M copy or demotes it to S makes memory current, so
 * the line is clean). No effect on an invalid slot. */
void stc_cache_set_slot_dirty(stc_cache *cache, unsigned bank, unsigned row, bool dirty);

/* What a miss of addr's physical line would do now, read only (a
 * coherence layer on a split-transaction bus must evict the victims and
 * fetch the lines itself, one transaction at a time, before the access
 * that fills: coherent_stc_split.h). Computed by the same code the miss
 * runs (choose_victim, the whole-line rule, the presence checks), so the
 * next stc_cache_access of addr, if nothing changes in between, fills
 * exactly bank's rows first_row + s for every bit s of missing, evicting
 * what bank holds there. Meaningless if addr's line is present. */
typedef struct {
    unsigned bank;      /* the victim bank the logical line goes to */
    unsigned first_row; /* the logical line's first row */
    unsigned sublines;  /* physical lines per logical line */
    uint32_t missing;   /* bit s: row first_row + s is read (absent) */
} stc_miss_plan;
void stc_cache_miss_plan(const stc_cache *cache, uint64_t addr, stc_miss_plan *plan);

/* The valid lines of row that a reconfiguration to next would drop, read
 * only: bit b set when the walk (ARCHITECTURE.md 7 step 2, without moves)
 * would write back (if dirty) and invalidate the line in (b, row), i.e.
 * its bank goes off or is no longer among its candidates under next. A
 * coherence layer on a split-transaction bus evicts these lines itself,
 * each by its own bus transaction, before it calls stc_cache_reconfigure,
 * whose walk then drops nothing valid (coherent_stc_split.h). 0 for an
 * illegal next. */
uint32_t stc_cache_walk_drops(const stc_cache *cache, const stc_config *next, unsigned row);

/* The candidate banks of addr under the current configuration, ascending,
 * as a bit mask (bit b = bank b). */
uint32_t stc_cache_candidates(const stc_cache *cache, uint64_t addr);

/* The bank way prediction would probe first for addr (the most recent
 * candidate in addr's row). */
unsigned stc_cache_predicted_bank(const stc_cache *cache, uint64_t addr);

/* Check every structural invariant: each valid line sits in a powered bank
 * that is one of its candidates, no physical line is held twice, dirty
 * implies valid, powered-off banks hold nothing. Returns 0 or -1 with the
 * first violation described in err. */
int stc_cache_check(const stc_cache *cache, char *err, size_t err_len);

#endif
