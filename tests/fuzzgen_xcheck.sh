#!/bin/sh
# Compiler cross-check for clients/fuzzgen (run by the test fuzzgen_compilers_agree).
# Usage: sh tests/fuzzgen_xcheck.sh BUILD_DIR
# Builds tests/xcheck_fuzzgen.c with the generator (clients/fuzzgen.c) and
# the pipeline files it needs with gcc and clang at -O0 and -O2 into
# BUILD_DIR, runs the four programs and exits 0 only when all four print the
# same hash of the generated cases. Two random draws in one expression
# (operands or arguments, whose order C leaves unspecified) make the hashes
# differ.
set -u
out=${1:?usage: fuzzgen_xcheck.sh BUILD_DIR}
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
cd "$(dirname "$0")/.." || exit 2
mkdir -p "$out" || exit 2
# The generator and what it links from the library (dump.c needs the
# archive libraries).
srcs="clients/fuzzgen.c pipeline/dumpbuild.c pipeline/dump.c pipeline/vdecode.c pipeline/mem.c \
pipeline/gemath.c pipeline/texture.c pipeline/gt_error.c"
libs=$(pkg-config --libs libzstd snappy libzip 2>/dev/null || echo "-lzstd -lsnappy -lzip")
first=""
status=0
for variant in "gcc -O0" "gcc -O2" "clang -O0" "clang -O2"; do
    bin="$out/xcheck_fuzzgen_$(echo "$variant" | tr -c 'A-Za-z0-9\n' '_')"
    # shellcheck disable=SC2086 # $variant, $srcs and $libs are word lists
    if ! $variant -std=c17 -ffp-contract=off -Wall -Wextra -Wno-unused-parameter \
        -D_DEFAULT_SOURCE -Ipipeline -Iclients -o "$bin" tests/xcheck_fuzzgen.c $srcs $libs; then
        echo "fuzzgen_xcheck: cannot build with $variant" >&2
        exit 1
    fi
    if ! h=$("$bin"); then
        echo "fuzzgen_xcheck: the $variant build failed to run" >&2
        exit 1
    fi
    echo "fuzzgen_xcheck: $variant: $h"
    if [ -z "$first" ]; then
        first=$h
    elif [ "$h" != "$first" ]; then
        status=1
    fi
done
if [ "$status" -ne 0 ]; then
    echo "fuzzgen_xcheck: the hashes differ: a seed gives different cases with different compilers" >&2
fi
exit "$status"
