/*
 * tune_cli.c - `stcsim tune`: tune the I- and D-cache of each trace and
 * print one row per trace in the manner of the seed's Table 1
 * (docs/TUNING.md explains every column).
 *
 * Every trace is read to the end before anything is printed, so a failure
 * leaves nothing on stdout. Exit status: 0, 1 for a trace that cannot be
 * read (the reader's FILE:LINE message), 2 for bad usage.
 */
#include "commands.h"
#include "options.h"
#include "count.h"
#include "json.h"
#include "monitor_tuner.h"
#include "tune.h"

#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BATCH_REFS = 1 << 16, ERR_LEN = 512 };

static const char usage_text[] =
    "usage: stcsim tune [options] TRACE...\n"
    "Tune the I-cache and the D-cache of each trace (a file, or - for stdin; plain,\n"
    "gzip or zstd) and print one row per trace: the chosen configurations, how many\n"
    "were examined, energy saved against two conventional caches, whether the\n"
    "optimum was found, cycles lost.\n"
    "\n"
    "      --mode MODE          oracle (default): every configuration judged on the\n"
    "                           whole trace; hardware: the trace drives the cache,\n"
    "                           each candidate is measured over a window\n"
    "      --search KIND        monitor (hardware mode's default: stcgen's default\n"
    "                           tuner, stc_monitor + stc_monitor_tuner), heuristic\n"
    "                           (the seed's search, stcgen --tuner seed; oracle\n"
    "                           mode's default), exhaustive, or probe (hardware\n"
    "                           mode, model only): monitor estimates every\n"
    "                           configuration from shadow tags of every set mapping\n"
    "                           watching the whole run and decides every window;\n"
    "                           probe from LRU-depth hit counts in one probe window\n"
    "                           per set mapping and line\n"
    "      --margin M           leave the best (heuristic) or the configuration in use\n"
    "                           (probe, monitor) only for one lower by more than 1/2^M\n"
    "                           (default: monitor 7, others 0)\n"
    "      --probe-rounds R     probe: rounds through the probe windows (default 1)\n"
    "      --sample-bits K      monitor: watch 1/2^K of the sets (default 2; 0: all)\n"
    "      --decay D            monitor: shift its counts right by D after each\n"
    "                           decision (default 0: counts of the whole run)\n"
    "      --rotate N           monitor: move the watched sample to the next group\n"
    "                           of sets every N accesses, the next group inheriting\n"
    "                           the stacks (a monitor storing only the sample;\n"
    "                           default 20480; 0: a fixed sample)\n"
    "      --rotate-empty       monitor: empty the stacks when the sample moves\n"
    "                           (and walk them clear again) instead (model only)\n"
    "      --tag-bits T         monitor: shadow tags of T bits (default 6; 0: whole)\n"
    "      --counter-bits C     monitor: C-bit counts, all halved when one fills\n"
    "                           (default 14; 0: unbounded)\n"
    "                           (the monitor's lookups and leakage are charged in\n"
    "                           the run's energy)\n"
    "      --timeline N         hardware: each cache's energy so far every N of its\n"
    "                           accesses and at the end, its configuration and\n"
    "                           changes so far, beside the two conventional caches'\n"
    "                           energy so far (a table after the rows, or \"timeline\"\n"
    "                           in each cache's JSON; TUNING.md 4.1)\n"
    "      --walk-min N         monitor: offer a change that walks the banks (fewer\n"
    "                           banks, or more bank groups) only from a decision\n"
    "                           on at least N watched accesses (default 256; 0: any)\n"
    "      --no-walk-moves      hardware: a walk drops every line it takes, as stcgen\n"
    "                           --no-walk-moves builds it (default: a line whose bank\n"
    "                           is no longer a candidate, or goes off, moves to a free\n"
    "                           slot of one of its candidates in the same row, and only\n"
    "                           what finds none is dropped; each move charged a line\n"
    "                           read and write and a cycle, ARCHITECTURE.md 7)\n"
    "      --remeasure          heuristic: measure the best again before a candidate\n"
    "                           that follows a rejected one\n"
    "      --order LIST         the heuristic's parameter order, a permutation of\n"
    "                           size,line,assoc,wp (default size,line,assoc,wp)\n"
    "      --descending         walk each parameter from its largest value down\n"
    "      --window N           hardware: accesses per measurement window (default\n"
    "                           monitor 256, others 1024; at most 65535: the seed\n"
    "                           tuner's counters are 16 bits)\n"
    "      --warmup N           hardware: accesses run unmeasured after each change\n"
    "                           (default 0)\n"
    "      --retune-every M     hardware: search again after M accesses in the chosen\n"
    "                           configuration\n"
    "      --phase-threshold P  hardware: search again when a window's misses differ\n"
    "                           from the tuned window's by more than P percent\n"
    "      --energy FILE        energy table (docs/ENERGY.md); default: built in\n"
    "  -g, --geometry LIST      e.g. banks=8,bank_bytes=1024 (as for stcsim)\n"
    "  -f, --format FMT         auto (default), din or lackey\n"
    "      --limit N            stop each trace after N references\n"
    "      --json               machine-readable output\n"
    "  -h, --help               this text\n";

/* One cache's timeline, copied out of its run. */
typedef struct {
    stc_timeline_point *points;
    size_t count;
} timeline_copy;

typedef struct {
    const char **traces;
    size_t trace_count;
    stc_trace_format format;
    stc_geometry geometry;
    stc_energy_table table;
    stc_tune_options tune;
    bool hardware;
    uint64_t limit;
    bool json;
} tune_options;

static const char program[] = "stcsim tune";

/* The options that take a value; the rest are flags or traces. */
static const char *const valued_options[] = {
    "--mode",   "--search", "--order", "--window", "--warmup",   "--retune-every",
    "--phase-threshold", "--energy", "-g", "--geometry", "-f", "--format", "--limit",
    "--margin", "--probe-rounds", "--sample-bits", "--decay", "--rotate", "--tag-bits",
    "--counter-bits", "--walk-min", "--timeline", NULL,
};

/* What parse_options remembers across options: what is applied once all
 * are read, and what decides defaults and checks that depend on others. */
typedef struct {
    const char *geometry_list;
    const char *energy_path;
    const char *hardware_only; /* the last hardware-mode option given, for the oracle check */
    bool order_given, search_given, window_given, margin_given;
    bool no_walk_moves; /* --no-walk-moves */
} options_given;

/* stc_cli_parse's context: the options and what is remembered across them. */
typedef struct {
    tune_options *opts;
    options_given given;
} tune_parse;

/* A hardware-mode option that sets one number of stc_tune_options. */
typedef struct {
    const char *name;
    uint64_t min, max;
    bool not_one;         /* 1 is refused too (the monitor takes 0 or 2..32) */
    const char *expected; /* the error message's "expected ..." */
    size_t offset;        /* of the field in stc_tune_options */
    bool wide;            /* the field is a uint64_t, else an unsigned */
} number_option;

static const number_option hardware_numbers[] = {
    {"--window", 1, ((uint64_t)1 << STC_FIXED_COUNTER_BITS) - 1, false,
     "1..65535 accesses (the tuner's counters are 16 bits)", offsetof(stc_tune_options, window),
     true},
    {"--warmup", 0, UINT64_MAX, false, "a number of accesses",
     offsetof(stc_tune_options, warmup), true},
    {"--retune-every", 1, UINT64_MAX, false, "a positive number of accesses",
     offsetof(stc_tune_options, retune_every), true},
    {"--phase-threshold", 0, 100000, false, "a percentage, 0..100000",
     offsetof(stc_tune_options, phase_threshold_percent), false},
    {"--rotate", 0, UINT64_MAX, false, "a count of accesses",
     offsetof(stc_tune_options, monitor_rotate), true},
    {"--probe-rounds", 1, 64, false, "1..64", offsetof(stc_tune_options, probe_rounds), false},
    {"--sample-bits", 0, 16, false, "0..16", offsetof(stc_tune_options, monitor_sample_bits),
     false},
    {"--decay", 0, 16, false, "a shift, 0..16", offsetof(stc_tune_options, monitor_decay), false},
    {"--tag-bits", 0, 32, false, "0..32", offsetof(stc_tune_options, monitor_tag_bits), false},
    {"--counter-bits", 0, 32, true, "0 (unbounded) or 2..32",
     offsetof(stc_tune_options, monitor_counter_bits), false},
    {"--walk-min", 0, 65535, false, "0..65535", offsetof(stc_tune_options, monitor_walk_min),
     false},
    {"--timeline", 1, UINT64_MAX, false, "a positive number of accesses",
     offsetof(stc_tune_options, timeline_interval), true},
};

static const number_option *hardware_number(const char *arg)
{
    for (size_t index = 0; index < sizeof hardware_numbers / sizeof hardware_numbers[0];
         index++) {
        if (!strcmp(arg, hardware_numbers[index].name)) {
            return &hardware_numbers[index];
        }
    }
    return NULL;
}

static int set_hardware_number(tune_options *opts, options_given *given,
                               const number_option *option, const char *value)
{
    uint64_t number = 0;
    if (stc_cli_count_in_range(value, option->min, option->max, &number) != 0 ||
        (option->not_one && number == 1)) {
        return stc_cli_bad_value(program, option->name, value, option->expected);
    }
    char *field = (char *)&opts->tune + option->offset;
    if (option->wide) {
        *(uint64_t *)field = number;
    } else {
        *(unsigned *)field = (unsigned)number;
    }
    /* The phase trigger is on exactly when its threshold is given. */
    if (!strcmp(option->name, "--phase-threshold")) {
        opts->tune.phase_trigger = true;
    }
    if (!strcmp(option->name, "--window")) {
        given->window_given = true; /* else the monitor search's default window */
    }
    given->hardware_only = option->name;
    return STC_CLI_PARSED;
}

/* --mode, --search, --order, --margin: how the search runs. */
static int parse_search_option(tune_options *opts, options_given *given, const char *arg,
                               const char *value)
{
    static const char *const modes[] = {"oracle", "hardware", NULL};
    static const char *const searches[] = {"heuristic", "exhaustive", "probe", "monitor", NULL};
    static const stc_search_kind search_kinds[] = {STC_SEARCH_HEURISTIC, STC_SEARCH_EXHAUSTIVE,
                                                   STC_SEARCH_PROBE, STC_SEARCH_MONITOR};
    char err[ERR_LEN];
    uint64_t number = 0;
    int choice = 0;
    if (!strcmp(arg, "--mode")) {
        if (stc_cli_choice_option(program, arg, value, modes, &choice) != STC_CLI_PARSED) {
            return STC_CLI_BAD_USAGE;
        }
        opts->hardware = !strcmp(modes[choice], "hardware");
    } else if (!strcmp(arg, "--search")) {
        given->search_given = true;
        if (stc_cli_choice_option(program, arg, value, searches, &choice) != STC_CLI_PARSED) {
            return STC_CLI_BAD_USAGE;
        }
        opts->tune.plan.kind = search_kinds[choice];
    } else if (!strcmp(arg, "--order")) {
        if (stc_search_order_parse(value, opts->tune.plan.order, err, sizeof err) != 0) {
            return stc_cli_usage_error(program, "--order: %s", err);
        }
        given->order_given = true;
    } else {
        if (stc_cli_count_option(program, arg, value, 0, 31, "a shift, 0..31", &number) !=
            STC_CLI_PARSED) {
            return STC_CLI_BAD_USAGE;
        }
        opts->tune.plan.margin_shift = (unsigned)number;
        given->margin_given = true;
    }
    return STC_CLI_PARSED;
}

/* One option of valued_options with its value. Returns STC_CLI_PARSED or
 * STC_CLI_BAD_USAGE after a message. */
static int parse_valued(void *context, const char *arg, const char *value)
{
    tune_parse *parse = context;
    tune_options *opts = parse->opts;
    options_given *given = &parse->given;
    static const char *const search_options[] = {"--mode", "--search", "--order", "--margin",
                                                  NULL};
    const number_option *number = hardware_number(arg);
    if (number) {
        return set_hardware_number(opts, given, number, value);
    } else if (stc_cli_is_one_of(arg, search_options)) {
        return parse_search_option(opts, given, arg, value);
    } else if (!strcmp(arg, "--energy")) {
        given->energy_path = value;
    } else if (stc_cli_is_option(arg, "-g", "--geometry")) {
        given->geometry_list = value;
    } else if (stc_cli_is_option(arg, "-f", "--format")) {
        return stc_cli_format_option(program, value, &opts->format);
    } else {
        return stc_cli_limit_option(program, value, &opts->limit);
    }
    return STC_CLI_PARSED;
}

/* The checks and defaults that depend on more than one option. */
static int check_combination(tune_options *opts, const options_given *given)
{
    if (opts->trace_count == 0) {
        return stc_cli_usage_error(
            program, "no trace given (one or more files, or - for stdin; see --help)");
    }
    size_t stdin_uses = 0;
    for (size_t index = 0; index < opts->trace_count; index++) {
        stdin_uses += !strcmp(opts->traces[index], "-");
    }
    if (stdin_uses > 1) {
        return stc_cli_usage_error(program, "standard input (-) can be read only once");
    }
    if (given->hardware_only && !opts->hardware) {
        return stc_cli_usage_error(program, "%s applies to --mode hardware only",
                                   given->hardware_only);
    }
    if (given->no_walk_moves) {
        opts->tune.walk_moves = false;
    }
    /* The hardware's default is the generator's default tuner, with its
     * defaults (TUNING.md 6). */
    if (opts->hardware && !given->search_given) {
        opts->tune.plan.kind = STC_SEARCH_MONITOR;
    }
    if (opts->tune.plan.kind == STC_SEARCH_MONITOR) {
        if (!given->window_given) {
            opts->tune.window = STC_MONITOR_TUNER_DEFAULT_WINDOW;
        }
        if (!given->margin_given) {
            opts->tune.plan.margin_shift = STC_MONITOR_TUNER_DEFAULT_MARGIN;
        }
    }
    if (given->order_given && opts->tune.plan.kind != STC_SEARCH_HEURISTIC) {
        return stc_cli_usage_error(program, "--order applies to --search heuristic only (the "
                                            "hardware mode's default search is monitor)");
    }
    return STC_CLI_PARSED;
}

/* The geometry and the energy table, and in hardware mode the table as the
 * tuner's fixed-point coefficients (which may not fit). */
static int load_tables(tune_options *opts, const options_given *given)
{
    char err[ERR_LEN];
    int geometry_status =
        given->geometry_list
            ? stc_geometry_parse(&opts->geometry, given->geometry_list, err, sizeof err)
            : stc_geometry_init(&opts->geometry, err, sizeof err);
    if (geometry_status != 0) {
        return stc_cli_usage_error(program, "--geometry: %s", err);
    }
    const char *energy_path = given->energy_path;
    int energy_status =
        energy_path ? stc_energy_load(&opts->geometry, energy_path, &opts->table, err, sizeof err)
                    : stc_energy_default(&opts->geometry, &opts->table, err, sizeof err);
    if (energy_status != 0) {
        return stc_cli_usage_error(program, energy_path ? "--energy: %s" : "energy model: %s",
                                   err);
    }
    if (opts->hardware) {
        stc_fixed_coefficients coefficients;
        if (stc_fixed_from_table(&opts->table, &coefficients, err, sizeof err) != 0) {
            return stc_cli_usage_error(program,
                                       "energy table cannot be loaded into the tuner: %s", err);
        }
    }
    return STC_CLI_PARSED;
}

static bool *flag_of(void *context, const char *arg)
{
    tune_parse *parse = context;
    tune_options *opts = parse->opts;
    if (!strcmp(arg, "--no-walk-moves")) {
        parse->given.hardware_only = arg;
        return &parse->given.no_walk_moves;
    }
    return !strcmp(arg, "--json")         ? &opts->json
           : !strcmp(arg, "--descending") ? &opts->tune.plan.descending
           : !strcmp(arg, "--remeasure")  ? &opts->tune.plan.remeasure
           : !strcmp(arg, "--rotate-empty") ? &opts->tune.monitor_rotate_empty
                                          : NULL;
}

static int take_trace(void *context, const char *arg)
{
    tune_options *opts = ((tune_parse *)context)->opts;
    opts->traces[opts->trace_count++] = arg;
    return STC_CLI_PARSED;
}

/* Returns STC_CLI_PARSED, STC_CLI_HELP_SHOWN, or STC_CLI_BAD_USAGE after a
 * message. */
static int parse_options(int argc, char **argv, tune_options *opts)
{
    static const stc_cli_grammar grammar = {
        .program = program, .usage_text = usage_text, .valued = valued_options,
        .flag = flag_of, .operand = take_trace, .option = parse_valued};
    memset(opts, 0, sizeof *opts);
    opts->traces = calloc((size_t)argc + 1, sizeof *opts->traces);
    if (!opts->traces) {
        return stc_cli_usage_error(program, "out of memory");
    }
    opts->tune = stc_tune_options_default();
    stc_geometry_default(&opts->geometry);
    tune_parse parse = {.opts = opts};
    int status = stc_cli_parse(&grammar, &parse, argc, argv);
    if (status == STC_CLI_PARSED) {
        status = check_combination(opts, &parse.given);
    }
    return status == STC_CLI_PARSED ? load_tables(opts, &parse.given) : status;
}

/* Keep the run's timelines (--timeline) past the run. Returns 0, or 1 with
 * the message printed. */
static int copy_timelines(const stc_tune_run *run, const char *path,
                          timeline_copy timelines[2])
{
    for (int kind = STC_ICACHE; kind <= STC_DCACHE; kind++) {
        const stc_timeline_point *points;
        size_t count = stc_tune_run_timeline(run, (stc_cache_kind)kind, &points);
        timelines[kind].points = count ? malloc(count * sizeof *points) : NULL;
        if (!timelines[kind].points) {
            stc_cli_message(program, "%s: out of memory for the timeline", path);
            return 1;
        }
        memcpy(timelines[kind].points, points, count * sizeof *points);
        timelines[kind].count = count;
    }
    return 0;
}

/* Run one trace to its end. Returns 0, or 1 with the message printed. */
static int tune_trace(const tune_options *opts, const char *path, stc_ref *batch,
                      stc_tune_result *result, timeline_copy timelines[2])
{
    char err[ERR_LEN] = "";
    stc_tune_run *run =
        stc_tune_run_create(&opts->geometry, &opts->table, &opts->tune, opts->hardware, err,
                            sizeof err);
    if (!run) {
        stc_cli_message(program, "%s", err);
        return 1;
    }
    stc_trace *trace = stc_trace_open(path, opts->format, err, sizeof err);
    if (!trace) {
        stc_cli_message(program, "%s", err);
        stc_tune_run_destroy(run);
        return 1;
    }
    uint64_t total = 0;
    int status = 0;
    for (;;) {
        size_t want = BATCH_REFS;
        if (opts->limit && opts->limit - total < want) {
            want = (size_t)(opts->limit - total);
        }
        if (want == 0) {
            break;
        }
        long got = stc_trace_read(trace, batch, want);
        if (got < 0) {
            stc_cli_message(program, "%s", stc_trace_error(trace));
            status = 1;
            break;
        }
        if (got == 0) {
            break;
        }
        stc_tune_run_feed(run, batch, (size_t)got);
        total += (uint64_t)got;
    }
    if (stc_trace_close(trace, err, sizeof err) != 0 && status == 0) {
        stc_cli_message(program, "%s", err);
        status = 1;
    }
    if (status == 0 && stc_tune_run_finish(run, result, err, sizeof err) != 0) {
        stc_cli_message(program, "%s: %s", path, err);
        status = 1;
    }
    if (status == 0 && opts->tune.timeline_interval) {
        status = copy_timelines(run, path, timelines);
    }
    stc_tune_run_destroy(run);
    return status;
}

/* The numbers of one row, both caches together where the seed adds them. */
typedef struct {
    double saved_percent[STC_TUNE_BASELINES]; /* energy saved against each baseline */
    double cycles_lost_percent;               /* cycles against the first baseline */
    bool optimum_found[2];
    double loss_percent[2];                   /* the choice over the optimum, whole trace */
    double search_extra_percent;              /* hardware: searching over the chosen's cost */
    uint64_t walk_writebacks;
    double walk_writeback_nj;
} row_figures;

static double percent_of(double part, double whole)
{
    return whole != 0.0 ? 100.0 * part / whole : 0.0;
}

static row_figures figures_of(const stc_tune_result *result)
{
    row_figures row;
    memset(&row, 0, sizeof row);
    double run_nj = 0.0, base_nj[STC_TUNE_BASELINES] = {0.0};
    uint64_t run_cycles = 0, base_cycles = 0;
    double search_extra_nj = 0.0;
    for (int kind = STC_ICACHE; kind <= STC_DCACHE; kind++) {
        const stc_tune_cache_result *cache = &result->cache[kind];
        run_nj += cache->run_energy.total_nj;
        run_cycles += cache->run_cycles;
        base_cycles += cache->baseline_cycles[0];
        for (int base = 0; base < STC_TUNE_BASELINES; base++) {
            base_nj[base] += cache->baseline_energy[base].total_nj;
        }
        row.optimum_found[kind] = cache->valid && stc_config_equal(&cache->chosen, &cache->optimum);
        row.loss_percent[kind] =
            cache->valid
                ? percent_of(cache->chosen_oracle_nj - cache->optimum_nj, cache->optimum_nj)
                : 0.0;
        search_extra_nj +=
            cache->hardware.search_energy.total_nj - cache->hardware.search_at_chosen_nj;
        row.walk_writebacks += cache->hardware.walks.walk_writebacks;
        row.walk_writeback_nj += cache->hardware.walk_energy.writeback_nj;
    }
    for (int base = 0; base < STC_TUNE_BASELINES; base++) {
        row.saved_percent[base] = percent_of(base_nj[base] - run_nj, base_nj[base]);
    }
    row.cycles_lost_percent =
        percent_of((double)run_cycles - (double)base_cycles, (double)base_cycles);
    row.search_extra_percent = percent_of(search_extra_nj, run_nj);
    return row;
}

static void config_text(const stc_geometry *geometry, const stc_tune_cache_result *cache,
                        char *buf, size_t buf_len)
{
    if (cache->valid) {
        stc_config_name(geometry, &cache->chosen, buf, buf_len);
    } else {
        snprintf(buf, buf_len, "-");
    }
}

/* What a reader of the hardware table must know to trust a row. */
static void print_hardware_notes(const tune_options *opts, const stc_tune_result *results)
{
    for (size_t index = 0; index < opts->trace_count; index++) {
        char name[256];
        stc_trace_short_name(opts->traces[index], name, sizeof name);
        for (int kind = STC_ICACHE; kind <= STC_DCACHE; kind++) {
            const stc_tune_cache_result *cache = &results[index].cache[kind];
            const stc_tuned_report *report = &cache->hardware;
            if (report->saturated_windows) {
                printf("note: %s %c-cache: %" PRIu64 " of %" PRIu64
                       " windows saturated a 16-bit tuner counter, so their energies are upper "
                       "bounds (a smaller --window avoids it)\n",
                       name, "ID"[kind], report->saturated_windows, report->windows);
            }
            if (!cache->valid) {
                printf("note: %s %c-cache: the trace ended before the first search finished\n",
                       name, "ID"[kind]);
            }
            if (opts->tune.plan.kind == STC_SEARCH_MONITOR) {
                double run_nj = cache->run_energy.total_nj;
                printf("monitor: %s %c-cache: %" PRIu64 " bits of shadow tags, %" PRIu64
                       " lookups (%" PRIu64 " touching the arrays), %.3f uJ = %.1f%% of the "
                       "run (charged)\n",
                       name, "ID"[kind], report->monitor_bits, report->monitor_lookups,
                       report->monitor_array_accesses, report->monitor_energy.total_nj / 1000.0,
                       run_nj > 0 ? 100.0 * report->monitor_energy.total_nj / run_nj : 0.0);
            }
        }
    }
}

/* The monitor's line of the heading: the sample it watches and how its
 * shadow tags and counts are cut down. */
static void print_monitor_heading(const tune_options *opts)
{
    const stc_tune_options *tune = &opts->tune;
    char rotation[64] = "";
    if (tune->monitor_rotate) {
        snprintf(rotation, sizeof rotation, ", moving every %llu accesses (stacks %s)",
                 (unsigned long long)tune->monitor_rotate,
                 tune->monitor_rotate_empty ? "emptied" : "inherited");
    }
    char tags[64] = "whole tags";
    if (tune->monitor_tag_bits) {
        snprintf(tags, sizeof tags, "%u-bit tags", tune->monitor_tag_bits);
    }
    size_t used = strlen(tags);
    if (tune->monitor_counter_bits) {
        snprintf(tags + used, sizeof tags - used, ", %u-bit counts", tune->monitor_counter_bits);
    }
    printf("mode %s, monitor search (every configuration estimated from shadow tags "
           "watching 1/%u of the sets%s, %s%s)\n",
           opts->hardware ? "hardware" : "oracle", 1u << tune->monitor_sample_bits,
           tune->monitor_sample_bits ? rotation : "", tags,
           opts->hardware ? "; its RTL: stc_monitor + stc_monitor_tuner in stc_cache, "
                            "stcgen's default tuner"
                          : "; oracle: the exhaustive search");
}

/* The heading: which search, on which geometry and table, and in hardware
 * mode how it measures and when it searches again. */
static void print_heading(const tune_options *opts)
{
    const stc_geometry *geometry = &opts->geometry;
    const stc_search_plan *plan = &opts->tune.plan;
    const char *mode = opts->hardware ? "hardware" : "oracle";
    if (plan->kind == STC_SEARCH_EXHAUSTIVE) {
        printf("mode %s, exhaustive search (%s)\n", mode,
               plan->descending ? "descending" : "ascending");
    } else if (plan->kind == STC_SEARCH_MONITOR) {
        print_monitor_heading(opts);
    } else if (plan->kind == STC_SEARCH_PROBE) {
        printf("mode %s, probe search (every configuration estimated from LRU-depth hit "
               "counts%s)\n",
               mode,
               opts->hardware ? "; model only: the RTL tuner does not implement it yet"
                              : "; oracle: the exhaustive search");
    } else {
        char order[64];
        stc_search_order_format(plan->order, order, sizeof order);
        printf("mode %s, heuristic search, order %s, %s\n", mode, order,
               plan->descending ? "largest values first" : "smallest values first");
    }
    printf("geometry: %u banks x %u B, %u B physical lines; energy table: %s\n", geometry->banks,
           geometry->bank_bytes, geometry->line_bytes, opts->table.source);
    if (opts->hardware) {
        printf("window %" PRIu64 " accesses, warm-up %" PRIu64, opts->tune.window,
               opts->tune.warmup);
        if (opts->tune.retune_every) {
            printf(", re-tune every %" PRIu64 " accesses", opts->tune.retune_every);
        }
        if (!opts->tune.walk_moves) {
            printf(", walks drop lines (stcgen --no-walk-moves)");
        }
        if (opts->tune.phase_trigger) {
            printf(", phase threshold %u%%", opts->tune.phase_threshold_percent);
        }
        putchar('\n');
    }
}

/* The width of the trace column: its longest short name, at least "trace". */
static int trace_name_width(const tune_options *opts)
{
    int width = 5;
    for (size_t index = 0; index < opts->trace_count; index++) {
        char name[256];
        stc_trace_short_name(opts->traces[index], name, sizeof name);
        width = (int)strlen(name) > width ? (int)strlen(name) : width;
    }
    return width;
}

/* The column heads, naming the baselines the savings are measured against. */
static void print_column_heads(const tune_options *opts, int name_width)
{
    const stc_geometry *geometry = &opts->geometry;
    char base_names[STC_TUNE_BASELINES][STC_CONFIG_NAME_MAX];
    stc_config baselines[STC_TUNE_BASELINES];
    stc_tune_baselines(geometry, baselines);
    for (int base = 0; base < STC_TUNE_BASELINES; base++) {
        stc_config_name(geometry, &baselines[base], base_names[base], sizeof base_names[base]);
    }
    char saved_head[2][STC_CONFIG_NAME_MAX + 16], cycles_head[STC_CONFIG_NAME_MAX + 16];
    snprintf(saved_head[0], sizeof saved_head[0], "saved/%s", base_names[0]);
    snprintf(saved_head[1], sizeof saved_head[1], "saved/%s", base_names[1]);
    snprintf(cycles_head, sizeof cycles_head, "cyc-lost/%s", base_names[0]);
    printf("%-*s %-13s %4s %-13s %4s %17s %17s %8s %11s %19s", name_width, "trace", "I-config",
           "I-ex", "D-config", "D-ex", saved_head[0], saved_head[1], "optimum", "loss%",
           cycles_head);
    if (opts->hardware) {
        printf(" %9s %9s %9s %11s", "searches", "search+%", "walk-wb", "walk-wb-uJ");
    }
    putchar('\n');
}

enum { CELL_LEN = 16 };

/* One cache's part of the examined, optimum and loss columns; "-" when
 * its search never finished. */
static void format_cache_cells(const stc_tune_cache_result *cache, bool optimum_found,
                               double loss_percent, char examined[CELL_LEN], char found[CELL_LEN],
                               char loss[CELL_LEN])
{
    snprintf(examined, CELL_LEN, "-");
    snprintf(found, CELL_LEN, "-");
    snprintf(loss, CELL_LEN, "-");
    if (cache->valid) {
        snprintf(examined, CELL_LEN, "%zu", cache->examined);
        snprintf(found, CELL_LEN, "%s", optimum_found ? "yes" : "no");
        snprintf(loss, CELL_LEN, "%.1f", loss_percent);
    }
}

static void print_row(const tune_options *opts, const char *path, const stc_tune_result *result,
                      int name_width)
{
    const stc_geometry *geometry = &opts->geometry;
    row_figures row = figures_of(result);
    char name[256], config[2][STC_CONFIG_NAME_MAX], examined[2][CELL_LEN];
    char found_part[2][CELL_LEN], loss_part[2][CELL_LEN], found[2 * CELL_LEN], loss[2 * CELL_LEN];
    stc_trace_short_name(path, name, sizeof name);
    for (int kind = STC_ICACHE; kind <= STC_DCACHE; kind++) {
        config_text(geometry, &result->cache[kind], config[kind], sizeof config[kind]);
        format_cache_cells(&result->cache[kind], row.optimum_found[kind], row.loss_percent[kind],
                           examined[kind], found_part[kind], loss_part[kind]);
    }
    snprintf(found, sizeof found, "%s/%s", found_part[0], found_part[1]);
    snprintf(loss, sizeof loss, "%s/%s", loss_part[0], loss_part[1]);
    printf("%-*s %-13s %4s %-13s %4s %16.1f%% %16.1f%% %8s %11s %18.2f%%", name_width, name,
           config[STC_ICACHE], examined[STC_ICACHE], config[STC_DCACHE], examined[STC_DCACHE],
           row.saved_percent[0], row.saved_percent[1], found, loss, row.cycles_lost_percent);
    if (opts->hardware) {
        char searches[32];
        snprintf(searches, sizeof searches, "%u/%u",
                 result->cache[STC_ICACHE].hardware.searches_started,
                 result->cache[STC_DCACHE].hardware.searches_started);
        printf(" %9s %8.2f%% %9" PRIu64 " %11.3f", searches, row.search_extra_percent,
               row.walk_writebacks, row.walk_writeback_nj / 1000.0);
    }
    putchar('\n');
}

/* --timeline: one table per trace and cache. */
static void print_timelines(const tune_options *opts, const stc_tune_result *results,
                            timeline_copy (*timelines)[2])
{
    const stc_geometry *geometry = &opts->geometry;
    for (size_t index = 0; index < opts->trace_count; index++) {
        char name[256], base_name[STC_TUNE_BASELINES][STC_CONFIG_NAME_MAX];
        stc_trace_short_name(opts->traces[index], name, sizeof name);
        for (int base = 0; base < STC_TUNE_BASELINES; base++) {
            stc_config_name(geometry, &results[index].baselines[base], base_name[base],
                            sizeof base_name[base]);
        }
        for (int kind = STC_ICACHE; kind <= STC_DCACHE; kind++) {
            const timeline_copy *timeline = &timelines[index][kind];
            printf("\ntimeline: %s %c-cache, a point every %" PRIu64
                   " accesses and at the end; energy so far in nJ\n",
                   name, "ID"[kind], opts->tune.timeline_interval);
            printf("%12s %14s %-14s %7s %14s %14s %14s\n", "accesses", "cycles", "config",
                   "changes", "tuned_nj", base_name[0], base_name[1]);
            for (size_t point = 0; point < timeline->count; point++) {
                const stc_timeline_point *at = &timeline->points[point];
                char config[STC_CONFIG_NAME_MAX];
                stc_config_name(geometry, &at->config, config, sizeof config);
                printf("%12" PRIu64 " %14" PRIu64 " %-14s %7" PRIu64 " %14.1f %14.1f %14.1f\n",
                       at->accesses, at->cycles, config, at->changes, at->tuned_nj,
                       at->baseline_nj[0], at->baseline_nj[1]);
            }
        }
    }
}

static void print_table(const tune_options *opts, const stc_tune_result *results)
{
    print_heading(opts);
    int name_width = trace_name_width(opts);
    print_column_heads(opts, name_width);
    for (size_t index = 0; index < opts->trace_count; index++) {
        print_row(opts, opts->traces[index], &results[index], name_width);
    }
    if (opts->hardware) {
        print_hardware_notes(opts, results);
    }
}

static void print_json_config_value(const stc_geometry *geometry, const stc_config *config)
{
    char name[STC_CONFIG_NAME_MAX];
    stc_config_name(geometry, config, name, sizeof name);
    stc_json_print_string(name);
}

static void print_json_config(const stc_geometry *geometry, const char *key,
                              const stc_config *config, bool valid)
{
    printf("\"%s\":", key);
    if (valid) {
        print_json_config_value(geometry, config);
    } else {
        printf("null");
    }
}

static void print_json_energy(const char *key, const stc_energy *energy)
{
    printf("\"%s\":{\"total\":%.6g,\"probe\":%.6g,\"miss\":%.6g,\"static\":%.6g,"
           "\"writeback\":%.6g,\"reconfig\":%.6g}",
           key, energy->total_nj, energy->probe_nj, energy->miss_nj, energy->static_nj,
           energy->writeback_nj, energy->reconfig_nj);
}

static void print_json_hardware(const stc_geometry *geometry, const stc_tuned_report *report,
                                bool walk_moves)
{
    printf(",\"hardware\":{\"searches_started\":%u,\"searches_completed\":%u,"
           "\"periodic_triggers\":%u,\"phase_triggers\":%u,\"examined_total\":%zu,"
           "\"switches\":%u,",
           report->searches_started, report->searches_completed, report->periodic_triggers,
           report->phase_triggers, report->examined_total, report->switches);
    print_json_config(geometry, "final_config", &report->final_config, true);
    printf(",\"windows\":%" PRIu64 ",\"saturated_windows\":%" PRIu64
           ",\"reconfigs\":%" PRIu64 ",\"walk_rows\":%" PRIu64 ",\"walk_writebacks\":%" PRIu64
           ",\"walk_invalidations\":%" PRIu64 ",\"banks_woken\":%" PRIu64
           ",\"reconfig_cycles\":%" PRIu64 ",",
           report->windows, report->saturated_windows, report->walks.reconfigs,
           report->walks.walk_rows, report->walks.walk_writebacks,
           report->walks.walk_invalidations, report->walks.banks_woken,
           report->walks.reconfig_cycles);
    if (walk_moves) {
        printf("\"walk_moves\":%" PRIu64 ",", report->walk_moves);
    }
    print_json_energy("walk_nj", &report->walk_energy);
    printf(",\"search_accesses\":%" PRIu64 ",", report->search_accesses);
    print_json_energy("search_nj", &report->search_energy);
    printf(",\"search_at_chosen_nj\":%.6g,\"search_extra_nj\":%.6g,", report->search_at_chosen_nj,
           report->search_energy.total_nj - report->search_at_chosen_nj);
    printf("\"monitor_bits\":%" PRIu64 ",\"monitor_lookups\":%" PRIu64
           ",\"monitor_array_accesses\":%" PRIu64 ",",
           report->monitor_bits, report->monitor_lookups, report->monitor_array_accesses);
    print_json_energy("monitor_nj", &report->monitor_energy);
    printf("}");
}

static void print_json_timeline(const stc_geometry *geometry, const timeline_copy *timeline,
                                uint64_t interval)
{
    printf(",\n   \"timeline\":{\"interval\":%" PRIu64 ",\"columns\":[\"accesses\",\"cycles\","
           "\"config\",\"changes\",\"tuned_nj\",\"baseline_nj\"],\"points\":[",
           interval);
    for (size_t point = 0; point < timeline->count; point++) {
        const stc_timeline_point *at = &timeline->points[point];
        printf("%s\n    [%" PRIu64 ",%" PRIu64 ",", point ? "," : "", at->accesses, at->cycles);
        print_json_config_value(geometry, &at->config);
        printf(",%" PRIu64 ",%.9g,[%.9g,%.9g]]", at->changes, at->tuned_nj, at->baseline_nj[0],
               at->baseline_nj[1]);
    }
    printf("]}");
}

static void print_json(const tune_options *opts, const stc_tune_result *results,
                       timeline_copy (*timelines)[2])
{
    const stc_geometry *geometry = &opts->geometry;
    const stc_search_plan *plan = &opts->tune.plan;
    char order[64];
    stc_search_order_format(plan->order, order, sizeof order);
    printf("{\"mode\":\"%s\",\"search\":\"%s\",\"order\":\"%s\",\"descending\":%s,",
           opts->hardware ? "hardware" : "oracle",
           plan->kind == STC_SEARCH_EXHAUSTIVE ? "exhaustive"
           : plan->kind == STC_SEARCH_PROBE    ? "probe"
           : plan->kind == STC_SEARCH_MONITOR  ? "monitor"
                                               : "heuristic",
           order,
           plan->descending ? "true" : "false");
    if (opts->hardware) {
        printf("\"window\":%" PRIu64 ",\"warmup\":%" PRIu64 ",\"retune_every\":%" PRIu64
               ",\"phase_threshold\":",
               opts->tune.window, opts->tune.warmup, opts->tune.retune_every);
        if (opts->tune.phase_trigger) {
            printf("%u,", opts->tune.phase_threshold_percent);
        } else {
            printf("null,");
        }
    }
    printf("\n\"geometry\":{\"banks\":%u,\"bank_bytes\":%u,\"line_bytes\":%u,\"addr_bits\":%u,"
           "\"mem_latency\":%u,\"wake_cycles\":%u},\"energy_table\":",
           geometry->banks, geometry->bank_bytes, geometry->line_bytes, geometry->addr_bits,
           geometry->mem_latency, geometry->wake_cycles);
    stc_json_print_string(opts->table.source);
    printf(",\n\"traces\":[\n");
    for (size_t index = 0; index < opts->trace_count; index++) {
        const stc_tune_result *result = &results[index];
        row_figures row = figures_of(result);
        char name[256];
        stc_trace_short_name(opts->traces[index], name, sizeof name);
        printf(" {\"trace\":");
        stc_json_print_string(opts->traces[index]);
        printf(",\"name\":");
        stc_json_print_string(name);
        printf(",\"references\":%" PRIu64 ",\"baselines\":[", result->references);
        for (int base = 0; base < STC_TUNE_BASELINES; base++) {
            char base_name[STC_CONFIG_NAME_MAX];
            stc_config_name(geometry, &result->baselines[base], base_name, sizeof base_name);
            printf("%s", base ? "," : "");
            stc_json_print_string(base_name);
        }
        printf("],\"energy_saved_percent\":[%.4f,%.4f],\"cycles_lost_percent\":%.4f",
               row.saved_percent[0], row.saved_percent[1], row.cycles_lost_percent);
        if (opts->hardware) {
            printf(",\"search_extra_percent\":%.4f,\"walk_writebacks\":%" PRIu64
                   ",\"walk_writeback_nj\":%.6g",
                   row.search_extra_percent, row.walk_writebacks, row.walk_writeback_nj);
        }
        for (int kind = STC_ICACHE; kind <= STC_DCACHE; kind++) {
            const stc_tune_cache_result *cache = &result->cache[kind];
            printf(",\n  \"%s\":{", kind == STC_ICACHE ? "icache" : "dcache");
            print_json_config(geometry, "config", &cache->chosen, cache->valid);
            printf(",\"examined\":");
            if (cache->valid) {
                printf("%zu", cache->examined);
            } else {
                printf("null");
            }
            printf(",");
            print_json_config(geometry, "optimum", &cache->optimum, true);
            if (cache->valid) {
                printf(",\"optimum_found\":%s,\"loss_percent\":%.4f,\"config_nj\":%.6g",
                       row.optimum_found[kind] ? "true" : "false", row.loss_percent[kind],
                       cache->chosen_oracle_nj);
            } else {
                printf(",\"optimum_found\":null,\"loss_percent\":null,\"config_nj\":null");
            }
            printf(",\"optimum_nj\":%.6g,\"cycles\":%" PRIu64 ",", cache->optimum_nj,
                   cache->run_cycles);
            print_json_energy("run_nj", &cache->run_energy);
            printf(",\"baseline_nj\":[%.6g,%.6g],\"baseline_cycles\":[%" PRIu64 ",%" PRIu64 "]",
                   cache->baseline_energy[0].total_nj, cache->baseline_energy[1].total_nj,
                   cache->baseline_cycles[0], cache->baseline_cycles[1]);
            if (opts->hardware) {
                print_json_hardware(geometry, &cache->hardware, opts->tune.walk_moves);
            }
            if (opts->tune.timeline_interval) {
                print_json_timeline(geometry, &timelines[index][kind],
                                    opts->tune.timeline_interval);
            }
            printf("}");
        }
        printf("}%s\n", index + 1 < opts->trace_count ? "," : "");
    }
    printf("]}\n");
}

int stc_tune_main(int argc, char **argv)
{
    tune_options opts;
    int status = parse_options(argc, argv, &opts);
    if (status != STC_CLI_PARSED) {
        free(opts.traces);
        return status == STC_CLI_HELP_SHOWN ? 0 : status;
    }
    stc_tune_result *results = calloc(opts.trace_count, sizeof *results);
    timeline_copy(*timelines)[2] = calloc(opts.trace_count, sizeof *timelines);
    stc_ref *batch = malloc(BATCH_REFS * sizeof *batch);
    if (!results || !timelines || !batch) {
        stc_cli_message(program, "out of memory");
        status = 1;
    }
    for (size_t index = 0; status == 0 && index < opts.trace_count; index++) {
        status = tune_trace(&opts, opts.traces[index], batch, &results[index], timelines[index]);
    }
    if (status == 0) {
        if (opts.json) {
            print_json(&opts, results, timelines);
        } else {
            print_table(&opts, results);
            if (opts.tune.timeline_interval) {
                print_timelines(&opts, results, timelines);
            }
        }
        status = stc_cli_finish_report(program);
    }
    for (size_t index = 0; timelines && index < opts.trace_count; index++) {
        free(timelines[index][STC_ICACHE].points);
        free(timelines[index][STC_DCACHE].points);
    }
    free(timelines);
    free(results);
    free(batch);
    free(opts.traces);
    return status;
}
