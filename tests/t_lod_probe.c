/* Mip level selection and texture-coordinate probes rendered end to end
 * (GE-HARDWARE.md §2 and §8): display lists built here run through
 * gt_render_list, then VRAM is read back.
 *
 * Readouts (§8, "design the readout first"):
 *  - a mip chain whose every level is filled with its own constant colour,
 *    sampled nearest: a pixel names the level it was drawn from;
 *  - a "ramp" texture whose texel (x, y) holds R = 16 x, G = 16 y: with
 *    bilinear filtering R = 16 x0 + fu, so a pixel shows where its
 *    coordinate landed, in 1/16 texel.
 *
 * Expected values never come from running the code under test. They come
 * from GE-HARDWARE.md §2 (the LOD is computed once per 4-pixel span at the
 * span's second pixel in the walk direction; gradients are divided by the
 * area through the 256-segment reciprocal table, whose function
 * gemath_area_recip is tested on its own in t_gemath_tables.c), from the
 * LOD and filter formulas that pipeline/sampler.h documents from PPSSPP's
 * software renderer (the GE's cheap log2 "exponent plus the top 4 mantissa
 * bits", the nearest mip level rounding halves up, the bias in 1/16 levels,
 * the constant and slope modes, the linear mip blend, the 4-bit bilinear
 * weights with their truncations), and from models written here in their
 * own form: perspective-correct texture coordinates as exact barycentric
 * ratios in doubles, coverage as exact integer edge tests, the log2 through
 * frexp. Where a model depends on one of getile's documented model choices
 * (the left-to-right walk, 16 fraction bits in the planes) the test says so
 * next to it. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "dlbuild.h"
#include "gemath.h"
#include "probe.h"
#include "render.h"
#include "test.h"

#define LP_MIP 0x08300000u  /* the mip chain, 256x256 at level 0 */
#define LP_RAMP 0x08400000u /* the 16x16 ramp texture */

/* ---- Harness (tests/probe.h) ------------------------------------------------ */

/* Projection (out.k = x p[k] + y p[4+k] + z p[8+k] + w p[12+k]) whose clip
 * w is the model z and clip z is 0: a vertex (X w, Y w, w) lands on screen
 * (X, Y) under the pixel viewport, with any w. */
static const float PROJ_W_FROM_Z[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0};

/* A fresh context (pb_init: 8888 colour buffer at VRAM 0, scissor 0..479 x
 * 0..271, the pixel viewport, screen = clip / w), no depth test, identity
 * world/view, PROJ_W_FROM_Z, texture coordinates unscaled, texturing on
 * with TEX_FUNC replace RGBA (the pixel is the texel). */
static void lp_init(struct pb *t)
{
    pb_init(t, 32768);
    pb_matrices(t, pb_id43, pb_id43, PROJ_W_FROM_Z);
    pb_cmdf(t, R_TEXSCALE_U, 1);
    pb_cmdf(t, R_TEXSCALE_V, 1);
    pb_cmdf(t, R_TEXOFFSET_U, 0);
    pb_cmdf(t, R_TEXOFFSET_V, 0);
    pb_cmd(t, GE_TEX_MAPMODE, 0);
    pb_cmd(t, GE_TEXTURE_ON, 1);
    pb_cmd(t, GE_TEX_FUNC, 3 | 1u << 8);
}

enum { P_TRIS = 3, P_RECTS = 6 };

/* A through-mode vertex: pixel position, u16 texel coordinates. */
struct thv { int x, y; uint16_t u, v; };

/* Through mode, u16 texcoords, 8888 colour, s16 position: texcoord at 0,
 * colour at 4, position at 8, stride 16. */
static void draw_through(struct pb *t, unsigned type, const struct thv *v, unsigned n)
{
    uint32_t a = t->vnext;
    for (unsigned i = 0; i < n; i++, a += 16) {
        mem_write16(&t->r->mem, a, v[i].u);
        mem_write16(&t->r->mem, a + 2, v[i].v);
        mem_write32(&t->r->mem, a + 4, 0xFFFFFFFFu);
        mem_write16(&t->r->mem, a + 8, (uint16_t)(int16_t)v[i].x);
        mem_write16(&t->r->mem, a + 10, (uint16_t)(int16_t)v[i].y);
        mem_write16(&t->r->mem, a + 12, 0);
    }
    pb_emit_prim(t, 2u | 7u << 2 | 2u << 7 | 1u << 23, t->vnext, type, n);
    t->vnext = (a + 15) & ~15u;
    CHECK(t->vnext < LP_MIP);
}

/* A transform-mode vertex: screen position (x, y) in 1/16 pixel, clip w,
 * normalised texture coordinates. Written as the model position
 * (x / 16 * w, y / 16 * w, w), which PROJ_W_FROM_Z and the pixel viewport
 * bring back to (x, y) exactly when w is a power of two (1/w is exact in
 * the reciprocal table at segment starts, the products have few bits, and
 * 2048 + x has the ulp 1/16). */
struct trv { int x16, y16; float w, s, tt; };

/* Float texcoords (8 bytes), 8888 colour, float position: stride 24. */
static void draw_transform(struct pb *t, unsigned type, const struct trv *v, unsigned n)
{
    uint32_t a = t->vnext;
    for (unsigned i = 0; i < n; i++, a += 24) {
        mem_write32(&t->r->mem, a, pb_f32bits(v[i].s));
        mem_write32(&t->r->mem, a + 4, pb_f32bits(v[i].tt));
        mem_write32(&t->r->mem, a + 8, 0xFFFFFFFFu);
        mem_write32(&t->r->mem, a + 12, pb_f32bits((float)v[i].x16 / 16.0f * v[i].w));
        mem_write32(&t->r->mem, a + 16, pb_f32bits((float)v[i].y16 / 16.0f * v[i].w));
        mem_write32(&t->r->mem, a + 20, pb_f32bits(v[i].w));
    }
    pb_emit_prim(t, 3u | 7u << 2 | 3u << 7, t->vnext, type, n);
    t->vnext = (a + 15) & ~15u;
    CHECK(t->vnext < LP_MIP);
}

static uint32_t rgb(const struct pb *t, int x, int y)
{
    return mem_read32(&t->r->mem, PB_VRAM + ((uint32_t)y * 512 + (uint32_t)x) * 4) & 0xFFFFFF;
}

static void clear_fb(struct pb *t)
{
    struct gt_diag d = {0};
    CHECK_EQ_I(mem_fill(&t->r->mem, PB_VRAM, 0, 512 * 272 * 4, &d), GT_OK);
}

/* ---- The marked mip chain ------------------------------------------------- */

/* Level n's colour (RGB, all eight distinct, none black). */
static uint32_t lvcol(unsigned n)
{
    return (0x20u + 0x1Cu * n) | (0xE0u - 0x18u * n) << 8 | ((n * 0x35u + 0x11u) & 0xFF) << 16;
}

/* Which level a pixel's colour names, or -1. */
static int level_of(uint32_t c)
{
    for (unsigned n = 0; n < 8; n++)
        if (lvcol(n) == c) return (int)n;
    return -1;
}

/* 8888 levels 0..7 of 256 >> n squared texels, consecutive from LP_MIP,
 * each filled with lvcol(n) (alpha 255). The registers: TEX_ADDRn,
 * TEX_BUFWn (at least 4 texels: 16 bytes), TEX_SIZEn; wrap in both axes.
 * TEX_MODE (max level), TEX_FILTER and TEX_LEVEL are set by each case. */
static void mip_chain(struct pb *t)
{
    uint32_t a = LP_MIP;
    for (unsigned n = 0; n < 8; n++) {
        uint32_t sz = 256u >> n, bw = sz < 4 ? 4 : sz;
        for (uint32_t i = 0; i < bw * sz; i++) mem_write32(&t->r->mem, a + 4 * i, 0xFF000000u | lvcol(n));
        pb_cmd(t, GE_TEX_ADDR0 + n, a & 0xFFFFF0);
        pb_cmd(t, GE_TEX_BUFW0 + n, bw | ((a >> 24) & 0xF) << 16);
        pb_cmd(t, GE_TEX_SIZE0 + n, (8 - n) | (8 - n) << 8);
        a += (bw * sz * 4 + 15) & ~15u;
    }
    CHECK(a <= LP_RAMP);
    pb_cmd(t, GE_TEX_FORMAT, 3);
    pb_cmd(t, GE_TEX_WRAP, 0);
    pb_cmd(t, GE_TEX_FLUSH, 0);
}

/* TEX_MODE's max level (bits 16-18), TEX_FILTER (bit 0 minify linear, bit
 * 1 linear between levels, bit 2 mipmaps on, bit 8 magnify linear),
 * TEX_LEVEL (mode bits 0-1, bias bits 16-23 as a signed 4.4 byte). */
static void lod_regs(struct pb *t, unsigned max, uint32_t filter, unsigned mode, int bias16)
{
    pb_cmd(t, GE_TEX_MODE, max << 16);
    pb_cmd(t, GE_TEX_FILTER, filter);
    pb_cmd(t, GE_TEX_LEVEL, mode | ((uint32_t)bias16 & 0xFF) << 16);
}

enum { F_MIP = 4, F_MIPLIN = 2 };

/* ---- The LOD model (sampler.h, from PPSSPP Rasterizer.cpp TexLog2 and
 * CalculateSamplingParams), written here independently ---------------- */

/* The GE's log2 of r > 0 in 1/16 levels: r = 2^e (1 + m), 0 <= m < 1, gives
 * 16 e + floor(16 m): a straight line between powers of two, truncated
 * (so 3 gives 24, i.e. 1.5, not 1.585). Zero gives a value far below any
 * level. Computed with frexp, not with the float's bit fields. */
static int detail16(double r)
{
    if (r <= 0) return -127 * 16;
    int ex;
    double m = frexp(r, &ex); /* r = m 2^ex, 0.5 <= m < 1 */
    return 16 * (ex - 1) + (int)floor(16.0 * (2.0 * m - 1.0));
}

/* Level and fraction for a detail d (bias already added) with mipmaps up
 * to `max`: magnified (d <= 0) or no levels: level 0. Nearest mip filter:
 * the nearest level, halves up (d / 16 + 1/2, floored). Linear mip filter:
 * the level below and the 4-bit fraction toward the next. Both limited to
 * max, where the fraction is 0. */
static void level_from_detail(int d, unsigned max, bool mip_linear, unsigned *level, unsigned *frac)
{
    *level = 0, *frac = 0;
    if (d <= 0 || max == 0) return;
    if (d >= 16 * (int)max) {
        *level = max;
        return;
    }
    if (mip_linear) {
        *level = (unsigned)d / 16;
        *frac = (unsigned)d % 16;
    } else {
        *level = (unsigned)floor(d / 16.0 + 0.5);
    }
}

/* The colour a marked chain gives at level L with fraction f: the blend of
 * two constant levels, per channel (c(L+1) f + c(L) (16 - f)) >> 4. */
static uint32_t level_colour(unsigned level, unsigned frac)
{
    if (frac == 0) return lvcol(level);
    uint32_t c0 = lvcol(level), c1 = lvcol(level + 1), out = 0;
    for (unsigned sh = 0; sh < 24; sh += 8)
        out |= ((((c1 >> sh) & 0xFF) * frac + ((c0 >> sh) & 0xFF) * (16 - frac)) >> 4) << sh;
    return out;
}

/* ---- 1. The LOD of a span: its second pixel -------------------------------- */

/* Strict point-in-triangle of sample (X, Y) (integers, 1/16 pixel) against
 * counter-clockwise-or-clockwise vertices; *tie is set when the sample lies
 * on an edge line (the geometry below is chosen so that never happens, so
 * the fill rule is not involved). */
static bool inside(const struct trv v[3], int64_t X, int64_t Y, bool *tie)
{
    int64_t e[3];
    for (unsigned i = 0; i < 3; i++) {
        const struct trv *a = &v[i], *b = &v[(i + 1) % 3];
        e[i] = ((int64_t)b->x16 - a->x16) * (Y - a->y16) - ((int64_t)b->y16 - a->y16) * (X - a->x16);
        if (e[i] == 0) *tie = true;
    }
    return (e[0] > 0 && e[1] > 0 && e[2] > 0) || (e[0] < 0 && e[1] < 0 && e[2] < 0);
}

/* The q of triangle v's Q plane at pixel (x, y), as the GE's planes give
 * it (ge-arithmetic.md "Planes", ge-raster-pipeline.md "Texture
 * coordinates"): per vertex q = 1/w (w powers of two here, so exact), the
 * three as 15-bit integers at their largest exponent, gradients floor(n q /
 * 2^(e + 2)) with the setup reciprocal (gemath_setup_recip, tested against
 * the PSP's values), anchored at the leftmost vertex (this triangle has a
 * flat top, so it is never anchored at the right), floored at the centre. */
static double model_q(const struct trv v[3], int x, int y)
{
    double Q[3];
    int eb = -1000;
    for (int i = 0; i < 3; i++) {
        Q[i] = 1.0 / v[i].w;
        int ex;
        frexp(Q[i], &ex);
        if (ex - 1 > eb) eb = ex - 1;
    }
    int64_t qi[3], X[3], Y[3];
    for (int i = 0; i < 3; i++) qi[i] = (int64_t)ldexp(Q[i], 14 - eb), X[i] = v[i].x16, Y[i] = v[i].y16;
    int64_t det = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
    int64_t nx = (qi[1] - qi[0]) * (Y[2] - Y[0]) - (qi[2] - qi[0]) * (Y[1] - Y[0]);
    int64_t ny = (qi[2] - qi[0]) * (X[1] - X[0]) - (qi[1] - qi[0]) * (X[2] - X[0]);
    unsigned e;
    uint64_t r = gemath_setup_recip((uint64_t)(det < 0 ? -det : det), &e);
    int64_t sg = det < 0 ? -1 : 1;
    int64_t gx = (int64_t)floor(ldexp((double)(sg * nx) * (double)r, -(int)(e + 2)));
    int64_t gy = (int64_t)floor(ldexp((double)(sg * ny) * (double)r, -(int)(e + 2)));
    int an = 0;
    for (int i = 1; i < 3; i++)
        if (X[i] < X[an] || (X[i] == X[an] && Y[i] < Y[an])) an = i;
    int64_t num = qi[an] * 16384 + gx * (16 * (int64_t)x + 8 - X[an]) + gy * (16 * (int64_t)y + 8 - Y[an]);
    return ldexp(floor(ldexp((double)num, -14)), eb - 14);
}

/* The level the auto LOD gives when its q is taken at pixel (x, y)
 * (measured, ge-raster-pipeline.md "Mip level selection"): D = log16(g) -
 * log16(q), g the texture planes' largest gradient in texels per pixel:
 * here s/w runs 0 .. 1/16 over 32 pixels along x only, 1/512 per pixel,
 * times the 256-texel width: 0.5 (exact in the GE's planes: the doubled
 * area is 2^21). Nearest mip filter, bias 0, max 7. */
static unsigned model_level(const struct trv v[3], int x, int y)
{
    int d = detail16(0.5) - detail16(model_q(v, x, y));
    unsigned l, f;
    level_from_detail(d, 7, false, &l, &f);
    return l;
}

/* GE-HARDWARE.md §2 and the measured rule: the mip level's q is taken once
 * per 4-pixel span, at the span's second pixel in walking order (left to
 * right here: x = (x & ~3) + 1), or at the span's first covered pixel when
 * that one is outside the triangle. A perspective triangle (transform
 * mode) whose w runs from 1 at x = 196 to 16 at x = 228, so q falls from 1
 * to 1/16 across 32 columns and the level (0..7) changes every few
 * columns: inside many spans the per-pixel level would differ. Auto LOD,
 * nearest mip filter, 8 levels each marked with its own colour. The left
 * side is a steep diagonal (1/8 pixel per row), so on many rows the second
 * pixel of a span is uncovered and the first covered one decides. */
TEST(lod_span_second_pixel)
{
    struct pb t;
    lp_init(&t);
    mip_chain(&t);
    lod_regs(&t, 7, F_MIP, 0, 0);
    /* A (196, 8) w 1 s 0; B (228, 8) w 16 s 1; C (228, 264) w 16 s 1;
     * t = 0 everywhere. No pixel centre lies on an edge (checked), so the
     * fill rule plays no part. */
    const struct trv v[3] = {
        {196 * 16, 8 * 16, 1, 0, 0}, {228 * 16, 8 * 16, 16, 1, 0}, {228 * 16, 264 * 16, 16, 1, 0}};
    draw_transform(&t, P_TRIS, v, 3);
    pb_run(&t);

    unsigned covered = 0, own_differs = 0, uncov_second = 0, uncov_differs = 0, third_differs = 0;
    for (int y = 4; y < 268; y++)
        for (int x = 188; x < 236; x++) {
            bool tie = false;
            bool cov = inside(v, 16 * x + 8, 16 * y + 8, &tie);
            CHECK_MSG(!tie, "centre (%d,%d) on an edge: the geometry must avoid the fill rule", x, y);
            uint32_t got = rgb(&t, x, y);
            if (!cov) {
                CHECK_MSG(got == 0, "pixel (%d,%d) outside drawn: 0x%06x", x, y, got);
                continue;
            }
            covered++;
            int s = x & ~3, pick = s + 1;
            bool t2 = false;
            bool second_cov = inside(v, 16 * (s + 1) + 8, 16 * y + 8, &t2);
            if (!second_cov) {
                pick = s;
                while (!inside(v, 16 * pick + 8, 16 * y + 8, &t2)) pick++;
            }
            unsigned want = model_level(v, pick, y);
            CHECK_MSG(got == lvcol(want), "pixel (%d,%d): level %d (0x%06x), the span's pixel %d gives level %u", x,
                      y, level_of(got), got, pick, want);
            /* How discriminating the geometry is (checked below). */
            if (model_level(v, x, y) != want) own_differs++;
            if (model_level(v, s + 2, y) != want) third_differs++;
            if (!second_cov) {
                uncov_second++;
                if (model_level(v, s + 1, y) != want) uncov_differs++;
            }
        }
    /* The triangle is big and the test discriminates: a per-pixel level, a
     * level at the span's third pixel (the second when walking right to
     * left), or at the uncovered second pixel would each change pixels. */
    CHECK_MSG(covered > 3000, "covered %u", covered);
    CHECK_MSG(own_differs >= 500, "only %u pixels whose own level differs from their span's", own_differs);
    CHECK_MSG(third_differs >= 10, "only %u pixels where the third pixel's level differs", third_differs);
    CHECK_MSG(uncov_second >= 100 && uncov_differs >= 10,
              "uncovered second pixels: %u pixels in such spans, %u of them differ", uncov_second, uncov_differs);
    pb_free(&t);
}

/* ---- 2. Auto, constant and slope LOD from the rasterizer ------------------- */

/* One 16x16-pixel cell of a test: the LOD registers, the texel extents the
 * cell's u and v run over (level-0 texels across its 16 pixels), and for
 * the slope mode the vertices' w and the slope register. */
struct lc {
    uint16_t ru, rv;
    unsigned max;
    uint32_t filter;
    unsigned mode;
    int bias;
    float w, slope;
};

/* Cell i's top-left pixel: 14 cells per row, 32 pixels apart. */
static int cell_x(unsigned i) { return 16 + 32 * (int)(i % 14); }
static int cell_y(unsigned i) { return 16 + 32 * (int)(i / 14); }

/* The colour cell c must show, from the model: through mode u and v are
 * level-0 texels, so the steps per pixel are ru / 16 and rv / 16 exactly
 * (every cell's area, 256 x 256 in 1/16 pixel squared or half of it per
 * triangle times 2, is a power of two: its gradients are exact, §2); auto
 * mode takes the larger; constant mode the bias alone; slope mode
 * log2(2 w slope). The bias is added in every mode. Mipmaps off means no
 * levels. */
static uint32_t cell_want(const struct lc *c, unsigned *level, unsigned *frac)
{
    int d;
    if (c->mode == 0) {
        double du = c->ru / 16.0, dv = c->rv / 16.0;
        d = detail16(du > dv ? du : dv);
    } else if (c->mode == 2) {
        d = detail16(2.0 * c->w * c->slope);
    } else {
        d = 0;
    }
    d += c->bias;
    unsigned max = (c->filter & F_MIP) ? c->max : 0;
    level_from_detail(d, max, (c->filter & F_MIPLIN) != 0, level, frac);
    return level_colour(*level, *frac);
}

/* Every pixel of cell i shows `want`. */
static void check_cell(const struct pb *t, unsigned i, uint32_t want, unsigned level, unsigned frac, const char *what)
{
    for (int y = cell_y(i); y < cell_y(i) + 16; y++)
        for (int x = cell_x(i); x < cell_x(i) + 16; x++) {
            uint32_t got = rgb(t, x, y);
            CHECK_MSG(got == want, "%s cell %u pixel (%d,%d): 0x%06x (level %d), want level %u fraction %u (0x%06x)",
                      what, i, x, y, got, level_of(got), level, frac, want);
        }
}

/* Draws cell i of c as a through-mode sprite (rects) or as two triangles
 * (u from 0 to ru left to right, v from 0 to rv top to bottom). */
static void draw_cell_through(struct pb *t, unsigned i, const struct lc *c, bool tris)
{
    int x = cell_x(i), y = cell_y(i);
    lod_regs(t, c->max, c->filter, c->mode, c->bias);
    if (!tris) {
        const struct thv v[2] = {{x, y, 0, 0}, {x + 16, y + 16, c->ru, c->rv}};
        draw_through(t, P_RECTS, v, 2);
    } else {
        const struct thv v[6] = {{x, y, 0, 0},           {x + 16, y, c->ru, 0},          {x, y + 16, 0, c->rv},
                                 {x + 16, y, c->ru, 0},  {x + 16, y + 16, c->ru, c->rv}, {x, y + 16, 0, c->rv}};
        draw_through(t, P_TRIS, v, 6);
    }
}

/* Auto LOD (TEX_LEVEL mode 0) from the rasterizer, through-mode sprites
 * and triangle pairs scaled 1:2 (magnified), 1:1, 2:1, 4:1, ... 256:1 over
 * a chain of 8 levels (max level 7), nearest mip filter: level = log2 of
 * the texel-per-pixel ratio, rounded to the nearest level with the GE's
 * log2. The cells pin:
 *  - each level 0..7 reached at its power of two, and 256:1 limited to 7;
 *  - the straight-line log2 and the halves-up rounding: 1.4375 texels per
 *    pixel gives detail 7 (level 0; the true log2, 0.52, would round to
 *    1), 1.5 gives detail 8 (level 1), 2.9375 = 2 x 1.46875 gives 16 + 7 (level
 *    1; the true log2, 1.55, would round to 2), 3 gives 24 (level 2);
 *  - the larger of the u and v steps decides, either way round. */
static const struct lc auto_cells[] = {
    {8, 8, 7, F_MIP, 0, 0, 0, 0},       {16, 16, 7, F_MIP, 0, 0, 0, 0},    {23, 16, 7, F_MIP, 0, 0, 0, 0},
    {24, 16, 7, F_MIP, 0, 0, 0, 0},     {32, 16, 7, F_MIP, 0, 0, 0, 0},    {47, 16, 7, F_MIP, 0, 0, 0, 0},
    {48, 16, 7, F_MIP, 0, 0, 0, 0},     {64, 16, 7, F_MIP, 0, 0, 0, 0},    {128, 16, 7, F_MIP, 0, 0, 0, 0},
    {256, 16, 7, F_MIP, 0, 0, 0, 0},    {512, 16, 7, F_MIP, 0, 0, 0, 0},   {1024, 16, 7, F_MIP, 0, 0, 0, 0},
    {2048, 16, 7, F_MIP, 0, 0, 0, 0},   {4096, 16, 7, F_MIP, 0, 0, 0, 0},  {16, 64, 7, F_MIP, 0, 0, 0, 0},
    {64, 16, 7, F_MIP, 0, 0, 0, 0},     {16, 130, 7, F_MIP, 0, 0, 0, 0},   {130, 24, 7, F_MIP, 0, 0, 0, 0},
    {16, 23, 7, F_MIP, 0, 0, 0, 0},     {16, 24, 7, F_MIP, 0, 0, 0, 0},
};

TEST(lod_auto_ratios)
{
    enum { N = sizeof auto_cells / sizeof auto_cells[0] };
    /* The model's levels for the cells named above. */
    static const unsigned expect_level[N] = {0, 0, 0, 1, 1, 1, 2, 2, 3, 4, 5, 6, 7, 7, 2, 2, 3, 3, 0, 1};
    struct pb t;
    lp_init(&t);
    mip_chain(&t);
    for (unsigned pass = 0; pass < 2; pass++) {
        clear_fb(&t);
        for (unsigned i = 0; i < N; i++) draw_cell_through(&t, i, &auto_cells[i], pass == 1);
        pb_run(&t);
        for (unsigned i = 0; i < N; i++) {
            unsigned level, frac;
            uint32_t want = cell_want(&auto_cells[i], &level, &frac);
            CHECK_EQ_U(level, expect_level[i]);
            check_cell(&t, i, want, level, frac, pass ? "triangles" : "sprite");
        }
    }
    pb_free(&t);
}

/* The bias (TEX_LEVEL bits 16-23, signed, 1/16 levels), the constant mode
 * (1, and 3 behaving as 1), the max level (TEX_MODE bits 16-18), mipmaps
 * off (TEX_FILTER bit 2 clear: level 0 whatever the ratio), and the linear
 * mip filter (level d >> 4, fraction d & 15, the two levels blended
 * (c1 f + c0 (16 - f)) >> 4; no fraction at the max level), all on
 * through-mode 16x16 sprites. */
static const struct lc bias_cells[] = {
    /* Auto, 2:1 (detail 16). */
    {32, 16, 7, F_MIP, 0, -8, 0, 0},     /* 8: level 1 (halves up) */
    {32, 16, 7, F_MIP, 0, -9, 0, 0},     /* 7: level 0 */
    {32, 16, 7, F_MIP, 0, 24, 0, 0},     /* 40: level 3 */
    {32, 16, 7, F_MIP, 0, 127, 0, 0},    /* 143: limited to 7 */
    {32, 16, 7, F_MIP, 0, -128, 0, 0},   /* -112: level 0 */
    {1024, 16, 3, F_MIP, 0, 0, 0, 0},    /* 96, max 3: level 3 */
    {2048, 16, 0, F_MIP, 0, 0, 0, 0},    /* max 0: level 0 */
    {1024, 16, 7, 0, 0, 0, 0, 0},        /* mipmaps off: level 0 */
    /* Constant: the ratio (64:1, level 6 in auto mode) plays no part. */
    {1024, 16, 7, F_MIP, 1, 0x10, 0, 0}, /* level 1 */
    {1024, 16, 7, F_MIP, 1, 0x28, 0, 0}, /* 2.5: level 3 */
    {1024, 16, 7, F_MIP, 1, 0x27, 0, 0}, /* 2.4375: level 2 */
    {1024, 16, 7, F_MIP, 1, -16, 0, 0},  /* level 0 */
    {8, 8, 7, F_MIP, 1, 0x20, 0, 0},     /* magnified in auto mode: level 2 */
    {1024, 16, 7, F_MIP, 3, 0x30, 0, 0}, /* mode 3: level 3 */
    {1024, 16, 7, F_MIP, 1, 0x7F, 0, 0}, /* 7.94: level 7 */
    {1024, 16, 5, F_MIP, 1, 0x70, 0, 0}, /* 7, max 5: level 5 */
    /* Linear mip filter. */
    {48, 16, 7, F_MIP | F_MIPLIN, 0, 0, 0, 0},     /* 3:1, 24: level 1 + 8/16 */
    {36, 16, 7, F_MIP | F_MIPLIN, 0, 0, 0, 0},     /* 2.25, 18: level 1 + 2/16 */
    {20, 16, 7, F_MIP | F_MIPLIN, 0, 0, 0, 0},     /* 1.25, 4: level 0 + 4/16 */
    {16, 16, 7, F_MIP | F_MIPLIN, 0, 0, 0, 0},     /* 0: level 0 */
    {2048, 16, 7, F_MIP | F_MIPLIN, 0, 0, 0, 0},   /* 112: level 7 */
    {1600, 16, 7, F_MIP | F_MIPLIN, 0, 0, 0, 0},   /* 100 = 64 x 1.5625: 96 + 9, level 6 + 9/16 */
    {128, 16, 2, F_MIP | F_MIPLIN, 0, 0, 0, 0},    /* 48, max 2: level 2, no fraction */
    {80, 16, 2, F_MIP | F_MIPLIN, 0, 0, 0, 0},     /* 5:1, 40 > 32: level 2 */
    {48, 16, 7, F_MIP | F_MIPLIN, 0, -3, 0, 0},    /* 21: level 1 + 5/16 */
    {1024, 16, 7, F_MIP | F_MIPLIN, 1, 0x25, 0, 0}, /* constant 2 + 5/16 */
};

TEST(lod_bias_const_max_linear)
{
    enum { N = sizeof bias_cells / sizeof bias_cells[0] };
    static const unsigned expect_level[N] = {1, 0, 3, 7, 0, 3, 0, 0, 1, 3, 2, 0, 2, 3, 7, 5,
                                             1, 1, 0, 0, 7, 6, 2, 2, 1, 2};
    static const unsigned expect_frac[N] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                            8, 2, 4, 0, 0, 9, 0, 0, 5, 5};
    struct pb t;
    lp_init(&t);
    mip_chain(&t);
    for (unsigned i = 0; i < N; i++) draw_cell_through(&t, i, &bias_cells[i], false);
    pb_run(&t);
    for (unsigned i = 0; i < N; i++) {
        unsigned level, frac;
        uint32_t want = cell_want(&bias_cells[i], &level, &frac);
        CHECK_EQ_U(level, expect_level[i]);
        CHECK_EQ_U(frac, expect_frac[i]);
        check_cell(&t, i, want, level, frac, "bias");
    }
    pb_free(&t);
}

/* The slope mode (TEX_LEVEL mode 2): detail = log2(2 q slope) + bias, q
 * being the pixel's clip w, slope TEX_LOD_SLOPE (sampler.h, PPSSPP
 * CalculateSamplingParams). Transform-mode triangle pairs whose three
 * vertices share one w (a power of two, so q is exactly w at every pixel);
 * the u extent differs between cells and must not matter. 2 w slope:
 *   w 4: slope 1 -> 8 (48: level 3); 0.75 -> 6 (40: level 3);
 *        0.71875 -> 5.75 (32 + 7: level 2, the true log2 2.52 would give
 *        3); 0.6875 -> 5.5 (38: level 2)
 *   slope 0.375: w 8 -> 6 (level 3), w 4 -> 3 (24: level 2), w 2 -> 1.5
 *        (8: level 1), w 1 -> 0.75 (-8: level 0)
 *   w 4, slope 1, bias -16: 32, level 2; w 16, slope 4: 128 (112: 7);
 *   w 16, slope 8: 256 (128, limited to 7). */
static const struct lc slope_cells[] = {
    {16, 16, 7, F_MIP, 2, 0, 4, 1},        {256, 16, 7, F_MIP, 2, 0, 4, 0.75f},
    {64, 16, 7, F_MIP, 2, 0, 4, 0.71875f}, {16, 64, 7, F_MIP, 2, 0, 4, 0.6875f},
    {16, 16, 7, F_MIP, 2, 0, 8, 0.375f},   {16, 16, 7, F_MIP, 2, 0, 4, 0.375f},
    {16, 16, 7, F_MIP, 2, 0, 2, 0.375f},   {16, 16, 7, F_MIP, 2, 0, 1, 0.375f},
    {16, 16, 7, F_MIP, 2, -16, 4, 1},      {16, 16, 7, F_MIP, 2, 0, 16, 4},
    {16, 16, 7, F_MIP, 2, 0, 16, 8},
};

TEST(lod_slope_mode)
{
    enum { N = sizeof slope_cells / sizeof slope_cells[0] };
    static const unsigned expect_level[N] = {3, 3, 2, 2, 3, 2, 1, 0, 2, 7, 7};
    struct pb t;
    lp_init(&t);
    mip_chain(&t);
    for (unsigned i = 0; i < N; i++) {
        const struct lc *c = &slope_cells[i];
        lod_regs(&t, c->max, c->filter, c->mode, c->bias);
        pb_cmdf(&t, GE_TEX_LOD_SLOPE, c->slope);
        /* Normalised coordinates: u = s * 256, so s runs over ru / 256. */
        int x = cell_x(i) * 16, y = cell_y(i) * 16, e = 16 * 16;
        float su = c->ru / 256.0f, sv = c->rv / 256.0f;
        const struct trv v[6] = {{x, y, c->w, 0, 0},      {x + e, y, c->w, su, 0},      {x, y + e, c->w, 0, sv},
                                 {x + e, y, c->w, su, 0}, {x + e, y + e, c->w, su, sv}, {x, y + e, c->w, 0, sv}};
        draw_transform(&t, P_TRIS, v, 6);
    }
    pb_run(&t);
    for (unsigned i = 0; i < N; i++) {
        unsigned level, frac;
        uint32_t want = cell_want(&slope_cells[i], &level, &frac);
        CHECK_EQ_U(level, expect_level[i]);
        check_cell(&t, i, want, level, frac, "slope");
    }
    pb_free(&t);
}

/* ---- 3. The bilinear ramp probe (§8) ------------------------------------- */

/* The ramp texture: 16x16 8888, texel (x, y) = R 16 x, G 16 y, B a
 * scrambled function of both (so the two-dimensional blend and its final
 * truncation are seen too), A 255. */
static uint32_t ramp_texel(int x, int y)
{
    uint32_t b = ((uint32_t)x * 37u + (uint32_t)y * 101u + (uint32_t)(x * y) * 13u) & 0xFF;
    return 0xFF000000u | b << 16 | (uint32_t)(16 * y) << 8 | (uint32_t)(16 * x);
}

/* Writes the ramp texture at LP_RAMP and selects it: 16x16 8888, minify
 * and magnify bilinear, no mipmaps, u and v clamped. */
static void ramp_setup(struct pb *t)
{
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) mem_write32(&t->r->mem, LP_RAMP + (uint32_t)(y * 16 + x) * 4, ramp_texel(x, y));
    pb_cmd(t, GE_TEX_ADDR0, LP_RAMP & 0xFFFFF0);
    pb_cmd(t, GE_TEX_BUFW0, 16 | ((LP_RAMP >> 24) & 0xF) << 16);
    pb_cmd(t, GE_TEX_SIZE0, 4 | 4u << 8);
    pb_cmd(t, GE_TEX_FORMAT, 3);
    pb_cmd(t, GE_TEX_MODE, 0);
    pb_cmd(t, GE_TEX_FILTER, 1 | 0x100); /* minify and magnify bilinear, no mipmaps */
    pb_cmd(t, GE_TEX_WRAP, 1 | 0x100);   /* clamp u and v */
    pb_cmd(t, GE_TEX_LEVEL, 0);
    pb_cmd(t, GE_TEX_FLUSH, 0);
}

/* floor(p / 2^s) for any sign. */
static int64_t floor_shift(__int128 p, int s)
{
    __int128 d = (__int128)1 << s, q = p / d;
    if (p % d != 0 && p < 0) q--;
    return (int64_t)q;
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if (a % b != 0 && (a < 0) != (b < 0)) q--;
    return q;
}

/* A through-mode sprite from corner (x0, y0) with texel coordinates
 * (u0, v0) to corner (x1, y1) with (u1, v1). */
struct ramp_sprite { int x0, y0, x1, y1, u0, v0, u1, v1; };

/* The bit number of the top set bit of v > 0 (its float exponent). */
static int top_bit(int v)
{
    int e = 0;
    while (v >> (e + 1)) e++;
    return e;
}

/* The gradient of a coordinate running `d` (plane units) over `len` (1/16
 * pixel) on a rectangle whose other side is `other` (1/16 pixel), per §2:
 * the setup divides by the rectangle's area len x other with the setup
 * reciprocal (measured, ge-arithmetic.md: q ~ 2^(e + 16) / area, e =
 * floor(log2 area)), floor(d x other x q / 2^(e + 2)). Result in plane
 * units per 1/16 pixel with 14 fraction bits (measured), rounded toward
 * minus infinity. exact: the true quotient instead, to see that the table
 * matters. */
static int64_t ramp_grad(int64_t d, int64_t len, int64_t other, bool exact)
{
    int64_t area = len * other;
    if (exact) return floor_div(d * 16384, len);
    unsigned e;
    uint64_t q = gemath_setup_recip((uint64_t)area, &e);
    return floor_shift((__int128)d * other * (__int128)q, (int)e + 2);
}

/* The model's colour of pixel (x, y) of sprite k (RGB):
 *  - the corner nearer the top-left carries the coordinates of the vertex
 *    there, x runs u, y runs v, each toward the other vertex's value
 *    (PPSSPP DrawRectangle, unrotated sprites only here);
 *  - the planes go through three corners like a triangle's
 *    (ge-raster-pipeline.md "Sprites"): each coordinate as a 15-bit value
 *    at the exponent of its largest corner value (units of 2^(e - 14)
 *    texel, e the top bit of the larger of the two vertices' values);
 *  - the coordinate at the pixel centre (16 x + 8 in 1/16 pixel) is the
 *    plane's floor there; through mode's q is 1 and R(1) = 1, so u = s,
 *    and the texel position is that truncated to 1/16 texel;
 *  - bilinear filtering (sampler.h, PPSSPP SampleLinearLevel): half a
 *    texel is subtracted, the texel pair is floor(b / 256) and the next,
 *    the weight of the second is the 1/16 steps of the remainder
 *    (floor(b / 16) mod 16, the lower 4 bits dropped); texel indices
 *    clamped to 0..15 (TEX_WRAP clamp); per channel (top (16 - fv) +
 *    bottom fv) >> 4 with top = (c00 (16 - fu) + c10 fu) >> 4, each
 *    horizontal lerp truncated first (measured, ge-arithmetic.md). */
static uint32_t ramp_pixel(const struct ramp_sprite *k, int x, int y, bool exact, int *fu_out)
{
    bool xf = k->x0 < k->x1, yf = k->y0 < k->y1;
    int64_t XL = 16 * (int64_t)(xf ? k->x0 : k->x1), YT = 16 * (int64_t)(yf ? k->y0 : k->y1);
    int64_t W = 16 * (int64_t)abs(k->x1 - k->x0), H = 16 * (int64_t)abs(k->y1 - k->y0);
    int eu = top_bit(k->u0 > k->u1 ? k->u0 : k->u1), ev = top_bit(k->v0 > k->v1 ? k->v0 : k->v1);
    int64_t uL = (int64_t)(xf ? k->u0 : k->u1) << (14 - eu), uR = (int64_t)(xf ? k->u1 : k->u0) << (14 - eu);
    int64_t vT = (int64_t)(yf ? k->v0 : k->v1) << (14 - ev), vB = (int64_t)(yf ? k->v1 : k->v0) << (14 - ev);
    int64_t gx = ramp_grad(uR - uL, W, H, exact), gy = ramp_grad(vB - vT, H, W, exact);
    int64_t su = floor_shift((__int128)uL * 16384 + (__int128)gx * (16 * x + 8 - XL), 14);
    int64_t sv = floor_shift((__int128)vT * 16384 + (__int128)gy * (16 * y + 8 - YT), 14);
    /* In 1/16 texel (truncated; the values are positive here), then in the
     * sampler's 1/256 texel. */
    int64_t u = 16 * (su >> (10 - eu)), v = 16 * (sv >> (10 - ev));
    int64_t bu = u - 128, bv = v - 128;
    int64_t iu = floor_div(bu, 256), iv = floor_div(bv, 256);
    unsigned fu = (unsigned)(floor_div(bu, 16) - 16 * iu), fv = (unsigned)(floor_div(bv, 16) - 16 * iv);
    if (fu_out) *fu_out = (int)fu;
    int xa = (int)(iu < 0 ? 0 : iu > 15 ? 15 : iu), xb = (int)(iu + 1 < 0 ? 0 : iu + 1 > 15 ? 15 : iu + 1);
    int ya = (int)(iv < 0 ? 0 : iv > 15 ? 15 : iv), yb = (int)(iv + 1 < 0 ? 0 : iv + 1 > 15 ? 15 : iv + 1);
    uint32_t c00 = ramp_texel(xa, ya), c10 = ramp_texel(xb, ya), c01 = ramp_texel(xa, yb), c11 = ramp_texel(xb, yb);
    uint32_t out = 0;
    for (unsigned sh = 0; sh < 24; sh += 8) {
        unsigned top = (((c00 >> sh) & 0xFF) * (16 - fu) + ((c10 >> sh) & 0xFF) * fu) >> 4;
        unsigned bot = (((c01 >> sh) & 0xFF) * (16 - fu) + ((c11 >> sh) & 0xFF) * fu) >> 4;
        out |= ((top * (16 - fv) + bot * fv) >> 4) << sh;
    }
    return out;
}

/* GE-HARDWARE.md §8's readout, end to end: bilinear-filtered through-mode
 * sprites over the ramp texture, scaled neither 1:1 nor by powers of two,
 * with areas that are not powers of two, so the coordinates land at all
 * sorts of 1/16-texel positions; §2: the gradients come from the area
 * reciprocal table and are not "fixed". With R = 16 x the red channel of a
 * pixel is 16 x0 + fu, i.e. the coordinate's position in 1/16 texel, and
 * G likewise for v. Every pixel of every sprite (and a ring of untouched
 * pixels around it) must match ramp_pixel. The sprites: 23x19 pixels over
 * 13x11 texels (area 111872 in 1/16 pixel squared: the table index is
 * shifted once), 10x7 over 9x13 (area 17920: index used as is; v
 * minified), 29x30 drawn from the bottom-right corner (both axes
 * backward: negative gradients), 9x13 over 15x14 (minified both ways). */
TEST(lod_bilinear_ramp)
{
    static const struct ramp_sprite sp[] = {
        {40, 30, 63, 49, 1, 2, 14, 13},
        {100, 30, 110, 37, 3, 1, 12, 14},
        {200, 90, 171, 60, 2, 3, 13, 15},
        {300, 40, 309, 53, 0, 1, 15, 15},
    };
    enum { N = sizeof sp / sizeof sp[0] };
    struct pb t;
    lp_init(&t);
    ramp_setup(&t);
    for (unsigned i = 0; i < N; i++) {
        const struct thv v[2] = {{sp[i].x0, sp[i].y0, (uint16_t)sp[i].u0, (uint16_t)sp[i].v0},
                                 {sp[i].x1, sp[i].y1, (uint16_t)sp[i].u1, (uint16_t)sp[i].v1}};
        draw_through(&t, P_RECTS, v, 2);
    }
    pb_run(&t);
    unsigned fu_seen = 0, table_matters = 0, pixels = 0;
    for (unsigned i = 0; i < N; i++) {
        const struct ramp_sprite *k = &sp[i];
        int xl = k->x0 < k->x1 ? k->x0 : k->x1, xr = k->x0 < k->x1 ? k->x1 : k->x0;
        int yt = k->y0 < k->y1 ? k->y0 : k->y1, yb = k->y0 < k->y1 ? k->y1 : k->y0;
        for (int y = yt - 1; y <= yb; y++)
            for (int x = xl - 1; x <= xr; x++) {
                uint32_t got = rgb(&t, x, y);
                if (x < xl || x >= xr || y < yt || y >= yb) {
                    CHECK_MSG(got == 0, "sprite %u: pixel (%d,%d) outside drawn: 0x%06x", i, x, y, got);
                    continue;
                }
                int fu;
                uint32_t want = ramp_pixel(k, x, y, false, &fu);
                CHECK_MSG(got == want,
                          "sprite %u pixel (%d,%d): 0x%06x (u at %u + %u/16), want 0x%06x (u at %u + %u/16)", i, x,
                          y, got, (got & 0xFF) >> 4, got & 15, want, (want & 0xFF) >> 4, want & 15);
                pixels++;
                fu_seen |= 1u << fu;
                if (ramp_pixel(k, x, y, true, NULL) != want) table_matters++;
            }
    }
    /* The probe sees every 1/16 position, and the reciprocal table's
     * truncation moves some coordinates across a 1/16 step (an exact
     * divide would give other pixels: §2, do not fix). */
    CHECK_MSG(fu_seen == 0xFFFF, "1/16 positions seen: 0x%04x", fu_seen);
    CHECK_MSG(table_matters > 0, "no pixel depends on the area table (%u pixels)", pixels);
    pb_free(&t);
}

/* GE-HARDWARE.md §2: "never merge primitives: adjacent sprites must not be
 * merged". Two 1:1 bilinear sprites side by side, 3 and 5 pixels wide and
 * 16 high (u 0..3 and 3..8, v 0..16), continue one another exactly, the way
 * a game slices a 2D image; one sprite 8 pixels wide covers the same pixels
 * with the same texels. Each sprite has its own planes from its own area:
 * 48 and 80 pixels, not powers of two, so their 1:1 coordinates miss the
 * texel centres (§2, "do not fix this"), where the merged sprite's area,
 * 128 pixels, lands on them exactly. Each pixel must be ramp_pixel of the
 * sprite it belongs to, and the test checks that the merged sprite's model
 * gives other pixels, so a renderer that merged the pair would fail it. */
TEST(lod_never_merge_sprites)
{
    static const struct ramp_sprite sp[2] = {{40, 30, 43, 46, 0, 0, 3, 16}, {43, 30, 48, 46, 3, 0, 8, 16}};
    static const struct ramp_sprite merged = {40, 30, 48, 46, 0, 0, 8, 16};
    struct pb t;
    lp_init(&t);
    ramp_setup(&t);
    const struct thv v[4] = {{40, 30, 0, 0}, {43, 46, 3, 16}, {43, 30, 3, 0}, {48, 46, 8, 16}};
    draw_through(&t, P_RECTS, v, 4); /* one draw of two sprites */
    pb_run(&t);
    unsigned differs = 0;
    for (int y = 29; y <= 46; y++)
        for (int x = 39; x <= 48; x++) {
            uint32_t got = rgb(&t, x, y);
            if (x < 40 || x >= 48 || y < 30 || y >= 46) {
                CHECK_MSG(got == 0, "pixel (%d,%d) outside the sprites: 0x%06x", x, y, got);
                continue;
            }
            uint32_t want = ramp_pixel(&sp[x >= 43], x, y, false, NULL);
            CHECK_MSG(got == want, "pixel (%d,%d): 0x%06x, want 0x%06x", x, y, got, want);
            if (ramp_pixel(&merged, x, y, false, NULL) != want) differs++;
        }
    CHECK_MSG(differs > 0, "the merged sprite samples the same texels everywhere");
    pb_free(&t);
}
