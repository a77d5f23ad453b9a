/*
 * stcsnooptb - write a self-checking Verilog testbench for stc_coh_snoop,
 * one core's snoop port on the atomic bus (docs/ARCHITECTURE.md 19.4), as
 * `stcgen --protocol P` writes it for a geometry.
 *
 * The expected answers come from a reference kept here: the duplicate tag
 * array as a plain C array of (state code, tag) per bank and row, the
 * candidate rule taken from the C model's configurations (ref/config.h:
 * powered banks 0 .. banks_on - 1, groups = banks_on / ways, bank b a
 * candidate of tag t when b mod groups = t mod groups), and the protocol's
 * snoop rows from the C model's table (stc_coh_snoop_lookup). Seeded
 * traffic: the reset walk (every slot written I), then cycles that write
 * slots as a controller would (fills with tags, state changes, several
 * banks at once as a walk does) and snoop lines of a few hot rows and tags,
 * often the row written in the same cycle, under configurations changed
 * now and then; a snoop that changes a state writes its slot itself (the
 * port's second write port, over the same cycle's write). Every output is compared in every cycle. A comment line
 * near the top reports coverage (hits, same-cycle writes seen by a snoop,
 * double matches, state changes, the protocol's snoop rows reached);
 * tests/coh-rtl-checks.sh asserts on it.
 */
#include "coherence_protocol.h"
#include "config.h"
#include "geometry.h"
#include "snooptb.h"
#include "tb_common.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    ERR_LEN = 256,
    BUS_BITS = 3,      /* ARCHITECTURE.md 19.1 */
    CYCLES = 6000,     /* after the reset walk */
    HOT_ROWS = 3,
    HOT_TAGS = 4
};

static const char usage_text[] =
    "usage: stcsnooptb --protocol msi|mesi|moesi [-g GEOMETRY] [--model]\n"
    "Write on stdout a Verilog testbench (module tb_coh_snoop) checking the\n"
    "stc_coh_snoop that `stcgen --protocol P` writes for the same geometry\n"
    "(GEOMETRY as for stcsim, e.g. banks=8,line_bytes=32; stcgen takes it as\n"
    "--banks 8 --line-bytes 32) against a C reference, every output in every\n"
    "cycle (docs/ARCHITECTURE.md 19.4). It prints PASS or FAIL; a comment line\n"
    "'// coverage: ...' near its top says what the traffic reached.\n"
    "  --model   the traffic of the coherent stc model (3 cores, core 0\n"
    "            reconfigured now and then): core 0's changed slots written as\n"
    "            the controller must write them, snoops answered by the model's\n"
    "            own lookup and states\n";

/* The slot as the lookup sees it: the stored one, with this cycle's write
 * of the same row laid over it (19.4: the controller's change comes first). */
static tag_slot seen_slot(const reference *ref, const cycle_in *in, unsigned row, unsigned bank)
{
    tag_slot seen = ref->slots[(size_t)row * ref->geometry->banks + bank];
    if (in->wr_valid && in->wr_row == row && (in->wr_banks >> bank & 1u)) {
        seen.state = in->wr_state;
        if (in->wr_set_tag) {
            seen.tag = in->wr_tag;
        }
    }
    return seen;
}

static cycle_out expect(const reference *ref, const cycle_in *in, coverage *cov)
{
    const stc_geometry *g = ref->geometry;
    cycle_out out = {0};
    if (!in->snp_valid) {
        return out;
    }
    unsigned row = (unsigned)(in->snp_line & (g->rows - 1));
    uint64_t tag = in->snp_line >> g->row_bits;
    unsigned banks_on = 1u << in->banks_log;
    unsigned groups = 1u << (in->banks_log - in->ways_log);
    unsigned matches = 0;
    for (unsigned bank = 0; bank < g->banks; bank++) {
        tag_slot seen = seen_slot(ref, in, row, bank);
        bool candidate = bank < banks_on && bank % groups == tag % groups;
        if (candidate && seen.state != 0 && seen.tag == tag) {
            if (matches == 0) {
                out.bank = bank;
                out.state = seen.state;
                if (in->wr_valid && in->wr_row == row && (in->wr_banks >> bank & 1u)) {
                    cov->forwarded_hits++;
                }
            }
            matches++;
        }
    }
    out.hit = matches > 0;
    out.multi = matches > 1;
    cov->hits += out.hit;
    cov->multi += out.multi;
    snooptb_answer_row(ref, in->snp_bus, &out, cov);
    return out;
}

void snooptb_answer_row(const reference *ref, unsigned bus, cycle_out *out, coverage *cov)
{
    const stc_coh_table *table = ref->table;
    const stc_coh_snoop_row *row_of_table =
        out->state < table->state_count && bus > STC_COH_BUS_NONE && bus < STC_COH_BUS_COUNT
            ? stc_coh_snoop_lookup(table, table->states[out->state], (stc_coh_bus)bus)
            : NULL;
    if (row_of_table) {
        out->next = stc_coh_state_code(table, row_of_table->next);
        out->supplies = row_of_table->supplies;
        out->flushes = row_of_table->flushes;
        out->shared = row_of_table->asserts_shared;
        out->known = !row_of_table->impossible;
        cov->row_reached[table->states[out->state]][bus] = true;
    } else {
        out->next = out->state;
        cov->unknown_rows++;
    }
    out->change = out->hit && out->next != out->state;
    cov->changes += out->change;
}

static void apply_write(reference *ref, const cycle_in *in)
{
    if (!in->wr_valid) {
        return;
    }
    for (unsigned bank = 0; bank < ref->geometry->banks; bank++) {
        if (in->wr_banks >> bank & 1u) {
            tag_slot *target = &ref->slots[(size_t)in->wr_row * ref->geometry->banks + bank];
            target->state = in->wr_state;
            if (in->wr_set_tag) {
                target->tag = in->wr_tag;
            }
        }
    }
}

void snooptb_apply_snoop(reference *ref, const cycle_in *in, const cycle_out *out,
                         coverage *cov)
{
    if (!out->change) {
        return;
    }
    const stc_geometry *g = ref->geometry;
    unsigned row = (unsigned)(in->snp_line & (g->rows - 1));
    if (in->wr_valid && in->wr_row == row && (in->wr_banks >> out->bank & 1u)) {
        cov->snoop_over_write++;
    }
    ref->slots[(size_t)row * g->banks + out->bank].state = out->next;
}

static void print_bits(unsigned width, uint64_t value)
{
    printf("%u'h%llx", width, (unsigned long long)value);
}

void print_cycle(const reference *ref, const cycle_in *in, const cycle_out *out,
                        unsigned long number)
{
    const stc_geometry *g = ref->geometry;
    const unsigned sb = ref->state_bits;
    printf("    cyc(3'd%u, 3'd%u, 1'b%d, ", in->banks_log, in->ways_log, in->wr_valid);
    print_bits(g->row_bits, in->wr_row);
    printf(", ");
    print_bits(g->banks, in->wr_banks);
    printf(", ");
    print_bits(sb, in->wr_state);
    printf(", 1'b%d, ", in->wr_set_tag);
    print_bits(g->tag_bits, in->wr_tag);
    printf(", 1'b%d, ", in->snp_valid);
    print_bits(g->addr_bits - g->offset_bits, in->snp_line);
    printf(", 3'd%u, {1'b%d, ", in->snp_bus, out->hit);
    print_bits(ref->bank_index_bits, out->bank);
    printf(", 1'b%d, ", out->multi);
    print_bits(sb, out->state);
    printf(", ");
    print_bits(sb, out->next);
    printf(", 1'b%d, 1'b%d, 1'b%d, 1'b%d, 1'b%d}, %lu);\n", out->change, out->supplies,
           out->flushes, out->shared, out->known, number);
}

static void write_preamble(const reference *ref)
{
    const stc_geometry *g = ref->geometry;
    const unsigned sb = ref->state_bits;
    const unsigned bi = ref->bank_index_bits;
    const unsigned out_bits = 1 + bi + 1 + sb + sb + 5;
    const unsigned line_bits = g->addr_bits - g->offset_bits;
    printf("  reg clk = 1'b0;\n");
    printf("  reg [2:0] banks_log, ways_log, bus;\n");
    printf("  reg wr_valid, wr_set_tag, snp_valid;\n");
    printf("  reg [%u:0] wr_row;\n  reg [%u:0] wr_banks;\n  reg [%u:0] wr_state;\n",
           g->row_bits - 1, g->banks - 1, sb - 1);
    printf("  reg [%u:0] wr_tag;\n  reg [%u:0] snp_line;\n", g->tag_bits - 1, line_bits - 1);
    printf("  wire hit, multi, change, supplies, flushes, shared, known;\n");
    printf("  wire [%u:0] bank;\n  wire [%u:0] state, next;\n", bi - 1, sb - 1);
    printf("  integer checks = 0;\n  integer errors = 0;\n\n");
    printf("  stc_coh_snoop u_snoop (\n"
           "    .clk_i(clk), .cfg_banks_log_i(banks_log), .cfg_ways_log_i(ways_log),\n"
           "    .wr_valid_i(wr_valid), .wr_row_i(wr_row), .wr_banks_i(wr_banks),\n"
           "    .wr_state_i(wr_state), .wr_set_tag_i(wr_set_tag), .wr_tag_i(wr_tag),\n"
           "    .snp_valid_i(snp_valid), .snp_line_i(snp_line), .snp_bus_i(bus),\n"
           "    .snp_hit_o(hit), .snp_bank_o(bank), .snp_multi_o(multi), .snp_state_o(state),\n"
           "    .snp_next_o(next), .snp_change_o(change), .snp_supplies_o(supplies),\n"
           "    .snp_flushes_o(flushes), .snp_shared_o(shared), .snp_known_o(known));\n\n");
    printf("  task cyc(input [2:0] bl, input [2:0] wl, input wv, input [%u:0] wrow,\n"
           "           input [%u:0] wbanks, input [%u:0] wstate, input wst, input [%u:0] wtag,\n"
           "           input sv, input [%u:0] sline, input [2:0] sbus, input [%u:0] expected,\n"
           "           input integer number);\n",
           g->row_bits - 1, g->banks - 1, sb - 1, g->tag_bits - 1, line_bits - 1,
           out_bits - 1);
    printf("    begin\n");
    printf("      banks_log = bl; ways_log = wl; wr_valid = wv; wr_row = wrow; wr_banks = wbanks;\n"
           "      wr_state = wstate; wr_set_tag = wst; wr_tag = wtag; snp_valid = sv;\n"
           "      snp_line = sline; bus = sbus;\n");
    printf("      #1;\n      checks = checks + 1;\n");
    printf("      if ({hit, bank, multi, state, next, change, supplies, flushes, shared, known}\n"
           "          !== expected) begin\n");
    printf("        errors = errors + 1;\n        if (errors <= 10)\n");
    printf("          $display(\"MISMATCH cycle %%0d: rtl hit,bank,multi,state,next,change,"
           "supplies,flushes,shared,known = %%b expected %%b\",\n"
           "                   number, {hit, bank, multi, state, next, change, supplies, "
           "flushes, shared, known}, expected);\n");
    printf("      end\n      clk = 1'b1;\n      #1;\n      clk = 1'b0;\n    end\n  endtask\n\n");
}

void snooptb_reset_walk(reference *ref, cycle_in *in, bool print, unsigned long *number)
{
    const stc_geometry *g = ref->geometry;
    for (unsigned row = 0; row < g->rows; row++) {
        in->wr_valid = true;
        in->wr_row = row;
        in->wr_banks = g->banks >= 32 ? ~0u : (1u << g->banks) - 1;
        in->wr_state = 0;
        in->wr_set_tag = true;
        in->wr_tag = 0;
        in->snp_valid = false;
        in->snp_line = 0;
        in->snp_bus = 0;
        cycle_out quiet = {0};
        if (print) {
            print_cycle(ref, in, &quiet, *number);
        }
        (*number)++;
        apply_write(ref, in);
    }
}

/* A line of the hot set (or anywhere), and a tag of the hot set (or any). */
static unsigned pick_row(uint64_t *seed, const stc_geometry *g, const unsigned *hot_rows)
{
    return tb_below(seed, 10) < 7 ? hot_rows[tb_below(seed, HOT_ROWS)] : tb_below(seed, g->rows);
}

static uint64_t pick_tag(uint64_t *seed, const stc_geometry *g, const uint64_t *hot_tags)
{
    uint64_t mask = g->tag_bits >= 64 ? ~0ull : (1ull << g->tag_bits) - 1;
    return tb_below(seed, 10) < 8 ? hot_tags[tb_below(seed, HOT_TAGS)] : tb_next_random(seed) & mask;
}

/* The traffic: the reset walk, then CYCLES seeded cycles, each checked
 * against expect() and printed as a cyc() call if print. */
static void run_traffic(reference *ref, const stc_config *configs, size_t config_count,
                        coverage *cov, bool print)
{
    const stc_geometry *g = ref->geometry;
    const unsigned states = ref->table->state_count;
    uint64_t seed = 0x5eed5eed12345677ull ^ ((uint64_t)g->banks << 32) ^ g->rows ^
                    ((uint64_t)ref->table->protocol << 48);
    uint64_t tag_mask = g->tag_bits >= 64 ? ~0ull : (1ull << g->tag_bits) - 1;
    unsigned hot_rows[HOT_ROWS];
    uint64_t hot_tags[HOT_TAGS];
    for (unsigned i = 0; i < HOT_ROWS; i++) {
        hot_rows[i] = tb_below(&seed, g->rows);
    }
    for (unsigned i = 0; i < HOT_TAGS; i++) {
        /* consecutive tags first: they fall in different bank groups */
        hot_tags[i] = i < 2 ? (0x15u + i) & tag_mask : tb_next_random(&seed) & tag_mask;
    }
    /* and an alias of the first in the top tag bit */
    if (g->tag_bits > 1) {
        hot_tags[HOT_TAGS - 1] = hot_tags[0] ^ (1ull << (g->tag_bits - 1));
    }
    unsigned long number = 0;
    cycle_in in = {.banks_log = tb_bits_for(g->banks), .ways_log = tb_bits_for(g->banks)};
    snooptb_reset_walk(ref, &in, print, &number);
    unsigned all_banks = g->banks >= 32 ? ~0u : (1u << g->banks) - 1;
    for (unsigned cycle = 0; cycle < CYCLES; cycle++) {
        if (tb_below(&seed, 150) == 0) {
            const stc_config *config = &configs[tb_below(&seed, (unsigned)config_count)];
            in.banks_log = tb_bits_for(config->banks_on);
            in.ways_log = tb_bits_for(config->ways);
        }
        in.wr_valid = tb_below(&seed, 10) < 6;
        in.wr_row = pick_row(&seed, g, hot_rows);
        unsigned how = tb_below(&seed, 10);
        in.wr_banks = how < 7   ? 1u << tb_below(&seed, g->banks)
                      : how < 9 ? (unsigned)tb_next_random(&seed) & all_banks
                                : all_banks;
        unsigned what = tb_below(&seed, 10);
        in.wr_state = what < 8   ? tb_below(&seed, states)
                      : what < 9 ? 0
                                 : tb_below(&seed, 1u << ref->state_bits);
        in.wr_set_tag = tb_below(&seed, 10) < 6;
        in.wr_tag = pick_tag(&seed, g, hot_tags);
        in.snp_valid = tb_below(&seed, 10) < 7;
        unsigned snoop_row = in.wr_valid && tb_below(&seed, 10) < 4 ? in.wr_row
                                                                  : pick_row(&seed, g, hot_rows);
        in.snp_line = pick_tag(&seed, g, hot_tags) << g->row_bits | snoop_row;
        in.snp_bus = tb_below(&seed, 10) < 9 ? 1 + tb_below(&seed, 4) : tb_below(&seed, 8);
        cycle_out out = expect(ref, &in, cov);
        if (print) {
            print_cycle(ref, &in, &out, number);
        }
        number++;
        apply_write(ref, &in);
        snooptb_apply_snoop(ref, &in, &out, cov);
    }
}

int main(int argc, char **argv)
{
    stc_coh_protocol protocol = STC_COH_MSI;
    bool have_protocol = false;
    bool model = false;
    stc_geometry geometry;
    const char *geometry_list = NULL;
    char err[ERR_LEN];
    for (int index = 1; index < argc; index++) {
        const char *arg = argv[index];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(usage_text, stdout);
            return 0;
        }
        if (strcmp(arg, "--model") == 0) {
            model = true;
            continue;
        }
        bool is_protocol = strcmp(arg, "--protocol") == 0;
        if ((!is_protocol && strcmp(arg, "-g") != 0) || index + 1 >= argc) {
            fprintf(stderr, "stcsnooptb: %s: %s\n%s", arg,
                    index + 1 >= argc ? "needs a value or is unknown" : "unknown option",
                    usage_text);
            return 2;
        }
        const char *value = argv[++index];
        if (is_protocol) {
            if (stc_coh_protocol_parse(value, &protocol, err, sizeof err) != 0) {
                fprintf(stderr, "stcsnooptb: --protocol %s: %s\n", value, err);
                return 2;
            }
            have_protocol = true;
        } else {
            geometry_list = value;
        }
    }
    if (!have_protocol) {
        fprintf(stderr, "stcsnooptb: --protocol is required\n%s", usage_text);
        return 2;
    }
    if (tb_geometry("stcsnooptb", geometry_list, &geometry) != 0) {
        return 2;
    }
    stc_config configs[STC_MAX_CONFIGS];
    size_t config_count = stc_config_enumerate(&geometry, configs, STC_MAX_CONFIGS);
    const stc_coh_table *table = stc_coh_table_of(protocol);
    reference ref = {
        .table = table,
        .geometry = &geometry,
        .state_bits = tb_bits_for(table->state_count),
        .bank_index_bits = geometry.bank_bits ? geometry.bank_bits : 1,
        .slots = calloc((size_t)geometry.rows * geometry.banks, sizeof(tag_slot)),
    };
    if (!ref.slots) {
        fprintf(stderr, "stcsnooptb: out of memory\n");
        return 1;
    }
    /* The traffic is made once to count its coverage, then again (the same
     * seeded sequence) to print it after the coverage line. */
    coverage cov = {0};
    unsigned long cycles = 0;
    if (model) {
        if (snooptb_model_traffic(&ref, &cov, false, &cycles, err, sizeof err) != 0) {
            fprintf(stderr, "stcsnooptb: %s\n", err);
            free(ref.slots);
            return 1;
        }
    } else {
        run_traffic(&ref, configs, config_count, &cov, false);
    }
    unsigned rows_total = 0, rows_reached = 0;
    for (unsigned code = 0; code < table->state_count; code++) {
        for (unsigned bus = STC_COH_BUS_NONE + 1; bus < STC_COH_BUS_COUNT; bus++) {
            if (stc_coh_snoop_lookup(table, table->states[code], (stc_coh_bus)bus)) {
                rows_total++;
                rows_reached += cov.row_reached[table->states[code]][bus];
            }
        }
    }
    printf("// tb_coh_snoop: %s, geometry %s; written by tools/stcsnooptb.c from %s\n"
           "// (docs/ARCHITECTURE.md 19.4). Prints PASS or FAIL.\n",
           stc_coh_protocol_name(protocol), geometry_list ? geometry_list : "default",
           model ? "the coherent stc model's slots" : "its C reference");
    printf("// coverage: hits %lu forwarded %lu multi %lu changes %lu unknown %lu rows %u of %u "
           "slot-writes %lu reconfigs %lu snoop-over-write %lu\n",
           cov.hits, cov.forwarded_hits, cov.multi, cov.changes, cov.unknown_rows, rows_reached,
           rows_total, cov.slot_writes, cov.reconfigs, cov.snoop_over_write);
    printf("`timescale 1ns / 1ps\n`default_nettype none\n\nmodule tb_coh_snoop;\n");
    write_preamble(&ref);
    printf("  initial begin\n");
    memset(ref.slots, 0, (size_t)geometry.rows * geometry.banks * sizeof(tag_slot));
    coverage again = {0};
    if (model) {
        cycles = 0;
        if (snooptb_model_traffic(&ref, &again, true, &cycles, err, sizeof err) != 0) {
            fprintf(stderr, "stcsnooptb: %s\n", err); /* the first pass ran it: never */
            free(ref.slots);
            return 1;
        }
    } else {
        run_traffic(&ref, configs, config_count, &again, true);
    }
    tb_print_verdict();
    printf("  end\n\nendmodule\n\n`resetall\n");
    free(ref.slots);
    return ferror(stdout) ? 1 : 0;
}
