/* Primitive assembly: every PRIM type, "keep previous" continuing pending
 * vertices across kicks, culling by winding (strips flip, fans do not),
 * zero-area triangles, the guard-band discard and the provoking vertex.
 * Vertices are through-mode s16 pixels, so screen positions are exact. */
#include <string.h>

#include "assemble.h"
#include "gehelp.h"
#include "test.h"

#define VB 0x08200000u

struct got {
    struct gt_prim p[64];
    unsigned n;
};

static int collect(void *ctx, const struct gt_prim *p, struct gt_diag *d)
{
    struct got *g = ctx;
    if (g->n < 64) g->p[g->n++] = *p;
    return GT_OK;
}

/* Writes vertices (x, y) as through-mode s16 positions at VB. */
static void verts(struct gehelp *h, const int16_t (*xy)[2], unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        mem_write16(&h->r.mem, VB + i * 6, (uint16_t)xy[i][0]);
        mem_write16(&h->r.mem, VB + i * 6 + 2, (uint16_t)xy[i][1]);
        mem_write16(&h->r.mem, VB + i * 6 + 4, (uint16_t)i); /* z = vertex number */
    }
    h->r.ge.st.reg[GE_VTYPE] = (uint32_t)GE_VTYPE << 24 | 1u << 23 | 2u << 7;
    h->r.ge.st.vaddr = VB;
}

static void prim(struct gehelp *h, struct gt_asm *a, unsigned type, unsigned count, unsigned first, struct got *g)
{
    struct gt_diag d = {0};
    h->r.ge.st.vaddr = VB + first * 6;
    CHECK_EQ_I(asm_prim(a, &h->r.ge.st, &h->r.mem, (uint32_t)GE_PRIM << 24 | type << 16 | count, collect, g, &d), GT_OK);
}

/* "z0,z1,z2;..." : each primitive's vertices by number (their z). */
static const char *seq(const struct got *g)
{
    static char buf[1024];
    size_t n = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < g->n; i++)
        for (unsigned k = 0; k < g->p[i].nv; k++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%u%s", g->p[i].v[k].z,
                                  k + 1 < g->p[i].nv ? "," : (i + 1 < g->n ? ";" : ""));
    return buf;
}

static const int16_t grid[8][2] = {{0, 0}, {10, 0}, {0, 10}, {10, 10}, {0, 20}, {10, 20}, {0, 30}, {10, 30}};

TEST(assemble_types)
{
    struct gehelp h;
    struct gt_asm a;
    gh_init(&h);
    verts(&h, grid, 8);
    struct got g = {0};
    asm_init(&a);
    prim(&h, &a, 0, 3, 0, &g);           /* points */
    CHECK_EQ_S(seq(&g), "0;1;2");
    g.n = 0;
    prim(&h, &a, 1, 5, 0, &g);           /* lines: 2 and one pending */
    CHECK_EQ_S(seq(&g), "0,1;2,3");
    g.n = 0;
    prim(&h, &a, 2, 4, 0, &g);           /* line strip */
    CHECK_EQ_S(seq(&g), "0,1;1,2;2,3");
    g.n = 0;
    prim(&h, &a, 3, 7, 0, &g);           /* triangles: 2, one pending */
    CHECK_EQ_S(seq(&g), "0,1,2;3,4,5");
    CHECK_EQ_U(g.p[0].provoking, 2);
    g.n = 0;
    prim(&h, &a, 6, 4, 0, &g);           /* rectangles */
    CHECK_EQ_S(seq(&g), "0,1;2,3");
    CHECK(g.p[0].kind == GT_RECT && g.p[0].provoking == 1);
    CHECK_EQ_U(a.stats.emitted[GT_POINT], 3);
    CHECK_EQ_U(a.stats.emitted[GT_LINE], 5);
    gh_free(&h);
}

TEST(assemble_strips_and_fans)
{
    struct gehelp h;
    struct gt_asm a;
    gh_init(&h);
    verts(&h, grid, 8);
    struct got g = {0};
    asm_init(&a);
    prim(&h, &a, 4, 6, 0, &g);           /* strip of 4 triangles */
    CHECK_EQ_S(seq(&g), "0,1,2;1,2,3;2,3,4;3,4,5");
    g.n = 0;
    prim(&h, &a, 5, 5, 0, &g);           /* fan */
    CHECK_EQ_S(seq(&g), "0,1,2;0,2,3;0,3,4");
    gh_free(&h);
}

TEST(assemble_keep_previous_continues)
{
    /* Type 7 continues the previous type with its pending vertices: a strip
     * split over two kicks gives the same triangles as one kick; a triangle
     * list's leftover two vertices complete with the next kick's first. */
    struct gehelp h;
    struct gt_asm a;
    gh_init(&h);
    verts(&h, grid, 8);
    struct got g = {0};
    asm_init(&a);
    prim(&h, &a, 4, 3, 0, &g);
    prim(&h, &a, 7, 3, 3, &g);
    CHECK_EQ_S(seq(&g), "0,1,2;1,2,3;2,3,4;3,4,5");
    g.n = 0;
    prim(&h, &a, 3, 2, 0, &g);
    CHECK_EQ_S(seq(&g), "");
    prim(&h, &a, 7, 4, 2, &g);
    CHECK_EQ_S(seq(&g), "0,1,2;3,4,5");
    /* A new type drops what was pending. */
    g.n = 0;
    prim(&h, &a, 3, 2, 0, &g);
    prim(&h, &a, 3, 3, 5, &g);
    CHECK_EQ_S(seq(&g), "5,6,7");
    gh_free(&h);
}

TEST(assemble_culling)
{
    /* Triangle (0,0) (10,0) (0,10): with y down its area term
     * (x1-x0)(y2-y0) - (y1-y0)(x2-x0) is +100. CULL_FACE 1 keeps area >= 0,
     * CULL_FACE 0 keeps area <= 0. */
    struct gehelp h;
    struct gt_asm a;
    gh_init(&h);
    verts(&h, grid, 8);
    struct got g = {0};
    asm_init(&a);
    h.r.ge.st.reg[GE_CULL_ON] = (uint32_t)GE_CULL_ON << 24 | 1;
    h.r.ge.st.reg[GE_CULL] = (uint32_t)GE_CULL << 24 | 1;
    prim(&h, &a, 3, 3, 0, &g);
    CHECK_EQ_S(seq(&g), "0,1,2");
    g.n = 0;
    h.r.ge.st.reg[GE_CULL] = (uint32_t)GE_CULL << 24;
    prim(&h, &a, 3, 3, 0, &g);
    CHECK_EQ_S(seq(&g), "");
    CHECK_EQ_U(a.stats.culled, 1);
    /* Strips alternate: (0,1,2) +, (1,2,3) -, flipped back: all drawn with
     * CULL_FACE 1 since the odd ones have their sense inverted. */
    g.n = 0;
    h.r.ge.st.reg[GE_CULL] = (uint32_t)GE_CULL << 24 | 1;
    prim(&h, &a, 4, 6, 0, &g);
    CHECK_EQ_S(seq(&g), "0,1,2;1,2,3;2,3,4;3,4,5");
    /* Fans keep one sense: (0,1,2) area +100, (0,2,3) area -100 -> culled. */
    g.n = 0;
    prim(&h, &a, 5, 4, 0, &g);
    CHECK_EQ_S(seq(&g), "0,1,2");
    /* Clear mode turns culling off. */
    g.n = 0;
    h.r.ge.st.reg[GE_CLEAR_MODE] = (uint32_t)GE_CLEAR_MODE << 24 | 1;
    h.r.ge.st.reg[GE_CULL] = (uint32_t)GE_CULL << 24;
    prim(&h, &a, 3, 3, 0, &g);
    CHECK_EQ_S(seq(&g), "0,1,2");
    gh_free(&h);
}

TEST(assemble_zero_area_dropped)
{
    static const int16_t line[3][2] = {{0, 0}, {5, 0}, {9, 0}};
    struct gehelp h;
    struct gt_asm a;
    gh_init(&h);
    verts(&h, line, 3);
    struct got g = {0};
    asm_init(&a);
    prim(&h, &a, 3, 3, 0, &g);
    CHECK_EQ_U(g.n, 0);
    CHECK_EQ_U(a.stats.culled, 1);
    gh_free(&h);
}

TEST(assemble_guard_band_discard)
{
    /* Transform mode, identity matrices and viewport scale 2048 around
     * 2048: x = 1 lands on 4096, outside; the triangle using it is dropped
     * whole, the others are kept. */
    struct gehelp h;
    struct gt_asm a;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    st->world[0] = st->world[4] = st->world[8] = GEMATH_ONE;
    st->view[0] = st->view[4] = st->view[8] = GEMATH_ONE;
    st->proj[0] = st->proj[5] = st->proj[10] = st->proj[15] = GEMATH_ONE;
    st->reg[GE_VIEWPORT_SX] = (uint32_t)GE_VIEWPORT_SX << 24 | dl_float24(2048.0f);
    st->reg[GE_VIEWPORT_SX + 1] = (uint32_t)(GE_VIEWPORT_SX + 1) << 24 | dl_float24(2048.0f);
    st->reg[GE_VIEWPORT_SX + 3] = (uint32_t)(GE_VIEWPORT_SX + 3) << 24 | dl_float24(2048.0f);
    st->reg[GE_VIEWPORT_SX + 4] = (uint32_t)(GE_VIEWPORT_SX + 4) << 24 | dl_float24(2048.0f);
    st->reg[GE_DEPTHCLIP_ON] = (uint32_t)GE_DEPTHCLIP_ON << 24 | 1;
    st->reg[GE_VTYPE] = (uint32_t)GE_VTYPE << 24 | 3u << 7;
    const float p[6][2] = {{0, 0}, {0.5f, 0}, {0, 0.5f}, {1.0f, 0}, {0, 0.25f}, {0.25f, 0.25f}};
    for (int i = 0; i < 6; i++)
        for (int k = 0; k < 2; k++) {
            uint32_t u;
            memcpy(&u, &p[i][k], 4);
            mem_write32(&h.r.mem, VB + (uint32_t)i * 12 + (uint32_t)k * 4, u);
        }
    st->vaddr = VB;
    struct got g = {0};
    struct gt_diag d = {0};
    asm_init(&a);
    CHECK_EQ_I(asm_prim(&a, st, &h.r.mem, (uint32_t)GE_PRIM << 24 | 3u << 16 | 6, collect, &g, &d), GT_OK);
    CHECK_EQ_U(g.n, 1);
    CHECK_EQ_I(g.p[0].v[1].x16, (2048 + 1024) * 16);
    CHECK_EQ_U(a.stats.discarded, 1);
    gh_free(&h);
}

/* Sets the immediate-mode position registers (1/16 pixel) and depth. */
static void imm_pos(struct ge_state *st, uint32_t x16, uint32_t y16, uint32_t z)
{
    st->reg[GE_VSCX] = (uint32_t)GE_VSCX << 24 | x16;
    st->reg[GE_VSCX + 1] = (uint32_t)(GE_VSCX + 1) << 24 | y16;
    st->reg[GE_VSCX + 2] = (uint32_t)(GE_VSCX + 2) << 24 | z;
}

TEST(assemble_immediate_vertices)
{
    /* VAP emits one vertex each; a type other than 7 starts a primitive,
     * 7 continues it. Through mode: positions relative to 2048 pixels. */
    struct gehelp h;
    struct gt_asm a;
    struct gt_diag d = {0};
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    st->reg[GE_VTYPE] = (uint32_t)GE_VTYPE << 24 | 1u << 23 | 2u << 7;
    st->reg[GE_VSCX + 6] = (uint32_t)(GE_VSCX + 6) << 24 | 0x332211;
    struct got g = {0};
    asm_init(&a);
    const uint32_t xy[4][2] = {{0x8000 + 16 * 10, 0x8000}, {0x8000 + 16 * 20, 0x8000}, {0x8000, 0x8000 + 16 * 30},
                               {0x8000 + 16 * 40, 0x8000 + 16 * 40}};
    for (int i = 0; i < 4; i++) {
        imm_pos(st, xy[i][0], xy[i][1], (uint32_t)i);
        uint32_t type = i == 0 ? 4u : 7u; /* a strip, continued */
        CHECK_EQ_I(asm_immediate(&a, st, (uint32_t)GE_VAP << 24 | type << 8 | 0x80, collect, &g, &d), GT_OK);
    }
    CHECK_EQ_S(seq(&g), "0,1,2;1,2,3");
    CHECK_EQ_I(g.p[0].v[0].x16, 160);
    CHECK_EQ_I(g.p[0].v[2].y16, 480);
    CHECK(g.p[0].v[0].color[0] == 0x11 && g.p[0].v[0].color[2] == 0x33 && g.p[0].v[0].color[3] == 0x80);
    /* Transform mode: relative to OFFSET_X/Y. */
    st->reg[GE_VTYPE] = (uint32_t)GE_VTYPE << 24 | 2u << 7;
    st->reg[GE_OFFSET_X] = (uint32_t)GE_OFFSET_X << 24 | 1808 << 4;
    st->reg[GE_OFFSET_Y] = (uint32_t)GE_OFFSET_Y << 24 | 1912 << 4;
    g.n = 0;
    imm_pos(st, (1808 + 5) << 4, (1912 + 6) << 4, 9);
    CHECK_EQ_I(asm_immediate(&a, st, (uint32_t)GE_VAP << 24 | 0u << 8, collect, &g, &d), GT_OK);
    CHECK_EQ_U(g.n, 1);
    CHECK(g.p[0].kind == GT_POINT && g.p[0].v[0].x16 == 5 * 16 && g.p[0].v[0].y16 == 6 * 16 && g.p[0].v[0].z == 9);
    gh_free(&h);
}

TEST(assemble_latches_missing_attributes)
{
    /* A vertex format without texture coordinates reuses the last ones read
     * by an earlier draw (PPSSPP's behaviour). Format 1: u16 uv + s16 pos
     * (through); format 2: s16 pos only. */
    struct gehelp h;
    struct gt_asm a;
    struct gt_diag d = {0};
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    mem_write16(&h.r.mem, VB, 7);
    mem_write16(&h.r.mem, VB + 2, 9);
    st->reg[GE_VTYPE] = (uint32_t)GE_VTYPE << 24 | 1u << 23 | 2u | 2u << 7;
    st->vaddr = VB;
    struct got g = {0};
    asm_init(&a);
    CHECK_EQ_I(asm_prim(&a, st, &h.r.mem, (uint32_t)GE_PRIM << 24 | 0u << 16 | 1, collect, &g, &d), GT_OK);
    st->reg[GE_VTYPE] = (uint32_t)GE_VTYPE << 24 | 1u << 23 | 2u << 7;
    CHECK_EQ_I(asm_prim(&a, st, &h.r.mem, (uint32_t)GE_PRIM << 24 | 0u << 16 | 1, collect, &g, &d), GT_OK);
    CHECK_EQ_U(g.n, 2);
    CHECK_EQ_U(g.p[1].v[0].uv[0], gemath_from_int(7));
    CHECK_EQ_U(g.p[1].v[0].uv[1], gemath_from_int(9));
    gh_free(&h);
}

TEST(assemble_extreme_coordinates)
{
    /* Screen coordinates at the ends of the int32 range (far-off float
     * through-mode vertices saturate) must not overflow the winding test. */
    struct gt_vout v[3];
    memset(v, 0, sizeof v);
    v[0].x16 = INT32_MIN, v[0].y16 = INT32_MIN;
    v[1].x16 = INT32_MAX, v[1].y16 = INT32_MIN;
    v[2].x16 = INT32_MIN, v[2].y16 = INT32_MAX;
    /* area = (2^32 - 1) * (2^32 - 1) > 0 */
    CHECK(asm_triangle_visible(&v[0], &v[1], &v[2], true, true, false));
    CHECK(!asm_triangle_visible(&v[0], &v[1], &v[2], true, false, false));
}

TEST(assemble_patch_normal_outlives_draw)
{
    /* A flat Bezier patch in the z = 0 plane generates normals (0, 0, +-1)
     * (lighting on makes the patch generate them); a later draw whose format
     * has no normal reuses the last one, not zero. */
    struct gehelp h;
    struct gt_asm a;
    struct gt_diag d = {0};
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    st->reg[GE_LIGHTING_ON] = (uint32_t)GE_LIGHTING_ON << 24 | 1;
    st->reg[GE_VTYPE] = (uint32_t)GE_VTYPE << 24 | 3u << 7; /* float positions */
    for (uint32_t i = 0; i < 16; i++) {
        float p[3] = {(float)(i % 4), (float)(i / 4), 0};
        for (int k = 0; k < 3; k++) {
            uint32_t u;
            memcpy(&u, &p[k], 4);
            mem_write32(&h.r.mem, VB + i * 12 + (uint32_t)k * 4, u);
        }
    }
    st->vaddr = VB;
    asm_init(&a);
    CHECK(a.last_nrm[2] == 0);
    CHECK_EQ_I(asm_patch(&a, st, &h.r.mem, (uint32_t)GE_BEZIER << 24 | 4 | 4 << 8, NULL, NULL, &d), GT_OK);
    CHECK_MSG((a.last_nrm[2] & 0x7FFFFFFFu) == GEMATH_ONE, "latched normal z 0x%08x", a.last_nrm[2]);
    CHECK_EQ_U(a.last_nrm[0], 0);
    gh_free(&h);
}
