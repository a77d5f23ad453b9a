/*
 * coherent_split.h - a coherent multi-core system on a SPLIT-TRANSACTION
 * snooping bus, driven by the split tables of coherence_protocol.h
 * (stc_coh_sp_table; docs/COHERENCE.md section 8.1 is the system, section
 * 10 this model; this header is the API's manual). The atomic-bus model is
 * coherent.h; this one keeps its geometry rules and checks.
 *
 * The system
 * ----------
 * N cores (1..STC_COH_MAX_CORES), each an in-order BLOCKING processor with
 * a private write-back, write-allocate, write-invalidate D-cache of the
 * same geometry: size_bytes, ways, line_bytes, set-associative, true LRU,
 * the victim the lowest-numbered invalid way else the least recently used
 * (as coherent.h). A line is a coherence block. One memory (all zero at
 * reset). Per COHERENCE.md 8.1:
 *   - a cache has at most ONE outstanding request (GetS, GetM, PutM, PutE) at a
 *     time, in its request queue until the bus ORDERS it (with a writeback
 *     buffer: one GetS/GetM, and the buffered puts beside it);
 *   - the ordering point: every other cache applies its Other-GetS/GetM/
 *     PutM row for the block (state I if it does not hold it), memory
 *     decides whether it answers, the requester applies its Own-X row;
 *   - data moves later, on one response channel per cache (at most one
 *     message) and as writebacks to memory (at most one in flight per
 *     block); a message is delivered at any time after it was sent;
 *   - memory keeps per block its bytes, whether a cache owns the block
 *     (which one: a put from another is stale and ignored), the count of
 *     writebacks it was promised and has not received, and per cache it
 *     owes data to the number of those writebacks that must come first;
 *   - an evicted owned block waits in MI^A / OI^A with its PutM queued (an
 *     E block in EI^A with a PutE: memory takes ownership back, no data),
 *     and goes to II^A if it answers a request before its put is ordered;
 *     it waits in its frame, or (config.wb_buffer > 0) in the cache's
 *     WRITEBACK BUFFER, snooped as the frames are (below).
 * The simulator looks rows up and does what they say; it has no
 * per-protocol code (MSI, MESI, MOESI, or a caller's edited table).
 *
 * References, eviction and stalls
 * -------------------------------
 * A reference covers [addr, addr + size), size 1..line_bytes; one that
 * straddles two blocks is two block accesses in ascending order. A core
 * takes its references in submission order, one at a time: the next
 * starts only when the previous one has performed (blocking). A block
 * access ATTEMPT looks up (state, Load|Store): a row that performs
 * completes the access (a hit); a row that issues puts the request in the
 * queue and the access completes when its Own-Data (or an Own-GetM that
 * performs, MOESI's OM^AD) row performs it. hits / misses count block
 * accesses by whether the block was readable (first letter of its state
 * not I) at the first attempt, as the atomic model's `hit` (a store to S
 * or O is a hit that issues a GetM: counted in `upgrades` too).
 *
 * MISS CLASSES are coherent.h's (both splits; the atomic models' book,
 * coherence_book.h, decides them), told in the COHERENCE ORDER (below):
 * a block access at its ordering point (a hit that performs at its
 * attempt; a miss or an upgrade when its GetS/GetM is ordered), a copy
 * invalidated when another core's GetM is ordered, a copy evicted when
 * its Evict row runs. Hit or miss is still the first attempt's; an
 * upgrade whose S/O copy another GetM invalidated before its own GetM
 * was ordered stays a hit (the data it then fetches is a fill, in no
 * class). COHERENCE.md 10.4 says which state holds a copy when.
 *
 * EVICTION vs the pending request: a miss whose victim frame holds a valid
 * block first runs the victim's Evict row. A silent one (S) frees the
 * frame at once. One that issues a PutM (M, O) or PutE (E) puts the block
 * in MI^A / OI^A / EI^A, and then (COHERENCE.md 10.1, 10.11):
 *   wb_buffer 0 (the default): the block stays in its frame and the miss
 *     WAITS (a stall, counted once per access): the put is the cache's
 *     one outstanding request, and only when it is ordered (Own-PutM: to
 *     I, a PutM's data on the way to memory, or a stale II^A to I) does
 *     the access attempt again and issue its own request for the freed
 *     frame. So a cache never has two requests, and the frame is never
 *     shared between the leaving block and the coming one.
 *   wb_buffer N > 0: the block, in that same state, moves with its bytes
 *     into the cache's writeback buffer (N entries, a FIFO: the bus
 *     orders a cache's buffered puts oldest first), the frame is free at
 *     once and the miss issues its GetS/GetM in the same attempt. A
 *     buffered put is not the cache's outstanding request (it gets no
 *     response, so the one response channel still suffices): the cache
 *     has at most one GetS/GetM and up to N puts queued. The buffer is
 *     snooped like a frame: a request ordered before the put applies the
 *     buffered block's Other-X row (MI^A, OI^A, EI^A answer as their rows
 *     say and go to OI^A or II^A, their put then stale as before). An
 *     eviction that needs a put while the buffer is full WAITS (a stall)
 *     until the oldest buffered put is ordered; an access to a block in
 *     the buffer WAITS (a stall) until its put is ordered, then misses
 *     (memory answers it after the writeback).
 * Either way the processor never loads or stores an MI^A, OI^A or EI^A
 * block (it is blocked on the access that evicted it, or waits).
 *
 * Scheduling
 * ----------
 * Every step runs one enabled EVENT: a core's attempt (it has a reference,
 * no outstanding request, its row is not STALL, and, with a writeback
 * buffer, its block is not in the buffer and its victim's put has room),
 * the bus ordering one issued request (a GetS/GetM, or a core's oldest
 * buffered put: one event per core each), a response delivered to a
 * cache, a writeback delivered to memory. The choice is made by the policy, from a SplitMix64 stream
 * seeded by config.seed kept in the system (no global state; same seed,
 * same run):
 *   STC_CS_RANDOM  a uniformly random enabled event; every message gets a
 *                  random delay of 0..max_delay steps before it may be
 *                  delivered (time jumps ahead when only delayed messages
 *                  remain);
 *   STC_CS_SERIAL  deliver any message, else order any buffered put, else
 *                  any request, else
 *                  attempt the oldest submitted reference of all cores: a
 *                  reference's requests are ordered and answered before
 *                  the next reference starts, so hits, misses, miss
 *                  classes, states, requests and memory follow the atomic model fed the
 *                  same references in submission order (section 10 says
 *                  exactly which counters agree).
 *
 * Data and checks (violations recorded, never aborted on)
 * ----------------
 * Lines, memory and messages hold real bytes. A store's bytes are byte
 * (i mod 8) of its 64-bit value, as coherent.h. Per block the COHERENCE
 * ORDER of stores is the order of their ordering points: a store that
 * issues a GetM is placed when that GetM is ordered (its value fixed then,
 * performed when its data arrives), a store hit (M, E, MI^A) when it
 * performs. The shadow holds, per byte, the last store in that order. A
 * load's ordering point is its GetS's ordering (a miss) or its performing
 * (a hit), and
 *   DATA: a load must return, byte for byte, the shadow as it was at its
 *         ordering point (the value of the last store to that byte
 *         ordered before it); and the data a GetS or GetM receives must
 *         be the whole block as the shadow held it at the request's
 *         ordering point (COHERENCE.md 8.4, "a miss receives the last
 *         store ordered before it");
 *   SWMR: after every event, on each block it touched, from permissions
 *         only (the first letter of each state): a writer (E, M) excludes
 *         every other readable copy (S, E, O, M), at most one O;
 *   IMPOSSIBLE: a row marked impossible reached;
 *   BUS: two responses for one cache, two writebacks of one block in
 *        flight, a writeback memory was not promised, a second miss owed
 *        to one cache, data sent by a cache that has no copy or no one to
 *        send it to;
 *   DEADLOCK: work remains (a reference, a request or a message) and no
 *        event is enabled, or no block access has completed for
 *        watchdog_steps steps. The system then stops: later submissions
 *        are dropped and stc_cs_drain returns at once.
 *
 * Energy (stc_cs_energy_of; docs/COHERENCE.md 10.9, docs/ENERGY.md 3.9)
 * ------
 * The atomic model's prices (stc_coherence_energy, from
 * stc_energy_coherence_default) and parts (stc_coh_energy), applied to
 * the split bus's events by who caused them: each block access one probe
 * (hits + misses, however often it attempted), each request issued (GetS,
 * GetM, PutM, PutE: a stale put too) one address phase, each other cache one
 * snoop lookup per ordered request (snoop_observations: the probe happens
 * at the ordering), each response the receiver's memory read or
 * cache-to-cache transfer, each block sent to memory (writebacks: an E
 * owner's answer to a GetS too, but not a PutE, which sends none) the
 * sender's memory write. No cycles: steps and latencies are not priced.
 *
 * Other caches on this bus: coherent_stc_split.h drives this model's
 * machinery with its own frames (the stc caches' slots and fill buffers)
 * through the internal hooks of coherent_split_layer.h; without them
 * (stc_cs_create) everything above holds as written.
 *
 * No global mutable state: everything lives in the stc_cs_system.
 */
#ifndef STC_COHERENT_SPLIT_H
#define STC_COHERENT_SPLIT_H

#include "coherence_energy.h"
#include "coherence_protocol.h"
#include "coherent.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { STC_CS_RANDOM, STC_CS_SERIAL, STC_CS_SCHEDULE_COUNT } stc_cs_schedule;

enum { STC_CS_MAX_WB_BUFFER = 8 };

/* Called when a reference has performed: tag is the submitter's, loaded
 * the first min(size, 8) bytes a load returned (little-endian; 0 for a
 * store). */
typedef void stc_cs_done_fn(void *context, unsigned core, uint64_t tag, uint64_t loaded);

typedef struct {
    unsigned cores;        /* 1 .. STC_COH_MAX_CORES */
    uint32_t size_bytes;   /* per cache, as coherent.h */
    uint32_t ways;
    uint32_t line_bytes;   /* power of two, 4 .. STC_COH_MAX_LINE */
    stc_coh_protocol protocol;
    /* NULL: stc_coh_sp_table_of(protocol). Else the caller's table (e.g.
     * stc_coh_sp_table_apply_break), copied; it must pass the self-check. */
    const stc_coh_sp_table *table;
    stc_cs_schedule schedule;
    uint64_t seed;
    uint32_t max_delay;       /* RANDOM: 0 .. this many steps per message; 0: 8 */
    uint32_t window;          /* references queued per core, 1..64; 0: 8 */
    uint64_t watchdog_steps;  /* 0: 1 000 000 */
    /* Writeback buffer entries per cache, 0..STC_CS_MAX_WB_BUFFER; 0 (the
     * default): none, an evicted owned block waits in its frame and its
     * miss waits for the put (header, "EVICTION vs the pending request") */
    uint32_t wb_buffer;
    stc_cs_done_fn *done;     /* may be NULL */
    void *done_context;
} stc_cs_config;

/* Per-core counters (stc_cs_counter_name lists them, field names). */
typedef struct {
    uint64_t references;   /* submitted loads + stores that performed */
    uint64_t loads;
    uint64_t stores;
    uint64_t hits;         /* block accesses whose block was readable at the first attempt */
    uint64_t misses;
    uint64_t gets;         /* requests issued */
    uint64_t getm;         /* every GetM, upgrades included */
    uint64_t upgrades;     /* GetM issued from a readable copy (SM^AD, OM^AD) */
    uint64_t putm;         /* puts issued (eviction of M, E, O): PutMs and PutEs */
    uint64_t pute;         /* of which PutEs, from E: ownership back to memory, no data
                              (a clean block the atomic bus drops silently) */
    uint64_t data_from_memory; /* responses this core received from memory */
    /* of data_from_memory, those memory decided to send (at this core's
     * request's ordering) while it owned the block because an owner-to-be
     * had promised it the data (promised_writebacks), not because of an
     * owner's writeback answer, a PutM, or the block never being cached:
     * the misses the promise moved from a cache to memory in MOESI */
    uint64_t data_from_memory_promised;
    uint64_t data_from_cache;  /* responses this core received from another cache */
    uint64_t writebacks;   /* this core's data sent to memory (PutM and promises) */
    /* Other-GetS rows in which this core, an owner-to-be still waiting for
     * its data (IM^D, SM^D, IE^D), promised memory the block (owe mem,
     * COHERENCE.md 8.7 decision 6): memory owns from then on; each promise
     * is one of its writebacks when the data comes */
    uint64_t promised_writebacks;
    uint64_t stale_putm;   /* this core's puts memory ignored (ordered in II^A) */
    uint64_t stalls;       /* block accesses that waited: for a PutM, or a stall row; with a
                              writeback buffer, for room in it or for their block's put */
    uint64_t snoop_observations; /* Other-X rows applied, each a tag probe (the snoop lookup
                                    energy prices): (cores - 1) per ordered request, PutMs too */
    uint64_t transactions; /* this core's requests completed */
    uint64_t latency_sum;  /* steps from issue to completion, summed over them */
    uint64_t latency_max;
    /* Miss classes, as coherent.h defines them (both splits; they sum to
     * misses, and the Dubois pair to the two sharing classes), decided at
     * each block access's ordering point (COHERENCE.md 10.4) */
    uint64_t miss_compulsory;
    uint64_t miss_true_sharing;
    uint64_t miss_false_sharing;
    uint64_t miss_capacity;
    uint64_t miss_conflict;
    uint64_t miss_true_dubois;
    uint64_t miss_false_dubois;
} stc_cs_counters;

enum { STC_CS_COUNTER_COUNT = 28 };
const char *stc_cs_counter_name(unsigned index);
uint64_t stc_cs_counter_value(const stc_cs_counters *counters, unsigned index);

/* The energy of counters (one core's, or stc_cs_total's) under terms, in
 * the atomic bus's parts (filter_nj 0: no snoop filter on this bus):
 *   access       = (hits + misses) x access
 *   snoop        = snoop_observations x snoop_lookup
 *   memory_read  = data_from_memory x memory_read
 *   c2c          = data_from_cache x c2c
 *   memory_write = writebacks x memory_write
 *   bus          = (gets + getm + putm) x bus_address (putm: PutEs too)
 * Linear in the counters, so the total's energy is the sum of the cores'. */
void stc_cs_energy_of(const stc_coherence_energy *terms, const stc_cs_counters *counters,
                      stc_coh_energy *energy);
/* The atomic counters those prices are applied to (every other field 0):
 * hits, misses; bus_rd = gets, bus_rdx = getm - upgrades, upgrades; bus_wb
 * = putm; snoop_lookups = snoop_observations; mem_reads, c2c_received,
 * mem_writebacks = the responses and writebacks. coherent_stc_split's
 * report prices its stc caches' energy through them (COHERENCE.md 12). */
void stc_cs_priced_as_atomic(const stc_cs_counters *counters, stc_coh_counters *as_atomic);

typedef enum {
    STC_CS_VIOL_DATA,
    STC_CS_VIOL_SWMR,
    STC_CS_VIOL_IMPOSSIBLE,
    STC_CS_VIOL_BUS,
    STC_CS_VIOL_DEADLOCK,
    STC_CS_VIOL_KIND_COUNT
} stc_cs_violation_kind;

typedef struct {
    stc_cs_violation_kind kind;
    unsigned core;       /* the core whose event it was */
    uint64_t step;       /* the scheduler step */
    uint64_t addr;       /* DATA: the first differing byte; others: the block's first byte */
    uint64_t expected;   /* DATA: up to 8 bytes from addr, little-endian */
    uint64_t got;
    char text[200];      /* one line, "data: step 41 core 1: load 0x40 ..." */
} stc_cs_violation;

typedef struct stc_cs_system stc_cs_system;

/* A system in its reset state; NULL with a message in err for a bad
 * configuration (geometry as coherent.h, a schedule out of range, window
 * above 64) or a table failing stc_coh_sp_table_check. */
stc_cs_system *stc_cs_create(const stc_cs_config *config, char *err, size_t err_len);
void stc_cs_destroy(stc_cs_system *system);

/* Queue a reference of core (load or store of size bytes at addr; store:
 * value). If core's queue is full the scheduler runs until it has room.
 * Returns 0, or -1 with stc_cs_error for a bad argument (nothing queued).
 * After a deadlock the reference is dropped (0 is still returned). */
int stc_cs_submit(stc_cs_system *system, unsigned core, stc_coh_op op, uint64_t addr,
                  uint32_t size, uint64_t value, uint64_t tag);

/* Run one event: 1 if one ran, 0 if there is no work or the system is
 * deadlocked (then recorded as a violation, once). */
int stc_cs_step(stc_cs_system *system);
/* Run until every submitted reference has performed and nothing is in
 * flight, or a deadlock. */
void stc_cs_drain(stc_cs_system *system);

/* Hand-driven runs (tests): run one chosen event, whatever the policy and
 * the message delays. ATTEMPT, ORDER, RESPONSE: of core; WRITEBACK: the
 * oldest writeback in flight (core ignored); ORDER_PUT: the bus orders
 * the oldest put in core's writeback buffer (ORDER orders its GetS/GetM,
 * or without a buffer its put). Returns 0, or -1 if that event is not
 * enabled (nothing changes). */
typedef enum {
    STC_CS_EV_ATTEMPT,
    STC_CS_EV_ORDER,
    STC_CS_EV_RESPONSE,
    STC_CS_EV_WRITEBACK,
    STC_CS_EV_ORDER_PUT
} stc_cs_event;
int stc_cs_run(stc_cs_system *system, stc_cs_event event, unsigned core);

const char *stc_cs_error(const stc_cs_system *system);
const stc_cs_counters *stc_cs_core_counters(const stc_cs_system *system, unsigned core);
void stc_cs_total(const stc_cs_system *system, stc_cs_counters *total);
uint64_t stc_cs_steps(const stc_cs_system *system);

uint64_t stc_cs_violation_count(const stc_cs_system *system);
uint64_t stc_cs_violation_kind_count(const stc_cs_system *system, stc_cs_violation_kind kind);
const stc_cs_violation *stc_cs_violation_at(const stc_cs_system *system, unsigned index);
const char *stc_cs_violation_kind_name(stc_cs_violation_kind kind); /* "data" "swmr" "impossible" "bus" "deadlock" */

/* Names and parsing of the schedules: "random", "serial". */
const char *stc_cs_schedule_name(stc_cs_schedule schedule);
int stc_cs_schedule_parse(const char *name, stc_cs_schedule *schedule, char *err, size_t err_len);

/* Inspection, for tests: the state of addr's block in core's cache, its
 * frames or its writeback buffer (I if absent); up to 8 bytes at addr (size 1..8, within one block) as memory
 * holds them and as the shadow (the last store in coherence order) does;
 * whether memory owns addr's block with no writeback pending. */
stc_coh_sp_state stc_cs_state_of(const stc_cs_system *system, unsigned core, uint64_t addr);
uint64_t stc_cs_memory_read(const stc_cs_system *system, uint64_t addr, uint32_t size);
uint64_t stc_cs_shadow_read(const stc_cs_system *system, uint64_t addr, uint32_t size);
bool stc_cs_memory_current(const stc_cs_system *system, uint64_t addr);

const stc_cs_config *stc_cs_config_of(const stc_cs_system *system);

#endif
