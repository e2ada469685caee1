/* The libgu of the ported tests: see gu.h. Each function emits what the
 * libgu call of the same name emits (pspdev/pspsdk src/gu/sceGu*.c), in the
 * same order; the state kept here is libgu's own (guInternal.h). */
#include "psp/gu.h"

#include <math.h>
#include <string.h>

#include "ge_cmd.h"

/* libgu's sendCommandi: one word at the list's current position. */
static void cmd(struct gu *g, unsigned c, uint32_t arg)
{
    if (!g->list_start) {
        psp_fail(g->p, "a GE command (0x%02X) with no list open", c);
        return;
    }
    psp_write32(g->p, g->list_cur, (uint32_t)c << 24 | (arg & 0xFFFFFF));
    g->list_cur += 4;
}

/* sendCommandf: the float's top 24 bits. */
static void cmdf(struct gu *g, unsigned c, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    cmd(g, c, u >> 8);
}

void gu_send_commandi(struct gu *g, int c, uint32_t arg) { cmd(g, (unsigned)c & 0xFF, arg); }
void gu_send_commandf(struct gu *g, int c, float arg) { cmdf(g, (unsigned)c & 0xFF, arg); }

/* Runs a list from its first word to its END (the GE of a direct list). */
static void run(struct gu *g, uint32_t start)
{
    struct gt_diag d = {0};
    if (gt_render_list(&g->p->r, start, &d) < 0) psp_fail(g->p, "the GE stopped on the list at %08x: %s", start, d.msg);
}

void gu_init(struct gu *g, struct psp *p)
{
    memset(g, 0, sizeof *g);
    g->p = p;
    /* sceGuResetGlobalVariables */
    g->psm = GU_PSM_5551;
    g->frame_width = 512;
    g->width = 480;
    g->height = 272;
    g->far_plane = 1;
    g->clear_depth = 0xFFFF;
    /* The start-up list: every register of the table 0 but TBW0 and TSIZE0. */
    static const uint8_t regs[] = {
        0x00, 0x01, 0x02, 0x10, 0x12, 0x13, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E,
        0x1F, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x2A, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F,
        0x30, 0x31, 0x32, 0x33, 0x36, 0x37, 0x38, 0x3A, 0x3B, 0x3C, 0x3D, 0x3E, 0x3F, 0x40, 0x41, 0x42,
        0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4A, 0x4B, 0x4C, 0x4D, 0x50, 0x51, 0x53, 0x54, 0x55,
        0x56, 0x57, 0x58, 0x5B, 0x5C, 0x5D, 0x5E, 0x5F, 0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67,
        0x68, 0x69, 0x6A, 0x6B, 0x6C, 0x6D, 0x6E, 0x6F, 0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77,
        0x78, 0x79, 0x7A, 0x7B, 0x7C, 0x7D, 0x7E, 0x7F, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
        0x88, 0x89, 0x8A, 0x8B, 0x8C, 0x8D, 0x8E, 0x8F, 0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97,
        0x98, 0x99, 0x9A, 0x9B, 0x9C, 0x9D, 0x9E, 0x9F, 0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7,
        0xA8, 0xA9, 0xAA, 0xAB, 0xAC, 0xAD, 0xAE, 0xAF, 0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB8, 0xB9,
        0xBA, 0xBB, 0xBC, 0xBD, 0xBE, 0xBF, 0xC0, 0xC1, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9,
        0xCA, 0xCB, 0xCC, 0xCD, 0xCE, 0xCF, 0xD0, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA,
        0xDB, 0xDC, 0xDD, 0xDE, 0xDF, 0xE0, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEB,
        0xEC, 0xEE,
    };
    uint32_t list = psp_alloc(p, 16, (sizeof regs + 2) * 4);
    if (!list) return;
    g->list_start = g->list_cur = list;
    for (size_t i = 0; i < sizeof regs; i++) {
        uint32_t arg = regs[i] == GE_TEX_BUFW0 ? 0x040004 : regs[i] == GE_TEX_SIZE0 ? 0x000101 : 0;
        /* A zero BASE/VADDR/IADDR/NOP changes nothing, and 0x0C-0x0F are not
         * in the table: the list is state only. */
        cmd(g, regs[i], arg);
    }
    cmd(g, GE_FINISH, 0);
    cmd(g, GE_END, 0);
    run(g, list);
    gt_render_finish(&p->r);
    g->list_start = g->list_cur = 0;
    g->init = 1;
    g->first_start = 1;
}

void gu_term(struct gu *g) { g->init = 0; }

void gu_start(struct gu *g, int ctype, uint32_t list)
{
    if (ctype != GU_DIRECT) {
        psp_fail(g->p, "sceGuStart: only GU_DIRECT lists are modelled (got %d)", ctype);
        return;
    }
    g->curr_context = ctype;
    g->list_start = g->list_cur = list & 0x0FFFFFFFu;
    if (g->first_start) {
        static const int dither[16] = {-4, 0, -3, 1, 2, -2, 3, -1, -3, 1, -4, 0, 3, -1, 2, -2};
        gu_set_dither(g, dither);
        gu_patch_divide(g, 16, 16);
        gu_color_material(g, 7); /* GU_AMBIENT | GU_DIFFUSE | GU_SPECULAR */
        gu_specular(g, 1.0f);
        gu_tex_scale(g, 1.0f, 1.0f);
        g->first_start = 0;
    }
    if (g->frame_width) {
        cmd(g, GE_FB_PTR, g->frame_buffer);
        cmd(g, GE_FB_WIDTH, ((g->frame_buffer & 0xFF000000u) >> 8) | (uint32_t)g->frame_width);
    }
}

int gu_finish(struct gu *g)
{
    cmd(g, GE_FINISH, 0);
    cmd(g, GE_END, 0);
    uint32_t start = g->list_start;
    int size = (int)(g->list_cur - start);
    if (start) run(g, start);
    /* libgu keeps writing at the list's current position after it is
     * finished (a command sent between sceGuFinish and the next sceGuStart
     * lands past the END, where the GE never reads). */
    return size;
}

void gu_sync(struct gu *g) { gt_render_finish(&g->p->r); }

uint32_t gu_get_memory(struct gu *g, int size)
{
    size = (size + 3) & ~3;
    uint32_t orig = g->list_cur, next = orig + (uint32_t)size + 8;
    cmd(g, GE_BASE, (next >> 8) & 0xF0000);
    cmd(g, GE_JUMP, next & 0xFFFFFF);
    g->list_cur = next;
    return orig + 8;
}

void gu_draw_buffer(struct gu *g, int psm, uint32_t fbp, int frame_width)
{
    g->psm = psm;
    g->frame_width = frame_width;
    g->frame_buffer = fbp;
    if (!g->depth_buffer && g->height) g->depth_buffer = fbp + (uint32_t)(g->height * frame_width * 4);
    if (!g->depth_width) g->depth_width = frame_width;
    cmd(g, GE_FB_FORMAT, (uint32_t)psm);
    cmd(g, GE_FB_PTR, g->frame_buffer);
    cmd(g, GE_FB_WIDTH, ((g->frame_buffer & 0xFF000000u) >> 8) | (uint32_t)g->frame_width);
    cmd(g, GE_Z_PTR, g->depth_buffer);
    cmd(g, GE_Z_WIDTH, ((g->depth_buffer & 0xFF000000u) >> 8) | (uint32_t)g->depth_width);
}

void gu_disp_buffer(struct gu *g, int width, int height, uint32_t dispbp, int dispbw)
{
    g->width = width;
    g->height = height;
    g->disp_buffer = dispbp;
    if (!g->frame_width || g->frame_width != dispbw) g->frame_width = dispbw;
}

void gu_depth_buffer(struct gu *g, uint32_t zbp, int zbw)
{
    cmd(g, GE_Z_PTR, zbp);
    cmd(g, GE_Z_WIDTH, ((zbp & 0xFF000000u) >> 8) | (uint32_t)zbw);
    g->depth_buffer = zbp;
    if (!g->depth_width || g->depth_width != zbw) g->depth_width = zbw;
}

void gu_offset(struct gu *g, unsigned x, unsigned y)
{
    cmd(g, GE_OFFSET_X, x << 4);
    cmd(g, GE_OFFSET_Y, y << 4);
}

void gu_viewport(struct gu *g, int cx, int cy, int width, int height)
{
    cmdf(g, GE_VIEWPORT_SX, (float)width * 0.5f);
    cmdf(g, GE_VIEWPORT_SX + 1, (float)height * -0.5f);
    cmdf(g, GE_VIEWPORT_SX + 3, (float)cx);
    cmdf(g, GE_VIEWPORT_SX + 4, (float)cy);
}

void gu_depth_range(struct gu *g, int near, int far)
{
    unsigned max = (unsigned)near + (unsigned)far;
    int val = (int)((max >> 31) + max);
    float z = (float)(val >> 1);
    g->near_plane = near;
    g->far_plane = far;
    cmdf(g, GE_VIEWPORT_SX + 2, z - (float)near);
    cmdf(g, GE_VIEWPORT_SX + 5, z + (float)g->depth_offset);
    if (near > far) {
        int t = near;
        near = far;
        far = t;
    }
    cmd(g, GE_MIN_Z, (uint32_t)near);
    cmd(g, GE_MAX_Z, (uint32_t)far);
}

void gu_depth_mask(struct gu *g, int mask) { cmd(g, GE_Z_WRITE_DISABLE, (uint32_t)mask); }

static void scissor_words(struct gu *g)
{
    uint32_t orig = (uint32_t)(g->scissor_start[1] << 10 | g->scissor_start[0]);
    uint32_t end = (uint32_t)(g->scissor_end[1] << 10 | g->scissor_end[0]);
    cmd(g, GE_SCISSOR1, orig);
    cmd(g, GE_SCISSOR2, end);
    cmd(g, GE_REGION1, 0);
    cmd(g, GE_REGION2, end);
}

void gu_scissor(struct gu *g, int x, int y, int w, int h)
{
    g->scissor_start[0] = x;
    g->scissor_start[1] = y;
    g->scissor_end[0] = x + w - 1;
    g->scissor_end[1] = y + h - 1;
    if (g->scissor_enable) scissor_words(g);
}

/* The enable register of each state below GU_SCISSOR_TEST's special case
 * (sceGuEnable.c / sceGuDisable.c). */
static int state_reg(int state)
{
    switch (state) {
    case GU_ALPHA_TEST: return GE_ALPHATEST_ON;
    case GU_DEPTH_TEST: return GE_ZTEST_ON;
    case GU_STENCIL_TEST: return GE_STENCILTEST_ON;
    case GU_BLEND: return GE_BLEND_ON;
    case GU_CULL_FACE: return GE_CULL_ON;
    case GU_DITHER: return GE_DITHER_ON;
    case GU_FOG: return GE_FOG_ON;
    case GU_CLIP_PLANES: return GE_DEPTHCLIP_ON;
    case GU_TEXTURE_2D: return GE_TEXTURE_ON;
    case GU_LIGHTING: return GE_LIGHTING_ON;
    case GU_LIGHT0: case GU_LIGHT1: case GU_LIGHT2: case GU_LIGHT3: return GE_LIGHT0_ON + (state - GU_LIGHT0);
    case GU_LINE_SMOOTH: return GE_ANTIALIAS_ON;
    case GU_PATCH_CULL_FACE: return GE_PATCHCULL_ON;
    case GU_COLOR_TEST: return GE_COLORTEST_ON;
    case GU_COLOR_LOGIC_OP: return GE_LOGICOP_ON;
    case GU_FACE_NORMAL_REVERSE: return GE_REVERSE_NORMAL;
    case GU_PATCH_FACE: return GE_PATCH_FACING;
    default: return -1;
    }
}

void gu_enable(struct gu *g, int state)
{
    if (state == GU_SCISSOR_TEST) {
        g->scissor_enable = 1;
        scissor_words(g);
    } else if (state == GU_FRAGMENT_2X) {
        g->fragment_2x = 0x10000;
        cmd(g, GE_TEX_FUNC, 0x10000u | (uint32_t)g->texture_function);
    } else if (state_reg(state) >= 0) {
        cmd(g, (unsigned)state_reg(state), 1);
    }
}

void gu_disable(struct gu *g, int state)
{
    if (state == GU_SCISSOR_TEST) {
        uint32_t end = (uint32_t)((g->height - 1) << 10 | (g->width - 1));
        g->scissor_enable = 0;
        cmd(g, GE_SCISSOR1, 0);
        cmd(g, GE_SCISSOR2, end);
        cmd(g, GE_REGION1, 0);
        cmd(g, GE_REGION2, end);
    } else if (state == GU_FRAGMENT_2X) {
        g->fragment_2x = 0;
        cmd(g, GE_TEX_FUNC, (uint32_t)g->texture_function);
    } else if (state_reg(state) >= 0) {
        cmd(g, (unsigned)state_reg(state), 0);
    }
}

void gu_front_face(struct gu *g, int order) { cmd(g, GE_CULL, order ? 0 : 1); }
void gu_shade_model(struct gu *g, int mode) { cmd(g, GE_SHADEMODE, (uint32_t)mode); }

void gu_set_matrix(struct gu *g, int type, const float m[16])
{
    if (type == GU_PROJECTION) {
        cmdf(g, GE_PROJ_NUM, 0);
        for (int i = 0; i < 16; i++) cmdf(g, GE_PROJ_DATA, m[i]);
        return;
    }
    unsigned num = type == GU_VIEW ? GE_VIEW_NUM : type == GU_MODEL ? GE_WORLD_NUM : GE_TGEN_NUM;
    if (type != GU_VIEW && type != GU_MODEL && type != GU_TEXTURE) return;
    cmdf(g, num, 0);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++) cmdf(g, num + 1, m[j + i * 4]);
}

void gu_set_dither(struct gu *g, const int m[16])
{
    for (int r = 0; r < 4; r++)
        cmd(g, GE_DITHER0 + (unsigned)r,
            (uint32_t)((m[4 * r] & 15) | (m[4 * r + 1] & 15) << 4 | (m[4 * r + 2] & 15) << 8 | (m[4 * r + 3] & 15) << 12));
}

void gu_patch_divide(struct gu *g, unsigned ulevel, unsigned vlevel) { cmd(g, GE_PATCH_DIV, vlevel << 8 | ulevel); }
void gu_color_material(struct gu *g, int components) { cmd(g, GE_MATERIAL_UPDATE, (uint32_t)components); }
void gu_specular(struct gu *g, float power) { cmdf(g, 0x5B, power); }

void gu_tex_scale(struct gu *g, float u, float v)
{
    cmdf(g, GE_TEXSCALE_U, u);
    cmdf(g, GE_TEXSCALE_U + 1, v);
}

void gu_tex_offset(struct gu *g, float u, float v)
{
    cmdf(g, GE_TEXSCALE_U + 2, u);
    cmdf(g, GE_TEXSCALE_U + 3, v);
}

void gu_tex_flush(struct gu *g) { cmd(g, GE_TEX_FLUSH, 0); }
void gu_tex_sync(struct gu *g) { cmd(g, GE_TEX_SYNC, 0); }

void gu_tex_mode(struct gu *g, int tpsm, int maxmips, int mc, int swizzle)
{
    cmd(g, GE_TEX_MODE, (uint32_t)(maxmips << 16 | mc << 8 | swizzle));
    cmd(g, GE_TEX_FORMAT, (uint32_t)tpsm);
    gu_tex_flush(g);
}

/* libgu's getExp: the index of the highest set bit of val & 0x3FF. */
static unsigned tex_exp(int val)
{
    unsigned v = (unsigned)val & 0x3FF, e = 0;
    while (v >>= 1) e++;
    return e;
}

void gu_tex_image(struct gu *g, int mipmap, int width, int height, int tbw, uint32_t tbp)
{
    cmd(g, GE_TEX_ADDR0 + (unsigned)mipmap, tbp);
    cmd(g, GE_TEX_BUFW0 + (unsigned)mipmap, ((tbp >> 8) & 0x0F0000) | (uint32_t)tbw);
    cmd(g, GE_TEX_SIZE0 + (unsigned)mipmap, tex_exp(height) << 8 | tex_exp(width));
    gu_tex_flush(g);
}

void gu_tex_func(struct gu *g, int tfx, int tcc)
{
    g->texture_function = tfx | tcc << 8;
    cmd(g, GE_TEX_FUNC, (uint32_t)(g->texture_function | g->fragment_2x));
}

void gu_tex_env_color(struct gu *g, uint32_t color) { cmd(g, GE_TEX_ENV, color); }
void gu_tex_filter(struct gu *g, int min, int mag) { cmd(g, GE_TEX_FILTER, (uint32_t)(min | mag << 8)); }
void gu_tex_wrap(struct gu *g, int u, int v) { cmd(g, GE_TEX_WRAP, (uint32_t)(u | v << 8)); }
void gu_tex_slope(struct gu *g, float slope) { cmdf(g, GE_TEX_LOD_SLOPE, slope); }

void gu_color(struct gu *g, uint32_t color)
{
    /* sceGuMaterial(GU_AMBIENT | GU_DIFFUSE | GU_SPECULAR, color) */
    cmd(g, 0x55, color);
    cmd(g, 0x58, color >> 24);
    cmd(g, 0x56, color);
    cmd(g, 0x57, color);
}

void gu_blend_func(struct gu *g, int op, int src, int dest, uint32_t srcfix, uint32_t destfix)
{
    cmd(g, GE_BLEND_MODE, (uint32_t)(src | dest << 4 | op << 8));
    cmd(g, GE_BLEND_FIXA, srcfix);
    cmd(g, GE_BLEND_FIXB, destfix);
}

void gu_clear_color(struct gu *g, uint32_t color) { g->clear_color = color; }
void gu_clear_depth(struct gu *g, unsigned depth) { g->clear_depth = depth; }
void gu_clear_stencil(struct gu *g, unsigned stencil) { g->clear_stencil = stencil; }

void gu_clear(struct gu *g, int flags)
{
    uint32_t filter;
    switch (g->psm) {
    case GU_PSM_5650: filter = g->clear_color & 0xFFFFFF; break;
    case GU_PSM_5551: filter = (g->clear_color & 0xFFFFFF) | g->clear_stencil << 31; break;
    case GU_PSM_4444: filter = (g->clear_color & 0xFFFFFF) | g->clear_stencil << 28; break;
    case GU_PSM_8888: filter = (g->clear_color & 0xFFFFFF) | g->clear_stencil << 24; break;
    default: filter = 0; break;
    }
    /* Vertices {u32 color; u16 x, y, z, pad} in the list (sceGuGetMemory). */
    int count, block = 0;
    if (!(flags & GU_FAST_CLEAR_BIT)) {
        count = 2;
    } else {
        block = g->psm == GU_PSM_8888 ? 32 : 64;
        count = (g->width + block - 1) / block * 2;
    }
    uint32_t v = gu_get_memory(g, count * 12);
    for (int i = 0; i < count; i++) {
        unsigned x, y;
        if (!block) {
            x = i ? (unsigned)g->width : 0;
            y = i ? (unsigned)g->height : 0;
        } else {
            unsigned j = (unsigned)i >> 1, k = (unsigned)i & 1;
            x = (j + k) * (unsigned)block;
            y = k * (unsigned)g->height;
        }
        uint8_t b[12] = {(uint8_t)filter, (uint8_t)(filter >> 8), (uint8_t)(filter >> 16), (uint8_t)(filter >> 24),
                         (uint8_t)x, (uint8_t)(x >> 8), (uint8_t)y, (uint8_t)(y >> 8),
                         (uint8_t)g->clear_depth, (uint8_t)(g->clear_depth >> 8), 0, 0};
        psp_write(g->p, v + (uint32_t)i * 12, b, 12);
    }
    cmd(g, GE_CLEAR_MODE, (uint32_t)(flags & 7) << 8 | 1);
    gu_draw_array(g, GU_SPRITES, GU_COLOR_8888 | GU_VERTEX_16BIT | GU_TRANSFORM_2D, count, 0, v);
    cmd(g, GE_CLEAR_MODE, 0);
}

void gu_draw_array(struct gu *g, int prim, uint32_t vtype, int count, uint32_t indices, uint32_t vertices)
{
    if (vtype) cmd(g, GE_VTYPE, vtype);
    if (indices) {
        cmd(g, GE_BASE, (indices >> 8) & 0xF0000);
        cmd(g, GE_IADDR, indices);
    }
    if (vertices) {
        cmd(g, GE_BASE, (vertices >> 8) & 0xF0000);
        cmd(g, GE_VADDR, vertices);
    }
    cmd(g, GE_PRIM, (uint32_t)prim << 16 | (uint32_t)count);
}

void gu_stencil_func(struct gu *g, int func, int ref, int mask)
{
    cmd(g, GE_STENCIL_TEST, (uint32_t)(func | (ref & 0xFF) << 8 | (mask & 0xFF) << 16));
}

void gu_stencil_op(struct gu *g, int fail, int zfail, int zpass)
{
    cmd(g, GE_STENCIL_OP, (uint32_t)(fail | zfail << 8 | zpass << 16));
}

void gu_depth_func(struct gu *g, int function) { cmd(g, GE_Z_TEST, (uint32_t)function); }

void gu_alpha_func(struct gu *g, int func, int value, int mask)
{
    cmd(g, GE_ALPHA_TEST, (uint32_t)(func | (value & 0xFF) << 8 | (mask & 0xFF) << 16));
}

void gu_color_func(struct gu *g, int func, uint32_t color, uint32_t mask)
{
    cmd(g, GE_COLOR_TEST, (uint32_t)func & 3);
    cmd(g, GE_COLOR_REF, color);
    cmd(g, GE_COLOR_TEST_MASK, mask);
}

void gu_logical_op(struct gu *g, int op) { cmd(g, GE_LOGIC_OP, (uint32_t)op & 15); }

void gu_pixel_mask(struct gu *g, uint32_t mask)
{
    cmd(g, GE_MASK_RGB, mask);
    cmd(g, GE_MASK_ALPHA, mask >> 24);
}

void gu_clut_mode(struct gu *g, unsigned cpsm, unsigned shift, unsigned mask, unsigned csa)
{
    cmd(g, GE_CLUT_FORMAT, cpsm | shift << 2 | mask << 8 | csa << 16);
}

void gu_clut_load(struct gu *g, int num_blocks, uint32_t cbp)
{
    cmd(g, GE_CLUT_ADDR, cbp);
    cmd(g, GE_CLUT_ADDR_UPPER, (cbp >> 8) & 0xF0000);
    cmd(g, GE_LOAD_CLUT, (uint32_t)num_blocks);
}

void gu_fog(struct gu *g, float near, float far, uint32_t color)
{
    float distance = far - near;
    if (distance != 0.0f) distance = 1.0f / distance;
    cmd(g, GE_FOG_COLOR, color);
    cmdf(g, GE_FOG1, far);
    cmdf(g, GE_FOG2, distance);
}

/* Lighting registers (guInternal.h GECommand). */
enum {
    MATERIAL_EMISSIVE = 0x54, AMBIENT_COLOR = 0x55, MATERIAL_DIFFUSE = 0x56, MATERIAL_SPECULAR = 0x57,
    AMBIENT_ALPHA = 0x58, AMBIENT_LIGHT_COLOR = 0x5C, AMBIENT_LIGHT_ALPHA = 0x5D, LIGHT0_X = 0x63,
    LIGHT0_DIRECTION_X = 0x6F, LIGHT0_CONSTANT_ATTEN = 0x7B, LIGHT0_EXPONENT_ATTEN = 0x87,
    LIGHT0_CUTOFF_ATTEN = 0x8B, LIGHT0_AMBIENT = 0x8F,
};

void gu_ambient(struct gu *g, uint32_t color)
{
    cmd(g, AMBIENT_LIGHT_COLOR, color);
    cmd(g, AMBIENT_LIGHT_ALPHA, color >> 24);
}

void gu_ambient_color(struct gu *g, uint32_t color)
{
    cmd(g, AMBIENT_COLOR, color);
    cmd(g, AMBIENT_ALPHA, color >> 24);
}

void gu_model_color(struct gu *g, uint32_t emissive, uint32_t ambient, uint32_t diffuse, uint32_t specular)
{
    cmd(g, MATERIAL_EMISSIVE, emissive);
    cmd(g, MATERIAL_DIFFUSE, diffuse);
    cmd(g, AMBIENT_COLOR, ambient);
    cmd(g, MATERIAL_SPECULAR, specular);
}

void gu_material(struct gu *g, int mode, uint32_t color)
{
    if (mode & GU_AMBIENT) {
        cmd(g, AMBIENT_COLOR, color);
        cmd(g, AMBIENT_ALPHA, color >> 24);
    }
    if (mode & GU_DIFFUSE) cmd(g, MATERIAL_DIFFUSE, color);
    if (mode & GU_SPECULAR) cmd(g, MATERIAL_SPECULAR, color);
}

void gu_light(struct gu *g, int light, int type, int components, const float pos[3])
{
    unsigned off = (unsigned)light * 3;
    int ltype = components == GU_POWERED_DIFFUSE ? 2 : components == GU_DIFFUSE_AND_SPECULAR ? 1 : 0;
    cmdf(g, LIGHT0_X + off, pos[0]);
    cmdf(g, LIGHT0_X + off + 1, pos[1]);
    cmdf(g, LIGHT0_X + off + 2, pos[2]);
    cmd(g, GE_LIGHT_TYPE0 + (unsigned)light, (uint32_t)((type & GU_AMBIENT_AND_DIFFUSE) << 8 | ltype));
}

void gu_light_color(struct gu *g, int light, int component, uint32_t color)
{
    unsigned off = (unsigned)light * 3;
    if (component == GU_AMBIENT || component == GU_AMBIENT_AND_DIFFUSE) cmd(g, LIGHT0_AMBIENT + off, color);
    if (component == GU_DIFFUSE || component == GU_AMBIENT_AND_DIFFUSE || component == GU_DIFFUSE_AND_SPECULAR)
        cmd(g, LIGHT0_AMBIENT + off + 1, color);
    if (component == GU_SPECULAR || component == GU_DIFFUSE_AND_SPECULAR) cmd(g, LIGHT0_AMBIENT + off + 2, color);
}

void gu_light_att(struct gu *g, int light, float atten0, float atten1, float atten2)
{
    unsigned off = (unsigned)light * 3;
    cmdf(g, LIGHT0_CONSTANT_ATTEN + off, atten0);
    cmdf(g, LIGHT0_CONSTANT_ATTEN + off + 1, atten1);
    cmdf(g, LIGHT0_CONSTANT_ATTEN + off + 2, atten2);
}

void gu_light_mode(struct gu *g, int mode) { cmd(g, GE_LIGHT_MODE, (uint32_t)mode); }

void gu_light_spot(struct gu *g, int light, const float dir[3], float exponent, float cutoff)
{
    unsigned off = (unsigned)light * 3;
    cmdf(g, LIGHT0_EXPONENT_ATTEN + (unsigned)light, exponent);
    cmdf(g, LIGHT0_CUTOFF_ATTEN + (unsigned)light, cutoff);
    cmdf(g, LIGHT0_DIRECTION_X + off, dir[0]);
    cmdf(g, LIGHT0_DIRECTION_X + off + 1, dir[1]);
    cmdf(g, LIGHT0_DIRECTION_X + off + 2, dir[2]);
}

void gu_copy_image(struct gu *g, int psm, int sx, int sy, int width, int height, int srcw, uint32_t src, int dx, int dy,
                   int destw, uint32_t dest)
{
    cmd(g, GE_TRX_SRC, src);
    cmd(g, GE_TRX_SRC_W, ((src & 0xFF000000u) >> 8) | (uint32_t)srcw);
    cmd(g, GE_TRX_SRC_POS, (uint32_t)(sy << 10 | sx));
    cmd(g, GE_TRX_DST, dest);
    cmd(g, GE_TRX_DST_W, ((dest & 0xFF000000u) >> 8) | (uint32_t)destw);
    cmd(g, GE_TRX_DST_POS, (uint32_t)(dy << 10 | dx));
    cmd(g, GE_TRX_SIZE, (uint32_t)((height - 1) << 10 | (width - 1)));
    cmd(g, GE_TRX_KICK, (psm ^ 3) ? 0 : 1);
}

void gu_tex_level_mode(struct gu *g, unsigned mode, float bias)
{
    int offset = (int)truncf(bias * 16.0f);
    if (offset >= 128) offset = 128;
    else if (offset < -128) offset = -128;
    cmd(g, GE_TEX_LEVEL, (uint32_t)offset << 16 | mode);
}

void gu_tex_map_mode(struct gu *g, int mode, unsigned lu, unsigned lv)
{
    g->texture_map_mode = mode & 3;
    cmd(g, GE_TEX_MAPMODE, (uint32_t)(g->texture_proj_map_mode | (mode & 3)));
    cmd(g, GE_TEX_SHADE, lu << 8 | (lv & 3));
}

void gu_tex_proj_map_mode(struct gu *g, int mode)
{
    g->texture_proj_map_mode = (mode & 3) << 8;
    cmd(g, GE_TEX_MAPMODE, (uint32_t)((mode & 3) << 8 | g->texture_map_mode));
}

void gu_morph_weight(struct gu *g, int index, float weight) { cmdf(g, GE_MORPH0 + (unsigned)index, weight); }

void gu_depth_offset(struct gu *g, unsigned offset)
{
    g->depth_offset = (int)offset;
    gu_depth_range(g, g->near_plane, g->far_plane);
}
