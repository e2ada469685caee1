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
 * block transfers, then three sprites: flat, textured and blended (see
 * tests/t_sample.c for what it must show). */
void sample_build(struct dumpb *b);
/* The sample's sprites, drawn after the transfers: screen rectangle (x, y,
 * w, h) and vertex color (8888, R in the low byte). */
struct sample_sprite { int x, y, w, h; uint32_t rgba; };
extern const struct sample_sprite sample_sprites[3];
/* The sample's displayed image at (x, y) of the 512x272 output, derived
 * from its construction (not from rendering it): 8888 with the
 * framebuffer's alpha when keep_alpha, else alpha 255. */
uint32_t sample_expected(unsigned x, unsigned y, int keep_alpha);
/* The pattern's color at pixel (x, y) of the 64x64 source block, as 8888. */
uint32_t sample_texel(unsigned x, unsigned y);

#endif
