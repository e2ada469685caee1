/* getiled with real sockets: each test starts a daemon (test_getiled_bin())
 * listening on a Unix socket in the test's scratch directory and on a
 * loopback TCP port derived from the pid, talks to it with plain blocking
 * sockets, and stops it. The daemon is started with PR_SET_PDEATHSIG, so a
 * failing test (which exits at once) never leaves it running.
 *
 * Expected images are `getile render`'s output for the same dump, compared
 * byte for byte. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <dirent.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "../clients/netclient.h"
#include "dump.h"
#include "proto.h"
#include "test.h"

#define SAMPLE "tests/samples/sample.ppdmp"

const char *test_getiled_bin(void)
{
    const char *env = getenv("GETILED_BIN");
    return env && *env ? env : "build/getiled";
}

/* --- The daemon --------------------------------------------------------- */

struct daemon {
    pid_t pid;
    int port;
    char sock[256], log[256];
};

/* The clients' dialler (clients/netclient.c), quietly: -1 with errno set. */
static int connect_unix(const char *path)
{
    char addr[300];
    snprintf(addr, sizeof addr, "unix:%s", path);
    return nc_dial(addr, NULL);
}

static int connect_tcp(int port)
{
    char addr[64];
    snprintf(addr, sizeof addr, "tcp://127.0.0.1:%d", port);
    return nc_dial(addr, NULL); /* with TCP_NODELAY */
}

/* A client socket with a receive timeout (a hung daemon fails the test). */
static int client(const struct daemon *dm, bool tcp)
{
    int fd = tcp ? connect_tcp(dm->port) : connect_unix(dm->sock);
    CHECK_MSG(fd >= 0, "cannot connect to getiled (%s): %s", tcp ? "tcp" : "unix", strerror(errno));
    struct timeval tv = {120, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
}

static void show_log(const struct daemon *dm)
{
    test_system("tail -20 '%s' >&2", dm->log);
}

/* Starts getiled with extra arguments (NULL-terminated) and waits until it
 * accepts on both sockets. */
static void daemon_start(struct daemon *dm, const char *const *extra)
{
    memset(dm, 0, sizeof *dm);
    snprintf(dm->sock, sizeof dm->sock, "%s/getiled.sock", test_tmpdir());
    snprintf(dm->log, sizeof dm->log, "%s/getiled.log", test_tmpdir());
    for (int attempt = 0; attempt < 8; attempt++) {
        dm->port = 20000 + (int)((getpid() * 7 + attempt * 1013) % 40000);
        char tcp[64], unx[300];
        snprintf(tcp, sizeof tcp, "tcp://127.0.0.1:%d", dm->port);
        snprintf(unx, sizeof unx, "unix:%s", dm->sock);
        const char *argv[32] = {"getiled", "--listen", unx, "--listen", tcp};
        int n = 5;
        for (int i = 0; extra && extra[i] && n < 30; i++) argv[n++] = extra[i];
        argv[n] = NULL;
        pid_t parent = getpid();
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        CHECK(pid >= 0);
        if (pid == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent) _exit(127);
            FILE *f = freopen(dm->log, "a", stderr);
            (void)f;
            execv(test_getiled_bin(), (char *const *)argv);
            _exit(127);
        }
        dm->pid = pid;
        for (int waited = 0; waited < 30000; waited += 20) {
            int st;
            if (waitpid(pid, &st, WNOHANG) == pid) {
                dm->pid = 0;
                break; /* exited: the port may be taken, try another */
            }
            int a = connect_unix(dm->sock), b = a >= 0 ? connect_tcp(dm->port) : -1;
            if (a >= 0) close(a);
            if (b >= 0) close(b);
            if (a >= 0 && b >= 0) return;
            test_sleep_ms(20);
        }
        if (dm->pid) {
            kill(dm->pid, SIGKILL);
            waitpid(dm->pid, NULL, 0);
            show_log(dm);
            test_fail_(__FILE__, __LINE__, "getiled did not start accepting");
        }
    }
    show_log(dm);
    test_fail_(__FILE__, __LINE__, "getiled could not start (see its log above)");
}

/* SIGTERM, then waits (SIGKILL after 60 s); returns the exit status, or -1
 * when it did not exit by itself. */
static int daemon_stop(struct daemon *dm)
{
    if (!dm->pid) return -1;
    kill(dm->pid, SIGTERM);
    int st = 0;
    for (int waited = 0; waited < 60000; waited += 10) {
        pid_t r = waitpid(dm->pid, &st, WNOHANG);
        if (r == dm->pid) {
            dm->pid = 0;
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        }
        test_sleep_ms(10);
    }
    kill(dm->pid, SIGKILL);
    waitpid(dm->pid, NULL, 0);
    dm->pid = 0;
    return -1;
}

/* Stops the daemon and checks that it exited 0 and removed its socket. */
static void daemon_stop_ok(struct daemon *dm)
{
    int st = daemon_stop(dm);
    if (st != 0) show_log(dm);
    CHECK_EQ_I(st, 0);
    struct stat sb;
    CHECK_MSG(stat(dm->sock, &sb) != 0, "the unix socket %s was not removed", dm->sock);
}

/* --- Messages ----------------------------------------------------------- */

static void send_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        CHECK_MSG(w > 0, "send: %s", strerror(errno));
        c += w;
        n -= (size_t)w;
    }
}

static void send_request(int fd, const struct proto_request *rq)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    CHECK_EQ_I(proto_encode_request(&pk, rq), 0);
    send_all(fd, sb.data, sb.size);
    msgpack_sbuffer_destroy(&sb);
}

static struct proto_request *new_request(enum proto_op op, uint64_t id)
{
    struct proto_request *rq = malloc(sizeof *rq);
    CHECK(rq != NULL);
    proto_request_init(rq, op, id);
    return rq;
}

/* Reads responses from one socket. */
struct rx {
    struct proto_reader rd;
    msgpack_unpacked msg;
    struct proto_response rs; /* the last one; its bytes live until the next rx_next */
};

static struct rx *rx_new(void)
{
    struct rx *x = calloc(1, sizeof *x);
    CHECK(x != NULL);
    CHECK_EQ_I(proto_reader_init(&x->rd, 0), 0);
    msgpack_unpacked_init(&x->msg);
    return x;
}

static void rx_free(struct rx *x)
{
    msgpack_unpacked_destroy(&x->msg);
    proto_reader_free(&x->rd);
    free(x);
}

/* The next response: 1, or 0 at EOF (or a reset) before one. */
static int rx_next(struct rx *x, int fd)
{
    for (;;) {
        struct gt_diag d = {0};
        int rc = proto_next(&x->rd, &x->msg, &d);
        CHECK_MSG(rc >= 0, "bad response stream: %s", gt_diag_msg(&d));
        if (rc == 1) {
            CHECK_MSG(proto_decode_response(&x->msg.data, &x->rs, &d) == 0, "bad response: %s", gt_diag_msg(&d));
            return 1;
        }
        char *buf;
        size_t cap;
        CHECK_EQ_I(proto_reader_buffer(&x->rd, 1 << 16, &buf, &cap), 0);
        ssize_t n = recv(fd, buf, cap, 0);
        if (n < 0 && errno == EINTR) continue;
        CHECK_MSG(n >= 0 || errno == ECONNRESET, "recv: %s", strerror(errno));
        if (n <= 0) return 0;
        proto_reader_consumed(&x->rd, (size_t)n);
    }
}

static bool code_is(const struct proto_response *rs, const char *code)
{
    return !rs->ok && proto_bytes_is(rs->error_code, code);
}

static void check_error(const struct proto_response *rs, uint64_t id, const char *code)
{
    CHECK_MSG(code_is(rs, code), "expected error %s, got ok=%d code %.*s", code, rs->ok, (int)rs->error_code.len,
              (const char *)rs->error_code.ptr);
    CHECK_EQ_U(rs->id, id);
}

static void ping(int fd, struct rx *x, uint64_t id)
{
    struct proto_request *rq = new_request(PROTO_OP_PING, id);
    send_request(fd, rq);
    free(rq);
    CHECK_EQ_I(rx_next(x, fd), 1);
    CHECK_MSG(x->rs.ok && x->rs.pong, "ping %llu: no pong (%.*s)", (unsigned long long)id,
              (int)x->rs.error_code.len, (const char *)x->rs.error_code.ptr);
    CHECK_EQ_U(x->rs.id, id);
}

static uint8_t *read_all(const char *path, size_t *len)
{
    uint8_t *p;
    struct gt_diag d = {0};
    CHECK_MSG(gt_read_file(path, GT_DUMP_MAX_FILE, &p, len, &d) == 0, "%s: %s", path, gt_diag_msg(&d));
    return p;
}

/* `getile render`'s PNG of a dump. */
static uint8_t *reference_png(const char *dump, const char *name, size_t *len)
{
    char out[512];
    snprintf(out, sizeof out, "%s/%s", test_tmpdir(), name);
    CHECK_EQ_I(test_system("'%s' render '%s' -o '%s' >/dev/null", test_getile_bin(), dump, out), 0);
    return read_all(out, len);
}

static void send_render_dump(int fd, uint64_t id, const uint8_t *dump, size_t len)
{
    struct proto_request *rq = new_request(PROTO_OP_RENDER_DUMP, id);
    rq->dump = (struct proto_bytes){dump, (uint32_t)len};
    send_request(fd, rq);
    free(rq);
}

static void check_png(const struct proto_response *rs, const uint8_t *ref, size_t ref_len)
{
    CHECK_MSG(rs->ok, "render %llu failed: %.*s: %.*s", (unsigned long long)rs->id, (int)rs->error_code.len,
              (const char *)rs->error_code.ptr, (int)rs->error_message.len, (const char *)rs->error_message.ptr);
    CHECK(rs->outputs & PROTO_OUT_PNG);
    CHECK_EQ_U(rs->png.len, ref_len);
    CHECK_MSG(memcmp(rs->png.ptr, ref, ref_len) == 0, "PNG of %llu differs from getile render's",
              (unsigned long long)rs->id);
}

/* --- Tests -------------------------------------------------------------- */

TEST(server_ping_stats)
{
    struct daemon dm;
    daemon_start(&dm, NULL);
    int u = client(&dm, false), t = client(&dm, true);
    struct rx *xu = rx_new(), *xt = rx_new();
    ping(u, xu, 1);
    ping(t, xt, 2);
    struct proto_request *rq = new_request(PROTO_OP_STATS, 3);
    send_request(t, rq);
    free(rq);
    CHECK_EQ_I(rx_next(xt, t), 1);
    CHECK(xt->rs.ok && xt->rs.has_server);
    CHECK_EQ_U(xt->rs.server.connections, 2);
    CHECK_EQ_U(xt->rs.server.accepted, 0);
    CHECK_EQ_U(xt->rs.server.in_flight, 0);
    close(u);
    close(t);
    rx_free(xu);
    rx_free(xt);
    daemon_stop_ok(&dm);
    CHECK_EQ_I(test_system("grep -q 'id=2 op=ping bytes=[0-9]* result=ok ms=' '%s'", dm.log), 0);
}

TEST(server_render_sample)
{
    size_t ref_len, dlen;
    uint8_t *ref = reference_png(SAMPLE, "ref.png", &ref_len);
    uint8_t *dump = read_all(SAMPLE, &dlen);
    struct daemon dm;
    daemon_start(&dm, NULL);
    int fd = client(&dm, true);
    struct rx *x = rx_new();

    struct proto_request *rq = new_request(PROTO_OP_RENDER_DUMP, 42);
    rq->dump = (struct proto_bytes){dump, (uint32_t)dlen};
    rq->outputs = PROTO_OUT_ALL;
    rq->nranges = 1;
    rq->ranges[0] = (struct proto_range){GT_VRAM_BASE, 4096};
    rq->threads = 3;
    rq->tile_size = 32;
    send_request(fd, rq);
    CHECK_EQ_I(rx_next(x, fd), 1);
    check_png(&x->rs, ref, ref_len);
    CHECK_EQ_U(x->rs.id, 42);
    CHECK_EQ_U(x->rs.rgba.len, PROTO_RGBA_BYTES);
    CHECK_EQ_U(x->rs.depth.len, PROTO_DEPTH_BYTES);
    CHECK_EQ_U(x->rs.nvram, 1);
    CHECK_EQ_U(x->rs.vram[0].data.len, 4096);
    CHECK(x->rs.has_stats);
    CHECK_EQ_U(x->rs.stats.draws, 3);
    CHECK(x->rs.stats.pixels > 0);

    /* only the stats */
    rq->id = 43;
    rq->outputs = 0;
    send_request(fd, rq);
    CHECK_EQ_I(rx_next(x, fd), 1);
    CHECK(x->rs.ok && x->rs.has_stats);
    CHECK_EQ_U(x->rs.outputs, 0);

    /* a dump that is not one: the render's error code */
    rq->id = 44;
    rq->outputs = PROTO_OUT_PNG;
    rq->dump = (struct proto_bytes){(const uint8_t *)"not a dump at all", 17};
    send_request(fd, rq);
    CHECK_EQ_I(rx_next(x, fd), 1);
    CHECK_EQ_U(x->rs.id, 44);
    CHECK(!x->rs.ok);
    CHECK(x->rs.error_message.len > 0);
    ping(fd, x, 45);
    free(rq);
    close(fd);
    rx_free(x);

    /* getile submit writes the same bytes */
    char cmd_out[512];
    snprintf(cmd_out, sizeof cmd_out, "%s/sub", test_tmpdir());
    mkdir(cmd_out, 0700);
    CHECK_EQ_I(test_system("'%s' submit --server unix:'%s' -o '%s' " SAMPLE " >'%s/submit.txt'", test_getile_bin(),
                           dm.sock, cmd_out, test_tmpdir()),
               0);
    char png[600];
    snprintf(png, sizeof png, "%s/sample.png", cmd_out);
    size_t sub_len;
    uint8_t *sub = read_all(png, &sub_len);
    CHECK_EQ_U(sub_len, ref_len);
    CHECK(memcmp(sub, ref, ref_len) == 0);
    CHECK_EQ_I(test_system("grep -q '^ok ' '%s/submit.txt'", test_tmpdir()), 0);
    /* a failing dump: exit 1 and a FAIL line */
    CHECK_EQ_I(test_system("'%s' submit --server tcp://127.0.0.1:%d -o '%s' Makefile >'%s/submit2.txt'",
                           test_getile_bin(), dm.port, cmd_out, test_tmpdir()),
               1);
    CHECK_EQ_I(test_system("grep -q '^FAIL Makefile' '%s/submit2.txt'", test_tmpdir()), 0);
    free(sub);
    daemon_stop_ok(&dm);
    free(ref);
    free(dump);
}

TEST(server_render_list)
{
    struct daemon dm;
    daemon_start(&dm, NULL);
    int fd = client(&dm, false);
    struct rx *x = rx_new();
    /* FINISH, END at the start of user RAM */
    static const uint8_t list[8] = {0, 0, 0, 0x0F, 0, 0, 0, 0x0C};
    struct proto_request *rq = new_request(PROTO_OP_RENDER_LIST, 7);
    rq->nblocks = 1;
    rq->blocks[0] = (struct proto_block){0x08800000u, {list, sizeof list}};
    rq->pc = 0x08800000u;
    rq->nregs = 1;
    rq->regs[0] = 0x9C000000u; /* FBP 0 */
    rq->has_display = true;
    rq->display = (struct proto_display){GT_VRAM_BASE, 512, 3};
    rq->outputs = PROTO_OUT_RGBA | PROTO_OUT_PNG;
    send_request(fd, rq);
    CHECK_EQ_I(rx_next(x, fd), 1);
    CHECK_MSG(x->rs.ok, "render_list: %.*s", (int)x->rs.error_message.len, (const char *)x->rs.error_message.ptr);
    CHECK_EQ_U(x->rs.rgba.len, PROTO_RGBA_BYTES);
    CHECK(x->rs.png.len > 8);
    /* a block outside PSP memory */
    rq->id = 8;
    rq->blocks[0].addr = 0x02000000u;
    send_request(fd, rq);
    CHECK_EQ_I(rx_next(x, fd), 1);
    check_error(&x->rs, 8, "bad_address");
    CHECK(test_contains_ci((const char *)x->rs.error_message.ptr, "outside PSP memory"));
    free(rq);
    close(fd);
    rx_free(x);
    daemon_stop_ok(&dm);
}

TEST(server_pipelining)
{
    size_t ref_len, dlen;
    uint8_t *ref = reference_png(SAMPLE, "ref.png", &ref_len);
    uint8_t *dump = read_all(SAMPLE, &dlen);
    struct daemon dm;
    daemon_start(&dm, (const char *const[]){"--threads", "2", NULL});
    int fd = client(&dm, false);
    struct rx *x = rx_new();
    /* 12 requests (over the in-flight cap of 8) before reading anything */
    enum { N = 12 };
    for (uint64_t id = 100; id < 100 + N; id++) {
        if (id % 4 == 3) {
            struct proto_request *rq = new_request(PROTO_OP_PING, id);
            send_request(fd, rq);
            free(rq);
        } else {
            send_render_dump(fd, id, dump, dlen);
        }
    }
    bool seen[N] = {0};
    for (int i = 0; i < N; i++) {
        CHECK_EQ_I(rx_next(x, fd), 1);
        uint64_t id = x->rs.id;
        CHECK_MSG(id >= 100 && id < 100 + N && !seen[id - 100], "unexpected id %llu", (unsigned long long)id);
        seen[id - 100] = true;
        if (id % 4 == 3)
            CHECK(x->rs.ok && x->rs.pong);
        else
            check_png(&x->rs, ref, ref_len);
    }
    close(fd);
    rx_free(x);
    daemon_stop_ok(&dm);
    free(ref);
    free(dump);
}

/* Packs a small map by hand: alternating str keys and values given as a
 * tiny format (u: uint, s: str). */
static void send_raw_map(int fd, const char *fmt, ...)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    va_list ap;
    va_start(ap, fmt);
    msgpack_pack_map(&pk, strlen(fmt));
    for (const char *f = fmt; *f; f++) {
        const char *key = va_arg(ap, const char *);
        msgpack_pack_str_with_body(&pk, key, strlen(key));
        if (*f == 'u') {
            msgpack_pack_uint64(&pk, va_arg(ap, uint64_t));
        } else {
            const char *v = va_arg(ap, const char *);
            msgpack_pack_str_with_body(&pk, v, strlen(v));
        }
    }
    va_end(ap);
    send_all(fd, sb.data, sb.size);
    msgpack_sbuffer_destroy(&sb);
}

TEST(server_bad_requests)
{
    struct daemon dm;
    daemon_start(&dm, NULL);
    int fd = client(&dm, true);
    struct rx *x = rx_new();
    /* "dump" as a str: bad_request naming the key; the connection stays usable */
    send_raw_map(fd, "uuss", "v", (uint64_t)1, "id", (uint64_t)5, "op", "render_dump", "dump", "abc");
    CHECK_EQ_I(rx_next(x, fd), 1);
    check_error(&x->rs, 5, "bad_request");
    CHECK(test_contains_ci((const char *)x->rs.error_message.ptr, "dump"));
    ping(fd, x, 6);
    /* an unknown op */
    send_raw_map(fd, "uus", "v", (uint64_t)1, "id", (uint64_t)7, "op", "explode");
    CHECK_EQ_I(rx_next(x, fd), 1);
    check_error(&x->rs, 7, "unknown_op");
    /* a missing key, a wrong version */
    send_raw_map(fd, "uus", "v", (uint64_t)1, "id", (uint64_t)8, "op", "render_dump");
    CHECK_EQ_I(rx_next(x, fd), 1);
    check_error(&x->rs, 8, "bad_request");
    send_raw_map(fd, "uus", "v", (uint64_t)2, "id", (uint64_t)9, "op", "ping");
    CHECK_EQ_I(rx_next(x, fd), 1);
    check_error(&x->rs, 9, "bad_version");
    /* not a map at all (a valid msgpack value) */
    static const uint8_t seven = 0x07;
    send_all(fd, &seven, 1);
    CHECK_EQ_I(rx_next(x, fd), 1);
    check_error(&x->rs, 0, "bad_request");
    ping(fd, x, 10);
    close(fd);
    rx_free(x);
    daemon_stop_ok(&dm);
}

TEST(server_stream_errors)
{
    struct daemon dm;
    daemon_start(&dm, (const char *const[]){"--max-request-mb", "1", NULL});
    struct rx *x = rx_new();
    /* malformed msgpack: bad_request, then the daemon closes */
    int fd = client(&dm, false);
    ping(fd, x, 1);
    static const uint8_t junk[] = {0x81, 0xc1, 0x00, 0x01};
    send_all(fd, junk, sizeof junk);
    CHECK_EQ_I(rx_next(x, fd), 1);
    check_error(&x->rs, 0, "bad_request");
    CHECK_EQ_I(rx_next(x, fd), 0);
    close(fd);
    rx_free(x);

    /* a message over the cap (a bin of 2 MiB announced): too_large, then close */
    x = rx_new();
    fd = client(&dm, true);
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, 4);
    msgpack_pack_str_with_body(&pk, "v", 1);
    msgpack_pack_uint64(&pk, 1);
    msgpack_pack_str_with_body(&pk, "id", 2);
    msgpack_pack_uint64(&pk, 3);
    msgpack_pack_str_with_body(&pk, "op", 2);
    msgpack_pack_str_with_body(&pk, "render_dump", 11);
    msgpack_pack_str_with_body(&pk, "dump", 4);
    msgpack_pack_bin(&pk, 2u << 20);
    send_all(fd, sb.data, sb.size);
    static uint8_t zeros[4096];
    send_all(fd, zeros, sizeof zeros);
    msgpack_sbuffer_destroy(&sb);
    CHECK_EQ_I(rx_next(x, fd), 1);
    check_error(&x->rs, 0, "too_large");
    CHECK_EQ_I(rx_next(x, fd), 0);
    close(fd);
    rx_free(x);

    /* the daemon still serves */
    x = rx_new();
    fd = client(&dm, true);
    ping(fd, x, 4);
    close(fd);
    rx_free(x);
    daemon_stop_ok(&dm);
}

TEST(server_client_disconnects)
{
    size_t ref_len, dlen;
    uint8_t *ref = reference_png(SAMPLE, "ref.png", &ref_len);
    uint8_t *dump = read_all(SAMPLE, &dlen);
    struct daemon dm;
    daemon_start(&dm, (const char *const[]){"--threads", "1", NULL});
    /* requests sent, then the client vanishes before the replies */
    for (int i = 0; i < 4; i++) {
        int fd = client(&dm, i & 1);
        for (uint64_t id = 1; id <= 3; id++) send_render_dump(fd, id, dump, dlen);
        if (i == 3) send_all(fd, "\x84\xa1v\x01", 4); /* and half a message */
        close(fd);
    }
    /* the next client is served */
    int fd = client(&dm, false);
    struct rx *x = rx_new();
    send_render_dump(fd, 9, dump, dlen);
    CHECK_EQ_I(rx_next(x, fd), 1);
    check_png(&x->rs, ref, ref_len);
    close(fd);
    rx_free(x);
    daemon_stop_ok(&dm);
    free(ref);
    free(dump);
}

TEST(server_idle_timeout)
{
    struct daemon dm;
    daemon_start(&dm, (const char *const[]){"--idle-timeout", "1", NULL});
    int fd = client(&dm, true);
    struct rx *x = rx_new();
    ping(fd, x, 1);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK_EQ_I(rx_next(x, fd), 0); /* closed by the daemon */
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    CHECK_MSG(s >= 0.9 && s < 30, "closed after %.2f s", s);
    close(fd);
    rx_free(x);
    daemon_stop_ok(&dm);
}

TEST(server_token)
{
    char tok[512];
    snprintf(tok, sizeof tok, "%s/token", test_tmpdir());
    FILE *f = fopen(tok, "w");
    CHECK(f != NULL);
    fputs("s3cret\n", f);
    fclose(f);
    struct daemon dm;
    daemon_start(&dm, (const char *const[]){"--token-file", tok, NULL});
    int fd = client(&dm, false);
    struct rx *x = rx_new();
    struct proto_request *rq = new_request(PROTO_OP_PING, 1);
    send_request(fd, rq);
    CHECK_EQ_I(rx_next(x, fd), 1);
    check_error(&x->rs, 1, "unauthorized");
    rq->id = 2;
    rq->has_token = true;
    rq->token = (struct proto_bytes){(const uint8_t *)"s3creT", 6};
    send_request(fd, rq);
    CHECK_EQ_I(rx_next(x, fd), 1);
    check_error(&x->rs, 2, "unauthorized");
    rq->id = 3;
    rq->token = (struct proto_bytes){(const uint8_t *)"s3cret", 6};
    send_request(fd, rq);
    CHECK_EQ_I(rx_next(x, fd), 1);
    CHECK(x->rs.ok && x->rs.pong);
    free(rq);
    close(fd);
    rx_free(x);
    daemon_stop_ok(&dm);
}

/* --- Many clients ------------------------------------------------------- */

struct worker_arg {
    const struct daemon *dm;
    int index;
    const uint8_t *dump, *ref;
    size_t dlen, ref_len;
    int ok;
};

static void *render_client(void *p)
{
    struct worker_arg *a = p;
    int fd = client(a->dm, a->index & 1);
    struct rx *x = rx_new();
    for (uint64_t k = 0; k < 2; k++) send_render_dump(fd, (uint64_t)a->index * 10 + k, a->dump, a->dlen);
    int good = 0;
    for (int k = 0; k < 2; k++) {
        if (rx_next(x, fd) != 1) break;
        check_png(&x->rs, a->ref, a->ref_len);
        good++;
    }
    a->ok = good == 2;
    close(fd);
    rx_free(x);
    return NULL;
}

TEST(server_concurrent_clients)
{
    size_t ref_len, dlen;
    uint8_t *ref = reference_png(SAMPLE, "ref.png", &ref_len);
    uint8_t *dump = read_all(SAMPLE, &dlen);
    struct daemon dm;
    daemon_start(&dm, NULL);
    enum { N = 16 };
    pthread_t t[N];
    struct worker_arg a[N];
    for (int i = 0; i < N; i++) {
        a[i] = (struct worker_arg){&dm, i, dump, ref, dlen, ref_len, 0};
        CHECK_EQ_I(pthread_create(&t[i], NULL, render_client, &a[i]), 0);
    }
    for (int i = 0; i < N; i++) pthread_join(t[i], NULL);
    for (int i = 0; i < N; i++) CHECK_MSG(a[i].ok, "client %d did not get both renders", i);
    int fd = client(&dm, true);
    struct rx *x = rx_new();
    struct proto_request *rq = new_request(PROTO_OP_STATS, 1);
    send_request(fd, rq);
    free(rq);
    CHECK_EQ_I(rx_next(x, fd), 1);
    CHECK_EQ_U(x->rs.server.accepted, 2 * N);
    CHECK_EQ_U(x->rs.server.completed, 2 * N);
    CHECK_EQ_U(x->rs.server.failed, 0);
    close(fd);
    rx_free(x);
    daemon_stop_ok(&dm);
    free(ref);
    free(dump);
}

TEST(server_shared_dumps)
{
    const char *ft = test_frametests_dir();
    char dir[512];
    if (!ft) test_skip("the shared frame tests (../shared/frametests) are absent");
    snprintf(dir, sizeof dir, "%s/dumps", ft);
    DIR *dd = opendir(dir);
    if (!dd) test_skip("no dumps folder in %s", ft);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dd)))
        if (e->d_name[0] != '.') n++;
    closedir(dd);
    if (n == 0) test_skip("no dumps in %s", dir);
    /* references: getile render of each dump, into ref/ */
    const char *tmp = test_tmpdir();
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK_EQ_I(test_system("mkdir -p '%s/ref' && for f in '%s'/*; do b=$(basename \"$f\"); b=${b%%.[zZ][iI][pP]}; "
                           "b=${b%%.ppdmp}; '%s' render \"$f\" -o '%s/ref/'\"$b\".png >/dev/null || exit 1; done",
                           tmp, dir, test_getile_bin(), tmp),
               0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ref_s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    /* Sixteen concurrent clients (half on each socket); every dump goes to
     * four of them; on a slow build (sanitizers: the references took over
     * 12 s) to one, to stay within about 90 s. */
    struct daemon dm;
    /* Up to 16 x 6 requests at once: room for all of them (busy is tested
     * elsewhere). */
    daemon_start(&dm, (const char *const[]){"--max-jobs", "256", NULL});
    bool share = ref_s > 12;
    if (share) fprintf(stderr, "    references took %.1f s: each dump goes to one client\n", ref_s);
    char bin[PATH_MAX], dumps[PATH_MAX];
    CHECK(realpath(test_getile_bin(), bin) != NULL);
    CHECK(realpath(dir, dumps) != NULL);
    static char cmd[1 << 16];
    size_t len = (size_t)snprintf(cmd, sizeof cmd, "cd '%s' && pids=; ", tmp);
    enum { NCLIENTS = 16 };
    int expect[NCLIENTS + 1] = {0};
    for (int k = 1; k <= NCLIENTS; k++) {
        char srv[400];
        if (k % 2 == 0)
            snprintf(srv, sizeof srv, "tcp://127.0.0.1:%d", dm.port);
        else
            snprintf(srv, sizeof srv, "unix:%s", dm.sock);
        len += (size_t)snprintf(cmd + len, sizeof cmd - len, "mkdir -p out%d; '%s' submit --server '%s' -o out%d", k,
                                bin, srv, k);
        dd = opendir(dir);
        CHECK(dd != NULL);
        int i = 0;
        while ((e = readdir(dd))) {
            if (e->d_name[0] == '.' || strchr(e->d_name, '\'')) continue;
            if (share ? i % NCLIENTS == k - 1 : i % 4 == (k - 1) % 4) {
                len += (size_t)snprintf(cmd + len, sizeof cmd - len, " '%s/%s'", dumps, e->d_name);
                expect[k]++;
            }
            i++;
        }
        closedir(dd);
        len += (size_t)snprintf(cmd + len, sizeof cmd - len, " >submit%d.txt 2>&1 & pids=\"$pids $!\"; ", k);
        CHECK(len < sizeof cmd - 1);
    }
    snprintf(cmd + len, sizeof cmd - len, "st=0; for p in $pids; do wait $p || st=1; done; exit $st");
    char script[600];
    snprintf(script, sizeof script, "%s/submit.sh", tmp);
    FILE *sf = fopen(script, "w");
    CHECK(sf != NULL);
    fputs(cmd, sf);
    fclose(sf);
    CHECK_EQ_I(test_system("sh '%s'", script), 0); /* test_system's command line is short */
    for (int k = 1; k <= NCLIENTS; k++) {
        if (!expect[k]) continue;
        CHECK_EQ_I(test_system("cd '%s' && [ $(grep -c '^ok ' submit%d.txt) = %d ]", tmp, k, expect[k]), 0);
        int st = test_system("cd '%s' && for f in out%d/*.png; do cmp \"$f\" \"ref/${f#out%d/}\" >&2 || exit 1; done",
                             tmp, k, k);
        CHECK_MSG(st == 0, "client %d: PNGs differ from getile render's", k);
    }
    daemon_stop_ok(&dm);
}
TEST(server_sigterm_finishes_jobs)
{
    size_t ref_len, dlen;
    uint8_t *ref = reference_png(SAMPLE, "ref.png", &ref_len);
    uint8_t *dump = read_all(SAMPLE, &dlen);
    struct daemon dm;
    daemon_start(&dm, (const char *const[]){"--threads", "1", NULL});
    enum { C = 3, K = 6 };
    int fd[C];
    struct rx *x[C];
    for (int c = 0; c < C; c++) {
        fd[c] = client(&dm, c & 1);
        x[c] = rx_new();
        for (uint64_t k = 1; k <= K; k++) send_render_dump(fd[c], k, dump, dlen);
        struct proto_request *rq = new_request(PROTO_OP_PING, 99);
        send_request(fd[c], rq);
        free(rq);
    }
    /* each pong proves the renders before it were accepted */
    int got[C] = {0};
    for (int c = 0; c < C; c++) {
        for (;;) {
            CHECK_EQ_I(rx_next(x[c], fd[c]), 1);
            if (x[c]->rs.id == 99) break;
            check_png(&x[c]->rs, ref, ref_len);
            got[c]++;
        }
    }
    kill(dm.pid, SIGTERM);
    for (int c = 0; c < C; c++) {
        while (got[c] < K) {
            CHECK_MSG(rx_next(x[c], fd[c]) == 1, "client %d: %d of %d replies before the close", c, got[c], K);
            check_png(&x[c]->rs, ref, ref_len);
            got[c]++;
        }
        close(fd[c]);
        rx_free(x[c]);
    }
    daemon_stop_ok(&dm);
    CHECK_EQ_I(test_system("grep -q 'SIGTERM: finishing [1-9]' '%s'", dm.log), 0);
    free(ref);
    free(dump);
}

TEST(server_busy)
{
    size_t dlen;
    uint8_t *dump = read_all(SAMPLE, &dlen);
    struct daemon dm;
    daemon_start(&dm, (const char *const[]){"--threads", "1", "--max-jobs", "1", NULL});
    int fd = client(&dm, false);
    struct rx *x = rx_new();
    /* three renders in one write: the first takes the only job slot */
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    struct proto_request *rq = new_request(PROTO_OP_RENDER_DUMP, 1);
    rq->dump = (struct proto_bytes){dump, (uint32_t)dlen};
    for (uint64_t id = 1; id <= 3; id++) {
        rq->id = id;
        CHECK_EQ_I(proto_encode_request(&pk, rq), 0);
    }
    free(rq);
    send_all(fd, sb.data, sb.size);
    msgpack_sbuffer_destroy(&sb);
    int ok = 0, busy = 0;
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_I(rx_next(x, fd), 1);
        if (x->rs.ok)
            ok++;
        else if (code_is(&x->rs, "busy"))
            busy++;
    }
    CHECK_MSG(ok >= 1 && busy >= 1 && ok + busy == 3, "%d ok, %d busy", ok, busy);
    close(fd);
    rx_free(x);
    daemon_stop_ok(&dm);
    free(dump);
}

/* The daemon's resident memory in KiB (/proc), 0 when unknown. */
static long daemon_rss_kb(const struct daemon *dm)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)dm->pid);
    FILE *f = fopen(path, "r");
    long kb = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "VmRSS:", 6)) kb = strtol(line + 6, NULL, 10);
    fclose(f);
    return kb;
}

/* 1,000 idle connections: the daemon keeps serving everyone else. */
TEST(server_many_idle_connections)
{
    struct rlimit rl;
    CHECK_EQ_I(getrlimit(RLIMIT_NOFILE, &rl), 0);
    if (rl.rlim_cur < 1100 && rl.rlim_max >= 1100) {
        rl.rlim_cur = rl.rlim_max < 4096 ? rl.rlim_max : 4096;
        setrlimit(RLIMIT_NOFILE, &rl); /* the daemon inherits it */
    }
    CHECK_EQ_I(getrlimit(RLIMIT_NOFILE, &rl), 0);
    int want = rl.rlim_cur >= 1100 ? 1000 : (int)rl.rlim_cur - 100;
    if (want < 100) test_skip("only %llu file descriptors allowed", (unsigned long long)rl.rlim_cur);
    size_t ref_len, dlen;
    uint8_t *ref = reference_png(SAMPLE, "ref.png", &ref_len);
    uint8_t *dump = read_all(SAMPLE, &dlen);
    struct daemon dm;
    daemon_start(&dm, (const char *const[]){"--threads", "2", NULL});
    int *fds = malloc(sizeof *fds * (size_t)want);
    CHECK(fds != NULL);
    for (int i = 0; i < want; i++) fds[i] = client(&dm, i & 1);
    /* A new client renders while all of them sit idle. */
    int fd = client(&dm, false);
    struct rx *x = rx_new();
    ping(fd, x, 1);
    send_render_dump(fd, 2, dump, dlen);
    CHECK_EQ_I(rx_next(x, fd), 1);
    check_png(&x->rs, ref, ref_len);
    /* The idle ones still answer too. */
    struct rx *y = rx_new();
    ping(fds[want / 2], y, 3);
    rx_free(y);
    for (int i = 0; i < want; i++) close(fds[i]);
    free(fds);
    close(fd);
    rx_free(x);
    daemon_stop_ok(&dm);
    free(ref);
    free(dump);
}

/* A client that sends many requests with large replies and never reads:
 * the daemon stops reading from it at its unsent-output cap, so its memory
 * stays bounded, and it keeps serving other clients. */
TEST(server_client_never_reads)
{
    size_t dlen;
    uint8_t *dump = read_all(SAMPLE, &dlen);
    struct daemon dm;
    daemon_start(&dm, (const char *const[]){"--threads", "2", NULL});
    int hog = client(&dm, true);
    /* Each reply carries all 2 MiB of VRAM: 200 of them are 400 MiB, far
     * past the daemon's unsent-output cap (GT_SRV_MAX_UNSENT). The send
     * side is made non-blocking: once the daemon stops reading, the rest
     * stays in this process's socket buffer. */
    int fl = fcntl(hog, F_GETFL);
    CHECK(fl >= 0 && fcntl(hog, F_SETFL, fl | O_NONBLOCK) == 0);
    struct proto_request *rq = new_request(PROTO_OP_RENDER_DUMP, 0);
    rq->dump = (struct proto_bytes){dump, (uint32_t)dlen};
    rq->outputs = PROTO_OUT_VRAM;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    int sent = 0;
    for (uint64_t id = 1; id <= 200; id++) {
        rq->id = id;
        sb.size = 0;
        CHECK_EQ_I(proto_encode_request(&pk, rq), 0);
        size_t off = 0;
        for (int tries = 0; off < sb.size && tries < 200; tries++) {
            ssize_t w = send(hog, sb.data + off, sb.size - off, MSG_NOSIGNAL);
            if (w > 0) off += (size_t)w;
            else test_sleep_ms(5);
        }
        if (off < sb.size) break; /* the daemon stopped reading: as intended */
        sent++;
    }
    msgpack_sbuffer_destroy(&sb);
    free(rq);
    test_sleep_ms(1500);
    long kb = daemon_rss_kb(&dm);
    printf("%d requests sent before the daemon stopped reading; daemon RSS %ld KiB\n", sent, kb);
    /* The cap plus the jobs in flight and their inputs, with room to spare
     * (unbounded, the 200 replies alone would be 400 MiB). ThreadSanitizer
     * multiplies memory use, so the bound says nothing in that build. */
    long bound = (long)(GT_SRV_MAX_UNSENT / 1024) + 128 * 1024;
#if defined(__SANITIZE_THREAD__)
    bound *= 4;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
    bound *= 4;
#endif
#endif
    CHECK_MSG(kb == 0 || kb < bound,
              "daemon RSS %ld KiB after %d unread requests", kb, sent);
    /* Another client is served meanwhile. */
    int fd = client(&dm, false);
    struct rx *x = rx_new();
    ping(fd, x, 7);
    close(fd);
    rx_free(x);
    close(hog);
    daemon_stop_ok(&dm);
    free(dump);
}
