/* PSP memory as the GE sees it: scratchpad, 2 MiB of VRAM with its mirrors,
 * and main RAM. Every address from a display list or a dump goes through
 * this module; none is ever used as a host offset unchecked.
 *
 * Addresses are first masked to 28 bits (GT_ADDR_MASK), as the GE drops the
 * cache/kernel bits. VRAM is seen through four 2 MiB views at 0x04000000,
 * 0x04200000, 0x04400000 and 0x04600000, repeated every 8 MiB up to
 * 0x04FFFFFF. Views 1 and 3 are the depth-buffer "swizzled" mirrors
 * (GE-HARDWARE.md §6); their address translation is mem_vram_view_offset().
 * Reads of unmapped addresses return 0 and writes to them are dropped; the
 * functions that take ranges report them instead. */
#ifndef GETILE_MEM_H
#define GETILE_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gt_error.h"

struct gt_mem {
    uint8_t *ram;          /* GT_RAM_SIZE bytes */
    uint8_t *vram;         /* GT_VRAM_SIZE bytes */
    uint8_t *scratch;      /* GT_SCRATCH_SIZE bytes */
    uint32_t edram_trans;  /* eDRAM address translation value (dumps record it; 0x400 at boot) */
};

/* Allocates zeroed memory. Returns 0 or GT_ENOMEM. */
int mem_init(struct gt_mem *m, struct gt_diag *d);
void mem_free(struct gt_mem *m);
/* Zeroes all memory. */
void mem_clear(struct gt_mem *m);

/* Offset inside VRAM that `view` (0-3) maps `off` (0..GT_VRAM_SIZE-1) to:
 * views 1 and 3 undo the depth scramble of 16-bit and 32-bit colour buffers. */
uint32_t mem_vram_view_offset(const struct gt_mem *m, unsigned view, uint32_t off);
/* Where the GE stores the depth pixel whose linear VRAM offset is off, for
 * eDRAM address translation trans, drawing to a 32-bit colour buffer or not
 * (the measured depth scramble; mem.c). */
uint32_t mem_depth_offset(uint32_t trans, bool color32, uint32_t off);
/* The power-of-two size of the aligned VRAM blocks inside which the depth
 * scramble of trans moves bytes: a linear range widened to whole blocks
 * holds every byte it scrambles to. */
uint32_t mem_depth_block(uint32_t trans);

/* Host pointer to `len` contiguous bytes at `addr`, or NULL when any of them
 * is unmapped or the range is not contiguous in host memory (it crosses the
 * end of a region or a VRAM view). len 0 is treated as 1. */
uint8_t *mem_ptr(const struct gt_mem *m, uint32_t addr, uint32_t len);
/* True when every byte of [addr, addr+len) is mapped (ranges may cross VRAM
 * views and wrap around VRAM's 8 MiB repeat). */
bool mem_valid_range(const struct gt_mem *m, uint32_t addr, uint32_t len);
/* True for any address in VRAM or its mirrors. */
bool mem_is_vram(uint32_t addr);

uint8_t mem_read8(const struct gt_mem *m, uint32_t addr);
uint16_t mem_read16(const struct gt_mem *m, uint32_t addr); /* little endian, any alignment */
uint32_t mem_read32(const struct gt_mem *m, uint32_t addr);
void mem_write8(struct gt_mem *m, uint32_t addr, uint8_t v);
void mem_write16(struct gt_mem *m, uint32_t addr, uint16_t v);
void mem_write32(struct gt_mem *m, uint32_t addr, uint32_t v);

/* Copies host bytes into PSP memory byte-range by byte-range (crossing VRAM
 * views correctly). Returns 0, or GT_EBAD_ADDRESS (nothing written) when any
 * byte is unmapped. */
int mem_write(struct gt_mem *m, uint32_t addr, const void *src, uint32_t len, struct gt_diag *d);
/* Copies PSP memory out; unmapped bytes read as 0. */
void mem_read(const struct gt_mem *m, uint32_t addr, void *dst, uint32_t len);
/* Fills PSP memory; GT_EBAD_ADDRESS (nothing written) when any byte is unmapped. */
int mem_fill(struct gt_mem *m, uint32_t addr, uint8_t value, uint32_t len, struct gt_diag *d);

#endif
