# synth/buffer-fanout.awk - give every net of a mapped Verilog netlist a
# buffer tree so that no driver sees more than MAXFO loads, as a synthesis
# tool's high-fanout repair would (ABC buffers only inside the logic it
# maps: flip-flop outputs and module inputs keep their full fanout).
#
# Usage: awk -v maxfo=8 -v buf=BUFX4 -v bufin=A -v bufout=Y -v clock=clk_i \
#            -v counts=FILE -f synth/buffer-fanout.awk LIBERTY NETLIST NETLIST > OUT
# (the netlist twice: pass 1 counts, pass 2 rewrites). Only pins of Liberty
# cells are moved onto a tree; other loads (assign, submodule pins) stay on
# the original net. The clock net is left alone (ideal clock, no clock tree).
# FILE gets one line per module: name and the number of buffers added.
# Written by Yosys's write_verilog -noattr -noexpr: one connection a line.

FNR == 1 { file++ }

# --- the Liberty file: cell names and output pin names
file == 1 {
    if ($0 ~ /^[ \t]*cell[ \t]*\(/) {
        c = $0; sub(/^[^(]*\([ \t]*"?/, "", c); sub(/"?[ \t]*\).*$/, "", c); libcell[c] = 1
    } else if ($0 ~ /^[ \t]*pin[ \t]*\(/) {
        p = $0; sub(/^[^(]*\([ \t]*"?/, "", p); sub(/"?[ \t]*\).*$/, "", p)
    } else if ($0 ~ /direction[ \t]*:[ \t]*output/) {
        outpin[p] = 1
    }
    next
}

function modname(line,    m) {
    m = line; sub(/^module[ \t]+/, "", m); sub(/[ \t]*\(.*$/, "", m); sub(/[ \t]*;.*$/, "", m)
    return m
}

# --- pass 1: loads per net
file == 2 {
    if ($0 ~ /^module /) { mod = modname($0); mods[++nmods] = mod; next }
    if ($0 ~ /^  [^ ].* \($/) { inst_type = $1; inst = $0; sub(/^  [^ ]+ /, "", inst); sub(/ \($/, "", inst); next }
    if ($0 ~ /^  \);/) { inst_type = ""; next }
    if ($0 ~ /^    \.[A-Za-z0-9_]+\(.*\),?$/) {
        pin = $0; sub(/^    \./, "", pin); sub(/\(.*$/, "", pin)
        net = $0; sub(/^    \.[A-Za-z0-9_]+\(/, "", net); sub(/\),?$/, "", net)
        if (net ~ /^[0-9]+'/ || net == clock) next
        if (!(inst_type in libcell)) { fixed[mod, net]++; nets[mod, net] = 1; next }
        if (pin in outpin) next
        n = ++movable[mod, net]; nets[mod, net] = 1
        load[mod, net, n] = inst SUBSEP pin
        next
    }
    if ($0 ~ /^  assign /) {
        rhs = $0; sub(/^[^=]*= */, "", rhs); sub(/;$/, "", rhs)
        fixed[mod, rhs]++; nets[mod, rhs] = 1
    }
    next
}

# plan the trees once pass 1 is over
file == 3 && FNR == 1 {
    for (key in nets) {
        split(key, kk, SUBSEP); m = kk[1]; net = kk[2]
        k = movable[m, net] + 0
        if (k + fixed[m, net] <= maxfo || k == 0) continue
        # level 0: groups of loads; higher levels: groups of buffers, until
        # the root drives at most maxfo (with its fixed loads) or one buffer
        nb = 0
        cnt = k
        for (i = 1; i <= k; i++) item[i] = "L" i
        while (cnt + fixed[m, net] > maxfo && cnt > 1) {
            ng = int((cnt + maxfo - 1) / maxfo)
            for (g = 1; g <= ng; g++) {
                nbuf++; nb++
                bname = "_stcfo" nbuf "_"
                bufnet[g] = bname "y"
                newbuf[m] = newbuf[m] sprintf("  %s %s (\n    .%s(@IN%d@),\n    .%s(%s)\n  );\n", buf, bname, bufin, nbuf, bufout, bname "y")
                newwire[m] = newwire[m] "  wire " bname "y;\n"
                bufid[g] = nbuf
            }
            for (i = 1; i <= cnt; i++) {
                g = int((i - 1) / maxfo) + 1
                if (item[i] ~ /^L/) {
                    moved[m, load[m, net, substr(item[i], 2) + 0]] = bufnet[g]
                } else {
                    bufinput[substr(item[i], 2) + 0] = bufnet[g]
                }
            }
            for (g = 1; g <= ng; g++) item[g] = "B" bufid[g]
            cnt = ng
        }
        for (i = 1; i <= cnt; i++) {
            if (item[i] ~ /^B/) bufinput[substr(item[i], 2) + 0] = net
            else moved[m, load[m, net, substr(item[i], 2) + 0]] = net
        }
        added[m] += nb
    }
    for (i = 1; i <= nmods; i++) {
        m = mods[i]
        s = newbuf[m]
        while (match(s, /@IN[0-9]+@/)) {
            id = substr(s, RSTART + 3, RLENGTH - 4) + 0
            s = substr(s, 1, RSTART - 1) bufinput[id] substr(s, RSTART + RLENGTH)
        }
        newbuf[m] = s
        if (counts != "") printf "%s %d\n", m, added[m] + 0 > counts
    }
}

# --- pass 2: rewrite
file == 3 {
    if ($0 ~ /^module /) {
        mod = modname($0); print
        if ($0 ~ /;[ \t]*$/) { printf "%s", newwire[mod]; pending = 0 } else pending = 1
        next
    }
    if (pending) { print; if ($0 ~ /;[ \t]*$/) { printf "%s", newwire[mod]; pending = 0 }; next }
    if ($0 ~ /^endmodule/) { printf "%s", newbuf[mod]; print; next }
    if ($0 ~ /^  [^ ].* \($/) { inst = $0; sub(/^  [^ ]+ /, "", inst); sub(/ \($/, "", inst); print; next }
    if ($0 ~ /^    \.[A-Za-z0-9_]+\(.*\),?$/) {
        pin = $0; sub(/^    \./, "", pin); sub(/\(.*$/, "", pin)
        if ((mod, inst SUBSEP pin) in moved) {
            comma = ($0 ~ /,$/) ? "," : ""
            printf "    .%s(%s)%s\n", pin, moved[mod, inst SUBSEP pin], comma
            next
        }
    }
    print
}
