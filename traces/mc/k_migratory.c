/*
 * k_migratory.c - a migratory read-modify-write pattern: the threads take
 * turns updating one shared record.
 *
 * A token (its own 64-byte line) names the thread whose turn it is; the
 * holder reads and writes every field of a 64-byte record (count, sum,
 * last writer, a small histogram), then passes the token to the next
 * thread. Between turns a thread updates a few words of its own. size
 * updates in total: size / threads rounds of one update per thread.
 *
 * Expected sharing: the record moves from cache to cache on every update
 * (read miss served by the last writer, then an upgrade: the textbook
 * migratory pattern), true-sharing misses on the record and the token;
 * none with one thread.
 */
#include "tracer.h"

enum { PRIVATE_WORDS = 16, BINS = 5 };

typedef struct {
    uint64_t count, sum, last;
    uint64_t hist[BINS];
} record;

typedef struct {
    uint32_t *token;  /* alone in its line */
    record *shared;   /* one 64-byte line */
    uint64_t *private_words;
    unsigned threads;
    unsigned long rounds;
} migratory_state;

static void *migratory_setup(const mct_params *params, char *err, size_t err_len)
{
    if (params->size < params->threads) {
        mct_fail(err, err_len, "size %lu: at least one update per thread", params->size);
        return NULL;
    }
    migratory_state *s = mct_alloc(sizeof *s, 64);
    s->token = mct_alloc(64, 64);
    s->shared = mct_alloc(sizeof *s->shared, 64);
    s->private_words = mct_alloc(sizeof(uint64_t) * PRIVATE_WORDS * params->threads, 64);
    s->threads = params->threads;
    s->rounds = params->size / params->threads;
    return s;
}

static void migratory_thread(void *state, unsigned tid)
{
    const migratory_state *s = state;
    record *rec = s->shared;
    uint64_t *mine = s->private_words + (size_t)tid * PRIVATE_WORDS;
    uint32_t next = (tid + 1) % s->threads;
    for (unsigned long r = 0; r < s->rounds; r++) {
        for (unsigned k = 0; k < 4; k++)
            mine[(r + k) % PRIVATE_WORDS] += r;
        mct_wait_u32(s->token, tid);
        rec->count++;
        rec->sum += tid + r;
        rec->last = tid;
        rec->hist[(r + tid) % BINS]++;
        __atomic_store_n(s->token, next, __ATOMIC_RELEASE);
    }
}

static int migratory_check(const void *state, char *err, size_t err_len)
{
    const migratory_state *s = state;
    uint64_t updates = (uint64_t)s->rounds * s->threads, hist = 0;
    for (unsigned b = 0; b < BINS; b++)
        hist += s->shared->hist[b];
    if (s->shared->count != updates || hist != updates) {
        mct_fail(err, err_len, "count %llu and histogram %llu, expected %llu",
                 (unsigned long long)s->shared->count, (unsigned long long)hist,
                 (unsigned long long)updates);
        return -1;
    }
    return 0;
}

const mct_kernel mct_k_migratory = {
    .name = "migratory",
    .summary = "threads update a shared 64-B record in turn (token passing); size = updates in "
               "total; migratory true sharing",
    .default_size = 10000,
    .max_size = 10000000,
    .setup = migratory_setup,
    .thread = migratory_thread,
    .check = migratory_check,
};
