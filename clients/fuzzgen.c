/* Random GE cases for the determinism fuzzer (see fuzzgen.h).
 *
 * Register encodings follow PPSSPP's GPU/ge_constants.h and GPUState.h and
 * the snapshots in pipeline/ (pixel.c, sampler.c, texture.c, setup.c): VTYPE
 * bits 0-1 texture coordinates, 2-4 color, 7-8 position, 11-12 indices, 23
 * through mode; PRIM type << 16 | count; SCISSOR/REGION x in bits 0-9, y in
 * 10-19. How replay.c treats records decides the case layout: VERTICES,
 * INDICES, TEXTURE0 and CLUT data go into replay's RAM arena and it queues
 * the address words itself; texture address words inside REGISTERS are
 * dropped, so a texture in VRAM is named by a FRAMEBUF0 record (flag 1, "a
 * render target": its data is not written back). */
#include "fuzzgen.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ge_limits.h"
#include "gt_error.h"
#include "vdecode.h"

/* ---- PRNG and hash ------------------------------------------------------ */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void fuzz_rng_seed(struct fuzz_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t fuzz_rng_next(struct fuzz_rng *r)
{
    uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0], s[3] ^= s[1], s[1] ^= s[2], s[0] ^= s[3], s[2] ^= t, s[3] = rotl(s[3], 45);
    return out;
}

uint32_t fuzz_rng_below(struct fuzz_rng *r, uint32_t n) { return n ? (uint32_t)((fuzz_rng_next(r) >> 32) * n >> 32) : 0; }

uint64_t fuzz_hash(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = 0;
        for (int k = 0; k < 8; k++) w |= (uint64_t)b[i + k] << (8 * k);
        h = (h ^ w) * 0x100000001B3ull;
    }
    for (; i < n; i++) h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

/* ---- Generator state ----------------------------------------------------- */

/* A color and depth buffer pair with its drawing area. Addresses are VRAM
 * offsets (what FB_PTR and Z_PTR hold). */
struct target {
    uint32_t fb, stride, fmt, z, zstride;
    uint32_t w, h;    /* scissor extent: may pass the stride */
};

enum feature {
    F_THROUGH, F_TRANSFORM, F_RECT, F_STRIP, F_FAN, F_LINES, F_POINTS, F_INDEXED, F_BLEND, F_DEPTH,
    F_STENCIL, F_PAST_STRIDE, F_REGION1, F_ZALIAS, F_ZSTRIDE, F_RTT, F_SELFTEX, F_CLEAR, F_TEXTURE,
    F_CLUT, F_TRANSFER, F_BADADDR, F_COUNT
};
static const char *const feature_names[F_COUNT] = {
    "through", "transform", "rect", "strip", "fan", "lines", "points", "indexed", "blend", "depth",
    "stencil", "past-stride", "region1", "z-alias", "z-stride", "rtt", "self-tex", "clear", "texture",
    "clut", "transfer", "bad-addr",
};

struct gen {
    struct fuzz_rng r;
    struct fuzz_case *c;
    struct dl l;          /* words of the next REGISTERS record */
    struct target cur;
    struct target old[4]; /* earlier targets: render-to-texture sources */
    unsigned nold;
    uint32_t feat;        /* bit set of enum feature */
    uint8_t scratch[128 * 128 * 4];
};

/* The random draws. Rule: every draw is sequenced. C leaves unspecified
 * the order in which the operands of |, +, -, << and most other operators
 * and the arguments of a call are evaluated, and gcc and clang pick
 * different orders, so two draws in such places give a different case with
 * another compiler. A seed must give the same case with any compiler (a
 * saved fuzz case must replay anywhere). So draw into locals, one statement
 * or declarator each, or use a sequenced form: ?: (its condition first),
 * || and &&, the comma operator. */
static uint32_t below(struct gen *g, uint32_t n) { return fuzz_rng_below(&g->r, n); }
static bool chance(struct gen *g, unsigned percent) { return below(g, 100) < percent; }
/* A float in [lo, hi) from 24 random bits (exact host arithmetic). */
static float frand(struct gen *g, float lo, float hi) { return lo + (hi - lo) * (float)below(g, 1u << 24) / 16777216.0f; }
/* Two register fields: below(na), then below(nb) shifted left by shift. */
static uint32_t two_fields(struct gen *g, uint32_t na, uint32_t nb, unsigned shift)
{
    uint32_t a = below(g, na);
    uint32_t b = below(g, nb);
    return a | b << shift;
}
static void cmd(struct gen *g, unsigned c, uint32_t data) { dl_cmd(&g->l, c, data); }
static void cmdf(struct gen *g, unsigned c, float f) { dl_cmd(&g->l, c, dl_float24(f)); }

/* Ends the current REGISTERS record (nothing when it is empty). */
static void regs_flush(struct gen *g)
{
    if (!g->l.n && !g->l.err) return;
    dumpb_registers(&g->c->b, &g->l);
    g->l.n = 0;
}

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v), put16(p + 2, v >> 16); }
static void putf(uint8_t *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put32(p, u);
}

static void random_bytes(struct gen *g, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(fuzz_rng_next(&g->r) >> 56);
}

/* ---- Targets ------------------------------------------------------------- */

static uint32_t vram_off(struct gen *g) { return below(g, GT_VRAM_SIZE / 16) * 16; }

/* Viewport and offset mapping [-1, 1] onto the target's drawing area. */
static void viewport(struct gen *g)
{
    const struct target *t = &g->cur;
    cmdf(g, GE_VIEWPORT_SX, (float)t->w / 2), cmdf(g, GE_VIEWPORT_SX + 1, -(float)t->h / 2);
    cmdf(g, GE_VIEWPORT_SX + 2, frand(g, 1000, 32767));
    cmdf(g, GE_VIEWPORT_SX + 3, 2048.0f + (float)t->w / 2 + frand(g, -8, 8));
    cmdf(g, GE_VIEWPORT_SX + 4, 2048.0f + (float)t->h / 2 + frand(g, -8, 8));
    cmdf(g, GE_VIEWPORT_SX + 5, frand(g, 30000, 35000));
    cmd(g, GE_OFFSET_X, 2048 << 4), cmd(g, GE_OFFSET_Y, 2048 << 4);
}

/* Emits the words selecting target t (buffers, format, scissor, regions). */
static void use_target(struct gen *g, const struct target *t)
{
    g->cur = *t;
    cmd(g, GE_FB_PTR, t->fb), cmd(g, GE_FB_WIDTH, t->stride);
    cmd(g, GE_Z_PTR, t->z), cmd(g, GE_Z_WIDTH, t->zstride);
    cmd(g, GE_FB_FORMAT, t->fmt);
    uint32_t x0 = chance(g, 80) ? 0 : below(g, 32), y0 = chance(g, 80) ? 0 : below(g, 32);
    cmd(g, GE_SCISSOR1, x0 | y0 << 10);
    cmd(g, GE_SCISSOR2, (t->w - 1) | (t->h - 1) << 10);
    uint32_t rx = 0, ry = 0;
    if (chance(g, 40)) {
        rx = chance(g, 80) ? below(g, 16) : below(g, 256), ry = chance(g, 80) ? below(g, 16) : below(g, 128);
        g->feat |= 1u << F_REGION1;
    }
    cmd(g, GE_REGION1, rx | ry << 10);
    cmd(g, GE_REGION2, chance(g, 90) ? 1023 | 1023 << 10 : two_fields(g, 1024, 1024, 10));
    viewport(g);
}

/* A random target; its depth buffer is separate, equal to, overlapping or
 * right after the color buffer, with the same or another stride. */
static void random_target(struct gen *g, struct target *t)
{
    static const uint32_t strides[] = {64, 128, 256, 512, 512, 512};
    t->fmt = below(g, 4);
    t->stride = chance(g, 85) ? strides[below(g, 6)] : 4 * (1 + below(g, 255));
    t->w = chance(g, 60) ? (t->stride < 480 ? t->stride : 480) : 16 + below(g, 600);
    t->h = chance(g, 60) ? 272 : 8 + below(g, 400);
    if (t->w > t->stride) g->feat |= 1u << F_PAST_STRIDE;
    uint32_t bytes = t->stride * t->h * (t->fmt == 3 ? 4 : 2);
    t->fb = chance(g, 30) ? 0 : vram_off(g);
    t->zstride = t->stride;
    if (chance(g, 25)) {
        static const uint32_t zs[] = {64, 128, 256, 512};
        t->zstride = zs[below(g, 4)];
        if (t->zstride != t->stride) g->feat |= 1u << F_ZSTRIDE;
    }
    switch (below(g, 5)) {
    case 0: t->z = t->fb, g->feat |= 1u << F_ZALIAS; break;
    case 1: t->z = (t->fb + below(g, bytes / 16 + 1) * 16) & (GT_VRAM_SIZE - 16), g->feat |= 1u << F_ZALIAS; break;
    case 2: t->z = (t->fb + bytes + 15) & (GT_VRAM_SIZE - 16); break;
    default: t->z = vram_off(g); break;
    }
}

/* ---- Draw state ---------------------------------------------------------- */

static void random_state(struct gen *g)
{
    bool depth = chance(g, 50);
    cmd(g, GE_ZTEST_ON, depth), cmd(g, GE_Z_TEST, chance(g, 60) ? 4 + below(g, 4) : below(g, 8));
    cmd(g, GE_Z_WRITE_DISABLE, chance(g, 25));
    if (depth) g->feat |= 1u << F_DEPTH;
    bool blend = chance(g, 60);
    cmd(g, GE_BLEND_ON, blend);
    uint32_t factors = chance(g, 60) ? 2 | 3 << 4 : two_fields(g, 11, 11, 4);
    uint32_t equation = below(g, 8);
    cmd(g, GE_BLEND_MODE, factors | equation << 8);
    cmd(g, GE_BLEND_FIXA, below(g, 1u << 24)), cmd(g, GE_BLEND_FIXB, below(g, 1u << 24));
    if (blend) g->feat |= 1u << F_BLEND;
    bool stencil = chance(g, 25);
    cmd(g, GE_STENCILTEST_ON, stencil);
    uint32_t sfunc = below(g, 8), sref = below(g, 256), smask = chance(g, 70) ? 0xFF : below(g, 256);
    cmd(g, GE_STENCIL_TEST, sfunc | sref << 8 | smask << 16);
    uint32_t sfail = below(g, 6), zfail = below(g, 6), zpass = below(g, 6);
    cmd(g, GE_STENCIL_OP, sfail | zfail << 8 | zpass << 16);
    if (stencil) g->feat |= 1u << F_STENCIL;
    cmd(g, GE_ALPHATEST_ON, chance(g, 20));
    cmd(g, GE_ALPHA_TEST, two_fields(g, 8, 256, 8) | 0xFF << 16);
    cmd(g, GE_COLORTEST_ON, chance(g, 8));
    cmd(g, GE_COLOR_TEST, below(g, 4)), cmd(g, GE_COLOR_REF, below(g, 1u << 24));
    cmd(g, GE_COLOR_TEST_MASK, chance(g, 50) ? 0xFFFFFF : below(g, 1u << 24));
    cmd(g, GE_DITHER_ON, chance(g, 30));
    cmd(g, GE_LOGICOP_ON, chance(g, 8)), cmd(g, GE_LOGIC_OP, below(g, 16));
    cmd(g, GE_MASK_RGB, chance(g, 90) ? 0 : below(g, 1u << 24)), cmd(g, GE_MASK_ALPHA, chance(g, 90) ? 0 : below(g, 256));
    cmd(g, GE_SHADEMODE, chance(g, 70));
    cmd(g, GE_CULL_ON, chance(g, 20)), cmd(g, GE_CULL, below(g, 2));
    cmd(g, GE_DEPTHCLIP_ON, chance(g, 70));
    cmd(g, GE_FOG_ON, chance(g, 10));
    cmdf(g, GE_FOG1, frand(g, 0.5f, 2)), cmdf(g, GE_FOG2, frand(g, 0.5f, 4)), cmd(g, GE_FOG_COLOR, below(g, 1u << 24));
    cmd(g, GE_MIN_Z, chance(g, 85) ? 0 : below(g, 0x8000)), cmd(g, GE_MAX_Z, chance(g, 85) ? 0xFFFF : 0x8000 + below(g, 0x8000));
    cmd(g, GE_MATERIAL_UPDATE + 2, below(g, 1u << 24)), cmd(g, GE_MATERIAL_UPDATE + 5, below(g, 256));
    cmd(g, GE_ANTIALIAS_ON, chance(g, 10));
    uint32_t tfunc = below(g, 5), talpha = chance(g, 70) ? 0x100 : 0, tdouble = chance(g, 10) ? 0x10000 : 0;
    cmd(g, GE_TEX_FUNC, tfunc | talpha | tdouble);
    cmd(g, GE_TEX_ENV, below(g, 1u << 24));
    cmd(g, GE_TEX_FILTER, chance(g, 50) ? 0 : 1 | 0x100);
    cmd(g, GE_TEX_WRAP, two_fields(g, 2, 2, 8));
    cmd(g, GE_CLEAR_MODE, 0);
}

/* Texture size words for a w x h texture (powers of two, given as log2). */
static void tex_size(struct gen *g, unsigned wlog, unsigned hlog, unsigned format)
{
    cmd(g, GE_TEX_SIZE0, wlog | hlog << 8);
    cmd(g, GE_TEX_FORMAT, format);
    cmd(g, GE_TEX_MODE, chance(g, 15)); /* sometimes swizzled */
    cmd(g, GE_TEXTURE_ON, 1);
    cmd(g, GE_TEX_FLUSH, 0);
    g->feat |= 1u << F_TEXTURE;
}

/* A texture in RAM (TEXTURE0 record), 16/32-bit or CLUT8 with its CLUT. */
static void ram_texture(struct gen *g, unsigned *wlog, unsigned *hlog)
{
    *wlog = 3 + below(g, 5), *hlog = 3 + below(g, 5);
    unsigned format = chance(g, 20) ? 5 : below(g, 4);
    uint32_t bufw = (1u << *wlog) + (chance(g, 20) ? 4 * below(g, 16) : 0);
    uint32_t bytes = bufw * (1u << *hlog) * (format == 3 ? 4 : format == 5 ? 1 : 2);
    if (bytes > sizeof g->scratch) bytes = sizeof g->scratch;
    cmd(g, GE_TEX_BUFW0, bufw);
    tex_size(g, *wlog, *hlog, format);
    if (format == 5) {
        cmd(g, GE_CLUT_FORMAT, 3 | 0xFF << 8);
        g->feat |= 1u << F_CLUT;
    }
    regs_flush(g);
    if (format == 5) {
        uint8_t clut[1024];
        random_bytes(g, clut, sizeof clut);
        dumpb_add(&g->c->b, DUMP_CLUT, clut, sizeof clut, 0);
        cmd(g, GE_LOAD_CLUT, 32);
        regs_flush(g);
    }
    random_bytes(g, g->scratch, bytes);
    dumpb_add(&g->c->b, DUMP_TEXTURE0, g->scratch, bytes, 0);
}

/* A texture in VRAM at addr (a render target), named by a FRAMEBUF0 record. */
static void vram_texture(struct gen *g, uint32_t addr, uint32_t bufw, unsigned fmt, unsigned *wlog, unsigned *hlog)
{
    *wlog = 3 + below(g, 6), *hlog = 3 + below(g, 6);
    tex_size(g, *wlog, *hlog, fmt);
    regs_flush(g);
    dumpb_framebuf(&g->c->b, 0, addr, bufw, 1, NULL, 0);
}

/* ---- Primitives ---------------------------------------------------------- */

struct vert { float x, y, z, u, v; uint8_t rgba[4]; };

static void random_vert(struct gen *g, struct vert *v, bool through, unsigned tw, unsigned th)
{
    const struct target *t = &g->cur;
    if (through) {
        /* Whole pixels, then sixteenths. */
        float xi = (float)below(g, t->w + 96), xf = (float)below(g, 16);
        v->x = xi - 48 + xf / 16;
        float yi = (float)below(g, t->h + 96), yf = (float)below(g, 16);
        v->y = yi - 48 + yf / 16;
        v->z = (float)below(g, 65536);
        v->u = frand(g, -0.25f, 2.0f) * (float)tw, v->v = frand(g, -0.25f, 2.0f) * (float)th;
    } else {
        v->x = frand(g, -1.3f, 1.3f), v->y = frand(g, -1.3f, 1.3f), v->z = frand(g, -1.05f, 1.05f);
        v->u = frand(g, -0.5f, 1.5f), v->v = frand(g, -0.5f, 1.5f);
    }
    uint32_t c = (uint32_t)fuzz_rng_next(&g->r);
    for (int k = 0; k < 4; k++) v->rgba[k] = (uint8_t)(c >> (8 * k));
    if (chance(g, 50)) v->rgba[3] = (uint8_t)(64 + below(g, 160)); /* semi-transparent */
}

static int32_t clampi(float f, int32_t lo, int32_t hi) { return f < (float)lo ? lo : f > (float)hi ? hi : (int32_t)f; }

/* Writes vertex v at p in the layout of vtype. */
static void encode_vert(uint8_t *p, const struct vert *v, uint32_t vtype, const struct gt_vlayout *lay)
{
    unsigned tc = vtype & 3, col = vtype >> 2 & 7, pos = vtype >> 7 & 3;
    bool through = vtype >> 23 & 1;
    uint8_t *q = p + lay->off_tc;
    if (tc == 1) q[0] = (uint8_t)clampi(v->u * 128, 0, 255), q[1] = (uint8_t)clampi(v->v * 128, 0, 255);
    if (tc == 2) {
        float s = through ? 1 : 32768;
        put16(q, (uint32_t)clampi(v->u * s, 0, 65535)), put16(q + 2, (uint32_t)clampi(v->v * s, 0, 65535));
    }
    if (tc == 3) putf(q, v->u), putf(q + 4, v->v);
    const uint8_t *c = v->rgba;
    q = p + lay->off_col;
    switch (col) {
    case 4: put16(q, c[0] >> 3 | (c[1] >> 2) << 5 | (uint32_t)(c[2] >> 3) << 11); break;
    case 5: put16(q, c[0] >> 3 | (c[1] >> 3) << 5 | (uint32_t)(c[2] >> 3) << 10 | (uint32_t)(c[3] >> 7) << 15); break;
    case 6: put16(q, c[0] >> 4 | (c[1] >> 4) << 4 | (uint32_t)(c[2] >> 4) << 8 | (uint32_t)(c[3] >> 4) << 12); break;
    case 7: memcpy(q, c, 4); break;
    default: break;
    }
    q = p + lay->off_pos;
    float xyz[3] = {v->x, v->y, v->z};
    for (int k = 0; k < 3; k++) {
        if (pos == 1) q[k] = (uint8_t)(int8_t)clampi(xyz[k] * 127, -128, 127);
        if (pos == 2) {
            int32_t s = through ? (k == 2 ? clampi(xyz[k], 0, 65535) : clampi(xyz[k], -32768, 32767))
                                : clampi(xyz[k] * 32767, -32768, 32767);
            put16(q + 2 * k, (uint32_t)s);
        }
        if (pos == 3) putf(q + 4 * k, xyz[k]);
    }
}

/* One PRIM with its VERTICES (and INDICES) record; textured draws get
 * texture coordinates for a (1 << wlog) x (1 << hlog) texture. */
static void prim(struct gen *g, bool textured, unsigned wlog, unsigned hlog, int force_type)
{
    static const uint8_t types[] = {3, 3, 3, 4, 4, 5, 5, 6, 6, 6, 0, 1, 2};
    unsigned type = force_type >= 0 ? (unsigned)force_type : types[below(g, sizeof types)];
    bool through = force_type == 6 ? true : chance(g, 50);
    unsigned pos = through ? (chance(g, 80) ? 2 : 3) : (chance(g, 60) ? 3 : chance(g, 75) ? 2 : 1);
    unsigned col = chance(g, 10) ? 0 : 4 + below(g, 4);
    unsigned tc = textured || chance(g, 10) ? (through ? 2 + below(g, 2) : 1 + below(g, 3)) : 0;
    unsigned count;
    switch (type) {
    case 3: count = 3 * (1 + below(g, 4)); break;
    case 4: case 5: count = 3 + below(g, 8); break;
    case 6: count = 2 * (1 + below(g, 4)); break;
    case 0: count = 1 + below(g, 8); break;
    default: count = 2 + below(g, 6); break;
    }
    if (chance(g, 3)) count = below(g, 4); /* incomplete primitives */
    unsigned idx = chance(g, 10) ? 1 + below(g, 2) : 0;
    uint32_t vtype = tc | col << 2 | pos << 7 | idx << 11 | (uint32_t)through << 23;
    struct gt_vlayout lay;
    vdec_layout(vtype, &lay);
    unsigned nverts = idx ? 2 + below(g, 10) : count;
    if (nverts == 0) nverts = 1;
    uint8_t buf[64 * 40];
    memset(buf, 0, sizeof buf);
    for (unsigned i = 0; i < nverts && (i + 1) * lay.stride <= sizeof buf; i++) {
        struct vert v;
        random_vert(g, &v, through, 1u << wlog, 1u << hlog);
        encode_vert(buf + i * lay.stride, &v, vtype, &lay);
    }
    dumpb_add(&g->c->b, DUMP_VERTICES, buf, nverts * lay.stride, 0);
    if (idx) {
        uint8_t ib[64];
        for (unsigned i = 0; i < count; i++) {
            uint32_t k = below(g, nverts);
            if (idx == 1) ib[i] = (uint8_t)k;
            else put16(ib + 2 * i, k);
        }
        dumpb_add(&g->c->b, DUMP_INDICES, ib, count * idx, 0);
        g->feat |= 1u << F_INDEXED;
    }
    cmd(g, GE_VTYPE, vtype);
    cmd(g, GE_PRIM, type << 16 | count);
    regs_flush(g);
    g->c->draws++;
    g->feat |= 1u << (through ? F_THROUGH : F_TRANSFORM);
    if (type == 6) g->feat |= 1u << F_RECT;
    if (type == 4) g->feat |= 1u << F_STRIP;
    if (type == 5) g->feat |= 1u << F_FAN;
    if (type == 1 || type == 2) g->feat |= 1u << F_LINES;
    if (type == 0) g->feat |= 1u << F_POINTS;
}

/* ---- Steps --------------------------------------------------------------- */

/* Random state, maybe a RAM texture, then a few primitives. */
static void draw_batch(struct gen *g)
{
    random_state(g);
    unsigned wlog = 5, hlog = 5;
    bool textured = chance(g, 40);
    if (textured) ram_texture(g, &wlog, &hlog);
    else cmd(g, GE_TEXTURE_ON, 0);
    for (unsigned n = 1 + below(g, 4); n; n--) prim(g, textured, wlog, hlog, -1);
}

/* A draw textured from VRAM at addr (stride bufw, format fmt). */
static void textured_from(struct gen *g, uint32_t addr, uint32_t bufw, unsigned fmt)
{
    unsigned wlog, hlog;
    random_state(g);
    vram_texture(g, GT_VRAM_BASE | addr, bufw, fmt, &wlog, &hlog);
    for (unsigned n = 1 + below(g, 3); n; n--) prim(g, true, wlog, hlog, -1);
}

/* Draws into a new target, then back in the previous one with what was
 * drawn as the texture. */
static void render_to_texture(struct gen *g)
{
    struct target back = g->cur, t;
    if (g->nold < 4) g->old[g->nold++] = back;
    random_target(g, &t);
    use_target(g, &t);
    for (unsigned n = 1 + below(g, 2); n; n--) draw_batch(g);
    use_target(g, &back);
    textured_from(g, t.fb, t.stride, t.fmt);
    g->feat |= 1u << F_RTT;
}

/* Clear mode: a through-mode rectangle clearing color, stencil and depth
 * as the mode bits say. */
static void clear_draw(struct gen *g)
{
    random_state(g);
    cmd(g, GE_TEXTURE_ON, 0);
    uint32_t color = chance(g, 70) ? 0x100 : 0, stencil = chance(g, 50) ? 0x200 : 0, depth = chance(g, 60) ? 0x400 : 0;
    cmd(g, GE_CLEAR_MODE, 1 | color | stencil | depth);
    prim(g, false, 5, 5, 6);
    cmd(g, GE_CLEAR_MODE, 0);
    g->feat |= 1u << F_CLEAR;
}

/* A block transfer between two places in VRAM (often the framebuffer). */
static void transfer(struct gen *g)
{
    uint32_t src = chance(g, 60) ? g->cur.fb : vram_off(g), dst = chance(g, 40) ? g->cur.fb : vram_off(g);
    cmd(g, GE_TRX_SRC, src & 0xFFFFF0), cmd(g, GE_TRX_SRC_W, 0x04 << 16 | 8 * (1 + below(g, 64)));
    cmd(g, GE_TRX_DST, dst & 0xFFFFF0), cmd(g, GE_TRX_DST_W, 0x04 << 16 | 8 * (1 + below(g, 64)));
    cmd(g, GE_TRX_SRC_POS, two_fields(g, 64, 64, 10));
    cmd(g, GE_TRX_DST_POS, two_fields(g, 64, 64, 10));
    cmd(g, GE_TRX_SIZE, two_fields(g, 128, 64, 10));
    cmd(g, GE_TRX_KICK, below(g, 2));
    regs_flush(g);
    g->feat |= 1u << F_TRANSFER;
}

/* Deliberately odd addresses the renderer must survive: vertices in
 * unmapped memory or in the framebuffer, a texture in unmapped memory or
 * far larger than memory holds, an empty scissor. */
static void bad_addresses(struct gen *g)
{
    random_state(g);
    switch (below(g, 4)) {
    case 0: /* vertices from unmapped memory (BASE 0, address 0x100) */
        cmd(g, GE_TEXTURE_ON, 0);
        cmd(g, GE_BASE, 0), cmd(g, GE_VADDR, 0x100);
        cmd(g, GE_VTYPE, 7 << 2 | 2 << 7 | (uint32_t)below(g, 2) << 23), cmd(g, GE_PRIM, 3 << 16 | 6);
        regs_flush(g);
        break;
    case 1: /* vertices read from the framebuffer itself */
        cmd(g, GE_TEXTURE_ON, 0);
        cmd(g, GE_BASE, 0x04 << 16), cmd(g, GE_VADDR, g->cur.fb);
        cmd(g, GE_VTYPE, 7 << 2 | 2 << 7 | 1u << 23), cmd(g, GE_PRIM, (3u + below(g, 4)) << 16 | 8);
        regs_flush(g);
        break;
    case 2: { /* a texture in unmapped memory, or 32768 texels wide */
        unsigned wlog, hlog;
        if (chance(g, 50)) {
            vram_texture(g, 0x00001000, 64, below(g, 4), &wlog, &hlog);
        } else {
            uint32_t addr = GT_VRAM_BASE | vram_off(g);
            unsigned fmt = below(g, 4);
            vram_texture(g, addr, 64, fmt, &wlog, &hlog);
            cmd(g, GE_TEX_SIZE0, 15 | 15 << 8);
            wlog = hlog = 6;
        }
        prim(g, true, wlog, hlog, -1);
        break;
    }
    default: /* an empty scissor (x0 > x1) */
        cmd(g, GE_TEXTURE_ON, 0);
        cmd(g, GE_SCISSOR1, 300 | 10 << 10), cmd(g, GE_SCISSOR2, 20 | 200 << 10);
        prim(g, false, 5, 5, -1);
        use_target(g, &g->cur);
        break;
    }
    g->feat |= 1u << F_BADADDR;
}

/* Matrices: world and view identity, projection identity with w depending
 * on z (sometimes crossing zero, so the near clipper works). */
static void matrices(struct gen *g)
{
    static const float id43[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    cmd(g, GE_WORLD_NUM, 0);
    for (int i = 0; i < 12; i++) cmdf(g, GE_WORLD_DATA, id43[i]);
    cmd(g, GE_VIEW_NUM, 0);
    for (int i = 0; i < 12; i++) cmdf(g, GE_VIEW_DATA, id43[i]);
    float p[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    p[11] = frand(g, -0.4f, 0.4f);
    if (chance(g, 15)) p[15] = frand(g, 0.1f, 0.5f), p[11] = frand(g, -1, 1);
    cmd(g, GE_PROJ_NUM, 0);
    for (int i = 0; i < 16; i++) cmdf(g, GE_PROJ_DATA, p[i]);
}

static void describe(struct gen *g)
{
    size_t n = 0;
    g->c->desc[0] = 0;
    for (int f = 0; f < F_COUNT; f++) {
        if (!(g->feat >> f & 1)) continue;
        int k = snprintf(g->c->desc + n, sizeof g->c->desc - n, "%s%s", n ? " " : "", feature_names[f]);
        if (k < 0 || (size_t)k >= sizeof g->c->desc - n) break;
        n += (size_t)k;
    }
}

int fuzz_case_make(struct fuzz_case *c, uint64_t seed, uint64_t index)
{
    struct gen *g = calloc(1, sizeof *g);
    memset(c, 0, sizeof *c);
    if (!g) return GT_ENOMEM;
    c->seed = seed, c->index = index;
    dumpb_init(&c->b, 6);
    g->c = c;
    dl_init(&g->l);
    /* Case k's stream depends only on (seed, k). */
    uint64_t s = seed;
    uint64_t k = splitmix64(&s) ^ index * 0xD1B54A32D192ED03ull;
    fuzz_rng_seed(&g->r, k);

    const uint32_t init[] = {
        (uint32_t)GE_REGION2 << 24 | 1023 | 1023 << 10, (uint32_t)GE_MAX_Z << 24 | 0xFFFF,
        (uint32_t)GE_TEXSCALE_U << 24 | dl_float24(1), (uint32_t)(GE_TEXSCALE_U + 1) << 24 | dl_float24(1),
        (uint32_t)GE_SHADEMODE << 24 | 1, (uint32_t)GE_DITHER0 << 24 | 0x1C0E,
        (uint32_t)(GE_DITHER0 + 1) << 24 | 0x3F1B, (uint32_t)(GE_DITHER0 + 2) << 24 | 0x90F2,
        (uint32_t)(GE_DITHER0 + 3) << 24 | 0x4E7A,
    };
    dumpb_init_record(&c->b, init, sizeof init / sizeof init[0]);
    /* Recorded VRAM: a background byte everywhere and noise in places. */
    dumpb_memset(&c->b, GT_VRAM_BASE, (uint8_t)below(g, 256), GT_VRAM_SIZE);
    for (unsigned n = below(g, 4); n; n--) {
        uint32_t len = 1024 * (1 + below(g, 32));
        random_bytes(g, g->scratch, len);
        dumpb_memcpy(&c->b, GT_VRAM_BASE | vram_off(g), g->scratch, len);
    }
    struct target t;
    random_target(g, &t);
    matrices(g);
    use_target(g, &t);
    for (unsigned steps = 2 + below(g, 10); steps; steps--) {
        unsigned pick = below(g, 100);
        if (pick < 12) {
            random_target(g, &t);
            if (g->nold < 4) g->old[g->nold++] = g->cur;
            use_target(g, &t);
        } else if (pick < 22) {
            render_to_texture(g);
        } else if (pick < 30) {
            /* Self-texturing: a texture inside the current color buffer. */
            uint32_t bpp = g->cur.fmt == 3 ? 4 : 2, off = below(g, g->cur.stride * 64 * bpp / 16) * 16;
            textured_from(g, (g->cur.fb + off) & (GT_VRAM_SIZE - 16), g->cur.stride, g->cur.fmt);
            g->feat |= 1u << F_SELFTEX;
        } else if (pick < 38) {
            clear_draw(g);
        } else if (pick < 43) {
            transfer(g);
        } else if (pick < 47) {
            bad_addresses(g);
        } else if (pick < 52 && g->nold) {
            /* Back to an earlier target, texturing from the current one. */
            struct target was = g->cur;
            use_target(g, &g->old[below(g, g->nold)]);
            textured_from(g, was.fb, was.stride, was.fmt);
            g->feat |= 1u << F_RTT;
        } else {
            draw_batch(g);
        }
    }
    regs_flush(g);
    dumpb_display(&c->b, GT_VRAM_BASE | g->cur.fb, g->cur.stride, g->cur.fmt);
    describe(g);
    int err = g->l.err ? g->l.err : c->b.err;
    dl_free(&g->l);
    free(g);
    if (err) {
        fuzz_case_free(c);
        return err;
    }
    return GT_OK;
}

void fuzz_case_free(struct fuzz_case *c) { dumpb_free(&c->b); }
