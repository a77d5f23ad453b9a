/* bitcount.c - population count of pseudo-random words by four methods
 * (shift loop, Kernighan, 8-bit table, SWAR), as in MiBench's bitcount.
 * Deterministic; prints the totals. */
#include <stdint.h>
#include <stdio.h>

#define N 2500

static uint32_t words[N];
static unsigned char table8[256];

static int count_shift(uint32_t v)
{
    int n = 0;
    while (v) {
        n += (int)(v & 1);
        v >>= 1;
    }
    return n;
}

static int count_kernighan(uint32_t v)
{
    int n = 0;
    while (v) {
        v &= v - 1;
        n++;
    }
    return n;
}

static int count_table(uint32_t v)
{
    return table8[v & 0xff] + table8[(v >> 8) & 0xff] + table8[(v >> 16) & 0xff] + table8[v >> 24];
}

static int count_swar(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    v = (v + (v >> 4)) & 0x0f0f0f0fu;
    return (int)((v * 0x01010101u) >> 24);
}

typedef int (*counter)(uint32_t);

int main(void)
{
    static const counter methods[4] = {count_shift, count_kernighan, count_table, count_swar};
    uint32_t x = 3;
    for (int i = 0; i < N; i++) {
        x = x * 1664525u + 1013904223u;
        words[i] = x ^ (x >> 7);
    }
    for (int i = 0; i < 256; i++)
        table8[i] = (unsigned char)count_kernighan((uint32_t)i);
    long total[4] = {0, 0, 0, 0};
    for (int m = 0; m < 4; m++)
        for (int i = 0; i < N; i++)
            total[m] += methods[m](words[i]);
    printf("bitcount %ld %ld %ld %ld\n", total[0], total[1], total[2], total[3]);
    return total[0] == total[1] && total[1] == total[2] && total[2] == total[3] ? 0 : 1;
}
