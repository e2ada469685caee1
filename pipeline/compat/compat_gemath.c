/* The compat build's gemath (see ../compat.h, switch "arith"): gemath.c is
 * compiled here with its public functions renamed hw_*, and each public
 * function below calls the hardware version unless "arith" is selected, in
 * which case it computes as PPSSPP does, in IEEE single precision with
 * round-to-nearest: values keep all 24 significand bits, products and sums
 * round, matrices apply as (x*m0 + y*m1) + (z*m2 + m3), the reciprocals
 * divide, and the area reciprocal of §2 is exact. Only `make compat` builds
 * this file; the normal build compiles ../gemath.c alone. */
#define gemath_trunc hw_gemath_trunc
#define gemath_from_word hw_gemath_from_word
#define gemath_from_f32bits hw_gemath_from_f32bits
#define gemath_from_s8 hw_gemath_from_s8
#define gemath_from_s16 hw_gemath_from_s16
#define gemath_from_u8 hw_gemath_from_u8
#define gemath_from_u16 hw_gemath_from_u16
#define gemath_from_int hw_gemath_from_int
#define gemath_from_fixed hw_gemath_from_fixed
#define gemath_to_fixed hw_gemath_to_fixed
#define gemath_from_scaled hw_gemath_from_scaled
#define gemath_to_scaled hw_gemath_to_scaled
#define gemath_to_float hw_gemath_to_float
#define gemath_from_float hw_gemath_from_float
#define gemath_neg hw_gemath_neg
#define gemath_abs hw_gemath_abs
#define gemath_cmp hw_gemath_cmp
#define gemath_mul hw_gemath_mul
#define gemath_add hw_gemath_add
#define gemath_sub hw_gemath_sub
#define gemath_dot4 hw_gemath_dot4
#define gemath_dot3 hw_gemath_dot3
#define gemath_mat43_apply hw_gemath_mat43_apply
#define gemath_mat44_apply hw_gemath_mat44_apply
#define gemath_mat43_mul_mat43 hw_gemath_mat43_mul_mat43
#define gemath_mat44_mul_mat43 hw_gemath_mat44_mul_mat43
#define gemath_recip hw_gemath_recip
#define gemath_rsqrt hw_gemath_rsqrt
#define gemath_setup_recip hw_gemath_setup_recip
#define gemath_mitchell_log2 hw_gemath_mitchell_log2
#define gemath_mitchell_exp2 hw_gemath_mitchell_exp2
#define gemath_spec_pow hw_gemath_spec_pow
#define gemath_lerp hw_gemath_lerp
#define gemath_lerp8 hw_gemath_lerp8
#include "../gemath.c"
#undef gemath_trunc
#undef gemath_from_word
#undef gemath_from_f32bits
#undef gemath_from_s8
#undef gemath_from_s16
#undef gemath_from_u8
#undef gemath_from_u16
#undef gemath_from_int
#undef gemath_from_fixed
#undef gemath_to_fixed
#undef gemath_from_scaled
#undef gemath_to_scaled
#undef gemath_to_float
#undef gemath_from_float
#undef gemath_neg
#undef gemath_abs
#undef gemath_cmp
#undef gemath_mul
#undef gemath_add
#undef gemath_sub
#undef gemath_dot4
#undef gemath_dot3
#undef gemath_mat43_apply
#undef gemath_mat44_apply
#undef gemath_mat43_mul_mat43
#undef gemath_mat44_mul_mat43
#undef gemath_recip
#undef gemath_rsqrt
#undef gemath_setup_recip
#undef gemath_mitchell_log2
#undef gemath_mitchell_exp2
#undef gemath_spec_pow
#undef gemath_lerp
#undef gemath_lerp8

#include <math.h>

#include "../compat.h"

/* The public prototypes (gemath.h was read above under the hw_ names). */
gefloat gemath_trunc(uint32_t ieee_bits);
gefloat gemath_from_word(uint32_t word);
gefloat gemath_from_f32bits(uint32_t bits);
gefloat gemath_from_s8(int8_t v);
gefloat gemath_from_s16(int16_t v);
gefloat gemath_from_u8(uint8_t v);
gefloat gemath_from_u16(uint16_t v);
gefloat gemath_from_int(int32_t v);
gefloat gemath_from_fixed(int32_t v, unsigned frac_bits);
int32_t gemath_to_fixed(gefloat x, unsigned frac_bits);
gefloat gemath_from_scaled(int64_t m, int32_t exp2);
int64_t gemath_to_scaled(gefloat x, int32_t exp2);
float gemath_to_float(gefloat x);
gefloat gemath_from_float(float f);
gefloat gemath_neg(gefloat x);
gefloat gemath_abs(gefloat x);
int gemath_cmp(gefloat a, gefloat b);
gefloat gemath_mul(gefloat a, gefloat b);
gefloat gemath_add(gefloat a, gefloat b);
gefloat gemath_sub(gefloat a, gefloat b);
gefloat gemath_dot4(const gefloat a[4], const gefloat b[4]);
gefloat gemath_dot3(const gefloat a[3], const gefloat b[3]);
void gemath_mat43_apply(const gefloat m[12], const gefloat v[4], gefloat out[3]);
void gemath_mat44_apply(const gefloat m[16], const gefloat v[4], gefloat out[4]);
void gemath_mat43_mul_mat43(const gefloat first[12], const gefloat second[12], gefloat out[12]);
void gemath_mat44_mul_mat43(const gefloat proj[16], const gefloat m[12], gefloat out[16]);
gefloat gemath_recip(gefloat x);
gefloat gemath_rsqrt(gefloat x);
uint32_t gemath_setup_recip(uint64_t det, unsigned *e);
int32_t gemath_mitchell_log2(gefloat x);
gefloat gemath_mitchell_exp2(int32_t y);
gefloat gemath_spec_pow(gefloat base, gefloat exponent);
gefloat gemath_lerp(gefloat a, gefloat b, unsigned k);
void gemath_lerp8(const gefloat a[8], const gefloat b[8], unsigned k, gefloat out[8]);

#define ARITH GT_COMPAT(ARITH)

static inline float F(gefloat x)
{
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

/* A float result as a gefloat: all bits kept; denormals read as zero. */
static inline gefloat G(float f)
{
    gefloat x;
    memcpy(&x, &f, sizeof x);
    return (x & 0x7F800000u) ? x : x & 0x80000000u;
}

gefloat gemath_trunc(uint32_t b) { return ARITH ? G(F(b)) : hw_gemath_trunc(b); }
gefloat gemath_from_word(uint32_t w) { return hw_gemath_from_word(w); }
gefloat gemath_from_f32bits(uint32_t b) { return ARITH ? G(F(b)) : hw_gemath_from_f32bits(b); }
gefloat gemath_from_s8(int8_t v) { return hw_gemath_from_s8(v); }
gefloat gemath_from_s16(int16_t v) { return hw_gemath_from_s16(v); }
gefloat gemath_from_u8(uint8_t v) { return hw_gemath_from_u8(v); }
gefloat gemath_from_u16(uint16_t v) { return hw_gemath_from_u16(v); }
gefloat gemath_from_int(int32_t v) { return ARITH ? G((float)v) : hw_gemath_from_int(v); }
gefloat gemath_from_fixed(int32_t v, unsigned fb)
{
    return ARITH ? G((float)ldexp((double)v, -(int)fb)) : hw_gemath_from_fixed(v, fb);
}
int32_t gemath_to_fixed(gefloat x, unsigned fb)
{
    if (!ARITH) return hw_gemath_to_fixed(x, fb);
    double d = ldexp((double)F(x), (int)fb);
    return d >= 2147483647.0 ? INT32_MAX : d <= -2147483648.0 ? INT32_MIN : d != d ? 0 : (int32_t)d;
}
gefloat gemath_from_scaled(int64_t m, int32_t e)
{
    return ARITH ? G((float)ldexp((double)m, e)) : hw_gemath_from_scaled(m, e);
}
int64_t gemath_to_scaled(gefloat x, int32_t e)
{
    if (!ARITH) return hw_gemath_to_scaled(x, e);
    double d = ldexp((double)F(x), -e);
    return d >= 9.2e18 ? INT64_MAX : d <= -9.2e18 ? INT64_MIN : d != d ? 0 : (int64_t)d;
}
float gemath_to_float(gefloat x) { return hw_gemath_to_float(x); }
gefloat gemath_from_float(float f) { return ARITH ? G(f) : hw_gemath_from_float(f); }
gefloat gemath_neg(gefloat x) { return ARITH ? x ^ 0x80000000u : hw_gemath_neg(x); }
gefloat gemath_abs(gefloat x) { return ARITH ? x & 0x7FFFFFFFu : hw_gemath_abs(x); }
int gemath_cmp(gefloat a, gefloat b)
{
    if (!ARITH) return hw_gemath_cmp(a, b);
    float fa = F(a), fb = F(b);
    return (fa > fb) - (fa < fb);
}
gefloat gemath_mul(gefloat a, gefloat b) { return ARITH ? G(F(a) * F(b)) : hw_gemath_mul(a, b); }
gefloat gemath_add(gefloat a, gefloat b) { return ARITH ? G(F(a) + F(b)) : hw_gemath_add(a, b); }
gefloat gemath_sub(gefloat a, gefloat b) { return ARITH ? G(F(a) - F(b)) : hw_gemath_sub(a, b); }
gefloat gemath_dot4(const gefloat a[4], const gefloat b[4])
{
    if (!ARITH) return hw_gemath_dot4(a, b);
    return G((F(a[0]) * F(b[0]) + F(a[1]) * F(b[1])) + (F(a[2]) * F(b[2]) + F(a[3]) * F(b[3])));
}
gefloat gemath_dot3(const gefloat a[3], const gefloat b[3])
{
    if (!ARITH) return hw_gemath_dot3(a, b);
    return G((F(a[0]) * F(b[0]) + F(a[1]) * F(b[1])) + F(a[2]) * F(b[2]));
}
static void compat_mat_apply(const gefloat *m, int rows, const gefloat v[4], gefloat *out)
{
    for (int r = 0; r < rows; r++) {
        const gefloat row[4] = {m[r], m[rows + r], m[2 * rows + r], m[3 * rows + r]};
        out[r] = gemath_dot4(row, v);
    }
}
void gemath_mat43_apply(const gefloat m[12], const gefloat v[4], gefloat out[3])
{
    if (ARITH) compat_mat_apply(m, 3, v, out);
    else hw_gemath_mat43_apply(m, v, out);
}
void gemath_mat44_apply(const gefloat m[16], const gefloat v[4], gefloat out[4])
{
    if (ARITH) compat_mat_apply(m, 4, v, out);
    else hw_gemath_mat44_apply(m, v, out);
}
/* Matrix products as PPSSPP's fast_matrix_mul_4x4: each element a sum from
 * left to right, ((p0 + p1) + p2) + p3. */
static void compat_mat_mul(const gefloat *m, int rows, const gefloat col[4], gefloat *out)
{
    for (int r = 0; r < rows; r++)
        out[r] = G(((F(m[r]) * F(col[0]) + F(m[rows + r]) * F(col[1])) + F(m[2 * rows + r]) * F(col[2])) +
                   F(m[3 * rows + r]) * F(col[3]));
}
void gemath_mat43_mul_mat43(const gefloat first[12], const gefloat second[12], gefloat out[12])
{
    if (!ARITH) {
        hw_gemath_mat43_mul_mat43(first, second, out);
        return;
    }
    for (int c = 0; c < 4; c++) {
        const gefloat col[4] = {first[3 * c], first[3 * c + 1], first[3 * c + 2], c == 3 ? GEMATH_ONE : GEMATH_ZERO};
        compat_mat_mul(second, 3, col, out + 3 * c);
    }
}
void gemath_mat44_mul_mat43(const gefloat proj[16], const gefloat m[12], gefloat out[16])
{
    if (!ARITH) {
        hw_gemath_mat44_mul_mat43(proj, m, out);
        return;
    }
    for (int c = 0; c < 4; c++) {
        const gefloat col[4] = {m[3 * c], m[3 * c + 1], m[3 * c + 2], c == 3 ? GEMATH_ONE : GEMATH_ZERO};
        compat_mat_mul(proj, 4, col, out + 4 * c);
    }
}
gefloat gemath_recip(gefloat x) { return ARITH ? G(1.0f / F(x)) : hw_gemath_recip(x); }
gefloat gemath_rsqrt(gefloat x) { return ARITH ? G(1.0f / sqrtf(fabsf(F(x)))) : hw_gemath_rsqrt(x); }
uint32_t gemath_setup_recip(uint64_t det, unsigned *e)
{
    uint32_t q = hw_gemath_setup_recip(det, e);
    if (!ARITH || !det) return q;
    /* Exact, at the hardware version's scale (2^(e + 16) / det). */
    return (uint32_t)(((unsigned __int128)1 << (*e + 16)) / det);
}
int32_t gemath_mitchell_log2(gefloat x) { return hw_gemath_mitchell_log2(x); }
gefloat gemath_mitchell_exp2(int32_t y) { return hw_gemath_mitchell_exp2(y); }
gefloat gemath_spec_pow(gefloat base, gefloat e)
{
    if (!ARITH) return hw_gemath_spec_pow(base, e);
    /* pspLightPow: 1 for a non-positive exponent, v itself for v <= 0. */
    float fe = F(e), fb = F(base);
    if (!(fe > 0.0f)) return GEMATH_ONE;
    return fb > 0.0f ? G(powf(fb, fe)) : G(fb);
}
gefloat gemath_lerp(gefloat a, gefloat b, unsigned k)
{
    if (!ARITH) return hw_gemath_lerp(a, b, k);
    if (k == 0) return a;
    if (k >= 256) return b;
    return G(F(a) + (F(b) - F(a)) * ((float)k / 256.0f));
}
void gemath_lerp8(const gefloat a[8], const gefloat b[8], unsigned k, gefloat out[8])
{
    if (!ARITH) {
        hw_gemath_lerp8(a, b, k, out);
        return;
    }
    for (int i = 0; i < 8; i++) out[i] = gemath_lerp(a[i], b[i], k);
}
