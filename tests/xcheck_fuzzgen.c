/* Compiler cross-check for clients/fuzzgen (the determinism fuzzer's case
 * generator): generates the cases of several seeds and case numbers and
 * prints one 64-bit hash of everything that makes up a case (the dump's
 * version, records and data bytes, the PRIM count and the feature list).
 * tests/fuzzgen_xcheck.sh builds it with gcc and clang and requires the
 * hashes to be equal: a seed must give the same case with any compiler. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fuzzgen.h"

static uint64_t hash = 0xCBF29CE484222325ull; /* FNV-1a offset basis */

/* Mixes bytes into the hash (FNV-1a). */
static void mix_bytes(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) {
        hash ^= b[i];
        hash *= 0x100000001B3ull;
    }
}

/* Mixes a number into the hash, least significant byte first. */
static void mix(uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
    mix_bytes(b, sizeof b);
}

int main(void)
{
    static const uint64_t seeds[] = {0, 1, 7, 8, 42, 0x123456789ABCDEF0ull, UINT64_MAX};
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++)
        for (uint64_t k = 0; k < 12; k++) {
            struct fuzz_case c;
            if (fuzz_case_make(&c, seeds[s], k) != 0) {
                fprintf(stderr, "xcheck_fuzzgen: seed %" PRIu64 " case %" PRIu64 " failed\n", seeds[s], k);
                return 1;
            }
            const struct dump *d = &c.b.d;
            mix(seeds[s]), mix(k);
            mix(d->version), mix(d->nrec), mix(d->data_size);
            for (uint32_t i = 0; i < d->nrec; i++) mix(d->rec[i].type), mix(d->rec[i].size), mix(d->rec[i].offset);
            mix_bytes(d->data, d->data_size);
            mix(c.draws);
            mix_bytes(c.desc, strlen(c.desc) + 1);
            fuzz_case_free(&c);
        }
    printf("%016" PRIx64 "\n", hash);
    return 0;
}
