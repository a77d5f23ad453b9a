/*
 * tracer.h - the multi-core tracer's interface for kernels (traces/mc/README.md).
 *
 * A kernel is C compiled with gcc -fsanitize=thread, which makes gcc call
 * __tsan_read4(addr), __tsan_write8(addr), __tsan_atomic32_exchange(...) and
 * so on before every load, store and atomic of the kernel's code. The
 * program is linked not with libtsan but with tracer.c, whose versions of
 * those functions write one trace record per access ("CORE LABEL HEXADDR
 * SIZE", ref/mc_trace.h) and pass a turn between the threads, so that one
 * thread runs at a time in an order that depends only on the command line.
 *
 * A kernel provides an mct_kernel (below): setup and check run in the main
 * thread and are not traced; thread runs once in each of N threads, whose
 * index is the trace's core number, and every access it makes is traced.
 *
 * Rules a kernel follows (the tracer enforces what it can):
 *   - memory: mct_alloc (the arena), its own stack, or read-only globals;
 *     an access anywhere else stops the run with an error (the tracer must
 *     map every address to a position that does not depend on where the
 *     system put the program, see tracer.c);
 *   - no library calls from traced code (their loads and stores would be
 *     missing from the trace): make-mc-traces.sh checks the kernel objects'
 *     undefined symbols;
 *   - synchronisation only with the helpers below, or any loop that waits
 *     for another thread calling mct_yield() on every round: the turn only
 *     moves at a quantum's end, at mct_yield and at thread exit, so a thread
 *     that waits without yielding waits forever (pthread mutexes, condition
 *     variables and barriers would block the turn holder: not allowed).
 */
#ifndef STC_MC_TRACER_H
#define STC_MC_TRACER_H

#include <stddef.h>
#include <stdint.h>

enum { MCT_MAX_THREADS = 8 };

typedef struct {
    unsigned threads;   /* 1 .. MCT_MAX_THREADS */
    unsigned long size; /* the kernel's size parameter (its meaning: the kernel's summary) */
} mct_params;

typedef struct {
    const char *name;           /* as on the command line, e.g. "lock" */
    const char *summary;        /* one line: what it does, what size means, the expected sharing */
    unsigned long default_size;
    unsigned long max_size;     /* sizes above are refused (arena and run time) */
    /* Main thread, not traced: allocate (mct_alloc) and initialise; NULL
     * with a message in err on failure. */
    void *(*setup)(const mct_params *params, char *err, size_t err_len);
    /* Thread tid (0 .. threads-1), traced. */
    void (*thread)(void *state, unsigned tid);
    /* Main thread, not traced, after every thread has ended: 0 if the
     * result is right (a broken lock or scheduler shows here), else -1 and
     * a message. */
    int (*check)(const void *state, char *err, size_t err_len);
} mct_kernel;

/* Zeroed memory from the arena, aligned to align (a power of two, at most
 * 4096); never freed. Only from setup. Exits with a message when the arena
 * (64 MiB) is full. */
void *mct_alloc(size_t bytes, size_t align);

/* snprintf into err, for setup and check, which may call no library
 * function themselves (make-mc-traces.sh checks that kernels call only
 * the runtime); returns -1. */
int mct_fail(char *err, size_t err_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Give the turn to the next thread (the scheduler's choice); returns when
 * this thread has the turn again. Every wait for another thread calls it on
 * every round. From the main thread (setup, check) it does nothing. */
void mct_yield(void);

/* ---------------------------------------------------------------------
 * Synchronisation built on gcc's __atomic builtins. These are static
 * inline on purpose: they are compiled into the kernel with the kernel's
 * instrumentation, so their atomic operations are traced like any access
 * (an atomic load is a read record, a store or read-modify-write a write
 * record; tracer.c says why).
 */

/* A test-and-test-and-set spin lock: the exchange is tried; while it
 * fails the waiter reads the lock word (a shared copy, no bus traffic
 * while the holder keeps it) and yields the turn on every round. */
typedef struct {
    uint32_t word; /* 0 free, 1 held */
} mct_lock;

static inline void mct_lock_acquire(mct_lock *lock)
{
    while (__atomic_exchange_n(&lock->word, 1u, __ATOMIC_ACQUIRE) != 0) {
        do
            mct_yield();
        while (__atomic_load_n(&lock->word, __ATOMIC_RELAXED) != 0);
    }
}

static inline void mct_lock_release(mct_lock *lock)
{
    __atomic_store_n(&lock->word, 0u, __ATOMIC_RELEASE);
}

/* A centralised sense-reversing barrier for a fixed number of threads:
 * arrivals count up with an atomic add; the last resets the count and flips
 * the shared sense, the others spin on the sense. Each thread keeps its own
 * sense, starting at 0: sense = mct_barrier_wait(&b, sense). */
typedef struct {
    uint32_t count;   /* arrivals in this episode */
    uint32_t sense;   /* flipped by the last arrival */
    uint32_t threads; /* set before the threads start */
} mct_barrier;

static inline unsigned mct_barrier_wait(mct_barrier *barrier, unsigned sense)
{
    sense = !sense;
    if (__atomic_add_fetch(&barrier->count, 1u, __ATOMIC_ACQ_REL) == barrier->threads) {
        __atomic_store_n(&barrier->count, 0u, __ATOMIC_RELAXED);
        __atomic_store_n(&barrier->sense, sense, __ATOMIC_RELEASE);
    } else {
        while (__atomic_load_n(&barrier->sense, __ATOMIC_ACQUIRE) != sense)
            mct_yield();
    }
    return sense;
}

/* Wait until *word == value (yielding the turn on every round). */
static inline void mct_wait_u32(const uint32_t *word, uint32_t value)
{
    while (__atomic_load_n(word, __ATOMIC_ACQUIRE) != value)
        mct_yield();
}

/* Thread tid's share [lo, hi) of n items split in `threads` nearly equal
 * consecutive parts (plain arithmetic: no memory access). */
static inline unsigned long mct_share_lo(unsigned long n, unsigned tid, unsigned threads)
{
    return n * tid / threads;
}

/* The kernels (one file each, traces/mc/k_*.c). */
extern const mct_kernel mct_k_lock, mct_k_queue, mct_k_packed, mct_k_padded, mct_k_matmul,
    mct_k_stencil, mct_k_migratory;

/* ---------------------------------------------------------------------
 * For the driver (main.c): run a kernel and write its trace.
 */
typedef struct {
    unsigned quantum;      /* accesses per turn, >= 1 */
    uint64_t seed;         /* 0: round robin, every turn quantum accesses; else
                            * the next thread drawn from a PRNG seeded with it,
                            * and each turn 1 .. 2 * quantum - 1 accesses */
    uint64_t max_records;  /* more is an error (a kernel that waits forever) */
    int fd;                /* where the trace goes */
} mct_schedule;

/* Set up, run the threads under the scheduler writing the trace to
 * schedule->fd, and check the kernel's result. 0 on success (*records: the
 * number written), else -1 and a message. Errors inside the threads (an
 * address outside the known regions, a write error, too many records) end
 * the process with a message and exit status 1: a trace is not written
 * half. Once per process. */
int mct_run(const mct_kernel *kernel, const mct_params *params, const mct_schedule *schedule,
            uint64_t *records, char *err, size_t err_len);

#endif
