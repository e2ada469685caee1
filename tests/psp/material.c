/* Ports of pspautotests tests/gpu/commands/basic.c and material.c, both
 * checked by their screenshot only. basic: one CLUT-textured sprite
 * (T8, a white CLUT entry) from (10, 10) to (470, 262) over a cleared
 * screen. material: a 4x4 CLUT-textured background, then boxes 40x20 in a
 * grid (47 and 26 apart), DECAL-textured with and without vertex colours,
 * under changes of the material update mask, material ambient and alpha,
 * ambient light colour and alpha, and lighting; each box is its own list
 * (finished, waited for, a new one started). The whole draw runs 120
 * times, as the program does, before the screenshot. */
#include "psp/ports.h"

#include "psp/gu.h"

/* init() of both programs: the 8888 buffer at 0, the display, scissor. */
static void mat_init(struct gu *g, struct psp *p, uint32_t list)
{
    gu_init(g, p);
    gu_start(g, GU_DIRECT, list);
    psp_plain_setup(g);
    gu_finish(g);
    gu_sync(g);
}

/* A {u16 u, v; u16 x, y, z} vertex (10 bytes). */
static void put_tv(struct psp *p, uint32_t at, unsigned u, unsigned v, unsigned x, unsigned y)
{
    uint16_t w[5] = {(uint16_t)u, (uint16_t)v, (uint16_t)x, (uint16_t)y, 0};
    psp_write(p, at, w, sizeof w);
}

int psp_commands_basic(struct psp *p)
{
    struct gu g;
    uint32_t list = psp_alloc(p, 16, 262144 * 4);
    uint32_t clut = psp_alloc(p, 16, 8), image = psp_alloc(p, 16, 16), verts = psp_alloc(p, 16, 20);
    psp_write32(p, clut, 0xFFFFFFFF);
    psp_write32(p, clut + 4, 0x00000000);
    put_tv(p, verts, 0, 0, 10, 10);
    put_tv(p, verts + 10, 1, 1, 470, 262);
    mat_init(&g, p, list);
    gu_start(&g, GU_DIRECT, list); /* draw() */
    gu_clear(&g, GU_COLOR_BUFFER_BIT);
    gu_enable(&g, GU_TEXTURE_2D);
    gu_tex_mode(&g, GU_PSM_T8, 0, 0, GU_FALSE);
    gu_tex_func(&g, GU_TFX_DECAL, GU_TCC_RGB);
    gu_tex_image(&g, 0, 1, 1, 16, image);
    gu_clut_load(&g, 1, clut);
    gu_draw_array(&g, GU_SPRITES, GU_TEXTURE_16BIT | GU_VERTEX_16BIT | GU_TRANSFORM_2D, 2, 0, verts);
    gu_finish(&g);
    gu_sync(&g);
    psp_screenshot(p, PSP_EDRAM, 512, GU_PSM_8888);
    gu_term(&g);
    return 0;
}

enum { RGBA = 0x00, RGB = 0x01, RGBA_TRANSPARENT = 0x10, RGB_TRANSPARENT = 0x11 };
enum { MAT_UPDATE = 0x53, MAT_AMBIENT = 0x55, MAT_ALPHA = 0x58, AMB_COLOR = 0x5C, AMB_ALPHA = 0x5D, LIGHTING = 0x17 };

struct mat {
    struct psp *p;
    struct gu g;
    uint32_t list, clut, bg_data, image, bg, verts, cverts, tverts;
    int x, y;
};

static void next_pos(struct mat *m, uint32_t at, unsigned stride, unsigned pos_off)
{
    uint16_t a[2] = {(uint16_t)m->x, (uint16_t)m->y}, b[2] = {(uint16_t)(m->x + 40), (uint16_t)(m->y + 20)};
    psp_write(m->p, at + pos_off, a, 4);
    psp_write(m->p, at + stride + pos_off, b, 4);
    m->x += 47;
    if (m->x >= 470) {
        m->x = 10;
        m->y += 26;
    }
}

/* The end of nextBox / nextBoxHasColor: the list finished, waited for and
 * a new one started. */
static void box_end(struct mat *m)
{
    gu_finish(&m->g);
    gu_sync(&m->g);
    gu_start(&m->g, GU_DIRECT, m->list);
}

static void box_texture(struct mat *m, int tcc)
{
    gu_enable(&m->g, GU_TEXTURE_2D);
    gu_tex_mode(&m->g, GU_PSM_T8, 0, 0, GU_FALSE);
    gu_tex_func(&m->g, GU_TFX_DECAL, tcc);
    gu_tex_image(&m->g, 0, 4, 4, 16, m->image);
}

static void next_box(struct mat *m)
{
    next_pos(m, m->verts, 10, 4);
    box_texture(m, GU_TCC_RGBA);
    gu_draw_array(&m->g, GU_SPRITES, GU_TEXTURE_16BIT | GU_VERTEX_16BIT | GU_TRANSFORM_2D, 2, 0, m->verts);
    box_end(m);
}

static void next_box_color(struct mat *m, int mode)
{
    uint32_t v = mode & RGBA_TRANSPARENT ? m->tverts : m->cverts;
    next_pos(m, v, 16, 8);
    box_texture(m, mode & RGB ? GU_TCC_RGB : GU_TCC_RGBA);
    gu_draw_array(&m->g, GU_SPRITES, GU_COLOR_8888 | GU_TEXTURE_16BIT | GU_VERTEX_16BIT | GU_TRANSFORM_2D, 2, 0, v);
    box_end(m);
}

/* A {u16 u, v; u32 color; u16 x, y, z} vertex (16 bytes with padding). */
static void put_ctv(struct psp *p, uint32_t at, unsigned u, unsigned v, uint32_t c, unsigned x, unsigned y)
{
    uint16_t w[2] = {(uint16_t)u, (uint16_t)v}, q[4] = {(uint16_t)x, (uint16_t)y, 0, 0};
    psp_write(p, at, w, 4);
    psp_write32(p, at + 4, c);
    psp_write(p, at + 8, q, 8);
}

/* The three lighting settings each vertex-colour mode is drawn under. */
static void settings(struct mat *m, int k)
{
    struct gu *g = &m->g;
    if (k == 0) {
        gu_send_commandi(g, MAT_UPDATE, 0);
        gu_send_commandi(g, MAT_AMBIENT, 0);
    } else if (k == 1) {
        gu_send_commandi(g, MAT_UPDATE, GU_AMBIENT);
        gu_send_commandi(g, MAT_ALPHA, 0x00);
        gu_send_commandi(g, MAT_AMBIENT, 0xFF0000);
        gu_send_commandi(g, AMB_COLOR, 0x0000FF);
        gu_send_commandi(g, AMB_ALPHA, 0x00);
        gu_send_commandi(g, LIGHTING, 1);
    } else {
        uint32_t a = k == 2 ? 0x80 : 0x10;
        gu_send_commandi(g, MAT_UPDATE, 0xFF);
        gu_send_commandi(g, MAT_ALPHA, a);
        gu_send_commandi(g, MAT_AMBIENT, 0xFFFFFF);
        gu_send_commandi(g, AMB_COLOR, 0xFFFFFF);
        gu_send_commandi(g, AMB_ALPHA, a);
        gu_send_commandi(g, LIGHTING, 1);
    }
}

static void mat_draw(struct mat *m)
{
    struct gu *g = &m->g;
    m->x = 10, m->y = 10;
    gu_start(g, GU_DIRECT, m->list);
    gu_clear(g, GU_COLOR_BUFFER_BIT);
    gu_clut_mode(g, GU_PSM_8888, 0, 0xFF, 0);
    gu_clut_load(g, 1, m->clut);
    /* drawBG */
    gu_send_commandi(g, MAT_UPDATE, 0xFF);
    gu_send_commandi(g, MAT_AMBIENT, 0x550055);
    gu_enable(g, GU_TEXTURE_2D);
    gu_tex_mode(g, GU_PSM_T8, 0, 0, GU_FALSE);
    gu_tex_func(g, GU_TFX_DECAL, GU_TCC_RGBA);
    gu_tex_image(g, 0, 4, 4, 16, m->bg_data);
    gu_draw_array(g, GU_SPRITES, GU_TEXTURE_16BIT | GU_VERTEX_16BIT | GU_TRANSFORM_2D, 2, 0, m->bg);
    /* Reset things. */
    gu_send_commandi(g, LIGHTING, 0);
    gu_send_commandi(g, MAT_ALPHA, 0x00);
    gu_send_commandi(g, AMB_COLOR, 0x000000);
    gu_send_commandi(g, AMB_ALPHA, 0x00);
    gu_send_commandi(g, MAT_UPDATE, 0);
    gu_send_commandi(g, MAT_AMBIENT, 0);
    next_box(m);
    gu_send_commandi(g, MAT_UPDATE, 0xFF);
    gu_send_commandi(g, MAT_AMBIENT, 0xFF0000);
    next_box(m);
    gu_send_commandi(g, MAT_AMBIENT, 0x00FF00);
    next_box(m);
    gu_send_commandi(g, MAT_UPDATE, 0);
    gu_send_commandi(g, MAT_AMBIENT, 0x0000FF);
    next_box(m);
    /* RGBA: settings 0, 1, 2 (alpha 0x80); the others 0, 1, 3 (alpha 0x10). */
    static const int modes[4] = {RGBA, RGBA_TRANSPARENT, RGB, RGB_TRANSPARENT};
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 3; k++) {
            settings(m, k == 2 && i > 0 ? 3 : k);
            next_box_color(m, modes[i]);
        }
    gu_send_commandi(g, MAT_UPDATE, 0);
    gu_send_commandi(g, MAT_AMBIENT, 0);
    next_box(m);
    gu_finish(g);
    gu_sync(g);
}

int psp_commands_material(struct psp *p)
{
    struct mat m = {.p = p};
    m.list = psp_alloc(p, 16, 262144 * 4);
    m.clut = psp_alloc(p, 16, 12);
    m.bg_data = psp_alloc(p, 16, 64);
    m.image = psp_alloc(p, 16, 64);
    m.bg = psp_alloc(p, 16, 20);
    m.verts = psp_alloc(p, 16, 20);
    m.cverts = psp_alloc(p, 16, 32);
    m.tverts = psp_alloc(p, 16, 32);
    static const uint32_t clut[3] = {0xaaaaaaaa, 0xffffffff, 0x00000000};
    psp_write(p, m.clut, clut, sizeof clut);
    uint8_t bg[64] = {0}, im[64] = {0};
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) bg[16 * r + c] = 2, im[16 * r + c] = (uint8_t)((r + c) & 1);
    psp_write(p, m.bg_data, bg, sizeof bg);
    psp_write(p, m.image, im, sizeof im);
    put_tv(p, m.bg, 0, 0, 0, 0);
    put_tv(p, m.bg + 10, 4, 4, 479, 272);
    put_tv(p, m.verts, 0, 0, 10, 10);
    put_tv(p, m.verts + 10, 4, 4, 470, 262);
    put_ctv(p, m.cverts, 0, 0, 0x77333388, 10, 10);
    put_ctv(p, m.cverts + 16, 4, 4, 0x77338833, 470, 262);
    put_ctv(p, m.tverts, 0, 0, 0x00333388, 10, 10);
    put_ctv(p, m.tverts + 16, 4, 4, 0x00338833, 470, 262);
    mat_init(&m.g, p, m.list);
    for (int i = 0; i < 120; i++) mat_draw(&m);
    psp_screenshot(p, PSP_EDRAM, 512, GU_PSM_8888);
    gu_term(&m.g);
    return 0;
}
