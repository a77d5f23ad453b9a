/*
 * k_stencil.c - a 1-D Jacobi stencil with a barrier per iteration.
 *
 * size points (doubles), ITERATIONS sweeps: dst[i] = (src[i-1] + src[i] +
 * src[i+1]) / 3 over the interior, the end points copied, then every
 * thread waits at a barrier (tracer.h) and the arrays swap. Thread t owns
 * a consecutive block of points; with size a multiple of 8 * threads the
 * blocks start on 64-byte boundaries.
 *
 * Expected sharing: true sharing at the block edges (each sweep reads the
 * neighbours' last-written edge points) and on the barrier's line (every
 * thread adds to its count, waiters read its sense), growing with the
 * thread count; none with one thread.
 */
#include "tracer.h"

enum { ITERATIONS = 32 };

typedef struct {
    double *x, *y;        /* the two arrays; the result ends in x (ITERATIONS is even) */
    double *check_x, *check_y;
    mct_barrier *barrier; /* in its own line */
    unsigned long n;
    unsigned threads;
} stencil_state;

static double initial(unsigned long i)
{
    return (double)((i * 37) % 101);
}

static void sweep(const double *src, double *dst, unsigned long lo, unsigned long hi,
                  unsigned long n)
{
    for (unsigned long i = lo; i < hi; i++)
        dst[i] = (i == 0 || i == n - 1) ? src[i] : (src[i - 1] + src[i] + src[i + 1]) * (1.0 / 3);
}

static void *stencil_setup(const mct_params *params, char *err, size_t err_len)
{
    unsigned long n = params->size;
    if (n < 2 * params->threads) {
        mct_fail(err, err_len, "size %lu: at least two points per thread", n);
        return NULL;
    }
    stencil_state *s = mct_alloc(sizeof *s, 64);
    s->x = mct_alloc(sizeof(double) * n, 64);
    s->y = mct_alloc(sizeof(double) * n, 64);
    s->check_x = mct_alloc(sizeof(double) * n, 64);
    s->check_y = mct_alloc(sizeof(double) * n, 64);
    s->barrier = mct_alloc(64, 64);
    s->barrier->threads = params->threads;
    for (unsigned long i = 0; i < n; i++)
        s->x[i] = s->check_x[i] = initial(i);
    s->n = n;
    s->threads = params->threads;
    return s;
}

static void stencil_thread(void *state, unsigned tid)
{
    const stencil_state *s = state;
    unsigned long n = s->n;
    unsigned long lo = mct_share_lo(n, tid, s->threads), hi = mct_share_lo(n, tid + 1, s->threads);
    double *src = s->x, *dst = s->y;
    unsigned sense = 0;
    for (unsigned it = 0; it < ITERATIONS; it++) {
        sweep(src, dst, lo, hi, n);
        sense = mct_barrier_wait(s->barrier, sense);
        double *t = src;
        src = dst;
        dst = t;
    }
}

static int stencil_check(const void *state, char *err, size_t err_len)
{
    const stencil_state *s = state;
    double *src = s->check_x, *dst = s->check_y;
    for (unsigned it = 0; it < ITERATIONS; it++) {
        sweep(src, dst, 0, s->n, s->n);
        double *t = src;
        src = dst;
        dst = t;
    }
    for (unsigned long i = 0; i < s->n; i++)
        if (s->x[i] != src[i]) {
            mct_fail(err, err_len, "point %lu = %g, expected %g (a broken barrier?)", i, s->x[i],
                     src[i]);
            return -1;
        }
    return 0;
}

const mct_kernel mct_k_stencil = {
    .name = "stencil",
    .summary = "1-D Jacobi, 32 sweeps with a barrier after each; size = points; true sharing "
               "at block edges and on the barrier",
    .default_size = 2048,
    .max_size = 1000000,
    .setup = stencil_setup,
    .thread = stencil_thread,
    .check = stencil_check,
};
