/*
 * tuner_env.h - a stand-in for the cache around the hardware tuner
 * (ref/tuner_hw.h), shared by tests/test_tuner_hw.c and the RTL lockstep
 * harness tests/rtl/tuner_lockstep.c.
 *
 * It answers the tuner's configuration port like stc_cache_ctrl does
 * (ready when idle; done in the accepting cycle or after a delay; not
 * ready for a few cycles now and then, as if serving the CPU) and, in the
 * configuration applied last, plays a landscape's window: the event strobes
 * that make the tuner's 16-bit counters end the window at exactly that
 * configuration's counters. A window of W accesses whose counters are
 * (W, m, c, f) lasts n = max(W, m, c, f) cycles: cycle i carries a cycle
 * strobe if i < c, a miss if i < m, a first-probe hit if i < f, an access
 * if i >= n - W; then one cycle without events (the tuner closes the
 * window), and the pattern repeats while the configuration stays.
 */
#ifndef STC_TUNER_ENV_H
#define STC_TUNER_ENV_H

#include "config.h"
#include "fixed.h"
#include "tuner_hw.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    stc_geometry geometry;
    unsigned window;                         /* W: accesses of every window */
    stc_fixed_counters counters[512];        /* by packed configuration */
    uint32_t rng;
    unsigned max_delay;                      /* configuration changes take 0..max_delay cycles */
    unsigned busy_percent;                   /* chance of a not-ready cycle (CPU work) */
    unsigned err_percent;                    /* chance of refusing a change (cfg_err) */
    /* state */
    unsigned countdown;                      /* cycles until done of the change in progress */
    bool changing;
    unsigned applied;                        /* packed configuration in force */
    unsigned pending;                        /* packed configuration being applied */
    unsigned win_cycle;
    unsigned changes;                        /* configuration changes accepted */
} tuner_env;

static inline uint32_t tuner_env_random(tuner_env *env)
{
    uint32_t x = env->rng ? env->rng : 0x9e3779b9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    env->rng = x;
    return x;
}

static inline void tuner_env_init(tuner_env *env, const stc_geometry *geometry, unsigned window,
                                  uint32_t seed)
{
    memset(env, 0, sizeof *env);
    env->geometry = *geometry;
    env->window = window;
    env->rng = seed;
    stc_config reset = stc_config_reset(geometry);
    env->applied = stc_tuner_config_pack(&reset);
}

static inline unsigned tuner_env_window_cycles(const stc_fixed_counters *c)
{
    unsigned n = c->accesses;
    if (c->misses > n) n = c->misses;
    if (c->cycles > n) n = c->cycles;
    if (c->first_probe_hits > n) n = c->first_probe_hits;
    return n;
}

/* The inputs of this cycle, given the tuner's outputs (Moore: they do not
 * depend on this cycle's inputs). Register writes are left to the caller. */
static inline void tuner_env_inputs(tuner_env *env, const stc_tuner_hw_out *out,
                                    stc_tuner_hw_in *in)
{
    memset(in, 0, sizeof *in);
    /* Events of the configuration in force. */
    const stc_fixed_counters *c = &env->counters[env->applied & 511];
    unsigned n = tuner_env_window_cycles(c);
    unsigned i = env->win_cycle;
    if (i < n) {
        in->ev_cycle = i < c->cycles;
        in->ev_miss = i < c->misses;
        in->ev_fph = i < c->first_probe_hits;
        in->ev_access = i + c->accesses >= n;
    }
    env->win_cycle = i >= n ? 0 : i + 1;

    /* The configuration port. */
    if (env->changing) {
        if (--env->countdown == 0) {
            in->cfg_done = true;
            env->changing = false;
            env->applied = env->pending;
            env->win_cycle = 0;
        }
        return;
    }
    bool busy = env->busy_percent && tuner_env_random(env) % 100 < env->busy_percent;
    in->cfg_ready = !busy;
    if (!busy && out->cfg_valid) {
        stc_config config = {1u << out->cfg_banks_log, 1u << out->cfg_ways_log,
                             1u << out->cfg_sub_log, out->cfg_wp};
        unsigned packed = stc_tuner_config_pack(&config);
        unsigned delay = env->max_delay ? tuner_env_random(env) % (env->max_delay + 1) : 0;
        env->changes++;
        if (packed == env->applied) {
            delay = 0; /* the controller: the same configuration completes at once */
        }
        bool refuse = env->err_percent && tuner_env_random(env) % 100 < env->err_percent;
        if (refuse || stc_config_check(&env->geometry, &config) != NULL) {
            in->cfg_err = true;
            delay = 0;
            packed = env->applied;
        }
        if (delay == 0) {
            in->cfg_done = true;
            env->applied = packed;
            env->win_cycle = 0;
        } else {
            env->changing = true;
            env->countdown = delay;
            env->pending = packed;
        }
    }
}

#endif
