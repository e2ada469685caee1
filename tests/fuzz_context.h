/* The render context the libFuzzer targets share: allocated once, then
 * returned to its just-initialised state before each input (memory zeroed,
 * the structure restored from a copy taken right after gt_render_init, the
 * binner freed and initialised again). */
#ifndef GETILE_FUZZ_CONTEXT_H
#define GETILE_FUZZ_CONTEXT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ge_limits.h"
#include "render.h"

/* Zeroes a large buffer: whole pages are handed back to the kernel
 * (anonymous private memory reads as zero again; far cheaper than writing
 * 64 MiB per input when a run touched a few pages), the ragged ends memset. */
static inline void fuzz_zero_big(uint8_t *p, size_t n)
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

/* The context for the next input, as gt_render_init leaves it. */
static inline struct gt_render *fuzz_fresh_context(void)
{
    static struct gt_render *ctx, pristine;
    if (!ctx) {
        struct gt_diag d = {0};
        ctx = malloc(sizeof *ctx);
        if (!ctx || gt_render_init(ctx, &d) < 0) abort();
        pristine = *ctx;
        return ctx;
    }
    /* The binner owns memory and synchronisation objects: it is torn down
     * and started afresh rather than copied. */
    struct gt_diag d = {0};
    binner_free(&ctx->binner);
    fuzz_zero_big(ctx->mem.ram, GT_RAM_SIZE);
    fuzz_zero_big(ctx->mem.vram, GT_VRAM_SIZE);
    memset(ctx->mem.scratch, 0, GT_SCRATCH_SIZE);
    *ctx = pristine;
    if (binner_init(&ctx->binner, &ctx->mem, 1, GT_TILE_SIZE_DEFAULT, &d) < 0) abort();
    return ctx;
}

#endif
