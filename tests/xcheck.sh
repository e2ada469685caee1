#!/bin/sh
# Compiler cross-check shared by tests/gemath_xcheck.sh and tests/fuzzgen_xcheck.sh.
# Usage: sh tests/xcheck.sh BUILD_DIR NAME "SOURCES" "LIBS" VARIANT...
# Builds tests/xcheck_NAME.c with SOURCES once per VARIANT (a compiler and its
# flags, e.g. "clang -O2") into BUILD_DIR, runs each program (each prints one
# hash) and exits 0 only when all print the same hash.
set -u
out=${1:?usage: xcheck.sh BUILD_DIR NAME SOURCES LIBS VARIANT...}
name=${2:?} srcs=${3?} libs=${4?}
shift 4
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
cd "$(dirname "$0")/.." || exit 2
mkdir -p "$out" || exit 2
first=""
status=0
for variant in "$@"; do
    bin="$out/xcheck_${name}_$(echo "$variant" | tr -c 'A-Za-z0-9\n' '_')"
    # shellcheck disable=SC2086 # $variant, $srcs and $libs are word lists
    if ! $variant -std=c17 -ffp-contract=off -Wall -Wextra -Wno-unused-parameter \
        -D_DEFAULT_SOURCE -Ipipeline -Iclients -o "$bin" "tests/xcheck_$name.c" $srcs $libs; then
        echo "${name}_xcheck: cannot build with $variant" >&2
        exit 1
    fi
    if ! h=$("$bin"); then
        echo "${name}_xcheck: the $variant build failed to run" >&2
        exit 1
    fi
    echo "${name}_xcheck: $variant: $h"
    if [ -z "$first" ]; then
        first=$h
    elif [ "$h" != "$first" ]; then
        status=1
    fi
done
if [ "$status" -ne 0 ]; then
    echo "${name}_xcheck: the hashes differ" >&2
fi
exit "$status"
