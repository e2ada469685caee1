/* Bezier and spline patch tessellation (see patch.h). Integer GE arithmetic
 * only (gemath); no host floating point, except in the diagnostic build's
 * switch "patch" (compat_bezier_vertex, compat.h). Every constant or
 * structure that GE-HARDWARE.md §4 does not fix is a named model choice
 * below. */
#include "patch.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include "transform.h"

/* Registers read here that ge_cmd.h does not name. */
#define REG_MAT_AMBIENT 0x55 /* material ambient RGB, red in the low byte */
#define REG_MAT_ALPHA 0x58   /* material alpha, low byte */

/* Model choice (unmeasured): PATCH_FACING only negates the generated normals
 * (PPSSPP, docs/notes/vertex-pipeline.md §9.1); it does not change the
 * winding of the generated triangles. Set to 1 to make it also swap the
 * second and third vertex of every triangle, should a probe show that. */
#define PATCH_FACING_FLIPS_WINDING 0

/* The scalar channels a control point carries through the float lerps:
 * position x, y, z and texture u, v. The results of the column pass also
 * carry the positions' last two de Casteljau points (CH_AB, CH_BC), which
 * the row pass evaluates like the other channels, for the normal. Channels
 * are evaluated LANES at a time (gemath_lerp8); unused lanes hold +0.
 * Colors go through integer lerps of their own (col). */
enum { CH_POS = 0, CH_UV = 3, CH_AB = 5, CH_BC = 8, LANES = 8, NLANE = 16 };

struct cpoint {
    _Alignas(32) gefloat c[NLANE];
    int32_t col[4]; /* (c << 7) | 0x7F per 8-bit channel (ge-curves.md) */
};

/* One grid line of the tessellation along one direction (u or v). */
struct gline {
    uint32_t patch; /* patch index along this direction */
    uint32_t tile;  /* grid line within the patch, 0..tess */
    uint32_t first; /* first of the four control points the patch uses along this direction */
    uint16_t k;     /* the patch parameter as k/256 (0..256) */
    uint16_t f[6];  /* lerp factors: level 1 (points 0-1, 1-2, 2-3), level 2 (2), level 3 (1) */
};

/* ---- Model choices: the lerp factors ---- */

/* The parameter of grid line i (0..tess) of a patch divided tess times, as
 * k/256, rounded toward the middle of the patch (measured, ge-curves.md
 * "The parameter"): floor(256 i / tess) in the first half, 256 -
 * floor(256 (tess - i) / tess) in the second. */
static unsigned patch_k(unsigned i, unsigned tess)
{
    return 2 * i <= tess ? 256u * i / tess : 256u - 256u * (tess - i) / tess;
}

/* Knot i (0 .. n + 3) of the cubic B-spline over n control points: the
 * uniform knots i - 3, so patch p spans [p, p + 1] and the domain is
 * [0, n - 3]; an open (clamped) start makes knots 0..3 equal 0, an open end
 * makes knots n..n+3 equal n - 3 (docs/notes/vertex-pipeline.md §9.1, §9.3:
 * knot type bit 0 = open start, bit 1 = open end). */
static int32_t spline_knot(int32_t i, int32_t n, unsigned type)
{
    if ((type & 1) && i < 3) return 0;
    if ((type & 2) && i > n) return n - 3;
    return i - 3;
}

/* Spline lerp factors (measured, ge-curves.md "Splines: de Boor"): de
 * Boor's algorithm on the knot vector above, each level's ratio
 * (t - knot_i) / span with t = p + k/256 in 1/256, taken from the nearer
 * knot: with dl = 256 (t - knot_i) and dr = 256 span - dl, floor(dl /
 * span) when dl <= dr, else 256 - floor(dr / span) (1/3 is 85, 2/3 is
 * 171); a zero span gives 0. Over patch p (span j = p + 3) the four points
 * are p..p+3; level r = 1..3 lerps neighbours i - 1, i for i = j - 3 + r ..
 * j. */
static void spline_factors(unsigned n, unsigned type, unsigned p, unsigned k, uint16_t f[6])
{
    const int32_t j = (int32_t)p + 3, ni = (int32_t)n;
    unsigned o = 0;
    for (int32_t r = 1; r <= 3; r++) {
        for (int32_t i = j - 3 + r; i <= j; i++) {
            int32_t ki = spline_knot(i, ni, type);
            int32_t span = spline_knot(i + 4 - r, ni, type) - ki;
            int32_t dl = 256 * ((int32_t)p - ki) + (int32_t)k, dr = 256 * span - dl;
            f[o++] = (uint16_t)(span <= 0 ? 0 : dl <= dr ? dl / span : 256 - dr / span);
        }
    }
}

/* The grid lines of one direction: Bezier patches each have their own
 * tess + 1 lines; a spline's lines are shared between neighbouring patches
 * (patches * tess + 1), a line on a patch boundary being evaluated as the
 * later patch's first (k = 0), the last line as the last patch's end (k =
 * 256) (measured, ge-curves.md). Returns the line count, 0 when allocation
 * fails. */
static uint32_t make_lines(bool spline, unsigned n, unsigned type, unsigned tess, struct gline **out)
{
    uint32_t npatch = spline ? n - 3 : (n - 1) / 3;
    uint32_t count = spline ? npatch * tess + 1 : npatch * (tess + 1);
    struct gline *l = calloc(count, sizeof *l);
    *out = l;
    if (!l) return 0;
    for (uint32_t g = 0; g < count; g++) {
        struct gline *e = &l[g];
        if (spline) {
            e->patch = g / tess;
            e->tile = g % tess;
            if (e->patch == npatch) e->patch = npatch - 1, e->tile = tess;
            e->first = e->patch;
        } else {
            e->patch = g / (tess + 1);
            e->tile = g % (tess + 1);
            e->first = 3 * e->patch;
        }
        e->k = (uint16_t)patch_k(e->tile, tess);
        if (spline) {
            spline_factors(n, type, e->patch, e->k, e->f);
        } else {
            for (int i = 0; i < 6; i++) e->f[i] = e->k; /* de Casteljau: one t at every level */
        }
    }
    return count;
}

/* ---- Evaluation ---- */

/* Three levels of lerps over four values (GE-HARDWARE.md §4, de Casteljau
 * or de Boor by the factors), for the first nblk * LANES channels of four
 * points at once, each channel on its own (lane i of gemath_lerp8 is
 * gemath_lerp of lane i). ab and bc, when asked for, get the last two
 * points (level 2) of channels 0..2, the position, for the normal; they are
 * written after out, so they may point into it. */
static void eval4(const struct cpoint *p0, const struct cpoint *p1, const struct cpoint *p2,
                  const struct cpoint *p3, const uint16_t f[6], unsigned nblk, gefloat *out, gefloat *ab,
                  gefloat *bc)
{
    gefloat l2[2][3] = {{0}};
    for (unsigned blk = 0; blk < nblk; blk++) {
        const unsigned o = blk * LANES;
        _Alignas(32) gefloat a0[LANES], a1[LANES], a2[LANES];
        gemath_lerp8(p0->c + o, p1->c + o, f[0], a0);
        gemath_lerp8(p1->c + o, p2->c + o, f[1], a1);
        gemath_lerp8(p2->c + o, p3->c + o, f[2], a2);
        gemath_lerp8(a0, a1, f[3], a0); /* b0 */
        gemath_lerp8(a1, a2, f[4], a1); /* b1 */
        if (blk == 0)
            for (int c = 0; c < 3; c++) l2[0][c] = a0[c], l2[1][c] = a1[c];
        gemath_lerp8(a0, a1, f[5], out + o);
    }
    if (ab) memcpy(ab, l2[0], sizeof l2[0]);
    if (bc) memcpy(bc, l2[1], sizeof l2[1]);
}

/* The color lerps (measured, ge-curves.md): the same three levels in plain
 * integers, a + floor((b - a) f / 256), over (c << 7) | 0x7F. */
static void eval4_col(const struct cpoint *p0, const struct cpoint *p1, const struct cpoint *p2,
                      const struct cpoint *p3, const uint16_t f[6], int32_t out[4])
{
#define ILERP(a, b, k) ((a) + (((b) - (a)) * (int32_t)(k) >> 8))
    for (int ch = 0; ch < 4; ch++) {
        int32_t a0 = ILERP(p0->col[ch], p1->col[ch], f[0]), a1 = ILERP(p1->col[ch], p2->col[ch], f[1]);
        int32_t a2 = ILERP(p2->col[ch], p3->col[ch], f[2]);
        int32_t b0 = ILERP(a0, a1, f[3]), b1 = ILERP(a1, a2, f[4]);
        out[ch] = ILERP(b0, b1, f[5]);
    }
#undef ILERP
}

/* The normal (measured, ge-curves.md "Normals"): the cross product tu x
 * tv, each component one fused row sum of its two products, not normalised
 * (lighting does that); negated when `flip`. */
static void patch_normal(const gefloat tu[3], const gefloat tv[3], bool flip, gefloat n[3])
{
    for (int i = 0; i < 3; i++) {
        int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        const gefloat a[3] = {tu[i1], gemath_neg(tu[i2]), 0}, b[3] = {tv[i2], tv[i1], 0};
        n[i] = gemath_dot3(a, b);
        if (flip) n[i] = gemath_neg(n[i]);
    }
}

/* ---- Primitives ---- */

/* The six indices of one grid cell (see patch.h). */
static uint32_t *emit_cell(uint32_t *o, unsigned prim_type, bool flip, uint32_t tl, uint32_t tr, uint32_t bl, uint32_t br)
{
    if (prim_type == 1) {
        /* A zigzag (measured, ge-curves.md "Drawn as lines"): left edge
         * down, the diagonal up to the top right, right edge down. */
        o[0] = tl, o[1] = bl, o[2] = bl, o[3] = tr, o[4] = tr, o[5] = br;
    } else if (prim_type == 3 && flip) {
        o[0] = tl, o[1] = tr, o[2] = bl, o[3] = tr, o[4] = br, o[5] = bl;
    } else {
        o[0] = tl, o[1] = bl, o[2] = tr, o[3] = tr, o[4] = bl, o[5] = br;
    }
    return o + 6;
}

uint32_t patch_point_count(uint32_t word)
{
    return (word & 0xFF) * ((word >> 8) & 0xFF);
}

void patch_free(struct gt_patch_out *out)
{
    if (!out) return;
    free(out->v);
    free(out->idx);
    memset(out, 0, sizeof *out);
}

/* What evaluating grid lines needs (the row job of patch_tessellate). */
struct tess_job {
    bool spline, need_nrm, has_tc, has_col, uv_scale, facing;
    unsigned nu, col_blocks, row_blocks, tess_u, tess_v;
    uint32_t npu, per_patch;
    uint64_t nlu;
    const struct cpoint *cp;
    const struct gline *lu, *lv;
    const struct gt_vdec *vd;
    uint8_t defcolor[4];
    struct gt_patch_out *out;
};

/* Diagnostic build, switch "patch": the position and texture coordinates
 * of a Bezier vertex as PPSSPP computes them (compat.h): float Bernstein
 * weights of i / tess, rows along u first. Replaces o->pos and o->uv (before
 * TEXSCALE/TEXOFFSET); the normal and color keep the hardware model. */
static void compat_bezier_vertex(const struct tess_job *j, const struct gline *eu, const struct gline *ev,
                                 struct gt_vin *o)
{
#ifdef GT_PPSSPP_COMPAT
    float wu[4], wv[4], p[4][4];
    compat_bezier_weights(eu->tile, j->tess_u, wu);
    compat_bezier_weights(ev->tile, j->tess_v, wv);
    const unsigned nch = j->has_tc ? CH_UV + 2 : CH_POS + 3;
    gefloat val[CH_UV + 2];
    for (unsigned ch = 0; ch < nch; ch++) {
        for (unsigned v = 0; v < 4; v++)
            for (unsigned u = 0; u < 4; u++)
                p[v][u] = gemath_to_float(j->cp[(ev->first + v) * j->nu + eu->first + u].c[ch]);
        val[ch] = gemath_from_float(compat_bezier_sample(p, wu, wv));
    }
    for (int k = 0; k < 3; k++) o->pos[k] = val[CH_POS + k];
    if (j->has_tc) {
        o->uv[0] = val[CH_UV], o->uv[1] = val[CH_UV + 1];
    } else {
        o->uv[0] = gemath_from_float(compat_bezier_uv(eu->patch, eu->tile, j->tess_u));
        o->uv[1] = gemath_from_float(compat_bezier_uv(ev->patch, ev->tile, j->tess_v));
    }
#else
    (void)j, (void)eu, (void)ev, (void)o;
#endif
}

/* Grid lines gv0..gv1-1 along v: down each column of control points, then
 * once along the row of column results. Each vertex depends on the control
 * points only, so lines may be evaluated on any thread. */
static void tess_rows(void *ctx, uint32_t gv0, uint32_t gv1)
{
    const struct tess_job *j = ctx;
    const bool spline = j->spline, need_nrm = j->need_nrm;
    const unsigned nu = j->nu;
    /* The column results of one line (nu <= 255). Zeroed: lanes of absent
     * channels stay +0. */
    static _Thread_local struct cpoint colv[255];
    memset(colv, 0, nu * sizeof colv[0]);
    for (uint32_t gv = gv0; gv < gv1; gv++) {
        const struct gline *ev = &j->lv[gv];
        /* Down each column: the four points of column u at rows first..first+3. */
        uint32_t ncols = spline ? nu : 3 * j->npu + 1;
        for (uint32_t u = 0; u < ncols; u++) {
            const struct cpoint *p0 = &j->cp[(ev->first + 0) * nu + u], *p1 = &j->cp[(ev->first + 1) * nu + u];
            const struct cpoint *p2 = &j->cp[(ev->first + 2) * nu + u], *p3 = &j->cp[(ev->first + 3) * nu + u];
            eval4(p0, p1, p2, p3, ev->f, j->col_blocks, colv[u].c, need_nrm ? colv[u].c + CH_AB : NULL,
                  need_nrm ? colv[u].c + CH_BC : NULL);
            if (j->has_col) eval4_col(p0, p1, p2, p3, ev->f, colv[u].col);
        }
        /* Then once along the row of column results. */
        for (uint32_t gu = 0; gu < j->nlu; gu++) {
            const struct gline *eu = &j->lu[gu];
            const struct cpoint *q = &colv[eu->first];
            uint32_t vi = spline ? gv * (uint32_t)j->nlu + gu
                                 : (ev->patch * j->npu + eu->patch) * j->per_patch + ev->tile * (j->tess_u + 1) +
                                       eu->tile;
            struct gt_vin *o = &j->out->v[vi];
            /* Positions, texture coordinates and the columns' last two
             * points, each evaluated along u, at once. */
            _Alignas(32) gefloat val[NLANE];
            gefloat ab[3], bc[3];
            eval4(&q[0], &q[1], &q[2], &q[3], eu->f, j->row_blocks, val, ab, bc);
            for (int k = 0; k < 3; k++) o->pos[k] = val[CH_POS + k];
            if (need_nrm) {
                /* tu = bc - ab of the row; tv = row(bc) - row(ab) of the columns. */
                gefloat tu[3], tv[3];
                for (int k = 0; k < 3; k++) {
                    tu[k] = gemath_sub(bc[k], ab[k]);
                    tv[k] = gemath_sub(val[CH_BC + k], val[CH_AB + k]);
                }
                patch_normal(tu, tv, j->facing, o->nrm);
            } else {
                o->nrm[0] = o->nrm[1] = 0, o->nrm[2] = GEMATH_ONE;
            }
            if (j->has_tc) {
                o->uv[0] = val[CH_UV], o->uv[1] = val[CH_UV + 1];
            } else {
                /* Generated: patch index plus the parameter (exact). */
                o->uv[0] = gemath_from_fixed((int32_t)(eu->patch * 256 + eu->k), 8);
                o->uv[1] = gemath_from_fixed((int32_t)(ev->patch * 256 + ev->k), 8);
            }
            if (GT_COMPAT(PATCH) && !spline) compat_bezier_vertex(j, eu, ev, o);
            if (j->uv_scale)
                for (int k = 0; k < 2; k++) o->uv[k] = vdec_uv_scale(j->vd, k, o->uv[k]);
            if (j->has_col) {
                int32_t c[4];
                eval4_col(&q[0], &q[1], &q[2], &q[3], eu->f, c);
                for (int k = 0; k < 4; k++) o->color[k] = (uint8_t)(c[k] >> 7);
            } else {
                memcpy(o->color, j->defcolor, 4);
            }
        }
    }
}

int patch_tessellate(const struct ge_state *st, const struct gt_mem *mem, uint32_t word, const struct gt_par *par,
                     struct gt_patch_out *out, struct gt_diag *d)
{
    memset(out, 0, sizeof *out);
    unsigned cmd = word >> 24;
    if (cmd != GE_BEZIER && cmd != GE_SPLINE) return gt_fail(d, GT_EARG, "patch: command 0x%02x is not BEZIER or SPLINE", cmd);
    const bool spline = cmd == GE_SPLINE;
    const unsigned nu = word & 0xFF, nv = (word >> 8) & 0xFF;
    const unsigned type_u = spline ? (word >> 16) & 3 : 0, type_v = spline ? (word >> 18) & 3 : 0;
    const uint32_t div = ge_reg(st, GE_PATCH_DIV);
    const unsigned tess_u = (div & 0x7F) ? (div & 0x7F) : 1, tess_v = ((div >> 8) & 0x7F) ? ((div >> 8) & 0x7F) : 1;
    const unsigned pp = ge_reg(st, GE_PATCH_PRIM) & 3;
    out->prim_type = pp == 0 ? 3 : pp == 1 ? 1 : 0;
    const bool facing = ge_reg(st, GE_PATCH_FACING) & 1;

    struct gt_vdec vd;
    vdec_setup(&vd, st);
    /* Nothing is drawn with fewer than 4 points either way, or without positions. */
    if (nu < 4 || nv < 4 || vd.pos == 0) return GT_OK;

    const bool has_tc = vd.tc != 0, has_col = vd.col != 0;
    /* The normal is generated from the surface whenever anything may read
     * it: a format with normals, lighting, or shade mapping (which uses it
     * even with lighting off); the vertices' own normals are unused
     * (measured, ge-curves.md "Normals"). */
    const bool need_nrm = vd.nrm != 0 || (ge_reg(st, GE_LIGHTING_ON) & 1) || (ge_reg(st, GE_TEX_MAPMODE) & 3) == 2;
    const bool uv_scale = vd.uv_scale;
    const bool skinned = !vd.through && vd.wt != 0;
    vd.uv_scale = false; /* control points: texture coordinates without scale/offset */

    const uint32_t npu = spline ? nu - 3 : (nu - 1) / 3, npv = spline ? nv - 3 : (nv - 1) / 3;
    const uint64_t nlu = spline ? (uint64_t)npu * tess_u + 1 : (uint64_t)npu * (tess_u + 1);
    const uint64_t nlv = spline ? (uint64_t)npv * tess_v + 1 : (uint64_t)npv * (tess_v + 1);
    if (nlu * nlv > PATCH_MAX_VERTICES)
        return gt_fail(d, GT_ETOO_BIG, "patch: %ux%u control points at division %ux%u make %llu vertices (limit %u)",
                       nu, nv, tess_u, tess_v, (unsigned long long)(nlu * nlv), PATCH_MAX_VERTICES);
    const uint64_t ncells = spline ? (nlu - 1) * (nlv - 1) : (uint64_t)npu * npv * tess_u * tess_v;

    int rc = GT_OK;
    struct gline *lu = NULL, *lv = NULL;
    struct cpoint *cp = NULL;
    out->nv = (uint32_t)(nlu * nlv);
    out->nidx = (uint32_t)(ncells * 6);
    out->v = calloc(out->nv, sizeof *out->v);
    out->idx = malloc(out->nidx * sizeof *out->idx);
    /* Zeroed: lanes of absent channels stay +0. */
    cp = aligned_alloc(_Alignof(struct cpoint), (size_t)nu * nv * sizeof *cp);
    if (cp) memset(cp, 0, (size_t)nu * nv * sizeof *cp);
    if (!out->v || !out->idx || !cp || !make_lines(spline, nu, type_u, tess_u, &lu) ||
        !make_lines(spline, nv, type_v, tess_v, &lv)) {
        rc = gt_fail(d, GT_ENOMEM, "patch: out of memory for %u vertices", out->nv);
        goto done;
    }

    /* Control points: element v * nu + u, through the index buffer if any. */
    uint8_t defcolor[4];
    {
        uint32_t amb = ge_reg(st, REG_MAT_AMBIENT);
        defcolor[0] = (uint8_t)amb, defcolor[1] = (uint8_t)(amb >> 8), defcolor[2] = (uint8_t)(amb >> 16);
        defcolor[3] = (uint8_t)ge_reg(st, REG_MAT_ALPHA);
    }
    for (uint32_t i = 0; i < nu * nv; i++) {
        struct gt_vin v;
        vdec_read(&vd, mem, st->vaddr, vdec_index(&vd, mem, st->iaddr, i), &v);
        gefloat pos[3];
        if (skinned)
            xform_skin(st->bone, vd.nweights, v.weight, v.pos, pos, NULL, NULL);
        else
            memcpy(pos, v.pos, sizeof pos);
        for (int k = 0; k < 3; k++) cp[i].c[CH_POS + k] = pos[k];
        if (has_tc)
            for (int k = 0; k < 2; k++) cp[i].c[CH_UV + k] = v.uv[k];
        /* Colors enter their lerps as (c << 7) | 0x7F (measured). */
        if (has_col)
            for (int k = 0; k < 4; k++) cp[i].col[k] = (int32_t)v.color[k] << 7 | 0x7F;
    }

    /* The lanes lerped: positions always, the others if present (absent
     * ones are +0 and unused); one block of LANES covers all but the last
     * color channel and the tangents. Grid lines are evaluated in chunks,
     * possibly on several threads (par.h). */
    struct tess_job job = {
        .spline = spline, .need_nrm = need_nrm, .has_tc = has_tc, .has_col = has_col, .uv_scale = uv_scale,
        .facing = facing, .nu = nu, .col_blocks = 1, .row_blocks = need_nrm ? 2 : 1,
        .tess_u = tess_u, .tess_v = tess_v, .npu = npu, .per_patch = (tess_u + 1) * (tess_v + 1), .nlu = nlu, .cp = cp, .lu = lu,
        .lv = lv, .vd = &vd, .out = out};
    memcpy(job.defcolor, defcolor, 4);
    gt_par_for(par, tess_rows, &job, (uint32_t)nlv, 2);
    const uint32_t per_patch = job.per_patch; /* Bezier: vertices of one patch */

    /* Primitives. */
    {
        const bool flip = PATCH_FACING_FLIPS_WINDING && facing;
        uint32_t *ip = out->idx;
        if (spline) {
            const uint32_t w = (uint32_t)nlu;
            for (uint32_t v = 0; v + 1 < nlv; v++)
                for (uint32_t u = 0; u + 1 < nlu; u++)
                    ip = emit_cell(ip, out->prim_type, flip, v * w + u, v * w + u + 1, (v + 1) * w + u, (v + 1) * w + u + 1);
        } else {
            const uint32_t w = tess_u + 1;
            for (uint32_t pu = 0; pu < npu; pu++)
                for (uint32_t pv = 0; pv < npv; pv++) {
                    const uint32_t base = (pv * npu + pu) * per_patch;
                    for (uint32_t v = 0; v < tess_v; v++)
                        for (uint32_t u = 0; u < tess_u; u++) {
                            uint32_t tl = base + v * w + u;
                            ip = emit_cell(ip, out->prim_type, flip, tl, tl + 1, tl + w, tl + w + 1);
                        }
                }
        }
    }

done:
    free(lu);
    free(lv);
    free(cp);
    if (rc) patch_free(out);
    return rc;
}
