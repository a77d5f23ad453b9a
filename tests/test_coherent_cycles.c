/*
 * test_coherent_cycles.c - the cycles of atomic coherent runs
 * (coherent_cycles.h, docs/COHERENCE.md 9.10 and 11.9) and the leakage
 * priced from them (coherence_energy.h, docs/ENERGY.md 3.9.2):
 *  - the clock's rules alone, by hand (a tenure waits for the bus, a
 *    reference without one never does, utilisation);
 *  - conventional caches (coherent.h), by hand: a miss, a miss behind
 *    another core's (bus contention), a BusUpgr, a cache-to-cache
 *    transfer in every protocol, a dirty victim's BusWB;
 *  - configurable caches (coherent_stc.h), by hand: a 64 B logical line's
 *    burst of four physical lines, a refetch of one subline supplied by
 *    another cache, and a burst whose middle line another cache supplies
 *    (memory's latency paid again after it);
 *  - independent oracles: one core equals ref/cache.c's own cycle count
 *    for the same references (conventional and stc, several geometries
 *    and configurations, MESI and MOESI; MSI adds exactly one cycle per
 *    BusUpgr); stc caches with 16 B logical lines equal the conventional
 *    model's cycles on random 4-core traffic; every core's cycles are the
 *    sum of its parts on random traffic;
 *  - leakage: the per-cycle price is the single-cache model's for the
 *    same cache, the tuner's runs add run cycles x that price per core;
 *  - the processor's stall (docs/ENERGY.md 3.9.2): each core's waited
 *    cycles (its cycles less its probes) by hand on contended traces and
 *    priced at the table's `stall`; one core's equal to the stall cycles
 *    the single-cache model charges inside `miss` and `writeback`.
 */
#include "check.h"
#include "test_configs.h"
#include "splitmix.h"
#include "cache.h"
#include "coherence_energy.h"
#include "coherent.h"
#include "coherent_cycles.h"
#include "coherent_stc.h"
#include "coherent_tune.h"
#include "energy.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum { ERR_LEN = 256 };

/* The default geometry: T = 20 (mem_latency), 16 B physical lines. */
enum { T_MEM = 20 };

static const stc_coh_protocol all_protocols[] = {STC_COH_MSI, STC_COH_MESI, STC_COH_MOESI};

typedef struct {
    unsigned core;
    stc_coh_op op;
    uint64_t addr;
    uint32_t size;
} ref;

/* ------------------------------------------------------------ the clock */

static void clock_rules(void)
{
    stc_coh_bus_timing timing;
    stc_coh_bus_timing_init(&timing, 32, T_MEM);
    CHECK(timing.address_cycles == 1 && timing.mem_latency == 20 && timing.beats_per_line == 8 &&
              timing.supply_read_cycles == 1,
          "timing %u %u %u %u", timing.address_cycles, timing.mem_latency,
          timing.beats_per_line, timing.supply_read_cycles);
    /* BusRd from memory 1 + 20 + 8, from a cache 1 + 1 + 8, BusWB 1 + 28,
     * BusUpgr 1, a flush without a supply + 28. */
    CHECK_EQ_U64(stc_coh_transaction_cycles(&timing, STC_COH_BUS_RD, false, false), 29, "BusRd");
    CHECK_EQ_U64(stc_coh_transaction_cycles(&timing, STC_COH_BUS_RDX, true, false), 10, "c2c");
    CHECK_EQ_U64(stc_coh_transaction_cycles(&timing, STC_COH_BUS_WB, false, false), 29, "BusWB");
    CHECK_EQ_U64(stc_coh_transaction_cycles(&timing, STC_COH_BUS_UPGR, false, false), 1, "upgr");
    CHECK_EQ_U64(stc_coh_transaction_cycles(&timing, STC_COH_BUS_RD, false, true), 57, "flush");

    stc_coh_clock clock;
    stc_coh_clock_init(&clock, 2, &timing);
    /* core 0: 1 + [bus 29] + 1: the bus 1..30, core 0 at 31. */
    stc_coh_clock_commit(&clock, 0, &(stc_coh_access_cycles){1, 29, 1});
    /* core 1: ready at 1, the bus is busy until 30: stalls 29, holds it
     * 30..59, done at 60. */
    stc_coh_clock_commit(&clock, 1, &(stc_coh_access_cycles){1, 29, 1});
    /* core 0 hits (no bus) while core 1's tenure lasts: 31 -> 32, no wait. */
    stc_coh_clock_commit(&clock, 0, &(stc_coh_access_cycles){1, 0, 0});
    /* core 0 upgrades: ready at 33, the bus is busy until 59: stalls 26. */
    stc_coh_clock_commit(&clock, 0, &(stc_coh_access_cycles){1, 1, 0});
    CHECK_EQ_U64(clock.core[0].cycles, 60, "core 0's clock");
    CHECK_EQ_U64(clock.core[0].stall_cycles, 26, "core 0's stall");
    CHECK_EQ_U64(clock.core[0].bus_cycles, 30, "core 0's bus cycles");
    CHECK_EQ_U64(clock.core[1].cycles, 60, "core 1's clock");
    CHECK_EQ_U64(clock.core[1].stall_cycles, 29, "core 1's stall");
    stc_coh_run_cycles run;
    stc_coh_clock_run(&clock, &run);
    CHECK(run.cycles == 60 && run.bus_busy_cycles == 59 && run.stall_cycles == 55 &&
              fabs(run.bus_utilisation - 59.0 / 60.0) < 1e-12,
          "run %llu busy %llu stall %llu utilisation %g", (unsigned long long)run.cycles,
          (unsigned long long)run.bus_busy_cycles, (unsigned long long)run.stall_cycles,
          run.bus_utilisation);
    /* Idle time moves a clock and nothing else: core 1 idles 5 (60 ->
     * 65), then its miss finds the bus free (it was free from 59): no
     * stall; core 0, ready at 61, waits for it until 66 + 29 = 95. */
    stc_coh_clock_idle(&clock, 1, 5);
    CHECK(clock.core[1].cycles == 65 && clock.core[1].stall_cycles == 29 &&
              clock.core[1].waited_cycles == 59,
          "idle: clock %llu stall %llu waited %llu", (unsigned long long)clock.core[1].cycles,
          (unsigned long long)clock.core[1].stall_cycles,
          (unsigned long long)clock.core[1].waited_cycles);
    stc_coh_clock_commit(&clock, 1, &(stc_coh_access_cycles){1, 29, 1});
    stc_coh_clock_commit(&clock, 0, &(stc_coh_access_cycles){1, 29, 1});
    CHECK(clock.core[1].cycles == 96 && clock.core[1].stall_cycles == 29 &&
              clock.core[0].cycles == 125 && clock.core[0].stall_cycles == 26 + 34,
          "after idle: core 1 %llu (stall %llu), core 0 %llu (stall %llu)",
          (unsigned long long)clock.core[1].cycles, (unsigned long long)clock.core[1].stall_cycles,
          (unsigned long long)clock.core[0].cycles, (unsigned long long)clock.core[0].stall_cycles);
    stc_coh_clock_init(&clock, 3, &timing);
    stc_coh_clock_run(&clock, &run);
    CHECK(run.cycles == 0 && run.bus_utilisation == 0.0, "an empty run");
}

/* ------------------------------------------------------------ conventional */

static stc_coh_system *conventional(stc_coh_protocol protocol, unsigned cores, uint32_t size,
                                    uint32_t ways, uint32_t line)
{
    char err[ERR_LEN] = "";
    stc_coh_config config = {.cores = cores, .size_bytes = size, .ways = ways,
                             .line_bytes = line, .protocol = protocol};
    stc_coh_system *system = stc_coh_create(&config, err, sizeof err);
    if (!system) {
        fprintf(stderr, "stc_coh_create: %s\n", err);
        exit(1);
    }
    return system;
}

static void run_conventional(stc_coh_system *system, const ref *refs, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (stc_coh_access(system, refs[i].core, refs[i].op, refs[i].addr, refs[i].size,
                           i + 1, NULL) != 0) {
            fprintf(stderr, "stc_coh_access: %s\n", stc_coh_error(system));
            exit(1);
        }
}

static void expect_core(const stc_coh_core_cycles *got, uint64_t cycles, uint64_t stall,
                        uint64_t bus, const char *who)
{
    CHECK(got->cycles == cycles && got->stall_cycles == stall && got->bus_cycles == bus,
          "%s: cycles %llu stall %llu bus %llu, by hand %llu %llu %llu", who,
          (unsigned long long)got->cycles, (unsigned long long)got->stall_cycles,
          (unsigned long long)got->bus_cycles, (unsigned long long)cycles,
          (unsigned long long)stall, (unsigned long long)bus);
}

/* Two cores missing on different blocks at once, 8 KiB 4-way 32 B: the
 * second waits for the first's tenure. c0 store A: BusRdX 1..30, 31. c1
 * load B: ready 1, stalls 29, 30..59, 60. c0 store A again: a hit in M,
 * 32. c1 load B + 4: a hit, 61. */
static const ref contend[] = {
    {0, STC_COH_OP_STORE, 0x2000, 4},
    {1, STC_COH_OP_LOAD, 0x3000, 4},
    {0, STC_COH_OP_STORE, 0x2000, 4},
    {1, STC_COH_OP_LOAD, 0x3004, 4},
};

/* 8 KiB 4-way 32 B lines: T = 20, P/W = 8. A memory BusRd holds the bus
 * 1 + 20 + 8 = 29 cycles, a miss costs 1 (probe) + 29 + 1 (the
 * controller's second cycle; its first is the address phase) = 31, the
 * single-cache model's 1 + 28 + 2. */
static void conventional_by_hand(void)
{
    stc_coh_system *s = conventional(STC_COH_MESI, 2, 8192, 4, 32);
    const ref refs[] = {
        {0, STC_COH_OP_LOAD, 0x1000, 4},  /* c0: 0 + 1, bus 1..30, + 1: 31 (E) */
        {1, STC_COH_OP_LOAD, 0x1000, 4},  /* c1: ready 1, stalls 29, bus 30..59 (E
                                             does not supply: memory), + 1: 60 */
        {1, STC_COH_OP_STORE, 0x1004, 4}, /* c1: S hit + BusUpgr: 61, bus 61..62 */
        {0, STC_COH_OP_LOAD, 0x1000, 4},  /* c0: ready 32, stalls 30 (bus busy to 62);
                                             c1's M supplies (and flushes, free):
                                             1 + 1 + 8 = 10, bus 62..72, + 1: 73 */
        {0, STC_COH_OP_LOAD, 0x1008, 4},  /* c0: a hit, 74 */
    };
    run_conventional(s, refs, sizeof refs / sizeof refs[0]);
    expect_core(stc_coh_core_cycles_of(s, 0), 74, 30, 29 + 10, "MESI core 0");
    expect_core(stc_coh_core_cycles_of(s, 1), 62, 29, 29 + 1, "MESI core 1");
    /* Waited: the cycles less one probe per block access. c0: 74 - 3 =
     * 30 (its miss) + 30 + 10 + 1 (the supplied one); c1: 62 - 2 = 29 + 29
     * + 1 (stall, tenure, controller) + 1 (the BusUpgr's tenure). */
    CHECK(stc_coh_core_cycles_of(s, 0)->waited_cycles == 71 &&
              stc_coh_core_cycles_of(s, 1)->waited_cycles == 60,
          "waited %llu and %llu, by hand 71 and 60",
          (unsigned long long)stc_coh_core_cycles_of(s, 0)->waited_cycles,
          (unsigned long long)stc_coh_core_cycles_of(s, 1)->waited_cycles);
    stc_coh_run_cycles run;
    stc_coh_run_cycles_of(s, &run);
    CHECK(run.cycles == 74 && run.bus_busy_cycles == 69 && run.stall_cycles == 59 &&
              run.waited_cycles == 131,
          "run %llu busy %llu stall %llu waited %llu", (unsigned long long)run.cycles,
          (unsigned long long)run.bus_busy_cycles, (unsigned long long)run.stall_cycles,
          (unsigned long long)run.waited_cycles);
    CHECK(stc_coh_core_counters(s, 1)->c2c_supplied == 1 && stc_coh_core_counters(s, 1)->upgrades == 1,
          "the case is what it says");
    stc_coh_destroy(s);

    /* contend (above) */
    s = conventional(STC_COH_MESI, 2, 8192, 4, 32);
    run_conventional(s, contend, 4);
    expect_core(stc_coh_core_cycles_of(s, 0), 32, 0, 29, "contention, core 0");
    expect_core(stc_coh_core_cycles_of(s, 1), 61, 29, 29, "contention, core 1");
    stc_coh_destroy(s);

    /* A cache-to-cache transfer in every protocol: c0 stores X (BusRdX
     * from memory, 1..30, 31), c1 loads X: c0's M supplies (MSI, MESI:
     * and flushes, at no bus time: memory takes the bus's data), 1 + 1 +
     * 8 = 10 cycles: ready 1, stalls 29, 30..40, 41. */
    for (size_t p = 0; p < sizeof all_protocols / sizeof all_protocols[0]; p++) {
        s = conventional(all_protocols[p], 2, 8192, 4, 32);
        const ref c2c[] = {{0, STC_COH_OP_STORE, 0x40, 4}, {1, STC_COH_OP_LOAD, 0x44, 4}};
        run_conventional(s, c2c, 2);
        expect_core(stc_coh_core_cycles_of(s, 1), 41, 29, 10, stc_coh_protocol_name(all_protocols[p]));
        CHECK(stc_coh_core_counters(s, 1)->c2c_received == 1, "%s: a transfer",
              stc_coh_protocol_name(all_protocols[p]));
        stc_coh_destroy(s);
    }

    /* A dirty victim: 64 B, direct-mapped, 32 B lines (2 sets). c0 stores
     * A (31); loads A + 64, the same set: the M victim's BusWB (1 + 28)
     * then the BusRd (1 + 28); the controller's 2 + 2 less the 2 address
     * phases are the check before the BusWB, inside the tenure (the miss
     * holds the bus from its first check, ARCHITECTURE.md 19.5), and the
     * answer after it: a tenure of 1 + 58 = 59, 1 + 59 + 1 = 61, the
     * single-cache model's 1 + 28 + 28 + 2 + 2. Then c1 loads C (its own
     * block). */
    s = conventional(STC_COH_MESI, 2, 64, 1, 32);
    const ref victim[] = {
        {0, STC_COH_OP_STORE, 0x0, 4},
        {0, STC_COH_OP_LOAD, 0x40, 4},
        {1, STC_COH_OP_LOAD, 0x1020, 4},
    };
    run_conventional(s, victim, 3);
    expect_core(stc_coh_core_cycles_of(s, 0), 92, 0, 29 + 59, "dirty victim, core 0");
    /* c1's load came after c0's second reference in bus order: ready 1,
     * the bus busy until 31 + 1 + 59 = 91. */
    expect_core(stc_coh_core_cycles_of(s, 1), 121, 90, 29, "dirty victim, core 1");
    CHECK(stc_coh_core_counters(s, 0)->bus_wb == 1, "a BusWB");
    stc_coh_destroy(s);
}

/* ------------------------------------------------------------ stc caches */

static stc_cstc_system *stc_system(stc_coh_protocol protocol, unsigned cores,
                                   const char *const *names)
{
    stc_cstc_config config = {.cores = cores, .protocol = protocol};
    config.geometry = default_geometry();
    for (unsigned c = 0; c < cores; c++)
        config.configs[c] = config_named(&config.geometry, names[c]);
    char err[ERR_LEN] = "";
    stc_cstc_system *system = stc_cstc_create(&config, err, sizeof err);
    if (!system) {
        fprintf(stderr, "stc_cstc_create: %s\n", err);
        exit(1);
    }
    return system;
}

static void run_stc(stc_cstc_system *system, const ref *refs, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (stc_cstc_access(system, refs[i].core, refs[i].op, refs[i].addr, refs[i].size, i + 1,
                            NULL) != 0) {
            fprintf(stderr, "stc_cstc_access: %s\n", stc_cstc_error(system));
            exit(1);
        }
}

/* Default geometry: 16 B physical lines, P/W = 4, T = 20. */
static void stc_by_hand(void)
{
    /* c0 in 8K_4W_64B (4 physical lines per logical line), c1 in
     * 8K_4W_16B, MESI. */
    static const char *const names[] = {"8K_4W_64B", "8K_4W_16B"};
    stc_cstc_system *s = stc_system(STC_COH_MESI, 2, names);
    const ref refs[] = {
        /* c0 loads X: its 64 B line is known absent: 4 BusRd in one
         * burst, one tenure 1 + (20 + 4) + 3 x 4 = 37 (bus 1..38); the
         * cache's 1 + (20 + 16) + 2 = 39: before 1, after 2 - 1 = 1: 39. */
        {0, STC_COH_OP_LOAD, 0x1000, 4},
        /* c1 stores X + 16: BusRdX, c0's E copy does not supply: 1 + 24 =
         * 25; ready 1, stalls 37, bus 38..63, + 1: 64. */
        {1, STC_COH_OP_STORE, 0x1010, 4},
        /* c0 loads X + 16 (invalidated): one subline missing of a line
         * not known absent: the cache's 1 + (20 + 4) + (4 sublines + 1
         * burst) = 30; c1's M supplies it: 1 + 1 + 4 = 6; ready 40,
         * stalls 23 (bus busy to 63); the tenure holds the checks of
         * sublines 0-2 (the fourth's is the burst's address phase) and
         * the supply: 3 + 6 = 9, 63..72; after, the answer: 73. */
        {0, STC_COH_OP_LOAD, 0x1010, 4},
    };
    run_stc(s, refs, 3);
    expect_core(stc_cstc_core_cycles_of(s, 0), 73, 23, 37 + 9, "stc 64 B, core 0");
    expect_core(stc_cstc_core_cycles_of(s, 1), 64, 37, 25, "stc 64 B, core 1");
    stc_cstc_counters counters;
    stc_cstc_core_counters(s, 0, &counters);
    CHECK(counters.cache.cycles == 39 + 30 && counters.coherence.c2c_received == 1,
          "core 0's cache counted %llu cycles against its fixed memory, by hand 69",
          (unsigned long long)counters.cache.cycles);
    stc_cstc_destroy(s);

    /* A burst whose second line another cache supplies: c1 (16 B) stores
     * X + 16 (1 + 25 + 1 = 27, bus 1..26); c0 (64 B) loads X: 4 lines,
     * one tenure: address 1, line 0 from memory 20 + 4, line 1 from c1's
     * M 1 + 4, lines 2 and 3 from memory again, T paid again: 20 + 4 + 4:
     * 58. Ready 1, stalls 25, 26..84, after 1: 85. */
    static const char *const names2[] = {"8K_4W_64B", "8K_4W_16B"};
    for (size_t p = 0; p < sizeof all_protocols / sizeof all_protocols[0]; p++) {
        s = stc_system(all_protocols[p], 2, names2);
        const ref mixed[] = {{1, STC_COH_OP_STORE, 0x2010, 4}, {0, STC_COH_OP_LOAD, 0x2000, 4}};
        run_stc(s, mixed, 2);
        expect_core(stc_cstc_core_cycles_of(s, 1), 27, 0, 25, "mixed burst, core 1");
        expect_core(stc_cstc_core_cycles_of(s, 0), 85, 25, 58, "mixed burst, core 0");
        stc_cstc_destroy(s);
    }

    /* A reconfiguration's walk holds the bus for all of it but the wake-up
     * (ARCHITECTURE.md 19.5). c0 (8K_4W_16B) stores X (27 cycles, a
     * 25-cycle tenure 1..26), then goes to 8K_2W_16B: the walk of 128
     * rows writes X's M line back (it leaves the group X's tag picks or
     * stays: either way the cache counts its cycles), 128 + 1 + V (24 + 2)
     * with V its writebacks; no bank wakes, so all of it is one tenure from
     * 27. c1's load (ready 1) waits for it. */
    static const char *const names3[] = {"8K_4W_16B", "8K_4W_16B"};
    s = stc_system(STC_COH_MESI, 2, names3);
    const ref store[] = {{0, STC_COH_OP_STORE, 0x3000, 4}};
    run_stc(s, store, 1);
    stc_geometry geometry = default_geometry();
    stc_config two_way = config_named(&geometry, "8K_2W_16B");
    stc_reconfig_result change;
    CHECK(stc_cstc_reconfigure(s, 0, &two_way, &change) == 0 && change.walked_rows == 128 &&
              change.woken_banks == 0,
          "the change walks 128 rows (%u), wakes no bank (%u)", change.walked_rows,
          change.woken_banks);
    CHECK_EQ_U64(change.cycles, 128 + 1 + change.writebacks * (24 + 2), "the walk's cycles");
    expect_core(stc_cstc_core_cycles_of(s, 0), 27 + change.cycles, 0, 25 + change.cycles,
                "walk, core 0");
    const ref load[] = {{1, STC_COH_OP_LOAD, 0x5000, 4}};
    run_stc(s, load, 1);
    /* c1: ready 1, the bus busy until 27 + the walk: stalls, 25, + 1 */
    expect_core(stc_cstc_core_cycles_of(s, 1), 27 + change.cycles + 25 + 1,
                27 + change.cycles - 1, 25, "walk, core 1 behind it");
    stc_cstc_destroy(s);
}

/* A supply takes the supplier's data array for its read cycle
 * (ARCHITECTURE.md 19.5, COHERENCE.md 11.9 decision 3a). MESI, c1 in
 * 8K_4W_16B_P (way prediction: a miss or a hit outside the predicted bank
 * probes twice), c0 in 8K_4W_16B; X and Z = X + 2 KiB share a row.
 * c1 stores X: probes 2, BusRdX tenure 1 + 24 (bus 2..27), answer: 28.
 * c1 loads Z: probes 2, ready 30, bus 30..55, 56 (Z in another bank, now
 * the row's most recent). c0 loads X: ready 1, stalls to 55, tenure 1 +
 * (1 + 4) supplied by c1's M (bus 55..61), 62; the read is the window's
 * first cycle, 56 in the tenure's count, 57 in the clocks' (a reference
 * starts in the cycle it is accepted, its first compare is the next).
 * c1 loads X at 56: the prediction (Z's bank) misses, the second probe's
 * read would be in 57: it waits a cycle, 56 + 2 + 1 = 59 (58 without). */
static void stc_supply_by_hand(void)
{
    static const char *const names[] = {"8K_4W_16B", "8K_4W_16B_P"};
    stc_cstc_system *s = stc_system(STC_COH_MESI, 2, names);
    const ref refs[] = {
        {1, STC_COH_OP_STORE, 0x4000, 4},
        {1, STC_COH_OP_LOAD, 0x4800, 4},
        {0, STC_COH_OP_LOAD, 0x4000, 4},
    };
    run_stc(s, refs, 3);
    expect_core(stc_cstc_core_cycles_of(s, 1), 56, 0, 50, "supply, c1 before");
    expect_core(stc_cstc_core_cycles_of(s, 0), 62, 54, 6, "supply, c0's miss");
    for (uint64_t cycle = 50; cycle < 70; cycle++)
        CHECK(stc_cstc_supply_read_at(s, 1, cycle) == (cycle == 57) &&
                  !stc_cstc_supply_read_at(s, 0, cycle),
              "c1's array is read for the supply in cycle 57 only (cycle %llu)",
              (unsigned long long)cycle);
    const ref again[] = {{1, STC_COH_OP_LOAD, 0x4000, 4}};
    run_stc(s, again, 1);
    expect_core(stc_cstc_core_cycles_of(s, 1), 59, 0, 50, "supply, c1's second probe waits");
    CHECK_EQ_U64(stc_cstc_probe_waits(s), 1, "cycles second probes waited");
    stc_cstc_destroy(s);
}

/* ------------------------------------------------------------ oracles */

static ref random_ref(uint64_t *rng, unsigned cores, uint64_t span)
{
    uint64_t r = rng_next(rng);
    ref out;
    out.core = (unsigned)(r % cores);
    out.op = (r >> 8) % 3 == 0 ? STC_COH_OP_STORE : STC_COH_OP_LOAD;
    out.size = (r >> 16) % 4 == 0 ? 8 : 4;
    out.addr = ((r >> 24) % span) & ~(uint64_t)3; /* 8 B ones may straddle a line */
    return out;
}

/* One core, conventional caches, against ref/cache.c with the same shape
 * (banks = ways, bank_bytes = size / ways, every bank powered, one
 * physical line per line): the core's cycles are the cache's own. */
static void one_core_conventional_equals_cache(void)
{
    static const struct {
        uint32_t size, ways, line;
    } shapes[] = {{8192, 4, 32}, {256, 2, 32}, {512, 1, 16}, {1024, 4, 64}};
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
        for (size_t p = 0; p < sizeof all_protocols / sizeof all_protocols[0]; p++) {
            stc_coh_protocol protocol = all_protocols[p];
            stc_coh_system *s = conventional(protocol, 1, shapes[sh].size, shapes[sh].ways,
                                             shapes[sh].line);
            stc_geometry geometry;
            stc_geometry_default(&geometry);
            geometry.banks = shapes[sh].ways;
            geometry.bank_bytes = shapes[sh].size / shapes[sh].ways;
            geometry.line_bytes = shapes[sh].line;
            char err[ERR_LEN] = "";
            CHECK(stc_geometry_init(&geometry, err, sizeof err) == 0, "%s", err);
            stc_config config = {.banks_on = shapes[sh].ways, .ways = shapes[sh].ways,
                                 .sublines = 1, .way_predict = false};
            stc_cache *cache = stc_cache_create(&geometry, STC_DCACHE, &config, NULL, err, sizeof err);
            CHECK(cache != NULL, "%s", err);
            if (!cache)
                return;
            uint64_t rng = 0x5eed0000u + sh * 7 + p;
            for (unsigned i = 0; i < 20000; i++) {
                ref r = random_ref(&rng, 1, 4 * shapes[sh].size);
                run_conventional(s, &r, 1);
                stc_cache_request(cache, r.op == STC_COH_OP_STORE ? STC_OP_WRITE : STC_OP_READ,
                                  r.addr, r.size, NULL, NULL, NULL);
            }
            const stc_coh_core_cycles *time = stc_coh_core_cycles_of(s, 0);
            uint64_t cache_cycles = stc_cache_counters(cache)->cycles;
            /* MSI: a load takes S even alone, so a later store upgrades:
             * one address phase the single cache does not have. */
            uint64_t upgrades = stc_coh_core_counters(s, 0)->upgrades;
            CHECK(time->cycles == cache_cycles + upgrades && time->stall_cycles == 0,
                  "%u B %u-way %u B %s: %llu cycles, the cache %llu + %llu upgrades",
                  shapes[sh].size, shapes[sh].ways, shapes[sh].line,
                  stc_coh_protocol_name(protocol), (unsigned long long)time->cycles,
                  (unsigned long long)cache_cycles, (unsigned long long)upgrades);
            CHECK((protocol == STC_COH_MSI) == (upgrades > 0), "upgrades only in MSI");
            /* Alone, a core waits only for its own memory: the stall
             * cycles the single-cache model prices inside `miss` (T + L/4
             * + 2) and `writeback` (T + P/4 + 2), counted from the
             * separate cache, and MSI's address phase per BusUpgr. */
            const stc_counters *own = stc_cache_counters(cache);
            uint64_t per_memory = T_MEM + shapes[sh].line / 4 + 2;
            uint64_t single_stall = (own->misses + own->writebacks) * per_memory + upgrades;
            CHECK(time->waited_cycles == single_stall,
                  "%u B %u-way %u B %s: waited %llu, the single cache's stall %llu",
                  shapes[sh].size, shapes[sh].ways, shapes[sh].line,
                  stc_coh_protocol_name(protocol), (unsigned long long)time->waited_cycles,
                  (unsigned long long)single_stall);
            CHECK(stc_cache_counters(cache)->writebacks == stc_coh_core_counters(s, 0)->bus_wb &&
                      stc_cache_counters(cache)->writebacks > 0,
                  "the run had dirty victims (%llu)",
                  (unsigned long long)stc_cache_counters(cache)->writebacks);
            stc_cache_destroy(cache);
            stc_coh_destroy(s);
        }
    }
}

/* One core, stc caches (logical lines of 1, 2, 4 physical lines, way
 * prediction, direct-mapped), against a separate ref/cache.c cache of the
 * same configuration run on the same references, and against the
 * coherent cache's own cycle counter. */
static void one_core_stc_equals_cache(void)
{
    static const char *const configs[] = {"8K_4W_16B", "8K_4W_32B", "8K_4W_64B", "4K_2W_64B_P",
                                          "2K_1W_32B", "8K_2W_32B_P"};
    stc_geometry geometry = default_geometry();
    for (size_t k = 0; k < sizeof configs / sizeof configs[0]; k++) {
        for (size_t p = 1; p < sizeof all_protocols / sizeof all_protocols[0]; p++) {
            const char *names[] = {configs[k]};
            stc_cstc_system *s = stc_system(all_protocols[p], 1, names);
            stc_config config = config_named(&geometry, configs[k]);
            char err[ERR_LEN] = "";
            stc_cache *cache = stc_cache_create(&geometry, STC_DCACHE, &config, NULL, err, sizeof err);
            if (!cache)
                return;
            uint64_t rng = 0xc0ffee00u + k * 3 + p;
            for (unsigned i = 0; i < 20000; i++) {
                ref r = random_ref(&rng, 1, 24576);
                run_stc(s, &r, 1);
                stc_cache_request(cache, r.op == STC_COH_OP_STORE ? STC_OP_WRITE : STC_OP_READ,
                                  r.addr, r.size, NULL, NULL, NULL);
            }
            stc_cstc_counters counters;
            stc_cstc_core_counters(s, 0, &counters);
            const stc_coh_core_cycles *time = stc_cstc_core_cycles_of(s, 0);
            CHECK(time->cycles == stc_cache_counters(cache)->cycles &&
                      time->cycles == counters.cache.cycles && time->stall_cycles == 0,
                  "%s %s: %llu cycles, the separate cache %llu, its own count %llu", configs[k],
                  stc_coh_protocol_name(all_protocols[p]), (unsigned long long)time->cycles,
                  (unsigned long long)stc_cache_counters(cache)->cycles,
                  (unsigned long long)counters.cache.cycles);
            CHECK(counters.cache.writebacks > 0, "%s: dirty victims happened", configs[k]);
            /* Alone, every cycle but a probe is a wait for its own
             * memory: one probe per access, a second for each access way
             * prediction did not hit first (priced with the access). */
            uint64_t probes = counters.cache.accesses +
                              (config.way_predict
                                   ? counters.cache.accesses - counters.cache.first_probe_hits
                                   : 0);
            CHECK(time->waited_cycles == time->cycles - probes && time->waited_cycles > 0,
                  "%s %s: waited %llu, cycles %llu less %llu probes", configs[k],
                  stc_coh_protocol_name(all_protocols[p]), (unsigned long long)time->waited_cycles,
                  (unsigned long long)time->cycles, (unsigned long long)probes);
            stc_cache_destroy(cache);
            stc_cstc_destroy(s);
        }
    }
}

/* 4 cores of 16 B logical lines: the stc model and the conventional one
 * agree on every counter (test_coherent_stc.c); their cycles must agree
 * too, computed by their own code (the conventional model's constants,
 * the stc one from its cache's cycles less its memory's). And each core's
 * cycles are its parts' sum: every reference's own cycles + stall + bus. */
static void stc_16b_equals_conventional(void)
{
    static const char *const configs[] = {"8K_4W_16B", "2K_1W_16B", "4K_2W_16B", "8K_1W_16B"};
    stc_geometry geometry = default_geometry();
    for (size_t p = 0; p < sizeof all_protocols / sizeof all_protocols[0]; p++) {
        for (size_t k = 0; k < sizeof configs / sizeof configs[0]; k++) {
            const char *names[4] = {configs[k], configs[k], configs[k], configs[k]};
            stc_cstc_system *stc = stc_system(all_protocols[p], 4, names);
            stc_config config = config_named(&geometry, configs[k]);
            stc_coh_system *conv = conventional(all_protocols[p], 4,
                                                config.banks_on * geometry.bank_bytes,
                                                config.ways, 16);
            uint64_t rng = 0xabcd00u + p * 11 + k;
            for (unsigned i = 0; i < 12000; i++) {
                /* a hot shared 512 B and a wide 24 KiB region */
                ref r = random_ref(&rng, 4, (i % 3) ? 512 : 24576);
                run_stc(stc, &r, 1);
                run_conventional(conv, &r, 1);
            }
            for (unsigned c = 0; c < 4; c++) {
                const stc_coh_core_cycles *a = stc_cstc_core_cycles_of(stc, c);
                const stc_coh_core_cycles *b = stc_coh_core_cycles_of(conv, c);
                CHECK(a->cycles == b->cycles && a->stall_cycles == b->stall_cycles &&
                          a->bus_cycles == b->bus_cycles,
                      "%s %s core %u: stc %llu/%llu/%llu, conventional %llu/%llu/%llu",
                      configs[k], stc_coh_protocol_name(all_protocols[p]), c,
                      (unsigned long long)a->cycles, (unsigned long long)a->stall_cycles,
                      (unsigned long long)a->bus_cycles, (unsigned long long)b->cycles,
                      (unsigned long long)b->stall_cycles, (unsigned long long)b->bus_cycles);
                /* the parts: outside the bus, one probe per access (no
                 * way prediction here) and each miss's answer; the rest
                 * of a miss's own cycles is in its tenure (ARCHITECTURE.md
                 * 19.5), and so is a BusUpgr's address phase */
                stc_cstc_counters counters;
                stc_cstc_core_counters(stc, c, &counters);
                uint64_t outside = counters.cache.accesses + counters.cache.misses;
                CHECK(a->cycles == outside + a->stall_cycles + a->bus_cycles,
                      "%s core %u: %llu cycles = probes and answers %llu + stall %llu + bus %llu",
                      configs[k], c, (unsigned long long)a->cycles, (unsigned long long)outside,
                      (unsigned long long)a->stall_cycles, (unsigned long long)a->bus_cycles);
            }
            stc_coh_run_cycles ra, rb;
            stc_cstc_run_cycles_of(stc, &ra);
            stc_coh_run_cycles_of(conv, &rb);
            CHECK(ra.cycles == rb.cycles && ra.bus_busy_cycles == rb.bus_busy_cycles &&
                      ra.bus_utilisation > 0.0 && ra.bus_utilisation <= 1.0 && ra.stall_cycles > 0,
                  "%s: run %llu/%llu, busy %llu/%llu, utilisation %g", configs[k],
                  (unsigned long long)ra.cycles, (unsigned long long)rb.cycles,
                  (unsigned long long)ra.bus_busy_cycles, (unsigned long long)rb.bus_busy_cycles,
                  ra.bus_utilisation);
            stc_cstc_destroy(stc);
            stc_coh_destroy(conv);
        }
    }
}

/* ------------------------------------------------------------ leakage */

static void leakage(void)
{
    char err[ERR_LEN] = "";
    /* Conventional 8 KiB 4-way 32 B: the stc geometry of 4 banks of 2 KiB
     * with 32 B lines, all 4 powered: the table's static entry of k = 4. */
    double per_cycle = 0.0;
    CHECK(stc_coh_static_per_cycle_default(8192, 4, 32, 32, &per_cycle, err, sizeof err) == 0,
          "%s", err);
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    geometry.line_bytes = 32;
    CHECK(stc_geometry_init(&geometry, err, sizeof err) == 0, "%s", err);
    stc_energy_table table;
    CHECK(stc_energy_default(&geometry, &table, err, sizeof err) == 0, "%s", err);
    CHECK(per_cycle == table.static_nj_per_cycle[2] && per_cycle > 0.0,
          "static per cycle %g, the table's %g", per_cycle, table.static_nj_per_cycle[2]);
    CHECK(stc_coh_static_per_cycle_default(6144, 3, 32, 32, &per_cycle, err, sizeof err) != 0,
          "a 3-way cache is not priced");

    stc_coh_energy energy = {.total_nj = 5, .total_with_static_nj = 5};
    stc_coh_energy_add_static(&energy, 1000, 0.002);
    CHECK(fabs(energy.static_nj - 2.0) < 1e-12 && fabs(energy.total_with_static_nj - 7.0) < 1e-12 &&
              energy.total_nj == 5,
          "static %g with %g total %g", energy.static_nj, energy.total_with_static_nj,
          energy.total_nj);

    /* stc: a configuration's price per cycle is stc_energy_of's for one
     * cycle; the tuner's runs add the run's cycles at it for every core. */
    stc_geometry stc_geo = default_geometry();
    stc_cstc_energy_model model;
    CHECK(stc_cstc_energy_model_default(&stc_geo, &model, err, sizeof err) == 0, "%s", err);
    stc_config big = config_named(&stc_geo, "8K_4W_32B"), small = config_named(&stc_geo, "2K_1W_16B");
    CHECK(stc_cstc_static_per_cycle(&model, &big) == model.table.static_nj_per_cycle[2] &&
              stc_cstc_static_per_cycle(&model, &small) == model.table.static_nj_per_cycle[0] &&
              model.table.static_nj_per_cycle[2] > model.table.static_nj_per_cycle[0],
          "per cycle: 8 KiB %g, 2 KiB %g", stc_cstc_static_per_cycle(&model, &big),
          stc_cstc_static_per_cycle(&model, &small));
    stc_mc_ref refs[64];
    for (unsigned i = 0; i < 64; i++)
        refs[i] = (stc_mc_ref){.core = i % 2, .label = i % 5 ? STC_MC_READ : STC_MC_WRITE,
                               .addr = 0x100 + 4 * (i % 24), .size = 4};
    stc_ctune_problem problem = {.system = {.cores = 2, .geometry = stc_geo,
                                            .protocol = STC_COH_MESI},
                                 .energy = &model, .refs = refs, .ref_count = 64};
    stc_config configs[2] = {big, small};
    stc_ctune_assignment out;
    CHECK(stc_ctune_evaluate(&problem, configs, &out, err, sizeof err) == 0, "%s", err);
    double want0 = (double)out.cycles.cycles * model.table.static_nj_per_cycle[2];
    double want1 = (double)out.cycles.cycles * model.table.static_nj_per_cycle[0];
    CHECK(out.cycles.cycles > 0 && fabs(out.per_core[0].static_nj - want0) < 1e-12 &&
              fabs(out.per_core[1].static_nj - want1) < 1e-12 &&
              fabs(out.total.total_with_static_nj -
                   (out.total.total_nj + want0 + want1)) < 1e-9,
          "tuner run: %llu cycles, static %g + %g (by hand %g + %g)",
          (unsigned long long)out.cycles.cycles, out.per_core[0].static_nj,
          out.per_core[1].static_nj, want0, want1);
    /* The same run's processor stall (ENERGY.md 3.9.2): the model's
     * table's price for every configuration, over the waited cycles,
     * apart from the other totals. */
    CHECK(stc_cstc_stall_per_cycle(&model) == model.table.stall_nj_per_cycle &&
              model.table.stall_nj_per_cycle == 0.25,
          "stc stall per cycle %g", stc_cstc_stall_per_cycle(&model));
    CHECK(out.cycles.waited_cycles > 0 &&
              out.total.stall_nj == (double)out.cycles.waited_cycles * 0.25 &&
              fabs(out.total.total_with_stall_nj -
                   (out.total.total_with_static_nj + out.total.stall_nj)) < 1e-9,
          "tuner run: waited %llu, stall %g", (unsigned long long)out.cycles.waited_cycles,
          out.total.stall_nj);
}

/* ------------------------------------------------------------ stall */

/* The processor's stall, priced (docs/ENERGY.md 3.9.2), by hand. */
static void stall_energy(void)
{
    char err[ERR_LEN] = "";
    double stall = 0.0;
    CHECK(stc_coh_stall_per_cycle_default(8192, 4, 32, 32, &stall, err, sizeof err) == 0 &&
              stall == 0.25,
          "stall per cycle %g (%s), the default table's 0.25", stall, err);
    CHECK(stc_coh_stall_per_cycle_default(6144, 3, 32, 32, &stall, err, sizeof err) != 0,
          "a 3-way cache is not priced");

    /* Two cores contending (contend, MESI). c0 stores A: 1 probe, BusRdX
     * 1..30, 1 controller cycle: 31, waited 30. c1 loads B: ready 1,
     * stalls 29 behind c0's tenure, its own 29, 1: 60, waited 59. Both
     * hit next: 1 cycle each, no wait. c1's 59 are the 29 cycles c0's
     * tenure kept it and the 30 its own miss takes, which the single
     * cache's `miss` entry prices as stall too (T + 8 + 2). */
    stc_coh_system *s = conventional(STC_COH_MESI, 2, 8192, 4, 32);
    run_conventional(s, contend, 4);
    const stc_coh_core_cycles *c0 = stc_coh_core_cycles_of(s, 0);
    const stc_coh_core_cycles *c1 = stc_coh_core_cycles_of(s, 1);
    CHECK(c0->waited_cycles == 30 && c1->waited_cycles == 59 &&
              c1->waited_cycles == c1->stall_cycles + (T_MEM + 32 / 4 + 2),
          "waited %llu and %llu, by hand 30 and 59 (29 + 30)",
          (unsigned long long)c0->waited_cycles, (unsigned long long)c1->waited_cycles);
    stc_coherence_energy terms;
    CHECK(stc_energy_coherence_default(8192, 4, 32, 32, &terms, err, sizeof err) == 0, "%s", err);
    stc_coh_energy energy;
    stc_coh_energy_of(&terms, stc_coh_core_counters(s, 1), &energy);
    double dynamic = energy.total_nj;
    CHECK(energy.stall_nj == 0.0 && energy.total_with_stall_nj == dynamic,
          "no stall until priced");
    stc_coh_energy_add_static(&energy, 61, 0.001);
    stc_coh_energy_add_stall(&energy, c1->waited_cycles, stall);
    CHECK(energy.stall_nj == 14.75 && energy.total_nj == dynamic &&
              fabs(energy.total_with_static_nj - (dynamic + 0.061)) < 1e-12 &&
              fabs(energy.total_with_stall_nj - (dynamic + 0.061 + 14.75)) < 1e-12,
          "c1: stall %g (59 x 0.25 = 14.75), total %g of %g, with static %g, with stall %g",
          energy.stall_nj, energy.total_nj, dynamic, energy.total_with_static_nj,
          energy.total_with_stall_nj);
    /* A sum keeps the new fields apart and adds them. */
    stc_coh_energy sum = {0};
    stc_coh_energy_add(&sum, &energy);
    stc_coh_energy_add(&sum, &energy);
    CHECK(sum.stall_nj == 29.5 && sum.total_with_stall_nj == 2 * energy.total_with_stall_nj,
          "sum: stall %g", sum.stall_nj);
    stc_coh_destroy(s);

    /* The same four references from one core: it never waits for
     * another's tenure, stall_cycles 0; its waited cycles are its own two
     * misses' (T + 8 + 2 each, no victim), the single cache's stall
     * inside `miss`: 60 of 4 + 60 cycles, where two cores waited 89. */
    s = conventional(STC_COH_MESI, 1, 8192, 4, 32);
    for (size_t i = 0; i < sizeof contend / sizeof contend[0]; i++) {
        ref mine = contend[i];
        mine.core = 0;
        run_conventional(s, &mine, 1);
    }
    c0 = stc_coh_core_cycles_of(s, 0);
    CHECK(c0->stall_cycles == 0 && c0->waited_cycles == 2 * 30 && c0->cycles == 4 + 2 * 30,
          "alone: stall %llu, waited %llu of %llu cycles, by hand 0, 60 of 64",
          (unsigned long long)c0->stall_cycles, (unsigned long long)c0->waited_cycles,
          (unsigned long long)c0->cycles);
    stc_coh_destroy(s);
}

int main(void)
{
    clock_rules();
    conventional_by_hand();
    stc_by_hand();
    stc_supply_by_hand();
    one_core_conventional_equals_cache();
    one_core_stc_equals_cache();
    stc_16b_equals_conventional();
    leakage();
    stall_energy();
    return check_done("test_coherent_cycles");
}
