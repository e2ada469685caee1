/* Handlers shared between the command processor's files (not a public API). */
#ifndef GETILE_GE_INTERNAL_H
#define GETILE_GE_INTERNAL_H

#include "ge.h"

int ge_h_vaddr(struct ge *ge, uint32_t w, struct gt_diag *d);
int ge_h_iaddr(struct ge *ge, uint32_t w, struct gt_diag *d);
int ge_h_draw(struct ge *ge, uint32_t w, struct gt_diag *d);
int ge_h_bbox(struct ge *ge, uint32_t w, struct gt_diag *d);
int ge_h_imm(struct ge *ge, uint32_t w, struct gt_diag *d);
int ge_h_jump(struct ge *ge, uint32_t w, struct gt_diag *d);
int ge_h_bjump(struct ge *ge, uint32_t w, struct gt_diag *d);
int ge_h_call(struct ge *ge, uint32_t w, struct gt_diag *d);
int ge_h_ret(struct ge *ge, uint32_t w, struct gt_diag *d);
int ge_h_end(struct ge *ge, uint32_t w, struct gt_diag *d);
int ge_h_signal(struct ge *ge, uint32_t w, struct gt_diag *d);
int ge_h_offsetaddr(struct ge *ge, uint32_t w, struct gt_diag *d);
int ge_h_origin(struct ge *ge, uint32_t w, struct gt_diag *d);
int ge_h_matrix_num(struct ge *ge, uint32_t w, struct gt_diag *d);
int ge_h_matrix_data(struct ge *ge, uint32_t w, struct gt_diag *d);
int ge_h_load_clut(struct ge *ge, uint32_t w, struct gt_diag *d);
int ge_h_texflush(struct ge *ge, uint32_t w, struct gt_diag *d);
int ge_h_trxkick(struct ge *ge, uint32_t w, struct gt_diag *d);

/* Block transfer with the current TRX registers (ge_transfer.c). */
int ge_block_transfer(struct ge *ge, struct gt_diag *d);

#endif
