/* Ports of pspautotests tests/gpu/filtering/precision{linear,nearest}
 * {2d,3d}.cpp: the 2x2 texture (white, black / blue, green, clamped) drawn
 * magnified as a sprite of w x h pixels in each orientation, with UV and
 * position offsets, in through mode (2d) or in transform mode set up to
 * match it (3d: texture scale 0.5, a 2x-2 viewport at 2048, OFFSET moved
 * by 1/16 pixel steps). The program reads the whole framebuffer and prints
 * the top-left pixel, then the first row down the left column and the
 * first column along the top row where the colour changes, with that
 * colour (COLOR=..., left=ROW, colour, top=COLUMN, colour). */
#include "psp/ports.h"

#include <stdio.h>
#include <string.h>

#include "psp/filtshared.h"

struct prec {
    struct filt_env e;
    int three_d;
    uint32_t verts, tex;
};

static void display(struct prec *t, const char *reason)
{
    struct filt_env *e = &t->e;
    uint32_t tl = filt_read_full(e, 0, 0);
    /* red and black: uninitialised in the 2d programs when no change is
     * found (the PSP printed 0 there), tl in the 3d ones. */
    uint32_t red = t->three_d ? tl : 0, black = red;
    int redpos = -1, blackpos = -1;
    for (int y = 1; y < 272; y++) {
        uint32_t c = filt_read_full(e, 0, y);
        if (c != tl) {
            red = c, redpos = y;
            break;
        }
    }
    for (int x = 1; x < 480; x++) {
        uint32_t c = filt_read_full(e, x, 0);
        if (c != tl) {
            black = c, blackpos = x;
            break;
        }
    }
    psp_checkpoint(e->p, "%s: COLOR=%08x, left=%d, %08x, top=%d, %08x", reason, tl, redpos, red, blackpos, black);
    filt_clear(e, 0x44444444);
}

static void magnify(struct prec *t, const char *title, int w, int h, float xoff, float yoff, float subx, float suby)
{
    filt_start_frame(&t->e);
    float x0, y0, x1, y1;
    if (w >= 0 && h >= 0) x0 = subx, y0 = suby, x1 = (float)w + subx, y1 = (float)h + suby;
    else if (w >= 0) x0 = subx, y0 = (float)-h + suby, x1 = (float)w + subx, y1 = suby;
    else if (h >= 0) x0 = (float)-w + subx, y0 = suby, x1 = subx, y1 = (float)h + suby;
    else x0 = (float)-w + subx, y0 = (float)-h + suby, x1 = subx, y1 = suby;
    float a[2][2] = {{0.0f + xoff, 0.0f + yoff}, {2.0f + xoff, 2.0f + yoff}}, b[2][3] = {{x0, y0, 0.0f}, {x1, y1, 0.0f}};
    for (uint32_t k = 0; k < 2; k++) {
        psp_write(t->e.p, t->verts + 24 * k, a[k], 8);
        psp_write32(t->e.p, t->verts + 24 * k + 8, 0xFFFFFFFF);
        psp_write(t->e.p, t->verts + 24 * k + 12, b[k], 12);
    }
    gu_draw_array(&t->e.g, GU_SPRITES,
                  GU_TEXTURE_32BITF | GU_COLOR_8888 | GU_VERTEX_32BITF | (t->three_d ? GU_TRANSFORM_3D : GU_TRANSFORM_2D),
                  2, 0, t->verts);
    t->e.buf_dirty = true;
    filt_end_frame(&t->e);
    display(t, title);
}

static void set_offset(struct prec *t, unsigned ox, unsigned oy)
{
    gu_start(&t->e.g, GU_DIRECT, t->e.list);
    gu_send_commandi(&t->e.g, 76, 2048 * 16 + ox);
    gu_send_commandi(&t->e.g, 77, 2048 * 16 + oy);
    gu_finish(&t->e.g);
    gu_sync(&t->e.g);
}

static int precision(struct psp *p, int filter, int three_d)
{
    static struct prec t;
    memset(&t, 0, sizeof t);
    t.three_d = three_d;
    filt_init_display(&t.e, p);
    t.verts = psp_alloc(p, 16, 256 * 24);
    t.tex = psp_alloc(p, 16, 64);
    static const uint32_t texdata[16] = {
        0xFFFFFFFF, 0xFF000000, 0xFFFFFFFF, 0xFFFFFFFF, 0xFF0000FF, 0xFF00FF00, 0xFFFFFFFF, 0xFFFFFFFF,
        0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF,
    };
    psp_write(p, t.tex, texdata, sizeof texdata);
    struct gu *g = &t.e.g;
    t.e.read_full = true; /* init() */
    filt_clear(&t.e, 0x44444444);
    display(&t, "Initial");
    filt_start_frame(&t.e);
    gu_tex_filter(g, filter, filter);
    gu_tex_image(g, 0, 2, 2, 4, t.tex);
    gu_tex_wrap(g, GU_CLAMP, GU_CLAMP);
    if (three_d) {
        gu_tex_scale(g, 0.5f, 0.5f);
        gu_offset(g, 2048, 2048);
        gu_viewport(g, 2048, 2048, 2, -2);
        gu_send_commandf(g, 68, 1.0f);
        gu_send_commandf(g, 71, 0.0f);
    }
    gu_tex_flush(g);
    gu_tex_sync(g);
    filt_end_frame(&t.e);

    psp_label(p, "Orientations:");
    magnify(&t, "  TL -> BR", 256, 256, 0.0f, 0.0f, 0, 0);
    magnify(&t, "  BR -> TL", -256, -256, 0.0f, 0.0f, 0, 0);
    magnify(&t, "  TR -> BL", -256, 256, 0.0f, 0.0f, 0, 0);
    magnify(&t, "  BL -> TR", 256, -256, 0.0f, 0.0f, 0, 0);
    magnify(&t, "  TL -> BR (small)", 2, 2, 0.0f, 0.0f, 0, 0);
    psp_label(p, "Offsets");
    magnify(&t, "  One texel", 256, 256, 1.0f, 1.0f, 0, 0);
    magnify(&t, "  Half texel", 256, 256, 0.5f, 0.5f, 0, 0);
    magnify(&t, "  Negative half texel", 256, 256, -0.5f, -0.5f, 0, 0);
    magnify(&t, "  Half texel (small)", 2, 2, 0.5f, 0.5f, 0, 0);
    char title[256];
    for (int axis = 0; axis < 2; axis++) {
        psp_label(p, axis ? "Pos Y offsets:" : "Pos X offsets:");
        for (int i = 0; i < 16; i++) {
            float sub = three_d ? 0.0f : -(float)i / 16.0f;
            if (three_d) set_offset(&t, axis ? 0 : (unsigned)i, axis ? (unsigned)i : 0);
            snprintf(title, sizeof title, "  Pos %c offset %d", axis ? 'Y' : 'X', i);
            magnify(&t, title, 2, 2, 0.0f, 0.0f, axis ? 0 : sub, axis ? sub : 0);
            snprintf(title, sizeof title, "  Pos %c offset (256x) %d", axis ? 'Y' : 'X', i);
            magnify(&t, title, 512, 512, 0.0f, 0.0f, axis ? 0 : sub, axis ? sub : 0);
        }
    }
    gu_term(g);
    return 0;
}

int psp_filtering_precisionlinear2d(struct psp *p) { return precision(p, GU_LINEAR, 0); }
int psp_filtering_precisionlinear3d(struct psp *p) { return precision(p, GU_LINEAR, 1); }
int psp_filtering_precisionnearest2d(struct psp *p) { return precision(p, GU_NEAREST, 0); }
int psp_filtering_precisionnearest3d(struct psp *p) { return precision(p, GU_NEAREST, 1); }
