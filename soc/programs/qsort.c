/*
 * qsort.c - quicksort (Hoare partition, median of three, insertion sort
 * below 12 elements) of 1500 pseudo-random 32-bit integers; checks the
 * order and prints a checksum of the sorted array.
 */
#include <stdint.h>
#include <stdio.h>

#define N 1500

static int32_t data[N];

static void insertion(int32_t *a, int lo, int hi)
{
    for (int i = lo + 1; i <= hi; i++) {
        int32_t v = a[i];
        int j = i - 1;
        while (j >= lo && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

static void swap(int32_t *a, int i, int j)
{
    int32_t t = a[i];
    a[i] = a[j];
    a[j] = t;
}

static void quicksort(int32_t *a, int lo, int hi)
{
    while (hi - lo >= 12) {
        int mid = lo + (hi - lo) / 2;
        if (a[mid] < a[lo]) swap(a, mid, lo);
        if (a[hi] < a[lo]) swap(a, hi, lo);
        if (a[hi] < a[mid]) swap(a, hi, mid);
        int32_t pivot = a[mid];
        int i = lo - 1, j = hi + 1;
        for (;;) {
            do i++; while (a[i] < pivot);
            do j--; while (a[j] > pivot);
            if (i >= j) break;
            swap(a, i, j);
        }
        /* Recurse into the smaller part, loop on the larger: the stack
         * stays O(log n). */
        if (j - lo < hi - j) {
            quicksort(a, lo, j);
            lo = j + 1;
        } else {
            quicksort(a, j + 1, hi);
            hi = j;
        }
    }
    insertion(a, lo, hi);
}

int main(void)
{
    uint32_t x = 88172645u;
    for (int i = 0; i < N; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        data[i] = (int32_t)(x >> 1) - 0x20000000;
    }
    quicksort(data, 0, N - 1);
    int sorted = 1;
    uint32_t sum = 0;
    for (int i = 0; i < N; i++) {
        if (i > 0 && data[i - 1] > data[i]) sorted = 0;
        sum = (sum << 5 | sum >> 27) ^ (uint32_t)data[i];
    }
    printf("qsort: %d elements, %s\n", N, sorted ? "sorted" : "NOT SORTED");
    printf("min %ld max %ld median %ld\n", (long)data[0], (long)data[N - 1], (long)data[N / 2]);
    printf("checksum %08lx\n", (unsigned long)sum);
    return sorted ? 0 : 1;
}
