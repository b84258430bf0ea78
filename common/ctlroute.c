/*
 * ctlroute.c: encoding and decoding of the ROUTE envelope (ctlroute.h).
 */
#include "ctlroute.h"
#include "ctlmsg.h"

void tide_route_wrap_raw(struct tide_wbuf *out, uint32_t dst, uint32_t src, uint16_t type, const void *payload,
                         size_t len)
{
    tide_wire_begin(out, TIDE_CTL_ROUTE);
    tide_wire_put_u32(out, dst);
    tide_wire_put_u32(out, src);
    tide_wire_put_u16(out, type);
    tide_wire_put_bytes(out, payload, len);
}

void tide_route_wrap(struct tide_wbuf *out, uint32_t dst, uint32_t src, struct tide_wbuf *inner)
{
    const uint8_t *data = inner->data;
    size_t len = inner->len > TIDE_WIRE_HEADER ? inner->len - TIDE_WIRE_HEADER : 0;
    tide_route_wrap_raw(out, dst, src, tide_wire_type(inner), data ? data + TIDE_WIRE_HEADER : NULL, len);
    if (inner->failed)
        out->failed = 1;
    tide_wire_free(inner);
}

int tide_route_decode(struct tide_rbuf *r, struct tide_route *out)
{
    out->dst = tide_wire_get_u32(r);
    out->src = tide_wire_get_u32(r);
    out->type = tide_wire_get_u16(r);
    out->payload = tide_wire_get_bytes(r, &out->len);
    if (!tide_wire_ok(r) || !tide_wire_done(r) || out->type == TIDE_CTL_ROUTE || out->type == 0 ||
        out->type >= TIDE_CTL_TYPE_MAX)
        return -1;
    return 0;
}

void tide_route_inner(const struct tide_route *rt, struct tide_wbuf *out)
{
    tide_wire_begin(out, rt->type);
    tide_wire_put_raw(out, rt->payload, rt->len);
}
