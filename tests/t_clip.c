/* Near-plane clipping and the depth discard rules. Clip positions are set
 * directly; values are chosen so every interpolation is exact. */
#include <string.h>

#include "assemble.h"
#include "clip.h"
#include "gehelp.h"
#include "test.h"

static gefloat f(float x) { return gemath_from_float(x); }

/* Identity viewport scale 1 around 2048 (so screen x = 2048 + clip x / w). */
static void setup(struct ge_state *st, struct gt_xform *xf, int depth_clip)
{
    memset(st, 0, sizeof *st);
    for (int i = 0; i < 3; i++) {
        st->reg[GE_VIEWPORT_SX + i] = (uint32_t)(GE_VIEWPORT_SX + i) << 24 | dl_float24(i == 2 ? 16384.0f : 1.0f);
        st->reg[GE_VIEWPORT_SX + 3 + i] = (uint32_t)(GE_VIEWPORT_SX + 3 + i) << 24 | dl_float24(i == 2 ? 32768.0f : 2048.0f);
    }
    st->reg[GE_VTYPE] = (uint32_t)GE_VTYPE << 24 | 3u << 7;
    st->reg[GE_DEPTHCLIP_ON] = (uint32_t)GE_DEPTHCLIP_ON << 24 | (uint32_t)depth_clip;
    xform_setup(xf, st);
}

static struct gt_vout vert(const struct gt_xform *xf, float x, float y, float z, float w, uint8_t c)
{
    struct gt_vout v;
    memset(&v, 0, sizeof v);
    v.clip[0] = f(x), v.clip[1] = f(y), v.clip[2] = f(z), v.clip[3] = f(w);
    v.q = v.fog = GEMATH_ONE;
    memset(v.color, c, 4);
    xform_screen(xf, &v, false);
    return v;
}

/* The new vertex on in-out (ge-arithmetic.md "Clipped vertex colors",
 * probes exp43-46): t = d_in R(d_in - d_out) with d = z + w, from the
 * inside vertex; each component in + t (out - in); colors with t8 =
 * round(256 t). */
TEST(clip_near_point_arithmetic)
{
    struct ge_state st;
    struct gt_xform xf;
    setup(&st, &xf, 1);
    /* d_in = 2, d_out = -2: t = 2 R(4) = 0.5 exactly. */
    struct gt_vout in = vert(&xf, 0, 0, 1, 1, 0), out = vert(&xf, 8, 4, -3, 1, 255), m;
    in.uv[0] = f(1.0f), out.uv[0] = f(2.0f);
    clip_near_point(&xf, &in, &out, &m);
    CHECK_EQ_U(m.clip[0], f(4.0f));
    CHECK_EQ_U(m.clip[1], f(2.0f));
    CHECK_EQ_U(m.clip[2], f(-1.0f)); /* on the plane z = -w */
    CHECK_EQ_U(m.uv[0], f(1.5f));
    CHECK_EQ_U(m.color[0], (255 * 128) >> 8); /* t8 = 128: 127 */
    CHECK_EQ_I(m.x16, (2048 + 4) * 16);
    /* d_in = 1, d_out = -2: den 3 = 1.5 * 2, the reciprocal table's
     * segment 64 (B 87381) at position 0 gives q = (64 * 87381 + 63) >> 7
     * = 43690, R(3) = 43690 / 2^17 (not 1/3), so t = 43690 / 2^17 and the
     * new x on 0..3 is 3 t = 131070 / 2^17 = 1 - 2^-16, not 1. Colors
     * 0..255: t8 = round(256 t) = 85. */
    struct gt_vout in2 = vert(&xf, 0, 0, 0, 1, 0), out2 = vert(&xf, 3, 0, -3, 1, 255);
    clip_near_point(&xf, &in2, &out2, &m);
    CHECK_EQ_U(m.clip[0], 0x3F7FFF00u);
    CHECK_EQ_U(m.color[0], (255 * 85) >> 8);
}

/* The split of ProcessTriangle (measured, probes exp43-44): one vertex o
 * behind, the quad split from the vertex before o in the given order (p),
 * into (p, a, b) and (p, b, n); reversed takes the vertex after o and
 * keeps the reversed winding. Two behind: one triangle from the inside
 * vertex. */
TEST(clip_triangle_one_behind)
{
    struct ge_state st;
    struct gt_xform xf;
    setup(&st, &xf, 1);
    /* v0 behind (z + w = -1), v1 and v2 in front (z + w = 1): both new
     * vertices halfway (t = 0.5). */
    struct gt_vout in[3] = {vert(&xf, 0, 0, -2, 1, 0), vert(&xf, 8, 0, 0, 1, 200), vert(&xf, 0, 8, 0, 1, 100)};
    CHECK(in[0].behind && !in[1].behind && !in[2].behind);
    struct gt_vout out[CLIP_MAX_TRIS][3];
    CHECK_EQ_U(clip_triangle(&xf, in, false, out), 2);
    /* p = v2, n = v1: a on v2-v0 at (0, 4), b on v1-v0 at (4, 0). */
    CHECK_EQ_U(out[0][0].clip[1], f(8.0f));
    CHECK_EQ_U(out[0][1].clip[1], f(4.0f));
    CHECK_EQ_U(out[0][1].clip[2], f(-1.0f));
    CHECK_EQ_U(out[0][1].color[0], 50); /* (100 * 128) >> 8 */
    CHECK_EQ_U(out[0][2].clip[0], f(4.0f));
    CHECK_EQ_U(out[0][2].color[0], 100); /* (200 * 128) >> 8 */
    CHECK_EQ_U(out[1][0].clip[1], f(8.0f));
    CHECK_EQ_U(out[1][1].clip[0], f(4.0f));
    CHECK_EQ_U(out[1][2].clip[0], f(8.0f)); /* v1 */
    /* Reversed: p = v1, n = v2: (v1, b, a) and (v1, v2, b), b on v2-v0. */
    CHECK_EQ_U(clip_triangle(&xf, in, true, out), 2);
    CHECK_EQ_U(out[0][0].clip[0], f(8.0f));
    CHECK_EQ_U(out[0][1].clip[1], f(4.0f));
    CHECK_EQ_U(out[0][2].clip[0], f(4.0f));
    CHECK_EQ_U(out[1][1].clip[1], f(8.0f)); /* v2 */
    CHECK_EQ_U(out[1][2].clip[1], f(4.0f));
    /* All three behind: nothing left. */
    struct gt_vout gone[3] = {vert(&xf, 0, 0, -2, 1, 0), vert(&xf, 8, 0, -3, 1, 0), vert(&xf, 0, 8, -4, 1, 0)};
    CHECK_EQ_U(clip_triangle(&xf, gone, false, out), 0);
    /* Two behind: (v2, on v2-v0, on v2-v1). */
    struct gt_vout two[3] = {vert(&xf, 0, 0, -3, 1, 0), vert(&xf, 8, 0, -3, 1, 0), vert(&xf, 0, 8, 1, 1, 0)};
    CHECK_EQ_U(clip_triangle(&xf, two, false, out), 1);
    CHECK_EQ_U(out[0][0].clip[1], f(8.0f));
    CHECK_EQ_U(out[0][1].clip[0], f(0.0f)); /* on v2-v0: x stays 0 */
    CHECK_EQ_U(out[0][2].clip[0], f(4.0f)); /* on v2-v1: t = 2 R(4) = 0.5 */
}

struct got {
    unsigned n;
    struct gt_prim p[8];
};

static int collect(void *ctx, const struct gt_prim *p, struct gt_diag *d)
{
    struct got *g = ctx;
    if (g->n < 8) g->p[g->n++] = *p;
    return GT_OK;
}

/* Runs one triangle of float positions through asm_prim with identity
 * matrices and a projection that puts -z into w (w = 1 - z). */
static void run_tri(struct gehelp *h, const float (*p)[3], int depth_clip, struct gt_asm *a, struct got *g)
{
    struct ge_state *st = &h->r.ge.st;
    struct gt_xform xf;
    setup(st, &xf, depth_clip);
    st->world[0] = st->world[4] = st->world[8] = GEMATH_ONE;
    st->view[0] = st->view[4] = st->view[8] = GEMATH_ONE;
    st->proj[0] = st->proj[5] = st->proj[10] = GEMATH_ONE;
    st->proj[15] = GEMATH_ONE;
    st->proj[11] = f(-1.0f); /* w = 1 - z */
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            uint32_t u;
            memcpy(&u, &p[i][k], 4);
            mem_write32(&h->r.mem, 0x08200000 + (uint32_t)(i * 12 + k * 4), u);
        }
    st->vaddr = 0x08200000;
    struct gt_diag d = {0};
    asm_init(a);
    CHECK_EQ_I(asm_prim(a, st, &h->r.mem, (uint32_t)GE_PRIM << 24 | 3u << 16 | 3, collect, g, &d), GT_OK);
}

TEST(clip_depth_rules_in_assembly)
{
    struct gehelp h;
    struct gt_asm a;
    gh_init(&h);
    /* z = 0.2 for all: inside. */
    const float inside[3][3] = {{0, 0, 0.2f}, {1, 0, 0.2f}, {0, 1, 0.2f}};
    struct got g = {0};
    run_tri(&h, inside, 0, &a, &g);
    CHECK_EQ_U(g.n, 1);
    /* One vertex at z = 0.75, w = 0.25: z/w = 3 > 1. Without DEPTHCLIP the
     * triangle goes; with it, it stays (only all-on-one-side goes). */
    const float far1[3][3] = {{0, 0, 0.75f}, {1, 0, 0.2f}, {0, 1, 0.2f}};
    g.n = 0;
    run_tri(&h, far1, 0, &a, &g);
    CHECK_EQ_U(g.n, 0);
    CHECK_EQ_U(a.stats.discarded, 1);
    g.n = 0;
    run_tri(&h, far1, 1, &a, &g);
    CHECK_EQ_U(g.n, 1);
    const float far3[3][3] = {{0, 0, 0.75f}, {1, 0, 0.75f}, {0, 1, 0.75f}};
    g.n = 0;
    run_tri(&h, far3, 1, &a, &g);
    CHECK_EQ_U(g.n, 0);
    gh_free(&h);
}

TEST(clip_pieces_reach_assembly)
{
    /* Projection w = 1 (constant), z as is: a vertex at z = -2 is behind
     * (z + w = -1). With DEPTHCLIP on, the triangle is clipped into two
     * pieces, both drawn (culling off). */
    struct gehelp h;
    struct gt_asm a;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    struct gt_xform xf;
    setup(st, &xf, 1);
    st->world[0] = st->world[4] = st->world[8] = GEMATH_ONE;
    st->view[0] = st->view[4] = st->view[8] = GEMATH_ONE;
    st->proj[0] = st->proj[5] = st->proj[10] = st->proj[15] = GEMATH_ONE;
    const float p[3][3] = {{0, 0, -2}, {8, 0, 0}, {0, 8, 0}};
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            uint32_t u;
            memcpy(&u, &p[i][k], 4);
            mem_write32(&h.r.mem, 0x08200000 + (uint32_t)(i * 12 + k * 4), u);
        }
    st->vaddr = 0x08200000;
    struct got g = {0};
    struct gt_diag d = {0};
    asm_init(&a);
    CHECK_EQ_I(asm_prim(&a, st, &h.r.mem, (uint32_t)GE_PRIM << 24 | 3u << 16 | 3, collect, &g, &d), GT_OK);
    CHECK_EQ_U(a.stats.clipped, 1);
    CHECK_EQ_U(g.n, 2);
    /* The measured split (clip.c): v0 behind, the vertex before it v2 = p,
     * v1 = n; a = I(v2,v0) = (0,4), b = I(v1,v0) = (4,0) (pixels past
     * 2048): (v2, a, b) and (v2, b, v1). Both are counter-clockwise in
     * BinManager::AddTriangle's sense (cross products 16 and 32 > 0), so
     * with culling off the pass in this order draws them and the reversed
     * pass (v2, v1, v0) SendTriangle adds draws nothing. */
    CHECK_EQ_I(g.p[0].v[0].x16, 2048 * 16);
    CHECK_EQ_I(g.p[0].v[0].y16, (2048 + 8) * 16);
    CHECK_EQ_I(g.p[0].v[1].x16, 2048 * 16);
    CHECK_EQ_I(g.p[0].v[1].y16, (2048 + 4) * 16);
    CHECK_EQ_I(g.p[0].v[2].x16, (2048 + 4) * 16);
    CHECK_EQ_I(g.p[0].v[2].y16, 2048 * 16);
    CHECK_EQ_I(g.p[1].v[0].y16, (2048 + 8) * 16);
    CHECK_EQ_I(g.p[1].v[1].x16, (2048 + 4) * 16);
    CHECK_EQ_I(g.p[1].v[2].x16, (2048 + 8) * 16);
    CHECK_EQ_I(g.p[1].v[2].y16, 2048 * 16);
    CHECK_EQ_U(a.stats.culled, 0); /* the reversed pass's pieces are not counted */
    /* Without DEPTHCLIP nothing is clipped (measured, PPSSPP Clipper.cpp):
     * w > 0 everywhere and v0's screen depth 16384 * -2 + 32768 = 0 is in
     * range, so the triangle is drawn whole with extrapolated depth. */
    st->reg[GE_DEPTHCLIP_ON] = (uint32_t)GE_DEPTHCLIP_ON << 24;
    g.n = 0;
    asm_init(&a);
    CHECK_EQ_I(asm_prim(&a, st, &h.r.mem, (uint32_t)GE_PRIM << 24 | 3u << 16 | 3, collect, &g, &d), GT_OK);
    CHECK_EQ_U(g.n, 1);
    CHECK_EQ_U(a.stats.clipped, 0);
    CHECK_EQ_I(g.p[0].v[0].z, 0);
    /* With w = 0 at one vertex (behind the camera) it is dropped instead. */
    st->proj[15] = 0;
    st->proj[11] = GEMATH_ONE; /* w = z: -2 at v0, 0 at v1 and v2 */
    g.n = 0;
    asm_init(&a);
    CHECK_EQ_I(asm_prim(&a, st, &h.r.mem, (uint32_t)GE_PRIM << 24 | 3u << 16 | 3, collect, &g, &d), GT_OK);
    CHECK_EQ_U(g.n, 0);
    gh_free(&h);
}

/* Runs n float positions as one PRIM of the given type through asm_prim,
 * with identity matrices (w = 1, so a vertex is behind when z < -1), the
 * identity viewport around 2048 and DEPTHCLIP on. */
static void run_w1(struct gehelp *h, const float (*p)[3], unsigned n, unsigned type, int cull_on, int cull_face,
                   struct gt_asm *a, struct got *g)
{
    struct ge_state *st = &h->r.ge.st;
    struct gt_xform xf;
    setup(st, &xf, 1);
    st->world[0] = st->world[4] = st->world[8] = GEMATH_ONE;
    st->view[0] = st->view[4] = st->view[8] = GEMATH_ONE;
    st->proj[0] = st->proj[5] = st->proj[10] = st->proj[15] = GEMATH_ONE;
    st->reg[GE_CULL_ON] = (uint32_t)GE_CULL_ON << 24 | (uint32_t)cull_on;
    st->reg[GE_CULL] = (uint32_t)GE_CULL << 24 | (uint32_t)cull_face;
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < 3; k++) {
            uint32_t u;
            memcpy(&u, &p[i][k], 4);
            mem_write32(&h->r.mem, 0x08200000 + i * 12 + k * 4, u);
        }
    st->vaddr = 0x08200000;
    struct gt_diag d = {0};
    g->n = 0;
    asm_init(a);
    CHECK_EQ_I(asm_prim(a, st, &h->r.mem, (uint32_t)GE_PRIM << 24 | type << 16 | n, collect, g, &d), GT_OK);
}

TEST(clip_order_decides_dropped_pieces)
{
    /* w = 1, screen = 2048 + clip x (y), guard band: screen in [0, 4096).
     * V0 = (-3000, 0) behind (z = -2: distance -1, not range-checked),
     * V1 = (2000, 0) and V2 = (-1500, 8) in front (z = 0: distance 1), so
     * every crossing is halfway: I01 = (-500, 0) is inside the guard band,
     * I02 = (-2250, 4) outside (screen x -202). V0 V1 V2 is counter-clockwise
     * in BinManager::AddTriangle's sense (cross product 5000 * 8 > 0).
     * The measured split (clip.c) starts from the vertex before the one
     * behind, in the order the clipper gets, and a piece with a vertex out
     * of range is dropped, so which pieces survive depends on that order. */
    struct gehelp h;
    struct gt_asm a;
    struct got g = {0};
    gh_init(&h);
    const float V0[3] = {-3000, 0, -2}, V1[3] = {2000, 0, 0}, V2[3] = {-1500, 8, 0};
    const int32_t i01x = (2048 - 500) * 16, v1x = (2048 + 2000) * 16, v2x = (2048 - 1500) * 16;

    /* 1. TRIANGLES V0 V1 V2, culling off. SendTriangle clips V0 V1 V2 and
     * V2 V1 V0 (reversed). Forward: p = V2, n = V1, pieces (V2, I20, I10)
     * out of range and (V2, I10, V1) counter-clockwise (cross product
     * (1000, -8) x (3500, -8) = 20000), drawn. Reversed: p = V2, n = V1,
     * pieces (V2, I10, I20) out of range and (V2, V1, I10) clockwise,
     * dropped by AddTriangle. One piece. */
    const float tri[3][3] = {{V0[0], V0[1], V0[2]}, {V1[0], V1[1], V1[2]}, {V2[0], V2[1], V2[2]}};
    run_w1(&h, tri, 3, 3, 0, 0, &a, &g);
    CHECK_EQ_U(a.stats.clipped, 1);
    CHECK_EQ_U(a.stats.discarded, 2);
    CHECK_EQ_U(g.n, 1);
    CHECK_EQ_I(g.p[0].v[0].x16, v2x);
    CHECK_EQ_I(g.p[0].v[0].y16, (2048 + 8) * 16);
    CHECK_EQ_I(g.p[0].v[1].x16, i01x);
    CHECK_EQ_I(g.p[0].v[1].y16, 2048 * 16);
    CHECK_EQ_I(g.p[0].v[2].x16, v1x);
    /* Culling on, cull face 1 (CullType::CCW): only the forward pass, the
     * same piece. Cull face 0 (CW): only V2 V1 V0, which draws nothing. */
    run_w1(&h, tri, 3, 3, 1, 1, &a, &g);
    CHECK_EQ_U(g.n, 1);
    CHECK_EQ_I(g.p[0].v[1].x16, i01x);
    run_w1(&h, tri, 3, 3, 1, 0, &a, &g);
    CHECK_EQ_U(g.n, 0);

    /* 2. The same triangle as V0 V2 V1 (clockwise), culling off. Forward:
     * p = V1, n = V2, pieces (V1, I10, I20) and (V1, I20, V2) both hold
     * I20, out of range. Reversed V1 V2 V0: p = V1, n = V2, pieces (V1,
     * I20, I10) and (V1, V2, I20), out of range too. Nothing is drawn. */
    const float cw[3][3] = {{V0[0], V0[1], V0[2]}, {V2[0], V2[1], V2[2]}, {V1[0], V1[1], V1[2]}};
    run_w1(&h, cw, 3, 3, 0, 0, &a, &g);
    CHECK_EQ_U(a.stats.clipped, 1);
    CHECK_EQ_U(g.n, 0);
    CHECK_EQ_U(a.stats.discarded, 4);

    /* 3. STRIP A V0 V1 V2 with A = (3000, 0) out of range, culling off:
     * triangle A V0 V1 is discarded whole (a vertex in front out of range),
     * triangle V0 V1 V2 (odd) comes from PPSSPP's ring with vertex k in slot
     * k % 3 (TransformUnit.cpp SubmitPrimitive): slots V2, V0, V1, reversed
     * (odd triangles reach the clipper in the opposite order, probe exp45).
     * That pass: p = V1 (after V0), n = V2, pieces (V1, I20, I10) and (V1,
     * V2, I20), both out of range; the second pass V1 V0 V2, not reversed:
     * p = V1, n = V2 again, the same vertices. Nothing is drawn, where the
     * primitive order V0 V1 V2 (case 1) draws a piece. */
    const float strip[4][3] = {{3000, 0, 0}, {V0[0], V0[1], V0[2]}, {V1[0], V1[1], V1[2]}, {V2[0], V2[1], V2[2]}};
    run_w1(&h, strip, 4, 4, 0, 0, &a, &g);
    CHECK_EQ_U(a.stats.clipped, 1);
    CHECK_EQ_U(g.n, 0);
    gh_free(&h);
}
