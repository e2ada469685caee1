/* libFuzzer target: the protocol's stream reader and decoders from
 * untrusted bytes.
 *
 * The first byte chooses the mode, how the bytes are cut into reads (1 to
 * 64 bytes, or all at once) and the reader's size cap (small enough that
 * inputs pass it). Mode one feeds the input itself; mode two feeds valid
 * messages of every kind (made by the encoder) with the input's byte edits
 * and cut, so the decoders' deep paths are reached without seeds. Every message goes through proto_decode_request and
 * proto_decode_response. A failure must be a negative code with a one-line
 * message and a protocol code to answer with, leaving an empty struct; a
 * success must encode, and the encoding must decode to the same values and
 * encode to the same bytes again. A stream error must stay. Built and run
 * by `make fuzz` (seeds, when present, in tests/fuzz-seeds/fuzz_proto/). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

static void check_failure(int rc, const struct gt_diag *d)
{
    if (rc >= 0 || d->code != rc || !d->msg[0] || strchr(d->msg, '\n') || strchr(d->msg, '\r')) abort();
}

/* pk's bytes decode (through a trusted one-shot unpack) into an object. */
static void unpack_all(const msgpack_sbuffer *sb, msgpack_unpacked *u)
{
    size_t off = 0;
    if (msgpack_unpack_next(u, sb->data, sb->size, &off) != MSGPACK_UNPACK_SUCCESS || off != sb->size) abort();
}

static struct proto_request rq, again_rq;
static struct proto_response rs, again_rs;

static void check_request(const msgpack_object *o)
{
    struct gt_diag d = {0};
    int rc = proto_decode_request(o, &rq, &d);
    if (rc < 0) {
        check_failure(rc, &d);
        if (rq.code == PROTO_CODE_NONE || rq.op != PROTO_OP_NONE || rq.nblocks || rq.nregs || rq.nranges ||
            (!rq.has_id && rq.id))
            abort();
        return;
    }
    if (rq.code != PROTO_CODE_NONE) abort();
    msgpack_sbuffer sb1, sb2;
    msgpack_packer pk;
    msgpack_unpacked u;
    msgpack_sbuffer_init(&sb1);
    msgpack_sbuffer_init(&sb2);
    msgpack_unpacked_init(&u);
    msgpack_packer_init(&pk, &sb1, msgpack_sbuffer_write);
    if (proto_encode_request(&pk, &rq) != 0) abort();
    unpack_all(&sb1, &u);
    if (proto_decode_request(&u.data, &again_rq, &d) != 0 || !proto_request_same(&rq, &again_rq)) abort();
    msgpack_packer_init(&pk, &sb2, msgpack_sbuffer_write);
    if (proto_encode_request(&pk, &again_rq) != 0 || sb1.size != sb2.size || memcmp(sb1.data, sb2.data, sb1.size))
        abort();
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb1);
    msgpack_sbuffer_destroy(&sb2);
}

static void check_response(const msgpack_object *o)
{
    struct gt_diag d = {0};
    int rc = proto_decode_response(o, &rs, &d);
    if (rc < 0) {
        check_failure(rc, &d);
        if (rs.ok || rs.id || rs.nvram) abort();
        return;
    }
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_unpacked u;
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    /* an error response with an empty code decodes but is not encoded */
    if (!rs.ok && rs.error_code.len == 0) {
        if (proto_encode_response(&pk, &rs) != GT_EARG) abort();
    } else {
        if (proto_encode_response(&pk, &rs) != 0) abort();
        unpack_all(&sb, &u);
        if (proto_decode_response(&u.data, &again_rs, &d) != 0 || !proto_response_same(&rs, &again_rs)) abort();
    }
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
}

/* Valid messages of every kind, one after another (built once with the
 * encoder): the template that the second input mode mutates, so the
 * decoders' deeper paths are reached without seeds. */
static msgpack_sbuffer template;

static void build_template(void)
{
    static const uint8_t bytes[64] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    static struct proto_request q;
    static struct proto_response a;
    msgpack_packer pk;
    msgpack_sbuffer_init(&template);
    msgpack_packer_init(&pk, &template, msgpack_sbuffer_write);
    proto_request_init(&q, PROTO_OP_RENDER_DUMP, 1);
    q.dump = (struct proto_bytes){bytes, 16};
    q.has_token = true;
    q.token = (struct proto_bytes){(const uint8_t *)"tok", 3};
    if (proto_encode_request(&pk, &q) != 0) abort();
    proto_request_init(&q, PROTO_OP_RENDER_LIST, 2);
    q.nblocks = 2;
    q.blocks[0] = (struct proto_block){0x08800000, {bytes, 8}};
    q.blocks[1] = (struct proto_block){0x04000000, {bytes, 4}};
    q.pc = 0x08800000;
    q.stall = 4;
    q.nregs = 2;
    q.regs[0] = 0x9C000000;
    q.regs[1] = 0x12345678;
    q.has_display = true;
    q.display = (struct proto_display){0x04000000, 512, 3};
    q.outputs = PROTO_OUT_ALL;
    q.nranges = 2;
    q.ranges[1] = (struct proto_range){0x04000100, 64};
    q.replay_end = 9;
    q.threads = 4;
    q.tile_size = 32;
    if (proto_encode_request(&pk, &q) != 0) abort();
    proto_request_init(&q, PROTO_OP_PING, 3);
    if (proto_encode_request(&pk, &q) != 0) abort();
    proto_request_init(&q, PROTO_OP_STATS, 4);
    if (proto_encode_request(&pk, &q) != 0) abort();
    memset(&a, 0, sizeof a);
    a.id = 5;
    a.ok = true;
    a.has_outputs = true;
    a.outputs = PROTO_OUT_PNG | PROTO_OUT_VRAM;
    a.png = (struct proto_bytes){bytes, 8};
    a.nvram = 1;
    a.vram[0] = (struct proto_block){0x04000000, {bytes, 8}};
    a.has_stats = true;
    a.stats.draws = 3;
    a.stats.ms = 1.5;
    a.stats.flushes[1] = 2;
    if (proto_encode_response(&pk, &a) != 0) abort();
    memset(&a, 0, sizeof a);
    a.id = 6;
    a.ok = true;
    a.pong = true;
    a.has_server = true;
    a.server.accepted = 7;
    if (proto_encode_response(&pk, &a) != 0) abort();
    if (proto_encode_proto_error(&pk, 7, PROTO_E_BUSY, NULL) != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t work[4096];
    if (size == 0) return 0;
    /* first byte: bit 7 the mode, bit 6 all at once, bits 0-5 the read size and the cap */
    uint8_t mode = data[0];
    size_t chunk = 1u + (mode & 0x3F);
    size_t cap = 64u + (size_t)(mode & 7) * 512u;
    data++, size--;
    if (mode & 0x80) {
        /* the template with the input's edits: 3 bytes each (position
         * high, low, value); a first byte, when present, cuts the stream */
        if (!template.data) build_template();
        size_t len = template.size < sizeof work ? template.size : sizeof work;
        memcpy(work, template.data, len);
        if (size % 3) {
            len = len * data[0] / 255u;
            data++, size--;
        }
        for (size_t i = 0; i + 2 < size; i += 3)
            if (len) work[((size_t)data[i] << 8 | data[i + 1]) % len] = data[i + 2];
        data = work;
        size = len;
        cap = 1u << 20;
    }
    if ((mode & 0x40) && size) chunk = size;

    struct proto_reader r;
    struct gt_diag d = {0};
    msgpack_unpacked u;
    if (proto_reader_init(&r, cap) != 0) abort();
    msgpack_unpacked_init(&u);
    int rc = 0;
    for (size_t off = 0; off < size && rc >= 0; off += chunk) {
        size_t n = size - off < chunk ? size - off : chunk;
        if (proto_feed(&r, data + off, n) != 0) abort();
        while ((rc = proto_next(&r, &u, &d)) == 1) {
            check_request(&u.data);
            check_response(&u.data);
        }
    }
    if (rc < 0) {
        check_failure(rc, &d);
        if (r.code == PROTO_CODE_NONE || proto_next(&r, &u, &d) != rc) abort();
    }
    msgpack_unpacked_destroy(&u);
    proto_reader_free(&r);
    return 0;
}
