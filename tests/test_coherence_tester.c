/*
 * test_coherence_tester.c - a random protocol tester for the coherent model
 * (coherent.h, docs/COHERENCE.md 9.6), in the style of gem5's Ruby random
 * tester and MemTest: many cores (2, 4, 8) load and store a few shared
 * lines at random, every store writes a value no other store writes, and
 * every load is checked against the last store to its words in bus order,
 * kept here in a flat shadow of its own (not the model's shadow, and not
 * its violation counts).
 *
 * The shared lines are laid out three ways: two adjacent lines whose words
 * every core writes (false sharing, and 8-byte accesses straddling the two
 * lines), six lines 4 KiB apart in one set of a 2-way cache (conflict
 * evictions, writebacks of dirty lines, reloads of what was written back),
 * and 64-byte lines three to a set of a 2-way cache.
 *
 * A watchdog counts, per core, the attempts since the core's last reference
 * completed and reports a deadlock above a threshold. On the atomic bus a
 * reference completes in its call or is refused, so only a refusal can
 * stall a core; the check is kept for the split-transaction bus, where a
 * request can wait, and its own test shows it fires.
 *
 * Each check can fail: the tester finds deliberately broken tables, each
 * with a message naming the seed, the core, the address, the expected
 * value and the one the load got.
 */
#include "check.h"
#include "splitmix.h"
#include "coherent.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    WORD = 4,
    STORE_PERCENT = 40,
    EIGHT_BYTE_PERCENT = 25,
    /* attempts of one core without a completed reference before the
     * watchdog calls it a deadlock */
    NO_PROGRESS_LIMIT = 1000,
    MESSAGE_LEN = 1024,
    ERR_LEN = 256
};

static const uint64_t BASE_ADDR = 0x40000;

static const stc_coh_protocol all_protocols[] = {STC_COH_MSI, STC_COH_MESI, STC_COH_MOESI};
enum { PROTOCOLS = sizeof all_protocols / sizeof all_protocols[0] };

typedef struct {
    const char *name;
    uint32_t size_bytes, ways, line_bytes; /* every core's cache */
    unsigned lines;                        /* the shared lines */
    uint64_t stride;                       /* bytes from one shared line to the next */
} tester_layout;

static const tester_layout tester_layouts[] = {
    {"adjacent words", 8192, 4, 32, 2, 32},
    /* 4 sets of 2 ways: 4 KiB apart, all six lines fall in one set */
    {"large stride", 256, 2, 32, 6, 4096},
    /* 4 sets of 2 ways of 64 B: 192 B apart, lines k and k + 4 share a set
     * with a third, so some sets thrash and some do not */
    {"three to a set", 512, 2, 64, 12, 192},
};
enum { LAYOUTS = sizeof tester_layouts / sizeof tester_layouts[0] };

typedef struct {
    uint64_t seed;
    stc_coh_protocol protocol;
    const stc_coh_table *table; /* NULL: the protocol's own */
    const char *table_name;     /* in the messages: "msi", "msi no-supply", ... */
    unsigned cores;
    const tester_layout *where;
    uint64_t references;        /* completed references to run */
    int refused_core;           /* -1, or a core whose requests the model refuses (the watchdog's test) */
} tester_run;

typedef struct {
    bool failed;
    char message[MESSAGE_LEN];
    uint64_t references;        /* completed */
    uint64_t loads_checked;
    uint64_t eight_byte;        /* 8-byte references completed */
    uint64_t model_violations;  /* the model's own checks, for comparison only */
    stc_coh_counters total;
    stc_coh_row_uses uses;      /* how often each row of the table ran */
} tester_result;

/* One outstanding request per core, as a core with a blocking cache has. */
typedef struct {
    bool pending;
    bool store;
    unsigned word;    /* index into the tested words */
    uint32_t size;    /* 4, or 8 over word and word + 1 */
    uint64_t value;   /* store */
    unsigned refused; /* attempts since this core's last completed reference */
} core_request;

/* The flat shadow: per tested word the value of the last store to it in
 * bus order, and which store that was (for the messages). */
typedef struct {
    uint32_t value;
    unsigned core;
    uint64_t reference;
} shadow_word;

static unsigned words_of(const tester_layout *where)
{
    return where->lines * (where->line_bytes / WORD);
}

static uint64_t word_addr(const tester_layout *where, unsigned word)
{
    unsigned per_line = where->line_bytes / WORD;
    return BASE_ADDR + (uint64_t)(word / per_line) * where->stride + (uint64_t)(word % per_line) * WORD;
}

static void describe(const tester_run *run, char *text, size_t len)
{
    snprintf(text, len, "seed %llu, %s, %u cores, %s (%u lines of %u B, stride %llu, %u B %u-way caches)",
             (unsigned long long)run->seed, run->table_name, run->cores, run->where->name,
             run->where->lines, run->where->line_bytes, (unsigned long long)run->where->stride,
             run->where->size_bytes, run->where->ways);
}

static void new_request(const tester_run *run, core_request *request, uint64_t *rng,
                        uint32_t *store_counter)
{
    const tester_layout *where = run->where;
    uint64_t r = rng_next(rng);
    unsigned words = words_of(where);
    request->pending = true;
    request->store = r % 100 < STORE_PERCENT;
    request->word = (unsigned)((r >> 8) % words);
    request->size = WORD;
    if ((r >> 40) % 100 < EIGHT_BYTE_PERCENT && request->word + 1 < words &&
        word_addr(where, request->word + 1) == word_addr(where, request->word) + WORD)
        request->size = 2 * WORD;
    /* every store's words get values no other store writes; 0 is memory's
     * reset value, never stored */
    uint64_t low = ++*store_counter;
    request->value = low;
    if (request->size == 2 * WORD)
        request->value |= (uint64_t)++*store_counter << 32;
}

static tester_result run_tester(const tester_run *run)
{
    tester_result result = {0};
    char what[300];
    describe(run, what, sizeof what);
    char err[ERR_LEN] = "";
    stc_coh_config config = {.cores = run->cores, .size_bytes = run->where->size_bytes,
                             .ways = run->where->ways, .line_bytes = run->where->line_bytes,
                             .protocol = run->protocol, .table = run->table};
    stc_coh_system *system = stc_coh_create(&config, err, sizeof err);
    if (!system) {
        result.failed = true;
        snprintf(result.message, sizeof result.message, "%s: create: %s", what, err);
        return result;
    }
    unsigned words = words_of(run->where);
    shadow_word *shadow = calloc(words, sizeof *shadow);
    if (!shadow) {
        fprintf(stderr, "test_coherence_tester: out of memory\n");
        exit(1);
    }
    core_request requests[STC_COH_MAX_CORES] = {{0}};
    uint64_t rng = run->seed;
    uint32_t store_counter = 0;
    while (result.references < run->references && !result.failed) {
        unsigned core = (unsigned)(rng_next(&rng) % run->cores);
        core_request *request = &requests[core];
        if (!request->pending)
            new_request(run, request, &rng, &store_counter);
        uint64_t addr = word_addr(run->where, request->word);
        /* the watchdog's own test: a request the model must refuse */
        uint32_t size = (int)core == run->refused_core ? run->where->line_bytes + 1 : request->size;
        uint64_t loaded = 0;
        int rc = stc_coh_access(system, core, request->store ? STC_COH_OP_STORE : STC_COH_OP_LOAD,
                                addr, size, request->value, &loaded);
        if (rc != 0) {
            if (++request->refused > NO_PROGRESS_LIMIT) {
                result.failed = true;
                snprintf(result.message, sizeof result.message,
                         "%s: deadlock: core %u completed nothing in %u attempts, pending %s of %u "
                         "bytes at 0x%llx (%s)",
                         what, core, NO_PROGRESS_LIMIT, request->store ? "store" : "load", size,
                         (unsigned long long)addr, stc_coh_error(system));
            }
            continue;
        }
        request->pending = false;
        request->refused = 0;
        unsigned covered = request->size / WORD;
        if (request->store) {
            for (unsigned k = 0; k < covered; k++)
                shadow[request->word + k] = (shadow_word){
                    .value = (uint32_t)(request->value >> (32 * k)),
                    .core = core,
                    .reference = result.references};
        } else {
            uint64_t expected = 0;
            for (unsigned k = 0; k < covered; k++)
                expected |= (uint64_t)shadow[request->word + k].value << (32 * k);
            result.loads_checked++;
            if (loaded != expected) {
                const shadow_word *last = &shadow[request->word];
                for (unsigned k = 0; k < covered; k++)
                    if ((uint32_t)(loaded >> (32 * k)) != shadow[request->word + k].value)
                        last = &shadow[request->word + k];
                result.failed = true;
                snprintf(result.message, sizeof result.message,
                         "%s: core %u load of %u bytes at 0x%llx (reference %llu): expected "
                         "0x%llx, got 0x%llx (the last store there: core %u, reference %llu)",
                         what, core, request->size, (unsigned long long)addr,
                         (unsigned long long)result.references, (unsigned long long)expected,
                         (unsigned long long)loaded, last->core,
                         (unsigned long long)last->reference);
            }
        }
        if (request->size == 2 * WORD)
            result.eight_byte++;
        result.references++;
    }
    result.model_violations = stc_coh_violation_count(system);
    stc_coh_total(system, &result.total);
    result.uses = *stc_coh_row_uses_of(system);
    free(shadow);
    stc_coh_destroy(system);
    return result;
}

/* ------------------------------------------------ the correct protocols */

enum { CORRECT_REFERENCES = 100000 };

/* Every row of the table that can happen ran in the runs of one protocol
 * (uses summed over them): the coverage [coherence-rtl]'s testers report.
 * (I, Evict) is a row but no model evicts an invalid copy. */
static void check_row_coverage(stc_coh_protocol protocol, const stc_coh_row_uses *uses)
{
    const stc_coh_table *table = stc_coh_table_of(protocol);
    unsigned rows = 0, ran = 0;
    for (unsigned s = 0; s < table->state_count; s++) {
        stc_coh_state state = table->states[s];
        for (unsigned e = 0; e < STC_COH_PROC_EVENT_COUNT; e++) {
            const stc_coh_proc_row *row = stc_coh_proc_lookup(table, state, (stc_coh_proc_event)e);
            if (!row || row->impossible || (state == STC_COH_I && e == STC_COH_EVICT))
                continue;
            rows++;
            ran += uses->proc[state][e] > 0;
            CHECK(uses->proc[state][e] > 0, "%s: the tester never ran (%s, %s)",
                  stc_coh_protocol_name(protocol), stc_coh_state_name(state),
                  stc_coh_proc_event_name((stc_coh_proc_event)e));
        }
        for (unsigned b = STC_COH_BUS_NONE + 1; b < STC_COH_BUS_COUNT; b++) {
            const stc_coh_snoop_row *row = stc_coh_snoop_lookup(table, state, (stc_coh_bus)b);
            if (!row || row->impossible)
                continue;
            rows++;
            ran += uses->snoop[state][b] > 0;
            CHECK(uses->snoop[state][b] > 0, "%s: the tester never ran (%s snoops %s)",
                  stc_coh_protocol_name(protocol), stc_coh_state_name(state),
                  stc_coh_bus_name((stc_coh_bus)b));
        }
    }
    printf("test_coherence_tester: %s: %u of %u rows that can happen ran\n",
           stc_coh_protocol_name(protocol), ran, rows);
}

static void add_uses(stc_coh_row_uses *sum, const stc_coh_row_uses *part)
{
    for (unsigned s = 0; s < STC_COH_STATE_COUNT; s++) {
        for (unsigned e = 0; e < STC_COH_PROC_EVENT_COUNT; e++)
            sum->proc[s][e] += part->proc[s][e];
        for (unsigned b = 0; b < STC_COH_BUS_COUNT; b++)
            sum->snoop[s][b] += part->snoop[s][b];
    }
}

static void correct_tables(void)
{
    static const unsigned core_counts[] = {2, 4, 8};
    uint64_t references = 0, loads = 0, seed = 1;
    for (unsigned p = 0; p < PROTOCOLS; p++) {
        stc_coh_row_uses uses;
        memset(&uses, 0, sizeof uses);
        for (size_t n = 0; n < sizeof core_counts / sizeof core_counts[0]; n++) {
            for (unsigned l = 0; l < LAYOUTS; l++) {
                tester_run run = {.seed = seed++, .protocol = all_protocols[p],
                                  .table_name = stc_coh_protocol_name(all_protocols[p]),
                                  .cores = core_counts[n], .where = &tester_layouts[l],
                                  .references = CORRECT_REFERENCES, .refused_core = -1};
                tester_result got = run_tester(&run);
                char what[300];
                describe(&run, what, sizeof what);
                CHECK(!got.failed, "%s", got.message);
                CHECK_EQ_U64(got.references, CORRECT_REFERENCES, "%s: references", what);
                CHECK_EQ_U64(got.model_violations, 0, "%s: the model's own checks", what);
                /* the run did what its layout is for */
                const stc_coh_counters *t = &got.total;
                CHECK(got.loads_checked > CORRECT_REFERENCES / 2 && got.eight_byte > 0,
                      "%s: %llu loads checked, %llu 8-byte references", what,
                      (unsigned long long)got.loads_checked, (unsigned long long)got.eight_byte);
                CHECK(t->c2c_received > 0 && t->inv_received > 0 && t->miss_true_sharing > 0,
                      "%s: sharing: %llu transfers, %llu invalidations", what,
                      (unsigned long long)t->c2c_received, (unsigned long long)t->inv_received);
                if (l == 0)
                    CHECK(t->miss_false_sharing > 0 && t->hits + t->misses > t->references &&
                              t->bus_wb == 0,
                          "%s: false sharing %llu, no evictions", what,
                          (unsigned long long)t->miss_false_sharing);
                else
                    CHECK(t->bus_wb > 0 && t->miss_conflict + t->miss_capacity > 0,
                          "%s: evictions: %llu writebacks, %llu replacement misses", what,
                          (unsigned long long)t->bus_wb,
                          (unsigned long long)(t->miss_conflict + t->miss_capacity));
                references += got.references;
                loads += got.loads_checked;
                add_uses(&uses, &got.uses);
            }
        }
        check_row_coverage(all_protocols[p], &uses);
    }
    printf("test_coherence_tester: %llu references, %llu loads checked, no failure in msi, mesi, "
           "moesi\n",
           (unsigned long long)references, (unsigned long long)loads);
}

/* Same seed, same run: the counters of two runs agree. */
static void deterministic(void)
{
    tester_run run = {.seed = 77, .protocol = STC_COH_MOESI, .table_name = "moesi", .cores = 8,
                      .where = &tester_layouts[1], .references = 20000, .refused_core = -1};
    tester_result first = run_tester(&run);
    tester_result second = run_tester(&run);
    for (unsigned i = 0; i < STC_COH_COUNTER_COUNT; i++)
        CHECK_EQ_U64(stc_coh_counter_value(&second.total, i),
                     stc_coh_counter_value(&first.total, i), "seed 77 again: %s",
                     stc_coh_counter_name(i));
    run.seed = 78;
    tester_result other = run_tester(&run);
    CHECK(other.total.misses != first.total.misses || other.total.bus_wb != first.total.bus_wb,
          "seeds 77 and 78 gave the same run");
}

/* ------------------------------------------------- the broken protocols */

/* Breaks of one row that coherence_protocol.h does not offer, made here by
 * editing a copy of the table: */
typedef enum {
    EDIT_NO_UPGRADE_INVALIDATE, /* S snooping BusUpgr stays S: an upgrade leaves the others' copies */
    EDIT_OWNER_NO_SUPPLY,       /* MOESI: O snooping BusRd does not supply: memory is stale */
    EDIT_COUNT
} table_edit;

static const char *const edit_names[EDIT_COUNT] = {"no-upgrade-invalidate", "owner-no-supply"};

static int apply_edit(stc_coh_table *table, table_edit edit)
{
    for (unsigned i = 0; i < table->snoop_row_count; i++) {
        stc_coh_snoop_row *row = &table->snoop_rows[i];
        if (edit == EDIT_NO_UPGRADE_INVALIDATE && row->state == STC_COH_S &&
            row->bus == STC_COH_BUS_UPGR) {
            row->next = STC_COH_S;
            return 0;
        }
        if (edit == EDIT_OWNER_NO_SUPPLY && row->state == STC_COH_O && row->bus == STC_COH_BUS_RD &&
            row->supplies) {
            row->supplies = false;
            return 0;
        }
    }
    return -1;
}

static void expect_caught(stc_coh_protocol protocol, const stc_coh_table *table, const char *name)
{
    char err[ERR_LEN];
    CHECK(stc_coh_table_check(table, err, sizeof err) == 0, "%s: %s", name, err);
    tester_run run = {.seed = 2024, .protocol = protocol, .table = table, .table_name = name,
                      .cores = 4, .where = &tester_layouts[0], .references = CORRECT_REFERENCES,
                      .refused_core = -1};
    tester_result got = run_tester(&run);
    CHECK(got.failed, "%s: the tester found nothing in %llu references", name,
          (unsigned long long)got.references);
    CHECK(strstr(got.message, "seed 2024") && strstr(got.message, "core ") &&
              strstr(got.message, "expected 0x") && strstr(got.message, "got 0x"),
          "%s: the message names seed, core, address, expected and got: %s", name, got.message);
    if (got.failed)
        printf("test_coherence_tester: caught after %llu references: %s\n",
               (unsigned long long)got.references, got.message);
}

static void broken_tables(void)
{
    char name[64], err[ERR_LEN];
    for (unsigned p = 0; p < PROTOCOLS; p++) {
        const char *pname = stc_coh_protocol_name(all_protocols[p]);
        for (unsigned b = 0; b < STC_COH_BREAK_COUNT; b++) {
            stc_coh_table table = *stc_coh_table_of(all_protocols[p]);
            if (stc_coh_table_apply_break(&table, (stc_coh_break)b, err, sizeof err) != 0)
                continue; /* no-shared in MSI: nothing to break */
            snprintf(name, sizeof name, "%s %s", pname, stc_coh_break_name((stc_coh_break)b));
            expect_caught(all_protocols[p], &table, name);
        }
        for (unsigned e = 0; e < EDIT_COUNT; e++) {
            stc_coh_table table = *stc_coh_table_of(all_protocols[p]);
            if (apply_edit(&table, (table_edit)e) != 0)
                continue; /* owner-no-supply: only MOESI has O */
            snprintf(name, sizeof name, "%s %s", pname, edit_names[e]);
            expect_caught(all_protocols[p], &table, name);
        }
    }
    stc_coh_table moesi = *stc_coh_table_of(STC_COH_MOESI);
    CHECK(apply_edit(&moesi, EDIT_OWNER_NO_SUPPLY) == 0, "moesi has an O that supplies BusRd");
}

/* The watchdog fires: core 1's every request is refused, the others go on. */
static void watchdog(void)
{
    tester_run run = {.seed = 5, .protocol = STC_COH_MESI, .table_name = "mesi", .cores = 4,
                      .where = &tester_layouts[0], .references = CORRECT_REFERENCES,
                      .refused_core = 1};
    tester_result got = run_tester(&run);
    CHECK(got.failed && strstr(got.message, "deadlock: core 1 ") != NULL,
          "a core that never completes is reported: %s", got.message);
    CHECK(got.references > 0 && got.references < CORRECT_REFERENCES,
          "the other cores went on until the watchdog fired (%llu references)",
          (unsigned long long)got.references);
    if (got.failed)
        printf("test_coherence_tester: the watchdog: %s\n", got.message);
}

int main(void)
{
    correct_tables();
    deterministic();
    broken_tables();
    watchdog();
    return check_done("test_coherence_tester");
}
