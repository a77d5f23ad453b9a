#!/usr/bin/env bash
# make-unseen-traces.sh OUTDIR - traces of real programs the project was not
# developed on (issue 13, "programs the project has not seen"): an opt-in
# set, kept apart from make-traces.sh's 13 (never write them into its
# directory), for checking that the tuner's defaults generalise.
#
# Made exactly as make-traces.sh makes its Debian-program traces (this
# script sources it and uses its functions: same architecture choice,
# private root of Debian ARCH packages unpacked with apt-get download +
# dpkg -x, env -i, setarch -R, valgrind --vex-iropt-level=0 lackey, stamps,
# NAME.cmd / NAME.counts / NAME.stamp, index.txt, arch.txt), with its own
# programs, root (OUTDIR/ARCH/root) and inputs (traces/gen-unseen-inputs.c,
# integer arithmetic and a fixed seed: the same bytes on every run):
#
#   pbmtog3   netpbm's G3 fax encoder: a generated strip of a fax page,
#             1728 (G3's width) x 64 pixels: text lines in a made-up font,
#             rules, a table row                          1.78 M references
#   flac-d    flac -d: FLAC decoding, 44.1 kHz stereo, 3200 frames (made by
#             flac -5 from a generated WAV)                  2.19 M
#   bzip2-d   bzip2 -d: decompressing 9000 bytes of a generated log file
#             (made by bzip2 -9)                             1.95 M
#   mpg123    MPEG-1 layer III decoding (mpg123; made by lame, 128 kbit/s,
#             from the same WAV)                             1.70 M
#   speexdec  Speex narrowband speech decoding: 8 kHz mono, eight 20 ms
#             frames (made by speexenc, Ogg serial fixed)    1.68 M
#   md5sum    coreutils' md5sum of a 100 000-byte generated log file
#                                                            1.36 M
# (i386, valgrind 3.19; ~1.5-2 min for all six with 2 jobs on a busy
# 2-core machine, 15 s of it downloading and unpacking 68 packages.)
#
# Not for tests/oracle-cachegrind.sh as it stands: it runs make-traces.sh
# on the directory it is given, which replaces OUTDIR/ARCH/root with
# make-traces.sh's packages (these traces' commands then fail).
#
# Same bytes for the same command wherever OUTDIR lies: make-traces.sh's
# make_trace writes valgrind's ==PID== prefix as ==0== and runs the program
# in a working directory of fixed path length (traces/fixed-cwd.sh; before,
# crc.i386 made under /tmp/mt-new had its stack 16 bytes away from
# build/traces' and 9 more references).
#
# Environment: STC_TRACE_JOBS, STC_TRACE_ONLY (names such as md5sum.i386),
# STC_TRACE_ARCH: as for make-traces.sh.
set -euo pipefail

# shellcheck source=traces/make-traces.sh
. "$(cd "$(dirname "$0")" && pwd)/make-traces.sh"
# shellcheck disable=SC2034 # read by make-traces.sh's functions
TRACE_TOOL=make-unseen-traces

trace_setup "$@"
case $OUT in
*/build/traces | */build/traces/*) die "$OUT: make-traces.sh's directory; give another (e.g. build/unseen)" ;;
esac

# The Debian packages (of ARCH) whose programs are traced or make inputs.
# shellcheck disable=SC2034 # read by setup_root (make-traces.sh)
DEB_PROGRAMS="netpbm flac lame mpg123 speex coreutils bzip2"
prepare_root

say "building the input generator"
build "$OUT/bin/gen-unseen-inputs" "gcc -O2 -std=c11 -Wall -Wextra -Werror" "$HERE/gen-unseen-inputs.c"

# ------------------------------------------------------------- inputs ---
GEN=$OUT/bin/gen-unseen-inputs
IN=$OUT/inputs
R=$ARCH/root/usr/bin
say "making inputs"
# A strip of a fax page: 1728 pixels (G3's width) by 64 rows.
"$GEN" pbm 1728 64 >"$IN/page.pbm.new" || die "gen-unseen-inputs pbm failed"
update "$IN/page.pbm"
# Music: 44.1 kHz stereo, 3200 frames (73 ms): FLAC (flac -5, 1152-frame
# blocks: 3 blocks) and MP3 (lame, 128 kbit/s: 4 frames and the Xing frame).
"$GEN" wav 44100 2 3200 >"$IN/music.wav.new" || die "gen-unseen-inputs wav failed"
update "$IN/music.wav"
runroot "$R/flac" -s -5 -b 1152 -f -o inputs/music.flac.new inputs/music.wav ||
    die "flac failed to make the FLAC input"
update "$IN/music.flac"
runroot "$R/lame" --quiet -b 128 inputs/music.wav inputs/music.mp3.new || die "lame failed to make the MP3 input"
update "$IN/music.mp3"
# Speech-band audio: 8 kHz mono, 1280 samples (eight 20 ms Speex narrowband
# frames). speexenc picks the Ogg stream's serial number at random: set to 1.
"$GEN" wav 8000 1 1280 >"$IN/voice.wav.new" || die "gen-unseen-inputs wav failed"
update "$IN/voice.wav"
runroot "$R/speexenc" --quiet -n inputs/voice.wav inputs/voice.spx.tmp || die "speexenc failed to make the Speex input"
"$GEN" oggserial 1 <"$IN/voice.spx.tmp" >"$IN/voice.spx.new" || die "gen-unseen-inputs oggserial failed"
rm -f "$IN/voice.spx.tmp"
update "$IN/voice.spx"
# A log file: 100 000 bytes for md5sum; 9000 bytes compressed by bzip2 -9
# for bzip2 -d.
"$GEN" log 100000 >"$IN/log.txt.new" || die "gen-unseen-inputs log failed"
update "$IN/log.txt"
"$GEN" log 9000 >"$IN/log-short.txt.new" || die "gen-unseen-inputs log failed"
update "$IN/log-short.txt"
runroot "$ARCH/root/bin/bzip2" -9 -c inputs/log-short.txt >"$IN/log-short.txt.bz2.new" ||
    die "bzip2 failed to make the bzip2 input"
update "$IN/log-short.txt.bz2"

# ------------------------------------------------------------- traces ---
# Longest first, so that the parallel runs end together. mpg123.bin: the
# program itself (/usr/bin/mpg123 is an alternatives link, made by dpkg's
# postinst, not part of the package). ORACLE: a cachegrind run of the same
# command (NAME.cmd) was compared by hand on 8K_4W_32B, 2K_1W_16B and
# 4K_2W_64B (2026-12-04): exact for pbmtog3, bzip2-d, speexdec and md5sum;
# not for flac-d, which reads its CPU time after every block (clock(), for
# its progress display) and so runs 138 instructions fewer under the faster
# cachegrind, nor for mpg123 (same I/L/S counts, 1-5 data misses apart: some
# addresses differ, cause not found).
add "flac-d.$ARCH"   real-debian no  . "$R/flac" -s -d -c inputs/music.flac
add "pbmtog3.$ARCH"  real-debian yes . "$R/pbmtog3" inputs/page.pbm
add "bzip2-d.$ARCH"  real-debian yes . "$ARCH/root/bin/bzip2" -d -c inputs/log-short.txt.bz2
add "mpg123.$ARCH"   real-debian no  . "$R/mpg123.bin" -q -s inputs/music.mp3
add "speexdec.$ARCH" real-debian yes . "$R/speexdec" --quiet inputs/voice.spx -
add "md5sum.$ARCH"   real-debian yes . "$R/md5sum" inputs/log.txt

trace_prefixes
run_traces

# -------------------------------------------------------------- index ---
{
    echo "# name arch class oracle_comparable trace main_trace(- if none)"
    echo "# class: real-debian = Debian's $ARCH program, dynamically linked, stripped"
    echo "# programs the project was not developed on (traces/make-unseen-traces.sh)"
    index_lines
} >"$OUT/index.txt"
echo "$ARCH" >"$OUT/arch.txt"
say "done: $(grep -vc '^#' "$OUT/index.txt") traces in $OUT (list: $OUT/index.txt)"
