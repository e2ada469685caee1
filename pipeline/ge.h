/* The GE command processor: executes display lists word by word from PSP
 * memory, keeps every register, runs flow control, matrix uploads, block
 * transfers and CLUT loads itself, and hands drawing kicks (PRIM, BEZIER,
 * SPLINE, BBOX) to the pipeline through struct ge_hooks. */
#ifndef GETILE_GE_H
#define GETILE_GE_H

#include <stdbool.h>
#include <stdint.h>

#include "ge_cmd.h"
#include "ge_limits.h"
#include "gt_error.h"
#include "mem.h"

/* Registers and loaded data: everything a draw depends on. */
struct ge_state {
    uint32_t reg[256];        /* last word of each command number (command byte included) */
    uint32_t world[12], view[12], proj[16], tgen[12];   /* matrices, as GE floats (payload << 8) */
    uint32_t bone[GT_BONE_MATRIX_WORDS];
    uint32_t world_num, view_num, proj_num, tgen_num, bone_num; /* upload index counters */
    uint32_t vaddr, iaddr;    /* next vertex and index addresses (advance across kicks) */
    uint32_t offset;          /* OFFSETADDR/ORIGIN offset added to list-relative addresses */
    uint8_t clut[GT_CLUT_BYTES]; /* the CLUT memory filled by LOADCLUT */
};

/* What the GE hands to the pipeline. Any hook may be NULL. */
struct ge_hooks {
    void *ctx;
    /* A PRIM, BEZIER, SPLINE or BBOX word, with ge->st as it stands. For BBOX
     * (count > 0) the hook sets ge->list.bbox_result (set to true before the
     * call: "may be visible"). */
    int (*kick)(void *ctx, struct ge *ge, uint32_t word, struct gt_diag *d);
    /* The GE or the replay is about to read (write false) or write (write
     * true) the len bytes at addr outside drawing; len 0 means any memory.
     * Pending drawing that writes those bytes, or (for a write) reads them,
     * must be finished first. */
    int (*sync)(void *ctx, struct ge *ge, uint32_t addr, uint32_t len, bool write, struct gt_diag *d);
    /* TEXFLUSH: the texture cache is invalidated. */
    void (*texflush)(void *ctx, struct ge *ge);
};

enum ge_list_state { GE_LIST_IDLE, GE_LIST_RUNNING, GE_LIST_STALLED, GE_LIST_DONE, GE_LIST_PAUSED };

/* The list being executed. */
struct ge_list {
    enum ge_list_state state;
    uint32_t pc, stall;       /* stall 0: none */
    uint32_t next_pc;         /* where the word being executed continues (branches change it) */
    uint32_t prev_word;       /* the word executed before the current one (END looks at it) */
    uint64_t start_steps;     /* stats.steps when the list started: the budget counts from here */
    int depth;                /* CALL nesting, at most GT_CALL_DEPTH */
    uint32_t ret_pc[GT_CALL_DEPTH], ret_offset[GT_CALL_DEPTH], ret_base[GT_CALL_DEPTH];
    bool bbox_result;         /* last BBOX: true when the box may be visible (false when a list starts) */
    uint32_t pending_signal;  /* SIGNAL behaviour that changes the next FINISH (pause, sync) */
};

struct ge_stats {
    uint64_t steps;           /* words executed, plus work: one per kicked vertex, one per 4 transferred pixels */
    uint64_t draws;           /* PRIM, BEZIER and SPLINE kicks */
    uint64_t bboxes, transfers, clut_loads, texflushes, signals, ignored_signals;
    uint64_t transfer_rows_dropped; /* block-transfer rows whose destination was outside memory */
};

struct ge {
    struct gt_mem *mem;
    struct ge_state st;
    struct ge_list list;
    struct ge_hooks hooks;
    struct ge_stats stats;
    uint64_t step_budget;     /* steps one list may take, over all its ge_run calls (0: GT_DEFAULT_STEP_BUDGET) */
    uint64_t draw_limit;      /* stop after this many draws (0: no limit) */
    bool stopped;             /* draw_limit reached: nothing more runs */
};

/* Resets registers to the power-on state (each register holds its own command byte, data 0). */
void ge_init(struct ge *ge, struct gt_mem *mem);
/* Starts a list at pc; it runs until it reaches stall (0: no stall). */
void ge_list_start(struct ge *ge, uint32_t pc, uint32_t stall);
/* Moves the stall address of the current list. */
void ge_list_set_stall(struct ge *ge, uint32_t stall);
/* Runs the current list until it stalls, ends (FINISH then END), pauses,
 * the draw limit is reached, or an error. Returns 0 or a negative gt_err
 * (GT_ESTEP_LIMIT when the list's step budget runs out: a runaway list; the
 * budget covers the whole list, across stalls, so a replay is bounded too). */
int ge_run(struct ge *ge, struct gt_diag *d);
/* Executes a single word outside any list (register restore, tests). Flow
 * control words have no list to act on and only store their value. */
int ge_exec_word(struct ge *ge, uint32_t word, struct gt_diag *d);

/* Address formed from a list's 24-bit data: BASE's high bits plus the offset. */
uint32_t ge_rel_addr(const struct ge *ge, uint32_t data24);
/* Vertex and index sizes in bytes for a VTYPE value (0: invalid format). */
uint32_t ge_vertex_size(uint32_t vtype);
uint32_t ge_index_size(uint32_t vtype);

/* Register accessors used across the pipeline. */
static inline uint32_t ge_reg(const struct ge_state *st, unsigned cmd) { return st->reg[cmd & 0xFF] & 0xFFFFFF; }
/* Color buffer address (VRAM), stride in pixels, pixel format (0 565, 1 5551, 2 4444, 3 8888). */
static inline uint32_t ge_fb_addr(const struct ge_state *st) { return GT_VRAM_BASE | (ge_reg(st, GE_FB_PTR) & 0x1FFFF0); }
static inline uint32_t ge_fb_stride(const struct ge_state *st) { return ge_reg(st, GE_FB_WIDTH) & 0x7FC; }
static inline unsigned ge_fb_format(const struct ge_state *st) { return ge_reg(st, GE_FB_FORMAT) & 3; }
/* Depth buffer address (VRAM) and stride in pixels; depth is 16 bits per pixel. */
static inline uint32_t ge_z_addr(const struct ge_state *st) { return GT_VRAM_BASE | (ge_reg(st, GE_Z_PTR) & 0x1FFFF0); }
static inline uint32_t ge_z_stride(const struct ge_state *st) { return ge_reg(st, GE_Z_WIDTH) & 0x7FC; }

#endif
