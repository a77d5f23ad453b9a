#!/usr/bin/env bash
# trace-arch.sh TRACEDIR - print the architecture (i386 or amd64) of the
# traces in TRACEDIR, as traces/make-traces.sh recorded it in
# TRACEDIR/arch.txt. Traces are named NAME.ARCH.lackey.zst (and
# NAME.ARCH.main.lackey.zst); every consumer of trace names builds them from
# this, so none mixes architectures when a directory holds traces of both.
# make-traces.sh makes i386 traces where 32-bit x86 programs run, amd64
# traces where they cannot (README.md, "Traces").
set -euo pipefail
dir=${1:?usage: trace-arch.sh TRACEDIR}
file=$dir/arch.txt
[ -f "$file" ] || { echo "trace-arch: no $file (make traces writes it)" >&2; exit 1; }
arch=$(cat "$file")
case $arch in
i386 | amd64) echo "$arch" ;;
*)
    echo "trace-arch: $file says '$arch'; expected i386 or amd64 (make traces rewrites it)" >&2
    exit 1
    ;;
esac
