/* getile submit: render dumps on a getiled server and write their PNGs.
 *
 * Every dump is sent as a render_dump request on one connection without
 * waiting (pipelining; the server's per-connection cap and backpressure
 * pace the stream); responses are matched by id (the dump's index + 1) in
 * whatever order they come. One poll() loop sends and receives at once, so
 * neither side can block the other; a request is encoded only when the
 * previous one has been sent, so memory holds one dump at a time. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cli.h"
#include "dump.h"
#include "ge_limits.h"
#include "netclient.h"
#include "proto.h"

static const char usage[] =
    "usage: getile submit --server ADDR DUMP... [-o DIR] [--threads N] [--token-file F]\n"
    "\n"
    "Renders frame dumps on a getiled server and writes DIR/NAME.png for each\n"
    "(NAME: the dump's file name without .zip and .ppdmp), the same bytes as\n"
    "`getile render`. All dumps are sent at once on one connection. Prints one\n"
    "line per dump; exits 0 only if every dump rendered.\n"
    "\n"
    "  --server ADDR     tcp://HOST:PORT or unix:/PATH (required)\n"
    "  -o, --output DIR  where the PNGs go (default: the current directory)\n"
    "  --threads N       threads the server draws each dump with (default: its choice)\n"
    "  --token-file F    send the token in F (its first line)\n";

int cmd_submit(int argc, char **argv)
{
    struct cli_net_opts o = {0};
    if (cli_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return 0;
    }
    const char **dumps = calloc((size_t)argc, sizeof *dumps);
    int ndumps = 0;
    if (!dumps) return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int taken = cli_net_option(argc, argv, &i, &o, "getile submit");
        if (taken < 0) {
            free(dumps);
            return 2;
        }
        if (taken) continue;
        if (a[0] == '-' && a[1]) {
            fprintf(stderr, "getile submit: unknown option '%s'\n\n%s", a, usage);
            free(dumps);
            return 2;
        }
        dumps[ndumps++] = a;
    }
    const char *server = o.server, *dir = o.output ? o.output : ".", *token_file = o.token_file;
    unsigned long long threads = o.threads;
    if (!server || ndumps == 0) {
        fprintf(stderr, "getile submit: %s\n\n%s", !server ? "no --server given" : "no dump given", usage);
        free(dumps);
        return 2;
    }
    char *token = token_file ? nc_read_token(token_file, "getile submit") : NULL;
    if (token_file && !token) {
        free(dumps);
        return 2;
    }
    int fd = nc_dial(server, "getile submit");
    if (fd < 0) {
        free(dumps);
        free(token);
        return 1;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);

    bool *answered = calloc((size_t)ndumps, sizeof *answered);
    struct proto_reader rd;
    msgpack_unpacked msg;
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&msg);
    int failures = 0, pending = 0, next = 0;
    size_t sent = 0;
    bool have = false, broken = false;
    if (!answered || proto_reader_init(&rd, (size_t)GT_SRV_MAX_REQUEST_MB << 20) < 0) {
        fprintf(stderr, "getile submit: out of memory\n");
        free(answered);
        free(dumps);
        free(token);
        close(fd);
        msgpack_sbuffer_destroy(&sb);
        return 1;
    }
    while (!broken && (next < ndumps || have || pending > 0)) {
        while (!have && next < ndumps) {
            int i = next++;
            char why[512];
            if (nc_encode_dump(dumps[i], (uint64_t)i + 1, (unsigned)threads, token, &sb, why, sizeof why) < 0) {
                printf("FAIL %s: %s\n", dumps[i], why);
                answered[i] = true;
                failures++;
                continue;
            }
            have = true;
            sent = 0;
            pending++;
        }
        struct pollfd p = {.fd = fd, .events = POLLIN | (have ? POLLOUT : 0)};
        if (poll(&p, 1, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (have && (p.revents & POLLOUT)) {
            ssize_t n = send(fd, sb.data + sent, sb.size - sent, MSG_NOSIGNAL);
            if (n < 0 && errno != EAGAIN && errno != EINTR) broken = true;
            if (n > 0 && (sent += (size_t)n) == sb.size) have = false;
        }
        if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
            char *buf;
            size_t cap;
            if (proto_reader_buffer(&rd, 1 << 16, &buf, &cap) < 0) break;
            ssize_t n = recv(fd, buf, cap, 0);
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) broken = true;
            if (n > 0) proto_reader_consumed(&rd, (size_t)n);
            struct gt_diag d = {0};
            int rc;
            while ((rc = proto_next(&rd, &msg, &d)) == 1) {
                struct proto_response *rs = malloc(sizeof *rs);
                if (!rs || proto_decode_response(&msg.data, rs, &d) < 0) {
                    fprintf(stderr, "getile submit: bad response: %s\n", rs ? gt_diag_msg(&d) : "out of memory");
                    free(rs);
                    broken = true;
                    break;
                }
                if (rs->id == 0 || rs->id > (uint64_t)ndumps || answered[rs->id - 1]) {
                    if (!rs->ok)
                        fprintf(stderr, "getile submit: server error: %.*s: %.*s\n", (int)rs->error_code.len,
                                (const char *)rs->error_code.ptr, (int)rs->error_message.len,
                                (const char *)rs->error_message.ptr);
                    free(rs);
                    continue;
                }
                int i = (int)rs->id - 1;
                answered[i] = true;
                pending--;
                char out[1024];
                nc_out_name(dumps[i], dir, ".png", out, sizeof out);
                if (!rs->ok) {
                    printf("FAIL %s: %.*s: %.*s\n", dumps[i], (int)rs->error_code.len,
                           (const char *)rs->error_code.ptr, (int)rs->error_message.len,
                           (const char *)rs->error_message.ptr);
                    failures++;
                } else if (!(rs->outputs & PROTO_OUT_PNG) || nc_write_file(out, rs->png.ptr, rs->png.len) < 0) {
                    printf("FAIL %s: cannot write %s: %s\n", dumps[i], out, strerror(errno));
                    failures++;
                } else {
                    printf("ok   %s: %.1f ms, %llu draws, %llu pixels -> %s\n", dumps[i], rs->stats.ms,
                           (unsigned long long)rs->stats.draws, (unsigned long long)rs->stats.pixels, out);
                }
                fflush(stdout);
                free(rs);
            }
            if (rc < 0) {
                fprintf(stderr, "getile submit: bad response stream: %s\n", gt_diag_msg(&d));
                broken = true;
            }
        }
    }
    for (int i = 0; i < ndumps; i++)
        if (!answered[i]) {
            printf("FAIL %s: no response (the connection %s)\n", dumps[i], broken ? "closed" : "failed");
            failures++;
        }
    close(fd);
    msgpack_unpacked_destroy(&msg);
    proto_reader_free(&rd);
    msgpack_sbuffer_destroy(&sb);
    free(answered);
    free(dumps);
    free(token);
    return failures ? 1 : 0;
}
