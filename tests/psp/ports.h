/* The ported pspautotests GPU programs (tests/psp/, issue 22) and the
 * suite that runs them against what the PSP printed
 * (../shared/pspautotests-gpu/DIR__NAME.expected). */
#ifndef GETILE_PSP_PORTS_H
#define GETILE_PSP_PORTS_H

#include <stdio.h>

#include "psp/psp.h"

/* A port replays its program's GE work on p and prints, with
 * psp_checkpoint, the lines the program prints. Returns 0, or -1 when it
 * could not run (p->err says why). */
typedef int (*psp_port_fn)(struct psp *p);

struct psp_port {
    const char *program;  /* "texcolors/rgb565": tests/gpu/texcolors/rgb565.cpp */
    psp_port_fn run;
};

extern const struct psp_port psp_ports[];
extern const unsigned psp_nports;

/* Totals of one suite run. */
struct psp_suite_result {
    unsigned programs, programs_missing; /* ports run; ports whose .expected is absent */
    unsigned values, matched;            /* printed lines compared, and equal */
    unsigned errors;                     /* ports that could not run or printed the wrong number of lines */
    unsigned shots, shots_exact;         /* screenshots compared with the PSP's, and equal in RGB */
};

/* Runs every port (or those whose program name contains `only`, when not
 * NULL) against DIR, printing per program `N of M values match the PSP`,
 * each differing line beside the PSP's, and the totals, to out. */
void psp_suite_run(const char *dir, const char *only, FILE *out, struct psp_suite_result *res);
/* Where psp_suite_run writes getile's screenshots (NAME.getile.png, beside
 * a copy of the PSP's NAME.psp.png) when one differs; NULL: nowhere. */
extern const char *psp_suite_save_dir;

struct gu;
/* The framebuffer set-up most programs' init() opens with: 8888 draw and
 * display buffers at VRAM 0 (stride 512, 480x272), depth at 0x88000
 * (stride 512), the offset and viewport of a 480x272 screen centred at
 * 2048, sceGuDepthRange(near, far), depth writes on, and the scissor
 * (0, 0, sw, sh) enabled. */
void psp_screen_setup(struct gu *g, int near, int far, int sw, int sh);
/* The shorter set-up of the programs that leave depth and viewport alone:
 * 8888 draw and display buffers at VRAM 0 (stride 512, 480x272) and the
 * full-screen scissor enabled. */
void psp_plain_setup(struct gu *g);
/* sceGuSetMatrix of the identity for GU_MODEL, GU_VIEW and GU_PROJECTION. */
void psp_identity_matrices(struct gu *g);

int psp_filtering_linear(struct psp *p);
int psp_filtering_mipmaplinear(struct psp *p);
int psp_filtering_nearest(struct psp *p);
int psp_filtering_precisionlinear2d(struct psp *p);
int psp_filtering_precisionlinear3d(struct psp *p);
int psp_filtering_precisionnearest2d(struct psp *p);
int psp_filtering_precisionnearest3d(struct psp *p);
int psp_texcolors_rgb565(struct psp *p);
int psp_texcolors_rgba4444(struct psp *p);
int psp_texcolors_rgba5551(struct psp *p);
int psp_texcolors_dxt1(struct psp *p);
int psp_texcolors_dxt3(struct psp *p);
int psp_texcolors_dxt5(struct psp *p);
int psp_clut_address(struct psp *p);
int psp_clut_masks(struct psp *p);
int psp_clut_offset(struct psp *p);
int psp_clut_shifts(struct psp *p);
int psp_commands_basic(struct psp *p);
int psp_commands_blend(struct psp *p);
int psp_commands_blend565(struct psp *p);
int psp_commands_blocktransfer(struct psp *p);
int psp_commands_cull(struct psp *p);
int psp_commands_fog(struct psp *p);
int psp_commands_light(struct psp *p);
int psp_commands_material(struct psp *p);
int psp_texfunc_add(struct psp *p);
int psp_texfunc_blend(struct psp *p);
int psp_texfunc_decal(struct psp *p);
int psp_texfunc_modulate(struct psp *p);
int psp_texfunc_replace(struct psp *p);
int psp_primitives_points(struct psp *p);
int psp_primitives_lines(struct psp *p);
int psp_primitives_linestrip(struct psp *p);
int psp_primitives_triangles(struct psp *p);
int psp_primitives_trianglefan(struct psp *p);
int psp_primitives_trianglestrip(struct psp *p);
int psp_primitives_rectangles(struct psp *p);
int psp_primitives_invalidprim(struct psp *p);
int psp_primitives_continue(struct psp *p);
int psp_primitives_indices(struct psp *p);
int psp_primitives_immediate(struct psp *p);

#endif
