/* The binner (binner.h). */
#include "binner.h"

#include <stdlib.h>
#include <string.h>

#include "../pipeline/compat.h"
#include "../pipeline/gt_error.h"
#include "../pipeline/mem.h"

const char *binner_flush_name(enum bin_flush_reason r)
{
    static const char *names[] = {
#define X(name, str, msg) str,
        BIN_FLUSH_REASONS(X)
#undef X
    };
    return (unsigned)r < BIN_FLUSH_COUNT ? names[r] : "unknown";
}

int binner_init(struct binner *b, struct gt_mem *mem, unsigned threads, unsigned tile_size, struct gt_diag *d)
{
    memset(b, 0, sizeof *b);
    if (threads == 0 || threads > GT_MAX_THREADS)
        return gt_fail(d, GT_EARG, "thread count %u outside 1..%u", threads, GT_MAX_THREADS);
    if (tile_size < GT_TILE_SIZE_MIN || tile_size > GT_TILE_SIZE_MAX || (tile_size & (tile_size - 1)))
        return gt_fail(d, GT_EARG, "tile size %u is not a power of two in %u..%u", tile_size, GT_TILE_SIZE_MIN,
                       GT_TILE_SIZE_MAX);
    b->scene = &b->scenes[0];
    b->mem = mem;
    b->threads = threads;
    b->tile_size = tile_size;
    return workers_start(&b->workers, threads, d);
}

void binner_free(struct binner *b)
{
    binner_wait(b);
    workers_stop(&b->workers);
    for (unsigned i = 0; i < GT_BINNER_SCENES; i++) scene_free(&b->scenes[i]);
    free(b->lazy.buf);
    free(b->lazy.loaded);
    memset(&b->lazy, 0, sizeof b->lazy);
}

void binner_texflush(struct binner *b)
{
    b->tcache.valid = false;
    b->tcache.scene_copy = NULL;
    b->cur_scene = NULL; /* the next draw fills the cache anew */
}

/* Waits until the first k scenes in flight (oldest first) have finished,
 * and makes them free. */
static void retire(struct binner *b, unsigned k)
{
    if (!k) return;
    workers_wait(&b->workers, b->inflight_no[k - 1]);
    uint64_t px = workers_stats(&b->workers).pixels;
    b->stats.pixels += px - b->pixels_seen;
    b->pixels_seen = px;
    for (unsigned i = 0; i < k; i++) scene_reset(b->inflight[i]);
    b->ninflight -= k;
    memmove(b->inflight, b->inflight + k, sizeof b->inflight[0] * b->ninflight);
    memmove(b->inflight_no, b->inflight_no + k, sizeof b->inflight_no[0] * b->ninflight);
}

void binner_wait(struct binner *b) { retire(b, b->ninflight); }

/* A scene not being filled nor in flight. */
static struct scene *free_scene(struct binner *b)
{
    for (unsigned i = 0; i < GT_BINNER_SCENES; i++) {
        struct scene *s = &b->scenes[i];
        bool used = s == b->scene;
        for (unsigned k = 0; k < b->ninflight; k++) used |= s == b->inflight[k];
        if (!used) return s;
    }
    return NULL; /* not reached: GT_BINNER_SCENES exceeds GT_SCENE_QUEUE */
}

void binner_flush(struct binner *b, enum bin_flush_reason why)
{
    struct scene *s = b->scene;
    if (s->active && s->nused) {
        b->stats.flushes[why]++;
        if (s->serial) b->stats.scenes_serial++;
        b->stats.bins_run += s->nused;
        /* Room in the queue, and in-flight arenas bounded by one full
         * scene's worth. */
        size_t bytes = s->arena.total;
        for (unsigned k = 0; k < b->ninflight; k++) bytes += b->inflight[k]->arena.total;
        if (bytes > GT_SCENE_MAX_BYTES) retire(b, b->ninflight);
        else if (b->ninflight == GT_SCENE_QUEUE) retire(b, 1);
        b->inflight[b->ninflight] = s;
        b->inflight_no[b->ninflight++] = workers_submit(&b->workers, s, b->mem);
        b->scene = free_scene(b);
    } else {
        scene_reset(s);
    }
    b->cur_scene = NULL;
    b->tcache.scene_copy = NULL; /* it lived in the flushed scene's arena */
}

void binner_finish(struct binner *b)
{
    binner_flush(b, BIN_FLUSH_END);
    binner_wait(b);
}

/* ---- Memory ranges ------------------------------------------------------
 * Draws write VRAM only (FB_PTR and Z_PTR are VRAM offsets). Ranges are VRAM
 * offsets [lo, lo + len) on the 2 MiB circle of VRAM (its views and
 * mirrors all reach the same bytes). */
struct vrange { uint32_t lo, len; };

static bool vrange_overlap(struct vrange a, struct vrange b)
{
    if (!a.len || !b.len) return false;
    if (a.len >= GT_VRAM_SIZE || b.len >= GT_VRAM_SIZE) return true;
    uint32_t m = GT_VRAM_SIZE - 1;
    return ((b.lo - a.lo) & m) < a.len || ((a.lo - b.lo) & m) < b.len;
}

/* Union, as the smallest range from a's start covering both (ranges of one
 * scene start at the same buffer, so this stays tight). */
static struct vrange vrange_union(struct vrange a, struct vrange b)
{
    if (!a.len) return b;
    if (!b.len) return a;
    uint32_t m = GT_VRAM_SIZE - 1;
    uint32_t lo = a.lo, bo = (b.lo - a.lo) & m;
    if (bo > GT_VRAM_SIZE / 2) { /* b starts before a */
        lo = b.lo;
        uint64_t end = (uint64_t)((a.lo - b.lo) & m) + a.len;
        uint64_t len = end > b.len ? end : b.len;
        return (struct vrange){lo, len >= GT_VRAM_SIZE ? GT_VRAM_SIZE : (uint32_t)len};
    }
    uint64_t end = (uint64_t)bo + b.len;
    uint64_t len = end > a.len ? end : a.len;
    return (struct vrange){lo, len >= GT_VRAM_SIZE ? GT_VRAM_SIZE : (uint32_t)len};
}

/* Whether scene s's draws may write (as color or depth) bytes of r. */
static bool scene_writes(const struct scene *s, struct vrange r)
{
    return vrange_overlap(r, (struct vrange){s->fb_lo, s->fb_len}) ||
           vrange_overlap(r, (struct vrange){s->z_lo, s->z_len});
}

/* The bytes a buffer at addr with the given stride and bytes per pixel may
 * receive inside the draw's scissor, pixels past the stride included. */
static struct vrange buffer_range(const struct rast_state *st, uint32_t addr, uint32_t stride, uint32_t bpp)
{
    if (st->sc_x0 > st->sc_x1 || st->sc_y0 > st->sc_y1) return (struct vrange){0, 0};
    /* Written positions: the scissor translated by REGION1, widened to
     * whole groups of 4 written pixels (the reversal for odd x offsets
     * keeps a pixel inside its group: rast_write_x); a written x below 0
     * is the end of the row above. */
    int64_t x0 = (int64_t)(st->sc_x0 + st->region_x) & ~(int64_t)3;
    int64_t x1 = (int64_t)(st->sc_x1 + st->region_x) | 3;
    int64_t first = ((int64_t)(st->sc_y0 + st->region_y) * stride + x0) * bpp;
    int64_t last = ((int64_t)(st->sc_y1 + st->region_y) * stride + x1 + 1) * bpp;
    uint64_t len = (uint64_t)(last - first);
    return (struct vrange){(uint32_t)(((int64_t)addr + first) & (GT_VRAM_SIZE - 1)),
                           len >= GT_VRAM_SIZE ? GT_VRAM_SIZE : (uint32_t)len};
}

/* r widened to whole blocks of the depth scramble of trans (mem_depth_block):
 * the bytes that depth at r's linear addresses, or a depth view of r, may
 * touch. */
static struct vrange depth_widen(struct vrange r, uint32_t trans)
{
    if (!r.len) return r;
    uint32_t blk = mem_depth_block(trans);
    uint64_t lo = r.lo & ~(uint64_t)(blk - 1), hi = ((uint64_t)r.lo + r.len + blk - 1) & ~(uint64_t)(blk - 1);
    return (struct vrange){(uint32_t)lo & (GT_VRAM_SIZE - 1),
                           hi - lo >= GT_VRAM_SIZE ? GT_VRAM_SIZE : (uint32_t)(hi - lo)};
}

/* The VRAM bytes an access of len bytes at VRAM address addr may touch:
 * through views 1 and 3, which unscramble depth (mem_vram_view_offset),
 * the whole scramble blocks of translation trans around them. */
static struct vrange vram_range(uint32_t addr, uint32_t len, uint32_t trans)
{
    struct vrange r = {addr & (GT_VRAM_SIZE - 1), len >= GT_VRAM_SIZE ? GT_VRAM_SIZE : len};
    return (addr >> 21) & 1 ? depth_widen(r, trans) : r;
}

/* The VRAM bytes a textured draw reads (RAM textures: none), and in
 * *addr_out, *len_out the whole address range of its levels (RAM or VRAM). */
static struct vrange texture_range(const struct rast_state *st, uint32_t *addr_out, uint32_t *len_out)
{
    struct vrange r = {0, 0};
    *addr_out = 0, *len_out = 0;
    if (!st->textured) return r;
    const struct gt_tex *t = &st->smp.tex;
    unsigned levels = st->smp.max_level + 1;
    uint32_t lo = 0, hi = 0;
    for (unsigned i = 0; i < levels; i++) {
        uint32_t a, n;
        tex_level_range(t, i, &a, &n);
        if (!hi || a < lo) lo = a;
        if (a + n > hi) hi = a + n;
        if (!mem_is_vram(a)) continue;
        r = vrange_union(r, vram_range(a, n, st->z_trans));
    }
    *addr_out = lo, *len_out = hi - lo;
    return r;
}

/* Whether a draw's depth buffer can share the color buffer's tiles: the
 * same stride (so a pixel's depth has the same pixel index) and no byte
 * written as both color and depth. */
static bool depth_follows(const struct rast_state *st, struct vrange fb, struct vrange z)
{
    return st->z_stride == st->fb_stride && !vrange_overlap(fb, z);
}

/* Starts the 8-row block view of a self-texture (GE-HARDWARE.md §6) from
 * its bytes at the draw's start. Only single-level, non-projected textures
 * are loaded lazily (their rows follow from the vertices); others keep the
 * view from the draw's start for the whole draw. */
static int lazy_begin(struct binner *b, const struct rast_state *st, uint32_t addr, uint32_t len, const uint8_t *bytes)
{
    struct lazytex *lz = &b->lazy;
    const struct gt_tex *t = &st->smp.tex;
    uint64_t rowbytes = (uint64_t)t->level[0].bufw * tex_bits_per_texel(t->format) / 8;
    lz->on = false;
    if (st->smp.max_level > 0 || st->tex_proj || !rowbytes || t->level[0].addr != addr) return GT_OK;
    uint32_t h = t->level[0].h, nblocks = (h + 7) / 8;
    if (lz->buf_cap < len) {
        uint8_t *nb = realloc(lz->buf, len);
        if (!nb) return GT_ENOMEM;
        lz->buf = nb, lz->buf_cap = len;
    }
    if (lz->loaded_cap < nblocks) {
        uint8_t *nl = realloc(lz->loaded, nblocks);
        if (!nl) return GT_ENOMEM;
        lz->loaded = nl, lz->loaded_cap = nblocks;
    }
    memcpy(lz->buf, bytes, len);
    memset(lz->loaded, 0, nblocks);
    lz->on = true;
    lz->drew = false;
    lz->addr = addr, lz->len = len;
    lz->rowbytes = (uint32_t)(rowbytes > UINT32_MAX ? UINT32_MAX : rowbytes);
    lz->h = h, lz->nblocks = nblocks;
    return GT_OK;
}

/* The 8-row blocks primitive gp may read: its vertices' v range in level-0
 * texel rows, one row more on each side for bilinear neighbours; all
 * blocks when the range wraps around the texture. */
static void lazy_blocks(const struct binner *b, const struct rast_state *st, const struct gt_prim *gp, uint32_t *b0,
                        uint32_t *b1)
{
    const struct lazytex *lz = &b->lazy;
    int32_t shift = st->through ? 0 : -(int32_t)st->smp.hlog[0];
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (unsigned i = 0; i < gp->nv; i++) {
        int64_t v = gemath_to_scaled(gp->v[i].uv[1], shift);
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    lo -= 1, hi += 1;
    *b0 = 0, *b1 = lz->nblocks - 1;
    if (st->smp.clamp_v) {
        if (lo < 0) lo = 0;
        if (hi > (int64_t)lz->h - 1) hi = (int64_t)lz->h - 1;
    } else if (lo < 0 || hi > (int64_t)lz->h - 1) {
        return;
    }
    if (lo > hi) return;
    *b0 = (uint32_t)(lo / 8), *b1 = (uint32_t)(hi / 8);
}

/* Before primitive gp is binned: loads the blocks it needs that no earlier
 * primitive of the draw needed. A block loaded after the draw began is read
 * from memory once every earlier primitive has been drawn (a flush). */
static void lazy_prim(struct binner *b, const struct gt_prim *gp)
{
    struct lazytex *lz = &b->lazy;
    uint32_t b0, b1;
    lazy_blocks(b, b->cur_scene, gp, &b0, &b1);
    bool need = false;
    for (uint32_t k = b0; k <= b1 && k < lz->nblocks; k++) need |= !lz->loaded[k];
    if (!need) return;
    if (lz->drew) {
        binner_flush(b, BIN_FLUSH_SELF);
        binner_wait(b);
        b->cur_scene = NULL; /* placed again with the reloaded blocks */
    }
    for (uint32_t k = b0; k <= b1 && k < lz->nblocks; k++) {
        if (lz->loaded[k]) continue;
        lz->loaded[k] = 1;
        if (!lz->drew) continue; /* the view from the draw's start is current */
        uint64_t off = (uint64_t)k * 8 * lz->rowbytes, n = (uint64_t)8 * lz->rowbytes;
        if (off >= lz->len) continue;
        if (n > lz->len - off) n = lz->len - off;
        mem_read(b->mem, lz->addr + (uint32_t)off, lz->buf + off, (uint32_t)n);
        b->stats.lazy_loads++;
    }
}

/* Places b->cur into the scene (flushing first when the scene cannot take
 * it) and gives a self-texturing draw its texture copy. */
static int place_state(struct binner *b, struct gt_diag *d)
{
    struct rast_state *cur = &b->cur;
    struct scene *s = b->scene;
    struct vrange fb = buffer_range(cur, cur->fb_addr, cur->fb_stride, cur->fb_bpp);
    struct vrange z = cur->uses_depth ? depth_widen(buffer_range(cur, cur->z_addr, cur->z_stride, 2), cur->z_trans)
                                      : (struct vrange){0, 0};
    uint32_t tex_addr, tex_len;
    struct vrange tex = texture_range(cur, &tex_addr, &tex_len);

    /* §6: a texture that fits in the cache and is already cached is read
     * from the cache, whatever drawing did to its memory since. Whether it
     * fits is decided on its own bytes, without tex_level_range's slack (a
     * texture of exactly 8 KB fits); the copy keeps the slack bytes. */
    bool cached = tex_len && tex_len - TEX_RANGE_SLACK <= GT_TEXCACHE_BYTES && !GT_COMPAT(TEXCACHE);
    bool hit = cached && b->tcache.valid && b->tcache.addr == tex_addr && b->tcache.len == tex_len;
    /* A texture too large to copy that overlaps the draw's own target is
     * read live while the draw writes it: only one tile walking the draw
     * in primitive order gives the same bytes for every thread count and
     * tile size. */
    bool live_self = !cached && (tex_len > GT_SHADOW_MAX_BYTES || GT_COMPAT(TEXCACHE)) &&
                     (vrange_overlap(tex, fb) || vrange_overlap(tex, z));
    if (s->active) {
        struct vrange sfb = {s->fb_lo, s->fb_len}, sz = {s->z_lo, s->z_len};
        if (live_self && !s->serial)
            binner_flush(b, BIN_FLUSH_SELF);
        else if (!hit && scene_writes(s, tex))
            binner_flush(b, BIN_FLUSH_TEXTURE);
        else if (!s->serial && (vrange_overlap(fb, (struct vrange){s->tex_lo, s->tex_len}) ||
                                vrange_overlap(z, (struct vrange){s->tex_lo, s->tex_len})))
            /* The draw writes what earlier draws of the scene read live:
             * another tile may still need the old bytes. */
            binner_flush(b, BIN_FLUSH_TEXTURE);
        else if (s->fb_addr != cur->fb_addr || s->fb_stride != cur->fb_stride || s->fb_bpp != cur->fb_bpp)
            binner_flush(b, BIN_FLUSH_TARGET);
        else if (cur->uses_depth && s->has_z && (s->z_addr != cur->z_addr || s->z_stride != cur->z_stride))
            binner_flush(b, BIN_FLUSH_TARGET);
        else if (!s->serial && (vrange_overlap(vrange_union(sfb, fb), vrange_union(sz, z)) ||
                                (cur->uses_depth && cur->z_stride != s->fb_stride)))
            binner_flush(b, BIN_FLUSH_DEPTH);
    }
    s = b->scene; /* a flush moved on to the next scene */
    /* The newest scene in flight that writes the texture's bytes (k of
     * them up to it), if any. */
    unsigned k = b->ninflight;
    while (k && !scene_writes(b->inflight[k - 1], tex)) k--;
    /* How the draw reads its texture: from the cache (§6), from a copy
     * taken now, or live from memory when its scene runs. A draw that
     * textures from what scenes in flight draw (render to texture) and
     * does not write those bytes itself reads them live: its scene runs
     * after theirs, and nothing of its own scene writes them (flushed
     * above), so it sees the same bytes without waiting. */
    bool self = vrange_overlap(tex, fb) || vrange_overlap(tex, z);
    bool copy_self = self && !live_self && tex_len <= GT_SHADOW_MAX_BYTES;
    bool copy_other = !self && tex_len <= GT_TEXCOPY_MAX_BYTES && k == 0;
    bool copies = !cached && tex_len && (copy_self || copy_other);
    /* A texture read now (a cache fill or a copy) must not overtake the
     * scenes in flight that write it. */
    if ((cached && !hit) || copies) retire(b, k);
    if (!s->active) {
        bool serial = live_self || (cur->uses_depth && !depth_follows(cur, fb, z));
        int rc = scene_begin(s, cur->fb_addr, cur->fb_stride, cur->fb_bpp, serial, b->tile_size);
        if (rc < 0) return gt_fail(d, rc, "out of memory starting a scene");
    }
    struct vrange sfb = vrange_union((struct vrange){s->fb_lo, s->fb_len}, fb);
    s->fb_lo = sfb.lo, s->fb_len = sfb.len;
    if (cur->uses_depth) {
        struct vrange sz = vrange_union((struct vrange){s->z_lo, s->z_len}, z);
        s->z_lo = sz.lo, s->z_len = sz.len;
        s->has_z = true;
        s->z_addr = cur->z_addr, s->z_stride = cur->z_stride;
    }

    struct rast_state *copy = arena_alloc(&s->arena, sizeof *copy);
    if (!copy) return gt_fail(d, GT_ENOMEM, "out of memory for a draw's state");
    *copy = *cur;
    if (cached) {
        struct texcache *tc = &b->tcache;
        if (!hit) {
            /* A fill reads memory as all earlier drawing left it (the
             * scene was flushed above when it wrote these bytes). */
            mem_read(b->mem, tex_addr, tc->bytes, tex_len);
            tc->valid = true;
            tc->addr = tex_addr, tc->len = tex_len;
            tc->scene_copy = NULL;
            b->stats.tcache_loads++;
        } else {
            b->stats.tcache_hits++;
        }
        if (!tc->scene_copy) {
            uint8_t *buf = arena_alloc(&s->arena, tex_len);
            if (!buf) return gt_fail(d, GT_ENOMEM, "out of memory copying the texture cache");
            memcpy(buf, tc->bytes, tex_len);
            tc->scene_copy = buf;
        }
        copy->smp.tex.shadow = tc->scene_copy;
        copy->smp.tex.shadow_addr = tex_addr;
        copy->smp.tex.shadow_len = tex_len;
    } else if (copies) {
        /* Self-texturing with a texture larger than the cache: read as it
         * was before the draw. Other textures up to GT_TEXCOPY_MAX_BYTES
         * that no scene in flight draws are copied too: the copy holds
         * what the draw would read (drawing that writes the texture was
         * flushed above), and memory written later (recorded writes,
         * transfers) then need not wait for the scene. */
        uint8_t *buf = arena_alloc(&s->arena, tex_len);
        if (!buf) return gt_fail(d, GT_ENOMEM, "out of memory copying a self-texture");
        if (self && b->lazy.on && b->lazy.addr == tex_addr && b->lazy.len == tex_len) {
            /* The same draw placed again after a flush: its view so far. */
            memcpy(buf, b->lazy.buf, tex_len);
        } else {
            mem_read(b->mem, tex_addr, buf, tex_len);
            if (self) {
                int rc = lazy_begin(b, cur, tex_addr, tex_len, buf);
                if (rc < 0) return gt_fail(d, rc, "out of memory for a self-texture's blocks");
            }
        }
        copy->smp.tex.shadow = buf;
        copy->smp.tex.shadow_addr = tex_addr;
        copy->smp.tex.shadow_len = tex_len;
        b->stats.tex_copies++;
    }
    if (tex_len && !copy->smp.tex.shadow) {
        /* Read live from memory: later writes must wait for this scene. */
        struct vrange sr = vrange_union((struct vrange){s->tex_lo, s->tex_len}, tex);
        s->tex_lo = sr.lo, s->tex_len = sr.len;
        uint32_t lo = tex_addr & GT_ADDR_MASK, hi = lo + tex_len;
        if (!mem_is_vram(tex_addr)) {
            if (s->ram_hi == s->ram_lo || lo < s->ram_lo) s->ram_lo = lo;
            if (hi > s->ram_hi) s->ram_hi = hi;
        }
    }
    b->cur_scene = copy;
    b->cur_snapshot = copy->smp.tex.shadow && !cached && (vrange_overlap(tex, fb) || vrange_overlap(tex, z));
    b->cur_tex_addr = tex_addr & GT_ADDR_MASK, b->cur_tex_len = tex_len;
    return GT_OK;
}

/* Whether scene s writes [addr, addr + len) or, for a write, reads it. */
static bool scene_touches(const struct scene *s, uint32_t addr, uint32_t len, bool write, uint32_t trans)
{
    if (!s->active) return false;
    if (mem_is_vram(addr)) {
        struct vrange r = vram_range(addr, len, trans);
        return scene_writes(s, r) || (write && vrange_overlap(r, (struct vrange){s->tex_lo, s->tex_len}));
    }
    /* Drawing writes VRAM only; textures may be read from anywhere. */
    uint64_t lo = addr & GT_ADDR_MASK, hi = lo + len;
    return write && s->ram_hi > s->ram_lo && lo < s->ram_hi && hi > s->ram_lo;
}

void binner_sync(struct binner *b, uint32_t addr, uint32_t len, bool write)
{
    /* A write into the current draw's texture: the next kick takes a new
     * copy of it (the texture cache, §6, keeps its stale bytes). */
    uint32_t a = addr & GT_ADDR_MASK;
    if (write && b->cur_tex_len && (!len || (a < b->cur_tex_addr + b->cur_tex_len && b->cur_tex_addr < a + len)))
        b->cur_scene = NULL;
    if (!len || scene_touches(b->scene, addr, len, write, b->mem->edram_trans)) {
        binner_flush(b, BIN_FLUSH_SYNC);
        binner_wait(b);
    } else {
        unsigned k = b->ninflight;
        while (k && !scene_touches(b->inflight[k - 1], addr, len, write, b->mem->edram_trans)) k--;
        retire(b, k); /* the newest scene touching the bytes, and those before it */
    }
}

void binner_vertex_reads(struct binner *b, const struct ge_state *st)
{
    /* Drawing writes VRAM only: vertex and index data in RAM is safe. */
    bool indexed = (ge_reg(st, GE_VTYPE) >> 11 & 3) != 0;
    if (mem_is_vram(st->vaddr) || (indexed && mem_is_vram(st->iaddr))) binner_sync(b, 0, 0, false);
}

static int draw_state(struct binner *b, const struct ge_state *st, bool imm, uint32_t flags, struct gt_diag *d)
{
    struct rast_state next;
    rast_state_snapshot(&next, st, b->mem->edram_trans);
    if (imm) rast_state_apply_imm(&next, st, flags);
    /* The same state keeps its place, unless it reads a self-texture copy:
     * every draw reads its target as it was before that draw. */
    if (b->cur_scene && !b->cur_snapshot && !memcmp(&next, &b->cur, sizeof next)) return GT_OK;
    b->cur = next;
    b->cur_scene = NULL;
    b->lazy.on = false; /* a new draw: its blocks start unloaded */
    return place_state(b, d);
}

int binner_draw(struct binner *b, const struct ge_state *st, struct gt_diag *d)
{
    return draw_state(b, st, false, 0, d);
}

int binner_draw_imm(struct binner *b, const struct ge_state *st, uint32_t flags, struct gt_diag *d)
{
    return draw_state(b, st, true, flags, d);
}

static int setup(struct rast_prim *p, const struct rast_state *st, const struct gt_prim *gp)
{
    switch (gp->kind) {
    case GT_TRIANGLE: return rast_setup_triangle(p, st, &gp->v[0], &gp->v[1], &gp->v[2], gp->provoking);
    case GT_RECT: return rast_setup_rect(p, st, &gp->v[0], &gp->v[1]);
    case GT_LINE: return rast_setup_line(p, st, &gp->v[0], &gp->v[1], gp->provoking);
    default: return rast_setup_point(p, st, &gp->v[0]);
    }
}

int binner_prim(void *ctx, const struct gt_prim *gp, struct gt_diag *d)
{
    struct binner *b = ctx;
    /* The primitive is retried once after a flush when the scene is full. */
    for (int attempt = 0;; attempt++) {
        if (!b->cur_scene) {
            int rc = place_state(b, d);
            if (rc < 0) return rc;
        }
        if (b->lazy.on) {
            lazy_prim(b, gp);
            if (!b->cur_scene) {
                int rc = place_state(b, d);
                if (rc < 0) return rc;
            }
        }
        struct scene *s = b->scene;
        struct rast_prim *p = arena_alloc(&s->arena, sizeof *p);
        int rc = GT_ENOMEM;
        if (p) {
            if (!setup(p, b->cur_scene, gp)) return GT_OK; /* draws nothing */
            rc = scene_bin(s, p, b->cur_scene);
        }
        if (rc == GT_OK) {
            b->stats.prims++;
            b->lazy.drew = true;
            if (s->arena.total > GT_SCENE_MAX_BYTES) binner_flush(b, BIN_FLUSH_MEMORY);
            else if (s->prims >= GT_SCENE_FLUSH_PRIMS) binner_flush(b, BIN_FLUSH_SIZE);
            return GT_OK;
        }
        if (attempt > 0 || !s->prims) return gt_fail(d, GT_ENOMEM, "out of memory binning a primitive");
        binner_flush(b, BIN_FLUSH_MEMORY);
    }
}
