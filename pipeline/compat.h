/* PPSSPP emulation switches: a diagnostic, never the product.
 *
 * getile follows GE-HARDWARE.md, and PPSSPP's software renderer (which made
 * the shared reference images) differs from it in named ways. To show, dump
 * by dump, which rule accounts for a difference (docs/KNOWN_DIFFERENCES.md),
 * a separate build (`make compat`, build/compat/getile) can replace single
 * rules by what PPSSPP does. The environment variable GETILE_PPSSPP_COMPAT
 * selects them: a comma-separated list of the names below, "all", or "all"
 * followed by "-name" items to leave some out (default in that build: all).
 *
 * In the normal build GT_COMPAT() is the constant 0, every hook below is dead
 * code the compiler removes, and no switch can be turned on.
 *
 *   arith    GE-HARDWARE.md §1: IEEE single-precision transform arithmetic
 *            (PPSSPP), the area table of §2 replaced by exact division, and
 *            PPSSPP's screen rounding ((int)(x * 16 + 0.375) - offset).
 *   merge    §2 "never merge primitives": PPSSPP draws triangle pairs,
 *            strips and fans that form screen-aligned rectangles, and
 *            adjacent through-mode rectangle slices, as one rectangle.
 *   viewer   §3: PPSSPP's specular half vector uses the viewer (0, 0, 1).
 *   light    §3 "light colors are scaled by 8-bit factors with the product
 *            ((2x + 1)(2s + 1)) >> 10": PPSSPP scales a light term by
 *            (2l + 1)(2m + 1) min(512, ceil(512 f + 1)) >> 19 for the
 *            intensity f (attenuation, spot, N.L or specular power).
 *   replay   §7: PPSSPP's replayer copies a FRAMEBUF record's texture into
 *            VRAM when it reads the record, but the GE runs the draws and
 *            block transfers queued since the replayer's last stall only
 *            after it: the copy lands before them. Also, the replayer maps
 *            dump data in 1 MiB slabs at 256-byte aligned addresses
 *            (BufMapping::MapSlab), so a record at an unaligned dump offset
 *            keeps those low four bits. The GE drops them from CLUT,
 *            texture and transfer addresses, so it reads up to 15 bytes of
 *            the dump before the record. getile copies each record
 *            16-byte aligned; with the switch it copies the record's
 *            16-byte granules of dump data at the same low bits.
 *   texcache §6: PPSSPP has no texture cache and reads a texture that is
 *            also the render target from memory while drawing.
 *   planes   §2 "fixed-point planes divided through the area table":
 *            PPSSPP interpolates triangles per pixel from float barycentric
 *            weights: depth rounded to nearest (CVTPS2DQ, in every game),
 *            colors converted as "round" says,
 *            texture coordinates perspective-corrected in floats. The
 *            weights depend on the vertex order, so a triangle is drawn in
 *            the order it reaches BinManager::AddTriangle: its clipping
 *            order (assemble.c) or that reversed, whichever is
 *            counter-clockwise. (Near-plane clipping itself follows PPSSPP
 *            in every build; it was the switch "clip".) Rectangles:
 *            texture coordinates in floats as DrawRectangle steps them (per
 *            2x2 quad from the first drawn pixel, half steps for the quad's
 *            second column and row), not a plane through the area table.
 *   lod      §2 "the mip level is computed once per 4-pixel span, at the
 *            span's second pixel": PPSSPP computes it once per 2x2 quad
 *            (quads start at the pixel of the triangle's top-left vertex or
 *            the scissor), at the quad's top-left pixel, from float
 *            barycentric s, t (auto mode: s difference to the right, t
 *            difference below) or, in slope mode, from clip w interpolated
 *            linearly in screen space (not perspective-correct). Only with
 *            "planes" (it needs the float vertices).
 *   bands    not a GE rule, a refinement of "lod": PPSSPP's BinManager
 *            (Drain) gives each worker thread a band of the queued range
 *            and draws a triangle band by band, so its 2x2 quads (and the
 *            mip level taken at each quad's top-left pixel) start again at
 *            every band's first row. Emulated for 16 workers (PPSSPP's
 *            MAX_POSSIBLE_TASKS; a host with 16 or more logical CPUs) and
 *            a queued range equal to the scissor rectangle cut to 480x272:
 *            bands of max(4, ceil(ceil(h / 2) / 16)) * 2 rows from its top
 *            (columns, the same way, when the width is at least 4 times
 *            the height; none when either is under 35 pixels). PPSSPP's
 *            real split depends on its thread count and on what was queued
 *            since its last flush. Only with "lod". Not in "all" (IL-2 gets
 *            slightly worse): select it with "all,bands".
 *   aaline   not a GE rule: PPSSPP decides its blend shortcuts from the
 *            vertex alphas (all 0xFF: source alpha becomes ONE, inverse
 *            source alpha ZERO), and DrawLine then sets an antialiased
 *            line's alpha to 0x7F, which no longer blends.
 *   lineedge not a GE rule: PPSSPP's DrawLine keeps a step when its
 *            unfloored position (doubles, 1/16 pixel) is within the range
 *            it draws, whose right and bottom bounds are the last 1/16 unit
 *            of the scissor's last pixel: a step between that unit and the
 *            next pixel, which truncates into the last column or row, is
 *            dropped. (The same test against the borders of PPSSPP's
 *            per-thread bins, which depend on its thread count, is not
 *            emulated.)
 *   rectedge not a GE rule: PPSSPP walks rectangles in 2x2 quads and
 *            draws the second column (row) of a quad when its centre lies
 *            on the right (bottom) edge, where the first one needs it inside.
 *   zeroarea not a GE rule: PPSSPP draws a triangle of zero area whose
 *            vertices are not all on one row or column (BinManager::
 *            AddTriangle keeps it: its cross product is not negative).
 *            IsRightSideOrFlatBottomLine excludes an edge only when the
 *            opposite vertex lies off it, so a sample exactly on the line
 *            can have all three edge values 0 with no bias, and is drawn;
 *            with culling off in both vertex orders (SendTriangle). The
 *            weights sum to 0, so interpolated values are NaN: outside
 *            through mode a varying depth then fails the depth range test
 *            (no pixel); flat values are exact, the rest approximated
 *            (compat_pixel, with "planes"). Strips joined by repeated
 *            vertices make such triangles.
 *   patch    §4 "repeated lerps with t = k/256": PPSSPP tessellates a
 *            Bezier patch in floats with the Bernstein weights of
 *            t = i * (1 / tess) (SplineCommon.cpp Bezier3DWeight), each
 *            row of four control points along u first, then the four row
 *            results along v, every sum p0 w0 + p1 w1 + p2 w2 + p3 w3 from
 *            left to right; generated texture coordinates are
 *            patch + i * (1 / tess). With a division that is not a power
 *            of two, k/256 is not i / tess (tess 3: 85/256 against 1/3),
 *            so vertices and texture coordinates move slightly. Positions
 *            and texture coordinates only; normals, colors and splines
 *            keep the hardware model.
 *   atest    not a GE rule: PPSSPP drops the alpha test of a CLUT draw when
 *            the AND of the CLUT's whole entries (colour bits included) is
 *            not zero, so pixels of alpha 0 are blended and dithered.
 *   atforce  not a GE rule: PPSSPP turns an alpha test "alpha != 0" on
 *            for a blend of source alpha and inverse source alpha that
 *            writes neither depth nor stencil and has no alpha test of its
 *            own (one that always passes), when texture alpha is used (and
 *            a CLUT's entries may have alpha 0) or a vertex alpha is not
 *            full (DetectStateOptimizations: reading the target is
 *            expensive). Such a fragment of alpha 0 is then dropped, where
 *            the GE blends it to the old color and dithers that.
 *   round    not a GE rule: PPSSPP's x86 code converts bilinear texel
 *            coordinates and interpolated colors to integers with CVTPS2DQ,
 *            which follows the host's MXCSR rounding mode, and PPSSPP's x86
 *            JIT loads the game's FPU rounding mode into MXCSR. The
 *            references of some games round to nearest and others truncate.
 *            With the switch: round to nearest; without: truncate (what
 *            getile does). */
#ifndef GETILE_COMPAT_H
#define GETILE_COMPAT_H

#include <stdbool.h>
#include <stdint.h>

#include "gemath.h"

enum gt_compat_flag {
    GT_COMPAT_ARITH = 1u << 0,
    GT_COMPAT_MERGE = 1u << 1,
    GT_COMPAT_VIEWER = 1u << 2,
    GT_COMPAT_REPLAY = 1u << 3,
    GT_COMPAT_ATEST = 1u << 4,
    GT_COMPAT_ROUND = 1u << 5,
    GT_COMPAT_RECTEDGE = 1u << 6,
    GT_COMPAT_LIGHT = 1u << 7,
    GT_COMPAT_TEXCACHE = 1u << 8,
    GT_COMPAT_PLANES = 1u << 9,
    GT_COMPAT_AALINE = 1u << 10,
    GT_COMPAT_LOD = 1u << 11,
    GT_COMPAT_LINEEDGE = 1u << 12,
    GT_COMPAT_ZEROAREA = 1u << 13,
    GT_COMPAT_PATCH = 1u << 14,
    GT_COMPAT_ATFORCE = 1u << 15,
    GT_COMPAT_ALL = (1u << 16) - 1,
    /* Not part of "all": opt in with "all,bands". */
    GT_COMPAT_BANDS = 1u << 16,
};

#ifdef GT_PPSSPP_COMPAT
extern unsigned gt_compat_flags;
#define GT_COMPAT(name) ((gt_compat_flags & GT_COMPAT_##name) != 0)
#else
#define GT_COMPAT(name) 0
#endif

/* Reads GETILE_PPSSPP_COMPAT once (compat build only; a no-op otherwise).
 * Returns the selected flags. */
unsigned gt_compat_init(void);
/* Parses a switch list as described above into flags; -1 for an unknown
 * name. Available in every build (tests use it). */
int gt_compat_parse(const char *list, unsigned *flags);

struct gt_vout;
struct rast_prim;
struct rast_state;
struct gt_pixel_state;

/* A triangle vertex as PPSSPP interpolates it ("planes"); kept in struct
 * rast_prim by the diagnostic build only. */
struct compat_vertex {
    int32_t x, y;       /* 1/16 pixel */
    int32_t z;
    uint8_t c0[4], c1[3];
    float s, t, q, w, fog;
};

/* ---- merge: PPSSPP's rectangle detection (RasterizerRectangle.cpp) ---- */

/* What the detection looks at besides the vertices. */
struct compat_rect_ctx {
    bool through, textured, fog;
    bool z_matters;   /* depth write on, or a depth test other than ALWAYS */
};
/* Each returns true when the vertices form one rectangle and names the
 * vertices that become its top-left and bottom-right corners. */
bool compat_rect_pair6(const struct compat_rect_ctx *c, const struct gt_vout *v, int *tl, int *br);
bool compat_rect_strip4(const struct compat_rect_ctx *c, const struct gt_vout *v, int *tl, int *br);
bool compat_rect_fan4(const struct compat_rect_ctx *c, const struct gt_vout *v, int *tl, int *br);
/* Two through-mode rectangles side by side (v[0..1], v[2..3]) that PPSSPP
 * draws as one from v[0] to v[3]. */
bool compat_rect_slices(const struct compat_rect_ctx *c, const struct gt_vout *v);

/* ---- arith: the viewport and 12.4 position as PPSSPP computes them ---- */
struct gt_xform;
/* From out->clip: out->screen (x, y, z in floats), out->x16 and out->y16. */
void compat_screen(const struct gt_xform *xf, struct gt_vout *out);

/* ---- arith: near-plane clipping ---- */
/* a / b as one IEEE single division (Clipper.cpp CLIP_POLY's
 * t = dp / (dp - dpPrev)); the hardware rule multiplies by a reciprocal. */
gefloat compat_div(gefloat a, gefloat b);

/* ---- planes ---- */
/* Fills p's compat_vertex copies (diagnostic build; no-op otherwise). */
void compat_keep_vertices(struct rast_prim *p, const struct gt_vout *const *v);
/* PPSSPP's per-pixel values of triangle p at pixel (px, py): replaces *z,
 * prim/sec (Gouraud only), *fog (when fogged), and sets *u, *v (level-0
 * texels, 8 fraction bits; rounded when round_uv, else truncated). */
void compat_pixel(const struct rast_prim *p, const struct rast_state *st, int32_t px, int32_t py, uint16_t *z,
                  uint8_t prim[4], uint8_t sec[3], uint8_t *fog, int32_t *u, int32_t *v, bool round_uv);

/* PPSSPP's rectangle texture coordinates (Rasterizer.cpp DrawRectangle):
 * floats, stepped per 2x2 quad from the rectangle's first drawn pixel.
 * Setup keeps the start and steps in p->cv; compat_rect_uv gives pixel
 * (px, py)'s level-0 texels with 8 fraction bits. */
void compat_rect_uv_setup(struct rast_prim *p, const struct rast_state *st, const struct gt_vout *v0,
                          const struct gt_vout *v1);
void compat_rect_uv(const struct rast_prim *p, const struct rast_state *st, int32_t px, int32_t py, int32_t *u,
                    int32_t *v, bool round_uv);

/* ---- zeroarea ---- */
/* PPSSPP's texture level and texel coordinates for a zero-area triangle,
 * whose s, t (and so the auto and slope mode LOD) are NaN: the x86 default
 * NaN reads as TexLog2 2056, CVTTPS2DQ (nearest) and CVTPS2DQ (bilinear)
 * give 0x80000000. Replaces the level, fraction, magnification and the
 * level-0 coordinates (8 fraction bits). */
/* Whether the primary (flat0) and secondary (flat1) colors are the same at
 * the three vertices of zero-area triangle p (then PPSSPP's values are
 * exact; otherwise NaN). */
void compat_zero_area_flat(const struct rast_prim *p, bool *flat0, bool *flat1);
void compat_zero_area_tex(const struct rast_state *st, unsigned *level, unsigned *frac, bool *magnify, int32_t *u,
                          int32_t *v);
/* The texture function of SamplerJit (x86) with an interpolated primary
 * color of 0x80000000 (PACKSSDW: 0x8000 per channel): modulate gives bit 0
 * of the texel times 128 (times 256, saturated, when doubled); replace
 * gives the texel (alpha 255 without texture alpha). Other functions: 0
 * (not worked out). An interpolated secondary color (0x80000000 added)
 * clamps RGB to 0. flat0, flat1: whether color0 / color1 are equal at the
 * three vertices (then they are exact). */
void compat_zero_area_texfunc(const struct gt_pixel_state *ps, bool flat0, bool flat1, const uint8_t prim[4],
                              const uint8_t texel[4], const uint8_t sec[3], uint8_t out[4]);

/* ---- lod ---- */
/* "bands": the first row (or column, *vertical) of PPSSPP's worker band
 * holding pixel (px, py) for scissor rectangle x0..x1, y0..y1 (inclusive)
 * and the given number of workers; -1 when PPSSPP would not split. */
int32_t compat_band_start(int32_t x0, int32_t y0, int32_t x1, int32_t y1, int32_t px, int32_t py, int tasks,
                          bool *vertical);

/* PPSSPP's mip level for triangle p at pixel (px, py) (CalculateSamplingParams
 * as DrawTriangleSlice calls it): once per 2x2 quad, from the quad's
 * top-left pixel (quads restart at each worker band with "bands"); auto
 * mode from the float s difference to the right and t difference below;
 * slope mode from the screen-linear clip w. Returns true when magnified. */
bool compat_lod(const struct rast_prim *p, const struct rast_state *st, int32_t px, int32_t py, unsigned *level,
                unsigned *frac);

/* ---- pixel trace (diagnostic build only) ---- */
/* GETILE_TRACE=X,Y[,FBADDR] (hex address, optional): every write to the
 * pixel at written position (X, Y) of any (or that) color buffer is printed
 * to stderr with its primitive, inputs, sampler state (mip level and
 * fraction, magnification) and the value before and after. Use
 * --threads 1 so the lines come in drawing order. */
bool compat_trace_wanted(uint32_t fb_addr, uint32_t wx, uint32_t wy);
void compat_trace_pixel(const struct rast_prim *p, const struct rast_state *st, int32_t x, int32_t y, uint16_t z,
                        const uint8_t prim[4], const uint8_t out[4], int32_t u, int32_t v, uint32_t before,
                        uint32_t after, unsigned level, unsigned frac, bool magnify);

/* ---- patch: PPSSPP's Bezier tessellation (SplineCommon.cpp) ---- */
/* Bezier3DWeight::CalcWeights for grid line i of a patch divided tess
 * times: t = i * (1 / tess) in floats, then the four Bernstein weights. */
void compat_bezier_weights(unsigned i, unsigned tess, float w[4]);
/* Tessellator: p[v][u] are the 4x4 control values of one channel; each
 * row sampled along u with wu, then the four results along v with wv. */
float compat_bezier_sample(const float p[4][4], const float wu[4], const float wv[4]);
/* A generated texture coordinate: patch + i * (1 / tess) in floats. */
float compat_bezier_uv(unsigned patch, unsigned i, unsigned tess);

/* ---- light ---- */
/* PPSSPP's light term for light color l, material color m and intensity f
 * (a gefloat's bit pattern, f >= 0). */
int compat_light_term(uint8_t l, uint8_t m, uint32_t f);

/* ---- rectedge ---- */
/* Widens p's pixel range (x0..x1, y0..y1, before the scissor) by the last
 * column or row when it is the second of a quad counted from x0 (y0) and
 * its centre 16 px + 8 equals the right edge xr (bottom edge yb). Quads are
 * counted from the rectangle's first pixel; PPSSPP restarts them at its bin
 * edges, which this does not model. */
void compat_rect_edges(struct rast_prim *p, int32_t xr, int32_t yb);

/* ---- atest: PPSSPP's alpha-test drop (DetectStateOptimizations) ---- */
/* Whether PPSSPP skips the alpha test for a primitive whose color-giving
 * vertices are v[0..n-1]. */
bool compat_skip_alpha_test(const struct rast_state *st, const struct gt_vout *const *v, unsigned n);

/* ---- atforce: PPSSPP's added alpha test (DetectStateOptimizations) ---- */
/* Whether PPSSPP draws a primitive whose color-giving vertices are
 * v[0..n-1] with the alpha test "alpha != 0" added. */
bool compat_force_alpha_test(const struct rast_state *st, const struct gt_vout *const *v, unsigned n);

/* ---- round ---- */
/* value / 2^frac_bits rounded to nearest, ties to even (CVTPS2DQ's mode),
 * frac_bits >= 1. */
int64_t compat_round_shift(int64_t value, unsigned frac_bits);
/* x / 2^exp2 rounded to nearest, ties to even (saturated to int64). x is a
 * gefloat's bit pattern (gemath.h). */
int64_t compat_round_scaled(uint32_t x, int32_t exp2);

#endif
