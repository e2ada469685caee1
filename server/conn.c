/* Connections of getiled: reading into the proto_reader (alloc_cb reserves
 * unpacker buffer, read_cb marks it consumed), cutting the stream into
 * messages, passing each to request.c (which decodes it and answers it or
 * makes a job), handing renders to the worker pool, writing replies,
 * backpressure and timeouts.
 *
 * Backpressure: reading stops while the connection has GT_SRV_MAX_INFLIGHT
 * jobs, or more than GT_SRV_MAX_UNSENT reply bytes queued; complete messages
 * already buffered wait in the reader and are taken first when it resumes.
 * A full global queue (--max-jobs) answers "busy" at once.
 *
 * Ending a connection cleanly: after a stream error (too_large, bad_request:
 * the stream cannot be resynchronised) or at shutdown, no more requests are
 * taken; once its jobs are answered and their replies written, the write side
 * is shut (FIN) and input is discarded until EOF or GT_SRV_LINGER_MS, so the
 * kernel does not reset the connection over unread input and lose replies. */
#include <stdio.h>
#include <stdlib.h>

#include "server.h"

static void conn_resume(struct srv_conn *c);

static void log_request(const struct srv_conn *c, const char *result, const char *note)
{
    srv_log_request(c->srv, c->num, 0, "-", 0, result, uv_hrtime(), note);
}

/* Drops a reference; the last one frees the connection. */
static void conn_unref(struct srv_conn *c)
{
    if (--c->refs) return;
    msgpack_unpacked_destroy(&c->cur);
    proto_reader_free(&c->reader);
    free(c);
}

static void close_cb(uv_handle_t *h)
{
    struct srv_conn *c = h->data;
    struct srv_server *srv = c->srv;
    conn_unref(c);
    srv_maybe_exit(srv);
}

/* Closes the handle now (pending writes are cancelled); jobs in flight keep
 * the connection alive and their replies are dropped. */
static void conn_close(struct srv_conn *c)
{
    if (c->closing) return;
    struct srv_server *srv = c->srv;
    c->closing = true;
    c->reading = false;
    if (c->prev)
        c->prev->next = c->next;
    else
        srv->conns = c->next;
    if (c->next) c->next->prev = c->prev;
    c->prev = c->next = NULL;
    srv->nconns--;
    uv_close(&c->h.handle, close_cb);
}

/* A pending reply write. */
struct srv_write {
    uv_write_t req;
    char *buf;
    struct srv_conn *conn;
};

static void write_cb(uv_write_t *req, int status)
{
    struct srv_write *w = (struct srv_write *)req;
    struct srv_conn *c = w->conn;
    free(w->buf);
    free(w);
    c->writes--;
    c->write_progress = c->last_active = srv_now(c->srv);
    if (c->closing) return;
    if (status < 0) {
        conn_close(c);
        return;
    }
    conn_resume(c);
}

/* Queues buf (malloc'd; owned from here on, freed after the write). */
static void conn_send(struct srv_conn *c, char *buf, size_t len)
{
    if (c->closing || !buf) {
        free(buf);
        return;
    }
    struct srv_write *w = malloc(sizeof *w);
    if (!w) {
        free(buf);
        conn_close(c);
        return;
    }
    w->buf = buf;
    w->conn = c;
    uv_buf_t b = uv_buf_init(buf, (unsigned)len);
    if (c->writes == 0) c->write_progress = srv_now(c->srv);
    if (uv_write(&w->req, &c->h.stream, &b, 1, write_cb) < 0) {
        free(buf);
        free(w);
        conn_close(c);
        return;
    }
    c->writes++;
}

/* Sends a reply made by request.c (buf NULL: it could not be encoded, close). */
static void send_reply(struct srv_conn *c, struct srv_reply r)
{
    if (!r.buf) {
        conn_close(c);
        return;
    }
    conn_send(c, r.buf, r.len);
}

/* Sends an error reply. */
static void send_error(struct srv_conn *c, uint64_t id, const char *code, const char *message)
{
    struct srv_reply r;
    if (srv_encode_error(id, code, message, &r.buf, &r.len) < 0) r.buf = NULL;
    send_reply(c, r);
}

static void shutdown_cb(uv_shutdown_t *req, int status)
{
    struct srv_conn *c = req->handle->data;
    if (status < 0 && !c->closing) conn_close(c);
}

/* A connection that takes no more requests (or whose client sent EOF) ends
 * once nothing is in flight and everything is written. */
static void conn_maybe_finish(struct srv_conn *c)
{
    if (c->closing || c->shut || !(c->no_more || c->eof) || c->in_flight || c->writes) return;
    if (c->eof) {
        conn_close(c);
        return;
    }
    c->shut = true;
    c->linger_until = srv_now(c->srv) + GT_SRV_LINGER_MS;
    if (uv_shutdown(&c->shutdown_req, &c->h.stream, shutdown_cb) < 0) conn_close(c);
}

/* Answers or queues one complete message (in c->cur). */
static void handle_message(struct srv_conn *c, size_t bytes)
{
    struct srv_reply r;
    c->last_active = srv_now(c->srv);
    struct srv_job *job = srv_handle_request(c->srv, c->num, &c->cur, bytes, &r);
    if (!job) {
        send_reply(c, r);
        return;
    }
    /* a render: the job holds a reference */
    job->conn = c;
    c->refs++;
    c->in_flight++;
    srv_pool_submit(&c->srv->pool, job);
}

static bool output_backlogged(const struct srv_conn *c)
{
    return c->h.stream.write_queue_size > GT_SRV_MAX_UNSENT;
}

/* Takes the complete messages buffered in the reader while the caps allow. */
static void conn_process(struct srv_conn *c)
{
    while (!c->closing && !c->no_more && c->in_flight < GT_SRV_MAX_INFLIGHT && !output_backlogged(c)) {
        struct gt_diag d = {0};
        size_t off0 = c->reader.up.off;
        int rc = proto_next(&c->reader, &c->cur, &d);
        if (rc == 0) break;
        if (rc < 0) {
            /* the stream cannot be resynchronised: answer with id 0 and end */
            struct srv_reply r;
            srv_stream_error(c->srv, c->num, &c->reader, &d, &r);
            send_reply(c, r);
            c->no_more = true;
            break;
        }
        handle_message(c, c->reader.up.off - off0);
    }
}

static void alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    static char discard[1 << 16]; /* input of a shut connection (loop thread only) */
    struct srv_conn *c = h->data;
    char *p;
    size_t cap;
    if (c->shut || c->no_more) {
        *buf = uv_buf_init(discard, sizeof discard);
        return;
    }
    if (proto_reader_buffer(&c->reader, GT_SRV_READ_CHUNK, &p, &cap) < 0) {
        *buf = uv_buf_init(NULL, 0); /* read_cb gets UV_ENOBUFS */
        return;
    }
    *buf = uv_buf_init(p, cap > GT_SRV_READ_CHUNK * 16 ? GT_SRV_READ_CHUNK * 16 : (unsigned)cap);
}

static void read_cb(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    struct srv_conn *c = s->data;
    if (c->closing) return;
    if (c->shut) {
        if (n < 0) conn_close(c); /* EOF after our FIN: done */
        return;
    }
    if (n == UV_ENOBUFS && !c->no_more) {
        log_request(c, "internal", " (closing: out of memory)");
        send_error(c, 0, proto_code_name(PROTO_E_INTERNAL), "out of memory buffering the request");
        c->no_more = true;
        conn_resume(c);
        return;
    }
    if (n < 0) {
        if (n != UV_EOF) {
            conn_close(c);
            return;
        }
        /* the client finished sending: answer what it sent, then close */
        c->eof = true;
        uv_read_stop(s);
        c->reading = false;
        conn_resume(c);
        return;
    }
    if (n == 0) return;
    if (!c->no_more) proto_reader_consumed(&c->reader, (size_t)n);
    conn_resume(c);
}

/* Takes buffered requests, then starts or stops reading as the caps say, and
 * ends the connection when it is finished. */
static void conn_resume(struct srv_conn *c)
{
    if (c->closing) return;
    conn_process(c);
    if (c->closing) return;
    bool want = c->shut || (!c->no_more && !c->eof && c->in_flight < GT_SRV_MAX_INFLIGHT && !output_backlogged(c));
    if (want && !c->reading) {
        if (uv_read_start(&c->h.stream, alloc_cb, read_cb) < 0) {
            conn_close(c);
            return;
        }
        c->reading = true;
    } else if (!want && c->reading) {
        uv_read_stop(&c->h.stream);
        c->reading = false;
    }
    conn_maybe_finish(c);
    if (c->shut && !c->closing && !c->reading) {
        if (uv_read_start(&c->h.stream, alloc_cb, read_cb) < 0)
            conn_close(c);
        else
            c->reading = true;
    }
}

static void free_cb(uv_handle_t *h) { free(h->data); }

void srv_conn_accept(uv_stream_t *ls, int status)
{
    struct srv_listener *l = ls->data;
    struct srv_server *srv = l->srv;
    if (status < 0) {
        fprintf(stderr, "getiled: accept: %s\n", uv_strerror(status));
        return;
    }
    struct srv_conn *c = calloc(1, sizeof *c);
    if (!c) return;
    int rc = l->is_unix ? uv_pipe_init(srv->loop, &c->h.pipe, 0) : uv_tcp_init(srv->loop, &c->h.tcp);
    if (rc < 0) {
        free(c);
        return;
    }
    c->h.handle.data = c;
    if (uv_accept(ls, &c->h.stream) < 0 || srv->stopping || proto_reader_init(&c->reader, srv->cfg.max_request) < 0) {
        uv_close(&c->h.handle, free_cb);
        return;
    }
    if (!l->is_unix) uv_tcp_nodelay(&c->h.tcp, 1);
    msgpack_unpacked_init(&c->cur);
    c->srv = srv;
    c->refs = 1;
    c->num = ++srv->next_conn;
    c->last_active = srv_now(srv);
    c->next = srv->conns;
    if (srv->conns) srv->conns->prev = c;
    srv->conns = c;
    srv->nconns++;
    conn_resume(c);
}

void srv_conn_job_done(struct srv_job *job, void *arg)
{
    struct srv_server *srv = arg;
    struct srv_conn *c = job->conn;
    c->in_flight--;
    srv_job_finished(srv, job, c->closing ? " (client gone: reply dropped)" : NULL);
    if (!c->closing) {
        if (job->reply) {
            c->last_active = srv_now(srv);
            conn_send(c, job->reply, job->reply_len);
            job->reply = NULL;
        } else {
            send_error(c, job->rq.id, proto_code_name(PROTO_E_INTERNAL), "out of memory encoding the response");
        }
        conn_resume(c);
    }
    srv_job_free(job);
    conn_unref(c);
    srv_maybe_exit(srv);
}

void srv_conn_sweep(struct srv_server *srv)
{
    uint64_t now = srv_now(srv);
    struct srv_conn *next;
    for (struct srv_conn *c = srv->conns; c; c = next) {
        next = c->next;
        if (c->shut) {
            if (now >= c->linger_until) conn_close(c);
        } else if (c->writes && now - c->write_progress > srv->cfg.write_timeout_ms) {
            fprintf(stderr, "getiled: conn=%llu: reply not read for %llu ms: closing\n", (unsigned long long)c->num,
                    (unsigned long long)(now - c->write_progress));
            conn_close(c);
        } else if (srv->cfg.idle_timeout_ms && !c->in_flight && !c->writes &&
                   now - c->last_active > srv->cfg.idle_timeout_ms) {
            conn_close(c);
        }
    }
}

void srv_conn_stop_all(struct srv_server *srv)
{
    struct srv_conn *next;
    for (struct srv_conn *c = srv->conns; c; c = next) {
        next = c->next;
        c->no_more = true;
        if (c->reading && !c->shut) {
            uv_read_stop(&c->h.stream);
            c->reading = false;
        }
        conn_maybe_finish(c);
        if (c->shut && !c->closing && !c->reading) conn_resume(c);
    }
}
