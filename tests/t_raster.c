/* The rasterizer (pipeline/setup.c, pipeline/raster.c) and the tiled
 * binner (binning/) driven end to end: display lists built with struct dl
 * run through gt_render_list on a real render context, then VRAM is read
 * back (GE-HARDWARE.md §8, "design the readout first": points as
 * single-pixel samples, depth read back exactly, textures whose texels hold
 * their own position, additive blending as a per-pixel hit counter).
 *
 * Expected values never come from the code under test. They come from
 * GE-HARDWARE.md (§2, §5), PPSSPP's software renderer as read in
 * GPU/Software/Rasterizer.cpp (DrawRectangle's pixel range and texture
 * orientation, IsRightSideOrFlatBottomLine's fill rule, TriangleEdge
 * sampling at 16 px + 7, the provoking vertex) and from exact integer
 * models written here in a different form from raster.c: coverage as a
 * symbolically perturbed point-in-triangle test, colours as exact rational
 * barycentric interpolation.
 *
 * Positions are in 1/16 pixel ("X16") throughout the models, as the GE's
 * screen coordinates are. Packed 8888 pixels are R | G<<8 | B<<16 | A<<24. */
#include <stdlib.h>
#include <string.h>

#include "dlbuild.h"
#include "ge_limits.h"
#include "probe.h"
#include "render.h"
#include "test.h"

#define LIST 0x08100000u
#define VB 0x08200000u
#define TEXADDR 0x08300000u
#define VRAM 0x04000000u
#define ZOFF PB_ZOFF           /* Z_PTR used by the standard state */
#define ZBUF (VRAM + ZOFF)

/* ---- Building and running lists ----------------------------------------- */

/* A vertex: position in 1/16 pixel, depth, 8888 colour, u16 texels. */
struct vtx {
    int32_t x, y;
    uint16_t z;
    uint32_t c;
    uint16_t u, v;
};

/* Vertex formats used here: colour is always 8888; VF_TEX adds u16
 * texture coordinates; VF_FLOAT uses float positions (else s16). */
enum { VF_TEX = 1, VF_FLOAT = 2 };

/* A render context and the list being built for it. */
struct rt {
    struct gt_render *r;
    struct dl l;
    uint32_t vnext;
};

/* The standard state: pb_state (8888 buffer at VRAM 0, stride 512, depth
 * at ZOFF, scissor 0..479 x 0..271, Gouraud) and depth range 0..65535. */
static void rt_std_state(struct dl *l)
{
    pb_state(l, 0, 512);
    dl_cmd(l, GE_MIN_Z, 0);
    dl_cmd(l, GE_MAX_Z, 0xFFFF);
}

static void rt_init(struct rt *t)
{
    struct gt_diag d = {0};
    t->r = calloc(1, sizeof *t->r);
    CHECK(t->r != NULL);
    CHECK_EQ_I(gt_render_init(t->r, &d), GT_OK);
    dl_init(&t->l);
    t->vnext = VB;
    rt_std_state(&t->l);
}

static void rt_free(struct rt *t)
{
    dl_free(&t->l);
    gt_render_free(t->r);
    free(t->r);
}

/* Runs the list built so far (after FINISH/END), then starts an empty one;
 * registers carry over to the next list as on the GE. */
static void rt_run(struct rt *t)
{
    struct gt_diag d = {0};
    dl_finish(&t->l);
    CHECK(t->l.n * 4 < VB - LIST);
    for (size_t i = 0; i < t->l.n; i++) mem_write32(&t->r->mem, LIST + 4 * (uint32_t)i, t->l.w[i]);
    int rc = gt_render_list(t->r, LIST, &d);
    CHECK_MSG(rc == GT_OK, "gt_render_list: %d %s", rc, d.msg);
    t->l.n = 0;
}

static void cmd(struct rt *t, unsigned c, uint32_t data) { dl_cmd(&t->l, c, data); }

/* Writes n vertices in format vf at the next free vertex address and emits
 * VTYPE, BASE, VADDR and PRIM for them. */
static void prim(struct rt *t, unsigned type, unsigned vf, const struct vtx *v, unsigned n)
{
    bool tex = vf & VF_TEX, flt = vf & VF_FLOAT;
    /* Layout (texcoord, colour, position; each aligned to its own size,
     * the vertex to its largest): */
    uint32_t off_c = tex ? 4 : 0, off_p = off_c + 4;
    uint32_t stride = flt ? off_p + 12 : ((off_p + 6 + 3) & ~3u);
    uint32_t a = t->vnext;
    for (unsigned i = 0; i < n; i++, a += stride) {
        if (tex) {
            mem_write16(&t->r->mem, a, v[i].u);
            mem_write16(&t->r->mem, a + 2, v[i].v);
        }
        mem_write32(&t->r->mem, a + off_c, v[i].c);
        if (flt) {
            /* x / 16 is exact in a float for |x| < 2^24. */
            mem_write32(&t->r->mem, a + off_p, pb_f32bits((float)v[i].x / 16.0f));
            mem_write32(&t->r->mem, a + off_p + 4, pb_f32bits((float)v[i].y / 16.0f));
            mem_write32(&t->r->mem, a + off_p + 8, pb_f32bits((float)v[i].z));
        } else {
            CHECK(v[i].x % 16 == 0 && v[i].y % 16 == 0);
            mem_write16(&t->r->mem, a + off_p, (uint16_t)(int16_t)(v[i].x / 16));
            mem_write16(&t->r->mem, a + off_p + 2, (uint16_t)(int16_t)(v[i].y / 16));
            mem_write16(&t->r->mem, a + off_p + 4, v[i].z);
        }
    }
    uint32_t vtype = (tex ? 2u : 0u) | 7u << 2 | (flt ? 3u : 2u) << 7 | 1u << 23;
    cmd(t, GE_VTYPE, vtype);
    cmd(t, GE_BASE, (t->vnext >> 8) & 0x0F0000);
    cmd(t, GE_VADDR, t->vnext & 0xFFFFFF);
    cmd(t, GE_PRIM, type << 16 | n);
    cmd(t, GE_BASE, 0x080000);
    t->vnext = (a + 15) & ~15u;
    CHECK(t->vnext < TEXADDR);
}

enum { P_POINTS = 0, P_LINES = 1, P_TRIS = 3, P_STRIP = 4, P_FAN = 5, P_RECTS = 6 };

/* A through-mode sprite with integer pixel corners (x0, y0) -> (x1, y1),
 * v0 colour c0, v1 colour c1 and depth z. */
static void sprite(struct rt *t, int x0, int y0, int x1, int y1, uint32_t c0, uint32_t c1, uint16_t z)
{
    struct vtx v[2] = {{x0 * 16, y0 * 16, z, c0, 0, 0}, {x1 * 16, y1 * 16, z, c1, 0, 0}};
    prim(t, P_RECTS, 0, v, 2);
}

static uint32_t px32(const struct rt *t, uint32_t base, uint32_t stride, int x, int y)
{
    return mem_read32(&t->r->mem, base + ((uint32_t)y * stride + (uint32_t)x) * 4);
}
static uint32_t fbpx(const struct rt *t, int x, int y) { return px32(t, VRAM, 512, x, y); }
static uint16_t zpx(const struct rt *t, int x, int y)
{
    return mem_read16(&t->r->mem, pb_depth_view(ZBUF, true) + ((uint32_t)y * 512 + (uint32_t)x) * 2);
}

/* Additive blending: dst + src per channel (FIXA = FIXB = 255, and the
 * blender's product m(x, 255) = ((2x+1) * 511) >> 10 = x for every x in
 * 0..255, since 1022x + 511 lies in [1024x, 1024x + 1024)). */
static void additive(struct rt *t)
{
    cmd(t, GE_BLEND_ON, 1);
    cmd(t, GE_BLEND_MODE, 10 | 10u << 4);
    cmd(t, GE_BLEND_FIXA, 0xFFFFFF);
    cmd(t, GE_BLEND_FIXB, 0xFFFFFF);
}

/* ---- Exact models --------------------------------------------------------- */

/* The sample point of pixel p for triangles, pb_tri_sample (16 p + 7,
 * PPSSPP TriangleEdge::Start), and coverage with PPSSPP's fill rule,
 * pb_tri_cov (IsRightSideOrFlatBottomLine as a symbolic perturbation of
 * the sample), are in tests/probe.h. */

/* Where sample (sx, sy) lies relative to the convex polygon P (n corners):
 * 1 strictly inside, 0 on its boundary, -1 outside. */
static int poly_class(const int64_t (*P)[2], int n, int64_t sx, int64_t sy)
{
    int64_t area = 0;
    for (int i = 1; i + 1 < n; i++) area += pb_cross3(P[0][0], P[0][1], P[i][0], P[i][1], P[i + 1][0], P[i + 1][1]);
    int64_t sg = area > 0 ? 1 : -1;
    int res = 1;
    for (int i = 0; i < n; i++) {
        int64_t f = sg * pb_cross3(P[i][0], P[i][1], P[(i + 1) % n][0], P[(i + 1) % n][1], sx, sy);
        if (f < 0) return -1;
        if (f == 0) res = 0;
    }
    return res;
}

/* The same perturbed test as tri_cov, for a convex polygon. */
static bool poly_cov(const int64_t (*P)[2], int n, int64_t sx, int64_t sy)
{
    int64_t area = 0;
    for (int i = 1; i + 1 < n; i++) area += pb_cross3(P[0][0], P[0][1], P[i][0], P[i][1], P[i + 1][0], P[i + 1][1]);
    int64_t sg = area > 0 ? 1 : -1;
    for (int i = 0; i < n; i++) {
        int64_t px = P[i][0], py = P[i][1], qx = P[(i + 1) % n][0], qy = P[(i + 1) % n][1];
        int64_t f = sg * pb_cross3(px, py, qx, qy, sx, sy);
        if (f == 0) f = sg * -(qy - py);
        if (f == 0) f = sg * (qx - px);
        if (f <= 0) return false;
    }
    return true;
}

static bool poly_convex(const int64_t (*P)[2], int n)
{
    int pos = 0, neg = 0;
    for (int i = 0; i < n; i++) {
        int64_t c = pb_cross3(P[i][0], P[i][1], P[(i + 1) % n][0], P[(i + 1) % n][1], P[(i + 2) % n][0], P[(i + 2) % n][1]);
        pos += c > 0, neg += c < 0;
    }
    return (pos == n) != (neg == n);
}

static int64_t floordiv(int64_t a, int64_t b)
{
    if (b < 0) a = -a, b = -b;
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Deterministic pseudo-random numbers (a 32-bit LCG, top bits). */
static uint32_t rnd_state;
static uint32_t rnd(uint32_t n)
{
    rnd_state = rnd_state * 1664525u + 1013904223u;
    return (uint32_t)(((uint64_t)(rnd_state >> 8) * n) >> 24);
}

/* ---- 1. Points ------------------------------------------------------------ */

TEST(raster_points)
{
    /* A through-mode point at (x, y) writes exactly pixel (floor x, floor y)
     * (PPSSPP DrawPoint draws the pixel holding the position; positions are
     * 1/16-pixel fixed point, floored). Float positions chosen exactly
     * representable in the GE's 16-bit-significand floats. */
    static const struct { int32_t x16, y16; int px, py; uint32_t c; } pts[] = {
        {10 * 16 + 14, 20 * 16 + 1, 10, 20, 0xFF102030u},   /* (10.875, 20.0625) */
        {33 * 16, 7 * 16 + 15, 33, 7, 0xFF405060u},         /* (33, 7.9375) */
        {8, 8, 0, 0, 0xFF708090u},                          /* (0.5, 0.5) */
        {100 * 16 + 1, 50 * 16 + 15, 100, 50, 0xFFA0B0C0u}, /* (100.0625, 50.9375) */
        {479 * 16 + 15, 271 * 16 + 15, 479, 271, 0xFFD0E0F0u}, /* last pixel of the scissor */
        {12 * 16 + 15, 20 * 16, 12, 20, 0xFF0A0B0Cu},       /* two pixels right of the first */
    };
    struct rt t;
    rt_init(&t);
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        struct vtx v = {pts[i].x16, pts[i].y16, 0, pts[i].c, 0, 0};
        prim(&t, P_POINTS, VF_FLOAT, &v, 1);
    }
    /* Also 10.9 itself: 10.9 * 16 = 174.4, floored to 174 -> pixel 10. */
    mem_write32(&t.r->mem, 0x08280000, 0xFF111111u);
    mem_write32(&t.r->mem, 0x08280004, pb_f32bits(10.9f));
    mem_write32(&t.r->mem, 0x08280008, pb_f32bits(40.9f));
    mem_write32(&t.r->mem, 0x0828000C, 0);
    cmd(&t, GE_VTYPE, 7u << 2 | 3u << 7 | 1u << 23);
    cmd(&t, GE_VADDR, 0x280000);
    cmd(&t, GE_PRIM, 0u << 16 | 1);
    /* A point outside the scissor draws nothing (480 is past 479). */
    struct vtx off = {480 * 16 + 3, 10 * 16, 0, 0xFFFFFFFFu, 0, 0};
    prim(&t, P_POINTS, VF_FLOAT, &off, 1);
    rt_run(&t);
    for (int y = 0; y < 272; y++)
        for (int x = 0; x < 512; x++) {
            uint32_t want = 0;
            for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++)
                if (pts[i].px == x && pts[i].py == y) want = pts[i].c & 0x00FFFFFFu;
            if (x == 10 && y == 40) want = 0x111111;
            /* Alpha is not written without a stencil write: check RGB. */
            uint32_t got = fbpx(&t, x, y);
            CHECK_MSG((got & 0xFFFFFF) == want, "pixel (%d,%d): 0x%08x, want RGB 0x%06x", x, y, got, want);
            CHECK_MSG(got >> 24 == 0, "pixel (%d,%d) alpha changed: 0x%08x", x, y, got);
        }
    rt_free(&t);
}

/* ---- 2. Depth readout ---------------------------------------------------- */

TEST(raster_depth_readout)
{
    /* Through-mode points with u16 position z write exactly their z when the
     * depth test is on with ALWAYS and depth writes are enabled (PPSSPP
     * DrawSinglePixel: depth written when ZTEST_ON and !(ZMSK & 1)). */
    static const uint16_t zs[] = {0, 1, 2, 255, 256, 0x1234, 0x7FFF, 0x8000, 0xABCD, 0xFFFE, 0xFFFF, 54321};
    enum { N = sizeof zs / sizeof zs[0] };
    struct rt t;
    rt_init(&t);
    struct gt_diag d = {0};
    CHECK_EQ_I(mem_fill(&t.r->mem, pb_depth_view(ZBUF, true), 0x5A, 512 * 40 * 2, &d), GT_OK); /* depth 0x5A5A */
    cmd(&t, GE_ZTEST_ON, 1);
    cmd(&t, GE_Z_TEST, 1);
    cmd(&t, GE_Z_WRITE_DISABLE, 0);
    struct vtx v[N];
    for (int i = 0; i < N; i++) v[i] = (struct vtx){(5 + 3 * i) * 16, 10 * 16, zs[i], 0xFF000000u | (uint32_t)(i + 1), 0, 0};
    prim(&t, P_POINTS, 0, v, N);
    /* Depth writes disabled: colour still drawn, depth kept. */
    cmd(&t, GE_Z_WRITE_DISABLE, 1);
    struct vtx w = {60 * 16, 12 * 16, 0x4321, 0xFF0000EEu, 0, 0};
    prim(&t, P_POINTS, 0, &w, 1);
    rt_run(&t);
    for (int y = 0; y < 40; y++)
        for (int x = 0; x < 512; x++) {
            uint16_t want = 0x5A5A;
            uint32_t wantc = 0;
            if (y == 10 && x >= 5 && (x - 5) % 3 == 0 && (x - 5) / 3 < N) want = zs[(x - 5) / 3], wantc = (uint32_t)((x - 5) / 3 + 1);
            if (x == 60 && y == 12) wantc = 0xEE;
            CHECK_MSG(zpx(&t, x, y) == want, "depth (%d,%d) = 0x%04x, want 0x%04x", x, y, zpx(&t, x, y), want);
            CHECK_MSG((fbpx(&t, x, y) & 0xFFFFFF) == wantc, "colour (%d,%d) = 0x%08x", x, y, fbpx(&t, x, y));
        }

    /* GEQUAL (7): passes when z >= stored (ge_constants.h GE_COMP_GEQUAL),
     * and then writes z. Points with z - 1, z and z + 1 against each stored
     * value (wrapping avoided at the ends). */
    cmd(&t, GE_Z_TEST, 7);
    cmd(&t, GE_Z_WRITE_DISABLE, 0);
    for (int i = 0; i < N; i++) {
        int dz = i % 3 - 1; /* -1, 0, +1 */
        int z = zs[i] + dz;
        if (z < 0 || z > 65535) z = zs[i];
        v[i].z = (uint16_t)z;
        v[i].c = 0xFF00AA00u | (uint32_t)(i + 1);
    }
    prim(&t, P_POINTS, 0, v, N);
    rt_run(&t);
    for (int i = 0; i < N; i++) {
        int x = 5 + 3 * i;
        bool pass = v[i].z >= zs[i];
        CHECK_MSG(zpx(&t, x, 10) == (pass ? v[i].z : zs[i]), "GEQUAL depth %d: 0x%04x", i, zpx(&t, x, 10));
        CHECK_MSG((fbpx(&t, x, 10) & 0xFFFFFF) == (pass ? 0xAA00u | (uint32_t)(i + 1) : (uint32_t)(i + 1)),
                  "GEQUAL colour %d (z 0x%04x vs 0x%04x): 0x%08x", i, v[i].z, zs[i], fbpx(&t, x, 10));
    }
    rt_free(&t);
}

/* Texturing from an 8888 texture at TEXADDR, bufw texels wide, 2^wlog x
 * 2^hlog, nearest, clamped, TEX_FUNC replace RGBA: each pixel shows
 * exactly the texel its sample lands in. */
static void nearest_8888(struct rt *t, uint32_t bufw, unsigned wlog, unsigned hlog)
{
    cmd(t, GE_TEXTURE_ON, 1);
    cmd(t, GE_TEX_ADDR0, TEXADDR & 0xFFFFF0);
    cmd(t, GE_TEX_BUFW0, bufw | ((TEXADDR >> 24) & 0xF) << 16);
    cmd(t, GE_TEX_SIZE0, wlog | hlog << 8);
    cmd(t, GE_TEX_FORMAT, 3);
    cmd(t, GE_TEX_MODE, 0);
    cmd(t, GE_TEX_FILTER, 0);
    cmd(t, GE_TEX_WRAP, 0);
    cmd(t, GE_TEX_FUNC, 3 | 1u << 8);
    cmd(t, GE_TEX_FLUSH, 0);
}

/* ---- 3. Rectangle coverage --------------------------------------------- */

/* Pixel p is inside a rectangle spanning a..b (1/16 pixel) along one axis
 * (ge-raster-pipeline.md "Sprites", measured): from (lo + 6) >> 4 for a
 * column (and for the row of a rotated sprite), (lo + 7) >> 4 for a row, to
 * (hi + 7) >> 4 exclusive. */
static bool rect_in(int64_t a, int64_t b, int p, bool col)
{
    int64_t lo = a < b ? a : b, hi = a < b ? b : a;
    return p >= (lo + (col ? 6 : 7)) >> 4 && p < (hi + 7) >> 4;
}

TEST(raster_rect_coverage)
{
    /* (10,20)-(30,25) in all four vertex orders: exactly x 10..29, y 20..24,
     * in the second vertex's colour (DrawRectangle shades with v1). */
    static const int ord[4][4] = {{10, 20, 30, 25}, {30, 25, 10, 20}, {10, 25, 30, 20}, {30, 20, 10, 25}};
    for (int o = 0; o < 4; o++) {
        struct rt t;
        rt_init(&t);
        sprite(&t, ord[o][0], ord[o][1], ord[o][2], ord[o][3], 0xFF0000FFu, 0xFF00FF00u + (uint32_t)o, 0);
        rt_run(&t);
        for (int y = 0; y < 60; y++)
            for (int x = 0; x < 60; x++) {
                bool in = x >= 10 && x <= 29 && y >= 20 && y <= 24;
                uint32_t want = in ? 0x00FF00u + (uint32_t)o : 0;
                CHECK_MSG((fbpx(&t, x, y) & 0xFFFFFF) == want, "order %d pixel (%d,%d): 0x%08x", o, x, y, fbpx(&t, x, y));
            }
        rt_free(&t);
    }

    /* Fractional corners (float positions), 1/16 pixel. E.g. x from 10.5
     * (168) to 30.5 (488): x 10..29; from 10.5625 (169): still from
     * (169 + 6) >> 4 = 10, to 30, while its rows start at
     * (329 + 7) >> 4 = 21. The last case runs bottom left to top right
     * (rotated): its first row is (105 + 6) >> 4 = 6, where an unrotated
     * sprite's would be (105 + 7) >> 4 = 7. It shares case 0's colour bits
     * (no pixel in common). */
    static const int32_t fr[][4] = {
        {168, 328, 488, 408},   /* (10.5, 20.5)-(30.5, 25.5) */
        {169, 329, 489, 409},   /* +1/16 */
        {167, 327, 487, 407},   /* -1/16 */
        {201, 100, 202, 300},   /* 1/16 wide: (207 >> 4) = 12 to (209 >> 4) = 13 */
        {200, 100, 216, 300},   /* one pixel wide */
        {607, 100, 600, 140},   /* 7/16 wide, right to left */
        {400, 200, 440, 105},   /* rotated: rows from (105 + 6) >> 4 = 6 */
    };
    struct rt t;
    rt_init(&t);
    additive(&t);
    for (size_t i = 0; i < sizeof fr / sizeof fr[0]; i++) {
        struct vtx v[2] = {{fr[i][0], fr[i][1], 0, 0, 0, 0}, {fr[i][2], fr[i][3], 0, 1u << (4 * (i % 6)), 0, 0}};
        prim(&t, P_RECTS, VF_FLOAT, v, 2);
    }
    rt_run(&t);
    for (int y = 0; y < 40; y++)
        for (int x = 0; x < 60; x++) {
            uint32_t want = 0;
            for (size_t i = 0; i < sizeof fr / sizeof fr[0]; i++)
                if (rect_in(fr[i][0], fr[i][2], x, true) &&
                    rect_in(fr[i][1], fr[i][3], y, fr[i][0] < fr[i][2] && fr[i][1] > fr[i][3]))
                    want += 1u << (4 * (i % 6));
            CHECK_MSG((fbpx(&t, x, y) & 0xFFFFFF) == want, "fractional pixel (%d,%d): 0x%08x, want 0x%06x", x, y,
                      fbpx(&t, x, y), want);
        }
    rt_free(&t);
}

/* ---- 4. Rectangle texture orientation ------------------------------------ */

/* Texel index along one texture axis at pixel offset d (0-based) of a
 * rectangle `len` pixels long over which the coordinate runs `range` texels,
 * sampled at the pixel centre d + 1/2: forward from 0, or backward from
 * range. floor(range * (2d + 1) / (2 len)) or floor(range - that), in
 * integers. */
static int texel_along(int d, int len, int range, bool backward)
{
    int64_t num = (int64_t)range * (2 * d + 1), den = 2 * (int64_t)len;
    if (backward) num = (int64_t)range * den - num;
    return (int)floordiv(num, den);
}

TEST(raster_rect_texture)
{
    /* A 16x16 8888 texture whose texel (u, v) is R = u, G = v, B = 0x5A,
     * A = 255; nearest filtering, TEX_FUNC replace RGBA: each pixel shows
     * exactly the texel its sample lands in. */
    struct rt t;
    rt_init(&t);
    for (uint32_t v = 0; v < 16; v++)
        for (uint32_t u = 0; u < 16; u++) mem_write32(&t.r->mem, TEXADDR + (v * 16 + u) * 4, 0xFF5A0000u | v << 8 | u);
    nearest_8888(&t, 16, 4, 4);

    /* Orientation (PPSSPP DrawRectangle), v0 carrying (s0, t0) = (0, 0)
     * and v1 (s1, t1):
     *   v0 left of and above v1 (x and y forward): s runs s0 -> s1 with x,
     *     t runs t0 -> t1 with y.
     *   x forward, y backward (v0 bottom-left, v1 top-right: rotated): at the
     *     top-left corner (s, t) = (s1, t0); moving right t runs toward t1,
     *     moving down s runs back from s1 toward s0. So u follows y
     *     backward, v follows x forward.
     *   x backward, y forward (v0 top-right, v1 bottom-left: rotated):
     *     top-left (s0, t1); moving right t runs from t1 back toward t0,
     *     moving down s runs toward s1. u follows y forward, v follows x
     *     backward.
     *   both backward: top-left (s1, t1), s back with x, t back with y:
     *     both mirrored.
     * Every sprite's area (in 1/16 pixel squared) is 2^16, a power of two,
     * so the gradients are exact (GE-HARDWARE.md §2); every sample sits at
     * a texel's interior anyway (the centres are at half-pixel offsets). */
    struct cs {
        int x0, y0, x1, y1; /* v0 and v1 pixel corners */
        uint16_t s1, t1;    /* v1's texture coordinates */
    };
    static const struct cs cases[] = {
        /* 16x16 at (100,100), uv (0,0)-(16,16): 1:1. */
        {100, 100, 116, 116, 16, 16},
        {100, 116, 116, 100, 16, 16},
        {116, 100, 100, 116, 16, 16},
        {116, 116, 100, 100, 16, 16},
        /* 32x8 at (200,50): s over 16 texels, t over 8 when unrotated (s
         * 2 pixels per texel along x); rotated, s spans 8 texels down the 8
         * rows and t 16 texels across the 32 columns. */
        {200, 50, 232, 58, 16, 8},
        {200, 58, 232, 50, 8, 16},
        {232, 50, 200, 58, 8, 16},
        {232, 58, 200, 50, 16, 8},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const struct cs *k = &cases[c];
        struct vtx v[2] = {{k->x0 * 16, k->y0 * 16, 0, 0xFFFFFFFFu, 0, 0}, {k->x1 * 16, k->y1 * 16, 0, 0xFFFFFFFFu, k->s1, k->t1}};
        /* Each case on a clean buffer. */
        struct gt_diag d = {0};
        CHECK_EQ_I(mem_fill(&t.r->mem, VRAM, 0, 512 * 272 * 4, &d), GT_OK);
        prim(&t, P_RECTS, VF_TEX, v, 2);
        rt_run(&t);
        int left = k->x0 < k->x1 ? k->x0 : k->x1, top = k->y0 < k->y1 ? k->y0 : k->y1;
        int w = abs(k->x1 - k->x0), h = abs(k->y1 - k->y0);
        bool xf = k->x0 < k->x1, yf = k->y0 < k->y1;
        for (int y = top - 2; y < top + h + 2; y++)
            for (int x = left - 2; x < left + w + 2; x++) {
                uint32_t got = fbpx(&t, x, y) & 0xFFFFFF;
                if (x < left || x >= left + w || y < top || y >= top + h) {
                    CHECK_MSG(got == 0, "case %zu: pixel (%d,%d) outside drawn: 0x%06x", c, x, y, got);
                    continue;
                }
                int dx = x - left, dy = y - top, u, vv;
                if (xf == yf) {
                    u = texel_along(dx, w, k->s1, !xf);
                    vv = texel_along(dy, h, k->t1, !yf);
                } else {
                    /* Rotated: u from y (backward when y runs backward), v
                     * from x (backward when x runs backward). */
                    u = texel_along(dy, h, k->s1, !yf);
                    vv = texel_along(dx, w, k->t1, !xf);
                }
                uint32_t want = 0x5A0000u | (uint32_t)vv << 8 | (uint32_t)u;
                CHECK_MSG(got == want, "case %zu pixel (%d,%d): texel (%u,%u), want (%d,%d)", c, x, y, got & 0xFF,
                          got >> 8 & 0xFF, u, vv);
            }
    }
    rt_free(&t);
}

/* ge-raster-pipeline.md "Consequences" (measured): a 480x33 bar textured
 * with 280x20 texels lands on texel row 9 as a sprite, which is anchored at
 * the top, at the row whose exact coordinate is 10 (pixel row 16: 20 x 16.5
 * / 33 = 10), since its floored gradient falls just short. The same bar
 * drawn rotated (v0 bottom left, v1 top right, so s runs along the rows)
 * with s from 20 at v0 to 0 at v1 has the same gradient, 20 over 33 rows
 * (rect_grad gets the same operands), but is anchored at v0, the bottom
 * left ("Sprites"): at the middle row s = 20 - (what reached 9.x from 0)
 * = 10.x, texel 10, as for the triangle anchored at the bottom. Anchored
 * at the top it would be texel 9 there too. A 512x32 texture whose texel
 * (u, v) holds R = u & 0xFF, G = v, B = u >> 8. */
TEST(raster_rect_anchor_measured_bar)
{
    struct rt t;
    rt_init(&t);
    for (uint32_t v = 0; v < 32; v++)
        for (uint32_t u = 0; u < 512; u++)
            mem_write32(&t.r->mem, TEXADDR + (v * 512 + u) * 4, 0xFF000000u | (u >> 8) << 16 | v << 8 | (u & 0xFF));
    nearest_8888(&t, 512, 9, 5);
    /* The bar at y 0..32: t over 20 texel rows down the rows. */
    struct vtx bar[2] = {{0, 0, 0, 0xFFFFFFFFu, 0, 0}, {480 * 16, 33 * 16, 0, 0xFFFFFFFFu, 280, 20}};
    prim(&t, P_RECTS, VF_TEX, bar, 2);
    /* Rotated, at x 0..479, y 100..132: v0 (0, 133) with (s, t) = (20, 0),
     * v1 (480, 100) with (0, 280): s from 20 at the bottom row to 0 at the
     * top, t along x. */
    struct vtx rot[2] = {{0, 133 * 16, 0, 0xFFFFFFFFu, 20, 0}, {480 * 16, 100 * 16, 0, 0xFFFFFFFFu, 0, 280}};
    prim(&t, P_RECTS, VF_TEX, rot, 2);
    rt_run(&t);
    for (int x = 0; x < 480; x += 37) {
        uint32_t a = fbpx(&t, x, 16), b = fbpx(&t, x, 116);
        CHECK_MSG((a >> 8 & 0xFF) == 9, "sprite pixel (%d, 16): texel row %u, want 9", x, a >> 8 & 0xFF);
        CHECK_MSG((b & 0xFF) == 10 && (b >> 16 & 0xFF) == 0, "rotated pixel (%d, 116): texel u %u, want 10", x,
                  (b & 0xFF) | (b >> 16 & 0xFF) << 8);
    }
    rt_free(&t);
}

/* ---- 5. Fill rule -------------------------------------------------------- */

/* Reads the R channel (hit count under additive blending, colour R = 1 per
 * primitive) of every pixel of the screen into cnt[272][480]. */
static void read_counts(const struct rt *t, uint8_t (*cnt)[480], uint8_t (*who)[480])
{
    for (int y = 0; y < 272; y++)
        for (int x = 0; x < 480; x++) {
            uint32_t p = fbpx(t, x, y);
            cnt[y][x] = (uint8_t)p;
            if (who) who[y][x] = (uint8_t)(p >> 8);
        }
}

/* Checks a partition of the convex polygon P: every sample strictly inside
 * hit exactly once, strictly outside never, and on the boundary by the
 * fill rule (poly_cov). */
static void check_partition(const uint8_t (*cnt)[480], const uint8_t (*who)[480], const int64_t (*P)[2], int n,
                            const char *what)
{
    unsigned inside = 0, boundary = 0;
    for (int y = 0; y < 272; y++)
        for (int x = 0; x < 480; x++) {
            int64_t sx = pb_tri_sample(x), sy = pb_tri_sample(y);
            int cls = poly_class(P, n, sx, sy);
            CHECK_MSG(cnt[y][x] <= 1, "%s: pixel (%d,%d) drawn %u times (triangles mask 0x%02x)", what, x, y, cnt[y][x],
                      who[y][x]);
            if (cls > 0) {
                inside++;
                CHECK_MSG(cnt[y][x] == 1, "%s: pixel (%d,%d) strictly inside drawn %u times", what, x, y, cnt[y][x]);
            } else if (cls < 0) {
                CHECK_MSG(cnt[y][x] == 0, "%s: pixel (%d,%d) outside drawn %u times", what, x, y, cnt[y][x]);
            } else {
                boundary++;
                int want = poly_cov(P, n, sx, sy);
                CHECK_MSG(cnt[y][x] == want, "%s: pixel (%d,%d) on the boundary drawn %u times, fill rule says %d", what,
                          x, y, cnt[y][x], want);
            }
        }
    CHECK_MSG(inside > 100, "%s: only %u pixels inside", what, inside);
    (void)boundary;
}

TEST(raster_fill_quad)
{
    /* Quads split along a diagonal into two triangles, drawn with additive
     * blending (R += 1 per triangle, G = triangle number bit) onto black:
     * every pixel of the quad exactly once, none outside. Corners at sample
     * positions (16 k + 7) so that many samples fall exactly on the shared
     * diagonal and on the outer edges; one quad has horizontal top and
     * bottom edges through sample rows, one vertical left and right edges
     * through sample columns. Flat shading: each triangle's colour is its
     * last vertex's. */
#define S(p) ((p) * 16 + 7)
    static const int64_t quads[][4][2] = {
        {{S(10), S(10)}, {S(40), S(12)}, {S(35), S(30)}, {S(8), S(28)}},
        {{S(50), S(5)}, {S(70), S(5)}, {S(74), S(25)}, {S(46), S(25)}},
        {{S(90), S(40)}, {S(110), S(36)}, {S(110), S(60)}, {S(90), S(58)}},
        {{1603, 1210}, {2403, 1333}, {2280, 2101}, {1700, 1901}}, /* generic */
        {{S(200), S(100)}, {S(264), S(100)}, {S(264), S(164)}, {S(200), S(164)}}, /* square, diagonal hits every sample */
    };
    uint8_t (*cnt)[480] = calloc(272, sizeof *cnt), (*who)[480] = calloc(272, sizeof *who);
    CHECK(cnt && who);
    for (size_t q = 0; q < sizeof quads / sizeof quads[0]; q++) {
        const int64_t (*P)[2] = quads[q];
        CHECK(poly_convex(P, 4));
        /* Both diagonals, both windings. */
        for (int variant = 0; variant < 4; variant++) {
            int a = variant & 1; /* diagonal 0-2 or 1-3 */
            int tri[2][3] = {{a, a + 1, (a + 2) % 4}, {a, (a + 2) % 4, (a + 3) % 4}};
            if (variant & 2)
                for (int k = 0; k < 2; k++) {
                    int s = tri[k][1];
                    tri[k][1] = tri[k][2], tri[k][2] = s;
                }
            struct rt t;
            rt_init(&t);
            additive(&t);
            cmd(&t, GE_SHADEMODE, 0);
            struct vtx v[6];
            for (int k = 0; k < 2; k++)
                for (int j = 0; j < 3; j++)
                    v[k * 3 + j] = (struct vtx){(int32_t)P[tri[k][j]][0], (int32_t)P[tri[k][j]][1], 0,
                                                1u | (1u << k) << 8, 0, 0};
            prim(&t, P_TRIS, VF_FLOAT, v, 6);
            rt_run(&t);
            read_counts(&t, cnt, who);
            char what[64];
            snprintf(what, sizeof what, "quad %zu variant %d", q, variant);
            check_partition((const uint8_t (*)[480])cnt, (const uint8_t (*)[480])who, P, 4, what);
            rt_free(&t);
        }
    }
    free(cnt);
    free(who);
}

TEST(raster_fill_fan)
{
    /* Fans of 6 triangles around a centre with non-integer coordinates:
     * every pixel hit at most once; pixels whose sample is strictly inside
     * the hexagon (including those exactly on an inner spoke, and the
     * centre itself when it is a sample point) exactly once; outside never;
     * on the outer boundary by the fill rule. */
    static const int64_t hexes[][7][2] = {
        /* Centre at the sample point of pixel (100, 80) = (100.4375,
         * 80.4375); corners 16 * (32,0), (16,28), ... away: spokes and
         * edges run through sample points, two edges are horizontal. */
        {{S(100), S(80)},
         {S(132), S(80)}, {S(116), S(108)}, {S(84), S(108)}, {S(68), S(80)}, {S(84), S(52)}, {S(116), S(52)}},
        /* A generic centre (50.3125, 200.6875) and irregular corners. */
        {{805, 3211},
         {1305, 3214}, {1065, 3631}, {555, 3644}, {308, 3206}, {550, 2780}, {1054, 2784}},
        /* Centre (300.5, 150.25), clockwise order this time. */
        {{4808, 2404},
         {5208, 2404}, {5008, 2004}, {4608, 2004}, {4408, 2404}, {4608, 2804}, {5008, 2804}},
    };
    uint8_t (*cnt)[480] = calloc(272, sizeof *cnt), (*who)[480] = calloc(272, sizeof *who);
    CHECK(cnt && who);
    for (size_t h = 0; h < sizeof hexes / sizeof hexes[0]; h++) {
        const int64_t (*P)[2] = &hexes[h][1];
        CHECK(poly_convex(P, 6));
        struct rt t;
        rt_init(&t);
        additive(&t);
        cmd(&t, GE_SHADEMODE, 0);
        /* Fan: centre, P0, P1, ..., P5, P0. Triangle i = (C, Pi, Pi+1) is
         * coloured by its last vertex (flat shading): R 1, G bit i. */
        struct vtx v[8];
        v[0] = (struct vtx){(int32_t)hexes[h][0][0], (int32_t)hexes[h][0][1], 0, 0, 0, 0};
        for (int i = 0; i <= 6; i++)
            v[1 + i] = (struct vtx){(int32_t)P[i % 6][0], (int32_t)P[i % 6][1], 0, i ? 1u | (1u << (i - 1)) << 8 : 0, 0, 0};
        prim(&t, P_FAN, VF_FLOAT, v, 8);
        rt_run(&t);
        read_counts(&t, cnt, who);
        char what[64];
        snprintf(what, sizeof what, "hexagon %zu", h);
        check_partition((const uint8_t (*)[480])cnt, (const uint8_t (*)[480])who, P, 6, what);
        /* Each triangle alone also follows the per-triangle rule: the pixel
         * hit by triangle i carries G bit i. */
        for (int y = 0; y < 272; y++)
            for (int x = 0; x < 480; x++) {
                unsigned want = 0;
                for (int i = 0; i < 6; i++) {
                    int64_t X[3] = {hexes[h][0][0], P[i][0], P[(i + 1) % 6][0]};
                    int64_t Y[3] = {hexes[h][0][1], P[i][1], P[(i + 1) % 6][1]};
                    if (pb_tri_cov(X, Y, pb_tri_sample(x), pb_tri_sample(y))) want |= 1u << i;
                }
                CHECK_MSG(who[y][x] == want, "%s: pixel (%d,%d) drawn by triangles 0x%02x, want 0x%02x", what, x, y,
                          who[y][x], want);
            }
        rt_free(&t);
    }
    free(cnt);
    free(who);
}

TEST(raster_fill_mesh)
{
    /* A jittered grid of vertices (random 1/16-pixel offsets, some snapped
     * to sample points) cut into triangles with random diagonals and
     * random winding: each pixel's hit count equals the number of
     * triangles whose fill-rule coverage (tri_cov) holds its sample, and
     * is at most 1 (the triangles partition the grid). */
    enum { GW = 9, GH = 7 };
    int64_t gx[GH][GW], gy[GH][GW];
    rnd_state = 12345;
    for (int j = 0; j < GH; j++)
        for (int i = 0; i < GW; i++) {
            gx[j][i] = 16 * (20 + 48 * i) + (i ? (int64_t)rnd(257) - 128 : 0);
            gy[j][i] = 16 * (10 + 40 * j) + (j ? (int64_t)rnd(257) - 128 : 0);
            if (rnd(3) == 0) gx[j][i] = gx[j][i] / 16 * 16 + 7, gy[j][i] = gy[j][i] / 16 * 16 + 7;
        }
    struct rt t;
    rt_init(&t);
    additive(&t);
    cmd(&t, GE_SHADEMODE, 0);
    struct vtx v[(GW - 1) * (GH - 1) * 6];
    int64_t TX[(GW - 1) * (GH - 1) * 2][3], TY[(GW - 1) * (GH - 1) * 2][3];
    unsigned nt = 0;
    for (int j = 0; j + 1 < GH; j++)
        for (int i = 0; i + 1 < GW; i++) {
            int c[4][2] = {{i, j}, {i + 1, j}, {i + 1, j + 1}, {i, j + 1}};
            int a = (int)rnd(2);
            int tri[2][3] = {{a, a + 1, (a + 2) % 4}, {a, (a + 2) % 4, (a + 3) % 4}};
            for (int k = 0; k < 2; k++) {
                if (rnd(2)) {
                    int s = tri[k][1];
                    tri[k][1] = tri[k][2], tri[k][2] = s;
                }
                for (int m = 0; m < 3; m++) {
                    int ci = tri[k][m];
                    TX[nt][m] = gx[c[ci][1]][c[ci][0]];
                    TY[nt][m] = gy[c[ci][1]][c[ci][0]];
                    v[nt * 3 + m] = (struct vtx){(int32_t)TX[nt][m], (int32_t)TY[nt][m], 0, 1, 0, 0};
                }
                nt++;
            }
        }
    prim(&t, P_TRIS, VF_FLOAT, v, nt * 3);
    rt_run(&t);
    unsigned hits = 0;
    for (int y = 0; y < 272; y++)
        for (int x = 0; x < 480; x++) {
            unsigned want = 0;
            for (unsigned k = 0; k < nt; k++) want += pb_tri_cov(TX[k], TY[k], pb_tri_sample(x), pb_tri_sample(y));
            CHECK_MSG(want <= 1, "model: pixel (%d,%d) in %u triangles", x, y, want);
            uint32_t got = fbpx(&t, x, y) & 0xFF;
            CHECK_MSG(got == want, "pixel (%d,%d) drawn %u times, want %u", x, y, got, want);
            hits += want;
        }
    CHECK(hits > 50000);
    rt_free(&t);
}

/* ---- 6. Gouraud and flat colour ------------------------------------------- */

/* floor of the exact barycentric interpolation of channel k at sample
 * (sx, sy): sum_i c_i * area(S, V_i+1, V_i+2) / area(V0, V1, V2). */
static int bary_floor(const int64_t X[3], const int64_t Y[3], const uint32_t col[3], int k, int64_t sx, int64_t sy)
{
    int64_t den = pb_cross3(X[0], Y[0], X[1], Y[1], X[2], Y[2]), num = 0;
    for (int i = 0; i < 3; i++) {
        int64_t c = (int64_t)(col[i] >> (8 * k) & 0xFF);
        num += c * pb_cross3(sx, sy, X[(i + 1) % 3], Y[(i + 1) % 3], X[(i + 2) % 3], Y[(i + 2) % 3]);
    }
    return (int)floordiv(num, den);
}

TEST(raster_gouraud)
{
    /* Large through-mode triangles with per-vertex colours: every covered
     * pixel's R, G, B within 1 of the floor of the exact interpolation at
     * its sample point; uncovered pixels keep the white background (which
     * no interpolated colour can produce: the first triangle's channels
     * sum to about 255, the others have a channel below 250 everywhere). */
    static const struct { int32_t x[3], y[3]; uint32_t c[3]; } tris[] = {
        {{20 * 16 + 4, 300 * 16 + 12, 90 * 16 + 1}, {10 * 16 + 8, 60 * 16 + 2, 250 * 16 + 8},
         {0xFF0000FFu, 0xFF00FF00u, 0xFFFF0000u}},
        {{470 * 16, 150 * 16 + 5, 400 * 16 + 9}, {5 * 16 + 3, 120 * 16, 268 * 16 + 15},
         {0xFF4D0A0Au, 0xFF8003F0u, 0xFFF05A3Cu}},
        /* Long right edge (anchor case of §2 where the long edge is the
         * right side). */
        {{300 * 16, 310 * 16 + 7, 180 * 16 + 2}, {20 * 16 + 1, 260 * 16 + 9, 150 * 16}, {0xFF0000F0u, 0xFFF01000u, 0xFF20F020u}},
    };
    for (size_t n = 0; n < sizeof tris / sizeof tris[0]; n++) {
        struct rt t;
        rt_init(&t);
        struct gt_diag d = {0};
        CHECK_EQ_I(mem_fill(&t.r->mem, VRAM, 0xFF, 512 * 272 * 4, &d), GT_OK);
        struct vtx v[3];
        int64_t X[3], Y[3];
        for (int i = 0; i < 3; i++) {
            v[i] = (struct vtx){tris[n].x[i], tris[n].y[i], 0, tris[n].c[i], 0, 0};
            X[i] = tris[n].x[i], Y[i] = tris[n].y[i];
        }
        prim(&t, P_TRIS, VF_FLOAT, v, 3);
        rt_run(&t);
        unsigned covered = 0;
        for (int y = 0; y < 272; y++)
            for (int x = 0; x < 480; x++) {
                int64_t sx = pb_tri_sample(x), sy = pb_tri_sample(y);
                uint32_t got = fbpx(&t, x, y);
                if (!pb_tri_cov(X, Y, sx, sy)) {
                    CHECK_MSG(got == 0xFFFFFFFFu, "triangle %zu: pixel (%d,%d) not covered but 0x%08x", n, x, y, got);
                    continue;
                }
                covered++;
                for (int k = 0; k < 3; k++) {
                    int want = bary_floor(X, Y, tris[n].c, k, sx, sy);
                    int g = (int)(got >> (8 * k) & 0xFF);
                    CHECK_MSG(g >= want - 1 && g <= want + 1, "triangle %zu pixel (%d,%d) channel %d: %d, exact floor %d", n,
                              x, y, k, g, want);
                }
                CHECK_MSG(got >> 24 == 0xFF, "triangle %zu pixel (%d,%d) alpha changed", n, x, y);
            }
        CHECK_MSG(covered > 5000, "triangle %zu covers %u pixels", n, covered);
        rt_free(&t);
    }
}

TEST(raster_flat)
{
    /* SHADEMODE 0: every pixel of a triangle has its provoking (last)
     * vertex's colour; in a strip the last vertex of each triangle. */
    struct rt t;
    rt_init(&t);
    cmd(&t, GE_SHADEMODE, 0);
    static const int32_t tx[3] = {30 * 16 + 5, 200 * 16 + 9, 60 * 16 + 2}, ty[3] = {20 * 16, 40 * 16 + 3, 150 * 16 + 11};
    struct vtx v[3];
    for (int i = 0; i < 3; i++) v[i] = (struct vtx){tx[i], ty[i], 0, 0xFF000011u * (uint32_t)(i + 1), 0, 0};
    prim(&t, P_TRIS, VF_FLOAT, v, 3);
    /* The same triangle wound the other way, shifted right 240 px. */
    struct vtx w[3] = {v[0], v[2], v[1]};
    for (int i = 0; i < 3; i++) w[i].x += 240 * 16;
    w[0].c = 0xFF123456u, w[1].c = 0xFF654321u, w[2].c = 0xFF0FF0AAu;
    prim(&t, P_TRIS, VF_FLOAT, w, 3);
    /* A strip of 4 vertices below: triangles (s0,s1,s2) in s2's colour and
     * (s1,s2,s3) in s3's. */
    struct vtx s[4] = {{20 * 16, 180 * 16, 0, 0xFF0000AAu, 0, 0},
                       {30 * 16 + 8, 260 * 16, 0, 0xFF00BB00u, 0, 0},
                       {150 * 16, 170 * 16 + 4, 0, 0xFFCC0000u, 0, 0},
                       {170 * 16 + 3, 265 * 16, 0, 0xFF0D0E0Fu, 0, 0}};
    prim(&t, P_STRIP, VF_FLOAT, s, 4);
    rt_run(&t);
    int64_t T[4][2][3];
    uint32_t want_c[4] = {v[2].c, w[2].c, s[2].c, s[3].c};
    for (int i = 0; i < 3; i++) {
        T[0][0][i] = v[i].x, T[0][1][i] = v[i].y;
        T[1][0][i] = w[i].x, T[1][1][i] = w[i].y;
        T[2][0][i] = s[i].x, T[2][1][i] = s[i].y;
        T[3][0][i] = s[i + 1].x, T[3][1][i] = s[i + 1].y;
    }
    unsigned n[4] = {0};
    for (int y = 0; y < 272; y++)
        for (int x = 0; x < 480; x++) {
            uint32_t want = 0;
            for (int k = 0; k < 4; k++)
                if (pb_tri_cov(T[k][0], T[k][1], pb_tri_sample(x), pb_tri_sample(y))) want = want_c[k] & 0xFFFFFF, n[k]++;
            CHECK_MSG((fbpx(&t, x, y) & 0xFFFFFF) == want, "pixel (%d,%d): 0x%08x, want 0x%06x", x, y, fbpx(&t, x, y), want);
        }
    for (int k = 0; k < 4; k++) CHECK_MSG(n[k] > 500, "triangle %d covers %u", k, n[k]);
    rt_free(&t);
}

/* ---- Lines ------------------------------------------------------------------ */

/* The test's own model of the measured line rule (ge-raster-pipeline.md
 * "Lines"), by another method than raster.c's: f(s) = |x(s) - cx| + |y(s) -
 * cy| along the segment is convex and piecewise linear, so its least value
 * lies at an end or where x(s) = cx or y(s) = cy; the line reaches the
 * diamond's inside when that least value is below 8 (1/16 pixel), touches
 * its boundary when it is 8, where a touching point counts only on the
 * top half (x-major lines) or the left half (y-major; |dx| = |dy| is
 * y-major). A pixel is lit when the line reaches it and does not end in it. */
static bool model_edge_counts(int64_t dx, int64_t dy, bool ymaj) { return (ymaj ? dx : dy) < 0; }

static bool model_end_inside(int64_t x, int64_t y, int64_t cx, int64_t cy, bool ymaj)
{
    int64_t d = llabs(x - cx) + llabs(y - cy);
    return d < 8 || (d == 8 && model_edge_counts(x - cx, y - cy, ymaj));
}

static bool model_line_lit(int64_t x0, int64_t y0, int64_t x1, int64_t y1, int px, int py)
{
    int64_t cx = 16 * (int64_t)px + 8, cy = 16 * (int64_t)py + 8;
    bool ymaj = llabs(x1 - x0) <= llabs(y1 - y0);
    if (model_end_inside(x1, y1, cx, cy, ymaj)) return false;
    /* Candidate parameters s = n / d in [0, 1]. */
    int64_t cand[4][2] = {{0, 1}, {1, 1}, {cx - x0, x1 - x0}, {cy - y0, y1 - y0}};
    bool touch = false;
    for (int i = 0; i < 4; i++) {
        int64_t n = cand[i][0], d = cand[i][1];
        if (d == 0) continue;
        if (d < 0) n = -n, d = -d;
        if (n < 0 || n > d) continue;
        /* (x(s) - cx) d and (y(s) - cy) d, exactly. */
        int64_t ex = (x0 - cx) * d + (x1 - x0) * n, ey = (y0 - cy) * d + (y1 - y0) * n;
        int64_t f = llabs(ex) + llabs(ey);
        if (f < 8 * d) return true;
        if (f == 8 * d && model_edge_counts(ex, ey, ymaj)) touch = true;
    }
    return touch;
}

/* A value along the line at pixel (px, py), measured: (c1 - c0) times the
 * setup reciprocal of the major length floored to 14 fraction bits per
 * subpixel, times the walk from v0 to the pixel centre along the major
 * axis, plus c0, floored (the reciprocal from gemath_setup_recip, tested
 * against the PSP's values in t_gemath_tables.c). */
static int64_t model_line_value(int64_t c0, int64_t c1, int64_t x0, int64_t y0, int64_t x1, int64_t y1, int px, int py)
{
    bool xm = llabs(x1 - x0) > llabs(y1 - y0);
    int64_t a0 = xm ? x0 : y0, a1 = xm ? x1 : y1, ac = 16 * (int64_t)(xm ? px : py) + 8;
    unsigned e;
    uint64_t q = gemath_setup_recip((uint64_t)llabs(a1 - a0), &e);
    int64_t k = (int64_t)floor(ldexp((double)((c1 - c0) * (int64_t)q), -(int)(e + 2)));
    int64_t walk = a1 > a0 ? ac - a0 : a0 - ac;
    return (int64_t)floor(ldexp((double)(c0 * 16384 + k * walk), -14));
}

TEST(raster_line_gouraud)
{
    /* Through-mode Gouraud lines with integer end points: horizontal ones
     * run along the top corners of a row's diamonds (lit: the top corner
     * counts for x-major lines), vertical ones along their left corners
     * (lit for y-major lines), the diagonal is y-major through pixel
     * centres; the end pixel is not lit. Channels that decrease along the
     * line included. Every pixel of the area checked against the model. */
    struct L { int x0, y0, x1, y1; uint32_t c0, c1; };
    static const struct L ls[] = {
        {10, 10, 20, 10, 0xFF0000C8u, 0xFF4DFA64u},   /* right */
        {40, 20, 30, 20, 0xFF10E040u, 0xFFF0109Cu},   /* left */
        {50, 10, 50, 16, 0xFF806432u, 0xFF000000u},   /* down */
        {60, 30, 60, 24, 0xFF000000u, 0xFF645A50u},   /* up */
        {70, 10, 83, 23, 0xFFFFFFFFu, 0xFF010203u},   /* diagonal */
    };
    struct rt t;
    rt_init(&t);
    for (size_t n = 0; n < sizeof ls / sizeof ls[0]; n++) {
        struct vtx v[2] = {{ls[n].x0 * 16, ls[n].y0 * 16, 0, ls[n].c0, 0, 0}, {ls[n].x1 * 16, ls[n].y1 * 16, 0, ls[n].c1, 0, 0}};
        prim(&t, P_LINES, 0, v, 2);
    }
    rt_run(&t);
    static uint32_t want[40][100];
    static bool drawn[40][100];
    memset(drawn, 0, sizeof drawn);
    unsigned lit = 0;
    for (size_t n = 0; n < sizeof ls / sizeof ls[0]; n++) {
        const struct L *l = &ls[n];
        int64_t x0 = 16 * l->x0, y0 = 16 * l->y0, x1 = 16 * l->x1, y1 = 16 * l->y1;
        for (int y = 0; y < 40; y++)
            for (int x = 0; x < 100; x++) {
                if (!model_line_lit(x0, y0, x1, y1, x, y)) continue;
                uint32_t c = 0;
                for (int k = 0; k < 3; k++) {
                    int64_t v = model_line_value(l->c0 >> (8 * k) & 0xFF, l->c1 >> (8 * k) & 0xFF, x0, y0, x1, y1, x, y);
                    c |= (uint32_t)(v < 0 ? 0 : v > 255 ? 255 : v) << (8 * k);
                }
                drawn[y][x] = true, want[y][x] = c, lit++;
            }
    }
    /* 10 + 10 + 6 + 6 + 13 pixels: one per whole pixel of the major length. */
    CHECK_EQ_U(lit, 45);
    CHECK(drawn[10][10] && drawn[10][19] && !drawn[10][20] && !drawn[9][10]); /* row 10, not 9 */
    CHECK(drawn[10][50] && !drawn[10][49] && !drawn[16][50]);                  /* column 50, not 49 */
    for (int y = 0; y < 40; y++)
        for (int x = 0; x < 100; x++) {
            uint32_t got = fbpx(&t, x, y);
            if (!drawn[y][x]) {
                CHECK_MSG(got == 0, "pixel (%d,%d) not on a line but 0x%08x", x, y, got);
                continue;
            }
            for (int k = 0; k < 3; k++) {
                int g = (int)(got >> (8 * k) & 0xFF), w = (int)(want[y][x] >> (8 * k) & 0xFF);
                CHECK_MSG(g == w, "pixel (%d,%d) channel %d: %d, want %d", x, y, k, g, w);
            }
        }
    rt_free(&t);
}

TEST(raster_line_diamond_exit)
{
    /* Off-grid lines (float positions in 1/16 pixel): Virtua Tennis's court
     * line, a steep one and a short one, each checked over its whole area
     * against the model's lit set. */
    static const int64_t ls[][4] = {
        {5581, 3941, 3951, 3934},
        {1203, 517, 1291, 1011},
        {3000, 2005, 3013, 2011},
    };
    for (size_t n = 0; n < sizeof ls / sizeof ls[0]; n++) {
        struct rt t;
        rt_init(&t);
        struct vtx v[2] = {{(int32_t)ls[n][0], (int32_t)ls[n][1], 0, 0xFFFFFFFFu, 0, 0},
                           {(int32_t)ls[n][2], (int32_t)ls[n][3], 0, 0xFFFFFFFFu, 0, 0}};
        prim(&t, P_LINES, VF_FLOAT, v, 2);
        rt_run(&t);
        unsigned lit = 0;
        for (int y = 0; y < 272; y++)
            for (int x = 0; x < 480; x++) {
                bool want = model_line_lit(ls[n][0], ls[n][1], ls[n][2], ls[n][3], x, y);
                uint32_t got = fbpx(&t, x, y);
                lit += want;
                CHECK_MSG((got & 0xFFFFFF) == (want ? 0xFFFFFFu : 0u), "line %zu pixel (%d,%d): 0x%08x, model %s", n, x,
                          y, got, want ? "lit" : "unlit");
            }
        CHECK_MSG(lit > 0, "line %zu lights nothing in the model", n);
        rt_free(&t);
    }
}

/* Antialiased lines: the alpha a PSP gave these pixels (probe exp112, as
 * PPSSPP's unittest/TestGEMath.cpp lists them: line ends in 1/16 pixel,
 * the pixel, its alpha), seen through a SRC_ALPHA / INV_SRC_ALPHA blend of
 * white over black: each channel m(255, a) + m(0, 255 - a) = m(255, a)
 * with the §3 product m. */
TEST(raster_line_aa_alpha_measured)
{
    static const int m[][7] = {
        {5832, 1205, 6108, 1039, 364, 75, 80}, {2470, 191, 2544, 154, 158, 9, 31}, {2470, 191, 2544, 154, 156, 10, 31},
        {328, 240, 198, 171, 13, 11, 73},      {7310, 112, 7502, 157, 461, 8, 22}, {5529, 766, 5559, 569, 347, 37, 37},
        {4038, 929, 4232, 1136, 253, 59, 71},  {2801, 1456, 2632, 1657, 172, 94, 31}, {1616, 2013, 1699, 1796, 101, 124, 127},
        {2279, 2535, 2310, 2229, 144, 141, 40}, {7629, 2356, 7550, 2350, 474, 147, 20}, {6299, 2652, 6609, 2836, 403, 171, 109},
        {4407, 3243, 4531, 3239, 275, 202, 80},
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        struct rt t;
        rt_init(&t);
        cmd(&t, GE_ANTIALIAS_ON, 1);
        cmd(&t, GE_BLEND_ON, 1);
        cmd(&t, GE_BLEND_MODE, PX_BF_SRC_A | PX_BF_INV_SRC_A << 4);
        struct vtx v[2] = {{m[i][0], m[i][1], 0, 0xFFFFFFFFu, 0, 0}, {m[i][2], m[i][3], 0, 0xFFFFFFFFu, 0, 0}};
        prim(&t, P_LINES, VF_FLOAT, v, 2);
        rt_run(&t);
        unsigned a = (unsigned)m[i][6], ch = ((2 * 255 + 1) * (2 * a + 1)) >> 10;
        uint32_t got = fbpx(&t, m[i][4], m[i][5]) & 0xFFFFFF;
        CHECK_MSG(got == (ch | ch << 8 | ch << 16), "line %zu pixel (%d,%d): 0x%06x, PSP alpha %u gives 0x%06x", i,
                  m[i][4], m[i][5], got, a, ch | ch << 8 | ch << 16);
        rt_free(&t);
    }
}

/* ---- 7. Pixels past the stride --------------------------------------------- */

static void past_stride_state(struct rt *t)
{
    cmd(t, GE_FB_WIDTH, 64);
    cmd(t, GE_SCISSOR1, 0);
    cmd(t, GE_SCISSOR2, 127 | 31u << 10);
}

/* The colour buffer word at pixel index i (stride 64). */
static uint32_t at64(const struct rt *t, int i) { return mem_read32(&t->r->mem, VRAM + (uint32_t)i * 4); }

TEST(raster_past_stride)
{
    /* GE-HARDWARE.md §5: a pixel drawn past the framebuffer's stride lands
     * at the start of the next row in memory, and the PSP draws strictly in
     * order, so the last primitive writing an address wins. Stride 64,
     * scissor 0..127 x 0..31. Run serially and with threads and small
     * tiles, where the wrapped pixels belong to another tile than the
     * primitive's screen position. */
    static const unsigned cfg[][2] = {{1, 64}, {4, 16}, {3, 32}, {8, 16}};
    for (size_t c = 0; c < sizeof cfg / sizeof cfg[0]; c++) {
        struct gt_diag d = {0};
        /* (a) sprite x 60..69 on row 5, then a sprite on row 6 x 2..3 over
         * two of the wrapped pixels; (b) the reverse order on row 10/11. */
        struct rt t;
        rt_init(&t);
        CHECK_EQ_I(gt_render_set_threads(t.r, cfg[c][0], cfg[c][1], &d), GT_OK);
        past_stride_state(&t);
        const uint32_t C1 = 0xFF112233u, C2 = 0xFF445566u;
        sprite(&t, 60, 5, 70, 6, 0, C1, 0);
        sprite(&t, 2, 6, 4, 7, 0, C2, 0);
        sprite(&t, 2, 11, 4, 12, 0, C2, 0);
        sprite(&t, 60, 10, 70, 11, 0, C1, 0);
        /* A line and points past the stride. The horizontal line from
         * (58, 20) to (68, 20) draws x 58..67 (PPSSPP DrawLine: one pixel per
         * step from the first vertex, the last excluded); points at (100, 25)
         * and (64, 27) land at indices 25*64 + 100 and 27*64 + 64. */
        const uint32_t C3 = 0xFF778899u, C4 = 0xFFAABBCCu;
        struct vtx ln[2] = {{58 * 16, 20 * 16, 0, C3, 0, 0}, {68 * 16, 20 * 16, 0, C3, 0, 0}};
        prim(&t, P_LINES, 0, ln, 2);
        struct vtx pt[2] = {{100 * 16 + 5, 25 * 16 + 9, 0, C4, 0, 0}, {64 * 16, 27 * 16, 0, C4, 0, 0}};
        prim(&t, P_POINTS, VF_FLOAT, pt, 2);
        rt_run(&t);
        for (int i = 0; i < 64 * 32; i++) {
            uint32_t want = 0;
            /* Row 5 x 60..69 -> indices 5*64+60 .. 5*64+69 = 380..389 (x >= 64
             * wraps to 6*64 + (x - 64) = 384..389). */
            if (i >= 5 * 64 + 60 && i <= 5 * 64 + 69) want = C1;
            if (i == 6 * 64 + 2 || i == 6 * 64 + 3) want = C2;   /* later sprite wins */
            if (i == 11 * 64 + 2 || i == 11 * 64 + 3) want = C2;
            if (i >= 10 * 64 + 60 && i <= 10 * 64 + 69) want = C1; /* later sprite wins */
            if (i >= 20 * 64 + 58 && i <= 20 * 64 + 67) want = C3;
            if (i == 25 * 64 + 100 || i == 27 * 64 + 64) want = C4;
            CHECK_MSG((at64(&t, i) & 0xFFFFFF) == (want & 0xFFFFFF), "cfg %zu: index %d (row %d col %d): 0x%08x, want 0x%08x",
                      c, i, i / 64, i % 64, at64(&t, i), want);
        }
        rt_free(&t);

        /* (c) One Gouraud triangle over x 8..127 (rows 0..31 after the scissor): a pixel
         * at x >= 64 of row y lands on row y + 1's pixel x - 64, which the
         * same triangle also covers when that is inside it; the GE walks rows
         * top to bottom (PPSSPP, raster.h), so row y + 1's own pixel is
         * drawn later and wins. R runs with x: 0 at x 8 and 238 at x 127,
         * so the two candidates differ by about 128 and are told apart. */
        rt_init(&t);
        CHECK_EQ_I(gt_render_set_threads(t.r, cfg[c][0], cfg[c][1], &d), GT_OK);
        past_stride_state(&t);
        struct vtx v[3] = {{8 * 16, 0, 0, 0xFF000000u, 0, 0}, {128 * 16, 0, 0, 0xFF0000F0u, 0, 0},
                           {128 * 16, 40 * 16, 0, 0xFF0000F0u, 0, 0}};
        int64_t X[3] = {v[0].x, v[1].x, v[2].x}, Y[3] = {v[0].y, v[1].y, v[2].y};
        uint32_t col[3] = {v[0].c, v[1].c, v[2].c};
        prim(&t, P_TRIS, VF_FLOAT, v, 3);
        rt_run(&t);
        unsigned overlaps = 0;
        for (int i = 0; i < 64 * 32; i++) {
            /* The screen pixels that write index i: (i % 64 + 64 k, i / 64 - k),
             * last in walk order = the lowest row, i.e. k = 0 first. */
            int want = -1, nwriters = 0;
            for (int k = 0; k <= 1; k++) {
                int x = i % 64 + 64 * k, y = i / 64 - k;
                if (y < 0 || x > 127 || y > 31) continue;
                if (!pb_tri_cov(X, Y, pb_tri_sample(x), pb_tri_sample(y))) continue;
                nwriters++;
                if (want < 0) want = bary_floor(X, Y, col, 0, pb_tri_sample(x), pb_tri_sample(y));
            }
            uint32_t got = at64(&t, i);
            if (want < 0) {
                CHECK_MSG(got == 0, "cfg %zu tri: index %d not drawn but 0x%08x", c, i, got);
                continue;
            }
            overlaps += nwriters == 2;
            int g = (int)(got & 0xFF);
            CHECK_MSG(g >= want - 1 && g <= want + 1, "cfg %zu tri: index %d (row %d col %d) R %d, want %d +- 1", c, i,
                      i / 64, i % 64, g, want);
        }
        CHECK_MSG(overlaps > 50, "only %u overlapping addresses", overlaps);
        rt_free(&t);
    }
}

/* ---- 8. Threads and tiles -------------------------------------------------- */

/* A list mixing blended triangles, sprites, lines, points, a textured
 * sprite, a depth-tested part and a past-stride part. */
static void busy_list(struct rt *t)
{
    rnd_state = 777;
    for (uint32_t v = 0; v < 16; v++)
        for (uint32_t u = 0; u < 16; u++) mem_write32(&t->r->mem, TEXADDR + (v * 16 + u) * 4, 0x805A0000u | v << 12 | u << 4);
    /* Clear the top half (colour, stencil, depth). */
    cmd(t, GE_CLEAR_MODE, 1 | 0x700);
    sprite(t, 0, 0, 480, 136, 0, 0x40302010u, 0x100);
    cmd(t, GE_CLEAR_MODE, 0);
    /* Alpha-blended Gouraud triangles, strips and fans. */
    cmd(t, GE_BLEND_ON, 1);
    cmd(t, GE_BLEND_MODE, 2 | 3u << 4);
    for (int i = 0; i < 40; i++) {
        /* Around a random centre (some off the screen's edges), up to 40
         * pixels away: many tiles, but few pixels in all. */
        int32_t cx = (int32_t)rnd(560 * 16) - 40 * 16, cy = (int32_t)rnd(330 * 16) - 30 * 16;
        struct vtx v[5];
        for (int k = 0; k < 5; k++)
            v[k] = (struct vtx){cx + (int32_t)rnd(80 * 16) - 40 * 16, cy + (int32_t)rnd(80 * 16) - 40 * 16, 0,
                                rnd(0xFFFFFFFFu), 0, 0};
        unsigned type = i % 3 == 0 ? P_TRIS : i % 3 == 1 ? P_STRIP : P_FAN;
        prim(t, type, VF_FLOAT, v, type == P_TRIS ? 3 : 5);
    }
    /* Additive sprites. */
    additive(t);
    for (int i = 0; i < 20; i++) {
        int32_t cx = (int32_t)rnd(500 * 16), cy = (int32_t)rnd(290 * 16);
        struct vtx v[2] = {{cx, cy, 0, 0, 0, 0},
                           {cx + (int32_t)rnd(100 * 16) - 50 * 16, cy + (int32_t)rnd(100 * 16) - 50 * 16, 0, rnd(0x3F3F3F), 0, 0}};
        prim(t, P_RECTS, VF_FLOAT, v, 2);
    }
    /* Lines and points. */
    cmd(t, GE_BLEND_ON, 0);
    for (int i = 0; i < 10; i++) {
        struct vtx v[2] = {{(int32_t)rnd(480 * 16), (int32_t)rnd(272 * 16), 0, rnd(0xFFFFFFFFu), 0, 0},
                           {(int32_t)rnd(480 * 16), (int32_t)rnd(272 * 16), 0, rnd(0xFFFFFFFFu), 0, 0}};
        prim(t, P_LINES, VF_FLOAT, v, 2);
    }
    struct vtx pts[30];
    for (int i = 0; i < 30; i++) pts[i] = (struct vtx){(int32_t)rnd(480 * 16), (int32_t)rnd(272 * 16), 0, rnd(0xFFFFFFFFu), 0, 0};
    prim(t, P_POINTS, VF_FLOAT, pts, 30);
    /* A scaled bilinear textured sprite. */
    cmd(t, GE_TEXTURE_ON, 1);
    cmd(t, GE_TEX_ADDR0, TEXADDR & 0xFFFFF0);
    cmd(t, GE_TEX_BUFW0, 16 | ((TEXADDR >> 24) & 0xF) << 16);
    cmd(t, GE_TEX_SIZE0, 4 | 4u << 8);
    cmd(t, GE_TEX_FORMAT, 3);
    cmd(t, GE_TEX_FILTER, 1 | 0x100);
    cmd(t, GE_TEX_FUNC, 0);
    cmd(t, GE_TEX_FLUSH, 0);
    struct vtx ts[2] = {{37 * 16 + 3, 41 * 16 + 9, 0, 0xFFFFFFFFu, 0, 0}, {150 * 16 + 5, 133 * 16, 0, 0xFF80C0FFu, 16, 16}};
    prim(t, P_RECTS, VF_TEX | VF_FLOAT, ts, 2);
    cmd(t, GE_TEXTURE_ON, 0);
    /* Depth-tested triangles with varying depth. */
    cmd(t, GE_ZTEST_ON, 1);
    cmd(t, GE_Z_TEST, 7);
    cmd(t, GE_Z_WRITE_DISABLE, 0);
    for (int i = 0; i < 30; i++) {
        int32_t cx = (int32_t)rnd(480 * 16), cy = (int32_t)rnd(272 * 16);
        struct vtx v[3];
        for (int k = 0; k < 3; k++)
            v[k] = (struct vtx){cx + (int32_t)rnd(100 * 16) - 50 * 16, cy + (int32_t)rnd(100 * 16) - 50 * 16,
                                (uint16_t)rnd(65536), rnd(0xFFFFFFFFu), 0, 0};
        prim(t, P_TRIS, VF_FLOAT, v, 3);
    }
    cmd(t, GE_ZTEST_ON, 0);
    /* Past the stride: another colour buffer (at VRAM + 0x100000), stride
     * 64, drawn up to x 255. */
    cmd(t, GE_FB_PTR, 0x100000);
    cmd(t, GE_FB_WIDTH, 64);
    cmd(t, GE_SCISSOR2, 255 | 63u << 10);
    for (int i = 0; i < 15; i++) {
        struct vtx v[3];
        for (int k = 0; k < 3; k++) v[k] = (struct vtx){(int32_t)rnd(256 * 16), (int32_t)rnd(64 * 16), 0, rnd(0xFFFFFFFFu), 0, 0};
        prim(t, P_TRIS, VF_FLOAT, v, 3);
        struct vtx s[2] = {{(int32_t)rnd(256 * 16), (int32_t)rnd(64 * 16), 0, 0, 0, 0},
                           {(int32_t)rnd(256 * 16), (int32_t)rnd(64 * 16), 0, rnd(0xFFFFFFFFu), 0, 0}};
        prim(t, P_RECTS, VF_FLOAT, s, 2);
        struct vtx ln[2] = {{(int32_t)rnd(256 * 16), (int32_t)rnd(64 * 16), 0, rnd(0xFFFFFFFFu), 0, 0},
                            {(int32_t)rnd(256 * 16), (int32_t)rnd(64 * 16), 0, rnd(0xFFFFFFFFu), 0, 0}};
        prim(t, P_LINES, VF_FLOAT, ln, 2);
        struct vtx pt = {(int32_t)rnd(256 * 16), (int32_t)rnd(64 * 16), 0, rnd(0xFFFFFFFFu), 0, 0};
        prim(t, P_POINTS, VF_FLOAT, &pt, 1);
    }
    /* And back to the first buffer for a last blended layer. */
    cmd(t, GE_FB_PTR, 0);
    cmd(t, GE_FB_WIDTH, 512);
    cmd(t, GE_SCISSOR2, 479 | 271u << 10);
    cmd(t, GE_BLEND_ON, 1);
    cmd(t, GE_BLEND_MODE, 2 | 3u << 4);
    for (int i = 0; i < 10; i++) {
        int32_t cx = (int32_t)rnd(480 * 16), cy = (int32_t)rnd(272 * 16);
        struct vtx v[3];
        for (int k = 0; k < 3; k++)
            v[k] = (struct vtx){cx + (int32_t)rnd(100 * 16) - 50 * 16, cy + (int32_t)rnd(100 * 16) - 50 * 16, 0,
                                rnd(0xFFFFFFFFu), 0, 0};
        prim(t, P_TRIS, VF_FLOAT, v, 3);
    }
}

TEST(raster_threads_tiles)
{
    /* The output is byte-identical for every thread count and tile size
     * (render.h; GE-HARDWARE.md §5: strictly in order, also for pixels past
     * the stride): all 2 MiB of VRAM compared with 1 thread and 64-pixel
     * tiles. */
    uint8_t *ref = malloc(GT_VRAM_SIZE), *got = malloc(GT_VRAM_SIZE);
    CHECK(ref && got);
    struct gt_diag d = {0};
    struct rt t;
    rt_init(&t);
    CHECK_EQ_I(gt_render_set_threads(t.r, 1, 64, &d), GT_OK);
    busy_list(&t);
    rt_run(&t);
    mem_read(&t.r->mem, VRAM, ref, GT_VRAM_SIZE);
    /* Sanity: the list drew in both buffers. */
    unsigned changed = 0, changed2 = 0;
    for (uint32_t i = 0; i < 512 * 272 * 4; i += 4) changed += ref[i] != (i < 512 * 136 * 4 ? 0x10 : 0);
    for (uint32_t i = 0x100000; i < 0x100000 + 64 * 64 * 4; i += 4) changed2 += ref[i] != 0;
    CHECK_MSG(changed > 20000 && changed2 > 1000, "drawn %u / %u", changed, changed2);
    rt_free(&t);

    static const unsigned threads[] = {1, 2, 3, 4, 8}, tiles[] = {16, 32, 64, 128, 256};
    for (size_t a = 0; a < 5; a++)
        for (size_t b = 0; b < 5; b++) {
            rt_init(&t);
            CHECK_EQ_I(gt_render_set_threads(t.r, threads[a], tiles[b], &d), GT_OK);
            busy_list(&t);
            rt_run(&t);
            mem_read(&t.r->mem, VRAM, got, GT_VRAM_SIZE);
            for (uint32_t i = 0; i < GT_VRAM_SIZE; i++)
                CHECK_MSG(got[i] == ref[i], "threads %u tile %u: VRAM byte 0x%06x is 0x%02x, want 0x%02x", threads[a],
                          tiles[b], i, got[i], ref[i]);
            rt_free(&t);
        }
    free(ref);
    free(got);
}

TEST(raster_depth_after_color_is_tiled)
{
    /* Tiles partition memory, so a depth-tested draw runs tiled only when no
     * byte can be written as both color and depth (binning/binner.c). Color
     * 512 wide, 32-bit, scissor over all 512 x 272 pixels: bytes [0,
     * 512 * 272 * 4) = [0, 0x88000). Pixels stay inside their aligned group
     * of 4 even when REGION1 reverses them (GE-HARDWARE.md §5), so nothing
     * is written past 0x88000: depth at 0x88000 shares no byte and the
     * scene is tiled; depth 4 bytes lower overlaps the last color pixel and
     * the scene runs as one tile. Either way the image is the same for 1
     * and 2 threads. */
    static const uint32_t zoffs[2] = {ZOFF, ZOFF - 4};
    for (int k = 0; k < 2; k++) {
        uint32_t got[2][64];
        for (unsigned threads = 1; threads <= 2; threads++) {
            struct gt_diag d = {0};
            struct rt t;
            rt_init(&t);
            CHECK_EQ_I(gt_render_set_threads(t.r, threads, 64, &d), GT_OK);
            cmd(&t, GE_Z_PTR, zoffs[k]);
            cmd(&t, GE_SCISSOR2, 511 | 271u << 10);
            cmd(&t, GE_ZTEST_ON, 1);
            cmd(&t, GE_Z_TEST, 7);
            const struct vtx v[3] = {{0, 0, 100, 0xFF405060u, 0, 0},
                                     {512 * 16, 0, 100, 0xFF405060u, 0, 0},
                                     {0, 272 * 16, 100, 0xFF405060u, 0, 0}};
            prim(&t, P_TRIS, 0, v, 3);
            rt_run(&t);
            gt_render_finish(t.r);
            CHECK_EQ_U(t.r->binner.stats.scenes_serial, k == 0 ? 0 : 1);
            for (unsigned i = 0; i < 64; i++) got[threads - 1][i] = mem_read32(&t.r->mem, VRAM + 4 * 97 * i);
            rt_free(&t);
        }
        CHECK(memcmp(got[0], got[1], sizeof got[0]) == 0);
        CHECK_EQ_U(got[0][0] & 0xFFFFFFu, 0x405060u); /* alpha holds stencil bits */
    }
}

/* ---- 9. Scissor ------------------------------------------------------------ */

TEST(raster_scissor)
{
    /* SCISSOR1/2 are inclusive (x bits 0-9, y bits 10-19); the right and
     * bottom are limited by REGION2 (PPSSPP BinManager: min of scissor and
     * region). A sprite and a triangle larger than the scissor draw only
     * inside it. */
    for (int part = 0; part < 3; part++) {
        struct rt t;
        rt_init(&t);
        int sx0 = 20, sy0 = 30, sx1 = 99, sy1 = 79;
        if (part == 2) {
            /* Scissor to the screen, REGION2 smaller. */
            sx0 = 5, sy0 = 7, sx1 = 49, sy1 = 39;
            cmd(&t, GE_SCISSOR1, 5 | 7u << 10);
            cmd(&t, GE_SCISSOR2, 479 | 271u << 10);
            cmd(&t, GE_REGION2, 49 | 39u << 10);
        } else {
            cmd(&t, GE_SCISSOR1, 20 | 30u << 10);
            cmd(&t, GE_SCISSOR2, 99 | 79u << 10);
        }
        int64_t X[3] = {-40 * 16 + 3, 250 * 16 + 5, 60 * 16 + 11}, Y[3] = {-20 * 16, 40 * 16 + 7, 200 * 16 + 1};
        if (part == 1) {
            struct vtx v[3];
            for (int i = 0; i < 3; i++) v[i] = (struct vtx){(int32_t)X[i], (int32_t)Y[i], 0, 0xFF00C0E0u, 0, 0};
            prim(&t, P_TRIS, VF_FLOAT, v, 3);
        } else {
            sprite(&t, 0, 0, 200, 150, 0, 0xFF00C0E0u, 0);
        }
        rt_run(&t);
        for (int y = 0; y < 272; y++)
            for (int x = 0; x < 480; x++) {
                bool in = x >= sx0 && x <= sx1 && y >= sy0 && y <= sy1;
                if (part == 1) in = in && pb_tri_cov(X, Y, pb_tri_sample(x), pb_tri_sample(y));
                uint32_t want = in ? 0xC0E0u : 0;
                CHECK_MSG((fbpx(&t, x, y) & 0xFFFFFF) == want, "part %d pixel (%d,%d): 0x%08x", part, x, y, fbpx(&t, x, y));
            }
        rt_free(&t);
    }
}

/* ---- 10. Clear mode ------------------------------------------------------------ */

TEST(raster_clear_mode)
{
    /* CLEAR_MODE bit 0 with bit 8 (colour), 9 (alpha/stencil), 10 (depth)
     * (GPUState.h isClearModeColorMask / AlphaMask / DepthMask): a clear
     * sprite writes only what its flags select; depth is v1's z. */
    static const uint32_t flags[] = {0x400, 0x100, 0x300, 0x700, 0x200};
    for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++) {
        struct rt t;
        rt_init(&t);
        struct gt_diag d = {0};
        CHECK_EQ_I(mem_fill(&t.r->mem, VRAM, 0x77, 512 * 272 * 4, &d), GT_OK);
        CHECK_EQ_I(mem_fill(&t.r->mem, ZBUF, 0x55, 512 * 272 * 2, &d), GT_OK);
        cmd(&t, GE_CLEAR_MODE, 1 | flags[f]);
        struct vtx v[2] = {{40 * 16, 40 * 16, 0x9999, 0x01020304u, 0, 0}, {60 * 16, 50 * 16, 0x1234, 0xAABBCCDDu, 0, 0}};
        prim(&t, P_RECTS, 0, v, 2);
        cmd(&t, GE_CLEAR_MODE, 0);
        rt_run(&t);
        bool col = flags[f] & 0x100, alpha = flags[f] & 0x200, dep = flags[f] & 0x400;
        for (int y = 30; y < 60; y++)
            for (int x = 30; x < 70; x++) {
                bool in = x >= 40 && x < 60 && y >= 40 && y < 50;
                uint32_t wc = 0x77777777u;
                if (in && col) wc = (wc & 0xFF000000u) | 0xBBCCDDu;
                if (in && alpha) wc = (wc & 0x00FFFFFFu) | 0xAA000000u;
                uint16_t wz = in && dep ? 0x1234 : 0x5555;
                CHECK_MSG(fbpx(&t, x, y) == wc, "flags 0x%x pixel (%d,%d): 0x%08x, want 0x%08x", flags[f], x, y,
                          fbpx(&t, x, y), wc);
                CHECK_MSG(zpx(&t, x, y) == wz, "flags 0x%x depth (%d,%d): 0x%04x, want 0x%04x", flags[f], x, y, zpx(&t, x, y),
                          wz);
            }
        rt_free(&t);
    }
}
