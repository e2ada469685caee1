/* What the ported primitives programs (tests/gpu/primitives/) share: their
 * shared.cpp (the same display set-up and frame helpers as the commands
 * folder, cmdshared.h), their coordinate helpers (norm8x ... norm32y: a
 * pixel of the 480x272 screen in the normalised coordinates of each vertex
 * format) and a writer that lays out their vertex structs byte by byte
 * (each field aligned to its size, each struct padded to its size). The
 * ports of the simple programs are generated from the programs' arrays
 * and draw() bodies (one statement each), then checked by hand. */
#ifndef GETILE_PSP_PRIM_H
#define GETILE_PSP_PRIM_H

#include <stdint.h>
#include <string.h>

#include "psp/cmdshared.h"
#include "psp/ports.h"

static inline int8_t norm8x(int x) { return (int8_t)(x * 255 / 480 - 128); }
static inline int8_t norm8y(int x) { return (int8_t)(128 - x * 255 / 272); }
static inline int16_t norm16x(int x) { return (int16_t)(x * 65536 / 480 - 32768); }
static inline int16_t norm16y(int x) { return (int16_t)(32768 - x * 65536 / 272); }
static inline float norm32x(int x) { return 2.0f * (float)x / 480 - 1.0f; }
static inline float norm32y(int y) { return 1.0f - 2.0f * (float)y / 272; }

struct vb {
    uint32_t n;
    uint8_t b[16384];
};

void vb_begin(struct vb *b);
void vb_u8(struct vb *b, unsigned v);
void vb_s8(struct vb *b, int v);
void vb_u16(struct vb *b, unsigned v);
void vb_s16(struct vb *b, int v);
void vb_u32(struct vb *b, uint32_t v);
void vb_f32(struct vb *b, float v);
/* The end of one struct of `size` bytes: padding up to a multiple of it. */
void vb_pad(struct vb *b, unsigned size);
void vb_store(const struct vb *b, struct psp *p, uint32_t addr);
/* A struct assignment by the CPU between lists: n bytes from src to dst. */
void cpu_copy(struct psp *p, uint32_t dst, uint32_t src, uint32_t n);

#endif
