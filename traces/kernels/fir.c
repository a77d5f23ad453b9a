/* fir.c - 32-tap fixed-point FIR filter over a block of 16-bit samples
 * (a sum of square waves plus LCG noise). Deterministic; prints a checksum. */
#include <stdint.h>
#include <stdio.h>

#define TAPS 32
#define N 2048

static int16_t coef[TAPS];
static int16_t in[N + TAPS];
static int16_t out[N];

int main(void)
{
    uint32_t x = 7;
    /* windowed low-pass-like coefficients in Q15, integer only */
    for (int k = 0; k < TAPS; k++) {
        int d = k - TAPS / 2;
        coef[k] = (int16_t)(2048 - 6 * d * d);
    }
    for (int i = 0; i < N + TAPS; i++) {
        x = x * 1664525u + 1013904223u;
        int v = ((i / 37) & 1 ? 6000 : -6000) + ((i / 11) & 1 ? 2500 : -2500);
        in[i] = (int16_t)(v + (int)(x >> 22) - 512);
    }
    for (int n = 0; n < N; n++) {
        int32_t acc = 0;
        for (int k = 0; k < TAPS; k++)
            acc += (int32_t)coef[k] * in[n + TAPS - 1 - k];
        acc >>= 15;
        out[n] = (int16_t)(acc > 32767 ? 32767 : acc < -32768 ? -32768 : acc);
    }
    uint32_t sum = 0;
    for (int n = 0; n < N; n++)
        sum = sum * 31u + (uint16_t)out[n];
    printf("fir %08x\n", (unsigned)sum);
    return 0;
}
