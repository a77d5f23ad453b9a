#!/usr/bin/env node
// vcd2wavedrom.js: WaveDrom JSON timing diagrams from a VCD, one file per
// diagram of a scenario description (docs/timing/scenarios.txt), so that the
// diagrams of docs/TIMING.md are what the simulation did (scripts/
// render-timing.sh, tests/timing-check.sh). No npm dependencies.
//
// Usage: vcd2wavedrom.js VCD SCENARIOS OUTDIR      writes OUTDIR/NAME.json
//        vcd2wavedrom.js --table NAME VCD SCENARIOS  prints diagram NAME's
//                                                   samples, one cycle a line
//
// Scenario description: one directive a line, '#' starts a comment.
//   scope PATH               prefix for signal paths without a dot (global)
//   diagram NAME             starts a diagram: docs/timing/NAME.json
//   title TEXT               its heading
//   clock PATH [LABEL]       the clock: cycle n is the period that starts at
//                            its n-th rising edge (counting from 1), drawn as
//                            'p'; each signal is sampled at the end of each
//                            cycle (1 time unit before the next rising edge)
//   window FIRST COUNT       the cycles shown: FIRST .. FIRST+COUNT-1
//   elide FROM TO            cycles FROM..TO (inclusive) drawn as one gap
//                            column '|' (several allowed, not overlapping)
//   hscale N                 WaveDrom's horizontal scale (default 1)
//   signal PATH LABEL [valid=PATH] [fmt=hex|hex16|dec|bin]
//                            a lane: one bit as 0/1 with '.' for unchanged,
//                            wider as '=' with its value (hex by default;
//                            hex16: the low 16 bits as 4 hex digits, for
//                            32-bit data words in narrow cells);
//                            valid=: drawn as x (don't care) in cycles where
//                            that one-bit signal is 0
//   group LABEL ... end      lanes under a bracket
//   sep                      an empty lane
// Tick marks carry cycle numbers relative to FIRST (0 = FIRST).
'use strict';

const fs = require('fs');
const path = require('path');

function die(msg) {
    process.stderr.write('vcd2wavedrom: ' + msg + '\n');
    process.exit(1);
}

// ------------------------------------------------------------ scenarios
function parseScenarios(text, file) {
    const diagrams = [];
    let scope = '';
    let cur = null;
    let group = null;
    const lines = text.split('\n');
    const full = (p) => (p.includes('.') || scope === '' ? p : scope + '.' + p);
    for (let i = 0; i < lines.length; i++) {
        const where = file + ':' + (i + 1);
        const line = lines[i].replace(/#.*$/, '').trim();
        if (line === '') continue;
        const words = line.split(/\s+/);
        const cmd = words[0];
        const rest = line.slice(cmd.length).trim();
        const need = () => { if (!cur) die(where + ': "' + cmd + '" outside a diagram'); };
        const lane = (l) => { (group ? group.lanes : cur.lanes).push(l); };
        switch (cmd) {
        case 'scope':
            scope = rest;
            break;
        case 'diagram':
            if (group) die(where + ': group not closed');
            if (!/^[A-Za-z0-9_-]+$/.test(rest)) die(where + ': bad diagram name "' + rest + '"');
            if (diagrams.some((d) => d.name === rest)) die(where + ': diagram ' + rest + ' twice');
            cur = { name: rest, title: '', clock: null, clockLabel: 'clk', first: null, count: null,
                    elide: [], hscale: 1, lanes: [], where };
            diagrams.push(cur);
            break;
        case 'title':
            need(); cur.title = rest;
            break;
        case 'clock':
            need(); cur.clock = full(words[1]); if (words[2]) cur.clockLabel = words[2];
            break;
        case 'window':
            need(); cur.first = Number(words[1]); cur.count = Number(words[2]);
            if (!(Number.isInteger(cur.first) && Number.isInteger(cur.count) && cur.first >= 1 && cur.count >= 1)) {
                die(where + ': window FIRST COUNT (integers, FIRST >= 1)');
            }
            break;
        case 'elide': {
            need();
            const a = Number(words[1]), b = Number(words[2]);
            if (!(Number.isInteger(a) && Number.isInteger(b) && a <= b)) die(where + ': elide FROM TO');
            cur.elide.push([a, b]);
            break;
        }
        case 'hscale':
            need(); cur.hscale = Number(words[1]);
            if (!(cur.hscale > 0)) die(where + ': hscale N');
            break;
        case 'signal': {
            need();
            if (words.length < 3) die(where + ': signal PATH LABEL [valid=PATH] [fmt=...]');
            const l = { path: full(words[1]), label: words[2], valid: null, fmt: 'hex' };
            for (const w of words.slice(3)) {
                if (w.startsWith('valid=')) l.valid = full(w.slice(6));
                else if (w.startsWith('fmt=') && ['hex', 'hex16', 'dec', 'bin'].includes(w.slice(4))) l.fmt = w.slice(4);
                else die(where + ': unknown signal option "' + w + '"');
            }
            lane(l);
            break;
        }
        case 'group':
            need();
            if (group) die(where + ': groups do not nest');
            group = { group: rest, lanes: [] };
            cur.lanes.push(group);
            break;
        case 'end':
            if (!group) die(where + ': end without group');
            group = null;
            break;
        case 'sep':
            need(); lane({ sep: true });
            break;
        default:
            die(where + ': unknown directive "' + cmd + '"');
        }
    }
    if (group) die(file + ': group not closed at the end');
    for (const d of diagrams) {
        if (!d.clock) die(d.where + ': diagram ' + d.name + ' has no clock');
        if (d.first === null) die(d.where + ': diagram ' + d.name + ' has no window');
        d.elide.sort((x, y) => x[0] - y[0]);
        for (let k = 0; k < d.elide.length; k++) {
            const [a, b] = d.elide[k];
            if (a <= d.first || b >= d.first + d.count - 1) {
                die(d.where + ': elide ' + a + ' ' + b + ' not strictly inside the window');
            }
            if (k > 0 && a <= d.elide[k - 1][1] + 1) die(d.where + ': elided ranges overlap or touch');
        }
    }
    return diagrams;
}

// ------------------------------------------------------------ VCD
// Returns { vars: Map(fullName -> {id, width}), changes: Map(id -> [[time, value], ...]) }
// keeping the changes of the wanted names only.
function parseVcd(text, wanted) {
    const vars = new Map();
    const keep = new Map();    // id -> change list
    const changes = new Map();
    const scopes = [];
    // Header: tokens up to $enddefinitions.
    const tokRe = /\S+/g;
    tokRe.lastIndex = 0;
    let m;
    const next = () => { m = tokRe.exec(text); return m ? m[0] : null; };
    for (;;) {
        const t = next();
        if (t === null) die('VCD: no $enddefinitions');
        if (t === '$scope') {
            next(); scopes.push(next()); next();
        } else if (t === '$upscope') {
            scopes.pop(); next();
        } else if (t === '$var') {
            next();                       // type
            const width = Number(next());
            const id = next();
            const name = next();
            let tt = next();
            while (tt !== '$end') tt = next();   // a bit range, if any
            const fullName = scopes.concat([name]).join('.');
            if (!vars.has(fullName)) vars.set(fullName, { id, width });
            if (wanted.has(fullName)) {
                if (!changes.has(id)) changes.set(id, []);
                keep.set(id, changes.get(id));
            }
        } else if (t === '$enddefinitions') {
            next();
            break;
        } else if (t.startsWith('$')) {
            let tt = next();              // $date, $version, $timescale, $comment: skip
            while (tt !== null && tt !== '$end') tt = next();
        }
    }
    const pos = tokRe.lastIndex;
    // Body: line oriented.
    let time = 0;
    const body = text.slice(pos).split('\n');
    for (const raw of body) {
        const line = raw.trim();
        if (line === '') continue;
        const c = line[0];
        if (c === '#') {
            time = Number(line.slice(1));
        } else if (c === '$') {
            continue;                     // $dumpvars, $end, ...
        } else if (c === 'b' || c === 'B' || c === 'r' || c === 'R') {
            const sp = line.indexOf(' ');
            const id = line.slice(sp + 1).trim();
            const list = keep.get(id);
            if (list) list.push([time, line.slice(1, sp).toLowerCase()]);
        } else {
            const id = line.slice(1);
            const list = keep.get(id);
            if (list) list.push([time, c.toLowerCase()]);
        }
    }
    return { vars, changes };
}

// Value of a change list at time t (binary string; 'x' before any change).
function valueAt(list, t) {
    let lo = 0, hi = list.length - 1, best = -1;
    while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (list[mid][0] <= t) { best = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return best < 0 ? 'x' : list[best][1];
}

// A binary string of a `width`-bit signal as its label, or null (x / z).
function label(bits, width, fmt) {
    if (/[xz]/.test(bits)) return null;
    // VCD drops leading zeros; a leading x / z would have been extended.
    const b = bits.padStart(width, '0');
    const v = BigInt('0b' + b);
    if (fmt === 'dec') return v.toString(10);
    if (fmt === 'bin') return b;
    if (fmt === 'hex16') return (v & 0xffffn).toString(16).padStart(4, '0');
    return v.toString(16);
}

// ------------------------------------------------------------ diagrams
function risingEdges(list) {
    const edges = [];
    let prev = 'x';
    for (const [t, v] of list) {
        if (v === '1' && prev !== '1') edges.push(t);
        prev = v;
    }
    return edges;
}

// The cells of diagram d: [{cycle, gap, sampleTime}], gap cells standing for
// an elided range (sampled at its last cycle, not drawn).
function cells(d, edges) {
    const out = [];
    const period = edges.length > 1 ? edges[1] - edges[0] : 1;
    const sampleOf = (c) => {
        if (c < 1 || c > edges.length) die('diagram ' + d.name + ': cycle ' + c + ' not in the VCD (' + edges.length + ' cycles)');
        return (c < edges.length ? edges[c] : edges[c - 1] + period) - 1;
    };
    let c = d.first;
    const last = d.first + d.count - 1;
    let k = 0;
    while (c <= last) {
        if (k < d.elide.length && d.elide[k][0] === c) {
            out.push({ cycle: c, gap: true, sample: sampleOf(d.elide[k][1]) });
            c = d.elide[k][1] + 1;
            k++;
        } else {
            out.push({ cycle: c, gap: false, sample: sampleOf(c) });
            c++;
        }
    }
    return out;
}

function laneWave(d, l, cs, vcd) {
    const v = vcd.vars.get(l.path);
    if (!v) die('diagram ' + d.name + ': no signal ' + l.path + ' in the VCD');
    const list = vcd.changes.get(v.id);
    let qual = null;
    if (l.valid) {
        const q = vcd.vars.get(l.valid);
        if (!q) die('diagram ' + d.name + ': no signal ' + l.valid + ' in the VCD');
        qual = vcd.changes.get(q.id);
    }
    let wave = '';
    const data = [];
    let prev = null;                      // the symbol (and label) drawn last
    let lastBit = null;                   // a one-bit lane's symbol before a gap
    for (const cell of cs) {
        if (cell.gap) {
            // Restate a bus's value after a gap (a one-bit lane goes on).
            wave += '|';
            lastBit = prev;
            prev = null;
            continue;
        }
        let bits = valueAt(list, cell.sample);
        if (qual && valueAt(qual, cell.sample) !== '1') bits = 'x';
        let sym;
        let lab = null;
        if (v.width === 1) {
            sym = bits === '1' || bits === '0' || bits === 'z' ? bits : 'x';
        } else if (bits === 'x') {
            sym = 'x';
        } else {
            lab = label(bits, v.width, l.fmt);
            sym = lab === null ? (/^z+$/.test(bits) ? 'z' : 'x') : '=';
        }
        const key = sym + (lab === null ? '' : ':' + lab);
        if (key === prev || (prev === null && wave.endsWith('|') && v.width === 1 && key === lastBit)) {
            wave += '.';
            prev = key;
        } else {
            wave += sym;
            if (lab !== null) data.push(lab);
            prev = key;
        }
    }
    const o = { name: l.label, wave };
    if (data.length) o.data = data;
    return o;
}

function diagramJson(d, vcd) {
    const clk = vcd.vars.get(d.clock);
    if (!clk) die('diagram ' + d.name + ': no clock ' + d.clock + ' in the VCD');
    const edges = risingEdges(vcd.changes.get(clk.id));
    const cs = cells(d, edges);
    const signal = [];
    let clkWave = '';
    for (const cell of cs) clkWave += cell.gap ? '|' : (clkWave === '' ? 'p' : '.');
    signal.push({ name: d.clockLabel, wave: clkWave });
    for (const l of d.lanes) {
        if (l.sep) signal.push({});
        else if (l.group !== undefined) signal.push([l.group].concat(l.lanes.map((x) => (x.sep ? {} : laneWave(d, x, cs, vcd)))));
        else signal.push(laneWave(d, l, cs, vcd));
    }
    // A label per cell start and one for the end; WaveDrom 3.7 appends "0"
    // to a string tick (parse-config.js adds xmin_cfg / 2 to it), so a last
    // token that is never drawn takes it.
    const ticks = cs.map((c) => String(c.cycle - d.first));
    ticks.push(String(d.count), '-');
    const head = { text: d.title, tick: ticks.join(' ') };
    return { signal, head, config: { hscale: d.hscale } };
}

// Stable, readable JSON: one lane a line.
function format(obj) {
    const lane = (x) => JSON.stringify(x);
    let s = '{\n  "signal": [\n';
    s += obj.signal.map((x) => {
        if (Array.isArray(x)) {
            return '    [' + JSON.stringify(x[0]) + ',\n' + x.slice(1).map((y) => '      ' + lane(y)).join(',\n') + '\n    ]';
        }
        return '    ' + lane(x);
    }).join(',\n');
    s += '\n  ],\n';
    s += '  "head": ' + JSON.stringify(obj.head) + ',\n';
    s += '  "config": ' + JSON.stringify(obj.config) + '\n}\n';
    return s;
}

function wantedNames(diagrams) {
    const w = new Set();
    for (const d of diagrams) {
        w.add(d.clock);
        const add = (l) => { if (l.path) w.add(l.path); if (l.valid) w.add(l.valid); };
        for (const l of d.lanes) {
            if (l.lanes) l.lanes.forEach(add); else add(l);
        }
    }
    return w;
}

function main() {
    const args = process.argv.slice(2);
    let table = null;
    if (args[0] === '--table') { table = args[1]; args.splice(0, 2); }
    if (args.length !== (table ? 2 : 3)) {
        die('usage: vcd2wavedrom.js VCD SCENARIOS OUTDIR | --table NAME VCD SCENARIOS');
    }
    const [vcdFile, scenFile, outDir] = args;
    const diagrams = parseScenarios(fs.readFileSync(scenFile, 'utf8'), scenFile);
    if (diagrams.length === 0) die(scenFile + ': no diagram');
    const vcd = parseVcd(fs.readFileSync(vcdFile, 'utf8'), wantedNames(diagrams));
    if (table) {
        const d = diagrams.find((x) => x.name === table);
        if (!d) die('no diagram ' + table);
        const clk = vcd.vars.get(d.clock);
        if (!clk) die('no clock ' + d.clock);
        const cs = cells(d, risingEdges(vcd.changes.get(clk.id)));
        const flat = [];
        for (const l of d.lanes) { if (l.lanes) flat.push(...l.lanes.filter((x) => !x.sep)); else if (!l.sep) flat.push(l); }
        process.stdout.write('cyc  ' + flat.map((l) => l.label).join(' ') + '\n');
        for (const c of cs) {
            const vals = flat.map((l) => {
                const v = vcd.vars.get(l.path);
                if (!v) die('no signal ' + l.path);
                const bits = valueAt(vcd.changes.get(v.id), c.sample);
                return v.width === 1 ? bits : (label(bits, v.width, l.fmt) || bits);
            });
            process.stdout.write(String(c.cycle - d.first).padStart(3) + (c.gap ? '|' : ' ') + ' ' + vals.join(' ') + '\n');
        }
        return;
    }
    fs.mkdirSync(outDir, { recursive: true });
    for (const d of diagrams) {
        fs.writeFileSync(path.join(outDir, d.name + '.json'), format(diagramJson(d, vcd)));
    }
}

main();
