/* Parallel loops: a hook through which the vertex pipeline spreads
 * independent per-vertex work (patch tessellation, vertex transform) over
 * the render context's threads (binning/workers.c runs it). Every item's
 * result depends on its inputs only, so the output is the same whoever
 * computes it, for any thread count. */
#ifndef GETILE_PAR_H
#define GETILE_PAR_H

#include <stdint.h>

/* Computes items [begin, end). */
typedef void (*gt_par_fn)(void *ctx, uint32_t begin, uint32_t end);

struct gt_par {
    /* Runs fn over [0, n) in chunks of `chunk` items on the caller and on
     * idle helper threads; returns when every chunk has run. NULL: the
     * caller runs them all. */
    void (*run)(void *pctx, gt_par_fn fn, void *ctx, uint32_t n, uint32_t chunk);
    void *pctx;
};

/* fn over [0, n): through p when there is more than one chunk. */
static inline void gt_par_for(const struct gt_par *p, gt_par_fn fn, void *ctx, uint32_t n, uint32_t chunk)
{
    if (p && p->run && n > chunk)
        p->run(p->pctx, fn, ctx, n, chunk);
    else if (n)
        fn(ctx, 0, n);
}

#endif
