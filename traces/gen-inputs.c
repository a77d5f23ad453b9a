/*
 * gen-inputs.c - deterministic input files for traces/make-traces.sh.
 *
 *   gen-inputs ppm W H        binary PPM (P6): gradients, discs, mild noise
 *   gen-inputs y4m W H N      YUV4MPEG2 4:2:0 stream of N frames with moving
 *                             objects (input for mpeg2enc)
 *   gen-inputs text BYTES     pseudo-English text, lines of words
 *
 * Output goes to stdout. Every byte depends only on the arguments (fixed
 * LCG seed, integer arithmetic only), so every run on every machine
 * produces the same file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long lcg_state = 12345u;

static unsigned lcg(void)
{
    lcg_state = (lcg_state * 1103515245u + 12345u) & 0x7fffffffu;
    return (unsigned)(lcg_state >> 8);
}

static int clamp255(int v)
{
    return v < 0 ? 0 : v > 255 ? 255 : v;
}

/* A test scene: background gradient, two discs, a stripe pattern. t moves
 * the objects (frame number). c selects the plane/channel. */
static int scene(int x, int y, int w, int h, int t, int c)
{
    int v = (x * 200) / w + (y * 55) / h;
    int cx = w / 3 + 2 * t, cy = h / 2 + t / 2, r = h / 4;
    int dx = x - cx, dy = y - cy;
    if (dx * dx + dy * dy < r * r)
        v = 220 - 40 * c + (dx + dy) / 2;
    cx = (2 * w) / 3 - t;
    cy = h / 3 + t;
    dx = x - cx;
    dy = y - cy;
    if (dx * dx + dy * dy < (r * r) / 2)
        v = 40 + 60 * c;
    if (y > (3 * h) / 4 && ((x + t) / 4) % 2 == 0)
        v = v / 2 + 100;
    v += c * 30 - 30;
    return clamp255(v);
}

static int noise(void)
{
    return (int)(lcg() % 9) - 4;
}

static void gen_ppm(int w, int h)
{
    printf("P6\n%d %d\n255\n", w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < 3; c++)
                putchar(clamp255(scene(x, y, w, h, 0, c) + noise()));
}

static void gen_y4m(int w, int h, int n)
{
    printf("YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n", w, h);
    for (int t = 0; t < n; t++) {
        printf("FRAME\n");
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                putchar(clamp255(scene(x, y, w, h, t, 1) + noise()));
        for (int c = 0; c < 2; c++)
            for (int y = 0; y < h / 2; y++)
                for (int x = 0; x < w / 2; x++)
                    putchar(clamp255(128 + (scene(2 * x, 2 * y, w, h, t, c * 2) - 128) / 3));
    }
}

static void gen_text(long bytes)
{
    static const char *const words[] = {
        "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be",
        "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have",
        "an", "had", "they", "you", "were", "their", "one", "all", "we", "can", "her", "has",
        "there", "been", "if", "more", "when", "will", "would", "who", "so", "no", "cache",
        "memory", "line", "set", "way", "bank", "miss", "hit", "tag", "index", "address",
        "processor", "instruction", "data", "write", "read", "block", "replacement", "policy",
        "configuration", "energy", "program", "embedded", "system", "power", "access"};
    const int nwords = (int)(sizeof words / sizeof words[0]);
    long out = 0;
    int col = 0;
    while (out < bytes) {
        /* skewed choice: frequent short words, like real text */
        unsigned r = lcg();
        int i = (int)((r % nwords) * (r % 7 + 1) / 8) % nwords;
        const char *wd = words[i];
        int len = (int)strlen(wd);
        if (col + len + 1 > 72) {
            putchar('\n');
            out++;
            col = 0;
        } else if (col > 0) {
            putchar(' ');
            out++;
            col++;
        }
        fputs(wd, stdout);
        out += len;
        col += len;
    }
    putchar('\n');
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "ppm") == 0) {
        gen_ppm(atoi(argv[2]), atoi(argv[3]));
    } else if (argc == 5 && strcmp(argv[1], "y4m") == 0) {
        gen_y4m(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
    } else if (argc == 3 && strcmp(argv[1], "text") == 0) {
        gen_text(atol(argv[2]));
    } else {
        fprintf(stderr, "usage: gen-inputs ppm W H | y4m W H FRAMES | text BYTES\n");
        return 2;
    }
    return fflush(stdout) == 0 ? 0 : 1;
}
