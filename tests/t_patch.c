/* Bezier and spline patches (pipeline/patch.c). Expected values come from
 * GE-HARDWARE.md §4, docs/notes/vertex-pipeline.md §9, hand computation, or
 * an independent exact reference written here in host doubles: the block
 * floating-point lerp (frexp/ldexp; every intermediate is an integer below
 * 2^25 times a power of two, so double arithmetic is exact), de Casteljau
 * with it (columns first, then the row), and de Boor over knot vectors
 * written out by hand. Control points are chosen so that every input is
 * exactly representable in the GE format. */
#include <math.h>
#include <string.h>

#include "assemble.h"
#include "gehelp.h"
#include "patch.h"
#include "test.h"
#include "vdecode.h"
#include "workers.h"

#define VBUF 0x08200000u
#define IBUF 0x08300000u

#define VT_TCF 3u
#define VT_COL8888 (7u << 2)
#define VT_NRMF (3u << 5)
#define VT_POSF (3u << 7)
#define VT_WF (3u << 9)
#define VT_IDX8 (1u << 11)
#define VT_IDX16 (2u << 11)

#define BEZIER(nu, nv) ((uint32_t)GE_BEZIER << 24 | (nu) | (nv) << 8)
#define SPLINE(nu, nv, tu, tv) ((uint32_t)GE_SPLINE << 24 | (nu) | (nv) << 8 | (tu) << 16 | (tv) << 18)

static gefloat f(double x) { return gemath_from_float((float)x); }
static double g(gefloat x) { return (double)gemath_to_float(x); }
/* x cut to the GE format (what the decoder makes of a float in memory). */
static double ge(double x) { return g(f(x)); }

/* One control point as written to memory. */
struct cpt {
    double pos[3];
    double uv[2];
    uint32_t color; /* 8888, R in the low byte */
    double weight;
};

static void put_f32(struct gehelp *h, uint32_t a, double x)
{
    float v = gemath_to_float(f(x)); /* already in the GE format: nothing cut later */
    uint32_t u;
    memcpy(&u, &v, 4);
    mem_write32(&h->r.mem, a, u);
}

static void set_reg(struct gehelp *h, unsigned cmd, uint32_t data)
{
    h->r.ge.st.reg[cmd] = (uint32_t)cmd << 24 | (data & 0xFFFFFF);
}

/* A context with VTYPE, division and vertex/index addresses set. */
static void setup(struct gehelp *h, uint32_t vtype, unsigned tess_u, unsigned tess_v)
{
    gh_init(h);
    set_reg(h, GE_VTYPE, vtype);
    set_reg(h, GE_PATCH_DIV, tess_u | tess_v << 8);
    /* TEXSCALE 1, TEXOFFSET 0 (the power-on registers hold 0). */
    set_reg(h, GE_TEXSCALE_U, dl_float24(1.0f));
    set_reg(h, GE_TEXSCALE_U + 1, dl_float24(1.0f));
    h->r.ge.st.vaddr = VBUF;
    h->r.ge.st.iaddr = IBUF;
}

static void put_points(struct gehelp *h, const struct cpt *p, unsigned n)
{
    uint32_t vt = ge_reg(&h->r.ge.st, GE_VTYPE);
    struct gt_vlayout l;
    vdec_layout(vt, &l);
    for (unsigned i = 0; i < n; i++) {
        uint32_t b = VBUF + i * l.stride;
        if ((vt >> 9) & 3) put_f32(h, b, p[i].weight);
        if ((vt & 3) == 3)
            for (int k = 0; k < 2; k++) put_f32(h, b + l.off_tc + 4 * (uint32_t)k, p[i].uv[k]);
        if (((vt >> 2) & 7) == 7) mem_write32(&h->r.mem, b + l.off_col, p[i].color);
        for (int k = 0; k < 3; k++) put_f32(h, b + l.off_pos + 4 * (uint32_t)k, p[i].pos[k]);
    }
}

static void tess(struct gehelp *h, uint32_t word, struct gt_patch_out *o)
{
    struct gt_diag d = {0};
    int rc = patch_tessellate(&h->r.ge.st, &h->r.mem, word, NULL, o, &d);
    CHECK_MSG(rc == GT_OK, "patch_tessellate: %d %s", rc, d.msg);
}

/* ---- The independent reference ---- */

/* GE-HARDWARE.md §4: work at the larger operand's exponent in 16-bit
 * integer units (truncating toward zero), A + floor((B - A) k / 256);
 * k = 0 and 256 pass the operand through. Inputs must be GE values. */
static double ref_lerp(double a, double b, unsigned k)
{
    if (k == 0) return a;
    if (k >= 256) return b;
    if (a == 0 && b == 0) return 0;
    int ea = -10000, eb = -10000;
    if (a != 0) frexp(a, &ea);
    if (b != 0) frexp(b, &eb);
    int e = ea > eb ? ea : eb;             /* values in [2^(e-1), 2^e) */
    double ulp = ldexp(1.0, e - 16);       /* 16-bit significand */
    double A = trunc(a / ulp), B = trunc(b / ulp);
    return (A + floor((B - A) * k / 256.0)) * ulp;
}

/* The patch parameter of grid line i of n as k/256, rounded toward the
 * middle (measured, ge-curves.md "The parameter"). */
static unsigned kmid(unsigned i, unsigned n)
{
    return 2 * i <= n ? 256 * i / n : 256 - 256 * (n - i) / n;
}

/* The color of a Bezier patch at (ku, kv), channel values ch[v][u]
 * (0..255): the integer lerps a + floor((b - a) k / 256) over (c << 7) |
 * 0x7F, columns first, the result >> 7 (measured, ge-curves.md). */
static unsigned ref_col_patch(double ch[4][4], unsigned ku, unsigned kv)
{
#define IL(a, b, k) ((a) + (int)floor((double)((b) - (a)) * (k) / 256.0))
    int r[4];
    for (int u = 0; u < 4; u++) {
        int c[4];
        for (int v = 0; v < 4; v++) c[v] = (int)ch[v][u] << 7 | 0x7F;
        int a0 = IL(c[0], c[1], kv), a1 = IL(c[1], c[2], kv), a2 = IL(c[2], c[3], kv);
        r[u] = IL(IL(a0, a1, kv), IL(a1, a2, kv), kv);
    }
    int a0 = IL(r[0], r[1], ku), a1 = IL(r[1], r[2], ku), a2 = IL(r[2], r[3], ku);
    return (unsigned)(IL(IL(a0, a1, ku), IL(a1, a2, ku), ku) >> 7);
#undef IL
}

/* Three lerp levels with factors f[6] (level 1: 0-1, 1-2, 2-3; level 2; level 3). */
static double ref_eval(const double p[4], const unsigned fk[6])
{
    double a0 = ref_lerp(p[0], p[1], fk[0]), a1 = ref_lerp(p[1], p[2], fk[1]), a2 = ref_lerp(p[2], p[3], fk[2]);
    double b0 = ref_lerp(a0, a1, fk[3]), b1 = ref_lerp(a1, a2, fk[4]);
    return ref_lerp(b0, b1, fk[5]);
}

static double ref_dc(const double p[4], unsigned k)
{
    const unsigned fk[6] = {k, k, k, k, k, k};
    return ref_eval(p, fk);
}

/* A Bezier patch component z[v][u] at (ku, kv): down each column first,
 * then along the row (GE-HARDWARE.md §4), or the other way (row_first). */
static double ref_patch(double z[4][4], unsigned ku, unsigned kv, int row_first)
{
    double r[4], c[4];
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 4; j++) c[j] = row_first ? z[i][j] : z[j][i];
        r[i] = ref_dc(c, row_first ? ku : kv);
    }
    return ref_dc(r, row_first ? kv : ku);
}

/* The same in IEEE single precision with the usual a + (b - a) t. */
static float ieee_dc(const float p[4], float t)
{
    float a0 = p[0] + (p[1] - p[0]) * t, a1 = p[1] + (p[2] - p[1]) * t, a2 = p[2] + (p[3] - p[2]) * t;
    float b0 = a0 + (a1 - a0) * t, b1 = a1 + (a2 - a1) * t;
    return b0 + (b1 - b0) * t;
}

/* Control point grid: x = u, y = v, z from zz (NULL: 0). */
static void grid(struct cpt *p, unsigned nu, unsigned nv, double zz[4][4])
{
    for (unsigned v = 0; v < nv; v++)
        for (unsigned u = 0; u < nu; u++) {
            struct cpt *c = &p[v * nu + u];
            memset(c, 0, sizeof *c);
            c->pos[0] = u, c->pos[1] = v, c->pos[2] = zz ? ge(zz[v][u]) : 0;
        }
}

/* ---- Bezier ---- */

TEST(patch_bezier_flat_div1)
{
    struct gehelp h;
    struct gt_patch_out o;
    struct cpt p[16];
    setup(&h, VT_POSF | VT_NRMF, 1, 1);
    grid(p, 4, 4, NULL);
    put_points(&h, p, 16);
    tess(&h, BEZIER(4, 4), &o);
    CHECK_EQ_U(o.nv, 4);
    CHECK_EQ_U(o.nidx, 6);
    CHECK_EQ_U(o.prim_type, 3);
    /* Vertex (u, v) of the patch grid is v * 2 + u; corners pass through. */
    const double cx[4] = {0, 3, 0, 3}, cy[4] = {0, 0, 3, 3};
    for (int i = 0; i < 4; i++) {
        CHECK_EQ_U(o.v[i].pos[0], f(cx[i]));
        CHECK_EQ_U(o.v[i].pos[1], f(cy[i]));
        CHECK_EQ_U(o.v[i].pos[2], 0);
        /* dP/du x dP/dv = (1,0,0) x (0,1,0) = (0,0,1), exact through the rsqrt table. */
        CHECK_EQ_U(o.v[i].nrm[0], 0);
        CHECK_EQ_U(o.v[i].nrm[1], 0);
        CHECK_EQ_U(o.v[i].nrm[2], GEMATH_ONE);
        for (int k = 0; k < 8; k++) CHECK_EQ_U(o.v[i].weight[k], 0);
    }
    const uint32_t want[6] = {0, 2, 1, 1, 2, 3}; /* (TL, BL, TR), (TR, BL, BR) */
    for (int i = 0; i < 6; i++) CHECK_EQ_U(o.idx[i], want[i]);
    patch_free(&o);
    CHECK(o.v == NULL && o.idx == NULL && o.nv == 0);
    gh_free(&h);
}

/* One interior point worked out by hand. Every row of control points has z
 * = (1.5, 0.001, 0, 0) along u, so the column lerps return their (equal)
 * inputs and the point at u = v = 1/2 (division 2, k = 128) is the row
 * curve. 0.001 is 33554 * 2^-25 in the GE format.
 *   a0 = lerp(1.5, 0.001): units 2^-15: 49152, 32 -> 49152 - 24560 = 24592
 *   a1 = lerp(0.001, 0):   units 2^-25: 33554, 0 -> 33554 - 16777 = 16777
 *   a2 = 0
 *   b0 = lerp(a0, a1):     units 2^-16: 49184, 32 -> 49184 - 24576 = 24608
 *   b1 = lerp(a1, 0):      units 2^-25: 16777 - 8389 = 8388
 *   c  = lerp(b0, b1):     units 2^-17: 49216, 32 -> 49216 - 24592 = 24624
 * so z = 24624 * 2^-17 = 0.1878662109375. The exact Bezier value
 * (1.5 + 3 * 0.001) / 8 = 0.187875 is 24625.15 units: IEEE evaluation (and
 * PPSSPP's weighted sum) lands one unit higher. */
TEST(patch_bezier_interior_by_hand)
{
    struct gehelp h;
    struct gt_patch_out o;
    struct cpt p[16];
    double zz[4][4];
    for (int v = 0; v < 4; v++) zz[v][0] = 1.5, zz[v][1] = 0.001, zz[v][2] = 0, zz[v][3] = 0;
    setup(&h, VT_POSF, 2, 2);
    grid(p, 4, 4, zz);
    put_points(&h, p, 16);
    tess(&h, BEZIER(4, 4), &o);
    CHECK_EQ_U(o.nv, 9);
    const struct gt_vin *c = &o.v[1 * 3 + 1];
    CHECK_EQ_U(c->pos[0], f(1.5));
    CHECK_EQ_U(c->pos[1], f(1.5));
    CHECK_EQ_U(c->pos[2], f(24624.0 / 131072));
    CHECK(c->pos[2] != f(0.187875));
    float row[4] = {1.5f, (float)ge(0.001), 0, 0};
    CHECK(f(ieee_dc(row, 0.5f)) == f(24625.0 / 131072));
    CHECK_EQ_U(c->pos[2], f(ref_patch(zz, 128, 128, 0)));
    patch_free(&o);
    gh_free(&h);
}

/* Division 4: 25 vertices, 16 cells. Every position matches the reference;
 * corners pass through exactly; IEEE de Casteljau differs somewhere. */
static double zmix[4][4] = {
    {1.5, 0.001, -0.75, 0.3},
    {-2.25, 0.0123, 7.5, -0.002},
    {0.6, -3.1, 0.00037, 1.1},
    {5.5, 0.25, -0.0078, 2.2},
};

TEST(patch_bezier_div4_matches_reference)
{
    struct gehelp h;
    struct gt_patch_out o;
    struct cpt p[16];
    double zz[4][4];
    for (int v = 0; v < 4; v++)
        for (int u = 0; u < 4; u++) zz[v][u] = ge(zmix[v][u]);
    setup(&h, VT_POSF, 4, 4);
    grid(p, 4, 4, zz);
    put_points(&h, p, 16);
    tess(&h, BEZIER(4, 4), &o);
    CHECK_EQ_U(o.nv, 25);
    CHECK_EQ_U(o.nidx, 96);
    int ieee_differs = 0;
    for (unsigned iv = 0; iv <= 4; iv++)
        for (unsigned iu = 0; iu <= 4; iu++) {
            const struct gt_vin *v = &o.v[iv * 5 + iu];
            unsigned ku = 64 * iu, kv = 64 * iv; /* floor(256 i / 4) */
            CHECK_EQ_U(v->pos[0], f(iu * 0.75));
            CHECK_EQ_U(v->pos[1], f(iv * 0.75));
            double want = ref_patch(zz, ku, kv, 0);
            CHECK_MSG(v->pos[2] == f(want), "vertex (%u, %u): %.9g, want %.9g", iu, iv, g(v->pos[2]), want);
            float col[4];
            for (int u = 0; u < 4; u++) {
                float cz[4] = {(float)zz[0][u], (float)zz[1][u], (float)zz[2][u], (float)zz[3][u]};
                col[u] = ieee_dc(cz, (float)kv / 256);
            }
            if (f(ieee_dc(col, (float)ku / 256)) != v->pos[2]) ieee_differs++;
        }
    for (int c = 0; c < 4; c++) {
        unsigned u = (c & 1) ? 3 : 0, vv = (c & 2) ? 3 : 0;
        CHECK_EQ_U(o.v[(vv ? 4 : 0) * 5 + (u ? 4 : 0)].pos[2], f(zz[vv][u]));
    }
    CHECK_MSG(ieee_differs > 0, "IEEE evaluation should differ somewhere");
    patch_free(&o);
    gh_free(&h);
}

/* GE-HARDWARE.md §4: down each column first, then along the row. With these
 * points evaluating the rows first gives different bits at some vertices;
 * the module must agree with columns-first everywhere. */
TEST(patch_bezier_columns_then_row)
{
    struct gehelp h;
    struct gt_patch_out o;
    struct cpt p[16];
    double zz[4][4];
    for (int v = 0; v < 4; v++)
        for (int u = 0; u < 4; u++) zz[v][u] = ge(zmix[v][u] * (v == 1 ? 1000 : 1) * (u == 2 ? 0.001 : 1));
    setup(&h, VT_POSF, 3, 3);
    grid(p, 4, 4, zz);
    put_points(&h, p, 16);
    tess(&h, BEZIER(4, 4), &o);
    CHECK_EQ_U(o.nv, 16);
    int differ = 0;
    for (unsigned iv = 0; iv <= 3; iv++)
        for (unsigned iu = 0; iu <= 3; iu++) {
            unsigned ku = kmid(iu, 3), kv = kmid(iv, 3); /* 0, 85, 171, 256 */
            double cf = ref_patch(zz, ku, kv, 0), rf = ref_patch(zz, ku, kv, 1);
            if (cf != rf) {
                differ++;
                CHECK(o.v[iv * 4 + iu].pos[2] != f(rf));
            }
            CHECK_EQ_U(o.v[iv * 4 + iu].pos[2], f(cf));
        }
    CHECK_MSG(differ > 0, "the test points must separate the two orders");
    patch_free(&o);
    gh_free(&h);
}

/* Normals at corners and edges come from the edge control points alone
 * (k = 0 and 256 pass through, GE-HARDWARE.md §4), not normalised
 * (ge-curves.md "Normals": lighting normalises); PATCH_FACING negates. */
TEST(patch_normals_edges)
{
    struct gehelp h;
    struct gt_patch_out o, o2;
    struct cpt p[16];
    double zz[4][4] = {{0, 1, 0, 0}, {0, 0.5, 0.25, 0}, {0, 2, -1, 0}, {0, 0, 0, 0}};
    setup(&h, VT_POSF | VT_NRMF, 2, 2);
    grid(p, 4, 4, zz);
    put_points(&h, p, 16);
    tess(&h, BEZIER(4, 4), &o);
    /* Corner (0,0): tu = P(1,0) - P(0,0) = (1,0,1), tv = P(0,1) - P(0,0) =
     * (0,1,0); tu x tv = (-1, 0, 1). */
    gefloat r2 = GEMATH_ONE;
    CHECK_EQ_U(o.v[0].nrm[0], gemath_neg(r2));
    CHECK_EQ_U(o.v[0].nrm[1], 0);
    CHECK_EQ_U(o.v[0].nrm[2], r2);
    /* Corner (1,0) (vertex 2): tu = P(3,0) - P(2,0) = (1,0,0), tv = (0,1,0): (0,0,1). */
    CHECK_EQ_U(o.v[2].nrm[0], 0);
    CHECK_EQ_U(o.v[2].nrm[1], 0);
    CHECK_EQ_U(o.v[2].nrm[2], GEMATH_ONE);
    /* Moving interior control points changes interior normals but no corner's. */
    struct gt_vin before[9];
    memcpy(before, o.v, sizeof before);
    p[1 * 4 + 1].pos[2] = 3;
    p[2 * 4 + 2].pos[2] = -2;
    put_points(&h, p, 16);
    tess(&h, BEZIER(4, 4), &o2);
    const int corners[4] = {0, 2, 6, 8};
    for (int i = 0; i < 4; i++) CHECK(memcmp(o2.v[corners[i]].nrm, before[corners[i]].nrm, 12) == 0);
    CHECK(memcmp(o2.v[4].nrm, before[4].nrm, 12) != 0);
    /* PATCH_FACING: every normal negated, nothing else changes. */
    struct gt_patch_out o3;
    set_reg(&h, GE_PATCH_FACING, 1);
    tess(&h, BEZIER(4, 4), &o3);
    CHECK_EQ_U(o3.nv, o2.nv);
    for (uint32_t i = 0; i < o3.nv; i++) {
        CHECK(memcmp(o3.v[i].pos, o2.v[i].pos, sizeof o3.v[i].pos) == 0);
        for (int k = 0; k < 3; k++) CHECK_EQ_U(o3.v[i].nrm[k], gemath_neg(o2.v[i].nrm[k]));
    }
    CHECK(memcmp(o3.idx, o2.idx, o3.nidx * sizeof *o3.idx) == 0);
    CHECK_EQ_U(o3.v[0].nrm[0], r2);
    CHECK_EQ_U(o3.v[0].nrm[2], gemath_neg(r2));
    patch_free(&o3);
    patch_free(&o2);
    patch_free(&o);
    gh_free(&h);
}

/* A degenerate edge (two equal edge points) gives a zero normal; without
 * normals in VTYPE and with lighting off the normal is (0, 0, 1); with
 * lighting on it is generated. A plane z = x gives its direction (-1, 0,
 * 1) everywhere, unnormalised. */
static void check_diag_normal(const gefloat n[3])
{
    CHECK_EQ_U(n[1], 0);
    CHECK_EQ_U(n[0], gemath_neg(n[2]));
    CHECK(g(n[2]) > 0);
}

TEST(patch_normals_when_generated)
{
    struct gehelp h;
    struct gt_patch_out o;
    struct cpt p[16];
    setup(&h, VT_POSF | VT_NRMF, 3, 2);
    grid(p, 4, 4, NULL);
    for (int i = 0; i < 16; i++) p[i].pos[2] = p[i].pos[0];
    put_points(&h, p, 16);
    tess(&h, BEZIER(4, 4), &o);
    for (uint32_t i = 0; i < o.nv; i++) check_diag_normal(o.v[i].nrm);
    patch_free(&o);
    /* P(1,0) = P(0,0): the u tangent at corner (0,0) is zero. */
    p[1] = p[0];
    put_points(&h, p, 16);
    tess(&h, BEZIER(4, 4), &o);
    CHECK(o.v[0].nrm[0] == 0 && o.v[0].nrm[1] == 0 && o.v[0].nrm[2] == 0);
    patch_free(&o);
    /* No normals in VTYPE, lighting off: (0, 0, 1). */
    set_reg(&h, GE_VTYPE, VT_POSF);
    grid(p, 4, 4, NULL);
    for (int i = 0; i < 16; i++) p[i].pos[2] = p[i].pos[0];
    put_points(&h, p, 16);
    tess(&h, BEZIER(4, 4), &o);
    CHECK(o.v[5].nrm[0] == 0 && o.v[5].nrm[1] == 0 && o.v[5].nrm[2] == GEMATH_ONE);
    patch_free(&o);
    set_reg(&h, GE_LIGHTING_ON, 1);
    tess(&h, BEZIER(4, 4), &o);
    check_diag_normal(o.v[5].nrm);
    patch_free(&o);
    gh_free(&h);
}

/* Two Bezier patches sharing an edge with a crease: positions on the shared
 * edge agree bit for bit (pass-through), normals follow each patch's own
 * edge control points. */
TEST(patch_bezier_shared_edge)
{
    struct gehelp h;
    struct gt_patch_out o;
    struct cpt p[28];
    setup(&h, VT_POSF | VT_NRMF, 2, 2);
    for (unsigned v = 0; v < 4; v++)
        for (unsigned u = 0; u < 7; u++) {
            struct cpt *c = &p[v * 7 + u];
            memset(c, 0, sizeof *c);
            c->pos[0] = u, c->pos[1] = v;
            c->pos[2] = u <= 3 ? 0 : (double)(u - 3); /* flat, then rising at 45 degrees */
        }
    put_points(&h, p, 28);
    tess(&h, BEZIER(7, 4), &o);
    CHECK_EQ_U(o.nv, 18);
    CHECK_EQ_U(o.nidx, 48);
    gefloat r2 = GEMATH_ONE; /* unnormalised: tu = (1, 0, 1), tv = (0, 1, 0) */
    for (unsigned iv = 0; iv <= 2; iv++) {
        const struct gt_vin *a = &o.v[0 * 9 + iv * 3 + 2], *b = &o.v[1 * 9 + iv * 3 + 0];
        CHECK(memcmp(a->pos, b->pos, 12) == 0);
        CHECK_EQ_U(a->pos[0], f(3));
        /* Left patch: tu = P3 - P2 = (1,0,0): normal (0,0,1). */
        CHECK(a->nrm[0] == 0 && a->nrm[1] == 0 && a->nrm[2] == GEMATH_ONE);
        /* Right patch: tu = P4 - P3 = (1,0,1): normal (-1,0,1)/sqrt 2. */
        CHECK(b->nrm[0] == gemath_neg(r2) && b->nrm[1] == 0 && b->nrm[2] == r2);
    }
    /* Patch 1 (u outer) after patch 0; its vertices start at 9. */
    CHECK_EQ_U(o.idx[24], 9);
    CHECK_EQ_U(o.idx[25], 12);
    CHECK_EQ_U(o.idx[26], 10);
    patch_free(&o);
    gh_free(&h);
}

/* 7x7 points: 2x2 patches, emitted with patch u outer, patch v inner; each
 * patch's vertices at (pv * 2 + pu) * per_patch. 5x4 points: one patch, the
 * fifth column unused but still part of the row stride. */
TEST(patch_bezier_multi_patch_order)
{
    struct gehelp h;
    struct gt_patch_out o;
    struct cpt p[49];
    setup(&h, VT_POSF, 1, 1);
    for (unsigned v = 0; v < 7; v++)
        for (unsigned u = 0; u < 7; u++) {
            memset(&p[v * 7 + u], 0, sizeof p[0]);
            p[v * 7 + u].pos[0] = u, p[v * 7 + u].pos[1] = v;
        }
    put_points(&h, p, 49);
    tess(&h, BEZIER(7, 7), &o);
    CHECK_EQ_U(o.nv, 16);
    CHECK_EQ_U(o.nidx, 24);
    const uint32_t first[4] = {0, 8, 4, 12}; /* (pu,pv) = (0,0), (0,1), (1,0), (1,1) */
    for (int c = 0; c < 4; c++) CHECK_EQ_U(o.idx[6 * c], first[c]);
    /* Patch (1, 1)'s first vertex is control point (3, 3). */
    CHECK(o.v[12].pos[0] == f(3) && o.v[12].pos[1] == f(3));
    CHECK(o.v[15].pos[0] == f(6) && o.v[15].pos[1] == f(6));
    CHECK(o.v[8].pos[0] == f(0) && o.v[8].pos[1] == f(3)); /* patch (0, 1) */
    patch_free(&o);

    /* 5 x 4: row stride 5, corners (0,0), (3,0), (0,3), (3,3). */
    for (unsigned v = 0; v < 4; v++)
        for (unsigned u = 0; u < 5; u++) {
            memset(&p[v * 5 + u], 0, sizeof p[0]);
            p[v * 5 + u].pos[0] = u, p[v * 5 + u].pos[1] = v;
        }
    put_points(&h, p, 20);
    tess(&h, BEZIER(5, 4), &o);
    CHECK_EQ_U(o.nv, 4);
    CHECK(o.v[3].pos[0] == f(3) && o.v[3].pos[1] == f(3));
    patch_free(&o);
    gh_free(&h);
}

/* Colors (8888) and texture coordinates go through the same lerps; colors as
 * the integers 0..255, truncated at the end. */
TEST(patch_colors_and_uvs)
{
    struct gehelp h;
    struct gt_patch_out o;
    struct cpt p[16];
    setup(&h, VT_POSF | VT_TCF | VT_COL8888, 4, 4);
    grid(p, 4, 4, NULL);
    double ch[4][4][4], uv[2][4][4];
    for (unsigned v = 0; v < 4; v++)
        for (unsigned u = 0; u < 4; u++) {
            unsigned c[4] = {(u * 85 + v * 17) & 255, u == v ? 255 : 3 * u + 7 * v, (u * v * 29) & 255, 255 - 60 * v};
            p[v * 4 + u].color = c[0] | c[1] << 8 | c[2] << 16 | c[3] << 24;
            for (int k = 0; k < 4; k++) ch[k][v][u] = c[k];
            p[v * 4 + u].uv[0] = uv[0][v][u] = ge(0.1 * u + 0.37 * v * v);
            p[v * 4 + u].uv[1] = uv[1][v][u] = ge(1.0 / (1 + u + v));
        }
    put_points(&h, p, 16);
    tess(&h, BEZIER(4, 4), &o);
    int fractional = 0;
    for (unsigned iv = 0; iv <= 4; iv++)
        for (unsigned iu = 0; iu <= 4; iu++) {
            const struct gt_vin *v = &o.v[iv * 5 + iu];
            for (int k = 0; k < 4; k++) {
                /* The measured integer lerps against the exact value:
                 * the (c << 7) | 0x7F form decides where they differ. */
                unsigned want = ref_col_patch(ch[k], 64 * iu, 64 * iv);
                double exact = ref_patch(ch[k], 64 * iu, 64 * iv, 0);
                if (exact != floor(exact)) fractional++;
                CHECK_MSG(v->color[k] == want, "(%u,%u) ch %d: %u want %u", iu, iv, k, v->color[k], want);
            }
            for (int k = 0; k < 2; k++) CHECK_EQ_U(v->uv[k], f(ref_patch(uv[k], 64 * iu, 64 * iv, 0)));
        }
    CHECK(fractional > 0); /* the truncation was exercised */
    CHECK_EQ_U(o.v[0].color[0], 0);
    CHECK_EQ_U(o.v[0].color[1], 255);
    patch_free(&o);

    /* TEXSCALE/TEXOFFSET are applied after evaluation, once. */
    set_reg(&h, GE_TEXSCALE_U, dl_float24(2.0f));
    set_reg(&h, GE_TEXSCALE_U + 1, dl_float24(1.0f));
    set_reg(&h, GE_TEXSCALE_U + 2, dl_float24(0.5f));
    set_reg(&h, GE_TEXSCALE_U + 3, 0);
    tess(&h, BEZIER(4, 4), &o);
    CHECK_EQ_U(o.v[0].uv[0], f(2 * uv[0][0][0] + 0.5));
    CHECK_EQ_U(o.v[24].uv[0], f(2 * uv[0][3][3] + 0.5));
    CHECK_EQ_U(o.v[24].uv[1], f(uv[1][3][3]));
    patch_free(&o);
    gh_free(&h);
}

/* Without color every vertex gets the material ambient color and alpha;
 * without texture coordinates they are generated as patch + k/256 (then
 * scaled and offset). */
TEST(patch_generated_color_and_uvs)
{
    struct gehelp h;
    struct gt_patch_out o;
    struct cpt p[28];
    setup(&h, VT_POSF, 4, 2);
    set_reg(&h, 0x55, 0x302010);
    set_reg(&h, 0x58, 0x40);
    for (unsigned v = 0; v < 4; v++)
        for (unsigned u = 0; u < 7; u++) {
            memset(&p[v * 7 + u], 0, sizeof p[0]);
            p[v * 7 + u].pos[0] = u, p[v * 7 + u].pos[1] = v;
        }
    put_points(&h, p, 28);
    tess(&h, BEZIER(7, 4), &o);
    CHECK_EQ_U(o.nv, 30);
    for (uint32_t i = 0; i < o.nv; i++)
        CHECK(o.v[i].color[0] == 0x10 && o.v[i].color[1] == 0x20 && o.v[i].color[2] == 0x30 && o.v[i].color[3] == 0x40);
    /* Patch 1, tile (u 1, v 1): u = 1 + 64/256, v = 0 + 128/256. */
    const struct gt_vin *v = &o.v[15 + 1 * 5 + 1];
    CHECK_EQ_U(v->uv[0], f(1.25));
    CHECK_EQ_U(v->uv[1], f(0.5));
    CHECK_EQ_U(o.v[15 + 14].uv[0], f(2)); /* last vertex of patch 1: (2, 1) */
    CHECK_EQ_U(o.v[15 + 14].uv[1], f(1));
    patch_free(&o);
    set_reg(&h, GE_TEXSCALE_U, dl_float24(2.0f));
    set_reg(&h, GE_TEXSCALE_U + 1, dl_float24(4.0f));
    set_reg(&h, GE_TEXSCALE_U + 2, dl_float24(0.5f));
    set_reg(&h, GE_TEXSCALE_U + 3, dl_float24(-1.0f));
    tess(&h, BEZIER(7, 4), &o);
    v = &o.v[15 + 1 * 5 + 1];
    CHECK_EQ_U(v->uv[0], f(3.0));
    CHECK_EQ_U(v->uv[1], f(1.0));
    patch_free(&o);
    gh_free(&h);
}

/* Indexed control points (u8 and u16): the same surface as the points in
 * element order. */
TEST(patch_indexed_control_points)
{
    struct gehelp h;
    struct gt_patch_out a, b;
    struct cpt p[16], q[16];
    double zz[4][4];
    for (int v = 0; v < 4; v++)
        for (int u = 0; u < 4; u++) zz[v][u] = ge(zmix[v][u]);
    setup(&h, VT_POSF, 3, 2);
    grid(p, 4, 4, zz);
    put_points(&h, p, 16);
    tess(&h, BEZIER(4, 4), &a);
    /* Store the points in reverse, index them back into order. */
    for (int i = 0; i < 16; i++) q[15 - i] = p[i];
    put_points(&h, q, 16);
    for (uint32_t i = 0; i < 16; i++) mem_write16(&h.r.mem, IBUF + 2 * i, (uint16_t)(15 - i));
    set_reg(&h, GE_VTYPE, VT_POSF | VT_IDX16);
    tess(&h, BEZIER(4, 4), &b);
    CHECK_EQ_U(a.nv, b.nv);
    CHECK(memcmp(a.v, b.v, a.nv * sizeof *a.v) == 0);
    CHECK(memcmp(a.idx, b.idx, a.nidx * sizeof *a.idx) == 0);
    patch_free(&b);
    for (uint32_t i = 0; i < 16; i++) mem_write8(&h.r.mem, IBUF + i, (uint8_t)(15 - i));
    set_reg(&h, GE_VTYPE, VT_POSF | VT_IDX8);
    tess(&h, BEZIER(4, 4), &b);
    CHECK(memcmp(a.v, b.v, a.nv * sizeof *a.v) == 0);
    patch_free(&b);
    patch_free(&a);
    gh_free(&h);
}

/* PATCH_PRIMITIVE: 0 triangles, 1 lines, 2 and 3 points; the index patterns. */
TEST(patch_primitive_types)
{
    struct gehelp h;
    struct gt_patch_out o;
    struct cpt p[16];
    setup(&h, VT_POSF, 1, 1);
    grid(p, 4, 4, NULL);
    put_points(&h, p, 16);
    /* TL 0, TR 1, BL 2, BR 3; lines in a zigzag (measured, ge-curves.md
     * "Drawn as lines"): left edge down, diagonal up, right edge down. */
    const uint32_t tri[6] = {0, 2, 1, 1, 2, 3}, lines[6] = {0, 2, 2, 1, 1, 3};
    const unsigned type[4] = {3, 1, 0, 0};
    for (unsigned pp = 0; pp < 4; pp++) {
        set_reg(&h, GE_PATCH_PRIM, pp);
        tess(&h, BEZIER(4, 4), &o);
        CHECK_EQ_U(o.prim_type, type[pp]);
        CHECK_EQ_U(o.nidx, 6);
        for (int i = 0; i < 6; i++) CHECK_EQ_U(o.idx[i], pp == 1 ? lines[i] : tri[i]);
        patch_free(&o);
    }
    gh_free(&h);
}

/* Winding: with u along +x and v along +y on screen, the triangles are drawn
 * with CULL_FACE 0 and culled with CULL_FACE 1 (the assembler's test);
 * PATCH_FACING negates the normals but leaves the winding (model choice,
 * as PPSSPP and the notes). */
static void screen_vertex(const struct gt_vin *v, struct gt_vout *o)
{
    memset(o, 0, sizeof *o);
    o->x16 = gemath_to_fixed(v->pos[0], 4);
    o->y16 = gemath_to_fixed(v->pos[1], 4);
}

TEST(patch_winding_and_facing)
{
    struct gehelp h;
    struct gt_patch_out o;
    struct cpt p[16];
    setup(&h, VT_POSF | VT_NRMF, 2, 2);
    grid(p, 4, 4, NULL);
    for (int i = 0; i < 16; i++) p[i].pos[0] *= 16, p[i].pos[1] *= 16;
    put_points(&h, p, 16);
    for (unsigned facing = 0; facing < 2; facing++) {
        set_reg(&h, GE_PATCH_FACING, facing);
        tess(&h, BEZIER(4, 4), &o);
        CHECK_EQ_U(o.nidx, 24);
        for (uint32_t t = 0; t < o.nidx / 3; t++) {
            struct gt_vout a, b, c;
            screen_vertex(&o.v[o.idx[3 * t]], &a);
            screen_vertex(&o.v[o.idx[3 * t + 1]], &b);
            screen_vertex(&o.v[o.idx[3 * t + 2]], &c);
            int64_t area = (int64_t)(b.x16 - a.x16) * (c.y16 - a.y16) - (int64_t)(b.y16 - a.y16) * (c.x16 - a.x16);
            CHECK(area < 0);
            CHECK(asm_triangle_visible(&a, &b, &c, true, false, false));
            CHECK(!asm_triangle_visible(&a, &b, &c, true, true, false));
        }
        /* The unnormalised normal of the flat grid (spacing 16): (0, 0, 256). */
        for (uint32_t i = 0; i < o.nv; i++) CHECK_EQ_U(o.v[i].nrm[2], facing ? gemath_neg(f(256)) : f(256));
        patch_free(&o);
    }
    gh_free(&h);
}

/* Skinning applies to the control points (as PPSSPP); the output is already
 * skinned and carries no weights. */
TEST(patch_skinned_control_points)
{
    struct gehelp h;
    struct gt_patch_out o;
    struct cpt p[16];
    setup(&h, VT_POSF | VT_WF, 1, 1);
    grid(p, 4, 4, NULL);
    for (int i = 0; i < 16; i++) p[i].weight = 1.0;
    put_points(&h, p, 16);
    uint32_t *b = h.r.ge.st.bone;
    memset(b, 0, 12 * sizeof *b);
    b[0] = b[4] = b[8] = GEMATH_ONE;
    b[9] = f(10), b[10] = f(-2);
    tess(&h, BEZIER(4, 4), &o);
    CHECK(o.v[3].pos[0] == f(13) && o.v[3].pos[1] == f(1) && o.v[3].pos[2] == 0);
    for (int k = 0; k < 8; k++) CHECK_EQ_U(o.v[3].weight[k], 0);
    patch_free(&o);
    gh_free(&h);
}

/* ---- Splines ---- */

/* Reference de Boor over an explicit knot vector kn[0..n+3] for patch pt at
 * parameter k/256: level r lerps neighbours with the factor from the
 * nearer knot (measured, ge-curves.md): dl = k + 256 (pt - kn_i), dr =
 * 256 span - dl, floor(dl / span) when dl <= dr, else 256 - floor(dr /
 * span). */
static double ref_deboor(const double *pts, const int *kn, unsigned pt, unsigned k)
{
    unsigned fk[6], o = 0, j = pt + 3;
    for (unsigned r = 1; r <= 3; r++)
        for (unsigned i = j - 3 + r; i <= j; i++) {
            int span = kn[i + 4 - r] - kn[i], dl = (int)k + 256 * ((int)pt - kn[i]), dr = 256 * span - dl;
            fk[o++] = (unsigned)(span <= 0 ? 0 : dl <= dr ? dl / span : 256 - dr / span);
        }
    return ref_eval(pts + pt, fk);
}

/* Grid line g of a spline of np patches divided d times: the patch and k
 * (a patch's first line is the previous patch's last, evaluated at k = 0;
 * the last line at k = 256). */
static void spline_line(unsigned gl, unsigned d, unsigned np, unsigned *pt, unsigned *k)
{
    *pt = gl / d, *k = kmid(gl % d, d);
    if (*pt == np) *pt = np - 1, *k = 256;
}

/* Vertex counts and index counts for every knot-type combination. */
TEST(patch_spline_counts)
{
    struct gehelp h;
    struct gt_patch_out o;
    struct cpt p[42];
    setup(&h, VT_POSF, 3, 2);
    for (unsigned i = 0; i < 42; i++) {
        memset(&p[i], 0, sizeof p[i]);
        p[i].pos[0] = i % 7, p[i].pos[1] = i / 7;
    }
    put_points(&h, p, 42);
    for (unsigned tu = 0; tu < 4; tu++)
        for (unsigned tv = 0; tv < 4; tv++) {
            tess(&h, SPLINE(7, 6, tu, tv), &o);
            /* (7-3)*3+1 = 13 by (6-3)*2+1 = 7 */
            CHECK_EQ_U(o.nv, 13 * 7);
            CHECK_EQ_U(o.nidx, 12 * 6 * 6);
            /* Cells row by row over the shared grid: cell (1, 0) then... */
            CHECK_EQ_U(o.idx[0], 0);
            CHECK_EQ_U(o.idx[1], 13);
            CHECK_EQ_U(o.idx[2], 1);
            CHECK_EQ_U(o.idx[6], 1);
            CHECK_EQ_U(o.idx[12 * 6], 13); /* second row of cells */
            patch_free(&o);
        }
    gh_free(&h);
}

/* A spline whose rows are identical is its row curve. Every knot-type
 * combination against the reference with hand-written knot vectors; open
 * ends pass through the end points exactly, closed ends do not. */
TEST(patch_spline_knot_types)
{
    static const double xs[6] = {0.5, 2.75, -1.25, 3.3, 0.001, 6.5};
    /* n = 6 control points, 3 patches: knots 0..9. */
    static const int knots[4][10] = {
        {-3, -2, -1, 0, 1, 2, 3, 4, 5, 6}, /* closed, closed */
        {0, 0, 0, 0, 1, 2, 3, 4, 5, 6},    /* open start */
        {-3, -2, -1, 0, 1, 2, 3, 3, 3, 3}, /* open end */
        {0, 0, 0, 0, 1, 2, 3, 3, 3, 3},    /* both open */
    };
    struct gehelp h;
    struct gt_patch_out o;
    struct cpt p[24];
    double pts[6];
    for (int i = 0; i < 6; i++) pts[i] = ge(xs[i]);
    setup(&h, VT_POSF, 5, 1);
    for (unsigned v = 0; v < 4; v++)
        for (unsigned u = 0; u < 6; u++) {
            memset(&p[v * 6 + u], 0, sizeof p[0]);
            p[v * 6 + u].pos[0] = pts[u];
            p[v * 6 + u].pos[1] = 1;
        }
    put_points(&h, p, 24);
    for (unsigned type = 0; type < 4; type++) {
        tess(&h, SPLINE(6, 4, type, 3), &o);
        CHECK_EQ_U(o.nv, 16 * 2);
        for (unsigned gu = 0; gu <= 15; gu++) {
            unsigned pt, k;
            spline_line(gu, 5, 3, &pt, &k);
            double want = ref_deboor(pts, knots[type], pt, k);
            CHECK_MSG(o.v[gu].pos[0] == f(want), "type %u line %u: %.9g want %.9g", type, gu, g(o.v[gu].pos[0]), want);
            CHECK_EQ_U(o.v[gu].pos[1], GEMATH_ONE);
        }
        CHECK_EQ_I(o.v[0].pos[0] == f(pts[0]), (type & 1) != 0);
        CHECK_EQ_I(o.v[15].pos[0] == f(pts[5]), (type & 2) != 0);
        patch_free(&o);
    }
    /* Closed start: the first point is about (p0 + 4 p1 + p2) / 6 (uniform
     * B-spline), to the 8-bit factors' precision (1/3 as 85/256, 2/3 as
     * 171/256: a few thousandths here). */
    tess(&h, SPLINE(6, 4, 0, 3), &o);
    double ideal = (pts[0] + 4 * pts[1] + pts[2]) / 6;
    CHECK(fabs(g(o.v[0].pos[0]) - ideal) < 1e-2);
    patch_free(&o);
    /* The same curve along v (identical columns, u open/open): the v knot type applies. */
    set_reg(&h, GE_PATCH_DIV, 1 | 5 << 8);
    for (unsigned v = 0; v < 6; v++)
        for (unsigned u = 0; u < 4; u++) {
            memset(&p[v * 4 + u], 0, sizeof p[0]);
            p[v * 4 + u].pos[1] = pts[v];
            p[v * 4 + u].pos[0] = 1;
        }
    put_points(&h, p, 24);
    for (unsigned type = 0; type < 4; type++) {
        tess(&h, SPLINE(4, 6, 3, type), &o);
        CHECK_EQ_U(o.nv, 2 * 16);
        for (unsigned gv = 0; gv <= 15; gv++) {
            unsigned pt, k;
            spline_line(gv, 5, 3, &pt, &k);
            CHECK_EQ_U(o.v[gv * 2].pos[1], f(ref_deboor(pts, knots[type], pt, k)));
            CHECK_EQ_U(o.v[gv * 2 + 1].pos[0], GEMATH_ONE);
        }
        patch_free(&o);
    }
    gh_free(&h);
}

/* Open ends in v too: the surface corners are the corner control points;
 * and the 4x4 open/open spline is exactly the Bezier patch (PPSSPP's weights
 * differ here: a known PPSSPP bug, not reproduced). */
TEST(patch_spline_open_is_bezier)
{
    struct gehelp h;
    struct gt_patch_out a, b;
    struct cpt p[16];
    double zz[4][4];
    for (int v = 0; v < 4; v++)
        for (int u = 0; u < 4; u++) zz[v][u] = ge(zmix[v][u]);
    setup(&h, VT_POSF | VT_NRMF, 4, 3);
    grid(p, 4, 4, zz);
    put_points(&h, p, 16);
    tess(&h, BEZIER(4, 4), &a);
    tess(&h, SPLINE(4, 4, 3, 3), &b);
    CHECK_EQ_U(a.nv, b.nv);
    CHECK(memcmp(a.v, b.v, a.nv * sizeof *a.v) == 0);
    CHECK(memcmp(a.idx, b.idx, a.nidx * sizeof *a.idx) == 0);
    CHECK_EQ_U(b.v[0].pos[2], f(zz[0][0]));
    CHECK_EQ_U(b.v[b.nv - 1].pos[2], f(zz[3][3]));
    patch_free(&a);
    patch_free(&b);
    /* 4 points, closed/closed: the corner is not a control point. */
    tess(&h, SPLINE(4, 4, 0, 0), &b);
    CHECK_EQ_U(b.nv, 20);
    CHECK(b.v[0].pos[0] != 0);
    patch_free(&b);
    gh_free(&h);
}

/* ---- Degenerate input ---- */

TEST(patch_degenerate_input)
{
    struct gehelp h;
    struct gt_patch_out o;
    struct gt_diag d = {0};
    struct cpt p[16];
    setup(&h, VT_POSF, 0, 0);
    grid(p, 4, 4, NULL);
    put_points(&h, p, 16);
    /* Fewer than 4 points either way: nothing, no error. */
    const uint32_t small[] = {BEZIER(3, 4), BEZIER(4, 3), BEZIER(0, 0), BEZIER(1, 200), SPLINE(3, 9, 3, 3),
                              SPLINE(4, 0, 0, 0)};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        CHECK_EQ_I(patch_tessellate(&h.r.ge.st, &h.r.mem, small[i], NULL, &o, &d), GT_OK);
        CHECK(o.nv == 0 && o.nidx == 0 && o.v == NULL && o.idx == NULL);
        patch_free(&o);
    }
    /* Division 0 means 1. */
    tess(&h, BEZIER(4, 4), &o);
    CHECK_EQ_U(o.nv, 4);
    patch_free(&o);
    tess(&h, SPLINE(4, 4, 0, 0), &o);
    CHECK_EQ_U(o.nv, 4);
    patch_free(&o);
    /* No position in VTYPE: nothing. */
    set_reg(&h, GE_VTYPE, VT_COL8888);
    tess(&h, BEZIER(4, 4), &o);
    CHECK_EQ_U(o.nv, 0);
    patch_free(&o);
    set_reg(&h, GE_VTYPE, VT_POSF);
    /* Not a patch command. */
    CHECK_EQ_I(patch_tessellate(&h.r.ge.st, &h.r.mem, (uint32_t)GE_PRIM << 24 | 3, NULL, &o, &d), GT_EARG);
    CHECK(o.v == NULL);
    /* Too many vertices: an error, nothing allocated. */
    set_reg(&h, GE_PATCH_DIV, 127 | 127 << 8);
    CHECK_EQ_I(patch_tessellate(&h.r.ge.st, &h.r.mem, SPLINE(255, 255, 0, 0), NULL, &o, &d), GT_ETOO_BIG);
    CHECK(o.v == NULL && o.nv == 0);
    CHECK_EQ_I(patch_tessellate(&h.r.ge.st, &h.r.mem, BEZIER(255, 255), NULL, &o, &d), GT_ETOO_BIG);
    /* Largest patch under the cap at maximum division: 7x4 Bezier at 127x127 is 2 * 128 * 128. */
    tess(&h, BEZIER(7, 4), &o);
    CHECK_EQ_U(o.nv, 2 * 128 * 128);
    CHECK_EQ_U(o.nidx, 2 * 127 * 127 * 6);
    patch_free(&o);
    /* Unmapped control points read as zero: a flat degenerate surface, no crash. */
    h.r.ge.st.vaddr = 0x0FFFFFF0;
    set_reg(&h, GE_PATCH_DIV, 2 | 2 << 8);
    tess(&h, BEZIER(4, 4), &o);
    CHECK_EQ_U(o.nv, 9);
    patch_free(&o);
    patch_free(NULL);
    CHECK_EQ_U(patch_point_count(BEZIER(7, 4)), 28);
    CHECK_EQ_U(patch_point_count(SPLINE(255, 255, 3, 3)), 65025);
    gh_free(&h);
}

/* ---- Threads ---- */

TEST(patch_threads_same_vertices)
{
    /* Grid lines may be evaluated on several threads (par.h): every vertex
     * depends on the control points only, so the generated vertices are
     * byte-identical to the single-threaded result, for Bezier and spline
     * patches with texture coordinates, colors and normals. */
    struct workers w;
    struct gt_diag d = {0};
    CHECK_EQ_I(workers_start(&w, 4, &d), GT_OK);
    const struct gt_par par = {workers_parallel, &w};
    static const uint32_t words[] = {BEZIER(7, 7), SPLINE(9, 6, 1, 2), SPLINE(5, 11, 3, 0)};
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
        struct gehelp h;
        struct cpt p[121];
        setup(&h, VT_TCF | VT_COL8888 | VT_NRMF | VT_POSF, 13, 9);
        set_reg(&h, GE_LIGHTING_ON, 1);
        unsigned nu = words[k] & 0xFF, nv = (words[k] >> 8) & 0xFF;
        grid(p, nu, nv, NULL);
        for (unsigned i = 0; i < nu * nv; i++) {
            p[i].pos[2] = ge((double)((i * 37) % 11) / 8.0 - 0.5);
            p[i].uv[0] = ge((double)(i % 5) / 4.0), p[i].uv[1] = ge((double)(i % 7) / 6.0);
            p[i].color = 0x10305070u + i * 0x01020304u;
        }
        put_points(&h, p, nu * nv);
        struct gt_patch_out a, b;
        tess(&h, words[k], &a);
        CHECK_EQ_I(patch_tessellate(&h.r.ge.st, &h.r.mem, words[k], &par, &b, &d), GT_OK);
        CHECK(a.nv > 100 && a.nv == b.nv && a.nidx == b.nidx);
        CHECK(memcmp(a.v, b.v, sizeof *a.v * a.nv) == 0);
        CHECK(memcmp(a.idx, b.idx, sizeof *a.idx * a.nidx) == 0);
        patch_free(&a);
        patch_free(&b);
    }
    workers_stop(&w);
}
