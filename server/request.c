/* One request message of getiled, apart from the connection that carried
 * it: decoding and validation, the token, refusals (shutting_down, busy),
 * the answers made on the loop (ping, stats, errors), turning a render into
 * a job, the counters when a job comes back, and the log line.
 *
 * Nothing here touches a socket or the event loop, so the same path can be
 * driven from a buffer (tests/fuzz_server.c) as from conn.c's read callback. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server.h"

void srv_log_request(const struct srv_server *srv, uint64_t conn, uint64_t id, const char *op, size_t bytes,
                     const char *result, uint64_t t0, const char *note)
{
    if (!srv->log) return;
    struct timespec ts;
    struct tm tm;
    char t[32];
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    strftime(t, sizeof t, "%Y-%m-%dT%H:%M:%S", &tm);
    fprintf(srv->log, "%s.%03ldZ conn=%llu id=%llu op=%s bytes=%zu result=%s ms=%.2f%s\n", t, ts.tv_nsec / 1000000,
            (unsigned long long)conn, (unsigned long long)id, op, bytes, result, (double)(uv_hrtime() - t0) / 1e6,
            note ? note : "");
}

static bool token_ok(const struct srv_server *srv, const struct proto_request *rq)
{
    if (!rq->has_token || rq->token.len != srv->cfg.token_len) return false;
    unsigned char x = 0;
    for (size_t i = 0; i < srv->cfg.token_len; i++) x |= (unsigned char)(rq->token.ptr[i] ^ (uint8_t)srv->cfg.token[i]);
    return x == 0;
}

/* An error reply into *out (NULL when it cannot be encoded). */
static void error_reply(uint64_t id, enum proto_code code, const char *message, struct srv_reply *out)
{
    if (srv_encode_error(id, proto_code_name(code), message, &out->buf, &out->len) < 0) {
        out->buf = NULL;
        out->len = 0;
    }
}

struct srv_job *srv_handle_request(struct srv_server *srv, uint64_t conn, msgpack_unpacked *msg, size_t bytes,
                                   struct srv_reply *out)
{
    uint64_t t0 = uv_hrtime();
    struct gt_diag d = {0};
    out->buf = NULL;
    out->len = 0;
    struct srv_job *job = calloc(1, sizeof *job);
    if (!job) {
        srv_log_request(srv, conn, 0, "-", bytes, "internal", t0, NULL);
        error_reply(0, PROTO_E_INTERNAL, "out of memory", out);
        return NULL;
    }
    struct proto_request *rq = &job->rq;
    if (proto_decode_request(&msg->data, rq, &d) < 0) {
        enum proto_code code = rq->code ? rq->code : PROTO_E_BAD_REQUEST;
        uint64_t id = rq->has_id ? rq->id : 0;
        srv_log_request(srv, conn, id, "-", bytes, proto_code_name(code), t0, NULL);
        error_reply(id, code, gt_diag_msg(&d), out);
        free(job);
        return NULL;
    }
    const char *op = proto_op_name(rq->op);
    bool render = rq->op == PROTO_OP_RENDER_DUMP || rq->op == PROTO_OP_RENDER_LIST;
    enum proto_code refuse = PROTO_CODE_NONE;
    if (srv->cfg.has_token && !token_ok(srv, rq))
        refuse = PROTO_E_UNAUTHORIZED;
    else if (render && srv->stopping)
        refuse = PROTO_E_SHUTTING_DOWN;
    else if (render && srv->jobs >= srv->cfg.max_jobs)
        refuse = PROTO_E_BUSY;
    if (refuse) {
        srv_log_request(srv, conn, rq->id, op, bytes, proto_code_name(refuse), t0, NULL);
        error_reply(rq->id, refuse, NULL, out);
        free(job);
        return NULL;
    }
    if (!render) {
        struct proto_response rs = {.id = rq->id, .ok = true};
        if (rq->op == PROTO_OP_PING) {
            rs.pong = true;
        } else {
            rs.has_server = true;
            rs.server = (struct proto_server_stats){srv->count.accepted, srv->count.completed, srv->count.failed,
                                                    srv->jobs, srv->nconns};
        }
        int rc = srv_encode(&rs, &out->buf, &out->len);
        srv_log_request(srv, conn, rq->id, op, bytes, rc < 0 ? "internal" : "ok", t0, NULL);
        if (rc < 0) error_reply(rq->id, PROTO_E_INTERNAL, "cannot encode the response", out);
        free(job);
        return NULL;
    }
    /* a render: the job takes the message (its bytes stay alive with it) */
    job->msg = *msg;
    msgpack_unpacked_init(msg);
    job->conn_num = conn;
    job->req_bytes = bytes;
    job->t_recv = t0;
    job->step_budget = srv->cfg.step_budget;
    srv->jobs++;
    srv->count.accepted++;
    return job;
}

void srv_stream_error(struct srv_server *srv, uint64_t conn, const struct proto_reader *rd,
                      const struct gt_diag *d, struct srv_reply *out)
{
    enum proto_code code = rd->code ? rd->code : PROTO_E_BAD_REQUEST;
    srv_log_request(srv, conn, 0, "-", rd->scanned, proto_code_name(code), uv_hrtime(), " (closing)");
    error_reply(0, code, gt_diag_msg(d), out);
}

void srv_job_finished(struct srv_server *srv, struct srv_job *job, const char *note)
{
    srv->jobs--;
    if (job->ok)
        srv->count.completed++;
    else
        srv->count.failed++;
    srv_log_request(srv, job->conn_num, job->rq.id, proto_op_name(job->rq.op), job->req_bytes,
                    job->reply ? job->code : "internal", job->t_recv, note);
}

void srv_job_free(struct srv_job *job)
{
    if (!job) return;
    free(job->reply);
    msgpack_unpacked_destroy(&job->msg);
    free(job);
}
