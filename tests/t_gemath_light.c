/* gemath's lighting helpers (GE-HARDWARE.md §3): Mitchell's log2 and exp2,
 * the specular power, and the 8-bit product shared with the blender. */
#include <math.h>
#include <string.h>

#include "gemath.h"
#include "test.h"

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static gefloat gf(float f)
{
    return gemath_from_float(f);
}

/* Mitchell's log2 and exp2 are straight lines between powers of two. */
TEST(gemath_mitchell_log2_exp2)
{
    CHECK_EQ_I(gemath_mitchell_log2(GEMATH_ONE), 0);
    CHECK_EQ_I(gemath_mitchell_log2(gf(2.0f)), 32768);
    CHECK_EQ_I(gemath_mitchell_log2(gf(1.5f)), 16384);
    CHECK_EQ_I(gemath_mitchell_log2(gf(3.0f)), 32768 + 16384);
    CHECK_EQ_I(gemath_mitchell_log2(gf(0.75f)), -16384); /* -1 + 0.5 */
    CHECK(lrintf(log2f(0.75f) * 32768.0f) != -16384);   /* true log2: -0.415 */
    CHECK_EQ_I(gemath_mitchell_log2(GEMATH_ZERO), GEMATH_LOG2_NONPOS);
    CHECK_EQ_I(gemath_mitchell_log2(gf(-1.0f)), GEMATH_LOG2_NONPOS);
    CHECK_EQ_I(gemath_mitchell_log2(0x00000001u), GEMATH_LOG2_NONPOS); /* denormal */
    CHECK_EQ_U(gemath_mitchell_exp2(0), GEMATH_ONE);
    CHECK_EQ_U(gemath_mitchell_exp2(-16384), gf(0.75f)); /* 2^-1 * 1.5 */
    CHECK(bits_of(exp2f(-0.5f)) != gf(0.75f));
    CHECK_EQ_U(gemath_mitchell_exp2(-1), 0x3F7FFF00u);   /* 2^-1 * (2 - 2^-15) */
    CHECK_EQ_U(gemath_mitchell_exp2(127 * 32768 + 32767), GEMATH_MAX);
    CHECK_EQ_U(gemath_mitchell_exp2(128 * 32768), GEMATH_MAX);
    CHECK_EQ_U(gemath_mitchell_exp2(-126 * 32768), 0x00800000u);
    CHECK_EQ_U(gemath_mitchell_exp2(-126 * 32768 - 1), GEMATH_ZERO);
    CHECK_EQ_U(gemath_mitchell_exp2(INT32_MIN), GEMATH_ZERO);
    CHECK_EQ_U(gemath_mitchell_exp2(INT32_MAX), GEMATH_MAX);
    /* Linear inside each octave, and exp2 inverts log2 on every positive
     * value of the format. */
    for (uint32_t e = 1; e <= 254; e++)
        for (uint32_t m = 0; m < 0x8000; m++) {
            gefloat x = (e << 23) | (m << 8);
            int32_t l = gemath_mitchell_log2(x);
            CHECK_MSG(l == ((int32_t)e - 127) * 32768 + (int32_t)m, "log2(0x%08X) = %d", x, l);
            CHECK_MSG(gemath_mitchell_exp2(l) == x, "exp2(log2(0x%08X))", x);
        }
}

/* An independent computation of the specular power in host doubles, where
 * every step is exact: the exponent's significand is cut to 5 bits (hidden
 * + GEMATH_SPEC_EXP_MANT_BITS) with frexp/trunc, Mitchell's log2 comes from
 * frexp, the product (at most 28 significant bits) is truncated toward zero
 * to 15 fraction bits, and exp2 is 2^floor(y) * (1 + frac(y)). */
static gefloat spec_reference(gefloat base, gefloat exponent)
{
    double b = gemath_to_float(gemath_trunc(base)), p = gemath_to_float(gemath_trunc(exponent));
    if (p != 0) {
        int e;
        double fr = frexp(p, &e); /* p = fr 2^e, 0.5 <= |fr| < 1 */
        p = ldexp(trunc(ldexp(fr, 5)), e - 5);
    }
    if (p == 0) return GEMATH_ONE;
    if (!(b > 0)) return GEMATH_ZERO;
    int e;
    double fr = frexp(b, &e);
    double l = (e - 1) + (2 * fr - 1);
    double y = trunc(p * l * 32768.0) / 32768.0;
    double i = floor(y);
    if (i + 127 <= 0) return GEMATH_ZERO;
    if (i + 127 >= 255) return GEMATH_MAX;
    return bits_of((float)ldexp(1 + (y - i), (int)i));
}

/* §3: the specular power is exp2(exponent * log2(base)) with Mitchell's
 * approximations and the exponent cut to 4 mantissa bits. */
TEST(gemath_spec_pow)
{
    CHECK_EQ_I(GEMATH_SPEC_EXP_MANT_BITS, 4);
    /* 0.75^3: log2 -0.5, y = -1.5, exp2 = 2^-2 * 1.5 = 0.375 (powf: 0.421875). */
    CHECK_EQ_U(gemath_spec_pow(gf(0.75f), gf(3.0f)), gf(0.375f));
    CHECK(bits_of(powf(0.75f, 3.0f)) != gf(0.375f));
    /* 33 = 1.00001b * 2^5 is cut to 32: 0.75^33 -> 2^-16 (uncut: 1.5 * 2^-17). */
    CHECK_EQ_U(gemath_spec_pow(gf(0.75f), gf(33.0f)), 0x37800000u);
    CHECK_EQ_U(gemath_spec_pow(gf(0.75f), gf(32.0f)), 0x37800000u);
    CHECK(gemath_trunc(bits_of(powf(0.75f, 33.0f))) != 0x37800000u);
    /* 31 = 1.1111b * 2^4 keeps all its bits: y = -15.5. */
    CHECK_EQ_U(gemath_spec_pow(gf(0.75f), gf(31.0f)), 0x37C00000u);
    /* 0.1 = 1.10011...b * 2^-4 is cut to 0.09765625. */
    CHECK_EQ_U(gemath_spec_pow(gf(0.5f), gf(0.1f)), gemath_spec_pow(gf(0.5f), gf(0.09765625f)));
    CHECK_EQ_U(gemath_spec_pow(gf(0.5f), gf(0.09765625f)), gemath_mitchell_exp2(-3200));
    /* Edges of the model (gemath.h). */
    CHECK_EQ_U(gemath_spec_pow(GEMATH_ZERO, GEMATH_ZERO), GEMATH_ONE);
    CHECK_EQ_U(gemath_spec_pow(gf(-0.5f), GEMATH_ZERO), GEMATH_ONE);
    CHECK_EQ_U(gemath_spec_pow(GEMATH_ZERO, gf(5.0f)), GEMATH_ZERO);
    CHECK_EQ_U(gemath_spec_pow(gf(-0.5f), gf(2.0f)), GEMATH_ZERO);
    CHECK_EQ_U(gemath_spec_pow(GEMATH_ONE, gf(1e30f)), GEMATH_ONE);
    CHECK_EQ_U(gemath_spec_pow(gf(0.5f), gf(1000.0f)), GEMATH_ZERO);
    CHECK_EQ_U(gemath_spec_pow(gf(2.0f), gf(200.0f)), GEMATH_MAX);
    CHECK_EQ_U(gemath_spec_pow(gf(0.5f), gf(-2.0f)), gf(4.0f));
    CHECK_EQ_U(gemath_spec_pow(gf(0.8125f), GEMATH_ONE), gf(0.8125f));
    /* Random bases and exponents against the reference. */
    uint64_t s = 0x73706563;
    for (long it = 0; it < 2000000; it++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t r = (uint32_t)(s >> 32);
        gefloat base, ex;
        switch (it % 4) {
        case 0: /* a cosine in (0, 1] and a shininess in [0, 128] */
            base = (uint32_t)(100 + r % 27) << 23 | ((r >> 8) & 0x7FFF) << 8;
            ex = gemath_from_fixed((int32_t)(r >> 9) % (128 << 8), 8);
            break;
        case 1: /* anything, including special values */
            base = r;
            ex = (uint32_t)(s >> 7) & 0xFFFFFFFFu;
            break;
        case 2: /* bases near 1 and large exponents */
            base = (126u + (r & 1)) << 23 | ((r >> 1) & 0x7FFF) << 8;
            ex = (uint32_t)(127 + (r >> 20) % 20) << 23 | ((r >> 3) & 0x7FFF) << 8;
            break;
        default: /* small and negative exponents */
            base = (uint32_t)(110 + r % 30) << 23 | ((r >> 8) & 0x7FFF) << 8;
            ex = (r & 0x80000000u) | (uint32_t)(100 + (r >> 24) % 40) << 23 |
                 ((r >> 5) & 0x7FFF) << 8;
            break;
        }
        gefloat got = gemath_spec_pow(base, ex), want = spec_reference(base, ex);
        CHECK_MSG(got == want, "spec_pow(0x%08X, 0x%08X) = 0x%08X, reference 0x%08X", base, ex,
                  got, want);
    }
}

/* §3: the 8-bit product ((2x + 1)(2s + 1)) >> 10, every pair. */
TEST(gemath_mul8_exhaustive)
{
    for (uint32_t x = 0; x < 256; x++)
        for (uint32_t s = 0; s < 256; s++) {
            uint32_t want = (4 * x * s + 2 * x + 2 * s + 1) / 1024;
            CHECK_MSG(gemath_mul8((uint8_t)x, (uint8_t)s) == want, "mul8(%u, %u)", x, s);
        }
    CHECK_EQ_U(gemath_mul8(255, 255), 255);
    CHECK_EQ_U(gemath_mul8(0, 0), 0);
    CHECK_EQ_U(gemath_mul8(255, 0), 0);
    CHECK_EQ_U(gemath_mul8(128, 128), 64);
    /* Neither x*s/255 rounded nor truncated: */
    CHECK_EQ_U(gemath_mul8(1, 128), 0);  /* 128/255 = 0.502 rounds to 1 */
    CHECK_EQ_U(gemath_mul8(1, 171), 1);  /* 171/255 = 0.67 truncates to 0 */
    CHECK(lrintf(128.0f / 255.0f) == 1 && (int)(171.0f / 255.0f) == 0);
}
