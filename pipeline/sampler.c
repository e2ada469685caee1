/* Texture sampling (see sampler.h for the conventions and the model).
 *
 * Sources, PPSSPP being read for behaviour only:
 *  - register fields: GPU/GPUState.h (isMinifyFilteringEnabled,
 *    isMipmapFilteringEnabled, isMipmapEnabled, isMagnifyFilteringEnabled,
 *    isTexCoordClampedS/T, getTexLevelMode, getTexLevelOffset16,
 *    getTextureLodSlope, getTextureMaxLevel) and GPU/Software/FuncId.cpp
 *    ComputeSamplerID (no mip levels unless mipmaps are enabled);
 *  - LOD: GPU/Software/Rasterizer.cpp TexLog2 and CalculateSamplingParams;
 *  - coordinates, wrap/clamp, filters: GPU/Software/Sampler.cpp
 *    GetTexelCoordinates, GetTexelCoordinatesQuadS/T, ApplyTexelClampQuad,
 *    WrapUV, SampleLinearLevel, SampleLinear, SampleNearest. */
#include "sampler.h"

#include <string.h>

/* ---- Snapshot ---------------------------------------------------------- */

void sampler_snapshot(struct gt_sampler *s, const struct ge_state *st)
{
    memset(s, 0, sizeof *s);
    tex_snapshot(&s->tex, st);
    uint32_t filt = ge_reg(st, GE_TEX_FILTER);
    s->min_linear = (filt & 1) != 0;          /* isMinifyFilteringEnabled */
    s->mip_linear = (filt & 2) != 0;          /* isMipmapFilteringEnabled */
    s->mip_enabled = (filt & 4) != 0;         /* isMipmapEnabled */
    s->mag_linear = (filt & 0x100) != 0;      /* isMagnifyFilteringEnabled */
    uint32_t wrap = ge_reg(st, GE_TEX_WRAP);
    s->clamp_u = (wrap & 1) != 0;             /* isTexCoordClampedS */
    s->clamp_v = (wrap & 0x100) != 0;         /* isTexCoordClampedT */
    uint32_t lvl = ge_reg(st, GE_TEX_LEVEL);
    s->lod_mode = lvl & 3;                    /* getTexLevelMode */
    /* getTexLevelOffset16: bits 16-23 as a signed byte, 1/16 levels. */
    uint32_t b = (lvl >> 16) & 0xFF;
    s->bias = b >= 128 ? (int32_t)b - 256 : (int32_t)b;
    s->slope = gemath_from_word(ge_reg(st, GE_TEX_LOD_SLOPE)); /* getTextureLodSlope */
    /* ComputeSamplerID: maxLevel is 0 unless mipmaps are enabled. */
    s->max_level = s->mip_enabled ? s->tex.max_level : 0;
    for (unsigned i = 0; i < 8; i++) {
        uint32_t sz = ge_reg(st, GE_TEX_SIZE0 + i);
        s->wlog[i] = sz & 0xF;
        s->hlog[i] = (sz >> 8) & 0xF;
    }
}

/* ---- Level of detail --------------------------------------------------- */

/* Rasterizer.cpp TexLog2: bits 19-30 of the float (the 8 exponent bits and
 * the top 4 mantissa bits, sign excluded) read as one number in 1/16 units,
 * minus the exponent bias 127 * 16. */
int32_t sampler_log2(gefloat x)
{
    gefloat t = gemath_trunc(x);
    return (int32_t)((t >> 19) & 0xFFF) - 127 * 16;
}

/* The same on a fixed-point value: e = position of the leading one, the
 * 4 bits below it are the fraction (the mantissa's top 4 bits). */
int32_t sampler_log2_fixed(uint64_t v, unsigned frac_bits)
{
    if (v == 0) return SAMPLER_LOG2_ZERO;
    int e = 63;
    while (!(v >> e)) e--;
    uint32_t m4 = e >= 4 ? (uint32_t)(v >> (e - 4)) & 15 : (uint32_t)(v << (4 - e)) & 15;
    return (int32_t)((e - (int)(frac_bits & 63)) * 16) + (int32_t)m4;
}

static int32_t sat32(int64_t x)
{
    return x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : (int32_t)x;
}

/* The detail for the mode, plus the bias in every mode (measured,
 * ge-raster-pipeline.md "Mip level selection"): slope mode D = 16 +
 * log16(slope) - log16(q), q the pixel's interpolated q. */
int32_t sampler_lod(const struct gt_sampler *s, int32_t lod_input, gefloat q)
{
    int64_t d;
    switch (s->lod_mode) {
    case GT_LOD_AUTO: d = lod_input; break;
    case GT_LOD_SLOPE: d = 16 + (int64_t)sampler_log2(s->slope) - sampler_log2(q); break;
    default: d = 0; break; /* constant; mode 3 behaves the same */
    }
    return sat32(d + s->bias);
}

/* CalculateSamplingParams, second half: level and fraction. */
bool sampler_level(const struct gt_sampler *s, int32_t lod_input, gefloat q, unsigned *level, unsigned *frac)
{
    int32_t d = sampler_lod(s, lod_input, q);
    *level = 0;
    *frac = 0;
    if (d > 0 && s->max_level > 0) {
        int32_t d8 = d < (int32_t)(16 * s->max_level) ? d : (int32_t)(16 * s->max_level);
        if (s->mip_linear) {
            *level = (unsigned)d8 >> 4;
            *frac = (unsigned)d8 & 15;
        } else {
            *level = (unsigned)(d8 + 8) >> 4; /* nearest level, halves up */
        }
    }
    return d <= 0;
}

/* ---- Coordinates ------------------------------------------------------- */

/* x / 2^n rounded toward minus infinity, without relying on the
 * implementation-defined right shift of negative values. */
static int64_t floor_shr(int64_t x, unsigned n)
{
    if (n > 62) return x < 0 ? -1 : 0;
    return x >= 0 ? x >> n : -((-(x + 1)) >> n) - 1;
}

/* Level-0 fixed-point coordinate to level n (sampler.h): scaled by
 * 2^(log_n - log_0). Sampler.cpp GetTexelCoordinates multiplies the
 * normalised coordinate by the level's own size. */
static int64_t to_level(int32_t c, unsigned log0, unsigned logn)
{
    if (logn <= log0) return floor_shr(c, log0 - logn);
    return (int64_t)c * ((int64_t)1 << (logn - log0)); /* at most 2^31 * 2^15 */
}

/* Sampler.cpp WrapUV (x & (size - 1) & 511) and the clamp of
 * ApplyTexelClampQuad (0 .. min(size, 512) - 1). */
uint32_t sampler_wrap(const struct gt_sampler *s, unsigned axis, unsigned level, int64_t x)
{
    if (level > 7) level = 7;
    unsigned lg = axis ? s->hlog[level] : s->wlog[level];
    bool clamp = axis ? s->clamp_v : s->clamp_u;
    int64_t size = (int64_t)1 << lg;
    if (clamp) {
        int64_t hi = (size > 512 ? 512 : size) - 1;
        return (uint32_t)(x < 0 ? 0 : x > hi ? hi : x);
    }
    return (uint32_t)((uint64_t)x & (uint64_t)(size - 1) & 511u);
}

/* ---- Filters ----------------------------------------------------------- */

/* Sampler.cpp SampleNearest / GetTexelCoordinates: texel floor(u_n / 256). */
static uint32_t sample_nearest(const struct gt_sampler *s, const struct gt_mem *mem, int32_t u, int32_t v,
                               unsigned level)
{
    int64_t un = to_level(u, s->wlog[0], s->wlog[level]);
    int64_t vn = to_level(v, s->hlog[0], s->hlog[level]);
    uint32_t x = sampler_wrap(s, 0, level, floor_shr(un, 8));
    uint32_t y = sampler_wrap(s, 1, level, floor_shr(vn, 8));
    return tex_texel(&s->tex, mem, level, x, y);
}

/* Sampler.cpp GetTexelCoordinatesQuadS/T and SampleLinearLevel: half a texel
 * subtracted, the 4-bit weight from bits 4-7 of the result, the two
 * neighbours wrapped/clamped independently, the blend truncated by >> 8. */
static uint32_t sample_bilinear(const struct gt_sampler *s, const struct gt_mem *mem, int32_t u, int32_t v,
                                unsigned level)
{
    int64_t bu = to_level(u, s->wlog[0], s->wlog[level]) - 128;
    int64_t bv = to_level(v, s->hlog[0], s->hlog[level]) - 128;
    uint32_t fu = (uint32_t)((uint64_t)floor_shr(bu, 4) & 15);
    uint32_t fv = (uint32_t)((uint64_t)floor_shr(bv, 4) & 15);
    int64_t x0 = floor_shr(bu, 8), y0 = floor_shr(bv, 8);
    uint32_t xa = sampler_wrap(s, 0, level, x0), xb = sampler_wrap(s, 0, level, x0 + 1);
    uint32_t ya = sampler_wrap(s, 1, level, y0), yb = sampler_wrap(s, 1, level, y0 + 1);
    uint32_t tl = tex_texel(&s->tex, mem, level, xa, ya);
    uint32_t tr = tex_texel(&s->tex, mem, level, xb, ya);
    uint32_t bl = tex_texel(&s->tex, mem, level, xa, yb);
    uint32_t br = tex_texel(&s->tex, mem, level, xb, yb);
    uint32_t out = 0;
    /* Measured (ge-arithmetic.md "Texture function arithmetic"): the two
     * horizontal lerps first, each truncated to 8 bits, then the vertical. */
    for (unsigned sh = 0; sh < 32; sh += 8) {
        uint32_t top = ((tl >> sh & 0xFF) * (16 - fu) + (tr >> sh & 0xFF) * fu) >> 4;
        uint32_t bot = ((bl >> sh & 0xFF) * (16 - fu) + (br >> sh & 0xFF) * fu) >> 4;
        out |= ((top * (16 - fv) + bot * fv) >> 4) << sh;
    }
    return out;
}

static uint32_t sample_level(const struct gt_sampler *s, const struct gt_mem *mem, int32_t u, int32_t v,
                             unsigned level, bool linear)
{
    return linear ? sample_bilinear(s, mem, u, v, level) : sample_nearest(s, mem, u, v, level);
}

/* Sampler.cpp SampleNearest / SampleLinear: the level and, with a nonzero
 * fraction, level + 1 with the same filter, blended per channel
 * (c1 * f + c0 * (16 - f)) >> 4. */
uint32_t sampler_sample(const struct gt_sampler *s, const struct gt_mem *mem, int32_t u, int32_t v, unsigned level,
                        unsigned frac, bool magnify)
{
    bool linear = magnify ? s->mag_linear : s->min_linear;
    if (level > 7) level = 7;
    frac &= 15;
    uint32_t c0 = sample_level(s, mem, u, v, level, linear);
    if (frac == 0 || level == 7) return c0;
    uint32_t c1 = sample_level(s, mem, u, v, level + 1, linear);
    uint32_t out = 0;
    for (unsigned sh = 0; sh < 32; sh += 8)
        out |= (((c1 >> sh & 0xFF) * frac + (c0 >> sh & 0xFF) * (16 - frac)) >> 4) << sh;
    return out;
}
