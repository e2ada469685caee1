/* Error names and messages generated from GT_ERR_MAP. */
#include "gt_error.h"

#include <stdarg.h>
#include <stdio.h>

const char *gt_err_name(int code)
{
    switch (code) {
    case GT_OK: return "OK";
#define GT_ERR_NAME(name, val, msg) case val: return #name;
        GT_ERR_MAP(GT_ERR_NAME)
#undef GT_ERR_NAME
    }
    return "UNKNOWN";
}

const char *gt_strerror(int code)
{
    switch (code) {
    case GT_OK: return "success";
#define GT_ERR_MSG(name, val, msg) case val: return msg;
        GT_ERR_MAP(GT_ERR_MSG)
#undef GT_ERR_MSG
    }
    return "unknown error";
}

int gt_fail(struct gt_diag *d, int code, const char *fmt, ...)
{
    if (d) {
        va_list ap;
        va_start(ap, fmt);
        d->code = code;
        vsnprintf(d->msg, sizeof d->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

const char *gt_diag_msg(const struct gt_diag *d)
{
    if (!d) return "";
    return d->msg[0] ? d->msg : gt_strerror(d->code);
}
