#!/bin/sh
# Compiler cross-check for pipeline/gemath (run by the test gemath_compilers_agree).
# Usage: sh tests/gemath_xcheck.sh BUILD_DIR
# Builds tests/xcheck_gemath.c with gcc and clang at -O0 and -O2 into BUILD_DIR,
# plus a gcc -O2 build without the AVX2 row sum (-DGEMATH_PORTABLE), runs the
# five programs and exits 0 only when all five print the same hash.
set -u
out=${1:?usage: gemath_xcheck.sh BUILD_DIR}
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
cd "$(dirname "$0")/.." || exit 2
mkdir -p "$out" || exit 2
first=""
status=0
for variant in "gcc -O0" "gcc -O2" "clang -O0" "clang -O2" "gcc -O2 -DGEMATH_PORTABLE"; do
    bin="$out/xcheck_gemath_$(echo "$variant" | tr -c 'A-Za-z0-9\n' '_')"
    # shellcheck disable=SC2086 # $variant is a compiler and its flags
    if ! $variant -std=c17 -ffp-contract=off -Wall -Wextra -Wno-unused-parameter \
        -D_DEFAULT_SOURCE -Ipipeline -o "$bin" tests/xcheck_gemath.c pipeline/gemath*.c; then
        echo "gemath_xcheck: cannot build with $variant" >&2
        exit 1
    fi
    if ! h=$("$bin"); then
        echo "gemath_xcheck: the $variant build failed to run" >&2
        exit 1
    fi
    echo "gemath_xcheck: $variant: $h"
    if [ -z "$first" ]; then
        first=$h
    elif [ "$h" != "$first" ]; then
        status=1
    fi
done
if [ "$status" -ne 0 ]; then
    echo "gemath_xcheck: the hashes differ" >&2
fi
exit "$status"
