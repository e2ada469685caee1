/* Vertex decoding: layouts, every component format, through mode, texture
 * scale/offset, indices and morphing. Expected values are worked out by hand
 * from the format rules (fixed-point scales are powers of two, so they are
 * exact in the GE format). */
#include <string.h>

#include "gehelp.h"
#include "test.h"
#include "vdecode.h"

#define VBUF 0x08200000u

static gefloat f(float x) { return gemath_from_float(x); }

static void decode(struct gehelp *h, uint32_t vtype, uint32_t index, struct gt_vin *out)
{
    struct gt_vdec vd;
    h->r.ge.st.reg[GE_VTYPE] = (uint32_t)GE_VTYPE << 24 | vtype;
    vdec_setup(&vd, &h->r.ge.st);
    vdec_read(&vd, &h->r.mem, VBUF, index, out);
}

static void put_f32(struct gehelp *h, uint32_t a, float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    mem_write32(&h->r.mem, a, u);
}

TEST(vdecode_layouts)
{
    struct gt_vlayout l;
    vdec_layout(1u | 7u << 2 | 3u << 7, &l);  /* u8 uv, 8888, float position */
    CHECK_EQ_U(l.off_tc, 0);
    CHECK_EQ_U(l.off_col, 4);
    CHECK_EQ_U(l.off_pos, 8);
    CHECK_EQ_U(l.stride, 20);
    vdec_layout(2u << 9 | 2u << 14 | 3u | 3u << 7, &l);  /* 3 u16 weights, float uv, float pos */
    CHECK_EQ_U(l.off_tc, 8);
    CHECK_EQ_U(l.off_pos, 16);
    CHECK_EQ_U(l.stride, 28);
    vdec_layout(1u << 9 | 1u << 5 | 1u << 7 | 2u << 18, &l);  /* u8 weight, s8 normal, s8 pos, 3 targets */
    CHECK_EQ_U(l.off_nrm, 1);
    CHECK_EQ_U(l.off_pos, 4);
    CHECK_EQ_U(l.target_size, 7);
    CHECK_EQ_U(l.stride, 21);
}

TEST(vdecode_positions_normals_weights)
{
    struct gehelp h;
    struct gt_vin v;
    gh_init(&h);
    /* s8 pos: -128, 64, 1 -> -1, 0.5, 1/128; s8 normal 127 -> 127/128 */
    const uint8_t s8[] = {0x7F, 0x00, 0x81, 0x80, 0x40, 0x01};
    for (uint32_t i = 0; i < sizeof s8; i++) mem_write8(&h.r.mem, VBUF + i, s8[i]);
    decode(&h, 1u << 5 | 1u << 7, 0, &v);
    CHECK_EQ_U(v.nrm[0], f(127.0f / 128));
    CHECK_EQ_U(v.nrm[1], 0);
    CHECK_EQ_U(v.nrm[2], f(-127.0f / 128));
    CHECK_EQ_U(v.pos[0], f(-1.0f));
    CHECK_EQ_U(v.pos[1], f(0.5f));
    CHECK_EQ_U(v.pos[2], f(1.0f / 128));
    /* s16 pos with 2 u16 weights: weights 0x8000 -> 1.0, 0x4000 -> 0.5; pos -32768, 16384, 3 */
    const uint16_t w16[] = {0x8000, 0x4000, 0x8000, 0x4000, 3};
    for (uint32_t i = 0; i < 5; i++) mem_write16(&h.r.mem, VBUF + 2 * i, w16[i]);
    decode(&h, 2u << 9 | 1u << 14 | 2u << 7, 0, &v);
    CHECK_EQ_U(v.weight[0], GEMATH_ONE);
    CHECK_EQ_U(v.weight[1], f(0.5f));
    CHECK_EQ_U(v.pos[0], f(-1.0f));
    CHECK_EQ_U(v.pos[1], f(0.5f));
    CHECK_EQ_U(v.pos[2], f(3.0f / 32768));
    /* float pos: the low 8 mantissa bits are cut (GE-HARDWARE.md §1). */
    put_f32(&h, VBUF, 1.0f + 1.0f / (1 << 20));
    put_f32(&h, VBUF + 4, -2.5f);
    put_f32(&h, VBUF + 8, 1e-3f);
    decode(&h, 3u << 7, 0, &v);
    CHECK_EQ_U(v.pos[0], GEMATH_ONE);
    CHECK_EQ_U(v.pos[1], f(-2.5f));
    uint32_t b;
    float x = 1e-3f;
    memcpy(&b, &x, 4);
    CHECK_EQ_U(v.pos[2], b & 0xFFFFFF00u);
    gh_free(&h);
}

TEST(vdecode_colors)
{
    struct gehelp h;
    struct gt_vin v;
    gh_init(&h);
    /* 565 0xF81F: R 31, G 0, B 31 -> 255, 0, 255, 255. 5-bit 16 -> 132 (bit replication). */
    mem_write16(&h.r.mem, VBUF, 0xF81F);
    decode(&h, 4u << 2 | 2u << 7, 0, &v);
    CHECK(v.color[0] == 255 && v.color[1] == 0 && v.color[2] == 255 && v.color[3] == 255);
    mem_write16(&h.r.mem, VBUF, 16 | 32u << 5);
    decode(&h, 4u << 2 | 2u << 7, 0, &v);
    CHECK_EQ_U(v.color[0], 132);  /* 16<<3 | 16>>2 */
    CHECK_EQ_U(v.color[1], 130);  /* 32<<2 | 32>>4 */
    /* 5551 0x8000 | B 1: A 255, B 8 */
    mem_write16(&h.r.mem, VBUF, 0x8000 | 1u << 10);
    decode(&h, 5u << 2 | 2u << 7, 0, &v);
    CHECK(v.color[0] == 0 && v.color[2] == 8 && v.color[3] == 255);
    /* 4444 0x1234 -> R 0x44, G 0x33, B 0x22, A 0x11 */
    mem_write16(&h.r.mem, VBUF, 0x1234);
    decode(&h, 6u << 2 | 2u << 7, 0, &v);
    CHECK(v.color[0] == 0x44 && v.color[1] == 0x33 && v.color[2] == 0x22 && v.color[3] == 0x11);
    /* 8888 bytes R, G, B, A in memory order */
    mem_write32(&h.r.mem, VBUF, 0x80402010);
    decode(&h, 7u << 2 | 2u << 7, 0, &v);
    CHECK(v.color[0] == 0x10 && v.color[1] == 0x20 && v.color[2] == 0x40 && v.color[3] == 0x80);
    gh_free(&h);
}

TEST(vdecode_texcoords_scale_offset)
{
    struct gehelp h;
    struct gt_vin v;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    /* u16 uv 16384, 65535 -> 0.5, 65535/32768; UV mode with scale 2, offset 0.25 */
    mem_write16(&h.r.mem, VBUF, 16384);
    mem_write16(&h.r.mem, VBUF + 2, 65535);
    st->reg[GE_TEXSCALE_U] = (uint32_t)GE_TEXSCALE_U << 24 | dl_float24(2.0f);
    st->reg[GE_TEXSCALE_U + 1] = (uint32_t)(GE_TEXSCALE_U + 1) << 24 | dl_float24(1.0f);
    st->reg[GE_TEXSCALE_U + 2] = (uint32_t)(GE_TEXSCALE_U + 2) << 24 | dl_float24(0.25f);
    st->reg[GE_TEXSCALE_U + 3] = (uint32_t)(GE_TEXSCALE_U + 3) << 24;
    decode(&h, 2u | 2u << 7, 0, &v);
    CHECK_EQ_U(v.uv[0], f(1.25f));
    CHECK_EQ_U(v.uv[1], f(65535.0f / 32768));
    /* Texture-matrix mode (1): no scale/offset. */
    st->reg[GE_TEX_MAPMODE] = (uint32_t)GE_TEX_MAPMODE << 24 | 1;
    decode(&h, 2u | 2u << 7, 0, &v);
    CHECK_EQ_U(v.uv[0], f(0.5f));
    /* u8 255 -> 255/128 */
    mem_write8(&h.r.mem, VBUF, 255);
    decode(&h, 1u | 2u << 7, 0, &v);
    CHECK_EQ_U(v.uv[0], f(255.0f / 128));
    gh_free(&h);
}

TEST(vdecode_through_mode)
{
    struct gehelp h;
    struct gt_vin v;
    gh_init(&h);
    /* s16 through: x, y signed pixels, z unsigned; u16 uv in texels. */
    const uint16_t d[] = {300, 17, 0xFFF6, 200, 0xFFFF};
    for (uint32_t i = 0; i < 5; i++) mem_write16(&h.r.mem, VBUF + 2 * i, d[i]);
    decode(&h, 1u << 23 | 2u | 2u << 7, 0, &v);
    CHECK_EQ_U(v.uv[0], f(300.0f));
    CHECK_EQ_U(v.uv[1], f(17.0f));
    CHECK_EQ_U(v.pos[0], f(-10.0f));
    CHECK_EQ_U(v.pos[1], f(200.0f));
    CHECK_EQ_U(v.pos[2], f(65535.0f));
    /* float through: z clamped to [0, 65535] */
    put_f32(&h, VBUF, 12.5f);
    put_f32(&h, VBUF + 4, -3.0f);
    put_f32(&h, VBUF + 8, 70000.0f);
    decode(&h, 1u << 23 | 3u << 7, 0, &v);
    CHECK_EQ_U(v.pos[0], f(12.5f));
    CHECK_EQ_U(v.pos[1], f(-3.0f));
    CHECK_EQ_U(v.pos[2], f(65535.0f));
    put_f32(&h, VBUF + 8, -5.0f);
    decode(&h, 1u << 23 | 3u << 7, 0, &v);
    CHECK_EQ_U(v.pos[2], 0);
    gh_free(&h);
}

TEST(vdecode_indices)
{
    struct gehelp h;
    struct gt_vdec vd;
    gh_init(&h);
    mem_write32(&h.r.mem, 0x08300000, 0x04030201);
    mem_write32(&h.r.mem, 0x08300004, 0x0000FFFF);
    h.r.ge.st.reg[GE_VTYPE] = (uint32_t)GE_VTYPE << 24 | 1u << 11 | 3u << 7;
    vdec_setup(&vd, &h.r.ge.st);
    CHECK_EQ_U(vdec_index(&vd, &h.r.mem, 0x08300000, 2), 3);
    h.r.ge.st.reg[GE_VTYPE] = (uint32_t)GE_VTYPE << 24 | 2u << 11 | 3u << 7;
    vdec_setup(&vd, &h.r.ge.st);
    CHECK_EQ_U(vdec_index(&vd, &h.r.mem, 0x08300000, 1), 0x0403);
    h.r.ge.st.reg[GE_VTYPE] = (uint32_t)GE_VTYPE << 24 | 3u << 11 | 3u << 7;
    vdec_setup(&vd, &h.r.ge.st);
    CHECK_EQ_U(vdec_index(&vd, &h.r.mem, 0x08300000, 1), 0xFFFF);
    h.r.ge.st.reg[GE_VTYPE] = (uint32_t)GE_VTYPE << 24 | 3u << 7;
    vdec_setup(&vd, &h.r.ge.st);
    CHECK_EQ_U(vdec_index(&vd, &h.r.mem, 0x08300000, 7), 7);
    /* vertex 2 of a 12-byte float array */
    put_f32(&h, VBUF + 24, 9.0f);
    struct gt_vin v;
    vdec_read(&vd, &h.r.mem, VBUF, 2, &v);
    CHECK_EQ_U(v.pos[0], f(9.0f));
    gh_free(&h);
}

TEST(vdecode_morphing)
{
    struct gehelp h;
    struct gt_vin v;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    /* Two targets of s16 positions (6 bytes each), weights 0.75 and 0.25. */
    st->reg[GE_MORPH0] = (uint32_t)GE_MORPH0 << 24 | dl_float24(0.75f);
    st->reg[GE_MORPH0 + 1] = (uint32_t)(GE_MORPH0 + 1) << 24 | dl_float24(0.25f);
    const int16_t t[6] = {4096, -8192, 0, 8192, 8192, 32};
    for (uint32_t i = 0; i < 6; i++) mem_write16(&h.r.mem, VBUF + 2 * i, (uint16_t)t[i]);
    decode(&h, 2u << 7 | 1u << 18, 0, &v);
    CHECK_EQ_U(v.pos[0], f(0.75f * 0.125f + 0.25f * 0.25f));
    CHECK_EQ_U(v.pos[1], f(0.75f * -0.25f + 0.25f * 0.25f));
    CHECK_EQ_U(v.pos[2], f(0.25f * 32 / 32768));
    /* Morphed colors (ge-vertex-pipeline.md "Morphing", measured): each
     * target expanded to 8 bits first (5-bit 16 by bit replication:
     * 16 << 3 | 16 >> 2 = 132; 31 -> 255), the weighted sum floored. With
     * weights 1 and 0: 132 (the real-scale 16 * 255 / 31 = 131.6 would give
     * 131). */
    st->reg[GE_MORPH0] = (uint32_t)GE_MORPH0 << 24 | dl_float24(1.0f);
    st->reg[GE_MORPH0 + 1] = (uint32_t)(GE_MORPH0 + 1) << 24;
    mem_write16(&h.r.mem, VBUF, 16);      /* target 0: color */
    mem_write16(&h.r.mem, VBUF + 8, 31);  /* target 1 (8 bytes per target: color 2, s16 pos at 2) */
    decode(&h, 4u << 2 | 2u << 7 | 1u << 18, 0, &v);
    CHECK_EQ_U(v.color[0], 132);
    CHECK_EQ_U(v.color[3], 255);
    /* Weights 0.5 and 0.5 of 16 and 31: 66 + 127.5 = 193.5 -> 193 */
    st->reg[GE_MORPH0] = (uint32_t)GE_MORPH0 << 24 | dl_float24(0.5f);
    st->reg[GE_MORPH0 + 1] = (uint32_t)(GE_MORPH0 + 1) << 24 | dl_float24(0.5f);
    decode(&h, 4u << 2 | 2u << 7 | 1u << 18, 0, &v);
    CHECK_EQ_U(v.color[0], 193);
    gh_free(&h);
}

TEST(vdecode_morph_sum_sequential)
{
    /* ge-vertex-pipeline.md "Morphing" (measured): float24(w v) per target,
     * summed left to right with the GE adder, each sum truncated. The adder
     * truncates both operands to the larger one's exponent (ge-arithmetic.md
     * "The adder"), so the order shows: 1.5 + (-1) = 0.5 exactly, then
     * 0.5 + 2^-16 works at exponent -1, whose lsb is 2^-16: 0.5 + 2^-16. A
     * single fused sum of the three would truncate 2^-16 to the 2^-15 grid
     * of 1.5 and give 0.5. */
    gefloat v[8] = {0}, w[8];
    for (int i = 0; i < 8; i++) w[i] = GEMATH_ONE;
    v[0] = f(1.5f), v[1] = f(-1.0f), v[2] = f(1.0f / (1 << 16));
    CHECK_EQ_U(vdec_morph_sum(v, w, 3), f(0.5f + 1.0f / (1 << 16)));
    /* Large first: 1 + 2^-17 truncates the small term at exponent 0, and
     * every later 2^-17 the same way: eight targets give 1. */
    v[0] = GEMATH_ONE;
    for (int i = 1; i < 8; i++) v[i] = f(1.0f / (1 << 17));
    CHECK_EQ_U(vdec_morph_sum(v, w, 8), GEMATH_ONE);
    /* Small first: they add up exactly (2^-15) before the 1 arrives, which
     * keeps them: 1 + 2^-15. */
    for (int i = 0; i < 4; i++) v[i] = f(1.0f / (1 << 17));
    v[4] = GEMATH_ONE;
    CHECK_EQ_U(vdec_morph_sum(v, w, 5), f(1.0f + 1.0f / (1 << 15)));
    /* The weight product is cut to float24 first: (1 + 2^-15)(1 + 2^-15) =
     * 1 + 2^-14 + 2^-30 -> 1 + 2^-14. */
    v[0] = f(1.0f + 1.0f / (1 << 15)), w[0] = v[0];
    CHECK_EQ_U(vdec_morph_sum(v, w, 1), f(1.0f + 1.0f / (1 << 14)));
}
