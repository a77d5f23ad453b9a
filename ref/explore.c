/*
 * explore.c - candidates, the per-(trace, geometries) jobs on worker
 * threads, and the Pareto front (explore.h).
 */
#include "explore.h"

#include "fixed.h"
#include "monitor.h"
#include "monitor_tuner.h"
#include "stack.h"
#include "sweep.h"
#include "tune.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    BATCH_REFS = 1 << 16,
    /* Geometries fed from one reading of a trace. Reading and parsing the
     * trace costs about as much as one geometry's stack pass, so a few per
     * job save most of it, while enough jobs remain to keep every worker
     * busy when there are few traces. */
    SHAPES_PER_JOB = 4,
    /* Candidates sharing one simulation: way prediction built and not. */
    MAX_CANDIDATES_PER_SHAPE = 2,
    ERR_LEN = 512
};

/* ---- Candidates ------------------------------------------------------ */

/* The monitor tuner stcgen builds by default (gen/params.c derive_monitor
 * and derive_monitor_programs): the same checks, on the same library
 * calls, so a candidate is exactly a geometry plain stcgen accepts. */
static int check_monitor_tuner(const stc_geometry *geometry, const stc_energy_table *table,
                               char *why, size_t why_len)
{
    char reason[ERR_LEN];
    if (geometry->rows < STC_RTL_MIN_ROWS) {
        snprintf(why, why_len,
                 "stcgen refuses it: bank_bytes=%u: the generated RTL needs at least %d physical "
                 "lines a bank", geometry->bank_bytes, STC_RTL_MIN_ROWS);
        return -1;
    }
    unsigned max_bits = stc_monitor_max_sample_bits(geometry);
    if (STC_MONITOR_DEFAULT_SAMPLE_BITS > max_bits) {
        snprintf(why, why_len,
                 "stcgen refuses it: monitor_sample_bits=%d: this geometry allows 0..%u",
                 STC_MONITOR_DEFAULT_SAMPLE_BITS, max_bits);
        return -1;
    }
    stc_fixed_monitor_coefficients coefficients;
    if (stc_fixed_monitor_from_table(table, &coefficients, reason, sizeof reason) != 0) {
        snprintf(why, why_len, "stcgen refuses it: monitor decision coefficients: %s", reason);
        return -1;
    }
    for (int read_only = 0; read_only <= 1; read_only++) {
        stc_monitor_shape shape = {STC_MONITOR_DEFAULT_SAMPLE_BITS, STC_MONITOR_DEFAULT_ROTATE,
                                   STC_MONITOR_DEFAULT_TAG_BITS, read_only,
                                   STC_MONITOR_DEFAULT_COUNTER_BITS, true, false};
        stc_monitor *monitor = stc_monitor_create(geometry, &shape, reason, sizeof reason);
        if (!monitor) {
            snprintf(why, why_len, "stcgen refuses it: monitor: %s", reason);
            return -1;
        }
        stc_monitor_array arrays[STC_MONITOR_MAX_ARRAYS];
        size_t array_count = stc_monitor_arrays(monitor, arrays, STC_MONITOR_MAX_ARRAYS);
        int status = 0;
        for (size_t index = 0; index < array_count && status == 0; index++) {
            if (arrays[index].rows < 2) {
                snprintf(why, why_len,
                         "stcgen refuses it: monitor_sample_bits=%d: a monitor mapping would "
                         "watch %u set (an SRAM needs 2 rows or more)",
                         STC_MONITOR_DEFAULT_SAMPLE_BITS, arrays[index].rows);
                status = -1;
            }
        }
        stc_monitor_program *program = status == 0 ? malloc(sizeof *program) : NULL;
        if (status == 0 && (!program || stc_monitor_program_build(monitor, geometry, &coefficients,
                                                                  read_only, true, program, reason,
                                                                  sizeof reason) != 0)) {
            snprintf(why, why_len, "stcgen refuses it: monitor decision program: %s",
                     program ? reason : "out of memory");
            status = -1;
        }
        free(program);
        stc_monitor_destroy(monitor);
        if (status != 0) {
            return -1;
        }
    }
    return 0;
}

/* stcgen's output name (gen/params.c make_name) for the user fields. */
static void name_candidate(stc_explore_candidate *candidate)
{
    const stc_geometry *g = &candidate->geometry;
    char bank[24];
    if (g->bank_bytes % 1024 == 0) {
        snprintf(bank, sizeof bank, "%uk", g->bank_bytes / 1024);
    } else {
        snprintf(bank, sizeof bank, "%ub", g->bank_bytes);
    }
    snprintf(candidate->name, sizeof candidate->name, "b%u_%s_l%u_a%u%s", g->banks, bank,
             g->line_bytes, g->addr_bits, candidate->way_prediction ? "" : "_nowp");
}

int stc_explore_candidate_init(stc_explore_candidate *candidate, const stc_geometry *geometry,
                               bool way_prediction, char *why, size_t why_len)
{
    char reason[ERR_LEN];
    memset(candidate, 0, sizeof *candidate);
    candidate->geometry = *geometry;
    candidate->way_prediction = way_prediction;
    name_candidate(candidate);
    if (stc_geometry_init(&candidate->geometry, reason, sizeof reason) != 0) {
        snprintf(why, why_len, "stcgen refuses it: %s", reason);
        return -1;
    }
    const stc_geometry *g = &candidate->geometry;
    /* stcgen needs the default table too: the tuner's coefficients. */
    if (stc_energy_default(g, &candidate->energy_table, reason, sizeof reason) != 0) {
        snprintf(why, why_len, "stcgen refuses it: no default energy table (%s)", reason);
        return -1;
    }
    if (check_monitor_tuner(g, &candidate->energy_table, why, why_len) != 0) {
        return -1;
    }
    return 0;
}

void stc_explore_stcgen_command(const stc_explore_candidate *candidate, char *buf, size_t buf_len)
{
    const stc_geometry *g = &candidate->geometry;
    char addr[32] = "";
    if (g->addr_bits != 32) {
        snprintf(addr, sizeof addr, " --addr-bits %u", g->addr_bits);
    }
    snprintf(buf, buf_len, "stcgen --banks %u --bank-bytes %u --line-bytes %u%s%s", g->banks,
             g->bank_bytes, g->line_bytes, addr,
             candidate->way_prediction ? "" : " --no-way-prediction");
}

const char *stc_explore_tuned_unavailable(const stc_explore_candidate *candidate)
{
    if (!candidate->way_prediction) {
        return "the tuner's model considers every configuration, _P included: it does not "
               "model a cache built without way prediction";
    }
    return NULL;
}

/* ---- The plan: shapes and jobs --------------------------------------- */

/* One simulated geometry, shared by the candidates that differ only in
 * way prediction. */
typedef struct {
    const stc_geometry *geometry;
    size_t candidates[MAX_CANDIDATES_PER_SHAPE];
    size_t candidate_count;
} explore_shape;

typedef struct {
    size_t trace;
    size_t first_shape;
    size_t shape_count;
    int status;              /* 0, or 1 with err */
    char err[ERR_LEN];
    uint64_t references;
} explore_job;

static bool same_geometry(const stc_geometry *left, const stc_geometry *right)
{
    return left->banks == right->banks && left->bank_bytes == right->bank_bytes &&
           left->line_bytes == right->line_bytes && left->addr_bits == right->addr_bits &&
           left->mem_latency == right->mem_latency && left->wake_cycles == right->wake_cycles;
}

/* Group the candidates by geometry, in the order of first appearance.
 * Returns the number of shapes, or 0 with a message for a duplicate. */
static size_t plan_shapes(const stc_explore_request *request, explore_shape *shapes, char *err,
                          size_t err_len)
{
    size_t count = 0;
    for (size_t index = 0; index < request->candidate_count; index++) {
        const stc_explore_candidate *candidate = &request->candidates[index];
        explore_shape *shape = NULL;
        for (size_t s = 0; s < count && !shape; s++) {
            if (same_geometry(shapes[s].geometry, &candidate->geometry)) {
                shape = &shapes[s];
            }
        }
        if (!shape) {
            shape = &shapes[count++];
            shape->geometry = &candidate->geometry;
            shape->candidate_count = 0;
        }
        for (size_t other = 0; other < shape->candidate_count; other++) {
            if (request->candidates[shape->candidates[other]].way_prediction ==
                candidate->way_prediction) {
                snprintf(err, err_len, "candidate %s is listed twice", candidate->name);
                return 0;
            }
        }
        shape->candidates[shape->candidate_count++] = index;
    }
    return count;
}

/* ---- One job: one trace, a few shapes -------------------------------- */

typedef struct {
    const explore_shape *shape;
    stc_repeat_filter filter;
    stc_stack_sweep *sweep;
    stc_tune_run *tune_runs[MAX_CANDIDATES_PER_SHAPE]; /* NULL: not tuned */
} shape_run;

/* Everything the workers share. Only the fields under `lock` change. */
typedef struct {
    const stc_explore_request *request;
    const explore_shape *shapes;
    explore_job *jobs;
    size_t job_count;
    stc_explore_cell *cells;
    pthread_mutex_t lock;
    size_t next_job;
    size_t jobs_done;
    bool failed;             /* a job failed: take no more */
} explore_pool;

/* A job's own buffers, reused across its shapes. */
typedef struct {
    stc_ref *batch;
    stc_filtered_batch filtered;
    stc_oracle_table *oracle;
    stc_tune_result *tune_result;
} job_scratch;

static int scratch_init(job_scratch *scratch)
{
    memset(scratch, 0, sizeof *scratch);
    scratch->batch = malloc(BATCH_REFS * sizeof *scratch->batch);
    scratch->filtered.ifetch = malloc(BATCH_REFS * sizeof *scratch->filtered.ifetch);
    scratch->filtered.data = malloc(BATCH_REFS * sizeof *scratch->filtered.data);
    scratch->oracle = malloc(sizeof *scratch->oracle);
    scratch->tune_result = malloc(sizeof *scratch->tune_result);
    return scratch->batch && scratch->filtered.ifetch && scratch->filtered.data &&
                   scratch->oracle && scratch->tune_result
               ? 0
               : -1;
}

static void scratch_free(job_scratch *scratch)
{
    free(scratch->batch);
    free(scratch->filtered.ifetch);
    free(scratch->filtered.data);
    free(scratch->oracle);
    free(scratch->tune_result);
}

static void shape_runs_free(shape_run *runs, size_t count)
{
    for (size_t index = 0; index < count; index++) {
        stc_stack_sweep_destroy(runs[index].sweep);
        for (size_t c = 0; c < MAX_CANDIDATES_PER_SHAPE; c++) {
            stc_tune_run_destroy(runs[index].tune_runs[c]);
        }
    }
}

/* The tuner's twin with the generator's defaults: stcsim tune --mode
 * hardware (the monitor search, its window and margin). */
static stc_tune_options hardware_tuner_options(void)
{
    stc_tune_options options = stc_tune_options_default();
    options.plan.kind = STC_SEARCH_MONITOR;
    options.window = STC_MONITOR_TUNER_DEFAULT_WINDOW;
    options.plan.margin_shift = STC_MONITOR_TUNER_DEFAULT_MARGIN;
    return options;
}

static int shape_runs_init(const explore_pool *pool, const explore_job *job, shape_run *runs,
                           char *err, size_t err_len)
{
    const stc_explore_request *request = pool->request;
    stc_tune_options tune_options = hardware_tuner_options();
    memset(runs, 0, job->shape_count * sizeof *runs);
    for (size_t index = 0; index < job->shape_count; index++) {
        shape_run *run = &runs[index];
        run->shape = &pool->shapes[job->first_shape + index];
        stc_repeat_filter_init(&run->filter, run->shape->geometry);
        run->sweep = stc_stack_sweep_create(run->shape->geometry, err, err_len);
        if (!run->sweep) {
            return -1;
        }
        for (size_t c = 0; request->tuned && c < run->shape->candidate_count; c++) {
            const stc_explore_candidate *candidate =
                &request->candidates[run->shape->candidates[c]];
            if (stc_explore_tuned_unavailable(candidate)) {
                continue;
            }
            run->tune_runs[c] = stc_tune_run_create(&candidate->geometry, &candidate->energy_table,
                                                    &tune_options, true, err, err_len);
            if (!run->tune_runs[c]) {
                return -1;
            }
        }
    }
    return 0;
}

/* Read the job's trace to its end (or the limit), feeding every shape. */
static int feed_trace(const explore_pool *pool, explore_job *job, shape_run *runs,
                      job_scratch *scratch)
{
    const stc_explore_request *request = pool->request;
    char err[ERR_LEN];
    /* Readers share nothing (trace.h, byte_source.h): one per job. */
    stc_trace *trace = stc_trace_open(request->traces[job->trace], request->format, err,
                                      sizeof err);
    if (!trace) {
        snprintf(job->err, sizeof job->err, "%s", err);
        return -1;
    }
    int status = 0;
    for (;;) {
        size_t want = BATCH_REFS;
        if (request->limit && request->limit - job->references < want) {
            want = (size_t)(request->limit - job->references);
        }
        long got = want ? stc_trace_read(trace, scratch->batch, want) : 0;
        if (got < 0) {
            snprintf(job->err, sizeof job->err, "%s", stc_trace_error(trace));
            status = -1;
            break;
        }
        if (got == 0) {
            break;
        }
        job->references += (uint64_t)got;
        for (size_t index = 0; index < job->shape_count; index++) {
            shape_run *run = &runs[index];
            stc_repeat_filter_run(&run->filter, scratch->batch, (size_t)got, &scratch->filtered);
            stc_stack_sweep_run(run->sweep, &scratch->filtered);
            for (size_t c = 0; c < MAX_CANDIDATES_PER_SHAPE; c++) {
                if (run->tune_runs[c]) {
                    stc_tune_run_feed(run->tune_runs[c], scratch->batch, (size_t)got);
                }
            }
        }
    }
    if (stc_trace_close(trace, err, sizeof err) != 0 && status == 0) {
        snprintf(job->err, sizeof job->err, "%s", err);
        status = -1;
    }
    return status;
}

/* The cheapest configuration the candidate may use; the first lowest in
 * canonical order on a tie, so the choice is reproducible. */
static int choose_best(const stc_explore_candidate *candidate, const stc_stack_sweep *sweep,
                       stc_cache_kind kind, stc_oracle_table *oracle, stc_explore_best *best)
{
    if (stc_oracle_table_fill(oracle, sweep, &candidate->energy_table, kind) != 0) {
        return -1;
    }
    long chosen = -1;
    for (size_t index = 0; index < oracle->count; index++) {
        if (oracle->configs[index].way_predict && !candidate->way_prediction) {
            continue;
        }
        if (chosen < 0 || oracle->energy[index].total_nj < oracle->energy[chosen].total_nj) {
            chosen = (long)index;
        }
    }
    if (chosen < 0) {
        return -1;
    }
    best->config = oracle->configs[chosen];
    best->counters = oracle->counters[chosen];
    best->energy = oracle->energy[chosen];
    return 0;
}

static int finish_cell(const explore_pool *pool, const explore_job *job, const shape_run *run,
                       size_t slot, job_scratch *scratch, char *err, size_t err_len)
{
    const stc_explore_request *request = pool->request;
    size_t candidate_index = run->shape->candidates[slot];
    const stc_explore_candidate *candidate = &request->candidates[candidate_index];
    stc_explore_cell *cell = &pool->cells[candidate_index * request->trace_count + job->trace];
    memset(cell, 0, sizeof *cell);
    for (int kind = STC_ICACHE; kind <= STC_DCACHE; kind++) {
        stc_explore_best *best = &cell->best[kind];
        if (choose_best(candidate, run->sweep, (stc_cache_kind)kind, scratch->oracle, best) != 0) {
            snprintf(err, err_len, "%s: internal error: the sweep has no configuration for %s",
                     request->traces[job->trace], candidate->name);
            return -1;
        }
        cell->energy_nj += best->energy.total_nj;
        cell->request_misses += best->counters.request_misses;
        cell->cycles += best->counters.cycles;
    }
    if (run->tune_runs[slot]) {
        stc_tune_result *tuned = scratch->tune_result;
        char why[ERR_LEN / 2];
        if (stc_tune_run_finish(run->tune_runs[slot], tuned, why, sizeof why) != 0) {
            snprintf(err, err_len, "%s: tuner on %s: %s", request->traces[job->trace],
                     candidate->name, why);
            return -1;
        }
        cell->tuned = true;
        for (int kind = STC_ICACHE; kind <= STC_DCACHE; kind++) {
            cell->tuned_nj += tuned->cache[kind].run_energy.total_nj;
            cell->tuned_final[kind] = tuned->cache[kind].hardware.final_config;
        }
    }
    return 0;
}

static void run_job(explore_pool *pool, explore_job *job)
{
    shape_run runs[SHAPES_PER_JOB];
    job_scratch scratch;
    char err[ERR_LEN] = "out of memory";
    memset(runs, 0, sizeof runs);
    job->status = 1;
    if (scratch_init(&scratch) != 0 ||
        shape_runs_init(pool, job, runs, err, sizeof err) != 0) {
        snprintf(job->err, sizeof job->err, "%s", err);
    } else if (feed_trace(pool, job, runs, &scratch) == 0) {
        job->status = 0;
        for (size_t index = 0; index < job->shape_count && job->status == 0; index++) {
            for (size_t slot = 0; slot < runs[index].shape->candidate_count; slot++) {
                if (finish_cell(pool, job, &runs[index], slot, &scratch, job->err,
                                sizeof job->err) != 0) {
                    job->status = 1;
                    break;
                }
            }
        }
    }
    shape_runs_free(runs, job->shape_count);
    scratch_free(&scratch);
}

/* ---- Workers ---------------------------------------------------------- */

static void *worker_main(void *argument)
{
    explore_pool *pool = argument;
    for (;;) {
        pthread_mutex_lock(&pool->lock);
        if (pool->failed || pool->next_job == pool->job_count) {
            pthread_mutex_unlock(&pool->lock);
            return NULL;
        }
        explore_job *job = &pool->jobs[pool->next_job++];
        pthread_mutex_unlock(&pool->lock);

        run_job(pool, job);

        pthread_mutex_lock(&pool->lock);
        pool->jobs_done++;
        pool->failed = pool->failed || job->status != 0;
        if (pool->request->progress) {
            pool->request->progress(pool->request->progress_context, pool->jobs_done,
                                    pool->job_count);
        }
        pthread_mutex_unlock(&pool->lock);
    }
}

/* Run the pool's jobs on up to `workers` threads (the caller's thread
 * alone if none can be started). Jobs are taken in order, so when one
 * fails every job before it has run to its end: the first failure in job
 * order is the same whatever the number of workers. */
static unsigned run_workers(explore_pool *pool, unsigned workers)
{
    pthread_t threads[256];
    if (workers > sizeof threads / sizeof threads[0]) {
        workers = sizeof threads / sizeof threads[0];
    }
    unsigned started = 0;
    while (workers > 1 && started < workers &&
           pthread_create(&threads[started], NULL, worker_main, pool) == 0) {
        started++;
    }
    if (started == 0) {
        worker_main(pool);
        return 1;
    }
    for (unsigned index = 0; index < started; index++) {
        pthread_join(threads[index], NULL);
    }
    return started;
}

unsigned stc_explore_online_cpus(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus >= 1 ? (unsigned)cpus : 1;
}

/* Jobs: every trace, the shapes in chunks of SHAPES_PER_JOB, trace-major. */
static size_t plan_jobs(size_t trace_count, size_t shape_count, explore_job *jobs)
{
    size_t count = 0;
    for (size_t trace = 0; trace < trace_count; trace++) {
        for (size_t first = 0; first < shape_count; first += SHAPES_PER_JOB) {
            explore_job *job = &jobs[count++];
            memset(job, 0, sizeof *job);
            job->trace = trace;
            job->first_shape = first;
            job->shape_count =
                shape_count - first < SHAPES_PER_JOB ? shape_count - first : SHAPES_PER_JOB;
        }
    }
    return count;
}

static int check_request(const stc_explore_request *request, char *err, size_t err_len)
{
    if (request->candidate_count == 0 || request->trace_count == 0) {
        snprintf(err, err_len, "nothing to explore (no %s)",
                 request->candidate_count == 0 ? "candidate" : "trace");
        return -1;
    }
    for (size_t index = 0; index < request->trace_count; index++) {
        if (!strcmp(request->traces[index], "-")) {
            snprintf(err, err_len, "standard input (-) cannot be explored: each trace is read "
                                   "several times; give a file");
            return -1;
        }
    }
    return 0;
}

int stc_explore_run(const stc_explore_request *request, stc_explore_result *result, char *err,
                    size_t err_len)
{
    memset(result, 0, sizeof *result);
    if (check_request(request, err, err_len) != 0) {
        return 2;
    }
    explore_shape *shapes = calloc(request->candidate_count, sizeof *shapes);
    size_t shape_count = shapes ? plan_shapes(request, shapes, err, err_len) : 0;
    if (shape_count == 0) {
        int status = shapes ? 2 : 1;
        if (!shapes) {
            snprintf(err, err_len, "out of memory");
        }
        free(shapes);
        return status;
    }
    size_t chunks = (shape_count + SHAPES_PER_JOB - 1) / SHAPES_PER_JOB;
    explore_pool pool = {.request = request, .shapes = shapes};
    pool.jobs = calloc(request->trace_count * chunks, sizeof *pool.jobs);
    pool.cells = calloc(request->candidate_count * request->trace_count, sizeof *pool.cells);
    result->references = calloc(request->trace_count, sizeof *result->references);
    if (!pool.jobs || !pool.cells || !result->references) {
        snprintf(err, err_len, "out of memory");
        free(shapes);
        free(pool.jobs);
        free(pool.cells);
        free(result->references);
        result->references = NULL;
        return 1;
    }
    pool.job_count = plan_jobs(request->trace_count, shape_count, pool.jobs);
    pthread_mutex_init(&pool.lock, NULL);
    unsigned workers = request->workers ? request->workers : stc_explore_online_cpus();
    if (workers > pool.job_count) {
        workers = (unsigned)pool.job_count;
    }
    result->workers = run_workers(&pool, workers);
    pthread_mutex_destroy(&pool.lock);

    int status = 0;
    for (size_t index = 0; index < pool.job_count && status == 0; index++) {
        if (pool.jobs[index].status != 0) {
            snprintf(err, err_len, "%s", pool.jobs[index].err);
            status = 1;
        }
    }
    for (size_t index = 0; index < pool.job_count; index++) {
        result->references[pool.jobs[index].trace] = pool.jobs[index].references;
    }
    free(shapes);
    free(pool.jobs);
    if (status != 0) {
        free(pool.cells);
        free(result->references);
        memset(result, 0, sizeof *result);
        return status;
    }
    result->cells = pool.cells;
    result->candidate_count = request->candidate_count;
    result->trace_count = request->trace_count;
    return 0;
}

void stc_explore_result_free(stc_explore_result *result)
{
    free(result->cells);
    free(result->references);
    memset(result, 0, sizeof *result);
}

/* ---- Pareto front ------------------------------------------------------ */

static bool dominates(const stc_explore_point *a, const stc_explore_point *b)
{
    return a->energy <= b->energy && a->area <= b->area &&
           (a->energy < b->energy || a->area < b->area);
}

size_t stc_explore_pareto(const stc_explore_point *points, size_t count, bool *on_front)
{
    size_t front = 0;
    for (size_t index = 0; index < count; index++) {
        const stc_explore_point *point = &points[index];
        bool free_of_nan = !isnan(point->energy) && !isnan(point->area);
        bool dominated = false;
        for (size_t other = 0; other < count && free_of_nan && !dominated; other++) {
            dominated = other != index && dominates(&points[other], point);
        }
        on_front[index] = free_of_nan && !dominated;
        front += on_front[index];
    }
    return front;
}
