/* The msgpack protocol (proto/, proto/PROTOCOL.md): round trips of every
 * request and response, hostile messages (wrong types, missing keys, bad
 * versions, unknown ops, values out of range, over the limits), unknown keys
 * ignored, and the stream reader fed one byte at a time, truncated, over
 * its size cap and with garbage.
 *
 * Hostile requests are packed by hand here (pack_list_request), never by
 * the encoder under test: a table names the key to break and how. */
#include <string.h>

#include "proto.h"
#include "test.h"

/* --- Helpers ------------------------------------------------------------ */

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    CHECK_MSG(p != NULL, "out of memory");
    return p;
}

/* One trusted message from a buffer (the tests' own bytes). */
static void unpack_one(const msgpack_sbuffer *sb, msgpack_unpacked *u)
{
    size_t off = 0;
    msgpack_unpacked_init(u);
    CHECK_EQ_I(msgpack_unpack_next(u, sb->data, sb->size, &off), MSGPACK_UNPACK_SUCCESS);
    CHECK_EQ_U(off, sb->size);
}

/* Encodes rq, decodes it back into *out and checks it is the same. */
static void request_round_trip(const struct proto_request *rq, struct proto_request *out, msgpack_sbuffer *sb,
                               msgpack_unpacked *u)
{
    msgpack_packer pk;
    struct gt_diag d = {0};
    msgpack_sbuffer_init(sb);
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    CHECK_EQ_I(proto_encode_request(&pk, rq), 0);
    unpack_one(sb, u);
    int rc = proto_decode_request(&u->data, out, &d);
    CHECK_MSG(rc == 0, "decode: %d %s", rc, d.msg);
    CHECK_EQ_I(out->code, PROTO_CODE_NONE);
    CHECK(proto_request_same(rq, out));
}

static void response_round_trip(const struct proto_response *rs, struct proto_response *out, msgpack_sbuffer *sb,
                                msgpack_unpacked *u)
{
    msgpack_packer pk;
    struct gt_diag d = {0};
    msgpack_sbuffer_init(sb);
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    CHECK_EQ_I(proto_encode_response(&pk, rs), 0);
    unpack_one(sb, u);
    int rc = proto_decode_response(&u->data, out, &d);
    CHECK_MSG(rc == 0, "decode: %d %s", rc, d.msg);
    CHECK(proto_response_same(rs, out));
}

static struct proto_bytes bytes_of(const void *p, size_t n)
{
    return (struct proto_bytes){(const uint8_t *)p, (uint32_t)n};
}

static struct proto_bytes cstr(const char *s)
{
    return bytes_of(s, strlen(s));
}

/* A render_list request using most fields. */
static void sample_list_request(struct proto_request *rq, const uint8_t *data, size_t n)
{
    proto_request_init(rq, PROTO_OP_RENDER_LIST, 0x1122334455667788ull);
    rq->has_token = true;
    rq->token = cstr("s3cret");
    rq->nblocks = 3;
    rq->blocks[0] = (struct proto_block){0x08800000, bytes_of(data, n)};
    rq->blocks[1] = (struct proto_block){0x04000000, bytes_of(data, 1)};
    rq->blocks[2] = (struct proto_block){0xFFFFFFF0u, bytes_of(data, 16)}; /* ends exactly at 2^32 */
    rq->pc = 0x08800000;
    rq->stall = 0x08800100;
    rq->nregs = 3;
    rq->regs[0] = 0x9C000000;
    rq->regs[1] = 0x9D000000;
    rq->regs[2] = 0xFFFFFFFFu;
    rq->has_display = true;
    rq->display = (struct proto_display){0x04088000, 512, 3};
    rq->outputs = PROTO_OUT_ALL;
    rq->nranges = 2;
    rq->ranges[0] = (struct proto_range){GT_VRAM_BASE, 16};
    rq->ranges[1] = (struct proto_range){GT_VRAM_BASE + GT_VRAM_SIZE - 4, 4};
    rq->replay_end = UINT64_MAX;
    rq->threads = GT_MAX_THREADS;
    rq->tile_size = 32;
}

/* --- Hand-packed hostile requests ----------------------------------------- */

enum mut_kind { MUT_NONE, MUT_WRONG, MUT_DROP };

/* How to break one key: path as the decoder names it ("memory[0].addr"). */
struct mut {
    const char *path;
    enum mut_kind kind;
    bool extra;   /* add unknown keys at every level */
};

static void pk_str(msgpack_packer *pk, const char *s)
{
    size_t n = strlen(s);
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, s, n);
}

static void pk_bin(msgpack_packer *pk, const void *p, size_t n)
{
    msgpack_pack_bin(pk, n);
    msgpack_pack_bin_body(pk, p, n);
}

/* A value of the wrong type for path: an integer where a string is
 * expected, a string everywhere else. */
static void pk_wrong(msgpack_packer *pk, const char *path)
{
    if (!strcmp(path, "op") || !strcmp(path, "token") || !strncmp(path, "outputs[", 8))
        msgpack_pack_uint32(pk, 7);
    else
        pk_str(pk, "oops");
}

/* Packs the key of path (its last component) and says whether the caller
 * packs the value: a broken key gets a wrong value or is renamed to an
 * unknown key with a nil value. */
static bool key(msgpack_packer *pk, const struct mut *m, const char *path, const char *name)
{
    if (!m->path || strcmp(m->path, path) != 0) {
        pk_str(pk, name);
        return true;
    }
    if (m->kind == MUT_DROP) {
        pk_str(pk, "dropped_key");
        msgpack_pack_nil(pk);
    } else {
        pk_str(pk, name);
        pk_wrong(pk, path);
    }
    return false;
}

/* The same for an array element: false when a wrong value was packed. */
static bool item(msgpack_packer *pk, const struct mut *m, const char *path)
{
    if (!m->path || strcmp(m->path, path) != 0 || m->kind != MUT_WRONG) return true;
    pk_wrong(pk, path);
    return false;
}

/* Unknown keys, including nested ones of types the decoder never expects. */
static void pk_extra(msgpack_packer *pk)
{
    pk_str(pk, "future_key");
    msgpack_pack_map(pk, 2);
    pk_str(pk, "a");
    msgpack_pack_array(pk, 2);
    msgpack_pack_nil(pk);
    msgpack_pack_double(pk, 1.5);
    pk_str(pk, "pc");
    msgpack_pack_int64(pk, -5);
    pk_str(pk, "x");
    msgpack_pack_ext(pk, 5, 1);
    msgpack_pack_ext_body(pk, "abcde", 5);
}

static const uint8_t blob[] = {1, 2, 3, 4, 5, 6, 7, 8};

/* The render_list request of sample-like values (see expect_list), broken as m says. */
static void pack_list_request(msgpack_sbuffer *sb, const struct mut *m)
{
    msgpack_packer pk;
    msgpack_sbuffer_init(sb);
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    int x = m->extra ? 2 : 0;
    msgpack_pack_map(&pk, 15 + x);
    if (m->extra) pk_extra(&pk);
    if (key(&pk, m, "v", "v")) msgpack_pack_uint32(&pk, 1);
    if (key(&pk, m, "id", "id")) msgpack_pack_uint64(&pk, 42);
    if (key(&pk, m, "op", "op")) pk_str(&pk, "render_list");
    if (key(&pk, m, "token", "token")) pk_bin(&pk, "tok", 3);
    if (key(&pk, m, "memory", "memory")) {
        msgpack_pack_array(&pk, 2);
        for (int i = 0; i < 2; i++) {
            char p[64];
            snprintf(p, sizeof p, "memory[%d]", i);
            if (!item(&pk, m, p)) continue;
            msgpack_pack_map(&pk, 2 + (m->extra ? 1 : 0));
            if (m->extra) {
                pk_str(&pk, "comment");
                pk_str(&pk, "ignored");
            }
            snprintf(p, sizeof p, "memory[%d].addr", i);
            if (key(&pk, m, p, "addr")) msgpack_pack_uint32(&pk, 0x08800000u + 0x100u * (unsigned)i);
            snprintf(p, sizeof p, "memory[%d].data", i);
            if (key(&pk, m, p, "data")) pk_bin(&pk, blob, sizeof blob);
        }
    }
    if (key(&pk, m, "pc", "pc")) msgpack_pack_uint32(&pk, 0x08800000);
    if (key(&pk, m, "stall", "stall")) msgpack_pack_uint32(&pk, 0);
    if (key(&pk, m, "regs", "regs")) {
        msgpack_pack_array(&pk, 2);
        if (item(&pk, m, "regs[0]")) msgpack_pack_uint32(&pk, 0x9C000000);
        if (item(&pk, m, "regs[1]")) msgpack_pack_uint32(&pk, 0x9D000000);
    }
    if (key(&pk, m, "display", "display")) {
        msgpack_pack_map(&pk, 3 + (m->extra ? 2 : 0));
        if (m->extra) pk_extra(&pk);
        if (key(&pk, m, "display.addr", "addr")) msgpack_pack_uint32(&pk, 0x04000000);
        if (key(&pk, m, "display.stride", "stride")) msgpack_pack_uint32(&pk, 512);
        if (key(&pk, m, "display.format", "format")) msgpack_pack_uint32(&pk, 3);
    }
    if (key(&pk, m, "outputs", "outputs")) {
        msgpack_pack_array(&pk, 2);
        if (item(&pk, m, "outputs[0]")) pk_str(&pk, "png");
        if (item(&pk, m, "outputs[1]")) pk_str(&pk, "vram");
    }
    if (key(&pk, m, "vram_ranges", "vram_ranges")) {
        msgpack_pack_array(&pk, 1);
        if (item(&pk, m, "vram_ranges[0]")) {
            msgpack_pack_array(&pk, 2);
            if (item(&pk, m, "vram_ranges[0][0]")) msgpack_pack_uint32(&pk, GT_VRAM_BASE + 64);
            if (item(&pk, m, "vram_ranges[0][1]")) msgpack_pack_uint32(&pk, 128);
        }
    }
    if (key(&pk, m, "replay_end", "replay_end")) msgpack_pack_uint32(&pk, 5);
    if (key(&pk, m, "threads", "threads")) msgpack_pack_uint32(&pk, 2);
    if (key(&pk, m, "tile_size", "tile_size")) msgpack_pack_uint32(&pk, 16);
    if (key(&pk, m, "dump", "dump")) pk_bin(&pk, blob, 2); /* not render_list's: ignored */
}

/* What pack_list_request packs when nothing is broken. */
static void expect_list(struct proto_request *rq)
{
    proto_request_init(rq, PROTO_OP_RENDER_LIST, 42);
    rq->has_token = true;
    rq->token = bytes_of("tok", 3);
    rq->nblocks = 2;
    rq->blocks[0] = (struct proto_block){0x08800000, bytes_of(blob, sizeof blob)};
    rq->blocks[1] = (struct proto_block){0x08800100, bytes_of(blob, sizeof blob)};
    rq->pc = 0x08800000;
    rq->nregs = 2;
    rq->regs[0] = 0x9C000000;
    rq->regs[1] = 0x9D000000;
    rq->has_display = true;
    rq->display = (struct proto_display){0x04000000, 512, 3};
    rq->outputs = PROTO_OUT_PNG | PROTO_OUT_VRAM;
    rq->nranges = 1;
    rq->ranges[0] = (struct proto_range){GT_VRAM_BASE + 64, 128};
    rq->replay_end = 5;
    rq->threads = 2;
    rq->tile_size = 16;
}

/* Decodes a broken request: fails with code, and a message holding each of the needles. */
static void expect_refused(const msgpack_sbuffer *sb, int rc_want, enum proto_code code, const char *n1,
                           const char *n2)
{
    static struct proto_request rq;
    msgpack_unpacked u;
    struct gt_diag d = {0};
    unpack_one(sb, &u);
    int rc = proto_decode_request(&u.data, &rq, &d);
    CHECK_MSG(rc == rc_want, "rc %d (%s), expected %d; message: %s", rc, gt_err_name(rc), rc_want, d.msg);
    CHECK_EQ_I(d.code, rc);
    CHECK_EQ_S(proto_code_name(rq.code), proto_code_name(code));
    CHECK_MSG(n1 == NULL || strstr(d.msg, n1), "message \"%s\" lacks \"%s\"", d.msg, n1);
    CHECK_MSG(n2 == NULL || strstr(d.msg, n2), "message \"%s\" lacks \"%s\"", d.msg, n2);
    CHECK_MSG(!strchr(d.msg, '\n'), "message spans lines: %s", d.msg);
    CHECK_EQ_I(rq.nblocks, 0);
    CHECK_EQ_I(rq.op, PROTO_OP_NONE);
    msgpack_unpacked_destroy(&u);
}

/* A request packed from a small description: pairs of key and value kind. */
static void pack_small(msgpack_sbuffer *sb, int n, const char *const *keys, const char *const *vals)
{
    msgpack_packer pk;
    msgpack_sbuffer_init(sb);
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, (size_t)n);
    for (int i = 0; i < n; i++) {
        pk_str(&pk, keys[i]);
        const char *v = vals[i];
        if (v[0] == 'u') msgpack_pack_uint64(&pk, strtoull(v + 1, NULL, 0));
        else if (v[0] == 's') pk_str(&pk, v + 1);
        else if (v[0] == 'b') pk_bin(&pk, v + 1, strlen(v + 1));
        else msgpack_pack_nil(&pk);
    }
}

/* The start of a render_list request: a map of 4 (+1 with an empty
 * "memory") + extra keys, with v, id 3, op and pc packed. */
static void list_head(msgpack_packer *pk, uint32_t extra, bool memory)
{
    msgpack_pack_map(pk, 4 + (memory ? 1 : 0) + extra);
    pk_str(pk, "v");
    msgpack_pack_uint32(pk, 1);
    pk_str(pk, "id");
    msgpack_pack_uint32(pk, 3);
    pk_str(pk, "op");
    pk_str(pk, "render_list");
    pk_str(pk, "pc");
    msgpack_pack_uint32(pk, 0);
    if (memory) {
        pk_str(pk, "memory");
        msgpack_pack_array(pk, 0);
    }
}

/* --- Names ------------------------------------------------------------------ */

TEST(proto_code_names)
{
    char buf[PROTO_CODE_LEN];
    CHECK_EQ_S(proto_code_name(PROTO_E_BAD_REQUEST), "bad_request");
    CHECK_EQ_S(proto_code_name(PROTO_E_BAD_VERSION), "bad_version");
    CHECK_EQ_S(proto_code_name(PROTO_E_UNKNOWN_OP), "unknown_op");
    CHECK_EQ_S(proto_code_name(PROTO_E_TOO_LARGE), "too_large");
    CHECK_EQ_S(proto_code_name(PROTO_E_UNAUTHORIZED), "unauthorized");
    CHECK_EQ_S(proto_code_name(PROTO_E_BUSY), "busy");
    CHECK_EQ_S(proto_code_name(PROTO_E_SHUTTING_DOWN), "shutting_down");
    CHECK_EQ_S(proto_code_name(PROTO_E_INTERNAL), "internal");
    CHECK(proto_code_name(PROTO_CODE_NONE) == NULL);
    CHECK(proto_code_name(PROTO_CODE_COUNT) == NULL);
    CHECK_EQ_S(proto_err_code(GT_ETOO_BIG, buf), "too_big");
    CHECK_EQ_S(proto_err_code(GT_ECORRUPT, buf), "corrupt");
    CHECK_EQ_S(proto_err_code(GT_EBAD_ADDRESS, buf), "bad_address");
    CHECK_EQ_S(proto_err_code(GT_ESTEP_LIMIT, buf), "step_limit");
    CHECK_EQ_S(proto_op_name(PROTO_OP_RENDER_DUMP), "render_dump");
    CHECK_EQ_S(proto_op_name(PROTO_OP_STATS), "stats");
    CHECK_EQ_S(proto_output_name(PROTO_OUT_DEPTH), "depth");
    CHECK(proto_output_name(3) == NULL);
    /* protocol codes never collide with render codes */
    for (int c = PROTO_CODE_NONE + 1; c < PROTO_CODE_COUNT; c++)
        for (int e = GT_EMISMATCH; e <= GT_ENOMEM; e++)
            CHECK_MSG(strcmp(proto_code_name((enum proto_code)c), proto_err_code(e, buf)) != 0, "%s", buf);
}

/* --- Round trips ---------------------------------------------------------- */

TEST(proto_round_trip_requests)
{
    static struct proto_request rq, out;
    static uint8_t data[70000];
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 7 + 3);

    proto_request_init(&rq, PROTO_OP_RENDER_DUMP, 7);
    rq.dump = bytes_of(data, sizeof data);
    request_round_trip(&rq, &out, &sb, &u);
    CHECK_EQ_I(out.op, PROTO_OP_RENDER_DUMP);
    CHECK_EQ_U(out.outputs, PROTO_OUT_PNG);
    CHECK_EQ_U(out.nranges, 1);
    CHECK_EQ_U(out.ranges[0].len, GT_VRAM_SIZE);
    CHECK(out.dump.ptr != data && out.dump.len == sizeof data); /* points into the message */
    CHECK(!out.has_token);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);

    /* every option, and a token given as binary */
    rq.has_token = true;
    rq.token = bytes_of("\0\1\2", 3);
    rq.outputs = PROTO_OUT_RGBA | PROTO_OUT_DEPTH;
    rq.nranges = 0;
    rq.replay_end = 3;
    rq.threads = 1;
    rq.tile_size = GT_TILE_SIZE_MAX;
    request_round_trip(&rq, &out, &sb, &u);
    CHECK_EQ_U(out.nranges, 0);
    CHECK_EQ_U(out.token.len, 3);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);

    sample_list_request(&rq, data, 1000);
    request_round_trip(&rq, &out, &sb, &u);
    CHECK_EQ_U(out.id, 0x1122334455667788ull);
    CHECK_EQ_U(out.blocks[2].addr, 0xFFFFFFF0u);
    CHECK_EQ_U(out.regs[2], 0xFFFFFFFFu);
    CHECK_EQ_U(out.display.addr, 0x04088000);
    CHECK_EQ_U(out.display.stride, 512);
    CHECK_EQ_U(out.outputs, PROTO_OUT_ALL);
    CHECK(!memcmp(out.blocks[0].data.ptr, data, 1000));
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);

    /* the fewest keys: no regs, no display, no blocks, no outputs */
    proto_request_init(&rq, PROTO_OP_RENDER_LIST, 0);
    rq.outputs = 0;
    request_round_trip(&rq, &out, &sb, &u);
    CHECK(!out.has_display);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);

    proto_request_init(&rq, PROTO_OP_PING, UINT64_MAX);
    request_round_trip(&rq, &out, &sb, &u);
    CHECK_EQ_I(out.op, PROTO_OP_PING);
    CHECK_EQ_U(out.id, UINT64_MAX);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);

    proto_request_init(&rq, PROTO_OP_STATS, 0);
    rq.has_token = true;
    rq.token = cstr("");
    request_round_trip(&rq, &out, &sb, &u);
    CHECK_EQ_I(out.op, PROTO_OP_STATS);
    CHECK(out.has_token && out.token.len == 0);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
}

TEST(proto_round_trip_responses)
{
    static struct proto_response rs, out;
    static uint8_t rgba[PROTO_RGBA_BYTES], depth[PROTO_DEPTH_BYTES];
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    char buf[PROTO_CODE_LEN];
    for (size_t i = 0; i < sizeof rgba; i++) rgba[i] = (uint8_t)(i ^ (i >> 8));
    for (size_t i = 0; i < sizeof depth; i++) depth[i] = (uint8_t)(i * 13);

    /* a render with every output */
    memset(&rs, 0, sizeof rs);
    rs.id = 99;
    rs.ok = true;
    rs.has_outputs = true;
    rs.outputs = PROTO_OUT_ALL;
    rs.png = bytes_of("\x89PNG fake", 9);
    rs.rgba = bytes_of(rgba, sizeof rgba);
    rs.depth = bytes_of(depth, sizeof depth);
    rs.nvram = 2;
    rs.vram[0] = (struct proto_block){GT_VRAM_BASE, bytes_of(rgba, 4096)};
    rs.vram[1] = (struct proto_block){GT_VRAM_BASE + 0x1000, bytes_of(depth, 0)};
    rs.has_stats = true;
    rs.stats = (struct proto_stats){.draws = 12, .prims = 3456, .pixels = 1ull << 40, .ms = 12.625};
    for (int r = 0; r < BIN_FLUSH_COUNT; r++) rs.stats.flushes[r] = (uint64_t)r * 1000 + 1;
    response_round_trip(&rs, &out, &sb, &u);
    CHECK(out.stats.ms == 12.625);
    CHECK_EQ_U(out.stats.flushes[BIN_FLUSH_END], BIN_FLUSH_END * 1000 + 1);
    CHECK(!memcmp(out.rgba.ptr, rgba, sizeof rgba));
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);

    /* stats only (outputs: []) */
    rs.outputs = 0;
    rs.nvram = 0;
    response_round_trip(&rs, &out, &sb, &u);
    CHECK(out.has_outputs && out.outputs == 0);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);

    /* ping */
    memset(&rs, 0, sizeof rs);
    rs.id = 1;
    rs.ok = true;
    rs.pong = true;
    response_round_trip(&rs, &out, &sb, &u);
    CHECK(out.pong && !out.has_stats && !out.has_outputs && !out.has_server);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);

    /* stats */
    memset(&rs, 0, sizeof rs);
    rs.id = 2;
    rs.ok = true;
    rs.has_server = true;
    rs.server = (struct proto_server_stats){100, 90, 5, 5, 3};
    response_round_trip(&rs, &out, &sb, &u);
    CHECK_EQ_U(out.server.failed, 5);
    CHECK_EQ_U(out.server.connections, 3);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);

    /* errors: through the helpers */
    msgpack_packer pk;
    struct gt_diag d = {0};
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    CHECK_EQ_I(proto_encode_proto_error(&pk, 77, PROTO_E_BUSY, NULL), 0);
    unpack_one(&sb, &u);
    CHECK_EQ_I(proto_decode_response(&u.data, &out, &d), 0);
    CHECK(!out.ok && out.id == 77);
    CHECK(proto_bytes_is(out.error_code, "busy"));
    CHECK(proto_bytes_is(out.error_message, proto_code_desc(PROTO_E_BUSY)));
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);

    struct gt_diag fail = {0};
    gt_fail(&fail, GT_EBAD_ADDRESS, "record 12: 0x%08x is outside PSP memory", 0x12345678u);
    msgpack_sbuffer_init(&sb);
    CHECK_EQ_I(proto_encode_render_error(&pk, 78, &fail), 0);
    unpack_one(&sb, &u);
    CHECK_EQ_I(proto_decode_response(&u.data, &out, &d), 0);
    CHECK(proto_bytes_is(out.error_code, proto_err_code(GT_EBAD_ADDRESS, buf)));
    CHECK(proto_bytes_is(out.error_code, "bad_address"));
    CHECK(proto_bytes_is(out.error_message, "record 12: 0x12345678 is outside PSP memory"));
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);

    memset(&rs, 0, sizeof rs);
    rs.id = 5;
    rs.error_code = cstr("unauthorized");
    rs.error_message = cstr("");
    response_round_trip(&rs, &out, &sb, &u);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
}

/* The encoders check their structs before packing anything. */
TEST(proto_encode_refuses_bad_structs)
{
    static struct proto_request rq;
    static struct proto_response rs;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    static const uint8_t data[32];

    proto_request_init(&rq, PROTO_OP_NONE, 1);
    CHECK_EQ_I(proto_encode_request(&pk, &rq), GT_EARG);
    proto_request_init(&rq, PROTO_OP_RENDER_DUMP, 1);
    rq.tile_size = 48;
    CHECK_EQ_I(proto_encode_request(&pk, &rq), GT_EARG);
    rq.tile_size = 0;
    rq.threads = GT_MAX_THREADS + 1;
    CHECK_EQ_I(proto_encode_request(&pk, &rq), GT_EARG);
    rq.threads = 0;
    rq.ranges[0] = (struct proto_range){GT_VRAM_BASE + GT_VRAM_SIZE - 4, 8};
    CHECK_EQ_I(proto_encode_request(&pk, &rq), GT_EARG);
    rq.ranges[0] = (struct proto_range){GT_VRAM_BASE, 1};
    rq.outputs = 1u << 7;
    CHECK_EQ_I(proto_encode_request(&pk, &rq), GT_EARG);
    proto_request_init(&rq, PROTO_OP_RENDER_LIST, 1);
    rq.nblocks = 1;
    rq.blocks[0] = (struct proto_block){0xFFFFFFF0u, bytes_of(data, 17)};
    CHECK_EQ_I(proto_encode_request(&pk, &rq), GT_EARG);
    rq.blocks[0].data.len = 16;
    rq.nregs = GT_PROTO_MAX_REGS + 1;
    CHECK_EQ_I(proto_encode_request(&pk, &rq), GT_EARG);
    rq.nregs = 0;
    rq.has_display = true;
    rq.display.format = 4;
    CHECK_EQ_I(proto_encode_request(&pk, &rq), GT_EARG);

    memset(&rs, 0, sizeof rs);
    rs.ok = true;
    rs.has_outputs = true;
    rs.outputs = PROTO_OUT_RGBA;
    rs.rgba = bytes_of(data, sizeof data);
    CHECK_EQ_I(proto_encode_response(&pk, &rs), GT_EARG);
    memset(&rs, 0, sizeof rs); /* an error without a code */
    CHECK_EQ_I(proto_encode_response(&pk, &rs), GT_EARG);
    CHECK_EQ_I(proto_encode_proto_error(&pk, 1, PROTO_CODE_NONE, NULL), GT_EARG);
    CHECK_EQ_U(sb.size, 0);
    msgpack_sbuffer_destroy(&sb);
}

/* --- Hostile requests ------------------------------------------------------- */

TEST(proto_request_unknown_keys_ignored)
{
    static struct proto_request rq, want;
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    struct gt_diag d = {0};
    expect_list(&want);
    for (int extra = 0; extra < 2; extra++) {
        struct mut m = {NULL, MUT_NONE, extra != 0};
        pack_list_request(&sb, &m);
        unpack_one(&sb, &u);
        int rc = proto_decode_request(&u.data, &rq, &d);
        CHECK_MSG(rc == 0, "extra %d: %s", extra, d.msg);
        CHECK(proto_request_same(&rq, &want));
        msgpack_unpacked_destroy(&u);
        msgpack_sbuffer_destroy(&sb);
    }
}

TEST(proto_request_wrong_types)
{
    static const char *const keys[] = {
        "v", "id", "op", "token", "memory", "memory[0]", "memory[1]", "memory[0].addr", "memory[1].data", "pc",
        "stall", "regs", "regs[1]", "display", "display.addr", "display.stride", "display.format", "outputs",
        "outputs[1]", "vram_ranges", "vram_ranges[0]", "vram_ranges[0][0]", "vram_ranges[0][1]", "replay_end",
        "threads", "tile_size",
    };
    msgpack_sbuffer sb;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        struct mut m = {keys[i], MUT_WRONG, i & 1};
        char quoted[80];
        snprintf(quoted, sizeof quoted, "\"%s\"", keys[i]);
        pack_list_request(&sb, &m);
        expect_refused(&sb, GT_ECORRUPT, PROTO_E_BAD_REQUEST, quoted, "expected");
        msgpack_sbuffer_destroy(&sb);
    }
    /* the id of a request refused after its id was read is kept for the answer */
    static struct proto_request rq;
    struct mut m = {"pc", MUT_WRONG, false};
    msgpack_unpacked u;
    struct gt_diag d = {0};
    pack_list_request(&sb, &m);
    unpack_one(&sb, &u);
    CHECK(proto_decode_request(&u.data, &rq, &d) < 0);
    CHECK(rq.has_id && rq.id == 42);
    CHECK(test_contains_ci(d.msg, "\"pc\": expected an unsigned integer, got a string"));
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    m.path = "id";
    pack_list_request(&sb, &m);
    unpack_one(&sb, &u);
    CHECK(proto_decode_request(&u.data, &rq, &d) < 0);
    CHECK(!rq.has_id && rq.id == 0);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);

    /* a render_dump's dump given as a string */
    static const char *const k[] = {"v", "id", "op", "dump"};
    static const char *const v[] = {"u1", "u3", "srender_dump", "sPPDMP"};
    pack_small(&sb, 4, k, v);
    expect_refused(&sb, GT_ECORRUPT, PROTO_E_BAD_REQUEST, "\"dump\": expected binary, got a string", NULL);
    msgpack_sbuffer_destroy(&sb);
}

TEST(proto_request_missing_keys)
{
    static const char *const keys[] = {
        "v", "id", "op", "memory", "memory[0].addr", "memory[1].data", "pc", "display.addr", "display.stride",
        "display.format",
    };
    msgpack_sbuffer sb;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        struct mut m = {keys[i], MUT_DROP, false};
        char want[80];
        snprintf(want, sizeof want, "\"%s\": missing", keys[i]);
        pack_list_request(&sb, &m);
        expect_refused(&sb, GT_ECORRUPT, PROTO_E_BAD_REQUEST, want, NULL);
        msgpack_sbuffer_destroy(&sb);
    }
    /* optional ones may go */
    static const char *const optional[] = {"token", "stall", "regs", "display", "outputs", "vram_ranges",
                                           "replay_end", "threads", "tile_size", "dump"};
    for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++) {
        static struct proto_request rq;
        struct mut m = {optional[i], MUT_DROP, false};
        msgpack_unpacked u;
        struct gt_diag d = {0};
        pack_list_request(&sb, &m);
        unpack_one(&sb, &u);
        CHECK_MSG(proto_decode_request(&u.data, &rq, &d) == 0, "%s: %s", optional[i], d.msg);
        msgpack_unpacked_destroy(&u);
        msgpack_sbuffer_destroy(&sb);
    }
    static const char *const k[] = {"v", "id", "op"};
    static const char *const v[] = {"u1", "u3", "srender_dump"};
    pack_small(&sb, 3, k, v);
    expect_refused(&sb, GT_ECORRUPT, PROTO_E_BAD_REQUEST, "\"dump\": missing", NULL);
    msgpack_sbuffer_destroy(&sb);
}

TEST(proto_request_bad_version_and_op)
{
    msgpack_sbuffer sb;
    static struct proto_request rq;
    msgpack_unpacked u;
    struct gt_diag d = {0};
    static const char *const k[] = {"v", "id", "op"};
    static const char *const v2[] = {"u2", "u9", "sping"};
    pack_small(&sb, 3, k, v2);
    expect_refused(&sb, GT_EVERSION, PROTO_E_BAD_VERSION, "\"v\"", "version 2");
    unpack_one(&sb, &u);
    proto_decode_request(&u.data, &rq, &d);
    CHECK(rq.has_id && rq.id == 9); /* answered with its id */
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);

    static const char *const v0[] = {"u0", "u9", "sping"};
    pack_small(&sb, 3, k, v0);
    expect_refused(&sb, GT_EVERSION, PROTO_E_BAD_VERSION, "version 0", NULL);
    msgpack_sbuffer_destroy(&sb);

    static const char *const op[] = {"u1", "u9", "srender_video"};
    pack_small(&sb, 3, k, op);
    expect_refused(&sb, GT_EUNSUPPORTED, PROTO_E_UNKNOWN_OP, "\"op\"", "render_video");
    msgpack_sbuffer_destroy(&sb);

    static const char *const op2[] = {"u1", "u9", "sPING"}; /* ops are case sensitive */
    pack_small(&sb, 3, k, op2);
    expect_refused(&sb, GT_EUNSUPPORTED, PROTO_E_UNKNOWN_OP, "PING", NULL);
    msgpack_sbuffer_destroy(&sb);

    static const char *const op3[] = {"u1", "u9", "sren\nder\"\x01"}; /* shown escaped, on one line */
    pack_small(&sb, 3, k, op3);
    expect_refused(&sb, GT_EUNSUPPORTED, PROTO_E_UNKNOWN_OP, "\"ren\\x0ader\\x22\\x01\"", NULL);
    msgpack_sbuffer_destroy(&sb);

    static const char *const ok[] = {"u1", "u9", "sping"};
    pack_small(&sb, 3, k, ok);
    unpack_one(&sb, &u);
    CHECK_EQ_I(proto_decode_request(&u.data, &rq, &d), 0);
    CHECK_EQ_I(rq.op, PROTO_OP_PING);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
}

/* Values of the right type outside their ranges, limits, and malformed maps. */
TEST(proto_request_bad_values)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    struct {
        const char *key, *val, *needle;
    } cases[] = {
        {"threads", "u65", "\"threads\": 65 is over 64"},
        {"tile_size", "u48", "\"tile_size\": 48"},
        {"tile_size", "u8", "\"tile_size\": 8"},
        {"tile_size", "u512", "\"tile_size\": 512 is over"},
        {"replay_end", "s5", "\"replay_end\": expected an unsigned integer, got a string"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *kk[] = {"v", "id", "op", "dump", cases[i].key};
        const char *vv[] = {"u1", "u3", "srender_dump", "bxx", cases[i].val};
        pack_small(&sb, 5, kk, vv);
        expect_refused(&sb, GT_ECORRUPT, PROTO_E_BAD_REQUEST, cases[i].needle, NULL);
        msgpack_sbuffer_destroy(&sb);
    }

    /* ranges, blocks, counts, outputs, display, duplicates, key types */
    for (int c = 0; c < 12; c++) {
        const char *needle = NULL;
        int want = GT_ECORRUPT;
        msgpack_sbuffer_init(&sb);
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        switch (c) {
        case 0: case 1: case 2: {
            static const uint32_t r[3][2] = {{GT_VRAM_BASE - 1, 4}, {GT_VRAM_BASE + GT_VRAM_SIZE - 4, 5},
                                             {GT_VRAM_BASE, 0}};
            list_head(&pk, 1, true);
            pk_str(&pk, "vram_ranges");
            msgpack_pack_array(&pk, 1);
            msgpack_pack_array(&pk, 2);
            msgpack_pack_uint32(&pk, r[c][0]);
            msgpack_pack_uint32(&pk, r[c][1]);
            needle = "\"vram_ranges[0]\": [0x";
            break;
        }
        case 3:
            list_head(&pk, 1, false);
            pk_str(&pk, "memory");
            msgpack_pack_array(&pk, 1);
            msgpack_pack_map(&pk, 2);
            pk_str(&pk, "addr"); msgpack_pack_uint32(&pk, 0xFFFFFFFCu);
            pk_str(&pk, "data"); pk_bin(&pk, blob, sizeof blob);
            needle = "\"memory[0]\": 0xfffffffc + 8 bytes wraps";
            break;
        case 4:
            list_head(&pk, 1, false);
            pk_str(&pk, "memory");
            msgpack_pack_array(&pk, GT_PROTO_MAX_BLOCKS + 1);
            for (int i = 0; i <= GT_PROTO_MAX_BLOCKS; i++) msgpack_pack_nil(&pk);
            needle = "\"memory\": 1025 elements, at most 1024";
            want = GT_ETOO_BIG;
            break;
        case 5:
            list_head(&pk, 1, false);
            pk_str(&pk, "memory");
            msgpack_pack_array(&pk, 1);
            msgpack_pack_map(&pk, 3);
            pk_str(&pk, "addr"); msgpack_pack_uint32(&pk, 0);
            pk_str(&pk, "data"); pk_bin(&pk, blob, 1);
            pk_str(&pk, "addr"); msgpack_pack_uint32(&pk, 4);
            needle = "\"memory[0].addr\": key appears twice";
            break;
        case 6:
            list_head(&pk, 1, false);
            pk_str(&pk, "memory");
            msgpack_pack_array(&pk, 1);
            msgpack_pack_map(&pk, 1);
            msgpack_pack_uint32(&pk, 1);
            msgpack_pack_uint32(&pk, 1);
            needle = "memory[0]: map key 0: expected a string, got an unsigned integer";
            break;
        case 7:
            list_head(&pk, 1, false);
            pk_str(&pk, "memory");
            msgpack_pack_array(&pk, 1);
            msgpack_pack_map(&pk, 2);
            pk_str(&pk, "addr"); msgpack_pack_int32(&pk, -4);
            pk_str(&pk, "data"); pk_bin(&pk, blob, 1);
            needle = "\"memory[0].addr\": expected an unsigned integer, got a negative integer";
            break;
        case 8:
            list_head(&pk, 1, false);
            pk_str(&pk, "memory");
            msgpack_pack_array(&pk, 1);
            msgpack_pack_map(&pk, 2);
            pk_str(&pk, "addr"); msgpack_pack_uint64(&pk, 1ull << 32);
            pk_str(&pk, "data"); pk_bin(&pk, blob, 1);
            needle = "\"memory[0].addr\": 4294967296 is over 4294967295";
            break;
        case 9:
            list_head(&pk, 1, true);
            pk_str(&pk, "outputs");
            msgpack_pack_array(&pk, 1);
            pk_str(&pk, "jpeg");
            needle = "\"outputs[0]\": unknown output \"jpeg\"";
            break;
        case 10:
            list_head(&pk, 1, true);
            pk_str(&pk, "display");
            msgpack_pack_map(&pk, 3);
            pk_str(&pk, "addr"); msgpack_pack_uint32(&pk, 0);
            pk_str(&pk, "stride"); msgpack_pack_uint32(&pk, 512);
            pk_str(&pk, "format"); msgpack_pack_uint32(&pk, 4);
            needle = "\"display.format\": 4 is over 3";
            break;
        case 11:
            list_head(&pk, 1, true);
            pk_str(&pk, "pc"); /* "pc" twice at the top */
            msgpack_pack_uint32(&pk, 0);
            needle = "\"pc\": key appears twice";
            break;
        }
        struct gt_diag d = {0};
        static struct proto_request rq;
        msgpack_unpacked u;
        unpack_one(&sb, &u);
        int rc = proto_decode_request(&u.data, &rq, &d);
        CHECK_MSG(rc == want && rq.code == PROTO_E_BAD_REQUEST, "case %d: rc %d code %d: %s", c, rc, rq.code, d.msg);
        CHECK_MSG(strstr(d.msg, needle), "case %d: \"%s\" lacks \"%s\"", c, d.msg, needle);
        msgpack_unpacked_destroy(&u);
        msgpack_sbuffer_destroy(&sb);
    }

    /* not a map at all */
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_array(&pk, 0);
    expect_refused(&sb, GT_ECORRUPT, PROTO_E_BAD_REQUEST, "message: expected a map, got an array", NULL);
    msgpack_sbuffer_destroy(&sb);
}

TEST(proto_response_wrong_types)
{
    static struct proto_response out;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_unpacked u;
    struct gt_diag d = {0};
    static const char *const cases[][3] = {
        /* key, value, needle */
        {"ok", "s1", "\"ok\": expected a boolean, got a string"},
        {"pong", "u1", "\"pong\": expected a boolean"},
        {"server", "u1", "\"server\": expected a map"},
        {"outputs", "bpng", "\"outputs\": expected a map, got binary"},
        {"stats", "n", "\"stats\": expected a map, got nil"},
        {"v", "u3", "version 3"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *key = cases[i][0], *v = cases[i][1];
        bool ok_case = !strcmp(key, "ok"), v_case = !strcmp(key, "v");
        msgpack_sbuffer_init(&sb);
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        msgpack_pack_map(&pk, ok_case || v_case ? 3 : 4);
        pk_str(&pk, "id");
        msgpack_pack_uint32(&pk, 5);
        if (!v_case) {
            pk_str(&pk, "v");
            msgpack_pack_uint32(&pk, 1);
        }
        if (!ok_case) {
            pk_str(&pk, "ok");
            msgpack_pack_true(&pk);
        }
        pk_str(&pk, key);
        if (v[0] == 'u') msgpack_pack_uint64(&pk, strtoull(v + 1, NULL, 0));
        else if (v[0] == 's') pk_str(&pk, v + 1);
        else if (v[0] == 'b') pk_bin(&pk, v + 1, strlen(v + 1));
        else msgpack_pack_nil(&pk);
        unpack_one(&sb, &u);
        int rc = proto_decode_response(&u.data, &out, &d);
        CHECK_MSG(rc < 0 && strstr(d.msg, cases[i][2]), "%s: rc %d: %s", key, rc, d.msg);
        CHECK(!out.ok && out.id == 0);
        msgpack_unpacked_destroy(&u);
        msgpack_sbuffer_destroy(&sb);
    }

    /* nested: rgba of the wrong size, ms an integer, a flush count negative, an error without message */
    for (int c = 0; c < 4; c++) {
        static uint8_t px[PROTO_RGBA_BYTES];
        msgpack_sbuffer_init(&sb);
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        const char *needle;
        if (c == 3) {
            msgpack_pack_map(&pk, 4);
            pk_str(&pk, "v"); msgpack_pack_uint32(&pk, 1);
            pk_str(&pk, "id"); msgpack_pack_uint32(&pk, 5);
            pk_str(&pk, "ok"); msgpack_pack_false(&pk);
            pk_str(&pk, "error");
            msgpack_pack_map(&pk, 1);
            pk_str(&pk, "code"); pk_str(&pk, "busy");
            needle = "\"error.message\": missing";
        } else {
            msgpack_pack_map(&pk, 5);
            pk_str(&pk, "v"); msgpack_pack_uint32(&pk, 1);
            pk_str(&pk, "id"); msgpack_pack_uint32(&pk, 5);
            pk_str(&pk, "ok"); msgpack_pack_true(&pk);
            pk_str(&pk, "outputs");
            msgpack_pack_map(&pk, 1);
            pk_str(&pk, "rgba");
            pk_bin(&pk, px, c == 0 ? sizeof px - 1 : sizeof px);
            pk_str(&pk, "stats");
            msgpack_pack_map(&pk, 5);
            pk_str(&pk, "draws"); msgpack_pack_uint32(&pk, 1);
            pk_str(&pk, "prims"); msgpack_pack_uint32(&pk, 1);
            pk_str(&pk, "pixels"); msgpack_pack_uint32(&pk, 1);
            pk_str(&pk, "ms");
            if (c == 1) msgpack_pack_uint32(&pk, 3);
            else msgpack_pack_float(&pk, 2.5f);
            pk_str(&pk, "flushes");
            msgpack_pack_map(&pk, 2);
            pk_str(&pk, "sync"); msgpack_pack_uint32(&pk, 4);
            pk_str(&pk, "warp"); /* a reason this side does not know */
            if (c == 2) msgpack_pack_int32(&pk, -1);
            else msgpack_pack_uint32(&pk, 9);
            needle = c == 0 ? "\"outputs.rgba\": 557055 bytes, expected 557056"
                   : c == 1 ? "\"stats.ms\": expected a float, got an unsigned integer"
                            : "\"stats.flushes.warp\": expected an unsigned integer, got a negative integer";
        }
        unpack_one(&sb, &u);
        int rc = proto_decode_response(&u.data, &out, &d);
        CHECK_MSG(rc < 0 && strstr(d.msg, needle), "case %d: rc %d: %s", c, rc, d.msg);
        msgpack_unpacked_destroy(&u);
        msgpack_sbuffer_destroy(&sb);
    }
}

/* --- The stream reader --------------------------------------------------------- */

/* Several requests of every kind, packed one after another into sb. */
static int pack_stream(msgpack_sbuffer *sb, struct proto_request *rqs, const uint8_t *data, size_t n)
{
    msgpack_packer pk;
    msgpack_sbuffer_init(sb);
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    proto_request_init(&rqs[0], PROTO_OP_PING, 1);
    proto_request_init(&rqs[1], PROTO_OP_RENDER_DUMP, 2);
    rqs[1].dump = bytes_of(data, n);
    sample_list_request(&rqs[2], data, n / 3);
    proto_request_init(&rqs[3], PROTO_OP_STATS, 4);
    proto_request_init(&rqs[4], PROTO_OP_RENDER_DUMP, 5);
    rqs[4].dump = bytes_of(data, 0);
    rqs[4].outputs = PROTO_OUT_DEPTH;
    for (int i = 0; i < 5; i++) CHECK_EQ_I(proto_encode_request(&pk, &rqs[i]), 0);
    return 5;
}

/* Feeds the stream in chunks of `chunk` bytes, draining proto_next after
 * each; every message must decode to the request packed. */
static void read_stream(const msgpack_sbuffer *sb, const struct proto_request *want, int n, size_t chunk)
{
    struct proto_reader r;
    msgpack_unpacked u[8];
    static struct proto_request rq;
    struct gt_diag d = {0};
    int got = 0;
    CHECK_EQ_I(proto_reader_init(&r, 0), 0);
    for (int i = 0; i < 8; i++) msgpack_unpacked_init(&u[i]);
    for (size_t off = 0; off < sb->size; off += chunk) {
        size_t len = sb->size - off < chunk ? sb->size - off : chunk;
        CHECK_EQ_I(proto_feed(&r, sb->data + off, len), 0);
        for (;;) {
            CHECK(got < 8);
            int rc = proto_next(&r, &u[got], &d);
            CHECK_MSG(rc >= 0, "chunk %zu, offset %zu: %d %s", chunk, off, rc, d.msg);
            if (rc == 0) break;
            got++;
        }
    }
    CHECK_EQ_I(got, n);
    /* decoded after the whole stream went through: byte fields stay valid
     * while each message's zone lives, whatever the unpacker did since */
    for (int i = 0; i < n; i++) {
        int rc = proto_decode_request(&u[i].data, &rq, &d);
        CHECK_MSG(rc == 0, "message %d: %s", i, d.msg);
        CHECK_MSG(proto_request_same(&rq, &want[i]), "chunk %zu: message %d differs", chunk, i);
    }
    for (int i = 0; i < 8; i++) msgpack_unpacked_destroy(&u[i]);
    proto_reader_free(&r);
}

TEST(proto_stream_one_byte_at_a_time)
{
    static struct proto_request rqs[5];
    static uint8_t data[100000];
    msgpack_sbuffer sb;
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 31 + (i >> 9));
    int n = pack_stream(&sb, rqs, data, sizeof data);
    read_stream(&sb, rqs, n, 1);
    read_stream(&sb, rqs, n, 3);
    read_stream(&sb, rqs, n, 4096);
    read_stream(&sb, rqs, n, 65536 + 17);
    read_stream(&sb, rqs, n, sb.size);
    msgpack_sbuffer_destroy(&sb);
}

/* libuv's way in: reserve space, read into it, mark it consumed. */
TEST(proto_stream_reserved_buffer)
{
    static struct proto_request rqs[5], rq;
    static uint8_t data[5000];
    msgpack_sbuffer sb;
    struct proto_reader r;
    msgpack_unpacked u;
    struct gt_diag d = {0};
    int n = pack_stream(&sb, rqs, data, sizeof data), got = 0;
    CHECK_EQ_I(proto_reader_init(&r, 0), 0);
    msgpack_unpacked_init(&u);
    for (size_t off = 0; off < sb.size;) {
        char *buf;
        size_t cap;
        CHECK_EQ_I(proto_reader_buffer(&r, 1000, &buf, &cap), 0);
        CHECK(cap >= 1000);
        size_t len = sb.size - off < 777 ? sb.size - off : 777;
        memcpy(buf, sb.data + off, len);
        proto_reader_consumed(&r, len);
        off += len;
        int rc;
        while ((rc = proto_next(&r, &u, &d)) == 1) {
            CHECK_EQ_I(proto_decode_request(&u.data, &rq, &d), 0);
            CHECK(proto_request_same(&rq, &rqs[got]));
            got++;
        }
        CHECK_MSG(rc == 0, "%d %s", rc, d.msg);
    }
    CHECK_EQ_I(got, n);
    msgpack_unpacked_destroy(&u);
    proto_reader_free(&r);
    msgpack_sbuffer_destroy(&sb);
}

/* Every proper prefix of a message is "need more bytes", never an error. */
TEST(proto_stream_truncated)
{
    static struct proto_request rqs[5];
    static uint8_t data[300];
    msgpack_sbuffer sb;
    struct gt_diag d = {0};
    pack_stream(&sb, rqs, data, sizeof data);
    size_t first_len; /* the first message (ping) */
    {
        msgpack_unpacked u;
        msgpack_unpacked_init(&u);
        first_len = 0;
        CHECK_EQ_I(msgpack_unpack_next(&u, sb.data, sb.size, &first_len), MSGPACK_UNPACK_SUCCESS);
        msgpack_unpacked_destroy(&u);
    }
    for (size_t cut = 0; cut < sb.size; cut++) {
        struct proto_reader r;
        msgpack_unpacked u;
        msgpack_unpacked_init(&u);
        CHECK_EQ_I(proto_reader_init(&r, 0), 0);
        CHECK_EQ_I(proto_feed(&r, sb.data, cut), 0);
        int got = 0, rc;
        while ((rc = proto_next(&r, &u, &d)) == 1) got++;
        CHECK_MSG(rc == 0, "cut at %zu: %d %s", cut, rc, d.msg);
        CHECK_MSG(got < 5 && (cut >= first_len) == (got >= 1), "cut at %zu: %d messages", cut, got);
        msgpack_unpacked_destroy(&u);
        proto_reader_free(&r);
    }
    msgpack_sbuffer_destroy(&sb);
}

/* A message over the cap is refused when its header shows it, before its
 * bytes arrive; one exactly at the cap is accepted. */
TEST(proto_stream_too_large)
{
    static uint8_t data[4000];
    static struct proto_request rq;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    struct gt_diag d = {0};
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    proto_request_init(&rq, PROTO_OP_RENDER_DUMP, 31);
    rq.dump = bytes_of(data, sizeof data);
    CHECK_EQ_I(proto_encode_request(&pk, &rq), 0);
    size_t size = sb.size;

    for (int c = 0; c < 3; c++) { /* cap one byte short, exactly the size (accepted), far short */
        static const size_t minus[3] = {1, 0, 3000};
        struct proto_reader r;
        msgpack_unpacked u;
        msgpack_unpacked_init(&u);
        CHECK_EQ_I(proto_reader_init(&r, size - minus[c]), 0);
        int rc = 0;
        size_t off = 0;
        for (; off < size && rc == 0; off++) {
            CHECK_EQ_I(proto_feed(&r, sb.data + off, 1), 0);
            rc = proto_next(&r, &u, &d);
        }
        if (c == 1) {
            CHECK_MSG(rc == 1 && off == size, "%d %s", rc, d.msg);
        } else {
            CHECK_EQ_I(rc, GT_ETOO_BIG);
            CHECK_EQ_I(r.code, PROTO_E_TOO_LARGE);
            /* one short: at the last byte; far short: at the dump's bin header */
            CHECK_MSG(c == 0 ? off == size : off < 100, "refused after %zu of %zu bytes", off, size);
            CHECK_MSG(strstr(d.msg, "over the cap"), "%s", d.msg);
            CHECK_EQ_I(proto_next(&r, &u, &d), GT_ETOO_BIG); /* sticky */
            CHECK_EQ_I(proto_feed(&r, sb.data, 10), 0);
            CHECK_EQ_I(proto_next(&r, &u, &d), GT_ETOO_BIG);
        }
        msgpack_unpacked_destroy(&u);
        proto_reader_free(&r);
    }
    msgpack_sbuffer_destroy(&sb);

    /* headers announcing huge containers or payloads: refused from 5 or 9 bytes */
    static const uint8_t bombs[][10] = {
        {0xdd, 0xff, 0xff, 0xff, 0xff},             /* array of 4 billion */
        {0xdf, 0x10, 0x00, 0x00, 0x00},             /* map of 256 Mi entries */
        {0xc6, 0x7f, 0xff, 0xff, 0xff},             /* 2 GiB bin */
        {0x81, 0xa1, 'x', 0xdb, 0x20, 0, 0, 0},     /* 512 MiB str inside a map */
        {0xc9, 0xff, 0xff, 0xff, 0xff},             /* ext32 */
    };
    static const size_t blen[] = {5, 5, 5, 8, 5};
    for (size_t i = 0; i < sizeof bombs / sizeof bombs[0]; i++) {
        struct proto_reader r;
        msgpack_unpacked u;
        msgpack_unpacked_init(&u);
        CHECK_EQ_I(proto_reader_init(&r, 0), 0);
        int rc = 0;
        for (size_t j = 0; j < blen[i] && rc == 0; j++) {
            CHECK_EQ_I(proto_feed(&r, bombs[i] + j, 1), 0);
            rc = proto_next(&r, &u, &d);
            if (j + 1 < blen[i]) CHECK_MSG(rc == 0, "bomb %zu byte %zu: %d %s", i, j, rc, d.msg);
        }
        CHECK_MSG(rc == GT_ETOO_BIG && r.code == PROTO_E_TOO_LARGE, "bomb %zu: %d %s", i, rc, d.msg);
        msgpack_unpacked_destroy(&u);
        proto_reader_free(&r);
    }

    /* more values than GT_PROTO_MAX_OBJECTS, each one byte */
    {
        struct proto_reader r;
        msgpack_unpacked u;
        msgpack_unpacked_init(&u);
        CHECK_EQ_I(proto_reader_init(&r, 0), 0);
        uint8_t hdr[5] = {0xdd, 0, 0, 0, 0};
        uint32_t n = GT_PROTO_MAX_OBJECTS; /* the array itself is one more */
        hdr[1] = (uint8_t)(n >> 24), hdr[2] = (uint8_t)(n >> 16), hdr[3] = (uint8_t)(n >> 8), hdr[4] = (uint8_t)n;
        CHECK_EQ_I(proto_feed(&r, hdr, 5), 0);
        CHECK_EQ_I(proto_next(&r, &u, &d), GT_ETOO_BIG);
        CHECK_MSG(strstr(d.msg, "msgpack values"), "%s", d.msg);
        msgpack_unpacked_destroy(&u);
        proto_reader_free(&r);
        /* one fewer is fine */
        CHECK_EQ_I(proto_reader_init(&r, 0), 0);
        n--;
        hdr[1] = (uint8_t)(n >> 24), hdr[2] = (uint8_t)(n >> 16), hdr[3] = (uint8_t)(n >> 8), hdr[4] = (uint8_t)n;
        uint8_t *nils = xmalloc(n);
        memset(nils, 0xc0, n);
        CHECK_EQ_I(proto_feed(&r, hdr, 5), 0);
        CHECK_EQ_I(proto_feed(&r, nils, n), 0);
        CHECK_EQ_I(proto_next(&r, &u, &d), 1);
        CHECK_EQ_U(u.data.via.array.size, n);
        static struct proto_request rq2;
        CHECK_EQ_I(proto_decode_request(&u.data, &rq2, &d), GT_ECORRUPT);
        free(nils);
        msgpack_unpacked_destroy(&u);
        proto_reader_free(&r);
    }
}

/* Bytes that are not msgpack end the stream with bad_request; msgpack that
 * is not a request map is refused by the decoder with bad_request. */
TEST(proto_stream_garbage)
{
    struct gt_diag d = {0};
    static struct proto_request rq;
    struct proto_reader r;
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);

    /* 0xc1 is never used by msgpack */
    CHECK_EQ_I(proto_reader_init(&r, 0), 0);
    CHECK_EQ_I(proto_feed(&r, "\x82\xa1v\x01\xc1", 5), 0);
    CHECK_EQ_I(proto_next(&r, &u, &d), GT_ECORRUPT);
    CHECK_EQ_I(r.code, PROTO_E_BAD_REQUEST);
    CHECK_MSG(strstr(d.msg, "0xc1"), "%s", d.msg);
    proto_reader_free(&r);

    /* nesting deeper than GT_PROTO_MAX_DEPTH */
    CHECK_EQ_I(proto_reader_init(&r, 0), 0);
    for (int i = 0; i <= GT_PROTO_MAX_DEPTH; i++) CHECK_EQ_I(proto_feed(&r, "\x91", 1), 0);
    CHECK_EQ_I(proto_next(&r, &u, &d), GT_ECORRUPT);
    CHECK_EQ_I(r.code, PROTO_E_BAD_REQUEST);
    proto_reader_free(&r);
    /* as deep as allowed is fine */
    CHECK_EQ_I(proto_reader_init(&r, 0), 0);
    for (int i = 0; i < GT_PROTO_MAX_DEPTH; i++) CHECK_EQ_I(proto_feed(&r, "\x91", 1), 0);
    CHECK_EQ_I(proto_feed(&r, "\xc0", 1), 0);
    CHECK_EQ_I(proto_next(&r, &u, &d), 1);
    proto_reader_free(&r);

    /* an HTTP request: each byte a small integer, each refused by the decoder */
    const char *http = "GET / HTTP/1.1\r\n";
    CHECK_EQ_I(proto_reader_init(&r, 0), 0);
    CHECK_EQ_I(proto_feed(&r, http, strlen(http)), 0);
    int n = 0, rc;
    while ((rc = proto_next(&r, &u, &d)) == 1) {
        CHECK_EQ_I(proto_decode_request(&u.data, &rq, &d), GT_ECORRUPT);
        CHECK_EQ_I(rq.code, PROTO_E_BAD_REQUEST);
        CHECK(!rq.has_id);
        n++;
    }
    CHECK_EQ_I(rc, 0);
    CHECK_EQ_I(n, (int)strlen(http));
    proto_reader_free(&r);

    /* pseudo-random bytes: the reader and the decoder never crash, and
     * every failure carries a one-line message */
    uint32_t seed = 12345;
    for (int round = 0; round < 300; round++) {
        uint8_t buf[256];
        for (size_t i = 0; i < sizeof buf; i++) {
            seed = seed * 1103515245u + 12345u;
            buf[i] = (uint8_t)(seed >> 16);
        }
        CHECK_EQ_I(proto_reader_init(&r, 4096), 0);
        CHECK_EQ_I(proto_feed(&r, buf, sizeof buf), 0);
        while ((rc = proto_next(&r, &u, &d)) == 1) {
            rc = proto_decode_request(&u.data, &rq, &d);
            CHECK(rc == 0 || (rc < 0 && d.msg[0] && rq.code != PROTO_CODE_NONE));
        }
        CHECK(rc == 0 || (rc < 0 && d.msg[0] && r.code != PROTO_CODE_NONE));
        proto_reader_free(&r);
    }
    msgpack_unpacked_destroy(&u);
}
