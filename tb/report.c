/* report.c - the history, the mismatch report and the coverage report
 * (report.h). */
#include "report.h"

#include "harness.h"
#include "tuner_side.h"
#include "model_side.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const counter_names[NCOUNTERS] = {
    "requests",        "request_misses",    "accesses",        "reads",
    "writes",          "misses",            "read_misses",     "write_misses",
    "first_probe_hits", "second_probe_hits", "fills",           "fill_bursts",
    "writebacks",      "cycles",            "reconfigs",       "reconfig_cycles",
    "walk_rows",       "banks_woken",       "walk_writebacks", "walk_invalidations"};


const char *counter_name(unsigned index)
{
    return index < NCOUNTERS ? counter_names[index] : "?";
}

void config_name(harness *h, const stc_config *config, char *buf, size_t len)
{
    stc_config_name(&h->geometry, config, buf, len);
}

int config_index(harness *h, const stc_config *config)
{
    for (size_t index = 0; index < h->config_count; index++) {
        if (stc_config_equal(&h->configs[index], config)) {
            return (int)index;
        }
    }
    return -1;
}

static void format_op(harness *h, const op_record *op, char *buf, size_t len)
{
    char from[STC_CONFIG_NAME_MAX], to[STC_CONFIG_NAME_MAX];
    size_t used = 0;
    switch (op->kind) {
    case OP_LOAD:
        used = (size_t)snprintf(buf, len, "load  0x%08" PRIx64, op->addr);
        break;
    case OP_STORE:
        used = (size_t)snprintf(buf, len, "store 0x%08" PRIx64 " be=%x data=0x%08x", op->addr,
                                op->be, op->wdata);
        break;
    case OP_RECONFIG:
        config_name(h, &op->from, from, sizeof from);
        config_name(h, &op->to, to, sizeof to);
        used = (size_t)snprintf(buf, len, "%s %s -> %s",
                                op->by_tuner ? "tuner reconfigures" : "reconfigure", from, to);
        break;
    case OP_ILLEGAL:
        config_name(h, &op->from, from, sizeof from);
        used = (size_t)snprintf(buf, len,
                                "reconfigure %s -> illegal (klog %u alog %u llog %u wp %u)", from,
                                op->fields[0], op->fields[1], op->fields[2], op->fields[3]);
        break;
    case OP_CLEAR:
        used = (size_t)snprintf(buf, len, "clear the counters");
        break;
    case OP_MAINTAIN: {
        static const char *const names[4] = {"none", "clean", "invalidate", "clean+invalidate"};
        if (op->fields[1]) {
            used = (size_t)snprintf(buf, len, "maintenance %s, every line", names[op->fields[0] & 3]);
        } else {
            used = (size_t)snprintf(buf, len, "maintenance %s, the line of 0x%08" PRIx64,
                                    names[op->fields[0] & 3], op->addr);
        }
        break;
    }
    default:
        used = (size_t)snprintf(buf, len, "(none)");
        break;
    }
    if (!op->done || used >= len) {
        return;
    }
    if (op->kind == OP_LOAD || op->kind == OP_STORE) {
        snprintf(buf + used, len - used, " -> %s bank %u, %" PRIu64 " cycles%s",
                 op->hit ? "hit" : "miss", op->bank, op->cycles,
                 op->clear_inside == CLEAR_AT_ACCEPT     ? " (counters cleared in its accepting cycle)"
                 : op->clear_inside == CLEAR_AT_RESPONSE ? " (counters cleared in its response cycle)"
                                         : "");
    } else if (op->kind == OP_RECONFIG || op->kind == OP_MAINTAIN) {
        snprintf(buf + used, len - used, " -> %" PRIu64 " cycles, %u walk writebacks", op->cycles,
                 op->writebacks);
    } else if (op->kind == OP_ILLEGAL) {
        snprintf(buf + used, len - used, " -> refused (cfg_err_o)");
    }
}

void commit_history(harness *h)
{
    h->cur.done = true;
    h->history[h->history_next++ % HISTORY] = h->cur;
}

static void print_counters(FILE *out, const uint64_t *expected, const uint64_t *got)
{
    fprintf(out, "  counters (model / RTL):\n");
    for (unsigned index = 0; index < NCOUNTERS; index++) {
        fprintf(out, "    %2u %-19s %12" PRIu64 " %12" PRIu64 "%s\n", index, counter_names[index],
                expected[index], got[index], expected[index] != got[index] ? "   <--" : "");
    }
}

void mismatch(harness *h, const char *who, const char *format, ...)
{
    char what[600];
    va_list args;
    va_start(args, format);
    vsnprintf(what, sizeof what, format, args);
    va_end(args);
    char model_cfg[STC_CONFIG_NAME_MAX];
    config_name(h, stc_cache_config(h->model), model_cfg, sizeof model_cfg);
    FILE *out = stdout;
    fprintf(out, "MISMATCH (%s) at cycle %" PRIu64 ", operation %" PRIu64 " (request %" PRIu64
                 "), seed %" PRIu64 ":\n  %s\n",
            who, h->cycle, h->ops, h->requests, h->opt.seed, what);
    char text[256];
    format_op(h, &h->cur, text, sizeof text);
    fprintf(out, "  operation (offered in cycle %" PRIu64 "): %s\n", h->cur.start, text);
    fprintf(out, "  configuration: model %s, RTL k=%u a=%u L=%u wp=%u (log2 fields %u %u %u)\n",
            model_cfg, 1u << h->pins.cur_banks_log, 1u << h->pins.cur_ways_log,
            1u << h->pins.cur_sub_log, h->pins.cur_wp, h->pins.cur_banks_log, h->pins.cur_ways_log,
            h->pins.cur_sub_log);
    fprintf(out, "  geometry %s, memory %s, T_mem %u, ack delay %u\n", STC_GEN_NAME,
            h->opt.random_memory ? "random latency/back-pressure" : "fixed latency", h->opt.latency,
            h->opt.ack_delay);
    fprintf(out, "  recent history (oldest first):\n");
    for (unsigned index = 0; index < HISTORY; index++) {
        const op_record *entry = &h->history[(h->history_next + index) % HISTORY];
        if (entry->kind != OP_NONE) {
            format_op(h, entry, text, sizeof text);
            fprintf(out, "    %s\n", text);
        }
    }
    uint64_t expected[NCOUNTERS], got[NCOUNTERS];
    expected_counters(h, expected);
    dut_counters(h->rtl, got);
    print_counters(out, expected, got);
    if (h->opt.wave) {
        fprintf(out, "  waveform: %s (cycle %" PRIu64 " is at time %" PRIu64 ")\n", h->opt.wave,
                h->cycle, 2 * h->cycle);
    }
    dut_flush(h->rtl);
    fflush(out);
    if (h->opt.expect_mismatch) {
        printf("lockstep: mismatch caught as expected\n");
        dut_close(h->rtl);
        exit(0);
    }
    dut_close(h->rtl);
    exit(1);
}

void report_coverage(harness *h, double seconds)
{
    const coverage *cov = &h->cov;
    size_t configs_used = 0, transitions = 0, possible = h->config_count * (h->config_count - 1);
    for (size_t from = 0; from < h->config_count; from++) {
        configs_used += cov->requests_in[from] != 0;
        for (size_t to = 0; to < h->config_count; to++) {
            transitions += from != to && cov->transitions[from][to] != 0;
        }
    }
    printf("lockstep coverage (%s%s):\n", STC_GEN_NAME, LOCKSTEP_ICACHE ? ", I-cache" : "");
    printf("  configurations with traffic: %zu of %zu\n", configs_used, h->config_count);
    if (configs_used < h->config_count && !h->opt.quiet) {
        printf("    without:");
        for (size_t index = 0; index < h->config_count; index++) {
            if (!cov->requests_in[index]) {
                char name[STC_CONFIG_NAME_MAX];
                config_name(h, &h->configs[index], name, sizeof name);
                printf(" %s", name);
            }
        }
        printf("\n");
    }
    printf("  transitions (ordered pairs of different configurations): %zu of %zu\n", transitions,
           possible);
    printf("  sec 4-6  hits %" PRIu64 ", misses %" PRIu64 " (n=1: %" PRIu64 ", n=2: %" PRIu64
           ", n=4: %" PRIu64 "), partly present logical lines %" PRIu64
           ", split read bursts %" PRIu64 ", dirty victims written back %" PRIu64 "\n",
           cov->hits, cov->misses, cov->misses_by_n[1], cov->misses_by_n[2], cov->misses_by_n[4],
           cov->partial_lines, cov->split_bursts, cov->dirty_victims);
    printf("  sec 6    stores %" PRIu64 " (partial byte enables %" PRIu64 ", none %" PRIu64
           "); stores rejected by the I-cache %" PRIu64 "\n",
           cov->stores, cov->partial_stores, cov->empty_stores, cov->rejected);
    printf("  sec 7    reconfigurations %" PRIu64 ": walks %" PRIu64 ", walk writebacks %" PRIu64
           ", walk invalidations %" PRIu64 ", walk moves %" PRIu64 " (in %" PRIu64
           " rows), banks woken %" PRIu64 ", switched off %" PRIu64
           " (SRAMs scrambled), free changes %" PRIu64 ", same %" PRIu64 ", illegal %" PRIu64
           ", with a CPU request waiting %" PRIu64 "\n",
           h->reconfigs, cov->walks, cov->walk_writebacks, cov->walk_invalidations,
           cov->walk_moves, cov->moving_rows, cov->wakes,
           cov->power_offs, cov->zero_cost, cov->same, cov->illegal, cov->overlapped);
    printf("  sec 7.1  maintenance operations: clean %" PRIu64 " / %" PRIu64
           ", invalidate %" PRIu64 " / %" PRIu64 ", clean+invalidate %" PRIu64 " / %" PRIu64
           ", none %" PRIu64 " / %" PRIu64 " (every line / one line; lines found %" PRIu64
           "), writebacks %" PRIu64 ", invalidations %" PRIu64 "\n",
           cov->maintenance[1][1], cov->maintenance[1][0], cov->maintenance[2][1],
           cov->maintenance[2][0], cov->maintenance[3][1], cov->maintenance[3][0],
           cov->maintenance[0][1], cov->maintenance[0][0], cov->maintenance_line_present,
           cov->maintenance_writebacks, cov->maintenance_invalidations);
    printf("  sec 15.3 requests offered in the previous response cycle %" PRIu64
           ", accepted there (back to back) %" PRIu64 "\n",
           cov->back_to_back_offered, cov->back_to_back);
    printf("  sec 8    first-probe hits %" PRIu64 ", second-probe hits %" PRIu64
           ", misses with prediction %" PRIu64 "\n",
           cov->first_probe, cov->second_probe, cov->wp_misses);
    printf("  sec 9    counter clears %" PRIu64 " (inside a request: in its accepting cycle %" PRIu64
           ", in its response cycle %" PRIu64 "); checkpoints (memory = shadow) %" PRIu64
           "; every counter through the read port %" PRIu64 " times; directed cases %" PRIu64
           "; trace references %" PRIu64 "\n",
           cov->clears, cov->clears_at_accept, cov->clears_at_response, cov->checkpoints,
           cov->counter_port_reads, cov->directed_cases, cov->trace_refs);
    printf("  sec 16   tuner event strobes %s; changes made by the tuner %" PRIu64 "\n",
           h->strobes ? "counted every cycle and compared with the counters" : "absent in this top",
           cov->tuner_changes);
    tuner_side_report(h);
    printf("lockstep: %" PRIu64 " requests, %" PRIu64 " reconfigurations, %" PRIu64
           " cycles, 0 mismatches, %.2f s, %.0f requests/s\n",
           h->requests, h->reconfigs, h->cycle, seconds, seconds > 0 ? (double)h->requests / seconds : 0.0);
}
