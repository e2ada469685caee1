/* Frame-dump reader and writer (see dump.h). */
#include "dump.h"

#include <errno.h>
#include <snappy-c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zip.h>
#include <zstd.h>

#include "ge_limits.h"

const char *dump_type_name(unsigned type)
{
    static const char *const base[] = {"INIT", "REGISTERS", "VERTICES", "INDICES", "CLUT", "TRANSFERSRC",
                                       "MEMSET", "MEMCPYDEST", "MEMCPYDATA", "DISPLAY", "CLUTADDR", "EDRAMTRANS"};
    static const char *const tex[] = {"TEXTURE0", "TEXTURE1", "TEXTURE2", "TEXTURE3",
                                      "TEXTURE4", "TEXTURE5", "TEXTURE6", "TEXTURE7"};
    static const char *const fb[] = {"FRAMEBUF0", "FRAMEBUF1", "FRAMEBUF2", "FRAMEBUF3",
                                     "FRAMEBUF4", "FRAMEBUF5", "FRAMEBUF6", "FRAMEBUF7"};
    if (type < sizeof base / sizeof base[0]) return base[type];
    if (type >= DUMP_TEXTURE0 && type <= DUMP_TEXTURE7) return tex[type - DUMP_TEXTURE0];
    if (type >= DUMP_FRAMEBUF0 && type <= DUMP_FRAMEBUF7) return fb[type - DUMP_FRAMEBUF0];
    return NULL;
}

/* Smallest data size each record type needs to be replayed. */
static uint32_t min_record_size(unsigned type)
{
    switch (type) {
    case DUMP_INIT: return 17 * 4;
    case DUMP_CLUTADDR: return 8;
    case DUMP_MEMSET: return 12;
    case DUMP_MEMCPYDEST: return 4;
    case DUMP_DISPLAY: return 12;
    case DUMP_EDRAMTRANS: return 4;
    default:
        if (type >= DUMP_FRAMEBUF0 && type <= DUMP_FRAMEBUF7) return 16;
        return 0;
    }
}

static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

void dump_free(struct dump *dp)
{
    free(dp->rec);
    free(dp->data);
    memset(dp, 0, sizeof *dp);
}

/* Decompresses one block (u32 compressed size + bytes) at *pos into a new
 * buffer of exactly `expect` bytes. */
static int read_block(const uint8_t *b, size_t len, size_t *pos, uint32_t version, size_t expect,
                      const char *what, uint8_t **out, struct gt_diag *d)
{
    *out = NULL;
    if (len - *pos < 4) return gt_fail(d, GT_ETRUNCATED, "dump truncated: %s block size missing", what);
    uint32_t csize = rd32(b + *pos);
    *pos += 4;
    if (csize > len - *pos)
        return gt_fail(d, GT_ETRUNCATED, "dump truncated: %s block needs %u bytes, %zu remain", what, csize, len - *pos);
    const uint8_t *c = b + *pos;
    *pos += csize;
    if (version < 5) {
        size_t ulen = 0;
        if (snappy_uncompressed_length((const char *)c, csize, &ulen) != SNAPPY_OK)
            return gt_fail(d, GT_ECORRUPT, "dump corrupt: %s block is not valid snappy data", what);
        if (ulen != expect)
            return gt_fail(d, GT_ECORRUPT, "dump corrupt: %s block holds %zu bytes, header says %zu", what, ulen, expect);
    } else {
        unsigned long long fsz = ZSTD_getFrameContentSize(c, csize);
        if (fsz == ZSTD_CONTENTSIZE_ERROR)
            return gt_fail(d, GT_ECORRUPT, "dump corrupt: %s block is not a zstd frame", what);
        if (fsz != ZSTD_CONTENTSIZE_UNKNOWN && fsz != expect)
            return gt_fail(d, GT_ECORRUPT, "dump corrupt: %s block holds %llu bytes, header says %zu", what, fsz, expect);
    }
    uint8_t *buf = malloc(expect ? expect : 1);
    if (!buf) return gt_fail(d, GT_ENOMEM, "cannot allocate %zu bytes for the dump's %s", expect, what);
    if (version < 5) {
        size_t ulen = expect;
        if (snappy_uncompress((const char *)c, csize, (char *)buf, &ulen) != SNAPPY_OK || ulen != expect) {
            free(buf);
            return gt_fail(d, GT_ECORRUPT, "dump corrupt: %s block fails snappy decompression", what);
        }
    } else {
        size_t r = ZSTD_decompress(buf, expect, c, csize);
        if (ZSTD_isError(r) || r != expect) {
            free(buf);
            return gt_fail(d, GT_ECORRUPT, "dump corrupt: %s block fails zstd decompression (%s)", what,
                           ZSTD_isError(r) ? ZSTD_getErrorName(r) : "short output");
        }
    }
    *out = buf;
    return GT_OK;
}

static int parse_ppdmp(const uint8_t *b, size_t len, struct dump *out, struct gt_diag *d)
{
    if (len > 0 && len < 12 && !memcmp(b, DUMP_MAGIC, len < 8 ? len : 8))
        return gt_fail(d, GT_ETRUNCATED, "dump truncated: header is %zu bytes", len);
    if (len < 12 || memcmp(b, DUMP_MAGIC, 8) != 0)
        return gt_fail(d, GT_EFORMAT, "not a frame dump: no PPSSPPGE magic");
    uint32_t version = rd32(b + 8);
    if (version < DUMP_MIN_VERSION || version > DUMP_MAX_VERSION)
        return gt_fail(d, GT_EVERSION, "unsupported dump version %u (supported: %d to %d)", version,
                       DUMP_MIN_VERSION, DUMP_MAX_VERSION);
    size_t pos = version >= 4 ? 24 : 12;
    if (len < pos + 8) return gt_fail(d, GT_ETRUNCATED, "dump truncated: header is %zu bytes", len);
    out->version = version;
    if (version >= 4) {
        memcpy(out->game_id, b + 12, 9);
        out->game_id[9] = 0;
        for (int i = 0; i < 9 && out->game_id[i]; i++)
            if (out->game_id[i] < 0x20 || out->game_id[i] > 0x7E) out->game_id[i] = '?';
    }
    uint32_t nrec = rd32(b + pos), dsize = rd32(b + pos + 4);
    pos += 8;
    if (nrec > GT_DUMP_MAX_COMMANDS)
        return gt_fail(d, GT_ETOO_BIG, "dump has %u records (limit %u)", nrec, GT_DUMP_MAX_COMMANDS);
    if (dsize > GT_DUMP_MAX_PUSHBUF)
        return gt_fail(d, GT_ETOO_BIG, "dump data is %u bytes (limit %u)", dsize, GT_DUMP_MAX_PUSHBUF);
    uint8_t *packed = NULL;
    int rc = read_block(b, len, &pos, version, (size_t)nrec * 9, "record", &packed, d);
    if (rc < 0) return rc;
    rc = read_block(b, len, &pos, version, dsize, "data", &out->data, d);
    if (rc < 0) {
        free(packed);
        return rc;
    }
    out->data_size = dsize;
    out->nrec = nrec;
    out->rec = malloc(sizeof *out->rec * (nrec ? nrec : 1));
    if (!out->rec) {
        free(packed);
        return gt_fail(d, GT_ENOMEM, "cannot allocate %u dump records", nrec);
    }
    for (uint32_t i = 0; i < nrec; i++) {
        struct dump_record *r = &out->rec[i];
        r->type = packed[i * 9];
        r->size = rd32(packed + i * 9 + 1);
        r->offset = rd32(packed + i * 9 + 5);
        const char *name = dump_type_name(r->type);
        if (!name) {
            free(packed);
            return gt_fail(d, GT_ECORRUPT, "dump record %u has unknown type %u", i, r->type);
        }
        if (r->offset > dsize || r->size > dsize - r->offset) {
            free(packed);
            return gt_fail(d, GT_ECORRUPT, "dump record %u (%s) points outside the dump data: offset %u size %u, data %u bytes",
                           i, name, r->offset, r->size, dsize);
        }
        if (r->size < min_record_size(r->type)) {
            free(packed);
            return gt_fail(d, GT_ECORRUPT, "dump record %u (%s) is %u bytes, needs at least %u", i, name, r->size,
                           min_record_size(r->type));
        }
    }
    free(packed);
    return GT_OK;
}

/* Finds the dump inside a zip: the last entry named *.ppdmp (in the zip's
 * directory order), else the last entry that starts with the dump magic.
 * Archives attached to emulator issues often hold several consecutive
 * frames; PPSSPP's frame-test references show the last one (checked on the
 * three shared dumps with two frames: Sengoku Cannon, Project Diva, Nova). */
static int parse_zip(const uint8_t *b, size_t len, struct dump *out, struct gt_diag *d)
{
    zip_error_t zerr;
    zip_error_init(&zerr);
    zip_source_t *src = zip_source_buffer_create(b, len, 0, &zerr);
    if (!src) {
        zip_error_fini(&zerr);
        return gt_fail(d, GT_ENOMEM, "cannot open zip in memory");
    }
    zip_t *z = zip_open_from_source(src, ZIP_RDONLY, &zerr);
    if (!z) {
        int rc = gt_fail(d, GT_ECORRUPT, "corrupt zip: %s", zip_error_strerror(&zerr));
        zip_source_free(src);
        zip_error_fini(&zerr);
        return rc;
    }
    zip_error_fini(&zerr);
    zip_int64_t n = zip_get_num_entries(z, 0);
    zip_int64_t pick = -1;
    for (int pass = 0; pass < 2 && pick < 0; pass++) {
        for (zip_int64_t i = 0; i < n; i++) {
            const char *name = zip_get_name(z, (zip_uint64_t)i, 0);
            if (!name) continue;
            size_t nl = strlen(name);
            if (pass == 0) {
                if (nl > 6 && !strcasecmp(name + nl - 6, ".ppdmp")) pick = i;
            } else if (nl && name[nl - 1] != '/') {
                char head[8];
                zip_file_t *f = zip_fopen_index(z, (zip_uint64_t)i, 0);
                if (f && zip_fread(f, head, 8) == 8 && !memcmp(head, DUMP_MAGIC, 8)) pick = i;
                if (f) zip_fclose(f);
            }
        }
    }
    int rc;
    if (pick < 0) {
        rc = gt_fail(d, GT_EFORMAT, "zip holds no frame dump (no .ppdmp entry, no entry with the PPSSPPGE magic)");
        goto done;
    }
    zip_stat_t st;
    if (zip_stat_index(z, (zip_uint64_t)pick, 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE)) {
        rc = gt_fail(d, GT_ECORRUPT, "corrupt zip: cannot read the size of entry %lld", (long long)pick);
        goto done;
    }
    if (st.size > GT_DUMP_MAX_FILE) {
        rc = gt_fail(d, GT_ETOO_BIG, "zip entry %s is %llu bytes uncompressed (limit %u)", st.name,
                     (unsigned long long)st.size, GT_DUMP_MAX_FILE);
        goto done;
    }
    uint8_t *buf = malloc(st.size ? st.size : 1);
    if (!buf) {
        rc = gt_fail(d, GT_ENOMEM, "cannot allocate %llu bytes for zip entry", (unsigned long long)st.size);
        goto done;
    }
    zip_file_t *f = zip_fopen_index(z, (zip_uint64_t)pick, 0);
    zip_int64_t got = f ? zip_fread(f, buf, st.size) : -1;
    if (!f || got < 0 || (zip_uint64_t)got != st.size) {
        rc = gt_fail(d, GT_ECORRUPT, "corrupt zip: entry %s cannot be read (%s)", st.name,
                     f ? zip_error_strerror(zip_file_get_error(f)) : "cannot open entry");
        if (f) zip_fclose(f);
        free(buf);
        goto done;
    }
    zip_fclose(f);
    rc = parse_ppdmp(buf, st.size, out, d);
    free(buf);
done:
    zip_close(z); /* frees src */
    return rc;
}

int dump_parse(const uint8_t *bytes, size_t len, struct dump *out, struct gt_diag *d)
{
    memset(out, 0, sizeof *out);
    int rc;
    if (len >= 4 && bytes[0] == 'P' && bytes[1] == 'K' && (bytes[2] == 3 || bytes[2] == 5))
        rc = parse_zip(bytes, len, out, d);
    else
        rc = parse_ppdmp(bytes, len, out, d);
    if (rc < 0) dump_free(out);
    return rc;
}

int gt_read_file(const char *path, size_t max, uint8_t **out, size_t *len, struct gt_diag *d)
{
    *out = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return gt_fail(d, GT_EIO, "cannot open %s: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    int rc = GT_OK;
    while (buf) {
        if (n == cap) {
            if (cap > max) {
                rc = gt_fail(d, GT_ETOO_BIG, "%s is larger than %zu bytes", path, max);
                break;
            }
            size_t ncap = cap * 2 > max + 1 ? max + 1 : cap * 2; /* never more than one byte past the limit */
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) break;
            buf = nb;
            cap = ncap;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) {
            if (ferror(f)) rc = gt_fail(d, GT_EIO, "cannot read %s: %s", path, strerror(errno));
            break;
        }
    }
    fclose(f);
    if (!buf) return gt_fail(d, GT_ENOMEM, "cannot allocate memory to read %s", path);
    if (rc == GT_OK && n > max) rc = gt_fail(d, GT_ETOO_BIG, "%s is larger than %zu bytes", path, max);
    if (rc < 0) {
        free(buf);
        return rc;
    }
    *out = buf;
    *len = n;
    return GT_OK;
}

int dump_load_file(const char *path, struct dump *out, struct gt_diag *d)
{
    uint8_t *bytes;
    size_t len;
    memset(out, 0, sizeof *out);
    int rc = gt_read_file(path, GT_DUMP_MAX_FILE, &bytes, &len, d);
    if (rc < 0) return rc;
    rc = dump_parse(bytes, len, out, d);
    free(bytes);
    return rc;
}

/* Appends one compressed block to a growing buffer. */
static int write_block(uint32_t version, const void *src, size_t n, uint8_t **buf, size_t *len, struct gt_diag *d)
{
    size_t bound = version < 5 ? snappy_max_compressed_length(n) : ZSTD_compressBound(n);
    uint8_t *nb = realloc(*buf, *len + 4 + bound);
    if (!nb) return gt_fail(d, GT_ENOMEM, "cannot allocate dump output");
    *buf = nb;
    size_t clen = bound;
    if (version < 5) {
        if (snappy_compress(src, n, (char *)nb + *len + 4, &clen) != SNAPPY_OK)
            return gt_fail(d, GT_ECORRUPT, "snappy compression failed");
    } else {
        clen = ZSTD_compress(nb + *len + 4, bound, src, n, 3);
        if (ZSTD_isError(clen)) return gt_fail(d, GT_ECORRUPT, "zstd compression failed");
    }
    for (int i = 0; i < 4; i++) nb[*len + (size_t)i] = (uint8_t)(clen >> (8 * i));
    *len += 4 + clen;
    return GT_OK;
}

int dump_write(const struct dump *dp, uint8_t **out, size_t *len, struct gt_diag *d)
{
    uint32_t v = dp->version;
    size_t hdr = v >= 4 ? 24 : 12;
    uint8_t *buf = calloc(1, hdr + 8), *packed = NULL;
    if (!buf) return gt_fail(d, GT_ENOMEM, "cannot allocate dump output");
    if (v < DUMP_MIN_VERSION || v > DUMP_MAX_VERSION) {
        free(buf);
        return gt_fail(d, GT_EVERSION, "cannot write dump version %u", v);
    }
    memcpy(buf, DUMP_MAGIC, 8);
    uint32_t words[3] = {v, dp->nrec, dp->data_size};
    for (int i = 0; i < 4; i++) buf[8 + i] = (uint8_t)(v >> (8 * i));
    if (v >= 4) memcpy(buf + 12, dp->game_id, strnlen(dp->game_id, 9));
    for (int w = 1; w < 3; w++)
        for (int i = 0; i < 4; i++) buf[hdr + (size_t)(w - 1) * 4 + (size_t)i] = (uint8_t)(words[w] >> (8 * i));
    size_t n = hdr + 8;
    packed = malloc((size_t)dp->nrec * 9 + 1);
    if (!packed) {
        free(buf);
        return gt_fail(d, GT_ENOMEM, "cannot allocate dump output");
    }
    for (uint32_t i = 0; i < dp->nrec; i++) {
        uint8_t *p = packed + (size_t)i * 9;
        p[0] = dp->rec[i].type;
        for (int k = 0; k < 4; k++) {
            p[1 + k] = (uint8_t)(dp->rec[i].size >> (8 * k));
            p[5 + k] = (uint8_t)(dp->rec[i].offset >> (8 * k));
        }
    }
    int rc = write_block(v, packed, (size_t)dp->nrec * 9, &buf, &n, d);
    if (rc == GT_OK) rc = write_block(v, dp->data, dp->data_size, &buf, &n, d);
    free(packed);
    if (rc < 0) {
        free(buf);
        return rc;
    }
    *out = buf;
    *len = n;
    return GT_OK;
}
