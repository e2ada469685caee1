/* PSP memory as the GE sees it: regions, mirrors, masking, bounds. */
#include <string.h>

#include "ge_limits.h"
#include "mem.h"
#include "test.h"

static struct gt_mem m;

static void setup(void)
{
    struct gt_diag d = {0};
    CHECK_EQ_I(mem_init(&m, &d), GT_OK);
}

TEST(mem_vram_mirrors)
{
    setup();
    /* One word written through the base address shows in the linear views
     * (0 and 2), their uncached (0x4...) and kernel (0x8...) aliases, and
     * the 8 MiB repeat. */
    mem_write32(&m, 0x04012340, 0xA1B2C3D4);
    const uint32_t aliases[] = {0x04012340, 0x04412340, 0x44012340, 0x84012340, 0x04812340, 0x04C12340, 0x44412340};
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        CHECK_MSG(mem_read32(&m, aliases[i]) == 0xA1B2C3D4, "alias 0x%08x reads 0x%08x", aliases[i],
                  mem_read32(&m, aliases[i]));
    /* The depth views (1 and 3, also in the repeat) show it elsewhere: at
     * translation 0x400 the word at 0x12340 is read at 0x10300 ^ 0x2040 =
     * 0x12340 through view 1 from linear offset 0x10300 (see
     * mem_depth_scramble_measured). */
    CHECK_EQ_U(mem_read32(&m, 0x04210300), 0xA1B2C3D4);
    CHECK_EQ_U(mem_read32(&m, 0x04A10300), 0xA1B2C3D4);
    /* and a write through a linear mirror lands in the same byte */
    mem_write8(&m, 0x04412341, 0x55);
    CHECK_EQ_U(mem_read32(&m, 0x04012340), 0xA1B255D4);
    CHECK(mem_is_vram(0x04000000) && mem_is_vram(0x44FFFFFF) && !mem_is_vram(0x05000000) && !mem_is_vram(0x08000000));
}

/* The depth scramble of ppsspp-site image-formats.md ("The depth buffer
 * layout", measured on a PSP for T = 0, 0x200, 0x400, 0x800, 0x1000): the
 * expected offsets were computed by a separate transcription of the page's
 * formula (a Python script, not this code), for the colour formats 16-bit
 * and 32-bit. Views 1 and 3 undo it: reading linear offset off through
 * view 1 (3) reads the byte the GE stores depth pixel off at with a 16-bit
 * (32-bit) colour buffer. */
TEST(mem_depth_scramble_measured)
{
    static const struct { uint32_t t, off, c16, c32; } cases[] = {
        {0x000, 0x12340, 0x12540, 0x12340},  {0x000, 0x883FE, 0x885FE, 0x883FE},
        {0x000, 0x1FFFE0, 0x1FF9E0, 0x1FF9E0}, {0x200, 0x12340, 0x13300, 0x132E0},
        {0x200, 0x883FE, 0x893BE, 0x893BE},  {0x200, 0x1FFFE0, 0x1FEFA0, 0x1FEFA0},
        {0x400, 0x12340, 0x10300, 0x102E0},  {0x400, 0x883FE, 0x8A3BE, 0x8A3BE},
        {0x400, 0x1FFFE0, 0x1FDFA0, 0x1FDFA0}, {0x800, 0x12340, 0x16300, 0x166C0},
        {0x800, 0x883FE, 0x8C3BE, 0x8C79E},  {0x800, 0x1FFFE0, 0x1FBFA0, 0x1FBFA0},
        {0x1000, 0x12340, 0x1A300, 0x1A6C0}, {0x1000, 0x883FE, 0x803BE, 0x8079E},
        {0x1000, 0x1FFFE0, 0x1F7FA0, 0x1F7FA0},
    };
    setup();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_EQ_U(mem_depth_offset(cases[i].t, false, cases[i].off), cases[i].c16);
        CHECK_EQ_U(mem_depth_offset(cases[i].t, true, cases[i].off), cases[i].c32);
        m.edram_trans = cases[i].t;
        memset(m.vram, 0, GT_VRAM_SIZE);
        m.vram[cases[i].c16] = 0x5A;
        m.vram[cases[i].c32 + 1] = 0xA5;
        CHECK_EQ_U(mem_read8(&m, 0x04200000 + cases[i].off), 0x5A);
        CHECK_EQ_U(mem_read8(&m, 0x04600000 + cases[i].off + 1), 0xA5);
        /* A depth block holds every byte its range scrambles to. */
        uint32_t blk = mem_depth_block(cases[i].t);
        CHECK((cases[i].c16 & ~(blk - 1)) == (cases[i].off & ~(blk - 1)));
        CHECK((cases[i].c32 & ~(blk - 1)) == (cases[i].off & ~(blk - 1)));
    }
    /* Hostile translation values stay inside VRAM. */
    CHECK(mem_depth_offset(0xFFFFFFFFu, true, 0x1FFFFF) < GT_VRAM_SIZE);
    CHECK(mem_depth_offset(0x80000000u, false, 0x1FFFFF) < GT_VRAM_SIZE);
}

TEST(mem_ram_and_scratchpad)
{
    setup();
    mem_write32(&m, 0x08000000, 0x11223344);
    mem_write32(&m, 0x0BFFFFFC, 0x55667788);
    CHECK_EQ_U(mem_read32(&m, 0x48000000), 0x11223344); /* uncached alias */
    CHECK_EQ_U(mem_read32(&m, 0x0BFFFFFC), 0x55667788);
    CHECK_EQ_U(m.ram[GT_RAM_SIZE - 1], 0x55);
    mem_write16(&m, 0x00013FFE, 0xBEEF);
    CHECK_EQ_U(mem_read16(&m, 0x00013FFE), 0xBEEF);
    CHECK_EQ_U(m.scratch[GT_SCRATCH_SIZE - 2], 0xEF);
    /* unaligned little-endian access */
    mem_write32(&m, 0x08000101, 0xCAFEBABE);
    CHECK_EQ_U(mem_read8(&m, 0x08000101), 0xBE);
    CHECK_EQ_U(mem_read16(&m, 0x08000103), 0xCAFE);
}

TEST(mem_unmapped_is_safe)
{
    setup();
    struct gt_diag d = {0};
    /* Every word here lies wholly outside scratchpad, VRAM and RAM. */
    const uint32_t holes[] = {0x00000000, 0x0000FFFC, 0x00014000, 0x03FFFFFC, 0x05000000, 0x07FFFFFC,
                              0x0C000000, 0x0FFFFFFC, 0xFFFFFFFC};
    for (size_t i = 0; i < sizeof holes / sizeof holes[0]; i++) {
        mem_write32(&m, holes[i], 0xFFFFFFFF); /* dropped */
        CHECK_EQ_U(mem_read32(&m, holes[i]), 0);
        CHECK(mem_ptr(&m, holes[i], 1) == NULL);
        CHECK(!mem_valid_range(&m, holes[i], 1));
    }
    /* A range running off the end of RAM is refused whole, nothing written. */
    uint8_t buf[32];
    memset(buf, 0x77, sizeof buf);
    CHECK_EQ_I(mem_write(&m, 0x0BFFFFF0, buf, 32, &d), GT_EBAD_ADDRESS);
    CHECK(strstr(d.msg, "0x0bfffff0") != NULL);
    CHECK_EQ_U(m.ram[GT_RAM_SIZE - 16], 0);
    CHECK_EQ_I(mem_fill(&m, 0x07FFFFFF, 1, 2, &d), GT_EBAD_ADDRESS);
    CHECK(mem_ptr(&m, 0x0BFFFFF0, 17) == NULL);
    CHECK(mem_ptr(&m, 0x0BFFFFF0, 16) != NULL);
    /* Reads straddling a hole read zeros for the unmapped part. */
    mem_write8(&m, 0x0BFFFFFF, 0x99);
    CHECK_EQ_U(mem_read16(&m, 0x0BFFFFFF), 0x0099);
    /* Huge lengths cost nothing and are refused. */
    CHECK(!mem_valid_range(&m, 0x08000000, 0xFFFFFFFF));
}

TEST(mem_vram_range_wraps_views)
{
    setup();
    struct gt_diag d = {0};
    uint8_t buf[64], back[64];
    for (int i = 0; i < 64; i++) buf[i] = (uint8_t)(i + 1);
    /* Crossing from the last bytes of view 0 into view 1 wraps to VRAM's
     * start, seen through the depth view: offsets 0..31 at translation
     * 0x400 are stored at 0x2040..0x205F (mem_depth_scramble_measured). */
    CHECK_EQ_I(mem_write(&m, 0x041FFFE0, buf, 64, &d), GT_OK);
    CHECK_EQ_U(m.vram[GT_VRAM_SIZE - 32], 1);
    CHECK_EQ_U(m.vram[0x2040], 33);
    CHECK_EQ_U(m.vram[0x205F], 64);
    mem_read(&m, 0x045FFFE0, back, 64); /* view 2's end runs into view 3, the same 32 bytes */
    CHECK(memcmp(buf, back, 64) == 0);
    CHECK(mem_ptr(&m, 0x041FFFE0, 64) == NULL); /* not contiguous in host memory */
    /* The end of the VRAM span is the end of VRAM. */
    CHECK(mem_valid_range(&m, 0x04FFFFF0, 16));
    CHECK(!mem_valid_range(&m, 0x04FFFFF0, 17));
}
