/*
 * hash.c - an open-addressing hash table (1024 slots, linear probing) of
 * string keys "key<n in hex>": 700 inserts, then 1400 lookups of which half hit,
 * then 100 deletions (tombstones) and the lookups again. A shift-xor hash:
 * RV32I has no multiplier.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SLOTS 1024
#define KEYLEN 12

enum { EMPTY, USED, DELETED };

struct slot {
    uint8_t state;
    char key[KEYLEN];
    uint32_t value;
};

static struct slot table[SLOTS];
static uint32_t probes;

static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u;
    while (*s) {
        h ^= (uint8_t)*s++;
        h ^= h << 7;
        h ^= h >> 11;
        h += h << 3;
    }
    return h;
}

/* "key" and n in hex, most significant digit first (hex, not decimal:
 * RV32I has no divider, and libgcc's __udivsi3 per digit would dominate). */
static void make_key(char *buf, uint32_t n)
{
    int len = 1;
    while (len < 8 && (n >> (4 * len)) != 0) len++;
    buf[0] = 'k';
    buf[1] = 'e';
    buf[2] = 'y';
    for (int i = 0; i < len; i++) {
        buf[3 + i] = "0123456789abcdef"[(n >> (4 * (len - 1 - i))) & 15u];
    }
    buf[3 + len] = '\0';
}

static struct slot *find(const char *key, int for_insert)
{
    uint32_t i = hash(key) & (SLOTS - 1);
    struct slot *tomb = NULL;
    for (uint32_t n = 0; n < SLOTS; n++, i = (i + 1) & (SLOTS - 1)) {
        probes++;
        struct slot *s = &table[i];
        if (s->state == EMPTY) return for_insert ? (tomb ? tomb : s) : NULL;
        if (s->state == DELETED) {
            if (!tomb) tomb = s;
        } else if (strcmp(s->key, key) == 0) {
            return s;
        }
    }
    return for_insert ? tomb : NULL;
}

static uint32_t lookups(uint32_t *hits)
{
    char key[KEYLEN];
    uint32_t sum = 0;
    *hits = 0;
    for (uint32_t n = 0; n < 1400; n++) {
        make_key(key, n * 3u);
        struct slot *s = find(key, 0);
        if (s) {
            (*hits)++;
            sum += s->value;
        }
    }
    return sum;
}

int main(void)
{
    char key[KEYLEN];
    for (uint32_t n = 0; n < 700; n++) {
        make_key(key, n * 6u);   /* every key n*3 with n even */
        struct slot *s = find(key, 1);
        s->state = USED;
        strcpy(s->key, key);
        s->value = n ^ 0x5a5au;
    }
    uint32_t hits;
    uint32_t sum = lookups(&hits);
    printf("hash: 700 inserted, %lu of 1400 found, value sum %lu\n", (unsigned long)hits,
           (unsigned long)sum);
    for (uint32_t n = 0; n < 700; n += 7) {
        make_key(key, n * 6u);
        struct slot *s = find(key, 0);
        if (s) s->state = DELETED;
    }
    sum = lookups(&hits);
    printf("after 100 deletions: %lu found, value sum %lu, probes %lu\n", (unsigned long)hits,
           (unsigned long)sum, (unsigned long)probes);
    return hits == 600 ? 0 : 1;
}
