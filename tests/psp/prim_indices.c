/* Port of pspautotests tests/gpu/primitives/indices.cpp (generated from the program: its arrays
 * and draw(); see tests/psp/prim.h), checked by its screenshot. */
#include "psp/prim.h"

int psp_primitives_indices(struct psp *p)
{
    struct cmd_env e;
    cmd_init_display(&e, p);
    struct gu *g = &e.g;
    struct vb b;
    uint32_t vertices1 = psp_alloc(p, 16, 48);
    uint32_t vertices2 = psp_alloc(p, 16, 48);
    uint32_t vertices3 = psp_alloc(p, 16, 48);
    uint32_t vertices4 = psp_alloc(p, 16, 48);
    uint32_t vertices5 = psp_alloc(p, 16, 48);
    uint32_t vertices6 = psp_alloc(p, 16, 48);
    uint32_t vertices7 = psp_alloc(p, 16, 48);
    uint32_t vertices8 = psp_alloc(p, 16, 64);
    uint32_t vertices_big = psp_alloc(p, 16, 3084);
    uint32_t indices8 = psp_alloc(p, 16, 8);
    uint32_t indices16 = psp_alloc(p, 16, 16);
    uint32_t indices32 = psp_alloc(p, 16, 32);
    uint32_t indices_big = psp_alloc(p, 16, 8);
    vb_begin(&b);
    vb_u32(&b, 0xFF0000FF), vb_s16(&b, 10), vb_s16(&b, 10), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFF0000FF), vb_s16(&b, 50), vb_s16(&b, 10), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFF0000FF), vb_s16(&b, 50), vb_s16(&b, 50), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFF0000FF), vb_s16(&b, 10), vb_s16(&b, 50), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_store(&b, p, vertices1);
    vb_begin(&b);
    vb_u32(&b, 0xFF00FF00), vb_s16(&b, 60), vb_s16(&b, 10), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFF00FF00), vb_s16(&b, 100), vb_s16(&b, 10), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFF00FF00), vb_s16(&b, 100), vb_s16(&b, 50), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFF00FF00), vb_s16(&b, 60), vb_s16(&b, 50), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_store(&b, p, vertices2);
    vb_begin(&b);
    vb_u32(&b, 0xFFFF0000), vb_s16(&b, 110), vb_s16(&b, 10), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFFFF0000), vb_s16(&b, 150), vb_s16(&b, 10), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFFFF0000), vb_s16(&b, 150), vb_s16(&b, 50), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFFFF0000), vb_s16(&b, 110), vb_s16(&b, 50), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_store(&b, p, vertices3);
    vb_begin(&b);
    vb_u32(&b, 0xFF00FFFF), vb_s16(&b, 160), vb_s16(&b, 10), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFF00FFFF), vb_s16(&b, 200), vb_s16(&b, 10), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFF00FFFF), vb_s16(&b, 200), vb_s16(&b, 50), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFF00FFFF), vb_s16(&b, 160), vb_s16(&b, 50), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_store(&b, p, vertices4);
    vb_begin(&b);
    vb_u32(&b, 0xFFFF00FF), vb_s16(&b, 210), vb_s16(&b, 10), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFFFF00FF), vb_s16(&b, 250), vb_s16(&b, 10), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFFFF00FF), vb_s16(&b, 250), vb_s16(&b, 50), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFFFF00FF), vb_s16(&b, 210), vb_s16(&b, 50), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_store(&b, p, vertices5);
    vb_begin(&b);
    vb_u32(&b, 0xFFFFFF00), vb_s16(&b, 260), vb_s16(&b, 10), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFFFFFF00), vb_s16(&b, 300), vb_s16(&b, 10), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFFFFFF00), vb_s16(&b, 300), vb_s16(&b, 50), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFFFFFF00), vb_s16(&b, 260), vb_s16(&b, 50), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_store(&b, p, vertices6);
    vb_begin(&b);
    vb_u32(&b, 0xFFFFFFFF), vb_s16(&b, 310), vb_s16(&b, 10), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFF0000FF), vb_s16(&b, 320), vb_s16(&b, 20), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFF0000FF), vb_s16(&b, 320), vb_s16(&b, 20), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_u32(&b, 0xFF0000FF), vb_s16(&b, 320), vb_s16(&b, 20), vb_s16(&b, 0), vb_u16(&b, 0), vb_pad(&b, 12);
    vb_store(&b, p, vertices7);
    vb_begin(&b);
    vb_u32(&b, 0xFF0000FF), vb_f32(&b, 320.0f), vb_f32(&b, 20.0f), vb_f32(&b, 0.0f), vb_pad(&b, 16);
    vb_u32(&b, 0xFFFFFFFF), vb_f32(&b, 350.0f), vb_f32(&b, 10.0f), vb_f32(&b, 0.0f), vb_pad(&b, 16);
    vb_u32(&b, 0xFF777777), vb_f32(&b, 350.0f), vb_f32(&b, 50.0f), vb_f32(&b, 0.0f), vb_pad(&b, 16);
    vb_u32(&b, 0xFF777777), vb_f32(&b, 310.0f), vb_f32(&b, 50.0f), vb_f32(&b, 0.0f), vb_pad(&b, 16);
    vb_store(&b, p, vertices8);
    vb_begin(&b);
    vb_store(&b, p, vertices_big);
    vb_begin(&b);
    vb_u8(&b, 0), vb_u8(&b, 1), vb_u8(&b, 2), vb_u8(&b, 3), vb_u8(&b, 1), vb_u8(&b, 2), vb_u8(&b, 0), vb_u8(&b, 3);
    vb_store(&b, p, indices8);
    vb_begin(&b);
    vb_u16(&b, 0), vb_u16(&b, 1), vb_u16(&b, 2), vb_u16(&b, 3), vb_u16(&b, 1), vb_u16(&b, 2), vb_u16(&b, 0), vb_u16(&b, 3);
    vb_store(&b, p, indices16);
    vb_begin(&b);
    vb_u32(&b, 0), vb_u32(&b, 1), vb_u32(&b, 2), vb_u32(&b, 3), vb_u32(&b, 1), vb_u32(&b, 2), vb_u32(&b, 0), vb_u32(&b, 3);
    vb_store(&b, p, indices32);
    vb_begin(&b);
    vb_u8(&b, 0), vb_u8(&b, 255);
    vb_store(&b, p, indices_big);
    cmd_start_frame(&e);
    gu_disable(g, 3); /* GU_TEXTURE is 3: GU_STENCIL_TEST */
    gu_draw_array(g, GU_LINES, GU_COLOR_8888 | GU_VERTEX_16BIT | GU_TRANSFORM_2D | GU_INDEX_8BIT, 8, indices8, vertices1);
    gu_draw_array(g, GU_LINES, GU_COLOR_8888 | GU_VERTEX_16BIT | GU_TRANSFORM_2D | GU_INDEX_16BIT, 8, indices16, vertices2);
    /* What happens if we use an invalid format?  Apparently it is valid? */
    gu_draw_array(g, GU_LINES, GU_COLOR_8888 | GU_VERTEX_16BIT | GU_TRANSFORM_2D | GU_INDEX_BITS, 8, indices32, vertices3);
    /* Can one "continue" with indexes?  The answer is yes. */
    gu_draw_array(g, GU_LINES, GU_COLOR_8888 | GU_VERTEX_16BIT | GU_TRANSFORM_2D | GU_INDEX_8BIT, 1, indices8, vertices4);
    gu_draw_array(g, GU_CONTINUE, GU_COLOR_8888 | GU_VERTEX_16BIT | GU_TRANSFORM_2D | GU_INDEX_8BIT, 7, indices8 + 1, 0);
    /* Let's verify that it's unsigned. */
    cpu_copy(p, vertices_big + 0, vertices5 + 12, 12); /* vertices_big[0] = vertices5[1]; */
    cpu_copy(p, vertices_big + 12, vertices5 + 0, 12); /* vertices_big[1] = vertices5[0]; */
    cpu_copy(p, vertices_big + 3072, vertices5 + 36, 12); /* vertices_big[256] = vertices5[3]; */
    /* sceKernelDcacheWritebackInvalidateRange(vertices_big, sizeof(vertices_big));: the CPU writes above are already in memory */
    gu_draw_array(g, GU_LINES, GU_COLOR_8888 | GU_VERTEX_16BIT | GU_TRANSFORM_2D | GU_INDEX_8BIT, 2, indices_big, vertices_big + 12);
    /* Verify that the vertex pointer is not increased by indexing. */
    gu_draw_array(g, GU_LINES, GU_COLOR_8888 | GU_VERTEX_16BIT | GU_TRANSFORM_2D | GU_INDEX_8BIT, 2, indices8, vertices6);
    gu_draw_array(g, GU_LINES, GU_COLOR_8888 | GU_VERTEX_16BIT | GU_TRANSFORM_2D | GU_INDEX_8BIT, 2, indices8 + 2, 0);
    /* And also that the index pointer is increased. */
    gu_draw_array(g, GU_LINES, GU_COLOR_8888 | GU_VERTEX_16BIT | GU_TRANSFORM_2D | GU_INDEX_8BIT, 2, 0, 0);
    gu_draw_array(g, GU_LINES, GU_COLOR_8888 | GU_VERTEX_16BIT | GU_TRANSFORM_2D | GU_INDEX_8BIT, 2, 0, 0);
    /* What happens when we mix index types using GU_CONTINUE? */
    gu_draw_array(g, GU_LINES, GU_COLOR_8888 | GU_VERTEX_16BIT | GU_TRANSFORM_2D | GU_INDEX_8BIT, 1, indices8, vertices7);
    gu_draw_array(g, GU_CONTINUE, GU_COLOR_8888 | GU_VERTEX_32BITF | GU_TRANSFORM_2D | GU_INDEX_16BIT, 2, indices16 + 2, vertices8);
    gu_draw_array(g, GU_CONTINUE, GU_COLOR_8888 | GU_VERTEX_32BITF | GU_TRANSFORM_2D | GU_INDEX_BITS, 1, indices32 + 12, vertices8);
    cmd_end_frame(&e);
    psp_screenshot(p, PSP_EDRAM, 512, GU_PSM_8888);
    gu_term(g);
    return 0;
}
