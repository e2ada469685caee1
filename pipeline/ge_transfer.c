/* Block transfers (TRXKICK) and CLUT loads (LOADCLUT). */
#include <string.h>

#include "ge_internal.h"

/* Copies a rectangle between two images in PSP memory. Rows are copied top
 * to bottom, each row read whole before it is written, so a transfer whose
 * source and destination overlap reads rows above the current one as already
 * copied. Model choice: the hardware's order within an overlapping transfer is
 * not measured; this is the order PPSSPP uses. Source bytes outside memory
 * read as 0; destination rows outside memory are not written (counted). */
int ge_block_transfer(struct ge *ge, struct gt_diag *d)
{
    const struct ge_state *st = &ge->st;
    uint32_t src = (ge_reg(st, GE_TRX_SRC) & 0xFFFFF0) | ((ge_reg(st, GE_TRX_SRC_W) & 0xFF0000) << 8);
    uint32_t dst = (ge_reg(st, GE_TRX_DST) & 0xFFFFF0) | ((ge_reg(st, GE_TRX_DST_W) & 0xFF0000) << 8);
    uint32_t sstride = ge_reg(st, GE_TRX_SRC_W) & 0x7F8, dstride = ge_reg(st, GE_TRX_DST_W) & 0x7F8;
    uint32_t sx = ge_reg(st, GE_TRX_SRC_POS) & 0x3FF, sy = (ge_reg(st, GE_TRX_SRC_POS) >> 10) & 0x3FF;
    uint32_t dx = ge_reg(st, GE_TRX_DST_POS) & 0x3FF, dy = (ge_reg(st, GE_TRX_DST_POS) >> 10) & 0x3FF;
    uint32_t w = (ge_reg(st, GE_TRX_SIZE) & 0x3FF) + 1, h = ((ge_reg(st, GE_TRX_SIZE) >> 10) & 0x3FF) + 1;
    uint32_t bpp = (ge_reg(st, GE_TRX_KICK) & 1) ? 4 : 2;
    uint8_t row[1024 * 4];

    /* Strides above 1024 pixels are not valid; the GE treats them as 0. */
    if (sstride > 0x400) sstride = 0;
    if (dstride > 0x400) dstride = 0;
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
        int rc = ge->hooks.sync(ge->hooks.ctx, ge, d);
        if (rc < 0) return rc;
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
        int rc = ge->hooks.sync(ge->hooks.ctx, ge, d);
        if (rc < 0) return rc;
    }
    mem_read(ge->mem, addr, ge->st.clut, bytes);
    ge->stats.clut_loads++;
    return GT_OK;
}
