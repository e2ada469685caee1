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

#include "dump.h"
#include "ge_limits.h"
#include "fuzz_context.h"
#include "render.h"

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

    struct gt_render *r = fuzz_fresh_context();
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
