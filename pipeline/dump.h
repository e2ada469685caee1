/* PPSSPP GE frame dumps (.ppdmp), versions 2 to 6, also inside a .zip.
 *
 * Layout: an 8-byte magic "PPSSPPGE", a u32 version, from version 4 a
 * 9-byte game ID and 3 bytes of padding; then u32 record count and u32 data
 * size; then two compressed blocks (each a u32 compressed size and the bytes:
 * snappy up to version 4, zstd from version 5): the records (9 bytes each,
 * packed: u8 type, u32 size, u32 offset into the data) and the data.
 * Anything after the two blocks (some files carry a second dump) is ignored. */
#ifndef GETILE_DUMP_H
#define GETILE_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "gt_error.h"

enum dump_type {
    DUMP_INIT = 0, DUMP_REGISTERS = 1, DUMP_VERTICES = 2, DUMP_INDICES = 3, DUMP_CLUT = 4,
    DUMP_TRANSFERSRC = 5, DUMP_MEMSET = 6, DUMP_MEMCPYDEST = 7, DUMP_MEMCPYDATA = 8,
    DUMP_DISPLAY = 9, DUMP_CLUTADDR = 10, DUMP_EDRAMTRANS = 11,
    DUMP_TEXTURE0 = 0x10, DUMP_TEXTURE7 = 0x17, DUMP_FRAMEBUF0 = 0x18, DUMP_FRAMEBUF7 = 0x1F,
};

#define DUMP_MAGIC "PPSSPPGE"
#define DUMP_MIN_VERSION 2
#define DUMP_MAX_VERSION 6

struct dump_record {
    uint8_t type;
    uint32_t size;    /* bytes of data */
    uint32_t offset;  /* into dump.data; offset + size <= data_size (checked) */
};

struct dump {
    uint32_t version;
    char game_id[10];            /* NUL-terminated, empty before version 4 */
    struct dump_record *rec;
    uint32_t nrec;
    uint8_t *data;
    uint32_t data_size;
};

/* Name of a record type ("REGISTERS", "TEXTURE3", ...), or NULL when unknown. */
const char *dump_type_name(unsigned type);
/* Parses a dump from memory: a .ppdmp, or a .zip holding one. Every record
 * is validated (known type, inside the data, minimum size for its type).
 * Returns 0 or a negative gt_err with a message in d; on error *out is empty. */
int dump_parse(const uint8_t *bytes, size_t len, struct dump *out, struct gt_diag *d);
/* Reads a file (at most GT_DUMP_MAX_FILE bytes) and parses it. */
int dump_load_file(const char *path, struct dump *out, struct gt_diag *d);
void dump_free(struct dump *dp);

/* Reads a whole file into memory, refusing files over max bytes. */
int gt_read_file(const char *path, size_t max, uint8_t **out, size_t *len, struct gt_diag *d);
/* Writes a .ppdmp (version 2-4 snappy, 5-6 zstd) from records and data;
 * used by tests and the bundled sample. Returns 0 or a negative gt_err. */
int dump_write(const struct dump *dp, uint8_t **out, size_t *len, struct gt_diag *d);

#endif
