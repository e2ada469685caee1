/* getile probe: render a raw display list, described in a small text file,
 * on a getiled server (a render_list request) and write the PNG. For
 * hardware-style probes: a few register writes and a primitive, no dump. */
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cli.h"
#include "ge_limits.h"
#include "netclient.h"
#include "proto.h"

#define PROG "getile probe"
#define DEFAULT_PC 0x08800000u

static const char usage[] =
    "usage: getile probe --server ADDR FILE -o OUT.png [--threads N] [--token-file F]\n"
    "\n"
    "Builds a display list from the description in FILE, renders it on a getiled\n"
    "server on a fresh context (a render_list request, proto/PROTOCOL.md) and\n"
    "writes the displayed image as OUT.png.\n"
    "\n"
    "  --server ADDR     tcp://HOST:PORT or unix:/PATH (required)\n"
    "  -o, --output OUT  the PNG to write (required)\n"
    "  --threads N       threads the server draws with (default: its choice)\n"
    "  --token-file F    send the token in F (its first line)\n"
    "\n"
    "FILE: one directive per line; '#' starts a comment; numbers are decimal,\n"
    "0x hexadecimal or 0 octal (C syntax).\n"
    "  pc ADDR                  where the list is placed and starts (default 0x08800000)\n"
    "  word CMD DATA            append the command word CMD << 24 | DATA (DATA: 24 bits)\n"
    "                           to the list, in file order\n"
    "  mem ADDR HEX...          write bytes at ADDR before the run, in file order; HEX\n"
    "                           is pairs of hex digits, spaces between groups allowed\n"
    "                           (\"mem 0x08900000 ff0000ff 0a00 0a00\")\n"
    "  reg CMD DATA             run the register word CMD << 24 | DATA before the list\n"
    "  stall ADDR               the list's stall address (default: none)\n"
    "  display ADDR STRIDE FMT  the framebuffer to read out: PSP address, stride in\n"
    "                           pixels, format 0 565, 1 5551, 2 4444, 3 8888 (default:\n"
    "                           what the framebuffer registers hold after the run)\n"
    "Unless the list already ends with END (0x0C), FINISH (0x0F) and END are\n"
    "appended. The list's words are sent as one memory block at pc, after the mem\n"
    "blocks.\n"
    "\n"
    "Example: a red 20x10 rectangle at (10, 10), through-mode, 8888 framebuffer:\n"
    "  mem 0x08900000 ff0000ff 0a00 0a00 0000 0000  ff0000ff 1e00 1400 0000 0000\n"
    "  word 0x9c 0            # FRAMEBUFPTR\n"
    "  word 0x9d 0x040200     # FRAMEBUFWIDTH 512 (address bits 24-31: 0x04)\n"
    "  word 0xd2 3            # FRAMEBUFPIXFORMAT 8888\n"
    "  word 0xd5 0x043ddf     # SCISSOR2 479,271\n"
    "  word 0x16 0x043ddf     # REGION2 479,271\n"
    "  word 0x10 0x080000     # BASE\n"
    "  word 0x01 0x900000     # VADDR 0x08900000\n"
    "  word 0x12 0x80011c     # VERTEXTYPE through, 8888 color, 16-bit position\n"
    "  word 0x04 0x060002     # PRIM rectangles, 2 vertices\n"
    "  display 0x04000000 512 3\n"
    "\n"
    "Exit status: 0 written; 1 the server failed or refused the request; 2 usage or\n"
    "description errors (reported as FILE:LINE: message).\n";

struct desc {
    struct proto_request *rq;
    uint32_t pc;
    uint32_t *words;
    size_t nwords, capwords;
    uint8_t **bufs; /* mem block bytes, freed at the end */
    size_t nbufs;
};

static bool parse_u32(const char *s, uint32_t *out)
{
    if (!s || !*s || *s == '-') return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end || v > 0xFFFFFFFFull) return false;
    *out = (uint32_t)v;
    return true;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    c = tolower(c);
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* Parses FILE into ds; 0, or -1 with FILE:LINE: message printed. */
static int parse_desc(const char *path, struct desc *ds)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, PROG ": cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[1 << 16];
    int ln = 0;
    struct proto_request *rq = ds->rq;
    ds->pc = DEFAULT_PC;
#define BAD(...)                                                                                        \
    do {                                                                                                \
        fprintf(stderr, "%s:%d: ", path, ln);                                                           \
        fprintf(stderr, __VA_ARGS__);                                                                   \
        fputc('\n', stderr);                                                                            \
        fclose(f);                                                                                      \
        return -1;                                                                                      \
    } while (0)
    while (fgets(line, sizeof line, f)) {
        ln++;
        if (!strchr(line, '\n') && !feof(f)) BAD("line too long");
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char *tok[4096];
        int nt = 0;
        char *save = NULL;
        for (char *t = strtok_r(line, " \t\r\n", &save); t && nt < 4096; t = strtok_r(NULL, " \t\r\n", &save))
            tok[nt++] = t;
        if (nt == 0) continue;
        const char *k = tok[0];
        uint32_t a, b, c;
        if (!strcmp(k, "pc") || !strcmp(k, "stall")) {
            if (nt != 2 || !parse_u32(tok[1], &a)) BAD("%s needs one address", k);
            if (!strcmp(k, "pc"))
                ds->pc = a;
            else
                rq->stall = a;
        } else if (!strcmp(k, "word") || !strcmp(k, "reg")) {
            if (nt != 3 || !parse_u32(tok[1], &a) || !parse_u32(tok[2], &b)) BAD("%s needs CMD and DATA", k);
            if (a > 0xFF) BAD("command 0x%x is over 0xff", a);
            if (b > 0xFFFFFF) BAD("data 0x%x is over 24 bits", b);
            uint32_t w = a << 24 | b;
            if (!strcmp(k, "reg")) {
                if (rq->nregs == GT_PROTO_MAX_REGS) BAD("too many reg lines (at most %d)", GT_PROTO_MAX_REGS);
                rq->regs[rq->nregs++] = w;
            } else {
                if (ds->nwords == ds->capwords) {
                    ds->capwords = ds->capwords ? ds->capwords * 2 : 256;
                    uint32_t *m = realloc(ds->words, ds->capwords * sizeof *m);
                    if (!m) BAD("out of memory");
                    ds->words = m;
                }
                ds->words[ds->nwords++] = w;
            }
        } else if (!strcmp(k, "mem")) {
            if (nt < 3 || !parse_u32(tok[1], &a)) BAD("mem needs ADDR and hex bytes");
            size_t digits = 0;
            for (int i = 2; i < nt; i++) {
                const char *h = tok[i];
                if (h[0] == '0' && (h[1] == 'x' || h[1] == 'X')) h += 2;
                for (; *h; h++) {
                    if (hexval((unsigned char)*h) < 0) BAD("'%s' is not hex bytes", tok[i]);
                    digits++;
                }
            }
            if (digits % 2) BAD("an odd number of hex digits");
            if (rq->nblocks >= GT_PROTO_MAX_BLOCKS - 1) BAD("too many mem lines (at most %d)", GT_PROTO_MAX_BLOCKS - 1);
            uint8_t *buf = malloc(digits / 2 + 1), **nb = realloc(ds->bufs, (ds->nbufs + 1) * sizeof *nb);
            if (!buf || !nb) BAD("out of memory");
            ds->bufs = nb;
            ds->bufs[ds->nbufs++] = buf;
            size_t n = 0;
            int hi = -1;
            for (int i = 2; i < nt; i++) {
                const char *h = tok[i];
                if (h[0] == '0' && (h[1] == 'x' || h[1] == 'X')) h += 2;
                for (; *h; h++) {
                    int v = hexval((unsigned char)*h);
                    if (hi < 0) {
                        hi = v;
                    } else {
                        buf[n++] = (uint8_t)(hi << 4 | v);
                        hi = -1;
                    }
                }
            }
            rq->blocks[rq->nblocks++] = (struct proto_block){a, {buf, (uint32_t)n}};
        } else if (!strcmp(k, "display")) {
            if (nt != 4 || !parse_u32(tok[1], &a) || !parse_u32(tok[2], &b) || !parse_u32(tok[3], &c))
                BAD("display needs ADDR STRIDE FORMAT");
            if (b > GT_PROTO_MAX_STRIDE) BAD("stride %u is over %u", b, GT_PROTO_MAX_STRIDE);
            if (c > 3) BAD("format %u is not 0..3", c);
            rq->has_display = true;
            rq->display = (struct proto_display){a, b, c};
        } else {
            BAD("unknown directive '%s' (pc, word, mem, reg, stall, display)", k);
        }
    }
#undef BAD
    fclose(f);
    return 0;
}

int cmd_probe(int argc, char **argv)
{
    const char *file = NULL;
    struct cli_net_opts o = {0};
    if (cli_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int taken = cli_net_option(argc, argv, &i, &o, PROG);
        if (taken < 0) return 2;
        if (taken) continue;
        if (a[0] == '-' && a[1]) {
            fprintf(stderr, PROG ": unknown option '%s'\n\n%s", a, usage);
            return 2;
        } else if (!file) {
            file = a;
        } else {
            fprintf(stderr, PROG ": one description file, got a second ('%s')\n", a);
            return 2;
        }
    }
    const char *server = o.server, *out = o.output, *token_file = o.token_file;
    unsigned long long threads = o.threads;
    if (!server || !file || !out) {
        fprintf(stderr, PROG ": %s\n\n%s", !server ? "no --server given" : !file ? "no FILE given" : "no -o OUT.png given",
                usage);
        return 2;
    }
    struct desc ds = {0};
    ds.rq = malloc(sizeof *ds.rq);
    if (!ds.rq) return 1;
    proto_request_init(ds.rq, PROTO_OP_RENDER_LIST, 1);
    int status = 2;
    char *token = NULL;
    struct nc_conn c = {.fd = -1};
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    if (parse_desc(file, &ds) < 0) goto done;
    if (token_file && !(token = nc_read_token(token_file, PROG))) goto done;
    if (ds.nwords == 0 || (ds.words[ds.nwords - 1] >> 24) != 0x0C) {
        uint32_t tail[2] = {0x0Fu << 24, 0x0Cu << 24};
        for (int i = 0; i < 2; i++) {
            uint32_t *m = realloc(ds.words, (ds.nwords + 1) * sizeof *m);
            if (!m) goto done;
            ds.words = m;
            ds.words[ds.nwords++] = tail[i];
        }
    }
    /* the list as little-endian bytes at pc */
    uint8_t *lb = malloc(ds.nwords * 4);
    if (!lb) goto done;
    for (size_t i = 0; i < ds.nwords; i++)
        for (int k = 0; k < 4; k++) lb[i * 4 + k] = (uint8_t)(ds.words[i] >> (8 * k));
    uint8_t **nb = realloc(ds.bufs, (ds.nbufs + 1) * sizeof *nb);
    if (!nb) {
        free(lb);
        goto done;
    }
    ds.bufs = nb;
    ds.bufs[ds.nbufs++] = lb;
    ds.rq->blocks[ds.rq->nblocks++] = (struct proto_block){ds.pc, {lb, (uint32_t)(ds.nwords * 4)}};
    ds.rq->pc = ds.pc;
    ds.rq->threads = (uint32_t)threads;
    if (token) {
        ds.rq->has_token = true;
        ds.rq->token = (struct proto_bytes){(const uint8_t *)token, (uint32_t)strlen(token)};
    }
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    int rc = proto_encode_request(&pk, ds.rq);
    if (rc < 0) {
        fprintf(stderr, PROG ": %s: cannot encode the request (%s)\n", file, gt_strerror(rc));
        goto done;
    }
    status = 1;
    if (nc_conn_open(&c, server, PROG) < 0 || nc_conn_queue(&c, sb.data, sb.size) < 0) goto done;
    struct proto_response *rs = malloc(sizeof *rs);
    if (!rs) goto done;
    char why[600];
    bool eof = false;
    for (;;) {
        if (nc_conn_send(&c) < 0) {
            fprintf(stderr, PROG ": %s: %s\n", server, strerror(errno));
            break;
        }
        int n = nc_conn_next(&c, rs, why, sizeof why);
        if (n < 0) {
            fprintf(stderr, PROG ": %s\n", why);
            break;
        }
        if (n == 1) {
            if (!rs->ok) {
                fprintf(stderr, PROG ": %.*s: %.*s\n", (int)rs->error_code.len, (const char *)rs->error_code.ptr,
                        (int)rs->error_message.len, (const char *)rs->error_message.ptr);
            } else if (!(rs->outputs & PROTO_OUT_PNG) || nc_write_file(out, rs->png.ptr, rs->png.len) < 0) {
                fprintf(stderr, PROG ": cannot write %s: %s\n", out, strerror(errno));
            } else {
                printf("%s: %llu draws, %llu prims, %llu pixels, %.2f ms -> %s\n", file,
                       (unsigned long long)rs->stats.draws, (unsigned long long)rs->stats.prims,
                       (unsigned long long)rs->stats.pixels, rs->stats.ms, out);
                status = 0;
            }
            break;
        }
        if (eof) {
            fprintf(stderr, PROG ": %s closed the connection without an answer\n", server);
            break;
        }
        struct pollfd p = {.fd = c.fd, .events = POLLIN | (nc_conn_wants_write(&c) ? POLLOUT : 0)};
        if (poll(&p, 1, -1) < 0 && errno != EINTR) break;
        if ((p.revents & (POLLIN | POLLHUP | POLLERR)) && nc_conn_recv(&c) < 0) eof = true;
    }
    free(rs);
done:
    if (c.fd >= 0) nc_conn_close(&c);
    msgpack_sbuffer_destroy(&sb);
    for (size_t i = 0; i < ds.nbufs; i++) free(ds.bufs[i]);
    free(ds.bufs);
    free(ds.words);
    free(ds.rq);
    free(token);
    return status;
}
