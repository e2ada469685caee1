/* Near-plane clipping (see clip.h). */
#include "clip.h"

#include "compat.h"

#include <string.h>

/* Signed distance to the near plane: z + w (>= 0: in front). */
static gefloat plane_dist(const struct gt_vout *v) { return gemath_add(v->clip[2], v->clip[3]); }

static bool is_neg(gefloat x) { return (x & 0x80000000u) && x != GEMATH_NEG_ZERO; }
static bool le_zero(gefloat x) { return is_neg(x) || (x & 0x7FFFFFFFu) == 0; }

static gefloat mix(gefloat a, gefloat b, gefloat t, gefloat one_minus_t)
{
    const gefloat x[4] = {a, b, 0, 0}, w[4] = {one_minus_t, t, 0, 0};
    return gemath_dot4(x, w);
}

void clip_lerp(const struct gt_xform *xf, const struct gt_vout *a, const struct gt_vout *b, gefloat t,
               struct gt_vout *out)
{
    gefloat u = gemath_sub(GEMATH_ONE, t);
    int32_t t8 = gemath_to_fixed(t, 8);
    if (t8 < 0) t8 = 0;
    if (t8 > 256) t8 = 256;
    *out = *a;
    for (int i = 0; i < 4; i++) out->clip[i] = mix(a->clip[i], b->clip[i], t, u);
    for (int i = 0; i < 2; i++) out->uv[i] = mix(a->uv[i], b->uv[i], t, u);
    out->q = mix(a->q, b->q, t, u);
    out->fog = mix(a->fog, b->fog, t, u);
    for (int i = 0; i < 4; i++) {
        out->color[i] = (uint8_t)((a->color[i] * (256 - t8) + b->color[i] * t8) >> 8);
        out->color1[i] = (uint8_t)((a->color1[i] * (256 - t8) + b->color1[i] * t8) >> 8);
    }
    xform_screen(xf, out, true);
}

/* The intersection of edge prev-cur with the plane, t running from the
 * vertex behind the plane toward the other. */
static void intersect(const struct gt_xform *xf, const struct gt_vout *prev, gefloat dp, const struct gt_vout *cur,
                      gefloat dc, struct gt_vout *out)
{
    /* Diagnostic build ("arith"): PPSSPP divides. */
    if (is_neg(dc)) {
        gefloat t = GT_COMPAT(ARITH) ? compat_div(dc, gemath_sub(dc, dp)) : gemath_mul(dc, gemath_recip(gemath_sub(dc, dp)));
        clip_lerp(xf, cur, prev, t, out);
    } else {
        gefloat t = GT_COMPAT(ARITH) ? compat_div(dp, gemath_sub(dp, dc)) : gemath_mul(dp, gemath_recip(gemath_sub(dp, dc)));
        clip_lerp(xf, prev, cur, t, out);
    }
}

unsigned clip_triangle(const struct gt_xform *xf, const struct gt_vout in[3], struct gt_vout out[CLIP_MAX_POLY])
{
    gefloat d[3];
    unsigned n = 0;
    for (int i = 0; i < 3; i++) d[i] = plane_dist(&in[i]);
    /* Sutherland-Hodgman over the edges v0->v1, v1->v2, v2->v0 in turn: the
     * edge's first vertex when it is in front, then the crossing when the
     * two ends lie on different sides. The polygon starts at v0 (or at the
     * crossing on v0->v1 when v0 is behind), as PPSSPP's CLIP_POLY builds it. */
    for (int j = 0; j < 3; j++) {
        int c = (j + 1) % 3;
        bool differ = (le_zero(d[c]) && !le_zero(d[j])) || (!le_zero(d[c]) && le_zero(d[j]));
        if (!is_neg(d[j]) && n < CLIP_MAX_POLY) out[n++] = in[j];
        if (differ && n < CLIP_MAX_POLY) intersect(xf, &in[j], d[j], &in[c], d[c], &out[n++]);
    }
    return n >= 3 ? n : 0;
}

void clip_line(const struct gt_xform *xf, struct gt_vout *a, struct gt_vout *b)
{
    gefloat da = plane_dist(a), db = plane_dist(b);
    struct gt_vout na = *a, nb = *b;
    if (is_neg(da)) intersect(xf, b, db, a, da, &na);
    if (is_neg(db)) intersect(xf, a, da, b, db, &nb);
    *a = na;
    *b = nb;
}
