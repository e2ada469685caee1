/* getile exact: the runner of the PSP-recorded probe jobs
 * (../shared/pspautotests-exact). Small groups built here check the runner
 * against values that do not come from getile (the README's CRCs of empty
 * readbacks, CRCs computed here of a known fill); the shared jobs are held
 * to the floor in tests/exact-floor.txt, which only ever goes up. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

/* Standard CRC-32 (reflected, 0xEDB88320), bit by bit: the test's own. */
static uint32_t crc_bitwise(uint32_t crc, const uint8_t *p, size_t n)
{
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) crc = crc & 1 ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
    }
    return ~crc;
}

/* The CRC of `rows` rows of 480 pixels that are all `px` (bpp bytes). */
static uint32_t crc_fill(uint32_t rows, const uint8_t *px, unsigned bpp)
{
    uint8_t row[480 * 4];
    for (unsigned x = 0; x < 480; x++) memcpy(row + x * bpp, px, bpp);
    uint32_t c = 0;
    for (uint32_t y = 0; y < rows; y++) c = crc_bitwise(c, row, 480 * bpp);
    return c;
}

struct tjob {
    const char *name;
    uint32_t crc, rows, readback;
    const uint32_t *list;
    uint32_t nlist;
    const uint32_t *relocs;
    uint32_t nrelocs;
};

/* Writes DIR/NAME.jobs.bin and DIR/NAME.expected in the README's format
 * (no pre lists, no writes). */
static void write_group(const char *dir, const char *name, const struct tjob *jobs, uint32_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.jobs.bin", dir, name);
    FILE *f = fopen(path, "wb");
    CHECK(f);
    fwrite(&n, 4, 1, f); /* the host is little endian, like the files */
    for (uint32_t j = 0; j < n; j++) {
        uint32_t hdr[4] = {jobs[j].rows, jobs[j].nlist, jobs[j].readback, jobs[j].nrelocs};
        fwrite(hdr, 4, 4, f);
        fwrite(jobs[j].list, 4, jobs[j].nlist, f);
        if (jobs[j].nrelocs) fwrite(jobs[j].relocs, 4, jobs[j].nrelocs, f);
        uint32_t tail[3] = {0, 0, 0}; /* no pre list (words, relocs), no writes */
        fwrite(tail, 4, 3, f);
    }
    CHECK(fclose(f) == 0);
    snprintf(path, sizeof path, "%s/%s.expected", dir, name);
    f = fopen(path, "w");
    CHECK(f);
    for (uint32_t j = 0; j < n; j++) fprintf(f, "%s: %08x\n", jobs[j].name, jobs[j].crc);
    CHECK(fclose(f) == 0);
}

static const uint32_t ret_list[] = {0x0B000000};

/* Nothing drawn: the README's check values for 272 rows of 32-bit and of
 * 16-bit zeros, read by block transfer and through the depth mirror. */
TEST(exact_empty_jobs_give_console_check_crcs)
{
    const char *dir = test_tmpdir();
    const struct tjob jobs[] = {
        {"empty colour", 0x05e627d4, 0x110, 0x0, ret_list, 1, NULL, 0},
        {"empty depth", 0x14a9e392, 0x110, 0xc0688000, ret_list, 1, NULL, 0},
    };
    write_group(dir, "g", jobs, 2);
    int st = test_getile("exact %s", dir);
    CHECK_RUN(st, 0);
    CHECK(strstr(test_out_text, "g empty colour: 05e627d4 05e627d4 match"));
    CHECK(strstr(test_out_text, "g empty depth: 14a9e392 14a9e392 match"));
    CHECK(strstr(test_out_text, "g: 2 of 2 jobs match the PSP"));
    CHECK(strstr(test_out_text, "total: 2 of 2 jobs match the PSP"));
}

/* A through-mode sprite over the whole clear area, its vertices found by a
 * relocation (kind 0x01, BASE and VADDR). The CRC is computed here from the
 * fill colour. A second job with a wrong CRC makes the run fail, unless
 * --allow-diff, and --save-dir writes its readback. */
TEST(exact_sprite_fill_and_diff)
{
    const char *dir = test_tmpdir();
    const uint32_t list[] = {
        0x00010000, 6 * 4,      /* placeholder kind 0x01: BASE, VADDR = list + 24 */
        0x1280011C,             /* VTYPE: through, 16-bit positions, 8888 colour */
        0x04060002,             /* PRIM sprites, 2 vertices */
        0x0B000000, 0,          /* RET, padding */
        0x00336699, 0, 0,       /* colour, x 0, y 0, z 0 (and padding) */
        0x00336699, 272u << 16 | 480, 0,
    };
    const uint32_t relocs[] = {0};
    const uint8_t px[4] = {0x99, 0x66, 0x33, 0x00};
    uint32_t want = crc_fill(0x110, px, 4);
    const struct tjob jobs[] = {
        {"fill", want, 0x110, 0x0, list, 12, relocs, 1},
        {"wrong", want ^ 1, 0x110, 0x0, list, 12, relocs, 1},
    };
    write_group(dir, "s", jobs, 2);
    char save[600];
    snprintf(save, sizeof save, "%s/saved", dir);
    int st = test_getile("exact %s", dir);
    CHECK_RUN(st, 1);
    CHECK(strstr(test_out_text, " match\n"));
    CHECK(strstr(test_out_text, "s wrong: "));
    CHECK(strstr(test_out_text, "DIFF"));
    CHECK(strstr(test_out_text, "total: 1 of 2 jobs match the PSP"));
    st = test_getile("exact %s --allow-diff --save-dir %s --threads 2 --tile-size 16", dir, save);
    CHECK_RUN(st, 0);
    char path[700];
    struct stat sb;
    snprintf(path, sizeof path, "%s/s-1.png", save);
    CHECK_MSG(stat(path, &sb) == 0 && sb.st_size > 0, "%s was not written", path);
    snprintf(path, sizeof path, "%s/s-0.png", save);
    CHECK_MSG(stat(path, &sb) != 0, "%s written for a matching job", path);
}

TEST(exact_rejects_malformed_groups)
{
    const char *dir = test_tmpdir();
    int st = test_getile("exact %s", dir);
    CHECK_RUN(st, 1);
    CHECK(test_contains_ci(test_err_text, "no job groups"));

    const struct tjob one[] = {{"a", 0x05e627d4, 0x110, 0, ret_list, 1, NULL, 0}};
    write_group(dir, "t", one, 1);
    char path[512];
    snprintf(path, sizeof path, "%s/t.jobs.bin", dir);
    CHECK(truncate(path, 4 * 4) == 0); /* the header is cut */
    st = test_getile("exact %s", dir);
    CHECK_RUN(st, 1);
    CHECK(test_contains_ci(test_err_text, "past the end"));

    write_group(dir, "t", one, 1);
    snprintf(path, sizeof path, "%s/t.expected", dir);
    FILE *f = fopen(path, "a");
    CHECK(f);
    fputs("b: 00000000\n", f);
    fclose(f);
    st = test_getile("exact %s", dir);
    CHECK_RUN(st, 1);
    CHECK(test_contains_ci(test_err_text, "more lines than"));

    write_group(dir, "t", one, 1);
    st = test_getile("exact %s --group nosuch", dir);
    CHECK_RUN(st, 1);
    CHECK(test_contains_ci(test_err_text, "no group 'nosuch'"));
    st = test_getile("exact %s --tile-size", dir);
    CHECK_RUN(st, 2);
}

static const char *exact_dir(void)
{
    static char buf[256];
    return test_shared_dir("pspautotests-exact", buf, sizeof buf);
}

/* The PSP's own answers: at least the floor's count of jobs match, and the
 * report is the same at other thread counts and tile sizes. */
TEST(exact_psp_jobs_reach_floor)
{
    const char *dir = exact_dir();
    if (!dir) test_skip("../shared/pspautotests-exact is absent: the PSP probe jobs are not run");
    char floor_text[64];
    test_read_text("tests/exact-floor.txt", floor_text, sizeof floor_text);
    unsigned floor = 0;
    CHECK_MSG(sscanf(floor_text, "%u", &floor) == 1 && floor > 0, "tests/exact-floor.txt holds no count");
    int st = test_getile("exact %s --allow-diff --threads 1", dir);
    CHECK_RUN(st, 0);
    static char first[sizeof test_out_text];
    memcpy(first, test_out_text, sizeof first);
    const char *t = strstr(first, "total: ");
    unsigned match = 0, total = 0;
    CHECK_MSG(t && sscanf(t, "total: %u of %u jobs", &match, &total) == 2, "no total line:\n%s", first);
    CHECK_EQ_U(total, 111);
    CHECK_MSG(match >= floor, "%u jobs match the PSP, fewer than the floor %u:\n%s", match, floor, first);
    st = test_getile("exact %s --allow-diff --threads 3 --tile-size 16", dir);
    CHECK_RUN(st, 0);
    CHECK_MSG(!strcmp(first, test_out_text), "the report changes with threads and tiles:\n%s\n---\n%s", first,
              test_out_text);
}
