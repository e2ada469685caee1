/* The client side of getiled's protocol: see netclient.h. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "dump.h"
#include "ge_limits.h"
#include "netclient.h"

#define SAY(...)                                                                                        \
    do {                                                                                                \
        if (prog) {                                                                                     \
            int keep_ = errno;                                                                          \
            fprintf(stderr, __VA_ARGS__);                                                               \
            errno = keep_;                                                                              \
        }                                                                                               \
    } while (0)

/* connect() with a deadline: 0, or -1 with errno set (ETIMEDOUT when it ran out). */
static int connect_within(int fd, const struct sockaddr *sa, socklen_t len, int timeout_ms)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) return connect(fd, sa, len);
    int rc = connect(fd, sa, len);
    if (rc != 0 && errno == EINPROGRESS) {
        struct pollfd p = {.fd = fd, .events = POLLOUT};
        double end = nc_now() + timeout_ms / 1000.0;
        for (;;) {
            int left = (int)((end - nc_now()) * 1000.0);
            int n = poll(&p, 1, left > 0 ? left : 0);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                if (n == 0) errno = ETIMEDOUT;
                return -1;
            }
            break;
        }
        int err = 0;
        socklen_t el = sizeof err;
        if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) != 0) return -1;
        if (err) {
            errno = err;
            return -1;
        }
        rc = 0;
    }
    if (rc == 0) fcntl(fd, F_SETFL, fl);
    return rc;
}

int nc_dial(const char *addr, const char *prog)
{
    if (!strncmp(addr, "unix:", 5)) {
        struct sockaddr_un sa = {.sun_family = AF_UNIX};
        if (strlen(addr + 5) >= sizeof sa.sun_path) {
            errno = ENAMETOOLONG;
            SAY("%s: socket path too long: %s\n", prog, addr + 5);
            return -1;
        }
        snprintf(sa.sun_path, sizeof sa.sun_path, "%s", addr + 5);
        int fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
            SAY("%s: cannot connect to %s: %s\n", prog, addr, strerror(errno));
            if (fd >= 0) {
                int keep = errno;
                close(fd);
                errno = keep;
            }
            return -1;
        }
        return fd;
    }
    if (strncmp(addr, "tcp://", 6) != 0) {
        errno = EINVAL;
        SAY("%s: bad server address '%s' (tcp://HOST:PORT or unix:/PATH)\n", prog, addr);
        return -1;
    }
    char host[256];
    const char *hp = addr + 6, *colon = strrchr(hp, ':');
    if (!colon || colon == hp || (size_t)(colon - hp) >= sizeof host || !colon[1]) {
        errno = EINVAL;
        SAY("%s: bad server address '%s' (tcp://HOST:PORT)\n", prog, addr);
        return -1;
    }
    memcpy(host, hp, (size_t)(colon - hp));
    host[colon - hp] = 0;
    if (host[0] == '[' && host[strlen(host) - 1] == ']') {
        memmove(host, host + 1, strlen(host));
        host[strlen(host) - 1] = 0;
    }
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res, *ai;
    int rc = getaddrinfo(host, colon + 1, &hints, &res);
    if (rc != 0) {
        errno = EHOSTUNREACH;
        SAY("%s: %s: %s\n", prog, addr, gai_strerror(rc));
        return -1;
    }
    int fd = -1, err = 0;
    for (ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd >= 0 && connect_within(fd, ai->ai_addr, ai->ai_addrlen, NC_CONNECT_TIMEOUT_MS) == 0) break;
        err = errno;
        if (fd >= 0) close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        errno = err;
        SAY("%s: cannot connect to %s: %s\n", prog, addr, strerror(err));
        return fd;
    }
    /* requests and replies are whole messages: send each at once */
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

void nc_dump_name(const char *path, char *out, size_t cap)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(out, cap, "%s", base);
    size_t n = strlen(out);
    if (n > 4 && !strcasecmp(out + n - 4, ".zip")) out[n -= 4] = 0;
    if (n > 6 && !strcasecmp(out + n - 6, ".ppdmp")) out[n -= 6] = 0;
}

void nc_out_name(const char *path, const char *dir, const char *suffix, char *out, size_t cap)
{
    char name[512];
    nc_dump_name(path, name, sizeof name);
    snprintf(out, cap, "%s/%s%s", dir, name, suffix);
}

int nc_write_file(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t w = fwrite(p, 1, n, f);
    if (fclose(f) != 0 || w != n) return -1;
    return 0;
}

char *nc_read_token(const char *path, const char *prog)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open %s: %s\n", prog, path, strerror(errno));
        return NULL;
    }
    char buf[GT_PROTO_MAX_TOKEN + 2];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    buf[strcspn(buf, "\r\n")] = 0;
    return strdup(buf);
}

int nc_encode_dump(const char *path, uint64_t id, unsigned threads, const char *token, msgpack_sbuffer *sb,
                   char *why, size_t why_cap)
{
    struct gt_diag d = {0};
    uint8_t *bytes;
    size_t len;
    if (gt_read_file(path, GT_DUMP_MAX_FILE, &bytes, &len, &d) < 0) {
        snprintf(why, why_cap, "%s", gt_diag_msg(&d));
        return -1;
    }
    struct proto_request *rq = malloc(sizeof *rq);
    if (!rq) {
        free(bytes);
        snprintf(why, why_cap, "out of memory");
        return -1;
    }
    proto_request_init(rq, PROTO_OP_RENDER_DUMP, id);
    rq->dump = (struct proto_bytes){bytes, (uint32_t)len};
    rq->threads = threads;
    if (token) {
        rq->has_token = true;
        rq->token = (struct proto_bytes){(const uint8_t *)token, (uint32_t)strlen(token)};
    }
    msgpack_sbuffer_clear(sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    int rc = proto_encode_request(&pk, rq);
    free(rq);
    free(bytes);
    if (rc < 0) {
        snprintf(why, why_cap, "cannot encode the request (%s)", gt_strerror(rc));
        return -1;
    }
    return 0;
}

int nc_conn_open(struct nc_conn *c, const char *addr, const char *prog)
{
    memset(c, 0, sizeof *c);
    c->fd = -1;
    if (proto_reader_init(&c->rd, (size_t)GT_SRV_MAX_REQUEST_MB << 20) < 0) {
        errno = ENOMEM;
        SAY("%s: out of memory\n", prog);
        return -1;
    }
    msgpack_unpacked_init(&c->msg);
    c->fd = nc_dial(addr, prog);
    if (c->fd < 0) {
        int keep = errno;
        nc_conn_close(c);
        errno = keep;
        return -1;
    }
    fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK);
    return 0;
}

void nc_conn_close(struct nc_conn *c)
{
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
    msgpack_unpacked_destroy(&c->msg);
    msgpack_unpacked_init(&c->msg);
    proto_reader_free(&c->rd);
    memset(&c->rd, 0, sizeof c->rd);
    free(c->out);
    c->out = NULL;
    c->out_len = c->out_off = c->out_cap = 0;
}

int nc_conn_queue(struct nc_conn *c, const void *p, size_t n)
{
    if (c->out_off == c->out_len) c->out_off = c->out_len = 0;
    if (c->out_len + n > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : 1 << 16;
        while (cap < c->out_len + n) cap *= 2;
        char *m = realloc(c->out, cap);
        if (!m) return -1;
        c->out = m;
        c->out_cap = cap;
    }
    memcpy(c->out + c->out_len, p, n);
    c->out_len += n;
    return 0;
}

bool nc_conn_wants_write(const struct nc_conn *c) { return c->out_off < c->out_len; }

int nc_conn_send(struct nc_conn *c)
{
    while (c->out_off < c->out_len) {
        ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
            return -1;
        }
        c->out_off += (size_t)n;
    }
    return 0;
}

int nc_conn_recv(struct nc_conn *c)
{
    for (;;) {
        char *buf;
        size_t cap;
        if (proto_reader_buffer(&c->rd, 1 << 16, &buf, &cap) < 0) return -1;
        ssize_t n = recv(c->fd, buf, cap, 0);
        if (n > 0) {
            proto_reader_consumed(&c->rd, (size_t)n);
            if ((size_t)n < cap) return 0;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
        return -1;
    }
}

int nc_conn_next(struct nc_conn *c, struct proto_response *rs, char *why, size_t why_cap)
{
    struct gt_diag d = {0};
    int rc = proto_next(&c->rd, &c->msg, &d);
    if (rc == 0) return 0;
    if (rc < 0 || proto_decode_response(&c->msg.data, rs, &d) < 0) {
        snprintf(why, why_cap, "bad response%s: %s", rc < 0 ? " stream" : "", gt_diag_msg(&d));
        return -1;
    }
    return 1;
}

double nc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
