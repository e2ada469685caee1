/* pspautotests tests/gpu/filtering/shared.cpp: the set-up and the
 * framebuffer helpers of the filtering programs. */
#ifndef GETILE_PSP_FILTSHARED_H
#define GETILE_PSP_FILTSHARED_H

#include <stdbool.h>

#include "psp/gu.h"

struct filt_env {
    struct psp *p;
    struct gu g;
    uint32_t list, copybuf;
    bool read_full, buf_dirty;
    uint32_t host[512 * 272]; /* copybuf as last written or read in full */
};

/* initDisplay: the 8888 screen with OFFSET at (2048 - 240, 2048 - 136)
 * exactly, the scissor (0, 0, 8, 8) set but disabled, texturing on with
 * an 8888 texture and REPLACE (RGBA). */
void filt_init_display(struct filt_env *e, struct psp *p);
void filt_start_frame(struct filt_env *e);
void filt_end_frame(struct filt_env *e);
/* clearDispBuffer: the first row (or, with read_full, the whole buffer)
 * set to c through the DMA. */
void filt_clear(struct filt_env *e, uint32_t c);
/* readDispBuffer: the first pixel through the DMA. */
uint32_t filt_read(struct filt_env *e);
/* readFullDispBuffer: pixel (x, y) of the whole buffer, read once until
 * marked dirty. */
uint32_t filt_read_full(struct filt_env *e, int x, int y);
/* displayBuffer of the programs: "TITLE: COLOR=%08x", then the reset. */
void filt_display(struct filt_env *e, const char *title);

#endif
