/* Hostile frame dumps: truncated, corrupt or garbage input, wrong magic,
 * unsupported versions, decompression bombs, broken zips, records pointing
 * outside the dump data or outside PSP memory, runaway display lists.
 *
 * The requirement: each gets a one-line error that names the problem (the
 * exact gt_err code, a message containing a phrase that names it, no line
 * break); never a crash, a hang or an unbounded allocation. Valid dumps are
 * made with the builders (tests/dlbuild.h) and dump_write, then damaged at
 * positions computed here from the format (pipeline/dump.h): an 8-byte
 * magic, a u32 version, from version 4 a 9-byte game ID and 3 bytes of
 * padding, u32 record count, u32 data size, then two blocks each a u32
 * compressed size and the bytes (snappy up to version 4, zstd from 5). */
#include <dirent.h>
#include <snappy-c.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>
#include <zstd.h>

#include "dlbuild.h"
#include "dump.h"
#include "ge_limits.h"
#include "render.h"
#include "test.h"

/* --- Helpers ------------------------------------------------------------ */

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    CHECK_MSG(p != NULL, "out of memory (%zu bytes)", n);
    return p;
}


/* The message is set, is one line, and agrees with the code. */
static void check_diag_(const char *file, int line, int rc, const struct gt_diag *d)
{
    if (d->code != rc) test_fail_(file, line, "diag code %d differs from the returned %d", d->code, rc);
    if (!d->msg[0]) test_fail_(file, line, "error %s without a message", gt_err_name(rc));
    if (strchr(d->msg, '\n') || strchr(d->msg, '\r'))
        test_fail_(file, line, "message is not one line: \"%s\"", d->msg);
}
#define CHECK_DIAG(rc, d) check_diag_(__FILE__, __LINE__, (rc), &(d))

/* rc is exactly `code`, with a one-line message containing `phrase`. */
static void expect_err_(const char *file, int line, int rc, const struct gt_diag *d, int code, const char *phrase)
{
    if (rc != code)
        test_fail_(file, line, "expected %s, got %s (%d): \"%s\"", gt_err_name(code), gt_err_name(rc), rc, d->msg);
    check_diag_(file, line, rc, d);
    if (phrase && !test_contains_ci(d->msg, phrase))
        test_fail_(file, line, "message \"%s\" does not name the problem (\"%s\")", d->msg, phrase);
}
#define EXPECT_ERR(rc, d, code, phrase) expect_err_(__FILE__, __LINE__, (rc), &(d), (code), (phrase))

static size_t header_size(uint32_t version) { return version >= 4 ? 24 : 12; }

/* Where the two compressed blocks of a written dump are (bodies, without
 * their size words). */
struct blocks {
    size_t rec_off, rec_len, data_off, data_len, end;
};

static struct blocks find_blocks(const uint8_t *b, size_t len, uint32_t version)
{
    struct blocks k;
    size_t pos = header_size(version) + 8;
    CHECK(len >= pos + 4);
    k.rec_len = get32(b + pos);
    k.rec_off = pos + 4;
    pos = k.rec_off + k.rec_len;
    CHECK(len >= pos + 4);
    k.data_len = get32(b + pos);
    k.data_off = pos + 4;
    k.end = k.data_off + k.data_len;
    CHECK(k.end <= len);
    return k;
}

static uint8_t *write_dump(const struct dump *dp, size_t *len)
{
    uint8_t *out = NULL;
    struct gt_diag d = {0};
    int rc = dump_write(dp, &out, len, &d);
    CHECK_MSG(rc == 0, "dump_write: %s", d.msg);
    return out;
}

/* A small, valid dump: INIT, a VRAM clear, one short list, DISPLAY. */
static void small_dump(struct dumpb *b, uint32_t version)
{
    static const uint32_t regs[] = {(uint32_t)GE_FB_PTR << 24 | 0, (uint32_t)GE_FB_WIDTH << 24 | 512,
                                    (uint32_t)GE_FB_FORMAT << 24 | 3};
    dumpb_init(b, version);
    dumpb_init_record(b, regs, sizeof regs / sizeof regs[0]);
    dumpb_memset(b, 0x04000000, 0x40, 4096);
    struct dl l;
    dl_init(&l);
    dl_cmd(&l, GE_NOP, 0);
    dl_cmd(&l, GE_TRX_SRC_W, 64);
    dl_cmd(&l, GE_NOP, 0x123);
    dumpb_registers(b, &l);
    dl_free(&l);
    dumpb_display(b, 0x04000000, 512, 3);
}

static uint8_t *small_dump_bytes(uint32_t version, size_t *len)
{
    struct dumpb b;
    small_dump(&b, version);
    uint8_t *out = write_dump(&b.d, len);
    dumpb_free(&b);
    return out;
}

static void check_same_dump(const struct dump *a, const struct dump *b)
{
    CHECK_EQ_U(a->version, b->version);
    CHECK_EQ_S(a->game_id, b->game_id);
    CHECK_EQ_U(a->nrec, b->nrec);
    CHECK_EQ_U(a->data_size, b->data_size);
    for (uint32_t i = 0; i < a->nrec; i++) {
        CHECK_EQ_U(a->rec[i].type, b->rec[i].type);
        CHECK_EQ_U(a->rec[i].size, b->rec[i].size);
        CHECK_EQ_U(a->rec[i].offset, b->rec[i].offset);
    }
    CHECK(a->data_size == 0 || memcmp(a->data, b->data, a->data_size) == 0);
}

/* Parses a builder's dump after writing it; the result must be valid. */
static void parse_built(const struct dumpb *b, struct dump *out)
{
    size_t len;
    uint8_t *bytes = write_dump(&b->d, &len);
    struct gt_diag d = {0};
    int rc = dump_parse(bytes, len, out, &d);
    free(bytes);
    CHECK_MSG(rc == 0, "the built dump does not parse: %s", d.msg);
}

/* Compresses with the codec of `version` (snappy below 5, zstd from 5). A
 * zstd frame states its content size unless with_size is 0. */
static uint8_t *pack(uint32_t version, const void *src, size_t n, int with_size, size_t *clen)
{
    if (version < 5) {
        size_t cap = snappy_max_compressed_length(n);
        uint8_t *out = xmalloc(cap);
        *clen = cap;
        CHECK(snappy_compress(src, n, (char *)out, clen) == SNAPPY_OK);
        return out;
    }
    size_t cap = ZSTD_compressBound(n);
    uint8_t *out = xmalloc(cap);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    CHECK(cc != NULL);
    CHECK(!ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, with_size)));
    *clen = ZSTD_compress2(cc, out, cap, src, n);
    ZSTD_freeCCtx(cc);
    CHECK(!ZSTD_isError(*clen));
    return out;
}

/* A dump assembled from a header's claims and two given block bodies. */
static uint8_t *assemble(uint32_t version, uint32_t nrec, uint32_t dsize, const uint8_t *rb, size_t rlen,
                         const uint8_t *db, size_t dlen, size_t *len)
{
    size_t h = header_size(version);
    uint8_t *out = xmalloc(h + 16 + rlen + dlen);
    memset(out, 0, h);
    memcpy(out, "PPSSPPGE", 8);
    put32(out + 8, version);
    if (version >= 4) memcpy(out + 12, "GETILE001", 9);
    put32(out + h, nrec);
    put32(out + h + 4, dsize);
    put32(out + h + 8, (uint32_t)rlen);
    if (rlen) memcpy(out + h + 12, rb, rlen);
    put32(out + h + 12 + rlen, (uint32_t)dlen);
    if (dlen) memcpy(out + h + 16 + rlen, db, dlen);
    *len = h + 16 + rlen + dlen;
    return out;
}

/* A zip, made in memory with libzip, holding the given entries. */
struct zentry {
    const char *name;
    const void *data;
    size_t len;
    int deflate;
};

static uint8_t *make_zip(const struct zentry *e, int n, size_t *len)
{
    zip_error_t err;
    zip_error_init(&err);
    zip_source_t *src = zip_source_buffer_create(NULL, 0, 0, &err);
    CHECK(src != NULL);
    zip_t *z = zip_open_from_source(src, ZIP_TRUNCATE, &err);
    CHECK_MSG(z != NULL, "zip_open_from_source: %s", zip_error_strerror(&err));
    zip_source_keep(src);
    for (int i = 0; i < n; i++) {
        zip_source_t *s = zip_source_buffer(z, e[i].data, e[i].len, 0);
        CHECK(s != NULL);
        zip_int64_t idx = zip_file_add(z, e[i].name, s, 0);
        CHECK_MSG(idx >= 0, "zip_file_add: %s", zip_strerror(z));
        CHECK(zip_set_file_compression(z, (zip_uint64_t)idx, e[i].deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0) == 0);
    }
    CHECK_MSG(zip_close(z) == 0, "zip_close: %s", zip_strerror(z));
    CHECK(zip_source_open(src) == 0);
    CHECK(zip_source_seek(src, 0, SEEK_END) == 0);
    zip_int64_t size = zip_source_tell(src);
    CHECK(size > 0);
    CHECK(zip_source_seek(src, 0, SEEK_SET) == 0);
    uint8_t *out = xmalloc((size_t)size);
    CHECK(zip_source_read(src, out, (zip_uint64_t)size) == size);
    zip_source_close(src);
    zip_source_free(src);
    zip_error_fini(&err);
    *len = (size_t)size;
    return out;
}

static struct gt_render *new_render(void)
{
    struct gt_render *r = xmalloc(sizeof *r);
    struct gt_diag d = {0};
    int rc = gt_render_init(r, &d);
    CHECK_MSG(rc == 0, "gt_render_init: %s", d.msg);
    return r;
}

static void free_render(struct gt_render *r)
{
    gt_render_free(r);
    free(r);
}

/* Writes, parses and replays a builder's dump. */
static int replay_built(struct gt_render *r, const struct dumpb *b, struct gt_diag *d)
{
    struct dump dp;
    parse_built(b, &dp);
    int rc = gt_render_replay(r, &dp, 0, d);
    dump_free(&dp);
    return rc;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 32);
}

/* --- Header ------------------------------------------------------------- */

TEST(bad_empty_input)
{
    static const uint8_t none[1] = {0};
    struct dump dp;
    struct gt_diag d = {0};
    int rc = dump_parse(none, 0, &dp, &d);
    EXPECT_ERR(rc, d, GT_EFORMAT, "magic");
    CHECK(dp.rec == NULL && dp.data == NULL && dp.nrec == 0);
}

TEST(bad_wrong_magic)
{
    size_t len;
    uint8_t *bytes = small_dump_bytes(6, &len);
    static const char *const magics[] = {"PPSSPPGF", "ppssppge", "\x89PNG\r\n\x1a\n", "XPSSPPGE", "PPSSPPG\0"};
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++) {
        uint8_t *bad = xmalloc(len);
        memcpy(bad, bytes, len);
        memcpy(bad, magics[i], 8);
        struct dump dp;
        struct gt_diag d = {0};
        int rc = dump_parse(bad, len, &dp, &d);
        EXPECT_ERR(rc, d, GT_EFORMAT, "magic");
        free(bad);
    }
    /* The undamaged dump parses (the damage above is what fails). */
    struct dump dp;
    struct gt_diag d = {0};
    CHECK_EQ_I(dump_parse(bytes, len, &dp, &d), 0);
    dump_free(&dp);
    free(bytes);
}

TEST(bad_unsupported_versions)
{
    static const uint32_t bad[] = {0, 1, 7, 8, 0x100, 0xFFFFFFFFu};
    size_t len;
    uint8_t *bytes = small_dump_bytes(6, &len);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        put32(bytes + 8, bad[i]);
        struct dump dp;
        struct gt_diag d = {0};
        int rc = dump_parse(bytes, len, &dp, &d);
        char phrase[40];
        snprintf(phrase, sizeof phrase, "version %u", bad[i]);
        EXPECT_ERR(rc, d, GT_EVERSION, phrase);
    }
    free(bytes);
    /* Every supported version round-trips. */
    for (uint32_t v = DUMP_MIN_VERSION; v <= DUMP_MAX_VERSION; v++) {
        struct dumpb b;
        small_dump(&b, v);
        struct dump dp;
        parse_built(&b, &dp);
        check_same_dump(&b.d, &dp);
        dump_free(&dp);
        dumpb_free(&b);
    }
}

/* Cut inside the magic, version or header: the input starts like a dump
 * and ends early, so it is reported as truncated. */
TEST(bad_truncated_header)
{
    char report[1024] = "";
    size_t used = 0;
    for (uint32_t v = 2; v <= 6; v++) {
        size_t len, first = 0, last = 0;
        int first_rc = 0;
        char first_msg[sizeof ((struct gt_diag *)0)->msg] = "";
        uint8_t *bytes = small_dump_bytes(v, &len);
        for (size_t n = 1; n < header_size(v) + 8; n++) {
            uint8_t *cut = xmalloc(n);
            memcpy(cut, bytes, n);
            struct dump dp;
            struct gt_diag d = {0};
            int rc = dump_parse(cut, n, &dp, &d);
            free(cut);
            CHECK_MSG(rc < 0, "version %u cut to %zu bytes parses", v, n);
            CHECK_DIAG(rc, d);
            if (rc == GT_ETRUNCATED && test_contains_ci(d.msg, "truncated")) continue;
            if (!first) first = n, first_rc = rc, snprintf(first_msg, sizeof first_msg, "%s", d.msg);
            last = n;
        }
        if (first && used < sizeof report)
            used += (size_t)snprintf(report + used, sizeof report - used,
                                     "; version %u cut to %zu..%zu bytes: %s \"%s\" (expected TRUNCATED)", v, first,
                                     last, gt_err_name(first_rc), first_msg);
        free(bytes);
    }
    CHECK_MSG(!report[0], "%s", report + 2);
}

/* Cut anywhere after the header: every length fails, never crashes. Each
 * cut copy is its own allocation so ASan sees any read past its end. */
TEST(bad_truncated_every_length)
{
    for (uint32_t v = 2; v <= 6; v++) {
        size_t len;
        uint8_t *bytes = small_dump_bytes(v, &len);
        struct blocks k = find_blocks(bytes, len, v);
        CHECK_EQ_U(k.end, len);
        for (size_t n = header_size(v) + 8; n < len; n++) {
            uint8_t *cut = xmalloc(n);
            memcpy(cut, bytes, n);
            struct dump dp;
            struct gt_diag d = {0};
            int rc = dump_parse(cut, n, &dp, &d);
            free(cut);
            CHECK_MSG(rc == GT_ETRUNCATED || rc == GT_ECORRUPT, "version %u cut to %zu of %zu bytes: got %s: \"%s\"",
                      v, n, len, gt_err_name(rc), d.msg);
            CHECK_DIAG(rc, d);
            if (rc == GT_ETRUNCATED) EXPECT_ERR(rc, d, GT_ETRUNCATED, "truncated");
            CHECK(dp.rec == NULL && dp.data == NULL);
        }
        /* The whole dump parses. */
        struct dump dp;
        struct gt_diag d = {0};
        CHECK_EQ_I(dump_parse(bytes, len, &dp, &d), 0);
        dump_free(&dp);
        free(bytes);
    }
}

/* Bytes after the two blocks (some files carry a second dump) are ignored. */
TEST(bad_trailing_bytes_ignored)
{
    for (uint32_t v = 3; v <= 6; v += 3) {
        size_t len, len2;
        uint8_t *bytes = small_dump_bytes(v, &len);
        struct dumpb b2;
        sample_build(&b2);
        uint8_t *second = write_dump(&b2.d, &len2);
        uint8_t *both = xmalloc(len + len2 + 7);
        memcpy(both, bytes, len);
        memcpy(both + len, second, len2);
        memcpy(both + len + len2, "garbage", 7);
        struct dump a, c;
        struct gt_diag d = {0};
        CHECK_EQ_I(dump_parse(bytes, len, &a, &d), 0);
        CHECK_EQ_I(dump_parse(both, len + len2 + 7, &c, &d), 0);
        check_same_dump(&a, &c);
        dump_free(&a);
        dump_free(&c);
        dumpb_free(&b2);
        free(second);
        free(both);
        free(bytes);
    }
}

/* --- Corrupt compressed blocks -------------------------------------------- */

/* Makes a snappy stream invalid: its first element becomes a copy from 65535
 * bytes back, before anything was produced (snappy format: a varint length,
 * then elements; tag low bits 10 = copy with a 2-byte offset). */
static void break_snappy(uint8_t *block, size_t len)
{
    size_t p = 0;
    while (p < len && (block[p] & 0x80)) p++;
    p++; /* the varint's last byte */
    CHECK(p + 3 <= len);
    block[p] = 0x02 | 3 << 2; /* copy 4 bytes */
    block[p + 1] = 0xFF;
    block[p + 2] = 0xFF;
}

/* Offset of the first block header of a zstd frame (RFC 8878 3.1.1: magic,
 * frame header descriptor, window descriptor unless single segment,
 * dictionary ID of 0/1/2/4 bytes, content size of 0(1)/2/4/8 bytes). */
static size_t zstd_first_block(const uint8_t *f, size_t len)
{
    CHECK(len >= 6);
    CHECK_EQ_U(get32(f), 0xFD2FB528u);
    static const size_t did[4] = {0, 1, 2, 4}, fcs[4] = {0, 2, 4, 8};
    unsigned fhd = f[4], single = (fhd >> 5) & 1;
    size_t pos = 5 + (single ? 0 : 1) + did[fhd & 3] + ((fhd >> 6) == 0 ? single : fcs[fhd >> 6]);
    CHECK(pos + 3 <= len);
    return pos;
}

static void expect_block_damage_fails(const uint8_t *bytes, size_t len, const char *phrase)
{
    struct dump dp;
    struct gt_diag d = {0};
    int rc = dump_parse(bytes, len, &dp, &d);
    EXPECT_ERR(rc, d, GT_ECORRUPT, phrase);
}

TEST(bad_corrupt_snappy_blocks)
{
    for (uint32_t v = 2; v <= 4; v++) {
        size_t len;
        uint8_t *bytes = small_dump_bytes(v, &len);
        struct blocks k = find_blocks(bytes, len, v);
        uint8_t *bad = xmalloc(len);
        memcpy(bad, bytes, len);
        break_snappy(bad + k.rec_off, k.rec_len);
        expect_block_damage_fails(bad, len, "record block");
        memcpy(bad, bytes, len);
        break_snappy(bad + k.data_off, k.data_len);
        expect_block_damage_fails(bad, len, "data block");
        /* An unterminated length varint. */
        memcpy(bad, bytes, len);
        memset(bad + k.data_off, 0xFF, k.data_len < 8 ? k.data_len : 8);
        expect_block_damage_fails(bad, len, "snappy");
        free(bad);
        free(bytes);
    }
}

TEST(bad_corrupt_zstd_blocks)
{
    for (uint32_t v = 5; v <= 6; v++) {
        size_t len;
        uint8_t *bytes = small_dump_bytes(v, &len);
        struct blocks k = find_blocks(bytes, len, v);
        uint8_t *bad = xmalloc(len);
        /* Not a zstd frame: its magic number broken. */
        memcpy(bad, bytes, len);
        bad[k.rec_off] ^= 0xFF;
        expect_block_damage_fails(bad, len, "record block");
        memcpy(bad, bytes, len);
        bad[k.data_off + 1] ^= 0x10;
        expect_block_damage_fails(bad, len, "data block");
        /* The first block header given the reserved block type 3. */
        memcpy(bad, bytes, len);
        bad[k.rec_off + zstd_first_block(bad + k.rec_off, k.rec_len)] |= 0x06;
        expect_block_damage_fails(bad, len, "record block");
        memcpy(bad, bytes, len);
        bad[k.data_off + zstd_first_block(bad + k.data_off, k.data_len)] |= 0x06;
        expect_block_damage_fails(bad, len, "data block");
        free(bad);
        free(bytes);
    }
}

/* Every single byte of both block bodies flipped, both codecs: a codec
 * without checksums may decode a flipped literal into other valid data, so
 * success is allowed; anything else must be CORRUPT with a message. */
TEST(bad_block_byte_flips)
{
    for (uint32_t v = 3; v <= 6; v += 3) {
        size_t len;
        uint8_t *bytes = small_dump_bytes(v, &len);
        struct blocks k = find_blocks(bytes, len, v);
        unsigned failures = 0, total = 0;
        for (size_t pos = k.rec_off; pos < k.end; pos++) {
            if (pos >= k.rec_off + k.rec_len && pos < k.data_off) continue; /* the data block's size word */
            static const uint8_t flips[] = {0x01, 0xFF};
            for (size_t f = 0; f < sizeof flips; f++) {
                uint8_t *bad = xmalloc(len);
                memcpy(bad, bytes, len);
                bad[pos] ^= flips[f];
                struct dump dp;
                struct gt_diag d = {0};
                int rc = dump_parse(bad, len, &dp, &d);
                free(bad);
                total++;
                if (rc == 0) {
                    dump_free(&dp);
                    continue;
                }
                failures++;
                CHECK_MSG(rc == GT_ECORRUPT, "version %u, byte %zu flipped: %s: \"%s\"", v, pos, gt_err_name(rc), d.msg);
                CHECK_DIAG(rc, d);
            }
        }
        /* Some damage is detected (a flip that is reported must be CORRUPT). */
        CHECK_MSG(failures > 0, "version %u: no flip out of %u detected", v, total);
        free(bytes);
    }
}

/* --- Decompression bombs ---------------------------------------------------- */

/* A header claiming more records or data than the limits fails with
 * TOO_BIG before any block is read: the blocks here are missing, so a
 * parser that read (and allocated for) them first would say TRUNCATED. */
TEST(bad_bomb_header_limits)
{
    struct {
        uint32_t nrec, dsize;
        int code;
        const char *phrase;
    } cases[] = {
        {GT_DUMP_MAX_COMMANDS + 1, 0, GT_ETOO_BIG, "limit"},
        {0xFFFFFFFFu, 0, GT_ETOO_BIG, "limit"},
        {0, GT_DUMP_MAX_PUSHBUF + 1, GT_ETOO_BIG, "limit"},
        {0, 0xFFFFFFFFu, GT_ETOO_BIG, "limit"},
        {0xFFFFFFFFu, 0xFFFFFFFFu, GT_ETOO_BIG, "limit"},
        /* At the limits exactly: allowed, so the missing blocks are what fails. */
        {GT_DUMP_MAX_COMMANDS, 0, GT_ETRUNCATED, "truncated"},
        {0, GT_DUMP_MAX_PUSHBUF, GT_ETRUNCATED, "truncated"},
    };
    for (uint32_t v = 3; v <= 6; v += 3) {
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            size_t len = header_size(v) + 8;
            uint8_t *hdr = xmalloc(len);
            memset(hdr, 0, len);
            memcpy(hdr, "PPSSPPGE", 8);
            put32(hdr + 8, v);
            put32(hdr + len - 8, cases[i].nrec);
            put32(hdr + len - 4, cases[i].dsize);
            struct dump dp;
            struct gt_diag d = {0};
            int rc = dump_parse(hdr, len, &dp, &d);
            free(hdr);
            EXPECT_ERR(rc, d, cases[i].code, cases[i].phrase);
        }
    }
    /* With real (tiny) blocks after the over-limit header: still TOO_BIG. */
    for (uint32_t v = 3; v <= 6; v += 3) {
        size_t rlen, dlen, len;
        uint8_t *rb = pack(v, "", 0, 1, &rlen), *db = pack(v, "x", 1, 1, &dlen);
        uint8_t *bytes = assemble(v, GT_DUMP_MAX_COMMANDS + 1, 1, rb, rlen, db, dlen, &len);
        struct dump dp;
        struct gt_diag d = {0};
        EXPECT_ERR(dump_parse(bytes, len, &dp, &d), d, GT_ETOO_BIG, "records");
        free(bytes);
        bytes = assemble(v, 0, GT_DUMP_MAX_PUSHBUF + 1, rb, rlen, db, dlen, &len);
        EXPECT_ERR(dump_parse(bytes, len, &dp, &d), d, GT_ETOO_BIG, "data");
        free(bytes);
        free(rb);
        free(db);
    }
}

/* Valid compressed blocks whose real decompressed size is not the header's
 * claim: a 1 MiB block behind a 16-byte claim (a bomb), and the reverse. */
TEST(bad_bomb_block_size_mismatch)
{
    const size_t big = 1u << 20;
    uint8_t *zeros = calloc(1, big);
    CHECK(zeros != NULL);
    for (uint32_t v = 2; v <= 6; v++) {
        size_t rlen, len;
        uint8_t *rb = pack(v, "", 0, 1, &rlen);
        for (int with_size = 1; with_size >= (v >= 5 ? 0 : 1); with_size--) {
            size_t dlen;
            uint8_t *db = pack(v, zeros, big, with_size, &dlen);
            CHECK(dlen < 64 * 1024); /* it really is a small input */
            if (v >= 5)
                CHECK_EQ_U(ZSTD_getFrameContentSize(db, dlen), with_size ? big : ZSTD_CONTENTSIZE_UNKNOWN);
            struct dump dp;
            struct gt_diag d = {0};
            /* Claims 16 bytes, holds 1 MiB. */
            uint8_t *bytes = assemble(v, 0, 16, rb, rlen, db, dlen, &len);
            EXPECT_ERR(dump_parse(bytes, len, &dp, &d), d, GT_ECORRUPT, "data block");
            free(bytes);
            /* Claims 1 MiB + 1, holds 1 MiB. */
            bytes = assemble(v, 0, (uint32_t)big + 1, rb, rlen, db, dlen, &len);
            EXPECT_ERR(dump_parse(bytes, len, &dp, &d), d, GT_ECORRUPT, "data block");
            free(bytes);
            /* The record block: 2 records claimed, an empty block. */
            bytes = assemble(v, 2, (uint32_t)big, rb, rlen, db, dlen, &len);
            EXPECT_ERR(dump_parse(bytes, len, &dp, &d), d, GT_ECORRUPT, "record block");
            free(bytes);
            /* The claim right: it parses. */
            bytes = assemble(v, 0, (uint32_t)big, rb, rlen, db, dlen, &len);
            CHECK_EQ_I(dump_parse(bytes, len, &dp, &d), 0);
            CHECK_EQ_U(dp.data_size, big);
            dump_free(&dp);
            free(bytes);
            free(db);
        }
        free(rb);
    }
    /* A snappy stream whose own length prefix claims 4 GiB - 1 while the
     * header claims 16 bytes, and one whose prefix matches the header but
     * whose elements produce less. */
    {
        size_t rlen, len;
        uint8_t *rb = pack(3, "", 0, 1, &rlen);
        static const uint8_t huge[] = {0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x00, 'a'};
        static const uint8_t shorter[] = {16, 0x0C, 'a', 'b', 'c', 'd'}; /* literal of 4 */
        struct dump dp;
        struct gt_diag d = {0};
        uint8_t *bytes = assemble(3, 0, 16, rb, rlen, huge, sizeof huge, &len);
        EXPECT_ERR(dump_parse(bytes, len, &dp, &d), d, GT_ECORRUPT, "data block");
        free(bytes);
        bytes = assemble(3, 0, 16, rb, rlen, shorter, sizeof shorter, &len);
        EXPECT_ERR(dump_parse(bytes, len, &dp, &d), d, GT_ECORRUPT, "data block");
        free(bytes);
        free(rb);
    }
    free(zeros);
}

/* --- Zips ------------------------------------------------------------------ */

TEST(bad_zip_round_trip)
{
    struct dumpb b;
    sample_build(&b);
    size_t len, zlen;
    uint8_t *bytes = write_dump(&b.d, &len);
    static const char readme[] = "not a dump\n";
    for (int deflate = 0; deflate <= 1; deflate++) {
        struct zentry e[] = {
            {"readme.txt", readme, sizeof readme - 1, deflate},
            {"frames/Game_0001.PPDMP", bytes, len, deflate},
        };
        uint8_t *zip = make_zip(e, 2, &zlen);
        CHECK(zip[0] == 'P' && zip[1] == 'K' && zip[2] == 3 && zip[3] == 4);
        struct dump dp;
        struct gt_diag d = {0};
        int rc = dump_parse(zip, zlen, &dp, &d);
        CHECK_MSG(rc == 0, "zip (deflate %d): %s", deflate, d.msg);
        check_same_dump(&b.d, &dp);
        dump_free(&dp);
        free(zip);
    }
    free(bytes);
    dumpb_free(&b);
}

/* An entry not named .ppdmp is found by the dump magic at its start. */
TEST(bad_zip_entry_found_by_magic)
{
    size_t len, zlen;
    uint8_t *bytes = small_dump_bytes(4, &len);
    static const char notes[] = "PPSSPP notes, not a dump";
    struct zentry e[] = {
        {"docs/", "", 0, 0},
        {"notes.txt", notes, sizeof notes - 1, 1},
        {"short", "PPS", 3, 0},
        {"capture.bin", bytes, len, 1},
    };
    uint8_t *zip = make_zip(e, 4, &zlen);
    struct dump dp, want;
    struct gt_diag d = {0};
    CHECK_EQ_I(dump_parse(bytes, len, &want, &d), 0);
    int rc = dump_parse(zip, zlen, &dp, &d);
    CHECK_MSG(rc == 0, "%s", d.msg);
    check_same_dump(&want, &dp);
    CHECK_EQ_U(dp.version, 4);
    dump_free(&dp);
    dump_free(&want);
    free(zip);
    free(bytes);
}

TEST(bad_zip_without_dump)
{
    static const char a[] = "hello", c[] = "PPSSPPGX and more bytes";
    struct zentry e[] = {{"readme.txt", a, sizeof a - 1, 1}, {"dir/other.dat", c, sizeof c - 1, 0}};
    size_t zlen;
    uint8_t *zip = make_zip(e, 2, &zlen);
    struct dump dp;
    struct gt_diag d = {0};
    EXPECT_ERR(dump_parse(zip, zlen, &dp, &d), d, GT_EFORMAT, "no frame dump");
    free(zip);
    /* An empty zip (only an end-of-central-directory record, "PK\5\6"). */
    static const uint8_t empty[22] = {'P', 'K', 5, 6};
    EXPECT_ERR(dump_parse(empty, sizeof empty, &dp, &d), d, GT_EFORMAT, "zip");
}

/* A .ppdmp inside a zip gets the same checks as one outside. */
TEST(bad_zip_holding_bad_dump)
{
    size_t len, zlen;
    uint8_t *bytes = small_dump_bytes(6, &len);
    struct zentry e[] = {{"cut.ppdmp", bytes, len - 5, 1}};
    uint8_t *zip = make_zip(e, 1, &zlen);
    struct dump dp;
    struct gt_diag d = {0};
    EXPECT_ERR(dump_parse(zip, zlen, &dp, &d), d, GT_ETRUNCATED, "truncated");
    free(zip);
    put32(bytes + 8, 7);
    e[0].len = len;
    zip = make_zip(e, 1, &zlen);
    EXPECT_ERR(dump_parse(zip, zlen, &dp, &d), d, GT_EVERSION, "version 7");
    free(zip);
    free(bytes);
}

TEST(bad_zip_corrupt)
{
    /* A valid local header signature, then garbage. */
    uint8_t junk[300];
    memcpy(junk, "PK\3\4", 4);
    for (size_t i = 4; i < sizeof junk; i++) junk[i] = (uint8_t)(i * 37 + 11);
    struct dump dp;
    struct gt_diag d = {0};
    EXPECT_ERR(dump_parse(junk, sizeof junk, &dp, &d), d, GT_ECORRUPT, "zip");
    /* Just the signature. */
    EXPECT_ERR(dump_parse(junk, 4, &dp, &d), d, GT_ECORRUPT, "zip");

    /* A real zip cut at every length: the central directory is at the end,
     * so every prefix fails. */
    size_t len, zlen;
    uint8_t *bytes = small_dump_bytes(6, &len);
    struct zentry e[] = {{"a.ppdmp", bytes, len, 1}};
    uint8_t *zip = make_zip(e, 1, &zlen);
    for (size_t n = 0; n < zlen; n++) {
        uint8_t *cut = xmalloc(n);
        memcpy(cut, zip, n);
        int rc = dump_parse(cut, n, &dp, &d);
        free(cut);
        CHECK_MSG(rc < 0, "zip cut to %zu of %zu bytes parses", n, zlen);
        CHECK_DIAG(rc, d);
    }
    /* Every byte flipped: no crash; a failure has a one-line message. */
    for (size_t pos = 0; pos < zlen; pos++) {
        uint8_t *bad = xmalloc(zlen);
        memcpy(bad, zip, zlen);
        bad[pos] ^= 0xA5;
        int rc = dump_parse(bad, zlen, &dp, &d);
        free(bad);
        if (rc == 0)
            dump_free(&dp);
        else
            CHECK_DIAG(rc, d);
    }
    free(zip);
    free(bytes);
}

/* A zip whose central directory claims an entry far larger than
 * GT_DUMP_MAX_FILE is refused from the claim, before anything is inflated. */
TEST(bad_zip_entry_claims_huge_size)
{
    size_t len, zlen;
    uint8_t *bytes = small_dump_bytes(6, &len);
    struct zentry e[] = {{"big.ppdmp", bytes, len, 1}};
    uint8_t *zip = make_zip(e, 1, &zlen);
    /* The central directory entry ("PK\1\2"): uncompressed size at +24
     * (APPNOTE 4.3.12); the local header ("PK\3\4") at +22 (4.3.7). */
    size_t cd = 0;
    for (size_t i = 0; i + 4 <= zlen; i++)
        if (!memcmp(zip + i, "PK\1\2", 4)) cd = i;
    CHECK(cd > 0 && cd + 46 <= zlen);
    CHECK_EQ_U(get32(zip + cd + 24), len);
    CHECK_EQ_U(get32(zip + 22), len);
    put32(zip + cd + 24, 0xF0000000u);
    put32(zip + 22, 0xF0000000u);
    struct dump dp;
    struct gt_diag d = {0};
    int rc = dump_parse(zip, zlen, &dp, &d);
    EXPECT_ERR(rc, d, GT_ETOO_BIG, "limit");
    CHECK(test_contains_ci(d.msg, "big.ppdmp"));
    free(zip);
    free(bytes);
}

/* --- Records --------------------------------------------------------------- */

TEST(bad_record_outside_data)
{
    struct dumpb b;
    small_dump(&b, 6);
    uint32_t dsize = b.d.data_size;
    const uint32_t idx = 2; /* the REGISTERS record */
    CHECK_EQ_U(b.d.rec[idx].type, DUMP_REGISTERS);
    struct {
        uint32_t offset, size;
        int code;
    } t[] = {
        {dsize - 4, 8, GT_ECORRUPT},           /* runs 4 bytes past the end */
        {dsize + 1, 0, GT_ECORRUPT},           /* starts past the end */
        {0xFFFFFFF0u, 0x20, GT_ECORRUPT},      /* offset + size wraps to 0x10 */
        {0x10, 0xFFFFFFF8u, GT_ECORRUPT},      /* size wraps */
        {0xFFFFFFFFu, 0xFFFFFFFFu, GT_ECORRUPT},
        {dsize, 0, 0},                         /* empty, at the very end: valid */
        {dsize - 8, 8, 0},                     /* the last 8 bytes: valid */
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        struct dump_record save = b.d.rec[idx];
        b.d.rec[idx].offset = t[i].offset;
        b.d.rec[idx].size = t[i].size;
        size_t len;
        uint8_t *bytes = write_dump(&b.d, &len);
        b.d.rec[idx] = save;
        struct dump dp;
        struct gt_diag d = {0};
        int rc = dump_parse(bytes, len, &dp, &d);
        free(bytes);
        if (t[i].code == 0) {
            CHECK_MSG(rc == 0, "case %zu: %s", i, d.msg);
            CHECK_EQ_U(dp.rec[idx].offset, t[i].offset);
            dump_free(&dp);
            continue;
        }
        EXPECT_ERR(rc, d, t[i].code, "outside the dump data");
        CHECK_MSG(test_contains_ci(d.msg, "record 2"), "message does not name the record: \"%s\"", d.msg);
    }
    dumpb_free(&b);
}

TEST(bad_record_unknown_type)
{
    static const unsigned types[] = {12, 13, 15, 0x20, 0x7F, 0xFF};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        struct dumpb b;
        small_dump(&b, 6);
        dumpb_add(&b, types[i], "abcd", 4, 0);
        size_t len;
        uint8_t *bytes = write_dump(&b.d, &len);
        struct dump dp;
        struct gt_diag d = {0};
        char phrase[32], rec[32];
        snprintf(phrase, sizeof phrase, "unknown type %u", types[i]);
        snprintf(rec, sizeof rec, "record %u", b.d.nrec - 1);
        EXPECT_ERR(dump_parse(bytes, len, &dp, &d), d, GT_ECORRUPT, phrase);
        CHECK_MSG(test_contains_ci(d.msg, rec), "message does not name the record: \"%s\"", d.msg);
        free(bytes);
        dumpb_free(&b);
    }
    /* The known types just below and above the gaps parse. */
    static const unsigned known[] = {DUMP_EDRAMTRANS, DUMP_TEXTURE0, DUMP_TEXTURE7, DUMP_FRAMEBUF7};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        struct dumpb b;
        small_dump(&b, 6);
        uint8_t data[16] = {0};
        dumpb_add(&b, known[i], data, 16, 0);
        struct dump dp;
        parse_built(&b, &dp);
        dump_free(&dp);
        dumpb_free(&b);
    }
}

/* Records shorter than their fixed layout: INIT's 17 header words, MEMSET
 * (dest, value, size), MEMCPYDEST (dest), DISPLAY (addr, stride, format),
 * CLUTADDR (addr, flags), EDRAMTRANS (value), FRAMEBUF (addr, bufw, flags,
 * pad before the pixels). */
TEST(bad_record_too_small)
{
    struct {
        unsigned type;
        uint32_t min;
        const char *name;
    } t[] = {
        {DUMP_INIT, 68, "INIT"},         {DUMP_MEMSET, 12, "MEMSET"},   {DUMP_MEMCPYDEST, 4, "MEMCPYDEST"},
        {DUMP_DISPLAY, 12, "DISPLAY"},   {DUMP_CLUTADDR, 8, "CLUTADDR"}, {DUMP_EDRAMTRANS, 4, "EDRAMTRANS"},
        {DUMP_FRAMEBUF0, 16, "FRAMEBUF0"}, {DUMP_FRAMEBUF0 + 5, 16, "FRAMEBUF5"},
    };
    static const uint8_t zeros[128] = {0};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        const uint32_t sizes[3] = {0, t[i].min - 1, t[i].min};
        for (int k = 0; k < 3; k++) {
            struct dumpb b;
            dumpb_init(&b, 6);
            dumpb_add(&b, DUMP_REGISTERS, zeros, 8, 0);
            dumpb_add(&b, t[i].type, zeros, sizes[k], 0);
            size_t len;
            uint8_t *bytes = write_dump(&b.d, &len);
            struct dump dp;
            struct gt_diag d = {0};
            int rc = dump_parse(bytes, len, &dp, &d);
            free(bytes);
            dumpb_free(&b);
            if (k == 2) {
                CHECK_MSG(rc == 0, "%s of %u bytes: %s", t[i].name, sizes[k], d.msg);
                dump_free(&dp);
            } else {
                EXPECT_ERR(rc, d, GT_ECORRUPT, t[i].name);
                CHECK_MSG(test_contains_ci(d.msg, "record 1"), "\"%s\"", d.msg);
            }
        }
    }
}

/* 100 bytes passes the parser's INIT minimum (68) but is far short of the
 * saved GE context the replay reads: the replay refuses it. */
TEST(bad_init_too_small_for_replay)
{
    uint8_t init[100];
    for (size_t i = 0; i < sizeof init; i++) init[i] = (uint8_t)i;
    struct dumpb b;
    dumpb_init(&b, 6);
    dumpb_add(&b, DUMP_INIT, init, sizeof init, 0);
    struct gt_render *r = new_render();
    struct gt_diag d = {0};
    EXPECT_ERR(replay_built(r, &b, &d), d, GT_ECORRUPT, "INIT");
    CHECK(test_contains_ci(d.msg, "record 0"));
    free_render(r);
    dumpb_free(&b);
}

/* --- Replay: addresses outside PSP memory ----------------------------------- */

static int vram_all_zero(const struct gt_render *r)
{
    for (size_t i = 0; i < GT_VRAM_SIZE; i++)
        if (r->mem.vram[i]) return 0;
    return 1;
}

TEST(bad_replay_memset_outside_memory)
{
    struct dumpb b;
    dumpb_init(&b, 6);
    dumpb_memset(&b, 0x04000000, 0x77, 0x10000000); /* 256 MiB from VRAM: leaves memory at 0x05000000 */
    struct gt_render *r = new_render();
    struct gt_diag d = {0};
    EXPECT_ERR(replay_built(r, &b, &d), d, GT_EBAD_ADDRESS, "outside PSP memory");
    CHECK(test_contains_ci(d.msg, "MEMSET"));
    CHECK(test_contains_ci(d.msg, "record 0"));
    CHECK_MSG(vram_all_zero(r), "a refused MEMSET wrote part of its range");
    free_render(r);
    dumpb_free(&b);

    /* A copy running off the end of the VRAM mirrors (0x04FFFFFF). */
    uint8_t data[64];
    memset(data, 0x5C, sizeof data);
    dumpb_init(&b, 6);
    dumpb_memcpy(&b, 0x04FFFFF0, data, sizeof data);
    r = new_render();
    EXPECT_ERR(replay_built(r, &b, &d), d, GT_EBAD_ADDRESS, "outside PSP memory");
    CHECK(test_contains_ci(d.msg, "MEMCPYDATA"));
    CHECK_MSG(vram_all_zero(r), "a refused copy wrote part of its range");
    free_render(r);
    dumpb_free(&b);

    /* The same MEMSET inside VRAM, as a positive control. */
    dumpb_init(&b, 6);
    dumpb_memset(&b, 0x04000000, 0x77, GT_VRAM_SIZE);
    r = new_render();
    CHECK_EQ_I(replay_built(r, &b, &d), 0);
    CHECK_EQ_U(r->mem.vram[0], 0x77);
    CHECK_EQ_U(r->mem.vram[GT_VRAM_SIZE - 1], 0x77);
    free_render(r);
    dumpb_free(&b);
}

/* 0x04000000-0x04FFFFFF is all VRAM: a copy across 0x04200000 continues
 * into the next 2 MiB view instead of failing. */
TEST(bad_replay_memcpy_wraps_vram)
{
    uint8_t data[64];
    for (unsigned i = 0; i < sizeof data; i++) data[i] = (uint8_t)(0xA0 + i);
    struct dumpb b;
    dumpb_init(&b, 6);
    dumpb_memcpy(&b, 0x041FFFF0, data, sizeof data);
    struct gt_render *r = new_render();
    struct gt_diag d = {0};
    int rc = replay_built(r, &b, &d);
    CHECK_MSG(rc == 0, "%s", d.msg);
    CHECK_EQ_U(r->stats.vram_writes, 1);
    /* The first 16 bytes end view 0, which is linear VRAM. */
    CHECK(memcmp(r->mem.vram + GT_VRAM_SIZE - 16, data, 16) == 0);
    /* All 64 read back through the same addresses. */
    uint8_t back[64];
    mem_read(&r->mem, 0x041FFFF0, back, sizeof back);
    CHECK(memcmp(back, data, sizeof data) == 0);
    free_render(r);
    dumpb_free(&b);
}

/* Old dumps carry MEMCPYDATA with no MEMCPYDEST before it (a recorder bug):
 * skipped, not an error, nothing written. */
TEST(bad_replay_memcpydata_without_dest)
{
    uint8_t data[256];
    memset(data, 0xEE, sizeof data);
    struct dumpb b;
    dumpb_init(&b, 6);
    dumpb_add(&b, DUMP_MEMCPYDATA, data, sizeof data, 0);
    struct gt_render *r = new_render();
    struct gt_diag d = {0};
    int rc = replay_built(r, &b, &d);
    CHECK_MSG(rc == 0, "%s", d.msg);
    CHECK_EQ_U(r->stats.vram_writes, 0);
    CHECK_EQ_U(r->stats.skipped_writes, 1);
    CHECK(vram_all_zero(r));
    free_render(r);
    dumpb_free(&b);
}

/* A CLUT recorded at an address that is not mapped (or whose range leaves
 * memory) is skipped without error; a mapped one is written. */
TEST(bad_replay_clut_unmapped)
{
    uint8_t clut[64];
    for (unsigned i = 0; i < sizeof clut; i++) clut[i] = (uint8_t)(i + 1);
    struct dumpb b;
    dumpb_init(&b, 6);
    dumpb_clutaddr(&b, 0x0C000000, 0);
    dumpb_add(&b, DUMP_CLUT, clut, sizeof clut, 0);
    dumpb_clutaddr(&b, 0x0BFFFFF0, 0); /* the last 16 bytes of RAM, then beyond */
    dumpb_add(&b, DUMP_CLUT, clut, sizeof clut, 0);
    dumpb_clutaddr(&b, 0x04100000, 0); /* VRAM: written */
    dumpb_add(&b, DUMP_CLUT, clut, sizeof clut, 0);
    struct gt_render *r = new_render();
    struct gt_diag d = {0};
    int rc = replay_built(r, &b, &d);
    CHECK_MSG(rc == 0, "%s", d.msg);
    CHECK_EQ_U(r->stats.skipped_writes, 2);
    for (uint32_t i = 0; i < 16; i++) CHECK_EQ_U(r->mem.ram[GT_RAM_SIZE - 16 + i], 0);
    CHECK(memcmp(r->mem.vram + 0x100000, clut, sizeof clut) == 0);
    free_render(r);
    dumpb_free(&b);
}

TEST(bad_replay_jump_outside_memory)
{
    struct dumpb b;
    dumpb_init(&b, 6);
    struct dl l;
    dl_init(&l);
    dl_cmd(&l, GE_BASE, 0x0C0000); /* high address bits 0x0C */
    dl_cmd(&l, GE_JUMP, 0x000000);  /* to 0x0C000000: past the end of RAM */
    dl_cmd(&l, GE_NOP, 0);
    dumpb_registers(&b, &l);
    dl_free(&l);
    struct gt_render *r = new_render();
    struct gt_diag d = {0};
    EXPECT_ERR(replay_built(r, &b, &d), d, GT_ELIST_ERROR, "outside PSP memory");
    CHECK(test_contains_ci(d.msg, "JUMP"));
    CHECK(test_contains_ci(d.msg, "0x0c000000"));
    free_render(r);
    dumpb_free(&b);

    /* A CALL into unmapped memory between VRAM and RAM. */
    dumpb_init(&b, 6);
    dl_init(&l);
    dl_cmd(&l, GE_BASE, 0x060000);
    dl_cmd(&l, GE_CALL, 0x001000);
    dumpb_registers(&b, &l);
    dl_free(&l);
    r = new_render();
    EXPECT_ERR(replay_built(r, &b, &d), d, GT_ELIST_ERROR, "outside PSP memory");
    CHECK(test_contains_ci(d.msg, "CALL"));
    free_render(r);
    dumpb_free(&b);
}

/* A list that never ends: stopped by the step budget, not left to hang. */
TEST(bad_replay_runaway_list)
{
    /* The replay's list buffer holds a NOP at GT_REPLAY_LIST_BASE, then the
     * first REGISTERS record's words: BASE at +4, the JUMP at +8. */
    const uint32_t jump_addr = GT_REPLAY_LIST_BASE + 8;
    struct dumpb b;
    dumpb_init(&b, 6);
    struct dl l;
    dl_init(&l);
    dl_cmd(&l, GE_BASE, (jump_addr >> 8) & 0x0F0000);
    dl_cmd(&l, GE_JUMP, jump_addr & 0xFFFFFF);
    dumpb_registers(&b, &l);
    dl_free(&l);
    struct gt_render *r = new_render();
    r->ge.step_budget = 100000;
    struct gt_diag d = {0};
    EXPECT_ERR(replay_built(r, &b, &d), d, GT_ESTEP_LIMIT, "runaway");
    CHECK(r->ge.stats.steps >= 100000 && r->ge.stats.steps <= 100000 + 8);
    free_render(r);
    dumpb_free(&b);

    /* A CALL to itself: nests past the GE's two return registers. */
    const uint32_t call_addr = GT_REPLAY_LIST_BASE + 8;
    dumpb_init(&b, 6);
    dl_init(&l);
    dl_cmd(&l, GE_BASE, (call_addr >> 8) & 0x0F0000);
    dl_cmd(&l, GE_CALL, call_addr & 0xFFFFFF);
    dumpb_registers(&b, &l);
    dl_free(&l);
    r = new_render();
    r->ge.step_budget = 100000;
    EXPECT_ERR(replay_built(r, &b, &d), d, GT_ELIST_ERROR, "CALL");
    CHECK(r->ge.stats.steps < 100);
    free_render(r);
    dumpb_free(&b);
}

/* The step budget bounds words, and it must bound time too: 16384 block
 * transfers of 1024x1024 32-bit pixels (4 MiB each, 64 GiB in all) are only
 * 16390 words, far under the budget. A 64 KiB list must not keep getile busy
 * for minutes; the replay has to stop it (GT_ESTEP_LIMIT) within seconds. */
TEST(bad_replay_transfer_work_is_bounded)
{
    struct dumpb b;
    dumpb_init(&b, 6);
    struct dl l;
    dl_init(&l);
    dl_cmd(&l, GE_TRX_SRC, 0x000000);
    dl_cmd(&l, GE_TRX_SRC_W, 0x080000 | 1024); /* RAM 0x08000000, 1024 pixels a row */
    dl_cmd(&l, GE_TRX_DST, 0x000000);
    dl_cmd(&l, GE_TRX_DST_W, 0x090000 | 1024); /* RAM 0x09000000 */
    dl_cmd(&l, GE_TRX_SIZE, 1023 | 1023 << 10);
    for (int i = 0; i < 16384; i++) dl_cmd(&l, GE_TRX_KICK, 1);
    dumpb_registers(&b, &l);
    dl_free(&l);
    struct gt_render *r = new_render();
    r->ge.step_budget = 100000;
    alarm(10); /* the runner's timeout is minutes; fail sooner */
    struct gt_diag d = {0};
    int rc = replay_built(r, &b, &d);
    alarm(0);
    EXPECT_ERR(rc, d, GT_ESTEP_LIMIT, NULL);
    free_render(r);
    dumpb_free(&b);
}

/* Data records are copied into the RAM arena (GT_REPLAY_ARENA_BASE to
 * GT_REPLAY_ARENA_END), used in two halves in turn (replay.c). A record
 * filling a half exactly, then an empty one, then a small one: a valid dump,
 * so the replay must succeed. */
#define ARENA_HALF ((GT_REPLAY_ARENA_END - GT_REPLAY_ARENA_BASE) / 2 & ~15u)

TEST(bad_replay_arena_exact_fill)
{
    const uint32_t big = ARENA_HALF;
    struct dump dp = {.version = 6};
    dp.data_size = big + 64;
    dp.data = calloc(1, dp.data_size); /* the last 4 bytes: a NOP */
    CHECK(dp.data != NULL);
    memset(dp.data + big + 16, 0x3C, 16);
    /* A list record after each data record, so no queued word refers to an
     * earlier record when the arena is recycled. */
    struct dump_record rec[] = {
        {DUMP_TEXTURE0, big, 0},         {DUMP_REGISTERS, 4, big + 60},
        {DUMP_VERTICES, 0, big},         {DUMP_REGISTERS, 4, big + 60},
        {DUMP_TEXTURE0 + 1, 16, big + 16}, {DUMP_REGISTERS, 4, big + 60},
        {DUMP_INDICES, 16, big + 32},    {DUMP_REGISTERS, 4, big + 60},
    };
    dp.rec = rec;
    dp.nrec = sizeof rec / sizeof rec[0];
    struct gt_render *r = new_render();
    struct gt_diag d = {0};
    int rc = gt_render_replay(r, &dp, 0, &d);
    CHECK_MSG(rc == 0, "replay of a valid dump failed: %s: \"%s\"", gt_err_name(rc), d.msg);
    CHECK(r->stats.arena_resets >= 1);
    free_render(r);
    /* One byte more than a half is refused with a message naming the record. */
    rec[0].size = big + 1;
    r = new_render();
    rc = gt_render_replay(r, &dp, 0, &d);
    EXPECT_ERR(rc, d, GT_ETOO_BIG, "TEXTURE0");
    free_render(r);
    free(dp.data);
}

/* The arena is recycled when a record does not fit, but words already put in
 * the list and not yet run (here VADDR) still point at data copied before
 * the recycle. A draw must see its recorded vertices, not the bytes of a
 * texture copied over them. And data for one draw that would need a second
 * recycle before the list runs again is refused. */
static uint8_t seen_vertices[64];
static unsigned seen_draws;

static int grab_vertices(void *ctx, struct ge *ge, uint32_t word, struct gt_diag *d)
{
    if (word >> 24 == GE_PRIM) {
        mem_read(ge->mem, ge->st.vaddr, seen_vertices, sizeof seen_vertices);
        seen_draws++;
    }
    return GT_OK;
}

TEST(bad_replay_arena_recycle_keeps_queued_data)
{
    /* s2 does not fit in the first half after s1 + 64, so the other half is taken. */
    const uint32_t s1 = 1u << 20, s2 = ARENA_HALF - (512u << 10);
    struct dump dp = {.version = 6};
    dp.data_size = s1 + 64 + s2;
    dp.data = malloc(dp.data_size);
    CHECK(dp.data != NULL);
    memset(dp.data, 0x11, s1);
    for (unsigned i = 0; i < 64; i++) dp.data[s1 + i] = (uint8_t)(0x80 + i);
    memset(dp.data + s1 + 64, 0x22, s2);
    static uint8_t words[12];
    put32(words, (uint32_t)GE_VTYPE << 24 | 2 << 7); /* 16-bit positions: 6 bytes a vertex */
    put32(words + 4, (uint32_t)GE_PRIM << 24 | 3 << 16 | 3);
    put32(words + 8, (uint32_t)GE_NOP << 24);
    uint8_t *data = realloc(dp.data, dp.data_size + sizeof words);
    CHECK(data != NULL);
    dp.data = data;
    memcpy(dp.data + dp.data_size, words, sizeof words);
    struct dump_record rec[] = {
        {DUMP_TEXTURE0, s1, 0},
        {DUMP_REGISTERS, 4, dp.data_size + 8},       /* a NOP: the texture words run */
        {DUMP_VERTICES, 64, s1},
        {DUMP_TEXTURE0 + 1, s2, s1 + 64},           /* forces the recycle */
        {DUMP_REGISTERS, 8, dp.data_size},          /* VTYPE, PRIM */
    };
    dp.data_size += sizeof words;
    dp.rec = rec;
    dp.nrec = sizeof rec / sizeof rec[0];
    struct gt_render *r = new_render();
    r->ge.hooks.kick = grab_vertices;
    struct gt_diag d = {0};
    int rc = gt_render_replay(r, &dp, 0, &d);
    CHECK_MSG(rc == 0, "%s", d.msg);
    CHECK_EQ_U(r->stats.arena_resets, 1);
    CHECK_EQ_U(seen_draws, 1);
    for (unsigned i = 0; i < 64; i++)
        CHECK_MSG(seen_vertices[i] == 0x80 + i, "vertex byte %u is 0x%02x, recorded 0x%02x", i, seen_vertices[i],
                  0x80 + i);
    free_render(r);
    /* Two half-filling records with no list record between them: the second
     * would need the first half back while the VADDR word is still pending. */
    struct dump_record rec2[] = {
        {DUMP_TEXTURE0, s1, 0},
        {DUMP_VERTICES, 64, s1},
        {DUMP_TEXTURE0 + 1, s2, s1 + 64},
        {DUMP_TEXTURE0 + 2, s2, s1 + 64 + 1},
        {DUMP_REGISTERS, 8, dp.data_size - sizeof words},
    };
    dp.rec = rec2;
    dp.nrec = sizeof rec2 / sizeof rec2[0];
    r = new_render();
    rc = gt_render_replay(r, &dp, 0, &d);
    EXPECT_ERR(rc, d, GT_ETOO_BIG, "one draw");
    free_render(r);
    free(dp.data);
}

/* --- Garbage --------------------------------------------------------------- */

TEST(bad_random_garbage)
{
    uint8_t *buf = xmalloc(4096 + 64);
    unsigned parsed = 0;
    rng_state = 0x243F6A8885A308D3ull;
    for (int variant = 0; variant < 4; variant++) {
        for (int it = 0; it < 1000; it++) {
            size_t n = rng() % 4097;
            for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)rng();
            uint32_t v = 2 + rng() % 5;
            if (variant >= 1 && n >= 12) {
                /* The valid magic and a supported version. */
                memcpy(buf, "PPSSPPGE", 8);
                put32(buf + 8, v);
            }
            if (variant == 2 && n >= header_size(v) + 12) {
                /* Plausible counts and a block size inside the input. */
                put32(buf + header_size(v), rng() % 64);
                put32(buf + header_size(v) + 4, rng() % 8192);
                put32(buf + header_size(v) + 8, rng() % (uint32_t)(n - header_size(v) - 12 + 1));
            }
            if (variant == 3 && n >= 4) memcpy(buf, "PK\3\4", 4);
            uint8_t *in = xmalloc(n); /* exact size: ASan sees reads past the end */
            memcpy(in, buf, n);
            struct dump dp;
            struct gt_diag d = {0};
            int rc = dump_parse(in, n, &dp, &d);
            free(in);
            if (rc == 0) {
                parsed++;
                dump_free(&dp);
                continue;
            }
            CHECK_MSG(rc < 0, "dump_parse returned %d", rc);
            CHECK_DIAG(rc, d);
            if (variant == 0 && n < 8) CHECK_MSG(rc != GT_EVERSION, "no magic, yet a version error");
        }
    }
    free(buf);
    (void)parsed;
}

/* Real dumps (when ../shared/frametests is present): the small ones are
 * taken out of their zips, cut at 48 points inside their blocks and given
 * 48 flipped bytes: cuts fail as TRUNCATED or CORRUPT, flips parse or fail
 * as CORRUPT, always with a one-line message. */
static uint8_t *zip_dump_entry(const uint8_t *zip, size_t zlen, size_t *len)
{
    zip_error_t err;
    zip_error_init(&err);
    zip_source_t *src = zip_source_buffer_create(zip, zlen, 0, &err);
    CHECK(src != NULL);
    zip_t *z = zip_open_from_source(src, ZIP_RDONLY, &err);
    CHECK_MSG(z != NULL, "%s", zip_error_strerror(&err));
    uint8_t *out = NULL;
    for (zip_int64_t i = 0; i < zip_get_num_entries(z, 0) && !out; i++) {
        zip_stat_t st;
        if (zip_stat_index(z, (zip_uint64_t)i, 0, &st) != 0 || st.size < 8 || st.size > (64u << 20)) continue;
        zip_file_t *f = zip_fopen_index(z, (zip_uint64_t)i, 0);
        if (!f) continue;
        uint8_t *buf = xmalloc(st.size);
        if (zip_fread(f, buf, st.size) == (zip_int64_t)st.size && !memcmp(buf, "PPSSPPGE", 8)) {
            out = buf;
            *len = st.size;
        } else {
            free(buf);
        }
        zip_fclose(f);
    }
    zip_close(z);
    zip_error_fini(&err);
    return out;
}

TEST(bad_real_dumps_damaged)
{
    const char *ft = test_frametests_dir();
    if (!ft) test_skip("no frametests directory");
    char dir[512];
    snprintf(dir, sizeof dir, "%s/dumps", ft);
    DIR *dh = opendir(dir);
    if (!dh) test_skip("cannot open %s", dir);
    struct dirent *de;
    unsigned done = 0;
    while ((de = readdir(dh))) {
        char path[1024];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (de->d_name[0] == '.' || stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > 150 * 1024) continue;
        uint8_t *zip;
        size_t zlen, len = 0;
        struct gt_diag d = {0};
        CHECK_MSG(gt_read_file(path, 1u << 20, &zip, &zlen, &d) == 0, "%s", d.msg);
        struct dump whole;
        CHECK_MSG(dump_parse(zip, zlen, &whole, &d) == 0, "%s: %s", de->d_name, d.msg);
        uint8_t *bytes = zip_dump_entry(zip, zlen, &len);
        CHECK_MSG(bytes != NULL, "%s: no entry with the dump magic", de->d_name);
        struct blocks k = find_blocks(bytes, len, whole.version);
        size_t start = header_size(whole.version) + 8;
        for (int i = 0; i < 48; i++) {
            size_t n = start + (k.end - start) * (size_t)i / 48;
            uint8_t *cut = xmalloc(n);
            memcpy(cut, bytes, n);
            struct dump dp;
            int rc = dump_parse(cut, n, &dp, &d);
            free(cut);
            CHECK_MSG(rc == GT_ETRUNCATED || rc == GT_ECORRUPT, "%s cut to %zu: %s", de->d_name, n, gt_err_name(rc));
            CHECK_DIAG(rc, d);
        }
        rng_state = 0xC0FFEEull + len;
        for (int i = 0; i < 48; i++) {
            size_t pos = k.rec_off + rng() % (k.end - k.rec_off);
            if (pos >= k.rec_off + k.rec_len && pos < k.data_off) continue;
            bytes[pos] ^= 0x5A;
            struct dump dp;
            int rc = dump_parse(bytes, len, &dp, &d);
            bytes[pos] ^= 0x5A;
            if (rc == 0) {
                dump_free(&dp);
                continue;
            }
            CHECK_MSG(rc == GT_ECORRUPT, "%s, byte %zu flipped: %s: \"%s\"", de->d_name, pos, gt_err_name(rc), d.msg);
            CHECK_DIAG(rc, d);
        }
        dump_free(&whole);
        free(bytes);
        free(zip);
        done++;
    }
    closedir(dh);
    if (!done) test_skip("no dump under 150 KiB in %s", dir);
}

/* --- Many records ---------------------------------------------------------- */

/* 200000 REGISTERS records of two words (1.6 MB of list words through a 256
 * KiB list buffer): every word runs exactly once, so exactly the 200 PRIM
 * kicks recorded are counted - a buffer that wrapped into stale commands
 * would run extra ones. */
TEST(bad_many_records)
{
    const uint32_t nrec = 200000;
    struct dump dp = {.version = 6};
    memcpy(dp.game_id, "GETILE001", 9);
    dp.rec = xmalloc(sizeof *dp.rec * nrec);
    dp.nrec = nrec;
    dp.data = xmalloc(16);
    dp.data_size = 16;
    put32(dp.data, GE_NOP << 24);
    put32(dp.data + 4, GE_NOP << 24 | 1);
    put32(dp.data + 8, (uint32_t)GE_PRIM << 24 | 3 << 16 | 0); /* triangles, 0 vertices */
    put32(dp.data + 12, GE_NOP << 24 | 2);
    for (uint32_t i = 0; i < nrec; i++) dp.rec[i] = (struct dump_record){DUMP_REGISTERS, 8, i % 1000 == 999 ? 8 : 0};
    size_t len;
    uint8_t *bytes = write_dump(&dp, &len);
    struct dump parsed;
    struct gt_diag d = {0};
    int rc = dump_parse(bytes, len, &parsed, &d);
    free(bytes);
    CHECK_MSG(rc == 0, "%s", d.msg);
    CHECK_EQ_U(parsed.nrec, nrec);
    struct gt_render *r = new_render();
    rc = gt_render_replay(r, &parsed, 0, &d);
    CHECK_MSG(rc == 0, "%s", d.msg);
    CHECK_EQ_U(r->stats.records, nrec);
    CHECK_EQ_U(r->ge.stats.draws, nrec / 1000);
    CHECK_EQ_U(r->stats.prims_by_type[3], nrec / 1000);
    /* 2 words a record, plus at most a few the replay adds (the list's
     * opening NOP, FINISH, END). */
    CHECK_MSG(r->ge.stats.steps >= 2ull * nrec && r->ge.stats.steps <= 2ull * nrec + 8,
              "%llu words ran for %u recorded", (unsigned long long)r->ge.stats.steps, 2 * nrec);
    free_render(r);
    dump_free(&parsed);
    free(dp.rec);
    free(dp.data);
}
