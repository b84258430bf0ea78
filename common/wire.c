/*
 * wire.c: bounds-checked encoder/decoder for control-plane frames.
 */
#include "wire.h"

#include <stdlib.h>
#include <string.h>

static void wb_reserve(struct tide_wbuf *w, size_t extra)
{
    if (w->failed)
        return;
    if (w->len + extra <= w->cap)
        return;
    size_t cap = w->cap ? w->cap : 256;
    while (cap < w->len + extra)
        cap *= 2;
    uint8_t *d = realloc(w->data, cap);
    if (!d) {
        w->failed = 1;
        return;
    }
    w->data = d;
    w->cap = cap;
}

static void wb_put(struct tide_wbuf *w, const void *p, size_t n)
{
    wb_reserve(w, n);
    if (w->failed)
        return;
    if (n)
        memcpy(w->data + w->len, p, n);
    w->len += n;
}

static void le_store(uint8_t *b, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t le_load(const uint8_t *b, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

void tide_wire_begin(struct tide_wbuf *w, uint16_t type)
{
    w->data = NULL;
    w->len = w->cap = 0;
    w->failed = 0;
    uint8_t hdr[TIDE_WIRE_HEADER];
    le_store(hdr, TIDE_WIRE_MAGIC, 4);
    le_store(hdr + 4, TIDE_WIRE_VERSION, 2);
    le_store(hdr + 6, type, 2);
    le_store(hdr + 8, 0, 4);
    wb_put(w, hdr, sizeof hdr);
}

void tide_wire_put_u8(struct tide_wbuf *w, uint8_t v) { wb_put(w, &v, 1); }

void tide_wire_put_u16(struct tide_wbuf *w, uint16_t v)
{
    uint8_t b[2];
    le_store(b, v, 2);
    wb_put(w, b, 2);
}

void tide_wire_put_u32(struct tide_wbuf *w, uint32_t v)
{
    uint8_t b[4];
    le_store(b, v, 4);
    wb_put(w, b, 4);
}

void tide_wire_put_u64(struct tide_wbuf *w, uint64_t v)
{
    uint8_t b[8];
    le_store(b, v, 8);
    wb_put(w, b, 8);
}

void tide_wire_put_i32(struct tide_wbuf *w, int32_t v) { tide_wire_put_u32(w, (uint32_t)v); }

void tide_wire_put_bytes(struct tide_wbuf *w, const void *p, size_t n)
{
    if (n > TIDE_WIRE_MAX_PAYLOAD) {
        w->failed = 1;
        return;
    }
    tide_wire_put_u32(w, (uint32_t)n);
    wb_put(w, p, n);
}

void tide_wire_put_str(struct tide_wbuf *w, const char *s)
{
    if (!s) {
        tide_wire_put_u32(w, 0xffffffffu);
        return;
    }
    tide_wire_put_bytes(w, s, strlen(s));
}

void tide_wire_put_strv(struct tide_wbuf *w, char *const *v)
{
    uint32_t n = 0;
    while (v && v[n])
        n++;
    tide_wire_put_u32(w, n);
    for (uint32_t i = 0; i < n; i++)
        tide_wire_put_str(w, v[i]);
}

void tide_wire_put_raw(struct tide_wbuf *w, const void *p, size_t n)
{
    wb_put(w, p, n);
}

uint16_t tide_wire_type(const struct tide_wbuf *w)
{
    return w->len >= TIDE_WIRE_HEADER ? (uint16_t)le_load(w->data + 6, 2) : 0;
}

int tide_wire_finish(struct tide_wbuf *w)
{
    if (w->failed || w->len - TIDE_WIRE_HEADER > TIDE_WIRE_MAX_PAYLOAD)
        return -1;
    le_store(w->data + 8, w->len - TIDE_WIRE_HEADER, 4);
    return 0;
}

void tide_wire_free(struct tide_wbuf *w)
{
    free(w->data);
    w->data = NULL;
    w->len = w->cap = 0;
}

int tide_wire_header(const uint8_t *hdr, uint16_t *type, uint32_t *payload_len)
{
    if (le_load(hdr, 4) != TIDE_WIRE_MAGIC)
        return -1;
    if (le_load(hdr + 4, 2) != TIDE_WIRE_VERSION)
        return -1;
    uint32_t len = (uint32_t)le_load(hdr + 8, 4);
    if (len > TIDE_WIRE_MAX_PAYLOAD)
        return -1;
    *type = (uint16_t)le_load(hdr + 6, 2);
    *payload_len = len;
    return 0;
}

void tide_wire_reader(struct tide_rbuf *r, const void *payload, size_t len)
{
    r->data = payload;
    r->len = len;
    r->pos = 0;
    r->bad = 0;
}

static const uint8_t *rb_take(struct tide_rbuf *r, size_t n)
{
    if (r->bad || n > r->len - r->pos) {
        r->bad = 1;
        return NULL;
    }
    const uint8_t *p = r->data + r->pos;
    r->pos += n;
    return p;
}

uint8_t tide_wire_get_u8(struct tide_rbuf *r)
{
    const uint8_t *p = rb_take(r, 1);
    return p ? p[0] : 0;
}

uint16_t tide_wire_get_u16(struct tide_rbuf *r)
{
    const uint8_t *p = rb_take(r, 2);
    return p ? (uint16_t)le_load(p, 2) : 0;
}

uint32_t tide_wire_get_u32(struct tide_rbuf *r)
{
    const uint8_t *p = rb_take(r, 4);
    return p ? (uint32_t)le_load(p, 4) : 0;
}

uint64_t tide_wire_get_u64(struct tide_rbuf *r)
{
    const uint8_t *p = rb_take(r, 8);
    return p ? le_load(p, 8) : 0;
}

int32_t tide_wire_get_i32(struct tide_rbuf *r) { return (int32_t)tide_wire_get_u32(r); }

const void *tide_wire_get_bytes(struct tide_rbuf *r, size_t *n)
{
    uint32_t len = tide_wire_get_u32(r);
    const uint8_t *p = rb_take(r, len);
    *n = p ? len : 0;
    return p;
}

char *tide_wire_get_str(struct tide_rbuf *r)
{
    uint32_t len = tide_wire_get_u32(r);
    if (r->bad || len == 0xffffffffu)
        return NULL;
    if (len > TIDE_WIRE_MAX_STRING) {
        r->bad = 1;
        return NULL;
    }
    const uint8_t *p = rb_take(r, len);
    if (!p)
        return NULL;
    if (memchr(p, '\0', len)) { /* embedded NUL: malformed */
        r->bad = 1;
        return NULL;
    }
    char *s = malloc((size_t)len + 1);
    if (!s) {
        r->bad = 1;
        return NULL;
    }
    memcpy(s, p, len);
    s[len] = '\0';
    return s;
}

char **tide_wire_get_strv(struct tide_rbuf *r)
{
    uint32_t n = tide_wire_get_u32(r);
    /* each element takes at least 4 bytes: reject counts the payload can't hold */
    if (r->bad || n > TIDE_WIRE_MAX_ARRAY || (size_t)n * 4 > r->len - r->pos) {
        r->bad = 1;
        return NULL;
    }
    char **v = calloc((size_t)n + 1, sizeof(char *));
    if (!v) {
        r->bad = 1;
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) {
        v[i] = tide_wire_get_str(r);
        if (!v[i]) {
            r->bad = 1;
            for (uint32_t j = 0; j < i; j++)
                free(v[j]);
            free(v);
            return NULL;
        }
    }
    return v;
}

int tide_wire_ok(const struct tide_rbuf *r) { return !r->bad; }

int tide_wire_done(const struct tide_rbuf *r) { return !r->bad && r->pos == r->len; }
