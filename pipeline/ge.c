/* The GE command processor: the fetch loop, flow control and the kick
 * handlers. The per-command table is in ge_cmdtab.c, block transfers and
 * CLUT loads in ge_transfer.c. */
#include "ge.h"

#include <string.h>

#include "ge_internal.h"
#include "vdecode.h"

/* SIGNAL behaviours (the high byte of a SIGNAL word's data), acted on at the
 * END that follows. */
enum {
    SIG_HANDLER_SUSPEND = 0x01, SIG_HANDLER_CONTINUE = 0x02, SIG_HANDLER_PAUSE = 0x03,
    SIG_SYNC = 0x08, SIG_JUMP = 0x10, SIG_CALL = 0x11, SIG_RET = 0x12, SIG_RJUMP = 0x13,
    SIG_RCALL = 0x14, SIG_OJUMP = 0x15, SIG_OCALL = 0x16,
};

void ge_init(struct ge *ge, struct gt_mem *mem)
{
    memset(ge, 0, sizeof *ge);
    ge->mem = mem;
    for (unsigned i = 0; i < 256; i++) ge->st.reg[i] = i << 24;
    ge->list.state = GE_LIST_IDLE;
}

void ge_list_start(struct ge *ge, uint32_t pc, uint32_t stall)
{
    memset(&ge->list, 0, sizeof ge->list);
    ge->list.state = GE_LIST_RUNNING;
    ge->list.pc = pc & GT_ADDR_MASK;
    ge->list.stall = stall & GT_ADDR_MASK;
    ge->list.start_steps = ge->stats.steps;
}

void ge_list_set_stall(struct ge *ge, uint32_t stall)
{
    ge->list.stall = stall & GT_ADDR_MASK;
    if (ge->list.state == GE_LIST_STALLED) ge->list.state = GE_LIST_RUNNING;
}

uint32_t ge_rel_addr(const struct ge *ge, uint32_t data24)
{
    uint32_t base = (ge->st.reg[GE_BASE] & 0x000F0000u) << 8;
    return (ge->st.offset + (base | (data24 & 0xFFFFFFu))) & GT_ADDR_MASK;
}

static int step(struct ge *ge, uint32_t word, struct gt_diag *d)
{
    unsigned cmd = word >> 24;
    const struct ge_cmd_info *ci = &ge_cmd_table[cmd];
    ge->st.reg[cmd] = word;
    ge->stats.steps++;
    return ci->run ? ci->run(ge, word, d) : GT_OK;
}

int ge_exec_word(struct ge *ge, uint32_t word, struct gt_diag *d)
{
    unsigned cmd = word >> 24;
    if (ge_cmd_table[cmd].flags & GE_CF_FLOW) {
        ge->st.reg[cmd] = word;
        return GT_OK;
    }
    return step(ge, word, d);
}

int ge_run(struct ge *ge, struct gt_diag *d)
{
    struct ge_list *l = &ge->list;
    uint64_t budget = ge->step_budget ? ge->step_budget : GT_DEFAULT_STEP_BUDGET;
    if (l->state == GE_LIST_STALLED && l->pc != l->stall) l->state = GE_LIST_RUNNING;
    while (l->state == GE_LIST_RUNNING && !ge->stopped) {
        if (l->stall && l->pc == l->stall) {
            l->state = GE_LIST_STALLED;
            break;
        }
        if (ge->stats.steps - l->start_steps >= budget)
            return gt_fail(d, GT_ESTEP_LIMIT,
                           "display list used its budget of %llu steps without ending (pc 0x%08x): runaway list stopped",
                           (unsigned long long)budget, l->pc);
        uint8_t *p = mem_ptr(ge->mem, l->pc, 4);
        if (!p || (l->pc & 3))
            return gt_fail(d, GT_ELIST_ERROR, "display list pc 0x%08x is %s", l->pc,
                           p ? "not word aligned" : "outside PSP memory");
        uint32_t word = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        l->next_pc = l->pc + 4;
        int rc = step(ge, word, d);
        if (rc < 0) return rc;
        l->prev_word = word;
        l->pc = l->next_pc & GT_ADDR_MASK;
    }
    return GT_OK;
}

/* --- Addresses --------------------------------------------------------- */

int ge_h_vaddr(struct ge *ge, uint32_t w, struct gt_diag *d)
{
    ge->st.vaddr = ge_rel_addr(ge, w);
    return GT_OK;
}

int ge_h_iaddr(struct ge *ge, uint32_t w, struct gt_diag *d)
{
    ge->st.iaddr = ge_rel_addr(ge, w);
    return GT_OK;
}

int ge_h_offsetaddr(struct ge *ge, uint32_t w, struct gt_diag *d)
{
    ge->st.offset = (w << 8) & GT_ADDR_MASK;
    return GT_OK;
}

/* ORIGIN: the offset becomes the address of the ORIGIN word itself. */
int ge_h_origin(struct ge *ge, uint32_t w, struct gt_diag *d)
{
    ge->st.offset = ge->list.pc;
    return GT_OK;
}

/* --- Vertex formats ---------------------------------------------------- */

/* Bytes per vertex, from the component layout (vdec_layout in vdecode.c). */
uint32_t ge_vertex_size(uint32_t vtype)
{
    struct gt_vlayout lay;
    vdec_layout(vtype, &lay);
    return lay.stride;
}

uint32_t ge_index_size(uint32_t vtype)
{
    static const uint8_t sz[4] = {0, 1, 2, 4};
    return sz[(vtype >> 11) & 3];
}

/* --- Kicks ------------------------------------------------------------- */

/* Moves the vertex (or, for indexed kicks, the index) address past `count`
 * vertices, as the GE does after a kick. */
static void advance(struct ge *ge, uint32_t count)
{
    uint32_t vtype = ge_reg(&ge->st, GE_VTYPE);
    uint32_t isz = ge_index_size(vtype);
    if (isz)
        ge->st.iaddr = (ge->st.iaddr + count * isz) & GT_ADDR_MASK;
    else
        ge->st.vaddr = (ge->st.vaddr + count * ge_vertex_size(vtype)) & GT_ADDR_MASK;
}

/* PRIM, BEZIER, SPLINE: hand to the pipeline, then advance the addresses
 * past what the kick consumed. */
int ge_h_draw(struct ge *ge, uint32_t w, struct gt_diag *d)
{
    unsigned cmd = w >> 24;
    uint32_t count = cmd == GE_PRIM ? (w & 0xFFFF) : (w & 0xFF) * ((w >> 8) & 0xFF);
    if (ge->hooks.kick) {
        int rc = ge->hooks.kick(ge->hooks.ctx, ge, w, d);
        if (rc < 0) return rc;
    }
    advance(ge, count);
    ge->stats.steps += count; /* vertex work counts against the step budget */
    ge->stats.draws++;
    if (ge->draw_limit && ge->stats.draws >= ge->draw_limit) ge->stopped = true;
    return GT_OK;
}

/* BBOX: the pipeline tests the count vertices and sets bbox_result (a count
 * of 0 gives "not visible"); the addresses then advance like a draw's
 * (PPSSPP's behaviour; unmeasured). */
int ge_h_bbox(struct ge *ge, uint32_t w, struct gt_diag *d)
{
    uint32_t count = w & 0xFFFF;
    ge->stats.bboxes++;
    ge->list.bbox_result = count != 0;
    if (count && ge->hooks.kick) {
        int rc = ge->hooks.kick(ge->hooks.ctx, ge, w, d);
        if (rc < 0) return rc;
    }
    advance(ge, count);
    ge->stats.steps += count;
    return GT_OK;
}

/* VAP: an immediate-mode vertex for the pipeline. */
int ge_h_imm(struct ge *ge, uint32_t w, struct gt_diag *d)
{
    ge->stats.steps++;
    return ge->hooks.kick ? ge->hooks.kick(ge->hooks.ctx, ge, w, d) : GT_OK;
}

int ge_h_texflush(struct ge *ge, uint32_t w, struct gt_diag *d)
{
    ge->stats.texflushes++;
    if (ge->hooks.texflush) ge->hooks.texflush(ge->hooks.ctx, ge);
    return GT_OK;
}

/* --- Flow control ------------------------------------------------------ */

static int branch(struct ge *ge, uint32_t target, const char *what, struct gt_diag *d)
{
    target &= GT_ADDR_MASK;
    if (!mem_ptr(ge->mem, target, 4))
        return gt_fail(d, GT_ELIST_ERROR, "%s at 0x%08x to 0x%08x: target outside PSP memory", what,
                       ge->list.pc, target);
    ge->list.next_pc = target;
    return GT_OK;
}

/* Pushes a return point. The GE has GT_CALL_DEPTH return registers; what it
 * does with a deeper CALL is not measured, so getile stops with an error. */
static int push_return(struct ge *ge, uint32_t ret_pc, bool save_base, const char *what, struct gt_diag *d)
{
    struct ge_list *l = &ge->list;
    if (l->depth >= GT_CALL_DEPTH)
        return gt_fail(d, GT_ELIST_ERROR, "%s at 0x%08x nests deeper than the GE's %d return registers",
                       what, l->pc, GT_CALL_DEPTH);
    l->ret_pc[l->depth] = ret_pc;
    l->ret_offset[l->depth] = ge->st.offset;
    l->ret_base[l->depth] = save_base ? ge->st.reg[GE_BASE] : 0xFFFFFFFFu;
    l->depth++;
    return GT_OK;
}

/* Pops a return point; a RET with nothing to return to is ignored (false). */
static bool pop_return(struct ge *ge)
{
    struct ge_list *l = &ge->list;
    if (l->depth == 0) return false;
    l->depth--;
    ge->st.offset = l->ret_offset[l->depth];
    if (l->ret_base[l->depth] != 0xFFFFFFFFu) ge->st.reg[GE_BASE] = l->ret_base[l->depth];
    l->next_pc = l->ret_pc[l->depth] & GT_ADDR_MASK;
    return true;
}

int ge_h_jump(struct ge *ge, uint32_t w, struct gt_diag *d)
{
    return branch(ge, ge_rel_addr(ge, w & 0xFFFFFC), "JUMP", d);
}

int ge_h_bjump(struct ge *ge, uint32_t w, struct gt_diag *d)
{
    if (ge->list.bbox_result) return GT_OK;
    return branch(ge, ge_rel_addr(ge, w & 0xFFFFFC), "BJUMP", d);
}

int ge_h_call(struct ge *ge, uint32_t w, struct gt_diag *d)
{
    uint32_t target = ge_rel_addr(ge, w & 0xFFFFFC);
    int rc = branch(ge, target, "CALL", d);
    if (rc < 0) return rc;
    rc = push_return(ge, ge->list.pc + 4, false, "CALL", d);
    if (rc < 0) ge->list.next_pc = ge->list.pc + 4;
    return rc;
}

int ge_h_ret(struct ge *ge, uint32_t w, struct gt_diag *d)
{
    (void)pop_return(ge);
    return GT_OK;
}

int ge_h_signal(struct ge *ge, uint32_t w, struct gt_diag *d)
{
    ge->stats.signals++;
    return GT_OK;
}

/* SIGNAL followed by END: the behaviour in the SIGNAL's data. No CPU runs
 * beside a replayed list, so handler signals simply continue. */
static int end_after_signal(struct ge *ge, uint32_t sig, uint32_t end, struct gt_diag *d)
{
    unsigned behaviour = (sig >> 16) & 0xFF;
    uint32_t target = (((sig & 0xFFFF) << 16) | (end & 0xFFFF)) & 0xFFFFFFFCu;
    uint32_t signal_pc = ge->list.pc - 4;
    switch (behaviour) {
    case SIG_HANDLER_SUSPEND:
    case SIG_HANDLER_CONTINUE:
        return GT_OK;
    case SIG_HANDLER_PAUSE:
    case SIG_SYNC:
        ge->list.pending_signal = behaviour;
        return GT_OK;
    case SIG_RJUMP:
    case SIG_RCALL:
        target += signal_pc;
        break;
    case SIG_OJUMP:
    case SIG_OCALL:
        target = ge->st.offset + (((ge->st.reg[GE_BASE] & 0x000F0000u) << 8) | target);
        break;
    case SIG_JUMP:
    case SIG_CALL:
        break;
    case SIG_RET:
        if (pop_return(ge)) ge->list.next_pc += 4; /* continue after the calling END */
        return GT_OK;
    default:
        ge->stats.ignored_signals++;
        return GT_OK;
    }
    int rc = branch(ge, target, "SIGNAL jump", d);
    if (rc < 0 || behaviour == SIG_JUMP || behaviour == SIG_RJUMP || behaviour == SIG_OJUMP) return rc;
    /* Calls return to the END that made them. */
    rc = push_return(ge, ge->list.pc, true, "SIGNAL call", d);
    if (rc < 0) ge->list.next_pc = ge->list.pc + 4;
    return rc;
}

/* END acts on the word before it: FINISH ends the list (unless a PAUSE or
 * SYNC signal is pending), SIGNAL runs its behaviour, anything else nothing.
 * Model choice: "the word before" is the word executed before, which equals
 * the word in memory before END for every list that does not branch onto an
 * END. */
int ge_h_end(struct ge *ge, uint32_t w, struct gt_diag *d)
{
    uint32_t prev = ge->list.prev_word;
    switch (prev >> 24) {
    case GE_SIGNAL:
        return end_after_signal(ge, prev, w, d);
    case GE_FINISH:
        if (ge->list.pending_signal == SIG_HANDLER_PAUSE) {
            ge->list.state = GE_LIST_PAUSED;
        } else if (ge->list.pending_signal == SIG_SYNC) {
            ge->list.pending_signal = 0;
        } else {
            ge->list.state = GE_LIST_DONE;
        }
        return GT_OK;
    default:
        return GT_OK;
    }
}

/* --- Matrix uploads ---------------------------------------------------- */

/* The matrix a NUM or DATA command addresses: its storage, size, counter and
 * the mask of the NUM command's index. */
static void matrix_of(struct ge *ge, unsigned cmd, uint32_t **m, uint32_t *size, uint32_t **num, uint32_t *mask)
{
    switch (cmd & ~1u) {
    case GE_WORLD_NUM: *m = ge->st.world; *size = 12; *num = &ge->st.world_num; *mask = 0xF; break;
    case GE_VIEW_NUM: *m = ge->st.view; *size = 12; *num = &ge->st.view_num; *mask = 0xF; break;
    case GE_PROJ_NUM: *m = ge->st.proj; *size = 16; *num = &ge->st.proj_num; *mask = 0xF; break;
    case GE_TGEN_NUM: *m = ge->st.tgen; *size = 12; *num = &ge->st.tgen_num; *mask = 0xF; break;
    default: *m = ge->st.bone; *size = GT_BONE_MATRIX_WORDS; *num = &ge->st.bone_num; *mask = 0x7F; break;
    }
}

int ge_h_matrix_num(struct ge *ge, uint32_t w, struct gt_diag *d)
{
    uint32_t *m, size, *num, mask;
    matrix_of(ge, w >> 24, &m, &size, &num, &mask);
    *num = w & mask;
    return GT_OK;
}

/* DATA stores at the counter (when inside the matrix) and advances it; the
 * projection counter stops at 16, the others count on (PPSSPP's behaviour). */
int ge_h_matrix_data(struct ge *ge, uint32_t w, struct gt_diag *d)
{
    uint32_t *m, size, *num, mask;
    unsigned cmd = w >> 24;
    matrix_of(ge, cmd - 1, &m, &size, &num, &mask);
    if (*num < size) m[*num] = (w & 0xFFFFFF) << 8;
    if (cmd == GE_PROJ_DATA) {
        if (*num < 16) (*num)++;
    } else {
        *num = (*num + 1) & 0xFFFFFF;
    }
    return GT_OK;
}
