/* tests/gpu/commands/shared.cpp of pspautotests: see cmdshared.h. */
#include "psp/cmdshared.h"

#include "psp/ports.h"

void cmd_init_display(struct cmd_env *e, struct psp *p)
{
    e->p = p;
    e->list = psp_alloc(p, 16, 262144 * 4);
    e->clut = psp_alloc(p, 16, 16);
    e->image = psp_alloc(p, 16, 32);
    static const uint32_t clut[3] = {0xFFFF0000, 0xFF0000FF, 0xFFFF00FF};
    static const uint8_t image[32] = {0, 1, [16] = 1, 2};
    psp_write(p, e->clut, clut, sizeof clut);
    psp_write(p, e->image, image, sizeof image);
    struct gu *g = &e->g;
    gu_init(g, p);
    gu_start(g, GU_DIRECT, e->list);
    psp_screen_setup(g, 65535, 0, 480, 272);
    gu_front_face(g, GU_CW);
    gu_shade_model(g, GU_SMOOTH);
    gu_disable(g, GU_TEXTURE_2D);
    psp_identity_matrices(g);
    gu_finish(g);
    gu_sync(g);
}

void cmd_start_frame(struct cmd_env *e)
{
    gu_start(&e->g, GU_DIRECT, e->list);
    gu_clear_color(&e->g, 0);
    gu_clear(&e->g, GU_COLOR_BUFFER_BIT);
}

void cmd_end_frame(struct cmd_env *e)
{
    gu_finish(&e->g);
    gu_sync(&e->g);
}

void cmd_simple_texture(struct cmd_env *e)
{
    struct gu *g = &e->g;
    gu_enable(g, GU_TEXTURE_2D);
    gu_tex_mode(g, GU_PSM_T8, 0, 0, GU_FALSE);
    gu_tex_filter(g, GU_NEAREST, GU_NEAREST);
    gu_tex_func(g, GU_TFX_DECAL, GU_TCC_RGB);
    gu_clut_mode(g, GU_PSM_8888, 0, 0xFF, 0);
    gu_tex_image(g, 0, 2, 2, 16, e->image);
    gu_clut_load(g, 1, e->clut);
}
