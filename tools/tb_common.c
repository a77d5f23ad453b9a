/* tb_common.c - the testbench writers' shared pieces (tb_common.h). */
#include "tb_common.h"

#include <stdio.h>

uint64_t tb_next_random(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ull;
}

unsigned tb_below(uint64_t *seed, unsigned bound)
{
    return (unsigned)(tb_next_random(seed) % bound);
}

unsigned tb_bits_for(unsigned values)
{
    unsigned bits = 0;
    while ((1u << bits) < values) {
        bits++;
    }
    return bits;
}

int tb_geometry(const char *program, const char *list, stc_geometry *geometry)
{
    char err[256];
    stc_geometry_default(geometry);
    int status = list ? stc_geometry_parse(geometry, list, err, sizeof err)
                      : stc_geometry_init(geometry, err, sizeof err);
    if (status != 0) {
        fprintf(stderr, "%s: -g %s: %s\n", program, list ? list : "", err);
        return -1;
    }
    return 0;
}

void tb_print_verdict(void)
{
    printf("    if (errors == 0) $display(\"PASS %%0d checks\", checks);\n");
    printf("    else $display(\"FAIL %%0d of %%0d checks\", errors, checks);\n");
    printf("    $finish;\n");
}
