/*
 * tuner_lockstep.c - the generated stc_tuner (under Verilator, tb_tuner.cpp)
 * against its C model ref/tuner_hw.c, every cycle: the outputs, every
 * address of the register read port and every flop must be equal, or the
 * run stops at the first difference with its cycle, scenario and field.
 *
 * The cache around the tuner is tests/tuner_env.h (configuration port with
 * random latencies and not-ready cycles, windows that end at known
 * counters). Scenarios: the seed's example (choice and compute cycles by
 * hand), the mpeg2-like case the heuristic misses (docs/TUNING.md 1.2),
 * random landscapes, a saturating window, the phase and periodic triggers,
 * and a fuzz of random events, refused changes and register writes
 * (coefficients, window, start) at random times. Geometry and options come from the generated
 * stc_geometry_gen.h, coefficients from stc_fixed_from_table, so the
 * generator's reset values are checked too.
 */
#include "config.h"
#include "energy.h"
#include "fixed.h"
#include "stc_geometry_gen.h"
#include "tuner_dut.h"
#include "tuner_env.h"
#include "tuner_hw.h"

#include <stdio.h>
#include <string.h>

/* The multiplier (STC_TUNER_MULT_*): the header lists tuner_mult only for
 * the radix ones. */
#ifdef STC_GEN_TUNER_MULT
#define TUNER_MULT STC_GEN_TUNER_MULT
#else
#define TUNER_MULT (STC_GEN_TUNER_SERIAL != 0 ? STC_TUNER_MULT_SERIAL : STC_TUNER_MULT_ARRAY)
#endif
/* ... and tuner_lean_regs only for the lean register block. */
#ifdef STC_GEN_TUNER_LEAN_REGS
#define TUNER_LEAN STC_TUNER_OPT_LEAN_REGS
#else
#define TUNER_LEAN 0u
#endif
/* ... and tuner_no_triggers only without the re-tune triggers. */
#ifdef STC_GEN_TUNER_NO_TRIGGERS
#define TUNER_NO_TRIGGERS STC_TUNER_OPT_NO_TRIGGERS
#else
#define TUNER_NO_TRIGGERS 0u
#endif
#define TUNER_OPTIONS                                                                      \
    ((STC_GEN_TUNER_CONST_COEFS != 0 ? STC_TUNER_OPT_CONST_COEFS : 0u) | TUNER_LEAN |      \
     TUNER_NO_TRIGGERS)

typedef struct {
    tuner_dut *dut;
    stc_tuner_hw model;
    tuner_env env;
    stc_fixed_coefficients fixed;
    stc_geometry geometry;
    const char *scenario;
    unsigned long cycle;
    bool failed;
    bool fuzz;          /* random events instead of the landscape's */
    bool saturate;      /* events that overflow every 16-bit counter */
    uint32_t fuzz_rng;
    unsigned read_every; /* compare the register read port every Nth cycle (1: always) */
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

static void mismatch(harness *h, const char *what, unsigned long rtl, unsigned long model)
{
    if (!h->failed) {
        fprintf(stderr,
                "tuner_lockstep: FAIL scenario %s, cycle %lu: %s: RTL %lu (0x%lx), model %lu "
                "(0x%lx)\n",
                h->scenario, h->cycle, what, rtl, rtl, model, model);
    }
    h->failed = true;
}

static void compare_flops(harness *h)
{
    stc_tuner_hw_regs r;
    tuner_dut_flops(h->dut, &r);
    const stc_tuner_hw_regs *m = &h->model.q;
#define FIELD(name)                                                                        \
    if (r.name != m->name) {                                                               \
        mismatch(h, #name "_q", r.name, m->name);                                          \
    }
    FIELD(psm) FIELD(vsm) FIELD(csm) FIELD(mbit) FIELD(prod) FIELD(win_len) FIELD(acc)
    FIELD(miss) FIELD(cyc) FIELD(fph) FIELD(cand) FIELD(best) FIELD(cfg_sent) FIELD(energy)
    FIELD(best_energy) FIELD(done)
#ifndef STC_GEN_TUNER_NO_TRIGGERS
    /* built without triggers, the hardware has no such flops (the model keeps them) */
    FIELD(phase_en) FIELD(retune) FIELD(thresh) FIELD(tuned) FIELD(have_ref) FIELD(ref_miss)
    FIELD(since)
#endif
#ifndef STC_GEN_TUNER_LEAN_REGS
    /* the lean register block has no such flops (the model counts them) */
    FIELD(examined) FIELD(compute) FIELD(searches)
#endif
#undef FIELD
}

static void compare_outputs(harness *h, stc_tuner_hw_out *model_out)
{
    stc_tuner_hw_out rtl;
    tuner_dut_outputs(h->dut, &rtl);
    stc_tuner_hw_outputs(&h->model, model_out);
    if (rtl.busy != model_out->busy) mismatch(h, "busy_o", rtl.busy, model_out->busy);
    if (rtl.cfg_valid != model_out->cfg_valid)
        mismatch(h, "cfg_valid_o", rtl.cfg_valid, model_out->cfg_valid);
    if (rtl.cfg_banks_log != model_out->cfg_banks_log)
        mismatch(h, "cfg_banks_log_o", rtl.cfg_banks_log, model_out->cfg_banks_log);
    if (rtl.cfg_ways_log != model_out->cfg_ways_log)
        mismatch(h, "cfg_ways_log_o", rtl.cfg_ways_log, model_out->cfg_ways_log);
    if (rtl.cfg_sub_log != model_out->cfg_sub_log)
        mismatch(h, "cfg_sub_log_o", rtl.cfg_sub_log, model_out->cfg_sub_log);
    if (rtl.cfg_wp != model_out->cfg_wp) mismatch(h, "cfg_wp_o", rtl.cfg_wp, model_out->cfg_wp);
    if (h->cycle % h->read_every != 0) {
        return;
    }
    for (unsigned addr = 0; addr < 1u << STC_TREG_ADDR_BITS; addr++) {
        uint32_t got = tuner_dut_read(h->dut, addr);
        uint32_t want = stc_tuner_hw_read(&h->model, addr);
        if (got != want) {
            char what[48];
            snprintf(what, sizeof what, "register read at address %u", addr);
            mismatch(h, what, got, want);
        }
    }
}

/* One clock; write (if not NULL) is a register write in this cycle. */
static void clock_once(harness *h, const stc_tuner_hw_in *write)
{
    stc_tuner_hw_out out;
    compare_outputs(h, &out);
    stc_tuner_hw_in in;
    tuner_env_inputs(&h->env, &out, &in);
    if (h->fuzz) {
        uint32_t r = next_random(&h->fuzz_rng);
        in.ev_access = r & 1;
        in.ev_miss = (r >> 1 & 3) == 0;
        in.ev_fph = (r >> 3 & 1) != 0;
        in.ev_cycle = (r >> 4 & 7) != 0;
    }
    if (h->saturate) {
        in.ev_access = h->cycle & 1;
        in.ev_miss = in.ev_fph = in.ev_cycle = true;
    }
    if (write) {
        in.reg_we = true;
        in.reg_addr = write->reg_addr;
        in.reg_wdata = write->reg_wdata;
    }
    uint32_t vsm_before = h->model.q.vsm;
    tuner_dut_step(h->dut, &in);
    stc_tuner_hw_step(&h->model, &in);
    h->cycle++;
    compare_flops(h);
    /* A window's energy, when the calculation ends, is FIXED_POINT.md's
     * (stc_fixed_energy of the window counters; not in the fuzz, whose
     * writes change the coefficient registers). */
    const stc_tuner_hw_regs *q = &h->model.q;
    if (!h->fuzz && vsm_before == STC_VSM_CALC && q->vsm == STC_VSM_CMP) {
        stc_config config = stc_tuner_config_unpack(q->cand);
        stc_fixed_counters counters = {(uint16_t)q->acc, (uint16_t)q->miss, (uint16_t)q->cyc,
                                       (uint16_t)q->fph};
        uint32_t want = stc_fixed_energy(&h->fixed, &config, &counters);
        if (q->energy != want) {
            mismatch(h, "energy against stc_fixed_energy", q->energy, want);
        }
    }
}

static void write_reg(harness *h, unsigned addr, uint32_t data)
{
    stc_tuner_hw_in w = {0};
    w.reg_addr = addr;
    w.reg_wdata = data;
    clock_once(h, &w);
}

/* Start a search and clock until it has applied its choice. */
static bool run_search(harness *h, unsigned long limit)
{
    write_reg(h, STC_TREG_CTRL, 1 | h->model.q.phase_en << 1);
    for (unsigned long n = 0; n < limit && !h->failed; n++) {
        if (h->model.q.psm == STC_PSM_IDLE) {
            return true;
        }
        clock_once(h, NULL);
    }
    if (!h->failed) {
        fprintf(stderr, "tuner_lockstep: FAIL scenario %s: search did not end\n", h->scenario);
        h->failed = true;
    }
    return false;
}

static void begin(harness *h, const char *scenario, unsigned window, uint32_t seed)
{
    h->scenario = scenario;
    h->cycle = 0;
    h->fuzz = false;
    h->saturate = false;
    h->read_every = 1;
    tuner_dut_reset(h->dut);
    uint16_t registers[STC_TUNER_MAX_COEFS];
    stc_tuner_coef_registers(&h->geometry, &h->fixed, registers);
    stc_tuner_hw_build build = {h->geometry, TUNER_MULT, TUNER_OPTIONS,
                                STC_GEN_WAY_PREDICTION != 0};
    stc_tuner_hw_reset(&h->model, &build, registers);
    tuner_env_init(&h->env, &h->geometry, window, seed);
    compare_flops(h);
    if (window != STC_TUNER_DEFAULT_WINDOW) {
        write_reg(h, STC_TREG_WINDOW, window);
    }
}

static void check_choice(harness *h, const char *want)
{
    stc_config chosen = stc_tuner_config_unpack(h->model.q.best);
    char name[STC_CONFIG_NAME_MAX];
    stc_config_name(&h->geometry, &chosen, name, sizeof name);
    if (strcmp(name, want) != 0 && !h->failed) {
        fprintf(stderr, "tuner_lockstep: FAIL scenario %s: chose %s, want %s\n", h->scenario,
                name, want);
        h->failed = true;
    }
    printf("tuner_lockstep: %s: chose %s after %u, %u compute cycles\n", h->scenario, name,
           h->model.q.examined, h->model.q.compute);
}

static void set_all(harness *h, unsigned window, unsigned misses, unsigned cycles, unsigned fph)
{
    for (unsigned packed = 0; packed < 512; packed++) {
        h->env.counters[packed] = (stc_fixed_counters){(uint16_t)window, (uint16_t)misses,
                                                       (uint16_t)cycles, (uint16_t)fph};
    }
}

static void set_named(harness *h, const char *name, unsigned window, unsigned misses,
                      unsigned cycles, unsigned fph)
{
    stc_config config;
    char err[128];
    if (stc_config_parse(&h->geometry, name, &config, err, sizeof err) != 0) {
        fprintf(stderr, "tuner_lockstep: %s\n", err);
        h->failed = true;
        return;
    }
    h->env.counters[stc_tuner_config_pack(&config)] = (stc_fixed_counters){
        (uint16_t)window, (uint16_t)misses, (uint16_t)cycles, (uint16_t)fph};
}

/* docs/TUNING.md 1.1's example, windows of 128 accesses. */
static void scenario_seed(harness *h)
{
    const unsigned w = 128;
    begin(h, "seed example", w, 5);
    h->env.max_delay = 4;
    set_all(h, w, 125, w + 30 * 125, 0);
    static const struct {
        const char *name;
        unsigned misses;
    } landscape[] = {{"2K_1W_16B", 38}, {"4K_1W_16B", 25}, {"8K_1W_16B", 25}, {"4K_1W_32B", 11},
                     {"4K_1W_64B", 11}, {"4K_2W_32B", 7},  {"4K_2W_32B_P", 7}};
    for (size_t i = 0; i < sizeof landscape / sizeof landscape[0]; i++) {
        set_named(h, landscape[i].name, w, landscape[i].misses, w + 30 * landscape[i].misses, 0);
    }
    run_search(h, 200000);
    check_choice(h, "4K_2W_32B");
    /* by hand (ARCHITECTURE.md 16.4): 6 x (1 + 1 + 3M + 1) + (1 + 1 + 5M + 1) + 1 failed
     * proposal + 1 final; without way prediction the 4K_2W_32B_P candidate
     * is not measured and the wp walk's proposal fails: 6 x (3 + 3M) + 2 + 1;
     * M = 1 array, 16 serial, 8 radix 4, 4 radix 16 */
    static const unsigned want_of[4][2] = {{39, 46}, {309, 391}, {165, 207}, {93, 115}};
    unsigned want = want_of[TUNER_MULT][STC_GEN_WAY_PREDICTION != 0];
    if (h->model.q.compute != want && !h->failed) {
        fprintf(stderr, "tuner_lockstep: FAIL seed example: %u compute cycles, want %u\n",
                h->model.q.compute, want);
        h->failed = true;
    }
}

/* The mpeg2-like D-cache (tests/test_tuner_hw.c): the heuristic stops the
 * size walk at 4K and picks 4K_2W_16B; 8K_2W_16B, never measured, is lower. */
static void scenario_mpeg2(harness *h)
{
    const unsigned w = 4096;
    begin(h, "mpeg2", w, 11);
    h->env.max_delay = 3;
    h->env.busy_percent = 10;
    static const unsigned misses[3][3] = {{82, 0, 0}, {34, 20, 0}, {34, 6, 6}};
    static const unsigned line_percent[3] = {100, 110, 120};
    stc_config all[STC_MAX_CONFIGS];
    size_t count = stc_config_enumerate(&h->geometry, all, STC_MAX_CONFIGS);
    for (size_t i = 0; i < count; i++) {
        unsigned s = stc_log2(all[i].banks_on), a = stc_log2(all[i].ways);
        unsigned m = misses[s < 3 ? s : 2][a < 3 ? a : 2] * line_percent[stc_log2(all[i].sublines)] / 100;
        h->env.counters[stc_tuner_config_pack(&all[i])] = (stc_fixed_counters){
            (uint16_t)w, (uint16_t)m, (uint16_t)(w + 24 * m),
            (uint16_t)(all[i].way_predict ? 2867 : 0)};
    }
    run_search(h, 400000);
    check_choice(h, "4K_2W_16B");
}

static void scenario_random(harness *h, uint32_t seed)
{
    static char name[32];
    snprintf(name, sizeof name, "random %u", seed);
    const unsigned w = 60 + seed * 13;
    begin(h, name, w, seed);
    h->env.max_delay = seed % 5;
    h->env.busy_percent = seed % 2 ? 25 : 0;
    stc_config all[STC_MAX_CONFIGS];
    size_t count = stc_config_enumerate(&h->geometry, all, STC_MAX_CONFIGS);
    for (size_t i = 0; i < count; i++) {
        uint32_t r = tuner_env_random(&h->env);
        unsigned m = r % (w / 3 + 1);
        h->env.counters[stc_tuner_config_pack(&all[i])] = (stc_fixed_counters){
            (uint16_t)w, (uint16_t)m, (uint16_t)(w + m * (10 + r % 30)),
            (uint16_t)(tuner_env_random(&h->env) % (w + 8))};
        if (i > 0 && r % 5 == 0) { /* a tie with the configuration before */
            h->env.counters[stc_tuner_config_pack(&all[i])] =
                h->env.counters[stc_tuner_config_pack(&all[i - 1])];
        }
    }
    run_search(h, 400000);
    printf("tuner_lockstep: %s: %u examined, %u compute cycles\n", name, h->model.q.examined,
           h->model.q.compute);
}

/* Windows of 65535 accesses in 131070 cycles, a miss, a first-probe hit
 * and a busy cycle in every one: every counter but accesses stops at all
 * ones, the energy is that of saturated counters. Two candidates. */
static void scenario_saturate(harness *h)
{
    begin(h, "saturating windows", 65535, 9);
    h->saturate = true;
    h->read_every = 61;
    write_reg(h, STC_TREG_CTRL, 1);
    while (h->model.q.examined < 2 && !h->failed && h->cycle < 400000) {
        clock_once(h, NULL);
    }
    if (h->model.q.examined < 2 && !h->failed) {
        fprintf(stderr, "tuner_lockstep: FAIL saturating windows: not measured\n");
        h->failed = true;
    }
    printf("tuner_lockstep: saturating windows: energy %u\n", h->model.q.energy);
}

#ifndef STC_GEN_TUNER_NO_TRIGGERS
static void scenario_triggers(harness *h)
{
    const unsigned w = 100;
    begin(h, "triggers", w, 21);
    h->env.max_delay = 2;
    set_all(h, w, 30, 900, 50);
    write_reg(h, STC_TREG_THRESHOLD, 5);
    write_reg(h, STC_TREG_CTRL, 2); /* phase trigger on, no start */
    run_search(h, 200000);
    for (unsigned n = 0; n < 6000 && !h->failed; n++) {
        clock_once(h, NULL);
    }
    set_all(h, w, 36, 900, 50); /* one more than the threshold */
    unsigned searches = h->model.q.searches;
    for (unsigned n = 0; n < 4000 && !h->failed && h->model.q.searches == searches; n++) {
        clock_once(h, NULL);
    }
    if (h->model.q.searches == searches && !h->failed) {
        fprintf(stderr, "tuner_lockstep: FAIL triggers: no phase trigger\n");
        h->failed = true;
    }
    run_search(h, 200000);
    write_reg(h, STC_TREG_CTRL, 0);
    write_reg(h, STC_TREG_RETUNE, 2);
    for (unsigned n = 0; n < 30000 && !h->failed && h->model.q.searches < searches + 3; n++) {
        clock_once(h, NULL);
    }
    if (h->model.q.searches < searches + 3 && !h->failed) {
        fprintf(stderr, "tuner_lockstep: FAIL triggers: no periodic re-tune\n");
        h->failed = true;
    }
}

/* The phase trigger at its edges, both ways: after a search tuned on 40
 * misses a window, windows exactly THRESHOLD = 5 away (45, 35) must not
 * start a search, windows 6 away (46, then after the new search 34) must. */
static void scenario_phase_edges(harness *h)
{
    const unsigned w = 100;
    static const struct {
        unsigned misses;
        bool trigger;
    } steps[] = {{45, false}, {35, false}, {46, true}, {34, true}};
    begin(h, "phase edges", w, 23);
    h->env.max_delay = 2;
    write_reg(h, STC_TREG_THRESHOLD, 5);
    write_reg(h, STC_TREG_CTRL, 2); /* phase trigger on, no start */
    set_all(h, w, 40, 900, 50);
    run_search(h, 200000);
    for (size_t i = 0; i < sizeof steps / sizeof steps[0] && !h->failed; i++) {
        /* the tuned window (40 misses) first, then three windows of the step */
        for (unsigned n = 0; n < 2000 && !h->failed && !h->model.q.have_ref; n++) {
            clock_once(h, NULL);
        }
        set_all(h, w, steps[i].misses, 900, 50);
        unsigned searches = h->model.q.searches;
        for (unsigned n = 0; n < 3000 && !h->failed && h->model.q.searches == searches; n++) {
            clock_once(h, NULL);
        }
        if ((h->model.q.searches != searches) != steps[i].trigger && !h->failed) {
            fprintf(stderr, "tuner_lockstep: FAIL phase edges: %u misses against 40 %s\n",
                    steps[i].misses, steps[i].trigger ? "did not trigger" : "triggered");
            h->failed = true;
        }
        if (steps[i].trigger) {
            set_all(h, w, 40, 900, 50);
            run_search(h, 200000);
        }
    }
}

#else
/* Built without triggers: after a search, a re-tune interval of 1 window,
 * the phase trigger on with threshold 0 and windows whose misses differ
 * from the tuned ones start nothing and count nothing; software's start
 * still does. */
static void scenario_no_triggers(harness *h)
{
    const unsigned w = 100;
    begin(h, "no triggers", w, 29);
    h->env.max_delay = 2;
    set_all(h, w, 30, 900, 50);
    write_reg(h, STC_TREG_THRESHOLD, 0);
    write_reg(h, STC_TREG_RETUNE, 1);
    write_reg(h, STC_TREG_CTRL, 2);
    run_search(h, 200000);
    set_all(h, w, 60, 900, 50);
    unsigned searches = h->model.q.searches;
    for (unsigned n = 0; n < 6000 && !h->failed; n++) {
        clock_once(h, NULL);
        if ((h->model.q.searches != searches || h->model.q.acc != 0) && !h->failed) {
            fprintf(stderr, "tuner_lockstep: FAIL no triggers: a search started or a window "
                            "counted after the search\n");
            h->failed = true;
        }
    }
    run_search(h, 200000);
    if (h->model.q.searches != searches + 1 && !h->failed) {
        fprintf(stderr, "tuner_lockstep: FAIL no triggers: software's start ignored\n");
        h->failed = true;
    }
}

#endif

/* Random events and random register writes (any address, any data, start
 * included) at random times, across searches and monitoring. */
static void scenario_fuzz(harness *h, uint32_t seed)
{
    begin(h, "fuzz", 40, seed);
    h->fuzz = true;
    h->fuzz_rng = seed * 2654435761u;
    h->env.max_delay = 3;
    h->env.busy_percent = 20;
    h->env.err_percent = 10; /* refused changes: the cfg_err path */
    write_reg(h, STC_TREG_RETUNE, 3);
    write_reg(h, STC_TREG_CTRL, 3);
    for (unsigned n = 0; n < 60000 && !h->failed; n++) {
        uint32_t r = next_random(&h->fuzz_rng);
        if (r % 97 == 0) {
            stc_tuner_hw_in w = {0};
            unsigned pick = r >> 8 & 7;
            w.reg_addr = pick < 4 ? STC_TREG_COEF + (r >> 12) % 16 : (r >> 12) % 64;
            w.reg_wdata = next_random(&h->fuzz_rng);
            if (w.reg_addr == STC_TREG_WINDOW) {
                w.reg_wdata = (w.reg_wdata & 0x7f) + 1;
            }
            clock_once(h, &w);
        } else {
            clock_once(h, NULL);
        }
    }
    printf("tuner_lockstep: fuzz: %u searches started\n", h->model.q.searches);
}

int tuner_lockstep_main(tuner_dut *dut, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    harness h;
    memset(&h, 0, sizeof h);
    h.dut = dut;
    stc_geometry_default(&h.geometry);
    h.geometry.banks = STC_GEN_BANKS;
    h.geometry.bank_bytes = STC_GEN_BANK_BYTES;
    h.geometry.line_bytes = STC_GEN_LINE_BYTES;
    h.geometry.addr_bits = STC_GEN_ADDR_BITS;
    char err[256];
    stc_energy_table table;
    if (stc_geometry_init(&h.geometry, err, sizeof err) != 0 ||
        stc_energy_default(&h.geometry, &table, err, sizeof err) != 0 ||
        stc_fixed_from_table(&table, &h.fixed, err, sizeof err) != 0) {
        fprintf(stderr, "tuner_lockstep: %s\n", err);
        return 1;
    }
    if (STC_GEN_BANKS == 4 && STC_GEN_BANK_BYTES == 2048 && STC_GEN_LINE_BYTES == 16) {
        scenario_seed(&h);
        if (!h.failed) scenario_mpeg2(&h);
    }
    for (uint32_t seed = 1; seed <= 8 && !h.failed; seed++) {
        scenario_random(&h, seed);
    }
    if (!h.failed) scenario_saturate(&h);
#ifdef STC_GEN_TUNER_NO_TRIGGERS
    if (!h.failed) scenario_no_triggers(&h);
#else
    if (!h.failed) scenario_triggers(&h);
    if (!h.failed) scenario_phase_edges(&h);
#endif
    if (!h.failed) scenario_fuzz(&h, 7);
    if (h.failed) {
        return 1;
    }
    printf("tuner_lockstep: PASS (%s)\n", STC_GEN_NAME);
    return 0;
}
