/* A render context: PSP memory, the GE, and what the display shows. One
 * context renders one frame at a time; contexts share nothing, so a process
 * may run several in parallel (the daemon does). */
#ifndef GETILE_RENDER_H
#define GETILE_RENDER_H

#include <stdbool.h>
#include <stdint.h>

#include "assemble.h"
#include "../binning/binner.h"
#include "dump.h"
#include "ge.h"
#include "mem.h"

/* The framebuffer the display scans out. */
struct gt_display {
    uint32_t addr;    /* PSP address */
    uint32_t stride;  /* pixels */
    unsigned format;  /* 0 565, 1 5551, 2 4444, 3 8888 */
};

/* What a replay did, for the CLI, the daemon and benchmarks. */
struct gt_replay_stats {
    uint64_t records;        /* dump records processed */
    uint64_t prims_by_type[8]; /* PRIM kicks by primitive type */
    uint64_t curves;         /* BEZIER and SPLINE kicks */
    uint64_t vram_writes;    /* recorded memset/memcpy/framebuffer copies applied */
    uint64_t skipped_writes; /* recorded writes skipped (not VRAM, or render targets) */
    uint64_t arena_resets;   /* times the replay RAM arena was recycled */
};

struct gt_render {
    struct gt_mem mem;
    struct ge ge;
    struct gt_asm assembler;  /* primitive assembly state across kicks */
    struct binner binner;     /* scenes, tiles and worker threads */
    struct gt_display display;
    struct gt_replay_stats stats;
};

/* A context drawing with one thread and GT_TILE_SIZE_DEFAULT tiles. */
int gt_render_init(struct gt_render *r, struct gt_diag *d);
void gt_render_free(struct gt_render *r);
/* Draws with `threads` threads in total (1..GT_MAX_THREADS) and square
 * tiles of tile_size pixels (a power of two, GT_TILE_SIZE_MIN..MAX). The
 * output is byte-identical for every choice. Pending drawing is finished
 * first. Returns 0 or GT_EARG / GT_ENOMEM (the context then draws with one
 * thread). */
int gt_render_set_threads(struct gt_render *r, unsigned threads, unsigned tile_size, struct gt_diag *d);
/* Finishes all pending drawing (the end of a frame). */
void gt_render_finish(struct gt_render *r);
/* Replays a frame dump (GE-HARDWARE.md §7, PPSSPP's replay semantics).
 * replay_end > 0 stops after that many draws. */
int gt_render_replay(struct gt_render *r, const struct dump *dp, uint64_t replay_end, struct gt_diag *d);
/* Runs a display list from pc (memory already loaded) until it ends. */
int gt_render_list(struct gt_render *r, uint32_t pc, struct gt_diag *d);

/* The displayed image as 512x272 RGBA (GT_IMAGE_STRIDE x GT_DISPLAY_HEIGHT):
 * the 480 visible columns converted from the display's format, columns 480 to
 * 511 black; alpha 255 unless keep_alpha. out holds 512*272*4 bytes. */
void gt_render_display_rgba(const struct gt_render *r, uint8_t *out, bool keep_alpha);
/* The depth buffer under the display area: 480x272 16-bit values read from
 * the current depth buffer address and stride, unscrambled for the current
 * colour format (the depth view, mem.c). out holds 480*272 values. */
void gt_render_depth(const struct gt_render *r, uint16_t *out);

#endif
