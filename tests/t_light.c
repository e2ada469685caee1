/* Per-vertex lighting (pipeline/light.c): GE-HARDWARE.md §3 and
 * docs/notes/vertex-pipeline.md §5.
 *
 * Inputs are axis-aligned or 45-degree vectors with power-of-two lengths and
 * colors whose 8-bit products are worked out by hand in the comments, so
 * every expected value is exact. The few values that go through a table
 * (rsqrt(2)) or Mitchell's power are pinned first and derived by hand. */
#include <string.h>

#include "light.h"
#include "test.h"

static gefloat f(float x) { return gemath_from_float(x); }

/* Register data of a float: the top 24 bits of the IEEE single. */
static uint32_t f24(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u >> 8;
}

static void set(struct ge_state *st, unsigned cmd, uint32_t data) { st->reg[cmd] = (uint32_t)cmd << 24 | (data & 0xFFFFFF); }
static void setf(struct ge_state *st, unsigned cmd, float v) { set(st, cmd, f24(v)); }
static uint32_t rgb(unsigned r, unsigned g, unsigned b) { return r | g << 8 | b << 16; }

/* Register numbers not named in ge_cmd.h (docs/notes §5.1). */
enum {
    R_MAT_EMISSIVE = 0x54, R_MAT_AMBIENT = 0x55, R_MAT_DIFFUSE = 0x56, R_MAT_SPECULAR = 0x57,
    R_MAT_ALPHA = 0x58, R_SPEC_COEF = 0x5B, R_AMBIENT = 0x5C, R_AMBIENT_ALPHA = 0x5D,
};
static unsigned r_pos(unsigned i, unsigned c) { return 0x63 + 3 * i + c; }
static unsigned r_dir(unsigned i, unsigned c) { return 0x6F + 3 * i + c; }
static unsigned r_att(unsigned i, unsigned c) { return 0x7B + 3 * i + c; }
static unsigned r_spot_exp(unsigned i) { return 0x87 + i; }
static unsigned r_spot_cut(unsigned i) { return 0x8B + i; }
static unsigned r_lac(unsigned i) { return 0x8F + 3 * i; }
static unsigned r_ldc(unsigned i) { return 0x90 + 3 * i; }
static unsigned r_lsc(unsigned i) { return 0x91 + 3 * i; }

/* 1/sqrt(2) from the rsqrt table: 2.0 is a segment start, where the table is
 * the exact value truncated to 16 bits: 0.70710678 * 2^16 = 46340.95 ->
 * 46340 * 2^-16 (significand 0xB504, exponent -1). */
#define R_HALF_SQRT2 0x3F350400u

static void set_identity(gefloat m[12])
{
    memset(m, 0, 12 * sizeof *m);
    m[0] = m[4] = m[8] = GEMATH_ONE;
}

/* Lighting on, identity world and view, everything else zero; material
 * alpha and ambient alpha 255 so color0 alpha is 255. */
static void base(struct ge_state *st)
{
    memset(st, 0, sizeof *st);
    for (unsigned c = 0; c < 256; c++) st->reg[c] = c << 24;
    set_identity(st->world);
    set_identity(st->view);
    set(st, GE_LIGHTING_ON, 1);
    set(st, R_MAT_ALPHA, 255);
    set(st, R_AMBIENT_ALPHA, 255);
}

/* Light i on, with its computation (bits 0-1) and kind (bits 8-9). */
static void light_on(struct ge_state *st, unsigned i, unsigned comp, unsigned kind, float x, float y, float z)
{
    set(st, GE_LIGHT0_ON + i, 1);
    set(st, GE_LIGHT_TYPE0 + i, comp | kind << 8);
    setf(st, r_pos(i, 0), x);
    setf(st, r_pos(i, 1), y);
    setf(st, r_pos(i, 2), z);
}

struct lit {
    uint8_t c0[4], c1[4];
};

static struct lit shade(const struct ge_state *st, const float pos[3], const float nrm[3],
                        const uint8_t color[4], bool has_color)
{
    struct gt_light_state ls;
    struct lit o;
    gefloat p[3], n[3];
    for (int c = 0; c < 3; c++) p[c] = f(pos[c]), n[c] = f(nrm[c]);
    memset(&o, 0xAA, sizeof o); /* outputs must all be written */
    light_setup(&ls, st);
    light_vertex(&ls, p, n, color, has_color, o.c0, o.c1);
    return o;
}

static const float ORIGIN[3] = {0, 0, 0};
static const float UP[3] = {0, 1, 0};

#define CHECK_RGBA(v, r, g, b, a)                                                             \
    do {                                                                                      \
        const uint8_t *v_ = (v);                                                              \
        CHECK_MSG(v_[0] == (r) && v_[1] == (g) && v_[2] == (b) && v_[3] == (a),               \
                  "%s = (%u, %u, %u, %u), want (%u, %u, %u, %u)", #v, v_[0], v_[1], v_[2], v_[3], \
                  (unsigned)(r), (unsigned)(g), (unsigned)(b), (unsigned)(a));                \
    } while (0)

/* §5.5 / notes §1.3: lighting off passes the vertex color through and
 * color1 is 0; a vertex without color takes material ambient RGB and
 * material alpha. */
TEST(light_off_passes_color)
{
    struct ge_state st;
    base(&st);
    set(&st, GE_LIGHTING_ON, 0);
    set(&st, R_MAT_EMISSIVE, rgb(50, 60, 70)); /* must not be used */
    set(&st, R_AMBIENT, rgb(255, 255, 255));
    set(&st, R_MAT_AMBIENT, rgb(0x11, 0x22, 0x33));
    set(&st, R_MAT_ALPHA, 0x44);
    light_on(&st, 0, 0, 0, 0, 1, 0);
    set(&st, r_ldc(0), rgb(255, 255, 255));
    set(&st, R_MAT_DIFFUSE, rgb(255, 255, 255));
    const uint8_t vc[4] = {10, 20, 30, 40};
    struct lit o = shade(&st, ORIGIN, UP, vc, true);
    CHECK_RGBA(o.c0, 10, 20, 30, 40);
    CHECK_RGBA(o.c1, 0, 0, 0, 0);
    o = shade(&st, ORIGIN, UP, vc, false);
    CHECK_RGBA(o.c0, 0x11, 0x22, 0x33, 0x44);
    CHECK_RGBA(o.c1, 0, 0, 0, 0);
}

/* HW §3 / notes §5.2: with no light, color0 = emissive + material ambient x
 * global ambient with the 8-bit product ((2x+1)(2s+1)) >> 10, alpha
 * included, clamped. x*s/255 rounded gives 1 for (1, 128), truncated gives
 * 0 for (1, 171): both differ from the product. */
TEST(light_ambient_emissive_mul8)
{
    struct ge_state st;
    base(&st);
    set(&st, R_MAT_EMISSIVE, rgb(10, 20, 30));
    set(&st, R_MAT_AMBIENT, rgb(1, 1, 200));
    set(&st, R_MAT_ALPHA, 255);
    set(&st, R_AMBIENT, rgb(128, 171, 100));
    set(&st, R_AMBIENT_ALPHA, 128);
    const uint8_t vc[4] = {255, 255, 255, 255};
    /* R 10 + (3*257 >> 10 = 0); G 20 + (3*343 >> 10 = 1);
     * B 30 + (401*201 >> 10 = 78); A (511*257 >> 10 = 128). */
    struct lit o = shade(&st, ORIGIN, UP, vc, false);
    CHECK_RGBA(o.c0, 10, 21, 108, 128);
    CHECK_RGBA(o.c1, 0, 0, 0, 0);
    /* MATERIAL_UPDATE without a vertex color is ignored. */
    set(&st, GE_MATERIAL_UPDATE, 7);
    o = shade(&st, ORIGIN, UP, vc, false);
    CHECK_RGBA(o.c0, 10, 21, 108, 128);
    /* With one, the vertex color is the ambient material (RGBA):
     * R 10 + (511*257 >> 10 = 128); G 20 + (511*343 >> 10 = 171);
     * B 30 + (511*201 >> 10 = 100); A 128. */
    o = shade(&st, ORIGIN, UP, vc, true);
    CHECK_RGBA(o.c0, 138, 191, 130, 128);
    /* Clamp: 250 + 78 -> 255. */
    set(&st, GE_MATERIAL_UPDATE, 0);
    set(&st, R_MAT_EMISSIVE, rgb(10, 20, 250));
    o = shade(&st, ORIGIN, UP, vc, true);
    CHECK_RGBA(o.c0, 10, 21, 255, 128);
}

/* A directional diffuse light (notes §5.3): N.L = 1 gives the plain color x
 * material product; N.L from two 45-degree vectors is 1/2 in exact
 * arithmetic but r*r with r = rsqrt(2) truncated in the GE, 0.499985, so
 * the 8-bit intensity is 127, not 128; a back-facing light adds nothing
 * but its ambient color. */
TEST(light_directional_diffuse)
{
    struct ge_state st;
    base(&st);
    CHECK_EQ_U(gemath_rsqrt(f(2.0f)), R_HALF_SQRT2);
    light_on(&st, 0, 0, 0, 0, 4, 0); /* normalises exactly to (0, 1, 0) */
    set(&st, r_ldc(0), rgb(255, 128, 1));
    set(&st, R_MAT_DIFFUSE, rgb(255, 128, 171));
    const uint8_t vc[4] = {0, 0, 0, 0};
    /* N = (0, 2, 0) normalised: (0, 1, 0). mul8(255, 255) = 255,
     * mul8(128, 128) = 257*257 >> 10 = 64, mul8(1, 171) = 1; then times
     * intensity 255, the identity of the product. */
    const float n2[3] = {0, 2, 0};
    struct lit o = shade(&st, ORIGIN, n2, vc, true);
    CHECK_RGBA(o.c0, 255, 64, 1, 255);
    /* Light disabled: nothing. */
    set(&st, GE_LIGHT0_ON, 0);
    o = shade(&st, ORIGIN, n2, vc, true);
    CHECK_RGBA(o.c0, 0, 0, 0, 255);
    set(&st, GE_LIGHT0_ON, 1);

    /* N = normalise(1, 1, 0) = (r, r, 0), L = normalise(0, 1, 1) = (0, r, r):
     * N.L = r*r = 46340^2 * 2^-32 = 0.4999795, truncated to 16 bits
     * 65533 * 2^-17 = 0.499977 -> floor(127.994) = 127 (exact 0.5: 128).
     * R: mul8(255, 127) = 511*255 >> 10 = 127. */
    setf(&st, r_pos(0, 1), 1);
    setf(&st, r_pos(0, 2), 1);
    const float n45[3] = {1, 1, 0};
    o = shade(&st, ORIGIN, n45, vc, true);
    CHECK_EQ_U(o.c0[0], 127);
    const gefloat rr[3] = {R_HALF_SQRT2, R_HALF_SQRT2, GEMATH_ZERO}, ll[3] = {GEMATH_ZERO, R_HALF_SQRT2, R_HALF_SQRT2};
    CHECK_EQ_U(gemath_dot3(rr, ll), f(65533.0f / 131072.0f));
    CHECK(gemath_mul8(255, 128) == 128); /* what N.L = 0.5 would give */

    /* Back-facing: L = (0, -1, 0), N.L = -1. Only the light's ambient color
     * (times material ambient 255: mul8(100, 255) = 100) remains. */
    setf(&st, r_pos(0, 1), -1);
    setf(&st, r_pos(0, 2), 0);
    set(&st, r_lac(0), rgb(100, 0, 0));
    set(&st, R_MAT_AMBIENT, rgb(255, 255, 255));
    o = shade(&st, ORIGIN, n2, vc, true);
    CHECK_RGBA(o.c0, 100, 0, 0, 255);
}

/* Powered diffuse (computation 2): N.L through Mitchell's power with the
 * specular coefficient (model choice: the same unit as the specular). */
TEST(light_powered_diffuse)
{
    struct ge_state st;
    base(&st);
    light_on(&st, 0, 2, 0, 0, 1, 1);
    set(&st, r_ldc(0), rgb(255, 255, 255));
    set(&st, R_MAT_DIFFUSE, rgb(255, 255, 255));
    setf(&st, R_SPEC_COEF, 2.0f);
    const uint8_t vc[4] = {0, 0, 0, 0};
    /* N.L = 65533 * 2^-17 (see light_directional_diffuse): Mitchell log2 =
     * -2 + 32765/32768 = -32771 (Q15); times 2: -65542 = -3 + 32762/32768;
     * exp2: 2^-3 * (1 + 32762/32768) = 0.249977 -> 63 (true power: 0.25 -> 64).
     * mul8(255, 63) = 511*127 >> 10 = 63. */
    const float n45[3] = {1, 1, 0};
    struct lit o = shade(&st, ORIGIN, n45, vc, true);
    CHECK_RGBA(o.c0, 63, 63, 63, 255);
    CHECK_EQ_U(gemath_spec_pow(f(65533.0f / 131072.0f), f(2.0f)), 0x3E000000u | 32762u << 8);
    /* Coefficient 0: the power is 1 even for a back face (notes §5.4). */
    setf(&st, R_SPEC_COEF, 0.0f);
    setf(&st, r_pos(0, 1), -1);
    setf(&st, r_pos(0, 2), 0);
    o = shade(&st, ORIGIN, UP, vc, true);
    CHECK_RGBA(o.c0, 255, 255, 255, 255);
    /* Computation 3 behaves like plain diffuse: back face dark. */
    set(&st, GE_LIGHT_TYPE0, 3);
    o = shade(&st, ORIGIN, UP, vc, true);
    CHECK_RGBA(o.c0, 0, 0, 0, 255);
}

/* Point light attenuation 1 / (A + B d + C d^2), clamped to [0, 1]. The
 * vertex at model (0, -2, 0) with world translation (0, 2, 0) sits at the
 * world origin, the light at (0, 4, 0): L - T = (0, 2, 0), D = (0, 4, 0),
 * |D|^2 = 16, rsqrt 0.25, d = 4, L = (0, 1, 0), N.L = 1. Powers of two
 * throughout, so the reciprocal table is exact. */
TEST(light_point_attenuation)
{
    struct ge_state st;
    base(&st);
    st.world[10] = f(2.0f);
    light_on(&st, 0, 0, 1, 0, 4, 0);
    set(&st, r_ldc(0), rgb(255, 255, 128));
    set(&st, R_MAT_DIFFUSE, rgb(255, 128, 128));
    const uint8_t vc[4] = {0, 0, 0, 0};
    const float pos[3] = {0, -2, 0};
    struct {
        float a, b, c;
        uint8_t r, g, b8;
    } cases[] = {
        /* Color x material: R mul8(255, 255) = 255, G mul8(255, 128) = 128,
         * B mul8(128, 128) = 257*257 >> 10 = 64.
         * att 1 / (0.5 * 4) = 0.5 -> intensity 128: R mul8(255, 128) = 128
         * (PPSSPP's (511 * 511 * 257) >> 19 = 127); G mul8(128, 128) = 64;
         * B mul8(64, 128) = 129*257 >> 10 = 32. */
        {0, 0.5f, 0, 128, 64, 32},
        /* 1 / (1 + 0.25 * 4 + 0.125 * 16) = 0.25 -> 64: R mul8(255, 64) =
         * 511*129 >> 10 = 64; G mul8(128, 64) = 257*129 >> 10 = 32;
         * B mul8(64, 64) = 129*129 >> 10 = 16. */
        {1, 0.25f, 0.125f, 64, 32, 16},
        /* d^2 is |D|^2 (16), so 1 / (0.125 * 16) = 0.5. */
        {0, 0, 0.125f, 128, 64, 32},
        /* 1 / 0.25 = 4 clamps to 1: the full products 255, 128, 64. */
        {0.25f, 0, 0, 255, 128, 64},
        /* Zero denominator: the table's largest value, clamped to 1. */
        {0, 0, 0, 255, 128, 64},
        /* Negative: 0. */
        {-1, 0, 0, 0, 0, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        setf(&st, r_att(0, 0), cases[k].a);
        setf(&st, r_att(0, 1), cases[k].b);
        setf(&st, r_att(0, 2), cases[k].c);
        struct lit o = shade(&st, pos, UP, vc, true);
        CHECK_MSG(o.c0[0] == cases[k].r && o.c0[1] == cases[k].g && o.c0[2] == cases[k].b8,
                  "case %zu: (%u, %u, %u), want (%u, %u, %u)", k, o.c0[0], o.c0[1], o.c0[2],
                  cases[k].r, cases[k].g, cases[k].b8);
    }
    /* The attenuation scales the light's ambient term too (att 0.5). */
    setf(&st, r_att(0, 0), 2);
    setf(&st, r_att(0, 1), 0);
    setf(&st, r_att(0, 2), 0);
    set(&st, r_ldc(0), 0);
    set(&st, r_lac(0), rgb(255, 0, 0));
    set(&st, R_MAT_AMBIENT, rgb(255, 0, 0));
    struct lit o = shade(&st, pos, UP, vc, false);
    CHECK_RGBA(o.c0, 128, 0, 0, 255);
}

/* Spot lights (notes §5.3): inside the cone when dot(spot direction,
 * vertex-to-light) >= cutoff, the direction used as stored; the exponent
 * through Mitchell's power. Light at (0, 4, 0), vertex at the origin,
 * L = (0, 1, 0), att = 1 / A = 1, N.L = 1. */
TEST(light_spot_cutoff)
{
    struct ge_state st;
    base(&st);
    light_on(&st, 0, 0, 2, 0, 4, 0);
    setf(&st, r_att(0, 0), 1);
    set(&st, r_ldc(0), rgb(255, 255, 255));
    set(&st, R_MAT_DIFFUSE, rgb(255, 255, 255));
    const uint8_t vc[4] = {0, 0, 0, 0};
    setf(&st, r_dir(0, 1), 2); /* normalised (0, 1, 0): raw = 1 */
    setf(&st, r_spot_cut(0), 0.5f);
    struct lit o = shade(&st, ORIGIN, UP, vc, true);
    CHECK_RGBA(o.c0, 255, 255, 255, 255);
    /* Pointing from the light to the vertex: raw = -1, outside. */
    setf(&st, r_dir(0, 1), -1);
    o = shade(&st, ORIGIN, UP, vc, true);
    CHECK_RGBA(o.c0, 0, 0, 0, 255);
    /* Type 3 is a spot light too. */
    set(&st, GE_LIGHT_TYPE0, 3 << 8);
    o = shade(&st, ORIGIN, UP, vc, true);
    CHECK_RGBA(o.c0, 0, 0, 0, 255);
    set(&st, GE_LIGHT_TYPE0, 2 << 8);
    /* Direction (0, 1, 1): normalised (0, r, r), raw = r = 0.707092. */
    setf(&st, r_dir(0, 1), 1);
    setf(&st, r_dir(0, 2), 1);
    setf(&st, r_spot_cut(0), 0.75f);
    o = shade(&st, ORIGIN, UP, vc, true);
    CHECK_RGBA(o.c0, 0, 0, 0, 255);
    /* Cutoff 0.5, exponent 0: inside, factor 1. */
    setf(&st, r_spot_cut(0), 0.5f);
    o = shade(&st, ORIGIN, UP, vc, true);
    CHECK_RGBA(o.c0, 255, 255, 255, 255);
    /* Exponent 3: Mitchell log2(r) = -1 + 13572/32768 = -19196 (Q15);
     * times 3 = -57588 = -2 + 7948/32768; exp2 = 0.25 * 40716/32768 =
     * 0.310638 -> intensity 79 (true power 0.353553 -> 90).
     * mul8(255, 79) = 511*159 >> 10 = 79. */
    setf(&st, r_spot_exp(0), 3);
    o = shade(&st, ORIGIN, UP, vc, true);
    CHECK_RGBA(o.c0, 79, 79, 79, 255);
    CHECK_EQ_U(gemath_spec_pow(R_HALF_SQRT2, f(3.0f)), 0x3E800000u | 7948u << 8);
}

/* HW §3: the specular half vector uses the view matrix's third column
 * (m2, m5, m8) as the viewer. Directional light L = (0, 1, 0), N = (0, 1, 0),
 * specular coefficient 1, only specular colors set. */
TEST(light_specular_viewer_from_view_matrix)
{
    struct ge_state st;
    base(&st);
    light_on(&st, 0, 1, 0, 0, 1, 0);
    set(&st, r_lsc(0), rgb(255, 200, 0));
    set(&st, R_MAT_SPECULAR, rgb(255, 255, 255));
    setf(&st, R_SPEC_COEF, 1.0f);
    const uint8_t vc[4] = {0, 0, 0, 0};
    /* View: x -> x, y -> z, z -> -y (m[0..2] = (1,0,0), m[3..5] = (0,0,1),
     * m[6..8] = (0,-1,0)) plus a translation, which must not matter. The
     * third column (m2, m5, m8) = (0, 1, 0): H = L + V = (0, 2, 0) ->
     * (0, 1, 0), N.H = 1, power 1: full specular (255, 200, 0). */
    const float rot[12] = {1, 0, 0, 0, 0, 1, 0, -1, 0, 5, 6, 7};
    for (int k = 0; k < 12; k++) st.view[k] = f(rot[k]);
    struct lit o = shade(&st, ORIGIN, UP, vc, true);
    CHECK_RGBA(o.c0, 255, 200, 0, 255);
    /* A fixed (0, 0, 1) viewer -- what an identity view gives here -- makes
     * H = (0, r, r), N.H = r = 0.707092 -> intensity 181:
     * mul8(255, 181) = 511*363 >> 10 = 181, mul8(200, 181) = 401*363 >> 10 = 142.
     * So the rotated view's (255, 200, 0) is not what (0, 0, 1) gives. */
    set_identity(st.view);
    o = shade(&st, ORIGIN, UP, vc, true);
    CHECK_RGBA(o.c0, 181, 142, 0, 255);
    /* Mitchell's power with coefficient 2 on N.H = r: log2 -19196, times 2
     * -38392 = -2 + 27144/32768, exp2 = 0.25 * 59912/32768 = 0.457092 ->
     * 117 (true r^2 = 0.49998 -> 127). mul8(255, 117) = 511*235 >> 10 = 117;
     * mul8(200, 117) = 401*235 >> 10 = 92. */
    setf(&st, R_SPEC_COEF, 2.0f);
    o = shade(&st, ORIGIN, UP, vc, true);
    CHECK_RGBA(o.c0, 117, 92, 0, 255);
    /* The sign as stored: third column (0, -1, 0) makes H = 0, which falls
     * back to (0, 0, 1): N.H = 0, no specular. A negated reading would give
     * V = (0, 1, 0) and full specular. */
    setf(&st, R_SPEC_COEF, 1.0f);
    const float rot2[12] = {1, 0, 0, 0, 0, -1, 0, 1, 0, 0, 0, 0};
    for (int k = 0; k < 12; k++) st.view[k] = f(rot2[k]);
    o = shade(&st, ORIGIN, UP, vc, true);
    CHECK_RGBA(o.c0, 0, 0, 0, 255);
    /* Computation 0 has no specular. */
    for (int k = 0; k < 12; k++) st.view[k] = f(rot[k]);
    set(&st, GE_LIGHT_TYPE0, 0);
    o = shade(&st, ORIGIN, UP, vc, true);
    CHECK_RGBA(o.c0, 0, 0, 0, 255);
}

/* LIGHT_MODE (notes §5.2): 0 adds the specular sum to color0 (clamped per
 * channel); 1 puts it in color1 (alpha 0). Specular needs N.L >= 0. */
TEST(light_separate_specular)
{
    struct ge_state st;
    base(&st);
    light_on(&st, 0, 1, 0, 0, 1, 0);
    set(&st, r_ldc(0), rgb(100, 100, 100));
    set(&st, R_MAT_DIFFUSE, rgb(255, 255, 255));
    set(&st, r_lsc(0), rgb(255, 200, 0));
    set(&st, R_MAT_SPECULAR, rgb(255, 255, 255));
    setf(&st, R_SPEC_COEF, 1.0f);
    const float rot[12] = {1, 0, 0, 0, 0, 1, 0, -1, 0, 0, 0, 0}; /* viewer (0, 1, 0) */
    for (int k = 0; k < 12; k++) st.view[k] = f(rot[k]);
    const uint8_t vc[4] = {0, 0, 0, 0};
    /* Diffuse 100 each, specular (255, 200, 0). */
    struct lit o = shade(&st, ORIGIN, UP, vc, true);
    CHECK_RGBA(o.c0, 255, 255, 100, 255);
    CHECK_RGBA(o.c1, 0, 0, 0, 0);
    set(&st, GE_LIGHT_MODE, 1);
    o = shade(&st, ORIGIN, UP, vc, true);
    CHECK_RGBA(o.c0, 100, 100, 100, 255);
    CHECK_RGBA(o.c1, 255, 200, 0, 0);
    /* N.L < 0 but N.H > 0: light (1, -1, 0) -> (r, -r, 0), viewer (0, 2, 0)
     * (a view scaled by 2; not normalised) -> H = (r, 2 - r, 0), N.H > 0.
     * The specular is gated off by N.L; the same geometry with the light at
     * (1, 1, 0) lights color1. */
    const float rot2[12] = {1, 0, 0, 0, 0, 2, 0, -1, 0, 0, 0, 0};
    for (int k = 0; k < 12; k++) st.view[k] = f(rot2[k]);
    setf(&st, r_pos(0, 0), 1);
    setf(&st, r_pos(0, 1), -1);
    o = shade(&st, ORIGIN, UP, vc, true);
    CHECK_RGBA(o.c0, 0, 0, 0, 255);
    CHECK_RGBA(o.c1, 0, 0, 0, 0);
    setf(&st, r_pos(0, 1), 1);
    o = shade(&st, ORIGIN, UP, vc, true);
    CHECK(o.c1[0] > 0 && o.c1[1] > 0 && o.c1[2] == 0 && o.c1[3] == 0);
}

/* MATERIAL_UPDATE (notes §5.1): bits 0/1/2 take the ambient (RGBA) /
 * diffuse / specular material from the vertex color; ignored without one.
 * Light 0: directional (0, 1, 0), diffuse + specular, viewer (0, 1, 0) so
 * N.L = N.H = 1; colors LAC 40, LDC 80, LSC 120 (grey); global ambient
 * 255; material diffuse 10, others 0; vertex color (255, 128, 64, 200). */
TEST(light_material_update)
{
    struct ge_state st;
    base(&st);
    light_on(&st, 0, 1, 0, 0, 1, 0);
    set(&st, r_lac(0), rgb(40, 40, 40));
    set(&st, r_ldc(0), rgb(80, 80, 80));
    set(&st, r_lsc(0), rgb(120, 120, 120));
    set(&st, R_AMBIENT, rgb(255, 255, 255));
    set(&st, R_MAT_ALPHA, 0);
    set(&st, R_MAT_DIFFUSE, rgb(10, 10, 10));
    setf(&st, R_SPEC_COEF, 1.0f);
    const float rot[12] = {1, 0, 0, 0, 0, 1, 0, -1, 0, 0, 0, 0};
    for (int k = 0; k < 12; k++) st.view[k] = f(rot[k]);
    const uint8_t vc[4] = {255, 128, 64, 200};
    /* Products: mul8(80, 10) = 161*21 >> 10 = 3 (material diffuse);
     * ambient base mul8(vc, 255) = vc; mul8(40, vc) = 40, 81*257 >> 10 = 20,
     * 81*129 >> 10 = 10; mul8(80, vc) = 80, 161*257 >> 10 = 40,
     * 161*129 >> 10 = 20; mul8(120, vc) = 120, 241*257 >> 10 = 60,
     * 241*129 >> 10 = 30. */
    static const struct {
        unsigned upd;
        bool has_color;
        uint8_t want[4];
    } cases[] = {
        {0, true, {3, 3, 3, 0}},
        {1, true, {255, 151, 77, 200}}, /* 255+40+3, 128+20+3, 64+10+3; alpha mul8(200, 255) */
        {2, true, {80, 40, 20, 0}},
        {4, true, {123, 63, 33, 0}},
        {7, true, {255, 248, 124, 200}}, /* 128+20+40+60, 64+10+20+30 */
        {7, false, {3, 3, 3, 0}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        set(&st, GE_MATERIAL_UPDATE, cases[k].upd);
        struct lit o = shade(&st, ORIGIN, UP, vc, cases[k].has_color);
        CHECK_MSG(memcmp(o.c0, cases[k].want, 4) == 0, "case %zu: (%u, %u, %u, %u)", k, o.c0[0],
                  o.c0[1], o.c0[2], o.c0[3]);
    }
}

/* HW §3: no world-space vertex position is formed; each component of the
 * vector to a light is one fused row sum (L - T), -x*w0, -y*w1, -z*w2.
 * World: identity with m3 = 1 (x' = x + y) and translation (0.5, 0, 0);
 * light at (2.5, 0, 0) so L - T = (2, 0, 0); vertex (3*2^-16, 3*2^-16, 0).
 *  - fused: the products -3*2^-16 are truncated to the largest term's ulp
 *    (2 -> 2^-14): 0.75 ulp -> 0, so D.x = 2 exactly;
 *  - world position first: P.x = 0.5 + 6*2^-16 (exact), then 2.5 - P.x
 *    truncates P.x to 2^-14 first: 0.5 + 2^-14, D.x = 2 - 2^-14;
 *  - IEEE: 2 - 6*2^-16. */
TEST(light_vector_single_row_sum)
{
    struct ge_state st;
    base(&st);
    st.world[3] = GEMATH_ONE;
    st.world[9] = f(0.5f);
    light_on(&st, 0, 0, 1, 2.5f, 0, 0);
    struct gt_light_state ls;
    light_setup(&ls, &st);
    const gefloat e = f(3.0f / 65536.0f);
    const gefloat pos[3] = {e, e, GEMATH_ZERO};
    gefloat D[3];
    light_vector(&ls, 0, pos, D);
    CHECK_EQ_U(D[0], f(2.0f));
    CHECK_EQ_U(D[1], gemath_neg(e)); /* -y*w4 alone */
    CHECK_EQ_U(D[2], GEMATH_ZERO);
    /* The separate-operation path with the same GE unit differs. */
    const gefloat p4[4] = {pos[0], pos[1], pos[2], GEMATH_ONE};
    gefloat wp[3];
    gemath_mat43_apply(st.world, p4, wp);
    CHECK_EQ_U(wp[0], f(0.5f + 6.0f / 65536.0f));
    gefloat sep = gemath_sub(f(2.5f), wp[0]);
    CHECK_EQ_U(sep, f(2.0f - 1.0f / 16384.0f));
    CHECK(sep != D[0]);
    CHECK(f(2.0f - 6.0f / 65536.0f) != D[0]); /* IEEE */
}

/* A vertex without color, lighting on, no material update: the ambient
 * material is the material ambient register (RGB + alpha), and lights act
 * on it as usual. */
TEST(light_vertex_without_color)
{
    struct ge_state st;
    base(&st);
    set(&st, R_MAT_AMBIENT, rgb(255, 128, 0));
    set(&st, R_MAT_ALPHA, 77);
    set(&st, R_AMBIENT, rgb(255, 255, 255));
    light_on(&st, 0, 0, 0, 0, 1, 0);
    set(&st, r_lac(0), rgb(0, 0, 255));
    const uint8_t junk[4] = {9, 9, 9, 9};
    /* Base: mul8(255, 255) = 255, mul8(128, 255) = 128, 0; alpha
     * mul8(77, 255) = 155*511 >> 10 = 77. Light ambient blue on material 0: 0. */
    struct lit o = shade(&st, ORIGIN, UP, junk, false);
    CHECK_RGBA(o.c0, 255, 128, 0, 77);
    CHECK_RGBA(o.c1, 0, 0, 0, 0);
}

