/*
 * explore_cli.c - `stcsim explore`: options, the candidate list, and the
 * report (a table or JSON) of the explorer (explore.h, docs/EXPLORER.md).
 *
 * Every trace is read to its end before anything is printed, so a failure
 * leaves nothing on stdout. Exit status: 0, 1 for a trace that cannot be
 * read, 2 for bad usage (an option, a list value, an energy table, no
 * geometry left).
 */
#include "commands.h"
#include "options.h"
#include "area_model.h"
#include "count.h"
#include "explore.h"
#include "fixed.h"
#include "json.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { ERR_LEN = 768, MAX_LIST = 32, REASON_LEN = 320 };

static const char usage_text[] =
    "usage: stcsim explore [options] TRACE...\n"
    "Which cache to generate: for every geometry of the ranges below and every\n"
    "trace (a file; plain, gzip or zstd), all legal configurations in one pass (as\n"
    "plain stcsim), the cheapest of the I-cache and of the D-cache kept; per\n"
    "geometry and trace their energy, misses and cycles, the sum over the traces,\n"
    "the area of the pair stcgen builds (ref/area_model.h), and the Pareto front\n"
    "of (total energy, area) with the stcgen command of each of its points.\n"
    "\n"
    "      --banks LIST       banks, powers of two from 1 to 32 (default 1,2,4,8)\n"
    "      --bank-bytes LIST  bytes per bank, powers of two (default 512,1024,2048,4096)\n"
    "      --line-bytes LIST  physical line bytes, powers of two >= 4 (default 16,32)\n"
    "      --wp MODE          way prediction built: both (default), on or off\n"
    "  -g, --geometry LIST    the other fields, for every geometry: addr_bits,\n"
    "                         mem_latency, wake_cycles (e.g. addr_bits=24)\n"
    "      --energy FILE      energy table (docs/ENERGY.md) of the geometry it names;\n"
    "                         repeatable; with any, every geometry needs its own\n"
    "                         (default: the built-in 0.18 um table of each geometry)\n"
    "      --tuned            also run the hardware tuner's twin (stcsim tune --mode\n"
    "                         hardware, its defaults) per geometry and trace (slower)\n"
    "      --jobs N           worker threads (default: one per online CPU)\n"
    "      --limit N          stop each trace after N references\n"
    "  -f, --format FMT       auto (default), din or lackey\n"
    "      --area-only        no traces: the area model of each geometry\n"
    "      --json             machine-readable output\n"
    "  -h, --help             this text\n"
    "LISTs are comma-separated. Geometries stcgen refuses are skipped, with the\n"
    "reason, in the report.\n";

typedef struct {
    unsigned values[MAX_LIST];
    size_t count;
} value_list;

typedef struct {
    value_list banks, bank_bytes, line_bytes;
    bool wp_on, wp_off;
    stc_geometry base;            /* addr_bits, mem_latency, wake_cycles */
    const char **energy_paths;
    size_t energy_count;
    const char **traces;
    size_t trace_count;
    stc_trace_format format;
    uint64_t limit;
    unsigned jobs;                /* 0: one per online CPU */
    bool tuned, json, area_only;
} explore_options;

typedef struct {
    char name[STC_EXPLORE_NAME_MAX];
    char command[STC_EXPLORE_COMMAND_MAX];
    char reason[REASON_LEN];
} skipped_geometry;

/* One explored candidate's totals over the traces, its area and place. */
typedef struct {
    double energy_nj;
    uint64_t request_misses;
    uint64_t cycles;
    double tuned_nj;
    stc_area area;
    bool on_front;
} candidate_summary;

typedef struct {
    stc_explore_candidate *candidates;
    size_t candidate_count;
    skipped_geometry *skipped;
    size_t skipped_count;
} candidate_set;

static const char program[] = "stcsim explore";

/* ---- Options -------------------------------------------------------------- */

static void sort_unique(value_list *list)
{
    for (size_t i = 1; i < list->count; i++) {
        for (size_t j = i; j > 0 && list->values[j - 1] > list->values[j]; j--) {
            unsigned swap = list->values[j];
            list->values[j] = list->values[j - 1];
            list->values[j - 1] = swap;
        }
    }
    size_t kept = 0;
    for (size_t i = 0; i < list->count; i++) {
        if (kept == 0 || list->values[kept - 1] != list->values[i]) {
            list->values[kept++] = list->values[i];
        }
    }
    list->count = kept;
}

/* "1,2,4": powers of two from min to max. Returns 0 or 2 after a message. */
static int parse_list(const char *option, const char *text, unsigned min, unsigned max,
                      value_list *list)
{
    list->count = 0;
    const char *cursor = text;
    for (;;) {
        char item[32];
        size_t len = strcspn(cursor, ",");
        uint64_t value = 0;
        if (len >= sizeof item) {
            len = sizeof item - 1;
        }
        memcpy(item, cursor, len);
        item[len] = '\0';
        if (stc_parse_count(item, &value) != 0 || value < min || value > max ||
            !stc_is_power_of_two(value) || list->count == MAX_LIST) {
            return stc_cli_usage_error(
                program,
                "%s '%s': expected a comma-separated list of powers of two from "
                "%u to %u (at most %d), e.g. %u,%u",
                option, text, min, max, MAX_LIST, min, min * 2);
        }
        list->values[list->count++] = (unsigned)value;
        cursor += strcspn(cursor, ",");
        if (*cursor == '\0') {
            break;
        }
        cursor++;
    }
    sort_unique(list);
    return 0;
}

/* -g LIST: the fields the ranges do not set. */
static int parse_base_geometry(const char *list, stc_geometry *base)
{
    char err[ERR_LEN];
    static const char *const ranged[] = {"banks=", "bank_bytes=", "line_bytes="};
    for (const char *cursor = list; *cursor;) {
        for (size_t index = 0; index < sizeof ranged / sizeof ranged[0]; index++) {
            if (!strncmp(cursor, ranged[index], strlen(ranged[index]))) {
                return stc_cli_usage_error(
                    program,
                    "--geometry '%s': banks, bank_bytes and line_bytes are "
                    "explored: give them with --banks, --bank-bytes, --line-bytes",
                    list);
            }
        }
        cursor += strcspn(cursor, ",");
        cursor += *cursor == ',';
    }
    if (stc_geometry_parse(base, list, err, sizeof err) != 0) {
        return stc_cli_usage_error(program, "--geometry: %s", err);
    }
    return 0;
}

static void set_defaults(explore_options *opts)
{
    static const unsigned banks[] = {1, 2, 4, 8}, bank_bytes[] = {512, 1024, 2048, 4096},
                          line_bytes[] = {16, 32};
    memcpy(opts->banks.values, banks, sizeof banks);
    opts->banks.count = sizeof banks / sizeof banks[0];
    memcpy(opts->bank_bytes.values, bank_bytes, sizeof bank_bytes);
    opts->bank_bytes.count = sizeof bank_bytes / sizeof bank_bytes[0];
    memcpy(opts->line_bytes.values, line_bytes, sizeof line_bytes);
    opts->line_bytes.count = sizeof line_bytes / sizeof line_bytes[0];
    opts->wp_on = opts->wp_off = true;
    stc_geometry_default(&opts->base);
}

/* One option of valued_options with its value. Returns STC_CLI_PARSED or
 * STC_CLI_BAD_USAGE after a message. */
static int parse_valued(void *context, const char *arg, const char *value)
{
    explore_options *opts = context;
    static const char *const wp_modes[] = {"both", "on", "off", NULL};
    uint64_t number = 0;
    int wp_mode = 0;
    if (!strcmp(arg, "--banks")) {
        return parse_list(arg, value, 1, STC_MAX_BANKS, &opts->banks);
    } else if (!strcmp(arg, "--bank-bytes")) {
        return parse_list(arg, value, 16, 1u << 24, &opts->bank_bytes);
    } else if (!strcmp(arg, "--line-bytes")) {
        return parse_list(arg, value, STC_WORD_BYTES, 1u << 16, &opts->line_bytes);
    } else if (!strcmp(arg, "--wp")) {
        if (stc_cli_choice_option(program, arg, value, wp_modes, &wp_mode) != STC_CLI_PARSED) {
            return STC_CLI_BAD_USAGE;
        }
        opts->wp_on = strcmp(wp_modes[wp_mode], "off") != 0;
        opts->wp_off = strcmp(wp_modes[wp_mode], "on") != 0;
    } else if (stc_cli_is_option(arg, "-g", "--geometry")) {
        return parse_base_geometry(value, &opts->base);
    } else if (!strcmp(arg, "--energy")) {
        opts->energy_paths[opts->energy_count++] = value;
    } else if (!strcmp(arg, "--jobs")) {
        if (stc_cli_count_option(program, arg, value, 1, 256, "a number of threads, 1..256",
                                 &number) != STC_CLI_PARSED) {
            return STC_CLI_BAD_USAGE;
        }
        opts->jobs = (unsigned)number;
    } else if (!strcmp(arg, "--limit")) {
        return stc_cli_limit_option(program, value, &opts->limit);
    } else {
        return stc_cli_format_option(program, value, &opts->format);
    }
    return STC_CLI_PARSED;
}

/* The options that take a value; the rest are flags or traces. */
static const char *const valued_options[] = {
    "--banks",  "--bank-bytes", "--line-bytes", "--wp", "-g",       "--geometry",
    "--energy", "--jobs",       "--limit",      "-f",   "--format", NULL,
};

static bool *flag_of(void *context, const char *arg)
{
    explore_options *opts = context;
    return !strcmp(arg, "--json")        ? &opts->json
           : !strcmp(arg, "--tuned")     ? &opts->tuned
           : !strcmp(arg, "--area-only") ? &opts->area_only
                                         : NULL;
}

static int take_trace(void *context, const char *arg)
{
    explore_options *opts = context;
    opts->traces[opts->trace_count++] = arg;
    return STC_CLI_PARSED;
}

/* Returns STC_CLI_PARSED, STC_CLI_HELP_SHOWN, or STC_CLI_BAD_USAGE after a
 * message. */
static int parse_options(int argc, char **argv, explore_options *opts)
{
    static const stc_cli_grammar grammar = {
        .program = program, .usage_text = usage_text, .valued = valued_options,
        .flag = flag_of, .operand = take_trace, .option = parse_valued};
    memset(opts, 0, sizeof *opts);
    set_defaults(opts);
    opts->traces = calloc((size_t)argc + 1, sizeof *opts->traces);
    opts->energy_paths = calloc((size_t)argc + 1, sizeof *opts->energy_paths);
    if (!opts->traces || !opts->energy_paths) {
        return stc_cli_usage_error(program, "out of memory");
    }
    int status = stc_cli_parse(&grammar, opts, argc, argv);
    if (status != STC_CLI_PARSED) {
        return status;
    }
    if (opts->area_only && (opts->trace_count || opts->tuned || opts->energy_count)) {
        return stc_cli_usage_error(program, "--area-only takes no trace, --tuned or --energy");
    }
    if (!opts->area_only && opts->trace_count == 0) {
        return stc_cli_usage_error(program, "no trace given (one or more files; see --help)");
    }
    for (size_t index = 0; index < opts->trace_count; index++) {
        if (!strcmp(opts->traces[index], "-")) {
            return stc_cli_usage_error(program,
                                       "standard input (-) cannot be explored: each trace is "
                                       "read several times; give a file");
        }
    }
    return STC_CLI_PARSED;
}

/* ---- Candidates and their energy tables ------------------------------------ */

static int build_candidates(const explore_options *opts, candidate_set *set)
{
    size_t most = opts->banks.count * opts->bank_bytes.count * opts->line_bytes.count * 2;
    set->candidates = calloc(most, sizeof *set->candidates);
    set->skipped = calloc(most, sizeof *set->skipped);
    if (!set->candidates || !set->skipped) {
        return stc_cli_usage_error(program, "out of memory");
    }
    for (size_t b = 0; b < opts->banks.count; b++) {
        for (size_t s = 0; s < opts->bank_bytes.count; s++) {
            for (size_t l = 0; l < opts->line_bytes.count; l++) {
                for (int wp = 1; wp >= 0; wp--) {
                    if (!(wp ? opts->wp_on : opts->wp_off)) {
                        continue;
                    }
                    stc_geometry geometry = opts->base;
                    geometry.banks = opts->banks.values[b];
                    geometry.bank_bytes = opts->bank_bytes.values[s];
                    geometry.line_bytes = opts->line_bytes.values[l];
                    stc_explore_candidate *candidate = &set->candidates[set->candidate_count];
                    skipped_geometry *skip = &set->skipped[set->skipped_count];
                    int status = stc_explore_candidate_init(candidate, &geometry, wp, skip->reason,
                                                            sizeof skip->reason);
                    if (status == 0 && !wp && opts->wp_on && geometry.banks == 1) {
                        /* One bank has no multi-way configuration to predict. */
                        snprintf(skip->reason, sizeof skip->reason,
                                 "the same cache as with way prediction (one bank: no "
                                 "configuration can predict a way)");
                        status = -1;
                    }
                    if (status == 0) {
                        set->candidate_count++;
                        continue;
                    }
                    snprintf(skip->name, sizeof skip->name, "%s", candidate->name);
                    stc_explore_stcgen_command(candidate, skip->command, sizeof skip->command);
                    set->skipped_count++;
                }
            }
        }
    }
    if (set->candidate_count == 0) {
        return stc_cli_usage_error(program,
                                   "no geometry left to explore: stcgen refuses every one of the "
                                   "ranges (run with --area-only to see why)");
    }
    return 0;
}

/* Give each candidate the table of the --energy file that names its
 * geometry; with files, every candidate needs one. */
static int assign_energy_tables(const explore_options *opts, candidate_set *set)
{
    char err[ERR_LEN], first_err[ERR_LEN];
    const char **owner = calloc(set->candidate_count, sizeof *owner);
    if (!owner) {
        return stc_cli_usage_error(program, "out of memory");
    }
    int status = 0;
    for (size_t file = 0; file < opts->energy_count && status == 0; file++) {
        const char *path = opts->energy_paths[file];
        size_t matched = 0;
        for (size_t c = 0; c < set->candidate_count && status == 0; c++) {
            stc_explore_candidate *candidate = &set->candidates[c];
            stc_energy_table table;
            if (stc_energy_load(&candidate->geometry, path, &table, err, sizeof err) != 0) {
                if (c == 0) {
                    snprintf(first_err, sizeof first_err, "%s", err);
                }
                continue;
            }
            if (owner[c] && strcmp(owner[c], path) != 0) {
                status =
                    stc_cli_usage_error(program, "--energy: %s and %s are both for geometry %s",
                                        owner[c], path, candidate->name);
            }
            owner[c] = path;
            candidate->energy_table = table;
            matched++;
        }
        if (status == 0 && matched == 0) {
            status = stc_cli_usage_error(program, "--energy: %s names no explored geometry (%s)",
                                         path, first_err);
        }
    }
    for (size_t c = 0; c < set->candidate_count && status == 0 && opts->energy_count; c++) {
        if (!owner[c]) {
            status =
                stc_cli_usage_error(program,
                                    "--energy: no table for geometry %s (with --energy every "
                                    "explored geometry needs its own table; narrow the ranges or "
                                    "add one)",
                                    set->candidates[c].name);
        }
    }
    free(owner);
    return status;
}

/* The tuner's twin quantises the table as the hardware does. */
static int check_tuner_tables(const candidate_set *set)
{
    char err[ERR_LEN];
    for (size_t c = 0; c < set->candidate_count; c++) {
        const stc_explore_candidate *candidate = &set->candidates[c];
        stc_fixed_coefficients coefficients;
        stc_fixed_monitor_coefficients monitor;
        if (stc_explore_tuned_unavailable(candidate)) {
            continue;
        }
        if (stc_fixed_from_table(&candidate->energy_table, &coefficients, err, sizeof err) != 0 ||
            stc_fixed_monitor_from_table(&candidate->energy_table, &monitor, err, sizeof err) !=
                0) {
            return stc_cli_usage_error(
                program, "--tuned: the energy table %s cannot be loaded into the tuner: %s",
                candidate->energy_table.source, err);
        }
    }
    return 0;
}

/* ---- Running ---------------------------------------------------------------- */

static void show_progress(void *context, size_t done, size_t total)
{
    (void)context;
    fprintf(stderr, "\rstcsim explore: %zu/%zu jobs", done, total);
    if (done == total) {
        fputc('\n', stderr);
    }
}

/* Totals, areas and the front. Returns 0, or 1 after a message. */
static int summarize(const candidate_set *set, const stc_explore_result *result,
                     candidate_summary *summary)
{
    char err[ERR_LEN];
    stc_explore_point *points = calloc(set->candidate_count, sizeof *points);
    bool *on_front = calloc(set->candidate_count, sizeof *on_front);
    if (!points || !on_front) {
        free(points);
        free(on_front);
        stc_cli_message(program, "out of memory");
        return 1;
    }
    int status = 0;
    for (size_t c = 0; c < set->candidate_count; c++) {
        candidate_summary *sum = &summary[c];
        for (size_t t = 0; result && t < result->trace_count; t++) {
            const stc_explore_cell *cell = stc_explore_cell_at(result, c, t);
            sum->energy_nj += cell->energy_nj;
            sum->request_misses += cell->request_misses;
            sum->cycles += cell->cycles;
            sum->tuned_nj += cell->tuned_nj;
        }
        const stc_explore_candidate *candidate = &set->candidates[c];
        if (stc_area_of(&candidate->geometry, candidate->way_prediction, &sum->area, err,
                        sizeof err) != 0) {
            stc_cli_message(program, "area of %s: %s", candidate->name, err);
            status = 1;
        }
        points[c].energy = sum->energy_nj;
        points[c].area = sum->area.total_um2;
    }
    if (status == 0 && result) {
        stc_explore_pareto(points, set->candidate_count, on_front);
        for (size_t c = 0; c < set->candidate_count; c++) {
            summary[c].on_front = on_front[c];
        }
    }
    free(points);
    free(on_front);
    return status;
}

/* The front's candidates by area, then energy, then list order. */
static size_t front_order(const candidate_set *set, const candidate_summary *summary,
                          size_t *order)
{
    size_t count = 0;
    for (size_t c = 0; c < set->candidate_count; c++) {
        if (!summary[c].on_front) {
            continue;
        }
        size_t at = count++;
        while (at > 0) {
            const candidate_summary *prev = &summary[order[at - 1]], *cur = &summary[c];
            bool before = cur->area.total_um2 < prev->area.total_um2 ||
                          (cur->area.total_um2 == prev->area.total_um2 &&
                           cur->energy_nj < prev->energy_nj);
            if (!before) {
                break;
            }
            order[at] = order[at - 1];
            at--;
        }
        order[at] = c;
    }
    return count;
}

/* ---- The table ---------------------------------------------------------------- */

static void print_per_trace(const explore_options *opts, const candidate_set *set,
                            const stc_explore_result *result)
{
    printf("per geometry and trace: the cheapest I- and D-configuration, energy (uJ), "
           "references with a miss, cycles%s\n",
           opts->tuned ? ", the tuner's twin (uJ)" : "");
    printf("%-24s %-20s %-14s %-14s %11s %10s %12s%s\n", "geometry", "trace", "I-config",
           "D-config", "energy-uJ", "misses", "cycles", opts->tuned ? "    tuned-uJ" : "");
    for (size_t c = 0; c < set->candidate_count; c++) {
        for (size_t t = 0; t < result->trace_count; t++) {
            const stc_explore_cell *cell = stc_explore_cell_at(result, c, t);
            char label[64], iname[STC_CONFIG_NAME_MAX], dname[STC_CONFIG_NAME_MAX];
            const stc_geometry *g = &set->candidates[c].geometry;
            stc_trace_short_name(opts->traces[t], label, sizeof label);
            stc_config_name(g, &cell->best[STC_ICACHE].config, iname, sizeof iname);
            stc_config_name(g, &cell->best[STC_DCACHE].config, dname, sizeof dname);
            printf("%-24s %-20s %-14s %-14s %11.2f %10" PRIu64 " %12" PRIu64,
                   set->candidates[c].name, label, iname, dname, cell->energy_nj / 1e3,
                   cell->request_misses, cell->cycles);
            if (opts->tuned && cell->tuned) {
                printf(" %11.2f", cell->tuned_nj / 1e3);
            } else if (opts->tuned) {
                printf(" %11s", "-");
            }
            putchar('\n');
        }
    }
}

static void print_per_geometry(const explore_options *opts, const candidate_set *set,
                               const candidate_summary *summary)
{
    printf("\nper geometry, the sum over the traces; area of the I+D pair (mm^2: SRAM + logic; "
           "~: outside the calibrated ranges, extrapolated)\n");
    printf("%-24s %9s %9s %9s %10s %13s %10s %13s%s %s\n", "geometry", "area-mm2", "sram-mm2",
           "logic-mm2", "logic-kGE", "energy-uJ", "misses", "cycles",
           opts->tuned ? "    tuned-uJ" : "", "front");
    for (size_t c = 0; c < set->candidate_count; c++) {
        const candidate_summary *sum = &summary[c];
        printf("%-24s %8.3f%c %9.3f %9.3f %10.1f %13.2f %10" PRIu64 " %13" PRIu64,
               set->candidates[c].name, sum->area.total_um2 / 1e6,
               stc_area_calibrated(&set->candidates[c].geometry) ? ' ' : '~',
               sum->area.sram_um2 / 1e6,
               sum->area.logic_um2 / 1e6, sum->area.logic_ge / 1e3, sum->energy_nj / 1e3,
               sum->request_misses, sum->cycles);
        if (opts->tuned && !stc_explore_tuned_unavailable(&set->candidates[c])) {
            printf(" %11.2f", sum->tuned_nj / 1e3);
        } else if (opts->tuned) {
            printf(" %11s", "-");
        }
        printf(" %s\n", sum->on_front ? "*" : "");
    }
}

static void print_front(const candidate_set *set, const candidate_summary *summary,
                        const size_t *order, size_t count)
{
    printf("\nPareto front of (total energy, area): %zu of %zu geometries, smallest first\n", count,
           set->candidate_count);
    printf("%3s %9s %13s  %-24s %s\n", "#", "area-mm2", "energy-uJ", "geometry", "generate with");
    for (size_t index = 0; index < count; index++) {
        const stc_explore_candidate *candidate = &set->candidates[order[index]];
        char command[STC_EXPLORE_COMMAND_MAX];
        stc_explore_stcgen_command(candidate, command, sizeof command);
        printf("%3zu %9.3f %13.2f  %-24s %s\n", index + 1,
               summary[order[index]].area.total_um2 / 1e6,
               summary[order[index]].energy_nj / 1e3, candidate->name, command);
    }
}

static void print_skipped(const candidate_set *set)
{
    if (set->skipped_count) {
        printf("\nskipped (%zu):\n", set->skipped_count);
    }
    for (size_t index = 0; index < set->skipped_count; index++) {
        printf("  %-24s %s\n", set->skipped[index].name, set->skipped[index].reason);
    }
}

static void print_table(const explore_options *opts, const candidate_set *set,
                        const stc_explore_result *result, const candidate_summary *summary,
                        const size_t *order, size_t front_count)
{
    printf("stcsim explore: %zu traces, %zu geometries (%zu skipped), energy table%s %s\n",
           result->trace_count, set->candidate_count, set->skipped_count,
           opts->energy_count ? "s" : "", opts->energy_count ? "from --energy" : "default");
    printf("area model: SRAM %.2f um^2/bit (assumed), logic fitted to OSU 0.18 um synthesis "
           "(worst calibration error %.1f %% um^2, %.1f %% GE; docs/EXPLORER.md)\n\n",
           STC_AREA_SRAM_UM2_PER_BIT, 100 * stc_area_calibration_error_um2(),
           100 * stc_area_calibration_error_ge());
    print_per_trace(opts, set, result);
    print_per_geometry(opts, set, summary);
    print_front(set, summary, order, front_count);
    if (opts->tuned) {
        printf("\ntuned: the hardware tuner's twin (stcsim tune --mode hardware); - : %s\n",
               "the twin does not model a cache built without way prediction");
    }
    print_skipped(set);
}

/* ---- JSON ----------------------------------------------------------------------- */

static void print_cache_json(const char *label, const stc_geometry *geometry,
                             const stc_explore_best *best)
{
    char name[STC_CONFIG_NAME_MAX];
    stc_config_name(geometry, &best->config, name, sizeof name);
    printf("\"%s\":{\"config\":\"%s\",\"energy_nj\":%.6f,\"request_misses\":%" PRIu64
           ",\"misses\":%" PRIu64 ",\"writebacks\":%" PRIu64 ",\"cycles\":%" PRIu64 "}",
           label, name, best->energy.total_nj, best->counters.request_misses,
           best->counters.misses, best->counters.writebacks, best->counters.cycles);
}

static void print_cell_json(const explore_options *opts, const stc_explore_candidate *candidate,
                            const stc_explore_cell *cell, size_t trace)
{
    char label[64];
    stc_trace_short_name(opts->traces[trace], label, sizeof label);
    printf("  {\"trace\":");
    stc_json_print_string(label);
    putchar(',');
    print_cache_json("icache", &candidate->geometry, &cell->best[STC_ICACHE]);
    putchar(',');
    print_cache_json("dcache", &candidate->geometry, &cell->best[STC_DCACHE]);
    printf(",\"energy_nj\":%.6f,\"request_misses\":%" PRIu64 ",\"cycles\":%" PRIu64,
           cell->energy_nj, cell->request_misses, cell->cycles);
    if (cell->tuned) {
        char iname[STC_CONFIG_NAME_MAX], dname[STC_CONFIG_NAME_MAX];
        stc_config_name(&candidate->geometry, &cell->tuned_final[STC_ICACHE], iname, sizeof iname);
        stc_config_name(&candidate->geometry, &cell->tuned_final[STC_DCACHE], dname, sizeof dname);
        printf(",\"tuned\":{\"energy_nj\":%.6f,\"icache_final\":\"%s\",\"dcache_final\":\"%s\"}",
               cell->tuned_nj, iname, dname);
    } else if (opts->tuned) {
        printf(",\"tuned\":null");
    }
    putchar('}');
}

static void print_area_json(const stc_area *area)
{
    printf("\"area\":{\"total_um2\":%.1f,\"sram_um2\":%.1f,\"logic_um2\":%.1f,\"logic_ge\":%.1f,"
           "\"sram_bits\":%" PRIu64 ",\"regfile_bits\":%" PRIu64 ",\"caches\":{",
           area->total_um2, area->sram_um2, area->logic_um2, area->logic_ge, area->sram_bits,
           area->regfile_bits);
    for (int kind = STC_ICACHE; kind <= STC_DCACHE; kind++) {
        const stc_area_cache *cache = &area->cache[kind];
        printf("%s\"%s\":{\"bank_sram_bits\":%" PRIu64 ",\"monitor_sram_bits\":%" PRIu64
               ",\"sram_um2\":%.1f,\"regfile_bits\":%" PRIu64 ",\"regfile_ge\":%.1f,"
               "\"regfile_um2\":%.1f,\"logic_ge\":%.1f,\"logic_um2\":%.1f,\"flops\":%.1f,"
               "\"total_um2\":%.1f,\"modules\":{",
               kind == STC_ICACHE ? "" : ",", kind == STC_ICACHE ? "icache" : "dcache",
               cache->bank_sram_bits, cache->monitor_sram_bits, cache->sram_um2,
               cache->regfile_bits, cache->regfile_ge, cache->regfile_um2, cache->logic_ge,
               cache->logic_um2, cache->flops, cache->total_um2);
        for (int module = 0; module < STC_AREA_MODULES; module++) {
            const stc_area_logic *logic = &cache->module[module];
            printf("%s\"%s\":{\"ge\":%.1f,\"um2\":%.1f,\"flops\":%.1f,\"terms\":{",
                   module ? "," : "", stc_area_module_name((stc_area_module)module), logic->ge,
                   logic->um2, logic->flops);
            for (size_t term = 0; term < logic->term_count; term++) {
                printf("%s\"%s\":%.0f", term ? "," : "",
                       stc_area_term_name((stc_area_module)module, term), logic->terms[term]);
            }
            printf("}}");
        }
        printf("}}");
    }
    printf("}}");
}

static void print_candidate_json(const explore_options *opts,
                                 const stc_explore_candidate *candidate,
                                 const candidate_summary *sum)
{
    const stc_geometry *g = &candidate->geometry;
    char command[STC_EXPLORE_COMMAND_MAX];
    stc_explore_stcgen_command(candidate, command, sizeof command);
    printf(" {\"name\":\"%s\",\"banks\":%u,\"bank_bytes\":%u,\"line_bytes\":%u,\"addr_bits\":%u,"
           "\"way_prediction\":%s,\"stcgen\":",
           candidate->name, g->banks, g->bank_bytes, g->line_bytes, g->addr_bits,
           candidate->way_prediction ? "true" : "false");
    stc_json_print_string(command);
    putchar(',');
    print_area_json(&sum->area);
    printf(",\"area_calibrated\":%s", stc_area_calibrated(g) ? "true" : "false");
    if (opts->area_only) {
        return;
    }
    printf(",\"energy_table\":");
    stc_json_print_string(candidate->energy_table.source);
    printf(",\"on_front\":%s,\"total\":{\"energy_nj\":%.6f,\"request_misses\":%" PRIu64
           ",\"cycles\":%" PRIu64,
           sum->on_front ? "true" : "false", sum->energy_nj, sum->request_misses, sum->cycles);
    if (opts->tuned && !stc_explore_tuned_unavailable(candidate)) {
        printf(",\"tuned_nj\":%.6f", sum->tuned_nj);
    } else if (opts->tuned) {
        printf(",\"tuned_nj\":null,\"tuned_unavailable\":");
        stc_json_print_string(stc_explore_tuned_unavailable(candidate));
    }
    printf("},\n  \"per_trace\":[\n");
}

static void print_json(const explore_options *opts, const candidate_set *set,
                       const stc_explore_result *result, const candidate_summary *summary,
                       const size_t *order, size_t front_count)
{
    printf("{\"area_model\":{\"sram_um2_per_bit\":%.2f,\"calibration_error_um2\":%.4f,"
           "\"calibration_error_ge\":%.4f},\n",
           STC_AREA_SRAM_UM2_PER_BIT, stc_area_calibration_error_um2(),
           stc_area_calibration_error_ge());
    if (!opts->area_only) {
        printf("\"tuned\":%s,\"traces\":[", opts->tuned ? "true" : "false");
        for (size_t t = 0; t < result->trace_count; t++) {
            char label[64];
            stc_trace_short_name(opts->traces[t], label, sizeof label);
            printf("%s{\"name\":", t ? "," : "");
            stc_json_print_string(label);
            printf(",\"path\":");
            stc_json_print_string(opts->traces[t]);
            printf(",\"references\":%" PRIu64 "}", result->references[t]);
        }
        printf("],\n");
    }
    printf("\"geometries\":[\n");
    for (size_t c = 0; c < set->candidate_count; c++) {
        print_candidate_json(opts, &set->candidates[c], &summary[c]);
        for (size_t t = 0; !opts->area_only && t < result->trace_count; t++) {
            print_cell_json(opts, &set->candidates[c], stc_explore_cell_at(result, c, t), t);
            printf("%s\n", t + 1 < result->trace_count ? "," : "");
        }
        printf("%s}%s\n", opts->area_only ? "" : " ]", c + 1 < set->candidate_count ? "," : "");
    }
    printf("],\n\"skipped\":[");
    for (size_t index = 0; index < set->skipped_count; index++) {
        printf("%s\n {\"name\":\"%s\",\"stcgen\":", index ? "," : "", set->skipped[index].name);
        stc_json_print_string(set->skipped[index].command);
        printf(",\"reason\":");
        stc_json_print_string(set->skipped[index].reason);
        putchar('}');
    }
    printf("]");
    if (!opts->area_only) {
        printf(",\n\"front\":[");
        for (size_t index = 0; index < front_count; index++) {
            const stc_explore_candidate *candidate = &set->candidates[order[index]];
            char command[STC_EXPLORE_COMMAND_MAX];
            stc_explore_stcgen_command(candidate, command, sizeof command);
            printf("%s\n {\"name\":\"%s\",\"area_um2\":%.1f,\"energy_nj\":%.6f,\"stcgen\":",
                   index ? "," : "", candidate->name, summary[order[index]].area.total_um2,
                   summary[order[index]].energy_nj);
            stc_json_print_string(command);
            putchar('}');
        }
        printf("]");
    }
    printf("}\n");
}

static void print_area_only(const candidate_set *set, const candidate_summary *summary)
{
    printf("area of the I+D pair stcgen builds (SRAM %.2f um^2/bit, assumed; logic from the "
           "calibrated model; ~: outside its ranges, extrapolated)\n",
           STC_AREA_SRAM_UM2_PER_BIT);
    printf("%-24s %10s %10s %10s %10s %10s %10s\n", "geometry", "sram-bits", "sram-mm2",
           "logic-kGE", "flops", "logic-mm2", "total-mm2");
    for (size_t c = 0; c < set->candidate_count; c++) {
        const stc_area *area = &summary[c].area;
        printf("%-24s %10" PRIu64 " %10.3f %10.1f %10.0f %10.3f %10.3f%s\n",
               set->candidates[c].name, area->sram_bits, area->sram_um2 / 1e6,
               area->logic_ge / 1e3, area->cache[0].flops + area->cache[1].flops,
               area->logic_um2 / 1e6, area->total_um2 / 1e6,
               stc_area_calibrated(&set->candidates[c].geometry) ? "" : " ~");
    }
    print_skipped(set);
}

/* ---- main ------------------------------------------------------------------------- */

static int report(const explore_options *opts, const candidate_set *set,
                  const stc_explore_result *result)
{
    candidate_summary *summary = calloc(set->candidate_count, sizeof *summary);
    size_t *order = calloc(set->candidate_count, sizeof *order);
    int status = 1;
    if (!summary || !order) {
        stc_cli_message(program, "out of memory");
    } else if (summarize(set, opts->area_only ? NULL : result, summary) == 0) {
        size_t front_count = opts->area_only ? 0 : front_order(set, summary, order);
        if (opts->json) {
            print_json(opts, set, result, summary, order, front_count);
        } else if (opts->area_only) {
            print_area_only(set, summary);
        } else {
            print_table(opts, set, result, summary, order, front_count);
        }
        status = stc_cli_finish_report(program);
    }
    free(summary);
    free(order);
    return status;
}

/* Tables, then every (geometry, trace). Returns 0, 1 or 2 after a message. */
static int run(const explore_options *opts, candidate_set *set, stc_explore_result *result)
{
    int status = assign_energy_tables(opts, set);
    if (status == 0 && opts->tuned) {
        status = check_tuner_tables(set);
    }
    if (status != 0) {
        return status;
    }
    char err[ERR_LEN];
    stc_explore_request request = {
        .candidates = set->candidates, .candidate_count = set->candidate_count,
        .traces = opts->traces, .trace_count = opts->trace_count, .format = opts->format,
        .limit = opts->limit, .tuned = opts->tuned, .workers = opts->jobs,
        .progress = isatty(STDERR_FILENO) ? show_progress : NULL};
    status = stc_explore_run(&request, result, err, sizeof err);
    if (status != 0) {
        stc_cli_message(program, "%s", err);
    }
    return status;
}

int stc_explore_main(int argc, char **argv)
{
    explore_options opts;
    candidate_set set = {0};
    stc_explore_result result = {0};
    int status = parse_options(argc, argv, &opts);
    if (status == 1) {
        status = 0; /* --help */
    } else if (status == 0) {
        status = build_candidates(&opts, &set);
        if (status == 0 && !opts.area_only) {
            status = run(&opts, &set, &result);
        }
        if (status == 0) {
            status = report(&opts, &set, &result);
        }
    }
    stc_explore_result_free(&result);
    free(set.candidates);
    free(set.skipped);
    free(opts.traces);
    free(opts.energy_paths);
    return status;
}
