/* Probes of GE-HARDWARE.md §5 (the tall-triangle quirk), §6 (the texture
 * cache and self-texturing), the tile rule of pipeline/raster.h, and a few
 * pixel-stage details GE-HARDWARE.md does not cover (PPSSPP's software
 * renderer, GPU/Software, read for behaviour, is the reference there).
 *
 * Every expected value is computed here by a small independent model:
 * point-in-triangle coverage with exact integers, bilinear filtering with
 * the 4-bit weights, the blender's product of §3, or it comes straight
 * from a rule of GE-HARDWARE.md; none is taken from getile's output.
 * Packed 8888 pixels are R | G<<8 | B<<16 | A<<24. */
#include <stdlib.h>
#include <string.h>

#include "dlbuild.h"
#include "ge_limits.h"
#include "probe.h"
#include "raster.h"
#include "render.h"
#include "test.h"

#define PVERT PB_VB      /* vertex data */
#define PTEX 0x00100000u /* self-texture / target (VRAM offset, 1 MiB) */

/* Vertex types, all through mode with 8888 colors and s16 positions:
 * VT_U16 with u16 texture coordinates, VT_F32 with float ones. */
#define VT_U16 (1u << 23 | 2u << 7 | 7u << 2 | 2u)
#define VT_F32 (1u << 23 | 2u << 7 | 7u << 2 | 3u)

struct pv { int x, y; float u, v; uint32_t rgba; };

/* Writes n vertices in layout vtype (VT_U16 or VT_F32) at addr, z 0. */
static void put_pv(struct gt_render *r, uint32_t addr, uint32_t vtype, const struct pv *v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) pb_put_vertex(r, addr, vtype, i, v[i].x, v[i].y, 0, v[i].u, v[i].v, v[i].rgba);
}

/* Emits a primitive of n vertices written at vaddr. */
static void pm_prim(struct dl *l, struct gt_render *r, uint32_t vaddr, uint32_t vtype, unsigned type,
                    const struct pv *v, unsigned n)
{
    put_pv(r, vaddr, vtype, v, n);
    dl_cmd(l, GE_VTYPE, vtype);
    dl_cmd(l, GE_VADDR, vaddr & 0xFFFFFF);
    dl_cmd(l, GE_PRIM, type << 16 | n);
}

static uint32_t rd32(struct gt_render *r, uint32_t vram_off, uint32_t stride, int x, int y)
{
    return mem_read32(&r->mem, GT_VRAM_BASE + vram_off + ((uint32_t)y * stride + (uint32_t)x) * 4);
}

/* ---- 1. Tall triangle, long edge on the left (§5) ------------------------ */

/* Coverage: pb_tri_cov (tests/probe.h), PPSSPP's fill rule as a symbolic
 * perturbation of the sample; the same model t_raster.c tests. */

/* Draws the flat white triangle t (pixel positions) and checks every pixel
 * of the screen against the point-in-triangle model, plus, when extra is
 * set, the first pixel of the 4-pixel span holding each row's leftmost
 * covered pixel (measured: ge-raster-pipeline.md "Very tall triangles"). */
static void check_tall_left(const int t[3][2], bool extra, unsigned threads, unsigned tile)
{
    struct gt_render *r = pb_new(threads, tile);
    struct dl l;
    dl_init(&l);
    pb_state(&l, 0, 512);
    struct pv v[3];
    int64_t X[3], Y[3];
    for (int i = 0; i < 3; i++) {
        v[i] = (struct pv){t[i][0], t[i][1], 0, 0, 0xFFFFFFFFu};
        X[i] = (int64_t)t[i][0] * 16, Y[i] = (int64_t)t[i][1] * 16;
    }
    pm_prim(&l, r, PVERT, VT_U16, 3, v, 3);
    pb_run_list(r, &l);
    dl_free(&l);
    for (int y = 0; y < 272; y++) {
        int lo = -1, hi = -1;
        for (int x = 0; x < 480; x++)
            if (pb_tri_cov(X, Y, pb_tri_sample(x), pb_tri_sample(y))) {
                if (lo < 0) lo = x;
                hi = x;
            }
        CHECK_MSG(lo > 0, "row %d: the test triangle must cover the row away from x = 0", y);
        int snapped = extra ? lo & ~3 : lo;
        for (int x = 0; x < 480; x++) {
            uint32_t got = rd32(r, 0, 512, x, y) & 0xFFFFFFu;
            bool want = (x >= lo && x <= hi) || x == snapped;
            CHECK_MSG(got == (want ? 0xFFFFFFu : 0u), "row %d pixel %d: 0x%06x, want %s (covered %d..%d, extra %d)", y, x,
                      got, want ? "lit" : "unlit", lo, hi, extra);
        }
    }
    pb_delete(r);
}

/* GE-HARDWARE.md §5: a triangle taller than about 2730 pixels lights extra
 * pixels along its long edge, one per 4-pixel span (each row's walk meets
 * the long edge in exactly one span, so one per row), on its outer side.
 * t_quirks.c covers a vertical long edge on the right; here the long edge
 * is on the LEFT and slanted (x = 100 - y / 10 on screen), so the edge
 * pixel takes every position inside its 4-pixel span over the 272 rows.
 * Expected: exactly the point-in-triangle coverage plus the first pixel of
 * the span holding each row's leftmost covered pixel (outside the long
 * edge, unless that pixel starts its span), nowhere on the right-hand
 * edges; a 2700-pixel triangle (below the limit) gets exactly the model
 * coverage. The edge never passes exactly through a sample (16 x + 8 =
 * 1599.3 - 1.6 y has no solution), so the fill rule is not what is tested. */
TEST(probe_misc_tall_triangle_left_edge)
{
    /* Top (300, -2000), bottom (0, 1000): 3000 pixels; the third vertex to
     * the right of the long edge. */
    static const int tall[3][2] = {{300, -2000}, {0, 1000}, {470, 100}};
    check_tall_left(tall, true, 1, 64);
    check_tall_left(tall, true, 2, 16); /* tiles cut the rows: the extra pixel still lands */
    /* The same orientation 2700 pixels tall, same slope of the long edge
     * (top (270, -1700)): no extra pixel. */
    static const int shorter[3][2] = {{270, -1700}, {0, 1000}, {470, 100}};
    check_tall_left(shorter, false, 2, 16);
}

/* ---- 2. Self-blur without TEXFLUSH (§6, §8) ------------------------------ */

/* The GE's bilinear filter with 4-bit weights (measured, ge-arithmetic.md
 * "Texture function arithmetic"): the four texels around (u, v) - 1/2
 * texel, the two horizontal lerps (a (16 - fu) + b fu) >> 4 first, each
 * truncated, then the vertical one, also >> 4; coordinates clamped to the
 * texture. u16 and v16 are the sample position in 1/16 texel after
 * subtracting half a texel. */
static uint32_t bilinear16(const uint32_t *tex, int w, int h, int u16, int v16)
{
    int x0 = u16 >> 4, y0 = v16 >> 4, fu = u16 & 15, fv = v16 & 15;
    int xs[2] = {x0 < w - 1 ? x0 : w - 1, x0 + 1 < w - 1 ? x0 + 1 : w - 1};
    int ys[2] = {y0 < h - 1 ? y0 : h - 1, y0 + 1 < h - 1 ? y0 + 1 : h - 1};
    int wu[2] = {16 - fu, fu}, wv[2] = {16 - fv, fv};
    uint32_t out = 0;
    for (int sh = 0; sh < 32; sh += 8) {
        uint32_t sum = 0;
        for (int j = 0; j < 2; j++) {
            uint32_t row = 0;
            for (int i = 0; i < 2; i++) row += (tex[ys[j] * w + xs[i]] >> sh & 0xFF) * (uint32_t)wu[i];
            sum += (row >> 4) * (uint32_t)wv[j];
        }
        out |= (sum >> 4) << sh;
    }
    return out;
}

/* One blur pass of the 16x16 texture: the sprite (0, 0)-(16, 16) with
 * texture coordinates (0.5, 0.25)-(16.5, 16.25), so pixel (x, y) samples
 * (x + 1, y + 0.75) texels: minus half a texel, (x + 0.5, y + 0.25), i.e.
 * fu = 8, fv = 4 from texel (x, y). (16 x 16 = 256 is a power of two, so
 * the sprite's gradients are exact, §2.) */
static void blur_model(const uint32_t *in, uint32_t *out)
{
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) out[y * 16 + x] = bilinear16(in, 16, 16, x * 16 + 8, y * 16 + 4);
}

static void blur_draw(struct dl *l, struct gt_render *r, uint32_t vaddr)
{
    struct pv v[2] = {{0, 0, 0.5f, 0.25f, 0xFFFFFFFFu}, {16, 16, 16.5f, 16.25f, 0xFFFFFFFFu}};
    pm_prim(l, r, vaddr, VT_F32, 6, v, 2);
}

/* §6: "a game that blurs a small buffer onto itself several times reads the
 * first pass's input every time". A 16x16 8888 texture (1 KB) is also the
 * render target; three bilinear passes at a half-texel offset with no
 * TEXFLUSH in between all read the texels as first loaded, so the buffer
 * holds blur(original) after each; after a TEXFLUSH the next pass reads the
 * drawn texels and leaves blur(blur(original)). Alpha is 0xFF everywhere
 * (the 8888 alpha byte is the stencil, which these draws do not write). */
TEST(probe_misc_self_blur_cached)
{
    static const unsigned thr[] = {1, 2}, tiles[] = {64, 16};
    for (unsigned c = 0; c < 2; c++) {
        struct gt_render *r = pb_new(thr[c], tiles[c]);
        uint32_t orig[256], b1[256], b2[256];
        uint32_t s = 12345;
        for (int i = 0; i < 256; i++) {
            s = s * 1103515245u + 12345u;
            orig[i] = 0xFF000000u | (s >> 8 & 0xFFFFFFu);
            mem_write32(&r->mem, GT_VRAM_BASE + PTEX + 4 * (uint32_t)i, orig[i]);
        }
        blur_model(orig, b1);
        blur_model(b1, b2);
        /* The test needs passes that differ. */
        CHECK(memcmp(b1, b2, sizeof b1) != 0);

        struct dl l;
        dl_init(&l);
        pb_state(&l, PTEX, 16);
        dl_cmd(&l, GE_TEX_FLUSH, 0);
        dl_cmd(&l, GE_TEXTURE_ON, 1);
        dl_cmd(&l, GE_TEX_FORMAT, 3);
        dl_cmd(&l, GE_TEX_ADDR0, PTEX);
        dl_cmd(&l, GE_TEX_BUFW0, 0x040000 | 16);
        dl_cmd(&l, GE_TEX_SIZE0, 4 | 4 << 8);
        dl_cmd(&l, GE_TEX_FILTER, 1 | 1 << 8);
        dl_cmd(&l, GE_TEX_WRAP, 1 | 1 << 8);
        dl_cmd(&l, GE_TEX_FUNC, 3 | 1 << 8); /* replace, RGBA */
        for (unsigned p = 0; p < 3; p++) blur_draw(&l, r, PVERT + 0x100 * p);
        pb_run_list(r, &l);
        for (int i = 0; i < 256; i++)
            CHECK_MSG(rd32(r, PTEX, 16, i % 16, i / 16) == b1[i], "cfg %u texel (%d,%d): 0x%08x, want blur(orig) 0x%08x",
                      c, i % 16, i / 16, rd32(r, PTEX, 16, i % 16, i / 16), b1[i]);
        /* TEXFLUSH: the next pass loads the drawn texels. */
        dl_init(&l);
        dl_cmd(&l, GE_TEX_FLUSH, 0);
        blur_draw(&l, r, PVERT + 0x400);
        pb_run_list(r, &l);
        dl_free(&l);
        for (int i = 0; i < 256; i++)
            CHECK_MSG(rd32(r, PTEX, 16, i % 16, i / 16) == b2[i], "cfg %u after TEXFLUSH (%d,%d): 0x%08x, want 0x%08x", c,
                      i % 16, i / 16, rd32(r, PTEX, 16, i % 16, i / 16), b2[i]);
        pb_delete(r);
    }
}

/* ---- 3. The 8 KB boundary (§6) ------------------------------------------- */

/* The texel value written at (x, y) before the draws: its own position
 * (§8: textures whose texel value is their own position). */
static uint32_t pos_texel(int x, int y) { return 0xFF000000u | (uint32_t)y << 8 | (uint32_t)(x + 1); }

/* A nearest-filtered, clamped 8888 self-texture of w x 64 texels at PTEX,
 * which is also the render target (stride w). Three sprites, each a 16x8
 * block copy (1:1, area 128 a power of two):
 *   draw 1 (one PRIM of two sprites):
 *     A reads texels (0..15, 0..7)   and writes (16..31, 40..47);
 *     B reads texels (16..31, 40..47) and writes (0..15, 16..23);
 *   draw 2: C reads texels (0..15, 16..23) and writes (0..15, 56..63);
 *   TEXFLUSH, draw 3: D reads texels (0..15, 56..63) and writes (32..47 or
 *     16..31 when w = 32, 0..7).
 * Checks what B, C and D wrote. */
static void boundary_case(int w, int wlog, bool cached)
{
    struct gt_render *r = pb_new(2, 16);
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < w; x++) mem_write32(&r->mem, GT_VRAM_BASE + PTEX + (uint32_t)(y * w + x) * 4, pos_texel(x, y));
    struct dl l;
    dl_init(&l);
    pb_state(&l, PTEX, (uint32_t)w);
    dl_cmd(&l, GE_TEX_FLUSH, 0);
    dl_cmd(&l, GE_TEXTURE_ON, 1);
    dl_cmd(&l, GE_TEX_FORMAT, 3);
    dl_cmd(&l, GE_TEX_ADDR0, PTEX);
    dl_cmd(&l, GE_TEX_BUFW0, 0x040000 | (uint32_t)w);
    dl_cmd(&l, GE_TEX_SIZE0, (uint32_t)wlog | 6 << 8);
    dl_cmd(&l, GE_TEX_FILTER, 0);
    dl_cmd(&l, GE_TEX_WRAP, 1 | 1 << 8);
    dl_cmd(&l, GE_TEX_FUNC, 3 | 1 << 8);
    struct pv d1[4] = {{16, 40, 0, 0, 0xFFFFFFFFu}, {32, 48, 16, 8, 0xFFFFFFFFu},
                       {0, 16, 16, 40, 0xFFFFFFFFu}, {16, 24, 32, 48, 0xFFFFFFFFu}};
    pm_prim(&l, r, PVERT, VT_U16, 6, d1, 4);
    struct pv d2[2] = {{0, 56, 0, 16, 0xFFFFFFFFu}, {16, 64, 16, 24, 0xFFFFFFFFu}};
    pm_prim(&l, r, PVERT + 0x100, VT_U16, 6, d2, 2);
    dl_cmd(&l, GE_TEX_FLUSH, 0);
    int dx = w == 32 ? 16 : 32;
    struct pv d3[2] = {{dx, 0, 0, 56, 0xFFFFFFFFu}, {dx + 16, 8, 16, 64, 0xFFFFFFFFu}};
    pm_prim(&l, r, PVERT + 0x200, VT_U16, 6, d3, 2);
    pb_run_list(r, &l);
    dl_free(&l);
    for (int j = 0; j < 8; j++)
        for (int i = 0; i < 16; i++) {
            /* A always copies the original (0..15, 0..7) block. */
            CHECK_EQ_U(rd32(r, PTEX, (uint32_t)w, 16 + i, 40 + j), pos_texel(i, j));
            /* B: cached, the texels as loaded at draw 1's start; larger, the
             * block holding rows 40..47 is loaded when B first needs it,
             * after A wrote it. */
            uint32_t b = cached ? pos_texel(16 + i, 40 + j) : pos_texel(i, j);
            CHECK_MSG(rd32(r, PTEX, (uint32_t)w, i, 16 + j) == b, "w %d: B at (%d,%d) 0x%08x, want 0x%08x", w, i, 16 + j,
                      rd32(r, PTEX, (uint32_t)w, i, 16 + j), b);
            /* C: cached, still the first load (no TEXFLUSH), the original
             * rows 16..23; larger, read as before draw 2, B's output. */
            uint32_t c = cached ? pos_texel(i, 16 + j) : b;
            CHECK_MSG(rd32(r, PTEX, (uint32_t)w, i, 56 + j) == c, "w %d: C at (%d,%d) 0x%08x, want 0x%08x", w, i, 56 + j,
                      rd32(r, PTEX, (uint32_t)w, i, 56 + j), c);
            /* D, after TEXFLUSH: C's output either way. */
            CHECK_MSG(rd32(r, PTEX, (uint32_t)w, dx + i, j) == c, "w %d: D at (%d,%d) 0x%08x, want 0x%08x", w, dx + i, j,
                      rd32(r, PTEX, (uint32_t)w, dx + i, j), c);
        }
    pb_delete(r);
}

/* §6: a texture that fits the 8 KB cache (here exactly 8192 bytes: 32 x 64
 * texels of 4 bytes, buffer width 32) keeps the texels of its first load
 * across draws until TEXFLUSH, even while the draws write it; a larger one
 * (64 x 64, 16 KB) that is also the render target is read as it was before
 * each draw, in 8-row blocks loaded the first time a primitive needs them. */
TEST(probe_misc_texcache_8k_boundary)
{
    boundary_case(64, 6, false);
    boundary_case(32, 5, true);
}

/* ---- 4. The tile rule, directly (raster.h) -------------------------------- */

/* A direct rast_state from registers: 8888 buffer at VRAM 0 with stride
 * fb_stride, scissor 0..479 x 0..271, through mode, Gouraud, no tests. */
static void tile_state(struct rast_state *rs, struct ge_state *gs, uint32_t fb_stride)
{
    memset(gs, 0, sizeof *gs);
    gs->reg[GE_FB_PTR] = 0;
    gs->reg[GE_FB_WIDTH] = fb_stride;
    gs->reg[GE_FB_FORMAT] = 3;
    gs->reg[GE_Z_PTR] = PB_ZOFF;
    gs->reg[GE_Z_WIDTH] = 512;
    gs->reg[GE_SCISSOR1] = 0;
    gs->reg[GE_SCISSOR2] = 479 | 271u << 10;
    gs->reg[GE_REGION2] = 1023 | 1023u << 10;
    gs->reg[GE_SHADEMODE] = 1;
    gs->reg[GE_VTYPE] = 1u << 23;
    rast_state_snapshot(rs, gs, 0x400);
}

static struct gt_vout tv(int32_t x16, int32_t y16, uint32_t rgba)
{
    struct gt_vout v;
    memset(&v, 0, sizeof v);
    v.x16 = x16, v.y16 = y16;
    for (int k = 0; k < 4; k++) v.color[k] = (uint8_t)(rgba >> (8 * k));
    v.fog = GEMATH_ONE;
    return v;
}

#define CANARY_BYTES (600u * 512u * 4u)
static uint8_t canary(uint32_t i) { return (uint8_t)(i * 37u + 11u); }

static void fill_canary(struct gt_mem *m)
{
    uint8_t *p = mem_ptr(m, GT_VRAM_BASE, CANARY_BYTES);
    CHECK(p != NULL);
    for (uint32_t i = 0; i < CANARY_BYTES; i++) p[i] = canary(i);
}

/* raster.h: a tile is a rectangle of canonical positions (pixel index mod
 * stride, pixel index div stride), and rast_draw draws exactly the pixels
 * of the primitive whose canonical position is inside the tile. For a
 * triangle, a rectangle, a line and a point (each with Gouraud or flat
 * colors), over a canary-filled buffer:
 *  - drawing with one small tile changes no byte outside that tile's
 *    pixels (checked for every byte of 600 rows of 512 pixels);
 *  - drawing every tile of a grid covering all canonical positions, one
 *    after the other, gives byte for byte the result of one whole-space
 *    tile (tstride 0), with the same number of pixels drawn (no pixel
 *    drawn twice or dropped).
 * Two buffers: stride 512, and stride 128 with primitives reaching past
 * x = 128, whose pixels land at the start of later rows (§5). The expected
 * values are the tile definition itself and the one-tile draw. */
TEST(probe_misc_tile_rule_direct)
{
    struct gt_diag d = {0};
    struct gt_mem *m = calloc(1, sizeof *m);
    CHECK(m != NULL);
    CHECK_EQ_I(mem_init(m, &d), GT_OK);
    uint8_t *fbp = mem_ptr(m, GT_VRAM_BASE, CANARY_BYTES);
    uint8_t *ref = malloc(CANARY_BYTES), *uni = malloc(CANARY_BYTES);
    CHECK(ref && uni);
    static const uint32_t strides[2] = {512, 128};
    for (unsigned si = 0; si < 2; si++) {
        uint32_t stride = strides[si];
        struct ge_state gs;
        struct rast_state st;
        tile_state(&st, &gs, stride);
        struct rast_prim prims[4];
        struct gt_vout a = tv(37 * 16 + 5, 11 * 16 + 3, 0xFF102030u), b = tv(301 * 16 + 9, 60 * 16 + 12, 0xFF8090A0u),
                       c = tv(90 * 16 + 1, 250 * 16 + 7, 0xFFF0E0D0u);
        CHECK(rast_setup_triangle(&prims[0], &st, &a, &b, &c, 2));
        struct gt_vout r0 = tv(120 * 16, 100 * 16, 0xFF000000u), r1 = tv(250 * 16 + 8, 170 * 16 + 8, 0xFF44AA11u);
        CHECK(rast_setup_rect(&prims[1], &st, &r0, &r1));
        struct gt_vout l0 = tv(5 * 16 + 3, 200 * 16 + 9, 0xFF0000FFu), l1 = tv(470 * 16 + 2, 130 * 16 + 1, 0xFFFF0000u);
        CHECK(rast_setup_line(&prims[2], &st, &l0, &l1, 1));
        struct gt_vout p0 = tv(333 * 16 + 4, 77 * 16 + 9, 0xFF5A5A5Au);
        CHECK(rast_setup_point(&prims[3], &st, &p0));
        for (unsigned k = 0; k < 4; k++) {
            const struct rast_prim *p = &prims[k];
            /* Whole space. */
            fill_canary(m);
            struct rast_stats s_ref = {0, 0};
            struct rast_tile whole = {0, 0, 0, 0, 0};
            rast_draw(p, &st, &whole, m, &s_ref);
            memcpy(ref, fbp, CANARY_BYTES);
            CHECK_MSG(s_ref.pixels > 0, "stride %u prim %u draws nothing", stride, k);
            /* Every tile of a 32x32 grid over canonical positions (x < stride,
             * y < 600), drawn in turn into one buffer. */
            fill_canary(m);
            uint64_t sum = 0;
            for (int32_t ty = 0; ty < 600; ty += 32)
                for (int32_t tx = 0; tx < (int32_t)stride; tx += 32) {
                    struct rast_tile t = {tx, ty, tx + 32, ty + 32, stride};
                    struct rast_stats s = {0, 0};
                    rast_draw(p, &st, &t, m, &s);
                    sum += s.pixels;
                }
            CHECK_MSG(sum == s_ref.pixels, "stride %u prim %u: tiles drew %llu pixels, one tile %llu", stride, k,
                      (unsigned long long)sum, (unsigned long long)s_ref.pixels);
            memcpy(uni, fbp, CANARY_BYTES);
            for (uint32_t i = 0; i < CANARY_BYTES; i++)
                CHECK_MSG(uni[i] == ref[i], "stride %u prim %u: byte %u (pixel %u) 0x%02x, one tile 0x%02x", stride, k, i,
                          i / 4, uni[i], ref[i]);
            /* Single tiles: nothing outside them changes. Tiles picked to
             * cut each primitive (and, for stride 128, rows reached only
             * past the stride). */
            static const int32_t tl[][2] = {{32, 96}, {96, 32}, {0, 192}, {64, 128}, {96, 224}, {0, 64}};
            for (unsigned ti = 0; ti < sizeof tl / sizeof tl[0]; ti++) {
                int32_t tx = tl[ti][0] % (int32_t)stride, ty = tl[ti][1];
                struct rast_tile t = {tx, ty, tx + 32, ty + 16, stride};
                fill_canary(m);
                struct rast_stats s = {0, 0};
                rast_draw(p, &st, &t, m, &s);
                for (uint32_t i = 0; i < CANARY_BYTES; i++) {
                    uint32_t pix = i / 4, cx = pix % stride, cy = pix / stride;
                    bool inside = cx >= (uint32_t)t.cx0 && cx < (uint32_t)t.cx1 && cy >= (uint32_t)t.cy0 &&
                                  cy < (uint32_t)t.cy1;
                    if (!inside)
                        CHECK_MSG(fbp[i] == canary(i), "stride %u prim %u tile (%d,%d): byte of canonical (%u,%u) changed",
                                  stride, k, t.cx0, t.cy0, cx, cy);
                    else
                        /* Inside, the tile draws what the one-tile draw does. */
                        CHECK_MSG(fbp[i] == ref[i], "stride %u prim %u tile (%d,%d): canonical (%u,%u) differs", stride, k,
                                  t.cx0, t.cy0, cx, cy);
                }
            }
        }
    }
    free(ref);
    free(uni);
    mem_free(m);
    free(m);
}

/* ---- 5. Antialiased lines ------------------------------------------------- */

/* GE-HARDWARE.md §3: the blender's product ((2x + 1)(2f + 1)) >> 10. */
static unsigned bmul(unsigned x, unsigned f) { return ((2 * x + 1) * (2 * f + 1)) >> 10; }

/* Draws a horizontal through-mode line from (10, y) to (40, y) in color c
 * with ANTIALIAS_ON = aa, blending source alpha / inverse source alpha over
 * a buffer filled with dst. Returns the renderer. */
static struct gt_render *aa_line(unsigned aa, uint32_t c, uint32_t dst, int y)
{
    struct gt_render *r = pb_new(1, 64);
    for (int x = 0; x < 64; x++) mem_write32(&r->mem, GT_VRAM_BASE + ((uint32_t)y * 512 + (uint32_t)x) * 4, dst);
    struct dl l;
    dl_init(&l);
    pb_state(&l, 0, 512);
    dl_cmd(&l, GE_ANTIALIAS_ON, aa);
    dl_cmd(&l, GE_BLEND_ON, 1);
    dl_cmd(&l, GE_BLEND_MODE, PX_BF_SRC_A | PX_BF_INV_SRC_A << 4);
    struct pv v[2] = {{10, y, 0, 0, c}, {40, y, 0, 0, c}};
    pm_prim(&l, r, PVERT, VT_U16, 1, v, 2);
    pb_run_list(r, &l);
    dl_free(&l);
    return r;
}

/* Measured (ge-raster-pipeline.md "Antialiased lines"; t_raster.c checks
 * PSP-measured pixels): with the antialias flag each pixel's alpha is 128
 * minus the pixel centre's offset from the line in 1/256 pixel, whatever
 * the vertices say, before texturing and blending. This horizontal line
 * runs along the top corners of its row's diamonds (lit: the top corner
 * counts), half a pixel from every centre: alpha 128 - 128 = 0. So an
 * opaque line blended SRC_ALPHA / INV_SRC_ALPHA over dst gives per channel
 * m(s, 0) + m(d, 255) = d with the §3 product m; without the flag,
 * m(s, 0xFF) + m(d, 0) = s. Pixels 10..39 of the row are drawn (the end
 * vertex's pixel excluded); the alpha byte (stencil) is kept. */
TEST(probe_misc_aa_line_alpha)
{
    const uint32_t c = 0xFF3264C8u, dst = 0x00F01E0Au; /* src (200, 100, 50), dst (10, 30, 240), stencil 0 */
    uint32_t want_aa = 0, want_plain = 0;
    for (int k = 0; k < 3; k++) {
        unsigned s = c >> (8 * k) & 0xFF, d = dst >> (8 * k) & 0xFF;
        unsigned o = bmul(s, 0) + bmul(d, 0xFF);
        want_aa |= (o > 255 ? 255 : o) << (8 * k);
        o = bmul(s, 0xFF) + bmul(d, 0);
        want_plain |= (o > 255 ? 255 : o) << (8 * k);
    }
    CHECK_EQ_U(want_plain, c & 0xFFFFFFu); /* the model's sanity */
    struct gt_render *r = aa_line(1, c, dst, 20);
    for (int x = 0; x < 64; x++) {
        uint32_t got = rd32(r, 0, 512, x, 20);
        uint32_t want = x >= 10 && x < 40 ? want_aa : dst;
        CHECK_MSG(got == want, "aa pixel %d: 0x%08x, want 0x%08x", x, got, want);
    }
    pb_delete(r);
    r = aa_line(0, c, dst, 20);
    for (int x = 0; x < 64; x++) {
        uint32_t got = rd32(r, 0, 512, x, 20);
        uint32_t want = x >= 10 && x < 40 ? want_plain : dst;
        CHECK_MSG(got == want, "plain pixel %d: 0x%08x, want 0x%08x", x, got, want);
    }
    pb_delete(r);
    /* A half-transparent vertex alpha (0x40) is replaced too: same result. */
    r = aa_line(1, (c & 0xFFFFFFu) | 0x40000000u, dst, 20);
    for (int x = 10; x < 40; x++) CHECK_EQ_U(rd32(r, 0, 512, x, 20), want_aa);
    pb_delete(r);
}

/* ---- 6. Smaller probes ---------------------------------------------------- */

/* Flat-shaded lines take the color of a line's second vertex, the provoking
 * one (PPSSPP DrawLine uses v1's color when it does not interpolate;
 * assemble.c hands lines over with provoking vertex 1, and for a line strip
 * each segment's second vertex). Lines (prim 1) and a line strip (prim 2),
 * SHADEMODE 0, vertices of different colors: every pixel of a segment has
 * its end vertex's color. */
TEST(probe_misc_flat_line_provoking)
{
    struct gt_render *r = pb_new(1, 64);
    struct dl l;
    dl_init(&l);
    pb_state(&l, 0, 512);
    dl_cmd(&l, GE_SHADEMODE, 0);
    struct pv ln[2] = {{10, 5, 0, 0, 0xFF0000FFu}, {30, 5, 0, 0, 0xFF00FF00u}};
    pm_prim(&l, r, PVERT, VT_U16, 1, ln, 2);
    /* Strip: (10, 20) -> (30, 20) -> (30, 40) -> (10, 40). */
    struct pv st[4] = {{10, 20, 0, 0, 0xFF111111u}, {30, 20, 0, 0, 0xFF2200EEu},
                       {30, 40, 0, 0, 0xFF33CC00u}, {10, 40, 0, 0, 0xFF0055AAu}};
    pm_prim(&l, r, PVERT + 0x100, VT_U16, 2, st, 4);
    pb_run_list(r, &l);
    dl_free(&l);
    for (int x = 10; x < 30; x++) CHECK_EQ_U(rd32(r, 0, 512, x, 5) & 0xFFFFFFu, 0x00FF00u);
    /* Segment 1: x 10..29 on row 20. */
    for (int x = 10; x < 30; x++) CHECK_EQ_U(rd32(r, 0, 512, x, 20) & 0xFFFFFFu, 0x2200EEu);
    /* Segment 2: rows 20..39 at x 30 (row 20 overwrites nothing of segment
     * 1, which ends at x 29). */
    for (int y = 20; y < 40; y++) CHECK_EQ_U(rd32(r, 0, 512, 30, y) & 0xFFFFFFu, 0x33CC00u);
    /* Segment 3: backwards from x 30: starts one unit back, x 29..10 on
     * row 40 (PPSSPP DrawLine). */
    for (int x = 10; x < 30; x++) CHECK_EQ_U(rd32(r, 0, 512, x, 40) & 0xFFFFFFu, 0x0055AAu);
    pb_delete(r);
}

/* 16-bit buffer helpers: a point of color c at (x, y) over a 16-bit buffer
 * of format fmt (1 5551, 2 4444) at VRAM 0, stride 512, with extra commands
 * from a callback. */
static uint16_t rd16(struct gt_render *r, int x, int y)
{
    return mem_read16(&r->mem, GT_VRAM_BASE + ((uint32_t)y * 512 + (uint32_t)x) * 2);
}
static void wr16(struct gt_render *r, int x, int y, uint16_t v)
{
    mem_write16(&r->mem, GT_VRAM_BASE + ((uint32_t)y * 512 + (uint32_t)x) * 2, v);
}

/* PPSSPP DrawPixel's stencil test (GE-HARDWARE.md is silent): the
 * stencil value of a 16-bit pixel is its alpha expanded to 8 bits (4444:
 * a * 17; 5551: 0 or 255) and the test passes when ref OP stencil, for
 * NEVER, ALWAYS, EQUAL, NOTEQUAL, LESS, LEQUAL, GREATER, GEQUAL (0..7),
 * with mask 0xFF. Points whose test fails leave the pixel alone; stencil
 * ops are KEEP, so a passing point changes only the color bits. */
TEST(probe_misc_stencil_16bit)
{
    struct fmtcase { unsigned fmt; uint16_t pix; unsigned stencil; uint16_t color_bits; };
    /* 4444 with alpha nibble 8 (stencil 0x88); 5551 with and without the
     * alpha bit. */
    static const struct fmtcase fc[] = {
        {2, 0x8123, 0x88, 0x0FFF}, {1, 0x8000 | 0x1234, 0xFF, 0x7FFF}, {1, 0x1234, 0x00, 0x7FFF}};
    static const int refs[] = {0x00, 0x87, 0x88, 0x89, 0xFE, 0xFF};
    for (unsigned f = 0; f < 3; f++) {
        struct gt_render *r = pb_new(1, 64);
        struct dl l;
        dl_init(&l);
        pb_state(&l, 0, 512);
        dl_cmd(&l, GE_FB_FORMAT, fc[f].fmt);
        dl_cmd(&l, GE_STENCILTEST_ON, 1);
        dl_cmd(&l, GE_STENCIL_OP, 0);
        unsigned n = 0;
        for (unsigned func = 0; func < 8; func++)
            for (unsigned ri = 0; ri < 6; ri++, n++) {
                wr16(r, (int)n, 3, fc[f].pix);
                dl_cmd(&l, GE_STENCIL_TEST, func | (uint32_t)refs[ri] << 8 | 0xFFu << 16);
                struct pv p = {(int)n, 3, 0, 0, 0xFFFFFFFFu};
                pm_prim(&l, r, PVERT + 0x20 * n, VT_U16, 0, &p, 1);
            }
        pb_run_list(r, &l);
        dl_free(&l);
        n = 0;
        for (unsigned func = 0; func < 8; func++)
            for (unsigned ri = 0; ri < 6; ri++, n++) {
                int ref = refs[ri], s = (int)fc[f].stencil;
                bool pass = func == 0 ? false : func == 1 ? true : func == 2 ? ref == s : func == 3 ? ref != s
                          : func == 4 ? ref < s : func == 5 ? ref <= s : func == 6 ? ref > s : ref >= s;
                uint16_t want = pass ? (uint16_t)(fc[f].pix | fc[f].color_bits) : fc[f].pix;
                CHECK_MSG(rd16(r, (int)n, 3) == want, "fmt %u func %u ref 0x%02x stencil 0x%02x: 0x%04x, want 0x%04x",
                          fc[f].fmt, func, ref, s, rd16(r, (int)n, 3), want);
            }
        pb_delete(r);
    }
}

/* Destination alpha in blending from 16-bit buffers (PPSSPP GetPixelColor:
 * the stored alpha expanded by bit replication, 5551 to 0 or 255, 4444 to
 * a * 17): a point of color s blended DST_ALPHA / INV_DST_ALPHA over d
 * gives per channel m(s, da) + m(d, 255 - da) (§3 product), then stored
 * by truncation to the format's bits (5 or 4) with the alpha bits kept.
 * Colors are chosen exactly representable so d reads back as written. */
TEST(probe_misc_dst_alpha_16bit)
{
    struct dcase { unsigned fmt; uint16_t pix; };
    /* 5551: alpha set / clear, color (R 3, G 20, B 28); 4444: alpha 0x8,
     * 0x3 and 0xF, color (R 2, G 9, B 14). */
    static const struct dcase dc[] = {{1, 0x8000 | 3 | 20 << 5 | 28 << 10}, {1, 3 | 20 << 5 | 28 << 10},
                                      {2, 0x8000 | 2 | 9 << 4 | 14 << 8}, {2, 0x3000 | 2 | 9 << 4 | 14 << 8},
                                      {2, 0xF000 | 2 | 9 << 4 | 14 << 8}};
    const uint8_t src[3] = {200, 90, 17};
    for (unsigned i = 0; i < 5; i++) {
        struct gt_render *r = pb_new(1, 64);
        wr16(r, 7, 9, dc[i].pix);
        struct dl l;
        dl_init(&l);
        pb_state(&l, 0, 512);
        dl_cmd(&l, GE_FB_FORMAT, dc[i].fmt);
        dl_cmd(&l, GE_BLEND_ON, 1);
        dl_cmd(&l, GE_BLEND_MODE, PX_BF_DST_A | PX_BF_INV_DST_A << 4);
        struct pv p = {7, 9, 0, 0, 0xFF000000u | (uint32_t)src[2] << 16 | (uint32_t)src[1] << 8 | src[0]};
        pm_prim(&l, r, PVERT, VT_U16, 0, &p, 1);
        pb_run_list(r, &l);
        dl_free(&l);
        uint16_t pix = dc[i].pix, want;
        if (dc[i].fmt == 1) {
            unsigned da = pix & 0x8000 ? 255 : 0;
            want = pix & 0x8000;
            for (int k = 0; k < 3; k++) {
                unsigned c5 = pix >> (5 * k) & 31, d = c5 << 3 | c5 >> 2;
                unsigned o = bmul(src[k], da) + bmul(d, 255 - da);
                want |= (uint16_t)((o > 255 ? 255 : o) >> 3 << (5 * k));
            }
        } else {
            unsigned da = (pix >> 12) * 17u;
            want = pix & 0xF000;
            for (int k = 0; k < 3; k++) {
                unsigned c4 = pix >> (4 * k) & 15, d = c4 * 17u;
                unsigned o = bmul(src[k], da) + bmul(d, 255 - da);
                want |= (uint16_t)((o > 255 ? 255 : o) >> 4 << (4 * k));
            }
        }
        CHECK_MSG(rd16(r, 7, 9) == want, "case %u: 0x%04x, want 0x%04x", i, rd16(r, 7, 9), want);
        pb_delete(r);
    }
}
