/* Display-list and frame-dump builders (see dumpbuild.h). */
#include "dumpbuild.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ge_limits.h"
#include "gt_error.h"

/* Grows *p to hold n elements of `size` bytes; false (nothing changed) when
 * the allocation fails. */
static bool grow(void **p, size_t n, size_t size)
{
    void *q = n <= SIZE_MAX / size ? realloc(*p, n * size) : NULL;
    if (!q) return false;
    *p = q;
    return true;
}

void dl_init(struct dl *l) { memset(l, 0, sizeof *l); }
void dl_free(struct dl *l) { free(l->w); memset(l, 0, sizeof *l); }

size_t dl_cmd(struct dl *l, unsigned cmd, uint32_t data)
{
    if (l->err) return l->n;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        void *w = l->w;
        if (!grow(&w, cap, sizeof *l->w)) {
            l->err = GT_ENOMEM;
            return l->n;
        }
        l->w = w, l->cap = cap;
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

void dumpb_free(struct dumpb *b)
{
    dump_free(&b->d);
    b->cap_rec = b->cap_data = 0;
}

void dumpb_add(struct dumpb *b, unsigned type, const void *data, uint32_t size, uint32_t pad)
{
    struct dump *d = &b->d;
    if (b->err) return;
    if ((uint64_t)d->data_size + pad + size > GT_DUMP_MAX_PUSHBUF || d->nrec >= UINT32_MAX / 2) {
        b->err = GT_ETOO_BIG;
        return;
    }
    if (d->nrec == b->cap_rec) {
        uint32_t cap = b->cap_rec ? b->cap_rec * 2 : 16;
        void *rec = d->rec;
        if (!grow(&rec, cap, sizeof *d->rec)) goto nomem;
        d->rec = rec, b->cap_rec = cap;
    }
    if (d->data_size + pad + size > b->cap_data) {
        uint64_t cap = b->cap_data ? b->cap_data : 4096;
        while (cap < (uint64_t)d->data_size + pad + size) cap *= 2;
        void *data2 = d->data;
        if (!grow(&data2, (size_t)cap, 1)) goto nomem;
        d->data = data2, b->cap_data = (uint32_t)(cap > UINT32_MAX ? UINT32_MAX : cap);
    }
    memset(d->data + d->data_size, 0xEE, pad);
    d->data_size += pad;
    if (size) memcpy(d->data + d->data_size, data, size);
    d->rec[d->nrec++] = (struct dump_record){(uint8_t)type, size, d->data_size};
    d->data_size += size;
    return;
nomem:
    b->err = GT_ENOMEM;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

void dumpb_registers(struct dumpb *b, const struct dl *l)
{
    if (l->err) {
        if (!b->err) b->err = l->err;
        return;
    }
    uint8_t *buf = malloc(l->n ? l->n * 4 : 1);
    if (!buf) {
        if (!b->err) b->err = GT_ENOMEM;
        return;
    }
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
    if (b->err) return;
    uint8_t *buf = malloc((size_t)size + 16);
    if (!buf) {
        b->err = GT_ENOMEM;
        return;
    }
    put32(buf, addr), put32(buf + 4, bufw), put32(buf + 8, flags), put32(buf + 12, 0);
    if (size) memcpy(buf + 16, data, size);
    dumpb_add(b, DUMP_FRAMEBUF0 + level, buf, 16 + size, 0);
    free(buf);
}
