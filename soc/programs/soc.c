/*
 * soc.c - picolibc's stdout on the example SoC's console, and _exit
 */
#include "soc.h"

#include <stdio.h>

static int console_putc(char c, FILE *file)
{
    (void)file;
    SOC_CONSOLE_TX = (uint8_t)c;
    return (unsigned char)c;
}

static FILE console = FDEV_SETUP_STREAM(console_putc, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdin = &console;
FILE *const stdout = &console;
FILE *const stderr = &console;

void _exit(int code)
{
    SOC_CONSOLE_EXIT = (uint32_t)code;
    for (;;) {
        __asm__ volatile("ebreak");
    }
}

void soc_config_name(uint32_t config, char *buf, unsigned len)
{
    uint32_t geometry = STC_REG_GEOMETRY_RESET;
    unsigned banks_log = STC_FIELD_GET(config, STC_REG_CONFIG_BANKS_LOG);
    unsigned ways_log = STC_FIELD_GET(config, STC_REG_CONFIG_WAYS_LOG);
    unsigned sub_log = STC_FIELD_GET(config, STC_REG_CONFIG_SUB_LOG);
    unsigned wp = STC_FIELD_GET(config, STC_REG_CONFIG_WP);
    unsigned long bytes = (1ul << banks_log) << STC_FIELD_GET(geometry, STC_REG_GEOMETRY_BANK_BYTES_LOG2);
    unsigned line = (1u << STC_FIELD_GET(geometry, STC_REG_GEOMETRY_LINE_BYTES_LOG2)) << sub_log;
    snprintf(buf, len, "%luK_%uW_%uB%s", bytes / 1024, 1u << ways_log, line, wp ? "_P" : "");
}
