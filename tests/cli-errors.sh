#!/bin/bash
# Bad input to stcsim: each case must exit non-zero, print a message naming
# the problem on stderr, and write nothing to stdout (no half report).
set -u
STCSIM=${1:?usage: cli-errors.sh STCSIM}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# expect_error NAME EXPECTED-STDERR-SUBSTRING -- stcsim arguments...
expect_error() {
    local name=$1 expected=$2
    shift 3
    local status=0
    "$STCSIM" "$@" >"$work/out" 2>"$work/err" <"${STDIN_FILE:-/dev/null}" || status=$?
    if [ "$status" -eq 0 ]; then
        echo "FAIL $name: exit status 0"; failed=$((failed + 1)); return
    fi
    if [ -s "$work/out" ]; then
        echo "FAIL $name: wrote to stdout:"; head -3 "$work/out"; failed=$((failed + 1)); return
    fi
    if ! grep -qF -- "$expected" "$work/err"; then
        echo "FAIL $name: stderr lacks '$expected':"; cat "$work/err"; failed=$((failed + 1)); return
    fi
    passed=$((passed + 1))
}

printf 'I  0400a000,4\n L 0800fff0,4\n Q 12,4\n' >"$work/bad-record.lackey"
printf '2 400a00\n0 zz12\n' >"$work/bad-addr.din"
printf '2 400a00\n7 1234\n' >"$work/bad-label.din"
printf 'I  0400a000,0\n' >"$work/zero-size.lackey"
printf 'I  0400a000,4\n L 0800fff0\n' >"$work/no-size.lackey"
printf 'I  0400a000,4\n' >"$work/good.lackey"
for i in $(seq 1 20000); do printf 'I  %08x,4\n' $((i * 4)); done >"$work/long.lackey"
zstd -q -c "$work/long.lackey" | head -c 2000 >"$work/truncated.lackey.zst"
gzip -c "$work/long.lackey" | head -c 2000 >"$work/truncated.lackey.gz"
# a damaged zstd checksum (its last 4 bytes) and gzip CRC (the 4 before the length)
zstd -q -c "$work/long.lackey" >"$work/whole.zst"
size=$(stat -c %s "$work/whole.zst")
{ head -c $((size - 1)) "$work/whole.zst"; printf '\x00'; } >"$work/bad-check.lackey.zst"
[ "$(tail -c 1 "$work/whole.zst" | od -An -tx1 | tr -d ' ')" != 00 ] ||
    { head -c $((size - 1)) "$work/whole.zst"; printf '\x01'; } >"$work/bad-check.lackey.zst"
gzip -c "$work/long.lackey" >"$work/whole.gz"
size=$(stat -c %s "$work/whole.gz")
{ head -c $((size - 8)) "$work/whole.gz"; printf '\x00\x00\x00\x00'; tail -c 4 "$work/whole.gz"; } >"$work/bad-check.lackey.gz"
# a syntax error inside a compressed trace still names FILE:LINE
gzip -c "$work/bad-record.lackey" >"$work/bad-record.lackey.gz"
zstd -q -c "$work/bad-record.lackey" >"$work/bad-record.lackey.zst"

expect_error bad-record    "bad-record.lackey:3:" -- "$work/bad-record.lackey"
expect_error bad-address   "bad-addr.din:2:"      -- "$work/bad-addr.din"
expect_error bad-label     "bad-label.din:2:"     -- "$work/bad-label.din"
expect_error zero-size     "zero-size.lackey:1:"  -- "$work/zero-size.lackey"
expect_error missing-size  "no-size.lackey:2:"    -- "$work/no-size.lackey"
STDIN_FILE="$work/bad-record.lackey" expect_error stdin-error "<stdin>:3:" -- -
expect_error truncated-zst "truncated.lackey.zst: truncated zstd data" -- "$work/truncated.lackey.zst"
expect_error truncated-gz  "truncated.lackey.gz: truncated gzip data" -- "$work/truncated.lackey.gz"
STDIN_FILE="$work/truncated.lackey.zst" expect_error stdin-truncated-zst "<stdin>: truncated zstd data" -- -
STDIN_FILE="$work/truncated.lackey.gz" expect_error stdin-truncated-gz "<stdin>: truncated gzip data" -- -
expect_error corrupt-zst   "bad-check.lackey.zst: corrupt zstd data: Restored data doesn't match checksum" -- "$work/bad-check.lackey.zst"
expect_error corrupt-gz    "bad-check.lackey.gz: corrupt gzip data: incorrect data check" -- "$work/bad-check.lackey.gz"
expect_error record-in-gz  "bad-record.lackey.gz:3:" -- "$work/bad-record.lackey.gz"
STDIN_FILE="$work/bad-record.lackey.zst" expect_error record-in-zst-stdin "<stdin>:3:" -- -
expect_error no-file       "$work/nonexistent"    -- "$work/nonexistent"
expect_error no-trace      "no trace given"       --
expect_error two-traces    "more than one trace"  -- "$work/good.lackey" "$work/good.lackey"
expect_error bad-format    "--format 'xml'"       -- --format xml "$work/good.lackey"
expect_error unknown-opt   "unknown option '--frobnicate'" -- --frobnicate "$work/good.lackey"
expect_error missing-value "option --config needs a value" -- "$work/good.lackey" --config
expect_error geom-banks    "banks=3: must be a power of two" -- --geometry banks=3 "$work/good.lackey"
expect_error geom-line     "line_bytes=2:"        -- -g line_bytes=2 "$work/good.lackey"
expect_error geom-bank     "bank_bytes=32:"       -- -g bank_bytes=32 "$work/good.lackey"
expect_error geom-addr     "addr_bits=12:"        -- -g addr_bits=12 "$work/good.lackey"
expect_error geom-unknown  "geometry parameter 'size' unknown" -- -g size=4 "$work/good.lackey"
expect_error geom-number   "banks=four: not a decimal number" -- -g banks=four "$work/good.lackey"
expect_error config-assoc  "configuration '2K_2W_16B' is illegal" -- -c 2K_2W_16B "$work/good.lackey"
expect_error config-wp     "way prediction needs an associativity" -- -c 8K_1W_16B_P "$work/good.lackey"
expect_error config-syntax "configuration 'banana': expected" -- -c banana "$work/good.lackey"
expect_error config-line   "line 8 B is not" -- -c 8K_4W_8B "$work/good.lackey"
expect_error config-lines  "the logical line must be 1, 2 or 4 physical lines" -- -c 8K_4W_48B "$work/good.lackey"
expect_error config-size   "size 3072 B is not a whole number" -- -c 3K_1W_16B "$work/good.lackey"
expect_error order-bad     "--order 'sideways'" -- --reconfig-every 10 --order sideways "$work/good.lackey"
expect_error order-list    "configuration '9K_1W_16B'" -- --reconfig-every 10 --order list:8K_1W_16B,9K_1W_16B "$work/good.lackey"
expect_error order-alone   "--order needs --reconfig-every" -- --order ascending "$work/good.lackey"
expect_error engine-bad    "--engine 'fast': expected stack or model" -- --engine fast "$work/good.lackey"
expect_error limit-overflow "--limit '99999999999999999999999'" -- --limit 99999999999999999999999 "$work/good.lackey"
expect_error every-zero    "--reconfig-every '0'" -- --reconfig-every 0 "$work/good.lackey"

printf 'stc-energy-table 1\nbogus 1 nJ\n' >"$work/bad.energy"
expect_error energy-missing "--energy: $work/nonexistent.energy: cannot open" -- --energy "$work/nonexistent.energy" "$work/good.lackey"
expect_error energy-bad    "bad.energy:2: unknown entry 'bogus'" -- --energy "$work/bad.energy" "$work/good.lackey"
expect_error tune-no-trace "stcsim tune: no trace given" -- tune
expect_error tune-window   "--window '0': expected 1..65535" -- tune --mode hardware --window 0 "$work/good.lackey"
expect_error tune-order    "'size' appears twice" -- tune --order size,size,line,wp "$work/good.lackey"
expect_error tune-mode     "--mode 'fast': expected oracle or hardware" -- tune --mode fast "$work/good.lackey"
expect_error tune-search   "--search 'best': expected heuristic, exhaustive, probe or monitor" -- tune --search best "$work/good.lackey"
expect_error tune-margin   "--margin '32': expected a shift, 0..31" -- tune --margin 32 "$work/good.lackey"
expect_error tune-rounds   "--probe-rounds '0': expected 1..64" -- tune --mode hardware --search probe --probe-rounds 0 "$work/good.lackey"
expect_error tune-sample   "monitor sample bits 6: this geometry allows 0..5" -- tune --mode hardware --search monitor --sample-bits 6 "$work/good.lackey"
expect_error tune-sample-range "--sample-bits '17': expected 0..16" -- tune --mode hardware --search monitor --sample-bits 17 "$work/good.lackey"
expect_error tune-decay    "--decay '17': expected a shift, 0..16" -- tune --mode hardware --search monitor --decay 17 "$work/good.lackey"
expect_error tune-tag-bits "--tag-bits '33': expected 0..32" -- tune --mode hardware --search monitor --tag-bits 33 "$work/good.lackey"
expect_error tune-counter-bits "--counter-bits '1': expected 0 (unbounded) or 2..32" -- tune --mode hardware --search monitor --counter-bits 1 "$work/good.lackey"
expect_error tune-rotate  "--rotate 'x': expected a count of accesses" -- tune --mode hardware --search monitor --rotate x "$work/good.lackey"
expect_error tune-rotate-hw "--rotate applies to --mode hardware only" -- tune --search monitor --rotate 100 "$work/good.lackey"
expect_error tune-decay-hw "--decay applies to --mode hardware only" -- tune --search monitor --decay 2 "$work/good.lackey"
expect_error tune-rounds-hw "--probe-rounds applies to --mode hardware only" -- tune --search probe --probe-rounds 2 "$work/good.lackey"
expect_error tune-order-probe "--order applies to --search heuristic only" -- tune --search probe --order size,line,assoc,wp "$work/good.lackey"
expect_error tune-order-hw "(the hardware mode's default search is monitor)" -- tune --mode hardware --order size,line,assoc,wp "$work/good.lackey"
expect_error tune-timeline "--timeline '0': expected a positive number of accesses" -- tune --mode hardware --timeline 0 "$work/good.lackey"
expect_error tune-timeline-hw "--timeline applies to --mode hardware only" -- tune --timeline 100 "$work/good.lackey"
expect_error tune-no-moves-hw "--no-walk-moves applies to --mode hardware only" -- tune --no-walk-moves "$work/good.lackey"
expect_error tune-trace    "bad-record.lackey:3:" -- tune "$work/bad-record.lackey"
expect_error tune-geometry "banks=3: must be a power of two" -- tune -g banks=3 "$work/good.lackey"

# The good trace must succeed, so the cases above fail for their own reason.
if "$STCSIM" -c 8K_4W_32B "$work/good.lackey" >"$work/out" 2>"$work/err" && grep -q 8K_4W_32B "$work/out"; then
    passed=$((passed + 1))
else
    echo "FAIL good-trace: stcsim rejected a good trace:"; cat "$work/err"; failed=$((failed + 1))
fi
# Compressed input gives the report of the plain text: one gzip member or
# zstd frame, several concatenated (as `cat a.gz b.gz`, which gzip -d and
# zstd -d read as the joined text), on stdin, and compressed empty input.
# expect_same NAME PLAIN-TRACE -- stcsim arguments... (stdin: $STDIN_FILE)
expect_same() {
    local name=$1 plain=$2
    shift 3
    local status=0
    "$STCSIM" -c 8K_4W_32B -c 2K_1W_16B "$plain" 2>&1 | sed 1d >"$work/want"
    "$STCSIM" -c 8K_4W_32B -c 2K_1W_16B "$@" >"$work/out" 2>"$work/err" <"${STDIN_FILE:-/dev/null}" || status=$?
    if [ "$status" -ne 0 ]; then
        echo "FAIL $name: exit status $status:"; cat "$work/err"; failed=$((failed + 1)); return
    fi
    if ! sed 1d "$work/out" | cmp -s - "$work/want"; then
        echo "FAIL $name: the report differs from the plain trace's"; failed=$((failed + 1)); return
    fi
    passed=$((passed + 1))
}
head -n 7000 "$work/long.lackey" >"$work/part1.lackey"
tail -n +7001 "$work/long.lackey" >"$work/part2.lackey"
: >"$work/empty"
for tool in gzip zstd; do
    "$tool" -q -c "$work/long.lackey" >"$work/one.$tool"
    { "$tool" -q -c "$work/part1.lackey"; "$tool" -q -c "$work/empty"; "$tool" -q -c "$work/part2.lackey"; } >"$work/joined.$tool"
    "$tool" -q -c "$work/empty" >"$work/empty.$tool"
    expect_same "$tool-one" "$work/long.lackey" -- "$work/one.$tool"
    expect_same "$tool-concatenated" "$work/long.lackey" -- "$work/joined.$tool"
    STDIN_FILE="$work/joined.$tool" expect_same "$tool-concatenated-stdin" "$work/long.lackey" -- -
    STDIN_FILE=<(cat "$work/one.$tool") expect_same "$tool-stdin-pipe" "$work/long.lackey" -- -
    expect_same "$tool-empty" "$work/empty" -- "$work/empty.$tool"
    STDIN_FILE="$work/empty.$tool" expect_same "$tool-empty-stdin" "$work/empty" -- -
done

# The hardware mode's default is the generated hardware's default tuner
# (the monitor search, window 256, margin 7); --search heuristic the seed's.
if "$STCSIM" tune --mode hardware "$work/good.lackey" >"$work/out" 2>"$work/err" &&
    grep -q "^mode hardware, monitor search" "$work/out" && grep -q "^window 256 accesses" "$work/out" &&
    "$STCSIM" tune --mode hardware --search heuristic "$work/good.lackey" >"$work/out" 2>"$work/err" &&
    grep -q "^mode hardware, heuristic search" "$work/out" && grep -q "^window 1024 accesses" "$work/out"; then
    passed=$((passed + 1))
else
    echo "FAIL tune-defaults: the hardware mode's default search or window:"; cat "$work/out" "$work/err"
    failed=$((failed + 1))
fi
echo "cli-errors: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
