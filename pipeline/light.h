/* Per-vertex lighting, texture-coordinate generation and fog, on the GE
 * arithmetic (GE-HARDWARE.md §1 and §3). Behaviour where GE-HARDWARE.md is
 * silent follows docs/notes/vertex-pipeline.md §5 (lighting), §6 (texture
 * coordinate generation) and §7 (fog).
 *
 * Every value is computed with pipeline/gemath: fused row sums for dot
 * products, matrices and the vector to a light, the rsqrt table for
 * normalisation, the reciprocal table for attenuation, Mitchell's power for
 * the specular, spot and powered-diffuse exponents, and the 8-bit product
 * for colors. No host floating point.
 *
 * Conventions (GE-HARDWARE.md §3 and the upload layout of gemath.h: m[0..2]
 * is the image of the x axis, m[3..5] of y, m[6..8] of z, m[9..11] the
 * translation, so out.x = x*m0 + y*m3 + z*m6 + m9):
 *  - Lighting happens in world space. The world normal is the world matrix's
 *    3x3 applied to the model normal, normalised; no world-space vertex
 *    position is ever formed (see light_vector).
 *  - The viewer direction for the specular half vector is the VIEW matrix's
 *    third column read in the 4-rows-of-3 upload layout, (m2, m5, m8): the
 *    coefficients that give a world vector's eye-space z. For a rigid view
 *    matrix it is the unit world direction of the eye's +z axis, i.e. from
 *    the scene toward the camera (OpenGL-style views look down -z), taken
 *    with the sign as stored; an identity view gives (0, 0, 1), PPSSPP's
 *    fixed viewer. It is used without normalisation (see light_viewer).
 *  - The vector to a light points from the vertex to the light; a spot
 *    light's direction is used as stored, so a vertex is inside the cone
 *    when dot(spot direction, vertex-to-light) >= cutoff (PPSSPP's reading).
 *
 * Model choices (not measured) are named constants or single functions in
 * light.c, each marked "model choice, not measured". */
#ifndef GETILE_LIGHT_H
#define GETILE_LIGHT_H

#include <stdbool.h>
#include <stdint.h>

#include "ge.h"
#include "gemath.h"

/* LIGHT_TYPEn bits 0-1: what the light computes. 3 behaves like 0. */
enum gt_light_comp { GT_LIGHT_DIFFUSE = 0, GT_LIGHT_DIFFUSE_SPECULAR = 1, GT_LIGHT_POWERED_DIFFUSE = 2 };
/* LIGHT_TYPEn bits 8-9: the kind of light. 3 behaves like a spot light. */
enum gt_light_kind { GT_LIGHT_DIRECTIONAL = 0, GT_LIGHT_POINT = 1, GT_LIGHT_SPOT = 2 };

/* TEX_MAP_MODE (0xC0) bits 0-1; 3 behaves like UV. */
enum gt_texmap { GT_TEXMAP_UV = 0, GT_TEXMAP_MATRIX = 1, GT_TEXMAP_SHADE = 2 };
/* TEX_MAP_MODE bits 8-9: the texture matrix's source vector. */
enum gt_texproj {
    GT_TEXPROJ_POSITION = 0,  /* model position */
    GT_TEXPROJ_UV = 1,        /* (u, v, 0), u and v without TEXSCALE/TEXOFFSET */
    GT_TEXPROJ_NORMALIZED = 2,/* the model normal, normalised */
    GT_TEXPROJ_NORMAL = 3,    /* the model normal as given */
};

/* One light, from its registers. */
struct gt_light {
    bool enabled;
    enum gt_light_comp comp;
    enum gt_light_kind kind;
    gefloat dir[3];          /* the light vector LX..LZ normalised, zero staying zero:
                              * a directional light's direction (also for shade mapping) */
    gefloat lmt[3];          /* point and spot: light position minus world translation */
    gefloat att[3];          /* attenuation A, B, C */
    gefloat spot_dir[3];     /* spot: LDX..LDZ as given (used unnormalised) */
    gefloat spot_len2;       /* spot: dir . dir */
    gefloat spot_exp;        /* spot exponent, 0 when not positive */
    gefloat spot_cutoff;
    uint8_t ambient[3], diffuse[3], specular[3]; /* light colors RGB */
};

/* Per-draw lighting/texgen/fog state computed once from the registers. */
struct gt_light_state {
    bool lighting;           /* LIGHTING_ON */
    bool separate_specular;  /* LIGHT_MODE bit 0: specular goes to color1 */
    unsigned mat_update;     /* MATERIAL_UPDATE bits 0-2: ambient, diffuse, specular from the vertex color */
    uint8_t emissive[3];     /* material emissive RGB */
    uint8_t mat_ambient[4];  /* material ambient RGB + material alpha */
    uint8_t mat_diffuse[3], mat_specular[3];
    uint8_t ambient[4];      /* global ambient RGBA */
    gefloat spec_coef;       /* specular coefficient, 0 when not positive */
    gefloat world[12];       /* world matrix */
    gefloat neg_world[9];    /* -m0..-m8: the row-sum terms of light_vector */
    gefloat viewer[3];       /* VIEW (m2, m5, m8), see above */
    struct gt_light light[4];

    enum gt_texmap map_mode;
    enum gt_texproj proj_src;
    unsigned shade_light[2]; /* TEX_SHADE bits 0-1 (s) and 8-9 (t) */
    gefloat tgen[12];        /* texture matrix */

    bool fog;                /* FOG_ON */
    bool fog_const;          /* FOG1 non-finite: the factor is fog_value for the whole draw */
    gefloat fog_value;
    gefloat fog_row[4];      /* the world x view z row (light.c fog_fold) */
    gefloat fog_end, fog_slope; /* FOG1, FOG2 */
};

void light_setup(struct gt_light_state *ls, const struct ge_state *st);
/* The same, with world x view already combined by the caller (the transform
 * forms it once per draw for its own matrix). */
void light_setup_wv(struct gt_light_state *ls, const struct ge_state *st, const gefloat wv[12]);
/* Inputs: model-space position (after morph/skinning), model-space normal
 * (after skinning and REVERSE_NORMAL, not normalised), the vertex color
 * (RGBA; has_color false when the VTYPE has no color: then material ambient
 * RGB + material alpha is the vertex color). Outputs color0 (RGBA) and
 * color1 (RGB, alpha 0; only non-zero with LIGHT_MODE separate specular).
 * When lighting is off: color0 = vertex color, color1 = 0. */
void light_vertex(const struct gt_light_state *ls, const gefloat pos[3], const gefloat nrm[3],
                  const uint8_t color[4], bool has_color, uint8_t color0[4], uint8_t color1[4]);
/* Texture coordinates by TEX_MAP_MODE: mode 0/3 returns uv as given (scale and
 * offset were applied by the decoder), q = 1; mode 1 the texture matrix
 * applied to the chosen source (position / raw uv (u,v,0) / normalised
 * normal / normal), giving s, t, q; mode 2 shade mapping from two lights'
 * vectors and the world normal (q = 1). raw_uv is the decoded uv WITHOUT
 * scale/offset. */
void texgen_vertex(const struct gt_light_state *ls, const gefloat pos[3], const gefloat nrm[3],
                   const gefloat uv[2], const gefloat raw_uv[2], gefloat stq[3]);
/* The fog factor of a vertex: (eye z + FOG1) * FOG2 as a GE float (not yet
 * clamped/quantised; the rasterizer interpolates it). 1.0 when fog is off. */
gefloat fog_vertex(const struct gt_light_state *ls, const gefloat pos[3]);
/* Fog factor to 8 bits, as each vertex converts it before its plane or the
 * clipper (ge-arithmetic.md "Fog"): <0 (incl. -0) -> 0, >=1 -> 255, else
 * floor(f*256). */
uint8_t fog_to8(gefloat f);

/* ---- Building blocks, exposed for tests and for other pipeline stages ---- */

/* Normalises v with the rsqrt table: v * rsqrt(v . v), the dot product one
 * fused row sum. A zero squared length gives (0, 0, 1) when fallback is set;
 * otherwise the arithmetic's own result (rsqrt(0) is the largest value, times
 * zero components: (0, 0, 0)). Returns the squared length. */
gefloat light_normalize(const gefloat v[3], gefloat out[3], bool fallback);
/* The world normal: the world matrix's 3x3 applied to the model normal (one
 * row sum per component), normalised with the (0, 0, 1) fallback. */
void light_world_normal(const struct gt_light_state *ls, const gefloat nrm[3], gefloat out[3]);
/* The vector from a vertex to point/spot light i, not normalised (HW §3):
 * each component is one fused row sum of four terms, (L - T), -x*w0,
 * -y*w1, -z*w2, where w are the world elements that produce that component
 * (m0, m3, m6 for x; m1, m4, m7 for y; m2, m5, m8 for z). */
void light_vector(const struct gt_light_state *ls, unsigned i, const gefloat pos[3], gefloat out[3]);

#endif
