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
#include "count.h"
#include "json.h"
#include "monitor_tuner.h"
#include "tune.h"

#include <inttypes.h>
#include <limits.h>
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
    "                           (default: monitor 6, others 0)\n"
    "      --probe-rounds R     probe: rounds through the probe windows (default 1)\n"
    "      --sample-bits K      monitor: watch 1/2^K of the sets (default 2; 0: all)\n"
    "      --decay D            monitor: shift its counts right by D after each\n"
    "                           decision (default 0: counts of the whole run)\n"
    "      --rotate N           monitor: move the watched sample to the next group\n"
    "                           of sets every N accesses, emptying its stacks (a\n"
    "                           monitor storing only the sample; default 16384;\n"
    "                           0: a fixed sample)\n"
    "      --tag-bits T         monitor: shadow tags of T bits (default 8; 0: whole)\n"
    "      --counter-bits C     monitor: C-bit counts, all halved when one fills\n"
    "                           (default 16; 0: unbounded)\n"
    "                           (the monitor's lookups and leakage are charged in\n"
    "                           the run's energy)\n"
    "      --walk-min N         monitor: offer a change that walks the banks (fewer\n"
    "                           banks, or more bank groups) only from a decision\n"
    "                           on at least N watched accesses (default 256; 0: any)\n"
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

static int usage_error(const char *fmt, const char *detail)
{
    fprintf(stderr, "stcsim tune: ");
    fprintf(stderr, fmt, detail);
    fputc('\n', stderr);
    return 2;
}

static bool is_option(const char *arg, const char *short_name, const char *long_name)
{
    return (short_name && !strcmp(arg, short_name)) || !strcmp(arg, long_name);
}

/* Returns 0, 1 after --help, or 2 after a message. */
static int parse_options(int argc, char **argv, tune_options *opts)
{
    char err[ERR_LEN];
    memset(opts, 0, sizeof *opts);
    opts->traces = calloc((size_t)argc + 1, sizeof *opts->traces);
    if (!opts->traces) {
        return usage_error("%s", "out of memory");
    }
    opts->tune = stc_tune_options_default();
    stc_geometry_default(&opts->geometry);
    const char *geometry_list = NULL;
    const char *energy_path = NULL;
    const char *hardware_only = NULL; /* a hardware option seen, for the oracle check */
    bool order_given = false, search_given = false, window_given = false, margin_given = false;
    for (int index = 1; index < argc; index++) {
        const char *arg = argv[index];
        if (is_option(arg, "-h", "--help")) {
            fputs(usage_text, stdout);
            return 1;
        }
        if (!strcmp(arg, "--json")) {
            opts->json = true;
            continue;
        }
        if (!strcmp(arg, "--descending")) {
            opts->tune.plan.descending = true;
            continue;
        }
        if (!strcmp(arg, "--remeasure")) {
            opts->tune.plan.remeasure = true;
            continue;
        }
        if (arg[0] != '-' || !strcmp(arg, "-")) {
            opts->traces[opts->trace_count++] = arg;
            continue;
        }
        static const char *const valued[] = {
            "--mode",   "--search", "--order", "--window", "--warmup",   "--retune-every",
            "--phase-threshold", "--energy", "-g", "--geometry", "-f", "--format", "--limit",
            "--margin", "--probe-rounds", "--sample-bits", "--decay", "--rotate", "--tag-bits",
            "--counter-bits", "--walk-min",
        };
        bool known = false;
        for (size_t name = 0; name < sizeof valued / sizeof valued[0]; name++) {
            known = known || !strcmp(arg, valued[name]);
        }
        if (!known) {
            return usage_error("unknown option '%s' (see --help)", arg);
        }
        if (index + 1 >= argc) {
            return usage_error("option %s needs a value (see --help)", arg);
        }
        const char *value = argv[++index];
        uint64_t number = 0;
        /* Hardware-mode options that set one small unsigned number. */
        const struct {
            const char *name;
            unsigned min, max;
            bool not_one;
            const char *expected;
            unsigned *field;
        } small_options[] = {
            {"--probe-rounds", 1, 64, false, "1..64", &opts->tune.probe_rounds},
            {"--sample-bits", 0, 16, false, "0..16", &opts->tune.monitor_sample_bits},
            {"--decay", 0, 16, false, "a shift, 0..16", &opts->tune.monitor_decay},
            {"--tag-bits", 0, 32, false, "0..32", &opts->tune.monitor_tag_bits},
            {"--counter-bits", 0, 32, true, "0 (unbounded) or 2..32",
             &opts->tune.monitor_counter_bits},
            {"--walk-min", 0, 65535, false, "0..65535", &opts->tune.monitor_walk_min},
        }, *small = NULL;
        for (size_t option = 0; option < sizeof small_options / sizeof small_options[0];
             option++) {
            if (!strcmp(arg, small_options[option].name)) {
                small = &small_options[option];
            }
        }
        if (!strcmp(arg, "--mode")) {
            if (strcmp(value, "oracle") && strcmp(value, "hardware")) {
                return usage_error("--mode '%s': expected oracle or hardware", value);
            }
            opts->hardware = !strcmp(value, "hardware");
        } else if (!strcmp(arg, "--search")) {
            search_given = true;
            if (!strcmp(value, "heuristic")) {
                opts->tune.plan.kind = STC_SEARCH_HEURISTIC;
            } else if (!strcmp(value, "exhaustive")) {
                opts->tune.plan.kind = STC_SEARCH_EXHAUSTIVE;
            } else if (!strcmp(value, "probe")) {
                opts->tune.plan.kind = STC_SEARCH_PROBE;
            } else if (!strcmp(value, "monitor")) {
                opts->tune.plan.kind = STC_SEARCH_MONITOR;
            } else {
                return usage_error(
                    "--search '%s': expected heuristic, exhaustive, probe or monitor", value);
            }
        } else if (!strcmp(arg, "--order")) {
            if (stc_search_order_parse(value, opts->tune.plan.order, err, sizeof err) != 0) {
                return usage_error("--order: %s", err);
            }
            order_given = true;
        } else if (!strcmp(arg, "--window")) {
            uint64_t max = ((uint64_t)1 << STC_FIXED_COUNTER_BITS) - 1;
            if (stc_parse_count(value, &number) != 0 || number == 0 || number > max) {
                return usage_error("--window '%s': expected 1..65535 accesses (the tuner's "
                                   "counters are 16 bits)",
                                   value);
            }
            opts->tune.window = number;
            window_given = true;
            hardware_only = arg;
        } else if (!strcmp(arg, "--warmup")) {
            if (stc_parse_count(value, &number) != 0) {
                return usage_error("--warmup '%s': expected a number of accesses", value);
            }
            opts->tune.warmup = number;
            hardware_only = arg;
        } else if (!strcmp(arg, "--retune-every")) {
            if (stc_parse_count(value, &number) != 0 || number == 0) {
                return usage_error("--retune-every '%s': expected a positive number of accesses",
                                   value);
            }
            opts->tune.retune_every = number;
            hardware_only = arg;
        } else if (!strcmp(arg, "--phase-threshold")) {
            if (stc_parse_count(value, &number) != 0 || number > 100000) {
                return usage_error("--phase-threshold '%s': expected a percentage, 0..100000",
                                   value);
            }
            opts->tune.phase_trigger = true;
            opts->tune.phase_threshold_percent = (unsigned)number;
            hardware_only = arg;
        } else if (!strcmp(arg, "--rotate")) {
            if (stc_parse_count(value, &number) != 0) {
                return usage_error("--rotate '%s': expected a count of accesses", value);
            }
            opts->tune.monitor_rotate = number;
            hardware_only = arg;
        } else if (small) {
            if (stc_parse_count(value, &number) != 0 || number < small->min ||
                number > small->max || (small->not_one && number == 1)) {
                char message[160];
                snprintf(message, sizeof message, "%s '%s': expected %s", arg, value,
                         small->expected);
                return usage_error("%s", message);
            }
            *small->field = (unsigned)number;
            hardware_only = arg;
        } else if (!strcmp(arg, "--margin")) {
            if (stc_parse_count(value, &number) != 0 || number > 31) {
                return usage_error("--margin '%s': expected a shift, 0..31", value);
            }
            opts->tune.plan.margin_shift = (unsigned)number;
            margin_given = true;
        } else if (!strcmp(arg, "--energy")) {
            energy_path = value;
        } else if (!strcmp(arg, "-g") || !strcmp(arg, "--geometry")) {
            geometry_list = value;
        } else if (!strcmp(arg, "-f") || !strcmp(arg, "--format")) {
            if (stc_trace_format_parse(value, &opts->format) != 0) {
                return usage_error("--format '%s': expected auto, din or lackey", value);
            }
        } else {
            if (stc_parse_count(value, &opts->limit) != 0 || opts->limit == 0) {
                return usage_error("--limit '%s': expected a positive number of references",
                                   value);
            }
        }
    }
    if (opts->trace_count == 0) {
        return usage_error("%s", "no trace given (one or more files, or - for stdin; see --help)");
    }
    size_t stdin_uses = 0;
    for (size_t index = 0; index < opts->trace_count; index++) {
        stdin_uses += !strcmp(opts->traces[index], "-");
    }
    if (stdin_uses > 1) {
        return usage_error("%s", "standard input (-) can be read only once");
    }
    if (hardware_only && !opts->hardware) {
        return usage_error("%s applies to --mode hardware only", hardware_only);
    }
    /* The hardware's default is the generator's default tuner, with its
     * defaults (TUNING.md 6). */
    if (opts->hardware && !search_given) {
        opts->tune.plan.kind = STC_SEARCH_MONITOR;
    }
    if (opts->tune.plan.kind == STC_SEARCH_MONITOR) {
        if (!window_given) {
            opts->tune.window = STC_MONITOR_TUNER_DEFAULT_WINDOW;
        }
        if (!margin_given) {
            opts->tune.plan.margin_shift = STC_MONITOR_TUNER_DEFAULT_MARGIN;
        }
    }
    if (order_given && opts->tune.plan.kind != STC_SEARCH_HEURISTIC) {
        return usage_error("%s", "--order applies to --search heuristic only (the hardware "
                                 "mode's default search is monitor)");
    }
    int geometry_status = geometry_list
                              ? stc_geometry_parse(&opts->geometry, geometry_list, err, sizeof err)
                              : stc_geometry_init(&opts->geometry, err, sizeof err);
    if (geometry_status != 0) {
        return usage_error("--geometry: %s", err);
    }
    int energy_status =
        energy_path ? stc_energy_load(&opts->geometry, energy_path, &opts->table, err, sizeof err)
                    : stc_energy_default(&opts->geometry, &opts->table, err, sizeof err);
    if (energy_status != 0) {
        return usage_error(energy_path ? "--energy: %s" : "energy model: %s", err);
    }
    if (opts->hardware) {
        stc_fixed_coefficients coefficients;
        if (stc_fixed_from_table(&opts->table, &coefficients, err, sizeof err) != 0) {
            return usage_error("energy table cannot be loaded into the tuner: %s", err);
        }
    }
    return 0;
}

/* Run one trace to its end. Returns 0, or 1 with the message printed. */
static int tune_trace(const tune_options *opts, const char *path, stc_ref *batch,
                      stc_tune_result *result)
{
    char err[ERR_LEN] = "";
    stc_tune_run *run =
        stc_tune_run_create(&opts->geometry, &opts->table, &opts->tune, opts->hardware, err,
                            sizeof err);
    if (!run) {
        fprintf(stderr, "stcsim tune: %s\n", err);
        return 1;
    }
    stc_trace *trace = stc_trace_open(path, opts->format, err, sizeof err);
    if (!trace) {
        fprintf(stderr, "stcsim tune: %s\n", err);
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
            fprintf(stderr, "stcsim tune: %s\n", stc_trace_error(trace));
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
        fprintf(stderr, "stcsim tune: %s\n", err);
        status = 1;
    }
    if (status == 0 && stc_tune_run_finish(run, result, err, sizeof err) != 0) {
        fprintf(stderr, "stcsim tune: %s: %s\n", path, err);
        status = 1;
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

static void print_table(const tune_options *opts, const stc_tune_result *results)
{
    const stc_geometry *geometry = &opts->geometry;
    const stc_search_plan *plan = &opts->tune.plan;
    char order[64], base_names[STC_TUNE_BASELINES][STC_CONFIG_NAME_MAX];
    stc_search_order_format(plan->order, order, sizeof order);
    stc_config baselines[STC_TUNE_BASELINES];
    stc_tune_baselines(geometry, baselines);
    for (int base = 0; base < STC_TUNE_BASELINES; base++) {
        stc_config_name(geometry, &baselines[base], base_names[base], sizeof base_names[base]);
    }
    if (plan->kind == STC_SEARCH_EXHAUSTIVE) {
        printf("mode %s, exhaustive search (%s)\n", opts->hardware ? "hardware" : "oracle",
               plan->descending ? "descending" : "ascending");
    } else if (plan->kind == STC_SEARCH_MONITOR) {
        char rotation[64] = "";
        if (opts->tune.monitor_rotate) {
            snprintf(rotation, sizeof rotation, ", moving every %llu accesses",
                     (unsigned long long)opts->tune.monitor_rotate);
        }
        char tags[64] = "whole tags";
        if (opts->tune.monitor_tag_bits) {
            snprintf(tags, sizeof tags, "%u-bit tags", opts->tune.monitor_tag_bits);
        }
        size_t used = strlen(tags);
        if (opts->tune.monitor_counter_bits) {
            snprintf(tags + used, sizeof tags - used, ", %u-bit counts",
                     opts->tune.monitor_counter_bits);
        }
        printf("mode %s, monitor search (every configuration estimated from shadow tags "
               "watching 1/%u of the sets%s, %s%s)\n",
               opts->hardware ? "hardware" : "oracle", 1u << opts->tune.monitor_sample_bits,
               opts->tune.monitor_sample_bits ? rotation : "", tags,
               opts->hardware ? "; its RTL: stc_monitor + stc_monitor_tuner in stc_cache, "
                                "stcgen's default tuner"
                              : "; oracle: the exhaustive search");
    } else if (plan->kind == STC_SEARCH_PROBE) {
        printf("mode %s, probe search (every configuration estimated from LRU-depth hit "
               "counts%s)\n",
               opts->hardware ? "hardware" : "oracle",
               opts->hardware ? "; model only: the RTL tuner does not implement it yet"
                              : "; oracle: the exhaustive search");
    } else {
        printf("mode %s, heuristic search, order %s, %s\n",
               opts->hardware ? "hardware" : "oracle", order,
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
        if (opts->tune.phase_trigger) {
            printf(", phase threshold %u%%", opts->tune.phase_threshold_percent);
        }
        putchar('\n');
    }
    char saved_head[2][STC_CONFIG_NAME_MAX + 16], cycles_head[STC_CONFIG_NAME_MAX + 16];
    snprintf(saved_head[0], sizeof saved_head[0], "saved/%s", base_names[0]);
    snprintf(saved_head[1], sizeof saved_head[1], "saved/%s", base_names[1]);
    snprintf(cycles_head, sizeof cycles_head, "cyc-lost/%s", base_names[0]);
    int name_width = 5; /* "trace" */
    for (size_t index = 0; index < opts->trace_count; index++) {
        char name[256];
        stc_trace_short_name(opts->traces[index], name, sizeof name);
        name_width = (int)strlen(name) > name_width ? (int)strlen(name) : name_width;
    }
    printf("%-*s %-13s %4s %-13s %4s %17s %17s %8s %11s %19s", name_width, "trace", "I-config",
           "I-ex", "D-config", "D-ex", saved_head[0], saved_head[1], "optimum", "loss%",
           cycles_head);
    if (opts->hardware) {
        printf(" %9s %9s %9s %11s", "searches", "search+%", "walk-wb", "walk-wb-uJ");
    }
    putchar('\n');
    for (size_t index = 0; index < opts->trace_count; index++) {
        const stc_tune_result *result = &results[index];
        row_figures row = figures_of(result);
        char name[256], icfg[STC_CONFIG_NAME_MAX], dcfg[STC_CONFIG_NAME_MAX];
        char iex[16] = "-", dex[16] = "-", found[16], loss[32];
        stc_trace_short_name(opts->traces[index], name, sizeof name);
        config_text(geometry, &result->cache[STC_ICACHE], icfg, sizeof icfg);
        config_text(geometry, &result->cache[STC_DCACHE], dcfg, sizeof dcfg);
        if (result->cache[STC_ICACHE].valid) {
            snprintf(iex, sizeof iex, "%zu", result->cache[STC_ICACHE].examined);
        }
        if (result->cache[STC_DCACHE].valid) {
            snprintf(dex, sizeof dex, "%zu", result->cache[STC_DCACHE].examined);
        }
        char found_part[2][8], loss_part[2][16];
        for (int kind = STC_ICACHE; kind <= STC_DCACHE; kind++) {
            bool valid = result->cache[kind].valid;
            snprintf(found_part[kind], sizeof found_part[kind], "%s",
                     !valid ? "-" : row.optimum_found[kind] ? "yes" : "no");
            if (valid) {
                snprintf(loss_part[kind], sizeof loss_part[kind], "%.1f", row.loss_percent[kind]);
            } else {
                snprintf(loss_part[kind], sizeof loss_part[kind], "-");
            }
        }
        snprintf(found, sizeof found, "%s/%s", found_part[0], found_part[1]);
        snprintf(loss, sizeof loss, "%s/%s", loss_part[0], loss_part[1]);
        printf("%-*s %-13s %4s %-13s %4s %16.1f%% %16.1f%% %8s %11s %18.2f%%", name_width, name,
               icfg, iex,
               dcfg, dex, row.saved_percent[0], row.saved_percent[1], found, loss,
               row.cycles_lost_percent);
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
    if (opts->hardware) {
        print_hardware_notes(opts, results);
    }
}

static void print_json_config(const stc_geometry *geometry, const char *key,
                              const stc_config *config, bool valid)
{
    char name[STC_CONFIG_NAME_MAX];
    printf("\"%s\":", key);
    if (valid) {
        stc_config_name(geometry, config, name, sizeof name);
        stc_json_print_string(name);
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

static void print_json_hardware(const stc_geometry *geometry, const stc_tuned_report *report)
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

static void print_json(const tune_options *opts, const stc_tune_result *results)
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
                print_json_hardware(geometry, &cache->hardware);
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
    if (status != 0) {
        free(opts.traces);
        return status == 1 ? 0 : status;
    }
    stc_tune_result *results = calloc(opts.trace_count, sizeof *results);
    stc_ref *batch = malloc(BATCH_REFS * sizeof *batch);
    if (!results || !batch) {
        fprintf(stderr, "stcsim tune: out of memory\n");
        status = 1;
    }
    for (size_t index = 0; status == 0 && index < opts.trace_count; index++) {
        status = tune_trace(&opts, opts.traces[index], batch, &results[index]);
    }
    if (status == 0) {
        if (opts.json) {
            print_json(&opts, results);
        } else {
            print_table(&opts, results);
        }
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "stcsim tune: error writing the report\n");
            status = 1;
        }
    }
    free(results);
    free(batch);
    free(opts.traces);
    return status;
}
