/*
 * coherence_stc_cli.c - `stcsim coherence --stc-config LIST` (the contract
 * is coherence_stc_cli.h; docs/COHERENCE.md section 11): every core's
 * D-cache an stc cache of the geometry in its own configuration, coherent
 * per physical line. Prints the coherence counters of section 9 and each
 * cache's own counters, per core and in total, each core's energy priced
 * by its configuration (docs/ENERGY.md 3.9.1), and the checks' result.
 * With --stc-tune, the oracle coordinate descent of ref/coherent_tune.h
 * and its comparison (docs/COHERENCE.md 11.8). The whole trace is read
 * before anything is printed.
 */
#include "coherence_stc_cli.h"

#include "coherence_rows.h"
#include "coherence_split_cli.h"

#include "coherent_common.h"
#include "coherent_stc.h"
#include "coherent_stc_split.h"
#include "coherent_tune.h"
#include "json.h"
#include "mc_trace.h"
#include "options.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ERR_LEN = 512 };

/* Bad usage: "PROGRAM: OPTION 'WHAT': WHY", then where the usage is. */
static int usage_error(const char *program, const char *option, const char *what, const char *why)
{
    stc_cli_message(program, "%s '%s': %s", option, what, why);
    fprintf(stderr, "(%s --help for usage)\n", program);
    return STC_CLI_BAD_USAGE;
}

/* The configurations of LIST (option --stc-config or --stc-tune): one
 * name for every core, or one per core, comma-separated. */
static int parse_configs(const stc_coh_stc_request *request, const char *option,
                         const char *list_text, stc_cstc_config *config)
{
    if (strcmp(list_text, STC_COH_STC_ALL) == 0 && !request->stc_tune) {
        /* the sweep: a system in the reset configuration checks the rest */
        for (unsigned c = 0; c < config->cores; c++)
            config->configs[c] = stc_config_reset(&config->geometry);
        return STC_CLI_PARSED;
    }
    char list[ERR_LEN];
    if (strlen(list_text) >= sizeof list)
        return usage_error(request->program, option, list_text, "too long");
    strcpy(list, list_text);
    unsigned count = 0;
    char *save = NULL;
    for (char *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        char err[ERR_LEN];
        if (count == config->cores)
            return usage_error(request->program, option, list_text,
                               "more names than cores (give one, or one per core)");
        if (stc_config_parse(&config->geometry, name, &config->configs[count], err, sizeof err))
            return usage_error(request->program, option, name, err);
        count++;
    }
    if (count != 1 && count != config->cores)
        return usage_error(request->program, option, list_text,
                           "fewer names than cores (give one, or one per core)");
    for (unsigned c = count; c < config->cores; c++)
        config->configs[c] = config->configs[0];
    return STC_CLI_PARSED;
}

/* The option that gave the configurations, and its text. */
static const char *list_option(const stc_coh_stc_request *request)
{
    return request->stc_tune ? "--stc-tune" : "--stc-config";
}

static const char *list_text(const stc_coh_stc_request *request)
{
    return request->stc_tune ? request->stc_tune : request->stc_configs;
}

static int build_config(const stc_coh_stc_request *request, stc_cstc_config *config)
{
    char err[ERR_LEN];
    *config = (stc_cstc_config){.cores = request->cores, .protocol = request->protocol};
    stc_geometry_default(&config->geometry);
    int failed = request->geometry
                     ? stc_geometry_parse(&config->geometry, request->geometry, err, sizeof err)
                     : stc_geometry_init(&config->geometry, err, sizeof err);
    if (failed)
        return usage_error(request->program, "--geometry",
                           request->geometry ? request->geometry : "", err);
    if (request->stc_configs)
        config->snoop_filter = request->snoop_filter;
    return parse_configs(request, list_option(request), list_text(request), config);
}

/* What is done with each record of the trace: 0, or -1 with why. */
typedef int record_fn(void *context, const stc_mc_ref *ref, char *why, size_t why_len);

/* Every record of the trace to visit, the size checked against the
 * physical line first. Returns 0, or 1 after a FILE:LINE message. */
static int read_records(const stc_coh_stc_request *request, stc_mc_trace *trace, uint32_t line,
                        record_fn *visit, void *context)
{
    stc_mc_ref ref;
    int got;
    while ((got = stc_mc_trace_next(trace, &ref)) > 0) {
        char why[ERR_LEN];
        if (ref.label != STC_MC_FETCH && ref.size > line) {
            stc_cli_message(request->program,
                            "%s:%" PRIu64 ": size %" PRIu32
                            " larger than the physical line (%" PRIu32 " bytes)",
                            stc_mc_trace_name(trace), stc_mc_trace_line(trace), ref.size, line);
            return 1;
        }
        if (visit(context, &ref, why, sizeof why) != 0) {
            stc_cli_message(request->program, "%s:%" PRIu64 ": %s", stc_mc_trace_name(trace),
                            stc_mc_trace_line(trace), why);
            return 1;
        }
    }
    if (got < 0) {
        stc_cli_message(request->program, "%s", stc_mc_trace_error(trace));
        return 1;
    }
    return 0;
}

/* A run: the record into the system. */
typedef struct {
    stc_cstc_system *system;
    uint64_t stores;
} run_context;

static int apply_record(void *context, const stc_mc_ref *ref, char *why, size_t why_len)
{
    run_context *run = context;
    if (stc_cstc_apply(run->system, ref, &run->stores) == 0)
        return 0;
    snprintf(why, why_len, "%s", stc_cstc_error(run->system));
    return -1;
}

/* The tuner's trace: every record kept (it is run once per candidate). */
typedef struct {
    stc_mc_ref *refs;
    size_t count;
    size_t capacity;
} ref_list;

static int keep_record(void *context, const stc_mc_ref *ref, char *why, size_t why_len)
{
    ref_list *list = context;
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? 2 * list->capacity : 4096;
        stc_mc_ref *grown = realloc(list->refs, capacity * sizeof *grown);
        if (!grown) {
            snprintf(why, why_len, "out of memory keeping the trace");
            return -1;
        }
        list->refs = grown;
        list->capacity = capacity;
    }
    list->refs[list->count++] = *ref;
    return 0;
}

/* ------------------------------------------------------------ output */

/* Counter i of the list: the coherence counters, then the cache's. */
enum { COUNTERS = STC_COH_COUNTER_COUNT + STC_CSTC_CACHE_COUNTER_COUNT };

static const char *counter_name(unsigned i)
{
    return i < STC_COH_COUNTER_COUNT ? stc_coh_counter_name(i)
                                     : stc_cstc_cache_counter_name(i - STC_COH_COUNTER_COUNT);
}

static uint64_t counter_value(const stc_cstc_counters *counters, unsigned i)
{
    return i < STC_COH_COUNTER_COUNT
               ? stc_coh_counter_value(&counters->coherence, i)
               : stc_cstc_cache_counter_value(&counters->cache, i - STC_COH_COUNTER_COUNT);
}

/* Core c's counters, or the total for c == cores. */
static stc_cstc_counters counters_of(const stc_cstc_system *system, unsigned c)
{
    stc_cstc_counters counters;
    if (c < stc_cstc_config_of(system)->cores)
        stc_cstc_core_counters(system, c, &counters);
    else
        stc_cstc_total(system, &counters);
    return counters;
}

/* The energy model of the run's geometry; priced false, with why, for a
 * geometry beyond the default model (the counters are printed anyway). */
typedef struct {
    stc_cstc_energy_model model;
    bool priced;
    char why[ERR_LEN];
    /* the snoop filter's lookup and write, for blocks of a physical line
     * (docs/ENERGY.md 3.9, COHERENCE.md 11.10): filtered false without one */
    bool filtered;
    stc_sf_energy_terms filter;
} run_energy;

static void energy_model_of(const stc_cstc_config *config, run_energy *energy)
{
    const stc_geometry *geometry = &config->geometry;
    energy->priced = stc_cstc_energy_model_default(geometry, &energy->model, energy->why,
                                                   sizeof energy->why) == 0;
    energy->filtered = stc_coh_filter_terms(&config->snoop_filter, geometry->line_bytes,
                                            geometry->addr_bits, &energy->filter) == 0;
}

/* Core c's energy, or the total (the cores' sum) for c == cores. */
static stc_coh_energy energy_of(const stc_cstc_system *system, const run_energy *priced,
                                unsigned c)
{
    const stc_cstc_energy_model *model = &priced->model;
    const stc_cstc_config *config = stc_cstc_config_of(system);
    stc_coh_run_cycles run;
    stc_cstc_run_cycles_of(system, &run);
    stc_coh_energy energy = {0};
    for (unsigned core = 0; core < config->cores; core++) {
        if (c < config->cores && core != c)
            continue;
        stc_cstc_counters counters;
        stc_cstc_core_counters(system, core, &counters);
        const stc_config *core_config = stc_cache_config(stc_cstc_cache(system, core));
        stc_coh_energy part;
        stc_cstc_energy_of(model, core_config, &counters, &part);
        if (priced->filtered)
            stc_coh_energy_add_filter(&priced->filter, stc_cstc_filter_counters(system, core),
                                      &part);
        /* every cache leaks until the run's last cycle (ENERGY.md 3.9.2) */
        stc_coh_energy_add_static(&part, run.cycles,
                                  stc_cstc_static_per_cycle(model, core_config));
        /* the processor's stall for each cycle its core waited (3.9.2) */
        stc_coh_energy_add_stall(&part, stc_cstc_core_cycles_of(system, core)->waited_cycles,
                                 stc_cstc_stall_per_cycle(model));
        stc_coh_energy_add(&energy, &part);
    }
    return energy;
}

/* The rows after total_with_stall_nj split the same energy by where it is
 * spent (ENERGY.md 3.9.3): cache_nj + offchip_nj + bus_nj + bus_data_nj +
 * stall_nj + probe_stall_nj = total_with_stall_nj. */
enum { ENERGY_PARTS = 17, FILTER_PART = 6 };
static const char *const energy_part_names[ENERGY_PARTS] = {
    "access_nj", "snoop_nj",  "memory_read_nj", "c2c_nj",    "memory_write_nj",
    "bus_nj",    "filter_nj", "total_nj",       "static_nj", "total_with_static_nj",
    "stall_nj",  "total_with_stall_nj",
    "cache_lines_nj", "cache_nj", "offchip_nj", "bus_data_nj", "probe_stall_nj"};

static double energy_part(const stc_coh_energy *energy, unsigned part)
{
    const double values[ENERGY_PARTS] = {energy->access_nj,      energy->snoop_nj,
                                         energy->memory_read_nj, energy->c2c_nj,
                                         energy->memory_write_nj, energy->bus_nj,
                                         energy->filter_nj,      energy->total_nj,
                                         energy->static_nj,      energy->total_with_static_nj,
                                         energy->stall_nj,       energy->total_with_stall_nj,
                                         energy->cache_lines_nj, energy->cache_nj,
                                         energy->offchip_nj,     energy->bus_data_nj,
                                         energy->probe_stall_nj};
    return values[part];
}

/* The run's cycles, as text rows or a JSON member. */
static void print_cycles(const stc_cstc_system *system, bool json, int name_width)
{
    unsigned cores = stc_cstc_config_of(system)->cores;
    stc_coh_core_cycles per_core[STC_COH_MAX_CORES];
    for (unsigned c = 0; c < cores; c++)
        per_core[c] = *stc_cstc_core_cycles_of(system, c);
    stc_coh_run_cycles run;
    stc_cstc_run_cycles_of(system, &run);
    if (json)
        stc_coh_print_cycles_json(per_core, cores, &run, stc_cstc_timing_of(system));
    else
        stc_coh_print_cycles_text(name_width, per_core, cores, &run, stc_cstc_timing_of(system));
}

static void print_energy_text(const stc_cstc_system *system, const run_energy *energy)
{
    if (!energy->priced) {
        printf("energy: not priced (%s)\n", energy->why);
        return;
    }
    unsigned cores = stc_cstc_config_of(system)->cores;
    for (unsigned part = 0; part < ENERGY_PARTS; part++) {
        if (part == FILTER_PART && !energy->filtered)
            continue; /* without a filter the report is as it always was */
        printf("%-24s", energy_part_names[part]);
        for (unsigned c = 0; c <= cores; c++) {
            stc_coh_energy e = energy_of(system, energy, c);
            printf(" %13.1f", energy_part(&e, part));
        }
        printf("\n");
    }
}

static void print_violations_text(const stc_cstc_system *system)
{
    printf("violations: %" PRIu64, stc_cstc_violation_count(system));
    for (int k = 0; k < STC_COH_VIOL_KIND_COUNT; k++)
        printf("%s%s %" PRIu64, k ? ", " : " (",
               stc_coh_violation_kind_name((stc_coh_violation_kind)k),
               stc_cstc_violation_kind_count(system, (stc_coh_violation_kind)k));
    printf(")\n");
    for (unsigned i = 0; stc_cstc_violation_at(system, i); i++)
        printf("  %s\n", stc_cstc_violation_at(system, i)->text);
}

static void print_header_text(const char *what, const stc_cstc_config *config,
                              const char *trace_name)
{
    char filter[80] = "";
    if (config->snoop_filter.kind != STC_SF_NONE) {
        snprintf(filter, sizeof filter, ", snoop filter ");
        stc_sf_describe(&config->snoop_filter, filter + strlen(filter),
                        sizeof filter - strlen(filter));
    }
    printf("stcsim coherence%s: %s: %u cores, %s, stc caches (%u banks x %u B, %u B physical "
           "lines = the coherence unit), atomic bus%s\n",
           what, trace_name, config->cores, stc_coh_protocol_name(config->protocol),
           config->geometry.banks, config->geometry.bank_bytes, config->geometry.line_bytes,
           filter);
}

/* The snoop filter's counters (COHERENCE.md 11.10) as rows, per core and
 * in total; nothing without a filter. */
static void print_filter_text(const stc_cstc_system *system)
{
    unsigned cores = stc_cstc_config_of(system)->cores;
    if (!stc_cstc_filter_counters(system, 0))
        return;
    stc_sf_counters total;
    stc_cstc_filter_total(system, &total);
    for (unsigned i = 0; i < STC_SF_COUNTER_COUNT; i++) {
        printf("%-24s", stc_sf_counter_name(i));
        for (unsigned c = 0; c < cores; c++)
            printf(" %13" PRIu64, stc_sf_counter_value(stc_cstc_filter_counters(system, c), i));
        printf(" %13" PRIu64 "\n", stc_sf_counter_value(&total, i));
    }
}

static void print_text(const stc_cstc_system *system, const run_energy *energy,
                       const char *trace_name)
{
    const stc_cstc_config *config = stc_cstc_config_of(system);
    print_header_text("", config, trace_name);
    printf("%-24s", "configuration");
    for (unsigned c = 0; c < config->cores; c++) {
        char name[STC_CONFIG_NAME_MAX];
        stc_config_name(&config->geometry, stc_cache_config(stc_cstc_cache(system, c)), name,
                        sizeof name);
        printf(" %13s", name);
    }
    printf("\n%-24s", "counter");
    for (unsigned c = 0; c < config->cores; c++)
        printf(" %12s%u", "core", c);
    printf(" %13s\n", "total");
    for (unsigned i = 0; i < COUNTERS; i++) {
        printf("%-24s", counter_name(i));
        for (unsigned c = 0; c <= config->cores; c++) {
            stc_cstc_counters counters = counters_of(system, c);
            printf(" %13" PRIu64, counter_value(&counters, i));
        }
        printf("\n");
    }
    print_filter_text(system);
    print_cycles(system, false, 24);
    print_energy_text(system, energy);
    print_violations_text(system);
}

static void print_counters_json(const stc_cstc_counters *counters)
{
    printf("{");
    for (unsigned i = 0; i < COUNTERS; i++)
        printf("%s\"%s\": %" PRIu64, i ? ", " : "", counter_name(i), counter_value(counters, i));
    printf("}");
}

static void print_filter_counters_json(const stc_sf_counters *counters)
{
    printf("{");
    for (unsigned i = 0; i < STC_SF_COUNTER_COUNT; i++)
        printf("%s\"%s\": %" PRIu64, i ? ", " : "", stc_sf_counter_name(i),
               stc_sf_counter_value(counters, i));
    printf("}");
}

/* The member "snoop_filter" as `stcsim coherence --snoop-filter` prints it
 * for conventional caches: the shape, then per_core and total counters.
 * Nothing without a filter. */
static void print_filter_json(const stc_cstc_system *system)
{
    const stc_cstc_config *config = stc_cstc_config_of(system);
    const stc_sf_config *filter = &config->snoop_filter;
    if (filter->kind == STC_SF_NONE)
        return;
    printf(",\n \"snoop_filter\": {\"kind\": \"exclude\", \"sets\": %" PRIu32
           ", \"ways\": %" PRIu32 ", \"blocks\": %" PRIu32 ", \"per_core\": [",
           filter->sets, filter->ways, filter->blocks);
    for (unsigned c = 0; c < config->cores; c++) {
        printf("%s\n  ", c ? "," : "");
        print_filter_counters_json(stc_cstc_filter_counters(system, c));
    }
    stc_sf_counters total;
    stc_cstc_filter_total(system, &total);
    printf("],\n  \"total\": ");
    print_filter_counters_json(&total);
    printf("}");
}

/* The fields of stc_coh_print_energy_json's object, the brace left open. */
static void print_energy_fields_json(const stc_coh_energy *energy, bool with_filter)
{
    printf("{\"access\": %.6g, \"snoop\": %.6g, \"memory_read\": %.6g, \"c2c\": %.6g, "
           "\"memory_write\": %.6g, \"bus\": %.6g, ",
           energy->access_nj, energy->snoop_nj, energy->memory_read_nj, energy->c2c_nj,
           energy->memory_write_nj, energy->bus_nj);
    if (with_filter)
        printf("\"filter\": %.6g, ", energy->filter_nj);
    printf("\"total\": %.6g", energy->total_nj);
}

void stc_coh_print_energy_json(const stc_coh_energy *energy, bool with_filter)
{
    print_energy_fields_json(energy, with_filter);
    printf("}");
}

/* stc_coh_print_energy_static_json's fields, the brace left open. */
static void print_energy_static_fields_json(const stc_coh_energy *energy, bool with_filter)
{
    /* the old fields first, unchanged, then leakage's */
    print_energy_fields_json(energy, with_filter);
    printf(", \"static\": %.6g, \"total_with_static\": %.6g, \"stall\": %.6g, "
           "\"total_with_stall\": %.6g",
           energy->static_nj, energy->total_with_static_nj, energy->stall_nj,
           energy->total_with_stall_nj);
}

void stc_coh_print_energy_static_json(const stc_coh_energy *energy, bool with_filter)
{
    print_energy_static_fields_json(energy, with_filter);
    printf("}");
}

/* The stc runs' energy object (--stc-config, --stc-tune): every field of
 * stc_coh_print_energy_static_json's, then the split by where the energy
 * is spent (ENERGY.md 3.9.3). */
static void print_energy_split_json(const stc_coh_energy *energy, bool with_filter)
{
    print_energy_static_fields_json(energy, with_filter);
    printf(", \"cache_lines\": %.6g, \"cache\": %.6g, \"offchip\": %.6g, "
           "\"bus_data\": %.6g, \"probe_stall\": %.6g}",
           energy->cache_lines_nj, energy->cache_nj, energy->offchip_nj, energy->bus_data_nj,
           energy->probe_stall_nj);
}

void stc_coh_print_cycles_text(int name_width, const stc_coh_core_cycles *per_core,
                               unsigned cores, const stc_coh_run_cycles *run,
                               const stc_coh_bus_timing *timing)
{
    printf("%-*s", name_width, "cycles");
    for (unsigned c = 0; c < cores; c++)
        printf(" %13" PRIu64, per_core[c].cycles);
    printf(" %13" PRIu64 "\n%-*s", run->cycles, name_width, "stall_cycles");
    for (unsigned c = 0; c < cores; c++)
        printf(" %13" PRIu64, per_core[c].stall_cycles);
    printf(" %13" PRIu64 "\n%-*s", run->stall_cycles, name_width, "bus_cycles");
    for (unsigned c = 0; c < cores; c++)
        printf(" %13" PRIu64, per_core[c].bus_cycles);
    printf(" %13" PRIu64 "\n%-*s", run->bus_busy_cycles, name_width, "waited_cycles");
    for (unsigned c = 0; c < cores; c++)
        printf(" %13" PRIu64, per_core[c].waited_cycles);
    printf(" %13" PRIu64 "\n", run->waited_cycles);
    printf("bus: busy %" PRIu64 " of %" PRIu64 " cycles (%.1f %%); address %u, memory latency %u, "
           "%u beats per line, supplier read %u\n",
           run->bus_busy_cycles, run->cycles, 100.0 * run->bus_utilisation,
           timing->address_cycles, timing->mem_latency, timing->beats_per_line,
           timing->supply_read_cycles);
}

void stc_coh_print_cycles_json(const stc_coh_core_cycles *per_core, unsigned cores,
                               const stc_coh_run_cycles *run, const stc_coh_bus_timing *timing)
{
    printf(",\n \"cycles\": {\"timing\": {\"address\": %u, \"mem_latency\": %u, "
           "\"beats_per_line\": %u, \"supply_read\": %u},\n  \"per_core\": [",
           timing->address_cycles, timing->mem_latency, timing->beats_per_line,
           timing->supply_read_cycles);
    for (unsigned c = 0; c < cores; c++)
        printf("%s{\"cycles\": %" PRIu64 ", \"stall_cycles\": %" PRIu64
               ", \"bus_cycles\": %" PRIu64 ", \"waited_cycles\": %" PRIu64 "}",
               c ? ", " : "", per_core[c].cycles, per_core[c].stall_cycles,
               per_core[c].bus_cycles, per_core[c].waited_cycles);
    printf("],\n  \"total\": {\"cycles\": %" PRIu64 ", \"stall_cycles\": %" PRIu64
           ", \"bus_busy_cycles\": %" PRIu64 ", \"bus_utilisation\": %.6g"
           ", \"waited_cycles\": %" PRIu64 "}}",
           run->cycles, run->stall_cycles, run->bus_busy_cycles, run->bus_utilisation,
           run->waited_cycles);
}

/* The price of each event for a core in config. */
static void print_terms_json(const run_energy *energy, const stc_config *config)
{
    const stc_cstc_energy_model *model = &energy->model;
    stc_coherence_energy terms;
    stc_cstc_energy_terms(model, config, &terms);
    unsigned k = stc_log2(config->banks_on);
    printf("{\"access\": %.6g, \"first_probe\": %.6g, \"second_probe_stall\": %.6g, "
           "\"snoop_lookup\": %.6g, \"memory_read\": %.6g, \"c2c\": %.6g, "
           "\"memory_write\": %.6g, \"bus_address\": %.6g",
           terms.access_nj, model->table.hit_nj[k][0],
           config->way_predict ? model->table.stall_nj_per_cycle : 0.0, terms.snoop_lookup_nj,
           terms.memory_read_nj, terms.c2c_nj, terms.memory_write_nj, terms.bus_address_nj);
    if (energy->filtered)
        printf(", \"filter_lookup\": %.6g, \"filter_write\": %.6g", energy->filter.lookup_nj,
               energy->filter.write_nj);
    printf(", \"static_per_cycle\": %.6g, \"stall_per_cycle\": %.6g"
           ", \"line_fill\": %.6g, \"line_read\": %.6g}",
           stc_cstc_static_per_cycle(model, config), stc_cstc_stall_per_cycle(model),
           terms.line_fill_nj, terms.line_read_nj);
}

static void print_energy_json(const stc_cstc_system *system, const run_energy *energy)
{
    if (!energy->priced) {
        printf(",\n \"energy_terms_nj\": null, \"energy_nj\": null, \"energy_note\": ");
        stc_json_print_string(energy->why);
        return;
    }
    unsigned cores = stc_cstc_config_of(system)->cores;
    printf(",\n \"energy_terms_nj\": [");
    for (unsigned c = 0; c < cores; c++) {
        printf("%s\n  ", c ? "," : "");
        print_terms_json(energy, stc_cache_config(stc_cstc_cache(system, c)));
    }
    printf("],\n \"energy_nj\": {\"per_core\": [");
    for (unsigned c = 0; c < cores; c++) {
        printf("%s\n  ", c ? "," : "");
        stc_coh_energy e = energy_of(system, energy, c);
        print_energy_split_json(&e, energy->filtered);
    }
    printf("],\n  \"total\": ");
    stc_coh_energy total = energy_of(system, energy, cores);
    print_energy_split_json(&total, energy->filtered);
    printf("}");
}

static void print_geometry_json(const stc_cstc_config *config, const char *trace_name,
                                const char *bus)
{
    const stc_geometry *geometry = &config->geometry;
    printf("{\"trace\": ");
    stc_json_print_string(trace_name);
    printf(", \"protocol\": \"%s\", \"cores\": %u, \"bus\": \"%s\", \"geometry\": "
           "{\"banks\": %u, \"bank_bytes\": %u, \"line_bytes\": %u, \"addr_bits\": %u}",
           stc_coh_protocol_name(config->protocol), config->cores, bus, geometry->banks,
           geometry->bank_bytes, geometry->line_bytes, geometry->addr_bits);
}

static void print_config_names_json(const stc_geometry *geometry, const stc_config *configs,
                                    unsigned cores)
{
    printf("[");
    for (unsigned c = 0; c < cores; c++) {
        char name[STC_CONFIG_NAME_MAX];
        stc_config_name(geometry, &configs[c], name, sizeof name);
        printf("%s\"%s\"", c ? ", " : "", name);
    }
    printf("]");
}

/* The table the system runs (a test's own, or the protocol's). */
static const stc_coh_table *table_of(const stc_cstc_config *config)
{
    return config->table ? config->table : stc_coh_table_of(config->protocol);
}

static void print_json(const stc_cstc_system *system, const run_energy *energy,
                       const char *trace_name, bool rows)
{
    const stc_cstc_config *config = stc_cstc_config_of(system);
    print_geometry_json(config, trace_name, "atomic");
    printf(",\n \"stc_configs\": ");
    stc_config configs[STC_COH_MAX_CORES];
    for (unsigned c = 0; c < config->cores; c++)
        configs[c] = *stc_cache_config(stc_cstc_cache(system, c));
    print_config_names_json(&config->geometry, configs, config->cores);
    printf(",\n \"per_core\": [");
    for (unsigned c = 0; c < config->cores; c++) {
        printf("%s\n  ", c ? "," : "");
        stc_cstc_counters counters = counters_of(system, c);
        print_counters_json(&counters);
    }
    printf("],\n \"total\": ");
    stc_cstc_counters total = counters_of(system, config->cores);
    print_counters_json(&total);
    print_filter_json(system);
    print_cycles(system, true, 0);
    print_energy_json(system, energy);
    printf(",\n \"violations\": {\"count\": %" PRIu64, stc_cstc_violation_count(system));
    for (int k = 0; k < STC_COH_VIOL_KIND_COUNT; k++)
        printf(", \"%s\": %" PRIu64, stc_coh_violation_kind_name((stc_coh_violation_kind)k),
               stc_cstc_violation_kind_count(system, (stc_coh_violation_kind)k));
    printf(", \"first\": [");
    for (unsigned i = 0; stc_cstc_violation_at(system, i); i++) {
        printf("%s", i ? ", " : "");
        stc_json_print_string(stc_cstc_violation_at(system, i)->text);
    }
    printf("]}");
    if (rows) {
        printf(",\n \"rows\": ");
        stc_coh_rows_print_json(table_of(config), stc_cstc_row_uses_of(system));
    }
    printf("}\n");
}

/* ------------------------------------------------------------ one run */

static int run_once(const stc_coh_stc_request *request, stc_cstc_system *system,
                    const run_energy *energy, stc_mc_trace *trace)
{
    run_context run = {.system = system};
    uint32_t line = stc_cstc_config_of(system)->geometry.line_bytes;
    int status = read_records(request, trace, line, apply_record, &run);
    if (status != 0)
        return status;
    if (request->json) {
        print_json(system, energy, stc_mc_trace_name(trace), request->rows);
    } else {
        print_text(system, energy, stc_mc_trace_name(trace));
        if (request->rows)
            stc_coh_rows_print_text(table_of(stc_cstc_config_of(system)),
                                    stc_cstc_row_uses_of(system));
    }
    return stc_cstc_violation_count(system) > 0 ? 3 : 0;
}

/* ------------------------------------------------------------ the tuner */

/* The three assignments --stc-tune reports. */
typedef struct {
    stc_ctune_assignment start;    /* the descent's start (the conventional cache) */
    stc_ctune_assignment alone;    /* each core's single-cache choice, run coherent */
    stc_ctune_assignment coherent; /* the descent's local optimum */
    double single_nj[STC_COH_MAX_CORES]; /* the alone choices' single-cache energies */
    unsigned rounds;
    unsigned runs;
} tune_report;

static int tune(const stc_ctune_problem *problem, const stc_config *start, tune_report *report,
                char *err, size_t err_len)
{
    stc_config alone[STC_COH_MAX_CORES];
    if (stc_ctune_alone(problem, alone, report->single_nj, err, err_len) != 0 ||
        stc_ctune_evaluate(problem, start, &report->start, err, err_len) != 0 ||
        stc_ctune_evaluate(problem, alone, &report->alone, err, err_len) != 0)
        return -1;
    return stc_ctune_descend(problem, start, &report->coherent, &report->rounds, &report->runs,
                             err, err_len);
}

static double percent_against(double value, double base)
{
    return base > 0.0 ? 100.0 * (value - base) / base : 0.0;
}

static void print_assignment_text(const stc_geometry *geometry, unsigned cores, const char *label,
                                  const stc_ctune_assignment *assignment,
                                  const stc_ctune_assignment *start)
{
    printf("%-24s", label);
    for (unsigned c = 0; c < cores; c++) {
        char name[STC_CONFIG_NAME_MAX];
        stc_config_name(geometry, &assignment->configs[c], name, sizeof name);
        printf(" %13s", name);
    }
    printf("\n%-24s", "  energy_nj");
    for (unsigned c = 0; c < cores; c++)
        printf(" %13.1f", assignment->per_core[c].total_nj);
    printf(" %13.1f %+7.2f %%  (%" PRIu64 " violations)\n", assignment->total.total_nj,
           percent_against(assignment->total.total_nj, start->total.total_nj),
           assignment->violations);
    /* leakage over the run's cycles included */
    printf("%-24s", "  with_static_nj");
    for (unsigned c = 0; c < cores; c++)
        printf(" %13.1f", assignment->per_core[c].total_with_static_nj);
    printf(" %13.1f %+7.2f %%  (%" PRIu64 " cycles)\n", assignment->total.total_with_static_nj,
           percent_against(assignment->total.total_with_static_nj,
                           start->total.total_with_static_nj),
           assignment->cycles.cycles);
    /* the objective: the processors' stall included too (ENERGY.md 3.9.2) */
    printf("%-24s", "  with_stall_nj");
    for (unsigned c = 0; c < cores; c++)
        printf(" %13.1f", assignment->per_core[c].total_with_stall_nj);
    printf(" %13.1f %+7.2f %%  (%" PRIu64 " waited cycles)\n",
           assignment->total.total_with_stall_nj,
           percent_against(assignment->total.total_with_stall_nj,
                           start->total.total_with_stall_nj),
           assignment->cycles.waited_cycles);
    /* the L1 D-caches' own share of it (ENERGY.md 3.9.3) */
    printf("%-24s", "  cache_nj");
    for (unsigned c = 0; c < cores; c++)
        printf(" %13.1f", assignment->per_core[c].cache_nj);
    printf(" %13.1f %+7.2f %%\n", assignment->total.cache_nj,
           percent_against(assignment->total.cache_nj, start->total.cache_nj));
}

static void print_tune_text(const stc_cstc_config *config, const tune_report *report,
                            const char *trace_name)
{
    print_header_text(" --stc-tune", config, trace_name);
    printf("oracle coordinate descent on the system's energy, whole trace: %u rounds, %u runs\n",
           report->rounds, report->runs);
    printf("%-24s", "assignment");
    for (unsigned c = 0; c < config->cores; c++)
        printf(" %12s%u", "core", c);
    printf(" %13s %9s\n", "total", "vs start");
    const stc_ctune_assignment *start = &report->start;
    print_assignment_text(&config->geometry, config->cores, "start", &report->start, start);
    print_assignment_text(&config->geometry, config->cores, "alone", &report->alone, start);
    printf("%-24s", "  single_cache_nj");
    for (unsigned c = 0; c < config->cores; c++)
        printf(" %13.1f", report->single_nj[c]);
    printf("\n");
    print_assignment_text(&config->geometry, config->cores, "coherent", &report->coherent,
                          start);
}

static void print_assignment_json(const stc_geometry *geometry, unsigned cores,
                                  const stc_ctune_assignment *assignment)
{
    printf("{\"configs\": ");
    print_config_names_json(geometry, assignment->configs, cores);
    printf(",\n   \"energy_nj\": {\"per_core\": [");
    for (unsigned c = 0; c < cores; c++) {
        printf("%s\n    ", c ? "," : "");
        print_energy_split_json(&assignment->per_core[c], false);
    }
    printf("],\n    \"total\": ");
    print_energy_split_json(&assignment->total, false);
    printf("}, \"cycles\": %" PRIu64 ", \"bus_busy_cycles\": %" PRIu64
           ", \"violations\": %" PRIu64 "}",
           assignment->cycles.cycles, assignment->cycles.bus_busy_cycles, assignment->violations);
}

static void print_tune_json(const stc_cstc_config *config, const tune_report *report,
                            const char *trace_name)
{
    print_geometry_json(config, trace_name, "atomic");
    printf(",\n \"tune\": {\"search\": \"coordinate descent\", \"rounds\": %u, \"runs\": %u},",
           report->rounds, report->runs);
    printf("\n \"start\": ");
    print_assignment_json(&config->geometry, config->cores, &report->start);
    printf(",\n \"alone\": ");
    print_assignment_json(&config->geometry, config->cores, &report->alone);
    printf(",\n \"alone_single_cache_nj\": [");
    for (unsigned c = 0; c < config->cores; c++)
        printf("%s%.6g", c ? ", " : "", report->single_nj[c]);
    printf("],\n \"coherent\": ");
    print_assignment_json(&config->geometry, config->cores, &report->coherent);
    printf("}\n");
}

static bool any_violation(const tune_report *report)
{
    return report->start.violations + report->alone.violations + report->coherent.violations > 0;
}

static int run_tune(const stc_coh_stc_request *request, const stc_cstc_config *config,
                    const run_energy *energy, stc_mc_trace *trace)
{
    ref_list list = {0};
    int status = read_records(request, trace, config->geometry.line_bytes, keep_record, &list);
    if (status == 0) {
        stc_ctune_problem problem = {.system = *config, .energy = &energy->model,
                                     .refs = list.refs, .ref_count = list.count};
        tune_report report;
        char err[ERR_LEN];
        if (tune(&problem, config->configs, &report, err, sizeof err) != 0) {
            stc_cli_message(request->program, "%s: %s", stc_mc_trace_name(trace), err);
            status = 1;
        } else {
            if (request->json)
                print_tune_json(config, &report, stc_mc_trace_name(trace));
            else
                print_tune_text(config, &report, stc_mc_trace_name(trace));
            status = any_violation(&report) ? 3 : 0;
        }
    }
    free(list.refs);
    return status;
}

/* ------------------------------------------------------------ the sweep */

static bool is_sweep(const stc_coh_stc_request *request)
{
    return request->stc_configs && strcmp(request->stc_configs, STC_COH_STC_ALL) == 0;
}

/* The index of the cheapest run by the system's energy (the first of equals). */
static size_t cheapest(const stc_ctune_assignment *runs, size_t count)
{
    size_t best = 0;
    for (size_t i = 1; i < count; i++)
        if (runs[i].total.total_with_stall_nj < runs[best].total.total_with_stall_nj)
            best = i;
    return best;
}

static void print_sweep_text(const stc_cstc_config *config, const stc_ctune_assignment *runs,
                             size_t count, const char *trace_name)
{
    print_header_text(" --stc-config all", config, trace_name);
    printf("every configuration on every core, whole trace: %zu runs\n", count);
    printf("%-14s %9s %9s %9s %9s %9s %9s %11s %13s %15s %9s\n", "configuration", "misses",
           "bus_rd", "bus_rdx", "upgrades", "bus_wb", "c2c", "cycles", "cache_nj",
           "with_stall_nj", "vs best");
    size_t best = cheapest(runs, count);
    for (size_t i = 0; i < count; i++) {
        const stc_ctune_assignment *run = &runs[i];
        const stc_coh_counters *coherence = &run->counters.coherence;
        char name[STC_CONFIG_NAME_MAX];
        stc_config_name(&config->geometry, &run->configs[0], name, sizeof name);
        printf("%-14s %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64
               " %11" PRIu64 " %13.1f %15.1f %+8.2f %%%s\n",
               name, coherence->misses, coherence->bus_rd, coherence->bus_rdx,
               coherence->upgrades, coherence->bus_wb, coherence->c2c_supplied, run->cycles.cycles,
               run->total.cache_nj, run->total.total_with_stall_nj,
               percent_against(run->total.total_with_stall_nj,
                               runs[best].total.total_with_stall_nj),
               run->violations ? "  VIOLATIONS" : "");
    }
    char name[STC_CONFIG_NAME_MAX];
    stc_config_name(&config->geometry, &runs[best].configs[0], name, sizeof name);
    printf("cheapest: %s on every core (%.1f nJ, the system's energy with the stall)\n", name,
           runs[best].total.total_with_stall_nj);
}

static void print_sweep_json(const stc_cstc_config *config, const stc_ctune_assignment *runs,
                             size_t count, const char *trace_name)
{
    print_geometry_json(config, trace_name, "atomic");
    printf(",\n \"sweep\": [");
    for (size_t i = 0; i < count; i++) {
        const stc_ctune_assignment *run = &runs[i];
        char name[STC_CONFIG_NAME_MAX];
        stc_config_name(&config->geometry, &run->configs[0], name, sizeof name);
        printf("%s\n  {\"config\": ", i ? "," : "");
        stc_json_print_string(name);
        printf(", \"counters\": ");
        print_counters_json(&run->counters);
        printf(",\n   \"energy_nj\": ");
        print_energy_split_json(&run->total, false);
        printf(",\n   \"cycles\": %" PRIu64 ", \"bus_busy_cycles\": %" PRIu64
               ", \"waited_cycles\": %" PRIu64 ", \"violations\": %" PRIu64 "}",
               run->cycles.cycles, run->cycles.bus_busy_cycles, run->cycles.waited_cycles,
               run->violations);
    }
    char name[STC_CONFIG_NAME_MAX];
    stc_config_name(&config->geometry, &runs[cheapest(runs, count)].configs[0], name,
                    sizeof name);
    printf("],\n \"cheapest\": ");
    stc_json_print_string(name);
    printf("}\n");
}

static int run_sweep(const stc_coh_stc_request *request, const stc_cstc_config *config,
                     const run_energy *energy, stc_mc_trace *trace)
{
    ref_list list = {0};
    int status = read_records(request, trace, config->geometry.line_bytes, keep_record, &list);
    stc_config candidates[STC_MAX_CONFIGS];
    size_t count = stc_config_enumerate(&config->geometry, candidates, STC_MAX_CONFIGS);
    stc_ctune_assignment *runs = status == 0 ? calloc(count, sizeof *runs) : NULL;
    if (status == 0 && !runs) {
        stc_cli_message(request->program, "out of memory");
        status = 1;
    }
    stc_ctune_problem problem = {.system = *config, .energy = &energy->model, .refs = list.refs,
                                 .ref_count = list.count};
    uint64_t violations = 0;
    for (size_t i = 0; status == 0 && i < count; i++) {
        stc_config configs[STC_COH_MAX_CORES];
        for (unsigned c = 0; c < config->cores; c++)
            configs[c] = candidates[i];
        char err[ERR_LEN];
        if (stc_ctune_evaluate(&problem, configs, &runs[i], err, sizeof err) != 0) {
            stc_cli_message(request->program, "%s: %s", stc_mc_trace_name(trace), err);
            status = 1;
        }
        violations += status == 0 ? runs[i].violations : 0;
    }
    if (status == 0) {
        if (request->json)
            print_sweep_json(config, runs, count, stc_mc_trace_name(trace));
        else
            print_sweep_text(config, runs, count, stc_mc_trace_name(trace));
        status = violations ? 3 : 0;
    }
    free(runs);
    free(list.refs);
    return status;
}

/* ------------------------------------------------------------ the split bus */

/* A run on the split bus: the record submitted to its core's queue. */
typedef struct {
    stc_cspl_system *system;
    uint64_t stores;
} split_context;

static int submit_record(void *context, const stc_mc_ref *ref, char *why, size_t why_len)
{
    split_context *run = context;
    if (ref->label == STC_MC_FETCH)
        return 0; /* not coherent, not counted on this bus (COHERENCE.md 10.5) */
    /* the atomic run's store values: the n-th store writes splitmix(n) */
    stc_coh_op op = ref->label == STC_MC_WRITE ? STC_COH_OP_STORE : STC_COH_OP_LOAD;
    uint64_t n = run->stores;
    uint64_t value = op == STC_COH_OP_STORE ? (run->stores++, stc_coh_splitmix_next(&n)) : 0;
    if (stc_cspl_submit(run->system, ref->core, op, ref->addr, ref->size, value, 0) == 0)
        return 0;
    snprintf(why, why_len, "%s", stc_cs_error(stc_cspl_bus(run->system)));
    return -1;
}

/* Counter i of the split report: the split bus's, then the cache's. */
enum { SPLIT_COUNTERS = STC_CS_COUNTER_COUNT + STC_CSTC_CACHE_COUNTER_COUNT };

static const char *split_counter_name(unsigned i)
{
    return i < STC_CS_COUNTER_COUNT ? stc_cs_counter_name(i)
                                    : stc_cstc_cache_counter_name(i - STC_CS_COUNTER_COUNT);
}

static uint64_t split_counter_value(const stc_cspl_counters *counters, unsigned i)
{
    return i < STC_CS_COUNTER_COUNT
               ? stc_cs_counter_value(&counters->coherence, i)
               : stc_cstc_cache_counter_value(&counters->cache, i - STC_CS_COUNTER_COUNT);
}

static stc_cspl_counters split_counters_of(const stc_cspl_system *system, unsigned cores,
                                           unsigned c)
{
    stc_cspl_counters counters;
    if (c < cores)
        stc_cspl_core_counters(system, c, &counters);
    else
        stc_cspl_total(system, &counters);
    return counters;
}

/* Core c's energy (the total for c == cores): each core's split counters
 * in the atomic counters whose prices they pay (COHERENCE.md 10.9),
 * priced by its configuration (docs/ENERGY.md 3.9.1); no leakage. */
static stc_coh_energy split_energy_of(const stc_cspl_system *system, unsigned cores,
                                      const run_energy *priced, unsigned c)
{
    stc_coh_energy energy = {0};
    for (unsigned core = 0; core < cores; core++) {
        if (c < cores && core != c)
            continue;
        stc_cspl_counters split;
        stc_cspl_core_counters(system, core, &split);
        stc_cstc_counters counters = {.cache = split.cache};
        stc_cs_priced_as_atomic(&split.coherence, &counters.coherence);
        stc_coh_energy part;
        stc_cstc_energy_of(&priced->model, stc_cache_config(stc_cspl_cache(system, core)),
                           &counters, &part);
        stc_coh_energy_add(&energy, &part);
    }
    return energy;
}

static void print_split_energy_text(const stc_cspl_system *system, unsigned cores,
                                    const run_energy *energy)
{
    if (!energy->priced) {
        printf("energy: not priced (%s)\n", energy->why);
        return;
    }
    for (unsigned part = 0; part < ENERGY_PARTS; part++) {
        if (part == FILTER_PART || part > FILTER_PART + 1)
            continue; /* no filter, no cycles on this bus */
        printf("%-26s", energy_part_names[part]);
        for (unsigned c = 0; c <= cores; c++) {
            stc_coh_energy e = split_energy_of(system, cores, energy, c);
            printf(" %13.1f", energy_part(&e, part));
        }
        printf("\n");
    }
}

static void print_split_text(const stc_cspl_system *system, const stc_cstc_config *config,
                             const run_energy *energy, const char *trace_name)
{
    const stc_cs_system *bus = stc_cspl_bus_of(system);
    const stc_cs_config *split = stc_cs_config_of(bus);
    printf("stcsim coherence: %s: %u cores, %s, stc caches (%u banks x %u B, %u B physical "
           "lines = the coherence unit), split bus, schedule %s, seed %" PRIu64 "\n",
           trace_name, config->cores, stc_coh_protocol_name(config->protocol),
           config->geometry.banks, config->geometry.bank_bytes, config->geometry.line_bytes,
           stc_cs_schedule_name(split->schedule), split->seed);
    if (split->wb_buffer > 0)
        printf("writeback buffer: %" PRIu32 " %s per cache\n", split->wb_buffer,
               split->wb_buffer == 1 ? "entry" : "entries");
    printf("%-26s", "configuration");
    for (unsigned c = 0; c < config->cores; c++) {
        char name[STC_CONFIG_NAME_MAX];
        stc_config_name(&config->geometry, &config->configs[c], name, sizeof name);
        printf(" %13s", name);
    }
    printf("\n%-26s", "counter");
    for (unsigned c = 0; c < config->cores; c++)
        printf(" %12s%u", "core", c);
    printf(" %13s\n", "total");
    for (unsigned i = 0; i < SPLIT_COUNTERS; i++) {
        printf("%-26s", split_counter_name(i));
        for (unsigned c = 0; c <= config->cores; c++) {
            stc_cspl_counters counters = split_counters_of(system, config->cores, c);
            printf(" %13" PRIu64, split_counter_value(&counters, i));
        }
        printf("\n");
    }
    printf("%-26s", "installs");
    for (unsigned c = 0; c <= config->cores; c++)
        printf(" %13" PRIu64, stc_cspl_installs(system, c));
    printf("\n");
    print_split_energy_text(system, config->cores, energy);
    stc_cs_counters total = split_counters_of(system, config->cores, config->cores).coherence;
    stc_coh_split_print_steps_text(bus, &total);
}

static void print_split_counters_json(const stc_cspl_counters *counters, uint64_t installs)
{
    printf("{");
    for (unsigned i = 0; i < SPLIT_COUNTERS; i++)
        printf("%s\"%s\": %" PRIu64, i ? ", " : "", split_counter_name(i),
               split_counter_value(counters, i));
    printf(", \"installs\": %" PRIu64 "}", installs);
}

static void print_split_json(const stc_cspl_system *system, const stc_cstc_config *config,
                             const run_energy *energy, const char *trace_name)
{
    const stc_cs_system *bus = stc_cspl_bus_of(system);
    const stc_cs_config *split = stc_cs_config_of(bus);
    print_geometry_json(config, trace_name, "split");
    printf(", \"schedule\": \"%s\", \"seed\": %" PRIu64 ", \"steps\": %" PRIu64,
           stc_cs_schedule_name(split->schedule), split->seed, stc_cs_steps(bus));
    if (split->wb_buffer > 0)
        printf(", \"wb_buffer\": %" PRIu32, split->wb_buffer);
    printf(",\n \"stc_configs\": ");
    print_config_names_json(&config->geometry, config->configs, config->cores);
    printf(",\n \"per_core\": [");
    for (unsigned c = 0; c <= config->cores; c++) {
        if (c == config->cores)
            printf("],\n \"total\": ");
        else
            printf("%s\n  ", c ? "," : "");
        stc_cspl_counters counters = split_counters_of(system, config->cores, c);
        print_split_counters_json(&counters, stc_cspl_installs(system, c));
    }
    if (energy->priced) {
        printf(",\n \"energy_nj\": {\"per_core\": [");
        for (unsigned c = 0; c < config->cores; c++) {
            printf("%s\n  ", c ? "," : "");
            stc_coh_energy e = split_energy_of(system, config->cores, energy, c);
            stc_coh_print_energy_json(&e, false);
        }
        printf("],\n  \"total\": ");
        stc_coh_energy total = split_energy_of(system, config->cores, energy, config->cores);
        stc_coh_print_energy_json(&total, false);
        printf("}");
    } else {
        printf(",\n \"energy_nj\": null, \"energy_note\": ");
        stc_json_print_string(energy->why);
    }
    stc_coh_split_print_violations_json(bus);
}

/* --stc-config LIST --bus split: build, submit the whole trace, run it
 * out, print. */
static int run_split(const stc_coh_stc_request *request, const stc_cstc_config *config)
{
    stc_cspl_config split = {.cores = config->cores, .geometry = config->geometry,
                             .protocol = config->protocol, .schedule = request->schedule,
                             .seed = request->seed, .wb_buffer = request->wb_buffer};
    memcpy(split.configs, config->configs, sizeof split.configs);
    char err[ERR_LEN];
    stc_cspl_system *system = stc_cspl_create(&split, err, sizeof err);
    if (!system)
        return usage_error(request->program, "--stc-config", request->stc_configs, err);
    run_energy energy;
    energy_model_of(config, &energy);
    stc_mc_trace *trace = stc_mc_trace_open(request->trace_path, config->cores, err, sizeof err);
    if (!trace) {
        stc_cli_message(request->program, "%s", err);
        stc_cspl_destroy(system);
        return 1;
    }
    split_context run = {.system = system};
    int status = read_records(request, trace, config->geometry.line_bytes, submit_record, &run);
    if (status == 0) {
        stc_cspl_drain(system);
        if (request->json)
            print_split_json(system, config, &energy, stc_mc_trace_name(trace));
        else
            print_split_text(system, config, &energy, stc_mc_trace_name(trace));
        status = stc_cs_violation_count(stc_cspl_bus(system)) > 0 ? 3 : 0;
    }
    stc_mc_trace_close(trace);
    stc_cspl_destroy(system);
    return status;
}

int stc_coh_stc_run(const stc_coh_stc_request *request)
{
    stc_cstc_config config;
    int status = build_config(request, &config);
    if (status != STC_CLI_PARSED)
        return status;
    if (request->split)
        return run_split(request, &config);
    char err[ERR_LEN];
    /* Bad configurations and an unpriced tuning are usage errors, found
     * before the trace is opened. */
    stc_cstc_system *system = stc_cstc_create(&config, err, sizeof err);
    if (!system)
        return usage_error(request->program, list_option(request), list_text(request), err);
    run_energy energy;
    energy_model_of(&config, &energy);
    if ((request->stc_tune || is_sweep(request)) && !energy.priced) {
        stc_cstc_destroy(system);
        return usage_error(request->program, "--geometry",
                           request->geometry ? request->geometry : "", energy.why);
    }
    stc_mc_trace *trace = stc_mc_trace_open(request->trace_path, config.cores, err, sizeof err);
    if (!trace) {
        stc_cli_message(request->program, "%s", err);
        stc_cstc_destroy(system);
        return 1;
    }
    status = request->stc_tune  ? run_tune(request, &config, &energy, trace)
             : is_sweep(request) ? run_sweep(request, &config, &energy, trace)
                                 : run_once(request, system, &energy, trace);
    stc_mc_trace_close(trace);
    stc_cstc_destroy(system);
    return status;
}
