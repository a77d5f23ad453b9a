/* bsearch.c - binary search of pseudo-random keys in a sorted table of
 * 16384 32-bit integers. Deterministic; prints hit count and checksum. */
#include <stdint.h>
#include <stdio.h>

#define N 16384
#define LOOKUPS 5000

static uint32_t table[N];

static int find(const uint32_t *a, int n, uint32_t key)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (a[mid] == key)
            return mid;
        if (a[mid] < key)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

int main(void)
{
    uint32_t x = 5, v = 0;
    for (int i = 0; i < N; i++) {
        x = x * 1664525u + 1013904223u;
        v += 1 + (x >> 28); /* strictly increasing, gaps 1..16 */
        table[i] = v;
    }
    int hits = 0;
    uint32_t sum = 0;
    for (int i = 0; i < LOOKUPS; i++) {
        x = x * 1664525u + 1013904223u;
        int r = find(table, N, x % (v + 1));
        if (r >= 0) {
            hits++;
            sum += (uint32_t)r;
        }
    }
    printf("bsearch %d %08x\n", hits, (unsigned)sum);
    return 0;
}
