/* The BBOX test (docs/notes/vertex-pipeline.md §10): whether any of a
 * bounding box's vertices may be visible, for BJUMP. */
#ifndef GETILE_BBOX_H
#define GETILE_BBOX_H

#include <stdbool.h>

#include "ge.h"

/* True when the box may be visible: no plane of the drawing rectangle (and,
 * with DEPTHCLIP, of the depth range) has all tested vertices outside. */
bool bbox_test(const struct ge_state *st, const struct gt_mem *mem, uint32_t count);

#endif
