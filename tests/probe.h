/* The harness the end-to-end probe tests share (t_vprobe.c, t_setup_probe.c,
 * t_lod_probe.c, t_probe_misc.c, t_quirks.c, t_raster.c): a render context
 * with a display list under construction, the state those tests start
 * from, vertex writers, and the triangle coverage model. Each test file
 * keeps its own models and expected values; this file only builds and
 * runs lists and answers "is this sample inside".
 *
 * Memory layout every user agrees on: the display list at PB_LIST, vertex
 * data from PB_VB (RAM), the 8888 colour buffer at the start of VRAM
 * (stride 512) and the 16-bit depth buffer at VRAM + PB_ZOFF (stride 512),
 * the screen 480 x 272. */
#ifndef GETILE_PROBE_H
#define GETILE_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "dlbuild.h"
#include "render.h"

#define PB_LIST 0x08100000u
#define PB_VB 0x08200000u
#define PB_VRAM 0x04000000u
#define PB_ZOFF 0x88000u

/* Register numbers ge_cmd.h does not name (PPSSPP GPU/ge_constants.h; the
 * same numbers pipeline/light.c reads). */
enum {
    R_VIEWPORT_SX = 0x42, R_VIEWPORT_SY = 0x43, R_VIEWPORT_SZ = 0x44,
    R_VIEWPORT_CX = 0x45, R_VIEWPORT_CY = 0x46, R_VIEWPORT_CZ = 0x47,
    R_TEXSCALE_U = 0x48, R_TEXSCALE_V = 0x49, R_TEXOFFSET_U = 0x4A, R_TEXOFFSET_V = 0x4B,
};

/* Identity world/view (4x3: images of x, y, z, then the translation) and
 * projection (4x4) matrices. */
extern const float pb_id43[12];
extern const float pb_id44[16];

/* ---- A render context with its list (struct pb) ------------------------- */

/* The probes' projections and viewports (pb_matrices, pb_viewport) carry
 * clip x and y divided by this power of two and scale them back in the
 * viewport: every position is exactly what the unscaled pair gives, while
 * on-screen vertices stay inside |x|, |y| <= w, which the GE culls outside
 * of when all of a primitive's vertices are (probe exp176). */
#define PB_CLIP_XY_SCALE 4096.0f

struct pb {
    struct gt_render *r;
    struct dl l;
    uint32_t vnext; /* next free vertex address, from PB_VB */
};

/* One command word; a float register value as the GE's 24-bit float (the
 * IEEE bits >> 8, dl_float24). */
static inline void pb_cmd(struct pb *t, unsigned c, uint32_t data) { dl_cmd(&t->l, c, data); }
static inline void pb_cmdf(struct pb *t, unsigned c, float f) { dl_cmd(&t->l, c, dl_float24(f)); }

/* Uploads n matrix words: NUM command num_cmd = 0, then n DATA commands
 * (num_cmd + 1), as games load WORLD/VIEW/PROJ (PPSSPP GE_CMD_*MATRIX*). */
void pb_upload(struct pb *t, unsigned num_cmd, const float *m, unsigned n);
/* World and view 4x3, projection 4x4 (out.k = x p[k] + y p[4+k] + z p[8+k]
 * + w p[12+k]). */
void pb_matrices(struct pb *t, const float world[12], const float view[12], const float proj[16]);
/* VIEWPORT scale and centre registers (screen = clip / w * scale + centre,
 * PPSSPP ClipToScreenInternal). */
void pb_viewport(struct pb *t, float sx, float sy, float sz, float cx, float cy, float cz);
/* OFFSET_X/Y in 1/16 pixel (subtracted from the 12.4 screen position). */
void pb_offset16(struct pb *t, uint32_t ox16, uint32_t oy16);

/* A fresh context (memory zeroed, vertices from PB_VB) and the state the
 * probes start from: 8888 colour buffer at VRAM 0 (stride 512), depth at
 * PB_ZOFF (stride 512), scissor 0..479 x 0..271, REGION 0..1023, Gouraud,
 * depth range 0..65535, DEPTHCLIP off, no culling, and the "pixel
 * viewport": scale (1, 1, vp_sz), centre (2048, 2048, 32768), offset 2048
 * pixels, so a transform-mode clip (x, y) with w = 1 lands on pixel (x, y)
 * exactly and the depth is 32768 + vp_sz * clip z / w. The first commands
 * are pb_state(&t->l, 0, 512). Matrices and everything else are left to
 * the caller. */
void pb_init(struct pb *t, float vp_sz);
/* Frees the list and the render context. */
void pb_free(struct pb *t);
/* Depth test on with function ALWAYS (Z_TEST 1) and depth writes on: every
 * drawn pixel writes its z, so the depth buffer shows the interpolated
 * depth (GE-HARDWARE.md §8: depth read back exactly). */
void pb_depth_always(struct pb *t);
/* Texturing on with one square 8888 level of 2^lg x 2^lg texels at RAM
 * address addr (buffer width 2^lg), nearest filter, no mipmaps (TEX_MODE
 * and TEX_LEVEL 0), TEX_WRAP wrap (bit 0 clamps u, bit 8 v), TEX_FUNC
 * replace RGBA (the pixel is the texel: GE-HARDWARE.md §8's readout of
 * textures whose texels hold their own position), UV mapping, then
 * TEXFLUSH. Texture scale and offset are left to the caller. */
void pb_texture_nearest(struct pb *t, uint32_t addr, unsigned lg, uint32_t wrap);
/* Finishes the list built so far (FINISH, END), checks it was built without
 * error and fits below PB_VB, writes it at PB_LIST and runs it through
 * gt_render_list, which returns when all drawing is done; then starts an
 * empty list. Registers carry over to the next list, as on the GE. */
void pb_run(struct pb *t);

/* Emits one primitive of n vertices of format vtype at RAM address addr:
 * VTYPE, BASE (bits 24-27 of addr), VADDR (bits 0-23), PRIM (type << 16 |
 * n), then BASE back to 0x08 (the list's own area). */
void pb_emit_prim(struct pb *t, uint32_t vtype, uint32_t addr, unsigned type, unsigned n);

/* ---- Bare render contexts (no struct pb) -------------------------------- */

/* A fresh render context (memory zeroed) with `threads` workers and tiles
 * of `tile` pixels (gt_render_set_threads). */
struct gt_render *pb_new(unsigned threads, unsigned tile);
/* Frees a context from pb_new. */
void pb_delete(struct gt_render *r);
/* The base state as commands into l: BASE 0x08, 8888 buffer at VRAM offset
 * fb with the given stride, depth at PB_ZOFF (stride 512), scissor 0..479 x
 * 0..271, no REGION1 offset, REGION2 1023 x 1023, Gouraud; texturing is
 * left as it is (off in a fresh context). */
void pb_state(struct dl *l, uint32_t fb, uint32_t stride);
/* Finishes list l (FINISH, END), checks it fits below PB_VB, writes it at
 * PB_LIST and runs it; returns when all drawing is done. Does not look at
 * l->err (as the copies in t_probe_misc.c and t_raster.c did not). */
void pb_run_list(struct gt_render *r, struct dl *l);

/* ---- Vertices ---------------------------------------------------------- */

/* The IEEE bits of f (float vertex components are written this way). */
uint32_t pb_f32bits(float f);

/* Writes vertex i of an array at addr in the layout vdecode gives vtype
 * (vdec_layout: texcoord, colour, position offsets and the stride): a
 * through-mode vertex with s16 position (x, y, z), 8888 colour rgba and
 * texture coordinates (u, v), as u16 (truncated) when vtype's texcoord
 * format (bits 0-1) is 2, as floats when it is 3. Every vtype used must
 * carry texcoords, an 8888 colour and s16 positions. */
void pb_put_vertex(struct gt_render *r, uint32_t addr, uint32_t vtype, unsigned i, int x, int y, int z, float u,
                   float v, uint32_t rgba);

/* ---- Triangle coverage (the model, not the code under test) -------------- */

/* The address through which a depth buffer at VRAM address zaddr reads
 * linearly: the view that undoes the depth scramble of a 32-bit colour
 * buffer (0x04600000) or a 16-bit one (0x04200000) (image-formats.md "The
 * unswizzling mirrors"). */
static inline uint32_t pb_depth_view(uint32_t zaddr, bool color32)
{
    return 0x04000000u + (color32 ? 0x600000u : 0x200000u) + (zaddr & 0x1FFFFFu);
}

/* The doubled signed area of (a, b, c): cross(b - a, c - a). */
int64_t pb_cross3(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t cx, int64_t cy);

/* Sample position of pixel p along one axis, in 1/16 pixel: the centre,
 * 16 p + 8 (measured: ge-raster-pipeline.md "Triangle coverage"). */
static inline int64_t pb_tri_sample(int p) { return (int64_t)p * 16 + 8; }

/* Coverage of sample (sx, sy) (1/16 pixel) by triangle X[], Y[] (1/16
 * pixel, either winding) with PPSSPP's fill rule
 * (IsRightSideOrFlatBottomLine: samples exactly on a right edge or a
 * horizontal bottom edge are out, on a left or horizontal top edge in).
 * That rule is strict insideness of the point moved by an infinitesimal
 * (e, e^2), e > 0, evaluated per edge lexicographically: the edge function
 * cross(Q - P, S - P) oriented so the interior is positive, then on a tie
 * its x derivative -(Qy - Py), then its y derivative (Qx - Px). A
 * degenerate triangle covers nothing. */
bool pb_tri_cov(const int64_t X[3], const int64_t Y[3], int64_t sx, int64_t sy);

#endif
