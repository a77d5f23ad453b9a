/*
 * test_cache.c - the cache model against docs/ARCHITECTURE.md sections 3-12.
 *
 * Each group below is one function. Expectations are computed by hand from
 * the spec and written as literals with the arithmetic in a comment, so a
 * test cannot agree with the model merely by repeating its code. The last
 * big group (`textbook`) compares the model with an independent conventional
 * set-associative cache written here from the textbook definition.
 *
 * Default geometry used throughout unless said otherwise: B = 4 banks of
 * 2 KiB, P = 16 B, A = 32, so row = addr[10:4] (R = 128), bank select bits
 * start at S = 11, T_mem = 20, P/W = 4 beats, T_wake = 4.
 */
#include "cache.h"
#include "check.h"
#include "config.h"
#include "counters.h"
#include "geometry.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { ERR_LEN = 256 };

/* ---------------------------------------------------------------------------
 * Helpers
 */

/* Defaults plus overrides ("" for the paper's geometry). */
static bool make_geometry(const char *list, stc_geometry *geometry)
{
    char err[ERR_LEN] = "";
    stc_geometry_default(geometry);
    int status = stc_geometry_parse(geometry, list, err, sizeof err);
    CHECK(status == 0, "geometry '%s': %s", list, err);
    return status == 0;
}

static bool parse_config(const stc_geometry *geometry, const char *name, stc_config *config)
{
    char err[ERR_LEN] = "";
    int status = stc_config_parse(geometry, name, config, err, sizeof err);
    CHECK(status == 0, "configuration %s: %s", name, err);
    return status == 0;
}

static stc_cache *make_cache(const stc_geometry *geometry, stc_cache_kind kind, const char *name,
                             const stc_memory *memory)
{
    stc_config config;
    if (!parse_config(geometry, name, &config)) {
        return NULL;
    }
    char err[ERR_LEN] = "";
    stc_cache *cache = stc_cache_create(geometry, kind, &config, memory, err, sizeof err);
    CHECK(cache != NULL, "create %s: %s", name, err);
    return cache;
}

static void reconfigure_to(stc_cache *cache, const char *name, stc_reconfig_result *result)
{
    stc_config next;
    if (!parse_config(stc_cache_geometry(cache), name, &next)) {
        memset(result, 0, sizeof *result);
        return;
    }
    CHECK(stc_cache_reconfigure(cache, &next, result) == 0, "reconfigure to %s refused", name);
}

/* A one-byte-or-more access with no data (caches created without memory). */
static stc_access_result touch(stc_cache *cache, stc_op op, uint64_t addr)
{
    stc_access_result result;
    memset(&result, 0, sizeof result);
    int status = stc_cache_access(cache, op, addr, 1, NULL, NULL, NULL, &result);
    CHECK(status == 0, "access 0x%llx refused", (unsigned long long)addr);
    return result;
}

static void expect_invariant(const stc_cache *cache, const char *where)
{
    char err[ERR_LEN] = "";
    CHECK(stc_cache_check(cache, err, sizeof err) == 0, "%s: invariant broken: %s", where, err);
}

/* Section 7's "no physical line is held twice", checked directly over every
 * slot rather than through stc_cache_check. */
static void expect_no_duplicates(const stc_cache *cache, const char *where)
{
    const stc_geometry *geometry = stc_cache_geometry(cache);
    for (unsigned row = 0; row < geometry->rows; row++) {
        for (unsigned bank = 0; bank < geometry->banks; bank++) {
            stc_slot slot;
            stc_cache_slot(cache, bank, row, &slot);
            if (!slot.valid) {
                continue;
            }
            for (unsigned other = bank + 1; other < geometry->banks; other++) {
                stc_slot other_slot;
                stc_cache_slot(cache, other, row, &other_slot);
                CHECK(!(other_slot.valid && other_slot.line_addr == slot.line_addr),
                      "%s: line 0x%llx held by banks %u and %u", where,
                      (unsigned long long)slot.line_addr, bank, other);
            }
        }
    }
}

static unsigned count_valid(const stc_cache *cache)
{
    const stc_geometry *geometry = stc_cache_geometry(cache);
    unsigned valid = 0;
    for (unsigned row = 0; row < geometry->rows; row++) {
        for (unsigned bank = 0; bank < geometry->banks; bank++) {
            stc_slot slot;
            stc_cache_slot(cache, bank, row, &slot);
            valid += slot.valid ? 1 : 0;
        }
    }
    return valid;
}

/* ---------------------------------------------------------------------------
 * A flat test memory that records every transaction in order.
 */

enum { MEMORY_BYTES = 1 << 16, LOG_CAPACITY = 64 };

typedef struct {
    char kind; /* 'R' read burst, 'W' write burst */
    uint64_t addr;
    unsigned bytes;
} memory_transaction;

typedef struct {
    uint8_t *bytes;                          /* MEMORY_BYTES, addresses 0..64K-1 */
    memory_transaction log[LOG_CAPACITY];    /* the first LOG_CAPACITY since clear */
    size_t log_count;                        /* all transactions since clear */
    unsigned out_of_range;                   /* bursts outside the array: a test bug */
} test_memory;

/* Initial contents: differ from byte to byte and from line to line, so a
 * byte in the wrong place or a line from the wrong address shows. */
static uint8_t pattern_byte(uint64_t addr)
{
    return (uint8_t)(addr * 7u + (addr >> 4) * 13u + (addr >> 11) * 31u + 1u);
}

static void record(test_memory *memory, char kind, uint64_t addr, unsigned bytes)
{
    if (memory->log_count < LOG_CAPACITY) {
        memory_transaction entry = {kind, addr, bytes};
        memory->log[memory->log_count] = entry;
    }
    memory->log_count++;
}

static void memory_read_burst(void *context, uint64_t addr, uint8_t *data, unsigned bytes)
{
    test_memory *memory = context;
    record(memory, 'R', addr, bytes);
    if (addr + bytes <= MEMORY_BYTES) {
        memcpy(data, memory->bytes + addr, bytes);
    } else {
        memory->out_of_range++;
        memset(data, 0, bytes);
    }
}

static void memory_write_burst(void *context, uint64_t addr, const uint8_t *data, unsigned bytes)
{
    test_memory *memory = context;
    record(memory, 'W', addr, bytes);
    if (addr + bytes <= MEMORY_BYTES) {
        memcpy(memory->bytes + addr, data, bytes);
    } else {
        memory->out_of_range++;
    }
}

static stc_memory memory_open(test_memory *memory)
{
    memset(memory, 0, sizeof *memory);
    memory->bytes = malloc(MEMORY_BYTES);
    if (!memory->bytes) {
        abort(); /* nothing sensible to test without it */
    }
    for (uint64_t addr = 0; addr < MEMORY_BYTES; addr++) {
        memory->bytes[addr] = pattern_byte(addr);
    }
    stc_memory port = {memory, memory_read_burst, memory_write_burst};
    return port;
}

static void memory_close(test_memory *memory)
{
    CHECK_EQ_U64(memory->out_of_range, 0, "bursts outside the test memory");
    free(memory->bytes);
    memory->bytes = NULL;
}

static void log_clear(test_memory *memory)
{
    memory->log_count = 0;
}

/* The log since the last clear must be exactly `expected`, in order. */
static void expect_log(const test_memory *memory, const memory_transaction *expected, size_t count,
                       const char *where)
{
    CHECK_EQ_U64(memory->log_count, count, "%s: number of memory transactions", where);
    for (size_t i = 0; i < count && i < memory->log_count && i < LOG_CAPACITY; i++) {
        const memory_transaction *got = &memory->log[i];
        CHECK(got->kind == expected[i].kind && got->addr == expected[i].addr &&
                  got->bytes == expected[i].bytes,
              "%s: transaction %zu is %c 0x%llx %u B, want %c 0x%llx %u B", where, i, got->kind,
              (unsigned long long)got->addr, got->bytes, expected[i].kind,
              (unsigned long long)expected[i].addr, expected[i].bytes);
    }
}

/* ---------------------------------------------------------------------------
 * 1. mapping (section 3)
 */

/* Candidate mask, straight from section 3's formula: the powered banks b
 * with b mod g == tag mod g. Used for the sweep over bank counts. */
static uint32_t spec_candidates(unsigned banks_on, unsigned ways, uint64_t tag)
{
    unsigned groups = banks_on / ways;
    uint32_t mask = 0;
    for (unsigned bank = 0; bank < banks_on; bank++) {
        if (bank % groups == tag % groups) {
            mask |= (uint32_t)1 << bank;
        }
    }
    return mask;
}

static void test_mapping(void)
{
    stc_geometry geometry;
    if (!make_geometry("", &geometry)) {
        return;
    }
    /* Section 3's table, as bank masks for addr[12:11] = 00, 01, 10, 11. */
    static const struct {
        const char *config;
        uint32_t mask[4];
    } table[] = {
        {"2K_1W_16B", {0x1, 0x1, 0x1, 0x1}}, /* 0 0 0 0 */
        {"4K_1W_16B", {0x1, 0x2, 0x1, 0x2}}, /* 0 1 0 1 */
        {"4K_2W_16B", {0x3, 0x3, 0x3, 0x3}}, /* 0,1 everywhere */
        {"8K_1W_16B", {0x1, 0x2, 0x4, 0x8}}, /* 0 1 2 3 */
        {"8K_2W_16B", {0x5, 0xa, 0x5, 0xa}}, /* 0,2 1,3 0,2 1,3 */
        {"8K_4W_16B", {0xf, 0xf, 0xf, 0xf}}, /* 0..3 everywhere */
    };
    /* Other address bits must not matter: none, all low ones, and high tag
     * bits set (bits 12:11 cleared in each, then set to the select value). */
    static const uint64_t other_bits[] = {0x0, 0x7ff, 0x12344678 & ~(uint64_t)0x1800,
                                          0xffffe7ff};
    for (size_t c = 0; c < sizeof table / sizeof table[0]; c++) {
        stc_cache *cache = make_cache(&geometry, STC_DCACHE, table[c].config, NULL);
        if (!cache) {
            continue;
        }
        for (uint64_t select = 0; select < 4; select++) {
            for (size_t o = 0; o < sizeof other_bits / sizeof other_bits[0]; o++) {
                uint64_t addr = other_bits[o] | (select << 11);
                CHECK_EQ_U64(stc_cache_candidates(cache, addr), table[c].mask[select],
                             "%s addr 0x%llx candidates", table[c].config,
                             (unsigned long long)addr);
            }
        }
        stc_cache_destroy(cache);
    }

    /* The row is addr[10:4] in every configuration and the tag is addr[31:11]:
     *   0x12345678: row 0x67, tag 0x2468a
     *   0x000007f0: row 127,  tag 0
     *   0x00000800: row 0,    tag 1
     *   0xffffffff: row 127,  tag 0x1fffff
     *   0x1_0000_0810 is 0x810 modulo 2^32: row 1, tag 1 */
    static const struct {
        uint64_t addr;
        unsigned row;
        uint64_t tag;
        uint64_t line_addr;
    } rows[] = {
        {0x12345678, 0x67, 0x2468a, 0x12345670},
        {0x000007f0, 127, 0, 0x7f0},
        {0x00000800, 0, 1, 0x800},
        {0xffffffff, 127, 0x1fffff, 0xfffffff0},
        {0x100000810ull, 1, 1, 0x810},
    };
    static const char *const row_configs[] = {"2K_1W_16B", "4K_2W_32B", "8K_1W_64B", "8K_4W_16B"};
    for (size_t c = 0; c < sizeof row_configs / sizeof row_configs[0]; c++) {
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
            stc_cache *cache = make_cache(&geometry, STC_DCACHE, row_configs[c], NULL);
            if (!cache) {
                continue;
            }
            stc_access_result result = touch(cache, STC_OP_READ, rows[i].addr);
            stc_slot slot;
            stc_cache_slot(cache, result.bank, rows[i].row, &slot);
            CHECK(slot.valid && slot.tag == rows[i].tag && slot.line_addr == rows[i].line_addr,
                  "%s addr 0x%llx: bank %u row %u holds valid=%d tag 0x%llx line 0x%llx",
                  row_configs[c], (unsigned long long)rows[i].addr, result.bank, rows[i].row,
                  slot.valid, (unsigned long long)slot.tag, (unsigned long long)slot.line_addr);
            CHECK_EQ_U64(stc_cache_lookup(cache, rows[i].addr), result.bank, "%s lookup 0x%llx",
                         row_configs[c], (unsigned long long)rows[i].addr);
            stc_cache_destroy(cache);
        }
    }

    /* Raising associativity at a fixed size keeps every bank of a line's
     * candidates among its candidates (section 3, "Why the low bits"):
     * exhaustively for 2, 4, 8 and 16 banks, every k, every a < k, every
     * value of the select bits (tags 0..2k-1 cover every low-bit pattern,
     * and the same with a high tag bit set). */
    static const char *const bank_counts[] = {"banks=2", "banks=4", "banks=8", "banks=16"};
    for (size_t b = 0; b < sizeof bank_counts / sizeof bank_counts[0]; b++) {
        stc_geometry shaped;
        if (!make_geometry(bank_counts[b], &shaped)) {
            continue;
        }
        for (unsigned banks_on = 1; banks_on <= shaped.banks; banks_on *= 2) {
            for (unsigned ways = 1; ways * 2 <= banks_on; ways *= 2) {
                stc_config lower = {banks_on, ways, 1, false};
                stc_config higher = {banks_on, ways * 2, 1, false};
                char err[ERR_LEN] = "";
                stc_cache *low_cache =
                    stc_cache_create(&shaped, STC_DCACHE, &lower, NULL, err, sizeof err);
                stc_cache *high_cache =
                    stc_cache_create(&shaped, STC_DCACHE, &higher, NULL, err, sizeof err);
                CHECK(low_cache && high_cache, "%s k=%u a=%u: %s", bank_counts[b], banks_on, ways,
                      err);
                if (!low_cache || !high_cache) {
                    stc_cache_destroy(low_cache);
                    stc_cache_destroy(high_cache);
                    continue;
                }
                for (uint64_t tag = 0; tag < 2u * banks_on; tag++) {
                    for (uint64_t high = 0; high <= 1; high++) {
                        uint64_t full_tag = tag | (high << 15);
                        uint64_t addr = full_tag << shaped.bank_shift;
                        uint32_t low_mask = stc_cache_candidates(low_cache, addr);
                        uint32_t high_mask = stc_cache_candidates(high_cache, addr);
                        CHECK_EQ_U64(low_mask, spec_candidates(banks_on, ways, full_tag),
                                     "%s k=%u a=%u tag %llu candidates", bank_counts[b], banks_on,
                                     ways, (unsigned long long)full_tag);
                        CHECK_EQ_U64(high_mask, spec_candidates(banks_on, ways * 2, full_tag),
                                     "%s k=%u a=%u tag %llu candidates", bank_counts[b], banks_on,
                                     ways * 2, (unsigned long long)full_tag);
                        for (unsigned bank = 0; bank < shaped.banks; bank++) {
                            if (low_mask >> bank & 1) {
                                CHECK(high_mask >> bank & 1,
                                      "%s k=%u: bank %u is a candidate of tag %llu at a=%u but "
                                      "not at a=%u",
                                      bank_counts[b], banks_on, bank,
                                      (unsigned long long)full_tag, ways, ways * 2);
                            }
                        }
                    }
                }
                stc_cache_destroy(low_cache);
                stc_cache_destroy(high_cache);
            }
        }
    }

    /* The same property, behaviourally: lines filled at 8K_1W stay findable
     * after raising the associativity to 2 and 4 ways, and no walk runs. */
    stc_cache *cache = make_cache(&geometry, STC_DCACHE, "8K_1W_16B", NULL);
    if (cache) {
        static const uint64_t lines[] = {0x0000, 0x0810, 0x1020, 0x1830, 0x2040, 0xfffff850};
        for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
            touch(cache, STC_OP_WRITE, lines[i]);
        }
        static const char *const raised[] = {"8K_2W_16B", "8K_4W_16B"};
        for (size_t r = 0; r < 2; r++) {
            stc_reconfig_result result;
            reconfigure_to(cache, raised[r], &result);
            CHECK_EQ_U64(result.walked_rows, 0, "8K_1W -> %s walks", raised[r]);
            for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
                CHECK(stc_cache_lookup(cache, lines[i]) >= 0, "%s lost 0x%llx", raised[r],
                      (unsigned long long)lines[i]);
            }
            expect_invariant(cache, raised[r]);
        }
        stc_cache_destroy(cache);
    }
}

/* ---------------------------------------------------------------------------
 * 2. lru (section 5)
 */

static void expect_bank(const stc_cache *cache, uint64_t addr, int bank, const char *where)
{
    int got = stc_cache_lookup(cache, addr);
    CHECK(got == bank, "%s: line 0x%llx in bank %d, want %d", where, (unsigned long long)addr,
          got, bank);
}

static void test_lru(void)
{
    stc_geometry geometry;
    if (!make_geometry("", &geometry)) {
        return;
    }
    /* 8K_4W_16B, all in row 0: lines tag << 11, every bank a candidate. */
    stc_cache *cache = make_cache(&geometry, STC_DCACHE, "8K_4W_16B", NULL);
    if (!cache) {
        return;
    }
    const uint64_t line_a = 0x0000, line_b = 0x0800, line_c = 0x1000, line_d = 0x1800;
    const uint64_t line_e = 0x2000, line_f = 0x2800, line_g = 0x3000;
    stc_access_result result;

    result = touch(cache, STC_OP_READ, line_a);
    CHECK(!result.hit && result.bank == 0, "A: hit %d bank %u, want miss into bank 0 (lowest "
                                           "invalid)", result.hit, result.bank);
    result = touch(cache, STC_OP_READ, line_b);
    CHECK(!result.hit && result.bank == 1, "B: hit %d bank %u, want miss into bank 1", result.hit,
          result.bank);
    result = touch(cache, STC_OP_READ, line_a);
    CHECK(result.hit && result.bank == 0, "A again: hit %d bank %u", result.hit, result.bank);
    /* Recency now A(0), B(1), then never-touched 2, 3 in reset order, so bank
     * 3 is the least recent; invalid-first must still pick bank 2, the
     * lowest invalid candidate. */
    result = touch(cache, STC_OP_READ, line_c);
    CHECK(!result.hit && result.bank == 2, "C: bank %u, want 2 (lowest invalid, not LRU bank 3)",
          result.bank);
    result = touch(cache, STC_OP_READ, line_d);
    CHECK(!result.hit && result.bank == 3, "D: bank %u, want 3", result.bank);
    /* Oldest -> newest: B A C D. A hit makes it B C D A. */
    result = touch(cache, STC_OP_READ, line_a);
    CHECK(result.hit && result.bank == 0, "A third time: hit %d bank %u", result.hit, result.bank);
    /* E evicts B (bank 1). Order C D A E. */
    result = touch(cache, STC_OP_READ, line_e);
    CHECK(!result.hit && result.bank == 1, "E: bank %u, want 1 (B was least recent)", result.bank);
    expect_bank(cache, line_b, -1, "after E");
    expect_bank(cache, line_a, 0, "after E");
    expect_bank(cache, line_c, 2, "after E");
    expect_bank(cache, line_d, 3, "after E");
    /* Another row's traffic does not disturb row 0's order. */
    touch(cache, STC_OP_READ, line_d + 0x10);
    touch(cache, STC_OP_READ, line_c + 0x10);
    /* Hit C (a store: recency is touched by writes too). Order D A E C. */
    result = touch(cache, STC_OP_WRITE, line_c);
    CHECK(result.hit && result.bank == 2, "C hit: hit %d bank %u", result.hit, result.bank);
    /* F evicts D (bank 3). Order A E C F. */
    result = touch(cache, STC_OP_READ, line_f);
    CHECK(!result.hit && result.bank == 3, "F: bank %u, want 3 (D)", result.bank);
    expect_bank(cache, line_d, -1, "after F");
    /* G evicts A (bank 0). Order E C F G. */
    result = touch(cache, STC_OP_READ, line_g);
    CHECK(!result.hit && result.bank == 0, "G: bank %u, want 0 (A)", result.bank);
    expect_bank(cache, line_a, -1, "after G");
    /* B comes back, evicting E (bank 1). Order C F G B. */
    result = touch(cache, STC_OP_READ, line_b);
    CHECK(!result.hit && result.bank == 1, "B again: bank %u, want 1 (E)", result.bank);
    expect_bank(cache, line_e, -1, "after B again");
    expect_bank(cache, line_c, 2, "final");
    expect_bank(cache, line_f, 3, "final");
    expect_bank(cache, line_g, 0, "final");
    expect_bank(cache, line_b, 1, "final");
    /* Row 1 still holds what went there. */
    expect_bank(cache, line_d + 0x10, 0, "row 1");
    expect_bank(cache, line_c + 0x10, 1, "row 1");
    /* 10 misses: A B C D E F G B + 2 in row 1. */
    CHECK_EQ_U64(stc_cache_counters(cache)->misses, 10, "8K_4W misses");
    expect_invariant(cache, "8K_4W lru");
    stc_cache_destroy(cache);

    /* 8K_2W_16B: addr[11] = 0 lines may use banks 0 and 2 only, addr[11] = 1
     * lines banks 1 and 3 only. */
    cache = make_cache(&geometry, STC_DCACHE, "8K_2W_16B", NULL);
    if (!cache) {
        return;
    }
    const uint64_t even_a = 0x0000, even_b = 0x1000, even_c = 0x2000; /* tags 0 2 4 */
    const uint64_t odd_a = 0x0800, odd_b = 0x1800, odd_c = 0x2800;    /* tags 1 3 5 */
    result = touch(cache, STC_OP_READ, even_a);
    CHECK(result.bank == 0, "2W even A: bank %u want 0", result.bank);
    result = touch(cache, STC_OP_READ, even_b);
    CHECK(result.bank == 2, "2W even B: bank %u want 2 (bank 1 is invalid but not a candidate)",
          result.bank);
    touch(cache, STC_OP_READ, even_a); /* order B A */
    result = touch(cache, STC_OP_READ, even_c);
    CHECK(!result.hit && result.bank == 2, "2W even C: bank %u want 2 (evicts B)", result.bank);
    expect_bank(cache, even_b, -1, "2W after C");
    stc_slot slot;
    stc_cache_slot(cache, 1, 0, &slot);
    CHECK(!slot.valid, "2W: bank 1 row 0 filled by an even line");
    stc_cache_slot(cache, 3, 0, &slot);
    CHECK(!slot.valid, "2W: bank 3 row 0 filled by an even line");
    result = touch(cache, STC_OP_READ, odd_a);
    CHECK(result.bank == 1, "2W odd A: bank %u want 1", result.bank);
    result = touch(cache, STC_OP_READ, odd_b);
    CHECK(result.bank == 3, "2W odd B: bank %u want 3", result.bank);
    result = touch(cache, STC_OP_READ, odd_c);
    CHECK(!result.hit && result.bank == 1, "2W odd C: bank %u want 1 (evicts odd A)", result.bank);
    expect_bank(cache, odd_a, -1, "2W after odd C");
    expect_bank(cache, even_a, 0, "2W odd traffic leaves even lines");
    expect_bank(cache, even_c, 2, "2W odd traffic leaves even lines");
    expect_invariant(cache, "8K_2W lru");
    stc_cache_destroy(cache);
}

/* ---------------------------------------------------------------------------
 * 3. logical_lines (section 6)
 */

static void expect_data(const stc_cache *cache, unsigned bank, unsigned row, const uint8_t *want,
                        unsigned bytes, const char *where)
{
    stc_slot slot;
    stc_cache_slot(cache, bank, row, &slot);
    CHECK(slot.data && memcmp(slot.data, want, bytes) == 0, "%s: bank %u row %u data differs",
          where, bank, row);
}

static void test_logical_lines(void)
{
    stc_geometry geometry;
    if (!make_geometry("", &geometry)) {
        return;
    }
    test_memory memory;
    stc_memory port = memory_open(&memory);

    /* 8K_1W_64B, load 4 bytes at 0x1234: row 35, first row 32, bank
     * addr[12:11] = 2; the logical line 0x1200..0x123f comes in one burst:
     * 1 + 20 + 4 x 4 + the controller's 2 = 39 cycles (the empty cache's
     * row state shows the whole line absent: no subline is checked). */
    stc_cache *cache = make_cache(&geometry, STC_DCACHE, "8K_1W_64B", &port);
    if (cache) {
        uint8_t got[4];
        stc_access_result result;
        CHECK(stc_cache_access(cache, STC_OP_READ, 0x1234, 4, NULL, NULL, got, &result) == 0,
              "64B load refused");
        CHECK(!result.hit, "64B first load hit");
        CHECK_EQ_U64(result.bank, 2, "64B bank");
        CHECK_EQ_U64(result.fills, 4, "64B fills");
        CHECK_EQ_U64(result.bursts, 1, "64B bursts");
        CHECK_EQ_U64(result.writebacks, 0, "64B writebacks");
        CHECK_EQ_U64(result.cycles, 39, "64B miss cycles: 1 + 20 + 16 + 2");
        const memory_transaction one_burst[] = {{'R', 0x1200, 64}};
        expect_log(&memory, one_burst, 1, "64B miss");
        CHECK(memcmp(got, memory.bytes + 0x1234, 4) == 0, "64B load data");
        for (unsigned sub = 0; sub < 4; sub++) {
            stc_slot slot;
            stc_cache_slot(cache, 2, 32 + sub, &slot);
            CHECK(slot.valid && !slot.dirty && slot.line_addr == 0x1200 + 0x10 * sub,
                  "64B subline %u: valid %d dirty %d line 0x%llx", sub, slot.valid, slot.dirty,
                  (unsigned long long)slot.line_addr);
            expect_data(cache, 2, 32 + sub, memory.bytes + 0x1200 + 0x10 * sub, 16, "64B fill");
        }
        /* Another subline (0x1208, row 32) now hits: 1 cycle, no memory. */
        log_clear(&memory);
        CHECK(stc_cache_access(cache, STC_OP_READ, 0x1208, 4, NULL, NULL, got, &result) == 0,
              "64B second load refused");
        CHECK(result.hit && result.bank == 2 && result.cycles == 1 && result.fills == 0,
              "64B other subline: hit %d bank %u cycles %u fills %u", result.hit, result.bank,
              result.cycles, result.fills);
        CHECK_EQ_U64(memory.log_count, 0, "64B hit touched memory");
        CHECK(memcmp(got, memory.bytes + 0x1208, 4) == 0, "64B hit data");
        CHECK_EQ_U64(stc_cache_counters(cache)->fills, 4, "64B counter fills");
        CHECK_EQ_U64(stc_cache_counters(cache)->fill_bursts, 1, "64B counter bursts");
        stc_cache_destroy(cache);
    }

    /* Not the steady state: only subline 2 of logical line 0x0000..0x003f is
     * present when the line grows from 16 B to 64 B.
     * 8K_2W_16B, lines with addr[11] = 0 use banks {0, 2}:
     *   load 0x1020 (tag 2, row 2)  -> bank 0 (lowest invalid)
     *   load 0x0020 (tag 0, row 2)  -> bank 2 (bank 0 taken)
     *   store 0x1030 (tag 2, row 3) -> bank 0, dirty */
    cache = make_cache(&geometry, STC_DCACHE, "8K_2W_16B", &port);
    if (cache) {
        uint8_t value = 0x5a;
        stc_access_result result;
        touch(cache, STC_OP_READ, 0x1020);
        CHECK_EQ_U64(stc_cache_lookup(cache, 0x1020), 0, "setup 0x1020");
        touch(cache, STC_OP_READ, 0x0020);
        CHECK_EQ_U64(stc_cache_lookup(cache, 0x0020), 2, "setup 0x0020");
        CHECK(stc_cache_access(cache, STC_OP_WRITE, 0x1034, 1, &value, NULL, NULL, &result) == 0,
              "setup store refused");
        CHECK_EQ_U64(stc_cache_lookup(cache, 0x1030), 0, "setup 0x1030");

        /* Growing the line needs no walk (section 7). */
        stc_reconfig_result change;
        reconfigure_to(cache, "8K_2W_64B", &change);
        CHECK(change.cycles == 0 && change.walked_rows == 0,
              "16B -> 64B: cycles %llu walked rows %u, want 0 0",
              (unsigned long long)change.cycles, change.walked_rows);

        /* Load 0x0004: row 0, first row 0, victim = bank 0 (lowest invalid at
         * row 0). Sublines: 0x00 missing, 0x10 missing, 0x20 present in bank
         * 2 (left alone), 0x30 missing: bank 0 row 3 holds dirty 0x1030,
         * written back first. Bursts: 0x00 (2 lines) and 0x30 (1 line).
         * Cycles: 1 + (20+4+2) + (20+8) + (20+4) + the controller's
         * 4 checks + 2 bursts = 85. */
        log_clear(&memory);
        uint8_t got[4];
        CHECK(stc_cache_access(cache, STC_OP_READ, 0x0004, 4, NULL, NULL, got, &result) == 0,
              "partial load refused");
        CHECK(!result.hit && result.bank == 0, "partial: hit %d bank %u, want miss into bank 0",
              result.hit, result.bank);
        CHECK_EQ_U64(result.fills, 3, "partial fills: sublines 0, 1, 3");
        CHECK_EQ_U64(result.bursts, 2, "partial bursts: 0-1 and 3");
        CHECK_EQ_U64(result.writebacks, 1, "partial writebacks");
        CHECK_EQ_U64(result.cycles, 85, "partial cycles: 1 + 26 + 28 + 24 + 6");
        const memory_transaction partial[] = {
            {'W', 0x1030, 16}, {'R', 0x0000, 32}, {'R', 0x0030, 16}};
        expect_log(&memory, partial, 3, "partial fill");
        CHECK_EQ_U64(memory.bytes[0x1034], 0x5a, "written-back byte");
        CHECK(memcmp(got, memory.bytes + 0x0004, 4) == 0, "partial load data");
        expect_bank(cache, 0x0000, 0, "partial");
        expect_bank(cache, 0x0010, 0, "partial");
        expect_bank(cache, 0x0020, 2, "partial: subline 2 stays where it was");
        expect_bank(cache, 0x0030, 0, "partial");
        expect_bank(cache, 0x1020, 0, "partial: bank 0 row 2 untouched");
        expect_bank(cache, 0x1030, -1, "partial: evicted");
        expect_data(cache, 0, 0, memory.bytes + 0x0000, 16, "partial subline 0");
        expect_data(cache, 0, 1, memory.bytes + 0x0010, 16, "partial subline 1");
        expect_data(cache, 0, 3, memory.bytes + 0x0030, 16, "partial subline 3");
        expect_no_duplicates(cache, "partial");
        expect_invariant(cache, "partial");
        /* 5 slots valid: 0x1020, 0x0020 and 0x00/0x10/0x30, no more. */
        CHECK_EQ_U64(count_valid(cache), 5, "valid lines after the partial fill");
        /* Subline 2 is served from bank 2: a hit. */
        log_clear(&memory);
        CHECK(stc_cache_access(cache, STC_OP_READ, 0x0024, 4, NULL, NULL, got, &result) == 0,
              "subline 2 load refused");
        CHECK(result.hit && result.bank == 2 && result.cycles == 1,
              "subline 2: hit %d bank %u cycles %u", result.hit, result.bank, result.cycles);
        CHECK_EQ_U64(memory.log_count, 0, "subline 2 hit touched memory");
        /* Counters: 3 single fills, then 3 lines in 2 bursts. */
        CHECK_EQ_U64(stc_cache_counters(cache)->fills, 6, "partial counter fills");
        CHECK_EQ_U64(stc_cache_counters(cache)->fill_bursts, 5, "partial counter bursts");
        CHECK_EQ_U64(stc_cache_counters(cache)->writebacks, 1, "partial counter writebacks");
        stc_cache_destroy(cache);
    }

    /* Recency covers the whole logical line: in 8K_2W_32B, touching row 1 of
     * a logical line also makes its bank most recent in row 0, so the next
     * conflicting miss (victim chosen from row 0) evicts the other bank.
     *   load 0x0000 -> bank 0 (rows 0, 1); load 0x1000 -> bank 2 (rows 0, 1);
     *   load 0x0010 (row 1 of 0x0000's line): hit in bank 0, touches rows 0 and 1;
     *   load 0x2000 -> victim is bank 2, the least recent in row 0. */
    cache = make_cache(&geometry, STC_DCACHE, "8K_2W_32B", NULL);
    if (cache) {
        touch(cache, STC_OP_READ, 0x0000);
        touch(cache, STC_OP_READ, 0x1000);
        stc_access_result result = touch(cache, STC_OP_READ, 0x0010);
        CHECK(result.hit && result.bank == 0, "row 1 of 0x0000: hit %d bank %u", result.hit,
              result.bank);
        result = touch(cache, STC_OP_READ, 0x2000);
        CHECK(!result.hit && result.bank == 2, "32B victim bank %u, want 2", result.bank);
        expect_bank(cache, 0x0000, 0, "32B recency");
        expect_bank(cache, 0x0010, 0, "32B recency");
        expect_bank(cache, 0x1000, -1, "32B recency");
        expect_bank(cache, 0x1010, -1, "32B: the whole logical line goes");
        stc_cache_destroy(cache);
    }
    memory_close(&memory);
}

/* ---------------------------------------------------------------------------
 * 4. straddle (section 12)
 */

static void test_straddle(void)
{
    stc_geometry geometry;
    if (!make_geometry("", &geometry)) {
        return;
    }
    unsigned cycles = 0;
    /* 16 B lines: 8 bytes at 0x100c are 0x100c..0x100f and 0x1010..0x1013,
     * two physical lines, both missing: 2 accesses, 1 request, 1 request
     * miss, 2 x 27 cycles. */
    stc_cache *cache = make_cache(&geometry, STC_DCACHE, "8K_4W_16B", NULL);
    if (cache) {
        CHECK_EQ_U64(stc_cache_request(cache, STC_OP_READ, 0x100c, 8, NULL, NULL, &cycles), 2,
                     "16B straddle missed pieces");
        const stc_counters *counters = stc_cache_counters(cache);
        CHECK_EQ_U64(counters->requests, 1, "16B straddle requests");
        CHECK_EQ_U64(counters->request_misses, 1, "16B straddle request misses");
        CHECK_EQ_U64(counters->accesses, 2, "16B straddle accesses");
        CHECK_EQ_U64(counters->misses, 2, "16B straddle misses");
        CHECK_EQ_U64(counters->reads, 2, "16B straddle reads");
        CHECK_EQ_U64(cycles, 54, "16B straddle cycles 27 + 27");
        /* Again: both hit. */
        CHECK_EQ_U64(stc_cache_request(cache, STC_OP_READ, 0x100c, 8, NULL, NULL, &cycles), 0,
                     "16B straddle again");
        CHECK_EQ_U64(counters->requests, 2, "requests after the second");
        CHECK_EQ_U64(counters->request_misses, 1, "request misses after the second");
        CHECK_EQ_U64(cycles, 2, "two hits");
        /* Addresses wrap modulo 2^32: 0xfffffffc + 8 covers 0xfffffffc..0xffffffff
         * and 0x0..0x3. */
        CHECK_EQ_U64(stc_cache_request(cache, STC_OP_WRITE, 0xfffffffc, 8, NULL, NULL, &cycles), 2,
                     "wrapping request");
        CHECK(stc_cache_lookup(cache, 0xfffffff0) >= 0 && stc_cache_lookup(cache, 0x0) >= 0,
              "wrapping request did not bring both lines");
        CHECK_EQ_U64(counters->accesses, 6, "accesses after the wrap");
        CHECK_EQ_U64(counters->writes, 2, "writes after the wrap");
        CHECK_EQ_U64(counters->write_misses, 2, "write misses after the wrap");
        /* Misuse: zero bytes, and a single access crossing a line. */
        stc_counters before = *counters;
        CHECK(stc_cache_request(cache, STC_OP_READ, 0x2000, 0, NULL, NULL, &cycles) == -1,
              "zero-byte request accepted");
        stc_access_result result;
        CHECK(stc_cache_access(cache, STC_OP_READ, 0x200c, 8, NULL, NULL, NULL, &result) == -1,
              "access crossing a physical line accepted");
        CHECK(stc_cache_access(cache, STC_OP_READ, 0x2000, 17, NULL, NULL, NULL, &result) == -1,
              "access longer than a line accepted");
        CHECK(memcmp(&before, counters, sizeof before) == 0, "misuse changed the counters");
        CHECK_EQ_U64(stc_cache_lookup(cache, 0x2000), -1, "misuse filled a line");
        stc_cache_destroy(cache);
    }

    /* 32 B logical lines: the same 8 bytes lie in logical line 0x1000..0x101f,
     * so the first piece misses (fills both physical lines: 1 + 20 + 8 +
     * 2 = 31)
     * and the second hits (1). */
    cache = make_cache(&geometry, STC_DCACHE, "8K_4W_32B", NULL);
    if (cache) {
        CHECK_EQ_U64(stc_cache_request(cache, STC_OP_READ, 0x100c, 8, NULL, NULL, &cycles), 1,
                     "32B straddle missed pieces");
        const stc_counters *counters = stc_cache_counters(cache);
        CHECK_EQ_U64(counters->accesses, 2, "32B straddle accesses");
        CHECK_EQ_U64(counters->misses, 1, "32B straddle misses");
        CHECK_EQ_U64(counters->requests, 1, "32B straddle requests");
        CHECK_EQ_U64(counters->request_misses, 1, "32B straddle request misses");
        CHECK_EQ_U64(counters->fills, 2, "32B straddle fills");
        CHECK_EQ_U64(counters->fill_bursts, 1, "32B straddle bursts");
        CHECK_EQ_U64(cycles, 32, "32B straddle cycles 31 + 1");
        /* Crossing into the next logical line (0x101c..0x1023): the first
         * piece hits, the second misses; still one request miss. */
        CHECK_EQ_U64(stc_cache_request(cache, STC_OP_READ, 0x101c, 8, NULL, NULL, &cycles), 1,
                     "crossing logical lines");
        CHECK_EQ_U64(counters->request_misses, 2, "request misses after crossing");
        CHECK_EQ_U64(cycles, 32, "crossing cycles 1 + 31");
        stc_cache_destroy(cache);
    }

    /* With data: a 40-byte store at 0x2008 covers 0x2008..0x202f, three
     * physical lines (8 + 16 + 16 bytes), all missing; then read back. */
    test_memory memory;
    stc_memory port = memory_open(&memory);
    cache = make_cache(&geometry, STC_DCACHE, "8K_4W_16B", &port);
    if (cache) {
        uint8_t written[40], got[40];
        for (unsigned i = 0; i < sizeof written; i++) {
            written[i] = (uint8_t)(0xc0 + i);
        }
        CHECK_EQ_U64(stc_cache_request(cache, STC_OP_WRITE, 0x2008, 40, written, NULL, &cycles), 3,
                     "40-byte store missed pieces");
        const stc_counters *counters = stc_cache_counters(cache);
        CHECK_EQ_U64(counters->accesses, 3, "40-byte accesses");
        CHECK_EQ_U64(counters->writes, 3, "40-byte writes");
        CHECK_EQ_U64(counters->requests, 1, "40-byte requests");
        CHECK_EQ_U64(counters->request_misses, 1, "40-byte request misses");
        CHECK_EQ_U64(cycles, 81, "40-byte cycles 3 x 27");
        const memory_transaction fills[] = {
            {'R', 0x2000, 16}, {'R', 0x2010, 16}, {'R', 0x2020, 16}};
        expect_log(&memory, fills, 3, "40-byte store");
        CHECK_EQ_U64(stc_cache_request(cache, STC_OP_READ, 0x2008, 40, NULL, got, &cycles), 0,
                     "40-byte load");
        CHECK(memcmp(got, written, sizeof got) == 0, "40-byte load returns the stored bytes");
        CHECK_EQ_U64(cycles, 3, "40-byte hits");
        /* Bytes around the request are untouched. */
        CHECK_EQ_U64(stc_cache_request(cache, STC_OP_READ, 0x2000, 8, NULL, got, &cycles), 0,
                     "bytes before");
        CHECK(memcmp(got, memory.bytes + 0x2000, 8) == 0, "bytes before the store changed");
        stc_cache_destroy(cache);
    }
    memory_close(&memory);
}

/* ---------------------------------------------------------------------------
 * 5. write_back (section 6 write policy, section 10 transaction order)
 */

static void test_write_back(void)
{
    stc_geometry geometry;
    if (!make_geometry("", &geometry)) {
        return;
    }
    test_memory memory;
    stc_memory port = memory_open(&memory);

    /* 8K_1W_16B: 0x0104, 0x2104 and 0x4104 all map to bank 0, row 16. */
    stc_cache *cache = make_cache(&geometry, STC_DCACHE, "8K_1W_16B", &port);
    if (cache) {
        const stc_counters *counters = stc_cache_counters(cache);
        stc_access_result result;
        uint8_t stored[4] = {0xa1, 0xa2, 0xa3, 0xa4};
        uint8_t line_before[16];
        memcpy(line_before, memory.bytes + 0x100, 16);

        /* Store miss: fill 0x100 (clean read), then write, dirty. 1 + 24 + 2 = 27 cycles. */
        CHECK(stc_cache_access(cache, STC_OP_WRITE, 0x0104, 4, stored, NULL, NULL, &result) == 0,
              "store refused");
        CHECK(!result.hit && result.bank == 0 && result.cycles == 27 && result.writebacks == 0,
              "store miss: hit %d bank %u cycles %u writebacks %u", result.hit, result.bank,
              result.cycles, result.writebacks);
        const memory_transaction store_fill[] = {{'R', 0x100, 16}};
        expect_log(&memory, store_fill, 1, "store miss");
        CHECK_EQ_U64(counters->write_misses, 1, "write misses");
        CHECK_EQ_U64(counters->read_misses, 0, "read misses after a store");
        stc_slot slot;
        stc_cache_slot(cache, 0, 16, &slot);
        CHECK(slot.valid && slot.dirty, "stored line valid %d dirty %d", slot.valid, slot.dirty);
        uint8_t want[16];
        memcpy(want, line_before, 16);
        memcpy(want + 4, stored, 4);
        expect_data(cache, 0, 16, want, 16, "after the store");
        CHECK(memcmp(memory.bytes + 0x100, line_before, 16) == 0,
              "write-back cache wrote memory on a store");

        /* Conflicting load: the dirty victim goes out before the read burst.
         * 1 + (20+4+2) + 24 + 2 = 53 cycles. */
        log_clear(&memory);
        uint8_t got[8];
        CHECK(stc_cache_access(cache, STC_OP_READ, 0x2104, 4, NULL, NULL, got, &result) == 0,
              "conflicting load refused");
        CHECK(!result.hit && result.writebacks == 1 && result.fills == 1 && result.cycles == 53,
              "dirty eviction: hit %d writebacks %u fills %u cycles %u", result.hit,
              result.writebacks, result.fills, result.cycles);
        const memory_transaction evict[] = {{'W', 0x100, 16}, {'R', 0x2100, 16}};
        expect_log(&memory, evict, 2, "dirty eviction");
        CHECK(memcmp(memory.bytes + 0x100, want, 16) == 0, "written-back line data");
        CHECK(memcmp(got, memory.bytes + 0x2104, 4) == 0, "load after eviction data");
        CHECK_EQ_U64(counters->writebacks, 1, "writebacks counter");
        stc_cache_slot(cache, 0, 16, &slot);
        CHECK(slot.valid && !slot.dirty && slot.line_addr == 0x2100,
              "refilled slot valid %d dirty %d line 0x%llx", slot.valid, slot.dirty,
              (unsigned long long)slot.line_addr);

        /* Byte enables: 8 bytes at 0x2100 with only bytes 0, 2 and 7 enabled. */
        log_clear(&memory);
        const uint8_t masked_data[8] = {0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17};
        const uint8_t mask[8] = {1, 0, 1, 0, 0, 0, 0, 1};
        CHECK(stc_cache_access(cache, STC_OP_WRITE, 0x2100, 8, masked_data, mask, NULL, &result) ==
                  0,
              "masked store refused");
        CHECK(result.hit && result.cycles == 1, "masked store: hit %d cycles %u", result.hit,
              result.cycles);
        memcpy(want, memory.bytes + 0x2100, 16);
        want[0] = 0x10;
        want[2] = 0x12;
        want[7] = 0x17;
        expect_data(cache, 0, 16, want, 16, "masked store");
        CHECK_EQ_U64(memory.log_count, 0, "store hit touched memory");

        /* Modify at 0x2102, 2 bytes: returns the old bytes (0x12 just stored,
         * and memory's byte 3), writes the new ones, one access, hit. */
        const uint8_t modify_data[2] = {0xee, 0xef};
        CHECK(stc_cache_access(cache, STC_OP_MODIFY, 0x2102, 2, modify_data, NULL, got, &result) ==
                  0,
              "modify refused");
        CHECK(result.hit && result.cycles == 1, "modify: hit %d cycles %u", result.hit,
              result.cycles);
        CHECK(got[0] == 0x12 && got[1] == want[3], "modify read %02x %02x, want 12 %02x", got[0],
              got[1], want[3]);
        want[2] = 0xee;
        want[3] = 0xef;
        expect_data(cache, 0, 16, want, 16, "modify");
        /* So far: accesses store, load, store, modify = 4; reads = load +
         * modify = 2; writes = store + store + modify = 3. */
        CHECK_EQ_U64(counters->accesses, 4, "accesses");
        CHECK_EQ_U64(counters->reads, 2, "reads");
        CHECK_EQ_U64(counters->writes, 3, "writes");

        /* Modify miss on 0x4104: writes back 0x2100 (dirty) then reads 0x4100;
         * counts as a read miss; returns memory's old bytes. */
        log_clear(&memory);
        CHECK(stc_cache_access(cache, STC_OP_MODIFY, 0x4104, 2, modify_data, NULL, got, &result) ==
                  0,
              "modify miss refused");
        CHECK(!result.hit && result.cycles == 53, "modify miss: hit %d cycles %u", result.hit,
              result.cycles);
        const memory_transaction modify_evict[] = {{'W', 0x2100, 16}, {'R', 0x4100, 16}};
        expect_log(&memory, modify_evict, 2, "modify miss");
        CHECK(memcmp(memory.bytes + 0x2100, want, 16) == 0,
              "masked and modified bytes written back");
        CHECK(got[0] == pattern_byte(0x4104) && got[1] == pattern_byte(0x4105),
              "modify miss read the old bytes");
        CHECK_EQ_U64(counters->read_misses, 2, "read misses: load + modify");
        CHECK_EQ_U64(counters->write_misses, 1, "write misses unchanged by modify");
        stc_cache_slot(cache, 0, 16, &slot);
        CHECK(slot.valid && slot.dirty, "modify dirties the line");

        /* stc_cache_clean writes back and keeps the line. */
        log_clear(&memory);
        CHECK_EQ_U64(stc_cache_clean(cache), 1, "clean count");
        const memory_transaction cleaned[] = {{'W', 0x4100, 16}};
        expect_log(&memory, cleaned, 1, "clean");
        CHECK(memory.bytes[0x4104] == 0xee && memory.bytes[0x4105] == 0xef, "cleaned data");
        stc_cache_slot(cache, 0, 16, &slot);
        CHECK(slot.valid && !slot.dirty, "clean leaves the line valid and clean");
        expect_invariant(cache, "write_back");
        stc_cache_destroy(cache);
    }

    /* An I-cache is read-only: a write or modify is refused and changes
     * nothing (counters, slots, memory). */
    cache = make_cache(&geometry, STC_ICACHE, "8K_4W_16B", &port);
    if (cache) {
        stc_access_result result;
        uint8_t got[4];
        CHECK(stc_cache_access(cache, STC_OP_READ, 0x0300, 4, NULL, NULL, got, &result) == 0,
              "fetch refused");
        CHECK(memcmp(got, memory.bytes + 0x300, 4) == 0, "fetch data");
        stc_counters before = *stc_cache_counters(cache);
        log_clear(&memory);
        const uint8_t data[4] = {1, 2, 3, 4};
        CHECK(stc_cache_access(cache, STC_OP_WRITE, 0x0300, 4, data, NULL, NULL, &result) == -1,
              "I-cache store (hit) accepted");
        CHECK(stc_cache_access(cache, STC_OP_WRITE, 0x0800, 4, data, NULL, NULL, &result) == -1,
              "I-cache store (miss) accepted");
        CHECK(stc_cache_access(cache, STC_OP_MODIFY, 0x0300, 4, data, NULL, got, &result) == -1,
              "I-cache modify accepted");
        CHECK(stc_cache_request(cache, STC_OP_WRITE, 0x0300, 4, data, NULL, NULL) == -1,
              "I-cache store request accepted");
        CHECK(memcmp(&before, stc_cache_counters(cache), sizeof before) == 0,
              "refused I-cache writes changed the counters");
        CHECK_EQ_U64(memory.log_count, 0, "refused I-cache writes touched memory");
        stc_slot slot;
        stc_cache_slot(cache, 0, 0x30, &slot);
        CHECK(slot.valid && !slot.dirty, "I-cache line dirtied");
        expect_data(cache, 0, 0x30, memory.bytes + 0x300, 16, "I-cache line");
        CHECK_EQ_U64(stc_cache_lookup(cache, 0x0800), -1, "refused I-cache store filled a line");
        stc_cache_destroy(cache);
    }

    /* Random loads, stores and modifies in 8K_2W_32B against a shadow copy of
     * memory: every load returns the last bytes stored, and after a final
     * clean memory equals the shadow (no lost or misdirected writeback). */
    cache = make_cache(&geometry, STC_DCACHE, "8K_2W_32B", &port);
    uint8_t *shadow = malloc(MEMORY_BYTES);
    if (cache && shadow) {
        memcpy(shadow, memory.bytes, MEMORY_BYTES);
        uint64_t seed = 12345;
        unsigned mismatches = 0;
        for (unsigned i = 0; i < 60000 && mismatches < 5; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t random = seed >> 16;
            /* 24 KiB window: three times the cache, so lines come and go. */
            uint64_t addr = (random >> 8) % (24 * 1024 - 8);
            unsigned bytes = 1 + (unsigned)(random & 7);
            stc_op op = (stc_op)((random >> 4) % 3);
            uint8_t data[8], got[8];
            for (unsigned b = 0; b < bytes; b++) {
                data[b] = (uint8_t)(random >> (40 + b));
            }
            if (stc_cache_request(cache, op, addr, bytes, op == STC_OP_READ ? NULL : data,
                                  op == STC_OP_WRITE ? NULL : got, NULL) < 0) {
                CHECK(false, "random request %u refused", i);
                mismatches++;
                continue;
            }
            if (op != STC_OP_WRITE && memcmp(got, shadow + addr, bytes) != 0) {
                CHECK(false, "random request %u: load at 0x%llx returned stale bytes", i,
                      (unsigned long long)addr);
                mismatches++;
            }
            if (op != STC_OP_READ) {
                memcpy(shadow + addr, data, bytes);
            }
        }
        CHECK(stc_cache_counters(cache)->writebacks > 1000, "random data test evicted few dirty "
                                                            "lines: %llu",
              (unsigned long long)stc_cache_counters(cache)->writebacks);
        stc_cache_clean(cache);
        CHECK(memcmp(shadow, memory.bytes, MEMORY_BYTES) == 0,
              "memory differs from the shadow after clean");
        expect_invariant(cache, "random data");
    }
    free(shadow);
    stc_cache_destroy(cache);
    memory_close(&memory);
}

/* ---------------------------------------------------------------------------
 * 6. way_prediction (section 8)
 */

static void test_way_prediction(void)
{
    stc_geometry geometry;
    if (!make_geometry("", &geometry)) {
        return;
    }
    /* 8K_2W_16B_P, row 0, addr[11] = 0: candidates banks 0 and 2. */
    stc_cache *cache = make_cache(&geometry, STC_DCACHE, "8K_2W_16B_P", NULL);
    if (!cache) {
        return;
    }
    const stc_counters *counters = stc_cache_counters(cache);
    const uint64_t line_a = 0x0000, line_b = 0x1000;
    /* Reset recency: bank 0 is the most recent, so it is predicted. */
    CHECK_EQ_U64(stc_cache_predicted_bank(cache, line_a), 0, "initial prediction");
    /* Miss: 2 probes, then 20 + 4, then the controller's check + answer: 28 cycles. */
    stc_access_result result = touch(cache, STC_OP_READ, line_a);
    CHECK(!result.hit && !result.predicted && result.probes == 2 && result.cycles == 28 &&
              result.bank == 0,
          "A miss: hit %d predicted %d probes %u cycles %u bank %u", result.hit, result.predicted,
          result.probes, result.cycles, result.bank);
    /* Re-access: first-probe hit, 1 cycle. */
    result = touch(cache, STC_OP_READ, line_a);
    CHECK(result.hit && result.predicted && result.probes == 1 && result.cycles == 1,
          "A first-probe: hit %d predicted %d probes %u cycles %u", result.hit, result.predicted,
          result.probes, result.cycles);
    /* B misses (28 cycles) into bank 2, which becomes the predicted bank. */
    result = touch(cache, STC_OP_READ, line_b);
    CHECK(!result.hit && result.bank == 2 && result.cycles == 28,
          "B miss: hit %d bank %u cycles %u", result.hit, result.bank, result.cycles);
    CHECK_EQ_U64(stc_cache_predicted_bank(cache, line_a), 2, "prediction after B");
    /* A again: found by the second probe in bank 0, 2 cycles; now bank 0 is
     * predicted. */
    result = touch(cache, STC_OP_READ, line_a);
    CHECK(result.hit && !result.predicted && result.probes == 2 && result.cycles == 2 &&
              result.bank == 0,
          "A second-probe: hit %d predicted %d probes %u cycles %u bank %u", result.hit,
          result.predicted, result.probes, result.cycles, result.bank);
    CHECK_EQ_U64(stc_cache_predicted_bank(cache, line_a), 0, "prediction after A");
    result = touch(cache, STC_OP_READ, line_a);
    CHECK(result.hit && result.predicted && result.cycles == 1, "A first-probe again: %d %d %u",
          result.hit, result.predicted, result.cycles);
    CHECK_EQ_U64(counters->first_probe_hits, 2, "first-probe hits");
    CHECK_EQ_U64(counters->second_probe_hits, 1, "second-probe hits");
    CHECK_EQ_U64(counters->misses, 2, "misses");
    CHECK_EQ_U64(counters->cycles, 28 + 1 + 28 + 2 + 1, "way-prediction cycles");
    /* Prediction is per row: row 1 still has the reset order. */
    CHECK_EQ_U64(stc_cache_predicted_bank(cache, 0x1010), 0, "row 1 prediction");
    /* An odd-select line is predicted among banks 1 and 3. */
    CHECK_EQ_U64(stc_cache_predicted_bank(cache, 0x0800), 1, "odd prediction");
    stc_cache_destroy(cache);

    /* Without way prediction all candidates are probed at once: second-bank
     * hits cost 1 and the probe counters stay 0. */
    cache = make_cache(&geometry, STC_DCACHE, "8K_2W_16B", NULL);
    if (cache) {
        touch(cache, STC_OP_READ, line_a);
        touch(cache, STC_OP_READ, line_b);
        result = touch(cache, STC_OP_READ, line_a);
        CHECK(result.hit && result.probes == 1 && result.cycles == 1,
              "no-wp hit: probes %u cycles %u", result.probes, result.cycles);
        /* 0x2000 evicts B: 1 + 24 + 2 cycles, no second probe. */
        result = touch(cache, STC_OP_READ, 0x2000);
        CHECK(!result.hit && result.cycles == 27, "no-wp miss cycles %u", result.cycles);
        CHECK_EQ_U64(stc_cache_counters(cache)->first_probe_hits, 0, "no-wp first-probe hits");
        CHECK_EQ_U64(stc_cache_counters(cache)->second_probe_hits, 0, "no-wp second-probe hits");
        stc_cache_destroy(cache);
    }
}

/* ---------------------------------------------------------------------------
 * 7. timing (section 10 table, section 7 worked examples)
 */

static void expect_reconfig(const stc_reconfig_result *got, unsigned cycles, unsigned woken,
                            unsigned slept, unsigned walked_rows, unsigned writebacks,
                            unsigned invalidations, const char *where)
{
    CHECK(got->cycles == cycles && got->woken_banks == woken && got->slept_banks == slept &&
              got->walked_rows == walked_rows && got->writebacks == writebacks &&
              got->invalidations == invalidations,
          "%s: cycles %llu woken %u slept %u walked %u writebacks %u invalidations %u; want %u "
          "%u %u %u %u %u",
          where, (unsigned long long)got->cycles, got->woken_banks, got->slept_banks, got->walked_rows,
          got->writebacks, got->invalidations, cycles, woken, slept, walked_rows, writebacks,
          invalidations);
}

static void expect_reconfig_counters(const stc_cache *cache, uint64_t cycles, uint64_t reconfigs,
                                     uint64_t reconfig_cycles, uint64_t walk_writebacks,
                                     uint64_t walk_invalidations, const char *where)
{
    const stc_counters *counters = stc_cache_counters(cache);
    CHECK_EQ_U64(counters->cycles, cycles, "%s: cycles counter", where);
    CHECK_EQ_U64(counters->reconfigs, reconfigs, "%s: reconfigs counter", where);
    CHECK_EQ_U64(counters->reconfig_cycles, reconfig_cycles, "%s: reconfig_cycles", where);
    CHECK_EQ_U64(counters->walk_writebacks, walk_writebacks, "%s: walk_writebacks", where);
    CHECK_EQ_U64(counters->walk_invalidations, walk_invalidations, "%s: walk_invalidations",
                 where);
}

/* One access with a byte of data; returns its cycles. */
static unsigned timed(stc_cache *cache, stc_op op, uint64_t addr)
{
    uint8_t value = (uint8_t)(addr >> 4 | 0x80), old;
    stc_access_result result;
    memset(&result, 0, sizeof result);
    CHECK(stc_cache_access(cache, op, addr, 1, &value, NULL, &old, &result) == 0,
          "timed access 0x%llx refused", (unsigned long long)addr);
    return result.cycles;
}

static void expect_bank_empty(const stc_cache *cache, unsigned bank, const char *where)
{
    const stc_geometry *geometry = stc_cache_geometry(cache);
    unsigned valid = 0;
    for (unsigned row = 0; row < geometry->rows; row++) {
        stc_slot slot;
        stc_cache_slot(cache, bank, row, &slot);
        valid += slot.valid || slot.dirty ? 1 : 0;
    }
    CHECK_EQ_U64(valid, 0, "%s: bank %u still holds lines", where, bank);
}

static void test_timing_accesses(test_memory *memory, const stc_memory *port,
                                 const stc_geometry *geometry)
{
    /* Hit and 16 B miss, wp off: 1 and 1 + 20 + 4 + the controller's
     * check (which requests the burst) + answer = 27. */
    stc_cache *cache = make_cache(geometry, STC_DCACHE, "8K_4W_16B", port);
    if (cache) {
        CHECK_EQ_U64(timed(cache, STC_OP_READ, 0x0000), 27, "16B miss");
        CHECK_EQ_U64(timed(cache, STC_OP_READ, 0x0004), 1, "hit");
        CHECK_EQ_U64(timed(cache, STC_OP_WRITE, 0x0008), 1, "store hit");
        CHECK_EQ_U64(stc_cache_counters(cache)->cycles, 29, "cycles counter 27 + 1 + 1");
        stc_cache_destroy(cache);
    }
    /* Way prediction: miss 2 + 24 + 2 = 28, first-probe hit 1, second-probe
     * hit 2, and a miss with a dirty victim 2 + (24 + 2) + 24 + 2 = 54 (the
     * writeback's request, and the fill's request after it). */
    cache = make_cache(geometry, STC_DCACHE, "8K_2W_16B_P", port);
    if (cache) {
        CHECK_EQ_U64(timed(cache, STC_OP_WRITE, 0x0000), 28, "wp store miss"); /* bank 0 */
        CHECK_EQ_U64(timed(cache, STC_OP_WRITE, 0x1000), 28, "wp store miss"); /* bank 2 */
        CHECK_EQ_U64(timed(cache, STC_OP_READ, 0x1000), 1, "wp first-probe hit");
        CHECK_EQ_U64(timed(cache, STC_OP_READ, 0x0000), 2, "wp second-probe hit");
        /* Bank 2 (0x1000) is now the least recent of {0, 2} and dirty. */
        log_clear(memory);
        CHECK_EQ_U64(timed(cache, STC_OP_READ, 0x2000), 54, "wp miss with a dirty victim");
        const memory_transaction order[] = {{'W', 0x1000, 16}, {'R', 0x2000, 16}};
        expect_log(memory, order, 2, "wp dirty miss");
        CHECK_EQ_U64(stc_cache_counters(cache)->cycles, 28 + 28 + 1 + 2 + 54, "wp cycles counter");
        stc_cache_destroy(cache);
    }
    /* 32 B clean miss: 1 + 20 + 2 x 4 + 2 = 31 (the line known absent). */
    cache = make_cache(geometry, STC_DCACHE, "8K_1W_32B", port);
    if (cache) {
        CHECK_EQ_U64(timed(cache, STC_OP_READ, 0x0010), 31, "32B miss");
        stc_cache_destroy(cache);
    }
    /* 64 B (every line filled at 64 B: each miss's line known absent):
     * clean miss 1 + 20 + 16 + 2 = 39; with a dirty 16 B victim in each of
     * the 4 rows 39 + 4 x 26 = 143; with 2 dirty sublines 39 + 2 x 26 = 91.
     * 0x0000, 0x2000 and 0x4000 all map to bank 0 rows 0..3 in 8K_1W. */
    cache = make_cache(geometry, STC_DCACHE, "8K_1W_64B", port);
    if (cache) {
        CHECK_EQ_U64(timed(cache, STC_OP_READ, 0x0000), 39, "64B clean miss");
        for (uint64_t sub = 0; sub < 4; sub++) {
            CHECK_EQ_U64(timed(cache, STC_OP_WRITE, 0x0000 + 0x10 * sub), 1, "64B store hit");
        }
        log_clear(memory);
        CHECK_EQ_U64(timed(cache, STC_OP_READ, 0x2000), 143, "64B miss, 4 dirty victims");
        const memory_transaction four[] = {{'W', 0x0000, 16}, {'W', 0x0010, 16},
                                           {'W', 0x0020, 16}, {'W', 0x0030, 16},
                                           {'R', 0x2000, 64}};
        expect_log(memory, four, 5, "64B dirty miss");
        CHECK_EQ_U64(timed(cache, STC_OP_WRITE, 0x2010), 1, "store hit subline 1");
        CHECK_EQ_U64(timed(cache, STC_OP_WRITE, 0x2030), 1, "store hit subline 3");
        log_clear(memory);
        CHECK_EQ_U64(timed(cache, STC_OP_READ, 0x4020), 91, "64B miss, 2 dirty victims");
        const memory_transaction two[] = {{'W', 0x2010, 16}, {'W', 0x2030, 16}, {'R', 0x4000, 64}};
        expect_log(memory, two, 3, "64B partly dirty miss");
        const stc_counters *counters = stc_cache_counters(cache);
        CHECK_EQ_U64(counters->cycles, 39 + 4 + 143 + 2 + 91, "64B cycles counter");
        CHECK_EQ_U64(counters->writebacks, 6, "64B writebacks counter");
        CHECK_EQ_U64(counters->fills, 12, "64B fills counter");
        CHECK_EQ_U64(counters->fill_bursts, 3, "64B bursts counter");
        stc_cache_destroy(cache);
    }
}

static void test_timing_reconfig(test_memory *memory, const stc_memory *port,
                                 const stc_geometry *geometry)
{
    stc_reconfig_result result;

    /* 2K_1W -> 4K_1W, empty: wake bank 1 (4) + walk bank 0 (128) + the
     * controller's 1 = 133. */
    stc_cache *cache = make_cache(geometry, STC_DCACHE, "2K_1W_16B", port);
    if (cache) {
        reconfigure_to(cache, "4K_1W_16B", &result);
        expect_reconfig(&result, 133, 1, 0, 128, 0, 0, "2K_1W -> 4K_1W empty");
        expect_reconfig_counters(cache, 133, 1, 133, 0, 0, "2K_1W -> 4K_1W empty");
        stc_cache_destroy(cache);
    }

    /* 2K_1W -> 4K_1W with lines: all in bank 0; the walk drops those with
     * addr[11] = 1 (0x0810 dirty: written back, 24 cycles; 0x1830 clean).
     * 4 + 128 + 24 + 1 + 2 = 159; accesses before were 4 misses x 27 = 108. */
    cache = make_cache(geometry, STC_DCACHE, "2K_1W_16B", port);
    if (cache) {
        timed(cache, STC_OP_READ, 0x0000);
        timed(cache, STC_OP_WRITE, 0x0814);
        timed(cache, STC_OP_READ, 0x1020);
        timed(cache, STC_OP_READ, 0x1830);
        log_clear(memory);
        reconfigure_to(cache, "4K_1W_16B", &result);
        expect_reconfig(&result, 159, 1, 0, 128, 1, 2, "2K_1W -> 4K_1W dirty");
        const memory_transaction walk[] = {{'W', 0x0810, 16}};
        expect_log(memory, walk, 1, "2K_1W -> 4K_1W walk");
        CHECK_EQ_U64(memory->bytes[0x0814], 0x81, "walk wrote back the stored byte");
        expect_reconfig_counters(cache, 108 + 159, 1, 159, 1, 2, "2K_1W -> 4K_1W dirty");
        expect_bank(cache, 0x0000, 0, "2K->4K keeps addr[11]=0");
        expect_bank(cache, 0x1020, 0, "2K->4K keeps addr[11]=0");
        expect_bank(cache, 0x0810, -1, "2K->4K drops addr[11]=1");
        expect_bank(cache, 0x1830, -1, "2K->4K drops addr[11]=1");
        expect_invariant(cache, "2K_1W -> 4K_1W");
        /* 0x1830 was the last line accessed before the change and the walk
         * dropped it: accessing it again must miss (nothing may remember it). */
        CHECK_EQ_U64(timed(cache, STC_OP_READ, 0x1830), 27, "dropped last-accessed line misses");
        expect_bank(cache, 0x1830, 1, "refetched into its new home bank");
        /* The dropped line comes back from memory with the stored byte. */
        uint8_t got;
        stc_access_result access;
        CHECK(stc_cache_access(cache, STC_OP_READ, 0x0814, 1, NULL, NULL, &got, &access) == 0 &&
                  !access.hit && access.bank == 1 && got == 0x81,
              "refetch of the walked line: hit %d bank %u byte %02x", access.hit, access.bank, got);
        stc_cache_destroy(cache);
    }

    /* 8K_4W -> 8K_1W walks all 4 banks (g 1 -> 4). Lines in 8K_4W, each to
     * the lowest invalid candidate:
     *   0x0800 tag 1 row 0 -> bank 0, dirty   (home bank 1: dropped)
     *   0x0000 tag 0 row 0 -> bank 1, dirty   (home bank 0: dropped)
     *   0x1010 tag 2 row 1 -> bank 0, clean   (home bank 2: dropped)
     *   0x1810 tag 3 row 1 -> bank 1, dirty   (home bank 3: dropped)
     *   0x0020 tag 0 row 2 -> bank 0, clean   (home: kept)
     * Walk order rows ascending, banks ascending within a row: writebacks
     * 0x0800, 0x0000, 0x1810. 128 + 3 x 24 + 1 + 2 x 3 = 207. Accesses:
     * 5 x 27 = 135. */
    cache = make_cache(geometry, STC_DCACHE, "8K_4W_16B", port);
    if (cache) {
        timed(cache, STC_OP_WRITE, 0x0800);
        timed(cache, STC_OP_WRITE, 0x0000);
        timed(cache, STC_OP_READ, 0x1010);
        timed(cache, STC_OP_WRITE, 0x1810);
        timed(cache, STC_OP_READ, 0x0020);
        expect_bank(cache, 0x0800, 0, "8K_4W setup");
        expect_bank(cache, 0x0000, 1, "8K_4W setup");
        expect_bank(cache, 0x1010, 0, "8K_4W setup");
        expect_bank(cache, 0x1810, 1, "8K_4W setup");
        expect_bank(cache, 0x0020, 0, "8K_4W setup");
        log_clear(memory);
        reconfigure_to(cache, "8K_1W_16B", &result);
        expect_reconfig(&result, 207, 0, 0, 128, 3, 4, "8K_4W -> 8K_1W");
        const memory_transaction walk[] = {{'W', 0x0800, 16}, {'W', 0x0000, 16}, {'W', 0x1810, 16}};
        expect_log(memory, walk, 3, "8K_4W -> 8K_1W walk order");
        expect_reconfig_counters(cache, 135 + 207, 1, 207, 3, 4, "8K_4W -> 8K_1W");
        expect_bank(cache, 0x0020, 0, "8K_1W keeps the home line");
        CHECK_EQ_U64(count_valid(cache), 1, "8K_1W valid lines after the walk");
        expect_invariant(cache, "8K_4W -> 8K_1W");

        /* 8K_1W -> 8K_4W: associativity rises at a fixed size, no walk, 0. */
        reconfigure_to(cache, "8K_4W_16B", &result);
        expect_reconfig(&result, 0, 0, 0, 0, 0, 0, "8K_1W -> 8K_4W");
        expect_reconfig_counters(cache, 342, 2, 207, 3, 4, "8K_1W -> 8K_4W");
        expect_bank(cache, 0x0020, 0, "8K_4W keeps the line");

        /* The same configuration: nothing happens, nothing is counted. */
        reconfigure_to(cache, "8K_4W_16B", &result);
        expect_reconfig(&result, 0, 0, 0, 0, 0, 0, "8K_4W -> 8K_4W");
        expect_reconfig_counters(cache, 342, 2, 207, 3, 4, "8K_4W -> 8K_4W");

        /* Only the line size or way prediction changes: no walk, 0 cycles. */
        reconfigure_to(cache, "8K_4W_64B_P", &result);
        expect_reconfig(&result, 0, 0, 0, 0, 0, 0, "8K_4W_16B -> 8K_4W_64B_P");
        expect_reconfig_counters(cache, 342, 3, 207, 3, 4, "8K_4W_16B -> 8K_4W_64B_P");

        /* 8K_4W -> 8K_1W on a cache with nothing to drop still walks: 128 + 1. */
        reconfigure_to(cache, "8K_1W_64B", &result);
        expect_reconfig(&result, 129, 0, 0, 128, 0, 0, "8K_4W -> 8K_1W clean");
        stc_cache_destroy(cache);
    }

    /* 8K_2W -> 4K_2W (g 2 -> 1, banks 2 and 3 go off): walks banks 2, 3.
     *   0x0000 tag 0 -> bank 0 dirty; 0x1000 tag 2 -> bank 2 dirty;
     *   0x0800 tag 1 -> bank 1 clean; 0x1800 tag 3 -> bank 3 clean.
     * Banks 2, 3 dropped (one writeback): 128 + 24 + 1 + 2 = 155. Accesses
     * 4 x 27 = 108. */
    cache = make_cache(geometry, STC_DCACHE, "8K_2W_16B", port);
    if (cache) {
        timed(cache, STC_OP_WRITE, 0x0000);
        timed(cache, STC_OP_WRITE, 0x1000);
        timed(cache, STC_OP_READ, 0x0800);
        timed(cache, STC_OP_READ, 0x1800);
        expect_bank(cache, 0x1000, 2, "8K_2W setup");
        expect_bank(cache, 0x1800, 3, "8K_2W setup");
        log_clear(memory);
        reconfigure_to(cache, "4K_2W_16B", &result);
        expect_reconfig(&result, 155, 0, 2, 128, 1, 2, "8K_2W -> 4K_2W");
        const memory_transaction walk[] = {{'W', 0x1000, 16}};
        expect_log(memory, walk, 1, "8K_2W -> 4K_2W walk");
        expect_reconfig_counters(cache, 108 + 155, 1, 155, 1, 2, "8K_2W -> 4K_2W");
        expect_bank(cache, 0x0000, 0, "4K_2W keeps bank 0");
        expect_bank(cache, 0x0800, 1, "4K_2W keeps bank 1");
        expect_bank(cache, 0x1000, -1, "4K_2W drops bank 2");
        expect_bank(cache, 0x1800, -1, "4K_2W drops bank 3");
        stc_slot slot;
        stc_cache_slot(cache, 0, 0, &slot);
        CHECK(slot.valid && slot.dirty, "the kept line stays dirty");
        expect_bank_empty(cache, 2, "4K_2W");
        expect_bank_empty(cache, 3, "4K_2W");
        expect_invariant(cache, "8K_2W -> 4K_2W");
        stc_cache_destroy(cache);
    }

    /* 4K_1W -> 8K_2W: g = 2 both, size grows: wake banks 2 and 3 (2 x 4 = 8)
     * + the controller's 1 = 9, no walk, every line still found. */
    cache = make_cache(geometry, STC_DCACHE, "4K_1W_16B", port);
    if (cache) {
        timed(cache, STC_OP_READ, 0x0000);  /* bank 0 */
        timed(cache, STC_OP_READ, 0x0800);  /* bank 1 */
        timed(cache, STC_OP_WRITE, 0x1810); /* bank 1, row 1, dirty; 3 misses x 27 = 81 */
        log_clear(memory);
        reconfigure_to(cache, "8K_2W_16B", &result);
        expect_reconfig(&result, 9, 2, 0, 0, 0, 0, "4K_1W -> 8K_2W");
        CHECK_EQ_U64(memory->log_count, 0, "4K_1W -> 8K_2W touched memory");
        expect_reconfig_counters(cache, 81 + 9, 1, 9, 0, 0, "4K_1W -> 8K_2W");
        expect_bank(cache, 0x0000, 0, "8K_2W keeps");
        expect_bank(cache, 0x0800, 1, "8K_2W keeps");
        expect_bank(cache, 0x1810, 1, "8K_2W keeps");
        expect_invariant(cache, "4K_1W -> 8K_2W");

        /* 8K_2W -> 2K_1W: banks 1..3 go off (walk them), g 2 -> 1. Bank 1
         * holds 0x0800 (clean) and 0x1810 (dirty): 128 + 24 + 1 + 2 = 155. */
        log_clear(memory);
        reconfigure_to(cache, "2K_1W_16B", &result);
        expect_reconfig(&result, 155, 0, 3, 128, 1, 2, "8K_2W -> 2K_1W");
        const memory_transaction walk[] = {{'W', 0x1810, 16}};
        expect_log(memory, walk, 1, "8K_2W -> 2K_1W walk");
        expect_reconfig_counters(cache, 81 + 9 + 155, 2, 164, 1, 2, "8K_2W -> 2K_1W");
        expect_bank(cache, 0x0000, 0, "2K_1W keeps bank 0");
        expect_invariant(cache, "8K_2W -> 2K_1W");

        /* And back up to 8K_4W: wake 3 banks (12) + 1; g stays 1, no walk. */
        reconfigure_to(cache, "8K_4W_16B", &result);
        expect_reconfig(&result, 13, 3, 0, 0, 0, 0, "2K_1W -> 8K_4W");
        expect_bank(cache, 0x0000, 0, "8K_4W keeps bank 0");
        expect_bank_empty(cache, 1, "woken bank");
        expect_invariant(cache, "2K_1W -> 8K_4W");
        stc_cache_destroy(cache);
    }
}

static void test_timing(void)
{
    stc_geometry geometry;
    if (!make_geometry("", &geometry)) {
        return;
    }
    test_memory memory;
    stc_memory port = memory_open(&memory);
    test_timing_accesses(&memory, &port, &geometry);
    test_timing_reconfig(&memory, &port, &geometry);
    memory_close(&memory);

    /* Other memory parameters: T_mem = 30, T_wake = 7, P = 32 (8 beats).
     * 32 B miss 1 + 30 + 8 + 2 = 41; 64 B logical line (2 sublines)
     * 1 + 30 + 16 + 2 = 49; 2K_1W -> 4K_1W: 7 + R (2048/32 = 64)
     * + 1 = 72. */
    stc_geometry slow;
    if (make_geometry("mem_latency=30,wake_cycles=7,line_bytes=32", &slow)) {
        stc_cache *cache = make_cache(&slow, STC_DCACHE, "8K_4W_32B", NULL);
        if (cache) {
            CHECK_EQ_U64(touch(cache, STC_OP_READ, 0x40).cycles, 41, "slow 32B miss");
            stc_cache_destroy(cache);
        }
        cache = make_cache(&slow, STC_DCACHE, "2K_1W_64B", NULL);
        if (cache) {
            CHECK_EQ_U64(touch(cache, STC_OP_READ, 0x40).cycles, 49, "slow 64B miss");
            stc_reconfig_result result;
            reconfigure_to(cache, "4K_1W_64B", &result);
            expect_reconfig(&result, 72, 1, 0, 64, 0, 0, "slow 2K_1W -> 4K_1W");
            stc_cache_destroy(cache);
        }
    }
}

/* ---------------------------------------------------------------------------
 * 8. textbook (section 11): an independent conventional cache.
 */

/* A set-associative cache as in any textbook: sets x ways logical lines,
 * each set's lines kept in recency order (index 0 most recent), empty ways
 * used first, write-allocate (a store behaves like a load for hit/miss). */
typedef struct {
    unsigned ways;
    uint64_t sets;       /* power of two */
    unsigned line_shift; /* log2 of the logical line */
    uint64_t *lines;     /* sets x ways logical line numbers */
    unsigned *used;      /* valid entries per set */
} textbook_cache;

static bool textbook_open(textbook_cache *cache, uint64_t size_bytes, unsigned ways,
                          unsigned line_bytes)
{
    cache->ways = ways;
    cache->sets = size_bytes / ((uint64_t)ways * line_bytes);
    cache->line_shift = 0;
    while ((1u << cache->line_shift) < line_bytes) {
        cache->line_shift++;
    }
    cache->lines = calloc(cache->sets * ways, sizeof *cache->lines);
    cache->used = calloc(cache->sets, sizeof *cache->used);
    return cache->lines && cache->used;
}

static void textbook_close(textbook_cache *cache)
{
    free(cache->lines);
    free(cache->used);
}

static bool textbook_access(textbook_cache *cache, uint64_t addr)
{
    uint64_t line = addr >> cache->line_shift;
    uint64_t set = line & (cache->sets - 1);
    uint64_t *entries = cache->lines + set * cache->ways;
    unsigned used = cache->used[set];
    for (unsigned i = 0; i < used; i++) {
        if (entries[i] == line) {
            memmove(entries + 1, entries, i * sizeof *entries);
            entries[0] = line;
            return true;
        }
    }
    /* Miss: take an empty way if any, else drop the least recent (last). */
    unsigned keep = used < cache->ways ? used : cache->ways - 1;
    if (used < cache->ways) {
        cache->used[set] = used + 1;
    }
    memmove(entries + 1, entries, keep * sizeof *entries);
    entries[0] = line;
    return false;
}

/* A reproducible reference stream with locality: hot regions (one straddles
 * the top of the 32-bit space, so requests wrap), strided walkers (one with
 * a stride of a bank plus a line, which piles onto few rows), random
 * references over 1 MiB, and re-references of recent addresses. */
typedef struct {
    uint64_t state;
    uint64_t walker[4];
    uint64_t recent[16];
    unsigned recent_next;
} reference_stream;

typedef struct {
    stc_op op;
    uint64_t addr;
    unsigned bytes;
} reference;

static uint64_t stream_random(reference_stream *stream)
{
    stream->state = stream->state * 6364136223846793005ull + 1442695040888963407ull;
    return stream->state >> 24;
}

static reference stream_next(reference_stream *stream)
{
    /* A small "stack" region that fits every configuration, then larger
     * regions that fit some configurations and not others. */
    static const struct {
        uint64_t base, bytes;
    } hot[] = {{0x7fff0f00, 512}, {0x00010000, 1024}, {0x00023400, 2048}, {0x40000000, 4096},
               {0xfffff800, 2048}};
    static const uint64_t walker_base[] = {0x00100000, 0x00200000, 0x00300000, 0x00400000};
    static const uint64_t walker_stride[] = {4, 16, 2048 + 16, 4096 + 8};
    reference ref;
    uint64_t pick = stream_random(stream) % 100;
    uint64_t random = stream_random(stream);
    if (pick < 30) {
        ref.addr = hot[0].base + (random >> 8) % hot[0].bytes;
    } else if (pick < 50) {
        unsigned region = 1 + (unsigned)(random % 4);
        ref.addr = hot[region].base + (random >> 8) % hot[region].bytes;
    } else if (pick < 75) {
        unsigned walker = (unsigned)(random % 4);
        stream->walker[walker] = (stream->walker[walker] + walker_stride[walker]) % 65536;
        ref.addr = walker_base[walker] + stream->walker[walker] + (random >> 8) % 4;
    } else if (pick < 85) {
        ref.addr = 0x00800000 + (random >> 8) % (1u << 20);
    } else {
        ref.addr = stream->recent[random % 16] + (random >> 8) % 16 - 8;
    }
    ref.addr &= 0xffffffffu;
    stream->recent[stream->recent_next++ % 16] = ref.addr;
    uint64_t kind = stream_random(stream) % 10;
    ref.op = kind < 6 ? STC_OP_READ : kind < 9 ? STC_OP_WRITE : STC_OP_MODIFY;
    ref.bytes = 1 + (unsigned)(stream_random(stream) % 8);
    return ref;
}

enum { TEXTBOOK_REQUESTS = 200000, MAX_PIECES = 4 };

/* Run the stream through a fresh stc cache in `config` and through the
 * textbook cache of the same shape; returns the textbook miss ratio x 1000
 * (so the caller can see the stream exercises both hits and misses). */
static unsigned compare_with_textbook(const stc_geometry *geometry, const stc_config *config,
                                      const char *geometry_name)
{
    char name[STC_CONFIG_NAME_MAX];
    stc_config_name(geometry, config, name, sizeof name);
    char err[ERR_LEN] = "";
    stc_cache *cache = stc_cache_create(geometry, STC_DCACHE, config, NULL, err, sizeof err);
    CHECK(cache != NULL, "%s %s: %s", geometry_name, name, err);
    textbook_cache textbook;
    unsigned line_bytes = config->sublines * geometry->line_bytes;
    bool opened = textbook_open(&textbook, (uint64_t)config->banks_on * geometry->bank_bytes,
                                config->ways, line_bytes);
    CHECK(opened, "textbook cache allocation");
    unsigned ratio = 0;
    if (cache && opened) {
        reference_stream stream;
        memset(&stream, 0, sizeof stream);
        stream.state = 2004; /* same stream for every configuration */
        uint64_t accesses = 0, misses = 0, request_misses = 0;
        const uint64_t line_mask = geometry->line_bytes - 1;
        for (unsigned n = 0; n < TEXTBOOK_REQUESTS; n++) {
            reference ref = stream_next(&stream);
            /* Split at physical-line boundaries, as section 12 says. */
            uint64_t piece_addr[MAX_PIECES];
            unsigned pieces = 0;
            for (unsigned done = 0; done < ref.bytes && pieces < MAX_PIECES;) {
                uint64_t addr = (ref.addr + done) & 0xffffffffu;
                unsigned span = geometry->line_bytes - (unsigned)(addr & line_mask);
                piece_addr[pieces++] = addr;
                done += span;
            }
            /* The model's outcome per piece, read before the request: present
             * now, or in the same logical line as an earlier piece (which that
             * piece's access brings in). */
            bool model_hit[MAX_PIECES];
            unsigned model_missed = 0, textbook_missed = 0;
            bool agree = true;
            for (unsigned p = 0; p < pieces; p++) {
                model_hit[p] = stc_cache_lookup(cache, piece_addr[p]) >= 0;
                for (unsigned earlier = 0; earlier < p; earlier++) {
                    if (piece_addr[earlier] >> textbook.line_shift ==
                        piece_addr[p] >> textbook.line_shift) {
                        model_hit[p] = true;
                    }
                }
                model_missed += model_hit[p] ? 0 : 1;
                bool textbook_hit = textbook_access(&textbook, piece_addr[p]);
                textbook_missed += textbook_hit ? 0 : 1;
                if (textbook_hit != model_hit[p]) {
                    agree = false;
                }
            }
            int missed = stc_cache_request(cache, ref.op, ref.addr, ref.bytes, NULL, NULL, NULL);
            accesses += pieces;
            misses += textbook_missed;
            request_misses += textbook_missed ? 1 : 0;
            if (!agree || missed != (int)model_missed) {
                CHECK(false,
                      "%s %s request %u (%d at 0x%llx, %u B): model %d missed pieces (%u "
                      "predicted by lookup), textbook %u",
                      geometry_name, name, n, (int)ref.op, (unsigned long long)ref.addr,
                      ref.bytes, missed, model_missed, textbook_missed);
                break; /* one report per configuration is enough */
            }
        }
        const stc_counters *counters = stc_cache_counters(cache);
        CHECK_EQ_U64(counters->misses, misses, "%s %s misses", geometry_name, name);
        CHECK_EQ_U64(counters->request_misses, request_misses, "%s %s request misses",
                     geometry_name, name);
        CHECK_EQ_U64(counters->accesses, accesses, "%s %s accesses", geometry_name, name);
        CHECK_EQ_U64(counters->requests, TEXTBOOK_REQUESTS, "%s %s requests", geometry_name,
                     name);
        CHECK(!config->way_predict ||
                  counters->first_probe_hits + counters->second_probe_hits + counters->misses ==
                      counters->accesses,
              "%s %s: probe outcomes do not add up to accesses", geometry_name, name);
        char where[96];
        snprintf(where, sizeof where, "%s %s after the stream", geometry_name, name);
        expect_invariant(cache, where);
        ratio = accesses ? (unsigned)(misses * 1000 / accesses) : 0;
    }
    textbook_close(&textbook);
    stc_cache_destroy(cache);
    return ratio;
}

static void test_textbook(void)
{
    static const char *const geometries[] = {"", "banks=2", "banks=8", "line_bytes=32",
                                             "bank_bytes=1024"};
    for (size_t g = 0; g < sizeof geometries / sizeof geometries[0]; g++) {
        stc_geometry geometry;
        if (!make_geometry(geometries[g], &geometry)) {
            continue;
        }
        const char *geometry_name = geometries[g][0] ? geometries[g] : "default";
        stc_config configs[STC_MAX_CONFIGS];
        size_t count = stc_config_enumerate(&geometry, configs, STC_MAX_CONFIGS);
        if (g == 0) {
            CHECK_EQ_U64(count, 27, "default configurations for the textbook run");
        }
        for (size_t c = 0; c < count && c < STC_MAX_CONFIGS; c++) {
            unsigned ratio = compare_with_textbook(&geometry, &configs[c], geometry_name);
            /* The stream must test something: neither all hits nor all
             * misses (per mille). */
            CHECK(ratio > 20 && ratio < 700, "%s configuration %zu: miss ratio %u/1000 is not "
                                             "mid-range", geometry_name, c, ratio);
        }
    }
}

/* ---------------------------------------------------------------------------
 * 9. counters_saturate (section 9)
 */

static void test_counters_saturate(void)
{
    CHECK_EQ_U64(stc_counter_saturate(0, 16), 0, "0 in 16 bits");
    CHECK_EQ_U64(stc_counter_saturate(1234, 16), 1234, "1234 in 16 bits");
    CHECK_EQ_U64(stc_counter_saturate(0xffff, 16), 0xffff, "max in 16 bits");
    CHECK_EQ_U64(stc_counter_saturate(0x10000, 16), 0xffff, "max + 1 in 16 bits saturates");
    CHECK_EQ_U64(stc_counter_saturate(UINT64_MAX, 16), 0xffff, "2^64-1 in 16 bits saturates");
    CHECK_EQ_U64(stc_counter_saturate(0, 64), 0, "0 in 64 bits");
    CHECK(stc_counter_saturate(UINT64_MAX, 64) == UINT64_MAX, "max in 64 bits");
    CHECK(stc_counter_saturate(UINT64_MAX - 1, 64) == UINT64_MAX - 1, "max - 1 in 64 bits");
    CHECK_EQ_U64(stc_counter_saturate(0x100000000ull, 32), 0xffffffffu, "2^32 in 32 bits");
    CHECK_EQ_U64(stc_counter_saturate(2, 1), 1, "2 in 1 bit");
    CHECK_EQ_U64(stc_counter_saturate(1ull << 62, 63), 1ull << 62, "2^62 in 63 bits");
    /* A derived counter (reads = accesses - writes) is exact below its
     * total's saturation, all ones from there. */
    CHECK_EQ_U64(stc_counter_derived(1000, 600, 16), 600, "derived below saturation");
    CHECK_EQ_U64(stc_counter_derived(0xfffe, 0x1000, 16), 0x1000, "derived, total one below max");
    CHECK_EQ_U64(stc_counter_derived(0xffff, 0x1000, 16), 0xffff, "derived, total at max");
    CHECK_EQ_U64(stc_counter_derived(0x30000, 0x1000, 16), 0xffff, "derived, total saturated");
    CHECK(stc_counter_derived(UINT64_MAX - 1, 5, 64) == 5, "derived in 64 bits");

    /* stc_counters_add adds every field. */
    stc_counters total, part;
    memset(&total, 0, sizeof total);
    memset(&part, 0, sizeof part);
    part.requests = 3;
    part.walk_invalidations = 5;
    part.cycles = 7;
    stc_counters_add(&total, &part);
    stc_counters_add(&total, &part);
    CHECK(total.requests == 6 && total.walk_invalidations == 10 && total.cycles == 14 &&
              total.misses == 0,
          "counters_add");
}

/* Clearing the counters (the hardware's write to its counter block) zeroes
 * every counter and nothing else: the cache keeps its lines. */
static void test_clear_counters(void)
{
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    char err[ERR_LEN];
    CHECK(stc_geometry_init(&geometry, err, sizeof err) == 0, "%s", err);
    stc_cache *cache = make_cache(&geometry, STC_DCACHE, "8K_2W_16B_P", NULL);
    if (!cache) {
        return;
    }
    touch(cache, STC_OP_WRITE, 0x1000);
    touch(cache, STC_OP_READ, 0x2000);
    CHECK(stc_cache_counters(cache)->accesses == 2, "two accesses counted");
    stc_cache_clear_counters(cache);
    stc_counters zero;
    memset(&zero, 0, sizeof zero);
    CHECK(memcmp(stc_cache_counters(cache), &zero, sizeof zero) == 0, "counters not all zero");
    stc_access_result again = touch(cache, STC_OP_READ, 0x1000);
    CHECK(again.hit, "the line written before the clear must still hit");
    CHECK_EQ_U64(stc_cache_counters(cache)->accesses, 1, "accesses after the clear");
    CHECK_EQ_U64(stc_cache_counters(cache)->misses, 0, "misses after the clear");
    CHECK_EQ_U64(stc_cache_counters(cache)->second_probe_hits, 1,
                 "0x2000 was most recent, so 0x1000 is a second-probe hit");
    stc_cache_destroy(cache);
}


/* ---------------------------------------------------------------------------
 * Hits by LRU depth (stc_cache_track_depths): in a cache of a ways, the
 * same stream from empty misses in a' ways of the same set mapping exactly
 * misses(a) + hits at depth >= a', and with way prediction its first-probe
 * hits are the depth-0 hits. Checked against real caches of every smaller
 * configuration, with repeats (the trace fast path) and straddles.
 */
static void depth_case(const stc_geometry *geometry, const char *probe_name,
                       const char *const *smaller, size_t smaller_count, unsigned seed)
{
    stc_cache *probe = make_cache(geometry, STC_DCACHE, probe_name, NULL);
    stc_cache *others[4] = {NULL};
    for (size_t index = 0; index < smaller_count; index++) {
        others[index] = make_cache(geometry, STC_DCACHE, smaller[index], NULL);
    }
    if (!probe) {
        return;
    }
    stc_cache_track_depths(probe, true);
    uint64_t state = seed;
    for (unsigned step = 0; step < 200000; step++) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        unsigned pick = (unsigned)(state >> 33);
        /* A hot 6 KB region, a cold 64 KB one, and runs of repeats. */
        uint64_t addr = (pick & 3) ? 0x10000 + (pick >> 4) % 6144 : 0x40000 + (pick >> 4) % 65536;
        stc_op op = (pick >> 2 & 3) == 0 ? STC_OP_WRITE : STC_OP_READ;
        unsigned bytes = (pick >> 24 & 7) == 0 ? 8 : 4;
        unsigned repeat = (pick >> 27 & 3) == 0 ? 3 : 1;
        for (unsigned again = 0; again < repeat; again++) {
            stc_cache_request(probe, op, addr, bytes, NULL, NULL, NULL);
            for (size_t index = 0; index < smaller_count; index++) {
                if (others[index]) {
                    stc_cache_request(others[index], op, addr, bytes, NULL, NULL, NULL);
                }
            }
        }
    }
    const stc_counters *probe_counters = stc_cache_counters(probe);
    const uint64_t *depths = stc_cache_depth_hits(probe);
    uint64_t hits = 0;
    for (unsigned depth = 0; depth < STC_MAX_BANKS; depth++) {
        hits += depths[depth];
    }
    CHECK_EQ_U64(hits + probe_counters->misses, probe_counters->accesses,
                 "%s: every access is a miss or a hit at some depth", probe_name);
    if (stc_cache_config(probe)->way_predict) {
        CHECK_EQ_U64(depths[0], probe_counters->first_probe_hits,
                     "%s: depth-0 hits are the first-probe hits", probe_name);
    }
    for (size_t index = 0; index < smaller_count; index++) {
        if (!others[index]) {
            continue;
        }
        const stc_config *config = stc_cache_config(others[index]);
        uint64_t deeper = 0;
        for (unsigned depth = config->ways; depth < STC_MAX_BANKS; depth++) {
            deeper += depths[depth];
        }
        CHECK_EQ_U64(probe_counters->misses + deeper, stc_cache_counters(others[index])->misses,
                     "%s's depths give %s's misses", probe_name, smaller[index]);
        if (config->way_predict) {
            CHECK_EQ_U64(depths[0], stc_cache_counters(others[index])->first_probe_hits,
                         "%s's depth-0 hits are %s's first-probe hits", probe_name,
                         smaller[index]);
        }
        stc_cache_destroy(others[index]);
    }
    stc_cache_clear_counters(probe);
    CHECK_EQ_U64(stc_cache_depth_hits(probe)[0], 0, "clearing the counters clears the depths");
    stc_cache_destroy(probe);
}

static void test_depth_hits(void)
{
    stc_geometry geometry;
    if (!make_geometry("", &geometry)) {
        return;
    }
    static const char *const one_group[] = {"2K_1W_16B", "4K_2W_16B", "4K_2W_16B_P"};
    depth_case(&geometry, "8K_4W_16B_P", one_group, 3, 1);
    static const char *const one_group_64[] = {"2K_1W_64B", "4K_2W_64B_P", "8K_4W_64B"};
    depth_case(&geometry, "8K_4W_64B", one_group_64, 3, 2);
    static const char *const two_groups[] = {"4K_1W_32B", "8K_2W_32B"};
    depth_case(&geometry, "8K_2W_32B_P", two_groups, 2, 3);
    stc_geometry eight;
    if (make_geometry("banks=8,bank_bytes=1024", &eight)) {
        static const char *const eight_ways[] = {"1K_1W_16B", "2K_2W_16B_P", "4K_4W_16B"};
        depth_case(&eight, "8K_8W_16B_P", eight_ways, 3, 4);
    }
}

int main(void)
{
    static const struct {
        const char *name;
        void (*run)(void);
    } groups[] = {
        {"mapping", test_mapping},
        {"lru", test_lru},
        {"logical_lines", test_logical_lines},
        {"straddle", test_straddle},
        {"write_back", test_write_back},
        {"way_prediction", test_way_prediction},
        {"timing", test_timing},
        {"textbook", test_textbook},
        {"counters_saturate", test_counters_saturate},
        {"clear_counters", test_clear_counters},
        {"depth_hits", test_depth_hits},
    };
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        unsigned long failed_before = check_failed_count;
        groups[g].run();
        /* Name the group on failure so a report says which rule broke. */
        if (check_failed_count != failed_before) {
            fprintf(stderr, "test_cache: group %s: %lu failed\n", groups[g].name,
                    check_failed_count - failed_before);
        }
    }
    return check_done("test_cache");
}
