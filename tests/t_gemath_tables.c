/* gemath's measured tables (ge-arithmetic.md "The reciprocal", "The
 * reciprocal square root", "The setup reciprocal"): against the values a PSP
 * produced, as PPSSPP's unittest/TestGEMath.cpp lists them (probes exp15,
 * exp38-41, exp54, exp69, and a Blade Dancer frame dump), plus the
 * structure the pages give (sign and exponent carried over, the setup
 * reciprocal reads only the top 16 bits). */
#include <string.h>

#include "gemath.h"
#include "test.h"

/* 1 / (1 + i / 32768) in units of 2^-16, measured for every mantissa (exp15). */
static const uint32_t recip_measured[][2] = {
    {0, 65536},     {1, 65534},     {255, 65030},   {256, 65027},   {909, 63768},   {1149, 63316},  {2816, 60350},
    {4727, 57274},  {8168, 52459},  {8423, 52135},  {8953, 51472},  {10218, 49957}, {10809, 49280}, {13408, 46507},
    {13869, 46047}, {14837, 45110}, {15497, 44494}, {16762, 43357}, {17635, 42606}, {18007, 42294}, {21093, 39871},
    {24689, 37376}, {24729, 37350}, {26789, 36057}, {26951, 35960}, {27112, 35863}, {27453, 35660}, {28359, 35131},
    {28463, 35072}, {31067, 33641}, {31123, 33612}, {32767, 32769},
};

/* q * 2^-16 as a gefloat (q in (2^15, 2^16]): the exponent of 2^-1 or 2^0. */
static gefloat q16(uint32_t q)
{
    if (q == 65536) return GEMATH_ONE;
    return (126u << 23) | ((q & 0x7FFFu) << 8); /* q / 2^16 = (q / 2^15) / 2 */
}

TEST(gemath_recip_measured)
{
    for (size_t k = 0; k < sizeof recip_measured / sizeof recip_measured[0]; k++) {
        gefloat w = GEMATH_ONE | recip_measured[k][0] << 8;
        CHECK_MSG(gemath_recip(w) == q16(recip_measured[k][1]), "recip(1 + %u/32768) = 0x%08X, PSP %u / 2^16",
                  recip_measured[k][0], gemath_recip(w), recip_measured[k][1]);
        /* Sign and exponent are carried over: 1 / (-4 w) = -(1/w) / 4. */
        gefloat w4 = w + (2u << 23);
        CHECK_EQ_U(gemath_recip(w4 | 0x80000000u), (q16(recip_measured[k][1]) - (2u << 23)) | 0x80000000u);
    }
    CHECK_EQ_U(gemath_recip(0xC0000000u), 0xBF000000u); /* 1 / -2 = -0.5 */
    CHECK_EQ_U(gemath_recip(0x3E800000u), 0x40800000u); /* 1 / 0.25 = 4 */
}

/* exp69: the odd-exponent table stores 1 / sqrt(2 * 1.i). */
TEST(gemath_rsqrt_measured)
{
    CHECK_EQ_U(gemath_rsqrt(0x3F800000u), 0x3F800000u); /* 1 */
    CHECK_EQ_U(gemath_rsqrt(0x40800000u), 0x3F000000u); /* 1/sqrt(4) = 0.5 */
    CHECK_EQ_U(gemath_rsqrt(0x3E800000u), 0x40000000u); /* 1/sqrt(0.25) = 2 */
    CHECK_EQ_U(gemath_rsqrt(0x40000000u), q16(46340));  /* 1/sqrt(2): 46340 / 2^16 */
}

/* The setup reciprocal for 16-bit significand indices, measured (exp38-41). */
static const uint32_t setup_measured[][2] = {
    {0, 65536},     {2, 65534},     {254, 65282},   {256, 65280},   {2594, 63040},  {4086, 61689},  {7588, 58735},
    {10520, 56471}, {18132, 51333}, {19190, 50692}, {21126, 49560}, {23770, 48092}, {24120, 47905}, {27582, 46123},
    {27812, 46010}, {27998, 45918}, {29846, 45029}, {30100, 44909}, {33802, 43235}, {34636, 42876}, {35440, 42534},
    {40160, 40635}, {40842, 40374}, {47082, 38137}, {47536, 37984}, {50630, 36973}, {50882, 36892}, {57148, 35008},
    {60100, 34186}, {60570, 34058}, {63526, 33278}, {65534, 32768},
};

TEST(gemath_setup_recip_measured)
{
    unsigned e;
    for (size_t k = 0; k < sizeof setup_measured / sizeof setup_measured[0]; k++) {
        uint32_t idx = setup_measured[k][0], want = setup_measured[k][1];
        CHECK_MSG(gemath_setup_recip(65536 + idx, &e) == want && e == 16, "setup_recip(index %u) = %u (e %u), PSP %u",
                  idx, gemath_setup_recip(65536 + idx, &e), e, want);
        /* Only the 16 bits below the leading one count. */
        CHECK_EQ_U(gemath_setup_recip((uint64_t)(65536 + idx) << 5 | 31, &e), want);
        CHECK_EQ_U(e, 21);
        CHECK_EQ_U(gemath_setup_recip((uint64_t)(65536 + idx) << 30, &e), want);
        CHECK_EQ_U(e, 46);
    }
    /* Small areas are normalised too: 3 = 1.1b * 2^1, index 32768. */
    CHECK_EQ_U(gemath_setup_recip(3, &e), gemath_setup_recip(3u << 15, &e));
    CHECK_EQ_U(e, 16);
    CHECK_EQ_U(gemath_setup_recip(1, &e), 65536);
    CHECK_EQ_U(e, 0);
    /* exp54's Gouraud triangle (det 854491) needs at least 40211; exp39 and
     * exp41 bound it from above. */
    CHECK_EQ_U(gemath_setup_recip(65536 + 41275, &e), 40211);
    /* Blade Dancer's large triangle (det 9668772) needs 56859 for its depth. */
    CHECK_EQ_U(gemath_setup_recip(9668772, &e), 56859);
    CHECK_EQ_U(gemath_setup_recip(0, &e), 0);
}
