/* A scene: the contract between the binner (binner.c, on the thread that
 * runs the display list) and the workers that rasterize (workers.c calling
 * pipeline/raster.h). The binner fills a scene with primitives set up once
 * (struct rast_prim) and per-draw state snapshots (struct rast_state), all
 * in the scene's bump arena, and appends commands to the bins of the tiles
 * whose memory each primitive may write. A flush runs every non-empty bin,
 * each by one worker, start to end, then resets the scene.
 *
 * Tiles partition the color buffer's memory (raster.h "ownership"): tile
 * (col, row) owns canonical positions cx in [col T, col T + T) (limited to
 * the stride) and cy in [row T, row T + T), T the tile size. A serial scene
 * has one tile that owns everything (used when the depth buffer's memory
 * cannot follow the color buffer's partition). */
#ifndef GETILE_SCENE_H
#define GETILE_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../pipeline/ge_limits.h"
#include "../pipeline/raster.h"

/* Per-scene bump allocator: chunks of GT_SCENE_CHUNK bytes, freed together. */
struct arena_chunk;
struct arena {
    struct arena_chunk *head; /* current chunk (a list through ->next) */
    size_t used;              /* bytes used in head */
    size_t total;             /* bytes handed out since the last reset */
    unsigned fail_after;      /* tests: fail the Nth chunk allocation (0: never) */
    unsigned allocs;
    /* Standard chunks kept from earlier scenes for reuse (at most
     * GT_ARENA_SPARE): a fresh chunk costs a page fault per page. */
    struct arena_chunk *spare;
    unsigned nspare;
};

void *arena_alloc(struct arena *a, size_t n);
void arena_reset(struct arena *a); /* keeps one chunk */
void arena_free(struct arena *a);

/* A bin command: a state change or a primitive. */
enum bin_op { BIN_STATE, BIN_PRIM };
struct bin_cmd { uint8_t op; const void *arg; };
struct bin_block {
    struct bin_block *next;
    unsigned n;
    struct bin_cmd cmd[GT_BIN_BLOCK_CMDS];
};
struct bin {
    struct bin_block *head, *tail;
    const struct rast_state *last_state; /* state of the bin's last primitive */
    uint64_t stamp;                      /* last primitive appended (dedupe) */
};

struct scene {
    struct arena arena;
    bool active;               /* holds at least one draw */
    bool serial;               /* one tile owns everything */
    uint32_t fb_addr, fb_stride, fb_bpp; /* the color buffer the tiles partition */
    bool has_z;                /* a draw reads or writes depth */
    uint32_t z_addr, z_stride;
    unsigned tile_size, ncols, nrows;
    struct bin *bins;          /* ncols * nrows (1 when serial) */
    unsigned *used;            /* indices of non-empty bins, in first-use order */
    unsigned nused;
    uint64_t prims;            /* primitives binned */
    /* VRAM byte ranges (offsets from GT_VRAM_BASE, may exceed the 2 MiB:
     * compared modulo) that the scene's draws may write. */
    uint32_t fb_lo, fb_len, z_lo, z_len;
    /* What the scene's draws read from memory as textures (not from a
     * copy): VRAM as a range like the above (tex_lo, tex_len), other
     * memory as masked addresses [ram_lo, ram_hi). */
    uint32_t tex_lo, tex_len, ram_lo, ram_hi;
};

/* Starts an empty scene for a color buffer. Returns 0 or GT_ENOMEM. */
int scene_begin(struct scene *s, uint32_t fb_addr, uint32_t fb_stride, uint32_t bpp, bool serial,
                unsigned tile_size);
/* Appends primitive p (state st, both in the scene arena) to every tile
 * that owns an address it may write. Returns 0 or GT_ENOMEM. */
int scene_bin(struct scene *s, const struct rast_prim *p, const struct rast_state *st);
/* The rectangle of canonical positions of bin i. */
struct rast_tile scene_tile(const struct scene *s, unsigned i);
/* Runs bin i start to end (the worker's job for one tile). */
void scene_run_bin(const struct scene *s, unsigned i, struct gt_mem *mem, struct rast_stats *stats);
/* Forgets everything binned; the arena keeps one chunk. */
void scene_reset(struct scene *s);
void scene_free(struct scene *s);

#endif
