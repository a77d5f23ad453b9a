/*
 * monitor_lockstep.c - the generated stc_monitor (under Verilator,
 * tb_monitor.cpp) against the C model ref/monitor.c with the hardware's
 * clear walk, every cycle: every count of the read port and the dropped
 * count must be equal, or the run stops at the first difference with its
 * cycle, scenario and count.
 *
 * The model is the functional monitor, itself checked against 27 real
 * cache models (tests/test_monitor.c), so this is an independent oracle
 * for the RTL's stacks, not a copy of them. Timing (ARCHITECTURE.md 17):
 * an event counts at the end of the cycle after its own, so the model
 * observes each event one cycle late; an event in the cycle after one
 * that accessed the arrays is dropped by the RTL and not given to the
 * model.
 *
 * Scenarios: a program-like stream (hot lines, sequential runs, far
 * lines, stores) with at least one idle cycle between events, long enough
 * for rotations, clear walks and the halving of every count; back-to-back
 * events (drops); runs of one line (the repeat path, first stores).
 * Geometry and shape come from the generated stc_geometry_gen.h.
 */
#include "monitor.h"
#include "monitor_dut.h"
#include "stc_geometry_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_COUNTS = 512 };

typedef struct {
    monitor_dut *dut;
    stc_monitor *model;
    stc_geometry geometry;
    bool read_only;
    const char *scenario;
    unsigned long cycle;
    bool failed;
    /* The event of the previous cycle, given to the model now. */
    bool pending;
    uint64_t pending_line;
    bool pending_write;
    uint16_t dropped;    /* the model's count of refused events */
    uint64_t events, drops, halvings;
    uint32_t rng;
} harness;

static uint32_t next_random(uint32_t *state)
{
    uint32_t x = *state ? *state : 1;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}

static void compare(harness *h)
{
    uint64_t counts[MAX_COUNTS];
    size_t count = stc_monitor_counts(h->model, counts, MAX_COUNTS);
    if (count != STC_GEN_MONITOR_COUNTS) {
        fprintf(stderr, "monitor_lockstep: FAIL: the model has %zu counts, the RTL %u\n", count,
                STC_GEN_MONITOR_COUNTS);
        h->failed = true;
        return;
    }
    for (unsigned index = 0; index < count && !h->failed; index++) {
        uint16_t rtl = monitor_dut_count(h->dut, index);
        if (rtl != counts[index]) {
            fprintf(stderr,
                    "monitor_lockstep: FAIL scenario %s, cycle %lu: count %u: RTL %u, model "
                    "%llu\n",
                    h->scenario, h->cycle, index, rtl, (unsigned long long)counts[index]);
            h->failed = true;
        }
    }
    if (!h->failed && monitor_dut_count(h->dut, (unsigned)count) != 0) {
        fprintf(stderr, "monitor_lockstep: FAIL cycle %lu: count %zu (beyond the last) not 0\n",
                h->cycle, count);
        h->failed = true;
    }
    uint16_t dropped = monitor_dut_dropped(h->dut);
    if (!h->failed && dropped != h->dropped) {
        fprintf(stderr, "monitor_lockstep: FAIL scenario %s, cycle %lu: dropped: RTL %u, model %u\n",
                h->scenario, h->cycle, dropped, h->dropped);
        h->failed = true;
    }
}

static uint64_t line_address(const harness *h, uint64_t line)
{
    return line << h->geometry.offset_bits;
}

/* One cycle: the model takes the previous cycle's event, the RTL this
 * one's; then every count is compared. */
static void cycle(harness *h, bool valid, uint64_t line, bool write)
{
    bool array = false;
    if (h->pending) {
        uint64_t before = stc_monitor_array_accesses(h->model);
        uint64_t watched = stc_monitor_watched(h->model);
        stc_monitor_observe(h->model, line_address(h, h->pending_line), h->pending_write);
        array = stc_monitor_array_accesses(h->model) != before;
        h->halvings += stc_monitor_watched(h->model) < watched;
        h->pending = false;
    }
    bool dropped = valid && array; /* stage 1 writes the arrays this cycle */
    monitor_dut_step(h->dut, valid, line, write);
    h->cycle++;
    if (valid && dropped) {
        h->drops++;
        h->dropped = h->dropped == 0xffff ? 0xffff : (uint16_t)(h->dropped + 1);
    } else if (valid) {
        h->events++;
        h->pending = true;
        h->pending_line = line;
        h->pending_write = write;
    }
    /* Every cycle at first, then every 16th: a wrong count stays wrong. */
    if (h->cycle < 50000 || h->cycle % 16 == 0) {
        compare(h);
    }
}

/* A program-like stream of physical line numbers: a hot set reused at
 * every stack depth, sequential runs (logical lines of several physical
 * lines), and far lines that alias in the partial tags. */
static uint64_t next_line(harness *h, uint64_t *run)
{
    uint64_t line_mask = (h->geometry.addr_mask >> h->geometry.offset_bits);
    uint32_t pick = next_random(&h->rng) % 100;
    if (pick < 55) {
        /* hot: 96 lines spread over 8 K of lines */
        return ((uint64_t)(next_random(&h->rng) % 96) * 37) & line_mask;
    }
    if (pick < 85) {
        *run = (*run + 1) & line_mask;
        if (next_random(&h->rng) % 64 == 0) {
            *run = next_random(&h->rng) & line_mask;
        }
        return *run;
    }
    return ((uint64_t)next_random(&h->rng) << 7 ^ next_random(&h->rng)) & line_mask;
}

/* Events of the program-like stream, each followed by 1 .. max_gap idle
 * cycles (max_gap 0: back to back, so the RTL drops some). */
static void stream_events(harness *h, const char *scenario, unsigned long events,
                          unsigned max_gap)
{
    h->scenario = scenario;
    uint64_t run = 0;
    for (unsigned long index = 0; index < events && !h->failed; index++) {
        uint64_t line = next_line(h, &run);
        bool write = !h->read_only && next_random(&h->rng) % 100 < 30;
        cycle(h, true, line, write);
        unsigned gap = max_gap ? 1 + next_random(&h->rng) % max_gap : 0;
        for (unsigned idle = 0; idle < gap && !h->failed; idle++) {
            cycle(h, false, next_random(&h->rng), next_random(&h->rng) & 1);
        }
    }
    cycle(h, false, 0, false);
}

/* Runs of one line: loads (repeats counted without the arrays), then
 * stores (the first touches the arrays, the rest do not). */
static void repeats(harness *h, unsigned long runs)
{
    h->scenario = "repeats";
    uint64_t run = 0;
    for (unsigned long index = 0; index < runs && !h->failed; index++) {
        uint64_t line = next_line(h, &run);
        unsigned length = 1 + next_random(&h->rng) % 6;
        for (unsigned step = 0; step < length && !h->failed; step++) {
            bool write = !h->read_only && step >= length / 2 && (next_random(&h->rng) & 1);
            cycle(h, true, line, write);
            cycle(h, false, 0, false);
        }
    }
}

int monitor_lockstep_main(monitor_dut *dut, bool read_only, int argc, char **argv)
{
    unsigned long events = argc > 1 ? strtoul(argv[1], NULL, 10) : 300000;
    harness h;
    memset(&h, 0, sizeof h);
    h.dut = dut;
    h.read_only = read_only;
    h.rng = 0x2545f491u;
    stc_geometry_default(&h.geometry);
    h.geometry.banks = STC_GEN_BANKS;
    h.geometry.bank_bytes = STC_GEN_BANK_BYTES;
    h.geometry.line_bytes = STC_GEN_LINE_BYTES;
    h.geometry.addr_bits = STC_GEN_ADDR_BITS;
    char err[256];
    if (stc_geometry_init(&h.geometry, err, sizeof err) != 0) {
        fprintf(stderr, "monitor_lockstep: %s\n", err);
        return 1;
    }
    stc_monitor_shape shape = {
        .sample_bits = STC_GEN_MONITOR_SAMPLE_BITS,
        .rotate_every = STC_GEN_MONITOR_ROTATE,
        .tag_bits = STC_GEN_MONITOR_TAG_BITS,
        .read_only = read_only,
        .counter_bits = 16,
        .clear_walk = true,
    };
    h.model = stc_monitor_create(&h.geometry, &shape, err, sizeof err);
    if (!h.model) {
        fprintf(stderr, "monitor_lockstep: %s\n", err);
        return 1;
    }
    if (stc_monitor_clear_rows(h.model) != STC_GEN_MONITOR_CLEAR_ROWS) {
        fprintf(stderr, "monitor_lockstep: FAIL: clear walk of %u rows, the RTL's %u\n",
                stc_monitor_clear_rows(h.model), STC_GEN_MONITOR_CLEAR_ROWS);
        return 1;
    }
    monitor_dut_reset(dut);
    compare(&h);
    stream_events(&h, "program stream", events, 3);
    repeats(&h, events / 20);
    stream_events(&h, "back-to-back events", events / 20, 0);
    stream_events(&h, "program stream", events / 10, 3);
    unsigned long long lookups = stc_monitor_lookups(h.model);
    unsigned long long array = stc_monitor_array_accesses(h.model);
    stc_monitor_destroy(h.model);
    printf("monitor_lockstep: %s: %lu cycles, %llu events (%llu watched, %llu array accesses), "
           "%llu dropped, %llu halvings\n",
           read_only ? "read-only" : "read-write", h.cycle, (unsigned long long)h.events, lookups,
           array, (unsigned long long)h.drops, (unsigned long long)h.halvings);
    /* The run must have reached what it is meant to check. */
    if (!h.failed && (h.drops == 0 || array == 0 || lookups == array ||
                      (events >= 300000 && h.halvings == 0))) {
        fprintf(stderr, "monitor_lockstep: FAIL: the run missed drops, repeats or halvings\n");
        h.failed = true;
    }
    if (h.failed) {
        return 1;
    }
    printf("monitor_lockstep: PASS\n");
    return 0;
}
