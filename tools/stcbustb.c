/*
 * stcbustb - write a self-checking Verilog testbench for stc_coh_bus, the
 * atomic snooping bus's sequencer (docs/ARCHITECTURE.md 19.6), as `stcgen
 * --protocol P --cores N` writes it for a geometry.
 *
 * The expected outputs come from a cycle-level reference kept here, whose
 * every duration is the atomic model's own (ref/coherent_cycles.h:
 * stc_coh_line_data_cycles for a line's data, stc_coh_write_data_cycles for
 * a write to memory, the address cycle STC_COH_ADDRESS_CYCLES), so the RTL
 * is held to the cycles the models count. The memory's latency is fixed or
 * drawn for each wait from a range (the models' latency source,
 * coherent_cycles.h); the bench drives the memory's handshake as such a
 * memory would: mem_rready_i the cycle before a run's first beat,
 * mem_wdone_i in a write's last cycle (ARCHITECTURE.md 19.6). Seeded traffic: every core keeps
 * a queue of tenures (a miss's BusWBs then its bursts, or one BusUpgr),
 * asks for the bus after random pauses and offers each next item after a
 * random gap.
 *
 * A miss of two runs (lines 0 and 3 of a group missing, 1-2 present) is
 * two bursts in one tenure, and its lines must all be ordered at one
 * address cycle, the first burst's: so a burst's group snoop covers the
 * positions its tenure will read (txn_snoop_i), not only its own, and a
 * later burst of the tenure whose lines that snoop covered (same group) is
 * not snooped again but uses the answers kept since. A group snoop sends
 * snp_line the item's (first) line and snp_bus 3 bits for each position p
 * of the aligned group of 4 (p = line mod 4): BusRdX at the store's
 * position (txn_rdx_pos_i, which may be in the tenure's other burst),
 * BusRd at the burst's other snooped positions, a BusWB's or BusUpgr's
 * own code at its line's, 0 elsewhere. The other cores answer 4 bits each,
 * one per position, at random for every snooped position (read ahead or
 * not: one or, rarely, two suppliers, the shared line, flushes with and
 * without a supply); the owner's bits, every position not snooped, a
 * covered burst's whole cycle and the snoop mask and store position of an
 * item that has none are random noise the bus must ignore, so a bus that
 * reads a wrong position, core or cycle is caught. Most misses are shaped
 * as a controller's (a random set of missing lines in one group, one
 * burst a run, the first burst's mask their union); the others also snoop
 * ahead lines never read, leave a later burst of the same group uncovered
 * or put it in another group, and some tenures re-read, as their first
 * burst, lines the bus still keeps from the tenure before (what it keeps
 * must die at the grant). Line k of an item uses the answers at position
 * (line mod 4) + k, fresh or kept. Once a snooped position had two
 * suppliers (err_o, sticky), the next cycle the bus is free resets it, so
 * every such snoop is checked, not only the run's first. Every output is
 * compared in every cycle. A comment line near the top reports coverage
 * (tests/coh-rtl-checks.sh asserts on it).
 */
#include "coherent_cycles.h"
#include "geometry.h"
#include "tb_common.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAX_CORES = 8,
    MAX_LINES = STC_MAX_SUBLINES,
    GROUP_LINES = 4,        /* a group snoop's lines: the positions of snp_bus and the answers */
    MAX_VICTIMS = 4,        /* a miss's BusWBs */
    MAX_BURSTS = 3,         /* a miss's bursts: two runs, or a third to check what is kept */
    MAX_ITEMS = MAX_VICTIMS + MAX_BURSTS,
    ALL_POSITIONS = (1u << GROUP_LINES) - 1,
    TENURES = 200,          /* over all cores */
    TENURES_PER_CORE = TENURES / 2,
    BUS_RD = 1,
    BUS_RDX = 2,
    BUS_UPGR = 3,
    BUS_WB = 4
};

static const char usage_text[] =
    "usage: stcbustb --cores N [--mem-latency T | MIN-MAX] [-g GEOMETRY]\n"
    "Write on stdout a Verilog testbench (module tb_coh_bus) checking the\n"
    "stc_coh_bus that `stcgen --protocol P --cores N` writes for the same\n"
    "geometry (GEOMETRY as for stcsim, e.g. line_bytes=32), behind a memory of\n"
    "latency T (2 to 1000; default: the geometry's mem_latency) or of a latency\n"
    "drawn for each wait from MIN..MAX, against a cycle-level reference\n"
    "timed by the atomic model's rules (docs/ARCHITECTURE.md 19.6). It prints\n"
    "PASS or FAIL; a comment line '// coverage: ...' near its top says what the\n"
    "traffic reached.\n";

typedef struct {
    unsigned bus;        /* BUS_RD/RDX (a burst), BUS_UPGR, BUS_WB */
    uint64_t line;       /* first physical line */
    unsigned count;      /* lines of a burst (1 for the others) */
    unsigned rdx_pos;    /* a BusRdX burst's store line, mod 4 (else noise) */
    unsigned snoop;      /* a burst's: the positions its tenure reads (else noise) */
} item;

typedef struct {
    item items[MAX_ITEMS];
    unsigned item_count;
    bool lead;    /* the core asks without its first item: the tenure starts with a pause */
    bool release; /* no item is the last: the owner ends the tenure with rel_i */
    bool revisit; /* until granted, its first item (a burst) follows the lines the bus keeps */
} tenure;

_Static_assert(MAX_LINES <= GROUP_LINES, "a burst fits in one group snoop");

/* A group snoop's answers: per core 4 bits, one per position of the group
 * (core c's at [4c +: 4]; the owner's bits, and a position not snooped,
 * are noise to ignore). */
typedef struct {
    uint32_t supplies, flushes, shared;
} answers;

/* One line's answers, a bit per core (bit c: core c). */
typedef struct {
    unsigned supplies, flushes, shared;
} line_answers;

/* What the bus reads of one line's answers: the other cores' bits. */
typedef struct {
    bool supplied, two, flushed, shared;
    unsigned supplier, flusher; /* the lowest of each (0 if none) */
} line_reading;

/* Where a word comes from (the cycle's random words decide its value). */
typedef enum { WORD_NONE, WORD_MEMORY, WORD_OWNER, WORD_SNOOPER } word_source;

/* What one cycle must show. */
typedef struct {
    unsigned grant, done, snp_valid, sup_read;
    unsigned beat_idx, own_beat, sup_beat;
    word_source rdata_from, wdata_from;
    unsigned word_core; /* WORD_OWNER / WORD_SNOOPER: whose word */
    bool line_done, line_shared, line_supplied;
    unsigned line_idx, snp_bus;
    uint64_t snp_line, mem_line;
    bool beat, beat_from_cache, mem_rd, mem_rd_cont, mem_wr, mem_wr_posted, mem_wbeat, busy, err;
    bool mem_rready, mem_wdone; /* inputs: the memory's handshake this cycle */
} outputs;

typedef struct {
    unsigned long tenures, back_to_back, items[5], lines, supplied, continued, flush_supplied,
        flush_alone, two_suppliers, owner_gaps, lead_pauses, releases, empty, resets;
    unsigned long covered;          /* bursts not snooped: their answers kept */
    unsigned long ahead;            /* positions snooped ahead of their burst */
    unsigned long ahead_rdx;        /* ... one of them as BusRdX */
    unsigned long two_ahead;        /* ... with two suppliers, alone raising err_o */
    unsigned long uncovered_second; /* a later burst of a tenure snooped again */
    unsigned long uncovered_same;   /* ... in the group of the snoop before */
    unsigned long after_wb;         /* a burst of just the line a BusWB snooped last */
    unsigned long stale_grant;      /* a tenure's first burst on lines kept before its grant, */
    unsigned long stale_lead;       /*   started at the grant, or after a pause */
} coverage;

typedef struct {
    unsigned cores, line_bits, beats;
    unsigned beat_bits; /* a beat's index: log2 beats, at least 1 */
    stc_coh_bus_timing timing;
    uint64_t line_mask;
    uint64_t seed;
    unsigned latency_min, latency_max; /* the memory's, per wait */
    uint64_t latency_seed;             /* drawn from, reset by each run */
    /* per core */
    tenure queue[MAX_CORES][TENURES_PER_CORE]; /* TENURES / cores of them used */
    unsigned queued[MAX_CORES], next_tenure[MAX_CORES];
    unsigned long ready_at[MAX_CORES];
} traffic;

/* The runs of consecutive positions in mask, lowest first: each one's
 * first position and length; returns how many (at most 2 in a group of 4). */
static unsigned position_runs(unsigned mask, unsigned *first, unsigned *length)
{
    unsigned runs = 0;
    for (unsigned pos = 0; pos < GROUP_LINES; pos++) {
        if (!(mask >> pos & 1u)) {
            continue;
        }
        if (pos == 0 || !(mask >> (pos - 1) & 1u)) {
            first[runs] = pos;
            length[runs++] = 0;
        }
        length[runs - 1]++;
    }
    return runs;
}

/* The positions of a group an item's lines take. */
static unsigned own_positions(const item *it)
{
    bool burst = it->bus == BUS_RD || it->bus == BUS_RDX;
    unsigned count = burst ? it->count : 1;
    return ((1u << count) - 1) << (it->line & (GROUP_LINES - 1));
}

static uint64_t random_group(traffic *t)
{
    return tb_next_random(&t->seed) & t->line_mask & ~(uint64_t)(GROUP_LINES - 1);
}

/* A miss as a controller asks for it: a random set of missing lines of
 * one group, a burst for each run of them (so 1 or 2), every burst
 * offering their union as what the tenure reads, a store's store line as
 * BusRdX in every burst (in the second run, the first burst snoops it
 * ahead). A quarter snoop lines ahead that no burst reads, and an eighth
 * of the stores name any position as the store line (one read or not).
 * Returns the bursts written. */
static unsigned controller_miss(traffic *t, item *bursts)
{
    uint64_t group = random_group(t);
    unsigned missing = 1 + tb_below(&t->seed, ALL_POSITIONS);
    unsigned first[2], length[2];
    unsigned runs = position_runs(missing, first, length);
    unsigned reads = missing;
    if (tb_below(&t->seed, 4) == 0) {
        reads |= (unsigned)tb_next_random(&t->seed) & ALL_POSITIONS;
    }
    bool store = tb_below(&t->seed, 2);
    unsigned store_pos = tb_below(&t->seed, GROUP_LINES);
    if (store && tb_below(&t->seed, 8) != 0) {
        while (!(missing >> store_pos & 1u)) { /* the next missing line from a random one */
            store_pos = (store_pos + 1) % GROUP_LINES;
        }
    }
    for (unsigned r = 0; r < runs; r++) {
        bursts[r] = (item){store ? BUS_RDX : BUS_RD, group | first[r], length[r],
                           store ? store_pos : tb_below(&t->seed, GROUP_LINES), reads};
    }
    return runs;
}

/* Bursts a controller would not ask for, so that every case of what the
 * bus keeps is reached: 2 or 3 bursts, each in the first one's group (its
 * lines there covered by the snoop before, or not) or in another, with a
 * random mask of lines read (a quarter of the positions: so the next
 * burst is mostly not covered) and codes and store lines of their own. Of
 * three, the second is inside the first one's snoop and reads more (half
 * the positions): a covered burst must leave what is kept as it was, so
 * the third, where only the second read, is snooped. */
static unsigned odd_bursts(traffic *t, item *bursts)
{
    unsigned count = tb_below(&t->seed, 3) == 0 ? 3 : 2;
    uint64_t first_group = random_group(t);
    for (unsigned b = 0; b < count; b++) {
        uint64_t group = b == 0 || tb_below(&t->seed, 3) != 0 ? first_group : random_group(t);
        unsigned lines = 1 + tb_below(&t->seed, MAX_LINES);
        unsigned position = tb_below(&t->seed, GROUP_LINES - lines + 1);
        uint64_t reads = tb_next_random(&t->seed) & tb_next_random(&t->seed);
        if (b == 1 && count == 3) {
            unsigned first[2], length[2];
            unsigned runs =
                position_runs(own_positions(&bursts[0]) | bursts[0].snoop, first, length);
            unsigned run = tb_below(&t->seed, runs);
            group = first_group;
            lines = 1 + tb_below(&t->seed, length[run]);
            position = first[run] + tb_below(&t->seed, length[run] - lines + 1);
            reads = tb_next_random(&t->seed);
        }
        bursts[b] = (item){tb_below(&t->seed, 2) ? BUS_RDX : BUS_RD, group | position, lines,
                           tb_below(&t->seed, GROUP_LINES), (unsigned)reads & ALL_POSITIONS};
    }
    return count;
}

/* An item with no burst: its mask of lines read and its store line are
 * noise the bus must ignore. */
static item single_item(traffic *t, unsigned bus, uint64_t line)
{
    return (item){bus, line, 1, tb_below(&t->seed, GROUP_LINES),
                  (unsigned)tb_next_random(&t->seed) & ALL_POSITIONS};
}

static void make_tenures(traffic *t)
{
    for (unsigned core = 0; core < t->cores; core++) {
        t->queued[core] = TENURES / t->cores;
        for (unsigned n = 0; n < t->queued[core]; n++) {
            tenure *ten = &t->queue[core][n];
            ten->item_count = 0;
            ten->lead = tb_below(&t->seed, 5) == 0;
            ten->release = tb_below(&t->seed, 6) == 0;
            ten->revisit = false;
            if (ten->release && tb_below(&t->seed, 2) == 0) {
                ten->lead = true; /* a tenure of no item (a walk with nothing to write back) */
                continue;
            }
            if (tb_below(&t->seed, 6) == 0) {
                ten->items[ten->item_count++] =
                    single_item(t, BUS_UPGR, tb_next_random(&t->seed) & t->line_mask);
                continue;
            }
            item bursts[MAX_BURSTS];
            unsigned burst_count =
                tb_below(&t->seed, 3) != 0 ? controller_miss(t, bursts) : odd_bursts(t, bursts);
            /* A quarter re-read lines the tenure before left kept (run
             * moves them there), half of them after a pause: their first
             * item is the burst. */
            ten->revisit = tb_below(&t->seed, 4) == 0;
            if (ten->revisit) {
                ten->lead = tb_below(&t->seed, 2) == 0;
            }
            unsigned victims = ten->revisit || tb_below(&t->seed, 10) < 6
                                   ? 0
                                   : 1 + tb_below(&t->seed, MAX_VICTIMS);
            for (unsigned v = 0; v < victims; v++) {
                ten->items[ten->item_count++] =
                    single_item(t, BUS_WB, tb_next_random(&t->seed) & t->line_mask);
            }
            /* Half the last BusWBs are in the first burst's group, two
             * thirds of those on its line with the burst cut to that one
             * line: a bus that kept a BusWB's snoop as a burst's would not
             * snoop it. */
            if (victims && tb_below(&t->seed, 2) == 0) {
                unsigned pos = tb_below(&t->seed, GROUP_LINES);
                if (tb_below(&t->seed, 3) != 0) {
                    pos = (unsigned)(bursts[0].line & (GROUP_LINES - 1));
                    bursts[0].count = 1;
                }
                ten->items[ten->item_count - 1].line =
                    (bursts[0].line & ~(uint64_t)(GROUP_LINES - 1)) | pos;
            }
            for (unsigned b = 0; b < burst_count; b++) {
                ten->items[ten->item_count++] = bursts[b];
            }
        }
        t->ready_at[core] = tb_below(&t->seed, 8);
    }
}

/* The round robin of ARCHITECTURE.md 19.3. */
static int round_robin(unsigned cores, unsigned last, unsigned req)
{
    for (unsigned step = 1; step <= cores; step++) {
        unsigned core = (last + step) % cores;
        if (req >> core & 1u) {
            return (int)core;
        }
    }
    return -1;
}

/* An item's schedule from its first cycle: its group snoop's answers (the
 * inputs of that cycle), then each cycle's own outputs (grant, busy, err
 * aside). */
typedef struct {
    outputs *cycle;     /* capacity entries */
    size_t capacity;    /* the longest item: every line from memory and flushed alone */
    unsigned length;    /* cycles from the start to the item's last, inclusive */
    answers snoop;      /* the answers in the first cycle */
    bool two_suppliers; /* a snooped line had two: err_o from the next cycle */
} plan;

/* What the bus keeps of its tenure's last fresh snoop: a later burst of
 * the tenure all of whose lines that snoop covered reads them from here,
 * not snooped again, so that a miss of two runs is ordered once. */
typedef struct {
    unsigned positions; /* a burst's snooped ones; none after a BusWB's or BusUpgr's, or a grant */
    uint64_t group;     /* its group (line / 4) */
    unsigned wb_pos;    /* a BusWB's or BusUpgr's line's position (GROUP_LINES: a burst's
                         * snoop, or none since the grant) */
    line_reading at[GROUP_LINES]; /* per position (none at a position not snooped) */
} kept_snoop;

/* Where an item starts in its tenure. */
typedef struct {
    bool after_grant;  /* the bus was busy before this cycle (not the grant's) */
    bool later_burst;  /* a burst after the tenure's first */
    bool flagged;      /* err_o is up already */
} item_context;

/* Every core's 4 answer bits. */
static uint32_t answer_mask(unsigned cores)
{
    return (uint32_t)(((uint64_t)1 << (GROUP_LINES * cores)) - 1);
}

/* Random bits on every answer input: what a cycle without a snoop, the
 * owner's port and a line not snooped show. */
static answers noise_answers(traffic *t)
{
    uint32_t mask = answer_mask(t->cores);
    answers a;
    a.supplies = (uint32_t)tb_next_random(&t->seed) & mask;
    a.flushes = (uint32_t)tb_next_random(&t->seed) & mask;
    a.shared = (uint32_t)tb_next_random(&t->seed) & mask;
    return a;
}

/* Answers to one snooped line: random (two suppliers two_percent of the
 * time with 3 cores or more), with the owner's own bits as noise. */
static line_answers make_answers(traffic *t, unsigned owner, unsigned two_percent)
{
    line_answers a = {0};
    unsigned pick = tb_below(&t->seed, 100);
    unsigned supplier = (owner + 1 + tb_below(&t->seed, t->cores - 1)) % t->cores;
    if (pick < 30) {
        a.supplies |= 1u << supplier;
    }
    if (pick >= 30 && pick < 30 + two_percent && t->cores > 2) {
        unsigned second = (supplier + 1) % t->cores;
        if (second == owner) {
            second = (second + 1) % t->cores;
        }
        a.supplies |= 1u << supplier | 1u << second;
    }
    unsigned flush_pick = tb_below(&t->seed, 100);
    if ((a.supplies && flush_pick < 50) || (!a.supplies && flush_pick < 6)) {
        a.flushes |= 1u << supplier; /* with its supply, or (rarely) alone */
    }
    if (tb_below(&t->seed, 10) < 4) {
        a.shared |= 1u << supplier;
    }
    if (a.flushes && tb_below(&t->seed, 10) == 0) {
        a.flushes |= 1u << (owner + 1 + tb_below(&t->seed, t->cores - 1)) % t->cores;
    }
    a.supplies |= (unsigned)tb_next_random(&t->seed) & (1u << owner); /* noise */
    a.flushes |= (unsigned)tb_next_random(&t->seed) & (1u << owner);
    a.shared |= (unsigned)tb_next_random(&t->seed) & (1u << owner);
    return a;
}

/* Core c's bit at position pos of a group's answers is bit c of that
 * line's (line_bits_at), and back (place_line_bits). */
static unsigned line_bits_at(uint32_t group, unsigned cores, unsigned pos)
{
    unsigned bits = 0;
    for (unsigned c = 0; c < cores; c++) {
        bits |= (unsigned)(group >> (GROUP_LINES * c + pos) & 1u) << c;
    }
    return bits;
}

static uint32_t place_line_bits(uint32_t group, unsigned bits, unsigned cores, unsigned pos)
{
    for (unsigned c = 0; c < cores; c++) {
        uint32_t at = (uint32_t)1 << (GROUP_LINES * c + pos);
        group = (group & ~at) | (bits >> c & 1u ? at : 0);
    }
    return group;
}

static void place_answers(answers *group, const line_answers *line, unsigned cores,
                          unsigned pos)
{
    group->supplies = place_line_bits(group->supplies, line->supplies, cores, pos);
    group->flushes = place_line_bits(group->flushes, line->flushes, cores, pos);
    group->shared = place_line_bits(group->shared, line->shared, cores, pos);
}

static unsigned lowest_bit(unsigned mask)
{
    unsigned bit = 0;
    while (!(mask >> bit & 1u)) {
        bit++;
    }
    return bit;
}

/* What the bus must make of the answers at position pos: the other cores'
 * bits there, read back from the group as the bus reads them. */
static line_reading read_line(const answers *group, unsigned cores, unsigned owner,
                              unsigned pos)
{
    unsigned others = ((1u << cores) - 1) & ~(1u << owner);
    unsigned sup = line_bits_at(group->supplies, cores, pos) & others;
    unsigned flush = line_bits_at(group->flushes, cores, pos) & others;
    line_reading r;
    r.supplied = sup != 0;
    r.two = (sup & (sup - 1)) != 0;
    r.flushed = flush != 0;
    r.shared = (line_bits_at(group->shared, cores, pos) & others) != 0;
    r.supplier = r.supplied ? lowest_bit(sup) : 0;
    r.flusher = r.flushed ? lowest_bit(flush) : 0;
    return r;
}

/* Lay out a write window of length cycles from offset at: memory takes
 * the words of core (the owner's BusWB if from is WORD_OWNER, else the
 * flushing snooper's). */
static void write_window(traffic *t, plan *p, unsigned at, uint64_t cycles, uint64_t line,
                         word_source from, unsigned core)
{
    for (unsigned o = 0; o < cycles; o++) {
        outputs *out = &p->cycle[at + o];
        if (o == 0) {
            out->mem_wr = true;
            out->mem_line = line;
        }
        out->mem_wdone = o + 1 == cycles; /* memory's answer ends the window */
        out->mem_wbeat = o < t->beats; /* the words first, then memory's latency */
        if (out->mem_wbeat) {
            out->beat_idx = o;
            out->wdata_from = from;
            out->word_core = core;
            if (from == WORD_OWNER) {
                out->own_beat = 1u << core;
            } else {
                out->sup_beat = 1u << core;
            }
        }
    }
}

/* The item's first cycle: a burst whose lines all the tenure's last
 * fresh snoop covered (same group, the bus busy before this cycle) is not
 * snooped, its answers inputs all noise, and reads the kept answers; any
 * other item sends a group snoop to the other cores, of its own lines and
 * (a burst) the ones its tenure reads, the store's as BusRdX, and the
 * answers drawn now at every snooped position (more often two suppliers
 * ahead of the item's lines, so a flag from its own lines alone is
 * caught), noise at the others, replace what is kept. read[k]: what the
 * bus must make of line k's answers, at position (line mod 4) + k. */
static void item_snoop(traffic *t, const item *it, unsigned owner, const item_context *where,
                       kept_snoop *kept, plan *p, coverage *cov, line_reading *read)
{
    bool burst = it->bus == BUS_RD || it->bus == BUS_RDX;
    unsigned first_pos = (unsigned)(it->line & (GROUP_LINES - 1));
    uint64_t group = it->line / GROUP_LINES;
    unsigned own = own_positions(it);
    outputs *out = &p->cycle[0];
    p->snoop = noise_answers(t);
    p->two_suppliers = false;
    if (burst && where->after_grant && kept->group == group && own == 1u << kept->wb_pos) {
        cov->after_wb++;
    }
    bool covered = burst && where->after_grant && kept->group == group &&
                   (own & ~kept->positions) == 0;
    if (covered) {
        cov->covered++;
    } else {
        cov->uncovered_second += where->later_burst;
        cov->uncovered_same += where->later_burst && kept->positions && kept->group == group;
        unsigned snooped = burst ? own | it->snoop : own;
        out->snp_valid = ((1u << t->cores) - 1) & ~(1u << owner);
        out->snp_line = it->line;
        bool own_two = false, ahead_two = false;
        for (unsigned pos = 0; pos < GROUP_LINES; pos++) {
            kept->at[pos] = (line_reading){0};
            if (!(snooped >> pos & 1u)) {
                continue;
            }
            bool ahead = !(own >> pos & 1u);
            unsigned code = !burst ? it->bus
                            : it->bus == BUS_RDX && it->rdx_pos == pos ? BUS_RDX
                                                                       : BUS_RD;
            out->snp_bus |= code << (3 * pos);
            line_answers answer = make_answers(t, owner, ahead ? 10 : 2);
            place_answers(&p->snoop, &answer, t->cores, pos);
            kept->at[pos] = read_line(&p->snoop, t->cores, owner, pos);
            p->two_suppliers = p->two_suppliers || kept->at[pos].two;
            cov->two_suppliers += kept->at[pos].two;
            cov->ahead += ahead;
            cov->ahead_rdx += ahead && code == BUS_RDX;
            own_two = own_two || (!ahead && kept->at[pos].two);
            ahead_two = ahead_two || (ahead && kept->at[pos].two);
        }
        cov->two_ahead += ahead_two && !own_two && !where->flagged; /* raises err_o alone */
        kept->positions = burst ? snooped : 0;
        kept->group = group;
        kept->wb_pos = burst ? GROUP_LINES : first_pos;
    }
    unsigned lines = burst ? it->count : 1;
    for (unsigned k = 0; k < lines; k++) {
        read[k] = kept->at[first_pos + k];
    }
}

/* Lay out burst line k's data window from offset at, as read at the
 * snoop (first: the burst's first line or one after a supplied line, so
 * from memory it pays the latency again); returns its length. The words
 * come from the supplier (a flushing one's to memory too) or memory. */
static unsigned data_window(traffic *t, plan *p, unsigned at, uint64_t line, unsigned k,
                            const line_reading *r, bool first)
{
    uint64_t cycles = stc_coh_line_data_cycles(&t->timing, r->supplied, first);
    for (unsigned o = 0; o < cycles; o++) {
        outputs *out = &p->cycle[at + o];
        bool beat = cycles - o <= t->beats;
        if (o == 0) {
            out->mem_line = line;
            if (r->supplied) {
                out->sup_read = 1u << r->supplier;
                /* a supply that flushes: memory's write of the line starts,
                 * its words with the beats, posted */
                out->mem_wr = r->flushed;
                out->mem_wr_posted = r->flushed;
            } else {
                out->mem_rd = true;
                out->mem_rd_cont = !first;
            }
        }
        /* a run's first line: memory says its first beat comes next cycle */
        out->mem_rready = !r->supplied && first && cycles - o == t->beats + 1;
        out->beat = beat;
        out->beat_from_cache = beat && r->supplied;
        out->mem_wbeat = beat && r->supplied && r->flushed;
        if (beat) {
            out->beat_idx = (unsigned)(o - (cycles - t->beats));
            out->rdata_from = r->supplied ? WORD_SNOOPER : WORD_MEMORY;
            out->word_core = r->supplier;
            if (r->supplied) {
                out->sup_beat = 1u << r->supplier;
                out->wdata_from = r->flushed ? WORD_SNOOPER : WORD_NONE;
            }
        }
        if (o + 1 == cycles) {
            out->line_done = true;
            out->line_idx = k;
            out->line_shared = r->shared;
            out->line_supplied = r->supplied;
        }
    }
    return (unsigned)cycles;
}

/* A line flushed with no supply goes to memory after its window: lay out
 * that write from offset at; returns its length (0 if none). */
static unsigned flush_alone(traffic *t, plan *p, unsigned at, uint64_t line,
                            const line_reading *r, coverage *cov)
{
    if (!r->flushed || r->supplied) {
        return 0;
    }
    uint64_t write = stc_coh_write_data_cycles(&t->timing);
    write_window(t, p, at, write, line, WORD_SNOOPER, r->flusher);
    cov->flush_alone++;
    return (unsigned)write;
}

/* The item's whole schedule from its first cycle (offset 0): its group
 * snoop, then its windows from the answers, every duration the model's. */
static void lay_out(traffic *t, const item *it, unsigned owner, const item_context *where,
                    kept_snoop *kept, plan *p, coverage *cov)
{
    memset(p->cycle, 0, p->capacity * sizeof *p->cycle);
    p->length = 0;
    const stc_coh_bus_timing *timing = &t->timing;
    bool burst = it->bus == BUS_RD || it->bus == BUS_RDX;
    unsigned lines = burst ? it->count : 1;
    line_reading read[MAX_LINES];
    item_snoop(t, it, owner, where, kept, p, cov, read);
    unsigned at = 1; /* STC_COH_ADDRESS_CYCLES: the first cycle is the address's */
    if (burst) {
        cov->lines += lines;
        for (unsigned k = 0; k < lines; k++) {
            bool first = k == 0 || read[k - 1].supplied;
            uint64_t line = (it->line + k) & t->line_mask;
            cov->supplied += read[k].supplied;
            cov->continued += !read[k].supplied && !first;
            cov->flush_supplied += read[k].supplied && read[k].flushed;
            at += data_window(t, p, at, line, k, &read[k], first);
            at += flush_alone(t, p, at, line, &read[k], cov);
        }
    } else {
        if (it->bus == BUS_WB) {
            uint64_t cycles = stc_coh_transaction_cycles(timing, STC_COH_BUS_WB, false, false) -
                              timing->address_cycles;
            write_window(t, p, at, cycles, it->line, WORD_OWNER, owner);
            at += (unsigned)cycles;
        }
        at += flush_alone(t, p, at, it->line, &read[0], cov);
    }
    p->length = at == 1 ? 1 : at; /* an Upgr without a flush: its address cycle alone */
    p->cycle[p->length - 1].done = 1u << owner;
}

static void print_hex(unsigned width, uint64_t value)
{
    printf("%u'h%llx", width, (unsigned long long)value);
}

/* Every core's item fields side by side, core N-1 first (a Verilog vector). */
static void print_vector(unsigned cores, unsigned width, const uint64_t *values)
{
    printf("{");
    for (unsigned core = cores; core-- > 0;) {
        print_hex(width, values[core]);
        printf(core ? ", " : "}");
    }
}

/* One cycle's random words on the data inputs. */
typedef struct {
    uint32_t own[MAX_CORES], snooper[MAX_CORES], memory;
} words;

static uint32_t word_of(const words *in, word_source from, unsigned core)
{
    switch (from) {
    case WORD_MEMORY:
        return in->memory;
    case WORD_OWNER:
        return in->own[core];
    case WORD_SNOOPER:
        return in->snooper[core];
    default:
        return 0;
    }
}

static void print_words(unsigned cores, const uint32_t *values)
{
    uint64_t wide[MAX_CORES];
    for (unsigned c = 0; c < cores; c++) {
        wide[c] = values[c];
    }
    print_vector(cores, 32, wide);
}

static void print_cycle(const traffic *t, bool reset, unsigned req, unsigned valid,
                        const item *offer, unsigned last, unsigned rel, const answers *a,
                        const words *in, const outputs *o, unsigned long number)
{
    const unsigned n = t->cores, lb = t->line_bits;
    uint64_t bus[MAX_CORES], line[MAX_CORES], count[MAX_CORES], rdx[MAX_CORES],
        reads[MAX_CORES];
    for (unsigned c = 0; c < n; c++) {
        bus[c] = offer[c].bus;
        line[c] = offer[c].line;
        count[c] = offer[c].count;
        rdx[c] = offer[c].rdx_pos;
        reads[c] = offer[c].snoop;
    }
    printf("    cyc(1'b%d, ", !reset);
    print_hex(n, req);
    printf(", ");
    print_hex(n, valid);
    printf(", ");
    print_vector(n, 3, bus);
    printf(", ");
    print_vector(n, lb, line);
    printf(", ");
    print_vector(n, 3, count);
    printf(", ");
    print_vector(n, 2, rdx);
    printf(", ");
    print_vector(n, GROUP_LINES, reads);
    printf(", ");
    print_hex(n, last);
    printf(", ");
    print_hex(n, rel);
    printf(", ");
    print_hex(GROUP_LINES * n, a->supplies);
    printf(", ");
    print_hex(GROUP_LINES * n, a->flushes);
    printf(", ");
    print_hex(GROUP_LINES * n, a->shared);
    printf(", ");
    print_words(n, in->own);
    printf(", ");
    print_words(n, in->snooper);
    printf(", ");
    print_hex(32, in->memory);
    printf(", 1'b%d, 1'b%d, {", o->mem_rready, o->mem_wdone);
    print_hex(n, o->grant);
    printf(", ");
    print_hex(n, o->done);
    printf(", 1'b%d, 2'd%u, 1'b%d, 1'b%d, ", o->line_done, o->line_idx, o->line_shared,
           o->line_supplied);
    print_hex(n, o->snp_valid);
    printf(", ");
    print_hex(lb, o->snp_line);
    printf(", ");
    print_hex(3 * GROUP_LINES, o->snp_bus);
    printf(", ");
    print_hex(n, o->sup_read);
    printf(", 1'b%d, 1'b%d, 1'b%d, 1'b%d, 1'b%d, 1'b%d, 1'b%d, ", o->beat, o->beat_from_cache,
           o->mem_rd, o->mem_rd_cont, o->mem_wr, o->mem_wr_posted, o->mem_wbeat);
    print_hex(lb, o->mem_line);
    printf(", ");
    print_hex(t->beat_bits, o->beat_idx);
    printf(", ");
    print_hex(n, o->own_beat);
    printf(", ");
    print_hex(n, o->sup_beat);
    printf(", ");
    print_hex(32, word_of(in, o->rdata_from, o->word_core));
    printf(", ");
    print_hex(32, word_of(in, o->wdata_from, o->word_core));
    printf(", 1'b%d, 1'b%d}, %lu);\n", o->busy, o->err, number);
}

static void write_preamble(const traffic *t)
{
    const unsigned n = t->cores, lb = t->line_bits;
    const unsigned bi = t->beat_bits;
    const unsigned out_bits =
        n + n + 1 + 2 + 1 + 1 + n + lb + 3 * GROUP_LINES + n + 7 + lb + bi + n + n + 32 + 32 + 2;
    printf("  reg clk = 1'b0;\n  reg rst_n = 1'b0;\n");
    printf("  reg [%u:0] req, txn_valid, txn_last, rel;\n", n - 1);
    printf("  reg [%u:0] sup_in, flush_in, shared_in; // per core 4 bits, one per position\n",
           GROUP_LINES * n - 1);
    printf("  reg [%u:0] txn_bus, txn_count;\n  reg [%u:0] txn_rdx_pos;\n"
           "  reg [%u:0] txn_snoop;\n  reg [%u:0] txn_line;\n",
           3 * n - 1, 2 * n - 1, GROUP_LINES * n - 1, lb * n - 1);
    printf("  wire [%u:0] grant, done, snp_valid, sup_read;\n", n - 1);
    printf("  wire line_done, line_shared, line_supplied, beat, beat_from_cache, mem_rd,\n"
           "       mem_rd_cont, mem_wr, mem_wr_posted, mem_wbeat, busy, err;\n");
    printf("  reg mem_rready, mem_wdone;\n");
    printf("  wire [1:0] line_idx;\n  wire [%u:0] snp_bus;\n  wire [%u:0] snp_line, mem_line;\n",
           3 * GROUP_LINES - 1, lb - 1);
    printf("  reg [%u:0] own_word, sup_word;\n  reg [31:0] mem_rdata;\n", 32 * n - 1);
    printf("  wire [%u:0] beat_idx;\n  wire [%u:0] own_beat, sup_beat;\n"
           "  wire [31:0] rdata, mem_wdata;\n", bi - 1, n - 1);
    printf("  integer checks = 0;\n  integer errors = 0;\n\n");
    printf("  stc_coh_bus u_bus (\n"
           "    .clk_i(clk), .rst_ni(rst_n), .req_i(req), .grant_o(grant),\n"
           "    .txn_valid_i(txn_valid), .txn_bus_i(txn_bus), .txn_line_i(txn_line),\n"
           "    .txn_count_i(txn_count), .txn_rdx_pos_i(txn_rdx_pos), .txn_snoop_i(txn_snoop),\n"
           "    .txn_last_i(txn_last), .rel_i(rel),\n"
           "    .txn_done_o(done), .line_done_o(line_done), .line_idx_o(line_idx),\n"
           "    .line_shared_o(line_shared), .line_supplied_o(line_supplied),\n"
           "    .snp_valid_o(snp_valid), .snp_line_o(snp_line), .snp_bus_o(snp_bus),\n"
           "    .snp_supplies_i(sup_in), .snp_flushes_i(flush_in), .snp_shared_i(shared_in),\n"
           "    .sup_read_o(sup_read), .beat_o(beat), .beat_from_cache_o(beat_from_cache),\n"
           "    .mem_rd_o(mem_rd), .mem_rd_cont_o(mem_rd_cont), .mem_wr_o(mem_wr),\n"
           "    .mem_wr_posted_o(mem_wr_posted), .mem_rready_i(mem_rready),\n"
           "    .mem_wdone_i(mem_wdone),\n"
           "    .mem_wbeat_o(mem_wbeat), .mem_line_o(mem_line), .beat_idx_o(beat_idx),\n"
           "    .own_beat_o(own_beat), .own_word_i(own_word), .sup_beat_o(sup_beat),\n"
           "    .sup_word_i(sup_word), .rdata_o(rdata), .mem_rdata_i(mem_rdata),\n"
           "    .mem_wdata_o(mem_wdata), .busy_o(busy), .err_o(err));\n\n");
    printf("  wire [%u:0] seen = {grant, done, line_done, line_idx, line_shared, line_supplied,\n"
           "    snp_valid, snp_line, snp_bus, sup_read, beat, beat_from_cache, mem_rd, "
           "mem_rd_cont,\n    mem_wr, mem_wr_posted, mem_wbeat, mem_line, beat_idx, own_beat, sup_beat, rdata, mem_wdata,\n"
           "    busy, err};\n\n", out_bits - 1);
    printf("  task cyc(input rs, input [%u:0] r, input [%u:0] v, input [%u:0] b, input [%u:0] l,\n"
           "           input [%u:0] c, input [%u:0] x, input [%u:0] sn, input [%u:0] lst,\n"
           "           input [%u:0] rl,\n"
           "           input [%u:0] su, input [%u:0] fl, input [%u:0] sh, input [%u:0] ow,\n"
           "           input [%u:0] sw, input [31:0] mr, input rr, input wd,\n"
           "           input [%u:0] expected,\n"
           "           input integer number);\n",
           n - 1, n - 1, 3 * n - 1, lb * n - 1, 3 * n - 1, 2 * n - 1, GROUP_LINES * n - 1,
           n - 1, n - 1,
           GROUP_LINES * n - 1, GROUP_LINES * n - 1, GROUP_LINES * n - 1, 32 * n - 1, 32 * n - 1,
           out_bits - 1);
    printf("    begin\n      rst_n = rs; req = r; txn_valid = v; txn_bus = b; txn_line = l;\n"
           "      txn_count = c; txn_rdx_pos = x; txn_snoop = sn; txn_last = lst; rel = rl;\n"
           "      sup_in = su; flush_in = fl; shared_in = sh;\n"
           "      own_word = ow; sup_word = sw; mem_rdata = mr;\n"
           "      mem_rready = rr; mem_wdone = wd;\n");
    printf("      #1;\n      checks = checks + 1;\n");
    printf("      if (seen !== expected) begin\n        errors = errors + 1;\n"
           "        if (errors <= 10)\n"
           "          $display(\"MISMATCH cycle %%0d: rtl grant,done,line(done,idx,shared,"
           "supplied),snp(valid,line,bus),sup_read,beat,from_cache,mem(rd,cont,wr,posted,wbeat,line),"
           "beat_idx,own_beat,sup_beat,rdata,mem_wdata,busy,err = %%b expected %%b\",\n"
           "                   number, seen, expected);\n      end\n");
    printf("      clk = 1'b1;\n      #1;\n      clk = 1'b0;\n    end\n  endtask\n\n");
}

/* The memory's latencies: uniform in min..max, drawn from state. */
typedef struct {
    unsigned min, max;
    uint64_t state;
} latency_draws;

/* The next wait's latency (coherent_cycles.h's source). */
static unsigned next_latency(void *context)
{
    latency_draws *draws = context;
    unsigned span = draws->max - draws->min + 1;
    return draws->min + (unsigned)(tb_next_random(&draws->state) % span);
}

/* The whole run: cycle by cycle, print (if print) each cycle's inputs and
 * expected outputs. */
static void run(traffic *t, coverage *cov, bool print)
{
    const unsigned n = t->cores;
    make_tenures(t);
    memset(t->next_tenure, 0, sizeof t->next_tenure);
    unsigned last_owner = n - 1;
    bool busy = false, err = false;
    unsigned owner = 0, item_idx = 0;
    bool active = false;
    unsigned long next_item_at = 0, tenure_end = 0;
    plan the_plan = {0};
    plan *p = &the_plan;
    /* address + per line (data T + P/W, a flush alone T + P/W) */
    p->capacity = 1 + (size_t)MAX_LINES * 2 *
                          (t->latency_max + t->beats + t->timing.supply_read_cycles);
    /* the same draws in every run */
    latency_draws draws = {t->latency_min, t->latency_max, t->latency_seed};
    t->timing.latency = next_latency;
    t->timing.latency_context = &draws;
    p->cycle = calloc(p->capacity, sizeof *p->cycle);
    if (!p->cycle) {
        abort();
    }
    unsigned plan_at = 0;
    unsigned long number = 0;
    kept_snoop kept = {.wb_pos = GROUP_LINES};
    kept_snoop stale = kept;  /* what the bus kept before the tenure's grant */
    bool burst_seen = false;  /* the tenure's items so far had a burst */
    for (unsigned long cycle = 0;; cycle++) {
        bool work_left = busy;
        for (unsigned c = 0; c < n; c++) {
            work_left = work_left || t->next_tenure[c] < t->queued[c];
        }
        if (!work_left) {
            break;
        }
        /* A revisiting tenure not granted yet: its first burst moves to the
         * first run of the lines the bus keeps now, the tenure before's,
         * which it must snoop again all the same (a grant ends what a
         * tenure keeps), whether the grant's cycle starts it or a pause
         * comes first. */
        for (unsigned c = 0; c < n; c++) {
            if (t->next_tenure[c] >= t->queued[c] || (busy && owner == c)) {
                continue;
            }
            tenure *ten = &t->queue[c][t->next_tenure[c]];
            if (ten->revisit && kept.positions) {
                unsigned first[2], length[2];
                position_runs(kept.positions, first, length);
                item *it = &ten->items[0];
                it->line = (kept.group * GROUP_LINES + first[0]) & t->line_mask;
                it->count = it->count < length[0] ? it->count : length[0];
            }
        }
        /* Inputs. */
        unsigned req = 0, valid = 0, last = 0;
        item offer[MAX_CORES];
        for (unsigned c = 0; c < n; c++) {
            offer[c] = (item){(unsigned)tb_below(&t->seed, 8),
                              tb_next_random(&t->seed) & t->line_mask, tb_below(&t->seed, 8),
                              tb_below(&t->seed, GROUP_LINES),
                              (unsigned)tb_next_random(&t->seed) & ALL_POSITIONS};
            if (tb_below(&t->seed, 2)) {
                valid |= 1u << c;
            }
            if (tb_below(&t->seed, 2)) {
                last |= 1u << c;
            }
            bool waiting = t->next_tenure[c] < t->queued[c] && t->ready_at[c] <= cycle &&
                           !(busy && owner == c);
            if (waiting) {
                const tenure *ten = &t->queue[c][t->next_tenure[c]];
                req |= 1u << c;
                valid = ten->lead ? valid & ~(1u << c) : valid | 1u << c;
                offer[c] = ten->items[0];
                last = (last & ~(1u << c)) |
                       (ten->item_count == 1 && !ten->release ? 1u << c : 0);
            }
        }
        /* Once err_o is up, a reset in the next cycle the bus is free (no
         * request in it) lowers it again, so every line with two suppliers
         * is checked, not just the first of the run. */
        bool reset = err && !busy;
        if (reset) {
            req = 0;
        }
        /* rel_i: noise but where it would count (the owner between items) */
        unsigned rel = (unsigned)tb_next_random(&t->seed) & ((1u << n) - 1);
        bool owner_free = busy && !active && cycle >= next_item_at;
        const tenure *held = busy ? &t->queue[owner][t->next_tenure[owner]] : NULL;
        bool owner_releases = owner_free && held->release && item_idx == held->item_count;
        bool owner_offers = owner_free && !owner_releases;
        if (busy && !active) {
            valid = (valid & ~(1u << owner)) | (owner_offers ? 1u << owner : 0);
            if (!owner_offers) { /* (with an item offered, rel_i is noise the bus ignores) */
                rel = (rel & ~(1u << owner)) | (owner_releases ? 1u << owner : 0);
            }
            if (owner_offers) {
                offer[owner] = held->items[item_idx];
                last = (last & ~(1u << owner)) |
                       (item_idx + 1 == held->item_count && !held->release ? 1u << owner : 0);
            } else if (!owner_releases) {
                cov->owner_gaps++;
            }
        } else if (busy) {
            valid &= ~(1u << owner); /* nothing offered while an item runs */
        }
        /* The bus. */
        if (reset) {
            err = false;
            last_owner = n - 1; /* the arbiter's reset state */
            kept = (kept_snoop){.wb_pos = GROUP_LINES};
            cov->resets++;
        }
        outputs out = {0};
        out.busy = busy;
        out.err = err;
        answers in = noise_answers(t); /* (a snoop's answers replace it) */
        bool start = false;
        if (owner_releases) {
            busy = false;
            tenure_end = cycle;
            cov->releases++;
            cov->empty += held->item_count == 0;
            t->next_tenure[owner]++;
            t->ready_at[owner] = cycle + 1 + tb_below(&t->seed, 12);
        } else if (!busy && req) {
            owner = (unsigned)round_robin(n, last_owner, req);
            last_owner = owner;
            out.grant = 1u << owner;
            cov->tenures++;
            cov->back_to_back += tenure_end != 0 && cycle == tenure_end + 1;
            busy = true;
            item_idx = 0;
            burst_seen = false;
            stale = kept;
            kept.positions = 0;
            kept.wb_pos = GROUP_LINES;
            if (t->queue[owner][t->next_tenure[owner]].lead) {
                next_item_at = cycle + 1 + tb_below(&t->seed, 3);
                cov->lead_pauses++;
            } else {
                start = true;
            }
        } else if (owner_offers) {
            start = true;
        }
        const tenure *ten = busy ? &t->queue[owner][t->next_tenure[owner]] : NULL;
        if (start) {
            const item *it = &ten->items[item_idx];
            bool burst = it->bus == BUS_RD || it->bus == BUS_RDX;
            const item_context where = {!out.grant, burst && burst_seen, err};
            if (burst && item_idx == 0 && stale.group == it->line / GROUP_LINES &&
                (own_positions(it) & ~stale.positions) == 0) {
                cov->stale_grant += !where.after_grant;
                cov->stale_lead += where.after_grant;
            }
            burst_seen = burst_seen || burst;
            cov->items[it->bus]++;
            lay_out(t, it, owner, &where, &kept, p, cov);
            plan_at = 0;
            active = true;
            in = p->snoop;
        }
        if (active) {
            outputs keep = out;
            out = p->cycle[plan_at];
            out.grant = keep.grant;
            out.busy = keep.busy;
            out.err = keep.err;
            bool item_end = plan_at + 1 == p->length;
            plan_at++;
            if (item_end) {
                active = false;
                item_idx++;
                next_item_at = cycle + 1 + (tb_below(&t->seed, 4) == 0 ? tb_below(&t->seed, 3) : 0);
                if (item_idx == ten->item_count && !ten->release) {
                    busy = false;
                    tenure_end = cycle;
                    t->next_tenure[owner]++;
                    t->ready_at[owner] = cycle + 1 + tb_below(&t->seed, 12);
                }
            }
        }
        words data;
        for (unsigned c = 0; c < n; c++) {
            data.own[c] = (uint32_t)tb_next_random(&t->seed);
            data.snooper[c] = (uint32_t)tb_next_random(&t->seed);
        }
        data.memory = (uint32_t)tb_next_random(&t->seed);
        if (print) {
            print_cycle(t, reset, req, valid, offer, last, rel, &in, &data, &out, number);
        }
        number++;
        err = err || (start && p->two_suppliers); /* sticky, from the next cycle */
    }
    free(p->cycle);
}

static int parse_unsigned(const char *text, unsigned long max, unsigned *out)
{
    char *end = NULL;
    unsigned long value = strtoul(text, &end, 10);
    if (!*text || *end || value > max) {
        return -1;
    }
    *out = (unsigned)value;
    return 0;
}

int main(int argc, char **argv)
{
    unsigned cores = 0, latency_min = 0, latency_max = 0;
    bool have_latency = false;
    stc_geometry geometry;
    const char *geometry_list = NULL;
    for (int index = 1; index < argc; index++) {
        const char *arg = argv[index];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(usage_text, stdout);
            return 0;
        }
        bool is_cores = strcmp(arg, "--cores") == 0;
        bool is_latency = strcmp(arg, "--mem-latency") == 0;
        if ((!is_cores && !is_latency && strcmp(arg, "-g") != 0) || index + 1 >= argc) {
            fprintf(stderr, "stcbustb: %s: %s\n%s", arg,
                    index + 1 >= argc ? "needs a value or is unknown" : "unknown option",
                    usage_text);
            return 2;
        }
        const char *value = argv[++index];
        if (is_cores) {
            if (parse_unsigned(value, MAX_CORES, &cores) != 0 || cores < 2) {
                fprintf(stderr, "stcbustb: --cores %s: must be from 2 to %d\n", value,
                        MAX_CORES);
                return 2;
            }
        } else if (is_latency) {
            char low[16] = "", high[16] = "";
            const char *dash = strchr(value, '-');
            size_t low_len = dash ? (size_t)(dash - value) : strlen(value);
            if (low_len < sizeof low && (!dash || strlen(dash + 1) < sizeof high)) {
                memcpy(low, value, low_len);
                snprintf(high, sizeof high, "%s", dash ? dash + 1 : low);
            }
            if (parse_unsigned(low, 1000, &latency_min) != 0 ||
                parse_unsigned(high, 1000, &latency_max) != 0 || latency_min < 2 ||
                latency_max < latency_min) {
                fprintf(stderr, "stcbustb: --mem-latency %s: must be T or MIN-MAX, from 2 to "
                        "1000 (a read's first beat comes at least 2 cycles after mem_rd_o)\n",
                        value);
                return 2;
            }
            have_latency = true;
        } else {
            geometry_list = value;
        }
    }
    if (!cores) {
        fprintf(stderr, "stcbustb: --cores is required\n%s", usage_text);
        return 2;
    }
    if (tb_geometry("stcbustb", geometry_list, &geometry) != 0) {
        return 2;
    }
    if (!have_latency) {
        latency_min = latency_max = geometry.mem_latency;
        if (latency_min < 2) {
            fprintf(stderr, "stcbustb: the geometry's mem_latency %u: the bus's memory needs "
                    "2 or more (--mem-latency)\n", latency_min);
            return 2;
        }
    }
    traffic *t = calloc(1, sizeof *t);
    if (!t) {
        fprintf(stderr, "stcbustb: out of memory\n");
        return 1;
    }
    t->cores = cores;
    t->line_bits = geometry.addr_bits - geometry.offset_bits;
    t->beats = geometry.beats_per_line;
    t->beat_bits = t->beats > 1 ? tb_bits_for(t->beats) : 1;
    t->line_mask = t->line_bits >= 64 ? ~0ull : (1ull << t->line_bits) - 1;
    stc_coh_bus_timing_init(&t->timing, geometry.line_bytes, latency_min);
    t->latency_min = latency_min;
    t->latency_max = latency_max;
    /* Made once to count coverage, then again (the same seed) to print. */
    /* (a fixed latency's traffic as before the latency range existed) */
    const uint64_t seed =
        0xb05b05b05ull ^ cores ^ ((uint64_t)latency_min << 8) ^
        ((uint64_t)geometry.line_bytes << 24) ^
        (latency_max != latency_min ? (uint64_t)latency_max << 40 : 0);
    t->latency_seed = seed ^ 0x1a7e1a7eull;
    coverage cov = {0};
    t->seed = seed;
    run(t, &cov, false);
    printf("// tb_coh_bus: %u cores, memory latency %u-%u, geometry %s; written by\n"
           "// tools/stcbustb.c from its reference (docs/ARCHITECTURE.md 19.6). Prints PASS or "
           "FAIL.\n", cores, latency_min, latency_max, geometry_list ? geometry_list : "default");
    printf("// coverage: tenures %lu back-to-back %lu upgr %lu wb %lu rd %lu rdx %lu lines %lu "
           "supplied %lu continued %lu flush-supplied %lu flush-alone %lu two-suppliers %lu "
           "owner-gaps %lu lead-pauses %lu releases %lu empty %lu resets %lu covered %lu ahead %lu "
           "ahead-rdx %lu two-ahead %lu uncovered-second %lu uncovered-same %lu after-wb %lu "
           "stale-grant %lu stale-lead %lu\n",
           cov.tenures, cov.back_to_back, cov.items[BUS_UPGR], cov.items[BUS_WB],
           cov.items[BUS_RD], cov.items[BUS_RDX], cov.lines, cov.supplied, cov.continued,
           cov.flush_supplied, cov.flush_alone, cov.two_suppliers, cov.owner_gaps, cov.lead_pauses,
           cov.releases, cov.empty, cov.resets, cov.covered, cov.ahead, cov.ahead_rdx,
           cov.two_ahead, cov.uncovered_second, cov.uncovered_same, cov.after_wb,
           cov.stale_grant, cov.stale_lead);
    printf("`timescale 1ns / 1ps\n`default_nettype none\n\nmodule tb_coh_bus;\n");
    write_preamble(t);
    printf("  initial begin\n    #1;\n    rst_n = 1'b1;\n    #1;\n");
    coverage again = {0};
    t->seed = seed;
    run(t, &again, true);
    tb_print_verdict();
    printf("  end\n\nendmodule\n\n`resetall\n");
    free(t);
    return ferror(stdout) ? 1 : 0;
}
