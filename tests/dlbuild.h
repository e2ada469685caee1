/* Builders the tests use. The display-list and frame-dump builders (dl_*,
 * dumpb_*) live in pipeline/dumpbuild.h, shared with `getile fuzz`; this
 * file adds the bundled sample (tests/samples/sample.ppdmp) made with them. */
#ifndef GETILE_DLBUILD_H
#define GETILE_DLBUILD_H

#include <stddef.h>
#include <stdint.h>

#include "dump.h"
#include "dumpbuild.h"
#include "ge_cmd.h"

/* The bundled sample: a dump whose display list draws a test pattern with
 * block transfers (see tests/t_sample.c for what it must show). */
void sample_build(struct dumpb *b);
/* The pattern's color at pixel (x, y) of the 64x64 source block, as 8888. */
uint32_t sample_texel(unsigned x, unsigned y);

#endif
