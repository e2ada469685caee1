/* One render request on a worker thread: a fresh struct gt_render, the
 * request's thread count and tile size, the outputs it asked for, and the
 * encoded response (success or error) in job->reply.
 *
 * render_dump parses the dump from the request's bytes and replays it, then
 * reads out the display exactly as `getile render` does (same readout, same
 * PNG encoder and settings: gt_png_encode), so the PNG bytes are identical.
 *
 * render_list writes the memory blocks (each must lie wholly in PSP memory),
 * executes the initial register words directly with ge_exec_word (outside
 * any list, so no scratch memory is taken from the client; flow-control
 * words only store their value there), then runs the list from pc with the
 * request's stall address until it ends or stalls (a stall is a normal end
 * here), and reads out the request's display, or the framebuffer registers
 * (FBP, FBW, FB format) when it has none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "image.h"
#include "render.h"
#include "server.h"

/* Bytes of a response's outputs: the reply buffer is allocated once at
 * about its final size instead of growing (and copying) by doubling. */
static size_t outputs_size(const struct proto_response *rs)
{
    size_t n = (size_t)rs->png.len + rs->rgba.len + rs->depth.len;
    for (uint32_t i = 0; i < rs->nvram && i < GT_PROTO_MAX_VRAM_RANGES; i++) n += rs->vram[i].data.len;
    return n;
}

int srv_encode(const struct proto_response *rs, char **out, size_t *len)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    size_t hint = outputs_size(rs) + 1024;
    if ((sb.data = malloc(hint)) != NULL) sb.alloc = hint; /* else msgpack grows it as usual */
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    int rc = proto_encode_response(&pk, rs);
    if (rc < 0 || !sb.data || !sb.size) {
        msgpack_sbuffer_destroy(&sb);
        return rc < 0 ? rc : GT_ENOMEM;
    }
    *len = sb.size;
    *out = msgpack_sbuffer_release(&sb);
    return 0;
}

int srv_encode_error(uint64_t id, const char *code, const char *message, char **out, size_t *len)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    int rc = proto_encode_error(&pk, id, code, message);
    if (rc < 0 || !sb.data) {
        msgpack_sbuffer_destroy(&sb);
        return rc < 0 ? rc : GT_ENOMEM;
    }
    *len = sb.size;
    *out = msgpack_sbuffer_release(&sb);
    return 0;
}

/* Buffers of one render's outputs. */
struct outbufs {
    uint8_t *png, *rgba, *depth;
    size_t png_len;
    uint8_t *vram[GT_PROTO_MAX_VRAM_RANGES];
};

static void outbufs_free(struct outbufs *o)
{
    free(o->png);
    free(o->rgba);
    free(o->depth);
    for (unsigned i = 0; i < GT_PROTO_MAX_VRAM_RANGES; i++) free(o->vram[i]);
}

/* Loads memory, registers and runs the list of a render_list request. */
static int run_list(struct gt_render *r, const struct proto_request *rq, struct gt_diag *d)
{
    for (uint32_t i = 0; i < rq->nblocks; i++) {
        const struct proto_block *b = &rq->blocks[i];
        if (b->data.len == 0) continue;
        if (!mem_valid_range(&r->mem, b->addr, b->data.len))
            return gt_fail(d, GT_EBAD_ADDRESS, "memory[%u]: 0x%08x..0x%08x lies outside PSP memory", i, b->addr,
                           (uint32_t)(b->addr + b->data.len - 1));
        int rc = mem_write(&r->mem, b->addr, b->data.ptr, b->data.len, d);
        if (rc < 0) return rc;
    }
    for (uint32_t i = 0; i < rq->nregs; i++) {
        int rc = ge_exec_word(&r->ge, rq->regs[i], d);
        if (rc < 0) return rc;
    }
    r->ge.draw_limit = rq->replay_end;
    ge_list_start(&r->ge, rq->pc, rq->stall);
    int rc = ge_run(&r->ge, d);
    gt_render_finish(r);
    if (rc < 0) return rc;
    if (rq->has_display) {
        r->display.addr = rq->display.addr;
        r->display.stride = rq->display.stride;
        r->display.format = rq->display.format;
    } else {
        r->display.addr = ge_fb_addr(&r->ge.st);
        r->display.stride = ge_fb_stride(&r->ge.st);
        r->display.format = ge_fb_format(&r->ge.st);
    }
    return 0;
}

/* Renders and fills the outputs and stats of rs. */
static int render(const struct proto_request *rq, uint64_t step_budget, struct gt_render *r, bool *inited,
                  struct outbufs *o, struct proto_response *rs, struct gt_diag *d)
{
    unsigned threads = rq->threads ? rq->threads : 1;
    unsigned tile = rq->tile_size ? rq->tile_size : GT_TILE_SIZE_DEFAULT;
    int rc;
    if (threads > GT_MAX_THREADS) threads = GT_MAX_THREADS;
    if (rq->op == PROTO_OP_RENDER_DUMP) {
        struct dump dp;
        if ((rc = dump_parse(rq->dump.ptr, rq->dump.len, &dp, d)) < 0) return rc;
        if ((rc = gt_render_init(r, d)) < 0) {
            dump_free(&dp);
            return rc;
        }
        *inited = true;
        r->ge.step_budget = step_budget;
        if ((rc = gt_render_set_threads(r, threads, tile, d)) >= 0) rc = gt_render_replay(r, &dp, rq->replay_end, d);
        dump_free(&dp);
        if (rc < 0) return rc;
    } else {
        if ((rc = gt_render_init(r, d)) < 0) return rc;
        *inited = true;
        r->ge.step_budget = step_budget;
        if ((rc = gt_render_set_threads(r, threads, tile, d)) < 0) return rc;
        if ((rc = run_list(r, rq, d)) < 0) return rc;
    }

    if (rq->outputs & (PROTO_OUT_PNG | PROTO_OUT_RGBA)) {
        o->rgba = malloc(PROTO_RGBA_BYTES);
        if (!o->rgba) return gt_fail(d, GT_ENOMEM, "out of memory for the display image");
        gt_render_display_rgba(r, o->rgba, false);
        rs->rgba = (struct proto_bytes){o->rgba, PROTO_RGBA_BYTES};
    }
    if (rq->outputs & PROTO_OUT_PNG) {
        if ((rc = gt_png_encode(o->rgba, GT_IMAGE_STRIDE, GT_DISPLAY_HEIGHT, &o->png, &o->png_len, d)) < 0) return rc;
        rs->png = (struct proto_bytes){o->png, (uint32_t)o->png_len};
    }
    if (rq->outputs & PROTO_OUT_DEPTH) {
        size_t n = (size_t)GT_DISPLAY_WIDTH * GT_DISPLAY_HEIGHT;
        uint16_t *z = malloc(n * sizeof *z);
        o->depth = malloc(PROTO_DEPTH_BYTES);
        if (!z || !o->depth) {
            free(z);
            return gt_fail(d, GT_ENOMEM, "out of memory for the depth buffer");
        }
        gt_render_depth(r, z);
        for (size_t i = 0; i < n; i++) {
            o->depth[2 * i] = (uint8_t)z[i];
            o->depth[2 * i + 1] = (uint8_t)(z[i] >> 8);
        }
        free(z);
        rs->depth = (struct proto_bytes){o->depth, PROTO_DEPTH_BYTES};
    }
    if (rq->outputs & PROTO_OUT_VRAM) {
        for (uint32_t i = 0; i < rq->nranges; i++) {
            const struct proto_range *g = &rq->ranges[i];
            o->vram[i] = malloc(g->len);
            if (!o->vram[i]) return gt_fail(d, GT_ENOMEM, "out of memory for vram_ranges[%u]", i);
            mem_read(&r->mem, g->addr, o->vram[i], g->len);
            rs->vram[i] = (struct proto_block){g->addr, {o->vram[i], g->len}};
        }
        rs->nvram = rq->nranges;
    }
    rs->outputs = rq->outputs;
    rs->has_outputs = true;
    rs->has_stats = true;
    rs->stats.draws = r->ge.stats.draws;
    rs->stats.prims = r->binner.stats.prims;
    rs->stats.pixels = r->binner.stats.pixels;
    for (unsigned k = 0; k < BIN_FLUSH_COUNT; k++) rs->stats.flushes[k] = r->binner.stats.flushes[k];
    return 0;
}

void srv_render_job(struct srv_job *job)
{
    const struct proto_request *rq = &job->rq;
    struct gt_diag d = {0};
    struct outbufs o = {0};
    struct proto_response *rs = calloc(1, sizeof *rs);
    struct gt_render *r = calloc(1, sizeof *r);
    bool inited = false;
    uint64_t t0 = uv_hrtime();
    int rc;
    job->reply = NULL;
    job->reply_len = 0;
    if (!rs || !r) {
        rc = gt_fail(&d, GT_ENOMEM, "out of memory for a render context");
    } else {
        rs->id = rq->id;
        rs->ok = true;
        rc = render(rq, job->step_budget, r, &inited, &o, rs, &d);
    }
    if (rc >= 0) {
        rs->stats.ms = (double)(uv_hrtime() - t0) / 1e6;
        rc = srv_encode(rs, &job->reply, &job->reply_len);
        if (rc < 0) gt_fail(&d, rc, "cannot encode the response");
    }
    if (inited) gt_render_free(r);
    free(r);
    free(rs);
    outbufs_free(&o);
    if (rc >= 0) {
        job->ok = true;
        snprintf(job->code, sizeof job->code, "ok");
        return;
    }
    job->ok = false;
    if (d.code >= 0) d.code = rc;
    proto_err_code(d.code, job->code);
    if (srv_encode_error(rq->id, job->code, gt_diag_msg(&d), &job->reply, &job->reply_len) < 0) {
        job->reply = NULL;
        job->reply_len = 0;
    }
}
