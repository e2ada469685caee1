/* Port of pspautotests tests/gpu/commands/fog.cpp: the first 32 pixels set
 * to `prev` through the DMA, then a 3D sprite over the 10x10 scissor with
 * fog on, either through sceGuFog(near, far, colour) and the sprite's
 * vertices (z 0), or drawn with the immediate vertex registers (0xF0-0xF9)
 * with a fog factor given directly; the program prints the first pixel
 * (COLOR=%08x), then sets the 32 pixels to 0x44 bytes. */
#include "psp/ports.h"

#include <stdio.h>

#include "psp/gu.h"

#define GU_IMM_FOG 0x00400000u

struct fg {
    struct psp *p;
    struct gu g;
    uint32_t list, copybuf, verts;
};

static void display_buffer(struct fg *t, const char *reason)
{
    psp_dmac_memcpy(t->p, t->copybuf, PSP_EDRAM, 32 * 4);
    psp_checkpoint(t->p, "%s: COLOR=%08x", reason, psp_read32(t->p, t->copybuf));
    psp_memset(t->p, t->copybuf, 0x44, 32 * 4);
    psp_dmac_memcpy(t->p, PSP_EDRAM, t->copybuf, 32 * 4);
}

static void begin(struct fg *t, uint32_t prev, uint32_t fogc, float fog_near, float fog_far)
{
    for (uint32_t i = 0; i < 32; i++) psp_write32(t->p, t->copybuf + 4 * i, prev);
    psp_dmac_memcpy(t->p, PSP_EDRAM, t->copybuf, 32 * 4);
    gu_start(&t->g, GU_DIRECT, t->list);
    gu_disable(&t->g, GU_BLEND);
    gu_disable(&t->g, GU_STENCIL_TEST);
    gu_enable(&t->g, GU_FOG);
    gu_fog(&t->g, fog_near, fog_far, fogc);
}

static void end(struct fg *t, const char *title)
{
    gu_finish(&t->g);
    gu_sync(&t->g);
    display_buffer(t, title);
}

static void test_fog(struct fg *t, const char *title, uint32_t prev, uint32_t c, uint32_t fogc, float fog_near, float fog_far)
{
    begin(t, prev, fogc, fog_near, fog_far);
    float f[2][3] = {{-1.0f, -1.0f, 0.0f}, {1.0f, 1.0f, 0.0f}};
    for (uint32_t k = 0; k < 2; k++) {
        psp_write32(t->p, t->verts + 16 * k, c);
        psp_write(t->p, t->verts + 16 * k + 4, f[k], 12);
    }
    gu_draw_array(&t->g, GU_SPRITES, GU_COLOR_8888 | GU_VERTEX_32BITF | GU_TRANSFORM_3D, 2, 0, t->verts);
    end(t, title);
}

/* drawBoxCommandsImm: a sprite through the immediate vertex registers. */
static void test_imm_fog(struct fg *t, const char *title, uint32_t prev, uint32_t c, uint32_t fogc, uint8_t fogfactor)
{
    struct gu *g = &t->g;
    begin(t, prev, fogc, 0.0f, 1.0f);
    gu_send_commandi(g, 18, GU_COLOR_8888 | GU_VERTEX_32BITF | GU_TRANSFORM_3D);
    gu_send_commandi(g, 0xF0, (2048 - 480 / 2) << 4);
    gu_send_commandi(g, 0xF1, (2048 - 272 / 2) << 4);
    gu_send_commandi(g, 0xF2, 0);
    gu_send_commandi(g, 0xF6, c & 0x00FFFFFF);
    gu_send_commandi(g, 0xF9, 0);
    gu_send_commandi(g, 0xF8, fogfactor);
    gu_send_commandi(g, 0xF7, GU_IMM_FOG | (uint32_t)GU_SPRITES << 8 | c >> 24);
    gu_send_commandi(g, 0xF0, (2048 + 480 / 2) << 4);
    gu_send_commandi(g, 0xF1, (2048 + 272 / 2) << 4);
    gu_send_commandi(g, 0xF7, GU_IMM_FOG | 7u << 8 | c >> 24);
    end(t, title);
}

int psp_commands_fog(struct psp *p)
{
    struct fg t = {.p = p};
    t.list = psp_alloc(p, 16, 131072 * 4);
    t.copybuf = psp_alloc(p, 16, 32 * 4);
    t.verts = psp_alloc(p, 16, 256 * 16);
    struct gu *g = &t.g;
    gu_init(g, p);
    gu_start(g, GU_DIRECT, t.list);
    psp_screen_setup(g, 65535, 0, 10, 10);
    gu_front_face(g, GU_CW);
    gu_shade_model(g, GU_SMOOTH);
    gu_disable(g, GU_TEXTURE_2D);
    psp_identity_matrices(g);
    gu_finish(g);
    gu_sync(g);
    psp_memset(p, t.copybuf, 0x44, 32 * 4);
    psp_dmac_memcpy(p, PSP_EDRAM, t.copybuf, 32 * 4);
    display_buffer(&t, "Initial");
    psp_other(p, "framebuf: %08x", 0u); /* sceDisplaySetFrameBuf, sceDisplaySetMode */
    psp_other(p, "dispmode: %08x", 0u);
    psp_label(p, "Common:");
    test_fog(&t, "  Basic", 0x44444444, 0x88888888, 0xFFFFFFFF, 1.0f, 1.0f);
    test_fog(&t, "  Near neg", 0x44444444, 0x88888888, 0xFFFFFFFF, -1.0f, 1.0f);
    test_fog(&t, "  Far neg", 0x44444444, 0x88888888, 0xFFFFFFFF, 1.0f, -1.0f);
    test_fog(&t, "  Both neg", 0x44444444, 0x88888888, 0xFFFFFFFF, -1.0f, -1.0f);
    test_fog(&t, "  Near zero", 0x44444444, 0x88888888, 0xFFFFFFFF, 0.0f, 1.0f);
    test_fog(&t, "  Far zero", 0x44444444, 0x88888888, 0xFFFFFFFF, 1.0f, 0.0f);
    test_imm_fog(&t, "  Direct fog 00", 0x44444444, 0x88888888, 0xFFFFFFFF, 0x00);
    test_imm_fog(&t, "  Direct fog 80", 0x44444444, 0x88888888, 0xFFFFFFFF, 0x80);
    test_imm_fog(&t, "  Direct fog FF", 0x44444444, 0x88888888, 0xFFFFFFFF, 0xFF);
    psp_label(p, "Rounding:");
    for (int i = 0; i < 256; i++) {
        char title[64];
        snprintf(title, sizeof title, "  Fog value %02x", i);
        test_imm_fog(&t, title, 0x44444444, 0x11881100, 0xFFFF33FF, (uint8_t)i);
    }
    gu_term(g);
    return 0;
}
