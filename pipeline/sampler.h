/* Texture sampling (issue 5): wrap/clamp, nearest and bilinear filtering
 * with the GE's 4-bit weights, mip level selection (auto, constant and slope
 * LOD modes with the bias) and the mip filter, on top of the texel decoder
 * of texture.h.
 *
 * GE-HARDWARE.md only fixes where the LOD is computed (once per 4-pixel
 * span, at the span's second pixel in walking order: the rasterizer's job)
 * and that sub-texel offsets must not be "fixed". Everything else follows
 * PPSSPP's software renderer, read for behaviour only: GPU/Software/
 * Sampler.cpp (GetTexelCoordinates, GetTexelCoordinatesQuadS/T,
 * SampleLinearLevel, SampleLinear, SampleNearest, ClampUV, WrapUV),
 * GPU/Software/Rasterizer.cpp (TexLog2, CalculateSamplingParams,
 * ComputeRasterizerState), GPU/Software/FuncId.cpp (ComputeSamplerID) and the
 * register getters of GPU/GPUState.h. sampler.c names the source next to
 * every formula.
 *
 * ---- Conventions -------------------------------------------------------
 *
 * Coordinates. sampler_sample takes u, v in texel units of level 0 as signed
 * fixed point with 8 fraction bits: u = 256 means the left edge of level-0
 * texel 1. Texel x covers [256x, 256x + 256); its centre is 256x + 128.
 *
 * Level n. A coordinate is rescaled to level n by the ratio of the level's
 * own size (its TEX_SIZEn register) to level 0's, both powers of two:
 * u_n = u * w_n / w_0, done as an arithmetic shift (right shifts round toward
 * minus infinity; a level larger than level 0 shifts left). PPSSPP scales a
 * normalised coordinate by each level's own width, so a level whose size
 * register is not w_0 >> n is still read in proportion. (PPSSPP truncates
 * toward zero when it converts its float coordinate to 1/256 texel; here the
 * caller's fixed-point u is already integral and only the level shift
 * rounds, toward minus infinity: model choice, differs only for negative
 * coordinates at levels > 0 by less than 1/256 texel.)
 *
 * Nearest. Texel floor(u_n / 256): no half-texel offset, no rounding.
 *
 * Bilinear. Half a texel is subtracted first: b = u_n - 128. The left texel
 * is floor(b / 256), the right one that plus 1, and the weight of the right
 * texel is the 4-bit fraction (b >> 4) & 15, i.e. the 1/16 steps of the
 * position between the two texel centres, the lower 4 fraction bits being
 * dropped (truncated toward minus infinity). Same in v. Per 8-bit channel:
 *   top = TL * (16 - fu) + TR * fu,  bottom = BL * (16 - fu) + BR * fu,
 *   result = (top * (16 - fv) + bottom * fv) >> 8   (truncating, no rounding).
 * At u_n = 256x + 128 exactly the texel x is returned unchanged; a coordinate
 * 1/256 texel below a centre already takes 15/16 of the left neighbour
 * (GE-HARDWARE.md §2: sub-texel offsets are kept, never snapped).
 *
 * Wrap and clamp (TEX_WRAP bit 0 for u, bit 8 for v; set = clamp), applied
 * to each texel coordinate separately (so the two bilinear neighbours are
 * wrapped or clamped independently, as PPSSPP's ApplyTexelClampQuad does):
 *   wrap:  x & (w_n - 1) & 511
 *   clamp: x limited to 0 .. min(w_n, 512) - 1
 * Texture dimensions above 512 are thus read as 512 (PPSSPP limits texel
 * coordinates to 511 too; its scalar ClampUV and SIMD clamp disagree for
 * widths above 512, and this follows the SIMD one: model choice).
 *
 * Mip filter. With a fraction f (1..15) at level L < 7, level L and level
 * L + 1 are each sampled with the same filter (nearest or bilinear) and
 * blended per channel: (c(L+1) * f + c(L) * (16 - f)) >> 4, truncating.
 * f = 0 samples level L only. (Sampler.cpp SampleNearest / SampleLinear.)
 *
 * ---- Level of detail ---------------------------------------------------
 *
 * The LOD ("detail") is log2 of texels per pixel as signed fixed point with
 * 4 fraction bits (16 = one level). Its logarithm is the GE's cheap one
 * (Rasterizer.cpp TexLog2): the float's exponent plus its top 4 mantissa bits
 * as the fraction, i.e. a straight line between powers of two, truncated to
 * 1/16 (3.0 gives 1.5, not 1.585). sampler_log2 computes it from a gefloat,
 * sampler_log2_fixed from an unsigned fixed-point value.
 *
 * TEX_LEVEL (0xC8) bits 0-1 select the mode, bits 16-23 the bias, a signed
 * 8-bit value in 1/16 levels (signed 4.4), added in every mode:
 *   0 auto:  detail = lod_input + bias, lod_input given by the rasterizer:
 *            for triangles (measured, ge-raster-pipeline.md "Mip level
 *            selection") log16(g) - log16(q), g the largest texture plane
 *            gradient in level-0 texels per pixel and q the interpolated q
 *            of the span's chosen pixel; for sprites, lines and points the
 *            log of the texel step to the next pixel (PPSSPP; unmeasured);
 *   1, 3 constant: detail = bias (3 is unused and behaves as 1);
 *   2 slope: detail = 16 + log16(slope) - log16(q) + bias (measured), slope
 *            being TEX_LOD_SLOPE (0xD0) as a GE float and q the pixel's
 *            interpolated q; sign ignored.
 * Then, with max = TEX_MODE bits 16-18 when TEX_FILTER bit 2 (mipmaps) is
 * set, else 0 (FuncId.cpp ComputeSamplerID):
 *   detail <= 0 or max == 0: level 0, fraction 0;
 *   else d = min(detail, 16 * max); with the linear mip filter (TEX_FILTER
 *   bit 1) level = d >> 4 and fraction = d & 15; with the nearest mip filter
 *   level = (d + 8) >> 4 (rounds to the nearest level, halves up) and
 *   fraction 0.
 * The texture is magnified when detail <= 0 (magnify filter, TEX_FILTER bit
 * 8), else minified (minify filter, TEX_FILTER bit 0), independently of
 * whether mipmaps are on. */
#ifndef GETILE_SAMPLER_H
#define GETILE_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#include "gemath.h"
#include "texture.h"

/* TEX_LEVEL bits 0-1. */
enum gt_lod_mode { GT_LOD_AUTO = 0, GT_LOD_CONST = 1, GT_LOD_SLOPE = 2 };

/* sampler_log2 of zero (exponent field 0): (0 - 127) * 16, far below any
 * level, i.e. "magnify". */
#define SAMPLER_LOG2_ZERO (-127 * 16)

/* Everything sampling needs, snapshotted once per draw (workers never read
 * live GE state). */
struct gt_sampler {
    struct gt_tex tex;
    bool min_linear;     /* TEX_FILTER bit 0: minify filter bilinear */
    bool mip_linear;     /* TEX_FILTER bit 1: linear between mip levels */
    bool mip_enabled;    /* TEX_FILTER bit 2: mipmaps used */
    bool mag_linear;     /* TEX_FILTER bit 8: magnify filter bilinear */
    bool clamp_u;        /* TEX_WRAP bit 0: clamp u (else wrap) */
    bool clamp_v;        /* TEX_WRAP bit 8: clamp v (else wrap) */
    unsigned lod_mode;   /* TEX_LEVEL bits 0-1 (3 behaves as GT_LOD_CONST) */
    int32_t bias;        /* TEX_LEVEL bits 16-23, signed, 1/16 levels */
    gefloat slope;       /* TEX_LOD_SLOPE as a GE float */
    unsigned max_level;  /* TEX_MODE bits 16-18 if mip_enabled, else 0 */
    unsigned wlog[8], hlog[8]; /* TEX_SIZEn exponents (4 bits each) */
};

void sampler_snapshot(struct gt_sampler *s, const struct ge_state *st);

/* The GE's log2 (Rasterizer.cpp TexLog2) of |x| with 4 fraction bits: for
 * x = 2^e * (1 + m) returns 16 * e + floor(16 * m). x goes through
 * gemath_trunc first (an IEEE infinity reads as GEMATH_MAX); zero gives
 * SAMPLER_LOG2_ZERO. */
int32_t sampler_log2(gefloat x);
/* The same log2 of the fixed-point value v / 2^frac_bits (v >= 0,
 * frac_bits 0..63); equals sampler_log2 of the same value as a gefloat.
 * v == 0 gives SAMPLER_LOG2_ZERO. */
int32_t sampler_log2_fixed(uint64_t v, unsigned frac_bits);

/* The detail (LOD with the bias, 1/16 levels, see above) for the mode in the
 * snapshot: lod_input is used by the auto mode only, q by the slope mode
 * only. Saturates to the int32_t range. */
int32_t sampler_lod(const struct gt_sampler *s, int32_t lod_input, gefloat q);

/* The mip level (0..max_level) and the fraction toward level + 1 (0..15,
 * 4 bits as in PPSSPP; always 0 with the nearest mip filter and at
 * max_level) from the LOD inputs as sampler_lod takes them. Returns true
 * when the texture is magnified (detail <= 0): pass it to sampler_sample. */
bool sampler_level(const struct gt_sampler *s, int32_t lod_input, gefloat q, unsigned *level, unsigned *frac);

/* Samples at (u, v), level-0 texels with 8 fraction bits (see above), at
 * `level` (values above 7 read as 7) with mip fraction `frac` (low 4 bits
 * used; 0 = that level only): wrap/clamp per axis, nearest or bilinear per
 * the magnify (magnify true) or minify filter, blended with level + 1 when
 * frac != 0 and level < 7. Returns RGBA8888 (R in the low byte). */
uint32_t sampler_sample(const struct gt_sampler *s, const struct gt_mem *mem, int32_t u, int32_t v, unsigned level,
                        unsigned frac, bool magnify);

/* The wrap/clamp rule alone: texel index x of level `level` (values above 7
 * read as 7) along axis 0 (u) or 1 (v), wrapped or clamped into the level.
 * Exposed for tests and for the texture cache. */
uint32_t sampler_wrap(const struct gt_sampler *s, unsigned axis, unsigned level, int64_t x);

#endif
