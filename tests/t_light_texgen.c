/* Texture-coordinate generation and fog (pipeline/light.c):
 * docs/notes/vertex-pipeline.md §6 and §7, on the GE arithmetic of
 * GE-HARDWARE.md §1. Every expected value is exact and worked out in the
 * comments; the cases that show the fused row sum use an offset below half
 * an ulp of the sum, which IEEE single arithmetic would keep. */
#include <string.h>

#include "light.h"
#include "test.h"

static gefloat f(float x) { return gemath_from_float(x); }

static void set(struct ge_state *st, unsigned cmd, uint32_t data) { st->reg[cmd] = (uint32_t)cmd << 24 | (data & 0xFFFFFF); }
static void setf(struct ge_state *st, unsigned cmd, float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    set(st, cmd, u >> 8);
}

static void set_matrix(gefloat m[12], const float v[12])
{
    for (int k = 0; k < 12; k++) m[k] = f(v[k]);
}

static const float IDENTITY[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};

static void base(struct ge_state *st)
{
    memset(st, 0, sizeof *st);
    for (unsigned c = 0; c < 256; c++) st->reg[c] = c << 24;
    set_matrix(st->world, IDENTITY);
    set_matrix(st->view, IDENTITY);
    set_matrix(st->tgen, IDENTITY);
}

static void texgen(const struct ge_state *st, const float pos[3], const float nrm[3], const float uv[2],
                   const float raw[2], gefloat stq[3])
{
    struct gt_light_state ls;
    gefloat p[3], n[3], u[2], r[2];
    for (int c = 0; c < 3; c++) p[c] = f(pos[c]), n[c] = f(nrm[c]);
    for (int c = 0; c < 2; c++) u[c] = f(uv[c]), r[c] = f(raw[c]);
    light_setup(&ls, st);
    stq[0] = stq[1] = stq[2] = 0xDEADBEEFu;
    texgen_vertex(&ls, p, n, u, r, stq);
}

#define CHECK_STQ(stq, s, t, q)                                                                 \
    do {                                                                                        \
        CHECK_MSG((stq)[0] == f(s) && (stq)[1] == f(t) && (stq)[2] == f(q),                     \
                  "stq = (%.9g, %.9g, %.9g) [%08X %08X %08X], want (%.9g, %.9g, %.9g)",        \
                  (double)gemath_to_float((stq)[0]), (double)gemath_to_float((stq)[1]),        \
                  (double)gemath_to_float((stq)[2]), (stq)[0], (stq)[1], (stq)[2], (double)(s), \
                  (double)(t), (double)(q));                                                    \
    } while (0)

static const float ZERO3[3] = {0, 0, 0};

/* Modes 0 and 3: the decoded (scaled) uv, q = 1; the texture matrix and
 * the raw uv are not used. */
TEST(light_texgen_uv_modes)
{
    struct ge_state st;
    base(&st);
    const float tg[12] = {2, 0, 0, 0, 4, 0, 0, 0, 8, 1, 1, 1};
    set_matrix(st.tgen, tg);
    const float uv[2] = {0.25f, 0.75f}, raw[2] = {5, 5};
    gefloat stq[3];
    for (unsigned mode = 0; mode < 4; mode += 3) {
        set(&st, GE_TEX_MAPMODE, mode | 1u << 8);
        texgen(&st, ZERO3, ZERO3, uv, raw, stq);
        CHECK_STQ(stq, 0.25f, 0.75f, 1.0f);
    }
}

/* Mode 1: the texture matrix applied as a point to the chosen source, in
 * model space (the world matrix is not used). TGEN: s = 2x + 1,
 * t = 4y + 0.5, q = 8z + 0.25. */
TEST(light_texgen_matrix_sources)
{
    struct ge_state st;
    base(&st);
    const float tg[12] = {2, 0, 0, 0, 4, 0, 0, 0, 8, 1, 0.5f, 0.25f};
    set_matrix(st.tgen, tg);
    const float world[12] = {2, 0, 0, 0, 2, 0, 0, 0, 2, 3, 3, 3};
    set_matrix(st.world, world);
    const float uv[2] = {9, 9}, raw[2] = {0.25f, 0.5f};
    const float pos[3] = {0.5f, 0.25f, 0.125f}, nrm[3] = {0, 0, 4};
    gefloat stq[3];

    set(&st, GE_TEX_MAPMODE, 1 | 0u << 8); /* position */
    texgen(&st, pos, nrm, uv, raw, stq);
    CHECK_STQ(stq, 2.0f, 1.5f, 1.25f);
    /* One fused row sum: 2 * -2^-17 + 1. The product -2^-16 is truncated
     * toward zero to the ulp of the largest term (1: 2^-15), so s is 1;
     * IEEE single gives 1 - 2^-16, which the GE format holds. */
    const float tiny[3] = {-1.0f / 131072.0f, 0, 0};
    texgen(&st, tiny, nrm, uv, raw, stq);
    CHECK_STQ(stq, 1.0f, 0.5f, 0.25f);
    CHECK(f(2.0f * (-1.0f / 131072.0f) + 1.0f) != f(1.0f));

    set(&st, GE_TEX_MAPMODE, 1 | 1u << 8); /* (u, v, 0) without scale/offset */
    texgen(&st, pos, nrm, uv, raw, stq);
    CHECK_STQ(stq, 1.5f, 2.5f, 0.25f);

    set(&st, GE_TEX_MAPMODE, 1 | 2u << 8); /* normalised normal: (0, 0, 1) */
    texgen(&st, pos, nrm, uv, raw, stq);
    CHECK_STQ(stq, 1.0f, 0.5f, 8.25f);
    /* A zero normal has no (0, 0, 1) fallback here: it stays zero. */
    texgen(&st, pos, ZERO3, uv, raw, stq);
    CHECK_STQ(stq, 1.0f, 0.5f, 0.25f);

    set(&st, GE_TEX_MAPMODE, 1 | 3u << 8); /* the normal as given */
    texgen(&st, pos, nrm, uv, raw, stq);
    CHECK_STQ(stq, 1.0f, 0.5f, 32.25f);
}

/* Mode 2 (shade mapping, measured: ge-lighting.md "Shade mapping"): s from
 * the light in TEX_SHADE bits 0-1, t from bits 8-9, each (L' . N / |N| + 1)
 * / 2 with L' the normalised light vector (zero staying zero) and the + 1
 * from the GE adder; works with lighting and the lights disabled; q = 1. */
TEST(light_texgen_shade_mapping)
{
    struct ge_state st;
    base(&st);
    set(&st, GE_TEX_MAPMODE, 2);
    set(&st, GE_TEX_SHADE, 2 | 3u << 8);
    setf(&st, 0x63 + 3 * 2 + 1, 4.0f); /* light 2: (0, 4, 0) -> (0, 1, 0) */
    setf(&st, 0x63 + 3 * 3 + 0, 2.0f); /* light 3: (2, 0, 0) -> (1, 0, 0) */
    const float uv[2] = {0, 0};
    gefloat stq[3];
    const float up[3] = {0, 1, 0};
    texgen(&st, ZERO3, up, uv, uv, stq);
    CHECK_STQ(stq, 1.0f, 0.5f, 1.0f);

    /* The world normal: world x -> y, y -> -x. Model (1, 0, 0) is world
     * (0, 1, 0); model (0, 1, 0) is world (-1, 0, 0): s 0.5, t 0. */
    const float rot[12] = {0, 1, 0, -1, 0, 0, 0, 0, 1, 7, 7, 7};
    set_matrix(st.world, rot);
    const float x[3] = {1, 0, 0};
    texgen(&st, ZERO3, x, uv, uv, stq);
    CHECK_STQ(stq, 1.0f, 0.5f, 1.0f);
    texgen(&st, ZERO3, up, uv, uv, stq);
    CHECK_STQ(stq, 0.5f, 0.0f, 1.0f);
    set_matrix(st.world, IDENTITY);

    /* A zero light vector stays zero: N . L = 0, t = 0.5. */
    setf(&st, 0x63 + 3 * 3 + 0, 0.0f);
    const float z2[3] = {0, 0, 2};
    texgen(&st, ZERO3, z2, uv, uv, stq);
    CHECK_STQ(stq, 0.5f, 0.5f, 1.0f);

    /* N = (1, 1, 0), L = (0, 1, 0): N . L / |N| = 1 * rsqrt(2) = 46340 *
     * 2^-16; + 1 in the adder at 1's ulp 2^-15: 1 + 23170 * 2^-15, halved:
     * 55938 * 2^-16 = 0.853546142578125. */
    const float n45[3] = {1, 1, 0};
    texgen(&st, ZERO3, n45, uv, uv, stq);
    CHECK_EQ_U(stq[0], f(55938.0f / 65536.0f));
    /* Light 2 at (2, 1, 0): rsqrt(5) (5 is a segment start, so the table
     * gives 58617 * 2^-17), L = (58617 * 2^-16, 58617 * 2^-17, 0). N . L
     * (one row sum, N = (1, 1, 0)) = 175851 * 2^-17, truncated to 16 bits:
     * 43962 * 2^-15; times rsqrt(2) = 46340 * 2^-16: 2037199080 * 2^-31,
     * truncated: 62170 * 2^-16 = 31085 * 2^-15, on 1's grid, so + 1 is
     * exact: s = (32768 + 31085) * 2^-16 = 63853 * 2^-16. (A normalised N
     * first, as the older model did, gives 63852.) */
    CHECK_EQ_U(gemath_rsqrt(f(5.0f)), f(58617.0f / 131072.0f));
    setf(&st, 0x63 + 3 * 2 + 0, 2.0f);
    setf(&st, 0x63 + 3 * 2 + 1, 1.0f);
    texgen(&st, ZERO3, n45, uv, uv, stq);
    CHECK_EQ_U(stq[0], f(63853.0f / 65536.0f));
    volatile float rf = 0.70710678f, r5 = 0.4472136f; /* IEEE single */
    CHECK(f((2 * r5 * rf + r5 * rf + 1.0f) * 0.5f) != stq[0]);
}

/* Fog (measured, ge-vertex-pipeline.md "Fog"): (z_eye + FOG1) * FOG2 with
 * z_eye from the combined world x view z row, FOG1 added with the GE
 * adder; 1 when fog is off. */
TEST(light_fog_formula)
{
    struct ge_state st;
    base(&st);
    struct gt_light_state ls;
    setf(&st, GE_FOG1, 7.0f);
    setf(&st, GE_FOG2, 0.25f);
    const gefloat p1[3] = {GEMATH_ZERO, GEMATH_ZERO, GEMATH_ONE};
    light_setup(&ls, &st);
    CHECK_EQ_U(fog_vertex(&ls, p1), GEMATH_ONE);

    /* World translation z 2, view translation z -8: eye z of (0, 0, 1) is
     * 1 + 2 - 8 = -5; (-5 + 7) * 0.25 = 0.5. */
    set(&st, GE_FOG_ON, 1);
    st.world[11] = f(2.0f);
    st.view[11] = f(-8.0f);
    light_setup(&ls, &st);
    CHECK_EQ_U(fog_vertex(&ls, p1), f(0.5f));
    const gefloat far[3] = {GEMATH_ZERO, GEMATH_ZERO, f(-10.0f)};
    CHECK_EQ_U(fog_vertex(&ls, far), f(-2.25f)); /* (-16 + 7) * 0.25 */
    CHECK_EQ_U(fog_to8(fog_vertex(&ls, far)), 0);

    /* The z row of world x view, not the model z: a view taking world y
     * to eye z (m[3..5] = (0, 0, 1)). (0, 3, 0): (3 + 1) * 0.125 = 0.5;
     * reading the model z would give 0.125. */
    const float rot[12] = {1, 0, 0, 0, 0, 1, 0, -1, 0, 0, 0, 0};
    set_matrix(st.world, IDENTITY);
    set_matrix(st.view, rot);
    setf(&st, GE_FOG1, 1.0f);
    setf(&st, GE_FOG2, 0.125f);
    light_setup(&ls, &st);
    const gefloat p3[3] = {GEMATH_ZERO, f(3.0f), GEMATH_ZERO};
    CHECK_EQ_U(fog_vertex(&ls, p3), f(0.5f));

    /* The eye z first, then the adder. A view with eye z = x + y + z,
     * FOG1 = 1, FOG2 = 1. x = y = 5 * 2^-18: the eye z is their exact sum
     * 10 * 2^-18 = 1.25 * 2^-15; adding 1 truncates it to 1's ulp (2^-15):
     * 1 + 2^-15. One fused sum with FOG1 as a term would cut x and y to
     * that ulp first (0.625 each, 0) and give exactly 1. */
    const float zsum[12] = {1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0};
    set_matrix(st.view, zsum);
    setf(&st, GE_FOG2, 1.0f);
    light_setup(&ls, &st);
    const gefloat pt[3] = {f(5.0f / 262144.0f), f(5.0f / 262144.0f), GEMATH_ZERO};
    CHECK_EQ_U(fog_vertex(&ls, pt), f(1.0f + 1.0f / 32768.0f));
}

/* Non-finite FOG1 / FOG2 registers (notes §7, PPSSPP): FOG1 infinite or
 * NaN makes the factor constant for the draw, 0 when the signs of FOG1 and
 * FOG2 differ or FOG2 is 0, else 1; FOG2 infinite is +-2^18. */
TEST(light_fog_nonfinite)
{
    struct ge_state st;
    base(&st);
    struct gt_light_state ls;
    set(&st, GE_FOG_ON, 1);
    const gefloat p[3] = {f(5.0f), f(-7.0f), f(123.0f)};
    static const struct {
        uint32_t fog1;
        float fog2;
        gefloat want;
    } cases[] = {
        {0x7F8000, 0.25f, GEMATH_ONE},   /* +inf, + */
        {0x7F8000, -0.25f, GEMATH_ZERO}, /* +inf, - */
        {0x7F8000, 0.0f, GEMATH_ZERO},   /* +inf, 0 */
        {0xFF8000, -0.25f, GEMATH_ONE},  /* -inf, - */
        {0xFF8000, 0.25f, GEMATH_ZERO},  /* -inf, + */
        {0x7FC000, 0.25f, GEMATH_ONE},   /* NaN, + */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        set(&st, GE_FOG1, cases[k].fog1);
        setf(&st, GE_FOG2, cases[k].fog2);
        light_setup(&ls, &st);
        CHECK_MSG(fog_vertex(&ls, p) == cases[k].want, "case %zu: %08X", k, fog_vertex(&ls, p));
    }
    /* FOG2 = +inf: 2^-16 * 2^18 = 4 (the largest value would give ~2^112). */
    setf(&st, GE_FOG1, 0.0f);
    set(&st, GE_FOG2, 0x7F8000);
    light_setup(&ls, &st);
    const gefloat q[3] = {GEMATH_ZERO, GEMATH_ZERO, f(1.0f / 65536.0f)};
    CHECK_EQ_U(fog_vertex(&ls, q), f(4.0f));
    set(&st, GE_FOG2, 0xFF8000);
    light_setup(&ls, &st);
    CHECK_EQ_U(fog_vertex(&ls, q), f(-4.0f));
}

/* fog_to8: negative (and -0) -> 0, >= 1 -> 255, else floor(f * 256). */
TEST(light_fog_to8_edges)
{
    CHECK_EQ_U(fog_to8(GEMATH_NEG_ZERO), 0);
    CHECK_EQ_U(fog_to8(f(-1.0f / 1048576.0f)), 0);
    CHECK_EQ_U(fog_to8(f(-5.0f)), 0);
    CHECK_EQ_U(fog_to8(GEMATH_ZERO), 0);
    CHECK_EQ_U(fog_to8(0x00000100u), 0); /* a denormal reads as +0 */
    CHECK_EQ_U(fog_to8(f(1.0f / 512.0f)), 0);
    CHECK_EQ_U(fog_to8(f(1.0f / 256.0f)), 1);
    CHECK_EQ_U(fog_to8(f(0.5f)), 128);
    CHECK_EQ_U(fog_to8(f(255.0f / 256.0f - 1.0f / 65536.0f)), 254); /* 254.996 */
    CHECK_EQ_U(fog_to8(f(255.0f / 256.0f)), 255);
    CHECK_EQ_U(fog_to8(f(1.0f - 1.0f / 65536.0f)), 255);
    CHECK_EQ_U(fog_to8(GEMATH_ONE), 255);
    CHECK_EQ_U(fog_to8(f(2.0f)), 255);
    CHECK_EQ_U(fog_to8(GEMATH_MAX), 255);
    CHECK_EQ_U(fog_to8(0x7F800000u), 255); /* IEEE +inf pattern */
    CHECK_EQ_U(fog_to8(0xFF800000u), 0);   /* -inf */
}
