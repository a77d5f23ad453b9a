/*
 * k_lock.c - a lock-protected shared counter.
 *
 * size increments in total, split evenly between the threads. Each
 * increment takes the spin lock (tracer.h), adds one to the counter,
 * notes its thread and lets go; between increments a thread updates a few
 * words of its own (private work, in its own lines). The lock word and
 * the counter share a line, as a lock and the data it guards usually do.
 *
 * Expected sharing: the line migrates with the lock: true-sharing misses
 * and cache-to-cache transfers on every hand-over, waiters' reads of the
 * held lock (shared copies invalidated at the release); none with one
 * thread. The private words add only compulsory misses.
 */
#include "tracer.h"

enum { PRIVATE_WORDS = 16 }; /* 128 B per thread: two 64-byte lines */

typedef struct {
    mct_lock lock;
    uint32_t unused;
    uint64_t counter;
    uint64_t last; /* the thread of the last increment */
} shared_line;

typedef struct {
    shared_line *shared;
    uint64_t *private_words; /* thread t: [t * PRIVATE_WORDS, (t + 1) * PRIVATE_WORDS) */
    unsigned threads;
    unsigned long size;
} lock_state;

static void *lock_setup(const mct_params *params, char *err, size_t err_len)
{
    (void)err;
    (void)err_len;
    lock_state *s = mct_alloc(sizeof *s, 64);
    s->shared = mct_alloc(sizeof *s->shared, 64);
    s->private_words = mct_alloc(sizeof(uint64_t) * PRIVATE_WORDS * params->threads, 64);
    s->threads = params->threads;
    s->size = params->size;
    return s;
}

static void lock_thread(void *state, unsigned tid)
{
    lock_state *s = state;
    shared_line *shared = s->shared;
    uint64_t *mine = s->private_words + (size_t)tid * PRIVATE_WORDS;
    unsigned long lo = mct_share_lo(s->size, tid, s->threads);
    unsigned long hi = mct_share_lo(s->size, tid + 1, s->threads);
    for (unsigned long i = lo; i < hi; i++) {
        for (unsigned k = 0; k < 4; k++)
            mine[(i + k) % PRIVATE_WORDS] += i;
        mct_lock_acquire(&shared->lock);
        shared->counter++;
        shared->last = tid;
        mct_lock_release(&shared->lock);
    }
}

static int lock_check(const void *state, char *err, size_t err_len)
{
    const lock_state *s = state;
    if (s->shared->counter != s->size) {
        mct_fail(err, err_len, "counter %llu, expected %lu (a broken lock?)",
                 (unsigned long long)s->shared->counter, s->size);
        return -1;
    }
    return 0;
}

const mct_kernel mct_k_lock = {
    .name = "lock",
    .summary = "lock-protected shared counter; size = increments in total; true sharing, "
               "migrating lock line",
    .default_size = 20000,
    .max_size = 10000000,
    .setup = lock_setup,
    .thread = lock_thread,
    .check = lock_check,
};
