/* Port of pspautotests tests/gpu/primitives/immediate.cpp, checked by its
 * screenshot: vertices sent one command at a time (0xF0-0xF9, the kick
 * 0xF7 carrying the primitive type and the per-primitive flags), in
 * transform and through mode, textured, in clear mode, culled, and with
 * the secondary colour of separate specular mode. */
#include "ge_cmd.h"
#include "psp/prim.h"

#define GU_IMM_SHADE_MODE 0x00040000u
#define GU_IMM_CULL 0x00080000u
#define GU_IMM_CULL_MODE 0x00100000u
#define GU_IMM_TEXTURE 0x00200000u

struct cv {
    uint32_t c;
    int x, y, z;
}; /* the program's Vertex_C8888_P16 */
struct tv {
    unsigned u, v;
    int x, y, z;
}; /* its Vertex_UV16_P16 */

static const struct cv v1[4] = {{0xFF0000FF, 10, 10, 0x1234}, {0xFF0000FF, 50, 10, 0x1234},
                                {0xFF0000FF, 50, 50, 0x1234}, {0xFF0000FF, 10, 50, 0x1234}};
static const struct cv v2[4] = {
    {0xFF00FF00, 60, 10, 0}, {0xFF00FF00, 100, 10, 0}, {0xFF00FF00, 100, 50, 0}, {0xFF00FF00, 60, 50, 0}};
static const struct cv v3[4] = {
    {0xFFFF0000, 110, 10, 0}, {0xFFFF0000, 150, 10, 0}, {0xFFFF0000, 150, 50, 0}, {0xFFFF0000, 110, 50, 0}};
static const struct cv v4[4] = {
    {0xFF00FFFF, 160, 10, 0}, {0xFF00FFFF, 200, 10, 0}, {0xFF00FFFF, 200, 50, 0}, {0xFF00FFFF, 160, 50, 0}};
static const struct cv v5[4] = {
    {0xFFFF00FF, 210, 10, 0}, {0xFFFF00FF, 250, 10, 0}, {0xFFFF00FF, 250, 50, 0}, {0xFFFF00FF, 210, 50, 0}};
static const struct cv v6[4] = {
    {0xFFFFFF00, 260, 10, 0}, {0xFFFFFF00, 300, 10, 0}, {0xFFFF7F00, 300, 50, 0}, {0xFFFF7F00, 260, 50, 0}};
static const struct cv v7[2] = {{0xFFFFFFFF, 310, 10, 0}, {0xFFFF00FF, 350, 50, 0}};
static const struct tv v8[4] = {{0, 0, 360, 10, 0}, {4, 0, 400, 10, 0}, {4, 4, 400, 50, 0}, {0, 4, 360, 50, 0}};
static const struct tv v9[4] = {{0, 0, 410, 10, 0}, {4, 0, 450, 10, 0}, {4, 4, 450, 50, 0}, {0, 4, 410, 50, 0}};
static const struct cv v10[4] = { /* clockwise */
    {0xFFFFFF00, 10, 60, 0}, {0xFFFFFF00, 50, 60, 0}, {0xFFFF7F00, 50, 100, 0}, {0xFFFF7F00, 10, 100, 0}};
static const struct cv v11[4] = { /* counter-clockwise */
    {0xFFFFFF00, 60, 60, 0}, {0xFFFFFF00, 60, 100, 0}, {0xFFFFFF00, 100, 100, 0}, {0xFFFFFF00, 100, 60, 0}};
static const struct cv v12[4] = {
    {0xFFFFFF00, 110, 60, 0}, {0xFFFFFF00, 150, 60, 0}, {0xFFFF7F00, 150, 100, 0}, {0xFFFF7F00, 110, 100, 0}};
static const struct cv v13[4] = {
    {0xFFFFFF00, 160, 60, 0}, {0xFFFFFF00, 200, 60, 0}, {0xFFFF7F00, 200, 100, 0}, {0xFFFF7F00, 160, 100, 0}};

/* sendImmediateVerts(prim, flags, c, v) for coloured vertices. */
static void send_c(struct gu *g, unsigned prim, uint32_t flags, int c, const struct cv *v)
{
    for (int i = 0; i < c; ++i) {
        gu_send_commandi(g, 0xF0, 0x00FF0000u | (uint32_t)(2048 + v[i].x) << 4);
        gu_send_commandi(g, 0xF1, 0x00FF0000u | (uint32_t)(2048 + v[i].y) << 4);
        gu_send_commandi(g, 0xF2, 0x00FF0000u | (uint32_t)v[i].z);
        gu_send_commandi(g, 0xF6, v[i].c & 0x00FFFFFF); /* colour 0 */
        gu_send_commandi(g, 0xF8, 0x00FFFF7F);          /* fog */
        gu_send_commandi(g, 0xF9, 0x007F7F7F);          /* colour 1 */
        gu_send_commandi(g, 0xF7, flags | prim << 8 | v[i].c >> 24);
    }
}

/* The same for textured vertices (u and v in quarters). */
static void send_t(struct gu *g, unsigned prim, uint32_t flags, int c, const struct tv *v)
{
    for (int i = 0; i < c; ++i) {
        gu_send_commandi(g, 0xF0, 0x00FF0000u | (uint32_t)(2048 + v[i].x) << 4);
        gu_send_commandi(g, 0xF1, 0x00FF0000u | (uint32_t)(2048 + v[i].y) << 4);
        gu_send_commandi(g, 0xF2, 0x00FF0000u | (uint32_t)v[i].z);
        gu_send_commandf(g, 0xF3, (float)v[i].u / 4.0f);
        gu_send_commandf(g, 0xF4, (float)v[i].v / 4.0f);
        gu_send_commandf(g, 0xF5, 1.0f);
        gu_send_commandi(g, 0xF6, 0x00FFFFFF);
        gu_send_commandi(g, 0xF8, 0x00FFFFFF);
        gu_send_commandi(g, 0xF9, 0x007F7F7F);
        gu_send_commandi(g, 0xF7, flags | prim << 8 | 0xFF);
    }
}

int psp_primitives_immediate(struct psp *p)
{
    struct cmd_env e;
    cmd_init_display(&e, p);
    struct gu *g = &e.g;
    uint32_t image = psp_alloc(p, 16, 64); /* imageData[4][4]: 0xFF000000, 0xFF111111, ... 0xFFFFFFFF */
    for (uint32_t i = 0; i < 16; ++i) psp_write32(p, image + 4 * i, 0xFF000000u | i * 0x111111u);

    cmd_start_frame(&e);
    gu_disable(g, GU_TEXTURE_2D);
    gu_enable(g, GU_BLEND);
    gu_enable(g, GU_DEPTH_TEST);
    gu_blend_func(g, GU_ADD, GU_SRC_ALPHA, GU_ONE_MINUS_SRC_ALPHA, 0, 0);
    gu_depth_func(g, GU_ALWAYS);
    gu_depth_mask(g, 0);
    gu_depth_offset(g, 0);
    gu_depth_range(g, 0, 65535);
    gu_light_mode(g, GU_SINGLE_COLOR);
    gu_fog(g, 0.0f, 1.0f, 0x00777777);
    gu_viewport(g, 0, 0, 1, 1);
    gu_offset(g, 0, 0);
    gu_clear_color(g, 0);
    gu_clear_stencil(g, 0);
    gu_clear_depth(g, 0);
    gu_clear(g, GU_COLOR_BUFFER_BIT | GU_STENCIL_BUFFER_BIT);

    /* The transform flag of the vertex type is used (its formats are not). */
    gu_send_commandi(g, GE_VTYPE, GU_COLOR_5650 | GU_VERTEX_32BITF | GU_TRANSFORM_3D);
    /* The offset translates only when not in through mode. */
    gu_send_commandi(g, GE_OFFSET_X, 2048 << 4);
    gu_send_commandi(g, GE_OFFSET_Y, 2048 << 4);

    send_c(g, GU_POINTS, 0, 1, v1), send_c(g, GU_CONTINUE, 0, 3, v1 + 1);
    send_c(g, GU_LINES, 0, 1, v2), send_c(g, GU_CONTINUE, 0, 3, v2 + 1);
    send_c(g, GU_LINE_STRIP, 0, 1, v3), send_c(g, GU_CONTINUE, 0, 3, v3 + 1);
    send_c(g, GU_TRIANGLES, 0, 1, v4), send_c(g, GU_CONTINUE, 0, 3, v4 + 1);
    send_c(g, GU_TRIANGLE_STRIP, 0, 1, v5), send_c(g, GU_CONTINUE, 0, 3, v5 + 1);
    send_c(g, GU_TRIANGLE_FAN, GU_IMM_SHADE_MODE, 1, v6), send_c(g, GU_CONTINUE, 0, 3, v6 + 1);
    send_c(g, GU_SPRITES, 0x00D40000, 1, v7), send_c(g, GU_CONTINUE, 0, 1, v7 + 1);

    gu_enable(g, GU_TEXTURE_2D);
    gu_tex_filter(g, GU_NEAREST, GU_NEAREST);
    gu_tex_func(g, GU_TFX_REPLACE, GU_TCC_RGBA);
    gu_tex_mode(g, GU_PSM_8888, 0, 0, 0);
    gu_tex_image(g, 0, 4, 4, 4, image);
    gu_tex_wrap(g, GU_CLAMP, GU_CLAMP);
    gu_tex_flush(g);
    gu_tex_sync(g);
    send_t(g, GU_TRIANGLE_FAN, GU_IMM_TEXTURE, 1, v8), send_t(g, GU_CONTINUE, 0, 3, v8 + 1);

    /* Clear mode applies, its flags included. */
    gu_send_commandi(g, GE_CLEAR_MODE, 1 | (GU_COLOR_BUFFER_BIT | GU_STENCIL_BUFFER_BIT | GU_DEPTH_BUFFER_BIT) << 8);
    send_t(g, GU_TRIANGLE_FAN, GU_IMM_TEXTURE, 1, v9), send_t(g, GU_CONTINUE, 0, 3, v9 + 1);
    gu_send_commandi(g, GE_CLEAR_MODE, 0);

    /* Counter-clockwise is culled by CULL | CULL_MODE, clockwise by CULL. */
    send_c(g, GU_TRIANGLE_FAN, GU_IMM_CULL, 1, v10), send_c(g, GU_CONTINUE, 0, 3, v10 + 1);
    send_c(g, GU_TRIANGLE_FAN, GU_IMM_CULL | GU_IMM_CULL_MODE, 1, v11), send_c(g, GU_CONTINUE, 0, 3, v11 + 1);

    /* The secondary colour: added in transform mode, not in through mode. */
    gu_light_mode(g, GU_SEPARATE_SPECULAR_COLOR);
    send_c(g, GU_TRIANGLE_FAN, 0, 1, v12), send_c(g, GU_CONTINUE, 0, 3, v12 + 1);
    gu_light_mode(g, GU_SINGLE_COLOR);
    gu_light_mode(g, GU_SEPARATE_SPECULAR_COLOR);
    gu_send_commandi(g, GE_VTYPE, GU_COLOR_5650 | GU_VERTEX_32BITF | GU_TRANSFORM_2D);
    send_c(g, GU_TRIANGLE_FAN, 0, 1, v13), send_c(g, GU_CONTINUE, 0, 3, v13 + 1);
    gu_light_mode(g, GU_SINGLE_COLOR);

    cmd_end_frame(&e);
    psp_screenshot(p, PSP_EDRAM, 512, GU_PSM_8888);
    gu_term(g);
    return 0;
}
