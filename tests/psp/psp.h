/* A PSP for the ported pspautotests GPU programs (issue 22): PSP memory
 * with the GE behind getile's renderer, the CPU's view of it (reads and
 * writes of RAM and VRAM, sceDmacMemcpy), a heap for the programs' arrays,
 * and what the test framework prints (pspautotests common/common.c
 * checkpoint). The programs' sceGu* calls are gu.h. */
#ifndef GETILE_PSP_H
#define GETILE_PSP_H

#include <stddef.h>
#include <stdint.h>

#include "render.h"

/* sceGeEdramGetAddr(): the eDRAM (VRAM) as the CPU and the GE address it. */
#define PSP_EDRAM 0x04000000u
/* Where the heap (memalign, static arrays of the programs) starts in RAM. */
#define PSP_HEAP_BASE 0x08A00000u
#define PSP_HEAP_END 0x0A000000u

struct psp {
    struct gt_render r;
    uint32_t heap;   /* next free heap address */
    char **lines;    /* what the program printed, one line each, without the framework's "[x] " */
    size_t nlines, cap;
    int failed;      /* an emulated call went wrong (out of heap, bad list): the run is void */
    uint8_t *shot;   /* the screenshot (emulatorEmitScreenshot), 512x272 RGBA, or NULL */
    char err[160];
};

/* A PSP just after boot: memory zeroed, the GE's registers 0. 0 or -1. */
int psp_init(struct psp *p);
void psp_free(struct psp *p);

/* memalign(align, size) from the heap: a RAM address (0 and p->failed when
 * the heap is exhausted). The memory is zero, as the programs' static
 * arrays are. */
uint32_t psp_alloc(struct psp *p, uint32_t align, uint32_t size);
/* CPU writes and reads (cached or not: the CPU and the GE see one memory
 * here, so sceKernelDcacheWritebackInvalidateAll has nothing to do). */
void psp_write(struct psp *p, uint32_t addr, const void *src, uint32_t n);
void psp_read(struct psp *p, uint32_t addr, void *dst, uint32_t n);
void psp_write16(struct psp *p, uint32_t addr, uint16_t v);
void psp_write32(struct psp *p, uint32_t addr, uint32_t v);
uint32_t psp_read32(struct psp *p, uint32_t addr);
/* sceDmacMemcpy: n bytes from src to dst, after the GE's pending work. */
void psp_dmac_memcpy(struct psp *p, uint32_t dst, uint32_t src, uint32_t n);
/* memset through the CPU. */
void psp_memset(struct psp *p, uint32_t addr, uint8_t v, uint32_t n);

/* checkpoint(fmt, ...): one printed line (the framework's "[x] " or "[r] "
 * prefix, which records thread rescheduling, not the GE, is left out). */
void psp_checkpoint(struct psp *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* checkpointNext(title): a section title the framework prints (not a GE
 * value: the suite checks it is in its place but does not count it). The
 * empty line the framework prints before it is not kept (the suite skips
 * empty lines of the recordings too). */
void psp_label(struct psp *p, const char *title);
/* A line the program prints that is no GE value (a kernel call's return
 * code): checked in place like a title, not counted. */
void psp_other(struct psp *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The first byte of a kept line that is a label. */
#define PSP_LABEL_MARK '\x01'
/* emulatorEmitScreenshot: what the display shows, the framebuffer at
 * addr (stride in pixels, format 0-3 as the display's), as 512x272 RGBA. */
void psp_screenshot(struct psp *p, uint32_t addr, uint32_t stride, int psm);
/* Marks the run as void with a reason (first one kept). */
void psp_fail(struct psp *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
