/* getiled, the render daemon: the structures its parts share.
 *
 * One libuv loop (getiled.c: options, listeners, signals, the timeout sweep;
 * conn.c: connections; request.c: one message, free of sockets) never blocks: every render (dump parsing, replay,
 * readout, PNG and response encoding) runs on a pool of worker threads
 * (jobs.c, render_job.c), which hand finished jobs back through a
 * mutex-protected completion list and uv_async_send.
 *
 * Ownership: a connection is reference-counted (its open handle plus one per
 * job in flight), so a client that disconnects mid-request leaves its jobs
 * running and their replies are dropped when they finish. Everything on the
 * loop side (connections, counters) is touched by the loop thread only; the
 * workers see a job and nothing else. */
#ifndef GETILE_SERVER_H
#define GETILE_SERVER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <uv.h>

#include "ge_limits.h"
#include "proto.h"

/* Command-line settings. */
struct srv_config {
    const char *listen[GT_SRV_MAX_LISTEN];
    unsigned nlisten;
    unsigned threads;          /* worker threads (jobs rendered at once) */
    size_t max_request;        /* bytes of one message */
    unsigned max_jobs;         /* jobs queued or rendering, all connections */
    bool has_token;
    char *token;               /* the token file's first line */
    size_t token_len;
    uint64_t idle_timeout_ms;  /* 0: none */
    uint64_t write_timeout_ms; /* a write without progress this long closes the connection */
    uint64_t step_budget;      /* display-list steps of one render (0: GT_DEFAULT_STEP_BUDGET; the fuzz target lowers it) */
};

/* A listening socket. */
struct srv_listener {
    union {
        uv_tcp_t tcp;
        uv_pipe_t pipe;
        uv_handle_t handle;
        uv_stream_t stream;
    } h;
    struct srv_server *srv;
    bool is_unix;
    bool open;
    char path[108];            /* unix: the socket path, unlinked on exit */
};

/* One client connection. */
struct srv_conn {
    union {
        uv_tcp_t tcp;
        uv_pipe_t pipe;
        uv_handle_t handle;
        uv_stream_t stream;
    } h;
    uv_shutdown_t shutdown_req;
    struct srv_server *srv;
    struct srv_conn *prev, *next; /* the server's list of open connections */
    uint64_t num;              /* connection number, for the log */
    struct proto_reader reader;
    msgpack_unpacked cur;      /* the message being handled (a render job takes it over) */
    unsigned refs;             /* 1 while the handle is open, plus one per job in flight */
    unsigned in_flight;        /* jobs of this connection queued or rendering */
    unsigned writes;           /* uv_write requests not yet called back */
    bool reading;              /* uv_read_start is in effect */
    bool no_more;              /* accept no more requests (stream error, shutdown) */
    bool eof;                  /* the client sent EOF: answer what it sent, then close */
    bool shut;                 /* uv_shutdown issued: input is discarded until EOF */
    bool closing;              /* uv_close called */
    uint64_t last_active;      /* ms (uv_now) of the last request or reply */
    uint64_t write_progress;   /* ms of the last write queued or completed while writes were pending */
    uint64_t linger_until;     /* ms after which a shut connection is closed */
};

/* A render request travelling to a worker and back. */
struct srv_job {
    struct srv_job *next;
    struct srv_conn *conn;     /* holds a reference (NULL when driven from a buffer) */
    msgpack_unpacked msg;      /* keeps the request's bytes alive (destroyed on the loop thread) */
    struct proto_request rq;
    size_t req_bytes;
    uint64_t conn_num;         /* the connection's number, for the log */
    uint64_t t_recv;           /* uv_hrtime() when the request was decoded */
    uint64_t step_budget;      /* srv_config.step_budget */
    /* filled by the worker */
    char *reply;               /* the encoded response (malloc'd; freed after the write) */
    size_t reply_len;
    bool ok;
    char code[PROTO_CODE_LEN]; /* "ok" or the error code */
};

/* The worker pool: a bounded FIFO of jobs, and the completion list. */
struct srv_pool {
    pthread_t *tids;
    unsigned nthreads;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct srv_job *qhead, *qtail; /* waiting jobs */
    struct srv_job *dhead, *dtail; /* finished jobs for the loop */
    bool stop;
    uv_async_t async;
    void (*done)(struct srv_job *job, void *arg); /* called on the loop thread */
    void *arg;
};

/* Counters of the "stats" op (render jobs only). */
struct srv_counters {
    uint64_t accepted, completed, failed;
};

struct srv_server {
    uv_loop_t *loop;
    struct srv_config cfg;
    struct srv_listener listeners[GT_SRV_MAX_LISTEN];
    unsigned nlisteners;
    uv_signal_t sigterm, sigint;
    uv_timer_t sweep;
    struct srv_pool pool;
    struct srv_conn *conns;    /* open connections */
    uint64_t nconns, next_conn;
    unsigned jobs;             /* render jobs accepted and not finished */
    struct srv_counters count;
    FILE *log;                 /* one line per request (stderr; NULL: none) */
    bool stopping;             /* SIGTERM/SIGINT: finish accepted jobs, then exit */
    bool closed;               /* the loop's own handles are closed */
};

/* An encoded reply: malloc'd bytes, or buf NULL when even an error reply
 * could not be encoded (out of memory: the connection is closed). */
struct srv_reply {
    char *buf;
    size_t len;
};

/* --- request.c: one message, apart from the connection (no socket, no loop) --- */
/* The log line of a request on srv->log: time, connection, id, op, request
 * bytes, result, ms since t0 (uv_hrtime), an optional note. */
void srv_log_request(const struct srv_server *srv, uint64_t conn, uint64_t id, const char *op, size_t bytes,
                     const char *result, uint64_t t0, const char *note);
/* One complete message (*msg, `bytes` long) from connection number conn:
 * decoded and checked (token, shutting down, busy). A render becomes a job
 * (returned: it has taken *msg over, which is left empty; it is counted in
 * srv->jobs and count.accepted; the caller sets job->conn and runs it).
 * Anything else is answered at once: NULL is returned with *out set. */
struct srv_job *srv_handle_request(struct srv_server *srv, uint64_t conn, msgpack_unpacked *msg, size_t bytes,
                                   struct srv_reply *out);
/* The reply (id 0) to a stream error of rd (proto_next failed with d). */
void srv_stream_error(struct srv_server *srv, uint64_t conn, const struct proto_reader *rd,
                      const struct gt_diag *d, struct srv_reply *out);
/* A job back from srv_render_job: the counters and the log line (note: NULL or " (...)"). */
void srv_job_finished(struct srv_server *srv, struct srv_job *job, const char *note);
/* Frees a job, its reply and its message. */
void srv_job_free(struct srv_job *job);

/* --- conn.c --- */
/* Accepts a connection on a listener (the connection callback). */
void srv_conn_accept(uv_stream_t *listener, int status);
/* A finished job (the pool's done callback): reply, log, release. */
void srv_conn_job_done(struct srv_job *job, void *arg);
/* Closes connections that are idle, stuck writing, or done lingering. */
void srv_conn_sweep(struct srv_server *srv);
/* Shutdown: every connection stops taking requests; those with nothing in
 * flight and nothing to write are finished now, the others when they drain. */
void srv_conn_stop_all(struct srv_server *srv);

/* --- getiled.c --- */
/* Closes the loop's own handles once stopping and nothing is left. */
void srv_maybe_exit(struct srv_server *srv);
/* Milliseconds since the loop started (uv_now). */
uint64_t srv_now(const struct srv_server *srv);

/* --- jobs.c --- */
/* Starts n worker threads and the async handle. Returns 0 or a negative uv error. */
int srv_pool_start(struct srv_pool *p, uv_loop_t *loop, unsigned n, void (*done)(struct srv_job *, void *),
                   void *arg);
/* Queues a job (loop thread). The caller bounds the number of jobs. */
void srv_pool_submit(struct srv_pool *p, struct srv_job *job);
/* Closes the async handle (loop thread; the loop then finishes). */
void srv_pool_close(struct srv_pool *p);
/* Stops and joins the workers (after the loop ended; the queue is empty). */
void srv_pool_join(struct srv_pool *p);

/* --- render_job.c --- */
/* Runs a render request on a fresh context and encodes its response into
 * job->reply (worker thread). Never fails: errors become error replies
 * (job->reply NULL only when even that could not be allocated). */
void srv_render_job(struct srv_job *job);
/* Encodes a response into a new malloc'd buffer; 0 or a negative gt_err. */
int srv_encode(const struct proto_response *rs, char **out, size_t *len);
/* The same for an error response. */
int srv_encode_error(uint64_t id, const char *code, const char *message, char **out, size_t *len);

#endif
