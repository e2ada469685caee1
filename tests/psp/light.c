/* Port of pspautotests tests/gpu/commands/light.cpp: 2x2 boxes in a row
 * from (2, 2), each a lit 3D triangle fan of white vertices with normal
 * (0, 0, boxNormZ), lit by light 0 of one type (directional, point, spot)
 * and one component set (ambient + diffuse, + specular, powered diffuse),
 * placed just over the box (or at a given position) plus an offset; after
 * each group the frame is finished and every box's top-left pixel printed
 * (%06x), and a new frame (cleared to black) begins. */
#include "psp/ports.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "psp/cmdshared.h"
#include "psp/verts.h"

enum {
    LK_DIREC = 0x01, LK_POINT = 0x02, LK_SPOT = 0x04, LK_TYPE_ALL = 0x07,
    LK_ONLYDIFFUSE = 0x10, LK_BOTH = 0x20, LK_POWDIFFUSE = 0x40, LK_MODE_ALL = 0x70,
    LK_ALL = 0x77,
};

#define MAX_BOXES 64

struct lt {
    struct cmd_env e;
    uint32_t row;
    int next_x, next_y;
    float norm_z;
    int nbox, box_x[MAX_BOXES], box_y[MAX_BOXES];
    char title[MAX_BOXES][256];
};

static float norm32x(int x) { return 2.0f * (float)x / 480 - 1.0f; }

static void draw_box(struct lt *t, const char title[256])
{
    int x = t->next_x, y = t->next_y;
    const uint32_t col = 0xFFFFFFFF;
    struct pverts v;
    pv_init(&v, GU_COLOR_8888 | GU_NORMAL_16BIT | GU_VERTEX_16BIT | GU_TRANSFORM_3D);
    pv_cnp(&v, col, 0, 0, t->norm_z, x, y, 0);
    pv_cnp(&v, col, 0, 0, t->norm_z, x + 2, y, 0);
    pv_cnp(&v, col, 0, 0, t->norm_z, x + 2, y + 2, 0);
    pv_cnp(&v, col, 0, 0, t->norm_z, x, y + 2, 0);
    uint32_t mem = gu_get_memory(&t->e.g, (int)v.n);
    pv_store(&v, t->e.p, mem);
    gu_draw_array(&t->e.g, GU_TRIANGLE_FAN, v.vtype, 4, 0, mem);
    if (t->nbox < MAX_BOXES) {
        t->box_x[t->nbox] = x, t->box_y[t->nbox] = y;
        snprintf(t->title[t->nbox], sizeof t->title[0], "%.250s", title);
        t->nbox++;
    } else {
        psp_fail(t->e.p, "more boxes than the port keeps");
    }
    t->next_x += 2;
    if (t->next_x >= 480) {
        t->next_x = 0;
        t->next_y += 2;
    }
}

static void log_boxes(struct lt *t)
{
    cmd_end_frame(&t->e);
    for (int i = 0; i < t->nbox; i++) {
        psp_dmac_memcpy(t->e.p, t->row, PSP_EDRAM + (uint32_t)t->box_y[i] * 512 * 4, 512 * 4);
        psp_checkpoint(t->e.p, "%s: %06x", t->title[i], psp_read32(t->e.p, t->row + 4 * (uint32_t)t->box_x[i]));
    }
    t->nbox = 0;
    cmd_start_frame(&t->e);
}

static void reset_light_state(struct lt *t)
{
    struct gu *g = &t->e.g;
    gu_light_att(g, 0, 1.0f, 0.0f, 0.0f);
    gu_light_mode(g, GU_SINGLE_COLOR);
    gu_light_color(g, 0, GU_AMBIENT, 0xFF0000);
    gu_light_color(g, 0, GU_DIFFUSE, 0x00FF00);
    gu_light_color(g, 0, GU_SPECULAR, 0x0000FF);
    static const float ldir0[3] = {0.0f, 0.0f, 1.0f};
    gu_light_spot(g, 0, ldir0, 1.0f, 0.0f);
    gu_specular(g, 1.0f);
    gu_model_color(g, 0x000000, 0xFFFFFF, 0xFFFFFF, 0xFFFFFF);
    gu_color_material(g, 0);
    t->norm_z = 1.0f;
}

/* drawLight: light 0 at pos (NULL: over the next box) plus add, one box. */
static void draw_light(struct lt *t, const char *title, const char *subtitle, int type, int components, const float *pos,
                       const float add[3])
{
    float p[3];
    if (pos) {
        memcpy(p, pos, sizeof p);
    } else { /* calcNextLightPos */
        p[0] = norm32x(t->next_x + 1);
        p[1] = -norm32x(t->next_y + 1);
        p[2] = 0.0f;
    }
    for (int i = 0; i < 3; i++) p[i] += add[i];
    gu_light(&t->e.g, 0, type, components, p);
    char full[256];
    snprintf(full, sizeof full, "%.100s - %.100s", title, subtitle);
    draw_box(t, full);
}

static void light_types(struct lt *t, const char *title, const float add[3], int kinds)
{
    static const float zero[3] = {0.0f, 0.0f, 0.0f};
    static const struct { int kind; const char *name; int type, comp, at_zero; } k[9] = {
        {LK_DIREC | LK_ONLYDIFFUSE, "Direc A + D", GU_DIRECTIONAL, GU_AMBIENT_AND_DIFFUSE, 1},
        {LK_DIREC | LK_BOTH, "Direc A + D + pow(S)", GU_DIRECTIONAL, GU_DIFFUSE_AND_SPECULAR, 1},
        {LK_DIREC | LK_POWDIFFUSE, "Direc A + pow(D)", GU_DIRECTIONAL, GU_POWERED_DIFFUSE, 1},
        {LK_POINT | LK_ONLYDIFFUSE, "Point A + D", GU_POINTLIGHT, GU_AMBIENT_AND_DIFFUSE, 0},
        {LK_POINT | LK_BOTH, "Point A + D + pow(S)", GU_POINTLIGHT, GU_DIFFUSE_AND_SPECULAR, 0},
        {LK_POINT | LK_POWDIFFUSE, "Point A + pow(D)", GU_POINTLIGHT, GU_POWERED_DIFFUSE, 0},
        {LK_SPOT | LK_ONLYDIFFUSE, "Spot A + D", GU_SPOTLIGHT, GU_AMBIENT_AND_DIFFUSE, 0},
        {LK_SPOT | LK_BOTH, "Spot A + D + pow(S)", GU_SPOTLIGHT, GU_DIFFUSE_AND_SPECULAR, 0},
        {LK_SPOT | LK_POWDIFFUSE, "Spot A + pow(D)", GU_SPOTLIGHT, GU_POWERED_DIFFUSE, 0},
    };
    for (int i = 0; i < 9; i++)
        if ((kinds & k[i].kind) == k[i].kind) draw_light(t, title, k[i].name, k[i].type, k[i].comp, k[i].at_zero ? zero : NULL, add);
    log_boxes(t);
}

static void vec(float v[3], float x, float y, float z) { v[0] = x, v[1] = y, v[2] = z; }

static void test_diffuse(struct lt *t)
{
    float add[3];
    reset_light_state(t);
    psp_label(t->e.p, "Diffuse 1.0");
    light_types(t, "  Diffuse 1.0", (vec(add, 0, 0, 1.0f), add), LK_ALL);
    psp_label(t->e.p, "Diffuse 0.0");
    light_types(t, "  Diffuse 0.0", (vec(add, 0.5f, 0.5f, 0), add), LK_ALL);
    psp_label(t->e.p, "Diffuse 0.5");
    light_types(t, "  Diffuse 0.5", (vec(add, 1.0f, 1.0f, 0.817f), add), LK_ALL);
    psp_label(t->e.p, "Diffuse -0.5, specular 0.5");
    light_types(t, "  Diffuse -0.5", (vec(add, 1.0f, 1.0f, -0.817f), add), LK_ALL);
}

static void test_attenuation(struct lt *t)
{
    struct gu *g = &t->e.g;
    float add[3];
    static const float d111[3] = {1, 1, 1}, d001[3] = {0, 0, 1};
    psp_label(t->e.p, "Attenuation");
    reset_light_state(t);
    vec(add, 0, 0, 2.0f);
    gu_light_att(g, 0, 0.0f, 1.0f, 0.0f);
    light_types(t, "  Attenuation 0.5", add, LK_ALL);
    gu_light_att(g, 0, 0.0f, 0.0f, 1.0f);
    light_types(t, "  Attenuation pow(0.5)", add, LK_ALL);
    vec(add, 0, 0, 0.001f);
    gu_light_att(g, 0, 0.0f, 1.0f, 0.0f);
    gu_light_spot(g, 0, d111, 1.0f, 0.0f);
    light_types(t, "  Attenuation large", add, LK_ALL);
    vec(add, 0, 0, 1000.0f);
    gu_light_att(g, 0, 0.0f, 1.0f, 0.0f);
    gu_light_spot(g, 0, d001, 1.0f, 0.0f);
    light_types(t, "  Attenuation tiny", add, LK_ALL);
    vec(add, 0, 0, 1.0f);
    gu_light_att(g, 0, -1.0f, 0.0f, 0.0f);
    light_types(t, "  Attenuation -1.0", add, LK_ALL);
}

static void test_spots(struct lt *t)
{
    struct gu *g = &t->e.g;
    const float v000[3] = {0, 0, 0}, v001[3] = {0, 0, 1}, v00n[3] = {0, 0, -1}, v100[3] = {1, 0, 0}, v111[3] = {1, 1, 1};
    const float vnan[3] = {NAN, NAN, NAN}, vnnan[3] = {-NAN, -NAN, -NAN};
    const float vinf[3] = {INFINITY, INFINITY, INFINITY}, vninf[3] = {-INFINITY, -INFINITY, -INFINITY};
    const int sk = LK_SPOT | LK_MODE_ALL;
    reset_light_state(t);
    psp_label(t->e.p, "Spot direction");
    gu_light_spot(g, 0, v111, 1.0f, 0.0f);
    light_types(t, "  Spot z=1", v001, sk);
    light_types(t, "  Spot z=-1", v00n, sk);
    light_types(t, "  Spot xyz=1", v111, sk);
    gu_light_spot(g, 0, v001, 1.0f, 0.0f);
    light_types(t, "  Spot z=0", v100, sk);
    gu_light_spot(g, 0, v000, 1.0f, 0.0f);
    light_types(t, "  Spot zero vector", v111, sk);
    gu_light_spot(g, 0, vnan, 1.0f, 0.0f);
    light_types(t, "  Spot NAN", v111, sk);
    gu_light_spot(g, 0, vnnan, 1.0f, 0.0f);
    light_types(t, "  Spot -NAN", v111, sk);
    gu_light_spot(g, 0, vinf, 1.0f, 0.0f);
    light_types(t, "  Spot INFINITY", v111, sk);
    gu_light_spot(g, 0, vninf, 1.0f, 0.0f);
    light_types(t, "  Spot -INFINITY", v111, sk);

    psp_label(t->e.p, "Spot exponent");
    static const struct { float e; const char *name; } ex[8] = {
        {2.0f, "  Spot e=2"}, {0.5f, "  Spot e=0.5"}, {0.0f, "  Spot e=0.0"}, {0.0f, "  Spot zero vector e=0.0"},
        {NAN, "  Spot e=NAN"}, {-NAN, "  Spot e=-NAN"}, {INFINITY, "  Spot e=INF"}, {-INFINITY, "  Spot e=-INF"},
    };
    for (int i = 0; i < 8; i++) {
        gu_light_spot(g, 0, i == 3 ? v000 : v111, ex[i].e, 0.0f);
        light_types(t, ex[i].name, v001, sk);
    }

    psp_label(t->e.p, "Spot cutoff");
    gu_light_spot(g, 0, v00n, 0.0f, -100.0f);
    light_types(t, "  Spot negative cutoff + e=0.0", v001, sk);
    gu_light_spot(g, 0, v00n, 2.0f, -100.0f);
    light_types(t, "  Spot negative cutoff + e=2.0", v001, sk);
    static const struct { float c; const char *name; } cut[6] = {
        {1.0f, "  Spot 1.0 cutoff=1.0"}, {2.0f, "  Spot 1.0 cutoff=2.0"}, {-NAN, "  Spot 1.0 cutoff=-NAN"},
        {-INFINITY, "  Spot 1.0 cutoff=-INF"}, {NAN, "  Spot 1.0 cutoff=NAN"}, {INFINITY, "  Spot 1.0 cutoff=INF"},
    };
    for (int i = 0; i < 6; i++) {
        gu_light_spot(g, 0, v001, 0.0f, cut[i].c);
        light_types(t, cut[i].name, v001, sk);
    }
}

static void test_powered_diffuse(struct lt *t)
{
    struct gu *g = &t->e.g;
    const float v001[3] = {0, 0, 1}, v00n[3] = {0, 0, -1}, v111[3] = {1, 1, 1}, d05[3] = {1, 1, 0.817f};
    const int pk = LK_TYPE_ALL | LK_POWDIFFUSE;
    reset_light_state(t);
    psp_label(t->e.p, "Powered diffuse");
    light_types(t, "  Diffuse 1.0 pow e=1.0", v001, pk);
    gu_specular(g, 0.0f);
    light_types(t, "  Diffuse 1.0 pow e=0.0", v001, pk);
    gu_specular(g, 0.0f);
    gu_light_spot(g, 0, v111, 0.0f, -100.0f);
    light_types(t, "  Diffuse -1.0 pow e=0.0", v00n, pk);
    gu_specular(g, 2.0f);
    light_types(t, "  Diffuse -1.0 pow e=2.0", v00n, pk);
    gu_light_spot(g, 0, v001, 1.0f, 0.0f);
    gu_specular(g, 2.0f);
    light_types(t, "  Diffuse 0.5 pow e=2.0", d05, pk);
    gu_specular(g, 0.5f);
    light_types(t, "  Diffuse 0.5 pow e=0.5", d05, pk);
    gu_specular(g, -1.0f);
    light_types(t, "  Diffuse 0.5 pow e=-1.0", d05, pk);
}

static void test_specular(struct lt *t)
{
    struct gu *g = &t->e.g;
    const float v111[3] = {1, 1, 1}, d0[3] = {0.5f, 0.5f, 0}, d05[3] = {1, 1, 0.817f}, dn[3] = {1, 1, -0.817f};
    const int bk = LK_TYPE_ALL | LK_BOTH;
    reset_light_state(t);
    psp_label(t->e.p, "Specular");
    gu_light_spot(g, 0, v111, 0.0f, -100.0f);
    gu_specular(g, 0.0f);
    light_types(t, "  Diffuse 0.0 spec e=0.0", d0, bk);
    light_types(t, "  Diffuse -0.5 spec e=0.0", dn, bk);
    gu_specular(g, 0.5f);
    light_types(t, "  Diffuse 0.5 spec e=0.5", d05, bk);
    gu_specular(g, 2.0f);
    light_types(t, "  Diffuse 0.5 spec e=2.0", d05, bk);
    gu_specular(g, -2.0f);
    light_types(t, "  Diffuse 0.5 spec e=-2.0", d05, bk);
    t->norm_z = -1.0f;
    gu_specular(g, 0.0f);
    light_types(t, "  Diffuse 0.5 spec=-0.5 e=0.0", dn, bk);
    gu_specular(g, 1.0f);
    light_types(t, "  Diffuse 0.5 spec=-0.5 e=1.0", dn, bk);
    gu_specular(g, 2.0f);
    light_types(t, "  Diffuse 0.5 spec=-0.5 e=2.0", dn, bk);
}

int psp_commands_light(struct psp *p)
{
    static struct lt t;
    memset(&t, 0, sizeof t);
    t.next_x = t.next_y = 2;
    t.norm_z = 1.0f;
    cmd_init_display(&t.e, p);
    t.row = psp_alloc(p, 16, 512 * 4);
    struct gu *g = &t.e.g;
    cmd_start_frame(&t.e); /* draw() */
    gu_disable(g, 3);      /* sceGuDisable(GU_TEXTURE): 3 is GU_STENCIL_TEST */
    gu_disable(g, GU_BLEND);
    gu_clear_color(g, 0x003F3F3F);
    gu_clear_stencil(g, 0);
    gu_clear(g, GU_COLOR_BUFFER_BIT | GU_STENCIL_BUFFER_BIT);
    gu_enable(g, GU_LIGHTING);
    gu_enable(g, GU_LIGHT0);
    test_diffuse(&t);
    test_attenuation(&t);
    test_spots(&t);
    test_powered_diffuse(&t);
    test_specular(&t);
    log_boxes(&t);
    cmd_end_frame(&t.e);
    gu_term(g);
    return 0;
}
