/*
 * test_coherent_split.c - the coherent system on the split-transaction bus
 * (coherent_split.h, docs/COHERENCE.md section 10):
 *   1. hand-driven sequences whose every transient state and counter is
 *      worked out in the comments (GetS against an M owner; two racing
 *      GetMs; an MI^A eviction snooped into II^A and its stale PutM; MOESI
 *      O supplying; the MESI E grant; a MOESI owner-to-be promising
 *      memory the block, against the same references in order); and with
 *      a writeback buffer (COHERENCE.md 10.11): the miss ordered before
 *      its victim's PutM, the buffered block snooped and supplying, a full
 *      buffer making an eviction wait, a miss to a buffered block;
 *   2. the SERIAL schedule against the atomic model (coherent.h) on random
 *      reference streams: every load's value, the shared counters, every
 *      final state, the shadow and memory; and on three real 4-thread
 *      traces when build/mc-traces holds them (run from the repository
 *      root): the shared counters;
 *   3. a random tester (random schedules, 2-8 cores, a few shared lines;
 *      without a writeback buffer and with 1 and 2 entries): no
 *      violation, every reference performed, and the tester's own
 *      per-writer coherence check;
 *   4. the broken split tables (stc_coh_sp_table_apply_break), each caught;
 *   5. litmus tests (CoRR, MP, SB, IRIW) over many random schedules: never
 *      a non-SC outcome;
 *   6. energy (stc_cs_energy_of, COHERENCE.md 10.9): a 2-core MESI sequence
 *      whose every event is counted by hand; under the serial schedule the
 *      atomic model's energy, part by part and per core, plus the events
 *      the split tables add or drop (found from the atomic model's states
 *      around each of its accesses, 10.2); under random schedules the
 *      cores adding up to the total, no part negative, one snoop lookup
 *      per other core per request.
 */
#include "check.h"
#include "splitmix.h"
#include "coherent.h"
#include "coherent_split.h"
#include "energy.h"
#include "mc_trace.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { ERR_LEN = 256, MAX_REFS = 40000 };

static const stc_coh_protocol all_protocols[] = {STC_COH_MSI, STC_COH_MESI, STC_COH_MOESI};
enum { PROTOCOLS = 3 };

/* Loaded values by tag, filled by the completion callback. */
typedef struct {
    uint64_t loaded[MAX_REFS];
    bool done[MAX_REFS];
    unsigned completed;
} results;

static void record_result(void *context, unsigned core, uint64_t tag, uint64_t loaded)
{
    (void)core;
    results *r = context;
    if (tag < MAX_REFS) {
        r->loaded[tag] = loaded;
        r->done[tag] = true;
    }
    r->completed++;
}

/* A system with wb_buffer writeback buffer entries per cache (0: none). */
static stc_cs_system *make_split_wb(stc_coh_protocol protocol, unsigned cores, uint32_t size,
                                    uint32_t ways, stc_cs_schedule schedule, uint64_t seed,
                                    const stc_coh_sp_table *table, results *r, uint32_t wb_buffer)
{
    stc_cs_config config = {.cores = cores, .size_bytes = size, .ways = ways, .line_bytes = 32,
                            .protocol = protocol, .table = table, .schedule = schedule,
                            .seed = seed, .done = r ? record_result : NULL, .done_context = r,
                            .watchdog_steps = 200000, .wb_buffer = wb_buffer};
    char err[ERR_LEN];
    stc_cs_system *system = stc_cs_create(&config, err, sizeof err);
    CHECK(system != NULL, "create: %s", err);
    return system;
}

static stc_cs_system *make_split(stc_coh_protocol protocol, unsigned cores, uint32_t size,
                                 uint32_t ways, stc_cs_schedule schedule, uint64_t seed,
                                 const stc_coh_sp_table *table, results *r)
{
    return make_split_wb(protocol, cores, size, ways, schedule, seed, table, r, 0);
}

static void print_violations(const stc_cs_system *system, const char *what)
{
    for (unsigned i = 0; i < 3 && stc_cs_violation_at(system, i); i++)
        fprintf(stderr, "  %s: %s\n", what, stc_cs_violation_at(system, i)->text);
}

#define RUN(system, kind, core) \
    CHECK(stc_cs_run(system, kind, core) == 0, "%s %u not enabled", #kind, (unsigned)(core))
/* Core's next access attempts and its request is ordered at once; _MISS:
 * and its data arrives too, nothing in between. */
#define RUN_ORDERED(system, core)             \
    do {                                      \
        RUN(system, STC_CS_EV_ATTEMPT, core); \
        RUN(system, STC_CS_EV_ORDER, core);   \
    } while (0)
#define RUN_MISS(system, core)                 \
    do {                                       \
        RUN_ORDERED(system, core);             \
        RUN(system, STC_CS_EV_RESPONSE, core); \
    } while (0)
#define STATE(system, core, addr, want)                                              \
    CHECK(stc_cs_state_of(system, core, addr) == (want), "core %u: %s, want %s", core, \
          stc_coh_sp_state_name(stc_cs_state_of(system, core, addr)),                \
          stc_coh_sp_state_name(want))
#define COUNTER(system, core, field, want) \
    CHECK_EQ_U64(stc_cs_core_counters(system, core)->field, want, "core %u %s", core, #field)

static const uint64_t A = 0x1000, B = 0x1020;

/* The identities of the miss classes (coherent.h), per core: every miss
 * in exactly one class; the Dubois pair splits the coherence misses, and
 * an at-miss true miss is Dubois true. Returns how many failed. */
static unsigned check_class_sums(const stc_cs_system *system, unsigned cores, const char *what)
{
    unsigned failed = 0;
    for (unsigned c = 0; c < cores; c++) {
        const stc_cs_counters *k = stc_cs_core_counters(system, c);
        uint64_t classes = k->miss_compulsory + k->miss_true_sharing + k->miss_false_sharing +
                           k->miss_capacity + k->miss_conflict;
        uint64_t sharing = k->miss_true_sharing + k->miss_false_sharing;
        CHECK_EQ_U64(classes, k->misses, "%s core %u: the classes sum to misses", what, c);
        CHECK_EQ_U64(k->miss_true_dubois + k->miss_false_dubois, sharing,
                     "%s core %u: Dubois true + false = the sharing misses", what, c);
        CHECK(k->miss_true_dubois >= k->miss_true_sharing,
              "%s core %u: Dubois true %llu below at-miss true %llu", what, c,
              (unsigned long long)k->miss_true_dubois, (unsigned long long)k->miss_true_sharing);
        failed += classes != k->misses || k->miss_true_dubois + k->miss_false_dubois != sharing ||
                  k->miss_true_dubois < k->miss_true_sharing;
    }
    return failed;
}

/* -------------------------------------------------------- hand sequences */

/* MSI, 3 cores. Core 0 stores A (GetM from memory), then core 1 loads A:
 * its GetS is ordered while core 0 holds M. Steps (one event each):
 *   1 core 0 attempts: I Store issues GetM -> IM^AD (a miss)
 *   2 the GetM is ordered: memory owns, nothing pending: it sends its
 *     zeros; cores 1, 2 observe Other-GetM in I; core 0 -> IM^D
 *   3 core 0's data: IM^D Own-Data stores, -> M (latency 3 - 1 = 2)
 *   4 core 1 attempts: I Load issues GetS -> IS^AD
 *   5 the GetS is ordered: core 0 is the owner, so memory does not answer;
 *     core 0's M Other-GetS sends the block to core 1 and to memory and
 *     goes to S (memory owns again, one writeback pending); core 1 -> IS^D
 *   6 core 1's data (from a cache): IS^D loads, -> S (latency 6 - 4 = 2)
 *   7 memory receives the writeback: current again. */
static void hand_gets_against_m(void)
{
    results r = {0};
    stc_cs_system *s = make_split(STC_COH_MSI, 3, 8192, 4, STC_CS_SERIAL, 1, NULL, &r);
    if (!s)
        return;
    stc_cs_submit(s, 0, STC_COH_OP_STORE, A, 4, 0x11111111, 0);
    RUN(s, STC_CS_EV_ATTEMPT, 0);
    STATE(s, 0, A, STC_COH_SP_IM_AD);
    RUN(s, STC_CS_EV_ORDER, 0);
    STATE(s, 0, A, STC_COH_SP_IM_D);
    CHECK(stc_cs_shadow_read(s, A, 4) == 0x11111111, "the store is ordered: in the shadow");
    RUN(s, STC_CS_EV_RESPONSE, 0);
    STATE(s, 0, A, STC_COH_SP_M);
    stc_cs_submit(s, 1, STC_COH_OP_LOAD, A, 4, 0, 1);
    RUN(s, STC_CS_EV_ATTEMPT, 1);
    STATE(s, 1, A, STC_COH_SP_IS_AD);
    RUN(s, STC_CS_EV_ORDER, 1);
    STATE(s, 0, A, STC_COH_SP_S);
    STATE(s, 1, A, STC_COH_SP_IS_D);
    CHECK(!stc_cs_memory_current(s, A), "a writeback is pending");
    RUN(s, STC_CS_EV_RESPONSE, 1);
    STATE(s, 1, A, STC_COH_SP_S);
    CHECK(r.done[1] && r.loaded[1] == 0x11111111, "core 1 loads 0x%llx",
          (unsigned long long)r.loaded[1]);
    RUN(s, STC_CS_EV_WRITEBACK, 0);
    CHECK(stc_cs_memory_current(s, A) && stc_cs_memory_read(s, A, 4) == 0x11111111,
          "memory 0x%llx", (unsigned long long)stc_cs_memory_read(s, A, 4));
    CHECK(stc_cs_step(s) == 0, "nothing left");
    COUNTER(s, 0, misses, 1);
    COUNTER(s, 0, getm, 1);
    COUNTER(s, 0, data_from_memory, 1);
    COUNTER(s, 0, writebacks, 1);
    COUNTER(s, 0, snoop_observations, 1);
    COUNTER(s, 0, latency_sum, 2);
    COUNTER(s, 0, latency_max, 2);
    COUNTER(s, 1, gets, 1);
    COUNTER(s, 1, data_from_cache, 1);
    COUNTER(s, 1, snoop_observations, 1);
    COUNTER(s, 1, transactions, 1);
    COUNTER(s, 1, latency_sum, 2);
    COUNTER(s, 2, snoop_observations, 2);
    CHECK_EQ_U64(stc_cs_steps(s), 7, "steps");
    CHECK_EQ_U64(stc_cs_violation_count(s), 0, "violations");
    print_violations(s, "gets against M");
    stc_cs_destroy(s);
}

/* MSI, 3 cores, two GetMs racing on A: core 0 stores bytes 0-3, core 1
 * bytes 4-7.
 *   1, 2 both attempt: IM^AD, IM^AD
 *   3 core 0's GetM ordered first: memory answers core 0 (zeros); core 1
 *     observes Other-GetM in IM^AD: "-", it stays IM^AD; core 0 -> IM^D;
 *     core 0 is memory's recorded owner
 *   4 core 1's GetM ordered: memory does not answer (core 0 owns); core 0
 *     observes Other-GetM in IM^D: it saves core 1 as the requester, ->
 *     IM^D_I; core 1 -> IM^D (its data will come from core 0)
 *   5 core 0's data: IM^D_I stores, sends the block (its store in it) to
 *     core 1, -> I (latency 5 - 1 = 4)
 *   6 core 1's data from core 0: it must be the shadow at step 4 (core 0's
 *     store, nothing of core 1's); IM^D stores, -> M (latency 6 - 2 = 4). */
static void hand_racing_getm(void)
{
    results r = {0};
    stc_cs_system *s = make_split(STC_COH_MSI, 3, 8192, 4, STC_CS_SERIAL, 1, NULL, &r);
    if (!s)
        return;
    stc_cs_submit(s, 0, STC_COH_OP_STORE, A, 4, 0xaaaaaaaa, 0);
    stc_cs_submit(s, 1, STC_COH_OP_STORE, A + 4, 4, 0xbbbbbbbb, 1);
    RUN(s, STC_CS_EV_ATTEMPT, 0);
    RUN(s, STC_CS_EV_ATTEMPT, 1);
    RUN(s, STC_CS_EV_ORDER, 0);
    STATE(s, 0, A, STC_COH_SP_IM_D);
    STATE(s, 1, A, STC_COH_SP_IM_AD);
    RUN(s, STC_CS_EV_ORDER, 1);
    STATE(s, 0, A, STC_COH_SP_IM_D_I);
    STATE(s, 1, A, STC_COH_SP_IM_D);
    CHECK(stc_cs_run(s, STC_CS_EV_RESPONSE, 1) == -1, "core 1 has no data yet");
    RUN(s, STC_CS_EV_RESPONSE, 0);
    STATE(s, 0, A, STC_COH_SP_I);
    RUN(s, STC_CS_EV_RESPONSE, 1);
    STATE(s, 1, A, STC_COH_SP_M);
    CHECK(stc_cs_shadow_read(s, A, 8) == 0xbbbbbbbbaaaaaaaaull, "shadow 0x%llx",
          (unsigned long long)stc_cs_shadow_read(s, A, 8));
    CHECK(stc_cs_memory_read(s, A, 8) == 0 && !stc_cs_memory_current(s, A),
          "memory stale, core 1 owns");
    COUNTER(s, 0, data_from_memory, 1);
    COUNTER(s, 1, data_from_cache, 1);
    COUNTER(s, 0, latency_sum, 4);
    COUNTER(s, 1, latency_sum, 4);
    COUNTER(s, 0, snoop_observations, 1);
    COUNTER(s, 1, snoop_observations, 1);
    COUNTER(s, 2, snoop_observations, 2);
    /* core 0 reads both words back: its GetS takes core 1's M to S */
    stc_cs_submit(s, 0, STC_COH_OP_LOAD, A, 8, 0, 2);
    stc_cs_drain(s);
    CHECK(r.loaded[2] == 0xbbbbbbbbaaaaaaaaull, "core 0 loads 0x%llx",
          (unsigned long long)r.loaded[2]);
    CHECK_EQ_U64(stc_cs_violation_count(s), 0, "violations");
    print_violations(s, "racing GetMs");
    stc_cs_destroy(s);
}

/* MESI, 2 cores, caches of one 32-byte line (A and B share it): E leaves
 * by a PutE, which moves no data, and a PutE ordered after another core's
 * GetS took the block is stale, as a PutM in II^A (COHERENCE.md 8.7
 * decision 3).
 *   1-3 core 0 loads A: E (memory records core 0 as owner)
 *   4 core 0's load of B misses; the victim A runs E Evict: PutE, EI^A;
 *     the load waits for it
 *   5 core 0's PutE ordered: core 0 owned A, so memory owns it again, with
 *     nothing to wait for (no writeback to deliver); EI^A -> I
 *   6-8 core 0 attempts again: GetS B, memory's zeros, E
 *   9 core 0 loads A: the victim B (E) issues a PutE, EI^A
 *   10 core 1's load of B is ordered first: core 0's EI^A sends B to core 1
 *     and to memory (as E) and goes to II^A; core 1 -> IS^D (the line was
 *     raised: no E)
 *   11 core 0's PutE ordered: memory's owner is nobody now: stale
 *     (stale_putm), II^A -> I, still no data
 *   12 the writeback of 10 and core 1's data arrive: core 1 S; core 0 then
 *     fetches A from memory (current since 5). */
static void hand_pute(void)
{
    results r = {0};
    stc_cs_system *s = make_split(STC_COH_MESI, 2, 32, 1, STC_CS_SERIAL, 1, NULL, &r);
    if (!s)
        return;
    stc_cs_submit(s, 0, STC_COH_OP_LOAD, A, 4, 0, 0);
    RUN_MISS(s, 0);
    STATE(s, 0, A, STC_COH_SP_E);
    stc_cs_submit(s, 0, STC_COH_OP_LOAD, B, 4, 0, 1);
    RUN(s, STC_CS_EV_ATTEMPT, 0);
    STATE(s, 0, A, STC_COH_SP_EI_A);
    RUN(s, STC_CS_EV_ORDER, 0);
    STATE(s, 0, A, STC_COH_SP_I);
    CHECK(stc_cs_run(s, STC_CS_EV_WRITEBACK, 0) == -1, "a PutE sends no data");
    CHECK(stc_cs_memory_current(s, A), "memory owns A after the PutE");
    RUN_MISS(s, 0);
    STATE(s, 0, B, STC_COH_SP_E);
    stc_cs_submit(s, 0, STC_COH_OP_LOAD, A, 4, 0, 2);
    RUN(s, STC_CS_EV_ATTEMPT, 0);
    STATE(s, 0, B, STC_COH_SP_EI_A);
    stc_cs_submit(s, 1, STC_COH_OP_LOAD, B, 4, 0, 3);
    RUN_ORDERED(s, 1);
    STATE(s, 0, B, STC_COH_SP_II_A);
    STATE(s, 1, B, STC_COH_SP_IS_D);
    RUN(s, STC_CS_EV_ORDER, 0);
    STATE(s, 0, B, STC_COH_SP_I);
    stc_cs_drain(s);
    STATE(s, 1, B, STC_COH_SP_S);
    STATE(s, 0, A, STC_COH_SP_E);
    CHECK(r.done[3] && r.loaded[3] == 0 && r.done[2] && r.loaded[2] == 0, "loads of zeros");
    COUNTER(s, 0, putm, 2);
    COUNTER(s, 0, pute, 2);
    COUNTER(s, 0, stale_putm, 1);
    COUNTER(s, 0, writebacks, 1); /* EI^A's answer to the GetS, not a PutE */
    COUNTER(s, 0, data_from_memory, 3);
    COUNTER(s, 1, data_from_cache, 1);
    COUNTER(s, 1, snoop_observations, 5);
    CHECK_EQ_U64(stc_cs_violation_count(s), 0, "PutE: violations");
    print_violations(s, "PutE");
    stc_cs_destroy(s);
}

/* MSI, 2 cores, caches of one 32-byte line (A and B share it). Core 0
 * holds A in M and loads B; core 1's GetM for A is ordered before core
 * 0's PutM.
 *   1-3 core 0 stores A: M
 *   4 core 0's load of B misses; the victim A runs M Evict: PutM, MI^A;
 *     the load waits for it (a stall)
 *   5 core 1 attempts its store to A: IM^AD
 *   6 core 1's GetM ordered: core 0 (still the owner, in MI^A) sends A
 *     to core 1 and goes to II^A; core 1 -> IM^D
 *   7 core 0's PutM ordered: memory's owner is core 1, so it is stale and
 *     ignored (stale_putm); II^A -> I (latency 7 - 4 = 3); no writeback
 *   8 core 1's data (core 0's store in it): M
 *   9-11 core 0 attempts again: the frame is free, GetS B, memory's
 *     zeros, S. */
static void hand_stale_putm(void)
{
    results r = {0};
    stc_cs_system *s = make_split(STC_COH_MSI, 2, 32, 1, STC_CS_SERIAL, 1, NULL, &r);
    if (!s)
        return;
    stc_cs_submit(s, 0, STC_COH_OP_STORE, A, 4, 0x11111111, 0);
    RUN(s, STC_CS_EV_ATTEMPT, 0);
    RUN(s, STC_CS_EV_ORDER, 0);
    RUN(s, STC_CS_EV_RESPONSE, 0);
    stc_cs_submit(s, 0, STC_COH_OP_LOAD, B, 4, 0, 1);
    RUN(s, STC_CS_EV_ATTEMPT, 0);
    STATE(s, 0, A, STC_COH_SP_MI_A);
    STATE(s, 0, B, STC_COH_SP_I);
    stc_cs_submit(s, 1, STC_COH_OP_STORE, A, 4, 0x22222222, 2);
    RUN(s, STC_CS_EV_ATTEMPT, 1);
    RUN(s, STC_CS_EV_ORDER, 1);
    STATE(s, 0, A, STC_COH_SP_II_A);
    STATE(s, 1, A, STC_COH_SP_IM_D);
    CHECK(stc_cs_run(s, STC_CS_EV_ATTEMPT, 0) == -1, "core 0 waits for its PutM");
    RUN(s, STC_CS_EV_ORDER, 0);
    STATE(s, 0, A, STC_COH_SP_I);
    CHECK(stc_cs_run(s, STC_CS_EV_WRITEBACK, 0) == -1, "a stale PutM sends no data");
    RUN(s, STC_CS_EV_RESPONSE, 1);
    STATE(s, 1, A, STC_COH_SP_M);
    RUN(s, STC_CS_EV_ATTEMPT, 0);
    STATE(s, 0, B, STC_COH_SP_IS_AD);
    RUN(s, STC_CS_EV_ORDER, 0);
    RUN(s, STC_CS_EV_RESPONSE, 0);
    STATE(s, 0, B, STC_COH_SP_S);
    CHECK(r.done[1] && r.loaded[1] == 0, "core 0 loads B = 0");
    CHECK(stc_cs_shadow_read(s, A, 4) == 0x22222222, "core 1's store is the last");
    CHECK(stc_cs_memory_read(s, A, 4) == 0 && !stc_cs_memory_current(s, A), "core 1 owns A");
    COUNTER(s, 0, references, 2);
    COUNTER(s, 0, misses, 2);
    COUNTER(s, 0, putm, 1);
    COUNTER(s, 0, stale_putm, 1);
    COUNTER(s, 0, stalls, 1);
    COUNTER(s, 0, writebacks, 0);
    COUNTER(s, 0, data_from_memory, 2);
    COUNTER(s, 0, transactions, 3);
    COUNTER(s, 0, latency_max, 3);
    COUNTER(s, 0, snoop_observations, 1);
    COUNTER(s, 1, snoop_observations, 3);
    COUNTER(s, 1, data_from_cache, 1);
    CHECK_EQ_U64(stc_cs_violation_count(s), 0, "violations");
    print_violations(s, "stale PutM");
    stc_cs_destroy(s);
}

/* ------------------------------------------------ the writeback buffer */

/* (a) MSI, 2 cores, caches of one 32-byte line, a writeback buffer of one
 * entry (COHERENCE.md 10.11). Core 0 holds A in M and loads B: the
 * eviction moves A, in MI^A, into the buffer and frees the frame, and the
 * same attempt issues the GetS for B, which the bus orders and answers
 * before the PutM.
 *   1-3 core 0 stores A: M (GetM latency 2)
 *   4 core 0's load of B: A (M Evict: PutM) into the buffer in MI^A, the
 *     frame takes B: IS^AD; two requests queued, no stall
 *   5 the GetS ordered (memory answers B; core 1 observes it) -> IS^D,
 *     while A is still MI^A in the buffer, memory not yet current
 *   6 B's data: the load performs (latency 2), before the PutM is ordered
 *   7 the PutM ordered: memory owns with one writeback pending, MI^A sends
 *     its data and is I, the slot free (latency 7 - 4 = 3)
 *   8 memory receives A. Without the buffer the same takes 9 steps and a
 *     stall (hand_stale_putm's shape). */
static void hand_wb_miss_before_putm(void)
{
    results r = {0};
    stc_cs_system *s = make_split_wb(STC_COH_MSI, 2, 32, 1, STC_CS_SERIAL, 1, NULL, &r, 1);
    if (!s)
        return;
    stc_cs_submit(s, 0, STC_COH_OP_STORE, A, 8, 0x1111111122222222ull, 0);
    RUN_MISS(s, 0);
    STATE(s, 0, A, STC_COH_SP_M);
    stc_cs_submit(s, 0, STC_COH_OP_LOAD, B, 4, 0, 1);
    RUN(s, STC_CS_EV_ATTEMPT, 0);
    STATE(s, 0, A, STC_COH_SP_MI_A);
    STATE(s, 0, B, STC_COH_SP_IS_AD);
    COUNTER(s, 0, stalls, 0);
    RUN(s, STC_CS_EV_ORDER, 0);
    STATE(s, 0, B, STC_COH_SP_IS_D);
    STATE(s, 0, A, STC_COH_SP_MI_A);
    CHECK(!stc_cs_memory_current(s, A), "A still owned by core 0's buffer");
    RUN(s, STC_CS_EV_RESPONSE, 0);
    STATE(s, 0, B, STC_COH_SP_S);
    CHECK(r.done[1] && r.loaded[1] == 0, "the load of B performed before the PutM's ordering");
    CHECK(stc_cs_run(s, STC_CS_EV_ORDER_PUT, 1) == -1, "core 1 has nothing buffered");
    RUN(s, STC_CS_EV_ORDER_PUT, 0);
    STATE(s, 0, A, STC_COH_SP_I);
    CHECK(stc_cs_run(s, STC_CS_EV_ORDER_PUT, 0) == -1, "the buffer is empty");
    RUN(s, STC_CS_EV_WRITEBACK, 0);
    CHECK(stc_cs_memory_current(s, A) && stc_cs_memory_read(s, A, 8) == 0x1111111122222222ull,
          "memory A 0x%llx", (unsigned long long)stc_cs_memory_read(s, A, 8));
    CHECK(stc_cs_step(s) == 0, "nothing left");
    COUNTER(s, 0, misses, 2);
    COUNTER(s, 0, stalls, 0);
    COUNTER(s, 0, putm, 1);
    COUNTER(s, 0, writebacks, 1);
    COUNTER(s, 0, data_from_memory, 2);
    COUNTER(s, 0, transactions, 3);
    COUNTER(s, 0, latency_sum, 7);
    COUNTER(s, 0, latency_max, 3);
    COUNTER(s, 1, snoop_observations, 3);
    CHECK_EQ_U64(stc_cs_steps(s), 8, "steps");
    CHECK_EQ_U64(stc_cs_violation_count(s), 0, "violations");
    print_violations(s, "wb: miss before PutM");
    stc_cs_destroy(s);
}

/* (b) MOESI, 3 cores, one-line caches, one buffer entry. Core 0's M copy
 * of A (0x1111111122222222) is evicted into the buffer (MI^A) by its load
 * of B, and two requests are ordered before its PutM:
 *   5, 6 core 1's GetS: core 0 is still memory's recorded owner, so memory
 *     does not answer; the buffered MI^A's Other-GetS row sends the block
 *     and raises the line: OI^A, still in the buffer; core 1 IS^D
 *   7 core 1's data (from the buffer): it loads core 0's value
 *   8, 9 core 2's GetM (a store of 0x33333333 to A + 4): OI^A's
 *     Other-GetM row sends the block: II^A; core 1's S -> I; core 2 IM^D
 *   10 core 2's data (from the buffer): stores, M
 *   11 core 2 loads A's 8 bytes, a hit: core 0's low word and its own
 *     high word, so the block it received was the buffered one (memory
 *     still holds zeros)
 *   12, 13 core 0's GetS of B ordered and answered
 *   14 core 0's PutM ordered: stale (core 2 owns), II^A -> I, no data. */
static void hand_wb_snooped(void)
{
    results r = {0};
    stc_cs_system *s = make_split_wb(STC_COH_MOESI, 3, 32, 1, STC_CS_SERIAL, 1, NULL, &r, 1);
    if (!s)
        return;
    stc_cs_submit(s, 0, STC_COH_OP_STORE, A, 8, 0x1111111122222222ull, 0);
    RUN_MISS(s, 0);
    stc_cs_submit(s, 0, STC_COH_OP_LOAD, B, 4, 0, 1);
    RUN(s, STC_CS_EV_ATTEMPT, 0);
    STATE(s, 0, A, STC_COH_SP_MI_A);
    stc_cs_submit(s, 1, STC_COH_OP_LOAD, A, 8, 0, 2);
    RUN_ORDERED(s, 1);
    STATE(s, 0, A, STC_COH_SP_OI_A);
    STATE(s, 1, A, STC_COH_SP_IS_D);
    RUN(s, STC_CS_EV_RESPONSE, 1);
    STATE(s, 1, A, STC_COH_SP_S);
    CHECK(r.done[2] && r.loaded[2] == 0x1111111122222222ull, "core 1 loads 0x%llx from the buffer",
          (unsigned long long)r.loaded[2]);
    stc_cs_submit(s, 2, STC_COH_OP_STORE, A + 4, 4, 0x33333333, 3);
    RUN_ORDERED(s, 2);
    STATE(s, 0, A, STC_COH_SP_II_A);
    STATE(s, 1, A, STC_COH_SP_I);
    STATE(s, 2, A, STC_COH_SP_IM_D);
    RUN(s, STC_CS_EV_RESPONSE, 2);
    STATE(s, 2, A, STC_COH_SP_M);
    stc_cs_submit(s, 2, STC_COH_OP_LOAD, A, 8, 0, 4);
    RUN(s, STC_CS_EV_ATTEMPT, 2);
    CHECK(r.done[4] && r.loaded[4] == 0x3333333322222222ull, "core 2 loads 0x%llx",
          (unsigned long long)r.loaded[4]);
    CHECK(stc_cs_memory_read(s, A, 8) == 0, "memory never got A: the buffer supplied it");
    RUN(s, STC_CS_EV_ORDER, 0);
    RUN(s, STC_CS_EV_RESPONSE, 0);
    STATE(s, 0, B, STC_COH_SP_E);
    RUN(s, STC_CS_EV_ORDER_PUT, 0);
    STATE(s, 0, A, STC_COH_SP_I);
    CHECK(stc_cs_run(s, STC_CS_EV_WRITEBACK, 0) == -1, "a stale PutM sends no data");
    CHECK(stc_cs_step(s) == 0, "nothing left");
    COUNTER(s, 0, putm, 1);
    COUNTER(s, 0, stale_putm, 1);
    COUNTER(s, 0, writebacks, 0);
    COUNTER(s, 0, stalls, 0);
    COUNTER(s, 1, data_from_cache, 1);
    COUNTER(s, 2, data_from_cache, 1);
    CHECK_EQ_U64(stc_cs_steps(s), 14, "steps");
    CHECK_EQ_U64(stc_cs_violation_count(s), 0, "violations");
    print_violations(s, "wb: snooped");
    stc_cs_destroy(s);
}

/* (c) MSI, 2 cores, one set of two ways, buffers of `entries`. Core 0
 * stores A and B (both M), loads C (A, the least recent, into the buffer;
 * C takes its frame), then loads D, whose victim B needs a put too. One
 * entry: A's PutM is still queued, so the load of D waits (its attempt is
 * not enabled: one stall, B still M in its frame) until A's PutM is
 * ordered, then B moves into the buffer. Two entries: no wait, A and B
 * both buffered. Memory ends with both stores either way. */
static void hand_wb_full_stalls(uint32_t entries)
{
    results r = {0};
    stc_cs_system *s = make_split_wb(STC_COH_MSI, 2, 64, 2, STC_CS_SERIAL, 1, NULL, &r, entries);
    if (!s)
        return;
    stc_cs_submit(s, 0, STC_COH_OP_STORE, A, 4, 0xaaaa, 0);
    RUN_MISS(s, 0);
    stc_cs_submit(s, 0, STC_COH_OP_STORE, B, 4, 0xbbbb, 1);
    RUN_MISS(s, 0);
    const uint64_t C = 0x2000, D = 0x2020;
    stc_cs_submit(s, 0, STC_COH_OP_LOAD, C, 4, 0, 2);
    RUN_MISS(s, 0);
    STATE(s, 0, A, STC_COH_SP_MI_A);
    STATE(s, 0, C, STC_COH_SP_S);
    stc_cs_submit(s, 0, STC_COH_OP_LOAD, D, 4, 0, 3);
    if (entries == 1) {
        CHECK(stc_cs_run(s, STC_CS_EV_ATTEMPT, 0) == -1, "the buffer is full: the eviction waits");
        STATE(s, 0, B, STC_COH_SP_M);
        COUNTER(s, 0, stalls, 1);
        RUN(s, STC_CS_EV_ORDER_PUT, 0);
        STATE(s, 0, A, STC_COH_SP_I);
    }
    RUN(s, STC_CS_EV_ATTEMPT, 0);
    STATE(s, 0, B, STC_COH_SP_MI_A);
    STATE(s, 0, D, STC_COH_SP_IS_AD);
    if (entries > 1)
        STATE(s, 0, A, STC_COH_SP_MI_A);
    stc_cs_drain(s);
    CHECK(stc_cs_memory_current(s, A) && stc_cs_memory_read(s, A, 4) == 0xaaaa &&
              stc_cs_memory_current(s, B) && stc_cs_memory_read(s, B, 4) == 0xbbbb,
          "memory A 0x%llx B 0x%llx", (unsigned long long)stc_cs_memory_read(s, A, 4),
          (unsigned long long)stc_cs_memory_read(s, B, 4));
    CHECK(r.done[3] && r.loaded[3] == 0, "the load of D performed");
    COUNTER(s, 0, stalls, entries == 1 ? 1 : 0);
    COUNTER(s, 0, putm, 2);
    COUNTER(s, 0, writebacks, 2);
    COUNTER(s, 0, transactions, 6);
    CHECK_EQ_U64(stc_cs_violation_count(s), 0, "violations");
    print_violations(s, "wb: full");
    stc_cs_destroy(s);
}

/* (d) MSI, 2 cores, one-line caches, one buffer entry. Core 0's M copy of
 * A (0x1111111122222222) goes into the buffer for its load of B; then
 * core 0 loads A again. The access waits until A's PutM is ordered (a
 * stall; it does not take the block back: COHERENCE.md 10.11), then
 * misses: B leaves silently, the GetS is ordered while memory waits for
 * A's writeback, so memory owes core 0 the block and answers it only when
 * the writeback arrives; the load returns core 0's own store.
 *   1-3 store A; 4-6 load B (A buffered)
 *   (attempt not enabled: one stall)
 *   7 the PutM ordered: A I, memory owns, one writeback pending
 *   8 core 0 attempts again: S Evict (silent), GetS A: IS^AD
 *   9 ordered: memory owes it the block after one writeback: IS^D
 *   10 memory receives the writeback and answers
 *   11 the data: the load performs. */
static void hand_wb_miss_to_buffered(void)
{
    results r = {0};
    stc_cs_system *s = make_split_wb(STC_COH_MSI, 2, 32, 1, STC_CS_SERIAL, 1, NULL, &r, 1);
    if (!s)
        return;
    stc_cs_submit(s, 0, STC_COH_OP_STORE, A, 8, 0x1111111122222222ull, 0);
    RUN_MISS(s, 0);
    stc_cs_submit(s, 0, STC_COH_OP_LOAD, B, 4, 0, 1);
    RUN_MISS(s, 0);
    STATE(s, 0, A, STC_COH_SP_MI_A);
    stc_cs_submit(s, 0, STC_COH_OP_LOAD, A, 8, 0, 2);
    CHECK(stc_cs_run(s, STC_CS_EV_ATTEMPT, 0) == -1, "a load of a buffered block waits");
    STATE(s, 0, A, STC_COH_SP_MI_A);
    STATE(s, 0, B, STC_COH_SP_S);
    RUN(s, STC_CS_EV_ORDER_PUT, 0);
    STATE(s, 0, A, STC_COH_SP_I);
    RUN_ORDERED(s, 0);
    STATE(s, 0, A, STC_COH_SP_IS_D);
    STATE(s, 0, B, STC_COH_SP_I);
    CHECK(stc_cs_run(s, STC_CS_EV_RESPONSE, 0) == -1, "memory waits for the writeback");
    RUN(s, STC_CS_EV_WRITEBACK, 0);
    RUN(s, STC_CS_EV_RESPONSE, 0);
    STATE(s, 0, A, STC_COH_SP_S);
    CHECK(r.done[2] && r.loaded[2] == 0x1111111122222222ull, "core 0 reloads 0x%llx",
          (unsigned long long)r.loaded[2]);
    CHECK(stc_cs_step(s) == 0, "nothing left");
    COUNTER(s, 0, misses, 3);
    COUNTER(s, 0, stalls, 1);
    COUNTER(s, 0, data_from_memory, 3);
    COUNTER(s, 0, writebacks, 1);
    CHECK_EQ_U64(stc_cs_steps(s), 11, "steps");
    CHECK_EQ_U64(stc_cs_violation_count(s), 0, "violations");
    print_violations(s, "wb: miss to a buffered block");
    stc_cs_destroy(s);
}

/* MOESI, 3 cores: core 0's M answers core 1's GetS by supplying and
 * raising the shared line: M -> O, memory neither written nor told (it
 * stays stale, core 0 still its recorded owner); core 1 IS^AD -> IS^D (line
 * raised) -> S. Core 2's GetS: O supplies again (data_from_cache), core 1's
 * S raises the line too. Then MESI: a lone GetS is granted E (IE^D),
 * memory records the reader as owner, and its store is silent. */
static void hand_moesi_owner(void)
{
    results r = {0};
    stc_cs_system *s = make_split(STC_COH_MOESI, 3, 8192, 4, STC_CS_SERIAL, 1, NULL, &r);
    if (!s)
        return;
    stc_cs_submit(s, 0, STC_COH_OP_STORE, A, 4, 0x11111111, 0);
    stc_cs_drain(s);
    stc_cs_submit(s, 1, STC_COH_OP_LOAD, A, 4, 0, 1);
    RUN(s, STC_CS_EV_ATTEMPT, 1);
    RUN(s, STC_CS_EV_ORDER, 1);
    STATE(s, 0, A, STC_COH_SP_O);
    STATE(s, 1, A, STC_COH_SP_IS_D);
    RUN(s, STC_CS_EV_RESPONSE, 1);
    stc_cs_submit(s, 2, STC_COH_OP_LOAD, A, 4, 0, 2);
    stc_cs_drain(s);
    STATE(s, 0, A, STC_COH_SP_O);
    STATE(s, 1, A, STC_COH_SP_S);
    STATE(s, 2, A, STC_COH_SP_S);
    CHECK(r.loaded[1] == 0x11111111 && r.loaded[2] == 0x11111111, "both read core 0's store");
    CHECK(stc_cs_memory_read(s, A, 4) == 0 && !stc_cs_memory_current(s, A),
          "memory stale: O owns");
    COUNTER(s, 0, writebacks, 0);
    COUNTER(s, 1, data_from_cache, 1);
    COUNTER(s, 2, data_from_cache, 1);
    CHECK_EQ_U64(stc_cs_violation_count(s), 0, "violations");
    stc_cs_destroy(s);

    s = make_split(STC_COH_MESI, 2, 8192, 4, STC_CS_SERIAL, 1, NULL, &r);
    if (!s)
        return;
    stc_cs_submit(s, 0, STC_COH_OP_LOAD, A, 4, 0, 3);
    RUN(s, STC_CS_EV_ATTEMPT, 0);
    RUN(s, STC_CS_EV_ORDER, 0);
    STATE(s, 0, A, STC_COH_SP_IE_D);
    CHECK(!stc_cs_memory_current(s, A), "E granted: memory records the owner");
    RUN(s, STC_CS_EV_RESPONSE, 0);
    STATE(s, 0, A, STC_COH_SP_E);
    stc_cs_submit(s, 0, STC_COH_OP_STORE, A, 4, 0x33333333, 4);
    RUN(s, STC_CS_EV_ATTEMPT, 0);
    STATE(s, 0, A, STC_COH_SP_M);
    COUNTER(s, 0, hits, 1);
    COUNTER(s, 0, getm, 0);
    CHECK_EQ_U64(stc_cs_violation_count(s), 0, "violations");
    stc_cs_destroy(s);
}

/* MOESI, 3 cores: COHERENCE.md 8.7 decision 6 and what it costs (10.7).
 * Raced, by hand:
 *   1-2 core 0 stores A: GetM ordered, memory answers (it owns: never
 *     cached, so not a promised miss); IM^D, core 0 the recorded owner
 *   3-4 core 1 loads A: its GetS is ordered while core 0 still waits for
 *     its data: IM^D Other-GetS saves core 1 and promises memory the
 *     block (owe mem: promised_writebacks 1; memory owns again) -> IM^D_S
 *   5-6 core 2 loads A: memory owns because of that promise, so it
 *     answers, after the promised writeback (data_from_memory_promised)
 *   7 core 0's data: it stores, sends the block to core 1 and to memory,
 *     S; 8 core 1's data from core 0: S; 9 the writeback: memory current,
 *     and it answers core 2; 10 core 2: S
 *   11 core 0 stores A again: S, an upgrade; memory still owns (by the
 *     promise), so its GetM fetches the block from memory (promised again)
 * The same four references ordered one at a time: core 0 M, then O
 * supplying both loads and keeping ownership, its second store an OM^AD
 * upgrade without data: no writeback and one memory read. The race costs
 * its writeback and a memory read for every miss until a cache owns
 * again, here two. */
static void hand_moesi_promise(void)
{
    results r = {0};
    stc_cs_system *s = make_split(STC_COH_MOESI, 3, 8192, 4, STC_CS_SERIAL, 1, NULL, &r);
    if (!s)
        return;
    stc_cs_submit(s, 0, STC_COH_OP_STORE, A, 4, 0x11111111, 0);
    RUN_ORDERED(s, 0);
    STATE(s, 0, A, STC_COH_SP_IM_D);
    stc_cs_submit(s, 1, STC_COH_OP_LOAD, A, 4, 0, 1);
    RUN_ORDERED(s, 1);
    STATE(s, 0, A, STC_COH_SP_IM_D_S);
    STATE(s, 1, A, STC_COH_SP_IS_D);
    COUNTER(s, 0, promised_writebacks, 1);
    stc_cs_submit(s, 2, STC_COH_OP_LOAD, A, 4, 0, 2);
    RUN_ORDERED(s, 2);
    STATE(s, 2, A, STC_COH_SP_IS_D);
    COUNTER(s, 2, data_from_memory_promised, 1);
    CHECK(stc_cs_run(s, STC_CS_EV_RESPONSE, 2) == -1, "memory answers after the writeback");
    RUN(s, STC_CS_EV_RESPONSE, 0);
    STATE(s, 0, A, STC_COH_SP_S);
    RUN(s, STC_CS_EV_RESPONSE, 1);
    RUN(s, STC_CS_EV_WRITEBACK, 0);
    CHECK(stc_cs_memory_current(s, A) && stc_cs_memory_read(s, A, 4) == 0x11111111,
          "memory current: 0x%llx", (unsigned long long)stc_cs_memory_read(s, A, 4));
    RUN(s, STC_CS_EV_RESPONSE, 2);
    STATE(s, 1, A, STC_COH_SP_S);
    STATE(s, 2, A, STC_COH_SP_S);
    stc_cs_submit(s, 0, STC_COH_OP_STORE, A, 4, 0x22222222, 3);
    stc_cs_drain(s);
    STATE(s, 0, A, STC_COH_SP_M);
    CHECK(r.loaded[1] == 0x11111111 && r.loaded[2] == 0x11111111, "both read core 0's store");
    COUNTER(s, 0, promised_writebacks, 1);
    COUNTER(s, 0, writebacks, 1);
    COUNTER(s, 0, upgrades, 1);
    COUNTER(s, 0, data_from_memory, 2);
    COUNTER(s, 0, data_from_memory_promised, 1);
    COUNTER(s, 1, data_from_cache, 1);
    COUNTER(s, 2, data_from_memory, 1);
    COUNTER(s, 1, promised_writebacks, 0);
    COUNTER(s, 2, promised_writebacks, 0);
    CHECK_EQ_U64(stc_cs_violation_count(s), 0, "violations");
    print_violations(s, "MOESI promise");
    stc_cs_destroy(s);

    s = make_split(STC_COH_MOESI, 3, 8192, 4, STC_CS_SERIAL, 1, NULL, &r);
    if (!s)
        return;
    stc_cs_submit(s, 0, STC_COH_OP_STORE, A, 4, 0x11111111, 0);
    stc_cs_drain(s);
    stc_cs_submit(s, 1, STC_COH_OP_LOAD, A, 4, 0, 1);
    stc_cs_drain(s);
    stc_cs_submit(s, 2, STC_COH_OP_LOAD, A, 4, 0, 2);
    stc_cs_drain(s);
    STATE(s, 0, A, STC_COH_SP_O);
    stc_cs_submit(s, 0, STC_COH_OP_STORE, A, 4, 0x22222222, 3);
    stc_cs_drain(s);
    STATE(s, 0, A, STC_COH_SP_M);
    stc_cs_counters total;
    stc_cs_total(s, &total);
    CHECK_EQ_U64(total.writebacks, 0, "in order: writebacks");
    CHECK_EQ_U64(total.promised_writebacks, 0, "in order: promises");
    CHECK_EQ_U64(total.data_from_memory, 1, "in order: memory reads");
    CHECK_EQ_U64(total.data_from_cache, 2, "in order: O supplies both loads");
    CHECK_EQ_U64(stc_cs_violation_count(s), 0, "violations");
    stc_cs_destroy(s);
}

/* MSI, 2 cores, caches of two 32-byte lines in one way (A and C = A +
 * 0x40 share a set): miss classes (coherent.h, both splits) told to the
 * book in the coherence order. Word 0 is A's bytes 0-3, word 1 bytes 4-7.
 *   1 core 0 loads word 0: a compulsory miss (told at its GetS's
 *     ordering); S
 *   2 core 1 loads word 1: a compulsory miss; S, S
 *   3 both store, racing, from S: each a hit at its first attempt (an
 *     upgrade: SM^AD, SM^AD). Core 0's GetM is ordered first: its access
 *     (a hit) is told; core 1's SM^AD sees Other-GetM -> IM^AD: its copy
 *     is invalidated, then core 0's store makes word 0 news to it. Core
 *     1's GetM is ordered: its access stays the hit its attempt counted,
 *     and the block it fetches again is a fill (lost no longer; word 0,
 *     new since its last essential miss, new to this lifetime); core 0's
 *     SM^D sees Other-GetM -> SM^D_I: invalidated, then word 1 is news to
 *     core 0. Core 0's data: it stores, passes the block on, I; core 1's:
 *     M.
 *   4 core 1 loads C: a compulsory miss whose victim A (M) leaves with a
 *     PutM: its lifetime ends (evicted), the load waits for the PutM
 *   5 core 1 loads word 1: not a coherence miss (the fill of 3 took back
 *     the copy lost there; it was evicted since): a replacement, and the
 *     fully associative cache of two lines still holds A: CONFLICT
 *   6 core 0 loads word 0: a coherence miss touching word 0, which no one
 *     else wrote since: FALSE SHARING. Dubois: its lifetime's new words
 *     are {word 1} (core 1's store since core 0's compulsory miss): false
 *     for now
 *   7 core 0 loads word 1: a hit touching a new word: the miss of 6 moves
 *     to TRUE (Dubois)
 *   8 core 0 stores word 1: a hit (upgrade); core 1's S is invalidated,
 *     then word 1 is news to it
 *   9 core 1's load of word 0 attempts (a miss, IS^AD); core 0's store of
 *     word 0 performs (M) before the GetS is ordered, so it comes first
 *     in the coherence order (core 1 reads it): at the ordering the miss
 *     touches a word written by another core since core 1's copy was
 *     invalidated: TRUE SHARING (told at the attempt, it would have been
 *     false), and Dubois true.
 * Core 0: 6 references, hits 4, misses 2 = compulsory 1 + false sharing 1;
 * Dubois true 1, false 0. Core 1: 5 references, hits 1, misses 4 =
 * compulsory 2 + conflict 1 + true sharing 1; Dubois true 1, false 0.
 * The atomic bus fed the same accesses in this (coherence) order differs
 * in one place: core 1's store of 3 finds its copy invalidated and misses
 * (coherence, touching word 1, which no one else wrote: false sharing;
 * Dubois false, its lifetime touching only word 1). */
static void hand_miss_classes(void)
{
    const uint64_t C = A + 0x40;
    results r = {0};
    stc_cs_system *s = make_split(STC_COH_MSI, 2, 64, 1, STC_CS_SERIAL, 1, NULL, &r);
    stc_coh_config atomic_config = {.cores = 2, .size_bytes = 64, .ways = 1, .line_bytes = 32,
                                    .protocol = STC_COH_MSI};
    char err[ERR_LEN];
    stc_coh_system *atomic = stc_coh_create(&atomic_config, err, sizeof err);
    CHECK(atomic != NULL, "%s", err);
    if (!s || !atomic) {
        stc_cs_destroy(s);
        stc_coh_destroy(atomic);
        return;
    }
    stc_cs_submit(s, 0, STC_COH_OP_LOAD, A, 4, 0, 0);
    stc_cs_drain(s);
    stc_cs_submit(s, 1, STC_COH_OP_LOAD, A + 4, 4, 0, 1);
    stc_cs_drain(s);
    STATE(s, 0, A, STC_COH_SP_S);
    STATE(s, 1, A, STC_COH_SP_S);
    stc_cs_submit(s, 0, STC_COH_OP_STORE, A, 4, 0xaaaaaaaa, 2);
    stc_cs_submit(s, 1, STC_COH_OP_STORE, A + 4, 4, 0xbbbbbbbb, 3);
    RUN(s, STC_CS_EV_ATTEMPT, 0);
    RUN(s, STC_CS_EV_ATTEMPT, 1);
    STATE(s, 0, A, STC_COH_SP_SM_AD);
    STATE(s, 1, A, STC_COH_SP_SM_AD);
    RUN(s, STC_CS_EV_ORDER, 0);
    STATE(s, 1, A, STC_COH_SP_IM_AD);
    RUN(s, STC_CS_EV_ORDER, 1);
    STATE(s, 0, A, STC_COH_SP_SM_D_I);
    RUN(s, STC_CS_EV_RESPONSE, 0);
    RUN(s, STC_CS_EV_RESPONSE, 1);
    STATE(s, 1, A, STC_COH_SP_M);
    stc_cs_submit(s, 1, STC_COH_OP_LOAD, C, 4, 0, 4);
    stc_cs_drain(s);
    COUNTER(s, 1, putm, 1);
    stc_cs_submit(s, 1, STC_COH_OP_LOAD, A + 4, 4, 0, 5);
    stc_cs_drain(s);
    COUNTER(s, 1, miss_conflict, 1);
    stc_cs_submit(s, 0, STC_COH_OP_LOAD, A, 4, 0, 6);
    stc_cs_drain(s);
    COUNTER(s, 0, miss_false_sharing, 1);
    COUNTER(s, 0, miss_false_dubois, 1); /* until its lifetime touches word 1 */
    stc_cs_submit(s, 0, STC_COH_OP_LOAD, A + 4, 4, 0, 7);
    stc_cs_submit(s, 0, STC_COH_OP_STORE, A + 4, 4, 0xcccccccc, 8);
    stc_cs_drain(s);
    STATE(s, 1, A, STC_COH_SP_I);
    stc_cs_submit(s, 1, STC_COH_OP_LOAD, A, 4, 0, 9);
    RUN(s, STC_CS_EV_ATTEMPT, 1);
    STATE(s, 1, A, STC_COH_SP_IS_AD);
    stc_cs_submit(s, 0, STC_COH_OP_STORE, A, 4, 0xdddddddd, 10);
    RUN(s, STC_CS_EV_ATTEMPT, 0);
    CHECK(r.done[10], "core 0's store to M performed at its attempt");
    stc_cs_drain(s);
    CHECK(r.loaded[6] == 0xaaaaaaaa && r.loaded[7] == 0xbbbbbbbb && r.loaded[9] == 0xdddddddd,
          "loads 0x%llx 0x%llx 0x%llx", (unsigned long long)r.loaded[6],
          (unsigned long long)r.loaded[7], (unsigned long long)r.loaded[9]);
    COUNTER(s, 0, references, 6);
    COUNTER(s, 0, hits, 4);
    COUNTER(s, 0, misses, 2);
    COUNTER(s, 0, upgrades, 2);
    COUNTER(s, 0, miss_compulsory, 1);
    COUNTER(s, 0, miss_true_sharing, 0);
    COUNTER(s, 0, miss_false_sharing, 1);
    COUNTER(s, 0, miss_capacity, 0);
    COUNTER(s, 0, miss_conflict, 0);
    COUNTER(s, 0, miss_true_dubois, 1);
    COUNTER(s, 0, miss_false_dubois, 0);
    COUNTER(s, 1, references, 5);
    COUNTER(s, 1, hits, 1);
    COUNTER(s, 1, misses, 4);
    COUNTER(s, 1, upgrades, 1);
    COUNTER(s, 1, miss_compulsory, 2);
    COUNTER(s, 1, miss_true_sharing, 1);
    COUNTER(s, 1, miss_false_sharing, 0);
    COUNTER(s, 1, miss_capacity, 0);
    COUNTER(s, 1, miss_conflict, 1);
    COUNTER(s, 1, miss_true_dubois, 1);
    COUNTER(s, 1, miss_false_dubois, 0);
    check_class_sums(s, 2, "hand classes");
    CHECK_EQ_U64(stc_cs_violation_count(s), 0, "violations");
    print_violations(s, "hand classes");

    static const struct {
        unsigned core;
        stc_coh_op op;
        uint64_t offset; /* from A */
    } in_order[] = {{0, STC_COH_OP_LOAD, 0},  {1, STC_COH_OP_LOAD, 4},  {0, STC_COH_OP_STORE, 0},
                    {1, STC_COH_OP_STORE, 4}, {1, STC_COH_OP_LOAD, 0x40}, {1, STC_COH_OP_LOAD, 4},
                    {0, STC_COH_OP_LOAD, 0},  {0, STC_COH_OP_LOAD, 4},  {0, STC_COH_OP_STORE, 4},
                    {0, STC_COH_OP_STORE, 0}, {1, STC_COH_OP_LOAD, 0}};
    for (size_t i = 0; i < sizeof in_order / sizeof in_order[0]; i++)
        stc_coh_access(atomic, in_order[i].core, in_order[i].op, A + in_order[i].offset, 4, i + 1,
                       NULL);
    const stc_coh_counters *a0 = stc_coh_core_counters(atomic, 0);
    const stc_coh_counters *a1 = stc_coh_core_counters(atomic, 1);
    const stc_cs_counters *s0 = stc_cs_core_counters(s, 0);
    const stc_cs_counters *s1 = stc_cs_core_counters(s, 1);
    CHECK(a0->misses == s0->misses && a0->miss_compulsory == s0->miss_compulsory &&
              a0->miss_false_sharing == s0->miss_false_sharing &&
              a0->miss_true_dubois == s0->miss_true_dubois &&
              a0->miss_false_dubois == s0->miss_false_dubois,
          "atomic core 0: the same classes");
    CHECK(a1->misses == s1->misses + 1 && a1->miss_false_sharing == 1 &&
              a1->miss_compulsory == s1->miss_compulsory &&
              a1->miss_conflict == s1->miss_conflict &&
              a1->miss_true_sharing == s1->miss_true_sharing && a1->miss_false_dubois == 1 &&
              a1->miss_true_dubois == s1->miss_true_dubois,
          "atomic core 1: only the upgrade's store differs, a false-sharing miss there (misses "
          "%llu, false %llu)",
          (unsigned long long)a1->misses, (unsigned long long)a1->miss_false_sharing);
    stc_coh_destroy(atomic);
    stc_cs_destroy(s);
}

/* -------------------------------------------------------- energy */

/* The default terms (docs/ENERGY.md 3.9) of caches of size bytes and ways,
 * 32-byte lines, 32-bit addresses: the prices stcsim coherence uses. */
static stc_coherence_energy energy_terms(uint32_t size, uint32_t ways)
{
    stc_coherence_energy terms = {0};
    char err[ERR_LEN];
    CHECK(stc_energy_coherence_default(size, ways, 32, 32, &terms, err, sizeof err) == 0,
          "terms: %s", err);
    return terms;
}

/* An energy's parts by name, to compare part by part. */
enum { ENERGY_PARTS = 6 };
static const char *const energy_part_names[ENERGY_PARTS] = {"access", "snoop", "memory_read",
                                                            "c2c", "memory_write", "bus"};

static void energy_parts(const stc_coh_energy *energy, double parts[ENERGY_PARTS])
{
    const double values[ENERGY_PARTS] = {energy->access_nj, energy->snoop_nj,
                                         energy->memory_read_nj, energy->c2c_nj,
                                         energy->memory_write_nj, energy->bus_nj};
    memcpy(parts, values, sizeof values);
}

static stc_coh_energy split_energy(const stc_cs_system *system, unsigned core,
                                   const stc_coherence_energy *terms)
{
    stc_coh_energy energy;
    stc_cs_energy_of(terms, stc_cs_core_counters(system, core), &energy);
    return energy;
}

static bool near(double got, double want)
{
    return fabs(got - want) <= 1e-9 * fmax(1.0, fabs(want));
}

/* MESI, 2 cores, direct-mapped caches of four 32-byte lines (A and D =
 * A + 0x80 share a frame), every event chosen, and each priced event
 * counted by hand:
 *   1 core 0 loads A: a miss, GetS; memory answers; no sharer: E
 *     (c0: access, bus, memory read; c1: snoop)
 *   2 core 1 loads A: GetS; core 0's E sends A to core 1 AND to memory (a
 *     clean block written back: the split MESI's E row) -> S; the
 *     writeback is not delivered yet; core 1 S
 *     (c1: access, bus, c2c; c0: snoop, memory write)
 *   3 core 1 stores A: an upgrade, GetM from S; memory owns but waits for
 *     the writeback of 2: it owes core 1 the block; core 0 S -> I; the
 *     writeback arrives (absorbed late) and memory answers; core 1 M
 *     (c1: access, bus, memory read; c0: snoop)
 *   4 core 1 loads D: a miss whose victim A (M) issues a PutM (MI^A) and
 *     waits; core 0 stores A first: GetM ordered before the PutM, core 1's
 *     MI^A sends A to core 0 -> II^A; core 1's PutM is then stale,
 *     acknowledged without data; core 1 attempts again: GetS D, memory,
 *     no sharer: E
 *     (c0: access, bus, c2c, snoops of the PutM and of the GetS D;
 *      c1: access once for the load however often it attempts, bus twice
 *      (PutM, GetS), memory read, snoop of core 0's GetM)
 *   5 core 1 loads A: its victim D is E: a PutE (EI^A), an address phase
 *     only: memory takes ownership back and no data moves; then GetS A:
 *     core 0's M sends A to core 1 and memory -> S
 *     (c1: access, bus twice, c2c; c0: two snoops, memory write)
 * Core 0: access 2, snoop 6, memory read 1, c2c 1, memory write 2, bus 2.
 * Core 1: access 4, snoop 2, memory read 2, c2c 2, memory write 0, bus 6.
 * (The atomic MESI with these accesses in this order differs in steps 2
 * (memory answers, no writeback), 3 (BusUpgr: no data), 4 (no PutM race:
 * core 1's BusWB first, then core 0's miss reads memory) and 5 (D's E
 * eviction is silent).) */
static void hand_energy(void)
{
    const uint64_t D = A + 0x80;
    results r = {0};
    stc_cs_system *s = make_split(STC_COH_MESI, 2, 128, 1, STC_CS_SERIAL, 1, NULL, &r);
    if (!s)
        return;
    stc_cs_submit(s, 0, STC_COH_OP_LOAD, A, 4, 0, 0);
    RUN_MISS(s, 0);
    STATE(s, 0, A, STC_COH_SP_E);
    stc_cs_submit(s, 1, STC_COH_OP_LOAD, A, 4, 0, 1);
    RUN_ORDERED(s, 1);
    STATE(s, 0, A, STC_COH_SP_S);
    RUN(s, STC_CS_EV_RESPONSE, 1);
    STATE(s, 1, A, STC_COH_SP_S);
    stc_cs_submit(s, 1, STC_COH_OP_STORE, A, 4, 0x11111111, 2);
    RUN_ORDERED(s, 1);
    STATE(s, 0, A, STC_COH_SP_I);
    CHECK(stc_cs_run(s, STC_CS_EV_RESPONSE, 1) == -1, "memory waits for the writeback");
    RUN(s, STC_CS_EV_WRITEBACK, 0);
    RUN(s, STC_CS_EV_RESPONSE, 1);
    STATE(s, 1, A, STC_COH_SP_M);
    stc_cs_submit(s, 1, STC_COH_OP_LOAD, D, 4, 0, 3);
    RUN(s, STC_CS_EV_ATTEMPT, 1);
    STATE(s, 1, A, STC_COH_SP_MI_A);
    stc_cs_submit(s, 0, STC_COH_OP_STORE, A, 4, 0x22222222, 4);
    RUN_ORDERED(s, 0);
    STATE(s, 1, A, STC_COH_SP_II_A);
    RUN(s, STC_CS_EV_ORDER, 1);
    CHECK(stc_cs_run(s, STC_CS_EV_WRITEBACK, 0) == -1, "the stale PutM sends no data");
    RUN(s, STC_CS_EV_RESPONSE, 0);
    STATE(s, 0, A, STC_COH_SP_M);
    RUN_MISS(s, 1);
    STATE(s, 1, D, STC_COH_SP_E);
    stc_cs_submit(s, 1, STC_COH_OP_LOAD, A, 4, 0, 5);
    stc_cs_drain(s);
    STATE(s, 0, A, STC_COH_SP_S);
    STATE(s, 1, A, STC_COH_SP_S);
    STATE(s, 1, D, STC_COH_SP_I);
    CHECK(r.loaded[5] == 0x22222222, "core 1 loads core 0's store: 0x%llx",
          (unsigned long long)r.loaded[5]);
    COUNTER(s, 1, putm, 2);
    COUNTER(s, 1, pute, 1);
    COUNTER(s, 1, stale_putm, 1);
    COUNTER(s, 1, writebacks, 0);
    CHECK_EQ_U64(stc_cs_violation_count(s), 0, "hand energy: violations");
    print_violations(s, "hand energy");

    /* the events above, core by core, in energy_part_names' order */
    static const unsigned events[2][ENERGY_PARTS] = {{2, 6, 1, 1, 2, 2}, {4, 2, 2, 2, 0, 6}};
    stc_coherence_energy t = energy_terms(128, 1);
    const double price[ENERGY_PARTS] = {t.access_nj, t.snoop_lookup_nj, t.memory_read_nj,
                                        t.c2c_nj, t.memory_write_nj, t.bus_address_nj};
    double system_total = 0.0;
    for (unsigned c = 0; c < 2; c++) {
        stc_coh_energy got = split_energy(s, c, &t);
        double parts[ENERGY_PARTS], want_total = 0.0;
        energy_parts(&got, parts);
        for (unsigned k = 0; k < ENERGY_PARTS; k++) {
            double want = events[c][k] * price[k];
            want_total += want;
            CHECK(near(parts[k], want), "hand energy core %u %s: %.6f nJ, want %u x %.6f = %.6f",
                  c, energy_part_names[k], parts[k], events[c][k], price[k], want);
        }
        CHECK(near(got.total_nj, want_total), "hand energy core %u total %.6f, want %.6f", c,
              got.total_nj, want_total);
        system_total += want_total;
    }
    /* in all 6 probes, 8 snoop lookups, 3 memory reads, 3 transfers, 2
     * memory writes, 8 address phases: 6 x 0.0537 + 8 x 0.0065 + 3 x
     * 33.4618 + 3 x 0.4173 + 2 x 33.4843 + 8 x 0.0467 = 169.36 nJ (202.84
     * while an E block left by a PutM carrying its data) */
    stc_cs_counters total;
    stc_cs_total(s, &total);
    stc_coh_energy got_total;
    stc_cs_energy_of(&t, &total, &got_total);
    CHECK(near(got_total.total_nj, system_total) && fabs(system_total - 169.36) < 0.01,
          "hand energy total %.4f, by hand %.4f (169.36)", got_total.total_nj, system_total);
    stc_cs_destroy(s);
}

/* -------------------------------------------------------- serial = atomic */

/* The counters the split bus shares with the atomic one agree, per core,
 * when the split system ran the same references serially (section 10.2). */
static void compare_counters(const stc_coh_system *atomic, const stc_cs_system *split,
                             unsigned cores, const char *p)
{
    uint64_t pute_total = 0;
    for (unsigned c = 0; c < cores; c++)
        pute_total += stc_cs_core_counters(split, c)->pute;
    for (unsigned c = 0; c < cores; c++) {
        const stc_coh_counters *a = stc_coh_core_counters(atomic, c);
        const stc_cs_counters *sp = stc_cs_core_counters(split, c);
        CHECK_EQ_U64(sp->references, a->references, "%s core %u references", p, c);
        CHECK_EQ_U64(sp->loads, a->loads, "%s core %u loads", p, c);
        CHECK_EQ_U64(sp->stores, a->stores, "%s core %u stores", p, c);
        CHECK_EQ_U64(sp->hits, a->hits, "%s core %u hits", p, c);
        CHECK_EQ_U64(sp->misses, a->misses, "%s core %u misses", p, c);
        CHECK_EQ_U64(sp->gets, a->bus_rd, "%s core %u GetS = BusRd", p, c);
        CHECK_EQ_U64(sp->getm, a->bus_rdx + a->upgrades, "%s core %u GetM = BusRdX + BusUpgr", p, c);
        CHECK_EQ_U64(sp->upgrades, a->upgrades, "%s core %u upgrades", p, c);
        CHECK_EQ_U64(sp->putm - sp->pute, a->bus_wb, "%s core %u PutM (not PutE) = BusWB", p, c);
        CHECK_EQ_U64(sp->snoop_observations, a->snoop_lookups + pute_total - sp->pute,
                     "%s core %u observations = lookups + others' PutEs", p, c);
        CHECK_EQ_U64(sp->stale_putm, 0, "%s core %u: no stale PutM when serial", p, c);
        /* serially no request is ordered while another waits for its data,
         * so no owner-to-be promises memory anything (8.7 decision 6) */
        CHECK_EQ_U64(sp->promised_writebacks, 0, "%s core %u: no promise when serial", p, c);
        CHECK_EQ_U64(sp->data_from_memory_promised, 0, "%s core %u: no promised miss", p, c);
        /* the classes: serially the coherence order is the submission
         * order, so the book is told what the atomic model tells it */
        CHECK_EQ_U64(sp->miss_compulsory, a->miss_compulsory, "%s core %u compulsory", p, c);
        CHECK_EQ_U64(sp->miss_true_sharing, a->miss_true_sharing, "%s core %u true sharing", p, c);
        CHECK_EQ_U64(sp->miss_false_sharing, a->miss_false_sharing, "%s core %u false sharing", p,
                     c);
        CHECK_EQ_U64(sp->miss_capacity, a->miss_capacity, "%s core %u capacity", p, c);
        CHECK_EQ_U64(sp->miss_conflict, a->miss_conflict, "%s core %u conflict", p, c);
        CHECK_EQ_U64(sp->miss_true_dubois, a->miss_true_dubois, "%s core %u true (Dubois)", p, c);
        CHECK_EQ_U64(sp->miss_false_dubois, a->miss_false_dubois, "%s core %u false (Dubois)", p,
                     c);
    }
}

/* What the split tables move that the atomic ones do not, or the other
 * way round, for the same block accesses in the same order (COHERENCE.md
 * 10.2, 10.9): per core, events to add to the atomic run's counters before
 * pricing them. Found from the ATOMIC model's states around each of its
 * accesses (atomic_access_noting), not from the split model's counters. */
enum { HELD_MAX = 64 };
typedef struct {
    int64_t memory_read[STC_COH_MAX_CORES];
    int64_t c2c[STC_COH_MAX_CORES];
    int64_t memory_write[STC_COH_MAX_CORES];
    int64_t bus[STC_COH_MAX_CORES];
    int64_t snoop[STC_COH_MAX_CORES];
    /* how often each difference was found, so that none is vacuous */
    uint64_t upgrade_data, from_e, getm_flush, pute;
    /* blocks each core may hold, to see its silent E evictions */
    uint64_t held[STC_COH_MAX_CORES][HELD_MAX];
    unsigned held_count[STC_COH_MAX_CORES];
    bool held_overflow; /* more blocks than held has room for: evictions unseen */
} split_difference;

static void note_block_access(split_difference *d, const stc_coh_table *table, unsigned cores,
                              unsigned core, stc_coh_op op, const stc_coh_state *before)
{
    int e_holder = -1, m_holder = -1, o_holder = -1;
    for (unsigned o = 0; o < cores; o++) {
        if (o == core)
            continue;
        e_holder = before[o] == STC_COH_E ? (int)o : e_holder;
        m_holder = before[o] == STC_COH_M ? (int)o : m_holder;
        o_holder = before[o] == STC_COH_O ? (int)o : o_holder;
    }
    if (before[core] == STC_COH_I && e_holder >= 0) {
        /* the split E owner answers (memory recorded it as owner), and on
         * a GetS also writes the block back; the atomic E does neither */
        d->from_e++;
        d->memory_read[core]--;
        d->c2c[core]++;
        if (op == STC_COH_OP_LOAD)
            d->memory_write[e_holder]++;
    }
    if (before[core] == STC_COH_I && op == STC_COH_OP_STORE && m_holder >= 0 &&
        stc_coh_snoop_lookup(table, STC_COH_M, STC_COH_BUS_RDX)->flushes) {
        /* the atomic M flushes on a BusRdX; the split M sends to the
         * requester only */
        d->getm_flush++;
        d->memory_write[m_holder]--;
    }
    if (before[core] == STC_COH_S && op == STC_COH_OP_STORE) {
        /* BusUpgr moves no data; the split GetM from S takes the block, from
         * an O owner (MOESI) or memory */
        d->upgrade_data++;
        if (o_holder >= 0)
            d->c2c[core]++;
        else
            d->memory_read[core]++;
    }
}

/* stc_coh_access, noting in d how the split bus would differ. */
static void atomic_access_noting(stc_coh_system *atomic, split_difference *d, unsigned core,
                                 stc_coh_op op, uint64_t addr, uint32_t size, uint64_t value,
                                 uint64_t *loaded)
{
    const stc_coh_config *config = stc_coh_config_of(atomic);
    uint32_t line = config->line_bytes;
    uint64_t first = addr / line, last = (addr + size - 1) / line;
    stc_coh_state before[2][STC_COH_MAX_CORES];
    for (uint64_t b = first; b <= last; b++)
        for (unsigned o = 0; o < config->cores; o++)
            before[b - first][o] = stc_coh_state_of(atomic, o, b * line);
    bool was_e[HELD_MAX];
    unsigned kept = 0;
    for (unsigned i = 0; i < d->held_count[core]; i++) {
        stc_coh_state state = stc_coh_state_of(atomic, core, d->held[core][i] * line);
        if (state != STC_COH_I) {
            d->held[core][kept] = d->held[core][i];
            was_e[kept++] = state == STC_COH_E;
        }
    }
    d->held_count[core] = kept;
    stc_coh_access(atomic, core, op, addr, size, value, loaded);
    for (unsigned i = 0; i < kept; i++) {
        if (!was_e[i] || stc_coh_state_of(atomic, core, d->held[core][i] * line) != STC_COH_I)
            continue;
        /* an E copy this core's own access dropped: evicted, silently here,
         * by a PutE on the split bus: its address phase and the others'
         * snoops; no data (memory's copy is current) */
        d->pute++;
        d->bus[core]++;
        for (unsigned o = 0; o < config->cores; o++)
            d->snoop[o] += o != core;
    }
    const stc_coh_table *table = stc_coh_table_of(config->protocol);
    for (uint64_t b = first; b <= last; b++) {
        note_block_access(d, table, config->cores, core, op, before[b - first]);
        bool known = false;
        for (unsigned i = 0; i < d->held_count[core]; i++)
            known = known || d->held[core][i] == b;
        if (!known && d->held_count[core] == HELD_MAX)
            d->held_overflow = true;
        else if (!known)
            d->held[core][d->held_count[core]++] = b;
    }
}

/* Serial split energy = the atomic run's, with d's events added, part by
 * part and core by core (the same prices: equal to the last bit). */
static void compare_energy(const stc_coh_system *atomic, const stc_cs_system *split,
                           const split_difference *d, const stc_coherence_energy *terms,
                           unsigned cores, const char *what)
{
    CHECK(!d->held_overflow, "%s: more blocks held than the test keeps", what);
    for (unsigned c = 0; c < cores; c++) {
        stc_coh_counters expected = *stc_coh_core_counters(atomic, c);
        expected.mem_reads += (uint64_t)d->memory_read[c];
        expected.c2c_received += (uint64_t)d->c2c[c];
        expected.mem_writebacks += (uint64_t)d->memory_write[c];
        expected.bus_wb += (uint64_t)d->bus[c];
        expected.snoop_lookups += (uint64_t)d->snoop[c];
        stc_coh_energy want, got = split_energy(split, c, terms);
        stc_coh_energy_of(terms, &expected, &want);
        double want_parts[ENERGY_PARTS], got_parts[ENERGY_PARTS];
        energy_parts(&want, want_parts);
        energy_parts(&got, got_parts);
        for (unsigned k = 0; k < ENERGY_PARTS; k++)
            CHECK(got_parts[k] == want_parts[k], "%s core %u %s: split %.4f nJ, atomic + "
                  "differences %.4f nJ", what, c, energy_part_names[k], got_parts[k],
                  want_parts[k]);
        CHECK(got.total_nj == want.total_nj, "%s core %u total: split %.4f, want %.4f", what, c,
              got.total_nj, want.total_nj);
    }
}

/* 4 cores, 12 blocks over 4 sets of 256 B 2-way caches (evictions and
 * writebacks), loads and stores of 4 or 8 bytes, some straddling two
 * blocks. */
static void serial_matches_atomic(stc_coh_protocol protocol, uint64_t seed, unsigned refs,
                                  uint32_t wb_buffer)
{
    enum { CORES = 4, BLOCKS = 12 };
    static results r;
    memset(&r, 0, sizeof r);
    stc_coh_config atomic_config = {.cores = CORES, .size_bytes = 256, .ways = 2,
                                    .line_bytes = 32, .protocol = protocol};
    char err[ERR_LEN];
    stc_coh_system *atomic = stc_coh_create(&atomic_config, err, sizeof err);
    stc_cs_system *split =
        make_split_wb(protocol, CORES, 256, 2, STC_CS_SERIAL, seed, NULL, &r, wb_buffer);
    CHECK(atomic != NULL, "%s", err);
    if (!atomic || !split)
        return;
    static uint64_t atomic_loaded[MAX_REFS];
    static bool is_load[MAX_REFS];
    static split_difference difference;
    memset(&difference, 0, sizeof difference);
    uint64_t rng = seed;
    for (unsigned i = 0; i < refs; i++) {
        unsigned core = (unsigned)(rng_next(&rng) % CORES);
        uint64_t addr = 0x8000 + (rng_next(&rng) % BLOCKS) * 32 + (rng_next(&rng) % 8) * 4;
        uint32_t size = rng_next(&rng) % 4 == 0 ? 8 : 4;
        stc_coh_op op = rng_next(&rng) % 5 < 2 ? STC_COH_OP_STORE : STC_COH_OP_LOAD;
        uint64_t value = rng_next(&rng);
        is_load[i] = op == STC_COH_OP_LOAD;
        atomic_access_noting(atomic, &difference, core, op, addr, size, value,
                             &atomic_loaded[i]);
        stc_cs_submit(split, core, op, addr, size, value, i);
    }
    stc_cs_drain(split);
    CHECK_EQ_U64(r.completed, refs, "%s: every reference performed", stc_coh_protocol_name(protocol));
    unsigned differ = 0;
    for (unsigned i = 0; i < refs; i++)
        differ += is_load[i] && r.loaded[i] != atomic_loaded[i];
    CHECK_EQ_U64(differ, 0, "%s: loads whose value differs", stc_coh_protocol_name(protocol));
    compare_counters(atomic, split, CORES, stc_coh_protocol_name(protocol));
    stc_coherence_energy terms = energy_terms(256, 2);
    compare_energy(atomic, split, &difference, &terms, CORES, stc_coh_protocol_name(protocol));
    /* every difference the protocols have was met (10.2) */
    bool has_e = protocol != STC_COH_MSI, flushes_on_getm = protocol != STC_COH_MOESI;
    CHECK(difference.upgrade_data > 0 && (difference.from_e > 0) == has_e &&
              (difference.pute > 0) == has_e && (difference.getm_flush > 0) == flushes_on_getm,
          "%s: differences met: upgrades with data %llu, from E %llu, PutE %llu, GetM "
          "flushes %llu", stc_coh_protocol_name(protocol),
          (unsigned long long)difference.upgrade_data, (unsigned long long)difference.from_e,
          (unsigned long long)difference.pute, (unsigned long long)difference.getm_flush);
    unsigned states_differ = 0, memory_differs = 0, shadow_differs = 0;
    for (unsigned blk = 0; blk < BLOCKS; blk++) {
        uint64_t addr = 0x8000 + blk * 32;
        for (unsigned c = 0; c < CORES; c++)
            states_differ += stc_coh_sp_permission(stc_cs_state_of(split, c, addr)) !=
                             stc_coh_state_of(atomic, c, addr);
        for (uint64_t at = addr; at < addr + 32; at += 8) {
            shadow_differs += stc_cs_shadow_read(split, at, 8) != stc_coh_shadow_read(atomic, at, 8);
            /* the split bus writes memory less often (no flush on a GetM):
             * they agree wherever memory owns the block */
            if (stc_cs_memory_current(split, at))
                memory_differs += stc_cs_memory_read(split, at, 8) != stc_coh_memory_read(atomic, at, 8);
        }
    }
    CHECK_EQ_U64(states_differ, 0, "%s: final states", stc_coh_protocol_name(protocol));
    CHECK_EQ_U64(shadow_differs, 0, "%s: shadow", stc_coh_protocol_name(protocol));
    CHECK_EQ_U64(memory_differs, 0, "%s: memory", stc_coh_protocol_name(protocol));
    CHECK_EQ_U64(stc_cs_violation_count(split), 0, "%s: violations", stc_coh_protocol_name(protocol));
    CHECK_EQ_U64(stc_coh_violation_count(atomic), 0, "atomic violations");
    print_violations(split, "serial");
    /* serially every put is ordered before the next reference starts, so
     * with a buffer no access ever waits (COHERENCE.md 10.11); without
     * one, every eviction by a put is a stall */
    stc_cs_counters total;
    stc_cs_total(split, &total);
    CHECK_EQ_U64(total.stalls, wb_buffer > 0 ? 0 : total.putm,
                 "%s, buffer %u: serial stalls", stc_coh_protocol_name(protocol), wb_buffer);
    stc_cs_destroy(split);
    stc_coh_destroy(atomic);
}

/* Three of the real 4-thread traces (make mc-traces), when there, each in
 * every protocol, with 512 B 4-way caches (4 sets: much replacement in
 * stencil, PutMs from E, M and O): serial = atomic, counter for counter,
 * and the energy with the split tables' differences. */
static void serial_matches_atomic_on_traces(void)
{
    static const char *const kernels[] = {"stencil", "lock", "migratory"};
    static const stc_coh_protocol protocols[] = {STC_COH_MSI, STC_COH_MESI, STC_COH_MOESI};
    unsigned runs = 0;
    uint64_t putm = 0;
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++)
        for (size_t p = 0; p < sizeof protocols / sizeof protocols[0]; p++) {
            char path[256], err[ERR_LEN] = "";
            snprintf(path, sizeof path, "build/mc-traces/%s.t4.mc.zst", kernels[k]);
            stc_mc_trace *trace = stc_mc_trace_open(path, 4, err, sizeof err);
            if (!trace) {
                printf("test_coherent_split: %s: skipped (%s)\n", path, err);
                continue;
            }
            stc_coh_config config = {.cores = 4, .size_bytes = 512, .ways = 4, .line_bytes = 32,
                                     .protocol = protocols[p]};
            stc_coh_system *atomic = stc_coh_create(&config, err, sizeof err);
            stc_cs_system *split = make_split(protocols[p], 4, 512, 4, STC_CS_SERIAL, 1, NULL, NULL);
            static split_difference difference;
            memset(&difference, 0, sizeof difference);
            stc_mc_ref ref;
            uint64_t stores = 0;
            while (atomic && split && stc_mc_trace_next(trace, &ref) > 0) {
                if (ref.label == STC_MC_FETCH)
                    continue;
                stc_coh_op op = ref.label == STC_MC_WRITE ? STC_COH_OP_STORE : STC_COH_OP_LOAD;
                atomic_access_noting(atomic, &difference, ref.core, op, ref.addr, ref.size,
                                     ++stores, NULL);
                stc_cs_submit(split, ref.core, op, ref.addr, ref.size, stores, 0);
            }
            if (atomic && split) {
                stc_cs_drain(split);
                char what[300];
                snprintf(what, sizeof what, "%s %s", path, stc_coh_protocol_name(protocols[p]));
                compare_counters(atomic, split, 4, what);
                stc_coherence_energy terms = energy_terms(512, 4);
                compare_energy(atomic, split, &difference, &terms, 4, what);
                printf("  %s: split energy = atomic + %llu upgrades with data, %llu answers "
                       "from E, %llu GetMs without flush, %llu PutEs\n", what,
                       (unsigned long long)difference.upgrade_data,
                       (unsigned long long)difference.from_e,
                       (unsigned long long)difference.getm_flush,
                       (unsigned long long)difference.pute);
                CHECK_EQ_U64(stc_cs_violation_count(split), 0, "%s: violations", what);
                stc_cs_counters total;
                stc_cs_total(split, &total);
                putm += total.putm;
                runs++;
            }
            stc_cs_destroy(split);
            stc_coh_destroy(atomic);
            stc_mc_trace_close(trace);
        }
    CHECK(runs == 0 || putm > 0, "the real traces evicted dirty lines");
    printf("test_coherent_split: serial = atomic on %u runs of real traces (%llu PutMs)\n", runs,
           (unsigned long long)putm);
}

/* -------------------------------------------------------- random tester */

/* Every store writes words no other store writes: (core + 1) << 24 | its
 * running count. A load's word must be 0 or such a value, and per (reader,
 * word, writer) the counts a core sees never go back (a necessary
 * condition of coherence that needs no knowledge of the bus order); a
 * core's own store counts as seen. */
enum { T_CORES = 8, T_WORDS = 48 };
typedef struct {
    stc_coh_op op[MAX_REFS];
    uint64_t addr[MAX_REFS];
    uint32_t size[MAX_REFS];
    uint64_t value[MAX_REFS];
    uint32_t seen[T_CORES][T_WORDS][T_CORES + 1];
    uint64_t base;
    unsigned words_per_line, stride_words;
    unsigned completed, failures;
    char first[300];
} tester;

static unsigned word_index(const tester *t, uint64_t addr)
{
    uint64_t offset = addr - t->base;
    return (unsigned)((offset / 4 / t->stride_words) * t->words_per_line + (offset / 4) % t->stride_words);
}

static void tester_fail(tester *t, unsigned core, uint64_t tag, const char *what, uint32_t word)
{
    if (t->failures++ == 0)
        snprintf(t->first, sizeof t->first, "core %u reference %llu at 0x%llx: %s (word 0x%x)",
                 core, (unsigned long long)tag, (unsigned long long)t->addr[tag], what, word);
}

static void tester_done(void *context, unsigned core, uint64_t tag, uint64_t loaded)
{
    tester *t = context;
    t->completed++;
    for (uint32_t w = 0; w < t->size[tag] / 4; w++) {
        unsigned word = word_index(t, t->addr[tag] + 4 * w);
        uint32_t v = (uint32_t)((t->op[tag] == STC_COH_OP_STORE ? t->value[tag] : loaded) >> (32 * w));
        unsigned writer = v >> 24;
        uint32_t count = v & 0xffffff;
        if (v != 0 && (writer < 1 || writer > T_CORES)) {
            tester_fail(t, core, tag, "a value no store wrote", v);
            continue;
        }
        if (count < t->seen[core][word][writer])
            tester_fail(t, core, tag, "older than a value this core saw from that writer", v);
        t->seen[core][word][writer] = count;
    }
}

/* refs random references of cores on `lines` lines (stride bytes apart)
 * under a random schedule; returns the system for the caller's checks. */
static stc_cs_system *run_tester(tester *t, stc_coh_protocol protocol, unsigned cores,
                                 uint32_t size, uint32_t ways, unsigned lines, uint64_t stride,
                                 const stc_coh_sp_table *table, uint64_t seed, unsigned refs,
                                 uint32_t wb_buffer)
{
    memset(t, 0, sizeof *t);
    t->base = 0x40000;
    t->words_per_line = 8;
    t->stride_words = (unsigned)(stride / 4);
    stc_cs_config config = {.cores = cores, .size_bytes = size, .ways = ways, .line_bytes = 32,
                            .protocol = protocol, .table = table, .schedule = STC_CS_RANDOM,
                            .seed = seed, .done = tester_done, .done_context = t,
                            .window = 1 + (unsigned)(seed % 4), .watchdog_steps = 100000,
                            .wb_buffer = wb_buffer};
    char err[ERR_LEN];
    stc_cs_system *s = stc_cs_create(&config, err, sizeof err);
    CHECK(s != NULL, "create: %s", err);
    if (!s)
        return NULL;
    uint64_t rng = seed * 7919 + 1;
    uint32_t counts[T_CORES] = {0};
    for (unsigned i = 0; i < refs; i++) {
        unsigned core = (unsigned)(rng_next(&rng) % cores);
        unsigned line = (unsigned)(rng_next(&rng) % lines);
        unsigned word = (unsigned)(rng_next(&rng) % 8);
        uint32_t bytes = rng_next(&rng) % 4 == 0 && (word < 7 || line + 1 < lines) ? 8 : 4;
        if (bytes == 8 && word == 7 && stride != 32)
            bytes = 4; /* straddle only into the adjacent line */
        t->op[i] = rng_next(&rng) % 5 < 2 ? STC_COH_OP_STORE : STC_COH_OP_LOAD;
        t->addr[i] = t->base + line * stride + word * 4;
        t->size[i] = bytes;
        uint64_t low = ((uint64_t)(core + 1) << 24) | ++counts[core];
        uint64_t high = ((uint64_t)(core + 1) << 24) | ++counts[core];
        t->value[i] = t->op[i] == STC_COH_OP_STORE ? (high << 32 | low) : 0;
        stc_cs_submit(s, core, t->op[i], t->addr[i], bytes, t->value[i], i);
    }
    stc_cs_drain(s);
    return s;
}

/* The energy of a run on any schedule (COHERENCE.md 10.9): the cores'
 * parts add up to the total's, part by part; no part is negative; and
 * each request issued is probed once by every other cache, so the snoop
 * lookups are (cores - 1) x the address phases. */
static void check_energy_sums(const stc_cs_system *system, unsigned cores,
                              const stc_coherence_energy *terms, const char *what)
{
    stc_cs_counters counters;
    stc_cs_total(system, &counters);
    stc_coh_energy total;
    stc_cs_energy_of(terms, &counters, &total);
    double sum[ENERGY_PARTS] = {0}, sum_total = 0.0, parts[ENERGY_PARTS];
    for (unsigned c = 0; c < cores; c++) {
        stc_coh_energy core = split_energy(system, c, terms);
        energy_parts(&core, parts);
        for (unsigned k = 0; k < ENERGY_PARTS; k++) {
            CHECK(parts[k] >= 0.0, "%s core %u %s: %g nJ", what, c, energy_part_names[k],
                  parts[k]);
            sum[k] += parts[k];
        }
        sum_total += core.total_nj;
    }
    energy_parts(&total, parts);
    for (unsigned k = 0; k < ENERGY_PARTS; k++)
        CHECK(near(sum[k], parts[k]), "%s %s: the cores' %.4f nJ, the total's %.4f", what,
              energy_part_names[k], sum[k], parts[k]);
    CHECK(near(sum_total, total.total_nj) && total.total_nj > 0.0,
          "%s: the cores' %.4f nJ, the total's %.4f", what, sum_total, total.total_nj);
    double lookups = total.snoop_nj / terms->snoop_lookup_nj;
    double requests = total.bus_nj / terms->bus_address_nj;
    CHECK(near(lookups, (cores - 1) * requests), "%s: %.1f snoop lookups for %.1f requests",
          what, lookups, requests);
}

typedef struct {
    const char *name;
    uint32_t size, ways;
    unsigned lines;
    uint64_t stride;
} tester_layout;

static const tester_layout layouts[] = {
    {"adjacent lines", 8192, 4, 4, 32},    /* sharing, straddling, no eviction */
    {"one set", 256, 2, 6, 4096},          /* conflict evictions, PutMs, races with them */
};

/* wb_buffer: each cache's writeback buffer (0: none). With one, an MI^A,
 * OI^A or EI^A block is only ever in the buffer, so a stale put means a
 * buffered block answered a request; and the one-set layout fills it. */
static void random_tester(uint32_t wb_buffer)
{
    static tester t;
    static const unsigned core_counts[] = {2, 4, 8};
    uint64_t total = 0, stale = 0, stalls = 0, c2c = 0, latency_max = 0, promised = 0;
    uint64_t true_sharing = 0, false_sharing = 0, replacement = 0;
    unsigned sums_failed = 0;
    for (unsigned p = 0; p < PROTOCOLS; p++)
        for (unsigned l = 0; l < 2; l++)
            for (unsigned k = 0; k < 3; k++) {
                uint64_t seed = 1000 + p * 100 + l * 10 + k;
                unsigned refs = 6000;
                stc_cs_system *s = run_tester(&t, all_protocols[p], core_counts[k], layouts[l].size,
                                              layouts[l].ways, layouts[l].lines, layouts[l].stride,
                                              NULL, seed, refs, wb_buffer);
                if (!s)
                    continue;
                const char *name = stc_coh_protocol_name(all_protocols[p]);
                CHECK_EQ_U64(stc_cs_violation_count(s), 0,
                             "%s %s %u cores seed %llu buffer %u: violations", name,
                             layouts[l].name, core_counts[k], (unsigned long long)seed, wb_buffer);
                print_violations(s, "tester");
                CHECK_EQ_U64(t.completed, refs, "%s %s %u cores: performed", name,
                             layouts[l].name, core_counts[k]);
                CHECK(t.failures == 0, "%s %s %u cores: %u failures, first %s", name,
                      layouts[l].name, core_counts[k], t.failures, t.first);
                char what[120];
                snprintf(what, sizeof what, "tester %s %s %u cores buffer %u", name,
                         layouts[l].name, core_counts[k], wb_buffer);
                sums_failed += check_class_sums(s, core_counts[k], what);
                stc_coherence_energy terms = energy_terms(layouts[l].size, layouts[l].ways);
                check_energy_sums(s, core_counts[k], &terms, what);
                stc_cs_counters sum;
                stc_cs_total(s, &sum);
                true_sharing += sum.miss_true_sharing;
                false_sharing += sum.miss_false_sharing;
                replacement += sum.miss_capacity + sum.miss_conflict;
                total += sum.references;
                stale += sum.stale_putm;
                stalls += sum.stalls;
                /* each promise is kept by one writeback (the run drained),
                 * and a promised miss is one memory answered */
                CHECK(sum.promised_writebacks <= sum.writebacks &&
                          sum.data_from_memory_promised <= sum.data_from_memory,
                      "%s: promised %llu of %llu writebacks, %llu of %llu memory answers", what,
                      (unsigned long long)sum.promised_writebacks,
                      (unsigned long long)sum.writebacks,
                      (unsigned long long)sum.data_from_memory_promised,
                      (unsigned long long)sum.data_from_memory);
                promised += sum.promised_writebacks;
                c2c += sum.data_from_cache;
                if (sum.latency_max > latency_max)
                    latency_max = sum.latency_max;
                stc_cs_destroy(s);
            }
    /* the runs did race: stale PutMs (MI^A snooped into II^A) and
     * cache-to-cache data */
    CHECK(stale > 0 && stalls > 0 && c2c > 0 && promised > 0,
          "stale %llu stalls %llu c2c %llu promised %llu", (unsigned long long)stale,
          (unsigned long long)stalls, (unsigned long long)c2c, (unsigned long long)promised);
    /* and every class was reached, so the sums above had something to sum */
    CHECK(true_sharing > 0 && false_sharing > 0 && replacement > 0,
          "classes: true %llu false %llu replacement %llu", (unsigned long long)true_sharing,
          (unsigned long long)false_sharing, (unsigned long long)replacement);
    CHECK_EQ_U64(sums_failed, 0, "tester runs whose class identities failed (per core)");
    printf("random tester (writeback buffer %u): %llu references, %llu stale PutMs, %llu "
           "stalls, %llu c2c, max latency %llu steps; misses: %llu true sharing, %llu false "
           "sharing, %llu replacement\n",
           wb_buffer, (unsigned long long)total, (unsigned long long)stale, (unsigned long long)stalls,
           (unsigned long long)c2c, (unsigned long long)latency_max,
           (unsigned long long)true_sharing, (unsigned long long)false_sharing,
           (unsigned long long)replacement);
}

/* One broken table in one protocol, with wb_buffer buffer entries, is
 * caught (a model violation or a tester failure) within 8 random runs. */
static void broken_table_caught(tester *t, const stc_coh_sp_table *table,
                                stc_coh_protocol protocol, stc_coh_sp_break b, uint32_t wb_buffer)
{
    bool caught = false;
    char what[400] = "";
    for (unsigned seed = 1; seed <= 8 && !caught; seed++) {
        const tester_layout *l = &layouts[seed % 2];
        stc_cs_system *s = run_tester(t, protocol, 4, l->size, l->ways, l->lines, l->stride, table,
                                      seed, 2000, wb_buffer);
        if (!s)
            break;
        if (stc_cs_violation_count(s) > 0) {
            caught = true;
            snprintf(what, sizeof what, "%s", stc_cs_violation_at(s, 0)->text);
        } else if (t->failures > 0) {
            caught = true;
            snprintf(what, sizeof what, "tester: %s", t->first);
        }
        stc_cs_destroy(s);
    }
    CHECK(caught, "break %s in %s, buffer %u, not caught", stc_coh_sp_break_name(b),
          stc_coh_protocol_name(protocol), wb_buffer);
    printf("  %s, %s%s: %s\n", stc_coh_sp_break_name(b), stc_coh_protocol_name(protocol),
           wb_buffer ? ", buffer 1" : "", what);
}

/* Each broken table, in every protocol it applies to, without and with a
 * writeback buffer, is caught (a model violation or a tester failure)
 * within a few random runs; but store-after-pute, whose row (EI^A Store)
 * this model never runs: a processor here evicts only for the access it
 * is blocked on, and waits rather than touch a buffered block (header,
 * "EVICTION vs the pending request"), so the Murphi model alone, where a
 * processor may touch its EI^A block, catches it (COHERENCE.md 8.7). */
static void broken_tables(void)
{
    static tester t;
    for (unsigned b = 0; b < STC_COH_SP_BREAK_COUNT; b++)
        for (unsigned p = 0; p < PROTOCOLS; p++) {
            if (b == STC_COH_SP_BREAK_STORE_AFTER_PUTE)
                continue;
            stc_coh_sp_table table = *stc_coh_sp_table_of(all_protocols[p]);
            char err[ERR_LEN];
            if (stc_coh_sp_table_apply_break(&table, (stc_coh_sp_break)b, err, sizeof err) != 0)
                continue; /* not in this protocol */
            for (uint32_t wb = 0; wb <= 1; wb++)
                broken_table_caught(&t, &table, all_protocols[p], (stc_coh_sp_break)b, wb);
        }
}

/* An edited row marked impossible but reachable (S seeing Other-GetM) is
 * an IMPOSSIBLE violation; an I Load row that does nothing makes a core
 * attempt forever without progress: the watchdog's bound calls it a
 * deadlock. */
static void impossible_and_watchdog(void)
{
    stc_coh_sp_table table = *stc_coh_sp_table_of(STC_COH_MSI);
    stc_coh_sp_row *row = (stc_coh_sp_row *)stc_coh_sp_lookup(&table, STC_COH_SP_S,
                                                              STC_COH_SP_OTHER_GETM);
    *row = (stc_coh_sp_row){.state = row->state, .event = row->event,
                            .outcome = STC_COH_SP_IMPOSSIBLE, .next = row->state,
                            .next_shared = row->state};
    stc_cs_system *s = make_split(STC_COH_MSI, 2, 8192, 4, STC_CS_SERIAL, 1, &table, NULL);
    if (s) {
        stc_cs_submit(s, 0, STC_COH_OP_LOAD, A, 4, 0, 0);
        stc_cs_submit(s, 1, STC_COH_OP_STORE, A, 4, 5, 1);
        stc_cs_drain(s);
        CHECK_EQ_U64(stc_cs_violation_kind_count(s, STC_CS_VIOL_IMPOSSIBLE), 1, "impossible");
        CHECK(stc_cs_violation_at(s, 0) && strstr(stc_cs_violation_at(s, 0)->text,
                                                  "Other-GetM in S (impossible row)"),
              "%s", stc_cs_violation_at(s, 0) ? stc_cs_violation_at(s, 0)->text : "none");
        stc_cs_destroy(s);
    }
    table = *stc_coh_sp_table_of(STC_COH_MSI);
    row = (stc_coh_sp_row *)stc_coh_sp_lookup(&table, STC_COH_SP_I, STC_COH_SP_LOAD);
    row->issue = STC_COH_SP_REQ_NONE;
    row->next = row->next_shared = STC_COH_SP_I;
    char err[ERR_LEN];
    if (stc_coh_sp_table_check(&table, err, sizeof err) != 0) {
        printf("  (watchdog: the self-check refuses a do-nothing I Load row: %s)\n", err);
        return;
    }
    s = make_split(STC_COH_MSI, 2, 8192, 4, STC_CS_RANDOM, 1, &table, NULL);
    if (s) {
        stc_cs_submit(s, 0, STC_COH_OP_LOAD, A, 4, 0, 0);
        stc_cs_drain(s);
        CHECK_EQ_U64(stc_cs_violation_kind_count(s, STC_CS_VIOL_DEADLOCK), 1, "watchdog");
        CHECK_EQ_U64(stc_cs_steps(s), 200001, "steps until the watchdog");
        stc_cs_destroy(s);
    }
}

/* -------------------------------------------------------- litmus */

/* A litmus test: per thread up to 2 operations ("W x", "R y"), stores
 * write 1; `forbidden` is the outcome SC excludes, the loads' results in
 * thread order. Locations x and y are in different lines (or, with
 * same_line, two words of one line). */
typedef struct {
    const char *name;
    unsigned threads;
    const char *ops[4][2];
    const char *forbidden; /* e.g. "10": first load read 1, second 0 */
} litmus;

static const litmus litmus_tests[] = {
    {"CoRR", 2, {{"W x", NULL}, {"R x", "R x"}}, "10"},
    {"MP", 2, {{"W x", "W y"}, {"R y", "R x"}}, "10"},
    {"SB", 2, {{"W x", "R y"}, {"W y", "R x"}}, "00"},
    {"IRIW", 4, {{"W x", NULL}, {"W y", NULL}, {"R x", "R y"}, {"R y", "R x"}}, "1010"},
};

typedef struct {
    uint64_t value[32];
} litmus_result;

static void litmus_done(void *context, unsigned core, uint64_t tag, uint64_t loaded)
{
    (void)core;
    ((litmus_result *)context)->value[tag] = loaded;
}

/* One run: the loads' values in thread order, as "01..", in outcome; then
 * every core loads x and y, and a stale copy left behind shows as
 * final_disagree (in SC every core reads the same last values). Returns
 * the model's violation count. */
static uint64_t run_litmus(const litmus *test, stc_coh_protocol protocol, bool same_line,
                           const stc_coh_sp_table *table, uint64_t seed, char *outcome,
                           bool *final_disagree)
{
    litmus_result result = {{0}};
    stc_cs_config config = {.cores = test->threads, .size_bytes = 8192, .ways = 4,
                            .line_bytes = 32, .protocol = protocol, .table = table,
                            .schedule = STC_CS_RANDOM, .seed = seed, .max_delay = 1 + seed % 6,
                            .done = litmus_done, .done_context = &result,
                            .watchdog_steps = 10000};
    char err[ERR_LEN];
    stc_cs_system *s = stc_cs_create(&config, err, sizeof err);
    CHECK(s != NULL, "%s", err);
    outcome[0] = '\0';
    *final_disagree = false;
    if (!s)
        return 1;
    uint64_t x = 0x2000, y = same_line ? 0x2004 : 0x3000;
    for (unsigned th = 0; th < test->threads; th++)
        for (unsigned i = 0; i < 2 && test->ops[th][i]; i++) {
            const char *op = test->ops[th][i];
            uint64_t addr = op[2] == 'x' ? x : y;
            stc_cs_submit(s, th, op[0] == 'W' ? STC_COH_OP_STORE : STC_COH_OP_LOAD, addr, 4,
                          op[0] == 'W' ? 1 : 0, th * 2 + i);
        }
    stc_cs_drain(s);
    for (unsigned th = 0; th < test->threads; th++) {
        stc_cs_submit(s, th, STC_COH_OP_LOAD, x, 4, 0, 16 + th * 2);
        stc_cs_submit(s, th, STC_COH_OP_LOAD, y, 4, 0, 17 + th * 2);
    }
    stc_cs_drain(s);
    unsigned n = 0;
    for (unsigned th = 0; th < test->threads; th++)
        for (unsigned i = 0; i < 2 && test->ops[th][i]; i++)
            if (test->ops[th][i][0] == 'R')
                outcome[n++] = (char)('0' + (result.value[th * 2 + i] & 1));
    outcome[n] = '\0';
    *final_disagree = false;
    for (unsigned th = 1; th < test->threads; th++)
        *final_disagree |= result.value[16 + th * 2] != result.value[16] ||
                           result.value[17 + th * 2] != result.value[17];
    uint64_t violations = stc_cs_violation_count(s);
    stc_cs_destroy(s);
    return violations;
}

/* Runs of test under random schedules: how many gave the forbidden
 * outcome or disagreeing final values (non-SC), how many violations, and
 * how many distinct outcomes. */
typedef struct {
    unsigned non_sc, violations, distinct;
} litmus_tally;

static litmus_tally litmus_runs(const litmus *test, stc_coh_protocol protocol, bool same_line,
                                const stc_coh_sp_table *table, unsigned runs)
{
    litmus_tally tally = {0};
    char seen[16][16];
    for (uint64_t seed = 1; seed <= runs; seed++) {
        char outcome[16];
        bool disagree = false;
        tally.violations += run_litmus(test, protocol, same_line, table, seed * 31, outcome,
                                       &disagree) > 0;
        tally.non_sc += !strcmp(outcome, test->forbidden) || disagree;
        bool known = false;
        for (unsigned k = 0; k < tally.distinct; k++)
            known |= !strcmp(seen[k], outcome);
        if (!known && tally.distinct < 16)
            snprintf(seen[tally.distinct++], sizeof seen[0], "%s", outcome);
    }
    return tally;
}

enum { LITMUS_TESTS = sizeof litmus_tests / sizeof litmus_tests[0] };

static void litmus_tests_run(void)
{
    for (unsigned t = 0; t < LITMUS_TESTS; t++)
        for (unsigned p = 0; p < PROTOCOLS; p++)
            for (unsigned same = 0; same < 2; same++) {
                const litmus *test = &litmus_tests[t];
                litmus_tally tally = litmus_runs(test, all_protocols[p], same, NULL, 300);
                CHECK(tally.non_sc == 0 && tally.violations == 0,
                      "%s %s %s: %u non-SC outcomes, %u runs with violations", test->name,
                      stc_coh_protocol_name(all_protocols[p]), same ? "one line" : "two lines",
                      tally.non_sc, tally.violations);
                /* the schedules did interleave: more than one SC outcome */
                CHECK(tally.distinct >= 2, "%s %s: only %u outcome(s)", test->name,
                      stc_coh_protocol_name(all_protocols[p]), tally.distinct);
            }
    /* The outcome check itself can fail: on a table that leaves a stale
     * copy behind, some test gives a non-SC outcome (its violations
     * aside). no-transient-invalidate and no-shared need a store to a
     * shared copy, which these tests do not make. */
    static const struct {
        stc_coh_sp_break which;
        stc_coh_protocol protocol;
    } broken[] = {{STC_COH_SP_BREAK_NO_IS_D_I, STC_COH_MSI},
                  {STC_COH_SP_BREAK_NO_IS_D_I, STC_COH_MOESI}};
    for (unsigned b = 0; b < sizeof broken / sizeof broken[0]; b++) {
        stc_coh_sp_table table = *stc_coh_sp_table_of(broken[b].protocol);
        char err[ERR_LEN];
        CHECK(stc_coh_sp_table_apply_break(&table, broken[b].which, err, sizeof err) == 0, "%s",
              err);
        unsigned non_sc = 0;
        for (unsigned t = 0; t < LITMUS_TESTS; t++)
            non_sc += litmus_runs(&litmus_tests[t], broken[b].protocol, false, &table, 100).non_sc;
        CHECK(non_sc > 0, "litmus: %s gave no non-SC outcome",
              stc_coh_sp_break_name(broken[b].which));
        printf("  litmus on %s %s: %u non-SC runs of %u\n", stc_coh_sp_break_name(broken[b].which),
               stc_coh_protocol_name(broken[b].protocol), non_sc, 100 * LITMUS_TESTS);
    }
}

/* -------------------------------------------------------- arguments */

static void bad_arguments(void)
{
    char err[ERR_LEN];
    stc_cs_config config = {.cores = 9, .size_bytes = 8192, .ways = 4, .line_bytes = 32};
    CHECK(!stc_cs_create(&config, err, sizeof err) && strstr(err, "cores 9"), "%s", err);
    config.cores = 2;
    config.schedule = STC_CS_SCHEDULE_COUNT;
    CHECK(!stc_cs_create(&config, err, sizeof err) && strstr(err, "schedule"), "%s", err);
    config.schedule = STC_CS_RANDOM;
    config.window = 65;
    CHECK(!stc_cs_create(&config, err, sizeof err) && strstr(err, "window"), "%s", err);
    config.window = 0;
    config.wb_buffer = STC_CS_MAX_WB_BUFFER + 1;
    CHECK(!stc_cs_create(&config, err, sizeof err) && strstr(err, "wb_buffer 9"), "%s", err);
    config.wb_buffer = 0;
    stc_cs_system *s = stc_cs_create(&config, err, sizeof err);
    CHECK(s != NULL, "%s", err);
    if (!s)
        return;
    CHECK(stc_cs_submit(s, 2, STC_COH_OP_LOAD, 0, 4, 0, 0) == -1 &&
              strstr(stc_cs_error(s), "core 2"), "%s", stc_cs_error(s));
    CHECK(stc_cs_submit(s, 0, STC_COH_OP_LOAD, 0, 33, 0, 0) == -1 &&
              strstr(stc_cs_error(s), "size 33"), "%s", stc_cs_error(s));
    stc_cs_destroy(s);
    stc_cs_schedule schedule;
    CHECK(stc_cs_schedule_parse("serial", &schedule, err, sizeof err) == 0 &&
              schedule == STC_CS_SERIAL, "serial");
    CHECK(stc_cs_schedule_parse("fifo", &schedule, err, sizeof err) == -1 && strstr(err, "fifo"),
          "%s", err);
}

int main(void)
{
    hand_gets_against_m();
    hand_racing_getm();
    hand_stale_putm();
    hand_pute();
    hand_moesi_owner();
    hand_moesi_promise();
    hand_miss_classes();
    hand_energy();
    hand_wb_miss_before_putm();
    hand_wb_snooped();
    hand_wb_full_stalls(1);
    hand_wb_full_stalls(2);
    hand_wb_miss_to_buffered();
    for (unsigned p = 0; p < PROTOCOLS; p++)
        for (uint64_t seed = 1; seed <= 2; seed++)
            for (uint32_t wb = 0; wb <= 1; wb++)
                serial_matches_atomic(all_protocols[p], seed, 15000, wb);
    serial_matches_atomic_on_traces();
    for (uint32_t wb = 0; wb <= 2; wb++)
        random_tester(wb);
    broken_tables();
    impossible_and_watchdog();
    litmus_tests_run();
    bad_arguments();
    return check_done("test_coherent_split");
}
