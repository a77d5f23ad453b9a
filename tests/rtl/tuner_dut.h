/*
 * tuner_dut.h - the generated stc_tuner under Verilator, as the C lockstep
 * harness (tuner_lockstep.c) sees it; tb_tuner.cpp implements it.
 */
#ifndef STC_TUNER_DUT_H
#define STC_TUNER_DUT_H

#include "tuner_hw.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tuner_dut tuner_dut;

/* Reset (rst_ni low for one clock, then high), inputs idle. */
void tuner_dut_reset(tuner_dut *dut);
/* The outputs (Moore: after the last clock). */
void tuner_dut_outputs(tuner_dut *dut, stc_tuner_hw_out *out);
/* reg_rdata_o for reg_addr_i = addr (reg_we_i low). */
uint32_t tuner_dut_read(tuner_dut *dut, unsigned addr);
/* Apply the inputs and clock one rising edge. */
void tuner_dut_step(tuner_dut *dut, const stc_tuner_hw_in *in);
/* The flops, by name (coef is not filled: the harness reads it). */
void tuner_dut_flops(tuner_dut *dut, stc_tuner_hw_regs *regs);

/* The harness: 0 when the RTL equals the model in every cycle. */
int tuner_lockstep_main(tuner_dut *dut, int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
