/*
 * wire.h: the control-message codec shared by mpiexec, tided and the
 * nameserver.
 *
 * A frame is a 12-byte header (magic "TIDE", version, type, payload length)
 * followed by the payload: a sequence of fields written and read in order
 * (u8/u16/u32/u64, strings, byte strings, string arrays), little-endian.
 * Readers never trust the payload: every get is bounds-checked, and after
 * the first failure the reader is marked bad and returns zeros, so a handler
 * checks tide_wire_ok() once at the end.
 */
#ifndef TIDE_WIRE_H
#define TIDE_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define TIDE_WIRE_MAGIC 0x45444954u /* "TIDE" little-endian */
#define TIDE_WIRE_VERSION 1
#define TIDE_WIRE_HEADER 12
#define TIDE_WIRE_MAX_PAYLOAD (64u * 1024 * 1024)
#define TIDE_WIRE_MAX_STRING (16u * 1024 * 1024)
#define TIDE_WIRE_MAX_ARRAY 1000000u

struct tide_wbuf {
    uint8_t *data;
    size_t len, cap;
    int failed; /* allocation failure */
};

struct tide_rbuf {
    const uint8_t *data;
    size_t len, pos;
    int bad;
};

/* Writer. tide_wire_begin reserves the header; tide_wire_finish fills it. */
void tide_wire_begin(struct tide_wbuf *w, uint16_t type);
void tide_wire_put_u8(struct tide_wbuf *w, uint8_t v);
void tide_wire_put_u16(struct tide_wbuf *w, uint16_t v);
void tide_wire_put_u32(struct tide_wbuf *w, uint32_t v);
void tide_wire_put_u64(struct tide_wbuf *w, uint64_t v);
void tide_wire_put_i32(struct tide_wbuf *w, int32_t v);
void tide_wire_put_bytes(struct tide_wbuf *w, const void *p, size_t n);
void tide_wire_put_str(struct tide_wbuf *w, const char *s); /* NULL is written as absent */
void tide_wire_put_strv(struct tide_wbuf *w, char *const *v);
int tide_wire_finish(struct tide_wbuf *w); /* 0, or -1 if allocation failed or too big */
/* Append bytes as they are (no length prefix). */
void tide_wire_put_raw(struct tide_wbuf *w, const void *p, size_t n);
/* The type a frame being written was begun with. */
uint16_t tide_wire_type(const struct tide_wbuf *w);
void tide_wire_free(struct tide_wbuf *w);

/* Frame header parsing: given at least TIDE_WIRE_HEADER bytes, check the
 * magic, version and length. Returns 0 and sets type/payload length, -1 if
 * the header is invalid (the connection must then be closed). */
int tide_wire_header(const uint8_t *hdr, uint16_t *type, uint32_t *payload_len);

/* Reader over one payload (without header). */
void tide_wire_reader(struct tide_rbuf *r, const void *payload, size_t len);
uint8_t tide_wire_get_u8(struct tide_rbuf *r);
uint16_t tide_wire_get_u16(struct tide_rbuf *r);
uint32_t tide_wire_get_u32(struct tide_rbuf *r);
uint64_t tide_wire_get_u64(struct tide_rbuf *r);
int32_t tide_wire_get_i32(struct tide_rbuf *r);
/* Returns a pointer into the payload; *n gets the length. */
const void *tide_wire_get_bytes(struct tide_rbuf *r, size_t *n);
/* Returns a heap copy (caller frees) or NULL for an absent string or error. */
char *tide_wire_get_str(struct tide_rbuf *r);
/* Returns a heap string array (tide_argv_free) or NULL on error. */
char **tide_wire_get_strv(struct tide_rbuf *r);
int tide_wire_ok(const struct tide_rbuf *r);
/* True when the whole payload was consumed and nothing failed. */
int tide_wire_done(const struct tide_rbuf *r);

#endif
