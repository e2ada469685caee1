/* `getile batch`, `getile probe` and the Python client (clients/python)
 * against real getiled daemons on Unix sockets in the test's scratch
 * directory. Daemons are started with PR_SET_PDEATHSIG, so a failing test
 * never leaves one running. Expected images are `getile render`'s output
 * for the same dump, compared byte for byte. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../clients/netclient.h"
#include "image.h"
#include "proto.h"
#include "test.h"

#define SAMPLE "tests/samples/sample.ppdmp"

/* 0 when a daemon accepts on the Unix socket at path. */
static int try_connect(const char *path)
{
    char addr[600];
    snprintf(addr, sizeof addr, "unix:%s", path);
    int fd = nc_dial(addr, NULL);
    if (fd < 0) return -1;
    close(fd);
    return 0;
}

/* Starts getiled on TMP/NAME.sock (log TMP/NAME.log); returns its pid. */
static pid_t start_daemon(const char *name, char *sock, size_t cap)
{
    char log[512], listen[600];
    snprintf(sock, cap, "%s/%s.sock", test_tmpdir(), name);
    snprintf(log, sizeof log, "%s/%s.log", test_tmpdir(), name);
    snprintf(listen, sizeof listen, "unix:%s", sock);
    pid_t parent = getpid();
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);
        FILE *f = freopen(log, "a", stderr);
        (void)f;
        execl(test_getiled_bin(), "getiled", "--listen", listen, "--threads", "2", (char *)NULL);
        _exit(127);
    }
    for (int waited = 0; waited < 30000; waited += 20) {
        int st;
        CHECK_MSG(waitpid(pid, &st, WNOHANG) != pid, "getiled (%s) exited at start; see %s", test_getiled_bin(), log);
        if (try_connect(sock) == 0) return pid;
        test_sleep_ms(20);
    }
    kill(pid, SIGKILL);
    test_fail_(__FILE__, __LINE__, "getiled did not start listening on %s", sock);
}

static void stop_daemon(pid_t pid)
{
    kill(pid, SIGTERM);
    int st;
    for (int i = 0; i < 500; i++) {
        if (waitpid(pid, &st, WNOHANG) == pid) return;
        test_sleep_ms(20);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc((size_t)n + 1);
    CHECK(p);
    *len = fread(p, 1, (size_t)n, f);
    fclose(f);
    return p;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The file at path holds exactly the bytes of the file at want. */
static void check_same_file(const char *path, const char *want)
{
    size_t a = 0, b = 0;
    uint8_t *pa = slurp(path, &a), *pb = slurp(want, &b);
    CHECK_MSG(pa, "%s missing", path);
    CHECK_MSG(pb, "%s missing", want);
    CHECK_MSG(a == b && memcmp(pa, pb, a) == 0, "%s (%zu bytes) differs from %s (%zu bytes)", path, a, want, b);
    free(pa);
    free(pb);
}

/* TMP/expected.png: `getile render` of the sample. */
static const char *expected_png(void)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/expected.png", test_tmpdir());
    if (!exists(path)) CHECK_EQ_I(test_getile("render " SAMPLE " -o '%s'", path), 0);
    return path;
}

/* TMP/NAME/ holding the sample under each of names (a trailing "!" makes a
 * corrupt file: the sample's first 300 bytes). */
static const char *make_dir(const char *dir, const char *const *names)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", test_tmpdir(), dir);
    CHECK(mkdir(path, 0777) == 0 || errno == EEXIST);
    for (int i = 0; names[i]; i++) {
        size_t n = strlen(names[i]);
        if (names[i][n - 1] == '!')
            CHECK_EQ_I(test_system("head -c 300 " SAMPLE " > '%s/%.*s'", path, (int)n - 1, names[i]), 0);
        else
            CHECK_EQ_I(test_system("cp " SAMPLE " '%s/%s'", path, names[i]), 0);
    }
    return path;
}

TEST(batch_renders_and_reports_bad_dump)
{
    char sock[512], out[600], p[700];
    pid_t d = start_daemon("d1", sock, sizeof sock);
    const char *want = expected_png();
    const char *names[] = {"one.ppdmp", "two.PPDMP", "broken.ppdmp!", "notes.txt", NULL};
    const char *dir = make_dir("dumps", names);
    snprintf(out, sizeof out, "%s/out", test_tmpdir());
    int st = test_getile("batch --server unix:%s '%s' -o '%s'", sock, dir, out);
    CHECK_RUN(st, 1);
    snprintf(p, sizeof p, "%s/one.png", out);
    check_same_file(p, want);
    snprintf(p, sizeof p, "%s/two.png", out);
    check_same_file(p, want);
    snprintf(p, sizeof p, "%s/broken.png", out);
    CHECK_MSG(!exists(p), "a PNG was written for the corrupt dump");
    snprintf(p, sizeof p, "%s/notes.png", out);
    CHECK(!exists(p));
    CHECK_MSG(strstr(test_out_text, "FAIL") && strstr(test_out_text, "broken.ppdmp"), "no FAIL line for the corrupt dump: %s",
              test_out_text);
    CHECK_MSG(strstr(test_out_text, "2 rendered") && strstr(test_out_text, "1 failed"), "summary: %s", test_out_text);
    /* the good ones alone: exit 0, and more jobs than dumps */
    const char *good[] = {"a.ppdmp", "b.ppdmp", "c.ppdmp", NULL};
    dir = make_dir("good", good);
    snprintf(out, sizeof out, "%s/out-good", test_tmpdir());
    CHECK_RUN(test_getile("batch --server unix:%s '%s' -o '%s' --jobs 1 --threads 1", sock, dir, out), 0);
    snprintf(p, sizeof p, "%s/c.png", out);
    check_same_file(p, want);
    stop_daemon(d);
}

TEST(batch_resume_skips_existing)
{
    char sock[512], out[600], p[700];
    pid_t d = start_daemon("d1", sock, sizeof sock);
    const char *want = expected_png();
    const char *names[] = {"a.ppdmp", "b.ppdmp", "c.ppdmp", NULL};
    const char *dir = make_dir("dumps", names);
    snprintf(out, sizeof out, "%s/out", test_tmpdir());
    CHECK_RUN(test_getile("batch --server unix:%s '%s' -o '%s'", sock, dir, out), 0);
    /* a.png doctored (must stay: resuming never redoes it), b.png removed */
    snprintf(p, sizeof p, "%s/a.png", out);
    FILE *f = fopen(p, "wb");
    CHECK(f);
    fputs("marker", f);
    fclose(f);
    snprintf(p, sizeof p, "%s/b.png", out);
    CHECK(unlink(p) == 0);
    CHECK_RUN(test_getile("batch --server unix:%s '%s' -o '%s'", sock, dir, out), 0);
    check_same_file(p, want);
    snprintf(p, sizeof p, "%s/a.png", out);
    size_t n = 0;
    uint8_t *m = slurp(p, &n);
    CHECK(m && n == 6 && !memcmp(m, "marker", 6));
    free(m);
    CHECK_MSG(strstr(test_err_text, "2 skipped") && strstr(test_out_text, "1 rendered, 2 skipped"), "stdout: %s\nstderr: %s",
              test_out_text, test_err_text);
    /* everything there: nothing to render, no server needed */
    CHECK_RUN(test_getile("batch --server unix:%s/nowhere.sock '%s' -o '%s'", test_tmpdir(), dir, out), 0);
    CHECK(strstr(test_out_text, "3 skipped"));
    stop_daemon(d);
}

TEST(batch_ref_compare_and_report)
{
    char sock[512], out[600], ref[600], p[700];
    pid_t d = start_daemon("d1", sock, sizeof sock);
    const char *want = expected_png();
    const char *names[] = {"a.ppdmp", "b.ppdmp", NULL};
    const char *dir = make_dir("dumps", names);
    snprintf(ref, sizeof ref, "%s/ref", test_tmpdir());
    CHECK(mkdir(ref, 0777) == 0);
    /* PPSSPP's name for one, the plain name for the other */
    CHECK_EQ_I(test_system("cp '%s' '%s/a-soft.png' && cp '%s' '%s/b.png'", want, ref, want, ref), 0);
    snprintf(out, sizeof out, "%s/out", test_tmpdir());
    CHECK_RUN(test_getile("batch --server unix:%s '%s' -o '%s' --ref '%s'", sock, dir, out, ref), 0);
    CHECK_MSG(strstr(test_out_text, "0 over"), "stdout: %s", test_out_text);
    snprintf(p, sizeof p, "%s/report.html", out);
    CHECK(exists(p));
    snprintf(p, sizeof p, "%s/a-diff.png", out);
    CHECK(exists(p));

    /* a doctored reference: a few pixels changed */
    struct gt_image img;
    struct gt_diag dg = {0};
    CHECK(gt_png_read_file(want, &img, &dg) == 0);
    for (int i = 0; i < 10; i++) img.rgba[(size_t)(100 * img.w + 100 + i) * 4] ^= 0x80;
    snprintf(p, sizeof p, "%s/b.png", ref);
    CHECK(gt_png_write_file(p, img.rgba, img.w, img.h, &dg) == 0);
    gt_image_free(&img);
    snprintf(out, sizeof out, "%s/out2", test_tmpdir());
    CHECK_RUN(test_getile("batch --server unix:%s '%s' -o '%s' --ref '%s'", sock, dir, out, ref), 1);
    CHECK_MSG(strstr(test_out_text, "OVER") && strstr(test_out_text, "b.ppdmp") && strstr(test_out_text, "10 differing"),
              "stdout: %s", test_out_text);
    snprintf(p, sizeof p, "%s/report.html", out);
    size_t n = 0;
    char *html = (char *)slurp(p, &n);
    CHECK_MSG(html, "no report");
    html[n] = 0;
    /* worst first: b before a */
    char *pb = strstr(html, "<td>b</td>"), *pa = strstr(html, "<td>a</td>");
    CHECK_MSG(pa && pb && pb < pa, "report not sorted worst first");
    CHECK(strstr(html, "b-diff.png") && strstr(html, "<img"));
    free(html);
    snprintf(p, sizeof p, "%s/b-diff.png", out);
    CHECK(exists(p));
    /* a generous limit accepts it; the run resumes (nothing rendered) */
    CHECK_RUN(test_getile("batch --server unix:%s '%s' -o '%s' --ref '%s' --max-mse 1000", sock, dir, out, ref), 0);
    /* a missing reference counts against the run */
    snprintf(p, sizeof p, "%s/a-soft.png", ref);
    CHECK(unlink(p) == 0);
    CHECK_RUN(test_getile("batch --server unix:%s '%s' -o '%s' --ref '%s' --max-mse 1000", sock, dir, out, ref), 1);
    CHECK(strstr(test_out_text, "no reference"));
    stop_daemon(d);
}

/* Starts `getile batch` in the background on the daemons at Unix sockets
 * s1 and s2, with --jobs jobs; its stdout and stderr go to files in the
 * test directory whose paths land in o and e (512 bytes each). */
static pid_t spawn_batch(const char *s1, const char *s2, const char *dir, const char *out, const char *jobs, char *o,
                         char *e)
{
    snprintf(o, 512, "%s/stdout.txt", test_tmpdir());
    snprintf(e, 512, "%s/stderr.txt", test_tmpdir());
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        char srv[1100];
        snprintf(srv, sizeof srv, "unix:%s,unix:%s", s1, s2);
        if (!freopen(o, "w", stdout) || !freopen(e, "w", stderr)) _exit(127);
        execl(test_getile_bin(), "getile", "batch", "--server", srv, dir, "-o", out, "--jobs", jobs, (char *)NULL);
        _exit(127);
    }
    return pid;
}

TEST(batch_retry_when_server_killed)
{
    char s1[512], s2[512], out[600], p[700];
    pid_t a = start_daemon("a", s1, sizeof s1);
    pid_t b = start_daemon("b", s2, sizeof s2);
    const char *want = expected_png();
    char dir[512];
    snprintf(dir, sizeof dir, "%s/dumps", test_tmpdir());
    CHECK(mkdir(dir, 0777) == 0);
    enum { N = 24 };
    for (int i = 0; i < N; i++) CHECK_EQ_I(test_system("cp " SAMPLE " '%s/d%02d.ppdmp'", dir, i), 0);
    snprintf(out, sizeof out, "%s/out", test_tmpdir());
    /* a accepts connections but answers nothing until it is killed, so the
     * requests sent to it are in flight when it dies */
    CHECK(kill(a, SIGSTOP) == 0);
    char o[512], e[512];
    pid_t pid = spawn_batch(s1, s2, dir, out, "8", o, e);
    test_sleep_ms(500);
    kill(a, SIGKILL);
    int st, waited = 0;
    while (waitpid(pid, &st, WNOHANG) != pid) {
        CHECK_MSG(waited < 60000, "getile batch did not finish");
        test_sleep_ms(20);
        waited += 20;
    }
    waitpid(a, NULL, 0);
    test_read_text(o, test_out_text, sizeof test_out_text);
    test_read_text(e, test_err_text, sizeof test_err_text);
    CHECK_RUN(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 0);
    for (int i = 0; i < N; i++) {
        snprintf(p, sizeof p, "%s/d%02d.png", out, i);
        check_same_file(p, want);
    }
    CHECK_MSG(strstr(test_err_text, s1), "the lost server is not named: %s", test_err_text);
    stop_daemon(b);
}

/* The server counters of a daemon: a stats request (id) on the open
 * connection c, which counts in "connections". */
static struct proto_server_stats stats_on(struct nc_conn *c, uint64_t id)
{
    char why[600];
    struct proto_request *rq = malloc(sizeof *rq);
    struct proto_response *rs = malloc(sizeof *rs);
    CHECK(rq && rs);
    proto_request_init(rq, PROTO_OP_STATS, id);
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    CHECK(proto_encode_request(&pk, rq) == 0 && nc_conn_queue(c, sb.data, sb.size) == 0);
    for (;;) {
        CHECK(nc_conn_send(c) == 0);
        int n = nc_conn_next(c, rs, why, sizeof why);
        CHECK_MSG(n >= 0, "stats: %s", why);
        if (n == 1) break;
        struct pollfd p = {.fd = c->fd, .events = POLLIN | (nc_conn_wants_write(c) ? POLLOUT : 0)};
        CHECK_MSG(poll(&p, 1, 60000) > 0, "no answer to stats");
        if ((p.revents & (POLLIN | POLLHUP | POLLERR)) && nc_conn_recv(c) < 0) {
            n = nc_conn_next(c, rs, why, sizeof why);
            CHECK_MSG(n == 1, "the daemon closed the connection without an answer to stats");
            break;
        }
    }
    CHECK_MSG(rs->ok && rs->has_server && rs->id == id, "stats refused");
    struct proto_server_stats st = rs->server;
    msgpack_sbuffer_destroy(&sb);
    free(rq);
    free(rs);
    return st;
}

/* The same on a connection of its own to the Unix socket sock. */
static struct proto_server_stats daemon_stats(const char *sock)
{
    char addr[600];
    snprintf(addr, sizeof addr, "unix:%s", sock);
    struct nc_conn c;
    CHECK_MSG(nc_conn_open(&c, addr, "t_batch") == 0, "cannot connect to %s", addr);
    struct proto_server_stats st = stats_on(&c, 1);
    nc_conn_close(&c);
    return st;
}

/* Waits until path holds the text want (or fails after 60 s). */
static void wait_for_text(const char *path, const char *want)
{
    static char buf[1 << 16];
    for (int waited = 0;; waited += 20) {
        test_read_text(path, buf, sizeof buf);
        if (strstr(buf, want)) return;
        CHECK_MSG(waited < 60000, "%s never showed '%s': %s", path, want, buf);
        test_sleep_ms(20);
    }
}

/* A server that drops out mid-batch and comes back is used again; nothing
 * is lost. Both daemons are stopped (SIGSTOP: they accept connections but
 * answer nothing) so the batch holds its --jobs 2 requests in flight, one on
 * each. a is killed (its request goes to b, where it waits), restarted on
 * the same socket, and the test waits until the batch has dialled it again
 * (a's "connections" counter); then b resumes and the remaining dumps are
 * shared between both, so the new a renders some. No timing assertion:
 * each wait is for an event, with a generous limit. */
TEST(batch_reconnects_to_restarted_server)
{
    char s1[512], s2[512], out[600], p[700], o[512], e[512], dir[512];
    pid_t a = start_daemon("ra", s1, sizeof s1);
    pid_t b = start_daemon("rb", s2, sizeof s2);
    const char *want = expected_png();
    snprintf(dir, sizeof dir, "%s/dumps", test_tmpdir());
    CHECK(mkdir(dir, 0777) == 0);
    enum { N = 12 };
    for (int i = 0; i < N; i++) CHECK_EQ_I(test_system("cp " SAMPLE " '%s/d%02d.ppdmp'", dir, i), 0);
    snprintf(out, sizeof out, "%s/out", test_tmpdir());
    CHECK(kill(a, SIGSTOP) == 0 && kill(b, SIGSTOP) == 0);
    pid_t pid = spawn_batch(s1, s2, dir, out, "2", o, e);
    /* the batch has listed the dumps and dials next; give it a moment to send
     * (if a dies before the batch reached it, a is dialled again all the same) */
    wait_for_text(e, "to render on 2 server(s)");
    test_sleep_ms(300);
    CHECK(kill(a, SIGKILL) == 0);
    waitpid(a, NULL, 0);
    a = start_daemon("ra", s1, sizeof s1);
    /* one connection of ours, kept open, so "connections" >= 2 means the batch's is there too */
    char addr[600];
    snprintf(addr, sizeof addr, "unix:%s", s1);
    struct nc_conn mine;
    CHECK(nc_conn_open(&mine, addr, "t_batch") == 0);
    for (uint64_t id = 1; stats_on(&mine, id).connections < 2; id++) {
        test_read_text(e, test_err_text, sizeof test_err_text);
        CHECK_MSG(id < 1200, "the batch never dialled the restarted server again: %s", test_err_text);
        test_sleep_ms(50);
    }
    nc_conn_close(&mine);
    CHECK(kill(b, SIGCONT) == 0);
    int st;
    for (int waited = 0; waitpid(pid, &st, WNOHANG) != pid; waited += 20) {
        CHECK_MSG(waited < 120000, "getile batch did not finish");
        test_sleep_ms(20);
    }
    test_read_text(o, test_out_text, sizeof test_out_text);
    test_read_text(e, test_err_text, sizeof test_err_text);
    CHECK_RUN(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 0);
    for (int i = 0; i < N; i++) {
        snprintf(p, sizeof p, "%s/d%02d.png", out, i);
        check_same_file(p, want);
    }
    CHECK_MSG(strstr(test_out_text, "12 rendered") && strstr(test_out_text, "0 failed"), "summary: %s", test_out_text);
    CHECK_MSG(strstr(test_err_text, s1) && strstr(test_err_text, "taking requests"),
              "no message about the server coming back: %s", test_err_text);
    struct proto_server_stats sa = daemon_stats(s1);
    CHECK_MSG(sa.completed >= 1, "the restarted server rendered nothing (completed %llu)\nstderr: %s",
              (unsigned long long)sa.completed, test_err_text);
    stop_daemon(a);
    stop_daemon(b);

    /* no server at all: every dump fails at once, exit 1 */
    snprintf(out, sizeof out, "%s/out-none", test_tmpdir());
    CHECK_RUN(test_getile("batch --server unix:%s/nowhere.sock '%s' -o '%s'", test_tmpdir(), dir, out), 1);
    CHECK_MSG(strstr(test_err_text, "no server could be reached") && strstr(test_out_text, "12 failed"),
              "stdout: %s\nstderr: %s", test_out_text, test_err_text);
}

TEST(batch_help_and_usage_errors)
{
    CHECK_RUN(test_getile("batch --help"), 0);
    const char *must[] = {"--server", "--ref", "--jobs", "--max-mse", "--threads", "-soft.png", "report.html",
                          "retried once", "Exit status", NULL};
    for (int i = 0; must[i]; i++) CHECK_MSG(strstr(test_out_text, must[i]), "--help does not mention %s", must[i]);
    CHECK_RUN(test_getile("--help"), 0);
    CHECK(strstr(test_out_text, "batch") && strstr(test_out_text, "probe"));
    char dir[600];
    snprintf(dir, sizeof dir, "%s", test_tmpdir());
    const char *bad[] = {
        "batch",
        "batch '%s' -o x",                        /* no --server */
        "batch --server unix:/x -o x",            /* no directory */
        "batch --server unix:/x '%s'",            /* no -o */
        "batch --server unix:/x '%s' -o x --jobs 0",
        "batch --server unix:/x '%s' -o x --jobs many",
        "batch --server unix:/x '%s' -o x --max-mse -1",
        "batch --server unix:/x '%s' -o x --max-mse abc",
        "batch --server unix:/x '%s' -o x --threads 100000",
        "batch --server unix:/x '%s' -o x --bogus",
        "batch --server unix:/x '%s' '%s' -o x",  /* two directories */
        "batch --server unix:/x /nonexistent/dir -o x",
        "batch --server unix:/x '%s' -o x --ref /nonexistent/ref",
        "batch --server",
        NULL,
    };
    for (int i = 0; bad[i]; i++) {
        char args[2000];
        snprintf(args, sizeof args, bad[i], dir, dir);
        int st = test_getile("%s", args);
        CHECK_MSG(st == 2, "getile %s: exit %d, expected 2\nstderr: %s", args, st, test_err_text);
        CHECK_MSG(test_err_text[0], "getile %s: no message", args);
    }
    CHECK_RUN(test_getile("probe --help"), 0);
    CHECK(strstr(test_out_text, "word") && strstr(test_out_text, "display"));
    CHECK_RUN(test_getile("probe"), 2);
}

/* A python3 that has msgpack (the PATH's, then Debian's), or NULL. */
static const char *python_with_msgpack(void)
{
    static const char *cands[] = {"python3", "/usr/bin/python3"};
    for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++)
        if (test_system("%s -c 'import msgpack' >/dev/null 2>&1", cands[i]) == 0) return cands[i];
    return NULL;
}

TEST(batch_python_example)
{
    const char *py = python_with_msgpack();
    if (!py) test_skip("no python3 with the msgpack module (Debian: python3-msgpack)");
    char sock[512], out[600], p[700], o[512];
    pid_t d = start_daemon("d1", sock, sizeof sock);
    const char *want = expected_png();
    const char *names[] = {"x.ppdmp", "y.ppdmp", "z.ppdmp!", NULL};
    const char *dir = make_dir("dumps", names);
    snprintf(out, sizeof out, "%s/out", test_tmpdir());
    snprintf(o, sizeof o, "%s/py.txt", test_tmpdir());
    int st = test_system("PYTHONDONTWRITEBYTECODE=1 %s clients/python/example_batch.py --server unix:%s '%s' -o '%s' --window 2 >'%s' 2>&1", py,
                         sock, dir, out, o);
    test_read_text(o, test_out_text, sizeof test_out_text);
    CHECK_MSG(st == 1, "example_batch.py exit %d (expected 1: one corrupt dump)\n%s", st, test_out_text);
    CHECK_MSG(strstr(test_out_text, "FAIL z.ppdmp: truncated"), "output: %s", test_out_text);
    snprintf(p, sizeof p, "%s/x.png", out);
    check_same_file(p, want);
    snprintf(p, sizeof p, "%s/y.png", out);
    check_same_file(p, want);
    /* the module's single calls */
    st = test_system("cd clients/python && PYTHONDONTWRITEBYTECODE=1 %s -c \"\n"
                     "from getile_client import Client, GetileError\n"
                     "c = Client('unix:%s')\n"
                     "assert c.ping()\n"
                     "png, stats = c.render_dump(open('../../" SAMPLE "', 'rb').read())\n"
                     "assert png == open('%s', 'rb').read() and stats['draws'] == 3, stats\n"
                     "try:\n"
                     "    c.render_dump(b'junk')\n"
                     "    raise SystemExit(3)\n"
                     "except GetileError as e:\n"
                     "    assert not e.retryable, e.code\n"
                     "assert c.stats()['completed'] >= 3\n"
                     "\" >'%s' 2>&1",
                     py, sock, want, o);
    test_read_text(o, test_out_text, sizeof test_out_text);
    CHECK_MSG(st == 0, "getile_client calls failed (%d): %s", st, test_out_text);
    stop_daemon(d);
}

TEST(probe_renders_list)
{
    char sock[512], f[600], out[600];
    pid_t d = start_daemon("d1", sock, sizeof sock);
    /* a cleared 8888 framebuffer at 0x04000000, then a red 20x10 rectangle */
    snprintf(f, sizeof f, "%s/probe.txt", test_tmpdir());
    FILE *fp = fopen(f, "w");
    CHECK(fp);
    fputs("# a red 20x10 rectangle at (10, 10) in through-mode\n"
          "pc 0x08800000\n"
          "mem 0x08900000 ff0000ff 0a00 0a00 0000 0000  ff0000ff 1e00 1400 0000 0000\n"
          "word 0x9c 0x000000      # FRAMEBUFPTR\n"
          "word 0x9d 0x040200      # FRAMEBUFWIDTH 512\n"
          "word 0xd2 3             # FRAMEBUFPIXFORMAT 8888\n"
          "word 0xd4 0             # SCISSOR1\n"
          "word 0xd5 0x043ddf      # SCISSOR2 479,271\n"
          "word 0x16 0x043ddf      # REGION2\n"
          "word 0x10 0x080000      # BASE\n"
          "word 0x01 0x900000      # VADDR\n"
          "word 0x12 0x80011c      # VERTEXTYPE through, 16-bit pos, 8888 color\n"
          "word 0x04 0x060002      # PRIM rectangles, 2 vertices\n"
          "display 0x04000000 512 3\n",
          fp);
    fclose(fp);
    snprintf(out, sizeof out, "%s/probe.png", test_tmpdir());
    int st = test_getile("probe --server unix:%s '%s' -o '%s'", sock, f, out);
    CHECK_RUN(st, 0);
    struct gt_image img;
    struct gt_diag dg = {0};
    CHECK(gt_png_read_file(out, &img, &dg) == 0);
    CHECK_EQ_I(img.w, 512);
    CHECK_MSG(strstr(test_out_text, "200 pixels"), "stdout: %s", test_out_text);
    const uint8_t *in = img.rgba + ((size_t)15 * img.w + 20) * 4, *outside = img.rgba + ((size_t)5 * img.w + 5) * 4;
    CHECK_EQ_U(in[0], 0xff);
    CHECK_EQ_U(in[1], 0);
    CHECK_EQ_U(in[2], 0);
    CHECK_EQ_U(outside[0], 0);
    gt_image_free(&img);
    /* a bad line: exit 2 with the line number */
    fp = fopen(f, "w");
    fputs("pc 0x08800000\nword 0x01\n", fp);
    fclose(fp);
    CHECK_RUN(test_getile("probe --server unix:%s '%s' -o '%s'", sock, f, out), 2);
    CHECK_MSG(strstr(test_err_text, ":2:"), "stderr: %s", test_err_text);
    stop_daemon(d);
}
