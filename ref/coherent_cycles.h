/*
 * coherent_cycles.h - the cycles of a coherent run on the ATOMIC bus
 * (docs/COHERENCE.md 9.10, and 11.9 for the configurable caches): a clock
 * per core, one bus, and what each bus transaction holds it for. Both
 * atomic models (coherent.c, coherent_stc.c) time their references with it;
 * this header is the rule book.
 *
 * The bus order stays the trace's order (the model is atomic: a reference
 * completes, with every transaction and snoop, before the next one starts),
 * so the clocks only time what the protocol already decided; no counter,
 * state or byte depends on them.
 *
 * Each core is in-order and blocking: its reference starts when its
 * previous one finished (its clock). A block access is three parts, in
 * this order:
 *   before  the cache's own cycles before it needs the bus (its probes);
 *   bus     its transactions, back to back in one tenure of the bus: the
 *           tenure starts when the core is ready (clock + before) or when
 *           the bus is free, whichever is later; the difference is a
 *           stall; the bus is then busy until the tenure ends;
 *   after   the cache's own cycles after the bus (the controller's last
 *           ones: taking the answer).
 * A block access with no transaction (a hit, a silent store) never waits.
 * Snoops do not delay the snooping core (its tags are looked up in the
 * transaction's address phase, on a port of their own).
 *
 * Transaction durations (why: docs/COHERENCE.md 9.10), T = the memory's
 * latency (geometry mem_latency), P/W = beats per physical line:
 *   address phase      1 cycle: the request, one per tenure's burst;
 *   data from memory   T + lines x P/W per run of lines memory answers
 *                      (one burst: the single-cache model's memory cost);
 *   data from a cache  1 + P/W per line: the supplier reads its line in
 *                      one cycle, then the line's beats on the same bus;
 *   BusWB              address phase + T + P/W (memory takes the line,
 *                      the single-cache model's writeback cost);
 *   BusUpgr            the address phase alone;
 *   a flush            free when its snooper also supplies (memory takes
 *                      the data on the bus as the requester does); one
 *                      that does not supply (only an edited table has
 *                      one) adds T + P/W.
 * T is the geometry's mem_latency unless a memory latency source is set
 * (stc_coh_bus_timing.latency): then each wait for memory (a run of lines
 * memory answers, a write to memory) takes the source's next latency, in
 * bus order: the RTL lockstep's memory of random latency
 * (ARCHITECTURE.md 19.6).
 */
#ifndef STC_COHERENT_CYCLES_H
#define STC_COHERENT_CYCLES_H

#include "coherence_protocol.h"
#include "geometry.h"

#include <stdbool.h>
#include <stdint.h>

enum {
    STC_COH_CLOCK_MAX_CORES = 8, /* = STC_COH_MAX_CORES (coherent.c checks it) */
    STC_COH_ADDRESS_CYCLES = 1,  /* a transaction's address and command phase */
    STC_COH_SUPPLY_READ_CYCLES = 1 /* a supplier reading its line from its array */
};

/* A memory whose latency varies: returns the latency (>= 2 cycles for a
 * read's run, >= 1 for a write, ARCHITECTURE.md 19.6) of the next wait
 * for memory; context is the caller's. */
typedef unsigned (*stc_coh_latency_fn)(void *context);

/* The numbers one system's bus is timed by. */
typedef struct {
    unsigned address_cycles;     /* STC_COH_ADDRESS_CYCLES */
    unsigned mem_latency;        /* T: memory cycles before a burst's first beat */
    unsigned beats_per_line;     /* P/W: one 4-byte beat per cycle per physical line */
    unsigned supply_read_cycles; /* STC_COH_SUPPLY_READ_CYCLES */
    stc_coh_latency_fn latency;  /* NULL: every wait is mem_latency */
    void *latency_context;
} stc_coh_bus_timing;

/* The timing of caches of line_bytes lines behind a memory of mem_latency
 * cycles. */
void stc_coh_bus_timing_init(stc_coh_bus_timing *timing, unsigned line_bytes,
                             unsigned mem_latency);

/* The memory latency of the conventional model's caches, which have no
 * geometry of their own: the default geometry's (geometry.h: 20 cycles),
 * so that a conventional cache and the stc cache of the same shape are
 * timed alike. */
unsigned stc_coh_default_mem_latency(void);

/* The cycles data of one line takes on the bus: from memory, the first
 * line of a burst (first_of_burst: T + P/W) or a later one (P/W); from a
 * cache (1 + P/W). */
uint64_t stc_coh_line_data_cycles(const stc_coh_bus_timing *timing, bool from_cache,
                                  bool first_of_burst);

/* One line's write to memory on the bus: T + P/W (no address phase). */
uint64_t stc_coh_write_data_cycles(const stc_coh_bus_timing *timing);

/* The cycles a cache of fixed memory latency counts for memory (cache.c):
 * writebacks x (T + P/W) + bursts x T + fills x P/W, T = mem_latency
 * whatever the latency source; what the bus's windows replace. */
uint64_t stc_coh_assumed_memory_cycles(const stc_coh_bus_timing *timing, uint64_t writebacks,
                                       uint64_t bursts, uint64_t fills);

/* The whole tenure of a lone transaction (the conventional model's: every
 * transaction one line and one burst): the address phase, its data
 * (BusRd/BusRdX: from the supplier if supplied, else memory; BusWB: to
 * memory; BusUpgr: none) and a flush that did not supply. */
uint64_t stc_coh_transaction_cycles(const stc_coh_bus_timing *timing, stc_coh_bus bus,
                                    bool supplied, bool flushed_without_supply);

/* One block access's parts (above). */
typedef struct {
    uint64_t before; /* own cycles before the bus */
    uint64_t bus;    /* cycles its transactions hold the bus (0: no transaction) */
    uint64_t after;  /* own cycles after the bus */
} stc_coh_access_cycles;

/* One core's time. cycles = the sum of its references' before, after,
 * bus and stall cycles (nothing else moves its clock). waited_cycles =
 * cycles less every before: the cycles the processor waits on the memory
 * system beyond its probes (stall, its own tenures, the controller's
 * cycles after them), the cycles docs/ENERGY.md 3.9.2 prices as
 * processor stall. A probe is not a wait: a hit takes it too, and way
 * prediction's second probe is priced with the access already. */
typedef struct {
    uint64_t cycles;        /* its clock: when its last reference finished */
    uint64_t stall_cycles;  /* ready for the bus but waiting for it to be free */
    uint64_t bus_cycles;    /* the bus held by its transactions */
    uint64_t waited_cycles; /* cycles less its probes (before): stall + bus + after */
} stc_coh_core_cycles;

/* The run's time. */
typedef struct {
    uint64_t cycles;          /* the run's: the latest core's clock */
    uint64_t stall_cycles;    /* summed over the cores */
    uint64_t waited_cycles;   /* summed over the cores */
    uint64_t bus_busy_cycles; /* cycles some transaction held the bus */
    double bus_utilisation;   /* bus_busy_cycles / cycles (0 for an empty run) */
} stc_coh_run_cycles;

typedef struct {
    stc_coh_bus_timing timing;
    unsigned cores;
    uint64_t bus_free_at; /* the end of the last tenure */
    uint64_t bus_busy_cycles;
    stc_coh_core_cycles core[STC_COH_CLOCK_MAX_CORES];
} stc_coh_clock;

/* Every clock at 0, the bus free. */
void stc_coh_clock_init(stc_coh_clock *clock, unsigned cores, const stc_coh_bus_timing *timing);

/* Core's block access happens now (in bus order): its clock moves by
 * before, the wait for the bus if it has a tenure, the tenure, and after. */
void stc_coh_clock_commit(stc_coh_clock *clock, unsigned core, const stc_coh_access_cycles *access);

/* Core spends cycles outside the memory system (its processor computes, or
 * does not offer its next reference yet): its clock moves, nothing else
 * does (not a stall, not waited). The RTL lockstep uses it for the cycles a
 * core's port sits idle between a response and its next request. */
void stc_coh_clock_idle(stc_coh_clock *clock, unsigned core, uint64_t cycles);

void stc_coh_clock_run(const stc_coh_clock *clock, stc_coh_run_cycles *run);

/* a - b, or 0 if b > a: the cache's own cycles left once the memory's
 * and the bus's share are taken out (never negative with the real
 * controller; an edited table can issue fewer transactions). */
static inline uint64_t stc_coh_cycles_less(uint64_t a, uint64_t b)
{
    return a > b ? a - b : 0;
}

#endif
