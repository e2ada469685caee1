/* getile render: replay a frame dump and write the displayed image. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dump.h"
#include "ge_limits.h"
#include "image.h"
#include "render.h"

static const char usage[] =
    "usage: getile render DUMP -o OUT.png [--depth-out FILE] [--replay-end N] [--keep-alpha]\n"
    "                     [--threads N] [--tile-size N]\n"
    "\n"
    "Replays a PPSSPP frame dump (.ppdmp, or a .zip holding one) and writes the\n"
    "displayed framebuffer as a 512x272 PNG laid out like PPSSPP's frame-test\n"
    "references (480 visible columns in a 512-wide image, top row first).\n"
    "\n"
    "  -o, --output OUT.png   where the PNG goes (required)\n"
    "  --depth-out FILE       also write the depth buffer under the display: u32 width,\n"
    "                         u32 height (little endian), then a u16 per pixel, row by row\n"
    "  --replay-end N         stop after the Nth draw (PRIM, BEZIER or SPLINE)\n"
    "  --keep-alpha           keep the framebuffer's alpha (default: alpha forced to 255)\n"
    "  --threads N            threads drawing (default: one per CPU, at most 64);\n"
    "                         the image is byte-identical for every N\n"
    "  --tile-size N          tile edge in pixels: 16, 32, 64 (default), 128 or 256\n";

static int write_depth(const char *path, const struct gt_render *r)
{
    uint16_t *z = malloc(sizeof *z * GT_DISPLAY_WIDTH * GT_DISPLAY_HEIGHT);
    uint8_t hdr[8];
    if (!z) {
        fprintf(stderr, "getile: out of memory\n");
        return 1;
    }
    gt_render_depth(r, z);
    uint32_t wh[2] = {GT_DISPLAY_WIDTH, GT_DISPLAY_HEIGHT};
    for (int i = 0; i < 8; i++) hdr[i] = (uint8_t)(wh[i / 4] >> (8 * (i % 4)));
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(hdr, 1, 8, f) == 8;
    for (size_t i = 0; ok && i < (size_t)GT_DISPLAY_WIDTH * GT_DISPLAY_HEIGHT; i++) {
        uint8_t b[2] = {(uint8_t)z[i], (uint8_t)(z[i] >> 8)};
        ok = fwrite(b, 1, 2, f) == 2;
    }
    if (f && fclose(f) != 0) ok = 0;
    free(z);
    if (!ok) {
        fprintf(stderr, "getile: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    return 0;
}

int cmd_render(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *depth_out = NULL;
    unsigned long long replay_end = 0, threads = 0, tile = GT_TILE_SIZE_DEFAULT;
    bool keep_alpha = false;
    if (cli_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            if (!v) goto missing;
            out = v, i++;
        } else if (!strcmp(a, "--depth-out")) {
            if (!v) goto missing;
            depth_out = v, i++;
        } else if (!strcmp(a, "--replay-end")) {
            if (!cli_parse_u64(a, v, 1ull << 40, &replay_end)) return 2;
            i++;
        } else if (!strcmp(a, "--threads")) {
            if (!cli_parse_u64(a, v, GT_MAX_THREADS, &threads)) return 2;
            if (threads == 0) {
                fprintf(stderr, "getile render: --threads must be at least 1\n");
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--tile-size")) {
            if (!cli_parse_u64(a, v, GT_TILE_SIZE_MAX, &tile)) return 2;
            i++;
        } else if (!strcmp(a, "--keep-alpha")) {
            keep_alpha = true;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "getile render: unknown option '%s'\n\n%s", a, usage);
            return 2;
        } else if (!in) {
            in = a;
        } else {
            fprintf(stderr, "getile render: one dump at a time ('%s' and '%s')\n", in, a);
            return 2;
        }
        continue;
    missing:
        fprintf(stderr, "getile render: %s needs a value\n", a);
        return 2;
    }
    if (!in || !out) {
        fprintf(stderr, "getile render: %s\n\n%s", !in ? "no dump given" : "no output given (-o OUT.png)", usage);
        return 2;
    }
    if (threads == 0) threads = cli_cpu_count();

    struct gt_diag d = {0};
    struct dump dp;
    struct gt_render *r = malloc(sizeof *r);
    uint8_t *rgba = malloc((size_t)GT_IMAGE_STRIDE * GT_DISPLAY_HEIGHT * 4);
    int status = 1;
    if (!r || !rgba) {
        fprintf(stderr, "getile: out of memory\n");
        free(r);
        free(rgba);
        return 1;
    }
    if (dump_load_file(in, &dp, &d) < 0) {
        fprintf(stderr, "getile: %s: %s\n", in, gt_diag_msg(&d));
        free(r);
        free(rgba);
        return 1;
    }
    if (gt_render_init(r, &d) < 0) {
        fprintf(stderr, "getile: %s\n", gt_diag_msg(&d));
        goto out;
    }
    if (gt_render_set_threads(r, (unsigned)threads, (unsigned)tile, &d) < 0) {
        fprintf(stderr, "getile render: %s\n", gt_diag_msg(&d));
        status = 2;
        goto out_render;
    }
    if (gt_render_replay(r, &dp, replay_end, &d) < 0) {
        fprintf(stderr, "getile: %s: %s\n", in, gt_diag_msg(&d));
        goto out_render;
    }
    gt_render_display_rgba(r, rgba, keep_alpha);
    if (gt_png_write_file(out, rgba, GT_IMAGE_STRIDE, GT_DISPLAY_HEIGHT, &d) < 0) {
        fprintf(stderr, "getile: %s\n", gt_diag_msg(&d));
        goto out_render;
    }
    if (depth_out && write_depth(depth_out, r) != 0) goto out_render;
    const struct gt_asm_stats *as = &r->assembler.stats;
    printf("getile: wrote %s (%dx%d): %llu records, %llu draws, %llu transfers; "
           "%llu triangles, %llu rectangles, %llu lines, %llu points assembled (%llu culled, %llu discarded)\n",
           out, GT_IMAGE_STRIDE, GT_DISPLAY_HEIGHT, (unsigned long long)r->stats.records,
           (unsigned long long)r->ge.stats.draws, (unsigned long long)r->ge.stats.transfers,
           (unsigned long long)as->emitted[GT_TRIANGLE], (unsigned long long)as->emitted[GT_RECT],
           (unsigned long long)as->emitted[GT_LINE], (unsigned long long)as->emitted[GT_POINT],
           (unsigned long long)as->culled, (unsigned long long)as->discarded);
    const struct binner_stats *bs = &r->binner.stats;
    printf("getile: %llu pixels shaded by %llu thread(s); scenes flushed:", (unsigned long long)bs->pixels,
           threads);
    for (unsigned k = 0; k < BIN_FLUSH_COUNT; k++)
        if (bs->flushes[k]) printf(" %s %llu", binner_flush_name(k), (unsigned long long)bs->flushes[k]);
    printf(" (%llu serial)", (unsigned long long)bs->scenes_serial);
    printf("; texture cache %llu fills, %llu hits; %llu texture copies\n", (unsigned long long)bs->tcache_loads,
           (unsigned long long)bs->tcache_hits, (unsigned long long)bs->tex_copies);
    status = 0;
out_render:
    gt_render_free(r);
out:
    dump_free(&dp);
    free(r);
    free(rgba);
    return status;
}
