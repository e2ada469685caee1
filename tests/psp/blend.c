/* Ports of pspautotests tests/gpu/commands/blend.cpp and blend565.cpp: the
 * whole framebuffer filled with `prev` through the DMA, then a 2x2
 * through-mode sprite (float positions -1..1) of colour c blended with the
 * given equation and factors, stencil REPLACE 0xAA on; the program prints
 * the first pixel (COLOR=%08x, or %04x for the 565 framebuffer), then
 * fills the buffer with 0x44 bytes. The case lists are the programs' own
 * (the calls in main, in order). */
#include "psp/ports.h"

#include "psp/gu.h"

struct blend_case {
    const char *label, *title;
    uint32_t prev, c;
    int op, src, dst;
    uint32_t fixa, fixb;
};
#define L(s) {s, NULL, 0, 0, 0, 0, 0, 0, 0}

static const struct blend_case cases8888[] = {
        L("Common:"),
        {0, "  One + Zero", 0x44444444, 0xEEDDCCBB, GU_ADD, GU_FIX, GU_FIX, 0xFFFFFFFF, 0x00000000},
        {0, "  Zero + One", 0x44444444, 0xEEDDCCBB, GU_ADD, GU_FIX, GU_FIX, 0x00000000, 0xFFFFFFFF},
        {0, "  Alpha + Inverse alpha", 0x44444444, 0xEEDDCCBB, GU_ADD, GU_SRC_ALPHA, GU_ONE_MINUS_SRC_ALPHA, 0x80808080, 0x80808080},
        L("Doubling:"),
        {0, "  Double source alpha + Zero 0x80808080", 0x40404040, 0x80808080, GU_ADD, GU_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double source alpha + Zero 0x80909090", 0x40404040, 0x80909090, GU_ADD, GU_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double source alpha + Zero 0x90808080", 0x40404040, 0x90808080, GU_ADD, GU_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double source alpha + Zero 0xFF707070", 0x40404040, 0xFF707070, GU_ADD, GU_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double source alpha + Zero 0xFF909090", 0x40404040, 0xFF909090, GU_ADD, GU_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double source alpha + Zero 0x7FFFFFFF", 0x40404040, 0x7FFFFFFF, GU_ADD, GU_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double source alpha + Zero 0xFF7F7F7F", 0x40404040, 0xFF7F7F7F, GU_ADD, GU_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double source alpha + Zero 0x80808080", 0x40404040, 0x80808080, GU_ADD, GU_ONE_MINUS_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double source alpha + Zero 0x80909090", 0x40404040, 0x80909090, GU_ADD, GU_ONE_MINUS_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double source alpha + Zero 0x90808080", 0x40404040, 0x90808080, GU_ADD, GU_ONE_MINUS_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double source alpha + Zero 0x40808080", 0x40404040, 0x40808080, GU_ADD, GU_ONE_MINUS_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double source alpha + Zero 0xFF1188FF", 0x40404040, 0xFF1188FF, GU_ADD, GU_ONE_MINUS_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double source alpha + Zero 0x7FFFFFFF", 0x40404040, 0x7FFFFFFF, GU_ADD, GU_ONE_MINUS_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double source alpha + Zero 0xFF7F7F7F", 0x40404040, 0xFF7F7F7F, GU_ADD, GU_ONE_MINUS_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double dest alpha + Zero 0x40 + 0x80808080", 0x40404040, 0x80808080, GU_ADD, GU_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double dest alpha + Zero 0x90 + 0x80808080", 0x90404040, 0x80808080, GU_ADD, GU_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double dest alpha + Zero 0x40 + 0x80909090", 0x40404040, 0x80909090, GU_ADD, GU_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double dest alpha + Zero 0xFF + 0x70707070", 0xFF404040, 0x70707070, GU_ADD, GU_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double dest alpha + Zero 0xFF + 0x90909090", 0xFF404040, 0x90909090, GU_ADD, GU_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double dest alpha + Zero 0x7F + 0xFFFFFFFF", 0x7F404040, 0xFFFFFFFF, GU_ADD, GU_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double dest alpha + Zero 0xFF + 0x7F7F7F7F", 0xFF404040, 0x7F7F7F7F, GU_ADD, GU_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double dest alpha + Zero 0x40 + 0x80808080", 0x40404040, 0x80808080, GU_ADD, GU_ONE_MINUS_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double dest alpha + Zero 0x90 + 0x80909090", 0x90404040, 0x80909090, GU_ADD, GU_ONE_MINUS_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double dest alpha + Zero 0x40 + 0x80808080", 0x40404040, 0x80808080, GU_ADD, GU_ONE_MINUS_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double dest alpha + Zero 0xFF + 0x80808080", 0xFF404040, 0x80808080, GU_ADD, GU_ONE_MINUS_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double dest alpha + Zero 0xFF + 0xFF1188FF", 0xFF404040, 0xFF1188FF, GU_ADD, GU_ONE_MINUS_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double dest alpha + Zero 0x7F + 0xFFFFFFFF", 0x7F404040, 0xFFFFFFFF, GU_ADD, GU_ONE_MINUS_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double dest alpha + Zero 0xFF + 0x7F7F7F7F", 0xFF404040, 0x7F7F7F7F, GU_ADD, GU_ONE_MINUS_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        L("Factors:"),
        {0, "  Dest color + Zero", 0x50404040, 0x90808080, GU_ADD, GU_DST_COLOR, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse dest color + Zero", 0x50404040, 0x90808080, GU_ADD, GU_ONE_MINUS_DST_COLOR, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Src alpha + Zero", 0x50404040, 0x90808080, GU_ADD, GU_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse src alpha + Zero", 0x50404040, 0x90808080, GU_ADD, GU_ONE_MINUS_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Dest alpha + Zero", 0x50404040, 0x90808080, GU_ADD, GU_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse dest alpha + Zero", 0x50404040, 0x90808080, GU_ADD, GU_ONE_MINUS_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double src alpha + Zero", 0x50404040, 0x90808080, GU_ADD, GU_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double src alpha + Zero", 0x50404040, 0x90808080, GU_ADD, GU_ONE_MINUS_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double dest alpha + Zero", 0x50404040, 0x90808080, GU_ADD, GU_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double dest alpha + Zero", 0x50404040, 0x90808080, GU_ADD, GU_ONE_MINUS_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Fix + Zero", 0x50404040, 0x90808080, GU_ADD, GU_FIX, GU_FIX, 0x90808080, 0x00000000},
        {0, "  Zero + Src color", 0x50404040, 0x90808080, GU_ADD, GU_FIX, GU_SRC_COLOR, 0x00000000, 0x00000000},
        {0, "  Zero + Inverse dest color", 0x50404040, 0x90808080, GU_ADD, GU_FIX, GU_ONE_MINUS_SRC_COLOR, 0x00000000, 0x00000000},
        {0, "  Zero + Src alpha", 0x50404040, 0x90808080, GU_ADD, GU_FIX, GU_SRC_ALPHA, 0x00000000, 0x00000000},
        {0, "  Zero + Inverse src alpha", 0x50404040, 0x90808080, GU_ADD, GU_FIX, GU_ONE_MINUS_SRC_ALPHA, 0x00000000, 0x00000000},
        {0, "  Zero + Dest alpha", 0x50404040, 0x90808080, GU_ADD, GU_FIX, GU_DST_ALPHA, 0x00000000, 0x00000000},
        {0, "  Zero + Inverse dest alpha", 0x50404040, 0x90808080, GU_ADD, GU_FIX, GU_ONE_MINUS_DST_ALPHA, 0x00000000, 0x00000000},
        {0, "  Zero + Double src alpha", 0x50404040, 0x90808080, GU_ADD, GU_FIX, GU_DOUBLE_SRC_ALPHA, 0x00000000, 0x00000000},
        {0, "  Zero + Inverse double src alpha", 0x50404040, 0x90808080, GU_ADD, GU_FIX, GU_ONE_MINUS_DOUBLE_SRC_ALPHA, 0x00000000, 0x00000000},
        {0, "  Zero + Double dest alpha", 0x50404040, 0x90808080, GU_ADD, GU_FIX, GU_DOUBLE_DST_ALPHA, 0x00000000, 0x00000000},
        {0, "  Zero + Inverse double dest alpha", 0x50404040, 0x90808080, GU_ADD, GU_FIX, GU_ONE_MINUS_DOUBLE_DST_ALPHA, 0x00000000, 0x00000000},
        L("Add:"),
        {0, "  F0 + 0F", 0xFFFFFFFF, 0xFFFFFFFF, GU_ADD, GU_FIX, GU_FIX, 0xF0F0F0F0, 0x0F0F0F0F},
        {0, "  0F + F0", 0xFFFFFFFF, 0xFFFFFFFF, GU_ADD, GU_FIX, GU_FIX, 0x0F0F0F0F, 0xF0F0F0F0},
        L("Subtract:"),
        {0, "  F0 - 0F", 0xFFFFFFFF, 0xFFFFFFFF, GU_SUBTRACT, GU_FIX, GU_FIX, 0xF0F0F0F0, 0x0F0F0F0F},
        {0, "  0F - F0", 0xFFFFFFFF, 0xFFFFFFFF, GU_SUBTRACT, GU_FIX, GU_FIX, 0x0F0F0F0F, 0xF0F0F0F0},
        L("Reverse subtract:"),
        {0, "  Reverse F0 - 0F", 0xFFFFFFFF, 0xFFFFFFFF, GU_REVERSE_SUBTRACT, GU_FIX, GU_FIX, 0xF0F0F0F0, 0x0F0F0F0F},
        {0, "  Reverse 0F - F0", 0xFFFFFFFF, 0xFFFFFFFF, GU_REVERSE_SUBTRACT, GU_FIX, GU_FIX, 0x0F0F0F0F, 0xF0F0F0F0},
        L("Min:"),
        {0, "  Min 0F, F0", 0xF0F0F0F0, 0x0F0F0F0F, GU_MIN, GU_FIX, GU_FIX, 0x80808080, 0x80808080},
        {0, "  Min F0, 0F", 0x0F0F0F0F, 0xF0F0F0F0, GU_MIN, GU_FIX, GU_FIX, 0x80808080, 0x80808080},
        L("Max:"),
        {0, "  Max 0F, F0", 0xF0F0F0F0, 0x0F0F0F0F, GU_MAX, GU_FIX, GU_FIX, 0x80808080, 0x80808080},
        {0, "  Max F0, 0F", 0x0F0F0F0F, 0xF0F0F0F0, GU_MAX, GU_FIX, GU_FIX, 0x80808080, 0x80808080},
        L("Absolute difference:"),
        {0, "  Abs 0F - F0", 0xF0F0F0F0, 0x0F0F0F0F, GU_ABS, GU_FIX, GU_FIX, 0x80808080, 0x80808080},
        {0, "  Abs F0 - 0F", 0x0F0F0F0F, 0xF0F0F0F0, GU_ABS, GU_FIX, GU_FIX, 0x80808080, 0x80808080},
};

static const struct blend_case cases565[] = {
        L("Common:"),
        {0, "  One + Zero", 0x4444, 0xEEDDCCBB, GU_ADD, GU_FIX, GU_FIX, 0xFFFFFFFF, 0x00000000},
        {0, "  Zero + One", 0x4444, 0xEEDDCCBB, GU_ADD, GU_FIX, GU_FIX, 0x00000000, 0xFFFFFFFF},
        {0, "  Alpha + Inverse alpha", 0x4444, 0xEEDDCCBB, GU_ADD, GU_SRC_ALPHA, GU_ONE_MINUS_SRC_ALPHA, 0x80808080, 0x80808080},
        L("Doubling:"),
        {0, "  Double source alpha + Zero 0x80808080", 0x4444, 0x80808080, GU_ADD, GU_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double source alpha + Zero 0x80909090", 0x4444, 0x80909090, GU_ADD, GU_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double source alpha + Zero 0x90808080", 0x4444, 0x90808080, GU_ADD, GU_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double source alpha + Zero 0xFF707070", 0x4444, 0xFF707070, GU_ADD, GU_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double source alpha + Zero 0xFF909090", 0x4444, 0xFF909090, GU_ADD, GU_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double source alpha + Zero 0x7FFFFFFF", 0x4444, 0x7FFFFFFF, GU_ADD, GU_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double source alpha + Zero 0xFF7F7F7F", 0x4444, 0xFF7F7F7F, GU_ADD, GU_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double source alpha + Zero 0x80808080", 0x4444, 0x80808080, GU_ADD, GU_ONE_MINUS_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double source alpha + Zero 0x80909090", 0x4444, 0x80909090, GU_ADD, GU_ONE_MINUS_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double source alpha + Zero 0x90808080", 0x4444, 0x90808080, GU_ADD, GU_ONE_MINUS_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double source alpha + Zero 0x40808080", 0x4444, 0x40808080, GU_ADD, GU_ONE_MINUS_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double source alpha + Zero 0xFF1188FF", 0x4444, 0xFF1188FF, GU_ADD, GU_ONE_MINUS_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double source alpha + Zero 0x7FFFFFFF", 0x4444, 0x7FFFFFFF, GU_ADD, GU_ONE_MINUS_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double source alpha + Zero 0xFF7F7F7F", 0x4444, 0xFF7F7F7F, GU_ADD, GU_ONE_MINUS_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double dest alpha + Zero 0x80808080", 0x4444, 0x80808080, GU_ADD, GU_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double dest alpha + Zero 0x80808080", 0x9444, 0x80808080, GU_ADD, GU_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double dest alpha + Zero 0x80909090", 0x4444, 0x80909090, GU_ADD, GU_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double dest alpha + Zero 0x70707070", 0xF444, 0x70707070, GU_ADD, GU_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double dest alpha + Zero 0x90909090", 0xF444, 0x90909090, GU_ADD, GU_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double dest alpha + Zero 0xFFFFFFFF", 0x7444, 0xFFFFFFFF, GU_ADD, GU_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double dest alpha + Zero 0x7F7F7F7F", 0xF444, 0x7F7F7F7F, GU_ADD, GU_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double dest alpha + Zero 0x80808080", 0x4444, 0x80808080, GU_ADD, GU_ONE_MINUS_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double dest alpha + Zero 0x80909090", 0x9444, 0x80909090, GU_ADD, GU_ONE_MINUS_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double dest alpha + Zero 0x80808080", 0x4444, 0x80808080, GU_ADD, GU_ONE_MINUS_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double dest alpha + Zero 0x80808080", 0xF444, 0x80808080, GU_ADD, GU_ONE_MINUS_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double dest alpha + Zero 0xFF1188FF", 0xF444, 0xFF1188FF, GU_ADD, GU_ONE_MINUS_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double dest alpha + Zero 0xFFFFFFFF", 0x7444, 0xFFFFFFFF, GU_ADD, GU_ONE_MINUS_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double dest alpha + Zero 0x7F7F7F7F", 0xF444, 0x7F7F7F7F, GU_ADD, GU_ONE_MINUS_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        L("Factors:"),
        {0, "  Dest color + Zero", 0x5444, 0x90808080, GU_ADD, GU_DST_COLOR, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse dest color + Zero", 0x5444, 0x90808080, GU_ADD, GU_ONE_MINUS_DST_COLOR, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Src alpha + Zero", 0x5444, 0x90808080, GU_ADD, GU_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse src alpha + Zero", 0x5444, 0x90808080, GU_ADD, GU_ONE_MINUS_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Dest alpha + Zero", 0x5444, 0x90808080, GU_ADD, GU_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse dest alpha + Zero", 0x5444, 0x90808080, GU_ADD, GU_ONE_MINUS_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double src alpha + Zero", 0x5444, 0x90808080, GU_ADD, GU_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double src alpha + Zero", 0x5444, 0x90808080, GU_ADD, GU_ONE_MINUS_DOUBLE_SRC_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Double dest alpha + Zero", 0x5444, 0x90808080, GU_ADD, GU_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Inverse double dest alpha + Zero", 0x5444, 0x90808080, GU_ADD, GU_ONE_MINUS_DOUBLE_DST_ALPHA, GU_FIX, 0x00000000, 0x00000000},
        {0, "  Fix + Zero", 0x5444, 0x90808080, GU_ADD, GU_FIX, GU_FIX, 0x90808080, 0x00000000},
        {0, "  Zero + Src color", 0x5444, 0x90808080, GU_ADD, GU_FIX, GU_SRC_COLOR, 0x00000000, 0x00000000},
        {0, "  Zero + Inverse dest color", 0x5440, 0x90808080, GU_ADD, GU_FIX, GU_ONE_MINUS_SRC_COLOR, 0x00000000, 0x00000000},
        {0, "  Zero + Src alpha", 0x5444, 0x90808080, GU_ADD, GU_FIX, GU_SRC_ALPHA, 0x00000000, 0x00000000},
        {0, "  Zero + Inverse src alpha", 0x5444, 0x90808080, GU_ADD, GU_FIX, GU_ONE_MINUS_SRC_ALPHA, 0x00000000, 0x00000000},
        {0, "  Zero + Dest alpha", 0x5444, 0x90808080, GU_ADD, GU_FIX, GU_DST_ALPHA, 0x00000000, 0x00000000},
        {0, "  Zero + Inverse dest alpha", 0x5444, 0x90808080, GU_ADD, GU_FIX, GU_ONE_MINUS_DST_ALPHA, 0x00000000, 0x00000000},
        {0, "  Zero + Double src alpha", 0x5444, 0x90808080, GU_ADD, GU_FIX, GU_DOUBLE_SRC_ALPHA, 0x00000000, 0x00000000},
        {0, "  Zero + Inverse double src alpha", 0x5444, 0x90808080, GU_ADD, GU_FIX, GU_ONE_MINUS_DOUBLE_SRC_ALPHA, 0x00000000, 0x00000000},
        {0, "  Zero + Double dest alpha", 0x5444, 0x90808080, GU_ADD, GU_FIX, GU_DOUBLE_DST_ALPHA, 0x00000000, 0x00000000},
        {0, "  Zero + Inverse double dest alpha", 0x5444, 0x90808080, GU_ADD, GU_FIX, GU_ONE_MINUS_DOUBLE_DST_ALPHA, 0x00000000, 0x00000000},
        L("Error factors:"),
        {0, "  Fixed + Zero", 0x5444, 0x90808080, GU_ADD, GU_FIX, GU_FIX, 0x12345678, 0x00000000},
        {0, "  Factor 11 + Zero", 0x5444, 0x90808080, GU_ADD, 11, GU_FIX, 0x12345678, 0x00000000},
        {0, "  Factor 12 + Zero", 0x5444, 0x90808080, GU_ADD, 12, GU_FIX, 0x12345678, 0x00000000},
        {0, "  Factor 13 + Zero", 0x5444, 0x90808080, GU_ADD, 13, GU_FIX, 0x12345678, 0x00000000},
        {0, "  Factor 14 + Zero", 0x5444, 0x90808080, GU_ADD, 14, GU_FIX, 0x12345678, 0x00000000},
        {0, "  Factor 15 + Zero", 0x5444, 0x90808080, GU_ADD, 15, GU_FIX, 0x12345678, 0x00000000},
        L("Add:"),
        {0, "  F0 + 0F", 0xFFFF, 0xFFFFFFFF, GU_ADD, GU_FIX, GU_FIX, 0xF0F0F0F0, 0x0F0F0F0F},
        {0, "  0F + F0", 0xFFFF, 0xFFFFFFFF, GU_ADD, GU_FIX, GU_FIX, 0x0F0F0F0F, 0xF0F0F0F0},
        L("Subtract:"),
        {0, "  F0 - 0F", 0xFFFF, 0xFFFFFFFF, GU_SUBTRACT, GU_FIX, GU_FIX, 0xF0F0F0F0, 0x0F0F0F0F},
        {0, "  0F - F0", 0xFFFF, 0xFFFFFFFF, GU_SUBTRACT, GU_FIX, GU_FIX, 0x0F0F0F0F, 0xF0F0F0F0},
        L("Reverse subtract:"),
        {0, "  Reverse F0 - 0F", 0xFFFF, 0xFFFFFFFF, GU_REVERSE_SUBTRACT, GU_FIX, GU_FIX, 0xF0F0F0F0, 0x0F0F0F0F},
        {0, "  Reverse 0F - F0", 0xFFFF, 0xFFFFFFFF, GU_REVERSE_SUBTRACT, GU_FIX, GU_FIX, 0x0F0F0F0F, 0xF0F0F0F0},
        L("Min:"),
        {0, "  Min CC, 33", 0xCCCC, 0x33333333, GU_MIN, GU_FIX, GU_FIX, 0x80808080, 0x80808080},
        {0, "  Min 33, CC", 0x3333, 0xCCCCCCCC, GU_MIN, GU_FIX, GU_FIX, 0x80808080, 0x80808080},
        L("Max:"),
        {0, "  Max CC, 33", 0xCCCC, 0x33333333, GU_MAX, GU_FIX, GU_FIX, 0x80808080, 0x80808080},
        {0, "  Max 33, CC", 0x3333, 0xCCCCCCCC, GU_MAX, GU_FIX, GU_FIX, 0x80808080, 0x80808080},
        L("Absolute difference:"),
        {0, "  Abs CC - 33", 0xCCCC, 0x33333333, GU_ABS, GU_FIX, GU_FIX, 0x80808080, 0x80808080},
        {0, "  Abs 33 - CC", 0x3333, 0xCCCCCCCC, GU_ABS, GU_FIX, GU_FIX, 0x80808080, 0x80808080},
};

struct bl {
    struct psp *p;
    struct gu g;
    int psm;
    uint32_t list, copybuf, verts, bytes;
};

/* displayBuffer: the whole buffer through the DMA, its first pixel, then
 * the buffer filled with 0x44 bytes. */
static void display_buffer(struct bl *t, const char *reason)
{
    psp_dmac_memcpy(t->p, t->copybuf, PSP_EDRAM, t->bytes);
    uint32_t v = psp_read32(t->p, t->copybuf);
    if (t->psm == GU_PSM_8888)
        psp_checkpoint(t->p, "%s: COLOR=%08x", reason, v);
    else
        psp_checkpoint(t->p, "%s: COLOR=%04x", reason, v & 0xFFFF);
    psp_memset(t->p, t->copybuf, 0x44, t->bytes);
    psp_dmac_memcpy(t->p, PSP_EDRAM, t->copybuf, t->bytes);
}

static void fill(struct bl *t, uint32_t prev)
{
    if (t->psm == GU_PSM_8888) {
        for (uint32_t i = 0; i < t->bytes; i += 4) psp_write32(t->p, t->copybuf + i, prev);
    } else {
        for (uint32_t i = 0; i < t->bytes; i += 2) psp_write16(t->p, t->copybuf + i, (uint16_t)prev);
    }
    psp_dmac_memcpy(t->p, PSP_EDRAM, t->copybuf, t->bytes);
}

static void test_blend(struct bl *t, const struct blend_case *c)
{
    struct gu *g = &t->g;
    fill(t, c->prev);
    gu_start(g, GU_DIRECT, t->list);
    gu_enable(g, GU_BLEND);
    gu_blend_func(g, c->op, c->src, c->dst, c->fixa, c->fixb);
    gu_enable(g, GU_STENCIL_TEST);
    gu_stencil_func(g, GU_ALWAYS, 0xAA, 0xFF);
    gu_stencil_op(g, GU_REPLACE, GU_REPLACE, GU_REPLACE);
    /* drawBoxCommands: VertexColorF32 {c, -1, -1, 0}, {c, 1, 1, 0} */
    float f[2][3] = {{-1.0f, -1.0f, 0.0f}, {1.0f, 1.0f, 0.0f}};
    for (uint32_t k = 0; k < 2; k++) {
        psp_write32(t->p, t->verts + 16 * k, c->c);
        psp_write(t->p, t->verts + 16 * k + 4, f[k], 12);
    }
    gu_draw_array(g, GU_SPRITES, GU_COLOR_8888 | GU_VERTEX_32BITF | GU_TRANSFORM_2D, 2, 0, t->verts);
    gu_finish(g);
    gu_sync(g);
    display_buffer(t, c->title);
    gu_disable(g, GU_BLEND);
}

static int blend(struct psp *p, int psm, const struct blend_case *cases, size_t n)
{
    struct bl t = {.p = p, .psm = psm};
    t.bytes = psm == GU_PSM_8888 ? 512 * 272 * 4 : 512 * 272 * 2;
    t.list = psp_alloc(p, 16, 262144 * 4);
    t.copybuf = psp_alloc(p, 16, t.bytes);
    t.verts = psp_alloc(p, 16, 256 * 16);
    struct gu *g = &t.g;
    gu_init(g, p); /* init() */
    gu_start(g, GU_DIRECT, t.list);
    gu_draw_buffer(g, psm, 0, 512);
    gu_disp_buffer(g, 480, 272, 0, 512);
    gu_depth_buffer(g, 512 * 272 * 4, 512);
    gu_offset(g, 2048 - 240 / 2, 2048 - 136 / 2);
    gu_viewport(g, 2048, 2048, 240, 136);
    gu_depth_range(g, 65535, 0);
    gu_depth_mask(g, 0);
    gu_scissor(g, 0, 0, 480, 272);
    gu_enable(g, GU_SCISSOR_TEST);
    gu_front_face(g, GU_CW);
    gu_shade_model(g, GU_SMOOTH);
    gu_disable(g, GU_TEXTURE_2D);
    psp_identity_matrices(g);
    gu_finish(g);
    gu_sync(g);
    psp_memset(p, t.copybuf, 0x44, t.bytes);
    psp_dmac_memcpy(p, PSP_EDRAM, t.copybuf, t.bytes);
    display_buffer(&t, "Initial");
    /* sceDisplaySetFrameBuf and sceDisplaySetMode return 0 (not the GE). */
    psp_other(p, "framebuf: %08x", 0u);
    psp_other(p, "dispmode: %08x", 0u);
    for (size_t i = 0; i < n; i++) {
        if (cases[i].label)
            psp_label(p, cases[i].label);
        else
            test_blend(&t, &cases[i]);
    }
    gu_term(g);
    return 0;
}

int psp_commands_blend(struct psp *p) { return blend(p, GU_PSM_8888, cases8888, sizeof cases8888 / sizeof *cases8888); }
int psp_commands_blend565(struct psp *p) { return blend(p, GU_PSM_5650, cases565, sizeof cases565 / sizeof *cases565); }
