/* PNG input/output with libpng, and image comparison (see image.h). */
#include "image.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ge_limits.h"

struct membuf {
    uint8_t *p;
    size_t len, cap;
    int failed;
};

static void mem_write_cb(png_structp png, png_bytep data, png_size_t n)
{
    struct membuf *m = png_get_io_ptr(png);
    if (m->failed) return;
    if (m->len + n > m->cap) {
        size_t cap = m->cap ? m->cap : 65536;
        while (cap < m->len + n) cap *= 2;
        uint8_t *np = realloc(m->p, cap);
        if (!np) {
            m->failed = 1;
            return;
        }
        m->p = np;
        m->cap = cap;
    }
    memcpy(m->p + m->len, data, n);
    m->len += n;
}

static void flush_cb(png_structp png) { (void)png; }

/* libpng reports through these instead of printing: an error ends in
 * png_longjmp back to the caller's setjmp, which reports it once. */
static void png_error_cb(png_structp png, png_const_charp msg)
{
    (void)msg;
    png_longjmp(png, 1);
}

static void png_warning_cb(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

/* Encodes h rows of row_bytes bytes each (already in PNG byte order) as a
 * PNG of the given bit depth and colour type. */
static int png_encode_rows(const uint8_t *px, size_t row_bytes, uint32_t w, uint32_t h, int bit_depth, int color_type,
                           uint8_t **out, size_t *len, struct gt_diag *d)
{
    struct membuf m = {0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, png_error_cb, png_warning_cb);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    png_bytep *rows = calloc(h ? h : 1, sizeof *rows);
    struct membuf *volatile mp = &m; /* read after a longjmp */
    if (!png || !info || !rows) {
        png_destroy_write_struct(&png, &info);
        free(rows);
        return gt_fail(d, GT_ENOMEM, "cannot allocate the PNG encoder");
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(rows);
        free(mp->p);
        return gt_fail(d, GT_EPNG, "PNG encoding failed");
    }
    png_set_write_fn(png, &m, mem_write_cb, flush_cb);
    png_set_IHDR(png, info, w, h, bit_depth, color_type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 6);
    for (uint32_t y = 0; y < h; y++) rows[y] = (png_bytep)(px + (size_t)y * row_bytes);
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(rows);
    if (m.failed) {
        free(m.p);
        return gt_fail(d, GT_ENOMEM, "out of memory encoding PNG");
    }
    *out = m.p;
    *len = m.len;
    return GT_OK;
}

int gt_png_encode(const uint8_t *rgba, uint32_t w, uint32_t h, uint8_t **out, size_t *len, struct gt_diag *d)
{
    return png_encode_rows(rgba, (size_t)w * 4, w, h, 8, PNG_COLOR_TYPE_RGB_ALPHA, out, len, d);
}

static int write_whole_file(const char *path, uint8_t *buf, size_t len, struct gt_diag *d)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        free(buf);
        return gt_fail(d, GT_EIO, "cannot create %s: %s", path, strerror(errno));
    }
    size_t wr = fwrite(buf, 1, len, f);
    free(buf);
    if (fclose(f) != 0 || wr != len) return gt_fail(d, GT_EIO, "cannot write %s", path);
    return GT_OK;
}

int gt_png_write_gray16(const char *path, const uint16_t *px, uint32_t w, uint32_t h, struct gt_diag *d)
{
    size_t n = (size_t)w * h;
    uint8_t *be = malloc(n ? n * 2 : 1);
    if (!be) return gt_fail(d, GT_ENOMEM, "out of memory encoding PNG");
    for (size_t i = 0; i < n; i++) { /* PNG stores 16-bit samples big endian */
        be[2 * i] = (uint8_t)(px[i] >> 8);
        be[2 * i + 1] = (uint8_t)px[i];
    }
    uint8_t *buf;
    size_t len;
    int rc = png_encode_rows(be, (size_t)w * 2, w, h, 16, PNG_COLOR_TYPE_GRAY, &buf, &len, d);
    free(be);
    if (rc < 0) return rc;
    return write_whole_file(path, buf, len, d);
}

int gt_png_write_file(const char *path, const uint8_t *rgba, uint32_t w, uint32_t h, struct gt_diag *d)
{
    uint8_t *buf;
    size_t len;
    int rc = gt_png_encode(rgba, w, h, &buf, &len, d);
    if (rc < 0) return rc;
    return write_whole_file(path, buf, len, d);
}

void gt_image_free(struct gt_image *img)
{
    free(img->rgba);
    img->rgba = NULL;
    img->w = img->h = 0;
}

int gt_png_read_file(const char *path, struct gt_image *img, struct gt_diag *d)
{
    memset(img, 0, sizeof *img);
    FILE *f = fopen(path, "rb");
    if (!f) return gt_fail(d, GT_EIO, "cannot open %s: %s", path, strerror(errno));
    uint8_t sig[8];
    if (fread(sig, 1, 8, f) != 8 || png_sig_cmp(sig, 0, 8)) {
        fclose(f);
        return gt_fail(d, GT_EFORMAT, "%s is not a PNG file", path);
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, png_error_cb, png_warning_cb);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    /* volatile: both are changed between setjmp and a possible longjmp */
    png_bytep *volatile rows = NULL;
    uint8_t *volatile pix = NULL;
    if (!png || !info) {
        png_destroy_read_struct(&png, &info, NULL);
        fclose(f);
        return gt_fail(d, GT_ENOMEM, "cannot allocate the PNG decoder");
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        fclose(f);
        free(rows);
        free(pix);
        return gt_fail(d, GT_EPNG, "%s: corrupt PNG", path);
    }
    png_init_io(png, f);
    png_set_sig_bytes(png, 8);
    png_set_user_limits(png, 16384, 16384);
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if ((uint64_t)w * h * 4 > GT_MAX_PNG_BYTES || png_get_rowbytes(png, info) != (size_t)w * 4)
        png_error(png, "unsupported size");
    pix = malloc((size_t)w * h * 4);
    rows = malloc(sizeof *rows * h);
    if (!pix || !rows) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < h; y++) rows[y] = pix + (size_t)y * w * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    fclose(f);
    free(rows);
    img->w = w;
    img->h = h;
    img->rgba = pix;
    return GT_OK;
}

int gt_image_compare(const struct gt_image *a, const struct gt_image *b, uint32_t cmp_w, uint32_t cmp_h,
                     struct gt_compare *res, uint8_t *diff, struct gt_diag *d)
{
    if (a->w != b->w || a->h != b->h)
        return gt_fail(d, GT_EARG, "images differ in size: %ux%u and %ux%u", a->w, a->h, b->w, b->h);
    if (cmp_w > a->w) cmp_w = a->w;
    if (cmp_h > a->h) cmp_h = a->h;
    uint64_t sum = 0, differing = 0;
    if (diff) memset(diff, 0, (size_t)a->w * a->h * 4);
    for (uint32_t y = 0; y < cmp_h; y++) {
        for (uint32_t x = 0; x < cmp_w; x++) {
            size_t i = ((size_t)y * a->w + x) * 4;
            int dr = a->rgba[i] - b->rgba[i], dg = a->rgba[i + 1] - b->rgba[i + 1], db = a->rgba[i + 2] - b->rgba[i + 2];
            sum += (uint64_t)(dr * dr + dg * dg + db * db);
            if (dr || dg || db) {
                differing++;
                if (diff) {
                    int c[3] = {abs(dr), abs(dg), abs(db)};
                    for (int k = 0; k < 3; k++) diff[i + k] = (uint8_t)(c[k] * 4 + 64 > 255 ? 255 : c[k] * 4 + 64);
                }
            }
            if (diff) diff[i + 3] = 255;
        }
    }
    res->mse = cmp_w && cmp_h ? (double)sum / ((double)cmp_w * cmp_h * 3) : 0.0;
    res->differing = differing;
    return GT_OK;
}
