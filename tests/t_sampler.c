/* Texture sampling (pipeline/sampler.c): wrap/clamp, nearest, bilinear with
 * 4-bit weights, LOD modes and the mip filter. Every expected value is
 * worked out by hand in the comments from the rules sampler.h documents
 * (PPSSPP's behaviour), never with the module's own code.
 *
 * Most tests read a "position" texture (GE-HARDWARE.md §8): an 8888 texture
 * whose texel (x, y) of level L is R = 16x, G = 16y, B = 0x10 + 0x40 L,
 * A = 0xFF, packed 0xFF000000 | B << 16 | G << 8 | R. With it a bilinear
 * sample reads its own position: for left/top texels x0, y0 and weights fu,
 * fv (no wrap in between)
 *   R = ((16 x0 (16 - fu) + 16 (x0 + 1) fu) * 16) >> 8 = 16 x0 + fu,
 * likewise G = 16 y0 + fv, while B and A stay unchanged. */
#include <string.h>

#include "gehelp.h"
#include "sampler.h"
#include "test.h"

#define RAM 0x08400000u

static void set(struct ge_state *st, unsigned cmd, uint32_t data) { st->reg[cmd] = (uint32_t)cmd << 24 | (data & 0xFFFFFF); }

/* Level n as an 8888 texture at addr with a buffer width of 16 texels
 * (64-byte rows), size 2^wlog x 2^hlog. */
static void level_regs(struct ge_state *st, unsigned n, uint32_t addr, unsigned wlog, unsigned hlog)
{
    set(st, GE_TEX_FORMAT, GT_TFMT_8888);
    set(st, GE_TEX_ADDR0 + n, addr & 0xFFFFFF);
    set(st, GE_TEX_BUFW0 + n, 16 | ((addr >> 24) & 0xF) << 16);
    set(st, GE_TEX_SIZE0 + n, wlog | hlog << 8);
}

static void put(struct gehelp *h, uint32_t addr, unsigned x, unsigned y, uint32_t rgba)
{
    mem_write32(&h->r.mem, addr + y * 64 + x * 4, rgba);
}

#define POS(x, y, l) (0xFF000000u | (0x10u + 0x40u * (l)) << 16 | (16u * (y)) << 8 | 16u * (x))

/* Writes the position texture of level l (w x h <= 16 x 16) at RAM + l * 0x1000. */
static void pos_level(struct gehelp *h, unsigned l, unsigned wlog, unsigned hlog)
{
    uint32_t addr = RAM + l * 0x1000;
    level_regs(&h->r.ge.st, l, addr, wlog, hlog);
    for (unsigned y = 0; y < (1u << hlog); y++)
        for (unsigned x = 0; x < (1u << wlog); x++) put(h, addr, x, y, POS(x, y, l));
}

static struct gt_sampler sm(struct gehelp *h)
{
    struct gt_sampler s;
    sampler_snapshot(&s, &h->r.ge.st);
    return s;
}

static uint32_t smp(struct gehelp *h, int32_t u, int32_t v, unsigned level, unsigned frac, bool magnify)
{
    struct gt_sampler s = sm(h);
    return sampler_sample(&s, &h->r.mem, u, v, level, frac, magnify);
}

#define F_ONE 0x3F800000u
#define F_TWO 0x40000000u
#define F_THREE 0x40400000u
#define F_EIGHT 0x41000000u

/* Register fields land in the snapshot. */
TEST(sampler_snapshot_fields)
{
    struct gehelp h;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    set(st, GE_TEX_FILTER, 0x107);   /* min linear, mip linear, mipmaps, mag linear */
    set(st, GE_TEX_WRAP, 0x101);     /* clamp u and v */
    set(st, GE_TEX_LEVEL, 0xF00002); /* slope mode, bias 0xF0 = -16 (-1 level) */
    set(st, GE_TEX_LOD_SLOPE, 0x3F0000); /* 0.5 = 0x3F000000 */
    set(st, GE_TEX_MODE, 0x050000);  /* max level 5 */
    set(st, GE_TEX_SIZE0 + 2, 0x0304);   /* level 2: 16 x 8 */
    struct gt_sampler s = sm(&h);
    CHECK(s.min_linear && s.mip_linear && s.mip_enabled && s.mag_linear);
    CHECK(s.clamp_u && s.clamp_v);
    CHECK_EQ_U(s.lod_mode, GT_LOD_SLOPE);
    CHECK_EQ_I(s.bias, -16);
    CHECK_EQ_U(s.slope, 0x3F000000u);
    CHECK_EQ_U(s.max_level, 5);
    CHECK_EQ_U(s.wlog[2], 4);
    CHECK_EQ_U(s.hlog[2], 3);
    CHECK_EQ_U(s.tex.level[2].w, 16);

    set(st, GE_TEX_FILTER, 0x002);   /* mip linear but mipmaps off; the rest nearest */
    set(st, GE_TEX_WRAP, 0x100);     /* clamp v only */
    set(st, GE_TEX_LEVEL, 0x7F0003); /* mode 3, bias +127 */
    s = sm(&h);
    CHECK(!s.min_linear && s.mip_linear && !s.mip_enabled && !s.mag_linear);
    CHECK(!s.clamp_u && s.clamp_v);
    CHECK_EQ_U(s.lod_mode, 3);
    CHECK_EQ_I(s.bias, 127);
    CHECK_EQ_U(s.max_level, 0);      /* mipmaps off: no levels */
    CHECK_EQ_U(s.tex.max_level, 5);
    gh_free(&h);
}

/* Nearest: texel floor(u / 256), no half-texel offset. */
TEST(sampler_nearest_centres_edges)
{
    struct gehelp h;
    gh_init(&h);
    pos_level(&h, 0, 3, 3); /* 8x8, wrap, nearest */
    /* centre of (3, 5): u = 3*256 + 128, v = 5*256 + 128 -> R 0x30, G 0x50. */
    CHECK_EQ_U(smp(&h, 3 * 256 + 128, 5 * 256 + 128, 0, 0, true), 0xFF105030u);
    /* left/top edge of texel 3 still texel 3; the last 1/256 too. */
    CHECK_EQ_U(smp(&h, 3 * 256, 3 * 256, 0, 0, true), 0xFF103030u);
    CHECK_EQ_U(smp(&h, 3 * 256 + 255, 3 * 256 + 255, 0, 0, true), 0xFF103030u);
    /* 1/256 before the edge: texel 2 in both axes. */
    CHECK_EQ_U(smp(&h, 3 * 256 - 1, 3 * 256 - 1, 0, 0, true), 0xFF102020u);
    /* same with the minify filter (nearest too) */
    CHECK_EQ_U(smp(&h, 7 * 256 + 200, 0, 0, 0, false), 0xFF100070u);
    gh_free(&h);
}

/* Wrap (x & 7) and clamp (0..7) on each axis separately, negative coordinates. */
TEST(sampler_nearest_wrap_clamp)
{
    struct gehelp h;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    pos_level(&h, 0, 3, 3);
    /* wrap both */
    CHECK_EQ_U(smp(&h, -1, 128, 0, 0, true), POS(7, 0, 0));            /* -1 & 7 = 7 */
    CHECK_EQ_U(smp(&h, 8 * 256, 128, 0, 0, true), POS(0, 0, 0));       /* 8 & 7 = 0 */
    CHECK_EQ_U(smp(&h, -9 * 256, -9 * 256 + 255, 0, 0, true), POS(7, 7, 0)); /* -9 & 7 = 7 */
    CHECK_EQ_U(smp(&h, 800 * 256 + 2 * 256 + 5, -2 * 256 + 1, 0, 0, true), POS(2, 6, 0));
    /* clamp u only */
    set(st, GE_TEX_WRAP, 0x001);
    CHECK_EQ_U(smp(&h, -1, -1, 0, 0, true), POS(0, 7, 0));            /* u clamps to 0, v wraps */
    CHECK_EQ_U(smp(&h, 8 * 256, 8 * 256, 0, 0, true), POS(7, 0, 0));  /* u clamps to 7, v wraps */
    CHECK_EQ_U(smp(&h, -100000, 3 * 256, 0, 0, true), POS(0, 3, 0));
    CHECK_EQ_U(smp(&h, INT32_MAX, INT32_MIN, 0, 0, true), POS(7, 0, 0)); /* floor(MIN/256) & 7 = 0 */
    /* clamp v only */
    set(st, GE_TEX_WRAP, 0x100);
    CHECK_EQ_U(smp(&h, -1, -1, 0, 0, true), POS(7, 0, 0));
    CHECK_EQ_U(smp(&h, 9 * 256, 9 * 256, 0, 0, true), POS(1, 7, 0));
    gh_free(&h);
}

/* Bilinear on the position texture: R = 16 x0 + fu, G = 16 y0 + fv where
 * b = u - 128, x0 = floor(b / 256), fu = (b >> 4) & 15. */
TEST(sampler_bilinear_weights)
{
    struct gehelp h;
    gh_init(&h);
    set(&h.r.ge.st, GE_TEX_FILTER, 0x100); /* magnify bilinear */
    pos_level(&h, 0, 3, 3);
    int32_t v = 4 * 256 + 128; /* centre row 4: fv = 0, G = 0x40 */
    /* u from the centre of texel 2 to that of texel 3 in 1/16 steps: R = 0x20 + k. */
    for (int k = 0; k < 16; k++)
        CHECK_EQ_U(smp(&h, 2 * 256 + 128 + 16 * k, v, 0, 0, true), 0xFF104020u + (uint32_t)k);
    /* k = 16 is texel 3's centre: x0 = 3, fu = 0. */
    CHECK_EQ_U(smp(&h, 3 * 256 + 128, v, 0, 0, true), 0xFF104030u);
    /* the low 4 fraction bits are dropped: 5/16 + 15/256 still weighs 5/16. */
    CHECK_EQ_U(smp(&h, 2 * 256 + 128 + 16 * 5 + 15, v, 0, 0, true), 0xFF104025u);
    /* v: 9/16 of the way from row 4 to row 5: G = 0x40 + 9 = 0x49; u 5/16: R = 0x25. */
    CHECK_EQ_U(smp(&h, 2 * 256 + 128 + 80, 4 * 256 + 128 + 144, 0, 0, true), 0xFF104925u);
    /* the minify filter is nearest here: u = 720 -> texel 2, v = 1296 -> texel 5. */
    CHECK_EQ_U(smp(&h, 2 * 256 + 128 + 80, 4 * 256 + 128 + 144, 0, 0, false), POS(2, 5, 0));
    gh_free(&h);
}

/* The 4-bit weights and the truncations against full precision: each
 * horizontal lerp (a (16 - fu) + b fu) >> 4 truncated to 8 bits, then the
 * vertical one >> 4 (measured, ge-arithmetic.md "Texture function
 * arithmetic"); where only one row counts that is the old single >> 8. A 2x2
 * texture: (0,0) = R 0 G 255 B 100 A 255, (1,0) = R 160 G 0 B 37 A 255,
 * (0,1) = R 255 G 255 B 255 A 255, (1,1) = R 1 G 2 B 3 A 0. */
TEST(sampler_bilinear_truncation)
{
    struct gehelp h;
    gh_init(&h);
    set(&h.r.ge.st, GE_TEX_FILTER, 0x100);
    level_regs(&h.r.ge.st, 0, RAM, 1, 1);
    put(&h, RAM, 0, 0, 0xFF64FF00u);
    put(&h, RAM, 1, 0, 0xFF2500A0u);
    put(&h, RAM, 0, 1, 0xFFFFFFFFu);
    put(&h, RAM, 1, 1, 0x00030201u);
    /* u = 128 + 72: b = 72, fu = 72 >> 4 = 4 (full precision 72/256 = 0.28125);
     * v = 128: fv = 0, row 0 only.
     *   R: (0*12 + 160*4) * 16 >> 8 = 10240 >> 8 = 40 (full precision 45)
     *   G: (255*12 + 0*4) * 16 >> 8 = 48960 >> 8 = 191 (191.25; full 183.28)
     *   B: (100*12 + 37*4) * 16 >> 8 = 21568 >> 8 = 84 (84.25)
     *   A: 255. */
    CHECK_EQ_U(smp(&h, 128 + 72, 128, 0, 0, true), 0xFF54BF28u);
    /* u = 128 + 16: fu = 1.
     *   R: 160 * 16 >> 8 = 10; G: 255*15*16 >> 8 = 61200 >> 8 = 239 (239.06);
     *   B: (1500 + 37) * 16 >> 8 = 24592 >> 8 = 96 (96.06). */
    CHECK_EQ_U(smp(&h, 128 + 16, 128, 0, 0, true), 0xFF60EF0Au);
    /* fu = 4, v = 256: b = 128, fv = 8.
     *   R: top 640, bottom 255*12 + 1*4 = 3064: (640*8 + 3064*8) >> 8 = 29632 >> 8 = 115 (115.75)
     *   G: top 3060, bottom 255*12 + 2*4 = 3068: 49024 >> 8 = 191 (191.5)
     *   B: top 1348, bottom 255*12 + 3*4 = 3072: 35360 >> 8 = 138 (138.125)
     *   A: top 4080, bottom 255*12 + 0 = 3060: 57120 >> 8 = 223 (223.125) */
    CHECK_EQ_U(smp(&h, 128 + 72, 256, 0, 0, true), 0xDF8ABF73u);
    /* fu = 1, fv = 1, where truncating each row first shows:
     *   R: top 160 -> 10, bottom 255*15 + 1 = 3826 -> 239: (10*15 + 239) >> 4 = 24
     *   G: top 3825 -> 239, bottom 3827 -> 239: 239
     *   B: top 1500 + 37 = 1537 -> 96, bottom 3825 + 3 = 3828 -> 239:
     *      (96*15 + 239) >> 4 = 1679 >> 4 = 104 (one sum >> 8 gives 105)
     *   A: top 4080 -> 255, bottom 3825 -> 239: (255*15 + 239) >> 4 = 254 */
    CHECK_EQ_U(smp(&h, 128 + 16, 128 + 16, 0, 0, true), 0xFE68EF18u);
    gh_free(&h);
}

/* Sub-texel offsets are kept (GE-HARDWARE.md §2): only an exact centre
 * returns the texel itself. */
TEST(sampler_bilinear_no_snap)
{
    struct gehelp h;
    gh_init(&h);
    set(&h.r.ge.st, GE_TEX_FILTER, 0x100);
    pos_level(&h, 0, 3, 3);
    /* exact centre of (3, 3): the texel. */
    CHECK_EQ_U(smp(&h, 3 * 256 + 128, 3 * 256 + 128, 0, 0, true), POS(3, 3, 0));
    /* up to 15/256 past the centre: fu = 0, still the texel. */
    CHECK_EQ_U(smp(&h, 3 * 256 + 128 + 15, 3 * 256 + 128, 0, 0, true), POS(3, 3, 0));
    /* 1/256 before the centre: b = 767, x0 = 2, fu = (767 >> 4) & 15 = 15:
     * R = 0x20 + 15 = 0x2F, not 0x30. Same in v: G = 0x2F. */
    CHECK_EQ_U(smp(&h, 3 * 256 + 127, 3 * 256 + 127, 0, 0, true), 0xFF102F2Fu);
    gh_free(&h);
}

/* Bilinear across the texture edge: the two neighbours wrap or clamp on
 * their own. */
TEST(sampler_bilinear_edges)
{
    struct gehelp h;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    set(st, GE_TEX_FILTER, 0x100);
    pos_level(&h, 0, 3, 3);
    int32_t v1 = 256 + 128; /* row 1 centre: G = 0x10 */
    /* u = 7*256 + 192: b = 1856, x0 = 7, fu = 116 & 15 = 4; x1 = 8 wraps to 0:
     * R = (112*12 + 0*4) * 16 >> 8 = 84 = 0x54. */
    CHECK_EQ_U(smp(&h, 7 * 256 + 192, v1, 0, 0, true), 0xFF101054u);
    /* u = 64: b = -64, x0 = -1 -> 7, x1 = 0, fu = (-4) & 15 = 12:
     * R = (112*4 + 0*12) * 16 >> 8 = 28 = 0x1C. */
    CHECK_EQ_U(smp(&h, 64, v1, 0, 0, true), 0xFF10101Cu);
    /* u = -8*256 + 128 + 48: x0 = -8 -> 0, x1 = -7 -> 1, fu = 3: R = 3. */
    CHECK_EQ_U(smp(&h, -8 * 256 + 128 + 48, v1, 0, 0, true), 0xFF101003u);
    /* v = 64 (u at column 1 centre, R = 0x10): rows 7 and 0, fv = 12: G = 28. */
    CHECK_EQ_U(smp(&h, 256 + 128, 64, 0, 0, true), 0xFF101C10u);

    set(st, GE_TEX_WRAP, 0x001); /* clamp u */
    /* x0 = 7, x1 = 8 -> 7: R = 112 = 0x70 whatever fu. */
    CHECK_EQ_U(smp(&h, 7 * 256 + 192, v1, 0, 0, true), 0xFF101070u);
    /* x0 = -1 -> 0, x1 = 0: R = 0. */
    CHECK_EQ_U(smp(&h, 64, v1, 0, 0, true), 0xFF101000u);
    /* x0 = -8 -> 0, x1 = -7 -> 0: R = 0. */
    CHECK_EQ_U(smp(&h, -8 * 256 + 128 + 48, v1, 0, 0, true), 0xFF101000u);
    /* v still wraps: G = 28. */
    CHECK_EQ_U(smp(&h, 256 + 128, 64, 0, 0, true), 0xFF101C10u);

    set(st, GE_TEX_WRAP, 0x100); /* clamp v */
    /* rows -1 -> 0 and 0: G = 0; u wraps again: R = 0x1C. */
    CHECK_EQ_U(smp(&h, 64, 64, 0, 0, true), 0xFF10001Cu);
    /* v = 7*256 + 192: rows 7 and 8 -> 7: G = 0x70. */
    CHECK_EQ_U(smp(&h, 256 + 128, 7 * 256 + 192, 0, 0, true), 0xFF107010u);
    gh_free(&h);
}

/* The GE's log2 in 1/16 levels: exponent plus the top 4 mantissa bits. */
TEST(sampler_log2)
{
    CHECK_EQ_I(sampler_log2(F_ONE), 0);
    CHECK_EQ_I(sampler_log2(F_TWO), 16);
    CHECK_EQ_I(sampler_log2(F_THREE), 24);       /* 1.5 * 2: 16 + 8 (true log2 1.585) */
    CHECK_EQ_I(sampler_log2(0x3F400000u), -8);   /* 0.75 = 1.5 / 2: -16 + 8 */
    CHECK_EQ_I(sampler_log2(0x3FF80000u), 15);   /* 1.9375: mantissa top bits 1111 */
    CHECK_EQ_I(sampler_log2(0x3FFFFF00u), 15);   /* 1.99998: truncated, not rounded */
    CHECK_EQ_I(sampler_log2(0xC0000000u), 16);   /* -2.0: sign ignored */
    CHECK_EQ_I(sampler_log2(0), SAMPLER_LOG2_ZERO);
    CHECK_EQ_I(sampler_log2(0x80000000u), -2032);
    /* infinity reads as GEMATH_MAX: exponent 254, top bits 1111: 254*16 + 15 - 2032 = 2047 */
    CHECK_EQ_I(sampler_log2(0x7F800000u), 2047);
    /* fixed point: 256/2^8 = 1, 768/2^8 = 3, 1/2^8, 31, 5 */
    CHECK_EQ_I(sampler_log2_fixed(256, 8), 0);
    CHECK_EQ_I(sampler_log2_fixed(768, 8), 24);
    CHECK_EQ_I(sampler_log2_fixed(1, 8), -128);
    CHECK_EQ_I(sampler_log2_fixed(31, 0), 79);   /* 1.9375 * 16: 64 + 15 */
    CHECK_EQ_I(sampler_log2(0x41F80000u), 79);   /* 31.0 */
    CHECK_EQ_I(sampler_log2_fixed(5, 0), 36);    /* 1.25 * 4: 32 + 4 */
    CHECK_EQ_I(sampler_log2_fixed(0, 4), SAMPLER_LOG2_ZERO);
}

/* Constant mode (and mode 3): the bias alone. Linear and nearest mip filter. */
TEST(sampler_level_const)
{
    struct gehelp h;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    set(st, GE_TEX_FILTER, 0x007);  /* min linear, mip linear, mipmaps */
    set(st, GE_TEX_MODE, 0x030000); /* max level 3 */
    struct gt_sampler s;
    unsigned l, f;
#define LEVEL(bias_mode, lod, q, mag, el, ef)                          \
    do {                                                               \
        set(st, GE_TEX_LEVEL, (bias_mode));                            \
        s = sm(&h);                                                    \
        CHECK_EQ_U(sampler_level(&s, (lod), (q), &l, &f), (mag));      \
        CHECK_EQ_U(l, (el));                                           \
        CHECK_EQ_U(f, (ef));                                           \
    } while (0)
    /* lod_input and q are ignored in constant mode (1000 and 8.0 given). */
    LEVEL(0x000001, 1000, F_EIGHT, true, 0, 0);  /* detail 0: magnify */
    LEVEL(0x180001, 1000, F_EIGHT, false, 1, 8); /* +1.5 levels */
    LEVEL(0x010001, 1000, F_EIGHT, false, 0, 1); /* +1/16: minify, level 0, 1/16 toward 1 */
    LEVEL(0x300001, 1000, F_EIGHT, false, 3, 0); /* 48 = max level exactly */
    LEVEL(0x7F0001, 1000, F_EIGHT, false, 3, 0); /* 127 clamps to 48 */
    LEVEL(0xF00001, 1000, F_EIGHT, true, 0, 0);  /* -1 level: magnify */
    LEVEL(0x180003, 1000, F_EIGHT, false, 1, 8); /* mode 3 = constant */
    /* nearest mip filter: level (d + 8) >> 4, fraction 0 */
    set(st, GE_TEX_FILTER, 0x005);
    LEVEL(0x180001, 0, 0, false, 2, 0); /* 24 + 8 = 32 */
    LEVEL(0x170001, 0, 0, false, 1, 0); /* 23 + 8 = 31 */
    LEVEL(0x080001, 0, 0, false, 1, 0); /* 8 + 8 = 16 */
    LEVEL(0x070001, 0, 0, false, 0, 0); /* 15: level 0 but minified */
    LEVEL(0x7F0001, 0, 0, false, 3, 0); /* 48 + 8 = 56 -> 3 */
    /* mipmaps off: always level 0, the detail still picks the filter */
    set(st, GE_TEX_FILTER, 0x003);
    LEVEL(0x200001, 0, 0, false, 0, 0);
    LEVEL(0xFF0001, 0, 0, true, 0, 0);
    gh_free(&h);
}

/* Auto mode: the rasterizer's log2 of texels per pixel plus the bias. */
TEST(sampler_level_auto)
{
    struct gehelp h;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    set(st, GE_TEX_FILTER, 0x007);
    set(st, GE_TEX_MODE, 0x030000);
    struct gt_sampler s;
    unsigned l, f;
    /* q is ignored in auto mode (8.0 given). */
    LEVEL(0x000000, 24, F_EIGHT, false, 1, 8);  /* 3 texels/pixel: 24 */
    LEVEL(0xF80000, 24, F_EIGHT, false, 1, 0);  /* bias -0.5: 16 */
    LEVEL(0x200000, 24, F_EIGHT, false, 3, 0);  /* bias +2: 56 -> 48 */
    LEVEL(0x000000, -16, F_EIGHT, true, 0, 0);  /* 0.5 texels/pixel: magnify */
    LEVEL(0x140000, -16, F_EIGHT, false, 0, 4); /* bias +1.25: 4 */
    LEVEL(0x000000, 0, F_EIGHT, true, 0, 0);    /* exactly 1:1: magnify */
    LEVEL(0x800000, INT32_MIN, 0, true, 0, 0);  /* saturates, no overflow */
    LEVEL(0x7F0000, INT32_MAX, 0, false, 3, 0);
    gh_free(&h);
}

/* Slope mode (measured, ge-raster-pipeline.md "Mip level selection"):
 * detail = 16 + log16(slope) - log16(q) + bias, q the pixel's interpolated
 * q, log16 the float-bits log (exponent and top 4 mantissa bits). */
TEST(sampler_level_slope)
{
    struct gehelp h;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    set(st, GE_TEX_FILTER, 0x007);
    set(st, GE_TEX_MODE, 0x030000);
    set(st, GE_TEX_LOD_SLOPE, 0x3F0000); /* 0.5 */
    struct gt_sampler s;
    unsigned l, f;
    /* lod_input ignored (999 given); slope 0.5: log16 -16, so detail =
     * -log16(q) + bias. */
    LEVEL(0x000002, 999, 0x3F000000u, false, 1, 0); /* q 0.5: 16 */
    LEVEL(0x000002, 999, F_ONE, true, 0, 0);        /* q 1.0: 0, magnify */
    LEVEL(0x000002, 999, F_TWO, true, 0, 0);        /* q 2.0: -16, magnify */
    LEVEL(0x000002, 999, 0x3EAAAA00u, false, 1, 11); /* q 1/3 = 1.333 * 2^-2: -32 + 5 = -27: 27 */
    LEVEL(0xE00002, 999, 0x3E000000u, false, 1, 0);  /* q 1/8: 48, bias -2 levels: 16 */
    LEVEL(0x040002, 999, F_ONE, false, 0, 4);        /* 0 + 4 */
    LEVEL(0x000002, 999, 0, false, 3, 0);            /* q = 0: log16 of zero, far past the max */
    LEVEL(0x000002, 999, 0xC0000000u, true, 0, 0);   /* q = -2: sign ignored, as 2.0 */
    /* slope 0x3F2AAA00 = 0.666656 = 1.3333 * 2^-1: log16 -16 + 5 = -11 (the
     * float-bits log, not log2 0.667 * 16 = -9.4); q 1/4: detail 16 - 11 +
     * 32 = 37: level 2, fraction 5. */
    set(st, GE_TEX_LOD_SLOPE, 0x3F2AAA);
    LEVEL(0x000002, 999, 0x3E800000u, false, 2, 5);
    gh_free(&h);
#undef LEVEL
}

/* Level addresses and sizes: each level is read at its own address, with
 * its own size scaling and wrapping the coordinate. */
TEST(sampler_mip_levels_addr_size)
{
    struct gehelp h;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    set(st, GE_TEX_FILTER, 0x004);  /* nearest, mipmaps, nearest mip filter */
    set(st, GE_TEX_MODE, 0x020000); /* max level 2 */
    pos_level(&h, 0, 3, 3);         /* 8x8 at RAM */
    pos_level(&h, 1, 2, 2);         /* 4x4 at RAM + 0x1000 */
    pos_level(&h, 2, 1, 1);         /* 2x2 at RAM + 0x2000 */
    int32_t u = 5 * 256 + 128, v = 6 * 256 + 64;  /* 5.5, 6.25 in level-0 texels */
    CHECK_EQ_U(smp(&h, u, v, 0, 0, false), POS(5, 6, 0)); /* 0xFF106050 */
    /* level 1: 2.75, 3.125 -> (2, 3) of level 1 (B = 0x50) */
    CHECK_EQ_U(smp(&h, u, v, 1, 0, false), 0xFF503020u);
    /* level 2: 1.375, 1.5625 -> (1, 1) of level 2 (B = 0x90) */
    CHECK_EQ_U(smp(&h, u, v, 2, 0, false), 0xFF901010u);
    /* level 1 wraps at its own width 4: u = 9 -> 4.5 -> 4 & 3 = 0. */
    CHECK_EQ_U(smp(&h, 9 * 256, 128, 1, 0, false), POS(0, 0, 1));
    /* level 1 clamps at 3. */
    set(st, GE_TEX_WRAP, 0x101);
    CHECK_EQ_U(smp(&h, 9 * 256, 100 * 256, 1, 0, false), POS(3, 3, 1));
    set(st, GE_TEX_WRAP, 0);
    /* bilinear at level 1: u_1 = 704, b = 576, x0 = 2, fu = 36 & 15 = 4: R = 0x24;
     * v_1 = 800, b = 672, y0 = 2, fv = 42 & 15 = 10: G = 0x2A. */
    set(st, GE_TEX_FILTER, 0x005);
    CHECK_EQ_U(smp(&h, u, v, 1, 0, false), 0xFF502A24u);
    set(st, GE_TEX_FILTER, 0x004);
    /* a level 1 as large as level 0 (8x8) reads at level-0 scale: (5, 6). */
    pos_level(&h, 1, 3, 3);
    CHECK_EQ_U(smp(&h, u, v, 1, 0, false), POS(5, 6, 1));
    /* a level 1 larger than level 0 (16x16) reads at twice the scale: 11, 12.5 -> (11, 12). */
    pos_level(&h, 1, 4, 4);
    CHECK_EQ_U(smp(&h, u, v, 1, 0, false), POS(11, 12, 1));
    /* negative coordinates round down at level 2 too: u = -1 -> -1/4 of a 1/256
     * -> floor = -1 -> texel -1 & 1 = 1; v = 0 -> 0. */
    CHECK_EQ_U(smp(&h, -1, 0, 2, 0, false), POS(1, 0, 2));
    gh_free(&h);
}

/* The mip filter: level and level + 1 with the same filter, blended
 * (c1 * f + c0 * (16 - f)) >> 4. */
TEST(sampler_mip_filter)
{
    struct gehelp h;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    set(st, GE_TEX_FILTER, 0x006);  /* nearest, mip linear */
    set(st, GE_TEX_MODE, 0x020000);
    pos_level(&h, 0, 3, 3);
    pos_level(&h, 1, 2, 2);
    pos_level(&h, 2, 1, 1);
    int32_t u = 5 * 256 + 128, v = 6 * 256 + 64;
    /* nearest: c0 = (0x50, 0x60, 0x10, 0xFF), c1 = (0x20, 0x30, 0x50, 0xFF), f = 4:
     *   R (32*4 + 80*12) >> 4 = 1088 >> 4 = 68 = 0x44
     *   G (48*4 + 96*12) >> 4 = 1344 >> 4 = 84 = 0x54
     *   B (80*4 + 16*12) >> 4 = 512 >> 4 = 32 = 0x20 */
    CHECK_EQ_U(smp(&h, u, v, 0, 4, false), 0xFF205444u);
    CHECK_EQ_U(smp(&h, u, v, 0, 0, false), POS(5, 6, 0)); /* f = 0: level 0 alone */
    /* bilinear + mip linear at u = 5*256 + 168, v = 6*256 + 64:
     *   level 0: b = 1320 -> x0 5, fu 82&15 = 2, R 0x52; b = 1472 -> y0 5, fv 92&15 = 12, G 0x5C
     *   level 1: u 724, b 596 -> x0 2, fu 37&15 = 5, R 37; v 800, b 672 -> y0 2, fv 10, G 42
     *   f = 3: R (37*3 + 82*13) >> 4 = 1177 >> 4 = 73 (73.56)
     *          G (42*3 + 92*13) >> 4 = 1322 >> 4 = 82 (82.6)
     *          B (80*3 + 16*13) >> 4 = 448 >> 4 = 28 */
    set(st, GE_TEX_FILTER, 0x007);
    int32_t u2 = 5 * 256 + 168;
    CHECK_EQ_U(smp(&h, u2, v, 0, 3, false), 0xFF1C5249u);
    CHECK_EQ_U(smp(&h, u2, v, 0, 0, false), 0xFF105C52u);
    /* end to end: constant bias 0x03 -> level 0, fraction 3, minified. */
    set(st, GE_TEX_LEVEL, 0x030001);
    struct gt_sampler s = sm(&h);
    unsigned l, f;
    bool mag = sampler_level(&s, 0, 0, &l, &f);
    CHECK(!mag);
    CHECK_EQ_U(l, 0);
    CHECK_EQ_U(f, 3);
    CHECK_EQ_U(sampler_sample(&s, &h.r.mem, u2, v, l, f, mag), 0xFF1C5249u);
    /* between levels 1 and 2 (bias 0x18: level 1, f = 8), nearest filter:
     *   level 1 (2, 3) = (0x20, 0x30, 0x50), level 2 (1, 1) = (0x10, 0x10, 0x90)
     *   R (16*8 + 32*8) >> 4 = 24, G (16*8 + 48*8) >> 4 = 32, B (144*8 + 80*8) >> 4 = 112 */
    set(st, GE_TEX_FILTER, 0x006);
    set(st, GE_TEX_LEVEL, 0x180001);
    s = sm(&h);
    mag = sampler_level(&s, 0, 0, &l, &f);
    CHECK_EQ_U(l, 1);
    CHECK_EQ_U(f, 8);
    CHECK_EQ_U(sampler_sample(&s, &h.r.mem, u, v, l, f, mag), 0xFF702018u);
    gh_free(&h);
}

/* The magnify flag picks TEX_FILTER bit 8, else bit 0. */
TEST(sampler_filter_select)
{
    struct gehelp h;
    gh_init(&h);
    struct ge_state *st = &h.r.ge.st;
    pos_level(&h, 0, 3, 3);
    int32_t u = 2 * 256 + 128 + 80, v = 4 * 256 + 128; /* bilinear R 0x25, nearest texel 2 */
    set(st, GE_TEX_FILTER, 0x100);
    CHECK_EQ_U(smp(&h, u, v, 0, 0, true), 0xFF104025u);
    CHECK_EQ_U(smp(&h, u, v, 0, 0, false), POS(2, 4, 0));
    set(st, GE_TEX_FILTER, 0x001);
    CHECK_EQ_U(smp(&h, u, v, 0, 0, true), POS(2, 4, 0));
    CHECK_EQ_U(smp(&h, u, v, 0, 0, false), 0xFF104025u);
    /* sampler_wrap exposes the per-axis rule. */
    struct gt_sampler s = sm(&h);
    CHECK_EQ_U(sampler_wrap(&s, 0, 0, -3), 5);
    CHECK_EQ_U(sampler_wrap(&s, 1, 0, 17), 1);
    set(st, GE_TEX_WRAP, 0x101);
    s = sm(&h);
    CHECK_EQ_U(sampler_wrap(&s, 0, 0, -3), 0);
    CHECK_EQ_U(sampler_wrap(&s, 1, 0, 17), 7);
    gh_free(&h);
}
