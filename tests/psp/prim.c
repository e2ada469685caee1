/* The vertex struct writer of the primitives ports: see prim.h. */
#include "psp/prim.h"

void vb_begin(struct vb *b) { b->n = 0; }

static void put(struct vb *b, const void *v, uint32_t len)
{
    b->n = (b->n + len - 1) / len * len; /* each field aligned to its size, as the structs are */
    if (b->n + len > sizeof b->b) return; /* larger than any array of the programs */
    memcpy(b->b + b->n, v, len);
    b->n += len;
}

void vb_u8(struct vb *b, unsigned v)
{
    uint8_t x = (uint8_t)v;
    put(b, &x, 1);
}

void vb_s8(struct vb *b, int v) { vb_u8(b, (unsigned)(uint8_t)(int8_t)v); }

void vb_u16(struct vb *b, unsigned v)
{
    uint16_t x = (uint16_t)v;
    put(b, &x, 2);
}

void vb_s16(struct vb *b, int v) { vb_u16(b, (unsigned)(uint16_t)(int16_t)v); }
void vb_u32(struct vb *b, uint32_t v) { put(b, &v, 4); }
void vb_f32(struct vb *b, float v) { put(b, &v, 4); }

void vb_pad(struct vb *b, unsigned size)
{
    uint32_t end = (b->n + size - 1) / size * size;
    if (end <= sizeof b->b) memset(b->b + b->n, 0, end - b->n), b->n = end;
}

void vb_store(const struct vb *b, struct psp *p, uint32_t addr) { psp_write(p, addr, b->b, b->n); }

void cpu_copy(struct psp *p, uint32_t dst, uint32_t src, uint32_t n)
{
    uint8_t buf[256];
    while (n) {
        uint32_t k = n < sizeof buf ? n : (uint32_t)sizeof buf;
        psp_read(p, src, buf, k);
        psp_write(p, dst, buf, k);
        src += k, dst += k, n -= k;
    }
}
