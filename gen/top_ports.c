/* top_ports.c - the controller ports of stc_cache, in one table. */
#include "top_ports.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t stcgen_top_ports(const stcgen_params *params, stcgen_top_port *out, size_t max)
{
    const stc_geometry *g = &params->geometry;
    /* The register block: the seed tuner's (section 16.6) or the monitor
     * tuner's decision unit's (18.4). */
    const unsigned tuner_addr_bits =
        stcgen_monitor_tuner(params) ? STC_MREG_ADDR_BITS : STCGEN_SEED_TUNER_ADDR_BITS;
    const stcgen_top_port ports[] = {
        {true, 1, "cpu_req_valid_i", "CPU port (section 15)", false, false, false, false},
        {false, 1, "cpu_req_ready_o", "", false, false, false, false},
        {true, 1, "cpu_req_we_i", "1: store", true, false, false, false},
        {true, g->addr_bits - 2, "cpu_req_addr_i", "word address", false, false, false, false},
        {true, 4, "cpu_req_be_i", "store byte enables", true, false, false, false},
        {true, 32, "cpu_req_wdata_i", "", true, false, false, false},
        {false, 1, "cpu_rsp_valid_o", "", false, false, false, false},
        {false, 1, "cpu_rsp_err_o", "write to a read-only cache", true, false, false, false},
        {false, 32, "cpu_rsp_rdata_o", "", false, false, false, false},
        {true, 1, "cfg_valid_i", "configuration port", false, false, false, false},
        {false, 1, "cfg_ready_o", "", false, false, false, false},
        {true, 3, "cfg_banks_log_i", "log2(k)", false, false, false, false},
        {true, 3, "cfg_ways_log_i", "log2(a)", false, false, false, false},
        {true, 2, "cfg_sub_log_i", "log2(L/P)", false, false, false, false},
        {true, 1, "cfg_wp_i", "way prediction", false, false, false, false},
        {false, 1, "cfg_done_o", "", false, false, false, false},
        {false, 1, "cfg_err_o", "illegal configuration, ignored", false, false, false, false},
        {false, 3, "cfg_banks_log_o", "current configuration", false, false, false, false},
        {false, 3, "cfg_ways_log_o", "", false, false, false, false},
        {false, 2, "cfg_sub_log_o", "", false, false, false, false},
        {false, 1, "cfg_wp_o", "", false, false, false, false},
        {true, 1, "mnt_valid_i", "maintenance port (section 7.1)", false, false, false, false},
        {false, 1, "mnt_ready_o", "", false, false, false, false},
        {true, 2, "mnt_op_i", "1 clean, 2 invalidate, 3 both", false, false, false, false},
        {true, 1, "mnt_all_i", "1: every line, 0: the line of mnt_addr_i", false, false, false, false},
        {true, g->addr_bits - 2, "mnt_addr_i", "word address", false, false, false, false},
        {false, 1, "mnt_done_o", "", false, false, false, false},
        {true, 5, "cnt_sel_i", "counter number (section 15)", false, false, false, false},
        {true, 1, "cnt_clear_i", "clear every counter", false, false, false, false},
        {false, params->counter_bits, "cnt_value_o", "", false, false, false, false},
        {false, 1, "mem_req_valid_o", "memory port", false, false, false, false},
        {true, 1, "mem_req_ready_i", "", false, false, false, false},
        {false, 1, "mem_req_we_o", "", true, false, false, false},
        {false, g->addr_bits - g->offset_bits, "mem_req_line_o", "physical line address", false, false, false, false},
        {false, 3, "mem_req_lines_o", "lines in the burst", false, false, false, false},
        {false, 1, "mem_wvalid_o", "", true, false, false, false},
        {true, 1, "mem_wready_i", "", true, false, false, false},
        {false, 32, "mem_wdata_o", "", true, false, false, false},
        {true, 1, "mem_bvalid_i", "write burst complete", true, false, false, false},
        {true, 1, "mem_rvalid_i", "", false, false, false, false},
        {true, 32, "mem_rdata_i", "", false, false, false, false},
        {false, 1, "bus_req_o", "coherence (ARCHITECTURE.md 19.5): asks for the bus", true, false,
         true, false},
        {true, 1, "bus_own_i", "owns it (its grant's cycle included)", true, false, true, false},
        {false, 1, "bus_rel_o", "ends its tenure (a walk's last row)", true, false, true, false},
        {false, 1, "mem_req_upgr_o", "the request is a BusUpgr", true, false, true, false},
        {false, 1, "mem_req_rdx_o", "a read burst of a store's miss", true, false, true, false},
        {false, 2, "mem_req_rdx_pos_o", "the store's line mod 4 (BusRdX)", true, false, true, false},
        {false, 4, "mem_req_snoop_o", "the lines mod 4 the miss reads (snooped with its first "
         "burst)", true, false, true, false},
        {false, 1, "mem_req_last_o", "the tenure's last item", true, false, true, false},
        {true, 1, "line_shared_i", "the shared line, with a read line's last beat", true, false,
         true, false},
        {true, 1, "snp_valid_i", "another core's item in its address cycle (19.4)",
         true, false, true, true},
        {true, params->coh_line_bits, "snp_line_i", "its (first) physical line", true, false, true, true},
        {true, 12, "snp_bus_i", "per line p of its aligned group of 4: the bus code, 0 not snooped",
         true, false, true, true},
        {false, 4, "snp_supplies_o", "per line p: this cache supplies it", true, false, true, true},
        {false, 4, "snp_flushes_o", "... writes it back as it goes", true, false, true, true},
        {false, 4, "snp_shared_o", "... raises the shared line", true, false, true, true},
        {false, 1, "snp_err_o", "a snoop the protocol cannot take (two slots, no row)", true,
         false, true, true},
        {true, 1, "sup_read_i", "the bus reads a line this cache supplies (19.5) ...", true,
         false, true, false},
        {true, g->row_bits, "sup_row_i", "... at this row", true, false, true, false},
        {true, g->offset_bits > 2 ? g->offset_bits - 2 : 1, "sup_word_idx_i",
         "the supplied line's word the bus takes", true, false, true, false},
        {false, 32, "sup_word_o", "", true, false, true, false},
        {true, 1, "tun_we_i", "tuner register port (section 16)", false, true, false, false},
        {true, tuner_addr_bits, "tun_addr_i", "", false, true, false, false},
        {true, 32, "tun_wdata_i", "", false, true, false, false},
        {false, 32, "tun_rdata_o", "", false, true, false, false},
        {false, 1, "tun_busy_o", "the tuner searches or changes the configuration", false, true, false, false},
    };
    size_t count = 0;
    for (size_t index = 0; index < sizeof ports / sizeof ports[0]; index++) {
        const bool coherent = params->coherence && params->coh_bus == STC_COH_BUS_ATOMIC;
        if ((!ports[index].tuner || params->tuner) && (!ports[index].coherence || coherent)) {
            if (count == max) {
                /* a table longer than STCGEN_MAX_TOP_PORTS: a top missing
                 * its last ports must not be written */
                fprintf(stderr, "stcgen: internal error: more than %zu top ports\n", max);
                abort();
            }
            out[count++] = ports[index];
        }
    }
    return count;
}

size_t stcgen_unc_ports(const stcgen_params *params, stcgen_top_port *out, size_t max)
{
    const stcgen_top_port ports[] = {
        {true, 1, "unc_req_valid_i", "uncached port (ARCHITECTURE.md 14.9, 14.10)", false, false, false, false},
        {false, 1, "unc_req_ready_o", "", false, false, false, false},
        {true, 1, "unc_req_we_i", "1: store", false, false, false, false},
        {true, params->geometry.addr_bits - 2, "unc_req_addr_i", "word address", false, false, false, false},
        {true, 4, "unc_req_be_i", "byte enables (WSTRB of a store)", false, false, false, false},
        {true, 32, "unc_req_wdata_i", "", false, false, false, false},
        {false, 1, "unc_rsp_valid_o", "one cycle, no back-pressure", false, false, false, false},
        {false, 32, "unc_rsp_rdata_o", "", false, false, false, false},
        {false, 1, "unc_rsp_err_o", "the response was not OKAY", false, false, false, false},
    };
    size_t count = 0;
    for (size_t index = 0; index < sizeof ports / sizeof ports[0] && count < max; index++) {
        out[count++] = ports[index];
    }
    return count;
}

void stcgen_port_range(char *out, size_t len, unsigned width)
{
    if (width > 1) {
        snprintf(out, len, "[%u:0]", width - 1);
    } else if (len > 0) {
        out[0] = '\0';
    }
}

void stcgen_declare_port(stcgen_text *text, bool input, unsigned width, const char *name,
                         bool last, const char *what)
{
    char range[32];
    stcgen_port_range(range, sizeof range, width);
    stcgen_text_line(text, "%s wire %-7s %s%s%s%s", input ? "input " : "output", range, name,
                     last ? "" : ",", what[0] ? "  // " : "", what);
}

int stcgen_declare_mirrored_port(stcgen_text *text, const stcgen_top_port *port, bool last)
{
    char name[64];
    snprintf(name, sizeof name, "%s", port->name);
    size_t len = strlen(name);
    if (len < 2 || name[len - 2] != '_' || (name[len - 1] != 'i' && name[len - 1] != 'o')) {
        return -1;
    }
    name[len - 1] = port->input ? 'o' : 'i';
    stcgen_declare_port(text, !port->input, port->width, name, last, port->what);
    return 0;
}
