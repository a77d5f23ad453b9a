/*
 * test_coherent.c - the coherent system on an atomic bus (coherent.h,
 * docs/COHERENCE.md section 9):
 *  - hand-built sequences with outcomes worked out by hand, per protocol;
 *  - miss classes: false and true sharing, compulsory / capacity / conflict;
 *    Dubois' lifetime classification against the at-miss one, on hand-worked
 *    sequences where the two differ;
 *  - the checks catch deliberately broken tables (data, single writer);
 *  - seeded random traffic: no violation in any protocol, and the counters'
 *    identities hold;
 *  - a second MSI simulator written plainly here (no table, its own miss
 *    classification) agrees with the model counter for counter on seeded
 *    random traffic and, when build/mc-traces holds them, on the real
 *    4-thread traces.
 */
#include "check.h"
#include "splitmix.h"
#include "coherent.h"
#include "mc_trace.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum { ERR_LEN = 256 };

static const stc_coh_protocol all_protocols[] = {STC_COH_MSI, STC_COH_MESI, STC_COH_MOESI};

static stc_coh_system *make(stc_coh_protocol protocol, unsigned cores, uint32_t size, uint32_t ways,
                            uint32_t line, const stc_coh_table *table)
{
    char err[ERR_LEN] = "";
    stc_coh_config config = {.cores = cores, .size_bytes = size, .ways = ways, .line_bytes = line,
                             .protocol = protocol, .table = table};
    stc_coh_system *system = stc_coh_create(&config, err, sizeof err);
    CHECK(system != NULL, "create: %s", err);
    if (!system)
        exit(1);
    return system;
}

static uint64_t ld(stc_coh_system *system, unsigned core, uint64_t addr)
{
    uint64_t got = 0;
    int rc = stc_coh_access(system, core, STC_COH_OP_LOAD, addr, 4, 0, &got);
    CHECK(rc == 0, "load: %s", stc_coh_error(system));
    return got;
}

static void st(stc_coh_system *system, unsigned core, uint64_t addr, uint64_t value)
{
    int rc = stc_coh_access(system, core, STC_COH_OP_STORE, addr, 4, value, NULL);
    CHECK(rc == 0, "store: %s", stc_coh_error(system));
}

static const stc_coh_counters *cc(const stc_coh_system *system, unsigned core)
{
    return stc_coh_core_counters(system, core);
}

static void expect_clean(const stc_coh_system *system, const char *what)
{
    CHECK_EQ_U64(stc_coh_violation_count(system), 0, "%s: violations (first: %s)", what,
                 stc_coh_violation_at(system, 0) ? stc_coh_violation_at(system, 0)->text : "");
}

/* -------------------------------------------------- hand-built sequences */

static void msi_upgrade_and_supply(void)
{
    stc_coh_system *s = make(STC_COH_MSI, 2, 8192, 4, 32, NULL);
    ld(s, 0, 0x100);
    ld(s, 1, 0x100);
    CHECK(stc_coh_state_of(s, 0, 0x100) == STC_COH_S, "msi: c0 S after two loads");
    CHECK(stc_coh_state_of(s, 1, 0x100) == STC_COH_S, "msi: c1 S after two loads");
    st(s, 0, 0x100, 0x11223344);
    CHECK_EQ_U64(cc(s, 0)->upgrades, 1, "msi: store to S issues BusUpgr");
    CHECK_EQ_U64(cc(s, 0)->hits, 1, "msi: the upgrade is a hit");
    CHECK_EQ_U64(cc(s, 0)->inv_sent, 1, "msi: c0 invalidates one copy");
    CHECK_EQ_U64(cc(s, 1)->inv_received, 1, "msi: c1's copy invalidated");
    CHECK(stc_coh_state_of(s, 1, 0x100) == STC_COH_I, "msi: c1 I");
    CHECK(stc_coh_state_of(s, 0, 0x100) == STC_COH_M, "msi: c0 M");
    uint64_t got = ld(s, 1, 0x100);
    CHECK_EQ_U64(got, 0x11223344, "msi: c1 reads c0's store");
    CHECK_EQ_U64(cc(s, 1)->misses, 2, "msi: c1 misses twice");
    CHECK_EQ_U64(cc(s, 1)->miss_compulsory, 1, "msi: c1 one compulsory");
    CHECK_EQ_U64(cc(s, 1)->miss_true_sharing, 1, "msi: c1's second miss is true sharing");
    CHECK_EQ_U64(cc(s, 0)->c2c_supplied, 1, "msi: M supplies");
    CHECK_EQ_U64(cc(s, 0)->flushes, 1, "msi: M flushes on BusRd");
    CHECK_EQ_U64(cc(s, 1)->c2c_received, 1, "msi: c1 receives from c0");
    CHECK_EQ_U64(cc(s, 1)->mem_reads, 1, "msi: c1's first miss from memory");
    CHECK_EQ_U64(stc_coh_memory_read(s, 0x100, 4), 0x11223344, "msi: memory current after flush");
    CHECK(stc_coh_state_of(s, 0, 0x100) == STC_COH_S, "msi: c0 M -> S on BusRd");
    CHECK_EQ_U64(cc(s, 0)->snoop_lookups, 2, "msi: c0 probed c1's two BusRd");
    CHECK_EQ_U64(cc(s, 1)->snoop_lookups, 2, "msi: c1 probed c0's BusRd and BusUpgr");
    expect_clean(s, "msi");
    stc_coh_destroy(s);
}

static void mesi_exclusive(void)
{
    stc_coh_system *s = make(STC_COH_MESI, 2, 8192, 4, 32, NULL);
    ld(s, 0, 0x200);
    CHECK(stc_coh_state_of(s, 0, 0x200) == STC_COH_E, "mesi: a lone load takes E");
    st(s, 0, 0x200, 0x55);
    CHECK(stc_coh_state_of(s, 0, 0x200) == STC_COH_M, "mesi: E + store -> M");
    CHECK_EQ_U64(cc(s, 0)->bus_rd, 1, "mesi: one BusRd");
    CHECK_EQ_U64(cc(s, 0)->bus_rdx + cc(s, 0)->upgrades, 0, "mesi: store to E: no bus transaction");
    CHECK_EQ_U64(cc(s, 1)->snoop_lookups, 1, "mesi: one transaction snooped");
    /* a second block read by both: the shared line makes the second S */
    ld(s, 0, 0x400);
    ld(s, 1, 0x400);
    CHECK(stc_coh_state_of(s, 0, 0x400) == STC_COH_S, "mesi: E snooping BusRd -> S");
    CHECK(stc_coh_state_of(s, 1, 0x400) == STC_COH_S, "mesi: shared line -> S");
    CHECK_EQ_U64(cc(s, 1)->mem_reads, 1, "mesi: E does not supply");
    CHECK_EQ_U64(ld(s, 1, 0x200), 0x55, "mesi: M supplies c1");
    CHECK_EQ_U64(cc(s, 0)->c2c_supplied, 1, "mesi: one c2c");
    expect_clean(s, "mesi");
    stc_coh_destroy(s);
}

static void moesi_owner(void)
{
    /* 2 sets of one 32-byte way: 0x0 and 0x40 share set 0 */
    stc_coh_system *s = make(STC_COH_MOESI, 2, 64, 1, 32, NULL);
    st(s, 0, 0x0, 0xabcdef01);
    CHECK_EQ_U64(cc(s, 0)->bus_rdx, 1, "moesi: write miss BusRdX");
    CHECK_EQ_U64(ld(s, 1, 0x0), 0xabcdef01, "moesi: c1 reads the store");
    CHECK(stc_coh_state_of(s, 0, 0x0) == STC_COH_O, "moesi: M snooping BusRd -> O");
    CHECK(stc_coh_state_of(s, 1, 0x0) == STC_COH_S, "moesi: reader S");
    CHECK_EQ_U64(cc(s, 0)->flushes, 0, "moesi: no flush");
    CHECK_EQ_U64(stc_coh_memory_read(s, 0x0, 4), 0, "moesi: memory stays stale");
    CHECK_EQ_U64(stc_coh_shadow_read(s, 0x0, 4), 0xabcdef01, "moesi: shadow has the store");
    ld(s, 0, 0x40); /* evicts the O copy */
    CHECK_EQ_U64(cc(s, 0)->bus_wb, 1, "moesi: O evicted -> BusWB");
    CHECK_EQ_U64(cc(s, 0)->mem_writebacks, 1, "moesi: one write to memory");
    CHECK_EQ_U64(stc_coh_memory_read(s, 0x0, 4), 0xabcdef01, "moesi: memory current after BusWB");
    CHECK(stc_coh_state_of(s, 1, 0x0) == STC_COH_S, "moesi: S snooping BusWB stays S");
    CHECK_EQ_U64(ld(s, 1, 0x0), 0xabcdef01, "moesi: c1 still reads it");
    CHECK_EQ_U64(cc(s, 1)->hits, 1, "moesi: and hits");
    ld(s, 0, 0x0);  /* c0 evicts 0x40 (E, silent), reads 0x0 from memory: S */
    CHECK_EQ_U64(cc(s, 0)->bus_wb, 1, "moesi: clean eviction is silent");
    expect_clean(s, "moesi");
    stc_coh_destroy(s);
}

/* ------------------------------------------------------- miss classes */

static void false_sharing(void)
{
    for (size_t p = 0; p < 3; p++) {
        stc_coh_system *s = make(all_protocols[p], 2, 8192, 4, 32, NULL);
        enum { ROUNDS = 10 };
        for (unsigned r = 0; r < ROUNDS; r++) {
            st(s, 0, 0x1000, r);      /* word 0 */
            st(s, 1, 0x1004, r + 100); /* word 1 of the same block */
        }
        for (unsigned c = 0; c < 2; c++) {
            CHECK_EQ_U64(cc(s, c)->misses, ROUNDS, "false sharing %s core %u: every store misses",
                         stc_coh_protocol_name(all_protocols[p]), c);
            CHECK_EQ_U64(cc(s, c)->miss_compulsory, 1, "false sharing: one compulsory");
            CHECK_EQ_U64(cc(s, c)->miss_false_sharing, ROUNDS - 1, "false sharing %s core %u",
                         stc_coh_protocol_name(all_protocols[p]), c);
            CHECK_EQ_U64(cc(s, c)->miss_true_sharing, 0, "false sharing: none true");
        }
        CHECK_EQ_U64(ld(s, 0, 0x1004), ROUNDS - 1 + 100, "false sharing: the last value");
        expect_clean(s, "false sharing");
        stc_coh_destroy(s);
    }
}

static void true_sharing(void)
{
    for (size_t p = 0; p < 3; p++) {
        stc_coh_system *s = make(all_protocols[p], 2, 8192, 4, 32, NULL);
        enum { ROUNDS = 10 };
        for (unsigned r = 0; r < ROUNDS; r++) {
            st(s, 0, 0x2008, 1000 + r);
            CHECK_EQ_U64(ld(s, 1, 0x2008), 1000 + r, "true sharing: consumer reads the value");
        }
        const char *name = stc_coh_protocol_name(all_protocols[p]);
        CHECK_EQ_U64(cc(s, 1)->misses, ROUNDS, "true sharing %s: every consumer load misses", name);
        CHECK_EQ_U64(cc(s, 1)->miss_true_sharing, ROUNDS - 1, "true sharing %s", name);
        CHECK_EQ_U64(cc(s, 1)->miss_false_sharing, 0, "true sharing %s: none false", name);
        CHECK_EQ_U64(cc(s, 0)->misses, 1, "true sharing %s: producer misses once", name);
        CHECK_EQ_U64(cc(s, 0)->upgrades, ROUNDS - 1, "true sharing %s: producer upgrades", name);
        CHECK_EQ_U64(cc(s, 1)->inv_received, ROUNDS - 1, "true sharing %s: invalidations", name);
        CHECK_EQ_U64(cc(s, 0)->c2c_supplied, ROUNDS, "true sharing %s: owner supplies", name);
        expect_clean(s, "true sharing");
        stc_coh_destroy(s);
    }
}

/* One core, 4 lines of 32 B in 2 sets of 2 ways; blocks 0, 2, 4 (0x0,
 * 0x40, 0x80) map to set 0, blocks 1, 3 (0x20, 0x60) to set 1. */
static void three_cs(void)
{
    stc_coh_system *s = make(STC_COH_MESI, 1, 128, 2, 32, NULL);
    /* conflict: three blocks in a 2-way set, well within 4 lines */
    ld(s, 0, 0x0);
    ld(s, 0, 0x40);
    ld(s, 0, 0x80); /* evicts 0x0 from set 0 */
    ld(s, 0, 0x0);  /* FA (4 lines) still holds it: conflict */
    ld(s, 0, 0x80); /* hit */
    CHECK_EQ_U64(cc(s, 0)->miss_compulsory, 3, "3C: compulsory");
    CHECK_EQ_U64(cc(s, 0)->miss_conflict, 1, "3C: conflict");
    CHECK_EQ_U64(cc(s, 0)->miss_capacity, 0, "3C: no capacity yet");
    CHECK_EQ_U64(cc(s, 0)->hits, 1, "3C: one hit");
    stc_coh_destroy(s);

    /* capacity: 6 blocks cycled through a 4-line cache. Round 1: 6
     * compulsory. Round 2: each 2-way set cycles 3 blocks, so every access
     * misses, and the FA LRU of 4 lines cycling 6 blocks misses too: 6
     * capacity misses. */
    s = make(STC_COH_MESI, 1, 128, 2, 32, NULL);
    for (unsigned round = 0; round < 2; round++)
        for (uint64_t b = 0; b < 6; b++)
            ld(s, 0, b * 32);
    CHECK_EQ_U64(cc(s, 0)->miss_compulsory, 6, "3C: 6 compulsory");
    CHECK_EQ_U64(cc(s, 0)->miss_capacity, 6, "3C: 6 capacity");
    CHECK_EQ_U64(cc(s, 0)->miss_conflict, 0, "3C: no conflict");
    CHECK_EQ_U64(cc(s, 0)->misses, 12, "3C: every access misses");
    /* and with 5 blocks: set 1 holds blocks 1 and 3, which then hit; blocks
     * 0, 2, 4 miss in set 0 and in the FA cache: 3 capacity misses */
    stc_coh_destroy(s);
    s = make(STC_COH_MESI, 1, 128, 2, 32, NULL);
    for (unsigned round = 0; round < 2; round++)
        for (uint64_t b = 0; b < 5; b++)
            ld(s, 0, b * 32);
    CHECK_EQ_U64(cc(s, 0)->miss_capacity, 3, "3C: 3 capacity of 5 blocks");
    CHECK_EQ_U64(cc(s, 0)->hits, 2, "3C: blocks 1 and 3 hit");
    stc_coh_destroy(s);

    /* An invalidation frees a line of the FA cache too: 2 sets of 1 way
     * (FA: 2 lines). c0 reads A (set 0) and B (set 1); c1's store takes B;
     * c0 reads C (set 0, evicts A): the FA cache holds A and C. c0's read
     * of A is then a conflict miss (an FA cache still holding the dead B
     * would have dropped A and called it capacity). */
    s = make(STC_COH_MESI, 2, 64, 1, 32, NULL);
    ld(s, 0, 0x00);
    ld(s, 0, 0x20);
    st(s, 1, 0x20, 5);
    ld(s, 0, 0x40);
    ld(s, 0, 0x00);
    CHECK_EQ_U64(cc(s, 0)->miss_conflict, 1, "3C: invalidation leaves room in the FA cache");
    CHECK_EQ_U64(cc(s, 0)->miss_capacity, 0, "3C: no capacity miss");
    expect_clean(s, "3C invalidation");
    expect_clean(s, "3C");
    stc_coh_destroy(s);
}

/* ------------------------------------- Dubois' lifetime classification */

/* The four coherence counters of core: at the miss (true, false) and over
 * the lifetime (Dubois: true, false); and the identity between them. */
static void expect_coherence(const stc_coh_system *s, unsigned core, uint64_t at_true,
                             uint64_t at_false, uint64_t dubois_true, uint64_t dubois_false,
                             const char *what)
{
    const stc_coh_counters *k = cc(s, core);
    const char *protocol = stc_coh_protocol_name(stc_coh_config_of(s)->protocol);
    CHECK_EQ_U64(k->miss_true_sharing, at_true, "%s (%s) core %u: at-miss true", what, protocol,
                 core);
    CHECK_EQ_U64(k->miss_false_sharing, at_false, "%s (%s) core %u: at-miss false", what, protocol,
                 core);
    CHECK_EQ_U64(k->miss_true_dubois, dubois_true, "%s (%s) core %u: Dubois true", what, protocol,
                 core);
    CHECK_EQ_U64(k->miss_false_dubois, dubois_false, "%s (%s) core %u: Dubois false", what,
                 protocol, core);
}

/* Words w0, w1, w2 of one 32-byte block. Every sequence holds in every
 * protocol: a store of another core invalidates every other copy in each. */
enum { W0 = 0x1000, W1 = 0x1004, W2 = 0x1008 };

static void dubois_classes(void)
{
    for (size_t p = 0; p < 3; p++) {
        stc_coh_protocol protocol = all_protocols[p];

        /* The miss touches an old word, a later hit a new one: false at the
         * miss, true over the lifetime. Until that hit the lifetime counts
         * as useless: the counters are final whenever read. */
        stc_coh_system *s = make(protocol, 2, 8192, 4, 32, NULL);
        ld(s, 0, W0);
        st(s, 1, W1, 1); /* invalidates c0: w1 new to it */
        ld(s, 0, W0);    /* coherence miss on the old w0 */
        expect_coherence(s, 0, 0, 1, 0, 1, "later read: before the read of w1");
        ld(s, 0, W1); /* a hit of the same lifetime, on the new w1 */
        CHECK_EQ_U64(cc(s, 0)->hits, 1, "later read (%s): the read of w1 hits",
                     stc_coh_protocol_name(protocol));
        expect_coherence(s, 0, 0, 1, 1, 0, "later read");
        ld(s, 0, W1); /* a second new-word access moves nothing */
        expect_coherence(s, 0, 0, 1, 1, 0, "later read, twice");
        expect_clean(s, "later read");
        stc_coh_destroy(s);

        /* The miss touches the new word: true both ways. */
        s = make(protocol, 2, 8192, 4, 32, NULL);
        ld(s, 0, W0);
        st(s, 1, W0, 2);
        ld(s, 0, W0);
        expect_coherence(s, 0, 1, 0, 1, 0, "new word at the miss");
        stc_coh_destroy(s);

        /* A store counts as an access: the lifetime's store to the new w1
         * (a hit, an upgrade) makes it essential. */
        s = make(protocol, 2, 8192, 4, 32, NULL);
        ld(s, 0, W0);
        st(s, 1, W1, 3);
        ld(s, 0, W0);
        st(s, 0, W1, 4);
        expect_coherence(s, 0, 0, 1, 1, 0, "store to a new word");
        expect_clean(s, "store to a new word");
        stc_coh_destroy(s);

        /* An invalidation ends a lifetime; a useless one leaves its new
         * words new. c0's first coherence lifetime touches only w0 and is
         * ended by c1's store to w2; c0's next miss touches w1, written
         * before that invalidation: at the miss it is false (w1 was not
         * written since the copy was lost), for Dubois true (w1 was written
         * since c0's last essential miss and c0 has not used it). The first
         * lifetime stays useless although c0 touches w1 later: it had ended. */
        s = make(protocol, 2, 8192, 4, 32, NULL);
        ld(s, 0, W0);
        st(s, 1, W1, 5);
        ld(s, 0, W0);
        st(s, 1, W2, 6);
        expect_coherence(s, 0, 0, 1, 0, 1, "invalidation: the first lifetime ended useless");
        ld(s, 0, W1);
        expect_coherence(s, 0, 0, 2, 1, 1, "invalidation: the next miss uses w1");
        /* that essential lifetime used w1 and w2 was delivered with it: a
         * third coherence miss on w2 (after c1 writes w0) is useless */
        st(s, 1, W0, 7);
        ld(s, 0, W2);
        expect_coherence(s, 0, 0, 3, 1, 2, "invalidation: delivered words are not new again");
        expect_clean(s, "invalidation");
        stc_coh_destroy(s);

        /* A compulsory miss is essential: what others wrote before it is
         * not new. c1 writes w0 before c0 ever reads the block; c0's
         * coherence lifetime later reads w0 (not new) and then w2 (new). */
        s = make(protocol, 2, 8192, 4, 32, NULL);
        st(s, 1, W0, 8);
        ld(s, 0, W1); /* compulsory */
        st(s, 1, W2, 9);
        ld(s, 0, W1); /* coherence, old word */
        ld(s, 0, W0); /* hit: w0 was written before c0's compulsory miss */
        expect_coherence(s, 0, 0, 1, 0, 1, "compulsory: older writes are not new");
        ld(s, 0, W2);
        expect_coherence(s, 0, 0, 1, 1, 0, "compulsory: a later write is");
        expect_clean(s, "compulsory");
        stc_coh_destroy(s);

        /* An eviction ends a lifetime. One way, 2 sets of 32 B: A = 0x0 and
         * B = 0x40 share set 0. c0's coherence lifetime of A touches only the
         * old word A+0 and ends by eviction (c0 reads B); c0's replacement
         * miss then reads the new A+4: a conflict miss whose lifetime, not
         * the ended coherence one, is essential. It delivered A+4, so after
         * c1 writes A+8 c0's next coherence miss on A+4 is useless, and
         * stays so: the run ends with that lifetime open. */
        s = make(protocol, 2, 64, 1, 32, NULL);
        ld(s, 0, 0x0);
        st(s, 1, 0x4, 10);
        ld(s, 0, 0x0);  /* coherence miss, old word */
        ld(s, 0, 0x40); /* compulsory; evicts A */
        ld(s, 0, 0x4);  /* replacement miss on the new A+4 */
        CHECK_EQ_U64(cc(s, 0)->miss_conflict, 1, "eviction (%s): a conflict miss",
                     stc_coh_protocol_name(protocol));
        expect_coherence(s, 0, 0, 1, 0, 1, "eviction: the evicted lifetime stays useless");
        st(s, 1, 0x8, 11);
        ld(s, 0, 0x4);
        expect_coherence(s, 0, 0, 2, 0, 2, "eviction: A+4 delivered by the replacement miss");
        stc_coh_counters total;
        stc_coh_total(s, &total);
        CHECK_EQ_U64(total.miss_true_dubois + total.miss_false_dubois,
                     total.miss_true_sharing + total.miss_false_sharing,
                     "eviction (%s): the totals split the same coherence misses",
                     stc_coh_protocol_name(protocol));
        expect_clean(s, "eviction");
        stc_coh_destroy(s);
    }
}

/* ------------------------------------------------- broken tables caught */

static void broken_tables(void)
{
    for (size_t p = 0; p < 3; p++) {
        const char *name = stc_coh_protocol_name(all_protocols[p]);
        char err[ERR_LEN];
        stc_coh_table table = *stc_coh_table_of(all_protocols[p]);
        CHECK(stc_coh_table_apply_break(&table, STC_COH_BREAK_NO_SUPPLY, err, sizeof err) == 0,
              "%s no-supply: %s", name, err);
        stc_coh_system *s = make(all_protocols[p], 2, 8192, 4, 32, &table);
        st(s, 0, 0x300, 0x77);
        ld(s, 1, 0x300);
        CHECK_EQ_U64(stc_coh_violation_kind_count(s, STC_COH_VIOL_DATA), 1,
                     "%s no-supply: a data violation", name);
        const stc_coh_violation *v = stc_coh_violation_at(s, 0);
        CHECK(v && v->kind == STC_COH_VIOL_DATA && v->core == 1 && v->addr == 0x300 &&
                  v->expected == 0x77 && v->got == 0 && v->reference == 1,
              "%s no-supply: violation %s", name, v ? v->text : "(none)");
        stc_coh_destroy(s);

        /* the same sequence on the real table is clean */
        s = make(all_protocols[p], 2, 8192, 4, 32, NULL);
        st(s, 0, 0x300, 0x77);
        ld(s, 1, 0x300);
        expect_clean(s, "no-supply control");
        stc_coh_destroy(s);

        table = *stc_coh_table_of(all_protocols[p]);
        CHECK(stc_coh_table_apply_break(&table, STC_COH_BREAK_NO_INVALIDATE, err, sizeof err) == 0,
              "%s no-invalidate: %s", name, err);
        s = make(all_protocols[p], 3, 8192, 4, 32, &table);
        ld(s, 0, 0x500);
        ld(s, 1, 0x500);
        st(s, 2, 0x500, 0x99); /* BusRdX: the S copies stay S */
        CHECK(stc_coh_violation_kind_count(s, STC_COH_VIOL_SWMR) >= 1,
              "%s no-invalidate: an SWMR violation", name);
        v = stc_coh_violation_at(s, 0);
        CHECK(v && v->kind == STC_COH_VIOL_SWMR && v->core == 2, "%s no-invalidate: %s", name,
              v ? v->text : "(none)");
        /* and the stale copy is then read: a data violation too */
        ld(s, 0, 0x500);
        CHECK(stc_coh_violation_kind_count(s, STC_COH_VIOL_DATA) == 1,
              "%s no-invalidate: stale read caught", name);
        stc_coh_destroy(s);
    }
}

/* ---------------------------------------------------------- bad input */

static void bad_arguments(void)
{
    char err[ERR_LEN];
    stc_coh_config bad[] = {
        {.cores = 0, .size_bytes = 8192, .ways = 4, .line_bytes = 32},
        {.cores = 9, .size_bytes = 8192, .ways = 4, .line_bytes = 32},
        {.cores = 2, .size_bytes = 8192, .ways = 4, .line_bytes = 24},
        {.cores = 2, .size_bytes = 8192, .ways = 4, .line_bytes = 512},
        {.cores = 2, .size_bytes = 8192, .ways = 3, .line_bytes = 32},
        {.cores = 2, .size_bytes = 8192, .ways = 0, .line_bytes = 32},
        {.cores = 2, .size_bytes = 0, .ways = 1, .line_bytes = 32},
        {.cores = 2, .size_bytes = 8192, .ways = 4, .line_bytes = 32, .protocol = 7},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        stc_coh_system *s = stc_coh_create(&bad[i], err, sizeof err);
        CHECK(s == NULL && err[0] != '\0', "bad config %zu accepted", i);
        stc_coh_destroy(s);
    }
    stc_coh_system *s = make(STC_COH_MSI, 2, 8192, 4, 32, NULL);
    CHECK(stc_coh_access(s, 2, STC_COH_OP_LOAD, 0, 4, 0, NULL) == -1, "core 2 of 2 accepted");
    CHECK(strstr(stc_coh_error(s), "core 2") != NULL, "message: %s", stc_coh_error(s));
    CHECK(stc_coh_access(s, 0, STC_COH_OP_LOAD, 0, 0, 0, NULL) == -1, "size 0 accepted");
    CHECK(stc_coh_access(s, 0, STC_COH_OP_LOAD, 0, 33, 0, NULL) == -1, "size 33 accepted");
    CHECK(stc_coh_fetch(s, 5) == -1, "fetch of core 5 accepted");
    CHECK_EQ_U64(cc(s, 0)->references, 0, "nothing counted");
    /* a straddling 8-byte store and load: two block accesses each */
    CHECK(stc_coh_access(s, 0, STC_COH_OP_STORE, 0x1c, 8, 0x0102030405060708ull, NULL) == 0,
          "straddle store");
    uint64_t got = 0;
    CHECK(stc_coh_access(s, 1, STC_COH_OP_LOAD, 0x1c, 8, 0, &got) == 0, "straddle load");
    CHECK_EQ_U64(got, 0x0102030405060708ull, "straddle: the bytes");
    CHECK_EQ_U64(cc(s, 0)->references, 1, "straddle: one reference");
    CHECK_EQ_U64(cc(s, 0)->misses, 2, "straddle: two block misses");
    expect_clean(s, "straddle");
    stc_coh_destroy(s);
}

/* --------------------------------------------------- random traffic */

static void counter_identities(const stc_coh_system *s, const char *what)
{
    stc_coh_counters t;
    stc_coh_total(s, &t);
    CHECK_EQ_U64(t.misses, t.miss_compulsory + t.miss_true_sharing + t.miss_false_sharing +
                               t.miss_capacity + t.miss_conflict,
                 "%s: misses = sum of classes", what);
    for (unsigned c = 0; c < stc_coh_config_of(s)->cores; c++) {
        const stc_coh_counters *k = cc(s, c);
        CHECK_EQ_U64(k->miss_true_dubois + k->miss_false_dubois,
                     k->miss_true_sharing + k->miss_false_sharing,
                     "%s core %u: both splits cover the same coherence misses", what, c);
        CHECK(k->miss_true_dubois >= k->miss_true_sharing,
              "%s core %u: every at-miss true miss is Dubois true (%llu < %llu)", what, c,
              (unsigned long long)k->miss_true_dubois, (unsigned long long)k->miss_true_sharing);
    }
    CHECK_EQ_U64(t.inv_sent, t.inv_received, "%s: invalidations sent = received", what);
    CHECK_EQ_U64(t.c2c_supplied, t.c2c_received, "%s: c2c supplied = received", what);
    CHECK_EQ_U64(t.bus_rd + t.bus_rdx, t.c2c_received + t.mem_reads, "%s: data sources", what);
    CHECK_EQ_U64(t.mem_writebacks, t.bus_wb + t.flushes, "%s: memory writes", what);
    CHECK_EQ_U64(t.references, t.loads + t.stores, "%s: references", what);
    unsigned cores = stc_coh_config_of(s)->cores;
    CHECK_EQ_U64(t.snoop_lookups, (cores - 1) * (t.bus_rd + t.bus_rdx + t.upgrades + t.bus_wb),
                 "%s: every other cache probes every transaction", what);
}

static void random_traffic(void)
{
    for (size_t p = 0; p < 3; p++) {
        const char *name = stc_coh_protocol_name(all_protocols[p]);
        /* 8 cores, 2 lines each (2 sets of 1 way), 6 blocks:
         * replacement, sharing and straddling all happen. */
        stc_coh_system *s = make(all_protocols[p], 8, 64, 1, 32, NULL);
        uint64_t seed = 12345 + p, value = 1;
        for (unsigned i = 0; i < 200000; i++) {
            uint64_t r = rng_next(&seed);
            unsigned core = (unsigned)(r % 8);
            uint64_t addr = (r >> 8) % (6 * 32);
            uint32_t size = 1u << ((r >> 20) % 4); /* 1, 2, 4, 8: some straddle */
            stc_coh_op op = (r >> 24) % 3 == 0 ? STC_COH_OP_STORE : STC_COH_OP_LOAD;
            int rc = stc_coh_access(s, core, op, addr, size, value++, NULL);
            if (rc != 0) {
                CHECK(rc == 0, "random: %s", stc_coh_error(s));
                break;
            }
        }
        expect_clean(s, name);
        counter_identities(s, name);
        stc_coh_counters t;
        stc_coh_total(s, &t);
        CHECK(t.miss_true_sharing > 0 && t.miss_false_sharing > 0 && t.miss_capacity + t.miss_conflict > 0 &&
                  t.c2c_received > 0 && t.upgrades > 0 && t.bus_wb > 0 &&
                  t.miss_true_dubois > t.miss_true_sharing && t.miss_false_dubois > 0,
              "%s random: every kind of event happened", name);
        stc_coh_destroy(s);
    }
}

/* ----------------------------- a plain MSI simulator, written separately */

/* MSI written plainly from the definitions (coherent.h), sharing no code or
 * bookkeeping with the model: no table; for the miss classes, per block and
 * word the time of every core's last store, per core and block the time of
 * its invalidation and the miss time of its last essential lifetime, and a
 * lifetime's Dubois class decided when the lifetime ENDS (invalidation,
 * eviction, or the end of the run: plain_dubois_now) rather than counted
 * provisionally as the model does. The fully associative cache of the 3C
 * split is a list of last-use times. Time counts block accesses from 1. */
enum {
    PLAIN_CORES = 4,
    PLAIN_WAYS = 2,
    PLAIN_MAX_SETS = 64,
    PLAIN_LINE = 32,
    PLAIN_WORDS = PLAIN_LINE / 4,
    PLAIN_MAX_LINES = PLAIN_MAX_SETS * PLAIN_WAYS
};
typedef struct {
    char state; /* 'I', 'S', 'M' */
    uint64_t block;
    uint64_t used;
} plain_line;
typedef struct {
    uint64_t block;
    uint64_t stored[PLAIN_WORDS][PLAIN_CORES]; /* each core's last store to the word: time, 0 none */
    bool touched[PLAIN_CORES];                 /* the core has accessed the block */
    bool invalidated[PLAIN_CORES];             /* its copy was invalidated, not fetched since */
    uint64_t invalidated_at[PLAIN_CORES];
    uint64_t essential_at[PLAIN_CORES];        /* miss time of its last essential lifetime */
    uint64_t life_miss_at[PLAIN_CORES];        /* miss time of its current lifetime */
    bool life_coherence[PLAIN_CORES];          /* its current lifetime began with a coherence miss */
    bool life_essential[PLAIN_CORES];          /* ... and has touched a new word (or was cold) */
    uint64_t fa_used[PLAIN_CORES];             /* last use in the core's FA cache, 0 = not held */
} plain_block;
typedef struct {
    unsigned sets;
    plain_line line[PLAIN_CORES][PLAIN_MAX_SETS][PLAIN_WAYS];
    uint32_t fa[PLAIN_CORES][PLAIN_MAX_LINES]; /* the blocks (indices) each FA cache holds */
    uint32_t fa_count[PLAIN_CORES];
    uint64_t time;
    plain_block *blocks;
    uint32_t block_count, block_capacity;
    uint32_t *index; /* open addressing on the block number: block index + 1, 0 empty */
    uint32_t index_capacity;
    uint64_t hits[PLAIN_CORES], misses[PLAIN_CORES], rd[PLAIN_CORES], rdx[PLAIN_CORES],
        upgr[PLAIN_CORES], wb[PLAIN_CORES], inv_sent[PLAIN_CORES], inv_recv[PLAIN_CORES],
        c2c_out[PLAIN_CORES], c2c_in[PLAIN_CORES], flush[PLAIN_CORES];
    uint64_t cold[PLAIN_CORES], true_at[PLAIN_CORES], false_at[PLAIN_CORES],
        capacity[PLAIN_CORES], conflict[PLAIN_CORES], true_ended[PLAIN_CORES],
        false_ended[PLAIN_CORES];
} plain_msi;

static void plain_init(plain_msi *m, unsigned sets)
{
    memset(m, 0, sizeof *m);
    m->sets = sets;
    for (unsigned c = 0; c < PLAIN_CORES; c++)
        for (unsigned set = 0; set < PLAIN_MAX_SETS; set++)
            for (unsigned w = 0; w < PLAIN_WAYS; w++)
                m->line[c][set][w].state = 'I';
}

static void plain_free(plain_msi *m)
{
    free(m->blocks);
    free(m->index);
}

/* The index of block's record, made on its first access. */
static uint32_t plain_block_index(plain_msi *m, uint64_t block)
{
    if (2 * (m->block_count + 1) > m->index_capacity) {
        uint32_t capacity = m->index_capacity ? 2 * m->index_capacity : 256;
        uint32_t *index = calloc(capacity, sizeof *index);
        CHECK(index != NULL, "plain: out of memory");
        if (!index)
            exit(1);
        for (uint32_t i = 0; i < m->block_count; i++) {
            uint32_t slot = (uint32_t)(m->blocks[i].block * 2654435761u) & (capacity - 1);
            while (index[slot])
                slot = (slot + 1) & (capacity - 1);
            index[slot] = i + 1;
        }
        free(m->index);
        m->index = index;
        m->index_capacity = capacity;
    }
    uint32_t slot = (uint32_t)(block * 2654435761u) & (m->index_capacity - 1);
    while (m->index[slot]) {
        if (m->blocks[m->index[slot] - 1].block == block)
            return m->index[slot] - 1;
        slot = (slot + 1) & (m->index_capacity - 1);
    }
    if (m->block_count == m->block_capacity) {
        uint32_t capacity = m->block_capacity ? 2 * m->block_capacity : 256;
        plain_block *blocks = realloc(m->blocks, capacity * sizeof *blocks);
        CHECK(blocks != NULL, "plain: out of memory");
        if (!blocks)
            exit(1);
        m->blocks = blocks;
        m->block_capacity = capacity;
    }
    memset(&m->blocks[m->block_count], 0, sizeof m->blocks[0]);
    m->blocks[m->block_count].block = block;
    m->index[slot] = m->block_count + 1;
    return m->block_count++;
}

static plain_line *plain_find(plain_msi *m, unsigned core, uint64_t block)
{
    for (unsigned w = 0; w < PLAIN_WAYS; w++) {
        plain_line *l = &m->line[core][block % m->sets][w];
        if (l->state != 'I' && l->block == block)
            return l;
    }
    return NULL;
}

/* The core's FA cache sees an access: whether it held the block. */
static bool plain_fa_access(plain_msi *m, unsigned core, uint32_t b)
{
    bool held = m->blocks[b].fa_used[core] != 0;
    if (!held) {
        if (m->fa_count[core] == m->sets * PLAIN_WAYS) {
            unsigned oldest = 0;
            for (unsigned i = 1; i < m->fa_count[core]; i++)
                if (m->blocks[m->fa[core][i]].fa_used[core] <
                    m->blocks[m->fa[core][oldest]].fa_used[core])
                    oldest = i;
            m->blocks[m->fa[core][oldest]].fa_used[core] = 0;
            m->fa[core][oldest] = b;
        } else {
            m->fa[core][m->fa_count[core]++] = b;
        }
    }
    m->blocks[b].fa_used[core] = m->time;
    return held;
}

static void plain_fa_drop(plain_msi *m, unsigned core, uint32_t b)
{
    for (unsigned i = 0; i < m->fa_count[core]; i++)
        if (m->fa[core][i] == b) {
            m->fa[core][i] = m->fa[core][--m->fa_count[core]];
            m->blocks[b].fa_used[core] = 0;
            return;
        }
}

/* A lifetime of core's copy of block b ends: its Dubois class, if it began
 * with a coherence miss, and an essential one moves the core's mark. */
static void plain_lifetime_ends(plain_msi *m, unsigned core, uint32_t b)
{
    plain_block *k = &m->blocks[b];
    if (k->life_coherence[core]) {
        if (k->life_essential[core])
            m->true_ended[core]++;
        else
            m->false_ended[core]++;
    }
    if (k->life_essential[core])
        k->essential_at[core] = k->life_miss_at[core];
    k->life_coherence[core] = k->life_essential[core] = false;
}

/* The Dubois counts of core if the run ended now: the ended lifetimes and
 * every copy still valid, whose lifetime the end of the run would end. */
static void plain_dubois_now(plain_msi *m, unsigned core, uint64_t *true_count,
                             uint64_t *false_count)
{
    *true_count = m->true_ended[core];
    *false_count = m->false_ended[core];
    for (unsigned set = 0; set < m->sets; set++)
        for (unsigned w = 0; w < PLAIN_WAYS; w++) {
            const plain_line *l = &m->line[core][set][w];
            if (l->state == 'I')
                continue;
            const plain_block *k = &m->blocks[plain_block_index(m, l->block)];
            if (k->life_coherence[core]) {
                if (k->life_essential[core])
                    ++*true_count;
                else
                    ++*false_count;
            }
        }
}

/* Every other core sees the request: 'R' read, 'X' read-exclusive, 'U' upgrade. */
static void plain_snoop(plain_msi *m, unsigned core, uint64_t block, char request)
{
    for (unsigned o = 0; o < PLAIN_CORES; o++) {
        plain_line *l = o == core ? NULL : plain_find(m, o, block);
        if (!l)
            continue;
        if (l->state == 'M') { /* M gives the data and writes memory */
            m->c2c_out[o]++;
            m->c2c_in[core]++;
            m->flush[o]++;
        }
        if (request == 'R') {
            l->state = 'S';
        } else {
            l->state = 'I';
            m->inv_sent[core]++;
            m->inv_recv[o]++;
            uint32_t b = plain_block_index(m, block);
            m->blocks[b].invalidated[o] = true;
            m->blocks[b].invalidated_at[o] = m->time;
            plain_fa_drop(m, o, b);
            plain_lifetime_ends(m, o, b);
        }
    }
}

/* Was word w of block b stored by a core other than core at a time after
 * `after`? */
static bool plain_other_store_after(const plain_block *k, unsigned core, unsigned w, uint64_t after)
{
    for (unsigned d = 0; d < PLAIN_CORES; d++)
        if (d != core && k->stored[w][d] > after)
            return true;
    return false;
}

/* One block access: words first..last of block. */
static void plain_block_access(plain_msi *m, unsigned core, uint64_t block, unsigned first,
                               unsigned last, bool store)
{
    m->time++;
    uint32_t b = plain_block_index(m, block);
    bool fa_hit = plain_fa_access(m, core, b);
    plain_block *k = &m->blocks[b];
    plain_line *l = plain_find(m, core, block);
    if (l) {
        m->hits[core]++;
        if (store && l->state == 'S') {
            m->upgr[core]++;
            plain_snoop(m, core, block, 'U');
        }
        if (store)
            l->state = 'M';
        l->used = m->time;
    } else {
        m->misses[core]++;
        bool cold = !k->touched[core];
        k->life_coherence[core] = false;
        if (cold) {
            m->cold[core]++;
        } else if (k->invalidated[core]) {
            bool touched_new = false;
            for (unsigned w = first; w <= last; w++)
                touched_new |= plain_other_store_after(k, core, w, k->invalidated_at[core] - 1);
            if (touched_new)
                m->true_at[core]++;
            else
                m->false_at[core]++;
            k->life_coherence[core] = true;
        } else if (fa_hit) {
            m->conflict[core]++;
        } else {
            m->capacity[core]++;
        }
        k->invalidated[core] = false;
        k->life_miss_at[core] = m->time;
        k->life_essential[core] = cold; /* a cold miss brings every value */

        plain_line *set = m->line[core][block % m->sets];
        plain_line *victim = NULL;
        for (unsigned w = 0; w < PLAIN_WAYS && !victim; w++)
            if (set[w].state == 'I')
                victim = &set[w];
        if (!victim) {
            victim = &set[0];
            for (unsigned w = 1; w < PLAIN_WAYS; w++)
                if (set[w].used < victim->used)
                    victim = &set[w];
            if (victim->state == 'M') {
                m->wb[core]++;
                /* the BusWB is seen by nobody else: M was the only copy */
            }
            plain_lifetime_ends(m, core, plain_block_index(m, victim->block));
            k = &m->blocks[b];
        }
        if (store) {
            m->rdx[core]++;
            plain_snoop(m, core, block, 'X');
        } else {
            m->rd[core]++;
            plain_snoop(m, core, block, 'R');
        }
        victim->state = store ? 'M' : 'S';
        victim->block = block;
        victim->used = m->time;
    }
    k->touched[core] = true;
    /* Dubois: a word stored by another core after the core's last
     * essential miss (no other store can come during this lifetime, which
     * such a store would have ended) */
    for (unsigned w = first; w <= last; w++)
        if (plain_other_store_after(k, core, w, k->essential_at[core]))
            k->life_essential[core] = true;
    if (store)
        for (unsigned w = first; w <= last; w++)
            k->stored[w][core] = m->time;
}

/* A reference of size bytes at addr: one or two block accesses. */
static void plain_access(plain_msi *m, unsigned core, uint64_t addr, uint32_t size, bool store)
{
    uint64_t end = addr + size; /* exclusive */
    while (addr < end) {
        uint64_t block = addr / PLAIN_LINE;
        uint64_t block_end = (block + 1) * PLAIN_LINE;
        uint64_t piece_end = end < block_end ? end : block_end;
        plain_block_access(m, core, block, (unsigned)(addr % PLAIN_LINE) / 4,
                           (unsigned)((piece_end - 1) % PLAIN_LINE) / 4, store);
        addr = piece_end;
    }
}

/* The model's counters equal the plain simulator's, every one it keeps. */
static void plain_compare(plain_msi *m, const stc_coh_system *s, const char *what)
{
    for (unsigned c = 0; c < PLAIN_CORES; c++) {
        const stc_coh_counters *k = cc(s, c);
        uint64_t true_dubois, false_dubois;
        plain_dubois_now(m, c, &true_dubois, &false_dubois);
        CHECK_EQ_U64(k->hits, m->hits[c], "plain %s: hits core %u", what, c);
        CHECK_EQ_U64(k->misses, m->misses[c], "plain %s: misses core %u", what, c);
        CHECK_EQ_U64(k->bus_rd, m->rd[c], "plain %s: BusRd core %u", what, c);
        CHECK_EQ_U64(k->bus_rdx, m->rdx[c], "plain %s: BusRdX core %u", what, c);
        CHECK_EQ_U64(k->upgrades, m->upgr[c], "plain %s: BusUpgr core %u", what, c);
        CHECK_EQ_U64(k->bus_wb, m->wb[c], "plain %s: BusWB core %u", what, c);
        CHECK_EQ_U64(k->inv_sent, m->inv_sent[c], "plain %s: invalidations sent core %u", what, c);
        CHECK_EQ_U64(k->inv_received, m->inv_recv[c], "plain %s: invalidations received core %u",
                     what, c);
        CHECK_EQ_U64(k->c2c_supplied, m->c2c_out[c], "plain %s: c2c supplied core %u", what, c);
        CHECK_EQ_U64(k->c2c_received, m->c2c_in[c], "plain %s: c2c received core %u", what, c);
        CHECK_EQ_U64(k->flushes, m->flush[c], "plain %s: flushes core %u", what, c);
        CHECK_EQ_U64(k->mem_writebacks, m->flush[c] + m->wb[c], "plain %s: memory writes core %u",
                     what, c);
        CHECK_EQ_U64(k->miss_compulsory, m->cold[c], "plain %s: compulsory core %u", what, c);
        CHECK_EQ_U64(k->miss_true_sharing, m->true_at[c], "plain %s: true sharing core %u", what,
                     c);
        CHECK_EQ_U64(k->miss_false_sharing, m->false_at[c], "plain %s: false sharing core %u", what,
                     c);
        CHECK_EQ_U64(k->miss_capacity, m->capacity[c], "plain %s: capacity core %u", what, c);
        CHECK_EQ_U64(k->miss_conflict, m->conflict[c], "plain %s: conflict core %u", what, c);
        CHECK_EQ_U64(k->miss_true_dubois, true_dubois, "plain %s: Dubois true core %u", what, c);
        CHECK_EQ_U64(k->miss_false_dubois, false_dubois, "plain %s: Dubois false core %u", what, c);
    }
}

static stc_coh_system *plain_twin(const plain_msi *m)
{
    return make(STC_COH_MSI, PLAIN_CORES, m->sets * PLAIN_WAYS * PLAIN_LINE, PLAIN_WAYS, PLAIN_LINE,
                NULL);
}

static void plain_agrees(void)
{
    static plain_msi m;
    for (unsigned seed_index = 0; seed_index < 3; seed_index++) {
        plain_init(&m, 4);
        stc_coh_system *s = plain_twin(&m);
        uint64_t seed = 777 + seed_index;
        char what[64];
        for (unsigned i = 0; i < 100000; i++) {
            uint64_t r = rng_next(&seed);
            unsigned core = (unsigned)(r % PLAIN_CORES);
            uint64_t block = (r >> 8) % 24; /* 24 blocks over 4 sets of 2 ways */
            /* aligned words mostly; some 1-8 byte references anywhere, some
             * straddling into the next block */
            bool odd = (r >> 28) % 8 == 0;
            uint32_t size = odd ? 1u << ((r >> 32) % 4) : 4;
            uint64_t offset = odd ? (r >> 36) % PLAIN_LINE : ((r >> 16) % PLAIN_WORDS) * 4;
            bool store = (r >> 24) % 4 == 0;
            plain_access(&m, core, block * PLAIN_LINE + offset, size, store);
            stc_coh_access(s, core, store ? STC_COH_OP_STORE : STC_COH_OP_LOAD,
                           block * PLAIN_LINE + offset, size, i + 1, NULL);
            if (i % 25000 == 12345) { /* the counters are final at any point */
                snprintf(what, sizeof what, "seed %u reference %u", seed_index, i);
                plain_compare(&m, s, what);
            }
        }
        snprintf(what, sizeof what, "seed %u end", seed_index);
        plain_compare(&m, s, what);
        stc_coh_counters t;
        stc_coh_total(s, &t);
        CHECK(t.miss_true_dubois > t.miss_true_sharing && t.miss_false_dubois > 0 &&
                  t.miss_conflict > 0 && t.miss_capacity > 0,
              "plain seed %u: the classes differ somewhere and every one occurs", seed_index);
        expect_clean(s, "plain");
        stc_coh_destroy(s);
        plain_free(&m);
    }
}

/* The real 4-thread traces (make mc-traces), when there: the same
 * agreement, at 4 sets (much replacement) and 64 sets (4 KiB per core). */
#define MC_TRACE_DIR "build/mc-traces"

static void plain_agrees_on_real_traces(void)
{
    static const char *const kernels[] = {"lock",   "queue",   "packed",   "padded",
                                          "matmul", "stencil", "migratory"};
    static const unsigned sets_of[] = {4, 64};
    static plain_msi m;
    unsigned runs = 0;
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s.t4.mc.zst", MC_TRACE_DIR, kernels[i]);
        FILE *probe = fopen(path, "rb");
        if (!probe) {
            printf("test_coherent: %s missing: the plain simulator skips it (make mc-traces, then "
                   "run this test from the repository root)\n",
                   path);
            continue;
        }
        fclose(probe);
        for (size_t g = 0; g < sizeof sets_of / sizeof sets_of[0]; g++) {
            char err[ERR_LEN] = "";
            stc_mc_trace *trace = stc_mc_trace_open(path, PLAIN_CORES, err, sizeof err);
            CHECK(trace != NULL, "%s", err);
            if (!trace)
                continue;
            plain_init(&m, sets_of[g]);
            stc_coh_system *s = plain_twin(&m);
            stc_mc_ref ref;
            int got;
            uint64_t stores = 0;
            while ((got = stc_mc_trace_next(trace, &ref)) > 0) {
                if (ref.label == STC_MC_FETCH)
                    continue;
                if (ref.size > PLAIN_LINE) {
                    CHECK(0, "%s: size %u above the line", path, ref.size);
                    break;
                }
                bool store = ref.label == STC_MC_WRITE;
                plain_access(&m, ref.core, ref.addr, ref.size, store);
                stc_coh_access(s, ref.core, store ? STC_COH_OP_STORE : STC_COH_OP_LOAD, ref.addr,
                               ref.size, ++stores, NULL);
            }
            CHECK(got == 0, "%s: %s", path, stc_mc_trace_error(trace));
            char what[300];
            snprintf(what, sizeof what, "%s, %u sets", path, sets_of[g]);
            plain_compare(&m, s, what);
            expect_clean(s, what);
            stc_coh_destroy(s);
            plain_free(&m);
            stc_mc_trace_close(trace);
            runs++;
        }
    }
    printf("test_coherent: the plain simulator agreed on %u runs of real traces\n", runs);
}

int main(void)
{
    msi_upgrade_and_supply();
    mesi_exclusive();
    moesi_owner();
    false_sharing();
    true_sharing();
    three_cs();
    dubois_classes();
    broken_tables();
    bad_arguments();
    random_traffic();
    plain_agrees();
    plain_agrees_on_real_traces();
    return check_done("test_coherent");
}
