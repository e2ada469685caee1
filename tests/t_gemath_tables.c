/* gemath's reciprocal tables (GE-HARDWARE.md §1, §2): exhaustive checks
 * against exact integer computations, and pins of the model constants that
 * GE-HARDWARE.md leaves open (gemath.c), so that changing one fails here. */
#include <string.h>

#include "gemath.h"
#include "test.h"

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* The gefloat with biased exponent e and 16-bit significand m. */
static gefloat make(uint32_t e, uint32_t m)
{
    return (e << 23) | ((m & 0x7FFFu) << 8);
}

static uint32_t sig_of(gefloat x)
{
    return ((x >> 8) & 0x7FFFu) | 0x8000u;
}

static uint32_t exp_of(gefloat x)
{
    return (x >> 23) & 0xFFu;
}

/* The reciprocal on every significand: within one unit of the exact 1/x,
 * exactly the truncated 1/x at each of the 128 segment starts, monotonic,
 * and the same significand at every exponent. */
TEST(gemath_recip_table)
{
    gefloat prev = 0xFFFFFFFFu;
    int differs_from_ieee = 0;
    for (uint32_t m = 0x8000; m <= 0xFFFF; m++) {
        gefloat x = make(127, m), r = gemath_recip(x);
        uint64_t R = sig_of(r);
        int er = (int)exp_of(r);
        /* x = m 2^-15, r = R 2^(er-142); 1/x in units of r's ulp is
         * 2^P / m with P = 284 - 127 - er. */
        int P = 284 - 127 - er;
        CHECK_MSG(P == 30 || P == 31, "m=0x%04X: exponent %d", m, er);
        uint64_t two_p = 1ull << P;
        uint64_t rm = R * m;
        CHECK_MSG(rm < two_p + m && rm + m > two_p, "m=0x%04X: recip 0x%08X is not within 1 unit",
                  m, r);
        if ((m & 255) == 0)
            CHECK_MSG(rm <= two_p && two_p < rm + m, "m=0x%04X: segment start 0x%08X not exact",
                      m, r);
        CHECK_MSG(r <= prev, "m=0x%04X: not monotonic", m);
        prev = r;
        differs_from_ieee += gemath_trunc(bits_of(1.0f / gemath_to_float(x))) != r;
        /* Scaling by powers of two changes only the exponent. */
        for (uint32_t e = 2; e <= 252; e += 10) {
            gefloat rs = gemath_recip(make(e, m));
            CHECK_MSG(sig_of(rs) == R && exp_of(rs) == (uint32_t)er + 127 - e,
                      "recip(e=%u m=0x%04X) = 0x%08X", e, m, rs);
            CHECK_EQ_U(gemath_recip(make(e, m) | 0x80000000u), rs | 0x80000000u);
        }
    }
    /* A linear interpolator, not a divider: IEEE's truncated 1/x differs. */
    CHECK(differs_from_ieee > 1000);
}

/* The reciprocal square root on every significand of both exponent
 * parities, i.e. over [1, 4): within one unit of the exact value, exact at
 * segment starts, monotonic across both halves, and scaling by 4 halves it. */
TEST(gemath_rsqrt_table)
{
    gefloat prev = 0xFFFFFFFFu;
    int differs_from_ieee = 0;
    for (uint32_t e = 127; e <= 128; e++)
        for (uint32_t m = 0x8000; m <= 0xFFFF; m++) {
            gefloat x = make(e, m), r = gemath_rsqrt(x);
            uint64_t R = sig_of(r);
            int er = (int)exp_of(r);
            /* (x^-1/2 in units of r's ulp)^2 = 2^Q / m, Q = 426 - 2 er - e. */
            int Q = 426 - 2 * er - (int)e;
            CHECK_MSG(Q >= 44 && Q <= 47, "e=%u m=0x%04X: exponent %d", e, m, er);
            uint64_t two_q = 1ull << Q;
            CHECK_MSG((R - 1) * (R - 1) * m < two_q && two_q < (R + 1) * (R + 1) * m,
                      "e=%u m=0x%04X: rsqrt 0x%08X is not within 1 unit", e, m, r);
            if ((m & 255) == 0)
                CHECK_MSG(R * R * m <= two_q && two_q < (R + 1) * (R + 1) * m,
                          "e=%u m=0x%04X: segment start 0x%08X not exact", e, m, r);
            CHECK_MSG(r <= prev, "e=%u m=0x%04X: not monotonic", e, m);
            prev = r;
            float ieee = 1.0f / __builtin_sqrtf(gemath_to_float(x));
            differs_from_ieee += gemath_trunc(bits_of(ieee)) != r;
            for (uint32_t k = 1; k <= 62; k += 3) {
                /* x * 4^k -> r / 2^k, x / 4^k -> r * 2^k. */
                CHECK_EQ_U(gemath_rsqrt(make(e + 2 * k, m)), r - (k << 23));
                CHECK_EQ_U(gemath_rsqrt(make(e - 2 * k, m)), r + (k << 23));
            }
        }
    CHECK(differs_from_ieee > 1000);
}

__extension__ typedef unsigned __int128 u128;

/* floor(sqrt(n)) by correcting a floating-point estimate. */
static uint64_t isqrt128(u128 n)
{
    uint64_t x = (uint64_t)__builtin_sqrt((double)n);
    while ((u128)x * x > n) x--;
    while ((u128)(x + 1) * (x + 1) <= n) x++;
    return x;
}

/* The model of gemath.c's 128-segment tables, written out independently:
 * knots at m_i = 2^15 + 256 i with 16 extra fraction bits, value at
 * m = m_i + j the weighted mean (K_i (256 - j) + K_{i+1} j) / 256, floored. */
static uint32_t seg_model(int which, uint32_t m)
{
    uint32_t i = (m - 0x8000u) / 256, j = (m - 0x8000u) % 256;
    uint64_t k[2];
    for (int t = 0; t < 2; t++) {
        uint32_t mi = 0x8000u + 256u * (i + (uint32_t)t);
        if (which == 0) k[t] = (1ull << 47) / mi;                    /* 2^31/m << 16 */
        else if (which == 1) k[t] = isqrt128(((u128)1 << 79) / mi);  /* even exponent */
        else k[t] = isqrt128(((u128)1 << 78) / mi);                  /* odd exponent */
    }
    return (uint32_t)((k[0] * (256 - j) + k[1] * j) >> 24);
}

/* Pins the 128-segment tables' model constants (gemath.c: SEG_FRAC_BITS,
 * the knot functions, one rsqrt table per exponent parity). The values
 * were computed from the model's definition with exact integers; a
 * different constant changes them (the alternatives are in comments). */
TEST(gemath_table_model_pinned)
{
    /* 1/3 = 43690 * 2^-17 (the table agrees with truncation here). */
    CHECK_EQ_U(gemath_recip(0x40400000u), 0x3EAAAA00u);
    /* m = 0x8041: the chord gives 65407, the truncated exact value is
     * 65406, and knots without extra fraction bits would give 65406. */
    CHECK_EQ_U(gemath_recip(0x3F804100u), 0x3F7F7F00u);
    CHECK(gemath_trunc(bits_of(1.0f / 1.001983642578125f)) == 0x3F7F7E00u);
    /* rsqrt(2) from the odd-exponent table: 46340 * 2^-16. */
    CHECK_EQ_U(gemath_rsqrt(0x40000000u), 0x3F350400u);
    /* rsqrt(2 (1 + 2^-15)): 46340 (knots without fraction bits: 46339). */
    CHECK_EQ_U(gemath_rsqrt(0x40000100u), 0x3F350400u);
    /* rsqrt(1.5) = 53509 * 2^-16 and rsqrt(3) = 37837 * 2^-16. */
    CHECK_EQ_U(gemath_rsqrt(0x3FC00000u), 0x3F510500u);
    CHECK_EQ_U(gemath_rsqrt(0x40400000u), 0x3F13CD00u);
    /* m = 0x80AC, even exponent: 65365 (without fraction bits: 65364). */
    CHECK_EQ_U(gemath_rsqrt(0x3F80AC00u), 0x3F7F5500u);
    /* Every significand of all three tables equals the model written out
     * above (at exponent 127 a table value v < 2^16 is the result v * 2^-16,
     * and v = 2^16 is 1.0). */
    for (uint32_t m = 0x8000; m <= 0xFFFF; m++) {
        uint32_t want = seg_model(0, m);
        gefloat r = gemath_recip(make(127, m));
        CHECK_MSG(want == 65536 ? r == make(127, 0x8000) : r == make(126, want),
                  "recip m=0x%04X: 0x%08X, model %u", m, r, want);
        want = seg_model(1, m);
        r = gemath_rsqrt(make(127, m));
        CHECK_MSG(want == 65536 ? r == make(127, 0x8000) : r == make(126, want),
                  "rsqrt even m=0x%04X: 0x%08X, model %u", m, r, want);
        want = seg_model(2, m);
        r = gemath_rsqrt(make(128, m));
        CHECK_MSG(r == make(126, want), "rsqrt odd m=0x%04X: 0x%08X, model %u", m, r, want);
    }
    /* Exact powers of two stay exact. */
    CHECK_EQ_U(gemath_recip(0x40800000u), 0x3E800000u);
    CHECK_EQ_U(gemath_rsqrt(0x40800000u), 0x3F000000u);
    CHECK_EQ_U(gemath_rsqrt(0x3E800000u), 0x40000000u);
}

/* What the area table should give for index n, computed from §2's rule and
 * gemath.c's documented model choices (exact function 2^35 / n; first
 * segment exact, index 0 as index 1), with plain 64-bit integers. */
static uint64_t area_expected(uint32_t n)
{
    const uint64_t one = 1ull << 35;
    if (n < 256) return one / (n ? n : 1);
    uint32_t s = n / 256, j = n % 256;
    uint64_t k0 = one / (256ull * s) / 16 * 16;
    uint64_t k1 = one / (256ull * (s + 1)) / 16 * 16;
    /* The line from k0 (at j = 0) towards k1 (at j = 256), floored. */
    int64_t num = (int64_t)k0 * 256 - ((int64_t)k0 - (int64_t)k1) * j;
    return (uint64_t)(num / 256);
}

/* The triangle-area reciprocal on all 65536 indices. */
TEST(gemath_area_table)
{
    const uint64_t one = 1ull << 35;
    uint64_t prev = UINT64_MAX;
    for (uint32_t n = 0; n < 65536; n++) {
        uint64_t v = gemath_area_recip((uint16_t)n);
        CHECK_MSG(v == area_expected(n), "area_recip(%u) = %llu, expected %llu", n,
                  (unsigned long long)v, (unsigned long long)area_expected(n));
        CHECK_MSG(v <= prev, "area_recip not monotonic at %u", n);
        prev = v;
        if (n < 256) continue;
        uint32_t s = n >> 8;
        /* Knots: the exact reciprocal rounded down to a multiple of 16. */
        if ((n & 255) == 0) {
            CHECK_EQ_U(v % 16, 0);
            CHECK_MSG(v <= one / n && one / n < v + 16, "knot %u", n);
        }
        /* Below the exact value by less than a knot step plus one unit;
         * above it by at most the chord's bulge 2^25 / s^3 (rounded up). */
        CHECK_MSG((v + 17) * n > one, "area_recip(%u) = %llu too low", n, (unsigned long long)v);
        uint64_t bulge = (1ull << 25) / ((uint64_t)s * s * s) + 1;
        CHECK_MSG(v * n <= one + bulge * n, "area_recip(%u) = %llu too high", n,
                  (unsigned long long)v);
        /* Normalised indices (upper half): within one knot unit (16) plus
         * the final truncation of the exact 2^35 / n. */
        if (n >= 32768) CHECK_MSG(v * n < one + 17 * n, "area_recip(%u) high", n);
    }
    /* The rounding of the knots is visible: 2^35 / 768 = 44739242.67. */
    CHECK_EQ_U(gemath_area_recip(768), 44739232u);
    CHECK(gemath_area_recip(768) != (uint64_t)(34359738368.0 / 768.0));
}

/* Pins the area table's model choices (gemath.h GEMATH_AREA_RECIP_LOG2,
 * gemath.c's first segment) and the 32-bit wrapper. */
TEST(gemath_area_model_pinned)
{
    CHECK_EQ_I(GEMATH_AREA_RECIP_LOG2, 35);
    CHECK_EQ_U(gemath_area_recip(0), 1ull << 35);      /* first segment: index 0 as 1 */
    CHECK_EQ_U(gemath_area_recip(1), 1ull << 35);
    CHECK_EQ_U(gemath_area_recip(3), 11453246122u);    /* floor(2^35 / 3) */
    CHECK_EQ_U(gemath_area_recip(255), 134744072u);    /* floor(2^35 / 255) */
    CHECK_EQ_U(gemath_area_recip(256), 134217728u);    /* 2^27 */
    CHECK_EQ_U(gemath_area_recip(384), 100663296u);    /* mid segment 1 (exact: 89478485) */
    CHECK_EQ_U(gemath_area_recip(32768), 1048576u);    /* 2^20 */
    CHECK_EQ_U(gemath_area_recip(65535), 524296u);
    unsigned sh = 99;
    CHECK_EQ_U(gemath_area_recip32(1000, &sh), gemath_area_recip(1000));
    CHECK_EQ_U(sh, 0);
    CHECK_EQ_U(gemath_area_recip32(65535, &sh), gemath_area_recip(65535));
    CHECK_EQ_U(sh, 0);
    CHECK_EQ_U(gemath_area_recip32(65536, &sh), gemath_area_recip(32768));
    CHECK_EQ_U(sh, 1);
    CHECK_EQ_U(gemath_area_recip32(0x12345678u, &sh), gemath_area_recip(0x91A2));
    CHECK_EQ_U(sh, 13);
    CHECK_EQ_U(gemath_area_recip32(0xFFFFFFFFu, &sh), gemath_area_recip(0xFFFF));
    CHECK_EQ_U(sh, 16);
    CHECK_EQ_U(gemath_area_recip32(0, &sh), 1ull << 35);
    CHECK_EQ_U(sh, 0);
}
