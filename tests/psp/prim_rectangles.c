/* Port of pspautotests tests/gpu/primitives/rectangles.cpp (generated from the program: its arrays
 * and draw(); see tests/psp/prim.h), checked by its screenshot. */
#include "psp/prim.h"

int psp_primitives_rectangles(struct psp *p)
{
    struct cmd_env e;
    cmd_init_display(&e, p);
    struct gu *g = &e.g;
    struct vb b;
    uint32_t vertices_nofmt = psp_alloc(p, 16, 8);
    uint32_t vertices_s8 = psp_alloc(p, 16, 16);
    uint32_t vertices_s8x = psp_alloc(p, 16, 16);
    uint32_t vertices_s16 = psp_alloc(p, 16, 20);
    uint32_t vertices_s16x = psp_alloc(p, 16, 20);
    uint32_t vertices_f32 = psp_alloc(p, 16, 32);
    uint32_t vertices_f32x = psp_alloc(p, 16, 32);
    uint32_t vertices_trbl = psp_alloc(p, 16, 32);
    uint32_t vertices_trblx = psp_alloc(p, 16, 32);
    uint32_t vertices_brtl = psp_alloc(p, 16, 32);
    uint32_t vertices_brtlx = psp_alloc(p, 16, 32);
    uint32_t vertices_incomp = psp_alloc(p, 16, 16);
    uint32_t vertices_incompx = psp_alloc(p, 16, 32);
    vb_begin(&b);
    vb_u16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 4);
    vb_u16(&b, 2), vb_u16(&b, 2), vb_pad(&b, 4);
    vb_store(&b, p, vertices_nofmt);
    vb_begin(&b);
    vb_u16(&b, 0), vb_u16(&b, 0), vb_s8(&b, 10), vb_s8(&b, 10), vb_s8(&b, 0), vb_u8(&b, 0), vb_pad(&b, 8);
    vb_u16(&b, 2), vb_u16(&b, 2), vb_s8(&b, 50), vb_s8(&b, 50), vb_s8(&b, 0), vb_u8(&b, 0), vb_pad(&b, 8);
    vb_store(&b, p, vertices_s8);
    vb_begin(&b);
    vb_u16(&b, 0), vb_u16(&b, 0), vb_s8(&b, norm8x(10)), vb_s8(&b, norm8y(60)), vb_s8(&b, 0), vb_u8(&b, 0), vb_pad(&b, 8);
    vb_u16(&b, 32768), vb_u16(&b, 32768), vb_s8(&b, norm8x(50)), vb_s8(&b, norm8y(100)), vb_s8(&b, 0), vb_u8(&b, 0), vb_pad(&b, 8);
    vb_store(&b, p, vertices_s8x);
    vb_begin(&b);
    vb_u16(&b, 0), vb_u16(&b, 0), vb_s16(&b, 60), vb_s16(&b, 10), vb_s16(&b, 0), vb_pad(&b, 10);
    vb_u16(&b, 2), vb_u16(&b, 2), vb_s16(&b, 100), vb_s16(&b, 50), vb_s16(&b, 0), vb_pad(&b, 10);
    vb_store(&b, p, vertices_s16);
    vb_begin(&b);
    vb_u16(&b, 0), vb_u16(&b, 0), vb_s16(&b, norm16x(60)), vb_s16(&b, norm16y(60)), vb_s16(&b, 0), vb_pad(&b, 10);
    vb_u16(&b, 32768), vb_u16(&b, 32768), vb_s16(&b, norm16x(100)), vb_s16(&b, norm16y(100)), vb_s16(&b, 0), vb_pad(&b, 10);
    vb_store(&b, p, vertices_s16x);
    vb_begin(&b);
    vb_u16(&b, 0), vb_u16(&b, 0), vb_f32(&b, 110.0f), vb_f32(&b, 10.0f), vb_f32(&b, 0.0f), vb_pad(&b, 16);
    vb_u16(&b, 2), vb_u16(&b, 2), vb_f32(&b, 150.0f), vb_f32(&b, 50.0f), vb_f32(&b, 0.0f), vb_pad(&b, 16);
    vb_store(&b, p, vertices_f32);
    vb_begin(&b);
    vb_u16(&b, 0), vb_u16(&b, 0), vb_f32(&b, norm32x(110)), vb_f32(&b, norm32y(60)), vb_f32(&b, 0), vb_pad(&b, 16);
    vb_u16(&b, 32768), vb_u16(&b, 32768), vb_f32(&b, norm32x(150)), vb_f32(&b, norm32y(100)), vb_f32(&b, 0), vb_pad(&b, 16);
    vb_store(&b, p, vertices_f32x);
    vb_begin(&b);
    vb_u16(&b, 0), vb_u16(&b, 0), vb_f32(&b, 200.0f), vb_f32(&b, 10.0f), vb_f32(&b, 0.0f), vb_pad(&b, 16);
    vb_u16(&b, 2), vb_u16(&b, 2), vb_f32(&b, 160.0f), vb_f32(&b, 50.0f), vb_f32(&b, 0.0f), vb_pad(&b, 16);
    vb_store(&b, p, vertices_trbl);
    vb_begin(&b);
    vb_u16(&b, 0), vb_u16(&b, 0), vb_f32(&b, norm32x(200)), vb_f32(&b, norm32y(60)), vb_f32(&b, 0.0f), vb_pad(&b, 16);
    vb_u16(&b, 32768), vb_u16(&b, 32768), vb_f32(&b, norm32x(160)), vb_f32(&b, norm32y(100)), vb_f32(&b, 0.0f), vb_pad(&b, 16);
    vb_store(&b, p, vertices_trblx);
    vb_begin(&b);
    vb_u16(&b, 0), vb_u16(&b, 0), vb_f32(&b, 250.0f), vb_f32(&b, 50.0f), vb_f32(&b, 0.0f), vb_pad(&b, 16);
    vb_u16(&b, 2), vb_u16(&b, 2), vb_f32(&b, 210.0f), vb_f32(&b, 10.0f), vb_f32(&b, 0.0f), vb_pad(&b, 16);
    vb_store(&b, p, vertices_brtl);
    vb_begin(&b);
    vb_u16(&b, 0), vb_u16(&b, 0), vb_f32(&b, norm32x(250)), vb_f32(&b, norm32y(100)), vb_f32(&b, 0.0f), vb_pad(&b, 16);
    vb_u16(&b, 32768), vb_u16(&b, 32768), vb_f32(&b, norm32x(210)), vb_f32(&b, norm32y(60)), vb_f32(&b, 0.0f), vb_pad(&b, 16);
    vb_store(&b, p, vertices_brtlx);
    vb_begin(&b);
    vb_u16(&b, 0), vb_u16(&b, 0), vb_f32(&b, 260.0f), vb_f32(&b, 50.0f), vb_f32(&b, 0.0f), vb_pad(&b, 16);
    vb_store(&b, p, vertices_incomp);
    vb_begin(&b);
    vb_u16(&b, 0), vb_u16(&b, 0), vb_f32(&b, norm32x(260)), vb_f32(&b, norm32y(100)), vb_f32(&b, 0.0f), vb_pad(&b, 16);
    vb_store(&b, p, vertices_incompx);
    cmd_start_frame(&e);
    cmd_simple_texture(&e);
    /* Different formats - throughmode. */
    gu_draw_array(g, GU_SPRITES, GU_TEXTURE_16BIT | GU_TRANSFORM_2D, 2, 0, vertices_nofmt);
    gu_draw_array(g, GU_SPRITES, GU_TEXTURE_16BIT | GU_VERTEX_8BIT | GU_TRANSFORM_2D, 2, 0, vertices_s8);
    gu_draw_array(g, GU_SPRITES, GU_TEXTURE_16BIT | GU_VERTEX_16BIT | GU_TRANSFORM_2D, 2, 0, vertices_s16);
    gu_draw_array(g, GU_SPRITES, GU_TEXTURE_16BIT | GU_VERTEX_32BITF | GU_TRANSFORM_2D, 2, 0, vertices_f32);
    /* Different formats - transform. */
    gu_draw_array(g, GU_SPRITES, GU_TEXTURE_16BIT | GU_TRANSFORM_3D, 2, 0, vertices_nofmt);
    gu_draw_array(g, GU_SPRITES, GU_TEXTURE_16BIT | GU_VERTEX_8BIT | GU_TRANSFORM_3D, 2, 0, vertices_s8x);
    gu_draw_array(g, GU_SPRITES, GU_TEXTURE_16BIT | GU_VERTEX_16BIT | GU_TRANSFORM_3D, 2, 0, vertices_s16x);
    gu_draw_array(g, GU_SPRITES, GU_TEXTURE_16BIT | GU_VERTEX_32BITF | GU_TRANSFORM_3D, 2, 0, vertices_f32x);
    /* Rotated (not TL - BR.) */
    gu_draw_array(g, GU_SPRITES, GU_TEXTURE_16BIT | GU_VERTEX_32BITF | GU_TRANSFORM_2D, 2, 0, vertices_trbl);
    gu_draw_array(g, GU_SPRITES, GU_TEXTURE_16BIT | GU_VERTEX_32BITF | GU_TRANSFORM_2D, 2, 0, vertices_brtl);
    gu_draw_array(g, GU_SPRITES, GU_TEXTURE_16BIT | GU_VERTEX_32BITF | GU_TRANSFORM_3D, 2, 0, vertices_trblx);
    gu_draw_array(g, GU_SPRITES, GU_TEXTURE_16BIT | GU_VERTEX_32BITF | GU_TRANSFORM_3D, 2, 0, vertices_brtlx);
    /* Incomplete (only one prim.) */
    gu_draw_array(g, GU_SPRITES, GU_TEXTURE_16BIT | GU_VERTEX_32BITF | GU_TRANSFORM_2D, 1, 0, vertices_incomp);
    gu_draw_array(g, GU_SPRITES, GU_TEXTURE_16BIT | GU_VERTEX_32BITF | GU_TRANSFORM_3D, 1, 0, vertices_incompx);
    cmd_end_frame(&e);
    psp_screenshot(p, PSP_EDRAM, 512, GU_PSM_8888);
    gu_term(g);
    return 0;
}
