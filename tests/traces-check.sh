#!/usr/bin/env bash
# traces-check.sh TRACEDIR - the traces do not depend on where, or from what
# state of the host, they are made.
#
# make-traces.sh runs every program in a working directory whose path has
# a fixed length (traces/fixed-cwd.sh), because valgrind puts the working
# directory on the client's stack and its length moves the stack's
# addresses, and glibc copies the program's real path (/proc/self/exe) to
# its heap; and it resets every signal's handling (env --default-signal),
# because a program inherits ignored signals and some (gzip) start up
# differently then. This check makes traces again (a static kernel, crc,
# and a Debian program, gzip: one of each kind of start-up) into trace
# directories whose paths are longer than TRACEDIR's by amounts that are
# not multiples of 16 (so that, without the fixed directory, the stack
# would move), with HUP, INT and QUIT ignored and not, and compares the
# bytes with TRACEDIR's traces, counts and stamps. The directories share
# TRACEDIR's private root (ARCH/, a link: the Debian packages are not
# downloaded again); their own programs and inputs are built by
# make-traces.sh.
# And the traces do not depend on the host's installed packages: every
# Debian program of TRACEDIR/index.txt, run natively as its NAME.cmd says
# (without setarch and valgrind) with LD_DEBUG=libs, loads its libraries without
# searching /etc/ld.so.cache (whose size, changed by any package install,
# used to move the later mappings). Takes ~45 s (three valgrind runs on 2 cores).
set -euo pipefail

die() { echo "traces-check: error: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: $0 TRACEDIR"
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$HERE")
DIR=$(cd "$1" && pwd) || die "no trace directory $1"
[ -f "$DIR/arch.txt" ] || die "$DIR/arch.txt missing: make the traces first (make traces)"
ARCH=$(cat "$DIR/arch.txt")
for name in crc.$ARCH gzip.$ARCH; do
    [ -f "$DIR/$name.lackey.zst" ] || die "$DIR/$name.lackey.zst missing: make the traces first (make traces)"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# folder LENGTH: a path LENGTH characters longer than TRACEDIR's (not a
# multiple of 16: the stack would move a step either way).
folder() {
    local path
    path=$tmp/$(printf '%*s' $(( ${#DIR} + $1 - ${#tmp} - 1 )) '' | tr ' ' "$2")
    [ ${#path} -eq $(( ${#DIR} + $1 )) ] || path=$tmp/longer-folder-name-for-the-check-$2$2$2$2$2$2$2$2$1
    echo "$path"
}
# Two folders, made at once: one with HUP, INT and QUIT ignored (as under
# nohup or in a script's background) making crc and gzip, one with every
# signal at its default making gzip (gzip installs its handlers only for
# signals not ignored). Whatever the signals were when TRACEDIR's traces
# were made, one of the two differs from it there.
other_ign=$(folder 21 x)
other_dfl=$(folder 37 y)
for other in "$other_ign" "$other_dfl"; do
    mkdir -p "$other"
    ln -s "$DIR/$ARCH" "$other/$ARCH"
done
env --ignore-signal=HUP,INT,QUIT STC_TRACE_ONLY="crc.$ARCH gzip.$ARCH" \
    "$REPO/traces/make-traces.sh" "$other_ign" >"$tmp/log-ign" 2>&1 &
pid_ign=$!
env --default-signal=HUP,INT,QUIT STC_TRACE_ONLY="gzip.$ARCH" \
    "$REPO/traces/make-traces.sh" "$other_dfl" >"$tmp/log-dfl" 2>&1 &
pid_dfl=$!
wait "$pid_ign" || { cat "$tmp/log-ign" >&2; die "make-traces.sh failed in $other_ign"; }
wait "$pid_dfl" || { cat "$tmp/log-dfl" >&2; die "make-traces.sh failed in $other_dfl"; }
bad=0
for item in "crc.$ARCH $other_ign ignored" "gzip.$ARCH $other_ign ignored" "gzip.$ARCH $other_dfl default"; do
    read -r name other signals <<<"$item"
    differs=0
    for f in "$name.lackey.zst" "$name.counts" "$name.stamp"; do
        if ! cmp -s "$DIR/$f" "$other/$f"; then
            echo "traces-check: FAIL: $f differs between $DIR (path ${#DIR} characters) and $other" \
                "(${#other}, HUP INT QUIT $signals)" >&2
            differs=1
        fi
    done
    if [ $differs -ne 0 ]; then
        echo "traces-check: $name: first differing lines:" >&2
        diff <(zstd -dc "$DIR/$name.lackey.zst") <(zstd -dc "$other/$name.lackey.zst") | head -n 6 >&2 || true
        bad=1
        continue
    fi
    echo "traces-check: $name made in a folder whose path is ${#other} characters long (TRACEDIR's: ${#DIR})," \
        "HUP INT QUIT $signals, is the same bytes as TRACEDIR's" \
        "($(awk 'NR <= 4 { n += $2 } END { print n }' "$DIR/$name.counts") references): OK"
done

# shellcheck source=../traces/fixed-cwd.sh
. "$REPO/traces/fixed-cwd.sh"
ndeb=0
for name in $(awk '!/^#/ && $3 == "real-debian" { print $1 }' "$DIR/index.txt"); do
    cwd=$(sed -n 's/^cwd: //p' "$DIR/$name.cmd")
    prefix=$(sed -n 's/^prefix: //p' "$DIR/$name.cmd")
    command=$(sed -n 's/^command: //p' "$DIR/$name.cmd")
    # The prefix without setarch and valgrind (env -i VARS setarch ARCH -R
    # valgrind OPTS): setarch, itself a dynamic program, would show its own
    # search (for the host's libc, in the cache) in the log.
    native=${prefix%% setarch *}
    [ "$native" != "$prefix" ] && [ "${native#env -i --default-signal }" != "$native" ] ||
        die "$DIR/$name.cmd: unexpected prefix '$prefix'"
    rundir=$(fixed_cwd_make "$DIR" "$cwd" "${command%% *}") || die "cannot make a working directory in /tmp"
    # shellcheck disable=SC2086 # the recorded words, split as make-traces.sh ran them
    (cd "$rundir/$cwd" && env -i --default-signal LD_DEBUG=libs ${native#env -i --default-signal } $command >/dev/null 2>"$tmp/ld.log" </dev/null) || true
    fixed_cwd_remove "$rundir"
    if ! grep -q 'find library=' "$tmp/ld.log"; then
        echo "traces-check: FAIL: $name: LD_DEBUG=libs printed no library search (see the run in $DIR/$name.cmd)" >&2
        bad=1
    elif grep -q 'search cache=' "$tmp/ld.log"; then
        echo "traces-check: FAIL: $name: the loader searches its cache for $(awk '
            /find library=/ { lib = $0; sub(/.*library=/, "", lib); sub(/[ ;].*/, "", lib) }
            /search cache=/ { print lib; exit }' "$tmp/ld.log"): the trace depends on the host's installed packages" >&2
        bad=1
    else
        ndeb=$((ndeb + 1))
    fi
done
[ $bad -eq 0 ] || exit 1
echo "traces-check: $ndeb Debian programs load every library without the loader's cache: OK"
