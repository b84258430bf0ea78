/*
 * relay.c: this daemon's place in the tree of node daemons
 * (common/ctltree.h). A daemon with children listens for them (each link
 * authenticated with the job's control secret before anything is read,
 * ctllisten.h), tells mpiexec where (TREE_READY), passes what mpiexec
 * sends down to the daemon it is for or to its whole subtree, and passes
 * up what its subtree sends. A message of its own goes up through
 * hub_send: in a ROUTE envelope when its parent is another daemon.
 * A child whose link closes is reported to mpiexec (NODE_LOST), which
 * counts that child's whole subtree as lost.
 */
#include "tided.h"
#include "channel.h"
#include "ctllisten.h"
#include "ctlframe.h"
#include "ctlmsg.h"
#include "ctlroute.h"
#include "ctltree.h"
#include "log.h"
#include "params.h"

#include <stdio.h>
#include <event2/event.h>
#include <stdlib.h>
#include <string.h>

struct relay_kid {
    int node;
    struct tide_channel *ch;
    bool lost;
};

static struct {
    bool in_tree;
    struct tide_ctltree tree;
    int parent; /* node, or -1: mpiexec */
    struct relay_kid *kids;
    int nkids;
    struct tide_ctllisten *listener;
    struct event *grace; /* at shutdown: how long children may take to go */
    uint8_t secret[TIDE_CTL_SECRET_LEN];
} relay = {.parent = -1};

int relay_init(const char *tree_text, const uint8_t secret[TIDE_CTL_SECRET_LEN], char *err, size_t errlen)
{
    if (!tree_text)
        return 0;
    if (tide_ctltree_parse(&relay.tree, tree_text) != 0 || !tide_ctltree_member(&relay.tree, tided.node)) {
        snprintf(err, errlen, "bad tree of daemons in the boot data (node %d)", tided.node);
        return -1;
    }
    relay.in_tree = true;
    relay.parent = tide_ctltree_parent(&relay.tree, tided.node);
    int max = relay.tree.n;
    int *nodes = malloc((size_t)(max > 0 ? max : 1) * sizeof *nodes);
    if (!nodes) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    relay.nkids = tide_ctltree_children(&relay.tree, tided.node, nodes, max);
    relay.kids = calloc((size_t)(relay.nkids ? relay.nkids : 1), sizeof *relay.kids);
    if (!relay.kids) {
        free(nodes);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < relay.nkids; i++)
        relay.kids[i].node = nodes[i];
    free(nodes);
    memcpy(relay.secret, secret, TIDE_CTL_SECRET_LEN);
    TIDE_DEBUG(1, "in the tree of daemons: parent %d, %d children", relay.parent, relay.nkids);
    return 0;
}

static void relay_wait_kids(void);

static struct relay_kid *kid_of_node(int node)
{
    for (int i = 0; i < relay.nkids; i++)
        if (relay.kids[i].node == node)
            return &relay.kids[i];
    return NULL;
}

int hub_send(struct tide_wbuf *w)
{
    if (!tided.hub) {
        tide_wire_free(w);
        return -1;
    }
    if (relay.parent < 0)
        return tide_channel_send(tided.hub, w);
    struct tide_wbuf route;
    tide_route_wrap(&route, TIDE_ROUTE_HUB, (uint32_t)tided.node, w);
    return tide_channel_send(tided.hub, &route);
}

int relay_nkids(void)
{
    return relay.nkids;
}

int relay_kid_node(int kid)
{
    return kid >= 0 && kid < relay.nkids ? relay.kids[kid].node : -1;
}

bool relay_kid_linked(int kid)
{
    return kid >= 0 && kid < relay.nkids && relay.kids[kid].ch;
}

void relay_kid_gone(int kid)
{
    if (kid >= 0 && kid < relay.nkids)
        relay.kids[kid].lost = true;
}

bool relay_kid_lost(int kid)
{
    return kid >= 0 && kid < relay.nkids && relay.kids[kid].lost;
}

int relay_kid_toward(int node)
{
    if (!relay.in_tree || node == tided.node)
        return -1;
    int hop = tide_ctltree_next_hop(&relay.tree, tided.node, node);
    for (int i = 0; hop >= 0 && i < relay.nkids; i++)
        if (relay.kids[i].node == hop)
            return i;
    return -1;
}

int relay_send_kid(int kid, struct tide_wbuf *w)
{
    if (kid < 0 || kid >= relay.nkids || !relay.kids[kid].ch) {
        tide_wire_free(w);
        return -1;
    }
    return tide_channel_send(relay.kids[kid].ch, w);
}

/* ---- up: from a child's subtree to mpiexec ---- */

static void kid_msg(struct tide_channel *ch, uint16_t type, struct tide_rbuf *r, void *arg)
{
    struct relay_kid *k = arg;
    struct tide_route rt;
    if (type != TIDE_CTL_ROUTE || tide_route_decode(r, &rt) != 0 || rt.dst != TIDE_ROUTE_HUB ||
        !tide_ctltree_in_subtree(&relay.tree, k->node, (int)rt.src)) {
        tide_error("dropping the link of node %d: it sent a message %u not from its subtree", k->node, type);
        tide_channel_close_after_flush(ch);
        return;
    }
    if (rt.type == TIDE_CTL_FENCE && rt.src == (uint32_t)k->node) {
        /* the child's gathered part: gathered here in turn */
        struct tide_rbuf inner;
        struct tide_ctl_msg m;
        tide_wire_reader(&inner, rt.payload, rt.len);
        if (tide_ctl_decode(TIDE_CTL_FENCE, &inner, &m) != 0) {
            tide_error("ignoring a malformed fence from node %d", k->node);
            return;
        }
        fence_from_kid((int)(k - relay.kids), &m);
        tide_ctl_msg_clear(&m);
        return;
    }
    if (!tided.hub)
        return;
    struct tide_wbuf out;
    tide_route_wrap_raw(&out, TIDE_ROUTE_HUB, rt.src, rt.type, rt.payload, rt.len);
    tide_channel_send(tided.hub, &out);
}

static void kid_closed(struct tide_channel *ch, const char *why, void *arg)
{
    struct relay_kid *k = arg;
    tide_channel_free(ch);
    k->ch = NULL;
    if (k->lost)
        return;
    k->lost = true;
    if (tided.shutting_down) {
        tided_maybe_exit();
        return;
    }
    TIDE_DEBUG(1, "lost the link to node %d below us: %s", k->node, why);
    fence_kid_lost((int)(k - relay.kids));
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_NODE_LOST);
    tide_wire_put_u32(&w, (uint32_t)k->node);
    tide_wire_put_str(&w, why);
    hub_send(&w);
}

static int on_kid_link(int fd, uint32_t node, struct tide_ctlcrypt *crypt, void *arg)
{
    (void)arg;
    struct relay_kid *k = kid_of_node((int)node);
    if (!k || k->ch || k->lost || tided.shutting_down) {
        tide_error("refusing a control link claiming node %u (not a child of ours)", node);
        return -1;
    }
    char peer[64];
    snprintf(peer, sizeof peer, "tided of node %u", node);
    k->ch = tide_channel_new_sealed(tided.base, fd, crypt, kid_msg, kid_closed, k, peer);
    if (!k->ch)
        return -1;
    TIDE_DEBUG(1, "node %u linked below us", node);
    return 0;
}

void relay_start(void)
{
    if (!relay.in_tree || relay.nkids == 0)
        return;
    char err[512];
    const char *inc = tide_config_get("if_include");
    relay.listener = tide_ctllisten_new(tided.base, relay.secret, inc ? inc : "", (int)tide_config_int("auth_timeout"),
                                        (int)tide_config_int("auth_max_pending"), on_kid_link, NULL, err, sizeof err);
    if (!relay.listener) {
        /* our children never come: mpiexec's link timer names us */
        hub_send_notice(NULL, -1, err);
        return;
    }
    struct tide_wbuf w;
    tide_wire_begin(&w, TIDE_CTL_TREE_READY);
    tide_wire_put_str(&w, tide_ctllisten_addresses(relay.listener));
    hub_send(&w);
    tree_launch_kids(tide_ctllisten_addresses(relay.listener), relay.secret, &relay.tree);
}

/* ---- down: from mpiexec to one daemon or every daemon ---- */

static void send_to_kid(struct relay_kid *k, const struct tide_route *rt)
{
    if (!k || !k->ch)
        return;
    struct tide_wbuf out;
    tide_route_wrap_raw(&out, rt->dst, rt->src, rt->type, rt->payload, rt->len);
    tide_channel_send(k->ch, &out);
}

void relay_from_parent(struct tide_rbuf *r)
{
    struct tide_route rt;
    if (!relay.in_tree || tide_route_decode(r, &rt) != 0 || rt.src != TIDE_ROUTE_HUB) {
        tide_error("ignoring a malformed routed message from our parent");
        return;
    }
    if (rt.dst == TIDE_ROUTE_ALL) {
        /* passed on first: handling it here may end this daemon */
        for (int i = 0; i < relay.nkids; i++)
            send_to_kid(&relay.kids[i], &rt);
        if (rt.type == TIDE_CTL_SHUTDOWN)
            relay_wait_kids();
    } else if (rt.dst != (uint32_t)tided.node) {
        int hop = tide_ctltree_next_hop(&relay.tree, tided.node, (int)rt.dst);
        if (hop < 0)
            tide_error("ignoring a message for node %u, not below us", rt.dst);
        else
            send_to_kid(kid_of_node(hop), &rt);
        return;
    }
    struct tide_rbuf inner;
    tide_wire_reader(&inner, rt.payload, rt.len);
    hub_handle(rt.type, &inner);
}

void relay_drop_kids(void)
{
    for (int i = 0; i < relay.nkids; i++)
        if (relay.kids[i].ch) {
            relay.kids[i].lost = true;
            tide_channel_flush(relay.kids[i].ch);
            tide_channel_free(relay.kids[i].ch);
            relay.kids[i].ch = NULL;
        }
}

static void grace_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    (void)arg;
    TIDE_DEBUG(1, "children in the tree still linked after the shutdown grace: closing their links");
    relay_drop_kids();
    tided_maybe_exit();
}

/* mpiexec shuts every daemon down: ours are told; we leave once their
 * links close (so nothing we pass them is cut off), or after a grace. */
static void relay_wait_kids(void)
{
    relay_flush();
    if (!relay_kids_linked() || relay.grace)
        return;
    relay.grace = evtimer_new(tided.base, grace_cb, NULL);
    struct timeval tv = {5, 0};
    if (relay.grace)
        evtimer_add(relay.grace, &tv);
}

void relay_flush(void)
{
    for (int i = 0; i < relay.nkids; i++)
        if (relay.kids[i].ch)
            tide_channel_flush(relay.kids[i].ch);
}

bool relay_kids_linked(void)
{
    for (int i = 0; i < relay.nkids; i++)
        if (relay.kids[i].ch)
            return true;
    return false;
}

void relay_fini(void)
{
    tree_launch_stop();
    relay_drop_kids();
    if (relay.grace)
        event_free(relay.grace);
    relay.grace = NULL;
    if (relay.listener)
        tide_ctllisten_free(relay.listener);
    relay.listener = NULL;
    free(relay.kids);
    relay.kids = NULL;
    relay.nkids = 0;
    if (relay.in_tree)
        tide_ctltree_free(&relay.tree);
    relay.in_tree = false;
    memset(relay.secret, 0, sizeof relay.secret);
}
