/* `getile fuzz`, the determinism fuzzer: its case generator
 * (clients/fuzzgen.c, linked into the test runner) and the command as a user
 * runs it (test_getile_bin() through the shell, as in t_cli.c). */
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include "../clients/fuzzgen.h"
#include "dump.h"
#include "ge_limits.h"
#include "render.h"
#include "test.h"

/* VRAM hash of a dump replayed with the given threads and tile size. */
static uint64_t replay_vram_hash(const struct dump *dp, unsigned threads, unsigned tile)
{
    struct gt_render *r = malloc(sizeof *r);
    struct gt_diag d = {0};
    CHECK(r != NULL);
    CHECK_MSG(gt_render_init(r, &d) == 0, "%s", d.msg);
    CHECK_MSG(gt_render_set_threads(r, threads, tile, &d) == 0, "%s", d.msg);
    CHECK_MSG(gt_render_replay(r, dp, 0, &d) == 0, "%s", d.msg);
    uint64_t h = fuzz_hash(FUZZ_HASH_INIT, r->mem.vram, GT_VRAM_SIZE);
    gt_render_free(r);
    free(r);
    return h;
}

TEST(fuzz_cmd_same_seed_same_case)
{
    for (uint64_t k = 0; k < 6; k++) {
        struct fuzz_case a, b;
        CHECK_EQ_I(fuzz_case_make(&a, 7, k), 0);
        CHECK_EQ_I(fuzz_case_make(&b, 7, k), 0);
        CHECK_EQ_U(a.b.d.nrec, b.b.d.nrec);
        CHECK_EQ_U(a.b.d.data_size, b.b.d.data_size);
        CHECK(a.draws > 0 && a.draws == b.draws);
        for (uint32_t i = 0; i < a.b.d.nrec; i++) {
            const struct dump_record *x = &a.b.d.rec[i], *y = &b.b.d.rec[i];
            CHECK(x->type == y->type && x->size == y->size && x->offset == y->offset);
        }
        CHECK(memcmp(a.b.d.data, b.b.d.data, a.b.d.data_size) == 0);
        CHECK_EQ_S(a.desc, b.desc);
        /* A case is a dump: INIT first, DISPLAY last, REGISTERS between. */
        CHECK_EQ_U(a.b.d.rec[0].type, DUMP_INIT);
        CHECK_EQ_U(a.b.d.rec[a.b.d.nrec - 1].type, DUMP_DISPLAY);
        /* The next case, or the same case of another seed, differs. */
        struct fuzz_case c;
        CHECK_EQ_I(fuzz_case_make(&c, 8, k), 0);
        CHECK(c.b.d.data_size != a.b.d.data_size || memcmp(c.b.d.data, a.b.d.data, a.b.d.data_size) != 0);
        fuzz_case_free(&c);
        fuzz_case_free(&a);
        fuzz_case_free(&b);
    }
    /* The generator's stream and hash are fixed functions. */
    struct fuzz_rng r1, r2;
    fuzz_rng_seed(&r1, 1), fuzz_rng_seed(&r2, 1);
    for (int i = 0; i < 100; i++) CHECK_EQ_U(fuzz_rng_next(&r1), fuzz_rng_next(&r2));
    CHECK_EQ_U(fuzz_hash(FUZZ_HASH_INIT, "", 0), FUZZ_HASH_INIT);
    CHECK_EQ_U(fuzz_hash(FUZZ_HASH_INIT, "a", 1), 0xaf63dc4c8601ec8cull); /* FNV-1a 64 of "a" */
}

TEST(fuzz_cmd_runs_clean)
{
    int st = test_getile("fuzz --cases 3 --seed 7 --threads 1,2");
    CHECK_RUN(st, 0);
    CHECK_MSG(strstr(test_out_text, "seed 7") != NULL, "no seed printed: %s", test_out_text);
    CHECK_MSG(strstr(test_out_text, "3 cases") != NULL, "no summary: %s", test_out_text);
    CHECK_MSG(strstr(test_out_text, "0 divergences") != NULL, "%s", test_out_text);
    /* Two thread counts x five tile sizes, minus the reference's own configuration, plus the reference. */
    CHECK_MSG(strstr(test_out_text, "30 renders") != NULL, "%s", test_out_text);
}

TEST(fuzz_cmd_help)
{
    CHECK_RUN(test_getile("fuzz --help"), 0);
    CHECK(test_contains_ci(test_out_text, "usage"));
    static const char *const opts[] = {"--seconds", "--seed", "--threads", "--save-dir", "--dumps", "--cases"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        CHECK_MSG(strstr(test_out_text, opts[i]) != NULL, "help does not name %s", opts[i]);
    CHECK_MSG(test_err_text[0] == 0, "help wrote to stderr: %s", test_err_text);
}

TEST(fuzz_cmd_usage_errors)
{
    static const char *const bad[] = {"--threads 0", "--threads 65", "--threads x", "--threads 1,,2",
                                      "--threads 2,", "--threads -1", "--threads", "--threads ''"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int st = test_getile("fuzz --cases 1 %s", bad[i]);
        CHECK_MSG(st == 2, "%s: exit %d", bad[i], st);
        CHECK_MSG(strstr(test_err_text, "--threads") && test_contains_ci(test_err_text, "comma-separated"),
                  "%s: unclear message \"%s\"", bad[i], test_err_text);
        CHECK_MSG(strstr(test_out_text, "DIVERGENCE") == NULL && strstr(test_out_text, "cases") == NULL, "%s: ran: %s",
                  bad[i], test_out_text);
    }
    CHECK_RUN(test_getile("fuzz --bogus"), 2);
    CHECK(strstr(test_err_text, "--bogus") != NULL);
    CHECK_RUN(test_getile("fuzz --seconds -1"), 2);
    CHECK_RUN(test_getile("fuzz --seed x"), 2);
    CHECK_RUN(test_getile("fuzz --save-all --cases 1"), 2);
    CHECK_RUN(test_getile("fuzz --cases 1 --dumps '%s/missing'", test_tmpdir()), 2);
    CHECK(strstr(test_err_text, "missing") != NULL);
}

TEST(fuzz_cmd_saved_case_replays)
{
    const char *dir = test_tmpdir();
    int st = test_getile("fuzz --seed 7 --case 2 --threads 1 --save-dir '%s/saved' --save-all", dir);
    CHECK_RUN(st, 0);
    char path[512], text[8192];
    snprintf(path, sizeof path, "%s/saved/seed-7-case-2.txt", dir);
    CHECK_MSG(test_read_text(path, text, sizeof text) > 0, "no %s", path);
    const char *ref = strstr(text, "reference threads 1 tile 64:");
    CHECK_MSG(ref != NULL, "no reference line in %s", text);
    const char *vh = strstr(ref, "vram 0x");
    unsigned long long want = 0;
    CHECK(vh && sscanf(vh, "vram 0x%llx", &want) == 1);
    CHECK(strstr(text, "seed 7\ncase 2\n") == text);

    /* The saved file replays to the hash the fuzzer reported, and so does
     * the case generated directly. */
    snprintf(path, sizeof path, "%s/saved/seed-7-case-2.ppdmp", dir);
    struct dump dp;
    struct gt_diag d = {0};
    CHECK_MSG(dump_load_file(path, &dp, &d) == 0, "%s", d.msg);
    CHECK_EQ_U(dp.version, 6);
    CHECK_EQ_U(replay_vram_hash(&dp, 1, 16), want);
    dump_free(&dp);
    struct fuzz_case c;
    CHECK_EQ_I(fuzz_case_make(&c, 7, 2), 0);
    CHECK_EQ_U(replay_vram_hash(&c.b.d, 1, 256), want);
    fuzz_case_free(&c);

    /* getile render replays it with any configuration. */
    st = test_system("'%s' render '%s' -o '%s/out.png' --threads 3 --tile-size 32 >/dev/null", test_getile_bin(),
                     path, dir);
    CHECK_EQ_I(st, 0);
    /* Checking the saved directory as dumps works too. */
    CHECK_RUN(test_getile("fuzz --cases 0 --threads 2 --dumps '%s/saved'", dir), 0);
    CHECK_MSG(strstr(test_out_text, "1 dumps") != NULL, "%s", test_out_text);
}

/* Regression: tests/fuzz-cases/live-self-texture.ppdmp (seed 1 case 39 as
 * a gcc build generated it before fuzzgen sequenced its draws; the seed now
 * gives another case, so the case is kept as a file) draws a strip textured
 * from a texture far larger than VRAM that overlaps its own color buffer;
 * it used to read the buffer live from several tiles at once and came out
 * differently with 4, 8 and 16 threads (the binner now runs such a draw as
 * one tile). */
TEST(fuzz_cmd_live_self_texture_case)
{
    int st = test_getile("fuzz --cases 0 --threads 1,4,8 --dumps tests/fuzz-cases");
    CHECK_RUN(st, 0);
    CHECK_MSG(strstr(test_out_text, "1 dumps") != NULL, "%s", test_out_text);
    CHECK_MSG(strstr(test_out_text, "0 divergences") != NULL, "%s", test_out_text);
}
