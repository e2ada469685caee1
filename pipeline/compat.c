/* PPSSPP emulation switches (see compat.h). These functions describe what
 * PPSSPP's software renderer does, in getile's own terms, so that the
 * diagnostic build can measure how much of a reference difference each
 * GE-HARDWARE.md rule accounts for. They are never used by the normal build
 * (GT_COMPAT() is 0 there). */
#include "compat.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raster.h"
#include "transform.h"

#ifdef GT_PPSSPP_COMPAT
unsigned gt_compat_flags;
static pthread_once_t compat_once = PTHREAD_ONCE_INIT;
static void compat_read_env(void)
{
    const char *e = getenv("GETILE_PPSSPP_COMPAT");
    unsigned f = GT_COMPAT_ALL;
    if (e && gt_compat_parse(e, &f) < 0) f = GT_COMPAT_ALL;
    gt_compat_flags = f;
}
#endif

unsigned gt_compat_init(void)
{
#ifdef GT_PPSSPP_COMPAT
    pthread_once(&compat_once, compat_read_env);
    return gt_compat_flags;
#else
    return 0;
#endif
}

static const struct { const char *name; unsigned flag; } compat_names[] = {
    {"arith", GT_COMPAT_ARITH}, {"merge", GT_COMPAT_MERGE}, {"viewer", GT_COMPAT_VIEWER}, {"replay", GT_COMPAT_REPLAY}, {"atest", GT_COMPAT_ATEST},
    {"round", GT_COMPAT_ROUND}, {"rectedge", GT_COMPAT_RECTEDGE}, {"light", GT_COMPAT_LIGHT},
    {"planes", GT_COMPAT_PLANES}, {"aaline", GT_COMPAT_AALINE},
    {"texcache", GT_COMPAT_TEXCACHE}, {"lod", GT_COMPAT_LOD}, {"lineedge", GT_COMPAT_LINEEDGE},
    {"zeroarea", GT_COMPAT_ZEROAREA}, {"patch", GT_COMPAT_PATCH}, {"atforce", GT_COMPAT_ATFORCE},
    {"bands", GT_COMPAT_BANDS}, {"all", GT_COMPAT_ALL}, {"none", 0},
};

int gt_compat_parse(const char *list, unsigned *flags)
{
    unsigned f = 0;
    const char *p = list;
    while (*p) {
        size_t n = strcspn(p, ",");
        bool minus = n > 0 && *p == '-';
        const char *name = p + minus;
        size_t len = n - minus;
        bool found = false;
        for (size_t i = 0; i < sizeof compat_names / sizeof compat_names[0]; i++) {
            if (strlen(compat_names[i].name) == len && strncmp(compat_names[i].name, name, len) == 0) {
                f = minus ? f & ~compat_names[i].flag : f | compat_names[i].flag;
                found = true;
            }
        }
        if (!found && (len || minus)) return -1;
        p += n;
        if (*p == ',') p++;
    }
    *flags = f;
    return 0;
}

static float to_f(gefloat x)
{
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

static gefloat from_f(float f)
{
    gefloat x;
    memcpy(&x, &f, sizeof x);
    return x;
}

/* ---- merge ---------------------------------------------------------------- */

/* IsCoordRectangleCompatible: the first vertex may start a rectangle. */
static bool rect_first_ok(const struct compat_rect_ctx *c, const struct gt_vout *v)
{
    if (c->through) return true;
    float w = to_f(v->clip[3]);
    return !v->outside && !(w < 0.0f) && !(to_f(v->clip[2]) < -w);
}

/* AreCoordsRectangleCompatible: vertex b may share a rectangle with a. */
static bool rect_pair_ok(const struct compat_rect_ctx *c, const struct gt_vout *a, const struct gt_vout *b)
{
    if (memcmp(a->color, b->color, 4) != 0) return false;
    if (a->z != b->z && c->z_matters) return false;
    if (c->through) return true;
    if (memcmp(a->color1, b->color1, 3) != 0 || b->outside) return false;
    float w0 = to_f(a->clip[3]), w1 = to_f(b->clip[3]);
    if (c->textured && w1 != w0) {
        const float half_texel = 0.5f / 512.0f;
        if (w1 - half_texel > w0 || w1 + half_texel < w0) return false;
    }
    if (w1 < 0.0f || to_f(b->clip[2]) < -w1) return false;
    if (c->textured && a->q != b->q) return false;
    if (c->fog && a->fog != b->fog) {
        const float half_step = 0.5f / 255.0f;
        float f0 = to_f(a->fog), f1 = to_f(b->fog);
        if (f1 - half_step > f0 || f1 + half_step < f0) return false;
    }
    return true;
}

/* The compatibility checks over n vertices, and the corners: top-left is the
 * last vertex with both coordinates <= the current one's, bottom-right the
 * last with both >=. */
static bool rect_corners(const struct compat_rect_ctx *c, const struct gt_vout *v, int n, int *tl, int *br)
{
    if (!rect_first_ok(c, &v[0])) return false;
    *tl = 0, *br = 0;
    for (int i = 1; i < n; i++) {
        if (!rect_pair_ok(c, &v[0], &v[i])) return false;
        if (v[i].x16 <= v[*tl].x16 && v[i].y16 <= v[*tl].y16) *tl = i;
        if (v[i].x16 >= v[*br].x16 && v[i].y16 >= v[*br].y16) *br = i;
    }
    return true;
}

#define X(i) v[i].x16
#define Y(i) v[i].y16
#define U(i) v[i].uv[0]
#define V(i) v[i].uv[1]
#define UF(i) to_f(v[i].uv[0])
#define VF(i) to_f(v[i].uv[1])

bool compat_rect_pair6(const struct compat_rect_ctx *c, const struct gt_vout *v, int *tl, int *br)
{
    if (!rect_corners(c, v, 6, tl, br)) return false;
    /* Only the order TL, TR, BR, TL, BR, BL is recognised. */
    if (*tl != 3 || *br != 4) return false;
    if (!(X(0) == X(3) && X(0) == X(5) && X(1) == X(2) && X(1) == X(4) && Y(0) == Y(1) && Y(0) == Y(3) &&
          Y(2) == Y(4) && Y(2) == Y(5)))
        return false;
    if (!c->textured) return true;
    if (!(U(0) == U(3) && U(0) == U(5) && U(1) == U(2) && U(1) == U(4) && V(0) == V(1) && V(0) == V(3) &&
          V(2) == V(4) && V(2) == V(5)))
        return false;
    return VF(*tl) < VF(*br) && Y(*tl) < Y(*br) && UF(*tl) < UF(*br) && X(*tl) < X(*br);
}

bool compat_rect_strip4(const struct compat_rect_ctx *c, const struct gt_vout *v, int *tl, int *br)
{
    if (!rect_corners(c, v, 4, tl, br)) return false;
    if (X(0) == X(1) && Y(0) == Y(2) && X(2) == X(3) && Y(1) == Y(3))
        return !c->textured || (U(0) == U(1) && V(0) == V(2) && U(2) == U(3) && V(1) == V(3));
    if (X(0) == X(2) && Y(0) == Y(1) && X(1) == X(3) && Y(2) == Y(3))
        return !c->textured || (U(0) == U(2) && V(0) == V(1) && U(1) == U(3) && V(2) == V(3));
    return false;
}

bool compat_rect_fan4(const struct compat_rect_ctx *c, const struct gt_vout *v, int *tlp, int *brp)
{
    if (!rect_corners(c, v, 4, tlp, brp)) return false;
    int tl = *tlp, br = *brp, tr = 1, bl = 1;
    for (int i = 0; i < 4; i++) {
        if (i == tl || i == br) continue;
        if (X(i) <= X(tl) && Y(i) >= Y(tl)) bl = i;
        if (X(i) >= X(br) && Y(i) <= Y(br)) tr = i;
    }
    if (tl + tr + bl + br != 6) return false;
    if (!(X(tl) == X(bl) && X(tr) == X(br) && Y(tl) == Y(tr) && Y(bl) == Y(br))) return false;
    if (!c->textured) return true;
    if (!(U(tl) == U(bl) && U(tr) == U(br) && V(tl) == V(tr) && V(bl) == V(br))) return false;
    return VF(tl) < VF(br) && Y(tl) < Y(br) && UF(tl) < UF(br) && X(tl) < X(br);
}

bool compat_rect_slices(const struct compat_rect_ctx *c, const struct gt_vout *v)
{
    for (int i = 1; i < 4; i++) {
        if (memcmp(v[i].color, v[0].color, 4) != 0) return false;
        if (v[i].z != v[0].z && c->z_matters) return false;
    }
    if (!(Y(0) == Y(2) && Y(1) == Y(3) && Y(1) > Y(0) && X(1) == X(2) && X(0) < X(1) && X(2) < X(3))) return false;
    if (!c->textured) return true;
    if (V(0) != V(2) || V(1) != V(3) || VF(0) > VF(1)) return false;
    if (U(1) != U(2) || UF(0) > UF(1) || UF(2) > UF(3)) return false;
    /* Both halves map one texel to one pixel. */
    int d1 = (int)((UF(1) - UF(0)) * 16.0f), d2 = (int)((UF(3) - UF(2)) * 16.0f);
    return d1 == X(1) - X(0) && d2 == X(3) - X(2);
}

#undef X
#undef Y
#undef U
#undef V
#undef UF
#undef VF

/* ---- arith ---------------------------------------------------------------- */

static int32_t sat_i32(double v)
{
    return v >= 2147483647.0 ? INT32_MAX : v <= -2147483648.0 ? INT32_MIN : (int32_t)v;
}

void compat_screen(const struct gt_xform *xf, struct gt_vout *out)
{
    /* TransformUnit: clip * scale / w + center in floats, then
     * (int)(x * 16 + 0.375 - offset). */
    float w = to_f(out->clip[3]);
    for (int i = 0; i < 3; i++)
        out->screen[i] = from_f(to_f(out->clip[i]) * to_f(xf->vp_scale[i]) / w + to_f(xf->vp_center[i]));
    out->x16 = sat_i32(to_f(out->screen[0]) * 16.0f + 0.375f - (float)xf->offset_x);
    out->y16 = sat_i32(to_f(out->screen[1]) * 16.0f + 0.375f - (float)xf->offset_y);
}

/* ---- arith: near-plane clipping -------------------------------------------- */

gefloat compat_div(gefloat a, gefloat b) { return from_f(to_f(a) / to_f(b)); }

/* ---- planes --------------------------------------------------------------- */

void compat_keep_vertices(struct rast_prim *p, const struct gt_vout *const *v)
{
#ifdef GT_PPSSPP_COMPAT
    for (int i = 0; i < 3; i++) {
        struct compat_vertex *c = &p->cv[i];
        c->x = v[i]->x16, c->y = v[i]->y16, c->z = v[i]->z;
        memcpy(c->c0, v[i]->color, 4);
        memcpy(c->c1, v[i]->color1, 3);
        c->s = to_f(v[i]->uv[0]), c->t = to_f(v[i]->uv[1]), c->q = to_f(v[i]->q);
        c->w = to_f(v[i]->clip[3]), c->fog = to_f(v[i]->fog);
    }
#else
    (void)p, (void)v;
#endif
}

#ifdef GT_PPSSPP_COMPAT
static uint8_t fog8(float f)
{
    /* ClampFogDepth: floor(f * 256) limited to 0..255. */
    if (!(f > 0.0f)) return 0;
    if (f >= 1.0f) return 255;
    return (uint8_t)(f * 256.0f);
}

/* DrawTriangleSlice's barycentric weights of the three vertices c at pixel
 * (px, py) (edge functions at 16 px + 7, converted to float); returns
 * 1 / their sum. */
static float compat_weights(const struct compat_vertex *c, int32_t px, int32_t py, float w[3])
{
    int64_t X = 16 * (int64_t)px + 7, Y = 16 * (int64_t)py + 7;
    int64_t sum = 0;
    for (int i = 0; i < 3; i++) {
        const struct compat_vertex *a = &c[(i + 1) % 3], *b = &c[(i + 2) % 3];
        int64_t e = (a->x - X) * (b->y - Y) - (b->x - X) * (a->y - Y);
        w[i] = (float)e;
        sum += e;
    }
    return 1.0f / (float)sum;
}

static int64_t uv_fixed(float s, unsigned lg, bool round_uv)
{
    float u = s * (float)(256u << lg);
    if (!(u > -9.2e18f && u < 9.2e18f)) return 0;
    return round_uv ? (int64_t)nearbyintf(u) : (int64_t)u;
}
#endif

void compat_pixel(const struct rast_prim *p, const struct rast_state *st, int32_t px, int32_t py, uint16_t *z,
                  uint8_t prim[4], uint8_t sec[3], uint8_t *fog, int32_t *u, int32_t *v, bool round_uv)
{
#ifdef GT_PPSSPP_COMPAT
    const struct compat_vertex *c = p->cv;
    float w[3];
    float recip = compat_weights(c, px, py, w);
    if (isinf(recip)) {
        /* "zeroarea": the weights sum to 0 (compat_weights gives an
         * infinite reciprocal), so PPSSPP's interpolated values are
         * 0 * inf = NaN, which the conversions turn into 0x80000000. Setup
         * already dropped such a triangle with varying depth outside
         * through mode (the depth range test rejects that depth).
         * Approximated: varying depth 0 (its low 16 bits), varying colors
         * clamped to 0 (raster.c applies SamplerJit's texture function to
         * them, compat_zero_area_texfunc); texture coordinates come from
         * compat_zero_area_tex. Flat depth is the third vertex's; flat
         * colors are exact. */
        *z = c[0].z == c[1].z && c[0].z == c[2].z ? (uint16_t)c[2].z : 0;
        if (!p->flat_color) {
            bool flat0, flat1;
            compat_zero_area_flat(p, &flat0, &flat1);
            if (flat0) memcpy(prim, c[2].c0, 4);
            else memset(prim, 0, 4);
            if (flat1) memcpy(sec, c[2].c1, 3);
            else memset(sec, 0, 3);
        }
        /* Fog: noFog when every vertex has fog >= 1; else the NaN x86
         * produces (sign set) makes ClampFogDepth return 0. */
        if (st->px.fog && !st->px.clear && !(c[0].fog >= 1.0f && c[1].fog >= 1.0f && c[2].fog >= 1.0f)) *fog = 0;
        *u = *v = 0;
        return;
    }
    if (!(c[0].z == c[1].z && c[0].z == c[2].z)) {
        /* Rasterizer.cpp DrawTriangleSlice: (zfloats * wsum_recip).Cast<int>(),
         * which is CVTPS2DQ: rounded to nearest (ties to even) whatever the
         * game's rounding mode ("round" does not apply: the references of
         * truncating games fit rounded depth too). */
        float zf = nearbyintf((w[0] * (float)c[0].z + w[1] * (float)c[1].z + w[2] * (float)c[2].z) * recip);
        *z = (uint16_t)(zf < 0.0f ? 0 : zf > 65535.0f ? 65535 : (int)zf);
    }
    if (!p->flat_color) {
        for (int k = 0; k < 4; k++) {
            float f = (c[0].c0[k] * w[0] + c[1].c0[k] * w[1] + c[2].c0[k] * w[2]) * recip;
            f = GT_COMPAT(ROUND) ? nearbyintf(f) : truncf(f);
            prim[k] = (uint8_t)(f < 0.0f ? 0 : f > 255.0f ? 255 : f);
        }
        for (int k = 0; k < 3; k++) {
            float f = (c[0].c1[k] * w[0] + c[1].c1[k] * w[1] + c[2].c1[k] * w[2]) * recip;
            f = GT_COMPAT(ROUND) ? nearbyintf(f) : truncf(f);
            sec[k] = (uint8_t)(f < 0.0f ? 0 : f > 255.0f ? 255 : f);
        }
    }
    if (st->px.fog && !st->px.clear) *fog = fog8((w[0] * c[0].fog + w[1] * c[1].fog + w[2] * c[2].fog) * recip);
    if (!st->textured) return;
    float s, t;
    unsigned lw = st->smp.wlog[0], lh = st->smp.hlog[0];
    if (st->through) {
        s = (c[0].s * w[0] + c[1].s * w[1] + c[2].s * w[2]) * recip / (float)(1u << lw);
        t = (c[0].t * w[0] + c[1].t * w[1] + c[2].t * w[2]) * recip / (float)(1u << lh);
    } else {
        float wq[3];
        for (int i = 0; i < 3; i++) wq[i] = w[i] * (1.0f / c[i].w);
        float qr = st->tex_proj ? 1.0f / (c[0].q * wq[0] + c[1].q * wq[1] + c[2].q * wq[2]) : 1.0f / (wq[0] + wq[1] + wq[2]);
        s = (c[0].s * wq[0] + c[1].s * wq[1] + c[2].s * wq[2]) * qr;
        t = (c[0].t * wq[0] + c[1].t * wq[1] + c[2].t * wq[2]) * qr;
    }
    int64_t uu = uv_fixed(s, lw, round_uv), vv = uv_fixed(t, lh, round_uv);
    *u = (int32_t)(uu > INT32_MAX ? INT32_MAX : uu < INT32_MIN ? INT32_MIN : uu);
    *v = (int32_t)(vv > INT32_MAX ? INT32_MAX : vv < INT32_MIN ? INT32_MIN : vv);
#else
    (void)p, (void)st, (void)px, (void)py, (void)z, (void)prim, (void)sec, (void)fog, (void)u, (void)v, (void)round_uv;
#endif
}

/* ---- planes: rectangles ---------------------------------------------------- */

void compat_rect_uv_setup(struct rast_prim *p, const struct rast_state *st, const struct gt_vout *v0,
                          const struct gt_vout *v1)
{
#ifdef GT_PPSSPP_COMPAT
    /* Floats throughout (through mode: texel coordinates scaled to 0..1 by
     * level 0's size first). Each coordinate runs linearly along one screen
     * axis between its values at the two vertices: s along x and t along
     * y when the first vertex is left of the second exactly when it is
     * above it, else s along y and t along x (a rotated sprite). Setup
     * keeps each coordinate's value at the rectangle's top-left corner and
     * its change over two pixels, the step of a 2x2 quad. */
    const float s[2] = {to_f(v0->uv[0]), to_f(v1->uv[0])}, t[2] = {to_f(v0->uv[1]), to_f(v1->uv[1])};
    const float sc_s = st->through ? 1.0f / (float)(1u << st->smp.wlog[0]) : 1.0f;
    const float sc_t = st->through ? 1.0f / (float)(1u << st->smp.hlog[0]) : 1.0f;
    int32_t X0 = v0->x16, Y0 = v0->y16, X1 = v1->x16, Y1 = v1->y16;
    int32_t xl = X0 < X1 ? X0 : X1, xr = X0 < X1 ? X1 : X0;
    int32_t yt = Y0 < Y1 ? Y0 : Y1, yb = Y0 < Y1 ? Y1 : Y0;
    float w = (float)(xr - xl) / 16.0f, h = (float)(yb - yt) / 16.0f;
    const int l = X0 < X1 ? 0 : 1, tp = Y0 < Y1 ? 0 : 1; /* the left and the top vertex */
    const bool rotated = l != tp;
    float sL = s[l] * sc_s, sR = s[1 - l] * sc_s, sT = s[tp] * sc_s, sB = s[1 - tp] * sc_s;
    float tL = t[l] * sc_t, tR = t[1 - l] * sc_t, tT = t[tp] * sc_t, tB = t[1 - tp] * sc_t;
    float rs, rt, sxs = 0.0f, sxt = 0.0f, sys = 0.0f, syt = 0.0f;
    if (!rotated) rs = sL, sxs = 2.0f * (sR - sL) / w, rt = tT, syt = 2.0f * (tB - tT) / h;
    else rs = sT, sys = 2.0f * (sB - sT) / h, rt = tL, sxt = 2.0f * (tR - tL) / w;
    /* Moved to the centre of the first drawn pixel. */
    float ox = (float)(16 * (int64_t)p->x0 + 8 - xl), oy = (float)(16 * (int64_t)p->y0 + 8 - yt);
    rs += (sxs / 32.0f) * ox, rt += (sxt / 32.0f) * ox;
    rs += (sys / 32.0f) * oy, rt += (syt / 32.0f) * oy;
    p->cv[0].s = rs, p->cv[0].t = rt;
    p->cv[1].s = sxs, p->cv[1].t = sxt;
    p->cv[2].s = sys, p->cv[2].t = syt;
#else
    (void)p, (void)st, (void)v0, (void)v1;
#endif
}

void compat_rect_uv(const struct rast_prim *p, const struct rast_state *st, int32_t px, int32_t py, int32_t *u,
                    int32_t *v, bool round_uv)
{
#ifdef GT_PPSSPP_COMPAT
    /* Summed one quad step at a time, in float, as PPSSPP accumulates it
     * (not multiplied: the rounding of each sum matters): quad rows from
     * the first drawn row, quads along the row from the first drawn column,
     * then half a step for the second column and row inside a quad. */
    const struct compat_vertex *c = p->cv;
    float rs = c[0].s, rt = c[0].t;
    for (int32_t y = p->y0 + 1; y < py; y += 2) rs += c[2].s, rt += c[2].t;
    float s = rs, t = rt;
    for (int32_t x = p->x0 + 1; x < px; x += 2) s += c[1].s, t += c[1].t;
    int lx = (px - p->x0) & 1, ly = (py - p->y0) & 1;
    float os = lx && ly ? 0.5f * c[1].s + 0.5f * c[2].s : lx ? 0.5f * c[1].s : ly ? 0.5f * c[2].s : 0.0f;
    float ot = lx && ly ? 0.5f * c[1].t + 0.5f * c[2].t : lx ? 0.5f * c[1].t : ly ? 0.5f * c[2].t : 0.0f;
    s += os, t += ot;
    int64_t uu = uv_fixed(s, st->smp.wlog[0], round_uv), vv = uv_fixed(t, st->smp.hlog[0], round_uv);
    *u = (int32_t)(uu > INT32_MAX ? INT32_MAX : uu < INT32_MIN ? INT32_MIN : uu);
    *v = (int32_t)(vv > INT32_MAX ? INT32_MAX : vv < INT32_MIN ? INT32_MIN : vv);
#else
    (void)p, (void)st, (void)px, (void)py, (void)u, (void)v, (void)round_uv;
#endif
}

/* ---- zeroarea --------------------------------------------------------------- */

void compat_zero_area_flat(const struct rast_prim *p, bool *flat0, bool *flat1)
{
#ifdef GT_PPSSPP_COMPAT
    const struct compat_vertex *c = p->cv;
    *flat0 = !memcmp(c[0].c0, c[1].c0, 4) && !memcmp(c[0].c0, c[2].c0, 4);
    *flat1 = !memcmp(c[0].c1, c[1].c1, 3) && !memcmp(c[0].c1, c[2].c1, 3);
#else
    (void)p;
    *flat0 = *flat1 = true;
#endif
}

void compat_zero_area_tex(const struct rast_state *st, unsigned *level, unsigned *frac, bool *magnify, int32_t *u,
                          int32_t *v)
{
    const struct gt_sampler *sm = &st->smp;
    /* CalculateSamplingParams: TexLog2 of the NaN 0xFFC00000 (or its
     * absolute value) is 0xFF8 - 127 * 16 = 2056 in the auto and slope
     * modes; the constant mode uses the bias alone. */
    int32_t d = (sm->lod_mode == GT_LOD_AUTO || sm->lod_mode == GT_LOD_SLOPE ? 2056 : 0) + sm->bias;
    *level = 0, *frac = 0;
    if (d > 0 && sm->max_level > 0) {
        int32_t d8 = d < (int32_t)(16 * sm->max_level) ? d : (int32_t)(16 * sm->max_level);
        if (sm->mip_linear) *level = (unsigned)d8 >> 4, *frac = (unsigned)d8 & 15;
        else *level = (unsigned)(d8 + 8) >> 4;
    }
    *magnify = d <= 0;
    bool linear = *magnify ? sm->mag_linear : sm->min_linear;
    if (linear) {
        /* 0x80000000 - 128 wraps to 0x7FFFFF80: texel 0x7FFFFF (wrapped:
         * size - 1, then 0; clamped: size - 1 twice), weight 8/16. The
         * level-0 coordinate of one texture width gives the same. */
        *u = (int32_t)(256u << sm->wlog[0]);
        *v = (int32_t)(256u << sm->hlog[0]);
    } else {
        *u = *v = 0; /* 0x80000000 >> 8: texel 0 wrapped or clamped */
    }
}

void compat_zero_area_texfunc(const struct gt_pixel_state *ps, bool flat0, bool flat1, const uint8_t prim[4],
                              const uint8_t texel[4], const uint8_t sec[3], uint8_t out[4])
{
    static const uint8_t zero[3] = {0, 0, 0};
    if (flat0) {
        pixel_texfunc(ps, prim, texel, flat1 ? sec : zero, out);
    } else {
        for (int i = 0; i < 4; i++) {
            unsigned t = texel[i], r;
            bool alpha = i == 3;
            if (ps->tex_func == PX_TF_MODULATE) {
                unsigned m = (t * 0x8001u) & 0xFFFFu;
                r = alpha ? (ps->tex_alpha ? m >> 8 : 255) : m >> (ps->color_double ? 7 : 8);
            } else if (ps->tex_func == PX_TF_REPLACE) {
                r = alpha ? (ps->tex_alpha ? t : 255) : (ps->color_double ? 2 * t : t);
            } else {
                r = 0;
            }
            out[i] = (uint8_t)(r > 255 ? 255 : r);
        }
        if (flat1) pixel_add_secondary(out, sec, out);
    }
    if (!flat1) out[0] = out[1] = out[2] = 0;
}

/* ---- lod ------------------------------------------------------------------ */

#ifdef GT_PPSSPP_COMPAT
/* Float barycentric s, t (normalised, as PPSSPP's GetTextureCoordinates*)
 * and screen-linear clip w of triangle p at pixel (px, py). */
static void compat_stw(const struct rast_prim *p, const struct rast_state *st, int32_t px, int32_t py, float *s,
                       float *t, float *cw)
{
    const struct compat_vertex *c = p->cv;
    float w[3];
    float recip = compat_weights(c, px, py, w);
    *cw = (c[0].w * w[0] + c[1].w * w[1] + c[2].w * w[2]) * recip;
    unsigned lw = st->smp.wlog[0], lh = st->smp.hlog[0];
    if (st->through) {
        *s = (c[0].s * w[0] + c[1].s * w[1] + c[2].s * w[2]) * recip * (1.0f / (float)(1u << lw));
        *t = (c[0].t * w[0] + c[1].t * w[1] + c[2].t * w[2]) * recip * (1.0f / (float)(1u << lh));
    } else {
        float wq[3];
        for (int i = 0; i < 3; i++) wq[i] = w[i] * (1.0f / c[i].w);
        float qr = st->tex_proj ? 1.0f / (c[0].q * wq[0] + c[1].q * wq[1] + c[2].q * wq[2]) : 1.0f / (wq[0] + wq[1] + wq[2]);
        *s = (c[0].s * wq[0] + c[1].s * wq[1] + c[2].s * wq[2]) * qr;
        *t = (c[0].t * wq[0] + c[1].t * wq[1] + c[2].t * wq[2]) * qr;
    }
}

/* Rasterizer.cpp TexLog2: exponent and top 4 mantissa bits, sign dropped. */
static int32_t texlog2f(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return (int32_t)((u >> 19) & 0x0FFF) - 127 * 16;
}
#endif

/* BinManager::Drain's split of the queued range (here the scissor): w2 and
 * h2 count 2-pixel steps; a band is max(4, ceil(n / tasks)) of them, and
 * the first band also holds everything before the range (it starts at 0),
 * so only later bands restart the quads. */
int32_t compat_band_start(int32_t x0, int32_t y0, int32_t x1, int32_t y1, int32_t px, int32_t py, int tasks,
                          bool *vertical)
{
    int32_t w2 = (x1 - x0 + 2) / 2, h2 = (y1 - y0 + 2) / 2;
    *vertical = false;
    if (tasks < 2 || h2 < 18 || w2 < 18) return -1;
    int32_t lo = y0, n = h2, at = py;
    if (w2 >= h2 * 4) *vertical = true, lo = x0, n = w2, at = px;
    int32_t per = (n + tasks - 1) / tasks;
    int32_t size = 2 * (per > 4 ? per : 4);
    if (at < lo + size) return -1;
    return lo + (at - lo) / size * size;
}

bool compat_lod(const struct rast_prim *p, const struct rast_state *st, int32_t px, int32_t py, unsigned *level,
                unsigned *frac)
{
#ifdef GT_PPSSPP_COMPAT
    const struct gt_sampler *sm = &st->smp;
    const struct compat_vertex *c = p->cv;
    /* DrawTriangleSlice walks 2x2 quads from the bin range's top-left:
     * the pixel holding the leftmost (topmost) vertex, or the scissor. */
    int32_t ox = c[0].x, oy = c[0].y;
    for (int i = 1; i < 3; i++) {
        if (c[i].x < ox) ox = c[i].x;
        if (c[i].y < oy) oy = c[i].y;
    }
    ox >>= 4, oy >>= 4;
    if (ox < st->sc_x0) ox = st->sc_x0;
    if (oy < st->sc_y0) oy = st->sc_y0;
    if (GT_COMPAT(BANDS)) {
        /* The band a worker draws starts the triangle's quads again. */
        bool vertical;
        int32_t x1 = st->sc_x1 < st->sc_x0 + 479 ? st->sc_x1 : st->sc_x0 + 479;
        int32_t y1 = st->sc_y1 < st->sc_y0 + 271 ? st->sc_y1 : st->sc_y0 + 271;
        int32_t b = compat_band_start(st->sc_x0, st->sc_y0, x1, y1, px, py, 16, &vertical);
        if (vertical && b > ox) ox = b;
        if (!vertical && b > oy) oy = b;
    }
    int32_t qx = px - ((px - ox) & 1), qy = py - ((py - oy) & 1);
    int32_t detail;
    switch (sm->lod_mode) {
    case GT_LOD_AUTO: {
        float s0, t0, s1, t1, s2, t2, w0, w1, w2;
        compat_stw(p, st, qx, qy, &s0, &t0, &w0);
        compat_stw(p, st, qx + 1, qy, &s1, &t1, &w1);
        compat_stw(p, st, qx, qy + 1, &s2, &t2, &w2);
        float ds = fabsf((s1 - s0) * (float)(1u << sm->wlog[0])), dt = fabsf((t2 - t0) * (float)(1u << sm->hlog[0]));
        detail = texlog2f(ds > dt ? ds : dt);
        break;
    }
    case GT_LOD_SLOPE: {
        float s0, t0, w0;
        compat_stw(p, st, qx, qy, &s0, &t0, &w0);
        detail = texlog2f(2.0f * w0 * to_f(sm->slope));
        break;
    }
    default: detail = 0; break;
    }
    detail += sm->bias;
    *level = 0, *frac = 0;
    if (detail > 0 && sm->max_level > 0) {
        int32_t d8 = detail < (int32_t)(16 * sm->max_level) ? detail : (int32_t)(16 * sm->max_level);
        if (!sm->mip_linear) d8 += 8;
        *level = (unsigned)d8 >> 4;
        *frac = sm->mip_linear ? (unsigned)d8 & 15 : 0;
    }
    return detail <= 0;
#else
    (void)p, (void)st, (void)px, (void)py, (void)level, (void)frac;
    return true;
#endif
}

/* ---- pixel trace ---------------------------------------------------------- */

#ifdef GT_PPSSPP_COMPAT
static long trace_x = -1, trace_y = -1;
static uint32_t trace_fb;
static pthread_once_t trace_once = PTHREAD_ONCE_INIT;
static void trace_read_env(void)
{
    const char *e = getenv("GETILE_TRACE");
    unsigned long fb = 0;
    if (e && sscanf(e, "%ld,%ld,%lx", &trace_x, &trace_y, &fb) >= 2) trace_fb = (uint32_t)fb & 0x001FFFFFu;
}
#endif

bool compat_trace_wanted(uint32_t fb_addr, uint32_t wx, uint32_t wy)
{
#ifdef GT_PPSSPP_COMPAT
    pthread_once(&trace_once, trace_read_env);
    return (long)wx == trace_x && (long)wy == trace_y && (!trace_fb || (fb_addr & 0x001FFFFFu) == trace_fb);
#else
    (void)fb_addr, (void)wx, (void)wy;
    return false;
#endif
}

void compat_trace_pixel(const struct rast_prim *p, const struct rast_state *st, int32_t x, int32_t y, uint16_t z,
                        const uint8_t prim[4], const uint8_t out[4], int32_t u, int32_t v, uint32_t before,
                        uint32_t after, unsigned level, unsigned frac, bool magnify)
{
    static const char *kind[] = {"triangle", "rect", "line", "point"};
    fprintf(stderr,
            "trace (%d,%d) fb %08x fmt %u: %s bbox %d,%d-%d,%d z %u prim %02x%02x%02x%02x out %02x%02x%02x%02x "
            "tex %s fmt %u at %08x %ux%u uv %.3f,%.3f blend %d (%u,%u,%u fix %02x%02x%02x %02x%02x%02x) atest %d/%u/%u "
            "ztest %d/%u: %08x -> %08x\n",
            x, y, st->fb_addr, st->px.fb_format, kind[p->kind & 3], p->x0, p->y0, p->x1, p->y1, z, prim[0], prim[1],
            prim[2], prim[3], out[0], out[1], out[2], out[3], st->textured ? "on" : "off", st->smp.tex.format,
            st->smp.tex.level[0].addr, 1u << st->smp.wlog[0], 1u << st->smp.hlog[0], u / 256.0, v / 256.0,
            st->px.blend, st->px.blend_src, st->px.blend_dst, st->px.blend_eq, st->px.fix_a[0], st->px.fix_a[1],
            st->px.fix_a[2], st->px.fix_b[0], st->px.fix_b[1], st->px.fix_b[2], st->px.alpha_test, st->px.atest_func,
            st->px.atest_ref, st->px.depth_test, st->px.ztest_func, before, after);
#ifdef GT_PPSSPP_COMPAT
    if (p->kind == RAST_TRIANGLE && GT_COMPAT(PLANES))
        fprintf(stderr, "    vertices (1/16 px): (%d,%d) (%d,%d) (%d,%d)\n", p->cv[0].x, p->cv[0].y, p->cv[1].x, p->cv[1].y,
                p->cv[2].x, p->cv[2].y);
#endif
    if (p->kind == RAST_LINE)
        fprintf(stderr, "    line lx %d ly %d ldx %d ldy %d steps %d\n", p->lx, p->ly, p->ldx, p->ldy, p->lsteps);
    if (!st->textured) return;
    const struct gt_sampler *sm = &st->smp;
    fprintf(stderr,
            "    smp: level %u frac %u mag %d | min %d mag %d mip %d/%d maxl %u lodmode %u bias %d slope %08x "
            "clamp %d%d clutfmt %u sh %u mask %02x off %u | texfunc %u tex_alpha %d\n",
            level, frac, magnify, sm->min_linear, sm->mag_linear, sm->mip_enabled, sm->mip_linear, sm->max_level,
            sm->lod_mode, sm->bias, (unsigned)sm->slope, sm->clamp_u, sm->clamp_v, sm->tex.clut_format,
            sm->tex.clut_shift, sm->tex.clut_mask, sm->tex.clut_offset, (unsigned)st->px.tex_func, st->px.tex_alpha);
    for (unsigned l = 0; l <= sm->max_level; l++)
        fprintf(stderr, "      L%u %08x %ux%u\n", l, sm->tex.level[l].addr, 1u << sm->wlog[l], 1u << sm->hlog[l]);
}

/* ---- patch ---------------------------------------------------------------- */

/* The cubic Bernstein weights of t = i / tess in single precision, t
 * formed as i times the reciprocal of tess and each product evaluated left
 * to right, which is how PPSSPP rounds them: (1 - t)^3, 3t(1 - t)^2,
 * 3t^2(1 - t), t^3. */
void compat_bezier_weights(unsigned i, unsigned tess, float w[4])
{
    const float inv = 1.0f / (float)tess;
    const float t = (float)i * inv, r = 1.0f - t;
    w[0] = r * r * r;
    w[1] = 3.0f * t * r * r;
    w[2] = 3.0f * t * t * r;
    w[3] = t * t * t;
}

/* One cubic in single precision, summed left to right; a weight vector
 * {1, 0, 0, 0} or {0, 0, 0, 1} (a patch edge) passes that control value
 * through untouched, as PPSSPP does. */
static float bezier_sum(const float p[4], const float w[4])
{
    if (w[0] == 1.0f) return p[0];
    if (w[3] == 1.0f) return p[3];
    return p[0] * w[0] + p[1] * w[1] + p[2] * w[2] + p[3] * w[3];
}

float compat_bezier_sample(const float p[4][4], const float wu[4], const float wv[4])
{
    float row[4];
    for (int v = 0; v < 4; v++) row[v] = bezier_sum(p[v], wu);
    return bezier_sum(row, wv);
}

float compat_bezier_uv(unsigned patch, unsigned i, unsigned tess)
{
    return (float)patch + (float)i * (1.0f / (float)tess);
}

/* ---- light ---------------------------------------------------------------- */

int compat_light_term(uint8_t l, uint8_t m, uint32_t f)
{
    /* LightColorScaleBy512 with the scale of ProcessSIMD. */
    float s = ceilf(512.0f * to_f(f) + 1.0f);
    int scale = s > 512.0f ? 512 : s < 0.0f ? 0 : (int)s;
    return (int)(((2 * l + 1) * (2 * m + 1) * scale) >> 19);
}

/* ---- rectedge ------------------------------------------------------------- */

void compat_rect_edges(struct rast_prim *p, int32_t xr, int32_t yb)
{
    if (16 * (int64_t)(p->x1 + 1) + 8 == xr && ((p->x1 + 1 - p->x0) & 1)) p->x1++;
    if (16 * (int64_t)(p->y1 + 1) + 8 == yb && ((p->y1 + 1 - p->y0) & 1)) p->y1++;
}

/* ---- atest ---------------------------------------------------------------- */

/* CheckClutAlphaFull for the draw's CLUT: false when PPSSPP does not look
 * (a CLUT offset, or CLUT4 mipmaps with their own CLUTs); else *full says
 * whether every entry's alpha is full and *nonzero whether the AND of the
 * whole entries (colour bits included) is not zero. */
static bool clut_alpha(const struct rast_state *st, bool *full, bool *nonzero)
{
    const struct gt_tex *t = &st->smp.tex;
    bool shared = t->format != 4 || st->smp.max_level == 0 || !t->clut_per_level;
    if (t->clut_offset != 0 || !shared) return false;
    unsigned count = t->format == 4 ? 16 : 256;
    if (t->clut_mask != 0xFF && t->clut_mask + 1u < count) count = t->clut_mask + 1u;
    uint32_t sum;
    if (t->clut_format == 3) {
        sum = 0xFFFFFFFFu;
        for (unsigned i = 0; i < count; i++) {
            uint32_t e;
            memcpy(&e, t->clut + 4 * i, 4);
            sum &= e;
        }
        *full = (sum & 0xFF000000u) == 0xFF000000u;
    } else {
        uint16_t s16 = 0xFFFF;
        for (unsigned i = 0; i < count; i++) {
            uint16_t e;
            memcpy(&e, t->clut + 2 * i, 2);
            s16 &= e;
        }
        sum = s16;
        *full = t->clut_format == 0 || (t->clut_format == 1 ? (s16 & 0x8000) != 0 : (s16 & 0xF000) == 0xF000);
    }
    *nonzero = sum != 0;
    return true;
}

static bool is_clut(const struct rast_state *st)
{
    return st->smp.tex.format >= 4 && st->smp.tex.format <= 7;
}

static bool alphas_full(const struct gt_vout *const *v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (v[i]->color[3] != 0xFF) return false;
    return true;
}

bool compat_skip_alpha_test(const struct rast_state *st, const struct gt_vout *const *v, unsigned n)
{
    const struct gt_pixel_state *px = &st->px;
    if (!st->textured || px->clear || !px->tex_alpha || !px->alpha_test) return false;
    if (!is_clut(st) || !alphas_full(v, n)) return false;
    unsigned func = px->atest_func, ref = px->atest_ref & px->atest_mask;
    if (func == PX_GREATER && ref == 0) func = PX_NOTEQUAL;
    if ((func != PX_NOTEQUAL && func != PX_GREATER) || ref >= 0xFF || px->atest_mask != 0xFF) return false;
    bool full, nonzero;
    if (!clut_alpha(st, &full, &nonzero)) return false;
    return full || (nonzero && ref == 0);
}

/* ---- atforce ------------------------------------------------------------ */

/* PPSSPP's comparison after OptimizeRefByteCompare: the tests that always
 * pass against an 8-bit value become ALWAYS. */
static unsigned ref_compare(unsigned func, unsigned ref)
{
    if ((ref == 0 && func == PX_GEQUAL) || (ref == 0xFF && func == PX_LEQUAL)) return PX_ALWAYS;
    return func;
}

/* Whether PPSSPP's pixel function tests stencil (ComputePixelFuncID): a
 * test that always passes counts only if it can change a stencil value. */
static bool ppsspp_stencil_test(const struct gt_pixel_state *px)
{
    if (!px->stencil_test) return false;
    const bool zfunc = px->depth_test && px->ztest_func != PX_ALWAYS;
    const bool fmt565 = px->fb_format == PX_FMT_565;
    /* Operations 6 and 7, and every operation on 565, keep. */
    unsigned zfail = fmt565 || px->sop_zfail > PX_SOP_DECR ? PX_SOP_KEEP : px->sop_zfail;
    unsigned zpass = fmt565 || px->sop_zpass > PX_SOP_DECR ? PX_SOP_KEEP : px->sop_zpass;
    if (px->stest_func == PX_ALWAYS) {
        bool writes = (px->write_mask >> 24) != 0xFF && !fmt565;
        if (!writes) return false;
        return zfunc ? zpass != PX_SOP_KEEP || zfail != PX_SOP_KEEP : zpass != PX_SOP_KEEP;
    }
    if (ref_compare(px->stest_func, px->stest_ref & px->stest_mask) != PX_ALWAYS) return true;
    /* Always passes after all: only the depth outcomes remain. */
    if (!zfunc) zfail = PX_SOP_KEEP;
    return zfail != PX_SOP_KEEP || zpass != PX_SOP_KEEP;
}

bool compat_force_alpha_test(const struct rast_state *st, const struct gt_vout *const *v, unsigned n)
{
    const struct gt_pixel_state *px = &st->px;
    if (px->clear || !px->blend || px->blend_eq > 2) return false;
    /* Only the factors source alpha / inverse source alpha (a fixed pair
     * that does not blend is not blending either). */
    if (px->blend_src != PX_BF_SRC_A || px->blend_dst != PX_BF_INV_SRC_A) return false;
    if (px->alpha_test && ref_compare(px->atest_func, px->atest_ref & px->atest_mask) != PX_ALWAYS) return false;
    if (px->depth_write || ppsspp_stencil_test(px)) return false;
    const bool full = alphas_full(v, n);
    bool tex_alpha = st->textured && px->tex_alpha;
    bool clut_full = false, clut_nonzero = false;
    const bool clut = st->textured && is_clut(st) && clut_alpha(st, &clut_full, &clut_nonzero);
    if (tex_alpha && full && clut && clut_full) tex_alpha = false;
    if (!tex_alpha && full) return false;
    /* Texture alpha 0 impossible: nothing to gain. */
    return !(clut && (clut_full || clut_nonzero));
}

/* ---- round -------------------------------------------------------------- */

int64_t compat_round_shift(int64_t value, unsigned frac_bits)
{
    int64_t q = value >> frac_bits; /* floor */
    int64_t r = value - q * ((int64_t)1 << frac_bits), half = (int64_t)1 << (frac_bits - 1);
    if (r > half || (r == half && (q & 1))) q++;
    return q;
}

int64_t compat_round_scaled(uint32_t x, int32_t exp2)
{
    double d = ldexp((double)to_f(x), -exp2);
    if (!(d < 9.2e18)) return d != d ? 0 : INT64_MAX;
    if (d <= -9.2e18) return INT64_MIN;
    return (int64_t)nearbyint(d);
}
