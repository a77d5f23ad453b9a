# synth/synth.mk - synthesis reports (included by the Makefile; synth/README.md).
#   make synth        all geometries (+ the fixed baseline when stcgen has it),
#                     build/synth/<name>/report.{md,json}, summary printed
#   make synth-check  quick: the default geometry, checks asserted (make test)
# SYNTH_VARIANTS="name:--flag,value other:--flag,value" adds variants (e.g. tuner options).
OSU018_LIB := /usr/share/qflow/tech/osu018/osu018_stdcells.lib
SYNTH_VARIANTS ?= seed:--tuner,seed serial:--tuner,seed,--tuner-mult,serial \
    coefconst:--tuner,seed,--tuner-coeff,const serialconst:--tuner,seed,--tuner-mult,serial,--tuner-coeff,const

.PHONY: synth synth-check synth-deps

# Like deps: install only what is missing (the library has no command).
synth-deps:
	@scripts/ensure-tools.sh yosys:yosys jq:jq sta:opensta
	@if [ ! -f $(OSU018_LIB) ]; then \
	    echo "synth-deps: installing qflow-tech-osu018" >&2; \
	    if [ "$$(id -u)" -ne 0 ]; then s=sudo; else s=; fi; \
	    DEBIAN_FRONTEND=noninteractive $$s apt-get install -y -qq qflow-tech-osu018 >/dev/null; \
	fi

synth: synth-deps $(B)/gcc/stcgen
	synth/run-all.sh $(B)/gcc/stcgen $(B)/synth $(SYNTH_VARIANTS)

# (empty in make test's check phase, which has installed them: Makefile, TEST_PREPARED)
SYNTH_INSTALL_DEPS = $(if $(TEST_PREPARED),,synth-deps)
synth-check: $(SYNTH_INSTALL_DEPS)
	tests/synth-check.sh
