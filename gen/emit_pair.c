/*
 * emit_pair.c - stc_cache_pair, an I-cache and a D-cache side by side
 * (docs/ARCHITECTURE.md section 14.3): u_icache (stc_cache, READ_ONLY = 1)
 * and u_dcache (stc_cache), each with its own CPU, configuration, counter,
 * memory and power-switch ports, prefixed i_ and d_. The I-cache's store
 * ports are left off (tied to 0; its store-only outputs go to unused_*
 * wires), so a processor's fetch port connects without dead wires.
 */
#include "emit.h"
#include "top_ports.h"

#include <stdio.h>

static void declare(stcgen_text *text, const char *prefix, const stcgen_top_port *port)
{
    char range[32] = "";
    if (port->width > 1) {
        snprintf(range, sizeof range, "[%u:0]", port->width - 1);
    }
    stcgen_text_line(text, "%s wire %-7s %s%s,%s%s", port->input ? "input " : "output", range,
                     prefix, port->name, port->what[0] ? "  // " : "", port->what);
}

static void instance(stcgen_text *text, const stcgen_top_port *ports, size_t n_ports,
                     bool read_only)
{
    const char *prefix = read_only ? "i_" : "d_";
    stcgen_text_line(text, "%s #(", STCGEN_TOP_MODULE);
    stcgen_text_line(text, "  .READ_ONLY (%d)", read_only ? 1 : 0);
    stcgen_text_line(text, ") u_%s (", read_only ? "icache" : "dcache");
    stcgen_text_in(text);
    stcgen_text_line(text, ".%-15s (clk_i),", "clk_i");
    stcgen_text_line(text, ".%-15s (rst_ni),", "rst_ni");
    for (size_t index = 0; index < n_ports; index++) {
        const stcgen_top_port *port = &ports[index];
        char net[64];
        if (read_only && port->writes && port->input) {
            snprintf(net, sizeof net, "%u'd0", port->width);
        } else if (read_only && port->writes) {
            snprintf(net, sizeof net, "unused_i_%s", port->name);
        } else {
            snprintf(net, sizeof net, "%s%s", prefix, port->name);
        }
        stcgen_text_line(text, ".%-15s (%s),", port->name, net);
    }
    stcgen_text_line(text, ".%-15s (%s%s),", STCGEN_TOP_PWR_EN_PORT, prefix, STCGEN_TOP_PWR_EN_PORT);
    stcgen_text_line(text, ".%-15s (%s%s)", STCGEN_TOP_PWR_ACK_PORT, prefix,
                     STCGEN_TOP_PWR_ACK_PORT);
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
}

void stcgen_emit_pair(stcgen_text *text, const stcgen_file *file, const stcgen_params *params)
{
    stcgen_top_port ports[STCGEN_MAX_TOP_PORTS];
    const size_t n_ports = stcgen_top_ports(params, ports, STCGEN_MAX_TOP_PORTS);
    const unsigned banks = params->geometry.banks;
    char range[32];
    snprintf(range, sizeof range, "[%u:0]", banks - 1);

    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    stcgen_text_blank(text);
    stcgen_text_line(text, STCGEN_TIMESCALE);
    stcgen_text_line(text, "`default_nettype none");
    stcgen_text_blank(text);
    stcgen_text_line(text, "// stc_cache_pair: an I-cache (u_icache, READ_ONLY = 1, ports i_*) and a");
    stcgen_text_line(text, "// D-cache (u_dcache, ports d_*), each a complete stc_cache with its own");
    stcgen_text_line(text, "// memory port and bank power switches (ARCHITECTURE.md 14.3). Apply");
    stcgen_text_line(text, "// stc_cache.upf to each instance (load_upf -scope u_icache / u_dcache).");
    stcgen_text_line(text, "module stc_cache_pair (");
    stcgen_text_in(text);
    stcgen_text_line(text, "input  wire         clk_i,");
    stcgen_text_line(text, "input  wire         rst_ni,  // asynchronous reset, active low");
    for (size_t index = 0; index < n_ports; index++) {
        if (!ports[index].writes) {
            declare(text, "i_", &ports[index]);
        }
    }
    stcgen_text_line(text, "output wire %-7s i_%s,  // I-cache bank power switch enables", range,
                     STCGEN_TOP_PWR_EN_PORT);
    stcgen_text_line(text, "input  wire %-7s i_%s,  // and acknowledges", range,
                     STCGEN_TOP_PWR_ACK_PORT);
    for (size_t index = 0; index < n_ports; index++) {
        declare(text, "d_", &ports[index]);
    }
    stcgen_text_line(text, "output wire %-7s d_%s,  // D-cache bank power switch enables", range,
                     STCGEN_TOP_PWR_EN_PORT);
    stcgen_text_line(text, "input  wire %-7s d_%s   // and acknowledges", range,
                     STCGEN_TOP_PWR_ACK_PORT);
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
    stcgen_text_blank(text);
    stcgen_text_in(text);
    stcgen_text_line(text, "// The I-cache's store-only outputs: constant for READ_ONLY = 1.");
    for (size_t index = 0; index < n_ports; index++) {
        const stcgen_top_port *port = &ports[index];
        if (port->writes && !port->input) {
            if (port->width > 1) {
                snprintf(range, sizeof range, "[%u:0]", port->width - 1);
            } else {
                range[0] = '\0';
            }
            stcgen_text_line(text, "wire %-7s unused_i_%s;", range, port->name);
        }
    }
    stcgen_text_blank(text);
    instance(text, ports, n_ports, true);
    stcgen_text_blank(text);
    instance(text, ports, n_ports, false);
    stcgen_text_out(text);
    stcgen_text_blank(text);
    stcgen_text_line(text, "endmodule");
    stcgen_text_blank(text);
    stcgen_text_line(text, "`resetall");
}
