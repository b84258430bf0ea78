/*
 * routes.c: how mpiexec reaches each daemon. Daemons on this host and the
 * daemons of other hosts hanging from mpiexec in the tree have links; the
 * others are reached along the tree of daemons (common/ctltree.h) in ROUTE
 * envelopes, and what they send arrives the same way, unwrapped here by
 * hub.c. A broadcast goes once down each link and fans out in the tree.
 */
#include "mpiexec.h"
#include "channel.h"
#include "ctlmsg.h"
#include "ctlroute.h"
#include "log.h"

bool daemon_up(const struct mdaemon *d)
{
    return d && !d->gone && (d->ch || d->linked);
}

/* The linked daemon through which node's messages go. */
static struct mdaemon *first_hop(const struct mdaemon *d)
{
    if (d->ch)
        return (struct mdaemon *)d;
    int hop = tide_ctltree_next_hop(&mx.tree, -1, d->node);
    struct mdaemon *h = daemon_of_node(hop);
    return h && h->ch && !h->gone ? h : NULL;
}

int daemon_send(struct mdaemon *d, struct tide_wbuf *w)
{
    struct mdaemon *hop = daemon_up(d) ? first_hop(d) : NULL;
    if (!hop) {
        tide_wire_free(w);
        return -1;
    }
    if (hop == d)
        return tide_channel_send(d->ch, w);
    struct tide_wbuf route;
    tide_route_wrap(&route, (uint32_t)d->node, TIDE_ROUTE_HUB, w);
    return tide_channel_send(hop->ch, &route);
}

int daemons_broadcast(struct tide_wbuf *w)
{
    int rc = 0;
    for (int n = 0; n < mx.nnodes; n++) {
        struct mdaemon *d = &mx.daemons[n];
        if (!d->ch || d->gone)
            continue;
        struct tide_wbuf copy;
        tide_wire_begin(&copy, tide_wire_type(w));
        tide_wire_put_raw(&copy, w->data + TIDE_WIRE_HEADER, w->len - TIDE_WIRE_HEADER);
        int kids[1];
        if (tide_ctltree_children(&mx.tree, n, kids, 1) > 0) {
            /* it passes the message on to its subtree */
            struct tide_wbuf route;
            tide_route_wrap(&route, TIDE_ROUTE_ALL, TIDE_ROUTE_HUB, &copy);
            if (tide_channel_send(d->ch, &route) != 0)
                rc = -1;
        } else if (tide_channel_send(d->ch, &copy) != 0) {
            rc = -1;
        }
    }
    tide_wire_free(w);
    return rc;
}
