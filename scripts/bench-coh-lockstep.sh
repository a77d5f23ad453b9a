#!/bin/bash
# bench-coh-lockstep.sh BINARY - the coherence lockstep's speed (tb/coh):
# MESI on 4 cores, 250 000 references per core, every check on; prints
# references and simulated cycles per second of wall clock.
set -eu -o pipefail
binary=${1:?usage: bench-coh-lockstep.sh BINARY}
start=$(date +%s.%N)
line=$("$binary" --protocol mesi --cores 4 --refs 250000 --seed 11 | tail -1)
end=$(date +%s.%N)
echo "$line"
refs=$(sed -n 's/^PASS .*: \([0-9]*\) references in \([0-9]*\) cycles.*/\1/p' <<<"$line")
cycles=$(sed -n 's/^PASS .*: \([0-9]*\) references in \([0-9]*\) cycles.*/\2/p' <<<"$line")
[ -n "$refs" ] || { echo "bench-coh-lockstep: the run did not pass"; exit 1; }
awk -v r="$refs" -v c="$cycles" -v s="$start" -v e="$end" 'BEGIN {
    t = e - s
    printf "bench-coh-lockstep: %d references, %d cycles in %.1f s: %.0f references/s, %.0f cycles/s\n",
           r, c, t, r / t, c / t
}'
