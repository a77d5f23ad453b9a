/*
 * test_coherent_stc_split.c - stc caches on the split-transaction bus
 * (coherent_stc_split.h, docs/COHERENCE.md section 12):
 *  (a) stc_cache_miss_plan says what the next miss then does (victim bank,
 *      lines read, lines written back), on random traffic in several
 *      configurations;
 *  (b) hand cases: false sharing of a 32 B logical line on 16 B physical
 *      lines; a GetM ordered for a sibling waiting in the fill buffer; a
 *      victim's put ordered (and written back) before the fill; a miss
 *      waiting while a line it fetches waits in its own writeback buffer;
 *  (c) random traffic under the random schedule, many seeds, few lines,
 *      mixed configurations: no violation, the layer check holds, memory
 *      equals the shadow after a flush;
 *  (d) THE ORACLE: under the serial schedule every core's hits, misses,
 *      miss classes, GetS = BusRd, GetM = BusRdX + BusUpgr, puts less
 *      PutEs = BusWB, the cache's hits, misses and fills, every load's
 *      value and the flushed memory equal coherent_stc.h's on the same
 *      references;
 *      (also with reconfigurations interleaved, stc_cstc_reconfigure at
 *      the same points: the walks' puts and drops, the configurations);
 *  (e) reconfiguration (COHERENCE.md 12.6): stc_cache_walk_drops says what
 *      the walk drops; by hand, the walk's put ordered before the bank
 *      sleeps and a line not yet walked snooped where it is; random runs
 *      with reconfigurations;
 *  (f) the broken variants (fill buffer not snooped, victim put skipped,
 *      walk put skipped, bank slept before its put is ordered) turn their
 *      hand cases and random runs red.
 */
#include "check.h"
#include "test_configs.h"
#include "splitmix.h"
#include "coherent_stc.h"
#include "coherent_stc_split.h"
#include "random_refs.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum { ERR_LEN = 256, MAX_REFS = 8192 };

static const stc_coh_protocol all_protocols[] = {STC_COH_MSI, STC_COH_MESI, STC_COH_MOESI};
static const char *const mixed[] = {"8K_4W_32B", "4K_2W_16B", "2K_1W_64B", "8K_2W_32B_P"};
static const char *const small[] = {"2K_1W_64B", "4K_2W_32B", "4K_2W_64B_P", "2K_1W_16B"};

/* Loaded values by reference tag, filled by the done callback. */
typedef struct {
    uint64_t loaded[MAX_REFS];
} done_log;

static void record_done(void *context, unsigned core, uint64_t tag, uint64_t loaded)
{
    (void)core;
    done_log *log = context;
    if (tag < MAX_REFS)
        log->loaded[tag] = loaded;
}

/* What a run varies besides the protocol and the configurations. */
typedef struct {
    stc_cs_schedule schedule;
    uint64_t seed;
    uint32_t wb_buffer;
    unsigned breaks;
    unsigned reconfigure_every; /* references between reconfigurations (0: none) */
} run_setup;

static stc_cspl_system *make(stc_coh_protocol protocol, unsigned cores, const char *const *names,
                             run_setup setup, done_log *log)
{
    stc_cspl_config config = {.cores = cores, .geometry = default_geometry(),
                              .protocol = protocol, .schedule = setup.schedule,
                              .seed = setup.seed, .wb_buffer = setup.wb_buffer,
                              .breaks = setup.breaks, .done = log ? record_done : NULL,
                              .done_context = log};
    for (unsigned c = 0; c < cores; c++)
        config.configs[c] = default_config(names[c]);
    char err[ERR_LEN] = "";
    stc_cspl_system *system = stc_cspl_create(&config, err, sizeof err);
    CHECK(system != NULL, "create: %s", err);
    if (!system)
        exit(1);
    return system;
}

static uint64_t violations(stc_cspl_system *system)
{
    return stc_cs_violation_count(stc_cspl_bus(system));
}

static const char *first_violation(stc_cspl_system *system)
{
    const stc_cs_violation *v = stc_cs_violation_at(stc_cspl_bus(system), 0);
    return v ? v->text : "";
}

static bool layer_ok(const stc_cspl_system *system, char *err)
{
    return stc_cspl_check(system, err, ERR_LEN) == 0;
}

/* A hand case ends clean: the layer check holds, no violation. */
static void expect_clean(stc_cspl_system *system, const char *what)
{
    char err[ERR_LEN] = "";
    CHECK(layer_ok(system, err), "%s: layer check: %s", what, err);
    CHECK_EQ_U64(violations(system), 0, "%s: violations (%s)", what, first_violation(system));
}

static stc_cspl_counters counters_of(const stc_cspl_system *system, unsigned core)
{
    stc_cspl_counters counters;
    stc_cspl_core_counters(system, core, &counters);
    return counters;
}

static stc_coh_sp_state state_of(stc_cspl_system *system, unsigned core, uint64_t addr)
{
    return stc_cs_state_of(stc_cspl_bus(system), core, addr);
}

/* Run one chosen event of the bus; it must be enabled, unless a broken
 * variant runs (whose events differ: the test wants its checks red). */
static void run(stc_cspl_system *system, stc_cs_event event, unsigned core, const char *what,
                unsigned breaks)
{
    int rc = stc_cs_run(stc_cspl_bus(system), event, core);
    CHECK(rc == 0 || breaks, "%s: event %d of core %u enabled", what, (int)event, core);
}

/* Submit ref (the n-th reference writes n + 1, as the atomic run does);
 * one that straddles two physical lines is two block accesses. */
static void submit(stc_cspl_system *system, const random_ref *ref, uint64_t tag)
{
    int rc = stc_cspl_submit(system, ref->core, ref->op, ref->addr, ref->size, tag + 1, tag);
    CHECK(rc == 0, "submit: %s", stc_cs_error(stc_cspl_bus(system)));
}

/* After a flush: memory equals the shadow at every address in touched. */
static unsigned memory_differs(stc_cspl_system *system, const uint64_t *touched, unsigned count)
{
    unsigned differs = 0;
    const stc_cs_system *bus = stc_cspl_bus(system);
    for (unsigned i = 0; i < count; i++)
        differs += stc_cs_memory_read(bus, touched[i], 8) != stc_cs_shadow_read(bus, touched[i], 8);
    return differs;
}

/* ------------------------------------------------------ (a) the plan */

typedef struct {
    uint64_t read[64], written[64];
    unsigned reads, writes;
} burst_log;

static void log_read(void *context, uint64_t addr, uint8_t *data, unsigned bytes)
{
    burst_log *log = context;
    memset(data, 0, bytes);
    for (unsigned at = 0; at < bytes; at += 16)
        log->read[log->reads++ % 64] = addr + at;
}

static void log_write(void *context, uint64_t addr, const uint8_t *data, unsigned bytes)
{
    (void)data;
    burst_log *log = context;
    for (unsigned at = 0; at < bytes; at += 16)
        log->written[log->writes++ % 64] = addr + at;
}

/* The plan's lines read and victims written back, against a miss. */
static void plan_predicts(const char *name, uint64_t seed)
{
    stc_geometry geometry = default_geometry();
    stc_config config = config_named(&geometry, name);
    burst_log log;
    stc_memory memory = {.context = &log, .read_burst = log_read, .write_burst = log_write};
    char err[ERR_LEN] = "";
    stc_cache *cache = stc_cache_create(&geometry, STC_DCACHE, &config, &memory, err, sizeof err);
    CHECK(cache != NULL, "%s: %s", name, err);
    unsigned wrong = 0, misses = 0;
    for (unsigned i = 0; cache && i < 20000; i++) {
        uint64_t r = rng_next(&seed);
        uint64_t addr = (r >> 8) % (32 * 1024) & ~15ull;
        stc_miss_plan plan;
        stc_cache_miss_plan(cache, addr, &plan);
        uint32_t victims = 0; /* bit s: the victim bank's row holds a dirty line */
        for (unsigned sub = 0; sub < plan.sublines; sub++) {
            stc_slot slot;
            stc_cache_slot(cache, plan.bank, plan.first_row + sub, &slot);
            victims |= (uint32_t)(slot.valid && slot.dirty && (plan.missing >> sub & 1)) << sub;
        }
        memset(&log, 0, sizeof log);
        stc_access_result result;
        uint8_t byte = (uint8_t)r;
        stc_cache_access(cache, r % 3 ? STC_OP_READ : STC_OP_WRITE, addr, 1, &byte, NULL, NULL,
                         &result);
        if (result.hit)
            continue;
        misses++;
        uint64_t logical = addr & ~((uint64_t)plan.sublines * 16 - 1);
        bool same = result.bank == plan.bank && log.reads == (unsigned)__builtin_popcount(plan.missing) &&
                    log.writes == (unsigned)__builtin_popcount(victims);
        for (unsigned k = 0, sub = 0; same && sub < plan.sublines; sub++)
            if (plan.missing >> sub & 1)
                same = log.read[k++] == logical + 16 * sub;
        wrong += !same;
    }
    CHECK(misses > 1000, "%s: misses happened (%u)", name, misses);
    CHECK_EQ_U64(wrong, 0, "%s: misses the plan did not predict", name);
    stc_cache_destroy(cache);
}

static void plan_agrees(void)
{
    static const char *const names[] = {"8K_4W_64B", "2K_1W_32B", "8K_2W_32B_P", "4K_2W_16B",
                                        "8K_1W_64B"};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        plan_predicts(names[i], 77 + i);
}

/* ------------------------------------------------------ (b) by hand */

/* MESI, serial, both cores 8K_4W_32B: core 0 stores to the first 16 B
 * line of a 32 B logical line, core 1 to the second. Each miss is two
 * transactions (the sibling by GetS, the requested line by GetM); the
 * second store invalidates only the physical line it writes; core 0's
 * load of its own line still hits. */
static void false_sharing_by_hand(void)
{
    const char *names[] = {"8K_4W_32B", "8K_4W_32B"};
    stc_cspl_system *s = make(STC_COH_MESI, 2, names, (run_setup){STC_CS_SERIAL, 1, 0, 0, 0}, NULL);
    stc_cspl_submit(s, 0, STC_COH_OP_STORE, 0x1000, 4, 0x11, 0);
    stc_cspl_submit(s, 1, STC_COH_OP_STORE, 0x1010, 4, 0x22, 1);
    stc_cspl_submit(s, 0, STC_COH_OP_LOAD, 0x1000, 4, 0, 2);
    stc_cspl_drain(s);
    stc_cspl_counters c0 = counters_of(s, 0), c1 = counters_of(s, 1);
    CHECK_EQ_U64(c0.coherence.gets, 1, "core 0: its sibling by GetS");
    CHECK_EQ_U64(c0.coherence.getm, 1, "core 0: its line by GetM");
    CHECK_EQ_U64(c1.coherence.gets, 1, "core 1: its sibling by GetS");
    CHECK_EQ_U64(c1.coherence.getm, 1, "core 1: its line by GetM");
    CHECK_EQ_U64(c0.coherence.hits, 1, "core 0: the load of its line hits");
    CHECK_EQ_U64(c0.coherence.misses + c1.coherence.misses, 2, "one miss per store");
    CHECK_EQ_U64(c0.cache.fills + c1.cache.fills, 4, "two fills per miss");
    CHECK(state_of(s, 0, 0x1000) == STC_COH_SP_S, "core 0's line supplied, now S (%s)",
          stc_coh_sp_state_name(state_of(s, 0, 0x1000)));
    CHECK(state_of(s, 0, 0x1010) == STC_COH_SP_I, "core 0's sibling invalidated");
    CHECK(state_of(s, 1, 0x1010) == STC_COH_SP_M, "core 1's line M");
    CHECK(state_of(s, 1, 0x1000) == STC_COH_SP_S, "core 1's sibling S");
    CHECK(stc_cache_lookup(stc_cspl_cache(s, 0), 0x1010) < 0, "the slot dropped");
    expect_clean(s, "false sharing");
    stc_cspl_destroy(s);
}

/* MESI: core 0 (32 B lines) loads 0x2000; its sibling 0x2010 is fetched
 * first and waits in the fill buffer (E) while core 1 (16 B) stores to
 * it: the GetM's snoop finds it there and takes it (E to I, data to core
 * 1); core 0 then fetches its line, installs both and drops the sibling.
 * Returns the violations (a broken variant's test wants some). */
static uint64_t snoop_in_fill_buffer(unsigned breaks)
{
    const char *names[] = {"8K_4W_32B", "8K_4W_16B"};
    stc_cspl_system *s = make(STC_COH_MESI, 2, names, (run_setup){STC_CS_SERIAL, 1, 0, breaks, 0}, NULL);
    stc_cspl_submit(s, 0, STC_COH_OP_LOAD, 0x2000, 4, 0, 0);
    stc_cspl_submit(s, 1, STC_COH_OP_STORE, 0x2010, 4, 0x33, 1);
    run(s, STC_CS_EV_ATTEMPT, 0, "sibling's GetS", breaks);
    run(s, STC_CS_EV_ORDER, 0, "sibling ordered", breaks);
    run(s, STC_CS_EV_RESPONSE, 0, "sibling's data", breaks);
    bool waiting = state_of(s, 0, 0x2010) == STC_COH_SP_E;
    run(s, STC_CS_EV_ATTEMPT, 1, "core 1's GetM", breaks);
    run(s, STC_CS_EV_ORDER, 1, "core 1's GetM ordered", breaks);
    bool taken = state_of(s, 0, 0x2010) == STC_COH_SP_I;
    stc_cspl_drain(s);
    stc_cspl_submit(s, 0, STC_COH_OP_LOAD, 0x2010, 4, 0, 2);
    stc_cspl_drain(s);
    uint64_t found = violations(s);
    char err[ERR_LEN] = "";
    if (!breaks) {
        CHECK(waiting, "the sibling waits in the fill buffer in E");
        CHECK(taken, "the GetM's snoop took it (%s)",
              stc_coh_sp_state_name(state_of(s, 0, 0x2010)));
        CHECK(state_of(s, 0, 0x2000) == STC_COH_SP_E, "the requested line installed E");
        CHECK_EQ_U64(counters_of(s, 0).coherence.gets, 3, "core 0: 2 + the reload");
        CHECK_EQ_U64(stc_cspl_installs(s, 0), 2, "two installs");
        CHECK(layer_ok(s, err), "snoop in fill buffer: layer check: %s", err);
        CHECK_EQ_U64(found, 0, "snoop in fill buffer: violations (%s)", first_violation(s));
    } else {
        found += !layer_ok(s, err);
    }
    stc_cspl_destroy(s);
    return found;
}

/* MESI, core 0 in 2K_1W_32B (direct mapped): a store to 0x0 (M, its
 * sibling 0x10 E), then a load of 0x800 (the same rows): the victims take
 * their puts first, one at a time (PutM, then PutE), the miss waits for
 * each ordering, and only then are 0x810 and 0x800 fetched. Core 1 then
 * reads the stored value from memory. Returns the violations plus 1 if
 * memory lost the store. */
static uint64_t victim_put_first(unsigned breaks)
{
    const char *names[] = {"2K_1W_32B", "8K_4W_16B"};
    stc_cspl_system *s = make(STC_COH_MESI, 2, names, (run_setup){STC_CS_SERIAL, 1, 0, breaks, 0}, NULL);
    stc_cs_system *bus = stc_cspl_bus(s);
    stc_cspl_submit(s, 0, STC_COH_OP_STORE, 0x0, 4, 0x44, 0);
    stc_cspl_drain(s);
    stc_cspl_submit(s, 0, STC_COH_OP_LOAD, 0x800, 4, 0, 1);
    run(s, STC_CS_EV_ATTEMPT, 0, "first victim", breaks);
    bool put_m = state_of(s, 0, 0x0) == STC_COH_SP_MI_A;
    run(s, STC_CS_EV_ORDER, 0, "PutM ordered", breaks);
    run(s, STC_CS_EV_WRITEBACK, 0, "its data to memory", breaks);
    bool written = stc_cs_memory_read(bus, 0x0, 4) == 0x44;
    run(s, STC_CS_EV_ATTEMPT, 0, "second victim", breaks);
    bool put_e = state_of(s, 0, 0x10) == STC_COH_SP_EI_A;
    stc_cspl_drain(s);
    stc_cspl_submit(s, 1, STC_COH_OP_LOAD, 0x0, 4, 0, 2);
    stc_cspl_drain(s);
    uint64_t found = violations(s) + (stc_cs_memory_read(bus, 0x0, 4) != 0x44);
    if (!breaks) {
        stc_cspl_counters c0 = counters_of(s, 0);
        CHECK(put_m, "the M victim's PutM first (MI^A)");
        CHECK(written, "its data reached memory before the fill");
        CHECK(put_e, "then the E victim's PutE (EI^A)");
        CHECK_EQ_U64(c0.coherence.putm, 2, "two puts");
        CHECK_EQ_U64(c0.coherence.pute, 1, "one of them a PutE");
        CHECK_EQ_U64(c0.coherence.stalls, 1, "the miss waited (once)");
        CHECK_EQ_U64(c0.cache.writebacks, 0, "the cache wrote nothing back itself");
        CHECK_EQ_U64(counters_of(s, 1).coherence.data_from_memory, 1, "core 1 from memory");
        char err[ERR_LEN] = "";
        CHECK(layer_ok(s, err), "victim put: layer check: %s", err);
        CHECK_EQ_U64(found, 0, "victim put: violations (%s)", first_violation(s));
    }
    stc_cspl_destroy(s);
    return found;
}

/* The same with a writeback buffer of two entries: one attempt moves
 * both victims into the buffer (MI^A, EI^A, still snooped there) and
 * issues the first fetch; the miss does not wait. */
static void victims_into_buffer(void)
{
    const char *names[] = {"2K_1W_32B", "8K_4W_16B"};
    stc_cspl_system *s = make(STC_COH_MESI, 2, names, (run_setup){STC_CS_SERIAL, 1, 2, 0, 0}, NULL);
    stc_cspl_submit(s, 0, STC_COH_OP_STORE, 0x0, 4, 0x44, 0);
    stc_cspl_drain(s);
    stc_cspl_submit(s, 0, STC_COH_OP_LOAD, 0x800, 4, 0, 1);
    run(s, STC_CS_EV_ATTEMPT, 0, "victims and the first fetch", 0);
    CHECK(state_of(s, 0, 0x0) == STC_COH_SP_MI_A, "the M victim in the buffer (%s)",
          stc_coh_sp_state_name(state_of(s, 0, 0x0)));
    CHECK(state_of(s, 0, 0x10) == STC_COH_SP_EI_A, "the E victim in the buffer");
    CHECK(state_of(s, 0, 0x810) == STC_COH_SP_IS_AD, "the sibling's GetS issued at once (%s)",
          stc_coh_sp_state_name(state_of(s, 0, 0x810)));
    CHECK(stc_cache_lookup(stc_cspl_cache(s, 0), 0x0) < 0, "the victims' slots are free");
    stc_cspl_drain(s);
    stc_cspl_submit(s, 1, STC_COH_OP_LOAD, 0x0, 4, 0, 2);
    stc_cspl_drain(s);
    CHECK_EQ_U64(stc_cs_memory_read(stc_cspl_bus(s), 0x0, 4), 0x44, "memory has the store");
    CHECK_EQ_U64(counters_of(s, 0).coherence.stalls, 0, "the miss never waited");
    CHECK_EQ_U64(counters_of(s, 0).coherence.putm, 2, "two puts, buffered");
    expect_clean(s, "victims into buffer");
    stc_cspl_destroy(s);
}

/* A miss must wait while a line it fetches waits in its own writeback
 * buffer, even when it has victims to evict first (they may leave; the
 * fetch may not go out). MESI, a two-entry buffer, core 0 in 2K_1W_32B:
 * its store to 0x0 (M, 0x10 E); core 1 reads 0x800 and 0x810; core 0's
 * load of 0x800 moves 0x0 and 0x10 into the buffer (their puts not yet
 * ordered) and installs 0x800, 0x810 in S; its load of 0x0 then has S
 * victims that could leave at once, but 0x0 and 0x10 wait for their
 * puts: the attempt is not enabled. (Before this check ran behind the
 * victims, the miss fetched 0x10 while its PutE waited: memory still
 * saw core 0 as the owner, nobody answered, a deadlock on matmul.) */
static void fetch_waits_for_own_put(void)
{
    const char *names[] = {"2K_1W_32B", "8K_4W_16B"};
    static done_log log;
    stc_cspl_system *s = make(STC_COH_MESI, 2, names, (run_setup){STC_CS_SERIAL, 1, 2, 0, 0}, &log);
    stc_cspl_submit(s, 0, STC_COH_OP_STORE, 0x0, 4, 0x77, 0);
    stc_cspl_submit(s, 1, STC_COH_OP_LOAD, 0x800, 4, 0, 1);
    stc_cspl_submit(s, 1, STC_COH_OP_LOAD, 0x810, 4, 0, 2);
    stc_cspl_drain(s);
    stc_cspl_submit(s, 0, STC_COH_OP_LOAD, 0x800, 4, 0, 3);
    static const stc_cs_event miss[] = {STC_CS_EV_ATTEMPT, STC_CS_EV_ORDER, STC_CS_EV_RESPONSE,
                                        STC_CS_EV_ATTEMPT, STC_CS_EV_ORDER, STC_CS_EV_RESPONSE,
                                        STC_CS_EV_ATTEMPT};
    for (unsigned i = 0; i < sizeof miss / sizeof miss[0]; i++)
        run(s, miss[i], 0, "core 0's miss of 0x800", 0);
    CHECK(state_of(s, 0, 0x0) == STC_COH_SP_MI_A && state_of(s, 0, 0x10) == STC_COH_SP_EI_A,
          "0x0 and 0x10 wait in the buffer (%s, %s)", stc_coh_sp_state_name(state_of(s, 0, 0x0)),
          stc_coh_sp_state_name(state_of(s, 0, 0x10)));
    CHECK(state_of(s, 0, 0x800) == STC_COH_SP_S, "0x800 installed S");
    stc_cspl_submit(s, 0, STC_COH_OP_LOAD, 0x0, 4, 0, 4);
    CHECK(stc_cs_run(stc_cspl_bus(s), STC_CS_EV_ATTEMPT, 0) != 0,
          "the miss of 0x0 waits for its lines' puts, victims or not");
    stc_cspl_drain(s);
    CHECK_EQ_U64(log.loaded[4], 0x77, "the reload sees the store");
    expect_clean(s, "fetch waits for own put");
    stc_cspl_destroy(s);
}

/* ------------------------------------------------------ (c) random */

/* cores cores in names, refs random references (hot_bytes shared, few
 * lines), the layer check every 64; then a flush. Returns the problems
 * found: violations, layer check failures, addresses whose memory
 * differs from the shadow. */
/* A random core of the split system (and of atomic, if given) takes a
 * random one of the geometry's configurations, drawn from r. */
static void reconfigure_both(stc_cspl_system *split, stc_cstc_system *atomic, uint64_t r)
{
    stc_geometry geometry = default_geometry();
    stc_config all[STC_MAX_CONFIGS];
    size_t count = stc_config_enumerate(&geometry, all, STC_MAX_CONFIGS);
    unsigned core = (unsigned)(r % 4);
    const stc_config *next = &all[(r >> 8) % count];
    CHECK(stc_cspl_reconfigure(split, core, next) == 0, "reconfigure: %s",
          stc_cs_error(stc_cspl_bus(split)));
    if (atomic)
        CHECK(stc_cstc_reconfigure(atomic, core, next, NULL) == 0, "atomic reconfigure: %s",
              stc_cstc_error(atomic));
}

static uint64_t random_run(stc_coh_protocol protocol, const char *const *names, run_setup setup,
                           unsigned refs, stc_cspl_counters *total)
{
    uint64_t seed = setup.seed;
    unsigned breaks = setup.breaks;
    stc_cspl_system *s = make(protocol, 4, names, setup, NULL);
    static uint64_t touched[MAX_REFS];
    unsigned count = 0, layer_failures = 0;
    char err[ERR_LEN] = "";
    uint64_t draws = seed * 7919 + 1;
    for (unsigned i = 0; i < refs; i++) {
        if (setup.reconfigure_every && i % setup.reconfigure_every == setup.reconfigure_every - 1)
            reconfigure_both(s, NULL, rng_next(&draws));
        random_ref ref = draw(rng_next(&draws), 4, 256, 6 * 1024);
        submit(s, &ref, i);
        if (count < MAX_REFS)
            touched[count++] = ref.addr & ~7ull;
        if (i % 64 == 63 && !layer_ok(s, err) && layer_failures++ == 0 && !breaks)
            fprintf(stderr, "layer check: %s\n", err);
    }
    stc_cspl_drain(s);
    layer_failures += !layer_ok(s, err);
    stc_cspl_counters t;
    stc_cspl_total(s, &t);
    if (total)
        *total = t;
    stc_cspl_flush(s);
    unsigned differs = memory_differs(s, touched, count);
    uint64_t found = violations(s) + layer_failures + differs;
    if (found && !breaks)
        fprintf(stderr, "random %s seed %llu: %llu violations (%s), %u layer, %u memory\n",
                stc_coh_protocol_name(protocol), (unsigned long long)seed,
                (unsigned long long)violations(s), first_violation(s), layer_failures, differs);
    stc_cspl_destroy(s);
    return found;
}

static void random_schedules(void)
{
    uint64_t problems = 0, upgrades = 0, stalls = 0, pute = 0, false_sharing = 0;
    for (unsigned p = 0; p < 3; p++) {
        for (uint64_t seed = 1; seed <= 40; seed++) {
            stc_cspl_counters t;
            /* a third of the runs without a writeback buffer, a third
             * with one entry, a third with two */
            run_setup setup = {STC_CS_RANDOM, seed, (uint32_t)(seed % 3), 0, 0};
            problems += random_run(all_protocols[p], seed % 2 ? mixed : small, setup, 1500, &t);
            upgrades += t.coherence.upgrades;
            stalls += t.coherence.stalls;
            pute += t.coherence.pute;
            false_sharing += t.coherence.miss_false_sharing;
        }
    }
    CHECK_EQ_U64(problems, 0, "random schedule: problems over 120 runs");
    CHECK(upgrades > 0 && stalls > 0 && pute > 0 && false_sharing > 0,
          "random runs saw upgrades, stalls, PutEs and false sharing");
}

/* ------------------------------------------------------ (d) the oracle */

static stc_cstc_system *make_atomic(stc_coh_protocol protocol, const char *const *names)
{
    stc_cstc_config config = {.cores = 4, .geometry = default_geometry(), .protocol = protocol};
    for (unsigned c = 0; c < 4; c++)
        config.configs[c] = default_config(names[c]);
    char err[ERR_LEN] = "";
    stc_cstc_system *system = stc_cstc_create(&config, err, sizeof err);
    CHECK(system != NULL, "atomic create: %s", err);
    if (!system)
        exit(1);
    return system;
}

/* What must agree between the two buses (COHERENCE.md 10.2, 12). */
static void compare_core(const stc_cstc_counters *want, const stc_cspl_counters *got,
                         const char *what, unsigned core)
{
    const stc_coh_counters *a = &want->coherence;
    const stc_cs_counters *b = &got->coherence;
    CHECK_EQ_U64(b->hits, a->hits, "%s core %u: hits", what, core);
    CHECK_EQ_U64(b->misses, a->misses, "%s core %u: misses", what, core);
    CHECK_EQ_U64(b->gets, a->bus_rd, "%s core %u: GetS = BusRd", what, core);
    CHECK_EQ_U64(b->getm, a->bus_rdx + a->upgrades, "%s core %u: GetM = BusRdX + BusUpgr", what,
                 core);
    CHECK_EQ_U64(b->upgrades, a->upgrades, "%s core %u: upgrades", what, core);
    CHECK_EQ_U64(b->putm - b->pute, a->bus_wb, "%s core %u: puts less PutEs = BusWB", what, core);
    CHECK_EQ_U64(b->miss_compulsory, a->miss_compulsory, "%s core %u: compulsory", what, core);
    CHECK_EQ_U64(b->miss_true_sharing, a->miss_true_sharing, "%s core %u: true", what, core);
    CHECK_EQ_U64(b->miss_false_sharing, a->miss_false_sharing, "%s core %u: false", what, core);
    CHECK_EQ_U64(b->miss_capacity, a->miss_capacity, "%s core %u: capacity", what, core);
    CHECK_EQ_U64(b->miss_conflict, a->miss_conflict, "%s core %u: conflict", what, core);
    CHECK_EQ_U64(b->miss_true_dubois, a->miss_true_dubois, "%s core %u: true Dubois", what, core);
    CHECK_EQ_U64(b->miss_false_dubois, a->miss_false_dubois, "%s core %u: false Dubois", what,
                 core);
    CHECK_EQ_U64(got->cache.accesses, want->cache.accesses, "%s core %u: cache accesses", what, core);
    CHECK_EQ_U64(got->cache.misses, want->cache.misses, "%s core %u: cache misses", what, core);
    CHECK_EQ_U64(got->cache.fills, want->cache.fills, "%s core %u: cache fills", what, core);
}

/* What the walks did on both buses: the atomic cache's walk writebacks
 * are the split walks' PutMs, the lines it dropped the split walks' puts
 * and silent drops; the same reconfigurations and configurations. */
static void compare_walks(const stc_cstc_counters *want, const stc_cspl_counters *got,
                          const stc_config *want_config, const stc_config *got_config,
                          const char *what, unsigned core)
{
    CHECK_EQ_U64(got->walk.puts - got->walk.putes, want->cache.walk_writebacks,
                 "%s core %u: walk PutMs = walk writebacks", what, core);
    CHECK_EQ_U64(got->walk.puts + got->walk.silent, want->cache.walk_invalidations,
                 "%s core %u: walk puts + silent drops = walk invalidations", what, core);
    CHECK_EQ_U64(got->cache.reconfigs, want->cache.reconfigs, "%s core %u: reconfigs", what, core);
    CHECK_EQ_U64(got->cache.walk_writebacks + got->cache.walk_invalidations, 0,
                 "%s core %u: the split cache's own walks dropped nothing", what, core);
    CHECK(stc_config_equal(want_config, got_config), "%s core %u: the same configuration", what,
          core);
}

static void oracle_run(stc_coh_protocol protocol, const char *const *names, uint64_t seed,
                       uint32_t wb_buffer, unsigned reconfigure_every, uint64_t *walked)
{
    char what[80];
    snprintf(what, sizeof what, "oracle %s seed %llu buffer %u reconfigure %u",
             stc_coh_protocol_name(protocol), (unsigned long long)seed, wb_buffer,
             reconfigure_every);
    static done_log log;
    memset(&log, 0, sizeof log);
    stc_cspl_system *split =
        make(protocol, 4, names, (run_setup){STC_CS_SERIAL, seed, wb_buffer, 0, 0}, &log);
    stc_cstc_system *atomic = make_atomic(protocol, names);
    static uint64_t want[MAX_REFS], touched[MAX_REFS];
    static stc_coh_op ops[MAX_REFS];
    unsigned refs = 6000;
    for (unsigned i = 0; i < refs; i++) {
        if (reconfigure_every && i % reconfigure_every == reconfigure_every - 1)
            reconfigure_both(split, atomic, rng_next(&seed));
        random_ref ref = draw(rng_next(&seed), 4, 512, 24 * 1024);
        want[i] = 0;
        stc_cstc_access(atomic, ref.core, ref.op, ref.addr, ref.size, i + 1, &want[i]);
        submit(split, &ref, i);
        touched[i] = ref.addr & ~7ull;
        ops[i] = ref.op;
    }
    stc_cspl_drain(split);
    unsigned loads_differ = 0;
    for (unsigned i = 0; i < refs; i++)
        loads_differ += ops[i] == STC_COH_OP_LOAD && log.loaded[i] != want[i];
    CHECK_EQ_U64(loads_differ, 0, "%s: loads that returned other values", what);
    for (unsigned c = 0; c < 4; c++) {
        stc_cstc_counters a;
        stc_cstc_core_counters(atomic, c, &a);
        stc_cspl_counters b = counters_of(split, c);
        compare_core(&a, &b, what, c);
        compare_walks(&a, &b, &stc_cstc_config_of(atomic)->configs[c],
                      stc_cspl_config_of(split, c), what, c);
        *walked += b.walk.puts + b.walk.silent;
    }
    char err[ERR_LEN] = "";
    CHECK(layer_ok(split, err), "%s: layer check: %s", what, err);
    stc_cstc_drain(atomic);
    stc_cspl_flush(split);
    unsigned differs = 0;
    for (unsigned i = 0; i < refs; i++)
        differs += stc_cstc_memory_read(atomic, touched[i], 8) !=
                   stc_cs_memory_read(stc_cspl_bus(split), touched[i], 8);
    CHECK_EQ_U64(differs, 0, "%s: addresses whose flushed memory differs", what);
    CHECK_EQ_U64(memory_differs(split, touched, refs), 0, "%s: memory against the shadow", what);
    CHECK_EQ_U64(violations(split), 0, "%s: violations (%s)", what, first_violation(split));
    stc_cspl_destroy(split);
    stc_cstc_destroy(atomic);
}

static void oracle_agrees(void)
{
    uint64_t walked = 0;
    for (unsigned p = 0; p < 3; p++) {
        oracle_run(all_protocols[p], mixed, 500 + p, 0, 0, &walked);
        oracle_run(all_protocols[p], small, 600 + p, 0, 0, &walked);
        oracle_run(all_protocols[p], small, 700 + p, 2, 0, &walked);
    }
    CHECK_EQ_U64(walked, 0, "no reconfiguration, no walk");
    /* reconfigurations interleaved: every 50 references a random core */
    for (unsigned p = 0; p < 3; p++) {
        oracle_run(all_protocols[p], mixed, 800 + p, 0, 50, &walked);
        oracle_run(all_protocols[p], small, 900 + p, 1, 50, &walked);
        oracle_run(all_protocols[p], mixed, 1000 + p, 2, 20, &walked);
    }
    CHECK(walked > 1000, "the oracle's walks dropped lines (%llu)", (unsigned long long)walked);
}

/* ------------------------------------------------------ (e) reconfiguration */

/* stc_cache_walk_drops against the walk: on random traffic in from, the
 * reconfiguration to each of the geometry's configurations drops exactly
 * the lines the query named (invalidations), writes back exactly the
 * dirty ones among them, in the walk's order (rows, then banks). */
static void walk_drops_predicts(const char *from, uint64_t seed)
{
    stc_geometry geometry = default_geometry();
    stc_config start = config_named(&geometry, from), all[STC_MAX_CONFIGS];
    size_t count = stc_config_enumerate(&geometry, all, STC_MAX_CONFIGS);
    unsigned wrong = 0, dropped = 0, ordered = 0;
    for (size_t k = 0; k < count; k++) {
        burst_log log;
        stc_memory memory = {.context = &log, .read_burst = log_read, .write_burst = log_write};
        char err[ERR_LEN] = "";
        stc_cache *cache = stc_cache_create(&geometry, STC_DCACHE, &start, &memory, err, sizeof err);
        CHECK(cache != NULL, "%s: %s", from, err);
        if (!cache)
            return;
        for (unsigned i = 0; i < (k % 2 ? 150u : 2500u); i++) {
            uint64_t r = rng_next(&seed);
            uint8_t byte = (uint8_t)r;
            stc_access_result result;
            stc_cache_access(cache, r % 3 ? STC_OP_READ : STC_OP_WRITE, (r >> 8) % (64 * 1024), 1,
                             &byte, NULL, NULL, &result);
        }
        uint64_t dirty[64]; /* the first 64 dirty lines dropped, in the walk's order */
        unsigned drops = 0, dirty_count = 0;
        for (unsigned row = 0; row < geometry.rows; row++) {
            uint32_t mask = stc_cache_walk_drops(cache, &all[k], row);
            drops += (unsigned)__builtin_popcount(mask);
            for (unsigned bank = 0; bank < geometry.banks; bank++) {
                stc_slot slot;
                stc_cache_slot(cache, bank, row, &slot);
                if ((mask >> bank & 1) && slot.dirty && dirty_count++ < 64)
                    dirty[dirty_count - 1] = slot.line_addr;
            }
        }
        memset(&log, 0, sizeof log);
        stc_reconfig_result result;
        stc_cache_reconfigure(cache, &all[k], &result);
        bool same = result.invalidations == drops && result.writebacks == dirty_count &&
                    log.writes == dirty_count;
        /* the log is a ring of 64: the order is compared when it held all */
        for (unsigned i = 0; same && dirty_count <= 64 && i < dirty_count; i++)
            same = log.written[i] == dirty[i];
        ordered += dirty_count > 0 && dirty_count <= 64;
        if (!same && wrong++ == 0)
            fprintf(stderr, "%s -> config %zu: %u/%u dropped, %u/%u/%u written back\n", from, k,
                    result.invalidations, drops, result.writebacks, log.writes, dirty_count);
        dropped += drops;
        stc_cache_destroy(cache);
    }
    CHECK(dropped > 1000, "%s: walks dropped lines (%u)", from, dropped);
    CHECK(ordered > 5, "%s: walks whose writeback order was compared (%u)", from, ordered);
    CHECK_EQ_U64(wrong, 0, "%s: walks the query did not predict", from);
}

static void walk_drops_agree(void)
{
    static const char *const names[] = {"8K_4W_32B", "8K_1W_16B", "4K_2W_64B_P", "8K_2W_16B"};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        walk_drops_predicts(names[i], 300 + i);
}

/* MESI, serial. Core 0 in 8K_1W_16B holds, all in row 0, 0x800 M (bank
 * 1), 0x1000 E (bank 2), 0x1800 S (bank 3, core 1 has it too) and 0x0 E
 * (bank 0). Its reconfiguration to 2K_1W_16B (banks 1-3 off) is queued,
 * then core 1's load of 0x1000. The walk's first step issues 0x800's
 * PutM (MI^A) with the cache still in 8K; core 1's GetS, ordered
 * meanwhile, finds 0x1000 E where it is (not yet walked) and makes it S;
 * the PutM is ordered; the next step drops 0x1000 and 0x1800 silently
 * (both S now) and the cache switches; 0x0 stays, its next load a hit. */
static void walk_by_hand(void)
{
    const char *names[] = {"8K_1W_16B", "8K_4W_16B"};
    static done_log log;
    stc_cspl_system *s = make(STC_COH_MESI, 2, names, (run_setup){STC_CS_SERIAL, 1, 0, 0, 0}, &log);
    stc_cs_system *bus = stc_cspl_bus(s);
    stc_cspl_submit(s, 0, STC_COH_OP_STORE, 0x800, 4, 0x66, 0);
    stc_cspl_submit(s, 0, STC_COH_OP_LOAD, 0x1000, 4, 0, 1);
    stc_cspl_submit(s, 1, STC_COH_OP_LOAD, 0x1800, 4, 0, 2);
    stc_cspl_submit(s, 0, STC_COH_OP_LOAD, 0x1800, 4, 0, 3);
    stc_cspl_submit(s, 0, STC_COH_OP_LOAD, 0x0, 4, 0, 4);
    stc_cspl_drain(s);
    stc_config small_config = default_config("2K_1W_16B");
    const stc_cache *cache = stc_cspl_cache(s, 0);
    CHECK(stc_cspl_reconfigure(s, 0, &small_config) == 0, "queue the reconfiguration");
    stc_cspl_submit(s, 1, STC_COH_OP_LOAD, 0x1000, 4, 0, 5);
    run(s, STC_CS_EV_ATTEMPT, 0, "the walk's first line", 0);
    CHECK(state_of(s, 0, 0x800) == STC_COH_SP_MI_A, "0x800's PutM first (%s)",
          stc_coh_sp_state_name(state_of(s, 0, 0x800)));
    CHECK_EQ_U64(stc_cache_config(cache)->banks_on, 4, "the cache still in 8K while it waits");
    CHECK(stc_cache_lookup(cache, 0x1000) == 2, "0x1000 still in bank 2");
    run(s, STC_CS_EV_ATTEMPT, 1, "core 1's GetS of 0x1000", 0);
    run(s, STC_CS_EV_ORDER, 1, "core 1's GetS ordered", 0);
    CHECK(state_of(s, 0, 0x1000) == STC_COH_SP_S, "the snoop found 0x1000 where it was (%s)",
          stc_coh_sp_state_name(state_of(s, 0, 0x1000)));
    run(s, STC_CS_EV_ORDER, 0, "the PutM ordered", 0);
    CHECK(state_of(s, 0, 0x800) == STC_COH_SP_I && stc_cache_lookup(cache, 0x800) < 0,
          "0x800 left once its put was ordered");
    CHECK_EQ_U64(stc_cache_config(cache)->banks_on, 4, "the cache still in 8K");
    run(s, STC_CS_EV_ATTEMPT, 0, "the rest of the walk", 0);
    CHECK_EQ_U64(stc_cache_config(cache)->banks_on, 1, "the cache switched");
    stc_cspl_drain(s);
    stc_cspl_submit(s, 0, STC_COH_OP_LOAD, 0x0, 4, 0, 6);
    stc_cspl_drain(s);
    stc_cspl_counters c0 = counters_of(s, 0);
    CHECK_EQ_U64(c0.walk.reconfigs, 1, "one reconfiguration");
    CHECK_EQ_U64(c0.walk.puts, 1, "one walk put (0x800's PutM)");
    CHECK_EQ_U64(c0.walk.putes, 0, "no PutE: 0x1000 was S by then");
    CHECK_EQ_U64(c0.walk.silent, 2, "0x1000 and 0x1800 dropped silently");
    CHECK_EQ_U64(c0.walk.waited, 1, "the reconfiguration waited (for the PutM)");
    CHECK_EQ_U64(c0.walk.steps, 4, "from its first step to the switch: 4 steps");
    CHECK_EQ_U64(c0.cache.walk_writebacks + c0.cache.walk_invalidations, 0,
                 "the cache's own walk dropped nothing");
    CHECK_EQ_U64(c0.cache.reconfigs, 1, "the cache reconfigured once");
    CHECK_EQ_U64(c0.coherence.hits, 1, "0x0 stayed: its load hits");
    CHECK(state_of(s, 0, 0x0) == STC_COH_SP_E, "0x0 still E");
    CHECK_EQ_U64(stc_cs_memory_read(bus, 0x800, 4), 0x66, "memory has 0x800's store");
    CHECK_EQ_U64(log.loaded[5], 0, "core 1 loaded 0x1000");
    expect_clean(s, "walk by hand");
    stc_cspl_destroy(s);
}

/* MESI, serial, core 0 in 8K_1W_16B stores 0x55 to 0x1800 (M, bank 3),
 * is reconfigured to 2K_1W_16B (bank 3 off), then core 1 loads 0x1800
 * and the caches are flushed. The walk's PutM is ordered before the cache
 * switches. Returns the problems: violations, a failed layer check,
 * memory without the store, core 1 loading anything else. */
static uint64_t walk_put_before_sleep(unsigned breaks)
{
    const char *names[] = {"8K_1W_16B", "8K_4W_16B"};
    static done_log log;
    memset(&log, 0, sizeof log);
    stc_cspl_system *s = make(STC_COH_MESI, 2, names,
                              (run_setup){STC_CS_SERIAL, 1, 0, breaks, 0}, &log);
    stc_cs_system *bus = stc_cspl_bus(s);
    stc_cspl_submit(s, 0, STC_COH_OP_STORE, 0x1800, 4, 0x55, 0);
    stc_cspl_drain(s);
    stc_config small_config = default_config("2K_1W_16B");
    stc_cspl_reconfigure(s, 0, &small_config);
    run(s, STC_CS_EV_ATTEMPT, 0, "the walk's PutM", breaks);
    bool waiting = state_of(s, 0, 0x1800) == STC_COH_SP_MI_A &&
                   stc_cache_config(stc_cspl_cache(s, 0))->banks_on == 4;
    char err[ERR_LEN] = "";
    uint64_t found = !layer_ok(s, err);
    stc_cspl_drain(s);
    stc_cspl_submit(s, 1, STC_COH_OP_LOAD, 0x1800, 4, 0, 1);
    stc_cspl_drain(s);
    found += !layer_ok(s, err) + (log.loaded[1] != 0x55);
    stc_cspl_flush(s);
    found += violations(s) + (stc_cs_memory_read(bus, 0x1800, 4) != 0x55);
    if (breaks)
        printf("break %u by hand: %llu problems (%llu violations, first: %s; memory 0x%llx, "
               "core 1 loaded 0x%llx)\n",
               breaks, (unsigned long long)found, (unsigned long long)violations(s),
               first_violation(s), (unsigned long long)stc_cs_memory_read(bus, 0x1800, 4),
               (unsigned long long)log.loaded[1]);
    if (!breaks) {
        CHECK(waiting, "the PutM outstanding, the bank still on");
        CHECK_EQ_U64(counters_of(s, 0).walk.puts, 1, "one walk put");
        CHECK_EQ_U64(stc_cache_config(stc_cspl_cache(s, 0))->banks_on, 1, "switched");
        CHECK_EQ_U64(found, 0, "walk put before sleep: problems (%s)", first_violation(s));
    }
    stc_cspl_destroy(s);
    return found;
}

/* Random schedule, reconfigurations every 40 references (a random core,
 * a random configuration of the 27), MSI/MESI/MOESI x seeds x buffers. */
static void random_reconfigurations(void)
{
    uint64_t problems = 0;
    stc_cspl_walk_counters walk = {0};
    for (unsigned p = 0; p < 3; p++) {
        for (uint64_t seed = 1; seed <= 30; seed++) {
            stc_cspl_counters t;
            run_setup setup = {STC_CS_RANDOM, 100 + seed, (uint32_t)(seed % 3), 0, 40};
            problems += random_run(all_protocols[p], seed % 2 ? mixed : small, setup, 1500, &t);
            walk.reconfigs += t.walk.reconfigs;
            walk.puts += t.walk.puts;
            walk.putes += t.walk.putes;
            walk.silent += t.walk.silent;
            walk.waited += t.walk.waited;
        }
    }
    CHECK_EQ_U64(problems, 0, "random reconfigurations: problems over 90 runs");
    CHECK(walk.reconfigs > 3000 && walk.puts > 1000 && walk.putes > 100 && walk.silent > 1000 &&
              walk.waited > 500,
          "random reconfigurations: walks put, dropped, waited (%llu reconfigs, %llu puts, "
          "%llu PutEs, %llu silent, %llu waited)",
          (unsigned long long)walk.reconfigs, (unsigned long long)walk.puts,
          (unsigned long long)walk.putes, (unsigned long long)walk.silent,
          (unsigned long long)walk.waited);
}

/* ------------------------------------------------------ (f) broken */

/* The problems 18 random runs of a broken variant find (MSI, MESI, MOESI
 * x seeds 1-6, no writeback buffer, mixed configurations). */
static uint64_t broken_random_runs(unsigned breaks, unsigned reconfigure_every)
{
    uint64_t found = 0;
    for (unsigned p = 0; p < 3; p++)
        for (uint64_t seed = 1; seed <= 6; seed++)
            found += random_run(all_protocols[p], mixed,
                                (run_setup){STC_CS_RANDOM, seed, 0, breaks, reconfigure_every},
                                1500, NULL);
    return found;
}

/* Each broken variant turns its hand case and random runs red; the
 * walks' variants on runs with a reconfiguration every 40 references. */
static void broken_variants_caught(void)
{
    CHECK(snoop_in_fill_buffer(STC_CSPL_BREAK_FILL_NOT_SNOOPED) > 0,
          "fill buffer not snooped: the hand case goes red");
    CHECK(victim_put_first(STC_CSPL_BREAK_VICTIM_PUT_SKIPPED) > 0,
          "victim put skipped: the hand case goes red");
    CHECK(walk_put_before_sleep(STC_CSPL_BREAK_WALK_PUT_SKIPPED) > 0,
          "walk put skipped: the hand case goes red");
    CHECK(walk_put_before_sleep(STC_CSPL_BREAK_SLEEP_BEFORE_PUT) > 0,
          "sleep before put: the hand case goes red");
    static const struct {
        unsigned breaks, reconfigure_every;
    } runs[] = {{STC_CSPL_BREAK_FILL_NOT_SNOOPED, 0},
                {STC_CSPL_BREAK_VICTIM_PUT_SKIPPED, 0},
                {STC_CSPL_BREAK_WALK_PUT_SKIPPED, 40},
                {STC_CSPL_BREAK_SLEEP_BEFORE_PUT, 40}};
    for (unsigned b = 0; b < sizeof runs / sizeof runs[0]; b++) {
        uint64_t found = broken_random_runs(runs[b].breaks, runs[b].reconfigure_every);
        printf("break %u: %llu problems over 18 random runs\n", runs[b].breaks,
               (unsigned long long)found);
        CHECK(found > 0, "break %u: random runs go red", runs[b].breaks);
    }
}

static void bad_arguments(void)
{
    stc_cspl_config config = {.cores = 2, .geometry = default_geometry()};
    config.configs[0] = default_config("8K_4W_32B");
    config.configs[1] = (stc_config){.banks_on = 3, .ways = 1, .sublines = 1};
    char err[ERR_LEN] = "";
    CHECK(stc_cspl_create(&config, err, sizeof err) == NULL && strstr(err, "core 1"),
          "an illegal configuration is refused naming the core (%s)", err);
    config.cores = 0;
    CHECK(stc_cspl_create(&config, err, sizeof err) == NULL, "0 cores refused");
}

int main(void)
{
    plan_agrees();
    false_sharing_by_hand();
    CHECK_EQ_U64(snoop_in_fill_buffer(0), 0, "snoop in the fill buffer");
    CHECK_EQ_U64(victim_put_first(0), 0, "victim put first");
    victims_into_buffer();
    fetch_waits_for_own_put();
    oracle_agrees();
    random_schedules();
    walk_drops_agree();
    walk_by_hand();
    CHECK_EQ_U64(walk_put_before_sleep(0), 0, "walk put before sleep");
    random_reconfigurations();
    broken_variants_caught();
    bad_arguments();
    return check_done("test_coherent_stc_split");
}
