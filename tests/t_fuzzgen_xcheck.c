/* The fuzzer's case generator (clients/fuzzgen.c) makes the same cases with
 * gcc and clang at -O0 and -O2 (tests/fuzzgen_xcheck.sh builds and runs
 * tests/xcheck_fuzzgen.c four ways): no expression makes two random draws
 * in an order C leaves to the compiler, so a saved case replays anywhere. */
#include "test.h"

TEST(fuzzgen_compilers_agree)
{
    CHECK_EQ_I(test_system("sh tests/fuzzgen_xcheck.sh %s", test_tmpdir()), 0);
}
