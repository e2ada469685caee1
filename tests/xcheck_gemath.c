/* Compiler cross-check for pipeline/gemath: runs a fixed pseudo-random
 * workload over every operation and table (the eight-lane lerp too) and
 * prints one 64-bit hash of all results. tests/gemath_xcheck.sh builds it with gcc and clang at -O0 and
 * -O2 and requires the four hashes to be equal. */
#include <inttypes.h>
#include <stdio.h>

#include "gemath.h"

static uint64_t rng_state = 0x7863686563ull;
static uint64_t hash = 0xCBF29CE484222325ull; /* FNV-1a offset basis */

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Mixes a result into the hash, byte by byte (FNV-1a). */
static void mix(uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        hash ^= (v >> (8 * i)) & 0xFF;
        hash *= 0x100000001B3ull;
    }
}

/* A random bit pattern: mostly mid-range values, sometimes anything. */
static uint32_t rand_value(void)
{
    uint64_t r = rng_next();
    if ((r & 7) == 0) return (uint32_t)(r >> 32);
    uint32_t e = 110 + (uint32_t)((r >> 3) % 36);
    return (uint32_t)(r >> 63) << 31 | e << 23 | ((uint32_t)(r >> 8) & 0x7FFF00u);
}

int main(void)
{
    for (int i = 0; i < 300000; i++) {
        uint32_t a = rand_value(), b = rand_value(), c = rand_value();
        gefloat v4[4] = {a, b, c, rand_value()}, w4[4] = {b, c, a, rand_value()};
        if (i % 3 == 0) v4[i % 4] = (uint32_t)i << 31;         /* a zero term */
        if (i % 5 == 0) v4[1] = (v4[0] ^ 0x80000000u) + (c & 0x300u); /* cancellation */
        if (i % 5 == 0) w4[1] = w4[0];
        mix(gemath_trunc(a));
        mix(gemath_from_word(a));
        mix(gemath_from_f32bits(a));
        mix(gemath_from_s8((int8_t)a));
        mix(gemath_from_s16((int16_t)a));
        mix(gemath_from_u8((uint8_t)a));
        mix(gemath_from_u16((uint16_t)a));
        mix(gemath_from_int((int32_t)a));
        mix(gemath_from_fixed((int32_t)a, b & 63));
        mix((uint32_t)gemath_to_fixed(a, b & 63));
        mix(gemath_neg(a));
        mix(gemath_abs(a));
        mix((uint64_t)(int64_t)gemath_cmp(a, b));
        mix(gemath_mul(a, b));
        mix(gemath_add(a, b));
        mix(gemath_sub(a, b));
        mix(gemath_dot4(v4, w4));
        mix(gemath_dot3(v4, w4));
        mix(gemath_recip(a));
        mix(gemath_rsqrt(a));
        unsigned sh;
        mix(gemath_setup_recip((uint64_t)a << 7 | b, &sh));
        mix(sh);
        mix((uint32_t)gemath_mitchell_log2(a));
        mix(gemath_mitchell_exp2((int32_t)b));
        mix(gemath_spec_pow(a, b & 0x43FFFFFFu));
        mix(gemath_mul8((uint8_t)a, (uint8_t)b));
        mix(gemath_lerp(a, b, c % 257));
        mix(gemath_lerp(a, gemath_neg(b), c & 255));
        {
            /* Eight lanes with one k: independent values, near cancellation,
             * low exponents (underflow), sometimes a special value. */
            gefloat la[8], lb[8], lo[8];
            for (int t = 0; t < 8; t++) {
                la[t] = rand_value();
                lb[t] = t % 3 == 0 ? (la[t] ^ 0x80000000u) + ((uint32_t)t << 8) : rand_value();
                if (i % 4 == 1) {
                    la[t] = (la[t] & 0x807FFFFFu) | (uint32_t)(t + 1) << 23;
                    lb[t] = (lb[t] & 0x807FFFFFu) | (uint32_t)(t % 4 + 1) << 23;
                }
            }
            if (i % 16 == 7) lb[i % 8] = 0x7F800000u | (uint32_t)i;
            if (i % 16 == 9) la[i % 8] = (uint32_t)i & 0x807FFFFFu;
            gemath_lerp8(la, lb, i % 64 == 0 ? 256 : i % 64 == 1 ? 0 : c % 256, lo);
            for (int t = 0; t < 8; t++) mix(lo[t]);
        }
        if (i % 8 == 0) {
            gefloat m[12], p[16], o[16];
            for (int k = 0; k < 16; k++) {
                p[k] = rand_value();
                if (k < 12) m[k] = rand_value();
            }
            gemath_mat43_apply(m, v4, o);
            for (int k = 0; k < 3; k++) mix(o[k]);
            gemath_mat44_apply(p, v4, o);
            for (int k = 0; k < 4; k++) mix(o[k]);
            gemath_mat43_mul_mat43(m, p, o);
            for (int k = 0; k < 12; k++) mix(o[k]);
            gemath_mat44_mul_mat43(p, m, o);
            for (int k = 0; k < 16; k++) mix(o[k]);
        }
    }
    /* Every table entry. */
    for (uint32_t m = 0; m < 0x8000; m++)
        for (uint32_t e = 126; e <= 129; e++) {
            mix(gemath_recip(e << 23 | m << 8));
            mix(gemath_rsqrt(e << 23 | m << 8));
        }
    unsigned e;
    for (uint32_t n = 0; n < 65536; n++) mix(gemath_setup_recip(65536u + n, &e));
    printf("%016" PRIx64 "\n", hash);
    return 0;
}
