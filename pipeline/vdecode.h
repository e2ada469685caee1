/* Vertex decoding: reads vertices from PSP memory in any VTYPE format into
 * GE numbers (GE-HARDWARE.md §1; layout and scales as in
 * docs/notes/vertex-pipeline.md §1-2), with morphing and indices. */
#ifndef GETILE_VDECODE_H
#define GETILE_VDECODE_H

#include <stdbool.h>
#include <stdint.h>

#include "ge.h"
#include "gemath.h"

/* One decoded vertex. In transform mode positions, normals and weights are
 * model-space values and texture coordinates have TEXSCALE/TEXOFFSET applied
 * (UV mapping mode); in through mode positions are screen pixels (x, y) and
 * depth (z), and texture coordinates are in texels (u16, float) or /128 (u8). */
struct gt_vin {
    gefloat pos[3];
    gefloat nrm[3];
    gefloat uv[2];
    uint8_t color[4];  /* RGBA */
    gefloat weight[8];
};

/* Where each component of a VTYPE lives. */
struct gt_vlayout {
    uint32_t target_size;  /* one morph target */
    uint32_t stride;       /* target_size * morph count */
    uint32_t off_tc, off_col, off_nrm, off_pos; /* in a target; weights at 0 */
    uint32_t align;        /* largest element alignment */
};

/* Everything a draw's VTYPE and registers fix for decoding. */
struct gt_vdec {
    uint32_t vtype;
    unsigned tc, col, nrm, pos, wt, nweights, nmorph, idx;
    bool through;
    bool uv_scale;         /* apply TEXSCALE/TEXOFFSET (transform mode, UV mapping) */
    struct gt_vlayout lay;
    gefloat morph[8];      /* MORPHWEIGHT0-7 */
    gefloat uvscale[2], uvoff[2];
};

/* Component layout of a VTYPE (see ge_vertex_size). */
void vdec_layout(uint32_t vtype, struct gt_vlayout *lay);
/* Prepares decoding for the state's current VTYPE. */
void vdec_setup(struct gt_vdec *vd, const struct ge_state *st);
/* Vertex number i of a kick: the i-th index (indexed) or i itself. */
uint32_t vdec_index(const struct gt_vdec *vd, const struct gt_mem *mem, uint32_t iaddr, uint32_t i);
/* Decodes vertex number `index` of the vertex array at vaddr. Unmapped
 * bytes read as 0. */
void vdec_read(const struct gt_vdec *vd, const struct gt_mem *mem, uint32_t vaddr, uint32_t index, struct gt_vin *out);
/* TEXSCALE/TEXOFFSET of texture coordinate k (0 u, 1 v), measured
 * (ge-vertex-pipeline.md "Texture coordinates"): GEAdd(float24(uv scale),
 * offset). */
gefloat vdec_uv_scale(const struct gt_vdec *vd, int k, gefloat uv);
/* The morph sum w0*v0 + ... + w(n-1)*v(n-1), n 1..8 (measured,
 * ge-vertex-pipeline.md "Morphing"): each product float24(w v), summed
 * left to right with the GE adder, every sum truncated to float24. */
gefloat vdec_morph_sum(const gefloat *v, const gefloat *w, unsigned n);

#endif
