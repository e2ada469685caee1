/* Ports of pspautotests tests/gpu/filtering/linear.cpp, nearest.cpp and
 * mipmaplinear.cpp: a 2x2 8888 texture of two colours (columns, or one
 * texel against three) drawn as a 3D sprite two pixels square at the top
 * left with texture coordinates shifted by an offset, filtered linearly or
 * by nearest texel; mipmaplinear draws a one-colour level 0 and a level 1
 * of the other with NEAREST_MIPMAP_LINEAR in slope mode, the slope being
 * the case's bias. The program prints the first pixel (COLOR=%08x). */
#include "psp/ports.h"

#include <stdio.h>
#include <string.h>

#include "psp/filtshared.h"

struct flt {
    struct filt_env e;
    int filter, mip;
    uint32_t verts, tex, tex2;
    uint32_t t0, t1, t4, t5, t2_0; /* what the CPU last wrote: texdata[0], [1], [4], [5], texdata2[0] */
    int texdirty;
};

/* drawBoxCommands: {u, v, colour, x, y, z} as floats but the colour. */
static void draw_box(struct flt *t, float u0, float v0, float u1, float v1, float x1, float y1)
{
    float a[2][2] = {{u0, v0}, {u1, v1}}, b[2][3] = {{-1.0f, 1.0f, 0.0f}, {x1, y1, 0.0f}};
    for (uint32_t k = 0; k < 2; k++) {
        psp_write(t->e.p, t->verts + 24 * k, a[k], 8);
        psp_write32(t->e.p, t->verts + 24 * k + 8, 0xFFFFFFFF);
        psp_write(t->e.p, t->verts + 24 * k + 12, b[k], 12);
    }
    gu_draw_array(&t->e.g, GU_SPRITES, GU_TEXTURE_32BITF | GU_COLOR_8888 | GU_VERTEX_32BITF | GU_TRANSFORM_3D, 2, 0,
                  t->verts);
}

static void upload(struct flt *t, uint32_t c1, uint32_t c2, int xy)
{
    for (uint32_t i = 0; i < 16; i++) psp_write32(t->e.p, t->tex + 4 * i, (xy ? i != 0 : (i & 1) != 0) ? c2 : c1);
    t->t0 = c1, t->t1 = c2, t->t4 = xy ? c2 : c1, t->t5 = c2;
    gu_tex_image(&t->e.g, 0, 2, 2, 4, t->tex);
    gu_tex_flush(&t->e.g);
    gu_tex_sync(&t->e.g);
    t->texdirty = 0;
}

/* testTexLinear (xy 0) and testTexLinearXY (xy 1) of linear/nearest. */
static void test_tex(struct flt *t, const char *title, uint32_t c1, uint32_t c2, float ox, float oy, int xy)
{
    filt_start_frame(&t->e);
    gu_tex_filter(&t->e.g, t->filter, t->filter);
    if (!xy && (t->t0 != c1 || t->t1 != c2 || t->texdirty)) upload(t, c1, c2, 0);
    if (xy && (t->t0 != c1 || t->t1 != c2 || t->t4 != c2 || t->t5 != c2 || t->texdirty)) upload(t, c1, c2, 1);
    draw_box(t, 0.0f + ox, 0.0f + oy, 1.0f + ox, 1.0f + oy, -1.0f + 2 / 240.0f, 1.0f - 2 / 136.0f);
    filt_end_frame(&t->e);
    filt_display(&t->e, title);
}

static void flt_init(struct flt *t, struct psp *p, int filter)
{
    memset(t, 0, sizeof *t);
    t->filter = filter;
    t->texdirty = 1;
    filt_init_display(&t->e, p);
    t->verts = psp_alloc(p, 16, 256 * 24);
    t->tex = psp_alloc(p, 16, 64);
    t->tex2 = psp_alloc(p, 16, 64);
    for (uint32_t i = 0; i < 16; i++) psp_write32(p, t->tex + 4 * i, 0xFFFFFFFF), psp_write32(p, t->tex2 + 4 * i, 0xFFFFFFFF);
    t->t0 = t->t1 = t->t4 = t->t5 = t->t2_0 = 0xFFFFFFFF;
    filt_clear(&t->e, 0x44444444); /* init() */
    filt_display(&t->e, "Initial");
}

static int linear_or_nearest(struct psp *p, int filter)
{
    static struct flt t;
    flt_init(&t, p, filter);
    char title[256];
    psp_label(p, "Common:");
    test_tex(&t, "  Even", 0xFF0000FF, 0xFF00FF00, 0.0f, 0.0f, 0);
    test_tex(&t, "  One texel offset", 0xFF0000FF, 0xFF00FF00, 0.5f, 0.0f, 0);
    test_tex(&t, "  X and Y", 0xFF0000FF, 0xFF00FF00, 0.5f, 0.5f, 1);
    test_tex(&t, "  Half X and Y", 0xFF0000FF, 0xFF00FF00, 0.25f, 0.25f, 1);
    psp_label(p, "Offsets:");
    static const float offsets[] = {0.25f, 0.125f, 0.0625f, 0.03125f, 0.015625f, 0.0078125f, 0.00390625f, 0.001953125f};
    for (size_t i = 0; i < sizeof offsets / sizeof *offsets; i++) {
        snprintf(title, sizeof title, "  Offset %f", offsets[i]);
        test_tex(&t, title, 0xFF0000FF, 0xFF00FF00, offsets[i], 0.0f, 0);
    }
    for (int i = 0; i < 256; i++) {
        snprintf(title, sizeof title, "  Blend at %d", i);
        test_tex(&t, title, 0xFFFDFEFF, 0x00000000, (float)i / 512.0f, 0.0f, 0);
    }
    psp_label(p, "Half blends:");
    for (int i = 0; i < 256; i++) {
        uint32_t c = 0xFF000000u | (uint32_t)i << 16 | (uint32_t)i << 8 | (uint32_t)i;
        snprintf(title, sizeof title, "  %d * half", i);
        test_tex(&t, title, c, 0x00000000, 0.25f, 0.0f, 0);
    }
    psp_label(p, "Pos offsets:");
    for (int i = 0; i < 16; i++) {
        gu_start(&t.e.g, GU_DIRECT, t.e.list);
        gu_send_commandi(&t.e.g, 76, (uint32_t)((2048 - 480 / 2) << 4) + (uint32_t)i);
        gu_send_commandi(&t.e.g, 77, (uint32_t)((2048 - 272 / 2) << 4) + (uint32_t)i);
        gu_finish(&t.e.g);
        gu_sync(&t.e.g);
        snprintf(title, sizeof title, "  Pos offset %d", i);
        test_tex(&t, title, 0xFF0000FF, 0xFF00FF00, 0.0f, 0.0f, 0);
    }
    gu_term(&t.e.g);
    return 0;
}

int psp_filtering_linear(struct psp *p) { return linear_or_nearest(p, GU_LINEAR); }
int psp_filtering_nearest(struct psp *p) { return linear_or_nearest(p, GU_NEAREST); }

/* mipmaplinear's testTexLinear (testMode TEST_SLOPE). */
static void test_mip(struct flt *t, const char *title, uint32_t c1, uint32_t c2, float bias)
{
    struct gu *g = &t->e.g;
    filt_start_frame(&t->e);
    gu_tex_filter(g, GU_NEAREST_MIPMAP_LINEAR, GU_NEAREST_MIPMAP_LINEAR);
    gu_tex_mode(g, GU_PSM_8888, 1, 0, 0);
    gu_tex_level_mode(g, GU_TEXTURE_SLOPE, 0.0f);
    gu_tex_slope(g, bias);
    if (t->t0 != c1 || t->t2_0 != c2 || t->texdirty) {
        for (uint32_t i = 0; i < 16; i++) psp_write32(t->e.p, t->tex + 4 * i, c1), psp_write32(t->e.p, t->tex2 + 4 * i, c2);
        t->t0 = c1, t->t2_0 = c2;
        gu_tex_image(g, 0, 2, 2, 4, t->tex);
        gu_tex_image(g, 1, 1, 1, 4, t->tex2);
        gu_tex_flush(g);
        gu_tex_sync(g);
        t->texdirty = 0;
    }
    draw_box(t, 0.0f, 0.0f, 1.0f, 1.0f, -1.0f + (float)(2.0 / 240.0), 1.0f - (float)(2.0 / 136.0));
    filt_end_frame(&t->e);
    filt_display(&t->e, title);
}

int psp_filtering_mipmaplinear(struct psp *p)
{
    static struct flt t;
    flt_init(&t, p, GU_NEAREST_MIPMAP_LINEAR);
    char title[256];
    psp_label(p, "Common:");
    test_mip(&t, "  Even", 0xFF0000FF, 0xFF00FF00, 0.0f);
    test_mip(&t, "  One level offset", 0xFF0000FF, 0xFF00FF00, 1.0f);
    psp_label(p, "Offsets:");
    static const float offsets[] = {1.0625f, 1.001953125f, 1.0009765625f, 1.00048828125f, 1.000244140625f,
                                    1.0001220703125f, 0.5f, 0.25f, 0.125f, 0.0625f, 0.03125f, 0.015625f,
                                    0.0078125f, 0.00390625f, 0.001953125f};
    for (size_t i = 0; i < sizeof offsets / sizeof *offsets; i++) {
        snprintf(title, sizeof title, "  Offset %f", offsets[i]);
        test_mip(&t, title, 0xFF0000FF, 0xFF00FF00, offsets[i]);
    }
    for (int i = 0; i < 256; i++) {
        float f = ((float)i / 256.0f) / 2.0f;
        uint32_t uf;
        memcpy(&uf, &f, 4);
        snprintf(title, sizeof title, "  Blend at %d - %02x / %08x", i, uf >> 23, uf & 0x07ffffff);
        test_mip(&t, title, 0xFFFDFEFF, 0x00000000, (float)i / 256.0f);
    }
    psp_label(p, "Half blends:");
    for (int i = 0; i < 256; i++) {
        uint32_t c = 0xFF000000u | (uint32_t)i << 16 | (uint32_t)i << 8 | (uint32_t)i;
        snprintf(title, sizeof title, "  %d * half", i);
        test_mip(&t, title, c, 0x00000000, 0.5f);
    }
    gu_term(&t.e.g);
    return 0;
}
