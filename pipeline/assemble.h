/* Primitive assembly: turns a PRIM kick's vertices into points, lines,
 * triangles and rectangles, with strips, fans, "keep previous" (type 7)
 * continuing the last kick's pending vertices, the guard-band and depth
 * discard, culling by winding, and the provoking vertex of flat shading
 * (docs/notes/vertex-pipeline.md §4.3-4.8, §8). Primitives are never merged
 * (GE-HARDWARE.md §2). Triangles and lines crossing the near plane are
 * clipped (clip.c). */
#ifndef GETILE_ASSEMBLE_H
#define GETILE_ASSEMBLE_H

#include <stdbool.h>
#include <stdint.h>

#include "transform.h"

enum gt_prim_kind { GT_POINT, GT_LINE, GT_TRIANGLE, GT_RECT };

/* One primitive handed to setup: 1 to 3 vertices in primitive order. For
 * flat shading, `provoking` names the vertex whose colors the primitive uses. */
struct gt_prim {
    enum gt_prim_kind kind;
    unsigned nv, provoking;
    struct gt_vout v[3];
};

/* Where assembled primitives go. Returns 0 or a negative gt_err. */
typedef int (*gt_prim_sink)(void *ctx, const struct gt_prim *p, struct gt_diag *d);

/* Counters of what assembly did with the primitives it formed. */
struct gt_asm_stats {
    uint64_t emitted[4];   /* by gt_prim_kind */
    uint64_t culled;       /* back-facing or zero-area triangles */
    uint64_t discarded;    /* a vertex outside the guard band or depth range */
    uint64_t clipped;      /* triangles and lines cut by the near plane */
    uint64_t patches_dropped; /* BEZIER/SPLINE kicks over patch.c's vertex cap */
};

/* Assembly state that lives across kicks (type 7 continues it). */
struct gt_asm {
    unsigned type;         /* PRIM type of the primitive being built (0-6) */
    struct gt_vout pend[2];
    unsigned npend;        /* vertices waiting for the next kick */
    unsigned strip_index;  /* triangles formed so far in this strip (winding parity) */
    uint32_t imm_flags;    /* the primitive flags of the first immediate vertex (VAP bits 11-23) */
    gefloat last_uv[2], last_nrm[3]; /* reused by vertices without texture coordinates or normals */
    struct gt_asm_stats stats;
};

void asm_init(struct gt_asm *a);
/* Runs a PRIM word: decodes, transforms and assembles its vertices and hands
 * each primitive to sink. */
int asm_prim(struct gt_asm *a, const struct ge_state *st, const struct gt_mem *mem, uint32_t word,
             gt_prim_sink sink, void *ctx, struct gt_diag *d);
/* A BEZIER or SPLINE word: tessellates the patch (patch.c), transforms the
 * generated vertices (already skinned) and assembles its primitives. */
int asm_patch(struct gt_asm *a, const struct ge_state *st, const struct gt_mem *mem, uint32_t word,
              gt_prim_sink sink, void *ctx, struct gt_diag *d);
/* Immediate mode: VAP (0xF7) emits one vertex from the latched VSCX..VSCV
 * registers (0xF0-0xF9) with the primitive type in its bits 8-10 (7 continues)
 * (docs/notes/vertex-pipeline.md §11). No transform; in transform mode the
 * position is relative to OFFSET_X/Y, in through mode to 2048 pixels. */
int asm_immediate(struct gt_asm *a, const struct ge_state *st, uint32_t vap, gt_prim_sink sink, void *ctx,
                  struct gt_diag *d);
/* The culling test of a triangle in primitive order: true when it is drawn.
 * cull_on and cull_face are the registers' bits; flip inverts the sense (odd
 * triangles of a strip). */
bool asm_triangle_visible(const struct gt_vout *v0, const struct gt_vout *v1, const struct gt_vout *v2,
                          bool cull_on, bool cull_face, bool flip);

#endif
