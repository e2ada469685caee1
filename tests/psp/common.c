/* Set-up steps the ported programs share (ports.h). */
#include "psp/gu.h"
#include "psp/ports.h"

void psp_screen_setup(struct gu *g, int near, int far, int sw, int sh)
{
    gu_draw_buffer(g, GU_PSM_8888, 0, 512);
    gu_disp_buffer(g, 480, 272, 0, 512);
    gu_depth_buffer(g, 512 * 272 * 4, 512);
    gu_offset(g, 2048 - 480 / 2, 2048 - 272 / 2);
    gu_viewport(g, 2048, 2048, 480, 272);
    gu_depth_range(g, near, far);
    gu_depth_mask(g, 0);
    gu_scissor(g, 0, 0, sw, sh);
    gu_enable(g, GU_SCISSOR_TEST);
}

void psp_identity_matrices(struct gu *g)
{
    static const float ones[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    gu_set_matrix(g, GU_MODEL, ones);
    gu_set_matrix(g, GU_VIEW, ones);
    gu_set_matrix(g, GU_PROJECTION, ones);
}

void psp_plain_setup(struct gu *g)
{
    gu_draw_buffer(g, GU_PSM_8888, 0, 512);
    gu_disp_buffer(g, 480, 272, 0, 512);
    gu_scissor(g, 0, 0, 480, 272);
    gu_enable(g, GU_SCISSOR_TEST);
}
