/*
 * test_config.c - geometry validation and derived widths, configuration
 * names, parsing and enumeration (docs/ARCHITECTURE.md sections 1 and 2).
 *
 * Every expectation is written out by hand from the spec, not computed with
 * the model's own helpers, so a wrong derivation in ref/ cannot hide behind
 * an equally wrong expectation.
 */
#include "check.h"
#include "config.h"
#include "geometry.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum { ERR_LEN = 256 };

/* Defaults, then one comma-separated list of overrides; returns the result of
 * stc_geometry_parse (stcsim applies defaults the same way before parsing). */
static int geometry_from(const char *list, stc_geometry *geometry, char *err)
{
    stc_geometry_default(geometry);
    err[0] = '\0';
    return stc_geometry_parse(geometry, list, err, ERR_LEN);
}

static void test_geometry_defaults(void)
{
    stc_geometry geometry;
    char err[ERR_LEN];
    stc_geometry_default(&geometry);
    CHECK(stc_geometry_init(&geometry, err, sizeof err) == 0, "default geometry rejected: %s", err);
    /* Section 1 table: B=4, 2 KiB banks, P=16, A=32, T_mem=20, T_wake=4. */
    CHECK_EQ_U64(geometry.banks, 4, "banks");
    CHECK_EQ_U64(geometry.bank_bytes, 2048, "bank_bytes");
    CHECK_EQ_U64(geometry.line_bytes, 16, "line_bytes");
    CHECK_EQ_U64(geometry.addr_bits, 32, "addr_bits");
    CHECK_EQ_U64(geometry.mem_latency, 20, "mem_latency");
    CHECK_EQ_U64(geometry.wake_cycles, 4, "wake_cycles");
    /* Derived: R = 2048/16 = 128, O = 4, row bits 7, S = 4+7 = 11,
     * tag = addr[31:11] = 21 bits, beats = 16/4 = 4. */
    CHECK_EQ_U64(geometry.rows, 128, "rows");
    CHECK_EQ_U64(geometry.offset_bits, 4, "offset bits");
    CHECK_EQ_U64(geometry.row_bits, 7, "row bits");
    CHECK_EQ_U64(geometry.bank_shift, 11, "bank shift");
    CHECK_EQ_U64(geometry.bank_bits, 2, "bank bits");
    CHECK_EQ_U64(geometry.tag_bits, 21, "tag bits");
    CHECK_EQ_U64(geometry.beats_per_line, 4, "beats per line");
    CHECK_EQ_U64(geometry.addr_mask, 0xffffffffu, "address mask");

    /* A non-default shape: 8 banks of 1 KiB, 32 B lines, 64-bit addresses:
     * R = 32, O = 5, row bits 5, S = 10, tag 54 bits, 8 beats, mask all ones. */
    CHECK(geometry_from("banks=8,bank_bytes=1024,line_bytes=32,addr_bits=64", &geometry, err) == 0,
          "8x1K/32B/64-bit rejected: %s", err);
    CHECK_EQ_U64(geometry.rows, 32, "rows of 1K/32B");
    CHECK_EQ_U64(geometry.offset_bits, 5, "offset bits of 32B");
    CHECK_EQ_U64(geometry.row_bits, 5, "row bits of 1K/32B");
    CHECK_EQ_U64(geometry.bank_shift, 10, "bank shift of 1K");
    CHECK_EQ_U64(geometry.bank_bits, 3, "bank bits of 8 banks");
    CHECK_EQ_U64(geometry.tag_bits, 54, "tag bits of 64-bit/1K");
    CHECK_EQ_U64(geometry.beats_per_line, 8, "beats of 32B");
    CHECK(geometry.addr_mask == UINT64_MAX, "64-bit address mask");

    /* Edges that are legal: 1 bank, 32 banks, 4-byte lines with 16-byte
     * banks (exactly 4 lines), addr_bits = log2(bank)+log2(B)+1. */
    CHECK(geometry_from("banks=1", &geometry, err) == 0, "banks=1 rejected: %s", err);
    CHECK(geometry_from("banks=32", &geometry, err) == 0, "banks=32 rejected: %s", err);
    CHECK(geometry_from("line_bytes=4,bank_bytes=16", &geometry, err) == 0,
          "4 lines of 4 B rejected: %s", err);
    CHECK_EQ_U64(geometry.rows, 4, "rows of 16B/4B");
    CHECK_EQ_U64(geometry.beats_per_line, 1, "beats of a 4B line");
    /* Default: log2(2048) + log2(4) = 13, so 14 is the smallest legal A. */
    CHECK(geometry_from("addr_bits=14", &geometry, err) == 0, "addr_bits=14 rejected: %s", err);
    CHECK_EQ_U64(geometry.tag_bits, 3, "tag bits at A=14");
    CHECK_EQ_U64(geometry.addr_mask, 0x3fff, "mask at A=14");
    /* banks=1: log2(2048)+0 = 11, so A=12 is legal... but A must be >= 8 too. */
    CHECK(geometry_from("banks=1,addr_bits=12", &geometry, err) == 0,
          "banks=1,addr_bits=12 rejected: %s", err);
}

/* One illegal parameter: parse must fail and the message must name it. */
static void expect_geometry_error(const char *list, const char *parameter)
{
    stc_geometry geometry;
    char err[ERR_LEN];
    int status = geometry_from(list, &geometry, err);
    CHECK(status == -1, "'%s' accepted", list);
    CHECK(strstr(err, parameter) != NULL, "'%s': message '%s' does not name '%s'", list, err,
          parameter);
}

static void test_geometry_errors(void)
{
    /* Section 1 rules, one broken at a time. The names are matched with their
     * '=' where another parameter's name contains them ("bank" in
     * "bank_bytes"), so the message names exactly the right one. */
    expect_geometry_error("banks=3", "banks=");
    expect_geometry_error("banks=64", "banks=");
    expect_geometry_error("banks=0", "banks=");
    expect_geometry_error("line_bytes=2", "line_bytes");
    expect_geometry_error("line_bytes=24", "line_bytes");
    expect_geometry_error("bank_bytes=3000", "bank_bytes");
    /* 4 physical lines of 16 B need 64 B; 32 B holds only 2. */
    expect_geometry_error("bank_bytes=32", "bank_bytes");
    /* 4 lines of 64 B need 256 B. */
    expect_geometry_error("line_bytes=64,bank_bytes=128", "bank_bytes");
    /* Default needs A > 11 + 2 = 13. */
    expect_geometry_error("addr_bits=13", "addr_bits");
    expect_geometry_error("addr_bits=7", "addr_bits");
    expect_geometry_error("addr_bits=65", "addr_bits");
    /* 32 banks of 64 KiB: 16 + 5 = 21, so A=21 is too small. */
    expect_geometry_error("banks=32,bank_bytes=65536,addr_bits=21", "addr_bits");
    expect_geometry_error("colour=4", "colour");
    expect_geometry_error("banks=four", "banks");
    expect_geometry_error("banks=", "banks");
    expect_geometry_error("banks=-4", "banks");
    expect_geometry_error("banks=4x", "banks");
    expect_geometry_error("line_bytes= 16", "line_bytes");
    expect_geometry_error("bank_bytes=99999999999", "bank_bytes");

    /* stc_geometry_init directly, without the parser. */
    stc_geometry geometry;
    char err[ERR_LEN] = "";
    stc_geometry_default(&geometry);
    geometry.banks = 3;
    CHECK(stc_geometry_init(&geometry, err, sizeof err) == -1, "init accepted banks=3");
    CHECK(strstr(err, "banks=") != NULL, "init message '%s' does not name banks", err);
}

static void test_geometry_list_syntax(void)
{
    stc_geometry geometry;
    char err[ERR_LEN];
    /* Empty list: the defaults, initialised. */
    CHECK(geometry_from("", &geometry, err) == 0, "empty list rejected: %s", err);
    CHECK_EQ_U64(geometry.rows, 128, "empty list derives rows");
    /* Several items, any order, later ones override earlier ones. */
    CHECK(geometry_from("bank_bytes=1024,banks=8,mem_latency=30,wake_cycles=2,banks=16", &geometry,
                        err) == 0,
          "list rejected: %s", err);
    CHECK_EQ_U64(geometry.banks, 16, "last assignment wins");
    CHECK_EQ_U64(geometry.bank_bytes, 1024, "bank_bytes from the list");
    CHECK_EQ_U64(geometry.mem_latency, 30, "mem_latency from the list");
    CHECK_EQ_U64(geometry.wake_cycles, 2, "wake_cycles from the list");
    CHECK_EQ_U64(geometry.bank_shift, 10, "derived after the list");
    CHECK_EQ_U64(geometry.bank_bits, 4, "derived bank bits after the list");

    static const char *const bad_lists[] = {
        "banks=8,",          /* trailing comma */
        ",banks=8",          /* empty first item */
        "banks=8,,line_bytes=32", /* empty middle item */
        "banks",             /* no '=' */
        "banks=8;line_bytes=32", /* wrong separator: value "8;line_bytes=32" */
    };
    for (size_t i = 0; i < sizeof bad_lists / sizeof bad_lists[0]; i++) {
        CHECK(geometry_from(bad_lists[i], &geometry, err) == -1, "list '%s' accepted",
              bad_lists[i]);
        CHECK(err[0] != '\0', "list '%s' rejected without a message", bad_lists[i]);
    }

    /* stc_geometry_set alone does not derive. */
    stc_geometry_default(&geometry);
    CHECK(stc_geometry_set(&geometry, "line_bytes=32", err, sizeof err) == 0, "set: %s", err);
    CHECK_EQ_U64(geometry.line_bytes, 32, "set stores the value");
}

/* The 27 default configurations in canonical order (section 2: size
 * ascending, then ways, then line, then wp off before on; wp only when a>1). */
static const char *const default_names[27] = {
    /* 2K (k=1): a=1 */
    "2K_1W_16B", "2K_1W_32B", "2K_1W_64B",
    /* 4K (k=2): a=1, then a=2 with and without wp */
    "4K_1W_16B", "4K_1W_32B", "4K_1W_64B",
    "4K_2W_16B", "4K_2W_16B_P", "4K_2W_32B", "4K_2W_32B_P", "4K_2W_64B", "4K_2W_64B_P",
    /* 8K (k=4): a=1, a=2, a=4 */
    "8K_1W_16B", "8K_1W_32B", "8K_1W_64B",
    "8K_2W_16B", "8K_2W_16B_P", "8K_2W_32B", "8K_2W_32B_P", "8K_2W_64B", "8K_2W_64B_P",
    "8K_4W_16B", "8K_4W_16B_P", "8K_4W_32B", "8K_4W_32B_P", "8K_4W_64B", "8K_4W_64B_P",
};

static void test_enumerate_default(void)
{
    stc_geometry geometry;
    char err[ERR_LEN];
    CHECK(geometry_from("", &geometry, err) == 0, "default: %s", err);
    stc_config configs[STC_MAX_CONFIGS];
    size_t count = stc_config_enumerate(&geometry, configs, STC_MAX_CONFIGS);
    CHECK_EQ_U64(count, 27, "default geometry has 27 configurations (section 2)");
    for (size_t i = 0; i < count && i < 27; i++) {
        char name[STC_CONFIG_NAME_MAX];
        stc_config_name(&geometry, &configs[i], name, sizeof name);
        CHECK(strcmp(name, default_names[i]) == 0, "configuration %zu is %s, want %s", i, name,
              default_names[i]);
        CHECK(stc_config_check(&geometry, &configs[i]) == NULL, "enumerated %s is illegal", name);
        /* Round trip: the name parses back to the same configuration. */
        stc_config parsed;
        CHECK(stc_config_parse(&geometry, default_names[i], &parsed, err, sizeof err) == 0,
              "%s does not parse: %s", default_names[i], err);
        CHECK(stc_config_equal(&parsed, &configs[i]), "%s parses to a different configuration",
              default_names[i]);
    }
    /* Hand-decoded fields of a few names. */
    stc_config parsed;
    CHECK(stc_config_parse(&geometry, "8K_2W_32B_P", &parsed, err, sizeof err) == 0, "%s", err);
    CHECK(parsed.banks_on == 4 && parsed.ways == 2 && parsed.sublines == 2 && parsed.way_predict,
          "8K_2W_32B_P decoded as k=%u a=%u n=%u wp=%d", parsed.banks_on, parsed.ways,
          parsed.sublines, parsed.way_predict);
    CHECK(stc_config_parse(&geometry, "2K_1W_64B", &parsed, err, sizeof err) == 0, "%s", err);
    CHECK(parsed.banks_on == 1 && parsed.ways == 1 && parsed.sublines == 4 && !parsed.way_predict,
          "2K_1W_64B decoded as k=%u a=%u n=%u wp=%d", parsed.banks_on, parsed.ways,
          parsed.sublines, parsed.way_predict);

    /* A short output buffer truncates but stays terminated and in bounds. */
    size_t small = stc_config_enumerate(&geometry, configs, 5);
    CHECK_EQ_U64(small, 27, "enumerate returns the total even when max is small");

    /* Reset configuration: all banks on, a = B, L = P, wp off. */
    stc_config reset = stc_config_reset(&geometry);
    char name[STC_CONFIG_NAME_MAX];
    stc_config_name(&geometry, &reset, name, sizeof name);
    CHECK(strcmp(name, "8K_4W_16B") == 0, "reset configuration is %s", name);
}

static void test_enumerate_eight_banks(void)
{
    stc_geometry geometry;
    char err[ERR_LEN];
    CHECK(geometry_from("banks=8", &geometry, err) == 0, "banks=8: %s", err);
    /* By hand, 3 line sizes each, x2 again for wp when a > 1:
     *   2K  (k=1): a=1                -> 3
     *   4K  (k=2): a=1 3, a=2 6       -> 9
     *   8K  (k=4): a=1 3, a=2,4 6+6   -> 15
     *   16K (k=8): a=1 3, a=2,4,8 18  -> 21
     * total 3 + 9 + 15 + 21 = 48. */
    stc_config configs[STC_MAX_CONFIGS];
    size_t count = stc_config_enumerate(&geometry, configs, STC_MAX_CONFIGS);
    CHECK_EQ_U64(count, 48, "banks=8 has 48 configurations");
    char first[STC_CONFIG_NAME_MAX], last[STC_CONFIG_NAME_MAX];
    stc_config_name(&geometry, &configs[0], first, sizeof first);
    stc_config_name(&geometry, &configs[count - 1], last, sizeof last);
    CHECK(strcmp(first, "2K_1W_16B") == 0, "first of banks=8 is %s", first);
    CHECK(strcmp(last, "16K_8W_64B_P") == 0, "last of banks=8 is %s", last);
    /* Canonical order holds pairwise, and every name round-trips. */
    for (size_t i = 0; i < count; i++) {
        char name[STC_CONFIG_NAME_MAX];
        stc_config_name(&geometry, &configs[i], name, sizeof name);
        stc_config parsed;
        CHECK(stc_config_parse(&geometry, name, &parsed, err, sizeof err) == 0, "%s: %s", name,
              err);
        CHECK(stc_config_equal(&parsed, &configs[i]), "%s does not round-trip", name);
        if (i > 0) {
            const stc_config *before = &configs[i - 1], *after = &configs[i];
            bool ordered =
                before->banks_on < after->banks_on ||
                (before->banks_on == after->banks_on &&
                 (before->ways < after->ways ||
                  (before->ways == after->ways &&
                   (before->sublines < after->sublines ||
                    (before->sublines == after->sublines && !before->way_predict &&
                     after->way_predict)))));
            CHECK(ordered, "configurations %zu and %zu out of canonical order", i - 1, i);
        }
    }

    /* 32 banks: pairs (k, a) = 1+2+...+6 = 21, x3 lines = 63, plus wp on the
     * 21-6 = 15 multi-way pairs x3 = 45: 108, within STC_MAX_CONFIGS. */
    CHECK(geometry_from("banks=32", &geometry, err) == 0, "banks=32: %s", err);
    count = stc_config_enumerate(&geometry, configs, STC_MAX_CONFIGS);
    CHECK_EQ_U64(count, 108, "banks=32 configuration count");
    CHECK(count <= STC_MAX_CONFIGS, "STC_MAX_CONFIGS too small");
    /* 1 bank: only 2K_1W with 3 lines. */
    CHECK(geometry_from("banks=1", &geometry, err) == 0, "banks=1: %s", err);
    CHECK_EQ_U64(stc_config_enumerate(&geometry, configs, STC_MAX_CONFIGS), 3, "banks=1 count");
}

static void expect_name_error(const stc_geometry *geometry, const char *name, const char *needle)
{
    char err[ERR_LEN] = "";
    stc_config parsed = {0, 0, 0, false};
    stc_config untouched = parsed;
    int status = stc_config_parse(geometry, name, &parsed, err, sizeof err);
    CHECK(status == -1, "'%s' accepted as k=%u a=%u n=%u wp=%d", name, parsed.banks_on,
          parsed.ways, parsed.sublines, parsed.way_predict);
    if (status != -1) {
        return; /* the checks below would only repeat the failure */
    }
    CHECK(stc_config_equal(&parsed, &untouched), "'%s' rejected but the output was written", name);
    CHECK(err[0] != '\0', "'%s' rejected without a message", name);
    CHECK(strstr(err, needle) != NULL, "'%s': message '%s' lacks '%s'", name, err, needle);
}

static void test_config_names_rejected(void)
{
    stc_geometry geometry;
    char err[ERR_LEN];
    CHECK(geometry_from("", &geometry, err) == 0, "default: %s", err);
    /* Each message must say what is wrong: the rule for illegal
     * combinations, the expected syntax for malformed names. */
    expect_name_error(&geometry, "8K_8W_16B", "associativity");  /* a > k */
    expect_name_error(&geometry, "2K_2W_16B", "associativity");  /* a > k = 1 */
    expect_name_error(&geometry, "8K_1W_16B_P", "way prediction"); /* wp with a = 1 */
    expect_name_error(&geometry, "3K_1W_16B", "whole number");   /* 1.5 banks */
    expect_name_error(&geometry, "6K_1W_16B", "power of two");   /* 3 banks */
    expect_name_error(&geometry, "16K_1W_16B", "banks");         /* more than B banks */
    expect_name_error(&geometry, "8K_4W_48B", "1, 2 or 4");      /* 3 sublines */
    expect_name_error(&geometry, "8K_4W_128B", "1, 2 or 4");     /* 8 sublines */
    expect_name_error(&geometry, "8K_4W_8B", "8K_4W_8B");        /* half a physical line */
    expect_name_error(&geometry, "8K_3W_16B", "associativity");
    expect_name_error(&geometry, "banana", "SIZE_WAYSW_LINEB");
    expect_name_error(&geometry, "8K_4W_16B_X", "SIZE_WAYSW_LINEB");
    expect_name_error(&geometry, "8K_4W", "SIZE_WAYSW_LINEB");
    expect_name_error(&geometry, "", "SIZE_WAYSW_LINEB");
    /* Anything after "_P" is junk too (section 2: "_P appended"). */
    expect_name_error(&geometry, "8K_4W_16B_P_P", "SIZE_WAYSW_LINEB");
    expect_name_error(&geometry, "8K_4W_16B_P_X", "SIZE_WAYSW_LINEB");
    expect_name_error(&geometry, "8K_4W_16B_", "SIZE_WAYSW_LINEB");
    expect_name_error(&geometry, "8K_4_16B", "SIZE_WAYSW_LINEB");
    expect_name_error(&geometry, "8K_4W_16", "SIZE_WAYSW_LINEB");
    expect_name_error(&geometry, "0K_1W_16B", "0K_1W_16B");
}

static void test_small_bank_names(void)
{
    /* Banks of 512 B: sizes below 1 KiB are named in B, whole KiB in K. */
    stc_geometry geometry;
    char err[ERR_LEN];
    CHECK(geometry_from("bank_bytes=512", &geometry, err) == 0, "bank_bytes=512: %s", err);
    stc_config configs[STC_MAX_CONFIGS];
    size_t count = stc_config_enumerate(&geometry, configs, STC_MAX_CONFIGS);
    CHECK_EQ_U64(count, 27, "bank_bytes=512 still has 27 configurations");
    char name[STC_CONFIG_NAME_MAX];
    stc_config_name(&geometry, &configs[0], name, sizeof name);
    CHECK(strcmp(name, "512B_1W_16B") == 0, "smallest 512 B configuration is %s", name);
    stc_config_name(&geometry, &configs[3], name, sizeof name);
    CHECK(strcmp(name, "1K_1W_16B") == 0, "two 512 B banks are named %s", name);
    stc_config_name(&geometry, &configs[count - 1], name, sizeof name);
    CHECK(strcmp(name, "2K_4W_64B_P") == 0, "largest 512 B configuration is %s", name);
    stc_config parsed;
    CHECK(stc_config_parse(&geometry, "512B_1W_16B", &parsed, err, sizeof err) == 0,
          "512B_1W_16B: %s", err);
    CHECK(parsed.banks_on == 1 && parsed.ways == 1 && parsed.sublines == 1,
          "512B_1W_16B decoded as k=%u a=%u n=%u", parsed.banks_on, parsed.ways, parsed.sublines);

    /* 256 B banks, 3 of them would be 768 B: not a name of any legal config,
     * and 1.5 KiB with 1 KiB banks is not a whole number of banks. */
    CHECK(geometry_from("bank_bytes=256", &geometry, err) == 0, "bank_bytes=256: %s", err);
    expect_name_error(&geometry, "768B_1W_16B", "power of two");
    stc_config four = {4, 2, 2, true};
    stc_config_name(&geometry, &four, name, sizeof name);
    CHECK(strcmp(name, "1K_2W_32B_P") == 0, "4 x 256 B, 2-way, 32 B, wp is named %s", name);
    stc_config two = {2, 1, 4, false};
    stc_config_name(&geometry, &two, name, sizeof name);
    CHECK(strcmp(name, "512B_1W_64B") == 0, "2 x 256 B, 1-way, 64 B is named %s", name);
}

static void test_config_check(void)
{
    stc_geometry geometry;
    char err[ERR_LEN];
    CHECK(geometry_from("", &geometry, err) == 0, "default: %s", err);
    const stc_config illegal[] = {
        {0, 1, 1, false}, /* no banks */
        {3, 1, 1, false}, /* k not a power of two */
        {8, 1, 1, false}, /* k > B */
        {4, 0, 1, false}, /* no ways */
        {2, 4, 1, false}, /* a > k */
        {4, 4, 3, false}, /* 3 sublines */
        {4, 4, 8, false}, /* 8 sublines */
        {2, 1, 1, true},  /* wp with a = 1 */
    };
    for (size_t i = 0; i < sizeof illegal / sizeof illegal[0]; i++) {
        CHECK(stc_config_check(&geometry, &illegal[i]) != NULL, "illegal configuration %zu passed",
              i);
    }
    const stc_config legal = {1, 1, 4, false};
    CHECK(stc_config_check(&geometry, &legal) == NULL, "2K_1W_64B rejected");
}

int main(void)
{
    test_geometry_defaults();
    test_geometry_errors();
    test_geometry_list_syntax();
    test_enumerate_default();
    test_enumerate_eight_banks();
    test_config_names_rejected();
    test_small_bank_names();
    test_config_check();
    return check_done("test_config");
}
