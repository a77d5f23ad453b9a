#!/usr/bin/env bash
# coherence.sh - the coherence half of the evidence page: the snooping seed's
# Figures 5.11-5.13 (misses by class against cache size, core count and block
# size) re-measured with `stcsim coherence` (atomic bus, MESI) on the
# project's multi-threaded kernels (make mc-traces, traces/mc/README.md), the
# seed's trends beside ours, every kernel's counters, and the three
# protocols' bus traffic. The seed measured an OLTP workload's L3 per 1000
# instructions; the kernels have no instruction stream here (data references
# only), so the rate is per 1000 data references of all seven kernels
# together.
# jq programs and Markdown (with `code`) are single-quoted on purpose:
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=scripts/paper/lib.sh
. "$(dirname "$0")/lib.sh"
need PAPER_OUT PAPER_DIR MC_TRACEDIR MC_KERNELS
raw=$PAPER_OUT/raw
out=$(section_file 90-coherence)
read -r -a kernels <<<"$MC_KERNELS"

# class_tsv SWEEP VALUES LABEL_SUFFIX: per value, the classes' misses per
# 1000 references summed over every kernel (columns: label, compulsory,
# capacity, conflict, true, false, upgrades, references).
class_tsv() {
    local sweep=$1 values=$2 suffix=$3 value k files
    printf '# %s\tcompulsory\tcapacity\tconflict\ttrue_sharing\tfalse_sharing\tupgrades\treferences\n' "$sweep"
    for value in $values; do
        files=()
        for k in "${kernels[@]}"; do files+=("$raw/coh-$sweep-$k-$value.json"); done
        jqp -r -s --arg name "$value$suffix" '
          include "fmt";
          [.[].total] as $t
          | ([$t[].references] | add) as $refs
          | def per($f): ([$t[][$f]] | add) * 1000 / $refs | fixed(3);
          [$name, per("miss_compulsory"), per("miss_capacity"), per("miss_conflict"),
           per("miss_true_sharing"), per("miss_false_sharing"), per("upgrades"), ($refs | tostring)]
          | @tsv' "${files[@]}"
    done
}
# Every run must have been clean: a violation would make its counters moot.
for f in "$raw"/coh-*.json; do
    jq -e '.violations.count == 0' "$f" >/dev/null || die "$f: coherence violations"
done
# shellcheck disable=SC2153
class_tsv size "$COH_SIZE_LIST" "" | awk -F'\t' -v OFS='\t' '!/^#/ { $1 = $1 / 1024 " KB" } 1' \
    >"$PAPER_OUT/data/coh-size.tsv"
class_tsv cores "$COH_CORE_LIST" "" >"$PAPER_OUT/data/coh-cores.tsv"
class_tsv line "$COH_LINE_LIST" " B" >"$PAPER_OUT/data/coh-line.tsv"

plot coherence.gp fig-coh-size "file='coh-size.tsv'" \
    "title_text='Misses by class against per-core cache size (4 cores, 4-way, 32 B blocks, MESI)'" \
    "xlabel_text='per-core cache size'"
plot coherence.gp fig-coh-cores "file='coh-cores.tsv'" \
    "title_text='Misses by class against core count (8 KB 4-way per core, 32 B blocks, MESI)'" \
    "xlabel_text='cores (threads)'"
plot coherence.gp fig-coh-line "file='coh-line.tsv'" \
    "title_text='Misses by class against block size (4 cores, 8 KB 4-way, MESI)'" \
    "xlabel_text='block (line) size'"

# The seed's trends against ours, from the three data files.
trends=$(jqp -r -n --rawfile size "$PAPER_OUT/data/coh-size.tsv" \
    --rawfile cores "$PAPER_OUT/data/coh-cores.tsv" --rawfile line "$PAPER_OUT/data/coh-line.tsv" '
  include "fmt";
  def rows($text): [$text | split("\n")[] | select(length > 0 and (startswith("#") | not))
                    | split("\t") | .[1:] | map(tonumber)];
  def col($r; $i): $r | map(.[$i]);
  def ratio($a; $b): if $a == 0 then "- (0 at the first point)" else ($b / $a | fixed(2)) + "x" end;
  rows($size) as $s | rows($cores) as $c | rows($line) as $l
  | ($s | length - 1) as $sl | ($l | length - 1) as $ll
  | "| seed (OLTP, L3) | trend there | stc kernels: measured | holds here? |",
    "|---|---|---|---|",
    "| Fig. 5.11, cache size up | capacity/conflict fall; compulsory, true and false sharing do not change | capacity+conflict \(ratio($s[0][1] + $s[0][2]; $s[$sl][1] + $s[$sl][2])) from 2 to 32 KB; compulsory \(ratio($s[0][0]; $s[$sl][0])), true \(ratio($s[0][3]; $s[$sl][3])), false \(ratio($s[0][4]; $s[$sl][4])) | \(if ($s[$sl][1] + $s[$sl][2]) < ($s[0][1] + $s[0][2]) then "yes" else "no" end) |",
    "| Fig. 5.12, more processors | true sharing rises | true sharing per 1000 refs \(col($c; 3) | map(fixed(1)) | join(" / ")) at 1 / 2 / 4 / 8 cores; false \(col($c; 4) | map(fixed(1)) | join(" / ")) | \(if (col($c; 3) | . == sort) and $c[-1][3] > $c[1][3] then "yes" else "no" end) |",
    "| Fig. 5.13, block 32 to 256 B: true sharing | half or less (\($paper["coh.block_true_ratio"])x) | \(ratio($l[1][3]; $l[$ll][3])) | \(if $l[$ll][3] <= $paper["coh.block_true_ratio"] * $l[1][3] then "yes" else "no" end) |",
    "| Fig. 5.13: compulsory | falls strongly | \(ratio($l[1][0]; $l[$ll][0])) | \(if $l[$ll][0] < 0.5 * $l[1][0] then "yes" else "no" end) |",
    "| Fig. 5.13: capacity/conflict | falls little (\($paper["coh.block_capconf_ratio"])x) | \(ratio($l[1][1] + $l[1][2]; $l[$ll][1] + $l[$ll][2])) | \(if ($l[$ll][1] + $l[$ll][2]) < ($l[1][1] + $l[1][2]) then "falls" else "no: rises" end) |",
    "| Fig. 5.13: false sharing | nearly doubles (\($paper["coh.block_false_ratio"])x) | \(ratio($l[1][4]; $l[$ll][4])) | \(if $l[$ll][4] > $l[1][4] then "grows" else "no" end) |"
')

# Every kernel at the common point (4 cores, 8 KB 4-way, 32 B, MESI).
kernel_files=()
for k in "${kernels[@]}"; do kernel_files+=("$raw/coh-cores-$k-4.json"); done
per_kernel=$(jqp -r -s '
  include "fmt";
  "| kernel | references | miss % | compulsory | capacity | conflict | true sharing | false sharing | upgrades | BusRd | BusRdX | cache-to-cache | memory writebacks | invalidations |",
  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  (.[] | (.trace | split("/")[-1] | split(".")[0]) as $k | .total as $t
   | "| \($k) | \($t.references) | \(100 * $t.misses / ($t.hits + $t.misses) | fixed(1)) | \($t.miss_compulsory) | \($t.miss_capacity) | \($t.miss_conflict) | \($t.miss_true_sharing) | \($t.miss_false_sharing) | \($t.upgrades) | \($t.bus_rd) | \($t.bus_rdx) | \($t.c2c_received) | \($t.mem_writebacks) | \($t.inv_received) |")
' "${kernel_files[@]}")

# The protocols: bus transactions and where the data came from.
proto_files=()
for k in "${kernels[@]}"; do
    for p in msi mesi moesi; do proto_files+=("$raw/coh-proto-$k-$p.json"); done
done
protocols=$(jqp -r -s '
  include "fmt";
  def bus($t): $t.bus_rd + $t.bus_rdx + $t.upgrades + $t.bus_wb;
  "| kernel | bus transactions MSI / MESI / MOESI | memory reads | cache-to-cache | memory writebacks | energy, uJ (docs/ENERGY.md 3.9) |",
  "|---|---:|---:|---:|---:|---:|",
  (group_by(.trace)[] | sort_by({msi: 0, mesi: 1, moesi: 2}[.protocol]) as $r
   | ($r[0].trace | split("/")[-1] | split(".")[0]) as $k
   | "| \($k) | \([$r[] | bus(.total)] | map(tostring) | join(" / ")) | \([$r[] | .total.mem_reads] | map(tostring) | join(" / ")) | \([$r[] | .total.c2c_received] | map(tostring) | join(" / ")) | \([$r[] | .total.mem_writebacks] | map(tostring) | join(" / ")) | \([$r[] | .energy_nj.total.total / 1000] | map(fixed(1)) | join(" / ")) |")
' "${proto_files[@]}")

# The seed's snoop-bandwidth example recomputed, then applied to each
# kernel's measured coherence miss rate (true + false sharing misses per
# reference at 4 cores): how many such processors the seed's L2 could
# serve. Every L2 sees every processor's coherence misses, each holding it
# `cycles` cycles: N x (ldst / CPI) x CMR x cycles <= share.
snoop=$(jqp -r -s '
  include "fmt";
  ($paper["coh.snoop.procs"]) as $n | ($paper["coh.snoop.cycles"]) as $cy
  | ($paper["coh.snoop.ldst"] / $paper["coh.snoop.cpi"]) as $refs_per_cycle
  | ($paper["coh.snoop.share"]) as $share
  | ($share / ($n * $refs_per_cycle * $cy)) as $cmr_max
  | ($share / ($refs_per_cycle * 0.01 * $cy)) as $n_at_1
  | "The seed'"'"'s example, recomputed from its assumptions (\($n) processors, \($cy) cycles per L2 request, CPI \($paper["coh.snoop.cpi"]), \($paper["coh.snoop.ldst"] * 100 | fixed(0)) % loads and stores, coherence at most \($share * 100 | fixed(0)) % of the L2): N x (\($paper["coh.snoop.ldst"]) / \($paper["coh.snoop.cpi"])) x CMR x \($cy) <= \($share) gives CMR <= \($cmr_max * 100 | fixed(2)) % (the seed: \($paper["coh.snoop.cmr_max"]) %), and at CMR = 1 % N <= \($n_at_1 | fixed(2)) (the seed: \($paper["coh.snoop.procs_at_1pct"]) processors).\n",
    "| kernel (4 cores, MESI) | coherence misses per reference (CMR) | processors the seed'"'"'s L2 could serve |",
    "|---|---:|---:|",
    (.[] | (.trace | split("/")[-1] | split(".")[0]) as $k | .total as $t
     | (($t.miss_true_sharing + $t.miss_false_sharing) / $t.references) as $cmr
     | "| \($k) | \($cmr * 100 | fixed(2)) % | \(if $cmr == 0 then "any" else ($share / ($refs_per_cycle * $cmr * $cy)) as $max | if $max < 1 then "fewer than 1" else ($max | floor | tostring) end end) |")
' "${kernel_files[@]}")

# The configurable caches under coherence (docs/COHERENCE.md 11, 11.8):
# every kernel with every core in each of the 27 stc configurations, and
# the oracle coordinate descent on the system's energy against the
# conventional start and each core tuned alone. Run here, two at a time,
# and added to jobs.tsv (the page's list of exact commands).
COH_STC_CONFIGS="2K_1W_16B 2K_1W_32B 2K_1W_64B 4K_1W_16B 4K_1W_32B 4K_1W_64B
 4K_2W_16B 4K_2W_16B_P 4K_2W_32B 4K_2W_32B_P 4K_2W_64B 4K_2W_64B_P
 8K_1W_16B 8K_1W_32B 8K_1W_64B 8K_2W_16B 8K_2W_16B_P 8K_2W_32B 8K_2W_32B_P 8K_2W_64B
 8K_2W_64B_P 8K_4W_16B 8K_4W_16B_P 8K_4W_32B 8K_4W_32B_P 8K_4W_64B 8K_4W_64B_P"
stc_jobs=$PAPER_OUT/jobs-coh-stc.tsv
{
    for k in "${kernels[@]}"; do
        printf 'coh-tune-%s\t%s\n' "$k" "$STCSIM coherence --json --cores 4 --protocol mesi --stc-tune 8K_4W_32B $MC_TRACEDIR/$k.t4.mc.zst"
        for c in $COH_STC_CONFIGS; do
            printf 'coh-stc-%s-%s\t%s\n' "$k" "$c" "$STCSIM coherence --json --cores 4 --protocol mesi --stc-config $c $MC_TRACEDIR/$k.t4.mc.zst"
        done
    done
} >"$stc_jobs"
"$PAPER_DIR/run-jobs.sh" "$stc_jobs" "$raw"
cat "$stc_jobs" >>"$PAPER_OUT/jobs.tsv"
rm "$stc_jobs"
for f in "$raw"/coh-stc-*.json; do
    jq -e '.violations.count == 0 and .energy_nj != null' "$f" >/dev/null || die "$f: violations or no energy"
done
for f in "$raw"/coh-tune-*.json; do
    jq -e '[.start, .alone, .coherent | .violations] | add == 0' "$f" >/dev/null || die "$f: coherence violations"
done
# Per configuration: each kernel's snoop lookups per 1000 references, then
# each kernel's snoop energy in uJ.
{
    printf '# configuration'
    for k in "${kernels[@]}"; do printf '\tlookups_%s' "$k"; done
    for k in "${kernels[@]}"; do printf '\tsnoop_uJ_%s' "$k"; done
    printf '\n'
    for c in $COH_STC_CONFIGS; do
        files=()
        for k in "${kernels[@]}"; do files+=("$raw/coh-stc-$k-$c.json"); done
        jqp -r -s --arg c "$c" '
          include "fmt";
          [$c] + [.[] | .total.snoop_lookups * 1000 / .total.references | fixed(3)]
          + [.[] | .energy_nj.total.snoop / 1000 | fixed(4)] | @tsv' "${files[@]}"
    done
} >"$PAPER_OUT/data/coh-stc-snoop.tsv"
plot coh-stc.gp fig-coh-stc-snoop "file='coh-stc-snoop.tsv'" "names='${kernels[*]}'" \
    "title_text='Snoop lookups and their energy per stc configuration (4 cores, all in one configuration, MESI)'"
# The tuned assignments against the conventional start and the single-cache choices.
tune_files=()
for k in "${kernels[@]}"; do tune_files+=("$raw/coh-tune-$k.json"); done
stc_tune=$(jqp -r -s '
  include "fmt";
  def uj: . / 1000 | fixed(1);
  def pct($base): (100 * (. - $base) / $base) | (if . >= 0 then "+" else "" end) + fixed(1) + " %";
  def names: if (unique | length) == 1 then "4 x " + .[0] else join(", ") end;
  "| kernel | 8K_4W_32B, uJ | each core tuned alone | uJ (vs 8K_4W_32B) | coherent tuner | uJ (vs 8K_4W_32B) | coherent vs alone | runs |",
  "|---|---:|---|---:|---|---:|---:|---:|",
  (.[] | (.trace | split("/")[-1] | split(".")[0]) as $k
   | .start.energy_nj.total.total as $s | .alone.energy_nj.total.total as $a
   | .coherent.energy_nj.total.total as $c
   | "| \($k) | \($s | uj) | \(.alone.configs | names) | \($a | uj) (\($a | pct($s))) | \(.coherent.configs | names) | \($c | uj) (\($c | pct($s))) | \($c | pct($a)) | \(.tune.runs) |")
' "${tune_files[@]}")

{
    printf '## Coherence: the snooping seed'"'"'s Figures 5.11-5.13 on multi-threaded kernels\n\n'
    printf 'The second seed (Hennessy & Patterson 5.3) classifies the misses of a 4-processor OLTP workload into compulsory, capacity/conflict, true sharing and false sharing and shows how they move with cache size (Figure 5.11), processor count (5.12) and block size (5.13). Here the same classification (docs/COHERENCE.md 9.3: sharing decided word by word at the miss; capacity against conflict by a fully associative LRU cache of the same size) is measured by `stcsim coherence` (atomic bus, MESI unless said) on the project'"'"'s seven multi-threaded kernels, traced with one reference per core in turn (`make mc-traces`, traces/mc/README.md): %s. Rates are misses per 1000 data references of all seven kernels together; the seed'"'"'s are per 1000 instructions of a commercial workload, so the trends compare, the magnitudes do not.\n\n' "$(printf '%s, ' "${kernels[@]}" | sed 's/, $//')"
    figure_md fig-coh-size "Seed Figure 5.11: misses by class against per-core cache size (data: data/coh-size.tsv)"
    figure_md fig-coh-cores "Seed Figure 5.12: misses by class against core count (data: data/coh-cores.tsv)"
    figure_md fig-coh-line "Seed Figure 5.13: misses by class against block size (data: data/coh-line.tsv)"
    printf '%s\n\n' "$trends"
    printf 'Every kernel at 4 cores, 8 KB 4-way per core, 32-byte blocks, MESI (misses by class, transactions issued, data received from another cache, writes to memory, copies invalidated; totals over the cores):\n\n%s\n\n' "$per_kernel"
    printf 'The three protocols at the same point (MESI'"'"'s E saves the upgrade of private data; MOESI'"'"'s O lets a dirty line be shared without writing memory; energy of accesses, snoops, transfers and bus phases: dynamic energy only, the leakage that COHERENCE.md 9.10 prices from cycles is not in these tables):\n\n%s\n\n' "$protocols"
    printf 'Snoop bandwidth (the seed'"'"'s worked example in 5.3):\n\n%s\n\n' "$snoop"
    printf 'Commands (per kernel K of %s; the sizes, core counts and block sizes as in the figures):\n\n```\n' "${kernels[*]}"
    printf '%s\n' "stcsim coherence --json --cores 4 --size SIZE $MC_TRACEDIR/K.t4.mc.zst" \
        "stcsim coherence --json --cores N $MC_TRACEDIR/K.tN.mc.zst" \
        "stcsim coherence --json --cores 4 --line BYTES $MC_TRACEDIR/K.t4.mc.zst" \
        "stcsim coherence --json --cores 4 --protocol msi|mesi|moesi $MC_TRACEDIR/K.t4.mc.zst"
    printf '```\n\n(raw/coh-*.json hold each run'"'"'s output; jobs.tsv the exact command lines.)\n\n'
    printf '### The configurable cache under coherence\n\n'
    printf 'Every core'"'"'s D-cache an stc cache, coherent per 16 B physical line (docs/COHERENCE.md 11), each core'"'"'s energy priced by its configuration (docs/ENERGY.md 3.9.1: an access the configuration'"'"'s probe, a snoop lookup the tags of its candidate banks, every physical line its own transaction). The snoop lookups other cores'"'"' transactions cost, with all four cores in one configuration:\n\n'
    figure_md fig-coh-stc-snoop "Snoop lookups per 1000 references and their energy per stc configuration, per kernel (data: data/coh-stc-snoop.tsv)"
    printf 'Choosing each core'"'"'s configuration with coherence in the cost (docs/COHERENCE.md 11.8): oracle coordinate descent on the whole system'"'"'s energy from all cores in 8K_4W_32B, against each core tuned alone (its own references through one stc cache, the cheapest of the 27 by the single-cache model, then run coherent); energies in uJ, MESI, 4 cores:\n\n%s\n\n' "$stc_tune"
    printf 'Commands (per kernel K, configuration C of the 27):\n\n```\n%s\n%s\n```\n\nNot yet here: the split-transaction bus, and the cycles and leakage of COHERENCE.md 9.10 and 11.9.\n\n' \
        "stcsim coherence --json --cores 4 --protocol mesi --stc-config C $MC_TRACEDIR/K.t4.mc.zst" \
        "stcsim coherence --json --cores 4 --protocol mesi --stc-tune 8K_4W_32B $MC_TRACEDIR/K.t4.mc.zst"
} >"$out"
