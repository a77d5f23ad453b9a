#!/usr/bin/env bash
# setup.sh - the top of the page: what it is, how it was made, the traces,
# the cache geometry and the energy table every run used.
# jq programs and Markdown (with `code`) are single-quoted on purpose:
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=scripts/paper/lib.sh
. "$(dirname "$0")/lib.sh"
need PAPER_OUT PAPER_DIR STCSIM ARCH ENERGY_FILE
load_traces
raw=$PAPER_OUT/raw
mapfile -t files < <(sweeps)
out=$(section_file 00-setup)

# The table file must be what the runs used: a run with --energy FILE must
# give the same energies as the built-in table (tests/test_energy.c keeps
# the file equal to the code; this checks it on a real trace).
first=$(prog_of "${TRACES[0]}")
same=$(jq -r -n --slurpfile a "$raw/sweep-$first.json" --slurpfile b "$raw/energy-file.json" \
    'if ($a[0].configs | map(.energy)) == ($b[0].configs | map(.energy)) then "yes" else "NO" end')

# Which source made the page (read-only git; no index refresh is written).
if commit=$(git -C "$PAPER_DIR" rev-parse --short=12 HEAD 2>/dev/null); then
    if [ -z "$(git -C "$PAPER_DIR" --no-optional-locks status --porcelain 2>/dev/null)" ]; then
        source_state="commit \`$commit\`"
    else
        source_state="commit \`$commit\` with uncommitted changes"
    fi
else
    source_state="a tree outside git"
fi

{
    printf '# stc against the paper: the self-tuning half\n\n'
    printf 'Evidence for stc, the self-tuning cache after Zhang, Vahid and Lysecky, "A Self-Tuning Cache Architecture for Embedded Systems", ACM TECS 3(2), 2004 (the seed). Each figure and table of the seed that stc can reproduce, with stc'"'"'s numbers and the paper'"'"'s side by side. Written by `make paper` (scripts/paper/paper.sh); docs/EVIDENCE.md summarises it. '
    printf 'Every number here comes from the runs listed under each figure, except the paper'"'"'s own values, which come from one file, `scripts/paper/paper-values.tsv` (each with its place in the seed; listed at the end). Running `make paper` again gives the same bytes.\n\n'
    printf 'Source: %s. Tools: `%s`, %s, %s. Traces: %d real programs, architecture %s (`scripts/trace-arch.sh`), valgrind lackey traces made by `make traces` (README.md, "Traces"); the `*.main` variants are not used.\n\n' \
        "$source_state" "$STCSIM" "$(jq --version)" "$(gnuplot --version)" "${#TRACES[@]}" "$ARCH"
    printf 'Throughout, `$T` is the trace list:\n\n```\nT="%s"\n```\n\n' "${TRACES[*]}"
    printf '## Traces, geometry, energy table\n\n'
    printf '| program | trace | references | fetches | loads | stores | modifies |\n|---|---|---:|---:|---:|---:|---:|\n'
    jq -r -s '.[] | .references as $r
      | "| \(.trace | split("/") | last | split(".")[0]) | `\(.trace)` | \($r.ifetch + $r.load + $r.store + $r.modify) | \($r.ifetch) | \($r.load) | \($r.store) | \($r.modify) |"' \
        "${files[@]}"
    printf '\n'
    jq -r '.geometry as $g
      | "Geometry (the seed'"'"'s cache): \($g.banks) banks of \($g.bank_bytes) B, \($g.line_bytes) B physical lines, \($g.addr_bits)-bit addresses, memory latency \($g.mem_latency) cycles, bank wake-up \($g.wake_cycles) cycles; \(.configs | length) configurations (size by bank shutdown, associativity by way concatenation, line size by line concatenation, way prediction; docs/ARCHITECTURE.md). Configuration names: `8K_4W_32B_P` = 8 KB powered, 4 ways, 32 B lines, way prediction on."' \
        "${files[0]}"
    printf '\nEnergy table: the built-in default, a first-order model of an embedded 0.18 um system (docs/ENERGY.md derives every number; the seed'"'"'s own constants are not public). Its file form is `%s`; a run of `%s` with `--energy %s` on %s gives the same energies as the built-in table: **%s**.\n\n' \
        "$ENERGY_FILE" "$STCSIM" "$ENERGY_FILE" "$first" "$same"
    printf '| entry | value | unit |\n|---|---:|---|\n'
    awk '!/^#/ && NF >= 3 && $1 != "geometry" && $1 != "stc-energy-table" {
            sub(/#.*/, ""); if (NF == 4) print "| " $1 " " $2 " | " $3 " | " $4 " |"; else print "| " $1 " | " $2 " | " $3 " |" }' \
        "$ENERGY_FILE"
    printf '\nCommand:\n\n'
    commands_md energy-file
} >"$out"
