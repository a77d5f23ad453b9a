/*
 * k_counters.c - per-thread counters, packed in one line or padded to 64 B
 * (false sharing on and off): two kernels, "packed" and "padded".
 *
 * size input words in total, split evenly; each thread adds its words into
 * its own counter, which lives in memory (volatile: every addition is a
 * load and a store of the counter, as in the classic false-sharing demo).
 * packed: the counters are consecutive 8-byte words of one 64-byte line;
 * padded: each counter is alone in its 64-byte line. Each thread's input
 * starts on a 64-byte boundary, so only the counters can share a line.
 *
 * Expected sharing: packed, no word is ever shared yet the counters' line
 * ping-pongs: false-sharing misses (for any line of 16 B or more, with two
 * threads or more); padded: no coherence miss at all (lines up to 64 B).
 */
#include "tracer.h"

typedef struct {
    volatile uint64_t *counters; /* thread t's at counters[t * stride] */
    unsigned stride;             /* words: 1 packed, 8 padded */
    uint32_t *input[MCT_MAX_THREADS];
    unsigned long count[MCT_MAX_THREADS];
    uint64_t expected;
    unsigned threads;
} counters_state;

static void *counters_setup(const mct_params *params, unsigned stride)
{
    counters_state *s = mct_alloc(sizeof *s, 64);
    s->stride = stride;
    s->threads = params->threads;
    s->counters = mct_alloc(sizeof(uint64_t) * stride * MCT_MAX_THREADS, 64);
    uint32_t x = 12345;
    for (unsigned t = 0; t < params->threads; t++) {
        unsigned long lo = mct_share_lo(params->size, t, params->threads);
        unsigned long hi = mct_share_lo(params->size, t + 1, params->threads);
        s->count[t] = hi - lo;
        s->input[t] = mct_alloc(sizeof(uint32_t) * (hi - lo + 1), 64);
        for (unsigned long i = 0; i < hi - lo; i++) {
            x = x * 1664525u + 1013904223u;
            s->input[t][i] = x >> 20;
            s->expected += x >> 20;
        }
    }
    return s;
}

static void *packed_setup(const mct_params *params, char *err, size_t err_len)
{
    (void)err;
    (void)err_len;
    return counters_setup(params, 1);
}

static void *padded_setup(const mct_params *params, char *err, size_t err_len)
{
    (void)err;
    (void)err_len;
    return counters_setup(params, 8);
}

static void counters_thread(void *state, unsigned tid)
{
    const counters_state *s = state;
    volatile uint64_t *mine = s->counters + (size_t)tid * s->stride;
    const uint32_t *in = s->input[tid];
    unsigned long n = s->count[tid];
    for (unsigned long i = 0; i < n; i++)
        *mine += in[i];
}

static int counters_check(const void *state, char *err, size_t err_len)
{
    const counters_state *s = state;
    uint64_t sum = 0;
    for (unsigned t = 0; t < s->threads; t++)
        sum += s->counters[(size_t)t * s->stride];
    if (sum != s->expected) {
        mct_fail(err, err_len, "sum of the counters %llu, expected %llu",
                 (unsigned long long)sum, (unsigned long long)s->expected);
        return -1;
    }
    return 0;
}

const mct_kernel mct_k_packed = {
    .name = "packed",
    .summary = "per-thread counters packed in one 64-B line; size = input words in total; "
               "false sharing",
    .default_size = 100000,
    .max_size = 10000000,
    .setup = packed_setup,
    .thread = counters_thread,
    .check = counters_check,
};

const mct_kernel mct_k_padded = {
    .name = "padded",
    .summary = "per-thread counters padded to 64 B each; size = input words in total; "
               "no coherence misses",
    .default_size = 100000,
    .max_size = 10000000,
    .setup = padded_setup,
    .thread = counters_thread,
    .check = counters_check,
};
