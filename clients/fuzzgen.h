/* Random GE cases for `getile fuzz` (clients/cmd_fuzz.c), the determinism
 * fuzzer: every case is a frame dump (version 6) built with
 * pipeline/dumpbuild.h, so the fuzzer renders exactly what a saved case
 * replays. A case holds an INIT record, recorded VRAM contents (MEMSET,
 * MEMCPYDATA), display lists as REGISTERS records, the data they draw from
 * as VERTICES, INDICES, TEXTURE0, CLUT and FRAMEBUF0 records, and a DISPLAY
 * record naming the last color buffer.
 *
 * The lists mix what stresses tile binning and threads: overlapping blended
 * triangles, strips, fans, rectangles, lines and points in through and
 * transform mode; depth and stencil; pixels past the stride; REGION1
 * offsets; depth buffers equal to or overlapping the color buffer or with
 * another stride; render to texture; self-texturing; clear mode; the four
 * framebuffer formats; block transfers; and deliberately bad addresses
 * (vertices and textures in unmapped memory or in the framebuffer).
 *
 * Case `index` of `seed` is a pure function of the two numbers (the
 * generator draws from its own xoshiro256** stream, never rand()). */
#ifndef GETILE_FUZZGEN_H
#define GETILE_FUZZGEN_H

#include <stddef.h>
#include <stdint.h>

#include "dumpbuild.h"

/* xoshiro256** seeded through splitmix64. */
struct fuzz_rng {
    uint64_t s[4];
};

void fuzz_rng_seed(struct fuzz_rng *r, uint64_t seed);
uint64_t fuzz_rng_next(struct fuzz_rng *r);
/* A number in [0, n) (0 when n is 0). */
uint32_t fuzz_rng_below(struct fuzz_rng *r, uint32_t n);

/* One generated case. */
struct fuzz_case {
    struct dumpb b;       /* the case as a frame dump (b.d) */
    uint64_t seed, index;
    unsigned draws;       /* PRIM words in its lists */
    char desc[256];       /* the features it uses, space separated */
};

/* Builds case `index` of `seed`. Returns 0, or GT_ENOMEM (nothing left
 * allocated). */
int fuzz_case_make(struct fuzz_case *c, uint64_t seed, uint64_t index);
void fuzz_case_free(struct fuzz_case *c);

/* FNV-1a 64 taken 8 bytes (one little-endian word) at a time, the tail
 * byte by byte; continues from h (start with FUZZ_HASH_INIT). */
#define FUZZ_HASH_INIT 0xcbf29ce484222325ull
uint64_t fuzz_hash(uint64_t h, const void *p, size_t n);

#endif
