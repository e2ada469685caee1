/* Ports of pspautotests tests/gpu/clut/address.cpp, masks.cpp, offset.cpp
 * and shifts.cpp: a 1x1 T32 texture (one 32-bit index) drawn DECAL over
 * the whole screen through a CLUT loaded from a given address with a given
 * format, index mask, index offset (CSA) or shift; the program prints the
 * first pixel's RGB, then zeroes the framebuffer through the DMA. address
 * also loads the CLUT from unaligned addresses and from the end of VRAM's
 * last mirror, with 0 to 63 blocks, and from past VRAM. */
#include "psp/ports.h"

#include <stdio.h>

#include "psp/gu.h"

#define GU_PSM_T32 7

struct cl {
    struct psp *p;
    struct gu g;
    uint32_t list, copybuf, verts, clut, image;
};

static void display(struct cl *t, const char *reason)
{
    psp_dmac_memcpy(t->p, t->copybuf, PSP_EDRAM, 512 * 272 * 4);
    psp_checkpoint(t->p, "%s: %06x", reason, psp_read32(t->p, t->copybuf) & 0x00FFFFFF);
    psp_memset(t->p, t->copybuf, 0, 512 * 272 * 4);
    psp_dmac_memcpy(t->p, PSP_EDRAM, t->copybuf, 512 * 272 * 4);
}

/* drawTexFlush with the CLUT mode (format, shift, mask, offset). */
static void draw(struct cl *t, uint32_t tex, uint32_t clut, int blocks, unsigned cfmt, unsigned shift, unsigned mask, unsigned csa)
{
    struct gu *g = &t->g;
    gu_start(g, GU_DIRECT, t->list);
    gu_enable(g, GU_TEXTURE_2D);
    gu_tex_mode(g, GU_PSM_T32, 0, 0, GU_FALSE);
    gu_tex_func(g, GU_TFX_DECAL, GU_TCC_RGB);
    gu_tex_image(g, 0, 1, 1, 16, tex);
    gu_clut_load(g, blocks, clut);
    gu_clut_mode(g, cfmt, shift, mask, csa);
    gu_draw_array(g, GU_SPRITES, GU_TEXTURE_16BIT | GU_VERTEX_16BIT | GU_TRANSFORM_2D, 2, 0, t->verts);
    gu_finish(g);
    gu_sync(g);
}

static void set_filter(struct cl *t)
{
    gu_start(&t->g, GU_DIRECT, t->list);
    gu_tex_filter(&t->g, GU_NEAREST, GU_NEAREST);
    gu_finish(&t->g);
    gu_sync(&t->g);
}

/* init(), the programs' data: clutPattern (masks/offset/shifts: entry i is
 * i * 0x01010101 for i < 256, then 256 of 0xDEADBEEF, then the 1528 words
 * a 255-block load reads past it, zero here), vertices2 (the screen). */
static void cl_init(struct cl *t, struct psp *p, int pattern)
{
    t->p = p;
    t->list = psp_alloc(p, 16, 262144 * 4);
    t->copybuf = psp_alloc(p, 16, 512 * 272 * 4);
    t->verts = psp_alloc(p, 16, 20);
    t->clut = psp_alloc(p, 16, 2048 * 4);
    t->image = psp_alloc(p, 16, 16 * 8);
    uint16_t v[10] = {0, 0, 0, 0, 0, 480, 272, 480, 272, 0};
    psp_write(p, t->verts, v, sizeof v);
    if (pattern)
        for (uint32_t i = 0; i < 512; i++) psp_write32(p, t->clut + 4 * i, i < 256 ? i * 0x01010101u : 0xDEADBEEFu);
    else
        for (uint32_t i = 0; i < 8; i++) psp_write32(p, t->clut + 4 * i, (i + 1) * 0x11111111u);
    struct gu *g = &t->g;
    gu_init(g, p);
    gu_start(g, GU_DIRECT, t->list);
    psp_plain_setup(g);
    gu_finish(g);
    gu_sync(g);
    psp_dmac_memcpy(p, PSP_EDRAM, t->copybuf, 512 * 272 * 4);
}

/* An image (16 bytes, the program's imageDataN = {bytes...}) at slot k. */
static uint32_t image(struct cl *t, unsigned k, const uint8_t *bytes, unsigned n)
{
    uint32_t a = t->image + 16 * k;
    psp_write(t->p, a, bytes, n);
    return a;
}

int psp_clut_address(struct psp *p)
{
    struct cl t = {0};
    cl_init(&t, p, 0);
    uint32_t img = t.image; /* imageData: zeros */
    char title[128];
    set_filter(&t); /* drawWithOffsets */
    static const int offsets[] = {0, 1, 2, 3, 4, 8, 9, 12, 15, 16};
    for (size_t i = 0; i < sizeof offsets / sizeof *offsets; i++) {
        snprintf(title, sizeof title, "Offset %d", offsets[i]);
        draw(&t, img, t.clut + (uint32_t)offsets[i], 1, GU_PSM_8888, 0, 0xFF, 0);
        display(&t, title);
    }
    /* drawNearEdge: the pattern's first 16 bytes copied by the CPU to the
     * last 16 bytes of VRAM's fourth mirror. */
    uint32_t vram_end = PSP_EDRAM + 0x200000u * 4, clut_start = vram_end - 16;
    uint8_t first[16];
    psp_read(p, t.clut, first, 16);
    psp_write(p, clut_start, first, 16);
    set_filter(&t);
    static const int blocks[] = {0, 1, 2, 3, 4, 8, 9, 12, 15, 16, 63};
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++) {
        snprintf(title, sizeof title, "Blocks near edge %d", blocks[i]);
        draw(&t, img, clut_start, blocks[i], GU_PSM_8888, 0, 0xFF, 0);
        display(&t, title);
    }
    draw(&t, img, vram_end + 16, 1, GU_PSM_8888, 0, 0xFF, 0);
    display(&t, "Outside VRAM");
    draw(&t, img, clut_start, 1, GU_PSM_8888, 0, 0xFF, 0);
    display(&t, "Reset");
    gu_term(&t.g);
    return 0;
}

int psp_clut_masks(struct psp *p)
{
    struct cl t = {0};
    cl_init(&t, p, 1);
    const uint8_t i255 = 255;
    uint32_t img = image(&t, 0, &i255, 1);
    char title[128];
    set_filter(&t);
    static const unsigned masks[] = {0x00, 0x01, 0x02, 0x0F, 0xF0, 0x77, 0x80, 0x55};
    for (int f = 0; f < 2; f++) {
        psp_label(p, f ? "Index shifts 4444:" : "Index shifts 8888:");
        for (size_t i = 0; i < sizeof masks / sizeof *masks; i++) {
            snprintf(title, sizeof title, "  Index mask %02x", masks[i]);
            draw(&t, img, t.clut, 0xFF, f ? GU_PSM_4444 : GU_PSM_8888, 0, masks[i], 0);
            display(&t, title);
        }
    }
    gu_term(&t.g);
    return 0;
}

int psp_clut_offset(struct psp *p)
{
    struct cl t = {0};
    cl_init(&t, p, 1);
    static const uint8_t values[5] = {0, 1, 15, 16, 255};
    uint32_t imgs[5];
    for (unsigned k = 0; k < 5; k++) imgs[k] = image(&t, k, &values[k], 1);
    char title[128];
    set_filter(&t);
    static const unsigned offsets[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 16, 17, 21, 30, 31};
    for (int f = 0; f < 2; f++) {
        psp_label(p, f ? "Index offsets 4444:" : "Index offsets 8888:");
        for (size_t i = 0; i < sizeof offsets / sizeof *offsets; i++)
            for (unsigned k = 0; k < 5; k++) {
                snprintf(title, sizeof title, "  Index offset %u (%u)", offsets[i], values[k]);
                draw(&t, imgs[k], t.clut, 0xFF, f ? GU_PSM_4444 : GU_PSM_8888, 0, 0xFF, offsets[i]);
                display(&t, title);
            }
    }
    gu_term(&t.g);
    return 0;
}

int psp_clut_shifts(struct psp *p)
{
    struct cl t = {0};
    cl_init(&t, p, 1);
    static const uint8_t ff[4] = {0xFF, 0xFF, 0xFF, 0xFF}, v1234[4] = {0x78, 0x56, 0x34, 0x12};
    uint32_t img_ff = image(&t, 0, ff, 4), img_12 = image(&t, 1, v1234, 4);
    char title[128];
    set_filter(&t);
    static const unsigned shifts[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 16, 17, 20, 21, 24, 28, 30, 31, 32, 33};
    for (int f = 0; f < 2; f++) {
        psp_label(p, f ? "Index shifts 4444:" : "Index shifts 8888:");
        for (size_t i = 0; i < sizeof shifts / sizeof *shifts; i++) {
            snprintf(title, sizeof title, "  Index shift %u (FFFFFFFF)", shifts[i]);
            draw(&t, img_ff, t.clut, 0xFF, f ? GU_PSM_4444 : GU_PSM_8888, shifts[i], 0xFF, 0);
            display(&t, title);
            snprintf(title, sizeof title, "  Index shift %u (12345678)", shifts[i]);
            draw(&t, img_12, t.clut, 0xFF, f ? GU_PSM_4444 : GU_PSM_8888, shifts[i], 0xFF, 0);
            display(&t, title);
        }
    }
    gu_term(&t.g);
    return 0;
}
