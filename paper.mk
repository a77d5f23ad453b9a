# paper.mk - the evidence page (issue 18): `make paper` writes build/paper/
# (index.html, index.md, figures as SVG and PNG, data, raw stcsim JSON);
# `make paper-check` checks it (tests/paper-check.sh). scripts/paper/ holds
# the scripts; docs/EVIDENCE.md summarises the findings.
PAPER := $(B)/paper

# The traces are made only when missing: remaking them (make traces) is the
# trace owner's call, not the page's.
PAPER_TRACES := $(if $(wildcard $(B)/traces/arch.txt),,traces) \
    $(if $(wildcard $(MC_TRACES)/index.txt),,mc-traces)

.PHONY: paper paper-check

paper: $(STCSIM) $(B)/gcc/stcgen $(PAPER_TRACES)
	@scripts/ensure-tools.sh gnuplot:gnuplot-nox jq:jq
	PAPER_MC_TRACES=$(MC_TRACES) scripts/paper/paper.sh $(STCSIM) $(B)/gcc/stcgen $(B)/traces $(PAPER)

paper-check: paper
	tests/paper-check.sh $(PAPER)
