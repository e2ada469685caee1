/* getile compare: PPSSPP's frame-test comparison of two PNG images. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ge_limits.h"
#include "image.h"

static const char usage[] =
    "usage: getile compare A.png B.png [--diff D.png] [--max-mse X]\n"
    "\n"
    "Prints the mean squared error over R, G and B (alpha ignored) of the 480x272\n"
    "display area, PPSSPP's frame-test metric, and the number of differing pixels.\n"
    "Exits 0 only when the images are within the limit (default: identical).\n"
    "\n"
    "  --diff D.png    write an image of the differences (black where equal)\n"
    "  --max-mse X     accept an MSE up to X (PPSSPP's CI uses 0.1)\n";

int cmd_compare(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL}, *diff_path = NULL;
    double max_mse = -1;
    int nfiles = 0;
    if (cli_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--diff")) {
            if (!v) goto missing;
            diff_path = v, i++;
        } else if (!strcmp(a, "--max-mse")) {
            char *end;
            if (!v) goto missing;
            max_mse = strtod(v, &end);
            if (*end || !(max_mse >= 0) || isinf(max_mse)) {
                fprintf(stderr, "getile compare: --max-mse needs a non-negative number, got '%s'\n", v);
                return 2;
            }
            i++;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "getile compare: unknown option '%s'\n\n%s", a, usage);
            return 2;
        } else if (nfiles < 2) {
            files[nfiles++] = a;
        } else {
            fprintf(stderr, "getile compare: exactly two images, got a third ('%s')\n", a);
            return 2;
        }
        continue;
    missing:
        fprintf(stderr, "getile compare: %s needs a value\n", a);
        return 2;
    }
    if (nfiles != 2) {
        fprintf(stderr, "getile compare: needs two images\n\n%s", usage);
        return 2;
    }
    struct gt_diag d = {0};
    struct gt_image a, b;
    if (gt_png_read_file(files[0], &a, &d) < 0) {
        fprintf(stderr, "getile: %s\n", gt_diag_msg(&d));
        return 1;
    }
    if (gt_png_read_file(files[1], &b, &d) < 0) {
        fprintf(stderr, "getile: %s\n", gt_diag_msg(&d));
        gt_image_free(&a);
        return 1;
    }
    int status = 1;
    struct gt_compare res;
    uint8_t *diff = diff_path ? malloc((size_t)a.w * a.h * 4 + 1) : NULL;
    if (diff_path && !diff) {
        fprintf(stderr, "getile: out of memory\n");
    } else if (gt_image_compare(&a, &b, GT_DISPLAY_WIDTH, GT_DISPLAY_HEIGHT, &res, diff, &d) < 0) {
        fprintf(stderr, "getile: %s\n", gt_diag_msg(&d));
    } else if (diff_path && gt_png_write_file(diff_path, diff, a.w, a.h, &d) < 0) {
        fprintf(stderr, "getile: %s\n", gt_diag_msg(&d));
    } else {
        bool ok = max_mse < 0 ? res.differing == 0 : res.mse <= max_mse;
        printf("MSE %.6f, differing pixels %llu: %s\n", res.mse, (unsigned long long)res.differing,
               ok ? "within limit" : "over limit");
        status = ok ? 0 : 1;
    }
    free(diff);
    gt_image_free(&a);
    gt_image_free(&b);
    return status;
}
