/* Encoding requests and responses as msgpack maps (PROTOCOL.md). Each
 * function checks its struct completely before it packs anything. */
#include "proto.h"

#include <string.h>

/* A packer write failed (the sbuffer or writer could not grow). */
#define PK(call)                                                                 \
    do {                                                                         \
        if ((call) != 0) return GT_ENOMEM;                                       \
    } while (0)

static int pack_cstr(msgpack_packer *pk, const char *s)
{
    size_t n = strlen(s);
    PK(msgpack_pack_str(pk, n));
    PK(msgpack_pack_str_body(pk, s, n));
    return 0;
}

static int pack_str(msgpack_packer *pk, struct proto_bytes b)
{
    PK(msgpack_pack_str(pk, b.len));
    if (b.len) PK(msgpack_pack_str_body(pk, b.ptr, b.len));
    return 0;
}

static int pack_bin(msgpack_packer *pk, struct proto_bytes b)
{
    PK(msgpack_pack_bin(pk, b.len));
    if (b.len) PK(msgpack_pack_bin_body(pk, b.ptr, b.len));
    return 0;
}

static int pack_key_u64(msgpack_packer *pk, const char *key, uint64_t v)
{
    int rc = pack_cstr(pk, key);
    if (rc < 0) return rc;
    PK(msgpack_pack_uint64(pk, v));
    return 0;
}

/* "v" and "id": the first two entries of every message. */
static int pack_head(msgpack_packer *pk, uint64_t id)
{
    int rc;
    if ((rc = pack_key_u64(pk, "v", PROTO_VERSION)) < 0 || (rc = pack_key_u64(pk, "id", id)) < 0) return rc;
    return 0;
}

static bool bytes_ok(struct proto_bytes b)
{
    return b.ptr != NULL || b.len == 0;
}

static bool block_ok(const struct proto_block *b)
{
    return bytes_ok(b->data) && (uint64_t)b->addr + b->data.len <= (uint64_t)UINT32_MAX + 1;
}

/* {"addr": .., "data": ..} */
static int pack_block(msgpack_packer *pk, const struct proto_block *b)
{
    int rc;
    PK(msgpack_pack_map(pk, 2));
    if ((rc = pack_key_u64(pk, "addr", b->addr)) < 0 || (rc = pack_cstr(pk, "data")) < 0) return rc;
    return pack_bin(pk, b->data);
}

/* --- Requests --- */

static bool request_ok(const struct proto_request *rq)
{
    if (rq->op <= PROTO_OP_NONE || rq->op >= PROTO_OP_COUNT) return false;
    if (rq->has_token && (!bytes_ok(rq->token) || rq->token.len > GT_PROTO_MAX_TOKEN)) return false;
    if (rq->op == PROTO_OP_RENDER_DUMP && !bytes_ok(rq->dump)) return false;
    if (rq->op == PROTO_OP_RENDER_LIST) {
        if (rq->nblocks > GT_PROTO_MAX_BLOCKS || rq->nregs > GT_PROTO_MAX_REGS) return false;
        for (uint32_t i = 0; i < rq->nblocks; i++)
            if (!block_ok(&rq->blocks[i])) return false;
        if (rq->has_display && (rq->display.stride > GT_PROTO_MAX_STRIDE || rq->display.format > 3)) return false;
    }
    if (rq->op == PROTO_OP_RENDER_DUMP || rq->op == PROTO_OP_RENDER_LIST) {
        if ((rq->outputs & ~(unsigned)PROTO_OUT_ALL) || rq->nranges > GT_PROTO_MAX_VRAM_RANGES ||
            rq->threads > GT_MAX_THREADS)
            return false;
        for (uint32_t i = 0; i < rq->nranges; i++) {
            const struct proto_range *r = &rq->ranges[i];
            if (r->addr < GT_VRAM_BASE || r->len == 0 || (uint64_t)r->addr + r->len > GT_VRAM_BASE + GT_VRAM_SIZE)
                return false;
        }
        uint32_t t = rq->tile_size;
        if (t && (t < GT_TILE_SIZE_MIN || t > GT_TILE_SIZE_MAX || (t & (t - 1)))) return false;
    }
    return true;
}

static int pack_options(msgpack_packer *pk, const struct proto_request *rq)
{
    int rc, n = 0;
    for (unsigned b = 1; b <= PROTO_OUT_ALL; b <<= 1) n += (rq->outputs & b) != 0;
    if ((rc = pack_cstr(pk, "outputs")) < 0) return rc;
    PK(msgpack_pack_array(pk, (size_t)n));
    for (unsigned b = 1; b <= PROTO_OUT_ALL; b <<= 1)
        if ((rq->outputs & b) && (rc = pack_cstr(pk, proto_output_name(b))) < 0) return rc;
    if ((rc = pack_cstr(pk, "vram_ranges")) < 0) return rc;
    PK(msgpack_pack_array(pk, rq->nranges));
    for (uint32_t i = 0; i < rq->nranges; i++) {
        PK(msgpack_pack_array(pk, 2));
        PK(msgpack_pack_uint32(pk, rq->ranges[i].addr));
        PK(msgpack_pack_uint32(pk, rq->ranges[i].len));
    }
    if ((rc = pack_key_u64(pk, "replay_end", rq->replay_end)) < 0 || (rc = pack_key_u64(pk, "threads", rq->threads)) < 0 ||
        (rc = pack_key_u64(pk, "tile_size", rq->tile_size)) < 0)
        return rc;
    return 0;
}

static int pack_list(msgpack_packer *pk, const struct proto_request *rq)
{
    int rc;
    if ((rc = pack_cstr(pk, "memory")) < 0) return rc;
    PK(msgpack_pack_array(pk, rq->nblocks));
    for (uint32_t i = 0; i < rq->nblocks; i++)
        if ((rc = pack_block(pk, &rq->blocks[i])) < 0) return rc;
    if ((rc = pack_key_u64(pk, "pc", rq->pc)) < 0 || (rc = pack_key_u64(pk, "stall", rq->stall)) < 0) return rc;
    if (rq->nregs) {
        if ((rc = pack_cstr(pk, "regs")) < 0) return rc;
        PK(msgpack_pack_array(pk, rq->nregs));
        for (uint32_t i = 0; i < rq->nregs; i++) PK(msgpack_pack_uint32(pk, rq->regs[i]));
    }
    if (rq->has_display) {
        if ((rc = pack_cstr(pk, "display")) < 0) return rc;
        PK(msgpack_pack_map(pk, 3));
        if ((rc = pack_key_u64(pk, "addr", rq->display.addr)) < 0 ||
            (rc = pack_key_u64(pk, "stride", rq->display.stride)) < 0 ||
            (rc = pack_key_u64(pk, "format", rq->display.format)) < 0)
            return rc;
    }
    return 0;
}

int proto_encode_request(msgpack_packer *pk, const struct proto_request *rq)
{
    if (!request_ok(rq)) return GT_EARG;
    bool render = rq->op == PROTO_OP_RENDER_DUMP || rq->op == PROTO_OP_RENDER_LIST;
    size_t n = 3 + rq->has_token + (render ? 5 : 0);
    if (rq->op == PROTO_OP_RENDER_DUMP) n += 1;
    if (rq->op == PROTO_OP_RENDER_LIST) n += 3 + (rq->nregs != 0) + rq->has_display;
    int rc;
    PK(msgpack_pack_map(pk, n));
    if ((rc = pack_head(pk, rq->id)) < 0 || (rc = pack_cstr(pk, "op")) < 0 ||
        (rc = pack_cstr(pk, proto_op_name(rq->op))) < 0)
        return rc;
    if (rq->has_token && ((rc = pack_cstr(pk, "token")) < 0 || (rc = pack_str(pk, rq->token)) < 0)) return rc;
    if (rq->op == PROTO_OP_RENDER_DUMP && ((rc = pack_cstr(pk, "dump")) < 0 || (rc = pack_bin(pk, rq->dump)) < 0))
        return rc;
    if (rq->op == PROTO_OP_RENDER_LIST && (rc = pack_list(pk, rq)) < 0) return rc;
    if (render && (rc = pack_options(pk, rq)) < 0) return rc;
    return 0;
}

/* --- Responses --- */

static bool response_ok(const struct proto_response *rs)
{
    if (!rs->ok) return rs->error_code.len > 0 && bytes_ok(rs->error_code) && bytes_ok(rs->error_message);
    if (rs->has_outputs) {
        if (rs->outputs & ~(unsigned)PROTO_OUT_ALL) return false;
        if ((rs->outputs & PROTO_OUT_PNG) && !bytes_ok(rs->png)) return false;
        if ((rs->outputs & PROTO_OUT_RGBA) && (!rs->rgba.ptr || rs->rgba.len != PROTO_RGBA_BYTES)) return false;
        if ((rs->outputs & PROTO_OUT_DEPTH) && (!rs->depth.ptr || rs->depth.len != PROTO_DEPTH_BYTES)) return false;
        if (rs->outputs & PROTO_OUT_VRAM) {
            if (rs->nvram > GT_PROTO_MAX_VRAM_RANGES) return false;
            for (uint32_t i = 0; i < rs->nvram; i++)
                if (!block_ok(&rs->vram[i])) return false;
        }
    }
    return true;
}

static int pack_outputs(msgpack_packer *pk, const struct proto_response *rs)
{
    int rc, n = 0;
    for (unsigned b = 1; b <= PROTO_OUT_ALL; b <<= 1) n += (rs->outputs & b) != 0;
    if ((rc = pack_cstr(pk, "outputs")) < 0) return rc;
    PK(msgpack_pack_map(pk, (size_t)n));
    if ((rs->outputs & PROTO_OUT_PNG) && ((rc = pack_cstr(pk, "png")) < 0 || (rc = pack_bin(pk, rs->png)) < 0))
        return rc;
    if ((rs->outputs & PROTO_OUT_RGBA) && ((rc = pack_cstr(pk, "rgba")) < 0 || (rc = pack_bin(pk, rs->rgba)) < 0))
        return rc;
    if ((rs->outputs & PROTO_OUT_DEPTH) && ((rc = pack_cstr(pk, "depth")) < 0 || (rc = pack_bin(pk, rs->depth)) < 0))
        return rc;
    if (rs->outputs & PROTO_OUT_VRAM) {
        if ((rc = pack_cstr(pk, "vram")) < 0) return rc;
        PK(msgpack_pack_array(pk, rs->nvram));
        for (uint32_t i = 0; i < rs->nvram; i++)
            if ((rc = pack_block(pk, &rs->vram[i])) < 0) return rc;
    }
    return 0;
}

static int pack_stats(msgpack_packer *pk, const struct proto_stats *st)
{
    int rc;
    if ((rc = pack_cstr(pk, "stats")) < 0) return rc;
    PK(msgpack_pack_map(pk, 5));
    if ((rc = pack_key_u64(pk, "draws", st->draws)) < 0 || (rc = pack_key_u64(pk, "prims", st->prims)) < 0 ||
        (rc = pack_key_u64(pk, "pixels", st->pixels)) < 0 || (rc = pack_cstr(pk, "ms")) < 0)
        return rc;
    PK(msgpack_pack_double(pk, st->ms));
    if ((rc = pack_cstr(pk, "flushes")) < 0) return rc;
    PK(msgpack_pack_map(pk, BIN_FLUSH_COUNT));
    for (int r = 0; r < BIN_FLUSH_COUNT; r++)
        if ((rc = pack_key_u64(pk, binner_flush_name((enum bin_flush_reason)r), st->flushes[r])) < 0) return rc;
    return 0;
}

static int pack_server(msgpack_packer *pk, const struct proto_server_stats *s)
{
    int rc;
    if ((rc = pack_cstr(pk, "server")) < 0) return rc;
    PK(msgpack_pack_map(pk, 5));
    if ((rc = pack_key_u64(pk, "accepted", s->accepted)) < 0 || (rc = pack_key_u64(pk, "completed", s->completed)) < 0 ||
        (rc = pack_key_u64(pk, "failed", s->failed)) < 0 || (rc = pack_key_u64(pk, "in_flight", s->in_flight)) < 0 ||
        (rc = pack_key_u64(pk, "connections", s->connections)) < 0)
        return rc;
    return 0;
}

int proto_encode_response(msgpack_packer *pk, const struct proto_response *rs)
{
    if (!response_ok(rs)) return GT_EARG;
    int rc;
    if (!rs->ok) {
        PK(msgpack_pack_map(pk, 4));
        if ((rc = pack_head(pk, rs->id)) < 0 || (rc = pack_cstr(pk, "ok")) < 0) return rc;
        PK(msgpack_pack_false(pk));
        if ((rc = pack_cstr(pk, "error")) < 0) return rc;
        PK(msgpack_pack_map(pk, 2));
        if ((rc = pack_cstr(pk, "code")) < 0 || (rc = pack_str(pk, rs->error_code)) < 0 ||
            (rc = pack_cstr(pk, "message")) < 0 || (rc = pack_str(pk, rs->error_message)) < 0)
            return rc;
        return 0;
    }
    PK(msgpack_pack_map(pk, 3 + (size_t)rs->pong + rs->has_server + rs->has_outputs + rs->has_stats));
    if ((rc = pack_head(pk, rs->id)) < 0 || (rc = pack_cstr(pk, "ok")) < 0) return rc;
    PK(msgpack_pack_true(pk));
    if (rs->pong) {
        if ((rc = pack_cstr(pk, "pong")) < 0) return rc;
        PK(msgpack_pack_true(pk));
    }
    if (rs->has_server && (rc = pack_server(pk, &rs->server)) < 0) return rc;
    if (rs->has_outputs && (rc = pack_outputs(pk, rs)) < 0) return rc;
    if (rs->has_stats && (rc = pack_stats(pk, &rs->stats)) < 0) return rc;
    return 0;
}

int proto_encode_error(msgpack_packer *pk, uint64_t id, const char *code, const char *message)
{
    if (!code || !code[0]) return GT_EARG;
    struct proto_response rs = {.id = id, .ok = false};
    rs.error_code = (struct proto_bytes){(const uint8_t *)code, (uint32_t)strlen(code)};
    if (message) {
        size_t n = strlen(message);
        if (n > UINT32_MAX) return GT_EARG;
        rs.error_message = (struct proto_bytes){(const uint8_t *)message, (uint32_t)n};
    }
    return proto_encode_response(pk, &rs);
}

int proto_encode_proto_error(msgpack_packer *pk, uint64_t id, enum proto_code c, const char *message)
{
    const char *name = proto_code_name(c);
    if (!name) return GT_EARG;
    return proto_encode_error(pk, id, name, message ? message : proto_code_desc(c));
}

int proto_encode_render_error(msgpack_packer *pk, uint64_t id, const struct gt_diag *d)
{
    char code[PROTO_CODE_LEN];
    if (!d || d->code >= 0) return GT_EARG;
    return proto_encode_error(pk, id, proto_err_code(d->code, code), gt_diag_msg(d));
}
