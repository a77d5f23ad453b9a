# stc - self-tuning cache generator.  `make` runs the demo, `make test` the tests.
SHELL := /bin/bash
CC ?= gcc
CFLAGS_COMMON := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
OPT := -O2
B := build
.DEFAULT_GOAL := all

LIB_SRC := $(wildcard ref/*.c)
LIB_HDR := $(wildcard ref/*.h)
# stcsim's commands over the library (cli/stcsim.c has main).
CLI_SRC := $(wildcard cli/*.c)
CLI_HDR := $(wildcard cli/*.h)
TEST_SRC := $(wildcard tests/test_*.c)
GEN_SRC := $(wildcard gen/*.c)
GEN_HDR := $(wildcard gen/*.h gen/*.inc)
GEN_REF := ref/geometry.c ref/config.c ref/count.c ref/energy.c ref/fixed.c ref/monitor.c ref/monitor_tuner.c ref/tuner_hw.c ref/coherence_protocol.c
TESTS := $(notdir $(TEST_SRC:.c=))

# Three builds of everything: gcc (the tools), clang, and gcc with sanitizers.
# Each compiles the library once into objects; tools and tests link them.
define variant
$(B)/$(1)/obj/%.o: ref/%.c $(LIB_HDR) | $(B)/$(1)/obj
	$(2) $(CFLAGS_COMMON) $(3) -Iref -c -o $$@ $$<
$(B)/$(1)/cli/%.o: cli/%.c $(CLI_HDR) $(LIB_HDR) | $(B)/$(1)/cli
	$(2) $(CFLAGS_COMMON) $(3) -Icli -Iref -c -o $$@ $$<
$(B)/$(1)/stcsim: $(CLI_SRC:cli/%.c=$(B)/$(1)/cli/%.o) $(LIB_SRC:ref/%.c=$(B)/$(1)/obj/%.o) | $(B)/$(1)
	$(2) $(CFLAGS_COMMON) $(3) -o $$@ $$^ -lzstd -lz -lm -pthread
$(B)/$(1)/test_%: tests/test_%.c $(wildcard tests/*.h) $(LIB_SRC:ref/%.c=$(B)/$(1)/obj/%.o) | $(B)/$(1)
	$(2) $(CFLAGS_COMMON) $(3) -Iref -Itests -o $$@ $$< $(LIB_SRC:ref/%.c=$(B)/$(1)/obj/%.o) -lzstd -lz -lm -pthread
$(B)/$(1)/stcgen: $(GEN_SRC) $(GEN_HDR) $(LIB_HDR) $(B)/gen/ctrl_template.inc $(B)/gen/tuner_template.inc $(GEN_REF:ref/%.c=$(B)/$(1)/obj/%.o) | $(B)/$(1)
	$(2) $(CFLAGS_COMMON) $(3) -Iref -Igen -I$(B)/gen -o $$@ $(GEN_SRC) $(GEN_REF:ref/%.c=$(B)/$(1)/obj/%.o) -lm
$(B)/$(1) $(B)/$(1)/obj $(B)/$(1)/cli:
	mkdir -p $$@
endef
$(eval $(call variant,gcc,gcc,$(OPT) -g))
$(eval $(call variant,clang,clang,$(OPT) -g))
# (a variable, because the comma in the sanitizer list would split call's arguments)
SANITIZE := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
$(eval $(call variant,asan,gcc,$$(SANITIZE)))

STCSIM := $(B)/gcc/stcsim

# The controller's Verilog template, as C string literals for gen/emit_ctrl.c.
$(B)/gen/ctrl_template.inc: gen/stc_cache_ctrl.v.in gen/mkinc.sh
	mkdir -p $(B)/gen
	sh gen/mkinc.sh gen/stc_cache_ctrl.v.in $@

# The tuner's Verilog template, likewise for gen/emit_tuner.c.
$(B)/gen/tuner_template.inc: gen/stc_tuner.v.in gen/mkinc.sh
	mkdir -p $(B)/gen
	sh gen/mkinc.sh gen/stc_tuner.v.in $@

.PHONY: all tools demo test unit traces bench bench-tuner clean deps rtl

# Regenerate the committed default RTL (rtl_out/), e.g. after changing gen/.
rtl: $(B)/gcc/stcgen
	$(B)/gcc/stcgen --force
all: demo rtl

# The prerequisite that installs the tools; empty in make test's check
# phase, which runs after its own installs (TEST_PREPARED, below).
INSTALL_DEPS = $(if $(TEST_PREPARED),,deps)

deps:
	@scripts/ensure-tools.sh gcc:gcc g++:g++ clang:clang valgrind:valgrind zstd:zstd gzip:gzip \
	    jq:jq verilator:verilator iverilog:iverilog yosys:yosys
	@scripts/ensure-packages.sh libzstd-dev zlib1g-dev

tools: deps $(STCSIM) $(B)/gcc/stcgen

demo: tools traces
	scripts/demo.sh $(STCSIM) $(B)/traces

traces: deps
	traces/make-traces.sh $(B)/traces

UNIT_BUILDS = $(foreach v,gcc clang asan,$(addprefix $(B)/$(v)/,$(TESTS) stcsim stcgen))
unit: $(INSTALL_DEPS) $(UNIT_BUILDS)
	@set -e; for v in gcc clang asan; do for t in $(TESTS); do \
	    echo "== $$v/$$t"; $(B)/$$v/$$t; done; done

# make test: first what may install packages (one apt at a time) and the
# traces, which several checks read (test_fixed checks the fixed-point order
# on them, test_coherent the coherent model on the kernels, the lockstep
# runs a real program's requests); then everything the checks build
# (TEST_BUILDS: generators, simulators, unit tests, the lockstep's models),
# TEST_JOBS at a time; then the checks, TEST_JOBS at a time (each one's
# output kept together), longest first, in the order of TEST_CHECKS. They
# run with TEST_PREPARED=1, which leaves out their phony prerequisites
# (installs, traces): make starts the checks in their order only when
# none waits for a prerequisite; one that does waits until every later
# check has started (GNU make's pass over the goal), and the longest ones
# ran last, alone on one core.
TEST_JOBS ?= 2
TEST_CHECKS := coh-lockstep test-rtl test-tuner test-coh-rtl test-axi test-obi paper-check \
    coherence-check unit synth-check test-oracles lockstep test-monitor test-apb test-cli \
    test-timing mc-traces-check
TEST_BUILDS = $(UNIT_BUILDS) lockstep-build $(LS)/clang-check.stamp $(COH_LS)/coh_lockstep.o $(COH_LS)/coh_tuner.o \
    $(B)/gcc/stcmurphi $(B)/gcc/stccohtb $(B)/gcc/stcsnooptb $(B)/gcc/stcbustb
.PHONY: test test-checks test-cli test-oracles test-rtl test-tuner test-monitor
test:
	$(MAKE) --no-print-directory deps synth-deps
	@scripts/ensure-tools.sh gnuplot:gnuplot-nox jq:jq rumur:rumur
	$(MAKE) --no-print-directory traces mc-traces
	$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target $(TEST_BUILDS)
	$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target TEST_PREPARED=1 test-checks
	@echo "make test: all checks passed"
test-checks: $(TEST_CHECKS)
test-cli: $(B)/asan/stcsim $(B)/asan/stcgen
	tests/cli-errors.sh $(B)/asan/stcsim
	tests/coherence-cli.sh $(B)/asan/stcsim
	tests/coherence-split-energy.sh $(B)/asan/stcsim
	tests/explore-cli.sh $(B)/asan/stcsim $(B)/asan/stcgen $(B)/traces
test-oracles: $(STCSIM)
	tests/oracle-cachegrind.sh $(STCSIM) $(B)/traces
	tests/traces-check.sh $(B)/traces
	tests/engines-agree.sh $(STCSIM) $(B)/traces
test-rtl: $(B)/asan/stcgen
	tests/rtl-checks.sh $(B)/asan/stcgen
.PHONY: test-apb
test-apb: $(B)/asan/stcgen
	tests/apb-checks.sh $(B)/asan/stcgen
.PHONY: test-axi
test-axi: $(B)/asan/stcgen
	tests/axi-checks.sh $(B)/asan/stcgen
.PHONY: test-obi
test-obi: $(B)/asan/stcgen
	tests/obi-checks.sh $(B)/asan/stcgen
test-tuner: $(B)/asan/stcgen
	tests/tuner-checks.sh $(B)/asan/stcgen
test-monitor: $(B)/asan/stcgen
	tests/monitor-checks.sh $(B)/asan/stcgen

# The timing diagrams of docs/TIMING.md, simulated from the RTL (tb_timing)
# and rendered with WaveDrom (npm, pinned in scripts/timing/); test-timing
# fails when the committed docs/timing/*.json no longer match the RTL.
.PHONY: docs-timing test-timing
docs-timing: $(B)/gcc/stcgen
	NODE_DIR=$(B)/node scripts/render-timing.sh $(B)/gcc/stcgen docs/timing
test-timing: $(B)/asan/stcgen
	tests/timing-check.sh $(B)/asan/stcgen

include tb/lockstep.mk

bench: tools traces
	scripts/bench.sh $(STCSIM) $(B)/traces

# Each tuner against the whole-trace optimum on every real trace (docs/TUNING.md 6).
bench-tuner: tools traces
	scripts/tuner-table.sh $(STCSIM) $$(ls $(B)/traces/*.$$(scripts/trace-arch.sh $(B)/traces).lackey.zst)

# The same table on six real programs the project was not developed on
# (traces/make-unseen-traces.sh: G3 fax encoding, FLAC, MP3 and Speex
# decoding, bzip2 decompression, md5sum; docs/TUNING.md 6.1).
.PHONY: unseen-traces bench-tuner-unseen
unseen-traces: deps
	traces/make-unseen-traces.sh $(B)/unseen
bench-tuner-unseen: tools unseen-traces
	scripts/tuner-unseen.sh $(STCSIM) $(B)/unseen

clean:
	rm -rf $(B)

include synth/synth.mk
include coherence.mk
include paper.mk

# The example SoC (soc/README.md, issue [soc-ready]): an RV32I core running
# C programs through the generated I+D caches, checked against a run without
# caches and against stcsim on the logged trace.
.PHONY: soc
soc: $(B)/gcc/stcgen $(B)/gcc/stcsim
	soc/run.sh $(B)/gcc/stcgen $(B)/gcc/stcsim $(B)/soc
