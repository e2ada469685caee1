/* A libgu for the ported tests (issue 22): for each sceGu* call the
 * pspautotests GPU programs make, gu_* emits the GE words pspsdk's libgu
 * emits (pspdev/pspsdk src/gu/, one file per call), into a display list in
 * the PSP's RAM, with libgu's own bookkeeping (the draw buffer, the
 * scissor, the clear values, the first-start defaults). The GE runs a
 * direct list when it is finished (libgu enqueues it at sceGuStart with the
 * stall address at its start and moves the stall to its end at
 * sceGuFinish); gu_sync waits for all drawing (sceGeDrawSync).
 *
 * Addresses are PSP addresses: RAM 0x08000000 on, VRAM from PSP_EDRAM. */
#ifndef GETILE_GU_H
#define GETILE_GU_H

#include <stdint.h>

#include "psp/psp.h"

/* pspgu.h constants the ports use. */
enum {
    GU_POINTS = 0, GU_LINES = 1, GU_LINE_STRIP = 2, GU_TRIANGLES = 3, GU_TRIANGLE_STRIP = 4,
    GU_TRIANGLE_FAN = 5, GU_SPRITES = 6,
    GU_CONTINUE = 7, /* the programs' own name for primitive type 7 */
    GU_ALPHA_TEST = 0, GU_DEPTH_TEST, GU_SCISSOR_TEST, GU_STENCIL_TEST, GU_BLEND, GU_CULL_FACE,
    GU_DITHER, GU_FOG, GU_CLIP_PLANES, GU_TEXTURE_2D, GU_LIGHTING, GU_LIGHT0, GU_LIGHT1, GU_LIGHT2,
    GU_LIGHT3, GU_LINE_SMOOTH, GU_PATCH_CULL_FACE, GU_COLOR_TEST, GU_COLOR_LOGIC_OP,
    GU_FACE_NORMAL_REVERSE, GU_PATCH_FACE, GU_FRAGMENT_2X, GU_MAX_STATUS,
    GU_PROJECTION = 0, GU_VIEW = 1, GU_MODEL = 2, GU_TEXTURE = 3,
    GU_PSM_5650 = 0, GU_PSM_5551 = 1, GU_PSM_4444 = 2, GU_PSM_8888 = 3, GU_PSM_T4 = 4, GU_PSM_T8 = 5,
    GU_PSM_DXT1 = 8, GU_PSM_DXT3 = 9, GU_PSM_DXT5 = 10,
    GU_FLAT = 0, GU_SMOOTH = 1, GU_NEAREST = 0, GU_LINEAR = 1, GU_REPEAT = 0, GU_CLAMP = 1,
    GU_NEAREST_MIPMAP_NEAREST = 4, GU_LINEAR_MIPMAP_NEAREST = 5, GU_NEAREST_MIPMAP_LINEAR = 6,
    GU_LINEAR_MIPMAP_LINEAR = 7,
    GU_CW = 0, GU_CCW = 1,
    GU_COLOR_BUFFER_BIT = 1, GU_STENCIL_BUFFER_BIT = 2, GU_DEPTH_BUFFER_BIT = 4, GU_FAST_CLEAR_BIT = 16,
    GU_TFX_MODULATE = 0, GU_TFX_DECAL = 1, GU_TFX_BLEND = 2, GU_TFX_REPLACE = 3, GU_TFX_ADD = 4,
    GU_TCC_RGB = 0, GU_TCC_RGBA = 1,
    GU_ADD = 0, GU_SUBTRACT = 1, GU_REVERSE_SUBTRACT = 2, GU_MIN = 3, GU_MAX = 4, GU_ABS = 5,
    GU_SRC_COLOR = 0, GU_ONE_MINUS_SRC_COLOR = 1, GU_SRC_ALPHA = 2, GU_ONE_MINUS_SRC_ALPHA = 3,
    GU_DST_ALPHA = 4, GU_ONE_MINUS_DST_ALPHA = 5, GU_DOUBLE_SRC_ALPHA = 6, GU_ONE_MINUS_DOUBLE_SRC_ALPHA = 7,
    GU_DOUBLE_DST_ALPHA = 8, GU_ONE_MINUS_DOUBLE_DST_ALPHA = 9, GU_FIX = 10,
    GU_DST_COLOR = 0, GU_ONE_MINUS_DST_COLOR = 1,
    GU_NEVER = 0, GU_ALWAYS = 1, GU_EQUAL = 2, GU_NOTEQUAL = 3, GU_LESS = 4, GU_LEQUAL = 5, GU_GREATER = 6,
    GU_GEQUAL = 7,
    GU_KEEP = 0, GU_ZERO = 1, GU_REPLACE = 2, GU_INVERT = 3, GU_INCR = 4, GU_DECR = 5,
    GU_AMBIENT = 1, GU_DIFFUSE = 2, GU_SPECULAR = 4, GU_AMBIENT_AND_DIFFUSE = 3, GU_DIFFUSE_AND_SPECULAR = 6,
    GU_POWERED_DIFFUSE = 8,
    GU_SINGLE_COLOR = 0, GU_SEPARATE_SPECULAR_COLOR = 1,
    GU_DIRECTIONAL = 0, GU_POINTLIGHT = 1, GU_SPOTLIGHT = 2,
    GU_TEXTURE_COORDS = 0, GU_TEXTURE_MATRIX = 1, GU_ENVIRONMENT_MAP = 2,
    GU_TEXTURE_AUTO = 0, GU_TEXTURE_CONST = 1, GU_TEXTURE_SLOPE = 2,
    GU_POSITION = 0, GU_UV = 1, GU_NORMALIZED_NORMAL = 2, GU_NORMAL = 3,
    GU_DIRECT = 0, GU_CALL = 1, GU_SEND = 2,
    GU_FALSE = 0, GU_TRUE = 1,
};
/* Vertex type fields (pspgu.h GU_*_SHIFT). */
#define GU_TEXTURE_8BIT (1u << 0)
#define GU_TEXTURE_16BIT (2u << 0)
#define GU_TEXTURE_32BITF (3u << 0)
#define GU_COLOR_5650 (4u << 2)
#define GU_COLOR_5551 (5u << 2)
#define GU_COLOR_4444 (6u << 2)
#define GU_COLOR_8888 (7u << 2)
#define GU_NORMAL_8BIT (1u << 5)
#define GU_NORMAL_16BIT (2u << 5)
#define GU_NORMAL_32BITF (3u << 5)
#define GU_VERTEX_8BIT (1u << 7)
#define GU_VERTEX_16BIT (2u << 7)
#define GU_VERTEX_32BITF (3u << 7)
#define GU_INDEX_8BIT (1u << 11)
#define GU_INDEX_16BIT (2u << 11)
#define GU_INDEX_BITS (3u << 11)
#define GU_WEIGHT_8BIT (1u << 9)
#define GU_WEIGHT_16BIT (2u << 9)
#define GU_WEIGHT_32BITF (3u << 9)
#define GU_WEIGHTS(n) ((((unsigned)(n) - 1) & 7) << 14)
#define GU_VERTICES(n) ((((unsigned)(n) - 1) & 7) << 18)
#define GU_TRANSFORM_3D (0u << 23)
#define GU_TRANSFORM_2D (1u << 23)

struct gu {
    struct psp *p;
    int init, first_start, curr_context;
    uint32_t list_start, list_cur; /* the open list (PSP addresses, RAM) */
    /* libgu's draw buffer (GuDrawBuffer) */
    int psm, frame_width, width, height, depth_width;
    uint32_t frame_buffer, disp_buffer, depth_buffer;
    /* libgu's context (GuContext) */
    int scissor_enable, scissor_start[2], scissor_end[2];
    int near_plane, far_plane, depth_offset, fragment_2x, texture_function;
    int texture_map_mode, texture_proj_map_mode;
    uint32_t clear_color, clear_stencil, clear_depth;
};

/* sceGuInit: runs the start-up list (every register 0, TBW0 0x040004 and
 * TSIZE0 0x000101, as pspautotests-exact/README.md records the console's). */
void gu_init(struct gu *g, struct psp *p);
void gu_term(struct gu *g);
void gu_start(struct gu *g, int ctype, uint32_t list);
/* sceGuFinish: FINISH, END; the GE runs the list. Returns its size. */
int gu_finish(struct gu *g);
/* sceGuSync(0, 0): waits until all drawing is done. */
void gu_sync(struct gu *g);
uint32_t gu_get_memory(struct gu *g, int size);
void gu_send_commandi(struct gu *g, int cmd, uint32_t arg);
void gu_send_commandf(struct gu *g, int cmd, float arg);

void gu_draw_buffer(struct gu *g, int psm, uint32_t fbp, int frame_width);
void gu_disp_buffer(struct gu *g, int width, int height, uint32_t dispbp, int dispbw);
void gu_depth_buffer(struct gu *g, uint32_t zbp, int zbw);
void gu_offset(struct gu *g, unsigned x, unsigned y);
void gu_viewport(struct gu *g, int cx, int cy, int width, int height);
void gu_depth_range(struct gu *g, int near, int far);
void gu_depth_mask(struct gu *g, int mask);
void gu_scissor(struct gu *g, int x, int y, int w, int h);
void gu_enable(struct gu *g, int state);
void gu_disable(struct gu *g, int state);
void gu_front_face(struct gu *g, int order);
void gu_shade_model(struct gu *g, int mode);
/* m: 16 floats, column-major as ScePspFMatrix4 (m[4 i + j]: column i, row j). */
void gu_set_matrix(struct gu *g, int type, const float m[16]);
void gu_set_dither(struct gu *g, const int m[16]);
void gu_patch_divide(struct gu *g, unsigned ulevel, unsigned vlevel);
void gu_color_material(struct gu *g, int components);
void gu_specular(struct gu *g, float power);
void gu_tex_scale(struct gu *g, float u, float v);
void gu_tex_offset(struct gu *g, float u, float v);
void gu_tex_mode(struct gu *g, int tpsm, int maxmips, int mc, int swizzle);
void gu_tex_image(struct gu *g, int mipmap, int width, int height, int tbw, uint32_t tbp);
void gu_tex_func(struct gu *g, int tfx, int tcc);
void gu_tex_env_color(struct gu *g, uint32_t color);
void gu_tex_filter(struct gu *g, int min, int mag);
void gu_tex_wrap(struct gu *g, int u, int v);
void gu_tex_slope(struct gu *g, float slope);
void gu_tex_flush(struct gu *g);
void gu_tex_sync(struct gu *g);
void gu_color(struct gu *g, uint32_t color);
void gu_blend_func(struct gu *g, int op, int src, int dest, uint32_t srcfix, uint32_t destfix);
void gu_clear_color(struct gu *g, uint32_t color);
void gu_clear_depth(struct gu *g, unsigned depth);
void gu_clear_stencil(struct gu *g, unsigned stencil);
void gu_clear(struct gu *g, int flags);
void gu_draw_array(struct gu *g, int prim, uint32_t vtype, int count, uint32_t indices, uint32_t vertices);
void gu_stencil_func(struct gu *g, int func, int ref, int mask);
void gu_stencil_op(struct gu *g, int fail, int zfail, int zpass);
void gu_depth_func(struct gu *g, int function);
void gu_alpha_func(struct gu *g, int func, int value, int mask);
void gu_color_func(struct gu *g, int func, uint32_t color, uint32_t mask);
void gu_logical_op(struct gu *g, int op);
void gu_pixel_mask(struct gu *g, uint32_t mask);
void gu_clut_mode(struct gu *g, unsigned cpsm, unsigned shift, unsigned mask, unsigned csa);
void gu_clut_load(struct gu *g, int num_blocks, uint32_t cbp);
void gu_fog(struct gu *g, float near, float far, uint32_t color);
void gu_ambient(struct gu *g, uint32_t color);
void gu_ambient_color(struct gu *g, uint32_t color);
void gu_model_color(struct gu *g, uint32_t emissive, uint32_t ambient, uint32_t diffuse, uint32_t specular);
void gu_material(struct gu *g, int mode, uint32_t color);
void gu_light(struct gu *g, int light, int type, int components, const float pos[3]);
void gu_light_color(struct gu *g, int light, int component, uint32_t color);
void gu_light_att(struct gu *g, int light, float atten0, float atten1, float atten2);
void gu_light_mode(struct gu *g, int mode);
void gu_light_spot(struct gu *g, int light, const float dir[3], float exponent, float cutoff);
void gu_copy_image(struct gu *g, int psm, int sx, int sy, int width, int height, int srcw, uint32_t src, int dx, int dy,
                   int destw, uint32_t dest);
void gu_tex_level_mode(struct gu *g, unsigned mode, float bias);
void gu_tex_map_mode(struct gu *g, int mode, unsigned lu, unsigned lv);
void gu_tex_proj_map_mode(struct gu *g, int mode);
void gu_morph_weight(struct gu *g, int index, float weight);
void gu_depth_offset(struct gu *g, unsigned offset);

#endif
