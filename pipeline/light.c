/* Per-vertex lighting, texture-coordinate generation and fog (see light.h).
 * All arithmetic is pipeline/gemath; every constant or grouping that
 * GE-HARDWARE.md does not fix is a named model choice below. */
#include "light.h"

#include <string.h>

#include "compat.h"

/* Command numbers of the lighting registers (docs/notes/vertex-pipeline.md
 * §5.1, §6, §7) that ge_cmd.h does not name. Per light i: three position
 * words at LC_POS + 3i, three spot direction words at LC_DIR + 3i, three
 * attenuation words at LC_ATT + 3i, one spot exponent at LC_SPOT_EXP + i,
 * one spot cutoff at LC_SPOT_CUT + i, and ambient, diffuse, specular colors
 * at LC_COLOR + 3i + 0/1/2. */
enum {
    LC_MAT_EMISSIVE = 0x54, LC_MAT_AMBIENT = 0x55, LC_MAT_DIFFUSE = 0x56, LC_MAT_SPECULAR = 0x57,
    LC_MAT_ALPHA = 0x58, LC_SPEC_COEF = 0x5B, LC_AMBIENT = 0x5C, LC_AMBIENT_ALPHA = 0x5D,
    LC_POS = 0x63, LC_DIR = 0x6F, LC_ATT = 0x7B, LC_SPOT_EXP = 0x87, LC_SPOT_CUT = 0x8B,
    LC_COLOR = 0x8F,
};

#define GEMATH_HALF 0x3F000000u /* 0.5 */

/* FOG2 replacement when its register holds an infinity or NaN: +-2^18
 * (PPSSPP's value, docs/notes §7; makes every non-zero factor clamp). */
#define FOG_SLOPE_NONFINITE 0x48800000u /* 262144.0 */

/* ---- Register helpers ---- */

static gefloat reg_f(const struct ge_state *st, unsigned cmd)
{
    return gemath_from_word(st->reg[cmd]);
}

/* True when a float register's exponent field is 255 (IEEE infinity or NaN
 * before the special-value policy turns it into +-GEMATH_MAX). */
static bool reg_nonfinite(const struct ge_state *st, unsigned cmd)
{
    return ((st->reg[cmd] >> 15) & 0xFFu) == 0xFFu;
}

static bool reg_nan(const struct ge_state *st, unsigned cmd)
{
    return reg_nonfinite(st, cmd) && (st->reg[cmd] & 0x7FFFu) != 0;
}

static bool reg_sign(const struct ge_state *st, unsigned cmd)
{
    return (st->reg[cmd] >> 23) & 1u;
}

static void reg_rgb(const struct ge_state *st, unsigned cmd, uint8_t out[3])
{
    uint32_t v = ge_reg(st, cmd);
    out[0] = (uint8_t)v;
    out[1] = (uint8_t)(v >> 8);
    out[2] = (uint8_t)(v >> 16);
}

/* A register exponent that counts only when positive (specular coefficient,
 * spot exponent): zero or negative reads as 0, which makes the power 1
 * (docs/notes §5.3-5.4). */
static gefloat positive_or_zero(gefloat x)
{
    return gemath_cmp(x, GEMATH_ZERO) > 0 ? x : GEMATH_ZERO;
}

/* ---- Vectors ---- */

gefloat light_normalize(const gefloat v[3], gefloat out[3], bool fallback)
{
    gefloat len2 = gemath_dot3(v, v);
    if (fallback && gemath_cmp(len2, GEMATH_ZERO) == 0) {
        out[0] = out[1] = GEMATH_ZERO;
        out[2] = GEMATH_ONE;
        return len2;
    }
    gefloat r = gemath_rsqrt(len2);
    for (int c = 0; c < 3; c++) out[c] = gemath_mul(v[c], r);
    return len2;
}

/* The normal through the world matrix's 3x3, one row sum per component,
 * not normalised (measured: lighting divides N . v by |N| instead), into
 * out; returns rsqrt(N . N), 0 for a zero normal. */
static gefloat light_world_normal_raw(const struct gt_light_state *ls, const gefloat nrm[3], gefloat out[3])
{
    const gefloat n4[4] = {nrm[0], nrm[1], nrm[2], GEMATH_ZERO};
    gemath_mat43_apply(ls->world, n4, out);
    gefloat n2 = gemath_dot3(out, out);
    return gemath_cmp(n2, GEMATH_ZERO) == 0 ? GEMATH_ZERO : gemath_rsqrt(n2);
}

void light_world_normal(const struct gt_light_state *ls, const gefloat nrm[3], gefloat out[3])
{
    const gefloat n4[4] = {nrm[0], nrm[1], nrm[2], GEMATH_ZERO};
    gefloat w[3];
    gemath_mat43_apply(ls->world, n4, w);
    light_normalize(w, out, true);
}

/* Measured (ge-lighting.md "The light vector"): L - T comes from the GE
 * adder, once per draw per component. */
static gefloat light_minus_translation(gefloat l, gefloat t)
{
    return gemath_sub(l, t);
}

void light_vector(const struct gt_light_state *ls, unsigned i, const gefloat pos[3], gefloat out[3])
{
    const struct gt_light *l = &ls->light[i & 3];
    for (int c = 0; c < 3; c++) {
        const gefloat a[4] = {l->lmt[c], pos[0], pos[1], pos[2]};
        const gefloat b[4] = {GEMATH_ONE, ls->neg_world[c], ls->neg_world[3 + c], ls->neg_world[6 + c]};
        out[c] = gemath_dot4(a, b);
    }
}

/* Measured (ge-lighting.md "Diffuse and specular"): the viewer V is the
 * view matrix's third column (m2, m5, m8), normalised with the GE's
 * rsqrt; a zero column gives (0, 0, 1) (PPSSPP). With an identity view it
 * is (0, 0, 1), the older PPSSPP viewer. */
static void light_viewer(const gefloat view[12], gefloat out[3])
{
    const gefloat v[3] = {gemath_trunc(view[2]), gemath_trunc(view[5]), gemath_trunc(view[8])};
    light_normalize(v, out, true);
    if (GT_COMPAT(VIEWER)) out[0] = out[1] = GEMATH_ZERO, out[2] = GEMATH_ONE; /* PPSSPP's (0, 0, 1) */
}

/* Distance attenuation of a point or spot light, 1 / (A + B d + C |D|^2)
 * clamped to [0, 1] (docs/notes §5.3). Measured (ge-lighting.md "Spot
 * lights and attenuation"): d = |D|^2 rsqrt(|D|^2), the quadratic term the
 * squared length itself, the GE reciprocal. Model choice, not measured:
 * the denominator is one fused row sum A*1 + B*d + C*|D|^2.
 * A result that is not positive gives 0, above 1 gives 1 (a zero
 * denominator gives the table's largest value, so 1). */
static gefloat light_attenuation(const gefloat abc[3], gefloat d, gefloat len2)
{
    const gefloat terms[3] = {GEMATH_ONE, d, len2};
    gefloat att = gemath_recip(gemath_dot3(abc, terms));
    if (gemath_cmp(att, GEMATH_ZERO) <= 0) return GEMATH_ZERO;
    if (gemath_cmp(att, GEMATH_ONE) > 0) return GEMATH_ONE;
    return att;
}

/* ---- Colors ---- */

/* A factor f scaling a color term (measured, ge-lighting.md "Output"): s =
 * floor(256 f), 256 for f >= 1, 0 for f <= 0, then ((2x + 1)(2s + 1)) >>
 * 10. */
static uint16_t light_factor(gefloat f)
{
    f = gemath_trunc(f);
    if ((f >> 31) || !(f & 0x7F800000u)) return 0;
    if (gemath_cmp(f, GEMATH_ONE) >= 0) return 256;
    return (uint16_t)gemath_to_fixed(f, 8);
}

static uint8_t light_scale(uint8_t x, uint16_t s)
{
    return (uint8_t)(((2u * x + 1u) * (2u * s + 1u)) >> 10);
}

/* A light's attenuation and spot factors for one vertex: their 8-bit
 * scalings, and their product for the diagnostic build's PPSSPP form. */
struct light_scaling { uint16_t s_att, s_spot; gefloat as; };

/* One colour term (measured, ge-lighting.md "Output"): light x material,
 * scaled by the term's own factor f (s = light_factor(f); 256 scales by
 * 1), then by attenuation, then by the spot factor. The diagnostic build
 * ("light") scales once by the product of the three factors. */
static int light_term(const struct light_scaling *k, uint8_t light, uint8_t material, gefloat f, uint16_t s)
{
    if (GT_COMPAT(LIGHT)) return compat_light_term(light, material, gemath_mul(k->as, f));
    return light_scale(light_scale(light_scale(gemath_mul8(light, material), s), k->s_att), k->s_spot);
}

static uint8_t clamp255(int v)
{
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* ---- Fog ---- */

/* The fog factor (measured, ge-vertex-pipeline.md "Fog", ge-arithmetic.md
 * "The adder"): f = (viewZ + FOG1) * FOG2, the view-space z a row sum over
 * the world x view z row (the combined matrix, like the transform), FOG1
 * added with the GE adder, then the product. The row is kept per draw. */
static void fog_fold(const gefloat wv[12], gefloat f1, gefloat f2, gefloat row[4], gefloat *end, gefloat *slope)
{
    row[0] = wv[2], row[1] = wv[5], row[2] = wv[8], row[3] = wv[11];
    *end = f1, *slope = f2;
}

/* ---- Setup ---- */

static void setup_light(struct gt_light_state *ls, const struct ge_state *st, unsigned i)
{
    struct gt_light *l = &ls->light[i];
    uint32_t type = ge_reg(st, GE_LIGHT_TYPE0 + i);
    l->enabled = ge_reg(st, GE_LIGHT0_ON + i) & 1;
    unsigned comp = type & 3, kind = (type >> 8) & 3;
    l->comp = comp == 3 ? GT_LIGHT_DIFFUSE : (enum gt_light_comp)comp;
    l->kind = kind == 3 ? GT_LIGHT_SPOT : (enum gt_light_kind)kind;

    gefloat lv[3], ld[3];
    for (unsigned c = 0; c < 3; c++) {
        lv[c] = reg_f(st, LC_POS + 3 * i + c);
        ld[c] = reg_f(st, LC_DIR + 3 * i + c);
        l->att[c] = reg_f(st, LC_ATT + 3 * i + c);
        l->lmt[c] = light_minus_translation(lv[c], ls->world[9 + c]);
    }
    /* Directional lights: the light vector normalised, zero staying zero
     * (measured). The spot direction is used unnormalised: dot(dir, L)
     * rsqrt(dir . dir) per vertex. */
    light_normalize(lv, l->dir, false);
    memcpy(l->spot_dir, ld, sizeof ld);
    l->spot_len2 = gemath_dot3(ld, ld);
    l->spot_exp = positive_or_zero(reg_f(st, LC_SPOT_EXP + i));
    /* A NaN cutoff with the sign bit counts as 0 (PPSSPP, docs/notes §5.3);
     * other non-finite values are +-GEMATH_MAX by the special-value policy. */
    l->spot_cutoff = reg_nan(st, LC_SPOT_CUT + i) && reg_sign(st, LC_SPOT_CUT + i)
                         ? GEMATH_ZERO
                         : reg_f(st, LC_SPOT_CUT + i);
    reg_rgb(st, LC_COLOR + 3 * i, l->ambient);
    reg_rgb(st, LC_COLOR + 3 * i + 1, l->diffuse);
    reg_rgb(st, LC_COLOR + 3 * i + 2, l->specular);
}

void light_setup_wv(struct gt_light_state *ls, const struct ge_state *st, const gefloat wv[12])
{
    memset(ls, 0, sizeof *ls);
    for (int k = 0; k < 12; k++) {
        ls->world[k] = gemath_trunc(st->world[k]);
        ls->tgen[k] = gemath_trunc(st->tgen[k]);
    }
    for (int k = 0; k < 9; k++) ls->neg_world[k] = gemath_neg(ls->world[k]);
    light_viewer(st->view, ls->viewer);

    ls->lighting = ge_reg(st, GE_LIGHTING_ON) & 1;
    ls->separate_specular = ge_reg(st, GE_LIGHT_MODE) & 1;
    ls->mat_update = ge_reg(st, GE_MATERIAL_UPDATE) & 7;
    reg_rgb(st, LC_MAT_EMISSIVE, ls->emissive);
    reg_rgb(st, LC_MAT_AMBIENT, ls->mat_ambient);
    ls->mat_ambient[3] = (uint8_t)ge_reg(st, LC_MAT_ALPHA);
    reg_rgb(st, LC_MAT_DIFFUSE, ls->mat_diffuse);
    reg_rgb(st, LC_MAT_SPECULAR, ls->mat_specular);
    reg_rgb(st, LC_AMBIENT, ls->ambient);
    ls->ambient[3] = (uint8_t)ge_reg(st, LC_AMBIENT_ALPHA);
    ls->spec_coef = positive_or_zero(reg_f(st, LC_SPEC_COEF));
    for (unsigned i = 0; i < 4; i++) setup_light(ls, st, i);

    uint32_t map = ge_reg(st, GE_TEX_MAPMODE), shade = ge_reg(st, GE_TEX_SHADE);
    ls->map_mode = (map & 3) == 3 ? GT_TEXMAP_UV : (enum gt_texmap)(map & 3);
    ls->proj_src = (enum gt_texproj)((map >> 8) & 3);
    ls->shade_light[0] = shade & 3;
    ls->shade_light[1] = (shade >> 8) & 3;

    ls->fog = ge_reg(st, GE_FOG_ON) & 1;
    ls->fog_value = GEMATH_ONE;
    if (ls->fog) {
        gefloat f1 = reg_f(st, GE_FOG1), f2 = reg_f(st, GE_FOG2);
        if (reg_nonfinite(st, GE_FOG1)) {
            /* docs/notes §7 (PPSSPP): a constant factor for the whole draw,
             * 0 when the signs of FOG1 and FOG2 differ or FOG2 is zero. */
            bool zero = reg_sign(st, GE_FOG1) != reg_sign(st, GE_FOG2) ||
                        gemath_cmp(f2, GEMATH_ZERO) == 0;
            ls->fog_const = true;
            ls->fog_value = zero ? GEMATH_ZERO : GEMATH_ONE;
        } else {
            if (reg_nonfinite(st, GE_FOG2))
                f2 = reg_sign(st, GE_FOG2) ? gemath_neg(FOG_SLOPE_NONFINITE) : FOG_SLOPE_NONFINITE;
            fog_fold(wv, f1, f2, ls->fog_row, &ls->fog_end, &ls->fog_slope);
        }
    }
}

/* ---- Lighting ---- */

void light_vertex(const struct gt_light_state *ls, const gefloat pos[3], const gefloat nrm[3],
                  const uint8_t color[4], bool has_color, uint8_t color0[4], uint8_t color1[4])
{
    uint8_t vc[4];
    if (has_color)
        memcpy(vc, color, 4);
    else
        memcpy(vc, ls->mat_ambient, 4); /* material ambient RGB + material alpha */
    memset(color1, 0, 4);
    if (!ls->lighting) {
        memcpy(color0, vc, 4);
        return;
    }
    /* MATERIAL_UPDATE counts only when the vertex has a color (§5.1). */
    unsigned upd = has_color ? ls->mat_update : 0;
    const uint8_t *mamb = (upd & 1) ? vc : ls->mat_ambient;
    const uint8_t *mdif = (upd & 2) ? vc : ls->mat_diffuse;
    const uint8_t *mspe = (upd & 4) ? vc : ls->mat_specular;

    /* Emissive (alpha 0) plus material ambient x global ambient, alpha
     * included: the HW §3 product. */
    int sum[4], spec[3] = {0, 0, 0};
    for (int c = 0; c < 3; c++) sum[c] = ls->emissive[c] + gemath_mul8(mamb[c], ls->ambient[c]);
    sum[3] = gemath_mul8(mamb[3], ls->ambient[3]);

    /* The world normal, never normalised on its own: N . v is divided by
     * its length, float24(dot(v, N) rsqrt(N . N)) (measured, ge-lighting.md
     * "Space"); a zero normal gives no diffuse and no specular. */
    gefloat n[3], n_r = GEMATH_ZERO;
    bool have_n = false, n_zero = true;
    for (unsigned i = 0; i < 4; i++) {
        const struct gt_light *l = &ls->light[i];
        if (!l->enabled) continue;
        if (!have_n) {
            n_r = light_world_normal_raw(ls, nrm, n);
            n_zero = n_r == GEMATH_ZERO;
            have_n = true;
        }
        gefloat L[3], att = GEMATH_ONE, spot = GEMATH_ONE;
        if (l->kind == GT_LIGHT_DIRECTIONAL) {
            memcpy(L, l->dir, sizeof L);
        } else {
            gefloat D[3];
            light_vector(ls, i, pos, D);
            gefloat len2 = light_normalize(D, L, false), d = GEMATH_ZERO;
            if (gemath_cmp(len2, GEMATH_ZERO) != 0) d = gemath_mul(len2, gemath_rsqrt(len2));
            att = light_attenuation(l->att, d, len2);
        }
        if (l->kind == GT_LIGHT_SPOT) {
            /* The spot direction unnormalised (measured): cos =
             * float24(dot(dir, L) rsqrt(dir . dir)), then pow(cos, exponent)
             * inside the cone; a negative factor scales by 0. */
            gefloat c = gemath_cmp(l->spot_len2, GEMATH_ZERO) == 0
                            ? GEMATH_ZERO
                            : gemath_mul(gemath_dot3(l->spot_dir, L), gemath_rsqrt(l->spot_len2));
            spot = gemath_cmp(c, l->spot_cutoff) >= 0 ? gemath_spec_pow(c, l->spot_exp) : GEMATH_ZERO;
        }
        /* Attenuation and spot scale one after the other (measured). */
        const struct light_scaling k = {light_factor(att), light_factor(spot), gemath_mul(att, spot)};
        for (int c = 0; c < 3; c++) sum[c] += light_term(&k, l->ambient[c], mamb[c], GEMATH_ONE, 256);
        if (n_zero) continue;

        gefloat nl = gemath_mul(gemath_dot3(n, L), n_r);
        gefloat nl_raw = nl;
        /* Powered diffuse: N.L through the lighting pow with the specular
         * coefficient (measured). */
        if (l->comp == GT_LIGHT_POWERED_DIFFUSE) nl = gemath_spec_pow(nl, ls->spec_coef);
        if (gemath_cmp(nl, GEMATH_ZERO) > 0) {
            uint16_t s = light_factor(nl);
            for (int c = 0; c < 3; c++) sum[c] += light_term(&k, l->diffuse[c], mdif[c], nl, s);
        }
        if (l->comp == GT_LIGHT_DIFFUSE_SPECULAR && gemath_cmp(nl_raw, GEMATH_ZERO) >= 0) {
            /* H = normalize(L + V), V from the view matrix (measured); a zero
             * L leaves H = normalize(V). */
            gefloat h[3], hn[3];
            for (int c = 0; c < 3; c++) h[c] = gemath_add(L[c], ls->viewer[c]);
            light_normalize(h, hn, false);
            gefloat sp = gemath_spec_pow(gemath_mul(gemath_dot3(n, hn), n_r), ls->spec_coef);
            if (gemath_cmp(sp, GEMATH_ZERO) > 0) {
                uint16_t s = light_factor(sp);
                for (int c = 0; c < 3; c++) spec[c] += light_term(&k, l->specular[c], mspe[c], sp, s);
            }
        }
    }

    if (ls->separate_specular) {
        for (int c = 0; c < 3; c++) {
            color0[c] = clamp255(sum[c]);
            color1[c] = clamp255(spec[c]);
        }
    } else {
        for (int c = 0; c < 3; c++) color0[c] = clamp255(sum[c] + spec[c]);
    }
    color0[3] = clamp255(sum[3]);
}

/* ---- Texture coordinates ---- */

/* Shade mapping (measured, ge-lighting.md "Shade mapping"): the light's
 * vector L' = normalize(directional ? light position : vertex-to-light
 * vector), zero staying zero, then normalize(L' + V) for a diffuse +
 * specular light; the coordinate (N . L' / |N| + 1) / 2, the + 1 from the
 * GE adder. Independent of lighting, the light being on, its exponent and
 * cone. */
static gefloat shade_coord(const struct gt_light_state *ls, unsigned i, const gefloat pos[3], const gefloat n[3],
                           gefloat n_r)
{
    const struct gt_light *l = &ls->light[i & 3];
    gefloat L[3];
    if (l->kind == GT_LIGHT_DIRECTIONAL) {
        memcpy(L, l->dir, sizeof L);
    } else {
        gefloat D[3];
        light_vector(ls, i, pos, D);
        light_normalize(D, L, false);
    }
    if (l->comp == GT_LIGHT_DIFFUSE_SPECULAR) {
        gefloat h[3];
        for (int c = 0; c < 3; c++) h[c] = gemath_add(L[c], ls->viewer[c]);
        light_normalize(h, L, false);
    }
    gefloat nl = gemath_mul(gemath_dot3(n, L), n_r);
    return gemath_mul(gemath_add(nl, GEMATH_ONE), GEMATH_HALF);
}

void texgen_vertex(const struct gt_light_state *ls, const gefloat pos[3], const gefloat nrm[3],
                   const gefloat uv[2], const gefloat raw_uv[2], gefloat stq[3])
{
    switch (ls->map_mode) {
    case GT_TEXMAP_MATRIX: {
        gefloat src[4] = {GEMATH_ZERO, GEMATH_ZERO, GEMATH_ZERO, GEMATH_ONE};
        switch (ls->proj_src) {
        case GT_TEXPROJ_POSITION:
            memcpy(src, pos, 3 * sizeof *src);
            break;
        case GT_TEXPROJ_UV:
            src[0] = raw_uv[0];
            src[1] = raw_uv[1];
            break;
        case GT_TEXPROJ_NORMALIZED:
            /* No (0, 0, 1) fallback (PPSSPP gives NaN for a zero normal;
             * here rsqrt(0) is the largest value and the normal stays 0). */
            light_normalize(nrm, src, false);
            break;
        case GT_TEXPROJ_NORMAL:
            memcpy(src, nrm, 3 * sizeof *src);
            break;
        }
        /* The texture matrix applied as a point: one row sum per output. */
        gemath_mat43_apply(ls->tgen, src, stq);
        return;
    }
    case GT_TEXMAP_SHADE: {
        gefloat n[3];
        gefloat n_r = light_world_normal_raw(ls, nrm, n);
        stq[0] = shade_coord(ls, ls->shade_light[0], pos, n, n_r);
        stq[1] = shade_coord(ls, ls->shade_light[1], pos, n, n_r);
        /* Model choice, not measured: q = 1 (PPSSPP leaves q untouched; it
         * is not used outside texture-matrix mapping). */
        stq[2] = GEMATH_ONE;
        return;
    }
    case GT_TEXMAP_UV:
    default:
        stq[0] = gemath_trunc(uv[0]);
        stq[1] = gemath_trunc(uv[1]);
        stq[2] = GEMATH_ONE;
        return;
    }
}

/* ---- Fog ---- */

gefloat fog_vertex(const struct gt_light_state *ls, const gefloat pos[3])
{
    if (!ls->fog || ls->fog_const) return ls->fog_value;
    const gefloat p[4] = {pos[0], pos[1], pos[2], GEMATH_ONE};
    return gemath_mul(gemath_add(gemath_dot4(ls->fog_row, p), ls->fog_end), ls->fog_slope);
}

/* The fog factor to 8 bits (docs/notes §7): negative (and -0) -> 0,
 * >= 1 -> 255, otherwise floor(f * 256). */
uint8_t fog_to8(gefloat f)
{
    f = gemath_trunc(f);
    if (f >> 31) return 0;
    if (gemath_cmp(f, GEMATH_ONE) >= 0) return 255;
    return (uint8_t)gemath_to_fixed(f, 8); /* < 256 as f < 1 */
}

void light_setup(struct gt_light_state *ls, const struct ge_state *st)
{
    gefloat wv[12];
    gemath_mat43_mul_mat43(st->world, st->view, wv);
    light_setup_wv(ls, st, wv);
}
