/* tests/gpu/commands/shared.cpp of pspautotests: see cmdshared.h. */
#include "psp/cmdshared.h"

#include "psp/ports.h"

void cmd_init_display(struct cmd_env *e, struct psp *p)
{
    e->p = p;
    e->list = psp_alloc(p, 16, 262144 * 4);
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
