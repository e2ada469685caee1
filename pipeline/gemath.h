/* GE arithmetic: the console's number format and every operation the
 * transform path, triangle setup, lighting, curves and the blender compute
 * with (GE-HARDWARE.md §1 to §4). All of it is integer code; no operation
 * here uses host floating point arithmetic (the AVX2 row sums and lerp8
 * convert integers below 2^24 to floats, which is exact, only to find their
 * bit length), so results are identical on every compiler and CPU.
 *
 * The number format (§1). A gefloat is the bit pattern of an IEEE single
 * whose low 8 mantissa bits are zero: 1 sign bit, an 8-bit exponent with
 * bias 127 and 15 stored mantissa bits under a hidden bit, i.e. a 16-bit
 * significand. A display-list float is its command word's 24-bit payload
 * shifted left by 8. A canonical gefloat is either a signed zero or has an
 * exponent field in 1..254 and the low 8 bits clear; every function below
 * returns canonical values.
 *
 * Rounding (§1). Every result is truncated toward zero (its magnitude is cut
 * to 16 significant bits); nothing rounds to nearest.
 *
 * Special values. GE-HARDWARE.md does not describe them, so this policy is
 * a model choice (not measured), applied identically by every operation:
 *  - Inputs are read through gemath_trunc(): the low 8 bits are ignored, an
 *    exponent field of 0 (zero or an IEEE denormal) reads as a zero of the
 *    same sign, and an exponent field of 255 (IEEE infinity or NaN, any
 *    payload) reads as the largest finite magnitude GEMATH_MAX with the same
 *    sign. There are no infinities or NaNs in the format.
 *  - A result whose magnitude, after truncation to 16 significant bits, is
 *    below the smallest normal (2^-126) becomes a zero with the sign of the
 *    exact result (no denormals).
 *  - A result whose magnitude is at least 2^128 saturates to GEMATH_MAX with
 *    the sign of the exact result.
 *  - An exactly zero result of gemath_add, gemath_sub, the row sums and
 *    gemath_lerp is +0 (whatever the signs of the zero operands); gemath_mul
 *    returns a zero signed with the xor of its operands' signs; gemath_neg
 *    flips the sign of zeros too.
 *  - gemath_recip(±0) = ±GEMATH_MAX; gemath_rsqrt(x) uses |x| and
 *    gemath_rsqrt(±0) = +GEMATH_MAX.
 */
#ifndef GETILE_GEMATH_H
#define GETILE_GEMATH_H

#include <stdint.h>

/* A value in the GE's number format, stored as IEEE single bits (see above). */
typedef uint32_t gefloat;

#define GEMATH_ZERO     0x00000000u /* +0 */
#define GEMATH_NEG_ZERO 0x80000000u /* -0 */
#define GEMATH_ONE      0x3F800000u /* 1.0 */
/* Largest finite magnitude: (2 - 2^-15) * 2^127. Saturation target, see above. */
#define GEMATH_MAX      0x7F7FFF00u

/* ---- The number format and conversions ---- */

/* Truncates any IEEE single bit pattern to a canonical gefloat (cuts the low
 * 8 bits; applies the special-value policy). Also converts a 32-bit float
 * vertex component or any float read from memory. */
gefloat gemath_trunc(uint32_t ieee_bits);
/* A display-list float: the command word's low 24 bits, shifted left by 8. */
gefloat gemath_from_word(uint32_t word);
/* A 32-bit float vertex component (same as gemath_trunc). */
gefloat gemath_from_f32bits(uint32_t bits);
/* Fixed-point vertex components, exact: s8 v/128, s16 v/32768, u8 v/128,
 * u16 v/32768 (unsigned formats use the signed formats' scale). */
gefloat gemath_from_s8(int8_t v);
gefloat gemath_from_s16(int16_t v);
gefloat gemath_from_u8(uint8_t v);
gefloat gemath_from_u16(uint16_t v);
/* An integer, truncated toward zero to 16 significant bits. */
gefloat gemath_from_int(int32_t v);
/* v / 2^frac_bits (frac_bits 0..63), truncated toward zero to 16 significant bits. */
gefloat gemath_from_fixed(int32_t v, unsigned frac_bits);
/* x * 2^frac_bits truncated toward zero to an integer, saturated to
 * [INT32_MIN, INT32_MAX]. frac_bits 0..63. For example 12.4 screen
 * coordinates are gemath_to_fixed(x, 4). */
int32_t gemath_to_fixed(gefloat x, unsigned frac_bits);
/* m * 2^exp2 for any 64-bit integer m, truncated toward zero to 16
 * significant bits (the rasterizer's block-floating-point planes use it). */
gefloat gemath_from_scaled(int64_t m, int32_t exp2);
/* x / 2^exp2 truncated toward zero to an integer; saturates at
 * [-2^62, 2^62] (values at or beyond 2^62 give INT64_MIN / INT64_MAX). */
int64_t gemath_to_scaled(gefloat x, int32_t exp2);
/* The per-pixel texture coordinate product of ge-arithmetic.md "Texture
 * coordinates per pixel": a * b exactly, kept to 24 significant bits
 * (truncated), then divided by 2^exp2 and truncated toward zero to an
 * integer (saturated near 2^60). */
int64_t gemath_uv_scaled(gefloat a, gefloat b, int32_t exp2);
/* Host float conversions, exact. For output and tests only: no transform
 * arithmetic may run in host floats. */
float gemath_to_float(gefloat x);
gefloat gemath_from_float(float f); /* truncates, like gemath_trunc */

/* ---- Operations (§1), all truncating toward zero ---- */

/* -x (also for zeros). */
gefloat gemath_neg(gefloat x);
/* |x|. */
gefloat gemath_abs(gefloat x);
/* Compares the values of a and b (+0 equals -0): -1, 0 or 1. */
int gemath_cmp(gefloat a, gefloat b);
/* a * b: the exact product truncated to the format. */
gefloat gemath_mul(gefloat a, gefloat b);
/* a + b with no guard bits: both operands truncated to the ulp of the one
 * with the larger magnitude, added exactly, the sum truncated. */
gefloat gemath_add(gefloat a, gefloat b);
/* a - b, i.e. gemath_add(a, gemath_neg(b)). */
gefloat gemath_sub(gefloat a, gefloat b);
/* The fused row sum a0*b0 + a1*b1 + a2*b2 + a3*b3: four exact products,
 * each truncated to the ulp of the largest product (zero products never
 * count as the largest), added exactly, the sum truncated once. */
gefloat gemath_dot4(const gefloat a[4], const gefloat b[4]);
/* The same unit with three terms (a zero fourth term). */
gefloat gemath_dot3(const gefloat a[3], const gefloat b[3]);

/* ---- Matrices (§1): every output element is one fused row sum ----
 * A 4x3 matrix (world, view, texture) is 12 values: m[0..2] is the image of
 * the x axis, m[3..5] of y, m[6..8] of z, m[9..11] the translation, so
 * x' = m0*x + m3*y + m6*z + m9*w. A 4x4 matrix (projection) is 16 values in
 * the same column order: x' = m0*x + m4*y + m8*z + m12*w. */

/* out = m * v (3 components). */
void gemath_mat43_apply(const gefloat m[12], const gefloat v[4], gefloat out[3]);
/* out = m * v (4 components). */
void gemath_mat44_apply(const gefloat m[16], const gefloat v[4], gefloat out[4]);
/* out = second * first: maps v to second(first(v)) (for example first =
 * world, second = view). out may not alias the inputs. */
void gemath_mat43_mul_mat43(const gefloat first[12], const gefloat second[12], gefloat out[12]);
/* out = proj * m (4x4 times 4x3 with the implicit row 0 0 0 1): maps v to
 * proj(m(v)). out may not alias the inputs. */
void gemath_mat44_mul_mat43(const gefloat proj[16], const gefloat m[12], gefloat out[16]);

/* ---- Tables (§1, §2) ---- */

/* 1/x for the perspective divide: the measured 128-segment table
 * (ge-arithmetic.md "The reciprocal"; gemath.c). */
gefloat gemath_recip(gefloat x);
/* 1/sqrt(|x|) for normalisation: the measured 128-segment tables, one per
 * exponent parity (ge-arithmetic.md "The reciprocal square root"). */
gefloat gemath_rsqrt(gefloat x);

/* The setup reciprocal of triangle and line setup (ge-arithmetic.md "The
 * setup reciprocal"; gemath.c): for det > 0, *e = floor(log2 det) and the
 * result q ~ 2^(*e + 16) / det, in (2^15, 2^16].
 * A plane gradient is floor(n * q / 2^(*e + 2)): n / det with 14 fraction
 * bits. det 0 gives 0. */
uint32_t gemath_setup_recip(uint64_t det, unsigned *e);

/* ---- Lighting (§3) ---- */

/* Fixed-point format of the Mitchell log2/exp2 values: 15 fraction bits. */
#define GEMATH_LOG2_FRAC_BITS 15
/* gemath_mitchell_log2 of a zero or negative value ("minus infinity"). */
#define GEMATH_LOG2_NONPOS INT32_MIN
/* Mitchell's log2 (a straight line between powers of two): for x = 2^e * (1 + f)
 * returns e + f with GEMATH_LOG2_FRAC_BITS fraction bits (exact, no rounding).
 * GEMATH_LOG2_NONPOS for x <= 0. */
int32_t gemath_mitchell_log2(gefloat x);
/* Mitchell's exp2: for y = i + f (i = floor(y), 0 <= f < 1, y with
 * GEMATH_LOG2_FRAC_BITS fraction bits) returns 2^i * (1 + f) (exact in the
 * format), +0 below 2^-126, GEMATH_MAX from 2^128 up. */
gefloat gemath_mitchell_exp2(int32_t y);
/* The specular power base^exponent of §3: exp2(exponent' * log2(base)) with
 * Mitchell's log2 and exp2, where exponent' is the exponent cut to
 * GEMATH_SPEC_EXP_MANT_BITS stored mantissa bits (truncated toward zero),
 * and the product is truncated toward zero to GEMATH_LOG2_FRAC_BITS fraction
 * bits. exponent' == 0 gives 1.0 for every base; otherwise base <= 0 gives +0. */
gefloat gemath_spec_pow(gefloat base, gefloat exponent);
/* Stored mantissa bits the specular exponent keeps (§3 "cut to 4 mantissa
 * bits"; read as: the 4 stored bits after the hidden bit). */
#define GEMATH_SPEC_EXP_MANT_BITS 4

/* The GE's 8-bit product ((2x + 1)(2s + 1)) >> 10, used for light colors and
 * by the blender (§3). */
static inline uint8_t gemath_mul8(uint8_t x, uint8_t s)
{
    return (uint8_t)(((2u * x + 1u) * (2u * s + 1u)) >> 10);
}

/* ---- Curves (§4) ---- */

/* The patch lerp a + (b - a) * k/256, k in 0..256 (larger k is read as 256),
 * in block floating point at the larger operand's exponent: both operands
 * become 16-bit integers in units of that exponent's lowest significand bit
 * (truncating toward zero), the result is A + floor((B - A) * k / 256) in
 * those units, converted back at that exponent. k = 0 returns a and k = 256
 * returns b unchanged (canonicalised by gemath_trunc). */
gefloat gemath_lerp(gefloat a, gefloat b, unsigned k);
/* Eight lerps with one k: out[i] = gemath_lerp(a[i], b[i], k), bit for bit
 * (an AVX2 version is chosen at run time on x86-64, like the row sum's).
 * out may be a or b (but not overlap them partially). */
void gemath_lerp8(const gefloat a[8], const gefloat b[8], unsigned k, gefloat out[8]);

#endif
