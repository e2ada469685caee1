/* tests/gpu/filtering/shared.cpp of pspautotests: see filtshared.h. */
#include "psp/filtshared.h"

#include "psp/ports.h"

void filt_init_display(struct filt_env *e, struct psp *p)
{
    e->p = p;
    e->buf_dirty = true;
    e->list = psp_alloc(p, 16, 262144 * 4);
    e->copybuf = psp_alloc(p, 16, 512 * 272 * 4);
    struct gu *g = &e->g;
    gu_init(g, p);
    gu_start(g, GU_DIRECT, e->list);
    gu_draw_buffer(g, GU_PSM_8888, 0, 512);
    gu_disp_buffer(g, 480, 272, 0, 512);
    gu_depth_buffer(g, 512 * 272 * 4, 512);
    gu_send_commandi(g, 76, (2048 - 480 / 2) << 4);
    gu_send_commandi(g, 77, (2048 - 272 / 2) << 4);
    gu_viewport(g, 2048, 2048, 480, 272);
    gu_depth_range(g, 65535, 0);
    gu_depth_mask(g, 0);
    gu_scissor(g, 0, 0, 8, 8);
    gu_disable(g, GU_SCISSOR_TEST);
    gu_front_face(g, GU_CW);
    gu_shade_model(g, GU_SMOOTH);
    gu_enable(g, GU_TEXTURE_2D);
    gu_disable(g, GU_BLEND);
    gu_disable(g, GU_FRAGMENT_2X);
    psp_identity_matrices(g);
    gu_tex_mode(g, GU_PSM_8888, 0, 0, 0);
    gu_tex_func(g, GU_TFX_REPLACE, GU_TCC_RGBA);
    gu_finish(g);
    gu_sync(g);
}

void filt_start_frame(struct filt_env *e) { gu_start(&e->g, GU_DIRECT, e->list); }

void filt_end_frame(struct filt_env *e)
{
    gu_finish(&e->g);
    gu_sync(&e->g);
}

void filt_clear(struct filt_env *e, uint32_t c)
{
    if (!e->read_full) {
        psp_write32(e->p, e->copybuf, c);
        psp_dmac_memcpy(e->p, PSP_EDRAM, e->copybuf, 512 * 4);
        return;
    }
    for (uint32_t i = 0; i < 512 * 272; i++) e->host[i] = c; /* the CPU's fill of copybuf */
    psp_write(e->p, e->copybuf, e->host, sizeof e->host);
    psp_dmac_memcpy(e->p, PSP_EDRAM, e->copybuf, 512 * 272 * 4);
    e->buf_dirty = false;
}

uint32_t filt_read(struct filt_env *e)
{
    psp_dmac_memcpy(e->p, e->copybuf, PSP_EDRAM, 512 * 4);
    return psp_read32(e->p, e->copybuf);
}

uint32_t filt_read_full(struct filt_env *e, int x, int y)
{
    if (e->buf_dirty) {
        psp_dmac_memcpy(e->p, e->copybuf, PSP_EDRAM, 512 * 272 * 4);
        psp_read(e->p, e->copybuf, e->host, sizeof e->host);
        e->buf_dirty = false;
    }
    return e->host[512 * y + x]; /* copybuf as the CPU reads it (little endian, as the host) */
}

void filt_display(struct filt_env *e, const char *title)
{
    psp_checkpoint(e->p, "%s: COLOR=%08x", title, filt_read(e));
    filt_clear(e, 0x44444444);
}
