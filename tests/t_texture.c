/* Texel decoding (pipeline/texture.c): every PSP texture format against
 * texels decoded by hand. Each test writes known bytes into PSP memory, sets
 * the texture registers, snapshots them with tex_snapshot and reads texels
 * with tex_texel. Expected values are worked out in the comments next to
 * them, from the formulas texture.c documents (PPSSPP's behaviour), never
 * with the module's own code. Packed results are R | G<<8 | B<<16 | A<<24. */
#include <string.h>

#include "gehelp.h"
#include "test.h"
#include "texture.h"

#define RAM 0x08400000u
#define VRAM 0x04000000u

static void set(struct ge_state *st, unsigned cmd, uint32_t data) { st->reg[cmd] = (uint32_t)cmd << 24 | (data & 0xFFFFFF); }

/* Level-0 registers: format, full address (bits 24-27 go to TEX_BUFW0 bits
 * 16-19), buffer width register value, size exponents. */
static void tex_regs(struct ge_state *st, unsigned fmt, uint32_t addr, uint32_t bufw, unsigned wlog, unsigned hlog)
{
    set(st, GE_TEX_FORMAT, fmt);
    set(st, GE_TEX_ADDR0, addr & 0xFFFFFF);
    set(st, GE_TEX_BUFW0, (bufw & 0xFFFF) | ((addr >> 24) & 0xF) << 16);
    set(st, GE_TEX_SIZE0, wlog | hlog << 8);
}

/* CLUT_FORMAT: entry format, shift, mask, offset (in units of 16 entries). */
static void clut_regs(struct ge_state *st, unsigned fmt, unsigned shift, unsigned mask, unsigned offset)
{
    set(st, GE_CLUT_FORMAT, fmt | shift << 2 | mask << 8 | offset << 16);
}

static void clut16(struct ge_state *st, unsigned i, uint16_t v)
{
    st->clut[2 * i] = v & 0xFF;
    st->clut[2 * i + 1] = v >> 8;
}
static void clut32(struct ge_state *st, unsigned i, uint32_t v)
{
    for (unsigned k = 0; k < 4; k++) st->clut[4 * i + k] = (uint8_t)(v >> (8 * k));
}

static uint32_t texel(struct gehelp *h, unsigned level, uint32_t x, uint32_t y)
{
    struct gt_tex t;
    tex_snapshot(&t, &h->r.ge.st);
    return tex_texel(&t, &h->r.mem, level, x, y);
}

static uint32_t texel_addr(struct gehelp *h, unsigned level, uint32_t x, uint32_t y, unsigned *nibble)
{
    struct gt_tex t;
    tex_snapshot(&t, &h->r.ge.st);
    return tex_texel_address(&t, level, x, y, nibble);
}

/* 5650: R bits 0-4, G 5-10, B 11-15; 5 bits c -> c<<3 | c>>2, 6 bits c -> c<<2 | c>>4. */
TEST(tex_5650)
{
    struct gehelp h;
    gh_init(&h);
    struct gt_mem *m = &h.r.mem;
    tex_regs(&h.r.ge.st, GT_TFMT_5650, RAM, 8, 3, 3); /* 8x8, bufw 8: rows of 16 bytes */
    mem_write16(m, RAM + 0, 0x0000);
    mem_write16(m, RAM + 2, 0xFFFF);
    /* R=16, G=32, B=1: 0x10 | 32<<5 | 1<<11 = 0x0C10.
     * R: 16<<3 | 16>>2 = 128|4 = 0x84. G: 32<<2 | 32>>4 = 128|2 = 0x82. B: 1<<3 | 0 = 0x08. */
    mem_write16(m, RAM + 4, 0x0C10);
    /* (3,1): 1*16 + 3*2 = byte 22. R=31 only -> 0xFF. */
    mem_write16(m, RAM + 22, 0x001F);
    /* (0,2): byte 32. G=1 -> 1<<2 | 0 = 0x04; B=31 -> 0xFF. 1<<5 | 31<<11 = 0xF820. */
    mem_write16(m, RAM + 32, 0xF820);
    CHECK_EQ_U(texel(&h, 0, 0, 0), 0xFF000000u);
    CHECK_EQ_U(texel(&h, 0, 1, 0), 0xFFFFFFFFu);
    CHECK_EQ_U(texel(&h, 0, 2, 0), 0xFF088284u);
    CHECK_EQ_U(texel(&h, 0, 3, 1), 0xFF0000FFu);
    CHECK_EQ_U(texel(&h, 0, 0, 2), 0xFFFF0400u);
    gh_free(&h);
}

/* 5551: R 0-4, G 5-9, B 10-14, A bit 15 -> 0 or 255. */
TEST(tex_5551)
{
    struct gehelp h;
    gh_init(&h);
    struct gt_mem *m = &h.r.mem;
    tex_regs(&h.r.ge.st, GT_TFMT_5551, VRAM, 8, 3, 3);
    mem_write16(m, VRAM + 0, 0x0000); /* all zero, alpha 0 */
    mem_write16(m, VRAM + 2, 0xFFFF); /* all 255 */
    mem_write16(m, VRAM + 4, 0x7FFF); /* white, alpha 0 */
    /* R=1, G=2, B=16, A=1: 1 | 2<<5 | 16<<10 | 1<<15 = 0xC041.
     * R: 1<<3 | 0 = 0x08. G: 2<<3 | 0 = 0x10. B: 16<<3 | 4 = 0x84. */
    mem_write16(m, VRAM + 6, 0xC041);
    CHECK_EQ_U(texel(&h, 0, 0, 0), 0x00000000u);
    CHECK_EQ_U(texel(&h, 0, 1, 0), 0xFFFFFFFFu);
    CHECK_EQ_U(texel(&h, 0, 2, 0), 0x00FFFFFFu);
    CHECK_EQ_U(texel(&h, 0, 3, 0), 0xFF841008u);
    gh_free(&h);
}

/* 4444: R 0-3, G 4-7, B 8-11, A 12-15, each c*17. */
TEST(tex_4444)
{
    struct gehelp h;
    gh_init(&h);
    struct gt_mem *m = &h.r.mem;
    tex_regs(&h.r.ge.st, GT_TFMT_4444, RAM, 8, 3, 3);
    mem_write16(m, RAM + 0, 0x0000);
    mem_write16(m, RAM + 2, 0xFFFF);
    /* R=1 -> 0x11, G=2 -> 0x22, B=4 -> 0x44, A=8 -> 0x88. */
    mem_write16(m, RAM + 4, 0x8421);
    /* A=7 -> 0x77, B=0, G=15 -> 0xFF, R=0. */
    mem_write16(m, RAM + 16 + 14, 0x70F0); /* (7,1) */
    CHECK_EQ_U(texel(&h, 0, 0, 0), 0x00000000u);
    CHECK_EQ_U(texel(&h, 0, 1, 0), 0xFFFFFFFFu);
    CHECK_EQ_U(texel(&h, 0, 2, 0), 0x88442211u);
    CHECK_EQ_U(texel(&h, 0, 7, 1), 0x7700FF00u);
    gh_free(&h);
}

/* 8888: bytes R, G, B, A in memory order. */
TEST(tex_8888)
{
    struct gehelp h;
    gh_init(&h);
    struct gt_mem *m = &h.r.mem;
    tex_regs(&h.r.ge.st, GT_TFMT_8888, RAM, 4, 2, 2); /* 4x4, rows of 16 bytes */
    const uint8_t px[4] = {0x11, 0x22, 0x33, 0x44};
    struct gt_diag d = {0};
    CHECK_EQ_I(mem_write(m, RAM + 3 * 16 + 2 * 4, px, 4, &d), GT_OK); /* (2,3) */
    mem_write32(m, RAM, 0x80FF0001u);
    CHECK_EQ_U(texel(&h, 0, 2, 3), 0x44332211u);
    CHECK_EQ_U(texel(&h, 0, 0, 0), 0x80FF0001u);
    CHECK_EQ_U(texel(&h, 0, 1, 0), 0u);
    gh_free(&h);
}

/* Buffer width: the register's bits 0-10, cut to whole 16-byte units, 0 ->
 * 16 bytes (PPSSPP GetTextureBufw); rows are bufw texels apart whatever the
 * texture width. */
TEST(tex_bufw_rules)
{
    CHECK_EQ_U(tex_bufw(GT_TFMT_5650, 12), 8);      /* 12 & ~7 */
    CHECK_EQ_U(tex_bufw(GT_TFMT_5650, 0), 8);       /* 0 -> 16 bytes = 8 texels */
    CHECK_EQ_U(tex_bufw(GT_TFMT_5650, 0xFFFF), 0x7F8); /* 0x7FF & ~7 */
    CHECK_EQ_U(tex_bufw(GT_TFMT_8888, 5), 4);
    CHECK_EQ_U(tex_bufw(GT_TFMT_8888, 3), 4);       /* 0 after masking -> 4 */
    CHECK_EQ_U(tex_bufw(GT_TFMT_CLUT4, 16), 32);    /* 8 bytes: less than 16 -> 32 texels */
    CHECK_EQ_U(tex_bufw(GT_TFMT_CLUT4, 40), 32);
    CHECK_EQ_U(tex_bufw(GT_TFMT_CLUT8, 0), 16);
    CHECK_EQ_U(tex_bufw(GT_TFMT_CLUT16, 20), 16);
    CHECK_EQ_U(tex_bufw(GT_TFMT_CLUT32, 6), 4);
    CHECK_EQ_U(tex_bufw(GT_TFMT_DXT1, 5), 5);       /* DXT: no alignment */
    CHECK_EQ_U(tex_bufw(GT_TFMT_DXT1, 0), 32);
    CHECK_EQ_U(tex_bufw(GT_TFMT_DXT3, 0), 16);
    CHECK_EQ_U(tex_bufw(GT_TFMT_DXT5, 0), 16);
    CHECK_EQ_U(tex_bufw(11, 8), 0);

    struct gehelp h;
    gh_init(&h);
    struct gt_mem *m = &h.r.mem;
    /* 4x4 5650 in a 16-texel-wide buffer: rows 32 bytes apart. (1,2) is at
     * 2*32 + 1*2 = 66. With the register at 4 (= the width, 8 bytes) the
     * width is masked to 0 and becomes the 16-byte minimum, 8 texels: (1,2)
     * is at 2*16 + 2 = 34. */
    tex_regs(&h.r.ge.st, GT_TFMT_5650, RAM, 16, 2, 2);
    mem_write16(m, RAM + 66, 0xFFFF);
    mem_write16(m, RAM + 34, 0x001F);
    CHECK_EQ_U(texel_addr(&h, 0, 1, 2, NULL), RAM + 66);
    CHECK_EQ_U(texel(&h, 0, 1, 2), 0xFFFFFFFFu);
    tex_regs(&h.r.ge.st, GT_TFMT_5650, RAM, 4, 2, 2);
    CHECK_EQ_U(texel_addr(&h, 0, 1, 2, NULL), RAM + 34);
    CHECK_EQ_U(texel(&h, 0, 1, 2), 0xFF0000FFu);
    gh_free(&h);
}

/* Snapshot of the registers: address bits, sizes, mode and CLUT fields. */
TEST(tex_snapshot_fields)
{
    struct gehelp h;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    set(st, GE_TEX_FORMAT, 0xFFFFF5);               /* bits 0-3: 5 */
    set(st, GE_TEX_ADDR0, 0x12345F);                /* low 4 bits dropped */
    set(st, GE_TEX_BUFW0, 0xF90040);                /* bits 16-19 = 9 -> address bits 24-27 */
    set(st, GE_TEX_SIZE0, 0x000908);                /* 256 x 512 */
    set(st, GE_TEX_ADDR0 + 7, 0x000100);
    set(st, GE_TEX_BUFW0 + 7, 0x040000);            /* bufw 0 -> 16 texels for CLUT8 */
    set(st, GE_TEX_SIZE0 + 7, 0x000F0F);            /* 32768 x 32768 kept as given */
    set(st, GE_TEX_MODE, 0x070101);
    set(st, GE_CLUT_FORMAT, 0x15AB7E);              /* fmt 2, shift 31, mask 0xAB, offset 0x15 */
    st->clut[0] = 0x5A;
    st->clut[1023] = 0xA5;
    struct gt_tex t;
    tex_snapshot(&t, st);
    CHECK_EQ_U(t.format, 5);
    CHECK(t.swizzled);
    CHECK(t.clut_per_level);
    CHECK_EQ_U(t.max_level, 7);
    CHECK_EQ_U(t.clut_format, 2);
    CHECK_EQ_U(t.clut_shift, 31);
    CHECK_EQ_U(t.clut_mask, 0xAB);
    CHECK_EQ_U(t.clut_offset, 0x15);
    CHECK_EQ_U(t.level[0].addr, 0x09123450u);
    CHECK_EQ_U(t.level[0].bufw, 0x40);
    CHECK_EQ_U(t.level[0].w, 256);
    CHECK_EQ_U(t.level[0].h, 512);
    CHECK_EQ_U(t.level[7].addr, 0x04000100u);
    CHECK_EQ_U(t.level[7].bufw, 16);
    CHECK_EQ_U(t.level[7].w, 32768);
    CHECK_EQ_U(t.level[7].h, 32768);
    CHECK_EQ_U(t.clut[0], 0x5A);
    CHECK_EQ_U(t.clut[1023], 0xA5);
    set(st, GE_TEX_MODE, 0);
    tex_snapshot(&t, st);
    CHECK(!t.swizzled);
    CHECK(!t.clut_per_level);
    CHECK_EQ_U(t.max_level, 0);
    gh_free(&h);
}

/* CLUT4: even x in the low nibble, odd x in the high one; 5650 CLUT entries. */
TEST(tex_clut4_nibbles)
{
    struct gehelp h;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    struct gt_mem *m = &h.r.mem;
    tex_regs(st, GT_TFMT_CLUT4, RAM, 32, 3, 3);
    clut_regs(st, GT_CLUT_5650, 0, 0xFF, 0);
    clut16(st, 0, 0x001F);  /* R 31 -> 0xFF0000FF */
    clut16(st, 1, 0xF800);  /* B 31 -> 0xFFFF0000 */
    clut16(st, 2, 0x07E0);  /* G 63 -> 0xFF00FF00 */
    clut16(st, 15, 0xFFFF); /* white */
    mem_write8(m, RAM + 0, 0x21); /* x=0 -> 1, x=1 -> 2 */
    mem_write8(m, RAM + 1, 0xF0); /* x=2 -> 0, x=3 -> 15 */
    unsigned nib = 9;
    CHECK_EQ_U(texel_addr(&h, 0, 3, 0, &nib), RAM + 1);
    CHECK_EQ_U(nib, 1);
    CHECK_EQ_U(texel_addr(&h, 0, 2, 0, &nib), RAM + 1);
    CHECK_EQ_U(nib, 0);
    CHECK_EQ_U(texel(&h, 0, 0, 0), 0xFFFF0000u);
    CHECK_EQ_U(texel(&h, 0, 1, 0), 0xFF00FF00u);
    CHECK_EQ_U(texel(&h, 0, 2, 0), 0xFF0000FFu);
    CHECK_EQ_U(texel(&h, 0, 3, 0), 0xFFFFFFFFu);
    /* (5,1): row 1 starts at 32 texels * 4 bits = 16 bytes; byte 16 + 2, high nibble. */
    mem_write8(m, RAM + 18, 0x10);
    CHECK_EQ_U(texel(&h, 0, 5, 1), 0xFFFF0000u);
    CHECK_EQ_U(texel(&h, 0, 4, 1), 0xFF0000FFu);
    gh_free(&h);
}

/* CLUT8 with 8888 entries: index 254 is CLUT bytes 1016-1019. */
TEST(tex_clut8)
{
    struct gehelp h;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    struct gt_mem *m = &h.r.mem;
    tex_regs(st, GT_TFMT_CLUT8, RAM, 16, 3, 3);
    clut_regs(st, GT_CLUT_8888, 0, 0xFF, 0);
    clut32(st, 254, 0x44332211u);
    clut32(st, 3, 0x80706050u);
    mem_write8(m, RAM + 5, 0xFE);
    mem_write8(m, RAM + 16 + 7, 0x03); /* (7,1): rows of 16 bytes */
    CHECK_EQ_U(texel(&h, 0, 5, 0), 0x44332211u);
    CHECK_EQ_U(texel(&h, 0, 7, 1), 0x80706050u);
    /* Mask 0x0F: 0xFE & 0x0F = 14; entry 14 is 0. Entry 0x0E | offset 0x10 (1) -> 30. */
    clut32(st, 30, 0x12345678u);
    clut_regs(st, GT_CLUT_8888, 0, 0x0F, 1);
    CHECK_EQ_U(texel(&h, 0, 5, 0), 0x12345678u);
    gh_free(&h);
}

/* CLUT16: index = ((texel >> shift) & mask) | offset*16, 4444 and 5551 entries. */
TEST(tex_clut16_shift_mask_offset)
{
    struct gehelp h;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    struct gt_mem *m = &h.r.mem;
    tex_regs(st, GT_TFMT_CLUT16, RAM, 8, 3, 3);
    mem_write16(m, RAM + 0, 0xABCD);
    mem_write16(m, RAM + 2, 0x0005);
    mem_write16(m, RAM + 4, 0x0013);
    /* (0xABCD >> 4) & 0xF = 0xC; | 2*16 = 0x2C = 44 (bytes 88-89).
     * 4444 0x8421 -> R 0x11, G 0x22, B 0x44, A 0x88. */
    clut_regs(st, GT_CLUT_4444, 4, 0x0F, 2);
    clut16(st, 44, 0x8421);
    CHECK_EQ_U(texel(&h, 0, 0, 0), 0x88442211u);
    /* Offset 0x1F -> 0x1F0, kept whole for 16-bit entries (mask 0x1FF):
     * 5 & 0xF | 0x1F0 = 0x1F5 = 501. 5551 0x801F -> R 0xFF, A 0xFF. */
    clut_regs(st, GT_CLUT_5551, 0, 0x0F, 0x1F);
    clut16(st, 501, 0x801F);
    CHECK_EQ_U(texel(&h, 0, 1, 0), 0xFF0000FFu);
    /* The offset is ORed, not added: 0x13 | 0x10 = 0x13 (an add would give 0x23). */
    clut_regs(st, GT_CLUT_5551, 0, 0xFF, 1);
    clut16(st, 0x13, 0x7C00); /* B 31, A 0 -> 0x00FF0000 */
    clut16(st, 0x23, 0xFFFF);
    CHECK_EQ_U(texel(&h, 0, 2, 0), 0x00FF0000u);
    gh_free(&h);
}

/* CLUT32: shift picks any byte of the 32-bit texel; the offset is cut to
 * 0xFF for 8888 entries but not for 16-bit ones. */
TEST(tex_clut32_shift_mask_offset)
{
    struct gehelp h;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    struct gt_mem *m = &h.r.mem;
    tex_regs(st, GT_TFMT_CLUT32, RAM, 4, 2, 2);
    mem_write32(m, RAM + 4, 0x12345678u); /* (1,0) */
    /* 8888: (0x12345678 >> 24) & 0xFF = 0x12; offset 0x1F0 & 0xFF = 0xF0 -> 0xF2 = 242. */
    clut_regs(st, GT_CLUT_8888, 24, 0xFF, 0x1F);
    clut32(st, 242, 0xDEADBEEFu);
    CHECK_EQ_U(texel(&h, 0, 1, 0), 0xDEADBEEFu);
    /* 5650: (>> 16) & 0xFF = 0x34; offset 0x10 -> 0x100; 0x134 = 308 (bytes 616-617).
     * 0x07E0 -> G 0xFF. */
    clut_regs(st, GT_CLUT_5650, 16, 0xFF, 0x10);
    clut16(st, 308, 0x07E0);
    CHECK_EQ_U(texel(&h, 0, 1, 0), 0xFF00FF00u);
    /* Shift 31: only the top bit: 0; with texel 0x80000000 -> 1. */
    clut_regs(st, GT_CLUT_8888, 31, 0xFF, 0);
    clut32(st, 0, 0x01010101u);
    clut32(st, 1, 0x02020202u);
    CHECK_EQ_U(texel(&h, 0, 1, 0), 0x01010101u);
    mem_write32(m, RAM + 4, 0x80000000u);
    CHECK_EQ_U(texel(&h, 0, 1, 0), 0x02020202u);
    gh_free(&h);
}

/* Separate CLUT per mip level (TEX_MODE bit 8): CLUT4 level n reads entry
 * index + 16n; other formats ignore it. */
TEST(tex_clut_per_level)
{
    struct gehelp h;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    struct gt_mem *m = &h.r.mem;
    tex_regs(st, GT_TFMT_CLUT4, RAM, 32, 3, 3);
    set(st, GE_TEX_ADDR0 + 1, (RAM + 0x100) & 0xFFFFFF);
    set(st, GE_TEX_BUFW0 + 1, 32 | 8 << 16);
    set(st, GE_TEX_SIZE0 + 1, 2 | 2 << 8);
    set(st, GE_TEX_MODE, 1 << 16 | 1 << 8);
    clut_regs(st, GT_CLUT_8888, 0, 0xFF, 0);
    clut32(st, 1, 0x11111111u);
    clut32(st, 17, 0x22222222u);
    mem_write8(m, RAM, 0x01);
    mem_write8(m, RAM + 0x100, 0x01);
    CHECK_EQ_U(texel(&h, 0, 0, 0), 0x11111111u);
    CHECK_EQ_U(texel(&h, 1, 0, 0), 0x22222222u);
    set(st, GE_TEX_MODE, 1 << 16); /* shared CLUT */
    CHECK_EQ_U(texel(&h, 1, 0, 0), 0x11111111u);
    /* CLUT8 ignores the per-level bit. */
    set(st, GE_TEX_MODE, 1 << 16 | 1 << 8);
    set(st, GE_TEX_FORMAT, GT_TFMT_CLUT8);
    CHECK_EQ_U(texel(&h, 1, 0, 0), 0x11111111u);
    /* Wrap: 8888 entry 255 | level 7 -> 255 + 112 = 367, wraps to 111. */
    set(st, GE_TEX_FORMAT, GT_TFMT_CLUT4);
    clut_regs(st, GT_CLUT_8888, 0, 0xFF, 0xF);
    set(st, GE_TEX_ADDR0 + 7, (RAM + 0x200) & 0xFFFFFF);
    set(st, GE_TEX_BUFW0 + 7, 32 | 8 << 16);
    mem_write8(m, RAM + 0x200, 0x0F); /* index 0xF | 0xF0 = 255 */
    clut32(st, 111, 0x33333333u);
    CHECK_EQ_U(texel(&h, 7, 0, 0), 0x33333333u);
    gh_free(&h);
}

/* Swizzled layout: blocks of 16 bytes x 8 rows, stored as 128 contiguous
 * bytes, left to right, then the next band of 8 rows. Each texture below has
 * rows of 32 bytes, so a band is 2 blocks = 256 bytes:
 *   block (0,0) 0-127, (1,0) 128-255, (0,1) 256-383, (1,1) 384-511.
 * A texel in block (1,1) at row 8+r, byte column 16+c is at 384 + 16r + c. */
static void swizzle_case(unsigned fmt, uint32_t bufw, uint32_t x, uint32_t y, uint32_t swz, uint32_t lin,
                         unsigned nibble)
{
    struct gehelp h;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    struct gt_mem *m = &h.r.mem;
    tex_regs(st, fmt, RAM, bufw, 6, 4);
    clut_regs(st, GT_CLUT_8888, 0, 0xFF, 0);
    clut32(st, 0x5, 0x55555555u);  /* CLUT4 indices */
    clut32(st, 0x6, 0x66666666u);
    clut32(st, 0x55, 0x55555555u); /* CLUT8 indices */
    clut32(st, 0x66, 0x66666666u);
    unsigned nib = 9;
    CHECK_EQ_U(texel_addr(&h, 0, x, y, &nib), RAM + lin);
    CHECK_EQ_U(nib, nibble);
    set(st, GE_TEX_MODE, 1);
    CHECK_EQ_U(texel_addr(&h, 0, x, y, &nib), RAM + swz);
    CHECK_EQ_U(nib, nibble);
    /* Texel bytes: 0x55 at the swizzled place, 0x66 at the linear one (a
     * whole 32-bit word each, so every format sees its own value). */
    uint32_t sa = RAM + (swz & ~3u), la = RAM + (lin & ~3u);
    mem_write32(m, sa, 0x55555555u);
    mem_write32(m, la, 0x66666666u);
    uint32_t want_s, want_l;
    switch (fmt) {
    case GT_TFMT_8888: want_s = 0x55555555u, want_l = 0x66666666u; break;
    case GT_TFMT_5650: /* 0x5555: R 21 -> 0xAD, G 42 -> 0xAA, B 10 -> 0x52 */
        want_s = 0xFF52AAADu;
        /* 0x6666: R 6 -> 0x31, G 51 -> 0xCF, B 12 -> 0x63 */
        want_l = 0xFF63CF31u;
        break;
    case GT_TFMT_CLUT8: want_s = 0x55555555u, want_l = 0x66666666u; break; /* index 0x55/0x66 */
    default: want_s = 0x55555555u, want_l = 0x66666666u; break;            /* CLUT4: index 5/6 */
    }
    CHECK_EQ_U(texel(&h, 0, x, y), want_s);
    set(st, GE_TEX_MODE, 0);
    CHECK_EQ_U(texel(&h, 0, x, y), want_l);
    gh_free(&h);
}

TEST(tex_swizzle_32bit)
{
    /* 8888, bufw 8 (32 bytes). (5,9): byte column 20 -> block (1,1), row 1,
     * byte 4: 384 + 16 + 4 = 404. Linear: 9*32 + 20 = 308. */
    swizzle_case(GT_TFMT_8888, 8, 5, 9, 404, 308, 0);
    /* (3,7): block (0,0), row 7, byte 12: 112 + 12 = 124. Linear 7*32 + 12 = 236. */
    swizzle_case(GT_TFMT_8888, 8, 3, 7, 124, 236, 0);
    /* (4,0): byte 16 -> block (1,0): 128. Linear 16. */
    swizzle_case(GT_TFMT_8888, 8, 4, 0, 128, 16, 0);
}

TEST(tex_swizzle_16bit)
{
    /* 5650, bufw 16 (32 bytes). (9,8): byte 18 -> block (1,1), row 0, byte 2:
     * 384 + 2 = 386. Linear 8*32 + 18 = 274. */
    swizzle_case(GT_TFMT_5650, 16, 9, 8, 386, 274, 0);
}

TEST(tex_swizzle_8bit)
{
    /* CLUT8, bufw 32 (32 bytes). (17,10): block (1,1), row 2, byte 1:
     * 384 + 32 + 1 = 417. Linear 10*32 + 17 = 337. */
    swizzle_case(GT_TFMT_CLUT8, 32, 17, 10, 417, 337, 0);
}

TEST(tex_swizzle_4bit)
{
    /* CLUT4, bufw 64 (32 bytes). (35,8): byte 17 (high nibble) -> block
     * (1,1), row 0, byte 1: 385. Linear 8*32 + 17 = 273. The written word
     * 0x55.. / 0x66.. gives index 5 / 6 in either nibble. */
    swizzle_case(GT_TFMT_CLUT4, 64, 35, 8, 385, 273, 1);
    /* (2,9): byte 1 low nibble -> block (0,1), row 1: 256 + 16 + 1 = 273.
     * Linear 9*32 + 1 = 289. */
    swizzle_case(GT_TFMT_CLUT4, 64, 2, 9, 273, 289, 0);

    /* bufw register 16 (8 bytes) -> 32 texels = 16 bytes: one block per band
     * of 128 bytes. (5,9): byte 2 high nibble, band 1, row 1: 128 + 16 + 2 = 146.
     * Linear: 9*16 + 2 = 146 as well; (9,3): byte 4: swizzled 3*16 + 4 = 52,
     * linear 52 too: with 16-byte rows both layouts coincide. */
    struct gehelp h;
    gh_init(&h);
    tex_regs(&h.r.ge.st, GT_TFMT_CLUT4, RAM, 16, 4, 4);
    set(&h.r.ge.st, GE_TEX_MODE, 1);
    unsigned nib;
    CHECK_EQ_U(texel_addr(&h, 0, 5, 9, &nib), RAM + 146);
    CHECK_EQ_U(nib, 1);
    CHECK_EQ_U(texel_addr(&h, 0, 9, 3, &nib), RAM + 52);
    /* And with bufw 64 (32-byte rows) the 8-row band matters: (0,8) is at
     * 256 swizzled, 8*32 = 256 linear; (0,1) at 16 swizzled, 32 linear. */
    tex_regs(&h.r.ge.st, GT_TFMT_CLUT4, RAM, 64, 6, 4);
    CHECK_EQ_U(texel_addr(&h, 0, 0, 1, &nib), RAM + 16);
    set(&h.r.ge.st, GE_TEX_MODE, 0);
    CHECK_EQ_U(texel_addr(&h, 0, 0, 1, &nib), RAM + 32);
    gh_free(&h);
}

/* DXT1 block, PSP order: bytes 0-3 row indices (2 bits per texel, x=0 in the
 * low bits), 4-5 color 0, 6-7 color 1. Endpoints are c<<3 / c<<2 without
 * replication: white 0xFFFF -> (0xF8, 0xFC, 0xF8). */
TEST(tex_dxt1_four_color)
{
    struct gehelp h;
    gh_init(&h);
    struct gt_diag d = {0};
    tex_regs(&h.r.ge.st, GT_TFMT_DXT1, RAM, 8, 3, 3);
    /* Row 0: indices 0,1,2,3 -> 0 | 1<<2 | 2<<4 | 3<<6 = 0xE4.
     * Row 1: indices 3,2,1,0 -> 3 | 2<<2 | 1<<4 = 0x1B. Rows 2-3: 0.
     * c0 = 0xFFFF > c1 = 0x0000: four colors.
     * idx 2 = (2*c0 + c1)/3: R 496/3 = 165 (0xA5), G 504/3 = 168 (0xA8), B 0xA5.
     * idx 3 = (c0 + 2*c1)/3: R 248/3 = 82 (0x52), G 252/3 = 84 (0x54), B 0x52. */
    const uint8_t blk[8] = {0xE4, 0x1B, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00};
    CHECK_EQ_I(mem_write(&h.r.mem, RAM, blk, 8, &d), GT_OK);
    CHECK_EQ_U(texel(&h, 0, 0, 0), 0xFFF8FCF8u);
    CHECK_EQ_U(texel(&h, 0, 1, 0), 0xFF000000u);
    CHECK_EQ_U(texel(&h, 0, 2, 0), 0xFFA5A8A5u);
    CHECK_EQ_U(texel(&h, 0, 3, 0), 0xFF525452u);
    CHECK_EQ_U(texel(&h, 0, 0, 1), 0xFF525452u);
    CHECK_EQ_U(texel(&h, 0, 1, 1), 0xFFA5A8A5u);
    CHECK_EQ_U(texel(&h, 0, 3, 1), 0xFFF8FCF8u);
    CHECK_EQ_U(texel(&h, 0, 2, 3), 0xFFF8FCF8u);

    /* Red vs blue: c0 = 0xF800 (R 0xF8) > c1 = 0x001F (B 0xF8).
     * idx 2: R 496/3 = 165, B 248/3 = 82 -> 0xFF5200A5; idx 3: R 82, B 165. */
    const uint8_t rb[8] = {0xE4, 0, 0, 0, 0x00, 0xF8, 0x1F, 0x00};
    /* Block (1,1) of an 8-wide texture: index 1*(8/4) + 1 = 3 -> byte 24. */
    CHECK_EQ_I(mem_write(&h.r.mem, RAM + 24, rb, 8, &d), GT_OK);
    CHECK_EQ_U(texel_addr(&h, 0, 5, 4, NULL), RAM + 24);
    CHECK_EQ_U(texel(&h, 0, 4, 4), 0xFF0000F8u);
    CHECK_EQ_U(texel(&h, 0, 5, 4), 0xFFF80000u);
    CHECK_EQ_U(texel(&h, 0, 6, 4), 0xFF5200A5u);
    CHECK_EQ_U(texel(&h, 0, 7, 4), 0xFFA50052u);
    /* bufw register 0 -> 32 texels: 8 blocks a row, (5,4) -> block 9 = byte 72. */
    tex_regs(&h.r.ge.st, GT_TFMT_DXT1, RAM, 0, 3, 3);
    CHECK_EQ_U(texel_addr(&h, 0, 5, 4, NULL), RAM + 72);
    /* Swizzling does not apply to DXT. */
    set(&h.r.ge.st, GE_TEX_MODE, 1);
    CHECK_EQ_U(texel_addr(&h, 0, 5, 4, NULL), RAM + 72);
    gh_free(&h);
}

/* DXT1 with c0 <= c1: three colors, idx 2 = (c0 + c1)/2, idx 3 = transparent black. */
TEST(tex_dxt1_three_color)
{
    struct gehelp h;
    gh_init(&h);
    struct gt_diag d = {0};
    tex_regs(&h.r.ge.st, GT_TFMT_DXT1, RAM, 8, 3, 3);
    /* c0 = 0 < c1 = 0xFFFF. idx 2: R 248/2 = 124 (0x7C), G 252/2 = 126 (0x7E). */
    const uint8_t blk[8] = {0xE4, 0, 0, 0, 0x00, 0x00, 0xFF, 0xFF};
    CHECK_EQ_I(mem_write(&h.r.mem, RAM, blk, 8, &d), GT_OK);
    CHECK_EQ_U(texel(&h, 0, 0, 0), 0xFF000000u);
    CHECK_EQ_U(texel(&h, 0, 1, 0), 0xFFF8FCF8u);
    CHECK_EQ_U(texel(&h, 0, 2, 0), 0xFF7C7E7Cu);
    CHECK_EQ_U(texel(&h, 0, 3, 0), 0x00000000u);
    /* Equal colors (c0 > c1 false) are three-color too: c0 = c1 = 0xF800. */
    const uint8_t eq[8] = {0xE4, 0, 0, 0, 0x00, 0xF8, 0x00, 0xF8};
    CHECK_EQ_I(mem_write(&h.r.mem, RAM + 8, eq, 8, &d), GT_OK);
    CHECK_EQ_U(texel(&h, 0, 6, 0), 0xFF0000F8u);
    CHECK_EQ_U(texel(&h, 0, 7, 0), 0x00000000u);
    gh_free(&h);
}

/* DXT3: the DXT1 color block (alpha 0) ORed with 4-bit alphas << 28 (not
 * replicated: 0xF -> 0xF0), bytes 8-15 = four 16-bit rows. */
TEST(tex_dxt3)
{
    struct gehelp h;
    gh_init(&h);
    struct gt_diag d = {0};
    tex_regs(&h.r.ge.st, GT_TFMT_DXT3, RAM, 8, 3, 2);
    /* Colors as tex_dxt1_four_color (c0 white, c1 black, row 0 = 0,1,2,3).
     * Alpha row 0 = 0xF830: x0 0, x1 3 -> 0x30, x2 8 -> 0x80, x3 F -> 0xF0.
     * Alpha row 3 = 0x000A: x0 -> 0xA0. */
    const uint8_t blk[16] = {0xE4, 0, 0, 0, 0xFF, 0xFF, 0x00, 0x00,
                             0x30, 0xF8, 0, 0, 0, 0, 0x0A, 0x00};
    CHECK_EQ_I(mem_write(&h.r.mem, RAM, blk, 16, &d), GT_OK);
    CHECK_EQ_U(texel(&h, 0, 0, 0), 0x00F8FCF8u);
    CHECK_EQ_U(texel(&h, 0, 1, 0), 0x30000000u);
    CHECK_EQ_U(texel(&h, 0, 2, 0), 0x80A5A8A5u);
    CHECK_EQ_U(texel(&h, 0, 3, 0), 0xF0525452u);
    CHECK_EQ_U(texel(&h, 0, 0, 3), 0xA0F8FCF8u);
    /* Second block (16 bytes on): three-color colors; idx 3 is black with
     * the block's alpha (0xF -> 0xF0). */
    const uint8_t b2[16] = {0xC0, 0, 0, 0, 0x00, 0x00, 0xFF, 0xFF,
                            0x00, 0xF0, 0, 0, 0, 0, 0, 0};
    CHECK_EQ_I(mem_write(&h.r.mem, RAM + 16, b2, 16, &d), GT_OK);
    CHECK_EQ_U(texel_addr(&h, 0, 7, 0, NULL), RAM + 16);
    CHECK_EQ_U(texel(&h, 0, 7, 0), 0xF0000000u);
    CHECK_EQ_U(texel(&h, 0, 4, 0), 0x00000000u);
    gh_free(&h);
}

/* DXT5 alpha: bytes 8-11 low and 12-13 high bits of 48 bits of 3-bit indices
 * (texel (x,y) at bit 12y + 3x), byte 14 a0, byte 15 a1. Index layout used:
 *   row 0: 0, 1, 2, 7      -> 0 | 1<<3 | 2<<6 | 7<<9 = 0xE88
 *   row 1: 4, 6, 5, 0      -> 4<<12 | 6<<15 | 5<<18 = 0x174000
 *   row 2: 0, 0, 7, 0      -> 7 at bits 30-32: 0xC0000000 low, bit 0 of high
 *   row 3: 0, 0, 0, 3      -> 3 at bits 45-47: 0x6000 in the high 16 bits
 * low 32 = 0xC0174E88, high 16 = 0x6001. Colors: c0 white, all indices 0. */
static void dxt5_block(struct gehelp *h, uint32_t addr, uint8_t a0, uint8_t a1)
{
    struct gt_diag d = {0};
    const uint8_t blk[16] = {0, 0, 0, 0, 0xFF, 0xFF, 0x00, 0x00,
                             0x88, 0x4E, 0x17, 0xC0, 0x01, 0x60, a0, a1};
    CHECK_EQ_I(mem_write(&h->r.mem, addr, blk, 16, &d), GT_OK);
}

TEST(tex_dxt5)
{
    struct gehelp h;
    gh_init(&h);
    tex_regs(&h.r.ge.st, GT_TFMT_DXT5, RAM, 12, 4, 2); /* 3 blocks a row */
    /* Block 0: a0 = 200 > a1 = 100, eight alphas; n = index - 1:
     *   (a0 * ((7-n) << 8) / 7 + a1 * (n << 8) / 7 + 31) >> 8
     * idx2 n=1: 307200/7 = 43885, 25600/7 = 3657; 47542+31 = 47573 >> 8 = 185 (0xB9)
     * idx3 n=2: 256000/7 = 36571, 51200/7 = 7314; 43885+31 = 43916 >> 8 = 171 (0xAB)
     * idx4 n=3: 204800/7 = 29257, 76800/7 = 10971; 40228+31 = 40259 >> 8 = 157 (0x9D)
     * idx5 n=4: 153600/7 = 21942, 102400/7 = 14628; 36570+31 = 36601 >> 8 = 142 (0x8E)
     *           (the exact 142.86 would round to 143)
     * idx6 n=5: 102400/7 = 14628, 128000/7 = 18285; 32913+31 = 32944 >> 8 = 128 (0x80)
     * idx7 n=6: 51200/7 = 7314, 153600/7 = 21942; 29256+31 = 29287 >> 8 = 114 (0x72) */
    dxt5_block(&h, RAM, 200, 100);
    CHECK_EQ_U(texel(&h, 0, 0, 0), 0xC8F8FCF8u); /* idx0: a0 = 200 */
    CHECK_EQ_U(texel(&h, 0, 1, 0), 0x64F8FCF8u); /* idx1: a1 = 100 */
    CHECK_EQ_U(texel(&h, 0, 2, 0), 0xB9F8FCF8u);
    CHECK_EQ_U(texel(&h, 0, 3, 0), 0x72F8FCF8u);
    CHECK_EQ_U(texel(&h, 0, 0, 1), 0x9DF8FCF8u);
    CHECK_EQ_U(texel(&h, 0, 1, 1), 0x80F8FCF8u);
    CHECK_EQ_U(texel(&h, 0, 2, 1), 0x8EF8FCF8u);
    CHECK_EQ_U(texel(&h, 0, 2, 2), 0x72F8FCF8u); /* index across the 32-bit boundary */
    CHECK_EQ_U(texel(&h, 0, 3, 3), 0xABF8FCF8u); /* index in the high 16 bits */
    CHECK_EQ_U(texel(&h, 0, 1, 3), 0xC8F8FCF8u);

    /* Block 1 (byte 16): a0 = 50 <= a1 = 150, six alphas plus 0 and 255:
     *   (a0 * ((5-n) << 8) / 5 + a1 * (n << 8) / 5 + 31) >> 8
     * idx2 n=1: 51200/5 = 10240, 38400/5 = 7680; 17920+31 >> 8 = 70 (0x46)
     * idx3 n=2: 38400/5 = 7680, 76800/5 = 15360; 23040+31 >> 8 = 90 (0x5A)
     * idx4 n=3: 25600/5 = 5120, 115200/5 = 23040; 28160+31 >> 8 = 110 (0x6E)
     * idx5 n=4: 12800/5 = 2560, 153600/5 = 30720; 33280+31 >> 8 = 130 (0x82)
     * idx6 = 0, idx7 = 255. */
    dxt5_block(&h, RAM + 16, 50, 150);
    CHECK_EQ_U(texel(&h, 0, 4, 0), 0x32F8FCF8u);
    CHECK_EQ_U(texel(&h, 0, 5, 0), 0x96F8FCF8u);
    CHECK_EQ_U(texel(&h, 0, 6, 0), 0x46F8FCF8u);
    CHECK_EQ_U(texel(&h, 0, 7, 0), 0xFFF8FCF8u);
    CHECK_EQ_U(texel(&h, 0, 4, 1), 0x6EF8FCF8u);
    CHECK_EQ_U(texel(&h, 0, 5, 1), 0x00F8FCF8u);
    CHECK_EQ_U(texel(&h, 0, 6, 1), 0x82F8FCF8u);
    CHECK_EQ_U(texel(&h, 0, 7, 3), 0x5AF8FCF8u);

    /* Block 2 (byte 32): a0 = 8, a1 = 1: the +31 undoes the truncation.
     * idx2 n=1: 8*1536/7 = 12288/7 = 1755, 256/7 = 36; 1791 >> 8 would be 6,
     * (1791+31) >> 8 = 7 (exactly (6*8 + 1)/7 = 7). */
    dxt5_block(&h, RAM + 32, 8, 1);
    CHECK_EQ_U(texel(&h, 0, 10, 0), 0x07F8FCF8u);
    gh_free(&h);
}

/* Mip levels: each level has its own address (with its own high address
 * bits), buffer width and size. */
TEST(tex_mip_levels)
{
    struct gehelp h;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    struct gt_mem *m = &h.r.mem;
    tex_regs(st, GT_TFMT_8888, RAM, 8, 3, 3);
    set(st, GE_TEX_ADDR0 + 1, 0x000100);
    set(st, GE_TEX_BUFW0 + 1, 4 | 0x4 << 16); /* -> 0x04000100, bufw 4 */
    set(st, GE_TEX_SIZE0 + 1, 2 | 2 << 8);
    set(st, GE_TEX_ADDR0 + 2, 0x400200);
    set(st, GE_TEX_BUFW0 + 2, 4 | 0x8 << 16); /* -> 0x08400200 */
    set(st, GE_TEX_SIZE0 + 2, 1 | 1 << 8);
    set(st, GE_TEX_MODE, 2 << 16);
    /* Level 1 (1,2): 0x04000100 + 2*16 + 4 = 0x04000124. */
    mem_write32(m, 0x04000124u, 0xCAFEF00Du);
    /* Level 0 (1,2): 0x08400000 + 2*32 + 4 = 0x08400044. */
    mem_write32(m, RAM + 0x44, 0x01020304u);
    /* Level 2 (1,1): 0x08400200 + 16 + 4. */
    mem_write32(m, RAM + 0x214, 0x0A0B0C0Du);
    struct gt_tex t;
    tex_snapshot(&t, st);
    CHECK_EQ_U(t.max_level, 2);
    CHECK_EQ_U(t.level[1].addr, 0x04000100u);
    CHECK_EQ_U(t.level[1].w, 4);
    CHECK_EQ_U(t.level[2].h, 2);
    CHECK_EQ_U(tex_texel_address(&t, 1, 1, 2, NULL), 0x04000124u);
    CHECK_EQ_U(tex_texel(&t, m, 1, 1, 2), 0xCAFEF00Du);
    CHECK_EQ_U(tex_texel(&t, m, 0, 1, 2), 0x01020304u);
    CHECK_EQ_U(tex_texel(&t, m, 2, 1, 1), 0x0A0B0C0Du);
    /* No level 8. */
    CHECK_EQ_U(tex_texel(&t, m, 8, 1, 2), 0u);
    CHECK_EQ_U(tex_texel_address(&t, 8, 1, 2, NULL), 0u);
    gh_free(&h);
}

/* Unmapped texture memory reads as 0, whole or in part. */
TEST(tex_unmapped_reads_zero)
{
    struct gehelp h;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    struct gt_mem *m = &h.r.mem;
    /* 0x02000000 is unmapped. */
    tex_regs(st, GT_TFMT_8888, 0x02000000u, 4, 2, 2);
    CHECK_EQ_U(texel(&h, 0, 1, 1), 0u);
    tex_regs(st, GT_TFMT_5650, 0x02000000u, 8, 2, 2);
    CHECK_EQ_U(texel(&h, 0, 1, 1), 0xFF000000u); /* a zero 565 texel is opaque black */
    tex_regs(st, GT_TFMT_DXT5, 0x02000000u, 4, 2, 2);
    CHECK_EQ_U(texel(&h, 0, 1, 1), 0u);
    tex_regs(st, GT_TFMT_DXT1, 0x02000000u, 4, 2, 2);
    CHECK_EQ_U(texel(&h, 0, 1, 1), 0xFF000000u); /* c0 = c1 = 0, idx 0 */
    tex_regs(st, GT_TFMT_CLUT8, 0x02000000u, 16, 2, 2);
    clut_regs(st, GT_CLUT_8888, 0, 0xFF, 0);
    clut32(st, 0, 0x11223344u);
    CHECK_EQ_U(texel(&h, 0, 1, 1), 0x11223344u);

    /* The last texels of RAM, then past its end. */
    tex_regs(st, GT_TFMT_8888, 0x0BFFFFF0u, 4, 2, 2);
    mem_write32(m, 0x0BFFFFFCu, 0x99887766u);
    CHECK_EQ_U(texel(&h, 0, 3, 0), 0x99887766u);
    CHECK_EQ_U(texel(&h, 0, 0, 1), 0u); /* 0x0C000000 */
    tex_regs(st, GT_TFMT_DXT3, 0x0BFFFFF0u, 8, 3, 2);
    CHECK_EQ_U(texel(&h, 0, 4, 0), 0u); /* second block at 0x0C000000 */

    /* A texel straddling the end of RAM (a hand-made level, address not
     * 16-byte aligned): the two mapped bytes are read, the rest are 0. */
    struct gt_tex t;
    tex_snapshot(&t, st);
    t.format = GT_TFMT_8888;
    t.level[0].addr = 0x0BFFFFFEu;
    mem_write16(m, 0x0BFFFFFEu, 0xBEEF);
    CHECK_EQ_U(tex_texel(&t, m, 0, 0, 0), 0x0000BEEFu);
    /* The same across the end of VRAM's first view into the next one. */
    t.level[0].addr = 0x041FFFFEu;
    mem_write16(m, 0x041FFFFEu, 0x1234);
    mem_write16(m, 0x04200000u, 0x5678);
    CHECK_EQ_U(tex_texel(&t, m, 0, 0, 0), mem_read32(m, 0x041FFFFEu));
    gh_free(&h);
}

/* Formats 11-15 read 0; huge or odd register values and inputs stay
 * memory-safe (run under AddressSanitizer). */
TEST(tex_hostile_values)
{
    struct gehelp h;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    struct gt_mem *m = &h.r.mem;
    for (unsigned cmd = GE_TEX_ADDR0; cmd < GE_TEX_ADDR0 + 8; cmd++) set(st, cmd, 0xFFFFFF);
    for (unsigned cmd = GE_TEX_BUFW0; cmd < GE_TEX_BUFW0 + 8; cmd++) set(st, cmd, 0xFFFFFF);
    for (unsigned cmd = GE_TEX_SIZE0; cmd < GE_TEX_SIZE0 + 8; cmd++) set(st, cmd, 0xFFFFFF);
    set(st, GE_CLUT_FORMAT, 0xFFFFFF);
    set(st, GE_TEX_MODE, 0xFFFFFF);
    memset(st->clut, 0xAB, sizeof st->clut);
    static const uint32_t coords[] = {0, 1, 3, 4, 7, 8, 255, 0x7FFF, 0x8000, 0xFFFF, 0x12345, 0x7FFFFFFF,
                                      0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu};
    const size_t nc = sizeof coords / sizeof coords[0];
    for (unsigned fmt = 0; fmt < 16; fmt++) {
        set(st, GE_TEX_FORMAT, 0xFFFFF0 | fmt);
        for (unsigned swz = 0; swz < 2; swz++) {
            set(st, GE_TEX_MODE, 0xFFFFFE | swz);
            struct gt_tex t;
            tex_snapshot(&t, st);
            for (unsigned level = 0; level < 10; level++)
                for (size_t i = 0; i < nc; i++)
                    for (size_t j = 0; j < nc; j++) {
                        uint32_t v = tex_texel(&t, m, level, coords[i], coords[j]);
                        if (fmt > 10 || level > 7) CHECK_EQ_U(v, 0u);
                        (void)tex_texel_address(&t, level, coords[i], coords[j], NULL);
                    }
        }
    }
    /* A hand-made snapshot with values no register can hold. */
    struct gt_tex t;
    memset(&t, 0xFF, sizeof t);
    t.swizzled = true; /* bools must hold 0 or 1 */
    t.clut_per_level = true;
    t.shadow = NULL; /* a pointer must be valid or NULL */
    for (unsigned fmt = 0; fmt < 20; fmt++) {
        t.format = fmt == 16 ? 0xFFFFFFFFu : fmt;
        for (unsigned level = 0; level < 9; level++)
            for (size_t i = 0; i < nc; i++) {
                uint32_t v = tex_texel(&t, m, level, coords[i], coords[nc - 1 - i]);
                if (fmt > 10) CHECK_EQ_U(v, 0u);
            }
    }
    gh_free(&h);
}
