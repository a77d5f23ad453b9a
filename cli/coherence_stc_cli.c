/*
 * coherence_stc_cli.c - `stcsim coherence --stc-config LIST` (the contract
 * is coherence_stc_cli.h; docs/COHERENCE.md section 11): every core's
 * D-cache an stc cache of the geometry in its own configuration, coherent
 * per physical line. Prints the coherence counters of section 9 and each
 * cache's own counters, per core and in total, and the checks' result.
 * The whole trace is read before anything is printed.
 */
#include "coherence_stc_cli.h"

#include "coherent_stc.h"
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

/* The configurations of --stc-config: one name for every core, or one per
 * core, comma-separated. */
static int parse_configs(const stc_coh_stc_request *request, stc_cstc_config *config)
{
    char list[ERR_LEN];
    if (strlen(request->stc_configs) >= sizeof list)
        return usage_error(request->program, "--stc-config", request->stc_configs,
                           "too long");
    strcpy(list, request->stc_configs);
    unsigned count = 0;
    char *save = NULL;
    for (char *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        char err[ERR_LEN];
        if (count == config->cores)
            return usage_error(request->program, "--stc-config", request->stc_configs,
                               "more names than cores (give one, or one per core)");
        if (stc_config_parse(&config->geometry, name, &config->configs[count], err, sizeof err))
            return usage_error(request->program, "--stc-config", name, err);
        count++;
    }
    if (count != 1 && count != config->cores)
        return usage_error(request->program, "--stc-config", request->stc_configs,
                           "fewer names than cores (give one, or one per core)");
    for (unsigned c = count; c < config->cores; c++)
        config->configs[c] = config->configs[0];
    return STC_CLI_PARSED;
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
    return parse_configs(request, config);
}

/* splitmix64: the value of the n-th store, as `stcsim coherence` gives it
 * without --stc-config, so the two runs store the same bytes. */
static uint64_t store_value(uint64_t n)
{
    uint64_t z = n + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int run_trace(const stc_coh_stc_request *request, stc_cstc_system *system,
                     stc_mc_trace *trace)
{
    uint32_t line = stc_cstc_config_of(system)->geometry.line_bytes;
    uint64_t stores = 0;
    stc_mc_ref ref;
    int got;
    while ((got = stc_mc_trace_next(trace, &ref)) > 0) {
        if (ref.label == STC_MC_FETCH) {
            stc_cstc_fetch(system, ref.core);
            continue;
        }
        if (ref.size > line) {
            stc_cli_message(request->program,
                            "%s:%" PRIu64 ": size %" PRIu32
                            " larger than the physical line (%" PRIu32 " bytes)",
                            stc_mc_trace_name(trace), stc_mc_trace_line(trace), ref.size, line);
            return 1;
        }
        stc_coh_op op = ref.label == STC_MC_WRITE ? STC_COH_OP_STORE : STC_COH_OP_LOAD;
        uint64_t value = op == STC_COH_OP_STORE ? store_value(stores++) : 0;
        if (stc_cstc_access(system, ref.core, op, ref.addr, ref.size, value, NULL) != 0) {
            stc_cli_message(request->program, "%s:%" PRIu64 ": %s", stc_mc_trace_name(trace),
                            stc_mc_trace_line(trace), stc_cstc_error(system));
            return 1;
        }
    }
    if (got < 0) {
        stc_cli_message(request->program, "%s", stc_mc_trace_error(trace));
        return 1;
    }
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

static void print_text(const stc_cstc_system *system, const char *trace_name)
{
    const stc_cstc_config *config = stc_cstc_config_of(system);
    printf("stcsim coherence: %s: %u cores, %s, stc caches (%u banks x %u B, %u B physical "
           "lines = the coherence unit), atomic bus\n",
           trace_name, config->cores, stc_coh_protocol_name(config->protocol),
           config->geometry.banks, config->geometry.bank_bytes, config->geometry.line_bytes);
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
    printf("violations: %" PRIu64, stc_cstc_violation_count(system));
    for (int k = 0; k < STC_COH_VIOL_KIND_COUNT; k++)
        printf("%s%s %" PRIu64, k ? ", " : " (",
               stc_coh_violation_kind_name((stc_coh_violation_kind)k),
               stc_cstc_violation_kind_count(system, (stc_coh_violation_kind)k));
    printf(")\n");
    for (unsigned i = 0; stc_cstc_violation_at(system, i); i++)
        printf("  %s\n", stc_cstc_violation_at(system, i)->text);
}

static void print_counters_json(const stc_cstc_counters *counters)
{
    printf("{");
    for (unsigned i = 0; i < COUNTERS; i++)
        printf("%s\"%s\": %" PRIu64, i ? ", " : "", counter_name(i), counter_value(counters, i));
    printf("}");
}

static void print_json(const stc_cstc_system *system, const char *trace_name)
{
    const stc_cstc_config *config = stc_cstc_config_of(system);
    const stc_geometry *geometry = &config->geometry;
    printf("{\"trace\": ");
    stc_json_print_string(trace_name);
    printf(", \"protocol\": \"%s\", \"cores\": %u, \"bus\": \"atomic\", \"geometry\": "
           "{\"banks\": %u, \"bank_bytes\": %u, \"line_bytes\": %u, \"addr_bits\": %u},\n "
           "\"stc_configs\": [",
           stc_coh_protocol_name(config->protocol), config->cores, geometry->banks,
           geometry->bank_bytes, geometry->line_bytes, geometry->addr_bits);
    for (unsigned c = 0; c < config->cores; c++) {
        char name[STC_CONFIG_NAME_MAX];
        stc_config_name(geometry, stc_cache_config(stc_cstc_cache(system, c)), name, sizeof name);
        printf("%s\"%s\"", c ? ", " : "", name);
    }
    printf("],\n \"per_core\": [");
    for (unsigned c = 0; c < config->cores; c++) {
        printf("%s\n  ", c ? "," : "");
        stc_cstc_counters counters = counters_of(system, c);
        print_counters_json(&counters);
    }
    printf("],\n \"total\": ");
    stc_cstc_counters total = counters_of(system, config->cores);
    print_counters_json(&total);
    printf(",\n \"violations\": {\"count\": %" PRIu64, stc_cstc_violation_count(system));
    for (int k = 0; k < STC_COH_VIOL_KIND_COUNT; k++)
        printf(", \"%s\": %" PRIu64, stc_coh_violation_kind_name((stc_coh_violation_kind)k),
               stc_cstc_violation_kind_count(system, (stc_coh_violation_kind)k));
    printf(", \"first\": [");
    for (unsigned i = 0; stc_cstc_violation_at(system, i); i++) {
        printf("%s", i ? ", " : "");
        stc_json_print_string(stc_cstc_violation_at(system, i)->text);
    }
    printf("]}}\n");
}

int stc_coh_stc_run(const stc_coh_stc_request *request)
{
    stc_cstc_config config;
    int status = build_config(request, &config);
    if (status != STC_CLI_PARSED)
        return status;
    char err[ERR_LEN];
    stc_cstc_system *system = stc_cstc_create(&config, err, sizeof err);
    if (!system)
        return usage_error(request->program, "--stc-config", request->stc_configs, err);
    stc_mc_trace *trace = stc_mc_trace_open(request->trace_path, config.cores, err, sizeof err);
    if (!trace) {
        stc_cli_message(request->program, "%s", err);
        stc_cstc_destroy(system);
        return 1;
    }
    status = run_trace(request, system, trace);
    if (status == 0) {
        if (request->json)
            print_json(system, stc_mc_trace_name(trace));
        else
            print_text(system, stc_mc_trace_name(trace));
        if (stc_cstc_violation_count(system) > 0)
            status = 3;
    }
    stc_mc_trace_close(trace);
    stc_cstc_destroy(system);
    return status;
}
