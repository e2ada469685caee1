/* Worker threads (workers.h). */
#include "workers.h"

#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define cpu_relax() _mm_pause()
#else
#define cpu_relax() ((void)0)
#endif

#include "../pipeline/gt_error.h"

/* How long a thread polls before it sleeps: a helper waiting for work, the
 * binning thread waiting for a helper's last chunk. */
#define SPIN_NS 50000

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Polls until *v differs from old or SPIN_NS pass; true if it changed. */
static bool spin_ulong(atomic_ulong *v, unsigned long old)
{
    uint64_t t0 = now_ns();
    for (unsigned i = 1;; i++) {
        if (atomic_load_explicit(v, memory_order_relaxed) != old) return true;
        cpu_relax();
        if (!(i & 31) && now_ns() - t0 > SPIN_NS) return false;
    }
}

/* Polls until *v is 0 or SPIN_NS pass. */
static void spin_zero(atomic_uint *v)
{
    uint64_t t0 = now_ns();
    for (unsigned i = 1; atomic_load_explicit(v, memory_order_relaxed); i++) {
        cpu_relax();
        if (!(i & 31) && now_ns() - t0 > SPIN_NS) return;
    }
}

/* With w->mu held: there is new work for idle helpers. */
static void post(struct workers *w)
{
    atomic_fetch_add_explicit(&w->posted, 1, memory_order_relaxed);
    pthread_cond_broadcast(&w->wake);
}

/* With w->mu held: takes the next bin of the oldest scene, if one is left
 * to take; sets *slot to the scene's queue slot and *bin to the bin. */
static bool take(struct workers *w, unsigned *slot, unsigned *bin)
{
    if (!w->count) return false;
    const struct scene *s = w->queue[w->head];
    if (w->next >= s->nused) return false;
    *slot = w->head;
    *bin = s->used[w->next++];
    w->running++;
    return true;
}

/* With w->mu held: retires the oldest scenes while every bin of theirs has
 * finished, and wakes whoever waits for them or for the next scene's bins. */
static void advance(struct workers *w)
{
    bool moved = false;
    while (w->count && !w->running && w->next >= w->queue[w->head]->nused) {
        w->queue[w->head] = NULL;
        w->head = (w->head + 1) % GT_SCENE_QUEUE;
        w->count--;
        w->next = 0;
        w->finished++;
        moved = true;
    }
    if (moved) {
        pthread_cond_broadcast(&w->done);
        if (w->count) post(w);
    }
}

/* With w->mu held: runs one bin taken with take(), unlocking around it. */
static void run_taken(struct workers *w, unsigned slot, unsigned bin)
{
    const struct scene *s = w->queue[slot];
    /* A private copy of the memory map (pointers only; the memory is
     * shared), so that drawing every pixel reads no line another thread
     * writes. */
    struct gt_mem mem = w->mem[slot];
    pthread_mutex_unlock(&w->mu);
    struct rast_stats st = {0, 0};
    scene_run_bin(s, bin, &mem, &st);
    pthread_mutex_lock(&w->mu);
    w->stats.pixels += st.pixels;
    w->stats.prims += st.prims;
    w->running--;
    advance(w);
}

/* With w->mu held: runs one chunk of the parallel loop, if one is left
 * to take, unlocking around it. */
static bool run_job_chunk(struct workers *w)
{
    if (!w->job_fn || w->job_next >= w->job_n) return false;
    uint32_t b = w->job_next, e = w->job_n - b > w->job_chunk ? b + w->job_chunk : w->job_n;
    w->job_next = e;
    atomic_fetch_add_explicit(&w->job_running, 1, memory_order_relaxed);
    gt_par_fn fn = w->job_fn;
    void *ctx = w->job_ctx;
    pthread_mutex_unlock(&w->mu);
    fn(ctx, b, e);
    pthread_mutex_lock(&w->mu);
    if (atomic_fetch_sub_explicit(&w->job_running, 1, memory_order_relaxed) == 1 && w->job_next >= w->job_n)
        pthread_cond_broadcast(&w->done);
    return true;
}

static void *worker_main(void *arg)
{
    struct workers *w = arg;
    pthread_mutex_lock(&w->mu);
    while (!w->quit) {
        unsigned slot, bin;
        if (run_job_chunk(w)) continue;
        if (take(w, &slot, &bin)) {
            run_taken(w, slot, bin);
            continue;
        }
        unsigned long seen = atomic_load_explicit(&w->posted, memory_order_relaxed);
        if (w->spin) {
            pthread_mutex_unlock(&w->mu);
            bool more = spin_ulong(&w->posted, seen);
            pthread_mutex_lock(&w->mu);
            if (more) continue;
        }
        /* Under mu, so no post() is missed between the check and the wait. */
        if (atomic_load_explicit(&w->posted, memory_order_relaxed) == seen && !w->quit)
            pthread_cond_wait(&w->wake, &w->mu);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

int workers_start(struct workers *w, unsigned threads, struct gt_diag *d)
{
    memset(w, 0, sizeof *w);
    atomic_init(&w->job_running, 0);
    atomic_init(&w->posted, 0);
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->wake, NULL);
    pthread_cond_init(&w->done, NULL);
    w->started = true;
    if (threads > GT_MAX_THREADS) threads = GT_MAX_THREADS;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    w->spin = cpus > 0 && threads <= (unsigned long)cpus;
    for (unsigned i = 1; i < threads; i++) {
        if (pthread_create(&w->th[w->nthreads], NULL, worker_main, w) != 0) {
            workers_stop(w);
            return gt_fail(d, GT_ENOMEM, "cannot start worker thread %u of %u", i + 1, threads);
        }
        w->nthreads++;
    }
    return GT_OK;
}

uint64_t workers_submit(struct workers *w, const struct scene *s, const struct gt_mem *mem)
{
    pthread_mutex_lock(&w->mu);
    uint64_t oldest = w->finished + 1;
    if (w->count == GT_SCENE_QUEUE) { /* the caller's job; never overrun the ring */
        pthread_mutex_unlock(&w->mu);
        workers_wait(w, oldest);
        pthread_mutex_lock(&w->mu);
    }
    unsigned slot = (w->head + w->count) % GT_SCENE_QUEUE;
    w->queue[slot] = s;
    w->mem[slot] = *mem;
    w->count++;
    uint64_t n = ++w->submitted;
    if (w->count == 1) post(w);
    advance(w); /* a scene without bins finishes at once */
    pthread_mutex_unlock(&w->mu);
    if (!w->nthreads) workers_wait(w, n);
    return n;
}

void workers_wait(struct workers *w, uint64_t n)
{
    pthread_mutex_lock(&w->mu);
    while (w->finished < n) {
        unsigned slot, bin;
        if (take(w, &slot, &bin))
            run_taken(w, slot, bin);
        else
            pthread_cond_wait(&w->done, &w->mu);
    }
    pthread_mutex_unlock(&w->mu);
}

void workers_parallel(void *workers, gt_par_fn fn, void *ctx, uint32_t n, uint32_t chunk)
{
    struct workers *w = workers;
    if (!chunk) chunk = 1;
    if (!w->nthreads || n <= chunk) {
        if (n) fn(ctx, 0, n);
        return;
    }
    pthread_mutex_lock(&w->mu);
    w->job_fn = fn, w->job_ctx = ctx;
    w->job_n = n, w->job_chunk = chunk, w->job_next = 0;
    post(w);
    while (run_job_chunk(w)) {
    }
    if (w->spin && atomic_load_explicit(&w->job_running, memory_order_relaxed)) {
        /* A helper's last chunk is short: poll for it. */
        pthread_mutex_unlock(&w->mu);
        spin_zero(&w->job_running);
        pthread_mutex_lock(&w->mu);
    }
    while (atomic_load_explicit(&w->job_running, memory_order_relaxed)) pthread_cond_wait(&w->done, &w->mu);
    w->job_fn = NULL, w->job_ctx = NULL;
    pthread_mutex_unlock(&w->mu);
}

struct rast_stats workers_stats(struct workers *w)
{
    pthread_mutex_lock(&w->mu);
    struct rast_stats st = w->stats;
    pthread_mutex_unlock(&w->mu);
    return st;
}

void workers_stop(struct workers *w)
{
    if (!w->started) return;
    pthread_mutex_lock(&w->mu);
    w->quit = true;
    post(w);
    pthread_mutex_unlock(&w->mu);
    for (unsigned i = 0; i < w->nthreads; i++) pthread_join(w->th[i], NULL);
    pthread_cond_destroy(&w->done);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->mu);
    w->nthreads = 0;
    w->started = false;
}
