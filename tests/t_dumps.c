/* The shared game dumps (../shared/frametests): each must replay without
 * error into a 512x272 image. The test prints a table against PPSSPP's
 * reference images (exact or not, MSE over the 480x272 display, differing
 * pixels) so drawing progress is visible; it asserts replay, not likeness. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ge_limits.h"
#include "image.h"
#include "render.h"
#include "test.h"

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Reference name: strip .zip/.ZIP, then .ppdmp, add -soft.png. */
static void ref_name(const char *dump, char *out, size_t n)
{
    char base[512];
    snprintf(base, sizeof base, "%s", dump);
    size_t l = strlen(base);
    if (l > 4 && !strcasecmp(base + l - 4, ".zip")) base[l -= 4] = 0;
    if (l > 6 && !strcasecmp(base + l - 6, ".ppdmp")) base[l -= 6] = 0;
    snprintf(out, n, "%s-soft.png", base);
}

TEST(dumps_shared_replay)
{
    const char *dir = test_frametests_dir();
    if (!dir) test_skip("../shared/frametests is absent (fresh clone): shared dump tests skipped");
    char path[1024];
    snprintf(path, sizeof path, "%s/dumps", dir);
    DIR *dd = opendir(path);
    CHECK_MSG(dd != NULL, "cannot open %s", path);
    char *names[256];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dd)) && n < 256)
        if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
    closedir(dd);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    CHECK_MSG(n >= 22, "found %d dumps in %s, expected the 22 shared ones", n, path);

    struct gt_render *r = malloc(sizeof *r);
    struct gt_image img = {GT_IMAGE_STRIDE, GT_DISPLAY_HEIGHT, malloc((size_t)GT_IMAGE_STRIDE * GT_DISPLAY_HEIGHT * 4)};
    int exact = 0, failures = 0;
    CHECK(r && img.rgba);
    printf("%-62s %-5s %12s %9s\n", "dump", "exact", "MSE", "differing");
    for (int i = 0; i < n; i++) {
        struct gt_diag d = {0};
        struct dump dp;
        char ref[600], refpath[1200];
        snprintf(path, sizeof path, "%s/dumps/%s", dir, names[i]);
        int rc = dump_load_file(path, &dp, &d);
        if (rc == GT_OK) {
            CHECK_EQ_I(gt_render_init(r, &d), GT_OK);
            rc = gt_render_replay(r, &dp, 0, &d);
            gt_render_display_rgba(r, img.rgba, false);
            gt_render_free(r);
            dump_free(&dp);
        }
        if (rc != GT_OK) {
            printf("%-62s FAILED: %s\n", names[i], d.msg);
            failures++;
            continue;
        }
        ref_name(names[i], ref, sizeof ref);
        snprintf(refpath, sizeof refpath, "%s/ref/%s", dir, ref);
        struct gt_image want;
        struct gt_compare c;
        if (gt_png_read_file(refpath, &want, &d) != GT_OK) {
            printf("%-62s no reference (%s)\n", names[i], d.msg);
            failures++;
            continue;
        }
        CHECK_MSG(want.w == GT_IMAGE_STRIDE && want.h == GT_DISPLAY_HEIGHT, "%s is %ux%u", ref, want.w, want.h);
        CHECK_EQ_I(gt_image_compare(&img, &want, GT_DISPLAY_WIDTH, GT_DISPLAY_HEIGHT, &c, NULL, &d), GT_OK);
        exact += c.differing == 0;
        printf("%-62s %-5s %12.4f %9llu\n", names[i], c.differing ? "no" : "yes", c.mse, (unsigned long long)c.differing);
        gt_image_free(&want);
    }
    printf("%d dumps, %d exact, %d failed to replay\n", n, exact, failures);
    for (int i = 0; i < n; i++) free(names[i]);
    free(r);
    free(img.rgba);
    CHECK_EQ_I(failures, 0);
}
