/* The suite of ported programs: see ports.h. A program's value is one line
 * it prints; the line is compared with the PSP's line of the same position
 * in its .expected file, after the framework's "[x] " or "[r] " prefix
 * (which records whether the test thread was rescheduled, not the GE). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "psp/ports.h"

const char *psp_suite_save_dir;

/* Compares the port's screenshot with the PSP's DIR/FILE.expected.png: RGB
 * over the 480x272 visible area. Returns the differing pixels, or -1 when
 * the recording is unreadable. */
static long compare_shot(const char *dir, const char *file, const uint8_t *shot, FILE *out)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.expected.png", dir, file);
    struct gt_image img = {0};
    struct gt_diag d = {0};
    if (gt_png_read_file(path, &img, &d) < 0) {
        fprintf(out, "  %s: the PSP's screenshot is unreadable: %s\n", file, d.msg);
        return -1;
    }
    long diff = 0;
    if (img.w < 480 || img.h < 272) {
        diff = 480 * 272;
    } else {
        for (uint32_t y = 0; y < 272; y++)
            for (uint32_t x = 0; x < 480; x++)
                diff += memcmp(img.rgba + ((size_t)y * img.w + x) * 4, shot + ((size_t)y * 512 + x) * 4, 3) != 0;
    }
    if (diff && psp_suite_save_dir) {
        uint8_t *opaque = malloc((size_t)512 * 272 * 4);
        if (opaque) {
            for (size_t i = 0; i < (size_t)512 * 272; i++) memcpy(opaque + 4 * i, shot + 4 * i, 3), opaque[4 * i + 3] = 255;
            snprintf(path, sizeof path, "%s/%s.getile.png", psp_suite_save_dir, file);
            if (gt_png_write_file(path, opaque, 512, 272, &d) < 0) fprintf(out, "  %s: %s\n", path, d.msg);
            for (size_t i = 0; i < (size_t)img.w * img.h; i++) img.rgba[4 * i + 3] = 255;
            snprintf(path, sizeof path, "%s/%s.psp.png", psp_suite_save_dir, file);
            if (gt_png_write_file(path, img.rgba, img.w, img.h, &d) < 0) fprintf(out, "  %s: %s\n", path, d.msg);
            free(opaque);
        }
    }
    gt_image_free(&img);
    return diff;
}

const struct psp_port psp_ports[] = {
    {"filtering/linear", psp_filtering_linear},
    {"filtering/mipmaplinear", psp_filtering_mipmaplinear},
    {"filtering/nearest", psp_filtering_nearest},
    {"filtering/precisionlinear2d", psp_filtering_precisionlinear2d},
    {"filtering/precisionlinear3d", psp_filtering_precisionlinear3d},
    {"filtering/precisionnearest2d", psp_filtering_precisionnearest2d},
    {"filtering/precisionnearest3d", psp_filtering_precisionnearest3d},
    {"texcolors/rgb565", psp_texcolors_rgb565},
    {"texcolors/rgba4444", psp_texcolors_rgba4444},
    {"texcolors/rgba5551", psp_texcolors_rgba5551},
    {"texcolors/dxt1", psp_texcolors_dxt1},
    {"texcolors/dxt3", psp_texcolors_dxt3},
    {"texcolors/dxt5", psp_texcolors_dxt5},
    {"clut/address", psp_clut_address},
    {"clut/masks", psp_clut_masks},
    {"clut/offset", psp_clut_offset},
    {"clut/shifts", psp_clut_shifts},
    {"commands/basic", psp_commands_basic},
    {"commands/blend", psp_commands_blend},
    {"commands/blend565", psp_commands_blend565},
    {"commands/blocktransfer", psp_commands_blocktransfer},
    {"commands/cull", psp_commands_cull},
    {"commands/fog", psp_commands_fog},
    {"commands/light", psp_commands_light},
    {"commands/material", psp_commands_material},
    {"texfunc/add", psp_texfunc_add},
    {"texfunc/blend", psp_texfunc_blend},
    {"texfunc/decal", psp_texfunc_decal},
    {"texfunc/modulate", psp_texfunc_modulate},
    {"texfunc/replace", psp_texfunc_replace},
    {"primitives/points", psp_primitives_points},
    {"primitives/lines", psp_primitives_lines},
    {"primitives/linestrip", psp_primitives_linestrip},
    {"primitives/triangles", psp_primitives_triangles},
    {"primitives/trianglefan", psp_primitives_trianglefan},
    {"primitives/trianglestrip", psp_primitives_trianglestrip},
    {"primitives/rectangles", psp_primitives_rectangles},
    {"primitives/invalidprim", psp_primitives_invalidprim},
    {"primitives/continue", psp_primitives_continue},
    {"primitives/indices", psp_primitives_indices},
    {"primitives/immediate", psp_primitives_immediate},
};
const unsigned psp_nports = sizeof psp_ports / sizeof psp_ports[0];

/* The lines of an .expected file, prefixes stripped; NULL when unreadable. */
static char **read_expected(const char *path, size_t *n)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    char **v = malloc(sizeof *v), buf[1024]; /* an empty recording is a valid one */
    size_t cap = 1;
    if (!v) {
        fclose(f);
        return NULL;
    }
    *n = 0;
    while (fgets(buf, sizeof buf, f)) {
        size_t len = strcspn(buf, "\r\n");
        buf[len] = 0;
        if (!len) continue; /* checkpointNext's separators */
        const char *s = buf;
        if ((s[0] == '[') && (s[1] == 'x' || s[1] == 'r') && s[2] == ']' && s[3] == ' ') s += 4;
        if (*n == cap) {
            cap *= 2;
            char **nv = realloc(v, cap * sizeof *nv);
            if (!nv) break;
            v = nv;
        }
        if (!(v[*n] = strdup(s))) break;
        (*n)++;
    }
    fclose(f);
    return v;
}

void psp_suite_run(const char *dir, const char *only, FILE *out, struct psp_suite_result *res)
{
    memset(res, 0, sizeof *res);
    for (unsigned k = 0; k < psp_nports; k++) {
        const struct psp_port *pt = &psp_ports[k];
        if (only && !strstr(pt->program, only)) continue;
        char path[4096], file[256];
        snprintf(file, sizeof file, "%s", pt->program);
        char *slash = strchr(file, '/');
        if (slash) {
            memmove(slash + 1, slash, strlen(slash) + 1);
            slash[0] = slash[1] = '_';
        }
        snprintf(path, sizeof path, "%s/%s.expected", dir, file);
        size_t ne = 0;
        char **exp = read_expected(path, &ne);
        if (!exp) {
            fprintf(out, "%s: no PSP recording (%s: %s)\n", pt->program, path, strerror(errno));
            res->programs_missing++;
            continue;
        }
        struct psp p;
        res->programs++;
        if (psp_init(&p) < 0) {
            fprintf(out, "%s: out of memory\n", pt->program);
            res->errors++;
        } else {
            int rc = pt->run(&p);
            unsigned m = 0, nv = 0, bad_labels = 0;
            for (size_t i = 0; i < ne; i++) {
                const char *got = i < p.nlines ? p.lines[i] : NULL;
                int label = got && got[0] == PSP_LABEL_MARK;
                if (label) got++;
                if (!label) nv++;
                if (got && strcmp(exp[i], got) == 0) {
                    if (!label) m++;
                } else if (got) {
                    if (label) bad_labels++;
                    fprintf(out, "  %s line %zu%s:\n    PSP:    %s\n    getile: %s\n", pt->program, i + 1,
                            label ? " (not a GE value: the port is out of step)" : "", exp[i], got);
                }
            }
            res->values += nv;
            res->matched += m;
            if (rc < 0 || p.failed || p.nlines != ne || bad_labels) {
                res->errors++;
                fprintf(out, "  %s: %s%s(%zu lines printed, the PSP printed %zu)\n", pt->program,
                        p.failed ? p.err : "", p.failed ? " " : "", p.nlines, ne);
            }
            fprintf(out, "%s: %u of %u values match the PSP", pt->program, m, nv);
            if (p.shot) {
                long diff = compare_shot(dir, file, p.shot, out);
                res->shots++;
                if (diff == 0) res->shots_exact++;
                if (diff < 0) res->errors++;
                if (diff == 0)
                    fprintf(out, "; screenshot exact");
                else if (diff > 0)
                    fprintf(out, "; screenshot: %ld of 130560 pixels differ", diff);
            }
            fputc('\n', out);
            psp_free(&p);
        }
        for (size_t i = 0; i < ne; i++) free(exp[i]);
        free(exp);
    }
    fprintf(out,
            "total: %u of %u values match the PSP, %u of %u screenshots exact (%u programs, %u with errors, %u without "
            "a recording)\n",
            res->matched, res->values, res->shots_exact, res->shots, res->programs, res->errors, res->programs_missing);
}
