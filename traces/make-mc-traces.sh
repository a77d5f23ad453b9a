#!/usr/bin/env bash
# make-mc-traces.sh OUTDIR - build the multi-core tracer and its kernels
# (traces/mc/) and write a multi-core trace of every kernel at 1, 2, 4 and
# 8 threads (traces/mc/README.md; the format: ref/mc_trace.h).
#
# The kernels (traces/mc/k_*.c) are compiled with gcc -fsanitize=thread,
# which makes gcc call __tsan_read4(addr), __tsan_write8(addr), ... before
# every load and store, and linked not with libtsan but with the project's
# runtime traces/mc/tracer.c: it writes one record per access and runs the
# threads one at a time under a deterministic turn-based scheduler. The
# same command gives the same bytes on any machine load (checked by
# tests/mc-traces-check.sh).
#
# For each trace NAME = KERNEL.tN (e.g. lock.t4) this writes into OUTDIR:
#   NAME.mc.zst   the trace: "CORE LABEL HEXADDR SIZE" lines, zstd -3
#   NAME.cmd      how it was made (run in OUTDIR)
#   NAME.stamp    hash of the recipe (program, command, zstd); a trace whose
#                 stamp matches is not made again
# and OUTDIR/bin/mc-kernels (the tracer with every kernel), OUTDIR/index.txt
# (name, kernel, threads, records, file).
#
# Environment: STC_MC_JOBS  parallel runs (default 2)
#              STC_MC_ONLY  space-separated trace names to make (default all)
set -euo pipefail

die() { echo "make-mc-traces: error: $*" >&2; exit 1; }
say() { echo "make-mc-traces: $*" >&2; }

[ $# -eq 1 ] || die "usage: $0 OUTDIR"
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$HERE")
SRC=$HERE/mc
mkdir -p "$1"
OUT=$(cd "$1" && pwd)
# One run at a time per OUTDIR.
exec 9>"$OUT/.lock"
flock 9
JOBS=${STC_MC_JOBS:-2}
ONLY=${STC_MC_ONLY:-}
case $JOBS in '' | *[!0-9]* | 0) die "STC_MC_JOBS=$JOBS: must be a positive number" ;; esac

"$REPO/scripts/ensure-tools.sh" gcc:gcc zstd:zstd nm:binutils ldd:libc-bin sha256sum:coreutils ||
    die "could not install gcc, zstd and binutils"

# The schedule of every trace: round robin, one access per turn (a fair
# round-robin bus arbiter with every core issuing a reference each slot).
QUANTUM=1
SEED=0
# KERNEL SIZE: sizes for ~0.1-0.7 M references per trace.
KERNELS=(
    "lock 20000"
    "queue 50000"
    "packed 100000"
    "padded 100000"
    "matmul 48"
    "stencil 2048"
    "migratory 10000"
)
THREADS="1 2 4 8"

# ------------------------------------------------------------- build ---
# The runtime and the driver: the project's flags. The kernels: the same
# plus the instrumentation; func entry/exit hooks are not needed, and loops
# must not become memset/memcpy calls (library code is not traced).
CFLAGS="-std=c11 -D_POSIX_C_SOURCE=200809L -O2 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes"
KFLAGS="$CFLAGS -fsanitize=thread --param tsan-instrument-func-entry-exit=0 -fno-tree-loop-distribute-patterns"
BIN=$OUT/bin
mkdir -p "$BIN"
mapfile -t KSRC < <(cd "$SRC" && ls k_*.c)
[ ${#KSRC[@]} -gt 0 ] || die "no kernels (k_*.c) in $SRC"
build_hash=$( (
    echo "$CFLAGS | $KFLAGS"
    gcc --version | head -n 1
    cd "$SRC" && cat tracer.h tracer.c main.c "${KSRC[@]}"
) | sha256sum | cut -c1-16)
if [ ! -x "$BIN/mc-kernels" ] || [ "$(cat "$BIN/mc-kernels.stamp" 2>/dev/null)" != "$build_hash" ]; then
    say "building the tracer and the kernels"
    rm -f "$BIN"/*.o "$BIN/mc-kernels.stamp"
    # shellcheck disable=SC2086
    gcc $CFLAGS -c -o "$BIN/tracer.o" "$SRC/tracer.c" || die "compiling tracer.c failed"
    # shellcheck disable=SC2086
    gcc $CFLAGS -c -o "$BIN/main.o" "$SRC/main.c" || die "compiling main.c failed"
    for k in "${KSRC[@]}"; do
        # shellcheck disable=SC2086
        gcc $KFLAGS -I"$SRC" -c -o "$BIN/${k%.c}.o" "$SRC/$k" || die "compiling $k failed"
        # Traced code may call only the runtime: a library function's loads
        # and stores would be missing from the trace.
        bad=$(nm -u "$BIN/${k%.c}.o" | awk '{ print $2 }' |
            grep -Ev '^(__tsan_.*|mct_alloc|mct_yield|mct_fail)$' || true)
        [ -z "$bad" ] || die "$k calls $(echo "$bad" | paste -s -d' '): kernels may call only the runtime (tracer.h)"
        nm -u "$BIN/${k%.c}.o" | grep -q ' __tsan_' ||
            die "$k: no __tsan_ calls: not instrumented?"
    done
    # Linked without -fsanitize=thread: tracer.o defines the __tsan_* functions.
    (cd "$BIN" && gcc -o mc-kernels.tmp main.o tracer.o "${KSRC[@]/%.c/.o}" -pthread) ||
        die "linking mc-kernels failed"
    if ldd "$BIN/mc-kernels.tmp" | grep -q tsan; then
        die "mc-kernels is linked with libtsan: $(ldd "$BIN/mc-kernels.tmp" | grep tsan)"
    fi
    mv "$BIN/mc-kernels.tmp" "$BIN/mc-kernels"
    echo "$build_hash" >"$BIN/mc-kernels.stamp"
fi

# ------------------------------------------------------------ traces ---
program_hash=$(sha256sum <"$BIN/mc-kernels" | cut -c1-16)
ZSTD_VERSION=$(zstd --version)

# make_trace NAME KERNEL THREADS SIZE: run in the background.
make_trace() {
    local name=$1 kernel=$2 threads=$3 size=$4 cmd stamp t0 t1
    cmd="bin/mc-kernels $kernel --threads $threads --size $size --quantum $QUANTUM --seed $SEED"
    stamp=$(echo "$program_hash $cmd $ZSTD_VERSION" | sha256sum | cut -c1-16)
    if [ -f "$OUT/$name.mc.zst" ] && [ "$(cat "$OUT/$name.stamp" 2>/dev/null)" = "$stamp" ]; then
        return 0
    fi
    rm -f "$OUT/$name.stamp"
    t0=$(date +%s.%N)
    # A clean environment and relative paths: nothing of the caller's shows.
    # shellcheck disable=SC2086
    if ! (cd "$OUT" && env -i PATH=/usr/bin:/bin LC_ALL=C $cmd 2>"$OUT/$name.log" 9>&- |
        zstd -3 -q -f -o "$name.mc.zst.tmp"); then
        echo "make-mc-traces: error: tracing $name failed: $(cat "$OUT/$name.log")" >&2
        return 1
    fi
    mv "$OUT/$name.mc.zst.tmp" "$OUT/$name.mc.zst"
    rm -f "$OUT/$name.log"
    {
        echo "# How $name.mc.zst was made: in the trace directory,"
        echo "cd TRACEDIR && $cmd | zstd -3 -q -o $name.mc.zst"
    } >"$OUT/$name.cmd"
    echo "$stamp" >"$OUT/$name.stamp"
    t1=$(date +%s.%N)
    printf 'make-mc-traces: %-13s %8s records %5.1f s\n' "$name" \
        "$(zstd -dc "$OUT/$name.mc.zst" | tail -n 1 | awk '{ print $3 }')" \
        "$(echo "$t1 $t0" | awk '{ print $1 - $2 }')" >&2
}

ALL=""
for entry in "${KERNELS[@]}"; do
    for t in $THREADS; do ALL="$ALL ${entry%% *}.t$t"; done
done
for name in $ONLY; do
    echo " $ALL " | grep -q " $name " || die "STC_MC_ONLY: no trace $name (the traces:$ALL)"
done

say "tracing (up to $JOBS at a time; up-to-date traces are kept)"
failed=0
running=0
# Eight threads first: the longest runs (most turn hand-overs).
for t in $(echo "$THREADS" | tr ' ' '\n' | sort -rn); do
    for entry in "${KERNELS[@]}"; do
        # shellcheck disable=SC2086
        set -- $entry
        name=$1.t$t
        if [ -n "$ONLY" ] && ! echo " $ONLY " | grep -q " $name "; then continue; fi
        if [ $running -ge "$JOBS" ]; then
            wait -n || failed=1
            running=$((running - 1))
        fi
        make_trace "$name" "$1" "$t" "$2" &
        running=$((running + 1))
    done
done
while [ $running -gt 0 ]; do
    wait -n || failed=1
    running=$((running - 1))
done
[ $failed -eq 0 ] || die "some traces could not be made (messages above)"

# ------------------------------------------------------------- index ---
{
    echo "# name kernel threads records file (quantum $QUANTUM, seed $SEED; traces/mc/README.md)"
    for entry in "${KERNELS[@]}"; do
        # shellcheck disable=SC2086
        set -- $entry
        for t in $THREADS; do
            f=$1.t$t.mc.zst
            [ -f "$OUT/$f" ] || continue
            echo "$1.t$t $1 $t $(zstd -dc "$OUT/$f" | tail -n 1 | awk '{ print $3 }') $f"
        done
    done
} >"$OUT/index.txt"
say "done: $(grep -vc '^#' "$OUT/index.txt") traces in $OUT (list: $OUT/index.txt)"
