/* Helpers for benchmarks (tests/bench_*.c): monotonic time and medians.
 * Benchmarks print measurements; they never assert on time. */
#ifndef GETILE_BENCH_H
#define GETILE_BENCH_H
#include <stdlib.h>
#include <time.h>

static inline double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n samples (sorts them in place). */
static inline double bench_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
#endif
