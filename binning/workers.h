/* Worker threads that run scenes' bins (llvmpipe's rast threads): each
 * non-empty bin is taken by one thread from a mutex-guarded iterator and run
 * start to end, so one thread owns a tile for the whole scene. Scenes are
 * queued (up to GT_SCENE_QUEUE) and run strictly in order: no bin of a scene
 * starts before every bin of the scenes queued before it has finished. With
 * one thread (no helper started) the calling thread runs every bin in order
 * when it queues the scene: the same code, synchronously. */
#ifndef GETILE_WORKERS_H
#define GETILE_WORKERS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "../pipeline/mem.h"
#include "../pipeline/par.h"
#include "scene.h"

/* Scenes handed to the workers and not finished, at most. Deeper queues let
 * the binning thread run ahead of rasterization where one scene's drawing
 * is slow and the next one's binning fast, and the other way round. */
#define GT_SCENE_QUEUE 4

struct workers {
    unsigned nthreads;          /* helper threads started (the caller also works) */
    pthread_t th[GT_MAX_THREADS];
    pthread_mutex_t mu;
    pthread_cond_t wake;        /* helpers: bins to take, or quit */
    pthread_cond_t done;        /* a scene finished */
    bool quit;
    /* The queue, oldest first: queue[(head + k) % GT_SCENE_QUEUE] for
     * k < count, each with the memory map it runs against. */
    const struct scene *queue[GT_SCENE_QUEUE];
    struct gt_mem mem[GT_SCENE_QUEUE];
    unsigned head, count;
    unsigned next;              /* next index into the oldest scene's used[] */
    unsigned running;           /* its bins taken and not finished */
    uint64_t submitted;         /* scenes queued so far (the last one's number) */
    uint64_t finished;          /* scenes finished so far (they finish in order) */
    struct rast_stats stats;    /* summed over bins, as they finish */
    bool started;
    /* The parallel loop being run (workers_parallel), or job_fn NULL.
     * Helpers take its chunks before bins: the binning thread waits for
     * them. */
    gt_par_fn job_fn;
    void *job_ctx;
    uint32_t job_n, job_chunk, job_next;
    /* Its chunks taken and not finished (changed under mu; read without it
     * while spinning). */
    atomic_uint job_running;
    /* Bumped (under mu) whenever there is new work: a parallel loop, a
     * queued scene, the next scene's bins. An idle helper polls it for a
     * while before it sleeps, because a sleeping thread wakes too late to
     * share a loop of a few tens of microseconds. */
    atomic_ulong posted;
    bool spin;                  /* poll at all: no more threads than CPUs */
};

/* Starts threads - 1 helper threads (threads 0 or 1: none). Returns 0 or
 * GT_ENOMEM (no thread left running). */
int workers_start(struct workers *w, unsigned threads, struct gt_diag *d);
/* Queues scene s (first waiting for the oldest scene when GT_SCENE_QUEUE
 * are unfinished) and returns its number: 1 for the first scene, then 2,
 * 3... The scene and the memory its draws touch belong to the workers
 * until it has finished (workers_wait). With no helper thread the scene
 * runs on the caller before this returns. */
uint64_t workers_submit(struct workers *w, const struct scene *s, const struct gt_mem *mem);
/* The caller takes bins too until scene number n and every scene before it
 * have finished. */
void workers_wait(struct workers *w, uint64_t n);
/* A parallel loop (struct gt_par's run): the caller takes chunks of
 * [0, n) until none is left, helper threads that are idle or between bins
 * take chunks too, and it returns when every chunk has run. Called by the
 * binning thread only, one loop at a time. */
void workers_parallel(void *workers, gt_par_fn fn, void *ctx, uint32_t n, uint32_t chunk);
/* Pixels and primitives drawn by the scenes finished so far. */
struct rast_stats workers_stats(struct workers *w);
void workers_stop(struct workers *w);

#endif
