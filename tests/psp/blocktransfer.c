/* Port of pspautotests tests/gpu/commands/blocktransfer.cpp: two 2 MiB
 * RAM buffers filled with 0xAA and 0xBB, one block transfer from the first
 * to the second (a raw list: SRC, SRCW, SRCPOS, DST, DSTW, DSTPOS, SIZE,
 * START, FINISH, END, enqueued with sceGeListEnQueue), and the program
 * prints how many bytes from the start the two buffers agree. */
#include "psp/ports.h"

#include <stdlib.h>

#include "ge_cmd.h"

#define MEMSZ (16384u * 32 * 4)

struct bt {
    struct psp *p;
    uint32_t list, mem1, mem2;
    uint8_t *a, *b; /* host copies for the comparison */
};

static uint32_t coords(unsigned cmd, int x, int y) { return (uint32_t)cmd << 24 | ((uint32_t)(y << 10) & 0xFFC00) | ((uint32_t)x & 0x3FF); }

static void transfer(struct bt *t, const char *title, int src_stride, int dst_stride, int w, int h, int bpp)
{
    psp_memset(t->p, t->mem1, 0xAA, MEMSZ);
    psp_memset(t->p, t->mem2, 0xBB, MEMSZ);
    uint32_t l[10] = {
        (uint32_t)GE_TRX_SRC << 24 | (t->mem1 & 0xFFFFFF),
        (uint32_t)GE_TRX_SRC_W << 24 | ((t->mem1 & 0xFF000000u) >> 8) | ((uint32_t)src_stride & 0xFFFF),
        coords(GE_TRX_SRC_POS, 0, 0),
        (uint32_t)GE_TRX_DST << 24 | (t->mem2 & 0xFFFFFF),
        (uint32_t)GE_TRX_DST_W << 24 | ((t->mem2 & 0xFF000000u) >> 8) | ((uint32_t)dst_stride & 0xFFFF),
        coords(GE_TRX_DST_POS, 0, 0),
        coords(GE_TRX_SIZE, w - 1, h - 1),
        (uint32_t)GE_TRX_KICK << 24 | (bpp == 32 ? 1u : 0u),
        (uint32_t)GE_FINISH << 24,
        (uint32_t)GE_END << 24,
    };
    psp_write(t->p, t->list, l, sizeof l);
    struct gt_diag d = {0};
    if (gt_render_list(&t->p->r, t->list, &d) < 0) psp_fail(t->p, "the GE stopped: %s", d.msg);
    psp_read(t->p, t->mem1, t->a, MEMSZ);
    psp_read(t->p, t->mem2, t->b, MEMSZ);
    /* sameCount: bytes equal from the start (the buffers always differ
     * within their 2 MiB, so the count never runs past them). */
    uint32_t n = 0;
    while (n < MEMSZ && t->a[n] == t->b[n]) n++;
    psp_checkpoint(t->p, "%s: %u", title, n);
}

int psp_commands_blocktransfer(struct psp *p)
{
    struct bt t = {.p = p};
    t.list = psp_alloc(p, 16, 0x20 * 4);
    t.mem1 = psp_alloc(p, 16, MEMSZ);
    t.mem2 = psp_alloc(p, 16, MEMSZ);
    t.a = malloc(MEMSZ);
    t.b = malloc(MEMSZ);
    if (!t.a || !t.b) {
        free(t.a);
        free(t.b);
        psp_fail(p, "out of memory");
        return -1;
    }
    static const struct { const char *name; int stride; } strides[8] = {
        {"0 stride", 0}, {"0x100 stride", 0x100}, {"0x3F8 stride", 0x3F8}, {"0x400 stride", 0x400},
        {"0x407 stride", 0x407}, {"0x408 stride", 0x408}, {"0x7FF stride", 0x7FF}, {"0xFC00 stride", 0xFC00},
    };
    for (int bpp = 16; bpp <= 32; bpp += 16) {
        psp_label(p, bpp == 16 ? "Block transfers - 16 bit:" : "Block transfers - 32 bit:");
        for (int i = 0; i < 8; i++) transfer(&t, strides[i].name, strides[i].stride, strides[i].stride, 1024, 4, bpp);
    }
    psp_label(p, "Sizes:");
    static const struct { const char *name; int w, h; } sizes[7] = {
        {"1024x512", 1024, 512}, {"1024x256", 1024, 256}, {"1024x128", 1024, 128}, {"1024x64", 1024, 64},
        {"1024x4", 1024, 4}, {"1024x1", 1024, 1}, {"1x1", 1, 1},
    };
    for (int i = 0; i < 7; i++) transfer(&t, sizes[i].name, 0x200, 0x200, sizes[i].w, sizes[i].h, 16);
    free(t.a);
    free(t.b);
    return 0;
}
