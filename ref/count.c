/* count.c - reading a count from a command-line option. */
#include "count.h"

#include <errno.h>
#include <stdlib.h>

int stc_parse_count(const char *text, uint64_t *value)
{
    char *end = NULL;
    if (*text < '0' || *text > '9') {
        return -1;
    }
    errno = 0;
    unsigned long long parsed = strtoull(text, &end, 10);
    if (*end != '\0' || errno == ERANGE || parsed > UINT64_MAX) {
        return -1;
    }
    *value = (uint64_t)parsed;
    return 0;
}
