/* getile's test harness: assertion macros and test registration.
 *
 * A test is `TEST(name) { ... }` in any tests/t_*.c file, registered with one
 * `T(name)` line in tests/list.h (or a list file it includes). The runner
 * (tests/run.c) runs every test in its own child process with a timeout.
 * Assertions print both values and are never compiled out. */
#ifndef GETILE_TEST_H
#define GETILE_TEST_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define TEST(name) void test_##name(void)

/* Exit code a test uses to say it was skipped (a reason is printed first). */
#define TEST_SKIP_CODE 77

void test_fail_(const char *file, int line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));
void test_skip(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) test_fail_(__FILE__, __LINE__, "CHECK(%s)", #cond);         \
    } while (0)

#define CHECK_MSG(cond, ...)                                                     \
    do {                                                                         \
        if (!(cond)) test_fail_(__FILE__, __LINE__, __VA_ARGS__);                \
    } while (0)

#define CHECK_EQ_I(a, b)                                                         \
    do {                                                                         \
        long long a_ = (long long)(a), b_ = (long long)(b);                      \
        if (a_ != b_)                                                            \
            test_fail_(__FILE__, __LINE__, "%s == %s: %lld != %lld", #a, #b, a_, b_); \
    } while (0)

#define CHECK_EQ_U(a, b)                                                         \
    do {                                                                         \
        unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
        if (a_ != b_)                                                            \
            test_fail_(__FILE__, __LINE__, "%s == %s: 0x%llx != 0x%llx", #a, #b, a_, b_); \
    } while (0)

#define CHECK_EQ_S(a, b)                                                         \
    do {                                                                         \
        const char *a_ = (a), *b_ = (b);                                         \
        if (!a_ || !b_ || strcmp(a_, b_) != 0)                                   \
            test_fail_(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", #a, #b, \
                       a_ ? a_ : "(null)", b_ ? b_ : "(null)");                  \
    } while (0)

/* True when needle occurs in hay, ignoring ASCII case (an empty needle always does). */
int test_contains_ci(const char *hay, const char *needle);
/* The first of ../shared/NAME, ../../shared/NAME and /work/shared/NAME that
 * is a directory (written into buf), or NULL. */
const char *test_shared_dir(const char *name, char *buf, size_t cap);
/* Path of the shared frame tests (../shared/frametests), or NULL when absent. */
const char *test_frametests_dir(void);
/* Path of the getile binary the CLI tests run (GETILE_BIN, default build/getile). */
const char *test_getile_bin(void);
/* Path of the getiled binary the server tests run (GETILED_BIN, default build/getiled). */
const char *test_getiled_bin(void);
/* A fresh scratch directory for this test (removed by the runner afterwards). */
const char *test_tmpdir(void);
/* Sleeps ms milliseconds (resumed after signals). */
void test_sleep_ms(int ms);
/* Runs a shell command, returns its exit status (or -1); output to the test log. */
int test_system(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Reads a text file into buf, NUL-terminated (at most cap - 1 bytes; an
 * absent file reads as empty). Returns the length. */
size_t test_read_text(const char *path, char *buf, size_t cap);
/* Runs test_getile_bin() with the arguments (shell-quoted where needed) and
 * returns its exit status; its output lands in test_out_text and
 * test_err_text (each cut at 64 KiB). */
int test_getile(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern char test_out_text[1 << 16], test_err_text[1 << 16];
/* Checks an exit status, showing both streams of the last run on failure. */
#define CHECK_RUN(st, want)                                                                            \
    CHECK_MSG((st) == (want), "exit status %d, expected %d\nstdout: %s\nstderr: %s", (st), (want), test_out_text, \
              test_err_text)

#endif
