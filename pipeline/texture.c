/* Texel decoding for every PSP texture format (see texture.h).
 *
 * Sources, PPSSPP being read for behaviour only:
 *  - register fields: GPU/GPUState.h getters (getTextureAddress,
 *    getTextureWidth/Height, getTextureFormat, getClutIndexShift/Mask/
 *    StartPos, getClutPaletteFormat, isTextureSwizzled,
 *    isClutSharedForMipmaps, getTextureMaxLevel);
 *  - buffer width: GPU/Common/TextureDecoder.cpp GetTextureBufw with its
 *    textureAlignMask16 and textureBitsPerPixel tables;
 *  - texel addresses: GPU/Software/Sampler.cpp GetPixelDataOffset (linear and
 *    swizzled) and SampleNearest (CLUT4 nibble order, DXT block addressing);
 *  - CLUT: GPU/Software/Sampler.cpp TransformClutIndex and LookupColor,
 *    GPU/Software/FuncId.cpp ComputeSamplerID (useSharedClut);
 *  - 16-bit expansions: PPSSPP's ColorConv RGB565ToRGBA8888,
 *    RGBA5551ToRGBA8888, RGBA4444ToRGBA8888 (Convert5To8/6To8/4To8);
 *  - DXT: GPU/Common/TextureDecoder.cpp GetDXTTexelColor, GetDXT1Texel,
 *    GetDXT3Texel, GetDXT5Texel, lerp8, lerp6, mix_2_3, and the block
 *    structs DXT1Block/DXT3Block/DXT5Block of TextureDecoder.h. */
#include "texture.h"

#include <string.h>

/* ---- Memory: the single entry point for texture bytes ------------------ */

/* Reads len bytes of texture data at addr. Every texel and DXT block read
 * goes through here, so a texture cache (GE-HARDWARE.md §6) can be put in
 * front of memory in this one place. Unmapped bytes read 0. */
static void tex_fetch(const struct gt_tex *t, const struct gt_mem *mem, uint32_t addr, uint8_t *dst, unsigned len)
{
    if (t->shadow && addr - t->shadow_addr < t->shadow_len && t->shadow_len - (addr - t->shadow_addr) >= len) {
        memcpy(dst, t->shadow + (addr - t->shadow_addr), len);
        return;
    }
    const uint8_t *p = mem_ptr(mem, addr, len);
    if (p)
        memcpy(dst, p, len);
    else
        mem_read(mem, addr, dst, len);
}

static uint32_t le16(const uint8_t *b) { return (uint32_t)b[0] | (uint32_t)b[1] << 8; }
static uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* ---- Formats ----------------------------------------------------------- */

/* Bits per texel (TextureDecoder.cpp textureBitsPerPixel): DXT1 is 4 bits
 * (8-byte blocks of 16 texels), DXT3/5 are 8 bits (16-byte blocks). */
static const uint8_t bits_per_texel[16] = {16, 16, 16, 32, 4, 8, 16, 32, 4, 8, 8, 0, 0, 0, 0, 0};

unsigned tex_bits_per_texel(unsigned format) { return format < 16 ? bits_per_texel[format] : 0; }

static bool is_dxt(unsigned format) { return format >= GT_TFMT_DXT1 && format <= GT_TFMT_DXT5; }

/* TextureDecoder.cpp GetTextureBufw: the register's bits 0-10 are used; for
 * the non-DXT formats the low bits are cleared so a row is a whole number of
 * 16-byte units (the mask is 0x7FF & ~(128 / bits - 1)); DXT keeps all 11
 * bits. A width that ends up 0 becomes 16 bytes' worth of texels (128 / bits:
 * 8 for 16-bit, 4 for 32-bit, 32 for CLUT4, 16 for CLUT8, 32 for DXT1,
 * 16 for DXT3/5). Formats 11..15 give 0. */
uint32_t tex_bufw(unsigned format, uint32_t bufw_reg)
{
    unsigned bits = tex_bits_per_texel(format);
    if (bits == 0) return 0;
    uint32_t mask = is_dxt(format) ? 0x7FFu : 0x7FFu & ~(128u / bits - 1);
    uint32_t bufw = bufw_reg & mask;
    if (bufw == 0) bufw = 128u / bits;
    return bufw;
}

/* ---- Color expansion --------------------------------------------------- */

/* ColorConv Convert5To8 / Convert6To8 / Convert4To8: the top bits of the
 * value are repeated into the missing low bits. */
static uint32_t x5(uint32_t c) { return (c << 3) | (c >> 2); }
static uint32_t x6(uint32_t c) { return (c << 2) | (c >> 4); }
static uint32_t x4(uint32_t c) { return c * 17; }

static uint32_t rgba(uint32_t r, uint32_t g, uint32_t b, uint32_t a) { return r | g << 8 | b << 16 | a << 24; }

/* RGB565ToRGBA8888: R bits 0-4, G bits 5-10, B bits 11-15, alpha 255. */
uint32_t tex_expand_5650(uint16_t c) { return rgba(x5(c & 31), x6(c >> 5 & 63), x5(c >> 11 & 31), 255); }
/* RGBA5551ToRGBA8888: R 0-4, G 5-9, B 10-14; bit 15 gives alpha 0 or 255. */
uint32_t tex_expand_5551(uint16_t c)
{
    return rgba(x5(c & 31), x5(c >> 5 & 31), x5(c >> 10 & 31), (c >> 15) ? 255 : 0);
}
/* RGBA4444ToRGBA8888: R 0-3, G 4-7, B 8-11, A 12-15, each times 17. */
uint32_t tex_expand_4444(uint16_t c) { return rgba(x4(c & 15), x4(c >> 4 & 15), x4(c >> 8 & 15), x4(c >> 12 & 15)); }

/* ---- Snapshot ---------------------------------------------------------- */

void tex_snapshot(struct gt_tex *t, const struct ge_state *st)
{
    memset(t, 0, sizeof *t);
    /* GPUState.h getTextureFormat: TEX_FORMAT bits 0-3. */
    t->format = ge_reg(st, GE_TEX_FORMAT) & 0xF;
    uint32_t mode = ge_reg(st, GE_TEX_MODE);
    t->swizzled = (mode & 1) != 0;                 /* isTextureSwizzled */
    t->clut_per_level = (mode & 0x100) != 0;       /* !isClutSharedForMipmaps */
    t->max_level = (mode >> 16) & 7;               /* getTextureMaxLevel */
    uint32_t cf = ge_reg(st, GE_CLUT_FORMAT);
    t->clut_format = cf & 3;                       /* getClutPaletteFormat */
    t->clut_shift = (cf >> 2) & 0x1F;              /* getClutIndexShift */
    t->clut_mask = (cf >> 8) & 0xFF;               /* getClutIndexMask */
    t->clut_offset = (cf >> 16) & 0x1F;            /* getClutIndexStartPos / 16 */
    for (unsigned i = 0; i < 8; i++) {
        uint32_t a = ge_reg(st, GE_TEX_ADDR0 + i);
        uint32_t bw = ge_reg(st, GE_TEX_BUFW0 + i);
        uint32_t sz = ge_reg(st, GE_TEX_SIZE0 + i);
        /* getTextureAddress: TEX_ADDR bits 4-23, TEX_BUFW bits 16-19 as
         * address bits 24-27. */
        t->level[i].addr = (a & 0xFFFFF0u) | ((bw << 8) & 0x0F000000u);
        t->level[i].bufw = tex_bufw(t->format, bw);
        /* getTextureWidth/Height: 1 << 4-bit exponent (exponents above 9 are
         * kept as given; tex_texel stays memory-safe for any size). */
        t->level[i].w = 1u << (sz & 0xF);
        t->level[i].h = 1u << ((sz >> 8) & 0xF);
    }
    memcpy(t->clut, st->clut, sizeof t->clut);
}

/* ---- Addresses --------------------------------------------------------- */

/* Sampler.cpp GetPixelDataOffset, restated in bytes. Linear: row y starts
 * y * (bufw * bits / 8) bytes in, texel x is x * bits / 8 bytes into it.
 * Swizzled: the texture is cut into blocks 16 bytes wide and 8 rows tall,
 * each stored as 128 contiguous bytes (its 8 rows of 16 bytes one after
 * another); blocks follow each other left to right, then the next band of 8
 * rows. A band is (bufw * bits / 32) 4-byte columns * 8 rows * 4 bytes long
 * (PPSSPP counts it in 32-bit tiles, truncating). Unsigned arithmetic wraps,
 * so any input gives some address; memory reads are checked there. */
static uint32_t texel_offset(unsigned bits, bool swizzled, uint32_t bufw, uint32_t x, uint32_t y)
{
    uint32_t bx = (x * bits) >> 3; /* byte column of the texel within its row */
    if (!swizzled) return y * ((bufw * bits) >> 3) + bx;
    uint32_t band = ((bufw * bits) >> 5) * 32u;
    return (y >> 3) * band + (bx >> 4) * 128u + (y & 7) * 16u + (bx & 15);
}

/* DXT blocks (Sampler.cpp SampleNearest, DXT cases): 4x4 texel blocks in
 * rows of bufw / 4 blocks (bufw rounded down to a multiple of 4, so a bufw
 * of 1-3 makes every block row the same), never swizzled. */
static uint32_t dxt_block_offset(unsigned format, uint32_t bufw, uint32_t x, uint32_t y)
{
    uint32_t block_bytes = format == GT_TFMT_DXT1 ? 8u : 16u;
    return ((y >> 2) * (bufw >> 2) + (x >> 2)) * block_bytes;
}

uint32_t tex_texel_address(const struct gt_tex *t, unsigned level, uint32_t x, uint32_t y, unsigned *nibble)
{
    if (nibble) *nibble = 0;
    unsigned bits = tex_bits_per_texel(t->format);
    if (level > 7 || bits == 0) return 0;
    const struct gt_tex_level *l = &t->level[level];
    if (is_dxt(t->format)) return l->addr + dxt_block_offset(t->format, l->bufw, x, y);
    if (bits == 4 && nibble) *nibble = x & 1;
    return l->addr + texel_offset(bits, t->swizzled, l->bufw, x, y);
}

/* ---- CLUT -------------------------------------------------------------- */

/* Sampler.cpp TransformClutIndex and LookupColor. The index is
 * ((value >> shift) & mask) | (offset * 16), the offset limited to 0xFF for
 * 32-bit CLUT entries and 0x1FF for 16-bit ones, so the index always stays
 * inside the 1024-byte CLUT (256 or 512 entries). The same formula applies to
 * CLUT4, CLUT8, CLUT16 and CLUT32 textures (the shift can pick any bits of a
 * 16- or 32-bit texel; a 4-bit texel with the default mask 0xFF reads entries
 * 0-15). With a separate CLUT per mip level (only CLUT4: FuncId.cpp
 * useSharedClut), level n adds 16 * n entries after the transform. PPSSPP can
 * then index past 1024 bytes into its larger buffer; here the entry number
 * wraps around the CLUT (model choice, not measured). */
static uint32_t clut_lookup(const struct gt_tex *t, uint32_t value, unsigned level)
{
    unsigned cf = t->clut_format & 3;
    bool c32 = cf == GT_CLUT_8888;
    uint32_t offset = (t->clut_offset << 4) & (c32 ? 0xFFu : 0x1FFu);
    uint32_t index = ((value >> (t->clut_shift & 31)) & t->clut_mask) | offset;
    if (t->format == GT_TFMT_CLUT4 && t->clut_per_level) index += 16u * level;
    if (c32) return le32(&t->clut[(index & 0xFF) * 4]);
    uint16_t e = (uint16_t)le16(&t->clut[(index & 0x1FF) * 2]);
    switch (cf) {
    case GT_CLUT_5650: return tex_expand_5650(e);
    case GT_CLUT_5551: return tex_expand_5551(e);
    default: return tex_expand_4444(e);
    }
}

/* ---- DXT --------------------------------------------------------------- */

/* TextureDecoder.cpp GetDXTTexelColor, with the PSP block layout of
 * DXT1Block: bytes 0-3 hold the 2-bit color indices, one byte per row, the
 * leftmost texel in the low bits; bytes 4-5 color 0, bytes 6-7 color 1, both
 * 565 with red in the top bits (the reverse of the PC order, which puts the
 * colors first). The endpoints are NOT bit-replicated: each 5/6-bit channel is
 * just shifted up (c << 3, c << 2). When color 0 > color 1 (as 16-bit
 * numbers), index 2 is (2*c0 + c1) / 3 and index 3 is (c0 + 2*c1) / 3 per
 * 8-bit channel, truncating (mix_2_3). Otherwise index 2 is (c0 + c1) / 2,
 * truncating, and index 3 is 0 in every channel including alpha (transparent
 * black). `alpha` is the alpha of the other entries: 255 for DXT1, 0 for
 * DXT3/5 (whose alpha is ORed in afterwards). */
static uint32_t dxt_color(const uint8_t *b, uint32_t x, uint32_t y, uint32_t alpha)
{
    uint32_t c0 = le16(b + 4), c1 = le16(b + 6);
    uint32_t r0 = (c0 >> 8) & 0xF8, g0 = (c0 >> 3) & 0xFC, b0 = (c0 << 3) & 0xF8;
    uint32_t r1 = (c1 >> 8) & 0xF8, g1 = (c1 >> 3) & 0xFC, b1 = (c1 << 3) & 0xF8;
    unsigned idx = (b[y & 3] >> ((x & 3) * 2)) & 3;
    switch (idx) {
    case 0: return rgba(r0, g0, b0, alpha);
    case 1: return rgba(r1, g1, b1, alpha);
    default: break;
    }
    if (c0 > c1) {
        if (idx == 2) return rgba((2 * r0 + r1) / 3, (2 * g0 + g1) / 3, (2 * b0 + b1) / 3, alpha);
        return rgba((2 * r1 + r0) / 3, (2 * g1 + g0) / 3, (2 * b1 + b0) / 3, alpha);
    }
    if (idx == 3) return 0;
    return rgba((r0 + r1) / 2, (g0 + g1) / 2, (b0 + b1) / 2, alpha);
}

/* GetDXT3Texel: bytes 8-15 hold four 16-bit little-endian rows of 4-bit
 * alphas, leftmost texel in the low bits. The alpha becomes a << 4 (NOT
 * replicated: 15 gives 0xF0). */
static uint32_t dxt3_alpha(const uint8_t *b, uint32_t x, uint32_t y)
{
    uint32_t row = le16(b + 8 + 2 * (y & 3));
    return ((row >> ((x & 3) * 4)) & 0xF) << 4;
}

/* GetDXT5Texel with lerp8/lerp6 (DXT5Block: bytes 8-11 the low 32 bits and
 * bytes 12-13 the high 16 bits of 48 bits of 3-bit alpha indices, texel
 * (x, y) at bit 12*y + 3*x; byte 14 alpha 0, byte 15 alpha 1). Index 0 and 1
 * are the endpoints. When a0 > a1, index i = 2..7 with n = i - 1 is
 *   (a0 * ((7 - n) << 8) / 7 + a1 * (n << 8) / 7 + 31) >> 8,
 * each division truncating on its own. Otherwise i = 2..5 with n = i - 1 is
 *   (a0 * ((5 - n) << 8) / 5 + a1 * (n << 8) / 5 + 31) >> 8,
 * index 6 is 0 and index 7 is 255. */
static uint32_t dxt5_alpha(const uint8_t *b, uint32_t x, uint32_t y)
{
    uint64_t bits = (uint64_t)le16(b + 12) << 32 | le32(b + 8);
    unsigned i = (unsigned)(bits >> ((y & 3) * 12 + (x & 3) * 3)) & 7;
    uint32_t a0 = b[14], a1 = b[15];
    if (i == 0) return a0;
    if (i == 1) return a1;
    uint32_t n = i - 1;
    if (a0 > a1) return ((a0 * ((7 - n) << 8)) / 7 + (a1 * (n << 8)) / 7 + 31) >> 8;
    if (i == 6) return 0;
    if (i == 7) return 255;
    return ((a0 * ((5 - n) << 8)) / 5 + (a1 * (n << 8)) / 5 + 31) >> 8;
}

/* ---- Texel ------------------------------------------------------------- */

uint32_t tex_texel(const struct gt_tex *t, const struct gt_mem *mem, unsigned level, uint32_t x, uint32_t y)
{
    unsigned bits = tex_bits_per_texel(t->format);
    if (level > 7 || bits == 0) return 0;
    unsigned nibble;
    uint32_t addr = tex_texel_address(t, level, x, y, &nibble);
    uint8_t b[16];

    switch (t->format) {
    case GT_TFMT_DXT1:
        tex_fetch(t, mem, addr, b, 8);
        return dxt_color(b, x, y, 255);
    case GT_TFMT_DXT3:
        tex_fetch(t, mem, addr, b, 16);
        return dxt_color(b, x, y, 0) | dxt3_alpha(b, x, y) << 24;
    case GT_TFMT_DXT5:
        tex_fetch(t, mem, addr, b, 16);
        return dxt_color(b, x, y, 0) | dxt5_alpha(b, x, y) << 24;
    default:
        break;
    }

    tex_fetch(t, mem, addr, b, bits >= 8 ? bits / 8 : 1);
    switch (t->format) {
    case GT_TFMT_5650: return tex_expand_5650((uint16_t)le16(b));
    case GT_TFMT_5551: return tex_expand_5551((uint16_t)le16(b));
    case GT_TFMT_4444: return tex_expand_4444((uint16_t)le16(b));
    case GT_TFMT_8888: return le32(b);
    /* Sampler.cpp SampleNearest CLUT4: even x in the low nibble, odd x in
     * the high nibble. Only CLUT4 passes its level to the CLUT lookup. */
    case GT_TFMT_CLUT4: return clut_lookup(t, nibble ? b[0] >> 4 : b[0] & 0xF, level);
    case GT_TFMT_CLUT8: return clut_lookup(t, b[0], level);
    case GT_TFMT_CLUT16: return clut_lookup(t, le16(b), level);
    default: return clut_lookup(t, le32(b), level); /* CLUT32 */
    }
}

void tex_level_range(const struct gt_tex *t, unsigned level, uint32_t *addr, uint32_t *len)
{
    const struct gt_tex_level *l = &t->level[level & 7];
    uint64_t w = l->w > l->bufw ? l->w : l->bufw;
    uint64_t h = ((uint64_t)l->h + 7) & ~(uint64_t)7;
    uint64_t bits = tex_bits_per_texel(t->format);
    /* DXT blocks hold 4x4 texels in bits * 16 / 8 bytes: the same bytes per
     * texel row group as the linear formats. */
    uint64_t n = (w * h * bits) / 8 + TEX_RANGE_SLACK;
    if (n > (64u << 20)) n = 64u << 20;
    *addr = l->addr;
    *len = (uint32_t)n;
}
