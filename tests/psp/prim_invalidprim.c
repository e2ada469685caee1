/* Port of pspautotests tests/gpu/primitives/invalidprim.cpp (generated from the program: its arrays
 * and draw(); see tests/psp/prim.h), checked by its screenshot. */
#include "psp/prim.h"

int psp_primitives_invalidprim(struct psp *p)
{
    struct cmd_env e;
    cmd_init_display(&e, p);
    struct gu *g = &e.g;
    struct vb b;
    uint32_t vertices_nofmt = psp_alloc(p, 16, 8);
    uint32_t vertices_s8 = psp_alloc(p, 16, 16);
    uint32_t vertices_s8x = psp_alloc(p, 16, 16);
    uint32_t vertices_s16 = psp_alloc(p, 16, 24);
    uint32_t vertices_s16x = psp_alloc(p, 16, 24);
    uint32_t vertices_f32 = psp_alloc(p, 16, 32);
    uint32_t vertices_f32x = psp_alloc(p, 16, 32);
    vb_begin(&b);
    vb_u32(&b, 0xFF0000FF), vb_pad(&b, 4);
    vb_u32(&b, 0xFF0000FF), vb_pad(&b, 4);
    vb_store(&b, p, vertices_nofmt);
    vb_begin(&b);
    vb_u32(&b, 0xFF00FF00), vb_s8(&b, 10), vb_s8(&b, 10), vb_s8(&b, 0), vb_u8(&b, 0), vb_pad(&b, 8);
    vb_u32(&b, 0xFF00FF00), vb_s8(&b, 12), vb_s8(&b, 10), vb_s8(&b, 0), vb_u8(&b, 0), vb_pad(&b, 8);
    vb_store(&b, p, vertices_s8);
    vb_begin(&b);
    vb_u32(&b, 0xFF00FF00), vb_s8(&b, norm8x(10)), vb_s8(&b, norm8y(20)), vb_s8(&b, 0), vb_u8(&b, 0), vb_pad(&b, 8);
    vb_u32(&b, 0xFF00FF00), vb_s8(&b, norm8x(12)), vb_s8(&b, norm8y(20)), vb_s8(&b, 0), vb_u8(&b, 0), vb_pad(&b, 8);
    vb_store(&b, p, vertices_s8x);
    vb_begin(&b);
    vb_u32(&b, 0xFFFF0000), vb_s16(&b, 14), vb_s16(&b, 10), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFFFF0000), vb_s16(&b, 16), vb_s16(&b, 10), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_store(&b, p, vertices_s16);
    vb_begin(&b);
    vb_u32(&b, 0xFFFF0000), vb_s16(&b, norm16x(14)), vb_s16(&b, norm16y(20)), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFFFF0000), vb_s16(&b, norm16x(16)), vb_s16(&b, norm16y(20)), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_store(&b, p, vertices_s16x);
    vb_begin(&b);
    vb_u32(&b, 0xFF00FFFF), vb_f32(&b, 18.0f), vb_f32(&b, 10.0f), vb_f32(&b, 0.0f), vb_pad(&b, 16);
    vb_u32(&b, 0xFF00FFFF), vb_f32(&b, 20.0f), vb_f32(&b, 10.0f), vb_f32(&b, 0.0f), vb_pad(&b, 16);
    vb_store(&b, p, vertices_f32);
    vb_begin(&b);
    vb_u32(&b, 0xFF00FFFF), vb_f32(&b, norm32x(18)), vb_f32(&b, norm32y(20)), vb_f32(&b, 0), vb_pad(&b, 16);
    vb_u32(&b, 0xFF00FFFF), vb_f32(&b, norm32x(20)), vb_f32(&b, norm32y(20)), vb_f32(&b, 0), vb_pad(&b, 16);
    vb_store(&b, p, vertices_f32x);
    cmd_start_frame(&e);
    gu_disable(g, 3); /* GU_TEXTURE is 3: GU_STENCIL_TEST */
    /* Different formats - throughmode. */
    gu_draw_array(g, 8, GU_COLOR_8888 | GU_TRANSFORM_2D, 2, 0, vertices_nofmt);
    gu_draw_array(g, 8, GU_COLOR_8888 | GU_VERTEX_8BIT | GU_TRANSFORM_2D, 2, 0, vertices_s8);
    gu_draw_array(g, 8, GU_COLOR_8888 | GU_VERTEX_16BIT | GU_TRANSFORM_2D, 2, 0, vertices_s16);
    gu_draw_array(g, 8, GU_COLOR_8888 | GU_VERTEX_32BITF | GU_TRANSFORM_2D, 2, 0, vertices_f32);
    /* Different formats - transform. */
    gu_draw_array(g, 8, GU_COLOR_8888 | GU_TRANSFORM_3D, 2, 0, vertices_nofmt);
    gu_draw_array(g, 8, GU_COLOR_8888 | GU_VERTEX_8BIT | GU_TRANSFORM_3D, 2, 0, vertices_s8x);
    gu_draw_array(g, 8, GU_COLOR_8888 | GU_VERTEX_16BIT | GU_TRANSFORM_3D, 2, 0, vertices_s16x);
    gu_draw_array(g, 8, GU_COLOR_8888 | GU_VERTEX_32BITF | GU_TRANSFORM_3D, 2, 0, vertices_f32x);
    cmd_end_frame(&e);
    psp_screenshot(p, PSP_EDRAM, 512, GU_PSM_8888);
    gu_term(g);
    return 0;
}
