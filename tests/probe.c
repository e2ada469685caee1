/* The probe tests' shared harness: see probe.h. */
#include "probe.h"

#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "vdecode.h"

const float pb_id43[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
const float pb_id44[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

void pb_upload(struct pb *t, unsigned num_cmd, const float *m, unsigned n)
{
    pb_cmd(t, num_cmd, 0);
    for (unsigned i = 0; i < n; i++) pb_cmdf(t, num_cmd + 1, m[i]);
}

void pb_matrices(struct pb *t, const float world[12], const float view[12], const float proj[16])
{
    pb_upload(t, GE_WORLD_NUM, world, 12);
    pb_upload(t, GE_VIEW_NUM, view, 12);
    /* Clip x and y scaled down by PB_CLIP_XY_SCALE (pb_viewport scales
     * them back up): exact, and keeps |x|, |y| <= w for on-screen vertices. */
    float p[16];
    for (int i = 0; i < 16; i++) p[i] = (i % 4) < 2 ? proj[i] / PB_CLIP_XY_SCALE : proj[i];
    pb_upload(t, GE_PROJ_NUM, p, 16);
}

void pb_viewport(struct pb *t, float sx, float sy, float sz, float cx, float cy, float cz)
{
    pb_cmdf(t, R_VIEWPORT_SX, sx * PB_CLIP_XY_SCALE);
    pb_cmdf(t, R_VIEWPORT_SY, sy * PB_CLIP_XY_SCALE);
    pb_cmdf(t, R_VIEWPORT_SZ, sz);
    pb_cmdf(t, R_VIEWPORT_CX, cx);
    pb_cmdf(t, R_VIEWPORT_CY, cy);
    pb_cmdf(t, R_VIEWPORT_CZ, cz);
}

void pb_offset16(struct pb *t, uint32_t ox16, uint32_t oy16)
{
    pb_cmd(t, GE_OFFSET_X, ox16);
    pb_cmd(t, GE_OFFSET_Y, oy16);
}

void pb_init(struct pb *t, float vp_sz)
{
    struct gt_diag d = {0};
    t->r = calloc(1, sizeof *t->r);
    CHECK(t->r != NULL);
    CHECK_EQ_I(gt_render_init(t->r, &d), GT_OK);
    dl_init(&t->l);
    t->vnext = PB_VB;
    pb_state(&t->l, 0, 512);
    pb_cmd(t, GE_MIN_Z, 0);
    pb_cmd(t, GE_MAX_Z, 0xFFFF);
    pb_cmd(t, GE_DEPTHCLIP_ON, 0);
    pb_cmd(t, GE_CULL_ON, 0);
    pb_viewport(t, 1, 1, vp_sz, 2048, 2048, 32768);
    pb_offset16(t, 2048 * 16, 2048 * 16);
}

void pb_depth_always(struct pb *t)
{
    pb_cmd(t, GE_ZTEST_ON, 1);
    pb_cmd(t, GE_Z_TEST, 1);
    pb_cmd(t, GE_Z_WRITE_DISABLE, 0);
}

void pb_texture_nearest(struct pb *t, uint32_t addr, unsigned lg, uint32_t wrap)
{
    pb_cmd(t, GE_TEXTURE_ON, 1);
    pb_cmd(t, GE_TEX_ADDR0, addr & 0xFFFFF0);
    pb_cmd(t, GE_TEX_BUFW0, (1u << lg) | ((addr >> 24) & 0xF) << 16);
    pb_cmd(t, GE_TEX_SIZE0, lg | lg << 8);
    pb_cmd(t, GE_TEX_FORMAT, 3);
    pb_cmd(t, GE_TEX_MODE, 0);
    pb_cmd(t, GE_TEX_FILTER, 0);
    pb_cmd(t, GE_TEX_WRAP, wrap);
    pb_cmd(t, GE_TEX_LEVEL, 0);
    pb_cmd(t, GE_TEX_FUNC, 3 | 1u << 8);
    pb_cmd(t, GE_TEX_MAPMODE, 0);
    pb_cmd(t, GE_TEX_FLUSH, 0);
}

void pb_free(struct pb *t)
{
    dl_free(&t->l);
    gt_render_free(t->r);
    free(t->r);
    t->r = NULL;
}

void pb_emit_prim(struct pb *t, uint32_t vtype, uint32_t addr, unsigned type, unsigned n)
{
    pb_cmd(t, GE_VTYPE, vtype);
    pb_cmd(t, GE_BASE, (addr >> 8) & 0x0F0000);
    pb_cmd(t, GE_VADDR, addr & 0xFFFFFF);
    pb_cmd(t, GE_PRIM, type << 16 | n);
    pb_cmd(t, GE_BASE, 0x080000);
}

/* Writes the finished list l at PB_LIST and runs it. */
static void run_finished(struct gt_render *r, const struct dl *l)
{
    struct gt_diag d = {0};
    CHECK(l->n * 4 < PB_VB - PB_LIST);
    for (size_t i = 0; i < l->n; i++) mem_write32(&r->mem, PB_LIST + 4 * (uint32_t)i, l->w[i]);
    int rc = gt_render_list(r, PB_LIST, &d);
    CHECK_MSG(rc == GT_OK, "gt_render_list: %d %s", rc, d.msg);
}

void pb_run(struct pb *t)
{
    dl_finish(&t->l);
    CHECK(t->l.err == 0);
    run_finished(t->r, &t->l);
    t->l.n = 0;
}

struct gt_render *pb_new(unsigned threads, unsigned tile)
{
    struct gt_diag d = {0};
    struct gt_render *r = calloc(1, sizeof *r);
    CHECK(r != NULL);
    CHECK_EQ_I(gt_render_init(r, &d), GT_OK);
    CHECK_EQ_I(gt_render_set_threads(r, threads, tile, &d), GT_OK);
    return r;
}

void pb_delete(struct gt_render *r)
{
    gt_render_free(r);
    free(r);
}

void pb_state(struct dl *l, uint32_t fb, uint32_t stride)
{
    dl_cmd(l, GE_BASE, 0x080000);
    dl_cmd(l, GE_FB_PTR, fb & 0xFFFFFF);
    dl_cmd(l, GE_FB_WIDTH, stride);
    dl_cmd(l, GE_FB_FORMAT, 3);
    dl_cmd(l, GE_Z_PTR, PB_ZOFF);
    dl_cmd(l, GE_Z_WIDTH, 512);
    dl_cmd(l, GE_SCISSOR1, 0);
    dl_cmd(l, GE_SCISSOR2, 479 | 271u << 10);
    dl_cmd(l, GE_REGION1, 0);
    dl_cmd(l, GE_REGION2, 1023 | 1023u << 10);
    dl_cmd(l, GE_SHADEMODE, 1);
}

void pb_run_list(struct gt_render *r, struct dl *l)
{
    dl_finish(l);
    run_finished(r, l);
}

uint32_t pb_f32bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

void pb_put_vertex(struct gt_render *r, uint32_t addr, uint32_t vtype, unsigned i, int x, int y, int z, float u,
                   float v, uint32_t rgba)
{
    struct gt_vlayout lay;
    vdec_layout(vtype, &lay);
    uint32_t b = addr + i * lay.stride;
    if ((vtype & 3) == 3) {
        mem_write32(&r->mem, b + lay.off_tc, pb_f32bits(u));
        mem_write32(&r->mem, b + lay.off_tc + 4, pb_f32bits(v));
    } else {
        mem_write16(&r->mem, b + lay.off_tc, (uint16_t)(int32_t)u);
        mem_write16(&r->mem, b + lay.off_tc + 2, (uint16_t)(int32_t)v);
    }
    mem_write32(&r->mem, b + lay.off_col, rgba);
    mem_write16(&r->mem, b + lay.off_pos, (uint16_t)(int16_t)x);
    mem_write16(&r->mem, b + lay.off_pos + 2, (uint16_t)(int16_t)y);
    mem_write16(&r->mem, b + lay.off_pos + 4, (uint16_t)z);
}

int64_t pb_cross3(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t cx, int64_t cy)
{
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

bool pb_tri_cov(const int64_t X[3], const int64_t Y[3], int64_t sx, int64_t sy)
{
    int64_t area = pb_cross3(X[0], Y[0], X[1], Y[1], X[2], Y[2]);
    if (area == 0) return false;
    int64_t sg = area > 0 ? 1 : -1;
    for (int i = 0; i < 3; i++) {
        int64_t px = X[i], py = Y[i], qx = X[(i + 1) % 3], qy = Y[(i + 1) % 3];
        int64_t f = sg * pb_cross3(px, py, qx, qy, sx, sy);
        if (f == 0) f = sg * -(qy - py);
        if (f == 0) f = sg * (qx - px);
        if (f <= 0) return false;
    }
    return true;
}
