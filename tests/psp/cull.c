/* Port of pspautotests tests/gpu/commands/cull.cpp: 40x30 boxes in a grid
 * (from (10, 10), 15 pixels apart), each a triangle fan in either winding
 * or a sprite in either corner order, drawn with culling off or on, CULL
 * 0 or 1, in through and transform mode, and in clear mode; then the
 * first row of each box is read back (its left pixel printed) and the
 * screen is captured. */
#include "psp/ports.h"

#include "psp/cmdshared.h"
#include "psp/verts.h"

#define BOX_W 40
#define BOX_H 30
#define BOX_SPACE 15

struct grid { int x, y; };

static void advance(struct grid *gr)
{
    gr->x += BOX_W + BOX_SPACE;
    if (gr->x + BOX_W >= 480) {
        gr->x = 10;
        gr->y += BOX_H + BOX_SPACE;
    }
}

/* nextBox(t, cw): the box's vertices in the list (sceGuGetMemory), drawn. */
static void next_box(struct cmd_env *e, struct grid *gr, uint32_t t, int cw)
{
    const uint32_t col = 0xFF1F1FFF;
    int x = gr->x, y = gr->y;
    struct pverts v;
    pv_init(&v, t);
    switch (cw) {
    case 0:
        pv_cp(&v, col, x, y, 0), pv_cp(&v, col, x, y + BOX_H, 0);
        pv_cp(&v, col, x + BOX_W, y + BOX_H, 0), pv_cp(&v, col, x + BOX_W, y, 0);
        break;
    case 1:
        pv_cp(&v, col, x, y, 0), pv_cp(&v, col, x + BOX_W, y, 0);
        pv_cp(&v, col, x + BOX_W, y + BOX_H, 0), pv_cp(&v, col, x, y + BOX_H, 0);
        break;
    case 2:
        pv_cp(&v, col, x, y, 0), pv_cp(&v, col, x + BOX_W, y + BOX_H, 0);
        break;
    default:
        pv_cp(&v, col, x, y + BOX_H, 0), pv_cp(&v, col, x + BOX_W, y, 0);
        break;
    }
    uint32_t mem = gu_get_memory(&e->g, (int)v.n);
    pv_store(&v, e->p, mem);
    gu_draw_array(&e->g, cw & 2 ? GU_SPRITES : GU_TRIANGLE_FAN, t, cw & 2 ? 2 : 4, 0, mem);
    advance(gr);
}

static void cull_box(struct cmd_env *e, struct grid *gr, uint32_t transform, uint32_t clearval, int enable, int face, int cw)
{
    if (enable)
        gu_enable(&e->g, GU_CULL_FACE);
    else
        gu_disable(&e->g, GU_CULL_FACE);
    gu_send_commandi(&e->g, 155, (uint32_t)face);
    gu_send_commandi(&e->g, 211, clearval);
    next_box(e, gr, GU_COLOR_8888 | GU_VERTEX_16BIT | transform, cw);
    gu_send_commandi(&e->g, 211, 0);
}

static void cull_boxes(struct cmd_env *e, struct grid *gr, uint32_t transform, uint32_t clearval)
{
    static const int args[8][3] = {{0, 0, 1}, {0, 0, 0}, {1, 0, 1}, {1, 0, 0}, {1, 1, 1}, {1, 1, 0}, {1, 1, 2}, {1, 1, 3}};
    for (int i = 0; i < 8; i++) cull_box(e, gr, transform, clearval, args[i][0], args[i][1], args[i][2]);
}

/* logCullBox: row y of the screen through the DMA (into a buffer whose
 * first word is 0x13371337), its pixel x. */
static void log_boxes(struct cmd_env *e, struct grid *gr, uint32_t buf, const char *title)
{
    static const char *const names[8] = {"0/0, cw", "0/0, ccw", "type=0, cw", "type=0, ccw",
                                         "type=1, cw", "type=1, ccw", "type=1, cw sprite", "type=1, ccw sprite"};
    for (int i = 0; i < 8; i++) {
        psp_memset(e->p, buf, 0, 512 * 4);
        psp_write32(e->p, buf, 0x13371337);
        psp_dmac_memcpy(e->p, buf, PSP_EDRAM + (uint32_t)gr->y * 512 * 4, 480 * 4);
        psp_checkpoint(e->p, "  %s (%s): %08x", title, names[i], psp_read32(e->p, buf + 4 * (uint32_t)gr->x));
        advance(gr);
    }
}

int psp_commands_cull(struct psp *p)
{
    struct cmd_env e;
    cmd_init_display(&e, p);
    uint32_t buf = psp_alloc(p, 16, 512 * 4);
    struct grid draw = {10, 10}, log = {10, 10};
    cmd_start_frame(&e); /* draw() */
    gu_disable(&e.g, 3); /* sceGuDisable(GU_TEXTURE): GU_TEXTURE is 3, which is GU_STENCIL_TEST */
    gu_disable(&e.g, GU_BLEND);
    gu_clear_color(&e.g, 0x003F3F3F);
    gu_clear(&e.g, GU_COLOR_BUFFER_BIT);
    psp_label(p, "Cull:");
    cull_boxes(&e, &draw, GU_TRANSFORM_2D, 0);
    cull_boxes(&e, &draw, GU_TRANSFORM_3D, 0);
    cull_boxes(&e, &draw, GU_TRANSFORM_2D, 1 | GU_COLOR_BUFFER_BIT << 8);
    cull_boxes(&e, &draw, GU_TRANSFORM_3D, 1 | GU_COLOR_BUFFER_BIT << 8);
    cmd_end_frame(&e);
    log_boxes(&e, &log, buf, "Transform 2D");
    log_boxes(&e, &log, buf, "Transform 3D");
    log_boxes(&e, &log, buf, "Clear 2D");
    log_boxes(&e, &log, buf, "Clear 3D");
    psp_screenshot(p, PSP_EDRAM, 512, GU_PSM_8888);
    gu_term(&e.g);
    return 0;
}
