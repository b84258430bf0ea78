/*
 * protocol_internal.h: what the protocol (protocol.c) shares with the
 * fast path that runs under the shared library lock (protocol_shared.c):
 * the eager decision, and copying a message's bytes into a receive.
 */
#ifndef TIDE_PROTOCOL_INTERNAL_H
#define TIDE_PROTOCOL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "comm/comm.h"
#include "pt2pt/match.h"
#include "datatype/datatype.h"
#include "runtime/proc.h"
#include "runtime/small_copy.h"
#include "transport/transport.h"

/* The largest eager message / DATA chunk for p over tx. */
static inline size_t tide_eager_limit_for(const struct tide_proc *p, const struct tide_transport *tx, uint32_t ctx)
{
    size_t limit = tide_ctx_is_coll(ctx) ? tx->eager_limit_coll : tx->eager_limit;
    return p->msg_max && p->msg_max < limit ? p->msg_max : limit;
}

/* Does a message of len bytes to p go eagerly? */
static inline bool tide_goes_eager(const struct tide_proc *p, const struct tide_transport *tx, uint32_t ctx, size_t len)
{
    if (len > tide_eager_limit_for(p, tx, ctx))
        return false;
    return len <= tx->eager_limit_low || !tx->eager_room || tx->eager_room(p, len);
}

/* n bytes of an eager payload into a convertor at its start (the common
 * contiguous case without the convertor's call) */
static inline void tide_unpack_eager(struct tide_convertor *cv, const void *data, size_t n)
{
    if (!n)
        return;
    if (cv->dt->contig && cv->pos == 0)
        tide_small_copy((void *)((uintptr_t)cv->buf + (uintptr_t)cv->dt->true_lb), data, n);
    else
        tide_conv_unpack(cv, data, n);
}

/* Fill new unexpected message u from the envelope h of a message from
 * `from` and its payload. */
static inline void tide_unexpected_fill(struct tide_unexpected *u, struct tide_proc *from, const struct tide_hdr *h,
                                        const void *payload, size_t plen)
{
    u->ctx = h->ctx;
    u->src = h->src;
    u->tag = h->tag;
    u->from = from;
    u->type = h->type;
    u->flags = h->flags;
    u->niov = h->niov;
    u->len = h->len;
    u->sreq = h->sreq;
    if (plen)
        memcpy(u->data, payload, plen);
}

/* Copy n bytes from one convertor's position to another's (a send to
 * oneself); returns how many were copied. */
size_t tide_copy_conv(struct tide_convertor *dst, struct tide_convertor *src, size_t n);

#endif
