/*
 * lockstep.c - run the generated cache top (Verilator, tb/dut.h) and the C
 * reference model (ref/cache.h) side by side and stop at the first
 * difference (docs/ARCHITECTURE.md sections 3-10 and 15; tb/README.md).
 *
 * Built once per generated geometry (tb/lockstep.mk): the geometry comes
 * from the generator's C header stc_geometry_gen.h.
 *
 * Every operation (a CPU request, a reconfiguration, a counter clear) is
 * done by the model first, recording the memory transactions it makes, then
 * by the RTL, cycle by cycle, against a C memory model. Compared:
 *   - per request: the response (read data, error), hit or miss, the serving
 *     bank, the way-prediction outcome, the latency (fixed-latency memory),
 *     every memory transaction (direction, line, length, data, order), the
 *     valid and dirty bits of the rows of the logical line, all 20 counters;
 *   - per reconfiguration: the cycles until cfg_done, the error flag, the
 *     new configuration, the walk's writebacks, every valid and dirty bit,
 *     all counters;
 *   - read data against a flat shadow memory of everything the CPU wrote,
 *     and at checkpoints (the cache emptied through its ports) both memory
 *     images against the shadow: no write lost, no stale read.
 */
#include "cache.h"
#include "config.h"
#include "dut.h"
#include "geometry.h"
#include "stc_geometry_gen.h"
#include "trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
    PAGE_BITS = 12,
    PAGE_BYTES = 1 << PAGE_BITS,
    LINE_BYTES = STC_GEN_LINE_BYTES,
    BEATS = STC_GEN_BEATS_PER_LINE,
    BANKS = STC_GEN_BANKS,
    ROWS = STC_GEN_ROWS,
    MAX_BURST_WORDS = STC_MAX_SUBLINES * STC_GEN_BEATS_PER_LINE,
    HISTORY = 16,
    TIMEOUT_CYCLES = 200000,
    NCOUNTERS = DUT_COUNTERS
};

/* LOCKSTEP_ICACHE=1: the top built with READ_ONLY = 1 (an I-cache) and the
 * model as an I-cache: stores must be answered with cpu_rsp_err_o in one
 * cycle and change nothing (section 15). */
#ifndef LOCKSTEP_ICACHE
#define LOCKSTEP_ICACHE 0
#endif

/* LOCKSTEP_FIXED=1: the top generated with stcgen --fixed CONFIG (the
 * non-configurable baseline, ARCHITECTURE.md 14.1): it starts in
 * STC_GEN_RESET_CONFIG and must refuse every configuration request in the
 * accepting cycle; the model stays in that configuration. */
#ifndef LOCKSTEP_FIXED
#define LOCKSTEP_FIXED 0
#endif

/* LOCKSTEP_SIM_SRAM=1: the SRAMs are Verilated with their own simulation
 * model (no SYNTHESIS), which loses a bank's contents by itself: the
 * harness does not scramble them. */
#ifndef LOCKSTEP_SIM_SRAM
#define LOCKSTEP_SIM_SRAM 0
#endif

#if STC_GEN_ADDR_BITS > 36
#error "the lockstep harness keeps a page table of the whole address space: addr_bits <= 36"
#endif

static const char *const counter_names[NCOUNTERS] = {
    "requests",        "request_misses",    "accesses",        "reads",
    "writes",          "misses",            "read_misses",     "write_misses",
    "first_probe_hits", "second_probe_hits", "fills",           "fill_bursts",
    "writebacks",      "cycles",            "reconfigs",       "reconfig_cycles",
    "walk_rows",       "banks_woken",       "walk_writebacks", "walk_invalidations"};

/* ------------------------------------------------------------------ options */

typedef struct {
    uint64_t seed;
    uint64_t requests;
    unsigned reconfig_every; /* mean requests between reconfigurations, 0 = never */
    unsigned checkpoint_every;
    unsigned clear_every;
    unsigned locality; /* percent of requests near the previous one */
    unsigned hot_lines;
    unsigned writes;   /* percent stores */
    unsigned latency;  /* T_mem of the fixed-latency memory */
    unsigned ack_delay;
    unsigned model_latency; /* test aids: the model's T_mem and T_wake, */
    unsigned model_wake;    /* UINT32_MAX = follow the memory and switches */
    bool random_memory;
    const char *trace;
    const char *wave;
    const char *start_config;
    bool directed;
    bool expect_mismatch;
    bool quiet;
    bool bench;
} options;

/* ------------------------------------------------------------------ random */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned rng_below(unsigned n)
{
    return n ? (unsigned)(rng_next() % n) : 0;
}

static bool rng_percent(unsigned percent)
{
    return rng_below(100) < percent;
}

/* The memory's initial contents: a hash of the word address. */
static uint32_t pattern_word(uint64_t word)
{
    uint64_t z = word * 0x9e3779b97f4a7c15ull + 0x5a5a5a5a;
    z = (z ^ (z >> 29)) * 0xbf58476d1ce4e5b9ull;
    return (uint32_t)(z ^ (z >> 32));
}

/* ------------------------------------------------------------------ sparse memory */

/* A flat memory of 2^A bytes, pages made on first write, unmade pages read
 * as the pattern. Three of them: the model's, the RTL's and the shadow
 * (what the CPU wrote, applied directly). */
typedef struct {
    const char *name;
    uint8_t **pages;
    uint64_t page_count;
} memory_image;

static void image_init(memory_image *image, const char *name)
{
    image->name = name;
    image->page_count = ((uint64_t)1 << STC_GEN_ADDR_BITS) >> PAGE_BITS;
    if (image->page_count == 0) {
        image->page_count = 1;
    }
    image->pages = calloc(image->page_count, sizeof *image->pages);
    if (!image->pages) {
        fprintf(stderr, "lockstep: out of memory\n");
        exit(2);
    }
}

static uint8_t pattern_byte(uint64_t addr)
{
    return (uint8_t)(pattern_word(addr >> 2) >> (8 * (addr & 3)));
}

static uint8_t *image_page(memory_image *image, uint64_t addr)
{
    uint64_t page = (addr & STC_GEN_ADDR_MASK) >> PAGE_BITS;
    if (!image->pages[page]) {
        uint8_t *data = malloc(PAGE_BYTES);
        if (!data) {
            fprintf(stderr, "lockstep: out of memory\n");
            exit(2);
        }
        for (unsigned byte = 0; byte < PAGE_BYTES; byte++) {
            data[byte] = pattern_byte((page << PAGE_BITS) + byte);
        }
        image->pages[page] = data;
    }
    return image->pages[page];
}

static uint8_t image_read8(const memory_image *image, uint64_t addr)
{
    addr &= STC_GEN_ADDR_MASK;
    const uint8_t *page = image->pages[addr >> PAGE_BITS];
    return page ? page[addr & (PAGE_BYTES - 1)] : pattern_byte(addr);
}

static uint32_t image_read32(const memory_image *image, uint64_t addr)
{
    uint32_t word = 0;
    for (unsigned byte = 0; byte < 4; byte++) {
        word |= (uint32_t)image_read8(image, addr + byte) << (8 * byte);
    }
    return word;
}

static void image_write8(memory_image *image, uint64_t addr, uint8_t value)
{
    image_page(image, addr)[addr & (PAGE_BYTES - 1)] = value;
}

static void image_write32(memory_image *image, uint64_t addr, uint32_t value, unsigned be)
{
    for (unsigned byte = 0; byte < 4; byte++) {
        if (be >> byte & 1) {
            image_write8(image, addr + byte, (uint8_t)(value >> (8 * byte)));
        }
    }
}

/* ------------------------------------------------------------------ transactions */

typedef struct {
    bool we;
    uint64_t line;  /* physical line address (byte address >> offset bits) */
    unsigned lines; /* physical lines in the burst */
    unsigned words; /* words transferred so far */
    uint32_t data[MAX_BURST_WORDS];
} transaction;

typedef struct {
    transaction *items;
    size_t count, cap;
} txn_log;

static transaction *log_push(txn_log *log)
{
    if (log->count == log->cap) {
        size_t cap = log->cap ? 2 * log->cap : 64;
        transaction *items = realloc(log->items, cap * sizeof *items);
        if (!items) {
            fprintf(stderr, "lockstep: out of memory\n");
            exit(2);
        }
        log->items = items;
        log->cap = cap;
    }
    transaction *t = &log->items[log->count++];
    memset(t, 0, sizeof *t);
    return t;
}

/* ------------------------------------------------------------------ state */

/* One operation and its outcome in the model, kept for the report (made
 * into text only when a mismatch is reported). */
typedef enum { OP_NONE, OP_LOAD, OP_STORE, OP_RECONFIG, OP_ILLEGAL, OP_CLEAR } op_kind;
typedef struct {
    op_kind kind;
    bool done;
    uint64_t start;  /* the cycle the operation was first offered */
    uint64_t addr;
    unsigned be;
    uint32_t wdata;
    stc_config from, to;
    unsigned fields[4];
    /* outcome */
    bool hit;
    unsigned bank;
    uint64_t cycles;
    unsigned writebacks;
} op_record;

typedef struct {
    /* configuration coverage */
    uint64_t requests_in[STC_MAX_CONFIGS];
    uint64_t transitions[STC_MAX_CONFIGS][STC_MAX_CONFIGS];
    /* spec cases */
    uint64_t hits, misses, misses_by_n[5], partial_lines, split_bursts, dirty_victims;
    uint64_t first_probe, second_probe, wp_misses;
    uint64_t stores, partial_stores, empty_stores;
    uint64_t walks, walk_writebacks, walk_invalidations, wakes, zero_cost, same, illegal;
    uint64_t clears, checkpoints, power_offs, trace_refs, rejected;
    uint64_t directed_cases, overlapped;
} coverage;

typedef struct {
    options opt;
    stc_geometry geometry;
    stc_config configs[STC_MAX_CONFIGS];
    size_t config_count;
    stc_cache *model;
    memory_image model_mem, rtl_mem, shadow;
    txn_log model_log, rtl_log;
    dut *rtl;
    dut_pins pins;
    uint64_t cycle;

    /* the RTL memory model */
    enum { M_IDLE, M_RWAIT, M_RBEATS, M_WBEATS, M_WWAIT } mstate;
    unsigned mcount, mbeats;
    uint64_t maddr;
    bool m_ready, m_rvalid, m_wready, m_bvalid;
    transaction *mtxn;

    /* power switches */
    uint32_t pwr_en_prev, ack;
    uint32_t ack_pending_mask, ack_pending_value;
    uint64_t ack_time[32];
    uint64_t last_cfg_done;
    unsigned max_ack_delay;

    /* bookkeeping */
    uint64_t ops, requests, reconfigs;
    uint64_t model_requests_base, model_misses_base; /* see expected_counters */
    stc_counters counters_at_clear;
    op_record history[HISTORY];
    unsigned history_next;
    op_record cur;
    coverage cov;
    uint32_t stamp;
    uint64_t rtl_counts[NCOUNTERS]; /* the RTL's counters when last read */
    bool counts_fresh;              /* read in this cycle: no need to read again */
    bool strobes;              /* the top has the tuner's event strobes */
    uint64_t strobe_counts[4]; /* strobes seen since the last counter clear */
    int config_at; /* index of the model's configuration in configs */
    /* A CPU request offered together with a configuration (section 15.2:
     * the configuration goes first; the request waits, then is served). */
    struct {
        bool on, we;
        uint64_t addr;
        unsigned be;
        uint32_t wdata;
    } pending;
    uint64_t scramble_seed;
    unsigned failures;
} harness;

static harness H;

/* ------------------------------------------------------------------ reporting */

static void config_name(const stc_config *config, char *buf, size_t len)
{
    stc_config_name(&H.geometry, config, buf, len);
}

static int config_index(const stc_config *config)
{
    for (size_t index = 0; index < H.config_count; index++) {
        if (stc_config_equal(&H.configs[index], config)) {
            return (int)index;
        }
    }
    return -1;
}

static void format_op(const op_record *op, char *buf, size_t len)
{
    char from[STC_CONFIG_NAME_MAX], to[STC_CONFIG_NAME_MAX];
    size_t used = 0;
    switch (op->kind) {
    case OP_LOAD:
        used = (size_t)snprintf(buf, len, "load  0x%08" PRIx64, op->addr);
        break;
    case OP_STORE:
        used = (size_t)snprintf(buf, len, "store 0x%08" PRIx64 " be=%x data=0x%08x", op->addr,
                                op->be, op->wdata);
        break;
    case OP_RECONFIG:
        config_name(&op->from, from, sizeof from);
        config_name(&op->to, to, sizeof to);
        used = (size_t)snprintf(buf, len, "reconfigure %s -> %s", from, to);
        break;
    case OP_ILLEGAL:
        config_name(&op->from, from, sizeof from);
        used = (size_t)snprintf(buf, len,
                                "reconfigure %s -> illegal (klog %u alog %u llog %u wp %u)", from,
                                op->fields[0], op->fields[1], op->fields[2], op->fields[3]);
        break;
    case OP_CLEAR:
        used = (size_t)snprintf(buf, len, "clear the counters");
        break;
    default:
        used = (size_t)snprintf(buf, len, "(none)");
        break;
    }
    if (!op->done || used >= len) {
        return;
    }
    if (op->kind == OP_LOAD || op->kind == OP_STORE) {
        snprintf(buf + used, len - used, " -> %s bank %u, %" PRIu64 " cycles",
                 op->hit ? "hit" : "miss", op->bank, op->cycles);
    } else if (op->kind == OP_RECONFIG) {
        snprintf(buf + used, len - used, " -> %" PRIu64 " cycles, %u walk writebacks", op->cycles,
                 op->writebacks);
    } else if (op->kind == OP_ILLEGAL) {
        snprintf(buf + used, len - used, " -> refused (cfg_err_o)");
    }
}

static void commit_history(void)
{
    H.cur.done = true;
    H.history[H.history_next++ % HISTORY] = H.cur;
}

static void print_counters(FILE *out, const uint64_t *expected, const uint64_t *got)
{
    fprintf(out, "  counters (model / RTL):\n");
    for (unsigned index = 0; index < NCOUNTERS; index++) {
        fprintf(out, "    %2u %-19s %12" PRIu64 " %12" PRIu64 "%s\n", index, counter_names[index],
                expected[index], got[index], expected[index] != got[index] ? "   <--" : "");
    }
}

static void expected_counters(uint64_t out[NCOUNTERS]);

/* The first difference: report and stop (exit 1), or with
 * --expect-mismatch report and exit 0. */
static void mismatch(const char *who, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void mismatch(const char *who, const char *format, ...)
{
    char what[600];
    va_list args;
    va_start(args, format);
    vsnprintf(what, sizeof what, format, args);
    va_end(args);
    char model_cfg[STC_CONFIG_NAME_MAX];
    config_name(stc_cache_config(H.model), model_cfg, sizeof model_cfg);
    FILE *out = stdout;
    fprintf(out, "MISMATCH (%s) at cycle %" PRIu64 ", operation %" PRIu64 " (request %" PRIu64
                 "), seed %" PRIu64 ":\n  %s\n",
            who, H.cycle, H.ops, H.requests, H.opt.seed, what);
    char text[256];
    format_op(&H.cur, text, sizeof text);
    fprintf(out, "  operation (offered in cycle %" PRIu64 "): %s\n", H.cur.start, text);
    fprintf(out, "  configuration: model %s, RTL k=%u a=%u L=%u wp=%u (log2 fields %u %u %u)\n",
            model_cfg, 1u << H.pins.cur_banks_log, 1u << H.pins.cur_ways_log,
            1u << H.pins.cur_sub_log, H.pins.cur_wp, H.pins.cur_banks_log, H.pins.cur_ways_log,
            H.pins.cur_sub_log);
    fprintf(out, "  geometry %s, memory %s, T_mem %u, ack delay %u\n", STC_GEN_NAME,
            H.opt.random_memory ? "random latency/back-pressure" : "fixed latency", H.opt.latency,
            H.opt.ack_delay);
    fprintf(out, "  recent history (oldest first):\n");
    for (unsigned index = 0; index < HISTORY; index++) {
        const op_record *entry = &H.history[(H.history_next + index) % HISTORY];
        if (entry->kind != OP_NONE) {
            format_op(entry, text, sizeof text);
            fprintf(out, "    %s\n", text);
        }
    }
    uint64_t expected[NCOUNTERS], got[NCOUNTERS];
    expected_counters(expected);
    dut_counters(H.rtl, got);
    print_counters(out, expected, got);
    if (H.opt.wave) {
        fprintf(out, "  waveform: %s (cycle %" PRIu64 " is at time %" PRIu64 ")\n", H.opt.wave,
                H.cycle, 2 * H.cycle);
    }
    dut_flush(H.rtl);
    fflush(out);
    if (H.opt.expect_mismatch) {
        printf("lockstep: mismatch caught as expected\n");
        dut_close(H.rtl);
        exit(0);
    }
    dut_close(H.rtl);
    exit(1);
}

/* ------------------------------------------------------------------ model side */

static void model_read_burst(void *context, uint64_t addr, uint8_t *data, unsigned bytes)
{
    (void)context;
    transaction *t = log_push(&H.model_log);
    t->we = false;
    t->line = addr >> STC_GEN_OFFSET_BITS;
    t->lines = bytes / LINE_BYTES;
    for (unsigned byte = 0; byte < bytes; byte++) {
        data[byte] = image_read8(&H.model_mem, addr + byte);
    }
    for (unsigned word = 0; word < bytes / 4 && word < MAX_BURST_WORDS; word++) {
        t->data[word] = image_read32(&H.model_mem, addr + 4 * word);
    }
    t->words = bytes / 4;
}

static void model_write_burst(void *context, uint64_t addr, const uint8_t *data, unsigned bytes)
{
    (void)context;
    transaction *t = log_push(&H.model_log);
    t->we = true;
    t->line = addr >> STC_GEN_OFFSET_BITS;
    t->lines = bytes / LINE_BYTES;
    for (unsigned byte = 0; byte < bytes; byte++) {
        image_write8(&H.model_mem, addr + byte, data[byte]);
    }
    for (unsigned word = 0; word < bytes / 4 && word < MAX_BURST_WORDS; word++) {
        t->data[word] = image_read32(&H.model_mem, addr + 4 * word);
    }
    t->words = bytes / 4;
}

/* The model's counters in the RTL's numbering. The model counts CPU
 * requests only in stc_cache_request, which has no byte enables; the
 * harness uses stc_cache_access (one access per one-word request, section
 * 9: on the RTL's port requests = accesses), so requests and
 * request_misses are the accesses and misses since the last clear. */
static void expected_counters(uint64_t out[NCOUNTERS])
{
    const stc_counters *c = stc_cache_counters(H.model);
    uint64_t values[NCOUNTERS] = {
        c->accesses,         c->misses,           c->accesses,    c->reads,
        c->writes,           c->misses,           c->read_misses, c->write_misses,
        c->first_probe_hits, c->second_probe_hits, c->fills,       c->fill_bursts,
        c->writebacks,       c->cycles,           c->reconfigs,   c->reconfig_cycles,
        c->walk_rows,        c->banks_woken,      c->walk_writebacks, c->walk_invalidations};
    for (unsigned index = 0; index < NCOUNTERS; index++) {
        out[index] = stc_counter_saturate(values[index], STC_GEN_COUNTER_BITS);
    }
}

/* ------------------------------------------------------------------ RTL side: one cycle */

static unsigned random_latency(void)
{
    /* mostly short, sometimes long */
    return rng_percent(80) ? rng_below(H.opt.latency + 1) : H.opt.latency + rng_below(4 * H.opt.latency + 8);
}

static void memory_outputs(void)
{
    bool random = H.opt.random_memory;
    H.m_ready = H.mstate == M_IDLE && (!random || rng_percent(70));
    H.m_rvalid = H.mstate == M_RBEATS && (!random || rng_percent(75));
    H.m_wready = H.mstate == M_WBEATS && (!random || rng_percent(75));
    H.m_bvalid = H.mstate == M_WWAIT && H.mcount == 0;
    H.pins.mem_req_ready = H.m_ready;
    H.pins.mem_rvalid = H.m_rvalid;
    H.pins.mem_rdata = H.m_rvalid ? image_read32(&H.rtl_mem, H.maddr) : 0x0badf00du;
    H.pins.mem_wready = H.m_wready;
    H.pins.mem_bvalid = H.m_bvalid;
}

static void memory_edge(void)
{
    const dut_pins *p = &H.pins;
    if (p->mem_wvalid && H.mstate != M_WBEATS) {
        mismatch("RTL", "mem_wvalid_o is 1 outside a write burst (memory state %d)", (int)H.mstate);
    }
    switch (H.mstate) {
    case M_IDLE:
        if (p->mem_req_valid && H.m_ready) {
            transaction *t = log_push(&H.rtl_log);
            t->we = p->mem_req_we;
            t->line = p->mem_req_line;
            t->lines = p->mem_req_lines;
            if (t->lines < 1 || t->lines > STC_MAX_SUBLINES || (t->we && t->lines != 1)) {
                mismatch("RTL", "memory request of %u lines (%s)", t->lines,
                         t->we ? "write" : "read");
            }
            H.mtxn = t;
            H.maddr = (t->line << STC_GEN_OFFSET_BITS) & STC_GEN_ADDR_MASK;
            H.mbeats = t->lines * BEATS;
            if (t->we) {
                H.mstate = M_WBEATS;
            } else {
                H.mstate = M_RWAIT;
                H.mcount = H.opt.random_memory ? random_latency() : H.opt.latency - 1;
                if (H.opt.latency == 0 && !H.opt.random_memory) {
                    H.mcount = 0;
                }
            }
        }
        break;
    case M_RWAIT:
        if (H.mcount == 0) {
            H.mstate = M_RBEATS;
        } else {
            H.mcount--;
        }
        break;
    case M_RBEATS:
        if (H.m_rvalid) {
            transaction *t = H.mtxn;
            t->data[t->words++] = p->mem_rdata;
            H.maddr += 4;
            if (--H.mbeats == 0) {
                H.mstate = M_IDLE;
            }
        }
        break;
    case M_WBEATS:
        if (H.m_wready && p->mem_wvalid) {
            transaction *t = H.mtxn;
            t->data[t->words++] = p->mem_wdata;
            image_write32(&H.rtl_mem, H.maddr, p->mem_wdata, 0xf);
            H.maddr += 4;
            if (--H.mbeats == 0) {
                H.mstate = M_WWAIT;
                H.mcount = H.opt.random_memory ? random_latency() : H.opt.latency - 1;
                if (H.opt.latency == 0 && !H.opt.random_memory) {
                    H.mcount = 0;
                }
            }
        }
        break;
    case M_WWAIT:
        if (H.mcount == 0) {
            H.mstate = M_IDLE;
        } else {
            H.mcount--;
        }
        break;
    }
}

/* One clock cycle of the RTL with the inputs in H.pins (CPU and
 * configuration fields set by the caller). */
static void rtl_cycle_settle(void)
{
    memory_outputs();
    /* Power switch acknowledges: each bank's follows its enable after the
     * delay chosen when the enable changed. */
    for (unsigned bank = 0; bank < BANKS; bank++) {
        if ((H.ack_pending_mask >> bank & 1) && H.cycle >= H.ack_time[bank]) {
            H.ack = (H.ack & ~(1u << bank)) | (H.ack_pending_value & (1u << bank));
            H.ack_pending_mask &= ~(1u << bank);
        }
    }
    H.pins.pwr_ack = H.ack;
    dut_settle(H.rtl, &H.pins);
    if (H.strobes && H.pins.rst_n) {
        int bits = dut_strobes(H.rtl);
        for (unsigned index = 0; index < 4; index++) {
            H.strobe_counts[index] += (unsigned)bits >> index & 1u;
        }
    }
    uint32_t off_access = dut_sram_access(H.rtl) & ~H.pins.pwr_en;
    if (off_access && H.pins.rst_n) {
        mismatch("RTL", "SRAM of powered-off bank(s) 0x%x accessed (switch enables 0x%x)",
                 off_access, H.pins.pwr_en);
    }
}

static void rtl_cycle_edge(void)
{
    memory_edge();
    dut_edge(H.rtl, &H.pins);
    H.cycle++;
    uint32_t en = H.pins.pwr_en;
    uint32_t changed = en ^ H.pwr_en_prev;
    for (unsigned bank = 0; changed && bank < BANKS; bank++) {
        if (!(changed >> bank & 1)) {
            continue;
        }
        unsigned delay = H.opt.random_memory ? rng_below(H.max_ack_delay + 1) : H.opt.ack_delay;
        H.ack_pending_mask |= 1u << bank;
        H.ack_pending_value = (H.ack_pending_value & ~(1u << bank)) | (en & (1u << bank));
        H.ack_time[bank] = H.cycle + delay;
        if (!(en >> bank & 1)) {
            /* The switch turned off: the bank's contents are lost. */
            if (!LOCKSTEP_SIM_SRAM) {
                dut_scramble_bank(H.rtl, bank, H.scramble_seed++);
            }
            H.cov.power_offs++;
        }
    }
    H.pwr_en_prev = en;
}

/* ------------------------------------------------------------------ comparisons */

static void compare_transactions(const char *when)
{
    size_t n = H.model_log.count > H.rtl_log.count ? H.model_log.count : H.rtl_log.count;
    for (size_t index = 0; index < n; index++) {
        if (index >= H.model_log.count || index >= H.rtl_log.count) {
            const transaction *t =
                index >= H.model_log.count ? &H.rtl_log.items[index] : &H.model_log.items[index];
            mismatch("RTL", "%s: memory transaction %zu: model made %zu, RTL %zu; the extra one: %s "
                            "line 0x%" PRIx64 " (byte 0x%" PRIx64 "), %u lines",
                     when, index, H.model_log.count, H.rtl_log.count, t->we ? "write" : "read",
                     t->line, t->line << STC_GEN_OFFSET_BITS, t->lines);
        }
        const transaction *m = &H.model_log.items[index];
        const transaction *r = &H.rtl_log.items[index];
        if (m->we != r->we || m->line != r->line || m->lines != r->lines) {
            mismatch("RTL", "%s: memory transaction %zu: model %s line 0x%" PRIx64 " x%u, RTL %s line 0x%" PRIx64 " x%u",
                     when, index, m->we ? "write" : "read", m->line, m->lines,
                     r->we ? "write" : "read", r->line, r->lines);
        }
        if (r->words != m->words) {
            mismatch("RTL", "%s: memory transaction %zu: %u beats, model %u", when, index, r->words,
                     m->words);
        }
        for (unsigned word = 0; word < m->words; word++) {
            if (m->data[word] != r->data[word]) {
                mismatch(m->we ? "RTL" : "memory images",
                         "%s: memory %s transaction %zu (line 0x%" PRIx64 "), beat %u: model 0x%08x, RTL 0x%08x",
                         when, m->we ? "write" : "read", index, m->line, word, m->data[word],
                         r->data[word]);
            }
        }
    }
    H.model_log.count = 0;
    H.rtl_log.count = 0;
}

static void compare_counters(const char *when)
{
    uint64_t expected[NCOUNTERS];
    const uint64_t *got = H.rtl_counts;
    expected_counters(expected);
    if (!H.counts_fresh) {
        dut_counters(H.rtl, H.rtl_counts);
    }
    H.counts_fresh = false;
    for (unsigned index = 0; index < NCOUNTERS; index++) {
        if (H.opt.random_memory && (index == 13 || index == 15)) {
            continue; /* cycles depend on the memory's timing */
        }
        if (expected[index] != got[index]) {
            mismatch("RTL", "%s: counter %s: model %" PRIu64 ", RTL %" PRIu64, when,
                     counter_names[index], expected[index], got[index]);
        }
    }
    /* The tuner's event strobes count exactly what the counters count. */
    static const unsigned strobe_counter[4] = {2, 5, 8, 13};
    static const char *const strobe_names[4] = {"ev_access", "ev_miss", "ev_fph", "ev_cycle"};
    for (unsigned index = 0; H.strobes && index < 4; index++) {
        uint64_t seen = stc_counter_saturate(H.strobe_counts[index], STC_GEN_COUNTER_BITS);
        if (seen != got[strobe_counter[index]]) {
            mismatch("RTL", "%s: strobe %s seen %" PRIu64 " times, counter %s %" PRIu64, when,
                     strobe_names[index], H.strobe_counts[index],
                     counter_names[strobe_counter[index]], got[strobe_counter[index]]);
        }
    }
}

/* Valid and dirty bits of every bank in rows first..first+count-1, and the
 * tag and line of the valid slots of the banks in `slots` (bit b = bank b):
 * after a request, the bank that served it (the only one whose SRAM
 * contents a request changes); after a reconfiguration, all. */
static void compare_rows(unsigned first, unsigned count, uint32_t slots, const char *when)
{
    for (unsigned row = first; row < first + count; row++) {
        uint32_t valid = 0, dirty = 0, rtl_valid, rtl_dirty;
        for (unsigned bank = 0; bank < BANKS; bank++) {
            stc_slot slot;
            stc_cache_slot(H.model, bank, row, &slot);
            valid |= (uint32_t)slot.valid << bank;
            dirty |= (uint32_t)(slot.valid && slot.dirty) << bank;
        }
        dut_row_state(H.rtl, row, &rtl_valid, &rtl_dirty);
        if (valid != rtl_valid || dirty != rtl_dirty) {
            mismatch("RTL", "%s: row %u: valid bits (bank b = bit b) model 0x%x, RTL 0x%x; dirty model 0x%x, RTL 0x%x",
                     when, row, valid, rtl_valid, dirty, rtl_dirty);
        }
        /* Every valid slot: the tag and the line in the SRAMs. */
        for (unsigned bank = 0; bank < BANKS; bank++) {
            if (!((valid & slots) >> bank & 1)) {
                continue;
            }
            stc_slot slot;
            stc_cache_slot(H.model, bank, row, &slot);
            uint64_t tag;
            uint8_t line[LINE_BYTES];
            if (dut_slot(H.rtl, bank, row, &tag, line, LINE_BYTES) != 0) {
                fprintf(stderr, "lockstep: the SRAM arrays have an unexpected shape\n");
                exit(2);
            }
            if (tag != slot.tag) {
                mismatch("RTL", "%s: bank %u row %u: tag SRAM 0x%" PRIx64 ", model 0x%" PRIx64
                                " (line 0x%08" PRIx64 ")",
                         when, bank, row, tag, slot.tag, slot.line_addr);
            }
            for (unsigned byte = 0; byte < LINE_BYTES; byte++) {
                if (line[byte] != slot.data[byte]) {
                    mismatch("RTL", "%s: bank %u row %u (line 0x%08" PRIx64 "), byte %u: data SRAM 0x%02x, model 0x%02x",
                             when, bank, row, slot.line_addr, byte, line[byte], slot.data[byte]);
                }
            }
        }
    }
}

static void compare_config(const char *when)
{
    const stc_config *c = stc_cache_config(H.model);
    if ((1u << H.pins.cur_banks_log) != c->banks_on || (1u << H.pins.cur_ways_log) != c->ways ||
        (1u << H.pins.cur_sub_log) != c->sublines || H.pins.cur_wp != (unsigned)c->way_predict) {
        char name[STC_CONFIG_NAME_MAX];
        config_name(c, name, sizeof name);
        mismatch("RTL", "%s: configuration outputs k=%u a=%u L=%u wp=%u, model %s", when,
                 1u << H.pins.cur_banks_log, 1u << H.pins.cur_ways_log, 1u << H.pins.cur_sub_log,
                 H.pins.cur_wp, name);
    }
}

/* ------------------------------------------------------------------ operations */

static void idle_cycles(unsigned count)
{
    H.pins.cpu_req_valid = 0;
    H.pins.cfg_valid = 0;
    for (unsigned index = 0; index < count; index++) {
        rtl_cycle_settle();
        if (H.pins.cpu_rsp_valid || H.pins.cfg_done) {
            mismatch("RTL", "a response (cpu_rsp_valid_o %u, cfg_done_o %u) with nothing asked",
                     H.pins.cpu_rsp_valid, H.pins.cfg_done);
        }
        rtl_cycle_edge();
    }
}

/* One CPU request: word address `addr` (byte address, word aligned). */
static void do_request(bool we, uint64_t addr, unsigned be, uint32_t wdata)
{
    addr &= STC_GEN_ADDR_MASK & ~(uint64_t)3;
    H.ops++;
    H.requests++;
    const stc_config *config = stc_cache_config(H.model);
    if (H.config_at >= 0) {
        H.cov.requests_in[H.config_at]++;
    }
    H.cur.kind = we ? OP_STORE : OP_LOAD;
    H.cur.start = H.cycle;
    H.cur.done = false;
    H.cur.addr = addr;
    H.cur.be = be;
    H.cur.wdata = wdata;

    /* The model. */
    uint8_t wbytes[4], mask[4], rbytes[4] = {0};
    for (unsigned byte = 0; byte < 4; byte++) {
        wbytes[byte] = (uint8_t)(wdata >> (8 * byte));
        mask[byte] = (uint8_t)(be >> byte & 1);
    }
    stc_access_result result;
    bool rejected = stc_cache_access(H.model, we ? STC_OP_WRITE : STC_OP_READ, addr, 4,
                                     we ? wbytes : NULL, we ? mask : NULL, we ? NULL : rbytes,
                                     &result) != 0;
    if (rejected && !(LOCKSTEP_ICACHE && we)) {
        fprintf(stderr, "lockstep: the model refused a request (harness bug)\n");
        exit(2);
    }
    uint32_t model_word = (uint32_t)rbytes[0] | (uint32_t)rbytes[1] << 8 |
                          (uint32_t)rbytes[2] << 16 | (uint32_t)rbytes[3] << 24;
    if (!we) {
        uint32_t shadow_word = image_read32(&H.shadow, addr);
        if (model_word != shadow_word) {
            mismatch("MODEL", "load 0x%08" PRIx64 ": model returns 0x%08x, the shadow memory holds 0x%08x",
                     addr, model_word, shadow_word);
        }
    } else if (!rejected) {
        image_write32(&H.shadow, addr, wdata, be);
    }
    /* The counters as the last operation left them (idle cycles count
     * nothing; every operation ends by reading them). */
    uint64_t before[NCOUNTERS];
    memcpy(before, H.rtl_counts, sizeof before);

    /* The RTL. */
    H.pins.cpu_req_valid = 1;
    H.pins.cpu_req_we = we;
    H.pins.cpu_req_addr = addr >> 2;
    H.pins.cpu_req_be = be;
    H.pins.cpu_req_wdata = wdata;
    H.pins.cfg_valid = 0;
    bool accepted = false;
    uint64_t accept_cycle = 0, start = H.cycle;
    unsigned touch = 0;
    uint32_t rdata = 0, err = 0;
    for (;;) {
        rtl_cycle_settle();
        if (H.pins.cfg_done) {
            mismatch("RTL", "cfg_done_o during a CPU request");
        }
        if (H.pins.cpu_rsp_valid) {
            if (!accepted) {
                mismatch("RTL", "a response before the request was accepted");
            }
            rdata = H.pins.cpu_rsp_rdata;
            err = H.pins.cpu_rsp_err;
            touch = dut_touch_bank(H.rtl);
            if (H.pins.cpu_req_ready) {
                mismatch("RTL", "cpu_req_ready_o = 1 in the response cycle");
            }
            rtl_cycle_edge();
            H.pins.cpu_req_valid = 0;
            break;
        }
        if (accepted && H.pins.cpu_req_ready) {
            mismatch("RTL", "cpu_req_ready_o = 1 while a request is being served");
        }
        bool accept_now = !accepted && H.pins.cpu_req_ready;
        rtl_cycle_edge();
        if (accept_now) {
            /* The inputs stay as they are (valid held, a CPU waiting with
             * the same request) until the response: ready is 0 meanwhile. */
            accepted = true;
            accept_cycle = H.cycle - 1;
        }
        if (H.cycle - start > TIMEOUT_CYCLES) {
            mismatch("RTL", "no %s after %u cycles", accepted ? "response" : "acceptance",
                     TIMEOUT_CYCLES);
        }
    }
    uint64_t latency = H.cycle - 1 - accept_cycle;

    /* Compare. */
    const uint64_t *after = H.rtl_counts;
    dut_counters(H.rtl, H.rtl_counts);
    H.counts_fresh = true;
    bool rtl_hit = after[5] == before[5];
    if (rejected) {
        /* I-cache store: an error in one cycle, nothing else. */
        if (!err) {
            mismatch("RTL", "store to a read-only cache answered without cpu_rsp_err_o");
        }
        if (latency != 1) {
            mismatch("RTL", "rejected store took %" PRIu64 " cycles, want 1", latency);
        }
        compare_transactions("rejected store");
        compare_counters("after the rejected store");
        unsigned row = (unsigned)(addr >> STC_GEN_OFFSET_BITS) & (ROWS - 1);
        compare_rows(row, 1, 0, "after the rejected store");
        H.cov.rejected++;
        H.cur.cycles = 1;
        commit_history();
        return;
    }
    if (err) {
        mismatch("RTL", "cpu_rsp_err_o = 1 on a D-cache %s", we ? "store" : "load");
    }
    if (rtl_hit != result.hit) {
        mismatch("RTL", "%s: model %s, RTL %s", we ? "store" : "load", result.hit ? "hit" : "miss",
                 rtl_hit ? "hit" : "miss");
    }
    if (!we && rdata != model_word) {
        mismatch("RTL", "load 0x%08" PRIx64 ": model (and shadow) 0x%08x, RTL 0x%08x", addr,
                 model_word, rdata);
    }
    compare_transactions(we ? "store" : "load");
    if (touch != result.bank) {
        mismatch("RTL", "served by bank %u in the model, bank %u in the RTL", result.bank, touch);
    }
    if (config->way_predict) {
        bool first = after[8] != before[8], second = after[9] != before[9];
        bool model_second = result.hit && !result.predicted;
        if (first != result.predicted || second != model_second) {
            mismatch("RTL", "way prediction: model %s, RTL %s",
                     result.predicted ? "first-probe hit" : model_second ? "second-probe hit" : "miss",
                     first ? "first-probe hit" : second ? "second-probe hit" : "miss");
        }
    }
    if (!H.opt.random_memory && latency != result.cycles) {
        mismatch("RTL", "latency: model %u cycles, RTL %" PRIu64, result.cycles, latency);
    }
    unsigned n = config->sublines;
    unsigned row = (unsigned)(addr >> STC_GEN_OFFSET_BITS) & (ROWS - 1);
    compare_rows(row & ~(n - 1), n, 1u << result.bank, "after the request");
    compare_counters("after the request");

    /* Coverage. */
    coverage *cov = &H.cov;
    if (result.hit) {
        cov->hits++;
    } else {
        cov->misses++;
        cov->misses_by_n[n]++;
        cov->partial_lines += result.fills < n;
        cov->split_bursts += result.bursts > 1;
        cov->dirty_victims += result.writebacks;
    }
    if (config->way_predict) {
        cov->first_probe += result.predicted;
        cov->second_probe += result.hit && !result.predicted;
        cov->wp_misses += !result.hit;
    }
    if (we) {
        cov->stores++;
        cov->partial_stores += be != 0xf && be != 0;
        cov->empty_stores += be == 0;
    }
    H.cur.hit = result.hit;
    H.cur.bank = result.bank;
    H.cur.cycles = result.cycles;
    commit_history();
}

/* A reconfiguration through the port. illegal_fields, if not NULL, sends
 * those raw log2 fields (an illegal configuration) instead of next. */
static void do_reconfig(const stc_config *next, const unsigned *illegal_fields)
{
    H.ops++;
    H.reconfigs++;
    /* Section 14.4: a bank asked on again while still powering down wakes
     * later than the model says; keep changes apart. */
    uint64_t gap = H.last_cfg_done + H.max_ack_delay + 6;
    if (H.cycle < gap) {
        idle_cycles((unsigned)(gap - H.cycle));
    }
    unsigned refused[4];
    if (LOCKSTEP_FIXED && !illegal_fields) {
        /* the baseline refuses every change: the same check as an illegal one */
        refused[0] = stc_log2(next->banks_on);
        refused[1] = stc_log2(next->ways);
        refused[2] = stc_log2(next->sublines);
        refused[3] = next->way_predict;
        illegal_fields = refused;
    }
    const stc_config *from = stc_cache_config(H.model);
    stc_config old = *from;
    char from_name[STC_CONFIG_NAME_MAX], to_name[STC_CONFIG_NAME_MAX];
    config_name(&old, from_name, sizeof from_name);
    unsigned fields[4];
    if (illegal_fields) {
        memcpy(fields, illegal_fields, sizeof fields);
        snprintf(to_name, sizeof to_name, "illegal(klog %u alog %u llog %u wp %u)", fields[0],
                 fields[1], fields[2], fields[3]);
    } else {
        config_name(next, to_name, sizeof to_name);
        fields[0] = stc_log2(next->banks_on);
        fields[1] = stc_log2(next->ways);
        fields[2] = stc_log2(next->sublines);
        fields[3] = next->way_predict;
    }
    memset(&H.cur, 0, sizeof H.cur);
    H.cur.kind = illegal_fields ? OP_ILLEGAL : OP_RECONFIG;
    H.cur.start = H.cycle;
    H.cur.from = old;
    if (next) {
        H.cur.to = *next;
    }
    memcpy(H.cur.fields, fields, sizeof fields);

    stc_reconfig_result result;
    memset(&result, 0, sizeof result);
    bool model_ok = !illegal_fields && stc_cache_reconfigure(H.model, next, &result) == 0;
    if (!illegal_fields && !model_ok) {
        fprintf(stderr, "lockstep: the model refused a legal configuration (harness bug)\n");
        exit(2);
    }

    H.pins.cfg_valid = 1;
    H.pins.cfg_banks_log = fields[0];
    H.pins.cfg_ways_log = fields[1];
    H.pins.cfg_sub_log = fields[2];
    H.pins.cfg_wp = fields[3];
    H.pins.cpu_req_valid = H.pending.on;
    if (H.pending.on) {
        H.pins.cpu_req_we = H.pending.we;
        H.pins.cpu_req_addr = (H.pending.addr & STC_GEN_ADDR_MASK) >> 2;
        H.pins.cpu_req_be = H.pending.be;
        H.pins.cpu_req_wdata = H.pending.wdata;
    }
    bool accepted = false;
    uint64_t accept_cycle = 0, start = H.cycle;
    uint32_t cfg_err = 0;
    for (;;) {
        rtl_cycle_settle();
        if (H.pins.cpu_rsp_valid) {
            mismatch("RTL", "a CPU response during a reconfiguration");
        }
        bool accept_now = !accepted && H.pins.cfg_ready;
        if (accept_now) {
            accepted = true;
            accept_cycle = H.cycle;
        }
        if (H.pins.cpu_req_valid && H.pins.cpu_req_ready) {
            mismatch("RTL", "cpu_req_ready_o = 1 while a configuration is %s",
                     accepted && !accept_now ? "being applied" : "offered");
        }
        if (H.pins.cfg_done) {
            if (!accepted) {
                mismatch("RTL", "cfg_done_o before the configuration was accepted");
            }
            cfg_err = H.pins.cfg_err;
            rtl_cycle_edge();
            break;
        }
        rtl_cycle_edge();
        if (accept_now) {
            H.pins.cfg_valid = 0;
        }
        if (H.cycle - start > 50u * TIMEOUT_CYCLES) {
            mismatch("RTL", "no cfg_done_o after %u cycles", 50u * TIMEOUT_CYCLES);
        }
    }
    H.pins.cfg_valid = 0;
    H.pins.cpu_req_valid = H.pending.on; /* still waiting: do_request serves it next */
    H.last_cfg_done = H.cycle - 1;
    uint64_t took = H.cycle - 1 - accept_cycle;

    if (illegal_fields) {
        if (!cfg_err) {
            mismatch("RTL", "illegal configuration accepted without cfg_err_o");
        }
        if (took != 0) {
            mismatch("RTL", "illegal configuration took %" PRIu64 " cycles, want 0", took);
        }
        H.cov.illegal++;
    } else {
        if (cfg_err) {
            mismatch("RTL", "legal configuration %s refused with cfg_err_o", to_name);
        }
        if (!H.opt.random_memory && took != result.cycles) {
            mismatch("RTL", "reconfiguration %s -> %s: model %" PRIu64 " cycles, RTL %" PRIu64,
                     from_name, to_name, result.cycles, took);
        }
        int from_at = config_index(&old), to_at = config_index(next);
        if (from_at >= 0 && to_at >= 0) {
            H.cov.transitions[from_at][to_at]++;
        }
        if (stc_config_equal(&old, next)) {
            H.cov.same++;
        } else if (result.cycles == 0) {
            H.cov.zero_cost++;
        }
        H.cov.walks += result.walked_rows != 0;
        H.cov.walk_writebacks += result.writebacks;
        H.cov.walk_invalidations += result.invalidations;
        H.cov.wakes += result.woken_banks;
    }
    H.config_at = config_index(stc_cache_config(H.model));
    compare_config("after the reconfiguration");
    compare_transactions("reconfiguration walk");
    compare_rows(0, ROWS, UINT32_MAX, "after the reconfiguration");
    compare_counters("after the reconfiguration");
    H.cur.cycles = result.cycles;
    H.cur.writebacks = result.writebacks;
    commit_history();
}

static void do_clear(void)
{
    H.ops++;
    memset(&H.cur, 0, sizeof H.cur);
    H.cur.kind = OP_CLEAR;
    H.cur.start = H.cycle;
    H.pins.cnt_clear = 1;
    idle_cycles(1);
    H.pins.cnt_clear = 0;
    memset(H.strobe_counts, 0, sizeof H.strobe_counts);
    stc_cache_clear_counters(H.model);
    compare_counters("after clearing the counters");
    H.cov.clears++;
    commit_history();
}

/* Empty the cache through its ports, then compare both memory images with
 * the shadow: go to the smallest configuration (the walk writes back what
 * the other banks hold) and read one line per row of bank 0 from a region
 * the traffic never writes (every dirty line of bank 0 is evicted). */
static uint64_t flush_base;

static void compare_images(void)
{
    const memory_image *images[2] = {&H.model_mem, &H.rtl_mem};
    for (unsigned which = 0; which < 2; which++) {
        const memory_image *image = images[which];
        for (uint64_t page = 0; page < H.shadow.page_count; page++) {
            const uint8_t *a = image->pages[page], *s = H.shadow.pages[page];
            if (!a && !s) {
                continue;
            }
            for (unsigned byte = 0; byte < PAGE_BYTES; byte++) {
                uint64_t addr = (page << PAGE_BITS) + byte;
                uint8_t got = a ? a[byte] : pattern_byte(addr);
                uint8_t want = s ? s[byte] : pattern_byte(addr);
                if (got != want) {
                    mismatch(which ? "RTL" : "MODEL",
                             "checkpoint: the %s memory image differs from the shadow at 0x%08" PRIx64
                             ": 0x%02x, shadow 0x%02x (a write lost or stale data written back)",
                             image->name, addr, got, want);
                }
            }
        }
    }
}

static const stc_config *random_config(void)
{
    return &H.configs[rng_below((unsigned)H.config_count)];
}

static void checkpoint(bool restore)
{
    stc_config saved = *stc_cache_config(H.model);
    if (LOCKSTEP_FIXED) {
        /* No smaller configuration: read a region as large as the cache,
         * which brings `ways` new lines into every set. */
        for (unsigned line = 0; line < ROWS * BANKS; line++) {
            do_request(false, flush_base + (uint64_t)line * LINE_BYTES, 0, 0);
        }
    } else {
        do_reconfig(&H.configs[0], NULL);
        for (unsigned row = 0; row < ROWS; row++) {
            do_request(false, flush_base + (uint64_t)row * LINE_BYTES, 0, 0);
        }
    }
    for (unsigned row = 0; row < ROWS; row++) {
        for (unsigned bank = 0; bank < BANKS; bank++) {
            stc_slot slot;
            stc_cache_slot(H.model, bank, row, &slot);
            if (slot.valid && slot.dirty) {
                mismatch("MODEL", "checkpoint: bank %u row %u still dirty after the flush", bank, row);
            }
        }
    }
    compare_rows(0, ROWS, UINT32_MAX, "checkpoint");
    compare_images();
    H.cov.checkpoints++;
    if (restore) {
        do_reconfig(&saved, NULL);
    }
}

/* ------------------------------------------------------------------ stimuli */

enum { REGIONS = 8, REGION_BYTES = 1 << 16 };
static uint64_t regions[REGIONS];
static uint64_t *hot;
static uint64_t last_addr;

static void stimuli_init(void)
{
    unsigned shift = STC_GEN_ADDR_BITS > 20 ? STC_GEN_ADDR_BITS - 16 : 4;
    uint64_t mask = STC_GEN_ADDR_MASK & ~(uint64_t)(REGION_BYTES - 1);
    for (unsigned index = 0; index < REGIONS; index++) {
        uint64_t base;
        if (index == 0) {
            base = 0;
        } else if (index == 1) {
            base = mask; /* every high address bit set */
        } else if (index < 5) {
            /* Aliases differing from an earlier region in one tag bit only:
             * the top one, the lowest one above the region, a random one. */
            unsigned top = STC_GEN_ADDR_BITS - 1, low = STC_GEN_BANK_SHIFT > 16 ? STC_GEN_BANK_SHIFT : 16;
            unsigned bit = index == 2   ? top
                           : index == 3 ? (low < top ? low : top)
                                        : STC_GEN_BANK_SHIFT + rng_below(STC_GEN_TAG_BITS);
            base = (regions[rng_below(index)] ^ ((uint64_t)1 << bit)) & mask;
        } else {
            base = (rng_next() << 16) & mask;
        }
        (void)shift;
        regions[index] = base;
    }
    /* The flush region: one the traffic never touches. */
    for (;;) {
        flush_base = (rng_next() << 16) & mask;
        bool clash = false;
        for (unsigned index = 0; index < REGIONS; index++) {
            clash = clash || (flush_base == regions[index]);
        }
        if (!clash) {
            break;
        }
    }
    hot = calloc(H.opt.hot_lines ? H.opt.hot_lines : 1, sizeof *hot);
    if (!hot) {
        exit(2);
    }
    for (unsigned index = 0; index < H.opt.hot_lines; index++) {
        hot[index] = regions[rng_below(REGIONS)] + (rng_below(REGION_BYTES) & ~(uint64_t)3);
    }
}

static uint64_t next_address(void)
{
    uint64_t addr;
    if (rng_percent(H.opt.locality)) {
        if (rng_percent(50)) {
            addr = (last_addr & ~(uint64_t)(LINE_BYTES - 1)) + 4 * rng_below(BEATS);
        } else {
            addr = last_addr + 4;
        }
    } else if (H.opt.hot_lines && rng_percent(70)) {
        addr = hot[rng_below(H.opt.hot_lines)] + 4 * rng_below(BEATS);
    } else {
        addr = regions[rng_below(REGIONS)] + (rng_below(REGION_BYTES) & ~(uint64_t)3);
    }
    addr &= STC_GEN_ADDR_MASK & ~(uint64_t)3;
    last_addr = addr;
    return addr;
}

static unsigned next_gap(unsigned mean)
{
    return mean ? 1 + rng_below(2 * mean) : 0;
}

static void random_reconfig(void)
{
    unsigned dice = rng_below(100);
    if (dice < 4) {
        /* an illegal configuration */
        unsigned fields[4];
        unsigned logb = STC_GEN_BANK_BITS;
        switch (rng_below(4)) {
        case 0: fields[0] = logb + 1 + rng_below(7 - logb); fields[1] = 0; fields[2] = 0; fields[3] = 0; break;
        case 1: fields[0] = rng_below(logb + 1); fields[1] = fields[0] + 1 + rng_below(7 - fields[0]); fields[2] = 0; fields[3] = 0; break;
        case 2: fields[0] = logb; fields[1] = 0; fields[2] = 3; fields[3] = 0; break;
        default: fields[0] = rng_below(logb + 1); fields[1] = 0; fields[2] = rng_below(3); fields[3] = 1; break;
        }
        if (fields[0] > 7) {
            fields[0] = 7;
        }
        do_reconfig(NULL, fields);
    } else if (dice < 8) {
        stc_config same = *stc_cache_config(H.model);
        do_reconfig(&same, NULL);
    } else {
        do_reconfig(random_config(), NULL);
    }
}

static void random_store_or_load(uint64_t addr, bool store)
{
    if (store) {
        unsigned be = rng_percent(70) ? 0xf : rng_below(16);
        uint32_t data = ++H.stamp * 0x01010101u ^ (uint32_t)rng_below(256);
        do_request(true, addr, be, data);
    } else {
        do_request(false, addr, 0, 0);
    }
}

/* A reconfiguration, a quarter of them with the next CPU request offered in
 * the same cycles (it must wait for the configuration, section 15.2). */
static void random_reconfig_maybe_overlapped(void)
{
    if (!rng_percent(25)) {
        random_reconfig();
        return;
    }
    H.pending.we = rng_percent(H.opt.writes) && !LOCKSTEP_ICACHE;
    H.pending.addr = next_address();
    H.pending.be = H.pending.we ? (rng_percent(70) ? 0xf : rng_below(16)) : 0;
    H.pending.wdata = H.pending.we ? ++H.stamp * 0x01010101u : 0;
    H.pending.on = true;
    random_reconfig();
    H.pending.on = false;
    H.cov.overlapped++;
    do_request(H.pending.we, H.pending.addr, H.pending.be, H.pending.wdata);
}

static void run_random(void)
{
    uint64_t next_reconfig = next_gap(H.opt.reconfig_every);
    uint64_t next_checkpoint = H.opt.checkpoint_every;
    uint64_t next_clear = next_gap(H.opt.clear_every);
    for (uint64_t index = 0; index < H.opt.requests; index++) {
        if (H.opt.reconfig_every && index == next_reconfig) {
            random_reconfig_maybe_overlapped();
            next_reconfig = index + next_gap(H.opt.reconfig_every);
        }
        if (H.opt.checkpoint_every && index == next_checkpoint) {
            checkpoint(true);
            next_checkpoint = index + H.opt.checkpoint_every;
        }
        if (H.opt.clear_every && index == next_clear) {
            do_clear();
            next_clear = index + next_gap(H.opt.clear_every);
        }
        random_store_or_load(next_address(), rng_percent(H.opt.writes));
    }
}

/* A trace: every word a reference touches becomes one request (the RTL's
 * port carries one word); a modify is a load then a store of its bytes. */
static void run_trace(void)
{
    char err[512];
    stc_trace *trace = stc_trace_open(H.opt.trace, STC_TRACE_AUTO, err, sizeof err);
    if (!trace) {
        fprintf(stderr, "lockstep: %s\n", err);
        exit(2);
    }
    stc_ref refs[4096];
    uint64_t done = 0;
    uint64_t next_reconfig = next_gap(H.opt.reconfig_every);
    uint64_t next_checkpoint = H.opt.checkpoint_every;
    long got = 0;
    while (done < H.opt.requests && (got = stc_trace_read(trace, refs, 4096)) > 0) {
        for (long index = 0; index < got && done < H.opt.requests; index++) {
            const stc_ref *ref = &refs[index];
            H.cov.trace_refs++;
            uint64_t first = ref->addr & ~(uint64_t)3;
            uint64_t end = ref->addr + ref->size;
            for (uint64_t word = first; word < end && done < H.opt.requests; word += 4) {
                unsigned be = 0;
                for (unsigned byte = 0; byte < 4; byte++) {
                    uint64_t at = word + byte;
                    be |= (unsigned)(at >= ref->addr && at < end) << byte;
                }
                if (H.opt.reconfig_every && done == next_reconfig) {
                    random_reconfig();
                    next_reconfig = done + next_gap(H.opt.reconfig_every);
                }
                if (H.opt.checkpoint_every && done == next_checkpoint) {
                    checkpoint(true);
                    next_checkpoint = done + H.opt.checkpoint_every;
                }
                if (ref->kind == STC_REF_STORE || ref->kind == STC_REF_MODIFY) {
                    if (ref->kind == STC_REF_MODIFY) {
                        do_request(false, word, 0, 0);
                        done++;
                    }
                    do_request(true, word, be, ++H.stamp * 0x01010101u);
                } else {
                    do_request(false, word, 0, 0);
                }
                done++;
            }
        }
    }
    if (got < 0 || stc_trace_error(trace)[0]) {
        fprintf(stderr, "lockstep: %s\n", stc_trace_error(trace));
        exit(2);
    }
    stc_trace_close(trace, err, sizeof err);
}

/* ------------------------------------------------------------------ directed tests */

/* Addresses for row `row`, tag t (byte address). */
static uint64_t at(uint64_t tag, unsigned row, unsigned word)
{
    return ((tag << STC_GEN_BANK_SHIFT) | ((uint64_t)row << STC_GEN_OFFSET_BITS) | (4u * word)) &
           STC_GEN_ADDR_MASK;
}

static void directed_case(const char *name)
{
    H.cov.directed_cases++;
    if (!H.opt.quiet) {
        printf("  directed: %s\n", name);
    }
}

static void run_directed(void)
{
    const unsigned B = BANKS, R = ROWS;
    stc_config c;
    /* Section 3/4: every configuration, an address in every bank group with
     * a store and loads back; tags differing in each single bit alias. */
    directed_case("3-4 mapping and full-tag lookup, every configuration");
    for (size_t index = 0; index < H.config_count; index++) {
        do_reconfig(&H.configs[index], NULL);
        for (unsigned tag = 0; tag < 2 * B; tag++) {
            do_request(true, at(tag, 5, 1), 0xf, 0x1000 + tag);
        }
        for (unsigned bit = 0; bit < STC_GEN_TAG_BITS; bit++) {
            do_request(false, at((uint64_t)1 << bit, 5, 1), 0, 0);
            do_request(false, at(0, 5, 1), 0, 0);
        }
        for (unsigned tag = 0; tag < 2 * B; tag++) {
            do_request(false, at(tag, 5, 1), 0, 0);
        }
    }
    /* Section 5: fill every way of a row, then evict in LRU order with
     * touches in between. */
    directed_case("5 replacement: invalid-first, LRU order, touches");
    c = stc_config_reset(&H.geometry);
    do_reconfig(&c, NULL);
    for (unsigned tag = 0; tag < 3 * B; tag++) {
        do_request(tag % 3 == 0, at(tag, 9, 0), 0xf, tag);
        do_request(false, at(tag / 2, 9, 2), 0, 0);
    }
    /* Section 6: logical lines partly present, runs split by present
     * sublines, dirty sublines evicted, stores into partly present lines. */
    directed_case("6 logical lines: partial presence, split bursts, dirty sublines");
    for (unsigned sub = 1; sub <= STC_MAX_SUBLINES && sub <= R / 4; sub *= 2) {
        c.banks_on = B;
        c.ways = B;
        c.sublines = 1;
        c.way_predict = false;
        do_reconfig(&c, NULL);
        for (unsigned tag = 0; tag < B + 1; tag++) {
            do_request(true, at(100 + tag, 16 + (tag % 4), 0), 0x5, tag);
            do_request(false, at(100 + tag, 18, 3), 0, 0);
        }
        c.sublines = 4;
        do_reconfig(&c, NULL);
        for (unsigned tag = 0; tag < 2 * B + 2; tag++) {
            do_request(tag & 1, at(100 + tag, 17 + (tag % 3), 1), 0xa, tag);
        }
        c.sublines = 2;
        do_reconfig(&c, NULL);
        for (unsigned tag = 0; tag < 2 * B + 2; tag++) {
            do_request(!(tag & 1), at(100 + tag, 16 + (tag % 4), 2), 0xf, tag);
        }
    }
    /* Section 7: every transition between any two legal configurations,
     * with dirty lines everywhere before each. */
    directed_case("7 reconfiguration: every ordered pair of configurations, dirty cache");
    for (size_t from = 0; from < H.config_count; from++) {
        for (size_t to = 0; to < H.config_count; to++) {
            do_reconfig(&H.configs[from], NULL);
            for (unsigned k = 0; k < 12; k++) {
                do_request(true, at(rng_below(64), rng_below(R), rng_below(BEATS)), 0xf,
                           ++H.stamp);
            }
            do_reconfig(&H.configs[to], NULL);
            do_request(false, at(rng_below(64), rng_below(R), 0), 0, 0);
        }
    }
    /* Section 8: way prediction first and second probes. */
    directed_case("8 way prediction: first- and second-probe hits, misses");
    for (size_t index = 0; index < H.config_count; index++) {
        if (!H.configs[index].way_predict) {
            continue;
        }
        do_reconfig(&H.configs[index], NULL);
        for (unsigned tag = 0; tag < 2 * B; tag++) {
            do_request(false, at(200 + tag, 40, 0), 0, 0);
            do_request(false, at(200 + tag, 40, 1), 0, 0);
            do_request(false, at(200 + (tag + 1) / 2, 40, 2), 0, 0);
        }
    }
    /* Section 9: counter clear between requests and after a reconfiguration. */
    directed_case("9 counters: clear");
    do_clear();
    do_request(false, at(7, 7, 0), 0, 0);
    do_reconfig(&H.configs[H.config_count - 1], NULL);
    do_clear();
    /* Section 10: timing is compared on every request above. Section 12:
     * the highest and lowest addresses. */
    directed_case("12 address width: the top and bottom of the address space");
    do_request(true, STC_GEN_ADDR_MASK & ~(uint64_t)3, 0x8, 0xdeadbeef);
    do_request(true, 0, 0x1, 0x55);
    do_request(false, STC_GEN_ADDR_MASK & ~(uint64_t)3, 0, 0);
    do_request(false, 0, 0, 0);
    directed_case("checkpoint: flush through the ports, memory equals the shadow");
    checkpoint(false);
}

/* ------------------------------------------------------------------ report */

static void report_coverage(double seconds)
{
    const coverage *cov = &H.cov;
    size_t configs_used = 0, transitions = 0, possible = H.config_count * (H.config_count - 1);
    for (size_t from = 0; from < H.config_count; from++) {
        configs_used += cov->requests_in[from] != 0;
        for (size_t to = 0; to < H.config_count; to++) {
            transitions += from != to && cov->transitions[from][to] != 0;
        }
    }
    printf("lockstep coverage (%s%s):\n", STC_GEN_NAME, LOCKSTEP_ICACHE ? ", I-cache" : "");
    printf("  configurations with traffic: %zu of %zu\n", configs_used, H.config_count);
    if (configs_used < H.config_count && !H.opt.quiet) {
        printf("    without:");
        for (size_t index = 0; index < H.config_count; index++) {
            if (!cov->requests_in[index]) {
                char name[STC_CONFIG_NAME_MAX];
                config_name(&H.configs[index], name, sizeof name);
                printf(" %s", name);
            }
        }
        printf("\n");
    }
    printf("  transitions (ordered pairs of different configurations): %zu of %zu\n", transitions,
           possible);
    printf("  sec 4-6  hits %" PRIu64 ", misses %" PRIu64 " (n=1: %" PRIu64 ", n=2: %" PRIu64
           ", n=4: %" PRIu64 "), partly present logical lines %" PRIu64
           ", split read bursts %" PRIu64 ", dirty victims written back %" PRIu64 "\n",
           cov->hits, cov->misses, cov->misses_by_n[1], cov->misses_by_n[2], cov->misses_by_n[4],
           cov->partial_lines, cov->split_bursts, cov->dirty_victims);
    printf("  sec 6    stores %" PRIu64 " (partial byte enables %" PRIu64 ", none %" PRIu64
           "); stores rejected by the I-cache %" PRIu64 "\n",
           cov->stores, cov->partial_stores, cov->empty_stores, cov->rejected);
    printf("  sec 7    reconfigurations %" PRIu64 ": walks %" PRIu64 ", walk writebacks %" PRIu64
           ", walk invalidations %" PRIu64 ", banks woken %" PRIu64 ", switched off %" PRIu64
           " (SRAMs scrambled), free changes %" PRIu64 ", same %" PRIu64 ", illegal %" PRIu64
           ", with a CPU request waiting %" PRIu64 "\n",
           H.reconfigs, cov->walks, cov->walk_writebacks, cov->walk_invalidations, cov->wakes,
           cov->power_offs, cov->zero_cost, cov->same, cov->illegal, cov->overlapped);
    printf("  sec 8    first-probe hits %" PRIu64 ", second-probe hits %" PRIu64
           ", misses with prediction %" PRIu64 "\n",
           cov->first_probe, cov->second_probe, cov->wp_misses);
    printf("  sec 9    counter clears %" PRIu64 "; checkpoints (memory = shadow) %" PRIu64
           "; directed cases %" PRIu64 "; trace references %" PRIu64 "\n",
           cov->clears, cov->checkpoints, cov->directed_cases, cov->trace_refs);
    printf("  sec 16   tuner event strobes %s\n",
           H.strobes ? "counted every cycle and compared with the counters" : "absent in this top");
    printf("lockstep: %" PRIu64 " requests, %" PRIu64 " reconfigurations, %" PRIu64
           " cycles, 0 mismatches, %.2f s, %.0f requests/s\n",
           H.requests, H.reconfigs, H.cycle, seconds, seconds > 0 ? (double)H.requests / seconds : 0.0);
}

/* ------------------------------------------------------------------ main */

static const char usage_text[] =
    "usage: lockstep [options]   (geometry " STC_GEN_NAME "%s%s)\n"
    "Run the generated RTL and the C model side by side; stop at the first mismatch.\n"
    "  --seed N             random seed (default 1)\n"
    "  --requests N         CPU requests (default 100000)\n"
    "  --reconfig-every N   a random reconfiguration every N requests on average (0: none)\n"
    "  --checkpoint-every N empty the cache and compare memory with the shadow every N\n"
    "  --clear-every N      clear the counters every N requests on average (0: never)\n"
    "  --locality P         percent of requests near the previous one (default 80)\n"
    "  --hot N              lines in the hot working set (default 512)\n"
    "  --writes P           percent stores (default 30)\n"
    "  --latency T          memory latency T_mem (default 20)\n"
    "  --ack-delay N        power switch acknowledge delay (default 0)\n"
    "  --random-memory      random latency, back-pressure and ack delays (cycles not compared)\n"
    "  --trace FILE         requests from a din or lackey trace instead of random traffic\n"
    "  --directed           the directed tests of each section first\n"
    "  --config NAME        start in this configuration\n"
    "  --wave FILE          write an FST waveform\n"
    "  --expect-mismatch    exit 0 only if a mismatch is found (broken RTL)\n"
    "  --model-latency T, --model-wake N  give the model another T_mem or T_wake than\n"
    "                       the memory and switches have (a test of the harness: must fail)\n"
    "  --bench              print only the speed\n"
    "  --quiet              shorter report\n";

static int parse_number(const char *option, const char *text, uint64_t *value)
{
    char *end;
    errno = 0;
    if (!text || !*text || *text == '-') {
        fprintf(stderr, "lockstep: %s needs a non-negative number\n", option);
        return -1;
    }
    unsigned long long parsed = strtoull(text, &end, 10);
    if (errno || *end) {
        fprintf(stderr, "lockstep: %s %s: not a number\n", option, text);
        return -1;
    }
    *value = parsed;
    return 0;
}

int main(int argc, char **argv)
{
    options *opt = &H.opt;
    opt->seed = 1;
    opt->requests = 100000;
    opt->locality = 80;
    opt->hot_lines = 512;
    opt->writes = 30;
    opt->latency = 20;
    opt->clear_every = 0;
    opt->model_latency = UINT32_MAX;
    opt->model_wake = UINT32_MAX;
    for (int index = 1; index < argc; index++) {
        const char *arg = argv[index];
        const char *value = index + 1 < argc ? argv[index + 1] : NULL;
        uint64_t number = 0;
        struct {
            const char *name;
            uint64_t *wide;
            unsigned *narrow;
            uint64_t max;
        } numeric[] = {
            {"--seed", &opt->seed, NULL, UINT64_MAX},
            {"--requests", &opt->requests, NULL, UINT64_MAX},
            {"--reconfig-every", NULL, &opt->reconfig_every, 1u << 30},
            {"--checkpoint-every", NULL, &opt->checkpoint_every, 1u << 30},
            {"--clear-every", NULL, &opt->clear_every, 1u << 30},
            {"--locality", NULL, &opt->locality, 100},
            {"--hot", NULL, &opt->hot_lines, 1u << 20},
            {"--writes", NULL, &opt->writes, 100},
            {"--latency", NULL, &opt->latency, 1000},
            {"--ack-delay", NULL, &opt->ack_delay, 64},
            {"--model-latency", NULL, &opt->model_latency, 1000},
            {"--model-wake", NULL, &opt->model_wake, 1000},
        };
        bool matched = false;
        for (size_t which = 0; which < sizeof numeric / sizeof numeric[0]; which++) {
            if (strcmp(arg, numeric[which].name) == 0) {
                if (parse_number(arg, value, &number) != 0) {
                    return 2;
                }
                if (number > numeric[which].max) {
                    fprintf(stderr, "lockstep: %s %s: at most %" PRIu64 "\n", arg, value,
                            numeric[which].max);
                    return 2;
                }
                if (numeric[which].wide) {
                    *numeric[which].wide = number;
                } else {
                    *numeric[which].narrow = (unsigned)number;
                }
                index++;
                matched = true;
            }
        }
        if (matched) {
            continue;
        }
        if (strcmp(arg, "--random-memory") == 0) {
            opt->random_memory = true;
        } else if (strcmp(arg, "--directed") == 0) {
            opt->directed = true;
        } else if (strcmp(arg, "--expect-mismatch") == 0) {
            opt->expect_mismatch = true;
        } else if (strcmp(arg, "--quiet") == 0) {
            opt->quiet = true;
        } else if (strcmp(arg, "--bench") == 0) {
            opt->bench = true;
        } else if ((strcmp(arg, "--trace") == 0 || strcmp(arg, "--wave") == 0 ||
                    strcmp(arg, "--config") == 0)) {
            if (!value) {
                fprintf(stderr, "lockstep: %s needs a value\n", arg);
                return 2;
            }
            if (arg[2] == 't') {
                opt->trace = value;
            } else if (arg[2] == 'w') {
                opt->wave = value;
            } else {
                opt->start_config = value;
            }
            index++;
        } else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            printf(usage_text, LOCKSTEP_ICACHE ? ", I-cache" : "",
                   LOCKSTEP_FIXED ? ", fixed " STC_GEN_RESET_CONFIG : "");
            return 0;
        } else {
            fprintf(stderr, "lockstep: unknown option '%s' (lockstep -h lists them)\n", arg);
            return 2;
        }
    }
    if (opt->latency == 0) {
        fprintf(stderr, "lockstep: --latency must be at least 1\n");
        return 2;
    }
    rng_state = opt->seed * 0x2545f4914f6cdd1dull + 1;
    H.scramble_seed = opt->seed ^ 0x5eed;
    H.max_ack_delay = opt->random_memory ? (opt->ack_delay > 3 ? opt->ack_delay : 3) : opt->ack_delay;

    /* The model, with the generated geometry, this memory's latency and the
     * switch's wake time (section 14.4: ack delay + STC_GEN_WAKE_OVERHEAD). */
    char err[512];
    stc_geometry_default(&H.geometry);
    H.geometry.banks = STC_GEN_BANKS;
    H.geometry.bank_bytes = STC_GEN_BANK_BYTES;
    H.geometry.line_bytes = STC_GEN_LINE_BYTES;
    H.geometry.addr_bits = STC_GEN_ADDR_BITS;
    H.geometry.mem_latency = opt->model_latency != UINT32_MAX ? opt->model_latency : opt->latency;
    H.geometry.wake_cycles = opt->model_wake != UINT32_MAX ? opt->model_wake
                                                           : STC_GEN_WAKE_CYCLES(opt->ack_delay);
    if (stc_geometry_init(&H.geometry, err, sizeof err) != 0) {
        fprintf(stderr, "lockstep: %s\n", err);
        return 2;
    }
    H.config_count = stc_config_enumerate(&H.geometry, H.configs, STC_MAX_CONFIGS);
#if !STC_GEN_WAY_PREDICTION
    {
        size_t kept = 0;
        for (size_t index = 0; index < H.config_count; index++) {
            if (!H.configs[index].way_predict) {
                H.configs[kept++] = H.configs[index];
            }
        }
        H.config_count = kept;
    }
#endif
    stc_config reset = stc_config_reset(&H.geometry);
    if (LOCKSTEP_FIXED &&
        stc_config_parse(&H.geometry, STC_GEN_RESET_CONFIG, &reset, err, sizeof err) != 0) {
        fprintf(stderr, "lockstep: the header's reset configuration %s: %s\n",
                STC_GEN_RESET_CONFIG, err);
        return 2;
    }
    stc_config start = reset;
    if (opt->start_config &&
        stc_config_parse(&H.geometry, opt->start_config, &start, err, sizeof err) != 0) {
        fprintf(stderr, "lockstep: --config %s: %s\n", opt->start_config, err);
        return 2;
    }
    image_init(&H.model_mem, "model");
    image_init(&H.rtl_mem, "RTL");
    image_init(&H.shadow, "shadow");
    stc_memory memory = {NULL, model_read_burst, model_write_burst};
    H.model = stc_cache_create(&H.geometry, LOCKSTEP_ICACHE ? STC_ICACHE : STC_DCACHE, &reset, &memory, err, sizeof err);
    if (!H.model) {
        fprintf(stderr, "lockstep: %s\n", err);
        return 2;
    }
    H.rtl = dut_open(opt->wave, err, sizeof err);
    if (!H.rtl) {
        fprintf(stderr, "lockstep: %s\n", err);
        return 2;
    }

    H.strobes = dut_strobes(H.rtl) >= 0;
    /* Reset: 3 cycles with rst_ni low; banks all on, acknowledged. */
    H.pins.rst_n = 0;
    H.ack = (uint32_t)((1ull << BANKS) - 1);
    H.pwr_en_prev = H.ack;
    for (unsigned index = 0; index < 3; index++) {
        rtl_cycle_settle();
        rtl_cycle_edge();
    }
    H.pins.rst_n = 1;
    idle_cycles(2);
    compare_counters("after reset");
    compare_rows(0, ROWS, UINT32_MAX, "after reset");
    compare_config("after reset");

    H.config_at = config_index(&reset);
    clock_t begin = clock();
    stimuli_init();
    if (!stc_config_equal(&start, &reset)) {
        do_reconfig(&start, NULL);
    }
    if (opt->directed) {
        run_directed();
    }
    if (opt->trace) {
        run_trace();
    } else {
        run_random();
    }
    if (opt->checkpoint_every || opt->reconfig_every) {
        checkpoint(false); /* the end: memory equals the shadow */
    }
    double seconds = (double)(clock() - begin) / CLOCKS_PER_SEC;
    dut_close(H.rtl);
    if (opt->expect_mismatch) {
        printf("lockstep: FAIL: no mismatch found in %" PRIu64 " requests, but the RTL is broken\n",
               H.requests);
        return 1;
    }
    if (opt->bench) {
        printf("lockstep bench (%s): %" PRIu64 " requests in %.2f s CPU: %.0f requests/s "
               "(%.2f M cycles/s)\n",
               STC_GEN_NAME, H.requests, seconds, (double)H.requests / seconds,
               (double)H.cycle / seconds / 1e6);
    } else {
        report_coverage(seconds);
    }
    stc_cache_destroy(H.model);
    return 0;
}
