/* The bundled sample (tests/samples/sample.ppdmp): it is what the builder
 * makes, and it renders to the image its construction implies. */
#include <stdlib.h>
#include <string.h>

#include "dlbuild.h"
#include "ge_limits.h"
#include "render.h"
#include "test.h"

#define SAMPLE_PATH "tests/samples/sample.ppdmp"

TEST(sample_file_matches_builder)
{
    struct dumpb b;
    struct dump shipped;
    struct gt_diag d = {0};
    sample_build(&b);
    if (getenv("GETILE_WRITE_SAMPLE")) {
        uint8_t *bytes;
        size_t len;
        CHECK_EQ_I(dump_write(&b.d, &bytes, &len, &d), GT_OK);
        FILE *f = fopen(SAMPLE_PATH, "wb");
        CHECK(f && fwrite(bytes, 1, len, f) == len && fclose(f) == 0);
        free(bytes);
    }
    int rc = dump_load_file(SAMPLE_PATH, &shipped, &d);
    CHECK_MSG(rc == GT_OK, "%s: %s (regenerate: GETILE_WRITE_SAMPLE=1 build/test_runner sample_file)", SAMPLE_PATH,
              d.msg);
    CHECK_EQ_U(shipped.version, b.d.version);
    CHECK_EQ_U(shipped.nrec, b.d.nrec);
    CHECK_EQ_U(shipped.data_size, b.d.data_size);
    for (uint32_t i = 0; i < shipped.nrec; i++) {
        CHECK_EQ_U(shipped.rec[i].type, b.d.rec[i].type);
        CHECK_EQ_U(shipped.rec[i].size, b.d.rec[i].size);
        CHECK_EQ_U(shipped.rec[i].offset, b.d.rec[i].offset);
    }
    CHECK_MSG(memcmp(shipped.data, b.d.data, shipped.data_size) == 0,
              "sample is stale; regenerate: GETILE_WRITE_SAMPLE=1 build/test_runner sample_file");
    dump_free(&shipped);
    dumpb_free(&b);
}

TEST(sample_renders_pattern)
{
    /* Expected image: sample_expected (dlbuild.c), derived from the
     * sample's construction. */
    struct dumpb b;
    struct gt_render *r = malloc(sizeof *r);
    struct gt_diag d = {0};
    uint8_t *rgba = malloc((size_t)GT_IMAGE_STRIDE * GT_DISPLAY_HEIGHT * 4);
    CHECK(r && rgba);
    sample_build(&b);
    CHECK_EQ_I(gt_render_init(r, &d), GT_OK);
    CHECK_EQ_I(gt_render_replay(r, &b.d, 0, &d), GT_OK);
    CHECK_EQ_U(r->ge.stats.transfers, 28);
    CHECK_EQ_U(r->ge.stats.draws, 3);
    gt_render_display_rgba(r, rgba, false);
    for (uint32_t y = 0; y < GT_DISPLAY_HEIGHT; y++) {
        for (uint32_t x = 0; x < GT_IMAGE_STRIDE; x++) {
            uint32_t want = sample_expected(x, y, 0);
            const uint8_t *p = rgba + ((size_t)y * GT_IMAGE_STRIDE + x) * 4;
            uint32_t got = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
            CHECK_MSG(got == want, "pixel (%u,%u) = 0x%08x, want 0x%08x", x, y, got, want);
        }
    }
    gt_render_free(r);
    dumpb_free(&b);
    free(r);
    free(rgba);
}
