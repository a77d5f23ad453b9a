/* blit.c - 2D block copies (sprite blits with a transparent colour key,
 * and opaque rectangle copies) from a 128x128 sprite sheet into a
 * 320x200 8-bit frame buffer, as a simple display controller would.
 * Deterministic; prints a checksum of the frame buffer. */
#include <stdint.h>
#include <stdio.h>

#define FB_W 320
#define FB_H 200
#define SH_W 128
#define SH_H 128

static uint8_t fb[FB_H][FB_W];
static uint8_t sheet[SH_H][SH_W];

static void blit_opaque(int dx, int dy, int sx, int sy, int w, int h)
{
    for (int y = 0; y < h; y++) {
        uint8_t *d = &fb[dy + y][dx];
        const uint8_t *s = &sheet[sy + y][sx];
        for (int x = 0; x < w; x++)
            d[x] = s[x];
    }
}

static void blit_keyed(int dx, int dy, int sx, int sy, int w, int h)
{
    for (int y = 0; y < h; y++) {
        uint8_t *d = &fb[dy + y][dx];
        const uint8_t *s = &sheet[sy + y][sx];
        for (int x = 0; x < w; x++)
            if (s[x] != 0)
                d[x] = s[x];
    }
}

int main(void)
{
    uint32_t x = 9;
    for (int y = 0; y < SH_H; y++)
        for (int i = 0; i < SH_W; i++) {
            x = x * 1664525u + 1013904223u;
            /* roughly a quarter transparent pixels */
            sheet[y][i] = (x >> 30) == 0 ? 0 : (uint8_t)(1 + ((x >> 20) & 0xfe));
        }
    for (int n = 0; n < 150; n++) {
        x = x * 1664525u + 1013904223u;
        int w = 8 + (int)((x >> 8) % 25), h = 8 + (int)((x >> 13) % 25);
        int sx = (int)((x >> 18) % (SH_W - w)), sy = (int)((x >> 4) % (SH_H - h));
        x = x * 1664525u + 1013904223u;
        int dx = (int)((x >> 9) % (FB_W - w)), dy = (int)((x >> 19) % (FB_H - h));
        if (n % 3 == 0)
            blit_opaque(dx, dy, sx, sy, w, h);
        else
            blit_keyed(dx, dy, sx, sy, w, h);
    }
    /* scroll the whole screen up by 8 lines, a large overlapping copy */
    for (int y = 0; y < FB_H - 8; y++)
        for (int i = 0; i < FB_W; i++)
            fb[y][i] = fb[y + 8][i];
    uint32_t sum = 0;
    for (int y = 0; y < FB_H; y++)
        for (int i = 0; i < FB_W; i++)
            sum = sum * 31u + fb[y][i];
    printf("blit %08x\n", (unsigned)sum);
    return 0;
}
