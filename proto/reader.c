/* The stream reader: a msgpack_unpacker whose input is scanned, header by
 * header, before msgpack-c parses it.
 *
 * Why scan: msgpack-c allocates a container's elements when its header
 * arrives (24 bytes per value; a 5-byte array32 header may ask for 96 GiB)
 * and parses a message as its bytes trickle in. The scanner walks the
 * message's headers as bytes arrive (resuming where it stopped, so each
 * byte is looked at once), checks the size cap, the value count and the
 * nesting, and lets msgpack-c unpack a message only when it is complete.
 * msgpack-c then allocates at most 24 bytes per value of a message that is
 * within every limit. */
#include "proto.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void scan_reset(struct proto_reader *r)
{
    r->scanned = 0;
    r->skip = 0;
    r->values = 0;
    r->depth = 0;
    r->left[0] = 1;
    r->complete = false;
}

int proto_reader_init(struct proto_reader *r, size_t max_message)
{
    memset(r, 0, sizeof *r);
    r->max_message = max_message ? max_message : GT_PROTO_MAX_MESSAGE;
    if (!msgpack_unpacker_init(&r->up, MSGPACK_UNPACKER_INIT_BUFFER_SIZE)) return GT_ENOMEM;
    scan_reset(r);
    return 0;
}

void proto_reader_free(struct proto_reader *r)
{
    msgpack_unpacker_destroy(&r->up);
    memset(r, 0, sizeof *r);
}

int proto_reader_buffer(struct proto_reader *r, size_t want, char **buf, size_t *cap)
{
    if (!msgpack_unpacker_reserve_buffer(&r->up, want ? want : 1)) return GT_ENOMEM;
    *buf = msgpack_unpacker_buffer(&r->up);
    *cap = msgpack_unpacker_buffer_capacity(&r->up);
    return 0;
}

void proto_reader_consumed(struct proto_reader *r, size_t n)
{
    msgpack_unpacker_buffer_consumed(&r->up, n);
}

int proto_feed(struct proto_reader *r, const void *data, size_t len)
{
    char *buf;
    size_t cap;
    if (len == 0) return 0;
    int rc = proto_reader_buffer(r, len, &buf, &cap);
    if (rc < 0) return rc;
    memcpy(buf, data, len);
    proto_reader_consumed(r, len);
    return 0;
}

/* Records a stream error (sticky) and copies it to d. */
static int stream_fail(struct proto_reader *r, struct gt_diag *d, int code, enum proto_code pc, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int stream_fail(struct proto_reader *r, struct gt_diag *d, int code, enum proto_code pc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->fail.msg, sizeof r->fail.msg, fmt, ap);
    va_end(ap);
    r->fail.code = code;
    r->code = pc;
    return gt_fail(d, code, "%s", r->fail.msg);
}

/* The message-size error. */
static int too_big(struct proto_reader *r, struct gt_diag *d, uint64_t at_least)
{
    return stream_fail(r, d, GT_ETOO_BIG, PROTO_E_TOO_LARGE,
                       "message of at least %llu bytes is over the cap of %llu bytes",
                       (unsigned long long)at_least, (unsigned long long)r->max_message);
}

/* The value-count error. */
static int too_many(struct proto_reader *r, struct gt_diag *d)
{
    return stream_fail(r, d, GT_ETOO_BIG, PROTO_E_TOO_LARGE, "message holds more than %u msgpack values",
                       GT_PROTO_MAX_OBJECTS);
}

static uint64_t be(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v = v << 8 | p[i];
    return v;
}

/* The shape of the value whose header starts with b: header bytes (*hdr,
 * with *lenbytes of big-endian length or count after the type byte),
 * whether the length counts payload bytes or contained values. False for
 * 0xc1, which msgpack never uses. */
enum shape { SCALAR, PAYLOAD, ARRAY, MAP };

static bool classify(uint8_t b, size_t *hdr, int *lenbytes, enum shape *s, uint64_t *fixed)
{
    *lenbytes = 0;
    *fixed = 0;
    *hdr = 1;
    *s = SCALAR;
    if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3) return true;
    if (b <= 0x8f) { *s = MAP; *fixed = b & 0x0f; return true; }
    if (b <= 0x9f) { *s = ARRAY; *fixed = b & 0x0f; return true; }
    if (b <= 0xbf) { *s = PAYLOAD; *fixed = b & 0x1f; return true; }
    switch (b) {
    case 0xc4: case 0xd9: *s = PAYLOAD; *lenbytes = 1; break;          /* bin8, str8 */
    case 0xc5: case 0xda: *s = PAYLOAD; *lenbytes = 2; break;          /* bin16, str16 */
    case 0xc6: case 0xdb: *s = PAYLOAD; *lenbytes = 4; break;          /* bin32, str32 */
    case 0xc7: *s = PAYLOAD; *lenbytes = 1; *fixed = 1; break;   /* ext8: the type byte counts as payload */
    case 0xc8: *s = PAYLOAD; *lenbytes = 2; *fixed = 1; break;         /* ext16 */
    case 0xc9: *s = PAYLOAD; *lenbytes = 4; *fixed = 1; break;         /* ext32 */
    case 0xca: *hdr = 5; break;                                        /* float32 */
    case 0xcb: *hdr = 9; break;                                        /* float64 */
    case 0xcc: case 0xd0: *hdr = 2; break;                             /* (u)int8 */
    case 0xcd: case 0xd1: *hdr = 3; break;
    case 0xce: case 0xd2: *hdr = 5; break;
    case 0xcf: case 0xd3: *hdr = 9; break;
    case 0xd4: *hdr = 3; break;                                        /* fixext1..16: type + data */
    case 0xd5: *hdr = 4; break;
    case 0xd6: *hdr = 6; break;
    case 0xd7: *hdr = 10; break;
    case 0xd8: *hdr = 18; break;
    case 0xdc: *s = ARRAY; *lenbytes = 2; break;
    case 0xdd: *s = ARRAY; *lenbytes = 4; break;
    case 0xde: *s = MAP; *lenbytes = 2; break;
    case 0xdf: *s = MAP; *lenbytes = 4; break;
    default: return false;                                             /* 0xc1 */
    }
    *hdr += (size_t)*lenbytes;
    return true;
}

/* Scans the buffered bytes of the current message from where the last scan
 * stopped: 0 (r->complete says whether it is whole) or a stream error. */
static int scan(struct proto_reader *r, struct gt_diag *d)
{
    const uint8_t *p = (const uint8_t *)r->up.buffer + r->up.off;
    size_t avail = r->up.used - r->up.off;
    const size_t max = r->max_message;
    while (!r->complete) {
        if (r->skip) {
            size_t n = avail - r->scanned;
            if (n > r->skip) n = (size_t)r->skip;
            r->scanned += n;
            r->skip -= n;
            if (r->skip) return 0;
        }
        if (r->depth == 0 && r->left[0] == 0) {
            r->complete = true;
            break;
        }
        size_t have = avail - r->scanned;
        if (have == 0) return 0;
        const uint8_t *h = p + r->scanned;
        size_t hdr;
        int lenbytes;
        enum shape s;
        uint64_t n;
        if (!classify(h[0], &hdr, &lenbytes, &s, &n))
            return stream_fail(r, d, GT_ECORRUPT, PROTO_E_BAD_REQUEST,
                               "not msgpack: byte 0x%02x at offset %zu of a message", h[0], r->scanned);
        if (have < hdr) return 0;
        n += be(h + 1, lenbytes);
        r->scanned += hdr;
        r->left[r->depth]--;
        if (++r->values > GT_PROTO_MAX_OBJECTS) return too_many(r, d);
        if (r->scanned > max) return too_big(r, d, r->scanned);
        if (s == PAYLOAD) {
            if (n > max - r->scanned) return too_big(r, d, r->scanned + n);
            r->skip = n;
        } else if (s == ARRAY || s == MAP) {
            uint64_t count = s == MAP ? 2 * n : n; /* every value takes at least one byte */
            if (count > max - r->scanned) return too_big(r, d, r->scanned + count);
            if (count > GT_PROTO_MAX_OBJECTS - r->values) return too_many(r, d);
            if (count) {
                if (r->depth == GT_PROTO_MAX_DEPTH)
                    return stream_fail(r, d, GT_ECORRUPT, PROTO_E_BAD_REQUEST,
                                       "arrays and maps nested more than %d deep", GT_PROTO_MAX_DEPTH);
                r->left[++r->depth] = count;
            }
        }
        while (r->depth > 0 && r->left[r->depth] == 0) r->depth--;
    }
    return 0;
}

int proto_next(struct proto_reader *r, msgpack_unpacked *out, struct gt_diag *d)
{
    if (r->fail.code < 0) return gt_fail(d, r->fail.code, "%s", r->fail.msg);
    int rc = scan(r, d);
    if (rc < 0) return rc;
    if (!r->complete) {
        /* everything buffered belongs to this message, and scan checked it */
        if (msgpack_unpacker_message_size(&r->up) > r->max_message)
            return too_big(r, d, msgpack_unpacker_message_size(&r->up));
        return 0;
    }
    size_t size = r->scanned;
    msgpack_unpack_return ret = msgpack_unpacker_next(&r->up, out);
    if (ret == MSGPACK_UNPACK_SUCCESS) {
        scan_reset(r);
        return 1;
    }
    if (ret == MSGPACK_UNPACK_NOMEM_ERROR)
        return stream_fail(r, d, GT_ENOMEM, PROTO_E_INTERNAL, "out of memory unpacking a message of %zu bytes", size);
    return stream_fail(r, d, GT_ECORRUPT, PROTO_E_BAD_REQUEST, "msgpack-c refused a message of %zu bytes (%d)", size,
                       (int)ret);
}
