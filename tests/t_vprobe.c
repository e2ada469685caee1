/* Probes of the transform-mode vertex pipeline (decode, matrices, the
 * perspective divide, viewport, 12.4 screen coordinates, guard band, depth,
 * near clipping, culling, lighting, fog, texture coordinates, rectangles)
 * observed ONLY through what lands in VRAM: the colour buffer and the depth
 * buffer. GE-HARDWARE.md §8: "design the readout first" - points are
 * single-pixel samples (a whole-screen scan proves nothing else was
 * written), the depth viewport maps a tiny clip-z range onto the 65536
 * depth values, and the texture's texels hold their own position.
 *
 * Expected values never come from running the code under test. They come
 * from GE-HARDWARE.md (§1 truncation and the adder without guard bits, §3
 * the 8-bit product), PPSSPP's software renderer as read in
 * GPU/Software/TransformUnit.cpp (ClipToScreenInternal: screen position,
 * guard band, depth clamp or discard; SendTriangle: cull sense),
 * GPU/Software/Clipper.cpp (CheckOutsideZ, CalcClipMask, ProcessTriangle,
 * ProcessRect, ProcessPoint), GPU/Software/BinManager.cpp (AddTriangle's
 * winding test), GPU/Software/DrawPixel.cpp (DrawSinglePixel's fog blend),
 * GPU/Software/Rasterizer.cpp (ClampFogDepth, DrawRectangle), and
 * docs/notes/vertex-pipeline.md, which restates them; and from exact hand
 * computation. The inputs are chosen so the GE's truncating arithmetic is
 * exact (small integers, powers of two, identity matrices, w a power of
 * two); where a probe is about truncation itself the truncated value is
 * derived by hand next to it.
 *
 * Conventions: transform-mode vertices have float positions (VTYPE position
 * format 3); matrices are uploaded with WORLD/VIEW/PROJ NUM + DATA, each
 * word the float's IEEE bits >> 8 (dl_float24). Screen x = clip x / w *
 * scale x + center x; the pixel is (that * 16 - OFFSET_X) / 16, floored;
 * depth = clip z / w * scale z + center z. The "pixel viewport" most probes
 * use (scale 1, 1, center 2048, 2048, offset 2048 pixels) makes a clip
 * (x, y) with w = 1 land on pixel (x, y), and its depth part (scale 32768,
 * center 32768) maps clip z to 32768 + 32768 z. */
#include <stdbool.h>
#include <string.h>

#include "dlbuild.h"
#include "probe.h"
#include "render.h"
#include "test.h"

#define VP_TEX 0x08300000u
#define VP_ZBUF (PB_VRAM + PB_ZOFF)
#define VP_W 480
#define VP_H 272

/* Register numbers ge_cmd.h does not name besides probe.h's (PPSSPP
 * GPU/ge_constants.h, GPUState.h; the same numbers pipeline/light.c
 * reads). */
enum {
    R_MAT_EMISSIVE = 0x54, R_MAT_AMBIENT = 0x55, R_MAT_DIFFUSE = 0x56, R_MAT_SPECULAR = 0x57,
    R_MAT_ALPHA = 0x58, R_AMBIENT = 0x5C, R_AMBIENT_ALPHA = 0x5D,
    R_LX0 = 0x63, R_LY0 = 0x64, R_LZ0 = 0x65, R_LAC0 = 0x8F, R_LDC0 = 0x90, R_LSC0 = 0x91,
};

/* ---- Harness (tests/probe.h) ------------------------------------------- */

/* A fresh context (pb_init: 8888 colour buffer at VRAM 0, depth at PB_ZOFF,
 * scissor 0..479 x 0..271, Gouraud, depth range 0..65535, the pixel
 * viewport of the header comment, DEPTHCLIP off, no culling), identity
 * matrices, no depth test. Memory starts zeroed. */
static void vp_init(struct pb *t)
{
    pb_init(t, 32768);
    pb_matrices(t, pb_id43, pb_id43, pb_id44);
}

/* Fills the visible depth buffer with 0x5A5A, so a written 0 shows. */
static void depth_prefill(struct pb *t)
{
    struct gt_diag d = {0};
    CHECK_EQ_I(mem_fill(&t->r->mem, VP_ZBUF, 0x5A, 512 * VP_H * 2, &d), GT_OK);
}

/* A transform-mode vertex. Every float given is exact in the GE format
 * (at most 16 significant bits). */
struct tv {
    float x, y, z;
    uint32_t c;          /* 8888, R in the low byte */
    float nx, ny, nz;
    float u, v;
};

enum { TV_TEX = 1, TV_COLOR = 2, TV_NORMAL = 4 };

/* VTYPE: float texcoords (bits 0-1 = 3), 8888 colour (bits 2-4 = 7), float
 * normal (bits 5-6 = 3), float position (bits 7-8 = 3); transform mode. */
static uint32_t tv_vtype(unsigned f)
{
    return (f & TV_TEX ? 3u : 0u) | (f & TV_COLOR ? 7u << 2 : 0u) | (f & TV_NORMAL ? 3u << 5 : 0u) | 3u << 7;
}

/* Writes n vertices (layout: texcoord, colour, normal, position - every
 * component 4-byte aligned, so they are simply consecutive) and emits VTYPE,
 * VADDR and PRIM. */
static void draw(struct pb *t, unsigned type, unsigned f, const struct tv *v, unsigned n)
{
    uint32_t a = t->vnext;
    for (unsigned i = 0; i < n; i++) {
        if (f & TV_TEX) {
            mem_write32(&t->r->mem, a, pb_f32bits(v[i].u));
            mem_write32(&t->r->mem, a + 4, pb_f32bits(v[i].v));
            a += 8;
        }
        if (f & TV_COLOR) {
            mem_write32(&t->r->mem, a, v[i].c);
            a += 4;
        }
        if (f & TV_NORMAL) {
            mem_write32(&t->r->mem, a, pb_f32bits(v[i].nx));
            mem_write32(&t->r->mem, a + 4, pb_f32bits(v[i].ny));
            mem_write32(&t->r->mem, a + 8, pb_f32bits(v[i].nz));
            a += 12;
        }
        mem_write32(&t->r->mem, a, pb_f32bits(v[i].x));
        mem_write32(&t->r->mem, a + 4, pb_f32bits(v[i].y));
        mem_write32(&t->r->mem, a + 8, pb_f32bits(v[i].z));
        a += 12;
    }
    pb_emit_prim(t, tv_vtype(f), t->vnext, type, n);
    t->vnext = (a + 15) & ~15u;
    CHECK(t->vnext < VP_TEX);
}

enum { P_POINTS = 0, P_TRIS = 3, P_STRIP = 4, P_RECTS = 6 };

/* RGB of a pixel: draws that do not write stencil keep the buffer's alpha
 * bits, so only RGB is compared. */
static uint32_t rgb(const struct pb *t, int x, int y)
{
    return mem_read32(&t->r->mem, PB_VRAM + ((uint32_t)y * 512 + (uint32_t)x) * 4) & 0xFFFFFF;
}

static uint16_t zat(const struct pb *t, int x, int y)
{
    return mem_read16(&t->r->mem, pb_depth_view(VP_ZBUF, true) + ((uint32_t)y * 512 + (uint32_t)x) * 2);
}

/* One expected pixel: position, RGB, and depth (-1: not checked). */
struct xp {
    int x, y;
    uint32_t c;
    int z;
};

/* The whole visible screen holds exactly the listed pixels (every other
 * colour is 0), with the listed depths. */
static void expect_only(const struct pb *t, const struct xp *e, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        CHECK_MSG(rgb(t, e[i].x, e[i].y) == e[i].c, "pixel (%d,%d) = 0x%06x, want 0x%06x", e[i].x, e[i].y,
                  rgb(t, e[i].x, e[i].y), e[i].c);
        if (e[i].z >= 0)
            CHECK_MSG(zat(t, e[i].x, e[i].y) == e[i].z, "depth (%d,%d) = %u, want %d", e[i].x, e[i].y,
                      zat(t, e[i].x, e[i].y), e[i].z);
    }
    for (int y = 0; y < VP_H; y++)
        for (int x = 0; x < VP_W; x++) {
            bool listed = false;
            for (unsigned i = 0; i < n && !listed; i++) listed = e[i].x == x && e[i].y == y;
            if (!listed) CHECK_MSG(rgb(t, x, y) == 0, "stray pixel (%d,%d) = 0x%06x", x, y, rgb(t, x, y));
        }
}

/* GE-HARDWARE.md §3: the 8-bit product ((2x + 1)(2s + 1)) >> 10. */
static unsigned prod8(unsigned x, unsigned s) { return ((2 * x + 1) * (2 * s + 1)) >> 10; }

static unsigned clamp255(unsigned v) { return v > 255 ? 255 : v; }

static uint32_t pack_rgb(unsigned r, unsigned g, unsigned b) { return r | g << 8 | b << 16; }

/* ---- 1. Points through the viewport ---------------------------------------- */

TEST(vprobe_point_viewport)
{
    /* The PSP's usual viewport: scale (240, -136), center (2048, 2048),
     * offset (2048 - 240, 2048 - 136) pixels = (1808 * 16, 1912 * 16).
     * Identity matrices, w = 1, so clip = model position. Every product
     * below is an integer and the sums stay exact (the largest operand is
     * 2048, ulp 1/16):
     *   ( 0,     0)    -> screen (2048, 2048) -> pixel (240, 136)
     *   ( 0.5,   0.25) -> (2048 + 120, 2048 - 34) = (2168, 2014) -> (360, 102)
     *   (-1,     1)    -> (1808, 1912) -> (0, 0), the top-left corner
     *   (-0.75, -0.5)  -> (2048 - 180, 2048 + 68) = (1868, 2116) -> (60, 204)
     *   ( 0.99609375, -0.9921875) -> (2048 + 239.0625, 2048 + 134.9375)
     *                   = (2287.0625, 2182.9375) -> 12.4 (479 + 1/16, 270 + 15/16)
     *                   -> pixel (479, 270): the fraction is floored. */
    struct pb t;
    vp_init(&t);
    pb_viewport(&t, 240, -136, 32768, 2048, 2048, 32768);
    pb_offset16(&t, 1808 * 16, 1912 * 16);
    static const struct tv v[] = {
        {0, 0, 0, 0x0000FF, 0, 0, 0, 0, 0},
        {0.5f, 0.25f, 0, 0x00FF00, 0, 0, 0, 0, 0},
        {-1, 1, 0, 0xFF0000, 0, 0, 0, 0, 0},
        {-0.75f, -0.5f, 0, 0x123456, 0, 0, 0, 0, 0},
        {0.99609375f, -0.9921875f, 0, 0x654321, 0, 0, 0, 0, 0},
    };
    draw(&t, P_POINTS, TV_COLOR, v, 5);
    pb_run(&t);
    static const struct xp e[] = {
        {240, 136, 0x0000FF, -1}, {360, 102, 0x00FF00, -1}, {0, 0, 0xFF0000, -1},
        {60, 204, 0x123456, -1},  {479, 270, 0x654321, -1},
    };
    expect_only(&t, e, 5);
    pb_free(&t);
}

TEST(vprobe_point_subpixel_truncation)
{
    /* Sub-pixel positions and GE-HARDWARE.md §1's adder.
     * (a) Scale 256, center 2048, offset 2048 px: clip x = 0.5 + 15/4096
     *     gives 256 x = 128.9375 (exact), screen 2176.9375 (a multiple of
     *     1/16, exact at 2048's ulp), 12.4 value 128 * 16 + 15 -> pixel 128;
     *     clip x = 0.5 + 16/4096 gives 129.0 -> pixel 129. Rows 10 and 11.
     * (b) Scale 1, center 2176 (ulp 1/16). §1: "before adding, both operands
     *     are truncated to the precision of the operand with the larger
     *     magnitude", truncation toward zero. clip x = -1/32: the term
     *     -0.03125 is cut to 2176's ulp (1/16) toward zero, i.e. to 0, and
     *     the sum is 2176.0 -> pixel 128. Exact arithmetic would give
     *     2175.96875 -> pixel 127 (PPSSPP: trunc(34815.5 + 0.375) = 34815).
     *     Controls: -1/16 is representable at that ulp -> 2175.9375 -> pixel
     *     127; +1/32 is cut to 0 as well -> pixel 128. Rows 20, 21, 22. */
    struct pb t;
    vp_init(&t);
    pb_viewport(&t, 256, 1, 32768, 2048, 2048, 32768);
    static const struct tv a[] = {
        {0.5f + 15.0f / 4096.0f, 10, 0, 0x0000F1, 0, 0, 0, 0, 0},
        {0.5f + 16.0f / 4096.0f, 11, 0, 0x0000F2, 0, 0, 0, 0, 0},
    };
    draw(&t, P_POINTS, TV_COLOR, a, 2);
    pb_viewport(&t, 1, 1, 32768, 2176, 2048, 32768);
    static const struct tv b[] = {
        {-1.0f / 32, 20, 0, 0x00F100, 0, 0, 0, 0, 0},
        {-1.0f / 16, 21, 0, 0x00F200, 0, 0, 0, 0, 0},
        {1.0f / 32, 22, 0, 0x00F300, 0, 0, 0, 0, 0},
    };
    draw(&t, P_POINTS, TV_COLOR, b, 3);
    pb_run(&t);
    static const struct xp e[] = {
        {128, 10, 0x0000F1, -1}, {129, 11, 0x0000F2, -1},
        {128, 20, 0x00F100, -1}, {127, 21, 0x00F200, -1}, {128, 22, 0x00F300, -1},
    };
    expect_only(&t, e, 5);
    pb_free(&t);
}

/* ---- 2. Depth windows ------------------------------------------------------- */

TEST(vprobe_depth_window)
{
    /* Depth = clip z * SZ + CZ with w = 1. Points at (10 + 2i, 20) with
     * depth test ALWAYS and depth writes on; the depth buffer is prefilled
     * with 0x5A5A so a written 0 is visible.
     * Window 1: SZ = 32768, CZ = 32768; clip z = k / 32768 gives the
     * integer product k and the exact sum 32768 + k (32768's ulp is 1).
     *   k = -3..3 -> 32765..32771; z = -1 -> 0; z = 32767/32768 -> 65535;
     *   z = -32767/32768 -> 1.
     * Truncation (GE-HARDWARE.md §1, the adder without guard bits):
     *   k = -1.5: the term -1.5 is cut to 32768's ulp (1) toward zero: -1,
     *     sum 32767. (The exact value 32766.5 would give 32766 - PPSSPP's
     *     float path: trunc(32766.5).)
     *   k = -0.5: -0.5 -> -0, sum 32768 (exact value 32767.5 -> 32767).
     *   k = +1.5: +1.5 -> 1, sum 32769 (same as the exact floor).
     * Window 2, a tiny one: SZ = 2^24, CZ = 32768 maps clip z in
     * [-2^-9, 2^-9) onto the whole 0..65535; clip z = k * 2^-24 gives
     * 32768 + k the same way, including k = -1.5 -> 32767. Row 30. */
    struct pb t;
    vp_init(&t);
    depth_prefill(&t);
    pb_depth_always(&t);
    static const float k1[] = {-3, -2, -1, 0, 1, 2, 3, -1.5f, -0.5f, 1.5f};
    static const int want1[] = {32765, 32766, 32767, 32768, 32769, 32770, 32771, 32767, 32768, 32769};
    enum { N1 = sizeof k1 / sizeof k1[0] };
    struct tv v[N1 + 3];
    struct xp e[2 * N1 + 3];
    unsigned ne = 0;
    for (unsigned i = 0; i < N1; i++) {
        v[i] = (struct tv){(float)(10 + 2 * i), 20, k1[i] / 32768.0f, 0x100 + i, 0, 0, 0, 0, 0};
        e[ne++] = (struct xp){(int)(10 + 2 * i), 20, 0x100 + i, want1[i]};
    }
    v[N1] = (struct tv){50, 20, -1, 0x200, 0, 0, 0, 0, 0};
    e[ne++] = (struct xp){50, 20, 0x200, 0};
    v[N1 + 1] = (struct tv){52, 20, 32767.0f / 32768.0f, 0x201, 0, 0, 0, 0, 0};
    e[ne++] = (struct xp){52, 20, 0x201, 65535};
    v[N1 + 2] = (struct tv){54, 20, -32767.0f / 32768.0f, 0x202, 0, 0, 0, 0, 0};
    e[ne++] = (struct xp){54, 20, 0x202, 1};
    draw(&t, P_POINTS, TV_COLOR, v, N1 + 3);

    pb_viewport(&t, 1, 1, 16777216.0f, 2048, 2048, 32768);
    struct tv w[N1];
    for (unsigned i = 0; i < N1; i++) {
        w[i] = (struct tv){(float)(10 + 2 * i), 30, k1[i] / 16777216.0f, 0x300 + i, 0, 0, 0, 0, 0};
        e[ne++] = (struct xp){(int)(10 + 2 * i), 30, 0x300 + i, want1[i]};
    }
    draw(&t, P_POINTS, TV_COLOR, w, N1);
    pb_run(&t);
    expect_only(&t, e, ne);
    /* Untouched depth stays 0x5A5A next to the points. */
    CHECK_EQ_U(zat(&t, 11, 20), 0x5A5A);
    CHECK_EQ_U(zat(&t, 10, 21), 0x5A5A);
    pb_free(&t);
}

/* ---- 3. The perspective divide --------------------------------------------- */

TEST(vprobe_perspective_divide)
{
    /* Viewport scale (256, 256, 32768), center (2048 + 200, 2048, 32768),
     * offset 2048 px: pixel x = 200 + 256 x / w, y = 256 y / w, depth =
     * 32768 + 32768 z / w. Model (0.5, 0.25, 0.25). The projection's
     * w row is (0, 0, 0, w0) so clip w = w0; 1/w0 for a power of two is
     * exact (the reciprocal table is exact at its segment starts, and
     * 1/2^n has a one-bit significand), so:
     *   w = 1:   (200 + 128, 64), depth 32768 + 8192 = 40960
     *   w = 2:   (200 + 64, 32),  depth 32768 + 4096 = 36864
     *   w = 4:   (200 + 32, 16),  depth 32768 + 2048 = 34816
     *   w = 0.5: (200 + 256, 128), depth 32768 + 16384 = 49152
     * And the world/view/projection chain (GE-HARDWARE.md §1: combined
     * once): world = 2 I, view translating by (0, 0.25, 0), w = 4, model
     * (-0.5, 0.25, 0.25) -> world (-1, 0.5, 0.5) -> eye (-1, 0.75, 0.5)
     * -> / 4 = (-0.25, 0.1875, 0.125) -> (200 - 64, 48), depth 36864. */
    struct pb t;
    vp_init(&t);
    pb_depth_always(&t);
    pb_viewport(&t, 256, 256, 32768, 2048 + 200, 2048, 32768);
    static const float ws[] = {1, 2, 4, 0.5f};
    static const struct xp e0[] = {
        {328, 64, 0x0000A0, 40960}, {264, 32, 0x0000A1, 36864},
        {232, 16, 0x0000A2, 34816}, {456, 128, 0x0000A3, 49152},
    };
    struct xp e[5];
    for (unsigned i = 0; i < 4; i++) {
        float p[16];
        memcpy(p, pb_id44, sizeof p);
        p[15] = ws[i];
        pb_matrices(&t, pb_id43, pb_id43, p);
        struct tv v = {0.5f, 0.25f, 0.25f, 0xA0 + i, 0, 0, 0, 0, 0};
        draw(&t, P_POINTS, TV_COLOR, &v, 1);
        e[i] = e0[i];
    }
    {
        static const float world[12] = {2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0};
        static const float view[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.25f, 0};
        float p[16];
        memcpy(p, pb_id44, sizeof p);
        p[15] = 4;
        pb_matrices(&t, world, view, p);
        struct tv v = {-0.5f, 0.25f, 0.25f, 0x00B000, 0, 0, 0, 0, 0};
        draw(&t, P_POINTS, TV_COLOR, &v, 1);
        e[4] = (struct xp){136, 48, 0x00B000, 36864};
    }
    pb_run(&t);
    expect_only(&t, e, 5);
    pb_free(&t);
}

/* ---- 4. Guard band and depth range ----------------------------------------- */

/* Draws one primitive in a fresh context (pixel viewport) and returns the
 * RGB at (px, py); *count (if not NULL) gets the number of written pixels. */
static uint32_t draw_once(unsigned type, const struct tv *v, unsigned n, bool depth_clip, int cull, int px, int py,
                          unsigned *count)
{
    struct pb t;
    vp_init(&t);
    pb_cmd(&t, GE_DEPTHCLIP_ON, depth_clip);
    if (cull >= 0) {
        pb_cmd(&t, GE_CULL_ON, 1);
        pb_cmd(&t, GE_CULL, (uint32_t)cull);
    }
    draw(&t, type, TV_COLOR, v, n);
    pb_run(&t);
    uint32_t c = rgb(&t, px, py);
    if (count) {
        *count = 0;
        for (int y = 0; y < VP_H; y++)
            for (int x = 0; x < VP_W; x++) *count += rgb(&t, x, y) != 0;
    }
    pb_free(&t);
    return c;
}

TEST(vprobe_guard_band)
{
    /* docs/notes/vertex-pipeline.md §4.3 (PPSSPP ClipToScreenInternal,
     * Clipper ProcessTriangle): a vertex whose screen x or y (before the
     * offset) is >= 4095 + 15.5/16 or < 0 is outside, and a primitive with
     * an outside vertex is discarded whole, with DEPTHCLIP on or off. In
     * the GE format every value in [2048, 4096) is a multiple of 1/16, so
     * 4095.9375 is inside and 4096 outside.
     * Triangle (10, 10), (10, 60), (X, 10) in the pixel viewport (screen =
     * clip + 2048): pixel (12, 12) is inside it for every X below; the
     * sample (12 + 7/16, 12 + 7/16) is well inside. */
    static const struct { float x; bool drawn; } xs[] = {
        {60, true},
        {2047.9375f, true},  /* screen 4095.9375 < 4095.96875: inside */
        {2048, false},       /* screen 4096: outside */
        {3000, false},
    };
    for (int dc = 0; dc < 2; dc++)
        for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++) {
            struct tv v[3] = {
                {10, 10, 0, 0x00FF00, 0, 0, 0, 0, 0},
                {10, 60, 0, 0x00FF00, 0, 0, 0, 0, 0},
                {xs[i].x, 10, 0, 0x00FF00, 0, 0, 0, 0, 0},
            };
            uint32_t c = draw_once(P_TRIS, v, 3, dc, -1, 12, 12, NULL);
            CHECK_MSG(c == (xs[i].drawn ? 0x00FF00u : 0u), "depthclip %d, X = %g: pixel 0x%06x", dc,
                      (double)xs[i].x, c);
        }
    /* The low side: (10, 10), (10, 60), (X, 10) with X negative covers
     * pixel (5, 12). X = -2048 is screen 0 (inside: only < 0 is out);
     * X = -2048.0625 is screen -0.0625 (the product -2048.0625 and the
     * center 2048 share the ulp 1/16, so the sum is exact): outside. */
    static const struct { float x; bool drawn; } lo[] = {{-2048, true}, {-2048.0625f, false}};
    for (int dc = 0; dc < 2; dc++)
        for (unsigned i = 0; i < 2; i++) {
            struct tv v[3] = {
                {10, 10, 0, 0x0000FF, 0, 0, 0, 0, 0},
                {10, 60, 0, 0x0000FF, 0, 0, 0, 0, 0},
                {lo[i].x, 10, 0, 0x0000FF, 0, 0, 0, 0, 0},
            };
            uint32_t c = draw_once(P_TRIS, v, 3, dc, -1, 5, 12, NULL);
            CHECK_MSG(c == (lo[i].drawn ? 0x0000FFu : 0u), "depthclip %d, X = %g: pixel 0x%06x", dc,
                      (double)lo[i].x, c);
        }
    /* y: (300, 10), (350, 10), (300, Y) covers pixel (302, 12). */
    static const struct { float y; bool drawn; } ys[] = {{60, true}, {2047.9375f, true}, {2048, false}};
    for (int dc = 0; dc < 2; dc++)
        for (unsigned i = 0; i < 3; i++) {
            struct tv v[3] = {
                {300, 10, 0, 0xFF0000, 0, 0, 0, 0, 0},
                {350, 10, 0, 0xFF0000, 0, 0, 0, 0, 0},
                {300, ys[i].y, 0, 0xFF0000, 0, 0, 0, 0, 0},
            };
            uint32_t c = draw_once(P_TRIS, v, 3, dc, -1, 302, 12, NULL);
            CHECK_MSG(c == (ys[i].drawn ? 0xFF0000u : 0u), "depthclip %d, Y = %g: pixel 0x%06x", dc,
                      (double)ys[i].y, c);
        }
    /* Points: outside -> not drawn; (2047.9375, 10) is screen 4095.9375,
     * inside, drawn at pixel floor(2047.9375) = 2047, off the scissor, so
     * nothing shows either way; use an offset that brings it on screen:
     * OFFSET_X = 4000 px, screen 4095.9375 -> pixel 95; screen 4096 ->
     * dropped (it would be pixel 96). */
    {
        struct pb t;
        vp_init(&t);
        pb_offset16(&t, 4000 * 16, 2048 * 16);
        static const struct tv v[] = {
            {2047.9375f, 10, 0, 0x0000C1, 0, 0, 0, 0, 0},
            {2048, 11, 0, 0x0000C2, 0, 0, 0, 0, 0},
        };
        draw(&t, P_POINTS, TV_COLOR, v, 2);
        pb_run(&t);
        static const struct xp e[] = {{95, 10, 0x0000C1, -1}};
        expect_only(&t, e, 1);
        pb_free(&t);
    }
}

TEST(vprobe_guard_skip_on_near_plane)
{
    /* DEPTHCLIP on: a vertex read from memory that lies on or behind the
     * near plane (clip z <= -w) skips the guard-band test, x and y
     * included (PPSSPP's software transform applies the range check only
     * in front of the near plane; docs/notes/vertex-pipeline.md §4.3).
     * GE-HARDWARE.md is silent.
     * Points (never clipped, PPSSPP ProcessPoint) outside the band in x:
     * screen x = clip x + 2048 >= 4096; OFFSET_X = 4000 px brings them on
     * screen (pixel = screen - 4000). Depth = 32768 z + 32768, clamped.
     *   z = -1.5 (z < -w): outside the plane -z > w, which drops a point
     *            whatever its range (measured, probe exp176) -> not drawn
     *   z = -1   (z = -w): not range-checked -> drawn at (148, 20), depth 0
     *   z = -32767/32768 (z > -w): outside -> dropped (would be (168, 40))
     * Control: z = -1 inside the band (clip x 2040 -> screen 4088) is drawn
     * at (88, 50), depth 0, so only the range check can drop the second
     * point. */
    struct pb t;
    vp_init(&t);
    depth_prefill(&t);
    pb_depth_always(&t);
    pb_cmd(&t, GE_DEPTHCLIP_ON, 1);
    pb_offset16(&t, 4000 * 16, 2048 * 16);
    static const struct tv v[] = {
        {2110, 30, -1.5f, 0x0000D1, 0, 0, 0, 0, 0},
        {2100, 20, -1, 0x0000D2, 0, 0, 0, 0, 0},
        {2120, 40, -32767.0f / 32768.0f, 0x0000D3, 0, 0, 0, 0, 0},
        {2040, 50, -1, 0x0000D4, 0, 0, 0, 0, 0},
    };
    draw(&t, P_POINTS, TV_COLOR, v, 4);
    pb_run(&t);
    static const struct xp e[] = {{88, 50, 0x0000D4, 0}, {148, 20, 0x0000D2, 0}};
    expect_only(&t, e, 2);
    pb_free(&t);
}

TEST(vprobe_depth_range)
{
    /* docs/notes/vertex-pipeline.md §4.3-4.4, PPSSPP ClipToScreenInternal
     * and Clipper CheckOutsideZ / ProcessTriangle / ProcessPoint.
     * Depth = 32768 z + 32768 (w = 1).
     * Points, DEPTHCLIP off: outside when the depth is < 0 or >= 65536:
     *   z = 32767/32768 -> 65535 drawn; z = 1 -> 65536 dropped;
     *   z = -1 -> 0 drawn; z = -(1 + 2^-15) -> -1 dropped.
     * Points, DEPTHCLIP on: depth clamped to 0..65535; a point outside a
     * clip plane (|z| > w) is dropped (measured, probe exp176):
     *   z = 1 -> 65535; z = 1.5 and z = -1.5 dropped. */
    {
        struct pb t;
        vp_init(&t);
        depth_prefill(&t);
        pb_depth_always(&t);
        static const struct tv off[] = {
            {10, 10, 32767.0f / 32768.0f, 0x0000E1, 0, 0, 0, 0, 0},
            {12, 10, 1, 0x0000E2, 0, 0, 0, 0, 0},
            {14, 10, -1, 0x0000E3, 0, 0, 0, 0, 0},
            {16, 10, -(1 + 1.0f / 32768), 0x0000E4, 0, 0, 0, 0, 0},
        };
        draw(&t, P_POINTS, TV_COLOR, off, 4);
        pb_cmd(&t, GE_DEPTHCLIP_ON, 1);
        static const struct tv on[] = {
            {10, 20, 1, 0x00E100, 0, 0, 0, 0, 0},
            {12, 20, 1.5f, 0x00E200, 0, 0, 0, 0, 0},
            {14, 20, -1.5f, 0x00E300, 0, 0, 0, 0, 0},
        };
        draw(&t, P_POINTS, TV_COLOR, on, 3);
        pb_run(&t);
        static const struct xp e[] = {
            {10, 10, 0x0000E1, 65535}, {14, 10, 0x0000E3, 0}, {10, 20, 0x00E100, 65535},
        };
        expect_only(&t, e, 3);
        CHECK_EQ_U(zat(&t, 12, 10), 0x5A5A);
        CHECK_EQ_U(zat(&t, 16, 10), 0x5A5A);
        pb_free(&t);
    }
    /* Triangles (10, 10), (60, 10), (10, 60); pixel (15, 15) inside.
     * A vertex is past the depth range when |z / w| >= 1 + 2^-15.
     *   z = (0, 0, 1.5):   off -> discarded (any vertex out);
     *                      on  -> drawn (not all out on one side).
     *   z = (1.5, 1.5, 1.5): discarded both ways (all out on the + side).
     *   z = (0, 0, 1): z/w = 1 is not past the range, but its depth 65536
     *                  is: off -> discarded (screen depth >= 65536);
     *                  on -> drawn (clamped).
     *   z = (1.5, 1.5, 32767/32768), DEPTHCLIP on: drawn, and every vertex
     *     depth clamps or lands on 65535 (81920 -> 65535, 81920 -> 65535,
     *     65535), so the depth plane is flat: every pixel reads 65535. */
    static const struct { float z[3]; bool off, on; } tz[] = {
        {{0, 0, 1.5f}, false, true},
        {{1.5f, 1.5f, 1.5f}, false, false},
        {{0, 0, 1}, false, true},
        {{0, 0, 0.5f}, true, true},
    };
    for (unsigned i = 0; i < sizeof tz / sizeof tz[0]; i++)
        for (int dc = 0; dc < 2; dc++) {
            struct tv v[3] = {
                {10, 10, tz[i].z[0], 0x808080, 0, 0, 0, 0, 0},
                {60, 10, tz[i].z[1], 0x808080, 0, 0, 0, 0, 0},
                {10, 60, tz[i].z[2], 0x808080, 0, 0, 0, 0, 0},
            };
            bool want = dc ? tz[i].on : tz[i].off;
            uint32_t c = draw_once(P_TRIS, v, 3, dc, -1, 15, 15, NULL);
            CHECK_MSG(c == (want ? 0x808080u : 0u), "case %u depthclip %d: 0x%06x", i, dc, c);
        }
    {
        struct pb t;
        vp_init(&t);
        depth_prefill(&t);
        pb_depth_always(&t);
        pb_cmd(&t, GE_DEPTHCLIP_ON, 1);
        static const struct tv v[3] = {
            {10, 10, 1.5f, 0x404040, 0, 0, 0, 0, 0},
            {60, 10, 1.5f, 0x404040, 0, 0, 0, 0, 0},
            {10, 60, 32767.0f / 32768.0f, 0x404040, 0, 0, 0, 0, 0},
        };
        draw(&t, P_TRIS, TV_COLOR, v, 3);
        pb_run(&t);
        static const int px[][2] = {{12, 12}, {40, 12}, {12, 40}, {30, 25}};
        for (unsigned k = 0; k < 4; k++) {
            CHECK_EQ_U(rgb(&t, px[k][0], px[k][1]), 0x404040u);
            CHECK_EQ_U(zat(&t, px[k][0], px[k][1]), 65535);
        }
        pb_free(&t);
    }
}

/* ---- 5. Near-plane clipping -------------------------------------------------- */

TEST(vprobe_near_clip)
{
    /* Triangle (10, 10, 0), (110, 10, 0), (10, 110, -2), w = 1, pixel
     * viewport. The near plane is z = -w (docs/notes §4.6, PPSSPP
     * CalcClipMask / CLIP_POLY): plane distance d = z + w is 1, 1, -1, and
     * with w constant clip z is linear on screen: z = -2 (y - 10) / 100, so
     * the kept part is y <= 60 (the cut runs from (10, 60) to (60, 60),
     * both at d = 0, t = 1/2 exactly). Pixels inside the original triangle
     * (x > 10, y > 10, x + y < 120 at the sample) with y well above 60 are
     * drawn, those well below are not.
     * DEPTHCLIP on is needed: with it off the vertex at z / w = -2 is past
     * the depth range and the whole triangle is discarded (CheckOutsideZ),
     * also checked below. Control: the same triangle with z = 0 everywhere
     * draws the lower pixels too. */
    struct tv v[3] = {
        {10, 10, 0, 0x00FFFF, 0, 0, 0, 0, 0},
        {110, 10, 0, 0x00FFFF, 0, 0, 0, 0, 0},
        {10, 110, -2, 0x00FFFF, 0, 0, 0, 0, 0},
    };
    static const int above[][2] = {{12, 12}, {20, 30}, {50, 50}, {15, 55}, {90, 15}, {55, 56}};
    static const int below[][2] = {{12, 65}, {20, 70}, {30, 80}, {12, 100}, {40, 70}};
    {
        struct pb t;
        vp_init(&t);
        depth_prefill(&t);
        pb_depth_always(&t);
        pb_cmd(&t, GE_DEPTHCLIP_ON, 1);
        draw(&t, P_TRIS, TV_COLOR, v, 3);
        pb_run(&t);
        for (unsigned k = 0; k < sizeof above / sizeof above[0]; k++)
            CHECK_MSG(rgb(&t, above[k][0], above[k][1]) == 0x00FFFF, "kept side (%d,%d) = 0x%06x", above[k][0],
                      above[k][1], rgb(&t, above[k][0], above[k][1]));
        for (unsigned k = 0; k < sizeof below / sizeof below[0]; k++)
            CHECK_MSG(rgb(&t, below[k][0], below[k][1]) == 0, "clipped side (%d,%d) = 0x%06x", below[k][0],
                      below[k][1], rgb(&t, below[k][0], below[k][1]));
        /* No pixel at all below row 60 (the cut is exactly y = 60; the
         * samples of row 60 are at y = 60 + 7/16, outside). */
        for (int y = 60; y < VP_H; y++)
            for (int x = 0; x < VP_W; x++) CHECK_MSG(rgb(&t, x, y) == 0, "pixel (%d,%d) below the cut", x, y);
        /* Depth sanity (the planes' exact rounding is the rasterizer's,
         * not this probe's subject): depth falls from 32768 at y = 10 to
         * 0 at y = 60, 32768 (60 - ys) / 50 at the sample ys = y + 7/16.
         * Allow 64 units for the plane arithmetic. */
        for (int y = 12; y < 58; y += 5) {
            int64_t want = (int64_t)32768 * (60 * 16 - (16 * y + 7)) / (50 * 16);
            int got = zat(&t, 12, y);
            CHECK_MSG(got >= want - 64 && got <= want + 64, "depth (12,%d) = %d, about %lld", y, got,
                      (long long)want);
        }
        pb_free(&t);
    }
    /* DEPTHCLIP off: discarded whole. */
    unsigned n = 0;
    CHECK_EQ_U(draw_once(P_TRIS, v, 3, false, -1, 20, 30, &n), 0);
    CHECK_EQ_U(n, 0);
    /* Control: nothing behind the plane, everything drawn. */
    v[2].z = 0;
    for (unsigned k = 0; k < sizeof below / sizeof below[0]; k++)
        CHECK_EQ_U(draw_once(P_TRIS, v, 3, true, -1, below[k][0], below[k][1], NULL), 0x00FFFFu);
}

/* ---- 6. Culling ------------------------------------------------------------ */

TEST(vprobe_cull)
{
    /* docs/notes §4.8; PPSSPP TransformUnit SendTriangle + BinManager
     * AddTriangle: with A = (x1 - x0)(y2 - y0) - (y1 - y0)(x2 - x0) on the
     * final screen coordinates (y down), CULL (0x9B) = 0 draws iff A <= 0,
     * CULL = 1 iff A >= 0; CULL_ON = 0 draws both.
     * (10, 10), (100, 10), (10, 100): A = 90 * 90 = 8100 > 0. Pixel (20, 20). */
    const struct tv cw[3] = {
        {10, 10, 0, 0xFFFF00, 0, 0, 0, 0, 0},
        {100, 10, 0, 0xFFFF00, 0, 0, 0, 0, 0},
        {10, 100, 0, 0xFFFF00, 0, 0, 0, 0, 0}};
    const struct tv ccw[3] = {cw[0], cw[2], cw[1]};
    CHECK_EQ_U(draw_once(P_TRIS, cw, 3, false, -1, 20, 20, NULL), 0xFFFF00u);
    CHECK_EQ_U(draw_once(P_TRIS, ccw, 3, false, -1, 20, 20, NULL), 0xFFFF00u);
    CHECK_EQ_U(draw_once(P_TRIS, cw, 3, false, 0, 20, 20, NULL), 0u);
    CHECK_EQ_U(draw_once(P_TRIS, cw, 3, false, 1, 20, 20, NULL), 0xFFFF00u);
    CHECK_EQ_U(draw_once(P_TRIS, ccw, 3, false, 0, 20, 20, NULL), 0xFFFF00u);
    CHECK_EQ_U(draw_once(P_TRIS, ccw, 3, false, 1, 20, 20, NULL), 0u);

    /* The winding is taken on screen, after the viewport: with y scale -1
     * (center 2048) the clip triangle (10, -10), (100, -10), (10, -100)
     * lands on the same screen triangle as cw above (A > 0), though its
     * clip-space winding is the opposite. CULL = 0 culls it, CULL = 1 draws. */
    for (int cull = 0; cull < 2; cull++) {
        struct pb t;
        vp_init(&t);
        pb_viewport(&t, 1, -1, 32768, 2048, 2048, 32768);
        pb_cmd(&t, GE_CULL_ON, 1);
        pb_cmd(&t, GE_CULL, (uint32_t)cull);
        const struct tv f[3] = {
            {10, -10, 0, 0xFFFF00, 0, 0, 0, 0, 0},
            {100, -10, 0, 0xFFFF00, 0, 0, 0, 0, 0},
            {10, -100, 0, 0xFFFF00, 0, 0, 0, 0, 0}};
        draw(&t, P_TRIS, TV_COLOR, f, 3);
        pb_run(&t);
        CHECK_EQ_U(rgb(&t, 20, 20), cull ? 0xFFFF00u : 0u);
        pb_free(&t);
    }

    /* A strip flips the sense on every odd triangle (docs/notes §8.2):
     * (200, 10), (200, 100), (290, 10), (290, 100). Triangle 0 (v0 v1 v2):
     * A = 0 * 0 - 90 * 90 < 0; triangle 1 (v1 v2 v3): A = 90 * 0 - (-90) * 90
     * > 0, flipped. Under CULL = 0 both are drawn (pixel (205, 20) in
     * triangle 0, (285, 90) in triangle 1); under CULL = 1 neither. */
    const struct tv s[4] = {
        {200, 10, 0, 0x00FF80, 0, 0, 0, 0, 0}, {200, 100, 0, 0x00FF80, 0, 0, 0, 0, 0},
        {290, 10, 0, 0x00FF80, 0, 0, 0, 0, 0}, {290, 100, 0, 0x00FF80, 0, 0, 0, 0, 0}};
    CHECK_EQ_U(draw_once(P_STRIP, s, 4, false, 0, 205, 20, NULL), 0x00FF80u);
    CHECK_EQ_U(draw_once(P_STRIP, s, 4, false, 0, 285, 90, NULL), 0x00FF80u);
    unsigned n = 1;
    CHECK_EQ_U(draw_once(P_STRIP, s, 4, false, 1, 205, 20, &n), 0u);
    CHECK_EQ_U(n, 0);
}

/* ---- 7. Lighting ---------------------------------------------------------- */

TEST(vprobe_lighting)
{
    /* Registers (PPSSPP GPU/ge_constants.h, GPUState.h; docs/notes §5.1):
     * LIGHTING_ON 0x17, LIGHT0_ON 0x18, LIGHT_TYPE0 0x5F (bits 0-1
     * computation, 8-9 kind: 0 = directional diffuse), LX0..LZ0 0x63-0x65,
     * light colours LAC0/LDC0/LSC0 0x8F-0x91, material emissive 0x54,
     * ambient 0x55, diffuse 0x56, specular 0x57, alpha 0x58, global ambient
     * 0x5C/0x5D, MATERIAL_UPDATE 0x53 = 0, LIGHT_MODE 0x5E = 0.
     * Expected per channel (docs/notes §5.2, PPSSPP Lighting.cpp, with the
     * GE-HARDWARE.md §3 product p(x, s) = ((2x + 1)(2s + 1)) >> 10):
     *   emissive + p(Mamb, ambient)                     (base)
     *   + p(LAC, Mamb)       light ambient, attenuation 1 (directional)
     *   + p(LDC, Mdiff)      diffuse, only when N.L > 0
     * clamped to 255. At full intensity (N.L = 1) PPSSPP's scale is
     * min(512, ceil(512 + 1)) = 512 and (F F 512) >> 19 = (F F) >> 10, the
     * same two-factor product, so the value does not depend on how an
     * intermediate intensity is quantised. Vertices have no colour, so
     * MATERIAL_UPDATE does not apply.
     * Normals: (0, 0, 1) faces the light (direction (0, 0, 2), normalised
     * to (0, 0, 1): |L|^2 = 4, 1/sqrt(4) = 0.5 exactly); (0, 0, 4) also
     * normalises to (0, 0, 1) exactly (1/sqrt(16) = 0.25); (0, 0, -1) faces
     * away (N.L = -1: no diffuse); a normal perpendicular to the light,
     * (1, 0, 0), has N.L = 0: no diffuse either. */
    static const unsigned E[3] = {10, 20, 30}, MA[3] = {100, 50, 255}, AMB[3] = {128, 255, 64};
    static const unsigned LAC[3] = {40, 0, 0}, MD[3] = {200, 100, 30}, LDC[3] = {255, 128, 77};
    struct pb t;
    vp_init(&t);
    pb_cmd(&t, GE_LIGHTING_ON, 1);
    pb_cmd(&t, GE_LIGHT0_ON, 1);
    pb_cmd(&t, GE_LIGHT_TYPE0, 0);
    pb_cmd(&t, GE_LIGHT_MODE, 0);
    pb_cmd(&t, GE_MATERIAL_UPDATE, 0);
    pb_cmdf(&t, R_LX0, 0);
    pb_cmdf(&t, R_LY0, 0);
    pb_cmdf(&t, R_LZ0, 2);
    pb_cmd(&t, R_LAC0, pack_rgb(LAC[0], LAC[1], LAC[2]));
    pb_cmd(&t, R_LDC0, pack_rgb(LDC[0], LDC[1], LDC[2]));
    pb_cmd(&t, R_LSC0, 0);
    pb_cmd(&t, R_MAT_EMISSIVE, pack_rgb(E[0], E[1], E[2]));
    pb_cmd(&t, R_MAT_AMBIENT, pack_rgb(MA[0], MA[1], MA[2]));
    pb_cmd(&t, R_MAT_DIFFUSE, pack_rgb(MD[0], MD[1], MD[2]));
    pb_cmd(&t, R_MAT_SPECULAR, 0);
    pb_cmd(&t, R_MAT_ALPHA, 255);
    pb_cmd(&t, R_AMBIENT, pack_rgb(AMB[0], AMB[1], AMB[2]));
    pb_cmd(&t, R_AMBIENT_ALPHA, 255);
    static const struct tv v[] = {
        {20, 20, 0, 0, 0, 0, 1, 0, 0},
        {30, 20, 0, 0, 0, 0, 4, 0, 0},
        {40, 20, 0, 0, 0, 0, -1, 0, 0},
        {50, 20, 0, 0, 1, 0, 0, 0, 0},
    };
    draw(&t, P_POINTS, TV_NORMAL, v, 4);
    /* Ambient only: the light disabled, base term alone. */
    pb_cmd(&t, GE_LIGHT0_ON, 0);
    static const struct tv a = {60, 20, 0, 0, 0, 0, 1, 0, 0};
    draw(&t, P_POINTS, TV_NORMAL, &a, 1);
    /* Normals go through the world matrix's 3x3 (lighting is in world
     * space; docs/notes §5.3). World = a quarter turn about x: x -> x,
     * y -> z, z -> -y (images (1,0,0), (0,0,1), (0,-1,0)). Model
     * (70, 0, -20) lands on (70, 20, 0): pixel (70, 20); its normal (0, 1, 0)
     * becomes (0, 0, 1), facing the light: lit. At (80, 0, -20) the normal
     * (0, 0, 1) becomes (0, -1, 0), perpendicular: no diffuse. */
    pb_cmd(&t, GE_LIGHT0_ON, 1);
    static const float rot[12] = {1, 0, 0, 0, 0, 1, 0, -1, 0, 0, 0, 0};
    pb_matrices(&t, rot, pb_id43, pb_id44);
    static const struct tv rv[] = {
        {70, 0, -20, 0, 0, 1, 0, 0, 0},
        {80, 0, -20, 0, 0, 0, 1, 0, 0},
    };
    draw(&t, P_POINTS, TV_NORMAL, rv, 2);
    pb_run(&t);

    unsigned lit[3], back[3], base[3];
    for (int c = 0; c < 3; c++) {
        base[c] = E[c] + prod8(MA[c], AMB[c]);
        back[c] = clamp255(base[c] + prod8(LAC[c], MA[c]));
        lit[c] = clamp255(base[c] + prod8(LAC[c], MA[c]) + prod8(LDC[c], MD[c]));
        base[c] = clamp255(base[c]);
    }
    /* By hand: base = (10 + 50, 20 + 50, 30 + 64) = (60, 70, 94);
     * light ambient (15, 0, 0); diffuse (200, 50, 9): lit = (275 -> 255,
     * 120, 103), away = (75, 70, 94). */
    CHECK_EQ_U(pack_rgb(lit[0], lit[1], lit[2]), pack_rgb(255, 120, 103));
    CHECK_EQ_U(pack_rgb(back[0], back[1], back[2]), pack_rgb(75, 70, 94));
    CHECK_EQ_U(pack_rgb(base[0], base[1], base[2]), pack_rgb(60, 70, 94));
    const struct xp e[] = {
        {20, 20, pack_rgb(lit[0], lit[1], lit[2]), -1},
        {30, 20, pack_rgb(lit[0], lit[1], lit[2]), -1},
        {40, 20, pack_rgb(back[0], back[1], back[2]), -1},
        {50, 20, pack_rgb(back[0], back[1], back[2]), -1},
        {60, 20, pack_rgb(base[0], base[1], base[2]), -1},
        {70, 20, pack_rgb(lit[0], lit[1], lit[2]), -1},
        {80, 20, pack_rgb(back[0], back[1], back[2]), -1},
    };
    expect_only(&t, e, 7);
    pb_free(&t);
}

/* ---- 8. Fog --------------------------------------------------------------- */

/* PPSSPP DrawSinglePixel: (c f + fogcolor (255 - f) + 255) / 256 per RGB. */
static unsigned fog_blend(unsigned c, unsigned fc, unsigned f) { return (c * f + fc * (255 - f) + 255) / 256; }

TEST(vprobe_fog)
{
    /* FOG_ON 0x1F, FOG1 0xCD (end), FOG2 0xCE (slope), FOG_COLOR 0xCF.
     * The factor is (eye z + FOG1) * FOG2 (docs/notes §7, PPSSPP
     * ComputeTransformState's posToFog); identity world and view make eye
     * z = model z. FOG1 = 1, FOG2 = 0.5: f = 0.5 z + 0.5, exact for these z:
     *   z = 0    -> 0.5  -> 8 bits floor(256 f) = 128 (PPSSPP ClampFogDepth)
     *   z = -0.5 -> 0.25 -> 64
     *   z = 0.5  -> 0.75 -> 192
     *   z = 1    -> 1    -> 255 (no fog)
     *   z = -1   -> 0    -> 0   (all fog colour)
     * (A factor above 1 needs |z| > w, which culls a point, probe exp176;
     * setup_fog_plane limits 256 f = 256 to 255.) The pixel is the fog
     * blend above. The depth viewport scale is 0 so every depth is 32768. */
    static const unsigned C[3] = {200, 40, 100}, FC[3] = {20, 100, 255};
    static const struct { float z; unsigned f; } cs[] = {
        {0, 128}, {-0.5f, 64}, {0.5f, 192}, {1, 255}, {-1, 0},
    };
    enum { N = sizeof cs / sizeof cs[0] };
    struct pb t;
    vp_init(&t);
    pb_viewport(&t, 1, 1, 0, 2048, 2048, 32768);
    pb_cmd(&t, GE_FOG_ON, 1);
    pb_cmdf(&t, GE_FOG1, 1);
    pb_cmdf(&t, GE_FOG2, 0.5f);
    pb_cmd(&t, GE_FOG_COLOR, pack_rgb(FC[0], FC[1], FC[2]));
    struct tv v[N];
    struct xp e[N + 2];
    for (unsigned i = 0; i < N; i++) {
        v[i] = (struct tv){(float)(10 + 3 * i), 15, cs[i].z, pack_rgb(C[0], C[1], C[2]) | 0xFF000000u, 0, 0, 0, 0, 0};
        e[i] = (struct xp){(int)(10 + 3 * i), 15,
                           pack_rgb(fog_blend(C[0], FC[0], cs[i].f), fog_blend(C[1], FC[1], cs[i].f),
                                    fog_blend(C[2], FC[2], cs[i].f)),
                           -1};
    }
    draw(&t, P_POINTS, TV_COLOR, v, N);
    /* The factor uses eye z (world x view): a view translating z by 0.5
     * turns model z = 0 into eye z 0.5 -> f = 0.75 -> 192, and model
     * z = -1.5 into -1 -> f = 0 (all fog). Row 25. */
    static const float view[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0.5f};
    pb_matrices(&t, pb_id43, view, pb_id44);
    struct tv ve[2] = {
        {10, 25, 0, pack_rgb(C[0], C[1], C[2]), 0, 0, 0, 0, 0},
        {13, 25, -1.5f, pack_rgb(C[0], C[1], C[2]), 0, 0, 0, 0, 0},
    };
    draw(&t, P_POINTS, TV_COLOR, ve, 2);
    e[N] = (struct xp){10, 25, pack_rgb(fog_blend(C[0], FC[0], 192), fog_blend(C[1], FC[1], 192),
                                        fog_blend(C[2], FC[2], 192)), -1};
    e[N + 1] = (struct xp){13, 25, pack_rgb(FC[0], FC[1], FC[2]), -1};
    pb_run(&t);
    /* By hand for f = 128: R (200*128 + 20*127 + 255) / 256 = 28395 / 256
     * = 110; G (40*128 + 100*127 + 255) / 256 = 18075 / 256 = 70; B
     * (100*128 + 255*127 + 255) / 256 = 45440 / 256 = 177. f = 255 gives
     * the colour itself, f = 0 the fog colour. */
    CHECK_EQ_U(e[0].c, pack_rgb(110, 70, 177));
    CHECK_EQ_U(e[3].c, pack_rgb(200, 40, 100));
    CHECK_EQ_U(e[4].c, pack_rgb(20, 100, 255));
    expect_only(&t, e, N + 2);
    pb_free(&t);
}

/* ---- 9. Texture coordinates ---------------------------------------------- */

TEST(vprobe_texcoord)
{
    /* A 16x16 8888 texture whose texel (a, b) is R = a, G = b, B = 0xA5:
     * nearest filtering, TEX_FUNC replace RGBA (3 | 1 << 8), so a pixel
     * names the texel it sampled. Transform-mode float texture coordinates
     * go through u' = u * TEXSCALE_U + TEXOFFSET_U (0x48..0x4B; docs/notes
     * §1.5, PPSSPP's prescale) and are normalised: texel = floor(16 u').
     * With scale 2 and offset -1/4, raw u = (2a + 9) / 64 gives
     * u' = (2a + 9) / 32 - 8 / 32 = (2a + 1) / 32 = (a + 1/2) / 16, the
     * centre of texel a (all exact: the products and the offset share
     * the ulp of a value near 1/2).
     * Then w = 2 (projection w row 2): the sample at a point is S/Q =
     * (u' / 2) / (1 / 2) = u', the same texel (halving is exact).
     * Then scale 1, offset 0: raw (19/64, 31/64) -> texel (floor(4.75),
     * floor(7.75)) = (4, 7) - the scale and offset really apply. */
    struct pb t;
    vp_init(&t);
    for (uint32_t b = 0; b < 16; b++)
        for (uint32_t a = 0; a < 16; a++) mem_write32(&t.r->mem, VP_TEX + (b * 16 + a) * 4, 0xFFA50000u | b << 8 | a);
    pb_texture_nearest(&t, VP_TEX, 4, 0);
    pb_cmdf(&t, R_TEXSCALE_U, 2);
    pb_cmdf(&t, R_TEXSCALE_V, 2);
    pb_cmdf(&t, R_TEXOFFSET_U, -0.25f);
    pb_cmdf(&t, R_TEXOFFSET_V, -0.25f);
    static const int ab[][2] = {{0, 0}, {15, 15}, {5, 11}, {11, 5}, {7, 0}, {0, 9}};
    enum { N = sizeof ab / sizeof ab[0] };
    struct tv v[N];
    struct xp e[2 * N + 1];
    unsigned ne = 0;
    for (unsigned i = 0; i < N; i++) {
        v[i] = (struct tv){(float)(10 + 2 * i), 10, 0, 0xFFFFFFFFu, 0, 0, 0,
                           (float)(2 * ab[i][0] + 9) / 64.0f, (float)(2 * ab[i][1] + 9) / 64.0f};
        e[ne++] = (struct xp){(int)(10 + 2 * i), 10, 0xA50000u | (uint32_t)ab[i][1] << 8 | (uint32_t)ab[i][0], -1};
    }
    draw(&t, P_POINTS, TV_TEX | TV_COLOR, v, N);
    /* w = 2: positions doubled so the pixels land at (10 + 2i, 12). */
    {
        float p[16];
        memcpy(p, pb_id44, sizeof p);
        p[15] = 2;
        pb_matrices(&t, pb_id43, pb_id43, p);
        for (unsigned i = 0; i < N; i++) {
            v[i].x *= 2;
            v[i].y = 24;
            e[ne] = e[i];
            e[ne++].y = 12;
        }
        draw(&t, P_POINTS, TV_TEX | TV_COLOR, v, N);
        pb_matrices(&t, pb_id43, pb_id43, pb_id44);
    }
    pb_cmdf(&t, R_TEXSCALE_U, 1);
    pb_cmdf(&t, R_TEXSCALE_V, 1);
    pb_cmdf(&t, R_TEXOFFSET_U, 0);
    pb_cmdf(&t, R_TEXOFFSET_V, 0);
    static const struct tv raw = {40, 14, 0, 0xFFFFFFFFu, 0, 0, 0, 19.0f / 64, 31.0f / 64};
    draw(&t, P_POINTS, TV_TEX | TV_COLOR, &raw, 1);
    e[ne++] = (struct xp){40, 14, 0xA50704u, -1};
    pb_run(&t);
    expect_only(&t, e, ne);
    pb_free(&t);
}

/* ---- 10. Rectangles in transform mode ------------------------------------- */

TEST(vprobe_rect_second_vertex)
{
    /* docs/notes §8.3-8.4 (PPSSPP Rasterizer DrawRectangle, Clipper
     * ProcessRect): a rectangle's colour, depth and fog come from its second
     * vertex, in any corner order; pixels are those whose centre lies in
     * [left, right) x [top, bottom). Both vertices are transformed (pixel
     * viewport, depth 32768 + 32768 z):
     *   A: v0 (10, 10, z 0.25) red, v1 (20, 16, z -0.25) green
     *      -> [10, 20) x [10, 16), green, depth 24576
     *   B: v0 (50, 16, -0.5) blue, v1 (40, 10, 0.5) grey: the corners the
     *      other way round -> [40, 50) x [10, 16), grey, depth 49152
     *   C: v0 (60, 30, 0) white, v1 (80, 20, 0.125) 0x336699 (rotated
     *      corner order) -> [60, 80) x [20, 30), 0x336699, depth 36864
     * Discard rules with two vertices (ProcessRect): D: v0 z = 1.5, v1
     * z = 0 at [100, 110) x [10, 16): DEPTHCLIP off -> discarded (a vertex
     * past the depth range); drawn with DEPTHCLIP on (not both out), with
     * v1's depth 32768. E: v1 outside the guard band (x = 2048 -> screen
     * 4096) -> discarded. */
    struct pb t;
    vp_init(&t);
    depth_prefill(&t);
    pb_depth_always(&t);
    static const struct tv r[] = {
        {10, 10, 0.25f, 0x0000FF, 0, 0, 0, 0, 0}, {20, 16, -0.25f, 0x00FF00, 0, 0, 0, 0, 0},
        {50, 16, -0.5f, 0xFF0000, 0, 0, 0, 0, 0}, {40, 10, 0.5f, 0x808080, 0, 0, 0, 0, 0},
        {60, 30, 0, 0xFFFFFF, 0, 0, 0, 0, 0},     {80, 20, 0.125f, 0x336699, 0, 0, 0, 0, 0},
        {100, 10, 1.5f, 0x111111, 0, 0, 0, 0, 0}, {110, 16, 0, 0x222222, 0, 0, 0, 0, 0},
        {130, 10, 0, 0x444444, 0, 0, 0, 0, 0},    {2048, 16, 0, 0x555555, 0, 0, 0, 0, 0},
    };
    draw(&t, P_RECTS, TV_COLOR, r, 10);
    /* D again with DEPTHCLIP on, one row lower. */
    pb_cmd(&t, GE_DEPTHCLIP_ON, 1);
    static const struct tv d[] = {
        {100, 40, 1.5f, 0x111111, 0, 0, 0, 0, 0}, {110, 46, 0, 0x222222, 0, 0, 0, 0, 0},
    };
    draw(&t, P_RECTS, TV_COLOR, d, 2);
    pb_run(&t);
    static const struct { int x0, y0, x1, y1; uint32_t c; int z; } box[] = {
        {10, 10, 20, 16, 0x00FF00, 24576},
        {40, 10, 50, 16, 0x808080, 49152},
        {60, 20, 80, 30, 0x336699, 36864},
        {100, 40, 110, 46, 0x222222, 32768},
    };
    enum { NB = sizeof box / sizeof box[0] };
    for (int y = 0; y < VP_H; y++)
        for (int x = 0; x < VP_W; x++) {
            uint32_t wc = 0;
            int wz = 0x5A5A;
            for (unsigned b = 0; b < NB; b++)
                if (x >= box[b].x0 && x < box[b].x1 && y >= box[b].y0 && y < box[b].y1) wc = box[b].c, wz = box[b].z;
            CHECK_MSG(rgb(&t, x, y) == wc, "pixel (%d,%d) = 0x%06x, want 0x%06x", x, y, rgb(&t, x, y), wc);
            CHECK_MSG(zat(&t, x, y) == wz, "depth (%d,%d) = %u, want %d", x, y, zat(&t, x, y), wz);
        }
    pb_free(&t);
}
