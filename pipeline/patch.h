/* Bezier and spline patches (BEZIER 0x05, SPLINE 0x06): tessellation of one
 * kick into generated vertices and primitives, on the GE arithmetic
 * (GE-HARDWARE.md §4; fields and behaviour where it is silent from
 * docs/notes/vertex-pipeline.md §9).
 *
 * Evaluation (GE-HARDWARE.md §4). Every generated vertex is the result of
 * de Casteljau-style repeated lerps (gemath_lerp, t = k/256), first down each
 * of the four columns of control points (a column is fixed u, the points
 * v = 0..3 of it; control point (u, v) is element v * nu + u), then once
 * along the row of the four column results. Bezier patches lerp every level
 * with the same k; splines use de Boor's algorithm, whose per-level factors
 * come from the knot vector (model choice, see patch.c: spline_factors). The
 * lerp factor of grid line i of a patch divided tess times is
 * k = floor(256 * i / tess), so k = 0 and k = 256 (the patch edges) pass the
 * control points through untouched (model choice, patch.c: patch_k).
 *
 * What the output vertices hold (struct gt_vin, model space):
 *  - pos: the surface point. Control points are read with the full VTYPE
 *    (indices, morphing) and, when VTYPE has weights (transform mode), are
 *    skinned before tessellation, as PPSSPP does. The generated positions are
 *    therefore ALREADY SKINNED and their weights are all zero: the caller
 *    must transform them with skinning off (gt_xform.nweights = 0), or every
 *    position would collapse to the origin.
 *  - nrm: when VTYPE has normals or lighting is on (LIGHTING_ON), the
 *    normalised cross product dP/du x dP/dv of the surface tangents
 *    (control-point normals are ignored), negated when PATCH_FACING bit 0 is
 *    set; a degenerate tangent gives (0, 0, 0). Otherwise (0, 0, 1). Each
 *    tangent is the difference of the two points of the last-but-one lerp
 *    level (so at a patch edge it is exactly the difference of the two edge
 *    control points, GE-HARDWARE.md §4). REVERSE_NORMAL is not applied here.
 *  - uv: evaluated like the positions from the control points' texture
 *    coordinates decoded without TEXSCALE/TEXOFFSET, or, when VTYPE has no
 *    texture coordinates, generated as (patch_u + k_u/256, patch_v + k_v/256)
 *    (so 0 .. patch count); then, in UV mapping mode (transform mode), the
 *    decoder's TEXSCALE/TEXOFFSET step is applied. So uv is what the decoder
 *    would give for a vertex with these coordinates.
 *  - color: each channel evaluated like the positions, as the exact integer
 *    0..255 in the GE format, the result truncated toward zero (no rounding,
 *    GE-HARDWARE.md §1; PPSSPP rounds to nearest). Without vertex color every
 *    generated vertex gets the first control point's color, i.e. the
 *    material ambient RGB (0x55) with the material alpha (0x58).
 *    The generated vertices always have color, normal and texture
 *    coordinates (in PPSSPP, MATERIAL_UPDATE then uses this color even when
 *    VTYPE had no color).
 *  - weight: all zero (see pos).
 *
 * Primitives (idx, in drawing order). Each grid cell with corners
 * TL (u, v), TR (u+1, v), BL (u, v+1), BR (u+1, v+1) gives
 *  - triangles (PATCH_PRIMITIVE 0): (TL, BL, TR), (TR, BL, BR);
 *  - lines (1): (TL, BL), (TR, BR), (TR, BL);
 *  - points (2 and 3): TL, BL, TR, TR, BL, BR (corners repeat, as PPSSPP).
 * Orientation: with the right-hand rule each triangle's face normal
 * (v1 - v0) x (v2 - v0) is -(dP/du x dP/dv), the opposite of the generated
 * (unflipped) normal. On screen, if u grows to the right (+x) and v downwards
 * (+y), the assembler's area A = (x1-x0)(y2-y0) - (y1-y0)(x2-x0) is negative,
 * so the triangles are drawn with CULL_FACE = 0 and culled with CULL_FACE = 1
 * (asm_triangle_visible with flip = false for every triangle; they are
 * independent triangles, not a strip). PATCH_FACING does not change the
 * winding (PPSSPP and the notes: it only negates the normals; unmeasured,
 * model switch PATCH_FACING_FLIPS_WINDING in patch.c).
 * Order: Bezier patches with patch u outer and patch v inner, the cells of a
 * patch row by row (v outer, u inner); each Bezier patch has its own
 * (tess_u + 1) x (tess_v + 1) vertices (edge vertices are duplicated and may
 * get different normals). Splines share one grid of
 * (patches_u * tess_u + 1) x (patches_v * tess_v + 1) vertices; cells row by
 * row over the whole grid.
 *
 * Rejected input gives an empty result (nv = nidx = 0, return 0): fewer than
 * 4 control points in either direction, or no position in VTYPE (a vertex
 * without position is never drawn). The caller advances the vertex or index
 * address by patch_point_count(word) control points in every case
 * (PPSSPP does not advance the non-indexed address for a rejected patch;
 * unmeasured).
 */
#ifndef GETILE_PATCH_H
#define GETILE_PATCH_H

#include <stdint.h>

#include "ge.h"
#include "gt_error.h"
#include "mem.h"
#include "par.h"
#include "vdecode.h"

/* Bound on generated vertices per kick (not hardware behaviour: the GE
 * streams, this module materialises). Above it patch_tessellate returns
 * GT_ETOO_BIG and draws nothing. 2^20 vertices is about 70 MB of gt_vin
 * (plus up to 6 indices per vertex); real patches are far below it (the
 * largest legal kick, 255 x 255 spline points at division 127, would be 10^9). */
#define PATCH_MAX_VERTICES (1u << 20)

/* The tessellated surface of one BEZIER or SPLINE kick, in model space:
 * generated vertices (positions, normals, colors, texture coordinates as the
 * decoder would give them) and primitives over them. */
struct gt_patch_out {
    struct gt_vin *v;  uint32_t nv;
    uint32_t *idx;     uint32_t nidx;   /* vertex indices, in primitive order */
    unsigned prim_type;                 /* PRIM type of idx: 0 points, 1 lines, 3 triangles */
};

/* Tessellates the kick `word` (a BEZIER or SPLINE command word) with the
 * current state (VTYPE, vertex/index addresses, PATCH_* registers). Returns 0
 * or a negative gt_err: GT_ENOMEM, GT_ETOO_BIG (more than PATCH_MAX_VERTICES),
 * GT_EARG (word is not BEZIER or SPLINE). Degenerate input gives an empty
 * result and 0. `out` is always initialised (empty on error); free it with
 * patch_free. The grid's vertices are computed through par (NULL: on the
 * caller), with the same result for any thread count. */
int patch_tessellate(const struct ge_state *st, const struct gt_mem *mem, uint32_t word, const struct gt_par *par,
                     struct gt_patch_out *out, struct gt_diag *d);
void patch_free(struct gt_patch_out *out);

/* Control points a BEZIER or SPLINE word names (nu * nv): what the vertex
 * (non-indexed) or index (indexed) address advances by after the kick. */
uint32_t patch_point_count(uint32_t word);

#endif
