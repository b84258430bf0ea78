/*
 * sender_check.c: the contexts, and the rank on each, on which a process
 * of another universe may send envelopes; envelopes held for contexts
 * not installed yet (sender_check.h).
 */
#include "runtime/api.h"
#include "pt2pt/sender_check.h"
#include "ft/ft.h"
#include "pt2pt/protocol.h"
#include "comm/comm.h"
#include "comm/context.h"
#include "dpm/dpm.h"
#include "transport/tcp_auth.h"
#include "transport/transport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct held {
    struct held *next;
    struct tide_hdr h;
    size_t plen;
    uint8_t data[];
};

struct grant {
    uint32_t ctx; /* the communicator's (even) id */
    int32_t rank; /* the process's rank there */
};

struct sender_state {
    struct sender_state *all_next;
    struct tide_proc *proc;
    struct grant *grants;
    int ngrants, cap;
    struct held *head, *tail;
    int nheld;
    size_t held_bytes;
};

static struct sender_state *all_states;
/* bit i: a communicator with id 2*i is installed in this process */
static uint64_t installed[TIDE_CONTEXT_MAX / 2 / 64];

static bool is_installed(uint32_t base)
{
    return installed[base / 128] >> (base / 2 % 64) & 1;
}

static void set_installed(uint32_t base, bool on)
{
    uint64_t bit = (uint64_t)1 << (base / 2 % 64);
    if (on)
        installed[base / 128] |= bit;
    else
        installed[base / 128] &= ~bit;
}

bool tide_sender_is_foreign(struct tide_proc *p)
{
    if (p->universe == TIDE_UNIV_UNKNOWN)
        p->universe = (p == tide.me || tide_auth_same_universe(p->nspace, tide.nspace)) ? TIDE_UNIV_OURS
                                                                                       : TIDE_UNIV_OTHER;
    return p->universe == TIDE_UNIV_OTHER;
}

static struct sender_state *state_of(struct tide_proc *p)
{
    if (!p->sender_state) {
        struct sender_state *st = calloc(1, sizeof *st);
        if (!st)
            return NULL;
        st->all_next = all_states;
        st->proc = p;
        all_states = st;
        p->sender_state = st;
    }
    return p->sender_state;
}

static int refuse(const struct tide_proc *from, const struct tide_hdr *h, const char *why)
{
    if (tide.tuning.verbose > 0)
        fprintf(stderr,
                "tide[%u]: dropped a message from %.64s:%u (context %u, source %d, tag %d) of another universe: %s\n",
                tide.rank, from->nspace, from->rank, h->ctx, h->src, h->tag, why);
    return TIDE_SENDER_DROP;
}

int tide_sender_check_envelope(struct tide_proc *from, const struct tide_hdr *h, const void *payload, size_t plen)
{
    if (!tide_sender_is_foreign(from))
        return TIDE_SENDER_ACCEPT;
    uint32_t base = h->ctx & ~1u;
    if (base == TIDE_CONTEXT_DPM)
        return TIDE_SENDER_ACCEPT; /* the connect/accept conversation */
    if (h->ctx >= TIDE_CONTEXT_MAX)
        return refuse(from, h, "no such context");
    struct sender_state *st = from->sender_state;
    if (st) {
        /* a process may hold several ranks of one communicator (endpoints) */
        bool member = false;
        for (int i = 0; i < st->ngrants; i++)
            if (st->grants[i].ctx == base) {
                if (h->src == st->grants[i].rank)
                    return TIDE_SENDER_ACCEPT;
                member = true;
            }
        if (member)
            return refuse(from, h, "the source is not its rank there");
    }
    if (is_installed(base))
        return refuse(from, h, "a communicator it is not a member of");
    /* a communicator we have not made yet: keep it for then */
    if (!st && !(st = state_of(from)))
        return refuse(from, h, "out of memory");
    if (st->nheld >= TIDE_SENDER_HOLD_MAX || plen > TIDE_SENDER_HOLD_BYTES - st->held_bytes)
        return refuse(from, h, "too many messages for communicators not made yet");
    struct held *m = malloc(sizeof *m + plen);
    if (!m)
        return refuse(from, h, "out of memory");
    m->next = NULL;
    m->h = *h;
    m->plen = plen;
    if (plen)
        memcpy(m->data, payload, plen);
    if (st->tail)
        st->tail->next = m;
    else
        st->head = m;
    st->tail = m;
    st->nheld++;
    st->held_bytes += plen;
    return TIDE_SENDER_HELD;
}

static int add_grant(struct sender_state *st, uint32_t base, int32_t rank)
{
    for (int i = 0; i < st->ngrants; i++)
        if (st->grants[i].ctx == base && st->grants[i].rank == rank)
            return 0;
    if (st->ngrants == st->cap) {
        int cap = st->cap ? 2 * st->cap : 4;
        struct grant *g = realloc(st->grants, (size_t)cap * sizeof *g);
        if (!g)
            return -1;
        st->grants = g;
        st->cap = cap;
    }
    st->grants[st->ngrants++] = (struct grant){.ctx = base, .rank = rank};
    return 0;
}

/* Deliver (or drop) what p sent early for contexts installed now, in
 * the order it came. */
static void replay(struct tide_proc *p)
{
    struct sender_state *st = p->sender_state;
    if (!st || !st->head)
        return;
    struct held *take = NULL, **tail = &take, **pp = &st->head, *last = NULL;
    while (*pp) {
        struct held *m = *pp;
        if (is_installed(m->h.ctx & ~1u)) {
            *pp = m->next;
            st->nheld--;
            st->held_bytes -= m->plen;
            m->next = NULL;
            *tail = m;
            tail = &m->next;
        } else {
            last = m;
            pp = &m->next;
        }
    }
    st->tail = last;
    while (take) {
        struct held *m = take;
        take = m->next;
        tide_protocol_incoming(p, &m->h, m->data, m->plen);
        free(m);
    }
}

static int members(const struct tide_comm *c)
{
    return c->is_inter ? c->remote_size : c->size;
}

void tide_sender_comm_installed(struct tide_comm *c)
{
    uint32_t base = c->context_id & ~1u;
    if (base == TIDE_CONTEXT_DPM || base >= TIDE_CONTEXT_MAX)
        return;
    set_installed(base, true);
    int n = members(c);
    for (int i = 0; i < n; i++) {
        struct tide_proc *p = c->peers[i];
        if (!tide_sender_is_foreign(p))
            continue;
        struct sender_state *st = state_of(p);
        if (!st || add_grant(st, base, i) != 0)
            fprintf(stderr, "tide[%u]: out of memory: messages of %.64s:%u on a new communicator will be dropped\n",
                    tide.rank, p->nspace, p->rank);
    }
    for (int i = 0; i < n; i++)
        if (c->peers[i]->universe == TIDE_UNIV_OTHER) {
            replay(c->peers[i]);
            c->peers[i]->departed = false; /* connected (again) */
            tide_ft_watch(c->peers[i]);    /* our runtime would not tell us of its death */
        }
}

void tide_sender_comm_withdrawn(struct tide_comm *c)
{
    uint32_t base = c->context_id & ~1u;
    if (base == TIDE_CONTEXT_DPM || base >= TIDE_CONTEXT_MAX)
        return;
    set_installed(base, false);
    int n = members(c);
    for (int i = 0; i < n; i++) {
        struct sender_state *st = c->peers[i]->sender_state;
        if (!st)
            continue;
        for (int k = 0; k < st->ngrants; k++)
            if (st->grants[k].ctx == base)
                st->grants[k--] = st->grants[--st->ngrants];
    }
}

void tide_sender_check_finalize(void)
{
    while (all_states) {
        struct sender_state *st = all_states;
        all_states = st->all_next;
        st->proc->sender_state = NULL; /* processes outlive MPI_Finalize */
        while (st->head) {
            struct held *m = st->head;
            st->head = m->next;
            free(m);
        }
        free(st->grants);
        free(st);
    }
    memset(installed, 0, sizeof installed);
}
