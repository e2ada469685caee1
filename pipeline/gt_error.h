/* One error convention for all of getile: 0 is success, negative values are
 * errors. GT_ERR_MAP generates the enum, the stable names (used by the
 * protocol and the CLI) and the default messages.
 *
 * Functions that can fail take a `struct gt_diag *` (may be NULL) into which
 * they write a one-line message naming the problem, and return the code. */
#ifndef GETILE_GT_ERROR_H
#define GETILE_GT_ERROR_H

#include <stddef.h>

#define GT_ERR_MAP(X)                                                          \
    X(NOMEM, -1, "out of memory")                                              \
    X(IO, -2, "input/output error")                                            \
    X(ARG, -3, "invalid argument")                                             \
    X(FORMAT, -4, "not a recognised file format")                              \
    X(VERSION, -5, "unsupported dump version")                                 \
    X(TRUNCATED, -6, "input is truncated")                                     \
    X(CORRUPT, -7, "input is corrupt")                                         \
    X(TOO_BIG, -8, "input exceeds a size limit")                               \
    X(BAD_ADDRESS, -9, "address outside PSP memory")                           \
    X(STEP_LIMIT, -10, "display list step budget exhausted")                   \
    X(LIST_ERROR, -11, "display list error")                                   \
    X(UNSUPPORTED, -12, "unsupported feature")                                 \
    X(PNG, -13, "PNG encoding or decoding failed")                             \
    X(MISMATCH, -14, "images differ")

enum gt_err {
    GT_OK = 0,
#define GT_ERR_ENUM(name, val, msg) GT_E##name = (val),
    GT_ERR_MAP(GT_ERR_ENUM)
#undef GT_ERR_ENUM
};

/* Details of the last error: a message that names the problem. */
struct gt_diag {
    int code;
    char msg[512];
};

/* Stable upper-case name of an error code ("NOMEM", ...), "OK" for 0. */
const char *gt_err_name(int code);
/* Default human message of an error code. */
const char *gt_strerror(int code);
/* Records code and a printf-style message in d (if non-NULL); returns code. */
int gt_fail(struct gt_diag *d, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The message for d: its text, or the default message of its code. */
const char *gt_diag_msg(const struct gt_diag *d);

#endif
