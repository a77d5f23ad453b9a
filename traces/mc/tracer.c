/*
 * tracer.c - the multi-core tracer's runtime (traces/mc/README.md).
 *
 * Kernels are compiled with gcc -fsanitize=thread and linked with this file
 * instead of libtsan: the __tsan_* functions gcc calls before every load,
 * store and atomic of the kernel's code write a trace record each
 * ("CORE LABEL HEXADDR SIZE", ref/mc_trace.h), and a turn passes between
 * the kernel's threads so that exactly one runs kernel code at a time.
 *
 * Why the trace is the same bytes for the same command, whatever the load
 * of the machine:
 *   - the threads are real pthreads, but each waits on its own semaphore
 *     until it holds the turn; the holder passes it (posts the next one's
 *     semaphore, then waits on its own) after `quantum` accesses, in
 *     mct_yield and when it ends. Who runs next depends only on the
 *     threads' states and the schedule (round robin, or a PRNG with the
 *     seed of the command line), never on timing;
 *   - the turn passes *before* an access is recorded and made, so the
 *     order of the records is the order of the accesses;
 *   - addresses are translated into fixed windows (below), so neither
 *     address-space randomisation nor where glibc puts things shows.
 *
 * Trace address windows (the host address minus the region's start, plus):
 *   0x00400000  the program image, __executable_start .. _end (globals);
 *   0x10000000  the arena of mct_alloc (64 MiB);
 *   0x70000000  the thread stacks, thread i at i * 256 KiB (glibc puts a
 *               thread's TLS and descriptor at the top of its stack).
 * An access anywhere else ends the run with an error.
 *
 * Global mutable state: the runtime's callbacks get no context argument
 * (gcc calls __tsan_read4(addr) and nothing else), so the scheduler, the
 * output buffer and the regions live in one static struct, `rt`, and each
 * thread finds its own descriptor in a thread-local pointer. Only the turn
 * holder touches `rt` (the semaphore hand-over orders it), apart from the
 * set-up and the final join in the main thread.
 */
#define _GNU_SOURCE /* MAP_NORESERVE */
#include "tracer.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum {
    ARENA_BYTES = 64u << 20,
    STACK_BYTES = 256u << 10,
    OUT_BUFFER = 1u << 20,
};
#define TRACE_IMAGE UINT64_C(0x00400000)
#define TRACE_ARENA UINT64_C(0x10000000)
#define TRACE_STACKS UINT64_C(0x70000000)

/* The linker's symbols around the program image (GNU ld's default script). */
extern char __executable_start[];
extern char _end[];

struct thread {
    unsigned id;
    int done;
    sem_t turn; /* posted when this thread gets the turn */
    pthread_t handle;
};

static struct {
    /* the run */
    const mct_kernel *kernel;
    void *state;
    unsigned threads;
    struct thread thread[MCT_MAX_THREADS];
    unsigned live;       /* threads not yet ended */
    sem_t all_done;      /* posted by the last thread to end */
    /* the schedule */
    unsigned quantum;
    uint64_t seed;       /* 0: round robin */
    uint64_t prng;       /* splitmix64 state, seeded mode */
    unsigned left;       /* accesses left in the holder's turn */
    uint64_t records, max_records;
    uint64_t per_core[MCT_MAX_THREADS];
    /* memory */
    char *arena;
    size_t arena_used;
    char *stacks;
    /* output */
    int fd;
    size_t out_len;
    char out[OUT_BUFFER];
} rt;

/* The calling thread's descriptor; NULL in the main thread, whose accesses
 * (setup, check) are not traced. */
static _Thread_local struct thread *self_thread;

static _Noreturn void fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "mc-tracer: error: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(1);
}

/* ------------------------------------------------------------ output --- */

static void flush_out(void)
{
    size_t done = 0;
    while (done < rt.out_len) {
        ssize_t n = write(rt.fd, rt.out + done, rt.out_len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            fatal("writing the trace: %s", n < 0 ? strerror(errno) : "nothing written");
        done += (size_t)n;
    }
    rt.out_len = 0;
}

static void put_text(const char *text)
{
    size_t n = strlen(text);
    if (rt.out_len + n > sizeof rt.out)
        flush_out();
    memcpy(rt.out + rt.out_len, text, n);
    rt.out_len += n;
}

/* "CORE LABEL HEXADDR SIZE\n"; core < 8, label 0/1, size 1..16. */
static void put_record(unsigned core, unsigned label, uint64_t addr, unsigned size)
{
    if (rt.out_len + 48 > sizeof rt.out)
        flush_out();
    char *p = rt.out + rt.out_len;
    *p++ = (char)('0' + core);
    *p++ = ' ';
    *p++ = (char)('0' + label);
    *p++ = ' ';
    char hex[16];
    int n = 0;
    do {
        hex[n++] = "0123456789abcdef"[addr & 15];
        addr >>= 4;
    } while (addr);
    while (n)
        *p++ = hex[--n];
    *p++ = ' ';
    if (size >= 10)
        *p++ = (char)('0' + size / 10);
    *p++ = (char)('0' + size % 10);
    *p++ = '\n';
    rt.out_len = (size_t)(p - rt.out);
}

/* ---------------------------------------------------------- schedule --- */

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Accesses in the next turn. */
static unsigned next_quantum(void)
{
    if (rt.seed == 0 || rt.quantum == 1)
        return rt.quantum;
    return 1 + (unsigned)(splitmix64(&rt.prng) % (2 * (uint64_t)rt.quantum - 1));
}

/* The next holder after `from`: a live thread other than `from` (round
 * robin: the next in index order; seeded: drawn uniformly), or `from` if
 * no other lives. */
static unsigned next_thread(unsigned from)
{
    unsigned others[MCT_MAX_THREADS], count = 0;
    for (unsigned k = 1; k < rt.threads; k++) {
        unsigned j = (from + k) % rt.threads;
        if (!rt.thread[j].done)
            others[count++] = j;
    }
    if (count == 0)
        return from;
    if (rt.seed == 0)
        return others[0];
    return others[splitmix64(&rt.prng) % count];
}

static void wait_turn(struct thread *t)
{
    while (sem_wait(&t->turn) != 0)
        if (errno != EINTR)
            fatal("sem_wait: %s", strerror(errno));
}

/* Hand the turn from `self` to the scheduler's next choice; with `ending`
 * the caller does not wait to get it back. */
static void pass_turn(struct thread *self, int ending)
{
    unsigned next = next_thread(self->id);
    rt.left = next_quantum();
    if (next == self->id && !ending)
        return; /* alone: keep running */
    if (sem_post(&rt.thread[next].turn) != 0)
        fatal("sem_post: %s", strerror(errno));
    if (!ending)
        wait_turn(self);
}

void mct_yield(void)
{
    struct thread *self = self_thread;
    if (self)
        pass_turn(self, 0);
}

static void *thread_main(void *arg)
{
    struct thread *self = arg;
    self_thread = self;
    wait_turn(self);
    rt.kernel->thread(rt.state, self->id);
    self->done = 1;
    if (--rt.live == 0) {
        if (sem_post(&rt.all_done) != 0)
            fatal("sem_post: %s", strerror(errno));
    } else {
        pass_turn(self, 1);
    }
    return NULL;
}

/* ------------------------------------------------------------ access --- */

static _Noreturn void outside(uintptr_t a, unsigned size)
{
    fatal("thread %u: access of %u bytes at %p, outside the arena, the thread stacks and the "
          "program image: kernels use mct_alloc memory, their stack and read-only globals, and "
          "call no library function",
          self_thread->id, size, (void *)a);
}

static uint64_t translate(uintptr_t a, unsigned size)
{
    if (a - (uintptr_t)rt.arena < ARENA_BYTES)
        return TRACE_ARENA + (a - (uintptr_t)rt.arena);
    if (a - (uintptr_t)rt.stacks < (uintptr_t)STACK_BYTES * MCT_MAX_THREADS)
        return TRACE_STACKS + (a - (uintptr_t)rt.stacks);
    if (a - (uintptr_t)__executable_start < (uintptr_t)(_end - __executable_start))
        return TRACE_IMAGE + (a - (uintptr_t)__executable_start);
    outside(a, size);
}

/* One access of the turn holder: first the turn passes if its quantum is
 * used up (so the record and the access happen in the same turn), then the
 * record. label 0 read, 1 write; size 1..16. */
static void record(const volatile void *addr, unsigned size, unsigned label)
{
    struct thread *self = self_thread;
    if (!self)
        return;
    if (rt.left == 0)
        pass_turn(self, 0);
    rt.left--;
    if (++rt.records > rt.max_records)
        fatal("more than %" PRIu64 " records: a kernel waiting for something that never "
              "happens? (mc-kernels --max-records raises the limit)",
              rt.max_records);
    rt.per_core[self->id]++;
    put_record(self->id, label, translate((uintptr_t)addr, size), size);
}

/* An access of another size (gcc's __tsan_read_range, e.g. a struct copy):
 * one record per 16-byte aligned piece, so that no record is wider than 16
 * bytes (the narrowest line the model is swept with). */
static void record_range(const volatile void *addr, uintptr_t size, unsigned label)
{
    uintptr_t a = (uintptr_t)addr;
    while (size > 0) {
        uintptr_t piece = 16 - (a & 15);
        if (piece > size)
            piece = size;
        record((const volatile void *)a, (unsigned)piece, label);
        a += piece;
        size -= piece;
    }
}

/* ------------------------------------------------ compiler interface --- */
/* What gcc -fsanitize=thread calls (gcc's sanitizer.def; the signatures of
 * compiler-rt's tsan_interface.h and tsan_interface_atomic.h). Prototypes
 * first, for -Wmissing-prototypes. */

void __tsan_init(void);
void __tsan_func_entry(void *pc);
void __tsan_func_exit(void);
void __tsan_read_range(void *addr, uintptr_t size);
void __tsan_write_range(void *addr, uintptr_t size);
void __tsan_atomic_thread_fence(int order);
void __tsan_atomic_signal_fence(int order);

/* Called from every instrumented file's constructor: nothing to set up. */
void __tsan_init(void) {}
/* Function entry and exit (call stacks for race reports): not needed. */
void __tsan_func_entry(void *pc) { (void)pc; }
void __tsan_func_exit(void) {}

void __tsan_read_range(void *addr, uintptr_t size) { record_range(addr, size, 0); }
void __tsan_write_range(void *addr, uintptr_t size) { record_range(addr, size, 1); }

/* Plain accesses: aligned, unaligned (__tsan_unaligned_*) and, with
 * --param tsan-distinguish-volatile=1, volatile ones. */
#define PLAIN(N)                                                                                   \
    void __tsan_read##N(void *addr);                                                               \
    void __tsan_write##N(void *addr);                                                              \
    void __tsan_unaligned_read##N(void *addr);                                                     \
    void __tsan_unaligned_write##N(void *addr);                                                    \
    void __tsan_volatile_read##N(void *addr);                                                      \
    void __tsan_volatile_write##N(void *addr);                                                     \
    void __tsan_read##N(void *addr) { record(addr, N, 0); }                                        \
    void __tsan_write##N(void *addr) { record(addr, N, 1); }                                       \
    void __tsan_unaligned_read##N(void *addr) { record(addr, N, 0); }                              \
    void __tsan_unaligned_write##N(void *addr) { record(addr, N, 1); }                             \
    void __tsan_volatile_read##N(void *addr) { record(addr, N, 0); }                               \
    void __tsan_volatile_write##N(void *addr) { record(addr, N, 1); }
PLAIN(1)
PLAIN(2)
PLAIN(4)
PLAIN(8)
PLAIN(16)

/* Atomics. The runtime does the operation itself, sequentially consistent
 * whatever order was asked (only one thread runs at a time anyway). An
 * atomic load is a read record; a store, and every read-modify-write, one
 * write record: a locked read-modify-write takes the line exclusively with
 * one BusRdX (x86 does so, even for a compare-exchange that fails), which a
 * read then a write record would model as BusRd + BusUpgr. */
#define ATOMICS(BITS, T)                                                                           \
    T __tsan_atomic##BITS##_load(const volatile T *a, int mo);                                     \
    void __tsan_atomic##BITS##_store(volatile T *a, T v, int mo);                                  \
    T __tsan_atomic##BITS##_exchange(volatile T *a, T v, int mo);                                  \
    T __tsan_atomic##BITS##_fetch_add(volatile T *a, T v, int mo);                                 \
    T __tsan_atomic##BITS##_fetch_sub(volatile T *a, T v, int mo);                                 \
    T __tsan_atomic##BITS##_fetch_and(volatile T *a, T v, int mo);                                 \
    T __tsan_atomic##BITS##_fetch_or(volatile T *a, T v, int mo);                                  \
    T __tsan_atomic##BITS##_fetch_xor(volatile T *a, T v, int mo);                                 \
    T __tsan_atomic##BITS##_fetch_nand(volatile T *a, T v, int mo);                                \
    int __tsan_atomic##BITS##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fmo);  \
    int __tsan_atomic##BITS##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo);    \
    T __tsan_atomic##BITS##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo);        \
    T __tsan_atomic##BITS##_load(const volatile T *a, int mo)                                      \
    {                                                                                              \
        (void)mo;                                                                                  \
        record(a, BITS / 8, 0);                                                                    \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                               \
    }                                                                                              \
    void __tsan_atomic##BITS##_store(volatile T *a, T v, int mo)                                   \
    {                                                                                              \
        (void)mo;                                                                                  \
        record(a, BITS / 8, 1);                                                                    \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                  \
    }                                                                                              \
    T __tsan_atomic##BITS##_exchange(volatile T *a, T v, int mo)                                   \
    {                                                                                              \
        (void)mo;                                                                                  \
        record(a, BITS / 8, 1);                                                                    \
        return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                        \
    }                                                                                              \
    T __tsan_atomic##BITS##_fetch_add(volatile T *a, T v, int mo)                                  \
    {                                                                                              \
        (void)mo;                                                                                  \
        record(a, BITS / 8, 1);                                                                    \
        return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                         \
    }                                                                                              \
    T __tsan_atomic##BITS##_fetch_sub(volatile T *a, T v, int mo)                                  \
    {                                                                                              \
        (void)mo;                                                                                  \
        record(a, BITS / 8, 1);                                                                    \
        return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                                         \
    }                                                                                              \
    T __tsan_atomic##BITS##_fetch_and(volatile T *a, T v, int mo)                                  \
    {                                                                                              \
        (void)mo;                                                                                  \
        record(a, BITS / 8, 1);                                                                    \
        return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                                         \
    }                                                                                              \
    T __tsan_atomic##BITS##_fetch_or(volatile T *a, T v, int mo)                                   \
    {                                                                                              \
        (void)mo;                                                                                  \
        record(a, BITS / 8, 1);                                                                    \
        return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                                          \
    }                                                                                              \
    T __tsan_atomic##BITS##_fetch_xor(volatile T *a, T v, int mo)                                  \
    {                                                                                              \
        (void)mo;                                                                                  \
        record(a, BITS / 8, 1);                                                                    \
        return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);                                         \
    }                                                                                              \
    T __tsan_atomic##BITS##_fetch_nand(volatile T *a, T v, int mo)                                 \
    {                                                                                              \
        (void)mo;                                                                                  \
        record(a, BITS / 8, 1);                                                                    \
        return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST);                                        \
    }                                                                                              \
    int __tsan_atomic##BITS##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fmo)   \
    {                                                                                              \
        (void)mo;                                                                                  \
        (void)fmo;                                                                                 \
        record(a, BITS / 8, 1);                                                                    \
        return __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);        \
    }                                                                                              \
    int __tsan_atomic##BITS##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo)     \
    {                                                                                              \
        /* never fails spuriously: the strong one serves */                                        \
        return __tsan_atomic##BITS##_compare_exchange_strong(a, c, v, mo, fmo);                    \
    }                                                                                              \
    T __tsan_atomic##BITS##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo)         \
    {                                                                                              \
        __tsan_atomic##BITS##_compare_exchange_strong(a, &c, v, mo, fmo);                          \
        return c;                                                                                  \
    }
ATOMICS(8, uint8_t)
ATOMICS(16, uint16_t)
ATOMICS(32, uint32_t)
ATOMICS(64, uint64_t)

/* Fences order nothing more here: one thread runs at a time, and the
 * hand-over of the turn is a full barrier (sem_post / sem_wait). */
void __tsan_atomic_thread_fence(int order)
{
    (void)order;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
void __tsan_atomic_signal_fence(int order)
{
    (void)order;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* --------------------------------------------------------------- run --- */

int mct_fail(char *err, size_t err_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
    return -1;
}

void *mct_alloc(size_t bytes, size_t align)
{
    if (align == 0 || align > 4096 || (align & (align - 1)))
        fatal("mct_alloc: alignment %zu is not a power of two up to 4096", align);
    size_t at = (rt.arena_used + align - 1) & ~(align - 1);
    if (!rt.arena || at > ARENA_BYTES || bytes > ARENA_BYTES - at)
        fatal("mct_alloc: %zu bytes do not fit in the arena (%u MiB, %zu used): a smaller size?",
              bytes, (unsigned)(ARENA_BYTES >> 20), rt.arena_used);
    rt.arena_used = at + bytes;
    return rt.arena + at;
}

int mct_run(const mct_kernel *kernel, const mct_params *params, const mct_schedule *schedule,
            uint64_t *records, char *err, size_t err_len)
{
    if (params->threads < 1 || params->threads > MCT_MAX_THREADS || schedule->quantum < 1) {
        snprintf(err, err_len, "threads must be 1..%d and the quantum at least 1",
                 MCT_MAX_THREADS);
        return -1;
    }
    if (rt.kernel) {
        snprintf(err, err_len, "mct_run: once per process");
        return -1;
    }
    rt.kernel = kernel;
    rt.threads = params->threads;
    rt.quantum = schedule->quantum;
    rt.seed = schedule->seed;
    rt.prng = schedule->seed;
    rt.max_records = schedule->max_records;
    rt.fd = schedule->fd;
    rt.arena = mmap(NULL, ARENA_BYTES, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    rt.stacks = mmap(NULL, (size_t)STACK_BYTES * MCT_MAX_THREADS, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (rt.arena == MAP_FAILED || rt.stacks == MAP_FAILED) {
        snprintf(err, err_len, "mmap: %s", strerror(errno));
        return -1;
    }

    rt.state = kernel->setup(params, err, err_len);
    if (!rt.state)
        return -1;

    char line[256];
    snprintf(line, sizeof line,
             "# stc multi-core trace (traces/mc): kernel %s, threads %u, size %lu, quantum %u, "
             "seed %" PRIu64 "\n# core label address size (label 0 read, 1 write)\n",
             kernel->name, params->threads, params->size, schedule->quantum, schedule->seed);
    put_text(line);

    if (sem_init(&rt.all_done, 0, 0) != 0) {
        snprintf(err, err_len, "sem_init: %s", strerror(errno));
        return -1;
    }
    rt.live = rt.threads;
    for (unsigned i = 0; i < rt.threads; i++) {
        struct thread *t = &rt.thread[i];
        t->id = i;
        pthread_attr_t attr;
        int rc = sem_init(&t->turn, 0, 0) != 0 ? errno : 0;
        if (!rc)
            rc = pthread_attr_init(&attr);
        if (!rc)
            rc = pthread_attr_setstack(&attr, rt.stacks + (size_t)i * STACK_BYTES, STACK_BYTES);
        if (!rc)
            rc = pthread_create(&t->handle, &attr, thread_main, t);
        if (rc)
            fatal("starting thread %u: %s", i, strerror(rc));
        pthread_attr_destroy(&attr);
    }
    /* Thread 0 starts with a full turn; the main thread waits for the end. */
    rt.left = next_quantum();
    if (sem_post(&rt.thread[0].turn) != 0)
        fatal("sem_post: %s", strerror(errno));
    while (sem_wait(&rt.all_done) != 0)
        if (errno != EINTR)
            fatal("sem_wait: %s", strerror(errno));
    for (unsigned i = 0; i < rt.threads; i++) {
        int rc = pthread_join(rt.thread[i].handle, NULL);
        if (rc)
            fatal("joining thread %u: %s", i, strerror(rc));
    }

    int n = snprintf(line, sizeof line, "# end: %" PRIu64 " records; per core", rt.records);
    for (unsigned i = 0; i < rt.threads && n > 0 && (size_t)n < sizeof line; i++)
        n += snprintf(line + n, sizeof line - (size_t)n, " %" PRIu64, rt.per_core[i]);
    put_text(line);
    put_text("\n");
    flush_out();
    *records = rt.records;
    return kernel->check(rt.state, err, err_len);
}
