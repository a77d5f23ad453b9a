# tb/lockstep.mk - the lockstep harness (tb/README.md), included by the Makefile.
#
#   make lockstep          quick lockstep runs (part of make test)
#   make lockstep-long     at least 10^7 requests over every tested geometry
#   make bench-lockstep    requests per second, all checks on, default geometry
#
# Each geometry (and each deliberately broken controller) is generated into
# build/lockstep/TAG/rtl, Verilated into build/lockstep/TAG/obj and linked
# with the C harness into build/lockstep/TAG/lockstep; all cached in build/.
LS := $(B)/lockstep
# The four geometries tests/rtl-checks.sh checks, plus 16-bit counters
# (saturation) and no way prediction (way-predicted configurations illegal).
LS_GEOMETRIES := default banks8 line32 banks2 c16 nowp
# Deliberately broken controllers, generated without a tuner (the break is
# in the controller, and a top without the monitor Verilates about four
# times faster), except clear-late: a clear in a request's response cycle,
# which that break needs, is placed only in a top whose tuner strobes show
# the cycle's events (tb/stimuli.c). And the seed tuner's breaks, built
# with --tuner seed.
LS_CONTROLLER_BREAKS := skip-writeback whole-line-always tag-bit lru-order no-invalidate store-clean \
    init-short store-lane store-forward maint-line-row maint-clean-drops counter-carry \
    walk-move-dirty walk-move-order
LS_TUNER_BREAKS := tuner-window tuner-mux tuner-steal
LS_BREAKS := $(LS_CONTROLLER_BREAKS) clear-late $(LS_TUNER_BREAKS)
LS_ARGS_default :=
LS_ARGS_wave :=
LS_ARGS_banks8 := --banks 8
LS_ARGS_line32 := --line-bytes 32
LS_ARGS_banks2 := --banks 2
LS_ARGS_c16 := --counter-bits 16
LS_ARGS_nowp := --no-way-prediction
# Walks that drop every line they take (the walk before moves; ARCHITECTURE.md 7).
LS_ARGS_nomv := --no-walk-moves
# The default geometry as an I-cache (the top's READ_ONLY = 1).
LS_ARGS_icache :=
LS_VDEFS_icache := -GREAD_ONLY=1
LS_CDEFS_icache := -DLOCKSTEP_ICACHE=1
# The default geometry with stc_sram's own simulation model (no SYNTHESIS).
LS_ARGS_simsram :=
LS_CDEFS_simsram := -DLOCKSTEP_SIM_SRAM=1
# The seed's tuner (stcgen --tuner seed; the default top has the monitor
# tuner) with the array and the serial multiplier: --tune runs compare both
# with ref/tuner_hw.c.
LS_ARGS_seed := --tuner seed
LS_ARGS_serial := --tuner seed --tuner-mult serial
# The I+D top stc_cache_pair, one side driven, the other held idle.
LS_ARGS_pair-i :=
LS_TOP_pair-i := stc_cache_pair
LS_CDEFS_pair-i := -DLOCKSTEP_ICACHE=1 -DLOCKSTEP_PAIR_SIDE=1
LS_ARGS_pair-d :=
LS_TOP_pair-d := stc_cache_pair
LS_CDEFS_pair-d := -DLOCKSTEP_PAIR_SIDE=2
# The non-configurable baseline (every configuration request refused).
LS_ARGS_fixed := --fixed 8K_4W_32B
LS_CDEFS_fixed := -DLOCKSTEP_FIXED=1
$(foreach b,$(LS_CONTROLLER_BREAKS),$(eval LS_ARGS_broken-$(b) := --no-tuner --debug-break $(b)))
LS_ARGS_broken-clear-late := --debug-break clear-late
$(foreach b,$(LS_TUNER_BREAKS),$(eval LS_ARGS_broken-$(b) := --tuner seed --debug-break $(b)))
# These are the monitor tuner's (the default) joints in the top: the events it sees,
# and the configuration multiplexer with the decision unit as the tuner.
LS_MONITOR_BREAKS := monitor-line monitor-write tuner-mux tuner-flag b2b-decide
$(foreach b,$(LS_MONITOR_BREAKS),$(eval LS_ARGS_broken-m$(b) := --debug-break $(b)))
LS_TAGS := $(LS_GEOMETRIES) nomv wave seed serial icache pair-i pair-d fixed simsram \
    $(addprefix broken-,$(LS_BREAKS)) $(addprefix broken-m,$(LS_MONITOR_BREAKS))
LS_JOBS ?= 2
# The SRAMs' SYNTHESIS view (plain arrays): the harness scrambles a bank's
# arrays itself when its switch turns off, which is faster than the
# generated simulation model's per-word garbage (2-3x since 2026-12-05,
# 20x before; tb/README.md). The tag
# simsram keeps the simulation model, to show the two agree.
# -fno-split keeps the controller's FSM always block whole: split, each of
# its ~40 outputs gets its own copy of the state decode, and the bench runs
# ~15 % slower (tb/README.md, Speed).
# Waveform support (--wave) only in the tags whose runs make test repeats
# with --wave (tests/lockstep-run.sh same_as_plain), or in all with
# LS_WAVE=1: tracing makes a model compile about 15 % longer, and the
# default geometry's bench run ~10 % slower even with no waveform open, so
# `default` has none and `wave` is the same geometry with it.
LS_WAVE_TAGS := wave serial pair-d
LS_VFLAGS = --cc --exe -O3 -fno-split --x-assign fast --x-initial fast \
    $(if $(or $(LS_WAVE),$(filter $(LS_WAVE_TAGS),$*)),--trace-fst) \
    $(if $(filter simsram,$*),,-DSYNTHESIS) \
    --top-module $(or $(LS_TOP_$*),stc_cache) -Wno-fatal -Wno-lint -Wno-style -Wno-WIDTH
# Each model is compiled as one translation unit (VM_PARALLEL_BUILDS=0):
# Verilator splits it into some 30 files, each of which parses its headers
# again; whole, a tag compiles in 4-8 CPU-seconds instead of 25-45 (make
# test builds 35). Whole, the default geometry's model runs ~1.3x as fast
# compiled by g++ -O3 as by clang++ -O2 (the bench, best of 6: 0.51 M
# against 0.38 M requests/s with its waveform support dropped too;
# tb/README.md, Speed), at about twice clang++'s compile time: `default`
# (benchmarked, the longest runs) gets g++ -O3, the others clang++ -O1
# when there is one (the fastest to build; a quarter slower to run).
# The deliberately broken tags are built unoptimised (-O0, the harness's C
# too): each of their runs ends at its first mismatch, within 2000 requests
# (0.01-0.05 s at -O1), while -O0 builds a tag in about 3 CPU-seconds
# instead of 7 (Verilator's C++ 3.4 -> 1.0 s, the harness 2.0 -> 0.8 s, the
# shim 1.4 -> 1.1 s): some 90 CPU-seconds of make test's build.
LS_FAST_BUILD_CXX := $(if $(shell command -v clang++),clang++,g++)
LS_CXX = $(if $(filter default,$*),g++,$(LS_FAST_BUILD_CXX))
LS_CXXFLAGS = $(if $(filter default,$*),-O3,$(if $(filter broken-%,$*),-O0,-O1))
LS_SLOW_CXXFLAGS = $(if $(filter broken-%,$*),-O0,-O1)
LS_C_OPT = $(if $(filter broken-%,$*),-O0,-O2)

.PHONY: lockstep lockstep-build lockstep-long bench-lockstep
# The C harness (tb/lockstep.c and its parts), compiled per tag: it takes
# the geometry from the tag's generated header and its LS_CDEFS.
LS_C_NAMES := lockstep rng memory_image txn_log report model_side rtl_side compare operations \
    stimuli directed tuner_side monitor_side
LS_C_SRC := $(LS_C_NAMES:%=tb/%.c)
LS_C_HDR := $(wildcard tb/*.h)
LS_C_OBJ = $(LS_C_NAMES:%=$(LS)/$(1)/c/%.o)
LS_PCT := %

# (kept: the intermediate files of every tag's chain)
.SECONDARY: $(foreach t,$(LS_TAGS),$(addprefix $(LS)/$(t)/,rtl.stamp obj/objs.txt dut_verilator.o) \
    $(call LS_C_OBJ,$(t)))

$(LS)/%/rtl.stamp: $(B)/gcc/stcgen
	mkdir -p $(LS)/$*
	$(B)/gcc/stcgen $(LS_ARGS_$*) --out $(LS)/$*/rtl --force
	touch $@

# Verilator's runtime (verilated.o, its FST writer, ...) is the same for
# every tag (same Verilator flags): compiled once, in the wave tag's Mdir
# (a tag with waveform support, so that it holds the FST writer too), and
# linked by the others (5 s a tag saved).
$(foreach t,$(filter-out wave,$(LS_TAGS)),$(eval $(LS)/$(t)/obj/objs.txt: $(LS)/wave/obj/objs.txt))
$(LS)/%/obj/objs.txt: $(LS)/%/rtl.stamp tb/lockstep.vlt tb/verilated-lib.mk tb/lockstep.mk
	rm -rf $(LS)/$*/obj
	verilator $(LS_VFLAGS) $(LS_VDEFS_$*) --Mdir $(LS)/$*/obj $(abspath tb/lockstep.vlt) $(LS)/$*/rtl/*.v
	$(MAKE) -s -C $(LS)/$*/obj -f $(abspath tb/verilated-lib.mk) -j$(LS_JOBS) CXX=$(LS_CXX) \
	    VTOP=V$(or $(LS_TOP_$*),stc_cache) \
	    $(if $(filter wave,$*),,RUNTIME_DIR=$(abspath $(LS)/wave/obj)) \
	    VM_PARALLEL_BUILDS=0 OPT_FAST="$(LS_CXXFLAGS)" OPT_SLOW="$(LS_SLOW_CXXFLAGS)" OPT_GLOBAL="-O2" lockstep-lib

$(LS)/%/dut_verilator.o: tb/dut_verilator.cpp tb/dut.h $(LS)/%/obj/objs.txt
	g++ $$(cat $(LS)/$*/obj/cppflags.txt) $(LS_CDEFS_$*) -Iref $(LS_CXXFLAGS) -Wno-unused-parameter -c -o $@ $<

# One pattern rule per C file (a pattern rule has one stem: the tag).
define ls_c_rule
$$(LS)/%/c/$(1).o: tb/$(1).c $$(LS_C_HDR) $$(LIB_HDR) $$(LS)/%/rtl.stamp
	mkdir -p $$(@D)
	$$(CC) $$(CFLAGS_COMMON) $$(LS_CDEFS_$$*) $$(LS_C_OPT) -g -Iref -Itb -I$$(LS)/$$*/rtl -c -o $$@ $$<
endef
$(foreach f,$(LS_C_NAMES),$(eval $(call ls_c_rule,$(f))))

$(LS)/%/lockstep: $(foreach f,$(LS_C_NAMES),$(LS)/$(LS_PCT)/c/$(f).o) $(LS)/%/dut_verilator.o $(LS)/%/obj/objs.txt $(LIB_SRC:ref/%.c=$(B)/gcc/obj/%.o)
	g++ -o $@ $(LS_C_NAMES:%=$(LS)/$*/c/%.o) $(LS)/$*/dut_verilator.o $$(cat $(LS)/$*/obj/objs.txt) \
	    $(LIB_SRC:ref/%.c=$(B)/gcc/obj/%.o) -lzstd -lz -pthread -latomic -lm

lockstep-build: $(foreach t,$(LS_TAGS),$(LS)/$(t)/lockstep)

# The C harness compiles cleanly under clang too (the build uses gcc).
$(LS)/clang-check.stamp: $(LS_C_SRC) $(LS_C_HDR) $(LS)/default/rtl.stamp
	clang $(CFLAGS_COMMON) -fsyntax-only -Iref -Itb -I$(LS)/default/rtl $(LS_C_SRC)
	touch $@

lockstep: $(INSTALL_DEPS) lockstep-build $(LS)/clang-check.stamp
	tests/lockstep-run.sh quick $(LS)

lockstep-long: deps lockstep-build
	tests/lockstep-run.sh long $(LS)

# A real program's requests if the traces are there, else random traffic;
# the same run LS_BENCH_RUNS times (a shared machine's speed wanders), then
# the best and the median.
LS_BENCH_TRACE = $(firstword $(wildcard $(B)/traces/gzip.$(shell scripts/trace-arch.sh $(B)/traces 2>/dev/null).lackey.zst $(B)/traces/*.lackey.zst))
LS_BENCH_RUNS ?= 5
bench-lockstep: deps $(LS)/default/lockstep
	@rm -f $(LS)/bench.txt
	@for run in $$(seq $(LS_BENCH_RUNS)); do \
	    $(LS)/default/lockstep --bench --seed 1 --requests 1000000 \
	        $(if $(LS_BENCH_TRACE),--trace $(LS_BENCH_TRACE),--locality 95 --hot 256) \
	        >>$(LS)/bench.txt || exit 1; \
	done
	@cat $(LS)/bench.txt
	@sed -n 's/.*CPU: \([0-9]*\) requests.*/\1/p' $(LS)/bench.txt | sort -n | awk '{ rate[NR] = $$1 } \
	    END { printf "lockstep bench: best %.2f M, median %.2f M requests/s over %d runs (target: 1 M)\n", \
	          rate[NR] / 1e6, rate[int((NR + 1) / 2)] / 1e6, NR }'
