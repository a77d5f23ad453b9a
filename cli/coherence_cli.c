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
#include "coherent.h"
#include "coherence_energy.h"
#include "json.h"
#include "mc_trace.h"

#include <errno.h>
#include <inttypes.h>
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
    "      --json               machine-readable output\n"
    "  -h, --help               this text\n"
    "Exit status: 0 no violation, 1 bad trace, 2 bad usage, 3 violations found.\n";

static int usage_error(const char *fmt, const char *what)
{
    fprintf(stderr, "stcsim coherence: ");
    fprintf(stderr, fmt, what);
    fprintf(stderr, "\n(stcsim coherence --help for usage)\n");
    return 2;
}

/* A decimal number in [min, max]. */
static int parse_number(const char *text, unsigned long min, unsigned long max, unsigned long *value)
{
    if (!text || !*text || *text < '0' || *text > '9')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end || v < min || v > max)
        return -1;
    *value = (unsigned long)v;
    return 0;
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

static void print_text(const stc_coh_system *system, const char *trace_name)
{
    const stc_coh_config *config = stc_coh_config_of(system);
    stc_coh_counters total;
    stc_coh_total(system, &total);
    printf("stcsim coherence: %s: %u cores, %s, per core %" PRIu32 " B %" PRIu32
           "-way %" PRIu32 " B lines, atomic bus\n",
           trace_name, config->cores, stc_coh_protocol_name(config->protocol), config->size_bytes,
           config->ways, config->line_bytes);
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
    stc_coherence_energy terms;
    char why[ERR_LEN];
    if (stc_energy_coherence_default(config->size_bytes, config->ways, config->line_bytes,
                                     COH_ENERGY_ADDR_BITS, &terms, why, sizeof why) == 0) {
        static const char *const parts[] = {"access", "snoop", "memory_read", "c2c",
                                            "memory_write", "bus", "total"};
        for (unsigned part = 0; part < sizeof parts / sizeof parts[0]; part++) {
            char name[32];
            snprintf(name, sizeof name, "%s_nj", parts[part]);
            printf("%-20s", name);
            for (unsigned c = 0; c <= config->cores; c++) {
                stc_coh_energy energy;
                stc_coh_energy_of(&terms,
                                  c < config->cores ? stc_coh_core_counters(system, c) : &total,
                                  &energy);
                const double values[] = {energy.access_nj,       energy.snoop_nj,
                                         energy.memory_read_nj,  energy.c2c_nj,
                                         energy.memory_write_nj, energy.bus_nj,
                                         energy.total_nj};
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

static void print_counters_json(const stc_coh_counters *counters)
{
    printf("{");
    for (unsigned i = 0; i < STC_COH_COUNTER_COUNT; i++)
        printf("%s\"%s\": %" PRIu64, i ? ", " : "", stc_coh_counter_name(i),
               stc_coh_counter_value(counters, i));
    printf("}");
}

static void print_energy_json(const stc_coherence_energy *terms, const stc_coh_counters *counters)
{
    stc_coh_energy energy;
    stc_coh_energy_of(terms, counters, &energy);
    printf("{\"access\": %.6g, \"snoop\": %.6g, \"memory_read\": %.6g, \"c2c\": %.6g, "
           "\"memory_write\": %.6g, \"bus\": %.6g, \"total\": %.6g}",
           energy.access_nj, energy.snoop_nj, energy.memory_read_nj, energy.c2c_nj,
           energy.memory_write_nj, energy.bus_nj, energy.total_nj);
}

static void print_json(const stc_coh_system *system, const char *trace_name)
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
    stc_coherence_energy terms;
    char why[ERR_LEN];
    if (stc_energy_coherence_default(config->size_bytes, config->ways, config->line_bytes,
                                     COH_ENERGY_ADDR_BITS, &terms, why, sizeof why) == 0) {
        printf(",\n \"energy_terms_nj\": {\"access\": %.6g, \"snoop_lookup\": %.6g, "
               "\"memory_read\": %.6g, \"c2c\": %.6g, \"memory_write\": %.6g, "
               "\"bus_address\": %.6g},\n \"energy_nj\": {\"per_core\": [",
               terms.access_nj, terms.snoop_lookup_nj, terms.memory_read_nj, terms.c2c_nj,
               terms.memory_write_nj, terms.bus_address_nj);
        for (unsigned c = 0; c < config->cores; c++) {
            printf("%s\n  ", c ? "," : "");
            print_energy_json(&terms, stc_coh_core_counters(system, c));
        }
        printf("],\n  \"total\": ");
        print_energy_json(&terms, &total);
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
    printf("]}}\n");
}

int stc_coh_main(int argc, char **argv)
{
    stc_coh_config config = {.cores = 4, .size_bytes = 8192, .ways = 4, .line_bytes = 32,
                             .protocol = STC_COH_MESI, .table = NULL};
    const char *path = NULL;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        unsigned long value;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(usage_text, stdout);
            return 0;
        }
        if (!strcmp(arg, "--json")) {
            json = 1;
            continue;
        }
        if (!strcmp(arg, "--cores") || !strcmp(arg, "--protocol") || !strcmp(arg, "--size") ||
            !strcmp(arg, "--ways") || !strcmp(arg, "--line")) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", arg);
            const char *text = argv[++i];
            if (!strcmp(arg, "--protocol")) {
                char err[ERR_LEN];
                if (stc_coh_protocol_parse(text, &config.protocol, err, sizeof err) != 0)
                    return usage_error("--protocol: %s", err);
            } else if (!strcmp(arg, "--cores")) {
                if (parse_number(text, 1, STC_COH_MAX_CORES, &value) != 0)
                    return usage_error("--cores '%s': must be 1..8", text);
                config.cores = (unsigned)value;
            } else if (!strcmp(arg, "--size")) {
                if (parse_number(text, 1, 1ul << 30, &value) != 0)
                    return usage_error("--size '%s': must be a number of bytes, 1..2^30", text);
                config.size_bytes = (uint32_t)value;
            } else if (!strcmp(arg, "--ways")) {
                if (parse_number(text, 1, 1024, &value) != 0)
                    return usage_error("--ways '%s': must be 1..1024", text);
                config.ways = (uint32_t)value;
            } else {
                if (parse_number(text, 1, STC_COH_MAX_LINE, &value) != 0)
                    return usage_error("--line '%s': must be a power of two, 4..256", text);
                config.line_bytes = (uint32_t)value;
            }
            continue;
        }
        if (arg[0] == '-' && arg[1] != '\0')
            return usage_error("unknown option '%s'", arg);
        if (path)
            return usage_error("one trace only ('%s' is a second one)", arg);
        path = arg;
    }
    if (!path)
        return usage_error("%s", "no trace given");

    char err[ERR_LEN];
    stc_coh_system *system = stc_coh_create(&config, err, sizeof err);
    if (!system) {
        /* the options were each in range: the combination is wrong */
        return usage_error("--size/--ways/--line: %s", err);
    }
    stc_mc_trace *trace = stc_mc_trace_open(path, config.cores, err, sizeof err);
    if (!trace) {
        fprintf(stderr, "stcsim coherence: %s\n", err);
        stc_coh_destroy(system);
        return 1;
    }
    uint64_t stores = 0;
    stc_mc_ref ref;
    int got;
    int status = 0;
    while ((got = stc_mc_trace_next(trace, &ref)) > 0) {
        if (ref.label == STC_MC_FETCH) {
            stc_coh_fetch(system, ref.core);
            continue;
        }
        if (ref.size > config.line_bytes) {
            fprintf(stderr, "stcsim coherence: %s:%" PRIu64 ": size %" PRIu32
                            " larger than the line (%" PRIu32 " bytes)\n",
                    stc_mc_trace_name(trace), stc_mc_trace_line(trace), ref.size, config.line_bytes);
            status = 1;
            break;
        }
        stc_coh_op op = ref.label == STC_MC_WRITE ? STC_COH_OP_STORE : STC_COH_OP_LOAD;
        uint64_t value = op == STC_COH_OP_STORE ? store_value(stores++) : 0;
        if (stc_coh_access(system, ref.core, op, ref.addr, ref.size, value, NULL) != 0) {
            fprintf(stderr, "stcsim coherence: %s:%" PRIu64 ": %s\n", stc_mc_trace_name(trace),
                    stc_mc_trace_line(trace), stc_coh_error(system));
            status = 1;
            break;
        }
    }
    if (got < 0) {
        fprintf(stderr, "stcsim coherence: %s\n", stc_mc_trace_error(trace));
        status = 1;
    }
    if (status == 0) {
        if (json)
            print_json(system, stc_mc_trace_name(trace));
        else
            print_text(system, stc_mc_trace_name(trace));
        if (stc_coh_violation_count(system) > 0)
            status = 3;
    }
    stc_mc_trace_close(trace);
    stc_coh_destroy(system);
    return status;
}
