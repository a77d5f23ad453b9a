/*
 * test_coherence_litmus.c - litmus tests on the coherent model (coherent.h,
 * docs/COHERENCE.md 9.6): CoRR, CoRW, CoWR, CoWW, MP, SB, LB, IRIW and
 * 2+2W, in every protocol, with the locations in one line, in different
 * lines, and in caches of one line (so that every access to the other
 * location evicts, with a writeback when the copy is dirty).
 *
 * The cores are in order and the bus is atomic, so the model must be
 * sequentially consistent. Every interleaving of the threads' program
 * orders is run through the model, one reference at a time; after the
 * threads, every core loads every location, so the outcome is the
 * registers and what each core finally sees. The sequentially consistent
 * outcomes are computed here apart from the model, by running the same
 * interleavings on a flat memory. Checked: every observed outcome is one
 * of them, each test's forbidden outcome never appears (and is not SC:
 * the test is written right), and every SC outcome is observed (the
 * enumeration reaches them all).
 *
 * Each check can fail: the same tests on the deliberately broken tables
 * (coherence_protocol.h) see outcomes no SC machine gives: a missing
 * invalidation (IRIW: a reader keeps reading its stale copy), an owner
 * that does not supply (SB's forbidden r0=0 r1=0), a reader that takes E
 * although the line is shared (CoRW: its silent store leaves the other
 * copy stale).
 */
#include "check.h"
#include "coherent.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum {
    MAX_THREADS = 4,
    MAX_OPS = 4, /* per thread */
    MAX_LOCS = 2,
    MAX_REGS = 8,
    /* an outcome: the registers, then core c's final load of location l
     * at index reg_count + c * loc_count + l */
    MAX_VALUES = MAX_REGS + MAX_THREADS * MAX_LOCS,
    MAX_STEPS = MAX_THREADS * MAX_OPS,
    /* distinct outcomes of one test: at most one per interleaving (IRIW: 180) */
    MAX_OUTCOMES = 256,
    ERR_LEN = 256,
    TEXT_LEN = 256,
    WORD = 4
};

static const stc_coh_protocol all_protocols[] = {STC_COH_MSI, STC_COH_MESI, STC_COH_MOESI};
enum { PROTOCOLS = sizeof all_protocols / sizeof all_protocols[0] };

/* ------------------------------------------------------------ the tests */

/* A test as written, herd-style: each thread a list of "W x 1" (store 1
 * to x) and "R y" (load y into the next register: r0, r1, ... in thread
 * order); the forbidden outcome as "r0=1 r1=0" and "x=1" (x's final value,
 * as every core reads it after the test). */
typedef struct {
    const char *name;
    const char *threads[MAX_THREADS];
    const char *forbidden;
} litmus_text;

static const litmus_text litmus_texts[] = {
    /* coherence of one location: reads, writes and their mixtures agree
     * with one order of the writes */
    {"CoRR", {"W x 1", "R x; R x"}, "r0=1 r1=0"},
    {"CoRW", {"R x; W x 1", "W x 2"}, "r0=2 x=2"},
    {"CoWR", {"W x 1; R x", "W x 2"}, "r0=2 x=1"},
    {"CoWW", {"W x 1; W x 2", "R x; R x"}, "x=1"},
    /* two locations */
    {"MP", {"W x 1; W y 1", "R y; R x"}, "r0=1 r1=0"},
    {"SB", {"W x 1; R y", "W y 1; R x"}, "r0=0 r1=0"},
    {"LB", {"R x; W y 1", "R y; W x 1"}, "r0=1 r1=1"},
    {"IRIW", {"W x 1", "W y 1", "R x; R y", "R y; R x"}, "r0=1 r1=0 r2=1 r3=0"},
    {"2+2W", {"W x 1; W y 2", "W y 1; W x 2"}, "x=1 y=1"},
};
enum { TESTS = sizeof litmus_texts / sizeof litmus_texts[0] };

typedef struct {
    bool store;
    unsigned loc;
    uint64_t value; /* store */
    unsigned reg;   /* load */
} litmus_op;

typedef struct {
    const char *name;
    unsigned thread_count, loc_count, reg_count, value_count;
    unsigned cores; /* the threads, and at least two so a second core observes */
    unsigned op_count[MAX_THREADS];
    litmus_op ops[MAX_THREADS][MAX_OPS];
    bool forbidden_fixed[MAX_VALUES]; /* outcome slots the forbidden outcome names */
    uint64_t forbidden_value[MAX_VALUES];
} litmus;

static unsigned loc_of(char name)
{
    return (unsigned)(name - 'x');
}

/* The tests are constants of this file: a malformed one is a bug here. */
static void parse_failed(const char *test, const char *what)
{
    fprintf(stderr, "test_coherence_litmus: %s: cannot parse \"%s\"\n", test, what);
    exit(1);
}

static litmus parse_litmus(const litmus_text *text)
{
    litmus t = {.name = text->name};
    for (unsigned th = 0; th < MAX_THREADS && text->threads[th]; th++) {
        t.thread_count = th + 1;
        const char *p = text->threads[th];
        while (*p) {
            while (*p == ' ' || *p == ';')
                p++;
            if (!*p)
                break;
            char kind, loc;
            unsigned long long value = 0;
            int used = 0;
            litmus_op op = {0};
            if (sscanf(p, "W %c %llu%n", &loc, &value, &used) == 2 && used > 0) {
                kind = 'W';
            } else if (sscanf(p, "R %c%n", &loc, &used) == 1 && used > 0) {
                kind = 'R';
            } else {
                parse_failed(text->name, p);
                return t;
            }
            if (loc_of(loc) >= MAX_LOCS || t.op_count[th] == MAX_OPS ||
                (kind == 'R' && t.reg_count == MAX_REGS))
                parse_failed(text->name, p);
            op.store = kind == 'W';
            op.loc = loc_of(loc);
            op.value = value;
            if (!op.store)
                op.reg = t.reg_count++;
            if (op.loc + 1 > t.loc_count)
                t.loc_count = op.loc + 1;
            t.ops[th][t.op_count[th]++] = op;
            p += used;
        }
    }
    t.cores = t.thread_count < 2 ? 2 : t.thread_count;
    t.value_count = t.reg_count + t.cores * t.loc_count;
    for (const char *p = text->forbidden; *p;) {
        while (*p == ' ')
            p++;
        unsigned reg;
        char loc;
        unsigned long long value;
        int used = 0;
        if (sscanf(p, "r%u=%llu%n", &reg, &value, &used) == 2 && used > 0 && reg < t.reg_count) {
            t.forbidden_fixed[reg] = true;
            t.forbidden_value[reg] = value;
        } else if (sscanf(p, "%c=%llu%n", &loc, &value, &used) == 2 && used > 0 &&
                   loc_of(loc) < t.loc_count) {
            for (unsigned c = 0; c < t.cores; c++) {
                unsigned slot = t.reg_count + c * t.loc_count + loc_of(loc);
                t.forbidden_fixed[slot] = true;
                t.forbidden_value[slot] = value;
            }
        } else {
            parse_failed(text->name, p);
        }
        p += used;
    }
    return t;
}

/* ------------------------------------------------------------- outcomes */

typedef struct {
    uint64_t values[MAX_VALUES];
} outcome;

/* Distinct outcomes, each with the first interleaving that gave it (the
 * thread of every step) so a failure can say how to reproduce it. */
typedef struct {
    unsigned count;
    outcome items[MAX_OUTCOMES];
    unsigned schedule[MAX_OUTCOMES][MAX_STEPS];
} outcome_set;

static bool outcome_equal(const litmus *t, const outcome *a, const outcome *b)
{
    return memcmp(a->values, b->values, t->value_count * sizeof a->values[0]) == 0;
}

static bool outcome_in(const litmus *t, const outcome_set *set, const outcome *o)
{
    for (unsigned i = 0; i < set->count; i++)
        if (outcome_equal(t, &set->items[i], o))
            return true;
    return false;
}

static void outcome_add(const litmus *t, outcome_set *set, const outcome *o, const unsigned *schedule,
                        unsigned steps)
{
    if (outcome_in(t, set, o))
        return;
    if (set->count == MAX_OUTCOMES) {
        CHECK(0, "%s: more than %d outcomes", t->name, MAX_OUTCOMES);
        return;
    }
    set->items[set->count] = *o;
    memcpy(set->schedule[set->count], schedule, steps * sizeof schedule[0]);
    set->count++;
}

static bool outcome_forbidden(const litmus *t, const outcome *o)
{
    for (unsigned i = 0; i < t->value_count; i++)
        if (t->forbidden_fixed[i] && o->values[i] != t->forbidden_value[i])
            return false;
    return true;
}

static unsigned step_count(const litmus *t)
{
    unsigned steps = 0;
    for (unsigned th = 0; th < t->thread_count; th++)
        steps += t->op_count[th];
    return steps;
}

/* "r0=1 r1=0 | final c0: x=1 y=1, c1: x=1 y=0 | T1 T0 T0 T1" */
static void outcome_text(const litmus *t, const outcome *o, const unsigned *schedule, char *text,
                         size_t len)
{
    size_t used = 0;
#define APPEND(...)                                                                          \
    do {                                                                                     \
        if (used < len) {                                                                    \
            int n_ = snprintf(text + used, len - used, __VA_ARGS__);                         \
            if (n_ > 0)                                                                      \
                used += (size_t)n_;                                                          \
        }                                                                                    \
    } while (0)
    text[0] = '\0';
    for (unsigned r = 0; r < t->reg_count; r++)
        APPEND("r%u=%llu ", r, (unsigned long long)o->values[r]);
    APPEND("| final");
    for (unsigned c = 0; c < t->cores; c++) {
        APPEND(c ? ", c%u:" : " c%u:", c);
        for (unsigned l = 0; l < t->loc_count; l++)
            APPEND(" %c=%llu", 'x' + l,
                   (unsigned long long)o->values[t->reg_count + c * t->loc_count + l]);
    }
    APPEND(" | interleaving");
    for (unsigned s = 0; s < step_count(t); s++)
        APPEND(" T%u", schedule[s]);
#undef APPEND
}

/* ------------------------------------------------------ the interleavings */

/* Runs one interleaving (schedule[s] = the thread of step s) and fills the
 * outcome; the flat memory or the model. */
typedef struct executor executor;
struct executor {
    void (*run)(executor *self, const litmus *t, const unsigned *schedule, outcome *o);
    outcome_set *outcomes;
    unsigned interleavings; /* run so far */
};

static void each_interleaving(executor *ex, const litmus *t, unsigned *pc, unsigned *schedule,
                              unsigned step, unsigned steps)
{
    if (step == steps) {
        outcome o = {{0}};
        ex->run(ex, t, schedule, &o);
        ex->interleavings++;
        outcome_add(t, ex->outcomes, &o, schedule, steps);
        return;
    }
    for (unsigned th = 0; th < t->thread_count; th++) {
        if (pc[th] == t->op_count[th])
            continue;
        schedule[step] = th;
        pc[th]++;
        each_interleaving(ex, t, pc, schedule, step + 1, steps);
        pc[th]--;
    }
}

static unsigned run_all_interleavings(executor *ex, const litmus *t)
{
    unsigned pc[MAX_THREADS] = {0};
    unsigned schedule[MAX_STEPS] = {0};
    ex->outcomes->count = 0;
    ex->interleavings = 0;
    each_interleaving(ex, t, pc, schedule, 0, step_count(t));
    return ex->outcomes->count;
}

/* Sequential consistency by definition: one memory, one operation at a time. */
static void run_flat(executor *self, const litmus *t, const unsigned *schedule, outcome *o)
{
    (void)self;
    uint64_t memory[MAX_LOCS] = {0};
    unsigned pc[MAX_THREADS] = {0};
    for (unsigned s = 0; s < step_count(t); s++) {
        const litmus_op *op = &t->ops[schedule[s]][pc[schedule[s]]++];
        if (op->store)
            memory[op->loc] = op->value;
        else
            o->values[op->reg] = memory[op->loc];
    }
    for (unsigned c = 0; c < t->cores; c++)
        for (unsigned l = 0; l < t->loc_count; l++)
            o->values[t->reg_count + c * t->loc_count + l] = memory[l];
}

/* Where the locations live and how big the caches are. */
typedef struct {
    const char *name;
    uint32_t size_bytes, ways, line_bytes;
    uint64_t addr[MAX_LOCS];
} layout;

static const layout layouts[] = {
    {"same line", 8192, 4, 32, {0x1000, 0x1004}},
    {"different lines", 8192, 4, 32, {0x1000, 0x2040}},
    /* one frame per cache: x and y evict each other (dirty: BusWB) */
    {"one-line caches", 32, 1, 32, {0x1000, 0x2000}},
};
enum { LAYOUTS = sizeof layouts / sizeof layouts[0] };

/* Summed over the interleavings of one run. */
typedef struct {
    uint64_t violations; /* the model's own checks */
    uint64_t writebacks; /* BusWB: evictions of dirty copies */
} model_tally;

typedef struct {
    executor base;
    stc_coh_protocol protocol;
    const stc_coh_table *table; /* NULL: the protocol's own */
    const layout *where;
    model_tally tally;
    unsigned model_errors; /* stc_coh_access refusals: never expected */
} model_executor;

static void run_model(executor *self, const litmus *t, const unsigned *schedule, outcome *o)
{
    model_executor *ex = (model_executor *)self;
    char err[ERR_LEN] = "";
    stc_coh_config config = {.cores = t->cores, .size_bytes = ex->where->size_bytes,
                             .ways = ex->where->ways, .line_bytes = ex->where->line_bytes,
                             .protocol = ex->protocol, .table = ex->table};
    stc_coh_system *system = stc_coh_create(&config, err, sizeof err);
    if (!system) {
        CHECK(system != NULL, "%s: create: %s", t->name, err);
        ex->model_errors++;
        return;
    }
    unsigned pc[MAX_THREADS] = {0};
    for (unsigned s = 0; s < step_count(t); s++) {
        const litmus_op *op = &t->ops[schedule[s]][pc[schedule[s]]++];
        uint64_t *loaded = op->store ? NULL : &o->values[op->reg];
        if (stc_coh_access(system, schedule[s], op->store ? STC_COH_OP_STORE : STC_COH_OP_LOAD,
                           ex->where->addr[op->loc], WORD, op->value, loaded) != 0)
            ex->model_errors++;
    }
    for (unsigned c = 0; c < t->cores; c++)
        for (unsigned l = 0; l < t->loc_count; l++)
            if (stc_coh_access(system, c, STC_COH_OP_LOAD, ex->where->addr[l], WORD, 0,
                               &o->values[t->reg_count + c * t->loc_count + l]) != 0)
                ex->model_errors++;
    stc_coh_counters total;
    stc_coh_total(system, &total);
    ex->tally.violations += stc_coh_violation_count(system);
    ex->tally.writebacks += total.bus_wb;
    stc_coh_destroy(system);
}

/* --------------------------------------------------------- the verdicts */

typedef struct {
    unsigned not_sc;    /* observed outcomes outside the SC set */
    unsigned forbidden; /* observed outcomes matching the forbidden one */
    unsigned sc_missed; /* SC outcomes no interleaving of the model gave */
    char first_not_sc[TEXT_LEN];
    char first_forbidden[TEXT_LEN];
} verdict;

static verdict judge(const litmus *t, const outcome_set *sc, const outcome_set *observed)
{
    verdict v = {0};
    for (unsigned i = 0; i < observed->count; i++) {
        const outcome *o = &observed->items[i];
        if (!outcome_in(t, sc, o) && v.not_sc++ == 0)
            outcome_text(t, o, observed->schedule[i], v.first_not_sc, sizeof v.first_not_sc);
        if (outcome_forbidden(t, o) && v.forbidden++ == 0)
            outcome_text(t, o, observed->schedule[i], v.first_forbidden, sizeof v.first_forbidden);
    }
    for (unsigned i = 0; i < sc->count; i++)
        if (!outcome_in(t, observed, &sc->items[i]))
            v.sc_missed++;
    return v;
}

static outcome_set sc_sets[TESTS];
static outcome_set observed_set; /* reused by every run */

static verdict run_on_model(const litmus *t, const outcome_set *sc, stc_coh_protocol protocol,
                            const stc_coh_table *table, const layout *where, model_tally *tally)
{
    model_executor ex = {.base = {.run = run_model, .outcomes = &observed_set},
                         .protocol = protocol, .table = table, .where = where};
    run_all_interleavings(&ex.base, t);
    CHECK_EQ_U64(ex.model_errors, 0, "%s %s %s: the model refused an access", t->name,
                 stc_coh_protocol_name(protocol), where->name);
    *tally = ex.tally;
    return judge(t, sc, &observed_set);
}

static unsigned test_index(const litmus *tests, const char *name)
{
    for (unsigned i = 0; i < TESTS; i++)
        if (strcmp(tests[i].name, name) == 0)
            return i;
    fprintf(stderr, "test_coherence_litmus: no test %s\n", name);
    exit(1);
}

static uint64_t factorial(unsigned n)
{
    return n <= 1 ? 1 : n * factorial(n - 1);
}

/* The SC sets, and the tests' own sanity: the forbidden outcome is not SC,
 * and the number of interleavings is the multinomial one. */
static void sc_outcomes(litmus *tests)
{
    for (unsigned i = 0; i < TESTS; i++) {
        tests[i] = parse_litmus(&litmus_texts[i]);
        const litmus *t = &tests[i];
        executor flat = {.run = run_flat, .outcomes = &sc_sets[i]};
        unsigned count = run_all_interleavings(&flat, t);
        CHECK(count > 1, "%s: %u SC outcomes", t->name, count);
        /* steps! / (ops of thread 0)! / (ops of thread 1)! ... */
        uint64_t multinomial = factorial(step_count(t));
        for (unsigned th = 0; th < t->thread_count; th++)
            multinomial /= factorial(t->op_count[th]);
        CHECK_EQ_U64(flat.interleavings, multinomial, "%s: interleavings", t->name);
        for (unsigned k = 0; k < count; k++) {
            char text[TEXT_LEN];
            outcome_text(t, &sc_sets[i].items[k], sc_sets[i].schedule[k], text, sizeof text);
            CHECK(!outcome_forbidden(t, &sc_sets[i].items[k]),
                  "%s: the forbidden outcome is SC: %s", t->name, text);
        }
    }
    /* MP's SC outcomes are exactly the three textbook ones (r0 r1 = 00,
     * 01, 11), each core finally reading x=1 y=1 */
    CHECK_EQ_U64(sc_sets[test_index(tests, "MP")].count, 3, "MP: SC outcomes");
}

/* ------------------------------------------------- the correct protocols */

static unsigned layout_index(const char *name)
{
    for (unsigned l = 0; l < LAYOUTS; l++)
        if (strcmp(layouts[l].name, name) == 0)
            return l;
    fprintf(stderr, "test_coherence_litmus: no layout %s\n", name);
    exit(1);
}


static void correct_tables(const litmus *tests)
{
    unsigned runs = 0, outcomes = 0;
    for (unsigned i = 0; i < TESTS; i++) {
        const litmus *t = &tests[i];
        for (unsigned p = 0; p < PROTOCOLS; p++) {
            for (unsigned l = 0; l < LAYOUTS; l++) {
                const char *pname = stc_coh_protocol_name(all_protocols[p]);
                model_tally tally;
                verdict v = run_on_model(t, &sc_sets[i], all_protocols[p], NULL, &layouts[l],
                                         &tally);
                CHECK(v.not_sc == 0, "%s %s %s: %u outcomes are not SC, first: %s", t->name, pname,
                      layouts[l].name, v.not_sc, v.first_not_sc);
                CHECK(v.forbidden == 0, "%s %s %s: forbidden outcome observed: %s", t->name, pname,
                      layouts[l].name, v.first_forbidden);
                CHECK(v.sc_missed == 0, "%s %s %s: %u SC outcomes never observed", t->name, pname,
                      layouts[l].name, v.sc_missed);
                CHECK_EQ_U64(tally.violations, 0, "%s %s %s: the model's own checks", t->name,
                             pname, layouts[l].name);
                /* the layouts do what they are for: only the caches of one
                 * line evict, and there a store to one location and an
                 * access to the other write the dirty copy back */
                bool evicts = l == layout_index("one-line caches") && t->loc_count == 2;
                CHECK(evicts ? tally.writebacks > 0 : tally.writebacks == 0,
                      "%s %s %s: %llu writebacks", t->name, pname, layouts[l].name,
                      (unsigned long long)tally.writebacks);
                runs++;
                outcomes += observed_set.count;
            }
        }
    }
    printf("test_coherence_litmus: %u tests x %u protocols x %u layouts, %u outcomes, all SC\n",
           TESTS, PROTOCOLS, LAYOUTS, outcomes);
    CHECK_EQ_U64(runs, TESTS * PROTOCOLS * LAYOUTS, "every run done");
}

/* --------------------------------------------------- the broken protocols */

/* What each break must show in every protocol it applies to, worked by
 * hand:
 *  no-invalidate  IRIW, every layout: two cores come to hold a line in S
 *                 (two readers, or a reader beside the writer), a store
 *                 from I is a BusRdX that leaves the S copies valid, and
 *                 a reader goes on reading the old value, also after the
 *                 test (CoRR does it in MSI only: a lone reader in MESI
 *                 and MOESI takes E, which BusRdX does invalidate);
 *  no-supply      SB in different lines: T0 and T1 each store (M), then
 *                 each load misses on the other's M line, which does not
 *                 supply: both read memory's 0, the forbidden r0=0 r1=0,
 *                 and none of the three SC outcomes appears;
 *  no-shared      CoRW, every layout (MESI, MOESI): T0's load takes E
 *                 beside T1's copy, its store is silent, T1 keeps 2 while
 *                 T0 reads 1: not SC, and the SC outcome with r0=2 never
 *                 appears.
 * The other catches are printed, one line per break and protocol. */
typedef struct {
    stc_coh_break which;
    const char *test;
    const char *layout; /* NULL: every layout */
    bool forbidden;     /* the forbidden outcome itself, not only a non-SC one */
    bool sc_missed;     /* and some SC outcome is never observed */
} expected_catch;

static const expected_catch expected_catches[] = {
    {STC_COH_BREAK_NO_INVALIDATE, "IRIW", NULL, false, false},
    {STC_COH_BREAK_NO_SUPPLY, "SB", "different lines", true, true},
    {STC_COH_BREAK_NO_SHARED, "CoRW", NULL, false, true},
};

static void broken_tables(const litmus *tests)
{
    static verdict verdicts[STC_COH_BREAK_COUNT][PROTOCOLS][TESTS][LAYOUTS];
    static bool applies[STC_COH_BREAK_COUNT][PROTOCOLS];
    for (unsigned b = 0; b < STC_COH_BREAK_COUNT; b++) {
        for (unsigned p = 0; p < PROTOCOLS; p++) {
            char err[ERR_LEN];
            stc_coh_table table = *stc_coh_table_of(all_protocols[p]);
            if (stc_coh_table_apply_break(&table, (stc_coh_break)b, err, sizeof err) != 0)
                continue; /* no-shared in MSI: nothing to break */
            applies[b][p] = true;
            char line[1024];
            int used = snprintf(line, sizeof line, "test_coherence_litmus: %s %s caught by",
                                stc_coh_break_name((stc_coh_break)b),
                                stc_coh_protocol_name(all_protocols[p]));
            unsigned caught = 0;
            for (unsigned i = 0; i < TESTS; i++) {
                unsigned layouts_caught = 0, layouts_forbidden = 0;
                for (unsigned l = 0; l < LAYOUTS; l++) {
                    model_tally tally;
                    verdict *v = &verdicts[b][p][i][l];
                    *v = run_on_model(&tests[i], &sc_sets[i], all_protocols[p], &table,
                                      &layouts[l], &tally);
                    layouts_caught += v->not_sc || v->forbidden;
                    layouts_forbidden += v->forbidden > 0;
                }
                if (layouts_caught && used > 0 && (size_t)used < sizeof line) {
                    char forbidden_text[32] = "";
                    if (layouts_forbidden)
                        snprintf(forbidden_text, sizeof forbidden_text, ", forbidden in %u",
                                 layouts_forbidden);
                    used += snprintf(line + used, sizeof line - (size_t)used, " %s(%u/%u%s)",
                                     tests[i].name, layouts_caught, LAYOUTS, forbidden_text);
                    caught++;
                }
            }
            printf("%s%s\n", line, caught ? "" : " nothing");
            CHECK(caught > 0, "%s %s: no litmus test catches it",
                  stc_coh_break_name((stc_coh_break)b), stc_coh_protocol_name(all_protocols[p]));
        }
    }
    for (size_t e = 0; e < sizeof expected_catches / sizeof expected_catches[0]; e++) {
        const expected_catch *want = &expected_catches[e];
        unsigned i = test_index(tests, want->test);
        for (unsigned p = 0; p < PROTOCOLS; p++) {
            if (!applies[want->which][p])
                continue;
            for (unsigned l = 0; l < LAYOUTS; l++) {
                if (want->layout && l != layout_index(want->layout))
                    continue;
                const verdict *v = &verdicts[want->which][p][i][l];
                const char *bname = stc_coh_break_name(want->which);
                const char *pname = stc_coh_protocol_name(all_protocols[p]);
                if (want->forbidden)
                    CHECK(v->forbidden > 0, "%s %s: %s %s shows no forbidden outcome", bname,
                          pname, want->test, layouts[l].name);
                else
                    CHECK(v->not_sc > 0, "%s %s: %s %s shows no non-SC outcome", bname, pname,
                          want->test, layouts[l].name);
                if (want->sc_missed)
                    CHECK(v->sc_missed > 0, "%s %s: %s %s gives every SC outcome", bname, pname,
                          want->test, layouts[l].name);
                if (p == PROTOCOLS - 1 && (want->layout || l == 0))
                    printf("test_coherence_litmus: e.g. %s %s %s %s: %s\n", bname, pname,
                           want->test, layouts[l].name,
                           want->forbidden ? v->first_forbidden : v->first_not_sc);
            }
        }
    }
}

int main(void)
{
    static litmus tests[TESTS];
    sc_outcomes(tests);
    correct_tables(tests);
    broken_tables(tests);
    return check_done("test_coherence_litmus");
}
