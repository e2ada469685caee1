/* Builders for display lists and frame dumps: a list written word by word
 * (dl_*), and a dump assembled record by record (dumpb_*), then written
 * with dump_write. The tests, the bundled sample and `getile fuzz` (whose
 * cases are dumps) use them.
 *
 * Allocation failures never abort: the first one is kept in the builder's
 * `err` (GT_ENOMEM) and every later call does nothing, so a caller checks
 * once when it has finished building. */
#ifndef GETILE_DUMPBUILD_H
#define GETILE_DUMPBUILD_H

#include <stddef.h>
#include <stdint.h>

#include "dump.h"
#include "ge_cmd.h"

/* A display list being written into a growable array of words. */
struct dl {
    uint32_t *w;
    size_t n, cap;
    int err;           /* 0, or GT_ENOMEM once a word could not be stored */
};

void dl_init(struct dl *l);
void dl_free(struct dl *l);
/* Appends cmd << 24 | (data & 0xFFFFFF); returns the word's index (after an
 * allocation failure: the index it would have had, the word is dropped). */
size_t dl_cmd(struct dl *l, unsigned cmd, uint32_t data);
/* FINISH then END. */
void dl_finish(struct dl *l);
/* The GE float payload (24 bits) of a host float: its IEEE bits >> 8. */
uint32_t dl_float24(float f);

/* A frame dump being assembled. */
struct dumpb {
    struct dump d;
    uint32_t cap_rec, cap_data;
    int err;           /* 0, or GT_ENOMEM / GT_ETOO_BIG once a record could not be added */
};

void dumpb_init(struct dumpb *b, uint32_t version);
void dumpb_free(struct dumpb *b);
/* Appends a record whose data is `size` bytes copied from `data`. `pad`
 * bytes of filler go into the data block first (to make data unaligned). */
void dumpb_add(struct dumpb *b, unsigned type, const void *data, uint32_t size, uint32_t pad);
/* Appends a REGISTERS record holding a list's words (nothing when the list
 * itself failed: its error is carried over). */
void dumpb_registers(struct dumpb *b, const struct dl *l);
/* Appends an INIT record of the right size whose registers hold their own
 * command byte with data 0, except those given in cmds (cmd << 24 | data). */
void dumpb_init_record(struct dumpb *b, const uint32_t *cmds, size_t ncmds);
/* Appends the small records: MEMSET (dest, value, size), MEMCPYDEST then
 * MEMCPYDATA, DISPLAY (addr, stride, format), CLUTADDR (addr, flags),
 * FRAMEBUF (level, addr, bufw, flags, data). */
void dumpb_memset(struct dumpb *b, uint32_t dest, uint8_t value, uint32_t size);
void dumpb_memcpy(struct dumpb *b, uint32_t dest, const void *data, uint32_t size);
void dumpb_display(struct dumpb *b, uint32_t addr, uint32_t stride, uint32_t format);
void dumpb_clutaddr(struct dumpb *b, uint32_t addr, uint32_t flags);
void dumpb_framebuf(struct dumpb *b, unsigned level, uint32_t addr, uint32_t bufw, uint32_t flags,
                    const void *data, uint32_t size);

#endif
