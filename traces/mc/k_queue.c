/*
 * k_queue.c - producer/consumer ring buffers.
 *
 * Threads pair up: thread 2r produces into ring r, thread 2r + 1 consumes
 * from it (single producer, single consumer, 32 slots of 8 bytes). size
 * items in total, split evenly between the rings. The producer waits while
 * the ring is full, writes a slot and publishes the new tail; the consumer
 * waits while it is empty, reads the slot, adds it to its sum and
 * publishes the new head. tail, head and the consumer's sum each have a
 * 64-byte line of their own. A thread without a partner (one thread, or
 * the last of an odd number) fills its ring then empties it, by turns.
 *
 * Expected sharing: true sharing on the slots (the consumer reads what the
 * producer wrote) and on tail and head, each served cache to cache; none
 * with one thread.
 */
#include "tracer.h"

enum { SLOTS = 32 };

typedef struct {
    uint32_t tail; /* written by the producer */
    uint8_t pad0[60];
    uint32_t head; /* written by the consumer */
    uint8_t pad1[60];
    uint64_t slot[SLOTS];
    uint64_t sum; /* the consumer's result */
    uint8_t pad2[56];
} ring;

typedef struct {
    ring *rings;
    unsigned long items[MCT_MAX_THREADS]; /* per ring */
    unsigned threads;
} queue_state;

static unsigned ring_count(unsigned threads)
{
    return (threads + 1) / 2;
}

static uint64_t item_value(unsigned long i, unsigned r)
{
    return (uint64_t)i * 2654435761u + r;
}

static void *queue_setup(const mct_params *params, char *err, size_t err_len)
{
    (void)err;
    (void)err_len;
    queue_state *s = mct_alloc(sizeof *s, 64);
    unsigned rings = ring_count(params->threads);
    s->threads = params->threads;
    s->rings = mct_alloc(sizeof(ring) * rings, 64);
    for (unsigned r = 0; r < rings; r++)
        s->items[r] = mct_share_lo(params->size, r + 1, rings) - mct_share_lo(params->size, r, rings);
    return s;
}

static void produce(ring *q, unsigned long items, unsigned r)
{
    uint32_t tail = 0;
    for (unsigned long i = 0; i < items; i++) {
        while (tail - __atomic_load_n(&q->head, __ATOMIC_ACQUIRE) == SLOTS)
            mct_yield();
        q->slot[tail % SLOTS] = item_value(i, r);
        tail++;
        __atomic_store_n(&q->tail, tail, __ATOMIC_RELEASE);
    }
}

static void consume(ring *q, unsigned long items)
{
    uint32_t head = 0;
    uint64_t sum = 0;
    for (unsigned long i = 0; i < items; i++) {
        while (__atomic_load_n(&q->tail, __ATOMIC_ACQUIRE) == head)
            mct_yield();
        sum += q->slot[head % SLOTS];
        head++;
        __atomic_store_n(&q->head, head, __ATOMIC_RELEASE);
    }
    q->sum = sum;
}

/* One thread in both roles: up to SLOTS items in, then out, by turns. */
static void produce_consume(ring *q, unsigned long items, unsigned r)
{
    uint32_t tail = 0, head = 0;
    uint64_t sum = 0;
    unsigned long i = 0;
    while (i < items) {
        unsigned long batch = items - i < SLOTS ? items - i : SLOTS;
        for (unsigned long k = 0; k < batch; k++) {
            q->slot[tail % SLOTS] = item_value(i + k, r);
            tail++;
            __atomic_store_n(&q->tail, tail, __ATOMIC_RELEASE);
        }
        for (unsigned long k = 0; k < batch; k++) {
            (void)__atomic_load_n(&q->tail, __ATOMIC_ACQUIRE);
            sum += q->slot[head % SLOTS];
            head++;
            __atomic_store_n(&q->head, head, __ATOMIC_RELEASE);
        }
        i += batch;
    }
    q->sum = sum;
}

static void queue_thread(void *state, unsigned tid)
{
    const queue_state *s = state;
    unsigned r = tid / 2;
    ring *q = &s->rings[r];
    if (tid % 2 == 0 && tid + 1 == s->threads)
        produce_consume(q, s->items[r], r);
    else if (tid % 2 == 0)
        produce(q, s->items[r], r);
    else
        consume(q, s->items[r]);
}

static int queue_check(const void *state, char *err, size_t err_len)
{
    const queue_state *s = state;
    for (unsigned r = 0; r < ring_count(s->threads); r++) {
        uint64_t expected = 0;
        for (unsigned long i = 0; i < s->items[r]; i++)
            expected += item_value(i, r);
        if (s->rings[r].sum != expected) {
            mct_fail(err, err_len, "ring %u: consumer's sum %llu, expected %llu", r,
                     (unsigned long long)s->rings[r].sum, (unsigned long long)expected);
            return -1;
        }
    }
    return 0;
}

const mct_kernel mct_k_queue = {
    .name = "queue",
    .summary = "producer/consumer ring buffers, one per thread pair; size = items in total; "
               "true sharing, cache-to-cache transfers",
    .default_size = 50000,
    .max_size = 10000000,
    .setup = queue_setup,
    .thread = queue_thread,
    .check = queue_check,
};
