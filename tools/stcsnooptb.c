/*
 * stcsnooptb - write a self-checking Verilog testbench for stc_coh_snoop,
 * one core's snoop port on the atomic bus (docs/ARCHITECTURE.md 19.4), as
 * `stcgen --protocol P` writes it for a geometry.
 *
 * A snoop covers the lines of one aligned group of 4 physical lines (a
 * burst's): snp_line_i names the group, snp_bus_i[3p +: 3] the bus code
 * of position p (0: not snooped), and every output is a vector of 4
 * answers, position p's the old single-line port's answer for its line
 * (all 0 but snp_known_o for a position not snooped).
 *
 * The expected answers come from a reference kept here: the duplicate tag
 * array as a plain C array of (state code, tag) per bank and row, the
 * candidate rule taken from the C model's configurations (ref/config.h:
 * powered banks 0 .. banks_on - 1, groups = banks_on / ways, bank b a
 * candidate of tag t when b mod groups = t mod groups), and the protocol's
 * snoop rows from the C model's table (stc_coh_snoop_lookup). Seeded
 * traffic: the reset walk (every slot written I), then cycles that write
 * slots as a controller would (fills with tags, state changes, several
 * banks at once as a walk does) and snoop lines of all the rows of a few
 * hot groups and of a few hot tags, often the group written in the same
 * cycle, under configurations changed now and then. A snoop covers mostly
 * a run of 1-4 consecutive lines of its group, else one line or any set,
 * so that several lines hit and change in one cycle; every line that
 * changes state writes its slot itself (the port's second write port,
 * over the same cycle's write). Every output is compared in every cycle.
 * A comment line near the top reports coverage (per snooped line: hits,
 * same-cycle writes seen, double matches, state changes, the protocol's
 * snoop rows reached, snoops' writes over the same cycle's write; per
 * cycle: snoops changing 2 or more lines); tests/coh-rtl-checks.sh
 * asserts on it.
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
    HOT_GROUPS = 2,    /* aligned groups of rows, all their rows hot */
    HOT_ROWS = HOT_GROUPS * SNOOP_GROUP_LINES,
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

bool snooptb_snooped(const cycle_in *in, unsigned position)
{
    return in->snp_valid && in->snp_bus[position] != 0;
}

uint64_t snooptb_group_line(uint64_t line, unsigned position)
{
    return (line & ~(uint64_t)(SNOOP_GROUP_LINES - 1)) | position;
}

cycle_out snooptb_quiet(void)
{
    cycle_out quiet = {0};
    for (unsigned position = 0; position < SNOOP_GROUP_LINES; position++) {
        quiet.line[position].known = true;
    }
    return quiet;
}

/* A snooped line's answer: the candidate slot holding it (the lowest bank
 * if several do), and the table's row for its state. */
static line_out expect_line(const reference *ref, const cycle_in *in, unsigned position,
                            coverage *cov)
{
    const stc_geometry *g = ref->geometry;
    line_out out = {0};
    uint64_t line = snooptb_group_line(in->snp_line, position);
    unsigned row = (unsigned)(line & (g->rows - 1));
    uint64_t tag = line >> g->row_bits;
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
    snooptb_answer_row(ref, in->snp_bus[position], &out, cov);
    return out;
}

static cycle_out expect(const reference *ref, const cycle_in *in, coverage *cov)
{
    cycle_out out = snooptb_quiet();
    for (unsigned position = 0; position < SNOOP_GROUP_LINES; position++) {
        if (snooptb_snooped(in, position)) {
            out.line[position] = expect_line(ref, in, position, cov);
        }
    }
    snooptb_count_group(&out, cov);
    return out;
}

void snooptb_answer_row(const reference *ref, unsigned bus, line_out *out, coverage *cov)
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
        out->known = false;
        cov->unknown_rows++;
    }
    out->change = out->hit && out->next != out->state;
    cov->changes += out->change;
}

void snooptb_count_group(const cycle_out *out, coverage *cov)
{
    unsigned changed = 0;
    for (unsigned position = 0; position < SNOOP_GROUP_LINES; position++) {
        changed += out->line[position].change;
    }
    cov->multi_line_changes += changed >= 2;
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
    const stc_geometry *g = ref->geometry;
    for (unsigned position = 0; position < SNOOP_GROUP_LINES; position++) {
        const line_out *line = &out->line[position];
        if (!line->change) {
            continue;
        }
        unsigned row = (unsigned)(snooptb_group_line(in->snp_line, position) & (g->rows - 1));
        if (in->wr_valid && in->wr_row == row && (in->wr_banks >> line->bank & 1u)) {
            cov->snoop_over_write++;
        }
        ref->slots[(size_t)row * g->banks + line->bank].state = line->next;
    }
}

/* The port's outputs in the order the testbench concatenates them; each is
 * a vector of SNOOP_GROUP_LINES fields, position p's at [p*width +: width]. */
typedef enum {
    OUT_HIT, OUT_BANK, OUT_MULTI, OUT_STATE, OUT_NEXT, OUT_CHANGE, OUT_SUPPLIES,
    OUT_FLUSHES, OUT_SHARED, OUT_KNOWN, OUT_FIELDS
} output_field;

static const char *const output_names[OUT_FIELDS] = {
    "hit", "bank", "multi", "state", "next", "change", "supplies", "flushes", "shared", "known"};

static unsigned field_width(const reference *ref, output_field field)
{
    switch (field) {
    case OUT_BANK:
        return ref->bank_index_bits;
    case OUT_STATE:
    case OUT_NEXT:
        return ref->state_bits;
    default:
        return 1;
    }
}

static unsigned field_value(const line_out *line, output_field field)
{
    switch (field) {
    case OUT_HIT: return line->hit;
    case OUT_BANK: return line->bank;
    case OUT_MULTI: return line->multi;
    case OUT_STATE: return line->state;
    case OUT_NEXT: return line->next;
    case OUT_CHANGE: return line->change;
    case OUT_SUPPLIES: return line->supplies;
    case OUT_FLUSHES: return line->flushes;
    case OUT_SHARED: return line->shared;
    default: return line->known;
    }
}

static void print_bits(unsigned width, uint64_t value)
{
    printf("%u'h%llx", width, (unsigned long long)value);
}

/* The expected outputs as {hit, bank, ..., known}, each the 4 lines'. */
static void print_expected(const reference *ref, const cycle_out *out)
{
    printf("{");
    for (unsigned field = 0; field < OUT_FIELDS; field++) {
        unsigned width = field_width(ref, (output_field)field);
        uint64_t vector = 0;
        for (unsigned position = 0; position < SNOOP_GROUP_LINES; position++) {
            vector |= (uint64_t)field_value(&out->line[position], (output_field)field)
                      << (position * width);
        }
        printf("%s", field ? ", " : "");
        print_bits(SNOOP_GROUP_LINES * width, vector);
    }
    printf("}");
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
    /* in octal: a digit per position's 3-bit code, position 3 first */
    unsigned long long buses = 0;
    for (unsigned position = 0; position < SNOOP_GROUP_LINES; position++) {
        buses |= (unsigned long long)in->snp_bus[position] << (position * BUS_BITS);
    }
    printf(", %u'o%0*llo, ", SNOOP_GROUP_LINES * BUS_BITS, SNOOP_GROUP_LINES, buses);
    print_expected(ref, out);
    printf(", %lu);\n", number);
}

/* The outputs' names as a Verilog concatenation, in output_field order. */
static void print_output_names(void)
{
    printf("{");
    for (unsigned field = 0; field < OUT_FIELDS; field++) {
        printf("%s%s", field ? ", " : "", output_names[field]);
    }
    printf("}");
}

static void write_preamble(const reference *ref)
{
    const stc_geometry *g = ref->geometry;
    const unsigned sb = ref->state_bits;
    const unsigned bi = ref->bank_index_bits;
    const unsigned n = SNOOP_GROUP_LINES;
    unsigned out_bits = 0;
    for (unsigned field = 0; field < OUT_FIELDS; field++) {
        out_bits += n * field_width(ref, (output_field)field);
    }
    const unsigned line_bits = g->addr_bits - g->offset_bits;
    printf("  reg clk = 1'b0;\n");
    printf("  reg [2:0] banks_log, ways_log;\n  reg [%u:0] bus;\n", n * BUS_BITS - 1);
    printf("  reg wr_valid, wr_set_tag, snp_valid;\n");
    printf("  reg [%u:0] wr_row;\n  reg [%u:0] wr_banks;\n  reg [%u:0] wr_state;\n",
           g->row_bits - 1, g->banks - 1, sb - 1);
    printf("  reg [%u:0] wr_tag;\n  reg [%u:0] snp_line;\n", g->tag_bits - 1, line_bits - 1);
    printf("  // per line p of the snooped group: bit p, or [p*width +: width]\n");
    printf("  wire [%u:0] hit, multi, change, supplies, flushes, shared, known;\n", n - 1);
    printf("  wire [%u:0] bank;\n  wire [%u:0] state, next;\n", n * bi - 1, n * sb - 1);
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
           "           input sv, input [%u:0] sline, input [%u:0] sbus, input [%u:0] expected,\n"
           "           input integer number);\n",
           g->row_bits - 1, g->banks - 1, sb - 1, g->tag_bits - 1, line_bits - 1,
           n * BUS_BITS - 1, out_bits - 1);
    printf("    begin\n");
    printf("      banks_log = bl; ways_log = wl; wr_valid = wv; wr_row = wrow; wr_banks = wbanks;\n"
           "      wr_state = wstate; wr_set_tag = wst; wr_tag = wtag; snp_valid = sv;\n"
           "      snp_line = sline; bus = sbus;\n");
    printf("      #1;\n      checks = checks + 1;\n");
    printf("      if (");
    print_output_names();
    printf(" !== expected) begin\n");
    printf("        errors = errors + 1;\n        if (errors <= 10)\n");
    printf("          $display(\"MISMATCH cycle %%0d: rtl ");
    for (unsigned field = 0; field < OUT_FIELDS; field++) {
        printf("%s%s", field ? "," : "", output_names[field]);
    }
    printf(" = %%b expected %%b\",\n                   number, ");
    print_output_names();
    printf(", expected);\n");
    printf("      end\n      clk = 1'b1;\n      #1;\n      clk = 1'b0;\n    end\n  endtask\n\n");
}

void snooptb_reset_walk(reference *ref, cycle_in *in, bool print, unsigned long *number)
{
    const stc_geometry *g = ref->geometry;
    for (unsigned row = 0; row < g->rows; row++) {
        *in = (cycle_in){.banks_log = in->banks_log, .ways_log = in->ways_log,
                         .wr_valid = true, .wr_row = row,
                         .wr_banks = g->banks >= 32 ? ~0u : (1u << g->banks) - 1,
                         .wr_state = 0, .wr_set_tag = true, .wr_tag = 0};
        cycle_out quiet = snooptb_quiet();
        if (print) {
            print_cycle(ref, in, &quiet, *number);
        }
        (*number)++;
        apply_write(ref, in);
    }
}

/* A row of the hot set (or anywhere), and a tag of the hot set (or any). */
static unsigned pick_row(uint64_t *seed, const stc_geometry *g, const unsigned *hot_rows)
{
    return tb_below(seed, 10) < 7 ? hot_rows[tb_below(seed, HOT_ROWS)] : tb_below(seed, g->rows);
}

static uint64_t pick_tag(uint64_t *seed, const stc_geometry *g, const uint64_t *hot_tags)
{
    uint64_t mask = g->tag_bits >= 64 ? ~0ull : (1ull << g->tag_bits) - 1;
    return tb_below(seed, 10) < 8 ? hot_tags[tb_below(seed, HOT_TAGS)] : tb_next_random(seed) & mask;
}

/* The positions of the group a snoop covers (bit p: position p), mostly as
 * a bus item asks: a run of 1-4 consecutive lines through the base line
 * (so that a snoop of the row written meets the write); else the base
 * line alone; else any set of lines, sometimes none. */
static unsigned pick_positions(uint64_t *seed, unsigned base_position)
{
    unsigned how = tb_below(seed, 10);
    if (how < 6) {
        unsigned length = 1 + tb_below(seed, SNOOP_GROUP_LINES);
        unsigned lowest = base_position + 1 >= length ? base_position + 1 - length : 0;
        unsigned highest = SNOOP_GROUP_LINES - length < base_position
                               ? SNOOP_GROUP_LINES - length
                               : base_position;
        unsigned start = lowest + tb_below(seed, highest - lowest + 1);
        return ((1u << length) - 1) << start;
    }
    if (how < 8) {
        return 1u << base_position;
    }
    return tb_below(seed, 1u << SNOOP_GROUP_LINES);
}

/* The tag a random bank holds in row: a snoop of a line the cache has
 * (or had), which the other rows of its group often hold too. */
static uint64_t held_tag(uint64_t *seed, const reference *ref, unsigned row)
{
    unsigned bank = tb_below(seed, ref->geometry->banks);
    return ref->slots[(size_t)row * ref->geometry->banks + bank].tag;
}

/* The tag another row of row's group holds in bank: a logical line of
 * several physical lines is filled into consecutive rows of one bank with
 * one tag, so a group's rows often hold the same tag. */
static uint64_t neighbour_tag(uint64_t *seed, const reference *ref, unsigned row, unsigned bank)
{
    unsigned first = row & ~(unsigned)(SNOOP_GROUP_LINES - 1);
    unsigned neighbour = first + tb_below(seed, SNOOP_GROUP_LINES);
    return ref->slots[(size_t)neighbour * ref->geometry->banks + bank].tag;
}

/* The lowest bank of a nonzero bank mask. */
static unsigned lowest_bank(unsigned banks)
{
    unsigned bank = 0;
    while (!(banks >> bank & 1u)) {
        bank++;
    }
    return bank;
}

/* The snoop of one cycle: a base line of a hot row (often the row written
 * in the same cycle) and of a hot tag or one the row holds, and a bus code
 * for each position picked (mostly a transaction, sometimes any code, 0
 * among them). The codes are drawn whether snp_valid is set or not: a port
 * must ignore them if not. */
static void pick_snoop(uint64_t *seed, const reference *ref, const unsigned *hot_rows,
                       const uint64_t *hot_tags, cycle_in *in)
{
    const stc_geometry *g = ref->geometry;
    in->snp_valid = tb_below(seed, 10) < 7;
    unsigned base_row = in->wr_valid && tb_below(seed, 10) < 4 ? in->wr_row
                                                               : pick_row(seed, g, hot_rows);
    uint64_t tag = tb_below(seed, 2) ? held_tag(seed, ref, base_row) : pick_tag(seed, g, hot_tags);
    in->snp_line = tag << g->row_bits | base_row;
    unsigned positions = pick_positions(seed, base_row % SNOOP_GROUP_LINES);
    for (unsigned position = 0; position < SNOOP_GROUP_LINES; position++) {
        unsigned code = tb_below(seed, 10) < 9 ? 1 + tb_below(seed, 4) : tb_below(seed, 8);
        in->snp_bus[position] = positions >> position & 1u ? code : 0;
    }
}

/* The hot rows: every row of HOT_GROUPS different aligned groups, so that
 * one snoop finds several of its lines held, changes several, and meets
 * the write of one of them. */
static void pick_hot_rows(uint64_t *seed, const stc_geometry *g, unsigned *hot_rows)
{
    const unsigned groups = g->rows / SNOOP_GROUP_LINES;
    unsigned first_group = tb_below(seed, groups);
    for (unsigned hot = 0; hot < HOT_GROUPS; hot++) {
        /* groups apart, each different if there are enough */
        unsigned group = (first_group + hot * (groups / HOT_GROUPS)) % groups;
        for (unsigned position = 0; position < SNOOP_GROUP_LINES; position++) {
            hot_rows[hot * SNOOP_GROUP_LINES + position] = group * SNOOP_GROUP_LINES + position;
        }
    }
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
    for (unsigned i = 0; i < 4; i++) {
        tb_next_random(&seed); /* the first draws hardly depend on the seed's top bits */
    }
    uint64_t tag_mask = g->tag_bits >= 64 ? ~0ull : (1ull << g->tag_bits) - 1;
    unsigned hot_rows[HOT_ROWS];
    uint64_t hot_tags[HOT_TAGS];
    pick_hot_rows(&seed, g, hot_rows);
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
        in.wr_tag = in.wr_banks != 0 && tb_below(&seed, 10) < 4
                        ? neighbour_tag(&seed, ref, in.wr_row, lowest_bank(in.wr_banks))
                        : pick_tag(&seed, g, hot_tags);
        pick_snoop(&seed, ref, hot_rows, hot_tags, &in);
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
    if (geometry.rows < SNOOP_GROUP_LINES) {
        /* the port's array is a word per group of 4 rows */
        fprintf(stderr, "stcsnooptb: -g %s: %u rows, the snoop port needs %u or more\n",
                geometry_list ? geometry_list : "", geometry.rows, SNOOP_GROUP_LINES);
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
           "slot-writes %lu reconfigs %lu snoop-over-write %lu multi-line-changes %lu\n",
           cov.hits, cov.forwarded_hits, cov.multi, cov.changes, cov.unknown_rows, rows_reached,
           rows_total, cov.slot_writes, cov.reconfigs, cov.snoop_over_write,
           cov.multi_line_changes);
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
