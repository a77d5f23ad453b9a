/*
 * monitor_lockstep.c - the generated stc_monitor and stc_monitor_tuner
 * (wired by tb_monitor_top.v, under Verilator through tb_monitor.cpp)
 * against the C models ref/monitor.c (with the hardware's clear walk) and
 * ref/monitor_tuner.c, every cycle: every count of the monitor, the
 * rows it wrote back, the unit's count select, its configuration port and busy,
 * and all of its registers must be equal, or the run stops at the first
 * difference with its cycle, scenario and what differed.
 *
 * The monitor model is the functional monitor, itself checked against 27
 * real cache models (tests/test_monitor.c), so this is an independent
 * oracle for the RTL's stacks, not a copy of them; the unit's model runs
 * the same program the generator wrote into the RTL (the program itself
 * is checked against stc_fixed_monitor_energy in test_monitor_tuner.c).
 * Timing (ARCHITECTURE.md 17-18): an event counts at the end of the cycle
 * after its own, and the count port shows it from that cycle on (stage
 * 1's increments included), so the monitor model observes each event at
 * the start of the next cycle and the unit reads the counts after every
 * earlier event. Events may come every cycle: one in the cycle after an
 * array event reads the rows that event's stage 1 writes (17.3).
 *
 * Around the unit the harness plays the controller: a change offered is
 * accepted after 0-3 cycles and done then or up to 20 cycles later, and no
 * access completes meanwhile; the configuration in use is the last one
 * done. Now and then software disables and re-enables the unit.
 *
 * Scenarios: a program-like stream (hot lines, sequential runs, far
 * lines, stores) with at least one idle cycle between events, long enough
 * for rotations, clear walks, the halving of every count and many
 * decisions; back-to-back events (an array event's stage 1 in the cycle
 * of the next, which must read the rows it writes); runs of one line (the repeat
 * path, first stores). Geometry and shape come from the generated
 * stc_geometry_gen.h.
 */
#include "energy.h"
#include "fixed.h"
#include "monitor.h"
#include "monitor_dut.h"
#include "monitor_tuner.h"
#include "stc_geometry_gen.h"
#include "tuner_hw.h"

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
    uint64_t events, halvings;
    uint64_t array_after_array; /* array events in the cycle after another */
    uint32_t rng;
    /* The decision unit's model and the controller the harness plays. */
    stc_monitor_program program;
    stc_monitor_tuner unit;
    unsigned cur_code;   /* the configuration in use */
    unsigned accept_in;  /* cycles until an offered change is accepted */
    bool changing;       /* accepted, not yet done */
    unsigned done_in;    /* cycles until done */
    unsigned target;     /* the configuration accepted */
    uint64_t decisions;
    /* decisions whose last step found count 0 halved, and those of them
     * the energies alone would have moved (the halving check held them) */
    uint64_t halved_decisions, halved_held;
    uint64_t evidence_held; /* moves held: they walk, on too few watched accesses */
    uint64_t phase_events; /* events per phase of the program-like stream */
    unsigned disabled_for; /* cycles the unit stays disabled */
    unsigned codes[STC_MAX_CONFIGS]; /* the legal configurations, packed */
    size_t code_count;
    uint64_t software_moves; /* configuration changes software made */
    uint64_t changes_done;
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
    monitor_dut_out out;
    monitor_dut_outputs(h->dut, &out);
    /* The rows written back: the model charges write energy only for
     * these (a row a depth-0 hit leaves as it was is not written). */
    uint64_t model_writes = 0;
    for (size_t array = 0; array < STC_MONITOR_MAX_ARRAYS; array++) {
        model_writes += stc_monitor_row_writes(h->model, array);
    }
    if (!h->failed && out.watched != counts[0]) {
        fprintf(stderr,
                "monitor_lockstep: FAIL scenario %s, cycle %lu: watched_o: RTL %u, model count 0 "
                "%llu\n",
                h->scenario, h->cycle, out.watched, (unsigned long long)counts[0]);
        h->failed = true;
    }
    if (!h->failed && out.row_writes != (uint32_t)model_writes) {
        fprintf(stderr,
                "monitor_lockstep: FAIL scenario %s, cycle %lu: rows written back: RTL %u, "
                "model %llu\n",
                h->scenario, h->cycle, out.row_writes, (unsigned long long)model_writes);
        h->failed = true;
    }
}

/* The unit's outputs and registers, every cycle. */
static void compare_unit(harness *h)
{
    monitor_dut_out out;
    monitor_dut_outputs(h->dut, &out);
    stc_monitor_tuner_out model;
    stc_monitor_tuner_outputs(&h->unit, &model);
    unsigned select = stc_monitor_tuner_count_select(&h->unit);
    if (out.cfg_valid != model.cfg_valid || out.busy != model.busy ||
        out.tuner_sel != select || (model.cfg_valid && out.cfg_code != model.cfg_code)) {
        fprintf(stderr,
                "monitor_lockstep: FAIL scenario %s, cycle %lu: unit outputs: RTL valid %d code "
                "%03x busy %d select %u, model valid %d code %03x busy %d select %u\n",
                h->scenario, h->cycle, out.cfg_valid, out.cfg_code, out.busy, out.tuner_sel,
                model.cfg_valid, model.cfg_code, model.busy, select);
        h->failed = true;
        return;
    }
    for (unsigned addr = 0; addr < (1u << STC_MREG_ADDR_BITS) && !h->failed; addr++) {
        uint32_t rtl = monitor_dut_register(h->dut, addr);
        uint32_t want = stc_monitor_tuner_read(&h->unit, addr);
        if (rtl != want) {
            fprintf(stderr,
                    "monitor_lockstep: FAIL scenario %s, cycle %lu: unit register %u: RTL %08x, "
                    "model %08x\n",
                    h->scenario, h->cycle, addr, rtl, want);
            h->failed = true;
        }
    }
}

/* The controller's side of the configuration port this cycle. */
static void play_controller(harness *h, monitor_dut_in *in)
{
    stc_monitor_tuner_out model;
    stc_monitor_tuner_outputs(&h->unit, &model);
    if (model.cfg_valid) {
        if (h->accept_in > 0) {
            h->accept_in--;
        } else {
            in->cfg_ready = true;
            h->done_in = next_random(&h->rng) % 2 ? 0 : 1 + next_random(&h->rng) % 20;
            h->changing = true;
            h->accept_in = next_random(&h->rng) % 4;
            h->target = model.cfg_code;
        }
    }
    if (h->changing) {
        if (h->done_in == 0) {
            in->cfg_done = true;
            h->changing = false;
        } else {
            h->done_in--;
        }
    }
}

static uint64_t line_address(const harness *h, uint64_t line)
{
    return line << h->geometry.offset_bits;
}

/* Software now and then disables the unit for a while, and now and then
 * moves the cache to a random configuration when the unit is not using
 * the port (so that decisions start from poor ones and move). */
/* Inside a decision, a few events before the counts fill (count 0
 * reaches 2^STC_GEN_MONITOR_COUNT_BITS first; every time, not only the first): a software move
 * then closes the configuration in use with no energy (section 18.3: all
 * ones), so the decision the halving lands in would move to any lowest,
 * unless its last step sees the halving. */
static bool near_halving(const harness *h)
{
    uint64_t counts[MAX_COUNTS];
    uint64_t watched = stc_monitor_counts(h->model, counts, MAX_COUNTS) ? counts[0] : 0;
    uint64_t steps_left = h->program.step_count - 1 - h->unit.q.step;
    const uint64_t limit = (uint64_t)1 << STC_GEN_MONITOR_COUNT_BITS;
    return h->unit.q.deciding && watched < limit && limit - watched + 4 < steps_left;
}

static void play_software(harness *h, monitor_dut_in *in)
{
    stc_monitor_tuner_out model;
    stc_monitor_tuner_outputs(&h->unit, &model);
    if (!in->valid && !model.busy && !h->changing &&
        (near_halving(h) || next_random(&h->rng) % 3000 == 0)) {
        h->cur_code = h->codes[next_random(&h->rng) % h->code_count];
        h->software_moves++;
    }
    if (h->disabled_for > 0) {
        if (--h->disabled_for == 0) {
            in->reg_we = true;
            in->reg_addr = STC_MREG_CTRL;
            in->reg_wdata = 1;
        }
    } else if (next_random(&h->rng) % 20000 == 0) {
        in->reg_we = true;
        in->reg_addr = STC_MREG_CTRL;
        in->reg_wdata = 0xfffffffe; /* only bit 0 counts */
        h->disabled_for = 1000 + next_random(&h->rng) % 3000;
    }
}

/* The monitor model takes the previous cycle's event; returns whether it
 * accessed the arrays (whose stage 1 runs in this cycle). */
static bool take_pending(harness *h)
{
    if (!h->pending) {
        return false;
    }
    uint64_t before = stc_monitor_array_accesses(h->model);
    uint64_t watched = stc_monitor_watched(h->model);
    stc_monitor_observe(h->model, line_address(h, h->pending_line), h->pending_write);
    h->halvings += stc_monitor_watched(h->model) < watched;
    h->pending = false;
    return stc_monitor_array_accesses(h->model) != before;
}

/* One cycle: the monitor model takes the previous cycle's event and every
 * count is compared with the RTL's count port; the unit's model steps on
 * those counts, the RTL takes this cycle's event; then the unit is
 * compared. Returns whether the event happened (none while the controller
 * the harness plays is changing configuration). */
static bool cycle(harness *h, bool valid, uint64_t line, bool write)
{
    bool array = take_pending(h);
    /* Every cycle at first, then every 16th: a wrong count stays wrong,
     * and so does a wrong energy (the registers hold the lowest and the
     * current one). */
    bool check = h->cycle < 50000 || h->cycle % 16 == 0;
    if (check) {
        compare(h);
    }
    stc_monitor_tuner_out unit_out;
    stc_monitor_tuner_outputs(&h->unit, &unit_out);
    valid = valid && !unit_out.busy;
    monitor_dut_in in = {.valid = valid, .line = line, .write = write, .cur_code = h->cur_code};
    play_controller(h, &in);
    play_software(h, &in);
    in.cur_code = h->cur_code; /* software may have moved it */

    uint64_t counts[MAX_COUNTS];
    size_t count = stc_monitor_counts(h->model, counts, MAX_COUNTS);
    unsigned select = stc_monitor_tuner_count_select(&h->unit);
    uint64_t value = select < count ? counts[select] : 0;
    stc_monitor_tuner_in unit_in = {
        .ev_access = valid,
        .count = (uint16_t)(value > 0xffff ? 0xffff : value),
        .watched = (uint16_t)(counts[0] > 0xffff ? 0xffff : counts[0]),
        .current_code = h->cur_code,
        .cfg_ready = in.cfg_ready,
        .cfg_done = in.cfg_done,
        .cfg_err = in.cfg_err,
        .reg_we = in.reg_we,
        .reg_addr = in.reg_addr,
        .reg_wdata = in.reg_wdata,
    };
    bool was_deciding = h->unit.q.deciding != 0;
    const stc_monitor_tuner_regs *q = &h->unit.q;
    if (valid && stc_monitor_tuner_last_step(&h->unit)) {
        unsigned margin = h->unit.build.margin;
        uint32_t bar = margin ? q->current - (q->current >> margin) : q->current;
        if (unit_in.count < q->watched) {
            h->halved_decisions++;
            h->halved_held += q->lowest < bar;
        } else {
            stc_config from = stc_tuner_config_unpack(h->cur_code);
            stc_config to = stc_tuner_config_unpack(q->lowest_code);
            bool walks = to.banks_on < from.banks_on ||
                         to.banks_on / to.ways > from.banks_on / from.ways;
            h->evidence_held += q->lowest < bar && walks && q->watched < h->unit.build.walk_min;
        }
    }
    stc_monitor_tuner_step(&h->unit, &unit_in);
    h->decisions += was_deciding && !h->unit.q.deciding;
    if (in.cfg_done) {
        h->cur_code = h->target;
        h->changes_done++;
    }

    monitor_dut_step(h->dut, &in);
    h->cycle++;
    if (valid) {
        h->events++;
        h->array_after_array += array;
        h->pending = true;
        h->pending_line = line;
        h->pending_write = write;
    }
    if (check) {
        compare_unit(h);
    }
    return valid;
}

/* An event, as soon as the controller is not changing configuration. */
static void event(harness *h, uint64_t line, bool write)
{
    while (!h->failed && !cycle(h, true, line, write)) {
    }
}

/* A program-like stream of physical line numbers: a hot set reused at
 * every stack depth, sequential runs (logical lines of several physical
 * lines), and far lines that alias in the partial tags. */
static uint64_t next_line(harness *h, uint64_t *run)
{
    uint64_t line_mask = (h->geometry.addr_mask >> h->geometry.offset_bits);
    uint32_t pick = next_random(&h->rng) % 100;
    /* Phases, so the unit's choice moves: scattered hot lines (short
     * lines, a small cache do) alternate with long sequential runs over a
     * larger hot set (long lines, more banks pay). */
    bool sequential = (h->events / h->phase_events) % 2 == 1;
    unsigned hot_lines = sequential ? 1500 : 96;
    if (pick < (sequential ? 5u : 55u)) {
        /* hot lines spread over 8 K (or 55 K) of lines */
        return ((uint64_t)(next_random(&h->rng) % hot_lines) * 37) & line_mask;
    }
    if (pick < 85 || sequential) {
        *run = (*run + 1) & line_mask;
        if (next_random(&h->rng) % 64 == 0) {
            *run = next_random(&h->rng) & line_mask;
        }
        return *run;
    }
    return ((uint64_t)next_random(&h->rng) << 7 ^ next_random(&h->rng)) & line_mask;
}

/* Whether the coming halving of the counts (count 0 reaching 2^16 within
 * 200 watched events) would fall outside every decision, or within its
 * last 4 steps: then no decision sees it, and play_software's move inside
 * the decision it lands in (18.3's halving check) cannot happen. */
static bool halving_between_decisions(const harness *h)
{
    uint64_t counts[MAX_COUNTS];
    if (stc_monitor_counts(h->model, counts, MAX_COUNTS) == 0 || counts[0] >= 65536 ||
        counts[0] + 200 < 65536) {
        return false;
    }
    uint64_t to_halving = 65536 - counts[0];
    const stc_monitor_tuner_regs *q = &h->unit.q;
    uint64_t steps = h->program.step_count, window = h->unit.build.window;
    if (q->deciding && to_halving + 4 < steps - 1 - q->step) {
        return false;
    }
    uint64_t to_start = window - 1 - q->win; /* the access that ends the window */
    return !(to_halving > to_start && to_halving + 4 < to_start + steps);
}

/* Events of the program-like stream, each followed by 1 .. max_gap idle
 * cycles (max_gap 0: back to back; so it is, whatever max_gap, where a gap
 * would move a halving of the counts out of every decision:
 * halving_between_decisions). */
static void stream_events(harness *h, const char *scenario, unsigned long events,
                          unsigned max_gap)
{
    h->scenario = scenario;
    uint64_t run = 0;
    for (unsigned long index = 0; index < events && !h->failed; index++) {
        uint64_t line = next_line(h, &run);
        bool write = !h->read_only && next_random(&h->rng) % 100 < 30;
        event(h, line, write);
        unsigned gap = max_gap ? 1 + next_random(&h->rng) % max_gap : 0;
        if (halving_between_decisions(h)) {
            gap = 0;
        }
        if (gap == 0 && near_halving(h)) {
            gap = 1; /* an idle cycle for play_software's move */
        }
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
            event(h, line, write);
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
    h.phase_events = events / 8 > 1000 ? events / 8 : 1000;
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
        .counter_bits = STC_GEN_MONITOR_COUNT_BITS,
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
    stc_energy_table table;
    stc_fixed_monitor_coefficients coefficients;
    stc_monitor_tuner_build build = {STC_GEN_MONITOR_WINDOW, STC_GEN_MONITOR_MARGIN,
                                     STC_GEN_MONITOR_WALK_MIN};
    if (stc_energy_default(&h.geometry, &table, err, sizeof err) != 0 ||
        stc_fixed_monitor_from_table(&table, &coefficients, err, sizeof err) != 0 ||
        stc_monitor_program_build(h.model, &h.geometry, &coefficients, read_only,
                                  STC_GEN_WAY_PREDICTION != 0, &h.program, err, sizeof err) != 0 ||
        stc_monitor_tuner_reset(&h.unit, &build, &h.program, err, sizeof err) != 0) {
        fprintf(stderr, "monitor_lockstep: decision unit: %s\n", err);
        stc_monitor_destroy(h.model);
        return 1;
    }
    if (h.program.step_count != (read_only ? STC_GEN_MONITOR_STEPS_RO : STC_GEN_MONITOR_STEPS)) {
        fprintf(stderr, "monitor_lockstep: FAIL: a decision of %zu steps, the RTL's %u\n",
                h.program.step_count,
                read_only ? STC_GEN_MONITOR_STEPS_RO : STC_GEN_MONITOR_STEPS);
        stc_monitor_destroy(h.model);
        return 1;
    }
    stc_config reset = stc_config_reset(&h.geometry);
    h.cur_code = stc_tuner_config_pack(&reset);
    stc_config configs[STC_MAX_CONFIGS];
    h.code_count = stc_config_enumerate(&h.geometry, configs, STC_MAX_CONFIGS);
    for (size_t index = 0; index < h.code_count; index++) {
        h.codes[index] = stc_tuner_config_pack(&configs[index]);
    }
    monitor_dut_reset(dut);
    take_pending(&h);
    compare(&h);
    compare_unit(&h);
    stream_events(&h, "program stream", events, 3);
    repeats(&h, events / 20);
    stream_events(&h, "back-to-back events", events / 20, 0);
    stream_events(&h, "program stream", events / 10, 3);
    unsigned long long lookups = stc_monitor_lookups(h.model);
    unsigned long long array = stc_monitor_array_accesses(h.model);
    stc_monitor_destroy(h.model);
    printf("monitor_lockstep: %s: %lu cycles, %llu events (%llu watched, %llu array accesses), "
           "%llu array events right after another, %llu halvings, %llu decisions, %llu changes (software %llu), %llu "
           "decisions across a halving (%llu of them held from a move), %llu walking moves "
           "held for evidence\n",
           read_only ? "read-only" : "read-write", h.cycle, (unsigned long long)h.events, lookups,
           array, (unsigned long long)h.array_after_array, (unsigned long long)h.halvings,
           (unsigned long long)h.decisions, (unsigned long long)h.changes_done,
           (unsigned long long)h.software_moves, (unsigned long long)h.halved_decisions, (unsigned long long)h.halved_held,
           (unsigned long long)h.evidence_held);
    /* The run must have reached what it is meant to check. */
    if (!h.failed && (h.array_after_array == 0 || array == 0 || lookups == array ||
                      (events >= 300000 && h.halvings == 0) || h.decisions < 10 ||
                      h.changes_done == 0 || h.changes_done >= h.decisions)) {
        fprintf(stderr, "monitor_lockstep: FAIL: the run missed back-to-back array events, repeats, halvings, "
                        "decisions, or decisions both with and without a change\n");
        h.failed = true;
    }
    if (h.failed) {
        return 1;
    }
    printf("monitor_lockstep: PASS\n");
    return 0;
}
