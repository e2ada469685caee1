/* gemath's operations on worked examples (GE-HARDWARE.md §1, §4). Each test
 * also computes what plain IEEE float arithmetic gives and checks that it
 * differs, so the test proves it can tell the GE's arithmetic from IEEE. */
#include <math.h>
#include <string.h>

#include "gemath.h"
#include "test.h"

/* The IEEE bits of a host float. */
static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* A host float given as bits. */
static float float_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* A value in units of 2^-15 as a gefloat (exact for |units| < 2^16). */
static gefloat units15(int32_t units)
{
    return gemath_from_fixed(units, 15);
}

/* §4's example: lerping 1.5 and 0.001 works at 1.5's exponent, whose lowest
 * significand bit is 2^-15, so 0.001 becomes 32 units (0.0009765625). */
TEST(gemath_lerp_s4_example)
{
    const gefloat a = gemath_from_float(1.5f), b = gemath_from_float(0.001f);
    CHECK_EQ_U(a, 0x3FC00000u);
    CHECK_EQ_U(b, 0x3A831200u); /* 0.001 cut to 16 significant bits */
    /* The end points pass through untouched (b is not cut to 32 units). */
    CHECK_EQ_U(gemath_lerp(a, b, 0), a);
    CHECK_EQ_U(gemath_lerp(a, b, 256), b);
    /* Every k in between: A = 49152, B = 32 in units of 2^-15, and the
     * result is A + floor((B - A) * k / 256). */
    for (int k = 1; k < 256; k++) {
        int32_t d = (32 - 49152) * k;
        int32_t fl = d / 256 - (d % 256 != 0); /* floor: d < 0 here */
        CHECK_MSG(gemath_lerp(a, b, (unsigned)k) == units15(49152 + fl),
                  "k=%d: 0x%08X, want %d units of 2^-15", k, gemath_lerp(a, b, (unsigned)k),
                  49152 + fl);
    }
    /* k = 128: 24592 units = 0.75048828125. */
    CHECK_EQ_U(gemath_lerp(a, b, 128), 0x3F402000u);
    CHECK(gemath_to_float(gemath_lerp(a, b, 128)) == 0.75048828125f);
    /* k = 1: floor(-49120 / 256) = -192, not -191 (floor, not truncation). */
    CHECK_EQ_U(gemath_lerp(a, b, 1), units15(48960));
    /* k = 255: 223 units; with 0.001 kept exact it would be 224.9 units. */
    CHECK_EQ_U(gemath_lerp(a, b, 255), units15(223));
    /* IEEE: a + (b - a) * t, in floats, is something else for every k; once
     * cut to the format it still differs where 0.001's lost bits show (k =
     * 255, for one). */
    float fa = gemath_to_float(a), fb = gemath_to_float(b);
    int cut_differs = 0;
    for (int k = 1; k < 256; k++) {
        float ieee = fa + (fb - fa) * ((float)k / 256.0f);
        CHECK(bits_of(ieee) != gemath_lerp(a, b, (unsigned)k));
        cut_differs += gemath_trunc(bits_of(ieee)) != gemath_lerp(a, b, (unsigned)k);
        if (k == 255) CHECK(gemath_trunc(bits_of(ieee)) != gemath_lerp(a, b, 255));
    }
    CHECK(cut_differs > 0);
    /* The same with the signs flipped: symmetric, floor still toward -inf
     * of the difference. */
    CHECK_EQ_U(gemath_lerp(gemath_neg(a), gemath_neg(b), 128), units15(-24592));
    CHECK_EQ_U(gemath_lerp(gemath_neg(a), gemath_neg(b), 1), units15(-48961));
}

/* §1: the adder has no guard bits, so a small operand loses its low bits
 * before the sum. */
TEST(gemath_add_drops_low_bits_first)
{
    const gefloat big = 0x3FC00000u;            /* 1.5, ulp 2^-15 */
    const gefloat quarter_ulp = 0x37000000u;    /* 2^-17 */
    const gefloat five_quarters = 0x38200000u;  /* 2^-15 + 2^-17 = 1.25 ulp */
    /* 1.5 - 0.25 ulp: the small operand truncates to 0 first. */
    CHECK_EQ_U(gemath_add(big, gemath_neg(quarter_ulp)), big);
    CHECK_EQ_U(gemath_add(gemath_neg(quarter_ulp), big), big);
    CHECK_EQ_U(gemath_sub(big, quarter_ulp), big);
    /* Exact then truncated would be 1.5 - 1 ulp; IEEE keeps the bits. */
    float ieee = 1.5f - float_of(quarter_ulp);
    CHECK(bits_of(ieee) != big);
    CHECK_EQ_U(gemath_trunc(bits_of(ieee)), 0x3FBFFF00u);
    /* 1.5 - 1.25 ulp: the operand becomes 1 ulp, the result 1.5 - 1 ulp;
     * sum-then-truncate gives 1.5 - 2 ulp. */
    CHECK_EQ_U(gemath_sub(big, five_quarters), 0x3FBFFF00u);
    ieee = 1.5f - float_of(five_quarters);
    CHECK(bits_of(ieee) != 0x3FBFFF00u);
    CHECK_EQ_U(gemath_trunc(bits_of(ieee)), 0x3FBFFE00u);
    /* Far apart: 2^20 + 1.75 keeps only the bits at 2^20's ulp (2^5). */
    CHECK_EQ_U(gemath_add(0x49800000u, 0x3FE00000u), 0x49800000u);
    CHECK_EQ_U(gemath_sub(0x49800000u, 0x3FE00000u), 0x49800000u);
    CHECK(gemath_trunc(bits_of(1048576.0f - 1.75f)) != 0x49800000u);
}

/* §1: a row sum is one fused sum; no order of pairwise additions, and no
 * IEEE evaluation, gives its result. Here the largest product
 * (-2 * 1.378143311 = -2.756286621) is in [2, 4), so every product is
 * truncated toward zero to 2^-14: -45159 + 30785 + 20502 - 6144 = -16
 * units, -2^-10. */
TEST(gemath_dot4_is_not_pairwise)
{
    const gefloat a[4] = {0xC0000000u, 0x3F800400u, 0x3F800700u, 0xBF800000u};
    const gefloat b[4] = {0x3FB06700u, 0x3FF07C00u, 0x3FA02500u, 0x3EC00000u};
    const gefloat want = 0xBA800000u; /* -0.0009765625 */
    CHECK_EQ_U(gemath_dot4(a, b), want);
    gefloat p[4];
    float fa[4], fb[4];
    for (int i = 0; i < 4; i++) {
        p[i] = gemath_mul(a[i], b[i]);
        fa[i] = gemath_to_float(a[i]);
        fb[i] = gemath_to_float(b[i]);
    }
    /* Every permutation, as a chain ((x+y)+z)+w and as (x+y)+(z+w), with
     * the GE's own multiplier and adder and with IEEE floats. */
    int n = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 4; k++) {
                int l = 6 - i - j - k;
                if (i == j || i == k || j == k || l < 0 || l > 3 || l == i || l == j || l == k)
                    continue;
                n++;
                gefloat chain = gemath_add(gemath_add(gemath_add(p[i], p[j]), p[k]), p[l]);
                gefloat tree = gemath_add(gemath_add(p[i], p[j]), gemath_add(p[k], p[l]));
                CHECK_MSG(chain != want && tree != want, "order %d%d%d%d reproduces the row sum",
                          i, j, k, l);
                float fc = ((fa[i] * fb[i] + fa[j] * fb[j]) + fa[k] * fb[k]) + fa[l] * fb[l];
                float ft = (fa[i] * fb[i] + fa[j] * fb[j]) + (fa[k] * fb[k] + fa[l] * fb[l]);
                CHECK(gemath_trunc(bits_of(fc)) != want && gemath_trunc(bits_of(ft)) != want);
            }
    CHECK_EQ_I(n, 24);
    /* Nor is it the exact sum truncated once (the products are cut first):
     * the exact sum is -0.000876677..., in double without rounding. */
    double exact = 0;
    for (int i = 0; i < 4; i++) exact += (double)fa[i] * fb[i];
    CHECK(exact > -0.0009 && exact < -0.00087);
}

/* §1: truncation is toward zero, also for negative results. */
TEST(gemath_truncates_toward_zero_when_negative)
{
    /* -1.003936768 * 1.007751465 = -1.01171874813...: truncation toward
     * zero keeps -1.011688232 (0x817F); IEEE rounds to -1.01171875 (0x8180),
     * and so would rounding toward -infinity. */
    CHECK_EQ_U(gemath_mul(0xBF808100u, 0x3F80FE00u), 0xBF817F00u);
    CHECK_EQ_U(gemath_mul(0x3F808100u, 0xBF80FE00u), 0xBF817F00u);
    CHECK_EQ_U(gemath_mul(0x3F808100u, 0x3F80FE00u), 0x3F817F00u);
    float ieee = float_of(0xBF808100u) * float_of(0x3F80FE00u);
    CHECK_EQ_U(bits_of(ieee), 0xBF818000u);
    CHECK(gemath_trunc(bits_of(ieee)) != gemath_mul(0xBF808100u, 0x3F80FE00u));
    /* -1.5 + 1.25 ulp: the operand truncates toward zero to +1 ulp. */
    CHECK_EQ_U(gemath_add(0xBFC00000u, 0x38200000u), 0xBFBFFF00u);
    CHECK(gemath_trunc(bits_of(-1.5f + float_of(0x38200000u))) != 0xBFBFFF00u);
    /* A row sum with one product truncates like the multiplier. */
    const gefloat a[4] = {0xBF808100u, 0, 0, 0}, b[4] = {0x3F80FE00u, 0, 0, 0};
    CHECK_EQ_U(gemath_dot4(a, b), 0xBF817F00u);
    /* Conversions: -65537 -> -65536 (17 bits), -1.75 -> -1. */
    CHECK_EQ_U(gemath_from_int(-65537), 0xC7800000u);
    CHECK(bits_of((float)-65537) != 0xC7800000u);
    CHECK_EQ_I(gemath_to_fixed(gemath_from_float(-1.75f), 0), -1);
    CHECK_EQ_I(gemath_to_fixed(gemath_from_float(-1.75f), 1), -3);
    CHECK_EQ_I(gemath_to_fixed(0xBF817F00u, 8), -258); /* -258.99... */
    CHECK(lrintf(float_of(0xBF817F00u) * 256.0f) != -258);
}

/* The row sum's "largest product" ignores zero products, however large the
 * zero's partner: 0 * GEMATH_MAX must not truncate a tiny product away. */
TEST(gemath_dot4_zero_terms_do_not_count)
{
    const gefloat tiny = 0x0D800000u; /* 2^-100 */
    const gefloat a[4] = {tiny, 0, 0x80000000u, 0};
    const gefloat b[4] = {GEMATH_ONE, GEMATH_MAX, GEMATH_MAX, 0x7F800000u};
    CHECK_EQ_U(gemath_dot4(a, b), tiny);
    const gefloat a3[3] = {tiny, 0, 0}, b3[3] = {GEMATH_ONE, GEMATH_MAX, GEMATH_MAX};
    CHECK_EQ_U(gemath_dot3(a3, b3), tiny);
    /* All-zero products give +0. */
    const gefloat z[4] = {0x80000000u, 0, 0x80000000u, 0};
    CHECK_EQ_U(gemath_dot4(z, b), GEMATH_ZERO);
}

/* Small integers, so every product and sum is exact. */
static gefloat gi(int v)
{
    return gemath_from_int(v);
}

/* The 4x3 and 4x4 layouts, and that the matrix products compose in the
 * documented order with one fused row sum per element. */
TEST(gemath_matrix_layout_and_products)
{
    gefloat m[12], p[16], v[4] = {gi(1), gi(10), gi(100), gi(1)}, o3[3], o4[4];
    for (int i = 0; i < 12; i++) m[i] = gi(i + 1);
    for (int i = 0; i < 16; i++) p[i] = gi(i + 1);
    /* x' = m0*x + m3*y + m6*z + m9*w. */
    gemath_mat43_apply(m, v, o3);
    CHECK_EQ_U(o3[0], gi(1 + 40 + 700 + 10));
    CHECK_EQ_U(o3[1], gi(2 + 50 + 800 + 11));
    CHECK_EQ_U(o3[2], gi(3 + 60 + 900 + 12));
    /* x' = p0*x + p4*y + p8*z + p12*w. */
    gemath_mat44_apply(p, v, o4);
    for (int r = 0; r < 4; r++)
        CHECK_EQ_U(o4[r], gi((r + 1) + 10 * (r + 5) + 100 * (r + 9) + (r + 13)));

    /* world = scale 2 and translate (1, 2, 3); view = swap x and y and
     * translate (10, 0, 0). view(world(v)) for v = (1, 10, 100, 1):
     * world -> (3, 22, 203), view -> (32, 3, 203). */
    gefloat world[12] = {gi(2), 0, 0, 0, gi(2), 0, 0, 0, gi(2), gi(1), gi(2), gi(3)};
    gefloat view[12] = {0, gi(1), 0, gi(1), 0, 0, 0, 0, gi(1), gi(10), 0, 0};
    gefloat wv[12];
    gemath_mat43_mul_mat43(world, view, wv);
    gemath_mat43_apply(wv, v, o3);
    CHECK_EQ_U(o3[0], gi(32));
    CHECK_EQ_U(o3[1], gi(3));
    CHECK_EQ_U(o3[2], gi(203));
    /* proj after world*view: a 4x4 whose w row is (0, 0, 1, 0), w' = z. */
    gefloat proj[16] = {gi(1), 0, 0, 0, 0, gi(1), 0, 0, 0, 0, gi(1), gi(1), 0, 0, gi(5), 0};
    gefloat wvp[16];
    gemath_mat44_mul_mat43(proj, wv, wvp);
    gemath_mat44_apply(wvp, v, o4);
    CHECK_EQ_U(o4[0], gi(32));
    CHECK_EQ_U(o4[1], gi(3));
    CHECK_EQ_U(o4[2], gi(208));
    CHECK_EQ_U(o4[3], gi(203));

    /* On arbitrary values each product element is exactly one row sum. */
    uint64_t s = 12345;
    for (int it = 0; it < 2000; it++) {
        gefloat a[12], b[12], q[16], out[16];
        for (int i = 0; i < 16; i++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            gefloat x = (uint32_t)(s >> 32) & 0x807FFF00u; /* sign, mantissa */
            x |= (uint32_t)(120 + (s >> 20) % 16) << 23;
            if (i < 12) {
                a[i] = x;
                b[i] = x ^ 0x00555500u;
            }
            q[i] = x ^ 0x002AAA00u;
        }
        if (it % 7 == 0) a[it % 12] = 0x7F800000u | ((uint32_t)it << 31); /* reads as +-MAX */
        if (it % 5 == 0) q[it % 16] = 0;
        /* Applying a matrix: row r is one row sum over the strided row. */
        gefloat v[4] = {q[0], q[5], a[2], it % 2 ? GEMATH_ONE : b[7]}, o[4];
        gemath_mat43_apply(a, v, o);
        for (int r = 0; r < 3; r++) {
            gefloat row[4] = {a[r], a[3 + r], a[6 + r], a[9 + r]};
            CHECK_EQ_U(o[r], gemath_dot4(row, v));
        }
        gemath_mat44_apply(q, v, o);
        for (int r = 0; r < 4; r++) {
            gefloat row[4] = {q[r], q[4 + r], q[8 + r], q[12 + r]};
            CHECK_EQ_U(o[r], gemath_dot4(row, v));
        }
        gemath_mat43_mul_mat43(a, b, out);
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 3; r++) {
                gefloat row[4] = {b[r], b[3 + r], b[6 + r], b[9 + r]};
                gefloat col[4] = {a[3 * c], a[3 * c + 1], a[3 * c + 2], c == 3 ? GEMATH_ONE : 0};
                CHECK_EQ_U(out[3 * c + r], gemath_dot4(row, col));
            }
        gemath_mat44_mul_mat43(q, a, out);
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++) {
                gefloat row[4] = {q[r], q[4 + r], q[8 + r], q[12 + r]};
                gefloat col[4] = {a[3 * c], a[3 * c + 1], a[3 * c + 2], c == 3 ? GEMATH_ONE : 0};
                CHECK_EQ_U(out[4 * c + r], gemath_dot4(row, col));
            }
    }
}
