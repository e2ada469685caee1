/* Benchmark: replays every shared frame dump several times and prints the
 * median time per dump (parse excluded; context setup, replay and display
 * readout included), the primitives assembled, and peak memory. Run by
 * `make bench`; prints measurements only, asserts nothing. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "bench.h"
#include "ge_limits.h"
#include "render.h"

#define RUNS 5

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "../shared/frametests/dumps";
    DIR *dd = opendir(dir);
    if (!dd) {
        printf("bench_dumps: %s is absent, nothing to measure\n", dir);
        return 0;
    }
    char *names[256];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dd)) && n < 256)
        if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
    closedir(dd);
    qsort(names, (size_t)n, sizeof *names, cmp_str);

    struct gt_render *r = malloc(sizeof *r);
    uint8_t *rgba = malloc((size_t)GT_IMAGE_STRIDE * GT_DISPLAY_HEIGHT * 4);
    if (!r || !rgba) return 1;
    printf("dumps: median of %d runs (threads 1)\n", RUNS);
    printf("%-58s %9s %10s\n", "dump", "ms", "primitives");
    double total = 0;
    for (int i = 0; i < n; i++) {
        char path[1024];
        struct gt_diag d = {0};
        struct dump dp;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (dump_load_file(path, &dp, &d) < 0) {
            printf("%-58s failed: %s\n", names[i], d.msg);
            continue;
        }
        double t[RUNS];
        uint64_t prims = 0;
        for (int k = 0; k < RUNS; k++) {
            double t0 = bench_now_ns();
            if (gt_render_init(r, &d) < 0 || gt_render_replay(r, &dp, 0, &d) < 0) printf("  error: %s\n", d.msg);
            gt_render_display_rgba(r, rgba, false);
            t[k] = (bench_now_ns() - t0) / 1e6;
            prims = 0;
            for (int j = 0; j < 4; j++) prims += r->assembler.stats.emitted[j];
            gt_render_free(r);
        }
        double med = bench_median(t, RUNS);
        total += med;
        printf("%-58.58s %9.2f %10llu\n", names[i], med, (unsigned long long)prims);
        dump_free(&dp);
        free(names[i]);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("total of medians: %.1f ms; peak memory %ld MiB\n", total, ru.ru_maxrss / 1024);
    free(r);
    free(rgba);
    return 0;
}
