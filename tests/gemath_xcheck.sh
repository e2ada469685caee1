#!/bin/sh
# Compiler cross-check for pipeline/gemath (run by the test gemath_compilers_agree).
# Usage: sh tests/gemath_xcheck.sh BUILD_DIR
# Builds tests/xcheck_gemath.c with gcc and clang at -O0 and -O2, plus a gcc
# -O2 build without the AVX2 row sum (-DGEMATH_PORTABLE), and exits 0 only
# when all five print the same hash (tests/xcheck.sh).
exec sh "$(dirname "$0")/xcheck.sh" "${1:?usage: gemath_xcheck.sh BUILD_DIR}" gemath "pipeline/gemath*.c" "" \
    "gcc -O0" "gcc -O2" "clang -O0" "clang -O2" "gcc -O2 -DGEMATH_PORTABLE"
