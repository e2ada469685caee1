/* Test context for display lists (see gehelp.h). */
#include "gehelp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

static int record_kick(void *ctx, struct ge *ge, uint32_t word, struct gt_diag *d)
{
    struct gehelp *h = ctx;
    if (word >> 24 == GE_BBOX) {
        ge->list.bbox_result = h->bbox_answer != 0;
    } else if (word >> 24 == GE_PRIM && h->nmarks < 256) {
        h->marks[h->nmarks++] = word & 0xFFFF;
    }
    return GT_OK;
}

void gh_init(struct gehelp *h)
{
    struct gt_diag d = {0};
    memset(h, 0, sizeof *h);
    CHECK_EQ_I(gt_render_init(&h->r, &d), GT_OK);
    h->r.ge.hooks.ctx = h;
    h->r.ge.hooks.kick = record_kick;
    h->bbox_answer = 1;
}

void gh_free(struct gehelp *h) { gt_render_free(&h->r); }

int gh_run(struct gehelp *h, const struct dl *l, struct gt_diag *d)
{
    for (size_t i = 0; i < l->n; i++) mem_write32(&h->r.mem, gh_addr(i), l->w[i]);
    ge_list_start(&h->r.ge, LIST_ADDR, 0);
    return ge_run(&h->r.ge, d);
}

const char *gh_marks(struct gehelp *h)
{
    static char buf[2048];
    size_t n = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < h->nmarks && n < sizeof buf - 16; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, i ? ",%u" : "%u", h->marks[i]);
    return buf;
}
