/*
 * coherence_cli.c - `stcsim coherence [options] TRACE`: run a multi-core
 * trace (mc_trace.h) through the coherent system of coherent.h and print
 * every counter per core and in total, and the checks' result
 * (docs/COHERENCE.md section 9.5).
 *
 * The whole trace is read before anything is printed, so a failure leaves
 * nothing on stdout. Exit status: 0 no violation, 1 unreadable or malformed
 * trace, 2 bad usage, 3 the run found violations (all counters still
 * printed).
 */
#include "commands.h"
#include "options.h"
#include "coherent.h"
#include "coherence_energy.h"
#include "coherence_split_cli.h"
#include "coherence_stc_cli.h"
#include "coherence_rows.h"
#include "json.h"
#include "mc_trace.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ERR_LEN = 512 };

static const char usage_text[] =
    "usage: stcsim coherence [options] TRACE\n"
    "Run a multi-core trace (a file, or - for stdin; plain, gzip or zstd; lines\n"
    "\"CORE LABEL HEXADDR [SIZE]\", label 0 read, 1 write, 2 fetch) through N\n"
    "private write-back D-caches kept coherent on an atomic snooping bus, and\n"
    "print every counter per core and in total, and the data and single-writer\n"
    "checks' result (docs/COHERENCE.md section 9).\n"
    "\n"
    "      --cores N            cores, 1..8 (default 4); a record of core >= N is\n"
    "                           an error\n"
    "      --protocol P         msi, mesi (default) or moesi\n"
    "      --size BYTES         per-core cache size (default 8192)\n"
    "      --ways W             associativity (default 4)\n"
    "      --line BYTES         line (coherence block) size, 4..256 (default 32)\n"
    "      --snoop-filter F     none (default), exclude (16 sets x 1 way, 2 blocks\n"
    "                           per entry) or exclude:SETSxWAYS[:BLOCKS] (BLOCKS\n"
    "                           1 if not given): a JETTY-style filter per cache\n"
    "                           that skips snoop tag probes of blocks known\n"
    "                           absent (docs/COHERENCE.md 9.8)\n"
    "      --bus B              atomic (default) or split: the split-transaction\n"
    "                           bus of docs/COHERENCE.md 8.1, section 10\n"
    "      --schedule S         with --bus split: random (default) or serial (each\n"
    "                           reference done before the next: the atomic\n"
    "                           model's hits and misses)\n"
    "      --seed N             with --bus split: the scheduler's seed (default 1)\n"
    "      --wb-buffer N        with --bus split: writeback buffer entries per cache,\n"
    "                           0..8 (default 0: an evicted owned block keeps its\n"
    "                           frame until its put is ordered; docs/COHERENCE.md\n"
    "                           10.11)\n"
    "      --stc-config LIST    the D-caches are configurable stc caches, core c\n"
    "                           in the c-th name of LIST (comma-separated, e.g.\n"
    "                           8K_2W_32B_P,2K_1W_16B), or all in its one name;\n"
    "                           coherent per physical line (docs/COHERENCE.md 11);\n"
    "                           not with --size, --ways, --line; --snoop-filter\n"
    "                           filters per physical line (11.10); with --bus\n"
    "                           split on the split-transaction bus (12); \"all\":\n"
    "                           every legal configuration on every core, one run\n"
    "                           each, and the cheapest by the system's energy\n"
    "      --stc-tune START     choose each core's stc configuration by oracle\n"
    "                           coordinate descent on the system's energy from\n"
    "                           START (names as for --stc-config, e.g. 8K_4W_32B),\n"
    "                           and compare with START and with each core tuned\n"
    "                           alone (docs/COHERENCE.md 11.8); not with\n"
    "                           --stc-config or --snoop-filter\n"
    "  -g, --geometry LIST      with --stc-config or --stc-tune: the caches'\n"
    "                           geometry, e.g. banks=8,bank_bytes=1024 (as for\n"
    "                           stcsim)\n"
    "      --rows               also how often each (state, event) pair of the\n"
    "                           protocol's table ran, and how many of them ran\n"
    "                           (atomic bus, one run: not with --bus split,\n"
    "                           --stc-tune or --stc-config all; COHERENCE.md 9.5)\n"
    "      --json               machine-readable output\n"
    "  -h, --help               this text\n"
    "Exit status: 0 no violation, 1 bad trace, 2 bad usage, 3 violations found.\n";

static const char program[] = "stcsim coherence";

/* Bad usage: "stcsim coherence: MESSAGE" (fmt with what), then where the
 * usage is. Returns STC_CLI_BAD_USAGE. */
static int usage_error(const char *fmt, const char *what)
{
    stc_cli_message(program, fmt, what);
    fputs("(stcsim coherence --help for usage)\n", stderr);
    return STC_CLI_BAD_USAGE;
}

/* splitmix64: the value of the n-th store, different for every n. */
static uint64_t store_value(uint64_t n)
{
    uint64_t z = n + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The coherent model's addresses are priced as stc prices them: 32-bit
 * (the tag width of the energy model, docs/ENERGY.md 3.9). */
enum { COH_ENERGY_ADDR_BITS = 32 };

/* What a cycle costs, per cache (every core's cache is the same): its
 * leakage, and the processor's stall for a cycle its core waits
 * (ENERGY.md 3.9.2). */
typedef struct {
    double static_nj;
    double stall_nj;
} cycle_prices;

/* A core's energy (c < cores) or the total's, the filter's included,
 * leakage over the run's cycles per cache and the stall of each core's
 * waited cycles (ENERGY.md 3.9.2). */
static void energy_of(const stc_coh_system *system, const stc_coherence_energy *terms,
                      const stc_sf_energy_terms *filter_terms, const cycle_prices *prices,
                      unsigned c, stc_coh_energy *energy)
{
    const stc_coh_config *config = stc_coh_config_of(system);
    stc_coh_counters total;
    stc_sf_counters filter_total;
    stc_coh_total(system, &total);
    stc_coh_filter_total(system, &filter_total);
    stc_coh_energy_of(terms, c < config->cores ? stc_coh_core_counters(system, c) : &total, energy);
    if (filter_terms)
        stc_coh_energy_add_filter(filter_terms,
                                  c < config->cores ? stc_coh_filter_counters(system, c)
                                                    : &filter_total,
                                  energy);
    stc_coh_run_cycles run;
    stc_coh_run_cycles_of(system, &run);
    unsigned caches = c < config->cores ? 1 : config->cores;
    stc_coh_energy_add_static(energy, run.cycles * caches, prices->static_nj);
    stc_coh_energy_add_stall(energy,
                             c < config->cores ? stc_coh_core_cycles_of(system, c)->waited_cycles
                                               : run.waited_cycles,
                             prices->stall_nj);
}

/* The run's cycles, as text rows or a JSON member. */
static void print_cycles(const stc_coh_system *system, bool json)
{
    unsigned cores = stc_coh_config_of(system)->cores;
    stc_coh_core_cycles per_core[STC_COH_MAX_CORES];
    for (unsigned c = 0; c < cores; c++)
        per_core[c] = *stc_coh_core_cycles_of(system, c);
    stc_coh_run_cycles run;
    stc_coh_run_cycles_of(system, &run);
    if (json)
        stc_coh_print_cycles_json(per_core, cores, &run, stc_coh_timing_of(system));
    else
        stc_coh_print_cycles_text(20, per_core, cores, &run, stc_coh_timing_of(system));
}

/* The energy terms of the system's caches and their prices per cycle;
 * -1 with why for a cache the default model does not price. */
static int price_terms(const stc_coh_config *config, stc_coherence_energy *terms,
                       cycle_prices *prices, char *why, size_t why_len)
{
    if (stc_energy_coherence_default(config->size_bytes, config->ways, config->line_bytes,
                                     COH_ENERGY_ADDR_BITS, terms, why, why_len) != 0 ||
        stc_coh_static_per_cycle_default(config->size_bytes, config->ways, config->line_bytes,
                                         COH_ENERGY_ADDR_BITS, &prices->static_nj, why,
                                         why_len) != 0)
        return -1;
    return stc_coh_stall_per_cycle_default(config->size_bytes, config->ways, config->line_bytes,
                                           COH_ENERGY_ADDR_BITS, &prices->stall_nj, why, why_len);
}

/* The filter's energy terms, or NULL if the system has none. */
static const stc_sf_energy_terms *filter_terms_of(const stc_coh_config *config,
                                                  stc_sf_energy_terms *terms)
{
    return stc_coh_filter_terms(&config->snoop_filter, config->line_bytes, COH_ENERGY_ADDR_BITS,
                                terms) == 0
               ? terms
               : NULL;
}

static void print_text(const stc_coh_system *system, const char *trace_name)
{
    const stc_coh_config *config = stc_coh_config_of(system);
    stc_coh_counters total;
    stc_coh_total(system, &total);
    stc_sf_energy_terms filter_terms_storage;
    const stc_sf_energy_terms *filter_terms = filter_terms_of(config, &filter_terms_storage);
    char filter[80] = "";
    if (filter_terms) {
        snprintf(filter, sizeof filter, ", snoop filter ");
        stc_sf_describe(&config->snoop_filter, filter + strlen(filter),
                        sizeof filter - strlen(filter));
    }
    printf("stcsim coherence: %s: %u cores, %s, per core %" PRIu32 " B %" PRIu32
           "-way %" PRIu32 " B lines, atomic bus%s\n",
           trace_name, config->cores, stc_coh_protocol_name(config->protocol), config->size_bytes,
           config->ways, config->line_bytes, filter);
    printf("%-20s", "counter");
    for (unsigned c = 0; c < config->cores; c++)
        printf(" %12s%u", "core", c);
    printf(" %13s\n", "total");
    for (unsigned i = 0; i < STC_COH_COUNTER_COUNT; i++) {
        printf("%-20s", stc_coh_counter_name(i));
        for (unsigned c = 0; c < config->cores; c++)
            printf(" %13" PRIu64, stc_coh_counter_value(stc_coh_core_counters(system, c), i));
        printf(" %13" PRIu64 "\n", stc_coh_counter_value(&total, i));
    }
    if (filter_terms) {
        stc_sf_counters filter_total;
        stc_coh_filter_total(system, &filter_total);
        for (unsigned i = 0; i < STC_SF_COUNTER_COUNT; i++) {
            printf("%-20s", stc_sf_counter_name(i));
            for (unsigned c = 0; c < config->cores; c++)
                printf(" %13" PRIu64,
                       stc_sf_counter_value(stc_coh_filter_counters(system, c), i));
            printf(" %13" PRIu64 "\n", stc_sf_counter_value(&filter_total, i));
        }
    }
    print_cycles(system, false);
    stc_coherence_energy terms;
    cycle_prices prices;
    char why[ERR_LEN];
    if (price_terms(config, &terms, &prices, why, sizeof why) == 0) {
        static const char *const parts[] = {"access", "snoop", "memory_read", "c2c",
                                            "memory_write", "bus", "filter", "total",
                                            "static", "total_with_static",
                                            "stall", "total_with_stall"};
        enum { FILTER_PART = 6 };
        for (unsigned part = 0; part < sizeof parts / sizeof parts[0]; part++) {
            if (part == FILTER_PART && !filter_terms)
                continue; /* without a filter the report is as it always was */
            char name[32];
            snprintf(name, sizeof name, "%s_nj", parts[part]);
            printf("%-20s", name);
            for (unsigned c = 0; c <= config->cores; c++) {
                stc_coh_energy energy;
                energy_of(system, &terms, filter_terms, &prices, c, &energy);
                const double values[] = {energy.access_nj,       energy.snoop_nj,
                                         energy.memory_read_nj,  energy.c2c_nj,
                                         energy.memory_write_nj, energy.bus_nj,
                                         energy.filter_nj,       energy.total_nj,
                                         energy.static_nj,       energy.total_with_static_nj,
                                         energy.stall_nj,        energy.total_with_stall_nj};
                printf(" %13.1f", values[part]);
            }
            printf("\n");
        }
    } else {
        printf("energy: not priced (%s)\n", why);
    }
    printf("violations: %" PRIu64, stc_coh_violation_count(system));
    for (int k = 0; k < STC_COH_VIOL_KIND_COUNT; k++)
        printf("%s%s %" PRIu64, k ? ", " : " (", stc_coh_violation_kind_name((stc_coh_violation_kind)k),
               stc_coh_violation_kind_count(system, (stc_coh_violation_kind)k));
    printf(")\n");
    for (unsigned i = 0; stc_coh_violation_at(system, i); i++)
        printf("  %s\n", stc_coh_violation_at(system, i)->text);
    if (stc_coh_violation_count(system) > STC_COH_VIOLATIONS_KEPT)
        printf("  ... and %" PRIu64 " more\n",
               stc_coh_violation_count(system) - STC_COH_VIOLATIONS_KEPT);
}

/* A JSON object of count named counters: name(i) and value(counters, i). */
typedef const char *counter_name_fn(unsigned index);
static void print_named_counters_json(unsigned count, counter_name_fn *name,
                                      uint64_t (*value)(const void *, unsigned),
                                      const void *counters)
{
    printf("{");
    for (unsigned i = 0; i < count; i++)
        printf("%s\"%s\": %" PRIu64, i ? ", " : "", name(i), value(counters, i));
    printf("}");
}

static uint64_t coh_value(const void *counters, unsigned index)
{
    return stc_coh_counter_value(counters, index);
}

static uint64_t filter_value(const void *counters, unsigned index)
{
    return stc_sf_counter_value(counters, index);
}

static void print_counters_json(const stc_coh_counters *counters)
{
    print_named_counters_json(STC_COH_COUNTER_COUNT, stc_coh_counter_name, coh_value, counters);
}

static void print_energy_json(const stc_coh_system *system, const stc_coherence_energy *terms,
                              const stc_sf_energy_terms *filter_terms, const cycle_prices *prices,
                              unsigned c)
{
    stc_coh_energy energy;
    energy_of(system, terms, filter_terms, prices, c, &energy);
    stc_coh_print_energy_static_json(&energy, filter_terms != NULL);
}

static void print_filter_counters_json(const stc_sf_counters *counters)
{
    print_named_counters_json(STC_SF_COUNTER_COUNT, stc_sf_counter_name, filter_value, counters);
}

/* The table the system runs (a test's own, or the protocol's). */
static const stc_coh_table *table_of(const stc_coh_config *config)
{
    return config->table ? config->table : stc_coh_table_of(config->protocol);
}

static void print_json(const stc_coh_system *system, const char *trace_name, bool rows)
{
    const stc_coh_config *config = stc_coh_config_of(system);
    stc_coh_counters total;
    stc_coh_total(system, &total);
    printf("{\"trace\": ");
    stc_json_print_string(trace_name);
    printf(", \"protocol\": \"%s\", \"cores\": %u, \"size\": %" PRIu32 ", \"ways\": %" PRIu32
           ", \"line\": %" PRIu32 ", \"bus\": \"atomic\",\n \"per_core\": [",
           stc_coh_protocol_name(config->protocol), config->cores, config->size_bytes, config->ways,
           config->line_bytes);
    for (unsigned c = 0; c < config->cores; c++) {
        printf("%s\n  ", c ? "," : "");
        print_counters_json(stc_coh_core_counters(system, c));
    }
    printf("],\n \"total\": ");
    print_counters_json(&total);
    stc_sf_energy_terms filter_terms_storage;
    const stc_sf_energy_terms *filter_terms = filter_terms_of(config, &filter_terms_storage);
    if (filter_terms) {
        const stc_sf_config *filter = &config->snoop_filter;
        printf(",\n \"snoop_filter\": {\"kind\": \"exclude\", \"sets\": %" PRIu32
               ", \"ways\": %" PRIu32 ", \"blocks\": %" PRIu32 ", \"per_core\": [",
               filter->sets, filter->ways, filter->blocks);
        for (unsigned c = 0; c < config->cores; c++) {
            printf("%s\n  ", c ? "," : "");
            print_filter_counters_json(stc_coh_filter_counters(system, c));
        }
        stc_sf_counters filter_total;
        stc_coh_filter_total(system, &filter_total);
        printf("],\n  \"total\": ");
        print_filter_counters_json(&filter_total);
        printf("}");
    }
    print_cycles(system, true);
    stc_coherence_energy terms;
    cycle_prices prices;
    char why[ERR_LEN];
    if (price_terms(config, &terms, &prices, why, sizeof why) == 0) {
        printf(",\n \"energy_terms_nj\": {\"access\": %.6g, \"snoop_lookup\": %.6g, "
               "\"memory_read\": %.6g, \"c2c\": %.6g, \"memory_write\": %.6g, "
               "\"bus_address\": %.6g",
               terms.access_nj, terms.snoop_lookup_nj, terms.memory_read_nj, terms.c2c_nj,
               terms.memory_write_nj, terms.bus_address_nj);
        if (filter_terms)
            printf(", \"filter_lookup\": %.6g, \"filter_write\": %.6g", filter_terms->lookup_nj,
                   filter_terms->write_nj);
        printf(", \"static_per_cycle\": %.6g, \"stall_per_cycle\": %.6g", prices.static_nj,
               prices.stall_nj);
        printf("},\n \"energy_nj\": {\"per_core\": [");
        for (unsigned c = 0; c < config->cores; c++) {
            printf("%s\n  ", c ? "," : "");
            print_energy_json(system, &terms, filter_terms, &prices, c);
        }
        printf("],\n  \"total\": ");
        print_energy_json(system, &terms, filter_terms, &prices, config->cores);
        printf("}");
    } else {
        printf(",\n \"energy_terms_nj\": null, \"energy_nj\": null, \"energy_note\": ");
        stc_json_print_string(why);
    }
    printf(",\n \"violations\": {\"count\": %" PRIu64, stc_coh_violation_count(system));
    for (int k = 0; k < STC_COH_VIOL_KIND_COUNT; k++)
        printf(", \"%s\": %" PRIu64, stc_coh_violation_kind_name((stc_coh_violation_kind)k),
               stc_coh_violation_kind_count(system, (stc_coh_violation_kind)k));
    printf(", \"first\": [");
    for (unsigned i = 0; stc_coh_violation_at(system, i); i++) {
        printf("%s", i ? ", " : "");
        stc_json_print_string(stc_coh_violation_at(system, i)->text);
    }
    printf("]}");
    if (rows) {
        printf(",\n \"rows\": ");
        stc_coh_rows_print_json(table_of(config), stc_coh_row_uses_of(system));
    }
    printf("}\n");
}

typedef struct {
    stc_coh_config config;
    const char *trace_path;
    bool json;
    bool rows;               /* --rows: the table's row coverage */
    stc_coh_bus_model bus;
    stc_cs_schedule schedule;
    uint64_t seed;
    uint32_t wb_buffer;      /* --wb-buffer: entries per cache on the split bus */
    bool split_option_given; /* --schedule, --seed or --wb-buffer: only with --bus split */
    const char *stc_configs; /* --stc-config: stc caches (coherence_stc_cli.h), or NULL */
    const char *stc_tune;    /* --stc-tune: the descent's start (coherence_stc_cli.h), or NULL */
    const char *geometry;    /* -g/--geometry: only with --stc-config or --stc-tune */
} coh_options;

/* --stc-config or -g/--geometry: kept as given; coherence_stc_cli.c reads
 * them once the geometry is known. Then the conventional cache's options
 * (still at their defaults) must not have been given. */
static const char *const stc_options[] = {"--stc-config", "--stc-tune", "-g", "--geometry",
                                          NULL};

/* Where the value of an stc option goes. */
static const char **stc_option_slot(coh_options *opts, const char *arg)
{
    if (!strcmp(arg, "--stc-config"))
        return &opts->stc_configs;
    return !strcmp(arg, "--stc-tune") ? &opts->stc_tune : &opts->geometry;
}

static int check_stc_options(const coh_options *opts)
{
    const stc_coh_config *config = &opts->config;
    if (opts->stc_configs && opts->stc_tune)
        return usage_error("%s", "--stc-tune: not with --stc-config (it chooses the "
                                 "configurations)");
    const char *option = opts->stc_tune ? "--stc-tune" : "--stc-config";
    if (!opts->stc_configs && !opts->stc_tune)
        return opts->geometry ? usage_error("%s", "--geometry needs --stc-config or --stc-tune")
                              : STC_CLI_PARSED;
    /* the stc caches run on the split bus as they are (COHERENCE.md 12);
     * the tuner's hundreds of runs do not */
    if (opts->bus == STC_COH_BUS_SPLIT && opts->stc_tune)
        return usage_error("%s", "--stc-tune: not on the split bus (--bus split; use "
                                 "--stc-config)");
    /* the sweep runs the atomic model once per configuration, as the tuner does */
    bool sweep = opts->stc_configs && strcmp(opts->stc_configs, STC_COH_STC_ALL) == 0;
    if (sweep && opts->bus == STC_COH_BUS_SPLIT)
        return usage_error("%s", "--stc-config all: not on the split bus (--bus split; give "
                                 "the configurations)");
    if (sweep && config->snoop_filter.kind != STC_SF_NONE)
        return usage_error("%s", "--stc-config all: not with --snoop-filter (the sweep's runs "
                                 "have no filter; give the configurations)");

    if (config->size_bytes != 8192 || config->ways != 4 || config->line_bytes != 32)
        return usage_error("%s: not with --size, --ways or --line (the configurations give "
                           "the caches)", option);
    /* --stc-config runs one system, which can carry a filter; the tuner
     * runs hundreds and prices none (COHERENCE.md 11.10) */
    if (opts->stc_tune && config->snoop_filter.kind != STC_SF_NONE)
        return usage_error("%s", "--stc-tune: not with --snoop-filter (the tuner's runs have "
                                 "no filter; use --stc-config)");
    return STC_CLI_PARSED;
}

/* --bus, --schedule, --seed, --wb-buffer with their value. */
static int parse_bus_option(coh_options *opts, const char *arg, const char *text)
{
    char err[ERR_LEN];
    uint64_t value;
    if (!strcmp(arg, "--bus")) {
        if (stc_coh_bus_model_parse(text, &opts->bus, err, sizeof err) != 0)
            return usage_error("--bus: %s", err);
        return STC_CLI_PARSED;
    }
    opts->split_option_given = true;
    if (!strcmp(arg, "--schedule")) {
        if (stc_cs_schedule_parse(text, &opts->schedule, err, sizeof err) != 0)
            return usage_error("--schedule %s", err);
    } else if (!strcmp(arg, "--wb-buffer")) {
        _Static_assert(STC_CS_MAX_WB_BUFFER == 8, "the message below names the range");
        if (stc_cli_count_in_range(text, 0, STC_CS_MAX_WB_BUFFER, &value) != 0)
            return usage_error("--wb-buffer '%s': must be a number, 0..8", text);
        opts->wb_buffer = (uint32_t)value;
    } else {
        if (stc_cli_count_in_range(text, 0, UINT64_MAX, &value) != 0)
            return usage_error("--seed '%s': must be a number, 0..2^64-1", text);
        opts->seed = value;
    }
    return STC_CLI_PARSED;
}

/* One of --cores, --protocol, --size, --ways, --line, --snoop-filter with
 * its value. Each is checked alone here; stc_coh_create judges the
 * combination. */
static int parse_valued(stc_coh_config *config, const char *arg, const char *text)
{
    uint64_t value;
    if (!strcmp(arg, "--snoop-filter")) {
        char err[ERR_LEN];
        if (stc_sf_parse(text, &config->snoop_filter, err, sizeof err) != 0)
            return usage_error("--snoop-filter %s", err);
    } else if (!strcmp(arg, "--protocol")) {
        char err[ERR_LEN];
        if (stc_coh_protocol_parse(text, &config->protocol, err, sizeof err) != 0)
            return usage_error("--protocol: %s", err);
    } else if (!strcmp(arg, "--cores")) {
        if (stc_cli_count_in_range(text, 1, STC_COH_MAX_CORES, &value) != 0)
            return usage_error("--cores '%s': must be 1..8", text);
        config->cores = (unsigned)value;
    } else if (!strcmp(arg, "--size")) {
        if (stc_cli_count_in_range(text, 1, 1ul << 30, &value) != 0)
            return usage_error("--size '%s': must be a number of bytes, 1..2^30", text);
        config->size_bytes = (uint32_t)value;
    } else if (!strcmp(arg, "--ways")) {
        if (stc_cli_count_in_range(text, 1, 1024, &value) != 0)
            return usage_error("--ways '%s': must be 1..1024", text);
        config->ways = (uint32_t)value;
    } else {
        if (stc_cli_count_in_range(text, 1, STC_COH_MAX_LINE, &value) != 0)
            return usage_error("--line '%s': must be a power of two, 4..256", text);
        config->line_bytes = (uint32_t)value;
    }
    return STC_CLI_PARSED;
}

/* Returns STC_CLI_PARSED, STC_CLI_HELP_SHOWN, or STC_CLI_BAD_USAGE after a
 * message. */
static int parse_options(int argc, char **argv, coh_options *opts)
{
    static const char *const valued[] = {"--cores", "--protocol", "--size", "--ways", "--line",
                                         "--snoop-filter", "--bus", "--schedule", "--seed", "--wb-buffer",
                                         NULL};
    static const char *const bus_options[] = {"--bus", "--schedule", "--seed", "--wb-buffer",
                                              NULL};
    *opts = (coh_options){.config = {.cores = 4, .size_bytes = 8192, .ways = 4, .line_bytes = 32,
                                     .protocol = STC_COH_MESI, .table = NULL},
                           .seed = 1};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (stc_cli_is_help(arg)) {
            fputs(usage_text, stdout);
            return STC_CLI_HELP_SHOWN;
        }
        if (!strcmp(arg, "--json")) {
            opts->json = true;
            continue;
        }
        if (!strcmp(arg, "--rows")) {
            opts->rows = true;
            continue;
        }
        if (stc_cli_is_one_of(arg, stc_options)) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", arg);
            *stc_option_slot(opts, arg) = argv[++i];
            continue;
        }
        if (stc_cli_is_one_of(arg, valued)) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", arg);
            int status = stc_cli_is_one_of(arg, bus_options)
                             ? parse_bus_option(opts, arg, argv[++i])
                             : parse_valued(&opts->config, arg, argv[++i]);
            if (status != STC_CLI_PARSED)
                return status;
            continue;
        }
        if (!stc_cli_is_operand(arg))
            return usage_error("unknown option '%s'", arg);
        if (opts->trace_path)
            return usage_error("one trace only ('%s' is a second one)", arg);
        opts->trace_path = arg;
    }
    if (!opts->trace_path)
        return usage_error("%s", "no trace given");
    if (opts->bus != STC_COH_BUS_SPLIT && opts->split_option_given)
        return usage_error("%s", "--schedule, --seed and --wb-buffer need --bus split");
    if (opts->bus == STC_COH_BUS_SPLIT && opts->config.snoop_filter.kind != STC_SF_NONE)
        return usage_error("%s", "--snoop-filter: not on the split bus (--bus split)");
    if (opts->rows && (opts->bus == STC_COH_BUS_SPLIT || opts->stc_tune ||
                       (opts->stc_configs && !strcmp(opts->stc_configs, STC_COH_STC_ALL))))
        return usage_error("%s", "--rows: one atomic run only (not with --bus split, --stc-tune "
                                 "or --stc-config all)");
    return check_stc_options(opts);
}

/* Every record of the trace through the system. Returns 0, or 1 after the
 * message of a record the system refuses or the trace's error. */
static int run_trace(stc_coh_system *system, stc_mc_trace *trace, const stc_coh_config *config)
{
    uint64_t stores = 0;
    stc_mc_ref ref;
    int got;
    while ((got = stc_mc_trace_next(trace, &ref)) > 0) {
        if (ref.label == STC_MC_FETCH) {
            stc_coh_fetch(system, ref.core);
            continue;
        }
        if (ref.size > config->line_bytes) {
            stc_cli_message(program, "%s:%" PRIu64 ": size %" PRIu32
                                     " larger than the line (%" PRIu32 " bytes)",
                            stc_mc_trace_name(trace), stc_mc_trace_line(trace), ref.size,
                            config->line_bytes);
            return 1;
        }
        /* Each store writes a value no other store wrote, so the data
         * check sees any load that returns a stale copy. */
        stc_coh_op op = ref.label == STC_MC_WRITE ? STC_COH_OP_STORE : STC_COH_OP_LOAD;
        uint64_t value = op == STC_COH_OP_STORE ? store_value(stores++) : 0;
        if (stc_coh_access(system, ref.core, op, ref.addr, ref.size, value, NULL) != 0) {
            stc_cli_message(program, "%s:%" PRIu64 ": %s", stc_mc_trace_name(trace),
                            stc_mc_trace_line(trace), stc_coh_error(system));
            return 1;
        }
    }
    if (got < 0) {
        stc_cli_message(program, "%s", stc_mc_trace_error(trace));
        return 1;
    }
    return 0;
}

int stc_coh_main(int argc, char **argv)
{
    coh_options opts;
    int status = parse_options(argc, argv, &opts);
    if (status != STC_CLI_PARSED)
        return status == STC_CLI_HELP_SHOWN ? 0 : status;
    if (opts.bus == STC_COH_BUS_SPLIT && !opts.stc_configs)
        return stc_coh_split_run(&opts.config, opts.schedule, opts.seed, opts.wb_buffer,
                                 opts.trace_path, opts.json);
    if (opts.stc_configs || opts.stc_tune)
        return stc_coh_stc_run(&(stc_coh_stc_request){
            .program = program, .cores = opts.config.cores, .protocol = opts.config.protocol,
            .stc_configs = opts.stc_configs, .stc_tune = opts.stc_tune, .geometry = opts.geometry,
            .snoop_filter = opts.config.snoop_filter, .trace_path = opts.trace_path,
            .json = opts.json, .rows = opts.rows, .split = opts.bus == STC_COH_BUS_SPLIT,
            .schedule = opts.schedule, .seed = opts.seed, .wb_buffer = opts.wb_buffer});
    char err[ERR_LEN];
    stc_coh_system *system = stc_coh_create(&opts.config, err, sizeof err);
    if (!system) {
        /* the options were each in range: the combination is wrong */
        return usage_error("--size/--ways/--line: %s", err);
    }
    stc_mc_trace *trace = stc_mc_trace_open(opts.trace_path, opts.config.cores, err, sizeof err);
    if (!trace) {
        stc_cli_message(program, "%s", err);
        stc_coh_destroy(system);
        return 1;
    }
    status = run_trace(system, trace, &opts.config);
    if (status == 0) {
        if (opts.json) {
            print_json(system, stc_mc_trace_name(trace), opts.rows);
        } else {
            print_text(system, stc_mc_trace_name(trace));
            if (opts.rows)
                stc_coh_rows_print_text(table_of(&opts.config), stc_coh_row_uses_of(system));
        }
        /* The counters are printed either way; the status tells a script. */
        if (stc_coh_violation_count(system) > 0)
            status = 3;
    }
    stc_mc_trace_close(trace);
    stc_coh_destroy(system);
    return status;
}
