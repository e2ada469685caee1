/* The test runner: runs each registered test in its own child process with a
 * timeout, prints one line per test, and ends with "N passed, N failed"
 * (", N skipped" when some were skipped).
 *
 * Usage: test_runner [--list] [--timeout S] [SUBSTRING...]
 * With substrings, only tests whose name contains one of them run. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

#define T(name) void test_##name(void);
#include "list.h"
#undef T

struct test_entry {
    const char *name;
    void (*fn)(void);
};

static const struct test_entry tests[] = {
#define T(name) {#name, test_##name},
#include "list.h"
#undef T
};

static char tmpdir_path[256];

void test_fail_(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "    %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    _exit(1);
}

void test_skip(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "    skipped: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    _exit(TEST_SKIP_CODE);
}

int test_contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && (hay[i] | 0x20) == (needle[i] | 0x20)) i++;
        if (i == n) return 1;
    }
    return n == 0;
}

/* The first of ../shared/NAME, ../../shared/NAME and /work/shared/NAME
 * that is a directory, kept in buf; NULL when none is. */
const char *test_shared_dir(const char *name, char *buf, size_t cap)
{
    static const char *const roots[] = {"..", "../..", "/work"};
    struct stat st;
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        snprintf(buf, cap, "%s/shared/%s", roots[i], name);
        if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode)) return buf;
    }
    return NULL;
}

const char *test_frametests_dir(void)
{
    static char buf[256];
    const char *env = getenv("GETILE_FRAMETESTS");
    struct stat st;
    if (env && *env) return stat(env, &st) == 0 ? env : NULL;
    return test_shared_dir("frametests", buf, sizeof buf);
}

const char *test_getile_bin(void)
{
    const char *env = getenv("GETILE_BIN");
    return env && *env ? env : "build/getile";
}

const char *test_tmpdir(void)
{
    if (!tmpdir_path[0]) {
        snprintf(tmpdir_path, sizeof tmpdir_path, "/tmp/getile-test-%ld", (long)getpid());
        if (mkdir(tmpdir_path, 0700) != 0 && errno != EEXIST)
            test_fail_(__FILE__, __LINE__, "cannot create %s", tmpdir_path);
    }
    return tmpdir_path;
}

void test_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

int test_system(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    fflush(stdout);
    fflush(stderr);
    int st = system(cmd);
    if (st == -1 || !WIFEXITED(st)) return -1;
    return WEXITSTATUS(st);
}

char test_out_text[1 << 16], test_err_text[1 << 16];

size_t test_read_text(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t n = 0;
    if (f) {
        n = fread(buf, 1, cap - 1, f);
        fclose(f);
    }
    buf[n] = 0;
    return n;
}

int test_getile(const char *fmt, ...)
{
    char args[3000], o[512], e[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(o, sizeof o, "%s/stdout.txt", test_tmpdir());
    snprintf(e, sizeof e, "%s/stderr.txt", test_tmpdir());
    int st = test_system("'%s' %s >'%s' 2>'%s'", test_getile_bin(), args, o, e);
    test_read_text(o, test_out_text, sizeof test_out_text);
    test_read_text(e, test_err_text, sizeof test_err_text);
    return st;
}

static int selected(const char *name, int argc, char **argv, int first)
{
    if (first >= argc) return 1;
    for (int i = first; i < argc; i++)
        if (strstr(name, argv[i])) return 1;
    return 0;
}

int main(int argc, char **argv)
{
    int timeout = 300, first = 1;
    size_t n = sizeof tests / sizeof tests[0];
    while (first < argc && argv[first][0] == '-') {
        if (!strcmp(argv[first], "--list")) {
            for (size_t i = 0; i < n; i++) puts(tests[i].name);
            return 0;
        } else if (!strcmp(argv[first], "--timeout") && first + 1 < argc) {
            timeout = atoi(argv[first + 1]);
            first += 2;
        } else {
            fprintf(stderr, "usage: %s [--list] [--timeout S] [SUBSTRING...]\n", argv[0]);
            return 2;
        }
    }
    int passed = 0, failed = 0, skipped = 0;
    for (size_t i = 0; i < n; i++) {
        if (!selected(tests[i].name, argc, argv, first)) continue;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            alarm((unsigned)timeout);
            tests[i].fn();
            if (tmpdir_path[0]) test_system("rm -rf '%s'", tmpdir_path);
            fflush(stdout);
            _exit(0);
        }
        int st = 0;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
        char tmp[256];
        snprintf(tmp, sizeof tmp, "rm -rf /tmp/getile-test-%ld", (long)pid);
        if (system(tmp) != 0) {
        }
        if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
            printf("PASS %s (%.0f ms)\n", tests[i].name, ms);
            passed++;
        } else if (WIFEXITED(st) && WEXITSTATUS(st) == TEST_SKIP_CODE) {
            printf("SKIP %s\n", tests[i].name);
            skipped++;
        } else {
            if (WIFSIGNALED(st))
                printf("FAIL %s (signal %d%s)\n", tests[i].name, WTERMSIG(st),
                       WTERMSIG(st) == SIGALRM ? ": timeout" : "");
            else
                printf("FAIL %s (exit %d)\n", tests[i].name, WEXITSTATUS(st));
            failed++;
        }
    }
    if (skipped)
        printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    else
        printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
