/* Vertex transform: matrix order, perspective divide, viewport, offset,
 * 12.4 screen coordinates, guard band, depth, skinning, through mode.
 * Inputs are chosen so every exact value is representable in the GE format,
 * so the expected values are worked out by hand. */
#include <string.h>

#include "gehelp.h"
#include "test.h"
#include "transform.h"

static gefloat f(float x) { return gemath_from_float(x); }

static void set_reg_f(struct ge_state *st, unsigned cmd, float v) { st->reg[cmd] = (uint32_t)cmd << 24 | dl_float24(v); }

/* Identity world/view/projection, viewport 240 x -136 around (2048, 2048),
 * offset (2048 - 240, 2048 - 136): the usual PSP full-screen setup. */
static void setup_screen(struct ge_state *st)
{
    memset(st->world, 0, sizeof st->world);
    memset(st->view, 0, sizeof st->view);
    memset(st->proj, 0, sizeof st->proj);
    st->world[0] = st->world[4] = st->world[8] = GEMATH_ONE;
    st->view[0] = st->view[4] = st->view[8] = GEMATH_ONE;
    st->proj[0] = st->proj[5] = st->proj[10] = st->proj[15] = GEMATH_ONE;
    set_reg_f(st, GE_VIEWPORT_SX, 240.0f);
    set_reg_f(st, GE_VIEWPORT_SX + 1, -136.0f);
    set_reg_f(st, GE_VIEWPORT_SX + 2, 32768.0f);
    set_reg_f(st, GE_VIEWPORT_SX + 3, 2048.0f);
    set_reg_f(st, GE_VIEWPORT_SX + 4, 2048.0f);
    set_reg_f(st, GE_VIEWPORT_SX + 5, 32768.0f);
    st->reg[GE_OFFSET_X] = (uint32_t)GE_OFFSET_X << 24 | (2048 - 240) << 4;
    st->reg[GE_OFFSET_Y] = (uint32_t)GE_OFFSET_Y << 24 | (2048 - 136) << 4;
    st->reg[GE_VTYPE] = (uint32_t)GE_VTYPE << 24 | 3u << 7;
}

static void run(const struct ge_state *st, float x, float y, float z, struct gt_vout *out)
{
    struct gt_xform xf;
    struct gt_vin in;
    memset(&in, 0, sizeof in);
    in.pos[0] = f(x), in.pos[1] = f(y), in.pos[2] = f(z);
    xform_setup(&xf, st);
    xform_vertex(&xf, &in, out);
}

TEST(transform_viewport_and_offset)
{
    struct ge_state st = {0};
    struct gt_vout o;
    setup_screen(&st);
    /* x: 0.5 * 240 + 2048 = 2168 -> 2168 * 16 - 1808 * 16 = 360 px;
     * y: 0.25 * -136 + 2048 = 2014 -> (2014 - 1912) * 16 = 102 px;
     * z: 0.5 * 32768 + 32768 = 49152. */
    run(&st, 0.5f, 0.25f, 0.5f, &o);
    CHECK_EQ_U(o.screen[0], f(2168.0f));
    CHECK_EQ_I(o.x16, 360 * 16);
    CHECK_EQ_I(o.y16, 102 * 16);
    CHECK_EQ_U(o.z, 49152);
    CHECK(!o.outside);
    /* Sub-pixel: x = 1/256 -> 240/256 = 0.9375 px past 2048 = 15 sixteenths. */
    run(&st, 1.0f / 256, 0, 0, &o);
    CHECK_EQ_I(o.x16, 240 * 16 + 15);
    /* 1/480 is not representable: cut to 16 bits it is just below 1/480, so
     * x lands below 2048.5, and 2048 + 7/16 is the last multiple of 1/16
     * (the format's step from 2048 up) under it. IEEE would give 8. */
    run(&st, 1.0f / 480, 0, 0, &o);
    CHECK_EQ_I(o.x16, 240 * 16 + 7);
}

/* ge-vertex-pipeline.md "Precision" and "Texture coordinates" (measured):
 * the viewport is GEAdd(float24(ndc * scale), offset) and the UV scale
 * GEAdd(float24(uv * scale), offset), a product cut to float24 and then the
 * guard-bit-less adder. With 1.5 x (1.5 + 2^-15) = 2.25 + 1.5 * 2^-15:
 * float24 at exponent 1 keeps multiples of 2^-14, so 2.25; adding 2^-15 at
 * that exponent truncates it away: 2.25 (an exact a * b + c would round
 * or keep 2.25 + 2^-14 + ...). */
TEST(transform_viewport_uv_product_then_add)
{
    const gefloat a = 0x3FC00000u;            /* 1.5 */
    const gefloat b = 0x3FC00000u | 1u << 8;  /* 1.5 + 2^-15 */
    const gefloat tiny = 0x38000000u;         /* 2^-15 */
    const gefloat want = 0x40100000u;         /* 2.25 */
    CHECK_EQ_U(xform_viewport(a, GEMATH_ONE, b, tiny), want);
    struct gt_vdec vd;
    memset(&vd, 0, sizeof vd);
    vd.uvscale[0] = b, vd.uvoff[0] = tiny;
    CHECK_EQ_U(vdec_uv_scale(&vd, 0, a), want);
}

TEST(transform_perspective_divide)
{
    struct ge_state st = {0};
    struct gt_vout o;
    setup_screen(&st);
    /* w = 2 (projection's last element): the divide multiplies by the table
     * reciprocal of 2, exact at a segment start, 0.5. */
    st.proj[15] = f(2.0f);
    run(&st, 1.0f, -0.5f, 0, &o);
    CHECK_EQ_U(o.clip[3], f(2.0f));
    CHECK_EQ_U(o.screen[0], f(2048.0f + 120.0f));
    CHECK_EQ_U(o.screen[1], f(2048.0f + 34.0f));
}

TEST(transform_matrix_order)
{
    /* World translates x by +1, view doubles x: projection(view(world(v))),
     * so x = 0.5 becomes 3 (in the other order it would be 2). The viewport
     * scale 1 around 2048 shows clip x directly. */
    struct ge_state st = {0};
    struct gt_vout o;
    setup_screen(&st);
    st.world[9] = GEMATH_ONE;
    st.view[0] = f(2.0f);
    set_reg_f(&st, GE_VIEWPORT_SX, 1.0f);
    run(&st, 0.5f, 0, 0, &o);
    CHECK_EQ_U(o.clip[0], f(3.0f));
    CHECK_EQ_U(o.screen[0], f(2051.0f));
    /* The combined matrix holds the products: x' = 2x + 2. */
    struct gt_xform xf;
    xform_setup(&xf, &st);
    CHECK_EQ_U(xf.wvp[0], f(2.0f));
    CHECK_EQ_U(xf.wvp[12], f(2.0f));
}

TEST(transform_guard_band)
{
    struct ge_state st = {0};
    struct gt_vout o;
    setup_screen(&st);
    set_reg_f(&st, GE_VIEWPORT_SX, 2048.0f);
    /* x = 1 -> 4096: outside; x = 4095.9375 (the largest below): inside. */
    run(&st, 1.0f, 0, 0, &o);
    CHECK(o.outside);
    run(&st, 2047.9375f / 2048, 0, 0, &o);
    CHECK_EQ_U(o.screen[0], f(4095.9375f));
    CHECK(!o.outside);
    run(&st, -1.0f, 0, 0, &o);   /* 0: inside */
    CHECK(!o.outside);
    run(&st, -1.0f - 1.0f / 1024, 0, 0, &o); /* -2 px: outside */
    CHECK(o.outside);
}

TEST(transform_depth_range)
{
    struct ge_state st = {0};
    struct gt_vout o;
    setup_screen(&st);
    /* z = -1.5 -> 32768 - 49152 < 0: without DEPTHCLIP the vertex is
     * outside; with it, depth clamps to 0 and the vertex stays. */
    run(&st, 0, 0, -1.5f, &o);
    CHECK(o.outside);
    st.reg[GE_DEPTHCLIP_ON] = (uint32_t)GE_DEPTHCLIP_ON << 24 | 1;
    run(&st, 0, 0, -1.5f, &o);
    CHECK(!o.outside);
    CHECK_EQ_U(o.z, 0);
    run(&st, 0, 0, 1.5f, &o);
    CHECK_EQ_U(o.z, 65535);
    st.reg[GE_DEPTHCLIP_ON] = (uint32_t)GE_DEPTHCLIP_ON << 24;
    run(&st, 0, 0, 1.5f, &o); /* 81920: past 65535 */
    CHECK(o.outside);
}

TEST(transform_skinning)
{
    /* Two bones translating x by +1 and +3, weights 0.5 each (u8 64):
     * the blended bone translates by +2. */
    struct ge_state st = {0};
    struct gt_vout o;
    setup_screen(&st);
    set_reg_f(&st, GE_VIEWPORT_SX, 1.0f);
    for (int b = 0; b < 2; b++) {
        st.bone[b * 12 + 0] = st.bone[b * 12 + 4] = st.bone[b * 12 + 8] = GEMATH_ONE;
        st.bone[b * 12 + 9] = f(b ? 3.0f : 1.0f);
    }
    st.reg[GE_VTYPE] = (uint32_t)GE_VTYPE << 24 | 1u << 9 | 1u << 14 | 3u << 7;
    struct gt_xform xf;
    struct gt_vin in;
    memset(&in, 0, sizeof in);
    in.pos[0] = f(0.25f);
    in.weight[0] = in.weight[1] = f(0.5f);
    xform_setup(&xf, &st);
    CHECK_EQ_U(xf.nweights, 2);
    xform_vertex(&xf, &in, &o);
    CHECK_EQ_U(o.clip[0], f(2.25f));
}

/* ge-vertex-pipeline.md "Skinning" (measured): one accumulator per
 * component runs through the bones in order, adding the bone's translation,
 * then x, y and z times its (weight-scaled) columns, every step a GE add.
 * Bone 0 translates x by 1.5 and has m0 = 2^-16; bone 1 translates by -1;
 * weights 1; position (1, 0, 0). In order: 1.5, then + 2^-16 at exponent 0
 * (lsb 2^-15) is truncated away, then - 1: 0.5. Blending the matrices
 * first (m0 = 2^-16, translation 0.5) would give 0.5 + 2^-16. The normal
 * (1, 0, 0) has no translation: 2^-16. */
TEST(transform_skinning_sequential)
{
    gefloat bone[GT_BONE_MATRIX_WORDS] = {0};
    bone[0] = f(1.0f / (1 << 16));
    bone[9] = f(1.5f);
    bone[12 + 9] = f(-1.0f);
    const gefloat w[8] = {GEMATH_ONE, GEMATH_ONE};
    const gefloat pos[3] = {GEMATH_ONE, 0, 0}, nrm[3] = {GEMATH_ONE, 0, 0};
    gefloat out[3], nout[3];
    xform_skin(bone, 2, w, pos, out, nrm, nout);
    CHECK_EQ_U(out[0], f(0.5f));
    CHECK_EQ_U(out[1], 0u);
    CHECK_EQ_U(out[2], 0u);
    CHECK_EQ_U(nout[0], f(1.0f / (1 << 16)));
}

TEST(transform_through_mode)
{
    struct ge_state st = {0};
    struct gt_vout o;
    setup_screen(&st);
    st.reg[GE_VTYPE] = (uint32_t)GE_VTYPE << 24 | 1u << 23 | 3u << 7;
    /* Pixels directly: no offset, no viewport, no guard band. */
    run(&st, 100.5f, 5000.0f, 123.0f, &o);
    CHECK_EQ_I(o.x16, 100 * 16 + 8);
    CHECK_EQ_I(o.y16, 5000 * 16);
    CHECK_EQ_U(o.z, 123);
    CHECK(!o.outside);
}

TEST(transform_lighting_normals)
{
    /* Lighting on, one directional light along +z with diffuse color red and
     * material diffuse white: N = (0,0,1) gives full red. REVERSE_NORMAL
     * flips N away from the light: no diffuse. A bone rotating z into -z
     * (skinning) does the same, showing normals are skinned. */
    struct ge_state st = {0};
    setup_screen(&st);
    st.reg[GE_LIGHTING_ON] = (uint32_t)GE_LIGHTING_ON << 24 | 1;
    st.reg[GE_LIGHT0_ON] = (uint32_t)GE_LIGHT0_ON << 24 | 1;
    st.reg[GE_LIGHT_TYPE0] = (uint32_t)GE_LIGHT_TYPE0 << 24; /* directional, diffuse */
    st.reg[0x65] = (uint32_t)0x65 << 24 | dl_float24(1.0f);  /* light 0 vector z */
    st.reg[0x90] = (uint32_t)0x90 << 24 | 0x0000FF;          /* light 0 diffuse: red */
    st.reg[GE_MATERIAL_UPDATE + 3] = (uint32_t)(GE_MATERIAL_UPDATE + 3) << 24 | 0xFFFFFF; /* material diffuse */
    st.reg[GE_VTYPE] = (uint32_t)GE_VTYPE << 24 | 3u << 5 | 3u << 7;
    struct gt_xform xf;
    struct gt_vin in;
    struct gt_vout o;
    memset(&in, 0, sizeof in);
    in.nrm[2] = GEMATH_ONE;
    xform_setup(&xf, &st);
    xform_vertex(&xf, &in, &o);
    CHECK_EQ_U(o.color[0], 255);
    CHECK_EQ_U(o.color[1], 0);
    st.reg[GE_REVERSE_NORMAL] = (uint32_t)GE_REVERSE_NORMAL << 24 | 1;
    xform_setup(&xf, &st);
    xform_vertex(&xf, &in, &o);
    CHECK_EQ_U(o.color[0], 0);
    st.reg[GE_REVERSE_NORMAL] = (uint32_t)GE_REVERSE_NORMAL << 24;
    st.reg[GE_VTYPE] = (uint32_t)GE_VTYPE << 24 | 1u << 9 | 3u << 5 | 3u << 7; /* one u8 weight */
    st.bone[0] = st.bone[4] = GEMATH_ONE;
    st.bone[8] = f(-1.0f); /* z -> -z */
    in.weight[0] = GEMATH_ONE;
    xform_setup(&xf, &st);
    xform_vertex(&xf, &in, &o);
    CHECK_EQ_U(o.color[0], 0);
}
