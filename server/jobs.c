/* The render worker pool: a FIFO of jobs guarded by a mutex, N threads that
 * each take a job, render it (render_job.c) and put it on the completion
 * list, and a uv_async_t that wakes the loop. Sends coalesce, so the list,
 * not the number of wake-ups, carries the results. The bound on queued jobs
 * is the loop's (--max-jobs, conn.c), checked before a job is submitted. */
#include <stdlib.h>

#include "server.h"

/* Worker thread: take a job, run it, hand it back; exits when stopped and
 * the queue is empty. */
static void *worker_main(void *arg)
{
    struct srv_pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (!p->qhead && !p->stop) pthread_cond_wait(&p->cv, &p->mu);
        struct srv_job *job = p->qhead;
        if (!job) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        p->qhead = job->next;
        if (!p->qhead) p->qtail = NULL;
        pthread_mutex_unlock(&p->mu);

        job->next = NULL;
        srv_render_job(job);

        pthread_mutex_lock(&p->mu);
        if (p->dtail)
            p->dtail->next = job;
        else
            p->dhead = job;
        p->dtail = job;
        pthread_mutex_unlock(&p->mu);
        uv_async_send(&p->async);
    }
}

/* Loop thread: take the whole completion list and finish each job. */
static void async_cb(uv_async_t *h)
{
    struct srv_pool *p = h->data;
    pthread_mutex_lock(&p->mu);
    struct srv_job *job = p->dhead;
    p->dhead = p->dtail = NULL;
    pthread_mutex_unlock(&p->mu);
    while (job) {
        struct srv_job *next = job->next;
        job->next = NULL;
        p->done(job, p->arg);
        job = next;
    }
}

int srv_pool_start(struct srv_pool *p, uv_loop_t *loop, unsigned n, void (*done)(struct srv_job *, void *),
                   void *arg)
{
    p->done = done;
    p->arg = arg;
    p->qhead = p->qtail = p->dhead = p->dtail = NULL;
    p->stop = false;
    p->nthreads = 0;
    p->tids = calloc(n ? n : 1, sizeof *p->tids);
    if (!p->tids) return UV_ENOMEM;
    if (pthread_mutex_init(&p->mu, NULL) != 0) {
        free(p->tids);
        return UV_ENOMEM;
    }
    if (pthread_cond_init(&p->cv, NULL) != 0) {
        pthread_mutex_destroy(&p->mu);
        free(p->tids);
        return UV_ENOMEM;
    }
    int rc = uv_async_init(loop, &p->async, async_cb);
    if (rc < 0) {
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
        free(p->tids);
        return rc;
    }
    p->async.data = p;
    for (unsigned i = 0; i < n; i++) {
        if (pthread_create(&p->tids[i], NULL, worker_main, p) != 0) break;
        p->nthreads++;
    }
    if (p->nthreads == 0) {
        uv_close((uv_handle_t *)&p->async, NULL);
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
        free(p->tids);
        p->tids = NULL;
        return UV_EAGAIN;
    }
    return 0;
}

void srv_pool_submit(struct srv_pool *p, struct srv_job *job)
{
    job->next = NULL;
    pthread_mutex_lock(&p->mu);
    if (p->qtail)
        p->qtail->next = job;
    else
        p->qhead = job;
    p->qtail = job;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

void srv_pool_close(struct srv_pool *p)
{
    uv_close((uv_handle_t *)&p->async, NULL);
}

void srv_pool_join(struct srv_pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->nthreads; i++) pthread_join(p->tids[i], NULL);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p->tids);
    p->tids = NULL;
    p->nthreads = 0;
}
