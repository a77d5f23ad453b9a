#!/usr/bin/env bash
# make-traces.sh OUTDIR - build the memory-reference traces used by stc.
#
# Every trace is a zstd-compressed valgrind/lackey trace of an x86 program
# run on a small input that this script makes itself (deterministically:
# same bytes on every run). ARCH, the architecture of the programs, is
#   i386   (32-bit x86) when this machine runs 32-bit programs: the traces
#          stc was developed with;
#   amd64  when it does not (a kernel without IA-32 emulation, e.g. a PVM
#          guest whose host runs 64-bit user code only: execve of an i386
#          program fails with "Exec format error", and valgrind's x86 tools,
#          32-bit programs themselves, cannot run either).
# Found by compiling and running a tiny gcc -m32 -static program;
# STC_TRACE_ARCH=i386 or amd64 forces one. The same programs either way:
#
#   real-debian  Debian's own ARCH builds of gzip, cksum (coreutils), toast
#                (libgsm-tools), djpeg and cjpeg (libjpeg-turbo-progs) and
#                sox (IMA ADPCM encoding), unpacked with their shared
#                libraries into OUTDIR/ARCH/root (apt-get download + dpkg -x:
#                nothing of the host is installed or replaced) and run with
#                the host's glibc: i386, its 32-bit glibc (libc6-i386, from
#                gcc-multilib, loader /lib/ld-linux.so.2); amd64, its own
#                (libc6, loader /lib64/ld-linux-x86-64.so.2).
#   real-static  MPEG-2 decoding: Debian's ARCH libmpeg2.a driven by
#                libmpeg2's own example program sample1.c (shipped in
#                libmpeg2-4-dev), linked with gcc -m32 -static (i386) or
#                gcc -static (amd64). (Debian's mpeg2dec binary is traced
#                only with STC_TRACE_EXTRA=1.)
#   kernel       traces/kernels/*.c (crc, fir, bitcount, bsearch, qsort,
#                blit), built with gcc -m32 -static -O2 (i386) or gcc
#                -static -O2 (amd64).
#
# Why i386 first: stc models a 32-bit address space, and cachegrind (the
# oracle, tests/oracle-cachegrind.sh) accepts 16-byte lines only for i386
# programs. Lackey is slow on this kind of machine for 32-bit programs (one
# int $0x80 write per reference, ~0.1 M references/s), so inputs are small:
# 0.6-2.5 M references per trace.
#
# amd64 traces differ in three ways. (1) Addresses: under valgrind an amd64
# program's stack lies above 2^32 (0x1ffeff....-0x1fff00....), its code,
# libraries and heap far below (here under 0x05000000); stc takes addresses
# modulo 2^32 (its report counts them), and this script checks on every
# trace that the address windows (references with the same bits above bit
# 31) stay apart after that (logs/NAME.windows; an error otherwise).
# (2) Reference sizes: valgrind offers the guest at most AVX2, and glibc's
# string functions use it, so data references are up to 32 bytes
# (max_data_size in NAME.counts: 32 for every amd64 trace); stc splits a
# reference at line boundaries and counts it once. Lazy binding would add a
# 160-byte one (ld.so's xsave): the programs run with LD_BIND_NOW=1 (see
# ENV_FIRST). (3) cachegrind refuses lines narrower than the guest's widest
# register, 32 bytes for amd64 on an AVX machine, so the oracle compares
# only the 32- and 64-byte configurations.
# 0.3-2.1 M references per trace; lackey runs 0.25-0.4 M references/s, all
# 13 traces take ~30 s (2 jobs).
#
# For each trace NAME (NAME.ARCH, e.g. djpeg.amd64) this writes into OUTDIR:
#   NAME.lackey.zst       the trace (lackey --trace-mem=yes output)
#   NAME.main.lackey.zst  static programs only: the same trace from main's
#                         first instruction (the Debian binaries are stripped)
#   NAME.cmd              how it was made: working directory, environment,
#                         command; the oracle re-runs exactly this command
#   NAME.counts           reference counts: I L S M, largest data size
#   NAME.stamp            hash of the recipe (architecture, command, tools,
#                         package versions, contents of binary and inputs); a
#                         trace whose stamp matches is not made again
# and OUTDIR/index.txt listing the traces (with their architecture), and
# OUTDIR/arch.txt holding ARCH: consumers of trace names read it
# (scripts/trace-arch.sh). Runs are made reproducible with env -i and a
# fixed environment, setarch -R (no address randomisation) and a working
# directory whose path has the same length wherever OUTDIR lies
# (traces/fixed-cwd.sh: a fresh /tmp/stc-cwd.XXXXXXXXXX linking OUTDIR's
# files; commands use relative paths only). Without it the traces depended
# on OUTDIR's path length (valgrind puts the working directory on the
# client's stack): all 13 traces differed between two folders, and the
# tuner's loss against the optimum moved by about a point (bitcount 7.05 %
# and 5.93 %). tests/traces-check.sh makes a trace in a second folder of
# another length and compares the bytes. The cachegrind oracle
# (tests/oracle-cachegrind.sh) runs its programs the same way.
#
# Installs what it needs when missing: valgrind, zstd, gcc, gcc-multilib
# (unless STC_TRACE_ARCH=amd64), mjpegtools (mpeg2enc, without recommends),
# for i386 the i386 architecture in dpkg.
#
# Environment: STC_TRACE_JOBS  parallel valgrind runs (default 2)
#              STC_TRACE_ONLY  space-separated trace names to make (default all)
#              STC_TRACE_ARCH  auto (default), i386 or amd64
#              STC_TRACE_EXTRA=1  also trace Debian's mpeg2dec (slow, 9 M
#                                 references of library loading)
#
# Sourced by another script (traces/make-unseen-traces.sh), this file only
# defines its functions and returns: trace_setup OUTDIR (lock, tools, ARCH,
# package lists), prepare_root (the private root of DEB_PROGRAMS, LIBPATH,
# the output directories), build, update, runroot, add, trace_prefixes,
# run_traces and index_lines; main below is this script's own trace set.
set -euo pipefail

TRACE_TOOL=make-traces # the name in messages (a script sourcing this one sets its own)
die() { echo "$TRACE_TOOL: error: $*" >&2; exit 1; }
say() { echo "$TRACE_TOOL: $*" >&2; }

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$HERE")
# Bump when the way traces are made changes (forces every trace to be redone).
# 2: run in a working directory of fixed path length (fixed-cwd.sh); valgrind's
#    ==PID== line prefix written as ==0==.
# 3: LD_LIBRARY_PATH ends in the host glibc's directory (LIBC_DIR): the loader
#    no longer maps /etc/ld.so.cache, whose size (any package install rewrites
#    it) moved every later mapping.
# 4: env --default-signal: signals ignored by the caller (nohup, a background
#    job) no longer change a program's start-up (gzip: 299 instructions).
RECIPE_VERSION=4
# shellcheck source=fixed-cwd.sh
. "$HERE/fixed-cwd.sh"

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive

apt_updated=0
apt_update() {
    if [ $apt_updated -eq 0 ]; then
        say "apt-get update"
        $SUDO apt-get update -qq >/dev/null || die "apt-get update failed"
        apt_updated=1
    fi
}

# 32-bit static builds need gcc-multilib (it also brings libc6-i386, the
# 32-bit glibc and /lib/ld-linux.so.2 that runs the Debian i386 programs).
m32_works() {
    printf 'int main(void){return 0;}\n' | gcc -m32 -static -x c -o /dev/null - >/dev/null 2>&1
}
# i386_runs: a static i386 program compiles and runs (exits with its status).
i386_runs() {
    local probe=$OUT/.i386-probe rc=0
    if ! printf 'int main(void){return 42;}\n' |
        gcc -m32 -static -x c -o "$probe" - >/dev/null 2>&1; then
        rm -f "$probe"
        return 1
    fi
    "$probe" >/dev/null 2>&1 || rc=$?
    rm -f "$probe"
    [ $rc -eq 42 ]
}
arch_lists() { ls /var/lib/apt/lists/*_binary-"$ARCH"_Packages* >/dev/null 2>&1; }

# trace_setup OUTDIR: take OUTDIR's lock, install the basic tools, find
# ARCH (and what goes with it) and make sure apt has its package lists.
trace_setup() {
    [ $# -eq 1 ] || die "usage: $0 OUTDIR"
    mkdir -p "$1"
    OUT=$(cd "$1" && pwd)
    # One run at a time per OUTDIR (e.g. make -j running "traces" and "test").
    exec 9>"$OUT/.lock"
    flock 9
    JOBS=${STC_TRACE_JOBS:-2}
    ONLY=${STC_TRACE_ONLY:-}

    # ------------------------------------------------------------ tools ---
    "$REPO/scripts/ensure-tools.sh" valgrind:valgrind zstd:zstd gcc:gcc setarch:util-linux \
        sha256sum:coreutils || die "could not install the basic tools (valgrind, zstd, gcc)"

    # ----------------------------------------------------- architecture ---
    # i386 when this machine runs 32-bit x86 programs, amd64 when it does not (a
    # kernel without IA-32 emulation: execve of an i386 program fails with
    # ENOEXEC, "Exec format error"; valgrind's x86 tools are 32-bit programs
    # themselves, so no i386 program can be traced there at all).
    WANT_ARCH=${STC_TRACE_ARCH:-auto}
    case $WANT_ARCH in
    auto | i386 | amd64) ;;
    *) die "STC_TRACE_ARCH=$WANT_ARCH: must be auto, i386 or amd64" ;;
    esac

    if [ "$WANT_ARCH" != amd64 ] && { ! m32_works || [ ! -e /lib/ld-linux.so.2 ]; }; then
        say "installing gcc-multilib"
        apt_update
        $SUDO apt-get install -y -qq gcc-multilib >/dev/null || die "could not install gcc-multilib"
        m32_works || die "gcc -m32 -static still fails after installing gcc-multilib"
    fi
    if [ "$WANT_ARCH" = amd64 ]; then
        ARCH=amd64
        say "STC_TRACE_ARCH=amd64: making amd64 traces"
    elif i386_runs; then
        ARCH=i386
    elif [ "$WANT_ARCH" = i386 ]; then
        die "STC_TRACE_ARCH=i386, but this machine cannot run i386 programs (a gcc -m32 -static test program does not execute: no IA-32 emulation in this kernel?)"
    else
        ARCH=amd64
        say "this machine cannot run i386 programs (a gcc -m32 -static test program does not execute: no IA-32 emulation): making amd64 traces"
    fi
    case $ARCH in
    i386)
        TRIPLET=i386-linux-gnu    # Debian's multiarch directory
        PERSONALITY=i386          # setarch's argument
        CC_STATIC="gcc -m32 -static"
        LIBC_PKG=libc6-i386       # the host's glibc the programs run with
        LIBC_DIR=/lib32           # ... where LIBC_PKG puts libc.so.6
        BIN=bin                   # the static programs, relative to OUT
        ;;
    amd64)
        [ "$(uname -m)" = x86_64 ] || die "amd64 traces need an x86_64 machine (this one is $(uname -m))"
        [ "$(dpkg --print-architecture)" = amd64 ] ||
            die "amd64 traces need dpkg's native architecture to be amd64 (it is $(dpkg --print-architecture))"
        TRIPLET=x86_64-linux-gnu
        PERSONALITY=x86_64
        CC_STATIC="gcc -static"
        LIBC_PKG=libc6
        LIBC_DIR=/lib/x86_64-linux-gnu
        BIN=amd64/bin
        [ -e /lib64/ld-linux-x86-64.so.2 ] || die "no /lib64/ld-linux-x86-64.so.2 (the host's amd64 glibc loader)"
        ;;
    esac
    [ -e "$LIBC_DIR/libc.so.6" ] || die "no $LIBC_DIR/libc.so.6 (the host's $ARCH glibc, package $LIBC_PKG)"
    NATIVE=$(dpkg --print-architecture)

    # The package lists of ARCH, so that apt-get download finds its packages
    # (i386: a foreign architecture, added to dpkg when missing).
    if [ "$ARCH" = i386 ] && ! dpkg --print-foreign-architectures | grep -qx i386; then
        say "enabling the i386 architecture (dpkg --add-architecture i386)"
        $SUDO dpkg --add-architecture i386
        apt_updated=0
    fi
    if ! arch_lists; then
        apt_updated=0
        apt_update
        arch_lists || die "no $ARCH package lists after apt-get update"
    fi

    VG_VERSION=$(valgrind --version)
    ARCHDIR=$OUT/$ARCH
    ROOT=$ARCHDIR/root
}

APT_DEPENDS_OPTS="--no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances"

# closure PROGRAM...: "PACKAGE VERSION" for the programs' ARCH packages and
# every shared library they need, found breadth first over the dependency
# graph, taking the first alternative of each dependency and the first ARCH
# provider of a virtual package (apt-cache names packages of dpkg's native
# architecture without a suffix: they are given one, ":$NATIVE"). Only libraries are followed, recognised as
# Multi-Arch: same packages (Debian's convention for them): programs such as
# dpkg or install-info that a package also depends on are not needed to run
# it. Left out: libc6 (the host's glibc is used, with its loader: libc6-i386
# and /lib/ld-linux.so.2 for i386, libc6 and /lib64/ld-linux-x86-64.so.2 for
# amd64) and sox's format plugins (sox looks for them in a
# fixed system path, so they could not be loaded from the private root).
# Two apt-cache calls in all: each costs seconds when apt keeps no binary
# cache (as in Debian's container images).
closure() {
    local graph info
    # shellcheck disable=SC2046,SC2086 # package names: split on purpose
    graph=$(apt-cache depends --recurse $APT_DEPENDS_OPTS $(for p in "$@"; do echo "$p:$ARCH"; done) 2>/dev/null |
        awk -v native="$NATIVE" -v arch="$ARCH" '
        function q(n) { return (n ~ /:/) ? n : n ":" native }
        /^[^ ]/ { pkg = q($1); ingroup = 0; next }
        /^ [ |](Pre)?Depends:/ {
            alt = ($1 ~ /^\|/)
            name = $2
            if (!ingroup) chosen = 0
            ingroup = alt
            virtual = 0
            if (!chosen) {
                chosen = 1
                if (name ~ /^</) virtual = 1; else print pkg, q(name)
            }
            next
        }
        /^    / { if (virtual && q($1) ~ (":" arch "$")) print pkg, q($1); virtual = 0; next }
        ' | grep ":$ARCH .*:$ARCH\$" | sed "s/:$ARCH//g" | sort -u)
    [ -n "$graph" ] || die "apt-cache depends found nothing for: $*"
    # shellcheck disable=SC2046,SC2086 # package names: split on purpose
    info=$(apt-cache show --no-all-versions $( (echo "$@"; echo "$graph") | tr ' ' '\n' | sort -u |
        sed "s/\$/:$ARCH/") 2>/dev/null |
        awk '/^Package:/ { p = $2; ma = "no" } /^Multi-Arch:/ { ma = $2 } /^Version:/ { v = $2 }
             /^$/ && p != "" { print "pkg", p, ma, v; p = "" } END { if (p != "") print "pkg", p, ma, v }')
    (echo "$info"; echo "$graph" | sed 's/^/dep /'; echo "start $*") | awk '
        $1 == "pkg" { ma[$2] = $3; ver[$2] = $4; next }
        $1 == "dep" { n = ++ndeps[$2]; dep[$2, n] = $3; next }
        $1 == "start" {
            for (i = 2; i <= NF; i++) { queue[++qn] = $i; seen[$i] = 1 }
            for (q = 1; q <= qn; q++) {
                p = queue[q]
                for (j = 1; j <= ndeps[p]; j++) {
                    d = dep[p, j]
                    if (d in seen || ma[d] != "same" || d ~ /^libc6($|-)/ || d ~ /^libsox-fmt-/) continue
                    seen[d] = 1; queue[++qn] = d
                }
            }
            for (q = 1; q <= qn; q++) {
                if (ver[queue[q]] == "") { print "unknown " queue[q]; continue }
                print queue[q], ver[queue[q]]
            }
        }' | sort
}

# Unpack the programs and their libraries into ROOT, unless the package set
# and versions are unchanged. The resolution is cached against the state of
# apt's package lists (it takes a few apt-cache calls).
setup_root() {
    local lists key pkgs want
    # shellcheck disable=SC2010 # apt's own file names
    lists=$(ls -l --time-style=+%s /var/lib/apt/lists/ 2>/dev/null | grep -i 'packages' || true)
    key=$( (echo "$DEB_PROGRAMS"; echo "$lists") | sha256sum | cut -c1-64)
    if [ -d "$ROOT" ] && [ -f "$ARCHDIR/packages.txt" ] && [ "$(cat "$ARCHDIR/lists.key" 2>/dev/null)" = "$key" ]; then
        return 0
    fi
    say "resolving the $ARCH packages of: $DEB_PROGRAMS"
    # The exact versions apt will download: part of the recipe of every trace.
    want=$(closure $DEB_PROGRAMS)
    if echo "$want" | grep -q '^unknown '; then
        die "apt-cache does not know these $ARCH packages: $(echo "$want" | sed -n 's/^unknown //p')"
    fi
    pkgs=$(echo "$want" | cut -d' ' -f1)
    if [ "$want" != "$(cat "$ARCHDIR/packages.txt" 2>/dev/null)" ] || [ ! -d "$ROOT" ]; then
        say "unpacking $(echo "$pkgs" | wc -w) $ARCH packages into $ROOT"
        rm -rf "$ROOT" "$ARCHDIR/debs" "$ARCHDIR/packages.txt"
        mkdir -p "$ROOT" "$ARCHDIR/debs"
        # apt-get download writes into the current directory; when _apt cannot
        # write there apt warns (harmlessly) and downloads as root.
        # shellcheck disable=SC2046,SC2086 # package names: split on purpose
        (cd "$ARCHDIR/debs" && apt-get download -qq $(for p in $pkgs; do echo "$p:$ARCH"; done) 2>&1 |
            grep -v 'Download is performed unsandboxed' >&2 || true)
        for p in $pkgs; do
            f=$(ls "$ARCHDIR/debs/${p}_"*_"$ARCH".deb 2>/dev/null | head -n 1)
            [ -n "$f" ] || die "apt-get download of $p:$ARCH failed"
            dpkg -x "$f" "$ROOT"
        done
        echo "$want" >"$ARCHDIR/packages.txt"
        rm -rf "$ARCHDIR/debs"
    fi
    echo "$key" >"$ARCHDIR/lists.key"
}

# prepare_root: the private root of DEB_PROGRAMS in ARCHDIR (see setup_root),
# LIBPATH, and the output directories.
prepare_root() {
    setup_root

    # Library search path for the private root, relative to OUT (commands run
    # there). Every directory that holds a shared library.
    LIBPATH=$(cd "$OUT" && find "$ARCH/root" -name '*.so*' \( -type f -o -type l \) -printf '%h\n' |
        sort -u | grep -v '/sox$' | paste -s -d:)
    [ -n "$LIBPATH" ] || die "no shared libraries found in $ROOT"

    mkdir -p "$OUT/bin" "$OUT/$BIN" "$OUT/inputs" "$OUT/logs" "$OUT/work"
}

# build OUTFILE "CC FLAGS" SOURCE [EXTRA...]: compile when anything changed.
build() {
    local out=$1 cc=$2 src=$3 h
    shift 3
    h=$( (echo "$cc $*"; gcc --version | head -n 1; cat "$src" "$@") | sha256sum | cut -c1-16)
    if [ -x "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$h" ]; then
        return 0
    fi
    # shellcheck disable=SC2086
    $cc -o "$out.tmp" "$src" "$@" || die "compiling $src failed"
    mv "$out.tmp" "$out"
    echo "$h" >"$out.stamp"
}

# update FILE: move FILE.new over FILE unless identical (keeps the stamps of
# traces whose input did not change valid).
update() {
    if [ -f "$1" ] && cmp -s "$1.new" "$1"; then rm -f "$1.new"; else mv "$1.new" "$1"; fi
}
# Run a program of the private root (for making inputs).
runroot() {
    (cd "$OUT" && env -i PATH=/usr/bin:/bin LC_ALL=C LD_LIBRARY_PATH="$LIBPATH" "$@")
}

# A trace: NAME CLASS ORACLE CWD COMMAND...
#   CLASS   real-debian  a Debian program of ARCH (dynamically linked, stripped)
#           real-static  real code nobody here wrote, linked here with
#                        CC_STATIC (symbols kept)
#           kernel       traces/kernels/*.c, CC_STATIC -O2
#   ORACLE  yes if cachegrind can reproduce the run exactly
#   CWD     working directory of the run, relative to OUT
#   COMMAND argv words, paths relative to CWD, no spaces or shell characters
# Longest first, so that the parallel runs end together.
TRACES=()
add() { TRACES+=("$*"); }

# --vex-iropt-level=0: valgrind instruments the guest code unoptimised, so
# every load the program executes is traced. With the default optimisation
# a load whose value is never used can vanish before instrumentation, and
# lackey and cachegrind then disagree by a load or two (seen with gzip).
VALGRIND="valgrind --vex-iropt-level=0"
LACKEY="--tool=lackey --trace-mem=yes --log-fd=3"
# amd64: LD_BIND_NOW=1, so that ld.so binds every symbol at start-up. Lazy
# binding runs _dl_runtime_resolve_xsave, whose xsave valgrind reports as
# one 160-byte access (the x87 part of the save area; the rest as 8- and
# 16-byte accesses), which cachegrind shortens to 16 bytes: stc and
# cachegrind would then disagree by a few misses. With it, no reference is
# wider than 32 bytes (an AVX2 register). And an empty LD_PRELOAD first.
# Without one, valgrind adds its own
# (vgpreload_core) as the last string above the stack, just before the 16
# random bytes of AT_RANDOM; ld.so splits that list with its C strcspn,
# which reads 4 bytes at a time and looks each up in a table on the stack,
# so the 1-3 random bytes after the string's NUL become loads at random
# addresses: the trace changed from run to run (and cachegrind's misses by
# one or two). An existing LD_PRELOAD valgrind extends in place (to
# "LD_PRELOAD=.../vgpreload_core-amd64-linux.so:", whose empty element ld.so
# skips), away from the random bytes. i386 runs keep their recipe unchanged.
# A Debian program's LD_LIBRARY_PATH is the private root's directories and
# then LIBC_DIR, the host glibc's: every library is found on the path, so
# ld.so never opens /etc/ld.so.cache. When it did (for libc.so.6), it mapped
# the cache file, and every later mapping's address depended on the file's
# size: installing any package on the host (rumur, netpbm) changed the
# traces of all six Debian programs (cjpeg's tuner loss moved 4.4 -> 3.4 %).
# tests/traces-check.sh checks with LD_DEBUG=libs that no cache is searched.
# env --default-signal: every signal's handling reset to the default. A
# program inherits ignored signals (a make run under nohup, or in the
# background of a script, ignores HUP, INT and QUIT), and gzip, like many
# programs, installs its handlers only for signals not ignored: its trace
# had 299 instructions fewer when made in the background.
# trace_prefixes: PREFIX_DEBIAN and PREFIX_STATIC (after prepare_root).
trace_prefixes() {
    ENV_FIRST=""
    [ "$ARCH" = i386 ] || ENV_FIRST="LD_BIND_NOW=1 LD_PRELOAD= "
    PREFIX_DEBIAN="env -i --default-signal ${ENV_FIRST}PATH=/usr/bin:/bin LC_ALL=C LD_LIBRARY_PATH=$LIBPATH:$LIBC_DIR setarch $PERSONALITY -R $VALGRIND"
    PREFIX_STATIC="env -i --default-signal ${ENV_FIRST}PATH=/usr/bin:/bin LC_ALL=C setarch $PERSONALITY -R $VALGRIND"
}

# make_trace NAME CLASS ORACLE CWD COMMAND...: run in the background.
make_trace() {
    local name=$1 kind=$2 cwd=$4 prefix stamp t0 t1 main w rundir rc
    shift 4
    if [ "$kind" = real-debian ]; then prefix=$PREFIX_DEBIAN; else prefix=$PREFIX_STATIC; fi
    mkdir -p "$OUT/$cwd"
    # The recipe: command, tools, and the contents of the files it names.
    stamp=$( (
        echo "v$RECIPE_VERSION $VG_VERSION $(zstd --version)"
        echo "arch $ARCH"
        echo "$cwd: $prefix $LACKEY $*"
        for w in "$@"; do
            if [ -f "$OUT/$cwd/$w" ]; then sha256sum <"$OUT/$cwd/$w"; fi
        done
        if [ "$kind" = real-debian ]; then
            cat "$ARCHDIR/packages.txt"
            # The host's glibc (its loader and libraries) is part of the
            # run. /etc/ld.so.cache is not: LD_LIBRARY_PATH ends in
            # LIBC_DIR, so the loader finds every library there or in the
            # private root and never reads the cache (trace_prefixes).
            dpkg-query -W -f='${Version}\n' "$LIBC_PKG" 2>/dev/null || true
        fi
    ) | sha256sum | cut -c1-64)
    if [ -f "$OUT/$name.lackey.zst" ] && [ -f "$OUT/$name.counts" ] &&
        [ "$(cat "$OUT/$name.stamp" 2>/dev/null)" = "$stamp" ]; then
        return 0
    fi
    rm -f "$OUT/$name.stamp"
    t0=$(date +%s.%N)
    # valgrind's log (the trace) on fd 3, the program's stdout to /dev/null,
    # its stderr to a log file, stdin from /dev/null, the lock's fd closed.
    # pipefail catches a failing program. The run's working directory is
    # CWD inside a directory of fixed path length (fixed-cwd.sh). valgrind
    # starts its own lines with ==PID==; the PID becomes 0, so that the same
    # run gives the same bytes.
    rundir=$(fixed_cwd_make "$OUT" "$cwd" "$1") || { echo "$TRACE_TOOL: error: cannot make a working directory in /tmp" >&2; return 1; }
    rc=0
    # shellcheck disable=SC2086
    (cd "$rundir/$cwd" && $prefix $LACKEY "$@" 3>&1 >/dev/null 2>"$OUT/logs/$name.stderr" </dev/null 9>&- |
        sed 's/^==[0-9]*==/==0==/' | zstd -3 -q -f -o "$OUT/$name.lackey.zst.tmp") || rc=$?
    fixed_cwd_remove "$rundir"
    if [ $rc -ne 0 ]; then
        echo "$TRACE_TOOL: error: tracing $name failed (see $OUT/logs/$name.stderr)" >&2
        return 1
    fi
    # Counts, and for static programs (which keep their symbols) the trace
    # cut at main's first instruction (nm and lackey print main's address
    # with different numbers of leading zeros: nm's are dropped).
    # Address windows: stc takes addresses modulo 2^32 (an amd64 program's
    # stack is above 2^32 under valgrind). The references of each window
    # (same address bits above bit 31; i386 has one) span [lowest, highest +
    # largest reference) after truncation; two windows whose spans share a
    # 64-byte line could alias in the model: an error. The spans are kept in
    # logs/NAME.windows.
    main=""
    if [ "$kind" != real-debian ]; then
        main=$(nm "$OUT/$cwd/$1" | awk '$3 == "main" { print $1 }' | sed 's/^0*//')
        [ -n "$main" ] || { echo "$TRACE_TOOL: error: no symbol main in $1" >&2; return 1; }
    fi
    if ! zstd -dc "$OUT/$name.lackey.zst.tmp" | awk -v main="$main" -v counts="$OUT/$name.counts.tmp" \
        -v windows="$OUT/logs/$name.windows" -v name="$name" '
        function hex(h,   v, j) {
            v = 0
            for (j = 1; j <= length(h); j++) v = v * 16 + index("0123456789abcdef", substr(h, j, 1)) - 1
            return v
        }
        BEGIN { re = "^I +0*" main "," }
        /^==/ { next }
        { k = substr($0, 1, 2); split($2, a, ",") }
        k == "I " { i++ } k == " L" { l++ } k == " S" { s++ } k == " M" { m++ }
        k != "I " && a[2] + 0 > maxd { maxd = a[2] + 0 }
        {
            n = length(a[1])
            if (n > 8) { w = substr(a[1], 1, n - 8); lo = substr(a[1], n - 7) }
            else { w = "0"; lo = substr("00000000", 1, 8 - n) a[1] }
            if (!(w in lo_min)) { lo_min[w] = lo; lo_max[w] = lo; wins[++nw] = w }
            else if (lo < lo_min[w]) lo_min[w] = lo
            else if (lo > lo_max[w]) lo_max[w] = lo
        }
        main != "" && !inmain && $0 ~ re { inmain = 1 }
        inmain { print }
        END {
            printf "I %d\nL %d\nS %d\nM %d\nmax_data_size %d\n", i, l, s, m, maxd > counts
            pad = (maxd > 16 ? maxd : 16) - 1
            print "# window (address bits above 31) lowest highest (bits 31-0 of the references, hex)" > windows
            bad = 0
            for (x = 1; x <= nw; x++) {
                w = wins[x]
                print w, lo_min[w], lo_max[w] > windows
                first[x] = int(hex(lo_min[w]) / 64)
                last[x] = int((hex(lo_max[w]) + pad) / 64)
                if (nw > 1 && hex(lo_max[w]) + pad > 4294967295) {
                    printf "make-traces: error: %s: references of window %s wrap around 2^32\n", name, w > "/dev/stderr"
                    bad = 1
                }
            }
            for (x = 1; x <= nw; x++) for (y = x + 1; y <= nw; y++) {
                if (first[x] <= last[y] && first[y] <= last[x]) {
                    printf "make-traces: error: %s: address windows %s and %s overlap modulo 2^32 (see %s)\n",
                        name, wins[x], wins[y], windows > "/dev/stderr"
                    bad = 1
                }
            }
            if (bad) exit 4
            if (main != "" && !inmain) exit 3
        }' | if [ -n "$main" ]; then zstd -3 -q -f -o "$OUT/$name.main.lackey.zst.tmp"; else cat >/dev/null; fi
    then
        echo "$TRACE_TOOL: error: post-processing the trace of $name failed" >&2
        return 1
    fi
    if [ -n "$main" ]; then mv "$OUT/$name.main.lackey.zst.tmp" "$OUT/$name.main.lackey.zst"; fi
    mv "$OUT/$name.counts.tmp" "$OUT/$name.counts"
    mv "$OUT/$name.lackey.zst.tmp" "$OUT/$name.lackey.zst"
    {
        echo "# How $name.lackey.zst was made. Run 'prefix' + valgrind tool options"
        echo "# + 'command' in directory 'cwd' (relative to the trace directory, or"
        echo "# to a directory of links to it whose path has a fixed length:"
        echo "# traces/fixed-cwd.sh, as make-traces.sh and the oracle do), with the"
        echo "# program's stdout on /dev/null and valgrind's log on fd 3."
        echo "# FIXEDDIR below: such a directory of links, TRACEDIR: the trace directory."
        echo "cwd: $cwd"
        echo "prefix: $prefix"
        echo "tool: $LACKEY"
        echo "command: $*"
        echo "full: cd FIXEDDIR/$cwd && $prefix $LACKEY $* 3>&1 >/dev/null 2>TRACEDIR/logs/$name.stderr </dev/null | sed 's/^==[0-9]*==/==0==/' | zstd -3 -q -o TRACEDIR/$name.lackey.zst"
    } >"$OUT/$name.cmd"
    echo "$stamp" >"$OUT/$name.stamp"
    t1=$(date +%s.%N)
    printf '%s: %-19s %9d refs %6.1f s\n' "$TRACE_TOOL" "$name" \
        "$(awk 'NR <= 4 { n += $2 } END { print n }' "$OUT/$name.counts")" \
        "$(echo "$t1 $t0" | awk '{ print $1 - $2 }')" >&2
}

# run_traces: make the traces added (those of STC_TRACE_ONLY when set), up
# to JOBS at a time.
run_traces() {
    say "tracing (up to $JOBS at a time; up-to-date traces are kept)"
    failed=0
    running=0
    for t in "${TRACES[@]}"; do
        # shellcheck disable=SC2086
        set -- $t
        if [ -n "$ONLY" ] && ! echo " $ONLY " | grep -q " $1 "; then continue; fi
        if [ $running -ge "$JOBS" ]; then
            wait -n || failed=1
            running=$((running - 1))
        fi
        make_trace "$@" &
        running=$((running + 1))
    done
    while [ $running -gt 0 ]; do
        wait -n || failed=1
        running=$((running - 1))
    done
    [ $failed -eq 0 ] || die "some traces could not be made (messages above)"
}

# index_lines: the lines of index.txt for the traces added that exist.
index_lines() {
    for t in "${TRACES[@]}"; do
        # shellcheck disable=SC2086
        set -- $t
        [ -f "$OUT/$1.lackey.zst" ] || continue
        m=-
        [ -f "$OUT/$1.main.lackey.zst" ] && m=$1.main.lackey.zst
        echo "$1 $ARCH $2 $3 $1.lackey.zst $m"
    done
}

# main OUTDIR: this script's traces.
main() {
    trace_setup "$@"

    # mpeg2enc (mjpegtools) encodes the MPEG-2 test stream. Without
    # --no-install-recommends it would pull in ~100 packages.
    if ! command -v mpeg2enc >/dev/null 2>&1; then
        say "installing mjpegtools (mpeg2enc)"
        apt_update
        $SUDO apt-get install -y -qq --no-install-recommends mjpegtools >/dev/null ||
            die "could not install mjpegtools (needed for mpeg2enc)"
    fi

    # ------------------------------------------------ Debian programs ---
    # The Debian packages (of ARCH) whose programs are traced (libmpeg2-4-dev: the static
    # libmpeg2 and its example decoder sample1.c). mpeg2dec itself is traced only
    # with STC_TRACE_EXTRA=1: it links SDL, X11 and PulseAudio, and loading those
    # 40 libraries takes 9 M references before the first frame. It is unpacked
    # all the same, so that the private root (part of every Debian trace's
    # recipe) does not depend on the setting.
    DEB_PROGRAMS="gzip coreutils libgsm-tools libjpeg-turbo-progs sox libmpeg2-4-dev mpeg2dec"

    prepare_root

    # --------------------------------------------------------- builds ---
    say "building the input generator and the kernels"
    build "$OUT/bin/gen-inputs" "gcc -O2 -std=c11 -Wall -Wextra -Werror" "$HERE/gen-inputs.c"
    KERNELS="crc fir bitcount bsearch qsort blit"
    for k in $KERNELS; do
        build "$OUT/$BIN/$k" "$CC_STATIC -O2 -std=c11 -Wall -Wextra -Werror" "$HERE/kernels/$k.c"
    done
    # libmpeg2's own example decoder (upstream's sample1.c, shipped by Debian),
    # linked statically with Debian's libmpeg2.a of ARCH: an MPEG-2 decoder
    # without the 40 shared libraries of mpeg2dec.
    build "$OUT/$BIN/mpeg2-sample1" "$CC_STATIC -O2 -w -I$ROOT/usr/include/mpeg2dec" \
        "$ROOT/usr/share/doc/libmpeg2-4-dev/examples/sample1.c" "$ROOT/usr/lib/$TRIPLET/libmpeg2.a"

    # --------------------------------------------------------- inputs ---
    GEN=$OUT/bin/gen-inputs
    IN=$OUT/inputs
    say "making inputs"
    "$GEN" text 5000 >"$IN/text.txt.new" || die "gen-inputs text failed"
    update "$IN/text.txt"
    "$GEN" text 160000 >"$IN/text-long.txt.new" || die "gen-inputs text failed"
    update "$IN/text-long.txt"
    "$GEN" ppm 128 96 >"$IN/image.ppm.new" || die "gen-inputs ppm failed"
    update "$IN/image.ppm"
    runroot "$ARCH/root/usr/bin/cjpeg" -quality 80 -outfile inputs/image.jpg.new inputs/image.ppm ||
        die "cjpeg failed to make the JPEG input"
    update "$IN/image.jpg"
    # Audio: 8 kHz mono 16-bit, a chirp plus a tone (sox synth is deterministic
    # for these waveforms; -R makes anything random repeatable). 0.25 s for sox,
    # and its first 0.1 s (five GSM frames) as Sun u-law audio for toast.
    runroot "$ARCH/root/usr/bin/sox" -R -n -r 8000 -c 1 -b 16 -e signed-integer -t wav inputs/tone.wav.new \
        synth 0.25 sine 200-1200 sine 330 remix - gain -3 || die "sox failed to make the audio input"
    update "$IN/tone.wav"
    runroot "$ARCH/root/usr/bin/sox" -R inputs/tone.wav -e u-law -t au inputs/speech.au.new trim 0 0.1 ||
        die "sox failed to make the .au input"
    update "$IN/speech.au"
    # MPEG-2 video: a generated YUV4MPEG stream (moving objects) encoded by
    # mpeg2enc (mjpegtools): 96x64, 4 frames, I and P/B frames.
    "$GEN" y4m 96 64 4 >"$IN/video.y4m" || die "gen-inputs y4m failed"
    mpeg2enc -f 3 -b 400 -g 3 -G 3 -M 0 -q 6 -v 0 -o "$IN/video.m2v.new" <"$IN/video.y4m" >/dev/null 2>&1 ||
        die "mpeg2enc failed to make the MPEG-2 input"
    rm -f "$IN/video.y4m"
    update "$IN/video.m2v"

    # --------------------------------------------------------- traces ---
    add "toast.$ARCH"   real-debian yes . "$ARCH/root/usr/bin/toast" -c inputs/speech.au
    add "sox-ima.$ARCH" real-debian yes . "$ARCH/root/usr/bin/sox" -R inputs/tone.wav -t ima -
    add "gzip.$ARCH"    real-debian yes . "$ARCH/root/bin/gzip" -6 -c inputs/text.txt
    add "cjpeg.$ARCH"   real-debian yes . "$ARCH/root/usr/bin/cjpeg" -quality 80 inputs/image.ppm
    add "djpeg.$ARCH"   real-debian yes . "$ARCH/root/usr/bin/djpeg" -ppm inputs/image.jpg
    add "cksum.$ARCH"   real-debian yes . "$ARCH/root/usr/bin/cksum" inputs/text-long.txt
    # libmpeg2 (Debian's libmpeg2.a) driven by its upstream example sample1.c,
    # which writes one N.pgm per frame into its working directory.
    add "mpeg2-sample1.$ARCH" real-static yes work/mpeg2 "../../$BIN/mpeg2-sample1" ../../inputs/video.m2v
    for k in $KERNELS; do
        add "$k.$ARCH" kernel yes . "$BIN/$k"
    done
    # mpeg2dec prints its progress by wall-clock time, so a run under cachegrind
    # (faster than lackey) takes other branches: not comparable with the oracle.
    if [ "${STC_TRACE_EXTRA:-0}" = 1 ]; then
        add "mpeg2dec.$ARCH" real-debian no . "$ARCH/root/usr/bin/mpeg2dec" -c -o null inputs/video.m2v
    fi

    trace_prefixes
    run_traces

    # ---------------------------------------------------------- index ---
    {
        echo "# name arch class oracle_comparable trace main_trace(- if none)"
        echo "# class: real-debian = Debian's $ARCH program, dynamically linked, stripped"
        echo "#        real-static = real code (Debian's libmpeg2.a + its example), $CC_STATIC"
        echo "#        kernel      = traces/kernels/*.c, $CC_STATIC -O2"
        index_lines
    } >"$OUT/index.txt"
    # The architecture of the traces index.txt lists: consumers of trace names
    # (NAME.ARCH.lackey.zst) read it, so that they never mix architectures when
    # a directory holds traces of both.
    echo "$ARCH" >"$OUT/arch.txt"
    say "done: $(grep -vc '^#' "$OUT/index.txt") traces in $OUT (list: $OUT/index.txt)"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    main "$@"
fi
