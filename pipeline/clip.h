/* Near-plane clipping (docs/notes/vertex-pipeline.md §4.6): the GE clips
 * triangles and lines against the single plane z = -w in clip space; the
 * other sides rely on the guard band. Arithmetic on the GE format. */
#ifndef GETILE_CLIP_H
#define GETILE_CLIP_H

#include "transform.h"

/* Triangles one clipped triangle becomes. */
#define CLIP_MAX_TRIS 2
/* Clips a triangle at the near plane as the GE does (measured, probes
 * exp43-46; ge-arithmetic.md "Clipped vertex colors"): a vertex is behind
 * when z < -w. With one vertex o behind, the quad is split from the vertex
 * before o in the order given, p (after it when reversed), into (p, a, b)
 * and (p, b, n), a and b the new vertices on p-o and n-o, in the winding
 * given; with two behind, the inside vertex i and the new vertices on i-n
 * and i-p. Writes the triangles (0 to CLIP_MAX_TRIS; an unclipped triangle
 * is written as one) and returns their count. */
unsigned clip_triangle(const struct gt_xform *xf, const struct gt_vout in[3], bool reversed,
                       struct gt_vout out[CLIP_MAX_TRIS][3]);
/* Moves the endpoint of a line that is behind the plane onto it. */
void clip_line(const struct gt_xform *xf, struct gt_vout *a, struct gt_vout *b);
/* The new vertex on in-out (in in front of the plane, out behind): t = d_in
 * R(d_in - d_out) with d = z + w; every position and texture component
 * in + t (out - in) with the GE's adder and products; colors and the 8-bit
 * fog (a (256 - t8) + b t8) >> 8 with t8 = round(256 t). Then its screen
 * position, the guard band always checked. */
void clip_near_point(const struct gt_xform *xf, const struct gt_vout *in, const struct gt_vout *out,
                     struct gt_vout *dst);

#endif
