/*
 * test_reconfig.c - reconfiguring a D-cache that holds real data
 * (docs/ARCHITECTURE.md section 7, on top of sections 3-6 and 10).
 *
 * Every test puts the cache on a test-owned flat "main memory" covering a
 * small address window (64 KiB, so lines conflict often). The torture keeps
 * beside it a flat shadow memory that receives every CPU store directly: the
 * shadow is the truth the cache must never contradict.
 *
 * 1. torture: seeded random loads, stores, modifies and byte-enabled word
 *    accesses interleaved with thousands of random reconfigurations among all
 *    legal configurations of five geometries. Every load, the coherent view
 *    and, after a clean, main memory must equal the shadow. Every
 *    reconfiguration is checked against section 7 restated here from the
 *    slots before the change: which lines go, which are written back, in
 *    which order, with which data, at which cost.
 * 2. directed walks in each direction with hand-computed results.
 * 3. small-to-large versus large-to-small size walks (section 13.1's claim).
 * 4. the torture over deliberately broken memory paths must fail, so we know
 *    its comparisons can fail.
 *
 * Expectations are written from the spec, never computed with the model's
 * own helpers (stc_cache_candidates etc. are not used as oracles).
 */
#include "cache.h"
#include "check.h"
#include "config.h"
#include "geometry.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
    WINDOW_BYTES = 64 * 1024, /* main memory the tests own: small so lines conflict */
    LOG_DATA_BYTES = 64,      /* bytes of each write transaction kept in the log */
    MAX_REQUEST_BYTES = 64,   /* largest CPU request the torture issues */
    MAX_LINE_BYTES = 64,      /* largest physical line any test geometry uses */
    ERR_LEN = 256
};

/* ------------------------------------------------------------------------ */
/* Test-owned main memory                                                    */
/* ------------------------------------------------------------------------ */

/* One memory-side transaction as the cache issued it. */
typedef struct {
    bool is_write;
    uint64_t addr;
    unsigned bytes;
    uint8_t data[LOG_DATA_BYTES]; /* leading bytes of a write burst */
} mem_transaction;

typedef struct {
    uint64_t base;       /* address of bytes[0] */
    unsigned line_bytes; /* physical line, for the alignment checks */
    uint8_t *bytes;      /* WINDOW_BYTES of main memory */

    /* Fault injection for test 4; 0 = a faithful memory. */
    unsigned drop_every_nth_write;   /* silently lose this write burst */
    unsigned corrupt_every_nth_read; /* flip a bit in this read burst */

    uint64_t write_bursts;
    uint64_t read_bursts;
    uint64_t lines_written;
    uint64_t lines_read;
    uint64_t dropped_writes;
    uint64_t corrupted_reads;
    uint64_t bad_transactions; /* outside the window or misaligned: never legal */

    /* Transactions since the last log_reset, for checking order and data. */
    mem_transaction *log;
    size_t log_capacity;
    size_t log_count;
    bool log_overflowed;
} test_memory;

static void log_reset(test_memory *memory)
{
    memory->log_count = 0;
    memory->log_overflowed = false;
}

static void log_transaction(test_memory *memory, bool is_write, uint64_t addr, const uint8_t *data,
                            unsigned bytes)
{
    if (memory->log_count == memory->log_capacity) {
        memory->log_overflowed = true;
        return;
    }
    mem_transaction *entry = &memory->log[memory->log_count++];
    entry->is_write = is_write;
    entry->addr = addr;
    entry->bytes = bytes;
    memset(entry->data, 0, sizeof entry->data);
    if (data) {
        memcpy(entry->data, data, bytes < LOG_DATA_BYTES ? bytes : LOG_DATA_BYTES);
    }
}

/* The cache header promises line-aligned whole-line transactions; ours must
 * also stay inside the window, because the CPU side never leaves it. */
static bool transaction_ok(const test_memory *memory, uint64_t addr, unsigned bytes)
{
    return bytes > 0 && bytes <= WINDOW_BYTES && bytes % memory->line_bytes == 0 &&
           addr % memory->line_bytes == 0 && addr >= memory->base &&
           addr - memory->base <= (uint64_t)(WINDOW_BYTES - bytes);
}

static void memory_read_burst(void *context, uint64_t addr, uint8_t *data, unsigned bytes)
{
    test_memory *memory = context;
    memory->read_bursts++;
    log_transaction(memory, false, addr, NULL, bytes);
    if (!transaction_ok(memory, addr, bytes)) {
        memory->bad_transactions++;
        memset(data, 0xEE, bytes);
        return;
    }
    memory->lines_read += bytes / memory->line_bytes;
    memcpy(data, memory->bytes + (addr - memory->base), bytes);
    /* Broken memory path of test 4: a flipped bit on the way to the cache. */
    if (memory->corrupt_every_nth_read != 0 &&
        memory->read_bursts % memory->corrupt_every_nth_read == 0) {
        data[(memory->read_bursts / memory->corrupt_every_nth_read) % bytes] ^= 0x10;
        memory->corrupted_reads++;
    }
}

static void memory_write_burst(void *context, uint64_t addr, const uint8_t *data, unsigned bytes)
{
    test_memory *memory = context;
    memory->write_bursts++;
    log_transaction(memory, true, addr, data, bytes);
    if (!transaction_ok(memory, addr, bytes)) {
        memory->bad_transactions++;
        return;
    }
    memory->lines_written += bytes / memory->line_bytes;
    /* Broken memory path of test 4: a writeback that never lands. */
    if (memory->drop_every_nth_write != 0 &&
        memory->write_bursts % memory->drop_every_nth_write == 0) {
        memory->dropped_writes++;
        return;
    }
    memcpy(memory->bytes + (addr - memory->base), data, bytes);
}

/* A cache on a memory. The cache keeps a pointer to `memory`, so a rig must
 * not move while open. */
typedef struct {
    stc_geometry geometry;
    test_memory memory;
    stc_cache *cache;
} test_rig;

/* geometry_list: overrides of the defaults ("" = default geometry);
 * config_name: NULL = the reset configuration. Memory starts all zero. */
static bool rig_open(test_rig *rig, const char *geometry_list, const char *config_name,
                     uint64_t base)
{
    char err[ERR_LEN];
    memset(rig, 0, sizeof *rig);
    stc_geometry_default(&rig->geometry);
    if (stc_geometry_parse(&rig->geometry, geometry_list, err, sizeof err) != 0) {
        CHECK(false, "geometry '%s': %s", geometry_list, err);
        return false;
    }
    stc_config config = stc_config_reset(&rig->geometry);
    if (config_name && stc_config_parse(&rig->geometry, config_name, &config, err, sizeof err) != 0) {
        CHECK(false, "configuration '%s': %s", config_name, err);
        return false;
    }
    rig->memory.base = base;
    rig->memory.line_bytes = rig->geometry.line_bytes;
    rig->memory.bytes = calloc(WINDOW_BYTES, 1);
    /* Room for one reconfiguration or clean that writes back every slot. */
    rig->memory.log_capacity = (size_t)rig->geometry.banks * rig->geometry.rows * 2 + 64;
    rig->memory.log = calloc(rig->memory.log_capacity, sizeof *rig->memory.log);
    if (!rig->memory.bytes || !rig->memory.log) {
        CHECK(false, "out of memory");
        return false;
    }
    stc_memory port = {&rig->memory, memory_read_burst, memory_write_burst};
    rig->cache = stc_cache_create(&rig->geometry, STC_DCACHE, &config, &port, err, sizeof err);
    CHECK(rig->cache != NULL, "stc_cache_create: %s", err);
    return rig->cache != NULL;
}

static void rig_close(test_rig *rig)
{
    stc_cache_destroy(rig->cache);
    free(rig->memory.bytes);
    free(rig->memory.log);
    rig->cache = NULL;
    rig->memory.bytes = NULL;
    rig->memory.log = NULL;
}

static stc_config config_named(const test_rig *rig, const char *name)
{
    char err[ERR_LEN];
    stc_config config = stc_config_reset(&rig->geometry);
    CHECK(stc_config_parse(&rig->geometry, name, &config, err, sizeof err) == 0, "%s: %s", name,
          err);
    return config;
}

/* Count valid slots in banks that are powered off (must be none). */
static unsigned valid_lines_in_off_banks(const stc_cache *cache)
{
    const stc_geometry *geometry = stc_cache_geometry(cache);
    unsigned banks_on = stc_cache_config(cache)->banks_on;
    unsigned found = 0;
    for (unsigned bank = banks_on; bank < geometry->banks; bank++) {
        for (unsigned row = 0; row < geometry->rows; row++) {
            stc_slot slot;
            stc_cache_slot(cache, bank, row, &slot);
            found += slot.valid || slot.dirty;
        }
    }
    return found;
}

/* ------------------------------------------------------------------------ */
/* Deterministic randomness (no global state)                               */
/* ------------------------------------------------------------------------ */

typedef struct {
    uint64_t state;
} test_rng;

/* splitmix64: tiny, full-period, good enough to drive a test. */
static uint64_t rng_next(test_rng *rng)
{
    uint64_t mixed = (rng->state += 0x9e3779b97f4a7c15ull);
    mixed = (mixed ^ (mixed >> 30)) * 0xbf58476d1ce4e5b9ull;
    mixed = (mixed ^ (mixed >> 27)) * 0x94d049bb133111ebull;
    return mixed ^ (mixed >> 31);
}

static unsigned rng_below(test_rng *rng, unsigned bound)
{
    return (unsigned)(rng_next(rng) % bound);
}

/* ------------------------------------------------------------------------ */
/* Section 7 restated: the reconfiguration oracle                            */
/* ------------------------------------------------------------------------ */

/* Every slot of a cache, copied (data included) before a change. */
typedef struct {
    unsigned banks;
    unsigned rows;
    unsigned line_bytes;
    stc_slot *slots;  /* [row * banks + bank]; .data points into `bytes` */
    uint8_t *bytes;
} cache_snapshot;

static bool snapshot_alloc(cache_snapshot *snapshot, const stc_geometry *geometry)
{
    snapshot->banks = geometry->banks;
    snapshot->rows = geometry->rows;
    snapshot->line_bytes = geometry->line_bytes;
    size_t slots = (size_t)geometry->banks * geometry->rows;
    snapshot->slots = calloc(slots, sizeof *snapshot->slots);
    snapshot->bytes = calloc(slots, geometry->line_bytes);
    return snapshot->slots && snapshot->bytes;
}

static void snapshot_free(cache_snapshot *snapshot)
{
    free(snapshot->slots);
    free(snapshot->bytes);
}

static void snapshot_take(cache_snapshot *snapshot, const stc_cache *cache)
{
    for (unsigned row = 0; row < snapshot->rows; row++) {
        for (unsigned bank = 0; bank < snapshot->banks; bank++) {
            size_t at = (size_t)row * snapshot->banks + bank;
            stc_slot slot;
            stc_cache_slot(cache, bank, row, &slot);
            uint8_t *copy = snapshot->bytes + at * snapshot->line_bytes;
            if (slot.data) {
                memcpy(copy, slot.data, snapshot->line_bytes);
            }
            slot.data = copy;
            snapshot->slots[at] = slot;
        }
    }
}

/* Section 7, step 2: does a walk drop this valid line? It goes if its bank
 * goes off or the bank is not among its candidates under the new groups:
 * candidates are the banks b < k' with b mod g' = tag mod g'. */
static bool walk_drops(unsigned bank, uint64_t tag, unsigned next_banks_on, unsigned next_groups)
{
    return bank >= next_banks_on || bank % next_groups != (unsigned)(tag % next_groups);
}

/* Section 7's shape of a change old -> next: the banks step 2 walks (none
 * without a walk), and how many banks step 1 wakes and step 3 puts to
 * sleep. */
typedef struct {
    bool walk;
    uint64_t walked_banks;
    unsigned woken, slept;
} change_shape;

static change_shape shape_of_change(const stc_config *old_config, const stc_config *next_config)
{
    unsigned old_groups = old_config->banks_on / old_config->ways;
    unsigned next_groups = next_config->banks_on / next_config->ways;
    bool same = stc_config_equal(old_config, next_config);
    bool walk = !same && (next_groups > old_groups || next_config->banks_on < old_config->banks_on);
    change_shape shape = {walk, 0, 0, 0};
    if (walk) {
        unsigned first = next_groups > old_groups ? 0 : next_config->banks_on;
        for (unsigned bank = first; bank < old_config->banks_on; bank++) {
            shape.walked_banks |= (uint64_t)1 << bank;
        }
    }
    shape.woken =
        next_config->banks_on > old_config->banks_on ? next_config->banks_on - old_config->banks_on : 0;
    shape.slept =
        next_config->banks_on < old_config->banks_on ? old_config->banks_on - next_config->banks_on : 0;
    return shape;
}

/* Check one completed change old -> next against section 7, given the slots
 * before it, the result, the memory transactions it issued (memory->log) and
 * the slots after it. Returns false with the first disagreement in why. */
static bool reconfig_matches_spec(const stc_cache *cache, const cache_snapshot *before,
                                  const stc_config *old_config, const stc_config *next_config,
                                  const stc_reconfig_result *result, const test_memory *memory,
                                  char *why, size_t why_len)
{
    const stc_geometry *geometry = stc_cache_geometry(cache);
    unsigned next_groups = next_config->banks_on / next_config->ways;
    change_shape shape = shape_of_change(old_config, next_config);
    bool walk = shape.walk;
    uint64_t walked_banks = shape.walked_banks;
    unsigned want_woken = shape.woken, want_slept = shape.slept;

    /* Rows ascending, walked banks ascending within a row: the order of the
     * writebacks the memory must have seen. */
    unsigned want_writebacks = 0;
    unsigned want_invalidations = 0;
    size_t logged = 0;
    if (memory->log_overflowed) {
        snprintf(why, why_len, "memory log overflowed");
        return false;
    }
    for (unsigned row = 0; row < geometry->rows; row++) {
        for (unsigned bank = 0; bank < geometry->banks; bank++) {
            const stc_slot *slot = &before->slots[(size_t)row * before->banks + bank];
            if (!(walked_banks >> bank & 1) || !slot->valid ||
                !walk_drops(bank, slot->tag, next_config->banks_on, next_groups)) {
                continue;
            }
            want_invalidations++;
            if (!slot->dirty) {
                continue;
            }
            want_writebacks++;
            if (logged >= memory->log_count) {
                snprintf(why, why_len, "writeback %u (bank %u row %u line 0x%llx) never reached memory",
                         want_writebacks, bank, row, (unsigned long long)slot->line_addr);
                return false;
            }
            const mem_transaction *seen = &memory->log[logged++];
            if (!seen->is_write || seen->addr != slot->line_addr ||
                seen->bytes != geometry->line_bytes ||
                memcmp(seen->data, slot->data, geometry->line_bytes) != 0) {
                snprintf(why, why_len,
                         "transaction %zu: want write of line 0x%llx (bank %u row %u), got %s 0x%llx "
                         "%u bytes%s",
                         logged, (unsigned long long)slot->line_addr, bank, row,
                         seen->is_write ? "write" : "read", (unsigned long long)seen->addr,
                         seen->bytes,
                         seen->is_write && seen->addr == slot->line_addr ? " with other data" : "");
                return false;
            }
        }
    }
    if (logged != memory->log_count) {
        snprintf(why, why_len, "%zu memory transactions, section 7 wants %zu", memory->log_count,
                 logged);
        return false;
    }
    unsigned want_rows = walk ? geometry->rows : 0;
    uint64_t want_cycles = (uint64_t)want_woken * geometry->wake_cycles + want_rows +
                           (uint64_t)want_writebacks * (geometry->mem_latency + geometry->line_bytes / 4);
    if (want_woken || walk) {
        want_cycles += 1 + 2 * (uint64_t)want_writebacks; /* the controller's own (section 10) */
    }
    if (result->woken_banks != want_woken || result->slept_banks != want_slept ||
        result->walked_rows != want_rows || result->writebacks != want_writebacks ||
        result->invalidations != want_invalidations || result->cycles != want_cycles) {
        snprintf(why, why_len,
                 "result woken %u slept %u rows %u writebacks %u invalidations %u cycles %llu; "
                 "section 7 wants %u %u %u %u %u %llu",
                 result->woken_banks, result->slept_banks, result->walked_rows, result->writebacks,
                 result->invalidations, (unsigned long long)result->cycles, want_woken, want_slept,
                 want_rows, want_writebacks, want_invalidations, (unsigned long long)want_cycles);
        return false;
    }

    /* The slots afterwards: powered-off banks hold nothing, dropped lines are
     * gone, everything else is untouched (same tag, dirty bit and data). */
    for (unsigned row = 0; row < geometry->rows; row++) {
        for (unsigned bank = 0; bank < geometry->banks; bank++) {
            const stc_slot *old_slot = &before->slots[(size_t)row * before->banks + bank];
            stc_slot now;
            stc_cache_slot(cache, bank, row, &now);
            bool dropped = (walked_banks >> bank & 1) && old_slot->valid &&
                           walk_drops(bank, old_slot->tag, next_config->banks_on, next_groups);
            bool should_be_valid = bank < next_config->banks_on && old_slot->valid && !dropped;
            if (now.valid != should_be_valid || (!now.valid && now.dirty)) {
                snprintf(why, why_len, "bank %u row %u: valid %d dirty %d afterwards, want valid %d%s",
                         bank, row, now.valid, now.dirty, should_be_valid,
                         bank >= next_config->banks_on ? " (powered off)" : "");
                return false;
            }
            if (should_be_valid &&
                (now.dirty != old_slot->dirty || now.tag != old_slot->tag ||
                 (now.data && memcmp(now.data, old_slot->data, geometry->line_bytes) != 0))) {
                snprintf(why, why_len, "bank %u row %u: a line the change should not touch changed",
                         bank, row);
                return false;
            }
        }
    }
    return true;
}

/* The walk with moves (cache.h, stc_cache_set_walk_moves) restated from
 * the slots before the change: per walked row, the lines walk_drops would
 * drop are taken out; in ascending order of their old banks each goes to
 * the lowest bank b < k' with b mod g' = tag mod g' whose slot is empty
 * then (invalid before, or emptied by the take-out, and not yet given to
 * an earlier line), keeping tag, dirty bit and data and becoming a
 * fragment (fill 1 subline); the rest are written back if dirty (ascending
 * old bank) and dropped. Cycles: a walk's, plus one per moved line and one
 * per row with any. */
static bool moving_walk_matches_spec(const stc_cache *cache, const cache_snapshot *before,
                                     const stc_config *old_config, const stc_config *next_config,
                                     const stc_reconfig_result *result, const test_memory *memory,
                                     char *why, size_t why_len)
{
    const stc_geometry *geometry = stc_cache_geometry(cache);
    unsigned next_groups = next_config->banks_on / next_config->ways;
    change_shape shape = shape_of_change(old_config, next_config);
    bool walk = shape.walk;
    uint64_t walked_banks = shape.walked_banks;
    unsigned want_woken = shape.woken, want_slept = shape.slept;
    unsigned want_writebacks = 0, want_invalidations = 0, want_moves = 0, moving_rows = 0;
    size_t logged = 0;
    if (memory->log_overflowed) {
        snprintf(why, why_len, "memory log overflowed");
        return false;
    }
    for (unsigned row = 0; row < geometry->rows; row++) {
        /* Where each slot's content comes from afterwards: the bank of the
         * slot before (itself, or a mover's old bank), or -1 for none. */
        int source[STC_MAX_BANKS];
        bool taken[STC_MAX_BANKS] = {false};
        unsigned row_moves = 0;
        for (unsigned bank = 0; bank < geometry->banks; bank++) {
            const stc_slot *slot = &before->slots[(size_t)row * before->banks + bank];
            taken[bank] = (walked_banks >> bank & 1) && slot->valid &&
                          walk_drops(bank, slot->tag, next_config->banks_on, next_groups);
            source[bank] = slot->valid && !taken[bank] && bank < next_config->banks_on ? (int)bank : -1;
        }
        for (unsigned bank = 0; bank < geometry->banks; bank++) {
            if (!taken[bank]) {
                continue;
            }
            const stc_slot *slot = &before->slots[(size_t)row * before->banks + bank];
            int home = -1;
            for (unsigned to = 0; to < next_config->banks_on && home < 0; to++) {
                if (to % next_groups == (unsigned)(slot->tag % next_groups) && source[to] < 0) {
                    home = (int)to;
                }
            }
            if (home >= 0) {
                moving_rows += row_moves == 0;
                row_moves++;
                source[home] = (int)bank;
                want_moves++;
                continue;
            }
            want_invalidations++;
            if (!slot->dirty) {
                continue;
            }
            want_writebacks++;
            const mem_transaction *seen = logged < memory->log_count ? &memory->log[logged] : NULL;
            logged++;
            if (!seen || !seen->is_write || seen->addr != slot->line_addr ||
                seen->bytes != geometry->line_bytes ||
                memcmp(seen->data, slot->data, geometry->line_bytes) != 0) {
                snprintf(why, why_len, "writeback %u (bank %u row %u line 0x%llx) missing or wrong",
                         want_writebacks, bank, row, (unsigned long long)slot->line_addr);
                return false;
            }
        }
        for (unsigned bank = 0; bank < geometry->banks; bank++) {
            stc_slot now;
            stc_cache_slot(cache, bank, row, &now);
            if (source[bank] < 0) {
                if (now.valid || now.dirty) {
                    snprintf(why, why_len, "bank %u row %u: valid %d dirty %d, want empty", bank,
                             row, now.valid, now.dirty);
                    return false;
                }
                continue;
            }
            const stc_slot *from = &before->slots[(size_t)row * before->banks + (unsigned)source[bank]];
            bool moved = (unsigned)source[bank] != bank;
            unsigned want_fill = moved ? 1 : from->fill_sublines;
            if (!now.valid || now.dirty != from->dirty || now.tag != from->tag ||
                now.fill_sublines != want_fill ||
                (now.data && memcmp(now.data, from->data, geometry->line_bytes) != 0)) {
                snprintf(why, why_len,
                         "bank %u row %u: want line 0x%llx dirty %d fill %u from bank %d, got valid %d "
                         "0x%llx dirty %d fill %u%s",
                         bank, row, (unsigned long long)from->line_addr, from->dirty, want_fill,
                         source[bank], now.valid, (unsigned long long)now.line_addr, now.dirty,
                         now.fill_sublines,
                         now.data && memcmp(now.data, from->data, geometry->line_bytes) ? " (data)" : "");
                return false;
            }
        }
    }
    if (logged != memory->log_count) {
        snprintf(why, why_len, "%zu memory transactions, the rule wants %zu", memory->log_count,
                 logged);
        return false;
    }
    unsigned want_rows = walk ? geometry->rows : 0;
    uint64_t want_cycles = (uint64_t)want_woken * geometry->wake_cycles + want_rows + want_moves + moving_rows +
                           (uint64_t)want_writebacks * (geometry->mem_latency + geometry->line_bytes / 4);
    if (want_woken || walk) {
        want_cycles += 1 + 2 * (uint64_t)want_writebacks;
    }
    if (result->woken_banks != want_woken || result->slept_banks != want_slept ||
        result->walked_rows != want_rows || result->writebacks != want_writebacks ||
        result->invalidations != want_invalidations || result->moves != want_moves ||
        result->moving_rows != moving_rows || result->cycles != want_cycles) {
        snprintf(why, why_len,
                 "result woken %u slept %u rows %u writebacks %u invalidations %u moves %u cycles "
                 "%llu; the rule wants %u %u %u %u %u %u %llu",
                 result->woken_banks, result->slept_banks, result->walked_rows, result->writebacks,
                 result->invalidations, result->moves, (unsigned long long)result->cycles,
                 want_woken, want_slept, want_rows, want_writebacks, want_invalidations, want_moves,
                 (unsigned long long)want_cycles);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------------------ */
/* 1. Torture                                                                */
/* ------------------------------------------------------------------------ */

typedef struct {
    const char *label;
    const char *geometry_list; /* "" = default geometry */
    uint64_t base;             /* start of the 64 KiB window */
    uint64_t seed;
    unsigned long accesses;    /* CPU operations to issue */
    unsigned mean_gap;         /* about this many accesses between reconfigurations */
    unsigned drop_every_nth_write;
    unsigned corrupt_every_nth_read;
    bool expect_faithful;      /* false: data mismatches are the point, count them quietly */
} torture_plan;

enum {
    KIND_SIZE_UP,
    KIND_SIZE_DOWN,
    KIND_ASSOC_UP,
    KIND_ASSOC_DOWN,
    KIND_LINE_CHANGE,
    KIND_WP_TOGGLE,
    KIND_SAME,
    KIND_WALK,
    TRANSITION_KINDS
};
static const char *const transition_kind_names[TRANSITION_KINDS] = {
    "size+", "size-", "assoc+", "assoc-", "line", "wp", "same", "walked"};

typedef struct {
    unsigned long accesses;          /* CPU operations issued */
    unsigned long reconfigs;         /* calls, including to the same configuration */
    unsigned long transitions[TRANSITION_KINDS];
    unsigned long configs_visited;
    unsigned long configs_total;
    unsigned long pairs_visited;     /* ordered pairs (from, to), from != to */
    unsigned long pairs_total;
    unsigned long checkpoints;
    unsigned long walk_writebacks;
    unsigned long walk_invalidations;
    unsigned long walk_moves;
    unsigned long clean_writebacks;
    uint64_t line_accesses;          /* the cache's own count of physical-line accesses */
    uint64_t memory_writes;          /* write bursts the memory saw (all causes) */
    uint64_t dropped_writes;
    uint64_t corrupted_reads;

    /* Data comparisons against the shadow. */
    unsigned long load_mismatches;   /* loads (and modifies) returning a wrong byte */
    unsigned long view_mismatches;   /* coherent-view bytes differing at a checkpoint */
    unsigned long memory_mismatches; /* memory bytes differing after a clean */
    unsigned long first_mismatch_step;
    const char *first_mismatch_where;

    /* Contract failures other than data (always CHECKed). */
    unsigned long reconfig_failures;
    unsigned long access_failures;
} torture_stats;

typedef enum { TRAFFIC_HOT, TRAFFIC_CONFLICT, TRAFFIC_UNIFORM } traffic_shape;

enum { MAX_CONFLICT_LINES = 12 };

/* Where the traffic goes for a while. */
typedef struct {
    traffic_shape shape;
    uint32_t hot_start;  /* TRAFFIC_HOT: a contiguous region */
    uint32_t hot_bytes;
    uint32_t conflict_lines[MAX_CONFLICT_LINES]; /* TRAFFIC_CONFLICT: lines sharing one row */
    unsigned conflict_count;
} traffic_phase;

typedef struct {
    const torture_plan *plan;
    test_rig rig;
    test_rng rng;
    uint8_t *shadow;          /* the truth: every CPU store lands here directly */
    uint8_t next_store_byte;  /* stores write ever-increasing bytes so stale data shows */
    stc_config configs[STC_MAX_CONFIGS];
    size_t config_count;
    size_t current_config;
    bool *config_visited;     /* [config] */
    bool *pair_visited;       /* [from * config_count + to] */
    cache_snapshot before;
    traffic_phase phase;
    unsigned long step;
    unsigned mismatch_reports;
    bool walk_moves;          /* the cache's walks move lines (stc_cache_set_walk_moves) */
    torture_stats stats;
} torture_state;

static void note_failure(torture_state *state, unsigned long *counter, const char *what)
{
    if (*counter < 5) {
        fprintf(stderr, "%s: step %lu: %s\n", state->plan->label, state->step, what);
    }
    (*counter)++;
}

/* Data mismatches: CHECKed by the caller, reported here only when the run is
 * meant to be faithful (in test 4 they are expected). */
static void note_mismatch(torture_state *state, unsigned long *counter, unsigned long bytes,
                          const char *where, const char *detail)
{
    if (bytes == 0) {
        return;
    }
    *counter += bytes;
    if (!state->stats.first_mismatch_where) {
        state->stats.first_mismatch_where = where;
        state->stats.first_mismatch_step = state->step;
    }
    if (state->plan->expect_faithful && state->mismatch_reports < 5) {
        state->mismatch_reports++;
        fprintf(stderr, "%s: step %lu: %s differs from the shadow: %s\n", state->plan->label,
                state->step, where, detail);
    }
}

static void new_traffic_phase(torture_state *state)
{
    const stc_geometry *geometry = &state->rig.geometry;
    traffic_phase *phase = &state->phase;
    static const uint32_t hot_sizes[] = {1024, 3072, 6144, 12288, 20480};
    unsigned roll = rng_below(&state->rng, 10);
    if (roll < 5) {
        phase->shape = TRAFFIC_HOT;
        phase->hot_bytes = hot_sizes[rng_below(&state->rng, 5)];
        phase->hot_start = rng_below(&state->rng, WINDOW_BYTES - phase->hot_bytes + 1);
    } else if (roll < 8) {
        /* Lines one bank apart share a row: they fight over the same slots
         * in every configuration, and their tags pick different groups. */
        phase->shape = TRAFFIC_CONFLICT;
        uint32_t row_offset = rng_below(&state->rng, geometry->bank_bytes) & ~(geometry->line_bytes - 1);
        phase->conflict_count = 3 + rng_below(&state->rng, MAX_CONFLICT_LINES - 2);
        for (unsigned line = 0; line < phase->conflict_count; line++) {
            phase->conflict_lines[line] =
                row_offset + geometry->bank_bytes * rng_below(&state->rng, WINDOW_BYTES / geometry->bank_bytes);
        }
    } else {
        phase->shape = TRAFFIC_UNIFORM;
    }
}

/* A window offset for an access of `bytes` bytes. */
static uint32_t pick_offset(torture_state *state, unsigned bytes)
{
    const traffic_phase *phase = &state->phase;
    uint32_t offset;
    if (phase->shape == TRAFFIC_HOT) {
        offset = phase->hot_start + rng_below(&state->rng, phase->hot_bytes);
    } else if (phase->shape == TRAFFIC_CONFLICT) {
        offset = phase->conflict_lines[rng_below(&state->rng, phase->conflict_count)] +
                 rng_below(&state->rng, state->rig.geometry.line_bytes);
    } else {
        offset = rng_below(&state->rng, WINDOW_BYTES);
    }
    /* Some strays everywhere, whatever the phase. */
    if (rng_below(&state->rng, 5) == 0) {
        offset = rng_below(&state->rng, WINDOW_BYTES);
    }
    if (offset > WINDOW_BYTES - bytes) {
        offset = WINDOW_BYTES - bytes;
    }
    return offset;
}

/* Section 12: addresses are taken modulo 2^A, so bits above A must not
 * matter. Now and then set some. */
static uint64_t alias_bits(torture_state *state)
{
    unsigned addr_bits = state->rig.geometry.addr_bits;
    if (addr_bits >= 48 || rng_below(&state->rng, 32) != 0) {
        return 0;
    }
    return (uint64_t)(1 + rng_below(&state->rng, 0xffff)) << addr_bits;
}

/* Compare bytes the cache returned with the shadow; returns differing bytes. */
static unsigned long differing_bytes(const uint8_t *got, const uint8_t *want, unsigned bytes)
{
    unsigned long differ = 0;
    for (unsigned byte = 0; byte < bytes; byte++) {
        differ += got[byte] != want[byte];
    }
    return differ;
}

/* A load, store or modify of 1..8 bytes (sometimes up to 64) at any
 * alignment, through stc_cache_request (split at physical lines). */
static void torture_request(torture_state *state)
{
    unsigned bytes = rng_below(&state->rng, 33) == 0 ? 9 + rng_below(&state->rng, MAX_REQUEST_BYTES - 8)
                                                     : 1 + rng_below(&state->rng, 8);
    uint32_t offset = pick_offset(state, bytes);
    uint64_t addr = state->rig.memory.base + offset + alias_bits(state);
    unsigned roll = rng_below(&state->rng, 100);
    stc_op op = roll < 45 ? STC_OP_READ : roll < 85 ? STC_OP_WRITE : STC_OP_MODIFY;
    uint8_t write_data[MAX_REQUEST_BYTES];
    uint8_t read_data[MAX_REQUEST_BYTES];
    for (unsigned byte = 0; byte < bytes; byte++) {
        write_data[byte] = state->next_store_byte++;
    }
    memset(read_data, 0xA5, sizeof read_data);
    unsigned cycles = 0;
    int missed = stc_cache_request(state->rig.cache, op, addr, bytes,
                                   op == STC_OP_READ ? NULL : write_data,
                                   op == STC_OP_WRITE ? NULL : read_data, &cycles);
    /* Pieces = physical lines touched. */
    unsigned line_bytes = state->rig.geometry.line_bytes;
    unsigned pieces = (offset % line_bytes + bytes + line_bytes - 1) / line_bytes;
    if (missed < 0 || (unsigned)missed > pieces) {
        char what[ERR_LEN];
        snprintf(what, sizeof what, "request op %d addr 0x%llx bytes %u returned %d (pieces %u)", op,
                 (unsigned long long)addr, bytes, missed, pieces);
        note_failure(state, &state->stats.access_failures, what);
    }
    if (op != STC_OP_WRITE) {
        unsigned long differ = differing_bytes(read_data, state->shadow + offset, bytes);
        if (differ) {
            char detail[ERR_LEN];
            snprintf(detail, sizeof detail,
                     "%s of %u bytes at 0x%llx: first byte got 0x%02x want 0x%02x",
                     op == STC_OP_READ ? "load" : "modify", bytes, (unsigned long long)addr,
                     read_data[0], state->shadow[offset]);
            note_mismatch(state, &state->stats.load_mismatches, differ, "load", detail);
        }
    }
    if (op != STC_OP_READ) {
        memcpy(state->shadow + offset, write_data, bytes);
    }
}

/* One access inside one physical line through stc_cache_access with random
 * byte enables (mostly an aligned word, as the hardware CPU port does), and
 * the per-access contract of sections 4, 6 and 10 around it. */

/* ARCHITECTURE.md 10's whole-line rule, from the slots alone: the logical
 * line of addr is known absent if in every candidate bank its rows are all
 * invalid, or all valid and filled with at least the current sublines. */
static bool line_known_absent(const stc_cache *cache, uint64_t addr)
{
    const stc_geometry *geometry = stc_cache_geometry(cache);
    unsigned sublines = stc_cache_config(cache)->sublines;
    unsigned row = (unsigned)((addr & geometry->addr_mask) / geometry->line_bytes) % geometry->rows;
    unsigned first_row = row & ~(sublines - 1);
    uint32_t candidates = stc_cache_candidates(cache, addr);
    for (unsigned bank = 0; bank < geometry->banks; bank++) {
        if (!(candidates >> bank & 1)) {
            continue;
        }
        unsigned valid = 0, long_enough = 0;
        for (unsigned sub = 0; sub < sublines; sub++) {
            stc_slot slot;
            stc_cache_slot(cache, bank, first_row + sub, &slot);
            valid += slot.valid;
            long_enough += slot.valid && slot.fill_sublines >= sublines;
        }
        if (valid != 0 && long_enough != sublines) {
            return false;
        }
    }
    return true;
}

static void torture_masked_access(torture_state *state)
{
    stc_cache *cache = state->rig.cache;
    const stc_geometry *geometry = &state->rig.geometry;
    test_memory *memory = &state->rig.memory;
    uint32_t offset;
    unsigned bytes;
    if (rng_below(&state->rng, 5) != 0) {
        offset = pick_offset(state, STC_WORD_BYTES) & ~(uint32_t)(STC_WORD_BYTES - 1);
        bytes = STC_WORD_BYTES;
    } else {
        offset = pick_offset(state, 1);
        bytes = 1 + rng_below(&state->rng, geometry->line_bytes - offset % geometry->line_bytes);
    }
    uint64_t addr = memory->base + offset + alias_bits(state);
    stc_op op = (stc_op)rng_below(&state->rng, 3);
    uint8_t write_data[MAX_LINE_BYTES];
    uint8_t write_mask[MAX_LINE_BYTES];
    uint8_t read_data[MAX_LINE_BYTES];
    for (unsigned byte = 0; byte < bytes; byte++) {
        write_data[byte] = state->next_store_byte++;
        write_mask[byte] = (uint8_t)rng_below(&state->rng, 2);
    }
    memset(read_data, 0x5A, sizeof read_data);

    int bank_before = stc_cache_lookup(cache, addr);
    bool known_absent = line_known_absent(cache, addr);
    uint64_t writes_before = memory->write_bursts;
    uint64_t reads_before = memory->read_bursts;
    uint64_t lines_read_before = memory->lines_read;
    stc_access_result result;
    int rc = stc_cache_access(cache, op, addr, bytes, op == STC_OP_READ ? NULL : write_data,
                              op == STC_OP_READ ? NULL : write_mask,
                              op == STC_OP_WRITE ? NULL : read_data, &result);

    /* Section 10: probes + dirty victims + read bursts, and the memory saw
     * exactly those transactions. */
    bool way_predict = stc_cache_config(cache)->way_predict;
    unsigned want_probes = way_predict && !result.predicted ? 2 : 1;
    unsigned want_cycles = want_probes +
                           result.writebacks * (geometry->mem_latency + geometry->beats_per_line) +
                           result.bursts * geometry->mem_latency + result.fills * geometry->beats_per_line;
    if (bank_before < 0) { /* the controller's own miss cycles, 2 per writeback, and a
                              * line known absent: 2 (its one burst whole); else a check
                              * per subline, a request per later burst and the answer */
        want_cycles += 2 * result.writebacks +
                       (known_absent ? 2 : stc_cache_config(cache)->sublines + result.bursts);
        if (known_absent && result.fills != stc_cache_config(cache)->sublines) {
            want_cycles = 0; /* a line known absent is filled whole: report it below */
        }
    }
    int bank_after = stc_cache_lookup(cache, addr);
    if (rc != 0 || result.hit != (bank_before >= 0) ||
        (result.hit && result.bank != (unsigned)bank_before) || bank_after != (int)result.bank ||
        result.probes != want_probes || result.cycles != want_cycles ||
        (result.hit && (result.fills || result.writebacks || result.bursts)) ||
        (!result.hit && result.fills == 0) || (result.predicted && !way_predict) ||
        memory->write_bursts - writes_before != result.writebacks ||
        memory->read_bursts - reads_before != result.bursts ||
        memory->lines_read - lines_read_before != result.fills) {
        char what[ERR_LEN];
        snprintf(what, sizeof what,
                 "access op %d addr 0x%llx bytes %u: rc %d hit %d bank %u (before %d after %d) "
                 "probes %u cycles %u (want %u) fills %u bursts %u writebacks %u; memory saw %llu "
                 "writes %llu reads",
                 op, (unsigned long long)addr, bytes, rc, result.hit, result.bank, bank_before,
                 bank_after, result.probes, result.cycles, want_cycles, result.fills, result.bursts,
                 result.writebacks, (unsigned long long)(memory->write_bursts - writes_before),
                 (unsigned long long)(memory->read_bursts - reads_before));
        note_failure(state, &state->stats.access_failures, what);
    }
    if (op != STC_OP_WRITE) {
        unsigned long differ = differing_bytes(read_data, state->shadow + offset, bytes);
        if (differ) {
            char detail[ERR_LEN];
            snprintf(detail, sizeof detail, "masked %s of %u bytes at 0x%llx",
                     op == STC_OP_READ ? "load" : "modify", bytes, (unsigned long long)addr);
            note_mismatch(state, &state->stats.load_mismatches, differ, "load", detail);
        }
    }
    if (op != STC_OP_READ) {
        for (unsigned byte = 0; byte < bytes; byte++) {
            if (write_mask[byte]) {
                state->shadow[offset + byte] = write_data[byte];
            }
        }
    }
}

/* The coherent view: the cache's copy where stc_cache_lookup finds the line,
 * else main memory. It must equal the shadow byte for byte. */
static void check_coherent_view(torture_state *state)
{
    const stc_cache *cache = state->rig.cache;
    const test_memory *memory = &state->rig.memory;
    unsigned line_bytes = state->rig.geometry.line_bytes;
    for (uint32_t offset = 0; offset < WINDOW_BYTES; offset += line_bytes) {
        uint64_t line_addr = memory->base + offset;
        int bank = stc_cache_lookup(cache, line_addr);
        const uint8_t *view = memory->bytes + offset;
        if (bank >= 0) {
            stc_slot slot;
            stc_cache_slot(cache, (unsigned)bank, (unsigned)(offset / line_bytes) % state->rig.geometry.rows,
                           &slot);
            if (!slot.valid || slot.line_addr != (line_addr & state->rig.geometry.addr_mask)) {
                char what[ERR_LEN];
                snprintf(what, sizeof what, "lookup(0x%llx) = bank %d, whose slot holds 0x%llx valid %d",
                         (unsigned long long)line_addr, bank, (unsigned long long)slot.line_addr,
                         slot.valid);
                note_failure(state, &state->stats.access_failures, what);
                continue;
            }
            view = slot.data;
        }
        unsigned long differ = differing_bytes(view, state->shadow + offset, line_bytes);
        if (differ) {
            char detail[ERR_LEN];
            snprintf(detail, sizeof detail, "line 0x%llx (%s)", (unsigned long long)line_addr,
                     bank >= 0 ? "cached" : "memory");
            note_mismatch(state, &state->stats.view_mismatches, differ, "coherent view", detail);
        }
    }
}

/* stc_cache_clean, then main memory alone must equal the shadow. */
static void clean_and_compare_memory(torture_state *state)
{
    stc_cache *cache = state->rig.cache;
    test_memory *memory = &state->rig.memory;
    const stc_geometry *geometry = &state->rig.geometry;
    log_reset(memory);
    uint64_t writes_before = memory->write_bursts;
    unsigned written = stc_cache_clean(cache);
    state->stats.clean_writebacks += written;
    unsigned still_dirty = 0;
    for (unsigned bank = 0; bank < geometry->banks; bank++) {
        for (unsigned row = 0; row < geometry->rows; row++) {
            stc_slot slot;
            stc_cache_slot(cache, bank, row, &slot);
            still_dirty += slot.dirty;
        }
    }
    if (memory->write_bursts - writes_before != written || still_dirty != 0) {
        char what[ERR_LEN];
        snprintf(what, sizeof what, "clean returned %u, memory saw %llu writes, %u slots still dirty",
                 written, (unsigned long long)(memory->write_bursts - writes_before), still_dirty);
        note_failure(state, &state->stats.access_failures, what);
    }
    unsigned long differ = differing_bytes(memory->bytes, state->shadow, WINDOW_BYTES);
    if (differ) {
        size_t first = 0;
        while (memory->bytes[first] == state->shadow[first]) {
            first++;
        }
        char detail[ERR_LEN];
        snprintf(detail, sizeof detail, "%lu bytes, first at 0x%llx", differ,
                 (unsigned long long)(memory->base + first));
        note_mismatch(state, &state->stats.memory_mismatches, differ, "memory after clean", detail);
    }
}

static void checkpoint(torture_state *state, bool clean)
{
    state->stats.checkpoints++;
    check_coherent_view(state);
    if (clean) {
        clean_and_compare_memory(state);
    }
}

/* The next configuration: mostly one not yet reached from the current one, so
 * every ordered pair gets exercised; sometimes the same one; sometimes any. */
static size_t pick_next_config(torture_state *state)
{
    size_t count = state->config_count;
    size_t current = state->current_config;
    unsigned roll = rng_below(&state->rng, 100);
    if (roll < 7) {
        return current;
    }
    if (roll < 90) {
        size_t fresh[STC_MAX_CONFIGS];
        size_t fresh_count = 0;
        for (size_t next = 0; next < count; next++) {
            if (next != current && !state->pair_visited[current * count + next]) {
                fresh[fresh_count++] = next;
            }
        }
        if (fresh_count) {
            return fresh[rng_below(&state->rng, (unsigned)fresh_count)];
        }
    }
    return rng_below(&state->rng, (unsigned)count);
}

static void torture_reconfigure(torture_state *state)
{
    stc_cache *cache = state->rig.cache;
    test_memory *memory = &state->rig.memory;
    const stc_geometry *geometry = &state->rig.geometry;
    size_t next_index = pick_next_config(state);
    const stc_config *next = &state->configs[next_index];
    stc_config old = *stc_cache_config(cache);
    stc_counters counters_before = *stc_cache_counters(cache);
    snapshot_take(&state->before, cache);
    log_reset(memory);

    stc_reconfig_result result;
    int rc = stc_cache_reconfigure(cache, next, &result);
    state->stats.reconfigs++;

    char why[2 * ERR_LEN];
    char old_name[STC_CONFIG_NAME_MAX];
    char next_name[STC_CONFIG_NAME_MAX];
    stc_config_name(geometry, &old, old_name, sizeof old_name);
    stc_config_name(geometry, next, next_name, sizeof next_name);
    if (rc != 0 || !stc_config_equal(stc_cache_config(cache), next)) {
        snprintf(why, sizeof why, "%s -> %s: rc %d, configuration not taken", old_name, next_name, rc);
        note_failure(state, &state->stats.reconfig_failures, why);
    }
    /* The brief's summary checks, independent of the detailed oracle. */
    uint64_t cost = (uint64_t)result.woken_banks * geometry->wake_cycles + result.walked_rows +
                    result.moves + result.moving_rows +
                    (uint64_t)result.writebacks * (geometry->mem_latency + geometry->line_bytes / 4);
    if (result.woken_banks || result.walked_rows) {
        cost += 1 + 2 * (uint64_t)result.writebacks;
    }
    if (result.cycles != cost || (result.walked_rows != 0 && result.walked_rows != geometry->rows)) {
        snprintf(why, sizeof why, "%s -> %s: cycles %llu, formula gives %llu; walked rows %u",
                 old_name, next_name, (unsigned long long)result.cycles, (unsigned long long)cost,
                 result.walked_rows);
        note_failure(state, &state->stats.reconfig_failures, why);
    }
    char detail[ERR_LEN];
    bool as_specified =
        state->walk_moves
            ? moving_walk_matches_spec(cache, &state->before, &old, next, &result, memory, detail,
                                       sizeof detail)
            : reconfig_matches_spec(cache, &state->before, &old, next, &result, memory, detail,
                                    sizeof detail);
    if (!state->walk_moves && result.moves != 0) {
        snprintf(detail, sizeof detail, "%u moves with moves off", result.moves);
        as_specified = false;
    }
    if (!as_specified) {
        snprintf(why, sizeof why, "%s -> %s: %s", old_name, next_name, detail);
        note_failure(state, &state->stats.reconfig_failures, why);
    }
    char err[ERR_LEN];
    if (stc_cache_check(cache, err, sizeof err) != 0) {
        snprintf(why, sizeof why, "%s -> %s: invariant broken: %s", old_name, next_name, err);
        note_failure(state, &state->stats.reconfig_failures, why);
    }
    if (valid_lines_in_off_banks(cache) != 0) {
        snprintf(why, sizeof why, "%s -> %s: valid lines in powered-off banks", old_name, next_name);
        note_failure(state, &state->stats.reconfig_failures, why);
    }
    /* Counters (section 9): a change to the same configuration is no change. */
    const stc_counters *counters = stc_cache_counters(cache);
    bool same = stc_config_equal(&old, next);
    if (counters->reconfigs - counters_before.reconfigs != (same ? 0u : 1u) ||
        counters->reconfig_cycles - counters_before.reconfig_cycles != result.cycles ||
        counters->cycles - counters_before.cycles != result.cycles ||
        counters->walk_writebacks - counters_before.walk_writebacks != result.writebacks ||
        counters->walk_invalidations - counters_before.walk_invalidations != result.invalidations ||
        counters->walk_rows - counters_before.walk_rows != result.walked_rows ||
        counters->banks_woken - counters_before.banks_woken != result.woken_banks) {
        snprintf(why, sizeof why, "%s -> %s: counters disagree with the result", old_name, next_name);
        note_failure(state, &state->stats.reconfig_failures, why);
    }

    unsigned long *kinds = state->stats.transitions;
    kinds[KIND_SIZE_UP] += next->banks_on > old.banks_on;
    kinds[KIND_SIZE_DOWN] += next->banks_on < old.banks_on;
    kinds[KIND_ASSOC_UP] += next->ways > old.ways;
    kinds[KIND_ASSOC_DOWN] += next->ways < old.ways;
    kinds[KIND_LINE_CHANGE] += next->sublines != old.sublines;
    kinds[KIND_WP_TOGGLE] += next->way_predict != old.way_predict;
    kinds[KIND_SAME] += same;
    kinds[KIND_WALK] += result.walked_rows != 0;
    state->stats.walk_writebacks += result.writebacks;
    state->stats.walk_invalidations += result.invalidations;
    state->stats.walk_moves += result.moves;
    state->pair_visited[state->current_config * state->config_count + next_index] = true;
    state->config_visited[next_index] = true;
    state->current_config = next_index;

    /* Random checkpoints: the view often, memory after a clean sometimes
     * (cleaning changes the dirty state the next walks see). */
    if (rng_below(&state->rng, 20) == 0) {
        checkpoint(state, rng_below(&state->rng, 2) == 0);
    }
}

/* Run one plan. Contract failures are CHECKed here; data mismatches are
 * returned for the caller to judge (zero wanted, except in test 4). */
static torture_stats run_torture_walks(const torture_plan *plan, bool walk_moves)
{
    torture_state *state = calloc(1, sizeof *state);
    torture_stats stats;
    memset(&stats, 0, sizeof stats);
    if (!state) {
        CHECK(false, "out of memory");
        return stats;
    }
    state->plan = plan;
    state->rng.state = plan->seed;
    if (!rig_open(&state->rig, plan->geometry_list, NULL, plan->base)) {
        free(state);
        return stats;
    }
    state->walk_moves = walk_moves;
    stc_cache_set_walk_moves(state->rig.cache, walk_moves);
    test_memory *memory = &state->rig.memory;
    memory->drop_every_nth_write = plan->drop_every_nth_write;
    memory->corrupt_every_nth_read = plan->corrupt_every_nth_read;
    state->shadow = malloc(WINDOW_BYTES);
    state->config_count = stc_config_enumerate(&state->rig.geometry, state->configs, STC_MAX_CONFIGS);
    state->config_visited = calloc(state->config_count, sizeof *state->config_visited);
    state->pair_visited = calloc(state->config_count * state->config_count, sizeof *state->pair_visited);
    if (!state->shadow || !state->config_visited || !state->pair_visited ||
        !snapshot_alloc(&state->before, &state->rig.geometry) || state->config_count > STC_MAX_CONFIGS) {
        CHECK(false, "%s: setup failed", plan->label);
        goto out;
    }
    /* Memory starts as noise, identical in the shadow: a lost writeback or a
     * stale line then shows as a wrong byte, not as a lucky zero. */
    for (size_t byte = 0; byte < WINDOW_BYTES; byte++) {
        memory->bytes[byte] = (uint8_t)rng_next(&state->rng);
    }
    memcpy(state->shadow, memory->bytes, WINDOW_BYTES);
    stc_config reset = stc_config_reset(&state->rig.geometry);
    for (size_t index = 0; index < state->config_count; index++) {
        if (stc_config_equal(&state->configs[index], &reset)) {
            state->current_config = index;
        }
    }
    state->config_visited[state->current_config] = true;
    new_traffic_phase(state);

    unsigned long gap = plan->mean_gap;
    for (state->step = 0; state->step < plan->accesses; state->step++) {
        /* Gaps vary: back-to-back changes with no traffic, a few accesses,
         * or long stretches. */
        while (gap == 0) {
            torture_reconfigure(state);
            unsigned roll = rng_below(&state->rng, 10);
            gap = roll == 0 ? 0 : roll == 1 ? 1 + rng_below(&state->rng, 4)
                                            : 1 + rng_below(&state->rng, 2 * plan->mean_gap);
        }
        gap--;
        if (rng_below(&state->rng, 2000) == 0) {
            new_traffic_phase(state);
        }
        if (rng_below(&state->rng, 4) == 0) {
            torture_masked_access(state);
        } else {
            torture_request(state);
        }
        state->stats.accesses++;
    }
    /* The end: the view, then memory alone after a clean. */
    checkpoint(state, true);

    char err[ERR_LEN];
    CHECK(stc_cache_check(state->rig.cache, err, sizeof err) == 0, "%s: %s", plan->label, err);
    /* Memory-side totals agree with the counters: every write burst is a
     * miss writeback or a walk/clean writeback; every read burst a fill. */
    const stc_counters *counters = stc_cache_counters(state->rig.cache);
    CHECK_EQ_U64(memory->write_bursts, counters->writebacks + counters->walk_writebacks,
                 "%s: memory write bursts vs writebacks + walk_writebacks", plan->label);
    CHECK_EQ_U64(counters->walk_writebacks, state->stats.walk_writebacks + state->stats.clean_writebacks,
                 "%s: walk_writebacks vs walks + cleans", plan->label);
    CHECK_EQ_U64(memory->read_bursts, counters->fill_bursts, "%s: read bursts", plan->label);
    CHECK_EQ_U64(memory->lines_read, counters->fills, "%s: lines read", plan->label);
    CHECK_EQ_U64(memory->bad_transactions, 0, "%s: misaligned or out-of-window transactions",
                 plan->label);
    CHECK_EQ_U64(counters->reconfigs, state->stats.reconfigs - state->stats.transitions[KIND_SAME],
                 "%s: reconfigs counter", plan->label);
    CHECK_EQ_U64(state->stats.reconfig_failures, 0, "%s: reconfigurations off the spec", plan->label);
    CHECK_EQ_U64(state->stats.access_failures, 0, "%s: accesses off the contract", plan->label);

    for (size_t index = 0; index < state->config_count; index++) {
        state->stats.configs_visited += state->config_visited[index];
        for (size_t next = 0; next < state->config_count; next++) {
            state->stats.pairs_visited += next != index && state->pair_visited[index * state->config_count + next];
        }
    }
    state->stats.configs_total = state->config_count;
    state->stats.pairs_total = state->config_count * (state->config_count - 1);
    state->stats.line_accesses = counters->accesses;
    state->stats.memory_writes = memory->write_bursts;
    state->stats.dropped_writes = memory->dropped_writes;
    state->stats.corrupted_reads = memory->corrupted_reads;
out:
    stats = state->stats;
    snapshot_free(&state->before);
    free(state->pair_visited);
    free(state->config_visited);
    free(state->shadow);
    rig_close(&state->rig);
    free(state);
    return stats;
}

static torture_stats run_torture(const torture_plan *plan)
{
    return run_torture_walks(plan, false);
}

static void print_torture(const torture_plan *plan, const torture_stats *stats)
{
    printf("  %-22s %7lu accesses (%8llu line accesses), %5lu reconfigs (", plan->label,
           stats->accesses, (unsigned long long)stats->line_accesses, stats->reconfigs);
    for (unsigned kind = 0; kind < TRANSITION_KINDS; kind++) {
        printf("%s%s %lu", kind ? ", " : "", transition_kind_names[kind], stats->transitions[kind]);
    }
    printf("), configs %lu/%lu, pairs %lu/%lu, walk wb %lu inval %lu moves %lu, clean wb %lu, "
           "memory writes %llu, checkpoints %lu\n",
           stats->configs_visited, stats->configs_total, stats->pairs_visited, stats->pairs_total,
           stats->walk_writebacks, stats->walk_invalidations, stats->walk_moves,
           stats->clean_writebacks,
           (unsigned long long)stats->memory_writes, stats->checkpoints);
}

static double seconds_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static void test_torture_walks(bool walk_moves)
{
    /* Windows at different places in the 32-bit space: the very top (all tag
     * bits set), address 0, and others; each 64 KiB. */
    static const torture_plan plans[] = {
        {"default 4x2K/16B", "", 0xffff0000u, 0x5eed0001u, 300000, 180, 0, 0, true},
        {"8x1K/16B", "banks=8,bank_bytes=1024", 0x12340000u, 0x5eed0002u, 300000, 80, 0, 0, true},
        {"2x2K/16B", "banks=2", 0x00000000u, 0x5eed0003u, 150000, 250, 0, 0, true},
        {"4x2K/32B", "line_bytes=32", 0x80000000u, 0x5eed0004u, 200000, 110, 0, 0, true},
        {"1x2K/16B", "banks=1", 0x00050000u, 0x5eed0005u, 100000, 300, 0, 0, true},
    };
    torture_stats total;
    memset(&total, 0, sizeof total);
    double started = seconds_now();
    printf("torture%s:\n", walk_moves ? ", walks moving lines" : "");
    for (size_t plan = 0; plan < sizeof plans / sizeof plans[0]; plan++) {
        torture_stats stats = run_torture_walks(&plans[plan], walk_moves);
        print_torture(&plans[plan], &stats);
        CHECK_EQ_U64(stats.load_mismatches, 0, "%s: loads that differ from the shadow (bytes)",
                     plans[plan].label);
        CHECK_EQ_U64(stats.view_mismatches, 0, "%s: coherent-view bytes that differ from the shadow",
                     plans[plan].label);
        CHECK_EQ_U64(stats.memory_mismatches, 0, "%s: memory bytes that differ after clean",
                     plans[plan].label);
        CHECK(stats.configs_visited == stats.configs_total, "%s: visited %lu of %lu configurations",
              plans[plan].label, stats.configs_visited, stats.configs_total);
        CHECK(stats.pairs_visited == stats.pairs_total, "%s: exercised %lu of %lu ordered pairs",
              plans[plan].label, stats.pairs_visited, stats.pairs_total);
        /* With more than one bank every kind of change must have happened. */
        if (stats.configs_total > 3) {
            for (unsigned kind = 0; kind < TRANSITION_KINDS; kind++) {
                CHECK(stats.transitions[kind] > 0, "%s: no '%s' change", plans[plan].label,
                      transition_kind_names[kind]);
            }
        }
        total.accesses += stats.accesses;
        total.line_accesses += stats.line_accesses;
        total.reconfigs += stats.reconfigs;
        total.transitions[KIND_WALK] += stats.transitions[KIND_WALK];
        total.walk_writebacks += stats.walk_writebacks;
        total.walk_moves += stats.walk_moves;
        total.clean_writebacks += stats.clean_writebacks;
        total.memory_writes += stats.memory_writes;
    }
    printf("  total: %lu accesses, %llu line accesses, %lu reconfigurations (%lu walked), %lu walk "
           "writebacks, %lu clean writebacks, %llu memory writes, %.2f s\n",
           total.accesses, (unsigned long long)total.line_accesses, total.reconfigs,
           total.transitions[KIND_WALK], total.walk_writebacks, total.clean_writebacks,
           (unsigned long long)total.memory_writes, seconds_now() - started);
    CHECK(total.reconfigs >= 5000, "only %lu reconfigurations", total.reconfigs);
    CHECK(total.accesses >= 1000000, "only %lu accesses", total.accesses);
    if (walk_moves) {
        CHECK(total.walk_moves > 0, "walks with moves on moved nothing");
    }
}

static void test_torture(void)
{
    test_torture_walks(false);
    test_torture_walks(true);
}

/* ------------------------------------------------------------------------ */
/* 4. A broken memory path must be caught                                   */
/* ------------------------------------------------------------------------ */

static void test_broken_memory_is_caught(void)
{
    /* The same torture, same seed, over memories that lose every 100th
     * writeback or corrupt every 100th fill. The cache itself is fine, so
     * every reconfiguration and access check still passes; only the shadow
     * comparisons can notice, and they must. */
    static const torture_plan broken[] = {
        {"drops every 100th write", "", 0xffff0000u, 0x5eed0001u, 40000, 60, 100, 0, false},
        {"corrupts every 100th read", "", 0xffff0000u, 0x5eed0001u, 40000, 60, 0, 100, false},
    };
    printf("broken memory paths:\n");
    for (size_t plan = 0; plan < sizeof broken / sizeof broken[0]; plan++) {
        torture_stats stats = run_torture(&broken[plan]);
        unsigned long detected = stats.load_mismatches + stats.view_mismatches + stats.memory_mismatches;
        printf("  %-26s faults injected %llu, differing bytes: loads %lu, view %lu, memory %lu; first "
               "caught by %s at access %lu\n",
               broken[plan].label,
               (unsigned long long)(stats.dropped_writes + stats.corrupted_reads),
               stats.load_mismatches, stats.view_mismatches, stats.memory_mismatches,
               stats.first_mismatch_where ? stats.first_mismatch_where : "nothing",
               stats.first_mismatch_step);
        CHECK(stats.dropped_writes + stats.corrupted_reads > 0, "%s: the fault never fired",
              broken[plan].label);
        CHECK(detected > 0, "%s: the shadow comparison did not notice", broken[plan].label);
    }
    /* The same seed over a faithful memory differs in nothing, so what test 4
     * detects is the fault and only the fault. */
    static const torture_plan faithful = {"faithful control", "", 0xffff0000u, 0x5eed0001u, 40000, 60,
                                          0, 0, true};
    torture_stats control = run_torture(&faithful);
    CHECK_EQ_U64(control.load_mismatches + control.view_mismatches + control.memory_mismatches, 0,
                 "faithful control run differs from the shadow");
}

/* ------------------------------------------------------------------------ */
/* 2. Directed walks, hand-computed                                          */
/* ------------------------------------------------------------------------ */

/*
 * Default geometry throughout: B = 4 banks of 2 KiB, P = 16 B, R = 128 rows,
 * T_wake = 4, one writeback = T_mem + P/W = 20 + 4 = 24 cycles, a walk = 128
 * cycles. The window starts at 0x00100000, whose bits 12:11 are 00 and whose
 * tag (addr >> 11 = 0x200) is 0 mod 4, so a line's group select is simply
 * the low bits of `hi`, where the line's offset is hi * 2048 + row * 16.
 */
enum { DIRECTED_BASE = 0x00100000 };

typedef struct {
    const char *name;
    unsigned hi;      /* address bits 15:11 of the offset: hi mod g picks the group */
    unsigned row;     /* row 0..127 */
    bool dirty;       /* stored (dirty) rather than only loaded (clean) */
    int bank_before;  /* hand-computed bank the fill puts it in */
} tracked_line;

static uint64_t line_offset(const tracked_line *line)
{
    return (uint64_t)line->hi * 2048u + (uint64_t)line->row * 16u;
}

/* The word a directed test stores at the start of a line: unique per offset
 * (odd multiplier, bijective mod 2^32) and never 0, which memory starts as. */
static uint32_t word_value(uint64_t offset)
{
    return (uint32_t)((offset + 1) * 2654435761u);
}

static uint32_t read_le32(const uint8_t *bytes)
{
    return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 |
           (uint32_t)bytes[3] << 24;
}

static void fill_lines(test_rig *rig, const tracked_line *lines, size_t count, const char *label)
{
    for (size_t line = 0; line < count; line++) {
        uint64_t addr = rig->memory.base + line_offset(&lines[line]);
        uint8_t word[4];
        uint32_t value = word_value(line_offset(&lines[line]));
        for (unsigned byte = 0; byte < 4; byte++) {
            word[byte] = (uint8_t)(value >> (8 * byte));
        }
        int rc = lines[line].dirty
                     ? stc_cache_request(rig->cache, STC_OP_WRITE, addr, 4, word, NULL, NULL)
                     : stc_cache_request(rig->cache, STC_OP_READ, addr, 4, NULL, word, NULL);
        CHECK(rc >= 0, "%s: fill %s", label, lines[line].name);
    }
    /* All placements checked after the whole fill, so a fill that evicts an
     * earlier line of the same table (a mistake in the table) shows. */
    for (size_t line = 0; line < count; line++) {
        CHECK_EQ_U64(stc_cache_lookup(rig->cache, rig->memory.base + line_offset(&lines[line])),
                     (uint64_t)(int64_t)lines[line].bank_before, "%s: %s placed in bank", label,
                     lines[line].name);
    }
}

/* What one directed change must do. */
typedef struct {
    const char *to;                /* configuration name */
    unsigned woken, slept, walked_rows, invalidations, cycles;
    const int *written_back;       /* indices into the line table, in memory order; -1 ends */
    const int *bank_after;         /* per line of the table: its bank after, -1 = absent */
} directed_step;

static stc_reconfig_result expect_step(test_rig *rig, const char *label,
                                       const tracked_line *lines, size_t line_count,
                                       const directed_step *step)
{
    stc_config next = config_named(rig, step->to);
    stc_counters before = *stc_cache_counters(rig->cache);
    log_reset(&rig->memory);
    stc_reconfig_result result;
    CHECK(stc_cache_reconfigure(rig->cache, &next, &result) == 0, "%s: -> %s refused", label, step->to);

    size_t writebacks = 0;
    while (step->written_back[writebacks] >= 0) {
        writebacks++;
    }
    CHECK_EQ_U64(result.woken_banks, step->woken, "%s -> %s: woken banks", label, step->to);
    CHECK_EQ_U64(result.slept_banks, step->slept, "%s -> %s: slept banks", label, step->to);
    CHECK_EQ_U64(result.walked_rows, step->walked_rows, "%s -> %s: walked rows", label, step->to);
    CHECK_EQ_U64(result.writebacks, writebacks, "%s -> %s: writebacks", label, step->to);
    CHECK_EQ_U64(result.invalidations, step->invalidations, "%s -> %s: invalidations", label, step->to);
    CHECK_EQ_U64(result.cycles, step->cycles, "%s -> %s: cycles", label, step->to);

    /* Memory saw exactly these writes, in this order, carrying the stored
     * word; and nothing else (no reads). */
    CHECK_EQ_U64(rig->memory.log_count, writebacks, "%s -> %s: memory transactions", label, step->to);
    for (size_t seen = 0; seen < rig->memory.log_count && seen < writebacks; seen++) {
        const tracked_line *line = &lines[step->written_back[seen]];
        const mem_transaction *transaction = &rig->memory.log[seen];
        CHECK(transaction->is_write && transaction->addr == rig->memory.base + line_offset(line) &&
                  transaction->bytes == 16,
              "%s -> %s: transaction %zu is %s 0x%llx/%u, want write of %s 0x%llx", label, step->to,
              seen, transaction->is_write ? "write" : "read", (unsigned long long)transaction->addr,
              transaction->bytes, line->name,
              (unsigned long long)(rig->memory.base + line_offset(line)));
        CHECK_EQ_U64(read_le32(transaction->data), word_value(line_offset(line)),
                     "%s -> %s: data written back for %s", label, step->to, line->name);
        CHECK_EQ_U64(read_le32(rig->memory.bytes + line_offset(line)), word_value(line_offset(line)),
                     "%s -> %s: memory holds %s", label, step->to, line->name);
    }
    /* Which lines stayed where, and stayed dirty. */
    for (size_t line = 0; line < line_count; line++) {
        uint64_t addr = rig->memory.base + line_offset(&lines[line]);
        int bank = stc_cache_lookup(rig->cache, addr);
        CHECK(bank == step->bank_after[line], "%s -> %s: %s in bank %d, want %d (-1 = absent)",
              label, step->to, lines[line].name, bank, step->bank_after[line]);
        if (bank >= 0 && step->bank_after[line] >= 0) {
            stc_slot slot;
            stc_cache_slot(rig->cache, (unsigned)bank, lines[line].row, &slot);
            CHECK(slot.dirty == lines[line].dirty, "%s -> %s: %s dirty %d, want %d", label, step->to,
                  lines[line].name, slot.dirty, lines[line].dirty);
        }
    }
    char err[ERR_LEN];
    CHECK(stc_cache_check(rig->cache, err, sizeof err) == 0, "%s -> %s: %s", label, step->to, err);
    CHECK_EQ_U64(valid_lines_in_off_banks(rig->cache), 0, "%s -> %s: valid lines in off banks", label,
                 step->to);
    const stc_counters *after = stc_cache_counters(rig->cache);
    CHECK_EQ_U64(after->reconfigs - before.reconfigs, 1, "%s -> %s: reconfigs counted", label, step->to);
    CHECK_EQ_U64(after->reconfig_cycles - before.reconfig_cycles, step->cycles,
                 "%s -> %s: reconfig_cycles counted", label, step->to);
    CHECK_EQ_U64(after->walk_writebacks - before.walk_writebacks, writebacks,
                 "%s -> %s: walk_writebacks counted", label, step->to);
    CHECK_EQ_U64(after->walk_invalidations - before.walk_invalidations, step->invalidations,
                 "%s -> %s: walk_invalidations counted", label, step->to);
    return result;
}

static void directed_grow_size(void)
{
    /* 2K_1W -> 4K_1W -> 8K_1W. In 2K_1W everything lives in bank 0. */
    static const tracked_line lines[] = {
        {"A", 0, 3, true, 0},  {"B", 1, 5, true, 0},  {"C", 2, 7, true, 0},
        {"D", 3, 9, true, 0},  {"E", 1, 2, false, 0}, {"F", 3, 1, true, 0},
        /* Filled under 4K_1W: g = 2, bank = hi mod 2. */
        {"G", 2, 0, false, 0}, {"H", 2, 20, true, 0}, {"I", 3, 20, true, 1},
        {"J", 1, 40, true, 1}, {"K", 0, 41, true, 0},
    };
    enum { A, B, C, D, E, F, G, H, I, J, K, LINE_COUNT };
    /* 2K_1W -> 4K_1W: wake bank 1 (1 x 4 cycles); g 1 -> 2 so walk bank 0;
     * the lines with addr[11] = 1 (odd hi) leave: B, D, E, F. In row order
     * the dirty ones: F (row 1), B (row 5), D (row 9); E is clean.
     * cycles = 4 + 128 + 3 x 24 + 1 + 2 x 3 = 211 (the
     * controller's own: section 10). */
    static const int step1_written[] = {F, B, D, -1};
    static const int step1_after[LINE_COUNT] = {0, -1, 0, -1, -1, -1, -1, -1, -1, -1, -1};
    static const directed_step step1 = {"4K_1W_16B", 1, 0, 128, 4, 211, step1_written, step1_after};
    /* 4K_1W -> 8K_1W: wake banks 2, 3 (8 cycles); g 2 -> 4, walk banks 0, 1;
     * a line stays iff its bank = hi mod 4. Bank 0: A (hi 0) stays, C (hi 2)
     * goes dirty, G (hi 2) goes clean, H (hi 2) goes dirty, K (hi 0) stays.
     * Bank 1: I (hi 3) goes dirty, J (hi 1) stays. Order: C (row 7 bank 0),
     * H (row 20 bank 0), I (row 20 bank 1): same row, bank ascending.
     * invalidations C, G, H, I = 4; cycles = 8 + 128 + 3 x 24 + 1 + 2 x 3 = 215. */
    static const int step2_written[] = {C, H, I, -1};
    static const int step2_after[LINE_COUNT] = {0, -1, -1, -1, -1, -1, -1, -1, -1, 1, 0};
    static const directed_step step2 = {"8K_1W_16B", 2, 0, 128, 4, 215, step2_written, step2_after};

    test_rig rig;
    if (!rig_open(&rig, "", "2K_1W_16B", DIRECTED_BASE)) {
        return;
    }
    fill_lines(&rig, lines, 6, "grow");
    expect_step(&rig, "grow", lines, LINE_COUNT, &step1);
    fill_lines(&rig, lines + G, 5, "grow");
    expect_step(&rig, "grow", lines, LINE_COUNT, &step2);
    rig_close(&rig);
}

static void directed_shrink_size(void)
{
    /* 8K_1W -> 4K_1W -> 2K_1W. In 8K_1W a line's bank is hi mod 4. */
    static const tracked_line lines[] = {
        {"P0", 0, 3, true, 0},  {"P1", 1, 3, true, 1},   {"P2", 2, 3, true, 2},
        {"P3", 3, 3, true, 3},  {"Q2", 2, 50, false, 2}, {"Q3", 3, 60, true, 3},
        {"R1", 1, 10, false, 1}, {"R0", 0, 90, true, 0},
        /* Filled under 4K_1W: bank = hi mod 2. */
        {"S1", 3, 70, true, 1}, {"S0", 2, 71, true, 0},
    };
    enum { P0, P1, P2, P3, Q2, Q3, R1, R0, S1, S0, LINE_COUNT };
    /* 8K_1W -> 4K_1W: k 4 -> 2, g 4 -> 2 (not larger) so walk only the banks
     * going off, 2 and 3: P2, P3 (row 3, banks 2 then 3), Q2 clean (row 50),
     * Q3 (row 60). Banks 0/1 keep P0, P1, R1, R0: bank = hi mod 2 holds.
     * cycles = 128 + 3 x 24 + 1 + 2 x 3 = 207. */
    static const int step1_written[] = {P2, P3, Q3, -1};
    static const int step1_after[LINE_COUNT] = {0, 1, -1, -1, -1, -1, 1, 0, -1, -1};
    static const directed_step step1 = {"4K_1W_16B", 0, 2, 128, 4, 207, step1_written, step1_after};
    /* 4K_1W -> 2K_1W: walk bank 1: P1 (row 3) dirty, R1 (row 10) clean,
     * S1 (row 70) dirty. cycles = 128 + 2 x 24 + 1 + 2 x 2 = 181. */
    static const int step2_written[] = {P1, S1, -1};
    static const int step2_after[LINE_COUNT] = {0, -1, -1, -1, -1, -1, -1, 0, -1, 0};
    static const directed_step step2 = {"2K_1W_16B", 0, 1, 128, 3, 181, step2_written, step2_after};

    test_rig rig;
    if (!rig_open(&rig, "", "8K_1W_16B", DIRECTED_BASE)) {
        return;
    }
    fill_lines(&rig, lines, 8, "shrink");
    expect_step(&rig, "shrink", lines, LINE_COUNT, &step1);
    fill_lines(&rig, lines + S1, 2, "shrink");
    expect_step(&rig, "shrink", lines, LINE_COUNT, &step2);
    rig_close(&rig);
}

static void directed_shrink_4w_to_1w(void)
{
    /* 8K_4W -> 2K_1W. In an empty 8K_4W the victim is the lowest invalid
     * candidate, so the n-th distinct line of a row goes to bank n-1. */
    static const tracked_line lines[] = {
        {"W0", 0, 10, true, 0},  {"W1", 1, 10, true, 1},  {"W2", 2, 10, true, 2},
        {"W3", 3, 10, true, 3},  {"X0", 4, 11, false, 0}, {"X1", 5, 11, false, 1},
        {"Y0", 6, 12, false, 0}, {"Y1", 7, 12, false, 1}, {"Y2", 0, 12, true, 2},
    };
    enum { W0, W1, W2, W3, X0, X1, Y0, Y1, Y2, LINE_COUNT };
    /* g 1 -> 1 (not larger), k 4 -> 1: walk banks 1..3 only. Row 10: W1, W2,
     * W3 dirty; row 11: X1 clean; row 12: Y1 clean, Y2 dirty. Bank 0 keeps
     * W0, X0, Y0 (the only candidate of everything in 2K_1W).
     * invalidations 6; cycles = 128 + 4 x 24 + 1 + 2 x 4 = 233. */
    static const int written[] = {W1, W2, W3, Y2, -1};
    static const int after[LINE_COUNT] = {0, -1, -1, -1, 0, -1, 0, -1, -1};
    static const directed_step step = {"2K_1W_16B", 0, 3, 128, 6, 233, written, after};

    test_rig rig;
    if (!rig_open(&rig, "", "8K_4W_16B", DIRECTED_BASE)) {
        return;
    }
    fill_lines(&rig, lines, LINE_COUNT, "8K_4W->2K_1W");
    expect_step(&rig, "8K_4W->2K_1W", lines, LINE_COUNT, &step);
    rig_close(&rig);
}

/* Fill used by both raise-associativity paths: 8K_1W, bank = hi mod 4. */
static const tracked_line raise_lines[] = {
    {"Z0", 0, 1, true, 0}, {"Z1", 1, 1, true, 1}, {"Z2", 2, 1, false, 2},
    {"Z3", 3, 1, true, 3}, {"Z5", 5, 2, true, 1}, {"Z6", 6, 2, true, 2},
};
enum { RAISE_LINE_COUNT = sizeof raise_lines / sizeof raise_lines[0] };

static void directed_raise_assoc(void)
{
    /* At a fixed size raising the associativity divides g: no walk, no
     * invalidation, no writeback, zero cycles, every line where it was. */
    static const int none[] = {-1};
    static const int after[RAISE_LINE_COUNT] = {0, 1, 2, 3, 1, 2};
    static const directed_step to_2w = {"8K_2W_16B", 0, 0, 0, 0, 0, none, after};
    static const directed_step to_4w = {"8K_4W_16B", 0, 0, 0, 0, 0, none, after};

    test_rig rig;
    if (rig_open(&rig, "", "8K_1W_16B", DIRECTED_BASE)) {
        fill_lines(&rig, raise_lines, RAISE_LINE_COUNT, "raise");
        expect_step(&rig, "raise", raise_lines, RAISE_LINE_COUNT, &to_2w);
        expect_step(&rig, "raise", raise_lines, RAISE_LINE_COUNT, &to_4w);
        CHECK_EQ_U64(stc_cache_counters(rig.cache)->reconfig_cycles, 0,
                     "raise: no reconfiguration cycles at all");
        rig_close(&rig);
    }
    /* Section 7's worked example: 8K_1W -> 8K_4W in one step costs 0. */
    if (rig_open(&rig, "", "8K_1W_16B", DIRECTED_BASE)) {
        fill_lines(&rig, raise_lines, RAISE_LINE_COUNT, "8K_1W->8K_4W");
        expect_step(&rig, "8K_1W->8K_4W", raise_lines, RAISE_LINE_COUNT, &to_4w);
        rig_close(&rig);
    }
}

/* Fill used by both lower-associativity paths: 8K_4W, n-th line of a row in
 * bank n-1. */
static const tracked_line lower_lines[] = {
    /* Row 5: hi 0..3 land in banks 0..3, each its 8K_1W home. */
    {"V0", 0, 5, true, 0}, {"V1", 1, 5, true, 1}, {"V2", 2, 5, true, 2}, {"V3", 3, 5, true, 3},
    /* Row 6: hi 3, 2, 1, 0 land in banks 0..3, none at home in 8K_1W. */
    {"U3", 3, 6, true, 0}, {"U2", 2, 6, true, 1}, {"U1", 1, 6, true, 2}, {"U0", 0, 6, true, 3},
    /* Row 7, clean: hi 1 -> bank 0, hi 5 -> bank 1, hi 2 -> bank 2. */
    {"T1", 1, 7, false, 0}, {"T5", 5, 7, false, 1}, {"T2", 2, 7, false, 2},
    /* Row 8, dirty: hi 2 -> bank 0, hi 6 -> bank 1. */
    {"S2", 2, 8, true, 0}, {"S6", 6, 8, true, 1},
};
enum { V0, V1, V2, V3, U3, U2, U1, U0, T1, T5, T2, S2, S6, LOWER_LINE_COUNT };

static void directed_lower_assoc(void)
{
    /* 8K_4W -> 8K_1W: g 1 -> 4, walk all four banks; stay iff bank = hi mod 4.
     * Row 5: all stay. Row 6: all four go dirty (banks 0, 1, 2, 3 order).
     * Row 7: T1 (bank 0, home 1) goes clean; T5 (bank 1, 5 mod 4 = 1) and T2
     * stay. Row 8: S2 (bank 0, home 2) and S6 (bank 1, home 2) go dirty.
     * writebacks 6, invalidations 4 + 1 + 2 = 7, cycles = 128 + 6 x 24 + 1 + 2 x 6 = 285. */
    static const int direct_written[] = {U3, U2, U1, U0, S2, S6, -1};
    static const int direct_after[LOWER_LINE_COUNT] = {0, 1, 2, 3, -1, -1, -1, -1, -1, 1, 2, -1, -1};
    static const directed_step direct = {"8K_1W_16B", 0, 0, 128, 7, 285, direct_written, direct_after};
    /* 8K_4W -> 8K_2W: g 1 -> 2, walk all; stay iff bank mod 2 = hi mod 2.
     * Row 5 stays; row 6 all go (0/3, 1/2, 2/1, 3/0 differ in parity); row 7
     * T1 goes (bank 0, hi 1), T5 and T2 stay; row 8 S2 stays (0/2), S6 goes
     * (bank 1, hi 6). writebacks 5, invalidations 6, cycles = 128 + 5 x 24 + 1 + 2 x 5 = 259. */
    static const int half_written[] = {U3, U2, U1, U0, S6, -1};
    static const int half_after[LOWER_LINE_COUNT] = {0, 1, 2, 3, -1, -1, -1, -1, -1, 1, 2, 0, -1};
    static const directed_step half = {"8K_2W_16B", 0, 0, 128, 6, 259, half_written, half_after};
    /* 8K_2W -> 8K_1W: g 2 -> 4, walk all; stay iff bank = hi mod 4. Only S2
     * (bank 0, home 2) goes: 1 writeback, cycles = 128 + 24 + 1 + 2 = 155. Together
     * the two steps write back the same 6 lines as the direct change. */
    static const int rest_written[] = {S2, -1};
    static const directed_step rest = {"8K_1W_16B", 0, 0, 128, 1, 155, rest_written, direct_after};

    test_rig rig;
    if (rig_open(&rig, "", "8K_4W_16B", DIRECTED_BASE)) {
        fill_lines(&rig, lower_lines, LOWER_LINE_COUNT, "8K_4W->8K_1W");
        expect_step(&rig, "8K_4W->8K_1W", lower_lines, LOWER_LINE_COUNT, &direct);
        rig_close(&rig);
    }
    if (rig_open(&rig, "", "8K_4W_16B", DIRECTED_BASE)) {
        fill_lines(&rig, lower_lines, LOWER_LINE_COUNT, "8K_4W->8K_2W->8K_1W");
        expect_step(&rig, "8K_4W->8K_2W->8K_1W", lower_lines, LOWER_LINE_COUNT, &half);
        expect_step(&rig, "8K_4W->8K_2W->8K_1W", lower_lines, LOWER_LINE_COUNT, &rest);
        rig_close(&rig);
    }
}

static void directed_moving_walk(void)
{
    /* The lower_lines table with walks that move (ARCHITECTURE.md 7): 8K_4W ->
     * 8K_2W, g 1 -> 2, candidates of hi even {0, 2}, of hi odd {1, 3}.
     * Row 5 stays. Row 6: U3 (b0, odd), U2 (b1, even), U1 (b2, odd), U0 (b3,
     * even) all taken out; ascending old bank: U3 -> 1, U2 -> 0, U1 -> 3,
     * U0 -> 2. Row 7: T1 (b0, odd) taken; 1 holds T5, 3 is empty: T1 -> 3.
     * Row 8: S6 (b1, even) taken; 0 holds S2, 2 empty: S6 -> 2. Moves 6, no
     * writeback, no invalidation; rows 6, 7 and 8 move lines, each a cycle
     * more than its moves: cycles = 128 + 6 + 3 + 1 = 138. */
    static const int none_written[] = {-1};
    static const int half_after[LOWER_LINE_COUNT] = {0, 1, 2, 3, 1, 0, 3, 2, 3, 1, 2, 0, 2};
    static const directed_step half = {"8K_2W_16B", 0, 0, 128, 0, 138, none_written, half_after};
    /* 8K_2W -> 8K_1W, g 2 -> 4, home = hi mod 4. Row 6: U2 (b0), U3 (b1),
     * U0 (b2), U1 (b3) are all away from home: U2 -> 2, U3 -> 3, U0 -> 0,
     * U1 -> 1. Row 7: T1 (b3, home 1) taken, 1 holds T5 (home 1): dropped,
     * clean. Row 8: S2 (b0, home 2) taken, 2 holds S6 (home 2): written back
     * and dropped. Moves 4 (row 6 alone: + 1), writebacks 1, invalidations
     * 2, cycles = 128 + 4 + 1 + 24 + 1 + 2 = 160. */
    static const int rest_written[] = {S2, -1};
    static const int rest_after[LOWER_LINE_COUNT] = {0, 1, 2, 3, 3, 2, 1, 0, -1, 1, 2, -1, 2};
    static const directed_step rest = {"8K_1W_16B", 0, 0, 128, 2, 160, rest_written, rest_after};

    test_rig rig;
    if (!rig_open(&rig, "", "8K_4W_16B", DIRECTED_BASE)) {
        return;
    }
    stc_cache_set_walk_moves(rig.cache, true);
    const char *label = "moving 8K_4W->8K_2W->8K_1W";
    fill_lines(&rig, lower_lines, LOWER_LINE_COUNT, label);
    stc_reconfig_result first = expect_step(&rig, label, lower_lines, LOWER_LINE_COUNT, &half);
    CHECK_EQ_U64(first.moves, 6, "%s: moves to 8K_2W", label);
    /* A moved line keeps its place in the row's recency order: T5 was
     * filled after T1, so in row 7's odd set {1, 3} T5 (bank 1) is still
     * the more recent, the one way prediction probes first. */
    CHECK_EQ_U64(stc_cache_predicted_bank(rig.cache, rig.memory.base + line_offset(&lower_lines[T5])),
                 1, "%s: row 7 odd set's most recent bank", label);
    CHECK_EQ_U64(stc_cache_predicted_bank(rig.cache, rig.memory.base + line_offset(&lower_lines[U2])),
                 2, "%s: row 6 even set's most recent bank (U0, filled after U2)", label);
    stc_reconfig_result second = expect_step(&rig, label, lower_lines, LOWER_LINE_COUNT, &rest);
    CHECK_EQ_U64(second.moves, 4, "%s: moves to 8K_1W", label);
    /* Back to 4 ways (no walk), then the data of every dirty line, moved
     * twice or not, reads back, and after a clean memory holds it. */
    stc_config four_way = config_named(&rig, "8K_4W_16B");
    CHECK(stc_cache_reconfigure(rig.cache, &four_way, NULL) == 0, "%s: -> 8K_4W", label);
    for (size_t line = 0; line < LOWER_LINE_COUNT; line++) {
        if (!lower_lines[line].dirty) {
            continue;
        }
        uint64_t offset = line_offset(&lower_lines[line]);
        uint8_t word[4];
        CHECK(stc_cache_request(rig.cache, STC_OP_READ, rig.memory.base + offset, 4, NULL, word,
                                NULL) >= 0,
              "%s: read %s", label, lower_lines[line].name);
        CHECK_EQ_U64(read_le32(word), word_value(offset), "%s: %s reads back its stored word",
                     label, lower_lines[line].name);
    }
    stc_cache_clean(rig.cache);
    for (size_t line = 0; line < LOWER_LINE_COUNT; line++) {
        uint64_t offset = line_offset(&lower_lines[line]);
        CHECK_EQ_U64(read_le32(rig.memory.bytes + offset),
                     lower_lines[line].dirty ? word_value(offset) : 0,
                     "%s: memory holds %s after a clean", label, lower_lines[line].name);
    }
    char err[ERR_LEN];
    CHECK(stc_cache_check(rig.cache, err, sizeof err) == 0, "%s: %s", label, err);
    rig_close(&rig);
}

static void directed_line_size_change(void)
{
    /* 8K_2W: candidates of hi are banks hi mod 2 and hi mod 2 + 2; an empty
     * row fills the lower one first. */
    static const tracked_line lines[] = {
        {"M8", 0, 8, true, 0}, {"M10", 0, 10, true, 0}, {"N8", 1, 8, true, 1},
    };
    enum { LINE_COUNT = 3 };
    static const int none[] = {-1};
    static const int after[LINE_COUNT] = {0, 0, 1};
    static const directed_step to_64 = {"8K_2W_64B", 0, 0, 0, 0, 0, none, after};
    static const directed_step to_32 = {"8K_2W_32B", 0, 0, 0, 0, 0, none, after};
    static const directed_step to_16 = {"8K_2W_16B", 0, 0, 0, 0, 0, none, after};

    test_rig rig;
    if (!rig_open(&rig, "", "8K_2W_16B", DIRECTED_BASE)) {
        return;
    }
    fill_lines(&rig, lines, LINE_COUNT, "line");
    /* Rows and candidates do not depend on L: no walk, no cost. */
    expect_step(&rig, "line", lines, LINE_COUNT, &to_64);

    /* The cache stays correct with partial logical lines (section 7's last
     * paragraph, section 6's miss rule). Load row 9 of hi 0: the 64 B logical
     * line is rows 8..11; rows 8 and 10 are present in bank 0. Victim from
     * row 8: candidates {0, 2}, bank 0 valid, bank 2 invalid -> bank 2. Rows
     * 9 and 11 are missing and not adjacent: two 1-line bursts.
     * cycles = 1 probe + 2 x (20 + 16/4) + the controller's 4 checks
     * + 2 bursts (the first requested in the last check, the second after
     * the first's beats, then the answer) = 55; nothing written back. */
    log_reset(&rig.memory);
    stc_access_result result;
    uint8_t word[4];
    CHECK(stc_cache_access(rig.cache, STC_OP_READ, DIRECTED_BASE + 9 * 16, 4, NULL, NULL, word,
                           &result) == 0,
          "line: load row 9");
    CHECK(!result.hit, "line: row 9 must miss");
    CHECK_EQ_U64(result.bank, 2, "line: row 9 served by the victim");
    CHECK_EQ_U64(result.fills, 2, "line: fills");
    CHECK_EQ_U64(result.bursts, 2, "line: bursts");
    CHECK_EQ_U64(result.writebacks, 0, "line: writebacks");
    CHECK_EQ_U64(result.cycles, 55, "line: cycles");
    CHECK_EQ_U64(rig.memory.log_count, 2, "line: memory transactions");
    if (rig.memory.log_count == 2) {
        CHECK(!rig.memory.log[0].is_write && rig.memory.log[0].addr == DIRECTED_BASE + 9 * 16 &&
                  rig.memory.log[0].bytes == 16,
              "line: first burst reads row 9 only");
        CHECK(!rig.memory.log[1].is_write && rig.memory.log[1].addr == DIRECTED_BASE + 11 * 16 &&
                  rig.memory.log[1].bytes == 16,
              "line: second burst reads row 11 only");
    }
    /* Rows 8, 10 stay in bank 0 (not refetched, not duplicated); 9, 11 in 2. */
    CHECK_EQ_U64(stc_cache_lookup(rig.cache, DIRECTED_BASE + 8 * 16), 0, "line: row 8");
    CHECK_EQ_U64(stc_cache_lookup(rig.cache, DIRECTED_BASE + 9 * 16), 2, "line: row 9");
    CHECK_EQ_U64(stc_cache_lookup(rig.cache, DIRECTED_BASE + 10 * 16), 0, "line: row 10");
    CHECK_EQ_U64(stc_cache_lookup(rig.cache, DIRECTED_BASE + 11 * 16), 2, "line: row 11");
    char err[ERR_LEN];
    CHECK(stc_cache_check(rig.cache, err, sizeof err) == 0, "line: %s", err);

    static const int after_partial[LINE_COUNT] = {0, 0, 1};
    static const directed_step to_32_partial = {"8K_2W_32B", 0, 0, 0, 0, 0, none, after_partial};
    expect_step(&rig, "line", lines, LINE_COUNT, &to_32_partial);
    CHECK_EQ_U64(stc_cache_lookup(rig.cache, DIRECTED_BASE + 11 * 16), 2, "line: row 11 after 32B");
    expect_step(&rig, "line", lines, LINE_COUNT, &to_16);
    expect_step(&rig, "line", lines, LINE_COUNT, &to_32);
    rig_close(&rig);
}

static void directed_way_predict_toggle(void)
{
    /* 8K_2W: hi 0 and hi 2 both select group 0, banks {0, 2}: the first goes
     * to bank 0, the second to bank 2, which is then the most recent. */
    static const tracked_line lines[] = {
        {"L0", 0, 20, true, 0},
        {"L2", 2, 20, true, 2},
    };
    enum { LINE_COUNT = 2 };
    const uint64_t l0_addr = DIRECTED_BASE + 20 * 16; /* L0: hi 0, row 20 */
    static const int none[] = {-1};
    static const int after[LINE_COUNT] = {0, 2};
    static const directed_step wp_on = {"8K_2W_16B_P", 0, 0, 0, 0, 0, none, after};
    static const directed_step wp_off = {"8K_2W_16B", 0, 0, 0, 0, 0, none, after};
    static const directed_step wp_and_line = {"8K_2W_64B_P", 0, 0, 0, 0, 0, none, after};

    test_rig rig;
    if (!rig_open(&rig, "", "8K_2W_16B", DIRECTED_BASE)) {
        return;
    }
    fill_lines(&rig, lines, LINE_COUNT, "wp");
    CHECK_EQ_U64(stc_cache_predicted_bank(rig.cache, l0_addr), 2, "wp: prediction before");
    expect_step(&rig, "wp", lines, LINE_COUNT, &wp_on);
    /* The recency order survives (section 8): the prediction is still bank 2,
     * so L0 (bank 0) is a second-probe hit (2 cycles), then a first-probe hit
     * (1 cycle) because it became the most recent. */
    CHECK_EQ_U64(stc_cache_predicted_bank(rig.cache, l0_addr), 2, "wp: prediction after");
    stc_access_result result;
    uint8_t word[4];
    CHECK(stc_cache_access(rig.cache, STC_OP_READ, l0_addr, 4, NULL, NULL, word, &result) == 0,
          "wp: load");
    CHECK(result.hit && !result.predicted && result.probes == 2 && result.cycles == 2,
          "wp: second-probe hit wanted: hit %d predicted %d probes %u cycles %u", result.hit,
          result.predicted, result.probes, result.cycles);
    CHECK(stc_cache_access(rig.cache, STC_OP_READ, l0_addr, 4, NULL, NULL, word, &result) == 0,
          "wp: load");
    CHECK(result.hit && result.predicted && result.probes == 1 && result.cycles == 1,
          "wp: first-probe hit wanted: hit %d predicted %d probes %u cycles %u", result.hit,
          result.predicted, result.probes, result.cycles);
    expect_step(&rig, "wp", lines, LINE_COUNT, &wp_off);
    expect_step(&rig, "wp", lines, LINE_COUNT, &wp_and_line);
    rig_close(&rig);
}

static void directed_worked_examples(void)
{
    test_rig rig;
    char err[ERR_LEN];
    static const int none[] = {-1};

    /* 8K_2W -> 4K_2W: g 2 -> 1 (smaller) but k 4 -> 2: walk banks 2 and 3.
     * Fill: group 0 = banks {0, 2}, group 1 = {1, 3}; row 4 gets hi 0 -> 0,
     * hi 2 -> 2, hi 1 -> 1, hi 3 -> 3; row 9 gets hi 4 -> 0, hi 6 -> 2 clean.
     * Row 4: bank 2 then bank 3 written back; row 9: bank 2 dropped clean.
     * cycles = 128 + 2 x 24 + 1 + 2 x 2 = 181. */
    {
        static const tracked_line lines[] = {
            {"a0", 0, 4, true, 0},  {"a2", 2, 4, true, 2},  {"a1", 1, 4, true, 1},
            {"a3", 3, 4, true, 3},  {"b4", 4, 9, false, 0}, {"b6", 6, 9, false, 2},
        };
        enum { a0, a2, a1, a3, b4, b6, LINE_COUNT };
        static const int written[] = {a2, a3, -1};
        static const int after[LINE_COUNT] = {0, -1, 1, -1, 0, -1};
        static const directed_step step = {"4K_2W_16B", 0, 2, 128, 3, 181, written, after};
        if (rig_open(&rig, "", "8K_2W_16B", DIRECTED_BASE)) {
            fill_lines(&rig, lines, LINE_COUNT, "8K_2W->4K_2W");
            expect_step(&rig, "8K_2W->4K_2W", lines, LINE_COUNT, &step);
            rig_close(&rig);
        }
    }
    /* 4K_1W -> 8K_2W: g = 2 both, k grows: wake banks 2, 3 (8 cycles + 1), no
     * walk. Every line (bank = hi mod 2) is among its candidates
     * {hi mod 2, hi mod 2 + 2}. */
    {
        static const tracked_line lines[] = {
            {"c0", 0, 4, true, 0}, {"c1", 1, 4, true, 1}, {"c2", 2, 5, true, 0}, {"c3", 3, 6, false, 1},
        };
        enum { LINE_COUNT = 4 };
        static const int after[LINE_COUNT] = {0, 1, 0, 1};
        static const directed_step step = {"8K_2W_16B", 2, 0, 0, 0, 9, none, after};
        if (rig_open(&rig, "", "4K_1W_16B", DIRECTED_BASE)) {
            fill_lines(&rig, lines, LINE_COUNT, "4K_1W->8K_2W");
            expect_step(&rig, "4K_1W->8K_2W", lines, LINE_COUNT, &step);
            rig_close(&rig);
        }
    }
    /* 4K_2W -> 8K_1W: k 2 -> 4 (wake 2 = 8 cycles) and g 1 -> 4: walk the old
     * banks 0, 1; stay iff bank = hi mod 4. Row 30: d0 (bank 0) stays, d3
     * (bank 1) goes dirty. Row 31: d1 (bank 0) goes clean, d2 (bank 1) dirty.
     * cycles = 8 + 128 + 2 x 24 + 1 + 2 x 2 = 189. */
    {
        static const tracked_line lines[] = {
            {"d0", 0, 30, true, 0}, {"d3", 3, 30, true, 1}, {"d1", 1, 31, false, 0}, {"d2", 2, 31, true, 1},
        };
        enum { d0, d3, d1, d2, LINE_COUNT };
        static const int written[] = {d3, d2, -1};
        static const int after[LINE_COUNT] = {0, -1, -1, -1};
        static const directed_step step = {"8K_1W_16B", 2, 0, 128, 3, 189, written, after};
        if (rig_open(&rig, "", "4K_2W_16B", DIRECTED_BASE)) {
            fill_lines(&rig, lines, LINE_COUNT, "4K_2W->8K_1W");
            expect_step(&rig, "4K_2W->8K_1W", lines, LINE_COUNT, &step);
            rig_close(&rig);
        }
    }
    /* 8K_1W -> 4K_2W: g 4 -> 1, k 4 -> 2: walk banks 2, 3 only. e2 (row 12,
     * bank 2) dirty goes, e3 (row 13, bank 3) clean goes; e0, e1 stay (g' = 1:
     * banks 0 and 1 are everyone's candidates). cycles = 128 + 24 + 1 + 2 = 155. */
    {
        static const tracked_line lines[] = {
            {"e0", 0, 12, true, 0}, {"e1", 1, 12, true, 1}, {"e2", 2, 12, true, 2}, {"e3", 3, 13, false, 3},
        };
        enum { e0, e1, e2, e3, LINE_COUNT };
        static const int written[] = {e2, -1};
        static const int after[LINE_COUNT] = {0, 1, -1, -1};
        static const directed_step step = {"4K_2W_16B", 0, 2, 128, 2, 155, written, after};
        if (rig_open(&rig, "", "8K_1W_16B", DIRECTED_BASE)) {
            fill_lines(&rig, lines, LINE_COUNT, "8K_1W->4K_2W");
            expect_step(&rig, "8K_1W->4K_2W", lines, LINE_COUNT, &step);
            rig_close(&rig);
        }
    }
    /* 2K_1W -> 8K_4W: g 1 -> 1, k grows: wake 3 banks = 12 cycles + 1, no walk;
     * bank 0 is among everyone's candidates. */
    {
        static const tracked_line lines[] = {
            {"f0", 0, 1, true, 0}, {"f3", 3, 2, true, 0}, {"f5", 5, 3, false, 0},
        };
        enum { LINE_COUNT = 3 };
        static const int after[LINE_COUNT] = {0, 0, 0};
        static const directed_step step = {"8K_4W_16B", 3, 0, 0, 0, 13, none, after};
        if (rig_open(&rig, "", "2K_1W_16B", DIRECTED_BASE)) {
            fill_lines(&rig, lines, LINE_COUNT, "2K_1W->8K_4W");
            expect_step(&rig, "2K_1W->8K_4W", lines, LINE_COUNT, &step);
            rig_close(&rig);
        }
    }
    /* The same configuration does nothing and costs nothing; illegal ones are
     * refused with no change. */
    if (rig_open(&rig, "", "8K_2W_16B", DIRECTED_BASE)) {
        static const tracked_line lines[] = {{"g0", 0, 0, true, 0}};
        fill_lines(&rig, lines, 1, "same");
        stc_counters before = *stc_cache_counters(rig.cache);
        stc_config same = config_named(&rig, "8K_2W_16B");
        stc_reconfig_result result;
        memset(&result, 0xff, sizeof result);
        log_reset(&rig.memory);
        CHECK(stc_cache_reconfigure(rig.cache, &same, &result) == 0, "same: refused");
        CHECK(result.cycles == 0 && result.woken_banks == 0 && result.slept_banks == 0 &&
                  result.walked_rows == 0 && result.writebacks == 0 && result.invalidations == 0,
              "same: result not all zero");
        CHECK_EQ_U64(rig.memory.log_count, 0, "same: memory transactions");
        CHECK(memcmp(&before, stc_cache_counters(rig.cache), sizeof before) == 0, "same: counters moved");
        static const stc_config illegal[] = {
            {3, 1, 1, false},  /* k not a power of two */
            {8, 1, 1, false},  /* more banks than exist */
            {2, 4, 1, false},  /* a > k */
            {4, 1, 1, true},   /* way prediction with one way */
            {4, 2, 3, false},  /* 3 sublines */
            {0, 1, 1, false},  /* no banks */
        };
        for (size_t config = 0; config < sizeof illegal / sizeof illegal[0]; config++) {
            CHECK(stc_cache_reconfigure(rig.cache, &illegal[config], &result) == -1,
                  "illegal configuration %zu accepted", config);
            CHECK(stc_config_equal(stc_cache_config(rig.cache), &same), "illegal %zu changed the config",
                  config);
        }
        CHECK(memcmp(&before, stc_cache_counters(rig.cache), sizeof before) == 0,
              "illegal: counters moved");
        CHECK_EQ_U64(stc_cache_lookup(rig.cache, DIRECTED_BASE), 0, "same/illegal: g0 still cached");
        CHECK(stc_cache_check(rig.cache, err, sizeof err) == 0, "same/illegal: %s", err);
        rig_close(&rig);
    }
}

/* ------------------------------------------------------------------------ */
/* 3. Small-to-large versus large-to-small                                   */
/* ------------------------------------------------------------------------ */

enum { WORKING_SET_LINES = 512 }; /* 8 KiB of 16 B lines: exactly the largest cache */

typedef struct {
    unsigned walk_writebacks[2]; /* per step */
    uint64_t memory_writes;      /* everything: miss writebacks too */
} order_outcome;

/* Store one word into every line of the working set, in `order`. */
static void store_working_set(test_rig *rig, const uint16_t *order, unsigned pass)
{
    for (unsigned position = 0; position < WORKING_SET_LINES; position++) {
        uint64_t offset = (uint64_t)order[position] * 16u;
        uint32_t value = word_value(offset) + pass;
        uint8_t word[4] = {(uint8_t)value, (uint8_t)(value >> 8), (uint8_t)(value >> 16),
                           (uint8_t)(value >> 24)};
        stc_cache_request(rig->cache, STC_OP_WRITE, rig->memory.base + offset, 4, word, NULL, NULL);
    }
}

/* Fill in sizes[0], then change to sizes[1], same traffic, change to sizes[2]. */
static order_outcome run_size_order(const char *const sizes[3], const uint16_t *order)
{
    order_outcome outcome;
    memset(&outcome, 0, sizeof outcome);
    test_rig rig;
    if (!rig_open(&rig, "", sizes[0], DIRECTED_BASE)) {
        return outcome;
    }
    store_working_set(&rig, order, 0);
    for (unsigned step = 0; step < 2; step++) {
        stc_config next = config_named(&rig, sizes[step + 1]);
        stc_reconfig_result result;
        CHECK(stc_cache_reconfigure(rig.cache, &next, &result) == 0, "-> %s", sizes[step + 1]);
        outcome.walk_writebacks[step] = result.writebacks;
        if (step == 0) {
            store_working_set(&rig, order, 1);
        }
    }
    char err[ERR_LEN];
    CHECK(stc_cache_check(rig.cache, err, sizeof err) == 0, "size order: %s", err);
    outcome.memory_writes = rig.memory.write_bursts;
    rig_close(&rig);
    return outcome;
}

static void test_size_order(void)
{
    static const char *const small_to_large[3] = {"2K_1W_16B", "4K_1W_16B", "8K_1W_16B"};
    static const char *const large_to_small[3] = {"8K_1W_16B", "4K_1W_16B", "2K_1W_16B"};
    uint16_t ascending[WORKING_SET_LINES];
    uint16_t descending[WORKING_SET_LINES];
    uint16_t shuffled[WORKING_SET_LINES];
    for (unsigned line = 0; line < WORKING_SET_LINES; line++) {
        ascending[line] = (uint16_t)line;
        descending[line] = (uint16_t)(WORKING_SET_LINES - 1 - line);
        shuffled[line] = (uint16_t)line;
    }
    test_rng rng = {0x0de5u};
    for (unsigned line = WORKING_SET_LINES - 1; line > 0; line--) {
        unsigned other = rng_below(&rng, line + 1);
        uint16_t held = shuffled[line];
        shuffled[line] = shuffled[other];
        shuffled[other] = held;
    }

    printf("size order (8 KiB dirty working set, 1-way, 16 B; walk writebacks per step, all memory "
           "writes):\n");
    static const char *const traffic_names[3] = {"shuffled", "ascending", "descending"};
    const uint16_t *traffic[3] = {shuffled, ascending, descending};
    order_outcome up[3];
    order_outcome down[3];
    for (unsigned kind = 0; kind < 3; kind++) {
        up[kind] = run_size_order(small_to_large, traffic[kind]);
        down[kind] = run_size_order(large_to_small, traffic[kind]);
        printf("  %-10s small-to-large %3u + %3u = %3u (%4llu writes), large-to-small %3u + %3u = %3u "
               "(%4llu writes)\n",
               traffic_names[kind], up[kind].walk_writebacks[0], up[kind].walk_writebacks[1],
               up[kind].walk_writebacks[0] + up[kind].walk_writebacks[1],
               (unsigned long long)up[kind].memory_writes, down[kind].walk_writebacks[0],
               down[kind].walk_writebacks[1], down[kind].walk_writebacks[0] + down[kind].walk_writebacks[1],
               (unsigned long long)down[kind].memory_writes);
    }
    /* Large-to-small does not depend on the order: 8K holds the whole set
     * dirty, 8K -> 4K drops banks 2, 3 = 256 dirty lines; the 4K pass stores
     * every line, so all 256 resident lines are dirty and 4K -> 2K drops bank
     * 1 = 128. 384 every time. */
    for (unsigned kind = 0; kind < 3; kind++) {
        CHECK_EQ_U64(down[kind].walk_writebacks[0], 256, "%s: 8K -> 4K", traffic_names[kind]);
        CHECK_EQ_U64(down[kind].walk_writebacks[1], 128, "%s: 4K -> 2K", traffic_names[kind]);
    }
    /* Small-to-large writes back only lines whose home bank moved, i.e. it
     * depends on which lines the traffic left resident. Shuffled: about half
     * at each step (~64 + ~128), so fewer than large-to-small. */
    unsigned shuffled_up = up[0].walk_writebacks[0] + up[0].walk_writebacks[1];
    CHECK(shuffled_up < 384, "shuffled: small-to-large wrote back %u, large-to-small 384",
          shuffled_up);
    /* Ascending is the worst case for small-to-large: at 2K the last lines
     * stored per row are those with addr[12:11] = 11, all with addr[11] = 1,
     * so 2K -> 4K writes back all 128; at 4K the survivors have addr[12] = 1,
     * all move in 4K -> 8K: 256. 128 + 256 = 384, a tie with large-to-small.
     * All writes: small-to-large 384 (2K pass misses) + 128 + 256 (4K pass
     * misses after the walk emptied the cache) + 256 = 1024; large-to-small
     * 0 + 256 + 256 (4K pass: addr[12] = 0 hit, addr[12] = 1 evict) + 128 = 640. */
    CHECK_EQ_U64(up[1].walk_writebacks[0], 128, "ascending: 2K -> 4K");
    CHECK_EQ_U64(up[1].walk_writebacks[1], 256, "ascending: 4K -> 8K");
    CHECK_EQ_U64(up[1].memory_writes, 1024, "ascending: small-to-large memory writes");
    CHECK_EQ_U64(down[1].memory_writes, 640, "ascending: large-to-small memory writes");
    /* Descending is the best case: the survivors are those with
     * addr[12:11] = 00, at home in every size: 0 + 0. */
    CHECK_EQ_U64(up[2].walk_writebacks[0], 0, "descending: 2K -> 4K");
    CHECK_EQ_U64(up[2].walk_writebacks[1], 0, "descending: 4K -> 8K");
}

/* ------------------------------------------------------------------------ */
/* Section 7's cost in a large legal geometry                               */
/* ------------------------------------------------------------------------ */

static void test_walk_cost_is_not_truncated(void)
{
    /* Legal per section 1 / stc_geometry_init: 32 banks of 64 KiB, 16 B
     * lines (R = 4096), mem_latency at its documented maximum of 1000000.
     * Fill 2048K_1W (g = 32, bank = tag mod 32) with a dirty line in every
     * slot (tags only, no data: the line at bank b, row r is b * 65536 +
     * r * 16), then shrink to 64K_1W: k 32 -> 1 walks banks 1..31, all dirty.
     * writebacks = 31 x 4096 = 126976; cycles = 4096 + 126976 x (1000000 +
     * 16/4) + 1 + 2 x 126976 = 4096 + 126976507904 + 253953 = 126976765953,
     * more than 2^32. Section 9:
     * "the model counts in 64 bits", so the counters must show all of it. */
    stc_geometry geometry;
    char err[ERR_LEN];
    stc_geometry_default(&geometry);
    if (stc_geometry_parse(&geometry, "banks=32,bank_bytes=65536,mem_latency=1000000", err,
                           sizeof err) != 0) {
        CHECK(false, "large geometry: %s", err);
        return;
    }
    stc_config full = {32, 1, 1, false};
    stc_config one_bank = {1, 1, 1, false};
    stc_cache *cache = stc_cache_create(&geometry, STC_DCACHE, &full, NULL, err, sizeof err);
    if (!cache) {
        CHECK(false, "large geometry cache: %s", err);
        return;
    }
    for (uint64_t bank = 0; bank < 32; bank++) {
        for (uint64_t row = 0; row < 4096; row++) {
            stc_cache_access(cache, STC_OP_WRITE, bank * 65536 + row * 16, 4, NULL, NULL, NULL, NULL);
        }
    }
    stc_reconfig_result result;
    CHECK(stc_cache_reconfigure(cache, &one_bank, &result) == 0, "large geometry: shrink refused");
    CHECK_EQ_U64(result.writebacks, 126976, "large geometry: walk writebacks");
    CHECK_EQ_U64(result.walked_rows, 4096, "large geometry: walked rows");
    const stc_counters *counters = stc_cache_counters(cache);
    CHECK_EQ_U64(counters->reconfig_cycles, 126976765953ull,
                 "large geometry: reconfig_cycles (64-bit counter) of 32 -> 1 bank walk");
    /* Each store missed into an empty slot: 1 + 1000000 + 4 + 2 cycles, and no
     * single access overflows, so this part must already be right. */
    CHECK_EQ_U64(counters->cycles - counters->reconfig_cycles, 32ull * 4096ull * 1000007ull,
                 "large geometry: access cycles");
    stc_cache_destroy(cache);
}

int main(void)
{
    directed_grow_size();
    directed_shrink_size();
    directed_shrink_4w_to_1w();
    directed_raise_assoc();
    directed_lower_assoc();
    directed_moving_walk();
    directed_line_size_change();
    directed_way_predict_toggle();
    directed_worked_examples();
    test_size_order();
    test_walk_cost_is_not_truncated();
    test_torture();
    test_broken_memory_is_caught();
    return check_done("test_reconfig");
}
