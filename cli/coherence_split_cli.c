/*
 * coherence_split_cli.c - `stcsim coherence --bus split` (see
 * coherence_split_cli.h): every record of the trace submitted, in trace
 * order, to its core's queue of the split-transaction system; the
 * scheduler interleaves the cores (docs/COHERENCE.md 10). Nothing is
 * printed unless the whole trace was read.
 */
#include "coherence_split_cli.h"

#include "coherence_stc_cli.h"
#include "coherent_common.h"
#include "json.h"
#include "mc_trace.h"
#include "options.h"

#include <inttypes.h>
#include <stdio.h>

static const char program[] = "stcsim coherence";

enum { ERR_LEN = 512 };

/* Priced as the atomic bus's report prices its caches: 32-bit addresses
 * (the energy model's tag width, docs/ENERGY.md 3.9). */
enum { ENERGY_ADDR_BITS = 32 };

/* The run's energy: the terms, and each core's and the total's parts
 * (index cores: the total); priced false (and why) for a geometry stc
 * cannot build, as on the atomic bus. */
typedef struct {
    bool priced;
    char why[ERR_LEN];
    stc_coherence_energy terms;
    stc_coh_energy of[STC_COH_MAX_CORES + 1];
} run_energy;

static void energy_of_run(const stc_cs_system *system, run_energy *energy)
{
    const stc_cs_config *config = stc_cs_config_of(system);
    energy->priced = stc_energy_coherence_default(config->size_bytes, config->ways,
                                                  config->line_bytes, ENERGY_ADDR_BITS,
                                                  &energy->terms, energy->why,
                                                  sizeof energy->why) == 0;
    if (!energy->priced)
        return;
    stc_cs_counters total;
    stc_cs_total(system, &total);
    for (unsigned c = 0; c < config->cores; c++)
        stc_cs_energy_of(&energy->terms, stc_cs_core_counters(system, c), &energy->of[c]);
    stc_cs_energy_of(&energy->terms, &total, &energy->of[config->cores]);
}

/* Every record of the trace into the system. 0, or 1 after the message. */
static int submit_trace(stc_cs_system *system, stc_mc_trace *trace, uint32_t line_bytes)
{
    uint64_t stores = 0;
    stc_mc_ref ref;
    int got;
    while ((got = stc_mc_trace_next(trace, &ref)) > 0) {
        if (ref.label == STC_MC_FETCH)
            continue; /* not coherent, not counted on this bus */
        if (ref.size > line_bytes) {
            stc_cli_message(program, "%s:%" PRIu64 ": size %" PRIu32
                                     " larger than the line (%" PRIu32 " bytes)",
                            stc_mc_trace_name(trace), stc_mc_trace_line(trace), ref.size,
                            line_bytes);
            return 1;
        }
        /* the atomic run's store values: the n-th store writes splitmix(n) */
        stc_coh_op op = ref.label == STC_MC_WRITE ? STC_COH_OP_STORE : STC_COH_OP_LOAD;
        uint64_t n = stores;
        uint64_t value = op == STC_COH_OP_STORE ? (stores++, stc_coh_splitmix_next(&n)) : 0;
        if (stc_cs_submit(system, ref.core, op, ref.addr, ref.size, value, 0) != 0) {
            stc_cli_message(program, "%s:%" PRIu64 ": %s", stc_mc_trace_name(trace),
                            stc_mc_trace_line(trace), stc_cs_error(system));
            return 1;
        }
    }
    if (got < 0) {
        stc_cli_message(program, "%s", stc_mc_trace_error(trace));
        return 1;
    }
    stc_cs_drain(system);
    return 0;
}

void stc_coh_split_print_steps_text(const stc_cs_system *system, const stc_cs_counters *total)
{
    printf("steps %" PRIu64 ", mean latency %.2f steps\n", stc_cs_steps(system),
           total->transactions ? (double)total->latency_sum / (double)total->transactions : 0.0);
    printf("violations: %" PRIu64, stc_cs_violation_count(system));
    for (int k = 0; k < STC_CS_VIOL_KIND_COUNT; k++)
        printf("%s%s %" PRIu64, k ? ", " : " (", stc_cs_violation_kind_name((stc_cs_violation_kind)k),
               stc_cs_violation_kind_count(system, (stc_cs_violation_kind)k));
    printf(")\n");
    for (unsigned i = 0; stc_cs_violation_at(system, i); i++)
        printf("  %s\n", stc_cs_violation_at(system, i)->text);
    if (stc_cs_violation_count(system) > STC_COH_VIOLATIONS_KEPT)
        printf("  ... and %" PRIu64 " more\n",
               stc_cs_violation_count(system) - STC_COH_VIOLATIONS_KEPT);
}

void stc_coh_split_print_violations_json(const stc_cs_system *system)
{
    printf(",\n \"violations\": {\"count\": %" PRIu64, stc_cs_violation_count(system));
    for (int k = 0; k < STC_CS_VIOL_KIND_COUNT; k++)
        printf(", \"%s\": %" PRIu64, stc_cs_violation_kind_name((stc_cs_violation_kind)k),
               stc_cs_violation_kind_count(system, (stc_cs_violation_kind)k));
    printf(", \"first\": [");
    for (unsigned i = 0; stc_cs_violation_at(system, i); i++) {
        printf("%s", i ? ", " : "");
        stc_json_print_string(stc_cs_violation_at(system, i)->text);
    }
    printf("]}}\n");
}

static void print_text(const stc_cs_system *system, const char *trace_name)
{
    const stc_cs_config *config = stc_cs_config_of(system);
    stc_cs_counters total;
    stc_cs_total(system, &total);
    printf("stcsim coherence: %s: %u cores, %s, per core %" PRIu32 " B %" PRIu32
           "-way %" PRIu32 " B lines, split bus, schedule %s, seed %" PRIu64 "\n",
           trace_name, config->cores, stc_coh_protocol_name(config->protocol), config->size_bytes,
           config->ways, config->line_bytes, stc_cs_schedule_name(config->schedule), config->seed);
    if (config->wb_buffer > 0)
        printf("writeback buffer: %" PRIu32 " %s per cache\n", config->wb_buffer,
               config->wb_buffer == 1 ? "entry" : "entries");
    printf("%-20s", "counter");
    for (unsigned c = 0; c < config->cores; c++)
        printf(" %12s%u", "core", c);
    printf(" %13s\n", "total");
    for (unsigned i = 0; i < STC_CS_COUNTER_COUNT; i++) {
        printf("%-20s", stc_cs_counter_name(i));
        for (unsigned c = 0; c < config->cores; c++)
            printf(" %13" PRIu64, stc_cs_counter_value(stc_cs_core_counters(system, c), i));
        printf(" %13" PRIu64 "\n", stc_cs_counter_value(&total, i));
    }
    run_energy energy;
    energy_of_run(system, &energy);
    if (energy.priced) {
        /* the atomic report's rows (no filter row: no filter on this bus) */
        static const char *const parts[] = {"access_nj", "snoop_nj", "memory_read_nj", "c2c_nj",
                                            "memory_write_nj", "bus_nj", "total_nj"};
        for (unsigned part = 0; part < sizeof parts / sizeof parts[0]; part++) {
            printf("%-20s", parts[part]);
            for (unsigned c = 0; c <= config->cores; c++) {
                const stc_coh_energy *e = &energy.of[c];
                const double values[] = {e->access_nj, e->snoop_nj,        e->memory_read_nj,
                                         e->c2c_nj,    e->memory_write_nj, e->bus_nj,
                                         e->total_nj};
                printf(" %13.1f", values[part]);
            }
            printf("\n");
        }
    } else {
        printf("energy: not priced (%s)\n", energy.why);
    }
    stc_coh_split_print_steps_text(system, &total);
}

static void print_counters_json(const stc_cs_counters *counters)
{
    printf("{");
    for (unsigned i = 0; i < STC_CS_COUNTER_COUNT; i++)
        printf("%s\"%s\": %" PRIu64, i ? ", " : "", stc_cs_counter_name(i),
               stc_cs_counter_value(counters, i));
    printf("}");
}

static void print_json(const stc_cs_system *system, const char *trace_name)
{
    const stc_cs_config *config = stc_cs_config_of(system);
    stc_cs_counters total;
    stc_cs_total(system, &total);
    printf("{\"trace\": ");
    stc_json_print_string(trace_name);
    printf(", \"protocol\": \"%s\", \"cores\": %u, \"size\": %" PRIu32 ", \"ways\": %" PRIu32
           ", \"line\": %" PRIu32 ", \"bus\": \"split\", \"schedule\": \"%s\", \"seed\": %" PRIu64
           ", \"steps\": %" PRIu64,
           stc_coh_protocol_name(config->protocol), config->cores, config->size_bytes, config->ways,
           config->line_bytes, stc_cs_schedule_name(config->schedule), config->seed,
           stc_cs_steps(system));
    if (config->wb_buffer > 0)
        printf(", \"wb_buffer\": %" PRIu32, config->wb_buffer);
    printf(",\n \"per_core\": [");
    for (unsigned c = 0; c < config->cores; c++) {
        printf("%s\n  ", c ? "," : "");
        print_counters_json(stc_cs_core_counters(system, c));
    }
    printf("],\n \"total\": ");
    print_counters_json(&total);
    /* the atomic report's energy fields, so that one script reads both */
    run_energy energy;
    energy_of_run(system, &energy);
    if (energy.priced) {
        const stc_coherence_energy *t = &energy.terms;
        printf(",\n \"energy_terms_nj\": {\"access\": %.6g, \"snoop_lookup\": %.6g, "
               "\"memory_read\": %.6g, \"c2c\": %.6g, \"memory_write\": %.6g, "
               "\"bus_address\": %.6g},\n \"energy_nj\": {\"per_core\": [",
               t->access_nj, t->snoop_lookup_nj, t->memory_read_nj, t->c2c_nj,
               t->memory_write_nj, t->bus_address_nj);
        for (unsigned c = 0; c < config->cores; c++) {
            printf("%s\n  ", c ? "," : "");
            stc_coh_print_energy_json(&energy.of[c], false);
        }
        printf("],\n  \"total\": ");
        stc_coh_print_energy_json(&energy.of[config->cores], false);
        printf("}");
    } else {
        printf(",\n \"energy_terms_nj\": null, \"energy_nj\": null, \"energy_note\": ");
        stc_json_print_string(energy.why);
    }
    stc_coh_split_print_violations_json(system);
}

int stc_coh_split_run(const stc_coh_config *config, stc_cs_schedule schedule, uint64_t seed,
                      uint32_t wb_buffer, const char *trace_path, bool json)
{
    stc_cs_config split = {.cores = config->cores, .size_bytes = config->size_bytes,
                           .ways = config->ways, .line_bytes = config->line_bytes,
                           .protocol = config->protocol, .schedule = schedule, .seed = seed,
                           .wb_buffer = wb_buffer};
    char err[ERR_LEN];
    stc_cs_system *system = stc_cs_create(&split, err, sizeof err);
    if (!system) {
        stc_cli_message(program, "%s: %s", wb_buffer > STC_CS_MAX_WB_BUFFER
                                               ? "--wb-buffer" : "--size/--ways/--line", err);
        fputs("(stcsim coherence --help for usage)\n", stderr);
        return STC_CLI_BAD_USAGE;
    }
    stc_mc_trace *trace = stc_mc_trace_open(trace_path, config->cores, err, sizeof err);
    if (!trace) {
        stc_cli_message(program, "%s", err);
        stc_cs_destroy(system);
        return 1;
    }
    int status = submit_trace(system, trace, config->line_bytes);
    if (status == 0) {
        if (json)
            print_json(system, stc_mc_trace_name(trace));
        else
            print_text(system, stc_mc_trace_name(trace));
        if (stc_cs_violation_count(system) > 0)
            status = 3;
    }
    stc_mc_trace_close(trace);
    stc_cs_destroy(system);
    return status;
}
