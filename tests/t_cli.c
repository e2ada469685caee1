/* The getile command line as a user runs it: the binary (test_getile_bin())
 * run through the shell, its exit status, stdout and stderr (captured into
 * files in the test's scratch directory) and the files it writes.
 *
 * Exit statuses: 0 success, 1 failure or images over the limit, 2 usage
 * errors (clients/cli.h). Expected images and numbers are computed here from
 * the inputs the tests make, never taken from getile's own output. */
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include "dlbuild.h"
#include "dump.h"
#include "ge_limits.h"
#include "image.h"
#include "test.h"

/* --- Helpers ------------------------------------------------------------ */


static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    CHECK_MSG(p != NULL, "out of memory");
    return p;
}

/* A path in the test's scratch directory (valid for the whole test). */
static const char *tmp_path(const char *name)
{
    static char buf[64][512];
    static int next;
    CHECK_MSG(next < 64, "too many scratch paths");
    char *p = buf[next++];
    snprintf(p, 512, "%s/%s", test_tmpdir(), name);
    return p;
}


static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        if (*s == '\n') n++;
    return n;
}


/* stderr is exactly one line and names the problem. */
#define CHECK_ONE_LINE_ERROR(phrase)                                                                   \
    do {                                                                                               \
        CHECK_MSG(count_lines(test_err_text) == 1 && test_err_text[strlen(test_err_text) - 1] == '\n',                \
                  "stderr is not one line: \"%s\"", test_err_text);                                         \
        CHECK_MSG(test_contains_ci(test_err_text, (phrase)), "stderr \"%s\" does not say \"%s\"", test_err_text, (phrase)); \
    } while (0)

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK_MSG(f != NULL, "cannot create %s", path);
    CHECK(fwrite(data, 1, len, f) == len);
    CHECK(fclose(f) == 0);
}

static void write_dump_file(const char *path, const struct dump *dp)
{
    uint8_t *bytes;
    size_t len;
    struct gt_diag d = {0};
    CHECK_MSG(dump_write(dp, &bytes, &len, &d) == 0, "%s", d.msg);
    write_file(path, bytes, len);
    free(bytes);
}

/* The bundled sample, written to the scratch directory. */
static const char *sample_file(void)
{
    const char *path = tmp_path("sample.ppdmp");
    struct dumpb b;
    sample_build(&b);
    write_dump_file(path, &b.d);
    dumpb_free(&b);
    return path;
}

static void read_png(const char *path, struct gt_image *img)
{
    struct gt_diag d = {0};
    CHECK_MSG(gt_png_read_file(path, img, &d) == 0, "%s: %s", path, d.msg);
}

static const uint8_t *px(const struct gt_image *img, unsigned x, unsigned y)
{
    return img->rgba + ((size_t)y * img->w + x) * 4;
}

static void check_px(const struct gt_image *img, unsigned x, unsigned y, uint32_t rgba)
{
    const uint8_t *p = px(img, x, y);
    uint32_t got = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    CHECK_MSG(got == rgba, "pixel (%u, %u) is 0x%08x (ABGR), expected 0x%08x", x, y, got, rgba);
}

/* A 512x272 test image: a smooth pattern, alpha 255. */
static uint8_t *pattern_image(void)
{
    uint8_t *p = xmalloc((size_t)GT_IMAGE_STRIDE * GT_DISPLAY_HEIGHT * 4);
    for (unsigned y = 0; y < GT_DISPLAY_HEIGHT; y++)
        for (unsigned x = 0; x < GT_IMAGE_STRIDE; x++) {
            uint8_t *q = p + ((size_t)y * GT_IMAGE_STRIDE + x) * 4;
            q[0] = (uint8_t)(x * 3 + y), q[1] = (uint8_t)(y * 5 + 40), q[2] = (uint8_t)(x ^ y), q[3] = 255;
        }
    return p;
}

static void write_png(const char *path, const uint8_t *rgba, uint32_t w, uint32_t h)
{
    struct gt_diag d = {0};
    CHECK_MSG(gt_png_write_file(path, rgba, w, h, &d) == 0, "%s", d.msg);
}

/* --- Usage ---------------------------------------------------------------- */

TEST(cli_help)
{
    static const char *const cmds[] = {"--help", "-h", "render --help", "compare --help", "info --help",
                                       "render -h", "help"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        int st = test_getile("%s", cmds[i]);
        CHECK_MSG(st == 0, "getile %s: exit %d", cmds[i], st);
        CHECK_MSG(test_contains_ci(test_out_text, "usage"), "getile %s printed no usage: \"%s\"", cmds[i], test_out_text);
        CHECK_MSG(test_err_text[0] == 0, "getile %s wrote to stderr: \"%s\"", cmds[i], test_err_text);
    }
    /* Each command's help names its own options. */
    test_getile("render --help");
    CHECK(strstr(test_out_text, "--depth-out") && strstr(test_out_text, "--replay-end") && strstr(test_out_text, "--threads"));
    test_getile("compare --help");
    CHECK(strstr(test_out_text, "--max-mse") && strstr(test_out_text, "--diff"));
}

TEST(cli_usage_errors)
{
    int st = test_getile("%s", "");
    CHECK_RUN(st, 2);
    CHECK(test_contains_ci(test_err_text, "usage"));
    CHECK_EQ_I(test_out_text[0], 0);

    st = test_getile("frobnicate x");
    CHECK_RUN(st, 2);
    CHECK_MSG(strstr(test_err_text, "frobnicate") != NULL, "\"%s\"", test_err_text);

    const char *dump = sample_file(), *png = tmp_path("out.png");
    st = test_getile("render '%s' -o '%s' --bogus", dump, png);
    CHECK_RUN(st, 2);
    CHECK_MSG(strstr(test_err_text, "--bogus") != NULL, "\"%s\"", test_err_text);
    CHECK(!file_exists(png));

    st = test_getile("compare a.png b.png --nope");
    CHECK_RUN(st, 2);
    CHECK(strstr(test_err_text, "--nope") != NULL);

    /* Missing operands and option values. */
    CHECK_RUN(test_getile("render '%s'", dump), 2);
    CHECK(test_contains_ci(test_err_text, "-o"));
    CHECK_RUN(test_getile("render -o '%s'", png), 2);
    CHECK_RUN(test_getile("render '%s' -o", dump), 2);
    CHECK_RUN(test_getile("compare a.png"), 2);
    CHECK_RUN(test_getile("compare a.png b.png c.png"), 2);
    CHECK_RUN(test_getile("info"), 2);
    CHECK_RUN(test_getile("compare a.png b.png --max-mse -1"), 2);
    CHECK_RUN(test_getile("compare a.png b.png --max-mse x"), 2);
    CHECK(!file_exists(png));
}

TEST(cli_render_option_values)
{
    const char *dump = sample_file(), *png = tmp_path("out.png");
    CHECK_RUN(test_getile("render '%s' -o '%s' --replay-end 0", dump, png), 0);
    CHECK(file_exists(png));
    CHECK_RUN(test_getile("render '%s' -o '%s' --threads 4", dump, png), 0);
    CHECK_RUN(test_getile("render '%s' --output '%s' --threads 1 --replay-end 1000000", dump, png), 0);
    static const char *const bad[] = {"--replay-end abc", "--replay-end -1", "--replay-end ''", "--replay-end 12x",
                                      "--threads abc", "--threads -4", "--replay-end"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        remove(png);
        int st = test_getile("render '%s' -o '%s' %s", dump, png, bad[i]);
        CHECK_MSG(st == 2, "%s: exit %d", bad[i], st);
        CHECK_MSG(count_lines(test_err_text) >= 1, "%s: no message", bad[i]);
        char opt[32];
        snprintf(opt, sizeof opt, "%.*s", (int)strcspn(bad[i], " "), bad[i]);
        CHECK_MSG(strstr(test_err_text, opt) != NULL, "%s: \"%s\" does not name %s", bad[i], test_err_text, opt);
        CHECK(!file_exists(png));
    }
}

/* --- render ----------------------------------------------------------------- */

TEST(cli_render_sample)
{
    const char *dump = sample_file(), *png = tmp_path("sample.png");
    int st = test_getile("render '%s' -o '%s'", dump, png);
    CHECK_RUN(st, 0);
    CHECK_EQ_I(test_err_text[0], 0);
    struct gt_image img;
    read_png(png, &img);
    CHECK_EQ_U(img.w, 512);
    CHECK_EQ_U(img.h, 272);
    for (unsigned y = 0; y < img.h; y++)
        for (unsigned x = 0; x < img.w; x++) check_px(&img, x, y, sample_expected(x, y, 0));
    gt_image_free(&img);

    /* --keep-alpha: the framebuffer's own alpha (0x20 where cleared), and
     * the columns past the display transparent black. */
    st = test_getile("render '%s' -o '%s' --keep-alpha", dump, png);
    CHECK_RUN(st, 0);
    read_png(png, &img);
    check_px(&img, 0, 0, sample_expected(0, 0, 1));
    check_px(&img, 5, 5, sample_expected(5, 5, 1));
    check_px(&img, 500, 100, 0);
    gt_image_free(&img);
}

/* The sample in a zip renders the same image. */
TEST(cli_render_zip)
{
    const char *zip = tmp_path("sample.zip"), *png = tmp_path("zip.png");
    sample_file();
    int st = test_system("cd '%s' && python3 -c 'import zipfile; z = zipfile.ZipFile(\"sample.zip\", \"w\", "
                         "zipfile.ZIP_DEFLATED); z.write(\"sample.ppdmp\", \"dir/Game_0001.ppdmp\"); z.close()'",
                         test_tmpdir());
    if (st != 0) test_skip("python3 cannot make a zip");
    CHECK_RUN(test_getile("render '%s' -o '%s'", zip, png), 0);
    struct gt_image img;
    read_png(png, &img);
    for (unsigned y = 0; y < img.h; y += 7)
        for (unsigned x = 0; x < img.w; x += 3) check_px(&img, x, y, sample_expected(x, y, 0));
    gt_image_free(&img);
}

/* --depth-out: u32 width, u32 height (little endian), then u16 per pixel.
 * This dump puts the depth buffer (Z_PTR, Z_WIDTH in INIT) right after the
 * color buffer and fills it with a known ramp. */
TEST(cli_render_depth_out)
{
    const uint32_t zoff = 0x88000, zstride = 512;
    const uint32_t regs[] = {(uint32_t)GE_FB_PTR << 24 | 0, (uint32_t)GE_FB_WIDTH << 24 | 512,
                             (uint32_t)GE_FB_FORMAT << 24 | 3, (uint32_t)GE_Z_PTR << 24 | zoff,
                             (uint32_t)GE_Z_WIDTH << 24 | zstride};
    uint8_t *zbuf = xmalloc((size_t)zstride * 272 * 2);
    for (uint32_t y = 0; y < 272; y++)
        for (uint32_t x = 0; x < zstride; x++) {
            uint16_t v = (uint16_t)(x * 131 + y * 977);
            zbuf[(y * zstride + x) * 2] = (uint8_t)v, zbuf[(y * zstride + x) * 2 + 1] = (uint8_t)(v >> 8);
        }
    struct dumpb b;
    dumpb_init(&b, 6);
    dumpb_init_record(&b, regs, sizeof regs / sizeof regs[0]);
    /* Written through the view that unscrambles depth of a 32-bit colour
     * buffer (mem.c), which --depth-out reads. */
    dumpb_memcpy(&b, GT_VRAM_BASE + 0x600000 + zoff, zbuf, zstride * 272 * 2);
    dumpb_display(&b, 0x04000000, 512, 3);
    const char *dump = tmp_path("depth.ppdmp"), *png = tmp_path("depth.png"), *zf = tmp_path("depth.bin");
    write_dump_file(dump, &b.d);
    dumpb_free(&b);
    free(zbuf);

    CHECK_RUN(test_getile("render '%s' -o '%s' --depth-out '%s'", dump, png, zf), 0);
    static uint8_t z[8 + 480 * 272 * 2 + 16];
    FILE *f = fopen(zf, "rb");
    CHECK(f != NULL);
    size_t n = fread(z, 1, sizeof z, f);
    fclose(f);
    CHECK_EQ_U(n, 8 + 480 * 272 * 2);
    CHECK(z[0] == 0xE0 && z[1] == 0x01 && z[2] == 0 && z[3] == 0);  /* 480 */
    CHECK(z[4] == 0x10 && z[5] == 0x01 && z[6] == 0 && z[7] == 0);  /* 272 */
    for (uint32_t y = 0; y < 272; y++)
        for (uint32_t x = 0; x < 480; x++) {
            const uint8_t *p = z + 8 + (y * 480 + x) * 2;
            uint16_t want = (uint16_t)(x * 131 + y * 977), got = (uint16_t)(p[0] | p[1] << 8);
            CHECK_MSG(got == want, "depth (%u, %u) = 0x%04x, expected 0x%04x", x, y, got, want);
        }
}

/* Failures: exit 1, exactly one line on stderr naming the problem, no
 * output file. */
TEST(cli_render_bad_inputs)
{
    const char *png = tmp_path("bad.png");
    int st = test_getile("render '%s' -o '%s'", tmp_path("missing.ppdmp"), png);
    CHECK_RUN(st, 1);
    CHECK_ONE_LINE_ERROR("cannot open");
    CHECK(strstr(test_err_text, "missing.ppdmp") != NULL);
    CHECK(!file_exists(png));

    uint8_t junk[5000];
    for (size_t i = 0; i < sizeof junk; i++) junk[i] = (uint8_t)(i * 7919 >> 3);
    const char *garbage = tmp_path("garbage.ppdmp");
    write_file(garbage, junk, sizeof junk);
    CHECK_RUN(test_getile("render '%s' -o '%s'", garbage, png), 1);
    CHECK_ONE_LINE_ERROR("no PPSSPPGE magic");
    CHECK(!file_exists(png));

    /* The sample cut in half. */
    struct dumpb b;
    sample_build(&b);
    uint8_t *bytes;
    size_t len;
    struct gt_diag d = {0};
    CHECK(dump_write(&b.d, &bytes, &len, &d) == 0);
    dumpb_free(&b);
    const char *cut = tmp_path("cut.ppdmp");
    write_file(cut, bytes, len / 2);
    CHECK_RUN(test_getile("render '%s' -o '%s'", cut, png), 1);
    CHECK_ONE_LINE_ERROR("truncated");
    CHECK(!file_exists(png));

    /* An unsupported version. */
    bytes[8] = 9;
    const char *v9 = tmp_path("v9.ppdmp");
    write_file(v9, bytes, len);
    free(bytes);
    CHECK_RUN(test_getile("render '%s' -o '%s'", v9, png), 1);
    CHECK_ONE_LINE_ERROR("version 9");

    /* An empty file and a directory. */
    const char *empty = tmp_path("empty.ppdmp");
    write_file(empty, "", 0);
    CHECK_RUN(test_getile("render '%s' -o '%s'", empty, png), 1);
    CHECK_MSG(count_lines(test_err_text) == 1, "\"%s\"", test_err_text);
    CHECK_RUN(test_getile("render '%s' -o '%s'", test_tmpdir(), png), 1);
    CHECK_MSG(count_lines(test_err_text) == 1, "\"%s\"", test_err_text);
    CHECK(!file_exists(png));

    /* A dump whose replay fails (a list jumping out of memory). */
    dumpb_init(&b, 6);
    struct dl l;
    dl_init(&l);
    dl_cmd(&l, GE_BASE, 0x0C0000);
    dl_cmd(&l, GE_JUMP, 0);
    dumpb_registers(&b, &l);
    dl_free(&l);
    const char *jump = tmp_path("jump.ppdmp");
    write_dump_file(jump, &b.d);
    dumpb_free(&b);
    CHECK_RUN(test_getile("render '%s' -o '%s'", jump, png), 1);
    CHECK_ONE_LINE_ERROR("outside PSP memory");
    CHECK(!file_exists(png));

    /* An output that cannot be created. */
    CHECK_RUN(test_getile("render '%s' -o '%s'", sample_file(), tmp_path("no/such/dir/out.png")), 1);
    CHECK_ONE_LINE_ERROR("no/such/dir/out.png");
}

/* --- compare ---------------------------------------------------------------- */

TEST(cli_compare_identical)
{
    uint8_t *a = pattern_image();
    const char *pa = tmp_path("a.png");
    write_png(pa, a, 512, 272);
    CHECK_RUN(test_getile("compare '%s' '%s'", pa, pa), 0);
    CHECK_MSG(strstr(test_out_text, "MSE 0.000000, differing pixels 0") != NULL, "\"%s\"", test_out_text);
    CHECK_RUN(test_getile("compare '%s' '%s' --max-mse 0", pa, pa), 0);
    free(a);
}

/* Three pixels differ by known amounts, a fourth only in alpha (ignored):
 * the MSE is the sum of squared R, G, B differences over 480 * 272 * 3. */
TEST(cli_compare_known_difference)
{
    uint8_t *a = pattern_image(), *b = pattern_image();
    struct {
        unsigned x, y, c;
        int delta;
    } ch[] = {{10, 20, 0, 5}, {100, 200, 1, -7}, {100, 200, 2, 3}, {479, 271, 0, -100}};
    double sum = 0;
    for (size_t i = 0; i < sizeof ch / sizeof ch[0]; i++) {
        uint8_t *p = b + ((size_t)ch[i].y * 512 + ch[i].x) * 4 + ch[i].c;
        int v = *p + ch[i].delta;
        CHECK(v >= 0 && v <= 255);
        *p = (uint8_t)v;
        sum += (double)ch[i].delta * ch[i].delta;
    }
    b[(50 * 512 + 50) * 4 + 3] = 17; /* alpha only */
    /* 3 differing pixels: (10,20), (100,200) in two channels, (479,271). */
    const double mse = sum / (480.0 * 272.0 * 3.0);
    const char *pa = tmp_path("a.png"), *pb = tmp_path("b.png");
    write_png(pa, a, 512, 272);
    write_png(pb, b, 512, 272);
    char want[128];
    snprintf(want, sizeof want, "MSE %.6f, differing pixels 3", mse);

    CHECK_RUN(test_getile("compare '%s' '%s'", pa, pb), 1);
    CHECK_MSG(strstr(test_out_text, want) != NULL, "\"%s\" does not contain \"%s\"", test_out_text, want);
    CHECK_RUN(test_getile("compare '%s' '%s'", pb, pa), 1);
    CHECK_MSG(strstr(test_out_text, want) != NULL, "\"%s\" does not contain \"%s\"", test_out_text, want);
    CHECK_RUN(test_getile("compare '%s' '%s' --max-mse %.9f", pa, pb, mse * 1.01), 0);
    CHECK(strstr(test_out_text, want) != NULL);
    CHECK_RUN(test_getile("compare '%s' '%s' --max-mse %.17g", pa, pb, mse), 0); /* "up to X": X itself passes */
    CHECK_RUN(test_getile("compare '%s' '%s' --max-mse %.9f", pa, pb, mse * 0.99), 1);
    CHECK_RUN(test_getile("compare '%s' '%s' --max-mse 0", pa, pb), 1);
    CHECK_RUN(test_getile("compare '%s' '%s' --max-mse 0.1", pa, pb), 0);
    free(a);
    free(b);
}

/* PPSSPP compares the 480x272 display area only. */
TEST(cli_compare_ignores_columns_past_display)
{
    uint8_t *a = pattern_image(), *b = pattern_image();
    for (unsigned y = 0; y < 272; y++)
        for (unsigned x = 480; x < 512; x++) b[((size_t)y * 512 + x) * 4 + (x + y) % 3] ^= 0xFF;
    const char *pa = tmp_path("a.png"), *pb = tmp_path("b.png");
    write_png(pa, a, 512, 272);
    write_png(pb, b, 512, 272);
    CHECK_RUN(test_getile("compare '%s' '%s'", pa, pb), 0);
    CHECK_MSG(strstr(test_out_text, "MSE 0.000000, differing pixels 0") != NULL, "\"%s\"", test_out_text);
    /* Column 479 does count. */
    b[(7 * 512 + 479) * 4] ^= 1;
    write_png(pb, b, 512, 272);
    CHECK_RUN(test_getile("compare '%s' '%s'", pa, pb), 1);
    CHECK(strstr(test_out_text, "differing pixels 1") != NULL);
    free(a);
    free(b);
}

TEST(cli_compare_diff_image)
{
    uint8_t *a = pattern_image(), *b = pattern_image();
    b[(30 * 512 + 40) * 4 + 0] ^= 0x10;
    b[(200 * 512 + 300) * 4 + 2] ^= 0x01;
    const char *pa = tmp_path("a.png"), *pb = tmp_path("b.png"), *pd = tmp_path("d.png");
    write_png(pa, a, 512, 272);
    write_png(pb, b, 512, 272);
    CHECK_RUN(test_getile("compare '%s' '%s' --diff '%s'", pa, pb, pd), 1);
    struct gt_image d;
    read_png(pd, &d);
    CHECK_EQ_U(d.w, 512);
    CHECK_EQ_U(d.h, 272);
    for (unsigned y = 0; y < 272; y++)
        for (unsigned x = 0; x < 480; x++) {
            const uint8_t *p = px(&d, x, y);
            int marked = p[0] || p[1] || p[2];
            int differs = (x == 40 && y == 30) || (x == 300 && y == 200);
            CHECK_MSG(marked == differs, "diff pixel (%u, %u) is %s", x, y, marked ? "marked" : "black");
        }
    gt_image_free(&d);
    /* Identical images: a diff with nothing marked. */
    CHECK_RUN(test_getile("compare '%s' '%s' --diff '%s'", pa, pa, pd), 0);
    read_png(pd, &d);
    for (size_t i = 0; i < (size_t)512 * 272; i++) CHECK(!d.rgba[i * 4] && !d.rgba[i * 4 + 1] && !d.rgba[i * 4 + 2]);
    gt_image_free(&d);
    free(a);
    free(b);
}

TEST(cli_compare_bad_inputs)
{
    uint8_t *a = pattern_image();
    const char *pa = tmp_path("a.png"), *ps = tmp_path("small.png"), *pn = tmp_path("notpng.png");
    write_png(pa, a, 512, 272);
    write_png(ps, a, 480, 272); /* a different size (rows re-cut; content does not matter) */
    CHECK_RUN(test_getile("compare '%s' '%s'", pa, ps), 1);
    CHECK_ONE_LINE_ERROR("size");
    CHECK_RUN(test_getile("compare '%s' '%s'", pa, tmp_path("missing.png")), 1);
    CHECK_ONE_LINE_ERROR("missing.png");
    write_file(pn, "definitely not a PNG", 20);
    CHECK_RUN(test_getile("compare '%s' '%s'", pn, pa), 1);
    CHECK_ONE_LINE_ERROR("not a PNG");
    free(a);
}

/* A damaged PNG fails like everything else: exit 1, one line on stderr
 * (libpng's own default error printer must not add a second). */
TEST(cli_compare_corrupt_png)
{
    uint8_t *a = pattern_image();
    const char *pa = tmp_path("a.png"), *pn = tmp_path("bad.png");
    write_png(pa, a, 512, 272);
    free(a);
    /* A PNG signature, then the start of an IHDR chunk, then the end. */
    static const uint8_t sig[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R', 1, 2, 3};
    write_file(pn, sig, sizeof sig);
    CHECK_RUN(test_getile("compare '%s' '%s'", pa, pn), 1);
    CHECK_ONE_LINE_ERROR("PNG");
    /* A valid PNG cut in half. */
    FILE *f = fopen(pa, "rb");
    CHECK(f != NULL);
    static uint8_t buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    CHECK(n > 100 && n < sizeof buf);
    write_file(pn, buf, n / 2);
    CHECK_RUN(test_getile("compare '%s' '%s'", pn, pa), 1);
    CHECK_ONE_LINE_ERROR("PNG");
}

/* --- info ------------------------------------------------------------------- */

/* Checks that `info` lists each record type present in dp with its count
 * and byte total, computed here from the records. */
static void check_info_lists(const struct dump *dp)
{
    unsigned long long count[256] = {0}, bytes[256] = {0};
    for (uint32_t i = 0; i < dp->nrec; i++) count[dp->rec[i].type]++, bytes[dp->rec[i].type] += dp->rec[i].size;
    for (unsigned t = 0; t < 256; t++) {
        if (!count[t]) continue;
        const char *name = dump_type_name(t);
        CHECK(name != NULL);
        int found = 0;
        for (const char *line = test_out_text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
            char got[32];
            unsigned long long c, by;
            if (sscanf(line, " %31s %llu records %llu bytes", got, &c, &by) == 3 && !strcmp(got, name)) {
                CHECK_MSG(c == count[t] && by == bytes[t], "%s: %llu records %llu bytes, expected %llu and %llu", name,
                          c, by, count[t], bytes[t]);
                found = 1;
            }
        }
        CHECK_MSG(found, "info does not list %s:\n%s", name, test_out_text);
    }
}

TEST(cli_info)
{
    struct dumpb b;
    sample_build(&b);
    const char *dump = sample_file();
    CHECK_RUN(test_getile("info '%s'", dump), 0);
    CHECK_MSG(strstr(test_out_text, "version 6") != NULL, "\"%s\"", test_out_text);
    CHECK(strstr(test_out_text, "GETILE001") != NULL);
    check_info_lists(&b.d);
    dumpb_free(&b);

    /* A version 3 dump (no game ID) with other record types. */
    uint8_t zeros[64] = {0};
    dumpb_init(&b, 3);
    dumpb_add(&b, DUMP_TEXTURE0 + 3, zeros, 40, 0);
    dumpb_add(&b, DUMP_TEXTURE0 + 3, zeros, 24, 0);
    dumpb_add(&b, DUMP_FRAMEBUF0 + 2, zeros, 16, 0);
    dumpb_add(&b, DUMP_VERTICES, zeros, 64, 0);
    dumpb_add(&b, DUMP_REGISTERS, zeros, 8, 0);
    const char *v3 = tmp_path("v3.ppdmp");
    write_dump_file(v3, &b.d);
    CHECK_RUN(test_getile("info '%s'", v3), 0);
    CHECK(strstr(test_out_text, "version 3") != NULL);
    CHECK(strstr(test_out_text, "5 records") != NULL);
    check_info_lists(&b.d);
    CHECK(strstr(test_out_text, "INIT") == NULL);
    dumpb_free(&b);

    /* Errors: exit 1, one line. */
    const char *junk = tmp_path("junk.ppdmp");
    write_file(junk, "PPSSPPGE\x07\0\0\0", 12);
    CHECK_RUN(test_getile("info '%s'", junk), 1);
    CHECK_ONE_LINE_ERROR("version 7");
    CHECK_RUN(test_getile("info '%s'", tmp_path("nothing.ppdmp")), 1);
    CHECK_ONE_LINE_ERROR("cannot open");
}
