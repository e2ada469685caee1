/* gemath gives bit-identical results with gcc and clang at -O0 and -O2, and
 * with and without its AVX2 row sum (tests/gemath_xcheck.sh builds and runs
 * tests/xcheck_gemath.c five ways). */
#include "test.h"

TEST(gemath_compilers_agree)
{
    CHECK_EQ_I(test_system("sh tests/gemath_xcheck.sh %s", test_tmpdir()), 0);
}
