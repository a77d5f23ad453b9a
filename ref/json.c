/* json.c - JSON string output for stcsim and stcsim tune. */
#include "json.h"

#include <stdio.h>

void stc_json_print_string(const char *text)
{
    putchar('"');
    for (const unsigned char *cursor = (const unsigned char *)text; *cursor; cursor++) {
        if (*cursor == '"' || *cursor == '\\') {
            printf("\\%c", *cursor);
        } else if (*cursor < 0x20) {
            printf("\\u%04x", *cursor);
        } else {
            putchar(*cursor);
        }
    }
    putchar('"');
}
