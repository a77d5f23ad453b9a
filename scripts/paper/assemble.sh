#!/usr/bin/env bash
# assemble.sh - join the sections (sections/NN-name.md, in name order) into
# index.md and convert that to index.html, so both forms say the same.
set -euo pipefail
# shellcheck source=scripts/paper/lib.sh
. "$(dirname "$0")/lib.sh"
need PAPER_OUT PAPER_DIR
mapfile -t parts < <(find "$PAPER_OUT/sections" -name '*.md' | LC_ALL=C sort)
[ "${#parts[@]}" -gt 0 ] || die "no sections in $PAPER_OUT/sections"
cat "${parts[@]}" >"$PAPER_OUT/index.md"
awk -f "$PAPER_DIR/md2html.awk" "$PAPER_OUT/index.md" >"$PAPER_OUT/index.html"
rm -r "$PAPER_OUT/sections"
