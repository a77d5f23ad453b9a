/* tuner_side.c - the top's hardware tuner in lockstep (tuner_side.h). */
#include "tuner_side.h"

#include "energy.h"
#include "harness.h"
#include "operations.h"
#include "rtl_side.h"

/* A top without the tuner (--fixed, --no-tuner) has no tuner options in its
 * header; --tune refuses to run there (tuner_side_init). */
#ifndef STC_GEN_TUNER_SERIAL
#define STC_GEN_TUNER_SERIAL 0u
#endif
#ifndef STC_GEN_TUNER_CONST_COEFS
#define STC_GEN_TUNER_CONST_COEFS 0u
#endif

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The register addresses the read port is compared at, one for 16 cycles
 * each in turn: every mapped register, an unmapped one, every
 * coefficient. */
static unsigned read_address(const tuner_side *t, uint64_t cycle)
{
    size_t plain = STC_TREG_BUILD + 2; /* 0 .. BUILD, then one unmapped */
    size_t count = plain + t->twin.coef_count;
    size_t slot = (size_t)((cycle >> 4) % count);
    return slot < plain ? (unsigned)slot : STC_TREG_COEF + (unsigned)(slot - plain);
}

static void tuner_name(harness *h, unsigned packed, char *buf, size_t len)
{
    stc_config config = stc_tuner_config_unpack(packed);
    config_name(h, &config, buf, len);
}

void tuner_side_init(harness *h)
{
    tuner_side *t = &h->tune;
    monitor_side_init(h);
    if (!t->on) {
        return;
    }
    if (h->mon.present) {
        if (t->window != h->mon.twin.unit.build.window || t->retune || t->threshold || t->coef_seed) {
            fprintf(stderr, "lockstep: --tune: this top's monitor tuner decides every %u accesses "
                    "(stcgen --monitor-window) and has no RETUNE, THRESHOLD or coefficient "
                    "registers: give --tune %u and no --retune, --phase-threshold, --tune-coefs\n",
                    h->mon.twin.unit.build.window, h->mon.twin.unit.build.window);
            exit(2);
        }
        return;
    }
    if (t->contend) {
        fprintf(stderr, "lockstep: --contend: for the monitor tuner only (the seed tuner's search "
                "assumes it owns the configuration)\n");
        exit(2);
    }
    if (!STC_GEN_TUNER || !dut_has_tuner(h->rtl)) {
        fprintf(stderr, "lockstep: --tune: this top (%s) has no hardware tuner\n", STC_GEN_NAME);
        exit(2);
    }
    /* The coefficients as stcgen computes them: the generated geometry's
     * default energy table (gen/emit_tuner.c), independent of the memory
     * latency this run uses. */
    char err[512];
    stc_geometry geometry = generated_geometry();
    stc_energy_table table;
    if (stc_geometry_init(&geometry, err, sizeof err) != 0 ||
        stc_energy_default(&geometry, &table, err, sizeof err) != 0 ||
        stc_fixed_from_table(&table, &t->fixed, err, sizeof err) != 0) {
        fprintf(stderr, "lockstep: --tune: %s\n", err);
        exit(2);
    }
    uint16_t registers[STC_TUNER_MAX_COEFS];
    stc_tuner_coef_registers(&geometry, &t->fixed, registers);
    stc_tuner_hw_build build = {geometry, STC_GEN_TUNER_SERIAL != 0,
                                STC_GEN_TUNER_CONST_COEFS != 0, STC_GEN_WAY_PREDICTION != 0};
    stc_tuner_hw_reset(&t->twin, &build, registers);
}

static void compare_flops(harness *h, bool coefficients)
{
    tuner_side *t = &h->tune;
    stc_tuner_hw_regs rtl;
    if (dut_tuner_flops(h->rtl, &rtl, t->twin.coef_count) != 0) {
        fprintf(stderr, "lockstep: --tune: u_tuner's flops are not readable (tb/lockstep.vlt)\n");
        exit(2);
    }
    const stc_tuner_hw_regs *twin = &t->twin.q;
#define FLOP(name)                                                                                 \
    if (rtl.name != twin->name) {                                                                  \
        mismatch(h, "RTL", "tuner flop " #name "_q: C twin 0x%" PRIx32 ", RTL 0x%" PRIx32 "",       \
                 twin->name, rtl.name);                                                            \
    }
    FLOP(psm) FLOP(vsm) FLOP(csm) FLOP(mbit) FLOP(prod) FLOP(phase_en) FLOP(win_len) FLOP(retune)
    FLOP(thresh) FLOP(acc) FLOP(miss) FLOP(cyc) FLOP(fph) FLOP(cand) FLOP(best) FLOP(cfg_sent)
    FLOP(energy) FLOP(best_energy) FLOP(examined) FLOP(compute) FLOP(done) FLOP(tuned)
    FLOP(have_ref) FLOP(ref_miss) FLOP(since) FLOP(searches)
#undef FLOP
    for (size_t index = 0; coefficients && index < t->twin.coef_count; index++) {
        if (rtl.coef[index] != twin->coef[index]) {
            mismatch(h, "RTL", "tuner coefficient register %zu: C twin %u, RTL %u", index,
                     twin->coef[index], rtl.coef[index]);
        }
    }
}

/* One register write through the port, in an idle cycle. */
static void write_register(harness *h, unsigned addr, uint32_t value)
{
    h->pins.tun_we = 1;
    h->pins.tun_addr = addr;
    h->pins.tun_wdata = value;
    idle_cycles(h, 1);
    h->pins.tun_we = 0;
}

/* --tune-coefs: every coefficient the tuner uses times a factor 2^(-2..2)
 * in sixteenths, clamped to 1..65535, written through the register port;
 * the window energies are then checked with these coefficients. */
static void write_random_coefficients(harness *h)
{
    tuner_side *t = &h->tune;
    uint64_t state = t->coef_seed;
    stc_fixed_coefficients *fixed = &t->fixed;
    uint16_t *fields[STC_MAX_SIZES * STC_MAX_SIZES + STC_LINE_SIZES + STC_MAX_SIZES + 1];
    size_t count = 0;
    for (unsigned size = 0; size < STC_MAX_SIZES; size++) {
        for (unsigned ways = 0; ways < STC_MAX_SIZES; ways++) {
            fields[count++] = &fixed->hit[size][ways];
        }
        fields[count++] = &fixed->static_per_cycle[size];
    }
    for (unsigned line = 0; line < STC_LINE_SIZES; line++) {
        fields[count++] = &fixed->miss[line];
    }
    fields[count++] = &fixed->stall_per_cycle;
    for (size_t index = 0; index < count; index++) {
        if (*fields[index] == 0) {
            continue; /* not a register of this geometry */
        }
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        unsigned sixteenths = 4 + (unsigned)((state >> 33) % 61); /* 1/4 .. 4 */
        uint64_t scaled = ((uint64_t)*fields[index] * sixteenths) / 16;
        *fields[index] = (uint16_t)(scaled < 1 ? 1 : scaled > 65535 ? 65535 : scaled);
    }
    uint16_t registers[STC_TUNER_MAX_COEFS];
    size_t registers_used = stc_tuner_coef_registers(&h->geometry, fixed, registers);
    for (size_t index = 0; index < registers_used; index++) {
        write_register(h, STC_TREG_COEF + (unsigned)index, registers[index]);
    }
}

void tuner_side_after_reset(harness *h)
{
    if (h->mon.present) {
        write_register(h, STC_MREG_CTRL, 0); /* enabled at reset: software owns the port */
    }
}

/* Write CTRL = ctrl in the cycle after the port accepts a software change
 * to a configuration other than the one in use and the seed search's
 * start, so that the tuner starts while that change is in progress. */
static void start_in_software_change(harness *h, uint32_t ctrl)
{
    tuner_side *t = &h->tune;
    /* Software's change: the largest size at half the ways (all ways if
     * one bank) with 2-subline lines, neither the configuration in use nor
     * the search's start (2K_1W_16B): for the default geometry
     * 8K_4W_16B -> 8K_2W_32B, a walk of every bank. */
    stc_config change = {BANKS, BANKS > 1 ? BANKS / 2 : 1, 2, false};
    const stc_config *now = stc_cache_config(h->model);
    if (stc_config_check(&h->geometry, &change) == NULL && !stc_config_equal(&change, now)) {
        t->start_in_change = ctrl;
        do_reconfig(h, &change, NULL);
        if (t->start_in_change) {
            mismatch(h, "harness", "software's change was never accepted: CTRL not written");
        }
    } else {
        write_register(h, STC_TREG_CTRL, ctrl);
    }
}

void tuner_side_start(harness *h)
{
    tuner_side *t = &h->tune;
    if (!t->on) {
        return;
    }
    if (h->mon.present) {
        start_in_software_change(h, 1); /* decisions enabled */
        return;
    }
    compare_flops(h, true);
    if (t->coef_seed && !STC_GEN_TUNER_CONST_COEFS) {
        write_random_coefficients(h);
        compare_flops(h, true);
    }
    write_register(h, STC_TREG_WINDOW, t->window);
    write_register(h, STC_TREG_RETUNE, t->retune);
    write_register(h, STC_TREG_THRESHOLD, t->threshold);
    start_in_software_change(h, 1u | (t->threshold ? 2u : 0u));
    compare_flops(h, true);
}

void tuner_side_settle(harness *h, int strobes)
{
    tuner_side *t = &h->tune;
    stc_tuner_hw_in *in = &t->in;
    unsigned ready, done, err;
    dut_tuner_cfg_inputs(h->rtl, &ready, &done, &err);
    in->ev_access = strobes & 1;
    in->ev_miss = strobes >> 1 & 1;
    in->ev_fph = strobes >> 2 & 1;
    in->ev_cycle = strobes >> 3 & 1;
    in->cfg_ready = ready;
    in->cfg_done = done;
    in->cfg_err = err;
    in->reg_we = h->pins.tun_we;
    in->reg_addr = h->pins.tun_addr;
    in->reg_wdata = h->pins.tun_wdata;
    stc_tuner_hw_out out;
    stc_tuner_hw_outputs(&t->twin, &out);
    tuner_side_compare_port(h, "C twin", out.busy, stc_tuner_hw_read(&t->twin, h->pins.tun_addr));
}

void tuner_side_compare_port(harness *h, const char *model, bool busy, uint32_t rdata)
{
    if (busy != (h->pins.tun_busy != 0)) {
        mismatch(h, "RTL", "tun_busy_o: %s %d, RTL %u", model, busy, h->pins.tun_busy);
    }
    if (rdata != h->pins.tun_rdata) {
        mismatch(h, "RTL", "tuner register %u read: %s 0x%08" PRIx32 ", RTL 0x%08" PRIx32,
                 h->pins.tun_addr, model, rdata, h->pins.tun_rdata);
    }
}

/* The window that just closed: its counters from the model. A window
 * closes in the first cycle after the response that completed it, so when
 * the model has already done the request the RTL is starting (it goes
 * first), that request is not in the window. */
static stc_fixed_counters window_counters(const tuner_side *t)
{
    const stc_counters *end = t->ahead ? &t->total_before_op : &t->total;
    stc_counters delta;
    memset(&delta, 0, sizeof delta);
    delta.accesses = end->accesses - t->total_at_window.accesses;
    delta.misses = end->misses - t->total_at_window.misses;
    delta.cycles = end->cycles - t->total_at_window.cycles;
    delta.first_probe_hits = end->first_probe_hits - t->total_at_window.first_probe_hits;
    return stc_fixed_counters_of(&delta);
}

/* The search-level reference's next candidate, skipping way prediction
 * when the tuner is built without it (it never proposes one). */
static bool reference_next(tuner_side *t, stc_config *candidate)
{
    while (stc_search_next(&t->search, candidate)) {
        if (candidate->way_predict && !STC_GEN_WAY_PREDICTION) {
            stc_search_report(&t->search, (double)UINT32_MAX);
            continue;
        }
        return true;
    }
    return false;
}

static void window_measured(harness *h, uint32_t energy, unsigned candidate)
{
    tuner_side *t = &h->tune;
    char name[STC_CONFIG_NAME_MAX], want_name[STC_CONFIG_NAME_MAX];
    tuner_name(h, candidate, name, sizeof name);
    stc_config config = stc_tuner_config_unpack(candidate);
    stc_fixed_counters counts = t->window_counts;
    uint32_t want = stc_fixed_energy(&t->fixed, &config, &counts);
    if (energy != want) {
        mismatch(h, "RTL", "tuner window in %s: energy %" PRIu32 ", the model's counters "
                 "(accesses %u, misses %u, cycles %u, first-probe hits %u) give %" PRIu32,
                 name, energy, counts.accesses, counts.misses, counts.cycles,
                 counts.first_probe_hits, want);
    }
    stc_config expected;
    bool more = reference_next(t, &expected);
    if (!more || stc_tuner_config_pack(&expected) != candidate) {
        if (more) {
            config_name(h, &expected, want_name, sizeof want_name);
        } else {
            snprintf(want_name, sizeof want_name, "nothing more (the search is over)");
        }
        mismatch(h, "RTL", "tuner measured %s; ref/search.c's heuristic asks for %s", name,
                 want_name);
    }
    stc_search_report(&t->search, want);
    t->windows++;
    t->candidates++;
}

static void search_over(harness *h)
{
    tuner_side *t = &h->tune;
    stc_config extra;
    if (reference_next(t, &extra)) {
        char name[STC_CONFIG_NAME_MAX];
        config_name(h, &extra, name, sizeof name);
        mismatch(h, "RTL", "tuner ended its search; ref/search.c's heuristic still asks for %s",
                 name);
    }
    stc_config best = stc_search_best(&t->search);
    unsigned want = stc_tuner_config_pack(&best);
    if (t->twin.q.best != want) {
        char name[STC_CONFIG_NAME_MAX], want_name[STC_CONFIG_NAME_MAX];
        tuner_name(h, t->twin.q.best, name, sizeof name);
        config_name(h, &best, want_name, sizeof want_name);
        mismatch(h, "RTL", "tuner chose %s; ref/search.c's heuristic chooses %s", name, want_name);
    }
    if (t->choice_count < TUNE_CHOICES) {
        t->choices[t->choice_count++] = want;
    }
    t->searching = false;
}

void tuner_side_edge(harness *h)
{
    tuner_side *t = &h->tune;
    stc_tuner_hw_regs before = t->twin.q;
    if (before.psm == STC_PSM_IDLE && before.tuned && before.acc >= before.win_len) {
        /* a monitored window closes at this edge (ref/tuner_hw.c idle_step) */
        uint32_t distance = before.miss > before.ref_miss ? before.miss - before.ref_miss
                                                          : before.ref_miss - before.miss;
        if (before.have_ref && before.phase_en) {
            t->at_threshold += distance == before.thresh;
            t->above_threshold += distance == before.thresh + 1;
        }
    }
    if (before.vsm == STC_VSM_WIN || (before.psm == STC_PSM_IDLE && before.tuned)) {
        uint32_t top = 1u << 15;
        bool closing = before.acc >= before.win_len;
        t->top_bit_windows += closing && ((before.acc | before.miss | before.cyc | before.fph) & top);
    }
    stc_tuner_hw_step(&t->twin, &t->in);
    compare_flops(h, t->in.reg_we);
    const stc_tuner_hw_regs *after = &t->twin.q;
    if (before.psm == STC_PSM_IDLE && after->psm == STC_PSM_START) {
        char err[256];
        stc_search_plan plan = stc_search_plan_seed();
        if (stc_search_start(&t->search, &h->geometry, &plan, err, sizeof err) != 0) {
            fprintf(stderr, "lockstep: --tune: %s\n", err);
            exit(2);
        }
        t->searching = true;
        t->searches++;
    }
    if (before.psm != STC_PSM_IDLE && before.vsm == STC_VSM_CFG && after->vsm == STC_VSM_WIN) {
        t->total_at_window = t->total;
    }
    if (before.psm != STC_PSM_IDLE && before.vsm == STC_VSM_WIN && after->vsm == STC_VSM_CALC) {
        t->window_counts = window_counters(t);
    }
    if (before.psm != STC_PSM_IDLE && before.vsm == STC_VSM_CALC && after->vsm == STC_VSM_CMP &&
        t->searching) {
        window_measured(h, after->energy, after->cand);
    }
    if (before.psm != STC_PSM_FINAL && after->psm == STC_PSM_FINAL && t->searching) {
        search_over(h);
    }
    if (before.psm == STC_PSM_FINAL && after->psm == STC_PSM_IDLE) {
        t->completed++;
        t->compute_cycles += after->compute;
    }
    if (!h->pins.tun_we) {
        h->pins.tun_addr = read_address(t, h->cycle);
    }
}

/* For --contend: a change software asks while the tuner's to `next` is
 * offered. Another configuration of the same size, so that it wakes no
 * bank the tuner's change may be powering down (14.4's gap does not
 * apply) and software's request can stay up from the tuner's offer until
 * it is accepted. */
static bool software_waiting(const harness *h, const stc_config *next, stc_config *waiting)
{
    for (size_t index = 0; index < h->config_count; index++) {
        const stc_config *candidate = &h->configs[(index + h->tune.contended) % h->config_count];
        if (candidate->banks_on == next->banks_on && !stc_config_equal(candidate, next)) {
            *waiting = *candidate;
            return true;
        }
    }
    return false;
}

/* Whether the tuner offers a change in this cycle, and which (packed). */
static bool offer_now(harness *h, unsigned *code)
{
    *code = h->tune.twin.q.cand;
    if (h->mon.present) {
        return monitor_side_offer(h, code);
    }
    stc_tuner_hw_out out;
    stc_tuner_hw_outputs(&h->tune.twin, &out);
    return out.cfg_valid;
}

bool tuner_side_offers(harness *h)
{
    unsigned code;
    return h->tune.on && offer_now(h, &code);
}

void tuner_side_serve(harness *h)
{
    tuner_side *t = &h->tune;
    if (!t->on) {
        return;
    }
    /* the configuration the tuner offers, packed */
    unsigned code;
    bool offered = offer_now(h, &code);
    if (offered) {
        stc_config next = stc_tuner_config_unpack(code);
        if (h->last_cfg_shrank && h->cycle < h->last_cfg_done + h->max_ack_delay + 6) {
            fprintf(stderr, "lockstep: --tune: the tuner changes the configuration %" PRIu64
                    " cycles after the last change, closer than the model's power-switch timing "
                    "allows (section 14.4): use a larger --tune window\n",
                    h->cycle - h->last_cfg_done);
            exit(2);
        }
        t->offers_served++;
        stc_config waiting;
        bool contended = t->contend && t->offers_served % t->contend == 0 &&
                         software_waiting(h, &next, &waiting);
        t->contended += contended;
        do_tuner_reconfig(h, &next, contended ? &waiting : NULL);
    }
}

void tuner_side_account(harness *h, const stc_counters *before, const stc_counters *after)
{
    stc_counters *total = &h->tune.total;
    h->tune.total_before_op = *total;
    h->tune.ahead = true;
    total->accesses += after->accesses - before->accesses;
    total->misses += after->misses - before->misses;
    total->cycles += after->cycles - before->cycles;
    total->first_probe_hits += after->first_probe_hits - before->first_probe_hits;
}

void tuner_side_finish(harness *h)
{
    tuner_side *t = &h->tune;
    if (!t->on) {
        return;
    }
    if (h->mon.present) {
        /* A decision in progress still ends (and may change the
         * configuration): keep the traffic going until it has. */
        write_register(h, STC_MREG_CTRL, 0);
        const stc_monitor_tuner_regs *q = &h->mon.twin.unit.q;
        for (uint64_t index = 0; q->deciding || q->pending || q->sent; index++) {
            do_request(h, false, h->stimuli.flush_base + 4 * (index % (ROWS * BEATS)), 0, 0);
        }
        return;
    }
    write_register(h, STC_TREG_RETUNE, 0);
    write_register(h, STC_TREG_CTRL, 0);
    /* A search measures at most 2 log2 B + 4 windows (16.4); allow twice that. */
    uint64_t limit = (uint64_t)(t->window + 1) * 2 * (2 * stc_log2(STC_GEN_BANKS) + 4) + 1000;
    for (uint64_t index = 0; t->twin.q.psm != STC_PSM_IDLE; index++) {
        if (index > limit) {
            mismatch(h, "RTL", "the tuner's search did not end after %" PRIu64 " more requests",
                     limit);
        }
        do_request(h, false, h->stimuli.flush_base + 4 * (index % (ROWS * BEATS)), 0, 0);
    }
}

void tuner_side_report(harness *h)
{
    tuner_side *t = &h->tune;
    if (h->mon.present) {
        monitor_side_report(h);
        if (t->on) {
            printf("  tuner changes made: %" PRIu64 ", %" PRIu64 " of them with software's request "
                   "to another configuration waiting (--contend)\n", t->offers_served, t->contended);
        }
        return;
    }
    if (!t->on) {
        return;
    }
    printf("  tuner (%s multiplier, %s coefficients; every cycle against ref/tuner_hw.c, every "
           "window against the model): %" PRIu64 " searches started, %" PRIu64 " completed, %" PRIu64
           " windows measured, %" PRIu64 " compute cycles\n",
           STC_GEN_TUNER_SERIAL ? "serial" : "array",
           STC_GEN_TUNER_CONST_COEFS ? "constant" : "register", t->searches, t->completed,
           t->windows, t->compute_cycles);
    printf("  tuner started while a software change was in progress: %" PRIu64 " time(s); "
           "coefficients %s; monitored windows with the misses' distance at THRESHOLD %" PRIu64
           ", at THRESHOLD + 1 %" PRIu64 "; windows closed with a count's top bit set %" PRIu64 "\n",
           t->started_in_change,
           t->coef_seed && !STC_GEN_TUNER_CONST_COEFS ? "random (--tune-coefs)" : "stcgen's",
           t->at_threshold, t->above_threshold, t->top_bit_windows);
    if (t->choice_count) {
        printf("  tuner choices:");
        for (unsigned index = 0; index < t->choice_count; index++) {
            char name[STC_CONFIG_NAME_MAX];
            tuner_name(h, t->choices[index], name, sizeof name);
            printf(" %s", name);
        }
        printf("%s\n", t->completed > TUNE_CHOICES ? " ..." : "");
    }
}
