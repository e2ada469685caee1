/* Benchmark of the daemon (`make bench-server`): starts getiled on a Unix
 * socket in /tmp and measures, over the shared dumps, the throughput
 * (dumps/s) and the p50 / p99 request latency with 1, 4 and 16 concurrent
 * clients (each one connection, one request at a time: a closed loop),
 * beside the in-process time of the same dumps (the work of one daemon
 * job: parsing the dump from its bytes in memory, rendering on a fresh
 * context with one thread, display readout, PNG encoding).
 * The in-process time and the 1-client latency of each dump are measured in
 * pairs, one right after the other, round after round, so that a machine
 * whose speed drifts (shared hosts) biases neither; the last lines give the
 * median over dumps of the time the daemon adds, and the sums (the issue's
 * target: the daemon adds at most 5% to the median dump).
 * Prints measurements only, asserts nothing, always exits 0.
 *
 * Usage: bench_server [DUMPS_DIR]. GETILED_BIN (default build/getiled),
 * GETILE_BENCH_RUNS (rounds over the dumps per concurrency, default 5),
 * GETILE_BENCH_DUMPS (at most this many dumps). It runs only with
 * GETILE_BENCH_SERVER=1 (set by `make bench-server`), so `make bench`,
 * which runs every tests/bench_*.c, skips it. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <msgpack.h>

#include "../clients/netclient.h"
#include "bench.h"
#include "dump.h"
#include "ge_limits.h"
#include "image.h"
#include "proto.h"
#include "render.h"

#define MAX_DUMPS 512
#define MAX_CLIENTS 16
#define NAME_W 36

struct bdump {
    char *name, *path;
    uint8_t *bytes;        /* the dump file */
    size_t len;
    msgpack_sbuffer req;   /* the encoded render_dump request (id 1) */
    double *loc;           /* in-process times, one per round (paired with lat1) */
    double *lat1;          /* latencies at 1 client, one per round */
    bool ok;
};

static struct bdump dumps[MAX_DUMPS];
static int ndumps, rounds;
static char sock_path[108];

/* One concurrency level's run. */
struct run {
    int clients;
    int next;              /* next request index (under mu) */
    int total;
    double *lat;           /* per request index, ms */
    int errors;
    pthread_mutex_t mu;
};

static int connect_unix(const char *path)
{
    char addr[120];
    snprintf(addr, sizeof addr, "unix:%s", path);
    return nc_dial(addr, NULL);
}

static int send_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Reads one response; 1 ok, 0 error response, -1 broken. */
static int recv_one(int fd, struct proto_reader *rd, msgpack_unpacked *msg, struct proto_response *rs)
{
    struct gt_diag d = {0};
    for (;;) {
        int rc = proto_next(rd, msg, &d);
        if (rc < 0) return -1;
        if (rc == 1) {
            if (proto_decode_response(&msg->data, rs, &d) < 0) return -1;
            return rs->ok ? 1 : 0;
        }
        char *buf;
        size_t cap;
        if (proto_reader_buffer(rd, 1 << 16, &buf, &cap) < 0) return -1;
        ssize_t n = recv(fd, buf, cap, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        proto_reader_consumed(rd, (size_t)n);
    }
}

static void *client_main(void *arg)
{
    struct run *r = arg;
    int fd = connect_unix(sock_path);
    struct proto_reader rd;
    msgpack_unpacked msg;
    struct proto_response *rs = malloc(sizeof *rs);
    if (fd < 0 || !rs || proto_reader_init(&rd, 0) < 0) {
        pthread_mutex_lock(&r->mu);
        r->errors++;
        pthread_mutex_unlock(&r->mu);
        if (fd >= 0) close(fd);
        free(rs);
        return NULL;
    }
    msgpack_unpacked_init(&msg);
    for (;;) {
        pthread_mutex_lock(&r->mu);
        int i = r->next < r->total ? r->next++ : -1;
        pthread_mutex_unlock(&r->mu);
        if (i < 0) break;
        struct bdump *b = &dumps[i % ndumps];
        double t0 = bench_now_ns();
        int ok = send_all(fd, b->req.data, b->req.size) == 0 ? recv_one(fd, &rd, &msg, rs) : -1;
        r->lat[i] = (bench_now_ns() - t0) / 1e6;
        if (ok != 1) {
            pthread_mutex_lock(&r->mu);
            r->errors++;
            pthread_mutex_unlock(&r->mu);
            if (ok < 0) break;
        }
    }
    msgpack_unpacked_destroy(&msg);
    proto_reader_free(&rd);
    free(rs);
    close(fd);
    return NULL;
}

static double pct(double *v, int n, double p)
{
    if (n <= 0) return 0;
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    int k = (int)(p * (n - 1) + 0.5);
    return v[k];
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(((const struct bdump *)a)->name, ((const struct bdump *)b)->name);
}

/* The work of one daemon job, in process: the dump parsed from the bytes in
 * memory (as the daemon gets them), a fresh context drawing with one thread,
 * replay, readout, PNG. */
static double local_once(const uint8_t *bytes, size_t len, int *err)
{
    static uint8_t img[(size_t)GT_IMAGE_STRIDE * GT_DISPLAY_HEIGHT * 4];
    struct gt_render *r = malloc(sizeof *r);
    struct gt_diag d = {0};
    struct dump dp;
    double t0 = bench_now_ns();
    if (!r || dump_parse(bytes, len, &dp, &d) < 0) {
        *err = 1;
        free(r);
        return 0;
    }
    if (gt_render_init(r, &d) < 0) {
        *err = 1;
        dump_free(&dp);
        free(r);
        return 0;
    }
    if (gt_render_set_threads(r, 1, GT_TILE_SIZE_DEFAULT, &d) < 0 || gt_render_replay(r, &dp, 0, &d) < 0) *err = 1;
    dump_free(&dp);
    gt_render_display_rgba(r, img, false);
    uint8_t *png = NULL;
    size_t png_len;
    if (gt_png_encode(img, GT_IMAGE_STRIDE, GT_DISPLAY_HEIGHT, &png, &png_len, &d) < 0) *err = 1;
    double ms = (bench_now_ns() - t0) / 1e6;
    free(png);
    gt_render_free(r);
    free(r);
    return ms;
}

int main(int argc, char **argv)
{
    const char *on = getenv("GETILE_BENCH_SERVER");
    if (!on || strcmp(on, "1") != 0) {
        printf("bench_server: skipped (run `make bench-server`, or set GETILE_BENCH_SERVER=1)\n");
        return 0;
    }
    const char *dir = argc > 1 && argv[1][0] ? argv[1] : NULL;
    const char *cands[] = {"../shared/frametests/dumps", "../../shared/frametests/dumps",
                           "/work/shared/frametests/dumps"};
    for (size_t i = 0; !dir && i < sizeof cands / sizeof cands[0]; i++)
        if (access(cands[i], R_OK) == 0) dir = cands[i];
    const char *bin = getenv("GETILED_BIN");
    if (!bin || !*bin) bin = "build/getiled";
    if (!dir || access(bin, X_OK) != 0) {
        printf("bench_server: skipped (%s)\n", !dir ? "no shared dumps directory" : "no getiled binary; set GETILED_BIN");
        return 0;
    }
    const char *rs_env = getenv("GETILE_BENCH_RUNS"), *nd_env = getenv("GETILE_BENCH_DUMPS");
    rounds = rs_env && atoi(rs_env) > 0 ? atoi(rs_env) : 5;
    int max_dumps = nd_env && atoi(nd_env) > 0 ? atoi(nd_env) : MAX_DUMPS;

    DIR *dh = opendir(dir);
    if (!dh) {
        printf("bench_server: cannot open %s\n", dir);
        return 0;
    }
    struct dirent *de;
    while ((de = readdir(dh)) && ndumps < MAX_DUMPS) {
        size_t n = strlen(de->d_name);
        if (de->d_name[0] == '.' ||
            !((n > 4 && !strcasecmp(de->d_name + n - 4, ".zip")) || (n > 6 && !strcasecmp(de->d_name + n - 6, ".ppdmp"))))
            continue;
        struct bdump *b = &dumps[ndumps++];
        b->name = strdup(de->d_name);
        size_t pl = strlen(dir) + n + 2;
        b->path = malloc(pl);
        snprintf(b->path, pl, "%s/%s", dir, de->d_name);
    }
    closedir(dh);
    qsort(dumps, (size_t)ndumps, sizeof *dumps, cmp_name);
    if (ndumps > max_dumps) ndumps = max_dumps;

    /* In-process times, and the requests. */
    int nok = 0;
    for (int i = 0; i < ndumps; i++) {
        struct bdump *b = &dumps[i];
        struct gt_diag d = {0};
        uint8_t *bytes;
        size_t len;
        msgpack_sbuffer_init(&b->req);
        if (gt_read_file(b->path, GT_DUMP_MAX_FILE, &bytes, &len, &d) < 0) continue;
        struct proto_request *rq = malloc(sizeof *rq);
        proto_request_init(rq, PROTO_OP_RENDER_DUMP, 1);
        rq->dump = (struct proto_bytes){bytes, (uint32_t)len};
        msgpack_packer pk;
        msgpack_packer_init(&pk, &b->req, msgpack_sbuffer_write);
        int rc = proto_encode_request(&pk, rq);
        free(rq);
        if (rc < 0) {
            free(bytes);
            continue;
        }
        int err = 0;
        (void)local_once(bytes, len, &err); /* renders at all (and warms up) */
        b->bytes = bytes, b->len = len;
        b->ok = !err;
        b->loc = calloc((size_t)rounds, sizeof *b->loc);
        b->lat1 = calloc((size_t)rounds, sizeof *b->lat1);
        if (b->ok && b->loc && b->lat1) dumps[nok++] = *b; /* keep only dumps that render */
    }
    ndumps = nok;
    if (!ndumps) {
        printf("bench_server: no dump of %s renders\n", dir);
        return 0;
    }

    /* The daemon. */
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (ncpu < 1) ncpu = 1;
    char threads[24], listen[140];
    snprintf(threads, sizeof threads, "%ld", ncpu);
    snprintf(sock_path, sizeof sock_path, "/tmp/bench-getiled-%ld.sock", (long)getpid());
    snprintf(listen, sizeof listen, "unix:%s", sock_path);
    pid_t parent = getpid();
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);
        if (!freopen("/dev/null", "w", stderr)) _exit(127);
        execl(bin, "getiled", "--listen", listen, "--threads", threads, (char *)NULL);
        _exit(127);
    }
    int up = 0;
    for (int w = 0; w < 10000 && !up; w += 20) {
        int fd = connect_unix(sock_path);
        if (fd >= 0) {
            close(fd);
            up = 1;
        } else {
            usleep(20000);
        }
    }
    if (!up) {
        printf("bench_server: getiled (%s) did not start\n", bin);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        return 0;
    }

    printf("getiled benchmark: %d dumps from %s, %d rounds each, daemon --threads %ld (one thread per job)\n\n",
           ndumps, dir, rounds, ncpu);

    /* In-process and 1-client times in pairs. */
    {
        int fd = connect_unix(sock_path);
        struct proto_reader rd;
        msgpack_unpacked msg;
        struct proto_response *rs = malloc(sizeof *rs);
        int perr = 0;
        if (fd < 0 || !rs || proto_reader_init(&rd, 0) < 0) {
            printf("bench_server: cannot talk to getiled\n");
            kill(pid, SIGKILL);
            waitpid(pid, NULL, 0);
            return 0;
        }
        msgpack_unpacked_init(&msg);
        for (int k = 0; k < rounds; k++) {
            for (int i = 0; i < ndumps; i++) {
                struct bdump *b = &dumps[i];
                int err = 0;
                b->loc[k] = local_once(b->bytes, b->len, &err);
                double t0 = bench_now_ns();
                int ok = send_all(fd, b->req.data, b->req.size) == 0 ? recv_one(fd, &rd, &msg, rs) : -1;
                b->lat1[k] = (bench_now_ns() - t0) / 1e6;
                perr += ok != 1 || err;
            }
        }
        msgpack_unpacked_destroy(&msg);
        proto_reader_free(&rd);
        free(rs);
        close(fd);
        if (perr) printf("(%d paired measurements failed)\n", perr);
    }
    printf("%-8s %10s %10s %10s %10s %7s\n", "clients", "requests", "dumps/s", "p50 ms", "p99 ms", "errors");
    const int levels[] = {1, 4, 16};
    double one_client_p50 = 0;
    for (size_t li = 0; li < sizeof levels / sizeof levels[0]; li++) {
        struct run r = {.clients = levels[li], .total = ndumps * rounds};
        pthread_mutex_init(&r.mu, NULL);
        r.lat = calloc((size_t)r.total, sizeof *r.lat);
        pthread_t th[MAX_CLIENTS];
        double t0 = bench_now_ns();
        for (int c = 0; c < r.clients; c++) pthread_create(&th[c], NULL, client_main, &r);
        for (int c = 0; c < r.clients; c++) pthread_join(th[c], NULL);
        double el = (bench_now_ns() - t0) / 1e9;
        double p50 = pct(r.lat, r.total, 0.5), p99 = pct(r.lat, r.total, 0.99);
        if (r.clients == 1) one_client_p50 = p50;
        printf("%-8d %10d %10.1f %10.2f %10.2f %7d\n", r.clients, r.total, r.total / el, p50, p99, r.errors);
        free(r.lat);
        pthread_mutex_destroy(&r.mu);
    }

    /* Per dump: in-process vs 1 client, medians of the paired rounds. */
    printf("\n%-*s %12s %12s %8s\n", NAME_W, "dump", "local ms", "1-client ms", "added");
    double *added = calloc((size_t)ndumps, sizeof *added), *loc = calloc((size_t)ndumps, sizeof *loc);
    double sum_local = 0, sum_remote = 0;
    for (int i = 0; i < ndumps; i++) {
        struct bdump *b = &dumps[i];
        double l = bench_median(b->loc, (size_t)rounds), m = bench_median(b->lat1, (size_t)rounds);
        loc[i] = l;
        added[i] = l > 0 ? 100.0 * (m - l) / l : 0.0;
        sum_local += l, sum_remote += m;
        printf("%-*.*s %12.2f %12.2f %7.1f%%\n", NAME_W, NAME_W, b->name, l, m, added[i]);
    }
    printf("\nin-process: %.1f dumps/s serially (one thread), median dump %.2f ms\n", ndumps / (sum_local / 1e3),
           bench_median(loc, (size_t)ndumps));
    printf("sum of the medians: local %.1f ms, 1 client %.1f ms: the daemon adds %.1f%%\n", sum_local, sum_remote,
           sum_local > 0 ? 100.0 * (sum_remote - sum_local) / sum_local : 0.0);
    printf("median over dumps of the time the daemon adds: %.1f%% (target: at most 5%%)\n",
           bench_median(added, (size_t)ndumps));
    printf("1-client p50 over all requests: %.2f ms\n", one_client_p50);
    free(added);
    free(loc);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    unlink(sock_path);
    return 0;
}
