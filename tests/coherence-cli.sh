#!/bin/bash
# `stcsim coherence` (docs/COHERENCE.md section 9): bad trace lines give
# FILE:LINE errors, bad options name the option (exit 2), nothing reaches
# stdout on an error, and a tiny trace gives totals worked out by hand, the
# same from plain, gzip and zstd input. Usage: coherence-cli.sh STCSIM
set -u
STCSIM=${1:?usage: coherence-cli.sh STCSIM}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# expect_error NAME STATUS EXPECTED-STDERR-SUBSTRING -- arguments...
expect_error() {
    local name=$1 want_status=$2 expected=$3
    shift 4
    local status=0
    "$STCSIM" coherence "$@" >"$work/out" 2>"$work/err" </dev/null || status=$?
    if [ "$status" -ne "$want_status" ]; then
        echo "FAIL $name: exit status $status, want $want_status"; cat "$work/err"
        failed=$((failed + 1)); return
    fi
    if [ -s "$work/out" ]; then
        echo "FAIL $name: wrote to stdout:"; head -3 "$work/out"; failed=$((failed + 1)); return
    fi
    if ! grep -qF -- "$expected" "$work/err"; then
        echo "FAIL $name: stderr lacks '$expected':"; cat "$work/err"; failed=$((failed + 1)); return
    fi
    passed=$((passed + 1))
}

# expect_total NAME OUTPUT-FILE COUNTER VALUE: the total column of a counter row
expect_total() {
    local name=$1 file=$2 counter=$3 want=$4
    local got
    got=$(awk -v c="$counter" '$1 == c { print $NF }' "$file")
    if [ "$got" != "$want" ]; then
        echo "FAIL $name: $counter total '$got', want $want"; failed=$((failed + 1)); return
    fi
    passed=$((passed + 1))
}

printf '0 0 100\n0 7 100\n' >"$work/bad-label.txt"
printf '0 0 100\n# comment\n\n3 0 100\n' >"$work/core-range.txt"
printf '1 1 100\n0 0 zz12\n' >"$work/bad-hex.txt"
printf 'x 0 100\n' >"$work/bad-core.txt"
printf '0 0 100 0\n' >"$work/bad-size.txt"
printf '0 0 100 64\n' >"$work/size-line.txt"
printf '0 0 100 4 9\n' >"$work/extra.txt"
printf '0\n' >"$work/no-label.txt"

expect_error bad-label   1 "bad-label.txt:2: bad label '7'"   -- "$work/bad-label.txt"
expect_error core-range  1 "core-range.txt:4: core 3 out of range" -- --cores 2 "$work/core-range.txt"
expect_error bad-hex     1 "bad-hex.txt:2: bad address 'zz12'" -- "$work/bad-hex.txt"
expect_error bad-core    1 "bad-core.txt:1: bad core 'x'"     -- "$work/bad-core.txt"
expect_error bad-size    1 "bad-size.txt:1: bad size '0'"     -- "$work/bad-size.txt"
expect_error size-line   1 "size-line.txt:1: size 64 larger than the line" -- "$work/size-line.txt"
expect_error extra-field 1 "extra.txt:1: unexpected '9'"      -- "$work/extra.txt"
expect_error no-label    1 "no-label.txt:1: missing label"    -- "$work/no-label.txt"
expect_error missing     1 "nonexistent.txt"                  -- "$work/nonexistent.txt"
expect_error protocol    2 "--protocol"                       -- --protocol mosi "$work/bad-label.txt"
expect_error cores       2 "--cores '9'"                      -- --cores 9 "$work/bad-label.txt"
expect_error ways        2 "--size/--ways/--line"             -- --ways 3 "$work/bad-label.txt"
expect_error line        2 "--line"                           -- --line 24 "$work/bad-label.txt"
expect_error no-value    2 "--size needs a value"             -- --size
expect_error unknown     2 "unknown option '--bogus'"         -- --bogus "$work/bad-label.txt"
expect_error no-trace    2 "no trace given"                   --

# The tiny trace (2 cores, one block): c0 reads, c1 reads, c0 writes (an
# upgrade invalidating c1), c1 reads again (a true-sharing miss served by
# c0's M copy), and one fetch. Worked out by hand for every protocol: MSI
# and MESI flush on the supply, MOESI does not.
printf '0 0 100\n1 0 100\n0 2 4000\n0 1 100\n1 0 100\n' >"$work/tiny.txt"
for protocol in msi mesi moesi; do
    out="$work/tiny-$protocol.out"
    status=0
    "$STCSIM" coherence --cores 2 --protocol "$protocol" "$work/tiny.txt" >"$out" 2>"$work/err" || status=$?
    if [ "$status" -ne 0 ]; then
        echo "FAIL tiny $protocol: exit status $status"; cat "$work/err"; failed=$((failed + 1)); continue
    fi
    expect_total "tiny $protocol" "$out" references 4
    expect_total "tiny $protocol" "$out" loads 3
    expect_total "tiny $protocol" "$out" stores 1
    expect_total "tiny $protocol" "$out" fetches 1
    expect_total "tiny $protocol" "$out" hits 1
    expect_total "tiny $protocol" "$out" misses 3
    expect_total "tiny $protocol" "$out" upgrades 1
    expect_total "tiny $protocol" "$out" bus_rd 3
    expect_total "tiny $protocol" "$out" bus_rdx 0
    expect_total "tiny $protocol" "$out" inv_sent 1
    expect_total "tiny $protocol" "$out" inv_received 1
    expect_total "tiny $protocol" "$out" c2c_supplied 1
    expect_total "tiny $protocol" "$out" mem_reads 2
    expect_total "tiny $protocol" "$out" snoop_lookups 4
    expect_total "tiny $protocol" "$out" miss_compulsory 2
    expect_total "tiny $protocol" "$out" miss_true_sharing 1
    expect_total "tiny $protocol" "$out" miss_false_sharing 0
    if [ "$protocol" = moesi ]; then
        expect_total "tiny $protocol" "$out" flushes 0
    else
        expect_total "tiny $protocol" "$out" flushes 1
    fi
    if grep -q '^violations: 0 ' "$out"; then passed=$((passed + 1)); else
        echo "FAIL tiny $protocol: no 'violations: 0' line"; failed=$((failed + 1)); fi
done

# Compressed input and stdin give the same report.
"$STCSIM" coherence --cores 2 "$work/tiny.txt" | sed 1d >"$work/plain.out"
for tool in gzip zstd; do
    if ! command -v "$tool" >/dev/null; then
        echo "SKIP $tool: not installed"; continue
    fi
    "$tool" -q -c "$work/tiny.txt" >"$work/tiny.$tool"
    if "$STCSIM" coherence --cores 2 "$work/tiny.$tool" | sed 1d | cmp -s - "$work/plain.out" &&
        "$STCSIM" coherence --cores 2 - <"$work/tiny.$tool" | sed 1d | cmp -s - "$work/plain.out"; then
        passed=$((passed + 1))
    else
        echo "FAIL $tool input: report differs from the plain trace's"; failed=$((failed + 1))
    fi
done
# A longer trace (several of the reader's buffers), compressed both ways,
# whole, as concatenated members/frames, on stdin; cut short, damaged, or
# with a bad line inside: an error naming the file (and line).
for i in $(seq 1 30000); do printf '%d %d %x\n' $((i % 2)) $((i % 3 == 0)) $((i * 64 % 40000)); done >"$work/long.txt"
head -n 12345 "$work/long.txt" >"$work/long1.txt"
tail -n +12346 "$work/long.txt" >"$work/long2.txt"
"$STCSIM" coherence --cores 2 "$work/long.txt" | sed 1d >"$work/long.out"
printf '0 0 100\n1 0 100\n0 9 100\n' >"$work/bad-line.txt"
for tool in gzip zstd; do
    if ! command -v "$tool" >/dev/null; then
        echo "SKIP $tool: not installed"; continue
    fi
    "$tool" -q -c "$work/long.txt" >"$work/long.$tool"
    { "$tool" -q -c "$work/long1.txt"; "$tool" -q -c "$work/long2.txt"; } >"$work/joined.$tool"
    ok=true
    for input in "$work/long.$tool" "$work/joined.$tool"; do
        "$STCSIM" coherence --cores 2 "$input" | sed 1d | cmp -s - "$work/long.out" || ok=false
        "$STCSIM" coherence --cores 2 - <"$input" | sed 1d | cmp -s - "$work/long.out" || ok=false
    done
    if $ok; then passed=$((passed + 1)); else
        echo "FAIL long $tool input: report differs from the plain trace's"; failed=$((failed + 1)); fi
    head -c 300 "$work/long.$tool" >"$work/trunc.$tool"
    expect_error "truncated $tool" 1 "trunc.$tool: truncated $tool data" -- --cores 2 "$work/trunc.$tool"
    { cat "$work/long.$tool"; printf 'junk'; } >"$work/junk.$tool"
    expect_error "trailing junk $tool" 1 "junk.$tool: corrupt $tool data" -- --cores 2 "$work/junk.$tool"
    "$tool" -q -c "$work/bad-line.txt" >"$work/bad-line.$tool"
    expect_error "bad line in $tool" 1 "bad-line.$tool:3: bad label '9'" -- --cores 2 "$work/bad-line.$tool"
done

# --json: one object, the same totals.
if "$STCSIM" coherence --cores 2 --json "$work/tiny.txt" >"$work/tiny.json" &&
    grep -q '"total": {"references": 4, ' "$work/tiny.json" &&
    grep -q '"violations": {"count": 0, ' "$work/tiny.json"; then
    if command -v jq >/dev/null && ! jq -e '.total.miss_true_sharing == 1 and (.per_core | length) == 2' \
        "$work/tiny.json" >/dev/null; then
        echo "FAIL json: jq disagrees"; failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
else
    echo "FAIL json"; cat "$work/tiny.json"; failed=$((failed + 1))
fi

# Energy (docs/ENERGY.md 3.9): the total is the sum of the cores' and of
# its parts, each part its counter times its term; a cache stc cannot
# build (3 ways) is reported unpriced, not as a number.
if command -v jq >/dev/null && jq -e '
    def close($a; $b): (($a - $b) | fabs) <= 1e-3 * ([($a | fabs), ($b | fabs), 1] | max);
    .energy_nj as $e | .energy_terms_nj as $t | .total as $c
    | close($e.total.total; [$e.per_core[].total] | add)
      and close($e.total.total; $e.total.access + $e.total.snoop + $e.total.memory_read
                                + $e.total.c2c + $e.total.memory_write + $e.total.bus)
      and close($e.total.access; ($c.hits + $c.misses) * $t.access)
      and close($e.total.memory_read; $c.mem_reads * $t.memory_read)
      and close($e.total.c2c; $c.c2c_received * $t.c2c)
      and close($e.total.bus; ($c.bus_rd + $c.bus_rdx + $c.upgrades + $c.bus_wb) * $t.bus_address)
      and $t.c2c < $t.memory_read and $e.total.total > 0' "$work/tiny.json" >/dev/null; then
    passed=$((passed + 1))
else
    echo "FAIL energy of the tiny trace"; jq '.energy_terms_nj, .energy_nj' "$work/tiny.json"
    failed=$((failed + 1))
fi
if "$STCSIM" coherence --cores 2 --ways 3 --size 6144 --json "$work/tiny.txt" >"$work/ways3.json" &&
    grep -q '"energy_nj": null, "energy_note": "energy model: 6144 B 3-way' "$work/ways3.json"; then
    passed=$((passed + 1))
else
    echo "FAIL a 3-way cache is not priced"; cat "$work/ways3.json"; failed=$((failed + 1))
fi

# --snoop-filter (docs/COHERENCE.md 9.8): bad values exit 2 naming the
# option; "none" is the default's report byte for byte; a three-core MSI
# trace worked out by hand: c0 reads X (c1 and c2 probe, miss, record X),
# c0 writes X (BusUpgr: both filtered), c1 reads X (its fill drops X; c0
# probes, c2 filtered), c2 writes X (its fill drops X; c0 and c1 probe and
# are invalidated). Every other counter is the unfiltered run's.
expect_error filter-kind  2 "--snoop-filter 'jetty': expected none, exclude" -- --snoop-filter jetty "$work/tiny.txt"
expect_error filter-sets  2 "--snoop-filter 'exclude:24x4': sets must be a power of two" -- --snoop-filter exclude:24x4 "$work/tiny.txt"
expect_error filter-ways  2 "--snoop-filter 'exclude:8x0': ways must be 1..16" -- --snoop-filter exclude:8x0 "$work/tiny.txt"
expect_error filter-block 2 "--snoop-filter 'exclude:8x1:3': blocks per entry" -- --snoop-filter exclude:8x1:3 "$work/tiny.txt"
expect_error filter-value 2 "--snoop-filter needs a value" -- --snoop-filter
if "$STCSIM" coherence --cores 2 --snoop-filter none "$work/tiny.txt" | cmp -s - <("$STCSIM" coherence --cores 2 "$work/tiny.txt"); then
    passed=$((passed + 1))
else
    echo "FAIL --snoop-filter none: the report differs from the default's"; failed=$((failed + 1))
fi
printf '0 0 1000\n0 1 1000\n1 0 1000\n2 1 1000\n' >"$work/filter.txt"
out="$work/filter.out"
if "$STCSIM" coherence --cores 3 --protocol msi --snoop-filter exclude:32x4 "$work/filter.txt" >"$out" 2>"$work/err"; then
    expect_total filter "$out" snoop_lookups 5
    expect_total filter "$out" snoops_filtered 3
    expect_total filter "$out" snoop_misses 2
    expect_total filter "$out" filter_lookups 11 # 8 snoops, 3 fills
    expect_total filter "$out" filter_writes 7   # 2 records, 3 LRU updates, 2 clears
    expect_total filter "$out" inv_received 2
    if head -1 "$out" | grep -qF 'atomic bus, snoop filter exclude 32x4, 1 block per entry'; then
        passed=$((passed + 1)); else echo "FAIL filter: header"; head -1 "$out"; failed=$((failed + 1)); fi
    "$STCSIM" coherence --cores 3 --protocol msi "$work/filter.txt" >"$work/nofilter.out"
    if diff <(grep -vE '^(stcsim|snoop_lookups|snoops_filtered|snoop_misses|filter_|[a-z_]+_nj )' "$out") \
        <(grep -vE '^(stcsim|snoop_lookups|[a-z_]+_nj )' "$work/nofilter.out") >/dev/null; then
        passed=$((passed + 1))
    else
        echo "FAIL filter: other counters differ from the unfiltered run's"; failed=$((failed + 1))
    fi
else
    echo "FAIL filter: exit status"; cat "$work/err"; failed=$((failed + 1))
fi
# --json with a filter: its counters, its terms, and its energy is lookups
# and writes priced, inside the total.
if command -v jq >/dev/null && "$STCSIM" coherence --cores 3 --protocol msi --snoop-filter exclude:32x4 --json \
    "$work/filter.txt" >"$work/filter.json" && jq -e '
    def close($a; $b): (($a - $b) | fabs) <= 1e-3 * ([($a | fabs), ($b | fabs), 1] | max);
    .energy_nj as $e | .energy_terms_nj as $t | .snoop_filter as $f
    | $f.sets == 32 and $f.ways == 4 and $f.blocks == 1 and $f.total.snoops_filtered == 3
      and ($f.per_core | length) == 3 and .total.snoop_lookups == 5
      and close($e.total.filter; $f.total.filter_lookups * $t.filter_lookup
                                 + $f.total.filter_writes * $t.filter_write)
      and close($e.total.snoop; .total.snoop_lookups * $t.snoop_lookup)
      and close($e.total.total; $e.total.access + $e.total.snoop + $e.total.memory_read
                                + $e.total.c2c + $e.total.memory_write + $e.total.bus + $e.total.filter)
      and close($e.total.total; [$e.per_core[].total] | add)' "$work/filter.json" >/dev/null; then
    passed=$((passed + 1))
else
    echo "FAIL filter json"; cat "$work/filter.json"; failed=$((failed + 1))
fi

# --bus split (docs/COHERENCE.md 10): bad values name the option; --bus
# atomic is the default's report byte for byte; the tiny trace under the
# serial schedule gives the atomic run's hits and misses and request
# counts worked out by hand (c0 GetS, c1 GetS, c0's upgrade GetM, c1 GetS
# from c0's M): MSI from memory 3 and 1 from a cache, one writeback (M to
# S); MESI, MOESI: c0 is granted E, which supplies c1 and writes back (E
# to S), so 2 and 2, and MOESI's M then keeps the data (M to O): 2
# writebacks in MESI, 1 in MOESI. A random schedule: no violation, the
# same report for the same seed.
expect_error bus-bad       2 "--bus: unknown bus model 'ring'"   -- --bus ring "$work/tiny.txt"
expect_error schedule-bad  2 "--schedule 'fifo': must be random or serial" -- --bus split --schedule fifo "$work/tiny.txt"
expect_error seed-bad      2 "--seed 'x1': must be a number"     -- --bus split --seed x1 "$work/tiny.txt"
expect_error seed-atomic   2 "--schedule, --seed and --wb-buffer need --bus split" -- --seed 3 "$work/tiny.txt"
expect_error wb-buffer-big 2 "--wb-buffer '9': must be a number, 0..8" -- --bus split --wb-buffer 9 "$work/tiny.txt"
expect_error wb-buffer-atomic 2 "--wb-buffer need --bus split" -- --wb-buffer 1 "$work/tiny.txt"
# A writeback buffer (COHERENCE.md 10.11): core 0 dirties three blocks of
# one set of its 2-way cache, so the third store evicts an M block; without
# a buffer that store's miss waits for the PutM (a stall), with one entry
# it does not, and the buffer is named; the counters of the run otherwise
# stay the same (serial schedule).
printf '0 1 1000\n0 1 1080\n0 1 1100\n0 0 1000\n1 0 1100\n' >"$work/evict-m.txt"
for entries in 0 1; do
    "$STCSIM" coherence --cores 2 --size 256 --ways 2 --protocol mesi --bus split --schedule serial \
        --wb-buffer "$entries" --json "$work/evict-m.txt" >"$work/wb$entries.json" 2>"$work/err" ||
        { echo "FAIL wb-buffer $entries: exit status"; cat "$work/err"; }
done
if jq -e --slurpfile none "$work/wb0.json" '
        .wb_buffer == 1 and ($none[0] | has("wb_buffer") | not)
        and $none[0].total.stalls == 2 and .total.stalls == 0
        and (.total | del(.stalls, .latency_sum, .latency_max))
            == ($none[0].total | del(.stalls, .latency_sum, .latency_max))' \
        "$work/wb1.json" >/dev/null; then
    passed=$((passed + 1))
else
    echo "FAIL wb-buffer: a buffered eviction should remove the stalls and nothing else"
    jq -c '.total' "$work/wb0.json" "$work/wb1.json"; failed=$((failed + 1))
fi
expect_error split-filter  2 "--snoop-filter: not on the split bus" -- --bus split --snoop-filter exclude "$work/tiny.txt"
expect_error bus-no-value  2 "--bus needs a value"               -- "$work/tiny.txt" --bus
if "$STCSIM" coherence --cores 2 --bus atomic "$work/tiny.txt" >"$work/atomic.out" 2>&1 &&
    "$STCSIM" coherence --cores 2 "$work/tiny.txt" >"$work/default.out" 2>&1 &&
    cmp -s "$work/atomic.out" "$work/default.out"; then
    passed=$((passed + 1))
else
    echo "FAIL bus atomic: not the default's report"; failed=$((failed + 1))
fi
for protocol in msi mesi moesi; do
    out="$work/split-$protocol.out"
    if ! "$STCSIM" coherence --cores 2 --protocol "$protocol" --bus split --schedule serial \
        "$work/tiny.txt" >"$out" 2>"$work/err"; then
        echo "FAIL split $protocol: exit status"; cat "$work/err"; failed=$((failed + 1)); continue
    fi
    case $protocol in
        msi) from_memory=3 from_cache=1 writebacks=1 ;;
        mesi) from_memory=2 from_cache=2 writebacks=2 ;;
        moesi) from_memory=2 from_cache=2 writebacks=1 ;;
    esac
    for pair in references:4 loads:3 stores:1 hits:1 misses:3 gets:3 getm:1 upgrades:1 putm:0 \
        data_from_memory:$from_memory data_from_cache:$from_cache writebacks:$writebacks \
        snoop_observations:4 transactions:4 stalls:0; do
        expect_total "split $protocol" "$out" "${pair%%:*}" "${pair#*:}"
    done
    if grep -q "^violations: 0 " "$out" && head -1 "$out" | grep -q "split bus, schedule serial, seed 1"; then
        passed=$((passed + 1))
    else
        echo "FAIL split $protocol: header or violations"; head -1 "$out"; failed=$((failed + 1))
    fi
done
# a longer trace: 4 cores on 4 blocks, one set of 2-line caches
awk 'BEGIN { s = 7; for (i = 0; i < 3000; i++) { s = (s * 1103515245 + 12345) % 2147483648;
    printf "%d %d %x\n", s % 4, (s / 4) % 3 == 0, 4096 * ((s / 16) % 4) + 4 * ((s / 64) % 8) } }' \
    >"$work/split.txt"
for seed in 1 2; do
    "$STCSIM" coherence --size 64 --ways 2 --bus split --seed $seed "$work/split.txt" \
        >"$work/split-$seed.out" 2>"$work/err" || { echo "FAIL split seed $seed"; cat "$work/err"; }
done
"$STCSIM" coherence --size 64 --ways 2 --bus split --seed 1 "$work/split.txt" >"$work/split-1b.out" 2>&1
expect_total "split random" "$work/split-1.out" references 3000
if grep -q "^violations: 0 " "$work/split-1.out" && grep -q "^violations: 0 " "$work/split-2.out" &&
    cmp -s "$work/split-1.out" "$work/split-1b.out" && ! cmp -s "$work/split-1.out" "$work/split-2.out" &&
    [ "$(awk '$1 == "putm" { print $NF }' "$work/split-1.out")" -gt 0 ]; then
    passed=$((passed + 1))
else
    echo "FAIL split random: violations, or seeds not deterministic"; failed=$((failed + 1))
fi
if command -v jq >/dev/null && "$STCSIM" coherence --bus split --json "$work/tiny.txt" >"$work/split.json" &&
    jq -e '.bus == "split" and .schedule == "random" and .total.references == 4
           and (.per_core | length) == 4 and .violations.count == 0' "$work/split.json" >/dev/null; then
    passed=$((passed + 1))
else
    echo "FAIL split json"; cat "$work/split.json"; failed=$((failed + 1))
fi

# --stc-config (docs/COHERENCE.md 11): configurable stc caches, coherent per
# 16 B physical line. Bad values exit 2 naming the option; a reference
# wider than the physical line is a trace error.
expect_error stc-name     2 "--stc-config '8K_4W_17B'"        -- --stc-config 8K_4W_17B "$work/tiny.txt"
expect_error stc-more     2 "more names than cores"           -- --cores 2 --stc-config 8K_4W_16B,4K_2W_32B,2K_1W_16B "$work/tiny.txt"
expect_error stc-fewer    2 "fewer names than cores"          -- --cores 3 --stc-config 8K_4W_16B,4K_2W_32B "$work/tiny.txt"
expect_error stc-value    2 "--stc-config needs a value"      -- --stc-config
expect_error stc-geometry 2 "--geometry 'banks=3'"            -- --stc-config 8K_4W_16B -g banks=3 "$work/tiny.txt"
expect_error stc-geo-only 2 "--geometry needs --stc-config or --stc-tune" -- --geometry banks=8 "$work/tiny.txt"
expect_error stc-size     2 "--stc-config: not with --size"   -- --stc-config 8K_4W_16B --line 16 "$work/tiny.txt"
expect_error stc-split-tune 2 "--stc-tune: not on the split bus" -- --stc-tune 8K_4W_16B --bus split "$work/tiny.txt"
expect_error stc-split-wb   2 "--wb-buffer '9'"               -- --stc-config 8K_4W_16B --bus split --wb-buffer 9 "$work/tiny.txt"
expect_error stc-split-name 2 "--stc-config '8K_4W_17B'"      -- --stc-config 8K_4W_17B --bus split "$work/tiny.txt"
expect_error stc-split-schedule 2 "--schedule 'sometimes'"    -- --stc-config 8K_4W_16B --bus split --schedule sometimes "$work/tiny.txt"
expect_error stc-config-geo 2 "--stc-config '8K_4W_16B'"      -- --stc-config 8K_4W_16B -g banks=2 "$work/tiny.txt"
printf '0 0 100 32\n' >"$work/stc-wide.txt"
expect_error stc-wide     1 "stc-wide.txt:1: size 32 larger than the physical line (16 bytes)" -- --stc-config 8K_4W_32B "$work/stc-wide.txt"
# One 64 B logical line, MESI, worked out by hand: c0 reads 0x100 (4 BusRd,
# one per physical line), c1 writes 0x110 (BusRdX for it, BusRd for the 3
# others; only c0's 0x110 invalidated), c0 reads 0x114 (a false-sharing
# miss of that one physical line, from c1's M, which flushes).
printf '0 0 100\n1 1 110\n0 0 114\n' >"$work/stc64.txt"
out="$work/stc64.out"
if "$STCSIM" coherence --cores 2 --stc-config 8K_4W_64B "$work/stc64.txt" >"$out" 2>"$work/err"; then
    for pair in misses:3 bus_rd:8 bus_rdx:1 inv_sent:1 miss_compulsory:2 miss_false_sharing:1 \
        c2c_supplied:1 flushes:1 mem_reads:8 cache_fills:9 cache_fill_bursts:3; do
        expect_total "stc 64 B" "$out" "${pair%%:*}" "${pair#*:}"
    done
else
    echo "FAIL stc 64 B: exit status"; cat "$work/err"; failed=$((failed + 1))
fi
# With 16 B logical lines the coherence counters are the conventional
# model's with 16 B lines, row for row (4 cores, 2 KiB direct-mapped and
# 8 KiB 4-way, every protocol, on a trace of sharing and replacement).
awk 'BEGIN { s = 11; for (i = 0; i < 4000; i++) { s = (s * 1103515245 + 12345) % 2147483648;
    printf "%d %d %x 4\n", s % 4, (s / 4) % 3 == 0, 4 * ((s / 16) % 2048) } }' >"$work/stc-same.txt"
for case in "2K_1W_16B 2048 1" "8K_4W_16B 8192 4"; do
    set -- $case
    for protocol in msi mesi moesi; do
        "$STCSIM" coherence --protocol $protocol --line 16 --size $2 --ways $3 "$work/stc-same.txt" |
            sed -n '3,27p' | awk '{ $1 = $1; print }' >"$work/conventional.out"
        "$STCSIM" coherence --protocol $protocol --stc-config $1 "$work/stc-same.txt" |
            sed -n '4,28p' | awk '{ $1 = $1; print }' >"$work/stc.out"
        if [ -s "$work/stc.out" ] && cmp -s "$work/conventional.out" "$work/stc.out" &&
            grep -q "^violations: 0 " <("$STCSIM" coherence --protocol $protocol --stc-config $1 "$work/stc-same.txt"); then
            passed=$((passed + 1))
        else
            echo "FAIL stc $1 $protocol: not the conventional model's counters"
            diff "$work/conventional.out" "$work/stc.out" | head -5; failed=$((failed + 1))
        fi
    done
done
if command -v jq >/dev/null &&
    "$STCSIM" coherence --cores 2 --stc-config 8K_4W_64B,2K_1W_16B --json "$work/stc64.txt" >"$work/stc.json" &&
    jq -e '.stc_configs == ["8K_4W_64B", "2K_1W_16B"] and .geometry.line_bytes == 16
           and .total.references == 3 and .total.cache_fills == .total.bus_rd + .total.bus_rdx
           and .violations.count == 0' "$work/stc.json" >/dev/null; then
    passed=$((passed + 1))
else
    echo "FAIL stc json"; cat "$work/stc.json"; failed=$((failed + 1))
fi

# Energy of stc runs (docs/ENERGY.md 3.9.1), the stc64 trace on core 0 in
# 8K_4W_64B and core 1 in 2K_1W_16B, worked out by hand. Core 0: 2
# accesses x hit(8K, 4W) 0.2826; 1 snoop (core 1's BusRdX) x (4 tag probes
# 11.714 pJ + 4 banks' routing 3.463 pJ = 0.06071); 4 memory reads (its
# 64 B miss: 4 physical lines) x 23.4733; 1 block from core 1 (0.42086);
# 5 BusRd address phases x 0.046656. Core 1: 1 access x hit(2K, 1W)
# 0.07065; 5 snoops x (1 tag probe + 1 bank's routing = 0.015177); 1
# memory read; 1 memory write (its M copy flushed, 23.3988); 1 address
# phase. Total 142.239 nJ.
if command -v jq >/dev/null &&
    "$STCSIM" coherence --cores 2 --stc-config 8K_4W_64B,2K_1W_16B --json "$work/stc64.txt" >"$work/stc.json" &&
    jq -e 'def near(a; b): ((a - b) | fabs) < 1e-4;
           .energy_nj.per_core[0] as $c0 | .energy_nj.per_core[1] as $c1 | .energy_nj.total as $t |
           near($c0.access; 2 * 0.2826) and near($c0.snoop; 0.0607095) and
           near($c0.memory_read; 4 * 23.4733) and near($c0.c2c; 0.420861) and
           $c0.memory_write == 0 and near($c0.bus; 5 * 0.046656) and
           near($c1.access; 0.07065) and near($c1.snoop; 5 * 0.0151774) and
           near($c1.memory_read; 23.4733) and $c1.c2c == 0 and
           near($c1.memory_write; 23.3988) and near($c1.bus; 0.046656) and
           near($t.total; 142.239) and (($t.total - $c0.total - $c1.total) | fabs) < 1e-3 and
           .energy_terms_nj[0].snoop_lookup > .energy_terms_nj[1].snoop_lookup and
           .energy_terms_nj[0].first_probe == 0.08104' "$work/stc.json" >/dev/null &&
    "$STCSIM" coherence --cores 2 --stc-config 8K_4W_64B,2K_1W_16B "$work/stc64.txt" >"$work/stc-energy.out" &&
    [ "$(awk '$1 == "total_nj" { print $NF }' "$work/stc-energy.out")" = 142.2 ] &&
    [ "$(awk '$1 == "snoop_nj" { print $2 }' "$work/stc-energy.out")" = 0.1 ]; then
    passed=$((passed + 1))
else
    echo "FAIL stc energy: not the hand-worked parts"; sed -n '/energy_terms/,$p' "$work/stc.json"
    failed=$((failed + 1))
fi
# The same run split by where the energy is spent (docs/ENERGY.md 3.9.3),
# by hand: a line written into an array costs 0.164739 nJ, one read out
# of it 0.0902334 (ENERGY.md 3.2), a 4-beat SDRAM burst 23.30856 (3.4),
# the bus's data wires of a transfer 0.165888 (3.9). Core 0 filled 5
# lines (4 from memory, 1 from core 1) and pays core 1's read of the
# supplied one: lines 5 x 0.164739 + 0.0902334, off chip 4 bursts, bus data
# once. Core 1 filled 1 line and read 1 out for its flush: lines 0.164739 +
# 0.0902334, off chip 2 bursts. The caches' own = access + snoop + lines +
# leakage (73 cycles); with the bus's address phases and the stall the
# parts make the whole, per core and in total; the text rows agree.
if command -v jq >/dev/null &&
    jq -e 'def near(a; b): ((a - b) | fabs) <= 1e-5 * ([(a | fabs), (b | fabs), 1] | max);
           .energy_nj.per_core[0] as $c0 | .energy_nj.per_core[1] as $c1 | .energy_nj.total as $t |
           .energy_terms_nj[0] as $k0 |
           near($k0.line_fill; 0.164739) and near($k0.line_read; 0.0902334)
           and .energy_terms_nj[1].line_fill == $k0.line_fill
           and near($c0.cache_lines; 5 * 0.164739 + 0.0902334) and near($c0.offchip; 4 * 23.30856)
           and near($c0.bus_data; 0.165888)
           and near($c0.cache; 2 * 0.2826 + 0.0607095 + 5 * 0.164739 + 0.0902334 + 73 * $k0.static_per_cycle)
           and near($c1.cache_lines; 0.164739 + 0.0902334) and near($c1.offchip; 2 * 23.30856)
           and $c1.bus_data == 0
           and near($t.cache_lines; $c0.cache_lines + $c1.cache_lines)
           and near($t.cache; $c0.cache + $c1.cache) and near($t.offchip; 6 * 23.30856)
           and (. as $r | all(range(2); . as $i | $r.per_core[$i] as $n | $r.energy_terms_nj[$i] as $k |
                   near($r.energy_nj.per_core[$i].cache_lines;
                        ($n.mem_reads + $n.c2c_received) * $k.line_fill
                        + ($n.mem_writebacks + $n.c2c_received) * $k.line_read)))
           and ([.energy_nj.per_core[], $t] | all(
                near(.cache + .offchip + .bus + .bus_data + .stall + .probe_stall; .total_with_stall)
                and .probe_stall == 0 and near(.cache; .access + .snoop + .cache_lines + .static)
                and near(.cache_lines + .offchip + .bus_data; .memory_read + .c2c + .memory_write)))' \
        "$work/stc.json" >/dev/null &&
    [ "$(awk '$1 == "cache_nj" { print $2, $3, $4 }' "$work/stc-energy.out")" = "1.6 0.4 2.0" ] &&
    [ "$(awk '$1 == "offchip_nj" { print $NF }' "$work/stc-energy.out")" = 139.9 ] &&
    [ "$(awk '$1 == "bus_data_nj" { print $NF }' "$work/stc-energy.out")" = 0.2 ] &&
    [ "$(awk '$1 == "cache_lines_nj" { print $NF }' "$work/stc-energy.out")" = 1.2 ]; then
    passed=$((passed + 1))
else
    echo "FAIL stc energy split: not the hand-worked parts"; sed -n '/energy_nj/,$p' "$work/stc.json"
    grep -E '^(cache_lines|cache|offchip|bus_data)_nj ' "$work/stc-energy.out"
    failed=$((failed + 1))
fi
# With way prediction the first-probe hits cost hit(k, 1), the rest
# hit(k, a) + the stall cycle (0.25): c0 reads 0x100 twice in
# 8K_4W_16B_P: a miss (0.2826 + 0.25), then a first-probe hit (0.08104).
# The stall cycle is the processor's (ENERGY.md 3.9.3): `probe_stall`, not
# in the caches' own `cache` (the two probes, the line filled, leakage).
printf '0 0 100\n0 0 100\n' >"$work/stc-wp.txt"
if command -v jq >/dev/null &&
    "$STCSIM" coherence --cores 1 --stc-config 8K_4W_16B_P --json "$work/stc-wp.txt" >"$work/wp.json" &&
    jq -e '((.energy_nj.total.access - (0.2826 + 0.25 + 0.08104)) | fabs) < 1e-9
           and .energy_nj.total.snoop == 0
           and .energy_nj.total.probe_stall == 0.25
           and ((.energy_nj.total.cache - (0.2826 + 0.08104 + .energy_terms_nj[0].line_fill
                 + .energy_nj.total.static)) | fabs) < 1e-6
           and ((.energy_nj.total.cache + .energy_nj.total.offchip + .energy_nj.total.bus
                 + .energy_nj.total.bus_data + .energy_nj.total.stall + .energy_nj.total.probe_stall
                 - .energy_nj.total.total_with_stall) | fabs) < 1e-4' "$work/wp.json" >/dev/null; then
    passed=$((passed + 1))
else
    echo "FAIL stc energy, way prediction"; sed -n '/energy_nj/,$p' "$work/wp.json"; failed=$((failed + 1))
fi
# A geometry beyond the default model: counters printed, energy unpriced.
if "$STCSIM" coherence --stc-config 128K_4W_32B -g bank_bytes=32768 "$work/tiny.txt" >"$work/unpriced.out" &&
    grep -q '^energy: not priced (energy model: a bank of 2048 rows' "$work/unpriced.out" &&
    "$STCSIM" coherence --stc-config 128K_4W_32B -g bank_bytes=32768 --json "$work/tiny.txt" |
        grep -q '"energy_nj": null, "energy_note": '; then
    passed=$((passed + 1))
else
    echo "FAIL stc energy unpriced"; tail -3 "$work/unpriced.out"; failed=$((failed + 1))
fi

# --stc-tune (docs/COHERENCE.md 11.8): bad values exit 2 naming the option.
expect_error tune-name    2 "--stc-tune '8K_4W_17B'"          -- --stc-tune 8K_4W_17B "$work/tiny.txt"
expect_error tune-value   2 "--stc-tune needs a value"        -- --stc-tune
expect_error tune-more    2 "more names than cores"           -- --cores 2 --stc-tune 8K_4W_16B,4K_2W_32B,2K_1W_16B "$work/tiny.txt"
expect_error tune-both    2 "--stc-tune: not with --stc-config" -- --stc-tune 8K_4W_32B --stc-config 8K_4W_32B "$work/tiny.txt"
expect_error tune-size    2 "--stc-tune: not with --size"     -- --stc-tune 8K_4W_32B --ways 2 "$work/tiny.txt"
expect_error tune-split   2 "--stc-tune: not on the split bus" -- --stc-tune 8K_4W_32B --bus split "$work/tiny.txt"
expect_error tune-geo     2 "--stc-tune '8K_4W_32B'"          -- --stc-tune 8K_4W_32B -g banks=2 "$work/tiny.txt"
expect_error tune-unpriced 2 "--geometry 'bank_bytes=32768': energy model" -- --stc-tune 128K_4W_32B -g bank_bytes=32768 "$work/tiny.txt"
expect_error tune-wide    1 "stc-wide.txt:1: size 32 larger than the physical line" -- --stc-tune 8K_4W_32B "$work/stc-wide.txt"
# Two cores each writing their own line 50 times: no sharing, so the
# system's optimum and each core's single-cache choice agree (2K_1W_16B,
# the cheapest probe and the cheapest single miss); the tuned assignment's
# energy is what --stc-config prints for it; two runs print the same bytes.
awk 'BEGIN { for (i = 0; i < 50; i++) printf "0 1 40 4\n1 1 8000 4\n" }' >"$work/own-lines.txt"
if command -v jq >/dev/null &&
    "$STCSIM" coherence --cores 2 --stc-tune 8K_4W_32B --json "$work/own-lines.txt" >"$work/tune.json" &&
    "$STCSIM" coherence --cores 2 --stc-tune 8K_4W_32B --json "$work/own-lines.txt" | cmp -s - "$work/tune.json" &&
    "$STCSIM" coherence --cores 2 --stc-config 2K_1W_16B --json "$work/own-lines.txt" >"$work/tuned-run.json" &&
    jq -e --slurpfile run "$work/tuned-run.json" '
           .coherent.configs == ["2K_1W_16B", "2K_1W_16B"] and .alone.configs == .coherent.configs
           and .start.configs == ["8K_4W_32B", "8K_4W_32B"] and .tune.rounds == 2
           and .coherent.energy_nj.total.total == $run[0].energy_nj.total.total
           and .coherent.energy_nj.total.total < .start.energy_nj.total.total
           and .coherent.violations == 0' "$work/tune.json" >/dev/null &&
    "$STCSIM" coherence --cores 2 --stc-tune 8K_4W_32B "$work/own-lines.txt" | grep -q '^coherent  *2K_1W_16B  *2K_1W_16B$'; then
    passed=$((passed + 1))
else
    echo "FAIL stc tune"; cat "$work/tune.json"; failed=$((failed + 1))
fi
# The tuner's assignments carry the split too (ENERGY.md 3.9.3): in each,
# per core and in total, the parts make the whole, the caches' own is what
# --stc-config prints for the tuned assignment, and the text has a
# `  cache_nj` row per assignment whose total is the JSON's.
if command -v jq >/dev/null &&
    jq -e --slurpfile run "$work/tuned-run.json" '
           def near(a; b): ((a - b) | fabs) <= 1e-5 * ([(a | fabs), (b | fabs), 1] | max);
           ([.start, .alone, .coherent | .energy_nj | .per_core[], .total] | length == 9 and all(
               near(.cache + .offchip + .bus + .bus_data + .stall + .probe_stall; .total_with_stall)
               and near(.cache; .access - .probe_stall + .snoop + .cache_lines + .static)
               and .cache > 0))
           and .coherent.energy_nj.total.cache == $run[0].energy_nj.total.cache
           and .start.energy_nj.total.cache > .coherent.energy_nj.total.cache' \
        "$work/tune.json" >/dev/null &&
    "$STCSIM" coherence --cores 2 --stc-tune 8K_4W_32B "$work/own-lines.txt" >"$work/tune.out" &&
    [ "$(grep -c '^  cache_nj ' "$work/tune.out")" = 3 ] &&
    [ "$(awk '$1 == "cache_nj" { v = $4 } END { print v }' "$work/tune.out")" = \
      "$(jq -r '.coherent.energy_nj.total.cache * 10 | round / 10' "$work/tune.json")" ]; then
    passed=$((passed + 1))
else
    echo "FAIL stc tune split"; cat "$work/tune.out"; failed=$((failed + 1))
fi

# --stc-config all (COHERENCE.md 11.4): every legal configuration on
# every core, one run each: 27 entries for the default geometry, each the
# numbers --stc-config NAME prints for it (two names checked, counters and
# energy), the cheapest the one of least energy with the stall, the text
# one row per configuration and the same cheapest; two runs the same bytes.
if command -v jq >/dev/null &&
    "$STCSIM" coherence --cores 2 --stc-config all --json "$work/own-lines.txt" >"$work/sweep.json" &&
    "$STCSIM" coherence --cores 2 --stc-config all --json "$work/own-lines.txt" | cmp -s - "$work/sweep.json" &&
    "$STCSIM" coherence --cores 2 --stc-config 8K_4W_32B --json "$work/own-lines.txt" >"$work/sweep-a.json" &&
    "$STCSIM" coherence --cores 2 --stc-config 4K_2W_64B_P --json "$work/own-lines.txt" >"$work/sweep-b.json" &&
    jq -e --slurpfile a "$work/sweep-a.json" --slurpfile b "$work/sweep-b.json" '
           def entry($n): .sweep[] | select(.config == $n);
           (.sweep | length) == 27 and ([.sweep[].config] | unique | length) == 27
           and (entry("8K_4W_32B") | .energy_nj == $a[0].energy_nj.total
                and .counters == $a[0].total and .cycles == $a[0].cycles.total.cycles)
           and (entry("4K_2W_64B_P") | .energy_nj == $b[0].energy_nj.total
                and .counters == $b[0].total)
           and .cheapest == (.sweep | min_by(.energy_nj.total_with_stall) | .config)
           and ([.sweep[].violations] | add) == 0' "$work/sweep.json" >/dev/null &&
    "$STCSIM" coherence --cores 2 --stc-config all "$work/own-lines.txt" >"$work/sweep.out" &&
    [ "$(grep -cE '^[0-9]+K_[0-9]W_[0-9]+B(_P)? ' "$work/sweep.out")" = 27 ] &&
    grep -q "^cheapest: $(jq -r .cheapest "$work/sweep.json") on every core" "$work/sweep.out"; then
    passed=$((passed + 1))
else
    echo "FAIL stc sweep"; head -5 "$work/sweep.json"; failed=$((failed + 1))
fi
expect_error sweep-split    2 "--stc-config all: not on the split bus" -- --stc-config all --bus split "$work/tiny.txt"
expect_error sweep-filter   2 "--stc-config all: not with --snoop-filter" -- --stc-config all --snoop-filter exclude "$work/tiny.txt"
expect_error sweep-unpriced 2 "--geometry 'bank_bytes=32768': energy model" -- --stc-config all -g bank_bytes=32768 "$work/tiny.txt"
expect_error sweep-tune     2 "--stc-tune 'all'" -- --stc-tune all "$work/tiny.txt"
expect_error sweep-wide     1 "stc-wide.txt:1: size 32 larger than the physical line" -- --stc-config all "$work/stc-wide.txt"

# Cycles (docs/COHERENCE.md 9.10, 11.9) and leakage (ENERGY.md 3.9.2),
# worked out by hand. Conventional, MESI, 8 KiB 4-way 32 B (T 20, 8
# beats): c0 loads X (1 + bus 29 + 1: 31); c1 loads X (ready 1, stalls 29,
# memory again: 60); c1 stores X+4 (an S hit and a BusUpgr: 62); c0 loads
# X (ready 32, stalls 30, c1's M supplies: 1 + 1 + 8 = 10, then 1: 73);
# c0 hits X+8 (74). Bus busy 29 + 29 + 1 + 10 = 69 of 74 cycles. Every
# cache leaks over the run's 74 cycles. The processor's stall (ENERGY.md
# 3.9.2) prices each core's cycles less its probes, one per block access:
# c0 74 - 3 = 71 (30 for its miss, 30 + 10 + 1 for the supplied one), c1
# 62 - 2 = 60 (29 + 29 + 1, then its BusUpgr's 1), at `stall` per cycle.
printf '0 0 1000\n1 0 1000\n1 1 1004\n0 0 1000\n0 0 1008\n' >"$work/cycles.txt"
if "$STCSIM" coherence --cores 2 "$work/cycles.txt" >"$work/cycles.out" &&
    [ "$(awk '$1 == "cycles" { print $2, $3, $4 }' "$work/cycles.out")" = "74 62 74" ] &&
    [ "$(awk '$1 == "stall_cycles" { print $2, $3, $4 }' "$work/cycles.out")" = "30 29 59" ] &&
    [ "$(awk '$1 == "bus_cycles" { print $2, $3, $4 }' "$work/cycles.out")" = "39 30 69" ] &&
    [ "$(awk '$1 == "waited_cycles" { print $2, $3, $4 }' "$work/cycles.out")" = "71 60 131" ] &&
    [ "$(awk '$1 == "stall_nj" { print $2, $3, $4 }' "$work/cycles.out")" = "17.8 15.0 32.8" ] &&
    grep -q '^bus: busy 69 of 74 cycles (93.2 %); address 1, memory latency 20, 8 beats per line, supplier read 1$' "$work/cycles.out" &&
    { ! command -v jq >/dev/null ||
      "$STCSIM" coherence --cores 2 --json "$work/cycles.txt" | jq -e '
        def near(a; b): ((a - b) | fabs) <= 1e-5 * ([(a | fabs), (b | fabs), 1] | max);
        .cycles.per_core == [{"cycles": 74, "stall_cycles": 30, "bus_cycles": 39, "waited_cycles": 71},
                             {"cycles": 62, "stall_cycles": 29, "bus_cycles": 30, "waited_cycles": 60}]
        and .cycles.total.cycles == 74 and .cycles.total.bus_busy_cycles == 69
        and .cycles.total.waited_cycles == 131
        and .cycles.timing == {"address": 1, "mem_latency": 20, "beats_per_line": 8, "supply_read": 1}
        and near(.cycles.total.bus_utilisation; 69 / 74)
        and .energy_terms_nj.static_per_cycle > 0
        and near(.energy_nj.per_core[1].static; 74 * .energy_terms_nj.static_per_cycle)
        and near(.energy_nj.total.static; 2 * 74 * .energy_terms_nj.static_per_cycle)
        and near(.energy_nj.total.total_with_static; .energy_nj.total.total + .energy_nj.total.static)
        and .energy_terms_nj.stall_per_cycle == 0.25
        and near(.energy_nj.per_core[0].stall; 71 * .energy_terms_nj.stall_per_cycle)
        and near(.energy_nj.per_core[1].stall; 60 * .energy_terms_nj.stall_per_cycle)
        and near(.energy_nj.total.stall; .energy_nj.per_core[0].stall + .energy_nj.per_core[1].stall)
        and near(.energy_nj.total.stall; 131 * .energy_terms_nj.stall_per_cycle)
        and ([.energy_nj.per_core[], .energy_nj.total]
             | all(near(.total_with_stall; .total_with_static + .stall)))' >/dev/null; }; then
    passed=$((passed + 1))
else
    echo "FAIL cycles of a hand-worked trace"; cat "$work/cycles.out"; failed=$((failed + 1))
fi
# stc caches: c1 (8K_4W_16B) stores X+16 (1 + bus 1 + 24 + 1: 27); c0
# (8K_4W_64B) loads X: one burst of 4 physical lines (4 beats each), one
# tenure: address 1, line 0 from memory 20 + 4, line 1 from c1's M 1 + 4,
# lines 2-3 from memory, its latency again, 20 + 8: 58; ready 1, stalls
# 25, then 1: 85. The core's own cycles without the bus are its cache's
# cache_cycles less the memory it assumed (1 + 36 + 2 = 39 for c0).
# Waited (ENERGY.md 3.9.2): each core's cycles less its one probe, 84 and
# 26, priced at each core's `stall`.
printf '1 1 2010\n0 0 2000\n' >"$work/stc-cycles.txt"
if "$STCSIM" coherence --cores 2 --stc-config 8K_4W_64B,8K_4W_16B "$work/stc-cycles.txt" >"$work/stc-cycles.out" &&
    [ "$(awk '$1 == "cycles" { print $2, $3, $4 }' "$work/stc-cycles.out")" = "85 27 85" ] &&
    [ "$(awk '$1 == "stall_cycles" { print $2, $3, $4 }' "$work/stc-cycles.out")" = "25 0 25" ] &&
    [ "$(awk '$1 == "cache_cycles" { print $2, $3 }' "$work/stc-cycles.out")" = "39 27" ] &&
    [ "$(awk '$1 == "waited_cycles" { print $2, $3, $4 }' "$work/stc-cycles.out")" = "84 26 110" ] &&
    grep -q '^bus: busy 83 of 85 cycles (97.6 %); address 1, memory latency 20, 4 beats per line' "$work/stc-cycles.out" &&
    { ! command -v jq >/dev/null ||
      "$STCSIM" coherence --cores 2 --stc-config 8K_4W_64B,8K_4W_16B --json "$work/stc-cycles.txt" | jq -e '
        def near(a; b): ((a - b) | fabs) <= 1e-5 * ([(a | fabs), (b | fabs), 1] | max);
        .cycles.per_core[0] == {"cycles": 85, "stall_cycles": 25, "bus_cycles": 58, "waited_cycles": 84}
        and .cycles.total.bus_busy_cycles == 83 and .cycles.total.waited_cycles == 110
        and .energy_terms_nj[0].stall_per_cycle == 0.25 and .energy_terms_nj[1].stall_per_cycle == 0.25
        and near(.energy_nj.per_core[0].stall; 84 * .energy_terms_nj[0].stall_per_cycle)
        and near(.energy_nj.per_core[1].stall; 26 * .energy_terms_nj[1].stall_per_cycle)
        and near(.energy_nj.total.stall; .energy_nj.per_core[0].stall + .energy_nj.per_core[1].stall)
        and ([.energy_nj.per_core[], .energy_nj.total]
             | all(near(.total_with_stall; .total_with_static + .stall)))
        and near(.energy_nj.per_core[0].static; 85 * .energy_terms_nj[0].static_per_cycle)
        and near(.energy_nj.per_core[1].static; 85 * .energy_terms_nj[1].static_per_cycle)
        and .energy_terms_nj[0].static_per_cycle == .energy_terms_nj[1].static_per_cycle' >/dev/null; }; then
    passed=$((passed + 1))
else
    echo "FAIL stc cycles of a hand-worked trace"; cat "$work/stc-cycles.out"; failed=$((failed + 1))
fi
# One core (MESI: no BusUpgr alone) is the single cache: its cycles are
# its cache's own count, whatever the line and way prediction; it never
# waits for another core, so its waited cycles are its cycles less its
# probes: one per access, two for each that way prediction did not hit
# first (4K_2W_32B_P), and its stall_nj those at 0.25 nJ.
awk 'BEGIN { x = 7; for (i = 0; i < 3000; i++) { x = (x * 1103515245 + 12345) % 2147483648;
      printf "0 %d %x %d\n", (x % 3 == 0), (x % 20000) - (x % 20000) % 4, 4 } }' >"$work/one-core.txt"
one_core_ok=1
for c in 8K_4W_64B 4K_2W_32B_P 2K_1W_16B; do
    "$STCSIM" coherence --cores 1 --stc-config $c "$work/one-core.txt" >"$work/one.out" || one_core_ok=0
    cycles=$(awk '$1 == "cycles" { print $2 }' "$work/one.out")
    cache=$(awk '$1 == "cache_cycles" { print $2 }' "$work/one.out")
    stall=$(awk '$1 == "stall_cycles" { print $2 }' "$work/one.out")
    probes=$(awk '$1 == "cache_accesses" { a = $2 } $1 == "cache_first_probe_hits" { f = $2 }
                  END { print ("'$c'" ~ /_P$/) ? 2 * a - f : a }' "$work/one.out")
    waited=$(awk '$1 == "waited_cycles" { print $2 }' "$work/one.out")
    stall_nj=$(awk '$1 == "stall_nj" { print $2 }' "$work/one.out")
    [ -n "$cycles" ] && [ "$cycles" = "$cache" ] && [ "$stall" = 0 ] &&
        [ "$waited" = $((cycles - probes)) ] &&
        [ "$stall_nj" = "$(awk -v w="$waited" 'BEGIN { printf "%.1f", w * 0.25 }')" ] ||
        { one_core_ok=0; echo "  $c: cycles $cycles, cache_cycles $cache, stall $stall, waited $waited of $probes probes, stall_nj $stall_nj"; }
done
if [ "$one_core_ok" = 1 ]; then
    passed=$((passed + 1))
else
    echo "FAIL one core: cycles differ from the cache's own"; failed=$((failed + 1))
fi

# --snoop-filter with --stc-config (docs/COHERENCE.md 11.10): the trace of
# tests/test_snoop_filter_stc.c worked by hand (MSI; c0 in 64 B lines, c1
# and c2 in 16 B; c0's 64 B fill of X clears the bit of its sibling line
# X+16): 6 snoops filtered, 12 probes made of the unfiltered 18, 8 probes
# that missed, 25 filter reads (18 snoops, 7 lines filled), 17 writes.
# Every other row is the unfiltered run's, cycles included; the JSON has
# the filter's counters and energy, and the identity per core. Not with
# --stc-tune, nor on the split bus.
printf '1 0 1010\n1 1 1010\n0 0 1000\n1 1 1010\n2 0 1000\n2 0 1020\n' >"$work/stc-filter.txt"
stc_filter_args=(--cores 3 --protocol msi --stc-config 8K_4W_64B,8K_4W_16B,8K_4W_16B)
out="$work/stc-filter.out"
if "$STCSIM" coherence "${stc_filter_args[@]}" --snoop-filter exclude:32x4 "$work/stc-filter.txt" >"$out" 2>"$work/err"; then
    expect_total stc-filter "$out" snoops_filtered 6
    expect_total stc-filter "$out" snoop_lookups 12
    expect_total stc-filter "$out" snoop_misses 8
    expect_total stc-filter "$out" filter_lookups 25
    expect_total stc-filter "$out" filter_writes 17
    if head -1 "$out" | grep -qF 'atomic bus, snoop filter exclude 32x4, 1 block per entry'; then
        passed=$((passed + 1)); else echo "FAIL stc-filter: header"; head -1 "$out"; failed=$((failed + 1)); fi
    "$STCSIM" coherence "${stc_filter_args[@]}" "$work/stc-filter.txt" >"$work/stc-nofilter.out"
    expect_total stc-nofilter "$work/stc-nofilter.out" snoop_lookups 18
    if diff <(grep -vE '^(stcsim|snoop_lookups|snoops_filtered|snoop_misses|filter_|[a-z_]+_nj )' "$out") \
        <(grep -vE '^(stcsim|snoop_lookups|[a-z_]+_nj )' "$work/stc-nofilter.out") >/dev/null; then
        passed=$((passed + 1))
    else
        echo "FAIL stc-filter: other rows differ from the unfiltered run's"; failed=$((failed + 1))
    fi
else
    echo "FAIL stc-filter: exit status"; cat "$work/err"; failed=$((failed + 1))
fi
if command -v jq >/dev/null &&
    "$STCSIM" coherence "${stc_filter_args[@]}" --snoop-filter exclude:32x4 --json "$work/stc-filter.txt" >"$work/stc-filter.json" &&
    "$STCSIM" coherence "${stc_filter_args[@]}" --json "$work/stc-filter.txt" >"$work/stc-nofilter.json" &&
    jq -e -n --slurpfile f "$work/stc-filter.json" --slurpfile u "$work/stc-nofilter.json" '
    def close($a; $b): (($a - $b) | fabs) <= 1e-3 * ([($a | fabs), ($b | fabs), 1] | max);
    $f[0] as $f | $u[0] as $u | $f.snoop_filter as $sf | $f.energy_nj as $e
    | $sf.kind == "exclude" and $sf.sets == 32 and $sf.ways == 4 and $sf.blocks == 1
      and ($sf.per_core | length) == 3 and $sf.total.snoops_filtered == 6
      and ([range(3) | $f.per_core[.].snoop_lookups + $sf.per_core[.].snoops_filtered]
           == [range(3) | $u.per_core[.].snoop_lookups])
      and $f.total.snoop_lookups + $sf.total.snoops_filtered == $u.total.snoop_lookups
      and ($f.total | del(.snoop_lookups)) == ($u.total | del(.snoop_lookups))
      and $f.cycles == $u.cycles and ($u | has("snoop_filter") | not)
      and all(range(3); close($e.per_core[.].filter;
              $sf.per_core[.].filter_lookups * $f.energy_terms_nj[.].filter_lookup
              + $sf.per_core[.].filter_writes * $f.energy_terms_nj[.].filter_write))
      and $e.total.filter > 0
      and close($e.total.total; $e.total.access + $e.total.snoop + $e.total.memory_read
                                + $e.total.c2c + $e.total.memory_write + $e.total.bus + $e.total.filter)
      and close($e.total.total - $e.total.filter - $e.total.snoop;
                $u.energy_nj.total.total - $u.energy_nj.total.snoop)
      and ([$e.per_core[], $e.total] | all(
           close(.cache; .access - .probe_stall + .snoop + .filter + .cache_lines + .static)
           and close(.cache + .offchip + .bus + .bus_data + .stall + .probe_stall; .total_with_stall)))' >/dev/null; then
    passed=$((passed + 1))
else
    echo "FAIL stc-filter json"; cat "$work/stc-filter.json"; failed=$((failed + 1))
fi
# Random traffic on 4 cores in mixed lines, every protocol: per core,
# snoop_lookups + snoops_filtered is the unfiltered snoop_lookups and every
# other row but the energy's is the same.
# (the generator's high bits pick core and operation: its low bits repeat)
awk 'BEGIN { x = 11; for (i = 0; i < 4000; i++) { x = (x * 1103515245 + 12345) % 2147483648;
      h = int(x / 65536); printf "%d %d %x %d\n", h % 4, (int(h / 4) % 3 == 0),
      (int(h / 16) % 7 == 0 ? x % 12288 : x % 384) - (x % 4), 4 } }' >"$work/stc-filter-random.txt"
stc_filter_random_ok=1
for p in msi mesi moesi; do
    args=(--cores 4 --protocol $p --stc-config 8K_4W_64B,2K_1W_16B,4K_2W_32B_P,8K_1W_16B)
    "$STCSIM" coherence "${args[@]}" --snoop-filter exclude "$work/stc-filter-random.txt" >"$work/f.out" &&
        "$STCSIM" coherence "${args[@]}" "$work/stc-filter-random.txt" >"$work/u.out" || stc_filter_random_ok=0
    sums=$(awk 'FNR == NR && $1 == "snoop_lookups" { for (i = 2; i <= NF; i++) u[i] = $i }
                FNR != NR && $1 == "snoop_lookups" { for (i = 2; i <= NF; i++) f[i] = $i }
                FNR != NR && $1 == "snoops_filtered" { for (i = 2; i <= NF; i++) s[i] = $i }
                END { ok = (length(u) == 5); for (i = 2; i <= 6; i++) if (f[i] + s[i] != u[i]) ok = 0;
                      print (ok && s[6] > 0) ? "ok" : "bad" }' "$work/u.out" "$work/f.out")
    [ "$sums" = ok ] || { stc_filter_random_ok=0; echo "  $p: snoop_lookups + snoops_filtered"; }
    diff <(grep -vE '^(stcsim|snoop_lookups|snoops_filtered|snoop_misses|filter_|[a-z_]+_nj )' "$work/f.out") \
        <(grep -vE '^(stcsim|snoop_lookups|[a-z_]+_nj )' "$work/u.out") >/dev/null ||
        { stc_filter_random_ok=0; echo "  $p: other rows differ"; }
done
if [ "$stc_filter_random_ok" = 1 ]; then
    passed=$((passed + 1))
else
    echo "FAIL stc-filter on random traffic"; failed=$((failed + 1))
fi
expect_error stc-tune-filter  2 "--stc-tune: not with --snoop-filter" -- --stc-tune 8K_4W_32B --snoop-filter exclude "$work/tiny.txt"
expect_error stc-filter-split 2 "--snoop-filter: not on the split bus" -- --stc-config 8K_4W_32B --snoop-filter exclude --bus split "$work/tiny.txt"
expect_error stc-filter-bad   2 "--snoop-filter 'exclude:3x1': sets must be a power of two" -- --stc-config 8K_4W_32B --snoop-filter exclude:3x1 "$work/tiny.txt"

# --stc-config on the split bus (docs/COHERENCE.md 12): the random run is
# clean, and the serial schedule gives the atomic run's hits, misses, miss
# classes and fills per core, every protocol, mixed configurations.
stc_split_ok=1
for p in msi mesi moesi; do
    args=(--cores 4 --protocol $p --stc-config 8K_4W_64B,2K_1W_16B,4K_2W_32B_P,8K_1W_16B)
    "$STCSIM" coherence "${args[@]}" --bus split --seed 3 "$work/stc-filter-random.txt" >"$work/r.out" &&
        grep -q "^violations: 0 " "$work/r.out" && grep -q "split bus, schedule random, seed 3" "$work/r.out" ||
        { stc_split_ok=0; echo "  $p: the random run"; }
    "$STCSIM" coherence "${args[@]}" --bus split --seed 4 --wb-buffer 2 "$work/stc-filter-random.txt" >"$work/b.out" &&
        grep -q "^violations: 0 " "$work/b.out" && grep -q "^writeback buffer: 2 entries per cache" "$work/b.out" ||
        { stc_split_ok=0; echo "  $p: the run with a writeback buffer"; }
    "$STCSIM" coherence "${args[@]}" --bus split --schedule serial "$work/stc-filter-random.txt" >"$work/s.out" &&
        "$STCSIM" coherence "${args[@]}" "$work/stc-filter-random.txt" >"$work/a.out" || stc_split_ok=0
    rows='^(hits|misses|miss_[a-z_]+|cache_fills|cache_misses) '
    diff <(grep -E "$rows" "$work/a.out" | tr -s ' ') <(grep -E "$rows" "$work/s.out" | tr -s ' ') >/dev/null &&
        [ "$(grep -cE "$rows" "$work/s.out")" = 11 ] ||
        { stc_split_ok=0; echo "  $p: serial against atomic"; }
done
"$STCSIM" coherence --cores 4 --stc-config 8K_4W_32B --bus split --json "$work/stc-filter-random.txt" >"$work/split.json" &&
    grep -q '"bus": "split", "geometry"' "$work/split.json" && grep -q '"installs": ' "$work/split.json" &&
    grep -q '"violations": {"count": 0' "$work/split.json" || { stc_split_ok=0; echo "  --json"; }
if [ "$stc_split_ok" = 1 ]; then
    passed=$((passed + 1))
else
    echo "FAIL stc caches on the split bus"; failed=$((failed + 1))
fi

# --rows (COHERENCE.md 9.5): how often each row of the table ran. The tiny
# trace by hand, in both atomic models (the stc caches in 8K_4W_16B):
# MSI  c0 I Load (c1 snoops I BusRd), c1 I Load (c0 S BusRd), c0 S Store
#      (c1 S BusUpgr), c1 I Load (c0 M BusRd);
# MESI, MOESI the same with c0's first copy in E (E BusRd, not S BusRd).
rows_ok=1
for protocol in msi mesi moesi; do
    want="6	I Load 3,S Store 1,I BusRd 1,S BusRd 1,S BusUpgr 1,M BusRd 1"
    [ "$protocol" != msi ] && want="6	I Load 3,S Store 1,I BusRd 1,S BusUpgr 1,E BusRd 1,M BusRd 1"
    for model in conventional 8K_4W_16B; do
        args=(--cores 2 --protocol "$protocol" --rows)
        [ "$model" != conventional ] && args+=(--stc-config "$model")
        got=$("$STCSIM" coherence "${args[@]}" --json "$work/tiny.txt" | jq -r '[.rows.ran,
            ([.rows.proc[], .rows.snoop[] | select(.uses > 0) | "\(.state) \(.event // .bus) \(.uses)"]
            | join(","))] | @tsv')
        [ "$got" = "$want" ] || { rows_ok=0; echo "  $protocol $model: '$got', want '$want'"; }
        "$STCSIM" coherence "${args[@]}" "$work/tiny.txt" >"$work/rows.out"
        grep -q "^rows: 6 of the table's [0-9]* possible rows ran" "$work/rows.out" &&
            grep -qE '^  M  snoops  BusRd +1$' "$work/rows.out" ||
            { rows_ok=0; echo "  $protocol $model: the text rows"; }
    done
done
# An eviction (MESI, both models alike: 8 KiB 4-way 16-byte lines): c0
# stores A (I Store; c1 snoops I BusRdX), loads four more lines of A's set
# (I Load x4; c1 I BusRd x4), the fifth evicting A dirty (M Evict, a BusWB
# c1 snoops in I).
printf '0 1 100\n0 0 900\n0 0 1100\n0 0 1900\n0 0 2100\n' >"$work/rows-evict.txt"
want="6	I Load 4,I Store 1,M Evict 1,I BusRd 4,I BusRdX 1,I BusWB 1"
for model in "--size 8192 --ways 4 --line 16" "--stc-config 8K_4W_16B"; do
    # shellcheck disable=SC2086
    got=$("$STCSIM" coherence --cores 2 $model --rows --json "$work/rows-evict.txt" | jq -r '[.rows.ran,
        ([.rows.proc[], .rows.snoop[] | select(.uses > 0) | "\(.state) \(.event // .bus) \(.uses)"]
        | join(","))] | @tsv')
    [ "$got" = "$want" ] || { rows_ok=0; echo "  eviction, $model: '$got', want '$want'"; }
done
# On random traffic every snoop lookup runs one snoop row (I for a cache
# without a copy), and with 16-byte lines every block access one processor
# row; with longer lines the siblings a miss fetches add (I, Load) rows.
awk 'BEGIN { x = 12345; for (i = 0; i < 3000; i++) { x = (x * 1103515245 + 12345) % 2147483648;
      printf "%d %d %x 4\n", x % 4, int(x / 7) % 2, (x % 4096) - (x % 4) } }' >"$work/rows-random.txt"
for model in conventional 8K_4W_16B 8K_4W_64B,2K_1W_16B,4K_2W_32B_P,8K_1W_16B; do
    args=(--cores 4 --rows --json)
    [ "$model" != conventional ] && args+=(--stc-config "$model")
    "$STCSIM" coherence "${args[@]}" "$work/rows-random.txt" >"$work/rows.json" || rows_ok=0
    jq -e '([.rows.snoop[].uses] | add) == .total.snoop_lookups and .total.snoop_lookups > 0' \
        "$work/rows.json" >/dev/null || { rows_ok=0; echo "  $model: snoop rows against lookups"; }
    if [ "$model" != 8K_4W_64B,2K_1W_16B,4K_2W_32B_P,8K_1W_16B ]; then
        jq -e '([.rows.proc[] | select(.event != "Evict") | .uses] | add) == .total.hits + .total.misses' \
            "$work/rows.json" >/dev/null || { rows_ok=0; echo "  $model: processor rows against accesses"; }
    else
        jq -e '([.rows.proc[] | select(.event != "Evict") | .uses] | add) > .total.hits + .total.misses' \
            "$work/rows.json" >/dev/null || { rows_ok=0; echo "  $model: sibling fetches not counted"; }
    fi
done
if [ "$rows_ok" = 1 ]; then
    passed=$((passed + 1))
else
    echo "FAIL --rows"; failed=$((failed + 1))
fi
expect_error rows-split 2 "--rows: one atomic run only" -- --rows --bus split "$work/tiny.txt"
expect_error rows-tune  2 "--rows: one atomic run only" -- --rows --stc-tune 8K_4W_32B "$work/tiny.txt"
expect_error rows-all   2 "--rows: one atomic run only" -- --rows --stc-config all "$work/tiny.txt"

echo "coherence-cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
