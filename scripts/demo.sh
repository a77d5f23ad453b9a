#!/usr/bin/env bash
# demo.sh STCSIM TRACEDIR - the embedded default job of `make`: run every
# legal configuration of the default cache on a real program's trace.
set -euo pipefail
STCSIM=${1:?usage: demo.sh STCSIM TRACEDIR}
TRACEDIR=${2:?usage: demo.sh STCSIM TRACEDIR}
# The traces' architecture: i386 where the machine runs 32-bit programs,
# else amd64 (traces/make-traces.sh records it in TRACEDIR/arch.txt).
ARCH=$("$(dirname "$0")/trace-arch.sh" "$TRACEDIR")
NAME=${DEMO_TRACE:-djpeg.$ARCH}
TRACE=$TRACEDIR/$NAME.lackey.zst
[ -f "$TRACE" ] || { echo "demo: no trace $TRACE (make traces makes it)" >&2; exit 1; }
echo "== stcsim: all configurations of the default cache (4 x 2 KiB banks, 16 B lines)"
echo "== on $NAME: $(sed -n 's/^command: //p' "$TRACEDIR/$NAME.cmd")"
"$STCSIM" --all "$TRACE"
echo
echo "== the same trace, reconfiguring every 200000 references, small-to-large vs large-to-small"
"$STCSIM" --reconfig-every 200000 --order ascending --order descending "$TRACE"
echo
echo "== the seed's Table 1 on three traces: tuned I- and D-configurations (docs/TUNING.md)"
"$STCSIM" tune "$TRACE" "$TRACEDIR/gzip.$ARCH.lackey.zst" "$TRACEDIR/crc.$ARCH.main.lackey.zst"
echo
echo "== the same traces tuned as the generated hardware does it (stcgen's default monitor tuner)"
"$STCSIM" tune --mode hardware "$TRACE" "$TRACEDIR/gzip.$ARCH.lackey.zst" \
    "$TRACEDIR/crc.$ARCH.main.lackey.zst"
