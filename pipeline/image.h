/* RGBA images: PNG encoding (to memory or a file), PNG decoding, and the
 * comparison PPSSPP's frame tests use. */
#ifndef GETILE_IMAGE_H
#define GETILE_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "gt_error.h"

struct gt_image {
    uint32_t w, h;
    uint8_t *rgba; /* w*h*4 bytes, top row first */
};

/* Encodes an RGBA image as PNG into a new buffer (free() it). */
int gt_png_encode(const uint8_t *rgba, uint32_t w, uint32_t h, uint8_t **out, size_t *len, struct gt_diag *d);
int gt_png_write_file(const char *path, const uint8_t *rgba, uint32_t w, uint32_t h, struct gt_diag *d);
/* Writes w*h 16-bit values (host order, top row first) as a 16-bit greyscale PNG. */
int gt_png_write_gray16(const char *path, const uint16_t *px, uint32_t w, uint32_t h, struct gt_diag *d);
/* Decodes a PNG file of any color type into RGBA. */
int gt_png_read_file(const char *path, struct gt_image *img, struct gt_diag *d);
void gt_image_free(struct gt_image *img);

/* PPSSPP's frame-test comparison over the top-left cmp_w x cmp_h area: the
 * sum of squared R, G, B differences over cmp_w*cmp_h*3 (alpha ignored), and
 * how many pixels differ in R, G or B. diff (optional, w*h*4) gets an image
 * that is black where pixels agree and shows the absolute difference,
 * brightened, where they do not. */
struct gt_compare {
    double mse;
    uint64_t differing;
};
int gt_image_compare(const struct gt_image *a, const struct gt_image *b, uint32_t cmp_w, uint32_t cmp_h,
                     struct gt_compare *res, uint8_t *diff, struct gt_diag *d);

#endif
