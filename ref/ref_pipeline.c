/*
 * ref_pipeline.c - a trace read ahead on a second thread (ref_pipeline.h).
 *
 * A ring of STC_REF_PIPELINE_SLOTS batches. Batch n lives in slot
 * n % SLOTS; `produced` counts the batches read, taken[r] the batches
 * reader r (0: the caller, 1: the worker) is done with. The reading side
 * may fill batch `produced` once every reader is done with the batch that
 * used its slot before, produced - taken[r] < SLOTS. One lock and one
 * condition guard the counters; the batches themselves are touched
 * outside the lock, by whoever the counters say owns them. A batch is
 * thousands of references, so the lock is taken a few hundred times a
 * second: its cost does not show.
 *
 * Whether the reading and the worker run on threads of their own or inside
 * the caller's stc_ref_pipeline_next changes who does the work, never the
 * batches or their order.
 */
#include "ref_pipeline.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { CALLER = 0, WORKER = 1 };

struct stc_ref_pipeline {
    stc_trace *trace;
    size_t batch_refs;
    uint64_t limit;
    uint64_t refs_read;
    stc_batch_prepare *prepare;
    void *prepare_context;
    stc_batch_worker *worker;
    void *worker_context;
    unsigned readers; /* 1, or 2 with a worker */

    stc_ref *slot_refs[STC_REF_PIPELINE_SLOTS];
    size_t slot_counts[STC_REF_PIPELINE_SLOTS];

    pthread_mutex_t lock;
    pthread_cond_t changed; /* any counter or flag below changed */
    uint64_t produced;
    uint64_t taken[2];
    bool caller_holds; /* the caller has batch taken[CALLER] until its next call */
    bool ended;        /* the reading side is done: end_status says how */
    long end_status;   /* 0 at the end of the trace or the limit, -1 on an error */
    bool stopping;     /* finish before the end: threads leave at once */

    bool reading_thread, worker_thread;
    pthread_t reading_id, worker_id;
};

/* Lock held. The oldest batch some reader still needs. */
static uint64_t oldest_needed(const stc_ref_pipeline *pipeline)
{
    uint64_t oldest = pipeline->taken[CALLER];
    if (pipeline->readers > 1 && pipeline->taken[WORKER] < oldest) {
        oldest = pipeline->taken[WORKER];
    }
    return oldest;
}

/* Lock held on entry and exit. Waits for a free slot, reads the next batch
 * into it (the lock released meanwhile: only one thread ever reads) and
 * publishes it, or marks the end. Returns false once reading is over. */
static bool read_one_batch(stc_ref_pipeline *pipeline)
{
    while (!pipeline->stopping && !pipeline->ended &&
           pipeline->produced - oldest_needed(pipeline) >= STC_REF_PIPELINE_SLOTS) {
        pthread_cond_wait(&pipeline->changed, &pipeline->lock);
    }
    if (pipeline->stopping || pipeline->ended) {
        return false;
    }
    size_t slot = (size_t)(pipeline->produced % STC_REF_PIPELINE_SLOTS);
    size_t want = pipeline->batch_refs;
    if (pipeline->limit && pipeline->limit - pipeline->refs_read < want) {
        want = (size_t)(pipeline->limit - pipeline->refs_read);
    }
    pthread_mutex_unlock(&pipeline->lock);
    long got = want ? stc_trace_read(pipeline->trace, pipeline->slot_refs[slot], want) : 0;
    if (got > 0 && pipeline->prepare) {
        pipeline->prepare(pipeline->prepare_context, (unsigned)slot, pipeline->slot_refs[slot],
                          (size_t)got);
    }
    pthread_mutex_lock(&pipeline->lock);
    if (got <= 0) {
        pipeline->ended = true;
        pipeline->end_status = got < 0 ? -1 : 0;
    } else {
        pipeline->slot_counts[slot] = (size_t)got;
        pipeline->refs_read += (uint64_t)got;
        pipeline->produced++;
    }
    pthread_cond_broadcast(&pipeline->changed);
    return !pipeline->ended;
}

static void *reading_main(void *argument)
{
    stc_ref_pipeline *pipeline = argument;
    pthread_mutex_lock(&pipeline->lock);
    while (read_one_batch(pipeline)) {
    }
    pthread_mutex_unlock(&pipeline->lock);
    return NULL;
}

/* Lock held on entry and exit: hands batch taken[WORKER] to the worker
 * (lock released meanwhile) and marks it done. */
static void work_one_batch(stc_ref_pipeline *pipeline)
{
    size_t slot = (size_t)(pipeline->taken[WORKER] % STC_REF_PIPELINE_SLOTS);
    pthread_mutex_unlock(&pipeline->lock);
    pipeline->worker(pipeline->worker_context, (unsigned)slot, pipeline->slot_refs[slot],
                     pipeline->slot_counts[slot]);
    pthread_mutex_lock(&pipeline->lock);
    pipeline->taken[WORKER]++;
    pthread_cond_broadcast(&pipeline->changed);
}

static void *worker_main(void *argument)
{
    stc_ref_pipeline *pipeline = argument;
    pthread_mutex_lock(&pipeline->lock);
    for (;;) {
        while (!pipeline->stopping && !pipeline->ended &&
               pipeline->taken[WORKER] == pipeline->produced) {
            pthread_cond_wait(&pipeline->changed, &pipeline->lock);
        }
        if (pipeline->stopping || pipeline->taken[WORKER] == pipeline->produced) {
            break; /* stopped, or the end with every batch seen */
        }
        work_one_batch(pipeline);
    }
    pthread_mutex_unlock(&pipeline->lock);
    return NULL;
}

static void pipeline_free(stc_ref_pipeline *pipeline)
{
    for (size_t slot = 0; slot < STC_REF_PIPELINE_SLOTS; slot++) {
        free(pipeline->slot_refs[slot]);
    }
    pthread_cond_destroy(&pipeline->changed);
    pthread_mutex_destroy(&pipeline->lock);
    free(pipeline);
}

stc_ref_pipeline *stc_ref_pipeline_start(const stc_ref_pipeline_spec *spec, char *err,
                                         size_t err_len)
{
    stc_ref_pipeline *pipeline = calloc(1, sizeof *pipeline);
    if (!pipeline) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    if (pthread_mutex_init(&pipeline->lock, NULL) != 0) {
        free(pipeline);
        snprintf(err, err_len, "cannot create a lock");
        return NULL;
    }
    if (pthread_cond_init(&pipeline->changed, NULL) != 0) {
        pthread_mutex_destroy(&pipeline->lock);
        free(pipeline);
        snprintf(err, err_len, "cannot create a condition variable");
        return NULL;
    }
    pipeline->trace = spec->trace;
    pipeline->batch_refs = spec->batch_refs ? spec->batch_refs : 1;
    pipeline->limit = spec->limit;
    pipeline->prepare = spec->prepare;
    pipeline->prepare_context = spec->prepare_context;
    pipeline->worker = spec->worker;
    pipeline->worker_context = spec->worker_context;
    pipeline->readers = spec->worker ? 2 : 1;
    for (size_t slot = 0; slot < STC_REF_PIPELINE_SLOTS; slot++) {
        pipeline->slot_refs[slot] = malloc(pipeline->batch_refs * sizeof(stc_ref));
        if (!pipeline->slot_refs[slot]) {
            pipeline_free(pipeline);
            snprintf(err, err_len, "out of memory");
            return NULL;
        }
    }
    if (spec->threads) {
        /* A thread that cannot be created leaves its part to the caller. */
        pipeline->reading_thread =
            pthread_create(&pipeline->reading_id, NULL, reading_main, pipeline) == 0;
        pipeline->worker_thread =
            spec->worker && pthread_create(&pipeline->worker_id, NULL, worker_main, pipeline) == 0;
    }
    return pipeline;
}

long stc_ref_pipeline_next(stc_ref_pipeline *pipeline, const stc_ref **refs, unsigned *slot)
{
    pthread_mutex_lock(&pipeline->lock);
    if (pipeline->caller_holds) {
        pipeline->taken[CALLER]++;
        pipeline->caller_holds = false;
        pthread_cond_broadcast(&pipeline->changed);
    }
    if (!pipeline->reading_thread && pipeline->taken[CALLER] == pipeline->produced) {
        read_one_batch(pipeline);
    }
    while (!pipeline->ended && pipeline->taken[CALLER] == pipeline->produced) {
        pthread_cond_wait(&pipeline->changed, &pipeline->lock);
    }
    if (pipeline->taken[CALLER] == pipeline->produced) {
        long status = pipeline->end_status;
        pthread_mutex_unlock(&pipeline->lock);
        return status;
    }
    size_t held = (size_t)(pipeline->taken[CALLER] % STC_REF_PIPELINE_SLOTS);
    pipeline->caller_holds = true;
    if (pipeline->worker && !pipeline->worker_thread) {
        work_one_batch(pipeline); /* the worker's turn on this batch comes first */
    }
    pthread_mutex_unlock(&pipeline->lock);
    *refs = pipeline->slot_refs[held];
    *slot = (unsigned)held;
    return (long)pipeline->slot_counts[held];
}

void stc_ref_pipeline_finish(stc_ref_pipeline *pipeline)
{
    if (!pipeline) {
        return;
    }
    pthread_mutex_lock(&pipeline->lock);
    if (!pipeline->ended) {
        pipeline->stopping = true;
    }
    pthread_cond_broadcast(&pipeline->changed);
    pthread_mutex_unlock(&pipeline->lock);
    if (pipeline->reading_thread) {
        pthread_join(pipeline->reading_id, NULL);
    }
    if (pipeline->worker_thread) {
        pthread_join(pipeline->worker_id, NULL);
    }
    pipeline_free(pipeline);
}

unsigned stc_ref_pipeline_threads(const stc_ref_pipeline *pipeline)
{
    return (unsigned)pipeline->reading_thread + (unsigned)pipeline->worker_thread;
}
