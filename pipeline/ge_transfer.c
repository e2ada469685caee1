/* Block transfers (TRXKICK) and CLUT loads (LOADCLUT). */
#include <string.h>

#include "ge_internal.h"

/* Copies a rectangle between two images in PSP memory. Rows are copied top
 * to bottom, each row read whole before it is written, so a transfer whose
 * source and destination overlap reads rows above the current one as already
 * copied. Model choice: the hardware's order within an overlapping transfer is
 * not measured; this is the order PPSSPP uses. Source bytes outside memory
 * read as 0; destination rows outside memory are not written (counted). */
/* A block transfer's registers. */
struct trx {
    uint32_t src, dst, sstride, dstride, sx, sy, dx, dy, w, h, bpp;
};

static void trx_decode(const struct ge_state *st, struct trx *t)
{
    t->src = (ge_reg(st, GE_TRX_SRC) & 0xFFFFF0) | ((ge_reg(st, GE_TRX_SRC_W) & 0xFF0000) << 8);
    t->dst = (ge_reg(st, GE_TRX_DST) & 0xFFFFF0) | ((ge_reg(st, GE_TRX_DST_W) & 0xFF0000) << 8);
    t->sstride = ge_reg(st, GE_TRX_SRC_W) & 0x7F8, t->dstride = ge_reg(st, GE_TRX_DST_W) & 0x7F8;
    t->sx = ge_reg(st, GE_TRX_SRC_POS) & 0x3FF, t->sy = (ge_reg(st, GE_TRX_SRC_POS) >> 10) & 0x3FF;
    t->dx = ge_reg(st, GE_TRX_DST_POS) & 0x3FF, t->dy = (ge_reg(st, GE_TRX_DST_POS) >> 10) & 0x3FF;
    t->w = (ge_reg(st, GE_TRX_SIZE) & 0x3FF) + 1, t->h = ((ge_reg(st, GE_TRX_SIZE) >> 10) & 0x3FF) + 1;
    t->bpp = (ge_reg(st, GE_TRX_KICK) & 1) ? 4 : 2;
    /* Strides above 1024 pixels are not valid; the GE treats them as 0. */
    if (t->sstride > 0x400) t->sstride = 0;
    if (t->dstride > 0x400) t->dstride = 0;
}

/* The bytes an image rectangle spans, first row's start to last row's end. */
static void trx_span(uint32_t base, uint32_t stride, uint32_t x, uint32_t y, const struct trx *t, uint32_t *addr,
                     uint32_t *len)
{
    *addr = base + (y * stride + x) * t->bpp;
    *len = ((t->h - 1) * stride + t->w) * t->bpp;
}

int ge_block_transfer(struct ge *ge, struct gt_diag *d)
{
    struct trx t;
    trx_decode(&ge->st, &t);
    uint32_t src = t.src, dst = t.dst, sstride = t.sstride, dstride = t.dstride;
    uint32_t sx = t.sx, sy = t.sy, dx = t.dx, dy = t.dy, w = t.w, h = t.h, bpp = t.bpp;
    uint8_t row[1024 * 4];

    ge->stats.transfers++;
    /* A transfer costs steps by its size (one per 4 pixels), so the step
     * budget bounds the time a list can take, not only its length. */
    ge->stats.steps += (uint64_t)w * h / 4;
    for (uint32_t y = 0; y < h; y++) {
        uint32_t s = src + ((sy + y) * sstride + sx) * bpp;
        uint32_t t = dst + ((dy + y) * dstride + dx) * bpp;
        mem_read(ge->mem, s, row, w * bpp);
        if (mem_write(ge->mem, t, row, w * bpp, NULL) < 0) ge->stats.transfer_rows_dropped++;
    }
    return GT_OK;
}

int ge_h_trxkick(struct ge *ge, uint32_t w, struct gt_diag *d)
{
    if (ge->hooks.sync) {
        struct trx t;
        uint32_t a, n;
        trx_decode(&ge->st, &t);
        trx_span(t.src, t.sstride, t.sx, t.sy, &t, &a, &n);
        int rc = ge->hooks.sync(ge->hooks.ctx, ge, a, n, false, d);
        if (rc < 0) return rc;
        trx_span(t.dst, t.dstride, t.dx, t.dy, &t, &a, &n);
        if ((rc = ge->hooks.sync(ge->hooks.ctx, ge, a, n, true, d)) < 0) return rc;
    }
    return ge_block_transfer(ge, d);
}

/* LOADCLUT: copies 32-byte blocks from the CLUT address into the GE's CLUT
 * memory. An address that is not mapped (a game address that meant nothing
 * outside the game, GE-HARDWARE.md §7) loads zeros. */
int ge_h_load_clut(struct ge *ge, uint32_t w, struct gt_diag *d)
{
    const struct ge_state *st = &ge->st;
    uint32_t addr = (ge_reg(st, GE_CLUT_ADDR) & 0xFFFFF0) | ((ge_reg(st, GE_CLUT_ADDR_UPPER) << 8) & 0x0F000000);
    uint32_t bytes = (w & 0x3F) * 32;
    if (bytes > GT_CLUT_BYTES) bytes = GT_CLUT_BYTES;
    if (ge->hooks.sync) {
        int rc = ge->hooks.sync(ge->hooks.ctx, ge, addr, bytes, false, d);
        if (rc < 0) return rc;
    }
    mem_read(ge->mem, addr, ge->st.clut, bytes);
    ge->stats.clut_loads++;
    return GT_OK;
}
