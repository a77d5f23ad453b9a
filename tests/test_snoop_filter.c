/*
 * test_snoop_filter.c - the exclude snoop filter (snoop_filter.h) alone and
 * in the coherent model (coherent.h; docs/COHERENCE.md 9.8):
 *  - parsing and checking of its configuration;
 *  - the filter alone: a block recorded absent is filtered, a fill drops
 *    it, sub-block entries, LRU replacement, its counters;
 *  - hand-built sequences in the model whose outcome is worked out below
 *    (a block snooped twice while absent: the second snoop is filtered; a
 *    block filled after being recorded absent: the next snoop probes);
 *  - safety on random traffic: many cores, few lines, every protocol and
 *    several filter shapes, run side by side with the same system without
 *    a filter: every load's value, every counter but snoop_lookups and
 *    every final state are the same, and snoop_lookups + snoops_filtered
 *    equals the unfiltered snoop_lookups (the model also checks, at every
 *    filtered snoop, that the tags hold no copy, and aborts if they do);
 *  - a deliberately broken filter (a fill keeps the block's bit) makes
 *    that check abort, with a message naming the cores, the transaction,
 *    the block and its state (run in a child process).
 */
#include "check.h"
#include "splitmix.h"
#include "coherent.h"
#include "snoop_filter.h"

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { ERR_LEN = 256 };

static const stc_coh_protocol all_protocols[] = {STC_COH_MSI, STC_COH_MESI, STC_COH_MOESI};
enum { PROTOCOLS = sizeof all_protocols / sizeof all_protocols[0] };

static stc_sf_config exclude(uint32_t sets, uint32_t ways, uint32_t blocks)
{
    return (stc_sf_config){.kind = STC_SF_EXCLUDE, .sets = sets, .ways = ways, .blocks = blocks};
}

static stc_coh_system *make(stc_coh_protocol protocol, unsigned cores, uint32_t size, uint32_t ways,
                            stc_sf_config filter)
{
    stc_coh_config config = {.cores = cores, .size_bytes = size, .ways = ways, .line_bytes = 32,
                             .protocol = protocol, .snoop_filter = filter};
    char err[ERR_LEN] = "";
    stc_coh_system *system = stc_coh_create(&config, err, sizeof err);
    CHECK(system != NULL, "create: %s", err);
    if (!system)
        exit(check_done("test_snoop_filter"));
    return system;
}

static void ref_access(stc_coh_system *s, unsigned core, stc_coh_op op, uint64_t addr)
{
    int rc = stc_coh_access(s, core, op, addr, 4, 0x1000 + addr, NULL);
    CHECK(rc == 0, "access: %s", stc_coh_error(s));
}

static const stc_sf_counters *fc(const stc_coh_system *s, unsigned core)
{
    return stc_coh_filter_counters(s, core);
}

/* ------------------------------------------------------------ parsing */

static void test_parse(void)
{
    stc_sf_config c;
    char err[ERR_LEN];
    CHECK(stc_sf_parse("exclude", &c, err, sizeof err) == 0 && c.kind == STC_SF_EXCLUDE &&
              c.sets == STC_SF_DEFAULT_SETS && c.ways == STC_SF_DEFAULT_WAYS &&
              c.blocks == STC_SF_DEFAULT_BLOCKS,
          "exclude: the defaults");
    CHECK(stc_sf_parse("exclude:16x2:4", &c, err, sizeof err) == 0 && c.sets == 16 && c.ways == 2 &&
              c.blocks == 4,
          "exclude:16x2:4");
    CHECK(stc_sf_parse("exclude:1x1", &c, err, sizeof err) == 0 && c.sets == 1 && c.ways == 1 &&
              c.blocks == 1,
          "exclude:1x1: one block per entry unless given");
    CHECK(stc_sf_parse("none", &c, err, sizeof err) == 0 && c.kind == STC_SF_NONE, "none");
    static const struct {
        const char *text, *message;
    } bad[] = {
        {"jetty", "expected none, exclude"},
        {"excludes", "expected none, exclude"},
        {"exclude:", "expected none"},
        {"exclude:32", "expected none"},
        {"exclude:32x", "expected none"},
        {"exclude:x4", "expected none"},
        {"exclude:32x4:", "expected none"},
        {"exclude:32x4:1:1", "expected none"},
        {"exclude:-1x4", "expected none"},
        {"exclude:24x4", "sets must be a power of two"},
        {"exclude:8192x4", "sets must be a power of two"},
        {"exclude:0x4", "sets must be a power of two"},
        {"exclude:32x0", "ways must be 1..16"},
        {"exclude:32x17", "ways must be 1..16"},
        {"exclude:32x4:3", "blocks per entry must be"},
        {"exclude:32x4:16", "blocks per entry must be"},
        {"exclude:99999999x4", "expected none"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        c = exclude(2, 2, 2);
        int rc = stc_sf_parse(bad[i].text, &c, err, sizeof err);
        CHECK(rc != 0 && strstr(err, bad[i].text) && strstr(err, bad[i].message) && c.sets == 2,
              "'%s': rc %d, '%s' (want '%s', config untouched)", bad[i].text, rc, err,
              bad[i].message);
    }
    stc_coh_config config = {.cores = 2, .size_bytes = 8192, .ways = 4, .line_bytes = 32,
                             .protocol = STC_COH_MESI, .snoop_filter = exclude(3, 1, 1)};
    CHECK(stc_coh_create(&config, err, sizeof err) == NULL && strstr(err, "snoop filter"),
          "the model refuses a bad filter: %s", err);
    char text[80];
    stc_sf_describe(&(stc_sf_config){.kind = STC_SF_NONE}, text, sizeof text);
    CHECK(!strcmp(text, "none"), "describe none: %s", text);
    c = exclude(32, 4, 1);
    stc_sf_describe(&c, text, sizeof text);
    CHECK(!strcmp(text, "exclude 32x4, 1 block per entry"), "describe: %s", text);
    unsigned row, tag, lru;
    stc_sf_row_bits(&c, 32, 32, &row, &tag, &lru);
    CHECK(tag == 22 && lru == 8 && row == 4 * 23 + 8, "32x4:1 row %u tag %u lru %u", row, tag, lru);
}

/* ------------------------------------------------------------ the filter alone */

static void test_filter_alone(void)
{
    stc_sf_config config = exclude(1, 2, 1);
    stc_sf *f = stc_sf_create(&config);
    CHECK(!stc_sf_snoop(f, 7), "empty: every snoop probes");
    stc_sf_probe_missed(f, 7);
    CHECK(stc_sf_snoop(f, 7), "recorded absent: filtered");
    CHECK(!stc_sf_snoop(f, 8), "another block probes");
    stc_sf_fill(f, 7);
    CHECK(!stc_sf_snoop(f, 7), "filled: the entry is dropped, the snoop probes");
    /* LRU: 1 set of 2 ways; A, B recorded, A used, C replaces B. */
    stc_sf_probe_missed(f, 10);
    stc_sf_probe_missed(f, 11);
    CHECK(stc_sf_snoop(f, 10), "A filtered (and most recent)");
    stc_sf_probe_missed(f, 12);
    CHECK(stc_sf_snoop(f, 10) && stc_sf_snoop(f, 12) && !stc_sf_snoop(f, 11),
          "C replaced the least recent, B");
    const stc_sf_counters *k = stc_sf_counters_of(f);
    /* snoops: 7 7 8 7 10 10 12 11 = 8, fill 1; filtered 7 10 10 12; records
     * 7 10 11 12, clear 7, LRU writes of 4 filtered snoops. */
    CHECK_EQ_U64(k->filter_lookups, 9, "lookups: 8 snoops and a fill");
    CHECK_EQ_U64(k->snoops_filtered, 4, "filtered");
    CHECK_EQ_U64(k->snoop_misses, 4, "records");
    CHECK_EQ_U64(k->filter_writes, 4 + 1 + 4, "writes: records, the clear, LRU of filtered");
    stc_sf_destroy(f);

    /* Sub-blocks: an entry covers 4 aligned blocks, one bit each. */
    config = exclude(4, 1, 4);
    f = stc_sf_create(&config);
    stc_sf_probe_missed(f, 8);
    CHECK(stc_sf_snoop(f, 8) && !stc_sf_snoop(f, 9), "only block 8's bit is set");
    stc_sf_probe_missed(f, 9);
    CHECK(stc_sf_snoop(f, 9) && stc_sf_snoop(f, 8), "9 joins the entry");
    stc_sf_fill(f, 8);
    CHECK(!stc_sf_snoop(f, 8) && stc_sf_snoop(f, 9), "a fill of 8 clears its bit only");
    stc_sf_probe_missed(f, 28); /* group 7, set 3 (8 and 9: group 2, set 2) */
    stc_sf_probe_missed(f, 44); /* group 11, set 3: replaces group 7 (1 way) */
    CHECK(!stc_sf_snoop(f, 28) && stc_sf_snoop(f, 44) && stc_sf_snoop(f, 9),
          "direct-mapped replacement within a set only");
    k = stc_sf_counters_of(f);
    CHECK_EQ_U64(k->filter_writes, 4 + 1, "1 way: no LRU writes; 4 records and a clear");
    stc_sf_destroy(f);
    config = exclude(3, 1, 1);
    CHECK(stc_sf_create(&config) == NULL, "a bad config makes no filter");
}

/* ------------------------------------------------------------ hand-built */

/* MSI, 3 cores, block X. Worked out by hand:
 *   1. c0 loads X: BusRd; c1 and c2 probe, miss, record X absent.
 *   2. c0 stores X: BusUpgr; c1 and c2 know X absent: both filtered.
 *   3. c1 loads X: its fill drops X from its filter; BusRd: c0 probes (M,
 *      supplies), c2 filtered.
 *   4. c2 stores X: its fill drops X; BusRdX: c0 (S) and c1 (S) probe, both
 *      invalidated: c1's probe is the one its fill made necessary.
 *   5. c0 loads X: BusRd; c1 probes (its copy was invalidated, and nothing
 *      recorded X absent since), misses, records; c2 probes (M: supplies,
 *      goes to S).
 *   6. c0 stores X: BusUpgr; c1 filtered (recorded in step 5), c2 probes
 *      (S: invalidated). */
static void test_hand_msi(void)
{
    stc_coh_system *s = make(STC_COH_MSI, 3, 8192, 4, exclude(32, 4, 1));
    stc_coh_system *plain = make(STC_COH_MSI, 3, 8192, 4, (stc_sf_config){0});
    const uint64_t X = 0x1000;
    struct {
        unsigned core;
        stc_coh_op op;
        /* after the step: per core snoop_lookups and snoops_filtered */
        uint64_t lookups[3], filtered[3];
    } steps[] = {
        {0, STC_COH_OP_LOAD, {0, 1, 1}, {0, 0, 0}},
        {0, STC_COH_OP_STORE, {0, 1, 1}, {0, 1, 1}},
        {1, STC_COH_OP_LOAD, {1, 1, 1}, {0, 1, 2}},
        {2, STC_COH_OP_STORE, {2, 2, 1}, {0, 1, 2}},
        {0, STC_COH_OP_LOAD, {2, 3, 2}, {0, 1, 2}},
        {0, STC_COH_OP_STORE, {2, 3, 3}, {0, 2, 2}},
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        ref_access(s, steps[i].core, steps[i].op, X);
        ref_access(plain, steps[i].core, steps[i].op, X);
        for (unsigned c = 0; c < 3; c++) {
            CHECK_EQ_U64(stc_coh_core_counters(s, c)->snoop_lookups, steps[i].lookups[c],
                         "step %zu core %u snoop_lookups", i + 1, c);
            CHECK_EQ_U64(fc(s, c)->snoops_filtered, steps[i].filtered[c],
                         "step %zu core %u snoops_filtered", i + 1, c);
            CHECK(stc_coh_state_of(s, c, X) == stc_coh_state_of(plain, c, X),
                  "step %zu core %u: the same state as without the filter", i + 1, c);
        }
    }
    /* step 4: c1's copy was invalidated by a probe its fill made possible */
    CHECK_EQ_U64(stc_coh_core_counters(s, 1)->inv_received, 1, "c1 invalidated in step 4");
    /* c1: probes missed in steps 1 and 5; fills in 3 (clears X), writes:
     * 2 records + 1 clear + 2 LRU writes of its filtered snoops. */
    CHECK_EQ_U64(fc(s, 1)->snoop_misses, 2, "c1 recorded X twice");
    CHECK_EQ_U64(fc(s, 1)->filter_lookups, 5 + 1, "c1: 5 snoops and one fill");
    CHECK_EQ_U64(fc(s, 1)->filter_writes, 2 + 1 + 2, "c1 writes");
    /* c0: no probe of c0 ever missed (X was there each time). */
    CHECK_EQ_U64(fc(s, 0)->snoop_misses, 0, "c0 never recorded X");
    CHECK_EQ_U64(fc(s, 0)->filter_lookups, 2 + 1 + 1, "c0: 2 snoops, fills in steps 1 and 5");
    stc_coh_counters a, b;
    stc_coh_total(s, &a);
    stc_coh_total(plain, &b);
    stc_sf_counters ft;
    stc_coh_filter_total(s, &ft);
    CHECK_EQ_U64(a.snoop_lookups + ft.snoops_filtered, b.snoop_lookups, "lookups + filtered");
    a.snoop_lookups = b.snoop_lookups;
    CHECK(!memcmp(&a, &b, sizeof a), "every other counter as without the filter");
    CHECK(stc_coh_violation_count(s) == 0, "no violation");
    CHECK(stc_coh_filter_counters(plain, 0) == NULL, "no filter: no filter counters");
    stc_coh_filter_total(plain, &ft);
    CHECK(ft.filter_lookups == 0 && ft.snoops_filtered == 0, "no filter: zero total");
    stc_coh_destroy(s);
    stc_coh_destroy(plain);
}

/* An eviction leaves nothing in the filter, so a snoop of the evicted block
 * probes once, then is filtered. MESI, 2 cores, 1-line caches. */
static void test_hand_eviction(void)
{
    stc_coh_system *s = make(STC_COH_MESI, 2, 32, 1, exclude(8, 2, 1));
    ref_access(s, 1, STC_COH_OP_LOAD, 0x0);  /* c1: E; c0 probes 0x0, records it */
    ref_access(s, 1, STC_COH_OP_LOAD, 0x20); /* c1 evicts 0x0 (E: silent); c0 records 0x20 */
    CHECK_EQ_U64(fc(s, 0)->snoop_misses, 2, "c0 recorded both");
    ref_access(s, 0, STC_COH_OP_LOAD, 0x0);  /* c0 fills 0x0 (clears); c1 probes: evicted, records */
    ref_access(s, 0, STC_COH_OP_STORE, 0x0); /* c0 E -> M silently: no transaction */
    ref_access(s, 0, STC_COH_OP_LOAD, 0x40); /* c0 evicts 0x0 (M: BusWB, c1 filtered), BusRd 0x40 (c1 probes) */
    CHECK_EQ_U64(stc_coh_core_counters(s, 0)->bus_wb, 1, "c0 wrote 0x0 back");
    CHECK_EQ_U64(fc(s, 1)->snoops_filtered, 1, "c1 filtered the BusWB of a block it evicted");
    CHECK_EQ_U64(stc_coh_core_counters(s, 1)->snoop_lookups, 2, "c1 probed 0x0 once, 0x40 once");
    ref_access(s, 1, STC_COH_OP_LOAD, 0x0); /* c1 refills 0x0: cleared; c0 probes (evicted) */
    ref_access(s, 0, STC_COH_OP_STORE, 0x0); /* c0 BusRdX: c1 must probe: it holds 0x0 */
    CHECK_EQ_U64(stc_coh_core_counters(s, 1)->inv_received, 1, "c1's refilled copy invalidated");
    CHECK_EQ_U64(stc_coh_core_counters(s, 1)->snoop_lookups, 3, "and probed for it");
    CHECK(stc_coh_violation_count(s) == 0, "no violation");
    stc_coh_destroy(s);
}

/* ------------------------------------------------------------ random safety */

typedef struct {
    unsigned cores;
    uint32_t size, ways; /* 32-byte lines */
    unsigned blocks;     /* distinct blocks touched */
    uint64_t stride;     /* bytes between them */
} random_layout;

/* Random traffic on a filtered and an unfiltered system side by side. */
static void random_pair(stc_coh_protocol protocol, const random_layout *where, stc_sf_config filter,
                        uint64_t seed, unsigned references)
{
    stc_coh_system *s = make(protocol, where->cores, where->size, where->ways, filter);
    stc_coh_system *plain = make(protocol, where->cores, where->size, where->ways,
                                 (stc_sf_config){0});
    char name[160];
    char shape[80];
    stc_sf_describe(&filter, shape, sizeof shape);
    snprintf(name, sizeof name, "%s, %u cores, %u blocks in %u B %u-way caches, %s, seed %llu",
             stc_coh_protocol_name(protocol), where->cores, where->blocks, where->size,
             where->ways, shape, (unsigned long long)seed);
    uint64_t value = 1;
    unsigned differ = 0;
    for (unsigned i = 0; i < references; i++) {
        uint64_t r = rng_next(&seed);
        unsigned core = (unsigned)(r % where->cores);
        uint64_t block = (r >> 8) % where->blocks;
        uint64_t addr = 0x40000 + block * where->stride + ((r >> 16) % 32);
        uint32_t size = 1u << ((r >> 24) % 4); /* 1..8: some straddle into the next line */
        stc_coh_op op = (r >> 28) % 5 < 2 ? STC_COH_OP_STORE : STC_COH_OP_LOAD;
        uint64_t got = 0, want = 0;
        if (stc_coh_access(s, core, op, addr, size, value, &got) != 0 ||
            stc_coh_access(plain, core, op, addr, size, value, &want) != 0) {
            CHECK(0, "%s: %s %s", name, stc_coh_error(s), stc_coh_error(plain));
            break;
        }
        value++;
        if (got != want && differ++ < 3)
            CHECK(got == want, "%s: reference %u loaded 0x%llx, without the filter 0x%llx", name, i,
                  (unsigned long long)got, (unsigned long long)want);
    }
    CHECK(differ == 0, "%s: %u loads differ", name, differ);
    CHECK(stc_coh_violation_count(s) == 0, "%s: violations", name);
    uint64_t filtered = 0;
    for (unsigned c = 0; c < where->cores; c++) {
        stc_coh_counters a = *stc_coh_core_counters(s, c);
        const stc_coh_counters *b = stc_coh_core_counters(plain, c);
        const stc_sf_counters *f = fc(s, c);
        CHECK_EQ_U64(a.snoop_lookups + f->snoops_filtered, b->snoop_lookups,
                     "%s core %u: lookups + filtered = unfiltered lookups", name, c);
        a.snoop_lookups = b->snoop_lookups;
        CHECK(!memcmp(&a, b, sizeof a), "%s core %u: every other counter as without the filter",
              name, c);
        /* Every snoop reads the filter, every fill too; every probe that
         * missed was recorded. */
        CHECK_EQ_U64(f->filter_lookups, b->snoop_lookups + a.misses,
                     "%s core %u: filter lookups = snoops + fills (every miss fills: no "
                     "correct table misses on a valid copy)",
                     name, c);
        filtered += f->snoops_filtered;
    }
    for (unsigned b = 0; b < where->blocks; b++)
        for (unsigned c = 0; c < where->cores; c++) {
            uint64_t addr = 0x40000 + b * where->stride;
            if (stc_coh_state_of(s, c, addr) != stc_coh_state_of(plain, c, addr)) {
                CHECK(0, "%s: block %u core %u: a different final state", name, b, c);
                b = where->blocks;
                break;
            }
        }
    CHECK(filtered > references / 20, "%s: the filter filtered (%llu)", name,
          (unsigned long long)filtered);
    stc_coh_destroy(s);
    stc_coh_destroy(plain);
}

static void test_random(void)
{
    static const random_layout layouts[] = {
        {8, 64, 1, 6, 32},    /* 8 cores, 2 lines each, 6 adjacent blocks */
        {8, 128, 2, 12, 32},  /* 8 cores, 2 sets of 2 ways, 12 adjacent blocks */
        {4, 256, 2, 6, 4096}, /* 4 cores, 4 sets, six blocks in one set: conflicts */
    };
    const stc_sf_config filters[] = {exclude(1, 1, 1), exclude(2, 2, 2), exclude(32, 4, 1),
                                     exclude(4, 1, 8)};
    uint64_t seed = 2024;
    for (size_t p = 0; p < PROTOCOLS; p++)
        for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
            for (size_t f = 0; f < sizeof filters / sizeof filters[0]; f++)
                random_pair(all_protocols[p], &layouts[l], filters[f], seed++, 20000);
}

/* ------------------------------------------------------------ the broken filter */

/* Run body in a child; returns its stderr (up to len) and whether it was
 * killed by SIGABRT. */
static bool aborts(void (*body)(void), char *text, size_t len)
{
    int fds[2];
    if (pipe(fds) != 0)
        return false;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDERR_FILENO);
        body();
        _exit(0); /* the check did not fire */
    }
    close(fds[1]);
    size_t used = 0;
    ssize_t got;
    while (used + 1 < len && (got = read(fds[0], text + used, len - 1 - used)) > 0)
        used += (size_t)got;
    text[used] = '\0';
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

/* The sequence of test_hand_msi with a filter whose fill keeps the bit: c1
 * records X absent (step 1), fills X (step 3) but keeps the bit, and c2's
 * BusRdX (step 4) is filtered at c1, which holds X in S. */
static void broken_hand(void)
{
    stc_sf_config filter = exclude(32, 4, 1);
    filter.broken = STC_SF_BREAK_KEEP_ON_FILL;
    stc_coh_system *s = make(STC_COH_MSI, 3, 8192, 4, filter);
    ref_access(s, 0, STC_COH_OP_LOAD, 0x1000);
    ref_access(s, 0, STC_COH_OP_STORE, 0x1000);
    ref_access(s, 1, STC_COH_OP_LOAD, 0x1000);
    ref_access(s, 2, STC_COH_OP_STORE, 0x1000);
    stc_coh_destroy(s);
}

static void broken_random(void)
{
    stc_sf_config filter = exclude(2, 2, 2);
    filter.broken = STC_SF_BREAK_KEEP_ON_FILL;
    static const random_layout where = {8, 64, 1, 6, 32};
    random_pair(STC_COH_MOESI, &where, filter, 7, 20000);
}

static void test_broken(void)
{
    char text[1024];
    CHECK(aborts(broken_hand, text, sizeof text), "a broken filter must abort: '%s'", text);
    CHECK(strstr(text, "snoop filter unsafe (exclude 32x4, 1 block per entry): reference 3, "
                       "core 2's BusRdX of block 0x1000 filtered out at core 1, which holds it in S"),
          "the message names what happened: '%s'", text);
    CHECK(aborts(broken_random, text, sizeof text) && strstr(text, "snoop filter unsafe"),
          "a broken filter aborts on random traffic: '%s'", text);
    /* The same runs with a sound filter do not abort. */
    CHECK(!aborts(test_hand_eviction, text, sizeof text), "a sound filter runs through: '%s'", text);
}

int main(void)
{
    test_parse();
    test_filter_alone();
    test_hand_msi();
    test_hand_eviction();
    test_random();
    test_broken();
    return check_done("test_snoop_filter");
}
