/* Vertex transform (see transform.h). */
#include "transform.h"

#include <string.h>

#include "compat.h"

/* Guard band: screen x and y must lie below 4096 - 1/32 and not below 0
 * before the offset is subtracted (docs/notes/vertex-pipeline.md §4.3). In
 * the GE format every value from 2048 up is a multiple of 1/16, so "below
 * 4095.96875" is "below 4096". */
#define GUARD_LIMIT 0x45800000u /* 4096.0 */

void xform_setup(struct gt_xform *xf, const struct ge_state *st)
{
    memset(xf, 0, sizeof *xf);
    vdec_setup(&xf->vd, st);
    xf->through = xf->vd.through;
    xf->depth_clip = ge_reg(st, GE_DEPTHCLIP_ON) & 1;
    for (int i = 0; i < 3; i++) {
        xf->vp_scale[i] = gemath_from_word(st->reg[GE_VIEWPORT_SX + i]);
        xf->vp_center[i] = gemath_from_word(st->reg[GE_VIEWPORT_SX + 3 + i]);
    }
    xf->offset_x = (int32_t)(ge_reg(st, GE_OFFSET_X) & 0xFFFF);
    xf->offset_y = (int32_t)(ge_reg(st, GE_OFFSET_Y) & 0xFFFF);
    xf->has_color = xf->vd.col >= 4;
    /* Without a vertex color the material ambient color and alpha stand in. */
    uint32_t amb = ge_reg(st, GE_MATERIAL_UPDATE + 2);
    for (int k = 0; k < 3; k++) xf->through_color[k] = (uint8_t)(amb >> (8 * k));
    xf->through_color[3] = (uint8_t)ge_reg(st, GE_MATERIAL_UPDATE + 5);
    if (xf->through) return;
    xf->reverse_normals = ge_reg(st, GE_REVERSE_NORMAL) & 1;
    /* GE-HARDWARE.md §1: world, view and projection are combined once, before
     * any vertex, with the row-sum unit. */
    gefloat wv[12];
    gemath_mat43_mul_mat43(st->world, st->view, wv);
    light_setup_wv(&xf->light, st, wv);
    gemath_mat44_mul_mat43(st->proj, wv, xf->wvp);
    if (xf->vd.wt) {
        xf->nweights = xf->vd.nweights;
        memcpy(xf->bone, st->bone, sizeof xf->bone);
    }
}

gefloat xform_viewport(gefloat c, gefloat rw, gefloat scale, gefloat center)
{
    return gemath_add(gemath_mul(gemath_mul(c, rw), scale), center);
}

void xform_skin(const gefloat bone[GT_BONE_MATRIX_WORDS], unsigned nweights, const gefloat weight[8],
                const gefloat pos[3], gefloat out[3], const gefloat *nrm, gefloat *nrm_out)
{
    if (nweights > 8) nweights = 8;
    gefloat acc[3] = {0, 0, 0}, nacc[3] = {0, 0, 0};
    for (unsigned j = 0; j < nweights; j++) {
        /* The bone's entries scaled by its weight, float24(w m). */
        gefloat m[12];
        for (unsigned e = 0; e < 12; e++) m[e] = gemath_mul(weight[j], bone[j * 12 + e]);
        for (unsigned c = 0; c < 3; c++) {
            acc[c] = gemath_add(acc[c], m[9 + c]);
            for (unsigned k = 0; k < 3; k++) {
                acc[c] = gemath_add(acc[c], gemath_mul(pos[k], m[3 * k + c]));
                if (nrm) nacc[c] = gemath_add(nacc[c], gemath_mul(nrm[k], m[3 * k + c]));
            }
        }
    }
    memcpy(out, acc, sizeof acc);
    if (nrm) memcpy(nrm_out, nacc, sizeof nacc);
}

static uint16_t clamp_z(gefloat z)
{
    int32_t v = gemath_to_fixed(z, 0);
    return (uint16_t)(v < 0 ? 0 : v > 65535 ? 65535 : v);
}

/* a - b saturated to the int32 range (far-off vertices saturate in
 * gemath_to_fixed; they are outside the guard band anyway). */
static int32_t sub_sat(int32_t a, int32_t b)
{
    int64_t v = (int64_t)a - b;
    return v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : (int32_t)v;
}

void xform_screen(const struct gt_xform *xf, struct gt_vout *out, bool always_check)
{
    gefloat rw = gemath_recip(out->clip[3]);
    if (GT_COMPAT(ARITH)) {
        compat_screen(xf, out);
    } else {
        for (int i = 0; i < 3; i++) out->screen[i] = xform_viewport(out->clip[i], rw, xf->vp_scale[i], xf->vp_center[i]);
        /* 12.4 screen coordinates: the viewport position truncated to 1/16
         * pixel, then the offset subtracted. */
        out->x16 = sub_sat(gemath_to_fixed(out->screen[0], 4), xf->offset_x);
        out->y16 = sub_sat(gemath_to_fixed(out->screen[1], 4), xf->offset_y);
    }
    /* Behind the near plane z = -w: clipping will replace this vertex. */
    out->behind = gemath_cmp(out->clip[2], gemath_neg(out->clip[3])) < 0;
    out->w_negative = (out->clip[3] & 0x80000000u) && out->clip[3] != GEMATH_NEG_ZERO;
    /* The clip coordinates compared with w directly, no division (measured,
     * probe exp176; PPSSPP Clipper.cpp OutsideMask). */
    out->omask = 0;
    for (int c = 0; c < 3; c++) {
        if (gemath_cmp(out->clip[c], out->clip[3]) > 0) out->omask |= (uint8_t)(1u << (2 * c));
        if (gemath_cmp(gemath_neg(out->clip[c]), out->clip[3]) > 0) out->omask |= (uint8_t)(2u << (2 * c));
    }
    bool neg_x = gemath_cmp(out->screen[0], 0) < 0, neg_y = gemath_cmp(out->screen[1], 0) < 0;
    bool big = gemath_cmp(out->screen[0], GUARD_LIMIT) >= 0 || gemath_cmp(out->screen[1], GUARD_LIMIT) >= 0;
    if (xf->depth_clip) {
        /* A vertex on or behind the near plane (z <= -w) is not
         * range-checked (PPSSPP ClipToScreenInternal checks only when
         * z > -w): clipping makes new vertices, which are (always_check). */
        bool unchecked = gemath_cmp(out->clip[2], gemath_neg(out->clip[3])) <= 0;
        out->outside = (always_check || !unchecked) && (neg_x || neg_y || big);
        out->z = clamp_z(out->screen[2]);
    } else {
        int32_t z = gemath_to_fixed(out->screen[2], 0);
        out->outside = neg_x || neg_y || big || gemath_cmp(out->screen[2], 0) < 0 || z > 65535;
        out->z = (uint16_t)(z < 0 ? 0 : z > 65535 ? 65535 : z);
    }
}

void xform_vertex(const struct gt_xform *xf, const struct gt_vin *in, struct gt_vout *out)
{
    memset(out, 0, sizeof *out);
    memcpy(out->color, in->color, 4);
    memcpy(out->uv, in->uv, sizeof out->uv);
    out->q = GEMATH_ONE;
    out->fog = GEMATH_ONE;
    if (xf->through) {
        /* Screen pixels directly: no offset, viewport, guard band or depth test. */
        memcpy(out->screen, in->pos, sizeof out->screen);
        out->x16 = gemath_to_fixed(in->pos[0], 4);
        out->y16 = gemath_to_fixed(in->pos[1], 4);
        out->z = clamp_z(in->pos[2]);
        out->clip[3] = GEMATH_ONE;
        if (!xf->has_color) memcpy(out->color, xf->through_color, 4);
        return;
    }
    gefloat pos[3], nrm[3];
    if (xf->nweights) {
        xform_skin(xf->bone, xf->nweights, in->weight, in->pos, pos, in->nrm, nrm);
    } else {
        memcpy(pos, in->pos, sizeof pos);
        memcpy(nrm, in->nrm, sizeof nrm);
    }
    if (xf->reverse_normals)
        for (int k = 0; k < 3; k++) nrm[k] = gemath_neg(nrm[k]);
    const gefloat p[4] = {pos[0], pos[1], pos[2], GEMATH_ONE};
    gemath_mat44_apply(xf->wvp, p, out->clip);
    xform_screen(xf, out, false);
    light_vertex(&xf->light, pos, nrm, in->color, xf->has_color, out->color, out->color1);
    gefloat stq[3];
    texgen_vertex(&xf->light, pos, nrm, in->uv, in->uv, stq);
    out->uv[0] = stq[0], out->uv[1] = stq[1], out->q = stq[2];
    out->fog = fog_vertex(&xf->light, pos);
}
