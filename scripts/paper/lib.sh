# shellcheck shell=bash
# lib.sh - helpers shared by the scripts of `make paper` (sourced, not run).
# Every section script gets its inputs from the environment the driver
# (paper.sh) exports: PAPER_OUT (the page being built), STCSIM, TRACES (the
# trace files, sorted), PAPER_DIR (this folder).

# The coherence sweeps of coherence.sh (jobs.sh runs them): per-core cache
# size at 4 cores, core count, block size at 4 cores; MESI, 4 ways, 32 B
# blocks and 8 KB unless swept.
COH_SIZE_LIST="2048 4096 8192 16384 32768"
COH_CORE_LIST="1 2 4 8"
COH_LINE_LIST="16 32 64 128 256"

# die MESSAGE: stop the whole build with a message naming the script.
die() {
    echo "${0##*/}: $*" >&2
    exit 1
}

# need VAR...: fail clearly when the driver did not export what we use.
need() {
    local var
    for var in "$@"; do
        [ -n "${!var:-}" ] || die "$var is not set (run scripts/paper/paper.sh, not this script)"
    done
}

# pv KEY: one of the paper's values (paper-values.tsv), never typed twice.
pv() {
    local value
    value=$(awk -F'\t' -v k="$1" '$1 == k { print $2; found = 1 } END { exit !found }' \
        "$PAPER_DIR/paper-values.tsv") || die "paper-values.tsv has no key '$1'"
    printf '%s\n' "$value"
}

# paper_json: the paper's values as one JSON object {key: value}, for jq.
# Numbers stay numbers, configuration names strings.
paper_json() {
    awk -F'\t' '!/^#/ && $1 != "key" && NF >= 2 { print $1 "\t" $2 }' "$PAPER_DIR/paper-values.tsv" |
        jq -R -s 'split("\n") | map(select(length > 0) | split("\t")
            | {(.[0]): (.[1] | tonumber? // .)}) | add'
}

# cmd_of NAME...: the exact commands of the named jobs (jobs.tsv), as run,
# with the full trace list written as $T (defined at the top of the page).
cmd_of() {
    local name
    for name in "$@"; do
        awk -F'\t' -v n="$name" -v t="${TRACES[*]}" '
            $1 == n { line = $2; i = index(line, t)
                      if (i > 0 && length(t) > 0) line = substr(line, 1, i - 1) "$T" substr(line, i + length(t))
                      print line " > raw/" n ".json"; found = 1 }
            END { exit !found }' "$PAPER_OUT/jobs.tsv" || die "no job '$name' in jobs.tsv"
    done
}

# jqp ARGS...: jq with our formatting library (fmt.jq) and the paper's values
# as $paper.
jqp() {
    jq -L "$PAPER_DIR" --argjson paper "$(paper_json)" "$@"
}

# load_traces: TRACES, which bash cannot export, from the driver's list.
load_traces() {
    need PAPER_OUT
    mapfile -t TRACES <"$PAPER_OUT/traces.txt"
    [ "${#TRACES[@]}" -gt 0 ] || die "no traces listed in $PAPER_OUT/traces.txt"
}

# prog_of TRACE: the program's name (bitcount for build/traces/bitcount.i386.lackey.zst).
prog_of() {
    local base=${1##*/}
    printf '%s\n' "${base%%.*}"
}

# kinds_json: kinds.tsv as {program: {paper, match, why}}, for jq.
kinds_json() {
    awk -F'\t' '!/^#/ && $1 != "program" && NF == 4' "$PAPER_DIR/kinds.tsv" |
        jq -R -s 'split("\n") | map(select(length > 0) | split("\t")
            | {(.[0]): {paper: .[1], match: .[2], why: .[3]}}) | add'
}

# sweeps: the raw sweep files of every trace, in the page's order.
sweeps() {
    local t
    for t in "${TRACES[@]}"; do
        printf '%s\n' "$PAPER_OUT/raw/sweep-$(prog_of "$t").json"
    done
}

# plot GP OUT [STATEMENT...]: draw PAPER_DIR/GP into PAPER_OUT/OUT.svg and
# OUT.png; each STATEMENT (e.g. "ymax=2") is run before the script.
plot() {
    local gp=$1 out=$2 term
    shift 2
    local pre="dir='$PAPER_DIR'; data='$PAPER_OUT/data'"
    local statement
    for statement in "$@"; do pre="$pre; $statement"; done
    for term in svg png; do
        LC_ALL=C.UTF-8 gnuplot -e "term='$term'; out='$PAPER_OUT/$out.$term'; $pre" "$PAPER_DIR/$gp" ||
            die "gnuplot $gp failed ($term)"
        [ -s "$PAPER_OUT/$out.$term" ] || die "gnuplot $gp wrote no $out.$term"
    done
}

# section NN-NAME: where a section script writes its Markdown.
section_file() {
    printf '%s\n' "$PAPER_OUT/sections/$1.md"
}

# figure_md FILE CAPTION: the Markdown of a figure (SVG shown, PNG linked).
figure_md() {
    printf '![%s](%s.svg)\n\n' "$2" "$1"
    printf '*%s* (PNG: [%s.png](%s.png))\n\n' "$2" "$1" "$1"
}

# commands_md NAME...: a code block of the exact commands of the named jobs.
commands_md() {
    printf '```\n'
    cmd_of "$@"
    printf '```\n\n'
}
