/* Texel decoding: one texel of any PSP texture format (issue 5, the first
 * building block of the raster and pixel pipeline).
 *
 * GE-HARDWARE.md is silent on texel formats, so behaviour follows PPSSPP's
 * software renderer (GPU/Software/Sampler.cpp, SampleNearest and its helpers
 * GetPixelDataOffset, TransformClutIndex, LookupColor), its texture decoder
 * (GPU/Common/TextureDecoder.cpp: GetTextureBufw, GetDXT1/3/5Texel) and its
 * register getters (GPU/GPUState.h). texture.c names the source of every
 * formula next to it.
 *
 * Formats (TEX_FORMAT bits 0-3): 0 5650, 1 5551, 2 4444, 3 8888, 4 CLUT4,
 * 5 CLUT8, 6 CLUT16, 7 CLUT32, 8 DXT1, 9 DXT3, 10 DXT5. Values 11-15 are not
 * texture formats: every texel of them reads as 0 (transparent black), as in
 * PPSSPP's sampler, and no memory is read.
 *
 * Every texture byte goes through one function in texture.c (tex_fetch), so
 * the texture cache of GE-HARDWARE.md §6 can later sit in front of memory
 * without touching the decoders. Nothing here reads live GE state: the
 * rasterizer snapshots it once per draw with tex_snapshot. */
#ifndef GETILE_TEXTURE_H
#define GETILE_TEXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "ge.h"
#include "mem.h"

/* TEX_FORMAT values. */
enum gt_texfmt {
    GT_TFMT_5650 = 0, GT_TFMT_5551 = 1, GT_TFMT_4444 = 2, GT_TFMT_8888 = 3,
    GT_TFMT_CLUT4 = 4, GT_TFMT_CLUT8 = 5, GT_TFMT_CLUT16 = 6, GT_TFMT_CLUT32 = 7,
    GT_TFMT_DXT1 = 8, GT_TFMT_DXT3 = 9, GT_TFMT_DXT5 = 10,
};
/* CLUT_FORMAT bits 0-1: the format of a CLUT entry. */
enum gt_clutfmt { GT_CLUT_5650 = 0, GT_CLUT_5551 = 1, GT_CLUT_4444 = 2, GT_CLUT_8888 = 3 };

/* One mip level. addr: TEX_ADDRn bits 4-23 with TEX_BUFWn bits 16-19 as
 * address bits 24-27 (16-byte aligned). bufw: the buffer width in texels as
 * the texel layout uses it (TEX_BUFWn bits 0-10 masked to a multiple of 16
 * bytes, 0 becoming 16 bytes; see tex_bufw). w, h: 1 << TEX_SIZEn exponent. */
struct gt_tex_level { uint32_t addr, bufw, w, h; };

/* What texel fetch needs, snapshotted from the registers (so rasterizer
 * workers never read live GE state). */
struct gt_tex {
    unsigned format;           /* 0..15 (TEX_FORMAT bits 0-3); 11..15 read as 0 */
    bool swizzled;             /* TEX_MODE bit 0 (ignored by DXT formats) */
    bool clut_per_level;       /* TEX_MODE bit 8: separate CLUT per mip level
                                  (only CLUT4 uses it: level n adds 16*n entries) */
    unsigned clut_format;      /* CLUT_FORMAT bits 0-1 (enum gt_clutfmt) */
    unsigned clut_shift;       /* CLUT_FORMAT bits 2-6 */
    unsigned clut_mask;        /* CLUT_FORMAT bits 8-15 */
    unsigned clut_offset;      /* CLUT_FORMAT bits 16-20: start entry / 16 */
    unsigned max_level;        /* TEX_MODE bits 16-18 */
    struct gt_tex_level level[8];
    uint8_t clut[1024];        /* copy of the CLUT memory */
    /* A copy of texture memory read instead of memory for addresses in
     * [shadow_addr, shadow_addr + shadow_len): a draw that textures from
     * its own render target reads the texture as it was before the draw
     * (GE-HARDWARE.md §6; set by the binner, NULL otherwise). */
    const uint8_t *shadow;
    uint32_t shadow_addr, shadow_len;
};

/* Bits per texel of a format (0 for 11..15). */
unsigned tex_bits_per_texel(unsigned format);
/* The buffer width in texels that the layout uses for a TEX_BUFWn value
 * (PPSSPP GetTextureBufw): bits 0-10, rounded down to a whole number of
 * 16-byte units (not for DXT), and 0 replaced by 16 bytes' worth of texels. */
uint32_t tex_bufw(unsigned format, uint32_t bufw_reg);

void tex_snapshot(struct gt_tex *t, const struct ge_state *st);

/* Texel (x, y) of mip level `level` as RGBA8888 packed R | G<<8 | B<<16 | A<<24.
 * x, y are already wrapped/clamped into [0, w) x [0, h) by the caller (but the
 * function stays memory-safe for any inputs: addresses wrap at 32 bits and
 * every read goes through mem, where unmapped bytes read 0). level > 7 and
 * formats 11..15 give 0. The caller passes level 0 when mipmapping is off
 * (the per-level CLUT of CLUT4 depends on it). */
uint32_t tex_texel(const struct gt_tex *t, const struct gt_mem *mem, unsigned level, uint32_t x, uint32_t y);

/* The byte address of texel (x, y) for the non-DXT formats (linear or swizzled
 * layout with the level's buffer width), exposed for tests and for the cache.
 * *nibble (may be NULL) is 1 for the high nibble of a 4-bit texel (odd x),
 * else 0. For DXT formats: the address of the 4x4 block holding the texel.
 * level > 7 or formats 11..15: 0. */
uint32_t tex_texel_address(const struct gt_tex *t, unsigned level, uint32_t x, uint32_t y, unsigned *nibble);

/* A byte range [*addr, *addr + *len) that holds every texel of a level
 * (conservative: whole 8-row blocks, the wider of buffer width and width,
 * plus TEX_RANGE_SLACK bytes; len capped at 64 MiB). Used to find textures
 * that pending drawing writes. */
#define TEX_RANGE_SLACK 16u
void tex_level_range(const struct gt_tex *t, unsigned level, uint32_t *addr, uint32_t *len);

/* Expansions to RGBA8888 by bit replication (also the CLUT entry formats). */
uint32_t tex_expand_5650(uint16_t c);
uint32_t tex_expand_5551(uint16_t c);
uint32_t tex_expand_4444(uint16_t c);

#endif
