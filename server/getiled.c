/* getiled: the getile render daemon. main, options, listeners, signals and
 * the timeout sweep; connections are in conn.c, the worker pool in jobs.c,
 * one render in render_job.c, the protocol in proto/PROTOCOL.md. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "server.h"

static const char usage[] =
    "usage: getiled [--listen ADDR]... [--threads N] [--max-request-mb M] [--max-jobs J]\n"
    "               [--token-file F] [--idle-timeout S] [--write-timeout S]\n"
    "\n"
    "The getile render daemon: renders frame dumps and display lists sent over\n"
    "TCP or a Unix socket (protocol: proto/PROTOCOL.md) with the same output as\n"
    "`getile render`. Logs one line per request on stderr. SIGTERM or SIGINT:\n"
    "stop accepting, finish and answer every accepted request, exit 0.\n"
    "\n"
    "  --listen ADDR        tcp://HOST:PORT (HOST empty: 127.0.0.1; [::1] for IPv6)\n"
    "                       or unix:/PATH; repeatable (default tcp://127.0.0.1:7070)\n"
    "  --threads N          requests rendered at once (default: one per CPU, at most 64);\n"
    "                       each request draws with its own \"threads\" (default 1)\n"
    "  --max-request-mb M   largest request message in MiB (default 256, at most 1024)\n"
    "  --max-jobs J         render requests queued or running, all clients (default 64);\n"
    "                       past it requests are answered \"busy\"\n"
    "  --token-file F       requests must carry the token in F (its first line)\n"
    "  --idle-timeout S     close connections idle for S seconds (default 300, 0: never)\n"
    "  --write-timeout S    close connections whose reply is not read for S seconds (default 60)\n";

static bool parse_num(const char *opt, const char *v, unsigned long long min, unsigned long long max,
                      unsigned long long *out)
{
    char *end;
    errno = 0;
    if (v && *v && *v != '-') {
        unsigned long long x = strtoull(v, &end, 10);
        if (!errno && !*end && x >= min && x <= max) {
            *out = x;
            return true;
        }
    }
    fprintf(stderr, "getiled: %s needs a whole number from %llu to %llu, got '%s'\n", opt, min, max, v ? v : "");
    return false;
}

static int read_token(const char *path, struct srv_config *cfg)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "getiled: cannot open the token file %s: %s\n", path, strerror(errno));
        return -1;
    }
    char buf[GT_PROTO_MAX_TOKEN + 2];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    n = strcspn(buf, "\r\n");
    buf[n] = 0;
    if (n == 0 || n > GT_PROTO_MAX_TOKEN) {
        fprintf(stderr, "getiled: the token file %s must hold a token of 1 to %d bytes on its first line\n", path,
                GT_PROTO_MAX_TOKEN);
        return -1;
    }
    cfg->token = strdup(buf);
    cfg->token_len = n;
    cfg->has_token = cfg->token != NULL;
    return cfg->token ? 0 : -1;
}

static int parse_args(int argc, char **argv, struct srv_config *cfg)
{
    unsigned long long v;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    cfg->threads = cpus < 1 ? 1 : cpus > GT_MAX_THREADS ? GT_MAX_THREADS : (unsigned)cpus;
    cfg->max_request = (size_t)GT_SRV_DEFAULT_REQUEST_MB << 20;
    cfg->max_jobs = GT_SRV_DEFAULT_MAX_JOBS;
    cfg->idle_timeout_ms = (uint64_t)GT_SRV_IDLE_TIMEOUT_S * 1000;
    cfg->write_timeout_ms = (uint64_t)GT_SRV_WRITE_TIMEOUT_S * 1000;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            exit(0);
        }
        if (!val) {
            fprintf(stderr, "getiled: %s\n\n%s", a[0] == '-' ? "option needs a value" : "unexpected argument", usage);
            return -1;
        }
        i++;
        if (!strcmp(a, "--listen")) {
            if (cfg->nlisten == GT_SRV_MAX_LISTEN) {
                fprintf(stderr, "getiled: at most %d --listen addresses\n", GT_SRV_MAX_LISTEN);
                return -1;
            }
            cfg->listen[cfg->nlisten++] = val;
        } else if (!strcmp(a, "--threads")) {
            if (!parse_num(a, val, 1, GT_MAX_THREADS, &v)) return -1;
            cfg->threads = (unsigned)v;
        } else if (!strcmp(a, "--max-request-mb")) {
            if (!parse_num(a, val, 1, GT_SRV_MAX_REQUEST_MB, &v)) return -1;
            cfg->max_request = (size_t)v << 20;
        } else if (!strcmp(a, "--max-jobs")) {
            if (!parse_num(a, val, 1, GT_SRV_MAX_JOBS, &v)) return -1;
            cfg->max_jobs = (unsigned)v;
        } else if (!strcmp(a, "--idle-timeout")) {
            if (!parse_num(a, val, 0, 1000000, &v)) return -1;
            cfg->idle_timeout_ms = v * 1000;
        } else if (!strcmp(a, "--write-timeout")) {
            if (!parse_num(a, val, 1, 1000000, &v)) return -1;
            cfg->write_timeout_ms = v * 1000;
        } else if (!strcmp(a, "--token-file")) {
            if (read_token(val, cfg) < 0) return -1;
        } else {
            fprintf(stderr, "getiled: unknown option '%s'\n\n%s", a, usage);
            return -1;
        }
    }
    if (cfg->nlisten == 0) cfg->listen[cfg->nlisten++] = "tcp://127.0.0.1:7070";
    return 0;
}

/* A unix socket path left by a daemon that died is removed; one that still
 * accepts connections is in use. */
static int clear_stale_socket(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    if (!S_ISSOCK(st.st_mode)) {
        fprintf(stderr, "getiled: %s exists and is not a socket\n", path);
        return -1;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    int live = fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
    if (fd >= 0) close(fd);
    if (live) {
        fprintf(stderr, "getiled: %s: another server is listening there\n", path);
        return -1;
    }
    unlink(path);
    return 0;
}

static int open_listener(struct srv_server *srv, const char *addr)
{
    struct srv_listener *l = &srv->listeners[srv->nlisteners];
    int rc;
    memset(l, 0, sizeof *l);
    l->srv = srv;
    if (!strncmp(addr, "unix:", 5)) {
        const char *path = addr + 5;
        if (!*path || strlen(path) >= sizeof l->path) {
            fprintf(stderr, "getiled: %s: the socket path must have 1 to %zu bytes\n", addr, sizeof l->path - 1);
            return -1;
        }
        if (clear_stale_socket(path) < 0) return -1;
        l->is_unix = true;
        if ((rc = uv_pipe_init(srv->loop, &l->h.pipe, 0)) < 0) goto uv_fail;
        l->open = true;
        l->h.handle.data = l;
        srv->nlisteners++;
        if ((rc = uv_pipe_bind(&l->h.pipe, path)) < 0) goto uv_fail;
        snprintf(l->path, sizeof l->path, "%s", path); /* ours: unlinked on exit */
    } else if (!strncmp(addr, "tcp://", 6)) {
        char host[256];
        const char *hp = addr + 6, *colon = strrchr(hp, ':');
        if (!colon || colon - hp >= (long)sizeof host) goto bad;
        unsigned long long port;
        char *end;
        errno = 0;
        port = strtoull(colon + 1, &end, 10);
        if (errno || *end || !colon[1] || port > 65535) goto bad;
        memcpy(host, hp, (size_t)(colon - hp));
        host[colon - hp] = 0;
        struct sockaddr_storage ss;
        if (!host[0]) snprintf(host, sizeof host, "127.0.0.1");
        if (host[0] == '[') {
            size_t n = strlen(host);
            if (n < 3 || host[n - 1] != ']') goto bad;
            host[n - 1] = 0;
            if (uv_ip6_addr(host + 1, (int)port, (struct sockaddr_in6 *)&ss) < 0) goto bad;
        } else if (uv_ip4_addr(host, (int)port, (struct sockaddr_in *)&ss) < 0) {
            goto bad;
        }
        if ((rc = uv_tcp_init(srv->loop, &l->h.tcp)) < 0) goto uv_fail;
        l->open = true;
        l->h.handle.data = l;
        srv->nlisteners++;
        if ((rc = uv_tcp_bind(&l->h.tcp, (const struct sockaddr *)&ss, 0)) < 0) goto uv_fail;
    } else {
        goto bad;
    }
    if ((rc = uv_listen(&l->h.stream, GT_SRV_BACKLOG, srv_conn_accept)) < 0) goto uv_fail;
    fprintf(stderr, "getiled: listening on %s\n", addr);
    return 0;
uv_fail:
    fprintf(stderr, "getiled: cannot listen on %s: %s\n", addr, uv_strerror(rc));
    return -1;
bad:
    fprintf(stderr, "getiled: bad address '%s' (expected tcp://HOST:PORT or unix:/PATH)\n", addr);
    return -1;
}

uint64_t srv_now(const struct srv_server *srv) { return uv_now(srv->loop); }

void srv_maybe_exit(struct srv_server *srv)
{
    if (!srv->stopping || srv->closed || srv->jobs || srv->conns) return;
    srv->closed = true;
    uv_close((uv_handle_t *)&srv->sigterm, NULL);
    uv_close((uv_handle_t *)&srv->sigint, NULL);
    uv_close((uv_handle_t *)&srv->sweep, NULL);
    srv_pool_close(&srv->pool);
    /* closing the watchers restored the default actions: a second SIGTERM
     * now must not kill a daemon whose work is done and that is exiting 0 */
    signal(SIGTERM, SIG_IGN);
    signal(SIGINT, SIG_IGN);
}

static void close_listeners(struct srv_server *srv)
{
    for (unsigned i = 0; i < srv->nlisteners; i++) {
        struct srv_listener *l = &srv->listeners[i];
        if (l->open && !uv_is_closing(&l->h.handle)) uv_close(&l->h.handle, NULL);
    }
}

static void on_signal(uv_signal_t *h, int signum)
{
    struct srv_server *srv = h->data;
    if (srv->stopping) return;
    fprintf(stderr, "getiled: %s: finishing %u accepted job(s), then exiting\n",
            signum == SIGINT ? "SIGINT" : "SIGTERM", srv->jobs);
    srv->stopping = true;
    close_listeners(srv);
    srv_conn_stop_all(srv);
    srv_maybe_exit(srv);
}

static void on_sweep(uv_timer_t *t) { srv_conn_sweep(t->data); }

int main(int argc, char **argv)
{
    static struct srv_server server;
    struct srv_server *srv = &server;
    uv_loop_t loop;
    int status = 1;
    signal(SIGPIPE, SIG_IGN);
    /* Workers parse zips concurrently, and libzip converts file times with
     * mktime/localtime: with TZ unset glibc re-reads the zone file and
     * frees its old name on every call (its lock is invisible to
     * ThreadSanitizer). A TZ naming the same zone makes those calls read-only. */
    setenv("TZ", ":/etc/localtime", 0);
    tzset();
    if (parse_args(argc, argv, &srv->cfg) < 0) return 2;
    if (uv_loop_init(&loop) < 0) {
        fprintf(stderr, "getiled: cannot create the event loop\n");
        return 1;
    }
    srv->loop = &loop;
    srv->log = stderr;
    uv_signal_init(&loop, &srv->sigterm);
    uv_signal_init(&loop, &srv->sigint);
    uv_timer_init(&loop, &srv->sweep);
    srv->sigterm.data = srv->sigint.data = srv->sweep.data = srv;
    int rc = srv_pool_start(&srv->pool, &loop, srv->cfg.threads, srv_conn_job_done, srv);
    if (rc < 0) {
        fprintf(stderr, "getiled: cannot start the workers: %s\n", uv_strerror(rc));
        uv_close((uv_handle_t *)&srv->sigterm, NULL);
        uv_close((uv_handle_t *)&srv->sigint, NULL);
        uv_close((uv_handle_t *)&srv->sweep, NULL);
        uv_run(&loop, UV_RUN_DEFAULT);
        uv_loop_close(&loop);
        return 1;
    }
    bool ok = true;
    for (unsigned i = 0; ok && i < srv->cfg.nlisten; i++) ok = open_listener(srv, srv->cfg.listen[i]) == 0;
    if (ok) {
        uv_signal_start(&srv->sigterm, on_signal, SIGTERM);
        uv_signal_start(&srv->sigint, on_signal, SIGINT);
        uv_timer_start(&srv->sweep, on_sweep, GT_SRV_SWEEP_MS, GT_SRV_SWEEP_MS);
        fprintf(stderr, "getiled: %u worker thread(s), at most %u jobs, requests up to %zu MiB\n",
                srv->cfg.threads, srv->cfg.max_jobs, srv->cfg.max_request >> 20);
        status = 0;
    } else {
        srv->stopping = true;
        close_listeners(srv);
        srv_maybe_exit(srv);
    }
    uv_run(&loop, UV_RUN_DEFAULT);
    srv_pool_join(&srv->pool);
    if (uv_loop_close(&loop) != 0) fprintf(stderr, "getiled: handles left open at exit\n");
    for (unsigned i = 0; i < srv->nlisteners; i++)
        if (srv->listeners[i].is_unix && srv->listeners[i].path[0]) unlink(srv->listeners[i].path);
    free(srv->cfg.token);
    if (status == 0) fprintf(stderr, "getiled: exiting\n");
    return status;
}
