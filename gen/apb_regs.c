/* apb_regs.c - the register map of stc_cache_apb, in one table. */
#include "apb_regs.h"

#include "top_ports.h"

#include <string.h>

const char *const stcgen_apb_counter_names[STCGEN_APB_COUNTERS] = {
    "requests",         "request_misses",    "accesses",       "reads",
    "writes",           "misses",            "read_misses",    "write_misses",
    "first_probe_hits", "second_probe_hits", "fills",          "fill_bursts",
    "writebacks",       "cycles",            "reconfigs",      "reconfig_cycles",
    "walk_rows",        "banks_woken",       "walk_writebacks", "walk_invalidations"};

/* The width of one of stc_cache's ports, 0 if it has none of that name. */
static unsigned port_width(const stcgen_top_port *ports, size_t count, const char *name)
{
    for (size_t index = 0; index < count; index++) {
        if (strcmp(ports[index].name, name) == 0) {
            return ports[index].width;
        }
    }
    return 0;
}

/* Append a register; NULL if the table is full. */
static stcgen_apb_reg *add_reg(stcgen_apb_map *map, const char *name, stcgen_apb_role role,
                               unsigned offset, unsigned count, const char *access,
                               const char *what)
{
    if (map->count >= STCGEN_APB_MAX_REGS) {
        return NULL;
    }
    stcgen_apb_reg *reg = &map->reg[map->count++];
    memset(reg, 0, sizeof *reg);
    reg->name = name;
    reg->role = role;
    reg->offset = offset;
    reg->count = count;
    reg->access = access;
    reg->writable = strchr(access, 'W') != NULL;
    reg->readable = access[0] == 'R';
    reg->what = what;
    return reg;
}

/* Append a field at lsb; the register's reset value follows from its
 * fields'. Returns the bit above it. */
static unsigned add_field(stcgen_apb_reg *reg, const char *name, unsigned lsb, unsigned width,
                          uint32_t reset, const char *what)
{
    if (reg->fields < STCGEN_APB_MAX_FIELDS) {
        reg->field[reg->fields++] = (stcgen_apb_field){name, lsb, width, reset, what};
        reg->reset |= reset << lsb;
    }
    return lsb + width;
}

int stcgen_apb_map_build(const stcgen_params *params, stcgen_apb_map *map)
{
    const stc_geometry *g = &params->geometry;
    stcgen_top_port ports[STCGEN_MAX_TOP_PORTS];
    const size_t n_ports = stcgen_top_ports(params, ports, STCGEN_MAX_TOP_PORTS);
    memset(map, 0, sizeof *map);
    map->banks_log_bits = port_width(ports, n_ports, "cfg_banks_log_i");
    map->ways_log_bits = port_width(ports, n_ports, "cfg_ways_log_i");
    map->sub_log_bits = port_width(ports, n_ports, "cfg_sub_log_i");
    map->mnt_addr_bits = port_width(ports, n_ports, "mnt_addr_i");
    map->cnt_sel_bits = port_width(ports, n_ports, "cnt_sel_i");
    map->counter_bits = port_width(ports, n_ports, "cnt_value_o");
    map->tun_addr_bits = port_width(ports, n_ports, "tun_addr_i");
    const unsigned op_bits = port_width(ports, n_ports, "mnt_op_i");
    map->tuner_kind = stcgen_monitor_tuner(params) ? 1 : stcgen_seed_tuner(params) ? 2 : 0;
    if (map->banks_log_bits == 0 || map->ways_log_bits == 0 || map->sub_log_bits == 0 ||
        map->mnt_addr_bits == 0 || map->cnt_sel_bits == 0 || map->counter_bits == 0 ||
        op_bits == 0 || (map->tuner_kind != 0) != (map->tun_addr_bits != 0) ||
        map->mnt_addr_bits + 2 > 64 || map->counter_bits > 64 ||
        (1u << map->cnt_sel_bits) < STCGEN_APB_COUNTERS) {
        return -1;
    }
    const unsigned addr_bits = map->mnt_addr_bits + 2; /* byte address */
    stcgen_apb_reg *reg;
    unsigned bit;

    /* Software discovers what it drives: constants of this output. */
    if (!(reg = add_reg(map, "ID", STCGEN_APB_ID, 0x000, 1, "RO",
                        "identification and build options (constant)"))) {
        return -1;
    }
    add_field(reg, "TUNER", 0, 2, map->tuner_kind, "tuner built: 0 none, 1 monitor, 2 seed");
    add_field(reg, "WP", 2, 1, params->way_prediction ? 1 : 0, "way prediction built");
    add_field(reg, "FIXED", 3, 1, params->fixed ? 1 : 0,
              "fixed baseline: every configuration change is refused");
    add_field(reg, "MOVES", 4, 1, params->walk_moves ? 1 : 0,
              "a reconfiguration's walk moves lines instead of dropping them (ARCHITECTURE.md 7)");
    add_field(reg, "VERSION", 8, 8, STCGEN_APB_VERSION, "register map version");
    add_field(reg, "MAGIC", 16, 16, STCGEN_APB_MAGIC, "0x57CA: an stc cache");

    if (!(reg = add_reg(map, "GEOMETRY", STCGEN_APB_GEOMETRY, 0x004, 1, "RO",
                        "the geometry (constant)"))) {
        return -1;
    }
    bit = add_field(reg, "BANKS_LOG2", 0, 5, g->bank_bits, "log2(banks)");
    bit = add_field(reg, "BANK_BYTES_LOG2", bit, 5, g->bank_shift, "log2(bytes per bank)");
    bit = add_field(reg, "LINE_BYTES_LOG2", bit, 5, g->offset_bits,
                    "log2(physical line bytes)");
    bit = add_field(reg, "ADDR_BITS", bit, 7, addr_bits, "address width");
    add_field(reg, "COUNTER_BITS", bit, 7, map->counter_bits, "counter width");

    /* The configuration packed as the tuners pack it (ARCHITECTURE.md 16.2). */
    if (!(reg = add_reg(map, "CONFIG", STCGEN_APB_CONFIG, 0x008, 1, "RW",
                        "write: request a change (refused while STATUS.CFG_BUSY); "
                        "read: the current configuration"))) {
        return -1;
    }
    bit = add_field(reg, "BANKS_LOG", 0, map->banks_log_bits, stc_log2(params->reset.banks_on),
                    "log2(k): powered banks");
    bit = add_field(reg, "WAYS_LOG", bit, map->ways_log_bits, stc_log2(params->reset.ways),
                    "log2(a): associativity");
    bit = add_field(reg, "SUB_LOG", bit, map->sub_log_bits, stc_log2(params->reset.sublines),
                    "log2(L/P): physical lines per logical line");
    add_field(reg, "WP", bit, 1, params->reset.way_predict ? 1 : 0, "way prediction on");

    if (!(reg = add_reg(map, "STATUS", STCGEN_APB_STATUS, 0x00C, 1, "RO",
                        "what is in progress"))) {
        return -1;
    }
    add_field(reg, "CFG_BUSY", 0, 1, 0, "a configuration change is requested or in progress");
    add_field(reg, "CFG_WAIT", 1, 1, 0, "requested, not yet accepted by the cache");
    add_field(reg, "CFG_ERR", 2, 1, 0,
              "the last change was illegal and changed nothing (cleared by a CONFIG write)");
    add_field(reg, "MNT_BUSY", 4, 1, 0, "a maintenance operation is requested or in progress");
    add_field(reg, "MNT_WAIT", 5, 1, 0, "requested, not yet accepted by the cache");
    if (map->tuner_kind != 0) {
        add_field(reg, "TUN_BUSY", 8, 1, 0,
                  "the tuner searches or changes the configuration (tun_busy)");
    }

    if (!(reg = add_reg(map, "MAINT_ADDR", STCGEN_APB_MAINT_ADDR, 0x010, 1, "RW",
                        "byte address of the line of a scope-line operation "
                        "(refused while STATUS.MNT_BUSY)"))) {
        return -1;
    }
    add_field(reg, "ADDR", 2, (addr_bits > 32 ? 32 : addr_bits) - 2, 0,
              "address bits above the word offset (bits 1:0 read 0)");
    if (addr_bits > 32) {
        if (!(reg = add_reg(map, "MAINT_ADDR_HI", STCGEN_APB_MAINT_ADDR_HI, 0x014, 1, "RW",
                            "the high address bits of MAINT_ADDR"))) {
            return -1;
        }
        add_field(reg, "ADDR_HI", 0, addr_bits - 32, 0, "address bits 32 and up");
    }

    if (!(reg = add_reg(map, "MAINT_CTRL", STCGEN_APB_MAINT_CTRL, 0x018, 1, "RW",
                        "write: start a maintenance operation (ARCHITECTURE.md 7.1; refused "
                        "while STATUS.MNT_BUSY); read: the last one written"))) {
        return -1;
    }
    bit = add_field(reg, "OP", 0, op_bits, 0, "0 none, 1 clean, 2 invalidate, 3 both");
    add_field(reg, "ALL", bit, 1, 0, "1: every line; 0: the line of MAINT_ADDR");

    if (!(reg = add_reg(map, "CNT_CLEAR", STCGEN_APB_CNT_CLEAR, 0x01C, 1, "WO",
                        "write 1 to bit 0: clear every counter (reads 0)"))) {
        return -1;
    }
    add_field(reg, "CLEAR", 0, 1, 0, "1: clear");

    /* Counters wider than a word: the high word of the one read last, so a
     * 64-bit value is one snapshot (read the low word first). */
    if (map->counter_bits > 32) {
        if (!(reg = add_reg(map, "COUNTER_HI", STCGEN_APB_COUNTER_HI, 0x020, 1, "RO",
                            "bits 32 and up of the counter read last through COUNTER"))) {
            return -1;
        }
        add_field(reg, "VALUE", 0, map->counter_bits - 32, 0, "high bits");
    }

    if (!(reg = add_reg(map, "COUNTER", STCGEN_APB_COUNTER, 0x080, STCGEN_APB_COUNTERS, "RO",
                        "counter n (ARCHITECTURE.md 9, numbered as 15.2; STC_CNT_*)"))) {
        return -1;
    }
    add_field(reg, "VALUE", 0, map->counter_bits > 32 ? 32 : map->counter_bits, 0,
              "saturating count (low word)");

    if (map->tuner_kind != 0) {
        if (!(reg = add_reg(map, "TUNER", STCGEN_APB_TUNER, 0x100, 1u << map->tun_addr_bits,
                            "RW",
                            map->tuner_kind == 1
                                ? "monitor tuner register n (ARCHITECTURE.md 18.4) on tun_*"
                                : "seed tuner register n (ARCHITECTURE.md 16.2) on tun_*"))) {
            return -1;
        }
    }

    /* Every register inside the window, none overlapping the next. */
    for (size_t index = 0; index < map->count; index++) {
        const stcgen_apb_reg *r = &map->reg[index];
        unsigned end = r->offset + 4 * r->count;
        if (end > (1u << STCGEN_APB_ADDR_BITS) ||
            (index + 1 < map->count && end > map->reg[index + 1].offset)) {
            return -1;
        }
    }
    return 0;
}

const stcgen_apb_reg *stcgen_apb_find(const stcgen_apb_map *map, stcgen_apb_role role)
{
    for (size_t index = 0; index < map->count; index++) {
        if (map->reg[index].role == role) {
            return &map->reg[index];
        }
    }
    return NULL;
}

const stcgen_apb_field *stcgen_apb_field_find(const stcgen_apb_reg *reg, const char *name)
{
    for (size_t index = 0; reg && index < reg->fields; index++) {
        if (strcmp(reg->field[index].name, name) == 0) {
            return &reg->field[index];
        }
    }
    return NULL;
}
