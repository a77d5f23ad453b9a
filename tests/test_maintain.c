/*
 * test_maintain.c - maintenance operations (ARCHITECTURE.md 7.1) against
 * hand-computed cases and a flat shadow of memory.
 *
 * Default geometry: B = 4 banks of 2 KiB, P = 16 B (R = 128, row =
 * addr[10:4], tag = addr >> 11), T_mem = 20, P/W = 4, so a writeback costs
 * 24 memory cycles and 2 controller cycles, and an operation's cycles are
 * rows + 26 V + 1.
 *
 * The oracle for data: `cpu_view` is what a load must return (every store
 * applied), kept without looking at the cache; `memory` is the memory the
 * cache talks to. After a clean of everything the two must be equal; after
 * an invalidation the CPU's view of the dropped line becomes whatever
 * memory holds, which the test reads from memory itself.
 */
#include "cache.h"
#include "check.h"
#include "config.h"
#include "counters.h"
#include "geometry.h"
#include "splitmix.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { ERR_LEN = 256, SPACE = 1 << 16, MAX_LOG = 4096 };

typedef struct {
    uint8_t bytes[SPACE];
    unsigned writes;             /* write bursts */
    uint64_t write_addr[MAX_LOG]; /* their addresses, in order */
} flat_memory;

static void memory_read(void *context, uint64_t addr, uint8_t *data, unsigned bytes)
{
    flat_memory *memory = context;
    CHECK(addr + bytes <= SPACE, "read outside the test space: 0x%llx", (unsigned long long)addr);
    if (addr + bytes <= SPACE) {
        memcpy(data, memory->bytes + addr, bytes);
    }
}

static void memory_write(void *context, uint64_t addr, const uint8_t *data, unsigned bytes)
{
    flat_memory *memory = context;
    CHECK(addr + bytes <= SPACE, "write outside the test space: 0x%llx", (unsigned long long)addr);
    if (addr + bytes <= SPACE) {
        memcpy(memory->bytes + addr, data, bytes);
    }
    if (memory->writes < MAX_LOG) {
        memory->write_addr[memory->writes] = addr;
    }
    memory->writes++;
}

typedef struct {
    stc_geometry geometry;
    flat_memory *memory;
    uint8_t *cpu_view;
    stc_cache *cache;
} rig;

static bool rig_open(rig *r, stc_cache_kind kind, const char *config_name)
{
    char err[ERR_LEN] = "";
    stc_geometry_default(&r->geometry);
    CHECK(stc_geometry_parse(&r->geometry, "", err, sizeof err) == 0, "geometry: %s", err);
    r->memory = calloc(1, sizeof *r->memory);
    r->cpu_view = calloc(1, SPACE);
    if (!r->memory || !r->cpu_view) {
        CHECK(false, "out of memory");
        return false;
    }
    for (unsigned addr = 0; addr < SPACE; addr++) {
        r->memory->bytes[addr] = (uint8_t)(addr * 7 + (addr >> 8));
        r->cpu_view[addr] = r->memory->bytes[addr];
    }
    stc_config config;
    CHECK(stc_config_parse(&r->geometry, config_name, &config, err, sizeof err) == 0, "%s: %s",
          config_name, err);
    stc_memory memory = {r->memory, memory_read, memory_write};
    r->cache = stc_cache_create(&r->geometry, kind, &config, &memory, err, sizeof err);
    CHECK(r->cache != NULL, "create: %s", err);
    return r->cache != NULL;
}

static void rig_close(rig *r)
{
    stc_cache_destroy(r->cache);
    free(r->memory);
    free(r->cpu_view);
}

static void store(rig *r, uint64_t addr, uint8_t value)
{
    CHECK(stc_cache_request(r->cache, STC_OP_WRITE, addr, 1, &value, NULL, NULL) >= 0,
          "store 0x%llx", (unsigned long long)addr);
    r->cpu_view[addr] = value;
}

/* A one-byte load, checked against the CPU's view; returns whether it missed. */
static bool load(rig *r, uint64_t addr)
{
    uint8_t got = 0;
    int missed = stc_cache_request(r->cache, STC_OP_READ, addr, 1, NULL, &got, NULL);
    CHECK(got == r->cpu_view[addr], "load 0x%llx: got %u want %u", (unsigned long long)addr, got,
          r->cpu_view[addr]);
    return missed > 0;
}

static unsigned valid_lines(const stc_cache *cache, unsigned *dirty)
{
    const stc_geometry *geometry = stc_cache_geometry(cache);
    unsigned valid = 0;
    *dirty = 0;
    for (unsigned bank = 0; bank < geometry->banks; bank++) {
        for (unsigned row = 0; row < geometry->rows; row++) {
            stc_slot slot;
            stc_cache_slot(cache, bank, row, &slot);
            valid += slot.valid;
            *dirty += slot.valid && slot.dirty;
        }
    }
    return valid;
}

static void check_invariant(const stc_cache *cache, const char *when)
{
    char err[ERR_LEN] = "";
    CHECK(stc_cache_check(cache, err, sizeof err) == 0, "%s: %s", when, err);
}

/* ---------------------------------------------------------------------------
 * Hand-computed cases
 */

static void test_clean_all(void)
{
    rig r;
    if (!rig_open(&r, STC_DCACHE, "8K_4W_16B")) {
        return;
    }
    /* Three dirty lines: 0x0800 (row 0), 0x0010 (row 1), 0x1000 (row 0),
     * and a clean one, 0x0020 (row 2). Row 0's two lines fill banks 0 and
     * 1 (invalid first, lowest bank): 0x0800 first, so bank 0. */
    store(&r, 0x0800, 0xa1);
    store(&r, 0x0010, 0xa2);
    store(&r, 0x1000, 0xa3);
    load(&r, 0x0020);
    stc_counters before = *stc_cache_counters(r.cache);
    unsigned writes_before = r.memory->writes;
    stc_reconfig_result result;
    CHECK(stc_cache_maintain(r.cache, STC_MAINT_CLEAN, STC_MAINT_ALL, 0, &result) == 0, "clean");
    /* 128 rows + 3 x 26 + 1 = 207 cycles. */
    CHECK_EQ_U64(result.cycles, 207, "clean all: cycles");
    CHECK_EQ_U64(result.walked_rows, 128, "clean all: rows");
    CHECK_EQ_U64(result.writebacks, 3, "clean all: writebacks");
    CHECK_EQ_U64(result.invalidations, 0, "clean all: invalidations");
    /* Row-major, banks ascending: row 0 bank 0 (0x0800), row 0 bank 1
     * (0x1000), row 1 (0x0010). */
    CHECK_EQ_U64(r.memory->writes - writes_before, 3, "write bursts");
    CHECK_EQ_U64(r.memory->write_addr[writes_before], 0x0800, "first writeback");
    CHECK_EQ_U64(r.memory->write_addr[writes_before + 1], 0x1000, "second writeback");
    CHECK_EQ_U64(r.memory->write_addr[writes_before + 2], 0x0010, "third writeback");
    CHECK(memcmp(r.memory->bytes, r.cpu_view, SPACE) == 0, "memory is current after a clean");
    unsigned dirty;
    CHECK_EQ_U64(valid_lines(r.cache, &dirty), 4, "lines kept valid");
    CHECK_EQ_U64(dirty, 0, "no line dirty");
    const stc_counters *after = stc_cache_counters(r.cache);
    CHECK_EQ_U64(after->cycles - before.cycles, 207, "cycles counted");
    CHECK_EQ_U64(after->reconfig_cycles - before.reconfig_cycles, 207, "reconfig_cycles counted");
    CHECK_EQ_U64(after->walk_rows - before.walk_rows, 128, "walk_rows counted");
    CHECK_EQ_U64(after->walk_writebacks - before.walk_writebacks, 3, "walk_writebacks counted");
    CHECK_EQ_U64(after->reconfigs, before.reconfigs, "not a reconfiguration");
    CHECK_EQ_U64(after->writebacks, before.writebacks, "not a miss's writeback");
    /* Still present: a load hits. */
    CHECK(!load(&r, 0x0800), "a cleaned line stays valid");
    /* A second clean writes nothing: 128 + 1 cycles. */
    CHECK(stc_cache_maintain(r.cache, STC_MAINT_CLEAN, STC_MAINT_ALL, 0, &result) == 0, "clean");
    CHECK_EQ_U64(result.cycles, 129, "clean of a clean cache");
    check_invariant(r.cache, "clean all");
    rig_close(&r);
}

static void test_line_ops(void)
{
    rig r;
    if (!rig_open(&r, STC_DCACHE, "8K_2W_16B")) {
        return;
    }
    store(&r, 0x0830, 0x5a);  /* row 3 */
    store(&r, 0x0030, 0x6b);  /* row 3, the other line of the set */
    unsigned writes_before = r.memory->writes;
    stc_reconfig_result result;

    /* Invalidate 0x0830: dropped, its store lost; 1 row + 1 = 2 cycles. */
    CHECK(stc_cache_maintain(r.cache, STC_MAINT_INVALIDATE, STC_MAINT_LINE, 0x083c, &result) == 0,
          "invalidate line");
    CHECK_EQ_U64(result.cycles, 2, "invalidate line: cycles");
    CHECK_EQ_U64(result.walked_rows, 1, "invalidate line: rows");
    CHECK_EQ_U64(result.invalidations, 1, "invalidate line: invalidations");
    CHECK_EQ_U64(result.writebacks, 0, "invalidate line: writebacks");
    CHECK_EQ_U64(r.memory->writes, writes_before, "an invalidation writes nothing back");
    CHECK(stc_cache_lookup(r.cache, 0x0830) < 0, "the line is gone");
    CHECK(stc_cache_lookup(r.cache, 0x0030) >= 0, "the other line of the row stays");
    /* The CPU now sees memory's bytes of that line. */
    memcpy(r.cpu_view + 0x0830, r.memory->bytes + 0x0830, 16);
    CHECK(r.cpu_view[0x0830] != 0x5a, "the store was lost (memory held another value)");
    CHECK(load(&r, 0x0830), "reloaded by a miss");

    /* Clean + invalidate 0x0030: written back (24 + 2) and dropped: 1 + 26 + 1 = 28. */
    CHECK(stc_cache_maintain(r.cache, STC_MAINT_CLEAN_INVALIDATE, STC_MAINT_LINE, 0x0030,
                             &result) == 0,
          "clean+invalidate line");
    CHECK_EQ_U64(result.cycles, 28, "clean+invalidate line: cycles");
    CHECK_EQ_U64(result.writebacks, 1, "clean+invalidate line: writebacks");
    CHECK_EQ_U64(result.invalidations, 1, "clean+invalidate line: invalidations");
    CHECK_EQ_U64(r.memory->bytes[0x0030], 0x6b, "its store reached memory");
    CHECK(stc_cache_lookup(r.cache, 0x0030) < 0, "the line is gone");
    CHECK(stc_cache_lookup(r.cache, 0x0830) >= 0, "the reloaded line stays");

    /* An absent line: the row is read and nothing happens, 2 cycles. */
    CHECK(stc_cache_maintain(r.cache, STC_MAINT_CLEAN_INVALIDATE, STC_MAINT_LINE, 0x4030,
                             &result) == 0,
          "absent line");
    CHECK_EQ_U64(result.cycles, 2, "absent line: cycles");
    CHECK_EQ_U64(result.invalidations, 0, "absent line: invalidations");
    CHECK(stc_cache_lookup(r.cache, 0x0830) >= 0, "a line of the same row, other tag, stays");

    /* Op none costs and counts nothing. */
    stc_counters before = *stc_cache_counters(r.cache);
    CHECK(stc_cache_maintain(r.cache, STC_MAINT_NONE, STC_MAINT_ALL, 0, &result) == 0, "none");
    CHECK_EQ_U64(result.cycles, 0, "none: cycles");
    CHECK(memcmp(&before, stc_cache_counters(r.cache), sizeof before) == 0, "none counts nothing");

    /* Out of range: refused, nothing changed. */
    CHECK(stc_cache_maintain(r.cache, (stc_maint_op)4, STC_MAINT_ALL, 0, &result) == -1, "op 4");
    CHECK(stc_cache_maintain(r.cache, STC_MAINT_CLEAN, (stc_maint_scope)2, 0, &result) == -1,
          "scope 2");
    CHECK(memcmp(&before, stc_cache_counters(r.cache), sizeof before) == 0,
          "a refused operation counts nothing");
    check_invariant(r.cache, "line operations");
    rig_close(&r);
}

/* Powered-off banks are not walked (4K: banks 0 and 1), and an I-cache's
 * clean walks without writing. */
static void test_small_and_icache(void)
{
    rig r;
    if (!rig_open(&r, STC_DCACHE, "4K_1W_32B")) {
        return;
    }
    store(&r, 0x0000, 1);
    store(&r, 0x0800, 2);
    stc_reconfig_result result;
    CHECK(stc_cache_maintain(r.cache, STC_MAINT_CLEAN_INVALIDATE, STC_MAINT_ALL, 0, &result) == 0,
          "clean+invalidate all");
    /* The 32 B logical line filled two physical lines per store: 4 valid,
     * 2 of them dirty; 128 + 2 x 26 + 1 = 181. */
    CHECK_EQ_U64(result.cycles, 181, "4K clean+invalidate all: cycles");
    CHECK_EQ_U64(result.writebacks, 2, "4K: writebacks");
    CHECK_EQ_U64(result.invalidations, 4, "4K: invalidations");
    unsigned dirty;
    CHECK_EQ_U64(valid_lines(r.cache, &dirty), 0, "empty after clean+invalidate all");
    CHECK(memcmp(r.memory->bytes, r.cpu_view, SPACE) == 0, "memory is current");
    rig_close(&r);

    if (!rig_open(&r, STC_ICACHE, "8K_4W_16B")) {
        return;
    }
    load(&r, 0x0100);
    load(&r, 0x0904);
    CHECK(stc_cache_maintain(r.cache, STC_MAINT_CLEAN, STC_MAINT_ALL, 0, &result) == 0, "I clean");
    CHECK_EQ_U64(result.cycles, 129, "I-cache clean: the walk only");
    CHECK(stc_cache_maintain(r.cache, STC_MAINT_INVALIDATE, STC_MAINT_ALL, 0, &result) == 0,
          "I invalidate");
    CHECK_EQ_U64(result.invalidations, 2, "I-cache invalidate all");
    CHECK(load(&r, 0x0100), "refetched after the invalidation");
    rig_close(&r);
}

/* ---------------------------------------------------------------------------
 * Random traffic, reconfigurations and operations against the CPU's view
 */

static void test_random(void)
{
    static const char *configs[] = {"8K_4W_16B", "8K_1W_64B", "4K_2W_32B", "2K_1W_16B",
                                    "8K_2W_32B_P", "4K_2W_64B_P"};
    rig r;
    if (!rig_open(&r, STC_DCACHE, "8K_4W_16B")) {
        return;
    }
    uint64_t seed = 12345;
    unsigned ops = 0;
    for (unsigned step = 0; step < 200000; step++) {
        uint64_t draw = rng_next(&seed);
        /* A 24 KiB region: three times the cache, conflicts in every configuration. */
        uint64_t addr = (draw >> 16) % (24 * 1024);
        unsigned kind = (unsigned)(draw % 1000);
        if (kind < 600) {
            load(&r, addr);
        } else if (kind < 985) {
            store(&r, addr, (uint8_t)(draw >> 40));
        } else if (kind < 988) {
            stc_config next;
            char err[ERR_LEN] = "";
            CHECK(stc_config_parse(&r.geometry, configs[(draw >> 8) % 6], &next, err,
                                   sizeof err) == 0,
                  "%s", err);
            CHECK(stc_cache_reconfigure(r.cache, &next, NULL) == 0, "reconfigure");
        } else {
            stc_maint_op op = (stc_maint_op)((draw >> 8) & 3);
            stc_maint_scope scope = (draw >> 10) % 8 == 0 ? STC_MAINT_ALL : STC_MAINT_LINE;
            uint64_t line = addr & ~(uint64_t)15;
            bool was_present = stc_cache_lookup(r.cache, addr) >= 0;
            unsigned writes_before = r.memory->writes;
            stc_reconfig_result result;
            CHECK(stc_cache_maintain(r.cache, op, scope, addr, &result) == 0, "maintain");
            ops++;
            unsigned rows = op == STC_MAINT_NONE ? 0 : scope == STC_MAINT_ALL ? 128 : 1;
            CHECK_EQ_U64(result.walked_rows, rows, "rows of op %u scope %u", op, scope);
            CHECK_EQ_U64(result.cycles,
                         op == STC_MAINT_NONE ? 0 : rows + 26u * result.writebacks + 1,
                         "cycles of op %u scope %u", op, scope);
            CHECK_EQ_U64(r.memory->writes - writes_before, result.writebacks, "write bursts");
            if (op & STC_MAINT_INVALIDATE) {
                if (scope == STC_MAINT_ALL) {
                    unsigned dirty;
                    CHECK_EQ_U64(valid_lines(r.cache, &dirty), 0, "empty after invalidate all");
                    memcpy(r.cpu_view, r.memory->bytes, SPACE);
                } else {
                    CHECK(stc_cache_lookup(r.cache, addr) < 0, "line gone");
                    CHECK_EQ_U64(result.invalidations, was_present, "one line dropped");
                    memcpy(r.cpu_view + line, r.memory->bytes + line, 16);
                }
            }
            if (op == STC_MAINT_CLEAN && scope == STC_MAINT_ALL) {
                unsigned dirty;
                valid_lines(r.cache, &dirty);
                CHECK_EQ_U64(dirty, 0, "nothing dirty after clean all");
                CHECK(memcmp(r.memory->bytes, r.cpu_view, SPACE) == 0, "memory current");
            }
            if (op == STC_MAINT_CLEAN && scope == STC_MAINT_LINE) {
                CHECK(memcmp(r.memory->bytes + line, r.cpu_view + line, 16) == 0,
                      "line current after its clean");
                CHECK_EQ_U64(stc_cache_lookup(r.cache, addr) >= 0, was_present,
                             "a clean keeps the line");
            }
            check_invariant(r.cache, "after an operation");
        }
    }
    CHECK(ops > 2000, "operations performed: %u", ops);
    /* Finally everything reaches memory. */
    CHECK(stc_cache_maintain(r.cache, STC_MAINT_CLEAN_INVALIDATE, STC_MAINT_ALL, 0, NULL) == 0,
          "final flush");
    CHECK(memcmp(r.memory->bytes, r.cpu_view, SPACE) == 0, "memory equals every store applied");
    rig_close(&r);
}

int main(void)
{
    test_clean_all();
    test_line_ops();
    test_small_and_icache();
    test_random();
    return check_done("test_maintain");
}
