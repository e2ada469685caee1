/* getile fuzz: the determinism fuzzer. Renders random cases (clients/
 * fuzzgen.c) and, on request, frame dumps with every thread count and tile
 * size, each on a fresh render context, and checks that the displayed
 * framebuffer, the depth buffer and all of VRAM hash the same as with one
 * thread and 64-pixel tiles (docs/DESIGN.md: the synchronous path is the
 * reference every threaded run must equal byte for byte). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#include "cli.h"
#include "dump.h"
#include "fuzzgen.h"
#include "ge_limits.h"
#include "render.h"

static const char usage[] =
    "usage: getile fuzz [--seconds N] [--cases N] [--seed S] [--threads LIST]\n"
    "                   [--save-dir DIR] [--dumps DIR] [--case K] [--save-all]\n"
    "\n"
    "Determinism fuzzer. Generates random display lists with the memory they use\n"
    "(blended triangles, strips, fans, rectangles, lines and points in through and\n"
    "transform mode, depth, stencil, pixels past the stride, REGION1 offsets, depth\n"
    "buffers aliasing the color buffer, render to texture, self-texturing, clear\n"
    "mode, all framebuffer formats, block transfers, bad addresses), renders each\n"
    "case with every thread count of LIST and every tile size (16, 32, 64, 128,\n"
    "256), each on a fresh renderer, and compares hashes of the displayed\n"
    "framebuffer, the depth buffer and all 2 MiB of VRAM with the reference render\n"
    "(1 thread, 64-pixel tiles). Case K of seed S is always the same case.\n"
    "\n"
    "  --seconds N      start no new case after N seconds (default 60; 0: no limit)\n"
    "  --cases N        run at most N cases (default: until --seconds)\n"
    "  --seed S         seed of the cases (default: from the clock; always printed)\n"
    "  --threads LIST   comma-separated thread counts, each 1..64 (default 1,2,3,4,8,16)\n"
    "  --save-dir DIR   save each diverging case as DIR/seed-S-case-K.ppdmp, a frame\n"
    "                   dump that `getile render FILE --threads T --tile-size N`\n"
    "                   replays, with DIR/seed-S-case-K.txt naming the seed, case,\n"
    "                   configurations, hashes and first differing VRAM address\n"
    "                   (a case that crashes the renderer is saved too)\n"
    "  --dumps DIR      also check every .ppdmp and .zip in DIR the same way; all\n"
    "                   of them are checked, one after each random case, whatever\n"
    "                   --seconds says (default: no dumps)\n"
    "  --case K         run only case K of the seed (to reproduce a report)\n"
    "  --save-all       with --save-dir, save every case, diverging or not\n"
    "\n"
    "A terminal shows one updating progress line on stderr (cases, renders,\n"
    "elapsed time, divergences); otherwise a line every 10 seconds. Divergences\n"
    "and the summary go to stdout. Exit status: 0 no divergence, 1 a divergence\n"
    "or a dump that could not be read or rendered, 2 usage errors.\n";

static const unsigned tile_sizes[] = {16, 32, 64, 128, 256};
#define NTILES (sizeof tile_sizes / sizeof tile_sizes[0])
#define REF_THREADS 1u
#define REF_TILE GT_TILE_SIZE_DEFAULT

/* What one render produced. */
struct outcome {
    int rc;                      /* gt_render_replay's result */
    uint64_t color, depth, vram; /* hashes */
};

/* Options, buffers and counters of one run. */
struct fuzz {
    uint64_t seed, max_cases, only_case;
    bool cases_given, only_given, save_all, tty;
    unsigned threads[GT_MAX_THREADS], nthreads;
    double seconds;
    const char *save_dir, *dumps_dir;
    char **dumps;
    size_t ndumps;
    uint8_t *ref_vram, *vram, *rgba;
    uint16_t *depth;
    uint64_t cases, dumps_done, renders, divergences, failures;
    struct timespec t0;
    double last_progress;
};

/* ---- Crash notes ---------------------------------------------------------
 * A signal handler cannot reach the run's state through arguments, so the
 * case being rendered is described here (the one piece of global state):
 * the handler writes the message and, with --save-dir, the case's dump
 * bytes, then re-raises the signal. Only async-signal-safe calls. */
static struct {
    char msg[512];
    size_t msglen;
    char path[4096];     /* empty: nothing to save */
    const uint8_t *bytes;
    size_t len;
} crash;

static void on_crash(int sig)
{
    if (write(STDERR_FILENO, crash.msg, crash.msglen) < 0) {
    }
    if (crash.path[0] && crash.bytes) {
        int fd = open(crash.path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            size_t off = 0;
            while (off < crash.len) {
                ssize_t n = write(fd, crash.bytes + off, crash.len - off);
                if (n <= 0) break;
                off += (size_t)n;
            }
            close(fd);
        }
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_crash_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_crash;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
}

/* ---- Running ------------------------------------------------------------- */

static double elapsed(const struct fuzz *f)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - f->t0.tv_sec) + (double)(t.tv_nsec - f->t0.tv_nsec) / 1e9;
}

static void progress(struct fuzz *f, bool force)
{
    double now = elapsed(f);
    if (!force && now - f->last_progress < (f->tty ? 0.2 : 10.0)) return;
    f->last_progress = now;
    fprintf(stderr, "%sfuzz: %llu cases, %llu dumps, %llu renders, %.0f s, %llu divergences%s",
            f->tty ? "\r" : "getile ", (unsigned long long)f->cases, (unsigned long long)f->dumps_done,
            (unsigned long long)f->renders, now, (unsigned long long)f->divergences, f->tty ? "\033[K" : "\n");
    fflush(stderr);
}

/* Clears the progress line before other output on a terminal. */
static void progress_clear(const struct fuzz *f)
{
    if (f->tty) fputs("\r\033[K", stderr);
}

/* Renders dp on a fresh context with the given threads and tile size;
 * VRAM goes to vram. Returns 0 or a gt_err from setting up the context
 * (the replay's own result is out->rc). */
static int render_once(struct fuzz *f, const struct dump *dp, unsigned threads, unsigned tile, struct outcome *out,
                       uint8_t *vram, struct gt_diag *d)
{
    struct gt_render *r = malloc(sizeof *r);
    if (!r) return gt_fail(d, GT_ENOMEM, "out of memory for a render context");
    int rc = gt_render_init(r, d);
    if (rc < 0) {
        free(r);
        return rc;
    }
    if ((rc = gt_render_set_threads(r, threads, tile, d)) < 0) goto out;
    struct gt_diag rd = {0};
    out->rc = gt_render_replay(r, dp, 0, &rd);
    gt_render_display_rgba(r, f->rgba, true);
    out->color = fuzz_hash(FUZZ_HASH_INIT, f->rgba, (size_t)GT_IMAGE_STRIDE * GT_DISPLAY_HEIGHT * 4);
    gt_render_depth(r, f->depth);
    out->depth = fuzz_hash(FUZZ_HASH_INIT, f->depth, sizeof *f->depth * GT_DISPLAY_WIDTH * GT_DISPLAY_HEIGHT);
    memcpy(vram, r->mem.vram, GT_VRAM_SIZE);
    out->vram = fuzz_hash(FUZZ_HASH_INIT, vram, GT_VRAM_SIZE);
    f->renders++;
out:
    gt_render_free(r);
    free(r);
    return rc;
}

static void set_crash_note(const char *what, unsigned threads, unsigned tile)
{
    int n = snprintf(crash.msg, sizeof crash.msg,
                     "\ngetile fuzz: the renderer crashed in %s (threads %u, tile %u)%s%s\n", what, threads, tile,
                     crash.path[0] ? "; case saved as " : "", crash.path);
    crash.msglen = n < 0 ? 0 : (size_t)n >= sizeof crash.msg ? sizeof crash.msg - 1 : (size_t)n;
}

static void print_outcome(FILE *out, const char *label, const struct outcome *o)
{
    fprintf(out, "%s: color 0x%016llx depth 0x%016llx vram 0x%016llx%s%s\n", label, (unsigned long long)o->color,
            (unsigned long long)o->depth, (unsigned long long)o->vram, o->rc ? " replay error " : "",
            o->rc ? gt_err_name(o->rc) : "");
}

/* Renders dp with every configuration and compares each with the
 * reference. what names it in messages ("case 3 of seed 7", a file name).
 * Diverging configurations are described in report (for the saved text).
 * Returns the number of diverging configurations, or -1 when the
 * reference could not be set up. */
static int check(struct fuzz *f, const struct dump *dp, const char *what, char *report, size_t cap,
                 struct outcome *ref)
{
    struct gt_diag d = {0};
    size_t used = 0;
    int bad = 0;
    report[0] = 0;
    set_crash_note(what, REF_THREADS, REF_TILE);
    if (render_once(f, dp, REF_THREADS, REF_TILE, ref, f->ref_vram, &d) < 0) {
        progress_clear(f);
        printf("getile fuzz: %s: %s\n", what, gt_diag_msg(&d));
        return -1;
    }
    for (unsigned i = 0; i < f->nthreads; i++) {
        for (size_t k = 0; k < NTILES; k++) {
            unsigned t = f->threads[i], tile = tile_sizes[k];
            if (t == REF_THREADS && tile == REF_TILE) continue;
            struct outcome o = {0};
            set_crash_note(what, t, tile);
            if (render_once(f, dp, t, tile, &o, f->vram, &d) < 0) {
                progress_clear(f);
                printf("getile fuzz: %s (threads %u, tile %u): %s\n", what, t, tile, gt_diag_msg(&d));
                return -1;
            }
            progress(f, false);
            if (o.rc == ref->rc && o.color == ref->color && o.depth == ref->depth && o.vram == ref->vram) continue;
            bad++;
            char first[64] = "none (VRAM identical)";
            for (size_t a = 0; a < GT_VRAM_SIZE; a++)
                if (f->vram[a] != f->ref_vram[a]) {
                    snprintf(first, sizeof first, "0x%08zx", GT_VRAM_BASE + a);
                    break;
                }
            char diff[64];
            snprintf(diff, sizeof diff, "%s%s%s%s", o.rc != ref->rc ? "result " : "",
                     o.color != ref->color ? "color " : "", o.depth != ref->depth ? "depth " : "",
                     o.vram != ref->vram ? "vram " : "");
            progress_clear(f);
            printf("getile fuzz: DIVERGENCE in %s: threads %u, tile %u differ from threads %u, tile %u in: %s"
                   "(first differing VRAM address %s)\n",
                   what, t, tile, REF_THREADS, REF_TILE, diff, first);
            print_outcome(stdout, "  reference", ref);
            char label[64];
            snprintf(label, sizeof label, "  threads %u tile %u", t, tile);
            print_outcome(stdout, label, &o);
            fflush(stdout);
            if (used < cap) {
                int n = snprintf(report + used, cap - used,
                                 "diverging threads %u tile %u: %sfirst differing VRAM address %s\n"
                                 "  color 0x%016llx depth 0x%016llx vram 0x%016llx result %s\n",
                                 t, tile, diff, first, (unsigned long long)o.color, (unsigned long long)o.depth,
                                 (unsigned long long)o.vram, gt_err_name(o.rc));
                if (n > 0) used += (size_t)n;
            }
        }
    }
    return bad;
}

static int write_file(const char *path, const void *data, size_t len)
{
    FILE *fp = fopen(path, "wb");
    int ok = fp && fwrite(data, 1, len, fp) == len;
    if (fp && fclose(fp) != 0) ok = 0;
    if (!ok) fprintf(stderr, "getile fuzz: cannot write %s: %s\n", path, strerror(errno));
    return ok ? 0 : -1;
}

/* Saves a case's dump and its text note under --save-dir. */
static void save_case(struct fuzz *f, const struct fuzz_case *c, const uint8_t *bytes, size_t len,
                      const struct outcome *ref, const char *report)
{
    char path[4096], text[8192];
    snprintf(path, sizeof path, "%s/seed-%llu-case-%llu.ppdmp", f->save_dir, (unsigned long long)c->seed,
             (unsigned long long)c->index);
    if (write_file(path, bytes, len) < 0) return;
    int n = snprintf(text, sizeof text,
                     "seed %llu\ncase %llu\nfeatures %s\ndraws %u\n"
                     "reference threads %u tile %u: color 0x%016llx depth 0x%016llx vram 0x%016llx result %s\n"
                     "%s"
                     "replay: getile render %s -o out.png --threads T --tile-size N\n"
                     "regenerate: getile fuzz --seed %llu --case %llu\n",
                     (unsigned long long)c->seed, (unsigned long long)c->index, c->desc, c->draws, REF_THREADS,
                     REF_TILE, (unsigned long long)ref->color, (unsigned long long)ref->depth,
                     (unsigned long long)ref->vram, gt_err_name(ref->rc), report[0] ? report : "diverging none\n",
                     path, (unsigned long long)c->seed, (unsigned long long)c->index);
    snprintf(path + strlen(path) - strlen(".ppdmp"), 8, ".txt");
    if (n > 0) write_file(path, text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
    progress_clear(f);
    printf("getile fuzz: saved %s/seed-%llu-case-%llu.ppdmp\n", f->save_dir, (unsigned long long)c->seed,
           (unsigned long long)c->index);
}

static int run_case(struct fuzz *f, uint64_t index)
{
    struct fuzz_case c;
    uint8_t *bytes = NULL;
    size_t len = 0;
    char what[96], report[4096];
    struct gt_diag d = {0};
    if (fuzz_case_make(&c, f->seed, index) < 0) {
        fprintf(stderr, "getile fuzz: out of memory generating case %llu\n", (unsigned long long)index);
        return -1;
    }
    crash.path[0] = 0;
    if (f->save_dir) {
        if (dump_write(&c.b.d, &bytes, &len, &d) < 0) {
            fprintf(stderr, "getile fuzz: case %llu: %s\n", (unsigned long long)index, gt_diag_msg(&d));
            fuzz_case_free(&c);
            return -1;
        }
        snprintf(crash.path, sizeof crash.path, "%s/seed-%llu-case-%llu.ppdmp", f->save_dir,
                 (unsigned long long)f->seed, (unsigned long long)index);
        crash.bytes = bytes, crash.len = len;
    }
    snprintf(what, sizeof what, "case %llu of seed %llu", (unsigned long long)index, (unsigned long long)f->seed);
    struct outcome ref = {0};
    int bad = check(f, &c.b.d, what, report, sizeof report, &ref);
    if (bad >= 0 && ref.rc) {
        progress_clear(f);
        printf("getile fuzz: note: %s does not replay cleanly (%s); every configuration must agree\n", what,
               gt_err_name(ref.rc));
    }
    if (bad > 0) f->divergences++;
    if (bad < 0) f->failures++;
    if (f->save_dir && (bad > 0 || f->save_all)) save_case(f, &c, bytes, len, &ref, report);
    crash.path[0] = 0, crash.bytes = NULL;
    free(bytes);
    fuzz_case_free(&c);
    f->cases++;
    return 0;
}

static void run_dump(struct fuzz *f, const char *name)
{
    char path[4096], report[4096];
    struct gt_diag d = {0};
    struct dump dp;
    snprintf(path, sizeof path, "%s/%s", f->dumps_dir, name);
    f->dumps_done++;
    if (dump_load_file(path, &dp, &d) < 0) {
        progress_clear(f);
        printf("getile fuzz: %s: %s\n", path, gt_diag_msg(&d));
        f->failures++;
        return;
    }
    struct outcome ref = {0};
    int bad = check(f, &dp, path, report, sizeof report, &ref);
    if (bad > 0) f->divergences++;
    if (bad < 0) f->failures++;
    dump_free(&dp);
}

/* ---- Options ------------------------------------------------------------- */

/* Parses "1,2,8" into f->threads (duplicates dropped). */
static bool parse_threads(struct fuzz *f, const char *v)
{
    f->nthreads = 0;
    const char *p = v ? v : "";
    for (;;) {
        char *end;
        if (*p < '0' || *p > '9') goto bad;
        errno = 0;
        unsigned long n = strtoul(p, &end, 10);
        if (errno || n < 1 || n > GT_MAX_THREADS || (*end && *end != ',')) goto bad;
        bool dup = false;
        for (unsigned i = 0; i < f->nthreads; i++) dup |= f->threads[i] == n;
        if (!dup) f->threads[f->nthreads++] = (unsigned)n;
        if (!*end) return true;
        p = end + 1;
    }
bad:
    fprintf(stderr, "getile fuzz: --threads needs a comma-separated list of thread counts from 1 to %d, got '%s'\n",
            GT_MAX_THREADS, v ? v : "");
    return false;
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n > m && !strcasecmp(s + n - m, suf);
}

static void free_dumps(struct fuzz *f)
{
    for (size_t i = 0; i < f->ndumps; i++) free(f->dumps[i]);
    free(f->dumps);
    f->dumps = NULL, f->ndumps = 0;
}

/* Lists the .ppdmp and .zip files of --dumps, sorted. */
static int list_dumps(struct fuzz *f)
{
    DIR *dir = opendir(f->dumps_dir);
    if (!dir) {
        fprintf(stderr, "getile fuzz: cannot open --dumps directory %s: %s\n", f->dumps_dir, strerror(errno));
        return -1;
    }
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (!has_suffix(e->d_name, ".ppdmp") && !has_suffix(e->d_name, ".zip")) continue;
        if (f->ndumps == cap) {
            size_t ncap = cap ? cap * 2 : 32;
            char **n = realloc(f->dumps, ncap * sizeof *n);
            if (!n) goto nomem;
            f->dumps = n, cap = ncap;
        }
        if (!(f->dumps[f->ndumps] = strdup(e->d_name))) goto nomem;
        f->ndumps++;
    }
    closedir(dir);
    if (f->ndumps) qsort(f->dumps, f->ndumps, sizeof *f->dumps, cmp_names);
    return 0;
nomem:
    closedir(dir);
    free_dumps(f);
    fprintf(stderr, "getile fuzz: out of memory listing %s\n", f->dumps_dir);
    return -1;
}

static int parse_args(struct fuzz *f, int argc, char **argv)
{
    unsigned long long v;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--seconds")) {
            if (!cli_parse_u64(a, val, 1ull << 32, &v)) return -1;
            f->seconds = (double)v, i++;
        } else if (!strcmp(a, "--cases")) {
            if (!cli_parse_u64(a, val, ~0ull, &v)) return -1;
            f->max_cases = v, f->cases_given = true, i++;
        } else if (!strcmp(a, "--seed")) {
            if (!cli_parse_u64(a, val, ~0ull, &v)) return -1;
            f->seed = v, i++;
        } else if (!strcmp(a, "--case")) {
            if (!cli_parse_u64(a, val, ~0ull, &v)) return -1;
            f->only_case = v, f->only_given = true, i++;
        } else if (!strcmp(a, "--threads")) {
            if (!parse_threads(f, val)) return -1;
            i++;
        } else if (!strcmp(a, "--save-dir") || !strcmp(a, "--dumps")) {
            if (!val || !*val) {
                fprintf(stderr, "getile fuzz: %s needs a directory\n", a);
                return -1;
            }
            if (!strcmp(a, "--dumps")) f->dumps_dir = val;
            else f->save_dir = val;
            i++;
        } else if (!strcmp(a, "--save-all")) {
            f->save_all = true;
        } else {
            fprintf(stderr, "getile fuzz: unknown argument '%s'\n\n%s", a, usage);
            return -1;
        }
    }
    if (f->save_all && !f->save_dir) {
        fprintf(stderr, "getile fuzz: --save-all needs --save-dir\n");
        return -1;
    }
    if (f->save_dir && mkdir(f->save_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "getile fuzz: cannot create --save-dir %s: %s\n", f->save_dir, strerror(errno));
        return -1;
    }
    return f->dumps_dir ? list_dumps(f) : 0;
}

int cmd_fuzz(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return 0;
    }
    struct fuzz f = {.seconds = 60, .threads = {1, 2, 3, 4, 8, 16}, .nthreads = 6};
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    f.seed = ((uint64_t)now.tv_sec * 1000000007ull ^ (uint64_t)now.tv_nsec) % 1000000000000ull;
    if (parse_args(&f, argc, argv) < 0) return 2;

    f.ref_vram = malloc(GT_VRAM_SIZE);
    f.vram = malloc(GT_VRAM_SIZE);
    f.rgba = malloc((size_t)GT_IMAGE_STRIDE * GT_DISPLAY_HEIGHT * 4);
    f.depth = malloc(sizeof *f.depth * GT_DISPLAY_WIDTH * GT_DISPLAY_HEIGHT);
    int status = 1;
    if (!f.ref_vram || !f.vram || !f.rgba || !f.depth) {
        fprintf(stderr, "getile fuzz: out of memory\n");
        goto out;
    }
    f.tty = isatty(STDERR_FILENO);
    install_crash_handler();
    printf("getile fuzz: seed %llu (rerun with --seed %llu), threads", (unsigned long long)f.seed,
           (unsigned long long)f.seed);
    for (unsigned i = 0; i < f.nthreads; i++) printf("%s%u", i ? "," : " ", f.threads[i]);
    printf(", tile sizes 16,32,64,128,256");
    if (f.dumps_dir) printf(", %zu dumps from %s", f.ndumps, f.dumps_dir);
    printf("\n");
    fflush(stdout);
    clock_gettime(CLOCK_MONOTONIC, &f.t0);

    uint64_t next = f.only_given ? f.only_case : 0;
    size_t next_dump = 0;
    for (;;) {
        bool more = f.only_given ? f.cases == 0
                                 : (!f.cases_given || f.cases < f.max_cases) && (f.seconds == 0 || elapsed(&f) < f.seconds);
        if (more && run_case(&f, next++) < 0) goto out;
        if (next_dump < f.ndumps) run_dump(&f, f.dumps[next_dump++]);
        else if (!more) break;
        progress(&f, false);
    }
    if (f.tty) {
        progress(&f, true);
        fputc('\n', stderr);
    }
    printf("getile fuzz: seed %llu: %llu cases, %llu dumps, %llu renders in %.1f s: %llu divergences%s\n",
           (unsigned long long)f.seed, (unsigned long long)f.cases, (unsigned long long)f.dumps_done,
           (unsigned long long)f.renders, elapsed(&f), (unsigned long long)f.divergences,
           f.failures ? ", some inputs could not be rendered (see above)" : "");
    status = f.divergences || f.failures ? 1 : 0;
out:
    free(f.ref_vram), free(f.vram), free(f.rgba), free(f.depth);
    free_dumps(&f);
    return status;
}
