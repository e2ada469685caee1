/* Scenes, bins and the scene arena (scene.h). */
#include "scene.h"

#include <stdlib.h>
#include <string.h>

#include "../pipeline/gt_error.h"

struct arena_chunk {
    struct arena_chunk *next;
    size_t size;
    _Alignas(16) unsigned char data[];
};

/* Standard chunks an arena keeps for its next scenes. */
#define GT_ARENA_SPARE 8

void *arena_alloc(struct arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (!a->head || a->used + n > a->head->size) {
        if (a->fail_after && ++a->allocs >= a->fail_after) return NULL;
        size_t size = n > GT_SCENE_CHUNK ? n : GT_SCENE_CHUNK;
        struct arena_chunk *c;
        if (size == GT_SCENE_CHUNK && a->spare) {
            c = a->spare;
            a->spare = c->next;
            a->nspare--;
        } else if (!(c = malloc(sizeof *c + size))) {
            return NULL;
        }
        c->next = a->head;
        c->size = size;
        a->head = c;
        a->used = 0;
    }
    void *p = a->head->data + a->used;
    a->used += n;
    a->total += n;
    return p;
}

void arena_reset(struct arena *a)
{
    /* Keep the newest chunk if it is a standard one, and up to
     * GT_ARENA_SPARE more standard chunks as spares. */
    struct arena_chunk *keep = a->head;
    if (keep && keep->size != GT_SCENE_CHUNK) keep = NULL;
    struct arena_chunk *c = a->head;
    while (c) {
        struct arena_chunk *next = c->next;
        if (c != keep) {
            if (c->size == GT_SCENE_CHUNK && a->nspare < GT_ARENA_SPARE) {
                c->next = a->spare;
                a->spare = c;
                a->nspare++;
            } else {
                free(c);
            }
        }
        c = next;
    }
    a->head = keep;
    if (keep) keep->next = NULL;
    a->used = 0;
    a->total = 0;
}

void arena_free(struct arena *a)
{
    arena_reset(a);
    struct arena_chunk *c = a->head;
    if (c) c->next = a->spare;
    else c = a->spare;
    while (c) {
        struct arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    a->head = a->spare = NULL;
    a->nspare = 0;
    a->used = a->total = 0;
}

int scene_begin(struct scene *s, uint32_t fb_addr, uint32_t fb_stride, uint32_t bpp, bool serial,
                unsigned tile_size)
{
    scene_reset(s);
    s->fb_addr = fb_addr;
    s->fb_stride = fb_stride;
    s->fb_bpp = bpp;
    s->tile_size = tile_size;
    /* A stride below one tile leaves nothing to partition usefully. */
    s->serial = serial || fb_stride < tile_size;
    if (s->serial) {
        s->ncols = s->nrows = 1;
    } else {
        s->ncols = (fb_stride + tile_size - 1) / tile_size;
        /* Written positions reach 2 GT_SCREEN_MAX - 2 in x and y (drawing
         * coordinates plus a REGION1 offset), so canonical rows reach
         * 2 GT_SCREEN_MAX - 2 + (2 GT_SCREEN_MAX - 2) / stride. */
        uint32_t wmax = 2 * GT_SCREEN_MAX - 1;
        s->nrows = (wmax + (wmax - 1) / fb_stride + tile_size - 1) / tile_size;
    }
    size_t n = (size_t)s->ncols * s->nrows;
    s->bins = arena_alloc(&s->arena, n * sizeof *s->bins);
    s->used = arena_alloc(&s->arena, n * sizeof *s->used);
    if (!s->bins || !s->used) return GT_ENOMEM;
    memset(s->bins, 0, n * sizeof *s->bins);
    s->active = true;
    return GT_OK;
}

/* Makes room for two commands in bin i (a new block when needed). A
 * failure leaves the bin drawing exactly what it drew before. */
static int bin_reserve(struct scene *s, unsigned i)
{
    struct bin *b = &s->bins[i];
    if (b->tail && b->tail->n + 2 <= GT_BIN_BLOCK_CMDS) return GT_OK;
    struct bin_block *blk = arena_alloc(&s->arena, sizeof *blk);
    if (!blk) return GT_ENOMEM;
    blk->next = NULL;
    blk->n = 0;
    if (b->tail) {
        b->tail->next = blk;
    } else {
        b->head = blk;
        s->used[s->nused++] = i;
    }
    b->tail = blk;
    return GT_OK;
}

/* Appends p to bin i (after bin_reserve), with a state command when the
 * bin's last primitive had another state. */
static void bin_append(struct scene *s, unsigned i, const struct rast_prim *p, const struct rast_state *st)
{
    struct bin *b = &s->bins[i];
    if (b->stamp == s->prims) return; /* already holds this primitive */
    b->stamp = s->prims;
    if (b->last_state != st) {
        b->tail->cmd[b->tail->n++] = (struct bin_cmd){BIN_STATE, st};
        b->last_state = st;
    }
    b->tail->cmd[b->tail->n++] = (struct bin_cmd){BIN_PRIM, p};
}

/* Visits every tile that owns an address primitive p may write: pass 0
 * reserves room (may fail), pass 1 appends (cannot fail). A primitive with
 * pixels past the stride (x >= stride) reaches the tiles of later rows. */
static int bin_tiles(struct scene *s, const struct rast_prim *p, const struct rast_state *st, int pass)
{
    if (s->serial) {
        if (pass == 0) return bin_reserve(s, 0);
        bin_append(s, 0, p, st);
        return GT_OK;
    }
    int32_t ts = (int32_t)s->fb_stride;
    unsigned T = s->tile_size;
    /* Written positions: translated by REGION1 (raster.h rast_write_x; the
     * reversal inside groups of 4 keeps each pixel in its tile). A written
     * x below 0 belongs to the row above (k = -1). */
    int32_t x0 = p->x0 + st->region_x, x1 = p->x1 + st->region_x;
    int32_t y0 = p->y0 + st->region_y, y1 = p->y1 + st->region_y;
    int32_t K0 = rast_floordiv(x0, ts), K1 = rast_floordiv(x1, ts);
    for (int32_t k = K0; k <= K1; k++) {
        /* Written columns of this wrap, as canonical columns and rows. */
        int32_t sx0 = x0 > k * ts ? x0 : k * ts;
        int32_t sx1 = x1 < (k + 1) * ts - 1 ? x1 : (k + 1) * ts - 1;
        if (sx0 > sx1) continue;
        int32_t cx0 = sx0 - k * ts, cx1 = sx1 - k * ts;
        int32_t cy0 = y0 + k, cy1 = y1 + k;
        if (cy0 < 0) cy0 = 0;
        if (cx0 < 0) cx0 = 0;
        if (cy1 < 0 || cx1 < 0) continue;
        unsigned r1 = (unsigned)cy1 / T, c1 = (unsigned)cx1 / T;
        if (r1 >= s->nrows) r1 = s->nrows - 1;
        if (c1 >= s->ncols) c1 = s->ncols - 1;
        for (unsigned r = (unsigned)cy0 / T; r <= r1; r++)
            for (unsigned c = (unsigned)cx0 / T; c <= c1; c++) {
                unsigned i = r * s->ncols + c;
                if (pass == 0) {
                    int rc = bin_reserve(s, i);
                    if (rc < 0) return rc;
                } else {
                    bin_append(s, i, p, st);
                }
            }
    }
    return GT_OK;
}

int scene_bin(struct scene *s, const struct rast_prim *p, const struct rast_state *st)
{
    int rc = bin_tiles(s, p, st, 0);
    if (rc < 0) return rc;
    s->prims++;
    return bin_tiles(s, p, st, 1);
}

struct rast_tile scene_tile(const struct scene *s, unsigned i)
{
    struct rast_tile t = {0, 0, 0, 0, 0};
    if (s->serial) return t;
    unsigned T = s->tile_size, c = i % s->ncols, r = i / s->ncols;
    t.cx0 = (int32_t)(c * T);
    t.cx1 = (int32_t)((c + 1) * T < s->fb_stride ? (c + 1) * T : s->fb_stride);
    t.cy0 = (int32_t)(r * T);
    t.cy1 = (int32_t)((r + 1) * T);
    t.tstride = s->fb_stride;
    return t;
}

void scene_run_bin(const struct scene *s, unsigned i, struct gt_mem *mem, struct rast_stats *stats)
{
    struct rast_tile t = scene_tile(s, i);
    const struct rast_state *st = NULL;
    for (const struct bin_block *b = s->bins[i].head; b; b = b->next)
        for (unsigned j = 0; j < b->n; j++) {
            if (b->cmd[j].op == BIN_STATE)
                st = b->cmd[j].arg;
            else if (st)
                rast_draw(b->cmd[j].arg, st, &t, mem, stats);
        }
}

void scene_reset(struct scene *s)
{
    struct arena a = s->arena;
    arena_reset(&a);
    memset(s, 0, sizeof *s);
    s->arena = a;
}

void scene_free(struct scene *s)
{
    arena_free(&s->arena);
    memset(s, 0, sizeof *s);
}
