/* Triangle setup and rasterization (issue 5), written for tiles: setup runs
 * once per primitive on the thread that bins (rast_setup_*), producing a
 * struct rast_prim that holds everything the pixels need; rast_draw then
 * draws the part of one primitive that falls in one tile, reading only the
 * primitive, its per-draw snapshot (struct rast_state) and the memory it
 * writes. Workers call rast_draw concurrently for different tiles.
 *
 * Tiles partition memory, not the screen (GE-HARDWARE.md §5, issue 6). A
 * pixel drawn at screen (x, y) writes the color buffer at pixel index
 * y * stride + x, whose canonical position is (index mod stride,
 * index div stride): a pixel past the stride lands at the start of the next
 * row (§5). A tile is a rectangle of canonical positions; rast_draw draws
 * exactly the pixels whose canonical position is inside it, in the order the
 * GE walks them (rows top to bottom, each row left to right in 4-pixel
 * spans), so writes to one address keep primitive order and walk order.
 *
 * Setup (GE-HARDWARE.md §2): every triangle gets fixed-point planes (value
 * at an anchor vertex plus per-x and per-y gradients) for depth, each color
 * channel, fog and the texture coordinates, the gradients divided by the
 * area with the 256-segment reciprocal table (gemath_area_recip32).
 * Rectangles get planes the same way, their area being width x height.
 * Model choices are listed in raster.c next to the code and in
 * docs/DESIGN.md. */
#ifndef GETILE_RASTER_H
#define GETILE_RASTER_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "assemble.h"
#include "compat.h"
#include "mem.h"
#include "pixel.h"
#include "sampler.h"

/* Fraction bits of plane values and gradients per subpixel, measured
 * (ge-raster-pipeline.md "Planes": gradients floored to 14 fraction bits). */
#define RAST_PLANE_FRAC 14

/* GE-HARDWARE.md §5, measured (ge-raster-pipeline.md "Very tall
 * triangles"): the long edge snaps to 4-pixel spans when 3 dy > 2^17 in
 * subpixels, i.e. dy > 43690 (about 2730 pixels). */
#define RAST_TALL_LIMIT16 ((1 << 17) / 3)

/* Everything a draw's pixels depend on, snapshotted from the registers once
 * per draw (rast_state_snapshot). Workers read only this. */
struct rast_state {
    struct gt_pixel_state px;
    struct gt_sampler smp;
    bool textured;            /* TEXTURE_ON and not clear mode */
    bool through;             /* VTYPE bit 23 */
    bool gouraud;             /* SHADEMODE bit 0 */
    bool tex_proj;            /* texture matrix with projection (TEX_MAPMODE 1, projection 0 ... 3): s/q, t/q */
    bool antialias;           /* ANTIALIAS_ON (lines) */
    bool uses_depth;          /* the draw reads or writes the depth buffer */
    uint8_t fb_bpp;           /* 2 or 4 */
    uint32_t fb_addr, fb_stride; /* FB_PTR (VRAM), FB_WIDTH in pixels */
    uint32_t z_addr, z_stride;   /* Z_PTR (VRAM), Z_WIDTH in pixels */
    uint32_t z_trans;         /* eDRAM address translation: with fb_bpp, where depth is stored (mem_depth_offset) */
    int32_t sc_x0, sc_y0, sc_x1, sc_y1; /* scissor, inclusive drawing coordinates */
    /* REGION1 (ge-raster-pipeline.md "REGION1 is a translation"): a pixel
     * drawn at screen (x, y) is written at (x + region_x, y + region_y),
     * region_x = -(x1 rounded up to 4), region_y = -y1, and with
     * region_rev (odd x1) reversed inside its aligned group of 4
     * (rast_write_x). The scissor already starts at (x1, y1), so written
     * rows are >= 0; written x may be -4..-1, the end of the row above. */
    int32_t region_x, region_y;
    bool region_rev;
};

/* Where a pixel drawn at screen column x is written (row y + region_y):
 * fb_x = (x + region_x) ^ 3 for odd x1 (measured). The mapping keeps
 * every aligned group of 4, so tile ownership (tiles and strides are
 * multiples of 4) follows x + region_x. */
static inline int32_t rast_write_x(const struct rast_state *st, int32_t x)
{
    int32_t t = x + st->region_x;
    return st->region_rev ? t ^ 3 : t;
}

/* Floor division of a written x by a positive row length (written x can be
 * negative: the end of the previous row). */
static inline int32_t rast_floordiv(int32_t x, int32_t n)
{
    return x >= 0 ? x / n : -((-x + n - 1) / n);
}

/* edram_trans: the eDRAM address translation in force (gt_mem). */
void rast_state_snapshot(struct rast_state *rs, const struct ge_state *st, uint32_t edram_trans);
/* Host pointer to the depth of the pixel written at (wx, wy): its linear
 * address scrambled as the GE stores depth (mem_depth_offset). */
static inline uint8_t *rast_depth_ptr(const struct rast_state *st, struct gt_mem *mem, uint32_t wx, uint32_t wy)
{
    uint32_t lin = st->z_addr + (wy * st->z_stride + wx) * 2;
    return mem->vram + mem_depth_offset(st->z_trans, st->fb_bpp == 4, lin);
}
/* Immediate-mode draws (VAP): the primitive flags of the first vertex
 * (VAP bits 11-23, given shifted down by 11) replace antialiasing, shading,
 * texturing, fog and dithering for the draw (PPSSPP GPUCommon::FlushImm;
 * culling is applied by assembly). */
void rast_state_apply_imm(struct rast_state *rs, const struct ge_state *st, uint32_t flags);

/* A plane: value(X, Y) = v + gx * (X - ax) + gy * (Y - ay) with
 * RAST_PLANE_FRAC fraction bits, X and Y in 1/16 pixel, (ax, ay) the
 * primitive's anchor. */
struct rast_plane { int64_t v, gx, gy; };

enum rast_kind { RAST_TRIANGLE, RAST_RECT, RAST_LINE, RAST_POINT };

/* Plane indices. */
enum { RP_Z, RP_R, RP_G, RP_B, RP_A, RP_R1, RP_G1, RP_B1, RP_FOG, RP_S, RP_T, RP_Q, RP_COUNT };

/* A set-up primitive. */
struct rast_prim {
    uint8_t kind;             /* enum rast_kind */
    bool flat_color;          /* colors constant (flat shading or equal vertices) */
    bool persp;               /* texture coordinates are S/Q, T/Q (transform mode) */
    /* Bounding box in drawing coordinates (inclusive), inside the scissor. */
    int32_t x0, y0, x1, y1;
    /* Triangles: edge functions e(X, Y) = a X + b Y + c over 1/16-pixel
     * positions, a pixel (px, py) being covered when e + bias >= 0 at
     * X = 16 px + 7, Y = 16 py + 7 for all three. */
    int64_t ea[3], eb[3], ec[3];
    int8_t ebias[3];
    int32_t ax, ay;           /* anchor, 1/16 pixel */
    struct rast_plane pl[RP_COUNT];
    /* S, T, Q planes hold values in units of 2^exp[] (block floating point);
     * without perspective S and T are level-0 texels with 8 fraction bits
     * (exp 0) and Q is unused. */
    int32_t exp[3];
    /* Triangles: the long edge is strictly the right side (the GE walks
     * rows right to left; the mip level's q is taken at a span's third
     * pixel), and log16 of the largest texture plane gradient in level-0
     * texels per pixel (auto mip level). */
    bool rtl;
    int32_t log16_g;
    uint8_t color[4], color1[3]; /* flat colors (flat_color) */
    /* Rectangles: the pixel rectangle is x0..x1, y0..y1; texture plane
     * arguments are exchanged for rotated rectangles (swap_uv). */
    bool swap_uv;
    /* Diagnostic build only (compat.h "atest"): skip the alpha test. Always
     * false in the normal build. */
    bool no_alpha_test;
    /* Diagnostic build only (compat.h "atforce"): add the alpha test
     * "alpha != 0". Always false in the normal build. */
    bool force_alpha_test;
    /* Diagnostic build only (compat.h "aaline"): source alpha factor ONE,
     * inverse source alpha ZERO. */
    bool compat_full_alpha_blend;
    /* Diagnostic build only (compat.h "zeroarea"): a triangle of zero area,
     * whose interpolated values are NaN in PPSSPP. */
    bool compat_zero_area;
#ifdef GT_PPSSPP_COMPAT
    struct compat_vertex cv[3]; /* compat.h "planes" */
#endif
    /* Triangles taller than RAST_TALL_LIMIT16 (GE-HARDWARE.md §5): edge
     * snap_edge (the long edge; -1: none) decides the first pixel of each
     * 4-pixel span (snap_left: it is the left side) or the last (right
     * side) at the span's other end. */
    int8_t snap_edge;
    bool snap_left;
    /* Lines: the first vertex (1/16 pixel), the second minus the first, the
     * major length in whole pixels; a line's planes hold the first vertex's
     * value in v and the second's in gx (integers: colours, depth, 8-bit
     * fog, texture values in units of 2^exp[]). */
    int32_t lx, ly, ldx, ldy, lsteps;
};

/* Setup. Each returns false when the primitive draws no pixel (empty after
 * the scissor, zero area). The vertices are in primitive order; provoking
 * names the vertex that gives flat colors. */
bool rast_setup_triangle(struct rast_prim *p, const struct rast_state *st, const struct gt_vout *v0,
                         const struct gt_vout *v1, const struct gt_vout *v2, unsigned provoking);
bool rast_setup_rect(struct rast_prim *p, const struct rast_state *st, const struct gt_vout *v0,
                     const struct gt_vout *v1);
bool rast_setup_line(struct rast_prim *p, const struct rast_state *st, const struct gt_vout *v0,
                     const struct gt_vout *v1, unsigned provoking);
bool rast_setup_point(struct rast_prim *p, const struct rast_state *st, const struct gt_vout *v0);

/* The plane anchor of GE-HARDWARE.md §2 for vertices at (x[i], y[i])
 * (1/16 pixel): the leftmost vertex, unless the long edge is the right
 * side, then the top vertex of the long edge (model choice). */
unsigned rast_anchor_vertex(const int64_t x[3], const int64_t y[3]);

/* A tile: canonical positions cx in [cx0, cx1), cy in [cy0, cy1), for a
 * buffer whose rows are `tstride` pixels apart. Positions are where pixels
 * are written (after the REGION1 translation). tstride 0 means the tile is
 * the whole address space (one tile draws everything: the serial path). */
struct rast_tile { int32_t cx0, cy0, cx1, cy1; uint32_t tstride; };

/* Counters a worker keeps for its tiles. */
struct rast_stats { uint64_t pixels, prims; };

/* Draws the pixels of p (set up with state st) whose canonical position
 * is inside tile t. */
void rast_draw(const struct rast_prim *p, const struct rast_state *st, const struct rast_tile *t, struct gt_mem *mem, struct rast_stats *stats);

#endif
