/*
 * emit_upf.c - the power intent (IEEE 1801-2013, UPF 2.1): an always-on
 * domain for the top and one switchable domain per bank holding that
 * bank's SRAMs, with its switch (control and acknowledge ports), isolation
 * of its outputs in the parent, and an OFF state whose simulation semantics
 * corrupt the contents. stc_cache.upf for one cache; stc_coherent_system.upf
 * for the N-core system (--cores), a domain per bank per core.
 *
 * Instance and net names are the top's (docs/ARCHITECTURE.md section 14.3):
 * STCGEN_TOP_* and the bank SRAM table in params.h; in the system, core c's
 * cache is g_core[c]/u_cache (gen/emit_coh_system.c) and its bank b's switch
 * the system's pwr_en_o[c * banks + b].
 */
#include "emit.h"

#include <stdio.h>
#include <string.h>

/* The supplies: one always-on supply and ground. */
static void supplies(stcgen_text *text, const char *top)
{
    stcgen_text_line(text, "upf_version 2.1");
    stcgen_text_line(text, "set_design_top %s", top);
    stcgen_text_line(text, "set_scope .");
    stcgen_text_blank(text);
    stcgen_text_line(text, "# Supplies: one always-on supply, one switched net per bank.");
    stcgen_text_line(text, "create_supply_port VDD -direction in");
    stcgen_text_line(text, "create_supply_port VSS -direction in");
    stcgen_text_line(text, "create_supply_net VDD");
    stcgen_text_line(text, "create_supply_net VSS");
    stcgen_text_line(text, "connect_supply_net VDD -ports VDD");
    stcgen_text_line(text, "connect_supply_net VSS -ports VSS");
    stcgen_text_blank(text);
}

/* The top's always-on domain (its contents said by the caller above it). */
static void top_domain(stcgen_text *text)
{
    stcgen_text_line(text, "create_power_domain PD_TOP -include_scope");
    stcgen_text_line(text, "create_supply_set PD_TOP.primary -function {power VDD} "
                           "-function {ground VSS} -update");
    stcgen_text_line(text, "add_power_state PD_TOP.primary \\");
    stcgen_text_line(text,
                     "    -state ON {-supply_expr {power == FULL_ON && ground == FULL_ON} "
                     "-simstate NORMAL}");
}

/* One bank's domain: name is its suffix (BANK<b>, CORE<c>_BANK<b>), scope
 * the path of the cache holding it ("" or "g_core[c]/u_cache/"), switch the
 * index of its enable and acknowledge in the top's power ports. */
static void bank_domain(stcgen_text *text, const stcgen_params *params, const char *name,
                        const char *scope, unsigned bank, unsigned switch_index)
{
    stcgen_text_blank(text);
    int scope_name = scope[0] ? (int)strlen(scope) - 1 : 0; /* (less its slash) */
    stcgen_text_line(text, "# Bank %u%s%.*s: its SRAMs, switched by %s[%u] (acknowledge %s[%u]),",
                     bank, scope[0] ? " of " : "", scope_name, scope, STCGEN_TOP_PWR_EN_PORT,
                     switch_index, STCGEN_TOP_PWR_ACK_PORT, switch_index);
    stcgen_text_line(text, "# outputs clamped to 0 in the parent while %s%s/iso_o[%u] is 1.",
                     scope, STCGEN_POWER_INSTANCE, bank);
    stcgen_text_raw(text, "create_power_domain PD_%s -elements {", name);
    for (unsigned index = 0; index < params->bank_sram_count; index++) {
        stcgen_text_raw(text, "%s%su_bank%u_%s", index ? " " : "", scope, bank,
                        params->bank_srams[index].role);
    }
    stcgen_text_raw(text, "}\n");
    stcgen_text_line(text, "create_supply_net VDD_%s", name);
    stcgen_text_line(text,
                     "create_supply_set PD_%s.primary -function {power VDD_%s} "
                     "-function {ground VSS} -update",
                     name, name);
    stcgen_text_line(text, "create_power_switch SW_%s \\", name);
    stcgen_text_line(text, "    -supply_set PD_TOP.primary \\");
    stcgen_text_line(text, "    -domain PD_%s \\", name);
    stcgen_text_line(text, "    -input_supply_port {sw_in VDD} \\");
    stcgen_text_line(text, "    -output_supply_port {sw_out VDD_%s} \\", name);
    stcgen_text_line(text, "    -control_port {sw_ctrl %s[%u]} \\", STCGEN_TOP_PWR_EN_PORT,
                     switch_index);
    stcgen_text_line(text, "    -ack_port {sw_ack %s[%u] {sw_ctrl}} \\", STCGEN_TOP_PWR_ACK_PORT,
                     switch_index);
    stcgen_text_line(text, "    -on_state {on_state sw_in {sw_ctrl}} \\");
    stcgen_text_line(text, "    -off_state {off_state {!sw_ctrl}}");
    stcgen_text_line(text, "add_power_state PD_%s.primary \\", name);
    stcgen_text_line(text,
                     "    -state ON {-supply_expr {power == FULL_ON && ground == FULL_ON} "
                     "-simstate NORMAL} \\");
    stcgen_text_line(text,
                     "    -state OFF {-supply_expr {power == OFF && ground == FULL_ON} "
                     "-simstate CORRUPT}");
    stcgen_text_line(text, "set_isolation ISO_%s \\", name);
    stcgen_text_line(text, "    -domain PD_%s \\", name);
    stcgen_text_line(text, "    -isolation_supply_set PD_TOP.primary \\");
    stcgen_text_line(text, "    -applies_to outputs \\");
    stcgen_text_line(text, "    -clamp_value 0 \\");
    stcgen_text_line(text, "    -isolation_signal %s%s/iso_o[%u] \\", scope, STCGEN_POWER_INSTANCE,
                     bank);
    stcgen_text_line(text, "    -isolation_sense high \\");
    stcgen_text_line(text, "    -location parent");
}

void stcgen_emit_upf(stcgen_text *text, const stcgen_file *file, const stcgen_params *params)
{
    stcgen_text_header(text, &stcgen_comment_hash, file->name, file->title, params);
    stcgen_text_blank(text);
    supplies(text, STCGEN_TOP_MODULE);
    stcgen_text_line(text, "# Always on: everything outside the bank domains, among it the power");
    stcgen_text_line(text, "# controller (%s), the valid, dirty and recency state, the",
                     STCGEN_POWER_INSTANCE);
    stcgen_text_line(text, "# counters and the tuner.");
    top_domain(text);
    for (unsigned bank = 0; bank < params->geometry.banks; bank++) {
        char name[32];
        snprintf(name, sizeof name, "BANK%u", bank);
        bank_domain(text, params, name, "", bank, bank);
    }
}

void stcgen_emit_coh_upf(stcgen_text *text, const stcgen_file *file, const stcgen_params *params)
{
    const unsigned banks = params->geometry.banks;
    stcgen_text_header(text, &stcgen_comment_hash, file->name, file->title, params);
    stcgen_text_blank(text);
    supplies(text, "stc_coherent_system");
    stcgen_text_line(text, "# Always on: everything outside the bank domains, among it the bus,");
    stcgen_text_line(text, "# the ports and, in each core's cache, the power controller (%s),",
                     STCGEN_POWER_INSTANCE);
    stcgen_text_line(text, "# the row state, the snoop port's tag copy, the counters and the tuner.");
    top_domain(text);
    for (unsigned core = 0; core < params->coh_cores; core++) {
        char scope[48];
        snprintf(scope, sizeof scope, "g_core[%u]/u_cache/", core);
        for (unsigned bank = 0; bank < banks; bank++) {
            char name[32];
            snprintf(name, sizeof name, "CORE%u_BANK%u", core, bank);
            bank_domain(text, params, name, scope, bank, core * banks + bank);
        }
    }
}
