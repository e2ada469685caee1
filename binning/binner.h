/* The binner: an explicit state machine between the command processor and
 * the workers. For every kick it snapshots the draw's state
 * (binner_draw), decides whether the pending scene can take the draw or must
 * be flushed first, then sets up and bins each primitive (binner_prim, an
 * assembly sink). States: IDLE (no scene) and BINNING (a scene with draws
 * for one color buffer); every transition back to IDLE is a flush with a
 * counted reason, so a profile shows why parallelism was lost. Flushed
 * scenes run on the workers, in order, while the next ones are binned (IN
 * FLIGHT, up to GT_SCENE_QUEUE of them); memory the binner or the GE reads
 * or writes is checked against the scene being filled and those in flight,
 * and waits only for the scenes that touch it (and those before them).
 *
 * Hazards flushed (issue 6): the GE or the replay touching memory (sync:
 * block transfers, CLUT loads, recorded memory writes, display readout),
 * a draw that reads (as a texture) memory the scene writes, a change of
 * color buffer, a depth buffer that cannot follow the color buffer's tiles,
 * and a full scene arena. Texture reads follow GE-HARDWARE.md §6: small
 * textures come from the texture cache (struct texcache); a larger texture
 * that is also the draw's target is read as it was before the draw, in
 * 8-row blocks each loaded the first time a primitive needs it (binner.c
 * lazy_begin: single-level textures without projection; others keep the
 * bytes from the draw's start for the whole draw). */
#ifndef GETILE_BINNER_H
#define GETILE_BINNER_H

#include "scene.h"
#include "workers.h"

#define BIN_FLUSH_REASONS(X)                                                   \
    X(SYNC, "sync", "the GE or the replay accesses memory")                   \
    X(TARGET, "target", "the color or depth buffer changed")                  \
    X(DEPTH, "depth", "the depth buffer cannot follow the color buffer's tiles") \
    X(TEXTURE, "texture", "a draw reads memory that pending drawing writes")  \
    X(MEMORY, "memory", "the scene arena is full")                            \
    X(SIZE, "size", "the scene is large enough to start rasterizing")         \
    X(SELF, "self", "a draw reads its own target live: it runs as one tile")  \
    X(END, "end", "the list ended or the display is read")

enum bin_flush_reason {
#define X(name, str, msg) BIN_FLUSH_##name,
    BIN_FLUSH_REASONS(X)
#undef X
    BIN_FLUSH_COUNT
};

const char *binner_flush_name(enum bin_flush_reason r);

struct binner_stats {
    uint64_t flushes[BIN_FLUSH_COUNT]; /* flushes that ran a non-empty scene, by reason */
    uint64_t scenes_serial;  /* scenes run as one tile */
    uint64_t prims;          /* primitives set up and binned */
    uint64_t pixels;         /* pixels shaded (reached the per-pixel stage) */
    uint64_t tex_copies;     /* draw states reading a copy of their texture (self-texturing, or up to GT_TEXCOPY_MAX_BYTES) */
    uint64_t tcache_loads;   /* texture cache fills (GE-HARDWARE.md §6) */
    uint64_t tcache_hits;    /* draws reading a texture already in the cache */
    uint64_t lazy_loads;     /* 8-row self-texture blocks loaded after a draw began */
    uint64_t bins_run;       /* bins (tiles) run */
};

/* The texture cache of GE-HARDWARE.md §6: a texture whose bytes fit in
 * GT_TEXCACHE_BYTES is read from a copy taken when it was first used after
 * the last TEXFLUSH (or after another texture took the cache), not from
 * memory: the GE's own drawing does not update it. */
struct texcache {
    bool valid;
    uint32_t addr, len;                 /* the cached bytes' address range */
    uint8_t bytes[GT_TEXCACHE_BYTES + TEX_RANGE_SLACK]; /* the texture and tex_level_range's slack */
    const uint8_t *scene_copy;          /* the copy in the current scene, or NULL */
};

/* A draw that textures from its own target with a texture larger than the
 * cache reads it in blocks of 8 rows, each loaded from memory the first
 * time a primitive needs it (GE-HARDWARE.md §6): buf holds the draw's view
 * of the texture (memory at the draw's start, then each block as it was
 * when loaded); every scene gets its own copy of buf. */
struct lazytex {
    bool on;                  /* the current draw reads its texture this way */
    bool drew;                /* a primitive of the draw has been binned */
    uint32_t addr, len;       /* the texture's bytes */
    uint32_t rowbytes;        /* bytes per texel row of level 0 */
    uint32_t h;               /* level-0 height in texels */
    uint32_t nblocks;         /* 8-row blocks */
    uint8_t *buf, *loaded;    /* len bytes; one flag per block */
    size_t buf_cap, loaded_cap;
};

/* Scenes of a binner: one being filled, up to GT_SCENE_QUEUE in flight. */
#define GT_BINNER_SCENES (GT_SCENE_QUEUE + 1)

struct binner {
    struct scene scenes[GT_BINNER_SCENES];
    struct scene *scene;      /* the scene being filled */
    /* Scenes handed to the workers and not yet reset, oldest first:
     * inflight[k] for k < ninflight, with its number from workers_submit. */
    struct scene *inflight[GT_SCENE_QUEUE];
    uint64_t inflight_no[GT_SCENE_QUEUE];
    unsigned ninflight;
    uint64_t pixels_seen;     /* the workers' pixel count when stats.pixels was updated */
    struct texcache tcache;
    struct lazytex lazy;
    struct workers workers;
    struct gt_mem *mem;
    unsigned threads, tile_size;
    struct rast_state cur;              /* the last draw's snapshot */
    const struct rast_state *cur_scene; /* its copy in the scene, NULL until placed */
    bool cur_snapshot;                  /* cur_scene reads a self-texture copy */
    uint32_t cur_tex_addr, cur_tex_len; /* the texture cur reads (0 length: none) */
    struct binner_stats stats;
};

/* threads: total threads drawing (1: the caller only); tile_size a power of
 * two in GT_TILE_SIZE_MIN..GT_TILE_SIZE_MAX. Returns 0 or a gt_err. */
int binner_init(struct binner *b, struct gt_mem *mem, unsigned threads, unsigned tile_size, struct gt_diag *d);
void binner_free(struct binner *b);
/* A kick is about to draw with the registers in st. */
int binner_draw(struct binner *b, const struct ge_state *st, struct gt_diag *d);
/* The same for an immediate-mode vertex (VAP) whose primitive flags (VAP
 * bits 11-23 shifted down by 11) override part of the state. */
int binner_draw_imm(struct binner *b, const struct ge_state *st, uint32_t flags, struct gt_diag *d);
/* Assembly sink (gt_prim_sink): sets up and bins one primitive. */
int binner_prim(void *ctx, const struct gt_prim *p, struct gt_diag *d);
/* The GE or the replay is about to read (write false) or write the len
 * bytes at addr (len 0: any memory): flushes the scene when it writes those
 * bytes or, for a write, reads them (ge_hooks.sync). */
void binner_sync(struct binner *b, uint32_t addr, uint32_t len, bool write);
/* TEXFLUSH: the texture cache is emptied. */
void binner_texflush(struct binner *b);
/* Hands the scene being filled to the workers (nothing when it is empty)
 * and starts an empty one. The workers run it while binning goes on (first
 * waiting for the oldest scene in flight when GT_SCENE_QUEUE are); with
 * one thread it runs at once, on the calling thread. Scenes run in order:
 * a scene starts after the previous one has finished. */
void binner_flush(struct binner *b, enum bin_flush_reason why);
/* Waits until every scene in flight has finished. */
void binner_wait(struct binner *b);
/* All drawing issued so far is in memory (the end of a frame). */
void binner_finish(struct binner *b);
/* A kick is about to read vertices or indices: drawing that may write them
 * (VRAM vertex data) is finished first. */
void binner_vertex_reads(struct binner *b, const struct ge_state *st);

#endif
