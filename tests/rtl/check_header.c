/*
 * check_header.c - the generated stc_geometry_gen.h agrees with the C
 * model's geometry code (ref/geometry.c, ref/config.c).
 *
 * Built by tests/rtl-checks.sh against each generated output folder:
 *   cc -Iref -IOUT tests/rtl/check_header.c ref/geometry.c ref/config.c
 * The header's user parameters go into stc_geometry_init; every derived
 * value the model computes must equal the header's.
 */
#include "config.h"
#include "geometry.h"
#include "stc_geometry_gen.h"

#include <stdio.h>
#include <string.h>

static int failures;

static void expect(const char *what, unsigned long long got, unsigned long long want)
{
    if (got != want) {
        printf("check_header: FAIL %s %s: header %llu, model %llu\n", STC_GEN_NAME, what, got,
               want);
        failures++;
    }
}

int main(void)
{
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    geometry.banks = STC_GEN_BANKS;
    geometry.bank_bytes = STC_GEN_BANK_BYTES;
    geometry.line_bytes = STC_GEN_LINE_BYTES;
    geometry.addr_bits = STC_GEN_ADDR_BITS;
    char err[256];
    if (stc_geometry_init(&geometry, err, sizeof err) != 0) {
        printf("check_header: FAIL %s: the model rejects the header's geometry: %s\n",
               STC_GEN_NAME, err);
        return 1;
    }
    expect("rows", STC_GEN_ROWS, geometry.rows);
    expect("offset_bits", STC_GEN_OFFSET_BITS, geometry.offset_bits);
    expect("row_bits", STC_GEN_ROW_BITS, geometry.row_bits);
    expect("bank_shift", STC_GEN_BANK_SHIFT, geometry.bank_shift);
    expect("bank_bits", STC_GEN_BANK_BITS, geometry.bank_bits);
    expect("tag_bits", STC_GEN_TAG_BITS, geometry.tag_bits);
    expect("beats_per_line", STC_GEN_BEATS_PER_LINE, geometry.beats_per_line);
    expect("word_bytes", STC_GEN_WORD_BYTES, STC_WORD_BYTES);
    expect("word_bits", STC_GEN_WORD_BITS, STC_WORD_BYTES * 8);
    expect("line_bits", STC_GEN_LINE_BITS, geometry.line_bytes * 8ull);
    expect("max_sublines", STC_GEN_MAX_SUBLINES, STC_MAX_SUBLINES);
    expect("addr_mask", STC_GEN_ADDR_MASK, geometry.addr_mask);
    expect("configs", STC_GEN_CONFIGS, stc_config_enumerate(&geometry, NULL, 0));
    expect("sram_tag_depth", STC_GEN_SRAM_TAG_DEPTH, geometry.rows);
    /* a tag word: the tag (valid, dirty and recency are in the controller's
     * register file) */
    expect("sram_tag_width", STC_GEN_SRAM_TAG_WIDTH, geometry.tag_bits);
    expect("sram_tag_mask_bits", STC_GEN_SRAM_TAG_MASK_BITS,
           STC_GEN_SRAM_TAG_WIDTH / STC_GEN_SRAM_TAG_GRAN);
    expect("sram_data_depth", STC_GEN_SRAM_DATA_DEPTH, geometry.rows);
    expect("sram_data_width", STC_GEN_SRAM_DATA_WIDTH, geometry.line_bytes * 8ull);
    expect("sram_data_mask_bits", STC_GEN_SRAM_DATA_MASK_BITS,
           STC_GEN_SRAM_DATA_WIDTH / STC_GEN_SRAM_DATA_GRAN);
    expect("wake_cycles(0) is the model's default", STC_GEN_WAKE_CYCLES(0),
           geometry.wake_cycles);

    /* A --fixed baseline resets to its configuration (the build passes
     * FIXED_CONFIG), every other output to the model's reset. */
    char name[STC_CONFIG_NAME_MAX];
#ifdef FIXED_CONFIG
    snprintf(name, sizeof name, "%s", FIXED_CONFIG);
#else
    stc_config reset = stc_config_reset(&geometry);
    stc_config_name(&geometry, &reset, name, sizeof name);
#endif
    if (strcmp(name, STC_GEN_RESET_CONFIG) != 0) {
        printf("check_header: FAIL %s reset configuration: header %s, model %s\n", STC_GEN_NAME,
               STC_GEN_RESET_CONFIG, name);
        failures++;
    }
    if (failures == 0) {
        printf("check_header: PASS %s\n", STC_GEN_NAME);
    }
    return failures == 0 ? 0 : 1;
}
