/*
 * gen-unseen-inputs.c - deterministic input files for
 * traces/make-unseen-traces.sh (programs the project was not developed on).
 *
 *   gen-unseen-inputs pbm W H          raw PBM (P4): a fax page, lines of
 *                                      "text" in a made-up 5x7 font (scaled
 *                                      2x), paragraphs, rules and a table
 *   gen-unseen-inputs wav RATE CH N    16-bit PCM WAV of N frames: two
 *                                      voices of notes with decaying
 *                                      envelopes, a little noise
 *   gen-unseen-inputs log BYTES        log-file text (timestamps, hosts,
 *                                      messages with numbers)
 *   gen-unseen-inputs oggserial S      copies an Ogg stream (stdin) with
 *                                      serial number S in every page and
 *                                      the checksums recomputed (speexenc
 *                                      picks its serial at random)
 *
 * Output goes to stdout. Every byte depends only on the arguments (fixed
 * LCG seed, integer arithmetic only: no libm), so every run on every
 * machine produces the same file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long lcg_state = 20261204u;

static unsigned lcg(void)
{
    lcg_state = (lcg_state * 1103515245u + 12345u) & 0x7fffffffu;
    return (unsigned)(lcg_state >> 8);
}

/* ------------------------------------------------------------ fax page --- */

#define NGLYPHS 48

static unsigned char glyph[NGLYPHS][7]; /* 5 bits per row, bit 4 = left */

static void make_font(void)
{
    for (int g = 0; g < NGLYPHS; g++) {
        /* a stem or a bowl and random strokes: letter-like density */
        int kind = g % 3;
        for (int r = 0; r < 7; r++) {
            unsigned bits = lcg() & 0x1f;
            bits &= lcg() & 0x1f; /* ~25 % */
            if (kind == 0)
                bits |= 0x10; /* left stem */
            else if (kind == 1 && (r == 0 || r == 6))
                bits |= 0x0e; /* top and bottom of a bowl */
            else if (kind == 1)
                bits |= 0x11;
            else if (r == 3)
                bits |= 0x1f; /* a bar */
            glyph[g][r] = (unsigned char)bits;
        }
    }
}

static unsigned char *page;
static int page_w, page_h, page_stride;

static void set_px(int x, int y)
{
    if (x >= 0 && x < page_w && y >= 0 && y < page_h)
        page[(size_t)y * page_stride + x / 8] |= (unsigned char)(0x80u >> (x % 8));
}

static void fill(int x0, int y0, int w, int h)
{
    for (int y = y0; y < y0 + h; y++)
        for (int x = x0; x < x0 + w; x++)
            set_px(x, y);
}

/* Glyph g at (x, y), each font pixel 2x2. */
static void draw_glyph(int g, int x, int y)
{
    for (int r = 0; r < 7; r++)
        for (int c = 0; c < 5; c++)
            if (glyph[g][r] & (0x10u >> c))
                fill(x + 2 * c, y + 2 * r, 2, 2);
}

static void gen_pbm(int w, int h)
{
    const int margin = w / 16, line_h = 24, glyph_w = 12;
    page_w = w;
    page_h = h;
    page_stride = (w + 7) / 8;
    page = calloc((size_t)page_stride * (size_t)h, 1);
    if (page == NULL) {
        perror("gen-unseen-inputs");
        exit(1);
    }
    make_font();
    int y = 16, line = 0;
    while (y + line_h <= h) {
        int kind = (int)(lcg() % 16);
        if (line > 0 && kind == 0) {
            fill(margin, y + 8, w - 2 * margin, 2); /* a rule */
        } else if (line > 0 && kind == 1) {
            /* a table row: cell borders and short entries */
            int cells = 4, cw = (w - 2 * margin) / cells;
            fill(margin, y, w - 2 * margin, 1);
            for (int c = 0; c <= cells; c++)
                fill(margin + c * cw, y, 1, line_h);
            for (int c = 0; c < cells; c++)
                for (int k = 0; k < 3 + (int)(lcg() % 6); k++)
                    draw_glyph((int)(lcg() % NGLYPHS), margin + c * cw + 6 + k * glyph_w, y + 5);
        } else if (kind != 2) { /* kind 2: blank line between paragraphs */
            int x = margin + (kind == 3 ? 4 * glyph_w : 0);
            int right = w - margin - (kind == 4 ? (int)(lcg() % (unsigned)(w / 2)) : 0);
            while (x < right) {
                int len = 1 + (int)(lcg() % 9);
                if (x + len * glyph_w > right)
                    break;
                for (int k = 0; k < len; k++, x += glyph_w)
                    draw_glyph((int)((lcg() % NGLYPHS) * (lcg() % 4 + 1) / 4), x, y + 5);
                x += glyph_w; /* the space */
            }
        }
        y += line_h;
        line++;
    }
    printf("P4\n%d %d\n", w, h);
    fwrite(page, (size_t)page_stride, (size_t)h, stdout);
    free(page);
}

/* --------------------------------------------------------------- audio --- */

/* sine of a 16-bit phase, about +-32767: a parabola per half period */
static int isin(unsigned phase)
{
    unsigned half = phase & 0x7fffu;
    int y = (int)((half * (32768u - half)) >> 13); /* 0 .. 32768 */
    if (y > 32767)
        y = 32767;
    return (phase & 0x8000u) ? -y : y;
}

static void put16(unsigned v)
{
    putchar((int)(v & 0xff));
    putchar((int)((v >> 8) & 0xff));
}

static void put32(unsigned long v)
{
    put16((unsigned)(v & 0xffff));
    put16((unsigned)((v >> 16) & 0xffff));
}

static int clamp16(long v)
{
    return v < -32768 ? -32768 : v > 32767 ? 32767 : (int)v;
}

/* Phase increment of a 32-bit phase for semitone st above C4 (st >= -48):
 * f * 2^32 / rate, f = semitone_hz100[st mod 12] / 100 * 2^(st div 12). */
static unsigned long phase_inc(const long *semitone_hz100, int st, long rate)
{
    int o = st >= 0 ? st / 12 : -((-st + 11) / 12), s = st - 12 * o;
    unsigned long long f1600 = (unsigned long long)semitone_hz100[s] << (o + 4);
    return (unsigned long)(((f1600 << 32) / (1600ull * (unsigned long long)rate)) & 0xffffffffu);
}

static void gen_wav(long rate, int ch, long frames)
{
    /* equal-tempered octave from C4, Hz * 100 */
    static const long semitone[12] = {26163, 27718, 29366, 31113, 32963, 34923,
                                      36999, 39200, 41530, 44000, 46616, 49388};
    static const int melody[16] = {0, 4, 7, 12, 11, 7, 9, 5, 4, 2, 7, 0, 5, 9, 14, 12};
    static const int bass[4] = {-12, -7, -15, -10};
    unsigned long data = (unsigned long)frames * (unsigned long)ch * 2u;
    fputs("RIFF", stdout);
    put32(36 + data);
    fputs("WAVEfmt ", stdout);
    put32(16);
    put16(1); /* PCM */
    put16((unsigned)ch);
    put32((unsigned long)rate);
    put32((unsigned long)rate * (unsigned long)ch * 2u);
    put16((unsigned)ch * 2u);
    put16(16);
    fputs("data", stdout);
    put32(data);

    long note_len = rate / 6, bass_len = rate / 2;
    unsigned long ph_m = 0, ph_b = 0, ph_v = 0;
    for (long t = 0; t < frames; t++) {
        long n = t / note_len, b = t / bass_len;
        int mi = melody[n % 16] + (int)((n / 16) % 3) * 2;
        int bi = bass[b % 4];
        unsigned long inc_m = phase_inc(semitone, mi, rate), inc_b = phase_inc(semitone, bi, rate);
        ph_m = (ph_m + inc_m) & 0xffffffffu;
        ph_b = (ph_b + inc_b) & 0xffffffffu;
        ph_v = (ph_v + 7u * inc_m / 4u) & 0xffffffffu; /* vibrato-free overtone */
        long env_m = note_len - t % note_len;  /* linear decay */
        long env_b = bass_len - (t % bass_len) / 2;
        long m = (long)isin((unsigned)(ph_m >> 16)) * env_m / note_len;
        long v = (long)isin((unsigned)(ph_v >> 16)) * env_m / note_len / 4;
        long bb = (long)isin((unsigned)(ph_b >> 16)) * env_b / bass_len;
        long noise = (long)(lcg() % 257) - 128;
        long left = (m * 5 + v * 3 + bb * 4) / 16 + noise;
        long right = (m * 3 + v * 4 + bb * 5) / 16 + noise / 2;
        if (ch == 1) {
            put16((unsigned)clamp16((left + right) / 2) & 0xffffu);
        } else {
            put16((unsigned)clamp16(left) & 0xffffu);
            put16((unsigned)clamp16(right) & 0xffffu);
            for (int c = 2; c < ch; c++)
                put16((unsigned)clamp16(bb / 4) & 0xffffu);
        }
    }
}

/* ------------------------------------------------------ Ogg serials --- */

/* Ogg's page checksum: CRC-32, polynomial 0x04c11db7, not reflected. */
static unsigned long ogg_crc(const unsigned char *p, size_t n)
{
    unsigned long crc = 0;
    for (size_t i = 0; i < n; i++) {
        crc ^= (unsigned long)p[i] << 24;
        for (int k = 0; k < 8; k++)
            crc = (crc & 0x80000000u) ? ((crc << 1) ^ 0x04c11db7u) & 0xffffffffu
                                       : (crc << 1) & 0xffffffffu;
    }
    return crc;
}

/* Copy an Ogg stream from stdin to stdout with every page's serial number
 * set to serial and its checksum recomputed (speexenc picks a random one). */
static int fix_ogg_serial(unsigned long serial)
{
    size_t cap = 1 << 16, len = 0, got;
    unsigned char *buf = malloc(cap);
    while (buf != NULL && (got = fread(buf + len, 1, cap - len, stdin)) > 0) {
        len += got;
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    if (buf == NULL) {
        perror("gen-unseen-inputs");
        return 1;
    }
    size_t pos = 0;
    while (pos < len) {
        if (len - pos < 27 || memcmp(buf + pos, "OggS", 4) != 0) {
            fprintf(stderr, "gen-unseen-inputs: not an Ogg page at byte %zu\n", pos);
            return 1;
        }
        size_t nseg = buf[pos + 26], body = 0;
        if (len - pos < 27 + nseg) {
            fprintf(stderr, "gen-unseen-inputs: truncated Ogg page at byte %zu\n", pos);
            return 1;
        }
        for (size_t i = 0; i < nseg; i++)
            body += buf[pos + 27 + i];
        size_t page = 27 + nseg + body;
        if (len - pos < page) {
            fprintf(stderr, "gen-unseen-inputs: truncated Ogg page at byte %zu\n", pos);
            return 1;
        }
        for (int i = 0; i < 4; i++) {
            buf[pos + 14 + i] = (unsigned char)((serial >> (8 * i)) & 0xff);
            buf[pos + 22 + i] = 0;
        }
        unsigned long crc = ogg_crc(buf + pos, page);
        for (int i = 0; i < 4; i++)
            buf[pos + 22 + i] = (unsigned char)((crc >> (8 * i)) & 0xff);
        pos += page;
    }
    fwrite(buf, 1, len, stdout);
    free(buf);
    return 0;
}

/* ----------------------------------------------------------------- log --- */

static void gen_log(long bytes)
{
    static const char *const host[] = {"alpha", "bravo", "cache0", "cache1", "gw"};
    static const char *const daemon[] = {"stcd", "kernel", "cron", "sshd", "ntpd", "tuner"};
    static const char *const msg[] = {
        "reconfigured to %dK_%dW_%dB after %d accesses",
        "miss rate %d.%d%% over window %d, %d writebacks",
        "session opened for user u%d from 10.0.%d.%d port %d",
        "time offset %d us, frequency %d ppm, poll %d, jitter %d",
        "job %d finished in %d ms with status %d (queue %d)",
        "bank %d powered down, %d lines written back, way mask %d, id %d"};
    long out = 0;
    int sec = 0, pid = 1000;
    char line[256];
    while (out < bytes) {
        int d = (int)(lcg() % 6), k = (int)(lcg() % 6);
        sec += (int)(lcg() % 7);
        if (lcg() % 8 == 0)
            pid += 1 + (int)(lcg() % 40);
        int a = 1 << (1 + lcg() % 3), b = 1 << (lcg() % 3), c = 16 << (lcg() % 3);
        int e = (int)(lcg() % 100000);
        int n = snprintf(line, sizeof line, "Dec %2d %02d:%02d:%02d %s %s[%d]: ", 4 + sec / 86400,
                         sec / 3600 % 24, sec / 60 % 60, sec % 60, host[lcg() % 5], daemon[d], pid);
        n += snprintf(line + n, sizeof line - (size_t)n, msg[k], a, b, c, e);
        line[n++] = '\n';
        fwrite(line, 1, (size_t)n, stdout);
        out += n;
    }
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "pbm") == 0) {
        gen_pbm(atoi(argv[2]), atoi(argv[3]));
    } else if (argc == 5 && strcmp(argv[1], "wav") == 0) {
        gen_wav(atol(argv[2]), atoi(argv[3]), atol(argv[4]));
    } else if (argc == 3 && strcmp(argv[1], "oggserial") == 0) {
        if (fix_ogg_serial(strtoul(argv[2], NULL, 0)) != 0)
            return 1;
    } else if (argc == 3 && strcmp(argv[1], "log") == 0) {
        gen_log(atol(argv[2]));
    } else {
        fprintf(stderr, "usage: gen-unseen-inputs pbm W H | wav RATE CHANNELS FRAMES | log BYTES | "
                        "oggserial SERIAL <IN.ogg\n");
        return 2;
    }
    return fflush(stdout) == 0 ? 0 : 1;
}
