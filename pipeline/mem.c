/* PSP memory map for the GE (see mem.h). */
#include "mem.h"

#include <stdlib.h>
#include <string.h>

#include "ge_limits.h"

int mem_init(struct gt_mem *m, struct gt_diag *d)
{
    memset(m, 0, sizeof *m);
    m->ram = calloc(1, GT_RAM_SIZE);
    m->vram = calloc(1, GT_VRAM_SIZE);
    m->scratch = calloc(1, GT_SCRATCH_SIZE);
    m->edram_trans = 0x400;
    if (!m->ram || !m->vram || !m->scratch) {
        mem_free(m);
        return gt_fail(d, GT_ENOMEM, "cannot allocate PSP memory (%u MiB)", (GT_RAM_SIZE + GT_VRAM_SIZE) >> 20);
    }
    return GT_OK;
}

void mem_free(struct gt_mem *m)
{
    free(m->ram);
    free(m->vram);
    free(m->scratch);
    m->ram = m->vram = m->scratch = NULL;
}

void mem_clear(struct gt_mem *m)
{
    memset(m->ram, 0, GT_RAM_SIZE);
    memset(m->vram, 0, GT_VRAM_SIZE);
    memset(m->scratch, 0, GT_SCRATCH_SIZE);
    m->edram_trans = 0x400;
}

/* The depth scramble, measured (ppsspp-site docs/psp-hardware/gpu/
 * image-formats.md, "The depth buffer layout"): the GE stores the depth
 * pixel whose linear VRAM offset is off at this offset instead. It works on
 * the absolute offset and depends only on whether the colour buffer drawn
 * to is 32-bit and on the eDRAM address translation T:
 *   T = 0: with a 32-bit colour buffer bits 9 and 10 swap; then XOR 0x600.
 *   else:  with a 32-bit colour buffer the field of bits 5 up to
 *          ceil(log2 T) - 1 rotates left by one (its top bit wraps to bit 5);
 *          then XOR ((T << 3) | 0x40).
 * Measured for T = 0, 0x200, 0x400, 0x800, 0x1000; other values follow the
 * same formula (a model choice), with the field kept inside VRAM's 21 bits
 * and the result wrapped to VRAM. */
static unsigned rot_bits(uint32_t trans)
{
    unsigned bits = 0;
    while (bits < 16 && (1u << (bits + 5)) < trans) bits++;
    return bits;
}

static uint32_t scramble_xor(uint32_t trans)
{
    return (trans ? (trans << 3) | 0x40 : 0x600) & (GT_VRAM_SIZE - 1);
}

uint32_t mem_depth_offset(uint32_t trans, bool color32, uint32_t off)
{
    off &= GT_VRAM_SIZE - 1;
    if (color32 && !trans) {
        uint32_t b9 = off >> 9 & 1, b10 = off >> 10 & 1;
        off = (off & ~0x600u) | b9 << 10 | b10 << 9;
    } else if (color32) {
        unsigned bits = rot_bits(trans);
        if (bits >= 2) {
            uint32_t mask = ((1u << bits) - 1) << 5, f = (off & mask) >> 5;
            f = ((f << 1) | (f >> (bits - 1))) & ((1u << bits) - 1);
            off = (off & ~mask) | f << 5;
        }
    }
    return (off ^ scramble_xor(trans)) & (GT_VRAM_SIZE - 1);
}

uint32_t mem_depth_block(uint32_t trans)
{
    uint32_t touched = scramble_xor(trans) | 0x7E0; /* the XOR, bits 5-10 (T = 0's swap) */
    if (trans) touched |= ((1u << rot_bits(trans)) - 1) << 5;
    uint32_t block = 1;
    while (block <= touched && block < GT_VRAM_SIZE) block <<= 1;
    return block;
}

/* The bytes from off on that stay contiguous in a depth view: the scramble
 * leaves the bits below its lowest touched bit alone. */
static uint32_t depth_view_run(uint32_t trans, uint32_t off)
{
    uint32_t low = scramble_xor(trans) | 0x20; /* the rotation and the swap start at bit 5 or above */
    low &= -low;
    return low - (off & (low - 1));
}

/* Views 1 and 3 undo the scramble (image-formats.md, "The unswizzling
 * mirrors"): 0x04200000 shows depth drawn with a 16-bit colour buffer
 * linearly, 0x04600000 depth drawn with a 32-bit one. Views 0 and 2 show
 * memory as it is. Tests: probe_mirror_depth_through_views, mem_depth_*. */
uint32_t mem_vram_view_offset(const struct gt_mem *m, unsigned view, uint32_t off)
{
    if (view == 1 || view == 3) return mem_depth_offset(m->edram_trans, view == 3, off);
    return off & (GT_VRAM_SIZE - 1);
}

bool mem_is_vram(uint32_t addr)
{
    addr &= GT_ADDR_MASK;
    return addr >= GT_VRAM_BASE && addr < GT_VRAM_BASE + GT_VRAM_SPAN;
}

/* Host pointer for one address and how many bytes after it (itself included)
 * are contiguous in host memory; NULL when unmapped. */
static uint8_t *resolve(const struct gt_mem *m, uint32_t addr, uint32_t *avail)
{
    addr &= GT_ADDR_MASK;
    if (addr >= GT_RAM_BASE && addr < GT_RAM_BASE + GT_RAM_SIZE) {
        *avail = GT_RAM_BASE + GT_RAM_SIZE - addr;
        return m->ram + (addr - GT_RAM_BASE);
    }
    if (addr >= GT_VRAM_BASE && addr < GT_VRAM_BASE + GT_VRAM_SPAN) {
        uint32_t rel = (addr - GT_VRAM_BASE) & 0x007FFFFFu; /* repeats every 8 MiB */
        unsigned view = rel >> 21;
        uint32_t off = rel & (GT_VRAM_SIZE - 1);
        uint32_t host = mem_vram_view_offset(m, view, off);
        /* Contiguity is only promised for linear views, inside one view;
         * the depth views keep the runs their scramble leaves alone. */
        *avail = (view == 0 || view == 2) ? GT_VRAM_SIZE - off : depth_view_run(m->edram_trans, off);
        return m->vram + host;
    }
    if (addr >= GT_SCRATCH_BASE && addr < GT_SCRATCH_BASE + GT_SCRATCH_SIZE) {
        *avail = GT_SCRATCH_BASE + GT_SCRATCH_SIZE - addr;
        return m->scratch + (addr - GT_SCRATCH_BASE);
    }
    *avail = 0;
    return NULL;
}

uint8_t *mem_ptr(const struct gt_mem *m, uint32_t addr, uint32_t len)
{
    uint32_t avail;
    uint8_t *p = resolve(m, addr, &avail);
    if (!len) len = 1;
    return p && avail >= len ? p : NULL;
}

bool mem_valid_range(const struct gt_mem *m, uint32_t addr, uint32_t len)
{
    while (len) {
        uint32_t avail;
        if (!resolve(m, addr, &avail)) return false;
        if (avail >= len) return true;
        len -= avail;
        addr += avail;
    }
    return true;
}

uint8_t mem_read8(const struct gt_mem *m, uint32_t addr)
{
    uint32_t avail;
    const uint8_t *p = resolve(m, addr, &avail);
    return p ? *p : 0;
}

uint16_t mem_read16(const struct gt_mem *m, uint32_t addr)
{
    uint8_t b[2];
    mem_read(m, addr, b, 2);
    return (uint16_t)(b[0] | b[1] << 8);
}

uint32_t mem_read32(const struct gt_mem *m, uint32_t addr)
{
    uint32_t avail;
    const uint8_t *p = resolve(m, addr, &avail);
    uint8_t b[4];
    if (p && avail >= 4) {
        memcpy(b, p, 4);
    } else {
        mem_read(m, addr, b, 4);
    }
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

void mem_write8(struct gt_mem *m, uint32_t addr, uint8_t v)
{
    uint32_t avail;
    uint8_t *p = resolve(m, addr, &avail);
    if (p) *p = v;
}

void mem_write16(struct gt_mem *m, uint32_t addr, uint16_t v)
{
    mem_write8(m, addr, (uint8_t)v);
    mem_write8(m, addr + 1, (uint8_t)(v >> 8));
}

void mem_write32(struct gt_mem *m, uint32_t addr, uint32_t v)
{
    for (int i = 0; i < 4; i++) mem_write8(m, addr + (uint32_t)i, (uint8_t)(v >> (8 * i)));
}

/* Bytes from an unmapped address to the next mapped region (or the end of
 * the 28-bit space, where addresses wrap). */
static uint32_t unmapped_span(uint32_t addr)
{
    static const uint32_t starts[] = {GT_SCRATCH_BASE, GT_VRAM_BASE, GT_RAM_BASE, GT_ADDR_MASK + 1u};
    addr &= GT_ADDR_MASK;
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++)
        if (starts[i] > addr) return starts[i] - addr;
    return 1;
}

void mem_read(const struct gt_mem *m, uint32_t addr, void *dst, uint32_t len)
{
    uint8_t *out = dst;
    while (len) {
        uint32_t avail;
        const uint8_t *p = resolve(m, addr, &avail);
        if (!p) {
            uint32_t n = unmapped_span(addr);
            if (n > len) n = len;
            memset(out, 0, n);
            out += n;
            addr += n;
            len -= n;
            continue;
        }
        uint32_t n = avail < len ? avail : len;
        memcpy(out, p, n);
        out += n;
        addr += n;
        len -= n;
    }
}

int mem_write(struct gt_mem *m, uint32_t addr, const void *src, uint32_t len, struct gt_diag *d)
{
    if (!mem_valid_range(m, addr, len))
        return gt_fail(d, GT_EBAD_ADDRESS, "write of %u bytes at 0x%08x is outside PSP memory", len, addr);
    const uint8_t *in = src;
    while (len) {
        uint32_t avail;
        uint8_t *p = resolve(m, addr, &avail);
        uint32_t n = avail < len ? avail : len;
        memmove(p, in, n);
        in += n;
        addr += n;
        len -= n;
    }
    return GT_OK;
}

int mem_fill(struct gt_mem *m, uint32_t addr, uint8_t value, uint32_t len, struct gt_diag *d)
{
    if (!mem_valid_range(m, addr, len))
        return gt_fail(d, GT_EBAD_ADDRESS, "fill of %u bytes at 0x%08x is outside PSP memory", len, addr);
    while (len) {
        uint32_t avail;
        uint8_t *p = resolve(m, addr, &avail);
        uint32_t n = avail < len ? avail : len;
        memset(p, value, n);
        addr += n;
        len -= n;
    }
    return GT_OK;
}
