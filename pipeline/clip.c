/* Near-plane clipping (see clip.h). */
#include "clip.h"

#include "compat.h"

#include <string.h>

/* Behind the near plane: z < -w (the comparison, not a rounded z + w). */
static bool behind(const struct gt_vout *v) { return gemath_cmp(v->clip[2], gemath_neg(v->clip[3])) < 0; }

/* a + t (b - a) with the GE's products and adder (measured,
 * ge-vertex-pipeline.md "Z Clipper"). */
static gefloat clip_lerp(gefloat t, gefloat a, gefloat b)
{
    return gemath_add(gemath_mul(t, gemath_sub(b, a)), a);
}

/* An 8-bit value between a and b: (a (256 - t8) + b t8) >> 8. */
static int32_t clip_lerp8(int32_t a, int32_t b, int32_t t8)
{
    return (a * (256 - t8) + b * t8) >> 8;
}

void clip_near_point(const struct gt_xform *xf, const struct gt_vout *in, const struct gt_vout *out,
                     struct gt_vout *dst)
{
    gefloat din = gemath_add(in->clip[2], in->clip[3]), dout = gemath_add(out->clip[2], out->clip[3]);
    gefloat den = gemath_sub(din, dout);
    /* Diagnostic build ("arith"): PPSSPP's older clipper divides. */
    gefloat t = GT_COMPAT(ARITH) ? compat_div(din, den) : gemath_mul(din, gemath_recip(den));
    *dst = *in;
    for (int c = 0; c < 4; c++) dst->clip[c] = clip_lerp(t, in->clip[c], out->clip[c]);
    for (int c = 0; c < 2; c++) dst->uv[c] = clip_lerp(t, in->uv[c], out->uv[c]);
    dst->q = clip_lerp(t, in->q, out->q);
    /* t8 = round(256 t), limited to 0..256. */
    int32_t t8 = (gemath_to_fixed(t, 9) + 1) >> 1;
    if (t8 < 0) t8 = 0;
    if (t8 > 256) t8 = 256;
    for (int i = 0; i < 4; i++) {
        dst->color[i] = (uint8_t)clip_lerp8(in->color[i], out->color[i], t8);
        dst->color1[i] = (uint8_t)clip_lerp8(in->color1[i], out->color1[i], t8);
    }
    int32_t f = clip_lerp8(fog_to8(in->fog), fog_to8(out->fog), t8);
    dst->fog = gemath_from_fixed(f, 8);
    xform_screen(xf, dst, true);
}

unsigned clip_triangle(const struct gt_xform *xf, const struct gt_vout in[3], bool reversed,
                       struct gt_vout out[CLIP_MAX_TRIS][3])
{
    bool outside[3];
    unsigned n_out = 0;
    for (int i = 0; i < 3; i++) n_out += outside[i] = behind(&in[i]);
    if (n_out == 1) {
        /* o outside; the quad is split from the vertex before o in the
         * order given (after it when reversed): (p, a, b), (p, b, n) with a
         * on p-o and b on n-o, keeping the winding given. */
        int o = outside[0] ? 0 : outside[1] ? 1 : 2;
        int p = reversed ? (o + 1) % 3 : (o + 2) % 3, n = reversed ? (o + 2) % 3 : (o + 1) % 3;
        struct gt_vout a, b;
        clip_near_point(xf, &in[p], &in[o], &a);
        clip_near_point(xf, &in[n], &in[o], &b);
        int first = reversed ? 2 : 1, second = reversed ? 1 : 2;
        out[0][0] = in[p], out[0][first] = a, out[0][second] = b;
        out[1][0] = in[p], out[1][first] = b, out[1][second] = in[n];
        return 2;
    }
    if (n_out == 2) {
        int i = !outside[0] ? 0 : !outside[1] ? 1 : 2;
        int n = (i + 1) % 3, p = (i + 2) % 3;
        out[0][0] = in[i];
        clip_near_point(xf, &in[i], &in[n], &out[0][1]);
        clip_near_point(xf, &in[i], &in[p], &out[0][2]);
        return 1;
    }
    if (n_out == 0) {
        memcpy(out[0], in, sizeof out[0]);
        return 1;
    }
    return 0;
}

void clip_line(const struct gt_xform *xf, struct gt_vout *a, struct gt_vout *b)
{
    bool ba = behind(a), bb = behind(b);
    if (ba == bb) return;
    struct gt_vout n;
    if (ba) {
        clip_near_point(xf, b, a, &n);
        *a = n;
    } else {
        clip_near_point(xf, a, b, &n);
        *b = n;
    }
}
