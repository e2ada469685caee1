/* Ports of pspautotests tests/gpu/texfunc/{add,blend,decal,modulate,
 * replace}.cpp with their shared.cpp: a 1x1 8888 texture of one colour
 * (re-uploaded when it changes) drawn through a texture function onto a
 * 3D sprite of vertex colour c that covers the 8x8 scissor, with or
 * without colour doubling; "alpha" cases blend FIX 0 + dst * src alpha
 * over a white pixel so the alpha shows in RGB. The program prints the
 * first pixel (COLOR=aabbggrr), read back with sceDmacMemcpy, then sets it
 * to 0x44444444. The five programs differ in the function, their case
 * lists and their rounding sweeps; each is a table here. */
#include "psp/ports.h"

#include <stdio.h>

#include "psp/gu.h"

enum alpha_mode { ALPHA_DISABLE = -1, ALPHA_NORMAL = 0, ALPHA_TO_RGB = 1, ALPHA_DISABLE_TO_RGB = 2 };

struct tf {
    struct psp *p;
    struct gu g;
    int tfx, with_env;
    uint32_t list, copybuf, verts, texdata;
    uint32_t tex0; /* texdata[0] as the CPU last wrote it */
    int texdirty;
};

/* clearDispBuffer(c): copybuf[0] = c, then the first row from copybuf. */
static void clear_disp(struct tf *t, uint32_t c)
{
    psp_write32(t->p, t->copybuf, c);
    psp_dmac_memcpy(t->p, PSP_EDRAM, t->copybuf, 512 * 4);
}

/* readDispBuffer: the first row into copybuf; its first pixel. */
static uint32_t read_disp(struct tf *t)
{
    psp_dmac_memcpy(t->p, t->copybuf, PSP_EDRAM, 512 * 4);
    return psp_read32(t->p, t->copybuf);
}

static void display_buffer(struct tf *t, const char *reason)
{
    psp_checkpoint(t->p, "%s: COLOR=%08x", reason, read_disp(t));
    clear_disp(t, 0x44444444);
}

/* One VertexColorF32 {u32 color; float x, y, z}. */
static void put_vertex(struct tf *t, uint32_t at, uint32_t c, float x, float y, float z)
{
    float f[3] = {x, y, z};
    psp_write32(t->p, at, c);
    psp_write(t->p, at + 4, f, 12);
}

static void test_tex_func(struct tf *t, const char *title, uint32_t texc, uint32_t c, uint32_t texenv, int doubling,
                          enum alpha_mode alpha)
{
    struct gu *g = &t->g;
    gu_start(g, GU_DIRECT, t->list); /* startFrame */
    if (alpha == ALPHA_TO_RGB || alpha == ALPHA_DISABLE_TO_RGB) {
        clear_disp(t, 0xFFFFFFFF);
        gu_enable(g, GU_BLEND);
        gu_blend_func(g, GU_ADD, GU_FIX, GU_SRC_ALPHA, 0, 0);
        gu_tex_func(g, t->tfx, alpha == ALPHA_DISABLE_TO_RGB ? GU_TCC_RGB : GU_TCC_RGBA);
    } else {
        gu_disable(g, GU_BLEND);
        gu_tex_func(g, t->tfx, alpha == ALPHA_DISABLE ? GU_TCC_RGB : GU_TCC_RGBA);
    }
    if (t->with_env) gu_tex_env_color(g, texenv);
    if (doubling)
        gu_enable(g, GU_FRAGMENT_2X);
    else
        gu_disable(g, GU_FRAGMENT_2X);
    if (t->tex0 != texc || t->texdirty) {
        for (uint32_t i = 0; i < 16; i++) psp_write32(t->p, t->texdata + 4 * i, texc);
        t->tex0 = texc;
        gu_tex_image(g, 0, 1, 1, 1, t->texdata);
        gu_tex_flush(g);
        gu_tex_sync(g);
        t->texdirty = 0;
    }
    /* drawBoxCommands(c) */
    put_vertex(t, t->verts, c, -1.0f, -1.0f, 0.0f);
    put_vertex(t, t->verts + 16, c, -0.5f, 1.0f, 0.0f);
    gu_draw_array(g, GU_SPRITES, GU_COLOR_8888 | GU_VERTEX_32BITF | GU_TRANSFORM_3D, 2, 0, t->verts);
    gu_finish(g); /* endFrame */
    gu_sync(g);
    display_buffer(t, title);
    gu_disable(g, GU_BLEND); /* outside any list, as the program does: no effect */
}

static void tf_init(struct tf *t, struct psp *p, int tfx, int with_env)
{
    t->p = p;
    t->tfx = tfx;
    t->with_env = with_env;
    t->texdirty = 1;
    t->list = psp_alloc(p, 16, 262144 * 4);
    t->copybuf = psp_alloc(p, 16, 512 * 272 * 4);
    t->verts = psp_alloc(p, 16, 256 * 16);
    t->texdata = psp_alloc(p, 16, 16 * 4);
    t->tex0 = 0xFFFFFFFF;
    for (uint32_t i = 0; i < 16; i++) psp_write32(p, t->texdata + 4 * i, 0xFFFFFFFF);
    struct gu *g = &t->g;
    gu_init(g, p); /* initDisplay */
    gu_start(g, GU_DIRECT, t->list);
    psp_screen_setup(g, 65535, 0, 8, 8);
    gu_front_face(g, GU_CW);
    gu_shade_model(g, GU_SMOOTH);
    gu_enable(g, GU_TEXTURE_2D);
    psp_identity_matrices(g);
    gu_tex_filter(g, GU_NEAREST, GU_NEAREST);
    gu_tex_mode(g, GU_PSM_8888, 0, 0, 0);
    gu_finish(g);
    gu_sync(g);
    clear_disp(t, 0x44444444); /* init() */
    display_buffer(t, "Initial");
}

/* A case of a program's fixed list (label: a checkpointNext title). */
struct tf_case {
    const char *label, *title;
    uint32_t texc, c, env;
    int dbl;
    enum alpha_mode alpha;
};

static void run_cases(struct tf *t, const struct tf_case *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (c[i].label)
            psp_label(t->p, c[i].label);
        else
            test_tex_func(t, c[i].title, c[i].texc, c[i].c, c[i].env, c[i].dbl, c[i].alpha);
    }
}

/* A 256-step rounding sweep: title from fmt with i, i * 127.0 / 255.0 and
 * (i * 127) % 255, as the programs print it. */
static void sweep_title(char *buf, size_t cap, const char *fmt, int i)
{
    snprintf(buf, cap, fmt, i, i * 127.0 / 255.0, (i * 127) % 255);
}

#define L(s) {s, NULL, 0, 0, 0, 0, 0}

int psp_texfunc_add(struct psp *p)
{
    struct tf t = {0};
    tf_init(&t, p, GU_TFX_ADD, 0);
    static const struct tf_case cases[] = {
        L("Common:"),
        {0, "  One + One", 0xFFFFFFFF, 0xFFFFFFFF, 0, 0, ALPHA_NORMAL},
        {0, "  One + Zero", 0xFFFFFFFF, 0x00000000, 0, 0, ALPHA_NORMAL},
        {0, "  Zero + One", 0x00000000, 0xFFFFFFFF, 0, 0, ALPHA_NORMAL},
        {0, "  Half + Half", 0x7F7F7F7F, 0x7F7F7F7F, 0, 0, ALPHA_NORMAL},
        {0, "  7F + 3F", 0x7F7F7F7F, 0x3F3F3F3F, 0, 0, ALPHA_NORMAL},
        {0, "  7F + 3F (RGB)", 0x7F7F7F7F, 0x3F3F3F3F, 0, 0, ALPHA_DISABLE},
        L("Doubling:"),
        {0, "  Half x2 + Half", 0x7F7F7F7F, 0x7F7F7F7F, 0, 1, ALPHA_NORMAL},
        {0, "  One x2 + Half", 0xFFFFFFFF, 0x7F7F7F7F, 0, 1, ALPHA_NORMAL},
        {0, "  Half x2 + One", 0x7F7F7F7F, 0xFFFFFFFF, 0, 1, ALPHA_NORMAL},
        {0, "  Quarter x2 + Half", 0x3F3F3F3F, 0x7F7F7F7F, 0, 1, ALPHA_NORMAL},
        {0, "  0F x2 + 0F", 0x0F0F0F0F, 0x0F0F0F0F, 0, 1, ALPHA_NORMAL},
        L("Alpha:"),
        {0, "  Half + Half (alpha)", 0x7F000000, 0x7F000000, 0, 0, ALPHA_TO_RGB},
        {0, "  Half x2 + Half (alpha)", 0x7F000000, 0x7F000000, 0, 1, ALPHA_TO_RGB},
        {0, "  Quarter + Half (alpha)", 0x3F000000, 0x7F000000, 0, 0, ALPHA_TO_RGB},
        {0, "  Half + Quarter (alpha)", 0x7F000000, 0x3F000000, 0, 0, ALPHA_TO_RGB},
        {0, "  RGB func only", 0xFF7F3F7F, 0x3FFF7F7F, 0, 0, ALPHA_DISABLE_TO_RGB},
        {0, "  RGB func only + double", 0xFF7F3F7F, 0x3FFF7F7F, 0, 1, ALPHA_DISABLE_TO_RGB},
        L("Alpha rounding:"),
    };
    run_cases(&t, cases, sizeof cases / sizeof *cases);
    char title[128];
    for (int i = 0; i < 256; i++) {
        sweep_title(title, sizeof title, "  0x7F * 0x%02X (%f / %d)", i);
        test_tex_func(&t, title, (uint32_t)i * 0x01010101u, 0x7F7F7F7F, 0, 0, ALPHA_TO_RGB);
    }
    gu_term(&t.g);
    return 0;
}

int psp_texfunc_blend(struct psp *p)
{
    struct tf t = {0};
    tf_init(&t, p, GU_TFX_BLEND, 1);
    static const struct tf_case cases[] = {
        L("Common:"),
        {0, "  One + One", 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0, ALPHA_NORMAL},
        {0, "  One + Zero", 0xFFFFFFFF, 0x00000000, 0xFFFFFFFF, 0, ALPHA_NORMAL},
        {0, "  Zero + One", 0x00000000, 0xFFFFFFFF, 0xFFFFFFFF, 0, ALPHA_NORMAL},
        {0, "  Half + Half", 0x7F7F7F7F, 0x7F7F7F7F, 0xFFFFFFFF, 0, ALPHA_NORMAL},
        {0, "  7F + 3F", 0x7F7F7F7F, 0x3F3F3F3F, 0xFFFFFFFF, 0, ALPHA_NORMAL},
        {0, "  7F + 3F (RGB)", 0x7F7F7F7F, 0x3F3F3F3F, 0xFFFFFFFF, 0, ALPHA_DISABLE},
        L("Env colors:"),
        {0, "  One + Zero, half env", 0xFFFFFFFF, 0x00000000, 0x7F7F7F7F, 0, ALPHA_NORMAL},
        {0, "  Zero + One, half env", 0x00000000, 0xFFFFFFFF, 0x7F7F7F7F, 0, ALPHA_NORMAL},
        L("Doubling:"),
        {0, "  Half x2 + Half", 0x7F7F7F7F, 0x7F7F7F7F, 0x5F5F5F5F, 1, ALPHA_NORMAL},
        {0, "  One x2 + Half", 0xFFFFFFFF, 0x7F7F7F7F, 0x5F5F5F5F, 1, ALPHA_NORMAL},
        {0, "  Half x2 + One", 0x7F7F7F7F, 0xFFFFFFFF, 0x5F5F5F5F, 1, ALPHA_NORMAL},
        {0, "  Quarter x2 + Half", 0x3F3F3F3F, 0x7F7F7F7F, 0x5F5F5F5F, 1, ALPHA_NORMAL},
        L("Alpha:"),
        {0, "  Half + Half (alpha)", 0x7F000000, 0x7F000000, 0x5F5F5F5F, 0, ALPHA_TO_RGB},
        {0, "  Half x2 + Half (alpha)", 0x7F000000, 0x7F000000, 0x5F5F5F5F, 1, ALPHA_TO_RGB},
        {0, "  RGB func only", 0xFF7F3F7F, 0x3FFF7F7F, 0x5F5F5F5F, 0, ALPHA_DISABLE_TO_RGB},
        {0, "  RGB func only + double", 0xFF7F3F7F, 0x3FFF7F7F, 0x5F5F5F5F, 1, ALPHA_DISABLE_TO_RGB},
    };
    run_cases(&t, cases, sizeof cases / sizeof *cases);
    char title[128];
    psp_label(p, "Prim Rounding:");
    for (int i = 0; i < 256; i++) {
        sweep_title(title, sizeof title, "  Prim: 0x5F * 0x%02X + Zero (%f / %d)", i);
        uint32_t primc = 0x5Fu << 24 | 0xFFu << 16 | (uint32_t)i << 8 | (uint32_t)i;
        test_tex_func(&t, title, 0x00808080, primc, 0x00000000, 0, ALPHA_NORMAL);
    }
    psp_label(p, "Env Rounding:");
    for (int i = 0; i < 256; i++) {
        sweep_title(title, sizeof title, "  Texenv: 0x7F * 0x%02X + Zero (%f / %d)", i);
        uint32_t texc = 0x5Fu << 24 | 0xFFu << 16 | (uint32_t)i << 8 | (uint32_t)i;
        test_tex_func(&t, title, texc, 0x00000000, 0x7F7F7F7F, 0, ALPHA_NORMAL);
    }
    psp_label(p, "Alpha Rounding:");
    for (int i = 0; i < 256; i++) {
        sweep_title(title, sizeof title, "  Alpha: 0x7F * 0x%02X + Zero (%f / %d)", i);
        test_tex_func(&t, title, (uint32_t)i * 0x01010101u, 0x7F7F7F7F, 0x00000000, 0, ALPHA_TO_RGB);
    }
    gu_term(&t.g);
    return 0;
}

/* decal and replace share their lists but for one doubling case. */
static int decal_or_replace(struct psp *p, int tfx)
{
    struct tf t = {0};
    tf_init(&t, p, tfx, 0);
    static const struct tf_case head[] = {
        L("Common:"),
        {0, "  One + One", 0xFFFFFFFF, 0xFFFFFFFF, 0, 0, ALPHA_NORMAL},
        {0, "  One + Zero", 0xFFFFFFFF, 0x00000000, 0, 0, ALPHA_NORMAL},
        {0, "  Zero + One", 0x00000000, 0xFFFFFFFF, 0, 0, ALPHA_NORMAL},
        {0, "  Half + Half", 0x7F7F7F7F, 0x7F7F7F7F, 0, 0, ALPHA_NORMAL},
        {0, "  7F + 3F", 0x7F7F7F7F, 0x3F3F3F3F, 0, 0, ALPHA_NORMAL},
        {0, "  7F + 3F (RGB)", 0x7F7F7F7F, 0x3F3F3F3F, 0, 0, ALPHA_DISABLE},
        L("Doubling:"),
        {0, "  Half x2 + Half", 0x7F7F7F7F, 0x7F7F7F7F, 0, 1, ALPHA_NORMAL},
        {0, "  One x2 + Half", 0xFFFFFFFF, 0x7F7F7F7F, 0, 1, ALPHA_NORMAL},
        {0, "  Half x2 + One", 0x7F7F7F7F, 0xFFFFFFFF, 0, 1, ALPHA_NORMAL},
        {0, "  Quarter x2 + Half", 0x3F3F3F3F, 0x7F7F7F7F, 0, 1, ALPHA_NORMAL},
    };
    static const struct tf_case decal_extra[] = {
        {0, "  Quarter x2 + Half (no alpha)", 0x3F3F3F3F, 0x7F7F7F7F, 0, 1, ALPHA_DISABLE},
    };
    static const struct tf_case tail[] = {
        L("Alpha:"),
        {0, "  Half + Half (alpha)", 0x7F000000, 0x7F000000, 0, 0, ALPHA_TO_RGB},
        {0, "  Half x2 + Half (alpha)", 0x7F000000, 0x7F000000, 0, 1, ALPHA_TO_RGB},
        {0, "  RGB func only", 0xFF7F3F7F, 0x3FFF7F7F, 0, 0, ALPHA_DISABLE_TO_RGB},
        {0, "  RGB func only + double", 0xFF7F3F7F, 0x3FFF7F7F, 0, 1, ALPHA_DISABLE_TO_RGB},
        L("Rounding:"),
    };
    run_cases(&t, head, sizeof head / sizeof *head);
    if (tfx == GU_TFX_DECAL) run_cases(&t, decal_extra, 1);
    run_cases(&t, tail, sizeof tail / sizeof *tail);
    char title[128];
    for (int i = 0; i < 256; i++) {
        sweep_title(title, sizeof title, "  0x7F * 0x%02X + Zero (%f / %d)", i);
        uint32_t texc = 0x7Fu << 24 | 0xFFu << 16 | (uint32_t)i << 8 | (uint32_t)i;
        test_tex_func(&t, title, texc, 0x00000000, 0, 0, ALPHA_NORMAL);
    }
    gu_term(&t.g);
    return 0;
}

int psp_texfunc_decal(struct psp *p) { return decal_or_replace(p, GU_TFX_DECAL); }
int psp_texfunc_replace(struct psp *p) { return decal_or_replace(p, GU_TFX_REPLACE); }

int psp_texfunc_modulate(struct psp *p)
{
    struct tf t = {0};
    tf_init(&t, p, GU_TFX_MODULATE, 0);
    static const struct tf_case cases[] = {
        L("Common:"),
        {0, "  One * One", 0xFFFFFFFF, 0xFFFFFFFF, 0, 0, ALPHA_NORMAL},
        {0, "  One * Zero", 0xFFFFFFFF, 0x00000000, 0, 0, ALPHA_NORMAL},
        {0, "  Zero * One", 0x00000000, 0xFFFFFFFF, 0, 0, ALPHA_NORMAL},
        {0, "  Half * Half", 0x7F7F7F7F, 0x7F7F7F7F, 0, 0, ALPHA_NORMAL},
        {0, "  7F + 3F", 0x7F7F7F7F, 0x3F3F3F3F, 0, 0, ALPHA_NORMAL},
        {0, "  7F + 3F (RGB)", 0x7F7F7F7F, 0x3F3F3F3F, 0, 0, ALPHA_DISABLE},
        L("Doubling:"),
        {0, "  Half x2 * Half", 0x7F7F7F7F, 0x7F7F7F7F, 0, 1, ALPHA_NORMAL},
        {0, "  One x2 * Half", 0xFFFFFFFF, 0x7F7F7F7F, 0, 1, ALPHA_NORMAL},
        {0, "  Half x2 * One", 0x7F7F7F7F, 0xFFFFFFFF, 0, 1, ALPHA_NORMAL},
        {0, "  Quarter x2 * Half", 0x3F3F3F3F, 0x7F7F7F7F, 0, 1, ALPHA_NORMAL},
        L("Alpha:"),
        {0, "  Half * Half (alpha)", 0x7F000000, 0x7F000000, 0, 0, ALPHA_TO_RGB},
        {0, "  Half x2 * Half (alpha)", 0x7F000000, 0x7F000000, 0, 1, ALPHA_TO_RGB},
        {0, "  RGB func only", 0x7F7F7F7F, 0x7F7F7F7F, 0, 0, ALPHA_DISABLE_TO_RGB},
        {0, "  RGB func only + double", 0x7F7F7F7F, 0x7F7F7F7F, 0, 1, ALPHA_DISABLE_TO_RGB},
        L("Rounding:"),
    };
    run_cases(&t, cases, sizeof cases / sizeof *cases);
    char title[128];
    for (int i = 0; i < 256; i++) {
        sweep_title(title, sizeof title, "  0x7F * 0x%02X (%f / %d)", i);
        uint32_t texc = (uint32_t)i << 24 | 0xFFu << 16 | (uint32_t)i << 8 | (uint32_t)i;
        test_tex_func(&t, title, texc, 0x7F7F7F7F, 0, 0, ALPHA_NORMAL);
    }
    gu_term(&t.g);
    return 0;
}
