/*
 * matmul.c - C = A x B for 16 x 16 integer matrices (RV32I has no
 * multiplier: each product is libgcc's __mulsi3, so the values are kept
 * small to keep its shift-and-add loop short), then C x A, with the
 * trace and a checksum of each result.
 */
#include <stdint.h>
#include <stdio.h>

#define N 16

static int32_t a[N][N], b[N][N], c[N][N], d[N][N];

static void mul(int32_t (*x)[N], int32_t (*y)[N], int32_t (*z)[N])
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            int32_t s = 0;
            for (int k = 0; k < N; k++) {
                s += x[i][k] * y[k][j];
            }
            z[i][j] = s;
        }
    }
}

static void report(const char *name, int32_t (*z)[N])
{
    int32_t trace = 0;
    uint32_t sum = 0;
    for (int i = 0; i < N; i++) {
        trace += z[i][i];
        for (int j = 0; j < N; j++) {
            sum = (sum << 3 | sum >> 29) ^ (uint32_t)z[i][j];
        }
    }
    printf("%s: trace %ld, [0][%d] %ld, checksum %08lx\n", name, (long)trace, N - 1,
           (long)z[0][N - 1], (unsigned long)sum);
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            a[i][j] = (i * 7 + j * 3) % 17 - 8;
            b[i][j] = (i + 2 * j) % 13 - 6;
        }
    }
    mul(a, b, c);
    report("A*B", c);
    mul(c, a, d);
    report("(A*B)*A", d);
    return 0;
}
