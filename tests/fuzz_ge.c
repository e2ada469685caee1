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
#include <sys/mman.h>
#include <unistd.h>

#include "ge_limits.h"
#include "render.h"

#define LIST_ADDR 0x08800000u
#define MAX_LIST_BYTES 65536u
#define BUDGET 30000u

/* Zeroes a large buffer cheaply (see fuzz_dump.c): whole pages go back to
 * the kernel and read as zero again, the ragged ends are memset. */
static void zero_big(uint8_t *p, size_t n)
{
    uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t a = (uintptr_t)p, b = a + n, a2 = (a + pg - 1) & ~(pg - 1), b2 = b & ~(pg - 1);
    if (b2 <= a2 || madvise((void *)a2, b2 - a2, MADV_DONTNEED) != 0) {
        memset(p, 0, n);
        return;
    }
    memset(p, 0, a2 - a);
    memset((void *)b2, 0, b - b2);
}

/* One context for the run, returned to its just-initialised state before
 * each input (memory zeroed, structure restored from a copy taken right
 * after gt_render_init). */
static struct gt_render *ctx, pristine;

static struct gt_render *fresh_context(void)
{
    if (!ctx) {
        struct gt_diag d = {0};
        ctx = malloc(sizeof *ctx);
        if (!ctx || gt_render_init(ctx, &d) < 0) abort();
        pristine = *ctx;
        return ctx;
    }
    zero_big(ctx->mem.ram, GT_RAM_SIZE);
    zero_big(ctx->mem.vram, GT_VRAM_SIZE);
    memset(ctx->mem.scratch, 0, GT_SCRATCH_SIZE);
    *ctx = pristine;
    return ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MAX_LIST_BYTES) size = MAX_LIST_BYTES;
    size &= ~(size_t)3;
    struct gt_render *r = fresh_context();
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
