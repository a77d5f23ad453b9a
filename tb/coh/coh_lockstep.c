/*
 * coh_lockstep.c - the coherent system's RTL (tb_coh_system: N stc caches
 * built with stcgen --protocol, each behind stc_coh_port on stc_coh_bus)
 * against the coherent stc model (ref/coherent_stc.h), cycle by cycle
 * (tb/coh/README.md).
 *
 * Every core is a blocking CPU that offers its next reference as soon as
 * the cache can take it (a hit's answer takes the next one in the same
 * cycle), now and then after a pause. The model is fed each reference in
 * the RTL's order: a reference that takes the bus when the bus grants it
 * (so the model's bus order is the RTL's arbiter's), any other when it is
 * answered; the cycles a core's port sat idle go to the model as idle time
 * (stc_cstc_idle), so the model's clocks are the RTL's cycles. Checked:
 * every answer's cycle (the model's clock), every load's word, no grant
 * without a reference, and at the end every counter of every core against
 * the model's, the bus's grants against the model's tenures, no bus error
 * and no model violation. The first difference stops the run.
 *
 * Traffic: each core in its own address range (the snoop side of the
 * controller is not built yet: ARCHITECTURE.md 19.5), twice the cache, a
 * hot 2 KiB of it most of the time; loads of words, stores of words,
 * halves and bytes.
 */
#include "coh_dut.h"

#include "coherent_stc.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_CORES = 8, MEMORY_BYTES = 1 << 16 /* tb_coh_system's ML = 14 */ };

/* A reference, or (reconfig) a change of the core's configuration. */
typedef struct {
    bool reconfig;
    stc_config config; /* reconfig: the configuration asked for */
    bool store;
    uint32_t addr;     /* byte address */
    uint32_t size;     /* 1, 2 or 4, aligned */
    uint32_t value;
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
    unsigned long idle;          /* port cycles idle before it */
    unsigned long last_answer;   /* the cycle of the previous answer */
    uint64_t expect_word;
    uint64_t expect_clock;
    uint64_t idle_total;
    unsigned long grants;
    unsigned long answered;
    unsigned long reconfigs;
    unsigned long walks;           /* reconfigurations that walked (a tenure each) */
    uint64_t reconfig_stall;       /* their cycles waiting for the bus */
} core_state;

typedef struct {
    unsigned cores;
    stc_coh_protocol protocol;
    const char *config_name;
    unsigned long refs;
    unsigned long reconfig_every; /* about every this many operations a change (0: none) */
    uint64_t seed;
    const char *trace;
} options;

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

static uint32_t below(uint64_t *state, uint32_t bound)
{
    return (uint32_t)(next_random(state) % bound);
}

static reference make_reference(core_state *core, unsigned index, unsigned cores,
                                const options *opt, const config_set *configs)
{
    const uint32_t region = (MEMORY_BYTES / cores) & ~4095u; /* whole pages: no line shared */
    const uint32_t hot = 2048;
    reference r = {0};
    if (opt->reconfig_every && below(&core->rng, (uint32_t)opt->reconfig_every) == 0) {
        r.reconfig = true;
        r.config = configs->list[below(&core->rng, (uint32_t)configs->count)];
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

static int parse(int argc, char **argv, options *opt)
{
    *opt = (options){2, STC_COH_MESI, "8K_4W_16B", 2000, 0, 1, NULL};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!value) {
            fprintf(stderr, "coh_lockstep: %s needs a value\n", arg);
            return -1;
        }
        i++;
        if (strcmp(arg, "--cores") == 0) {
            opt->cores = (unsigned)strtoul(value, NULL, 10);
        } else if (strcmp(arg, "--protocol") == 0) {
            char err[160];
            if (stc_coh_protocol_parse(value, &opt->protocol, err, sizeof err) != 0) {
                fprintf(stderr, "coh_lockstep: --protocol %s: %s\n", value, err);
                return -1;
            }
        } else if (strcmp(arg, "--config") == 0) {
            opt->config_name = value;
        } else if (strcmp(arg, "--refs") == 0) {
            opt->refs = strtoul(value, NULL, 10);
        } else if (strcmp(arg, "--reconfig") == 0) {
            opt->reconfig_every = strtoul(value, NULL, 10);
        } else if (strcmp(arg, "--seed") == 0) {
            opt->seed = strtoull(value, NULL, 10);
        } else if (strcmp(arg, "--trace") == 0) {
            opt->trace = value;
        } else {
            fprintf(stderr, "coh_lockstep: unknown option %s\n", arg);
            return -1;
        }
    }
    if (opt->cores < 1 || opt->cores > MAX_CORES) {
        fprintf(stderr, "coh_lockstep: --cores %u: 1 .. %d\n", opt->cores, MAX_CORES);
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

int main(int argc, char **argv)
{
    options opt;
    if (parse(argc, argv, &opt) != 0)
        return 2;
    stc_cstc_config config = {.cores = opt.cores, .protocol = opt.protocol};
    stc_geometry_default(&config.geometry);
    char err[256] = "";
    if (stc_geometry_init(&config.geometry, err, sizeof err) != 0) {
        fprintf(stderr, "coh_lockstep: geometry: %s\n", err);
        return 2;
    }
    for (unsigned c = 0; c < opt.cores; c++) {
        if (stc_config_parse(&config.geometry, opt.config_name, &config.configs[c], err,
                             sizeof err) != 0) {
            fprintf(stderr, "coh_lockstep: --config %s: %s\n", opt.config_name, err);
            return 2;
        }
    }
    stc_cstc_system *model = stc_cstc_create(&config, err, sizeof err);
    coh_dut *dut = model ? coh_dut_create(opt.cores, opt.trace) : NULL;
    if (!model || !dut) {
        fprintf(stderr, "coh_lockstep: %s\n", model ? "no device" : err);
        return 2;
    }
    core_state cores[MAX_CORES];
    memset(cores, 0, sizeof cores);
    for (unsigned c = 0; c < opt.cores; c++) {
        cores[c].rng = opt.seed * 1000003u + c * 7919u + 1u;
        cores[c].left = opt.refs;
    }
    /* After reset every cache writes its row state (S_INIT): wait until all
     * take requests; the model's time 0 is that cycle. */
    unsigned long cycle = 0;
    for (;; cycle++) {
        coh_dut_settle(dut);
        bool all = true;
        for (unsigned c = 0; c < opt.cores; c++)
            all = all && coh_dut_ready(dut, c);
        if (all)
            break;
        coh_dut_tick(dut);
        if (cycle > 10000)
            return fail(cycle, "the caches never become ready after reset");
    }
    const unsigned long t0 = cycle;
    config_set configs;
    configs.count = stc_config_enumerate(&config.geometry, configs.list,
                                         sizeof configs.list / sizeof configs.list[0]);
    for (unsigned c = 0; c < opt.cores; c++) {
        cores[c].next = make_reference(&cores[c], c, opt.cores, &opt, &configs);
        cores[c].left--;
        cores[c].pending = true;
        cores[c].offer_at = t0;
        cores[c].last_answer = t0;
    }
    unsigned long last_progress = cycle;
    char message[256];
    int status = 0;
    for (;; cycle++) {
        bool work = false;
        for (unsigned c = 0; c < opt.cores; c++) {
            const core_state *s = &cores[c];
            const reference *n = &s->next;
            bool offer = s->pending && cycle >= s->offer_at;
            bool request = offer && !n->reconfig;
            /* a change is offered once nothing of the core is in flight */
            bool change = offer && n->reconfig && !s->in_flight;
            coh_dut_set_request(dut, c, request, request && n->store, n->addr >> 2,
                                request && n->store ? ((1u << n->size) - 1u) << (n->addr & 3u)
                                                    : 0u,
                                n->value << (8u * (n->addr & 3u)));
            coh_dut_set_config(dut, c, change, stc_log2(n->config.banks_on),
                               stc_log2(n->config.ways), stc_log2(n->config.sublines),
                               n->config.way_predict);
            work = work || s->pending || s->in_flight;
        }
        if (!work)
            break;
        coh_dut_settle(dut);
        if (coh_dut_bus_error(dut)) {
            status = fail(cycle, "the bus flags an error (two suppliers)");
            break;
        }
        unsigned grant = coh_dut_grant(dut);
        for (unsigned c = 0; c < opt.cores && !status; c++) {
            core_state *s = &cores[c];
            uint32_t rdata = 0;
            bool answer = coh_dut_response(dut, c, &rdata);
            bool offered = s->pending && cycle >= s->offer_at;
            bool accept = offered && !s->next.reconfig && coh_dut_ready(dut, c);
            bool accept_change = offered && s->next.reconfig && !s->in_flight &&
                                 coh_dut_config_ready(dut, c);
            if (grant >> c & 1u) {
                s->grants++;
                if (!s->in_flight || s->fed) {
                    snprintf(message, sizeof message, "core %u granted the bus with nothing "
                             "waiting for it", c);
                    status = fail(cycle, message);
                    break;
                }
                if (feed(model, c, s, t0) != 0) {
                    status = fail(cycle, stc_cstc_error(model));
                    break;
                }
            }
            if (answer) {
                if (!s->in_flight || s->current.reconfig) {
                    snprintf(message, sizeof message, "core %u answers with no request", c);
                    status = fail(cycle, message);
                    break;
                }
                if (!s->fed && feed(model, c, s, t0) != 0) {
                    status = fail(cycle, stc_cstc_error(model));
                    break;
                }
                const reference *r = &s->current;
                if (cycle != s->expect_clock) {
                    snprintf(message, sizeof message, "core %u %s 0x%x (accepted in cycle %lu): "
                             "rtl answers in cycle %lu, the model in %" PRIu64,
                             c, r->store ? "store" : "load", r->addr, s->accepted_at, cycle,
                             s->expect_clock);
                    status = fail(cycle, message);
                    break;
                }
                if (!r->store && rdata != (uint32_t)s->expect_word) {
                    snprintf(message, sizeof message, "core %u load 0x%x: rtl 0x%08x model 0x%08x",
                             c, r->addr, rdata, (uint32_t)s->expect_word);
                    status = fail(cycle, message);
                    break;
                }
                s->in_flight = false;
                s->answered++;
                s->last_answer = cycle;
                last_progress = cycle;
            }
            if (accept || accept_change) {
                s->current = s->next;
                s->in_flight = true;
                s->fed = false;
                s->accepted_at = cycle;
                s->idle = cycle - s->last_answer;
                s->pending = false;
                if (s->left > 0) {
                    s->next = make_reference(s, c, opt.cores, &opt, &configs);
                    s->left--;
                    s->pending = true;
                    /* now and then the CPU pauses before its next reference */
                    s->offer_at = below(&s->rng, 8) == 0 ? cycle + 1 + below(&s->rng, 5) : cycle;
                }
            }
            bool refused = false;
            if (coh_dut_config_done(dut, c, &refused)) {
                if (!s->in_flight || !s->current.reconfig) {
                    snprintf(message, sizeof message, "core %u completes a change nobody asked for",
                             c);
                    status = fail(cycle, message);
                    break;
                }
                char name[STC_CONFIG_NAME_MAX];
                stc_config_name(&config.geometry, &s->current.config, name, sizeof name);
                if (refused) {
                    snprintf(message, sizeof message, "core %u refuses the legal configuration %s",
                             c, name);
                    status = fail(cycle, message);
                    break;
                }
                if (!s->fed && feed(model, c, s, t0) != 0) {
                    status = fail(cycle, stc_cstc_error(model));
                    break;
                }
                if (cycle != s->expect_clock) {
                    snprintf(message, sizeof message, "core %u change to %s (accepted in cycle "
                             "%lu): rtl done in cycle %lu, the model in %" PRIu64,
                             c, name, s->accepted_at, cycle, s->expect_clock);
                    status = fail(cycle, message);
                    break;
                }
                s->in_flight = false;
                s->reconfigs++;
                s->last_answer = cycle;
                last_progress = cycle;
            }
        }
        if (status)
            break;
        if (stc_cstc_violation_count(model) != 0) {
            status = fail(cycle, stc_cstc_violation_at(model, 0)->text);
            break;
        }
        coh_dut_tick(dut);
        if (cycle - last_progress > 20000) {
            status = fail(cycle, "no answer for 20000 cycles");
            break;
        }
    }
    if (!status)
        status = compare_counters(dut, model, cores, opt.cores, cycle);
    if (!status) {
        stc_coh_run_cycles run;
        stc_cstc_run_cycles_of(model, &run);
        unsigned long answered = 0, reconfigs = 0, walks = 0;
        for (unsigned c = 0; c < opt.cores; c++) {
            answered += cores[c].answered;
            reconfigs += cores[c].reconfigs;
            walks += cores[c].walks;
        }
        unsigned proc_reached, proc_rows, snoop_reached, snoop_rows;
        count_rows(model, opt.protocol, &proc_reached, &proc_rows, &snoop_reached, &snoop_rows);
        printf("PASS %s %u cores %s: %lu references in %lu cycles, %lu reconfigurations (%lu "
               "walked), bus busy %" PRIu64 ", stall %" PRIu64 ", rows reached: processor %u "
               "of %u, snoop %u of %u\n",
               stc_coh_protocol_name(opt.protocol), opt.cores, opt.config_name, answered,
               cycle - t0, reconfigs, walks, run.bus_busy_cycles, run.stall_cycles, proc_reached,
               proc_rows, snoop_reached, snoop_rows);
    }
    coh_dut_destroy(dut);
    stc_cstc_destroy(model);
    return status;
}
