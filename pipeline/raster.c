/* Rasterization of set-up primitives inside one tile (raster.h).
 *
 * Walk order: rows top to bottom; each row left to right in spans of 4
 * pixels aligned to multiples of 4 in x. The mip level of a span uses the
 * q of its second pixel in the PSP's walking order (x = 4k + 1, or 4k + 2
 * when the long edge is the right side), or of its first covered pixel
 * (measured, tri_span_lod). Walking every row left to right and top down is
 * a model choice (one place: draw_span_row); the PSP's own order (right to
 * left for a right long edge, flat-bottom triangles bottom up) only shows
 * when a primitive textures from its own target.
 *
 * Ownership: a pixel at screen (x, y) belongs to the tile holding its
 * written position's canonical place (REGION1 applied, then x mod tstride,
 * row y + floor(x / tstride)); see owns. Lines and points are walked in
 * their own order and filtered per pixel. */
#include "raster.h"

#include <string.h>

#include "compat.h"
#include "gemath.h"

/* floor(a / m) and ceil(a / m) for m > 0. */
static int64_t fdiv(int64_t a, int64_t m) { return a >= 0 ? a / m : -((-a + m - 1) / m); }
static int64_t cdiv(int64_t a, int64_t m) { return -fdiv(-a, m); }

static int64_t sat64(__int128 v)
{
    if (v > INT64_MAX) return INT64_MAX;
    if (v < INT64_MIN) return INT64_MIN;
    return (int64_t)v;
}

static int32_t sat32(int64_t v)
{
    if (v > INT32_MAX) return INT32_MAX;
    if (v < INT32_MIN) return INT32_MIN;
    return (int32_t)v;
}

static int64_t plane_at(const struct rast_plane *pl, int64_t X, int64_t Y, int32_t ax, int32_t ay)
{
    return sat64((__int128)pl->v + (__int128)pl->gx * (X - ax) + (__int128)pl->gy * (Y - ay));
}

static uint8_t clamp8(int64_t v) { return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v; }

/* The sample position of pixel coordinate px in 1/16 pixel: the centre,
 * 16 px + 8 (ge-raster-pipeline.md "Triangle coverage", "Planes"). */
static int64_t sample_pos(int64_t px)
{
    return px * 16 + 8;
}

/* Texture coordinates (level-0 texels, 8 fraction bits) from plane values,
 * truncated; *w receives the pixel's interpolated q (1 without planes).
 * round_uv (diagnostic build only, compat.h "round") rounds instead. */
static void tex_coords(const struct rast_prim *p, const struct rast_state *st, int64_t sv, int64_t tv, int64_t qv, int32_t *u, int32_t *v,
                       gefloat *w, bool round_uv)
{
    if (!p->persp) {
        *u = sat32(round_uv ? compat_round_shift(sv, RAST_PLANE_FRAC) : sv >> RAST_PLANE_FRAC);
        *v = sat32(round_uv ? compat_round_shift(tv, RAST_PLANE_FRAC) : tv >> RAST_PLANE_FRAC);
        *w = GEMATH_ONE;
        return;
    }
    /* ge-arithmetic.md "Texture coordinates per pixel": the planes floored,
     * each value cut to a GE float, u = s R(q) kept to 24 bits; then the
     * texel position in 1/16 texel, truncated toward zero (level-0 texels:
     * through mode coordinates are texels, others scale by the size). */
    const struct gt_sampler *smp = &st->smp;
    gefloat q = gemath_from_scaled(qv >> RAST_PLANE_FRAC, p->exp[2]);
    *w = q;
    if ((q >> 31) || !(q & 0x7F800000u)) {
        *u = *v = 0;
        return;
    }
    gefloat rq = gemath_recip(q);
    gefloat s = gemath_from_scaled(sv >> RAST_PLANE_FRAC, p->exp[0]);
    gefloat t = gemath_from_scaled(tv >> RAST_PLANE_FRAC, p->exp[1]);
    int32_t lw = st->through ? 0 : (int32_t)smp->wlog[0], lh = st->through ? 0 : (int32_t)smp->hlog[0];
    if (round_uv) {
        *u = sat32(compat_round_scaled(gemath_mul(s, rq), -(8 + lw)));
        *v = sat32(compat_round_scaled(gemath_mul(t, rq), -(8 + lh)));
    } else {
        *u = sat32(gemath_uv_scaled(s, rq, -(4 + lw)) * 16);
        *v = sat32(gemath_uv_scaled(t, rq, -(4 + lh)) * 16);
    }
}

/* The mip level of a span or a single pixel. */
struct lod { unsigned level, frac; bool magnify; };

static bool needs_lod(const struct rast_state *st)
{
    const struct gt_sampler *s = &st->smp;
    return s->max_level > 0 || s->min_linear != s->mag_linear;
}

/* Whether a triangle covers the centre of pixel (x, y) (its three edges
 * with their fill-rule biases; raster.c tri_row without the tall snap). */
static bool tri_covers(const struct rast_prim *p, int32_t x, int32_t y)
{
    int64_t X = sample_pos(x), Y = sample_pos(y);
    for (unsigned i = 0; i < 3; i++)
        if (p->ea[i] * X + p->eb[i] * Y + p->ec[i] + p->ebias[i] < 0) return false;
    return true;
}

/* The mip level of the 4-pixel span starting at x0 of row py of a
 * triangle (measured, ge-raster-pipeline.md "Mip level selection"): the q
 * at the span's second pixel in walking order (x0 + 1 left to right, x0 +
 * 2 right to left), or, when that one is outside the triangle, at its
 * first covered pixel; auto mode D = log16(g) - log16(q) with g the
 * largest plane gradient in texels per pixel (setup: log16_g). */
static struct lod tri_span_lod(const struct rast_prim *p, const struct rast_state *st, int32_t x0, int32_t py)
{
    struct lod l = {0, 0, true};
    int32_t pick = x0 + (p->rtl ? 2 : 1);
    if (!tri_covers(p, pick, py))
        for (int j = 0; j < 4; j++) {
            int32_t c = p->rtl ? x0 + 3 - j : x0 + j;
            if (tri_covers(p, c, py)) {
                pick = c;
                break;
            }
        }
    int64_t qv = plane_at(&p->pl[RP_Q], sample_pos(pick), sample_pos(py), p->ax, p->ay);
    gefloat q = gemath_from_scaled(qv >> RAST_PLANE_FRAC, p->exp[2]);
    l.magnify = sampler_level(&st->smp, p->log16_g - sampler_log2(q), q, &l.level, &l.frac);
    return l;
}

/* LOD of a rectangle from the texture coordinates at screen pixel (px,
 * py): the auto mode uses the u difference to the right neighbour and the
 * v difference to the pixel below (PPSSPP CalculateSamplingParams via
 * ApplyTexturing's ds, dt; no measurement covers sprites). */
static struct lod span_lod(const struct rast_prim *p, const struct rast_state *st, int32_t px, int32_t py)
{
    struct lod l = {0, 0, true};
    if (!needs_lod(st)) return l;
    if (p->kind == RAST_TRIANGLE && p->persp) return tri_span_lod(p, st, px - 1, py);
    int64_t X = sample_pos(px), Y = sample_pos(py);
    const struct rast_plane *pl = p->pl;
    int32_t u0, v0, u1, v1, ux, vx;
    gefloat q, qd;
    tex_coords(p, st, plane_at(&pl[RP_S], X, Y, p->ax, p->ay), plane_at(&pl[RP_T], X, Y, p->ax, p->ay),
               plane_at(&pl[RP_Q], X, Y, p->ax, p->ay), &u0, &v0, &q, false);
    tex_coords(p, st, plane_at(&pl[RP_S], X + 16, Y, p->ax, p->ay), plane_at(&pl[RP_T], X + 16, Y, p->ax, p->ay),
               plane_at(&pl[RP_Q], X + 16, Y, p->ax, p->ay), &u1, &vx, &qd, false);
    tex_coords(p, st, plane_at(&pl[RP_S], X, Y + 16, p->ax, p->ay), plane_at(&pl[RP_T], X, Y + 16, p->ax, p->ay),
               plane_at(&pl[RP_Q], X, Y + 16, p->ax, p->ay), &ux, &v1, &qd, false);
    int64_t du = (int64_t)u1 - u0, dv = (int64_t)v1 - v0;
    if (du < 0) du = -du;
    if (dv < 0) dv = -dv;
    uint64_t m = (uint64_t)(du > dv ? du : dv);
    int32_t lod_in = sampler_log2_fixed(m, 8);
    l.magnify = sampler_level(&st->smp, lod_in, q, &l.level, &l.frac);
    return l;
}

/* Host pointer to the color bytes of one row segment, when the
 * segment is contiguous in host memory (else NULL: per-pixel lookups). The
 * segment spans whole groups of 4 written pixels (REGION1 may mirror a pixel
 * inside its group). */
struct row_ptrs {
    uint8_t *fb;
    int32_t wx0;   /* written x of fb[0] */
};

static void row_ptrs(const struct rast_state *st, struct gt_mem *mem, int32_t y, int32_t xs, int32_t xe,
                     struct row_ptrs *rp)
{
    uint32_t wy = (uint32_t)(y + st->region_y);
    int32_t w0 = (xs + st->region_x) & ~3, w1 = (xe + st->region_x) | 3;
    rp->wx0 = w0;
    uint32_t n = (uint32_t)(w1 - w0 + 1);
    rp->fb = mem_ptr(mem, st->fb_addr + (wy * st->fb_stride + (uint32_t)w0) * st->fb_bpp, n * st->fb_bpp);
}

/* Shades and writes one pixel at screen (x, y) from its plane values; rp
 * (may be NULL) holds the row's memory when it is contiguous. */
static void shade(const struct rast_prim *p, const struct rast_state *st, struct gt_mem *mem, int32_t x, int32_t y, const int64_t *val,
                  const struct lod *lod, const struct row_ptrs *rp, struct rast_stats *stats)
{
    int64_t zv = val[RP_Z] >> RAST_PLANE_FRAC;
    uint16_t z = (uint16_t)(zv < 0 ? 0 : zv > 65535 ? 65535 : zv);
    uint8_t prim[4], sec[3], out[4];
    if (p->flat_color) {
        memcpy(prim, p->color, 4);
        memcpy(sec, p->color1, 3);
    } else {
        for (unsigned k = 0; k < 4; k++) prim[k] = clamp8(val[RP_R + k] >> RAST_PLANE_FRAC);
        for (unsigned k = 0; k < 3; k++) sec[k] = clamp8(val[RP_R1 + k] >> RAST_PLANE_FRAC);
    }
    /* An antialiased line's alpha replaces the vertex alpha (raster.c
     * line_aa_alpha, measured). */
    if (p->kind == RAST_LINE && st->antialias) prim[3] = clamp8(val[RP_A] >> RAST_PLANE_FRAC);
    uint8_t fog = 255;
    if (st->px.fog && !st->px.clear) {
        /* PPSSPP ClampFogDepth: floor(f * 256) limited to 0..255. */
        fog = clamp8(val[RP_FOG] >> RAST_PLANE_FRAC);
    }
    bool round_uv = GT_COMPAT(ROUND) && (lod->magnify ? st->smp.mag_linear : st->smp.min_linear);
    int32_t u = 0, v = 0;
    bool compat_uv = GT_COMPAT(PLANES) && p->kind == RAST_TRIANGLE;
    if (compat_uv) compat_pixel(p, st, x, y, &z, prim, sec, &fog, &u, &v, round_uv);
    if (GT_COMPAT(PLANES) && p->kind == RAST_RECT && st->textured) {
        compat_rect_uv(p, st, x, y, &u, &v, round_uv);
        compat_uv = true;
    }
    if (st->textured) {
        gefloat w;
        if (!compat_uv) tex_coords(p, st, val[RP_S], val[RP_T], val[RP_Q], &u, &v, &w, round_uv);
        struct lod l = *lod;
        if (GT_COMPAT(ZEROAREA) && p->compat_zero_area) compat_zero_area_tex(st, &l.level, &l.frac, &l.magnify, &u, &v);
        uint32_t tx = sampler_sample(&st->smp, mem, u, v, l.level, l.frac, l.magnify);
        uint8_t texel[4] = {(uint8_t)tx, (uint8_t)(tx >> 8), (uint8_t)(tx >> 16), (uint8_t)(tx >> 24)};
        if (GT_COMPAT(ZEROAREA) && p->compat_zero_area && !p->flat_color) {
            bool flat0, flat1;
            compat_zero_area_flat(p, &flat0, &flat1);
            compat_zero_area_texfunc(&st->px, flat0, flat1, prim, texel, sec, out);
        } else {
            pixel_texfunc(&st->px, prim, texel, sec, out);
        }
    } else if (!st->px.clear) {
        pixel_add_secondary(prim, sec, out);
    } else {
        memcpy(out, prim, 4);
    }
    /* The written position (REGION1); dithering uses the drawn one. A
     * written x left of column 0 is the end of the row above; on the first
     * row it would be below the buffer's base, which the tile grid does not
     * cover, so it is not written (model choice, docs/DESIGN.md). */
    int32_t swx = rast_write_x(st, x);
    if ((int64_t)(y + st->region_y) * st->fb_stride + swx < 0) return;
    uint32_t wx = (uint32_t)swx, wy = (uint32_t)(y + st->region_y);
    uint32_t bpp = st->fb_bpp;
    uint8_t *fb, *zb = NULL;
    if (rp && rp->fb) {
        fb = rp->fb + (wx - (uint32_t)rp->wx0) * bpp;
    } else {
        fb = mem_ptr(mem, st->fb_addr + (wy * st->fb_stride + wx) * bpp, bpp);
        if (!fb) return;
    }
    if (st->uses_depth) zb = rast_depth_ptr(st, mem, wx, wy);
#ifdef GT_PPSSPP_COMPAT
    uint32_t before = 0;
    bool traced = compat_trace_wanted(st->fb_addr, wx, wy);
    if (traced) memcpy(&before, fb, bpp);
#endif
    if (GT_COMPAT(AALINE) && p->compat_full_alpha_blend) {
        struct gt_pixel_state ps = st->px;
        if (ps.blend_src == PX_BF_SRC_A) ps.blend_src = PX_BF_FIX, memset(ps.fix_a, 0xFF, 3);
        if (ps.blend_dst == PX_BF_INV_SRC_A) ps.blend_dst = PX_BF_FIX, memset(ps.fix_b, 0, 3);
        pixel_write(&ps, x, y, z, out, fog, fb, zb);
    } else if (GT_COMPAT(ATEST) && p->no_alpha_test) {
        struct gt_pixel_state ps = st->px;
        ps.alpha_test = false;
        pixel_write(&ps, x, y, z, out, fog, fb, zb);
    } else if (GT_COMPAT(ATFORCE) && p->force_alpha_test) {
        struct gt_pixel_state ps = st->px;
        ps.alpha_test = true, ps.atest_func = PX_NOTEQUAL, ps.atest_ref = 0, ps.atest_mask = 0xFF;
        pixel_write(&ps, x, y, z, out, fog, fb, zb);
    } else {
        pixel_write(&st->px, x, y, z, out, fog, fb, zb);
    }
#ifdef GT_PPSSPP_COMPAT
    if (traced) {
        uint32_t after = 0;
        memcpy(&after, fb, bpp);
        compat_trace_pixel(p, st, x, y, z, prim, out, u, v, before, after, lod->level, lod->frac, lod->magnify);
    }
#endif
    stats->pixels++;
}

/* Which planes a primitive's pixels read. */
static unsigned used_planes(const struct rast_prim *p, const struct rast_state *st, unsigned *list)
{
    unsigned n = 0;
    list[n++] = RP_Z;
    if (!p->flat_color)
        for (unsigned k = RP_R; k <= RP_B1; k++) list[n++] = k;
    if (st->px.fog && !st->px.clear) list[n++] = RP_FOG;
    if (st->textured) {
        list[n++] = RP_S, list[n++] = RP_T;
        if (p->persp) list[n++] = RP_Q;
    }
    return n;
}

/* Draws pixels xs..xe (inclusive) of screen row py, all covered. Plane
 * values are evaluated exactly at xs and stepped by 16 gx per pixel; only
 * covered pixels are stepped over, where values stay within the vertex
 * range, and the stepping is done in unsigned arithmetic so the step after
 * the last pixel cannot overflow. */
static void draw_span_row(const struct rast_prim *p, const struct rast_state *st, struct gt_mem *mem, int32_t py, int32_t xs, int32_t xe,
                          struct rast_stats *stats)
{
    unsigned list[RP_COUNT];
    unsigned n = used_planes(p, st, list);
    int64_t val[RP_COUNT] = {0};
    uint64_t step[RP_COUNT] = {0};
    int64_t X = sample_pos(xs), Y = sample_pos(py);
    for (unsigned i = 0; i < n; i++) {
        unsigned k = list[i];
        val[k] = plane_at(&p->pl[k], X, Y, p->ax, p->ay);
        step[k] = (uint64_t)p->pl[k].gx * 16u;
    }
    bool tex = st->textured;
    struct lod lod = {0, 0, true};
    int32_t span = INT32_MIN;
    struct row_ptrs rp;
    row_ptrs(st, mem, py, xs, xe, &rp);
    for (int32_t x = xs; x <= xe; x++) {
        if (tex && GT_COMPAT(LOD) && GT_COMPAT(PLANES) && p->kind == RAST_TRIANGLE) {
            if (needs_lod(st)) lod.magnify = compat_lod(p, st, x, py, &lod.level, &lod.frac);
        } else if (tex && (x >> 2) != span) {
            span = x >> 2;
            lod = span_lod(p, st, (x & ~3) + 1, py);
        }
        shade(p, st, mem, x, py, val, &lod, &rp, stats);
        for (unsigned i = 0; i < n; i++) {
            unsigned k = list[i];
            val[k] = (int64_t)((uint64_t)val[k] + step[k]);
        }
    }
}

/* The pixels of row py whose centre edge i covers: [*lo, *hi] narrowed. */
static bool edge_range(const struct rast_prim *p, unsigned i, int64_t Y, int64_t *lo, int64_t *hi)
{
    int64_t a = p->ea[i];
    int64_t base = p->eb[i] * Y + p->ec[i] + p->ebias[i] + a * 8;
    /* Covered: 16 a px + base >= 0. */
    if (a > 0) {
        int64_t b = cdiv(-base, 16 * a);
        if (b > *lo) *lo = b;
    } else if (a < 0) {
        int64_t b = fdiv(base, -16 * a);
        if (b < *hi) *hi = b;
    } else if (base < 0) {
        return false;
    }
    return true;
}

/* The covered pixels of a triangle's row py, limited to [xs, xe]: a run
 * [*xs, *xe] (empty when *xs > *xe) and, for a very tall triangle's snapping
 * edge, *extra: one more pixel outside the run (INT32_MIN: none). */
static void tri_row(const struct rast_prim *p, int32_t py, int32_t *xs, int32_t *xe, int32_t *extra)
{
    int64_t lo = p->x0 > *xs ? p->x0 : *xs, hi = p->x1 < *xe ? p->x1 : *xe;
    int64_t Y = sample_pos(py);
    *extra = INT32_MIN;
    bool ok = true;
    for (unsigned i = 0; i < 3 && ok; i++)
        if ((int)i != p->snap_edge) ok = edge_range(p, i, Y, &lo, &hi);
    if (ok && p->snap_edge >= 0) {
        /* The long edge alone bounds one side at L (left) or R (right); the
         * span's first (last) pixel takes the edge at the span's last
         * (first) pixel: floor4(L) (R | 3) is covered too. */
        int64_t elo = INT32_MIN, ehi = INT32_MAX;
        ok = edge_range(p, (unsigned)p->snap_edge, Y, &elo, &ehi);
        if (ok && p->snap_left && elo > INT32_MIN) {
            int64_t first = elo & ~(int64_t)3;
            if (first < elo && first >= lo && first <= hi) *extra = (int32_t)first;
            if (elo > lo) lo = elo;
        } else if (ok && ehi < INT32_MAX) {
            int64_t last = ehi | 3;
            if (last > ehi && last >= lo && last <= hi) *extra = (int32_t)last;
            if (ehi < hi) hi = ehi;
        }
    }
    if (!ok) lo = 1, hi = 0;
    *xs = (int32_t)lo, *xe = (int32_t)hi;
}

/* Whether tile t owns the pixel drawn at screen (x, y). */
static bool owns(const struct rast_tile *t, const struct rast_state *st, int32_t x, int32_t y)
{
    if (!t->tstride) return true;
    int64_t lin = (int64_t)(y + st->region_y) * t->tstride + (x + st->region_x);
    if (lin < 0) return false;
    int64_t cy = lin / t->tstride, cx = lin % t->tstride;
    return cx >= t->cx0 && cx < t->cx1 && cy >= t->cy0 && cy < t->cy1;
}

/* ---- Lines (measured, ge-raster-pipeline.md "Lines") --------------------
 *
 * Diamond exit: a pixel is lit when the line passes through the inside of
 * its diamond |x - cx| + |y - cy| < 1/2 (8 in 1/16 pixel) and does not end
 * inside it. The major axis is x only when |dx| > |dy|. A point exactly on a
 * diamond's boundary counts as inside on the top corner and its two edges
 * for x-major lines, the left corner and its two edges for y-major ones;
 * the major-axis corners count as outside. All in 1/16 pixel, exact. */

/* A boundary point (d = 8) at (dx, dy) from the centre: inside? */
static bool diamond_edge_inside(int64_t dx, int64_t dy, bool y_major)
{
    return (y_major ? dx : dy) < 0;
}

/* Whether the point (x, y) is inside the diamond centred at (cx, cy). */
static bool in_diamond(int64_t cx, int64_t cy, int64_t x, int64_t y, bool y_major)
{
    int64_t dx = x - cx, dy = y - cy;
    int64_t d = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
    return d != 8 ? d < 8 : diamond_edge_inside(dx, dy, y_major);
}

/* Whether the segment (x0, y0)-(x1, y1) reaches the diamond's inside, or
 * touches its boundary where a boundary point counts as inside: the
 * segment's parameter range inside the four closed half-planes, then the
 * middle of that range classified. */
static bool crosses_diamond(int64_t cx, int64_t cy, int64_t x0, int64_t y0, int64_t x1, int64_t y1, bool y_major)
{
    int64_t lon = 0, lod = 1, hin = 1, hid = 1; /* t in [lon/lod, hin/hid] */
    static const int sg[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    for (int i = 0; i < 4; i++) {
        int64_t a = sg[i][0] * (x1 - x0) + sg[i][1] * (y1 - y0);
        int64_t b = 8 - (sg[i][0] * (x0 - cx) + sg[i][1] * (y0 - cy)); /* a t <= b */
        if (a == 0) {
            if (b < 0) return false;
        } else if (a > 0) {
            if (b * hid < hin * a) hin = b, hid = a;
        } else if (-b * lod > lon * -a) {
            lon = -b, lod = -a;
        }
    }
    if (lon * hid > hin * lod) return false;
    int64_t tn = lon * hid + hin * lod, td = 2 * lod * hid;
    int64_t dxn = (x0 - cx) * td + (x1 - x0) * tn, dyn = (y0 - cy) * td + (y1 - y0) * tn;
    int64_t dn = (dxn < 0 ? -dxn : dxn) + (dyn < 0 ? -dyn : dyn);
    if (dn < 8 * td) return true;
    return diamond_edge_inside(dxn, dyn, y_major);
}

/* A value along the line at pixel (px, py) (measured): the difference of
 * the end values times the setup reciprocal of the major length, floored to
 * 14 fraction bits per subpixel, times the signed walk from v0 to the
 * pixel centre along the line's direction, added to v0's value, floored. */
static int64_t line_value(const struct rast_prim *p, const struct rast_plane *pl, int32_t px, int32_t py)
{
    bool xm = (p->ldx < 0 ? -p->ldx : p->ldx) > (p->ldy < 0 ? -p->ldy : p->ldy);
    int64_t len = xm ? p->ldx : p->ldy, a0 = xm ? p->lx : p->ly;
    int64_t ac = sample_pos(xm ? px : py);
    if (len == 0) return pl->gx;
    unsigned e;
    uint64_t q = gemath_setup_recip((uint64_t)(len < 0 ? -len : len), &e);
    __int128 k = ((__int128)(pl->gx - pl->v) * (__int128)q) >> (e + 2);
    int64_t walk = len > 0 ? ac - a0 : a0 - ac;
    return sat64(((__int128)pl->v * ((int64_t)1 << RAST_PLANE_FRAC) + k * walk) >> RAST_PLANE_FRAC);
}

/* An antialiased line's alpha at pixel (px, py) (measured): 128 minus the
 * pixel centre's minor offset from the line in 1/16 pixel, the slope a
 * gradient like a plane's. */
static uint8_t line_aa_alpha(const struct rast_prim *p, int32_t px, int32_t py)
{
    int64_t x0 = p->lx, y0 = p->ly, x1 = x0 + p->ldx, y1 = y0 + p->ldy;
    int64_t PX = sample_pos(px), PY = sample_pos(py), t;
    if ((x1 - x0 < 0 ? x0 - x1 : x1 - x0) <= (y1 - y0 < 0 ? y0 - y1 : y1 - y0)) {
        t = x0, x0 = y0, y0 = t;
        t = x1, x1 = y1, y1 = t;
        t = PX, PX = PY, PY = t;
    }
    int64_t den = x1 - x0;
    if (den == 0) return 128;
    unsigned e;
    uint64_t q = gemath_setup_recip((uint64_t)(den < 0 ? -den : den), &e);
    int64_t walk = den > 0 ? PX - x0 : x0 - PX;
    int64_t slope = (int64_t)((-16 * (__int128)(y1 - y0) * (__int128)q) >> (e + 2));
    int64_t o = (int64_t)(((__int128)16 * (PY - y0) * (1 << 14) + (__int128)slope * walk) >> 14);
    int64_t a = 128 - (o < 0 ? -o : o);
    return (uint8_t)(a < 0 ? 0 : a > 255 ? 255 : a);
}

/* The values of the line at pixel (px, py), in the planes' units. */
static void line_values(const struct rast_prim *p, const unsigned *list, unsigned n, int32_t px, int32_t py,
                        int64_t *val)
{
    for (unsigned j = 0; j < n; j++) {
        unsigned k = list[j];
        val[k] = sat64((__int128)line_value(p, &p->pl[k], px, py) * ((int64_t)1 << RAST_PLANE_FRAC));
    }
}

static void draw_line_pixel(const struct rast_prim *p, const struct rast_state *st, const struct rast_tile *t,
                            struct gt_mem *mem, const unsigned *list, unsigned n, int32_t x, int32_t y, bool x_major,
                            struct rast_stats *stats)
{
    if (x < p->x0 || x > p->x1 || y < p->y0 || y > p->y1 || !owns(t, st, x, y)) return;
    int64_t val[RP_COUNT] = {0};
    line_values(p, list, n, x, y, val);
    struct lod lod = {0, 0, true};
    if (st->textured && needs_lod(st)) {
        /* The texture step to the next pixel along the major axis. */
        int32_t u0, v0, u1, v1;
        gefloat w, w1;
        int64_t nv[RP_COUNT] = {0};
        int32_t sx = x_major ? (p->ldx >= 0 ? 1 : -1) : 0, sy = x_major ? 0 : (p->ldy >= 0 ? 1 : -1);
        line_values(p, list, n, x + sx, y + sy, nv);
        tex_coords(p, st, val[RP_S], val[RP_T], val[RP_Q], &u0, &v0, &w, false);
        tex_coords(p, st, nv[RP_S], nv[RP_T], nv[RP_Q], &u1, &v1, &w1, false);
        int64_t du = (int64_t)u1 - u0, dv = (int64_t)v1 - v0;
        if (du < 0) du = -du;
        if (dv < 0) dv = -dv;
        lod.magnify = sampler_level(&st->smp, sampler_log2_fixed((uint64_t)(du > dv ? du : dv), 8), w, &lod.level,
                                    &lod.frac);
    }
    if (st->antialias) val[RP_A] = (int64_t)line_aa_alpha(p, x, y) << RAST_PLANE_FRAC;
    shade(p, st, mem, x, y, val, &lod, NULL, stats);
}

static void draw_line(const struct rast_prim *p, const struct rast_state *st, const struct rast_tile *t, struct gt_mem *mem,
                      struct rast_stats *stats)
{
    unsigned list[RP_COUNT];
    unsigned n = used_planes(p, st, list);
    int64_t x0 = p->lx, y0 = p->ly, x1 = x0 + p->ldx, y1 = y0 + p->ldy;
    bool xm = (p->ldx < 0 ? -p->ldx : p->ldx) > (p->ldy < 0 ? -p->ldy : p->ldy);
    int64_t a0 = xm ? x0 : y0, a1 = xm ? x1 : y1, b0 = xm ? y0 : x0, b1 = xm ? y1 : x1;
    int dir = a1 >= a0 ? 1 : -1, bdir = b1 >= b0 ? 1 : -1;
    /* Columns along the major axis from one before v0's pixel to one past
     * v1's, in the line's direction; in each, the three pixels around the
     * line's minor position at the column centre, in the minor direction. */
    int64_t first = (a0 >> 4) - dir, last = (a1 >> 4) + dir;
    for (int64_t c = first; c != last + dir; c += dir) {
        int64_t ac = sample_pos(c);
        __int128 num = (__int128)b0 * (a1 - a0) + (__int128)(ac - a0) * (b1 - b0), den = a1 - a0;
        __int128 q = num / den;
        if (num % den != 0 && ((num < 0) != (den < 0))) q--;
        int64_t r = (int64_t)q >> 4;
        for (int k = -1; k <= 1; k++) {
            int64_t rr = r + k * bdir, px = xm ? c : rr, py = xm ? rr : c;
            int64_t cx = sample_pos(px), cy = sample_pos(py);
            if (in_diamond(cx, cy, x1, y1, !xm)) continue;
            if (!in_diamond(cx, cy, x0, y0, !xm) && !crosses_diamond(cx, cy, x0, y0, x1, y1, !xm)) continue;
            if (px < INT32_MIN || px > INT32_MAX || py < INT32_MIN || py > INT32_MAX) continue;
            draw_line_pixel(p, st, t, mem, list, n, (int32_t)px, (int32_t)py, xm, stats);
        }
    }
}

/* Screen rows that can hold pixels of tile t for a primitive spanning
 * x0..x1, y0..y1: a pixel of row y lands in canonical row y + x div
 * tstride. */
void rast_draw(const struct rast_prim *p, const struct rast_state *st, const struct rast_tile *t, struct gt_mem *mem, struct rast_stats *stats)
{
    stats->prims++;
    if (p->kind == RAST_LINE) {
        draw_line(p, st, t, mem, stats);
        return;
    }
    if (p->kind == RAST_POINT) {
        if (!owns(t, st, p->x0, p->y0)) return;
        int64_t val[RP_COUNT];
        for (unsigned k = 0; k < RP_COUNT; k++) val[k] = p->pl[k].v;
        struct lod lod = {0, 0, true};
        if (st->textured && needs_lod(st)) {
            int32_t u, v;
            gefloat w;
            tex_coords(p, st, val[RP_S], val[RP_T], val[RP_Q], &u, &v, &w, false);
            /* No neighbour: the auto mode sees a zero difference (PPSSPP
             * DrawPoint). */
            lod.magnify = sampler_level(&st->smp, SAMPLER_LOG2_ZERO, w, &lod.level, &lod.frac);
        }
        shade(p, st, mem, p->x0, p->y0, val, &lod, NULL, stats);
        return;
    }
    /* Rows: a pixel drawn at (x, y) is written at (x + rx, y + ry) (up to
     * the order inside groups of 4) and lands in canonical row
     * y + ry + floor((x + rx) / tstride). */
    int32_t rx = st->region_x, ry = st->region_y;
    int32_t K0 = 0, K1 = 0, ys = p->y0, ye = p->y1;
    if (t->tstride) {
        K0 = rast_floordiv(p->x0 + rx, (int32_t)t->tstride);
        K1 = rast_floordiv(p->x1 + rx, (int32_t)t->tstride);
        if (ys < t->cy0 - ry - K1) ys = t->cy0 - ry - K1;
        if (ye > t->cy1 - 1 - ry - K0) ye = t->cy1 - 1 - ry - K0;
    }
    for (int32_t py = ys; py <= ye; py++) {
        for (int32_t k = K0; k <= K1; k++) {
            int32_t xs = p->x0, xe = p->x1;
            if (t->tstride) {
                int32_t cy = py + ry + k;
                if (cy < t->cy0 || cy >= t->cy1) continue;
                int32_t base = k * (int32_t)t->tstride - rx;
                if (xs < base + t->cx0) xs = base + t->cx0;
                if (xe > base + t->cx1 - 1) xe = base + t->cx1 - 1;
                if (xs > xe) continue;
            }
            if (p->kind != RAST_TRIANGLE) {
                draw_span_row(p, st, mem, py, xs, xe, stats);
                continue;
            }
            int32_t extra;
            tri_row(p, py, &xs, &xe, &extra);
            /* Left to right: a snapped pixel left of the run comes first. */
            if (extra != INT32_MIN && extra < xs) draw_span_row(p, st, mem, py, extra, extra, stats);
            if (xs <= xe) draw_span_row(p, st, mem, py, xs, xe, stats);
            if (extra != INT32_MIN && extra > xe) draw_span_row(p, st, mem, py, extra, extra, stats);
        }
    }
}
