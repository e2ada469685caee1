/* Primitive setup (raster.h): state snapshots and the fixed-point planes of
 * ge-raster-pipeline.md (ppsspp-site docs/psp-hardware/gpu/). Runs on the
 * binning thread, once per primitive.
 *
 * Measured: pixel centres at +8 in 1/16 pixel with the exact top-left
 * rule; gradients from the setup reciprocal table floored to
 * RAST_PLANE_FRAC (14) fraction bits; the anchor at the leftmost vertex,
 * or the rightmost when the long edge is strictly the right side
 * (anchor_vertex); 8-bit fog planes; transform-mode texture coordinates as
 * 15-bit s, t, q planes; tall-triangle spans.
 *
 * Sprites (measured): their edges and their texture planes through three
 * corners (rast_setup_rect, rect_uv_planes); the model choices for the
 * orientations nothing measured are named there and in docs/DESIGN.md. */
#include "raster.h"

#include <string.h>

#include "compat.h"
#include "gemath.h"
#include "light.h"

void rast_state_snapshot(struct rast_state *rs, const struct ge_state *st, uint32_t edram_trans)
{
    memset(rs, 0, sizeof *rs);
    pixel_snapshot(&rs->px, st);
    rs->through = (ge_reg(st, GE_VTYPE) >> 23 & 1) != 0;
    rs->textured = (ge_reg(st, GE_TEXTURE_ON) & 1) && !rs->px.clear;
    if (rs->textured) sampler_snapshot(&rs->smp, st);
    rs->gouraud = (ge_reg(st, GE_SHADEMODE) & 1) != 0;
    /* GPUState.h getUVGenMode: TEX_MAPMODE bits 0-1; 1 = texture matrix,
     * whose s and t are divided by its q (PPSSPP's textureProj). */
    rs->tex_proj = !rs->through && (ge_reg(st, GE_TEX_MAPMODE) & 3) == 1;
    rs->antialias = (ge_reg(st, GE_ANTIALIAS_ON) & 1) != 0;
    rs->uses_depth = rs->px.clear ? rs->px.clear_depth : rs->px.depth_test;
    rs->fb_bpp = rs->px.fb_format == PX_FMT_8888 ? 4 : 2;
    rs->fb_addr = ge_fb_addr(st);
    rs->fb_stride = ge_fb_stride(st);
    rs->z_addr = ge_z_addr(st);
    rs->z_stride = ge_z_stride(st);
    rs->z_trans = edram_trans;
    /* Scissor (SCISSOR1/2: x in bits 0-9, y in 10-19), limited by REGION2
     * as PPSSPP does (BinManager scissor_). */
    uint32_t s1 = ge_reg(st, GE_SCISSOR1), s2 = ge_reg(st, GE_SCISSOR2), r2 = ge_reg(st, GE_REGION2);
    rs->sc_x0 = (int32_t)(s1 & 0x3FF);
    rs->sc_y0 = (int32_t)(s1 >> 10 & 0x3FF);
    int32_t x1 = (int32_t)(s2 & 0x3FF), y1 = (int32_t)(s2 >> 10 & 0x3FF);
    int32_t rx = (int32_t)(r2 & 0x3FF), ry = (int32_t)(r2 >> 10 & 0x3FF);
    rs->sc_x1 = x1 < rx ? x1 : rx;
    rs->sc_y1 = y1 < ry ? y1 : ry;
    /* REGION1 (ge-raster-pipeline.md "REGION1 is a translation"): drawn
     * only from (x1, y1) on, written at the screen position minus y1 in y
     * and minus x1 rounded up to a multiple of 4 in x, each group of 4
     * reversed for odd x1. An empty region (x2 < x1) leaves an empty
     * scissor. */
    uint32_t r1 = ge_reg(st, GE_REGION1);
    int32_t lx = (int32_t)(r1 & 0x3FF), ly = (int32_t)(r1 >> 10 & 0x3FF);
    if (rs->sc_x0 < lx) rs->sc_x0 = lx;
    if (rs->sc_y0 < ly) rs->sc_y0 = ly;
    rs->region_x = -((lx + 3) & ~3);
    rs->region_y = -ly;
    rs->region_rev = (lx & 1) != 0;
}

void rast_state_apply_imm(struct rast_state *rs, const struct ge_state *st, uint32_t flags)
{
    rs->antialias = flags & 1;
    rs->gouraud = (flags >> 7) & 1;
    bool tex = ((flags >> 10) & 1) && !rs->px.clear;
    if (tex && !rs->textured) sampler_snapshot(&rs->smp, st);
    if (!tex) memset(&rs->smp, 0, sizeof rs->smp);
    rs->textured = tex;
    rs->px.fog = ((flags >> 11) & 1) && !rs->through;
    rs->px.dither = (flags >> 12) & 1;
}

/* ---- Helpers ------------------------------------------------------------ */

static int64_t sat64(__int128 v)
{
    if (v > INT64_MAX) return INT64_MAX;
    if (v < INT64_MIN) return INT64_MIN;
    return (int64_t)v;
}

/* v in plane units (v * 2^RAST_PLANE_FRAC), saturated; a multiplication,
 * not a shift, so negative values are defined behaviour. */
static int64_t to_plane(int64_t v) { return sat64((__int128)v * ((int64_t)1 << RAST_PLANE_FRAC)); }

/* floor(a / 16) for any int32. */
static int32_t floor16(int32_t a) { return a >> 4; }

/* Gradients of a plane through three vertices (positions relative to the
 * anchor, vertex values relative to the anchor's value), as N / A with the
 * setup reciprocal (gemath_setup_recip): q ~ 2^(e + 16) / |A|. */
struct area_recip { uint64_t q; unsigned e; int neg; };

static struct area_recip area_recip(int64_t area)
{
    struct area_recip ar;
    ar.neg = area < 0;
    uint64_t mag = ar.neg ? (uint64_t)-area : (uint64_t)area;
    ar.q = gemath_setup_recip(mag, &ar.e);
    return ar;
}

/* n / A with RAST_PLANE_FRAC (14) fraction bits per subpixel: floor(n q /
 * 2^(e + 2)) with the sign of A (ge-arithmetic.md "Planes"). */
static int64_t grad(__int128 n, const struct area_recip *ar)
{
    __int128 p = n * (__int128)ar->q;
    if (ar->neg) p = -p;
    return sat64(p >> (ar->e + 16 - RAST_PLANE_FRAC));
}

/* Sets plane k from vertex values val[3] (integers in the plane's units),
 * with d[i] = position of vertex i minus the anchor's. */
static void plane3(struct rast_plane *pl, const int64_t val[3], unsigned anchor, const int64_t dx[3],
                   const int64_t dy[3], const struct area_recip *ar)
{
    unsigned b = (anchor + 1) % 3, c = (anchor + 2) % 3;
    __int128 dvb = (__int128)val[b] - val[anchor], dvc = (__int128)val[c] - val[anchor];
    pl->v = to_plane(val[anchor]);
    pl->gx = grad(dvb * dy[c] - dvc * dy[b], ar);
    pl->gy = grad(dvc * dx[b] - dvb * dx[c], ar);
}

/* Exponent (unbiased, of the value's leading bit) of the largest of n values. */
static int32_t block_exp(const gefloat *v, unsigned n)
{
    int32_t e = -200;
    for (unsigned i = 0; i < n; i++) {
        uint32_t ef = v[i] >> 23 & 0xFF;
        if (ef && (int32_t)ef - 127 > e) e = (int32_t)ef - 127;
    }
    return e;
}

/* The texture values of a vertex (ge-raster-pipeline.md "Texture
 * coordinates"): q = R(w) (times the texture matrix's q when it projects),
 * s = u q, t = v q, as GE floats. Through mode has w = 1: q = R(1) = 1 and
 * s, t are u, v. */
static void persp_values(const struct rast_state *st, const struct gt_vout *v, gefloat out[3])
{
    gefloat rw = st->through ? GEMATH_ONE : gemath_recip(v->clip[3]);
    gefloat q = st->tex_proj && !st->through ? gemath_mul(v->q, rw) : rw;
    out[0] = gemath_mul(v->uv[0], rw);
    out[1] = gemath_mul(v->uv[1], rw);
    out[2] = q;
}


static bool clip_box(struct rast_prim *p, const struct rast_state *st)
{
    if (p->x0 < st->sc_x0) p->x0 = st->sc_x0;
    if (p->y0 < st->sc_y0) p->y0 = st->sc_y0;
    if (p->x1 > st->sc_x1) p->x1 = st->sc_x1;
    if (p->y1 > st->sc_y1) p->y1 = st->sc_y1;
    return p->x0 <= p->x1 && p->y0 <= p->y1;
}

static void flat_colors(struct rast_prim *p, const struct gt_vout *v)
{
    memcpy(p->color, v->color, 4);
    memcpy(p->color1, v->color1, 3);
}

/* ---- Triangles ---------------------------------------------------------- */

/* The top-left fill rule (ge-raster-pipeline.md "Triangle coverage"): the
 * edge (l1, l2) opposite `vertex` excludes the pixel centres on it (bias
 * -1) when it is a right side, or a horizontal bottom edge. The side test
 * is exact (cross-multiplied, no division). */
static bool right_or_flat_bottom(int64_t vx, int64_t vy, int64_t l1x, int64_t l1y, int64_t l2x, int64_t l2y)
{
    if (l1y == l2y) return vy < l1y;
    int64_t dy = l2y - l1y;
    int64_t lhs = (vx - l1x) * dy, rhs = (l2x - l1x) * (vy - l1y);
    return dy > 0 ? lhs < rhs : lhs > rhs;
}

/* Whether the long edge (top vertex to bottom vertex) is strictly the
 * triangle's right side: the vertices ordered top to bottom (a tie in y
 * puts the smaller x first), the middle one left of the long edge, and no
 * two vertices on one row. */
static bool long_edge_right(const int64_t x[3], const int64_t y[3])
{
    unsigned t = 0, m = 1, b = 2, k;
#define ABOVE(i, j) (y[i] < y[j] || (y[i] == y[j] && x[i] < x[j]))
    if (ABOVE(m, t)) k = m, m = t, t = k;
    if (ABOVE(b, m)) k = b, b = m, m = k;
    if (ABOVE(m, t)) k = m, m = t, t = k;
#undef ABOVE
    if (y[t] == y[m] || y[m] == y[b]) return false;
    return (x[b] - x[t]) * (y[m] - y[t]) - (y[b] - y[t]) * (x[m] - x[t]) > 0;
}

/* The plane anchor (ge-raster-pipeline.md "Planes", measured): the leftmost
 * vertex, or the rightmost when the long edge is strictly the right side;
 * a tie in x takes the upper vertex, then the first in primitive order. */
unsigned rast_anchor_vertex(const int64_t x[3], const int64_t y[3])
{
    bool right = long_edge_right(x, y);
    unsigned a = 0;
    for (unsigned i = 1; i < 3; i++) {
        bool better = right ? x[i] > x[a] : x[i] < x[a];
        if (better || (x[i] == x[a] && y[i] < y[a])) a = i;
    }
    return a;
}

bool rast_setup_triangle(struct rast_prim *p, const struct rast_state *st, const struct gt_vout *v0,
                         const struct gt_vout *v1, const struct gt_vout *v2, unsigned provoking)
{
    const struct gt_vout *v[3] = {v0, v1, v2};
    const struct gt_vout *prov = v[provoking < 3 ? provoking : 2];
    int64_t X[3], Y[3];
    for (unsigned i = 0; i < 3; i++) X[i] = v[i]->x16, Y[i] = v[i]->y16;
    int64_t area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
    if (area < 0) {
        /* Walk the triangle in the positive orientation (culling was applied
         * by assembly). */
        const struct gt_vout *t = v[1];
        v[1] = v[2], v[2] = t;
        int64_t tx = X[1], ty = Y[1];
        X[1] = X[2], Y[1] = Y[2], X[2] = tx, Y[2] = ty;
        area = -area;
    }
    if (area == 0 && !GT_COMPAT(ZEROAREA)) return false;
    /* Diagnostic build ("zeroarea"): PPSSPP's NaN depth fails its depth
     * range test outside through mode. */
    if (area == 0 && !st->through && !(v[0]->z == v[1]->z && v[0]->z == v[2]->z)) return false;
    if ((X[0] == X[1] && X[0] == X[2]) || (Y[0] == Y[1] && Y[0] == Y[2])) return false;

    memset(p, 0, sizeof *p);
    p->kind = RAST_TRIANGLE;
    int64_t minx = X[0], maxx = X[0], miny = Y[0], maxy = Y[0];
    for (unsigned i = 1; i < 3; i++) {
        if (X[i] < minx) minx = X[i];
        if (X[i] > maxx) maxx = X[i];
        if (Y[i] < miny) miny = Y[i];
        if (Y[i] > maxy) maxy = Y[i];
    }
    p->x0 = floor16((int32_t)minx), p->x1 = floor16((int32_t)maxx);
    p->y0 = floor16((int32_t)miny), p->y1 = floor16((int32_t)maxy);
    if (!clip_box(p, st)) return false;

    /* Edge i is opposite vertex i: from vertex i+1 to vertex i+2. */
    for (unsigned i = 0; i < 3; i++) {
        unsigned a = (i + 1) % 3, b = (i + 2) % 3;
        p->ea[i] = Y[a] - Y[b];
        p->eb[i] = X[b] - X[a];
        p->ec[i] = Y[b] * X[a] - X[b] * Y[a];
        p->ebias[i] = right_or_flat_bottom(X[i], Y[i], X[a], Y[a], X[b], Y[b]) ? -1 : 0;
    }

    /* §5, measured (ge-raster-pipeline.md "Very tall triangles"): when the
     * long edge (top vertex to bottom vertex; a tie for the bottom takes the
     * left one) has 3 dy > 2^17 subpixels, it is tested for the first pixel
     * of each 4-pixel span (left edge) or the last (right edge) at the
     * span's other end. */
    p->snap_edge = -1;
    {
        unsigned top = 0, bot = 0;
        for (unsigned i = 1; i < 3; i++) {
            if (Y[i] < Y[top]) top = i;
            if (Y[i] > Y[bot] || (Y[i] == Y[bot] && X[i] < X[bot])) bot = i;
        }
        int64_t dy = Y[bot] - Y[top];
        if (top != bot && dy > RAST_TALL_LIMIT16) {
            unsigned third = 3 - top - bot;
            p->snap_edge = (int8_t)third; /* edge i is opposite vertex i */
            p->snap_left = (X[third] - X[top]) * dy > (X[bot] - X[top]) * (Y[third] - Y[top]);
            /* A snapped pixel may lie up to three pixels past the edge. */
            if (p->snap_left) p->x0 = p->x0 - 3 > st->sc_x0 ? p->x0 - 3 : st->sc_x0;
            else p->x1 = p->x1 + 3 < st->sc_x1 ? p->x1 + 3 : st->sc_x1;
        }
    }

    unsigned an = rast_anchor_vertex(X, Y);
    p->ax = (int32_t)X[an], p->ay = (int32_t)Y[an];
    int64_t dx[3], dy[3];
    for (unsigned i = 0; i < 3; i++) dx[i] = X[i] - X[an], dy[i] = Y[i] - Y[an];
    /* The area seen from the anchor (same magnitude, sign of this order). */
    unsigned b = (an + 1) % 3, c = (an + 2) % 3;
    struct area_recip ar = area_recip(dx[b] * dy[c] - dx[c] * dy[b]);

    int64_t val[3];
    for (unsigned i = 0; i < 3; i++) val[i] = v[i]->z;
    plane3(&p->pl[RP_Z], val, an, dx, dy, &ar);

    bool same = true;
    for (unsigned i = 1; i < 3; i++)
        if (memcmp(v[i]->color, v[0]->color, 4) || memcmp(v[i]->color1, v[0]->color1, 3)) same = false;
    p->flat_color = !st->gouraud || same;
    if (p->flat_color) {
        flat_colors(p, st->gouraud ? v[0] : prov);
    } else {
        for (unsigned k = 0; k < 4; k++) {
            for (unsigned i = 0; i < 3; i++) val[i] = v[i]->color[k];
            plane3(&p->pl[RP_R + k], val, an, dx, dy, &ar);
        }
        for (unsigned k = 0; k < 3; k++) {
            for (unsigned i = 0; i < 3; i++) val[i] = v[i]->color1[k];
            plane3(&p->pl[RP_R1 + k], val, an, dx, dy, &ar);
        }
    }
    if (st->px.fog && !st->px.clear) {
        for (unsigned i = 0; i < 3; i++) val[i] = fog_to8(v[i]->fog);
        plane3(&p->pl[RP_FOG], val, an, dx, dy, &ar);
    }
    if (st->textured) {
        /* s, t and q each as 15-bit integers at the largest exponent of the
         * three vertices, truncated (ge-arithmetic.md "Planes"), in both
         * modes; per pixel u = s R(q) (raster.c tex_coords). */
        p->persp = true;
        gefloat pv[3][3];
        for (unsigned i = 0; i < 3; i++) persp_values(st, v[i], pv[i]);
        for (unsigned k = 0; k < 3; k++) {
            gefloat col[3] = {pv[0][k], pv[1][k], pv[2][k]};
            p->exp[k] = block_exp(col, 3) - 14;
            for (unsigned i = 0; i < 3; i++) val[i] = gemath_to_scaled(col[i], p->exp[k]);
            plane3(&p->pl[RP_S + k], val, an, dx, dy, &ar);
        }
        /* The largest s or t gradient in level-0 texels per pixel: plane
         * units 2^exp per integer, 14 fraction bits per subpixel, 16
         * subpixels a pixel, normalised coordinates times the size. */
        p->log16_g = SAMPLER_LOG2_ZERO;
        for (unsigned k = 0; k < 2; k++) {
            int32_t lg = st->through ? 0 : (int32_t)(k ? st->smp.hlog[0] : st->smp.wlog[0]);
            for (unsigned a = 0; a < 2; a++) {
                int64_t gr = a ? p->pl[RP_S + k].gy : p->pl[RP_S + k].gx;
                uint64_t m = (uint64_t)(gr < 0 ? -gr : gr);
                if (!m) continue;
                int32_t l16 = sampler_log2_fixed(m, 0) + 16 * (p->exp[k] - RAST_PLANE_FRAC + 4 + lg);
                if (l16 > p->log16_g) p->log16_g = l16;
            }
        }
    }
    p->rtl = long_edge_right(X, Y);
    if (area == 0) {
        /* Diagnostic build ("zeroarea"): no gradients; planes hold the
         * anchor's values. */
        for (unsigned k = 0; k < RP_COUNT; k++) p->pl[k].gx = p->pl[k].gy = 0;
        p->compat_zero_area = true;
    }
    if (GT_COMPAT(PLANES)) compat_keep_vertices(p, v);
    if (GT_COMPAT(ATEST) || GT_COMPAT(ATFORCE)) {
        /* The vertices whose alpha counts: all three when Gouraud, else the
         * provoking one. */
        const struct gt_vout *cv[3] = {v0, v1, v2};
        const struct gt_vout *const *av = st->gouraud ? cv : &prov;
        unsigned an = st->gouraud ? 3 : 1;
        if (GT_COMPAT(ATEST)) p->no_alpha_test = compat_skip_alpha_test(st, av, an);
        if (GT_COMPAT(ATFORCE)) p->force_alpha_test = compat_force_alpha_test(st, av, an);
    }
    return true;
}

/* ---- Rectangles ---------------------------------------------------------- */

/* A sprite's texture planes (ge-raster-pipeline.md "Sprites", measured):
 * planes through v0, v1 and the corner C with v1's x and v0's y, like a
 * triangle's (15-bit s, t, q; per pixel u = s R(q)). C takes its values
 * component by component: s from the vertex that supplies its x, t from the
 * one that supplies its y, swapped when rotated, q from the one that
 * supplies its x. A rotated sprite (bottom left to top right) is anchored
 * at v0, the bottom left; others at their top left corner. Model choices:
 * a sprite from top right to bottom left is rotated too (PPSSPP
 * DrawRectangle); C and the top-left anchor for the orientations the page
 * does not describe. */
static void rect_uv_planes(struct rast_prim *p, const struct rast_state *st, const struct gt_vout *v0,
                           const struct gt_vout *v1, bool rotated)
{
    bool swapped = rotated || (v0->x16 > v1->x16 && v0->y16 < v1->y16);
    gefloat a[3], b[3], c[3];
    persp_values(st, v0, a);
    persp_values(st, v1, b);
    c[0] = swapped ? a[0] : b[0];
    c[1] = swapped ? b[1] : a[1];
    c[2] = b[2];
    const gefloat *pv[3] = {a, b, c};
    int64_t X[3] = {v0->x16, v1->x16, v1->x16}, Y[3] = {v0->y16, v1->y16, v0->y16};
    unsigned an = 0;
    if (!rotated)
        for (unsigned i = 0; i < 3; i++)
            if (X[i] == p->ax && Y[i] == p->ay) an = i;
    p->ax = (int32_t)X[an], p->ay = (int32_t)Y[an];
    int64_t dx[3], dy[3];
    for (unsigned i = 0; i < 3; i++) dx[i] = X[i] - X[an], dy[i] = Y[i] - Y[an];
    unsigned bi = (an + 1) % 3, ci = (an + 2) % 3;
    struct area_recip ar = area_recip(dx[bi] * dy[ci] - dx[ci] * dy[bi]);
    p->persp = true;
    for (unsigned k = 0; k < 3; k++) {
        gefloat col[3] = {pv[0][k], pv[1][k], pv[2][k]};
        int64_t val[3];
        p->exp[k] = block_exp(col, 3) - 14;
        for (unsigned i = 0; i < 3; i++) val[i] = gemath_to_scaled(col[i], p->exp[k]);
        plane3(&p->pl[RP_S + k], val, an, dx, dy, &ar);
    }
    if (GT_COMPAT(PLANES)) compat_rect_uv_setup(p, st, v0, v1);
}

bool rast_setup_rect(struct rast_prim *p, const struct rast_state *st, const struct gt_vout *v0,
                     const struct gt_vout *v1)
{
    int32_t X0 = v0->x16, Y0 = v0->y16, X1 = v1->x16, Y1 = v1->y16;
    int32_t xl = X0 < X1 ? X0 : X1, xr = X0 < X1 ? X1 : X0;
    int32_t yt = Y0 < Y1 ? Y0 : Y1, yb = Y0 < Y1 ? Y1 : Y0;
    if (xl == xr || yt == yb) return false;
    memset(p, 0, sizeof *p);
    p->kind = RAST_RECT;
    /* A sprite from bottom left to top right is drawn rotated (measured). */
    bool rotated = X0 < X1 && Y0 > Y1;
    /* Pixels (ge-raster-pipeline.md "Sprites", measured): first column
     * (x + 6) >> 4, first row (y + 7) >> 4 ((y + 6) >> 4 rotated), ends
     * (v + 7) >> 4 exclusive. The diagnostic build's PPSSPP edges take the
     * pixels whose centre 16 px + 8 lies in [left, right) x [top, bottom). */
    p->x0 = (xl + 6) >> 4;
    p->y0 = (yt + (rotated ? 6 : 7)) >> 4;
    p->x1 = ((xr + 7) >> 4) - 1;
    p->y1 = ((yb + 7) >> 4) - 1;
    if (GT_COMPAT(RECTEDGE)) {
        p->x0 = (xl + 7) >> 4, p->y0 = (yt + 7) >> 4;
        compat_rect_edges(p, xr, yb);
    }
    if (!clip_box(p, st)) return false;
    p->flat_color = true;
    flat_colors(p, v1);
    p->ax = xl, p->ay = yt;
    p->pl[RP_Z].v = to_plane(v1->z);
    if (st->px.fog && !st->px.clear) p->pl[RP_FOG].v = to_plane(fog_to8(v1->fog));
    if (st->textured) rect_uv_planes(p, st, v0, v1, rotated);
    if (GT_COMPAT(ATEST)) p->no_alpha_test = compat_skip_alpha_test(st, &v1, 1);
    if (GT_COMPAT(ATFORCE)) p->force_alpha_test = compat_force_alpha_test(st, &v1, 1);
    return true;
}

/* ---- Lines and points ---------------------------------------------------- */

/* A line's values: v at the first vertex, gx at the second, both integers;
 * raster.c takes a pixel's value from the gradient along the major axis
 * (line_value). */
static void line_plane(struct rast_plane *pl, int64_t a, int64_t b)
{
    pl->v = a;
    pl->gx = b;
}

bool rast_setup_line(struct rast_prim *p, const struct rast_state *st, const struct gt_vout *v0,
                     const struct gt_vout *v1, unsigned provoking)
{
    memset(p, 0, sizeof *p);
    p->kind = RAST_LINE;
    int32_t dx = v1->x16 - v0->x16, dy = v1->y16 - v0->y16;
    if (dx == 0 && dy == 0) return false;
    int32_t adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
    p->lx = v0->x16, p->ly = v0->y16, p->ldx = dx, p->ldy = dy;
    p->lsteps = (adx > ady ? adx : ady) / 16;
    /* The lit pixels (diamond exit, raster.c) lie within a pixel of the
     * end points' pixels. */
    int32_t xa = v0->x16 < v1->x16 ? v0->x16 : v1->x16, xb = v0->x16 < v1->x16 ? v1->x16 : v0->x16;
    int32_t ya = v0->y16 < v1->y16 ? v0->y16 : v1->y16, yb = v0->y16 < v1->y16 ? v1->y16 : v0->y16;
    p->x0 = floor16(xa) - 1, p->x1 = floor16(xb) + 1;
    p->y0 = floor16(ya) - 1, p->y1 = floor16(yb) + 1;
    if (!clip_box(p, st)) return false;

    if (GT_COMPAT(AALINE) && st->antialias && st->px.blend && !st->px.clear) {
        /* PPSSPP DetectStateOptimizations: vertex alphas all full and no
         * texture alpha needed. */
        bool full = v1->color[3] == 0xFF && (!st->gouraud || v0->color[3] == 0xFF);
        bool tex_alpha = st->textured && st->px.tex_alpha;
        p->compat_full_alpha_blend = full && !tex_alpha;
    }
    if (GT_COMPAT(ATFORCE)) {
        /* The provoking vertex first: the only one that counts when flat. */
        const struct gt_vout *cv[2] = {provoking == 0 ? v0 : v1, provoking == 0 ? v1 : v0};
        p->force_alpha_test = compat_force_alpha_test(st, cv, st->gouraud ? 2 : 1);
    }
    line_plane(&p->pl[RP_Z], v0->z, v1->z);
    bool same = !memcmp(v0->color, v1->color, 4) && !memcmp(v0->color1, v1->color1, 3);
    p->flat_color = !st->gouraud || same;
    if (p->flat_color) {
        flat_colors(p, provoking == 0 ? v0 : v1);
    } else {
        for (unsigned k = 0; k < 4; k++) line_plane(&p->pl[RP_R + k], v0->color[k], v1->color[k]);
        for (unsigned k = 0; k < 3; k++) line_plane(&p->pl[RP_R1 + k], v0->color1[k], v1->color1[k]);
    }
    if (st->px.fog && !st->px.clear) line_plane(&p->pl[RP_FOG], fog_to8(v0->fog), fog_to8(v1->fog));
    if (st->textured) {
        /* s, t and q as 15-bit values at the two vertices' largest
         * exponent (measured, ge-raster-pipeline.md "Lines"); through mode
         * with w = 1, like triangles. */
        p->persp = true;
        gefloat a[3], b[3];
        persp_values(st, v0, a);
        persp_values(st, v1, b);
        for (unsigned k = 0; k < 3; k++) {
            gefloat col[2] = {a[k], b[k]};
            p->exp[k] = block_exp(col, 2) - 14;
            line_plane(&p->pl[RP_S + k], gemath_to_scaled(a[k], p->exp[k]), gemath_to_scaled(b[k], p->exp[k]));
        }
    }
    return true;
}

bool rast_setup_point(struct rast_prim *p, const struct rast_state *st, const struct gt_vout *v0)
{
    memset(p, 0, sizeof *p);
    p->kind = RAST_POINT;
    p->x0 = p->x1 = floor16(v0->x16);
    p->y0 = p->y1 = floor16(v0->y16);
    if (!clip_box(p, st)) return false;
    p->flat_color = true;
    flat_colors(p, v0);
    if (GT_COMPAT(ATFORCE)) p->force_alpha_test = compat_force_alpha_test(st, &v0, 1);
    p->pl[RP_Z].v = to_plane(v0->z);
    if (st->px.fog && !st->px.clear) p->pl[RP_FOG].v = to_plane(fog_to8(v0->fog));
    if (st->textured) {
        /* The triangles' texture values, flat: 15 bits each (through mode
         * too, where that truncates u and v to 15 significant bits). */
        p->persp = true;
        gefloat a[3];
        persp_values(st, v0, a);
        for (unsigned k = 0; k < 3; k++) {
            p->exp[k] = block_exp(&a[k], 1) - 14;
            p->pl[RP_S + k].v = to_plane(gemath_to_scaled(a[k], p->exp[k]));
        }
    }
    return true;
}
