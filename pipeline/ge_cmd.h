/* GE command numbers (the top 8 bits of a display-list word) and the
 * command table: a name and a description of what each command changes. */
#ifndef GETILE_GE_CMD_H
#define GETILE_GE_CMD_H

#include <stdint.h>

enum ge_cmd {
    GE_NOP = 0x00, GE_VADDR = 0x01, GE_IADDR = 0x02, GE_PRIM = 0x04, GE_BEZIER = 0x05,
    GE_SPLINE = 0x06, GE_BBOX = 0x07, GE_JUMP = 0x08, GE_BJUMP = 0x09, GE_CALL = 0x0A,
    GE_RET = 0x0B, GE_END = 0x0C, GE_SIGNAL = 0x0E, GE_FINISH = 0x0F, GE_BASE = 0x10,
    GE_VTYPE = 0x12, GE_OFFSETADDR = 0x13, GE_ORIGIN = 0x14, GE_REGION1 = 0x15, GE_REGION2 = 0x16,
    GE_LIGHTING_ON = 0x17, GE_LIGHT0_ON = 0x18, GE_DEPTHCLIP_ON = 0x1C, GE_CULL_ON = 0x1D,
    GE_TEXTURE_ON = 0x1E, GE_FOG_ON = 0x1F, GE_DITHER_ON = 0x20, GE_BLEND_ON = 0x21,
    GE_ALPHATEST_ON = 0x22, GE_ZTEST_ON = 0x23, GE_STENCILTEST_ON = 0x24, GE_ANTIALIAS_ON = 0x25,
    GE_PATCHCULL_ON = 0x26, GE_COLORTEST_ON = 0x27, GE_LOGICOP_ON = 0x28,
    GE_BONE_NUM = 0x2A, GE_BONE_DATA = 0x2B, GE_MORPH0 = 0x2C, GE_PATCH_DIV = 0x36,
    GE_PATCH_PRIM = 0x37, GE_PATCH_FACING = 0x38, GE_WORLD_NUM = 0x3A, GE_WORLD_DATA = 0x3B,
    GE_VIEW_NUM = 0x3C, GE_VIEW_DATA = 0x3D, GE_PROJ_NUM = 0x3E, GE_PROJ_DATA = 0x3F,
    GE_TGEN_NUM = 0x40, GE_TGEN_DATA = 0x41, GE_VIEWPORT_SX = 0x42, GE_TEXSCALE_U = 0x48,
    GE_OFFSET_X = 0x4C, GE_OFFSET_Y = 0x4D, GE_SHADEMODE = 0x50, GE_REVERSE_NORMAL = 0x51,
    GE_MATERIAL_UPDATE = 0x53, GE_LIGHT_MODE = 0x5E, GE_LIGHT_TYPE0 = 0x5F, GE_CULL = 0x9B,
    GE_FB_PTR = 0x9C, GE_FB_WIDTH = 0x9D, GE_Z_PTR = 0x9E, GE_Z_WIDTH = 0x9F,
    GE_TEX_ADDR0 = 0xA0, GE_TEX_BUFW0 = 0xA8, GE_CLUT_ADDR = 0xB0, GE_CLUT_ADDR_UPPER = 0xB1,
    GE_TRX_SRC = 0xB2, GE_TRX_SRC_W = 0xB3, GE_TRX_DST = 0xB4, GE_TRX_DST_W = 0xB5,
    GE_TEX_SIZE0 = 0xB8, GE_TEX_MAPMODE = 0xC0, GE_TEX_SHADE = 0xC1, GE_TEX_MODE = 0xC2,
    GE_TEX_FORMAT = 0xC3, GE_LOAD_CLUT = 0xC4, GE_CLUT_FORMAT = 0xC5, GE_TEX_FILTER = 0xC6,
    GE_TEX_WRAP = 0xC7, GE_TEX_LEVEL = 0xC8, GE_TEX_FUNC = 0xC9, GE_TEX_ENV = 0xCA,
    GE_TEX_FLUSH = 0xCB, GE_TEX_SYNC = 0xCC, GE_FOG1 = 0xCD, GE_FOG2 = 0xCE, GE_FOG_COLOR = 0xCF,
    GE_TEX_LOD_SLOPE = 0xD0, GE_FB_FORMAT = 0xD2, GE_CLEAR_MODE = 0xD3, GE_SCISSOR1 = 0xD4,
    GE_SCISSOR2 = 0xD5, GE_MIN_Z = 0xD6, GE_MAX_Z = 0xD7, GE_COLOR_TEST = 0xD8,
    GE_COLOR_REF = 0xD9, GE_COLOR_TEST_MASK = 0xDA, GE_ALPHA_TEST = 0xDB, GE_STENCIL_TEST = 0xDC,
    GE_STENCIL_OP = 0xDD, GE_Z_TEST = 0xDE, GE_BLEND_MODE = 0xDF, GE_BLEND_FIXA = 0xE0,
    GE_BLEND_FIXB = 0xE1, GE_DITHER0 = 0xE2, GE_LOGIC_OP = 0xE6, GE_Z_WRITE_DISABLE = 0xE7,
    GE_MASK_RGB = 0xE8, GE_MASK_ALPHA = 0xE9, GE_TRX_KICK = 0xEA, GE_TRX_SRC_POS = 0xEB,
    GE_TRX_DST_POS = 0xEC, GE_TRX_SIZE = 0xEE, GE_VSCX = 0xF0, GE_VAP = 0xF7,
};

/* What a command affects; several may be set. */
enum ge_cmd_flag {
    GE_CF_FLOW = 1 << 0,      /* changes the program counter or ends the list */
    GE_CF_KICK = 1 << 1,      /* starts work: drawing, bounding box, transfer, CLUT load */
    GE_CF_VERTEX = 1 << 2,    /* vertex decode, transform, lighting state */
    GE_CF_RASTER = 1 << 3,    /* rasterizer and per-pixel state */
    GE_CF_TEXTURE = 1 << 4,   /* texture sampling state */
    GE_CF_MATRIX = 1 << 5,    /* matrix upload (index or data) */
    GE_CF_TRANSFER = 1 << 6,  /* block transfer registers */
    GE_CF_ADDRESS = 1 << 7,   /* address registers (vertex, index, base, offset) */
    GE_CF_FRAMEBUF = 1 << 8,  /* color or depth buffer location or format */
    GE_CF_UNUSED = 1 << 9,    /* no known function: stored, otherwise ignored */
};

struct ge;
struct gt_diag;

/* Executes one word; returns 0 or a negative gt_err. */
typedef int (*ge_handler)(struct ge *ge, uint32_t word, struct gt_diag *d);

struct ge_cmd_info {
    const char *name;
    unsigned flags;
    ge_handler run; /* NULL: storing the word is all the command does */
};

/* The table for all 256 command numbers. */
extern const struct ge_cmd_info ge_cmd_table[256];

#endif
