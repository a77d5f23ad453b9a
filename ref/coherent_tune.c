/* coherent_tune.c - per-core configurations with coherence in the cost
 * (coherent_tune.h). */
#include "coherent_tune.h"

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t stc_mc_store_value(uint64_t n)
{
    uint64_t z = n + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int stc_cstc_apply(stc_cstc_system *system, const stc_mc_ref *ref, uint64_t *stores)
{
    if (ref->label == STC_MC_FETCH)
        return stc_cstc_fetch(system, ref->core);
    stc_coh_op op = ref->label == STC_MC_WRITE ? STC_COH_OP_STORE : STC_COH_OP_LOAD;
    uint64_t value = op == STC_COH_OP_STORE ? stc_mc_store_value((*stores)++) : 0;
    return stc_cstc_access(system, ref->core, op, ref->addr, ref->size, value, NULL);
}

/* ------------------------------------------------------------ evaluate */

static void price_run(const stc_ctune_problem *problem, const stc_cstc_system *system,
                      stc_ctune_assignment *out)
{
    memset(&out->total, 0, sizeof out->total);
    stc_cstc_run_cycles_of(system, &out->cycles);
    for (unsigned c = 0; c < problem->system.cores; c++) {
        stc_cstc_counters counters;
        stc_cstc_core_counters(system, c, &counters);
        stc_cstc_energy_of(problem->energy, &out->configs[c], &counters, &out->per_core[c]);
        /* Every cache leaks until the run's last cycle (ENERGY.md 3.9.2):
         * a core that slows the bus for the others costs their leakage. */
        stc_coh_energy_add_static(&out->per_core[c], out->cycles.cycles,
                                  stc_cstc_static_per_cycle(problem->energy, &out->configs[c]));
        /* and the processor's stall over the cycles its core waited */
        stc_coh_energy_add_stall(&out->per_core[c], stc_cstc_core_cycles_of(system, c)->waited_cycles,
                                 stc_cstc_stall_per_cycle(problem->energy));
        stc_coh_energy_add(&out->total, &out->per_core[c]);
    }
    out->violations = stc_cstc_violation_count(system);
    stc_cstc_total(system, &out->counters);
}

int stc_ctune_evaluate(const stc_ctune_problem *problem, const stc_config *configs,
                       stc_ctune_assignment *out, char *err, size_t err_len)
{
    stc_cstc_config config = problem->system;
    memcpy(config.configs, configs, problem->system.cores * sizeof *configs);
    stc_cstc_system *system = stc_cstc_create(&config, err, err_len);
    if (!system)
        return -1;
    uint64_t stores = 0;
    for (size_t i = 0; i < problem->ref_count; i++) {
        if (stc_cstc_apply(system, &problem->refs[i], &stores) != 0) {
            snprintf(err, err_len, "record %zu: %s", i + 1, stc_cstc_error(system));
            stc_cstc_destroy(system);
            return -1;
        }
    }
    memset(out, 0, sizeof *out);
    memcpy(out->configs, configs, problem->system.cores * sizeof *configs);
    price_run(problem, system, out);
    stc_cstc_destroy(system);
    return 0;
}

/* ------------------------------------------------------------ descend */

/* The assignments run so far and their energies: coordinate descent
 * comes back to an assignment whenever no other core changed since a
 * core's last turn. */
typedef struct {
    stc_ctune_assignment *runs;
    unsigned count;
    unsigned capacity;
} run_memo;

static bool same_assignment(const stc_config *left, const stc_config *right, unsigned cores)
{
    for (unsigned c = 0; c < cores; c++)
        if (!stc_config_equal(&left[c], &right[c]))
            return false;
    return true;
}

/* The energy of configs, from the memo or by a run recorded in it. */
static const stc_ctune_assignment *evaluate_once(const stc_ctune_problem *problem,
                                                 run_memo *memo, const stc_config *configs,
                                                 char *err, size_t err_len)
{
    for (unsigned i = 0; i < memo->count; i++)
        if (same_assignment(memo->runs[i].configs, configs, problem->system.cores))
            return &memo->runs[i];
    if (memo->count == memo->capacity) {
        unsigned capacity = memo->capacity ? 2 * memo->capacity : 64;
        stc_ctune_assignment *grown = realloc(memo->runs, capacity * sizeof *grown);
        if (!grown) {
            snprintf(err, err_len, "out of memory");
            return NULL;
        }
        memo->runs = grown;
        memo->capacity = capacity;
    }
    if (stc_ctune_evaluate(problem, configs, &memo->runs[memo->count], err, err_len) != 0)
        return NULL;
    return &memo->runs[memo->count++];
}

/* Core's turn: every configuration with the others fixed; current takes
 * the cheapest if strictly cheaper. Returns 1 if core changed, 0 if not,
 * -1 on error. */
static int improve_core(const stc_ctune_problem *problem, run_memo *memo, unsigned core,
                        stc_ctune_assignment *current, char *err, size_t err_len)
{
    stc_config candidates[STC_MAX_CONFIGS];
    size_t count = stc_config_enumerate(&problem->system.geometry, candidates, STC_MAX_CONFIGS);
    stc_ctune_assignment best = *current;
    for (size_t i = 0; i < count; i++) {
        stc_config trial[STC_COH_MAX_CORES];
        memcpy(trial, current->configs, sizeof trial);
        trial[core] = candidates[i];
        const stc_ctune_assignment *run = evaluate_once(problem, memo, trial, err, err_len);
        if (!run)
            return -1;
        if (run->total.total_with_stall_nj < best.total.total_with_stall_nj)
            best = *run;
    }
    bool changed = !stc_config_equal(&best.configs[core], &current->configs[core]);
    *current = best;
    return changed;
}

int stc_ctune_descend(const stc_ctune_problem *problem, const stc_config *start,
                      stc_ctune_assignment *best, unsigned *rounds, unsigned *runs, char *err,
                      size_t err_len)
{
    run_memo memo = {0};
    int status = 0;
    const stc_ctune_assignment *first = evaluate_once(problem, &memo, start, err, err_len);
    if (!first) {
        free(memo.runs);
        return -1;
    }
    stc_ctune_assignment current = *first;
    bool changed = true;
    for (*rounds = 0; changed && status == 0; ++*rounds) {
        changed = false;
        for (unsigned c = 0; c < problem->system.cores && status == 0; c++) {
            int moved = improve_core(problem, &memo, c, &current, err, err_len);
            status = moved < 0 ? -1 : 0;
            changed |= moved > 0;
        }
    }
    *best = current;
    *runs = memo.count;
    free(memo.runs);
    return status;
}

/* ------------------------------------------------------------ alone */

/* Core's references alone through one cache in config: its single-cache
 * energy, or NAN with a message. */
static double single_cache_nj(const stc_ctune_problem *problem, unsigned core,
                              const stc_config *config, char *err, size_t err_len)
{
    stc_cache *cache = stc_cache_create(&problem->system.geometry, STC_DCACHE, config, NULL, err,
                                        err_len);
    if (!cache)
        return NAN;
    for (size_t i = 0; i < problem->ref_count; i++) {
        const stc_mc_ref *ref = &problem->refs[i];
        if (ref->core != core || ref->label == STC_MC_FETCH)
            continue;
        unsigned cycles;
        stc_op op = ref->label == STC_MC_WRITE ? STC_OP_WRITE : STC_OP_READ;
        stc_cache_request(cache, op, ref->addr, ref->size, NULL, NULL, &cycles);
    }
    double energy =
        stc_energy_of(&problem->energy->table, config, stc_cache_counters(cache)).total_nj;
    stc_cache_destroy(cache);
    return energy;
}

int stc_ctune_alone(const stc_ctune_problem *problem, stc_config *configs, double *single_nj,
                    char *err, size_t err_len)
{
    stc_config candidates[STC_MAX_CONFIGS];
    size_t count = stc_config_enumerate(&problem->system.geometry, candidates, STC_MAX_CONFIGS);
    for (unsigned c = 0; c < problem->system.cores; c++) {
        single_nj[c] = INFINITY;
        for (size_t i = 0; i < count; i++) {
            double energy = single_cache_nj(problem, c, &candidates[i], err, err_len);
            if (isnan(energy))
                return -1;
            if (energy < single_nj[c]) {
                single_nj[c] = energy;
                configs[c] = candidates[i];
            }
        }
    }
    return 0;
}
