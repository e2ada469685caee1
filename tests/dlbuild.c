/* The bundled sample, built with pipeline/dumpbuild.h (see dlbuild.h). */
#include "dlbuild.h"

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

uint32_t sample_texel(unsigned x, unsigned y)
{
    /* A ramp in red and green, blue bands, and a white border. */
    if (x == 0 || y == 0 || x == 63 || y == 63) return 0xFFFFFFFFu;
    uint32_t r = x * 4, g = y * 4, bl = ((x / 8 + y / 8) & 1) ? 0xC0 : 0x40;
    return 0xFF000000u | bl << 16 | g << 8 | r;
}

void sample_build(struct dumpb *b)
{
    static const uint32_t init_regs[] = {
        (uint32_t)GE_FB_PTR << 24 | 0x000000, (uint32_t)GE_FB_WIDTH << 24 | 512, (uint32_t)GE_FB_FORMAT << 24 | 3,
    };
    uint8_t tex[64 * 64 * 4];
    for (unsigned y = 0; y < 64; y++)
        for (unsigned x = 0; x < 64; x++) put32(tex + 4 * (y * 64 + x), sample_texel(x, y));

    dumpb_init(b, 6);
    dumpb_init_record(b, init_regs, sizeof init_regs / sizeof init_regs[0]);
    /* Clear the visible framebuffer to dark grey. */
    dumpb_memset(b, 0x04000000, 0x20, 512 * 272 * 4);
    struct dl l;
    dl_init(&l);
    dl_cmd(&l, GE_TRX_SRC_W, 64); /* source stride; the replay fills in the address */
    dumpb_registers(b, &l);
    dumpb_add(b, DUMP_TRANSFERSRC, tex, sizeof tex, 0);
    dl_free(&l);
    dl_init(&l);
    /* Seven columns, four rows of the block, 68 pixels apart. */
    dl_cmd(&l, GE_TRX_DST, 0x000000);
    dl_cmd(&l, GE_TRX_DST_W, 0x040000 | 512);
    dl_cmd(&l, GE_TRX_SRC_POS, 0);
    dl_cmd(&l, GE_TRX_SIZE, 63 | 63 << 10);
    for (unsigned row = 0; row < 4; row++) {
        for (unsigned col = 0; col < 7; col++) {
            dl_cmd(&l, GE_TRX_DST_POS, (4 + col * 68) | (4 + row * 68) << 10);
            dl_cmd(&l, GE_TRX_KICK, 1);
        }
    }
    dumpb_registers(b, &l);
    dl_free(&l);
    dumpb_display(b, 0x04000000, 512, 3);
}
