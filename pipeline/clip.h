/* Near-plane clipping (docs/notes/vertex-pipeline.md §4.6): the GE clips
 * triangles and lines against the single plane z = -w in clip space; the
 * other sides rely on the guard band. Arithmetic on the GE format. */
#ifndef GETILE_CLIP_H
#define GETILE_CLIP_H

#include "transform.h"

/* Vertices a clipped triangle can have: 3 edges each adding at most one
 * intersection (a vertex exactly on the plane can repeat as one). */
#define CLIP_MAX_POLY 6
/* Clips a triangle; writes the clipped polygon (0 or 3 to CLIP_MAX_POLY
 * vertices, in order) to out and returns its vertex count. The order is
 * PPSSPP's (Clipper.cpp CLIP_POLY), which decides how the polygon is fanned
 * into pieces (assemble.c): for each edge v0->v1, v1->v2, v2->v0, its first
 * vertex when in front of the plane, then the crossing when the edge cuts
 * it. New vertices get their screen position with the guard band always
 * checked. */
unsigned clip_triangle(const struct gt_xform *xf, const struct gt_vout in[3], struct gt_vout out[CLIP_MAX_POLY]);
/* Moves a line's endpoints that are behind the plane onto it. */
void clip_line(const struct gt_xform *xf, struct gt_vout *a, struct gt_vout *b);
/* The vertex at t between a and b (t = 0: a): clip position, texture
 * coordinates and fog as a*(1-t) + b*t in one fused row sum each; colors by
 * an 8-bit integer lerp with trunc(t * 256). Model choice (one place). */
void clip_lerp(const struct gt_xform *xf, const struct gt_vout *a, const struct gt_vout *b, gefloat t,
               struct gt_vout *out);

#endif
