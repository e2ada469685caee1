/* The vertex writer of pspautotests tests/gpu/commands/shared.cpp (struct
 * Vertices, also used by other folders' shared code): components written
 * in the GE's order, each aligned to its size, positions in screen pixels
 * converted to the normalised 8/16-bit or float coordinates of a 480x272
 * screen (norm8x/norm16x/norm32x) unless in through mode. */
#ifndef GETILE_PSP_VERTS_H
#define GETILE_PSP_VERTS_H

#include <stdint.h>

#include "psp/psp.h"

struct pverts {
    uint32_t vtype;
    uint32_t n;          /* bytes written */
    uint8_t b[0x1000];   /* STANDARD_SIZE */
};

void pv_init(struct pverts *v, uint32_t vtype);
void pv_reset(struct pverts *v);
void pv_weights(struct pverts *v, const float *w);
void pv_texcoord(struct pverts *v, float u, float t);
void pv_color(struct pverts *v, uint32_t c);
void pv_normal(struct pverts *v, float x, float y, float z);
void pv_pos(struct pverts *v, int x, int y, uint16_t z);
void pv_pos_direct(struct pverts *v, float x, float y, float z);
void pv_end(struct pverts *v);
/* The shorthands TP, CP, CNP and P. */
void pv_tp(struct pverts *v, float u, float t, int x, int y, uint16_t z);
void pv_cp(struct pverts *v, uint32_t c, int x, int y, uint16_t z);
void pv_cnp(struct pverts *v, uint32_t c, float nx, float ny, float nz, int x, int y, uint16_t z);
void pv_p(struct pverts *v, int x, int y, uint16_t z);
/* Copies the bytes to PSP memory at addr. */
void pv_store(const struct pverts *v, struct psp *p, uint32_t addr);

#endif
