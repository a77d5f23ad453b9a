/*
 * energy.c - the energy table (default model, file format) and the energy
 * of a run (energy.h). docs/ENERGY.md derives every constant below; the
 * names here match the names there.
 */
#include "energy.h"
#include "timing.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------
 * The default model: an embedded 0.18 um system at 1.8 V, 200 MHz.
 * All capacitances in fF; C[fF] x V^2 x 1e-6 = energy in nJ.
 * ------------------------------------------------------------------------ */

/* Process and clock (assumptions, docs/ENERGY.md 3.1). */
#define VDD_V 1.8            /* core and SRAM supply */
#define CYCLE_NS 5.0         /* 200 MHz */
#define FF_V2_TO_NJ 1e-6     /* 1 fF x 1 V^2 = 1e-15 J = 1e-6 nJ */

/* SRAM bank (first-order array model, docs/ENERGY.md 3.2). */
#define CELL_AREA_UM2 4.5         /* 6T cell, 0.18 um logic process */
#define PERIPHERY_FACTOR 1.3      /* bank area and rail capacitance / cell array */
#define C_BITLINE_PER_CELL_FF 2.0 /* access-transistor drain + bitline wire, per row */
#define C_BITLINE_FIXED_FF 20.0   /* precharge, column devices, sense-amp input */
#define READ_SWING_V 0.5          /* bitline swing of a read before precharge restores it */
#define C_WORDLINE_PER_CELL_FF 2.5 /* two access-transistor gates + wire, per column */
#define C_SENSE_AMP_FF 45.0       /* switched capacitance of one latch sense amplifier */
#define C_DECODE_PER_BIT_FF 100.0 /* predecoder input and local wire, per address bit */
#define C_DECODE_PER_ROW_FF 1.0   /* predecoded line load, per row, per address bit */
#define C_COMPARE_PER_BIT_FF 20.0 /* XOR + match-line share, per tag bit */
#define C_WIRE_FF_PER_UM 0.2      /* intermediate metal, with coupling */
#define C_MUX_INPUT_FF 10.0       /* way-select mux input, per output bit */
#define DATA_ACTIVITY 0.5         /* toggles per data or address bit per transfer */
#define BUS_ACTIVITY 0.25         /* toggles per wire per access on the bank bus */
#define WORD_BITS 32              /* CPU word and memory beat */
#define C_RAIL_PER_CELL_FF 3.0    /* virtual-VDD capacitance per cell (junctions, wells) */

/* Leakage (docs/ENERGY.md 3.3). */
#define LEAK_PER_CELL_NA 1.0      /* 6T cell at operating temperature */
#define LEAK_PER_STATE_BIT_NA 3.0 /* always-on latch or flip-flop */
#define LEAK_CONTROL_UA 3.0       /* controller, counters and tuner logic (~6000 gates) */

/* Off-chip memory: one x32 SDR SDRAM, Micron MT48LC4M32B2 -6A (die rev. L)
 * data sheet figures (docs/ENERGY.md 3.4). */
#define MEM_VDD_V 3.3
#define MEM_IDD1_MA 120.0 /* operating, active-read-precharge at tRC(min), burst 2 */
#define MEM_IDD3_MA 45.0  /* active standby, no access in progress */
#define MEM_IDD4_MA 120.0 /* continuous burst read or write */
#define MEM_TRC_NS 60.0
#define MEM_TCK_NS 6.0
#define MEM_IDD1_BURST 2 /* beats inside the IDD1 measurement */
#define C_PIN_PF 12.0    /* per board line: two pins and a short trace (assumption) */
#define MEM_CMD_LINES 20 /* address, bank and command lines */
#define MEM_COMMANDS 2   /* ACTIVE, then READ/WRITE with auto-precharge */

/* Processor (assumption, docs/ENERGY.md 3.5). */
#define CORE_MW_PER_MHZ 0.5 /* active 32-bit MIPS-class core, 0.18 um */
#define STALL_FRACTION 0.5  /* stalled: clock tree and pipeline latches still clocked */

/* The shared snooping bus of the coherent model (docs/ENERGY.md 3.9;
 * assumptions): one 32-bit data and addr_bits-bit address bus spanning the
 * cores, BUS_LENGTH_UM of intermediate metal per wire, plus command lines. */
#define BUS_LENGTH_UM 4000.0
#define BUS_COMMAND_LINES 4

/* Model limits: one array per bank, no sub-array division. */
#define MAX_ROWS 1024
#define MAX_LINE_BYTES 256

/* Energy in nJ of switching capacitance c_ff (fF) through swing_v from a
 * supply of vdd_v, `count` times with probability `activity`. */
static double switched_nj(double count, double activity, double c_ff, double vdd_v,
                          double swing_v)
{
    return count * activity * c_ff * vdd_v * swing_v * FF_V2_TO_NJ;
}

static double log2_exact(unsigned value)
{
    return (double)stc_log2(value);
}

/* The quantities the table is built from, for one geometry. */
typedef struct {
    double bank_probe_nj;   /* one bank: tag + line read, tag compared, word out */
    double route_per_bank_nj; /* address/data bus across one powered bank */
    double fill_line_nj;    /* write one physical line into a bank, data in from the memory port */
    double line_out_nj;     /* read one physical line and send it to the memory port */
    double tag_row_nj;      /* read one row of one bank's tag array */
    double tag_compare_nj;  /* compare one bank's tag with an address */
    double bank_leak_nj;    /* leakage of one powered bank per cycle */
    double always_on_nj;    /* always-on state and logic leakage per cycle */
    double burst_fixed_nj;  /* SDRAM row activate/precharge and command lines, per burst */
    double beat_nj;         /* SDRAM core and data lines, per 4-byte beat */
    double stall_nj;        /* processor stalled, per cycle */
    double rail_nj;         /* charging one bank's virtual supply rail */
} model;

static void model_of(const stc_geometry *g, model *m)
{
    const double v2 = VDD_V * VDD_V;
    const double rows = g->rows;
    const double data_cols = 8.0 * g->line_bytes;
    const double tag_cols = g->tag_bits; /* valid/dirty/recency live in always-on state */
    const double cols = data_cols + tag_cols;
    const double cells = rows * cols;

    /* Geometry of the floorplan: banks are squares of their area. */
    const double pitch_um = sqrt(cells * CELL_AREA_UM2 * PERIPHERY_FACTOR);
    const double c_bitline = rows * C_BITLINE_PER_CELL_FF + C_BITLINE_FIXED_FF;
    const double c_bank_wire = pitch_um * C_WIRE_FF_PER_UM;

    /* Pieces of one bank access. */
    const double bitlines_read = switched_nj(cols, 1.0, c_bitline, VDD_V, READ_SWING_V);
    const double bitlines_write = switched_nj(cols, 1.0, c_bitline, VDD_V, VDD_V);
    const double wordline = switched_nj(1.0, 1.0, cols * C_WORDLINE_PER_CELL_FF, VDD_V, VDD_V);
    const double sense = switched_nj(cols, 1.0, C_SENSE_AMP_FF, VDD_V, VDD_V);
    const double decode = switched_nj(log2_exact(g->rows), DATA_ACTIVITY,
                                      C_DECODE_PER_BIT_FF + rows * C_DECODE_PER_ROW_FF, VDD_V,
                                      VDD_V);
    const double compare = switched_nj(tag_cols, DATA_ACTIVITY, C_COMPARE_PER_BIT_FF, VDD_V, VDD_V);
    const double word_out =
        switched_nj(WORD_BITS, DATA_ACTIVITY, c_bank_wire + C_MUX_INPUT_FF, VDD_V, VDD_V);
    /* A line moves between a bank and the memory port over a WORD_BITS-wide
     * bus whose average length is half the row of B banks. */
    const double beats_per_line = g->beats_per_line;
    const double line_port = switched_nj(beats_per_line * WORD_BITS, DATA_ACTIVITY,
                                         c_bank_wire * g->banks / 2.0, VDD_V, VDD_V);
    const double tag_sense = switched_nj(tag_cols, 1.0, C_SENSE_AMP_FF, VDD_V, VDD_V);
    const double tag_bitlines = switched_nj(tag_cols, 1.0, c_bitline, VDD_V, READ_SWING_V);
    const double tag_wordline =
        switched_nj(1.0, 1.0, tag_cols * C_WORDLINE_PER_CELL_FF, VDD_V, VDD_V);

    m->bank_probe_nj = bitlines_read + wordline + sense + decode + compare + word_out;
    m->route_per_bank_nj =
        switched_nj((double)g->addr_bits + WORD_BITS, BUS_ACTIVITY, c_bank_wire, VDD_V, VDD_V);
    m->fill_line_nj = bitlines_write + wordline + decode + line_port;
    m->line_out_nj = bitlines_read + wordline + sense + decode + line_port;
    m->tag_row_nj = tag_bitlines + tag_wordline + tag_sense + decode;
    m->tag_compare_nj = compare;

    /* Leakage: current x VDD x cycle time; nA x V x ns = 1e-18 J = 1e-9 nJ. */
    const double bank_leak_na = cells * LEAK_PER_CELL_NA * PERIPHERY_FACTOR;
    const double state_bits =
        rows * (2.0 * g->banks + (double)g->banks * (g->banks - 1) / 2.0);
    const double always_on_na = state_bits * LEAK_PER_STATE_BIT_NA + LEAK_CONTROL_UA * 1000.0;
    m->bank_leak_nj = bank_leak_na * VDD_V * CYCLE_NS * 1e-9;
    m->always_on_nj = always_on_na * VDD_V * CYCLE_NS * 1e-9;

    /* SDRAM: mA x V x ns = 1e-12 J = 1e-3 nJ. Pin energy: a 0->1 transition
     * draws C V^2 from the supply, so C V^2 / 2 per toggle on average;
     * pF x V^2 = 1e-3 nJ. */
    const double pin_toggle_nj = C_PIN_PF * MEM_VDD_V * MEM_VDD_V / 2.0 * 1e-3;
    const double beat_core = (MEM_IDD4_MA - MEM_IDD3_MA) * MEM_VDD_V * MEM_TCK_NS * 1e-3;
    const double row_core =
        (MEM_IDD1_MA - MEM_IDD3_MA) * MEM_VDD_V * MEM_TRC_NS * 1e-3 - MEM_IDD1_BURST * beat_core;
    m->burst_fixed_nj = row_core + MEM_COMMANDS * MEM_CMD_LINES * DATA_ACTIVITY * pin_toggle_nj;
    m->beat_nj = beat_core + WORD_BITS * DATA_ACTIVITY * pin_toggle_nj;

    /* Core: 1 mW/MHz = 1 nJ per cycle. */
    m->stall_nj = CORE_MW_PER_MHZ * STALL_FRACTION;

    m->rail_nj = cells * PERIPHERY_FACTOR * C_RAIL_PER_CELL_FF * v2 * FF_V2_TO_NJ;
}

/* The model's numbers are good to a few per cent at best: keep 4
 * significant digits, which also keeps the table file readable. */
static double round_4_digits(double v)
{
    char text[32];
    snprintf(text, sizeof text, "%.4g", v);
    return strtod(text, NULL);
}

/* Energy of one memory burst of `beats` 4-byte beats. */
static double burst_nj(const model *m, unsigned beats)
{
    return m->burst_fixed_nj + beats * m->beat_nj;
}

int stc_energy_default(const stc_geometry *geometry, stc_energy_table *table, char *err,
                       size_t err_len)
{
    stc_geometry g = *geometry;
    char why[200];
    if (stc_geometry_init(&g, why, sizeof why) != 0) {
        snprintf(err, err_len, "geometry: %s", why);
        return -1;
    }
    if (g.rows > MAX_ROWS) {
        snprintf(err, err_len,
                 "energy model: a bank of %u rows (bank_bytes/line_bytes) is beyond the default "
                 "model's one-array banks (at most %d rows); give a table with --energy",
                 g.rows, MAX_ROWS);
        return -1;
    }
    if (g.line_bytes > MAX_LINE_BYTES) {
        snprintf(err, err_len,
                 "energy model: line_bytes=%u is beyond the default model's one-array banks (at "
                 "most %d); give a table with --energy",
                 g.line_bytes, MAX_LINE_BYTES);
        return -1;
    }

    model m;
    model_of(&g, &m);

    stc_energy_table t;
    memset(&t, 0, sizeof t);
    t.geometry = g;
    for (unsigned k = 1, ki = 0; k <= g.banks; k *= 2, ki++) {
        for (unsigned a = 1, ai = 0; a <= k; a *= 2, ai++) {
            t.hit_nj[ki][ai] = a * m.bank_probe_nj + k * m.route_per_bank_nj;
        }
        t.static_nj_per_cycle[ki] = k * m.bank_leak_nj + m.always_on_nj;
    }
    for (unsigned li = 0, n = 1; li < STC_LINE_SIZES; li++, n *= 2) {
        unsigned beats = n * g.beats_per_line;
        /* The stall covers the controller's own miss cycles too (a whole
         * logical line missing: one burst, docs/ARCHITECTURE.md section 10). */
        t.miss_nj[li] = burst_nj(&m, beats) + (double)stc_line_miss_cycles(&g, n) * m.stall_nj +
                        n * m.fill_line_nj;
    }
    t.writeback_nj = m.line_out_nj + burst_nj(&m, g.beats_per_line) +
                     (double)stc_writeback_cycles(&g) * m.stall_nj;
    t.walk_row_nj = g.banks * m.tag_row_nj + m.stall_nj;
    t.wake_nj = m.rail_nj + g.wake_cycles * m.stall_nj;
    t.stall_nj_per_cycle = m.stall_nj;
    for (unsigned ki = 0; ki < STC_MAX_SIZES; ki++) {
        for (unsigned ai = 0; ai < STC_MAX_SIZES; ai++) {
            t.hit_nj[ki][ai] = round_4_digits(t.hit_nj[ki][ai]);
        }
        t.static_nj_per_cycle[ki] = round_4_digits(t.static_nj_per_cycle[ki]);
    }
    for (unsigned li = 0; li < STC_LINE_SIZES; li++) {
        t.miss_nj[li] = round_4_digits(t.miss_nj[li]);
    }
    t.writeback_nj = round_4_digits(t.writeback_nj);
    t.walk_row_nj = round_4_digits(t.walk_row_nj);
    t.wake_nj = round_4_digits(t.wake_nj);
    t.stall_nj_per_cycle = round_4_digits(t.stall_nj_per_cycle);
    snprintf(t.source, sizeof t.source, "default");
    *table = t;
    return 0;
}

int stc_energy_coherence_default(unsigned size_bytes, unsigned ways, unsigned line_bytes,
                                 unsigned addr_bits, stc_coherence_energy *terms, char *err,
                                 size_t err_len)
{
    stc_geometry g;
    stc_geometry_default(&g);
    g.banks = ways;
    g.bank_bytes = ways ? size_bytes / ways : 0;
    g.line_bytes = line_bytes;
    g.addr_bits = addr_bits;
    char why[200];
    if (ways == 0 || size_bytes % ways != 0 || stc_geometry_init(&g, why, sizeof why) != 0) {
        snprintf(err, err_len, "energy model: %u B %u-way %u B lines is no stc geometry (%s)",
                 size_bytes, ways, line_bytes,
                 ways == 0 || size_bytes % ways ? "size not a multiple of the ways" : why);
        return -1;
    }
    if (g.rows > MAX_ROWS) {
        snprintf(err, err_len, "energy model: %u lines per way, beyond the default model's %d",
                 g.rows, MAX_ROWS);
        return -1;
    }
    model m;
    model_of(&g, &m);
    const double bus_wire_ff = BUS_LENGTH_UM * C_WIRE_FF_PER_UM;
    const double bus_data_nj =
        switched_nj((double)g.beats_per_line * WORD_BITS, DATA_ACTIVITY, bus_wire_ff, VDD_V, VDD_V);
    terms->access_nj = ways * m.bank_probe_nj + ways * m.route_per_bank_nj;
    terms->snoop_lookup_nj = ways * (m.tag_row_nj + m.tag_compare_nj) + ways * m.route_per_bank_nj;
    terms->memory_read_nj = burst_nj(&m, g.beats_per_line) + m.fill_line_nj;
    terms->c2c_nj = m.line_out_nj + bus_data_nj + m.fill_line_nj;
    terms->memory_write_nj = m.line_out_nj + burst_nj(&m, g.beats_per_line);
    terms->bus_address_nj = switched_nj((double)addr_bits + BUS_COMMAND_LINES, DATA_ACTIVITY,
                                        bus_wire_ff, VDD_V, VDD_V);
    terms->line_fill_nj = m.fill_line_nj;
    terms->line_read_nj = m.line_out_nj;
    return 0;
}

int stc_energy_walk_move_default(const stc_geometry *geometry, double *move_nj,
                                 double *row_end_nj, char *err, size_t err_len)
{
    /* stc_energy_default's checks: the same geometries are priced. */
    stc_energy_table table;
    if (stc_energy_default(geometry, &table, err, err_len) != 0) {
        return -1;
    }
    model m;
    model_of(&table.geometry, &m);
    *move_nj = round_4_digits(m.line_out_nj + m.fill_line_nj + m.stall_nj);
    *row_end_nj = round_4_digits(m.stall_nj);
    return 0;
}

int stc_energy_tag_probe_default(const stc_geometry *geometry, stc_tag_probe_energy *probe,
                                 char *err, size_t err_len)
{
    /* stc_energy_default's checks: the same geometries are priced. */
    stc_energy_table table;
    if (stc_energy_default(geometry, &table, err, err_len) != 0)
        return -1;
    model m;
    model_of(&table.geometry, &m);
    /* The sum as stc_energy_coherence_default forms it, so the two agree to
     * the bit where the geometries are the same. */
    probe->bank_tag_probe_nj = m.tag_row_nj + m.tag_compare_nj;
    probe->route_per_bank_nj = m.route_per_bank_nj;
    return 0;
}

/* ------------------------------------------------------------------------
 * Entry names and the list of entries a geometry needs.
 * ------------------------------------------------------------------------ */

enum { ENTRY_HIT, ENTRY_MISS, ENTRY_STATIC, ENTRY_WRITEBACK, ENTRY_WALK_ROW, ENTRY_WAKE, ENTRY_STALL };

static const char *const entry_keys[] = {"hit",      "miss", "static", "writeback",
                                          "walk_row", "wake", "stall"};

enum { MAX_ENTRIES = STC_MAX_SIZES * (STC_MAX_SIZES + 1) / 2 + STC_LINE_SIZES + STC_MAX_SIZES + 4,
       NAME_MAX_LEN = 48 };

typedef struct {
    int kind;
    char name[NAME_MAX_LEN]; /* "" for the single entries */
    double *slot;
    unsigned line; /* where it was loaded; 0 = not yet */
} entry;

static void size_name(const stc_geometry *g, unsigned banks_on, char *buf, size_t len)
{
    unsigned long bytes = (unsigned long)banks_on * g->bank_bytes;
    if (bytes % 1024 == 0) {
        snprintf(buf, len, "%luK", bytes / 1024);
    } else {
        snprintf(buf, len, "%luB", bytes);
    }
}

/* The entries of `table` in file order; returns how many. */
static size_t entries_of(stc_energy_table *table, entry *out)
{
    const stc_geometry *g = &table->geometry;
    size_t n = 0;
    char size[24];
    for (unsigned k = 1, ki = 0; k <= g->banks; k *= 2, ki++) {
        size_name(g, k, size, sizeof size);
        for (unsigned a = 1, ai = 0; a <= k; a *= 2, ai++) {
            out[n].kind = ENTRY_HIT;
            snprintf(out[n].name, sizeof out[n].name, "%s_%uW", size, a);
            out[n].slot = &table->hit_nj[ki][ai];
            out[n++].line = 0;
        }
    }
    for (unsigned li = 0, sub = 1; li < STC_LINE_SIZES; li++, sub *= 2) {
        out[n].kind = ENTRY_MISS;
        snprintf(out[n].name, sizeof out[n].name, "%uB", sub * g->line_bytes);
        out[n].slot = &table->miss_nj[li];
        out[n++].line = 0;
    }
    for (unsigned k = 1, ki = 0; k <= g->banks; k *= 2, ki++) {
        out[n].kind = ENTRY_STATIC;
        size_name(g, k, out[n].name, sizeof out[n].name);
        out[n].slot = &table->static_nj_per_cycle[ki];
        out[n++].line = 0;
    }
    double *singles[] = {&table->writeback_nj, &table->walk_row_nj, &table->wake_nj,
                         &table->stall_nj_per_cycle};
    for (int s = 0; s < 4; s++) {
        out[n].kind = ENTRY_WRITEBACK + s;
        out[n].name[0] = '\0';
        out[n].slot = singles[s];
        out[n++].line = 0;
    }
    return n;
}

static const char *unit_of(int kind)
{
    return kind == ENTRY_STATIC || kind == ENTRY_STALL ? "nJ/cycle" : "nJ";
}

/* Shortest decimal that reads back as exactly v. */
static void format_double(double v, char *buf, size_t len)
{
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, v);
        if (strtod(buf, NULL) == v) {
            return;
        }
    }
}

/* ------------------------------------------------------------------------
 * Writing.
 * ------------------------------------------------------------------------ */

static void print_source(FILE *out, const char *source)
{
    fputs("# source: ", out);
    for (const char *c = source; *c; c++) {
        fputc((unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c, out);
    }
    fputc('\n', out);
}

int stc_energy_write(const stc_energy_table *table, FILE *out)
{
    stc_energy_table copy = *table; /* entries_of wants slots; we only read them */
    entry entries[MAX_ENTRIES];
    size_t count = entries_of(&copy, entries);
    const stc_geometry *g = &copy.geometry;

    fputs("# stc energy table (format: docs/ENERGY.md). Energies in nJ, static energy in nJ\n"
          "# per cycle.\n",
          out);
    print_source(out, copy.source);
    if (strcmp(copy.source, "default") == 0) {
        fputs("# The default table: a first-order model of an embedded 0.18 um system at 1.8 V,\n"
              "# 200 MHz (SRAM banks from assumed capacitances, off-chip memory from the IDD\n"
              "# figures of a Micron MT48LC4M32B2 SDRAM data sheet, processor stall power\n"
              "# assumed), scaled to this geometry. docs/ENERGY.md derives every number.\n"
              "# These are estimates, not the seed paper's constants (which are not public).\n"
              "# Generated by the code: build/gcc/test_energy --write-default FILE.\n",
              out);
    }
    fputs("stc-energy-table 1\n", out);
    fprintf(out, "geometry banks=%u bank_bytes=%u line_bytes=%u addr_bits=%u mem_latency=%u "
                 "wake_cycles=%u\n",
            g->banks, g->bank_bytes, g->line_bytes, g->addr_bits, g->mem_latency,
            g->wake_cycles);
    int last_kind = -1;
    for (size_t i = 0; i < count; i++) {
        const entry *e = &entries[i];
        if (e->kind != last_kind) {
            static const char *const heads[] = {
                "# hit SIZE_aW: one access (or the probing of a miss) reading a banks, with\n"
                "# SIZE / bank_bytes banks powered",
                "# miss LINE: off-chip burst + processor stall + block fill, per miss of a\n"
                "# logical line of LINE bytes",
                "# static SIZE: leakage of the powered banks + always-on logic, per cycle",
                "# writeback: one dirty physical line read, written to memory, processor stalled",
                "# walk_row: one row of a reconfiguration walk (tags of all banks, one stall\n"
                "# cycle)",
                "# wake: powering up one bank (its supply rail, stall during wake_cycles)",
                "# stall: the processor waiting one cycle (charged for way prediction's\n"
                "# second probe cycle; miss, writeback, walk and wake entries include their own)",
            };
            fprintf(out, "%s\n", heads[e->kind]);
            last_kind = e->kind;
        }
        char value[40];
        format_double(*e->slot, value, sizeof value);
        if (e->name[0]) {
            fprintf(out, "%s %s %s %s\n", entry_keys[e->kind], e->name, value, unit_of(e->kind));
        } else {
            fprintf(out, "%s %s %s\n", entry_keys[e->kind], value, unit_of(e->kind));
        }
    }
    return ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------------------
 * Loading.
 * ------------------------------------------------------------------------ */

enum { LINE_MAX_LEN = 4096, MAX_TOKENS = 16 };

/* Split line (modified in place) at blanks, after cutting any '#' comment.
 * Returns the token count, or -1 if there are more than MAX_TOKENS. */
static int tokenize(char *line, char **tokens)
{
    char *hash = strchr(line, '#');
    if (hash) {
        *hash = '\0';
    }
    int n = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' || *p == '\v' || *p == '\f') {
            p++;
        }
        if (!*p) {
            return n;
        }
        if (n == MAX_TOKENS) {
            return -1;
        }
        tokens[n++] = p;
        while (*p && !(*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' || *p == '\v' ||
                       *p == '\f')) {
            p++;
        }
        if (*p) {
            *p++ = '\0';
        }
    }
}

/* A plain decimal number: digits, one point, an optional exponent. */
static int parse_number(const char *text, double *value)
{
    const char *p = text;
    if (*p == '+' || *p == '-') {
        p++;
    }
    int digits = 0;
    while (*p >= '0' && *p <= '9') {
        p++, digits++;
    }
    if (*p == '.') {
        p++;
        while (*p >= '0' && *p <= '9') {
            p++, digits++;
        }
    }
    if (!digits) {
        return -1;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') {
            p++;
        }
        if (!(*p >= '0' && *p <= '9')) {
            return -1;
        }
        while (*p >= '0' && *p <= '9') {
            p++;
        }
    }
    if (*p) {
        return -1;
    }
    errno = 0;
    char *end = NULL;
    double v = strtod(text, &end);
    if (*end || !isfinite(v) || (errno == ERANGE && fabs(v) > 1.0)) {
        return -1;
    }
    *value = v;
    return 0;
}

/* Check the geometry line's assignments against the cache's geometry. */
static int check_geometry_line(const stc_geometry *want, char **tokens, int count,
                               const char *path, unsigned lineno, char *err, size_t err_len)
{
    static const char *const names[] = {"banks",     "bank_bytes",  "line_bytes",
                                        "addr_bits", "mem_latency", "wake_cycles"};
    const unsigned wanted[] = {want->banks,     want->bank_bytes,  want->line_bytes,
                               want->addr_bits, want->mem_latency, want->wake_cycles};
    stc_geometry got;
    memset(&got, 0, sizeof got);
    unsigned seen = 0;
    for (int t = 1; t < count; t++) {
        char why[200];
        if (stc_geometry_set(&got, tokens[t], why, sizeof why) != 0) {
            snprintf(err, err_len, "%s:%u: %s", path, lineno, why);
            return -1;
        }
        size_t name_len = strcspn(tokens[t], "=");
        for (unsigned f = 0; f < 6; f++) {
            if (strlen(names[f]) == name_len && strncmp(names[f], tokens[t], name_len) == 0) {
                if (seen & (1u << f)) {
                    snprintf(err, err_len, "%s:%u: geometry names %s twice", path, lineno,
                             names[f]);
                    return -1;
                }
                seen |= 1u << f;
            }
        }
    }
    const unsigned values[] = {got.banks,     got.bank_bytes,  got.line_bytes,
                               got.addr_bits, got.mem_latency, got.wake_cycles};
    for (unsigned f = 0; f < 6; f++) {
        if (!(seen & (1u << f))) {
            snprintf(err, err_len, "%s:%u: geometry line lacks %s=", path, lineno, names[f]);
            return -1;
        }
    }
    for (unsigned f = 0; f < 6; f++) {
        if (values[f] != wanted[f]) {
            snprintf(err, err_len,
                     "%s:%u: the table is for %s=%u, but the cache has %s=%u (a table holds for "
                     "one geometry)",
                     path, lineno, names[f], values[f], names[f], wanted[f]);
            return -1;
        }
    }
    return 0;
}

static int kind_of(const char *key)
{
    for (int k = 0; k < (int)(sizeof entry_keys / sizeof entry_keys[0]); k++) {
        if (strcmp(key, entry_keys[k]) == 0) {
            return k;
        }
    }
    return -1;
}

/* A table file being read: where, what has been read so far, and where an
 * error goes. */
typedef struct {
    const char *path;
    unsigned lineno;
    enum { WANT_HEADER, WANT_GEOMETRY, ENTRIES } state;
    unsigned header_line, geometry_line; /* where they were, for a second one's message */
    entry entries[MAX_ENTRIES];          /* each notes the line that gave its value */
    size_t entry_count;
    char *err;
    size_t err_len;
} table_reader;

/* err = "PATH:LINE: MESSAGE", as one snprintf of the whole would cut it.
 * Returns -1. */
static int line_error(table_reader *reader, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int line_error(table_reader *reader, const char *fmt, ...)
{
    int used = snprintf(reader->err, reader->err_len, "%s:%u: ", reader->path, reader->lineno);
    if (used >= 0 && (size_t)used < reader->err_len) {
        va_list args;
        va_start(args, fmt);
        vsnprintf(reader->err + used, reader->err_len - (size_t)used, fmt, args);
        va_end(args);
    }
    return -1;
}

/* "stc-energy-table 1": once, first. */
static int read_header(table_reader *reader, char **tokens, int count)
{
    if (reader->state != WANT_HEADER) {
        return line_error(reader, "second header line (the first is line %u)",
                          reader->header_line);
    }
    if (count != 2 || strcmp(tokens[1], "1") != 0) {
        return line_error(reader,
                          "unsupported header (this program reads 'stc-energy-table 1')");
    }
    reader->header_line = reader->lineno;
    reader->state = WANT_GEOMETRY;
    return 0;
}

/* "geometry banks=... ...": once, after the header, the cache's geometry. */
static int read_geometry(table_reader *reader, const stc_geometry *geometry, char **tokens,
                         int count)
{
    if (reader->state != WANT_GEOMETRY) {
        return line_error(reader, "second geometry line (the first is line %u)",
                          reader->geometry_line);
    }
    if (check_geometry_line(geometry, tokens, count, reader->path, reader->lineno, reader->err,
                            reader->err_len) != 0) {
        return -1;
    }
    reader->geometry_line = reader->lineno;
    reader->state = ENTRIES;
    return 0;
}

/* The entry of this kind and name among those the geometry needs; NULL
 * after the message when it needs none. */
static entry *find_entry(table_reader *reader, int kind, const char *key, const char *name)
{
    for (size_t i = 0; i < reader->entry_count; i++) {
        if (reader->entries[i].kind == kind && strcmp(reader->entries[i].name, name) == 0) {
            return &reader->entries[i];
        }
    }
    const char *what = kind == ENTRY_HIT    ? "a (size, ways) of"
                       : kind == ENTRY_MISS ? "a logical line size of"
                                            : "a size of";
    line_error(reader, "%s %.40s is not %s this geometry", key, name, what);
    return NULL;
}

/* An entry line's value and unit: a non-negative decimal number in the
 * entry kind's unit. */
static int parse_entry_value(table_reader *reader, int kind, const char *label,
                             const char *value_text, const char *unit, double *value)
{
    if (parse_number(value_text, value) != 0) {
        return line_error(reader, "%s: '%.40s' is not a decimal number", label, value_text);
    }
    if (*value < 0) {
        return line_error(reader, "%s: negative energy %.40s", label, value_text);
    }
    if (strcmp(unit, unit_of(kind)) != 0) {
        return line_error(reader, "%s: unit '%.20s', expected '%s'", label, unit, unit_of(kind));
    }
    return 0;
}

/* "KIND [NAME] VALUE UNIT": one entry, after the geometry line, once. */
static int read_entry(table_reader *reader, int kind, char **tokens, int count)
{
    const char *key = tokens[0];
    if (reader->state == WANT_GEOMETRY) {
        return line_error(reader, "expected the 'geometry ...' line before the entries");
    }
    bool named = kind == ENTRY_HIT || kind == ENTRY_MISS || kind == ENTRY_STATIC;
    if (count != (named ? 4 : 3)) {
        const char *form = kind == ENTRY_HIT      ? "hit SIZE_aW VALUE nJ"
                           : kind == ENTRY_MISS   ? "miss LINE VALUE nJ"
                           : kind == ENTRY_STATIC ? "static SIZE VALUE nJ/cycle"
                                                  : NULL;
        if (form) {
            return line_error(reader, "expected '%s'", form);
        }
        return line_error(reader, "expected '%s VALUE nJ'", key);
    }
    const char *name = named ? tokens[1] : "";
    entry *e = find_entry(reader, kind, key, name);
    if (!e) {
        return -1;
    }
    char label[NAME_MAX_LEN + 16];
    snprintf(label, sizeof label, "%s%s%s", key, named ? " " : "", name);
    if (e->line) {
        return line_error(reader, "duplicate entry %s (first at line %u)", label, e->line);
    }
    double value = 0.0;
    if (parse_entry_value(reader, kind, label, tokens[named ? 2 : 1], tokens[named ? 3 : 2],
                          &value) != 0) {
        return -1;
    }
    *e->slot = value;
    e->line = reader->lineno;
    return 0;
}

/* One line of the file (a comment or blank line is nothing). */
static int read_line(table_reader *reader, const stc_geometry *geometry, char *line)
{
    char *tokens[MAX_TOKENS];
    int count = tokenize(line, tokens);
    if (count == 0) {
        return 0;
    }
    if (count < 0) {
        return line_error(reader, "too many fields (at most %d)", MAX_TOKENS);
    }
    const char *key = tokens[0];
    if (strcmp(key, "stc-energy-table") == 0) {
        return read_header(reader, tokens, count);
    }
    if (reader->state == WANT_HEADER) {
        return line_error(reader, "expected the header 'stc-energy-table 1' first");
    }
    if (strcmp(key, "geometry") == 0) {
        return read_geometry(reader, geometry, tokens, count);
    }
    int kind = kind_of(key);
    if (kind < 0) {
        return line_error(reader,
                          "unknown entry '%.40s' (entries: hit, miss, static, writeback, "
                          "walk_row, wake, stall)",
                          key);
    }
    return read_entry(reader, kind, tokens, count);
}

/* At the end of the file: the header, the geometry and every entry the
 * geometry needs were there. */
static int check_complete(const table_reader *reader)
{
    const char *path = reader->path;
    if (reader->state == WANT_HEADER) {
        snprintf(reader->err, reader->err_len, "%s: no header 'stc-energy-table 1' (empty table)",
                 path);
        return -1;
    }
    if (reader->state == WANT_GEOMETRY) {
        snprintf(reader->err, reader->err_len, "%s: missing the 'geometry ...' line", path);
        return -1;
    }
    size_t missing = 0;
    const entry *first = NULL;
    for (size_t i = 0; i < reader->entry_count; i++) {
        if (!reader->entries[i].line) {
            if (!first) {
                first = &reader->entries[i];
            }
            missing++;
        }
    }
    if (missing) {
        char more[48] = "";
        if (missing > 1) {
            snprintf(more, sizeof more, " (and %zu more)", missing - 1);
        }
        snprintf(reader->err, reader->err_len, "%s: missing entry %s%s%s%s", path,
                 entry_keys[first->kind], first->name[0] ? " " : "", first->name, more);
        return -1;
    }
    return 0;
}

/* The body of stc_energy_load once the file is open: fills t's entries
 * (t->geometry says which it has). */
static int load_stream(FILE *in, const char *path, stc_energy_table *t, char *err, size_t err_len)
{
    table_reader reader = {.path = path, .state = WANT_HEADER, .err = err, .err_len = err_len};
    reader.entry_count = entries_of(t, reader.entries);
    char line[LINE_MAX_LEN];
    while (fgets(line, sizeof line, in)) {
        reader.lineno++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n' && !feof(in)) {
            return line_error(&reader, "line longer than %d characters", LINE_MAX_LEN - 2);
        }
        if (read_line(&reader, &t->geometry, line) != 0) {
            return -1;
        }
    }
    if (ferror(in)) {
        snprintf(err, err_len, "%s: read error: %s", path, strerror(errno));
        return -1;
    }
    return check_complete(&reader);
}

int stc_energy_load(const stc_geometry *geometry, const char *path, stc_energy_table *table,
                    char *err, size_t err_len)
{
    stc_energy_table t;
    memset(&t, 0, sizeof t);
    t.geometry = *geometry;
    char why[200];
    if (stc_geometry_init(&t.geometry, why, sizeof why) != 0) {
        snprintf(err, err_len, "%s: geometry: %s", path, why);
        return -1;
    }
    FILE *in = fopen(path, "r");
    if (!in) {
        snprintf(err, err_len, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    int rc = load_stream(in, path, &t, err, err_len);
    fclose(in);
    if (rc != 0) {
        return -1;
    }
    snprintf(t.source, sizeof t.source, "%s", path);
    *table = t;
    return 0;
}

/* ------------------------------------------------------------------------
 * Energy of a run.
 * ------------------------------------------------------------------------ */

stc_energy stc_energy_of(const stc_energy_table *table, const stc_config *config,
                         const stc_counters *counters)
{
    stc_energy e;
    if (stc_config_check(&table->geometry, config) != NULL) {
        /* Not a configuration of this table's geometry: NaN everywhere, so
         * the mistake cannot pass as a number. */
        e.probe_nj = e.miss_nj = e.static_nj = e.writeback_nj = e.reconfig_nj = e.total_nj = NAN;
        return e;
    }
    unsigned ki = stc_log2(config->banks_on);
    unsigned ai = stc_log2(config->ways);
    unsigned li = stc_log2(config->sublines);
    double accesses = (double)counters->accesses;
    if (config->way_predict) {
        /* First-probe hits read one bank; every other probe sequence (a
         * second-probe hit or a miss) read all a candidates in the end.
         * Consistent counters have first_probe_hits <= accesses; clamp so
         * inconsistent ones cannot make a negative count. */
        uint64_t first = counters->first_probe_hits < counters->accesses
                             ? counters->first_probe_hits
                             : counters->accesses;
        /* A probe sequence that did not end at the first bank also took a
         * second cycle in which the processor waited. */
        e.probe_nj = (double)first * table->hit_nj[ki][0] +
                     (double)(counters->accesses - first) *
                         (table->hit_nj[ki][ai] + table->stall_nj_per_cycle);
    } else {
        e.probe_nj = accesses * table->hit_nj[ki][ai];
    }
    e.miss_nj = (double)counters->misses * table->miss_nj[li];
    e.static_nj = (double)counters->cycles * table->static_nj_per_cycle[ki];
    e.writeback_nj =
        ((double)counters->writebacks + (double)counters->walk_writebacks) * table->writeback_nj;
    e.reconfig_nj = (double)counters->walk_rows * table->walk_row_nj +
                    (double)counters->banks_woken * table->wake_nj;
    e.total_nj = e.probe_nj + e.miss_nj + e.static_nj + e.writeback_nj + e.reconfig_nj;
    return e;
}

stc_small_sram_energy stc_energy_small_sram(unsigned rows, unsigned row_bits,
                                            unsigned compare_bits)
{
    const double c_bitline = rows * C_BITLINE_PER_CELL_FF + C_BITLINE_FIXED_FF;
    const double cols = row_bits;
    const double wordline = switched_nj(1.0, 1.0, cols * C_WORDLINE_PER_CELL_FF, VDD_V, VDD_V);
    const double decode_bits = rows > 1 ? ceil(log2((double)rows)) : 0.0;
    const double decode = switched_nj(decode_bits, DATA_ACTIVITY,
                                      C_DECODE_PER_BIT_FF + rows * C_DECODE_PER_ROW_FF, VDD_V,
                                      VDD_V);
    const double read = switched_nj(cols, 1.0, c_bitline, VDD_V, READ_SWING_V) +
                        switched_nj(cols, 1.0, C_SENSE_AMP_FF, VDD_V, VDD_V);
    const double write = switched_nj(cols, 1.0, c_bitline, VDD_V, VDD_V);
    const double compare =
        switched_nj(compare_bits, DATA_ACTIVITY, C_COMPARE_PER_BIT_FF, VDD_V, VDD_V);
    stc_small_sram_energy energy;
    /* The write reuses the decoded row, but drives the wordline again. */
    energy.rmw_nj = decode + 2.0 * wordline + read + compare + write;
    energy.read_nj = decode + wordline + read + compare;
    energy.write_wordline_nj = decode + wordline;
    energy.write_bit_nj = cols > 0 ? write / cols : switched_nj(1.0, 1.0, c_bitline, VDD_V, VDD_V);
    energy.leak_nj_per_cycle =
        rows * cols * LEAK_PER_CELL_NA * PERIPHERY_FACTOR * VDD_V * CYCLE_NS * 1e-9;
    return energy;
}

void stc_energy_add(stc_energy *sum, const stc_energy *part)
{
    sum->probe_nj += part->probe_nj;
    sum->miss_nj += part->miss_nj;
    sum->static_nj += part->static_nj;
    sum->writeback_nj += part->writeback_nj;
    sum->reconfig_nj += part->reconfig_nj;
    sum->total_nj += part->total_nj;
}
