/* Vertex decoding (see vdecode.h). */
#include "vdecode.h"

#include <string.h>

#include "texture.h"

static const uint8_t weight_size[4] = {0, 1, 2, 4};
static const uint8_t tc_size[4] = {0, 2, 4, 8}, tc_align[4] = {0, 1, 2, 4};
static const uint8_t col_size[8] = {0, 0, 0, 0, 2, 2, 2, 4};
/* Normals and positions share sizes; position format 0 takes s8's 3 bytes. */
static const uint8_t vec_size[4] = {3, 3, 6, 12}, vec_align[4] = {1, 1, 2, 4};

static uint32_t align_up(uint32_t v, uint32_t a) { return a > 1 ? (v + a - 1) & ~(a - 1) : v; }

/* Appends a component of csize bytes aligned to `align`; returns its offset. */
static uint32_t place(struct gt_vlayout *lay, uint32_t *size, uint32_t csize, uint32_t align)
{
    uint32_t off = align_up(*size, align);
    *size = off + csize;
    if (align > lay->align) lay->align = align;
    return off;
}

/* Order: weights, texture coordinates, color, normal, position; each aligned
 * to its element size, a morph target to the largest. Color formats 1-3 (not
 * colors) take no bytes. */
void vdec_layout(uint32_t vtype, struct gt_vlayout *lay)
{
    unsigned tc = vtype & 3, col = (vtype >> 2) & 7, nrm = (vtype >> 5) & 3;
    unsigned pos = (vtype >> 7) & 3, wt = (vtype >> 9) & 3;
    unsigned nweights = ((vtype >> 14) & 7) + 1, nmorph = ((vtype >> 18) & 7) + 1;
    uint32_t size = 0;
    memset(lay, 0, sizeof *lay);
    lay->align = 1;
    if (wt) place(lay, &size, weight_size[wt] * nweights, weight_size[wt]);
    if (tc) lay->off_tc = place(lay, &size, tc_size[tc], tc_align[tc]);
    if (col_size[col]) lay->off_col = place(lay, &size, col_size[col], col_size[col]);
    if (nrm) lay->off_nrm = place(lay, &size, vec_size[nrm], vec_align[nrm]);
    lay->off_pos = place(lay, &size, vec_size[pos], vec_align[pos]);
    lay->target_size = align_up(size, lay->align);
    lay->stride = lay->target_size * nmorph;
}

void vdec_setup(struct gt_vdec *vd, const struct ge_state *st)
{
    uint32_t vt = ge_reg(st, GE_VTYPE);
    memset(vd, 0, sizeof *vd);
    vd->vtype = vt;
    vd->tc = vt & 3, vd->col = (vt >> 2) & 7, vd->nrm = (vt >> 5) & 3, vd->pos = (vt >> 7) & 3;
    vd->wt = (vt >> 9) & 3, vd->idx = (vt >> 11) & 3;
    vd->nweights = ((vt >> 14) & 7) + 1, vd->nmorph = ((vt >> 18) & 7) + 1;
    vd->through = (vt >> 23) & 1;
    vdec_layout(vt, &vd->lay);
    for (int i = 0; i < 8; i++) vd->morph[i] = gemath_from_word(st->reg[GE_MORPH0 + i]);
    unsigned map_mode = ge_reg(st, GE_TEX_MAPMODE) & 3;
    vd->uv_scale = !vd->through && (map_mode == 0 || map_mode == 3);
    for (int i = 0; i < 2; i++) {
        vd->uvscale[i] = gemath_from_word(st->reg[GE_TEXSCALE_U + i]);
        vd->uvoff[i] = gemath_from_word(st->reg[GE_TEXSCALE_U + 2 + i]);
    }
}

uint32_t vdec_index(const struct gt_vdec *vd, const struct gt_mem *mem, uint32_t iaddr, uint32_t i)
{
    switch (vd->idx) {
    case 1: return mem_read8(mem, iaddr + i);
    case 2: return mem_read16(mem, iaddr + 2 * i);
    case 3: return mem_read32(mem, iaddr + 4 * i);
    default: return i;
    }
}

gefloat vdec_uv_scale(const struct gt_vdec *vd, int k, gefloat uv)
{
    return gemath_add(gemath_mul(uv, vd->uvscale[k]), vd->uvoff[k]);
}

gefloat vdec_morph_sum(const gefloat *v, const gefloat *w, unsigned n)
{
    gefloat sum = gemath_mul(v[0], w[0]);
    for (unsigned i = 1; i < n; i++) sum = gemath_add(sum, gemath_mul(v[i], w[i]));
    return sum;
}

/* Reads a signed or unsigned fixed-point or float component. */
static gefloat read_vec(const struct gt_mem *mem, uint32_t a, unsigned fmt, int i)
{
    switch (fmt) {
    case 1: return gemath_from_s8((int8_t)mem_read8(mem, a + (uint32_t)i));
    case 2: return gemath_from_s16((int16_t)mem_read16(mem, a + 2 * (uint32_t)i));
    default: return gemath_from_f32bits(mem_read32(mem, a + 4 * (uint32_t)i));
    }
}

static gefloat read_unsigned(const struct gt_mem *mem, uint32_t a, unsigned fmt, int i)
{
    switch (fmt) {
    case 1: return gemath_from_u8(mem_read8(mem, a + (uint32_t)i));
    case 2: return gemath_from_u16(mem_read16(mem, a + 2 * (uint32_t)i));
    default: return gemath_from_f32bits(mem_read32(mem, a + 4 * (uint32_t)i));
    }
}

/* A color as 8-bit channels by bit replication (the unmorphed path): the
 * vertex color formats 4-7 are the texture formats 5650, 5551, 4444, 8888. */
static void read_color8(const struct gt_mem *mem, uint32_t a, unsigned fmt, uint8_t c[4])
{
    uint32_t p;
    switch (fmt) {
    case 4: p = tex_expand_5650(mem_read16(mem, a)); break;
    case 5: p = tex_expand_5551(mem_read16(mem, a)); break;
    case 6: p = tex_expand_4444(mem_read16(mem, a)); break;
    default: p = mem_read32(mem, a); break;
    }
    for (int k = 0; k < 4; k++) c[k] = (uint8_t)(p >> (8 * k));
}

void vdec_read(const struct gt_vdec *vd, const struct gt_mem *mem, uint32_t vaddr, uint32_t index, struct gt_vin *out)
{
    const struct gt_vlayout *lay = &vd->lay;
    uint32_t base = vaddr + index * lay->stride;
    unsigned nm = vd->nmorph;
    memset(out, 0, sizeof *out);

    /* Weights: target 0 only (bone weights are not morphed). */
    if (vd->wt)
        for (unsigned i = 0; i < vd->nweights && i < 8; i++) out->weight[i] = read_unsigned(mem, base, vd->wt, (int)i);

    /* Texture coordinates. */
    if (vd->tc) {
        gefloat t[8][2];
        unsigned n = vd->through ? 1 : nm;
        for (unsigned m = 0; m < n; m++) {
            uint32_t a = base + m * lay->target_size + lay->off_tc;
            for (int k = 0; k < 2; k++) {
                if (vd->through && vd->tc == 2)
                    t[m][k] = gemath_from_int(mem_read16(mem, a + 2 * (uint32_t)k)); /* texels */
                else
                    t[m][k] = read_unsigned(mem, a, vd->tc, k);
            }
        }
        for (int k = 0; k < 2; k++) {
            gefloat v[8] = {0};
            for (unsigned m = 0; m < n; m++) v[m] = t[m][k];
            out->uv[k] = n > 1 ? vdec_morph_sum(v, vd->morph, n) : v[0];
            if (vd->uv_scale) out->uv[k] = vdec_uv_scale(vd, k, out->uv[k]);
        }
    }

    /* Color: expanded to 8 bits by bit replication; morphed per channel
     * after that expansion, the sum floored (measured,
     * ge-vertex-pipeline.md "Morphing"), clamped. */
    if (col_size[vd->col]) {
        if (nm == 1) {
            read_color8(mem, base + lay->off_col, vd->col, out->color);
        } else {
            uint8_t c[8][4];
            for (unsigned m = 0; m < nm; m++) read_color8(mem, base + m * lay->target_size + lay->off_col, vd->col, c[m]);
            for (int k = 0; k < 4; k++) {
                gefloat v[8] = {0};
                for (unsigned m = 0; m < nm; m++) v[m] = gemath_from_int(c[m][k]);
                int32_t x = gemath_to_fixed(vdec_morph_sum(v, vd->morph, nm), 0);
                out->color[k] = (uint8_t)(x < 0 ? 0 : x > 255 ? 255 : x);
            }
            if (vd->col == 4) out->color[3] = 255;
        }
    }

    /* Normal. */
    if (vd->nrm) {
        for (int k = 0; k < 3; k++) {
            gefloat v[8] = {0};
            for (unsigned m = 0; m < nm; m++) v[m] = read_vec(mem, base + m * lay->target_size + lay->off_nrm, vd->nrm, k);
            out->nrm[k] = nm > 1 ? vdec_morph_sum(v, vd->morph, nm) : v[0];
        }
    }

    /* Position. */
    if (vd->through) {
        uint32_t a = base + lay->off_pos;
        if (vd->pos == 2) {
            out->pos[0] = gemath_from_int((int16_t)mem_read16(mem, a));
            out->pos[1] = gemath_from_int((int16_t)mem_read16(mem, a + 2));
            out->pos[2] = gemath_from_int(mem_read16(mem, a + 4));
        } else if (vd->pos == 3) {
            for (int k = 0; k < 3; k++) out->pos[k] = gemath_from_f32bits(mem_read32(mem, a + 4 * (uint32_t)k));
            if (out->pos[2] & 0x80000000u) out->pos[2] = 0;
            else if (gemath_cmp(out->pos[2], gemath_from_int(65535)) > 0) out->pos[2] = gemath_from_int(65535);
        }
        /* s8 (and no position) through-mode vertices decode as 0, as in PPSSPP. */
    } else {
        for (int k = 0; k < 3; k++) {
            gefloat v[8] = {0};
            for (unsigned m = 0; m < nm; m++) v[m] = read_vec(mem, base + m * lay->target_size + lay->off_pos, vd->pos, k);
            out->pos[k] = nm > 1 ? vdec_morph_sum(v, vd->morph, nm) : v[0];
        }
    }
}
