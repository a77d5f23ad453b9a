/*
 * emit_upf.c - stc_cache.upf, the power intent (IEEE 1801-2013, UPF 2.1):
 * an always-on domain for the top and one switchable domain per bank
 * holding that bank's SRAMs, with its switch (control and acknowledge
 * ports), isolation of its outputs in the parent, and an OFF state whose
 * simulation semantics corrupt the contents.
 *
 * Instance and net names are the top's (docs/ARCHITECTURE.md section 14.3):
 * STCGEN_TOP_* and the bank SRAM table in params.h.
 */
#include "emit.h"

#include <stdio.h>

void stcgen_emit_upf(stcgen_text *text, const stcgen_file *file, const stcgen_params *params)
{
    const unsigned banks = params->geometry.banks;

    stcgen_text_header(text, &stcgen_comment_hash, file->name, file->title, params);
    stcgen_text_blank(text);
    stcgen_text_line(text, "upf_version 2.1");
    stcgen_text_line(text, "set_design_top %s", STCGEN_TOP_MODULE);
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
    stcgen_text_line(text, "# Always on: everything outside the bank domains, among it the power");
    stcgen_text_line(text, "# controller (%s), the valid, dirty and recency state, the",
                     STCGEN_POWER_INSTANCE);
    stcgen_text_line(text, "# counters and the tuner.");
    stcgen_text_line(text, "create_power_domain PD_TOP -include_scope");
    stcgen_text_line(text, "create_supply_set PD_TOP.primary -function {power VDD} "
                           "-function {ground VSS} -update");
    stcgen_text_line(text, "add_power_state PD_TOP.primary \\");
    stcgen_text_line(text,
                     "    -state ON {-supply_expr {power == FULL_ON && ground == FULL_ON} "
                     "-simstate NORMAL}");
    for (unsigned bank = 0; bank < banks; bank++) {
        stcgen_text_blank(text);
        stcgen_text_line(text, "# Bank %u: its SRAMs, switched by %s[%u] (acknowledge %s[%u]),",
                         bank, STCGEN_TOP_PWR_EN_PORT, bank, STCGEN_TOP_PWR_ACK_PORT, bank);
        stcgen_text_line(text, "# outputs clamped to 0 in the parent while %s/iso_o[%u] is 1.",
                         STCGEN_POWER_INSTANCE, bank);
        stcgen_text_raw(text, "create_power_domain PD_BANK%u -elements {", bank);
        for (unsigned index = 0; index < params->bank_sram_count; index++) {
            stcgen_text_raw(text, "%su_bank%u_%s", index ? " " : "", bank,
                            params->bank_srams[index].role);
        }
        stcgen_text_raw(text, "}\n");
        stcgen_text_line(text, "create_supply_net VDD_BANK%u", bank);
        stcgen_text_line(text,
                         "create_supply_set PD_BANK%u.primary -function {power VDD_BANK%u} "
                         "-function {ground VSS} -update",
                         bank, bank);
        stcgen_text_line(text, "create_power_switch SW_BANK%u \\", bank);
        stcgen_text_line(text, "    -supply_set PD_TOP.primary \\");
        stcgen_text_line(text, "    -domain PD_BANK%u \\", bank);
        stcgen_text_line(text, "    -input_supply_port {sw_in VDD} \\");
        stcgen_text_line(text, "    -output_supply_port {sw_out VDD_BANK%u} \\", bank);
        stcgen_text_line(text, "    -control_port {sw_ctrl %s[%u]} \\", STCGEN_TOP_PWR_EN_PORT,
                         bank);
        stcgen_text_line(text, "    -ack_port {sw_ack %s[%u] {sw_ctrl}} \\",
                         STCGEN_TOP_PWR_ACK_PORT, bank);
        stcgen_text_line(text, "    -on_state {on_state sw_in {sw_ctrl}} \\");
        stcgen_text_line(text, "    -off_state {off_state {!sw_ctrl}}");
        stcgen_text_line(text, "add_power_state PD_BANK%u.primary \\", bank);
        stcgen_text_line(text,
                         "    -state ON {-supply_expr {power == FULL_ON && ground == FULL_ON} "
                         "-simstate NORMAL} \\");
        stcgen_text_line(text,
                         "    -state OFF {-supply_expr {power == OFF && ground == FULL_ON} "
                         "-simstate CORRUPT}");
        stcgen_text_line(text, "set_isolation ISO_BANK%u \\", bank);
        stcgen_text_line(text, "    -domain PD_BANK%u \\", bank);
        stcgen_text_line(text, "    -isolation_supply_set PD_TOP.primary \\");
        stcgen_text_line(text, "    -applies_to outputs \\");
        stcgen_text_line(text, "    -clamp_value 0 \\");
        stcgen_text_line(text, "    -isolation_signal %s/iso_o[%u] \\", STCGEN_POWER_INSTANCE,
                         bank);
        stcgen_text_line(text, "    -isolation_sense high \\");
        stcgen_text_line(text, "    -location parent");
    }
}
