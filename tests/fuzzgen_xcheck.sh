#!/bin/sh
# Compiler cross-check for clients/fuzzgen (run by the test fuzzgen_compilers_agree).
# Usage: sh tests/fuzzgen_xcheck.sh BUILD_DIR
# Builds tests/xcheck_fuzzgen.c with the generator (clients/fuzzgen.c) and
# the pipeline files it needs with gcc and clang at -O0 and -O2 and exits 0
# only when all four print the same hash of the generated cases
# (tests/xcheck.sh). Two random draws in one expression (operands or
# arguments, whose order C leaves unspecified) make the hashes differ.
srcs="clients/fuzzgen.c pipeline/dumpbuild.c pipeline/dump.c pipeline/vdecode.c pipeline/mem.c \
pipeline/gemath.c pipeline/texture.c pipeline/gt_error.c"
# dump.c needs the archive libraries.
libs=$(pkg-config --libs libzstd snappy libzip 2>/dev/null || echo "-lzstd -lsnappy -lzip")
exec sh "$(dirname "$0")/xcheck.sh" "${1:?usage: fuzzgen_xcheck.sh BUILD_DIR}" fuzzgen "$srcs" "$libs" \
    "gcc -O0" "gcc -O2" "clang -O0" "clang -O2"
