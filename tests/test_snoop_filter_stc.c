/*
 * test_snoop_filter_stc.c - the exclude snoop filter (snoop_filter.h) in
 * front of coherent configurable caches (coherent_stc.h;
 * docs/COHERENCE.md 11.10):
 *  - side by side on random traffic: every protocol, several filter
 *    shapes, cores in mixed configurations (16, 32 and 64 B logical lines,
 *    way prediction) with and without reconfigurations mid-run; the
 *    filtered system equals the unfiltered one in every loaded value,
 *    every coherence counter but snoop_lookups, every cache counter, every
 *    cycle count, every final state and memory byte, and snoop_lookups +
 *    snoops_filtered equals the unfiltered snoop_lookups; every snoop and
 *    every filled physical line reads the filter once;
 *  - a hand-worked trace where a 64 B core's logical-line fill brings a
 *    sibling physical line whose bit was set: the filtered snoops, probe
 *    misses, filter reads and writes of every core are counted by hand;
 *    and a reconfiguration that keeps the filter's knowledge;
 *  - a deliberately broken filter (a fill keeps the line's bit) makes the
 *    model's safety check abort, on that trace (the sibling fill) with a
 *    message naming the cores, the transaction, the line and its state,
 *    and on random traffic (each run in a child process).
 */
#include "check.h"
#include "test_configs.h"
#include "splitmix.h"
#include "coherent_stc.h"
#include "snoop_filter.h"

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { ERR_LEN = 256, MAX_TOUCHED = 4096 };

static const stc_coh_protocol all_protocols[] = {STC_COH_MSI, STC_COH_MESI, STC_COH_MOESI};
enum { PROTOCOLS = sizeof all_protocols / sizeof all_protocols[0] };

static stc_sf_config exclude(uint32_t sets, uint32_t ways, uint32_t blocks)
{
    return (stc_sf_config){.kind = STC_SF_EXCLUDE, .sets = sets, .ways = ways, .blocks = blocks};
}

/* A system of cores cores, core c in names[c % count], with filter (kind
 * STC_SF_NONE: none). */
static stc_cstc_system *make(stc_coh_protocol protocol, unsigned cores, const char *const *names,
                             unsigned count, stc_sf_config filter)
{
    stc_cstc_config config = {.cores = cores, .geometry = default_geometry(),
                              .protocol = protocol, .snoop_filter = filter};
    for (unsigned c = 0; c < cores; c++)
        config.configs[c] = default_config(names[c % count]);
    char err[ERR_LEN] = "";
    stc_cstc_system *system = stc_cstc_create(&config, err, sizeof err);
    CHECK(system != NULL, "create: %s", err);
    if (!system)
        exit(check_done("test_snoop_filter_stc"));
    return system;
}

static void ld(stc_cstc_system *s, unsigned core, uint64_t addr)
{
    CHECK(stc_cstc_access(s, core, STC_COH_OP_LOAD, addr, 4, 0, NULL) == 0, "load: %s",
          stc_cstc_error(s));
}

static void st(stc_cstc_system *s, unsigned core, uint64_t addr)
{
    CHECK(stc_cstc_access(s, core, STC_COH_OP_STORE, addr, 4, 0x1000 + addr, NULL) == 0,
          "store: %s", stc_cstc_error(s));
}

static const stc_sf_counters *fc(const stc_cstc_system *s, unsigned core)
{
    return stc_cstc_filter_counters(s, core);
}

static stc_cstc_counters counters_of(const stc_cstc_system *s, unsigned core)
{
    stc_cstc_counters counters;
    stc_cstc_core_counters(s, core, &counters);
    return counters;
}

/* ------------------------------------------------------------ side by side */

/* The filtered system s against the unfiltered u after the same
 * references: counters, cycles, the filter's identities. */
static void compare_cores(const stc_cstc_system *u, const stc_cstc_system *s, const char *what)
{
    for (unsigned c = 0; c < stc_cstc_config_of(s)->cores; c++) {
        stc_cstc_counters want = counters_of(u, c), got = counters_of(s, c);
        const stc_sf_counters *filter = fc(s, c);
        for (unsigned i = 0; i < STC_COH_COUNTER_COUNT; i++) {
            if (!strcmp(stc_coh_counter_name(i), "snoop_lookups"))
                continue;
            CHECK_EQ_U64(stc_coh_counter_value(&got.coherence, i),
                         stc_coh_counter_value(&want.coherence, i), "%s: core %u %s", what, c,
                         stc_coh_counter_name(i));
        }
        for (unsigned i = 0; i < STC_CSTC_CACHE_COUNTER_COUNT; i++)
            CHECK_EQ_U64(stc_cstc_cache_counter_value(&got.cache, i),
                         stc_cstc_cache_counter_value(&want.cache, i), "%s: core %u %s", what, c,
                         stc_cstc_cache_counter_name(i));
        CHECK_EQ_U64(got.coherence.snoop_lookups + filter->snoops_filtered,
                     want.coherence.snoop_lookups,
                     "%s: core %u snoop_lookups + snoops_filtered = unfiltered snoop_lookups",
                     what, c);
        /* every snoop reads the filter, and so does every physical line
         * the cache fills (cache_fills counts them) */
        CHECK_EQ_U64(filter->filter_lookups,
                     want.coherence.snoop_lookups + got.cache.fills,
                     "%s: core %u filter_lookups = snoops + fills", what, c);
        CHECK(filter->snoop_misses <= got.coherence.snoop_lookups,
              "%s: core %u: every recorded miss is a probe", what, c);
        const stc_coh_core_cycles *cu = stc_cstc_core_cycles_of(u, c);
        const stc_coh_core_cycles *cs = stc_cstc_core_cycles_of(s, c);
        CHECK(cu->cycles == cs->cycles && cu->stall_cycles == cs->stall_cycles &&
                  cu->bus_cycles == cs->bus_cycles,
              "%s: core %u cycles %llu/%llu/%llu, unfiltered %llu/%llu/%llu", what, c,
              (unsigned long long)cs->cycles, (unsigned long long)cs->stall_cycles,
              (unsigned long long)cs->bus_cycles, (unsigned long long)cu->cycles,
              (unsigned long long)cu->stall_cycles, (unsigned long long)cu->bus_cycles);
    }
    stc_coh_run_cycles ru, rs;
    stc_cstc_run_cycles_of(u, &ru);
    stc_cstc_run_cycles_of(s, &rs);
    CHECK(ru.cycles == rs.cycles && ru.bus_busy_cycles == rs.bus_busy_cycles,
          "%s: run cycles", what);
    CHECK_EQ_U64(stc_cstc_violation_count(s), stc_cstc_violation_count(u), "%s: violations", what);
    CHECK_EQ_U64(stc_cstc_violation_count(s), 0, "%s: no violation (first: %s)", what,
                 stc_cstc_violation_at(s, 0) ? stc_cstc_violation_at(s, 0)->text : "");
}

/* One random run of refs references through u (no filter) and s (filter)
 * in lockstep; every reconfigure_every references (0: never) a random core
 * of both takes a random legal configuration. Returns the filtered snoops. */
static uint64_t side_by_side(stc_coh_protocol protocol, const char *const *names, unsigned count,
                             stc_sf_config filter, unsigned reconfigure_every, uint64_t seed,
                             unsigned refs, const char *what)
{
    enum { CORES = 4 };
    stc_cstc_system *u = make(protocol, CORES, names, count, (stc_sf_config){0});
    stc_cstc_system *s = make(protocol, CORES, names, count, filter);
    stc_geometry geometry = default_geometry();
    stc_config all[STC_MAX_CONFIGS];
    size_t config_count = stc_config_enumerate(&geometry, all, STC_MAX_CONFIGS);
    static uint64_t touched[MAX_TOUCHED];
    unsigned touched_count = 0, loads_differ = 0;
    for (unsigned i = 0; i < refs; i++) {
        uint64_t r = rng_next(&seed);
        if (reconfigure_every && i % reconfigure_every == reconfigure_every - 1) {
            unsigned core = (unsigned)(r % CORES);
            const stc_config *next = &all[(r >> 8) % config_count];
            CHECK(stc_cstc_reconfigure(u, core, next, NULL) == 0 &&
                      stc_cstc_reconfigure(s, core, next, NULL) == 0,
                  "%s: reconfigure", what);
            r = rng_next(&seed);
        }
        /* a hot 512 B region shared by every core (false sharing inside
         * logical lines), and a wider one that causes replacements */
        unsigned core = (unsigned)(r % CORES);
        bool hot = (r >> 8) % 4 != 0;
        uint64_t addr = (r >> 12) % (hot ? 512 : 16 * 1024);
        uint32_t size = 1u << ((r >> 40) % 4);
        stc_coh_op op = (r >> 44) % 3 == 0 ? STC_COH_OP_STORE : STC_COH_OP_LOAD;
        uint64_t value = rng_next(&seed), got_u = 0, got_s = 0;
        stc_cstc_access(u, core, op, addr, size, value, &got_u);
        stc_cstc_access(s, core, op, addr, size, value, &got_s);
        loads_differ += got_u != got_s;
        if (touched_count < MAX_TOUCHED)
            touched[touched_count++] = addr;
    }
    CHECK_EQ_U64(loads_differ, 0, "%s: loaded values differ", what);
    compare_cores(u, s, what);
    unsigned states_differ = 0, memory_differs = 0;
    for (unsigned i = 0; i < touched_count; i++) {
        for (unsigned c = 0; c < CORES; c++)
            states_differ += stc_cstc_state_of(u, c, touched[i]) !=
                             stc_cstc_state_of(s, c, touched[i]);
        memory_differs += stc_cstc_memory_read(u, touched[i], 1) !=
                          stc_cstc_memory_read(s, touched[i], 1);
    }
    CHECK_EQ_U64(states_differ, 0, "%s: final states differ", what);
    CHECK_EQ_U64(memory_differs, 0, "%s: memory differs", what);
    char err[ERR_LEN] = "";
    CHECK(stc_cstc_check(s, err, sizeof err) == 0, "%s: layer check: %s", what, err);
    stc_cstc_counters total;
    stc_cstc_total(s, &total);
    if (reconfigure_every)
        CHECK(total.cache.reconfigs > refs / reconfigure_every / 2 &&
                  total.cache.walk_invalidations > 0,
              "%s: reconfigurations walked and dropped lines", what);
    stc_sf_counters filter_total;
    stc_cstc_filter_total(s, &filter_total);
    stc_cstc_destroy(u);
    stc_cstc_destroy(s);
    return filter_total.snoops_filtered;
}

static void test_side_by_side(void)
{
    static const char *const uniform[] = {"8K_4W_32B_P"};
    static const char *const mixed[] = {"8K_4W_64B", "2K_1W_16B", "4K_2W_32B_P", "8K_1W_16B"};
    static const char *const long_lines[] = {"4K_2W_64B_P", "8K_2W_32B", "2K_1W_64B",
                                             "8K_4W_16B"};
    static const struct {
        const char *const *names;
        unsigned count;
        const char *label;
    } sets[] = {{uniform, 1, "8K_4W_32B_P"}, {mixed, 4, "mixed"}, {long_lines, 4, "long lines"}};
    const stc_sf_config filters[] = {exclude(16, 1, 2), exclude(2, 2, 2), exclude(32, 4, 1),
                                     exclude(8, 1, 8)};
    unsigned run = 0;
    for (unsigned p = 0; p < PROTOCOLS; p++) {
        for (unsigned k = 0; k < sizeof sets / sizeof sets[0]; k++) {
            for (unsigned reconfigure = 0; reconfigure < 2; reconfigure++, run++) {
                stc_sf_config filter = filters[run % 4];
                char what[160], shape[80];
                stc_sf_describe(&filter, shape, sizeof shape);
                snprintf(what, sizeof what, "%s, %s, %s%s", stc_coh_protocol_name(all_protocols[p]),
                         sets[k].label, shape, reconfigure ? ", reconfigured" : "");
                uint64_t filtered =
                    side_by_side(all_protocols[p], sets[k].names, sets[k].count, filter,
                                 reconfigure ? 50 : 0, 1000 + run, 6000, what);
                CHECK(filtered > 100, "%s: only %llu snoops filtered", what,
                      (unsigned long long)filtered);
            }
        }
    }
}

/* ------------------------------------------------------------ by hand */

/* MSI; core 0 in 64 B logical lines, cores 1 and 2 in 16 B; a filter of
 * 32 x 4 entries, one 16 B physical line each. X = 0x1000..0x103f is one
 * logical line of core 0 and four physical lines P0..P3 (0x1000, 0x1010,
 * 0x1020, 0x1030):
 *   1. c1 loads P1: BusRd; c0 and c2 probe, miss, record P1.    c1: S
 *   2. c1 stores P1: BusUpgr; filtered at c0 and at c2.          c1: M
 *   3. c0 loads P0: a 64 B miss, BusRd of P0..P3; c0's fill of the
 *      SIBLING P1 clears its bit. c1 probes all four: misses P0, P2, P3
 *      (recorded), holds P1 in M (flush, M -> S); c2 probes P0, P2, P3
 *      (misses, recorded), P1 is filtered.                       c0: S S S S
 *   4. c1 stores P1: BusUpgr; c0 probes (its bit was cleared in 3) and
 *      drops its S copy; filtered at c2.                         c1: M
 *   5. c2 loads P0: BusRd; c0 probes (S); filtered at c1.
 *   6. c2 loads P2: BusRd; c0 probes (S); filtered at c1.
 * Filtered: c0 1, c1 2, c2 3. With a filter whose fills keep the bit, the
 * first line filled over a set bit is c0's sibling P1 in 3, and step 4 is
 * filtered at c0, which holds P1 in S: the model aborts there (reference
 * 3). */
static stc_cstc_system *hand_trace(stc_sf_config filter)
{
    static const char *const names[] = {"8K_4W_64B", "8K_4W_16B", "8K_4W_16B"};
    stc_cstc_system *s = make(STC_COH_MSI, 3, names, 3, filter);
    ld(s, 1, 0x1010);
    st(s, 1, 0x1010);
    ld(s, 0, 0x1000);
    st(s, 1, 0x1010);
    ld(s, 2, 0x1000);
    ld(s, 2, 0x1020);
    return s;
}

static void expect_filter(const stc_cstc_system *s, unsigned core, uint64_t filtered,
                          uint64_t misses, uint64_t lookups, uint64_t writes)
{
    const stc_sf_counters *f = fc(s, core);
    CHECK_EQ_U64(f->snoops_filtered, filtered, "hand: core %u snoops_filtered", core);
    CHECK_EQ_U64(f->snoop_misses, misses, "hand: core %u snoop_misses", core);
    CHECK_EQ_U64(f->filter_lookups, lookups, "hand: core %u filter_lookups", core);
    CHECK_EQ_U64(f->filter_writes, writes, "hand: core %u filter_writes", core);
}

static void test_hand(void)
{
    stc_cstc_system *s = hand_trace(exclude(32, 4, 1));
    /* probes: c0 in 1, 4, 5, 6; c1 four in 3; c2 in 1 and three in 3 */
    CHECK_EQ_U64(counters_of(s, 0).coherence.snoop_lookups, 4, "hand: c0 snoop_lookups");
    CHECK_EQ_U64(counters_of(s, 1).coherence.snoop_lookups, 4, "hand: c1 snoop_lookups");
    CHECK_EQ_U64(counters_of(s, 2).coherence.snoop_lookups, 4, "hand: c2 snoop_lookups");
    /* lookups: every snoop (filtered or not) and every filled line: c0 5
     * snoops + 4 lines, c1 6 + 1, c2 7 + 2. Writes: every recorded miss,
     * every filtered snoop (the LRU bits of a 4-way set), every fill that
     * clears a set bit (c0's P1 in 3, c2's P0 and P2 in 5 and 6). */
    expect_filter(s, 0, 1, 1, 9, 3);
    expect_filter(s, 1, 2, 3, 7, 5);
    expect_filter(s, 2, 3, 4, 9, 9);
    CHECK(stc_cstc_state_of(s, 0, 0x1010) == STC_COH_I &&
              stc_cstc_state_of(s, 1, 0x1010) == STC_COH_M &&
              stc_cstc_state_of(s, 0, 0x1000) == STC_COH_S &&
              stc_cstc_state_of(s, 0, 0x1030) == STC_COH_S &&
              stc_cstc_state_of(s, 2, 0x1020) == STC_COH_S,
          "hand: final states");
    CHECK_EQ_U64(stc_cstc_violation_count(s), 0, "hand: violations");
    /* The same trace without a filter: every other counter the same. */
    stc_cstc_system *u = hand_trace((stc_sf_config){0});
    compare_cores(u, s, "hand");
    stc_cstc_destroy(u);

    /* A reconfiguration keeps what the filter knows: c1 is shrunk to one
     * bank (its walk drops lines), and c2's BusRdX of P3 is still filtered
     * at c1, which recorded P3 absent in step 3 and never filled it. */
    uint64_t before = fc(s, 1)->snoops_filtered;
    stc_config small = default_config("2K_1W_16B");
    CHECK(stc_cstc_reconfigure(s, 1, &small, NULL) == 0, "hand: reconfigure: %s",
          stc_cstc_error(s));
    st(s, 2, 0x1030);
    CHECK_EQ_U64(fc(s, 1)->snoops_filtered, before + 1, "hand: filtered after a reconfiguration");
    CHECK_EQ_U64(stc_cstc_violation_count(s), 0, "hand: violations after reconfiguring");
    stc_cstc_destroy(s);
}

static void test_create(void)
{
    static const char *const names[] = {"8K_4W_32B"};
    stc_cstc_config config = {.cores = 2, .geometry = default_geometry(),
                              .protocol = STC_COH_MESI, .snoop_filter = exclude(24, 1, 1)};
    config.configs[0] = config.configs[1] = default_config(names[0]);
    char err[ERR_LEN] = "";
    CHECK(stc_cstc_create(&config, err, sizeof err) == NULL && strstr(err, "sets must be"),
          "a bad filter is refused, named: '%s'", err);
    stc_cstc_system *s = make(STC_COH_MESI, 2, names, 1, (stc_sf_config){0});
    stc_sf_counters total;
    stc_cstc_filter_total(s, &total);
    CHECK(fc(s, 0) == NULL && total.filter_lookups == 0, "no filter: no counters");
    stc_cstc_destroy(s);
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

static stc_sf_config broken(stc_sf_config filter)
{
    filter.broken = STC_SF_BREAK_KEEP_ON_FILL;
    return filter;
}

static void broken_hand(void)
{
    stc_cstc_destroy(hand_trace(broken(exclude(32, 4, 1))));
}

static void sound_hand(void)
{
    stc_cstc_destroy(hand_trace(exclude(32, 4, 1)));
}

static void broken_random(void)
{
    static const char *const mixed[] = {"8K_4W_64B", "2K_1W_16B", "4K_2W_32B_P", "8K_1W_16B"};
    side_by_side(STC_COH_MOESI, mixed, 4, broken(exclude(2, 2, 2)), 50, 7, 6000, "broken");
}

static void test_broken(void)
{
    char text[1024];
    CHECK(aborts(broken_hand, text, sizeof text), "a broken filter must abort: '%s'", text);
    CHECK(strstr(text, "snoop filter unsafe (exclude 32x4, 1 block per entry): reference 3, "
                       "core 1's BusUpgr of block 0x1010 filtered out at core 0, which holds "
                       "it in S"),
          "the message names what happened: '%s'", text);
    CHECK(aborts(broken_random, text, sizeof text) && strstr(text, "snoop filter unsafe"),
          "a broken filter aborts on random traffic: '%s'", text);
    CHECK(!aborts(sound_hand, text, sizeof text), "a sound filter runs through: '%s'", text);
}

int main(void)
{
    test_create();
    test_hand();
    test_side_by_side();
    test_broken();
    return check_done("test_snoop_filter_stc");
}
