/* Ports of pspautotests tests/gpu/texcolors/rgb565.cpp, rgba4444.cpp and
 * rgba5551.cpp: an 8x8 16-bit texture of one texel value, drawn DECAL as
 * a 2x2 through-mode sprite at the top left of an 8888 framebuffer; the
 * program prints the first pixel's RGB ("White: ffffff" ...), read back
 * with sceDmacMemcpy, then zeroes VRAM. The three programs differ only in
 * the texture format and the texel values (the arrays set up in
 * setupTexture). */
#include "psp/ports.h"

#include "psp/gu.h"

/* The state of init() (shared by the three programs). */
static void texcolors_init(struct gu *g, uint32_t list)
{
    gu_start(g, GU_DIRECT, list);
    psp_screen_setup(g, 65535, 65500, 480, 272);
    gu_disable(g, GU_DITHER);
    gu_front_face(g, GU_CW);
    gu_shade_model(g, GU_SMOOTH);
    psp_identity_matrices(g);
    gu_finish(g);
    gu_sync(g);
}

/* displayBuffer(reason): the first pixel through a DMA copy, then VRAM's
 * first 512x272 words zeroed by another. */
static void display_buffer(struct psp *p, uint32_t copybuf, const char *reason)
{
    psp_dmac_memcpy(p, copybuf, PSP_EDRAM, 512 * 272 * 4);
    psp_checkpoint(p, "%s: %06x", reason, psp_read32(p, copybuf) & 0x00FFFFFF);
    psp_memset(p, copybuf, 0, 512 * 272 * 4);
    psp_dmac_memcpy(p, PSP_EDRAM, copybuf, 512 * 272 * 4);
}

static int texcolors(struct psp *p, int tpsm, const uint16_t texel[4])
{
    static const char *const names[4] = {"White", "Red", "Gray", "Brown"};
    struct gu g;
    uint32_t list = psp_alloc(p, 16, 262144 * 4);
    uint32_t copybuf = psp_alloc(p, 16, 512 * 272 * 4);
    /* verticesThrough: {u, v, x, y, z} = {0, 0, 0, 0, 0}, {2, 2, 2, 2, 0}. */
    uint32_t verts = psp_alloc(p, 16, 20);
    static const uint8_t vbytes[20] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 2, 0, 2, 0, 0, 0};
    psp_write(p, verts, vbytes, sizeof vbytes);
    gu_init(&g, p);
    texcolors_init(&g, list);
    /* init(): VRAM zeroed through the DMA. */
    psp_dmac_memcpy(p, PSP_EDRAM, copybuf, 512 * 272 * 4);
    uint32_t img[4];
    for (int i = 0; i < 4; i++) { /* setupTexture() */
        img[i] = psp_alloc(p, 16, 8 * 8 * 2);
        for (uint32_t k = 0; k < 64; k++) psp_write16(p, img[i] + 2 * k, texel[i]);
    }
    gu_start(&g, GU_DIRECT, list);
    gu_tex_filter(&g, GU_NEAREST, GU_NEAREST);
    gu_finish(&g);
    gu_sync(&g);
    for (int i = 0; i < 4; i++) { /* testDrawingBox -> drawTexFlush, displayBuffer */
        gu_start(&g, GU_DIRECT, list);
        gu_enable(&g, GU_TEXTURE_2D);
        gu_tex_sync(&g);
        gu_tex_flush(&g);
        gu_tex_mode(&g, tpsm, 0, 0, GU_FALSE);
        gu_tex_wrap(&g, GU_CLAMP, GU_CLAMP);
        gu_tex_func(&g, GU_TFX_DECAL, GU_TCC_RGB);
        gu_tex_slope(&g, 2.0f);
        gu_tex_image(&g, 0, 8, 8, 8, img[i]);
        gu_draw_array(&g, GU_SPRITES, GU_TEXTURE_16BIT | GU_VERTEX_16BIT | GU_TRANSFORM_2D, 2, 0, verts);
        gu_finish(&g);
        gu_sync(&g);
        display_buffer(p, copybuf, names[i]);
    }
    gu_term(&g);
    return 0;
}

int psp_texcolors_rgb565(struct psp *p)
{
    static const uint16_t t[4] = {0xFFFF, 0x000E, 0x8410, 0x2825};
    return texcolors(p, GU_PSM_5650, t);
}

int psp_texcolors_rgba4444(struct psp *p)
{
    static const uint16_t t[4] = {0xFFFF, 0x000F, 0x8888, 0x0525};
    return texcolors(p, GU_PSM_4444, t);
}

int psp_texcolors_rgba5551(struct psp *p)
{
    static const uint16_t t[4] = {0xFFFF, 0x000E, 0x4210, 0x9425};
    return texcolors(p, GU_PSM_5551, t);
}
