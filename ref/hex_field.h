/*
 * hex_field.h - read a hexadecimal number eight characters at a time.
 *
 * The trace readers spend most of their time on addresses. A loop over the
 * digits costs a dependent step per digit and a mispredicted branch
 * wherever the length changes from one line to the next (code and stack
 * addresses differ in length in the same trace). Here the characters are
 * classified and converted as whole 64-bit words (SWAR: SIMD within a
 * register) in straight-line code, so the cost does not depend on the
 * length and the only branch is "more than 8 digits".
 *
 *   stc_hex_field(text, &value) -> digits
 *
 * counts the hexadecimal digits ('0'-'9', 'a'-'f', 'A'-'F') at the start
 * of text, up to 16, and puts their value into value. It reads 16 bytes
 * from text whatever the field's length: the caller guarantees they are
 * readable (the readers keep a zeroed margin after their data). A result
 * of 16 means "16 or more": the caller then falls back to a digit loop,
 * which also decides whether a longer field fits 64 bits (leading zeros).
 * A result of 0 means no digit (value 0).
 *
 * Pure functions of their arguments; no state.
 */
#ifndef STC_HEX_FIELD_H
#define STC_HEX_FIELD_H

#include <stdint.h>
#include <string.h>

/* Bytes a caller must keep readable after any position it parses from. */
enum { STC_HEX_FIELD_READ = 16 };

/* Inlined into the readers' loops even where the compiler would call it:
 * a call costs as much as the conversion. */
#if defined(__GNUC__)
#define STC_HEX_INLINE static inline __attribute__((always_inline))
#else
#define STC_HEX_INLINE static inline
#endif

#define STC_HEX_ONES UINT64_C(0x0101010101010101)
#define STC_HEX_HIGH UINT64_C(0x8080808080808080)

/* The 8 bytes at text as a little-endian word: byte i of the text is bits
 * 8i..8i+7 whatever the machine's byte order. */
static inline uint64_t stc_hex_load8(const unsigned char *text)
{
    uint64_t word;
    memcpy(&word, text, sizeof word);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    word = __builtin_bswap64(word);
#endif
    return word;
}

/* 0x80 in each byte of word that is NOT a hexadecimal digit. Each test is
 * "byte + (0x80 - bound) has its top bit set" = "byte >= bound", exact
 * because the top bits are cleared first (no carry crosses a byte); bytes
 * with the top bit set are never digits. */
static inline uint64_t stc_hex_non_digits(uint64_t word)
{
    uint64_t low7 = word & ~STC_HEX_HIGH;
    uint64_t at_least_0 = low7 + (0x80 - '0') * STC_HEX_ONES;
    uint64_t above_9 = low7 + (0x80 - '9' - 1) * STC_HEX_ONES;
    uint64_t lower = low7 | 0x20 * STC_HEX_ONES; /* 'A'-'F' -> 'a'-'f' */
    uint64_t at_least_a = lower + (0x80 - 'a') * STC_HEX_ONES;
    uint64_t above_f = lower + (0x80 - 'f' - 1) * STC_HEX_ONES;
    uint64_t digits = (at_least_0 & ~above_9) | (at_least_a & ~above_f);
    return (~digits | word) & STC_HEX_HIGH;
}

/* Index of the first byte flagged in a stc_hex_non_digits mask, 8 if none. */
static inline unsigned stc_hex_first_flagged(uint64_t flags)
{
    if (!flags)
        return 8;
#if defined(__GNUC__)
    return (unsigned)__builtin_ctzll(flags) / 8;
#else
    unsigned index = 0;
    while (!(flags & 0x80)) {
        flags >>= 8;
        index++;
    }
    return index;
#endif
}

/* The value of 8 hexadecimal digits, the first character the most
 * significant; byte i of word is character i. '0'-'9' have 0-9 in their low
 * nibble, 'a'-'f' and 'A'-'F' 1-6 and bit 6 set: add 9 for those. Then
 * neighbours are merged pairwise: digits -> bytes -> 16 -> 32 bits. */
static inline uint64_t stc_hex_value8(uint64_t word)
{
    uint64_t nibbles = (word & 0x0f * STC_HEX_ONES) + ((word >> 6) & STC_HEX_ONES) * 9;
    uint64_t bytes = ((nibbles & UINT64_C(0x000f000f000f000f)) << 4) |
                     ((nibbles & UINT64_C(0x0f000f000f000f00)) >> 8);
    uint64_t halves = ((bytes & UINT64_C(0x000000ff000000ff)) << 8) |
                      ((bytes & UINT64_C(0x00ff000000ff0000)) >> 16);
    return ((halves & UINT64_C(0x000000000000ffff)) << 16) |
           ((halves & UINT64_C(0x0000ffff00000000)) >> 32);
}

/* The value of the first `count` (0..8) characters of word. They are moved
 * to the least significant end (the last bytes); the zero bytes shifted in
 * convert to zero digits, leading zeros. */
static inline uint64_t stc_hex_value_first(uint64_t word, unsigned count)
{
    /* Two shifts, so count 0 (a shift by 64) stays defined. */
    return stc_hex_value8((word << (4 * (8 - count))) << (4 * (8 - count)));
}

STC_HEX_INLINE unsigned stc_hex_field(const unsigned char *text, uint64_t *value)
{
    uint64_t first = stc_hex_load8(text);
    unsigned count = stc_hex_first_flagged(stc_hex_non_digits(first));
    if (count < 8) {
        *value = stc_hex_value_first(first, count);
        return count;
    }
    uint64_t second = stc_hex_load8(text + 8);
    unsigned more = stc_hex_first_flagged(stc_hex_non_digits(second));
    uint64_t high = stc_hex_value8(first);
    /* 4 * more < 64: shifting by 32 at most. */
    *value = (high << (4 * more)) | (more ? stc_hex_value_first(second, more) : 0);
    return 8 + more;
}

#endif
