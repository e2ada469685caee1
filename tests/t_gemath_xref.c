/* gemath against an independent exact reference on 10 million pseudo-random
 * inputs per operation (GE-HARDWARE.md §1, §4).
 *
 * The reference works on exact values (-1)^neg * mag * 2^exp with 128-bit
 * integers and a 24-bit significand view of the IEEE bits; it applies each
 * rule as GE-HARDWARE.md states it (find the largest magnitude, truncate
 * toward zero with C's signed division by a power of two, add exactly, then
 * truncate to 16 significant bits) and shares no code with the module.
 * Inputs are drawn with a fixed seed (splitmix64) to cover equal and wide
 * exponent differences, cancellation, both signs, zeros, the ends of the
 * exponent range, stray low bits and the special values. The matrix
 * products are checked row by row against the same row-sum reference. */
#include <limits.h>
#include <string.h>

#include "gemath.h"
#include "test.h"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

#define XREF_ITERATIONS 10000000L

/* ---- The reference ---- */

/* An exact value (-1)^neg * mag * 2^exp. */
struct exact {
    int neg;
    u128 mag;
    int exp;
};

/* Reads IEEE bits with gemath.h's special-value policy. */
static struct exact ref_decode(uint32_t bits)
{
    struct exact x = {(int)(bits >> 31), 0, 0};
    int e = (int)((bits >> 23) & 0xFF);
    if (e == 0) return x; /* zero or denormal: a zero of that sign */
    if (e == 255) {       /* infinity or NaN: the largest finite magnitude */
        x.mag = 0xFFFF00;
        x.exp = 254 - 150;
        return x;
    }
    x.mag = (bits & 0x7FFF00u) | 0x800000u; /* the low 8 bits do not exist */
    x.exp = e - 150;
    return x;
}

/* Position of the highest set bit of v > 0. */
static int ref_topbit(u128 v)
{
    int t = -1;
    while (v) {
        v >>= 1;
        t++;
    }
    return t;
}

/* floor(log2(|x|)) of a nonzero exact value. */
static int ref_log2(struct exact x)
{
    return ref_topbit(x.mag) + x.exp;
}

/* Truncates the exact value (-1)^neg * mag * 2^exp toward zero to 16
 * significant bits and encodes it, with the range policy of gemath.h. */
static uint32_t ref_encode(int neg, u128 mag, int exp)
{
    uint32_t s = neg ? 0x80000000u : 0;
    if (mag == 0) return s;
    int t = ref_topbit(mag), u = t + exp;
    if (u < -126) return s;
    if (u > 127) return s | 0x7F7FFF00u;
    u128 q = t >= 15 ? mag >> (t - 15) : mag << (15 - t);
    return s | ((uint32_t)(u + 127) << 23) | (((uint32_t)q - 0x8000u) << 8);
}

/* The signed value of x in units of 2^(exp of x). */
static i128 ref_signed(struct exact x)
{
    return x.neg ? -(i128)x.mag : (i128)x.mag;
}

/* v / 2^k for k >= 0, truncated toward zero (C division). */
static i128 ref_tdiv(i128 v, int k)
{
    if (k >= 120) return 0;
    return v / ((i128)1 << k);
}

/* Encodes a signed multiple of 2^exp; an exact zero is +0. */
static uint32_t ref_encode_signed(i128 v, int exp)
{
    return v < 0 ? ref_encode(1, (u128)-v, exp) : ref_encode(0, (u128)v, exp);
}

static uint32_t ref_mul(uint32_t a, uint32_t b)
{
    struct exact x = ref_decode(a), y = ref_decode(b);
    return ref_encode(x.neg ^ y.neg, x.mag * y.mag, x.exp + y.exp);
}

static uint32_t ref_add(uint32_t a, uint32_t b)
{
    struct exact x = ref_decode(a), y = ref_decode(b);
    if (!x.mag && !y.mag) return 0;
    /* The ulp of the operand with the larger magnitude. */
    int big = !y.mag ? ref_log2(x) : !x.mag ? ref_log2(y)
              : ref_log2(x) > ref_log2(y) ? ref_log2(x) : ref_log2(y);
    int ulp = big - 15;
    i128 qx = x.mag ? ref_tdiv(ref_signed(x), ulp - x.exp) : 0;
    i128 qy = y.mag ? ref_tdiv(ref_signed(y), ulp - y.exp) : 0;
    return ref_encode_signed(qx + qy, ulp);
}

static uint32_t ref_dot4(const uint32_t a[4], const uint32_t b[4])
{
    struct exact p[4];
    int have = 0, big = INT_MIN;
    for (int i = 0; i < 4; i++) {
        struct exact x = ref_decode(a[i]), y = ref_decode(b[i]);
        p[i].neg = x.neg ^ y.neg;
        p[i].mag = x.mag * y.mag;
        p[i].exp = x.exp + y.exp;
        if (p[i].mag) {
            int l = ref_log2(p[i]);
            if (!have || l > big) big = l;
            have = 1;
        }
    }
    if (!have) return 0;
    int ulp = big - 15; /* the ulp of the largest product */
    i128 sum = 0;
    for (int i = 0; i < 4; i++)
        if (p[i].mag) sum += ref_tdiv(ref_signed(p[i]), ulp - p[i].exp);
    return ref_encode_signed(sum, ulp);
}

static uint32_t ref_canon(uint32_t a)
{
    struct exact x = ref_decode(a);
    return ref_encode(x.neg, x.mag, x.exp);
}

static uint32_t ref_lerp(uint32_t a, uint32_t b, unsigned k)
{
    if (k == 0) return ref_canon(a);
    if (k >= 256) return ref_canon(b);
    struct exact x = ref_decode(a), y = ref_decode(b);
    if (!x.mag && !y.mag) return 0;
    int big = !y.mag ? ref_log2(x) : !x.mag ? ref_log2(y)
              : ref_log2(x) > ref_log2(y) ? ref_log2(x) : ref_log2(y);
    int unit = big - 15; /* the larger exponent's lowest significand bit */
    i128 A = x.mag ? ref_tdiv(ref_signed(x), unit - x.exp) : 0;
    i128 B = y.mag ? ref_tdiv(ref_signed(y), unit - y.exp) : 0;
    i128 d = (B - A) * (i128)k;
    i128 q = d / 256;
    if (d % 256 != 0 && d < 0) q -= 1; /* floor */
    return ref_encode_signed(A + q, unit);
}

/* ---- Inputs ---- */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t rng_below(uint32_t n)
{
    return (uint32_t)(rng_next() % n);
}

/* 15 stored mantissa bits: random, sparse or at the extremes. */
static uint32_t rand_mant(void)
{
    switch (rng_below(8)) {
    case 0: return 0;
    case 1: return 0x7FFF;
    case 2: return 1u << rng_below(15);
    case 3: return 0x7FFFu >> rng_below(15);
    default: return (uint32_t)rng_next() & 0x7FFF;
    }
}

/* A special or degenerate bit pattern. */
static uint32_t rand_special(void)
{
    uint32_t s = (uint32_t)rng_next() & 0x80000000u;
    switch (rng_below(4)) {
    case 0: return s;                                         /* zero */
    case 1: return s | ((uint32_t)rng_next() & 0x7FFFFF);     /* denormal */
    case 2: return s | 0x7F800000u;                           /* infinity */
    default: return s | 0x7F800000u | ((uint32_t)rng_next() & 0x7FFFFF) | 1u; /* NaN */
    }
}

/* When set, rand_near draws no special values (gemath_xref_lerp8 uses it
 * for whole vectors of ordinary lanes). */
static int no_specials;

/* A value with biased exponent near `e` (clamped to 1..254), random sign. */
static uint32_t rand_near(int e, int spread)
{
    if (!no_specials && rng_below(40) == 0) return rand_special();
    int ex = e + (spread ? (int)rng_below(2u * (uint32_t)spread + 1) - spread : 0);
    ex = ex < 1 ? 1 : ex > 254 ? 254 : ex;
    uint32_t v = ((uint32_t)rng_next() & 0x80000000u) | ((uint32_t)ex << 23) | (rand_mant() << 8);
    if (rng_below(16) == 0) v |= (uint32_t)rng_next() & 0xFF; /* stray low bits */
    return v;
}

/* A centre exponent: mostly mid-range, sometimes anywhere or near the ends. */
static int rand_centre(void)
{
    switch (rng_below(10)) {
    case 0: return 1 + (int)rng_below(254);
    case 1: return 1 + (int)rng_below(30);
    case 2: return 225 + (int)rng_below(30);
    default: return 100 + (int)rng_below(55);
    }
}

/* A partner for `a`: independent, nearby, far away, or nearly cancelling. */
static uint32_t rand_partner(uint32_t a)
{
    int ea = (int)((a >> 23) & 0xFF);
    switch (rng_below(6)) {
    case 0: return rand_near(rand_centre(), 0);
    case 1: return rand_near(ea, 2);
    case 2: return rand_near(ea, 40);
    case 3: /* -a with a few low bits changed */
        return (a ^ 0x80000000u ^ (((uint32_t)rng_next() & 0xF) << 8)) & ~0xFFu;
    case 4: /* a with the sign flipped and an exponent one apart */
        return ea > 1 && ea < 254 ? (a ^ 0x80000000u) + (rng_below(2) ? 0x800000u : 0u - 0x800000u)
                                  : a;
    default: return rand_near(ea, 16);
    }
}

/* ---- Tests ---- */

TEST(gemath_xref_mul)
{
    rng_state = 0x6d756c;
    for (long i = 0; i < XREF_ITERATIONS; i++) {
        uint32_t a = rand_near(rand_centre(), 30), b;
        /* Products around 1, at both ends of the range, and anywhere. */
        int ea = (int)((a >> 23) & 0xFF);
        b = rng_below(2) ? rand_near(254 - ea, 3) : rand_near(rand_centre(), 30);
        uint32_t got = gemath_mul(a, b), want = ref_mul(a, b);
        CHECK_MSG(got == want, "mul(0x%08X, 0x%08X) = 0x%08X, reference 0x%08X (i=%ld)", a, b,
                  got, want, i);
    }
}

TEST(gemath_xref_add)
{
    rng_state = 0x616464;
    for (long i = 0; i < XREF_ITERATIONS; i++) {
        uint32_t a = rand_near(rand_centre(), 0), b = rand_partner(a);
        if (rng_below(2)) {
            uint32_t t = a;
            a = b;
            b = t;
        }
        uint32_t got = gemath_add(a, b), want = ref_add(a, b);
        CHECK_MSG(got == want, "add(0x%08X, 0x%08X) = 0x%08X, reference 0x%08X (i=%ld)", a, b,
                  got, want, i);
        got = gemath_sub(a, b);
        want = ref_add(a, b ^ 0x80000000u);
        CHECK_MSG(got == want, "sub(0x%08X, 0x%08X) = 0x%08X, reference 0x%08X (i=%ld)", a, b,
                  got, want, i);
    }
}

/* Checks gemath_mat44_apply and gemath_mat43_apply (which have their own
 * AVX2 path: four row sums side by side) against the reference: row r of
 * the matrix is rows[r], the vector is v. */
static void xref_mat_apply(const uint32_t rows[4][4], const uint32_t v[4], long i)
{
    gefloat m44[16], m43[12], o[4];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            m44[4 * c + r] = rows[r][c];
            if (r < 3) m43[3 * c + r] = rows[r][c];
        }
    int n = i % 2 ? 3 : 4;
    if (n == 4)
        gemath_mat44_apply(m44, v, o);
    else
        gemath_mat43_apply(m43, v, o);
    for (int r = 0; r < n; r++) {
        uint32_t want = ref_dot4(rows[r], v);
        CHECK_MSG(o[r] == want,
                  "mat4%d_apply row %d (%08X %08X %08X %08X . %08X %08X %08X %08X) = 0x%08X, "
                  "reference 0x%08X (i=%ld)",
                  n - 1, r, rows[r][0], rows[r][1], rows[r][2], rows[r][3], v[0], v[1], v[2], v[3],
                  o[r], want, i);
    }
}

TEST(gemath_xref_dot4)
{
    /* The matrix checks use the last four a vectors as rows. */
    uint32_t rows[4][4] = {{0}};
    rng_state = 0x646f74;
    for (long i = 0; i < XREF_ITERATIONS; i++) {
        uint32_t a[4], b[4];
        int ca = rand_centre(), cb = rng_below(2) ? 254 - ca : rand_centre();
        int spread = rng_below(2) ? 2 : (int)rng_below(40);
        for (int t = 0; t < 4; t++) {
            a[t] = rand_near(ca, spread);
            b[t] = rand_near(cb, spread);
        }
        switch (rng_below(5)) {
        case 0: /* products 0 and 1 nearly cancel */
            a[1] = rand_partner(a[0]) & 0x7FFFFFFFu;
            a[1] |= (a[0] ^ 0x80000000u) & 0x80000000u;
            b[1] = b[0] ^ (((uint32_t)rng_next() & 3) << 8);
            break;
        case 1: /* some zero terms */
            a[rng_below(4)] = 0;
            b[rng_below(4)] = rng_below(2) ? 0x80000000u : 0;
            break;
        case 2: /* a 3-term sum through dot3 */
        {
            uint32_t got = gemath_dot3(a, b);
            uint32_t a3[4] = {a[0], a[1], a[2], 0}, b3[4] = {b[0], b[1], b[2], b[3]};
            uint32_t want = ref_dot4(a3, b3);
            CHECK_MSG(got == want,
                      "dot3(%08X %08X %08X . %08X %08X %08X) = 0x%08X, reference 0x%08X (i=%ld)",
                      a[0], a[1], a[2], b[0], b[1], b[2], got, want, i);
            break;
        }
        default: break;
        }
        uint32_t got = gemath_dot4(a, b), want = ref_dot4(a, b);
        CHECK_MSG(got == want,
                  "dot4(%08X %08X %08X %08X . %08X %08X %08X %08X) = 0x%08X, reference 0x%08X "
                  "(i=%ld)",
                  a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], got, want, i);
        for (int t = 0; t < 4; t++) rows[i % 4][t] = a[t];
        if (i % 4 == 3) xref_mat_apply(rows, b, i / 4);
    }
}

/* The matrix products where their four-rows-at-once path has its own
 * cases, row by row against the reference: rows of zero products only
 * (zero matrix entries against zero vector components, as axis-aligned
 * normals give), exactly cancelling rows, products at the ends of the
 * exponent range (underflow to zero, saturation), stray low bits and
 * special values, with both matrix shapes. */
TEST(gemath_xref_mat_edges)
{
    rng_state = 0x6d6174;
    no_specials = 0;
    for (long i = 0; i < XREF_ITERATIONS / 10; i++) {
        uint32_t rows[4][4], v[4];
        int cm = rand_centre(), cv = rng_below(2) ? 254 - cm : rand_centre();
        int spread = rng_below(2) ? 1 : (int)rng_below(30);
        for (int c = 0; c < 4; c++) {
            v[c] = rng_below(4) == 0 ? (uint32_t)rng_next() & 0x807FFFFFu : rand_near(cv, spread);
            for (int r = 0; r < 4; r++)
                rows[r][c] = rng_below(3) == 0 ? (uint32_t)rng_next() & 0x800000FFu : rand_near(cm, spread);
        }
        int r = (int)rng_below(4);
        switch (rng_below(4)) {
        case 0: /* row r meets only zeros */
            for (int c = 0; c < 4; c++)
                if (v[c] & 0x7F800000u) rows[r][c] = (uint32_t)rng_next() & 0x807FFFFFu;
            break;
        case 1: /* row r cancels exactly */
            rows[r][1] = rows[r][0] ^ 0x80000000u;
            v[1] = v[0];
            rows[r][2] = rows[r][3] = 0;
            break;
        default: break;
        }
        xref_mat_apply(rows, v, i);
    }
}

TEST(gemath_xref_lerp)
{
    rng_state = 0x6c6572;
    for (long i = 0; i < XREF_ITERATIONS; i++) {
        uint32_t a = rand_near(rand_centre(), 0), b = rand_partner(a);
        if (rng_below(2)) {
            uint32_t t = a;
            a = b;
            b = t;
        }
        unsigned k = rng_below(16) == 0 ? (rng_below(2) ? 0 : 256) : rng_below(257);
        uint32_t got = gemath_lerp(a, b, k), want = ref_lerp(a, b, k);
        CHECK_MSG(got == want, "lerp(0x%08X, 0x%08X, %u) = 0x%08X, reference 0x%08X (i=%ld)", a,
                  b, k, got, want, i);
    }
}

/* gemath_lerp8 (its AVX2 path where the CPU has one) against gemath_lerp
 * lane by lane on 10 million calls (80 million lanes), and one lane per
 * call against the exact reference. A call's eight lanes share k, as the
 * patch evaluator's do; they are drawn around one centre exponent (some
 * calls near the bottom of the range, where results underflow) as
 * independent values, partners of a common value (cancellation, r = 0) or
 * copies of one pair, and either without special values (so the whole
 * vector takes the vector path) or with them (exponent fields 0 and 255 in
 * some lanes). Some calls write the result over a or b. */
TEST(gemath_xref_lerp8)
{
    rng_state = 0x6c65727038;
    for (long i = 0; i < XREF_ITERATIONS; i++) {
        uint32_t a[8], b[8], got[8], want[8];
        unsigned mode = rng_below(8);
        no_specials = mode < 5;
        int c = mode == 0 || mode == 5 ? 1 + (int)rng_below(24) : rand_centre();
        int spread = rng_below(2) ? 0 : (int)rng_below(20);
        uint32_t common = rand_near(c, 0);
        for (int t = 0; t < 8; t++) {
            switch (rng_below(4)) {
            case 0: a[t] = rand_near(c, spread), b[t] = rand_near(c, spread); break;
            case 1: a[t] = common, b[t] = rand_partner(common); break;
            case 2: a[t] = rand_near(c, spread), b[t] = rand_partner(a[t]); break;
            default:
                a[t] = t ? a[t - 1] : rand_near(c, spread);
                b[t] = t ? b[t - 1] : rand_partner(a[t]);
                break;
            }
            if (!no_specials && rng_below(16) == 0) b[t] = rand_special();
            if (rng_below(2)) {
                uint32_t x = a[t];
                a[t] = b[t];
                b[t] = x;
            }
        }
        no_specials = 0;
        unsigned k = rng_below(16) == 0 ? (rng_below(2) ? 0 : 256 + rng_below(4)) : rng_below(257);
        for (int t = 0; t < 8; t++) want[t] = gemath_lerp(a[t], b[t], k);
        uint32_t ref = ref_lerp(a[i % 8], b[i % 8], k);
        CHECK_MSG(want[i % 8] == ref, "lerp(0x%08X, 0x%08X, %u) = 0x%08X, reference 0x%08X (i=%ld)",
                  a[i % 8], b[i % 8], k, want[i % 8], ref, i);
        uint32_t a0[8], b0[8];
        memcpy(a0, a, sizeof a0);
        memcpy(b0, b, sizeof b0);
        uint32_t *dst = got;
        switch (i % 16) {
        case 1: dst = a; break;
        case 2: dst = b; break;
        default: break;
        }
        gemath_lerp8(a, b, k, dst);
        for (int t = 0; t < 8; t++)
            CHECK_MSG(dst[t] == want[t],
                      "lerp8 lane %d: lerp(0x%08X, 0x%08X, %u) = 0x%08X, lerp8 0x%08X (i=%ld)", t,
                      a0[t], b0[t], k, want[t], dst[t], i);
    }
}

/* The reference itself on hand-worked values, so that a shared mistake in
 * reading GE-HARDWARE.md would show up here and not only as agreement. */
TEST(gemath_xref_reference_sane)
{
    /* 1.5 + (-0.25 ulp of 1.5): the small operand truncates to 0. */
    CHECK_EQ_U(ref_add(0x3FC00000u, 0xB7000000u), 0x3FC00000u);
    /* -1.003936768 * 1.007751465: exact -1.0117187481..., truncated toward zero. */
    CHECK_EQ_U(ref_mul(0xBF808100u, 0x3F80FE00u), 0xBF817F00u);
    /* §4 example: lerp(1.5, 0.001, 128) = 24592 * 2^-15. */
    CHECK_EQ_U(ref_lerp(0x3FC00000u, 0x3A831200u, 128), 0x3F402000u);
    /* Row sum of the example in t_gemath_ops.c. */
    const uint32_t a[4] = {0xC0000000u, 0x3F800400u, 0x3F800700u, 0xBF800000u};
    const uint32_t b[4] = {0x3FB06700u, 0x3FF07C00u, 0x3FA02500u, 0x3EC00000u};
    CHECK_EQ_U(ref_dot4(a, b), 0xBA800000u);
}
