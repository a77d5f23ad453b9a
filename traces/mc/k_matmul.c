/*
 * k_matmul.c - a parallel matrix multiply, C = A x B, size x size doubles.
 *
 * Thread t computes a block of consecutive rows of C (the i-j-k loop: the
 * sum stays in a register, A is read along rows, B down columns). A and B
 * are only read; a row of C is written by one thread only, and rows are
 * whole lines when size is a multiple of 8.
 *
 * Expected sharing: read sharing only, so (almost) no coherence misses:
 * the misses are compulsory, capacity and conflict (B's columns stride
 * size * 8 bytes, which folds onto few sets).
 */
#include "tracer.h"

typedef struct {
    const double *a, *b;
    double *c;
    unsigned long n;
    unsigned threads;
} matmul_state;

static void *matmul_setup(const mct_params *params, char *err, size_t err_len)
{
    unsigned long n = params->size;
    if (n < params->threads) {
        mct_fail(err, err_len, "size %lu: at least one row per thread", n);
        return NULL;
    }
    matmul_state *s = mct_alloc(sizeof *s, 64);
    double *a = mct_alloc(sizeof(double) * n * n, 64);
    double *b = mct_alloc(sizeof(double) * n * n, 64);
    s->c = mct_alloc(sizeof(double) * n * n, 64);
    /* small integers: every sum is exact, so the check can be exact */
    for (unsigned long i = 0; i < n * n; i++) {
        a[i] = (double)((i * 7 + 3) % 11) - 5;
        b[i] = (double)((i * 5 + 1) % 13) - 6;
    }
    s->a = a;
    s->b = b;
    s->n = n;
    s->threads = params->threads;
    return s;
}

static void matmul_thread(void *state, unsigned tid)
{
    const matmul_state *s = state;
    const double *a = s->a, *b = s->b;
    double *c = s->c;
    unsigned long n = s->n;
    unsigned long lo = mct_share_lo(n, tid, s->threads), hi = mct_share_lo(n, tid + 1, s->threads);
    for (unsigned long i = lo; i < hi; i++)
        for (unsigned long j = 0; j < n; j++) {
            double sum = 0;
            for (unsigned long k = 0; k < n; k++)
                sum += a[i * n + k] * b[k * n + j];
            c[i * n + j] = sum;
        }
}

static int matmul_check(const void *state, char *err, size_t err_len)
{
    const matmul_state *s = state;
    unsigned long n = s->n;
    for (unsigned long i = 0; i < n; i++)
        for (unsigned long j = 0; j < n; j++) {
            double sum = 0;
            for (unsigned long k = 0; k < n; k++)
                sum += s->a[i * n + k] * s->b[k * n + j];
            if (s->c[i * n + j] != sum) {
                mct_fail(err, err_len, "C[%lu][%lu] = %g, expected %g", i, j, s->c[i * n + j], sum);
                return -1;
            }
        }
    return 0;
}

const mct_kernel mct_k_matmul = {
    .name = "matmul",
    .summary = "parallel matrix multiply, rows of C split between threads; size = matrix "
               "order; read sharing only",
    .default_size = 48,
    .max_size = 1000,
    .setup = matmul_setup,
    .thread = matmul_thread,
    .check = matmul_check,
};
