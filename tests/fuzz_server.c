/* libFuzzer target: getiled's handling of an incoming byte stream, end to
 * end and without sockets: the bytes go into a proto_reader the way
 * conn.c's alloc_cb/read_cb put them there (proto_reader_buffer with the
 * daemon's read chunk, then proto_reader_consumed), each complete message
 * through srv_handle_request (decoding, validation, token, busy,
 * shutting_down, ping/stats answers, job creation: server/request.c), each
 * job through srv_render_job (parsing, rendering, outputs, response
 * encoding: server/render_job.c) and srv_job_finished, the same functions
 * the daemon runs. Like the daemon, at most GT_SRV_MAX_INFLIGHT jobs wait
 * before more messages are taken, and a stream error answers with id 0 and
 * ends the input.
 *
 * Input: byte 0 chooses the read size (bits 0-2), whether a token is
 * required (bit 3, the token is "secret"), whether the server is stopping
 * (bit 4) and --max-jobs (bits 5-6: 64, 1, 2 or 3); byte 1 the server's
 * message cap (bits 0-1: 16 MiB, 64 bytes, 1 KiB, 64 KiB); the rest is the
 * stream. Every reply must be exactly one message that decodes as a
 * response: renders carry the request's id and, on success, exactly the
 * outputs asked for with their sizes; errors a code and a one-line message;
 * a stream error id 0 and too_large or bad_request. Afterwards no job is
 * left and accepted == completed + failed. Renders run with a step budget
 * of 50000 steps and one drawing thread (the output never depends on the
 * request's "threads"), so an input stays fast and its coverage repeatable.
 * Built and run by `make fuzz` (seeds: ping, stats, renders of
 * tests/samples/sample.ppdmp and of a small list, pipelined requests, in
 * tests/fuzz-seeds/fuzz_server/; GETILE_FUZZ_LOG=1 shows the daemon's log
 * line of each request). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../server/server.h"

static struct srv_server srv;

/* reply is one message and decodes as a response; returns it in *rs (whose
 * byte fields point into *u). */
static void decode_reply(const struct srv_reply *r, msgpack_unpacked *u, struct proto_response *rs)
{
    size_t off = 0;
    struct gt_diag d = {0};
    if (!r->buf || r->len == 0) abort();
    if (msgpack_unpack_next(u, r->buf, r->len, &off) != MSGPACK_UNPACK_SUCCESS || off != r->len) abort();
    if (proto_decode_response(&u->data, rs, &d) != 0) abort();
    if (!rs->ok) {
        if (rs->error_code.len == 0 || memchr(rs->error_message.ptr, '\n', rs->error_message.len)) abort();
    }
}

static void check_immediate(const struct srv_reply *r)
{
    msgpack_unpacked u;
    static struct proto_response rs;
    msgpack_unpacked_init(&u);
    decode_reply(r, &u, &rs);
    if (rs.ok) {
        /* ping or stats: nothing else */
        if (rs.has_outputs || rs.has_stats || rs.pong == rs.has_server) abort();
        if (rs.has_server && (rs.server.in_flight != srv.jobs || rs.server.accepted != srv.count.accepted ||
                              rs.server.connections != 1))
            abort();
    } else if (proto_bytes_is(rs.error_code, "busy") && srv.jobs < srv.cfg.max_jobs) {
        abort();
    }
    msgpack_unpacked_destroy(&u);
}

static void check_stream_error(const struct srv_reply *r)
{
    msgpack_unpacked u;
    static struct proto_response rs;
    msgpack_unpacked_init(&u);
    decode_reply(r, &u, &rs);
    if (rs.ok || rs.id != 0 ||
        !(proto_bytes_is(rs.error_code, "too_large") || proto_bytes_is(rs.error_code, "bad_request")))
        abort();
    msgpack_unpacked_destroy(&u);
}

/* Runs a job as a worker would, checks its reply, finishes it as the loop would. */
static void run_job(struct srv_job *job)
{
    job->rq.threads = 1; /* deterministic coverage; the output never depends on it */
    srv_render_job(job);
    struct srv_reply r = {job->reply, job->reply_len};
    msgpack_unpacked u;
    static struct proto_response rs;
    msgpack_unpacked_init(&u);
    decode_reply(&r, &u, &rs);
    if (rs.id != job->rq.id || rs.ok != job->ok) abort();
    if (rs.ok) {
        const struct proto_request *rq = &job->rq;
        if (!rs.has_outputs || !rs.has_stats || rs.outputs != rq->outputs) abort();
        if ((rq->outputs & PROTO_OUT_PNG) && rs.png.len < 8) abort();
        if ((rq->outputs & PROTO_OUT_RGBA) && rs.rgba.len != PROTO_RGBA_BYTES) abort();
        if ((rq->outputs & PROTO_OUT_DEPTH) && rs.depth.len != PROTO_DEPTH_BYTES) abort();
        if (rq->outputs & PROTO_OUT_VRAM) {
            if (rs.nvram != rq->nranges) abort();
            for (uint32_t i = 0; i < rs.nvram; i++)
                if (rs.vram[i].addr != rq->ranges[i].addr || rs.vram[i].data.len != rq->ranges[i].len) abort();
        }
    }
    msgpack_unpacked_destroy(&u);
    srv_job_finished(&srv, job, NULL);
    srv_job_free(job);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const size_t chunks[8] = {GT_SRV_READ_CHUNK, 1, 3, 17, 64, 1000, 4096, 65536};
    static const unsigned max_jobs[4] = {GT_SRV_DEFAULT_MAX_JOBS, 1, 2, 3};
    static const size_t caps[4] = {16u << 20, 64, 1024, 64u << 10};
    static char token[] = "secret";
    if (size < 2) return 0;
    /* the daemon's log lines are formatted, then dropped (GETILE_FUZZ_LOG=1: on stderr) */
    if (!srv.log) srv.log = getenv("GETILE_FUZZ_LOG") ? stderr : fopen("/dev/null", "w");
    size_t chunk = chunks[data[0] & 7];
    memset(&srv.count, 0, sizeof srv.count);
    srv.jobs = 0;
    srv.nconns = 1;
    srv.stopping = data[0] & 0x10;
    srv.cfg.has_token = data[0] & 8;
    srv.cfg.token = token;
    srv.cfg.token_len = strlen(token);
    srv.cfg.max_jobs = max_jobs[(data[0] >> 5) & 3];
    srv.cfg.max_request = caps[data[1] & 3];
    srv.cfg.step_budget = 50000;
    data += 2;
    size -= 2;

    struct proto_reader rd;
    msgpack_unpacked cur;
    struct srv_job *pending[GT_SRV_MAX_INFLIGHT];
    unsigned npending = 0;
    bool no_more = false;
    if (proto_reader_init(&rd, srv.cfg.max_request) != 0) abort();
    msgpack_unpacked_init(&cur);
    size_t off = 0;
    while (!no_more) {
        /* take the complete messages while the in-flight cap allows (conn_process) */
        for (;;) {
            if (npending == GT_SRV_MAX_INFLIGHT) {
                /* the workers finish them; reading resumes */
                for (unsigned i = 0; i < npending; i++) run_job(pending[i]);
                npending = 0;
            }
            struct gt_diag d = {0};
            size_t off0 = rd.up.off;
            int rc = proto_next(&rd, &cur, &d);
            if (rc == 0) break;
            struct srv_reply r;
            if (rc < 0) {
                srv_stream_error(&srv, 1, &rd, &d, &r);
                check_stream_error(&r);
                free(r.buf);
                no_more = true;
                break;
            }
            struct srv_job *job = srv_handle_request(&srv, 1, &cur, rd.up.off - off0, &r);
            if (job) {
                if (cur.zone || job->msg.zone == NULL) abort(); /* the job took the message */
                pending[npending++] = job;
            } else {
                check_immediate(&r);
                free(r.buf);
            }
        }
        if (no_more || off == size) break;
        /* the next read (alloc_cb, read_cb) */
        char *p;
        size_t cap, n = size - off < chunk ? size - off : chunk;
        if (proto_reader_buffer(&rd, GT_SRV_READ_CHUNK, &p, &cap) != 0) abort();
        if (n > cap) n = cap;
        memcpy(p, data + off, n);
        proto_reader_consumed(&rd, n);
        off += n;
    }
    for (unsigned i = 0; i < npending; i++) run_job(pending[i]);
    if (srv.jobs != 0 || srv.count.accepted != srv.count.completed + srv.count.failed) abort();
    msgpack_unpacked_destroy(&cur);
    proto_reader_free(&rd);
    return 0;
}
