/*
 * ctlroute.h: the ROUTE envelope of control messages that travel along
 * the tree of daemons (ctlmsg.h, ctltree.h): wrapping a message for its
 * destination, unwrapping it, and re-emitting the inner message as it was.
 */
#ifndef TIDE_CTLROUTE_H
#define TIDE_CTLROUTE_H

#include <stdint.h>
#include "wire.h"

struct tide_route {
    uint32_t dst, src;
    uint16_t type;            /* the inner message */
    const void *payload;      /* points into the received frame */
    size_t len;
};

/* Wrap the message being written in inner (begun, not finished) into out;
 * inner is freed. */
void tide_route_wrap(struct tide_wbuf *out, uint32_t dst, uint32_t src, struct tide_wbuf *inner);
/* Wrap an already received inner message (type, payload). */
void tide_route_wrap_raw(struct tide_wbuf *out, uint32_t dst, uint32_t src, uint16_t type, const void *payload,
                         size_t len);
/* Decode a ROUTE payload. 0, or -1 if malformed or nesting another ROUTE. */
int tide_route_decode(struct tide_rbuf *r, struct tide_route *out);
/* The inner message as a frame of its own (begun, to send). */
void tide_route_inner(const struct tide_route *rt, struct tide_wbuf *out);

#endif
