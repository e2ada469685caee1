/* The client side of getiled's protocol (proto/PROTOCOL.md), shared by
 * `getile submit`, `getile batch` and `getile probe`: dialling tcp:// and
 * unix: addresses, a non-blocking connection with an output queue and a
 * response reader, and small file helpers. */
#ifndef GETILE_NETCLIENT_H
#define GETILE_NETCLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

#include "proto.h"

/* How long a TCP connect may take. */
#define NC_CONNECT_TIMEOUT_MS 10000

/* Connects to tcp://HOST:PORT or unix:/PATH; a blocking socket (TCP_NODELAY
 * on TCP), or -1 with errno set and a message on stderr prefixed by prog
 * ("getile submit"; NULL: no message). */
int nc_dial(const char *addr, const char *prog);

/* OUT = DIR/NAME + suffix, NAME the base name of path without .zip, then
 * without .ppdmp. */
void nc_out_name(const char *path, const char *dir, const char *suffix, char *out, size_t cap);
/* The bare NAME of nc_out_name. */
void nc_dump_name(const char *path, char *out, size_t cap);
/* Writes a whole file; 0 or -1 (errno set). */
int nc_write_file(const char *path, const uint8_t *p, size_t n);
/* The first line of a token file (malloc'd), or NULL with a message. */
char *nc_read_token(const char *path, const char *prog);
/* Encodes a render_dump request for the file at path into sb (cleared
 * first). 0, or -1 with the reason in why. */
int nc_encode_dump(const char *path, uint64_t id, unsigned threads, const char *token, msgpack_sbuffer *sb,
                   char *why, size_t why_cap);

/* A non-blocking connection: requests are queued with nc_conn_queue and
 * written by nc_conn_send; nc_conn_recv reads what arrived and
 * nc_conn_next cuts it into responses. */
struct nc_conn {
    int fd;
    struct proto_reader rd;
    msgpack_unpacked msg;         /* the last message (valid until the next nc_conn_next) */
    char *out;                    /* queued request bytes */
    size_t out_len, out_off, out_cap;
};

/* Dials addr; 0 or -1 (errno set; a message on stderr unless prog is NULL). */
int nc_conn_open(struct nc_conn *c, const char *addr, const char *prog);
void nc_conn_close(struct nc_conn *c);
/* Appends bytes to the output queue; 0 or -1 (out of memory). */
int nc_conn_queue(struct nc_conn *c, const void *p, size_t n);
/* True when queued bytes wait to be sent (poll for POLLOUT). */
bool nc_conn_wants_write(const struct nc_conn *c);
/* Sends what the socket takes; 0, or -1 when the connection broke. */
int nc_conn_send(struct nc_conn *c);
/* Reads what arrived; 0, or -1 on EOF or error. */
int nc_conn_recv(struct nc_conn *c);
/* The next complete response into *rs: 1, 0 when none is complete, or -1
 * on a malformed stream or response (why filled). */
int nc_conn_next(struct nc_conn *c, struct proto_response *rs, char *why, size_t why_cap);

/* Monotonic seconds. */
double nc_now(void);

#endif
