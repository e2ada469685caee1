/* The PSP of the ported programs: see psp.h. */
#include "psp/psp.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int psp_init(struct psp *p)
{
    memset(p, 0, sizeof *p);
    struct gt_diag d = {0};
    if (gt_render_init(&p->r, &d) < 0) return -1;
    p->heap = PSP_HEAP_BASE;
    return 0;
}

void psp_free(struct psp *p)
{
    for (size_t i = 0; i < p->nlines; i++) free(p->lines[i]);
    free(p->lines);
    free(p->shot);
    gt_render_free(&p->r);
    memset(p, 0, sizeof *p);
}

void psp_fail(struct psp *p, const char *fmt, ...)
{
    if (p->failed) return;
    p->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, sizeof p->err, fmt, ap);
    va_end(ap);
}

uint32_t psp_alloc(struct psp *p, uint32_t align, uint32_t size)
{
    if (align < 16) align = 16;
    uint32_t a = (p->heap + align - 1) & ~(align - 1);
    if (a < p->heap || size > PSP_HEAP_END - a) {
        psp_fail(p, "the heap is exhausted (%u bytes asked)", size);
        return 0;
    }
    p->heap = a + size;
    return a;
}

void psp_write(struct psp *p, uint32_t addr, const void *src, uint32_t n)
{
    struct gt_diag d = {0};
    gt_render_finish(&p->r);
    if (mem_write(&p->r.mem, addr, src, n, &d) < 0) psp_fail(p, "CPU write of %u bytes at %08x: %s", n, addr, d.msg);
}

void psp_read(struct psp *p, uint32_t addr, void *dst, uint32_t n)
{
    gt_render_finish(&p->r);
    mem_read(&p->r.mem, addr, dst, n);
}

void psp_write16(struct psp *p, uint32_t addr, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    psp_write(p, addr, b, 2);
}

void psp_write32(struct psp *p, uint32_t addr, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    psp_write(p, addr, b, 4);
}

uint32_t psp_read32(struct psp *p, uint32_t addr)
{
    uint8_t b[4];
    psp_read(p, addr, b, 4);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

void psp_dmac_memcpy(struct psp *p, uint32_t dst, uint32_t src, uint32_t n)
{
    uint8_t *tmp = malloc(n ? n : 1);
    if (!tmp) {
        psp_fail(p, "out of memory");
        return;
    }
    psp_read(p, src, tmp, n);
    psp_write(p, dst, tmp, n);
    free(tmp);
}

void psp_memset(struct psp *p, uint32_t addr, uint8_t v, uint32_t n)
{
    uint8_t *tmp = malloc(n ? n : 1);
    if (!tmp) {
        psp_fail(p, "out of memory");
        return;
    }
    memset(tmp, v, n);
    psp_write(p, addr, tmp, n);
    free(tmp);
}

static void keep_line(struct psp *p, const char *buf)
{
    if (p->nlines == p->cap) {
        size_t nc = p->cap ? p->cap * 2 : 64;
        char **nl = realloc(p->lines, nc * sizeof *nl);
        if (!nl) {
            psp_fail(p, "out of memory");
            return;
        }
        p->lines = nl;
        p->cap = nc;
    }
    char *s = strdup(buf);
    if (!s) {
        psp_fail(p, "out of memory");
        return;
    }
    p->lines[p->nlines++] = s;
}

void psp_checkpoint(struct psp *p, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    keep_line(p, buf);
}

void psp_label(struct psp *p, const char *title) { psp_other(p, "%s", title); }

void psp_other(struct psp *p, const char *fmt, ...)
{
    char buf[512];
    buf[0] = PSP_LABEL_MARK;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + 1, sizeof buf - 1, fmt, ap);
    va_end(ap);
    keep_line(p, buf);
}

/* A 16-bit pixel's channel of `bits` bits at `shift`, widened to 8 bits. */
static uint8_t widen(uint32_t px, unsigned shift, unsigned bits)
{
    uint32_t v = (px >> shift) & ((1u << bits) - 1);
    return (uint8_t)(v << (8 - bits) | v >> (2 * bits - 8)); /* bits 4 to 6 */
}

void psp_screenshot(struct psp *p, uint32_t addr, uint32_t stride, int psm)
{
    if (!p->shot && !(p->shot = malloc(512 * 272 * 4))) {
        psp_fail(p, "out of memory");
        return;
    }
    unsigned bpp = psm == 3 ? 4 : 2;
    uint8_t row[512 * 4];
    for (uint32_t y = 0; y < 272; y++) {
        psp_read(p, addr + y * stride * bpp, row, 512 * bpp);
        for (uint32_t x = 0; x < 512; x++) {
            uint8_t *o = p->shot + (y * 512 + x) * 4;
            if (bpp == 4) {
                memcpy(o, row + 4 * x, 4);
                continue;
            }
            uint32_t px = (uint32_t)row[2 * x] | (uint32_t)row[2 * x + 1] << 8;
            if (psm == 0) o[0] = widen(px, 0, 5), o[1] = widen(px, 5, 6), o[2] = widen(px, 11, 5), o[3] = 255;
            else if (psm == 1) o[0] = widen(px, 0, 5), o[1] = widen(px, 5, 5), o[2] = widen(px, 10, 5), o[3] = px >> 15 ? 255 : 0;
            else o[0] = widen(px, 0, 4), o[1] = widen(px, 4, 4), o[2] = widen(px, 8, 4), o[3] = widen(px, 12, 4);
        }
    }
}
