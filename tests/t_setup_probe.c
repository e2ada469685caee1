/* Triangle setup (GE-HARDWARE.md §2) pinned pixel by pixel: the plane
 * anchor, exact colour and depth planes, the fog plane and perspective
 * texture coordinates, each checked at every covered pixel of whole
 * triangles drawn through display lists (pipeline/setup.c, raster.c).
 *
 * Expected values never come from the code under test. They come from an
 * independent model of §2 written here: every triangle gets, for each
 * interpolated quantity, a plane "value at the anchor vertex plus per-x and
 * per-y gradients", each gradient the exact cross product of vertex
 * differences (a wide integer) times the setup reciprocal. The table
 * itself is called (gemath_setup_recip, tested against the PSP's measured
 * values in t_gemath_tables.c), as is the §1 perspective reciprocal table
 * (gemath_recip, tested there too); everything else is computed here.
 *
 * The measured rules (ppsspp-site ge-arithmetic.md "Planes",
 * ge-raster-pipeline.md "Planes", "Texture coordinates"), as the model
 * here states them:
 *  - gradients floor(n q / 2^(e + 2)): 14 fraction bits per 1/16 pixel,
 *    q and e from the setup reciprocal of the doubled area; the pixel value
 *    the plane floored at the pixel centre, 16 px + 8;
 *  - the anchor is the leftmost vertex, or the rightmost when the long
 *    edge is strictly the right side (no two vertices on a row); a tie in
 *    x takes the upper vertex;
 *  - fog: each vertex's 8-bit factor min(floor(256 f), 255) goes through
 *    the plane; blended as (c f + fogcolor (255 - f) + 255) / 256 (PPSSPP
 *    DrawSinglePixel);
 *  - texture coordinates: per vertex q = R(w), s = u q, t = v q; each of
 *    the three planes over 15-bit integers at the largest exponent of its
 *    three vertex values; per pixel q and s cut to GE floats, u = s R(q)
 *    kept to 24 significant bits, the texel position truncated to 1/16.
 *
 * Positions are in 1/16 pixel ("X16") throughout the models. Packed 8888
 * pixels are R | G<<8 | B<<16 | A<<24; draws that do not write stencil keep
 * the buffer's alpha, so only RGB is compared. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "dlbuild.h"
#include "gemath.h"
#include "probe.h"
#include "raster.h"
#include "render.h"
#include "test.h"

#define SP_TEX 0x08300000u
#define SP_ZBUF (PB_VRAM + PB_ZOFF)
#define SP_W 480
#define SP_H 272

/* ---- Harness (tests/probe.h) ------------------------------------------------- */

/* World and view identity; projection given (out.k = x p[k] + y p[4+k] +
 * z p[8+k] + w p[12+k]). */
static void projection(struct pb *t, const float proj[16]) { pb_matrices(t, pb_id43, pb_id43, proj); }

/* A fresh context (pb_init) whose viewport has depth scale 0: in transform
 * mode every depth is the centre, 32768. */
static void sp_init(struct pb *t) { pb_init(t, 0); }

/* A vertex with float position, 8888 colour and float texture
 * coordinates. Every float used is exact in the GE format. */
struct sv {
    float x, y, z;
    uint32_t c;
    float u, v;
};

/* Writes n vertices (texcoord if tex, colour, position, all 4-byte
 * components) and draws them as independent triangles, in through mode
 * (VTYPE bit 23) or transform mode. */
static void draw_tris(struct pb *t, bool through, bool tex, const struct sv *v, unsigned n)
{
    uint32_t a = t->vnext;
    for (unsigned i = 0; i < n; i++) {
        if (tex) {
            mem_write32(&t->r->mem, a, pb_f32bits(v[i].u));
            mem_write32(&t->r->mem, a + 4, pb_f32bits(v[i].v));
            a += 8;
        }
        mem_write32(&t->r->mem, a, v[i].c);
        mem_write32(&t->r->mem, a + 4, pb_f32bits(v[i].x));
        mem_write32(&t->r->mem, a + 8, pb_f32bits(v[i].y));
        mem_write32(&t->r->mem, a + 12, pb_f32bits(v[i].z));
        a += 16;
    }
    uint32_t vtype = (tex ? 3u : 0u) | 7u << 2 | 3u << 7 | (through ? 1u << 23 : 0u);
    pb_emit_prim(t, vtype, t->vnext, 3, n);
    t->vnext = (a + 15) & ~15u;
    CHECK(t->vnext < SP_TEX);
}

static uint32_t rgb_at(const struct pb *t, int x, int y)
{
    return mem_read32(&t->r->mem, PB_VRAM + ((uint32_t)y * 512 + (uint32_t)x) * 4) & 0xFFFFFF;
}

static uint16_t z_at(const struct pb *t, int x, int y)
{
    return mem_read16(&t->r->mem, pb_depth_view(SP_ZBUF, true) + ((uint32_t)y * 512 + (uint32_t)x) * 2);
}

static void fill_buffers(struct pb *t, uint8_t color_byte, uint8_t z_byte)
{
    struct gt_diag d = {0};
    CHECK_EQ_I(mem_fill(&t->r->mem, PB_VRAM, color_byte, 512 * SP_H * 4, &d), GT_OK);
    CHECK_EQ_I(mem_fill(&t->r->mem, SP_ZBUF, z_byte, 512 * SP_H * 2, &d), GT_OK);
}

static uint32_t pack_rgb(unsigned r, unsigned g, unsigned b) { return r | g << 8 | b << 16; }

/* Coverage: pb_tri_cov and pb_tri_sample (tests/probe.h), the fill rule
 * and sample point t_raster.c tests. */

/* ---- The model of §2 ------------------------------------------------------- */

/* Measured: 14 fraction bits per subpixel. Stated here as a number, not
 * read from the code under test. */
#define M_FRAC 14
_Static_assert(M_FRAC == RAST_PLANE_FRAC, "the measured planes have 14 fraction bits");

/* floor(n / 2^k) by division (no reliance on shifting negative values). */
static int64_t floor_pow2(__int128 n, unsigned k)
{
    __int128 d = (__int128)1 << k;
    __int128 q = n / d;
    if (n % d != 0 && n < 0) q--;
    return (int64_t)q;
}

/* The measured anchor, by geometry: the long edge joins the topmost and
 * the bottommost vertex (distinct y assumed for all three); it is the
 * right side when the middle vertex lies left of it at the middle vertex's
 * height. Then the anchor is the rightmost vertex, else the leftmost; of
 * two with the same x, the upper. */
static unsigned model_anchor(const int64_t X[3], const int64_t Y[3])
{
    unsigned top = 0, bot = 0;
    for (unsigned i = 1; i < 3; i++) {
        if (Y[i] < Y[top]) top = i;
        if (Y[i] > Y[bot]) bot = i;
    }
    unsigned mid = 3 - top - bot;
    /* x of the long edge at height Y[mid], times (Y[bot] - Y[top]) > 0. */
    int64_t h = Y[bot] - Y[top];
    int64_t edge_x_h = X[top] * h + (X[bot] - X[top]) * (Y[mid] - Y[top]);
    bool right = X[mid] * h < edge_x_h;
    unsigned a = 0;
    for (unsigned i = 1; i < 3; i++)
        if ((right ? X[i] > X[a] : X[i] < X[a]) || (X[i] == X[a] && Y[i] < Y[a])) a = i;
    return a;
}

/* A plane of the model: value at the anchor (plane units: 2^M_FRAC per
 * value unit), gradients per 1/16 pixel (plane units). */
struct mplane {
    int64_t v, gx, gy, ax, ay;
    unsigned shift; /* floor(log2 |A|): the setup reciprocal's exponent */
};

/* The plane through values val[] at the vertices, anchored at vertex an.
 * Gradients: Cramer's rule on the vertex differences from the anchor,
 * gx = Nx / A, gy = Ny / A with A the doubled signed area; 1 / |A| from the
 * setup reciprocal (q ~ 2^(e + 16) / |A|), the product floored to M_FRAC
 * fraction bits: floor(N q / 2^(e + 2)). */
static struct mplane model_plane(const int64_t X[3], const int64_t Y[3], const int64_t val[3], unsigned an)
{
    unsigned b = (an + 1) % 3, c = (an + 2) % 3;
    int64_t dxb = X[b] - X[an], dyb = Y[b] - Y[an], dxc = X[c] - X[an], dyc = Y[c] - Y[an];
    __int128 dvb = (__int128)val[b] - val[an], dvc = (__int128)val[c] - val[an];
    __int128 A = (__int128)dxb * dyc - (__int128)dxc * dyb;
    __int128 nx = dvb * dyc - dvc * dyb;
    __int128 ny = dvc * dxb - dvb * dxc;
    if (A < 0) A = -A, nx = -nx, ny = -ny;
    CHECK(A > 0 && A < ((__int128)1 << 40));
    unsigned e;
    uint64_t q = gemath_setup_recip((uint64_t)A, &e);
    struct mplane p;
    p.v = val[an] * ((int64_t)1 << M_FRAC);
    p.gx = floor_pow2(nx * (__int128)q, e + 2);
    p.gy = floor_pow2(ny * (__int128)q, e + 2);
    p.ax = X[an], p.ay = Y[an];
    p.shift = e;
    return p;
}

/* The plane at sample (sx, sy), in plane units. */
static __int128 plane_raw(const struct mplane *p, int64_t sx, int64_t sy)
{
    return (__int128)p->v + (__int128)p->gx * (sx - p->ax) + (__int128)p->gy * (sy - p->ay);
}

/* The plane at a sample as a value: floored to an integer. */
static int64_t plane_int(const struct mplane *p, int64_t sx, int64_t sy)
{
    return floor_pow2(plane_raw(p, sx, sy), M_FRAC);
}

static int64_t clampi(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* A through-mode Gouraud triangle in the model: vertex positions (1/16
 * pixel), 8888 colours and depths; RGB and depth planes from anchor an. */
struct mtri {
    int64_t X[3], Y[3];
    struct mplane col[3], z;
};

static void model_tri(struct mtri *m, const struct sv v[3], unsigned an)
{
    for (int i = 0; i < 3; i++) {
        /* The positions are multiples of 1/16, so x * 16 is exact. */
        m->X[i] = (int64_t)(v[i].x * 16.0f);
        m->Y[i] = (int64_t)(v[i].y * 16.0f);
        CHECK(v[i].x * 16.0f == (float)m->X[i] && v[i].y * 16.0f == (float)m->Y[i]);
    }
    for (int k = 0; k < 3; k++) {
        int64_t val[3];
        for (int i = 0; i < 3; i++) val[i] = (int64_t)(v[i].c >> (8 * k) & 0xFF);
        m->col[k] = model_plane(m->X, m->Y, val, an);
    }
    int64_t zv[3];
    for (int i = 0; i < 3; i++) zv[i] = (int64_t)v[i].z;
    m->z = model_plane(m->X, m->Y, zv, an);
}

static uint32_t model_rgb(const struct mtri *m, int x, int y)
{
    int64_t sx = pb_tri_sample(x), sy = pb_tri_sample(y);
    uint32_t out = 0;
    for (int k = 0; k < 3; k++) out |= (uint32_t)clampi(plane_int(&m->col[k], sx, sy), 0, 255) << (8 * k);
    return out;
}

static uint16_t model_z(const struct mtri *m, int x, int y)
{
    return (uint16_t)clampi(plane_int(&m->z, pb_tri_sample(x), pb_tri_sample(y)), 0, 65535);
}

/* Draws the through-mode triangle v (depth test ALWAYS with writes) on
 * buffers prefilled with colour 0x5B5B5B and depth 0x5A5A, then checks
 * every pixel of the screen: covered pixels hold the model's RGB (and its
 * depth when check_z), uncovered ones the background. Returns the number
 * of covered pixels. */
static unsigned draw_and_check(const struct sv v[3], unsigned an, bool check_z, const char *what)
{
    struct pb t;
    sp_init(&t);
    fill_buffers(&t, 0x5B, 0x5A);
    pb_depth_always(&t);
    draw_tris(&t, true, false, v, 3);
    pb_run(&t);
    struct mtri m;
    model_tri(&m, v, an);
    unsigned covered = 0;
    for (int y = 0; y < SP_H; y++)
        for (int x = 0; x < SP_W; x++) {
            uint32_t got = rgb_at(&t, x, y);
            uint16_t gz = z_at(&t, x, y);
            if (!pb_tri_cov(m.X, m.Y, pb_tri_sample(x), pb_tri_sample(y))) {
                CHECK_MSG(got == 0x5B5B5B && gz == 0x5A5A, "%s: pixel (%d,%d) not covered but 0x%06x z 0x%04x", what,
                          x, y, got, gz);
                continue;
            }
            covered++;
            uint32_t want = model_rgb(&m, x, y);
            CHECK_MSG(got == want, "%s: pixel (%d,%d) = 0x%06x, model 0x%06x", what, x, y, got, want);
            if (check_z)
                CHECK_MSG(gz == model_z(&m, x, y), "%s: depth (%d,%d) = %u, model %u", what, x, y, gz,
                          model_z(&m, x, y));
        }
    pb_free(&t);
    return covered;
}

/* Pixels where the model with anchor a and with anchor b give different
 * RGB, among the covered pixels. */
static unsigned anchor_differences(const struct sv v[3], unsigned a, unsigned b)
{
    struct mtri ma, mb;
    model_tri(&ma, v, a);
    model_tri(&mb, v, b);
    unsigned n = 0;
    for (int y = 0; y < SP_H; y++)
        for (int x = 0; x < SP_W; x++)
            if (pb_tri_cov(ma.X, ma.Y, pb_tri_sample(x), pb_tri_sample(y)) && model_rgb(&ma, x, y) != model_rgb(&mb, x, y)) n++;
    return n;
}

/* ---- 1. The anchor rule ----------------------------------------------------- */

/* Three triangles of §2's cases, vertices listed as (top, middle, bottom)
 * in 1/16-pixel multiples, with steep colour gradients (about 1 to 3
 * colour steps per pixel) so the anchor's effect on the floored gradients
 * shows at some pixels. */
static const struct sv ANCHOR_TRIS[3][3] = {
    /* Long edge on the left (the middle vertex lies right of top -> bottom):
     * anchored at the leftmost vertex, here the BOTTOM one, so the rule
     * "leftmost" and the right-side rule "top of the long edge" differ. */
    {{150.25f, 10.5f, 0, 0xFF2500FFu, 0, 0},
     {300.0625f, 90.75f, 0, 0xFFC9FF00u, 0, 0},
     {20.5f, 250.125f, 0, 0xFFFF0780u, 0, 0}},
    /* Long edge on the right (the middle vertex lies left of it): anchored
     * at the rightmost vertex, here the bottom one; the leftmost is the
     * middle one. */
    {{200.5f, 15.25f, 0, 0xFF10F0E0u, 0, 0},
     {30.75f, 120.5f, 0, 0xFFE01F05u, 0, 0},
     {260.125f, 260.875f, 0, 0xFF7F80FFu, 0, 0}},
    /* Vertical right edge: the long edge (top -> bottom) is vertical and
     * on the right; top and bottom tie for rightmost: the upper one. */
    {{400.5f, 20.25f, 0, 0xFF00FF33u, 0, 0},
     {250.25f, 140.125f, 0, 0xFFFF80CCu, 0, 0},
     {400.5f, 250.75f, 0, 0xFF3300FFu, 0, 0}},
};

TEST(setup_anchor_rule)
{
    /* (a) rast_anchor_vertex directly, every primitive order of each
     * triangle: the returned index must name the §2 vertex. Expected (by
     * hand from the coordinates): triangle 0 -> its bottom vertex
     * (leftmost, x 20.5); 1 -> its bottom vertex (long edge right side:
     * rightmost, x 260.125); 2 -> its top vertex (vertical long edge on the
     * right, the upper of the two rightmost). */
    static const unsigned perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    static const unsigned want_role[3] = {2, 2, 0}; /* index in (top, middle, bottom) */
    for (int n = 0; n < 3; n++)
        for (int p = 0; p < 6; p++) {
            int64_t X[3], Y[3];
            for (int i = 0; i < 3; i++) {
                X[i] = (int64_t)(ANCHOR_TRIS[n][perm[p][i]].x * 16.0f);
                Y[i] = (int64_t)(ANCHOR_TRIS[n][perm[p][i]].y * 16.0f);
            }
            unsigned got = rast_anchor_vertex(X, Y);
            CHECK_MSG(got < 3 && perm[p][got] == want_role[n], "triangle %d order %d: anchor index %u (vertex %u), want vertex %u",
                      n, p, got, got < 3 ? perm[p][got] : 99, want_role[n]);
            /* The test's own geometric model agrees with the hand result. */
            CHECK_EQ_U(perm[p][model_anchor(X, Y)], want_role[n]);
        }
    /* A vertical LEFT long edge: the long edge is the left side, so the
     * leftmost vertex anchors; top and bottom tie for leftmost and the
     * upper one wins, in any primitive order. A flat-bottom triangle whose
     * middle vertex lies left of the long edge is not right-anchored (two
     * vertices on one row): its leftmost vertex anchors. */
    {
        int64_t X[3] = {50 * 16, 200 * 16, 50 * 16}, Y[3] = {0, 100 * 16, 300 * 16};
        CHECK_EQ_U(rast_anchor_vertex(X, Y), 0);
        int64_t X2[3] = {200 * 16, 50 * 16, 50 * 16}, Y2[3] = {100 * 16, 300 * 16, 0};
        CHECK_EQ_U(rast_anchor_vertex(X2, Y2), 2);
        int64_t X3[3] = {100 * 16, 20 * 16, 300 * 16}, Y3[3] = {0, 200 * 16, 200 * 16};
        CHECK_EQ_U(rast_anchor_vertex(X3, Y3), 1);
    }

    /* (b) Each triangle drawn (through mode, Gouraud) in a primitive order
     * that is not (top, middle, bottom), one clockwise and one counter-
     * clockwise (setup reorients), every covered pixel's RGB equal to the
     * model anchored at the §2 vertex; the test also shows that each other
     * anchor choice would change some pixel, so the anchor is pinned. */
    static const unsigned order[3][3] = {{1, 2, 0}, {0, 2, 1}, {2, 1, 0}};
    for (int n = 0; n < 3; n++) {
        struct sv v[3];
        for (int i = 0; i < 3; i++) v[i] = ANCHOR_TRIS[n][order[n][i]];
        unsigned an = 0;
        while (order[n][an] != want_role[n]) an++;
        int64_t X[3], Y[3];
        for (int i = 0; i < 3; i++) X[i] = (int64_t)(v[i].x * 16.0f), Y[i] = (int64_t)(v[i].y * 16.0f);
        CHECK_EQ_U(model_anchor(X, Y), an);
        for (unsigned other = 0; other < 3; other++) {
            if (other == an) continue;
            unsigned diff = anchor_differences(v, an, other);
            CHECK_MSG(diff > 0, "triangle %d: anchoring at vertex %u instead of %u changes no pixel; the test would not pin the anchor",
                      n, other, an);
        }
        char what[32];
        snprintf(what, sizeof what, "anchor triangle %d", n);
        unsigned covered = draw_and_check(v, an, false, what);
        CHECK_MSG(covered > 10000, "triangle %d covers %u pixels", n, covered);
    }
}

/* ---- 2. Exact colour and depth planes -------------------------------------------- */

TEST(setup_color_depth_planes_exact)
{
    /* Through-mode Gouraud triangles with per-vertex colours and depths;
     * every covered pixel's R, G, B and z equal the model exactly:
     * floor(value at anchor + gx (X - ax) + gy (Y - ay)) with floored
     * fixed-point gradients through the area table (header comment).
     *  0: large, its doubled area in 1/256 pixel^2 (26195244) not a power
     *     of two, so the area is shifted into the 16-bit index (shift 9)
     *     and the table interpolates inside a segment; depths 1000 ..
     *     65000;
     *  1: a right triangle 64 x 64 pixels: doubled area 2^20 exactly (the
     *     table is exact at a power of two: 2^35 / 2^15);
     *  2: a small triangle (a few pixels): area below 2^16, used unshifted;
     *  3: a tiny triangle whose doubled area (219 / 256 pixel^2) falls in
     *     the table's first segment (model choice: the exact reciprocal
     *     there), covering the one sample (50 + 7/16, 50 + 7/16). */
    static const struct sv tris[4][3] = {
        {{12.5625f, 30.1875f, 1000, 0xFF1040F0u, 0, 0},
         {470.9375f, 60.4375f, 65000, 0xFFF0A005u, 0, 0},
         {200.3125f, 265.8125f, 30001, 0xFF08FF77u, 0, 0}},
        {{100, 100, 0, 0xFF000000u, 0, 0},
         {164, 100, 65535, 0xFF00FFFFu, 0, 0},
         {100, 164, 4097, 0xFFFF00FFu, 0, 0}},
        {{300.5f, 200.25f, 40000, 0xFF30C0FFu, 0, 0},
         {305.75f, 201.0625f, 100, 0xFFC03000u, 0, 0},
         {302.125f, 206.9375f, 65535, 0xFF00FF80u, 0, 0}},
        {{50, 50, 10, 0xFF000000u, 0, 0},
         {50.9375f, 50.125f, 60000, 0xFFFFFFFFu, 0, 0},
         {50.1875f, 50.9375f, 30000, 0xFF80FF00u, 0, 0}},
    };
    /* Area facts the cases rely on, computed from the coordinates. */
    unsigned min_cov[4] = {20000, 1900, 10, 1};
    for (int n = 0; n < 4; n++) {
        struct mtri m;
        model_tri(&m, tris[n], 0);
        int64_t A = pb_cross3(m.X[0], m.Y[0], m.X[1], m.Y[1], m.X[2], m.Y[2]);
        if (A < 0) A = -A;
        if (n == 0) CHECK(m.z.shift > 16 && (A & (A - 1)) != 0 && ((A >> (m.z.shift - 16)) & 0xFF) != 0);
        if (n == 1) CHECK_EQ_I(A, 1 << 20);
        if (n == 2) CHECK(A < 65536 && A > 256);
        if (n == 3) CHECK_EQ_I(A, 219);
        unsigned an = model_anchor(m.X, m.Y);
        char what[32];
        snprintf(what, sizeof what, "plane triangle %d", n);
        unsigned covered = draw_and_check(tris[n], an, true, what);
        CHECK_MSG(covered >= min_cov[n], "triangle %d covers %u pixels", n, covered);
    }
}

/* ---- 3. The fog plane ---------------------------------------------------------- */

/* PPSSPP DrawSinglePixel: (c f + fogcolor (255 - f) + 255) / 256 per RGB. */
static unsigned fog_blend(unsigned c, unsigned fc, unsigned f) { return (c * f + fc * (255 - f) + 255) / 256; }

TEST(setup_fog_plane)
{
    /* Transform mode, identity world and view, a projection whose z row is
     * zero (clip z = 0, w = 1: no near clipping, depth 32768 everywhere).
     * The fog factor per vertex is (eye z + FOG1) * FOG2 (PPSSPP
     * ComputeTransformState; t_vprobe.c vprobe_fog). FOG1 = 1, FOG2 = 0.5
     * and eye z chosen so the factor is exact:
     *   z -0.875 -> 0.0625, z 0.8125 -> 0.90625, z -0.3125 -> 0.34375;
     * a second triangle reaches factor 1 (z = 1) at one vertex, where
     * 256 f = 256 is limited to 255.
     * The vertex colour is the same at all vertices (flat colour), the fog
     * colour different, so each pixel shows only the fog factor. The
     * model: the fog plane per §2 over the factor in 16-bit fixed point
     * (f * 2^16, exact here), the 8-bit factor floor(plane / 2^8) limited
     * to 0..255, then the blend above. */
    static const unsigned C[3] = {200, 40, 100}, FC[3] = {20, 100, 255};
    struct { struct sv v[3]; int64_t f16[3]; } tris[2] = {
        {{{20.5f, 10.25f, -0.875f, 0, 0, 0}, {460.75f, 100.5f, 0.8125f, 0, 0, 0}, {150.0625f, 260.9375f, -0.3125f, 0, 0, 0}},
         {4096, 59392, 22528}},
        {{{300.25f, 120.5f, 1, 0, 0, 0}, {470.5f, 270.125f, -0.5f, 0, 0, 0}, {240.75f, 268.25f, 0.25f, 0, 0, 0}},
         {65536, 16384, 40960}},
    };
    static const float proj[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    for (int n = 0; n < 2; n++) {
        struct pb t;
        sp_init(&t);
        projection(&t, proj);
        pb_cmd(&t, GE_FOG_ON, 1);
        pb_cmdf(&t, GE_FOG1, 1);
        pb_cmdf(&t, GE_FOG2, 0.5f);
        pb_cmd(&t, GE_FOG_COLOR, pack_rgb(FC[0], FC[1], FC[2]));
        struct sv v[3];
        int64_t X[3], Y[3];
        for (int i = 0; i < 3; i++) {
            v[i] = tris[n].v[i];
            v[i].c = 0xFF000000u | pack_rgb(C[0], C[1], C[2]);
            X[i] = (int64_t)(v[i].x * 16.0f), Y[i] = (int64_t)(v[i].y * 16.0f);
            /* The factor, (z + 1) / 2, in 1/65536 (exact rationals). */
            CHECK_EQ_I((int64_t)((v[i].z + 1.0f) * 32768.0f), tris[n].f16[i]);
        }
        draw_tris(&t, false, false, v, 3);
        pb_run(&t);
        /* Each vertex's 8-bit factor: min(floor(256 f), 255). */
        int64_t f8[3];
        for (int i = 0; i < 3; i++) f8[i] = tris[n].f16[i] >> 8 > 255 ? 255 : tris[n].f16[i] >> 8;
        struct mplane fog = model_plane(X, Y, f8, model_anchor(X, Y));
        unsigned covered = 0, levels[256] = {0}, distinct = 0;
        for (int y = 0; y < SP_H; y++)
            for (int x = 0; x < SP_W; x++) {
                uint32_t got = rgb_at(&t, x, y);
                if (!pb_tri_cov(X, Y, pb_tri_sample(x), pb_tri_sample(y))) {
                    CHECK_MSG(got == 0, "fog triangle %d: pixel (%d,%d) not covered but 0x%06x", n, x, y, got);
                    continue;
                }
                covered++;
                unsigned f = (unsigned)clampi(plane_int(&fog, pb_tri_sample(x), pb_tri_sample(y)), 0, 255);
                if (!levels[f]++) distinct++;
                uint32_t want = pack_rgb(fog_blend(C[0], FC[0], f), fog_blend(C[1], FC[1], f), fog_blend(C[2], FC[2], f));
                CHECK_MSG(got == want, "fog triangle %d: pixel (%d,%d) = 0x%06x, want 0x%06x (factor %u)", n, x, y, got,
                          want, f);
            }
        CHECK_MSG(covered > 5000, "fog triangle %d covers %u pixels", n, covered);
        /* The factor really varies across the triangle (a constant fog
         * would pass a weaker test). */
        CHECK_MSG(distinct > 100, "fog triangle %d: only %u distinct factors", n, distinct);
        /* Triangle 1's first vertex has 256 f = 256, limited to 255 before
         * the plane: the pixels next to it reach 254 at least. */
        if (n == 1) CHECK_MSG(f8[0] == 255 && (levels[254] || levels[255]), "fog triangle 1 does not reach the limit");
        pb_free(&t);
    }
}

/* ---- 4. Perspective-correct texture coordinates ------------------------------- */

/* A GE float value m * 2^e (16-bit significand, §1) as bits. */
static gefloat ge_bits(uint64_t m, int32_t e)
{
    CHECK(m >= 0x8000 && m <= 0xFFFF);
    int32_t ef = e + 15 + 127;
    CHECK(ef > 0 && ef < 255);
    return (uint32_t)ef << 23 | (uint32_t)(m & 0x7FFF) << 8;
}

/* |n| * 2^e truncated to `bits` significant bits (toward zero), as a
 * significand in [2^(bits-1), 2^bits) and its exponent; false for zero. */
static bool trunc_bits(unsigned __int128 n, int32_t e, int bits, uint64_t *m, int32_t *me)
{
    if (n == 0) return false;
    int nb = 0;
    while (nb < 127 && (n >> nb) != 0) nb++;
    if (nb > bits) {
        *m = (uint64_t)(n >> (nb - bits));
        *me = e + (nb - bits);
    } else {
        *m = (uint64_t)(n << (bits - nb));
        *me = e - (bits - nb);
    }
    return true;
}

/* The texel index the model gives along one axis of a size-2^lg level-0
 * texture, for the floored plane values ps (the coordinate plane, units
 * 2^pe) and pq (the Q plane, units 2^qe) at a pixel: q = trunc16(Q), r =
 * recip(q) (the §1 table), s = trunc24(trunc16(S) * r) (24 bits: the
 * measured per-pixel product), the texel position in 1/16 texel truncated
 * toward zero, nearest sampling takes it >> 4, clamped to the texture. */
static int persp_texel(int64_t ps, int32_t pe, int64_t pq, int32_t qe, unsigned lg)
{
    CHECK(pq > 0);
    uint64_t mq, mr, ms;
    int32_t eq, es;
    CHECK(trunc_bits((unsigned __int128)pq, qe, 16, &mq, &eq));
    gefloat r = gemath_recip(ge_bits(mq, eq));
    mr = 0x8000u | (r >> 8 & 0x7FFFu);
    int32_t er = (int32_t)(r >> 23 & 0xFF) - 127 - 15;
    bool neg = ps < 0;
    unsigned __int128 mag = (unsigned __int128)(neg ? -ps : ps);
    if (!trunc_bits(mag, pe, 16, &ms, &es)) return 0;
    uint64_t mp;
    int32_t ep;
    CHECK(trunc_bits((unsigned __int128)ms * mr, es + er, 24, &mp, &ep));
    /* Texel position in 1/16 texel, truncated toward zero. */
    int32_t sh = ep + (int32_t)lg + 4;
    int64_t k = sh >= 0 ? (int64_t)(mp << sh) : (int64_t)(mp >> -sh);
    if (neg) k = -k;
    int64_t texel = floor_pow2(k, 4);
    return (int)clampi(texel, 0, ((int64_t)1 << lg) - 1);
}

/* Bit length of a positive integer. */
static int bitlen(uint64_t v)
{
    int n = 0;
    while (v) n++, v >>= 1;
    return n;
}

TEST(setup_perspective_texcoords)
{
    /* Transform mode with w = 1, 4 and 2 at the three vertices (projection:
     * clip w = model z, clip z = 0), model x = X w so the screen position
     * is X exactly (w a power of two: 1/w is exact in the §1 table). A
     * 64 x 64 8888 texture whose texel (a, b) is R = a, G = b, B = 0x5A;
     * nearest filter, no mipmaps (no level of detail), clamped, TEX_FUNC
     * replace RGBA: each pixel names the texel it sampled.
     *
     * The model (header comment): per vertex S = u / w, T = v / w, Q = 1 / w
     * (exact dyadic values, held here as integers over 2^12); each of the
     * three planes in block floating point: the largest vertex value with
     * leading-bit exponent E is scaled to a 31-bit integer (units 2^(E -
     * 30)), the plane built per §2 over those integers (units 2^(E - 46)
     * after the 16 fraction bits), then divided per pixel as persp_texel
     * does. (The block width is getile's model choice; at these values it
     * does not show: 22 instead of 30 bits gives the same pixels, since
     * the per-pixel values are cut to 16 significant bits.) Cross-checks that do not depend on those details: the model's
     * texel is within one of floor(64 * exact perspective coordinate) at
     * every pixel and equal at most, and plain affine interpolation of u
     * would give different texels at many pixels. */
    enum { LG = 6, SIZE = 1 << LG };
    struct pb t;
    sp_init(&t);
    for (uint32_t b = 0; b < SIZE; b++)
        for (uint32_t a = 0; a < SIZE; a++) mem_write32(&t.r->mem, SP_TEX + (b * SIZE + a) * 4, 0xFF5A0000u | b << 8 | a);
    pb_texture_nearest(&t, SP_TEX, LG, 1 | 1u << 8);
    pb_cmdf(&t, R_TEXSCALE_U, 1);
    pb_cmdf(&t, R_TEXSCALE_V, 1);
    pb_cmdf(&t, R_TEXOFFSET_U, 0);
    pb_cmdf(&t, R_TEXOFFSET_V, 0);
    /* x' = x, y' = y, z' = 0, w' = model z. */
    static const float proj[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0};
    projection(&t, proj);

    static const struct { float X, Y; int w; float u, v; } V[3] = {
        {30.5f, 20.25f, 1, 0.0625f, 0.125f},
        {440.75f, 60.5f, 4, 0.9375f, 0.25f},
        {120.125f, 262.0625f, 2, 0.375f, 0.96875f},
    };
    struct sv v[3];
    int64_t X[3], Y[3];
    for (int i = 0; i < 3; i++) {
        float w = (float)V[i].w;
        v[i] = (struct sv){V[i].X * w, V[i].Y * w, w, 0xFFFFFFFFu, V[i].u, V[i].v};
        X[i] = (int64_t)(V[i].X * 16.0f), Y[i] = (int64_t)(V[i].Y * 16.0f);
    }
    draw_tris(&t, false, true, v, 3);
    pb_run(&t);

    /* Vertex values as integers over 2^12: S = u 4096 / w etc. */
    int64_t val12[3][3];
    for (int i = 0; i < 3; i++) {
        val12[0][i] = (int64_t)(V[i].u * 4096.0f) / V[i].w;
        val12[1][i] = (int64_t)(V[i].v * 4096.0f) / V[i].w;
        val12[2][i] = 4096 / V[i].w;
        for (int k = 0; k < 3; k++) CHECK(val12[k][i] * V[i].w == (k == 2 ? 4096 : (int64_t)((k ? V[i].v : V[i].u) * 4096.0f)));
    }
    unsigned an = model_anchor(X, Y);
    struct mplane pl[3];
    int32_t unit[3]; /* plane units: value = plane * 2^unit */
    for (int k = 0; k < 3; k++) {
        int64_t mx = 0;
        for (int i = 0; i < 3; i++) mx = val12[k][i] > mx ? val12[k][i] : mx;
        int nb = bitlen((uint64_t)mx);
        int32_t E = nb - 1 - 12; /* the largest value's leading-bit exponent */
        int64_t iv[3];
        for (int i = 0; i < 3; i++) iv[i] = val12[k][i] << (15 - nb); /* exact: value / 2^(E - 14), 15 bits */
        pl[k] = model_plane(X, Y, iv, an);
        unit[k] = E - 14;
    }
    /* Exact barycentric data for the cross-checks. */
    double A = (double)pb_cross3(X[0], Y[0], X[1], Y[1], X[2], Y[2]);
    unsigned covered = 0, exact_eq = 0, affine_diff = 0;
    for (int y = 0; y < SP_H; y++)
        for (int x = 0; x < SP_W; x++) {
            uint32_t got = rgb_at(&t, x, y);
            int64_t sx = pb_tri_sample(x), sy = pb_tri_sample(y);
            if (!pb_tri_cov(X, Y, sx, sy)) {
                CHECK_MSG(got == 0, "pixel (%d,%d) not covered but 0x%06x", x, y, got);
                continue;
            }
            covered++;
            int64_t q = plane_int(&pl[2], sx, sy);
            int tu = persp_texel(plane_int(&pl[0], sx, sy), unit[0], q, unit[2], LG);
            int tv = persp_texel(plane_int(&pl[1], sx, sy), unit[1], q, unit[2], LG);
            uint32_t want = 0x5A0000u | (uint32_t)tv << 8 | (uint32_t)tu;
            CHECK_MSG(got == want, "pixel (%d,%d) sampled texel (%u,%u), model (%d,%d)", x, y, got & 0xFF, got >> 8 & 0xFF,
                      tu, tv);
            /* Exact perspective: barycentric weights l_i, u = sum l_i S_i /
             * sum l_i Q_i (doubles are exact enough for a +-1 check). */
            double l[3];
            for (int i = 0; i < 3; i++) {
                int b = (i + 1) % 3, c = (i + 2) % 3;
                l[i] = (double)pb_cross3(sx, sy, X[b], Y[b], X[c], Y[c]) / A;
            }
            double sS = 0, sT = 0, sQ = 0, aU = 0, aV = 0;
            for (int i = 0; i < 3; i++) {
                sS += l[i] * (double)val12[0][i], sT += l[i] * (double)val12[1][i], sQ += l[i] * (double)val12[2][i];
                aU += l[i] * V[i].u, aV += l[i] * V[i].v;
            }
            int eu = (int)floor(SIZE * sS / sQ), ev = (int)floor(SIZE * sT / sQ);
            CHECK_MSG(abs(eu - tu) <= 1 && abs(ev - tv) <= 1, "pixel (%d,%d): model (%d,%d) far from exact (%d,%d)", x, y, tu,
                      tv, eu, ev);
            exact_eq += eu == tu && ev == tv;
            affine_diff += (int)floor(SIZE * aU) != tu || (int)floor(SIZE * aV) != tv;
        }
    CHECK_MSG(covered > 20000, "covers %u pixels", covered);
    CHECK_MSG(exact_eq * 100 > covered * 95, "model equals the exact perspective texel at only %u of %u", exact_eq, covered);
    CHECK_MSG(affine_diff * 2 > covered, "affine interpolation differs at only %u of %u pixels", affine_diff, covered);
    pb_free(&t);
}
