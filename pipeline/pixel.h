/* The per-pixel pipeline: everything that happens to one fragment after
 * rasterization and texture sampling, up to the bytes stored in VRAM.
 *
 * pixel_snapshot() decodes every per-pixel register once into a
 * struct gt_pixel_state; pixel_texfunc() and pixel_write() read only that
 * snapshot and their arguments (no GE state, no globals), so the workers of
 * a tiled renderer may call them concurrently on disjoint pixels.
 *
 * Behaviour follows PPSSPP's software renderer (GPU/Software/DrawPixel.cpp
 * DrawSinglePixel and its helpers, FuncId.cpp ComputePixelFuncID,
 * Sampler.cpp GetTextureFunctionOutput, GPUState.h field getters), except
 * where GE-HARDWARE.md overrides it: the blender multiplies with the 8-bit
 * product ((2x+1)(2s+1)) >> 10 (§3, gemath_mul8). Every formula and its
 * source is documented in pixel.c next to the code.
 *
 * Colors are R, G, B, A bytes. Packed 32-bit colors in this module use the
 * framebuffer's 8888 layout: R in bits 0-7, G 8-15, B 16-23, A 24-31. */
#ifndef GETILE_PIXEL_H
#define GETILE_PIXEL_H

#include <stdbool.h>
#include <stdint.h>

#include "ge.h"

/* Framebuffer formats (FB_FORMAT & 3). */
enum { PX_FMT_565 = 0, PX_FMT_5551 = 1, PX_FMT_4444 = 2, PX_FMT_8888 = 3 };

/* Comparison functions (ge_constants.h GEComparison). Color test uses 0-3. */
enum { PX_NEVER = 0, PX_ALWAYS = 1, PX_EQUAL = 2, PX_NOTEQUAL = 3,
       PX_LESS = 4, PX_LEQUAL = 5, PX_GREATER = 6, PX_GEQUAL = 7 };

/* Stencil operations (STENCIL_OP fields; 6 and 7 act as KEEP). */
enum { PX_SOP_KEEP = 0, PX_SOP_ZERO = 1, PX_SOP_REPLACE = 2, PX_SOP_INVERT = 3,
       PX_SOP_INCR = 4, PX_SOP_DECR = 5 };

/* Blend factors (BLEND_MODE bits 0-3 for A, 4-7 for B). Codes 10..15 use
 * the fixed color (FIXA for A, FIXB for B). For A, "other color" is the
 * destination color; for B it is the source color. */
enum { PX_BF_OTHER = 0, PX_BF_INV_OTHER = 1, PX_BF_SRC_A = 2, PX_BF_INV_SRC_A = 3,
       PX_BF_DST_A = 4, PX_BF_INV_DST_A = 5, PX_BF_2SRC_A = 6, PX_BF_INV_2SRC_A = 7,
       PX_BF_2DST_A = 8, PX_BF_INV_2DST_A = 9, PX_BF_FIX = 10 };

/* Blend equations (BLEND_MODE bits 8-10; 6 and 7 disable blending). */
enum { PX_BEQ_ADD = 0, PX_BEQ_SUB = 1, PX_BEQ_RSUB = 2, PX_BEQ_MIN = 3, PX_BEQ_MAX = 4,
       PX_BEQ_ABSDIFF = 5 };

/* Texture functions (TEX_FUNC bits 0-2; 5..7 behave as ADD). */
enum { PX_TF_MODULATE = 0, PX_TF_DECAL = 1, PX_TF_BLEND = 2, PX_TF_REPLACE = 3, PX_TF_ADD = 4 };

/* Logic ops (LOGIC_OP bits 0-3), OpenGL order. */
enum { PX_LOP_CLEAR = 0, PX_LOP_AND = 1, PX_LOP_AND_REVERSE = 2, PX_LOP_COPY = 3,
       PX_LOP_AND_INVERTED = 4, PX_LOP_NOOP = 5, PX_LOP_XOR = 6, PX_LOP_OR = 7,
       PX_LOP_NOR = 8, PX_LOP_EQUIV = 9, PX_LOP_INVERTED = 10, PX_LOP_OR_REVERSE = 11,
       PX_LOP_COPY_INVERTED = 12, PX_LOP_OR_INVERTED = 13, PX_LOP_NAND = 14, PX_LOP_SET = 15 };

/* Snapshot of every per-pixel register, decoded. Fields may be edited by the
 * caller after pixel_snapshot() (for example `through`), but keep_mask is
 * derived from fb_format, the masks, clear mode and stencil_test: call
 * pixel_update_masks() after changing any of those. */
struct gt_pixel_state {
    uint8_t fb_format;        /* PX_FMT_*: FB_FORMAT & 3 */
    /* Transform vs through mode: VTYPE bit 23. In through mode the MINZ/MAXZ
     * range test and fog are skipped. The caller may override it. */
    bool through;

    /* Clear mode (CLEAR_MODE bit 0) and its flags: bit 8 color, bit 9
     * alpha/stencil, bit 10 depth. */
    bool clear, clear_color, clear_stencil, clear_depth;

    uint16_t min_z, max_z;    /* MIN_Z / MAX_Z & 0xFFFF */

    bool fog;                 /* FOG_ON and not through */
    uint8_t fog_color[3];     /* FOG_COLOR, R in bits 0-7 */

    bool color_test;          /* COLORTEST_ON */
    uint8_t ctest_func;       /* COLOR_TEST & 3 (NEVER, ALWAYS, EQUAL, NOTEQUAL) */
    uint32_t ctest_ref;       /* COLOR_REF & COLOR_TEST_MASK (RGB, R low) */
    uint32_t ctest_mask;      /* COLOR_TEST_MASK: 1 bits are compared */

    bool alpha_test;          /* ALPHATEST_ON */
    uint8_t atest_func;       /* ALPHA_TEST & 7 */
    uint8_t atest_ref;        /* ALPHA_TEST bits 8-15 */
    uint8_t atest_mask;       /* ALPHA_TEST bits 16-23 */

    bool stencil_test;        /* STENCILTEST_ON */
    uint8_t stest_func;       /* STENCIL_TEST & 7 */
    uint8_t stest_ref;        /* STENCIL_TEST bits 8-15 (unmasked: REPLACE writes it) */
    uint8_t stest_mask;       /* STENCIL_TEST bits 16-23 */
    uint8_t sop_sfail, sop_zfail, sop_zpass; /* STENCIL_OP bits 0-2, 8-10, 16-18 */

    bool depth_test;          /* ZTEST_ON */
    uint8_t ztest_func;       /* Z_TEST & 7 */
    bool depth_write;         /* ZTEST_ON and not (Z_WRITE_DISABLE & 1) */

    bool blend;               /* BLEND_ON and equation <= 5 */
    uint8_t blend_src, blend_dst, blend_eq; /* BLEND_MODE bits 0-3, 4-7, 8-10 */
    uint8_t fix_a[3], fix_b[3]; /* BLEND_FIXA/B, R in bits 0-7 */

    bool dither;              /* DITHER_ON */
    int8_t dither_matrix[16]; /* [y*4 + x]: DITHER0+y nibble x, signed 4-bit */

    bool logic_op;            /* LOGICOP_ON */
    uint8_t logic_func;       /* LOGIC_OP & 15 */

    uint32_t write_mask;      /* MASK_RGB | MASK_ALPHA << 24: 1 bits keep the old value */
    /* Derived: bits of the stored pixel (native layout for fb_format) that
     * keep their old value. RGB from MASK_RGB; alpha from MASK_ALPHA when the
     * draw writes stencil (stencil test on, or clear mode with its
     * alpha/stencil flag), else all alpha bits are kept. */
    uint32_t keep_mask;

    /* Texture function. */
    uint8_t tex_func;         /* TEX_FUNC & 7 */
    bool tex_alpha;           /* TEX_FUNC bit 8: RGBA (texture alpha used) vs RGB */
    bool color_double;        /* TEX_FUNC bit 16 */
    uint8_t tex_env[3];       /* TEX_ENV, R in bits 0-7 */
};

void pixel_snapshot(struct gt_pixel_state *ps, const struct ge_state *st);
/* Recomputes keep_mask from the other fields. */
void pixel_update_masks(struct gt_pixel_state *ps);

/* The texture function (TEX_FUNC, TEX_ENV, color doubling, RGB/RGBA mode):
 * primary color (vertex color0 RGBA) and texel (RGBA) -> color; then the
 * secondary color (color1 RGB, separate specular) is added; each channel
 * saturates at 255 once, after the addition. sec may be NULL (no secondary). */
void pixel_texfunc(const struct gt_pixel_state *ps, const uint8_t prim[4], const uint8_t texel[4],
                   const uint8_t sec[3], uint8_t out[4]);
/* The secondary color added to an untextured fragment (PPSSPP adds color1
 * whether or not texturing is on, except in clear mode), saturating. */
void pixel_add_secondary(const uint8_t prim[4], const uint8_t sec[3], uint8_t out[4]);

/* One fragment at screen pixel (x, y) with depth z, color RGBA and fog
 * factor (0..255, 255 = no fog; applied only when ps->fog). fb points at the
 * pixel's 2 or 4 bytes (little endian, ps->fb_format); zb at its 16-bit
 * depth (little endian; may be NULL when nothing reads or writes depth: a
 * NULL zb reads as 0 and is never written).
 *
 * Order: MINZ/MAXZ range test (not in through mode; also in clear mode),
 * alpha test, fog, color test, stencil test, depth test, stencil ops, depth
 * write, blend, dither, logic op, write masks, quantisation; or clear mode's
 * rules. (The tests only discard, so their relative order is not
 * observable; PPSSPP runs the alpha test before fog.)
 *
 * Returns true when the color write stage ran (the pixel's bytes were
 * stored, possibly unchanged under the masks). False: discarded; when the
 * stencil or depth test failed the stencil bits may still have been
 * updated by the SFAIL/ZFAIL op. */
bool pixel_write(const struct gt_pixel_state *ps, int x, int y, uint16_t z, const uint8_t color[4], uint8_t fog,
                 uint8_t *fb, uint8_t *zb);

/* Pieces exposed for tests and for other modules. */
/* The blender's product: ((2x + 1)(2f + 1)) >> 10 for x in 0..255 and a
 * factor f in -255..510 (the doubled factors exceed 255; their inverses go
 * below 0, giving -(x (-f))). */
int pixel_blend_mul(unsigned x, int f);
/* 8888-layout color quantised to the format's stored bits (truncation). */
uint32_t pixel_quantize(unsigned fmt, uint32_t rgba);

#endif
