/* Benchmark of pipeline/gemath: ns per operation for the row sum, the
 * multiplier and adder, the reciprocal tables and the lerp (median of 31
 * runs over precomputed inputs), ns per lane of the eight-lane lerp, and
 * ns per 4x3 and 4x4 matrix-vector product (three and four row sums).
 * Target (issue 3): gemath_dot4 <= 5 ns.
 *
 * What it measures: throughput of independent calls. Each loop makes real,
 * out-of-line library calls (gemath_dot4 etc., as the pipeline makes them)
 * on 4096 varied inputs that stay in L1/L2; the only dependency between
 * iterations is the 1-cycle add into acc, so calls overlap in the CPU as
 * far as their own cost allows. acc is 32 bits wide, as the results are: a
 * 64-bit one makes the loop widen every result first, one more dependent
 * instruction per call that is the harness's, not the library's (measured
 * at about 0.15 ns of gemath_dot4's time). A trivial out-of-line function with
 * gemath_dot4's signature costs about 1 ns per call in this loop on the
 * reference machines (call, return, two pointer arguments). The
 * machines are shared: compare builds in alternating runs, not against an
 * earlier log. mat43_apply and mat44_apply are per product (three and
 * four row sums), including their result reduction. */
#include <stdint.h>
#include <stdio.h>

#include "bench.h"
#include "gemath.h"

#define N_INPUTS 4096 /* inputs per pass (fit in L1/L2) */
#define PASSES 64     /* passes per run */
#define RUNS 31

static gefloat in_a[N_INPUTS][4], in_b[N_INPUTS][4], in_m[256][16];
static gefloat in_a8[N_INPUTS / 2][8], in_b8[N_INPUTS / 2][8]; /* in_a, in_b by eights */
static unsigned in_k[N_INPUTS];
static volatile uint64_t sink;

static uint64_t rng_state = 0x62656e6368ull;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A typical transform-path value: random sign and significand, exponent
 * within a few octaves of 1. */
static gefloat rand_value(void)
{
    uint64_t r = rng_next();
    uint32_t e = 120 + (uint32_t)((r >> 3) % 16);
    return (uint32_t)(r >> 63) << 31 | e << 23 | ((uint32_t)(r >> 8) & 0x7FFF00u);
}

enum op { OP_DOT4, OP_MUL, OP_ADD, OP_RECIP, OP_RSQRT, OP_AREA, OP_LERP, OP_LERP8, OP_MAT43, OP_MAT44, OP_COUNT };
static const char *const op_names[OP_COUNT] = {
    "dot4 (row sum)", "mul", "add", "recip", "rsqrt", "setup_recip", "lerp", "lerp8 per lane", "mat43_apply",
    "mat44_apply"};

/* One run of `op` over all inputs PASSES times; returns ns per operation
 * (per lane for lerp8: N_INPUTS / 2 calls of 8 lanes each per pass). */
static double run_once(enum op op)
{
    uint32_t acc = 0; /* the results' own width: see the header comment */
    double per_pass = op == OP_LERP8 ? 4.0 * N_INPUTS : N_INPUTS;
    double t0 = bench_now_ns();
    for (int pass = 0; pass < PASSES; pass++) {
        switch (op) {
        case OP_DOT4:
            for (int i = 0; i < N_INPUTS; i++) acc += gemath_dot4(in_a[i], in_b[i]);
            break;
        case OP_MUL:
            for (int i = 0; i < N_INPUTS; i++) acc += gemath_mul(in_a[i][0], in_b[i][0]);
            break;
        case OP_ADD:
            for (int i = 0; i < N_INPUTS; i++) acc += gemath_add(in_a[i][0], in_b[i][0]);
            break;
        case OP_RECIP:
            for (int i = 0; i < N_INPUTS; i++) acc += gemath_recip(in_a[i][1]);
            break;
        case OP_RSQRT:
            for (int i = 0; i < N_INPUTS; i++) acc += gemath_rsqrt(in_a[i][2]);
            break;
        case OP_AREA:
            for (int i = 0; i < N_INPUTS; i++) {
                unsigned e;
                acc += gemath_setup_recip(in_b[i][3] | 1u, &e);
            }
            break;
        case OP_LERP:
            for (int i = 0; i < N_INPUTS; i++) acc += gemath_lerp(in_a[i][3], in_b[i][2], in_k[i]);
            break;
        case OP_LERP8:
            /* The eight values of in_a[i] and in_a[i + 1] (likewise b). */
            for (int i = 0; i < N_INPUTS; i += 2) {
                gefloat out[8];
                gemath_lerp8(in_a8[i / 2], in_b8[i / 2], in_k[i], out);
                acc += out[0] ^ out[3] ^ out[5] ^ out[7];
            }
            break;
        case OP_MAT43:
            for (int i = 0; i < N_INPUTS; i++) {
                gefloat out[3];
                gemath_mat43_apply(in_m[i & 255], in_b[i], out);
                acc += out[0] ^ out[1] ^ out[2];
            }
            break;
        case OP_MAT44:
            for (int i = 0; i < N_INPUTS; i++) {
                gefloat out[4];
                gemath_mat44_apply(in_m[i & 255], in_b[i], out);
                acc += out[0] ^ out[1] ^ out[2] ^ out[3];
            }
            break;
        default: break;
        }
    }
    double t1 = bench_now_ns();
    sink += acc;
    return (t1 - t0) / ((double)PASSES * per_pass);
}

int main(void)
{
    for (int i = 0; i < N_INPUTS; i++) {
        for (int t = 0; t < 4; t++) {
            in_a[i][t] = rand_value();
            in_b[i][t] = rand_value();
        }
        in_b[i][3] = (gefloat)(rng_next() & 0xFFFF) | 0x3F800000u;
        in_k[i] = (unsigned)(rng_next() % 257);
        for (int t = 0; t < 4; t++) {
            in_a8[i / 2][4 * (i % 2) + t] = in_a[i][t];
            in_b8[i / 2][4 * (i % 2) + t] = in_b[i][t];
        }
    }
    for (int i = 0; i < 256; i++)
        for (int t = 0; t < 16; t++) in_m[i][t] = rand_value();
    printf("gemath: ns per operation, median of %d runs of %d calls\n", RUNS,
           PASSES * N_INPUTS);
    /* Run r of every operation before run r + 1 of any: a slow spell of
     * the shared machine then spreads over all operations' medians instead
     * of falling on one operation's runs. */
    static double t[OP_COUNT][RUNS];
    for (int op = 0; op < OP_COUNT; op++) run_once((enum op)op); /* warm up */
    for (int r = 0; r < RUNS; r++)
        for (int op = 0; op < OP_COUNT; op++) t[op][r] = run_once((enum op)op);
    for (int op = 0; op < OP_COUNT; op++) printf("  %-16s %6.2f ns\n", op_names[op], bench_median(t[op], RUNS));
    return 0;
}
