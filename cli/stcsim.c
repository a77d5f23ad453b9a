/*
 * stcsim - run a memory-reference trace through configurable caches.
 *
 * One pass over the trace drives every requested configuration (or
 * reconfiguration schedule); results are printed at the end, as an aligned
 * table or as JSON, so an error mid-trace leaves no partial report.
 */
#include "commands.h"
#include "options.h"
#include "cache.h"
#include "config.h"
#include "count.h"
#include "energy.h"
#include "json.h"
#include "ref_pipeline.h"
#include "geometry.h"
#include "stack.h"
#include "sweep.h"
#include "system.h"
#include "trace.h"
#include "tune.h"
#include "coherent.h"
#include "explore.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { BATCH_REFS = 1 << 16, MAX_RUNS = STC_MAX_CONFIGS + 64, ERR_LEN = 512 };

static const char usage_text[] =
    "usage: stcsim [options] TRACE\n"
    "       stcsim tune [options] TRACE...   (search the best configuration; see\n"
    "                                        stcsim tune --help, docs/TUNING.md)\n"
    "       stcsim coherence [options] TRACE (N coherent caches; stcsim coherence --help)\n"
    "       stcsim explore [options] TRACE...  (which geometry to generate: energy, area,\n"
    "                                        Pareto front; stcsim explore --help)\n"
    "Run a memory-reference trace (a file, or - for stdin; plain, gzip or zstd)\n"
    "through an I-cache and a D-cache and report accesses, misses, writebacks\n"
    "and cycles per configuration.\n"
    "\n"
    "  -f, --format FMT       auto (default), din or lackey\n"
    "  -c, --config NAME      simulate configuration NAME, e.g. 8K_4W_32B (repeatable)\n"
    "  -a, --all              every legal configuration (the default)\n"
    "  -g, --geometry LIST    e.g. banks=8,bank_bytes=1024,line_bytes=16,addr_bits=32,\n"
    "                         mem_latency=20,wake_cycles=4 (defaults: the paper's cache)\n"
    "      --reconfig-every N change configuration every N references, following\n"
    "      --order ORDER      ascending | descending | random:SEED | list:CFG,CFG,...\n"
    "                         (repeatable: one run per order; default ascending)\n"
    "      --limit N          stop after N references\n"
    "      --engine ENGINE    stack: one LRU-stack pass serves every fixed\n"
    "                         configuration; model: one cache model per\n"
    "                         configuration. Same numbers; the default is model\n"
    "                         for a single --config, stack otherwise\n"
    "      --energy FILE      energy table (docs/ENERGY.md); default: the built-in\n"
    "                         0.18 um table scaled to the geometry\n"
    "      --json             machine-readable output\n"
    "  -h, --help             this text\n";

typedef struct {
    char name[STC_CONFIG_NAME_MAX + 64];
    stc_config config;      /* fixed configuration, or the first of the schedule */
    stc_config *schedule;   /* owned; NULL for a fixed configuration */
    size_t schedule_len;
    bool has_system;        /* simulated by its own caches, not the stack sweep */
    stc_system system;
    stc_counters icache;    /* the results, gathered at the end */
    stc_counters dcache;
    stc_energy ienergy;
    stc_energy denergy;
} sim_run;

enum { ENGINE_AUTO, ENGINE_STACK, ENGINE_MODEL };

typedef struct {
    const char *trace_path;
    stc_trace_format format;
    stc_geometry geometry;
    const char *config_names[MAX_RUNS];
    size_t config_count;
    const char *orders[64];
    size_t order_count;
    uint64_t reconfig_every;
    uint64_t limit;
    bool all;          /* -a: every configuration, which is the default anyway */
    bool json;
    int engine;        /* ENGINE_AUTO, ENGINE_STACK or ENGINE_MODEL */
    const char *energy_path;
    const char *geometry_list; /* -g's list, applied once every option is read */
    stc_energy_table energy_table;
} options;

static const char program[] = "stcsim";

/* The options that take a value; the rest are flags or the trace. */
static const char *const valued_options[] = {
    "-f",      "--format", "-c",       "--config", "-g",       "--geometry", "--reconfig-every",
    "--order", "--limit",  "--engine", "--energy", NULL,
};

/* One option of valued_options with its value. Returns STC_CLI_PARSED or
 * STC_CLI_BAD_USAGE after a message. */
static int parse_valued(void *context, const char *arg, const char *value)
{
    static const char *const engine_names[] = {"stack", "model", NULL};
    static const int engines[] = {ENGINE_STACK, ENGINE_MODEL};
    options *opts = context;
    int engine;
    if (stc_cli_is_option(arg, "-f", "--format")) {
        return stc_cli_format_option(program, value, &opts->format);
    } else if (stc_cli_is_option(arg, "-c", "--config")) {
        if (opts->config_count == MAX_RUNS) {
            return stc_cli_usage_error(program, "too many --config options (%s)", value);
        }
        opts->config_names[opts->config_count++] = value;
    } else if (stc_cli_is_option(arg, "-g", "--geometry")) {
        opts->geometry_list = value;
    } else if (!strcmp(arg, "--reconfig-every")) {
        return stc_cli_count_option(program, arg, value, 1, UINT64_MAX,
                                    "a positive number of references", &opts->reconfig_every);
    } else if (!strcmp(arg, "--order")) {
        if (opts->order_count == sizeof opts->orders / sizeof opts->orders[0]) {
            return stc_cli_usage_error(program, "too many --order options (%s)", value);
        }
        opts->orders[opts->order_count++] = value;
    } else if (!strcmp(arg, "--energy")) {
        opts->energy_path = value;
    } else if (!strcmp(arg, "--engine")) {
        if (stc_cli_choice_option(program, arg, value, engine_names, &engine) !=
            STC_CLI_PARSED) {
            return STC_CLI_BAD_USAGE;
        }
        opts->engine = engines[engine];
    } else {
        return stc_cli_limit_option(program, value, &opts->limit);
    }
    return STC_CLI_PARSED;
}

/* Once every option is read: the geometry and energy table they name, the
 * engine's default, and the options that do not go together. Returns
 * STC_CLI_PARSED or STC_CLI_BAD_USAGE after a message. */
static int finish_options(options *opts)
{
    char err[ERR_LEN];
    if (!opts->trace_path) {
        return stc_cli_usage_error(program,
                                   "no trace given (a file, or - for stdin; see --help)");
    }
    if (opts->geometry_list &&
        stc_geometry_parse(&opts->geometry, opts->geometry_list, err, sizeof err) != 0) {
        return stc_cli_usage_error(program, "--geometry: %s", err);
    }
    if (!opts->geometry_list && stc_geometry_init(&opts->geometry, err, sizeof err) != 0) {
        return stc_cli_usage_error(program, "%s", err);
    }
    if (opts->energy_path) {
        if (stc_energy_load(&opts->geometry, opts->energy_path, &opts->energy_table, err,
                            sizeof err) != 0) {
            return stc_cli_usage_error(program, "--energy: %s", err);
        }
    } else if (stc_energy_default(&opts->geometry, &opts->energy_table, err, sizeof err) != 0) {
        return stc_cli_usage_error(program, "%s", err);
    }
    /* One configuration is simulated faster by its own model than by a
     * stack pass that serves them all. */
    if (opts->engine == ENGINE_AUTO) {
        opts->engine = opts->config_count == 1 ? ENGINE_MODEL : ENGINE_STACK;
    }
    if (opts->order_count && !opts->reconfig_every) {
        return stc_cli_usage_error(program, "--order needs --reconfig-every N");
    }
    if (opts->reconfig_every && opts->config_count) {
        return stc_cli_usage_error(program, "--config and --reconfig-every do not mix: give the "
                                            "configurations as --order list:CFG,CFG,...");
    }
    return STC_CLI_PARSED;
}

static bool *flag_of(void *context, const char *arg)
{
    options *opts = context;
    return stc_cli_is_option(arg, "-a", "--all") ? &opts->all
           : !strcmp(arg, "--json")              ? &opts->json
                                                 : NULL;
}

static int take_trace(void *context, const char *arg)
{
    options *opts = context;
    if (opts->trace_path) {
        return stc_cli_usage_error(
            program, "more than one trace given ('%s'); stcsim reads one trace", arg);
    }
    opts->trace_path = arg;
    return STC_CLI_PARSED;
}

/* Returns STC_CLI_PARSED, STC_CLI_HELP_SHOWN, or STC_CLI_BAD_USAGE after a
 * message. */
static int parse_options(int argc, char **argv, options *opts)
{
    static const stc_cli_grammar grammar = {
        .program = program, .usage_text = usage_text, .valued = valued_options,
        .flag = flag_of, .operand = take_trace, .option = parse_valued};
    memset(opts, 0, sizeof *opts);
    stc_geometry_default(&opts->geometry);
    int status = stc_cli_parse(&grammar, opts, argc, argv);
    return status == STC_CLI_PARSED ? finish_options(opts) : status;
}

/* Build the schedule of an order; returns -1 with a message. */
static int build_schedule(const stc_geometry *geometry, const char *order, sim_run *run, char *err,
                          size_t err_len)
{
    stc_config all[STC_MAX_CONFIGS];
    size_t total = stc_config_enumerate(geometry, all, STC_MAX_CONFIGS);
    snprintf(run->name, sizeof run->name, "order:%s", order);
    if (!strcmp(order, "ascending") || !strcmp(order, "descending")) {
        run->schedule = calloc(total, sizeof *run->schedule);
        if (!run->schedule) {
            snprintf(err, err_len, "out of memory");
            return -1;
        }
        for (size_t index = 0; index < total; index++) {
            run->schedule[index] = all[order[0] == 'a' ? index : total - 1 - index];
        }
        run->schedule_len = total;
    } else if (!strncmp(order, "random:", 7)) {
        uint64_t seed;
        if (stc_parse_count(order + 7, &seed) != 0) {
            snprintf(err, err_len, "--order '%s': random needs a decimal seed, e.g. random:1",
                     order);
            return -1;
        }
        /* A fixed-length pseudo-random sequence, reproducible from the seed. */
        enum { RANDOM_SCHEDULE = 4096 };
        run->schedule = calloc(RANDOM_SCHEDULE, sizeof *run->schedule);
        if (!run->schedule) {
            snprintf(err, err_len, "out of memory");
            return -1;
        }
        uint64_t state = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        for (size_t index = 0; index < RANDOM_SCHEDULE; index++) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            run->schedule[index] = all[(state >> 33) % total];
        }
        run->schedule_len = RANDOM_SCHEDULE;
    } else if (!strncmp(order, "list:", 5)) {
        const char *cursor = order + 5;
        size_t count = 1;
        for (const char *scan = cursor; *scan; scan++) {
            count += *scan == ',';
        }
        run->schedule = calloc(count, sizeof *run->schedule);
        if (!run->schedule) {
            snprintf(err, err_len, "out of memory");
            return -1;
        }
        for (size_t index = 0; index < count; index++) {
            char name[STC_CONFIG_NAME_MAX];
            const char *comma = strchr(cursor, ',');
            size_t len = comma ? (size_t)(comma - cursor) : strlen(cursor);
            if (len >= sizeof name) {
                len = sizeof name - 1;
            }
            memcpy(name, cursor, len);
            name[len] = '\0';
            if (stc_config_parse(geometry, name, &run->schedule[index], err, err_len) != 0) {
                return -1;
            }
            cursor = comma ? comma + 1 : cursor + len;
        }
        run->schedule_len = count;
    } else {
        snprintf(err, err_len,
                 "--order '%s': expected ascending, descending, random:SEED or list:CFG,CFG,...",
                 order);
        return -1;
    }
    run->config = run->schedule[0];
    return 0;
}

static int setup_runs(const options *opts, sim_run *runs, size_t *run_count, char *err,
                      size_t err_len)
{
    const stc_geometry *geometry = &opts->geometry;
    size_t count = 0;
    if (opts->reconfig_every) {
        const char *default_order = "ascending";
        size_t orders = opts->order_count ? opts->order_count : 1;
        for (size_t index = 0; index < orders; index++) {
            const char *order = opts->order_count ? opts->orders[index] : default_order;
            sim_run *run = &runs[count++];
            run->has_system = true;
            if (build_schedule(geometry, order, run, err, err_len) != 0 ||
                stc_system_init_scheduled(&run->system, geometry, run->schedule,
                                          run->schedule_len, opts->reconfig_every, err,
                                          err_len) != 0) {
                *run_count = count;
                return -1;
            }
            stc_system_track_energy(&run->system, &opts->energy_table);
        }
    } else if (opts->config_count) {
        for (size_t index = 0; index < opts->config_count; index++) {
            sim_run *run = &runs[count++];
            if (stc_config_parse(geometry, opts->config_names[index], &run->config, err,
                                 err_len) != 0) {
                *run_count = count;
                return -1;
            }
            stc_config_name(geometry, &run->config, run->name, sizeof run->name);
            run->has_system = opts->engine == ENGINE_MODEL;
            if (run->has_system &&
                stc_system_init(&run->system, geometry, &run->config, err, err_len) != 0) {
                *run_count = count;
                return -1;
            }
        }
    } else {
        stc_config all[STC_MAX_CONFIGS];
        size_t total = stc_config_enumerate(geometry, all, STC_MAX_CONFIGS);
        for (size_t index = 0; index < total; index++) {
            sim_run *run = &runs[count++];
            run->config = all[index];
            stc_config_name(geometry, &run->config, run->name, sizeof run->name);
            run->has_system = opts->engine == ENGINE_MODEL;
            if (run->has_system &&
                stc_system_init(&run->system, geometry, &run->config, err, err_len) != 0) {
                *run_count = count;
                return -1;
            }
        }
    }
    *run_count = count;
    return 0;
}

typedef struct {
    uint64_t by_kind[4];
    uint64_t truncated;
    uint64_t total;
} trace_totals;

/* What the reading thread derives from each batch (the pipeline's prepare
 * step), per slot of the pipeline: the filtered batch every engine reads,
 * and the batch's own reference counts. */
typedef struct {
    stc_filtered_batch filtered;
    trace_totals totals;
} prepared_batch;

typedef struct {
    uint64_t addr_mask;
    stc_repeat_filter filter; /* the reading thread's alone */
    prepared_batch slots[STC_REF_PIPELINE_SLOTS];
    stc_stack_sweep *stack;   /* the worker runs its I-cache half */
} shared_batches;

static void prepare_batch(void *context, unsigned slot, const stc_ref *refs, size_t count)
{
    shared_batches *shared = context;
    prepared_batch *prepared = &shared->slots[slot];
    /* Counters in locals, compared rather than indexed by kind: a memory
     * counter per kind would chain every reference of a run of one kind
     * through store-to-load forwarding. */
    uint64_t loads = 0, stores = 0, modifies = 0, truncated = 0;
    for (size_t index = 0; index < count; index++) {
        unsigned kind = refs[index].kind & 3;
        loads += kind == STC_REF_LOAD;
        stores += kind == STC_REF_STORE;
        modifies += kind == STC_REF_MODIFY;
        truncated += (refs[index].addr & ~shared->addr_mask) != 0;
    }
    prepared->totals = (trace_totals){{0}, truncated, count};
    prepared->totals.by_kind[STC_REF_IFETCH] = count - loads - stores - modifies;
    prepared->totals.by_kind[STC_REF_LOAD] = loads;
    prepared->totals.by_kind[STC_REF_STORE] = stores;
    prepared->totals.by_kind[STC_REF_MODIFY] = modifies;
    stc_repeat_filter_run(&shared->filter, refs, count, &prepared->filtered);
}

static void run_icache_half(void *context, unsigned slot, const stc_ref *refs, size_t count)
{
    shared_batches *shared = context;
    (void)refs;
    (void)count;
    stc_stack_sweep_run_cache(shared->stack, STC_ICACHE, &shared->slots[slot].filtered);
}

/* Everything the caller's thread does with one batch. With `split` the
 * stack sweep's I-cache is the worker's (run_icache_half). */
static void use_batch(sim_run *runs, size_t run_count, stc_stack_sweep *stack, bool split,
                      const prepared_batch *prepared, const stc_ref *batch, size_t count,
                      trace_totals *totals)
{
    for (size_t kind = 0; kind < 4; kind++) {
        totals->by_kind[kind] += prepared->totals.by_kind[kind];
    }
    totals->truncated += prepared->totals.truncated;
    totals->total += prepared->totals.total;
    if (split) {
        stc_stack_sweep_run_cache(stack, STC_DCACHE, &prepared->filtered);
        return;
    }
    if (stack) {
        stc_stack_sweep_run(stack, &prepared->filtered);
    }
    for (size_t run = 0; run < run_count; run++) {
        if (runs[run].schedule) {
            stc_system_run(&runs[run].system, batch, count);
        } else if (runs[run].has_system) {
            stc_sweep_run(&runs[run].system, &prepared->filtered);
        }
    }
}

/* Read the whole trace (or --limit references) through every run: the
 * reading on its own thread, and when the stack sweep is all there is,
 * its I-cache on a third (ref/ref_pipeline.h); each run's state is
 * touched by one thread, in trace order, so the counters do not depend on
 * the threads. Returns 0, or 1 after printing the trace's error (the
 * pipeline has then been finished). */
static int simulate_trace(const options *opts, stc_trace *trace, sim_run *runs, size_t run_count,
                          stc_stack_sweep *stack, trace_totals *totals)
{
    char err[ERR_LEN];
    bool split = stack != NULL;
    for (size_t run = 0; run < run_count; run++) {
        split = split && !runs[run].has_system;
    }
    shared_batches *shared = calloc(1, sizeof *shared);
    stc_ref_pipeline *pipeline = NULL;
    int status = 1;
    bool allocated = shared != NULL;
    for (size_t slot = 0; allocated && slot < STC_REF_PIPELINE_SLOTS; slot++) {
        stc_filtered_batch *filtered = &shared->slots[slot].filtered;
        filtered->ifetch = malloc(BATCH_REFS * sizeof *filtered->ifetch);
        filtered->data = malloc(BATCH_REFS * sizeof *filtered->data);
        allocated = filtered->ifetch && filtered->data;
    }
    if (allocated) {
        shared->addr_mask = opts->geometry.addr_mask;
        shared->stack = stack;
        stc_repeat_filter_init(&shared->filter, &opts->geometry);
        stc_ref_pipeline_spec spec = {
            .trace = trace,
            .batch_refs = BATCH_REFS,
            .limit = opts->limit,
            .prepare = prepare_batch,
            .prepare_context = shared,
            .worker = split ? run_icache_half : NULL,
            .worker_context = shared,
            .threads = true,
        };
        pipeline = stc_ref_pipeline_start(&spec, err, sizeof err);
    }
    if (!pipeline) {
        stc_cli_message(program, "%s", allocated ? err : "out of memory");
        goto done;
    }
    bool progress = isatty(STDERR_FILENO);
    uint64_t next_progress = 1u << 24;
    const stc_ref *batch;
    unsigned slot;
    long got;
    while ((got = stc_ref_pipeline_next(pipeline, &batch, &slot)) > 0) {
        use_batch(runs, run_count, stack, split, &shared->slots[slot], batch, (size_t)got, totals);
        if (progress && totals->total >= next_progress) {
            fprintf(stderr, "\rstcsim: %" PRIu64 " M references", totals->total >> 20);
            next_progress += 1u << 24;
        }
    }
    if (progress && totals->total >= (1u << 24)) {
        fputc('\n', stderr);
    }
    stc_ref_pipeline_finish(pipeline);
    status = 0;
    if (got < 0) {
        stc_cli_message(program, "%s", stc_trace_error(trace));
        status = 1;
    }
done:
    for (size_t index = 0; shared && index < STC_REF_PIPELINE_SLOTS; index++) {
        free(shared->slots[index].filtered.ifetch);
        free(shared->slots[index].filtered.data);
    }
    free(shared);
    return status;
}

static void print_energy_json(const char *label, const stc_energy *energy)
{
    printf("\"%s\":{\"probe_nj\":%.6f,\"miss_nj\":%.6f,\"static_nj\":%.6f,"
           "\"writeback_nj\":%.6f,\"reconfig_nj\":%.6f,\"total_nj\":%.6f}",
           label, energy->probe_nj, energy->miss_nj, energy->static_nj, energy->writeback_nj,
           energy->reconfig_nj, energy->total_nj);
}

static void print_cache_json(const char *label, const stc_counters *counters, bool last)
{
    printf("\"%s\":{\"requests\":%" PRIu64 ",\"request_misses\":%" PRIu64 ",\"accesses\":%" PRIu64
           ",\"reads\":%" PRIu64 ",\"writes\":%" PRIu64 ",\"misses\":%" PRIu64
           ",\"read_misses\":%" PRIu64 ",\"write_misses\":%" PRIu64
           ",\"first_probe_hits\":%" PRIu64 ",\"second_probe_hits\":%" PRIu64 ",\"fills\":%" PRIu64
           ",\"fill_bursts\":%" PRIu64 ",\"writebacks\":%" PRIu64 ",\"cycles\":%" PRIu64
           ",\"reconfigs\":%" PRIu64 ",\"reconfig_cycles\":%" PRIu64
           ",\"walk_writebacks\":%" PRIu64 ",\"walk_invalidations\":%" PRIu64
           ",\"walk_rows\":%" PRIu64 ",\"banks_woken\":%" PRIu64 "}%s",
           label, counters->requests, counters->request_misses, counters->accesses,
           counters->reads, counters->writes, counters->misses, counters->read_misses,
           counters->write_misses, counters->first_probe_hits, counters->second_probe_hits,
           counters->fills, counters->fill_bursts, counters->writebacks, counters->cycles,
           counters->reconfigs, counters->reconfig_cycles, counters->walk_writebacks,
           counters->walk_invalidations, counters->walk_rows, counters->banks_woken,
           last ? "" : ",");
}

static void print_json(const options *opts, stc_trace_format format, const trace_totals *totals,
                       const sim_run *runs, size_t run_count)
{
    const stc_geometry *geometry = &opts->geometry;
    printf("{\"trace\":");
    stc_json_print_string(opts->trace_path);
    printf(",\"format\":\"%s\",\n", stc_trace_format_name(format));
    printf("\"geometry\":{\"banks\":%u,\"bank_bytes\":%u,\"line_bytes\":%u,\"addr_bits\":%u,"
           "\"mem_latency\":%u,\"wake_cycles\":%u},\n",
           geometry->banks, geometry->bank_bytes, geometry->line_bytes, geometry->addr_bits,
           geometry->mem_latency, geometry->wake_cycles);
    printf("\"references\":{\"ifetch\":%" PRIu64 ",\"load\":%" PRIu64 ",\"store\":%" PRIu64
           ",\"modify\":%" PRIu64 ",\"truncated\":%" PRIu64 "},\n",
           totals->by_kind[STC_REF_IFETCH], totals->by_kind[STC_REF_LOAD],
           totals->by_kind[STC_REF_STORE], totals->by_kind[STC_REF_MODIFY], totals->truncated);
    if (opts->reconfig_every) {
        printf("\"reconfig_every\":%" PRIu64 ",\n", opts->reconfig_every);
    }
    printf("\"energy_table\":");
    stc_json_print_string(opts->energy_table.source);
    printf(",\n");
    printf("\"configs\":[\n");
    for (size_t index = 0; index < run_count; index++) {
        const sim_run *run = &runs[index];
        const stc_config *config = &run->config;
        printf(" {\"name\":");
        stc_json_print_string(run->name);
        printf(",\"size_bytes\":%lu,\"ways\":%u,\"line_bytes\":%u,\"way_prediction\":%s,",
               stc_config_size_bytes(geometry, config), config->ways,
               stc_config_line_bytes(geometry, config), config->way_predict ? "true" : "false");
        print_cache_json("icache", &run->icache, false);
        print_cache_json("dcache", &run->dcache, false);
        printf("\"energy\":{");
        print_energy_json("icache", &run->ienergy);
        putchar(',');
        print_energy_json("dcache", &run->denergy);
        printf(",\"total_nj\":%.6f}", run->ienergy.total_nj + run->denergy.total_nj);
        printf("}%s\n", index + 1 < run_count ? "," : "");
    }
    printf("]}\n");
}

static double percent(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void print_table(const options *opts, stc_trace_format format, const trace_totals *totals,
                        const sim_run *runs, size_t run_count)
{
    const stc_geometry *geometry = &opts->geometry;
    printf("trace %s (%s): %" PRIu64 " references: %" PRIu64 " fetch, %" PRIu64 " load, %" PRIu64
           " store, %" PRIu64 " modify\n",
           opts->trace_path, stc_trace_format_name(format), totals->total,
           totals->by_kind[STC_REF_IFETCH], totals->by_kind[STC_REF_LOAD],
           totals->by_kind[STC_REF_STORE], totals->by_kind[STC_REF_MODIFY]);
    printf("geometry: %u banks x %u B, %u B physical lines, %u-bit addresses, memory latency %u, "
           "wake %u\n",
           geometry->banks, geometry->bank_bytes, geometry->line_bytes, geometry->addr_bits,
           geometry->mem_latency, geometry->wake_cycles);
    if (totals->truncated) {
        printf("note: %" PRIu64 " references had address bits above bit %u; they were taken "
               "modulo 2^%u (raise addr_bits with --geometry to keep them)\n",
               totals->truncated, geometry->addr_bits - 1, geometry->addr_bits);
    }
    if (opts->reconfig_every) {
        printf("reconfiguration every %" PRIu64 " references\n", opts->reconfig_every);
    }
    bool show_reconfig = opts->reconfig_every != 0;
    printf("%-24s %12s %11s %7s %12s %11s %7s %10s %13s %13s", "config", "I-requests",
           "I-misses", "I-miss%", "D-requests", "D-misses", "D-miss%", "D-wbacks", "I-cycles",
           "D-cycles");
    if (show_reconfig) {
        printf(" %9s %12s %11s", "reconfigs", "reconf-cyc", "walk-wb");
    }
    putchar('\n');
    for (size_t index = 0; index < run_count; index++) {
        const stc_counters *icounters = &runs[index].icache;
        const stc_counters *dcounters = &runs[index].dcache;
        printf("%-24s %12" PRIu64 " %11" PRIu64 " %7.3f %12" PRIu64 " %11" PRIu64 " %7.3f %10" PRIu64
               " %13" PRIu64 " %13" PRIu64,
               runs[index].name, icounters->requests, icounters->request_misses,
               percent(icounters->request_misses, icounters->requests), dcounters->requests,
               dcounters->request_misses, percent(dcounters->request_misses, dcounters->requests),
               dcounters->writebacks, icounters->cycles, dcounters->cycles);
        if (show_reconfig) {
            printf(" %9" PRIu64 " %12" PRIu64 " %11" PRIu64,
                   icounters->reconfigs + dcounters->reconfigs,
                   icounters->reconfig_cycles + dcounters->reconfig_cycles,
                   icounters->walk_writebacks + dcounters->walk_writebacks);
        }
        putchar('\n');
    }
    printf("\nenergy in uJ (table: %s)\n", opts->energy_table.source);
    /* Relative to the seed's conventional cache (largest size, all ways,
     * 2-line logical line: 8K_4W_32B by default) when it is among the runs,
     * else to the first run. */
    stc_config conventional = {geometry->banks, geometry->banks, 2, false};
    size_t base = 0;
    for (size_t index = 0; index < run_count; index++) {
        if (!runs[index].schedule && stc_config_equal(&runs[index].config, &conventional)) {
            base = index;
            break;
        }
    }
    char relative[STC_CONFIG_NAME_MAX + 72];
    snprintf(relative, sizeof relative, "vs-%s", runs[base].name);
    printf("%-24s %9s %9s %9s %9s %9s %9s %9s %9s %10s %s\n", "config", "I-probe", "I-miss",
           "I-static", "D-probe", "D-miss", "D-static", "D-wback", "reconfig", "total", relative);
    double first_total = runs[base].ienergy.total_nj + runs[base].denergy.total_nj;
    for (size_t index = 0; index < run_count; index++) {
        const stc_energy *ienergy = &runs[index].ienergy;
        const stc_energy *denergy = &runs[index].denergy;
        double total = ienergy->total_nj + denergy->total_nj;
        printf("%-24s %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %10.2f %9.3f\n",
               runs[index].name, ienergy->probe_nj / 1e3, ienergy->miss_nj / 1e3,
               ienergy->static_nj / 1e3, denergy->probe_nj / 1e3, denergy->miss_nj / 1e3,
               denergy->static_nj / 1e3, (ienergy->writeback_nj + denergy->writeback_nj) / 1e3,
               (ienergy->reconfig_nj + denergy->reconfig_nj) / 1e3, total / 1e3,
               first_total > 0 ? total / first_total : 0.0);
    }
}

/* `stcsim tune|explore|coherence ...`: the subcommand's own program, with
 * argv[0] naming it ("stcsim tune") for its messages. Returns false when
 * argv names no subcommand (plain stcsim), else true with its exit status. */
static bool run_subcommand(int argc, char **argv, int *exit_status)
{
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } subcommands[] = {
        {"tune", stc_tune_main},
        {"explore", stc_explore_main},
        {"coherence", stc_coh_main},
    };
    for (size_t index = 0; argc > 1 && index < sizeof subcommands / sizeof subcommands[0];
         index++) {
        if (!strcmp(argv[1], subcommands[index].name)) {
            char name[32];
            snprintf(name, sizeof name, "stcsim %s", subcommands[index].name);
            argv[1] = name;
            *exit_status = subcommands[index].run(argc - 1, argv + 1);
            return true;
        }
    }
    return false;
}

/* The runs' caches and, when any run is left to the stack sweep, the sweep
 * (*stack, NULL when none is). Returns 0, or the exit status after a
 * message: 2 for a configuration or order the options named, 1 else. */
static int prepare_runs(const options *opts, sim_run *runs, size_t *run_count,
                        stc_stack_sweep **stack)
{
    char err[ERR_LEN];
    if (setup_runs(opts, runs, run_count, err, sizeof err) != 0) {
        stc_cli_message(program, "%s", err);
        return 2;
    }
    for (size_t run = 0; run < *run_count; run++) {
        if (!runs[run].has_system && !*stack) {
            *stack = stc_stack_sweep_create(&opts->geometry, err, sizeof err);
            if (!*stack) {
                stc_cli_message(program, "%s", err);
                return 1;
            }
        }
    }
    return 0;
}

/* Each run's counters and energy, from its own caches or the stack sweep. */
static void gather_results(const options *opts, sim_run *runs, size_t run_count,
                           const stc_stack_sweep *stack)
{
    for (size_t run = 0; run < run_count; run++) {
        sim_run *result = &runs[run];
        if (result->has_system) {
            result->icache = *stc_cache_counters(result->system.icache);
            result->dcache = *stc_cache_counters(result->system.dcache);
        } else {
            stc_stack_sweep_counters(stack, &result->config, STC_ICACHE, &result->icache);
            stc_stack_sweep_counters(stack, &result->config, STC_DCACHE, &result->dcache);
        }
        /* A schedule's energy depends on when each configuration ran, which
         * only its system knows; a fixed configuration's follows from its
         * counters. */
        if (result->schedule) {
            stc_system_charge_energy(&result->system);
            result->ienergy = result->system.energy[0];
            result->denergy = result->system.energy[1];
        } else {
            result->ienergy = stc_energy_of(&opts->energy_table, &result->config, &result->icache);
            result->denergy = stc_energy_of(&opts->energy_table, &result->config, &result->dcache);
        }
    }
}

/* Read the trace through the runs, then print the report. Returns the exit
 * status: 0, or 1 after a message. */
static int simulate_and_report(const options *opts, sim_run *runs, size_t run_count,
                               stc_stack_sweep *stack)
{
    char err[ERR_LEN];
    stc_trace *trace = stc_trace_open(opts->trace_path, opts->format, err, sizeof err);
    if (!trace) {
        stc_cli_message(program, "%s", err);
        return 1;
    }
    trace_totals totals = {{0}, 0, 0};
    if (simulate_trace(opts, trace, runs, run_count, stack, &totals) != 0) {
        stc_trace_close(trace, err, sizeof err);
        return 1;
    }
    /* The format before closing: "auto" has become the one detected. */
    stc_trace_format format = stc_trace_format_of(trace);
    if (stc_trace_close(trace, err, sizeof err) != 0) {
        stc_cli_message(program, "%s", err);
        return 1;
    }
    gather_results(opts, runs, run_count, stack);
    if (opts->json) {
        print_json(opts, format, &totals, runs, run_count);
    } else {
        print_table(opts, format, &totals, runs, run_count);
    }
    return stc_cli_finish_report(program);
}

static void free_runs(sim_run *runs, size_t run_count)
{
    for (size_t run = 0; run < run_count; run++) {
        if (runs[run].has_system) {
            stc_system_free(&runs[run].system);
        }
        free(runs[run].schedule);
    }
    free(runs);
}

int main(int argc, char **argv)
{
    int exit_status;
    if (run_subcommand(argc, argv, &exit_status)) {
        return exit_status;
    }
    options opts;
    int status = parse_options(argc, argv, &opts);
    if (status != STC_CLI_PARSED) {
        return status == STC_CLI_HELP_SHOWN ? 0 : status;
    }
    sim_run *runs = calloc(MAX_RUNS, sizeof *runs);
    if (!runs) {
        stc_cli_message(program, "out of memory");
        return 1;
    }
    size_t run_count = 0;
    stc_stack_sweep *stack = NULL;
    exit_status = prepare_runs(&opts, runs, &run_count, &stack);
    if (exit_status == 0) {
        exit_status = simulate_and_report(&opts, runs, run_count, stack);
    }
    stc_stack_sweep_destroy(stack);
    free_runs(runs, run_count);
    return exit_status;
}
