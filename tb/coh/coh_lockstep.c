/*
 * coh_lockstep.c - the coherent system's RTL (tb_coh_system: N stc caches
 * built with stcgen --protocol, each behind stc_coh_port on stc_coh_bus)
 * against the coherent stc model (ref/coherent_stc.h), cycle by cycle
 * (tb/coh/README.md).
 *
 * Every core is a blocking CPU that offers its next reference as soon as
 * the cache can take it (a hit's answer takes the next one in the same
 * cycle), now and then after a pause. The model is fed each reference in
 * the RTL's order: a miss or upgrade in the address cycle of its burst or
 * BusUpgr, where the bus snoops its lines, a change that walks when the
 * bus grants it (so the model's bus order is the RTL's arbiter's), any
 * other when it is answered; the cycles a core's port sat idle go to the model as idle time
 * (stc_cstc_idle), so the model's clocks are the RTL's cycles. Checked:
 * every answer's cycle (the model's clock), every load's word, no grant
 * without a reference, and at the end every counter of every core against
 * the model's, the bus's grants against the model's tenures, no bus error
 * and no model violation; in every cycle the cores whose data array a
 * supply reads, against the model's. The first difference stops the run.
 *
 * Memory: the bus's memory answers with a handshake (ARCHITECTURE.md
 * 19.6) after a latency the harness gives both sides: fixed (the
 * geometry's mem_latency, by default) or, with --mem-latency MIN-MAX,
 * drawn for each wait, the k-th wait's a function of the seed and k, so
 * that the RTL's memory (coh_dut) and the model's latency source
 * (stc_cstc_set_memory_latency) take the same values in bus order.
 *
 * Traffic: each core in its own address range, twice the cache, a hot 2
 * KiB of it most of the time; loads of words, stores of words, halves and
 * bytes; with --shared, lines every core reads and writes (supplied by
 * the cache that holds them M or O; stores losing their upgrades' races
 * to each other).
 */
#include "coh_dut.h"
#include "coh_tuner.h"

#include "coherent_stc.h"
#include "mc_trace.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAX_CORES = 8,
    MEMORY_BYTES = 1 << 17, /* tb_coh_system's ML = 15 */
    PRIVATE_BYTES = 1 << 16, /* the cores' own ranges, below */
    SHARED_BYTES = 1024,    /* --shared: the top of memory, every core's (--shared-bytes) */
    BLOCK_BYTES = 64        /* the longest logical line (4 x 16 B): one miss's lines */
};

/* A reference, or (reconfig) a change of the core's configuration. */
typedef struct {
    bool reconfig;
    stc_config config; /* reconfig: the configuration asked for */
    bool store;
    uint32_t addr;     /* byte address */
    uint32_t size;     /* 1, 2 or 4, aligned */
    uint32_t value;
    bool race_target; /* --race: a load core 0's store to its block's last line may race */
    bool two_runs;    /* ... steered to a block whose miss is two runs */
} reference;

typedef struct {
    uint64_t rng;
    unsigned long left;          /* references still to make */
    bool pending;                /* `next` is offered (from offer_at on) */
    reference next;
    unsigned long offer_at;
    bool in_flight;              /* `current` was accepted, not yet answered */
    bool fed;                    /* ... and the model has run it */
    reference current;
    unsigned long accepted_at;
    stc_coh_state accepted_state; /* the model's state of its line then */
    unsigned long idle;          /* port cycles idle before it */
    unsigned long last_answer;   /* the cycle of the previous answer */
    uint64_t expect_word;
    uint64_t expect_clock;
    uint64_t idle_total;
    unsigned long grants;
    unsigned long answered;
    unsigned long reconfigs;
    unsigned long tuner_changes;   /* ... of them the tuner's */
    unsigned long walks;           /* reconfigurations that walked (a tenure each) */
    uint64_t reconfig_stall;       /* their cycles waiting for the bus */
    unsigned long change_done;     /* the cycle the last change completed */
    unsigned sublines;             /* the logical line of its last change made (--race) */
    reference *queue;              /* --mc-trace: this core's references, in order */
    size_t queue_len, queue_pos;
} core_state;

/* A change comes at least this many cycles after the previous one's end: a
 * bank the previous one put to sleep may still be powering down for N + 5
 * cycles (N = 0 here) and would wake late (ARCHITECTURE.md 14.4: the rule
 * every lockstep run keeps). */
enum { CHANGE_GAP = 8 };

typedef struct {
    unsigned cores;
    stc_coh_protocol protocol;
    const char *config_name;
    unsigned long refs;
    unsigned long reconfig_every; /* about every this many operations a change (0: none) */
    uint64_t seed;
    const char *trace;
    unsigned long check_every; /* about every this many cycles a checkpoint (0: only at the end) */
    unsigned shared_percent;   /* of the references, to the shared lines (0: private data only) */
    uint32_t shared_bytes;     /* how many: a power of two, 64 .. 32768 */
    bool race;                 /* steer shared references into a burst's snoop window (race_steer) */
    const char *mc_trace;      /* each core's references from this multi-core trace */
    unsigned latency_min, latency_max; /* the memory's, per wait (0: the geometry's) */
} options;

/* One side's memory latencies (the RTL's memory, the model's source): the
 * k-th wait's from a hash of the seed and k, uniform in min..max. */
typedef struct {
    unsigned min, max;
    uint64_t seed;
    unsigned long taken; /* waits so far */
} latency_draws;

/* The geometry's legal configurations: what a change picks from. */
typedef struct {
    stc_config list[256];
    size_t count;
} config_set;

static uint64_t next_random(uint64_t *state)
{
    /* splitmix64 */
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned next_latency(void *context)
{
    latency_draws *draws = context;
    uint64_t state = draws->seed + draws->taken * 0x2545f4914f6cdd1dull;
    draws->taken++;
    return draws->min + (unsigned)(next_random(&state) % (draws->max - draws->min + 1u));
}

static uint32_t below(uint64_t *state, uint32_t bound)
{
    return (uint32_t)(next_random(state) % bound);
}

/* Whether core has operations left to make (--mc-trace: and references). */
static bool more(const core_state *core)
{
    return core->left > 0 && (!core->queue || core->queue_pos < core->queue_len);
}

/* A reference of core `index`: with --shared, that percentage of them to
 * the shared lines (every core loads and stores there), the
 * others in the core's own range (whole pages: no line shared). shared:
 * whether it may go to the shared lines. */
static reference make_reference(core_state *core, unsigned index, unsigned cores,
                                const options *opt, const config_set *configs, bool shared)
{
    const uint32_t region = (PRIVATE_BYTES / cores) & ~4095u;
    const uint32_t hot = 2048;
    reference r = {0};
    if (opt->reconfig_every && below(&core->rng, (uint32_t)opt->reconfig_every) == 0) {
        r.reconfig = true;
        r.config = configs->list[below(&core->rng, (uint32_t)configs->count)];
        /* --race: half of another core's changes swap its logical line
         * between one line and the block: race_steer's misses of two
         * bursts need a middle line loaded in the first and a miss in the
         * second */
        if (opt->race && index != 0 && below(&core->rng, 2) == 0) {
            unsigned want = core->sublines == 1 ? STC_MAX_SUBLINES : 1;
            for (unsigned tries = 0; tries < 32 && r.config.sublines != want; tries++)
                r.config = configs->list[below(&core->rng, (uint32_t)configs->count)];
        }
        core->sublines = r.config.sublines;
        return r;
    }
    if (core->queue)
        return core->queue[core->queue_pos++];
    if (shared && opt->shared_percent && below(&core->rng, 100) < opt->shared_percent) {
        r.store = below(&core->rng, 10) < 4;
        r.size = 4;
        r.addr = (MEMORY_BYTES - opt->shared_bytes) + (below(&core->rng, opt->shared_bytes) & ~3u);
        r.value = (uint32_t)next_random(&core->rng);
        return r;
    }
    uint32_t offset = below(&core->rng, 10) < 7 ? below(&core->rng, hot) : below(&core->rng, region);
    r.store = below(&core->rng, 10) < 4;
    r.size = 4;
    if (r.store) {
        unsigned kind = below(&core->rng, 4);
        r.size = kind == 0 ? 1 : kind == 1 ? 2 : 4;
    }
    r.addr = index * region + (offset & ~(r.size - 1));
    r.value = (uint32_t)next_random(&core->rng);
    return r;
}

/* The protocol's rows the run reached (stc_cstc_row_uses_of), of those
 * that can happen: the coverage [coherence-rtl] asks to report. */
static void count_rows(const stc_cstc_system *model, stc_coh_protocol protocol,
                       unsigned *proc_reached, unsigned *proc_rows, unsigned *snoop_reached,
                       unsigned *snoop_rows)
{
    const stc_coh_table *table = stc_coh_table_of(protocol);
    const stc_coh_row_uses *uses = stc_cstc_row_uses_of(model);
    *proc_reached = *proc_rows = *snoop_reached = *snoop_rows = 0;
    for (unsigned i = 0; i < table->proc_row_count; i++) {
        const stc_coh_proc_row *row = &table->proc_rows[i];
        if (row->impossible)
            continue;
        (*proc_rows)++;
        *proc_reached += uses->proc[row->state][row->event] > 0;
    }
    for (unsigned i = 0; i < table->snoop_row_count; i++) {
        const stc_coh_snoop_row *row = &table->snoop_rows[i];
        if (row->impossible)
            continue;
        (*snoop_rows)++;
        *snoop_reached += uses->snoop[row->state][row->bus] > 0;
    }
}

static int fail(unsigned long cycle, const char *message)
{
    printf("MISMATCH cycle %lu: %s\n", cycle, message);
    return 1;
}

/* The model runs core's current reference (its idle cycles first). */
static int feed(stc_cstc_system *model, unsigned core, core_state *state, unsigned long t0)
{
    const reference *r = &state->current;
    if (stc_cstc_idle(model, core, state->idle) != 0)
        return -1;
    state->idle_total += state->idle;
    uint64_t loaded = 0;
    if (r->reconfig) {
        stc_reconfig_result result;
        uint64_t stall = stc_cstc_core_cycles_of(model, core)->stall_cycles;
        if (stc_cstc_reconfigure(model, core, &r->config, &result) != 0)
            return -1;
        state->walks += result.walked_rows > 0;
        state->reconfig_stall += stc_cstc_core_cycles_of(model, core)->stall_cycles - stall;
    } else if (stc_cstc_access(model, core, r->store ? STC_COH_OP_STORE : STC_COH_OP_LOAD,
                               r->addr, r->size, r->value, &loaded) != 0) {
        return -1;
    }
    state->expect_word = loaded;
    state->expect_clock = t0 + stc_cstc_core_cycles_of(model, core)->cycles;
    state->fed = true;
    return 0;
}

/* A decimal option value from min to max into *out; -1 with a message
 * naming the option otherwise. */
static int number(const char *option, const char *value, unsigned long long min,
                  unsigned long long max, unsigned long long *out)
{
    char *end = NULL;
    unsigned long long parsed = 0;
    bool digits = value[0] >= '0' && value[0] <= '9';
    if (digits) {
        errno = 0;
        parsed = strtoull(value, &end, 10);
    }
    if (!digits || *end != '\0' || errno == ERANGE || parsed < min || parsed > max) {
        fprintf(stderr, "coh_lockstep: %s %s: a whole number from %llu to %llu\n", option, value,
                min, max);
        return -1;
    }
    *out = parsed;
    return 0;
}

static int parse(int argc, char **argv, options *opt)
{
    *opt = (options){2, STC_COH_MESI, "8K_4W_16B", 2000, 0, 1, NULL, 1000, 0, SHARED_BYTES, false,
                     NULL, 0, 0};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!value) {
            fprintf(stderr, "coh_lockstep: %s needs a value\n", arg);
            return -1;
        }
        i++;
        unsigned long long parsed = 0;
        if (strcmp(arg, "--cores") == 0) {
            if (number(arg, value, 1, MAX_CORES, &parsed) != 0)
                return -1;
            opt->cores = (unsigned)parsed;
        } else if (strcmp(arg, "--protocol") == 0) {
            char err[160];
            if (stc_coh_protocol_parse(value, &opt->protocol, err, sizeof err) != 0) {
                fprintf(stderr, "coh_lockstep: --protocol %s: %s\n", value, err);
                return -1;
            }
        } else if (strcmp(arg, "--config") == 0) {
            opt->config_name = value;
        } else if (strcmp(arg, "--refs") == 0) {
            if (number(arg, value, 1, ULONG_MAX, &parsed) != 0)
                return -1;
            opt->refs = (unsigned long)parsed;
        } else if (strcmp(arg, "--reconfig") == 0) {
            if (number(arg, value, 0, ULONG_MAX, &parsed) != 0)
                return -1;
            opt->reconfig_every = (unsigned long)parsed;
        } else if (strcmp(arg, "--seed") == 0) {
            if (number(arg, value, 0, ULLONG_MAX, &parsed) != 0)
                return -1;
            opt->seed = parsed;
        } else if (strcmp(arg, "--shared") == 0) {
            if (number(arg, value, 0, 100, &parsed) != 0)
                return -1;
            opt->shared_percent = (unsigned)parsed;
        } else if (strcmp(arg, "--shared-bytes") == 0) {
            if (number(arg, value, 0, UINT32_MAX, &parsed) != 0)
                return -1;
            opt->shared_bytes = (uint32_t)parsed;
        } else if (strcmp(arg, "--race") == 0) {
            if (number(arg, value, 0, 1, &parsed) != 0)
                return -1;
            opt->race = parsed != 0;
        } else if (strcmp(arg, "--check-every") == 0) {
            if (number(arg, value, 0, ULONG_MAX, &parsed) != 0)
                return -1;
            opt->check_every = (unsigned long)parsed;
        } else if (strcmp(arg, "--mc-trace") == 0) {
            opt->mc_trace = value;
        } else if (strcmp(arg, "--trace") == 0) {
            opt->trace = value;
        } else if (strcmp(arg, "--mem-latency") == 0) {
            char *end = NULL;
            unsigned long low = strtoul(value, &end, 10), high = low;
            if (end && *end == '-')
                high = strtoul(end + 1, &end, 10);
            if (!end || *end != '\0' || low < 2 || high < low || high > 1000) {
                fprintf(stderr, "coh_lockstep: --mem-latency %s: T or MIN-MAX, from 2 to 1000\n",
                        value);
                return -1;
            }
            opt->latency_min = (unsigned)low;
            opt->latency_max = (unsigned)high;
        } else {
            fprintf(stderr, "coh_lockstep: unknown option %s\n", arg);
            return -1;
        }
    }
    if (opt->shared_bytes < BLOCK_BYTES || opt->shared_bytes > PRIVATE_BYTES / 2 ||
        (opt->shared_bytes & (opt->shared_bytes - 1)) != 0) {
        fprintf(stderr, "coh_lockstep: --shared-bytes %u: a power of two, %d .. %d\n",
                opt->shared_bytes, BLOCK_BYTES, PRIVATE_BYTES / 2);
        return -1;
    }
    return 0;
}

/* The end: every counter of every core against the model's. */
static int compare_counters(coh_dut *dut, stc_cstc_system *model, const core_state *cores,
                            unsigned count, unsigned long cycle)
{
    /* ARCHITECTURE.md 9's numbers and the model's fields; requests and
     * request_misses are the RTL's accesses and misses (the model's layer
     * leaves its own at 0), cycles the core's clock less its idle time. */
    static const struct {
        unsigned select;
        const char *name;
        size_t field;
    } list[] = {
        {2, "accesses", offsetof(stc_counters, accesses)},
        {3, "reads", offsetof(stc_counters, reads)},
        {4, "writes", offsetof(stc_counters, writes)},
        {5, "misses", offsetof(stc_counters, misses)},
        {6, "read_misses", offsetof(stc_counters, read_misses)},
        {7, "write_misses", offsetof(stc_counters, write_misses)},
        {8, "first_probe_hits", offsetof(stc_counters, first_probe_hits)},
        {9, "second_probe_hits", offsetof(stc_counters, second_probe_hits)},
        {10, "fills", offsetof(stc_counters, fills)},
        {11, "fill_bursts", offsetof(stc_counters, fill_bursts)},
        {12, "writebacks", offsetof(stc_counters, writebacks)},
        {14, "reconfigs", offsetof(stc_counters, reconfigs)},
        {16, "walk_rows", offsetof(stc_counters, walk_rows)},
        {17, "banks_woken", offsetof(stc_counters, banks_woken)},
        {18, "walk_writebacks", offsetof(stc_counters, walk_writebacks)},
        {19, "walk_invalidations", offsetof(stc_counters, walk_invalidations)},
        {0, "requests", offsetof(stc_counters, accesses)},
        {1, "request_misses", offsetof(stc_counters, misses)},
    };
    char message[256];
    for (unsigned c = 0; c < count; c++) {
        stc_cstc_counters expect;
        stc_cstc_core_counters(model, c, &expect);
        for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) {
            coh_dut_set_counter(dut, c, list[i].select);
            coh_dut_settle(dut);
            uint64_t want;
            memcpy(&want, (const char *)&expect.cache + list[i].field, sizeof want);
            uint64_t got = coh_dut_counter(dut, c);
            if (got != want) {
                snprintf(message, sizeof message, "core %u counter %s: rtl %" PRIu64 " model %" PRIu64,
                         c, list[i].name, got, want);
                return fail(cycle, message);
            }
        }
        /* reconfig_cycles: the RTL's counts a walk's wait for the bus too
         * (ARCHITECTURE.md 19.5), the cache's own count does not */
        coh_dut_set_counter(dut, c, 15);
        coh_dut_settle(dut);
        uint64_t reconfig = expect.cache.reconfig_cycles + cores[c].reconfig_stall;
        if (coh_dut_counter(dut, c) != reconfig) {
            snprintf(message, sizeof message, "core %u counter reconfig_cycles: rtl %" PRIu64
                     " model %" PRIu64 " (the cache's %" PRIu64 " and %" PRIu64 " waiting for the "
                     "bus)", c, coh_dut_counter(dut, c), reconfig, expect.cache.reconfig_cycles,
                     cores[c].reconfig_stall);
            return fail(cycle, message);
        }
        coh_dut_set_counter(dut, c, 13);
        coh_dut_settle(dut);
        uint64_t busy = stc_cstc_core_cycles_of(model, c)->cycles - cores[c].idle_total;
        if (coh_dut_counter(dut, c) != busy) {
            snprintf(message, sizeof message, "core %u counter cycles: rtl %" PRIu64
                     " model %" PRIu64 " (its clock less %" PRIu64 " idle)",
                     c, coh_dut_counter(dut, c), busy, cores[c].idle_total);
            return fail(cycle, message);
        }
        /* One tenure per miss, per BusUpgr and per walk. */
        uint64_t tenures = expect.cache.misses + expect.coherence.upgrades + cores[c].walks;
        if (cores[c].grants != tenures) {
            snprintf(message, sizeof message, "core %u: %lu grants, the model %" PRIu64
                     " tenures", c, cores[c].grants, tenures);
            return fail(cycle, message);
        }
    }
    return 0;
}

/* A valid line's bytes in core's data SRAM of bank, row row (read straight
 * from the array) against the model's line there. */
static int compare_line_data(coh_dut *dut, unsigned core, unsigned bank, unsigned row,
                             const stc_slot *view, unsigned line_bytes, unsigned long cycle)
{
    uint8_t rtl[STC_COH_MAX_LINE];
    char message[256];
    if (coh_dut_line_data(dut, core, bank, row, rtl, line_bytes) != 0) {
        snprintf(message, sizeof message, "core %u bank %u: the data SRAM is not readable "
                 "(a model built without tb/coh/coh.vlt?)", core, bank);
        return fail(cycle, message);
    }
    if (memcmp(rtl, view->data, line_bytes) == 0)
        return 0;
    unsigned byte = 0;
    while (rtl[byte] == view->data[byte])
        byte++;
    snprintf(message, sizeof message, "core %u bank %u row %u: line 0x%" PRIx64 " byte %u holds "
             "0x%02x in the data SRAM, 0x%02x in the model", core, bank, row, view->line_addr,
             byte, rtl[byte], view->data[byte]);
    return fail(cycle, message);
}

/* Memory word by word against the model's (nothing in flight, every write
 * landed): the lines no cache owns dirty must be equal, and so must the
 * others, whose last writeback both sides made alike. */
static int compare_memory(coh_dut *dut, stc_cstc_system *model, unsigned line_bytes,
                          unsigned long cycle)
{
    char message[256];
    /* the model's two words at addr & ~7 with one lookup (one word a lookup
     * in lines of 4 bytes) */
    const uint32_t step = line_bytes >= 8 ? 8u : 4u;
    uint64_t pair = 0;
    for (uint32_t addr = 0; addr < MEMORY_BYTES; addr += 4) {
        uint32_t rtl;
        if (coh_dut_memory_peek(dut, addr >> 2, &rtl) != 0)
            return fail(cycle, "the memory is not readable (a model built without "
                               "tb/coh/coh.vlt?)");
        if (addr % step == 0)
            pair = stc_cstc_memory_read(model, addr, step);
        uint32_t want = (uint32_t)(pair >> (8u * (addr % step)));
        if (rtl != want) {
            snprintf(message, sizeof message, "memory 0x%x holds 0x%08x, the model's 0x%08x",
                     addr, rtl, want);
            return fail(cycle, message);
        }
    }
    return 0;
}

/* Every slot of every core's snoop-port array (ARCHITECTURE.md 19.4)
 * against the model's line and state there: the controller writes the
 * array in the cycle each slot's state changes (19.5), so when no core has
 * anything in flight it must hold exactly the model's states, and the tag
 * of every slot not I. Reads one row a settle; changes no state. */
static int compare_slots(coh_dut *dut, stc_cstc_system *model, const stc_cstc_config *config,
                         unsigned long cycle)
{
    const stc_geometry *g = &config->geometry;
    const stc_coh_table *table = stc_coh_table_of(config->protocol);
    unsigned state_bits = 0;
    while ((1u << state_bits) < table->state_count)
        state_bits++;
    const uint32_t code_mask = (1u << state_bits) - 1u;
    char message[256];
    for (unsigned row = 0; row < g->rows; row++) {
        coh_dut_set_debug_row(dut, row);
        coh_dut_settle(dut);
        for (unsigned c = 0; c < config->cores; c++) {
            uint32_t row_state = coh_dut_row_state(dut, c);
            for (unsigned bank = 0; bank < g->banks; bank++) {
                stc_slot view;
                stc_cache_slot(stc_cstc_cache(model, c), bank, row, &view);
                stc_coh_state state =
                    view.valid ? stc_cstc_state_of(model, c, view.line_addr) : STC_COH_I;
                /* the controller's own copy: valid, dirty (M, O), excl (E, M) */
                bool valid = row_state >> bank & 1u;
                bool dirty = row_state >> (g->banks + bank) & 1u;
                bool excl = row_state >> (2 * g->banks + bank) & 1u;
                bool want_excl = config->protocol != STC_COH_MSI &&
                                 (state == STC_COH_E || state == STC_COH_M);
                if (valid != (state != STC_COH_I) ||
                    (valid && (dirty != (state == STC_COH_M || state == STC_COH_O) ||
                               excl != want_excl))) {
                    snprintf(message, sizeof message,
                             "core %u bank %u row %u: the controller's row state holds valid %d "
                             "dirty %d excl %d, the model %s",
                             c, bank, row, valid, dirty, excl, stc_coh_state_name(state));
                    return fail(cycle, message);
                }
                uint32_t want_code = stc_coh_state_code(table, state);
                uint32_t got = coh_dut_slot(dut, c, bank);
                uint32_t got_code = got & code_mask;
                uint64_t got_tag = got >> state_bits;
                if (got_code == want_code && (state == STC_COH_I || got_tag == view.tag)) {
                    if (state != STC_COH_I &&
                        compare_line_data(dut, c, bank, row, &view, g->line_bytes, cycle) != 0)
                        return 1;
                    continue;
                }
                snprintf(message, sizeof message,
                         "core %u bank %u row %u: the snoop port holds state code %u tag 0x%" PRIx64
                         ", the model %s (code %u)%s line 0x%" PRIx64,
                         c, bank, row, got_code, got_tag, stc_coh_state_name(state), want_code,
                         view.valid ? "" : ", no", view.line_addr);
                return fail(cycle, message);
            }
        }
    }
    return 0;
}

/* One run: the device, the model, the cores, and where the run is. */
typedef struct {
    options opt;
    stc_cstc_config config;
    config_set configs;
    coh_dut *dut;
    stc_cstc_system *model;
    core_state cores[MAX_CORES];
    unsigned long cycle;
    unsigned long t0;            /* the model's time 0: every cache takes requests */
    unsigned long last_progress; /* the last answer or change done */
    unsigned long next_check;    /* from this cycle on, no new operation until a checkpoint */
    unsigned long checkpoints;
    unsigned long end;           /* the last cycle before the drain */
    unsigned long race_loads[2]; /* race targets accepted: one run, two runs */
    unsigned long races[2];      /* ... and core 0's stores that raced them */
    unsigned long supplies;      /* lines a cache supplied (its data array read) */
    unsigned long lost_upgrades; /* stores that hit S or O and were ordered as misses */
    unsigned long offered_in_read; /* requests offered in such a cycle of their core */
    latency_draws rtl_latency, model_latency; /* the memory's, the same for both */
    coh_dut_tuner_build tuner_build; /* the caches' monitor tuners, if built */
    coh_tuner *tuners[MAX_CORES];    /* ... and their twins */
    coh_dut_tuner_view tuner_views[MAX_CORES]; /* this cycle's RTL units */
    uint32_t answered_addr[MAX_CORES];  /* this cycle's answered reference of each core */
    bool answered_store[MAX_CORES];
    unsigned long waits;         /* memory waits before the drain (each side's) */
    char message[256];
} harness;

/* The bus granted core: a change's walk runs in the model now; a miss or
 * an upgrade at its ordering item (on_order). */
static int on_grant(harness *h, unsigned core)
{
    core_state *s = &h->cores[core];
    s->grants++;
    if (!s->in_flight || s->fed) {
        snprintf(h->message, sizeof h->message,
                 "core %u granted the bus with nothing waiting for it", core);
        return fail(h->cycle, h->message);
    }
    if (!s->current.reconfig)
        return 0;
    return feed(h->model, core, s, h->t0) == 0 ? 0 : fail(h->cycle, stc_cstc_error(h->model));
}

/* Core's burst or BusUpgr is in its address cycle, where the other cores
 * snoop its lines: the reference runs in the model now, the whole miss
 * (its victims' BusWBs, earlier in the tenure, snooped by no copy: their
 * lines are only the owner's). Until 2026-12-06 the model ran it at the
 * grant, and another core's hit during the BusWBs was ordered after the
 * miss by the model, before it by the RTL (found by --race). A miss of two
 * runs is ordered at its first burst, which snoops the second's lines too
 * (ARCHITECTURE.md 19.6): a second snoop of one reference is an error. */
static int on_order(harness *h, unsigned core)
{
    core_state *s = &h->cores[core];
    if (!s->in_flight || s->current.reconfig) {
        snprintf(h->message, sizeof h->message,
                 "core %u reads or upgrades on the bus with no reference waiting", core);
        return fail(h->cycle, h->message);
    }
    if (s->fed) {
        snprintf(h->message, sizeof h->message,
                 "core %u's %s 0x%x is snooped a second time (its lines were all snooped at "
                 "its first burst)", core, s->current.store ? "store" : "load", s->current.addr);
        return fail(h->cycle, h->message);
    }
    /* a store that found its line S or O when accepted and I at its
     * ordering point lost its upgrade's race: the RTL made it a miss */
    if (s->current.store &&
        (s->accepted_state == STC_COH_S || s->accepted_state == STC_COH_O) &&
        stc_cstc_state_of(h->model, core, s->current.addr) == STC_COH_I)
        h->lost_upgrades++;
    return feed(h->model, core, s, h->t0) == 0 ? 0 : fail(h->cycle, stc_cstc_error(h->model));
}

/* Core answers its reference: its cycle and word against the model's. */
static int on_answer(harness *h, unsigned core, uint32_t rdata)
{
    core_state *s = &h->cores[core];
    const reference *r = &s->current;
    if (!s->in_flight || r->reconfig) {
        snprintf(h->message, sizeof h->message, "core %u answers with no request", core);
        return fail(h->cycle, h->message);
    }
    if (!s->fed && feed(h->model, core, s, h->t0) != 0)
        return fail(h->cycle, stc_cstc_error(h->model));
    if (h->cycle != s->expect_clock) {
        snprintf(h->message, sizeof h->message,
                 "core %u %s 0x%x (accepted in cycle %lu): rtl answers in cycle %lu, the model "
                 "in %" PRIu64,
                 core, r->store ? "store" : "load", r->addr, s->accepted_at, h->cycle,
                 s->expect_clock);
        return fail(h->cycle, h->message);
    }
    if (!r->store && rdata != (uint32_t)s->expect_word) {
        snprintf(h->message, sizeof h->message, "core %u load 0x%x: rtl 0x%08x model 0x%08x",
                 core, r->addr, rdata, (uint32_t)s->expect_word);
        return fail(h->cycle, h->message);
    }
    s->in_flight = false;
    s->answered++;
    s->last_answer = h->cycle;
    h->last_progress = h->cycle;
    return 0;
}

/* Core's change of configuration completes: its cycle against the model's. */
static int on_change_done(harness *h, unsigned core, bool refused)
{
    core_state *s = &h->cores[core];
    if (!s->in_flight || !s->current.reconfig) {
        snprintf(h->message, sizeof h->message, "core %u completes a change nobody asked for",
                 core);
        return fail(h->cycle, h->message);
    }
    char name[STC_CONFIG_NAME_MAX];
    stc_config_name(&h->config.geometry, &s->current.config, name, sizeof name);
    if (refused) {
        snprintf(h->message, sizeof h->message, "core %u refuses the legal configuration %s",
                 core, name);
        return fail(h->cycle, h->message);
    }
    if (!s->fed && feed(h->model, core, s, h->t0) != 0)
        return fail(h->cycle, stc_cstc_error(h->model));
    if (h->cycle != s->expect_clock) {
        snprintf(h->message, sizeof h->message,
                 "core %u change to %s (accepted in cycle %lu): rtl done in cycle %lu, the "
                 "model in %" PRIu64,
                 core, name, s->accepted_at, h->cycle, s->expect_clock);
        return fail(h->cycle, h->message);
    }
    s->in_flight = false;
    s->reconfigs++;
    s->last_answer = h->cycle;
    s->change_done = h->cycle;
    if (s->pending && s->next.reconfig && s->offer_at < h->cycle + CHANGE_GAP)
        s->offer_at = h->cycle + CHANGE_GAP;
    h->last_progress = h->cycle;
    return 0;
}

static bool same_block(uint32_t a, uint32_t b)
{
    return a / BLOCK_BYTES == b / BLOCK_BYTES;
}

/* The operation core offered was taken: it is in flight, the next one made. */
static void on_accept(harness *h, unsigned core)
{
    core_state *s = &h->cores[core];
    s->current = s->next;
    s->in_flight = true;
    s->fed = false;
    s->accepted_at = h->cycle;
    s->accepted_state = s->current.reconfig
                            ? STC_COH_I
                            : stc_cstc_state_of(h->model, core, s->current.addr);
    s->idle = h->cycle - s->last_answer;
    s->pending = false;
    if (s->current.race_target)
        h->race_loads[s->current.two_runs]++;
    /* a race run: core 0's store meets another core's steered miss */
    for (unsigned o = 1; core == 0 && s->current.store && o < h->opt.cores; o++) {
        const core_state *other = &h->cores[o];
        if (other->in_flight && other->fed && other->current.race_target &&
            same_block(other->current.addr, s->current.addr))
            h->races[other->current.two_runs]++;
    }
    if (more(s)) {
        s->next = make_reference(s, core, h->opt.cores, &h->opt, &h->configs, true);
        s->left--;
        s->pending = true;
        /* now and then the CPU pauses before its next reference */
        s->offer_at = below(&s->rng, 8) == 0 ? h->cycle + 1 + below(&s->rng, 5) : h->cycle;
        if (s->next.reconfig && s->offer_at < s->change_done + CHANGE_GAP)
            s->offer_at = s->change_done + CHANGE_GAP;
    }
}

/* The cache takes its tuner's change (ARCHITECTURE.md 18.3): in flight as
 * a change software asked for would be, the CPU's next reference waiting. */
static int on_tuner_accept(harness *h, unsigned core, const stc_config *config)
{
    core_state *s = &h->cores[core];
    if (s->in_flight) {
        snprintf(h->message, sizeof h->message, "core %u takes its tuner's change with a %s in "
                 "flight", core, s->current.reconfig ? "change" : "reference");
        return fail(h->cycle, h->message);
    }
    s->current = (reference){.reconfig = true, .config = *config};
    s->in_flight = true;
    s->fed = false;
    s->accepted_at = h->cycle;
    s->accepted_state = STC_COH_I;
    s->idle = h->cycle - s->last_answer;
    s->sublines = config->sublines;
    s->tuner_changes++;
    return 0;
}

/* Whether the run is on its way to a checkpoint: no core is offered
 * anything new until every one is idle. */
static bool draining(const harness *h)
{
    return h->opt.check_every && h->cycle >= h->next_check;
}

/* A checkpoint, once nothing is in flight and the bus is free: every slot
 * of every core against the model (compare_slots); the next one later. */
static int checkpoint(harness *h)
{
    for (unsigned c = 0; c < h->opt.cores; c++)
        if (h->cores[c].in_flight)
            return 0;
    /* (the last answer's or change's writes of the array land at the end of
     * its cycle or, made under the bus, of the next: ARCHITECTURE.md 19.5) */
    if (coh_dut_bus_busy(h->dut) || h->cycle < h->last_progress + 2)
        return 0;
    if (compare_slots(h->dut, h->model, &h->config, h->cycle) != 0 ||
        compare_memory(h->dut, h->model, h->config.geometry.line_bytes, h->cycle) != 0)
        return 1;
    h->checkpoints++;
    h->next_check = h->cycle + h->opt.check_every;
    return 0;
}

static bool is_shared(const harness *h, const reference *r)
{
    return !r->reconfig && r->addr >= MEMORY_BYTES - h->opt.shared_bytes;
}

/* Whether core holds any line of the block at addr (the model's view). */
static bool holds_block(const harness *h, unsigned core, uint32_t block)
{
    for (uint32_t line = block; line < block + BLOCK_BYTES; line += h->config.geometry.line_bytes)
        if (stc_cstc_state_of(h->model, core, line) != STC_COH_I)
            return true;
    return false;
}

/* Whether no core holds any line of the block. */
static bool block_unheld(const harness *h, uint32_t block)
{
    for (unsigned c = 0; c < h->opt.cores; c++)
        if (holds_block(h, c, block))
            return false;
    return true;
}

/* Whether core's miss on the block would be two runs (ARCHITECTURE.md
 * 15.1): it holds a line strictly inside the block but neither its first
 * nor its last (the runs are two bursts when its logical line is the block). */
static bool holds_middle_only(const harness *h, unsigned core, uint32_t block)
{
    const uint32_t line_bytes = h->config.geometry.line_bytes;
    const uint32_t last = block + BLOCK_BYTES - line_bytes;
    if (stc_cstc_state_of(h->model, core, block) != STC_COH_I ||
        stc_cstc_state_of(h->model, core, last) != STC_COH_I)
        return false;
    for (uint32_t line = block + line_bytes; line < last; line += line_bytes)
        if (stc_cstc_state_of(h->model, core, line) != STC_COH_I)
            return true;
    return false;
}

/* --race: shared references steered so that another core's miss meets
 * core 0's store to a later line of it between the miss's first address
 * cycle and that line's data: core 0 loads the last word of a block nobody
 * holds (E in MESI and MOESI); another core whose logical line is the block
 * loads the block's first word (marked race_target), preferring a block of
 * which it holds a middle line only (its miss two runs, the last line in
 * the second burst: two_runs), else one it holds no line of (one burst);
 * a core of one-line logical lines loads such a block's second line, which
 * a later change to longer lines (no walk) leaves as a middle line; while
 * the target load waits for its ordering point core 0 loads the block's
 * last word (a hit, so that it is not stalled behind the bus on a miss of
 * its own when the window opens), and from its ordering point to its
 * answer core 0 stores that word. The model orders the whole miss first
 * (core 0's line S, its store a BusUpgr after it); an RTL that snooped a
 * later line after the miss's first address cycle let the store hit E
 * silently first (19.6, 19.7). */
static void race_steer(harness *h, unsigned core, reference *n)
{
    const uint32_t base = MEMORY_BYTES - h->opt.shared_bytes;
    if (core == 0) {
        for (unsigned o = 1; o < h->opt.cores; o++) {
            const core_state *other = &h->cores[o];
            const reference *r = &other->current;
            if (other->in_flight && r->race_target) {
                /* before the target's ordering point core 0 loads the
                 * line it will store (a hit: it stays free to race) */
                n->store = other->fed;
                n->size = 4;
                n->addr = r->addr / BLOCK_BYTES * BLOCK_BYTES + BLOCK_BYTES - 4;
                return;
            }
        }
        if (n->store || !is_shared(h, n))
            return;
        for (uint32_t block = base; block < MEMORY_BYTES; block += BLOCK_BYTES) {
            if (block_unheld(h, block)) {
                n->addr = block + BLOCK_BYTES - 4;
                return;
            }
        }
        return;
    }
    if (n->store)
        return;
    n->race_target = false;
    n->two_runs = false;
    const uint32_t line_bytes = h->config.geometry.line_bytes;
    const unsigned sublines = stc_cache_config(stc_cstc_cache(h->model, core))->sublines;
    uint32_t unheld = 0;
    bool found_unheld = false;
    for (uint32_t block = base; block < MEMORY_BYTES; block += BLOCK_BYTES) {
        if (stc_cstc_state_of(h->model, 0, block + BLOCK_BYTES - line_bytes) != STC_COH_E)
            continue;
        if (sublines * line_bytes == BLOCK_BYTES && holds_middle_only(h, core, block)) {
            n->addr = block;
            n->race_target = true;
            n->two_runs = true;
            return;
        }
        if (!found_unheld && !holds_block(h, core, block)) {
            unheld = block;
            found_unheld = true;
        }
    }
    if (!found_unheld)
        return;
    /* a cache of one-line logical lines loads a middle line: the block's
     * state a later change to the block's logical line makes two runs of */
    n->addr = sublines == 1 ? unheld + line_bytes : unheld;
    n->race_target = sublines * line_bytes == BLOCK_BYTES;
}

/* This cycle's inputs of every core; whether any core has work left. */
static bool drive(harness *h)
{
    bool work = false;
    for (unsigned c = 0; c < h->opt.cores; c++) {
        core_state *s = &h->cores[c];
        const reference *n = &s->next;
        bool offer = s->pending && h->cycle >= s->offer_at && !draining(h);
        /* (core 0 races with any reference, private ones too: the window
         * is a miss's few dozen cycles) */
        if (offer && h->opt.race && !n->reconfig && (is_shared(h, n) || c == 0))
            race_steer(h, c, &s->next);
        bool request = offer && !n->reconfig;
        /* a change is offered once nothing of the core is in flight */
        bool change = offer && n->reconfig && !s->in_flight;
        coh_dut_set_request(h->dut, c, request, request && n->store, n->addr >> 2,
                            request && n->store ? ((1u << n->size) - 1u) << (n->addr & 3u) : 0u,
                            n->value << (8u * (n->addr & 3u)));
        coh_dut_set_config(h->dut, c, change, stc_log2(n->config.banks_on),
                           stc_log2(n->config.ways), stc_log2(n->config.sublines),
                           n->config.way_predict);
        work = work || s->pending || s->in_flight || (h->tuners[c] && coh_tuner_busy(h->tuners[c]));
    }
    return work;
}

/* The cycles a supply reads a core's data array (ARCHITECTURE.md 19.5):
 * the RTL's (the bus's sup_read) and the model's, which charges them to
 * the core's references (stc_cstc_supply_read_at), must be the same. */
static int check_supply_reads(harness *h)
{
    const unsigned reads = coh_dut_supply_read(h->dut);
    for (unsigned c = 0; c < h->opt.cores; c++) {
        const bool rtl = reads >> c & 1u;
        if (rtl != stc_cstc_supply_read_at(h->model, c, h->cycle - h->t0)) {
            snprintf(h->message, sizeof h->message,
                     "core %u's data array is read for a supply in this cycle by the %s only",
                     c, rtl ? "rtl" : "model");
            return fail(h->cycle, h->message);
        }
        h->supplies += rtl;
        const core_state *s = &h->cores[c];
        h->offered_in_read += rtl && s->pending && h->cycle >= s->offer_at && !draining(h) &&
                              !s->next.reconfig;
    }
    return 0;
}

/* Core's answer in a cycle in which it orders nothing: a hit answered in
 * another core's ordering cycle is ordered before that item (the
 * controller's action of a cycle comes before the snoop of that cycle,
 * ARCHITECTURE.md 19.5), so every such answer is fed before the order.
 * (Until 2026-12-06 answers were taken core by core after each core's
 * order: a load hit of core 1 answered in core 0's BusUpgr's cycle was
 * fed after the upgrade; the traffic of before supplies never met it.) */
static int observe_answer(harness *h, unsigned core, unsigned order)
{
    uint32_t rdata = 0;
    if (!(order >> core & 1u) && coh_dut_response(h->dut, core, &rdata))
        return on_answer(h, core, rdata);
    return 0;
}

/* This cycle's outputs of core, in the order they are ordered: its grant
 * (the reference it is for runs in the model), its answer (of the
 * reference in flight), the acceptance of its next operation, a change's
 * end (in the cycle it is accepted, if it needs no cycle). */
static int observe(harness *h, unsigned core, unsigned grant, unsigned order)
{
    core_state *s = &h->cores[core];
    uint32_t rdata = 0;
    /* (another core's answer of this cycle was taken before the order:
     * observe_answer) */
    bool answer = (order >> core & 1u) && coh_dut_response(h->dut, core, &rdata);
    bool offered = s->pending && h->cycle >= s->offer_at && !draining(h);
    bool accept = offered && !s->next.reconfig && coh_dut_ready(h->dut, core);
    bool accept_change = offered && s->next.reconfig && !s->in_flight &&
                         coh_dut_config_ready(h->dut, core);
    coh_tuner *tuner = h->tuners[core];
    stc_config tuner_config;
    bool tuner_accept = tuner && coh_tuner_offer(tuner, &tuner_config);
    if (accept && tuner && coh_tuner_holds(tuner)) {
        snprintf(h->message, sizeof h->message, "core %u takes a request while its tuner's "
                 "change is due (it must land first: ARCHITECTURE.md 18.3)", core);
        return fail(h->cycle, h->message);
    }
    if ((grant >> core & 1u) && on_grant(h, core) != 0)
        return 1;
    if ((order >> core & 1u) && on_order(h, core) != 0)
        return 1;
    if (answer && on_answer(h, core, rdata) != 0)
        return 1;
    if (accept || accept_change)
        on_accept(h, core);
    if (tuner_accept && on_tuner_accept(h, core, &tuner_config) != 0)
        return 1;
    bool refused = false;
    bool done = coh_dut_config_done(h->dut, core, &refused);
    if (tuner && h->tuner_views[core].cfg_done) {
        done = true;
        refused = h->tuner_views[core].cfg_err;
    }
    if (done && on_change_done(h, core, refused) != 0)
        return 1;
    return 0;
}

/* --mc-trace: each core's references, in the trace's order for that core
 * (fetches left out: these are D-caches), at most `refs` a core; each
 * record is the aligned words it covers (at most 4; a byte or half in
 * place), its address folded into the memory's 128 KiB, a store's value
 * random. The cores' interleaving is the RTL's, as on a real system.
 * -1 with a message on stderr. */
static int load_mc_trace(harness *h)
{
    char err[256] = "";
    stc_mc_trace *trace = stc_mc_trace_open(h->opt.mc_trace, h->opt.cores, err, sizeof err);
    if (!trace) {
        fprintf(stderr, "coh_lockstep: %s\n", err);
        return -1;
    }
    for (unsigned c = 0; c < h->opt.cores; c++) {
        h->cores[c].queue = calloc(h->opt.refs ? h->opt.refs : 1, sizeof(reference));
        if (!h->cores[c].queue) {
            fprintf(stderr, "coh_lockstep: out of memory\n");
            stc_mc_trace_close(trace);
            return -1;
        }
    }
    stc_mc_ref record;
    int status;
    while ((status = stc_mc_trace_next(trace, &record)) == 1) {
        core_state *core = &h->cores[record.core];
        if (record.label == STC_MC_FETCH)
            continue;
        uint32_t addr = (uint32_t)(record.addr & (MEMORY_BYTES - 1));
        uint32_t size = record.size;
        if (size > 2 || (addr & (size - 1)) != 0) {
            /* whole words: the first, up to the record's end, at most 4 */
            uint32_t end = addr + (size < 16 ? size : 16);
            addr &= ~3u;
            size = 4;
            for (; addr < end && core->queue_len < h->opt.refs; addr += 4) {
                reference r = {.store = record.label == STC_MC_WRITE, .addr = addr & (MEMORY_BYTES - 1),
                               .size = 4, .value = (uint32_t)next_random(&core->rng)};
                core->queue[core->queue_len++] = r;
            }
            continue;
        }
        if (core->queue_len < h->opt.refs)
            core->queue[core->queue_len++] =
                (reference){.store = record.label == STC_MC_WRITE, .addr = addr, .size = size,
                            .value = (uint32_t)next_random(&core->rng)};
    }
    if (status < 0)
        fprintf(stderr, "coh_lockstep: %s\n", stc_mc_trace_error(trace));
    stc_mc_trace_close(trace);
    return status < 0 ? -1 : 0;
}

/* The device and the model, in reset; -1 with a message on stderr. */
static int start(harness *h)
{
    h->config = (stc_cstc_config){.cores = h->opt.cores, .protocol = h->opt.protocol};
    stc_geometry_default(&h->config.geometry);
    char err[256] = "";
    if (stc_geometry_init(&h->config.geometry, err, sizeof err) != 0) {
        fprintf(stderr, "coh_lockstep: geometry: %s\n", err);
        return -1;
    }
    for (unsigned c = 0; c < h->opt.cores; c++) {
        if (stc_config_parse(&h->config.geometry, h->opt.config_name, &h->config.configs[c], err,
                             sizeof err) != 0) {
            fprintf(stderr, "coh_lockstep: --config %s: %s\n", h->opt.config_name, err);
            return -1;
        }
    }
    h->configs.count = stc_config_enumerate(&h->config.geometry, h->configs.list,
                                            sizeof h->configs.list / sizeof h->configs.list[0]);
    h->model = stc_cstc_create(&h->config, err, sizeof err);
    h->dut = h->model ? coh_dut_create(h->opt.cores, h->opt.trace) : NULL;
    if (!h->model || !h->dut) {
        fprintf(stderr, "coh_lockstep: %s\n", h->model ? "no device" : err);
        return -1;
    }
    for (unsigned c = 0; c < h->opt.cores; c++) {
        h->cores[c].rng = h->opt.seed * 1000003u + c * 7919u + 1u;
        h->cores[c].left = h->opt.refs;
    }
    coh_dut_tuner_build_of(&h->tuner_build);
    for (unsigned c = 0; h->tuner_build.present && c < h->opt.cores; c++) {
        h->tuners[c] = coh_tuner_create(&h->tuner_build, &h->config.geometry, err, sizeof err);
        if (!h->tuners[c]) {
            fprintf(stderr, "coh_lockstep: monitor tuner: %s\n", err);
            return -1;
        }
    }
    if (!h->opt.latency_min)
        h->opt.latency_min = h->opt.latency_max = h->config.geometry.mem_latency;
    h->rtl_latency = (latency_draws){h->opt.latency_min, h->opt.latency_max,
                                     h->opt.seed * 0x9e3779b97f4a7c15ull + 0x1a7e, 0};
    h->model_latency = h->rtl_latency;
    coh_dut_set_memory_latency(h->dut, h->config.geometry.beats_per_line, next_latency,
                               &h->rtl_latency);
    stc_cstc_set_memory_latency(h->model, next_latency, &h->model_latency);
    return h->opt.mc_trace ? load_mc_trace(h) : 0;
}

/* The run's end: every core cleans and invalidates every line through its
 * maintenance port (ARCHITECTURE.md 7.1: a walk holding the bus, its dirty
 * lines BusWBs), the model drains its caches (stc_cstc_drain), and then
 * memory must hold what the model's memory holds, which must equal the
 * model's shadow (every store, in the order the RTL made them): each of
 * the memory's words is compared. */
static int drain(harness *h)
{
    const unsigned all = (1u << h->opt.cores) - 1u;
    unsigned offered = all, done = 0;
    const unsigned long start = h->cycle;
    for (; done != all; h->cycle++) {
        for (unsigned c = 0; c < h->opt.cores; c++)
            coh_dut_set_drain(h->dut, c, offered >> c & 1u);
        coh_dut_settle(h->dut);
        for (unsigned c = 0; c < h->opt.cores; c++) {
            if ((offered >> c & 1u) && coh_dut_drain_ready(h->dut, c))
                offered &= ~(1u << c);
            if (coh_dut_drain_done(h->dut, c))
                done |= 1u << c;
        }
        if (coh_dut_bus_error(h->dut))
            return fail(h->cycle, "the bus flags an error (two suppliers) in the drain");
        coh_dut_tick(h->dut);
        if (h->cycle - start > 200000)
            return fail(h->cycle, "the drain does not end in 200000 cycles");
    }
    for (unsigned c = 0; c < h->opt.cores; c++)
        coh_dut_set_drain(h->dut, c, false);
    coh_dut_settle(h->dut);
    stc_cstc_drain(h->model);
    for (uint32_t addr = 0; addr < MEMORY_BYTES; addr += 4) {
        uint32_t model = (uint32_t)stc_cstc_memory_read(h->model, addr, 4);
        uint32_t shadow = (uint32_t)stc_cstc_shadow_read(h->model, addr, 4);
        uint32_t rtl = coh_dut_memory_word(h->dut, addr >> 2);
        if (model != shadow || rtl != model) {
            snprintf(h->message, sizeof h->message,
                     "after the drain memory 0x%x holds 0x%08x, the model's 0x%08x, its shadow "
                     "0x%08x", addr, rtl, model, shadow);
            return fail(h->cycle, h->message);
        }
    }
    return 0;
}

/* Every core's tuner this cycle, against its twin (coh_tuner.h): the
 * reference each core answers now is the unit's step and the monitor's
 * next access. */
static int tuners_settle(harness *h)
{
    for (unsigned c = 0; c < h->opt.cores; c++) {
        if (!h->tuners[c])
            continue;
        uint32_t rdata;
        bool answered = coh_dut_response(h->dut, c, &rdata);
        h->answered_addr[c] = h->cores[c].current.addr;
        h->answered_store[c] = h->cores[c].current.store;
        coh_dut_tuner_view_of(h->dut, c, &h->tuner_views[c]);
        char message[200];
        if (coh_tuner_settle(h->tuners[c], &h->tuner_views[c], answered,
                             stc_cache_config(stc_cstc_cache(h->model, c)), message,
                             sizeof message) != 0) {
            snprintf(h->message, sizeof h->message, "core %u: %s", c, message);
            return fail(h->cycle, h->message);
        }
    }
    return 0;
}

/* The run to its end or its first difference: 0 if it passed. */
static int run(harness *h)
{
    /* After reset every cache writes its row state (S_INIT): wait until all
     * take requests; the model's time 0 is that cycle. */
    for (h->cycle = 0;; h->cycle++) {
        coh_dut_settle(h->dut);
        bool all = true;
        for (unsigned c = 0; c < h->opt.cores; c++)
            all = all && coh_dut_ready(h->dut, c);
        if (all)
            break;
        coh_dut_tick(h->dut);
        if (h->cycle > 10000)
            return fail(h->cycle, "the caches never become ready after reset");
    }
    h->t0 = h->cycle;
    for (unsigned c = 0; c < h->opt.cores; c++) {
        core_state *s = &h->cores[c];
        s->sublines = stc_cache_config(stc_cstc_cache(h->model, c))->sublines;
        s->offer_at = h->t0;
        s->last_answer = h->t0;
        if (!more(s))
            continue;
        s->next = make_reference(s, c, h->opt.cores, &h->opt, &h->configs, true);
        s->left--;
        s->pending = true;
    }
    h->last_progress = h->cycle;
    h->next_check = h->t0 + h->opt.check_every;
    for (;; h->cycle++) {
        if (!drive(h))
            break;
        coh_dut_settle(h->dut);
        if (coh_dut_bus_error(h->dut))
            return fail(h->cycle, "the bus flags an error (two suppliers)");
        unsigned grant = coh_dut_grant(h->dut);
        unsigned order = coh_dut_order(h->dut);
        if (tuners_settle(h) != 0)
            return 1;
        for (unsigned c = 0; c < h->opt.cores; c++)
            if (observe_answer(h, c, order) != 0)
                return 1;
        for (unsigned c = 0; c < h->opt.cores; c++)
            if (observe(h, c, grant, order) != 0)
                return 1;
        if (check_supply_reads(h) != 0)
            return 1;
        if (stc_cstc_violation_count(h->model) != 0)
            return fail(h->cycle, stc_cstc_violation_at(h->model, 0)->text);
        if (coh_dut_snoop_error(h->dut))
            return fail(h->cycle, "a snoop port flags a snoop it cannot take");
        if (draining(h) && checkpoint(h) != 0)
            return 1;
        for (unsigned c = 0; c < h->opt.cores; c++)
            if (h->tuners[c])
                coh_tuner_edge(h->tuners[c], h->answered_addr[c], h->answered_store[c]);
        coh_dut_tick(h->dut);
        if (h->cycle - h->last_progress > 20000)
            return fail(h->cycle, "no answer for 20000 cycles");
    }
    /* the last writes of the snoop-port arrays land (as at a checkpoint) */
    for (; h->cycle < h->last_progress + 2; h->cycle++) {
        coh_dut_settle(h->dut);
        coh_dut_tick(h->dut);
    }
    if (compare_slots(h->dut, h->model, &h->config, h->cycle) != 0 ||
        compare_memory(h->dut, h->model, h->config.geometry.line_bytes, h->cycle) != 0)
        return 1;
    h->checkpoints++;
    if (compare_counters(h->dut, h->model, h->cores, h->opt.cores, h->cycle) != 0)
        return 1;
    /* every wait the RTL's memory made, the model's memory made (the
     * drain's after it are not timed) */
    if (h->rtl_latency.taken != h->model_latency.taken) {
        snprintf(h->message, sizeof h->message,
                 "memory waits: the RTL's memory %lu, the model's %lu", h->rtl_latency.taken,
                 h->model_latency.taken);
        return fail(h->cycle, h->message);
    }
    h->waits = h->rtl_latency.taken;
    h->end = h->cycle;
    return drain(h);
}

static void report(const harness *h)
{
    stc_coh_run_cycles cycles;
    stc_cstc_run_cycles_of(h->model, &cycles);
    unsigned long answered = 0, reconfigs = 0, walks = 0;
    for (unsigned c = 0; c < h->opt.cores; c++) {
        answered += h->cores[c].answered;
        reconfigs += h->cores[c].reconfigs;
        walks += h->cores[c].walks;
    }
    unsigned proc_reached, proc_rows, snoop_reached, snoop_rows;
    count_rows(h->model, h->opt.protocol, &proc_reached, &proc_rows, &snoop_reached, &snoop_rows);
    printf("PASS %s %u cores %s: %lu references in %lu cycles, memory latency %u-%u (%lu "
           "waits), %lu reconfigurations (%lu "
           "walked), bus busy %" PRIu64 ", stall %" PRIu64 ", %lu checkpoints of every slot, "
           "memory drained and equal, %lu lines supplied by a cache (%" PRIu64 " cycles a "
           "second probe waited for one, %lu requests offered in one's cycle), %lu upgrades "
           "lost to another core's invalidation, rows reached: processor %u of %u, snoop %u of %u, races %lu of %lu one-run misses, "
           "%lu of %lu two-run misses\n",
           stc_coh_protocol_name(h->opt.protocol), h->opt.cores, h->opt.config_name, answered,
           h->end - h->t0, h->opt.latency_min, h->opt.latency_max, h->waits, reconfigs, walks, cycles.bus_busy_cycles, cycles.stall_cycles,
           h->checkpoints, h->supplies, stc_cstc_probe_waits(h->model), h->offered_in_read,
           h->lost_upgrades, proc_reached, proc_rows, snoop_reached, snoop_rows, h->races[0],
           h->race_loads[0], h->races[1], h->race_loads[1]);
    if (!h->tuner_build.present)
        return;
    coh_tuner_stats total = {0};
    unsigned long changes = 0;
    for (unsigned c = 0; c < h->opt.cores; c++) {
        coh_tuner_stats stats;
        coh_tuner_stats_of(h->tuners[c], &stats);
        total.events += stats.events;
        total.decisions += stats.decisions;
        total.offers += stats.offers;
        changes += h->cores[c].tuner_changes;
    }
    printf("TUNERS every cycle, every flop of each core's decision unit against its twin: %" PRIu64
           " accesses observed, %" PRIu64 " decisions, %" PRIu64 " changes offered, %lu made\n",
           total.events, total.decisions, total.offers, changes);
}

int main(int argc, char **argv)
{
    static harness h; /* (large: the configuration list) */
    if (parse(argc, argv, &h.opt) != 0)
        return 2;
    int status = start(&h) == 0 ? run(&h) : 2;
    if (status == 0)
        report(&h);
    for (unsigned c = 0; c < MAX_CORES; c++)
        coh_tuner_destroy(h.tuners[c]);
    coh_dut_destroy(h.dut);
    stc_cstc_destroy(h.model);
    for (unsigned c = 0; c < MAX_CORES; c++)
        free(h.cores[c].queue);
    return status;
}
