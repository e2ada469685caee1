/* Benchmark: replays every shared frame dump with one thread and with N
 * threads (online CPUs, at least 2), interleaved run by run so both see the
 * same machine noise, and prints per dump the median time (parse excluded;
 * context setup, replay and display readout included), the shading rate,
 * the speedup, the threaded run's flushes by reason, and whether the
 * threaded image is byte-identical to the single-threaded one. Ends with
 * totals, the targets and peak memory. Run by `make bench`; prints
 * measurements only, asserts nothing, always exits 0.
 * GETILE_BENCH_RUNS overrides the number of runs (made odd). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench.h"
#include "ge_limits.h"
#include "render.h"

#define DEFAULT_RUNS 5
#define MAX_RUNS 101
#define MAX_DUMPS 256
#define HEAVIEST 5
#define NAME_W 36 /* dump name column; longer names are truncated */

#define IMAGE_BYTES ((size_t)GT_IMAGE_STRIDE * GT_DISPLAY_HEIGHT * 4)

/* One dump's results. */
struct result {
    char *name;
    int ok;                 /* loaded and measured */
    double med[2];          /* median ms: [0] threads 1, [1] threads N */
    uint64_t pixels[2];     /* pixels shaded in one run */
    uint64_t flushes[BIN_FLUSH_COUNT]; /* threads N, one run */
    int identical;          /* every threads-N image equals threads 1's */
    int errors;             /* runs that reported an error */
};

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Runs: GETILE_BENCH_RUNS if set and positive, rounded up to odd. */
static int bench_runs(void)
{
    const char *s = getenv("GETILE_BENCH_RUNS");
    int n = s ? atoi(s) : DEFAULT_RUNS;
    if (n < 1) n = DEFAULT_RUNS;
    if (n > MAX_RUNS) n = MAX_RUNS;
    return n % 2 ? n : n + 1;
}

/* Threads for the parallel runs: online CPUs, at least 2. */
static unsigned bench_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 2) n = 2;
    if (n > GT_MAX_THREADS) n = GT_MAX_THREADS;
    return (unsigned)n;
}

/* One timed run: context setup, replay, display readout into img.
 * Returns ms; fills pixels and flushes; *err set on any error. */
static double run_once(struct gt_render *r, const struct dump *dp, unsigned threads, uint8_t *img,
                       uint64_t *pixels, uint64_t *flushes, int *err)
{
    struct gt_diag d = {0};
    double t0 = bench_now_ns();
    if (gt_render_init(r, &d) < 0) {
        *err = 1;
        return (bench_now_ns() - t0) / 1e6;
    }
    if (threads > 1 && gt_render_set_threads(r, threads, GT_TILE_SIZE_DEFAULT, &d) < 0) *err = 1;
    if (gt_render_replay(r, dp, 0, &d) < 0) *err = 1;
    gt_render_display_rgba(r, img, false);
    double ms = (bench_now_ns() - t0) / 1e6;
    *pixels = r->binner.stats.pixels;
    if (flushes) memcpy(flushes, r->binner.stats.flushes, sizeof r->binner.stats.flushes);
    gt_render_free(r);
    return ms;
}

/* Rate in Mpixels/s for px pixels in ms milliseconds. */
static double mpix_s(uint64_t px, double ms) { return ms > 0 ? (double)px / (ms * 1e3) : 0; }

static double ratio(double a, double b) { return b > 0 ? a / b : 0; }

/* Measures one dump: runs interleaved 1, N, 1, N, ... */
static void bench_dump(const char *dir, struct result *res, int runs, unsigned nthr, struct gt_render *r,
                       uint8_t *ref, uint8_t *img)
{
    char path[1024];
    struct gt_diag d = {0};
    struct dump dp;
    snprintf(path, sizeof path, "%s/%s", dir, res->name);
    if (dump_load_file(path, &dp, &d) < 0) {
        printf("%-*.*s load failed: %.50s\n", NAME_W, NAME_W, res->name, d.msg);
        return;
    }
    double t[2][MAX_RUNS];
    res->identical = 1;
    for (int k = 0; k < runs; k++) {
        /* Threads 1 writes the reference image, threads N is compared to it. */
        t[0][k] = run_once(r, &dp, 1, ref, &res->pixels[0], NULL, &res->errors);
        t[1][k] = run_once(r, &dp, nthr, img, &res->pixels[1], res->flushes, &res->errors);
        if (memcmp(ref, img, IMAGE_BYTES) != 0) res->identical = 0;
    }
    res->med[0] = bench_median(t[0], (size_t)runs);
    res->med[1] = bench_median(t[1], (size_t)runs);
    res->ok = 1;
    dump_free(&dp);
}

static void print_row(const struct result *res)
{
    printf("%-*.*s %8.2f %8.2f %6.2fx %7.1f %7.1f %7.1f  %s%s\n", NAME_W, NAME_W, res->name, res->med[0],
           res->med[1], ratio(res->med[0], res->med[1]), res->pixels[0] / 1e6, mpix_s(res->pixels[0], res->med[0]),
           mpix_s(res->pixels[1], res->med[1]), res->identical ? "IDENTICAL" : "DIFFERENT",
           res->errors ? " (errors)" : "");
    /* Flushes of the threaded run, non-zero reasons only. */
    printf("    flushes:");
    uint64_t all = 0;
    for (int j = 0; j < BIN_FLUSH_COUNT; j++) {
        all += res->flushes[j];
        if (res->flushes[j])
            printf(" %s %llu", binner_flush_name((enum bin_flush_reason)j), (unsigned long long)res->flushes[j]);
    }
    if (!all) printf(" none");
    if (res->pixels[0] != res->pixels[1])
        printf("  (pixels differ: %llu vs %llu)", (unsigned long long)res->pixels[0],
               (unsigned long long)res->pixels[1]);
    printf("\n");
}

static void print_total(const char *what, double s1, double sn, unsigned nthr)
{
    printf("%-*s %8.1f %8.1f %6.2fx   (threads 1 vs %u)\n", NAME_W, what, s1, sn, ratio(s1, sn), nthr);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "../shared/frametests/dumps";
    DIR *dd = opendir(dir);
    if (!dd) {
        printf("bench_dumps: %s is absent, nothing to measure\n", dir);
        return 0;
    }
    static struct result res[MAX_DUMPS];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dd)) && n < MAX_DUMPS)
        if (e->d_name[0] != '.') res[n++].name = strdup(e->d_name);
    closedir(dd);
    /* Sort by name. */
    char *names[MAX_DUMPS];
    for (int i = 0; i < n; i++) names[i] = res[i].name;
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    for (int i = 0; i < n; i++) res[i].name = names[i];

    int runs = bench_runs();
    unsigned nthr = bench_threads();
    struct gt_render *r = malloc(sizeof *r);
    uint8_t *ref = malloc(IMAGE_BYTES), *img = malloc(IMAGE_BYTES);
    if (!r || !ref || !img) {
        printf("bench_dumps: out of memory\n");
        return 0;
    }

    printf("dumps: median of %d runs, threads 1 and %u interleaved (online CPUs: %ld), tiles %d\n", runs, nthr,
           sysconf(_SC_NPROCESSORS_ONLN), GT_TILE_SIZE_DEFAULT);
    printf("%-*s %8s %8s %7s %7s %7s %7s  %s\n", NAME_W, "dump", "ms T1", "ms TN", "speedup", "Mpx", "Mpx/s1",
           "Mpx/sN", "image");
    int ndiff = 0, nok = 0;
    for (int i = 0; i < n; i++) {
        bench_dump(dir, &res[i], runs, nthr, r, ref, img);
        if (!res[i].ok) continue;
        nok++;
        if (!res[i].identical) ndiff++;
        print_row(&res[i]);
        fflush(stdout);
    }

    /* Totals over all dumps and over the heaviest (by threads-1 median). */
    double s1 = 0, sn = 0, h1 = 0, hn = 0;
    int order[MAX_DUMPS], m = 0;
    for (int i = 0; i < n; i++) {
        if (!res[i].ok) continue;
        s1 += res[i].med[0];
        sn += res[i].med[1];
        order[m++] = i;
    }
    for (int a = 0; a < m && a < HEAVIEST; a++) /* partial selection sort */
        for (int b = a + 1; b < m; b++)
            if (res[order[b]].med[0] > res[order[a]].med[0]) {
                int tmp = order[a];
                order[a] = order[b];
                order[b] = tmp;
            }
    int heavy = m < HEAVIEST ? m : HEAVIEST;
    for (int a = 0; a < heavy; a++) {
        h1 += res[order[a]].med[0];
        hn += res[order[a]].med[1];
    }
    printf("\n%-*s %8s %8s %7s\n", NAME_W, "totals (sum of medians)", "ms T1", "ms TN", "speedup");
    print_total("all dumps", s1, sn, nthr);
    char label[64];
    snprintf(label, sizeof label, "%d heaviest dumps", heavy);
    print_total(label, h1, hn, nthr);
    for (int a = 0; a < heavy; a++)
        printf("    %-*.*s %8.2f %8.2f %6.2fx\n", NAME_W - 4, NAME_W - 4, res[order[a]].name,
               res[order[a]].med[0], res[order[a]].med[1], ratio(res[order[a]].med[0], res[order[a]].med[1]));
    printf("images: %d of %d dumps IDENTICAL at threads %u, %d DIFFERENT\n", nok - ndiff, nok, nthr, ndiff);
    printf("target: >= 1.7x over the five heaviest dumps on 2 cores (measured %.2fx on %u threads)\n",
           ratio(h1, hn), nthr);
    printf("target: images byte-identical for every thread count\n");

    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak memory %ld MiB\n", ru.ru_maxrss / 1024);
    for (int i = 0; i < n; i++) free(res[i].name);
    free(r);
    free(ref);
    free(img);
    return 0;
}
