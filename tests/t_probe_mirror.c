/* Probes of two rules that earlier tests only touched from one side:
 *
 * 1. GE-HARDWARE.md §6: "Reading the depth buffer through its swizzled VRAM
 *    mirrors must work (dumps do this)." Depth values are drawn into a depth
 *    buffer, and a later draw of the same display list textures from the
 *    depth buffer's bytes through every VRAM view and mirror a texture
 *    address can name (0x04000000, 0x04200000, 0x04400000, 0x04600000 and
 *    their repeats 8 MiB higher). The expected texels come from the depth
 *    values the test wrote, placed by the test's own copy of the measured
 *    depth layout and views (image-formats.md; pipeline/mem.c).
 *
 * 2. GE-HARDWARE.md §5: REGION1 translates drawing and, for odd x offsets,
 *    reverses each group of 4 pixels. docs/DESIGN.md adds the model's
 *    choices for the rest of the pixel: depth is written at the same
 *    (mirrored) position as the color, and dithering uses the drawn
 *    position. Both are pinned here with a 16-bit framebuffer.
 *
 * No expected value is read back from getile's own computations. */
#include <stdlib.h>
#include <string.h>

#include "dlbuild.h"
#include "ge_limits.h"
#include "probe.h"
#include "render.h"
#include "test.h"
#include "vdecode.h"

#define MLIST 0x08100000u
#define MVERT 0x08200000u
#define MZ 0x00088000u /* depth buffer (VRAM offset) */

/* Through mode, u16 texture coordinates, 8888 colors, s16 positions (u16 z). */
#define MVTYPE (1u << 23 | 2u << 7 | 7u << 2 | 2u)

struct mv { int x, y, z, u, v; uint32_t rgba; };

/* Writes n vertices in MVTYPE's layout at addr. */
static void put_mv(struct gt_render *r, uint32_t addr, const struct mv *v, unsigned n)
{
    struct gt_vlayout lay;
    vdec_layout(MVTYPE, &lay);
    for (unsigned i = 0; i < n; i++) {
        uint32_t b = addr + i * lay.stride;
        mem_write16(&r->mem, b + lay.off_tc, (uint16_t)v[i].u);
        mem_write16(&r->mem, b + lay.off_tc + 2, (uint16_t)v[i].v);
        mem_write32(&r->mem, b + lay.off_col, v[i].rgba);
        mem_write16(&r->mem, b + lay.off_pos, (uint16_t)(int16_t)v[i].x);
        mem_write16(&r->mem, b + lay.off_pos + 2, (uint16_t)(int16_t)v[i].y);
        mem_write16(&r->mem, b + lay.off_pos + 4, (uint16_t)v[i].z);
    }
}

/* Bytes one vertex of MVTYPE takes. */
static uint32_t mv_stride(void)
{
    struct gt_vlayout lay;
    vdec_layout(MVTYPE, &lay);
    return lay.stride;
}

/* Base state: 565 color buffer at VRAM 0 (stride 512), depth buffer at MZ
 * with stride zstride, scissor 0..479 x 0..271, no REGION1 offset, flat
 * shading, untextured, no depth test, no dither. */
static void m_state(struct dl *l, uint32_t zstride)
{
    dl_cmd(l, GE_BASE, 0x080000);
    dl_cmd(l, GE_FB_PTR, 0);
    dl_cmd(l, GE_FB_WIDTH, 512);
    dl_cmd(l, GE_FB_FORMAT, 0); /* 565 */
    dl_cmd(l, GE_Z_PTR, MZ);
    dl_cmd(l, GE_Z_WIDTH, zstride);
    dl_cmd(l, GE_SCISSOR1, 0);
    dl_cmd(l, GE_SCISSOR2, 479 | 271u << 10);
    dl_cmd(l, GE_REGION1, 0);
    dl_cmd(l, GE_REGION2, 1023 | 1023u << 10);
    dl_cmd(l, GE_VTYPE, MVTYPE);
    dl_cmd(l, GE_SHADEMODE, 0);
    dl_cmd(l, GE_TEXTURE_ON, 0);
    dl_cmd(l, GE_ZTEST_ON, 0);
    dl_cmd(l, GE_DITHER_ON, 0);
}

/* Runs list l (written at MLIST) and finishes all drawing. */
static void m_run(struct gt_render *r, struct dl *l)
{
    struct gt_diag d = {0};
    dl_finish(l);
    CHECK(l->n * 4 < MVERT - MLIST);
    for (size_t i = 0; i < l->n; i++) mem_write32(&r->mem, MLIST + 4 * (uint32_t)i, l->w[i]);
    int rc = gt_render_list(r, MLIST, &d);
    CHECK_MSG(rc == GT_OK, "gt_render_list: %d %s", rc, d.msg);
}

static uint16_t fb16(struct gt_render *r, int x, int y)
{
    return mem_read16(&r->mem, GT_VRAM_BASE + ((uint32_t)y * 512 + (uint32_t)x) * 2);
}

/* Depth drawn with this file's 565 colour buffer, read through the view
 * that unscrambles it (0x04200000). */
static uint16_t z16(struct gt_render *r, uint32_t zstride, int x, int y)
{
    return mem_read16(&r->mem, pb_depth_view(GT_VRAM_BASE + MZ, false) + ((uint32_t)y * zstride + (uint32_t)x) * 2);
}

/* ---- 1. Depth read through the VRAM views and mirrors (§6) -------------- */

#define DW 128 /* depth pattern: DW x DH pixels, depth stride DW */
#define DH 64

/* The depth finally left at (x, y): a 16-bit pattern with no repeats along
 * a row or a column, never 0 (0 is what unwritten memory reads). The list
 * draws it in two passes: every pixel with the first pattern, then the
 * OVER rectangle again with a second one, in fewer primitives than a scene
 * holds (GT_SCENE_FLUSH_PRIMS), so that those writes are still in the
 * binner's open scene when the textured sprites are placed: the sprites
 * must wait for them. */
#define OX0 8 /* OVER: x OX0..OX1-1, y OY0..OY1-1 */
#define OX1 40
#define OY0 4
#define OY1 20

static bool in_over(int x, int y)
{
    return x >= OX0 && x < OX1 && y >= OY0 && y < OY1;
}

static uint16_t depth_pass(int pass, int x, int y)
{
    uint16_t z = pass ? (uint16_t)((unsigned)x * 0x0F3Bu + (unsigned)y * 0x2C11u + 0x8765u)
                      : (uint16_t)((unsigned)x * 0x09E5u + (unsigned)y * 0x3B1Du + 0x1234u);
    return z ? z : 1;
}

static uint16_t depth_at(int x, int y)
{
    return depth_pass(in_over(x, y), x, y);
}

/* The test's copy of the measured layout (ppsspp-site image-formats.md,
 * "The depth buffer layout", at the boot translation 0x400): depth drawn
 * with a 16-bit colour buffer is stored at its linear offset XOR 0x2040;
 * view 1 (0x04200000) undoes that, view 3 (0x04600000) undoes the 32-bit
 * colour scramble (bits 5-9 rotated left by one, then XOR 0x2040), views
 * 0 and 2 show memory as it is. Address -> the VRAM byte read. */
static uint32_t model_vram_offset(uint32_t addr)
{
    uint32_t rel = (addr - GT_VRAM_BASE) & 0x007FFFFFu; /* VRAM repeats every 8 MiB */
    unsigned view = rel >> 21;
    uint32_t off = rel & 0x001FFFFFu;
    if (view == 3) {
        uint32_t f = off >> 5 & 31;
        off = (off & ~0x3E0u) | ((f << 1 | f >> 4) & 31) << 5;
    }
    return view & 1 ? off ^ 0x2040 : off;
}

/* The depth value the model says a 16-bit texel at addr holds: the depth
 * pixel stored at that VRAM byte (the pixel at linear offset byte ^
 * 0x2040), or -1 when that is outside the pattern. */
static int model_texel(uint32_t addr)
{
    uint32_t off = model_vram_offset(addr) ^ 0x2040;
    if (off < MZ || off >= MZ + DW * DH * 2 || (off & 1)) return -1;
    uint32_t i = (off - MZ) / 2;
    return depth_at((int)(i % DW), (int)(i / DW));
}

/* Draws one 1:1 sprite at screen (sx, sy), w x h (powers of two, so the
 * rectangle's texel centres are exact, DESIGN.md "Rectangles"), textured
 * from a 5650 texture at tex (a 28-bit PSP address) with buffer width DW,
 * nearest filter, clamp, REPLACE. */
static void tex_sprite(struct dl *l, struct gt_render *r, uint32_t vaddr, uint32_t tex, int sx, int sy, unsigned wl2,
                       unsigned hl2)
{
    int w = 1 << wl2, h = 1 << hl2;
    dl_cmd(l, GE_TEXTURE_ON, 1);
    dl_cmd(l, GE_TEX_MODE, 0);
    dl_cmd(l, GE_TEX_FORMAT, 0); /* 5650 */
    dl_cmd(l, GE_TEX_ADDR0, tex & 0xFFFFF0u);
    dl_cmd(l, GE_TEX_BUFW0, (tex >> 8 & 0x0F0000u) | DW);
    dl_cmd(l, GE_TEX_SIZE0, wl2 | hl2 << 8);
    dl_cmd(l, GE_TEX_FILTER, 0);
    dl_cmd(l, GE_TEX_WRAP, 1 | 0x100);
    dl_cmd(l, GE_TEX_FUNC, 3 | 1 << 8);
    dl_cmd(l, GE_TEX_FLUSH, 0);
    struct mv v[2] = {{sx, sy, 0, 0, 0, 0xFFFFFFFFu}, {sx + w, sy + h, 0, w, h, 0xFFFFFFFFu}};
    put_mv(r, vaddr, v, 2);
    dl_cmd(l, GE_VADDR, vaddr & 0xFFFFFF);
    dl_cmd(l, GE_PRIM, 6u << 16 | 2);
}

/* GE-HARDWARE.md §6: the depth buffer read through the VRAM views and
 * mirrors. One display list draws a DW x DH depth pattern (one through-mode
 * point per pixel, depth test ALWAYS with depth writes, then the OVER
 * rectangle again: see depth_at), then, for each of
 * the 8 texture bases 0x04000000 + k * 0x200000 (k = 0..7: views 0-3 and
 * their 8 MiB repeats), two 1:1 sprites textured as 5650 from the depth
 * buffer's address in that view: the whole pattern (128x64, 16 KiB, read
 * from a copy) and a 16x16 window at pattern (16, 8) (small enough for the
 * 8 KB cache). Both land in a 565 color buffer, where a 5650 texel comes
 * back bit for bit (expansion to 8 bits then truncation is the identity),
 * so every pixel must equal the depth value model_texel gives for that
 * texel's address. Run with 1 thread and with 4 threads and 16-pixel
 * tiles: the sprites must see the depth drawing before them in both. */
TEST(probe_mirror_depth_through_views)
{
    static const unsigned cfg[2][2] = {{1, 64}, {4, 16}};
    for (unsigned c = 0; c < 2; c++) {
        struct gt_render *r = pb_new(cfg[c][0], cfg[c][1]);
        struct dl l;
        dl_init(&l);
        m_state(&l, DW);

        /* The depth pattern: points in the top left corner, depth test
         * ALWAYS, depth writes on. Their color is irrelevant (the sprites
         * go elsewhere). */
        dl_cmd(&l, GE_ZTEST_ON, 1);
        dl_cmd(&l, GE_Z_TEST, 1); /* ALWAYS */
        dl_cmd(&l, GE_Z_WRITE_DISABLE, 0);
        static struct mv pts[DW * DH + (OX1 - OX0) * (OY1 - OY0)];
        unsigned n = 0;
        for (int y = 0; y < DH; y++)
            for (int x = 0; x < DW; x++) pts[n++] = (struct mv){x, y, depth_pass(0, x, y), 0, 0, 0xFF808080u};
        for (int y = OY0; y < OY1; y++)
            for (int x = OX0; x < OX1; x++) pts[n++] = (struct mv){x, y, depth_pass(1, x, y), 0, 0, 0xFF808080u};
        put_mv(r, MVERT, pts, n);
        dl_cmd(&l, GE_VADDR, MVERT & 0xFFFFFF);
        dl_cmd(&l, GE_PRIM, 0u << 16 | DW * DH);
        dl_cmd(&l, GE_VADDR, (MVERT + DW * DH * mv_stride()) & 0xFFFFFF);
        dl_cmd(&l, GE_PRIM, 0u << 16 | (OX1 - OX0) * (OY1 - OY0));
        dl_cmd(&l, GE_ZTEST_ON, 0);

        /* Sprite k (the whole pattern) goes to a 3 x 3 grid below the
         * pattern, 16 pixels apart; the windows to a column at x = 440.
         * The first sprites placed read through a mirror (0x04E00000, or
         * 0x04600000, the view games use), so the binner must see through
         * the mirror that they read what the open scene writes. */
        static const unsigned order[2][8] = {{7, 6, 5, 4, 3, 2, 1, 0}, {3, 2, 1, 0, 7, 6, 5, 4}};
        uint32_t vbase = MVERT + n * mv_stride();
        for (unsigned i = 0; i < 8; i++) {
            unsigned k = order[c][i];
            uint32_t base = GT_VRAM_BASE + k * 0x00200000u;
            int sx = 16 + 144 * (int)(k % 3), sy = 72 + 66 * (int)(k / 3);
            tex_sprite(&l, r, vbase + k * 4 * mv_stride(), base + MZ, sx, sy, 7, 6);
            tex_sprite(&l, r, vbase + (k * 4 + 2) * mv_stride(), base + MZ + (8 * DW + 16) * 2, 440, 8 + 20 * (int)k,
                       4, 4);
        }
        m_run(r, &l);
        dl_free(&l);

        /* The depth buffer holds the pattern (read through view 1). */
        for (int y = 0; y < DH; y++)
            for (int x = 0; x < DW; x++)
                CHECK_MSG(z16(r, DW, x, y) == depth_at(x, y), "depth (%d, %d): %04x, wrote %04x", x, y,
                          z16(r, DW, x, y), depth_at(x, y));

        for (unsigned k = 0; k < 8; k++) {
            uint32_t base = GT_VRAM_BASE + k * 0x00200000u;
            int sx = 16 + 144 * (int)(k % 3), sy = 72 + 66 * (int)(k / 3);
            for (int v = 0; v < DH; v++)
                for (int u = 0; u < DW; u++) {
                    int want = model_texel(base + MZ + (uint32_t)(v * DW + u) * 2);
                    CHECK(want >= 0);
                    CHECK_MSG(fb16(r, sx + u, sy + v) == want,
                              "threads %u, base %08x, texel (%d, %d): %04x, depth model says %04x", cfg[c][0],
                              (unsigned)base, u, v, fb16(r, sx + u, sy + v), (unsigned)want);
                }
            /* The sprite covers exactly its 128 x 64 pixels. */
            CHECK_EQ_U(fb16(r, sx + DW, sy), 0u);
            CHECK_EQ_U(fb16(r, sx, sy + DH), 0u);
            uint32_t win = base + MZ + (8 * DW + 16) * 2;
            for (int v = 0; v < 16; v++)
                for (int u = 0; u < 16; u++) {
                    int want = model_texel(win + (uint32_t)(v * DW + u) * 2);
                    CHECK(want >= 0);
                    CHECK_MSG(fb16(r, 440 + u, 8 + 20 * (int)k + v) == want,
                              "threads %u, window through %08x, texel (%d, %d): %04x, depth model says %04x",
                              cfg[c][0], (unsigned)base, u, v, fb16(r, 440 + u, 8 + 20 * (int)k + v), (unsigned)want);
                }
        }
        pb_delete(r);
    }
}

/* ---- 2. REGION1 with an odd x offset: depth and dither (§5) ------------- */

/* A dither matrix with 16 distinct entries and no symmetry, so a pixel's
 * result tells which entry was used. Register layout (PPSSPP GPUState.h
 * getDitherValue): row y is DITHER0 + y, entry x its 4-bit nibble x, read
 * as a signed value. */
static const int dmat[4][4] = {
    {-8, 3, -2, 7},
    {5, -5, 0, -3},
    {1, 6, -7, -1},
    {-4, 2, 4, -6},
};

/* Dither then 565 quantisation of one 8-bit channel kept to `bits`: add the
 * entry, clamp to 0..255, keep the top bits. */
static unsigned dith_chan(unsigned c, int d, unsigned bits)
{
    int v = (int)c + d;
    v = v < 0 ? 0 : v > 255 ? 255 : v;
    return (unsigned)v >> (8 - bits);
}

static uint16_t dith565(uint32_t rgba, int d)
{
    return (uint16_t)(dith_chan(rgba & 0xFF, d, 5) | dith_chan(rgba >> 8 & 0xFF, d, 6) << 5 |
                      dith_chan(rgba >> 16 & 0xFF, d, 5) << 11);
}

/* Where REGION1 (rx, ry) writes a pixel drawn at x (ge-raster-pipeline.md
 * "REGION1 is a translation": x minus rx rounded up to a multiple of 4,
 * then ^ 3 for odd rx; y minus ry). */
static int region_wx(int x, int rx)
{
    int t = x - ((rx + 3) & ~3);
    return (rx & 1) ? t ^ 3 : t;
}

#define RX 3
#define RY 2
#define RX0 4 /* drawn rectangle: x RX0..RX1-1, y RY0..RY1-1 */
#define RX1 28
#define RY0 4
#define RY1 12
#define RZS 512 /* depth stride */

/* The drawn pixel whose write lands at (wx, wy), or false. */
static bool region_source(int wx, int wy, int *x, int *y)
{
    for (int dy = RY0; dy < RY1; dy++)
        for (int dx = RX0; dx < RX1; dx++)
            if (region_wx(dx, RX) == wx && dy - RY == wy) {
                *x = dx, *y = dy;
                return true;
            }
    return false;
}

static uint16_t region_z(int x, int y)
{
    return (uint16_t)(0x4000 + x * 0x101 + y * 0x1F);
}

/* The measured REGION1 rule with the model's choices of docs/DESIGN.md
 * (REGION1 row: "depth written at the same position; dither uses the drawn
 * position"). REGION1 = (3, 2); a 565 buffer; dithering on with dmat;
 * depth test ALWAYS with writes. Drawn twice in separate renders: as one
 * point per pixel, each with its own depth (region_z), and as one sprite
 * with one depth. For every position of the area around the written
 * rectangle: the color is dith565(C, dmat[y & 3][x & 3]) of the drawn
 * (x, y) that writes there, and the depth is that pixel's depth; positions
 * nobody writes keep 0 in both buffers. The test also checks that the
 * color chosen tells the drawn-position dither from a written-position
 * dither at some pixels, so it can fail. */
TEST(probe_mirror_region1_depth_dither)
{
    const uint32_t C = 0xFF7E8284u; /* R 0x84, G 0x82, B 0x7E */
    unsigned differs = 0;
    for (int y = RY0; y < RY1; y++)
        for (int x = RX0; x < RX1; x++) {
            int wx = region_wx(x, RX), wy = y - RY;
            if (dith565(C, dmat[y & 3][x & 3]) != dith565(C, dmat[wy & 3][wx & 3])) differs++;
        }
    CHECK(differs >= 32);

    for (int sprite = 0; sprite < 2; sprite++) {
        struct gt_render *r = pb_new(sprite ? 4 : 1, 16);
        struct dl l;
        dl_init(&l);
        m_state(&l, RZS);
        dl_cmd(&l, GE_REGION1, (uint32_t)RX | (uint32_t)RY << 10);
        dl_cmd(&l, GE_ZTEST_ON, 1);
        dl_cmd(&l, GE_Z_TEST, 1); /* ALWAYS */
        dl_cmd(&l, GE_Z_WRITE_DISABLE, 0);
        dl_cmd(&l, GE_DITHER_ON, 1);
        for (unsigned row = 0; row < 4; row++) {
            uint32_t w = 0;
            for (unsigned col = 0; col < 4; col++) w |= (uint32_t)(dmat[row][col] & 0xF) << (4 * col);
            dl_cmd(&l, GE_DITHER0 + row, w);
        }
        if (sprite) {
            struct mv v[2] = {{RX0, RY0, 0x5A5A, 0, 0, C}, {RX1, RY1, 0x5A5A, 0, 0, C}};
            put_mv(r, MVERT, v, 2);
            dl_cmd(&l, GE_VADDR, MVERT & 0xFFFFFF);
            dl_cmd(&l, GE_PRIM, 6u << 16 | 2);
        } else {
            struct mv pts[(RX1 - RX0) * (RY1 - RY0)];
            unsigned n = 0;
            for (int y = RY0; y < RY1; y++)
                for (int x = RX0; x < RX1; x++) pts[n++] = (struct mv){x, y, region_z(x, y), 0, 0, C};
            put_mv(r, MVERT, pts, n);
            dl_cmd(&l, GE_VADDR, MVERT & 0xFFFFFF);
            dl_cmd(&l, GE_PRIM, 0u << 16 | n);
        }
        m_run(r, &l);
        dl_free(&l);

        unsigned written = 0;
        for (int wy = 0; wy < RY1 + RY + 4; wy++)
            for (int wx = 0; wx < RX1 + RX + 8; wx++) {
                int x, y;
                uint16_t c = fb16(r, wx, wy), z = z16(r, RZS, wx, wy);
                if (!region_source(wx, wy, &x, &y)) {
                    CHECK_MSG(c == 0 && z == 0, "%s: (%d, %d) is written by no pixel, holds color %04x depth %04x",
                              sprite ? "sprite" : "points", wx, wy, c, z);
                    continue;
                }
                written++;
                uint16_t wc = dith565(C, dmat[y & 3][x & 3]);
                uint16_t wz = sprite ? 0x5A5A : region_z(x, y);
                CHECK_MSG(c == wc, "%s: (%d, %d) drawn at (%d, %d): color %04x, want %04x (dither %d)",
                          sprite ? "sprite" : "points", wx, wy, x, y, c, wc, dmat[y & 3][x & 3]);
                CHECK_MSG(z == wz, "%s: (%d, %d) drawn at (%d, %d): depth %04x, want %04x",
                          sprite ? "sprite" : "points", wx, wy, x, y, z, wz);
            }
        CHECK_EQ_U(written, (unsigned)((RX1 - RX0) * (RY1 - RY0)));
        pb_delete(r);
    }
}
