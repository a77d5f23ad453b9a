#!/usr/bin/env bash
# scripts/area-calibrate.sh - re-check (and re-derive) the calibration of
# the area model (ref/area_model.c, docs/EXPLORER.md section 3).
#
# Usage: scripts/area-calibrate.sh [--synth] STCGEN STCSIM SYNTH_DIR
#
# The calibration points are the synthesis reports SYNTH_DIR/NAME/report.json
# of the geometries listed below (the first four are `make synth`'s, so
# SYNTH_DIR=build/synth serves them; the others are made the same way).
# An I-cache point (kind i) is the same stcgen output with the top's
# READ_ONLY parameter set to 1, as stc_cache_pair instantiates u_icache.
# With --synth, every missing report is made first: stcgen FLAGS --out
# SYNTH_DIR/rtl/NAME, then synth/synth.sh and synth/check-report.sh, as
# synth/run-all.sh does (1-3 minutes a point on this machine, ~12 for 8 x 2 KB).
#
# Prints, as Markdown:
#  1. per point the SRAM bits (report and model: they must be equal) and
#     the logic's GE, OSU um^2 and flops, measured and as the committed
#     model gives them (`STCSIM explore --area-only --json`), with the
#     error; the worst errors (what ref/area_model.c states);
#  2. the coefficients a fresh least-squares fit gives (per module and
#     quantity, minimising the relative error over the points), as the C
#     initialisers of ref/area_model.c, and the worst errors of that fit.
# Exit status: 0, 1 when a report is missing (without --synth) or a tool
# fails, 2 on bad usage. Run from the repository root.
set -euo pipefail

die() { echo "area-calibrate: $*" >&2; exit "${2:-1}"; }

synth=0
if [ "${1:-}" = "--synth" ]; then synth=1; shift; fi
[ $# -eq 3 ] || die "usage: scripts/area-calibrate.sh [--synth] STCGEN STCSIM SYNTH_DIR" 2
stcgen=$1
stcsim=$2
dir=${3%/}
[ -x "$stcgen" ] || die "$stcgen: not an executable" 2
[ -x "$stcsim" ] || die "$stcsim: not an executable" 2
[ -f synth/synth.sh ] || die "run from the repository root" 2
command -v jq >/dev/null || die "jq not found"

# NAME|STCGEN FLAGS|KIND (d: D-cache, the plain top; i: I-cache, READ_ONLY=1).
# Nine points since the controller's row state moved into a register file
# (issue [ctrl-v2]); the earlier 17 included 8 x 2 KB, 4 x 4 KB and 8 x
# 512 B, which take 5-12 minutes each: geometries beyond these ranges are
# extrapolations (stc_area_calibrated).
points=(
    "default||d"
    "line32|--line-bytes 32|d"
    "banks2|--banks 2|d"
    "banks1|--banks 1|d"
    "bytes1k|--bank-bytes 1024|d"
    "bytes512|--bank-bytes 512|d"
    "nowp|--no-way-prediction|d"
    "default_ro||i"
    "banks2_ro|--banks 2|i"
)

make_point() { # NAME FLAGS KIND
    local name=$1 flags=$2 kind=$3 rtl=$dir/rtl/$1
    mkdir -p "$dir/rtl"
    # shellcheck disable=SC2086
    "$stcgen" $flags --out "$rtl" --force >/dev/null || die "stcgen $flags failed"
    if [ "$kind" = i ]; then
        sed -i 's/^\(  parameter integer READ_ONLY = \)0$/\11/' "$rtl/stc_cache.v"
        grep -q '^  parameter integer READ_ONLY = 1$' "$rtl/stc_cache.v" ||
            die "$rtl/stc_cache.v: no READ_ONLY parameter to set (the top changed?)"
    fi
    synth/synth.sh "$rtl" "$dir/$name" >&2
    synth/check-report.sh "$dir/$name/report.json" >&2
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for point in "${points[@]}"; do
    IFS='|' read -r name flags kind <<<"$point"
    report=$dir/$name/report.json
    if [ ! -f "$report" ]; then
        [ "$synth" = 1 ] || die "$report missing (run with --synth to make it)"
        make_point "$name" "$flags" "$kind"
    fi
    read -r banks bytes line wp < <(jq -r '.parameters | "\(.banks) \(.bank_bytes) \(.line_bytes) \(.way_prediction)"' "$report")
    if [ "$kind" = i ]; then cache=icache; else cache=dcache; fi
    if [ "$wp" = 1 ]; then wpflag=on; else wpflag=off; fi
    model=$("$stcsim" explore --area-only --json --banks "$banks" --bank-bytes "$bytes" \
        --line-bytes "$line" --wp "$wpflag") || die "$stcsim explore --area-only failed"
    # One "total" row per point, one "module" row per module: measured,
    # modelled (committed coefficients), then the model's terms.
    jq -r -n --argjson r "$(cat "$report")" --argjson m "$model" --arg name "$name" \
        --arg kind "$kind" --arg cache "$cache" '
        ($m.geometries[0].area.caches[$cache]) as $c
        | ["total", $name, $kind, $r.parameters.banks, $r.parameters.bank_bytes,
           $r.parameters.line_bytes, $r.parameters.way_prediction,
           ([$r.srams[].bits] | add), ($c.bank_sram_bits + $c.monitor_sram_bits + $c.regfile_bits),
           $r.totals.ge, $r.totals.osu_area_um2, $r.totals.flops,
           $c.logic_ge, $c.logic_um2, $c.flops] | @tsv,
        ($c.modules | to_entries[] | .key as $mod | .value as $v
         | ($r.modules | map(select(.name == $mod)) | first // {ge: 0, osu_area_um2: 0, flops: 0, instances: 1}) as $mm
         | ["module", $name, $mod, $mm.ge * $mm.instances, $mm.osu_area_um2 * $mm.instances,
            $mm.flops * $mm.instances, $v.ge, $v.um2, $v.flops,
            ($v.terms | keys_unsorted | join(","))] + ($v.terms | [.[]]) | @tsv)' >>"$tmp/rows.tsv"
done

awk -F'\t' '
function abs(v) { return v < 0 ? -v : v }
function pct(model, meas) { return meas == 0 ? 0 : 100 * (model - meas) / meas }
# Least squares of y on the terms of module mod over every point but skip
# (0: none), rows weighted by 1 / y (the relative error is minimised),
# columns scaled. Fills coef[mod, q, k]; returns 0, or -1 when the points
# do not determine a term.
function fit(mod, q, skip,   n, i, j, k, p, r, t, f, w, big, scale, A, b, x) {
    n = nterms[mod]
    for (k = 1; k <= n; k++) { scale[k] = 0
        for (r = 1; r <= nrows[mod]; r++) if (abs(X[mod, r, k]) > scale[k]) scale[k] = abs(X[mod, r, k])
        if (scale[k] == 0) scale[k] = 1 }
    for (i = 1; i <= n; i++) { b[i] = 0; for (j = 1; j <= n; j++) A[i, j] = 0 }
    for (r = 1; r <= nrows[mod]; r++) {
        if (rowpoint[mod, r] == skip) continue
        w = Y[mod, q, r] > 1 ? 1 / Y[mod, q, r] : 1
        for (i = 1; i <= n; i++) {
            b[i] += X[mod, r, i] / scale[i] * w * Y[mod, q, r] * w
            for (j = 1; j <= n; j++) A[i, j] += X[mod, r, i] / scale[i] * w * X[mod, r, j] / scale[j] * w
        }
    }
    big = 0
    for (i = 1; i <= n; i++) for (j = 1; j <= n; j++) if (abs(A[i, j]) > big) big = abs(A[i, j])
    for (k = 1; k <= n; k++) {
        p = k
        for (i = k + 1; i <= n; i++) if (abs(A[i, k]) > abs(A[p, k])) p = i
        if (p != k) { for (j = 1; j <= n; j++) { t = A[k, j]; A[k, j] = A[p, j]; A[p, j] = t }
                      t = b[k]; b[k] = b[p]; b[p] = t }
        if (abs(A[k, k]) <= 1e-10 * big) {
            if (!skip) printf "area-calibrate: the points do not determine %s of %s\n", tname[mod, k], mod > "/dev/stderr"
            return -1 }
        for (i = k + 1; i <= n; i++) { f = A[i, k] / A[k, k]
            for (j = k; j <= n; j++) A[i, j] -= f * A[k, j]; b[i] -= f * b[k] }
    }
    for (i = n; i >= 1; i--) { t = b[i]; for (j = i + 1; j <= n; j++) t -= A[i, j] * x[j]; x[i] = t / A[i, i] }
    for (k = 1; k <= n; k++) coef[mod, q, k] = x[k] / scale[k]
    return 0
}
# The fitted model of point p, quantity q (after fit of every module).
function predict(p, q,   m, mod, r, k, v) {
    v = 0
    for (m = 1; m <= nmod; m++) { mod = mods[m]
        for (r = 1; r <= nrows[mod]; r++) if (rowpoint[mod, r] == p)
            for (k = 1; k <= nterms[mod]; k++) v += coef[mod, q, k] * X[mod, r, k] }
    return v
}
$1 == "total" {
    np++; pname[np] = $2; pkind[np] = $3
    pinit[np] = sprintf("{\"%s\", %d, %d, %d, %s, %s, %d, %s, %s, %s},", $2, $4, $5, $6,
                        $7 == 1 ? "true" : "false", $3 == "i" ? "true" : "false", $8, $10, $11, $12)
    pdesc[np] = sprintf("%s x %s B, %s B lines%s%s", $4, $5, $6, $7 == 1 ? "" : ", no wp", $3 == "i" ? ", I-cache" : "")
    sram[np] = $8; msram[np] = $9
    for (q = 1; q <= 3; q++) { meas[np, q] = $(9 + q); model[np, q] = $(12 + q) }
}
$1 == "module" {
    mod = $3
    if (!(mod in nrows)) { nmod++; mods[nmod] = mod; nrows[mod] = 0
        nterms[mod] = split($10, names, ","); for (k = 1; k <= nterms[mod]; k++) tname[mod, k] = names[k] }
    r = ++nrows[mod]; rowpoint[mod, r] = np
    for (q = 1; q <= 3; q++) Y[mod, q, r] = $(3 + q)
    for (k = 1; k <= nterms[mod]; k++) X[mod, r, k] = $(10 + k)
}
END {
    qname[1] = "GE"; qname[2] = "um^2"; qname[3] = "flops"
    print "## Measured (synthesis) against the committed model\n"
    print "| point | geometry | SRAM bits (report = model) | GE | model | err % | OSU um^2 | model | err % | flops | model | err % |"
    print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for (p = 1; p <= np; p++) {
        if (sram[p] != msram[p]) { printf "area-calibrate: %s: %d SRAM bits in the report, %d in the model\n", pname[p], sram[p], msram[p] > "/dev/stderr"; failed = 1 }
        line = sprintf("| %s | %s | %d%s |", pname[p], pdesc[p], sram[p], sram[p] == msram[p] ? "" : " (model " msram[p] ")")
        for (q = 1; q <= 3; q++) { e = pct(model[p, q], meas[p, q]); if (abs(e) > worst[q]) worst[q] = abs(e)
            line = line sprintf(" %.0f | %.0f | %+.1f |", meas[p, q], model[p, q], e) }
        print line
    }
    printf "\nworst error: GE %.1f %%, um^2 %.1f %%, flops %.1f %%\n\n", worst[1], worst[2], worst[3]

    # Leave one out: each point predicted by a fit to all the others.
    for (p = 1; p <= np; p++) for (q = 1; q <= 3; q++) {
        ok = 1
        for (m = 1; m <= nmod; m++) if (fit(mods[m], q, p) != 0) ok = 0
        e = ok ? abs(pct(predict(p, q), meas[p, q])) : -1
        if (e < 0) loo_undetermined[q] = loo_undetermined[q] " " pname[p]
        else if (e > loo[q]) { loo[q] = e; loo_at[q] = pname[p] }
    }
    for (m = 1; m <= nmod; m++) for (q = 1; q <= 3; q++) if (fit(mods[m], q, 0) != 0) failed = 1
    if (failed) exit 1
    print "## A fresh fit (C initialisers of ref/area_model.c: ge, um2, flops per term)\n"
    print "```"
    for (m = 1; m <= nmod; m++) {
        mod = mods[m]; line = sprintf("%s terms {", mod)
        for (k = 1; k <= nterms[mod]; k++) line = line sprintf("%s\"%s\"", k > 1 ? ", " : "", tname[mod, k])
        print line "}"
        for (q = 1; q <= 3; q++) { line = sprintf("    %-6s {", qname[q])
            for (k = 1; k <= nterms[mod]; k++) line = line sprintf("%s%.6g", k > 1 ? ", " : "", coef[mod, q, k])
            print line "},"
        }
    }
    print "```\n"
    print "The points (C initialisers of ref/area_model.c: name, banks, bank bytes, line bytes,"
    print "way prediction, I-cache, SRAM bits, measured GE, OSU um^2, flops):\n"
    print "```"
    for (p = 1; p <= np; p++) print "    " pinit[p]
    print "```\n"
    for (p = 1; p <= np; p++) for (q = 1; q <= 3; q++) { e = abs(pct(predict(p, q), meas[p, q])); if (e > rworst[q]) rworst[q] = e }
    printf "worst error of the fresh fit: GE %.1f %%, um^2 %.1f %%, flops %.1f %%\n", rworst[1], rworst[2], rworst[3]
    printf "leave one out (each point predicted by a fit to the others), worst: GE %.1f %% (%s), um^2 %.1f %% (%s), flops %.1f %% (%s)\n", loo[1], loo_at[1], loo[2], loo_at[2], loo[3], loo_at[3]
    for (q = 1; q <= 3; q++) if (loo_undetermined[q] != "") printf "  (%s: a term is determined only with:%s)\n", qname[q], loo_undetermined[q]
    exit failed
}' "$tmp/rows.tsv"
