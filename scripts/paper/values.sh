#!/usr/bin/env bash
# values.sh - the last section: every value of the paper the page uses
# (paper-values.tsv) and how our programs were matched to its benchmarks
# (kinds.tsv), so a reader can check each against the seed.
# jq programs and Markdown (with `code`) are single-quoted on purpose:
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=scripts/paper/lib.sh
. "$(dirname "$0")/lib.sh"
need PAPER_OUT PAPER_DIR
{
    printf '## The paper'"'"'s values\n\n'
    printf 'From `scripts/paper/paper-values.tsv`, the only numbers of this page not produced by the runs: the seed paper'"'"'s, as the seed document (/work/shared/seeds/self-tuning-cache.txt) retells them, with the section each comes from.\n\n'
    printf '| key | value | unit | where in the seed |\n|---|---|---|---|\n'
    awk -F'\t' '!/^#/ && $1 != "key" && NF == 4 { print "| " $1 " | " $2 " | " $3 " | " $4 " |" }' \
        "$PAPER_DIR/paper-values.tsv"
    printf '\nOur programs against the seed'"'"'s benchmarks (`scripts/paper/kinds.tsv`, our judgement):\n\n'
    printf '| program | seed benchmark | match | why |\n|---|---|---|---|\n'
    awk -F'\t' '!/^#/ && $1 != "program" && NF == 4 { print "| " $1 " | " $2 " | " $3 " | " $4 " |" }' \
        "$PAPER_DIR/kinds.tsv"
    printf '\n'
} >"$(section_file 99-values)"
