/* Ports of pspautotests tests/gpu/texcolors/dxt1.cpp, dxt3.cpp and
 * dxt5.cpp: an 8x8 DXT texture (four blocks of one content) drawn REPLACE
 * (RGBA) as a 2x2 through-mode sprite with an 8x8 scissor; each case is
 * drawn twice, once unblended and once blended "FIX 0 + dst * src alpha"
 * onto a row of 0xFF, and the program prints the first pixel's RGB of each
 * ("White 0: f8fcf8 / ffffff"). Between draws the first row of VRAM is
 * reset through the DMA. The block layouts are the programs' structs:
 * DXT1 {u8 lines[4]; u16 color1, color2}, DXT3 that and u16 alphaLines[4],
 * DXT5 that and {u32 alphadata2; u16 alphadata1; u8 alpha1, alpha2}. */
#include "psp/ports.h"

#include <stdio.h>
#include <string.h>

#include "psp/gu.h"

enum dxt_kind { DXT1 = 1, DXT3 = 3, DXT5 = 5 };

struct dxt_run {
    struct psp *p;
    struct gu g;
    enum dxt_kind kind;
    uint32_t list, copybuf, verts;
};

static unsigned block_size(enum dxt_kind k) { return k == DXT1 ? 8 : 16; }

/* One block: the colour half (lines, color1, color2), then for DXT3 the
 * alpha lines, for DXT5 alphadata2, alphadata1, alpha1, alpha2. */
static void put_block(uint8_t *b, uint16_t c1, uint16_t c2, const uint8_t lines[4], const uint16_t alines[4],
                      uint32_t ad2, uint16_t ad1, uint8_t a1, uint8_t a2, enum dxt_kind k)
{
    memcpy(b, lines, 4);
    b[4] = (uint8_t)c1, b[5] = (uint8_t)(c1 >> 8), b[6] = (uint8_t)c2, b[7] = (uint8_t)(c2 >> 8);
    if (k == DXT3)
        for (int y = 0; y < 4; y++) b[8 + 2 * y] = (uint8_t)alines[y], b[9 + 2 * y] = (uint8_t)(alines[y] >> 8);
    if (k == DXT5) {
        for (int i = 0; i < 4; i++) b[8 + i] = (uint8_t)(ad2 >> (8 * i));
        b[12] = (uint8_t)ad1, b[13] = (uint8_t)(ad1 >> 8), b[14] = a1, b[15] = a2;
    }
}

/* fillTexture of the three programs: four equal blocks (DXT5: eight sets of
 * four, set `alpha` with every 3-bit alpha index `alpha`). */
static void fill(struct dxt_run *t, uint32_t img, uint16_t c1, uint16_t c2, uint8_t line, uint16_t aline, uint8_t a1,
                 uint8_t a2)
{
    uint8_t b[16 * 32] = {0};
    unsigned sets = t->kind == DXT5 ? 8 : 1, bs = block_size(t->kind);
    const uint8_t lines[4] = {line, line, line, line};
    const uint16_t alines[4] = {aline, aline, aline, aline};
    for (unsigned a = 0; a < sets; a++) {
        uint32_t a12 = a | a << 3 | a << 6 | a << 9, a32 = a12 | a12 << 12 | a12 << 24;
        for (unsigned i = 0; i < 4; i++) put_block(b + (a * 4 + i) * bs, c1, c2, lines, alines, a32, (uint16_t)a32, a1, a2, t->kind);
    }
    psp_write(t->p, img, b, sets * 4 * bs);
}

/* The "Top left pixel only" texture: index 2 at texel (0, 0) of each block. */
static void fill_top_left(struct dxt_run *t, uint32_t img)
{
    uint8_t b[16 * 32] = {0};
    unsigned sets = t->kind == DXT5 ? 8 : 1, bs = block_size(t->kind);
    const uint8_t lines[4] = {0x02, 0, 0, 0};
    const uint16_t alines[4] = {0xF, 0, 0, 0};
    for (unsigned a = 0; a < sets; a++)
        for (unsigned i = 0; i < 4; i++) put_block(b + (a * 4 + i) * bs, 0x7777, 0x1356, lines, alines, a, 0, 0xE1, 0x59, t->kind);
    psp_write(t->p, img, b, sets * 4 * bs);
}

/* getBuffer: the first row through the DMA, its first pixel's RGB. */
static uint32_t get_buffer(struct dxt_run *t)
{
    psp_dmac_memcpy(t->p, t->copybuf, PSP_EDRAM, 512 * 4);
    return psp_read32(t->p, t->copybuf) & 0x00FFFFFF;
}

/* resetBuffer(c): the first row set to bytes c through the DMA. */
static void reset_buffer(struct dxt_run *t, uint8_t c)
{
    psp_memset(t->p, t->copybuf, c, 512 * 4);
    psp_dmac_memcpy(t->p, PSP_EDRAM, t->copybuf, 512 * 4);
}

static void draw_tex_flush(struct dxt_run *t, uint32_t tex, int expose_alpha)
{
    static const int fmt[6] = {0, GU_PSM_DXT1, 0, GU_PSM_DXT3, 0, GU_PSM_DXT5};
    struct gu *g = &t->g;
    gu_start(g, GU_DIRECT, t->list);
    gu_enable(g, GU_TEXTURE_2D);
    gu_tex_sync(g);
    gu_tex_flush(g);
    gu_tex_mode(g, fmt[t->kind], 0, 0, GU_FALSE);
    gu_tex_wrap(g, GU_CLAMP, GU_CLAMP);
    gu_tex_func(g, GU_TFX_REPLACE, GU_TCC_RGBA);
    gu_tex_slope(g, 2.0f);
    gu_tex_image(g, 0, 8, 8, 8, tex);
    if (expose_alpha) {
        gu_enable(g, GU_BLEND);
        gu_blend_func(g, GU_ADD, GU_FIX, GU_SRC_ALPHA, 0, 0xFFFFFF);
    } else {
        gu_disable(g, GU_BLEND);
    }
    gu_draw_array(g, GU_SPRITES, GU_TEXTURE_16BIT | GU_VERTEX_16BIT | GU_TRANSFORM_2D, 2, 0, t->verts);
    gu_finish(g);
    gu_sync(g);
}

/* testDrawingBox: the colour, then the alpha exposed by the blend. */
static void drawing_box(struct dxt_run *t, const char *title, uint32_t img)
{
    unsigned sets = t->kind == DXT5 ? 8 : 1;
    for (unsigned a = 0; a < sets; a++) {
        uint32_t tex = img + a * 4 * block_size(t->kind);
        draw_tex_flush(t, tex, 0);
        uint32_t color = get_buffer(t);
        reset_buffer(t, 0xFF);
        draw_tex_flush(t, tex, 1);
        uint32_t alpha = get_buffer(t);
        reset_buffer(t, 0x00);
        if (t->kind == DXT5)
            psp_checkpoint(t->p, "%s (alpha=%u): %06x / %06x", title, a, color, alpha);
        else
            psp_checkpoint(t->p, "%s: %06x / %06x", title, color, alpha);
    }
}

static void dxt_init(struct dxt_run *t)
{
    struct gu *g = &t->g;
    gu_init(g, t->p);
    gu_start(g, GU_DIRECT, t->list);
    psp_screen_setup(g, 65535, 65500, 8, 8);
    gu_disable(g, GU_DITHER);
    gu_front_face(g, GU_CW);
    gu_shade_model(g, GU_SMOOTH);
    psp_identity_matrices(g);
    gu_finish(g);
    gu_sync(g);
    reset_buffer(t, 0);
}

/* One of setupTexture's cases: colours, colour line, DXT3 alpha line and
 * DXT5 endpoints. */
struct dxt_case { const char *title; uint16_t c1, c2; uint8_t line; uint16_t aline; uint8_t a1, a2; };

static int dxt(struct psp *p, enum dxt_kind kind)
{
    struct dxt_run t = {.p = p, .kind = kind};
    t.list = psp_alloc(p, 16, 262144 * 4);
    t.copybuf = psp_alloc(p, 16, 512 * 272 * 4);
    t.verts = psp_alloc(p, 16, 20);
    static const uint8_t vbytes[20] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 2, 0, 2, 0, 0, 0};
    psp_write(p, t.verts, vbytes, sizeof vbytes);
    dxt_init(&t);
    static const struct dxt_case common[] = {
        {"White 0", 0xFFFF, 0xFFFF, 0x00, 0x5555, 0x55, 0xFF}, {"White 1", 0xFFFF, 0xFFFF, 0x55, 0x5555, 0x55, 0xFF},
        {"White 2", 0xFFFF, 0xFFFF, 0xAA, 0x5555, 0x55, 0xFF}, {"White 3", 0xFFFF, 0xFFFF, 0xFF, 0x5555, 0x55, 0xFF},
        {"First greater 0", 0xFFE3, 0x8410, 0x00, 0x5555, 0x55, 0xFF},
        {"First greater 1", 0xFFE3, 0x8410, 0x55, 0x5555, 0x55, 0xFF},
        {"First greater 2", 0xFFE3, 0x8410, 0xAA, 0x5555, 0x55, 0xFF},
        {"First greater 3", 0xFFE3, 0x8410, 0xFF, 0x5555, 0x55, 0xFF},
        {"First lesser 0", 0x8410, 0xF85F, 0x00, 0x5555, 0x55, 0xFF},
        {"First lesser 1", 0x8410, 0xF85F, 0x55, 0x5555, 0x55, 0xFF},
        {"First lesser 2", 0x8410, 0xF85F, 0xAA, 0x5555, 0x55, 0xFF},
        {"First lesser 3", 0x8410, 0xF85F, 0xFF, 0x5555, 0x55, 0xFF},
        {"Color mix 2", 0x7890, 0x1234, 0xAA, 0x5555, 0x55, 0xFF}, {"Color mix 3", 0x7890, 0x1234, 0xFF, 0x5555, 0x55, 0xFF},
    };
    static const struct dxt_case dxt3_alpha[] = {
        {"Alpha 0", 0x7890, 0x1234, 0xAA, 0x0000, 0, 0}, {"Alpha F", 0x7890, 0x1234, 0xFF, 0xFFFF, 0, 0},
    };
    static const struct dxt_case dxt5_alpha[] = {
        {"Alpha greater", 0x7890, 0x1234, 0xAA, 0, 0xFF, 0x00}, {"Alpha equal", 0x7890, 0x1234, 0xAA, 0, 0x00, 0xFF},
    };
    /* Each image its own memalign, as setupTexture does. */
    unsigned sets = kind == DXT5 ? 8 : 1, bytes = sets * 4 * block_size(kind);
    for (size_t i = 0; i < sizeof common / sizeof *common; i++) {
        uint32_t img = psp_alloc(p, 16, bytes);
        const struct dxt_case *c = &common[i];
        fill(&t, img, c->c1, c->c2, c->line, c->aline, c->a1, c->a2);
        drawing_box(&t, c->title, img);
    }
    const struct dxt_case *extra = kind == DXT3 ? dxt3_alpha : kind == DXT5 ? dxt5_alpha : NULL;
    uint32_t alpha_gt = 0;
    for (unsigned i = 0; extra && i < 2; i++) {
        uint32_t img = psp_alloc(p, 16, bytes);
        if (i == 0) alpha_gt = img;
        fill(&t, img, extra[i].c1, extra[i].c2, extra[i].line, extra[i].aline, extra[i].a1, extra[i].a2);
        drawing_box(&t, extra[i].title, img);
    }
    uint32_t tl = psp_alloc(p, 16, bytes);
    fill_top_left(&t, tl);
    drawing_box(&t, "Top left pixel only", tl);
    if (kind == DXT5) /* The alpha sweep: IMG_ALPHA_GT refilled with a2 = 0..255. */
        for (unsigned a2 = 0; a2 < 0x100; a2++) {
            char title[32];
            snprintf(title, sizeof title, "Alpha %02x", a2);
            fill(&t, alpha_gt, 0x7890, 0x1234, 0xAA, 0, 0xFF, (uint8_t)a2);
            drawing_box(&t, title, alpha_gt);
        }
    gu_term(&t.g);
    return 0;
}

int psp_texcolors_dxt1(struct psp *p) { return dxt(p, DXT1); }
int psp_texcolors_dxt3(struct psp *p) { return dxt(p, DXT3); }
int psp_texcolors_dxt5(struct psp *p) { return dxt(p, DXT5); }
