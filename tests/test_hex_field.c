/*
 * test_hex_field.c - stc_hex_field (ref/hex_field.h), eight characters at a
 * time, against the obvious digit-by-digit loop: every byte value in every
 * position, every length 0..16 and beyond, upper and lower case, and a
 * million random strings mixing digits with the bytes around them in the
 * character table (the word-wide compares are where an off-by-one hides).
 */
#include "check.h"
#include "hex_field.h"

#include <stdint.h>
#include <string.h>

/* The reference: digits counted and converted one at a time, up to 16. */
static unsigned slow_hex(const unsigned char *text, uint64_t *value)
{
    unsigned count = 0;
    *value = 0;
    while (count < 16) {
        unsigned char c = text[count];
        unsigned digit;
        if (c >= '0' && c <= '9') {
            digit = c - '0';
        } else if (c >= 'a' && c <= 'f') {
            digit = c - 'a' + 10;
        } else if (c >= 'A' && c <= 'F') {
            digit = c - 'A' + 10;
        } else {
            break;
        }
        *value = *value << 4 | digit;
        count++;
    }
    return count;
}

static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 33;
}

static void check_text(const unsigned char *text, const char *what, size_t index)
{
    uint64_t fast_value, slow_value;
    unsigned fast = stc_hex_field(text, &fast_value);
    unsigned slow = slow_hex(text, &slow_value);
    CHECK_EQ_U64(fast, slow, "%s %zu: digits", what, index);
    CHECK_EQ_U64(fast_value, slow_value, "%s %zu: value", what, index);
}

int main(void)
{
    unsigned char text[STC_HEX_FIELD_READ + 8];

    /* Every byte value after 0..16 digits. */
    for (unsigned length = 0; length <= 16; length++) {
        for (unsigned byte = 0; byte < 256; byte++) {
            for (unsigned i = 0; i < sizeof text; i++) {
                text[i] = (unsigned char)"0123456789abcdefABCDEF"[(i * 7 + length) % 22];
            }
            text[length < 16 ? length : 15] = (unsigned char)byte;
            check_text(text, "byte after digits", length * 256 + byte);
        }
    }

    /* Known values. */
    uint64_t value;
    memcpy(text, "0401b5c0\n\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 24);
    CHECK_EQ_U64(stc_hex_field(text, &value), 8, "0401b5c0: digits");
    CHECK_EQ_U64(value, 0x0401b5c0, "0401b5c0: value");
    memcpy(text, "FFFFffffFFFFffff,4\0\0\0\0\0\0", 24);
    CHECK_EQ_U64(stc_hex_field(text, &value), 16, "16 F: digits");
    CHECK_EQ_U64(value, UINT64_MAX, "16 F: value");
    memcpy(text, "7fffab12 8\0\0\0\0\0\0\0\0\0\0\0\0\0", 24);
    CHECK_EQ_U64(stc_hex_field(text, &value), 8, "7fffab12: digits");
    CHECK_EQ_U64(value, 0x7fffab12, "7fffab12: value");
    memcpy(text, "1a2B3c4D5e\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 24);
    CHECK_EQ_U64(stc_hex_field(text, &value), 10, "10 digits");
    CHECK_EQ_U64(value, 0x1a2b3c4d5eULL, "10 digits: value");

    /* Random mixtures, weighted toward the characters next to the digit
     * ranges in the table ('/', ':', '@', 'G', '`', 'g') and high bytes. */
    static const char near[] = "0123456789abcdefABCDEF/:@G`gxX \t\n,\r";
    uint64_t state = 19;
    for (size_t round = 0; round < 1000000; round++) {
        for (unsigned i = 0; i < sizeof text; i++) {
            uint64_t pick = next_random(&state);
            text[i] = pick % 8 ? (unsigned char)near[pick % (sizeof near - 1)] : (unsigned char)(pick >> 8);
        }
        /* Mostly long digit runs, as in traces. */
        unsigned run = (unsigned)(next_random(&state) % 18);
        for (unsigned i = 0; i < run && i < sizeof text; i++) {
            text[i] = (unsigned char)near[next_random(&state) % 22];
        }
        check_text(text, "random", round);
    }
    return check_done("test_hex_field");
}
