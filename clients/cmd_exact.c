/* getile exact: run the PSP-recorded GE probe jobs (pspautotests
 * tests/gpu/exact, as laid out in ../shared/pspautotests-exact/README.md)
 * through getile's renderer and compare each readback's CRC-32 with the one
 * the console recorded.
 *
 * A group is GROUP.jobs.bin (the jobs) with GROUP.expected (the console's
 * CRCs). Its jobs run in order on one context, as the console ran them: the
 * GE set up once like sceGuInit and the suite's first sceGuStart, then per
 * job the framebuffer registers again, the clear (a GE draw with the current
 * state), the pre list, the VRAM writes, the main list and the readback. The
 * lists are called from small host lists, as sceGuCallList does, so a job's
 * RET returns into them. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "image.h"
#include "render.h"

#define PROG "getile exact"

static const char usage[] =
    "usage: getile exact DIR [--allow-diff] [--save-dir D] [--group NAME] [--threads N] [--tile-size N]\n"
    "\n"
    "Runs every probe-job group in DIR (GROUP.jobs.bin with GROUP.expected, the\n"
    "layout of pspautotests-exact/README.md) through getile's renderer and compares\n"
    "the CRC-32 of each job's readback with the one a real PSP recorded. Prints per\n"
    "job `GROUP NAME: GETILE-CRC PSP-CRC match|DIFF`, then per group and in total\n"
    "`N of M jobs match the PSP`.\n"
    "\n"
    "  --allow-diff    exit 0 even when jobs differ (errors in the files still fail)\n"
    "  --save-dir D    for every job that differs, write getile's readback into D:\n"
    "                  GROUP-JOB.png (32-bit readbacks, alpha forced to 255) or\n"
    "                  GROUP-JOB-16.png (16-bit readbacks such as depth, raw values\n"
    "                  as 16-bit grey); JOB is the job's index in its group\n"
    "  --group NAME    run only this group (may be given several times)\n"
    "  --threads N     threads drawing (default: one per CPU); never changes a CRC\n"
    "  --tile-size N   tile edge in pixels, 16 to 256 (default 64); never changes a CRC\n"
    "\n"
    "Exit status: 0 every job matches (or --allow-diff); 1 a job differs or a\n"
    "group's files are unreadable or malformed; 2 usage errors.\n";

/* Where the runner places things in PSP RAM. */
#define HOST_LIST 0x08800000u  /* the wrapper lists (setup, per job, readback) */
#define CLEAR_VERTS 0x08808000u /* the clear's two sprite vertices */
#define PRE_LIST 0x08900000u
#define MAIN_LIST 0x08C00000u
#define READBACK_RAM 0x09000000u
#define LIST_MAX_WORDS (0x00300000u / 4) /* a job list fits below the next region */
#define READBACK_MAX (0x00400000u)       /* bytes: rows * 512 * bytes per pixel */
#define MAX_GROUPS 64

/* One job, pointing into the group's word array. */
struct job {
    char name[128];
    uint32_t psp_crc;
    uint32_t rows, edram;   /* edram: 0, or the translation value + 1 */
    uint32_t readback;
    const uint32_t *list, *relocs;
    uint32_t nlist, nrelocs;
    const uint32_t *pre, *pre_relocs;
    uint32_t npre, npre_relocs;
    const uint32_t *writes; /* the write records, nwrites of them */
    uint32_t nwrites;
};

struct group {
    char name[64];
    uint32_t *words;
    size_t nwords;
    struct job *jobs;
    uint32_t njobs;
};

/* Standard CRC-32 (reflected, polynomial 0xEDB88320), as zlib's crc32. */
static uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
    static uint32_t table[256];
    if (!table[1]) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
    }
    crc = ~crc;
    while (n--) crc = table[(crc ^ *p++) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

static int read_file(const char *path, uint8_t **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) break;
        if (cap >= (64u << 20)) { /* far larger than any group */
            free(buf);
            buf = NULL;
            errno = EFBIG;
            break;
        }
        uint8_t *nb = realloc(buf, cap *= 2);
        if (!nb) free(buf);
        buf = nb;
    }
    int err = ferror(f);
    fclose(f);
    if (!buf || err) {
        free(buf);
        return -1;
    }
    *out = buf;
    *len = n;
    return 0;
}

/* Walks the job structure of a .jobs.bin (README "The job format"); on a
 * malformed file prints what is wrong and returns -1. */
static int parse_jobs(struct group *g, const char *path)
{
    size_t p = 0, n = g->nwords;
    const uint32_t *w = g->words;
#define NEED(k, what)                                                                                    \
    do {                                                                                                 \
        if ((k) > n - p) {                                                                               \
            fprintf(stderr, PROG ": %s: job %u: the %s runs past the end of the file\n", path, j, what); \
            return -1;                                                                                   \
        }                                                                                                \
    } while (0)
    uint32_t j = 0;
    if (n < 1) {
        fprintf(stderr, PROG ": %s: empty file (no job count)\n", path);
        return -1;
    }
    g->njobs = w[p++];
    if (g->njobs > n) {
        fprintf(stderr, PROG ": %s: the job count %u is larger than the file\n", path, g->njobs);
        return -1;
    }
    g->jobs = calloc(g->njobs ? g->njobs : 1, sizeof *g->jobs);
    if (!g->jobs) {
        fprintf(stderr, PROG ": out of memory\n");
        return -1;
    }
    for (j = 0; j < g->njobs; j++) {
        struct job *jb = &g->jobs[j];
        NEED(4, "header");
        jb->rows = w[p] & 0xFFFF;
        jb->edram = w[p] >> 16;
        jb->nlist = w[p + 1];
        jb->readback = w[p + 2];
        jb->nrelocs = w[p + 3];
        p += 4;
        if (jb->nlist > LIST_MAX_WORDS) {
            fprintf(stderr, PROG ": %s: job %u: a main list of %u words is too long\n", path, j, jb->nlist);
            return -1;
        }
        NEED(jb->nlist, "main list");
        jb->list = w + p;
        p += jb->nlist;
        NEED(jb->nrelocs, "relocation list");
        jb->relocs = w + p;
        p += jb->nrelocs;
        NEED(2, "pre-list header");
        jb->npre = w[p];
        jb->npre_relocs = w[p + 1];
        p += 2;
        if (jb->npre > LIST_MAX_WORDS) {
            fprintf(stderr, PROG ": %s: job %u: a pre list of %u words is too long\n", path, j, jb->npre);
            return -1;
        }
        if (jb->npre) {
            NEED(jb->npre, "pre list");
            jb->pre = w + p;
            p += jb->npre;
            NEED(jb->npre_relocs, "pre-list relocations");
            jb->pre_relocs = w + p;
            p += jb->npre_relocs;
        } else {
            jb->npre_relocs = 0;
        }
        NEED(1, "write count");
        jb->nwrites = w[p++];
        jb->writes = w + p;
        for (uint32_t k = 0; k < jb->nwrites; k++) {
            NEED(2, "write header");
            uint32_t off = w[p], len = w[p + 1];
            p += 2;
            if (off >= GT_VRAM_SIZE * 4 || len > GT_VRAM_SIZE * 4 - off) {
                fprintf(stderr, PROG ": %s: job %u: write %u (0x%x bytes at 0x%x) is outside VRAM\n", path, j, k,
                        len, off);
                return -1;
            }
            NEED((len + 3) / 4, "write data");
            p += (len + 3) / 4;
        }
        uint32_t bpp = jb->readback >> 31 ? 2 : 4;
        if ((uint64_t)jb->rows * 512 * bpp > READBACK_MAX) {
            fprintf(stderr, PROG ": %s: job %u: a readback of %u rows is too large\n", path, j, jb->rows);
            return -1;
        }
        if ((jb->readback & 0x3FFFFFFFu) >= GT_VRAM_SIZE * 4) {
            fprintf(stderr, PROG ": %s: job %u: readback offset 0x%x is outside VRAM\n", path, j,
                    jb->readback & 0x3FFFFFFFu);
            return -1;
        }
    }
    if (p != n) {
        fprintf(stderr, PROG ": %s: %zu words follow the last job (the job structure does not fit the file)\n",
                path, n - p);
        return -1;
    }
#undef NEED
    return 0;
}

/* Reads GROUP.expected: one `NAME: CRC` line per job. */
static int parse_expected(struct group *g, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, PROG ": cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[512];
    uint32_t k = 0;
    int ln = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        size_t l = strlen(line);
        while (l && (line[l - 1] == '\n' || line[l - 1] == '\r')) line[--l] = 0;
        if (!l) continue;
        char *colon = strrchr(line, ':');
        char *end = NULL;
        unsigned long crc = colon ? strtoul(colon + 1, &end, 16) : 0;
        if (!colon || end == colon + 1 || *end || crc > 0xFFFFFFFFul) {
            fprintf(stderr, PROG ": %s:%d: not a `NAME: CRC` line\n", path, ln);
            fclose(f);
            return -1;
        }
        if (k >= g->njobs) {
            fprintf(stderr, PROG ": %s: more lines than the %u jobs of the .jobs.bin\n", path, g->njobs);
            fclose(f);
            return -1;
        }
        *colon = 0;
        snprintf(g->jobs[k].name, sizeof g->jobs[k].name, "%s", line);
        g->jobs[k].psp_crc = (uint32_t)crc;
        k++;
    }
    fclose(f);
    if (k != g->njobs) {
        fprintf(stderr, PROG ": %s: %u lines for %u jobs\n", path, k, g->njobs);
        return -1;
    }
    return 0;
}

/* A display list being assembled in host memory. */
struct dl {
    uint32_t w[256];
    unsigned n;
};

static void emit(struct dl *l, unsigned cmd, uint32_t data)
{
    if (l->n < sizeof l->w / sizeof l->w[0]) l->w[l->n++] = (uint32_t)cmd << 24 | (data & 0xFFFFFF);
}

/* sceGuCallList: BASE for the target's high address bits, then CALL. */
static void emit_call(struct dl *l, uint32_t addr)
{
    emit(l, GE_BASE, (addr >> 8) & 0x0F0000);
    emit(l, GE_CALL, addr & 0xFFFFFF);
}

/* Places l at HOST_LIST with FINISH and END appended and runs it. */
static int run_host_list(struct gt_render *r, struct dl *l, struct gt_diag *d)
{
    emit(l, GE_FINISH, 0);
    emit(l, GE_END, 0);
    int rc = mem_write(&r->mem, HOST_LIST, l->w, l->n * 4, d);
    if (rc < 0) return rc;
    return gt_render_list(r, HOST_LIST, d);
}

/* A GE float (the top 24 bits of an IEEE single) of small exact values. */
static uint32_t gef(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u >> 8;
}

/* The console's state before the first job (README "How the console runs a
 * group"): sceGuInit's start-up list (every register 0, which is where the
 * context starts, but TBW0 and TSIZE0), the first sceGuStart's defaults, the
 * draw and depth buffers, the viewport, depth range, scissor and matrices. */
static int setup_console(struct gt_render *r, struct gt_diag *d)
{
    struct dl l = {0};
    emit(&l, GE_TEX_BUFW0, 0x040004);
    emit(&l, GE_TEX_SIZE0, 0x000101);
    emit(&l, GE_DITHER0, 0x1D0C);
    emit(&l, GE_DITHER0 + 1, 0xF3E2);
    emit(&l, GE_DITHER0 + 2, 0x0C1D);
    emit(&l, GE_DITHER0 + 3, 0xE2F3);
    emit(&l, GE_PATCH_DIV, 0x1010);
    emit(&l, GE_MATERIAL_UPDATE, 7);
    emit(&l, 0x5B /* specular coefficient */, gef(1.0f));
    emit(&l, GE_TEXSCALE_U, gef(1.0f));
    emit(&l, GE_TEXSCALE_U + 1, gef(1.0f));
    emit(&l, GE_FB_FORMAT, 3);
    emit(&l, GE_FB_PTR, 0);
    emit(&l, GE_FB_WIDTH, 512);
    emit(&l, GE_REGION1, 0);
    emit(&l, GE_REGION2, 271u << 10 | 479);
    emit(&l, GE_Z_PTR, 0x88000);
    emit(&l, GE_Z_WIDTH, 512);
    emit(&l, GE_OFFSET_X, (2048 - 240) << 4);
    emit(&l, GE_OFFSET_Y, (2048 - 136) << 4);
    emit(&l, GE_VIEWPORT_SX, gef(240.0f));
    emit(&l, GE_VIEWPORT_SX + 1, gef(-136.0f));
    emit(&l, GE_VIEWPORT_SX + 3, gef(2048.0f));
    emit(&l, GE_VIEWPORT_SX + 4, gef(2048.0f));
    emit(&l, GE_VIEWPORT_SX + 2, gef(-32768.0f));
    emit(&l, GE_VIEWPORT_SX + 5, gef(32767.0f));
    emit(&l, GE_MIN_Z, 0);
    emit(&l, GE_MAX_Z, 65535);
    emit(&l, GE_Z_WRITE_DISABLE, 0);
    emit(&l, GE_SCISSOR1, 0);
    emit(&l, GE_SCISSOR2, 271u << 10 | 479);
    emit(&l, GE_CULL, 0);
    emit(&l, GE_SHADEMODE, 1);
    emit(&l, GE_TEXTURE_ON, 0);
    static const struct { unsigned num, data, size; } mats[] = {
        {GE_WORLD_NUM, GE_WORLD_DATA, 3},
        {GE_VIEW_NUM, GE_VIEW_DATA, 3},
        {GE_PROJ_NUM, GE_PROJ_DATA, 4},
    };
    for (unsigned m = 0; m < 3; m++) {
        emit(&l, mats[m].num, 0);
        for (unsigned c = 0; c < 4; c++) /* columns of `size` rows */
            for (unsigned k = 0; k < mats[m].size; k++) emit(&l, mats[m].data, c == k ? gef(1.0f) : 0);
    }
    return run_host_list(r, &l, d);
}

/* Copies a job list to addr, replacing each relocation placeholder pair by
 * the two commands it stands for (README "The job format", step 6). */
static int place_list(struct gt_render *r, uint32_t addr, const uint32_t *src, uint32_t n, const uint32_t *relocs,
                      uint32_t nrelocs, struct gt_diag *d)
{
    uint32_t *w = malloc(n ? n * 4u : 4u);
    if (!w) return gt_fail(d, GT_ENOMEM, "out of memory");
    memcpy(w, src, n * 4u);
    for (uint32_t k = 0; k < nrelocs; k++) {
        uint32_t i = relocs[k];
        if (i >= n || i + 1 >= n) continue; /* i + 1 past the end: ignored */
        uint32_t ph = src[i], a = addr + src[i + 1];
        unsigned kind = (ph >> 16) & 0xFF;
        uint32_t w0, w1;
        if (kind == 0x01 || kind == 0x03) {
            w0 = (uint32_t)GE_BASE << 24 | ((a >> 8) & 0x0F0000);
            w1 = (uint32_t)(kind == 0x01 ? GE_VADDR : GE_IADDR) << 24 | (a & 0xFFFFFF);
        } else if (kind == 0x02 || (kind >= 0x20 && kind <= 0x27)) {
            unsigned lv = kind == 0x02 ? 0 : kind - 0x20;
            w0 = (uint32_t)(GE_TEX_ADDR0 + lv) << 24 | (a & 0xFFFFFF);
            w1 = (uint32_t)(GE_TEX_BUFW0 + lv) << 24 | ((a >> 8) & 0x0F0000) | (ph & 0xFFFF);
        } else if (kind == 0x04) {
            w0 = (uint32_t)GE_TRX_SRC << 24 | (a & 0xFFFFFF);
            w1 = (uint32_t)GE_TRX_SRC_W << 24 | ((a >> 8) & 0xFF0000) | (ph & 0xFFFF);
        } else if (kind == 0x05) {
            w0 = (uint32_t)GE_CLUT_ADDR_UPPER << 24 | ((a >> 8) & 0xFF0000);
            w1 = (uint32_t)GE_CLUT_ADDR << 24 | (a & 0xFFFFFF);
        } else {
            free(w);
            return gt_fail(d, GT_ECORRUPT, "relocation %u at word %u has unknown kind 0x%02x", k, i, kind);
        }
        w[i] = w0;
        w[i + 1] = w1;
    }
    int rc = mem_write(&r->mem, addr, w, n * 4u, d);
    free(w);
    return rc;
}

/* Runs one job on the group's context; fills buf with the readback (rows of
 * 512 pixels) and returns 0, or an error (the job then counts as differing). */
static int run_job(struct gt_render *r, const struct job *jb, uint8_t *buf, struct gt_diag *d)
{
    if (jb->edram) r->mem.edram_trans = jb->edram - 1;
    int rc;
    /* 1. sceGuStart: the framebuffer again; the clear, drawn with the current state. */
    static const uint8_t clear_verts[24] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,                  /* color 0, x 0, y 0, z 0, padding */
        0, 0, 0, 0, 480 & 0xFF, 480 >> 8, 272 & 0xFF, 272 >> 8, 0, 0, 0, 0, /* x 480, y 272 */
    };
    if ((rc = mem_write(&r->mem, CLEAR_VERTS, clear_verts, sizeof clear_verts, d)) < 0) return rc;
    struct dl l = {0};
    emit(&l, GE_FB_PTR, 0);
    emit(&l, GE_FB_WIDTH, 512);
    emit(&l, GE_CLEAR_MODE, 0x000701);
    emit(&l, GE_VTYPE, 0x80011C);
    emit(&l, GE_BASE, (CLEAR_VERTS >> 8) & 0x0F0000);
    emit(&l, GE_VADDR, CLEAR_VERTS & 0xFFFFFF);
    emit(&l, GE_PRIM, 6u << 16 | 2);
    emit(&l, GE_CLEAR_MODE, 0);
    /* 2. The pre list. */
    if (jb->npre) {
        if ((rc = place_list(r, PRE_LIST, jb->pre, jb->npre, jb->pre_relocs, jb->npre_relocs, d)) < 0) return rc;
        emit_call(&l, PRE_LIST);
    }
    if ((rc = run_host_list(r, &l, d)) < 0) return rc;
    /* 3. The writes, through the uncached VRAM mirror. */
    const uint32_t *w = jb->writes;
    for (uint32_t k = 0; k < jb->nwrites; k++) {
        uint32_t off = w[0], len = w[1];
        if ((rc = mem_write(&r->mem, 0x44000000u + off, w + 2, len, d)) < 0) return rc;
        w += 2 + (len + 3) / 4;
    }
    /* 4. The main list. */
    if ((rc = place_list(r, MAIN_LIST, jb->list, jb->nlist, jb->relocs, jb->nrelocs, d)) < 0) return rc;
    l.n = 0;
    emit_call(&l, MAIN_LIST);
    if ((rc = run_host_list(r, &l, d)) < 0) return rc;
    /* 5. The readback. */
    uint32_t bpp = jb->readback >> 31 ? 2 : 4, off = jb->readback & 0x3FFFFFFFu;
    size_t bytes = (size_t)jb->rows * 512 * bpp;
    if (jb->readback & 0x40000000u) { /* the CPU reads through the uncached mirror */
        mem_read(&r->mem, 0x44000000u + off, buf, (uint32_t)bytes);
        return GT_OK;
    }
    if (!jb->rows) return GT_OK;
    uint32_t src = GT_VRAM_BASE + off; /* sceGuCopyImage from VRAM to RAM, stride 512 */
    l.n = 0;
    emit(&l, GE_TRX_SRC, src & 0xFFFFFF);
    emit(&l, GE_TRX_SRC_W, ((src >> 8) & 0xFF0000) | 512);
    emit(&l, GE_TRX_SRC_POS, 0);
    emit(&l, GE_TRX_DST, READBACK_RAM & 0xFFFFFF);
    emit(&l, GE_TRX_DST_W, ((READBACK_RAM >> 8) & 0xFF0000) | 512);
    emit(&l, GE_TRX_DST_POS, 0);
    emit(&l, GE_TRX_SIZE, (jb->rows - 1) << 10 | 511);
    emit(&l, GE_TRX_KICK, bpp == 4);
    emit(&l, GE_TEX_SYNC, 0);
    if ((rc = run_host_list(r, &l, d)) < 0) return rc;
    mem_read(&r->mem, READBACK_RAM, buf, (uint32_t)bytes);
    return GT_OK;
}

/* The readback's CRC: the first 480 pixels of every row, as one running CRC. */
static uint32_t readback_crc(const struct job *jb, const uint8_t *buf)
{
    uint32_t bpp = jb->readback >> 31 ? 2 : 4, crc = 0;
    for (uint32_t y = 0; y < jb->rows; y++) crc = crc32_update(crc, buf + (size_t)y * 512 * bpp, 480 * bpp);
    return crc;
}

static void save_readback(const char *dir, const struct group *g, uint32_t j, const struct job *jb,
                          const uint8_t *buf)
{
    char path[4096];
    struct gt_diag d = {0};
    int rc;
    uint32_t h = jb->rows;
    if (!h) return;
    if (jb->readback >> 31) {
        uint16_t *px = malloc((size_t)480 * h * 2);
        if (!px) return;
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < 480; x++) {
                const uint8_t *s = buf + ((size_t)y * 512 + x) * 2;
                px[(size_t)y * 480 + x] = (uint16_t)(s[0] | s[1] << 8);
            }
        snprintf(path, sizeof path, "%s/%s-%u-16.png", dir, g->name, j);
        rc = gt_png_write_gray16(path, px, 480, h, &d);
        free(px);
    } else {
        uint8_t *px = malloc((size_t)480 * h * 4);
        if (!px) return;
        for (uint32_t y = 0; y < h; y++) {
            memcpy(px + (size_t)y * 480 * 4, buf + (size_t)y * 512 * 4, 480 * 4);
            for (uint32_t x = 0; x < 480; x++) px[((size_t)y * 480 + x) * 4 + 3] = 255;
        }
        snprintf(path, sizeof path, "%s/%s-%u.png", dir, g->name, j);
        rc = gt_png_write_file(path, px, 480, h, &d);
        free(px);
    }
    if (rc < 0) fprintf(stderr, PROG ": %s\n", gt_diag_msg(&d));
}

/* Loads DIR/NAME.jobs.bin and DIR/NAME.expected. */
static int load_group(struct group *g, const char *dir, const char *name)
{
    char path[4096];
    snprintf(g->name, sizeof g->name, "%s", name);
    snprintf(path, sizeof path, "%s/%s.jobs.bin", dir, name);
    uint8_t *bytes;
    size_t len;
    if (read_file(path, &bytes, &len) < 0) {
        fprintf(stderr, PROG ": cannot read %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (len % 4) {
        fprintf(stderr, PROG ": %s: %zu bytes is not a whole number of words\n", path, len);
        free(bytes);
        return -1;
    }
    g->nwords = len / 4;
    g->words = malloc(len ? len : 4);
    if (!g->words) {
        free(bytes);
        fprintf(stderr, PROG ": out of memory\n");
        return -1;
    }
    for (size_t i = 0; i < g->nwords; i++) /* little endian on any host */
        g->words[i] = (uint32_t)bytes[4 * i] | (uint32_t)bytes[4 * i + 1] << 8 | (uint32_t)bytes[4 * i + 2] << 16 |
                      (uint32_t)bytes[4 * i + 3] << 24;
    free(bytes);
    if (parse_jobs(g, path) < 0) return -1;
    snprintf(path, sizeof path, "%s/%s.expected", dir, name);
    return parse_expected(g, path);
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The group names in dir: every NAME.jobs.bin, sorted. Returns the count or -1. */
static int find_groups(const char *dir, char **names, int cap)
{
    DIR *dh = opendir(dir);
    if (!dh) {
        fprintf(stderr, PROG ": cannot open %s: %s\n", dir, strerror(errno));
        return -1;
    }
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dh))) {
        size_t l = strlen(e->d_name);
        const char *suf = ".jobs.bin";
        if (l <= strlen(suf) || strcmp(e->d_name + l - strlen(suf), suf) || n >= cap) continue;
        names[n] = strndup(e->d_name, l - strlen(suf));
        if (names[n]) n++;
    }
    closedir(dh);
    qsort(names, (size_t)n, sizeof *names, cmp_names);
    return n;
}

struct opts {
    const char *dir, *save_dir;
    const char *only[MAX_GROUPS];
    int nonly;
    bool allow_diff;
    unsigned long long threads, tile;
};

static bool wanted(const struct opts *o, const char *name)
{
    if (!o->nonly) return true;
    for (int i = 0; i < o->nonly; i++)
        if (!strcmp(o->only[i], name)) return true;
    return false;
}

/* Runs one group; adds to *match and *total. Returns 0, or -1 when the group
 * could not be run at all. */
static int run_group(const struct opts *o, const char *name, unsigned *match, unsigned *total)
{
    struct group g = {0};
    int ret = -1;
    struct gt_render *r = NULL;
    uint8_t *buf = malloc(READBACK_MAX);
    struct gt_diag d = {0};
    if (!buf) {
        fprintf(stderr, PROG ": out of memory\n");
        goto out;
    }
    if (load_group(&g, o->dir, name) < 0) goto out;
    r = calloc(1, sizeof *r);
    if (!r || gt_render_init(r, &d) < 0) {
        fprintf(stderr, PROG ": %s\n", r ? gt_diag_msg(&d) : "out of memory");
        free(r);
        r = NULL;
        goto out;
    }
    if (gt_render_set_threads(r, (unsigned)o->threads, (unsigned)o->tile, &d) < 0 || setup_console(r, &d) < 0) {
        fprintf(stderr, PROG ": %s: %s\n", name, gt_diag_msg(&d));
        goto out;
    }
    unsigned gm = 0;
    for (uint32_t j = 0; j < g.njobs; j++) {
        const struct job *jb = &g.jobs[j];
        memset(buf, 0, READBACK_MAX);
        d = (struct gt_diag){0};
        int rc = run_job(r, jb, buf, &d);
        if (rc < 0) {
            printf("%s %s: error (%s) %08x DIFF\n", name, jb->name, gt_diag_msg(&d), jb->psp_crc);
            continue;
        }
        uint32_t crc = readback_crc(jb, buf);
        bool ok = crc == jb->psp_crc;
        gm += ok;
        printf("%s %s: %08x %08x %s\n", name, jb->name, crc, jb->psp_crc, ok ? "match" : "DIFF");
        if (!ok && o->save_dir) save_readback(o->save_dir, &g, j, jb, buf);
    }
    printf("%s: %u of %u jobs match the PSP\n", name, gm, g.njobs);
    fflush(stdout);
    *match += gm;
    *total += g.njobs;
    ret = 0;
out:
    if (r) {
        gt_render_free(r);
        free(r);
    }
    free(g.words);
    free(g.jobs);
    free(buf);
    return ret;
}

int cmd_exact(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return 0;
    }
    struct opts o = {.tile = GT_TILE_SIZE_DEFAULT};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = !strcmp(a, "--save-dir") || !strcmp(a, "--group") || !strcmp(a, "--threads") ||
                     !strcmp(a, "--tile-size");
        if (takes && !v) {
            fprintf(stderr, PROG ": %s needs a value\n", a);
            return 2;
        }
        if (!strcmp(a, "--allow-diff")) {
            o.allow_diff = true;
        } else if (!strcmp(a, "--save-dir")) {
            o.save_dir = argv[++i];
        } else if (!strcmp(a, "--group")) {
            if (o.nonly == MAX_GROUPS) {
                fprintf(stderr, PROG ": at most %d --group options\n", MAX_GROUPS);
                return 2;
            }
            o.only[o.nonly++] = argv[++i];
        } else if (!strcmp(a, "--threads")) {
            if (!cli_parse_u64(a, v, GT_MAX_THREADS, &o.threads)) return 2;
            if (!o.threads) {
                fprintf(stderr, PROG ": --threads must be at least 1\n");
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--tile-size")) {
            if (!cli_parse_u64(a, v, GT_TILE_SIZE_MAX, &o.tile)) return 2;
            i++;
        } else if (a[0] == '-') {
            fprintf(stderr, PROG ": unknown option '%s'\n\n%s", a, usage);
            return 2;
        } else if (o.dir) {
            fprintf(stderr, PROG ": one directory at a time ('%s' and '%s')\n", o.dir, a);
            return 2;
        } else {
            o.dir = a;
        }
    }
    if (!o.dir) {
        fprintf(stderr, PROG ": no directory given\n\n%s", usage);
        return 2;
    }
    if (!o.threads) o.threads = cli_cpu_count();
    if (o.save_dir && mkdir(o.save_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, PROG ": cannot create %s: %s\n", o.save_dir, strerror(errno));
        return 1;
    }
    char *names[MAX_GROUPS];
    int n = find_groups(o.dir, names, MAX_GROUPS);
    if (n < 0) return 1;
    unsigned match = 0, total = 0, run = 0;
    int failed = 0;
    for (int i = 0; i < n; i++) {
        if (wanted(&o, names[i])) {
            run++;
            if (run_group(&o, names[i], &match, &total) < 0) failed = 1;
        }
        free(names[i]);
    }
    for (int i = 0; i < o.nonly; i++) { /* a --group that names nothing is a mistake */
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s.jobs.bin", o.dir, o.only[i]);
        if (stat(path, &st) != 0) {
            fprintf(stderr, PROG ": no group '%s' in %s\n", o.only[i], o.dir);
            failed = 1;
        }
    }
    if (!run) {
        fprintf(stderr, PROG ": no job groups (GROUP.jobs.bin) in %s\n", o.dir);
        return 1;
    }
    printf("total: %u of %u jobs match the PSP\n", match, total);
    if (failed) return 1;
    return match == total || o.allow_diff ? 0 : 1;
}
