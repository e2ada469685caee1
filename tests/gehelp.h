/* A render context for tests that run display lists they build: the list
 * is written at LIST_ADDR, and every PRIM kick's count field is recorded as
 * a marker, so a test sees which parts of a list ran and in what order. */
#ifndef GETILE_GEHELP_H
#define GETILE_GEHELP_H

#include "dlbuild.h"
#include "render.h"

#define LIST_ADDR 0x08100000u

struct gehelp {
    struct gt_render r;
    uint32_t marks[256];
    unsigned nmarks;
    int bbox_answer; /* what BBOX kicks report: 1 may be visible, 0 not */
};

/* Fresh context with the marker-recording kick hook. */
void gh_init(struct gehelp *h);
void gh_free(struct gehelp *h);
/* Address of word i of a list written at LIST_ADDR. */
static inline uint32_t gh_addr(size_t i) { return LIST_ADDR + 4 * (uint32_t)i; }
/* Writes the list at LIST_ADDR and runs it; returns ge_run's code. */
int gh_run(struct gehelp *h, const struct dl *l, struct gt_diag *d);
/* "1,2,3": the markers recorded so far. */
const char *gh_marks(struct gehelp *h);

#endif
