/* The suite of ported programs: see ports.h. A program's value is one line
 * it prints; the line is compared with the PSP's line of the same position
 * in its .expected file, after the framework's "[x] " or "[r] " prefix
 * (which records whether the test thread was rescheduled, not the GE). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "psp/ports.h"

const struct psp_port psp_ports[] = {
    {"texcolors/rgb565", psp_texcolors_rgb565},
    {"texcolors/rgba4444", psp_texcolors_rgba4444},
    {"texcolors/rgba5551", psp_texcolors_rgba5551},
    {"texcolors/dxt1", psp_texcolors_dxt1},
    {"texcolors/dxt3", psp_texcolors_dxt3},
    {"texcolors/dxt5", psp_texcolors_dxt5},
    {"commands/blend", psp_commands_blend},
    {"commands/blend565", psp_commands_blend565},
    {"texfunc/add", psp_texfunc_add},
    {"texfunc/blend", psp_texfunc_blend},
    {"texfunc/decal", psp_texfunc_decal},
    {"texfunc/modulate", psp_texfunc_modulate},
    {"texfunc/replace", psp_texfunc_replace},
};
const unsigned psp_nports = sizeof psp_ports / sizeof psp_ports[0];

/* The lines of an .expected file, prefixes stripped; NULL when unreadable. */
static char **read_expected(const char *path, size_t *n)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    char **v = NULL, buf[1024];
    size_t cap = 0;
    *n = 0;
    while (fgets(buf, sizeof buf, f)) {
        size_t len = strcspn(buf, "\r\n");
        buf[len] = 0;
        if (!len) continue; /* checkpointNext's separators */
        const char *s = buf;
        if ((s[0] == '[') && (s[1] == 'x' || s[1] == 'r') && s[2] == ']' && s[3] == ' ') s += 4;
        if (*n == cap) {
            cap = cap ? cap * 2 : 64;
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
            fprintf(out, "%s: %u of %u values match the PSP\n", pt->program, m, nv);
            psp_free(&p);
        }
        for (size_t i = 0; i < ne; i++) free(exp[i]);
        free(exp);
    }
    fprintf(out, "total: %u of %u values match the PSP (%u programs, %u with errors, %u without a recording)\n",
            res->matched, res->values, res->programs, res->errors, res->programs_missing);
}
