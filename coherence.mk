# Snooping coherence protocols (docs/COHERENCE.md): the Murphi emitter and
# the Rumur model check. Included at the end of the Makefile.

# The emitter links the library like stcsim does; its main lives in tools/
# so the library stays free of main().
$(B)/gcc/stcmurphi: tools/stcmurphi.c $(LIB_HDR) $(LIB_SRC:ref/%.c=$(B)/gcc/obj/%.o) | $(B)/gcc
	gcc $(CFLAGS_COMMON) $(OPT) -g -Iref -o $@ $< $(LIB_SRC:ref/%.c=$(B)/gcc/obj/%.o) -lzstd -lz -lm -pthread

.PHONY: coherence-check
# Every protocol at 2-4 caches (MSI also 5) on the atomic bus, the split-
# transaction MSI at 2-5 caches, every deliberately broken table, and the
# tables in docs/COHERENCE.md against the generated ones (about 120 s on 2
# cores, 80-90 s of it the split bus: MSI, MESI, MOESI).
coherence-check: $(B)/gcc/stcmurphi
	@scripts/ensure-tools.sh rumur:rumur
	tests/coherence-check.sh $(B)/gcc/stcmurphi

# Multi-core traces of the project's own multi-threaded kernels, made by a
# tracer that replaces libtsan's runtime (traces/mc/README.md); the check
# runs each through `stcsim coherence` and asserts the sharing each kernel
# is known for (in make test: ~25 s to make, ~17 s to check).
MC_TRACES := $(B)/mc-traces
.PHONY: mc-traces mc-traces-check
mc-traces: deps
	traces/make-mc-traces.sh $(MC_TRACES)
# (make test's check phase, TEST_PREPARED, has made them just before)
MC_TRACES_DEP = $(if $(TEST_PREPARED),,mc-traces)
mc-traces-check: $(MC_TRACES_DEP) $(STCSIM)
	tests/mc-traces-check.sh $(MC_TRACES) $(STCSIM)

# refs/s of the coherent model (4 cores) on the 4-thread kernels against the
# single-cache model on the same references (issue 16: within 3x); prints
# numbers, asserts nothing.
.PHONY: bench-coherence
bench-coherence: mc-traces $(STCSIM)
	scripts/bench-coherence.sh $(STCSIM) $(MC_TRACES)

# The coherence RTL (`stcgen --protocol P [--bus B] [--cores N]`,
# ARCHITECTURE.md 19): the protocol's tables against the C model's table
# (every input code of every protocol on both buses), the bus arbiter
# against a round-robin reference, the snoop port against its reference
# and the coherent stc model, the atomic bus against a reference timed by
# the model's functions; lint, determinism, bad options, broken variants
# caught, the N-core top linted (about 2.5 minutes).
# tools/tb_common.c: what the three testbench writers share.
TB_COMMON := tools/tb_common.c tools/tb_common.h
$(B)/gcc/stccohtb: tools/stccohtb.c $(TB_COMMON) $(LIB_HDR) $(B)/gcc/obj/coherence_protocol.o $(B)/gcc/obj/geometry.o | $(B)/gcc
	gcc $(CFLAGS_COMMON) $(OPT) -g -Iref -Itools -o $@ $< tools/tb_common.c \
	    $(B)/gcc/obj/coherence_protocol.o $(B)/gcc/obj/geometry.o
# The snoop port's testbench writer (ARCHITECTURE.md 19.4): its reference
# takes the configurations from ref/config.c and the rows from the table;
# --model runs the coherent stc model (the whole library).
STCSNOOPTB_SRC := tools/stcsnooptb.c tools/snooptb_model.c tools/tb_common.c
$(B)/gcc/stcsnooptb: $(STCSNOOPTB_SRC) tools/snooptb.h tools/tb_common.h $(LIB_HDR) $(LIB_SRC:ref/%.c=$(B)/gcc/obj/%.o) | $(B)/gcc
	gcc $(CFLAGS_COMMON) $(OPT) -g -Iref -Itools -o $@ $(STCSNOOPTB_SRC) \
	    $(LIB_SRC:ref/%.c=$(B)/gcc/obj/%.o) -lzstd -lz -lm -pthread
# Gate equivalents of the coherence RTL (tables, arbiter, snoop port;
# ARCHITECTURE.md 19): prints numbers, asserts nothing (about 20 s).
.PHONY: bench-coh-gates
bench-coh-gates: $(B)/gcc/stcgen
	@scripts/ensure-tools.sh yosys:yosys
	scripts/coh-gates.sh $(B)/gcc/stcgen
# The bus sequencer's testbench writer (ARCHITECTURE.md 19.6): every
# duration from the atomic model's ref/coherent_cycles.c.
STCBUSTB_REF := coherent_cycles geometry
$(B)/gcc/stcbustb: tools/stcbustb.c $(TB_COMMON) $(LIB_HDR) $(STCBUSTB_REF:%=$(B)/gcc/obj/%.o) | $(B)/gcc
	gcc $(CFLAGS_COMMON) $(OPT) -g -Iref -Itools -o $@ $< tools/tb_common.c \
	    $(STCBUSTB_REF:%=$(B)/gcc/obj/%.o)
# The coherent system in lockstep with the coherent stc model (tb/coh/README.md):
# every protocol on 2 and 4 cores (MOESI on 3 too), the caches changing
# configuration now and then or fixed in a longer-line, way-predicted or
# direct-mapped one, three seeds each, a run on a real multi-threaded
# kernel's trace for each tag of 2 and 4 cores (make mc-traces), and the
# coherent controller's broken variants caught (about 3 minutes, most of
# it Verilator).
COH_LS := $(B)/coh-lockstep
$(COH_LS)/coh_lockstep.o $(COH_LS)/coh_tuner.o: $(COH_LS)/%.o: tb/coh/%.c tb/coh/coh_dut.h \
    tb/coh/coh_tuner.h $(LIB_HDR)
	mkdir -p $(COH_LS)
	gcc $(CFLAGS_COMMON) $(OPT) -g -Iref -Itb/coh -c -o $@ $<
	clang $(CFLAGS_COMMON) $(OPT) -Iref -Itb/coh -fsyntax-only $<
.PHONY: coh-lockstep
coh-lockstep: $(B)/gcc/stcgen $(COH_LS)/coh_lockstep.o $(COH_LS)/coh_tuner.o $(LIB_SRC:ref/%.c=$(B)/gcc/obj/%.o) \
    $(MC_TRACES_DEP)
	COH_LOCKSTEP_MC_TRACES=$(MC_TRACES) tests/coh-lockstep.sh $(B)/gcc/stcgen $(COH_LS) $(COH_LS)/coh_lockstep.o \
	    $(COH_LS)/coh_tuner.o $(LIB_SRC:ref/%.c=$(B)/gcc/obj/%.o)
# The same runs with 200 000 operations per core, and MOESI on 8 cores with
# 50 000: 17.0 million references in all (about 26 minutes); and the
# harness's speed, one run of 4 cores.
.PHONY: coh-lockstep-long bench-coh-lockstep
coh-lockstep-long: $(B)/gcc/stcgen $(COH_LS)/coh_lockstep.o $(COH_LS)/coh_tuner.o $(LIB_SRC:ref/%.c=$(B)/gcc/obj/%.o) mc-traces
	COH_LOCKSTEP_MC_TRACES=$(MC_TRACES) COH_LOCKSTEP_REFS=200000 COH_LOCKSTEP_MANY_CORES=1 \
	    tests/coh-lockstep.sh $(B)/gcc/stcgen $(COH_LS)-long \
	    $(COH_LS)/coh_lockstep.o $(COH_LS)/coh_tuner.o $(LIB_SRC:ref/%.c=$(B)/gcc/obj/%.o)
bench-coh-lockstep: coh-lockstep
	scripts/bench-coh-lockstep.sh $(COH_LS)/mesi-n4-8K_4W_16B/obj/coh_lockstep
.PHONY: test-coh-rtl
test-coh-rtl: $(B)/asan/stcgen $(B)/gcc/stccohtb $(B)/gcc/stcsnooptb $(B)/gcc/stcbustb
	tests/coh-rtl-checks.sh $(B)/asan/stcgen $(B)/gcc/stccohtb $(B)/gcc/stcsnooptb $(B)/gcc/stcbustb
