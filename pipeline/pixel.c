/* The per-pixel pipeline (pixel.h). Sources, all described in our own words:
 *  - PPSSPP GPU/Software/DrawPixel.cpp: DrawSinglePixel (the order of the
 *    stages), GetPixelStencil / SetPixelStencil, GetPixelColor /
 *    SetPixelColor, AlphaTestPassed, ColorTestPassed, StencilTestPassed,
 *    ApplyStencilOp, DepthTestPassed, ApplyLogicOp, GetSourceFactor /
 *    GetDestFactor, AlphaBlendingResult;
 *  - DrawPixelX86.cpp (the x86 JIT): the subtract equations clamp at zero
 *    before the dither is added (see blend_channel);
 *  - FuncId.cpp ComputePixelFuncID: which register bits matter (depth write
 *    needs the depth test on, fog is off in through mode, blend equations 6
 *    and 7 mean no blending, stencil ops 6 and 7 act as KEEP, the write mask's
 *    alpha part only applies when stencil is written);
 *  - Sampler.cpp GetTextureFunctionOutput: the texture functions;
 *  - GPUState.h: the register field layouts.
 * GE-HARDWARE.md §3 overrides PPSSPP for the blender's multiplications: the
 * 8-bit product ((2x+1)(2s+1)) >> 10 (gemath_mul8). PPSSPP's blender uses the
 * same product, so there is no conflict there. The texture functions use
 * (t (p + 1)) >> 8, measured (ge-raster-pipeline.md "Texture functions",
 * texfunc_mul); the fog blend's rounding follows PPSSPP (model choice,
 * fog_mix).
 *
 * PPSSPP shortcuts deliberately not copied (they are speed-ups whose results
 * differ from PPSSPP's own per-pixel rules): ComputePixelFuncID rewrites a
 * stencil test with reference 0 and GREATER as NOTEQUAL (and GEQUAL as
 * ALWAYS), which contradicts StencilTestPassed's "reference FUNC stencil"
 * order; and it drops a NOTEQUAL-black color test under additive blending
 * with a ONE destination factor (dither and masks make that observable).
 * Here the per-pixel rules are applied as written. */
#include "pixel.h"

#include <string.h>

#include "gemath.h"
#include "texture.h"

/* ---- Snapshot ---------------------------------------------------------- */

static void rgb_bytes(uint8_t out[3], uint32_t v)
{
    out[0] = v & 0xFF;
    out[1] = v >> 8 & 0xFF;
    out[2] = v >> 16 & 0xFF;
}

void pixel_snapshot(struct gt_pixel_state *ps, const struct ge_state *st)
{
    memset(ps, 0, sizeof *ps);
    ps->fb_format = ge_reg(st, GE_FB_FORMAT) & 3;
    /* GPUState.h isModeThrough: VTYPE bit 23. */
    ps->through = (ge_reg(st, GE_VTYPE) >> 23 & 1) != 0;

    /* GPUState.h isModeClear / isClearMode{Color,Alpha,Depth}Mask. */
    uint32_t cm = ge_reg(st, GE_CLEAR_MODE);
    ps->clear = (cm & 1) != 0;
    ps->clear_color = (cm & 0x100) != 0;
    ps->clear_stencil = (cm & 0x200) != 0;
    ps->clear_depth = (cm & 0x400) != 0;

    ps->min_z = ge_reg(st, GE_MIN_Z) & 0xFFFF;
    ps->max_z = ge_reg(st, GE_MAX_Z) & 0xFFFF;

    /* FuncId.cpp: applyFog = fog enabled and not through mode. */
    ps->fog = (ge_reg(st, GE_FOG_ON) & 1) && !ps->through;
    rgb_bytes(ps->fog_color, ge_reg(st, GE_FOG_COLOR));

    ps->color_test = ge_reg(st, GE_COLORTEST_ON) & 1;
    ps->ctest_func = ge_reg(st, GE_COLOR_TEST) & 3;
    ps->ctest_mask = ge_reg(st, GE_COLOR_TEST_MASK);
    ps->ctest_ref = ge_reg(st, GE_COLOR_REF) & ps->ctest_mask;

    uint32_t at = ge_reg(st, GE_ALPHA_TEST);
    ps->alpha_test = ge_reg(st, GE_ALPHATEST_ON) & 1;
    ps->atest_func = at & 7;
    ps->atest_ref = at >> 8 & 0xFF;
    ps->atest_mask = at >> 16 & 0xFF;

    uint32_t stt = ge_reg(st, GE_STENCIL_TEST), sop = ge_reg(st, GE_STENCIL_OP);
    ps->stencil_test = ge_reg(st, GE_STENCILTEST_ON) & 1;
    ps->stest_func = stt & 7;
    ps->stest_ref = stt >> 8 & 0xFF;
    ps->stest_mask = stt >> 16 & 0xFF;
    ps->sop_sfail = sop & 7;
    ps->sop_zfail = sop >> 8 & 7;
    ps->sop_zpass = sop >> 16 & 7;

    /* FuncId.cpp: depthWrite = depth test enabled && !(ZMSK & 1). */
    ps->depth_test = ge_reg(st, GE_ZTEST_ON) & 1;
    ps->ztest_func = ge_reg(st, GE_Z_TEST) & 7;
    ps->depth_write = ps->depth_test && !(ge_reg(st, GE_Z_WRITE_DISABLE) & 1);

    uint32_t bm = ge_reg(st, GE_BLEND_MODE);
    ps->blend_src = bm & 0xF;
    ps->blend_dst = bm >> 4 & 0xF;
    ps->blend_eq = bm >> 8 & 7;
    /* FuncId.cpp: equations 6 and 7 do no blending at all. */
    ps->blend = (ge_reg(st, GE_BLEND_ON) & 1) && ps->blend_eq <= PX_BEQ_ABSDIFF;
    rgb_bytes(ps->fix_a, ge_reg(st, GE_BLEND_FIXA));
    rgb_bytes(ps->fix_b, ge_reg(st, GE_BLEND_FIXB));

    /* GPUState.h getDitherValue: row y is DITHER0+y, entry x its nibble x,
     * read as a signed 4-bit value (8..15 are -8..-1). */
    ps->dither = ge_reg(st, GE_DITHER_ON) & 1;
    for (unsigned y = 0; y < 4; y++) {
        uint32_t row = ge_reg(st, GE_DITHER0 + y);
        for (unsigned x = 0; x < 4; x++) {
            int v = (int)(row >> (4 * x) & 0xF);
            ps->dither_matrix[y * 4 + x] = (int8_t)(v >= 8 ? v - 16 : v);
        }
    }

    ps->logic_op = ge_reg(st, GE_LOGICOP_ON) & 1;
    ps->logic_func = ge_reg(st, GE_LOGIC_OP) & 0xF;

    /* GPUState.h getColorMask: MASK_RGB | (MASK_ALPHA & 0xFF) << 24. */
    ps->write_mask = ge_reg(st, GE_MASK_RGB) | (ge_reg(st, GE_MASK_ALPHA) & 0xFF) << 24;

    /* GPUState.h getTextureFunction / isTextureAlphaUsed /
     * isColorDoublingEnabled / getTextureEnvColRGB. */
    uint32_t tf = ge_reg(st, GE_TEX_FUNC);
    ps->tex_func = tf & 7;
    ps->tex_alpha = (tf & 0x100) != 0;
    ps->color_double = (tf & 0x10000) != 0;
    rgb_bytes(ps->tex_env, ge_reg(st, GE_TEX_ENV));

    pixel_update_masks(ps);
}

/* RGBA8888ToRGB565 / ToRGBA5551 / ToRGBA4444 (ColorConv): each channel keeps
 * its top bits (truncation, no rounding). 565: R 0-4, G 5-10, B 11-15.
 * 5551: R 0-4, G 5-9, B 10-14, A bit 15 = A bit 7. 4444: R, G, B, A nibbles
 * from bit 0 up. 8888 is stored as is. */
uint32_t pixel_quantize(unsigned fmt, uint32_t c)
{
    uint32_t r = c & 0xFF, g = c >> 8 & 0xFF, b = c >> 16 & 0xFF, a = c >> 24;
    switch (fmt & 3) {
    case PX_FMT_565: return r >> 3 | (g >> 2) << 5 | (b >> 3) << 11;
    case PX_FMT_5551: return r >> 3 | (g >> 3) << 5 | (b >> 3) << 10 | (a >> 7) << 15;
    case PX_FMT_4444: return r >> 4 | (g >> 4) << 4 | (b >> 4) << 8 | (a >> 4) << 12;
    default: return c;
    }
}

/* FuncId.cpp: the write mask is converted to the framebuffer format like a
 * color (so a 16-bit format looks at the top bits of each mask byte), and
 * its alpha byte only counts when the draw writes stencil; otherwise every
 * alpha/stencil bit keeps its old value. In clear mode "writes stencil" is
 * the alpha/stencil clear flag (and never for 565, which has none). */
void pixel_update_masks(struct gt_pixel_state *ps)
{
    bool writes_stencil = ps->clear ? (ps->clear_stencil && ps->fb_format != PX_FMT_565) : ps->stencil_test;
    uint32_t m = ps->write_mask;
    if (!writes_stencil) m |= 0xFF000000u;
    ps->keep_mask = pixel_quantize(ps->fb_format, m);
}

/* ---- Texture function --------------------------------------------------- */

static unsigned sat8(int v) { return v < 0 ? 0 : v > 255 ? 255 : (unsigned)v; }

/* Modulation product of the texture function: (t * (p + 1)) >> 8
 * (measured, ge-raster-pipeline.md "Texture functions"). */
static int texfunc_mul(int p, int t) { return ((p + 1) * t) >> 8; }

/* Sampler.cpp GetTextureFunctionOutput, per function (p = primary, t =
 * texel, "x2" = color doubling, which scales RGB only, never alpha; values
 * may exceed 255 until the final saturation):
 *  MODULATE: rgb (p+1)*t*(x2 ? 2 : 1) >> 8; a (pa+1)*ta >> 8 in RGBA mode,
 *            else pa.
 *  DECAL:    RGBA mode: ((p+1)(255-ta) + (t+1)ta) >> (x2 ? 7 : 8);
 *            RGB mode: t (x2: 2t); a = pa.
 *  BLEND:    ((255-t)p + t*env + 255) >> (x2 ? 7 : 8); a as MODULATE.
 *  REPLACE:  rgb t (x2: 2t); a = ta in RGBA mode, else pa.
 *  ADD (and 5..7): rgb p + t (x2: 2(p+t)); a as MODULATE.
 * Then the secondary color is added to RGB (Rasterizer.cpp adds color1
 * before the pixel stage) and every channel is clamped to 0..255 once
 * (DrawSinglePixel clamps its input). */
void pixel_texfunc(const struct gt_pixel_state *ps, const uint8_t prim[4], const uint8_t texel[4],
                   const uint8_t sec[3], uint8_t out[4])
{
    int rgb[3], a;
    int pa = prim[3], ta = texel[3];
    bool dbl = ps->color_double, rgba = ps->tex_alpha;
    int amod = rgba ? texfunc_mul(pa, ta) : pa;
    for (int i = 0; i < 3; i++) {
        int p = prim[i], t = texel[i];
        switch (ps->tex_func) {
        case PX_TF_MODULATE:
            rgb[i] = dbl ? ((p + 1) * t * 2) >> 8 : texfunc_mul(p, t);
            break;
        case PX_TF_DECAL:
            if (rgba)
                rgb[i] = ((p + 1) * (255 - ta) + (t + 1) * ta) >> (dbl ? 7 : 8);
            else
                rgb[i] = dbl ? 2 * t : t;
            break;
        case PX_TF_BLEND:
            rgb[i] = ((255 - t) * p + t * ps->tex_env[i] + 255) >> (dbl ? 7 : 8);
            break;
        case PX_TF_REPLACE:
            rgb[i] = dbl ? 2 * t : t;
            break;
        default: /* ADD and the unnamed 5..7 */
            rgb[i] = dbl ? 2 * (p + t) : p + t;
            break;
        }
    }
    switch (ps->tex_func) {
    case PX_TF_DECAL: a = pa; break;
    case PX_TF_REPLACE: a = rgba ? ta : pa; break;
    default: a = amod; break;
    }
    /* Color doubling doubles the secondary color too (measured,
     * ge-raster-pipeline.md "Texture functions"). */
    for (int i = 0; i < 3; i++) out[i] = (uint8_t)sat8(rgb[i] + (sec ? (dbl ? 2 : 1) * sec[i] : 0));
    out[3] = (uint8_t)sat8(a);
}

void pixel_add_secondary(const uint8_t prim[4], const uint8_t sec[3], uint8_t out[4])
{
    for (int i = 0; i < 3; i++) out[i] = (uint8_t)sat8(prim[i] + sec[i]);
    out[3] = prim[3];
}

/* ---- Tests ------------------------------------------------------------- */

/* AlphaTestPassed / DepthTestPassed: the fragment's value on the left. */
static bool compare(unsigned func, unsigned a, unsigned b)
{
    switch (func & 7) {
    case PX_NEVER: return false;
    case PX_ALWAYS: return true;
    case PX_EQUAL: return a == b;
    case PX_NOTEQUAL: return a != b;
    case PX_LESS: return a < b;
    case PX_LEQUAL: return a <= b;
    case PX_GREATER: return a > b;
    default: return a >= b;
    }
}

/* DrawSinglePixel fog: (c*f + fogcolor*(255-f) + 255) / 256 per RGB channel
 * (always rounds up, like the BLEND texture function); alpha untouched. */
static unsigned fog_mix(unsigned c, unsigned fc, unsigned f) { return (c * f + fc * (255 - f) + 255) >> 8; }

/* ApplyStencilOp. Stencil values are 8-bit as read by read_stencil: 5551's
 * bit reads 0 or 255, 4444's nibble reads v*17. INCR/DECR per format:
 * 8888 +1/-1 saturating at 255/0; 4444 +/-0x10 while the result stays in
 * 0..0xFF (else unchanged), so the stored nibble moves by one; 5551 INCR
 * gives 255, DECR 0. INVERT is ~s; REPLACE writes the unmasked reference. 6
 * and 7 keep. 565 has no stencil: pixel_write never calls this there. */
static unsigned stencil_op(unsigned fmt, unsigned op, unsigned s, unsigned ref)
{
    switch (op) {
    case PX_SOP_ZERO: return 0;
    case PX_SOP_REPLACE: return ref;
    case PX_SOP_INVERT: return ~s & 0xFF;
    case PX_SOP_INCR:
        if (fmt == PX_FMT_5551) return 0xFF;
        if (fmt == PX_FMT_4444) return s < 0xF0 ? s + 0x10 : s;
        return s != 0xFF ? s + 1 : s;
    case PX_SOP_DECR:
        if (fmt == PX_FMT_5551) return 0;
        if (fmt == PX_FMT_4444) return s >= 0x10 ? s - 0x10 : s;
        return s != 0 ? s - 1 : s;
    default: return s;
    }
}

/* ---- Framebuffer access ------------------------------------------------ */

static uint32_t read_fb(unsigned fmt, const uint8_t *fb)
{
    if (fmt == PX_FMT_8888) return (uint32_t)fb[0] | (uint32_t)fb[1] << 8 | (uint32_t)fb[2] << 16 | (uint32_t)fb[3] << 24;
    return (uint32_t)fb[0] | (uint32_t)fb[1] << 8;
}

static void write_fb(unsigned fmt, uint8_t *fb, uint32_t v)
{
    fb[0] = v & 0xFF;
    fb[1] = v >> 8 & 0xFF;
    if (fmt == PX_FMT_8888) {
        fb[2] = v >> 16 & 0xFF;
        fb[3] = v >> 24;
    }
}

/* GetPixelColor: the stored pixel expanded to 8888 by bit replication; 565
 * reads alpha 0 (for the blender's destination alpha). */
static uint32_t expand(unsigned fmt, uint32_t v)
{
    switch (fmt) {
    case PX_FMT_565: return tex_expand_5650((uint16_t)v) & 0x00FFFFFFu;
    case PX_FMT_5551: return tex_expand_5551((uint16_t)v);
    case PX_FMT_4444: return tex_expand_4444((uint16_t)v);
    default: return v;
    }
}

/* GetPixelStencil: 565 reads 0; the others the expanded alpha. */
static unsigned read_stencil(unsigned fmt, uint32_t expanded) { return fmt == PX_FMT_565 ? 0 : expanded >> 24; }

/* SetPixelStencil: only the alpha/stencil bits change, under keep_mask. */
static void write_stencil(const struct gt_pixel_state *ps, uint8_t *fb, uint32_t old, unsigned s)
{
    unsigned fmt = ps->fb_format;
    if (fmt == PX_FMT_565) return;
    uint32_t amask = pixel_quantize(fmt, 0xFF000000u);
    uint32_t news = pixel_quantize(fmt, (uint32_t)s << 24);
    uint32_t write = amask & ~ps->keep_mask;
    write_fb(fmt, fb, (old & ~write) | (news & write));
}

/* ---- Blending ---------------------------------------------------------- */

/* The blender's product ((2x+1)(2f+1)) >> 10 (ge-arithmetic.md "8-bit
 * color products"), which is gemath_mul8 for 8-bit factors; the doubled
 * factors reach 510 and use the same formula. A negative factor (a doubled
 * inverse for alpha >= 128, measured: not clamped) makes its term
 * subtracted; model choice: sign and magnitude kept apart as elsewhere in
 * the GE, the term is -(x (-f)). */
int pixel_blend_mul(unsigned x, int f)
{
    if (f < 0) return -pixel_blend_mul(x, -f);
    if (f <= 255) return gemath_mul8((uint8_t)x, (uint8_t)f);
    return (int)(((2u * x + 1u) * (2u * (unsigned)f + 1u)) >> 10);
}

/* The blend factor of channel i. "other" is the destination color for the
 * source factor and the source color for the destination factor. Doubled
 * alphas are 2a (up to 510); their inverses 255 - 2a, not clamped, so
 * negative from a = 128 (measured, ge-arithmetic.md "8-bit color
 * products"). Codes 10..15 take the fixed color's channel. */
static int blend_factor(unsigned code, int i, const uint8_t other[4], int sa, int da, const uint8_t fix[3])
{
    switch (code) {
    case PX_BF_OTHER: return other[i];
    case PX_BF_INV_OTHER: return 255 - other[i];
    case PX_BF_SRC_A: return sa;
    case PX_BF_INV_SRC_A: return 255 - sa;
    case PX_BF_DST_A: return da;
    case PX_BF_INV_DST_A: return 255 - da;
    case PX_BF_2SRC_A: return 2 * sa;
    case PX_BF_INV_2SRC_A: return 255 - 2 * sa;
    case PX_BF_2DST_A: return 2 * da;
    case PX_BF_INV_2DST_A: return 255 - 2 * da;
    default: return fix[i];
    }
}

/* One blended channel, before dither and the final clamp: ADD s*fa + d*fb;
 * SUB s*fa - d*fb and RSUB d*fb - s*fa; a negative result (SUB, RSUB, or ADD
 * with a negative doubled inverse factor) is 0 here (model choice: PPSSPP's
 * x86 JIT and SSE paths saturate at 0 before the dither is added, its plain
 * C path does not; the page says only "clamped once at the end"); MIN, MAX
 * and ABSDIFF on the unscaled colors. Products are pixel_blend_mul. */
static int blend_channel(const struct gt_pixel_state *ps, int i, const uint8_t src[4], const uint8_t dst[4])
{
    unsigned s = src[i], d = dst[i];
    switch (ps->blend_eq) {
    case PX_BEQ_MIN: return (int)(s < d ? s : d);
    case PX_BEQ_MAX: return (int)(s > d ? s : d);
    case PX_BEQ_ABSDIFF: return (int)(s > d ? s - d : d - s);
    default: break;
    }
    int fa = blend_factor(ps->blend_src, i, dst, src[3], dst[3], ps->fix_a);
    int fb = blend_factor(ps->blend_dst, i, src, src[3], dst[3], ps->fix_b);
    int ls = pixel_blend_mul(s, fa), rs = pixel_blend_mul(d, fb);
    switch (ps->blend_eq) {
    case PX_BEQ_ADD: return ls + rs > 0 ? ls + rs : 0;
    case PX_BEQ_SUB: return ls > rs ? ls - rs : 0;
    default: return rs > ls ? rs - ls : 0; /* RSUB */
    }
}

/* ApplyLogicOp on 8888-layout colors: RGB only; the alpha byte (the new
 * stencil) always passes through from the new color. Working on the
 * expanded old color is exact for 16-bit formats: bitwise ops commute with
 * the truncation that quantisation does. */
static uint32_t logic_op(unsigned op, uint32_t src, uint32_t dst)
{
    uint32_t r;
    switch (op & 15) {
    case PX_LOP_CLEAR: r = 0; break;
    case PX_LOP_AND: r = src & dst; break;
    case PX_LOP_AND_REVERSE: r = src & ~dst; break;
    case PX_LOP_COPY: r = src; break;
    case PX_LOP_AND_INVERTED: r = ~src & dst; break;
    case PX_LOP_NOOP: r = dst; break;
    case PX_LOP_XOR: r = src ^ dst; break;
    case PX_LOP_OR: r = src | dst; break;
    case PX_LOP_NOR: r = ~(src | dst); break;
    case PX_LOP_EQUIV: r = ~(src ^ dst); break;
    case PX_LOP_INVERTED: r = ~dst; break;
    case PX_LOP_OR_REVERSE: r = src | ~dst; break;
    case PX_LOP_COPY_INVERTED: r = ~src; break;
    case PX_LOP_OR_INVERTED: r = ~src | dst; break;
    case PX_LOP_NAND: r = ~(src & dst); break;
    default: r = 0xFFFFFFFFu; break; /* SET */
    }
    return (r & 0x00FFFFFFu) | (src & 0xFF000000u);
}

/* ---- The pixel --------------------------------------------------------- */

static uint16_t read_z(const uint8_t *zb) { return zb ? (uint16_t)(zb[0] | zb[1] << 8) : 0; }
static void write_z(uint8_t *zb, uint16_t z)
{
    if (!zb) return;
    zb[0] = z & 0xFF;
    zb[1] = z >> 8;
}

/* DrawSinglePixel, in its order. */
bool pixel_write(const struct gt_pixel_state *ps, int x, int y, uint16_t z, const uint8_t color[4], uint8_t fog,
                 uint8_t *fb, uint8_t *zb)
{
    unsigned fmt = ps->fb_format;

    /* Depth range: outside [MINZ, MAXZ] is discarded, also in clear mode,
     * never in through mode. */
    if (!ps->through && (z < ps->min_z || z > ps->max_z)) return false;

    uint32_t old = read_fb(fmt, fb);
    uint32_t oldx = expand(fmt, old);
    uint8_t src[4] = {color[0], color[1], color[2], color[3]};
    unsigned stencil;

    if (ps->clear) {
        /* Clear mode: no fog, color/alpha/stencil/depth tests, blending or
         * logic op. Alpha is the stencil value; depth is written when the
         * depth flag is set. */
        stencil = src[3];
        if (ps->clear_depth) write_z(zb, z);
    } else {
        /* AlphaTestPassed: (alpha & mask) FUNC (ref & mask). */
        if (ps->alpha_test &&
            !compare(ps->atest_func, src[3] & ps->atest_mask, ps->atest_ref & ps->atest_mask))
            return false;
        if (ps->fog)
            for (int i = 0; i < 3; i++) src[i] = (uint8_t)fog_mix(src[i], ps->fog_color[i], fog);
        /* ColorTestPassed: (rgb & mask) == / != (ref & mask). */
        if (ps->color_test) {
            uint32_t c = ((uint32_t)src[0] | (uint32_t)src[1] << 8 | (uint32_t)src[2] << 16) & ps->ctest_mask;
            bool pass;
            switch (ps->ctest_func) {
            case PX_NEVER: pass = false; break;
            case PX_EQUAL: pass = c == ps->ctest_ref; break;
            case PX_NOTEQUAL: pass = c != ps->ctest_ref; break;
            default: pass = true; break;
            }
            if (!pass) return false;
        }
        stencil = read_stencil(fmt, oldx);
        bool zneed = ps->depth_test && ps->ztest_func != PX_ALWAYS && ps->ztest_func != PX_NEVER;
        bool zpass = !ps->depth_test || compare(ps->ztest_func, z, zneed ? read_z(zb) : 0);
        if (ps->stencil_test) {
            /* StencilTestPassed: (ref & mask) FUNC (stencil & mask), the
             * reference on the left. 565 stencil reads 0 and is never
             * written (its ops act as KEEP). */
            unsigned m = ps->stest_mask;
            if (!compare(ps->stest_func, ps->stest_ref & m, stencil & m)) {
                if (fmt != PX_FMT_565)
                    write_stencil(ps, fb, old, stencil_op(fmt, ps->sop_sfail, stencil, ps->stest_ref));
                return false;
            }
            if (!zpass) {
                if (fmt != PX_FMT_565)
                    write_stencil(ps, fb, old, stencil_op(fmt, ps->sop_zfail, stencil, ps->stest_ref));
                return false;
            }
            if (fmt != PX_FMT_565) stencil = stencil_op(fmt, ps->sop_zpass, stencil, ps->stest_ref);
        } else if (!zpass) {
            return false;
        }
        if (ps->depth_write) write_z(zb, z);
    }

    /* Blend (not in clear mode), then dither: the signed matrix entry for
     * (x & 3, y & 3) is added to R, G and B before the clamp to 0..255 (also
     * in clear mode and without blending). Alpha is replaced by the stencil. */
    int rgb[3];
    uint8_t dst[4] = {(uint8_t)oldx, (uint8_t)(oldx >> 8), (uint8_t)(oldx >> 16), (uint8_t)(oldx >> 24)};
    bool blend = ps->blend && !ps->clear;
    int dith = ps->dither ? ps->dither_matrix[(y & 3) * 4 + (x & 3)] : 0;
    for (int i = 0; i < 3; i++) rgb[i] = (blend ? blend_channel(ps, i, src, dst) : src[i]) + dith;
    uint32_t nc = sat8(rgb[0]) | sat8(rgb[1]) << 8 | sat8(rgb[2]) << 16 | (uint32_t)(stencil & 0xFF) << 24;

    /* Logic op after blending (not in clear mode; COPY is the identity). */
    if (ps->logic_op && !ps->clear) nc = logic_op(ps->logic_func, nc, oldx);

    /* Clear mode's flags: without the color flag RGB keeps its old value,
     * without the alpha/stencil flag alpha does. */
    if (ps->clear) {
        if (!ps->clear_color) nc = (nc & 0xFF000000u) | (oldx & 0x00FFFFFFu);
        if (!ps->clear_stencil) nc = (nc & 0x00FFFFFFu) | (oldx & 0xFF000000u);
    }

    /* SetPixelColor: quantise, then the write mask keeps old bits. */
    uint32_t q = pixel_quantize(fmt, nc);
    write_fb(fmt, fb, (q & ~ps->keep_mask) | (old & ps->keep_mask));
    return true;
}
