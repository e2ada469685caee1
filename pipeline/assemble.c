/* Primitive assembly (see assemble.h). */
#include "assemble.h"

#include "clip.h"
#include "compat.h"
#include "patch.h"

#include <stdlib.h>
#include <string.h>

void asm_init(struct gt_asm *a)
{
    memset(a, 0, sizeof *a);
}

bool asm_triangle_visible(const struct gt_vout *v0, const struct gt_vout *v1, const struct gt_vout *v2,
                          bool cull_on, bool cull_face, bool flip)
{
    /* Triangles whose x or y coordinates are all equal cover nothing. */
    if ((v0->x16 == v1->x16 && v1->x16 == v2->x16) || (v0->y16 == v1->y16 && v1->y16 == v2->y16)) return false;
    if (!cull_on) return true;
    int64_t dx1 = (int64_t)v1->x16 - v0->x16, dy2 = (int64_t)v2->y16 - v0->y16;
    int64_t dy1 = (int64_t)v1->y16 - v0->y16, dx2 = (int64_t)v2->x16 - v0->x16;
    __int128 area = (__int128)dx1 * dy2 - (__int128)dy1 * dx2; /* terms up to 2^64: 128 bits */
    bool face = cull_face != flip;
    return face ? area >= 0 : area <= 0;
}

struct ctx {
    struct gt_asm *a;
    const struct gt_xform *xf;
    gt_prim_sink sink;
    void *sink_ctx;
    bool cull_on, cull_face, through, flat;
};

static int hand_over(struct ctx *c, enum gt_prim_kind kind, const struct gt_vout *const *v, unsigned nv,
                     unsigned provoking, struct gt_diag *d);

/* The order in which a strip's or fan's triangle reaches near-plane
 * clipping, which can differ from its primitive order (see add_vertex), and
 * its winding parity: a rotation or the reverse of the primitive order with
 * wind set exactly when the culling sense is flipped for it. */
struct clip_order {
    const struct gt_vout *v[3];
    bool wind;
};

/* A triangle crossing the near plane, clipped as the GE does (clip.c, the
 * order of the vertices as PPSSPP's measured clipper receives them:
 * TransformUnit.cpp SendTriangle, Clipper.cpp ProcessTriangle). With
 * culling off the triangle is clipped twice, in its clipping order r0 r1 r2
 * and reversed r2 r1 r0 (the reversed flag flipped); with culling on once,
 * forward when the cull face (flipped by wind) keeps counter-clockwise
 * triangles, else reversed. Each pass splits the triangle (clip.c), drops a
 * piece with a vertex outside the guard band, and keeps only pieces that are
 * counter-clockwise (area >= 0) and not degenerate, so one winding's pass
 * draws and the other's drops everything. With flat shading every piece
 * takes the provoking vertex's colors in its third vertex (setup reads
 * provoking vertex 2). Counters: discarded and degenerate pieces count in
 * every pass, wrongly wound ones as culled only with culling on (with it off
 * they are the other pass's). */
static int emit_clipped(struct ctx *c, const struct clip_order *co, const struct gt_vout *prov, struct gt_diag *d)
{
    c->a->stats.clipped++;
    bool forward = c->cull_face != co->wind;
    for (int pass = 0; pass < (c->cull_on ? 1 : 2); pass++) {
        bool rev = c->cull_on ? !forward : pass == 1;
        struct gt_vout in[3], tris[CLIP_MAX_TRIS][3];
        for (int i = 0; i < 3; i++) in[i] = *co->v[rev ? 2 - i : i];
        unsigned n = clip_triangle(c->xf, in, rev != co->wind, tris);
        for (unsigned k = 0; k < n; k++) {
            struct gt_vout *third = &tris[k][2];
            if (c->flat) {
                memcpy(third->color, prov->color, 4);
                memcpy(third->color1, prov->color1, 4);
            }
            const struct gt_vout *t[3] = {&tris[k][0], &tris[k][1], third};
            if (t[0]->outside || t[1]->outside || t[2]->outside) {
                c->a->stats.discarded++;
                continue;
            }
            if (!asm_triangle_visible(t[0], t[1], t[2], false, false, false)) {
                c->a->stats.culled++; /* degenerate */
                continue;
            }
            if (!asm_triangle_visible(t[0], t[1], t[2], true, true, false)) {
                if (c->cull_on) c->a->stats.culled++;
                continue;
            }
            int rc = hand_over(c, GT_TRIANGLE, t, 3, 2, d);
            if (rc < 0) return rc;
        }
    }
    return GT_OK;
}

/* The transform-mode discard rules, then clipping (lines, triangles),
 * then culling (triangles). v is in primitive order, which is what an
 * unclipped primitive is drawn and culled with; a triangle crossing the near
 * plane is clipped in the order co gives (NULL: v's, with wind = flip). */
static int emit(struct ctx *c, enum gt_prim_kind kind, const struct gt_vout *const *v, unsigned nv, unsigned provoking,
                bool flip, const struct clip_order *co, struct gt_diag *d)
{
    if (!c->through) {
        bool any_behind = false, all_wneg = true, wpos = true;
        unsigned omask = 0x3F;
        for (unsigned i = 0; i < nv; i++) {
            if (v[i]->outside) {
                c->a->stats.discarded++;
                return GT_OK;
            }
            any_behind |= v[i]->behind;
            all_wneg &= v[i]->w_negative;
            wpos &= !(v[i]->clip[3] >> 31) && (v[i]->clip[3] & 0x7F800000u);
            omask &= v[i]->omask;
        }
        /* All vertices outside one clip plane (x, y or z, |c| > w): culled,
         * every primitive type, clipping on or off (measured, probe exp176;
         * the screen depth range is the guard band's, xform_screen). */
        if (omask) {
            c->a->stats.discarded++;
            return GT_OK;
        }
        /* Rectangles are not clipped: a vertex behind the camera drops one. */
        if (kind == GT_RECT && !wpos) {
            c->a->stats.discarded++;
            return GT_OK;
        }
        if (kind != GT_POINT) {
            if (kind == GT_TRIANGLE && all_wneg) {
                c->a->stats.discarded++;
                return GT_OK;
            }
            if (!c->xf->depth_clip) {
                /* Without depth clipping nothing is clipped: the part beyond
                 * the near plane is drawn with extrapolated depth, and a
                 * vertex behind the camera (w <= 0) drops the primitive
                 * (PPSSPP Clipper.cpp, measured). */
                if (!wpos) {
                    c->a->stats.discarded++;
                    return GT_OK;
                }
                any_behind = false;
            }
            if (any_behind && kind == GT_TRIANGLE) {
                struct clip_order own = {{v[0], v[1], v[2]}, flip};
                return emit_clipped(c, co ? co : &own, v[provoking], d);
            }
            if (any_behind && kind == GT_LINE) {
                struct gt_vout a = *v[0], b = *v[1];
                clip_line(c->xf, &a, &b);
                c->a->stats.clipped++;
                if (a.outside || b.outside) {
                    c->a->stats.discarded++;
                    return GT_OK;
                }
                const struct gt_vout *t[2] = {&a, &b};
                return hand_over(c, GT_LINE, t, 2, provoking, d);
            }
        }
    }
    if (kind == GT_TRIANGLE && !asm_triangle_visible(v[0], v[1], v[2], c->cull_on, c->cull_face, flip)) {
        c->a->stats.culled++;
        return GT_OK;
    }
    if (kind == GT_TRIANGLE && GT_COMPAT(ZEROAREA)) {
        /* Diagnostic build: a zero-area triangle reaches AddTriangle in
         * both orders with culling off (its cross product passes either
         * way), in the cull face's order with it on (SendTriangle); each
         * order draws the samples its edge biases let through. */
        const struct gt_vout *const *o = co ? co->v : v;
        int64_t ar = ((int64_t)o[1]->x16 - o[0]->x16) * ((int64_t)o[2]->y16 - o[0]->y16) -
                     ((int64_t)o[2]->x16 - o[0]->x16) * ((int64_t)o[1]->y16 - o[0]->y16);
        if (ar == 0) {
            bool forward = c->cull_face != (co ? co->wind : flip);
            for (int pass = 0; pass < (c->cull_on ? 1 : 2); pass++) {
                bool rev = c->cull_on ? !forward : pass == 1;
                const struct gt_vout *ord[3] = {o[rev ? 2 : 0], o[1], o[rev ? 0 : 2]};
                unsigned pv = 0;
                while (pv < 2 && ord[pv] != v[provoking]) pv++;
                int rc = hand_over(c, kind, ord, nv, pv, d);
                if (rc < 0) return rc;
            }
            return GT_OK;
        }
    }
    if (kind == GT_TRIANGLE && GT_COMPAT(PLANES)) {
        /* Diagnostic build: PPSSPP interpolates in the order the triangle
         * reaches AddTriangle, its clipping order or that reversed, whichever
         * is counter-clockwise (SendTriangle); the provoking vertex stays. */
        const struct gt_vout *const *o = co ? co->v : v;
        bool ccw = asm_triangle_visible(o[0], o[1], o[2], true, true, false);
        const struct gt_vout *ord[3] = {o[ccw ? 0 : 2], o[1], o[ccw ? 2 : 0]};
        unsigned pv = 0;
        while (pv < 2 && ord[pv] != v[provoking]) pv++;
        return hand_over(c, kind, ord, nv, pv, d);
    }
    return hand_over(c, kind, v, nv, provoking, d);
}

static int hand_over(struct ctx *c, enum gt_prim_kind kind, const struct gt_vout *const *v, unsigned nv,
                     unsigned provoking, struct gt_diag *d)
{
    struct gt_prim p;
    p.kind = kind;
    p.nv = nv;
    p.provoking = provoking;
    for (unsigned i = 0; i < nv; i++) p.v[i] = *v[i];
    c->a->stats.emitted[kind]++;
    return c->sink ? c->sink(c->sink_ctx, &p, d) : GT_OK;
}

/* Adds one vertex to the primitive being built. */
static int add_vertex(struct ctx *c, const struct gt_vout *v, struct gt_diag *d)
{
    struct gt_asm *a = c->a;
    const struct gt_vout *t[3];
    switch (a->type) {
    case 0: /* points */
        t[0] = v;
        return emit(c, GT_POINT, t, 1, 0, false, NULL, d);
    case 1: /* lines: pairs */
    case 6: /* rectangles: pairs; color, depth and fog from the second vertex */
        if (a->npend == 0) {
            a->pend[a->npend++] = *v;
            return GT_OK;
        }
        a->npend = 0;
        t[0] = &a->pend[0], t[1] = v;
        return emit(c, a->type == 1 ? GT_LINE : GT_RECT, t, 2, 1, false, NULL, d);
    case 2: /* line strip: from the previous vertex to this one */
        if (a->npend == 0) {
            a->pend[a->npend++] = *v;
            return GT_OK;
        }
        {
            struct gt_vout prev = a->pend[0];
            a->pend[0] = *v;
            t[0] = &prev, t[1] = v;
            return emit(c, GT_LINE, t, 2, 1, false, NULL, d);
        }
    case 3: /* triangles: triples, provoking vertex the third */
        if (a->npend < 2) {
            a->pend[a->npend++] = *v;
            return GT_OK;
        }
        a->npend = 0;
        t[0] = &a->pend[0], t[1] = &a->pend[1], t[2] = v;
        return emit(c, GT_TRIANGLE, t, 3, 2, false, NULL, d);
    case 4: /* strip: (k, k+1, k+2), the culling sense flips on odd triangles */
    case 5: /* fan: (0, k+1, k+2), same sense for all */
    {
        /* PPSSPP's 3-slot ring (TransformUnit.cpp SubmitPrimitive): ring
         * index r of the vertex (its data_index_). A strip's vertex r sits in
         * slot r % 3, so the clipping order is a rotation of (k, k+1, k+2); a
         * fan's center in slot 0 and vertex r in slot 2 - r % 2, so its odd
         * triangles reach clipping as (0, k+2, k+1) with the sense flipped.
         * Either way the culling outcome is the primitive order's; only the
         * clipped polygon's order (and so its pieces) changes. Kept modulo 6,
         * which preserves both r % 3 and r % 2. */
        unsigned r = a->ring;
        a->ring = (r + 1) % 6;
        if (a->npend < 2) {
            a->pend[a->npend++] = *v;
            return GT_OK;
        }
        struct gt_vout p0 = a->pend[0], p1 = a->pend[1];
        bool flip = a->type == 4 && (a->strip_index & 1);
        a->strip_index++;
        if (a->type == 4) a->pend[0] = p1;
        a->pend[1] = *v;
        t[0] = &p0, t[1] = &p1, t[2] = v;
        struct clip_order co = {{NULL, NULL, NULL}, r & 1};
        if (a->type == 4) {
            co.v[(r + 1) % 3] = &p0, co.v[(r + 2) % 3] = &p1, co.v[r % 3] = v; /* r - 2, r - 1 */
        } else {
            co.v[0] = &p0, co.v[1 + r % 2] = &p1, co.v[2 - r % 2] = v;
        }
        return emit(c, GT_TRIANGLE, t, 3, 2, flip, &co, d);
    }
    default:
        return GT_OK;
    }
}

/* Diagnostic build only (compat.h "merge"): PPSSPP's merging of a PRIM's
 * vertices into rectangles (TransformUnit::SubmitPrimitive). Returns 1 when
 * it handled the kick (with *rc the result), 0 to assemble normally. */
static int compat_merge(struct ctx *c, const struct ge_state *st, const struct gt_vout *vs, uint32_t count,
                        struct gt_diag *d, int *rc)
{
    struct gt_asm *a = c->a;
    bool clear = ge_reg(st, GE_CLEAR_MODE) & 1;
    bool ztest = (ge_reg(st, GE_ZTEST_ON) & 1) && !clear;
    bool zwrite = clear ? (ge_reg(st, GE_CLEAR_MODE) & 0x400) != 0 : ztest && !(ge_reg(st, GE_Z_WRITE_DISABLE) & 1);
    struct compat_rect_ctx rc_ctx = {
        .through = c->through,
        .textured = (ge_reg(st, GE_TEXTURE_ON) & 1) && !clear,
        .fog = (ge_reg(st, GE_FOG_ON) & 1) && !clear && !c->through,
        .z_matters = zwrite || (ztest && (ge_reg(st, GE_Z_TEST) & 7) != 1),
    };
    int tl, br;
    *rc = GT_OK;
    if (a->npend != 0 || c->cull_on) return 0;
    if (a->type == 3 && c->through && count >= 6 && count % 6 == 0) {
        for (uint32_t i = 0; i < count && *rc >= 0; i += 6) {
            if (compat_rect_pair6(&rc_ctx, vs + i, &tl, &br)) {
                const struct gt_vout *t[2] = {&vs[i + (unsigned)tl], &vs[i + (unsigned)br]};
                *rc = emit(c, GT_RECT, t, 2, 1, false, NULL, d);
            } else {
                for (unsigned k = 0; k < 6 && *rc >= 0; k++) *rc = add_vertex(c, &vs[i + k], d);
            }
        }
        return 1;
    }
    if (a->type == 4 && count >= 4 && (count & 1) == 0) {
        /* Leading quads that are rectangles; the strip continues from the
         * last two vertices of the last one. */
        uint32_t start = 0;
        for (uint32_t base = 0; base + 4 <= count && compat_rect_strip4(&rc_ctx, vs + base, &tl, &br); base += 2) {
            const struct gt_vout *t[2] = {&vs[base + (unsigned)tl], &vs[base + (unsigned)br]};
            if ((*rc = emit(c, GT_RECT, t, 2, 1, false, NULL, d)) < 0) return 1;
            start = base + 4 >= count ? count : base + 2;
        }
        if (start == 0) return 0;
        /* PPSSPP re-reads the two vertices the strip continues from into
         * its ring at data_index_ 2 and 3. */
        a->ring = 2;
        for (uint32_t i = start; i < count && *rc >= 0; i++) *rc = add_vertex(c, &vs[i], d);
        return 1;
    }
    if (a->type == 5 && count == 4 && compat_rect_fan4(&rc_ctx, vs, &tl, &br)) {
        const struct gt_vout *t[2] = {&vs[tl], &vs[br]};
        *rc = emit(c, GT_RECT, t, 2, 1, false, NULL, d);
        return 1;
    }
    if (a->type == 6 && c->through) {
        uint32_t i = 0;
        for (; i + 4 <= count && *rc >= 0; i += 4) {
            if (compat_rect_slices(&rc_ctx, vs + i)) {
                const struct gt_vout *t[2] = {&vs[i], &vs[i + 3]};
                *rc = emit(c, GT_RECT, t, 2, 1, false, NULL, d);
            } else {
                for (unsigned k = 0; k < 4 && *rc >= 0; k++) *rc = add_vertex(c, &vs[i + k], d);
            }
        }
        for (; i < count && *rc >= 0; i++) *rc = add_vertex(c, &vs[i], d);
        return 1;
    }
    return 0;
}

/* Starts a new primitive unless type is 7 ("keep previous"). */
static void begin(struct gt_asm *a, unsigned type)
{
    if (type != 7) {
        a->type = type;
        a->npend = 0;
        a->strip_index = 0;
        a->ring = 0;
    }
}

/* The register-driven parts of a context: shading and culling. */
static void ctx_from_state(struct ctx *c, const struct ge_state *st)
{
    bool clear = ge_reg(st, GE_CLEAR_MODE) & 1;
    c->flat = clear || !(ge_reg(st, GE_SHADEMODE) & 1);
    c->cull_on = (ge_reg(st, GE_CULL_ON) & 1) && !clear;
    c->cull_face = ge_reg(st, GE_CULL) & 1;
}

/* Vertices decoded and transformed per batch, before they are assembled in
 * order. */
#define XFORM_BATCH 512u
/* Vertices per chunk of a parallel transform (par.h). */
#define XFORM_CHUNK 64u

/* A PRIM kick's vertices first..first+n-1, decoded and transformed into
 * out[0..n-1] (the transform job). Vertices are independent: one without
 * texture coordinates or normals reuses the last ones read before the kick
 * (PPSSPP keeps them across draws; unmeasured), which the kick itself only
 * changes when its vertices have them, and then every vertex has its own. */
struct xform_job {
    const struct gt_xform *xf;
    const struct gt_mem *mem;
    const struct ge_state *st;
    const gefloat *last_uv, *last_nrm;
    uint32_t first, count;  /* the batch's first vertex, the kick's vertices */
    struct gt_vout *out;
    gefloat end_uv[2], end_nrm[3]; /* the kick's last vertex's, as decoded */
};

static void xform_vertices(void *ctx, uint32_t b, uint32_t e)
{
    struct xform_job *j = ctx;
    const struct gt_xform *xf = j->xf;
    for (uint32_t i = b; i < e; i++) {
        struct gt_vin in;
        uint32_t index = vdec_index(&xf->vd, j->mem, j->st->iaddr, j->first + i);
        vdec_read(&xf->vd, j->mem, j->st->vaddr, index, &in);
        if (!xf->vd.tc) memcpy(in.uv, j->last_uv, sizeof in.uv);
        if (!xf->vd.nrm) memcpy(in.nrm, j->last_nrm, sizeof in.nrm);
        if (j->first + i == j->count - 1) { /* one chunk has it */
            memcpy(j->end_uv, in.uv, sizeof j->end_uv);
            memcpy(j->end_nrm, in.nrm, sizeof j->end_nrm);
        }
        xform_vertex(xf, &in, &j->out[i]);
    }
}

int asm_prim(struct gt_asm *a, const struct ge_state *st, const struct gt_mem *mem, uint32_t word,
             gt_prim_sink sink, void *ctx, struct gt_diag *d)
{
    uint32_t count = word & 0xFFFF;
    begin(a, (word >> 16) & 7);
    if (!count) return GT_OK;
    struct gt_xform xf;
    xform_setup(&xf, st);
    /* A vertex format without a position draws nothing (PPSSPP's behaviour). */
    if (xf.vd.pos == 0) return GT_OK;
    struct ctx c = {a, &xf, sink, ctx, false, false, xf.through, false};
    ctx_from_state(&c, st);
    /* Vertex or index data in VRAM is read whole before any primitive of
     * the kick is binned: scenes it flushes draw while later batches would
     * be read. The diagnostic build also transforms the kick first, for
     * PPSSPP's rectangle merging (compat.h). */
    bool indexed = (ge_reg(st, GE_VTYPE) >> 11 & 3) != 0;
    bool whole = GT_COMPAT(MERGE) || mem_is_vram(st->vaddr) || (indexed && mem_is_vram(st->iaddr));
    uint32_t batch = whole ? count : XFORM_BATCH;
    struct gt_vout stack_buf[XFORM_BATCH], *buf = stack_buf;
    if (batch > XFORM_BATCH && !(buf = malloc(sizeof *buf * batch)))
        return gt_fail(d, GT_ENOMEM, "cannot allocate %u vertices", batch);
    int rc = GT_OK;
    struct xform_job job = {&xf, mem, st, a->last_uv, a->last_nrm, 0, count, buf, {0, 0}, {0, 0, 0}};
    for (uint32_t first = 0; first < count && rc >= 0; first += batch) {
        uint32_t n = count - first < batch ? count - first : batch;
        job.first = first;
        gt_par_for(&a->par, xform_vertices, &job, n, XFORM_CHUNK);
        if (GT_COMPAT(MERGE) && compat_merge(&c, st, buf, count, d, &rc)) break;
        for (uint32_t i = 0; i < n && rc >= 0; i++) rc = add_vertex(&c, &buf[i], d);
    }
    if (buf != stack_buf) free(buf);
    /* The last vertex's texture coordinates and normal are what a later
     * vertex without them reuses. */
    if (xf.vd.tc) memcpy(a->last_uv, job.end_uv, sizeof a->last_uv);
    if (xf.vd.nrm) memcpy(a->last_nrm, job.end_nrm, sizeof a->last_nrm);
    return rc;
}

int asm_immediate(struct gt_asm *a, const struct ge_state *st, uint32_t vap, gt_prim_sink sink, void *ctx,
                  struct gt_diag *d)
{
    unsigned type = (vap >> 8) & 7;
    begin(a, type);
    if (type != 7) a->imm_flags = vap >> 11;
    struct gt_xform xf;
    xform_setup(&xf, st);
    struct ctx c = {a, &xf, sink, ctx, false, false, true, false};
    ctx_from_state(&c, st);
    /* The first VAP's flags hold for the whole primitive: bit 7 (18) Gouraud,
     * bit 8 (19) culling, bit 9 (20) cull face. */
    bool clear = ge_reg(st, GE_CLEAR_MODE) & 1;
    c.flat = clear || !((a->imm_flags >> 7) & 1);
    c.cull_on = ((a->imm_flags >> 8) & 1) && !clear;
    c.cull_face = (a->imm_flags >> 9) & 1;
    struct gt_vout v;
    memset(&v, 0, sizeof v);
    int32_t bias_x = xf.through ? 0x8000 : xf.offset_x, bias_y = xf.through ? 0x8000 : xf.offset_y;
    v.x16 = (int32_t)(ge_reg(st, GE_VSCX) & 0xFFFF) - bias_x;
    v.y16 = (int32_t)(ge_reg(st, GE_VSCX + 1) & 0xFFFF) - bias_y;
    v.z = (uint16_t)ge_reg(st, GE_VSCX + 2);
    v.clip[3] = GEMATH_ONE;
    v.uv[0] = gemath_from_word(st->reg[GE_VSCX + 3]);
    v.uv[1] = gemath_from_word(st->reg[GE_VSCX + 4]);
    v.q = gemath_from_word(st->reg[GE_VSCX + 5]);
    uint32_t rgb = ge_reg(st, GE_VSCX + 6);
    for (int k = 0; k < 3; k++) v.color[k] = (uint8_t)(rgb >> (8 * k));
    v.color[3] = (uint8_t)vap;
    if ((ge_reg(st, GE_LIGHT_MODE) & 1) && !xf.through) {
        uint32_t spec = ge_reg(st, GE_VSCX + 9);
        for (int k = 0; k < 3; k++) v.color1[k] = (uint8_t)(spec >> (8 * k));
    }
    /* Fog: the 8-bit value as a factor of 255. */
    v.fog = gemath_from_fixed((int32_t)(((ge_reg(st, GE_VSCX + 8) & 0xFF) << 16) / 255), 16);
    return add_vertex(&c, &v, d);
}

/* Transform of generated patch vertices [b, e) (independent). */
struct patch_xform_job {
    const struct gt_xform *xf;
    const struct gt_vin *in;
    struct gt_vout *out;
};

static void xform_patch_vertices(void *ctx, uint32_t b, uint32_t e)
{
    const struct patch_xform_job *j = ctx;
    for (uint32_t i = b; i < e; i++) xform_vertex(j->xf, &j->in[i], &j->out[i]);
}

int asm_patch(struct gt_asm *a, const struct ge_state *st, const struct gt_mem *mem, uint32_t word,
              gt_prim_sink sink, void *ctx, struct gt_diag *d)
{
    struct gt_patch_out po;
    int rc = patch_tessellate(st, mem, word, &a->par, &po, d);
    if (rc == GT_ETOO_BIG) {
        /* A legal but enormous patch: dropped and counted, not an error. */
        a->stats.patches_dropped++;
        return GT_OK;
    }
    if (rc < 0) return rc;
    struct gt_xform xf;
    xform_setup(&xf, st);
    xf.nweights = 0;      /* patch vertices come out already skinned */
    xf.has_color = true;  /* and always carry a color */
    struct ctx c = {a, &xf, sink, ctx, false, false, xf.through, false};
    ctx_from_state(&c, st);
    struct gt_vout *out = po.nv ? malloc(sizeof *out * po.nv) : NULL;
    if (po.nv && !out) {
        patch_free(&po);
        return gt_fail(d, GT_ENOMEM, "cannot allocate %u patch vertices", po.nv);
    }
    struct patch_xform_job job = {&xf, po.v, out};
    gt_par_for(&a->par, xform_patch_vertices, &job, po.nv, XFORM_CHUNK);
    a->stats.patch_vertices += po.nv;
    /* Patch vertices have normals and texture coordinates: the last one
     * drawn is what a later vertex without them reuses. */
    if (po.nidx && po.idx[po.nidx - 1] < po.nv) {
        const struct gt_vin *last = &po.v[po.idx[po.nidx - 1]];
        memcpy(a->last_uv, last->uv, sizeof a->last_uv);
        memcpy(a->last_nrm, last->nrm, sizeof a->last_nrm);
    }
    begin(a, po.prim_type);
    for (uint32_t i = 0; i < po.nidx && rc == GT_OK; i++)
        if (po.idx[i] < po.nv) rc = add_vertex(&c, &out[po.idx[i]], d);
    free(out);
    patch_free(&po);
    return rc;
}
