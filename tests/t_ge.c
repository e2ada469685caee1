/* Command processor state: the command table, matrix uploads and their
 * counters, vertex and index addresses advancing across kicks, CLUT loads,
 * TEXFLUSH, and register storage. */
#include <string.h>

#include "gehelp.h"
#include "test.h"

TEST(ge_cmd_table_complete)
{
    /* 256 named entries, names unique; flow control and kicks have handlers. */
    for (int i = 0; i < 256; i++) {
        CHECK_MSG(ge_cmd_table[i].name && ge_cmd_table[i].name[0], "command 0x%02x has no name", i);
        for (int j = 0; j < i; j++)
            CHECK_MSG(strcmp(ge_cmd_table[i].name, ge_cmd_table[j].name) != 0, "0x%02x and 0x%02x share %s", i, j,
                      ge_cmd_table[i].name);
    }
    const unsigned flow[] = {GE_JUMP, GE_BJUMP, GE_CALL, GE_RET, GE_END, GE_SIGNAL, GE_FINISH};
    for (size_t i = 0; i < sizeof flow / sizeof flow[0]; i++) CHECK(ge_cmd_table[flow[i]].flags & GE_CF_FLOW);
    const unsigned kick[] = {GE_PRIM, GE_BEZIER, GE_SPLINE, GE_BBOX, GE_TRX_KICK, GE_LOAD_CLUT};
    for (size_t i = 0; i < sizeof kick / sizeof kick[0]; i++)
        CHECK(ge_cmd_table[kick[i]].run != NULL && (ge_cmd_table[kick[i]].flags & GE_CF_KICK));
    CHECK_EQ_S(ge_cmd_table[0xEA].name, "TRX_KICK");
    CHECK(ge_cmd_table[0x03].flags & GE_CF_UNUSED);
}

TEST(ge_power_on_and_register_storage)
{
    struct gehelp h;
    struct gt_diag d = {0};
    gh_init(&h);
    for (unsigned c = 0; c < 256; c++) CHECK_EQ_U(h.r.ge.st.reg[c], c << 24);
    /* Every state command stores its whole word, the unused ones too. */
    struct dl l;
    dl_init(&l);
    dl_cmd(&l, GE_FB_PTR, 0x088000);
    dl_cmd(&l, 0xFA, 0xABCDEF);
    dl_cmd(&l, GE_MASK_RGB, 0x00FF00);
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    CHECK_EQ_U(h.r.ge.st.reg[GE_FB_PTR], 0x9C088000u);
    CHECK_EQ_U(h.r.ge.st.reg[0xFA], 0xFAABCDEFu);
    CHECK_EQ_U(h.r.ge.st.reg[GE_MASK_RGB], 0xE800FF00u);
    CHECK_EQ_U(ge_fb_addr(&h.r.ge.st), 0x04088000u);
    dl_free(&l);
    gh_free(&h);
}

TEST(ge_matrix_uploads)
{
    struct gehelp h;
    struct gt_diag d = {0};
    gh_init(&h);
    struct dl l;
    dl_init(&l);
    dl_cmd(&l, GE_WORLD_NUM, 0);
    for (uint32_t i = 0; i < 13; i++) dl_cmd(&l, GE_WORLD_DATA, 0x3F8000 + i); /* 13th is past the end */
    dl_cmd(&l, GE_VIEW_NUM, 0x15);          /* index field is 4 bits: 5 */
    dl_cmd(&l, GE_VIEW_DATA, 0x400000);
    dl_cmd(&l, GE_PROJ_NUM, 14);
    for (int i = 0; i < 4; i++) dl_cmd(&l, GE_PROJ_DATA, 0x111111 * (uint32_t)(i + 1));
    dl_cmd(&l, GE_TGEN_NUM, 11);
    dl_cmd(&l, GE_TGEN_DATA, 0xBF8000);
    dl_cmd(&l, GE_BONE_NUM, 0xDF);          /* 7 bits: 0x5F = 95, the last bone word */
    dl_cmd(&l, GE_BONE_DATA, 0x123456);
    dl_cmd(&l, GE_BONE_DATA, 0x654321);     /* 96: past the end, dropped */
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    const struct ge_state *st = &h.r.ge.st;
    for (uint32_t i = 0; i < 12; i++) CHECK_EQ_U(st->world[i], (0x3F8000u + i) << 8);
    CHECK_EQ_U(st->world_num, 13);
    CHECK_EQ_U(st->view[5], 0x40000000u);
    CHECK_EQ_U(st->view_num, 6);
    CHECK_EQ_U(st->proj[14], 0x11111100u);
    CHECK_EQ_U(st->proj[15], 0x22222200u);
    CHECK_EQ_U(st->proj_num, 16); /* the projection counter stops at 16 */
    CHECK_EQ_U(st->tgen[11], 0xBF800000u);
    CHECK_EQ_U(st->bone[95], 0x12345600u);
    CHECK_EQ_U(st->bone_num, 97);
    for (int i = 0; i < 95; i++) CHECK_EQ_U(st->bone[i], 0);
    dl_free(&l);
    gh_free(&h);
}

TEST(ge_vertex_sizes)
{
    /* Sizes worked out by hand from the component rules: order weights,
     * texture coordinates, color, normal, position; each component aligned to
     * its element size, the vertex to its largest element. */
    CHECK_EQ_U(ge_vertex_size(3u << 7), 12);                       /* float position */
    CHECK_EQ_U(ge_vertex_size(1u << 7), 3);                        /* s8 position */
    CHECK_EQ_U(ge_vertex_size(2u << 7), 6);                        /* s16 position */
    CHECK_EQ_U(ge_vertex_size(2u | 7u << 2 | 3u << 7), 20);        /* u16 uv 4 + 8888 4 + float pos 12 */
    CHECK_EQ_U(ge_vertex_size(1u | 4u << 2 | 1u << 7), 8);         /* u8 uv 2 + 565 2 (at 2) + s8 pos 3 (at 4) = 7 -> 8 */
    CHECK_EQ_U(ge_vertex_size(1u << 9 | 2u << 14 | 2u << 7), 10);  /* 3 u8 weights, s16 pos at 4 = 10 */
    CHECK_EQ_U(ge_vertex_size(3u << 9 | 1u << 5 | 3u << 7), 20);   /* float weight 4, s8 normal 3 at 4, float pos at 8 */
    CHECK_EQ_U(ge_vertex_size(2u << 7 | 1u << 18), 12);            /* 2 morph targets of 6 */
    CHECK_EQ_U(ge_vertex_size(0), 3);                              /* no position: sized like s8 */
    CHECK_EQ_U(ge_vertex_size(1u << 2 | 3u << 7), 12);             /* color format 1: no bytes */
    CHECK_EQ_U(ge_vertex_size(2u << 9 | 2u << 14 | 3u | 3u << 7), 28); /* 3 u16 weights 6, float uv at 8, pos at 16 */
    CHECK_EQ_U(ge_index_size(0), 0);
    CHECK_EQ_U(ge_index_size(1u << 11), 1);
    CHECK_EQ_U(ge_index_size(2u << 11), 2);
    CHECK_EQ_U(ge_index_size(3u << 11), 4);
}

TEST(ge_addresses_advance_across_kicks)
{
    struct gehelp h;
    struct gt_diag d = {0};
    gh_init(&h);
    struct dl l;
    dl_init(&l);
    dl_cmd(&l, GE_BASE, 0x080000);
    dl_cmd(&l, GE_VTYPE, 2u | 7u << 2 | 3u << 7);  /* 20-byte vertices */
    dl_cmd(&l, GE_VADDR, 0x200000);
    dl_cmd(&l, GE_PRIM, 3u << 16 | 3);            /* 3 vertices */
    dl_cmd(&l, GE_PRIM, 3u << 16 | 6);            /* 6 more */
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    CHECK_EQ_U(h.r.ge.st.vaddr, 0x08200000u + 9 * 20);
    CHECK_EQ_U(h.r.ge.stats.draws, 2);
    dl_free(&l);

    dl_init(&l);
    dl_cmd(&l, GE_BASE, 0x080000);
    dl_cmd(&l, GE_VTYPE, 2u << 11 | 3u << 7);     /* u16 indices */
    dl_cmd(&l, GE_VADDR, 0x200000);
    dl_cmd(&l, GE_IADDR, 0x300000);
    dl_cmd(&l, GE_PRIM, 4u << 16 | 5);
    dl_cmd(&l, GE_BEZIER, 4 | 4 << 8);            /* a 4x4 patch: 16 indices */
    dl_cmd(&l, GE_BBOX, 8);                       /* a bounding box of 8 */
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    CHECK_EQ_U(h.r.ge.st.vaddr, 0x08200000u);     /* indexed: vertices stay */
    CHECK_EQ_U(h.r.ge.st.iaddr, 0x08300000u + (5 + 16 + 8) * 2);
    dl_free(&l);
    gh_free(&h);
}

TEST(ge_draw_limit_stops)
{
    struct gehelp h;
    struct gt_diag d = {0};
    gh_init(&h);
    h.r.ge.draw_limit = 2;
    struct dl l;
    dl_init(&l);
    for (int i = 1; i <= 5; i++) dl_cmd(&l, GE_PRIM, (uint32_t)i);
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    CHECK_EQ_S(gh_marks(&h), "1,2");
    CHECK(h.r.ge.stopped);
    dl_free(&l);
    gh_free(&h);
}

TEST(ge_load_clut)
{
    struct gehelp h;
    struct gt_diag d = {0};
    gh_init(&h);
    for (uint32_t i = 0; i < 2048; i++) mem_write8(&h.r.mem, 0x08400000 + i, (uint8_t)(i * 7 + 1));
    struct dl l;
    dl_init(&l);
    dl_cmd(&l, GE_CLUT_ADDR, 0x400000);
    dl_cmd(&l, GE_CLUT_ADDR_UPPER, 0x080000);
    dl_cmd(&l, GE_LOAD_CLUT, 2);                  /* 2 blocks of 32 bytes */
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    for (uint32_t i = 0; i < 64; i++) CHECK_EQ_U(h.r.ge.st.clut[i], (uint8_t)(i * 7 + 1));
    CHECK_EQ_U(h.r.ge.st.clut[64], 0);
    dl_free(&l);

    /* 0x3F blocks fill the whole 1 KiB CLUT, never more. */
    dl_init(&l);
    dl_cmd(&l, GE_LOAD_CLUT, 0x3F);
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    CHECK_EQ_U(h.r.ge.st.clut[1023], (uint8_t)(1023 * 7 + 1));
    dl_free(&l);

    /* An address with no memory behind it loads zeros (GE-HARDWARE.md §7). */
    dl_init(&l);
    dl_cmd(&l, GE_CLUT_ADDR_UPPER, 0x0C0000);
    dl_cmd(&l, GE_LOAD_CLUT, 4);
    dl_finish(&l);
    CHECK_EQ_I(gh_run(&h, &l, &d), GT_OK);
    for (uint32_t i = 0; i < 128; i++) CHECK_EQ_U(h.r.ge.st.clut[i], 0);
    CHECK_EQ_U(h.r.ge.st.clut[128], (uint8_t)(128 * 7 + 1));
    CHECK_EQ_U(h.r.ge.stats.clut_loads, 3);
    dl_free(&l);
    gh_free(&h);
}
