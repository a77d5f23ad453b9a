/* qsort.c - recursive quicksort (median of three, insertion sort for
 * small partitions) of 4096 pseudo-random integers. Deterministic; checks
 * the order and prints a checksum. */
#include <stdint.h>
#include <stdio.h>

#define N 4096

static int32_t a[N];

static void swap(int32_t *p, int32_t *q)
{
    int32_t t = *p;
    *p = *q;
    *q = t;
}

static void insertion(int32_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        int32_t t = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > t) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = t;
    }
}

static void quicksort(int32_t *v, int n)
{
    while (n > 12) {
        int m = n / 2;
        if (v[m] < v[0])
            swap(&v[m], &v[0]);
        if (v[n - 1] < v[0])
            swap(&v[n - 1], &v[0]);
        if (v[n - 1] < v[m])
            swap(&v[n - 1], &v[m]);
        int32_t pivot = v[m];
        int i = 0, j = n - 1;
        for (;;) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i >= j)
                break;
            swap(&v[i], &v[j]);
            i++;
            j--;
        }
        /* recurse into the smaller part, loop on the larger */
        if (j + 1 < n - j - 1) {
            quicksort(v, j + 1);
            v += j + 1;
            n -= j + 1;
        } else {
            quicksort(v + j + 1, n - j - 1);
            n = j + 1;
        }
    }
    insertion(v, n);
}

int main(void)
{
    uint32_t x = 11;
    for (int i = 0; i < N; i++) {
        x = x * 1664525u + 1013904223u;
        a[i] = (int32_t)(x >> 1) - (1 << 30);
    }
    quicksort(a, N);
    uint32_t sum = 0;
    for (int i = 0; i < N; i++) {
        if (i > 0 && a[i - 1] > a[i]) {
            printf("qsort: not sorted at %d\n", i);
            return 1;
        }
        sum = sum * 33u + (uint32_t)a[i];
    }
    printf("qsort %08x\n", (unsigned)sum);
    return 0;
}
