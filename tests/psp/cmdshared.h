/* pspautotests tests/gpu/commands/shared.cpp: the display set-up and the
 * frame helpers the commands programs share. */
#ifndef GETILE_PSP_CMDSHARED_H
#define GETILE_PSP_CMDSHARED_H

#include "psp/gu.h"

struct cmd_env {
    struct psp *p;
    struct gu g;
    uint32_t list;
    uint32_t clut, image; /* setSimpleTexture's clutRedBlue and imageData */
};

/* initDisplay: sceGuInit, the 480x272 8888 screen with depth range
 * (65535, 0), texturing off, identity matrices; the display shows VRAM 0. */
void cmd_init_display(struct cmd_env *e, struct psp *p);
/* startFrame: a list with the colour buffer cleared to 0. */
void cmd_start_frame(struct cmd_env *e);
/* endFrame: the list finished and waited for. */
void cmd_end_frame(struct cmd_env *e);
/* setSimpleTexture: a 2x2 T8 texture (indices 0 1 / 1 2) through the
 * CLUT red, blue, magenta, DECAL, nearest. */
void cmd_simple_texture(struct cmd_env *e);

#endif
