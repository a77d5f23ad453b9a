/*
 * stcmurphi - write a Murphi model (Rumur's dialect) of one memory block
 * shared by N caches on an atomic snooping bus, or on a split-transaction
 * bus with transient states (--bus split), generated from the protocol
 * tables of ref/coherence_protocol.c, or print those tables as Markdown.
 *
 * Every rule and every snoop answer of the model is one table row walked
 * here; nothing per protocol is written by hand, so what Rumur checks is
 * the table the C model uses (docs/COHERENCE.md 4 describes the model).
 */
#include "coherence_protocol.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    ERR_LEN = 256,
    MIN_CACHES = 2, /* with one cache S and O are unreachable: the covers would fail */
    MAX_CACHES = 8,
    DEFAULT_VALUES = 3,
    MIN_VALUES = 2, /* a store must be able to write a value that differs from the last */
    MAX_VALUES = 8
};

static const char usage_text[] =
    "usage: stcmurphi --protocol msi|mesi|moesi --caches N [--bus atomic|split]\n"
    "                 [--values V] [--stale-data] [--no-covers] [--break NAME] [-o FILE]\n"
    "       stcmurphi --table [--bus atomic|split] [--protocol P] [--break NAME] [-o FILE]\n"
    "Write a Murphi model (for Rumur) of one memory block in N private write-back\n"
    "caches on a snooping bus, generated from the protocol's table\n"
    "(ref/coherence_protocol.c); or, with --table, print the tables as Markdown\n"
    "(every protocol the bus model has unless --protocol is given).\n"
    "docs/COHERENCE.md.\n"
    "\n"
    "  --protocol P      msi, mesi or moesi\n"
    "  --caches N        caches sharing the block, 2..8\n"
    "  --bus B           atomic (default: stable states) or split (split-transaction\n"
    "                    bus with transient states)\n"
    "  --values V        data values a store may write, 2..8 (default 3)\n"
    "  --stale-data      an invalidated frame keeps its old data instead of none\n"
    "                    (atomic bus only; more states, same verdicts; docs 7)\n"
    "  --no-covers       no cover statements (split bus only): Rumur counts a cover\n"
    "                    not hit as an error and then skips the liveness check\n"
    "  --break NAME      a deliberately broken table, for the test: atomic bus\n"
    "                    no-invalidate, no-supply, no-shared (mesi, moesi); split bus\n"
    "                    no-transient-invalidate, no-is-d-i, no-writeback,\n"
    "                    no-shared, silent-e-evict (mesi, moesi), owner-no-supply (moesi)\n"
    "  -o, --output FILE write there instead of stdout\n"
    "  --table           print the tables instead of a model\n";

typedef struct {
    bool table_only;
    bool have_protocol;
    stc_coh_protocol protocol;
    unsigned caches;          /* 0: not given */
    unsigned values;
    bool stale_data;          /* invalid frames keep old data (for counting states) */
    bool no_covers;           /* split bus: emit no covers, so that liveness is checked */
    stc_coh_bus_model bus;
    bool have_break;
    const char *break_name;
    stc_coh_break broken;        /* the break, on the atomic bus */
    stc_coh_sp_break sp_broken;  /* on the split bus */
    const char *output_path;  /* NULL: stdout */
} options;

static int fail(const char *fmt, const char *detail)
{
    fprintf(stderr, "stcmurphi: ");
    fprintf(stderr, fmt, detail);
    fputc('\n', stderr);
    return 2;
}

/* A whole number in [min, max]; -1 otherwise. */
static int parse_count(const char *text, unsigned min, unsigned max, unsigned *count)
{
    char *end;
    errno = 0;
    unsigned long value = strtoul(text, &end, 10);
    if (text[0] < '0' || text[0] > '9' || *end != '\0' || errno || value < min || value > max) {
        return -1;
    }
    *count = (unsigned)value;
    return 0;
}

/* Returns 0, 1 after --help, or 2 after printing an error. */
static int parse_options(int argc, char **argv, options *opts)
{
    char err[ERR_LEN];
    memset(opts, 0, sizeof *opts);
    opts->values = DEFAULT_VALUES;
    for (int index = 1; index < argc; index++) {
        const char *arg = argv[index];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(usage_text, stdout);
            return 1;
        }
        if (!strcmp(arg, "--table")) {
            opts->table_only = true;
            continue;
        }
        if (!strcmp(arg, "--stale-data")) {
            opts->stale_data = true;
            continue;
        }
        if (!strcmp(arg, "--no-covers")) {
            opts->no_covers = true;
            continue;
        }
        bool takes_value = !strcmp(arg, "--protocol") || !strcmp(arg, "--caches") ||
                           !strcmp(arg, "--values") || !strcmp(arg, "--break") ||
                           !strcmp(arg, "--bus") ||
                           !strcmp(arg, "-o") || !strcmp(arg, "--output");
        if (!takes_value) {
            return fail("unknown argument '%s' (see --help)", arg);
        }
        const char *value = argv[++index];
        if (!value) {
            return fail("option %s needs a value (see --help)", arg);
        }
        if (!strcmp(arg, "--protocol")) {
            if (stc_coh_protocol_parse(value, &opts->protocol, err, sizeof err) != 0) {
                return fail("--protocol: %s", err);
            }
            opts->have_protocol = true;
        } else if (!strcmp(arg, "--caches")) {
            if (parse_count(value, MIN_CACHES, MAX_CACHES, &opts->caches) != 0) {
                return fail("--caches '%s': expected a whole number from 2 to 8", value);
            }
        } else if (!strcmp(arg, "--values")) {
            if (parse_count(value, MIN_VALUES, MAX_VALUES, &opts->values) != 0) {
                return fail("--values '%s': expected a whole number from 2 to 8", value);
            }
        } else if (!strcmp(arg, "--break")) {
            opts->break_name = value; /* parsed below, once the bus model is known */
            opts->have_break = true;
        } else if (!strcmp(arg, "--bus")) {
            if (stc_coh_bus_model_parse(value, &opts->bus, err, sizeof err) != 0) {
                return fail("--bus: %s", err);
            }
        } else {
            opts->output_path = value;
        }
    }
    if (opts->have_break &&
        (opts->bus == STC_COH_BUS_SPLIT
             ? stc_coh_sp_break_parse(opts->break_name, &opts->sp_broken, err, sizeof err)
             : stc_coh_break_parse(opts->break_name, &opts->broken, err, sizeof err)) != 0) {
        return fail("--break: %s", err);
    }
    if (opts->stale_data && opts->bus == STC_COH_BUS_SPLIT) {
        return fail("%s", "--stale-data: only with --bus atomic");
    }
    if (opts->no_covers && (opts->bus != STC_COH_BUS_SPLIT || opts->table_only)) {
        return fail("%s", "--no-covers: only for a model with --bus split");
    }
    if (opts->have_protocol && opts->bus == STC_COH_BUS_SPLIT &&
        !stc_coh_sp_table_of(opts->protocol)) {
        return fail("--protocol: no split-transaction table for %s yet",
                    stc_coh_protocol_name(opts->protocol));
    }
    if (opts->table_only) {
        if (opts->caches) {
            return fail("%s", "--caches: not used with --table");
        }
        if (opts->stale_data) {
            return fail("%s", "--stale-data: not used with --table");
        }
        if (opts->have_break && !opts->have_protocol) {
            return fail("%s", "--break: needs --protocol");
        }
        return 0;
    }
    if (!opts->have_protocol) {
        return fail("%s", "--protocol: missing (msi, mesi or moesi; see --help)");
    }
    if (!opts->caches) {
        return fail("%s", "--caches: missing (2 to 8)");
    }
    return 0;
}

/* The table to use: the protocol's, broken if asked, and well formed.
 * Returns 0, or 2 after printing the reason (a break that does not apply). */
static int load_table(const options *opts, stc_coh_protocol protocol, stc_coh_table *table)
{
    char err[ERR_LEN];
    *table = *stc_coh_table_of(protocol);
    if (opts->have_break && stc_coh_table_apply_break(table, opts->broken, err, sizeof err) != 0) {
        return fail("--break: %s", err);
    }
    if (stc_coh_table_check(table, err, sizeof err) != 0) {
        fprintf(stderr, "stcmurphi: the %s table is malformed: %s\n",
                stc_coh_protocol_name(protocol), err);
        return 1;
    }
    return 0;
}

/* The split-transaction table, as load_table. */
static int load_sp_table(const options *opts, stc_coh_protocol protocol, stc_coh_sp_table *table)
{
    char err[ERR_LEN];
    *table = *stc_coh_sp_table_of(protocol);
    if (opts->have_break &&
        stc_coh_sp_table_apply_break(table, opts->sp_broken, err, sizeof err) != 0) {
        return fail("--break: %s", err);
    }
    if (stc_coh_sp_table_check(table, err, sizeof err) != 0) {
        fprintf(stderr, "stcmurphi: the split %s table is malformed: %s\n",
                stc_coh_protocol_name(protocol), err);
        return 1;
    }
    return 0;
}

/* ---- Markdown tables (docs/COHERENCE.md section 3.4 is this output) ---- */

static const char *upper_protocol_name(stc_coh_protocol protocol)
{
    static const char *const names[STC_COH_PROTOCOL_COUNT] = {"MSI", "MESI", "MOESI"};
    return names[protocol];
}

static const char *yes_no(bool flag)
{
    return flag ? "yes" : "-";
}

static void print_proc_table(FILE *out, const stc_coh_table *table)
{
    fprintf(out, "| state | event | hit | bus | next state |\n|---|---|---|---|---|\n");
    for (unsigned index = 0; index < table->proc_row_count; index++) {
        const stc_coh_proc_row *row = &table->proc_rows[index];
        fprintf(out, "| %s | %s | ", stc_coh_state_name(row->state),
                stc_coh_proc_event_name(row->event));
        if (row->impossible) {
            fprintf(out, "impossible | | |\n");
            continue;
        }
        fprintf(out, "%s | %s | ", row->hit ? "hit" : "miss",
                row->bus == STC_COH_BUS_NONE ? "-" : stc_coh_bus_name(row->bus));
        if (row->next_alone == row->next_shared) {
            fprintf(out, "%s |\n", stc_coh_state_name(row->next_alone));
        } else {
            fprintf(out, "%s, or %s if shared |\n", stc_coh_state_name(row->next_alone),
                    stc_coh_state_name(row->next_shared));
        }
    }
}

static void print_snoop_table(FILE *out, const stc_coh_table *table)
{
    fprintf(out, "| state | snooped | next state | supplies | flushes | asserts shared |\n"
                 "|---|---|---|---|---|---|\n");
    for (unsigned index = 0; index < table->snoop_row_count; index++) {
        const stc_coh_snoop_row *row = &table->snoop_rows[index];
        fprintf(out, "| %s | %s | ", stc_coh_state_name(row->state), stc_coh_bus_name(row->bus));
        if (row->impossible) {
            fprintf(out, "impossible | | | |\n");
            continue;
        }
        fprintf(out, "%s | %s | %s | %s |\n", stc_coh_state_name(row->next),
                yes_no(row->supplies), yes_no(row->flushes), yes_no(row->asserts_shared));
    }
}

static void print_tables(FILE *out, const stc_coh_table *table)
{
    fprintf(out, "#### %s\n\nStates:", upper_protocol_name(table->protocol));
    for (unsigned index = 0; index < table->state_count; index++) {
        fprintf(out, " %s", stc_coh_state_name(table->states[index]));
    }
    fprintf(out, ".\n\nProcessor events:\n\n");
    print_proc_table(out, table);
    fprintf(out, "\nSnooped transactions:\n\n");
    print_snoop_table(out, table);
}

/* One cell of the split table: "stall", "impossible", "-" (nothing), or
 * the actions then "/NEXT" (the primer's notation). */
static void print_sp_cell(FILE *out, const stc_coh_sp_row *row)
{
    if (row->outcome != STC_COH_SP_ACT) {
        fprintf(out, " %s |", row->outcome == STC_COH_SP_STALL ? "stall" : "impossible");
        return;
    }
    static const char *const performed[] = {NULL, "load", "store"};
    const char *parts[5];
    unsigned count = 0;
    static const char *const issued[STC_COH_SP_REQ_COUNT] = {NULL, "issue GetS", "issue GetM",
                                                              "issue PutM", "issue PutE"};
    if (row->issue != STC_COH_SP_REQ_NONE) {
        parts[count++] = issued[row->issue];
    }
    if (row->perform != STC_COH_SP_DO_NONE) {
        parts[count++] = performed[row->perform];
    }
    if (row->to_requester != STC_COH_SP_SEND_NONE) {
        parts[count++] = row->to_requester == STC_COH_SP_SEND_NOW ? "data to req" : "save req";
    }
    if (row->to_memory != STC_COH_SP_SEND_NONE) {
        parts[count++] = row->to_memory == STC_COH_SP_SEND_NOW ? "data to mem" : "owe mem";
    }
    if (row->asserts_shared) {
        parts[count++] = "shared";
    }
    fputc(' ', out);
    for (unsigned index = 0; index < count; index++) {
        fprintf(out, "%s%s", index ? ", " : "", parts[index]);
    }
    if (row->next != row->state) {
        fprintf(out, "/%s", stc_coh_sp_state_name(row->next));
    } else if (!count) {
        fputc('-', out);
    }
    if (row->next_shared != row->next) {
        fprintf(out, ", if shared /%s", stc_coh_sp_state_name(row->next_shared));
    }
    fprintf(out, " |");
}

static void print_sp_tables(FILE *out, const stc_coh_sp_table *table)
{
    fprintf(out, "#### %s, split-transaction bus\n\nStates:",
            upper_protocol_name(table->protocol));
    for (unsigned index = 0; index < table->state_count; index++) {
        fprintf(out, " %s", stc_coh_sp_state_name(table->states[index]));
    }
    fprintf(out, ".\n\n| state |");
    for (unsigned event = 0; event < STC_COH_SP_EVENT_COUNT; event++) {
        fprintf(out, " %s |", stc_coh_sp_event_name((stc_coh_sp_event)event));
    }
    fprintf(out, "\n|---|");
    for (unsigned event = 0; event < STC_COH_SP_EVENT_COUNT; event++) {
        fprintf(out, "---|");
    }
    fputc('\n', out);
    for (unsigned index = 0; index < table->state_count; index++) {
        stc_coh_sp_state state = table->states[index];
        fprintf(out, "| %s |", stc_coh_sp_state_name(state));
        for (unsigned event = 0; event < STC_COH_SP_EVENT_COUNT; event++) {
            print_sp_cell(out, stc_coh_sp_lookup(table, state, (stc_coh_sp_event)event));
        }
        fputc('\n', out);
    }
}

/* ---- The Murphi model (docs/COHERENCE.md section 4) ---- */

typedef struct {
    FILE *out;
    const stc_coh_table *table;
    unsigned caches;
    unsigned values;
    bool stale_data;
} model;

static bool has(const model *m, stc_coh_state state)
{
    return stc_coh_table_has_state(m->table, state);
}

static const char *state_name(stc_coh_state state)
{
    return stc_coh_state_name(state);
}

static const char *bus_name(stc_coh_bus bus)
{
    return stc_coh_bus_name(bus);
}

static void emit_header(const model *m, const options *opts)
{
    FILE *out = m->out;
    fprintf(out, "-- Generated by stcmurphi from the tables of ref/coherence_protocol.c; do not\n"
                 "-- edit (docs/COHERENCE.md section 4 describes this model).\n");
    fprintf(out, "-- Protocol %s, %u caches, one memory block, atomic bus, data values 0..%u.\n",
            upper_protocol_name(m->table->protocol), m->caches, m->values - 1);
    if (opts->have_break) {
        fprintf(out, "-- BROKEN on purpose (--break %s): %s.\n", stc_coh_break_name(opts->broken),
                stc_coh_break_what(opts->broken));
    }
    fprintf(out, "\nconst\n  CACHES: %u;\n  VALUES: %u;\n\ntype\n", m->caches, m->values);
    fprintf(out, "  cache_id: scalarset(CACHES);  -- caches are interchangeable: symmetry\n");
    fprintf(out, "  value_t: 0 .. VALUES - 1;\n  state_t: enum {");
    for (unsigned index = 0; index < m->table->state_count; index++) {
        fprintf(out, "%s %s", index ? "," : "", state_name(m->table->states[index]));
    }
    fprintf(out, " };\n");
    fprintf(out, "  line_t: record\n    state: state_t;\n    value: value_t;  -- %s\n  end;\n\n",
            m->stale_data ? "kept, stale, when the copy is invalidated"
                          : "undefined while state = I");
    fprintf(out, "var\n  cache: array [cache_id] of line_t;\n  memory: value_t;\n"
                 "  last_write: value_t;  -- ghost: the value of the latest store\n\n");
    fprintf(out, "startstate \"every cache invalid\"\nbegin\n"
                 "  for c: cache_id do\n    cache[c].state := I;\n"
                 "    undefine cache[c].value;\n  end;\n"
                 "  memory := 0;\n  last_write := 0;\nend;\n\n");
}

/* The actions of one snoop row on cache `other`, inside the procedure's
 * switch. Order: the data leaves (supply, flush) before the state changes. */
static void emit_snoop_case(const model *m, const stc_coh_snoop_row *row)
{
    FILE *out = m->out;
    const char *state = state_name(row->state);
    const char *bus = bus_name(row->bus);
    fprintf(out, "      case %s:\n", state);
    if (row->impossible) {
        fprintf(out, "        error \"impossible row reached: %s snoops %s\";\n", state, bus);
        return;
    }
    fprintf(out, "        cover \"row reached: %s snoops %s\" true;\n", state, bus);
    if (row->supplies) {
        fprintf(out, "        assert !supplied \"bus: at most one cache supplies the block\";\n"
                     "        supplied := true;\n        data := cache[other].value;\n");
    }
    if (row->flushes) {
        fprintf(out, "        memory := cache[other].value;\n");
    }
    if (row->asserts_shared) {
        fprintf(out, "        shared := true;\n");
    }
    if (row->next != row->state) {
        fprintf(out, "        cache[other].state := %s;\n", state_name(row->next));
        if (row->next == STC_COH_I && !m->stale_data) {
            fprintf(out, "        undefine cache[other].value;\n");
        }
    }
}

/* One procedure per transaction: every cache but the requester applies its
 * row for its state. `data` comes in as memory's value and leaves as what the
 * requester receives; `supplied` and `shared` are the bus's response lines. */
static void emit_snoop_procedure(const model *m, stc_coh_bus bus)
{
    FILE *out = m->out;
    fprintf(out, "procedure snoop_%s(requester: cache_id; var data: value_t;\n"
                 "    var supplied: boolean; var shared: boolean);\n"
                 "begin\n  for other: cache_id do\n    if other != requester then\n"
                 "      switch cache[other].state\n", bus_name(bus));
    for (unsigned index = 0; index < m->table->state_count; index++) {
        stc_coh_state state = m->table->states[index];
        const stc_coh_snoop_row *row = stc_coh_snoop_lookup(m->table, state, bus);
        emit_snoop_case(m, row);
    }
    fprintf(out, "      end;\n    end;\n  end;\nend;\n\n");
}

static void emit_rule_name(const model *m, const stc_coh_proc_row *row)
{
    FILE *out = m->out;
    fprintf(out, "\"%s %s", state_name(row->state), stc_coh_proc_event_name(row->event));
    if (row->bus != STC_COH_BUS_NONE) {
        fprintf(out, ", %s", bus_name(row->bus));
    }
    if (row->next_alone == row->next_shared) {
        fprintf(out, " -> %s\"", state_name(row->next_alone));
    } else {
        fprintf(out, " -> %s (%s if shared)\"", state_name(row->next_alone),
                state_name(row->next_shared));
    }
}

/* The requester's side of a row: issue the transaction, take the data, move
 * to the next state, perform the store, check the load. */
static void emit_rule_body(const model *m, const stc_coh_proc_row *row)
{
    FILE *out = m->out;
    fprintf(out, "  begin\n    cover \"row reached: %s %s\" true;\n", state_name(row->state),
            stc_coh_proc_event_name(row->event));
    if (row->bus != STC_COH_BUS_NONE) {
        fprintf(out, "    data := memory;\n    supplied := false;\n    shared := false;\n");
        if (row->bus == STC_COH_BUS_WB) {
            fprintf(out, "    memory := cache[c].value;\n");
        }
        fprintf(out, "    snoop_%s(c, data, supplied, shared);\n", bus_name(row->bus));
        if (row->bus == STC_COH_BUS_RD || row->bus == STC_COH_BUS_RDX) {
            fprintf(out, "    assert data = last_write "
                         "\"data-value: a miss receives the last written value\";\n"
                         "    cache[c].value := data;\n");
        }
    }
    if (row->next_alone != row->next_shared) {
        fprintf(out, "    if shared then\n      cache[c].state := %s;\n    else\n"
                     "      cache[c].state := %s;\n    end;\n",
                state_name(row->next_shared), state_name(row->next_alone));
    } else if (row->next_alone != row->state) {
        fprintf(out, "    cache[c].state := %s;\n", state_name(row->next_alone));
    }
    if (row->event == STC_COH_STORE) {
        fprintf(out, "    cache[c].value := v;\n    last_write := v;\n");
    }
    if (row->state != STC_COH_I && row->next_alone == STC_COH_I &&
        row->next_shared == STC_COH_I && !m->stale_data) {
        fprintf(out, "    undefine cache[c].value;\n");
    }
    if (row->event == STC_COH_LOAD) {
        fprintf(out, "    assert cache[c].value = last_write "
                     "\"data-value: a load returns the last written value\";\n");
    }
    fprintf(out, "  end;\n");
}

/* One rule per row, for every cache (and, for a store, every new value). */
static void emit_proc_rule(const model *m, const stc_coh_proc_row *row)
{
    FILE *out = m->out;
    if (row->impossible) {
        fprintf(out, "-- %s %s: impossible\n\n", state_name(row->state),
                stc_coh_proc_event_name(row->event));
        return;
    }
    bool store = row->event == STC_COH_STORE;
    fprintf(out, "ruleset c: cache_id%s do\n  rule ", store ? "; v: value_t" : "");
    emit_rule_name(m, row);
    fprintf(out, "\n    cache[c].state = %s%s\n  ==>\n", state_name(row->state),
            store ? " & v != last_write" : "");
    if (row->bus != STC_COH_BUS_NONE) {
        fprintf(out, "  var\n    data: value_t;\n    supplied: boolean;\n    shared: boolean;\n");
    }
    emit_rule_body(m, row);
    fprintf(out, "end;\n\n");
}

/* "cache[c].state = A | cache[c].state = B" over the states the protocol
 * has, or "false" when it has none of them. */
static void emit_state_test(const model *m, const char *cache, const stc_coh_state *states,
                            unsigned count)
{
    bool first = true;
    for (unsigned index = 0; index < count; index++) {
        if (has(m, states[index])) {
            fprintf(m->out, "%s%s.state = %s", first ? "" : " | ", cache,
                    state_name(states[index]));
            first = false;
        }
    }
    if (first) {
        fprintf(m->out, "false");
    }
}

/* The properties (docs/COHERENCE.md 5.2). Written from the meaning of the
 * state names, never from the table, so a wrong table cannot weaken them. */
static void emit_invariants(const model *m)
{
    FILE *out = m->out;
    static const stc_coh_state exclusive[] = {STC_COH_M, STC_COH_E};
    static const stc_coh_state owners[] = {STC_COH_M, STC_COH_O};
    fprintf(out, "invariant \"single-writer: a cache in %s holds the only valid copy\"\n"
                 "  forall c: cache_id do\n    (", has(m, STC_COH_E) ? "M or E" : "M");
    emit_state_test(m, "cache[c]", exclusive, 2);
    fprintf(out, ") ->\n      forall o: cache_id do o = c | cache[o].state = I end\n  end;\n\n");
    if (has(m, STC_COH_O)) {
        fprintf(out, "invariant \"single-writer: at most one cache in O\"\n"
                     "  forall c: cache_id do forall o: cache_id do\n"
                     "    (o != c & cache[c].state = O) -> cache[o].state != O\n"
                     "  end end;\n\n");
    }
    fprintf(out, "invariant \"data-value: every valid copy holds the last written value\"\n"
                 "  forall c: cache_id do\n"
                 "    cache[c].state != I -> cache[c].value = last_write\n  end;\n\n");
    fprintf(out, "invariant \"data-value: memory holds the last written value unless a cache "
                 "owns the block\"\n  (forall c: cache_id do !(");
    emit_state_test(m, "cache[c]", owners, 2);
    fprintf(out, ") end) -> memory = last_write;\n\n");
}

/* Every state of the protocol is reached by some cache. */
static void emit_state_covers(const model *m)
{
    for (unsigned index = 0; index < m->table->state_count; index++) {
        const char *state = state_name(m->table->states[index]);
        fprintf(m->out, "cover \"reachable: a cache in %s\"\n"
                        "  exists c: cache_id do cache[c].state = %s end;\n\n",
                state, state);
    }
}

static void emit_model(FILE *out, const stc_coh_table *table, const options *opts)
{
    model m = {out, table, opts->caches, opts->values, opts->stale_data};
    emit_header(&m, opts);
    for (unsigned bus = STC_COH_BUS_RD; bus < STC_COH_BUS_COUNT; bus++) {
        emit_snoop_procedure(&m, (stc_coh_bus)bus);
    }
    for (unsigned index = 0; index < table->proc_row_count; index++) {
        emit_proc_rule(&m, &table->proc_rows[index]);
    }
    emit_invariants(&m);
    emit_state_covers(&m);
}

/* ---- The split-transaction model (docs/COHERENCE.md section 8) ---- */

typedef struct {
    FILE *out;
    const stc_coh_sp_table *table;
    unsigned caches;
    unsigned values;
    bool shared_line;  /* some row raises the shared line (MESI, MOESI) */
    bool covers;       /* emit the covers (not with --no-covers) */
    bool issues_pute;  /* some row issues a PutE (MESI, MOESI) */
} sp_model;

static const char *sp_ident(stc_coh_sp_state state)
{
    return stc_coh_sp_state_ident(state);
}

/* A cover statement, unless --no-covers. */
__attribute__((format(printf, 2, 3))) static void sp_cover(const sp_model *m, const char *fmt, ...)
{
    if (m->covers) {
        va_list args;
        va_start(args, fmt);
        vfprintf(m->out, fmt, args);
        va_end(args);
    }
}

static void sp_emit_header(const sp_model *m, const options *opts)
{
    FILE *out = m->out;
    fprintf(out, "-- Generated by stcmurphi from the split-transaction tables of\n"
                 "-- ref/coherence_protocol.c; do not edit (docs/COHERENCE.md section 8).\n");
    fprintf(out, "-- Protocol %s, %u caches, one memory block, split-transaction bus, data "
                 "values 0..%u.\n",
            upper_protocol_name(m->table->protocol), m->caches, m->values - 1);
    if (opts->have_break) {
        fprintf(out, "-- BROKEN on purpose (--break %s): %s.\n",
                stc_coh_sp_break_name(opts->sp_broken), stc_coh_sp_break_what(opts->sp_broken));
    }
    fprintf(out, "\nconst\n  CACHES: %u;\n  VALUES: %u;\n"
                 "  PENDING: %u;  -- bound on the writebacks memory waits for\n\ntype\n",
            m->caches, m->values, 2 * m->caches);
    fprintf(out, "  cache_id: scalarset(CACHES);\n  value_t: 0 .. VALUES - 1;\n"
                 "  count_t: 0 .. PENDING;\n  state_t: enum {");
    for (unsigned index = 0; index < m->table->state_count; index++) {
        fprintf(out, "%s %s", index ? "," : "", sp_ident(m->table->states[index]));
    }
    fprintf(out, " };\n  req_t: enum { NoReq, GetS, GetM, PutM%s };\n",
            m->issues_pute ? ", PutE" : "");
    fprintf(out,
            "  line_t: record\n"
            "    state: state_t;\n"
            "    value: value_t;   -- the copy; undefined while the state holds no data\n"
            "    req: req_t;       -- issued and not yet ordered by the bus\n"
            "    fwd: cache_id;    -- the requester promised data (LATER); else undefined\n"
            "    store: value_t;   -- the pending store's value, chosen when its GetM is ordered\n"
            "    expect: value_t;  -- ghost: the value the pending miss must receive\n"
            "  end;\n"
            "  msg_t: record\n    full: boolean;\n    value: value_t;\n  end;\n\n");
    fprintf(out,
            "var\n"
            "  cache: array [cache_id] of line_t;\n"
            "  resp: array [cache_id] of msg_t;  -- each cache's data response channel\n"
            "  wb: msg_t;                        -- writeback data on its way to memory\n"
            "  mem_value: value_t;\n"
            "  mem_cache_owns: boolean;          -- a cache, mem_owner, owns the block\n"
            "  mem_owner: cache_id;\n"
            "  mem_pending: count_t;             -- writebacks memory was promised, not yet received\n"
            "  mem_owed: array [cache_id] of count_t;  -- answer after this many more writebacks\n"
            "  last_ordered: value_t;  -- ghost: the value of the last store ordered by the bus\n"
            "  last_write: value_t;    -- ghost: the value of the last store performed\n\n");
    fprintf(out, "startstate \"every cache invalid\"\nbegin\n"
                 "  for c: cache_id do\n"
                 "    cache[c].state := I;\n    undefine cache[c].value;\n"
                 "    cache[c].req := NoReq;\n    undefine cache[c].fwd;\n"
                 "    undefine cache[c].store;\n    undefine cache[c].expect;\n"
                 "    resp[c].full := false;\n    undefine resp[c].value;\n"
                 "    mem_owed[c] := 0;\n  end;\n"
                 "  wb.full := false;\n  undefine wb.value;\n"
                 "  mem_value := 0;\n  mem_cache_owns := false;\n  undefine mem_owner;\n"
                 "  mem_pending := 0;\n  last_ordered := 0;\n  last_write := 0;\nend;\n\n");
    fprintf(out,
            "procedure send_data(dst: cache_id; v: value_t);\nbegin\n"
            "  assert !resp[dst].full \"bus: at most one data response to a cache\";\n"
            "  resp[dst].full := true;\n  resp[dst].value := v;\nend;\n\n"
            "procedure send_writeback(v: value_t);\nbegin\n"
            "  assert !wb.full \"bus: at most one writeback in flight\";\n"
            "  wb.full := true;\n  wb.value := v;\nend;\n\n"
            "-- Memory answers a GetS or GetM it owns: now if no writeback is pending,\n"
            "-- else after the writebacks ordered before this request have come.\n"
            "procedure memory_answers(r: cache_id);\nbegin\n"
            "  if mem_pending = 0 then\n    send_data(r, mem_value);\n  else\n"
            "    assert mem_owed[r] = 0 \"memory: one miss per cache\";\n"
            "    mem_owed[r] := mem_pending;\n  end;\nend;\n\n");
}

/* The actions of one ACT row on cache `who` (the snooper `o`, or the
 * requester `r`, or the receiver `c`), inside a switch on its state. */
static void sp_emit_row(const sp_model *m, const stc_coh_sp_row *row, const char *who)
{
    FILE *out = m->out;
    const char *state = sp_ident(row->state);
    const char *event = stc_coh_sp_event_name(row->event);
    bool other = row->event >= STC_COH_SP_OTHER_GETS;
    bool data = row->event == STC_COH_SP_OWN_DATA;
    /* The miss ends here: its data came, or an owner's GetM needed none. */
    bool completes = data || (row->event == STC_COH_SP_OWN_GETM && row->perform != STC_COH_SP_DO_NONE);
    fprintf(out, "      case %s:\n", state);
    if (row->outcome == STC_COH_SP_IMPOSSIBLE) {
        fprintf(out, "        error \"impossible row reached: %s %s\";\n", state, event);
        return;
    }
    sp_cover(m, "        cover \"row reached: %s %s\" true;\n", state, event);
    if (data) {
        fprintf(out, "        assert v = cache[%s].expect "
                     "\"data-value: a miss receives the last store ordered before it\";\n"
                     "        cache[%s].value := v;\n", who, who);
    }
    if (row->perform == STC_COH_SP_DO_STORE) {
        fprintf(out, "        cache[%s].value := cache[%s].store;\n"
                     "        last_write := cache[%s].store;\n", who, who, who);
    }
    if (row->to_requester == STC_COH_SP_SEND_NOW) {
        fprintf(out, "        send_data(%s, cache[%s].value);\n", other ? "r" : "cache[c].fwd",
                who);
        if (!other) {
            fprintf(out, "        undefine cache[c].fwd;\n");
        }
    } else if (row->to_requester == STC_COH_SP_SEND_LATER) {
        fprintf(out, "        cache[%s].fwd := r;\n", who);
    }
    if (row->to_memory != STC_COH_SP_SEND_NONE && other) {
        /* A promise to memory: it counts the writeback and owns the block. */
        fprintf(out, "        mem_pending := mem_pending + 1;\n"
                     "        mem_cache_owns := false;\n        undefine mem_owner;\n");
    }
    if (row->to_memory == STC_COH_SP_SEND_NOW) {
        fprintf(out, "        send_writeback(cache[%s].value);\n", who);
    }
    if (row->asserts_shared) {
        fprintf(out, "        shared_line := true;\n");
    }
    if (m->shared_line && row->event == STC_COH_SP_OWN_GETS) {
        /* The E grant: nobody holds or owns the block at the GetS's
         * ordering, so the requester will, and memory records it as the
         * owner (E may become M without telling anyone). */
        fprintf(out, "        if shared_line then\n");
        sp_cover(m, "          cover \"shared line: %s %s takes %s\" true;\n", state, event,
                 sp_ident(row->next_shared));
        fprintf(out, "          cache[%s].state := %s;\n        else\n", who,
                sp_ident(row->next_shared));
        sp_cover(m, "          cover \"E grant: %s %s takes %s\" true;\n", state, event,
                 sp_ident(row->next));
        fprintf(out, "          cache[%s].state := %s;\n"
                     "          mem_cache_owns := true;\n          mem_owner := %s;\n        end;\n",
                who, sp_ident(row->next), who);
    } else if (row->next != row->state) {
        fprintf(out, "        cache[%s].state := %s;\n", who, sp_ident(row->next));
        if (stc_coh_sp_permission(row->next) == STC_COH_I) {
            fprintf(out, "        undefine cache[%s].value;\n", who);
        }
    }
    if (completes) {
        fprintf(out, "        undefine cache[%s].expect;\n        undefine cache[%s].store;\n",
                who, who);
    }
}

/* switch cache[WHO].state with one case per state for event. */
static void sp_emit_switch(const sp_model *m, stc_coh_sp_event event, const char *who)
{
    fprintf(m->out, "      switch cache[%s].state\n", who);
    for (unsigned index = 0; index < m->table->state_count; index++) {
        sp_emit_row(m, stc_coh_sp_lookup(m->table, m->table->states[index], event), who);
    }
    fprintf(m->out, "      end;\n");
}

/* The bus orders cache r's request: memory's part, every other cache's
 * Other-X row, r's Own-X row. The ordering point of a load or store miss.
 * A PutE is ordered by the PutM rule (the same rows: a PutM flavour), in
 * which memory alone looks at which put it is. */
static void sp_emit_order_rule(const sp_model *m, stc_coh_sp_req req)
{
    FILE *out = m->out;
    const char *name = stc_coh_sp_req_name(req);
    bool getm = req == STC_COH_SP_GETM;
    bool line = m->shared_line && req == STC_COH_SP_GETS;
    bool two_puts = req == STC_COH_SP_PUTM && m->issues_pute;
    fprintf(out, "ruleset r: cache_id%s do\n  rule \"the bus orders a %s%s\"\n"
                 "    cache[r].req = %s%s\n  ==>\n%s  begin\n%s",
            getm ? "; v: value_t" : "", name, two_puts ? " or PutE" : "", name,
            getm ? " & v != last_ordered" : two_puts ? " | cache[r].req = PutE" : "",
            line ? "  var\n    shared_line: boolean;  -- wired OR: another cache holds or owns the block\n"
                 : "",
            two_puts ? "" : "    cache[r].req := NoReq;\n");
    if (line) {
        fprintf(out, "    shared_line := false;\n");
    }
    if (two_puts) {
        fprintf(out, "    if mem_cache_owns & mem_owner = r then  -- else a stale put: ignored\n"
                     "      mem_cache_owns := false;\n      undefine mem_owner;\n"
                     "      if cache[r].req = PutM then\n"
                     "        mem_pending := mem_pending + 1;  -- the data follows\n"
                     "      end;  -- a PutE: no data follows, memory's copy is current\n"
                     "    end;\n    cache[r].req := NoReq;\n");
    } else if (req == STC_COH_SP_PUTM) {
        fprintf(out, "    if mem_cache_owns & mem_owner = r then  -- else a stale PutM: ignored\n"
                     "      mem_cache_owns := false;\n      undefine mem_owner;\n"
                     "      mem_pending := mem_pending + 1;  -- the data follows\n    end;\n");
    } else {
        fprintf(out, "    cache[r].expect := last_ordered;\n"
                     "    if !mem_cache_owns then\n      memory_answers(r);\n    end;\n");
    }
    if (getm) {
        fprintf(out, "    cache[r].store := v;\n    last_ordered := v;\n");
    }
    fprintf(out, "    for o: cache_id do\n    if o != r then\n");
    sp_emit_switch(m, stc_coh_sp_ordered_event(req, false), "o");
    fprintf(out, "    end;\n    end;\n");
    if (getm) {
        fprintf(out, "    mem_cache_owns := true;\n    mem_owner := r;\n");
    }
    sp_emit_switch(m, stc_coh_sp_ordered_event(req, true), "r");
    fprintf(out, "  end;\nend;\n\n");
}

static void sp_emit_data_rules(const sp_model *m)
{
    FILE *out = m->out;
    fprintf(out, "ruleset c: cache_id do\n  rule \"a cache receives its data\"\n"
                 "    resp[c].full\n  ==>\n  var\n    v: value_t;\n  begin\n"
                 "    v := resp[c].value;\n    resp[c].full := false;\n"
                 "    undefine resp[c].value;\n");
    sp_emit_switch(m, STC_COH_SP_OWN_DATA, "c");
    fprintf(out, "  end;\nend;\n\n");
    fprintf(out,
            "rule \"memory receives a writeback\"\n  wb.full\n==>\nbegin\n"
            "  assert mem_pending > 0 \"memory: a writeback it was not promised\";\n"
            "  mem_value := wb.value;\n  wb.full := false;\n  undefine wb.value;\n"
            "  mem_pending := mem_pending - 1;\n"
            "  for c: cache_id do\n    if mem_owed[c] > 0 then\n"
            "      mem_owed[c] := mem_owed[c] - 1;\n"
            "      if mem_owed[c] = 0 then\n        send_data(c, mem_value);\n      end;\n"
            "    end;\n  end;\nend;\n\n");
}

/* One rule per ACT processor row, for every cache (a store hit also for
 * every new value). Stalled rows have no rule: the event waits. */
static void sp_emit_proc_rule(const sp_model *m, const stc_coh_sp_row *row)
{
    FILE *out = m->out;
    const char *state = sp_ident(row->state);
    const char *event = stc_coh_sp_event_name(row->event);
    if (row->outcome != STC_COH_SP_ACT) {
        fprintf(out, "-- %s %s: %s\n\n", state, event,
                row->outcome == STC_COH_SP_STALL ? "stall" : "impossible");
        return;
    }
    bool store = row->perform == STC_COH_SP_DO_STORE;
    fprintf(out, "ruleset c: cache_id%s do\n  rule \"%s %s", store ? "; v: value_t" : "", state,
            event);
    if (row->issue != STC_COH_SP_REQ_NONE) {
        fprintf(out, ", issue %s", stc_coh_sp_req_name(row->issue));
    }
    fprintf(out, " -> %s\"\n    cache[c].state = %s%s\n  ==>\n  begin\n", sp_ident(row->next),
            state, store ? " & v != last_ordered" : "");
    sp_cover(m, "    cover \"row reached: %s %s\" true;\n", state, event);
    if (row->perform == STC_COH_SP_DO_LOAD) {
        fprintf(out, "    assert cache[c].value = last_ordered "
                     "\"data-value: a load returns the last ordered store's value\";\n");
    } else if (store) {
        fprintf(out, "    cache[c].value := v;\n    last_ordered := v;\n    last_write := v;\n");
    }
    if (row->issue != STC_COH_SP_REQ_NONE) {
        fprintf(out, "    assert cache[c].req = NoReq \"one request per cache\";\n"
                     "    cache[c].req := %s;\n", stc_coh_sp_req_name(row->issue));
    }
    if (row->next != row->state) {
        fprintf(out, "    cache[c].state := %s;\n", sp_ident(row->next));
        if (stc_coh_sp_permission(row->next) == STC_COH_I &&
            stc_coh_sp_permission(row->state) != STC_COH_I) {
            fprintf(out, "    undefine cache[c].value;\n");
        }
    }
    fprintf(out, "  end;\nend;\n\n");
}

/* Which states a test names, by the permission of the first letter. */
typedef enum { SP_READABLE, SP_WRITER, SP_O_OWNER } sp_permission_kind;

static bool sp_permission_is(stc_coh_sp_state state, sp_permission_kind kind)
{
    stc_coh_state held = stc_coh_sp_permission(state);
    return kind == SP_READABLE ? held != STC_COH_I
           : kind == SP_WRITER ? held == STC_COH_M || held == STC_COH_E
                               : held == STC_COH_O;
}

/* "cache[X].state = A | ..." over the protocol's states whose permission
 * (the first letter of the name) is of the kind; "false" if none. */
static void sp_emit_permission_test(const sp_model *m, const char *cache, sp_permission_kind kind)
{
    bool first = true;
    for (unsigned index = 0; index < m->table->state_count; index++) {
        stc_coh_sp_state state = m->table->states[index];
        if (sp_permission_is(state, kind)) {
            fprintf(m->out, "%s%s.state = %s", first ? "" : " | ", cache, sp_ident(state));
            first = false;
        }
    }
    if (first) {
        fprintf(m->out, "false");
    }
}

/* The properties: from the permission each state's name gives it, never
 * from its rows. */
static void sp_emit_properties(const sp_model *m)
{
    FILE *out = m->out;
    fprintf(out, "invariant \"single-writer: a cache that may write holds the only readable "
                 "copy\"\n  forall c: cache_id do\n    (");
    sp_emit_permission_test(m, "cache[c]", SP_WRITER);
    fprintf(out, ") ->\n      forall o: cache_id do o = c | !(");
    sp_emit_permission_test(m, "cache[o]", SP_READABLE);
    fprintf(out, ") end\n  end;\n\n");
    bool has_o = false;
    for (unsigned index = 0; index < m->table->state_count; index++) {
        has_o |= sp_permission_is(m->table->states[index], SP_O_OWNER);
    }
    if (has_o) {
        fprintf(out, "invariant \"single-owner: at most one cache in a state starting with O\"\n"
                     "  forall c: cache_id do forall o: cache_id do\n    o = c | !((");
        sp_emit_permission_test(m, "cache[c]", SP_O_OWNER);
        fprintf(out, ") & (");
        sp_emit_permission_test(m, "cache[o]", SP_O_OWNER);
        fprintf(out, "))\n  end end;\n\n");
    }
    fprintf(out, "invariant \"data-value: every readable copy holds the last performed store\"\n"
                 "  forall c: cache_id do\n    (");
    sp_emit_permission_test(m, "cache[c]", SP_READABLE);
    fprintf(out, ") -> cache[c].value = last_write\n  end;\n\n");
    fprintf(out, "invariant \"data-value: memory is current when it owns the block and waits "
                 "for nothing\"\n  (!mem_cache_owns & mem_pending = 0) -> mem_value = last_write;\n\n");
    fprintf(out, "liveness \"quiescence: every request can be ordered and answered\"\n"
                 "  forall c: cache_id do\n    cache[c].req = NoReq & !resp[c].full & (");
    bool first = true;
    for (unsigned index = 0; index < m->table->state_count; index++) {
        stc_coh_sp_state state = m->table->states[index];
        if (stc_coh_sp_stable(state)) {
            fprintf(out, "%scache[c].state = %s", first ? "" : " | ", sp_ident(state));
            first = false;
        }
    }
    fprintf(out, ")\n  end & !wb.full & mem_pending = 0;\n\n");
    /* The two races of hand-written models the issue names: both reached. */
    sp_cover(m, "cover \"race: memory waits for two writebacks\"\n  mem_pending >= 2;\n\n"
                 "cover \"race: memory owes data to two caches of different epochs\"\n"
                 "  exists c: cache_id do exists o: cache_id do\n"
                 "    mem_owed[c] > 0 & mem_owed[o] > mem_owed[c]\n  end end;\n\n");
    for (unsigned index = 0; index < m->table->state_count; index++) {
        const char *state = sp_ident(m->table->states[index]);
        sp_cover(m, "cover \"reachable: a cache in %s\"\n"
                     "  exists c: cache_id do cache[c].state = %s end;\n\n", state, state);
    }
}

static void sp_emit_model(FILE *out, const stc_coh_sp_table *table, const options *opts)
{
    sp_model m = {out, table, opts->caches, opts->values, false, !opts->no_covers, false};
    for (unsigned index = 0; index < table->row_count; index++) {
        m.shared_line |= table->rows[index].asserts_shared ||
                         table->rows[index].next_shared != table->rows[index].next;
        m.issues_pute |= table->rows[index].issue == STC_COH_SP_PUTE;
    }
    sp_emit_header(&m, opts);
    for (unsigned req = STC_COH_SP_GETS; req <= STC_COH_SP_PUTM; req++) {
        sp_emit_order_rule(&m, (stc_coh_sp_req)req);  /* PutE: with PutM */
    }
    sp_emit_data_rules(&m);
    /* In the order of the states, whatever the order of the rows. */
    for (unsigned index = 0; index < table->state_count; index++) {
        for (unsigned event = STC_COH_SP_LOAD; event <= STC_COH_SP_EVICT; event++) {
            sp_emit_proc_rule(&m, stc_coh_sp_lookup(table, table->states[index],
                                                    (stc_coh_sp_event)event));
        }
    }
    sp_emit_properties(&m);
}

/* The tables of every protocol the bus model has (or of one), as Markdown. */
static int generate_tables(FILE *out, const options *opts)
{
    unsigned first = opts->have_protocol ? opts->protocol : 0;
    unsigned last = opts->have_protocol ? opts->protocol : STC_COH_PROTOCOL_COUNT - 1;
    bool printed = false;
    for (unsigned protocol = first; protocol <= last; protocol++) {
        int status;
        if (opts->bus == STC_COH_BUS_SPLIT) {
            if (!stc_coh_sp_table_of((stc_coh_protocol)protocol)) {
                continue;
            }
            stc_coh_sp_table table;
            status = load_sp_table(opts, (stc_coh_protocol)protocol, &table);
            if (!status) {
                fprintf(out, "%s", printed ? "\n" : "");
                print_sp_tables(out, &table);
            }
        } else {
            stc_coh_table table;
            status = load_table(opts, (stc_coh_protocol)protocol, &table);
            if (!status) {
                fprintf(out, "%s", printed ? "\n" : "");
                print_tables(out, &table);
            }
        }
        if (status) {
            return status;
        }
        printed = true;
    }
    return 0;
}

/* Build the whole text in memory so a failure leaves no output file. */
static int generate(const options *opts, char **text, size_t *length)
{
    FILE *out = open_memstream(text, length);
    if (!out) {
        perror("stcmurphi: open_memstream");
        return 1;
    }
    int status = 0;
    if (opts->table_only) {
        status = generate_tables(out, opts);
    } else if (opts->bus == STC_COH_BUS_SPLIT) {
        stc_coh_sp_table table;
        status = load_sp_table(opts, opts->protocol, &table);
        if (!status) {
            sp_emit_model(out, &table, opts);
        }
    } else {
        stc_coh_table table;
        status = load_table(opts, opts->protocol, &table);
        if (!status) {
            emit_model(out, &table, opts);
        }
    }
    if (fclose(out) != 0 && !status) {
        perror("stcmurphi: open_memstream");
        status = 1;
    }
    return status;
}

static int write_output(const char *path, const char *text, size_t length)
{
    FILE *out = path ? fopen(path, "w") : stdout;
    if (!out) {
        fprintf(stderr, "stcmurphi: -o %s: %s\n", path, strerror(errno));
        return 2; /* a bad argument: nothing was written */
    }
    bool ok = fwrite(text, 1, length, out) == length;
    ok = (path ? fclose(out) : fflush(out)) == 0 && ok;
    if (!ok) {
        fprintf(stderr, "stcmurphi: writing %s failed\n", path ? path : "stdout");
        if (path) {
            remove(path);
        }
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    options opts;
    int status = parse_options(argc, argv, &opts);
    if (status) {
        return status == 1 ? 0 : status;
    }
    char *text = NULL;
    size_t length = 0;
    status = generate(&opts, &text, &length);
    if (!status) {
        status = write_output(opts.output_path, text, length);
    }
    free(text);
    return status;
}
