/* The per-pixel pipeline (pipeline/pixel.c). Every expected value is worked
 * out by hand in the comments from the rules pixel.c documents (PPSSPP's
 * DrawPixel.cpp / Sampler.cpp behaviour, with GE-HARDWARE.md §3's 8-bit
 * product m(x, f) = ((2x+1)(2f+1)) >> 10 in the blender), never with the
 * module's own code. Packed 8888 pixels are R | G<<8 | B<<16 | A<<24. */
#include <string.h>

#include "pixel.h"
#include "test.h"

static void set(struct ge_state *st, unsigned cmd, uint32_t data) { st->reg[cmd] = (uint32_t)cmd << 24 | (data & 0xFFFFFF); }

/* Registers at power-on (data 0) with the given framebuffer format. */
static void base(struct ge_state *st, unsigned fmt)
{
    memset(st, 0, sizeof *st);
    for (unsigned i = 0; i < 256; i++) st->reg[i] = i << 24;
    set(st, GE_FB_FORMAT, fmt);
    set(st, GE_MAX_Z, 0xFFFF);
}

static void put32(uint8_t *b, uint32_t v) { b[0] = v & 0xFF; b[1] = v >> 8 & 0xFF; b[2] = v >> 16 & 0xFF; b[3] = v >> 24; }
static uint32_t get32(const uint8_t *b) { return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24; }
static void put16(uint8_t *b, uint16_t v) { b[0] = v & 0xFF; b[1] = v >> 8; }
static uint16_t get16(const uint8_t *b) { return (uint16_t)(b[0] | b[1] << 8); }

/* Draws one fragment at (0, 0) on a 32-bit pixel holding `old`, returns the
 * stored pixel; *wrote gets pixel_write's result (may be NULL). */
static uint32_t draw32(const struct ge_state *st, uint32_t old, const uint8_t c[4], uint16_t z, uint8_t *zb, bool *wrote)
{
    struct gt_pixel_state ps;
    pixel_snapshot(&ps, st);
    uint8_t fb[4];
    put32(fb, old);
    bool w = pixel_write(&ps, 0, 0, z, c, 255, fb, zb);
    if (wrote) *wrote = w;
    return get32(fb);
}
static uint16_t draw16(const struct ge_state *st, uint16_t old, const uint8_t c[4], uint16_t z, uint8_t *zb, bool *wrote)
{
    struct gt_pixel_state ps;
    pixel_snapshot(&ps, st);
    uint8_t fb[2];
    put16(fb, old);
    bool w = pixel_write(&ps, 0, 0, z, c, 255, fb, zb);
    if (wrote) *wrote = w;
    return get16(fb);
}

/* ---- The 8-bit product --------------------------------------------------- */

TEST(pixel_blend_product)
{
    /* m(128,128) = 257*257 >> 10 = 66049 >> 10 = 64 */
    CHECK_EQ_U(pixel_blend_mul(128, 128), 64);
    /* m(200,200) = 401*401 >> 10 = 160801 >> 10 = 157; x*s/255 truncated
     * would be 40000/255 = 156.86 -> 156, and x*s >> 8 = 156. */
    CHECK_EQ_U(pixel_blend_mul(200, 200), 157);
    /* m(128,127) = 257*255 >> 10 = 65535 >> 10 = 63; x*s/255 rounded would
     * be 16256/255 = 63.75 -> 64. */
    CHECK_EQ_U(pixel_blend_mul(128, 127), 63);
    /* m(255,255) = 511*511 >> 10 = 261121 >> 10 = 255; m(255,0) = 511 >> 10 = 0 */
    CHECK_EQ_U(pixel_blend_mul(255, 255), 255);
    CHECK_EQ_U(pixel_blend_mul(255, 0), 0);
    /* Doubled factors above 255: m(255,510) = 511*1021 >> 10 = 521731 >> 10 = 509;
     * m(100,300) = 201*601 >> 10 = 120801 >> 10 = 117. */
    CHECK_EQ_U(pixel_blend_mul(255, 510), 509);
    CHECK_EQ_U(pixel_blend_mul(100, 300), 117);
}

/* ---- Blend factors and equations ---------------------------------------- */

/* Source (200, 100, 50, sa) onto the 8888 pixel 0x64A05028 = (40, 80, 160),
 * alpha/stencil 100 = 0x64 (kept: no stencil test). FIXA = (240, 160, 16),
 * FIXB = (7, 128, 255). */
#define BL_DST 0x64A05028u
static uint32_t blend_one(unsigned a, unsigned b, unsigned eq, uint8_t sa)
{
    struct ge_state st;
    base(&st, PX_FMT_8888);
    set(&st, GE_BLEND_ON, 1);
    set(&st, GE_BLEND_MODE, a | b << 4 | eq << 8);
    set(&st, GE_BLEND_FIXA, 0x10A0F0);
    set(&st, GE_BLEND_FIXB, 0xFF8007);
    const uint8_t c[4] = {200, 100, 50, sa};
    return draw32(&st, BL_DST, c, 0, NULL, NULL);
}

TEST(pixel_blend_src_factors)
{
    /* Destination factor FIXB with FIXB = 0 adds m(d, 0) = (2d+1) >> 10 = 0,
     * so the result is m(src, factor). Only R's arithmetic is shown; G and B
     * follow the same way. sa = 160, da = 100. */
#define SRC(code, sa, exp)                                                       \
    do {                                                                         \
        struct ge_state s_;                                                      \
        base(&s_, PX_FMT_8888);                                                  \
        set(&s_, GE_BLEND_ON, 1);                                                \
        set(&s_, GE_BLEND_MODE, (code) | 10u << 4);                              \
        set(&s_, GE_BLEND_FIXA, 0x10A0F0);                                       \
        set(&s_, GE_BLEND_FIXB, 0);                                              \
        const uint8_t c_[4] = {200, 100, 50, sa};                                \
        CHECK_EQ_U(draw32(&s_, BL_DST, c_, 0, NULL, NULL), exp);                 \
    } while (0)
    SRC(0, 160, 0x641F1F1Fu);  /* dst color: m(200,40) = 401*81 >> 10 = 31; m(100,80) = 31; m(50,160) = 31 */
    SRC(1, 160, 0x641244A8u);  /* 255-dst: m(200,215) = 401*431 >> 10 = 168; G m(100,175) = 68; B m(50,95) = 18 */
    SRC(2, 160, 0x641F3F7Du);  /* sa=160: m(200,160) = 401*321 >> 10 = 125; 63; 31 */
    SRC(3, 160, 0x6412254Au);  /* 95: m(200,95) = 401*191 >> 10 = 74; 37; 18 */
    SRC(4, 160, 0x6413274Eu);  /* da=100: m(200,100) = 401*201 >> 10 = 78; 39; 19 */
    SRC(5, 160, 0x641E3D79u);  /* 155: m(200,155) = 401*311 >> 10 = 121; 61; 30 */
    SRC(6, 160, 0x643F7DFBu);  /* 2sa=320 (not clamped): m(200,320) = 401*641 >> 10 = 251; 125; 63 */
    SRC(7, 160, 0x64000000u);  /* 255-320 = -65 (not clamped): the lone term is negative -> 0 */
    SRC(7, 50, 0x641E3D79u);   /* sa=50: 255-100 = 155: 121; 61; 30 */
    SRC(6, 50, 0x6413274Eu);   /* 2*50 = 100: 78; 39; 19 */
    SRC(8, 160, 0x64274E9Du);  /* 2da=200: m(200,200) = 157; m(100,200) = 201*401 >> 10 = 78; 39 */
    SRC(9, 160, 0x640A152Bu);  /* 255-200 = 55: m(200,55) = 401*111 >> 10 = 43; 21; 10 */
    SRC(10, 160, 0x64033FBCu); /* FIXA (240,160,16): m(200,240) = 401*481 >> 10 = 188; m(100,160) = 63; m(50,16) = 101*33 >> 10 = 3 */
    SRC(15, 160, 0x64033FBCu); /* codes 11..15 also read FIXA */
#undef SRC
}

TEST(pixel_blend_dst_factors)
{
    /* Source factor FIXA = 0 adds m(s, 0) = 0; result m(dst, factor) with
     * dst (40, 80, 160). "Other" is the source color here. */
#define DST(code, sa, exp)                                                       \
    do {                                                                         \
        struct ge_state s_;                                                      \
        base(&s_, PX_FMT_8888);                                                  \
        set(&s_, GE_BLEND_ON, 1);                                                \
        set(&s_, GE_BLEND_MODE, 10u | (code) << 4);                              \
        set(&s_, GE_BLEND_FIXA, 0);                                              \
        set(&s_, GE_BLEND_FIXB, 0xFF8007);                                       \
        const uint8_t c_[4] = {200, 100, 50, sa};                                \
        CHECK_EQ_U(draw32(&s_, BL_DST, c_, 0, NULL, NULL), exp);                 \
    } while (0)
    DST(0, 160, 0x641F1F1Fu);  /* src color: m(40,200) = 81*401 >> 10 = 31; m(80,100) = 31; m(160,50) = 31 */
    DST(1, 160, 0x64803008u);  /* 255-src (55,155,205): m(40,55) = 81*111 >> 10 = 8; m(80,155) = 48; m(160,205) = 321*411 >> 10 = 128 */
    DST(2, 160, 0x64643219u);  /* 160: m(40,160) = 81*321 >> 10 = 25; 50; 100 */
    DST(3, 160, 0x643B1E0Fu);  /* 95: m(40,95) = 81*191 >> 10 = 15; 30; 59 */
    DST(4, 160, 0x643F1F0Fu);  /* da=100: m(40,100) = 81*201 >> 10 = 15; 31; 63 */
    DST(5, 160, 0x64613018u);  /* 155: m(40,155) = 81*311 >> 10 = 24; 48; 97 */
    DST(6, 160, 0x64C86432u);  /* 320: m(40,320) = 81*641 >> 10 = 50; 100; m(160,320) = 321*641 >> 10 = 200 */
    DST(7, 160, 0x64000000u);  /* 255-320 = -65: the lone term is negative -> 0 */
    DST(7, 50, 0x64613018u);   /* 155 */
    DST(8, 160, 0x647D3F1Fu);  /* 200: m(40,200) = 31; 63; 125 */
    DST(9, 160, 0x64221108u);  /* 55: m(40,55) = 8; m(80,55) = 161*111 >> 10 = 17; 34 */
    DST(10, 160, 0x64A02801u); /* FIXB (7,128,255): m(40,7) = 81*15 >> 10 = 1; m(80,128) = 161*257 >> 10 = 40; m(160,255) = 321*511 >> 10 = 160 */
    DST(15, 160, 0x64A02801u); /* codes 11..15 read FIXB */
#undef DST
}

TEST(pixel_blend_equations)
{
    /* A = src alpha (160), B = 1 - src alpha (95).
     * L = m(s, 160): R 401*321 >> 10 = 125, G 201*321 >> 10 = 63, B 101*321 >> 10 = 31.
     * R = m(d, 95):  R 81*191 >> 10 = 15, G 161*191 >> 10 = 30, B 321*191 >> 10 = 59. */
    CHECK_EQ_U(blend_one(2, 3, PX_BEQ_ADD, 160), 0x645A5D8Cu);  /* 140, 93, 90 */
    CHECK_EQ_U(blend_one(2, 3, PX_BEQ_SUB, 160), 0x6400216Eu);  /* 110, 33, 0 (31-59 clamps) */
    CHECK_EQ_U(blend_one(2, 3, PX_BEQ_RSUB, 160), 0x641C0000u); /* 0, 0, 28 */
    /* MIN/MAX/ABSDIFF ignore the factors: src (200,100,50), dst (40,80,160). */
    CHECK_EQ_U(blend_one(2, 3, PX_BEQ_MIN, 160), 0x64325028u);     /* 40, 80, 50 */
    CHECK_EQ_U(blend_one(2, 3, PX_BEQ_MAX, 160), 0x64A064C8u);     /* 200, 100, 160 */
    CHECK_EQ_U(blend_one(2, 3, PX_BEQ_ABSDIFF, 160), 0x646E14A0u); /* 160, 20, 110 */
    /* Equations 6 and 7 disable blending: the source color is written. */
    CHECK_EQ_U(blend_one(2, 3, 6, 160), 0x643264C8u);
    CHECK_EQ_U(blend_one(2, 3, 7, 160), 0x643264C8u);
    /* The doubled inverse is not clamped (ge-arithmetic.md "8-bit color
     * products"): source factor sa = 160, destination 255 - 2 * 160 = -65,
     * whose term is subtracted: R m(200,160) - m(40,65) = 125 - (81*131 >> 10
     * = 10) = 115; G 63 - (161*131 >> 10 = 20) = 43; B 31 - (321*131 >> 10 =
     * 41) < 0 -> 0. A clamped factor (0) would leave 125, 63, 31. */
    CHECK_EQ_U(blend_one(2, 7, PX_BEQ_ADD, 160), 0x64002B73u);
    /* Saturation: ONE-like doubled factors, ADD: m(200,320) + m(40,320) = 251 + 50 = 301 -> 255. */
    CHECK_EQ_U(blend_one(6, 6, PX_BEQ_ADD, 160) & 0xFF, 255);
    /* The 8-bit product differs from x*s/255 here: FIXA = 200 on R = 200:
     * m(200,200) = 157 where 200*200/255 = 156.86 would truncate to 156. */
    struct ge_state st;
    base(&st, PX_FMT_8888);
    set(&st, GE_BLEND_ON, 1);
    set(&st, GE_BLEND_MODE, 10 | 10 << 4);
    set(&st, GE_BLEND_FIXA, 0xC8);
    const uint8_t c[4] = {200, 0, 0, 0};
    CHECK_EQ_U(draw32(&st, BL_DST, c, 0, NULL, NULL), 0x6400009Du); /* R 157, G m(0,0)=0, B 0 */
}

TEST(pixel_blend_dst_alpha_formats)
{
    /* Destination alpha as read from 16-bit formats: 4444 nibble 6 -> 0x66 = 102;
     * 565 -> 0. SRC factor DST_A, DST factor FIXB 0. src R 200. */
    struct ge_state st;
    base(&st, PX_FMT_4444);
    set(&st, GE_BLEND_ON, 1);
    set(&st, GE_BLEND_MODE, 4 | 10 << 4);
    const uint8_t c[4] = {200, 0, 0, 0};
    /* old 0x6000: m(200,102) = 401*205 >> 10 = 80 -> nibble 80>>4 = 5; alpha nibble kept 6. */
    CHECK_EQ_U(draw16(&st, 0x6000, c, 0, NULL, NULL), 0x6005);
    base(&st, PX_FMT_565);
    set(&st, GE_BLEND_ON, 1);
    set(&st, GE_BLEND_MODE, 5 | 10 << 4); /* 255 - 0 = 255: m(200,255) = 401*511 >> 10 = 200 -> 200>>3 = 25 */
    CHECK_EQ_U(draw16(&st, 0x0000, c, 0, NULL, NULL), 25);
}

/* ---- Texture function ---------------------------------------------------- */

static void tf(unsigned func, bool rgba, bool dbl, const uint8_t *sec, uint8_t out[4])
{
    struct ge_state st;
    base(&st, PX_FMT_8888);
    set(&st, GE_TEX_FUNC, func | (rgba ? 0x100u : 0) | (dbl ? 0x10000u : 0));
    set(&st, GE_TEX_ENV, 10 | 20 << 8 | 30 << 16);
    struct gt_pixel_state ps;
    pixel_snapshot(&ps, &st);
    const uint8_t p[4] = {30, 1, 50, 128}, t[4] = {60, 128, 100, 64};
    pixel_texfunc(&ps, p, t, sec, out);
}
#define TF(func, rgba, dbl, r, g, b, a)                                          \
    do {                                                                         \
        uint8_t o_[4];                                                           \
        tf(func, rgba, dbl, NULL, o_);                                           \
        CHECK_EQ_U((unsigned)o_[0] | o_[1] << 8 | o_[2] << 16 | (unsigned)o_[3] << 24, \
                   (unsigned)(r) | (g) << 8 | (b) << 16 | (unsigned)(a) << 24);  \
    } while (0)

TEST(pixel_texfunc_all)
{
    /* prim (30, 1, 50, 128), texel (60, 128, 100, 64), env (10, 20, 30).
     * MODULATE: (p+1)*t >> 8: R 31*60 = 1860 >> 8 = 7; G 2*128 >> 8 = 1
     * (the 8-bit product m(1,128) = 3*257 >> 10 would give 0); B 51*100 >> 8 = 19.
     * RGBA alpha (129*64) >> 8 = 32. Doubled: 3720 >> 8 = 14; 512 >> 8 = 2; 10200 >> 8 = 39. */
    TF(PX_TF_MODULATE, false, false, 7, 1, 19, 128);
    TF(PX_TF_MODULATE, true, false, 7, 1, 19, 32);
    TF(PX_TF_MODULATE, false, true, 14, 2, 39, 128);
    TF(PX_TF_MODULATE, true, true, 14, 2, 39, 32);
    /* DECAL RGB: texel color (doubled 2t, saturating: 256 -> 255); alpha prim.
     * RGBA: ((p+1)(255-ta) + (t+1)ta) >> 8 with ta = 64: R 31*191 + 61*64 = 9825 -> 38;
     * G 2*191 + 129*64 = 8638 -> 33; B 51*191 + 101*64 = 16205 -> 63; doubled >> 7: 76, 67, 126. */
    TF(PX_TF_DECAL, false, false, 60, 128, 100, 128);
    TF(PX_TF_DECAL, true, false, 38, 33, 63, 128);
    TF(PX_TF_DECAL, false, true, 120, 255, 200, 128);
    TF(PX_TF_DECAL, true, true, 76, 67, 126, 128);
    /* BLEND: ((255-t)p + t*env + 255) >> 8: R 195*30 + 60*10 + 255 = 6705 -> 26;
     * G 127 + 2560 + 255 = 2942 -> 11; B 155*50 + 3000 + 255 = 11005 -> 42; doubled >> 7: 52, 22, 85.
     * Alpha as MODULATE. */
    TF(PX_TF_BLEND, false, false, 26, 11, 42, 128);
    TF(PX_TF_BLEND, true, false, 26, 11, 42, 32);
    TF(PX_TF_BLEND, false, true, 52, 22, 85, 128);
    TF(PX_TF_BLEND, true, true, 52, 22, 85, 32);
    /* REPLACE: texel (doubled too); alpha texel's in RGBA mode. */
    TF(PX_TF_REPLACE, false, false, 60, 128, 100, 128);
    TF(PX_TF_REPLACE, true, false, 60, 128, 100, 64);
    TF(PX_TF_REPLACE, false, true, 120, 255, 200, 128);
    TF(PX_TF_REPLACE, true, true, 120, 255, 200, 64);
    /* ADD: p + t = 90, 129, 150; doubled 180, 258 -> 255, 300 -> 255; alpha as MODULATE. */
    TF(PX_TF_ADD, false, false, 90, 129, 150, 128);
    TF(PX_TF_ADD, true, false, 90, 129, 150, 32);
    TF(PX_TF_ADD, false, true, 180, 255, 255, 128);
    TF(PX_TF_ADD, true, true, 180, 255, 255, 32);
    /* 5..7 behave as ADD. */
    TF(5, false, false, 90, 129, 150, 128);
    TF(7, true, false, 90, 129, 150, 32);
}

TEST(pixel_texfunc_secondary)
{
    uint8_t o[4];
    const uint8_t sec[3] = {200, 5, 0};
    /* ADD: 90 + 200 = 290 -> 255; 129 + 5 = 134; 150 + 0; alpha untouched by sec. */
    tf(PX_TF_ADD, false, false, sec, o);
    CHECK_EQ_U(o[0], 255);
    CHECK_EQ_U(o[1], 134);
    CHECK_EQ_U(o[2], 150);
    CHECK_EQ_U(o[3], 128);
    /* MODULATE R 7 + 200 = 207 */
    tf(PX_TF_MODULATE, false, false, sec, o);
    CHECK_EQ_U(o[0], 207);
    /* Doubled (measured: the secondary color is doubled too):
     * clamp(((2t (p + 1)) >> 8) + 2s): R 14 + 400 -> 255; G 2 + 10 = 12;
     * B 39 + 0 = 39 (undoubled secondary: 7). */
    tf(PX_TF_MODULATE, false, true, sec, o);
    CHECK_EQ_U(o[0], 255);
    CHECK_EQ_U(o[1], 12);
    CHECK_EQ_U(o[2], 39);
    const uint8_t p[4] = {250, 3, 0, 9};
    pixel_add_secondary(p, sec, o); /* 450 -> 255, 8, 0, alpha 9 */
    CHECK_EQ_U(o[0], 255);
    CHECK_EQ_U(o[1], 8);
    CHECK_EQ_U(o[2], 0);
    CHECK_EQ_U(o[3], 9);
}

/* ---- Fog ------------------------------------------------------------------ */

TEST(pixel_fog)
{
    struct ge_state st;
    base(&st, PX_FMT_8888);
    set(&st, GE_FOG_ON, 1);
    set(&st, GE_FOG_COLOR, 10 | 20 << 8 | 250 << 16);
    struct gt_pixel_state ps;
    pixel_snapshot(&ps, &st);
    const uint8_t c[4] = {200, 100, 0, 77};
    uint8_t fb[4];
    put32(fb, 0x55000000);
    /* f = 100: (c*f + fc*(255-f) + 255) >> 8:
     * R 20000 + 1550 + 255 = 21805 -> 85; G 10000 + 3100 + 255 = 13355 -> 52;
     * B 0 + 38750 + 255 = 39005 -> 152. Alpha/stencil stays 0x55. */
    CHECK(pixel_write(&ps, 0, 0, 0, c, 100, fb, NULL));
    CHECK_EQ_U(get32(fb), 0x55983455u);
    /* f = 255: (255c + 255) >> 8 = c for every c in 0..255. */
    put32(fb, 0);
    pixel_write(&ps, 0, 0, 0, c, 255, fb, NULL);
    CHECK_EQ_U(get32(fb), 0x000064C8u);
    /* f = 0: (255*fc + 255) >> 8 = fc. */
    pixel_write(&ps, 0, 0, 0, c, 0, fb, NULL);
    CHECK_EQ_U(get32(fb), 0x00FA140Au);
    /* Through mode: no fog. */
    set(&st, GE_VTYPE, 1u << 23);
    pixel_snapshot(&ps, &st);
    CHECK(!ps.fog);
    pixel_write(&ps, 0, 0, 0, c, 100, fb, NULL);
    CHECK_EQ_U(get32(fb), 0x000064C8u);
}

/* ---- Color, alpha tests --------------------------------------------------- */

TEST(pixel_color_test)
{
    struct ge_state st;
    base(&st, PX_FMT_8888);
    set(&st, GE_COLORTEST_ON, 1);
    const uint8_t c[4] = {0x12, 0x34, 0x56, 0};
    /* color 0x563412; ref 0x5634FF; mask 0xFFFF00: both masked to 0x563400, equal. */
    set(&st, GE_COLOR_REF, 0x5634FF);
    set(&st, GE_COLOR_TEST_MASK, 0xFFFF00);
    bool w;
    set(&st, GE_COLOR_TEST, PX_NEVER);    draw32(&st, 0, c, 0, NULL, &w); CHECK(!w);
    set(&st, GE_COLOR_TEST, PX_ALWAYS);   draw32(&st, 0, c, 0, NULL, &w); CHECK(w);
    set(&st, GE_COLOR_TEST, PX_EQUAL);    draw32(&st, 0, c, 0, NULL, &w); CHECK(w);
    set(&st, GE_COLOR_TEST, PX_NOTEQUAL); draw32(&st, 0, c, 0, NULL, &w); CHECK(!w);
    /* Full mask: 0x563412 vs 0x5634FF differ. */
    set(&st, GE_COLOR_TEST_MASK, 0xFFFFFF);
    set(&st, GE_COLOR_TEST, PX_EQUAL);    draw32(&st, 0, c, 0, NULL, &w); CHECK(!w);
    set(&st, GE_COLOR_TEST, PX_NOTEQUAL); CHECK_EQ_U(draw32(&st, 0, c, 0, NULL, &w), 0x00563412u); CHECK(w);
    /* Single-bit masks: only the masked bits are compared. */
    set(&st, GE_COLOR_TEST_MASK, 0x000020); /* R bit 5: 0x12 has 0, 0xFF has 1 -> differ */
    set(&st, GE_COLOR_TEST, PX_EQUAL);    draw32(&st, 0, c, 0, NULL, &w); CHECK(!w);
    set(&st, GE_COLOR_TEST_MASK, 0x000010); /* R bit 4: both 1 -> equal */
    draw32(&st, 0, c, 0, NULL, &w); CHECK(w);
    /* Off: ignored. */
    set(&st, GE_COLORTEST_ON, 0);
    set(&st, GE_COLOR_TEST, PX_NEVER);    draw32(&st, 0, c, 0, NULL, &w); CHECK(w);
}

TEST(pixel_alpha_test)
{
    struct ge_state st;
    base(&st, PX_FMT_8888);
    set(&st, GE_ALPHATEST_ON, 1);
    const uint8_t c[4] = {1, 2, 3, 0x5A};
    /* mask 0xFF: alpha 0x5A vs ref 0x50 -> greater. Expected pass per function:
     * NEVER 0, ALWAYS 1, EQUAL 0, NOTEQUAL 1, LESS 0, LEQUAL 0, GREATER 1, GEQUAL 1. */
    static const bool gt[8] = {0, 1, 0, 1, 0, 0, 1, 1};
    /* mask 0xF0: 0x50 vs 0x50 -> equal: 0 1 1 0 0 1 0 1. */
    static const bool eq[8] = {0, 1, 1, 0, 0, 1, 0, 1};
    /* ref 0x60, mask 0xFF: 0x5A < 0x60: 0 1 0 1 1 1 0 0. */
    static const bool lt[8] = {0, 1, 0, 1, 1, 1, 0, 0};
    for (unsigned f = 0; f < 8; f++) {
        bool w;
        set(&st, GE_ALPHA_TEST, f | 0x50 << 8 | 0xFF << 16);
        draw32(&st, 0, c, 0, NULL, &w);
        CHECK_MSG(w == gt[f], "func %u greater", f);
        set(&st, GE_ALPHA_TEST, f | 0x50 << 8 | 0xF0 << 16);
        draw32(&st, 0, c, 0, NULL, &w);
        CHECK_MSG(w == eq[f], "func %u masked equal", f);
        /* ref masked too: ref 0x5F & 0xF0 = 0x50 equals 0x5A & 0xF0 */
        set(&st, GE_ALPHA_TEST, f | 0x5F << 8 | 0xF0 << 16);
        draw32(&st, 0, c, 0, NULL, &w);
        CHECK_MSG(w == eq[f], "func %u masked ref", f);
        set(&st, GE_ALPHA_TEST, f | 0x60 << 8 | 0xFF << 16);
        draw32(&st, 0, c, 0, NULL, &w);
        CHECK_MSG(w == lt[f], "func %u less", f);
    }
}

/* ---- Stencil ---------------------------------------------------------------- */

TEST(pixel_stencil_test_funcs)
{
    struct ge_state st;
    base(&st, PX_FMT_8888);
    set(&st, GE_STENCILTEST_ON, 1);
    const uint8_t c[4] = {1, 2, 3, 4};
    /* Stored stencil 0x40, ref 0x30, mask 0xFF: the test is ref FUNC stencil,
     * 0x30 < 0x40: NEVER 0, ALWAYS 1, EQUAL 0, NOTEQUAL 1, LESS 1, LEQUAL 1, GREATER 0, GEQUAL 0. */
    static const bool lt[8] = {0, 1, 0, 1, 1, 1, 0, 0};
    /* ref 0x3F mask 0xF0 against stencil 0x35: 0x30 == 0x30: 0 1 1 0 0 1 0 1 */
    static const bool eq[8] = {0, 1, 1, 0, 0, 1, 0, 1};
    for (unsigned f = 0; f < 8; f++) {
        bool w;
        set(&st, GE_STENCIL_TEST, f | 0x30 << 8 | 0xFF << 16);
        draw32(&st, 0x40000000, c, 0, NULL, &w);
        CHECK_MSG(w == lt[f], "func %u", f);
        set(&st, GE_STENCIL_TEST, f | 0x3F << 8 | 0xF0 << 16);
        draw32(&st, 0x35000000, c, 0, NULL, &w);
        CHECK_MSG(w == eq[f], "func %u masked", f);
    }
    /* 565: stencil reads 0. ref 0 EQUAL passes; ref 1 EQUAL fails, ref 1 GREATER passes. */
    base(&st, PX_FMT_565);
    set(&st, GE_STENCILTEST_ON, 1);
    bool w;
    set(&st, GE_STENCIL_TEST, PX_EQUAL | 0 << 8 | 0xFF << 16);
    draw16(&st, 0xFFFF, c, 0, NULL, &w); CHECK(w);
    set(&st, GE_STENCIL_TEST, PX_EQUAL | 1 << 8 | 0xFF << 16 );
    CHECK_EQ_U(draw16(&st, 0xFFFF, c, 0, NULL, &w), 0xFFFF); CHECK(!w);
    set(&st, GE_STENCIL_TEST, PX_GREATER | 1 << 8 | 0xFF << 16);
    draw16(&st, 0xFFFF, c, 0, NULL, &w); CHECK(w);
}

/* Stencil after a failing stencil test (func NEVER) with SFAIL = op and ref. */
static uint32_t sfail(unsigned fmt, unsigned op, unsigned ref, uint32_t old)
{
    struct ge_state st;
    base(&st, fmt);
    set(&st, GE_STENCILTEST_ON, 1);
    set(&st, GE_STENCIL_TEST, PX_NEVER | ref << 8 | 0xFF << 16);
    set(&st, GE_STENCIL_OP, op);
    const uint8_t c[4] = {0xFF, 0xFF, 0xFF, 0xFF};
    bool w;
    uint32_t r = fmt == PX_FMT_8888 ? draw32(&st, old, c, 0, NULL, &w) : draw16(&st, (uint16_t)old, c, 0, NULL, &w);
    CHECK(!w);
    return r;
}

TEST(pixel_stencil_ops_8888)
{
    /* Old pixel 0x40112233: stencil 0x40, color untouched on failure. */
    CHECK_EQ_U(sfail(3, PX_SOP_KEEP, 0x9C, 0x40112233), 0x40112233u);
    CHECK_EQ_U(sfail(3, PX_SOP_ZERO, 0x9C, 0x40112233), 0x00112233u);
    CHECK_EQ_U(sfail(3, PX_SOP_REPLACE, 0x9C, 0x40112233), 0x9C112233u);
    CHECK_EQ_U(sfail(3, PX_SOP_INVERT, 0x9C, 0x40112233), 0xBF112233u);
    CHECK_EQ_U(sfail(3, PX_SOP_INCR, 0x9C, 0x40112233), 0x41112233u);
    CHECK_EQ_U(sfail(3, PX_SOP_DECR, 0x9C, 0x40112233), 0x3F112233u);
    CHECK_EQ_U(sfail(3, 6, 0x9C, 0x40112233), 0x40112233u); /* 6, 7: keep */
    CHECK_EQ_U(sfail(3, 7, 0x9C, 0x40112233), 0x40112233u);
    CHECK_EQ_U(sfail(3, PX_SOP_INCR, 0, 0xFF112233), 0xFF112233u); /* saturates */
    CHECK_EQ_U(sfail(3, PX_SOP_DECR, 0, 0x00112233), 0x00112233u);
}

TEST(pixel_stencil_ops_4444)
{
    /* Old 0x5123: stencil nibble 5 reads 0x55. */
    CHECK_EQ_U(sfail(2, PX_SOP_KEEP, 0x9C, 0x5123), 0x5123);
    CHECK_EQ_U(sfail(2, PX_SOP_ZERO, 0x9C, 0x5123), 0x0123);
    CHECK_EQ_U(sfail(2, PX_SOP_REPLACE, 0x9C, 0x5123), 0x9123); /* 0x9C >> 4 = 9 */
    CHECK_EQ_U(sfail(2, PX_SOP_INVERT, 0x9C, 0x5123), 0xA123); /* ~0x55 = 0xAA -> A */
    CHECK_EQ_U(sfail(2, PX_SOP_INCR, 0x9C, 0x5123), 0x6123);   /* 0x55 + 0x10 = 0x65 -> 6 */
    CHECK_EQ_U(sfail(2, PX_SOP_DECR, 0x9C, 0x5123), 0x4123);   /* 0x45 -> 4 */
    CHECK_EQ_U(sfail(2, PX_SOP_INCR, 0, 0xE123), 0xF123);      /* 0xEE < 0xF0: 0xFE -> F */
    CHECK_EQ_U(sfail(2, PX_SOP_INCR, 0, 0xF123), 0xF123);      /* 0xFF: unchanged */
    CHECK_EQ_U(sfail(2, PX_SOP_DECR, 0, 0x0123), 0x0123);      /* 0x00: unchanged */
    CHECK_EQ_U(sfail(2, PX_SOP_DECR, 0, 0x1123), 0x0123);      /* 0x11 -> 0x01 -> 0 */
}

TEST(pixel_stencil_ops_5551)
{
    /* Old 0x8123: stencil bit set, reads 0xFF. */
    CHECK_EQ_U(sfail(1, PX_SOP_KEEP, 0, 0x8123), 0x8123);
    CHECK_EQ_U(sfail(1, PX_SOP_ZERO, 0, 0x8123), 0x0123);
    CHECK_EQ_U(sfail(1, PX_SOP_REPLACE, 0x7F, 0x8123), 0x0123); /* bit 7 of ref */
    CHECK_EQ_U(sfail(1, PX_SOP_REPLACE, 0x80, 0x0123), 0x8123);
    CHECK_EQ_U(sfail(1, PX_SOP_INVERT, 0, 0x8123), 0x0123);
    CHECK_EQ_U(sfail(1, PX_SOP_INVERT, 0, 0x0123), 0x8123);
    CHECK_EQ_U(sfail(1, PX_SOP_INCR, 0, 0x0123), 0x8123); /* INCR -> 0xFF */
    CHECK_EQ_U(sfail(1, PX_SOP_DECR, 0, 0x8123), 0x0123); /* DECR -> 0 */
    /* 565: no stencil bits, nothing written. */
    CHECK_EQ_U(sfail(0, PX_SOP_ZERO, 0, 0xFFFF), 0xFFFF);
}

TEST(pixel_stencil_zfail_zpass)
{
    /* 8888, stencil ALWAYS, depth LESS against stored 0x8000. SFAIL INVERT,
     * ZFAIL INCR, ZPASS DECR, ref 0x77. */
    struct ge_state st;
    base(&st, PX_FMT_8888);
    set(&st, GE_STENCILTEST_ON, 1);
    set(&st, GE_STENCIL_TEST, PX_ALWAYS | 0x77 << 8 | 0xFF << 16);
    set(&st, GE_STENCIL_OP, PX_SOP_INVERT | PX_SOP_INCR << 8 | PX_SOP_DECR << 16);
    set(&st, GE_ZTEST_ON, 1);
    set(&st, GE_Z_TEST, PX_LESS);
    const uint8_t c[4] = {0xAA, 0xBB, 0xCC, 0xDD};
    uint8_t zb[2];
    bool w;
    put16(zb, 0x8000);
    /* z 0x9000 fails: ZFAIL INCR 0x40 -> 0x41, color and depth unchanged. */
    CHECK_EQ_U(draw32(&st, 0x40112233, c, 0x9000, zb, &w), 0x41112233u);
    CHECK(!w);
    CHECK_EQ_U(get16(zb), 0x8000);
    /* z 0x7000 passes: ZPASS DECR 0x40 -> 0x3F goes out with the color, depth written. */
    CHECK_EQ_U(draw32(&st, 0x40112233, c, 0x7000, zb, &w), 0x3FCCBBAAu);
    CHECK(w);
    CHECK_EQ_U(get16(zb), 0x7000);
    /* Depth test off: ZPASS applies; no depth write without the depth test. */
    set(&st, GE_ZTEST_ON, 0);
    put16(zb, 0x8000);
    CHECK_EQ_U(draw32(&st, 0x40112233, c, 0x9000, zb, &w), 0x3FCCBBAAu);
    CHECK_EQ_U(get16(zb), 0x8000);
    /* Stencil test off: stencil kept as stored whatever the ops. */
    set(&st, GE_STENCILTEST_ON, 0);
    CHECK_EQ_U(draw32(&st, 0x40112233, c, 0x9000, zb, &w), 0x40CCBBAAu);
    /* 4444 ZPASS REPLACE ref 0x77 -> nibble 7 with color 0xAA,0xBB,0xCC -> A, B, C. */
    base(&st, PX_FMT_4444);
    set(&st, GE_STENCILTEST_ON, 1);
    set(&st, GE_STENCIL_TEST, PX_ALWAYS | 0x77 << 8 | 0xFF << 16);
    set(&st, GE_STENCIL_OP, PX_SOP_REPLACE << 16);
    CHECK_EQ_U(draw16(&st, 0x1000, c, 0, NULL, &w), 0x7CBA);
}

/* ---- Depth ---------------------------------------------------------------- */

TEST(pixel_depth_test)
{
    struct ge_state st;
    base(&st, PX_FMT_8888);
    set(&st, GE_ZTEST_ON, 1);
    const uint8_t c[4] = {1, 2, 3, 4};
    /* Stored 0x8000; z = 0x7FFF, 0x8000, 0x8001 (z FUNC stored). */
    static const bool exp[8][3] = {
        {0, 0, 0}, /* NEVER */  {1, 1, 1}, /* ALWAYS */  {0, 1, 0}, /* EQUAL */  {1, 0, 1}, /* NOTEQUAL */
        {1, 0, 0}, /* LESS */   {1, 1, 0}, /* LEQUAL */  {0, 0, 1}, /* GREATER */ {0, 1, 1}, /* GEQUAL */
    };
    static const uint16_t zs[3] = {0x7FFF, 0x8000, 0x8001};
    for (unsigned f = 0; f < 8; f++)
        for (unsigned k = 0; k < 3; k++) {
            uint8_t zb[2];
            put16(zb, 0x8000);
            set(&st, GE_Z_TEST, f);
            bool w;
            draw32(&st, 0, c, zs[k], zb, &w);
            CHECK_MSG(w == exp[f][k], "func %u z %x", f, zs[k]);
            /* Depth is written exactly when the pixel passes (write enabled). */
            CHECK_EQ_U(get16(zb), w ? zs[k] : 0x8000);
        }
}

TEST(pixel_depth_write)
{
    struct ge_state st;
    base(&st, PX_FMT_8888);
    set(&st, GE_ZTEST_ON, 1);
    set(&st, GE_Z_TEST, PX_ALWAYS);
    const uint8_t c[4] = {1, 2, 3, 4};
    uint8_t zb[2];
    put16(zb, 0x1111);
    draw32(&st, 0, c, 0x2222, zb, NULL);
    CHECK_EQ_U(get16(zb), 0x2222);
    set(&st, GE_Z_WRITE_DISABLE, 1);
    draw32(&st, 0, c, 0x3333, zb, NULL);
    CHECK_EQ_U(get16(zb), 0x2222);
    /* Depth test off: no write even with writes enabled, and NEVER is ignored. */
    set(&st, GE_Z_WRITE_DISABLE, 0);
    set(&st, GE_ZTEST_ON, 0);
    set(&st, GE_Z_TEST, PX_NEVER);
    bool w;
    draw32(&st, 0, c, 0x4444, zb, &w);
    CHECK(w);
    CHECK_EQ_U(get16(zb), 0x2222);
}

TEST(pixel_depth_range)
{
    struct ge_state st;
    base(&st, PX_FMT_8888);
    set(&st, GE_MIN_Z, 0x1000);
    set(&st, GE_MAX_Z, 0x2000);
    const uint8_t c[4] = {1, 2, 3, 4};
    bool w;
    draw32(&st, 0, c, 0x0FFF, NULL, &w); CHECK(!w);
    draw32(&st, 0, c, 0x1000, NULL, &w); CHECK(w);
    draw32(&st, 0, c, 0x2000, NULL, &w); CHECK(w);
    draw32(&st, 0, c, 0x2001, NULL, &w); CHECK(!w);
    /* Through mode: no range test. */
    set(&st, GE_VTYPE, 1u << 23);
    draw32(&st, 0, c, 0x0FFF, NULL, &w); CHECK(w);
    draw32(&st, 0, c, 0xFFFF, NULL, &w); CHECK(w);
    /* Clear mode in transform mode: the range test applies (depth not cleared either). */
    set(&st, GE_VTYPE, 0);
    set(&st, GE_CLEAR_MODE, 1 | 0x700);
    uint8_t zb[2];
    put16(zb, 0x5555);
    CHECK_EQ_U(draw32(&st, 0x12345678, c, 0x3000, zb, &w), 0x12345678u);
    CHECK(!w);
    CHECK_EQ_U(get16(zb), 0x5555);
}

/* ---- Dither ----------------------------------------------------------------- */

TEST(pixel_dither)
{
    struct ge_state st;
    base(&st, PX_FMT_8888);
    set(&st, GE_DITHER_ON, 1);
    /* Row 0 nibbles x0..x3 = 0, 8, F, 7 -> 0, -8, -1, 7; row 3 = 1, 2, 3, 4 at x 0..3. */
    set(&st, GE_DITHER0, 0x7F80);
    set(&st, GE_DITHER0 + 3, 0x4321);
    struct gt_pixel_state ps;
    pixel_snapshot(&ps, &st);
    CHECK_EQ_I(ps.dither_matrix[0], 0);
    CHECK_EQ_I(ps.dither_matrix[1], -8);
    CHECK_EQ_I(ps.dither_matrix[2], -1);
    CHECK_EQ_I(ps.dither_matrix[3], 7);
    CHECK_EQ_I(ps.dither_matrix[12], 1);
    CHECK_EQ_I(ps.dither_matrix[15], 4);
    uint8_t fb[4];
    const uint8_t c[4] = {100, 3, 250, 9};
    /* (1, 0): -8 -> 92, 3-8 clamps to 0, 242; alpha (stencil kept 0) undithered. */
    put32(fb, 0);
    pixel_write(&ps, 1, 0, 0, c, 255, fb, NULL);
    CHECK_EQ_U(get32(fb), 0x00F2005Cu);
    /* (7, 4) = (3, 0): +7 -> 107, 10, 257 -> 255. */
    pixel_write(&ps, 7, 4, 0, c, 255, fb, NULL);
    CHECK_EQ_U(get32(fb), 0x00FF0A6Bu);
    /* (2, 3): row 3 entry 2 = 3 -> 103, 6, 253. */
    pixel_write(&ps, 2, 3, 0, c, 255, fb, NULL);
    CHECK_EQ_U(get32(fb), 0x00FD0667u);
    /* Dither and the blender. FIXA = FIXB = 255: m(x,255) = (2x+1)*511 >> 10 = x.
     * SUB with src R 100, dst R 200: 100 - 200 < 0 clamps to 0 before the
     * dither (model choice, PPSSPP's JIT), + 7 at (3,0) = 7 (a rule adding
     * the dither first would give 0). */
    set(&st, GE_BLEND_ON, 1);
    set(&st, GE_BLEND_MODE, 10 | 10 << 4 | PX_BEQ_SUB << 8);
    set(&st, GE_BLEND_FIXA, 0xFFFFFF);
    set(&st, GE_BLEND_FIXB, 0xFFFFFF);
    pixel_snapshot(&ps, &st);
    put32(fb, 0x000000C8);
    pixel_write(&ps, 3, 0, 0, c, 255, fb, NULL);
    CHECK_EQ_U(get32(fb) & 0xFF, 7);
    /* ADD, src R 100, dst R 100: 200 - 8 (at x=1) = 192. */
    set(&st, GE_BLEND_MODE, 10 | 10 << 4 | PX_BEQ_ADD << 8);
    pixel_snapshot(&ps, &st);
    put32(fb, 0x00000064);
    pixel_write(&ps, 1, 0, 0, c, 255, fb, NULL);
    CHECK_EQ_U(get32(fb) & 0xFF, 192);
    /* Clear mode dithers too: (1,0) color 100 -> 92. */
    set(&st, GE_BLEND_ON, 0);
    set(&st, GE_CLEAR_MODE, 1 | 0x100);
    pixel_snapshot(&ps, &st);
    put32(fb, 0);
    pixel_write(&ps, 1, 0, 0, c, 255, fb, NULL);
    CHECK_EQ_U(get32(fb), 0x00F2005Cu);
    /* Dither off: unchanged. */
    set(&st, GE_DITHER_ON, 0);
    pixel_snapshot(&ps, &st);
    pixel_write(&ps, 1, 0, 0, c, 255, fb, NULL);
    CHECK_EQ_U(get32(fb), 0x00FA0364u);
}

/* ---- Logic ops -------------------------------------------------------------- */

TEST(pixel_logic_ops)
{
    /* src 0xCC in R, G, B onto dst 0xF0 (alpha/stencil 0x77 kept). Per op:
     * CLEAR 00, AND C0, AND_REVERSE s&~d 0C, COPY CC, AND_INVERTED ~s&d 30,
     * NOOP F0, XOR 3C, OR FC, NOR 03, EQUIV C3, INVERTED ~d 0F,
     * OR_REVERSE s|~d CF, COPY_INVERTED 33, OR_INVERTED ~s|d F3, NAND 3F, SET FF. */
    static const uint8_t exp[16] = {0x00, 0xC0, 0x0C, 0xCC, 0x30, 0xF0, 0x3C, 0xFC,
                                    0x03, 0xC3, 0x0F, 0xCF, 0x33, 0xF3, 0x3F, 0xFF};
    const uint8_t c[4] = {0xCC, 0xCC, 0xCC, 0x11};
    for (unsigned op = 0; op < 16; op++) {
        struct ge_state st;
        base(&st, PX_FMT_8888);
        set(&st, GE_LOGICOP_ON, 1);
        set(&st, GE_LOGIC_OP, op);
        uint32_t e = 0x77000000u | exp[op] * 0x010101u;
        CHECK_EQ_U(draw32(&st, 0x77F0F0F0, c, 0, NULL, NULL), e);
    }
    /* Logic op after blending: blend MIN(0xCC, 0xF0) = 0xCC, then XOR 0xF0 = 0x3C. */
    struct ge_state st;
    base(&st, PX_FMT_8888);
    set(&st, GE_LOGICOP_ON, 1);
    set(&st, GE_LOGIC_OP, PX_LOP_XOR);
    set(&st, GE_BLEND_ON, 1);
    set(&st, GE_BLEND_MODE, PX_BEQ_MIN << 8);
    CHECK_EQ_U(draw32(&st, 0x77F0F0F0, c, 0, NULL, NULL), 0x773C3C3Cu);
    /* 565: XOR of src R 0xFF with stored R 31 -> 0; G 0 ^ 0 = 0; B 0x80 (16) ^ 0 = 16. */
    base(&st, PX_FMT_565);
    set(&st, GE_LOGICOP_ON, 1);
    set(&st, GE_LOGIC_OP, PX_LOP_XOR);
    const uint8_t c2[4] = {0xFF, 0x00, 0x80, 0};
    CHECK_EQ_U(draw16(&st, 0x001F, c2, 0, NULL, NULL), 0x8000);
    /* The logic op leaves the stencil: stencil REPLACE 0x9C with SET -> alpha 0x9C. */
    base(&st, PX_FMT_8888);
    set(&st, GE_LOGICOP_ON, 1);
    set(&st, GE_LOGIC_OP, PX_LOP_SET);
    set(&st, GE_STENCILTEST_ON, 1);
    set(&st, GE_STENCIL_TEST, PX_ALWAYS | 0x9C << 8 | 0xFF << 16);
    set(&st, GE_STENCIL_OP, PX_SOP_REPLACE << 16);
    CHECK_EQ_U(draw32(&st, 0x77F0F0F0, c, 0, NULL, NULL), 0x9CFFFFFFu);
}

/* ---- Masks ------------------------------------------------------------------ */

TEST(pixel_write_masks)
{
    struct ge_state st;
    base(&st, PX_FMT_8888);
    /* MASK_RGB 0x0F00FF (1 = keep): R kept, G written, B low nibble kept.
     * src (0x12, 0x34, 0x56) onto (0xAB, 0xCD, 0xEF, 0x40): R AB, G 34,
     * B 0x50 | 0x0F = 0x5F; alpha kept 0x40 (no stencil test). */
    set(&st, GE_MASK_RGB, 0x0F00FF);
    set(&st, GE_MASK_ALPHA, 0x0F);
    const uint8_t c[4] = {0x12, 0x34, 0x56, 0x78};
    CHECK_EQ_U(draw32(&st, 0x40EFCDAB, c, 0, NULL, NULL), 0x405F34ABu);
    /* With stencil REPLACE 0x9C: alpha (0x9C & 0xF0) | (0x40 & 0x0F) = 0x90. */
    set(&st, GE_STENCILTEST_ON, 1);
    set(&st, GE_STENCIL_TEST, PX_ALWAYS | 0x9C << 8 | 0xFF << 16);
    set(&st, GE_STENCIL_OP, PX_SOP_REPLACE << 16);
    CHECK_EQ_U(draw32(&st, 0x40EFCDAB, c, 0, NULL, NULL), 0x905F34ABu);
    /* The mask also covers stencil written on failure: SFAIL REPLACE -> 0x90, color kept. */
    set(&st, GE_STENCIL_TEST, PX_NEVER | 0x9C << 8 | 0xFF << 16);
    set(&st, GE_STENCIL_OP, PX_SOP_REPLACE);
    CHECK_EQ_U(draw32(&st, 0x40EFCDAB, c, 0, NULL, NULL), 0x90EFCDABu);
    /* 565: mask bytes' top bits: R mask 0x08 >> 3 = 1 (R bit 0 kept), G 0xFC >> 2 = 0x3F
     * (all kept), B 0. src (0xFF, 0, 0x80) -> 0x1F | 16 << 11 = 0x801F; old 0xFFFE:
     * keep 0x07E1 -> (0x801F & ~0x07E1) | (0xFFFE & 0x07E1) = 0x801E | 0x07E0 = 0x87FE. */
    base(&st, PX_FMT_565);
    set(&st, GE_MASK_RGB, 0x00FC08);
    const uint8_t c2[4] = {0xFF, 0x00, 0x80, 0};
    CHECK_EQ_U(draw16(&st, 0xFFFE, c2, 0, NULL, NULL), 0x87FE);
    /* 5551 alpha mask bit 7 keeps the stencil bit even when the stencil op writes 0. */
    base(&st, PX_FMT_5551);
    set(&st, GE_MASK_ALPHA, 0x80);
    set(&st, GE_STENCILTEST_ON, 1);
    set(&st, GE_STENCIL_TEST, PX_ALWAYS);
    set(&st, GE_STENCIL_OP, PX_SOP_ZERO << 16);
    CHECK_EQ_U(draw16(&st, 0x8000, c2, 0, NULL, NULL), 0xC01F); /* 0x1F | 16<<10 | kept bit 15 */
    set(&st, GE_MASK_ALPHA, 0x7F);
    CHECK_EQ_U(draw16(&st, 0x8000, c2, 0, NULL, NULL), 0x401F);
}

/* ---- Quantisation ----------------------------------------------------------- */

TEST(pixel_quantize_formats)
{
    /* Truncation: 0x07 -> 5 bits 0 (rounding 7*31/255 = 0.85 would give 1);
     * 0x03 -> 6 bits 0; 0xF8 -> 31; 0x87 -> 6 bits 33. */
    CHECK_EQ_U(pixel_quantize(PX_FMT_565, 0xFFF80307u), 0xF800);         /* R 0, G 0, B 31 */
    CHECK_EQ_U(pixel_quantize(PX_FMT_565, 0x000F87FFu), 0x0C3F);         /* 31 | 33<<5 | 1<<11 */
    CHECK_EQ_U(pixel_quantize(PX_FMT_5551, 0x7FF80F07u), 0x7C20);        /* 0 | 1<<5 | 31<<10 | A 0x7F>>7 = 0 */
    CHECK_EQ_U(pixel_quantize(PX_FMT_5551, 0x80000000u), 0x8000);        /* A 0x80 -> 1 */
    CHECK_EQ_U(pixel_quantize(PX_FMT_4444, 0xEF1F0F00u | 0xFFu), 0xE10F); /* R 0xFF->F, G 0x0F->0, B 0x1F->1, A 0xEF->E */
    CHECK_EQ_U(pixel_quantize(PX_FMT_8888, 0x12345678u), 0x12345678u);
    /* Through pixel_write: color (7, 3, 0xF8) in 565. */
    struct ge_state st;
    base(&st, PX_FMT_565);
    const uint8_t c[4] = {0x07, 0x03, 0xF8, 0xFF};
    CHECK_EQ_U(draw16(&st, 0x1234, c, 0, NULL, NULL), 0xF800);
    /* 4444: stencil kept (nibble 0xA) and color (0x1F, 0x2F, 0xFF) -> 1, 2, F. */
    base(&st, PX_FMT_4444);
    const uint8_t c2[4] = {0x1F, 0x2F, 0xFF, 0};
    CHECK_EQ_U(draw16(&st, 0xA000, c2, 0, NULL, NULL), 0xAF21);
    /* 5551: (0x0F, 0x17, 0x08) -> 1, 2, 1; stencil bit kept. */
    base(&st, PX_FMT_5551);
    const uint8_t c3[4] = {0x0F, 0x17, 0x08, 0};
    CHECK_EQ_U(draw16(&st, 0x8000, c3, 0, NULL, NULL), 0x8441);
}

/* ---- Clear mode ------------------------------------------------------------- */

TEST(pixel_clear_mode)
{
    const uint8_t c[4] = {0xAA, 0xBB, 0xCC, 0xDD};
    uint8_t zb[2];
    struct ge_state st;
    /* flags (color, stencil, depth) -> pixel, depth. Old 0x44332211, depth 0x5678, z 0x1234. */
    struct { unsigned flags; uint32_t px; uint16_t z; } cases[] = {
        {0x000, 0x44332211u, 0x5678},
        {0x100, 0x44CCBBAAu, 0x5678},
        {0x200, 0xDD332211u, 0x5678},
        {0x400, 0x44332211u, 0x1234},
        {0x700, 0xDDCCBBAAu, 0x1234},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        base(&st, PX_FMT_8888);
        set(&st, GE_CLEAR_MODE, 1 | cases[i].flags);
        /* Every test, blending, logic op and fog is ignored in clear mode. */
        set(&st, GE_ALPHATEST_ON, 1);
        set(&st, GE_ZTEST_ON, 1);
        set(&st, GE_STENCILTEST_ON, 1);
        set(&st, GE_COLORTEST_ON, 1);
        set(&st, GE_BLEND_ON, 1);
        set(&st, GE_BLEND_MODE, 10 | 10 << 4);
        set(&st, GE_LOGICOP_ON, 1);
        set(&st, GE_LOGIC_OP, PX_LOP_CLEAR);
        set(&st, GE_FOG_ON, 1);
        put16(zb, 0x5678);
        struct gt_pixel_state ps;
        pixel_snapshot(&ps, &st);
        uint8_t fb[4];
        put32(fb, 0x44332211);
        CHECK(pixel_write(&ps, 0, 0, 0x1234, c, 0, fb, zb));
        CHECK_EQ_U(get32(fb), cases[i].px);
        CHECK_EQ_U(get16(zb), cases[i].z);
    }
    /* 4444 and 5551 with color and stencil: 0xDCBA; 0xDD >> 7 = 1: 0x8000 | 25<<10 | 23<<5 | 21. */
    base(&st, PX_FMT_4444);
    set(&st, GE_CLEAR_MODE, 0x301);
    CHECK_EQ_U(draw16(&st, 0, c, 0, NULL, NULL), 0xDCBA);
    base(&st, PX_FMT_5551);
    set(&st, GE_CLEAR_MODE, 0x301);
    CHECK_EQ_U(draw16(&st, 0, c, 0, NULL, NULL), 0x8000 | 25 << 10 | 23 << 5 | 21);
    /* Color flag only on 4444: stencil nibble 3 kept. */
    set(&st, GE_FB_FORMAT, PX_FMT_4444);
    set(&st, GE_CLEAR_MODE, 0x101);
    CHECK_EQ_U(draw16(&st, 0x3000, c, 0, NULL, NULL), 0x3CBA);
    /* Write masks still apply: MASK_RGB 0xFFFF00 keeps G and B, MASK_ALPHA 0xF0. */
    base(&st, PX_FMT_8888);
    set(&st, GE_CLEAR_MODE, 0x301);
    set(&st, GE_MASK_RGB, 0xFFFF00);
    set(&st, GE_MASK_ALPHA, 0xF0);
    CHECK_EQ_U(draw32(&st, 0x44332211, c, 0, NULL, NULL), 0x4D3322AAu);
}

/* ---- Snapshot ---------------------------------------------------------------- */

TEST(pixel_snapshot_fields)
{
    struct ge_state st;
    base(&st, PX_FMT_5551);
    set(&st, GE_ZTEST_ON, 1);
    set(&st, GE_Z_TEST, 0xFF);
    set(&st, GE_STENCIL_TEST, 0x3C5A06);
    set(&st, GE_STENCIL_OP, 0x050403);
    set(&st, GE_ALPHA_TEST, 0x7F8107);
    set(&st, GE_COLOR_TEST, 0xFE);
    set(&st, GE_COLOR_REF, 0xFFFFFF);
    set(&st, GE_COLOR_TEST_MASK, 0x00F00F);
    set(&st, GE_BLEND_MODE, 0xFFF5A);
    set(&st, GE_BLEND_ON, 1);
    set(&st, GE_TEX_FUNC, 0x10103);
    set(&st, GE_MIN_Z, 0xF1234);
    set(&st, GE_MAX_Z, 0x8765);
    struct gt_pixel_state ps;
    pixel_snapshot(&ps, &st);
    CHECK_EQ_U(ps.fb_format, 1);
    CHECK_EQ_U(ps.ztest_func, 7);
    CHECK(ps.depth_write);
    CHECK_EQ_U(ps.stest_func, 6);
    CHECK_EQ_U(ps.stest_ref, 0x5A);
    CHECK_EQ_U(ps.stest_mask, 0x3C);
    CHECK_EQ_U(ps.sop_sfail, 3);
    CHECK_EQ_U(ps.sop_zfail, 4);
    CHECK_EQ_U(ps.sop_zpass, 5);
    CHECK_EQ_U(ps.atest_func, 7);
    CHECK_EQ_U(ps.atest_ref, 0x81);
    CHECK_EQ_U(ps.atest_mask, 0x7F);
    CHECK_EQ_U(ps.ctest_func, 2);
    CHECK_EQ_U(ps.ctest_ref, 0x00F00F);
    CHECK_EQ_U(ps.blend_src, 0xA);
    CHECK_EQ_U(ps.blend_dst, 0x5);
    CHECK_EQ_U(ps.blend_eq, 7);
    CHECK(!ps.blend); /* equation 7 */
    CHECK_EQ_U(ps.tex_func, 3);
    CHECK(ps.tex_alpha);
    CHECK(ps.color_double);
    CHECK_EQ_U(ps.min_z, 0x1234);
    CHECK_EQ_U(ps.max_z, 0x8765);
    CHECK(!ps.through);
}
