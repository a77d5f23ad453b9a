/* crc.c - table-driven CRC-32 (IEEE 802.3, reflected, poly 0xEDB88320)
 * over a buffer of pseudo-random bytes. Deterministic; prints the CRC. */
#include <stdint.h>
#include <stdio.h>

#define N 16384
#define PASSES 2

static uint32_t table[256];
static unsigned char buf[N];

static void make_table(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
    }
}

static uint32_t crc32(uint32_t crc, const unsigned char *p, unsigned n)
{
    crc = ~crc;
    while (n--)
        crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

int main(void)
{
    uint32_t x = 1;
    for (int i = 0; i < N; i++) {
        x = x * 1664525u + 1013904223u;
        buf[i] = (unsigned char)(x >> 24);
    }
    make_table();
    uint32_t crc = 0;
    for (int pass = 0; pass < PASSES; pass++) {
        crc = crc32(crc, buf, N);
        buf[pass] ^= (unsigned char)crc;
    }
    printf("crc %08x\n", (unsigned)crc);
    return 0;
}
