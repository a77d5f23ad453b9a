#!/usr/bin/env bash
# engines-agree.sh STCSIM TRACEDIR - stcsim's two engines give the same
# report, byte for byte, on every real trace: the LRU-stack pass (default)
# and one cache model per configuration (--engine model), for the default
# geometry and for two others. The stack engine is the fast one users get;
# the model is the executable spec it must equal.
set -euo pipefail
STCSIM=${1:?usage: engines-agree.sh STCSIM TRACEDIR}
TRACEDIR=${2:?usage: engines-agree.sh STCSIM TRACEDIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
# Every real trace of the traces' architecture (i386, or amd64 where 32-bit
# programs cannot run; traces/make-traces.sh records it in arch.txt), not
# the .main variants.
ARCH=$("$(dirname "$0")/../scripts/trace-arch.sh" "$TRACEDIR")
for trace in "$TRACEDIR"/*."$ARCH".lackey.zst; do
    [ -f "$trace" ] || continue
    name=$(basename "$trace" .lackey.zst)
    for geometry in banks=4 banks=8,bank_bytes=1024 line_bytes=32,mem_latency=50; do
        "$STCSIM" --json -g "$geometry" "$trace" >"$work/stack.json"
        "$STCSIM" --json -g "$geometry" --engine model "$trace" >"$work/model.json"
        if cmp -s "$work/stack.json" "$work/model.json"; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
            echo "DIFF $name $geometry:"
            diff <(jq -c '.configs[]' "$work/model.json") <(jq -c '.configs[]' "$work/stack.json") | head -6
        fi
    done
done
[ $((passed + failed)) -gt 0 ] || { echo "engines-agree: no traces in $TRACEDIR" >&2; exit 1; }
echo "engines-agree: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
