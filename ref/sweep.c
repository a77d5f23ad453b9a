/* sweep.c - one filtering pass shared by many configurations. */
#include "sweep.h"

void stc_repeat_filter_init(stc_repeat_filter *filter, const stc_geometry *geometry)
{
    *filter = (stc_repeat_filter){0};
    filter->offset_bits = geometry->offset_bits;
    filter->line_bytes = geometry->line_bytes;
    filter->addr_mask = geometry->addr_mask;
}

void stc_repeat_filter_run(stc_repeat_filter *filter, const stc_ref *refs, size_t count,
                           stc_filtered_batch *batch)
{
    batch->ifetch_count = 0;
    batch->data_count = 0;
    batch->repeats[0] = (stc_repeat_counts){0, 0, 0};
    batch->repeats[1] = (stc_repeat_counts){0, 0, 0};
    for (size_t index = 0; index < count; index++) {
        const stc_ref *ref = &refs[index];
        unsigned stream = ref->kind == STC_REF_IFETCH ? 0 : 1;
        bool writes = ref->kind == STC_REF_STORE || ref->kind == STC_REF_MODIFY;
        uint64_t first = ref->addr & filter->addr_mask;
        uint64_t first_line = first >> filter->offset_bits;
        bool one_piece = ((unsigned)first & (filter->line_bytes - 1)) + ref->size <= filter->line_bytes;
        if (one_piece && filter->last_valid[stream] && first_line == filter->last_line[stream] &&
            (!writes || filter->last_dirty[stream])) {
            stc_repeat_counts *repeats = &batch->repeats[stream];
            if (ref->kind == STC_REF_STORE) {
                repeats->writes++;
            } else if (ref->kind == STC_REF_MODIFY) {
                repeats->modifies++;
            } else {
                repeats->reads++;
            }
            continue;
        }
        uint64_t last_line =
            ((ref->addr + ref->size - 1) & filter->addr_mask) >> filter->offset_bits;
        if (last_line != filter->last_line[stream] || !filter->last_valid[stream]) {
            filter->last_dirty[stream] = false;
        }
        filter->last_valid[stream] = true;
        filter->last_line[stream] = last_line;
        filter->last_dirty[stream] = filter->last_dirty[stream] || writes;
        if (stream == 0) {
            batch->ifetch[batch->ifetch_count++] = *ref;
        } else {
            batch->data[batch->data_count++] = *ref;
        }
    }
}

void stc_sweep_run(stc_system *system, const stc_filtered_batch *batch)
{
    static const stc_op op_of_kind[] = {
        [STC_REF_IFETCH] = STC_OP_READ,
        [STC_REF_LOAD] = STC_OP_READ,
        [STC_REF_STORE] = STC_OP_WRITE,
        [STC_REF_MODIFY] = STC_OP_MODIFY,
    };
    for (size_t index = 0; index < batch->ifetch_count; index++) {
        stc_cache_request(system->icache, STC_OP_READ, batch->ifetch[index].addr,
                          batch->ifetch[index].size, NULL, NULL, NULL);
    }
    for (size_t index = 0; index < batch->data_count; index++) {
        const stc_ref *ref = &batch->data[index];
        stc_cache_request(system->dcache, op_of_kind[ref->kind & 3], ref->addr, ref->size, NULL,
                          NULL, NULL);
    }
    stc_cache_add_repeat_counts(system->icache, &batch->repeats[0]);
    stc_cache_add_repeat_counts(system->dcache, &batch->repeats[1]);
}
