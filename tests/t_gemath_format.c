/* gemath's number format: conversions and the special-value policy
 * (GE-HARDWARE.md §1; the policy is documented in gemath.h). */
#include <string.h>

#include "gemath.h"
#include "test.h"

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float float_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Display-list words, float components and the fixed-point vertex formats. */
TEST(gemath_format_conversions)
{
    /* A display-list payload is the IEEE single's top 24 bits. */
    CHECK_EQ_U(gemath_from_word(0x003F8000u), GEMATH_ONE);
    CHECK_EQ_U(gemath_from_word(0x12BF8000u), 0xBF800000u); /* command byte ignored */
    CHECK_EQ_U(gemath_from_word(0x00400001u), 0x40000100u);
    CHECK_EQ_U(gemath_from_word(0x00000001u), GEMATH_ZERO); /* a denormal */
    /* A float component loses its low 8 bits (truncation toward zero). */
    CHECK_EQ_U(gemath_from_f32bits(0x3F8000FFu), GEMATH_ONE);
    CHECK_EQ_U(gemath_from_f32bits(0xBF8001FFu), 0xBF800100u);
    CHECK(0x3F8000FFu != GEMATH_ONE); /* IEEE would keep them */
    CHECK_EQ_U(gemath_from_float(0.1f), 0x3DCCCC00u);
    CHECK(bits_of(0.1f) != 0x3DCCCC00u);
    CHECK(gemath_to_float(GEMATH_ONE) == 1.0f);
    /* Fixed-point components, every value: s8 and u8 are v/128, s16 and u16
     * v/32768 (exact: at most 16 significant bits). */
    for (int v = -128; v < 128; v++)
        CHECK_MSG(gemath_to_float(gemath_from_s8((int8_t)v)) == (float)v / 128.0f, "s8 %d", v);
    for (int v = 0; v < 256; v++)
        CHECK_MSG(gemath_to_float(gemath_from_u8((uint8_t)v)) == (float)v / 128.0f, "u8 %d", v);
    for (int v = -32768; v < 32768; v++)
        CHECK_MSG(gemath_to_float(gemath_from_s16((int16_t)v)) == (float)v / 32768.0f, "s16 %d",
                  v);
    for (int v = 0; v < 65536; v++)
        CHECK_MSG(gemath_to_float(gemath_from_u16((uint16_t)v)) == (float)v / 32768.0f, "u16 %d",
                  v);
    CHECK_EQ_U(gemath_from_s8(-128), 0xBF800000u);
    CHECK_EQ_U(gemath_from_u16(65535), 0x3FFFFF00u);
    CHECK_EQ_U(gemath_from_s8(0), GEMATH_ZERO);
    /* Every conversion result is canonical. */
    for (int v = -32768; v < 32768; v++) CHECK((gemath_from_s16((int16_t)v) & 0xFFu) == 0);
}

/* Integers and fixed point truncate toward zero to 16 significant bits. */
TEST(gemath_format_integers)
{
    CHECK_EQ_U(gemath_from_int(1), GEMATH_ONE);
    CHECK_EQ_U(gemath_from_int(-1), 0xBF800000u);
    CHECK_EQ_U(gemath_from_int(65535), 0x477FFF00u);
    CHECK_EQ_U(gemath_from_int(65537), 0x47800000u);  /* 17 bits: the low one goes */
    CHECK_EQ_U(gemath_from_int(131071), 0x47FFFF00u); /* 131070 */
    CHECK(bits_of((float)131071) != 0x47FFFF00u);
    CHECK_EQ_U(gemath_from_int(INT32_MIN), 0xCF000000u);
    CHECK_EQ_U(gemath_from_int(INT32_MAX), 0x4EFFFF00u);
    CHECK_EQ_U(gemath_from_fixed(1, 63), 0x20000000u); /* 2^-63 */
    CHECK_EQ_U(gemath_from_fixed(1, 200), 0x20000000u); /* frac_bits above 63 read as 63 */
    CHECK_EQ_U(gemath_from_fixed(24, 4), 0x3FC00000u); /* 1.5 */
    CHECK_EQ_U(gemath_from_fixed(-24, 4), 0xBFC00000u);
    for (int32_t v = -70000; v <= 70000; v += 7) {
        /* Exact up to 16 bits; beyond, |result| <= |v| with 16 bits. */
        float f = gemath_to_float(gemath_from_int(v));
        int32_t back = (int32_t)f;
        int32_t mag = v < 0 ? -v : v, bmag = back < 0 ? -back : back;
        CHECK_MSG(bmag <= mag && mag - bmag <= (mag >> 15) && (back < 0) == (v < 0),
                  "from_int(%d) = %d", v, back);
        if (mag < 65536) CHECK_EQ_I(back, v);
    }
    /* to_fixed: truncation toward zero, saturation. */
    CHECK_EQ_I(gemath_to_fixed(0x3FC00000u, 4), 24);
    CHECK_EQ_I(gemath_to_fixed(0x3FFFFF00u, 4), 31); /* 1.99997 * 16 = 31.9995 */
    CHECK_EQ_I(gemath_to_fixed(0xBFFFFF00u, 4), -31);
    CHECK_EQ_I(gemath_to_fixed(0xBF000000u, 0), 0); /* -0.5 */
    CHECK_EQ_I(gemath_to_fixed(0x4F000000u, 0), INT32_MAX); /* 2^31 saturates */
    CHECK_EQ_I(gemath_to_fixed(0xCF000000u, 0), INT32_MIN); /* -2^31 is exact */
    CHECK_EQ_I(gemath_to_fixed(0xCF800000u, 0), INT32_MIN); /* -2^32 saturates */
    CHECK_EQ_I(gemath_to_fixed(0x4EFFFF00u, 0), 2147450880);
    CHECK_EQ_I(gemath_to_fixed(GEMATH_MAX, 63), INT32_MAX);
    CHECK_EQ_I(gemath_to_fixed(0x2B800000u, 63), 1 << 23); /* 2^-40 * 2^63 */
    CHECK_EQ_I(gemath_to_fixed(0x2B800000u, 99), 1 << 23); /* frac_bits above 63 read as 63 */
    CHECK_EQ_I(gemath_to_fixed(0x00800000u, 63), 0);       /* 2^-126 */
    CHECK_EQ_I(gemath_to_fixed(GEMATH_NEG_ZERO, 4), 0);
    CHECK_EQ_I(gemath_to_fixed(0x7FC00000u, 0), INT32_MAX); /* NaN reads as +MAX */
}

/* The special-value policy of gemath.h, on every operation. IEEE would give
 * infinities, NaNs and denormals instead. */
TEST(gemath_format_special_values)
{
    const uint32_t inf = 0x7F800000u, nan = 0x7FC00000u, denorm = 0x00400000u;
    /* Inputs. */
    CHECK_EQ_U(gemath_trunc(inf), GEMATH_MAX);
    CHECK_EQ_U(gemath_trunc(inf | 0x80000000u), GEMATH_MAX | 0x80000000u);
    CHECK_EQ_U(gemath_trunc(nan), GEMATH_MAX);
    CHECK_EQ_U(gemath_trunc(0xFFC12345u), GEMATH_MAX | 0x80000000u);
    CHECK_EQ_U(gemath_trunc(denorm), GEMATH_ZERO);
    CHECK_EQ_U(gemath_trunc(denorm | 0x80000000u), GEMATH_NEG_ZERO);
    CHECK_EQ_U(gemath_trunc(0x000000FFu), GEMATH_ZERO);
    CHECK_EQ_U(gemath_mul(inf, 0x40000000u), GEMATH_MAX);
    CHECK(bits_of(float_of(inf) * 2.0f) == inf);
    CHECK_EQ_U(gemath_mul(nan, GEMATH_ZERO), GEMATH_ZERO);
    CHECK_EQ_U(gemath_add(inf, inf | 0x80000000u), GEMATH_ZERO);
    CHECK(float_of(inf) + float_of(inf | 0x80000000u) != 0.0f); /* NaN */
    CHECK_EQ_U(gemath_add(denorm, GEMATH_ONE), GEMATH_ONE);
    CHECK_EQ_U(gemath_mul(denorm, 0x7E800000u), GEMATH_ZERO); /* 2^-127 * 2^126 */
    CHECK(float_of(denorm) * float_of(0x7E800000u) != 0.0f);
    /* Overflow saturates with the sign of the exact result. */
    CHECK_EQ_U(gemath_mul(GEMATH_MAX, 0x40000000u), GEMATH_MAX);
    CHECK_EQ_U(gemath_mul(GEMATH_MAX, 0xC0000000u), GEMATH_MAX | 0x80000000u);
    CHECK_EQ_U(gemath_add(GEMATH_MAX, GEMATH_MAX), GEMATH_MAX);
    CHECK_EQ_U(gemath_sub(GEMATH_MAX | 0x80000000u, GEMATH_MAX), GEMATH_MAX | 0x80000000u);
    const gefloat big[4] = {GEMATH_MAX, GEMATH_MAX, 0, 0}, two[4] = {0x40000000u, GEMATH_ONE, 0, 0};
    CHECK_EQ_U(gemath_dot4(big, two), GEMATH_MAX);
    CHECK_EQ_U(gemath_lerp(GEMATH_MAX, inf | 0x80000000u, 1), 0x7F7DFF00u);
    CHECK_EQ_U(gemath_from_fixed(INT32_MIN, 0), 0xCF000000u);
    /* Underflow gives a zero with the sign of the exact result (no denormals). */
    CHECK_EQ_U(gemath_mul(0x19800000u, 0x19800000u), GEMATH_ZERO);     /* 2^-76 squared */
    CHECK_EQ_U(gemath_mul(0x99800000u, 0x19800000u), GEMATH_NEG_ZERO);
    CHECK_EQ_U(gemath_mul(0x00800000u, 0x3F7FFF00u), GEMATH_ZERO);     /* just below 2^-126 */
    CHECK_EQ_U(gemath_mul(0x00800000u, GEMATH_ONE), 0x00800000u);
    CHECK_EQ_U(gemath_sub(0x00808000u, 0x00800000u), GEMATH_ZERO);    /* 2^-134: no denormals */
    CHECK_EQ_U(gemath_sub(0x00800000u, 0x00808000u), GEMATH_NEG_ZERO);
    CHECK(float_of(0x00808000u) - float_of(0x00800000u) != 0.0f);
    /* Zero signs. */
    CHECK_EQ_U(gemath_mul(GEMATH_NEG_ZERO, GEMATH_ONE), GEMATH_NEG_ZERO);
    CHECK_EQ_U(gemath_mul(GEMATH_NEG_ZERO, 0xBF800000u), GEMATH_ZERO);
    CHECK_EQ_U(gemath_add(GEMATH_NEG_ZERO, GEMATH_NEG_ZERO), GEMATH_ZERO);
    CHECK_EQ_U(gemath_sub(GEMATH_ONE, GEMATH_ONE), GEMATH_ZERO);
    CHECK_EQ_U(gemath_add(0xBF800000u, GEMATH_ONE), GEMATH_ZERO);
    CHECK_EQ_U(gemath_neg(GEMATH_ZERO), GEMATH_NEG_ZERO);
    CHECK_EQ_U(gemath_abs(GEMATH_NEG_ZERO), GEMATH_ZERO);
    CHECK_EQ_U(gemath_lerp(GEMATH_NEG_ZERO, GEMATH_ONE, 0), GEMATH_NEG_ZERO);
    CHECK_EQ_U(gemath_lerp(GEMATH_NEG_ZERO, GEMATH_NEG_ZERO, 7), GEMATH_ZERO);
    CHECK_EQ_U(gemath_lerp(GEMATH_ONE, 0xBF800000u, 128), GEMATH_ZERO);
    /* Lerp end points are canonicalised. */
    CHECK_EQ_U(gemath_lerp(0x3F8000FFu, 0, 0), GEMATH_ONE);
    CHECK_EQ_U(gemath_lerp(0, nan, 256), GEMATH_MAX);
    CHECK_EQ_U(gemath_lerp(0, 0x3F8000FFu, 300), GEMATH_ONE); /* k > 256 reads as 256 */
    /* Reciprocals of zero and of negatives. */
    CHECK_EQ_U(gemath_recip(GEMATH_ZERO), GEMATH_MAX);
    CHECK_EQ_U(gemath_recip(GEMATH_NEG_ZERO), GEMATH_MAX | 0x80000000u);
    CHECK_EQ_U(gemath_recip(denorm), GEMATH_MAX);
    CHECK_EQ_U(gemath_recip(0xC0000000u), 0xBF000000u); /* -2 -> -0.5 */
    CHECK_EQ_U(gemath_recip(0x7E800000u), 0x00800000u); /* 2^126 -> 2^-126 */
    CHECK_EQ_U(gemath_recip(0x7EC00000u), GEMATH_ZERO); /* 1.5 * 2^126 -> below 2^-126 */
    CHECK_EQ_U(gemath_recip(inf), GEMATH_ZERO);
    CHECK_EQ_U(gemath_recip(0x00800000u), 0x7E800000u);
    CHECK(bits_of(1.0f / 0.0f) == inf);
    CHECK_EQ_U(gemath_rsqrt(GEMATH_ZERO), GEMATH_MAX);
    CHECK_EQ_U(gemath_rsqrt(GEMATH_NEG_ZERO), GEMATH_MAX);
    CHECK_EQ_U(gemath_rsqrt(0xC0800000u), 0x3F000000u); /* |-4| -> 0.5 */
    CHECK_EQ_U(gemath_rsqrt(0x00800000u), 0x5F000000u); /* 2^-126 -> 2^63 */
    CHECK_EQ_U(gemath_rsqrt(inf), 0x1F800000u);         /* reads as GEMATH_MAX */
}

/* Sign, magnitude and ordering helpers. */
TEST(gemath_format_compare)
{
    CHECK_EQ_I(gemath_cmp(GEMATH_ZERO, GEMATH_NEG_ZERO), 0);
    CHECK_EQ_I(gemath_cmp(GEMATH_ONE, GEMATH_ZERO), 1);
    CHECK_EQ_I(gemath_cmp(0xBF800000u, GEMATH_NEG_ZERO), -1);
    CHECK_EQ_I(gemath_cmp(0xC0000000u, 0xBF800000u), -1);
    CHECK_EQ_I(gemath_cmp(0x3F8000FFu, GEMATH_ONE), 0); /* low bits do not exist */
    CHECK_EQ_I(gemath_cmp(0x7F800000u, GEMATH_MAX), 0); /* infinity reads as MAX */
    CHECK_EQ_I(gemath_cmp(0x00000001u, GEMATH_NEG_ZERO), 0);
    uint32_t s = 99;
    for (int i = 0; i < 100000; i++) {
        s = s * 1103515245u + 12345u;
        uint32_t a = gemath_trunc(s), b = gemath_trunc(s * 2654435761u);
        float fa = gemath_to_float(a), fb = gemath_to_float(b);
        CHECK_EQ_I(gemath_cmp(a, b), (fa > fb) - (fa < fb));
        CHECK_EQ_U(gemath_neg(a), bits_of(-fa));
        CHECK_EQ_U(gemath_abs(a), a & 0x7FFFFFFFu);
    }
}
