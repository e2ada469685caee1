/* The quirks of GE-HARDWARE.md §5 and the texture cache of §6, as modelled
 * (raster.h rast_write_x, RAST_TALL_LIMIT16; binner.h struct texcache), and
 * the immediate-mode primitive flags that override draw state.
 * The measured facts fix the structure; where they leave a constant or a
 * direction open the model's choice is named next to the test that pins
 * it, so a later measurement changes one line and one test. */

#include <string.h>

#include "dlbuild.h"
#include "probe.h"
#include "render.h"
#include "test.h"

#define QLIST 0x08100000u
#define QVERT 0x08200000u
#define QTEX 0x04100000u   /* a small texture in VRAM, away from the buffers */

/* Through mode, 16-bit texture coordinates, 8888 colors, 16-bit positions. */
#define QVTYPE (1u << 23 | 2u << 7 | 7u << 2 | 2u)

struct qv { int x, y, z, u, v; uint32_t rgba; };

/* Writes vertices in QVTYPE's layout at addr. */
static void put_verts(struct gt_render *r, uint32_t addr, const struct qv *v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        pb_put_vertex(r, addr, QVTYPE, i, v[i].x, v[i].y, v[i].z, (float)v[i].u, (float)v[i].v, v[i].rgba);
}

/* The state every test starts from (pb_state: 8888 buffer at VRAM fb,
 * scissor 0..479 x 0..271, no REGION1, untextured) with QVTYPE. */
static void q_state(struct dl *l, uint32_t fb, uint32_t stride)
{
    pb_state(l, fb, stride);
    dl_cmd(l, GE_VTYPE, QVTYPE);
}

/* Runs list l (written at QLIST) and finishes all drawing. */
static void q_run(struct gt_render *r, const struct dl *l)
{
    struct gt_diag d = {0};
    for (size_t i = 0; i < l->n; i++) mem_write32(&r->mem, QLIST + 4 * (uint32_t)i, l->w[i]);
    CHECK_EQ_I(gt_render_list(r, QLIST, &d), GT_OK);
}

/* The RGB of a pixel with alpha forced to 255: draws that do not write
 * stencil keep the buffer's alpha bits (0 here), so only RGB is drawn. */
static uint32_t px(struct gt_render *r, uint32_t fb, uint32_t stride, int x, int y)
{
    uint32_t c = mem_read32(&r->mem, GT_VRAM_BASE + fb + ((uint32_t)y * stride + (uint32_t)x) * 4);
    return c ? c | 0xFF000000u : 0;
}

/* Draws n through-mode vertices of primitive type prim with the REGION1
 * and REGION2 words given (x in bits 0-9, y in 10-19). */
static void region_draw(struct gt_render *r, uint32_t region1, uint32_t region2, unsigned prim, const struct qv *v,
                        unsigned n)
{
    struct dl l;
    dl_init(&l);
    q_state(&l, 0, 512);
    dl_cmd(&l, GE_REGION1, region1);
    dl_cmd(&l, GE_REGION2, region2);
    put_verts(r, QVERT, v, n);
    dl_cmd(&l, GE_VADDR, QVERT & 0xFFFFFF);
    dl_cmd(&l, GE_PRIM, prim << 16 | n);
    dl_finish(&l);
    q_run(r, &l);
    dl_free(&l);
}

/* REGION2 as the probe state sets it: 1023 x 1023. */
#define REGION2_FULL (1023u | 1023u << 10)

/* Draws one through-mode point at (x, y) with REGION1 = (rx, ry). */
static void region_point(struct gt_render *r, int x, int y, int rx, int ry, uint32_t rgba)
{
    struct qv v = {x, y, 0, 0, 0, rgba};
    region_draw(r, (uint32_t)rx | (uint32_t)ry << 10, REGION2_FULL, 0, &v, 1);
}

/* ge-raster-pipeline.md "REGION1 is a translation": a pixel is drawn only
 * at screen positions from REGION1 on, and written at y - y1 and at
 * x - (x1 rounded up to a multiple of 4), ^ 3 for odd x1. */
TEST(region1_translates_and_reverses)
{
    struct gt_render *r = pb_new(1, 64);
    /* Multiple of 4 (4, 2): (10, 5) is written at (6, 3). */
    region_point(r, 10, 5, 4, 2, 0xFF0000FFu);
    CHECK_EQ_U(px(r, 0, 512, 6, 3), 0xFF0000FFu);
    CHECK_EQ_U(px(r, 0, 512, 10, 5), 0u);
    CHECK_EQ_U(px(r, 0, 512, 14, 7), 0u);
    /* Even (2, 1): the shift is 4, no reversal: (10, 10) -> (6, 9). */
    region_point(r, 10, 10, 2, 1, 0xFF00FFFFu);
    CHECK_EQ_U(px(r, 0, 512, 6, 9), 0xFF00FFFFu);
    CHECK_EQ_U(px(r, 0, 512, 8, 9), 0u);
    /* Odd (3, 2): (10, 20) -> 10 - 4 = 6, ^ 3 = 5, row 18. */
    region_point(r, 10, 20, 3, 2, 0xFF00FF00u);
    CHECK_EQ_U(px(r, 0, 512, 5, 18), 0xFF00FF00u);
    CHECK_EQ_U(px(r, 0, 512, 6, 18), 0u);
    CHECK_EQ_U(px(r, 0, 512, 7, 18), 0u);
    /* Odd (1, 0): (9, 30) -> 5 ^ 3 = 6. */
    region_point(r, 9, 30, 1, 0, 0xFFFF0000u);
    CHECK_EQ_U(px(r, 0, 512, 6, 30), 0xFFFF0000u);
    /* Left of or above REGION1: not drawn. */
    region_point(r, 2, 40, 3, 0, 0xFFFFFF00u);
    region_point(r, 10, 1, 0, 2, 0xFFFFFF00u);
    /* (1, 41) with (1, 0): 1 - 4 = -3, ^ 3 = -2: the end of row 40. */
    region_point(r, 1, 41, 1, 0, 0xFF00FF80u);
    CHECK_EQ_U(px(r, 0, 512, 510, 40), 0xFF00FF80u);
    unsigned lit = 0;
    for (int y = 0; y < 60; y++)
        for (int x = 0; x < 512; x++) lit += px(r, 0, 512, x, y) != 0;
    CHECK_EQ_U(lit, 5u);
    pb_delete(r);
}

/* An empty region (x2 < x1) draws nothing (measured). */
TEST(region1_empty_region)
{
    struct gt_render *r = pb_new(2, 16);
    const struct qv v[2] = {{0, 0, 0, 0, 0, 0}, {64, 64, 0, 0, 0, 0xFF123456u}};
    region_draw(r, 20u | 0u << 10, 10u | 100u << 10, 6, v, 2);
    for (int y = 0; y < 80; y++)
        for (int x = 0; x < 512; x++) CHECK_EQ_U(px(r, 0, 512, x, y), 0u);
    pb_delete(r);
}

/* A sprite drawn with an odd REGION1 offset and starting left of it, seen
 * as a whole, against the rule applied pixel by pixel: drawn x 5..60,
 * y 3..39 (REGION1 (5, 3) cuts the sprite's x 2.., y 1..), each written at
 * linear position (y - 3) * 512 + ((x - 8) ^ 3); written x below 0 lands at
 * the end of the row above, and below the buffer's base on the first row
 * nothing is written (model choice, docs/DESIGN.md). The same whatever the
 * thread count and tile size. */
TEST(region1_sprite_threads)
{
    static unsigned char want[60 * 512];
    memset(want, 0, sizeof want);
    unsigned nwant = 0;
    for (int y = 3; y <= 39; y++)
        for (int x = 5; x <= 60; x++) {
            int lin = (y - 3) * 512 + ((x - 8) ^ 3);
            if (lin >= 0 && !want[lin]) want[lin] = 1, nwant++;
        }
    CHECK_EQ_U(nwant, 56u * 37u - 3u);
    static const unsigned threads[] = {1, 2, 4}, tiles[] = {16, 64, 256};
    for (unsigned ti = 0; ti < 3; ti++)
        for (unsigned si = 0; si < 3; si++) {
            struct gt_render *r = pb_new(threads[ti], tiles[si]);
            const struct qv v[2] = {{2, 1, 0, 0, 0, 0}, {61, 40, 0, 0, 0, 0xFF123456u}};
            region_draw(r, 5u | 3u << 10, REGION2_FULL, 6, v, 2);
            unsigned bad = 0;
            for (int i = 0; i < 60 * 512; i++) {
                uint32_t c = px(r, 0, 512, i % 512, i / 512);
                bad += c != (want[i] ? 0xFF123456u : 0u);
            }
            CHECK_MSG(bad == 0, "threads %u tile %u: %u pixels differ from the rule", threads[ti], tiles[si], bad);
            pb_delete(r);
        }
}

/* Draws the triangle (left, top), (left + w, bottom), (left, bottom)... as
 * given, flat white, and returns the rightmost lit pixel of row y. */
static int rightmost(struct gt_render *r, int y)
{
    for (int x = 479; x >= 0; x--)
        if (px(r, 0, 512, x, y)) return x;
    return -1;
}

static void draw_tri(struct gt_render *r, const struct qv v[3])
{
    struct dl l;
    dl_init(&l);
    q_state(&l, 0, 512);
    put_verts(r, QVERT, v, 3);
    dl_cmd(&l, GE_VADDR, QVERT & 0xFFFFFF);
    dl_cmd(&l, GE_PRIM, 3u << 16 | 3);
    dl_finish(&l);
    q_run(r, &l);
    dl_free(&l);
}

/* GE-HARDWARE.md §5, measured (ge-raster-pipeline.md "Very tall
 * triangles"): when the long edge has 3 dy > 2^17 subpixels (about 2730
 * pixels), the last pixel of each 4-pixel span is lit when any pixel of
 * the span is inside a right long edge. */
TEST(tall_triangle_extra_pixels)
{
    /* Long edge x = 98 from y = -2000 to y = 1000 (3000 pixels), the third
     * vertex (50, 900) to its left: the long edge is the right side (a
     * third vertex on the bottom row would end the long edge at it,
     * ge-raster-pipeline.md: a tie for the bottom takes the left one). Pixel
     * centres are 16 px + 8: pixel 97 (1560) is inside, 98 (1576) outside
     * the edge at 1568. Span 96..99 has pixels inside, so its last pixel,
     * 99, is lit too, while 98 stays unlit. */
    struct gt_render *r = pb_new(2, 32);
    struct qv tall[3] = {{98, -2000, 0, 0, 0, 0xFFFFFFFFu}, {98, 1000, 0, 0, 0, 0xFFFFFFFFu},
                         {50, 900, 0, 0, 0, 0xFFFFFFFFu}};
    draw_tri(r, tall);
    for (int y = 0; y < 272; y += 17) {
        CHECK_EQ_I(rightmost(r, y), 99);
        CHECK_EQ_U(px(r, 0, 512, 98, y), 0);
        CHECK(px(r, 0, 512, 97, y) != 0);
    }
    pb_delete(r);

    /* 2700 pixels tall (below the limit): no extra pixel. */
    r = pb_new(2, 32);
    struct qv shorter[3] = {{98, -1700, 0, 0, 0, 0xFFFFFFFFu}, {98, 1000, 0, 0, 0, 0xFFFFFFFFu},
                            {50, 900, 0, 0, 0, 0xFFFFFFFFu}};
    draw_tri(r, shorter);
    for (int y = 0; y < 272; y += 17) CHECK_EQ_I(rightmost(r, y), 97);
    pb_delete(r);
}

/* Draws a 4x4 sprite at (x, y) textured 1:1 from the 4x4 8888 texture at
 * QTEX (nearest, replace), into the buffer at fb. */
static void tex_sprite(struct dl *l, struct gt_render *r, uint32_t vaddr, int x, int y)
{
    dl_cmd(l, GE_TEXTURE_ON, 1);
    dl_cmd(l, GE_TEX_FORMAT, 3);
    dl_cmd(l, GE_TEX_ADDR0, QTEX & 0xFFFFFF);
    dl_cmd(l, GE_TEX_BUFW0, (QTEX >> 8 & 0x0F0000) | 4);
    dl_cmd(l, GE_TEX_SIZE0, 2 | 2 << 8);
    dl_cmd(l, GE_TEX_FILTER, 0);
    dl_cmd(l, GE_TEX_FUNC, 3 | 1 << 8);
    struct qv v[2] = {{x, y, 0, 0, 0, 0xFFFFFFFFu}, {x + 4, y + 4, 0, 4, 4, 0xFFFFFFFFu}};
    put_verts(r, vaddr, v, 2);
    dl_cmd(l, GE_VADDR, vaddr & 0xFFFFFF);
    dl_cmd(l, GE_PRIM, 6u << 16 | 2);
    dl_cmd(l, GE_TEXTURE_ON, 0);
}

/* GE-HARDWARE.md §6: a texture that fits the 8 KB cache stays cached until
 * TEXFLUSH, and the GE's drawing does not update the cache. */
TEST(texture_cache_until_texflush)
{
    struct gt_render *r = pb_new(2, 16);
    for (uint32_t i = 0; i < 16; i++) mem_write32(&r->mem, QTEX + 4 * i, 0xFF000000u | 0x10101u * (i + 1));
    struct dl l;
    dl_init(&l);
    q_state(&l, 0, 512);
    tex_sprite(&l, r, QVERT, 0, 0); /* fills the cache */
    /* Draw into the texture's memory: a clear-mode sprite over its 4x4
     * texels (the texture seen as a 4-wide framebuffer). */
    dl_cmd(&l, GE_FB_PTR, QTEX & 0xFFFFFF);
    dl_cmd(&l, GE_FB_WIDTH, 4);
    dl_cmd(&l, GE_CLEAR_MODE, 1 | 0x100 | 0x200);
    struct qv c[2] = {{0, 0, 0, 0, 0, 0}, {4, 4, 0, 0, 0, 0xFF00FF00u}};
    put_verts(r, QVERT + 0x100, c, 2);
    dl_cmd(&l, GE_VADDR, (QVERT + 0x100) & 0xFFFFFF);
    dl_cmd(&l, GE_PRIM, 6u << 16 | 2);
    dl_cmd(&l, GE_CLEAR_MODE, 0);
    dl_cmd(&l, GE_FB_PTR, 0);
    dl_cmd(&l, GE_FB_WIDTH, 512);
    tex_sprite(&l, r, QVERT + 0x200, 10, 0); /* still the cached texels */
    dl_cmd(&l, GE_TEX_FLUSH, 0);
    tex_sprite(&l, r, QVERT + 0x300, 20, 0); /* reloaded: the drawn texels */
    dl_finish(&l);
    q_run(r, &l);
    dl_free(&l);
    CHECK_EQ_U(mem_read32(&r->mem, QTEX) & 0xFFFFFFu, 0x00FF00u); /* the drawing did happen */
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            uint32_t orig = 0xFF000000u | 0x10101u * (uint32_t)(y * 4 + x + 1);
            CHECK_EQ_U(px(r, 0, 512, x, y), orig);
            CHECK_EQ_U(px(r, 0, 512, 10 + x, y), orig);
            CHECK_EQ_U(px(r, 0, 512, 20 + x, y), 0xFF00FF00u);
        }
    pb_delete(r);
}

/* §6: a texture larger than the cache that is also the render target is
 * read as it was before the draw: one draw of two sprites, the second
 * reading (as texture) the pixels the first one writes, sees the old ones.
 * Both sprites read the same texels, so the 8-row lazy loading of §6 gives
 * the same answer. */
TEST(self_texture_reads_before_draw)
{
    struct gt_render *r = pb_new(2, 16);
    /* A 64x64 texture (16 KB) over the framebuffer's top-left corner. */
    for (uint32_t y = 0; y < 64; y++)
        for (uint32_t x = 0; x < 64; x++)
            mem_write32(&r->mem, GT_VRAM_BASE + (y * 512 + x) * 4, 0xFF000000u | (y << 8) | (x + 1));
    struct dl l;
    dl_init(&l);
    q_state(&l, 0, 512);
    dl_cmd(&l, GE_TEXTURE_ON, 1);
    dl_cmd(&l, GE_TEX_FORMAT, 3);
    dl_cmd(&l, GE_TEX_ADDR0, 0);
    dl_cmd(&l, GE_TEX_BUFW0, 0x040000 | 512);
    dl_cmd(&l, GE_TEX_SIZE0, 6 | 6 << 8);
    dl_cmd(&l, GE_TEX_FILTER, 0);
    dl_cmd(&l, GE_TEX_FUNC, 3 | 1 << 8);
    /* Sprite 1: texels (0..15, 0..15) drawn at (0, 0) shifted by (+8, 0)
     * -> writes (8..23, 0..15) with texel (x - 8, y). Sprite 2: the same
     * texels drawn at (100, 0). */
    struct qv v[4] = {{8, 0, 0, 0, 0, 0xFFFFFFFFu}, {24, 16, 0, 16, 16, 0xFFFFFFFFu},
                      {100, 0, 0, 0, 0, 0xFFFFFFFFu}, {116, 16, 0, 16, 16, 0xFFFFFFFFu}};
    put_verts(r, QVERT, v, 4);
    dl_cmd(&l, GE_VADDR, QVERT & 0xFFFFFF);
    dl_cmd(&l, GE_PRIM, 6u << 16 | 4);
    dl_finish(&l);
    q_run(r, &l);
    dl_free(&l);
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++) {
            /* Nonzero texels (x + 1 keeps them so), read through px(). */
            uint32_t orig = 0xFF000000u | (y << 8) | (x + 1);
            CHECK_EQ_U(px(r, 0, 512, (int)x + 8, (int)y), orig);
            CHECK_EQ_U(px(r, 0, 512, (int)x + 100, (int)y), orig);
        }
    pb_delete(r);
}

/* Draws one immediate-mode (VAP) point at (5, 6) with color green and the
 * given primitive flags (VAP bits 11-23), with TEXTURE_ON set as given and a
 * 1x1 red texture bound (replace, RGBA). Returns the pixel. */
static uint32_t imm_point(uint32_t flags, unsigned texture_on)
{
    struct gt_render *r = pb_new(1, 64);
    uint32_t tex = 0x08300000u;
    mem_write32(&r->mem, tex, 0xFF0000FFu);
    struct dl l;
    dl_init(&l);
    q_state(&l, 0, 512);
    dl_cmd(&l, GE_TEXTURE_ON, texture_on);
    dl_cmd(&l, GE_TEX_FORMAT, 3);
    dl_cmd(&l, GE_TEX_ADDR0, tex & 0xFFFFFF);
    dl_cmd(&l, GE_TEX_BUFW0, (tex >> 8 & 0x0F0000) | 4);
    dl_cmd(&l, GE_TEX_SIZE0, 0);
    dl_cmd(&l, GE_TEX_FILTER, 0);
    dl_cmd(&l, GE_TEX_FUNC, 3 | 1 << 8);
    /* Through mode: positions are 1/16 pixel from 2048. */
    dl_cmd(&l, GE_VSCX, 0x8000 + 5 * 16);
    dl_cmd(&l, GE_VSCX + 1, 0x8000 + 6 * 16);
    dl_cmd(&l, GE_VSCX + 2, 0);
    dl_cmd(&l, GE_VSCX + 3, 0);
    dl_cmd(&l, GE_VSCX + 4, 0);
    dl_cmd(&l, GE_VSCX + 5, dl_float24(1.0f));
    dl_cmd(&l, GE_VSCX + 6, 0x00FF00);
    dl_cmd(&l, GE_VAP, flags << 11 | 0u << 8 | 0xFF);
    dl_finish(&l);
    q_run(r, &l);
    dl_free(&l);
    uint32_t c = px(r, 0, 512, 5, 6);
    pb_delete(r);
    return c;
}

/* PPSSPP GPUCommon::FlushImm: the texture flag (VAP bit 21) of an immediate
 * primitive, not TEXTURE_ON, decides whether it is textured. */
TEST(imm_flags_override_state)
{
    CHECK_EQ_U(imm_point(1u << 10, 0), 0xFF0000FFu); /* flag on, register off: red texel */
    CHECK_EQ_U(imm_point(0, 1), 0xFF00FF00u);        /* flag off, register on: green vertex */
    CHECK_EQ_U(imm_point(0, 0), 0xFF00FF00u);
}

/* §6: a self-texture larger than the cache is read in blocks of 8 rows,
 * each loaded the first time a primitive needs it. One draw of three
 * sprites over a 64x64 texture that is the framebuffer's top-left corner:
 *  1. reads rows 0..7 (blocks 0 and 1 with the bilinear margin) and writes
 *     texels (16..31, 32..39);
 *  2. reads rows 32..39, whose block is loaded only now, so it sees sprite
 *     1's output, and writes rows 0..7 at columns 0..15;
 *  3. reads rows 0..7 again: block 0 was loaded for sprite 1, so it sees the
 *     bytes from before the draw, not sprite 2's.
 * (Reading the texture as before the draw would fail 2; reading memory
 * live would fail 3.) */
TEST(self_texture_blocks_load_lazily)
{
    struct gt_render *r = pb_new(2, 16);
    for (uint32_t y = 0; y < 64; y++)
        for (uint32_t x = 0; x < 64; x++)
            mem_write32(&r->mem, GT_VRAM_BASE + (y * 512 + x) * 4, 0xFF000000u | (y << 8) | (x + 1));
    struct dl l;
    dl_init(&l);
    q_state(&l, 0, 512);
    dl_cmd(&l, GE_TEXTURE_ON, 1);
    dl_cmd(&l, GE_TEX_FORMAT, 3);
    dl_cmd(&l, GE_TEX_ADDR0, 0);
    dl_cmd(&l, GE_TEX_BUFW0, 0x040000 | 512);
    dl_cmd(&l, GE_TEX_SIZE0, 6 | 6 << 8);
    dl_cmd(&l, GE_TEX_FILTER, 0);
    dl_cmd(&l, GE_TEX_WRAP, 1 | 0x100); /* clamp: the rows needed stay local */
    dl_cmd(&l, GE_TEX_FUNC, 3 | 1 << 8);
    struct qv v[6] = {
        {16, 32, 0, 32, 0, 0xFFFFFFFFu},   {32, 40, 0, 48, 8, 0xFFFFFFFFu},   /* 1 */
        {0, 0, 0, 16, 32, 0xFFFFFFFFu},    {16, 8, 0, 32, 40, 0xFFFFFFFFu},   /* 2 */
        {100, 100, 0, 0, 0, 0xFFFFFFFFu},  {116, 108, 0, 16, 8, 0xFFFFFFFFu}, /* 3 */
    };
    put_verts(r, QVERT, v, 6);
    dl_cmd(&l, GE_VADDR, QVERT & 0xFFFFFF);
    dl_cmd(&l, GE_PRIM, 6u << 16 | 6);
    dl_finish(&l);
    q_run(r, &l);
    dl_free(&l);
    for (uint32_t j = 0; j < 8; j++)
        for (uint32_t i = 0; i < 16; i++) {
            uint32_t orig_1 = 0xFF000000u | (j << 8) | (32 + i + 1); /* P(32 + i, j) */
            uint32_t orig_3 = 0xFF000000u | (j << 8) | (i + 1);      /* P(i, j) */
            CHECK_EQ_U(px(r, 0, 512, 16 + (int)i, 32 + (int)j), orig_1);
            CHECK_EQ_U(px(r, 0, 512, (int)i, (int)j), orig_1);
            CHECK_EQ_U(px(r, 0, 512, 100 + (int)i, 100 + (int)j), orig_3);
        }
    pb_delete(r);
}
