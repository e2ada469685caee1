/* Worker threads that run a scene's bins (llvmpipe's rast threads): each
 * non-empty bin is taken by one thread from a mutex-guarded iterator and run
 * start to end, so one thread owns a tile for the whole scene. With one
 * thread (or none started) the calling thread runs every bin in order: the
 * same code, synchronously. */
#ifndef GETILE_WORKERS_H
#define GETILE_WORKERS_H

#include <pthread.h>
#include <stdbool.h>

#include "scene.h"

struct workers {
    unsigned nthreads;          /* threads started (the caller also works) */
    pthread_t th[GT_MAX_THREADS];
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    bool quit;
    uint64_t gen;               /* scene generation being run */
    const struct scene *scene;  /* the scene being run, or NULL */
    struct gt_mem *mem;
    unsigned next;              /* next index into scene->used */
    unsigned busy;              /* threads still working on this generation */
    struct rast_stats stats;    /* summed over threads after each run */
    bool started;
    bool running;               /* between workers_begin and workers_end */
};

/* Starts threads - 1 helper threads (threads 0 or 1: none). Returns 0 or
 * GT_ENOMEM (no thread left running). */
int workers_start(struct workers *w, unsigned threads, struct gt_diag *d);
/* Starts running every non-empty bin of s on the helper threads and
 * returns at once (with no helper thread, runs them all first). The scene
 * and the memory its draws touch belong to the workers until workers_end. */
void workers_begin(struct workers *w, const struct scene *s, struct gt_mem *mem);
/* The caller takes bins too until none is left, then waits for the helper
 * threads to finish theirs. */
void workers_end(struct workers *w);
/* workers_begin then workers_end. */
void workers_run(struct workers *w, const struct scene *s, struct gt_mem *mem);
void workers_stop(struct workers *w);

#endif
