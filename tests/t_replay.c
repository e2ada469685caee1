/* Replay semantics on dumps the tests build: every record type, versions 2
 * to 6, unaligned data, texture address rewriting, recorded VRAM writes,
 * render-target flags, the display record and --replay-end. */
#include <stdlib.h>
#include <string.h>

#include "dlbuild.h"
#include "ge_limits.h"
#include "render.h"
#include "test.h"

static struct gt_render *replay(struct dumpb *b, uint64_t end, int expect)
{
    struct gt_render *r = malloc(sizeof *r);
    struct gt_diag d = {0};
    CHECK(r != NULL);
    CHECK_EQ_I(gt_render_init(r, &d), GT_OK);
    int rc = gt_render_replay(r, &b->d, end, &d);
    CHECK_MSG(rc == expect, "replay returned %d (%s), expected %d", rc, d.msg, expect);
    return r;
}

static void done(struct gt_render *r, struct dumpb *b)
{
    gt_render_free(r);
    free(r);
    dumpb_free(b);
}

TEST(replay_versions_round_trip)
{
    /* The sample written as every supported version parses back to the same
     * records and data, through snappy (2-4) and zstd (5-6). */
    for (uint32_t v = DUMP_MIN_VERSION; v <= DUMP_MAX_VERSION; v++) {
        struct dumpb b;
        struct dump back;
        struct gt_diag d = {0};
        uint8_t *bytes;
        size_t len;
        sample_build(&b);
        b.d.version = v;
        CHECK_EQ_I(dump_write(&b.d, &bytes, &len, &d), GT_OK);
        CHECK_EQ_I(dump_parse(bytes, len, &back, &d), GT_OK);
        CHECK_EQ_U(back.version, v);
        CHECK_EQ_S(back.game_id, v >= 4 ? "GETILE001" : "");
        CHECK_EQ_U(back.nrec, b.d.nrec);
        CHECK(back.data_size == b.d.data_size && !memcmp(back.data, b.d.data, back.data_size));
        /* The compression really differs: zstd frames start with 28 B5 2F FD. */
        size_t hdr = v >= 4 ? 24 : 12;
        bool zstd = bytes[hdr + 12] == 0x28 && bytes[hdr + 13] == 0xB5;
        CHECK_EQ_I(zstd, v >= 5);
        /* Trailing bytes (a second dump appended) are ignored. */
        uint8_t *twice = malloc(len * 2);
        memcpy(twice, bytes, len);
        memcpy(twice + len, bytes, len);
        dump_free(&back);
        CHECK_EQ_I(dump_parse(twice, len * 2, &back, &d), GT_OK);
        CHECK_EQ_U(back.nrec, b.d.nrec);
        dump_free(&back);
        free(twice);
        free(bytes);
        dumpb_free(&b);
    }
}

TEST(replay_init_restores_state)
{
    struct dumpb b;
    const uint32_t regs[] = {(uint32_t)GE_FB_PTR << 24 | 0x044000, (uint32_t)GE_FB_WIDTH << 24 | 480, (uint32_t)GE_Z_PTR << 24 | 0x088000,
                             (uint32_t)GE_MASK_ALPHA << 24 | 0x0000AB, (uint32_t)GE_BASE << 24 | 0x070000};
    dumpb_init(&b, 5);
    dumpb_init_record(&b, regs, 5);
    struct gt_render *r = replay(&b, 0, GT_OK);
    CHECK_EQ_U(r->ge.st.reg[GE_FB_PTR], (uint32_t)GE_FB_PTR << 24 | 0x044000u);
    CHECK_EQ_U(ge_fb_addr(&r->ge.st), 0x04044000u);
    CHECK_EQ_U(ge_fb_stride(&r->ge.st), 480);
    CHECK_EQ_U(ge_z_addr(&r->ge.st), 0x04088000u);
    CHECK_EQ_U(ge_reg(&r->ge.st, GE_MASK_ALPHA), 0xAB);
    /* Registers outside the saved ranges keep their power-on value. */
    CHECK_EQ_U(r->ge.st.reg[GE_TRX_KICK], (uint32_t)GE_TRX_KICK << 24);
    done(r, &b);
}

TEST(replay_vertices_and_textures_mapped)
{
    /* Data records land 16-byte aligned in RAM even when the dump stores
     * them unaligned, VADDR/TEXADDR point at them, and the dump's own texture
     * address words are replaced while its buffer widths keep their width. */
    struct dumpb b;
    uint8_t verts[36], tex[64];
    for (int i = 0; i < 36; i++) verts[i] = (uint8_t)(0xA0 + i);
    for (int i = 0; i < 64; i++) tex[i] = (uint8_t)(0x10 + i);
    dumpb_init(&b, 3);
    dumpb_init_record(&b, NULL, 0);
    dumpb_add(&b, DUMP_VERTICES, verts, sizeof verts, 3); /* 3 bytes of filler first: unaligned */
    dumpb_add(&b, DUMP_TEXTURE0, tex, sizeof tex, 1);
    struct dl l;
    dl_init(&l);
    dl_cmd(&l, GE_TEX_ADDR0, 0x123450);       /* a game address: must not survive */
    dl_cmd(&l, GE_TEX_BUFW0, 0x090000 | 64);  /* high bits replaced, width 64 kept */
    dl_cmd(&l, GE_VTYPE, 3u << 7);
    dl_cmd(&l, GE_PRIM, 3u << 16 | 3);
    dumpb_registers(&b, &l);
    dl_free(&l);
    struct gt_render *r = replay(&b, 0, GT_OK);
    uint32_t tex_addr = (ge_reg(&r->ge.st, GE_TEX_ADDR0) & 0xFFFFF0) | ((ge_reg(&r->ge.st, GE_TEX_BUFW0) << 8) & 0x0F000000);
    CHECK_EQ_U(ge_reg(&r->ge.st, GE_TEX_BUFW0) & 0xFFFF, 64);
    CHECK_MSG(tex_addr >= GT_REPLAY_ARENA_BASE && tex_addr < GT_REPLAY_ARENA_END && (tex_addr & 15) == 0,
              "texture at 0x%08x", tex_addr);
    for (int i = 0; i < 64; i++) CHECK_EQ_U(mem_read8(&r->mem, tex_addr + (uint32_t)i), tex[i]);
    /* The vertex address advanced past the 3 vertices of 12 bytes. */
    uint32_t vaddr = r->ge.st.vaddr - 36;
    CHECK_EQ_U(vaddr & 15, 0);
    for (int i = 0; i < 36; i++) CHECK_EQ_U(mem_read8(&r->mem, vaddr + (uint32_t)i), verts[i]);
    CHECK_EQ_U(r->ge.stats.draws, 1);
    CHECK_EQ_U(r->stats.prims_by_type[3], 1);
    done(r, &b);
}

TEST(replay_recorded_vram_writes)
{
    struct dumpb b;
    uint8_t blob[256], fb[64];
    for (int i = 0; i < 256; i++) blob[i] = (uint8_t)i;
    for (int i = 0; i < 64; i++) fb[i] = (uint8_t)(0xF0 - i);
    dumpb_init(&b, 6);
    dumpb_init_record(&b, NULL, 0);
    dumpb_memset(&b, 0x04001000, 0x5A, 100);
    dumpb_memcpy(&b, 0x44002000, blob, 256);                 /* uncached VRAM alias */
    dumpb_memcpy(&b, 0x08400000, blob, 256);                 /* RAM: not a VRAM write, skipped */
    dumpb_add(&b, DUMP_MEMCPYDATA, blob, 16, 0);             /* repeats the last destination (RAM): skipped */
    dumpb_framebuf(&b, 0, 0x04003000, 16, 0, fb, 64);        /* plain texture in VRAM: copied */
    dumpb_framebuf(&b, 1, 0x04004000, 16, 1, fb, 64);        /* a render target: kept as drawn */
    dumpb_framebuf(&b, 2, 0x04005000, 16, 2, fb, 64);        /* v6 "VRAM unchanged": skipped */
    struct gt_render *r = replay(&b, 0, GT_OK);
    for (uint32_t i = 0; i < 100; i++) CHECK_EQ_U(mem_read8(&r->mem, 0x04001000 + i), 0x5A);
    CHECK_EQ_U(mem_read8(&r->mem, 0x04001000 + 100), 0);
    for (uint32_t i = 0; i < 256; i++) CHECK_EQ_U(mem_read8(&r->mem, 0x04002000 + i), i);
    CHECK_EQ_U(mem_read8(&r->mem, 0x08400010), 0);
    for (uint32_t i = 0; i < 64; i++) {
        CHECK_EQ_U(mem_read8(&r->mem, 0x04003000 + i), 0xF0 - i);
        CHECK_EQ_U(mem_read8(&r->mem, 0x04004000 + i), 0);
        CHECK_EQ_U(mem_read8(&r->mem, 0x04005000 + i), 0);
    }
    CHECK_EQ_U(r->stats.vram_writes, 3);
    done(r, &b);
}

TEST(replay_memcpy_without_destination)
{
    /* Old dumps carry MEMCPYDATA with no MEMCPYDEST before it (a recorder
     * bug): there is no destination, so the data is skipped. */
    struct dumpb b;
    uint8_t blob[64];
    memset(blob, 0x77, sizeof blob);
    dumpb_init(&b, 2);
    dumpb_init_record(&b, NULL, 0);
    dumpb_add(&b, DUMP_MEMCPYDATA, blob, 64, 0);
    struct gt_render *r = replay(&b, 0, GT_OK);
    for (uint32_t i = 0; i < GT_VRAM_SIZE; i += 4096) CHECK_EQ_U(mem_read8(&r->mem, 0x04000000 + i), 0);
    CHECK_EQ_U(r->stats.skipped_writes, 1);
    done(r, &b);
}

TEST(replay_clut_records)
{
    struct dumpb b;
    uint8_t clut[64];
    for (int i = 0; i < 64; i++) clut[i] = (uint8_t)(i * 3);
    dumpb_init(&b, 6);
    dumpb_init_record(&b, NULL, 0);
    /* A CLUT at its real VRAM address is written there... */
    dumpb_clutaddr(&b, 0x04100000, 0);
    dumpb_add(&b, DUMP_CLUT, clut, 64, 0);
    /* ...unless it is a render target... */
    dumpb_clutaddr(&b, 0x04110000, 1);
    dumpb_add(&b, DUMP_CLUT, clut, 64, 0);
    /* ...or an address that only meant something in the game. */
    dumpb_clutaddr(&b, 0x0C000000, 0);
    dumpb_add(&b, DUMP_CLUT, clut, 64, 0);
    /* Without CLUTADDR the data goes to RAM and the CLUT address points there. */
    dumpb_add(&b, DUMP_CLUT, clut, 64, 5);
    struct dl l;
    dl_init(&l);
    dl_cmd(&l, GE_LOAD_CLUT, 2);
    dumpb_registers(&b, &l);
    dl_free(&l);
    struct gt_render *r = replay(&b, 0, GT_OK);
    for (uint32_t i = 0; i < 64; i++) {
        CHECK_EQ_U(mem_read8(&r->mem, 0x04100000 + i), i * 3);
        CHECK_EQ_U(mem_read8(&r->mem, 0x04110000 + i), 0);
        CHECK_EQ_U(r->ge.st.clut[i], i * 3);
    }
    done(r, &b);
}

TEST(replay_display_and_edram)
{
    struct dumpb b;
    uint8_t v[4] = {0x00, 0x02, 0, 0};
    dumpb_init(&b, 6);
    dumpb_init_record(&b, NULL, 0);
    dumpb_display(&b, 0x04088000, 512, 3);
    dumpb_add(&b, DUMP_EDRAMTRANS, v, 4, 0);
    dumpb_display(&b, 0x00044000, 480, 1); /* no high byte: a VRAM offset */
    struct gt_render *r = replay(&b, 0, GT_OK);
    CHECK_EQ_U(r->display.addr, 0x04044000u);
    CHECK_EQ_U(r->display.stride, 480);
    CHECK_EQ_U(r->display.format, 1);
    CHECK_EQ_U(r->mem.edram_trans, 0x200);
    done(r, &b);
}

TEST(replay_end_stops_after_n_draws)
{
    struct dumpb b;
    dumpb_init(&b, 6);
    dumpb_init_record(&b, NULL, 0);
    for (int i = 0; i < 5; i++) {
        struct dl l;
        dl_init(&l);
        dl_cmd(&l, GE_VTYPE, 3u << 7);
        dl_cmd(&l, GE_PRIM, 3u << 16 | 0);
        dumpb_registers(&b, &l);
        dl_free(&l);
        dumpb_memset(&b, 0x04000000 + (uint32_t)i * 16, (uint8_t)(i + 1), 16);
    }
    struct gt_render *r = replay(&b, 3, GT_OK);
    CHECK_EQ_U(r->ge.stats.draws, 3);
    /* Records after the third draw are not replayed: memsets 0-1 ran, 3-4 did not. */
    CHECK_EQ_U(mem_read8(&r->mem, 0x04000000), 1);
    CHECK_EQ_U(mem_read8(&r->mem, 0x04000010), 2);
    CHECK_EQ_U(mem_read8(&r->mem, 0x04000030), 0);
    CHECK_EQ_U(mem_read8(&r->mem, 0x04000040), 0);
    done(r, &b);
}

TEST(replay_transfer_source)
{
    /* TRANSFERSRC: the data goes to RAM and the transfer source registers
     * point at it, keeping the stride already set. */
    struct dumpb b;
    uint32_t px[8 * 2];
    for (int i = 0; i < 16; i++) px[i] = 0xC0DE0000u + (uint32_t)i;
    dumpb_init(&b, 4);
    dumpb_init_record(&b, NULL, 0);
    struct dl l;
    dl_init(&l);
    dl_cmd(&l, GE_TRX_SRC_W, 8);
    dumpb_registers(&b, &l);
    dl_free(&l);
    dumpb_add(&b, DUMP_TRANSFERSRC, px, sizeof px, 2);
    dl_init(&l);
    dl_cmd(&l, GE_TRX_DST, 0x010000);
    dl_cmd(&l, GE_TRX_DST_W, 0x040000 | 8);
    dl_cmd(&l, GE_TRX_SIZE, 7 | 1 << 10);
    dl_cmd(&l, GE_TRX_KICK, 1);
    dumpb_registers(&b, &l);
    dl_free(&l);
    struct gt_render *r = replay(&b, 0, GT_OK);
    for (uint32_t i = 0; i < 16; i++) CHECK_EQ_U(mem_read32(&r->mem, 0x04010000 + i * 4), 0xC0DE0000u + i);
    done(r, &b);
}

TEST(replay_init_older_matrix_form)
{
    /* Some version 2 and 3 dumps store the matrices after the registers as a
     * LOADCLUT word, the five upload counters, then IEEE floats. Build that
     * form by hand: the registers (word 17 on) as the builder writes them,
     * then the older tail, and check every matrix lands. */
    struct dumpb b;
    dumpb_init(&b, 3);
    dumpb_init_record(&b, NULL, 0);
    uint8_t *p = b.d.data + b.d.rec[0].offset;
    uint32_t w = 17 + 209; /* words of the saved register ranges */
    const uint32_t tail_head[] = {(uint32_t)GE_LOAD_CLUT << 24 | 2, (uint32_t)GE_BONE_NUM << 24 | 0x24, (uint32_t)GE_WORLD_NUM << 24 | 12,
                                  (uint32_t)GE_VIEW_NUM << 24 | 12, (uint32_t)GE_PROJ_NUM << 24 | 16, (uint32_t)GE_TGEN_NUM << 24 | 1};
    for (int i = 0; i < 6; i++, w++)
        for (int k = 0; k < 4; k++) p[4 * w + (uint32_t)k] = (uint8_t)(tail_head[i] >> (8 * k));
    for (uint32_t i = 0; i < 96 + 12 + 12 + 16 + 12; i++, w++) {
        float f = (float)i + 0.5f; /* exactly representable in 24 bits */
        uint32_t u;
        memcpy(&u, &f, 4);
        for (int k = 0; k < 4; k++) p[4 * w + (uint32_t)k] = (uint8_t)(u >> (8 * k));
    }
    struct gt_render *r = replay(&b, 0, GT_OK);
    float f;
    memcpy(&f, &r->ge.st.bone[95], 4);
    CHECK(f == 95.5f);
    memcpy(&f, &r->ge.st.world[0], 4);
    CHECK(f == 96.5f);
    memcpy(&f, &r->ge.st.proj[15], 4);
    CHECK(f == 96 + 12 + 12 + 15 + 0.5f);
    memcpy(&f, &r->ge.st.tgen[11], 4);
    CHECK(f == 147.5f);
    CHECK_EQ_U(r->ge.st.bone_num, 0x24);
    CHECK_EQ_U(r->ge.st.proj_num, 0);   /* 16 & 0xF: the saved index field is 4 bits */
    CHECK_EQ_U(r->ge.st.tgen_num, 1);
    CHECK_EQ_U(r->ge.st.reg[GE_LOAD_CLUT], (uint32_t)GE_LOAD_CLUT << 24 | 2u);
    done(r, &b);
}

TEST(replay_arena_recycles_when_full)
{
    /* More texture data than RAM holds: arena halves are recycled (all
     * earlier drawing has run), and the latest texture is still right. */
    struct dumpb b;
    const uint32_t size = 1u << 20, n = (GT_REPLAY_ARENA_END - GT_REPLAY_ARENA_BASE) / (1u << 20) + 4;
    uint8_t *tex = malloc(size);
    CHECK(tex != NULL);
    dumpb_init(&b, 6);
    dumpb_init_record(&b, NULL, 0);
    for (uint32_t i = 0; i < n; i++) {
        memset(tex, (int)(i & 0xFF), size);
        dumpb_add(&b, DUMP_TEXTURE0, tex, size, 0);
        struct dl l;
        dl_init(&l);
        dl_cmd(&l, GE_TEX_FLUSH, 0);
        dumpb_registers(&b, &l);
        dl_free(&l);
    }
    struct gt_render *r = replay(&b, 0, GT_OK);
    /* The arena is used in halves: each holds `per` of these records. */
    const uint32_t half = (GT_REPLAY_ARENA_END - GT_REPLAY_ARENA_BASE) / 2 & ~15u, per = half / size;
    CHECK_EQ_U(r->stats.arena_resets, (n - 1) / per);
    uint32_t a = (ge_reg(&r->ge.st, GE_TEX_ADDR0) & 0xFFFFF0) | ((ge_reg(&r->ge.st, GE_TEX_BUFW0) << 8) & 0x0F000000);
    CHECK_EQ_U(mem_read8(&r->mem, a), (n - 1) & 0xFF);
    CHECK_EQ_U(mem_read8(&r->mem, a + size - 1), (n - 1) & 0xFF);
    CHECK_EQ_U(r->ge.stats.texflushes, n);
    free(tex);
    done(r, &b);
}

TEST(replay_budget_spans_records)
{
    /* The step budget covers the whole replayed list: 100 records of 20
     * words each (2000 steps) stop a budget of 1000, though no single
     * record comes near it. */
    struct dumpb b;
    dumpb_init(&b, 6);
    dumpb_init_record(&b, NULL, 0);
    for (int i = 0; i < 100; i++) {
        struct dl l;
        dl_init(&l);
        for (int k = 0; k < 20; k++) dl_cmd(&l, GE_NOP, 0);
        dumpb_registers(&b, &l);
        dl_free(&l);
    }
    struct gt_render *r = malloc(sizeof *r);
    struct gt_diag d = {0};
    CHECK(r && gt_render_init(r, &d) == GT_OK);
    r->ge.step_budget = 1000;
    CHECK_EQ_I(gt_render_replay(r, &b.d, 0, &d), GT_ESTEP_LIMIT);
    CHECK(r->stats.records < 60);
    r->ge.step_budget = 0;
    done(r, &b);
}
