/* Render contexts and display readout (see render.h). */
#include "render.h"

#include "compat.h"

#include "bbox.h"
#include "texture.h"

#include <string.h>

/* A PRIM kick goes through vertex decode, transform and assembly into the
 * binner; BEZIER and SPLINE are tessellated, then assembled the same way;
 * VAP draws immediate vertices. The binner first snapshots the draw's state
 * and flushes what the draw must not overtake. BBOX runs its test. */
static int run_kick(void *ctx, struct ge *ge, uint32_t word, struct gt_diag *d)
{
    struct gt_render *r = ctx;
    int rc;
    unsigned cmd = word >> 24;
    if (cmd == GE_PRIM || cmd == GE_BEZIER || cmd == GE_SPLINE || cmd == GE_BBOX) binner_vertex_reads(&r->binner, &ge->st);
    switch (cmd) {
    case GE_PRIM:
        r->stats.prims_by_type[(word >> 16) & 7]++;
        if ((rc = binner_draw(&r->binner, &ge->st, d)) < 0) return rc;
        return asm_prim(&r->assembler, &ge->st, ge->mem, word, binner_prim, &r->binner, d);
    case GE_BEZIER:
    case GE_SPLINE: {
        uint64_t before = r->assembler.stats.patch_vertices;
        r->stats.curves++;
        if ((rc = binner_draw(&r->binner, &ge->st, d)) < 0) return rc;
        rc = asm_patch(&r->assembler, &ge->st, ge->mem, word, binner_prim, &r->binner, d);
        /* Generated vertices are work: they count against the step budget. */
        ge->stats.steps += r->assembler.stats.patch_vertices - before;
        return rc;
    }
    case GE_BBOX:
        ge->list.bbox_result = bbox_test(&ge->st, ge->mem, word & 0xFFFF);
        return GT_OK;
    case GE_VAP: {
        /* The flags of the first vertex of a primitive hold for all of it. */
        uint32_t flags = ((word >> 8) & 7) != 7 ? (word >> 11) & 0x1FFF : r->assembler.imm_flags;
        if ((rc = binner_draw_imm(&r->binner, &ge->st, flags, d)) < 0) return rc;
        return asm_immediate(&r->assembler, &ge->st, word, binner_prim, &r->binner, d);
    }
    default:
        return GT_OK;
    }
}

/* TEXFLUSH empties the texture cache (GE-HARDWARE.md §6). */
static void run_texflush(void *ctx, struct ge *ge)
{
    struct gt_render *r = ctx;
    binner_texflush(&r->binner);
}

/* Memory is about to be read or written outside the drawing: finish the
 * drawing that touches it. */
static int run_sync(void *ctx, struct ge *ge, uint32_t addr, uint32_t len, bool write, struct gt_diag *d)
{
    struct gt_render *r = ctx;
    binner_sync(&r->binner, addr, len, write);
    return GT_OK;
}

int gt_render_init(struct gt_render *r, struct gt_diag *d)
{
    gt_compat_init(); /* the diagnostic build reads its switches once (compat.h) */
    memset(r, 0, sizeof *r);
    int rc = mem_init(&r->mem, d);
    if (rc < 0) return rc;
    ge_init(&r->ge, &r->mem);
    r->ge.hooks.ctx = r;
    r->ge.hooks.kick = run_kick;
    r->ge.hooks.sync = run_sync;
    r->ge.hooks.texflush = run_texflush;
    asm_init(&r->assembler);
    /* Vertex work spreads over the binner's threads (par.h). */
    r->assembler.par.run = workers_parallel;
    r->assembler.par.pctx = &r->binner.workers;
    if ((rc = binner_init(&r->binner, &r->mem, 1, GT_TILE_SIZE_DEFAULT, d)) < 0) {
        mem_free(&r->mem);
        return rc;
    }
    r->display.addr = GT_VRAM_BASE;
    r->display.stride = GT_IMAGE_STRIDE;
    r->display.format = 3;
    return GT_OK;
}

void gt_render_free(struct gt_render *r)
{
    binner_free(&r->binner);
    mem_free(&r->mem);
}

int gt_render_set_threads(struct gt_render *r, unsigned threads, unsigned tile_size, struct gt_diag *d)
{
    binner_finish(&r->binner);
    struct binner_stats keep = r->binner.stats;
    binner_free(&r->binner);
    int rc = binner_init(&r->binner, &r->mem, threads, tile_size, d);
    if (rc < 0) {
        struct gt_diag ignore;
        binner_free(&r->binner);
        binner_init(&r->binner, &r->mem, 1, GT_TILE_SIZE_DEFAULT, &ignore);
    }
    r->binner.stats = keep;
    return rc;
}

void gt_render_finish(struct gt_render *r)
{
    binner_finish(&r->binner);
}

int gt_render_list(struct gt_render *r, uint32_t pc, struct gt_diag *d)
{
    ge_list_start(&r->ge, pc, 0);
    int rc = ge_run(&r->ge, d);
    gt_render_finish(r);
    if (rc < 0) return rc;
    if (r->ge.list.state == GE_LIST_STALLED)
        return gt_fail(d, GT_ELIST_ERROR, "display list stalled at 0x%08x", r->ge.list.pc);
    return GT_OK;
}

void gt_render_display_rgba(const struct gt_render *r, uint8_t *out, bool keep_alpha)
{
    const struct gt_display *dp = &r->display;
    unsigned bpp = dp->format == 3 ? 4 : 2;
    memset(out, 0, (size_t)GT_IMAGE_STRIDE * GT_DISPLAY_HEIGHT * 4);
    for (unsigned y = 0; y < GT_DISPLAY_HEIGHT; y++) {
        uint8_t *o = out + (size_t)y * GT_IMAGE_STRIDE * 4;
        for (unsigned x = 0; x < GT_DISPLAY_WIDTH; x++, o += 4) {
            uint32_t a = dp->addr + (y * dp->stride + x) * bpp;
            uint32_t p = bpp == 4 ? mem_read32(&r->mem, a) : mem_read16(&r->mem, a);
            /* The framebuffer formats are the 16/32-bit texture formats. */
            switch (dp->format) {
            case 0: p = tex_expand_5650((uint16_t)p); break;
            case 1: p = tex_expand_5551((uint16_t)p); break;
            case 2: p = tex_expand_4444((uint16_t)p); break;
            default: break;
            }
            o[0] = (uint8_t)p, o[1] = (uint8_t)(p >> 8), o[2] = (uint8_t)(p >> 16), o[3] = (uint8_t)(p >> 24);
        }
    }
    if (!keep_alpha)
        for (size_t i = 3; i < (size_t)GT_IMAGE_STRIDE * GT_DISPLAY_HEIGHT * 4; i += 4) out[i] = 255;
}

void gt_render_depth(const struct gt_render *r, uint16_t *out)
{
    /* Read through the view that undoes the scramble of the current colour
     * format (mem_vram_view_offset): the values in screen order. */
    uint32_t view = GT_VRAM_BASE + (ge_fb_format(&r->ge.st) == 3 ? 0x600000u : 0x200000u);
    uint32_t base = ge_z_addr(&r->ge.st), stride = ge_z_stride(&r->ge.st);
    for (unsigned y = 0; y < GT_DISPLAY_HEIGHT; y++)
        for (unsigned x = 0; x < GT_DISPLAY_WIDTH; x++) {
            uint32_t lin = (base + (y * stride + x) * 2) & (GT_VRAM_SIZE - 1);
            out[y * GT_DISPLAY_WIDTH + x] = mem_read16(&r->mem, view + lin);
        }
}
