/* Display-list and frame-dump builders for tests (see dlbuild.h). */
#include "dlbuild.h"

#include <stdlib.h>
#include <string.h>

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) abort();
    return q;
}

void dl_init(struct dl *l) { memset(l, 0, sizeof *l); }
void dl_free(struct dl *l) { free(l->w); memset(l, 0, sizeof *l); }

size_t dl_cmd(struct dl *l, unsigned cmd, uint32_t data)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->w = xrealloc(l->w, l->cap * sizeof *l->w);
    }
    l->w[l->n] = (uint32_t)cmd << 24 | (data & 0xFFFFFF);
    return l->n++;
}

void dl_finish(struct dl *l)
{
    dl_cmd(l, GE_FINISH, 0);
    dl_cmd(l, GE_END, 0);
}

uint32_t dl_float24(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u >> 8;
}

void dumpb_init(struct dumpb *b, uint32_t version)
{
    memset(b, 0, sizeof *b);
    b->d.version = version;
    if (version >= 4) memcpy(b->d.game_id, "GETILE001", 9);
}

void dumpb_free(struct dumpb *b) { dump_free(&b->d); }

void dumpb_add(struct dumpb *b, unsigned type, const void *data, uint32_t size, uint32_t pad)
{
    struct dump *d = &b->d;
    if (d->nrec == b->cap_rec) {
        b->cap_rec = b->cap_rec ? b->cap_rec * 2 : 16;
        d->rec = xrealloc(d->rec, b->cap_rec * sizeof *d->rec);
    }
    while (d->data_size + pad + size > b->cap_data) {
        b->cap_data = b->cap_data ? b->cap_data * 2 : 4096;
        d->data = xrealloc(d->data, b->cap_data);
    }
    memset(d->data + d->data_size, 0xEE, pad);
    d->data_size += pad;
    memcpy(d->data + d->data_size, data, size);
    d->rec[d->nrec++] = (struct dump_record){(uint8_t)type, size, d->data_size};
    d->data_size += size;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

void dumpb_registers(struct dumpb *b, const struct dl *l)
{
    uint8_t *buf = xrealloc(NULL, l->n * 4);
    for (size_t i = 0; i < l->n; i++) put32(buf + 4 * i, l->w[i]);
    dumpb_add(b, DUMP_REGISTERS, buf, (uint32_t)(l->n * 4), 0);
    free(buf);
}

void dumpb_init_record(struct dumpb *b, const uint32_t *cmds, size_t ncmds)
{
    /* Register ranges of the saved-context layout, in order (see replay.c). */
    static const uint8_t ranges[][2] = {
        {0x00, 0x02}, {0x10, 0x10}, {0x12, 0x28}, {0x2C, 0x33}, {0x36, 0x38}, {0x42, 0x4D}, {0x50, 0x51},
        {0x53, 0x58}, {0x5B, 0xB5}, {0xB8, 0xC3}, {0xC5, 0xD0}, {0xD2, 0xE9}, {0xEB, 0xEC}, {0xEE, 0xEE},
        {0xF0, 0xF6}, {0xF8, 0xF9},
    };
    uint8_t buf[2048] = {0};
    uint32_t w = 17;
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        for (unsigned c = ranges[r][0]; c <= ranges[r][1]; c++) {
            uint32_t v = c << 24;
            for (size_t i = 0; i < ncmds; i++)
                if (cmds[i] >> 24 == c) v = cmds[i];
            put32(buf + 4 * w++, v);
        }
    }
    /* Matrices: a reset word and the values (all zero here), then counters. */
    static const unsigned msize[5] = {96, 12, 12, 16, 12};
    static const unsigned mnum[5] = {GE_BONE_NUM, GE_WORLD_NUM, GE_VIEW_NUM, GE_PROJ_NUM, GE_TGEN_NUM};
    for (int m = 0; m < 5; m++) {
        put32(buf + 4 * w++, mnum[m] << 24);
        for (unsigned k = 0; k < msize[m]; k++) put32(buf + 4 * w++, (mnum[m] + 1) << 24);
    }
    for (int m = 0; m < 5; m++) put32(buf + 4 * w++, mnum[m] << 24);
    put32(buf + 4 * w, (uint32_t)GE_END << 24);
    dumpb_add(b, DUMP_INIT, buf, sizeof buf, 0);
}

void dumpb_memset(struct dumpb *b, uint32_t dest, uint8_t value, uint32_t size)
{
    uint8_t buf[12];
    put32(buf, dest), put32(buf + 4, value), put32(buf + 8, size);
    dumpb_add(b, DUMP_MEMSET, buf, 12, 0);
}

void dumpb_memcpy(struct dumpb *b, uint32_t dest, const void *data, uint32_t size)
{
    uint8_t buf[4];
    put32(buf, dest);
    dumpb_add(b, DUMP_MEMCPYDEST, buf, 4, 0);
    dumpb_add(b, DUMP_MEMCPYDATA, data, size, 0);
}

void dumpb_display(struct dumpb *b, uint32_t addr, uint32_t stride, uint32_t format)
{
    uint8_t buf[12];
    put32(buf, addr), put32(buf + 4, stride), put32(buf + 8, format);
    dumpb_add(b, DUMP_DISPLAY, buf, 12, 0);
}

void dumpb_clutaddr(struct dumpb *b, uint32_t addr, uint32_t flags)
{
    uint8_t buf[8];
    put32(buf, addr), put32(buf + 4, flags);
    dumpb_add(b, DUMP_CLUTADDR, buf, 8, 0);
}

void dumpb_framebuf(struct dumpb *b, unsigned level, uint32_t addr, uint32_t bufw, uint32_t flags,
                    const void *data, uint32_t size)
{
    uint8_t *buf = xrealloc(NULL, 16 + size);
    put32(buf, addr), put32(buf + 4, bufw), put32(buf + 8, flags), put32(buf + 12, 0);
    memcpy(buf + 16, data, size);
    dumpb_add(b, DUMP_FRAMEBUF0 + level, buf, 16 + size, 0);
    free(buf);
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
