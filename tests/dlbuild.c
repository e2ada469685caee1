/* The bundled sample, built with pipeline/dumpbuild.h (see dlbuild.h). */
#include "dlbuild.h"

#include <string.h>

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

const struct sample_sprite sample_sprites[3] = {
    {110, 100, 60, 30, 0xFFC06030u}, /* opaque, untextured */
    {212, 150, 64, 64, 0xFFFFFFFFu}, /* the pattern, 1:1 */
    {300, 40, 100, 50, 0x80FF8000u}, /* alpha 0x80, blended */
};

uint32_t sample_texel(unsigned x, unsigned y)
{
    /* A ramp in red and green, blue bands, and a white border. */
    if (x == 0 || y == 0 || x == 63 || y == 63) return 0xFFFFFFFFu;
    uint32_t r = x * 4, g = y * 4, bl = ((x / 8 + y / 8) & 1) ? 0xC0 : 0x40;
    return 0xFF000000u | bl << 16 | g << 8 | r;
}

void sample_build(struct dumpb *b)
{
    static const uint32_t init_regs[] = {
        (uint32_t)GE_FB_PTR << 24 | 0x000000, (uint32_t)GE_FB_WIDTH << 24 | 512, (uint32_t)GE_FB_FORMAT << 24 | 3,
    };
    uint8_t tex[64 * 64 * 4];
    for (unsigned y = 0; y < 64; y++)
        for (unsigned x = 0; x < 64; x++) put32(tex + 4 * (y * 64 + x), sample_texel(x, y));

    dumpb_init(b, 6);
    dumpb_init_record(b, init_regs, sizeof init_regs / sizeof init_regs[0]);
    /* Clear the visible framebuffer to dark grey. */
    dumpb_memset(b, 0x04000000, 0x20, 512 * 272 * 4);
    struct dl l;
    dl_init(&l);
    dl_cmd(&l, GE_TRX_SRC_W, 64); /* source stride; the replay fills in the address */
    dumpb_registers(b, &l);
    dumpb_add(b, DUMP_TRANSFERSRC, tex, sizeof tex, 0);
    dl_free(&l);
    dl_init(&l);
    /* Seven columns, four rows of the block, 68 pixels apart. */
    dl_cmd(&l, GE_TRX_DST, 0x000000);
    dl_cmd(&l, GE_TRX_DST_W, 0x040000 | 512);
    dl_cmd(&l, GE_TRX_SRC_POS, 0);
    dl_cmd(&l, GE_TRX_SIZE, 63 | 63 << 10);
    for (unsigned row = 0; row < 4; row++) {
        for (unsigned col = 0; col < 7; col++) {
            dl_cmd(&l, GE_TRX_DST_POS, (4 + col * 68) | (4 + row * 68) << 10);
            dl_cmd(&l, GE_TRX_KICK, 1);
        }
    }
    dumpb_registers(b, &l);
    dl_free(&l);

    /* Then three sprites in through mode (16-bit texture coordinates, 8888
     * colors, 16-bit positions: 16 bytes a vertex): an opaque flat one, the
     * pattern as a 1:1 texture, and a half-transparent one blended over the
     * pattern (see sample_sprites). */
    uint8_t vtx[6 * 16];
    memset(vtx, 0, sizeof vtx);
    for (unsigned i = 0; i < 6; i++) {
        const struct sample_sprite *sp = &sample_sprites[i / 2];
        unsigned end = i & 1;
        uint8_t *v = vtx + 16 * i;
        v[0] = (uint8_t)(end ? 64 : 0), v[2] = (uint8_t)(end ? 64 : 0); /* u, v */
        put32(v + 4, sp->rgba);
        int16_t x = (int16_t)(sp->x + (end ? sp->w : 0)), y = (int16_t)(sp->y + (end ? sp->h : 0));
        v[8] = (uint8_t)x, v[9] = (uint8_t)((uint16_t)x >> 8);
        v[10] = (uint8_t)y, v[11] = (uint8_t)((uint16_t)y >> 8);
    }
    dl_init(&l);
    dl_cmd(&l, GE_VTYPE, 1u << 23 | 2u << 7 | 7u << 2 | 2u);
    dl_cmd(&l, GE_SCISSOR1, 0);
    dl_cmd(&l, GE_SCISSOR2, 479 | 271u << 10);
    dl_cmd(&l, GE_REGION2, 479 | 271u << 10);
    dl_cmd(&l, GE_TEX_FORMAT, 3);
    dl_cmd(&l, GE_TEX_BUFW0, 64);
    dl_cmd(&l, GE_TEX_SIZE0, 6 | 6 << 8);
    dl_cmd(&l, GE_TEX_FILTER, 0);
    dl_cmd(&l, GE_TEX_FUNC, 3 | 1 << 8); /* replace, RGBA */
    dl_cmd(&l, GE_BLEND_MODE, 2 | 3 << 4); /* source alpha, 1 - source alpha, add */
    dumpb_registers(b, &l);
    dl_free(&l);
    dumpb_add(b, DUMP_TEXTURE0, tex, sizeof tex, 0);
    dumpb_add(b, DUMP_VERTICES, vtx, sizeof vtx, 0);
    dl_init(&l);
    dl_cmd(&l, GE_PRIM, 6u << 16 | 2);   /* flat */
    dl_cmd(&l, GE_TEXTURE_ON, 1);
    dl_cmd(&l, GE_PRIM, 6u << 16 | 2);   /* textured */
    dl_cmd(&l, GE_TEXTURE_ON, 0);
    dl_cmd(&l, GE_BLEND_ON, 1);
    dl_cmd(&l, GE_PRIM, 6u << 16 | 2);   /* blended */
    dl_cmd(&l, GE_BLEND_ON, 0);
    dumpb_registers(b, &l);
    dl_free(&l);
    dumpb_display(b, 0x04000000, 512, 3);
}

uint32_t sample_expected(unsigned x, unsigned y, int keep_alpha)
{
    /* The display: 480 columns; the memset left bytes 0x20 (alpha too). */
    if (x >= 480) return keep_alpha ? 0 : 0xFF000000u;
    uint32_t want = 0x20202020u;
    unsigned cx = x >= 4 ? (x - 4) % 68 : 99, cy = y >= 4 ? (y - 4) % 68 : 99;
    unsigned col = x >= 4 ? (x - 4) / 68 : 99, row = y >= 4 ? (y - 4) / 68 : 99;
    if (cx < 64 && cy < 64 && col < 7 && row < 4) want = sample_texel(cx, cy);
    /* The sprites: pixels whose centres lie inside them (PPSSPP
     * DrawRectangle); they write color only (no stencil write: the alpha
     * bits keep their value). The second is the pattern 1:1 (power-of-two
     * area: texel centres exactly, GE-HARDWARE.md §2); the third is blended
     * with source alpha a: P(s, a) + P(d, 255 - a), P the §3 product
     * ((2x + 1)(2f + 1)) >> 10. */
    for (int k = 0; k < 3; k++) {
        const struct sample_sprite *sp = &sample_sprites[k];
        if ((int)x < sp->x || (int)x >= sp->x + sp->w || (int)y < sp->y || (int)y >= sp->y + sp->h) continue;
        uint32_t rgb;
        if (k == 0) {
            rgb = sp->rgba & 0xFFFFFFu;
        } else if (k == 1) {
            rgb = sample_texel(x - (uint32_t)sp->x, y - (uint32_t)sp->y) & 0xFFFFFFu;
        } else {
            uint32_t a = sp->rgba >> 24;
            rgb = 0;
            for (int c = 0; c < 3; c++) {
                uint32_t src = sp->rgba >> (8 * c) & 0xFF, dst = want >> (8 * c) & 0xFF;
                uint32_t v = (((2 * src + 1) * (2 * a + 1)) >> 10) + (((2 * dst + 1) * (2 * (255 - a) + 1)) >> 10);
                rgb |= (v > 255 ? 255 : v) << (8 * c);
            }
        }
        want = (want & 0xFF000000u) | rgb;
    }
    return keep_alpha ? want : want | 0xFF000000u;
}
