/* BBOX (see bbox.h), on the GE arithmetic: homogeneous screen positions
 * compared against the drawing rectangle scaled by w, no divide. */
#include "bbox.h"

#include "transform.h"

static int32_t maxi(int32_t a, int32_t b) { return a > b ? a : b; }
static int32_t mini(int32_t a, int32_t b) { return a < b ? a : b; }

bool bbox_test(const struct ge_state *st, const struct gt_mem *mem, uint32_t count)
{
    if (count > 1024) return true;
    /* The hardware only varies its answer over one range of 0x100 vertices. */
    uint32_t first = 0, n = count;
    if (count > 0x200)
        first = count - 0x200, n = 0x100;
    else if (count > 0x100)
        n = count - 0x100;

    int32_t ox = (int32_t)(ge_reg(st, GE_OFFSET_X) & 0xFFFF) / 16, oy = (int32_t)(ge_reg(st, GE_OFFSET_Y) & 0xFFFF) / 16;
    uint32_t r1 = ge_reg(st, GE_REGION1), r2 = ge_reg(st, GE_REGION2);
    uint32_t s1 = ge_reg(st, GE_SCISSOR1), s2 = ge_reg(st, GE_SCISSOR2);
    int32_t left = ox + maxi(r1 & 0x3FF, s1 & 0x3FF) - 1, top = oy + maxi((r1 >> 10) & 0x3FF, (s1 >> 10) & 0x3FF) - 1;
    int32_t right = ox + mini(r2 & 0x3FF, s2 & 0x3FF) + 1, bottom = oy + mini((r2 >> 10) & 0x3FF, (s2 >> 10) & 0x3FF) + 1;
    if (right >= 4096 || bottom >= 4096 || left < 1 || top < 1) return true;

    struct gt_xform xf;
    xform_setup(&xf, st);
    bool depth = ge_reg(st, GE_DEPTHCLIP_ON) & 1;
    uint32_t inside[6] = {0};
    gefloat lf = gemath_from_int(left), tf = gemath_from_int(top), rf = gemath_from_int(right), bf = gemath_from_int(bottom);
    for (uint32_t i = first; i < first + n; i++) {
        struct gt_vin in;
        gefloat c[4];
        vdec_read(&xf.vd, mem, st->vaddr, vdec_index(&xf.vd, mem, st->iaddr, i), &in);
        const gefloat p[4] = {in.pos[0], in.pos[1], in.pos[2], GEMATH_ONE};
        gemath_mat44_apply(xf.wvp, p, c);
        const gefloat ax[4] = {c[0], c[3], 0, 0}, bx[4] = {xf.vp_scale[0], xf.vp_center[0], 0, 0};
        const gefloat ay[4] = {c[1], c[3], 0, 0}, by[4] = {xf.vp_scale[1], xf.vp_center[1], 0, 0};
        gefloat hx = gemath_dot4(ax, bx), hy = gemath_dot4(ay, by);
        inside[0] += gemath_cmp(hx, gemath_mul(lf, c[3])) >= 0;
        inside[1] += gemath_cmp(hx, gemath_mul(rf, c[3])) <= 0;
        inside[2] += gemath_cmp(hy, gemath_mul(tf, c[3])) >= 0;
        inside[3] += gemath_cmp(hy, gemath_mul(bf, c[3])) <= 0;
        inside[4] += gemath_cmp(c[2], gemath_neg(c[3])) >= 0;
        inside[5] += gemath_cmp(c[2], c[3]) <= 0;
    }
    for (int k = 0; k < (depth ? 6 : 4); k++)
        if (inside[k] == 0) return false;
    return true;
}
