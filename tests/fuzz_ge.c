/* libFuzzer target: the GE command processor fed arbitrary command words.
 *
 * The input (cut to a multiple of 4 bytes, at most 64 KiB) is copied into
 * RAM at 0x08800000 as little-endian words, FINISH and END are appended,
 * and the list runs with a step budget of 30000 steps. Flow control (JUMP,
 * CALL, RET, SIGNAL), block transfers, CLUT loads and matrix uploads all
 * come up; none may crash, and every outcome must be well formed: success
 * leaves the list ended or paused within the budget, failure is a negative
 * code with a one-line message. Built and run by `make fuzz` (seeds in
 * tests/fuzz-seeds/fuzz_ge/: raw little-endian words). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ge_limits.h"
#include "fuzz_context.h"
#include "render.h"

#define LIST_ADDR 0x08800000u
#define MAX_LIST_BYTES 65536u
#define BUDGET 30000u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MAX_LIST_BYTES) size = MAX_LIST_BYTES;
    size &= ~(size_t)3;
    struct gt_render *r = fuzz_fresh_context();
    struct gt_diag d = {0};
    if (size && mem_write(&r->mem, LIST_ADDR, data, (uint32_t)size, &d) < 0) abort();
    mem_write32(&r->mem, LIST_ADDR + (uint32_t)size, (uint32_t)GE_FINISH << 24);
    mem_write32(&r->mem, LIST_ADDR + (uint32_t)size + 4, (uint32_t)GE_END << 24);
    r->ge.step_budget = BUDGET;
    r->ge.draw_limit = 0;
    int rc = gt_render_list(r, LIST_ADDR, &d);
    if (rc < 0) {
        if (d.code != rc || !d.msg[0] || strchr(d.msg, '\n') || strchr(d.msg, '\r')) abort();
    } else {
        if (rc != 0) abort();
        if (r->ge.list.state != GE_LIST_DONE && r->ge.list.state != GE_LIST_PAUSED) abort();
        if (r->ge.list.depth < 0 || r->ge.list.depth > GT_CALL_DEPTH) abort();
    }
    /* The budget is checked before each word; the last word may add its own
     * work (at most 65535 vertices, or 1024x1024/4 transfer steps). */
    if (r->ge.stats.steps > BUDGET + (1u << 18)) abort();
    return 0;
}
