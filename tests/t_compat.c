/* The PPSSPP emulation switches (pipeline/compat.h). The diagnostic build is
 * not the product; these tests pin the parts every build compiles: the
 * switch list parser, that the normal build cannot turn a switch on, and the
 * pure helpers the diagnostic build uses (PPSSPP's rectangle detection, its
 * rounding, its rectangle edge rule), each against cases worked out by hand
 * from PPSSPP's code as described in compat.c. */
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include "gemath.h"
#include "raster.h"
#include "test.h"
#include "transform.h"

TEST(compat_switch_lists)
{
    unsigned f = 123;
    CHECK_EQ_I(gt_compat_parse("all", &f), 0);
    CHECK_EQ_U(f, GT_COMPAT_ALL);
    CHECK_EQ_I(gt_compat_parse("arith,merge", &f), 0);
    CHECK_EQ_U(f, GT_COMPAT_ARITH | GT_COMPAT_MERGE);
    CHECK_EQ_I(gt_compat_parse("all,-viewer,-replay", &f), 0);
    CHECK_EQ_U(f, GT_COMPAT_ALL & ~(GT_COMPAT_VIEWER | GT_COMPAT_REPLAY));
    CHECK_EQ_I(gt_compat_parse("none", &f), 0);
    CHECK_EQ_U(f, 0);
    CHECK_EQ_I(gt_compat_parse("", &f), 0);
    CHECK_EQ_U(f, 0);
    f = 7;
    CHECK_EQ_I(gt_compat_parse("arith,bogus", &f), -1);
    CHECK_EQ_U(f, 7); /* untouched on error */
    CHECK_EQ_I(gt_compat_parse("-", &f), -1);
}

TEST(compat_off_in_normal_build)
{
#ifdef GT_PPSSPP_COMPAT
    test_skip("this is the diagnostic build");
#else
    setenv("GETILE_PPSSPP_COMPAT", "all", 1);
    CHECK_EQ_U(gt_compat_init(), 0);
    CHECK(!GT_COMPAT(ARITH) && !GT_COMPAT(MERGE) && !GT_COMPAT(ATEST));
    unsetenv("GETILE_PPSSPP_COMPAT");
#endif
}

/* A through-mode vertex at pixel (x, y) with texel (u, v) and a color. */
static struct gt_vout vert(int x, int y, int u, int v, uint32_t rgba)
{
    struct gt_vout o;
    memset(&o, 0, sizeof o);
    o.x16 = x * 16, o.y16 = y * 16;
    o.uv[0] = gemath_from_int(u), o.uv[1] = gemath_from_int(v);
    memcpy(o.color, &rgba, 4);
    return o;
}

TEST(compat_rect_detection)
{
    const struct compat_rect_ctx c = {.through = true, .textured = true};
    const uint32_t w = 0xFFFFFFFFu;
    int tl, br;
    /* A strip TL, BL, TR, BR (x equal in pairs 0-1 and 2-3): a rectangle
     * from vertex 0 to vertex 3. */
    struct gt_vout s[4] = {vert(10, 20, 0, 0, w), vert(10, 30, 0, 10, w), vert(40, 20, 30, 0, w), vert(40, 30, 30, 10, w)};
    CHECK(compat_rect_strip4(&c, s, &tl, &br));
    CHECK_EQ_I(tl, 0);
    CHECK_EQ_I(br, 3);
    /* The same strip with a texture coordinate that breaks the mapping. */
    s[3].uv[0] = gemath_from_int(31);
    CHECK(!compat_rect_strip4(&c, s, &tl, &br));
    /* Untextured, the coordinates do not matter. */
    const struct compat_rect_ctx cu = {.through = true};
    CHECK(compat_rect_strip4(&cu, s, &tl, &br));
    /* A different color breaks it. */
    s[3] = vert(40, 30, 30, 10, 0xFF0000FFu);
    CHECK(!compat_rect_strip4(&cu, s, &tl, &br));

    /* Triangle pairs: only the order TL, TR, BR, TL, BR, BL. */
    struct gt_vout p[6] = {vert(0, 0, 0, 0, w),   vert(16, 0, 16, 0, w), vert(16, 8, 16, 8, w),
                           vert(0, 0, 0, 0, w),   vert(16, 8, 16, 8, w), vert(0, 8, 0, 8, w)};
    CHECK(compat_rect_pair6(&c, p, &tl, &br));
    CHECK_EQ_I(tl, 3);
    CHECK_EQ_I(br, 4);
    /* Texture running backwards (a mirrored quad) is not merged. */
    struct gt_vout pm[6];
    memcpy(pm, p, sizeof pm);
    for (int i = 0; i < 6; i++) pm[i].uv[0] = gemath_from_int(16 - (int)gemath_to_float(p[i].uv[0]));
    CHECK(!compat_rect_pair6(&c, pm, &tl, &br));
    /* Another order (TL, BL, BR, ...) is not recognised. */
    struct gt_vout po[6] = {p[0], p[5], p[2], p[3], p[4], p[1]};
    CHECK(!compat_rect_pair6(&c, po, &tl, &br));

    /* A fan TL, TR, BR, BL. */
    struct gt_vout f[4] = {vert(5, 5, 0, 0, w), vert(9, 5, 4, 0, w), vert(9, 9, 4, 4, w), vert(5, 9, 0, 4, w)};
    CHECK(compat_rect_fan4(&c, f, &tl, &br));
    CHECK_EQ_I(tl, 0);
    CHECK_EQ_I(br, 2);
    f[2].x16 += 1; /* no longer axis-aligned */
    CHECK(!compat_rect_fan4(&c, f, &tl, &br));

    /* Two 1:1 rectangles side by side are one. */
    struct gt_vout r[4] = {vert(0, 0, 0, 0, w), vert(8, 4, 8, 4, w), vert(8, 0, 8, 0, w), vert(20, 4, 20, 4, w)};
    CHECK(compat_rect_slices(&c, r));
    /* Scaled (2 pixels per texel) halves are not merged. */
    r[3] = vert(20, 4, 14, 4, w);
    CHECK(!compat_rect_slices(&c, r));
}

TEST(compat_round_ties_to_even)
{
    /* 16 fraction bits: 1.5 -> 2, 2.5 -> 2, 2.5 + 2^-16 -> 3, -1.5 -> -2,
     * -2.5 -> -2, 0.4999 -> 0. */
    CHECK_EQ_I(compat_round_shift(0x18000, 16), 2);
    CHECK_EQ_I(compat_round_shift(0x28000, 16), 2);
    CHECK_EQ_I(compat_round_shift(0x28001, 16), 3);
    CHECK_EQ_I(compat_round_shift(-0x18000, 16), -2);
    CHECK_EQ_I(compat_round_shift(-0x28000, 16), -2);
    CHECK_EQ_I(compat_round_shift(0x7FFF, 16), 0);
    /* A gefloat 3.5 scaled by 2^-1 (x / 2^-1 = 7): exact; 0.75 / 2^1 = 0.375 -> 0. */
    CHECK_EQ_I(compat_round_scaled(0x40600000u, -1), 7);
    CHECK_EQ_I(compat_round_scaled(0x3F400000u, 1), 0);
    CHECK_EQ_I(compat_round_scaled(0x3FC00000u, 0), 2); /* 1.5 -> 2 */
}

TEST(compat_rect_edges_second_of_quad)
{
    struct rast_prim p;
    memset(&p, 0, sizeof p);
    /* Rows 211 .. 211 (centre 16 * 211 + 8 = 3384 inside [3380, 3400)); the
     * next row's centre 3400 is the bottom edge and row 212 is the second
     * row of the quad starting at 211: PPSSPP draws it. */
    p.x0 = 10, p.x1 = 19, p.y0 = 211, p.y1 = 211;
    compat_rect_edges(&p, 16 * 20 + 4, 3400);
    CHECK_EQ_I(p.y1, 212);
    CHECK_EQ_I(p.x1, 19); /* right edge not on a centre */
    /* Column 20 would be the first of a new quad (10..19 is five quads): not drawn. */
    compat_rect_edges(&p, 16 * 20 + 8, 3000);
    CHECK_EQ_I(p.x1, 19);
    /* Columns 10 .. 20 (11 pixels): column 21 is a second one; drawn. */
    p.x1 = 20;
    compat_rect_edges(&p, 16 * 21 + 8, 3000);
    CHECK_EQ_I(p.x1, 21);
}

/* "zeroarea": SamplerJit's modulate with a primary color of 0x80000000
 * (PACKSSDW 0x8000, plus one 0x8001, PMULLW low word, >> 8) keeps bit 0 of
 * each texel channel as 128; doubled (>> 7) it saturates to 255. An
 * interpolated secondary color clamps RGB to 0. */
TEST(compat_zero_area_modulate)
{
    struct gt_pixel_state ps;
    memset(&ps, 0, sizeof ps);
    ps.tex_func = PX_TF_MODULATE;
    ps.tex_alpha = true;
    const uint8_t prim[4] = {0, 0, 0, 0}, sec[3] = {0, 0, 0}, texel[4] = {0x85, 0x24, 0x83, 0xFF};
    uint8_t out[4];
    compat_zero_area_texfunc(&ps, false, true, prim, texel, sec, out);
    CHECK_EQ_U(out[0], 128);
    CHECK_EQ_U(out[1], 0);
    CHECK_EQ_U(out[2], 128);
    CHECK_EQ_U(out[3], 128);
    ps.color_double = true;
    compat_zero_area_texfunc(&ps, false, true, prim, texel, sec, out);
    CHECK_EQ_U(out[0], 255);
    CHECK_EQ_U(out[1], 0);
    CHECK_EQ_U(out[3], 128);
    compat_zero_area_texfunc(&ps, false, false, prim, texel, sec, out);
    CHECK_EQ_U(out[0], 0);
    CHECK_EQ_U(out[2], 0);
}

/* "patch": PPSSPP places a Bezier grid line i of tess at t = i * (1/tess)
 * in floats. For tess 3 that is the single-precision number nearest 1/3,
 * 0x3EAAAAAB, where GE-HARDWARE.md §4's lerps use k/256 = 85/256. At
 * t = 1/2 the Bernstein weights are exactly 1/8, 3/8, 3/8, 1/8, and control
 * points 0, 1, 2, 3 (evenly spaced: the curve is 3t) give 1.5 in both
 * directions; a weight vector {1, 0, 0, 0} passes the first point through. */
TEST(compat_bezier_grid_lines)
{
    float t = compat_bezier_uv(0, 1, 3);
    uint32_t bits;
    memcpy(&bits, &t, 4);
    CHECK_EQ_U(bits, 0x3EAAAAABu);
    CHECK(t != 85.0f / 256.0f);
    float w[4];
    compat_bezier_weights(1, 2, w);
    CHECK(w[0] == 0.125f && w[1] == 0.375f && w[2] == 0.375f && w[3] == 0.125f);
    const float p[4][4] = {{0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}};
    CHECK(compat_bezier_sample(p, w, w) == 1.5f);
    const float ends[4] = {1, 0, 0, 0};
    const float q[4][4] = {{7, 100, 100, 100}, {8, 100, 100, 100}, {9, 100, 100, 100}, {10, 100, 100, 100}};
    CHECK(compat_bezier_sample(q, ends, ends) == 7.0f);
    CHECK(compat_bezier_uv(2, 3, 3) == 3.0f);
}

/* "atforce": PPSSPP's DetectStateOptimizations adds the alpha test
 * "alpha != 0" to a source-alpha / inverse-source-alpha blend that has no
 * alpha test of its own, writes neither depth nor stencil, and can meet
 * alpha 0 (texture alpha of a format that has it, or a vertex alpha below
 * 0xFF). Each condition taken away turns it off. */
TEST(compat_force_alpha_test_conditions)
{
    struct rast_state st;
    memset(&st, 0, sizeof st);
    st.textured = true;
    st.smp.tex.format = 3; /* 8888: texels may have alpha 0 */
    st.px.tex_alpha = true;
    st.px.blend = true, st.px.blend_eq = 0;
    st.px.blend_src = PX_BF_SRC_A, st.px.blend_dst = PX_BF_INV_SRC_A;
    const struct gt_vout opaque = vert(0, 0, 0, 0, 0xFFFFFFFFu), half = vert(0, 0, 0, 0, 0x80FFFFFFu);
    const struct gt_vout *vo = &opaque, *vh = &half;
    CHECK(compat_force_alpha_test(&st, &vo, 1));
    st.px.depth_write = true; /* writes depth */
    CHECK(!compat_force_alpha_test(&st, &vo, 1));
    st.px.depth_write = false;
    st.px.alpha_test = true, st.px.atest_func = PX_GREATER, st.px.atest_ref = 0x10, st.px.atest_mask = 0xFF;
    CHECK(!compat_force_alpha_test(&st, &vo, 1)); /* its own alpha test */
    st.px.atest_func = PX_GEQUAL, st.px.atest_ref = 0; /* one that always passes */
    CHECK(compat_force_alpha_test(&st, &vo, 1));
    st.px.alpha_test = false;
    st.px.blend_dst = PX_BF_INV_OTHER; /* another blend */
    CHECK(!compat_force_alpha_test(&st, &vo, 1));
    st.px.blend_dst = PX_BF_INV_SRC_A;
    st.px.tex_alpha = false; /* no texture alpha, full vertex alpha: alpha is 255 */
    CHECK(!compat_force_alpha_test(&st, &vo, 1));
    CHECK(compat_force_alpha_test(&st, &vh, 1)); /* a vertex alpha below 0xFF */
    st.px.blend = false;
    CHECK(!compat_force_alpha_test(&st, &vh, 1));
}

/* "bands": BinManager::Drain's split for 16 workers. A full 480x272
 * scissor is 136 two-pixel rows: ceil(136 / 16) = 9 per band, 18 rows, the
 * first band from row 0 (no restart); 480x40 is at least 4 times wider than
 * high, so it splits columns: ceil(240 / 16) = 15, 30 columns; a range of
 * fewer than 18 two-pixel steps (34 rows) is not split, 35 rows are (and
 * 480 is then at least 4 x 18 steps wide: columns). */
TEST(compat_band_starts)
{
    bool vert;
    CHECK_EQ_I(compat_band_start(0, 0, 479, 271, 100, 17, 16, &vert), -1);
    CHECK_EQ_I(compat_band_start(0, 0, 479, 271, 100, 18, 16, &vert), 18);
    CHECK(!vert);
    CHECK_EQ_I(compat_band_start(0, 0, 479, 271, 100, 251, 16, &vert), 234);
    CHECK_EQ_I(compat_band_start(0, 0, 479, 39, 29, 5, 16, &vert), -1);
    CHECK_EQ_I(compat_band_start(0, 0, 479, 39, 30, 5, 16, &vert), 30);
    CHECK(vert);
    CHECK_EQ_I(compat_band_start(0, 0, 479, 39, 479, 5, 16, &vert), 450);
    CHECK_EQ_I(compat_band_start(0, 0, 479, 33, 100, 30, 16, &vert), -1); /* 34 rows: 17 steps */
    CHECK_EQ_I(compat_band_start(0, 0, 479, 34, 100, 30, 16, &vert), 90); /* 35 rows: split in 30 columns */
    CHECK_EQ_I(compat_band_start(0, 0, 479, 271, 100, 251, 1, &vert), -1); /* one worker */
}
