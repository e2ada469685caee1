/* The vertex writer of the ported programs: see verts.h. */
#include "psp/verts.h"

#include <string.h>

void pv_init(struct pverts *v, uint32_t vtype)
{
    memset(v, 0, sizeof *v);
    v->vtype = vtype;
}

void pv_reset(struct pverts *v) { v->n = 0; }

/* Align(fmt): the component sizes by format code (colour formats 4-7). */
static void align(struct pverts *v, int fmt)
{
    static const uint32_t sizes[8] = {1, 1, 2, 4, 2, 2, 2, 4};
    uint32_t m = sizes[fmt] - 1;
    v->n = (v->n + m) & ~m;
}

static void put(struct pverts *v, const void *src, uint32_t len)
{
    if (v->n + len > sizeof v->b) return; /* the program's buffer would overflow: never in the ports */
    memcpy(v->b + v->n, src, len);
    v->n += len;
}

/* Write(fmt, int) */
static void write_i(struct pverts *v, int fmt, int x)
{
    if (fmt == 1) {
        int8_t c = (int8_t)x;
        put(v, &c, 1);
    } else if (fmt == 2) {
        int16_t s = (int16_t)x;
        put(v, &s, 2);
    } else if (fmt == 3) {
        float f = (float)x;
        put(v, &f, 4);
    }
}

/* Write(fmt, float) */
static void write_f(struct pverts *v, int fmt, float x)
{
    if (fmt == 3)
        put(v, &x, 4);
    else
        write_i(v, fmt, (int)x);
}

void pv_weights(struct pverts *v, const float *w)
{
    int c = (int)(v->vtype >> 14 & 7), fmt = (int)(v->vtype >> 9 & 3);
    align(v, fmt);
    for (int i = 0; i < c; i++) write_f(v, fmt, w[c]); /* w[c], as the program has it */
}

void pv_texcoord(struct pverts *v, float u, float t)
{
    int fmt = (int)(v->vtype & 3);
    align(v, fmt);
    write_f(v, fmt, u);
    write_f(v, fmt, t);
}

void pv_color(struct pverts *v, uint32_t c)
{
    int fmt = (int)(v->vtype >> 2 & 7);
    align(v, fmt);
    uint16_t h;
    switch (fmt) {
    case 4: h = (uint16_t)((c >> 3 & 0x001F) | (c >> 5 & 0x07E0) | (c >> 8 & 0xF800)); put(v, &h, 2); break;
    case 5: h = (uint16_t)((c >> 3 & 0x001F) | (c >> 6 & 0x03E0) | (c >> 9 & 0x7C00) | (c >> 16 & 0x8000)); put(v, &h, 2); break;
    case 6: h = (uint16_t)((c >> 4 & 0x000F) | (c >> 8 & 0x00F0) | (c >> 12 & 0x0F00) | (c >> 16 & 0xF000)); put(v, &h, 2); break;
    case 7: put(v, &c, 4); break;
    default: break;
    }
}

void pv_normal(struct pverts *v, float x, float y, float z)
{
    int fmt = (int)(v->vtype >> 5 & 3);
    align(v, fmt);
    write_f(v, fmt, x);
    write_f(v, fmt, y);
    write_f(v, fmt, z);
}

void pv_pos(struct pverts *v, int x, int y, uint16_t z)
{
    int fmt = (int)(v->vtype >> 7 & 3), through = (int)(v->vtype >> 23 & 1);
    align(v, fmt);
    if (through) {
        write_i(v, fmt, x);
        write_i(v, fmt, y);
    } else if (fmt == 1) {
        write_i(v, fmt, (int8_t)(x * 255 / 480 - 128));
        write_i(v, fmt, (int8_t)(128 - y * 255 / 272));
    } else if (fmt == 2) {
        write_i(v, fmt, (int16_t)(x * 65536 / 480 - 32768));
        write_i(v, fmt, (int16_t)(32768 - y * 65536 / 272));
    } else if (fmt == 3) {
        write_f(v, fmt, 2.0f * (float)x / 480 - 1.0f);
        write_f(v, fmt, 1.0f - 2.0f * (float)y / 272);
    }
    write_i(v, fmt, (int)z);
}

void pv_pos_direct(struct pverts *v, float x, float y, float z)
{
    int fmt = (int)(v->vtype >> 7 & 3);
    align(v, fmt);
    write_f(v, fmt, x);
    write_f(v, fmt, y);
    write_f(v, fmt, z);
}

void pv_end(struct pverts *v)
{
    int fmts[5] = {(int)(v->vtype & 3), (int)(v->vtype >> 2 & 7), (int)(v->vtype >> 5 & 3), (int)(v->vtype >> 7 & 3),
                   (int)(v->vtype >> 9 & 3)};
    for (int i = 0; i < 5; i++) align(v, fmts[i]);
}

void pv_tp(struct pverts *v, float u, float t, int x, int y, uint16_t z)
{
    pv_texcoord(v, u, t);
    pv_pos(v, x, y, z);
    pv_end(v);
}

void pv_cp(struct pverts *v, uint32_t c, int x, int y, uint16_t z)
{
    pv_color(v, c);
    pv_pos(v, x, y, z);
    pv_end(v);
}

void pv_cnp(struct pverts *v, uint32_t c, float nx, float ny, float nz, int x, int y, uint16_t z)
{
    pv_color(v, c);
    pv_normal(v, nx, ny, nz);
    pv_pos(v, x, y, z);
    pv_end(v);
}

void pv_p(struct pverts *v, int x, int y, uint16_t z)
{
    pv_pos(v, x, y, z);
    pv_end(v);
}

void pv_store(const struct pverts *v, struct psp *p, uint32_t addr) { psp_write(p, addr, v->b, v->n); }
