/* Names of codes, ops and outputs (generated from the tables in proto.h),
 * request defaults and value comparison. */
#include "proto.h"

#include <string.h>

const char *proto_code_name(enum proto_code c)
{
    switch (c) {
#define X(name, str, desc) case PROTO_E_##name: return str;
        PROTO_CODE_MAP(X)
#undef X
    default: return NULL;
    }
}

const char *proto_code_desc(enum proto_code c)
{
    switch (c) {
#define X(name, str, desc) case PROTO_E_##name: return desc;
        PROTO_CODE_MAP(X)
#undef X
    default: return "no error";
    }
}

const char *proto_err_code(int gt_err, char buf[PROTO_CODE_LEN])
{
    const char *n = gt_err_name(gt_err);
    size_t i = 0;
    for (; n[i] && i < PROTO_CODE_LEN - 1; i++)
        buf[i] = (n[i] >= 'A' && n[i] <= 'Z') ? (char)(n[i] - 'A' + 'a') : n[i];
    buf[i] = 0;
    return buf;
}

const char *proto_op_name(enum proto_op op)
{
    switch (op) {
#define X(name, str) case PROTO_OP_##name: return str;
        PROTO_OP_MAP(X)
#undef X
    default: return NULL;
    }
}

const char *proto_output_name(unsigned bit)
{
    switch (bit) {
#define X(name, b, str) case PROTO_OUT_##name: return str;
        PROTO_OUTPUT_MAP(X)
#undef X
    default: return NULL;
    }
}

bool proto_bytes_is(struct proto_bytes b, const char *s)
{
    size_t n = strlen(s);
    return b.len == n && (n == 0 || memcmp(b.ptr, s, n) == 0);
}

void proto_request_init(struct proto_request *rq, enum proto_op op, uint64_t id)
{
    memset(rq, 0, sizeof *rq);
    rq->id = id;
    rq->op = op;
    rq->outputs = PROTO_OUT_PNG;
    rq->nranges = 1;
    rq->ranges[0] = (struct proto_range){GT_VRAM_BASE, GT_VRAM_SIZE};
}

static bool same_bytes(struct proto_bytes a, struct proto_bytes b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

bool proto_request_same(const struct proto_request *a, const struct proto_request *b)
{
    if (a->id != b->id || a->op != b->op || a->has_token != b->has_token ||
        (a->has_token && !same_bytes(a->token, b->token)) || !same_bytes(a->dump, b->dump) ||
        a->pc != b->pc || a->stall != b->stall || a->nblocks != b->nblocks || a->nregs != b->nregs ||
        a->has_display != b->has_display || a->outputs != b->outputs || a->nranges != b->nranges ||
        a->replay_end != b->replay_end || a->threads != b->threads || a->tile_size != b->tile_size)
        return false;
    for (uint32_t i = 0; i < a->nblocks && i < GT_PROTO_MAX_BLOCKS; i++)
        if (a->blocks[i].addr != b->blocks[i].addr || !same_bytes(a->blocks[i].data, b->blocks[i].data))
            return false;
    for (uint32_t i = 0; i < a->nregs && i < GT_PROTO_MAX_REGS; i++)
        if (a->regs[i] != b->regs[i]) return false;
    for (uint32_t i = 0; i < a->nranges && i < GT_PROTO_MAX_VRAM_RANGES; i++)
        if (a->ranges[i].addr != b->ranges[i].addr || a->ranges[i].len != b->ranges[i].len) return false;
    if (a->has_display && (a->display.addr != b->display.addr || a->display.stride != b->display.stride ||
                           a->display.format != b->display.format))
        return false;
    return true;
}

bool proto_response_same(const struct proto_response *a, const struct proto_response *b)
{
    if (a->id != b->id || a->ok != b->ok) return false;
    if (!a->ok) return same_bytes(a->error_code, b->error_code) && same_bytes(a->error_message, b->error_message);
    if (a->pong != b->pong || a->has_server != b->has_server || a->has_outputs != b->has_outputs ||
        a->has_stats != b->has_stats)
        return false;
    if (a->has_server && memcmp(&a->server, &b->server, sizeof a->server) != 0) return false;
    if (a->has_outputs) {
        if (a->outputs != b->outputs || a->nvram != b->nvram) return false;
        if ((a->outputs & PROTO_OUT_PNG) && !same_bytes(a->png, b->png)) return false;
        if ((a->outputs & PROTO_OUT_RGBA) && !same_bytes(a->rgba, b->rgba)) return false;
        if ((a->outputs & PROTO_OUT_DEPTH) && !same_bytes(a->depth, b->depth)) return false;
        for (uint32_t i = 0; i < a->nvram && i < GT_PROTO_MAX_VRAM_RANGES; i++)
            if (a->vram[i].addr != b->vram[i].addr || !same_bytes(a->vram[i].data, b->vram[i].data))
                return false;
    }
    if (a->has_stats) {
        const struct proto_stats *x = &a->stats, *y = &b->stats;
        /* ms compared by bits: NaN round-trips too */
        if (x->draws != y->draws || x->prims != y->prims || x->pixels != y->pixels ||
            memcmp(&x->ms, &y->ms, sizeof x->ms) != 0 || memcmp(x->flushes, y->flushes, sizeof x->flushes) != 0)
            return false;
    }
    return true;
}
