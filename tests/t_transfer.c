/* TRXKICK block transfers: 16 and 32 bits per pixel, strides and positions,
 * overlapping source and destination, VRAM wrap, invalid strides. */
#include <string.h>

#include "gehelp.h"
#include "test.h"

/* Source pattern: a value that encodes its own position. */
static uint32_t pat(uint32_t x, uint32_t y) { return 0x80000000u | y << 12 | x; }

/* Emits the registers and kick of one transfer. */
static void trx(struct dl *l, uint32_t src, uint32_t sstride, uint32_t sx, uint32_t sy, uint32_t dst,
                uint32_t dstride, uint32_t dx, uint32_t dy, uint32_t w, uint32_t h, int bpp32)
{
    dl_cmd(l, GE_TRX_SRC, src & 0xFFFFF0);
    dl_cmd(l, GE_TRX_SRC_W, (src >> 8 & 0xFF0000) | sstride);
    dl_cmd(l, GE_TRX_DST, dst & 0xFFFFF0);
    dl_cmd(l, GE_TRX_DST_W, (dst >> 8 & 0xFF0000) | dstride);
    dl_cmd(l, GE_TRX_SRC_POS, sx | sy << 10);
    dl_cmd(l, GE_TRX_DST_POS, dx | dy << 10);
    dl_cmd(l, GE_TRX_SIZE, (w - 1) | (h - 1) << 10);
    dl_cmd(l, GE_TRX_KICK, (uint32_t)bpp32);
}

TEST(transfer_32bit_rect)
{
    struct gehelp h;
    struct gt_diag d = {0};
    gh_init(&h);
    /* A 100x50 source image in RAM with stride 128, into VRAM with stride 512. */
    for (uint32_t y = 0; y < 50; y++)
        for (uint32_t x = 0; x < 128; x++) mem_write32(&h.r.mem, 0x08200000 + (y * 128 + x) * 4, pat(x, y));
    struct dl l;
    dl_init(&l);
    trx(&l, 0x08200000, 128, 10, 5, 0x04000000, 512, 300, 200, 33, 17, 1);
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    for (uint32_t y = 190; y < 230; y++)
        for (uint32_t x = 290; x < 350; x++) {
            uint32_t got = mem_read32(&h.r.mem, 0x04000000 + (y * 512 + x) * 4);
            bool inside = x >= 300 && x < 333 && y >= 200 && y < 217;
            uint32_t want = inside ? pat(x - 300 + 10, y - 200 + 5) : 0;
            CHECK_MSG(got == want, "(%u,%u): 0x%08x, want 0x%08x", x, y, got, want);
        }
    CHECK_EQ_U(h.r.ge.stats.transfers, 1);
    dl_free(&l);
    gh_free(&h);
}

TEST(transfer_16bit_rect)
{
    struct gehelp h;
    struct gt_diag d = {0};
    gh_init(&h);
    for (uint32_t y = 0; y < 20; y++)
        for (uint32_t x = 0; x < 64; x++) mem_write16(&h.r.mem, 0x04100000 + (y * 64 + x) * 2, (uint16_t)(y << 8 | x));
    struct dl l;
    dl_init(&l);
    trx(&l, 0x04100000, 64, 3, 2, 0x04000000, 480, 7, 9, 5, 4, 0);
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    for (uint32_t y = 0; y < 20; y++)
        for (uint32_t x = 0; x < 20; x++) {
            uint16_t got = mem_read16(&h.r.mem, 0x04000000 + (y * 480 + x) * 2);
            bool inside = x >= 7 && x < 12 && y >= 9 && y < 13;
            uint16_t want = inside ? (uint16_t)((y - 9 + 2) << 8 | (x - 7 + 3)) : 0;
            CHECK_MSG(got == want, "(%u,%u): 0x%04x, want 0x%04x", x, y, got, want);
        }
    dl_free(&l);
    gh_free(&h);
}

/* Fills a 32x32 32-bit image at 0x04000000 (stride 64) with pat(). */
static void fill_overlap_image(struct gehelp *h)
{
    for (uint32_t y = 0; y < 40; y++)
        for (uint32_t x = 0; x < 64; x++) mem_write32(&h->r.mem, 0x04000000 + (y * 64 + x) * 4, pat(x, y));
}

static uint32_t px(struct gehelp *h, uint32_t x, uint32_t y) { return mem_read32(&h->r.mem, 0x04000000 + (y * 64 + x) * 4); }

TEST(transfer_overlap_rows_in_order)
{
    /* Rows are copied top to bottom, each row read whole before it is
     * written (a model choice, see ge_transfer.c). So a copy one row down
     * onto itself repeats the first row, a copy one row up shifts cleanly,
     * and a copy one pixel right within rows shifts cleanly. */
    struct gehelp h;
    struct gt_diag d = {0};
    struct dl l;
    gh_init(&h);
    fill_overlap_image(&h);
    dl_init(&l);
    trx(&l, 0x04000000, 64, 0, 0, 0x04000000, 64, 0, 1, 32, 32, 1);
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    for (uint32_t y = 1; y <= 32; y++)
        for (uint32_t x = 0; x < 32; x++) CHECK_EQ_U(px(&h, x, y), pat(x, 0));
    CHECK_EQ_U(px(&h, 32, 5), pat(32, 5)); /* outside the rectangle: untouched */
    dl_free(&l);

    fill_overlap_image(&h);
    dl_init(&l);
    trx(&l, 0x04000000, 64, 0, 1, 0x04000000, 64, 0, 0, 32, 32, 1);
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    for (uint32_t y = 0; y < 32; y++)
        for (uint32_t x = 0; x < 32; x++) CHECK_EQ_U(px(&h, x, y), pat(x, y + 1));
    dl_free(&l);

    fill_overlap_image(&h);
    dl_init(&l);
    trx(&l, 0x04000000, 64, 0, 0, 0x04000000, 64, 1, 0, 32, 32, 1);
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    for (uint32_t y = 0; y < 32; y++) {
        CHECK_EQ_U(px(&h, 0, y), pat(0, y));
        for (uint32_t x = 1; x <= 32; x++) CHECK_EQ_U(px(&h, x, y), pat(x - 1, y));
    }
    dl_free(&l);
    gh_free(&h);
}

TEST(transfer_edges_of_memory)
{
    struct gehelp h;
    struct gt_diag d = {0};
    struct dl l;
    gh_init(&h);
    /* Destination rows past the end of VRAM's span are dropped, counted. */
    dl_init(&l);
    trx(&l, 0x08000000, 512, 0, 0, 0x04FFF000, 512, 0, 0, 512, 4, 1);
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    CHECK_EQ_U(h.r.ge.stats.transfer_rows_dropped, 2);  /* rows 2 and 3 start past 0x04FFFFFF */
    dl_free(&l);
    /* A source outside memory reads as zeros. */
    mem_write32(&h.r.mem, 0x04000000, 0xFFFFFFFF);
    dl_init(&l);
    trx(&l, 0x0C000000, 16, 0, 0, 0x04000000, 16, 0, 0, 4, 1, 1);
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    CHECK_EQ_U(mem_read32(&h.r.mem, 0x04000000), 0);
    dl_free(&l);
    /* A stride over 1024 pixels counts as 0: every row reads the same source row. */
    for (uint32_t x = 0; x < 8; x++) mem_write32(&h.r.mem, 0x08000000 + x * 4, pat(x, 0));
    mem_write32(&h.r.mem, 0x08000000 + 0x7F8 * 4, 0xDEADBEEF);
    dl_init(&l);
    trx(&l, 0x08000000, 0x7F8, 0, 0, 0x04010000, 8, 0, 0, 8, 3, 1);
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    for (uint32_t y = 0; y < 3; y++)
        for (uint32_t x = 0; x < 8; x++) CHECK_EQ_U(mem_read32(&h.r.mem, 0x04010000 + (y * 8 + x) * 4), pat(x, 0));
    dl_free(&l);
    gh_free(&h);
}
