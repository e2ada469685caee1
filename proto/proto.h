/* getile's wire protocol (proto/PROTOCOL.md): msgpack maps on a byte stream.
 *
 * proto_reader cuts a stream into messages (bounded in size, value count and
 * nesting before msgpack-c allocates anything); proto_decode_request and
 * proto_decode_response turn a message into a plain struct, validating every
 * field; proto_encode_request and proto_encode_response write one.
 *
 * Lifetimes: the byte fields of a decoded struct (struct proto_bytes: dump,
 * memory data, token, outputs, error strings) point into the msgpack object
 * they were decoded from, which points into the unpacker's buffer; they are
 * valid while the msgpack_unpacked (its zone) that holds the object lives.
 * Arrays of small values (blocks, ranges, registers) are copied into the
 * struct, so a decoded struct may be copied by value. */
#ifndef GETILE_PROTO_H
#define GETILE_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

#include "binner.h"
#include "ge_limits.h"
#include "gt_error.h"

/* The protocol version ("v") this code speaks. */
#define PROTO_VERSION 1

/* Protocol error codes (the "code" of an error response besides the gt_err
 * names of render failures): enum, wire string, description. */
#define PROTO_CODE_MAP(X)                                                        \
    X(BAD_REQUEST, "bad_request", "malformed message, a key of the wrong type or a missing key") \
    X(BAD_VERSION, "bad_version", "unsupported protocol version")                 \
    X(UNKNOWN_OP, "unknown_op", "unknown request op")                             \
    X(TOO_LARGE, "too_large", "message over the server's size cap")               \
    X(UNAUTHORIZED, "unauthorized", "missing or wrong token")                     \
    X(BUSY, "busy", "the server's job queue is full")                             \
    X(SHUTTING_DOWN, "shutting_down", "the server is shutting down")              \
    X(INTERNAL, "internal", "internal server error")

enum proto_code {
    PROTO_CODE_NONE = 0, /* no protocol error */
#define X(name, str, desc) PROTO_E_##name,
    PROTO_CODE_MAP(X)
#undef X
    PROTO_CODE_COUNT
};

/* Request ops: enum, wire string. */
#define PROTO_OP_MAP(X)                                                          \
    X(RENDER_DUMP, "render_dump")                                                \
    X(RENDER_LIST, "render_list")                                                \
    X(PING, "ping")                                                              \
    X(STATS, "stats")

enum proto_op {
    PROTO_OP_NONE = 0,
#define X(name, str) PROTO_OP_##name,
    PROTO_OP_MAP(X)
#undef X
    PROTO_OP_COUNT
};

/* Output kinds of a render ("outputs"): enum bit, wire string. */
#define PROTO_OUTPUT_MAP(X)                                                      \
    X(PNG, 0, "png")                                                             \
    X(RGBA, 1, "rgba")                                                           \
    X(DEPTH, 2, "depth")                                                         \
    X(VRAM, 3, "vram")

enum proto_output {
#define X(name, bit, str) PROTO_OUT_##name = 1u << (bit),
    PROTO_OUTPUT_MAP(X)
#undef X
};
#define PROTO_OUT_ALL (PROTO_OUT_PNG | PROTO_OUT_RGBA | PROTO_OUT_DEPTH | PROTO_OUT_VRAM)

/* Sizes of the raw outputs. */
#define PROTO_RGBA_BYTES ((uint32_t)GT_IMAGE_STRIDE * GT_DISPLAY_HEIGHT * 4)   /* 512x272 RGBA */
#define PROTO_DEPTH_BYTES ((uint32_t)GT_DISPLAY_WIDTH * GT_DISPLAY_HEIGHT * 2) /* 480x272 u16 LE */

/* Longest code string, NUL included. */
#define PROTO_CODE_LEN 32

/* Bytes (a msgpack bin or str); not NUL-terminated. */
struct proto_bytes {
    const uint8_t *ptr;
    uint32_t len;
};

/* Bytes at a PSP address: a memory block of a request, a VRAM range of a response. */
struct proto_block {
    uint32_t addr;
    struct proto_bytes data;
};

/* A VRAM range to return: addr in GT_VRAM_BASE..+GT_VRAM_SIZE, len >= 1, inside VRAM. */
struct proto_range {
    uint32_t addr, len;
};

/* The framebuffer to read out ("display"). */
struct proto_display {
    uint32_t addr;    /* PSP address */
    uint32_t stride;  /* pixels, 0..GT_PROTO_MAX_STRIDE */
    uint32_t format;  /* 0 565, 1 5551, 2 4444, 3 8888 */
};

/* A request. proto_request_init sets the defaults the decoder sets for
 * absent keys; fields of other ops are zero. Large (about 34 KiB). */
struct proto_request {
    uint64_t id;
    enum proto_op op;
    bool has_token;
    struct proto_bytes token;          /* str or bin on the wire; encoded as str */

    /* render_dump */
    struct proto_bytes dump;           /* .ppdmp or .zip bytes */

    /* render_list */
    uint32_t pc;                       /* list start address */
    uint32_t stall;                    /* stall address, 0: none */
    uint32_t nblocks;
    struct proto_block blocks[GT_PROTO_MAX_BLOCKS]; /* written to memory in order */
    uint32_t nregs;
    uint32_t regs[GT_PROTO_MAX_REGS];  /* cmd << 24 | data, run before the list */
    bool has_display;                  /* false: the framebuffer registers after the run */
    struct proto_display display;

    /* options of both render ops */
    unsigned outputs;                  /* PROTO_OUT_* bits (default PROTO_OUT_PNG) */
    uint32_t nranges;
    struct proto_range ranges[GT_PROTO_MAX_VRAM_RANGES]; /* default: all of VRAM */
    uint64_t replay_end;               /* stop after this many draws, 0: never */
    uint32_t threads;                  /* 0: the server's default, else 1..GT_MAX_THREADS */
    uint32_t tile_size;                /* 0: default, else a power of two in GT_TILE_SIZE_MIN..MAX */

    /* Set by proto_decode_request when it fails (the response to send). */
    enum proto_code code;              /* PROTO_CODE_NONE on success */
    bool has_id;                       /* id was read (echo it in the error) */
};

/* Render statistics of a response ("stats"). */
struct proto_stats {
    uint64_t draws, prims, pixels;
    double ms;
    uint64_t flushes[BIN_FLUSH_COUNT]; /* by enum bin_flush_reason; unknown names are ignored */
};

/* Server counters of a stats response ("server"). */
struct proto_server_stats {
    uint64_t accepted, completed, failed, in_flight, connections;
};

/* A response. ok: any of pong, server, outputs + stats (has_* say which are
 * present); !ok: error_code and error_message. */
struct proto_response {
    uint64_t id;
    bool ok;
    bool pong;                         /* ping */
    bool has_server;                   /* stats */
    struct proto_server_stats server;
    bool has_outputs;                  /* render */
    unsigned outputs;                  /* PROTO_OUT_* bits present in the outputs map */
    struct proto_bytes png, rgba, depth; /* rgba PROTO_RGBA_BYTES, depth PROTO_DEPTH_BYTES */
    uint32_t nvram;
    struct proto_block vram[GT_PROTO_MAX_VRAM_RANGES];
    bool has_stats;                    /* render */
    struct proto_stats stats;
    struct proto_bytes error_code;     /* a proto_code string or a lower-case gt_err name */
    struct proto_bytes error_message;
};

/* --- Names (proto.c) --- */

/* "bad_request", ...; NULL for PROTO_CODE_NONE or out of range. */
const char *proto_code_name(enum proto_code c);
/* The description of a code. */
const char *proto_code_desc(enum proto_code c);
/* The wire code of a render failure: the gt_err name in lower case
 * ("too_big"), written into buf. Returns buf. */
const char *proto_err_code(int gt_err, char buf[PROTO_CODE_LEN]);
/* "render_dump", ...; NULL for PROTO_OP_NONE or out of range. */
const char *proto_op_name(enum proto_op op);
/* "png", ... for one PROTO_OUT_* bit; NULL otherwise. */
const char *proto_output_name(unsigned bit);
/* True when bytes equal the NUL-terminated s. */
bool proto_bytes_is(struct proto_bytes b, const char *s);

/* A request of op with the defaults of absent keys: outputs png, the vram
 * range all of VRAM, the rest zero. */
void proto_request_init(struct proto_request *rq, enum proto_op op, uint64_t id);
/* True when two requests carry the same values (byte fields compared by
 * content; code and has_id ignored). For tests and fuzzing. */
bool proto_request_same(const struct proto_request *a, const struct proto_request *b);
/* The same for responses. */
bool proto_response_same(const struct proto_response *a, const struct proto_response *b);

/* --- Decoding (decode.c) --- */

/* Decodes a request. Every field is validated before anything is filled:
 * on failure *rq is zero except id/has_id (when "id" was readable) and
 * code, the protocol code to answer with (bad_request, bad_version,
 * unknown_op); the return is a negative gt_err (GT_ECORRUPT malformed,
 * GT_EVERSION bad version, GT_EUNSUPPORTED unknown op, GT_ETOO_BIG over a
 * count limit) and d->msg names the key and the problem. */
int proto_decode_request(const msgpack_object *o, struct proto_request *rq, struct gt_diag *d);
/* Decodes a response (a client's side). 0, or GT_ECORRUPT / GT_EVERSION
 * / GT_ETOO_BIG with d->msg naming the key. On failure *rs is zero. */
int proto_decode_response(const msgpack_object *o, struct proto_response *rs, struct gt_diag *d);

/* --- Encoding (encode.c) --- */

/* Encodes a request as one msgpack map. The struct is checked first
 * (GT_EARG: op, counts, sizes, values outside their ranges; nothing is
 * written). GT_ENOMEM when the packer's writer fails: the buffer then holds
 * a partial message and must be discarded. */
int proto_encode_request(msgpack_packer *pk, const struct proto_request *rq);
/* Encodes a response; the same rules. */
int proto_encode_response(msgpack_packer *pk, const struct proto_response *rs);
/* An error response with a code string and a message (NUL-terminated;
 * message NULL: empty). */
int proto_encode_error(msgpack_packer *pk, uint64_t id, const char *code, const char *message);
/* An error response with a protocol code (message NULL: its description). */
int proto_encode_proto_error(msgpack_packer *pk, uint64_t id, enum proto_code c, const char *message);
/* The error response of a failed render: the code of d->code in lower
 * case and gt_diag_msg(d). */
int proto_encode_render_error(msgpack_packer *pk, uint64_t id, const struct gt_diag *d);

/* --- The stream reader (reader.c) --- */

/* Cuts a byte stream into messages. Each message is scanned as its bytes
 * arrive, before msgpack-c sees it: a message over max_message bytes, over
 * GT_PROTO_MAX_OBJECTS values or GT_PROTO_MAX_DEPTH levels, or holding a
 * byte that is not msgpack, is refused as soon as its bytes show it (so a
 * header announcing a huge array or bin allocates nothing), and msgpack-c
 * unpacks only complete messages. After an error the stream cannot be
 * resynchronised: answer with code and close the connection. */
struct proto_reader {
    msgpack_unpacker up;
    size_t max_message;    /* the cap on one message, bytes */
    /* scan state of the message after up.off */
    size_t scanned;        /* bytes of it scanned */
    uint64_t skip;         /* payload bytes of the current str/bin/ext still to pass */
    uint32_t values;       /* values seen */
    unsigned depth;        /* open containers */
    uint64_t left[GT_PROTO_MAX_DEPTH + 1]; /* values still expected per level; [0] the message */
    bool complete;         /* the message after up.off is whole */
    struct gt_diag fail;   /* the stream error (code 0: none), returned by every later proto_next */
    enum proto_code code;  /* the code to answer a stream error with */
};

/* max_message 0: GT_PROTO_MAX_MESSAGE. Returns 0 or GT_ENOMEM. */
int proto_reader_init(struct proto_reader *r, size_t max_message);
void proto_reader_free(struct proto_reader *r);
/* Space for at least want bytes of input (libuv's alloc_cb): *buf and *cap.
 * Returns 0 or GT_ENOMEM. */
int proto_reader_buffer(struct proto_reader *r, size_t want, char **buf, size_t *cap);
/* n bytes were written into the space proto_reader_buffer gave. */
void proto_reader_consumed(struct proto_reader *r, size_t n);
/* Copies len bytes of input into the reader. Returns 0 or GT_ENOMEM. */
int proto_feed(struct proto_reader *r, const void *data, size_t len);
/* The next message: 1 with it in *out (a msgpack_unpacker_next result: the
 * previous contents of *out are destroyed, so keep one msgpack_unpacked per
 * message still in use), 0 when more bytes are needed, or a negative gt_err
 * (GT_ETOO_BIG: code too_large; GT_ECORRUPT: code bad_request; GT_ENOMEM:
 * code internal) with d->msg, also returned by every later call. */
int proto_next(struct proto_reader *r, msgpack_unpacked *out, struct gt_diag *d);

#endif
