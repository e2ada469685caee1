/* Vertex transform: model space to screen, on the GE arithmetic
 * (GE-HARDWARE.md §1): world, view and projection combined once per draw
 * with the row-sum unit, skinning, the perspective divide through the
 * reciprocal table, the viewport, 12.4 screen coordinates, the guard band
 * and depth. Behaviour where GE-HARDWARE.md is silent follows
 * docs/notes/vertex-pipeline.md §3-4. Lighting, texture-coordinate
 * generation and fog run per vertex here too (light.c). */
#ifndef GETILE_TRANSFORM_H
#define GETILE_TRANSFORM_H

#include <stdbool.h>
#include <stdint.h>

#include "ge.h"
#include "gemath.h"
#include "light.h"
#include "vdecode.h"

/* Per-draw transform state, computed once from the registers. */
struct gt_xform {
    bool through;
    bool depth_clip;        /* DEPTHCLIP_ON: clamp depth instead of discarding */
    gefloat wvp[16];        /* projection * view * world (one row sum per element) */
    gefloat bone[GT_BONE_MATRIX_WORDS];
    unsigned nweights;      /* 0: no skinning */
    gefloat vp_scale[3], vp_center[3];
    int32_t offset_x, offset_y; /* OFFSET_X/Y, 1/16 pixel */
    bool has_color;         /* vertices carry a color (else the material ambient stands in) */
    uint8_t through_color[4]; /* that stand-in in through mode: material ambient RGB and alpha */
    bool reverse_normals;   /* REVERSE_NORMAL */
    struct gt_vdec vd;
    struct gt_light_state light; /* lighting, texture generation, fog (transform mode) */
};

/* A vertex after transform. */
struct gt_vout {
    gefloat clip[4];        /* homogeneous clip position (transform mode) */
    gefloat screen[3];      /* viewport position before the offset: x, y in pixels, z */
    int32_t x16, y16;       /* screen position relative to OFFSET_X/Y, 1/16 pixel */
    uint16_t z;             /* depth */
    bool outside;           /* outside the guard band or depth range: its primitive is dropped */
    bool behind;            /* clip z < -w: behind the near plane */
    bool w_negative;        /* clip w < 0 */
    uint8_t omask;          /* the clip planes it is outside: x > w (1), -x > w (2), y > w (4),
                             * -y > w (8), z > w (16), -z > w (32) */
    uint8_t color[4];       /* color0 RGBA */
    uint8_t color1[4];      /* color1 (separate specular) RGB */
    gefloat uv[2], q;       /* texture coordinates s, t and the projective q */
    gefloat fog;            /* fog factor (1: no fog) */
};

void xform_setup(struct gt_xform *xf, const struct ge_state *st);
/* Transforms one decoded vertex. */
void xform_vertex(const struct gt_xform *xf, const struct gt_vin *in, struct gt_vout *out);
/* From a vertex's clip position: screen position, 12.4 coordinates, depth,
 * and the flags the discard rules use. always_check: apply the guard band
 * even to a vertex behind the near plane (vertices made by clipping). */
void xform_screen(const struct gt_xform *xf, struct gt_vout *out, bool always_check);
/* Skinning (measured, ge-vertex-pipeline.md "Skinning"): every bone entry
 * scaled by its weight, float24(w m); per component one accumulator runs
 * through the bones in order, adding the bone's translation, then x, y and
 * z times its columns, each step a GE add truncated to float24. The normal
 * (when nrm is not NULL, into nrm_out) the same way without translation. */
void xform_skin(const gefloat bone[GT_BONE_MATRIX_WORDS], unsigned nweights, const gefloat weight[8],
                const gefloat pos[3], gefloat out[3], const gefloat *nrm, gefloat *nrm_out);
/* The perspective divide and viewport of one coordinate (measured,
 * ge-vertex-pipeline.md "Precision"): ndc = float24(c R(w)), then
 * GEAdd(float24(ndc scale), center). */
gefloat xform_viewport(gefloat c, gefloat rw, gefloat scale, gefloat center);

#endif
