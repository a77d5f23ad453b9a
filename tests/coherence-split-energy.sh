#!/bin/bash
# `stcsim coherence --bus split` energy (docs/COHERENCE.md 10.9): the same
# JSON fields as the atomic bus's report, every part its counter times its
# price, the cores adding up to the total, the text rows the JSON's, the
# atomic run's energy where the two buses' tables move the same data, and
# a geometry stc cannot build reported unpriced. Usage:
# coherence-split-energy.sh STCSIM (needs jq)
set -u
STCSIM=${1:?usage: coherence-split-energy.sh STCSIM}
command -v jq >/dev/null || { echo "coherence-split-energy: needs jq"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# check NAME COMMAND...: one check, passed when the command succeeds
check() {
    local name=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
    else
        echo "FAIL $name"; failed=$((failed + 1))
    fi
}

# holds JQ-ARGS...: jq -e, quiet: whether the filter is true of the file
holds() {
    jq -e "$@" >/dev/null
}

# 4 cores on 4 blocks of one set of 256 B 2-way caches: evictions, PutMs (stale
# ones under random schedules), upgrades, cache-to-cache answers
awk 'BEGIN { s = 11; for (i = 0; i < 2000; i++) { s = (s * 1103515245 + 12345) % 2147483648;
    h = int(s / 65536); printf "%d %d %x\n", h % 4, int(h / 4) % 3 == 0,
    4096 * (int(h / 16) % 4) + 4 * (int(h / 64) % 8) } }' >"$work/mixed.txt"
# MSI, where the split tables move what the atomic ones do: a store miss
# from memory, a load of that M copy (supplied and flushed), two load
# misses from memory; no upgrade, no GetM of an M copy, no E
printf '0 1 1000\n1 0 1000\n1 0 2000\n0 0 2000\n' >"$work/same.txt"

for protocol in msi mesi moesi; do
    for schedule in random serial; do
        name="$protocol $schedule"
        json="$work/split-$protocol-$schedule.json"
        "$STCSIM" coherence --size 256 --ways 2 --protocol "$protocol" --bus split \
            --schedule "$schedule" --json "$work/mixed.txt" >"$json" 2>"$work/err" ||
            { echo "FAIL $name: exit status"; cat "$work/err"; failed=$((failed + 1)); continue; }
        "$STCSIM" coherence --size 256 --ways 2 --protocol "$protocol" --json "$work/mixed.txt" \
            >"$work/atomic.json"
        # the atomic report's energy fields, name for name, less the
        # leakage that only the atomic bus's cycles price (COHERENCE.md 9.10)
        check "$name: field names" holds --slurpfile atomic "$work/atomic.json" '
            ($atomic[0] | .energy_terms_nj |= del(.static_per_cycle, .stall_per_cycle)
                | .energy_nj.total |= del(.static, .total_with_static, .stall,
                                          .total_with_stall)) as $dynamic
            | ($atomic[0].energy_terms_nj | has("static_per_cycle"))
            and ($atomic[0].energy_nj.total | has("static") and has("total_with_static"))
            and (.energy_terms_nj | keys) == ($dynamic.energy_terms_nj | keys)
            and (.energy_nj | keys) == ($dynamic.energy_nj | keys)
            and (.energy_nj.per_core | length) == ($dynamic.energy_nj.per_core | length)
            and ([.energy_nj.per_core[], .energy_nj.total | keys] | unique)
                == [$dynamic.energy_nj.total | keys]
            and .energy_terms_nj == $dynamic.energy_terms_nj' "$json"
        # each part is its counter times its price (%.6g: 1e-5), the cores
        # add up to the total, and no part is negative
        check "$name: parts" holds '
            def near($a; $b): ($a - $b | fabs) <= 1e-5 * ([1, ($b | fabs)] | max);
            .energy_terms_nj as $t
            | ([.per_core[], .total] | to_entries) as $counters
            | ([.energy_nj.per_core[], .energy_nj.total]) as $energy
            | all($counters[]; .key as $i | .value as $c | $energy[$i] as $e
                | near($e.access; ($c.hits + $c.misses) * $t.access)
                and near($e.snoop; $c.snoop_observations * $t.snoop_lookup)
                and near($e.memory_read; $c.data_from_memory * $t.memory_read)
                and near($e.c2c; $c.data_from_cache * $t.c2c)
                and near($e.memory_write; $c.writebacks * $t.memory_write)
                and near($e.bus; ($c.gets + $c.getm + $c.putm) * $t.bus_address)
                and near($e.total; $e.access + $e.snoop + $e.memory_read + $e.c2c
                                   + $e.memory_write + $e.bus)
                and ([$e[]] | all(. >= 0)))
            and (.energy_nj as $n
                | all($n.total | keys[]; . as $k | near([$n.per_core[][$k]] | add; $n.total[$k])))
            and .total.putm > 0 and .total.upgrades > 0 and .total.data_from_cache > 0' \
            "$json"
    done
done
check "random: stale PutMs reached" holds '.total.stale_putm > 0' "$work/split-msi-random.json"

# the text report: the atomic report's rows, one column per core and the
# total, the JSON's numbers to 0.1 nJ
"$STCSIM" coherence --size 256 --ways 2 --bus split --seed 3 "$work/mixed.txt" >"$work/split.out"
"$STCSIM" coherence --size 256 --ways 2 --bus split --seed 3 --json "$work/mixed.txt" >"$work/split3.json"
check "text rows" awk -v want="$(jq -r '[.energy_nj.per_core[].total, .energy_nj.total.total]
        | map(. * 10 | round / 10 | tostring) | join(" ")' "$work/split3.json")" '
    /_nj / { rows[$1] = NF; if ($1 == "total_nj") { $1 = ""; got = substr($0, 2) } }
    END {
        n = split("access_nj snoop_nj memory_read_nj c2c_nj memory_write_nj bus_nj total_nj", names)
        for (i = 1; i <= n; i++) if (rows[names[i]] != 6) exit 1
        split(got, g, " +"); split(want, w, " ")
        for (i = 1; i <= 5; i++) {
            d = g[i] - w[i]; if (d < 0) d = -d
            if (d > 0.11 && d > 1e-5 * w[i]) exit 1   # %.1f against %.6g
        }
    }' "$work/split.out"

# where the tables move the same data, the atomic run's energy, to the digit
for protocol in msi; do
    "$STCSIM" coherence --cores 2 --protocol "$protocol" --json "$work/same.txt" >"$work/same-atomic.json"
    "$STCSIM" coherence --cores 2 --protocol "$protocol" --bus split --schedule serial --json \
        "$work/same.txt" >"$work/same-split.json"
    check "$protocol serial = atomic" holds --slurpfile atomic "$work/same-atomic.json" '
        .energy_nj == ($atomic[0].energy_nj
                       | .total |= del(.static, .total_with_static, .stall, .total_with_stall)
                       | .per_core |= map(del(.static, .total_with_static, .stall,
                                              .total_with_stall)))
        and .total.data_from_cache == 1
        and .total.writebacks == 1 and .total.data_from_memory == 3' "$work/same-split.json"
done

# an E copy evicted (MESI, MOESI): silent on the atomic bus, a PutE on the
# split one, which costs an address phase and the other core's probe and
# moves no data (COHERENCE.md 8.7 decision 3, 10.9): core 0 loads three
# blocks of one set of its 2-way cache, the first leaves from E
printf '0 0 1000\n0 0 1080\n0 0 1100\n' >"$work/evict-e.txt"
for protocol in mesi moesi; do
    "$STCSIM" coherence --cores 2 --size 256 --ways 2 --protocol "$protocol" --json \
        "$work/evict-e.txt" >"$work/pute-atomic.json"
    "$STCSIM" coherence --cores 2 --size 256 --ways 2 --protocol "$protocol" --bus split \
        --schedule serial --json "$work/evict-e.txt" >"$work/pute-split.json"
    check "$protocol: a PutE is an address phase and a probe" holds \
        --slurpfile atomic "$work/pute-atomic.json" '
        def near($a; $b): ($a - $b | fabs) <= 1e-5 * ([1, ($b | fabs)] | max);
        .total.pute == 1 and .total.putm == 1 and .total.writebacks == 0
        and .energy_nj.total.memory_write == 0
        and near(.energy_nj.total.total; $atomic[0].energy_nj.total.total
                 + .energy_terms_nj.bus_address + .energy_terms_nj.snoop_lookup)' \
        "$work/pute-split.json"
done

# a geometry stc cannot build (3 ways): unpriced, as on the atomic bus
"$STCSIM" coherence --cores 2 --size 384 --ways 3 --bus split "$work/same.txt" >"$work/three.out"
check "3 ways: text" grep -q '^energy: not priced (energy model: 384 B 3-way' "$work/three.out"
"$STCSIM" coherence --cores 2 --size 384 --ways 3 --bus split --json "$work/same.txt" >"$work/three.json"
check "3 ways: json" holds '.energy_nj == null and .energy_terms_nj == null
    and (.energy_note | test("3-way"))' "$work/three.json"

echo "coherence-split-energy: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
