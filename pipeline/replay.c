/* Frame-dump replay: turns a dump's records back into display-list words and
 * memory contents, and runs them through the GE.
 *
 * The semantics follow PPSSPP's replayer (GPU/Debugger/Playback.cpp) and
 * GE-HARDWARE.md §7, in getile's own synchronous form: each REGISTERS record
 * is appended to a list buffer in PSP RAM and executed up to its end before
 * the next record is looked at, so
 *  - the list buffer never wraps into stale commands: when it is full, the GE
 *    (idle at its stall address) simply continues from the buffer's start;
 *  - every recorded write to VRAM (memset, memcpy, framebuffer and CLUT data)
 *    happens after all earlier drawing (the sync hook flushes pending bins);
 *  - recorded data is copied into place byte by byte, never read in place, so
 *    unaligned data in old dumps is harmless.
 * Data records (vertices, indices, textures, CLUTs, transfer sources) are
 * copied into an arena in RAM, 16-byte aligned, once per distinct record. */
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include "ge_limits.h"
#include "render.h"

struct map_entry {
    uint32_t offset, size, addr; /* dump data offset and size -> PSP address; size 0: unused */
    uint32_t gone;               /* 1: removed (probing continues past it) */
};

struct replay {
    struct gt_render *r;
    const struct dump *dp;
    uint32_t list_pos;            /* where the next word goes */
    uint32_t last_tex[8], last_base;
    uint16_t last_bufw[8];
    uint32_t clut_addr, clut_flags, memcpy_dest;
    uint32_t arena_pos, arena_end; /* the arena half in use */
    bool half_switched;           /* the other half was taken since the list last ran */
    struct map_entry *map;
    uint32_t map_cap;             /* power of two */
};

static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

/* Pending drawing that touches [addr, addr + len) is finished before the
 * replay writes there (the pipeline's sync hook; len 0: all of it). */
static int sync(struct replay *rp, uint32_t addr, uint32_t len, struct gt_diag *d)
{
    struct ge *ge = &rp->r->ge;
    return ge->hooks.sync ? ge->hooks.sync(ge->hooks.ctx, ge, addr, len, true, d) : GT_OK;
}

/* The same before the replay only reads [addr, addr + len). */
static int sync_read(struct replay *rp, uint32_t addr, uint32_t len, struct gt_diag *d)
{
    struct ge *ge = &rp->r->ge;
    return ge->hooks.sync ? ge->hooks.sync(ge->hooks.ctx, ge, addr, len, false, d) : GT_OK;
}

/* Whether memory at addr already holds the n bytes a recorded write would
 * put there (src, or n copies of fill when src is NULL). */
static bool holds(const struct gt_mem *m, uint32_t addr, const uint8_t *src, int fill, uint32_t n)
{
    uint8_t buf[4096];
    for (uint32_t done = 0; done < n;) {
        uint32_t k = n - done < sizeof buf ? n - done : (uint32_t)sizeof buf;
        mem_read(m, addr + done, buf, k);
        if (src && memcmp(buf, src + done, k) != 0) return false;
        if (!src)
            for (uint32_t i = 0; i < k; i++)
                if (buf[i] != (uint8_t)fill) return false;
        done += k;
    }
    return true;
}

/* Lets the GE execute everything written so far. */
static int run_to_pos(struct replay *rp, struct gt_diag *d)
{
    ge_list_set_stall(&rp->r->ge, rp->list_pos);
    rp->half_switched = false;
    return ge_run(&rp->r->ge, d);
}

/* Appends one word to the list buffer; when it is full, runs what is there
 * and continues from the buffer's start (the GE is idle at the stall, so
 * nothing stale can run). */
static int emit(struct replay *rp, uint32_t word, struct gt_diag *d)
{
    if (rp->list_pos + 4 > GT_REPLAY_LIST_BASE + GT_REPLAY_LIST_SIZE) {
        int rc = run_to_pos(rp, d);
        if (rc < 0) return rc;
        if (rp->r->ge.stopped) return GT_OK;
        rp->list_pos = GT_REPLAY_LIST_BASE;
        rp->r->ge.list.pc = GT_REPLAY_LIST_BASE;
        ge_list_set_stall(&rp->r->ge, GT_REPLAY_LIST_BASE);
    }
    int rc = sync(rp, rp->list_pos, 4, d);
    if (rc < 0) return rc;
    mem_write32(&rp->r->mem, rp->list_pos, word);
    rp->list_pos += 4;
    return GT_OK;
}

/* The arena is used in two halves, in turn. When the current half is full
 * the other one is emptied and taken: everything copied into it was used by
 * draws that have run, while the data the words not yet run refer to (at most
 * what was copied since the list last ran) stays intact in the half being
 * left. Taking a second half before the list runs again would overwrite such
 * data, so it is refused. */
#define ARENA_HALF ((GT_REPLAY_ARENA_END - GT_REPLAY_ARENA_BASE) / 2 & ~15u)

static void take_half(struct replay *rp, uint32_t start)
{
    for (uint32_t i = 0; i < rp->map_cap; i++)
        if (rp->map[i].size && rp->map[i].addr >= start && rp->map[i].addr < start + ARENA_HALF)
            rp->map[i].size = 0, rp->map[i].gone = 1;
    for (int i = 0; i < 8; i++)
        if (rp->last_tex[i] >= start && rp->last_tex[i] < start + ARENA_HALF) rp->last_tex[i] = 0;
    rp->arena_pos = start;
    rp->arena_end = start + ARENA_HALF;
}

/* PSP address holding a copy of the record's data (copied on first use). */
static int map_data(struct replay *rp, const struct dump_record *rec, uint32_t *addr, struct gt_diag *d)
{
    uint32_t mask = rp->map_cap - 1, h = (rec->offset * 2654435761u) & mask, slot = UINT32_MAX;
    for (uint32_t probes = 0; probes <= mask && (rp->map[h].size || rp->map[h].gone); probes++) {
        if (rp->map[h].size && rp->map[h].offset == rec->offset && rp->map[h].size >= rec->size) {
            *addr = rp->map[h].addr;
            return GT_OK;
        }
        if (!rp->map[h].size && slot == UINT32_MAX) slot = h; /* reuse a removed entry */
        h = (h + 1) & mask;
    }
    if (slot == UINT32_MAX) slot = h;
    /* Diagnostic build ("replay"): PPSSPP maps the dump data in 1 MiB slabs
     * at 256-byte aligned addresses, so a record keeps its dump offset's low
     * four bits. The GE drops them from CLUT, texture and transfer
     * addresses and reads from up to 15 bytes before the record: the dump
     * bytes there. So the 16-byte granules around the record are copied
     * with it. A record straddling two slabs gets its own aligned copy
     * (BufMapping::MapExtra). */
    bool slab = GT_COMPAT(REPLAY) && rec->size && rec->offset >> 20 == (rec->offset + rec->size - 1) >> 20;
    uint32_t lead = slab ? rec->offset & 15 : 0;
    uint32_t need = rec->size ? (lead + rec->size + 15) & ~15u : 16;
    if (need > ARENA_HALF)
        return gt_fail(d, GT_ETOO_BIG, "a %u-byte %s record is larger than replay's RAM arena half (%u bytes)",
                       rec->size, dump_type_name(rec->type), ARENA_HALF);
    if (need > rp->arena_end - rp->arena_pos) {
        if (rp->half_switched)
            return gt_fail(d, GT_ETOO_BIG, "the data recorded for one draw exceeds replay's RAM arena (%u bytes)",
                           ARENA_HALF);
        take_half(rp, rp->arena_end == GT_REPLAY_ARENA_BASE + ARENA_HALF ? GT_REPLAY_ARENA_BASE + ARENA_HALF
                                                                      : GT_REPLAY_ARENA_BASE);
        rp->half_switched = true;
        rp->r->stats.arena_resets++;
    }
    *addr = rp->arena_pos + lead;
    /* Drawing still pending may read a texture in the arena's recycled half. */
    int rc = sync(rp, rp->arena_pos, need, d);
    if (rc < 0) return rc;
    uint32_t from = rec->offset - lead, len = slab ? need : rec->size;
    if (len > rp->dp->data_size - from) len = rp->dp->data_size - from;
    rc = mem_write(&rp->r->mem, rp->arena_pos, rp->dp->data + from, len, d);
    if (rc < 0) return rc;
    rp->arena_pos += need;
    rp->map[slot] = (struct map_entry){rec->offset, rec->size ? rec->size : 1, *addr, 0};
    return GT_OK;
}

/* INIT: the GE state at the start of the frame, in PPSSPP's saved-context
 * layout: words 5-7 vertex, index and offset addresses, from word 17 the
 * registers of the ranges below, then the matrices in one of two forms:
 *  - current form: for each of bone, world, view, projection and texture
 *    matrix a reset word and its values as 24-bit command payloads, then the
 *    five upload counters;
 *  - older form (some version 2 and 3 dumps): the LOADCLUT word when the
 *    game's CLUT address was valid, the five counters, then the matrices as
 *    IEEE floats.
 * The current form is recognised by its first two words: a bone-matrix index
 * command followed by a bone-matrix data command. */
static const uint8_t init_ranges[][2] = {
    {0x00, 0x02}, {0x10, 0x10}, {0x12, 0x28}, {0x2C, 0x33}, {0x36, 0x38}, {0x42, 0x4D}, {0x50, 0x51},
    {0x53, 0x58}, {0x5B, 0xB5}, {0xB8, 0xC3}, {0xC5, 0xD0}, {0xD2, 0xE9}, {0xEB, 0xEC}, {0xEE, 0xEE},
    {0xF0, 0xF6}, {0xF8, 0xF9},
};

static int replay_init(struct replay *rp, const struct dump_record *rec, uint32_t index, struct gt_diag *d)
{
    struct ge_state *st = &rp->r->ge.st;
    const uint8_t *p = rp->dp->data + rec->offset;
    uint32_t nregs = 0;
    for (size_t i = 0; i < sizeof init_ranges / sizeof init_ranges[0]; i++)
        nregs += init_ranges[i][1] - init_ranges[i][0] + 1u;
    const uint32_t nmat = GT_BONE_MATRIX_WORDS + 3 * 12 + 16;
    /* Both forms need at most this many words. */
    uint32_t nwords = 17 + nregs + 5 + nmat + 6;
    if (rec->size < nwords * 4)
        return gt_fail(d, GT_ECORRUPT, "dump record %u (INIT) is %u bytes, needs %u", index, rec->size, nwords * 4);
    uint32_t w = 17;
    for (size_t i = 0; i < sizeof init_ranges / sizeof init_ranges[0]; i++)
        for (unsigned c = init_ranges[i][0]; c <= init_ranges[i][1]; c++) st->reg[c] = rd32(p + 4 * w++);
    uint32_t *mats[5] = {st->bone, st->world, st->view, st->proj, st->tgen};
    const uint32_t msize[5] = {GT_BONE_MATRIX_WORDS, 12, 12, 16, 12};
    uint32_t *nums[5] = {&st->bone_num, &st->world_num, &st->view_num, &st->proj_num, &st->tgen_num};
    const uint32_t nmask[5] = {0x7F, 0xF, 0xF, 0xF, 0xF};
    bool current = rd32(p + 4 * w) >> 24 == GE_BONE_NUM && rd32(p + 4 * (w + 1)) >> 24 == GE_BONE_DATA;
    if (current) {
        for (int m = 0; m < 5; m++) {
            w++; /* the reset word */
            for (uint32_t k = 0; k < msize[m]; k++) mats[m][k] = (rd32(p + 4 * w++) & 0xFFFFFF) << 8;
        }
        for (int m = 0; m < 5; m++) *nums[m] = rd32(p + 4 * w++) & nmask[m];
    } else {
        if (rd32(p + 4 * w) >> 24 == GE_LOAD_CLUT) st->reg[GE_LOAD_CLUT] = rd32(p + 4 * w++);
        for (int m = 0; m < 5; m++) *nums[m] = rd32(p + 4 * w++) & nmask[m];
        /* IEEE floats that came from 24-bit values: cut to the GE format. */
        for (int m = 0; m < 5; m++)
            for (uint32_t k = 0; k < msize[m]; k++) mats[m][k] = rd32(p + 4 * w++) & 0xFFFFFF00u;
    }
    st->vaddr = rd32(p + 20) & GT_ADDR_MASK;
    st->iaddr = rd32(p + 24) & GT_ADDR_MASK;
    st->offset = rd32(p + 28) & GT_ADDR_MASK;
    for (int i = 0; i < 8; i++) rp->last_tex[i] = 0, rp->last_bufw[i] = 0;
    rp->last_base = 0xFFFFFFFFu;
    return GT_OK;
}

/* REGISTERS: the record's words (after what data records put in the list
 * before them) with texture addresses
 * removed (replay sets them from TEXTURE/FRAMEBUF records) and texture buffer
 * widths given the high address bits of the replayed texture. */
static int replay_registers(struct replay *rp, const struct dump_record *rec, struct gt_diag *d)
{
    int rc;
    const uint8_t *p = rp->dp->data + rec->offset;
    for (uint32_t i = 0; i + 4 <= rec->size && !rp->r->ge.stopped; i += 4) {
        uint32_t word = rd32(p + i), cmd = word >> 24;
        if (cmd >= GE_TEX_BUFW0 && cmd < GE_TEX_BUFW0 + 8) {
            unsigned level = cmd - GE_TEX_BUFW0;
            uint16_t bufw = (uint16_t)word;
            if (bufw == rp->last_bufw[level])
                word = (uint32_t)GE_NOP << 24;
            else
                word = cmd << 24 | ((rp->last_tex[level] & 0xFF000000u) >> 8) | bufw;
            rp->last_bufw[level] = bufw;
        } else if (cmd >= GE_TEX_ADDR0 && cmd < GE_TEX_ADDR0 + 8) {
            word = (uint32_t)GE_NOP << 24;
        } else if (cmd == GE_SIGNAL || cmd == GE_BASE) {
            rp->last_base = 0xFFFFFFFFu;
        }
        if ((rc = emit(rp, word, d)) < 0) return rc;
    }
    return run_to_pos(rp, d);
}

/* VERTICES and INDICES: point VADDR/IADDR (and BASE when needed) at the data. */
static int replay_vertex_data(struct replay *rp, const struct dump_record *rec, struct gt_diag *d)
{
    uint32_t a;
    int rc = map_data(rp, rec, &a, d);
    if (rc < 0) return rc;
    if (rp->last_base != (a & 0xFF000000u)) {
        if ((rc = emit(rp, (uint32_t)GE_BASE << 24 | ((a >> 8) & 0x00FF0000u), d)) < 0) return rc;
        rp->last_base = a & 0xFF000000u;
    }
    return emit(rp, (uint32_t)(rec->type == DUMP_VERTICES ? GE_VADDR : GE_IADDR) << 24 | (a & 0xFFFFFF), d);
}

static int set_texture(struct replay *rp, unsigned level, uint32_t a, uint16_t bufw, struct gt_diag *d)
{
    rp->last_tex[level] = a;
    rp->last_bufw[level] = bufw;
    int rc = emit(rp, (uint32_t)(GE_TEX_BUFW0 + level) << 24 | ((a >> 8) & 0x00FF0000u) | bufw, d);
    return rc < 0 ? rc : emit(rp, (uint32_t)(GE_TEX_ADDR0 + level) << 24 | (a & 0xFFFFFF), d);
}

/* A recorded write into VRAM: after all earlier drawing; only VRAM is
 * written (RAM contents were captured by the data records). */
static int vram_write(struct replay *rp, uint32_t addr, const uint8_t *src, uint32_t n, int fill, uint32_t index,
                      struct gt_diag *d)
{
    if (!mem_is_vram(addr)) {
        rp->r->stats.skipped_writes++;
        return GT_OK;
    }
    /* A write that would leave memory as it is (dumps often record the same
     * texture again) changes nothing: it need not wait for drawing that
     * only reads those bytes. Pending drawing that writes them is finished
     * first, so the comparison sees their final contents. */
    int rc = sync_read(rp, addr, n ? n : 1, d);
    if (rc < 0) return rc;
    if (mem_valid_range(&rp->r->mem, addr, n) && holds(&rp->r->mem, addr, src, fill, n)) {
        rp->r->stats.vram_writes++;
        return GT_OK;
    }
    rc = sync(rp, addr, n ? n : 1, d);
    if (rc < 0) return rc;
    rc = fill >= 0 ? mem_fill(&rp->r->mem, addr, (uint8_t)fill, n, d) : mem_write(&rp->r->mem, addr, src, n, d);
    if (rc < 0)
        return gt_fail(d, rc, "dump record %u (%s) writes %u bytes at 0x%08x, outside PSP memory", index,
                       dump_type_name(rp->dp->rec[index].type), n, addr);
    rp->r->stats.vram_writes++;
    return GT_OK;
}

/* Whether a FRAMEBUF record's bytes are written into VRAM: not when the
 * recorder marked them unchanged or a render target (the software renderer
 * keeps what it drew), nor outside memory. */
static bool framebuf_copied(const struct replay *rp, const struct dump_record *rec)
{
    const uint8_t *p = rp->dp->data + rec->offset;
    uint32_t flags = rd32(p + 8);
    return !(rp->dp->version >= 6 && (flags & 2)) && !(flags & 1) &&
           mem_valid_range(&rp->r->mem, rd32(p), rec->size - 16);
}

/* Diagnostic build (compat.h "replay"): PPSSPP's replayer copies a
 * FRAMEBUF record into VRAM when it reads the record, but lets the GE run
 * the commands it has queued only when it stalls: before it maps dump data
 * into a 1 MiB slab of PSP RAM it has not mapped (it keeps 10, least
 * recently used first out) or data straddling two slabs that is not one of
 * its 10 extra mappings, and at TRANSFERSRC, MEMSET and MEMCPYDATA into
 * VRAM, DISPLAY and EDRAMTRANS records. (It also stalls when its 256 KiB
 * list buffer wraps; that is not modelled.) So every copy lands before all
 * draws and block transfers since the last stall. compat_stalls() marks the
 * records after which the replayer has stalled (record 0: the start). */
static bool *compat_stalls(const struct dump *dp)
{
    enum { SLABS = 10, EXTRAS = 10, SLAB = 1u << 20 };
    bool *stall = calloc(dp->nrec ? dp->nrec : 1, sizeof *stall);
    if (!stall) return NULL;
    uint32_t slab_pos[SLABS], slab_used[SLABS], extra_pos[EXTRAS], extra_len[EXTRAS], clock = 0;
    bool slab_on[SLABS] = {false}, extra_on[EXTRAS] = {false}, clut_addr = false;
    unsigned next_extra = 0;
    uint32_t memcpy_dest = 0;
    if (dp->nrec) stall[0] = true;
    for (uint32_t i = 0; i < dp->nrec; i++) {
        const struct dump_record *rec = &dp->rec[i];
        const uint8_t *p = dp->data + rec->offset;
        unsigned t = rec->type;
        bool maps = t == DUMP_VERTICES || t == DUMP_INDICES || t == DUMP_TRANSFERSRC ||
                    (t >= DUMP_TEXTURE0 && t <= DUMP_TEXTURE7) || (t == DUMP_CLUT && !clut_addr);
        bool stalls = false;
        if (t == DUMP_CLUT) clut_addr = false;
        if (t == DUMP_CLUTADDR) clut_addr = rd32(p) != 0;
        if (t == DUMP_MEMCPYDEST) memcpy_dest = rd32(p);
        if (maps && rec->size) {
            uint32_t first = rec->offset / SLAB, last = (rec->offset + rec->size - 1) / SLAB;
            if (first == last) {
                int hit = -1, oldest = 0;
                for (int k = 0; k < SLABS; k++) {
                    if (slab_on[k] && slab_pos[k] == first) hit = k;
                    /* An unused slab counts as the oldest; ties keep the first. */
                    if (slab_on[oldest] && (!slab_on[k] || slab_used[k] < slab_used[oldest])) oldest = k;
                }
                if (hit < 0) {
                    stalls = true;
                    hit = oldest;
                    slab_on[hit] = true, slab_pos[hit] = first, clock++;
                }
                slab_used[hit] = clock;
            } else {
                bool hit = false;
                for (int k = 0; k < EXTRAS; k++)
                    hit |= extra_on[k] && extra_pos[k] == rec->offset && extra_len[k] >= rec->size;
                if (!hit) {
                    stalls = true;
                    extra_on[next_extra] = true, extra_pos[next_extra] = rec->offset, extra_len[next_extra] = rec->size;
                    next_extra = (next_extra + 1) % EXTRAS;
                }
            }
        }
        if (t == DUMP_TRANSFERSRC || t == DUMP_DISPLAY || t == DUMP_EDRAMTRANS ||
            (t == DUMP_MEMSET && mem_is_vram(rd32(p))) || (t == DUMP_MEMCPYDATA && mem_is_vram(memcpy_dest)))
            stalls = true;
        if (stalls) stall[i] = true;
    }
    return stall;
}

/* Diagnostic build: after stall record i, the copies of the FRAMEBUF records
 * up to the next stall. */
static int compat_framebuf_copies(struct replay *rp, const bool *stall, uint32_t i, struct gt_diag *d)
{
    for (uint32_t j = i + 1; j < rp->dp->nrec && !stall[j]; j++) {
        const struct dump_record *rec = &rp->dp->rec[j];
        if (rec->type < DUMP_FRAMEBUF0 || rec->type > DUMP_FRAMEBUF7 || !framebuf_copied(rp, rec)) continue;
        const uint8_t *p = rp->dp->data + rec->offset;
        int rc = vram_write(rp, rd32(p), p + 16, rec->size - 16, -1, j, d);
        if (rc < 0) return rc;
    }
    return GT_OK;
}

static int replay_record(struct replay *rp, uint32_t index, struct gt_diag *d)
{
    const struct dump_record *rec = &rp->dp->rec[index];
    const uint8_t *p = rp->dp->data + rec->offset;
    struct gt_render *r = rp->r;
    uint32_t a;
    int rc;
    switch (rec->type) {
    case DUMP_INIT:
        return replay_init(rp, rec, index, d);
    case DUMP_REGISTERS:
        return replay_registers(rp, rec, d);
    case DUMP_VERTICES:
    case DUMP_INDICES:
        return replay_vertex_data(rp, rec, d);
    case DUMP_CLUTADDR:
        rp->clut_addr = rd32(p);
        rp->clut_flags = rd32(p + 4);
        return GT_OK;
    case DUMP_CLUT:
        if (rp->clut_addr) {
            /* A CLUT at a real address: written there unless it is a render
             * target (the software renderer keeps what it drew). An address
             * that is not mapped is skipped (GE-HARDWARE.md §7). */
            a = rp->clut_addr;
            rp->clut_addr = 0;
            if ((rp->clut_flags & 1) || !mem_valid_range(&r->mem, a, rec->size)) {
                r->stats.skipped_writes++;
                return GT_OK;
            }
            if ((rc = sync(rp, a, rec->size ? rec->size : 1, d)) < 0) return rc;
            return mem_write(&r->mem, a, p, rec->size, d);
        }
        if ((rc = map_data(rp, rec, &a, d)) < 0) return rc;
        if ((rc = emit(rp, (uint32_t)GE_CLUT_ADDR_UPPER << 24 | ((a >> 8) & 0x00FF0000u), d)) < 0) return rc;
        return emit(rp, (uint32_t)GE_CLUT_ADDR << 24 | (a & 0xFFFFFF), d);
    case DUMP_TRANSFERSRC:
        if ((rc = map_data(rp, rec, &a, d)) < 0) return rc;
        if ((rc = emit(rp, (r->ge.st.reg[GE_TRX_SRC_W] & 0xFF00FFFFu) | ((a >> 8) & 0x00FF0000u), d)) < 0) return rc;
        return emit(rp, (uint32_t)GE_TRX_SRC << 24 | (a & 0xFFFFFF), d);
    case DUMP_MEMSET:
        return vram_write(rp, rd32(p), NULL, rd32(p + 8), (int)(rd32(p + 4) & 0xFF), index, d);
    case DUMP_MEMCPYDEST:
        rp->memcpy_dest = rd32(p);
        return GT_OK;
    case DUMP_MEMCPYDATA:
        /* Old dumps carry data with no destination record: destination 0 is
         * not VRAM, so the data is skipped, as PPSSPP does. */
        return vram_write(rp, rp->memcpy_dest, p, rec->size, -1, index, d);
    case DUMP_DISPLAY:
        /* Only chooses what is read out at the end (after all drawing). */
        a = rd32(p);
        r->display.addr = (a & 0xFF000000u) ? a & GT_ADDR_MASK : (GT_VRAM_BASE | a);
        r->display.stride = rd32(p + 4) & 0x7FF;
        r->display.format = rd32(p + 8) & 3;
        return GT_OK;
    case DUMP_EDRAMTRANS:
        if ((rc = sync(rp, 0, 0, d)) < 0) return rc;
        r->mem.edram_trans = rd32(p);
        return GT_OK;
    default:
        break;
    }
    if (rec->type >= DUMP_TEXTURE0 && rec->type <= DUMP_TEXTURE7) {
        unsigned level = rec->type - DUMP_TEXTURE0;
        if ((rc = map_data(rp, rec, &a, d)) < 0) return rc;
        return rp->last_tex[level] != a ? set_texture(rp, level, a, rp->last_bufw[level], d) : GT_OK;
    }
    /* FRAMEBUF0-7: a texture that lives in VRAM; header addr, bufw, flags, pad. */
    unsigned level = rec->type - DUMP_FRAMEBUF0;
    uint32_t addr = rd32(p), bufw = rd32(p + 4);
    if ((rp->last_tex[level] != addr || rp->last_bufw[level] != (uint16_t)bufw) &&
        (rc = set_texture(rp, level, addr, (uint16_t)bufw, d)) < 0)
        return rc;
    if (!framebuf_copied(rp, rec)) {
        r->stats.skipped_writes++;
        return GT_OK;
    }
    if (GT_COMPAT(REPLAY)) return GT_OK; /* copied at the replayer's last stall */
    return vram_write(rp, addr, p + 16, rec->size - 16, -1, index, d);
}

int gt_render_replay(struct gt_render *r, const struct dump *dp, uint64_t replay_end, struct gt_diag *d)
{
    struct replay rp = {.r = r, .dp = dp, .last_base = 0xFFFFFFFFu, .arena_pos = GT_REPLAY_ARENA_BASE,
                        .arena_end = GT_REPLAY_ARENA_BASE + ARENA_HALF};
    rp.map_cap = 64;
    while (rp.map_cap < dp->nrec * 2u) rp.map_cap *= 2;
    rp.map = calloc(rp.map_cap, sizeof *rp.map);
    if (!rp.map) return gt_fail(d, GT_ENOMEM, "cannot allocate the replay map");
    r->ge.draw_limit = replay_end;
    r->mem.edram_trans = 0x400;
    /* The list starts with a NOP, stalled right after it. */
    rp.list_pos = GT_REPLAY_LIST_BASE;
    mem_write32(&r->mem, rp.list_pos, (uint32_t)GE_NOP << 24);
    rp.list_pos += 4;
    ge_list_start(&r->ge, GT_REPLAY_LIST_BASE, rp.list_pos);
    bool *stall = NULL;
    if (GT_COMPAT(REPLAY) && !(stall = compat_stalls(dp))) {
        free(rp.map);
        return gt_fail(d, GT_ENOMEM, "cannot allocate the replay's stall map");
    }
    int rc = GT_OK;
    for (uint32_t i = 0; i < dp->nrec && rc == GT_OK && !r->ge.stopped; i++) {
        rc = replay_record(&rp, i, d);
        r->stats.records++;
        if (rc == GT_OK && stall && stall[i]) rc = compat_framebuf_copies(&rp, stall, i, d);
    }
    free(stall);
    if (rc == GT_OK && !r->ge.stopped) {
        /* Finish the list. */
        if ((rc = emit(&rp, (uint32_t)GE_FINISH << 24, d)) == GT_OK && (rc = emit(&rp, (uint32_t)GE_END << 24, d)) == GT_OK)
            rc = run_to_pos(&rp, d);
    }
    gt_render_finish(r);
    free(rp.map);
    return rc;
}
