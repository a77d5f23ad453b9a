/*
 * crc32.c - CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) of the
 * check string and of an 8 KiB buffer of pseudo-random bytes, table
 * driven (the 1 KiB table is built first, bit by bit).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t table[256];
static uint8_t buffer[8192];

static void make_table(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) {
            c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        }
        table[n] = c;
    }
}

static uint32_t crc32(const uint8_t *p, uint32_t len)
{
    uint32_t c = 0xFFFFFFFFu;
    for (uint32_t i = 0; i < len; i++) {
        c = table[(c ^ p[i]) & 0xFFu] ^ (c >> 8);
    }
    return c ^ 0xFFFFFFFFu;
}

int main(void)
{
    make_table();
    const char *check = "123456789";
    uint32_t c = crc32((const uint8_t *)check, (uint32_t)strlen(check));
    printf("crc32(\"%s\") = %08lx (%s)\n", check, (unsigned long)c,
           c == 0xCBF43926u ? "ok" : "WRONG");
    uint32_t x = 2463534242u;   /* xorshift32 */
    for (uint32_t i = 0; i < sizeof buffer; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        buffer[i] = (uint8_t)x;
    }
    printf("crc32(8 KiB) = %08lx\n", (unsigned long)crc32(buffer, sizeof buffer));
    printf("crc32(first half) = %08lx\n", (unsigned long)crc32(buffer, sizeof buffer / 2));
    return c == 0xCBF43926u ? 0 : 1;
}
