/* Decoding requests and responses from msgpack objects (PROTOCOL.md).
 *
 * Every key is looked up by name in its map; a map whose keys are not all
 * strings, or that holds a known key twice, is refused. Messages name the
 * key by its path ("memory[2].addr") and say what was expected. */
#include "proto.h"

#include <stdio.h>
#include <string.h>

/* A key path for messages: "a.b[2].c". */
struct path {
    char s[96];
};

static const char *type_name(msgpack_object_type t)
{
    switch (t) {
    case MSGPACK_OBJECT_NIL: return "nil";
    case MSGPACK_OBJECT_BOOLEAN: return "a boolean";
    case MSGPACK_OBJECT_POSITIVE_INTEGER: return "an unsigned integer";
    case MSGPACK_OBJECT_NEGATIVE_INTEGER: return "a negative integer";
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64: return "a float";
    case MSGPACK_OBJECT_STR: return "a string";
    case MSGPACK_OBJECT_ARRAY: return "an array";
    case MSGPACK_OBJECT_MAP: return "a map";
    case MSGPACK_OBJECT_BIN: return "binary";
    case MSGPACK_OBJECT_EXT: return "an extension";
    }
    return "an unknown type";
}

/* Appends n bytes of t to p (cut at its size). */
static void path_add(struct path *p, const char *t, size_t n)
{
    size_t l = strlen(p->s);
    if (n > sizeof p->s - 1 - l) n = sizeof p->s - 1 - l;
    memcpy(p->s + l, t, n);
    p->s[l + n] = 0;
}

/* parent + "." + key (parent empty: key). */
static struct path sub(const struct path *parent, const char *key)
{
    struct path p = {""};
    if (parent && parent->s[0]) {
        p = *parent;
        path_add(&p, ".", 1);
    }
    path_add(&p, key, strlen(key));
    return p;
}

/* parent + "[i]". */
static struct path elem(const struct path *parent, uint32_t i)
{
    struct path p = *parent;
    char num[16];
    int n = snprintf(num, sizeof num, "[%u]", i);
    path_add(&p, num, n > 0 ? (size_t)n : 0);
    return p;
}

/* Up to 32 bytes of an untrusted string for a message: printable ASCII as
 * is, other bytes as \xNN, "..." when cut. Returns out. */
static const char *shown(char out[140], const char *p, uint32_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    for (uint32_t i = 0; i < n && i < 32; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
            out[o++] = (char)c;
        } else {
            out[o++] = '\\';
            out[o++] = 'x';
            out[o++] = hex[c >> 4];
            out[o++] = hex[c & 15];
        }
    }
    if (n > 32) out[o++] = '.', out[o++] = '.', out[o++] = '.';
    out[o] = 0;
    return out;
}

static int wrong_type(struct gt_diag *d, const struct path *p, const char *want, const msgpack_object *o)
{
    return gt_fail(d, GT_ECORRUPT, "\"%s\": expected %s, got %s", p->s, want, type_name(o->type));
}

/* A map whose keys are all strings. */
static int check_map(const msgpack_object *o, const struct path *p, struct gt_diag *d)
{
    if (o->type != MSGPACK_OBJECT_MAP) {
        if (!p->s[0]) return gt_fail(d, GT_ECORRUPT, "message: expected a map, got %s", type_name(o->type));
        return wrong_type(d, p, "a map", o);
    }
    for (uint32_t i = 0; i < o->via.map.size; i++)
        if (o->via.map.ptr[i].key.type != MSGPACK_OBJECT_STR)
            return gt_fail(d, GT_ECORRUPT, "%s%smap key %u: expected a string, got %s", p->s, p->s[0] ? ": " : "",
                           i, type_name(o->via.map.ptr[i].key.type));
    return 0;
}

/* The value of key in the map m (checked by check_map): *out NULL when
 * absent. A key present twice is an error. */
static int lookup(const msgpack_object *m, const char *key, const struct path *p, const msgpack_object **out,
                  struct gt_diag *d)
{
    size_t n = strlen(key);
    *out = NULL;
    for (uint32_t i = 0; i < m->via.map.size; i++) {
        const msgpack_object_str *k = &m->via.map.ptr[i].key.via.str;
        if (k->size != n || memcmp(k->ptr, key, n) != 0) continue;
        if (*out) return gt_fail(d, GT_ECORRUPT, "\"%s\": key appears twice", sub(p, key).s);
        *out = &m->via.map.ptr[i].val;
    }
    return 0;
}

/* A required value: *out set, or an error naming the key. */
static int need(const msgpack_object *m, const char *key, const struct path *p, const msgpack_object **out,
                struct gt_diag *d)
{
    int rc = lookup(m, key, p, out, d);
    if (rc < 0) return rc;
    if (!*out) return gt_fail(d, GT_ECORRUPT, "\"%s\": missing", sub(p, key).s);
    return 0;
}

/* An unsigned integer up to max. */
static int as_uint(const msgpack_object *o, const struct path *p, uint64_t max, uint64_t *out, struct gt_diag *d)
{
    if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER) return wrong_type(d, p, "an unsigned integer", o);
    if (o->via.u64 > max)
        return gt_fail(d, GT_ECORRUPT, "\"%s\": %llu is over %llu", p->s, (unsigned long long)o->via.u64,
                       (unsigned long long)max);
    *out = o->via.u64;
    return 0;
}

/* key as an unsigned integer up to max; absent: *out unchanged, or an error when required. */
static int get_uint(const msgpack_object *m, const char *key, const struct path *p, bool required, uint64_t max,
                    uint64_t *out, struct gt_diag *d)
{
    const msgpack_object *v;
    int rc = required ? need(m, key, p, &v, d) : lookup(m, key, p, &v, d);
    if (rc < 0 || !v) return rc;
    struct path kp = sub(p, key);
    return as_uint(v, &kp, max, out, d);
}

static int get_u32(const msgpack_object *m, const char *key, const struct path *p, bool required, uint32_t *out,
                   struct gt_diag *d)
{
    uint64_t v = *out;
    int rc = get_uint(m, key, p, required, UINT32_MAX, &v, d);
    *out = (uint32_t)v;
    return rc;
}

/* key as bytes: a bin (a str too when allow_str); *present says whether it was there. */
static int get_bytes(const msgpack_object *m, const char *key, const struct path *p, bool required, bool allow_str,
                     struct proto_bytes *out, bool *present, struct gt_diag *d)
{
    const msgpack_object *v;
    int rc = required ? need(m, key, p, &v, d) : lookup(m, key, p, &v, d);
    if (present) *present = v != NULL;
    if (rc < 0 || !v) return rc;
    if (v->type == MSGPACK_OBJECT_BIN || (allow_str && v->type == MSGPACK_OBJECT_STR)) {
        *out = (struct proto_bytes){(const uint8_t *)v->via.bin.ptr, v->via.bin.size};
        return 0;
    }
    struct path kp = sub(p, key);
    return wrong_type(d, &kp, allow_str ? "a string or binary" : "binary", v);
}

/* key as a string (required). */
static int get_str(const msgpack_object *m, const char *key, const struct path *p, struct proto_bytes *out,
                   struct gt_diag *d)
{
    const msgpack_object *v;
    int rc = need(m, key, p, &v, d);
    if (rc < 0) return rc;
    if (v->type != MSGPACK_OBJECT_STR) {
        struct path kp = sub(p, key);
        return wrong_type(d, &kp, "a string", v);
    }
    *out = (struct proto_bytes){(const uint8_t *)v->via.str.ptr, v->via.str.size};
    return 0;
}

/* key as a boolean; absent: *out unchanged, or an error when required. */
static int get_bool(const msgpack_object *m, const char *key, const struct path *p, bool required, bool *out,
                    struct gt_diag *d)
{
    const msgpack_object *v;
    int rc = required ? need(m, key, p, &v, d) : lookup(m, key, p, &v, d);
    if (rc < 0 || !v) return rc;
    if (v->type != MSGPACK_OBJECT_BOOLEAN) {
        struct path kp = sub(p, key);
        return wrong_type(d, &kp, "a boolean", v);
    }
    *out = v->via.boolean;
    return 0;
}

/* key as an array of at most max elements (*out NULL when absent and optional). */
static int get_array(const msgpack_object *m, const char *key, const struct path *p, bool required, uint32_t max,
                     const msgpack_object_array **out, struct gt_diag *d)
{
    const msgpack_object *v;
    int rc = required ? need(m, key, p, &v, d) : lookup(m, key, p, &v, d);
    *out = NULL;
    if (rc < 0 || !v) return rc;
    struct path kp = sub(p, key);
    if (v->type != MSGPACK_OBJECT_ARRAY) return wrong_type(d, &kp, "an array", v);
    if (v->via.array.size > max)
        return gt_fail(d, GT_ETOO_BIG, "\"%s\": %u elements, at most %u", kp.s, v->via.array.size, max);
    *out = &v->via.array;
    return 0;
}

/* key as a map (checked; *out NULL when absent and optional). */
static int get_map(const msgpack_object *m, const char *key, const struct path *p, bool required,
                   const msgpack_object **out, struct path *kp, struct gt_diag *d)
{
    int rc = required ? need(m, key, p, out, d) : lookup(m, key, p, out, d);
    if (rc < 0 || !*out) return rc;
    *kp = sub(p, key);
    return check_map(*out, kp, d);
}

/* An address and a byte count that do not wrap past 2^32. */
static int check_span(const struct path *p, uint32_t addr, uint32_t len, struct gt_diag *d)
{
    if ((uint64_t)addr + len > (uint64_t)UINT32_MAX + 1)
        return gt_fail(d, GT_ECORRUPT, "\"%s\": 0x%08x + %u bytes wraps past the end of the address space", p->s,
                       addr, len);
    return 0;
}

/* A {"addr": uint, "data": bin} map. */
static int decode_block(const msgpack_object *o, const struct path *p, struct proto_block *b, struct gt_diag *d)
{
    int rc = check_map(o, p, d);
    if (rc < 0 || (rc = get_u32(o, "addr", p, true, &b->addr, d)) < 0 ||
        (rc = get_bytes(o, "data", p, true, false, &b->data, NULL, d)) < 0)
        return rc;
    return check_span(p, b->addr, b->data.len, d);
}

/* The keys of a render_list request. */
static int decode_list(const msgpack_object *o, struct proto_request *rq, struct gt_diag *d)
{
    const struct path top = {""};
    const msgpack_object_array *a;
    const msgpack_object *m;
    struct path p;
    int rc;
    if ((rc = get_array(o, "memory", &top, true, GT_PROTO_MAX_BLOCKS, &a, d)) < 0) return rc;
    struct path mp = sub(&top, "memory");
    for (uint32_t i = 0; i < a->size; i++) {
        struct path ep = elem(&mp, i);
        if ((rc = decode_block(&a->ptr[i], &ep, &rq->blocks[i], d)) < 0) return rc;
    }
    rq->nblocks = a->size;
    if ((rc = get_u32(o, "pc", &top, true, &rq->pc, d)) < 0 || (rc = get_u32(o, "stall", &top, false, &rq->stall, d)) < 0)
        return rc;
    if ((rc = get_array(o, "regs", &top, false, GT_PROTO_MAX_REGS, &a, d)) < 0) return rc;
    if (a) {
        struct path rp = sub(&top, "regs");
        for (uint32_t i = 0; i < a->size; i++) {
            struct path ep = elem(&rp, i);
            uint64_t v;
            if ((rc = as_uint(&a->ptr[i], &ep, UINT32_MAX, &v, d)) < 0) return rc;
            rq->regs[i] = (uint32_t)v;
        }
        rq->nregs = a->size;
    }
    if ((rc = get_map(o, "display", &top, false, &m, &p, d)) < 0) return rc;
    if (m) {
        uint64_t stride, format;
        if ((rc = get_u32(m, "addr", &p, true, &rq->display.addr, d)) < 0 ||
            (rc = get_uint(m, "stride", &p, true, GT_PROTO_MAX_STRIDE, &stride, d)) < 0 ||
            (rc = get_uint(m, "format", &p, true, 3, &format, d)) < 0)
            return rc;
        rq->display.stride = (uint32_t)stride;
        rq->display.format = (uint32_t)format;
        rq->has_display = true;
    }
    return 0;
}

/* One "outputs" name as its PROTO_OUT_* bit (0: unknown). */
static unsigned output_bit(const msgpack_object_str *s)
{
    struct proto_bytes b = {(const uint8_t *)s->ptr, s->size};
#define X(name, bit, str) if (proto_bytes_is(b, str)) return PROTO_OUT_##name;
    PROTO_OUTPUT_MAP(X)
#undef X
    return 0;
}

/* The options of both render ops. */
static int decode_options(const msgpack_object *o, struct proto_request *rq, struct gt_diag *d)
{
    const struct path top = {""};
    const msgpack_object_array *a;
    uint64_t v;
    int rc;
    if ((rc = get_array(o, "outputs", &top, false, GT_PROTO_MAX_OUTPUTS, &a, d)) < 0) return rc;
    if (a) {
        struct path op = sub(&top, "outputs");
        rq->outputs = 0;
        for (uint32_t i = 0; i < a->size; i++) {
            struct path ep = elem(&op, i);
            if (a->ptr[i].type != MSGPACK_OBJECT_STR) return wrong_type(d, &ep, "a string", &a->ptr[i]);
            unsigned bit = output_bit(&a->ptr[i].via.str);
            char name[140];
            if (!bit)
                return gt_fail(d, GT_ECORRUPT, "\"%s\": unknown output \"%s\" (png, rgba, depth, vram)", ep.s,
                               shown(name, a->ptr[i].via.str.ptr, a->ptr[i].via.str.size));
            rq->outputs |= bit;
        }
    }
    if ((rc = get_array(o, "vram_ranges", &top, false, GT_PROTO_MAX_VRAM_RANGES, &a, d)) < 0) return rc;
    if (a) {
        struct path vp = sub(&top, "vram_ranges");
        for (uint32_t i = 0; i < a->size; i++) {
            struct path ep = elem(&vp, i);
            const msgpack_object *e = &a->ptr[i];
            if (e->type != MSGPACK_OBJECT_ARRAY) return wrong_type(d, &ep, "an [addr, len] array", e);
            if (e->via.array.size != 2)
                return gt_fail(d, GT_ECORRUPT, "\"%s\": expected [addr, len], got %u elements", ep.s,
                               e->via.array.size);
            uint64_t addr, len;
            struct path ap = elem(&ep, 0), lp = elem(&ep, 1);
            if ((rc = as_uint(&e->via.array.ptr[0], &ap, UINT32_MAX, &addr, d)) < 0 ||
                (rc = as_uint(&e->via.array.ptr[1], &lp, GT_VRAM_SIZE, &len, d)) < 0)
                return rc;
            if (addr < GT_VRAM_BASE || len == 0 || addr + len > (uint64_t)GT_VRAM_BASE + GT_VRAM_SIZE)
                return gt_fail(d, GT_ECORRUPT, "\"%s\": [0x%08llx, %llu] is not a non-empty range inside VRAM "
                               "(0x%08x..0x%08x)", ep.s, (unsigned long long)addr, (unsigned long long)len,
                               GT_VRAM_BASE, GT_VRAM_BASE + GT_VRAM_SIZE - 1);
            rq->ranges[i] = (struct proto_range){(uint32_t)addr, (uint32_t)len};
        }
        rq->nranges = a->size;
    }
    if ((rc = get_uint(o, "replay_end", &top, false, UINT64_MAX, &rq->replay_end, d)) < 0) return rc;
    v = 0;
    if ((rc = get_uint(o, "threads", &top, false, GT_MAX_THREADS, &v, d)) < 0) return rc;
    rq->threads = (uint32_t)v;
    v = 0;
    if ((rc = get_uint(o, "tile_size", &top, false, GT_TILE_SIZE_MAX, &v, d)) < 0) return rc;
    if (v != 0 && (v < GT_TILE_SIZE_MIN || (v & (v - 1)) != 0))
        return gt_fail(d, GT_ECORRUPT, "\"tile_size\": %llu is not 0 or a power of two in %u..%u",
                       (unsigned long long)v, GT_TILE_SIZE_MIN, GT_TILE_SIZE_MAX);
    rq->tile_size = (uint32_t)v;
    return 0;
}

/* "v" of a message: GT_EVERSION unless PROTO_VERSION. */
static int check_version(const msgpack_object *o, struct gt_diag *d)
{
    const struct path top = {""};
    uint64_t v;
    int rc = get_uint(o, "v", &top, true, UINT64_MAX, &v, d);
    if (rc < 0) return rc;
    if (v != PROTO_VERSION)
        return gt_fail(d, GT_EVERSION, "\"v\": protocol version %llu is not supported (this side speaks %d)",
                       (unsigned long long)v, PROTO_VERSION);
    return 0;
}

static int decode_request(const msgpack_object *o, struct proto_request *rq, struct gt_diag *d)
{
    const struct path top = {""};
    struct proto_bytes op;
    int rc;
    if ((rc = check_map(o, &top, d)) < 0 || (rc = get_uint(o, "id", &top, true, UINT64_MAX, &rq->id, d)) < 0)
        return rc;
    rq->has_id = true;
    if ((rc = check_version(o, d)) < 0) {
        rq->code = rc == GT_EVERSION ? PROTO_E_BAD_VERSION : PROTO_E_BAD_REQUEST;
        return rc;
    }
    if ((rc = get_str(o, "op", &top, &op, d)) < 0) return rc;
#define X(name, str) if (proto_bytes_is(op, str)) rq->op = PROTO_OP_##name;
    PROTO_OP_MAP(X)
#undef X
    if (rq->op == PROTO_OP_NONE) {
        rq->code = PROTO_E_UNKNOWN_OP;
        char name[140];
        return gt_fail(d, GT_EUNSUPPORTED, "\"op\": unknown op \"%s\" (render_dump, render_list, ping, stats)",
                       shown(name, (const char *)op.ptr, op.len));
    }
    if ((rc = get_bytes(o, "token", &top, false, true, &rq->token, &rq->has_token, d)) < 0) return rc;
    if (rq->has_token && rq->token.len > GT_PROTO_MAX_TOKEN)
        return gt_fail(d, GT_ETOO_BIG, "\"token\": %u bytes, at most %u", rq->token.len, GT_PROTO_MAX_TOKEN);
    if (rq->op == PROTO_OP_RENDER_DUMP) {
        if ((rc = get_bytes(o, "dump", &top, true, false, &rq->dump, NULL, d)) < 0) return rc;
    } else if (rq->op == PROTO_OP_RENDER_LIST) {
        if ((rc = decode_list(o, rq, d)) < 0) return rc;
    }
    if (rq->op == PROTO_OP_RENDER_DUMP || rq->op == PROTO_OP_RENDER_LIST) return decode_options(o, rq, d);
    return 0;
}

int proto_decode_request(const msgpack_object *o, struct proto_request *rq, struct gt_diag *d)
{
    proto_request_init(rq, PROTO_OP_NONE, 0);
    int rc = decode_request(o, rq, d);
    if (rc < 0) {
        uint64_t id = rq->id;
        bool has_id = rq->has_id;
        enum proto_code code = rq->code ? rq->code : PROTO_E_BAD_REQUEST;
        memset(rq, 0, sizeof *rq);
        rq->id = has_id ? id : 0;
        rq->has_id = has_id;
        rq->code = code;
        return rc;
    }
    rq->code = PROTO_CODE_NONE;
    return 0;
}

/* --- Responses --- */

static int decode_outputs(const msgpack_object *m, const struct path *p, struct proto_response *rs,
                          struct gt_diag *d)
{
    bool has;
    int rc;
    const msgpack_object_array *a;
#define OUT_BYTES(field, bit)                                                                                   \
    if ((rc = get_bytes(m, #field, p, false, false, &rs->field, &has, d)) < 0) return rc;                      \
    if (has) rs->outputs |= bit;
    OUT_BYTES(png, PROTO_OUT_PNG)
    OUT_BYTES(rgba, PROTO_OUT_RGBA)
    OUT_BYTES(depth, PROTO_OUT_DEPTH)
#undef OUT_BYTES
    if ((rs->outputs & PROTO_OUT_RGBA) && rs->rgba.len != PROTO_RGBA_BYTES)
        return gt_fail(d, GT_ECORRUPT, "\"%s\": %u bytes, expected %u", sub(p, "rgba").s, rs->rgba.len,
                       PROTO_RGBA_BYTES);
    if ((rs->outputs & PROTO_OUT_DEPTH) && rs->depth.len != PROTO_DEPTH_BYTES)
        return gt_fail(d, GT_ECORRUPT, "\"%s\": %u bytes, expected %u", sub(p, "depth").s, rs->depth.len,
                       PROTO_DEPTH_BYTES);
    if ((rc = get_array(m, "vram", p, false, GT_PROTO_MAX_VRAM_RANGES, &a, d)) < 0) return rc;
    if (a) {
        struct path vp = sub(p, "vram");
        for (uint32_t i = 0; i < a->size; i++) {
            struct path ep = elem(&vp, i);
            if ((rc = decode_block(&a->ptr[i], &ep, &rs->vram[i], d)) < 0) return rc;
        }
        rs->nvram = a->size;
        rs->outputs |= PROTO_OUT_VRAM;
    }
    return 0;
}

static int decode_stats(const msgpack_object *m, const struct path *p, struct proto_stats *st, struct gt_diag *d)
{
    const msgpack_object *v, *f;
    struct path fp;
    int rc;
    if ((rc = get_uint(m, "draws", p, true, UINT64_MAX, &st->draws, d)) < 0 ||
        (rc = get_uint(m, "prims", p, true, UINT64_MAX, &st->prims, d)) < 0 ||
        (rc = get_uint(m, "pixels", p, true, UINT64_MAX, &st->pixels, d)) < 0 || (rc = need(m, "ms", p, &v, d)) < 0)
        return rc;
    if (v->type != MSGPACK_OBJECT_FLOAT64 && v->type != MSGPACK_OBJECT_FLOAT32) {
        struct path kp = sub(p, "ms");
        return wrong_type(d, &kp, "a float", v);
    }
    st->ms = v->via.f64;
    if ((rc = get_map(m, "flushes", p, true, &f, &fp, d)) < 0) return rc;
    for (int r = 0; r < BIN_FLUSH_COUNT; r++)
        if ((rc = get_uint(f, binner_flush_name((enum bin_flush_reason)r), &fp, false, UINT64_MAX, &st->flushes[r],
                           d)) < 0)
            return rc;
    for (uint32_t i = 0; i < f->via.map.size; i++) /* values of reasons this side does not know */
        if (f->via.map.ptr[i].val.type != MSGPACK_OBJECT_POSITIVE_INTEGER) {
            const msgpack_object_str *k = &f->via.map.ptr[i].key.via.str;
            char key[140];
            struct path kp = sub(&fp, shown(key, k->ptr, k->size));
            return wrong_type(d, &kp, "an unsigned integer", &f->via.map.ptr[i].val);
        }
    return 0;
}

static int decode_response(const msgpack_object *o, struct proto_response *rs, struct gt_diag *d)
{
    const struct path top = {""};
    const msgpack_object *m;
    struct path p;
    int rc;
    if ((rc = check_map(o, &top, d)) < 0 || (rc = get_uint(o, "id", &top, true, UINT64_MAX, &rs->id, d)) < 0 ||
        (rc = check_version(o, d)) < 0 || (rc = get_bool(o, "ok", &top, true, &rs->ok, d)) < 0)
        return rc;
    if (!rs->ok) {
        if ((rc = get_map(o, "error", &top, true, &m, &p, d)) < 0 || (rc = get_str(m, "code", &p, &rs->error_code, d)) < 0)
            return rc;
        return get_str(m, "message", &p, &rs->error_message, d);
    }
    if ((rc = get_bool(o, "pong", &top, false, &rs->pong, d)) < 0) return rc;
    if ((rc = get_map(o, "server", &top, false, &m, &p, d)) < 0) return rc;
    if (m) {
        struct proto_server_stats *s = &rs->server;
        if ((rc = get_uint(m, "accepted", &p, true, UINT64_MAX, &s->accepted, d)) < 0 ||
            (rc = get_uint(m, "completed", &p, true, UINT64_MAX, &s->completed, d)) < 0 ||
            (rc = get_uint(m, "failed", &p, true, UINT64_MAX, &s->failed, d)) < 0 ||
            (rc = get_uint(m, "in_flight", &p, true, UINT64_MAX, &s->in_flight, d)) < 0 ||
            (rc = get_uint(m, "connections", &p, true, UINT64_MAX, &s->connections, d)) < 0)
            return rc;
        rs->has_server = true;
    }
    if ((rc = get_map(o, "outputs", &top, false, &m, &p, d)) < 0) return rc;
    if (m) {
        if ((rc = decode_outputs(m, &p, rs, d)) < 0) return rc;
        rs->has_outputs = true;
    }
    if ((rc = get_map(o, "stats", &top, false, &m, &p, d)) < 0) return rc;
    if (m) {
        if ((rc = decode_stats(m, &p, &rs->stats, d)) < 0) return rc;
        rs->has_stats = true;
    }
    return 0;
}

int proto_decode_response(const msgpack_object *o, struct proto_response *rs, struct gt_diag *d)
{
    memset(rs, 0, sizeof *rs);
    int rc = decode_response(o, rs, d);
    if (rc < 0) memset(rs, 0, sizeof *rs);
    return rc;
}
