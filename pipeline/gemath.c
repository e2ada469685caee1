/* GE arithmetic: the number format, conversions, the adder, the multiplier,
 * the fused row sum, matrices, the reciprocal tables, the lighting helpers
 * and the curve lerp (GE-HARDWARE.md §1 to §4). Integer code only; see
 * gemath.h for the format and the special-value policy. Every constant that
 * GE-HARDWARE.md does not fix is a named "model choice" below. */
#include "gemath.h"

#include <string.h>

/* The row sum and the eight-lane lerp have AVX2 versions, chosen at run
 * time, on x86-64 (build with -DGEMATH_PORTABLE to leave them out). They
 * compute exactly what the portable dot4_core and gemath_lerp compute;
 * tests/gemath_xcheck.sh compares the two builds. */
#if defined(__x86_64__) && !defined(GEMATH_PORTABLE)
#define GEMATH_AVX2 1
#include <immintrin.h>
#endif

/* ---- Internal helpers ---- */

/* A bit pattern read through the special-value policy of gemath.h: low 8
 * bits cut, exponent field 0 -> signed zero, 255 -> signed GEMATH_MAX. */
static inline uint32_t canon(uint32_t x)
{
    uint32_t ef = (x >> 23) & 0xFFu;
    if (ef == 0) return x & 0x80000000u;
    if (ef == 255) return (x & 0x80000000u) | GEMATH_MAX;
    return x & 0xFFFFFF00u;
}

/* Splits x (read as canon(x)) into sign (0/1), biased exponent e (1..254;
 * 0 for zero) and 16-bit significand m (0x8000..0xFFFF; 0 for zero):
 * x = (-1)^s * m * 2^(e - 142). */
static inline void unpack(gefloat x, uint32_t *s, int32_t *e, uint32_t *m)
{
    uint32_t ef = (x >> 23) & 0xFFu;
    *s = x >> 31;
    if (ef == 255) {
        *e = 254;
        *m = 0xFFFFu;
        return;
    }
    *e = (int32_t)ef;
    *m = ef ? ((x >> 8) & 0x7FFFu) | 0x8000u : 0;
}

/* True when x's exponent field is 255 (IEEE infinity or NaN): the hot
 * operations test this once and canonicalise only then. */
static inline int is_exp255(uint32_t x)
{
    return (x & 0x7F800000u) == 0x7F800000u;
}

/* The 16-bit significand of x with the hidden bit, 0 for a zero or
 * denormal; x must not have exponent field 255. */
static inline uint32_t sig16(uint32_t x)
{
    uint32_t m = ((x >> 8) & 0x7FFFu) | 0x8000u;
    return (x & 0x7F800000u) ? m : 0;
}

/* Packs (-1)^s * m * 2^(e - 142), m in [2^15, 2^16), applying the range
 * policy: e <= 0 gives a signed zero, e >= 255 saturates to GEMATH_MAX. */
static inline gefloat pack(uint32_t s, int32_t e, uint32_t m)
{
    if (__builtin_expect((uint32_t)(e - 1) < 254u, 1)) return (s << 31) | ((uint32_t)e << 23) | ((m & 0x7FFFu) << 8);
    return e <= 0 ? s << 31 : (s << 31) | GEMATH_MAX;
}

/* Packs (-1)^s * mag * 2^(e16 - 142) for any mag > 0, truncating mag toward
 * zero to 16 significant bits (e16 is the biased exponent mag would have if
 * it had exactly 16 bits). */
static inline gefloat pack_norm(uint32_t s, uint32_t mag, int32_t e16)
{
    int n = __builtin_clz(mag);
    /* Top bit to bit 31, then keep 16 bits: no branch on the length. */
    return pack(s, e16 + 16 - n, (mag << n) >> 16);
}

/* Packs a nonzero signed multiple of 2^(e16 - 142) (see pack_norm). */
static inline gefloat pack_signed(int32_t v, int32_t e16)
{
    uint32_t u = (uint32_t)v, neg = u >> 31, mask = 0u - neg;
    return pack_norm(neg, (u ^ mask) - mask, e16);
}

/* m with the sign neg (0 or 1) applied, as a signed integer (m < 2^31). */
static inline int32_t with_sign(uint32_t m, uint32_t neg)
{
    return (int32_t)((m ^ (0u - neg)) + neg);
}

gefloat gemath_trunc(uint32_t ieee_bits)
{
    return canon(ieee_bits);
}

gefloat gemath_from_word(uint32_t word)
{
    return canon(word << 8);
}

gefloat gemath_from_f32bits(uint32_t bits)
{
    return canon(bits);
}

gefloat gemath_from_fixed(int32_t v, unsigned frac_bits)
{
    if (v == 0) return GEMATH_ZERO;
    if (frac_bits > 63) frac_bits = 63;
    uint32_t sign = v < 0;
    /* |v| without overflow for INT32_MIN. */
    uint32_t mag = sign ? 0u - (uint32_t)v : (uint32_t)v;
    /* mag has bit length L, so mag = m * 2^(L-16) before truncation and the
     * value's biased exponent is 127 + (L - 1) - frac_bits. */
    return pack_norm(sign, mag, 142 - (int32_t)frac_bits);
}

gefloat gemath_from_s8(int8_t v)
{
    return gemath_from_fixed(v, 7);
}

gefloat gemath_from_s16(int16_t v)
{
    return gemath_from_fixed(v, 15);
}

gefloat gemath_from_u8(uint8_t v)
{
    return gemath_from_fixed(v, 7);
}

gefloat gemath_from_u16(uint16_t v)
{
    return gemath_from_fixed(v, 15);
}

gefloat gemath_from_int(int32_t v)
{
    return gemath_from_fixed(v, 0);
}

int32_t gemath_to_fixed(gefloat x, unsigned frac_bits)
{
    uint32_t s, m;
    int32_t e;
    unpack(x, &s, &e, &m);
    if (m == 0) return 0;
    if (frac_bits > 63) frac_bits = 63;
    /* x * 2^frac_bits = m * 2^sh. */
    int32_t sh = e - 142 + (int32_t)frac_bits;
    uint32_t mag;
    if (sh >= 16) return s ? INT32_MIN : INT32_MAX; /* m * 2^16 >= 2^31 */
    if (sh >= 0)
        mag = m << sh; /* < 2^31 */
    else
        mag = sh > -32 ? m >> -sh : 0;
    return s ? -(int32_t)mag : (int32_t)mag;
}

gefloat gemath_from_scaled(int64_t m, int32_t exp2)
{
    if (m == 0) return GEMATH_ZERO;
    uint32_t sign = m < 0;
    uint64_t mag = sign ? 0u - (uint64_t)m : (uint64_t)m;
    int n = __builtin_clzll(mag);
    /* Top bit to bit 63, keep 16 bits (truncating toward zero): value =
     * top16 * 2^(exp2 + 48 - n), biased exponent 142 + exp2 + 48 - n. */
    uint32_t top = (uint32_t)((mag << n) >> 48);
    int64_t e = (int64_t)142 + exp2 + 48 - n;
    if (e > 300) e = 300;
    if (e < -300) e = -300;
    return pack(sign, (int32_t)e, top);
}

int64_t gemath_to_scaled(gefloat x, int32_t exp2)
{
    uint32_t s, m;
    int32_t e;
    unpack(x, &s, &e, &m);
    if (m == 0) return 0;
    /* x / 2^exp2 = m * 2^sh. */
    int64_t sh = (int64_t)e - 142 - exp2;
    uint64_t mag;
    if (sh >= 47) return s ? INT64_MIN : INT64_MAX; /* m * 2^47 >= 2^62 */
    if (sh >= 0)
        mag = (uint64_t)m << sh;
    else
        mag = sh > -32 ? m >> -sh : 0;
    return s ? -(int64_t)mag : (int64_t)mag;
}

int64_t gemath_uv_scaled(gefloat a, gefloat b, int32_t exp2)
{
    uint32_t sa, ma, sb, mb;
    int32_t ea, eb;
    unpack(a, &sa, &ea, &ma);
    unpack(b, &sb, &eb, &mb);
    if (!ma || !mb) return 0;
    /* a b = ma mb * 2^(ea + eb - 284): 31 or 32 bits, cut to 24. */
    uint64_t p = (uint64_t)ma * mb;
    int cut = (p >> 31) ? 8 : 7;
    p = p >> cut << cut;
    int64_t sh = (int64_t)ea + eb - 284 - exp2;
    uint64_t mag;
    if (sh >= 30) return (sa ^ sb) ? INT64_MIN : INT64_MAX; /* p * 2^30 >= 2^60 */
    if (sh >= 0)
        mag = p << sh;
    else
        mag = sh > -64 ? p >> -sh : 0;
    return (sa ^ sb) ? -(int64_t)mag : (int64_t)mag;
}

float gemath_to_float(gefloat x)
{
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

gefloat gemath_from_float(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return canon(u);
}

gefloat gemath_neg(gefloat x)
{
    return canon(x) ^ 0x80000000u;
}

gefloat gemath_abs(gefloat x)
{
    return canon(x) & 0x7FFFFFFFu;
}

int gemath_cmp(gefloat a, gefloat b)
{
    /* Canonical magnitudes order like their bit patterns. */
    uint32_t ca = canon(a), cb = canon(b);
    int64_t ka = ca >> 31 ? -(int64_t)(ca & 0x7FFFFFFFu) : (int64_t)ca;
    int64_t kb = cb >> 31 ? -(int64_t)(cb & 0x7FFFFFFFu) : (int64_t)cb;
    return (ka > kb) - (ka < kb);
}

gefloat gemath_mul(gefloat a, gefloat b)
{
    if (is_exp255(a) | is_exp255(b)) {
        a = canon(a);
        b = canon(b);
    }
    uint32_t sign = (a ^ b) >> 31;
    uint32_t p = sig16(a) * sig16(b); /* exact: 2^30 <= p < 2^32, or 0 */
    if (p == 0) return sign << 31;
    uint32_t hi = p >> 31;
    int32_t e = (int32_t)((a >> 23) & 0xFFu) + (int32_t)((b >> 23) & 0xFFu);
    /* p * 2^(e-284); its top 16 bits are p >> (15 + hi). */
    return pack(sign, e - 127 + (int32_t)hi, p >> (15 + hi));
}

/* The alignment the adder (§1) and the curve lerp (§4) share: both
 * operands (read through canon) as signed integers in units of the ulp
 * 2^(e - 142) of the larger exponent e, truncated toward zero; returns e. */
static inline int32_t align_pair(gefloat a, gefloat b, int32_t *A, int32_t *B)
{
    if (is_exp255(a) | is_exp255(b)) {
        a = canon(a);
        b = canon(b);
    }
    int32_t ea = (int32_t)((a >> 23) & 0xFFu), eb = (int32_t)((b >> 23) & 0xFFu);
    int32_t e = ea > eb ? ea : eb;
    uint32_t da = (uint32_t)(e - ea), db = (uint32_t)(e - eb);
    da = da < 31 ? da : 31; /* a 16-bit significand shifted by >= 16 is 0 */
    db = db < 31 ? db : 31;
    *A = with_sign(sig16(a) >> da, a >> 31);
    *B = with_sign(sig16(b) >> db, b >> 31);
    return e;
}

gefloat gemath_add(gefloat a, gefloat b)
{
    /* §1: no guard bits. The larger magnitude has the larger (or equal)
     * exponent e; both operands are truncated to its ulp first. */
    int32_t A, B, e = align_pair(a, b, &A, &B);
    int32_t s = A + B;
    if (s == 0) return GEMATH_ZERO;
    return pack_signed(s, e);
}

gefloat gemath_sub(gefloat a, gefloat b)
{
    return gemath_add(a, b ^ 0x80000000u);
}

/* The row sum on operands without exponent field 255. */
static inline gefloat dot4_core(const gefloat a[4], const gefloat b[4])
{
    /* §1: one fused sum. Product i is p[i] * 2^(x[i] - 284) with
     * x[i] = ea + eb, and lies in the binade whose ulp (in the format) is
     * 2^(key[i] - 269), key[i] = x[i] + (p[i] >> 31). */
    uint32_t p[4], neg[4];
    int32_t x[4], key[4];
    for (int i = 0; i < 4; i++) {
        p[i] = sig16(a[i]) * sig16(b[i]);
        neg[i] = (a[i] ^ b[i]) >> 31;
        x[i] = (int32_t)((a[i] >> 23) & 0xFFu) + (int32_t)((b[i] >> 23) & 0xFFu);
        /* A zero product never counts as the largest. */
        key[i] = p[i] ? x[i] + (int32_t)(p[i] >> 31) : -1024;
    }
    int32_t k01 = key[0] > key[1] ? key[0] : key[1];
    int32_t k23 = key[2] > key[3] ? key[2] : key[3];
    int32_t kmax = k01 > k23 ? k01 : k23;
    /* Each product truncated toward zero to the ulp 2^(kmax - 269) of the
     * largest: p[i] >> (kmax + 15 - x[i]); at most 16 bits each. A shift of
     * 32 or more (clamped to 63) leaves 0; zero products give 0 anyway. */
    int32_t sum = 0;
    for (int i = 0; i < 4; i++) {
        uint32_t sh = (uint32_t)(kmax + 15 - x[i]);
        sh = sh < 63 ? sh : 63;
        sum += with_sign((uint32_t)((uint64_t)p[i] >> sh), neg[i]);
    }
    if (sum == 0) return GEMATH_ZERO;
    /* sum is in units of 2^(kmax - 269); a 16-bit sum has biased exponent kmax - 127. */
    return pack_signed(sum, kmax - 127);
}

/* The row sum when some operand has exponent field 255 (rare): on
 * canonicalised copies. */
static gefloat dot4_special(const gefloat a[4], const gefloat b[4])
{
    gefloat ca[4], cb[4];
    for (int i = 0; i < 4; i++) {
        ca[i] = canon(a[i]);
        cb[i] = canon(b[i]);
    }
    return dot4_core(ca, cb);
}

#ifdef GEMATH_AVX2
/* Set once at start-up (tables_init) when the CPU has AVX2. */
static int have_avx2;

/* The AVX2 functions may also use BMI2's shifts (every AVX2 CPU has BMI2;
 * tables_init checks both). */
#define AVX2_FN __attribute__((target("avx2,bmi2")))

/* The vector constants, as memory operands. GCC 12 builds a constant like
 * _mm_set1_epi32(0x7F800000) in a target("avx2") function with three
 * instructions (movabs, vmovq, vpunpcklqdq, two of them on the vector
 * shuffle port) on every call; loading through a pointer the compiler
 * cannot see through (vec_consts) keeps it one memory operand. */
struct vec_consts {
    uint32_t expmask[4], sigbytes[4], hidden[4], sign[4], max[4], trunc[4], bias142[4], minnorm[4];
    uint32_t fifteen[4], ones[4], word0[4], c1000e[4], c269[4], c143[4], c236[4];
    uint32_t bcast01[8], bcast23[8];
};
static const struct vec_consts vec_consts_tab __attribute__((aligned(32))) = {
    {0x7F800000u, 0x7F800000u, 0x7F800000u, 0x7F800000u},
    /* vpshufb: bytes 1 and 2 of each lane to bytes 0 and 1, bytes 2 and 3
     * cleared, i.e. (v >> 8) & 0xFFFF. */
    {0x80800201u, 0x80800605u, 0x80800A09u, 0x80800E0Du},
    {0x8000u, 0x8000u, 0x8000u, 0x8000u},
    {0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u},
    {GEMATH_MAX, GEMATH_MAX, GEMATH_MAX, GEMATH_MAX},
    {0xFFFFFF00u, 0xFFFFFF00u, 0xFFFFFF00u, 0xFFFFFF00u},
    {142u << 23, 142u << 23, 142u << 23, 142u << 23},
    {0x007FFFFFu, 0x007FFFFFu, 0x007FFFFFu, 0x007FFFFFu},
    {15u, 15u, 15u, 15u},
    {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu},
    /* vpshufb: the low 16 bits of lane 0 to every lane, zero-extended. */
    {0x80800100u, 0x80800100u, 0x80800100u, 0x80800100u},
    {0x1000Eu, 0x1000Eu, 0x1000Eu, 0x1000Eu},
    {269u, 269u, 269u, 269u},
    {143u, 143u, 143u, 143u},
    {236u, 236u, 236u, 236u},
    /* vpshufb on v in both halves: v[0] to every lane of the low half and
     * v[1] to the high half's (bcast01); v[2] and v[3] (bcast23). */
    {0x03020100u, 0x03020100u, 0x03020100u, 0x03020100u, 0x07060504u, 0x07060504u, 0x07060504u, 0x07060504u},
    {0x0B0A0908u, 0x0B0A0908u, 0x0B0A0908u, 0x0B0A0908u, 0x0F0E0D0Cu, 0x0F0E0D0Cu, 0x0F0E0D0Cu, 0x0F0E0D0Cu},
};
static inline const struct vec_consts *vec_consts(void)
{
    const struct vec_consts *k = &vec_consts_tab;
    __asm__("" : "+r"(k)); /* opaque: no constant folding of the loads */
    return k;
}
#define VCONST(k, field) _mm_load_si128((const __m128i *)(const void *)(k)->field)

/* vec_consts' sigbytes read directly, for the 128-bit row sums: its lanes
 * differ, so GCC keeps it a memory operand addressed from the instruction
 * pointer. Its shuffle starts the longest chain of a row sum (significands,
 * multiply, largest key); through vec_consts' opaque pointer it would wait
 * one more cycle, for the pointer's lea. (The 256-bit users keep the
 * pointer: for them GCC would build the constant with an extra shuffle.) */
#define SIG_SHUFFLE() _mm_load_si128((const __m128i *)(const void *)vec_consts_tab.sigbytes)

/* canon() of the lanes whose exponent field is 255: +-GEMATH_MAX. */
AVX2_FN static inline __m128i canon255_avx2(__m128i v, __m128i is255)
{
    const struct vec_consts *k = vec_consts();
    __m128i max = _mm_or_si128(_mm_and_si128(v, VCONST(k, sign)), VCONST(k, max));
    return _mm_blendv_epi8(v, max, is255);
}

/* The end of a row sum: the signed sum in lane 0 of s (in units of
 * 2^(kmax - 269), |sum| < 2^18) packed as dot4_core packs it (+0 for 0,
 * else pack_signed(sum, kmax - 127)). |sum| < 2^24 converts to a float
 * exactly (vcvtdq2ps: no rounding, so no dependence on the rounding mode;
 * no float arithmetic), whose bits are the sign, the biased exponent
 * 126 + L for the bit length L of |sum| and the bits below the top one:
 * with the low 8 bits cleared, what pack_norm stores, and adding
 * (kmax - 269) << 23 gives pack_norm's exponent kmax - 127 + L - 16 when
 * that is in 1..254. With 1 <= L <= 18 it is whenever kmax is in 143..379
 * (one test on kmax, known before the sum); otherwise the exponent is
 * checked as pack() does. */
AVX2_FN __attribute__((always_inline)) static inline gefloat row_pack_avx2(__m128i s, int32_t kmax)
{
    uint32_t r = (uint32_t)_mm_cvtsi128_si32(_mm_castps_si128(_mm_cvtepi32_ps(s)));
    int32_t kadj = kmax - 269;
    if (__builtin_expect((uint32_t)(kmax - 143) <= 379u - 143u, 1)) {
        if (__builtin_expect(r == 0, 0)) return GEMATH_ZERO;
        return (r + ((uint32_t)kadj << 23)) & 0xFFFFFF00u;
    }
    int32_t e = (int32_t)((r >> 23) & 0xFFu) + kadj;
    if (r == 0) return GEMATH_ZERO;
    if ((uint32_t)(e - 1) < 254u) return (r + ((uint32_t)kadj << 23)) & 0xFFFFFF00u;
    return e <= 0 ? r & 0x80000000u : (r & 0x80000000u) | GEMATH_MAX;
}

/* dot4_core with the four terms in the lanes of one vector: the same
 * integers, step by step. Differences in form, not in value:
 *  - the significand is bytes 1 and 2 (vpshufb) with bit 15 set, also
 *    where the exponent field is 0 (such a term is removed below);
 *  - p >> 31 (whether the product has 32 bits) is bit 15 of p >> 16, which
 *    vpmulhuw gives directly (the high halves of the 32-bit lanes are 0),
 *    sooner than the 32-bit product;
 *  - a zero product (a factor with exponent field 0) is found from the
 *    smaller exponent m = min(ea, eb), 0 exactly there: its key becomes 0
 *    or 1 (x signed by m; real keys are >= 2), and its term is multiplied
 *    by sgn = m signed by a and by b, which is 0 exactly there and has the
 *    product's sign elsewhere (a and b are then nonzero);
 *  - the largest key is found with vphminposuw (the smallest 16-bit word
 *    and its position) on ~key: the high halves of the lanes are 0xFFFF,
 *    the low halves 0xFFFF - key, so the smallest word is 0xFFFF - kmax;
 *  - p >> (kmax + 15 - x) is one vpsrlvd by (0x1000E - x) - (0xFFFF - kmax),
 *    which gives 0 for shifts of 32 or more, as the clamped 64-bit shift
 *    does;
 *  - the packing is row_pack_avx2. */
AVX2_FN __attribute__((always_inline)) static inline gefloat row_sum_core_avx2(const struct vec_consts *k,
                                                                           __m128i va, __m128i vb,
                                                                           __m128i ea, __m128i eb)
{
    __m128i m = _mm_min_epu32(ea, eb);
    __m128i x = _mm_srli_epi32(_mm_add_epi32(ea, eb), 23);
    __m128i sgn = _mm_sign_epi32(_mm_sign_epi32(m, va), vb);
    const __m128i sigbytes = SIG_SHUFFLE(), hidden = VCONST(k, hidden);
    __m128i ma = _mm_or_si128(_mm_shuffle_epi8(va, sigbytes), hidden);
    __m128i mb = _mm_or_si128(_mm_shuffle_epi8(vb, sigbytes), hidden);
    __m128i p = _mm_mullo_epi32(ma, mb);
    /* ~key = ~(x signed by m) - (p >> 31). */
    __m128i nkey = _mm_sub_epi32(_mm_xor_si128(_mm_sign_epi32(x, m), VCONST(k, ones)),
                                 _mm_srli_epi32(_mm_mulhi_epu16(ma, mb), 15));
    /* mn = 0xFFFF - kmax in every lane. */
    __m128i mn = _mm_shuffle_epi8(_mm_minpos_epu16(nkey), VCONST(k, word0));
    __m128i y = _mm_sub_epi32(VCONST(k, c1000e), x);
    __asm__("" : "+x"(y)); /* opaque: the compiler would subtract x after mn */
    __m128i t = _mm_srlv_epi32(p, _mm_sub_epi32(y, mn));
    t = _mm_sign_epi32(t, sgn);
    t = _mm_add_epi32(t, _mm_shuffle_epi32(t, 0x4E));
    t = _mm_add_epi32(t, _mm_shuffle_epi32(t, 0xB1));
    return row_pack_avx2(t, 0xFFFF - _mm_cvtsi128_si32(mn));
}

/* row_sum_avx2 when an operand has exponent field 255 (rare): on
 * canonicalised lanes. */
AVX2_FN __attribute__((noinline)) static gefloat row_sum_special_avx2(__m128i va, __m128i vb)
{
    const struct vec_consts *k = vec_consts();
    const __m128i expmask = VCONST(k, expmask);
    va = canon255_avx2(va, _mm_cmpeq_epi32(_mm_and_si128(va, expmask), expmask));
    vb = canon255_avx2(vb, _mm_cmpeq_epi32(_mm_and_si128(vb, expmask), expmask));
    return row_sum_core_avx2(k, va, vb, _mm_and_si128(va, expmask), _mm_and_si128(vb, expmask));
}

AVX2_FN __attribute__((always_inline)) static inline gefloat row_sum_avx2(__m128i va, __m128i vb)
{
    const struct vec_consts *k = vec_consts();
    const __m128i expmask = VCONST(k, expmask);
    __m128i ea = _mm_and_si128(va, expmask), eb = _mm_and_si128(vb, expmask);
    if (__builtin_expect(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_max_epu32(ea, eb), expmask))), 0))
        return row_sum_special_avx2(va, vb);
    return row_sum_core_avx2(k, va, vb, ea, eb);
}

/* row_sum_avx2 out of line: dot4_avx2's way out for the rare calls its
 * short path does not cover. */
AVX2_FN __attribute__((noinline)) static gefloat row_sum_full_avx2(__m128i va, __m128i vb)
{
    return row_sum_avx2(va, vb);
}

/* gemath_dot4 and gemath_dot3: row_sum_avx2 with fewer instructions on the
 * calls that matter (no operand with exponent field 255, and the largest
 * key in 143..379: row_pack_avx2's short case); row_sum_full_avx2 takes the
 * others. With independent calls back to back (the benchmark, and the
 * transform path) the time follows the number of vector instructions
 * rather than the latency (measured: each one removed counts, wherever it
 * is), so this path saves instructions. Differences in form from
 * row_sum_core_avx2, not in value:
 *  - the exponent-255 test needs no branch and no instruction of its own
 *    beyond the compare: ~key is x xor not255, where not255 is -1 in
 *    ordinary lanes (so the xor is the ~ that was needed anyway) and 0 in
 *    a lane with such an operand, whose "~key" is then x - top >= 255
 *    with a high half of 0: vphminposuw returns 0, kmax reads as 0xFFFF,
 *    out of range, and the call goes to row_sum_full_avx2, which
 *    canonicalises. (When the other factor's exponent field is 0, x is 0
 *    there and the lane may stay on this path: it is the zero product it
 *    is after canonicalisation, and is treated as one);
 *  - x is signed by m = min(ea, eb), 0 exactly for a zero product, as in
 *    row_sum_core_avx2, and the shift count uses this x too: a zero
 *    product's shift y - mn = kmax + 15 >= 158 on this path, so vpsrlvd
 *    gives 0 there already. The sign can then come from a signed by b,
 *    which is nonzero with the product's sign wherever both factors are
 *    nonzero (a is then neither +0 nor -0, so negating it flips its
 *    sign): one vpsignd instead of two;
 *  - the range test works on n = 0xFFFF - kmax as vphminposuw gives it,
 *    and the exponent is added as (0xFFFF - 269 - n) << 23. */
AVX2_FN __attribute__((always_inline)) static inline gefloat row_sum_short_avx2(__m128i va, __m128i vb)
{
    const struct vec_consts *k = vec_consts();
    const __m128i expmask = VCONST(k, expmask);
    __m128i ea = _mm_and_si128(va, expmask), eb = _mm_and_si128(vb, expmask);
    __m128i not255 = _mm_cmpgt_epi32(expmask, _mm_max_epu32(ea, eb));
    __m128i x = _mm_sign_epi32(_mm_srli_epi32(_mm_add_epi32(ea, eb), 23), _mm_min_epu32(ea, eb));
    const __m128i sigbytes = SIG_SHUFFLE(), hidden = VCONST(k, hidden);
    __m128i ma = _mm_or_si128(_mm_shuffle_epi8(va, sigbytes), hidden);
    __m128i mb = _mm_or_si128(_mm_shuffle_epi8(vb, sigbytes), hidden);
    __m128i p = _mm_mullo_epi32(ma, mb);
    __m128i nkey = _mm_sub_epi32(_mm_xor_si128(x, not255), _mm_srli_epi32(_mm_mulhi_epu16(ma, mb), 15));
    __m128i mn = _mm_shuffle_epi8(_mm_minpos_epu16(nkey), VCONST(k, word0));
    __m128i y = _mm_sub_epi32(VCONST(k, c1000e), x);
    __asm__("" : "+x"(y)); /* as in row_sum_core_avx2 */
    __m128i t = _mm_srlv_epi32(p, _mm_sub_epi32(y, mn));
    t = _mm_sign_epi32(t, _mm_sign_epi32(va, vb));
    t = _mm_add_epi32(t, _mm_shuffle_epi32(t, 0x4E));
    t = _mm_add_epi32(t, _mm_shuffle_epi32(t, 0xB1));
    uint32_t r = (uint32_t)_mm_cvtsi128_si32(_mm_castps_si128(_mm_cvtepi32_ps(t)));
    uint32_t n = (uint32_t)_mm_cvtsi128_si32(mn); /* 0xFFFF - kmax */
    if (__builtin_expect(n - (0xFFFFu - 379u) > 379u - 143u, 0)) return row_sum_full_avx2(va, vb);
    if (__builtin_expect(r == 0, 0)) return GEMATH_ZERO;
    return (r - (n << 23) + ((0xFFFFu - 269u) << 23)) & 0xFFFFFF00u;
}

AVX2_FN static gefloat dot4_avx2(const gefloat a[4], const gefloat b[4])
{
    return row_sum_short_avx2(_mm_loadu_si128((const __m128i *)(const void *)a),
                              _mm_loadu_si128((const __m128i *)(const void *)b));
}

/* gemath_dot3: the three values and a zero lane straight into registers (8
 * bytes, then the third value), not through a padded copy on the stack: a
 * 16-byte load of data just written by smaller stores cannot be forwarded
 * from them and waits for the stores to complete (about 3x the cost of the
 * row sum itself). */
AVX2_FN static gefloat dot3_avx2(const gefloat a[3], const gefloat b[3])
{
    __m128i va = _mm_insert_epi32(_mm_loadl_epi64((const __m128i *)(const void *)a), (int)a[2], 2);
    __m128i vb = _mm_insert_epi32(_mm_loadl_epi64((const __m128i *)(const void *)b), (int)b[2], 2);
    return row_sum_short_avx2(va, vb);
}

/* The rows one at a time (used when an operand has exponent field 255). */
AVX2_FN static void mat_rows_avx2(const gefloat *m, int rows, const gefloat v[4], gefloat *out)
{
    __m128i vb = _mm_loadu_si128((const __m128i *)(const void *)v);
    for (int r = 0; r < rows; r++) {
        const gefloat *c = m + r;
        __m128i va = _mm_set_epi32((int)c[3 * rows], (int)c[2 * rows], (int)c[rows], (int)c[0]);
        out[r] = row_sum_avx2(va, vb);
    }
}

/* 256-bit copy of a vec_consts field (a load, no shuffle). */
#define VCONST256(k, field) _mm256_broadcastsi128_si256(VCONST(k, field))

/* Two terms of four row sums, row r in lane r (term j) and lane 4 + r (term
 * j + 1): the per-term steps of row_sum_core_avx2 (same integers, same
 * special cases; the largest key is searched lane-wise by the caller).
 * Returns p and sets *x15 = x - 15, *key and *sgn. */
AVX2_FN __attribute__((always_inline)) static inline __m256i
two_terms_avx2(const struct vec_consts *k, __m256i va, __m256i vb, __m256i *x15, __m256i *key, __m256i *sgn)
{
    const __m256i expmask = VCONST256(k, expmask), sigbytes = VCONST256(k, sigbytes),
                  hidden = VCONST256(k, hidden);
    __m256i ea = _mm256_and_si256(va, expmask), eb = _mm256_and_si256(vb, expmask);
    __m256i m = _mm256_min_epu32(ea, eb);
    __m256i x = _mm256_srli_epi32(_mm256_add_epi32(ea, eb), 23);
    *sgn = _mm256_sign_epi32(_mm256_sign_epi32(m, va), vb);
    __m256i ma = _mm256_or_si256(_mm256_shuffle_epi8(va, sigbytes), hidden);
    __m256i mb = _mm256_or_si256(_mm256_shuffle_epi8(vb, sigbytes), hidden);
    *key = _mm256_add_epi32(_mm256_sign_epi32(x, m), _mm256_srli_epi32(_mm256_mulhi_epu16(ma, mb), 15));
    *x15 = _mm256_sub_epi32(x, VCONST256(k, fifteen));
    return _mm256_mullo_epi32(ma, mb);
}

/* Lane-wise max of the exponent fields of va and vb (255 is special). */
AVX2_FN __attribute__((always_inline)) static inline __m256i max255_avx2(const struct vec_consts *k,
                                                                      __m256i va, __m256i vb)
{
    const __m256i expmask = VCONST256(k, expmask);
    return _mm256_max_epu32(_mm256_and_si256(va, expmask), _mm256_and_si256(vb, expmask));
}

/* out[r] = row r of the column-major matrix m (`rows` = 3 or 4 values per
 * column, 4 columns) times v: the four row sums side by side, row r in lane
 * r, two terms per 256-bit vector, so the largest-product search and the
 * sum are lane-wise (no horizontal steps), and the packing is
 * row_pack_avx2's on four lanes. Each lane computes exactly what
 * row_sum_core_avx2 computes for its row (tests: gemath_xref_dot4 checks
 * the matrix products against the exact reference). */
AVX2_FN static void mat_apply_avx2(const gefloat *m, int rows, const gefloat v[4], gefloat *out)
{
    const struct vec_consts *k = vec_consts();
    __m256i va01, va23;
    if (rows == 4) {
        va01 = _mm256_loadu_si256((const __m256i *)(const void *)m);
        va23 = _mm256_loadu_si256((const __m256i *)(const void *)(m + 8));
    } else {
        /* Columns at m, m + 3, m + 6 and m + 9 (read as m[8..11] moved down
         * one lane, never past m[11]); lane 3 is not a row and is ignored. */
        __m128i c0 = _mm_loadu_si128((const __m128i *)(const void *)m);
        __m128i c1 = _mm_loadu_si128((const __m128i *)(const void *)(m + 3));
        __m128i c2 = _mm_loadu_si128((const __m128i *)(const void *)(m + 6));
        __m128i c3 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(const void *)(m + 8)), 0xF9);
        va01 = _mm256_inserti128_si256(_mm256_castsi128_si256(c0), c1, 1);
        va23 = _mm256_inserti128_si256(_mm256_castsi128_si256(c2), c3, 1);
    }
    __m256i vv = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)v));
    __m256i vb01 = _mm256_shuffle_epi8(vv, _mm256_loadu_si256((const __m256i *)(const void *)k->bcast01));
    __m256i vb23 = _mm256_shuffle_epi8(vv, _mm256_loadu_si256((const __m256i *)(const void *)k->bcast23));
    __m256i emax = _mm256_max_epu32(max255_avx2(k, va01, vb01), max255_avx2(k, va23, vb23));
    unsigned bad = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(emax, VCONST256(k, expmask))));
    if (__builtin_expect(bad & (rows == 4 ? 0xFFu : 0x77u), 0)) {
        mat_rows_avx2(m, rows, v, out);
        return;
    }
    __m256i x01, x23, key01, key23, sgn01, sgn23;
    __m256i p01 = two_terms_avx2(k, va01, vb01, &x01, &key01, &sgn01);
    __m256i p23 = two_terms_avx2(k, va23, vb23, &x23, &key23, &sgn23);
    __m256i kmax = _mm256_max_epi32(key01, key23);
    kmax = _mm256_max_epi32(kmax, _mm256_permute2x128_si256(kmax, kmax, 0x01));
    __m256i t01 = _mm256_sign_epi32(_mm256_srlv_epi32(p01, _mm256_sub_epi32(kmax, x01)), sgn01);
    __m256i t23 = _mm256_sign_epi32(_mm256_srlv_epi32(p23, _mm256_sub_epi32(kmax, x23)), sgn23);
    __m256i t = _mm256_add_epi32(t01, t23);
    __m128i sum = _mm_add_epi32(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1));
    __m128i k4 = _mm256_castsi256_si128(kmax);
    /* row_pack_avx2 on four lanes: a zero sum is +0 (also in a row of zero
     * products only, whose kmax is 0 or 1), and kmax in 143..379 keeps
     * every other exponent in range (otherwise pack_signed packs them). */
    __m128i f = _mm_castps_si128(_mm_cvtepi32_ps(sum));
    __m128i res = _mm_add_epi32(f, _mm_slli_epi32(_mm_sub_epi32(k4, VCONST(k, c269)), 23));
    __m128i zero = _mm_cmpeq_epi32(sum, _mm_setzero_si128());
    res = _mm_andnot_si128(zero, _mm_and_si128(res, VCONST(k, trunc)));
    __m128i kr = _mm_sub_epi32(k4, VCONST(k, c143));
    __m128i ok = _mm_or_si128(_mm_cmpeq_epi32(_mm_min_epu32(kr, VCONST(k, c236)), kr), zero);
    if (__builtin_expect(((unsigned)_mm_movemask_ps(_mm_castsi128_ps(ok)) | (rows == 4 ? 0u : 8u)) == 15u, 1)) {
        if (rows == 4) {
            _mm_storeu_si128((__m128i *)(void *)out, res);
        } else {
            _mm_storel_epi64((__m128i *)(void *)out, res);
            out[2] = (uint32_t)_mm_extract_epi32(res, 2);
        }
        return;
    }
    int32_t sums[4], keys[4];
    _mm_storeu_si128((__m128i *)(void *)sums, sum);
    _mm_storeu_si128((__m128i *)(void *)keys, k4);
    for (int r = 0; r < rows; r++) out[r] = sums[r] ? pack_signed(sums[r], keys[r] - 127) : GEMATH_ZERO;
}
#endif

gefloat gemath_dot4(const gefloat a[4], const gefloat b[4])
{
#ifdef GEMATH_AVX2
    if (__builtin_expect(have_avx2, 1)) return dot4_avx2(a, b);
#endif
    if (is_exp255(a[0]) | is_exp255(a[1]) | is_exp255(a[2]) | is_exp255(a[3]) |
        is_exp255(b[0]) | is_exp255(b[1]) | is_exp255(b[2]) | is_exp255(b[3]))
        return dot4_special(a, b);
    return dot4_core(a, b);
}

gefloat gemath_dot3(const gefloat a[3], const gefloat b[3])
{
#ifdef GEMATH_AVX2
    if (__builtin_expect(have_avx2, 1)) return dot3_avx2(a, b);
#endif
    const gefloat a4[4] = {a[0], a[1], a[2], GEMATH_ZERO};
    const gefloat b4[4] = {b[0], b[1], b[2], GEMATH_ZERO};
    return gemath_dot4(a4, b4);
}

/* out[r] = row r of the column-major matrix m (`rows` values per column,
 * 4 columns) times v, one fused row sum each. */
static void mat_apply(const gefloat *m, int rows, const gefloat v[4], gefloat *out)
{
#ifdef GEMATH_AVX2
    if (have_avx2) {
        mat_apply_avx2(m, rows, v, out);
        return;
    }
#endif
    for (int r = 0; r < rows; r++) {
        const gefloat row[4] = {m[r], m[rows + r], m[2 * rows + r], m[3 * rows + r]};
        out[r] = gemath_dot4(row, v);
    }
}

void gemath_mat43_apply(const gefloat m[12], const gefloat v[4], gefloat out[3]) { mat_apply(m, 3, v, out); }

void gemath_mat44_apply(const gefloat m[16], const gefloat v[4], gefloat out[4]) { mat_apply(m, 4, v, out); }

void gemath_mat43_mul_mat43(const gefloat first[12], const gefloat second[12], gefloat out[12])
{
    /* Column c of the product is second applied to column c of first, whose
     * w is 0 for the axes and 1 for the translation. */
    for (int c = 0; c < 4; c++) {
        const gefloat col[4] = {first[3 * c], first[3 * c + 1], first[3 * c + 2],
                                c == 3 ? GEMATH_ONE : GEMATH_ZERO};
        gemath_mat43_apply(second, col, out + 3 * c);
    }
}

void gemath_mat44_mul_mat43(const gefloat proj[16], const gefloat m[12], gefloat out[16])
{
    for (int c = 0; c < 4; c++) {
        const gefloat col[4] = {m[3 * c], m[3 * c + 1], m[3 * c + 2],
                                c == 3 ? GEMATH_ONE : GEMATH_ZERO};
        gemath_mat44_apply(proj, col, out + 4 * c);
    }
}

/* floor(d / 256) for -2^25 <= d < 2^25, without relying on how the compiler
 * shifts negative numbers. */
static int32_t floor_div256(int32_t d)
{
    return (int32_t)(((uint32_t)d + (1u << 25)) >> 8) - (1 << 17);
}

gefloat gemath_lerp(gefloat a, gefloat b, unsigned k)
{
    /* §4: the end points pass through untouched. */
    if (k == 0) return canon(a);
    if (k >= 256) return canon(b);
    /* Block floating point at the larger exponent e: 16-bit integers in
     * units of 2^(e-142), truncated toward zero. */
    int32_t A, B, e = align_pair(a, b, &A, &B);
    /* |B - A| < 2^17 and k < 256, so the product fits comfortably. */
    int32_t r = A + floor_div256((B - A) * (int32_t)k);
    if (r == 0) return GEMATH_ZERO;
    /* |r| <= max(|A|, |B|) < 2^16: converting back never truncates. */
    return pack_signed(r, e);
}

#ifdef GEMATH_AVX2
/* canon() of eight lanes. */
AVX2_FN __attribute__((always_inline)) static inline __m256i canon8_avx2(const struct vec_consts *kc,
                                                                        __m256i v)
{
    const __m256i expmask = VCONST256(kc, expmask);
    __m256i ev = _mm256_and_si256(v, expmask), s = _mm256_and_si256(v, VCONST256(kc, sign));
    __m256i r = _mm256_and_si256(v, VCONST256(kc, trunc));
    r = _mm256_blendv_epi8(r, s, _mm256_cmpeq_epi32(ev, _mm256_setzero_si256()));
    return _mm256_blendv_epi8(r, _mm256_or_si256(s, VCONST256(kc, max)), _mm256_cmpeq_epi32(ev, expmask));
}

/* gemath_lerp on eight lanes with one k: the same integers, step by step.
 * Differences in form, not in value:
 *  - exponents stay in place (masked, not shifted down) for the maximum and
 *    the differences; the significand is bytes 1 and 2 (vpshufb) with bit
 *    15 set, then vpsignd by the masked exponent zeroes it where the
 *    exponent field is 0 (as sig16 does);
 *  - vpsrlvd gives 0 for shifts of 32 or more, as the clamped shift by 31
 *    does for a 16-bit significand; the signs are applied with vpsignd by
 *    the operand (a +0 operand has significand 0 already);
 *  - floor_div256 is an arithmetic shift right by 8 (the same floor);
 *  - pack_signed: |r| < 2^16 converts to a float exactly (vcvtdq2ps; no
 *    rounding, so no dependence on the rounding mode), whose exponent field
 *    is 126 + L for r's bit length L and whose stored mantissa is r's bits
 *    below the top one, low 8 bits clear, i.e. what pack_norm builds with
 *    the biased exponent 126 + L; adding (e - 142) << 23 gives pack_norm's
 *    e + L - 16. That is <= e <= 254, so it never saturates; when it is
 *    <= 0 (the sum is then below 2^23 as a signed integer) the lane is the
 *    signed zero pack() returns, and r == 0 (float bits 0) is +0.
 * Lanes with an exponent field 255 operand go through gemath_lerp. */
AVX2_FN static void lerp8_avx2(const gefloat a[8], const gefloat b[8], unsigned k, gefloat out[8])
{
    const struct vec_consts *kc = vec_consts();
    __m256i va = _mm256_loadu_si256((const __m256i *)(const void *)a);
    __m256i vb = _mm256_loadu_si256((const __m256i *)(const void *)b);
    if (__builtin_expect(k - 1u >= 255u, 0)) { /* §4: k = 0 or 256 passes through */
        _mm256_storeu_si256((__m256i *)(void *)out, canon8_avx2(kc, k ? vb : va));
        return;
    }
    const __m256i expmask = VCONST256(kc, expmask);
    __m256i ea = _mm256_and_si256(va, expmask), eb = _mm256_and_si256(vb, expmask);
    __m256i e = _mm256_max_epu32(ea, eb);
    if (__builtin_expect(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(e, expmask))), 0)) {
        gefloat ca[8], cb[8];
        memcpy(ca, a, sizeof ca);
        memcpy(cb, b, sizeof cb);
        for (int i = 0; i < 8; i++) out[i] = gemath_lerp(ca[i], cb[i], k);
        return;
    }
    const __m256i sigbytes = VCONST256(kc, sigbytes), hidden = VCONST256(kc, hidden);
    __m256i ma = _mm256_sign_epi32(_mm256_or_si256(_mm256_shuffle_epi8(va, sigbytes), hidden), ea);
    __m256i mb = _mm256_sign_epi32(_mm256_or_si256(_mm256_shuffle_epi8(vb, sigbytes), hidden), eb);
    __m256i A = _mm256_sign_epi32(_mm256_srlv_epi32(ma, _mm256_srli_epi32(_mm256_sub_epi32(e, ea), 23)), va);
    __m256i B = _mm256_sign_epi32(_mm256_srlv_epi32(mb, _mm256_srli_epi32(_mm256_sub_epi32(e, eb), 23)), vb);
    __m256i d = _mm256_mullo_epi32(_mm256_sub_epi32(B, A), _mm256_set1_epi32((int)k));
    __m256i r = _mm256_add_epi32(A, _mm256_srai_epi32(d, 8));
    __m256i fb = _mm256_castps_si256(_mm256_cvtepi32_ps(_mm256_abs_epi32(r)));
    __m256i res = _mm256_add_epi32(fb, _mm256_sub_epi32(e, VCONST256(kc, bias142)));
    /* Normal result: r != 0 (fb >= 2^23 then) and exponent >= 1. */
    __m256i ok = _mm256_cmpgt_epi32(_mm256_min_epi32(res, fb), VCONST256(kc, minnorm));
    __m256i o = _mm256_or_si256(_mm256_and_si256(res, ok), _mm256_and_si256(r, VCONST256(kc, sign)));
    _mm256_storeu_si256((__m256i *)(void *)out, o);
}
#endif

void gemath_lerp8(const gefloat a[8], const gefloat b[8], unsigned k, gefloat out[8])
{
#ifdef GEMATH_AVX2
    if (__builtin_expect(have_avx2, 1)) {
        lerp8_avx2(a, b, k, out);
        return;
    }
#endif
    gefloat ca[8], cb[8]; /* out may be a or b */
    memcpy(ca, a, sizeof ca);
    memcpy(cb, b, sizeof cb);
    for (int i = 0; i < 8; i++) out[i] = gemath_lerp(ca[i], cb[i], k);
}

/* ---- The measured tables: reciprocal, reciprocal square root, setup ----
 *
 * All three were measured on a PSP (ppsspp-site docs/psp-hardware/gpu/
 * ge-arithmetic.md: "The reciprocal", "The reciprocal square root", "The
 * setup reciprocal"). The numbers below are that measurement, taken over as
 * data from PPSSPP's GPU/Software/GEMath.cpp (geRecipSegments,
 * geRsqrtSegments, geSetupRecip), where they were fit to probe readbacks.
 *
 * The reciprocal and the reciprocal square root: 128 segments over the 15
 * stored mantissa bits i of the argument, segment s = i >> 8 and position
 * x = i & 255, value q = (64 B[s] + 63 + M[s] x) >> 7 in units of 2^-16
 * (B in units of 2^-17, M in 2^-23 per step, 63 a bias below one half).
 * The reciprocal is 1 / 1.i; the reciprocal square root has one table for
 * even exponents (1 / sqrt(1.i)) and one for odd (1 / sqrt(2 * 1.i)). */
struct hw_segment {
    int32_t base, slope;
};

static const struct hw_segment recip_seg[128] = {
    {131072, -254}, {130055, -250}, {129054, -246}, {128071, -243}, {127099, -239}, {126143, -235}, {125203, -232}, {124274, -228},
    {123361, -225}, {122461, -222}, {121574, -219}, {120700, -216}, {119836, -212}, {118986, -209}, {118150, -207}, {117323, -204},
    {116508, -201}, {115704, -198}, {114913, -196}, {114130, -193}, {113358, -190}, {112599, -188}, {111847, -185}, {111107, -183},
    {110375, -180}, {109654, -178}, {108943, -176}, {108239, -173}, {107545, -171}, {106861, -169}, {106184, -167}, {105517, -165},
    {104858, -163}, {104206, -161}, {103563, -159}, {102927, -157}, {102300, -155}, {101680, -153}, {101067, -151}, {100463, -150},
    {99865, -148}, {99273, -146}, {98689, -144}, {98113, -143}, {97542, -141}, {96977, -139}, {96421, -138}, {95869, -136},
    {95326, -135}, {94786, -133}, {94255, -132}, {93727, -130}, {93207, -129}, {92691, -127}, {92182, -126}, {91680, -125},
    {91180, -123}, {90688, -122}, {90201, -121}, {89717, -119}, {89240, -118}, {88769, -117}, {88302, -116}, {87838, -114},
    {87381, -113}, {86928, -112}, {86481, -111}, {86037, -110}, {85599, -109}, {85164, -108}, {84732, -106}, {84307, -105},
    {83885, -104}, {83468, -103}, {83055, -102}, {82646, -101}, {82241, -100}, {81839, -99}, {81442, -98}, {81049, -97},
    {80659, -96}, {80275, -96}, {79892, -95}, {79513, -94}, {79138, -93}, {78766, -92}, {78398, -91}, {78033, -90},
    {77673, -90}, {77315, -89}, {76960, -88}, {76608, -87}, {76260, -86}, {75914, -85}, {75574, -85}, {75234, -84},
    {74898, -83}, {74564, -82}, {74236, -82}, {73908, -81}, {73584, -80}, {73264, -80}, {72944, -79}, {72628, -78},
    {72316, -78}, {72005, -77}, {71697, -76}, {71393, -76}, {71090, -75}, {70789, -74}, {70493, -74}, {70197, -73},
    {69906, -73}, {69615, -72}, {69327, -71}, {69042, -71}, {68759, -70}, {68479, -70}, {68200, -69}, {67925, -69},
    {67650, -68}, {67378, -67}, {67109, -67}, {66841, -66}, {66577, -66}, {66313, -65}, {66052, -65}, {65793, -64},
};

static const struct hw_segment rsqrt_seg_even[128] = {
    {131072, -127}, {130562, -125}, {130059, -124}, {129562, -122}, {129070, -121}, {128584, -120}, {128103, -118}, {127628, -117},
    {127158, -116}, {126693, -114}, {126233, -113}, {125778, -112}, {125328, -111}, {124883, -110}, {124443, -108}, {124007, -107},
    {123575, -106}, {123149, -105}, {122726, -104}, {122308, -103}, {121894, -102}, {121484, -101}, {121079, -100}, {120677, -99},
    {120279, -98}, {119886, -97}, {119496, -96}, {119110, -95}, {118727, -94}, {118349, -93}, {117974, -92}, {117602, -92},
    {117234, -91}, {116869, -90}, {116508, -89}, {116150, -88}, {115795, -87}, {115444, -87}, {115096, -86}, {114751, -85},
    {114409, -84}, {114070, -83}, {113734, -83}, {113400, -82}, {113070, -81}, {112743, -81}, {112419, -80}, {112097, -79},
    {111778, -79}, {111462, -78}, {111148, -77}, {110837, -77}, {110529, -76}, {110223, -75}, {109920, -75}, {109619, -74},
    {109321, -73}, {109025, -73}, {108732, -72}, {108441, -72}, {108152, -71}, {107865, -71}, {107581, -70}, {107299, -69},
    {107019, -69}, {106742, -68}, {106466, -68}, {106193, -67}, {105922, -67}, {105652, -66}, {105385, -66}, {105120, -65},
    {104857, -65}, {104596, -64}, {104337, -64}, {104079, -63}, {103824, -63}, {103570, -62}, {103319, -62}, {103069, -62},
    {102821, -61}, {102575, -61}, {102330, -60}, {102087, -60}, {101846, -59}, {101607, -59}, {101369, -59}, {101133, -58},
    {100899, -58}, {100666, -57}, {100435, -57}, {100205, -56}, {99977, -56}, {99751, -56}, {99526, -55}, {99303, -55},
    {99081, -55}, {98860, -54}, {98641, -54}, {98424, -54}, {98208, -53}, {97993, -53}, {97780, -52}, {97568, -52},
    {97357, -52}, {97148, -51}, {96940, -51}, {96734, -51}, {96529, -50}, {96325, -50}, {96122, -50}, {95921, -50},
    {95721, -49}, {95522, -49}, {95325, -49}, {95128, -48}, {94933, -48}, {94739, -48}, {94546, -47}, {94355, -47},
    {94164, -47}, {93975, -47}, {93787, -46}, {93600, -46}, {93414, -46}, {93229, -45}, {93046, -45}, {92863, -45},
};

static const struct hw_segment rsqrt_seg_odd[128] = {
    {92681, -89}, {92321, -88}, {91966, -87}, {91614, -86}, {91266, -85}, {90923, -84}, {90583, -84}, {90247, -83},
    {89914, -82}, {89585, -81}, {89260, -80}, {88939, -79}, {88620, -78}, {88306, -77}, {87994, -77}, {87686, -76},
    {87381, -75}, {87079, -74}, {86780, -73}, {86485, -73}, {86192, -72}, {85902, -71}, {85615, -70}, {85331, -70},
    {85050, -69}, {84772, -68}, {84496, -68}, {84223, -67}, {83953, -66}, {83685, -66}, {83420, -65}, {83157, -65},
    {82897, -64}, {82639, -63}, {82383, -63}, {82130, -62}, {81880, -62}, {81631, -61}, {81385, -61}, {81141, -60},
    {80899, -59}, {80659, -59}, {80422, -58}, {80186, -58}, {79953, -57}, {79721, -57}, {79492, -56}, {79264, -56},
    {79039, -55}, {78815, -55}, {78594, -54}, {78374, -54}, {78156, -54}, {77940, -53}, {77725, -53}, {77512, -52},
    {77302, -52}, {77092, -51}, {76885, -51}, {76679, -51}, {76475, -50}, {76272, -50}, {76071, -49}, {75872, -49},
    {75674, -49}, {75478, -48}, {75283, -48}, {75090, -47}, {74898, -47}, {74707, -47}, {74519, -46}, {74331, -46},
    {74145, -46}, {73960, -45}, {73777, -45}, {73595, -45}, {73415, -44}, {73235, -44}, {73057, -44}, {72881, -43},
    {72705, -43}, {72531, -43}, {72358, -42}, {72186, -42}, {72016, -42}, {71847, -42}, {71679, -41}, {71512, -41},
    {71346, -41}, {71181, -40}, {71018, -40}, {70856, -40}, {70694, -40}, {70534, -39}, {70375, -39}, {70217, -39},
    {70060, -38}, {69905, -38}, {69750, -38}, {69596, -38}, {69443, -37}, {69291, -37}, {69141, -37}, {68991, -37},
    {68842, -36}, {68694, -36}, {68547, -36}, {68401, -36}, {68256, -36}, {68112, -35}, {67969, -35}, {67826, -35},
    {67685, -35}, {67544, -34}, {67405, -34}, {67266, -34}, {67128, -34}, {66991, -34}, {66854, -33}, {66719, -33},
    {66584, -33}, {66450, -33}, {66317, -33}, {66185, -32}, {66054, -32}, {65923, -32}, {65793, -32}, {65664, -32},
};

static const int16_t setup_slope[256] = {
    -257, -254, -252, -250, -248, -246, -244, -242, -240, -238, -237, -235, -233, -231, -230, -228,
    -226, -225, -223, -221, -220, -218, -217, -215, -213, -212, -210, -209, -208, -206, -205, -203,
    -202, -200, -199, -198, -196, -195, -194, -192, -191, -190, -188, -187, -186, -185, -183, -182,
    -181, -180, -179, -178, -176, -175, -174, -173, -172, -171, -170, -169, -168, -166, -165, -164,
    -163, -162, -161, -160, -159, -158, -157, -156, -155, -154, -154, -153, -152, -151, -150, -149,
    -148, -147, -146, -145, -145, -144, -143, -142, -141, -140, -140, -139, -138, -137, -136, -136,
    -135, -134, -133, -133, -132, -131, -130, -130, -129, -128, -128, -127, -126, -125, -125, -124,
    -123, -123, -122, -121, -121, -120, -119, -119, -118, -118, -117, -116, -116, -115, -114, -114,
    -113, -113, -112, -112, -111, -110, -110, -109, -109, -108, -108, -107, -106, -106, -105, -105,
    -104, -104, -103, -103, -102, -102, -101, -101, -100, -100, -99, -99, -98, -98, -97, -97,
    -96, -96, -96, -95, -95, -94, -94, -93, -93, -92, -92, -92, -91, -91, -90, -90,
    -89, -89, -89, -88, -88, -87, -87, -87, -86, -86, -85, -85, -85, -84, -84, -83,
    -83, -83, -82, -82, -82, -81, -81, -81, -80, -80, -79, -79, -79, -78, -78, -78,
    -77, -77, -77, -76, -76, -76, -75, -75, -75, -74, -74, -74, -74, -73, -73, -73,
    -72, -72, -72, -71, -71, -71, -71, -70, -70, -70, -69, -69, -69, -69, -68, -68,
    -68, -67, -67, -67, -67, -66, -66, -66, -66, -65, -65, -65, -65, -64, -64, -64,
};

/* The table's value for significand m (0x8000..0xFFFF): (2^15, 2^16]. */
static inline uint32_t seg_eval(const struct hw_segment *t, uint32_t m)
{
    uint32_t i = (m >> 8) & 127u, x = m & 255u;
    return (uint32_t)((64 * t[i].base + 63 + t[i].slope * (int32_t)x) >> 7);
}

gefloat gemath_recip(gefloat x)
{
    uint32_t s, m;
    int32_t e;
    unpack(x, &s, &e, &m);
    if (m == 0) return (s << 31) | GEMATH_MAX;
    /* 1/x = (q / 2^16) * 2^(127 - e) with q in (2^15, 2^16]: a 16-bit
     * significand has biased exponent 253 - e. */
    return pack_norm(s, seg_eval(recip_seg, m), 253 - e);
}

gefloat gemath_rsqrt(gefloat x)
{
    uint32_t s, m;
    int32_t e;
    unpack(x, &s, &e, &m);
    if (m == 0) return GEMATH_MAX;
    /* |x| = f * 2^u with f = m / 2^15 and u = e - 127: rsqrt = q * 2^-16 *
     * 2^-floor(u / 2), q from the table of u's parity. */
    int32_t u = e - 127;
    int32_t odd = (int32_t)(~(uint32_t)e & 1u); /* u odd <=> e even */
    int32_t half = (u - odd) / 2;
    uint32_t v = seg_eval(odd ? rsqrt_seg_odd : rsqrt_seg_even, m);
    /* v * 2^(-16 - half): biased exponent 126 - half for 16-bit v. */
    return pack_norm(0, v, 126 - half);
}

/* The setup reciprocal: 256 segments over the 16 bits below the leading one
 * of the doubled area, segment s = index >> 8, position x = index & 255,
 * q = (2 K[s] + M[s] x) >> 8. Every knot but segment 0's is the exact
 * segment start rounded down to a multiple of 16, floor(2^39 / (65536 +
 * 256 s) / 16) * 16; segment 0's is 8388735 (127 above 2^23); the slopes M
 * are the measured table setup_slope (mostly the chord, 105 and 106 both
 * -128). */
static int32_t setup_knot[256];

uint32_t gemath_setup_recip(uint64_t det, unsigned *e)
{
    if (!det) {
        *e = 0;
        return 0;
    }
    unsigned lg = 63u - (unsigned)__builtin_clzll(det);
    *e = lg;
    uint64_t top = lg >= 16 ? det >> (lg - 16) : det << (16 - lg); /* 65536..131071 */
    uint32_t index = (uint32_t)top - 65536u, s = index >> 8, x = index & 255u;
    return (uint32_t)((2 * (int64_t)setup_knot[s] + setup_slope[s] * (int32_t)x) >> 8);
}

/* Builds the knots once, before main() (a pure function of the constants,
 * so no locking is ever needed), and picks the row sum's implementation. */
__attribute__((constructor)) static void tables_init(void)
{
#ifdef GEMATH_AVX2
    __builtin_cpu_init();
    have_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
#endif
    setup_knot[0] = 8388735;
    for (uint32_t s = 1; s < 256; s++) setup_knot[s] = (int32_t)((1ull << 39) / (65536u + 256u * s) / 16 * 16);
}

/* ---- Lighting (§3) ---- */

int32_t gemath_mitchell_log2(gefloat x)
{
    uint32_t s, m;
    int32_t e;
    unpack(x, &s, &e, &m);
    if (m == 0 || s) return GEMATH_LOG2_NONPOS;
    /* x = 2^(e-127) * (1 + f), f = (m - 2^15) / 2^15: e - 127 + f in Q15. */
    return (e - 127) * (1 << GEMATH_LOG2_FRAC_BITS) + (int32_t)(m & 0x7FFFu);
}

gefloat gemath_mitchell_exp2(int32_t y)
{
    uint32_t f = (uint32_t)y & 0x7FFFu;               /* fraction, >= 0 */
    int64_t i = ((int64_t)y - f) / (1 << GEMATH_LOG2_FRAC_BITS); /* floor(y) */
    int64_t e = i + 127;
    if (e <= 0) return GEMATH_ZERO;
    if (e >= 255) return GEMATH_MAX;
    /* 2^i * (1 + f): the fraction is exactly the 15 stored mantissa bits. */
    return ((uint32_t)e << 23) | (f << 8);
}

gefloat gemath_spec_pow(gefloat base, gefloat exponent)
{
    uint32_t sp, mp;
    int32_t ep;
    unpack(exponent, &sp, &ep, &mp);
    /* §3: the exponent cut to GEMATH_SPEC_EXP_MANT_BITS stored bits. */
    mp &= ~((1u << (15 - GEMATH_SPEC_EXP_MANT_BITS)) - 1u);
    if (mp == 0) return GEMATH_ONE;
    int32_t l = gemath_mitchell_log2(base);
    if (l == GEMATH_LOG2_NONPOS) return GEMATH_ZERO;
    /* y = l * (+-mp * 2^(ep - 142)) in Q15, truncated toward zero. |l| < 2^23
     * and mp < 2^16, so |l * mp| < 2^39. |y| >= 2^30 (|y| >= 32768) is
     * clamped: exp2 saturates or underflows long before. */
    uint32_t neg = (uint32_t)(l < 0) ^ sp;
    uint64_t mag = (uint64_t)(l < 0 ? -(int64_t)l : l) * mp;
    int32_t sh = ep - 142;
    const uint64_t clamp = 1ull << 30;
    if (mag == 0)
        return GEMATH_ONE; /* base 1.0: log2 is 0 */
    if (sh >= 0)
        mag = sh >= 24 ? clamp : mag << sh;
    else
        mag = sh > -64 ? mag >> -sh : 0;
    if (mag > clamp) mag = clamp;
    int32_t y = neg ? -(int32_t)mag : (int32_t)mag;
    return gemath_mitchell_exp2(y);
}
