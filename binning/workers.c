/* Worker threads (workers.h). */
#include "workers.h"

#include <string.h>

#include "../pipeline/gt_error.h"

/* Takes bins until none is left; returns the pixels and primitives drawn. */
static void drain(struct workers *w, const struct scene *s, struct rast_stats *st)
{
    /* A private copy of the memory map (its pointers only; the memory is
     * shared): struct gt_mem sits in a cache line the binning thread keeps
     * writing (the GE registers next to it), and reading it for every
     * pixel would bounce that line between cores. */
    struct gt_mem mem = *w->mem;
    for (;;) {
        pthread_mutex_lock(&w->mu);
        unsigned i = w->next < s->nused ? w->next++ : s->nused;
        pthread_mutex_unlock(&w->mu);
        if (i >= s->nused) return;
        scene_run_bin(s, s->used[i], &mem, st);
    }
}

static void *worker_main(void *arg)
{
    struct workers *w = arg;
    uint64_t seen = 0;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->quit && w->gen == seen) pthread_cond_wait(&w->wake, &w->mu);
        if (w->quit) break;
        seen = w->gen;
        const struct scene *s = w->scene;
        pthread_mutex_unlock(&w->mu);
        struct rast_stats st = {0, 0};
        drain(w, s, &st);
        pthread_mutex_lock(&w->mu);
        w->stats.pixels += st.pixels;
        w->stats.prims += st.prims;
        if (--w->busy == 0) pthread_cond_signal(&w->done);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

int workers_start(struct workers *w, unsigned threads, struct gt_diag *d)
{
    memset(w, 0, sizeof *w);
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->wake, NULL);
    pthread_cond_init(&w->done, NULL);
    w->started = true;
    if (threads > GT_MAX_THREADS) threads = GT_MAX_THREADS;
    for (unsigned i = 1; i < threads; i++) {
        if (pthread_create(&w->th[w->nthreads], NULL, worker_main, w) != 0) {
            workers_stop(w);
            return gt_fail(d, GT_ENOMEM, "cannot start worker thread %u of %u", i + 1, threads);
        }
        w->nthreads++;
    }
    return GT_OK;
}

void workers_begin(struct workers *w, const struct scene *s, struct gt_mem *mem)
{
    pthread_mutex_lock(&w->mu);
    w->scene = s;
    w->mem = mem;
    w->next = 0;
    w->busy = w->nthreads;
    w->gen++;
    w->running = true;
    pthread_cond_broadcast(&w->wake);
    pthread_mutex_unlock(&w->mu);
    if (!w->nthreads) workers_end(w);
}

void workers_end(struct workers *w)
{
    if (!w->running) return;
    struct rast_stats st = {0, 0};
    drain(w, w->scene, &st);
    pthread_mutex_lock(&w->mu);
    while (w->busy) pthread_cond_wait(&w->done, &w->mu);
    w->stats.pixels += st.pixels;
    w->stats.prims += st.prims;
    w->scene = NULL;
    w->running = false;
    pthread_mutex_unlock(&w->mu);
}

void workers_run(struct workers *w, const struct scene *s, struct gt_mem *mem)
{
    workers_begin(w, s, mem);
    workers_end(w);
}

void workers_stop(struct workers *w)
{
    if (!w->started) return;
    pthread_mutex_lock(&w->mu);
    w->quit = true;
    pthread_cond_broadcast(&w->wake);
    pthread_mutex_unlock(&w->mu);
    for (unsigned i = 0; i < w->nthreads; i++) pthread_join(w->th[i], NULL);
    pthread_cond_destroy(&w->done);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->mu);
    w->nthreads = 0;
    w->started = false;
}
