/* BBOX: the visibility test BJUMP uses. A 480x272 screen (viewport 240 x
 * -136 around 2048, offset 2048 - 240, 2048 - 136, scissor and region
 * 0,0-479,271), identity matrices; positions in clip units. */
#include <stdlib.h>
#include <string.h>

#include "bbox.h"
#include "gehelp.h"
#include "test.h"

static void screen(struct ge_state *st)
{
    st->world[0] = st->world[4] = st->world[8] = GEMATH_ONE;
    st->view[0] = st->view[4] = st->view[8] = GEMATH_ONE;
    st->proj[0] = st->proj[5] = st->proj[10] = st->proj[15] = GEMATH_ONE;
    const float vp[6] = {240, -136, 32768, 2048, 2048, 32768};
    for (int i = 0; i < 6; i++) st->reg[GE_VIEWPORT_SX + i] = (uint32_t)(GE_VIEWPORT_SX + i) << 24 | dl_float24(vp[i]);
    st->reg[GE_OFFSET_X] = (uint32_t)GE_OFFSET_X << 24 | (2048 - 240) << 4;
    st->reg[GE_OFFSET_Y] = (uint32_t)GE_OFFSET_Y << 24 | (2048 - 136) << 4;
    st->reg[GE_REGION1] = (uint32_t)GE_REGION1 << 24;
    st->reg[GE_REGION2] = (uint32_t)GE_REGION2 << 24 | 479 | 271 << 10;
    st->reg[GE_SCISSOR1] = (uint32_t)GE_SCISSOR1 << 24;
    st->reg[GE_SCISSOR2] = (uint32_t)GE_SCISSOR2 << 24 | 479 | 271 << 10;
    st->reg[GE_VTYPE] = (uint32_t)GE_VTYPE << 24 | 3u << 7;
    st->vaddr = 0x08200000;
}

static void put(struct gehelp *h, unsigned i, float x, float y, float z)
{
    const float v[3] = {x, y, z};
    for (int k = 0; k < 3; k++) {
        uint32_t u;
        memcpy(&u, &v[k], 4);
        mem_write32(&h->r.mem, 0x08200000 + i * 12 + (uint32_t)k * 4, u);
    }
}

TEST(bbox_visibility)
{
    struct gehelp h;
    gh_init(&h);
    screen(&h.r.ge.st);
    /* Inside the screen. */
    put(&h, 0, 0, 0, 0), put(&h, 1, 0.5f, 0.5f, 0);
    CHECK(bbox_test(&h.r.ge.st, &h.r.mem, 2));
    /* Wholly left of it: x = -2 maps to 2048 - 480 = 1568 < 1807. */
    put(&h, 0, -2, 0, 0), put(&h, 1, -1.5f, 0.5f, 0);
    CHECK(!bbox_test(&h.r.ge.st, &h.r.mem, 2));
    /* Straddling the whole screen (one far left, one far right): every plane
     * has a vertex inside, so "may be visible". */
    put(&h, 0, -2, 0, 0), put(&h, 1, 2, 0, 0);
    CHECK(bbox_test(&h.r.ge.st, &h.r.mem, 2));
    /* Below it: y = -2 maps to 2048 + 272. */
    put(&h, 0, 0, -2, 0), put(&h, 1, 0.5f, -1.5f, 0);
    CHECK(!bbox_test(&h.r.ge.st, &h.r.mem, 2));
    /* Depth only counts with DEPTHCLIP: z = 2 > w. */
    put(&h, 0, 0, 0, 2), put(&h, 1, 0.5f, 0.5f, 3);
    CHECK(bbox_test(&h.r.ge.st, &h.r.mem, 2));
    h.r.ge.st.reg[GE_DEPTHCLIP_ON] = (uint32_t)GE_DEPTHCLIP_ON << 24 | 1;
    CHECK(!bbox_test(&h.r.ge.st, &h.r.mem, 2));
    gh_free(&h);
}

TEST(bbox_limits)
{
    struct gehelp h;
    gh_init(&h);
    screen(&h.r.ge.st);
    /* More than 1024 vertices: always "may be visible". */
    for (unsigned i = 0; i < 4; i++) put(&h, i, -2, 0, 0);
    CHECK(bbox_test(&h.r.ge.st, &h.r.mem, 1025));
    /* A drawing rectangle touching the 4096 limit: always visible. */
    h.r.ge.st.reg[GE_OFFSET_X] = (uint32_t)GE_OFFSET_X << 24 | 3700 << 4;
    CHECK(bbox_test(&h.r.ge.st, &h.r.mem, 2));
    /* Between 0x100 and 0x200 vertices only the first count - 0x100 are
     * tested: 0x101 -> vertex 0 alone. */
    screen(&h.r.ge.st);
    put(&h, 0, -2, 0, 0), put(&h, 1, 0, 0, 0);
    CHECK(!bbox_test(&h.r.ge.st, &h.r.mem, 0x101));
    CHECK(bbox_test(&h.r.ge.st, &h.r.mem, 0x102) == true);
    gh_free(&h);
}

TEST(bbox_drives_bjump)
{
    /* Through the command processor: BBOX of an off-screen box, then BJUMP. */
    struct gt_render *r = malloc(sizeof *r);
    struct gt_diag d = {0};
    CHECK(r && gt_render_init(r, &d) == GT_OK);
    screen(&r->ge.st);
    const float v[2][3] = {{-2, 0, 0}, {-1.5f, 0, 0}};
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 3; k++) {
            uint32_t u;
            memcpy(&u, &v[i][k], 4);
            mem_write32(&r->mem, 0x08200000 + (uint32_t)(i * 12 + k * 4), u);
        }
    struct dl l;
    dl_init(&l);
    dl_cmd(&l, GE_BASE, 0x080000);
    dl_cmd(&l, GE_VADDR, 0x200000);
    dl_cmd(&l, GE_BBOX, 2);
    dl_cmd(&l, GE_BJUMP, (LIST_ADDR & 0xFFFFFF) + 7 * 4); /* to MASK_ALPHA */
    dl_cmd(&l, GE_MASK_RGB, 1); /* skipped */
    dl_finish(&l);
    dl_cmd(&l, GE_MASK_ALPHA, 2);
    dl_finish(&l);
    for (size_t i = 0; i < l.n; i++) mem_write32(&r->mem, LIST_ADDR + 4 * (uint32_t)i, l.w[i]);
    CHECK_EQ_I(gt_render_list(r, LIST_ADDR, &d), GT_OK);
    CHECK_EQ_U(ge_reg(&r->ge.st, GE_MASK_RGB), 0);
    CHECK_EQ_U(ge_reg(&r->ge.st, GE_MASK_ALPHA), 2);
    dl_free(&l);
    gt_render_free(r);
    free(r);
}
