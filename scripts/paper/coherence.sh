#!/usr/bin/env bash
# coherence.sh - the coherence half of the evidence page: not measurable
# yet, so the page says so instead of leaving the section out.
set -euo pipefail
# shellcheck source=scripts/paper/lib.sh
. "$(dirname "$0")/lib.sh"
need PAPER_OUT
{
    printf '## Coherence\n\n'
    printf 'pending: issue 16 [coherence-model]. The coherence half of the evidence is not produced yet; this section will hold it once the coherence model can be measured against the paper.\n\n'
} >"$(section_file 90-coherence)"
