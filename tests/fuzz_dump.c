/* libFuzzer target: frame dumps from untrusted bytes (.ppdmp or .zip).
 *
 * Every input goes through dump_parse. A failure must be a negative code
 * with a one-line message; a success must hold only valid records and
 * survive a write/parse round trip unchanged, and is then replayed (step
 * budget 50000 steps per run, no draw limit) and read out as an image
 * (and, for some inputs, a depth buffer). Built and run by `make fuzz` (seeds in
 * tests/fuzz-seeds/fuzz_dump/). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dump.h"
#include "ge_limits.h"
#include "render.h"

/* Zeroes a large buffer: whole pages are handed back to the kernel (anonymous
 * private memory, so they read as zero again; far cheaper than writing 64
 * MiB per input when a replay touched a few pages), the ragged ends memset. */
static void zero_big(uint8_t *p, size_t n)
{
    uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t a = (uintptr_t)p, b = a + n, a2 = (a + pg - 1) & ~(pg - 1), b2 = b & ~(pg - 1);
    if (b2 <= a2 || madvise((void *)a2, b2 - a2, MADV_DONTNEED) != 0) {
        memset(p, 0, n);
        return;
    }
    memset(p, 0, a2 - a);
    memset((void *)b2, 0, b - b2);
}

/* One render context for the whole run: allocated once, then returned to its
 * just-initialised state before each replay (memory zeroed, the structure
 * restored from a copy taken right after gt_render_init). */
static struct gt_render *ctx, pristine;
static int dirty;

static struct gt_render *fresh_context(void)
{
    if (!ctx) {
        struct gt_diag d = {0};
        ctx = malloc(sizeof *ctx);
        if (!ctx || gt_render_init(ctx, &d) < 0) abort();
        pristine = *ctx;
    } else if (dirty) {
        zero_big(ctx->mem.ram, GT_RAM_SIZE);
        zero_big(ctx->mem.vram, GT_VRAM_SIZE);
        memset(ctx->mem.scratch, 0, GT_SCRATCH_SIZE);
        *ctx = pristine;
    }
    dirty = 1;
    return ctx;
}

static void check_failure(int rc, const struct gt_diag *d)
{
    if (rc >= 0 || d->code != rc || !d->msg[0] || strchr(d->msg, '\n') || strchr(d->msg, '\r')) abort();
}

static int same_dump(const struct dump *a, const struct dump *b)
{
    if (a->version != b->version || strcmp(a->game_id, b->game_id) || a->nrec != b->nrec ||
        a->data_size != b->data_size)
        return 0;
    for (uint32_t i = 0; i < a->nrec; i++)
        if (a->rec[i].type != b->rec[i].type || a->rec[i].size != b->rec[i].size ||
            a->rec[i].offset != b->rec[i].offset)
            return 0;
    return a->data_size == 0 || !memcmp(a->data, b->data, a->data_size);
}

static uint8_t rgba[GT_IMAGE_STRIDE * GT_DISPLAY_HEIGHT * 4];
static uint16_t depth[GT_DISPLAY_WIDTH * GT_DISPLAY_HEIGHT];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct dump dp;
    struct gt_diag d = {0};
    int rc = dump_parse(data, size, &dp, &d);
    if (rc < 0) {
        check_failure(rc, &d);
        if (dp.rec || dp.data || dp.nrec) abort(); /* "on error *out is empty" */
        return 0;
    }
    if (dp.version < DUMP_MIN_VERSION || dp.version > DUMP_MAX_VERSION) abort();
    for (uint32_t i = 0; i < dp.nrec; i++) {
        const struct dump_record *r = &dp.rec[i];
        if (!dump_type_name(r->type) || r->offset > dp.data_size || r->size > dp.data_size - r->offset) abort();
    }

    /* What dump_write makes of it parses back to the same dump. */
    if (dp.data_size <= (1u << 20) && dp.nrec <= (1u << 16)) {
        uint8_t *out;
        size_t len;
        struct dump again;
        if (dump_write(&dp, &out, &len, &d) < 0) abort();
        if (dump_parse(out, len, &again, &d) < 0 || !same_dump(&dp, &again)) abort();
        dump_free(&again);
        free(out);
    }

    struct gt_render *r = fresh_context();
    r->ge.step_budget = 50000;
    r->ge.draw_limit = 0;
    rc = gt_render_replay(r, &dp, 0, &d);
    if (rc < 0) check_failure(rc, &d);
    /* The readouts are per pixel and dominate the time of a small replay:
     * the image always, the depth buffer for a quarter of the inputs. */
    gt_render_display_rgba(r, rgba, size & 1);
    if (size % 4 == 0) gt_render_depth(r, depth);
    dump_free(&dp);
    return 0;
}
