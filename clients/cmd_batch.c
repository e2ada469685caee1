/* getile batch: render a directory of frame dumps on one or more getiled
 * servers, resumably, optionally comparing each image with a reference.
 *
 * One connection per server, one poll() loop. At most --jobs requests are
 * in flight in total; each new request goes to the live server with the
 * fewest in flight. A request is encoded from its file when it is sent, so
 * memory holds at most --jobs dumps. A request that fails for a reason that
 * is not its input (the connection broke, busy, shutting_down, internal,
 * nomem) is retried once, on another live server when there is one.
 *
 * A server that drops out (refused, closed, a broken stream) is dialled
 * again later, after 0.25 s, then twice as long after each failed attempt,
 * at most RECONNECT_MAX_S apart; the delay starts over once it answers a
 * request. While no server is up the queued dumps wait, and fail only when
 * none has come back for NO_SERVER_GRACE_S. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "ge_limits.h"
#include "image.h"
#include "netclient.h"
#include "proto.h"

#define PROG "getile batch"
#define MAX_SERVERS 64
#define RECONNECT_FIRST_S 0.25 /* first delay before dialling a dropped server again */
#define RECONNECT_MAX_S 5.0    /* the longest delay between two attempts */
#define NO_SERVER_GRACE_S 30.0 /* with every server down this long, the queued dumps fail */

static const char usage[] =
    "usage: getile batch --server ADDR[,ADDR...] DIR -o OUTDIR [options]\n"
    "\n"
    "Renders every .ppdmp and .zip file in DIR (not recursive) on getiled\n"
    "servers and writes OUTDIR/NAME.png (NAME: the file name without .zip and\n"
    ".ppdmp), the same bytes as `getile render`.\n"
    "\n"
    "  --server ADDR[,ADDR...]  servers, tcp://HOST:PORT or unix:/PATH; one connection\n"
    "                    each (repeat the option or separate with commas)\n"
    "  -o, --output OUTDIR  where the images go (created if missing)\n"
    "  --jobs N          requests in flight in total, over all servers (default 8)\n"
    "  --threads T       threads each server draws one dump with (default: its choice)\n"
    "  --token-file F    send the token in F (its first line)\n"
    "  --ref REFDIR      compare each image with REFDIR/NAME-soft.png (PPSSPP's name)\n"
    "                    or REFDIR/NAME.png over the 480x272 display (PPSSPP's MSE\n"
    "                    and differing pixels); write OUTDIR/NAME-diff.png and\n"
    "                    OUTDIR/report.html (thumbnails, worst first)\n"
    "  --max-mse X       with --ref: the largest accepted MSE (default 0: identical)\n"
    "  -q, --quiet       no progress output\n"
    "\n"
    "Resuming: a dump whose OUTDIR/NAME.png exists is not rendered again (its image\n"
    "is still compared with --ref); images are written under a temporary name and\n"
    "renamed, so an interrupted batch leaves no partial PNG. Retries: a request that\n"
    "fails for a reason other than its input (connection lost, busy, shutting_down,\n"
    "internal, nomem) is retried once, on another server when there is one; a bad\n"
    "dump (corrupt, truncated, ...) is not. A server that drops out is dialled\n"
    "again (after 0.25 s, doubling up to 5 s between attempts) and used again\n"
    "once it is back; with every server down for 30 s the remaining dumps fail.\n"
    "Progress: on a terminal a line redrawn in place (done/total, dumps/s, ETA,\n"
    "failures, servers up) on stderr, else a line every 5 s; a line for each\n"
    "server that drops out or comes back.\n"
    "A FAIL line on stdout names each failed dump, and an OVER line each dump over\n"
    "--max-mse, or with no reference.\n"
    "\n"
    "Exit status: 0 every dump rendered (and within --max-mse); 1 a dump failed or\n"
    "was over the limit, or no server could be reached; 2 usage errors.\n";

enum { ST_TODO, ST_FLIGHT, ST_DONE, ST_SKIPPED, ST_FAILED };

struct item {
    char *path, *name;
    int state;
    int attempts;     /* sends so far */
    int server;       /* in flight on, or last tried */
    uint64_t id;      /* of the request in flight */
    bool compared, has_ref, over;
    double mse;
    uint64_t differing;
    char *err;        /* failure reason */
};

struct server {
    const char *addr;
    struct nc_conn c;
    bool live;
    int inflight;
    bool was_live;   /* it has been connected */
    double retry_at; /* not live: when to dial it again */
    double backoff;  /* the last delay before dialling again (0: it has answered since) */
};

static struct {
    struct item *it;
    int n;
    struct server sv[MAX_SERVERS];
    int nsv;
    const char *outdir, *refdir, *token;
    unsigned threads;
    int jobs;
    double max_mse;
    bool tty, quiet;
    /* queue of item indices to send */
    int *queue, qhead, qtail, qcap;
    int inflight, done, failed, skipped, total_work;
    int nlive;
    uint64_t next_id;
    double t0, last_progress;
    double no_server_since; /* when the last live server dropped out (0: one is live) */
} B;

static void clear_progress(void)
{
    if (B.tty && !B.quiet) fputs("\r\033[K", stderr);
}

static void progress(bool force)
{
    if (B.quiet) return;
    double now = nc_now();
    if (!force && now - B.last_progress < (B.tty ? 0.2 : 5.0)) return;
    B.last_progress = now;
    int finished = B.done + B.failed;
    double el = now - B.t0, rate = el > 0 ? finished / el : 0;
    int left = B.total_work - finished;
    char eta[32];
    if (rate > 0)
        snprintf(eta, sizeof eta, "%.0f s", left / rate);
    else
        snprintf(eta, sizeof eta, "?");
    char up[48] = "";
    if (B.nsv > 1 || B.nlive < B.nsv) snprintf(up, sizeof up, ", %d/%d servers up", B.nlive, B.nsv);
    fprintf(stderr, "%sbatch: %d/%d done, %.1f dumps/s, ETA %s, %d failed, %d in flight%s%s",
            B.tty ? "\r\033[K" : "", finished, B.total_work, rate, eta, B.failed, B.inflight, up, B.tty ? "" : "\n");
    fflush(stderr);
}

static void push(int i)
{
    if (B.qtail == B.qcap) { /* the queue never holds more than n entries at once, compact */
        memmove(B.queue, B.queue + B.qhead, (size_t)(B.qtail - B.qhead) * sizeof *B.queue);
        B.qtail -= B.qhead;
        B.qhead = 0;
    }
    B.queue[B.qtail++] = i;
}

static void fail_item(struct item *it, const char *why)
{
    it->state = ST_FAILED;
    free(it->err);
    it->err = strdup(why);
    B.failed++;
    clear_progress();
    printf("FAIL %s: %s\n", it->path, why);
    fflush(stdout);
}

/* Compares OUTDIR/NAME.png with the reference; fills the item. */
static void compare_item(struct item *it)
{
    char out[4096], ref[4096], diffp[4096];
    snprintf(out, sizeof out, "%s/%s.png", B.outdir, it->name);
    snprintf(ref, sizeof ref, "%s/%s-soft.png", B.refdir, it->name);
    if (access(ref, R_OK) != 0) snprintf(ref, sizeof ref, "%s/%s.png", B.refdir, it->name);
    snprintf(diffp, sizeof diffp, "%s/%s-diff.png", B.outdir, it->name);
    it->compared = true;
    it->over = true;
    struct gt_diag d = {0};
    struct gt_image a, b;
    if (access(ref, R_OK) != 0) {
        clear_progress();
        printf("OVER %s: no reference %s/%s-soft.png or %s.png\n", it->path, B.refdir, it->name, it->name);
        return;
    }
    if (gt_png_read_file(out, &a, &d) < 0) {
        clear_progress();
        printf("OVER %s: %s\n", it->path, gt_diag_msg(&d));
        return;
    }
    if (gt_png_read_file(ref, &b, &d) < 0) {
        clear_progress();
        printf("OVER %s: %s\n", it->path, gt_diag_msg(&d));
        gt_image_free(&a);
        return;
    }
    struct gt_compare res;
    uint8_t *diff = malloc((size_t)a.w * a.h * 4 + 1);
    if (!diff) {
        printf("OVER %s: out of memory\n", it->path);
    } else if (gt_image_compare(&a, &b, GT_DISPLAY_WIDTH, GT_DISPLAY_HEIGHT, &res, diff, &d) < 0) {
        clear_progress();
        printf("OVER %s: %s\n", it->path, gt_diag_msg(&d));
    } else {
        it->has_ref = true;
        it->mse = res.mse;
        it->differing = res.differing;
        it->over = res.mse > B.max_mse;
        if (gt_png_write_file(diffp, diff, a.w, a.h, &d) < 0) {
            clear_progress();
            fprintf(stderr, PROG ": %s\n", gt_diag_msg(&d));
        }
        if (it->over) {
            clear_progress();
            printf("OVER %s: MSE %.6f, %llu differing pixels (limit %g)\n", it->path, res.mse,
                   (unsigned long long)res.differing, B.max_mse);
        }
    }
    fflush(stdout);
    free(diff);
    gt_image_free(&a);
    gt_image_free(&b);
}

/* The live server for item it: fewest in flight, not the one it failed on
 * when another is live. -1 when none is live. */
static int pick_server(const struct item *it)
{
    int best = -1;
    for (int pass = 0; pass < 2 && best < 0; pass++)
        for (int s = 0; s < B.nsv; s++) {
            if (!B.sv[s].live) continue;
            if (pass == 0 && it->attempts > 0 && s == it->server && B.nsv > 1) continue;
            if (best < 0 || B.sv[s].inflight < B.sv[best].inflight) best = s;
        }
    return best;
}

/* A request of it ended without an image for a reason not its input. */
static void retry_or_fail(struct item *it, const char *why)
{
    if (it->attempts < 2) {
        it->state = ST_TODO;
        push((int)(it - B.it));
    } else {
        fail_item(it, why);
    }
}

/* The next delay before dialling a server that is not live. */
static void schedule_reconnect(struct server *sv, double now)
{
    sv->backoff = sv->backoff > 0 ? sv->backoff * 2 : RECONNECT_FIRST_S;
    if (sv->backoff > RECONNECT_MAX_S) sv->backoff = RECONNECT_MAX_S;
    sv->retry_at = now + sv->backoff;
}

static void server_down(int s, const char *why)
{
    struct server *sv = &B.sv[s];
    if (!sv->live) return;
    sv->live = false;
    B.nlive--;
    schedule_reconnect(sv, nc_now());
    clear_progress();
    fprintf(stderr, PROG ": server %s: %s; %d request(s) in flight go to %s; dialling it again in %.2g s\n",
            sv->addr, why, sv->inflight, B.nlive ? "another server" : "the first server back", sv->backoff);
    nc_conn_close(&sv->c);
    for (int i = 0; i < B.n; i++) {
        struct item *it = &B.it[i];
        if (it->state == ST_FLIGHT && it->server == s) {
            B.inflight--;
            sv->inflight--;
            char msg[600];
            snprintf(msg, sizeof msg, "server %s: %s", sv->addr, why);
            retry_or_fail(it, msg);
        }
    }
}

/* Dials the servers that are not live and whose delay is over. */
static void reconnect_due(void)
{
    double now = nc_now();
    for (int s = 0; s < B.nsv; s++) {
        struct server *sv = &B.sv[s];
        if (sv->live || now < sv->retry_at) continue;
        if (nc_conn_open(&sv->c, sv->addr, NULL) == 0) {
            clear_progress();
            fprintf(stderr, PROG ": server %s: %s, taking requests\n", sv->addr, sv->was_live ? "back" : "reached");
            sv->live = sv->was_live = true;
            B.nlive++;
            continue;
        }
        const char *why = strerror(errno);
        bool was_max = sv->backoff >= RECONNECT_MAX_S;
        schedule_reconnect(sv, now);
        if (!was_max) { /* quiet once the delay is at its longest */
            clear_progress();
            if (sv->backoff < RECONNECT_MAX_S)
                fprintf(stderr, PROG ": server %s: cannot connect (%s); next attempt in %.2g s\n", sv->addr, why,
                        sv->backoff);
            else
                fprintf(stderr, PROG ": server %s: cannot connect (%s); trying again every %.2g s, quietly\n",
                        sv->addr, why, RECONNECT_MAX_S);
        }
    }
}

/* Seconds until the next reconnect attempt is due (limit when none is sooner). */
static double next_reconnect_in(double limit)
{
    double now = nc_now(), t = limit;
    for (int s = 0; s < B.nsv; s++)
        if (!B.sv[s].live && B.sv[s].retry_at - now < t) t = B.sv[s].retry_at - now;
    return t > 0 ? t : 0;
}

static bool retryable(struct proto_bytes code)
{
    return proto_bytes_is(code, "busy") || proto_bytes_is(code, "shutting_down") ||
           proto_bytes_is(code, "internal") || proto_bytes_is(code, "nomem");
}

static void on_response(int s, const struct proto_response *rs)
{
    struct item *it = NULL;
    for (int i = 0; i < B.n; i++)
        if (B.it[i].state == ST_FLIGHT && B.it[i].server == s && B.it[i].id == rs->id) {
            it = &B.it[i];
            break;
        }
    if (rs->ok) B.sv[s].backoff = 0; /* it works: a later drop starts with a short delay */
    if (!it) {
        if (!rs->ok) {
            /* id 0: a stream error; the server closes the connection and the rest are retried */
            clear_progress();
            fprintf(stderr, PROG ": server %s: %.*s: %.*s\n", B.sv[s].addr, (int)rs->error_code.len,
                    (const char *)rs->error_code.ptr, (int)rs->error_message.len,
                    (const char *)rs->error_message.ptr);
        }
        return;
    }
    B.inflight--;
    B.sv[s].inflight--;
    char why[4400];
    if (!rs->ok) {
        snprintf(why, sizeof why, "%.*s: %.*s", (int)rs->error_code.len, (const char *)rs->error_code.ptr,
                 (int)rs->error_message.len, (const char *)rs->error_message.ptr);
        if (retryable(rs->error_code))
            retry_or_fail(it, why);
        else
            fail_item(it, why);
        return;
    }
    if (!(rs->outputs & PROTO_OUT_PNG)) {
        fail_item(it, "the response holds no png");
        return;
    }
    char out[4096], tmp[4200];
    snprintf(out, sizeof out, "%s/%s.png", B.outdir, it->name);
    snprintf(tmp, sizeof tmp, "%s.tmp%d", out, (int)getpid());
    if (nc_write_file(tmp, rs->png.ptr, rs->png.len) < 0 || rename(tmp, out) != 0) {
        snprintf(why, sizeof why, "cannot write %s: %s", out, strerror(errno));
        unlink(tmp);
        fail_item(it, why);
        return;
    }
    it->state = ST_DONE;
    B.done++;
    if (B.refdir) compare_item(it);
}

/* Sends queued items while there is room. */
static void dispatch(void)
{
    static msgpack_sbuffer sb;
    static bool init;
    if (!init) {
        msgpack_sbuffer_init(&sb);
        init = true;
    }
    while (B.inflight < B.jobs && B.qhead < B.qtail) {
        struct item *it = &B.it[B.queue[B.qhead]];
        int s = pick_server(it);
        if (s < 0) return;
        B.qhead++;
        char why[600];
        uint64_t id = ++B.next_id;
        if (nc_encode_dump(it->path, id, B.threads, B.token, &sb, why, sizeof why) < 0) {
            fail_item(it, why);
            continue;
        }
        if (nc_conn_queue(&B.sv[s].c, sb.data, sb.size) < 0) {
            fail_item(it, "out of memory");
            continue;
        }
        it->id = id;
        it->server = s;
        it->attempts++;
        it->state = ST_FLIGHT;
        B.inflight++;
        B.sv[s].inflight++;
        msgpack_sbuffer_clear(&sb);
    }
    if (B.qhead == B.qtail && init) {
        msgpack_sbuffer_destroy(&sb);
        init = false;
    }
}

static int cmp_items(const void *a, const void *b)
{
    const struct item *x = a, *y = b;
    /* failures and missing references first, then worst MSE, then name */
    int fx = x->state == ST_FAILED || !x->has_ref, fy = y->state == ST_FAILED || !y->has_ref;
    if (fx != fy) return fy - fx;
    if (x->mse != y->mse) return x->mse < y->mse ? 1 : -1;
    return strcmp(x->name, y->name);
}

static void html_escape(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else
            fputc(*s, f);
    }
}

/* A URL path part: escapes what is not safe in an attribute or a URL. */
static void url_escape(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("-_.~/", c))
            fputc(c, f);
        else
            fprintf(f, "%%%02X", c);
    }
}

static int write_report(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/report.html", B.outdir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, PROG ": cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    char refabs[4096];
    if (!realpath(B.refdir, refabs)) snprintf(refabs, sizeof refabs, "%s", B.refdir);
    struct item *sorted = malloc((size_t)B.n * sizeof *sorted);
    if (!sorted) {
        fclose(f);
        return -1;
    }
    memcpy(sorted, B.it, (size_t)B.n * sizeof *sorted);
    qsort(sorted, (size_t)B.n, sizeof *sorted, cmp_items);
    int over = 0;
    for (int i = 0; i < B.n; i++) over += sorted[i].state == ST_FAILED || sorted[i].over;
    fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>getile batch report</title>\n"
               "<style>body{font-family:sans-serif}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
               "padding:4px;text-align:left;vertical-align:top}img{width:240px;image-rendering:pixelated}"
               ".bad{background:#fdd}</style></head><body>\n<h1>getile batch report</h1>\n");
    fprintf(f, "<p>%d dumps, %d failed or over the limit (MSE &gt; %g). References: ", B.n, over, B.max_mse);
    html_escape(f, refabs);
    fprintf(f, "</p>\n<table>\n<tr><th>dump</th><th>MSE</th><th>differing pixels</th><th>output</th>"
               "<th>reference</th><th>diff</th></tr>\n");
    for (int i = 0; i < B.n; i++) {
        const struct item *it = &sorted[i];
        bool bad = it->state == ST_FAILED || it->over;
        fprintf(f, "<tr%s><td>", bad ? " class=\"bad\"" : "");
        html_escape(f, it->name);
        if (it->state == ST_FAILED) {
            fputs("</td><td colspan=\"5\">failed: ", f);
            html_escape(f, it->err ? it->err : "?");
            fputs("</td></tr>\n", f);
            continue;
        }
        if (!it->has_ref) {
            fputs("</td><td colspan=\"2\">no reference</td><td>", f);
        } else {
            fprintf(f, "</td><td>%.6f</td><td>%llu</td><td>", it->mse, (unsigned long long)it->differing);
        }
        fputs("<a href=\"", f);
        url_escape(f, it->name);
        fputs(".png\"><img src=\"", f);
        url_escape(f, it->name);
        fputs(".png\"></a></td><td>", f);
        if (it->has_ref) {
            char ref[8400];
            snprintf(ref, sizeof ref, "%s/%s-soft.png", refabs, it->name);
            if (access(ref, R_OK) != 0) snprintf(ref, sizeof ref, "%s/%s.png", refabs, it->name);
            fputs("<a href=\"file://", f);
            url_escape(f, ref);
            fputs("\"><img src=\"file://", f);
            url_escape(f, ref);
            fputs("\"></a></td><td><a href=\"", f);
            url_escape(f, it->name);
            fputs("-diff.png\"><img src=\"", f);
            url_escape(f, it->name);
            fputs("-diff.png\"></a>", f);
        } else {
            fputs("</td><td>", f);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n</body></html>\n", f);
    free(sorted);
    if (fclose(f) != 0) return -1;
    return 0;
}

static bool is_dump(const char *name)
{
    size_t n = strlen(name);
    return (n > 4 && !strcasecmp(name + n - 4, ".zip")) || (n > 6 && !strcasecmp(name + n - 6, ".ppdmp"));
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, PROG ": ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n\n%s", usage);
    return 2;
}

int cmd_batch(int argc, char **argv)
{
    const char *dir = NULL;
    unsigned long long jobs = 8;
    struct cli_net_opts o = {0};
    memset(&B, 0, sizeof B);
    B.max_mse = 0;
    if (cli_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return 0;
    }
    for (int i = 1, taken; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--server") || !strcmp(a, "--ref") || !strcmp(a, "--max-mse")) {
            if (!v) return usage_error("%s needs a value", a);
            i++;
            if (!strcmp(a, "--server")) { /* repeatable, a comma-separated list */
                char *list = strdup(v), *save = NULL;
                if (!list) {
                    fprintf(stderr, PROG ": out of memory\n");
                    return 1;
                }
                for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                    if (B.nsv == MAX_SERVERS) return usage_error("too many servers (at most 64)%s", "");
                    B.sv[B.nsv++].addr = t; /* list is kept for the process's life */
                }
            } else if (!strcmp(a, "--ref")) {
                B.refdir = v;
            } else {
                char *end;
                B.max_mse = strtod(v, &end);
                if (*end || !*v || !(B.max_mse >= 0) || isinf(B.max_mse))
                    return usage_error("--max-mse needs a non-negative number, got '%s'", v);
            }
        } else if (!strcmp(a, "--jobs")) {
            if (!cli_parse_u64(a, v, 4096, &jobs) || jobs == 0) {
                if (jobs == 0) fprintf(stderr, PROG ": --jobs must be at least 1\n");
                return 2;
            }
            i++;
        } else if ((taken = cli_net_option(argc, argv, &i, &o, PROG)) != 0) {
            if (taken < 0) return 2; /* -o, --token-file, --threads */
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            B.quiet = true;
        } else if (a[0] == '-' && a[1]) {
            return usage_error("unknown option '%s'", a);
        } else if (!dir) {
            dir = a;
        } else {
            return usage_error("one directory of dumps, got a second ('%s')", a);
        }
    }
    B.outdir = o.output;
    const char *token_file = o.token_file;
    unsigned long long threads = o.threads;
    if (!B.nsv) return usage_error("no --server given%s", "");
    if (!dir) return usage_error("no directory of dumps given%s", "");
    if (!B.outdir) return usage_error("no -o OUTDIR given%s", "");
    B.jobs = (int)jobs;
    B.threads = (unsigned)threads;
    char *token = NULL;
    if (token_file && !(token = nc_read_token(token_file, PROG))) return 2;
    B.token = token;

    DIR *dh = opendir(dir);
    if (!dh) {
        fprintf(stderr, PROG ": cannot open %s: %s\n", dir, strerror(errno));
        free(token);
        return 2;
    }
    if (B.refdir) {
        struct stat st;
        if (stat(B.refdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, PROG ": --ref %s is not a directory\n", B.refdir);
            closedir(dh);
            free(token);
            return 2;
        }
    }
    char **names = NULL;
    int nn = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(dh))) {
        if (de->d_name[0] == '.' || !is_dump(de->d_name)) continue;
        if (nn == cap) {
            cap = cap ? cap * 2 : 64;
            names = realloc(names, (size_t)cap * sizeof *names);
            if (!names) return 1;
        }
        names[nn++] = strdup(de->d_name);
    }
    closedir(dh);
    if (nn) qsort(names, (size_t)nn, sizeof *names, cmp_str);
    if (mkdir(B.outdir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, PROG ": cannot create %s: %s\n", B.outdir, strerror(errno));
        return 1;
    }
    B.it = calloc((size_t)nn + 1, sizeof *B.it);
    B.queue = calloc((size_t)nn * 2 + 1, sizeof *B.queue);
    B.qcap = nn * 2 + 1;
    if (!B.it || !B.queue) return 1;
    B.n = nn;
    for (int i = 0; i < nn; i++) {
        struct item *it = &B.it[i];
        size_t pl = strlen(dir) + strlen(names[i]) + 2;
        it->path = malloc(pl);
        snprintf(it->path, pl, "%s/%s", dir, names[i]);
        char nm[512], out[4096];
        nc_dump_name(names[i], nm, sizeof nm);
        it->name = strdup(nm);
        snprintf(out, sizeof out, "%s/%s.png", B.outdir, nm);
        it->server = -1;
        if (access(out, F_OK) == 0) {
            it->state = ST_SKIPPED;
            B.skipped++;
        } else {
            push(i);
            B.total_work++;
        }
        free(names[i]);
    }
    free(names);
    B.tty = isatty(2);
    if (!B.quiet)
        fprintf(stderr, PROG ": %d dumps in %s, %d skipped (output already exists), %d to render on %d server(s)\n",
                nn, dir, B.skipped, B.total_work, B.nsv);

    int live = 0;
    if (B.total_work > 0)
        for (int s = 0; s < B.nsv; s++) {
            B.sv[s].live = B.sv[s].was_live = nc_conn_open(&B.sv[s].c, B.sv[s].addr, PROG) == 0;
            if (!B.sv[s].live) schedule_reconnect(&B.sv[s], nc_now());
            live += B.sv[s].live;
        }
    B.nlive = live;
    if (B.total_work > 0 && !live) {
        fprintf(stderr, PROG ": no server could be reached\n");
        while (B.qhead < B.qtail) fail_item(&B.it[B.queue[B.qhead++]], "no server could be reached");
    } else if (live < B.nsv) {
        fprintf(stderr, PROG ": %d of %d servers reached; the others are dialled again later\n", live, B.nsv);
    }
    if (B.refdir)
        for (int i = 0; i < nn; i++)
            if (B.it[i].state == ST_SKIPPED) compare_item(&B.it[i]);

    B.t0 = B.last_progress = nc_now();
    struct pollfd pf[MAX_SERVERS];
    struct proto_response *rs = malloc(sizeof *rs);
    if (!rs) return 1;
    while (B.inflight > 0 || B.qhead < B.qtail) {
        reconnect_due();
        dispatch();
        int np = 0, map[MAX_SERVERS];
        for (int s = 0; s < B.nsv; s++) {
            if (!B.sv[s].live) continue;
            pf[np] = (struct pollfd){.fd = B.sv[s].c.fd, .events = POLLIN | (nc_conn_wants_write(&B.sv[s].c) ? POLLOUT : 0)};
            map[np++] = s;
        }
        double now = nc_now();
        if (np == 0) {
            /* no server up (nothing is in flight then): wait for one to come back, within the grace period */
            if (B.no_server_since == 0) B.no_server_since = now;
            if (now - B.no_server_since >= NO_SERVER_GRACE_S) {
                char why[100];
                snprintf(why, sizeof why, "no server could be reached for %.0f s", NO_SERVER_GRACE_S);
                while (B.qhead < B.qtail) fail_item(&B.it[B.queue[B.qhead++]], why);
                break;
            }
            double wait = next_reconnect_in(NO_SERVER_GRACE_S - (now - B.no_server_since));
            poll(NULL, 0, (int)(wait * 1000) + 1);
            progress(false);
            continue;
        }
        B.no_server_since = 0;
        int pr = poll(pf, (nfds_t)np, (int)(next_reconnect_in(0.2) * 1000) + 1);
        if (pr < 0 && errno != EINTR) break;
        for (int k = 0; pr > 0 && k < np; k++) {
            int s = map[k];
            struct server *sv = &B.sv[s];
            if (!sv->live) continue;
            if ((pf[k].revents & POLLOUT) && nc_conn_send(&sv->c) < 0) {
                server_down(s, strerror(errno));
                continue;
            }
            if (pf[k].revents & (POLLIN | POLLHUP | POLLERR)) {
                int rrc = nc_conn_recv(&sv->c);
                char why[600];
                int n;
                while ((n = nc_conn_next(&sv->c, rs, why, sizeof why)) == 1) on_response(s, rs);
                if (n < 0)
                    server_down(s, why);
                else if (rrc < 0)
                    server_down(s, "connection closed");
            }
        }
        progress(false);
    }
    free(rs);
    for (int s = 0; s < B.nsv; s++)
        if (B.sv[s].live) nc_conn_close(&B.sv[s].c);
    double el = nc_now() - B.t0;
    int over = 0;
    for (int i = 0; i < nn; i++) over += B.it[i].state != ST_FAILED && B.it[i].over;
    if (!B.quiet) {
        progress(true);
        if (B.tty) fputc('\n', stderr);
    }
    int rc_report = B.refdir ? write_report() : 0;
    printf("batch: %d dumps: %d rendered, %d skipped (output existed), %d failed", nn, B.done, B.skipped, B.failed);
    if (B.refdir) printf(", %d over MSE %g", over, B.max_mse);
    printf("; %.1f s, %.1f dumps/s\n", el, el > 0 ? B.done / el : 0.0);
    if (B.refdir && rc_report == 0) printf("report: %s/report.html\n", B.outdir);
    int status = (B.failed || over || rc_report < 0 || (B.total_work > 0 && !live)) ? 1 : 0;
    for (int i = 0; i < nn; i++) {
        free(B.it[i].path);
        free(B.it[i].name);
        free(B.it[i].err);
    }
    free(B.it);
    free(B.queue);
    free(token);
    return status;
}
