/* The ported pspautotests GPU programs (tests/psp/, issue 22): the words
 * the test libgu (tests/psp/gu.c) emits, checked against what pspsdk's
 * libgu sources emit (pspdev/pspsdk src/gu/, and the values
 * ../shared/pspautotests-exact/README.md records for sceGuDepthRange and
 * sceGuViewport), and the suite held to tests/psp-floor.txt: the values
 * matching the PSP's recordings and the exact screenshots, counts that only
 * ever go up. */
#include <string.h>

#include "psp/gu.h"
#include "psp/ports.h"
#include "test.h"

/* A float's GE word argument: its top 24 bits (sendCommandf). */
static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u >> 8;
}

/* Opens a list at a fresh address after gu_init. */
static uint32_t open_list(struct psp *p, struct gu *g)
{
    CHECK(psp_init(p) == 0);
    gu_init(g, p);
    uint32_t list = psp_alloc(p, 16, 4096);
    CHECK(list);
    gu_start(g, GU_DIRECT, list);
    return list;
}

/* The words from `from` on, as the list holds them. */
static void words(struct psp *p, uint32_t from, uint32_t *w, unsigned n)
{
    for (unsigned i = 0; i < n; i++) w[i] = psp_read32(p, from + 4 * i);
}

TEST(psp_gu_start_and_state_words)
{
    struct psp p;
    struct gu g;
    uint32_t list = open_list(&p, &g);
    uint32_t w[16];
    /* The first sceGuStart: dither rows, patch division 16x16, colour
     * material 7, specular 1.0, texture scale 1.0 / 1.0, then FBP and FBW
     * (README: DITH0-3 = 0x1D0C, 0xF3E2, 0x0C1D, 0xE2F3). */
    words(&p, list, w, 12);
    static const uint32_t first[12] = {
        0xE2001D0C, 0xE300F3E2, 0xE4000C1D, 0xE500E2F3, 0x36001010, 0x53000007,
        0x5B000000 | 0x3F8000, 0x48000000 | 0x3F8000, 0x49000000 | 0x3F8000, 0x9C000000, 0x9D000200,
        0,
    };
    for (int i = 0; i < 11; i++) CHECK_EQ_U(w[i], first[i]);
    uint32_t at = g.list_cur;
    gu_depth_range(&g, 65535, 0);
    gu_viewport(&g, 2048, 2048, 480, 272);
    gu_tex_image(&g, 0, 8, 8, 8, 0x08A01230);
    gu_scissor(&g, 0, 0, 480, 272);
    gu_enable(&g, GU_SCISSOR_TEST);
    words(&p, at, w, 16);
    CHECK_EQ_U(w[0], 0x44000000 | fbits(-32768.0f)); /* Z scale */
    CHECK_EQ_U(w[1], 0x47000000 | fbits(32767.0f));  /* Z centre */
    CHECK_EQ_U(w[2], 0xD6000000);                    /* MINZ 0 */
    CHECK_EQ_U(w[3], 0xD700FFFF);                    /* MAXZ 65535 */
    CHECK_EQ_U(w[4], 0x42000000 | fbits(240.0f));
    CHECK_EQ_U(w[5], 0x43000000 | fbits(-136.0f));
    CHECK_EQ_U(w[6], 0x45000000 | fbits(2048.0f));
    CHECK_EQ_U(w[7], 0x46000000 | fbits(2048.0f));
    CHECK_EQ_U(w[8], 0xA0A01230);                    /* TBP0, low 24 bits */
    CHECK_EQ_U(w[9], 0xA8080008);                    /* TBW0: address bits 24-27 (8), width 8 */
    CHECK_EQ_U(w[10], 0xB8000303);                   /* TSIZE0: 2^3 x 2^3 */
    CHECK_EQ_U(w[11], 0xCB000000);                   /* the TEXFLUSH sceGuTexImage ends with */
    /* sceGuScissor alone sends nothing while the test is off; enabling it
     * sends SCISSOR1/2 and REGION1/2 ((271 << 10) | 479). */
    CHECK_EQ_U(w[12], 0xD4000000);
    CHECK_EQ_U(w[13], 0xD5000000 | (271u << 10 | 479));
    CHECK_EQ_U(w[14], 0x15000000);
    CHECK_EQ_U(w[15], 0x16000000 | (271u << 10 | 479));
    gu_finish(&g);
    psp_free(&p);
}

TEST(psp_gu_clear_words)
{
    struct psp p;
    struct gu g;
    open_list(&p, &g);
    gu_draw_buffer(&g, GU_PSM_8888, 0, 512);
    gu_clear_color(&g, 0x11223344);
    gu_clear_stencil(&g, 0x55);
    gu_clear_depth(&g, 0x1234);
    uint32_t at = g.list_cur, w[10];
    gu_clear(&g, GU_COLOR_BUFFER_BIT | GU_DEPTH_BUFFER_BIT);
    words(&p, at, w, 10);
    /* sceGuGetMemory: BASE and JUMP over the 24 bytes of two vertices. */
    uint32_t verts = at + 8, next = verts + 24;
    CHECK_EQ_U(w[0], 0x10000000 | ((next >> 8) & 0xF0000));
    CHECK_EQ_U(w[1], 0x08000000 | (next & 0xFFFFFF));
    /* {color, x, y, z, pad}: the colour with the stencil in the top byte
     * (8888), (0, 0) and (480, 272) (sceGuDispBuffer's defaults), the depth. */
    CHECK_EQ_U(w[2], 0x55223344);
    CHECK_EQ_U(w[3], 0x00000000);
    CHECK_EQ_U(w[4], 0x1234);
    CHECK_EQ_U(w[5], 0x55223344);
    CHECK_EQ_U(w[6], 272u << 16 | 480);
    CHECK_EQ_U(w[7], 0x1234);
    words(&p, next, w, 7);
    CHECK_EQ_U(w[0], 0xD3000501); /* CLEARMODE: flags << 8 | 1 */
    CHECK_EQ_U(w[1], 0x1280011C); /* VTYPE: 2D, 16-bit positions, 8888 colour */
    CHECK_EQ_U(w[2], 0x10000000 | ((verts >> 8) & 0xF0000));
    CHECK_EQ_U(w[3], 0x01000000 | (verts & 0xFFFFFF));
    CHECK_EQ_U(w[4], 0x04060002); /* PRIM: sprites, 2 vertices */
    CHECK_EQ_U(w[5], 0xD3000000);
    gu_finish(&g);
    words(&p, next + 24, w, 2);
    CHECK_EQ_U(w[0], 0x0F000000);
    CHECK_EQ_U(w[1], 0x0C000000);
    CHECK(!p.failed);
    psp_free(&p);
}

static const char *gpu_dir(void)
{
    static char buf[256];
    return test_shared_dir("pspautotests-gpu", buf, sizeof buf);
}

TEST(psp_suite_reaches_floor)
{
    const char *dir = gpu_dir();
    if (!dir) test_skip("../shared/pspautotests-gpu is absent: the ported GPU programs are not run");
    char floor_text[64];
    test_read_text("tests/psp-floor.txt", floor_text, sizeof floor_text);
    unsigned floor = 0, shot_floor = 0;
    CHECK_MSG(sscanf(floor_text, "%u %u", &floor, &shot_floor) == 2 && floor > 0,
              "tests/psp-floor.txt holds no counts (values matching, screenshots exact)");
    static char report[1 << 16];
    FILE *f = fmemopen(report, sizeof report - 1, "w");
    CHECK(f);
    struct psp_suite_result r;
    psp_suite_run(dir, NULL, f, &r);
    fclose(f);
    CHECK_MSG(r.programs == psp_nports, "%u of %u ports have a recording:\n%s", r.programs, psp_nports, report);
    CHECK_MSG(r.errors == 0, "%u ports failed to run:\n%s", r.errors, report);
    CHECK_MSG(r.matched >= floor, "%u values match the PSP, fewer than the floor %u:\n%s", r.matched, floor, report);
    CHECK_MSG(r.shots_exact >= shot_floor, "%u screenshots are exact, fewer than the floor %u:\n%s", r.shots_exact,
              shot_floor, report);
}
