/*
 * stcmurphi - write a Murphi model (Rumur's dialect) of one memory block
 * shared by N caches on an atomic snooping bus, generated from the protocol
 * tables of ref/coherence_protocol.c, or print those tables as Markdown.
 *
 * Every rule and every snoop answer of the model is one table row walked
 * here; nothing per protocol is written by hand, so what Rumur checks is
 * the table the C model uses (docs/COHERENCE.md 4 describes the model).
 */
#include "coherence_protocol.h"

#include <errno.h>
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
    "usage: stcmurphi --protocol msi|mesi|moesi --caches N [--values V] [--stale-data]\n"
    "                 [--break NAME] [-o FILE]\n"
    "       stcmurphi --table [--protocol P] [--break NAME] [-o FILE]\n"
    "Write a Murphi model (for Rumur) of one memory block in N private write-back\n"
    "caches on an atomic snooping bus, generated from the protocol's table\n"
    "(ref/coherence_protocol.c); or, with --table, print the tables as Markdown\n"
    "(all three protocols unless --protocol is given). docs/COHERENCE.md.\n"
    "\n"
    "  --protocol P      msi, mesi or moesi\n"
    "  --caches N        caches sharing the block, 2..8\n"
    "  --values V        data values a store may write, 2..8 (default 3)\n"
    "  --stale-data      an invalidated frame keeps its old data instead of none\n"
    "                    (more states, same verdicts; docs/COHERENCE.md 7)\n"
    "  --break NAME      a deliberately broken table, for the test:\n"
    "                    no-invalidate, no-supply, no-shared (mesi, moesi)\n"
    "  -o, --output FILE write there instead of stdout\n"
    "  --table           print the tables instead of a model\n";

typedef struct {
    bool table_only;
    bool have_protocol;
    stc_coh_protocol protocol;
    unsigned caches;          /* 0: not given */
    unsigned values;
    bool stale_data;          /* invalid frames keep old data (for counting states) */
    bool have_break;
    stc_coh_break broken;
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
        bool takes_value = !strcmp(arg, "--protocol") || !strcmp(arg, "--caches") ||
                           !strcmp(arg, "--values") || !strcmp(arg, "--break") ||
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
            if (stc_coh_break_parse(value, &opts->broken, err, sizeof err) != 0) {
                return fail("--break: %s", err);
            }
            opts->have_break = true;
        } else {
            opts->output_path = value;
        }
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
        unsigned first = opts->have_protocol ? opts->protocol : 0;
        unsigned last = opts->have_protocol ? opts->protocol : STC_COH_PROTOCOL_COUNT - 1;
        for (unsigned protocol = first; protocol <= last && !status; protocol++) {
            stc_coh_table table;
            status = load_table(opts, (stc_coh_protocol)protocol, &table);
            if (!status) {
                fprintf(out, "%s", protocol == first ? "" : "\n");
                print_tables(out, &table);
            }
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
