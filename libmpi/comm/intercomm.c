/*
 * intercomm.c: intercommunicators (MPI-2.2 section 6.6): the reusable
 * builder and two-group context agreement of intercomm.h,
 * MPI_Intercomm_create, MPI_Intercomm_merge, and the intercommunicator
 * forms of MPI_Comm_dup, MPI_Comm_create and MPI_Comm_split.
 *
 * An intercommunicator's collective work inside one group runs over its
 * local communicator (exchange.h does that); the leaders (rank 0 of each
 * local group, or the leaders the user names) talk across. Every
 * decision a leader takes is broadcast to its group with a status, so an
 * error found at a leader fails the call at every member.
 */
#include "runtime/api.h"
#include "runtime/errhandler.h"
#include "runtime/proc.h"
#include "comm/comm.h"
#include "comm/endpoints.h"
#include "comm/comm_create.h"
#include "comm/context.h"
#include "comm/exchange.h"
#include "comm/group.h"
#include "comm/intercomm.h"
#include "datatype/datatype.h"
#include "pt2pt/pt2pt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the point-to-point leader channel ---- */

static int pt2pt_xchg(void *arg, const void *sbuf, size_t slen, void *rbuf, size_t rlen)
{
    struct tide_pt2pt_chan *pc = arg;
    struct tide_datatype *byte = tide_datatype_get(MPI_BYTE);
    if (slen > INT32_MAX || rlen > INT32_MAX)
        return tide_err(MPI_ERR_INTERN, "leader exchange of %zu bytes is too large", slen > rlen ? slen : rlen);
    struct tide_request *rr, *sr;
    int rc = tide_irecv(rbuf, (int)rlen, byte, pc->rank, pc->tag, pc->comm, pc->ctx, &rr);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = tide_isend(sbuf, (int)slen, byte, pc->rank, pc->tag, pc->comm, pc->ctx, TIDE_MODE_STANDARD, &sr);
    if (rc != MPI_SUCCESS) {
        tide_wait_free(rr, MPI_STATUS_IGNORE);
        return rc;
    }
    MPI_Status st;
    int e1 = tide_wait_free(sr, MPI_STATUS_IGNORE);
    int e2 = tide_wait_free(rr, &st);
    if (e1 != MPI_SUCCESS || e2 != MPI_SUCCESS)
        return e1 != MPI_SUCCESS ? e1 : e2;
    if ((size_t)st.tide_nbytes != rlen)
        return tide_err(MPI_ERR_INTERN, "the other leader sent %lld bytes where %zu were expected",
                        (long long)st.tide_nbytes, rlen);
    return MPI_SUCCESS;
}

void tide_leader_chan_pt2pt(struct tide_leader_chan *ch, struct tide_pt2pt_chan *pc, struct tide_comm *comm,
                            int rank, uint32_t ctx, int tag)
{
    pc->comm = comm;
    pc->rank = rank;
    pc->ctx = ctx;
    pc->tag = tag;
    ch->xchg = pt2pt_xchg;
    ch->arg = pc;
}

void tide_intercomm_chan(struct tide_comm *c, struct tide_leader_chan *ch, struct tide_pt2pt_chan *pc)
{
    uint32_t seq = c->coll_seq++;
    tide_leader_chan_pt2pt(ch, pc, c, 0, c->context_id + 1, tide_coll_tag(seq, 0));
}

/* Send and receive a block whose lengths the two sides do not know. */
static int xchg_var(const struct tide_leader_chan *ch, const void *sbuf, size_t slen, void **rbuf, size_t *rlen)
{
    uint64_t mine = slen, theirs = 0;
    int rc = ch->xchg(ch->arg, &mine, sizeof mine, &theirs, sizeof theirs);
    if (rc != MPI_SUCCESS)
        return rc;
    if (theirs > INT32_MAX)
        return tide_err(MPI_ERR_INTERN, "the other leader announced %llu bytes", (unsigned long long)theirs);
    *rbuf = malloc(theirs ? theirs : 1);
    if (!*rbuf)
        return tide_err(MPI_ERR_NO_MEM, "out of memory for the other group's data");
    rc = ch->xchg(ch->arg, sbuf, slen, *rbuf, theirs);
    if (rc != MPI_SUCCESS) {
        free(*rbuf);
        *rbuf = NULL;
        return rc;
    }
    *rlen = theirs;
    return MPI_SUCCESS;
}

/* ---- the leader's outcome, broadcast to its group ---- */

struct outcome {
    int32_t cls;     /* MPI_SUCCESS or the class of the leader's error */
    uint32_t msglen; /* its message follows */
    uint64_t len;    /* the size of the data that follows */
    uint32_t a, b;   /* small values of the caller's */
};

/* Collective over lc from leader: at the leader, *code is its status and
 * o its outcome; data (o->len bytes) follows if o->cls is MPI_SUCCESS.
 * Everyone returns with o and, elsewhere than at the leader, *data
 * malloc'd (NULL if none) and *code an error code made from the leader's
 * message if it failed. An error of the broadcast itself is returned. */
static int share_outcome(struct tide_comm *lc, int leader, int *code, struct outcome *o, void **data)
{
    bool am_leader = lc->rank == leader;
    char msg[MPI_MAX_ERROR_STRING] = "";
    if (am_leader) {
        o->cls = 0;
        o->msglen = 0;
        if (*code != MPI_SUCCESS) {
            int len = 0;
            o->cls = tide_error_class_of(*code);
            if (o->cls <= 0)
                o->cls = MPI_ERR_INTERN;
            if (tide_error_message(*code, msg, &len) != 0)
                snprintf(msg, sizeof msg, "error class %d", (int)o->cls);
            o->msglen = (uint32_t)strlen(msg);
            o->len = 0;
        }
    }
    int rc = tide_exchange_bcast(lc, o, sizeof *o, leader);
    if (rc != MPI_SUCCESS)
        return rc;
    if (o->cls != 0) {
        if (o->msglen >= sizeof msg)
            o->msglen = sizeof msg - 1;
        rc = tide_exchange_bcast(lc, msg, o->msglen, leader);
        if (rc != MPI_SUCCESS)
            return rc;
        msg[o->msglen] = '\0';
        if (!am_leader)
            *code = tide_err(o->cls, "%s", msg);
        return MPI_SUCCESS;
    }
    if (!am_leader) {
        *code = MPI_SUCCESS;
        *data = NULL;
        if (o->len) {
            if (!(*data = malloc(o->len)))
                return tide_err(MPI_ERR_NO_MEM, "out of memory for the other group's data");
        }
    }
    if (o->len)
        rc = tide_exchange_bcast(lc, *data, o->len, leader);
    return rc;
}

/* ---- the two-group agreement ---- */

struct decision {
    int32_t status;  /* MPI_SUCCESS or the class of the leader's failure */
    uint32_t id;     /* the id found (TIDE_CTX_DONE, TIDE_CTX_CONFIRM) */
    uint32_t floor;  /* where another round starts (TIDE_CTX_AGAIN) */
    uint32_t outcome;
};

int tide_ctx_inter_round(struct tide_comm *lc, int leader, const struct tide_leader_chan *chan,
                         struct tide_ctx_agreement *ag, const struct tide_ctx_offer *acc, int rc, uint32_t *id)
{
    struct decision d = {0, TIDE_CONTEXT_NONE, 0, TIDE_CTX_AGAIN};
    int lrc = MPI_SUCCESS; /* the leader's own error, with its message */
    if (rc == MPI_SUCCESS && lc->rank == leader) {
        struct tide_ctx_offer theirs;
        lrc = chan->xchg(chan->arg, acc, sizeof *acc, &theirs, sizeof theirs);
        if (lrc == MPI_SUCCESS) {
            tide_context_combine(&theirs, acc);
            d.outcome = (uint32_t)tide_ctx_agreement_outcome(ag, &theirs, &d.id, &d.floor);
            if (d.outcome == TIDE_CTX_EXHAUSTED)
                lrc = tide_err(MPI_ERR_INTERN, "no context id is free at every member of both groups");
        }
        if (lrc != MPI_SUCCESS)
            d.status = tide_error_class_of(lrc);
    }
    if (rc == MPI_SUCCESS)
        rc = tide_exchange_bcast(lc, &d, sizeof d, leader);
    if (rc != MPI_SUCCESS || d.status != 0)
        tide_ctx_agreement_end(ag);
    if (rc != MPI_SUCCESS)
        return rc;
    if (d.status != 0)
        return lc->rank == leader ? lrc
                                  : tide_err(d.status, "the group's leader (rank %d) could not agree on a "
                                                       "context id with the other group", leader);
    if (tide_ctx_agreement_next(ag, (int)d.outcome, d.id, d.floor) == TIDE_CTX_DONE) {
        *id = d.id;
        return 1;
    }
    return 0;
}

int tide_context_agree_inter(struct tide_comm *lc, int leader, const struct tide_leader_chan *chan, bool member,
                             uint32_t *id)
{
    struct tide_ctx_reduce r;
    tide_ctx_reduce_init(&r, lc);
    /* keyed by this group's local communicator: the other group's key
     * differs, so against other agreements the two groups may give way
     * in different orders; that can cost rounds, never a shared id */
    struct tide_ctx_agreement ag;
    tide_ctx_agreement_begin(&ag, tide_ctx_reduce_key(&r), member);
    for (;;) {
        struct tide_ctx_offer o;
        tide_ctx_agreement_offer(&ag, &o);
        tide_ctx_reduce_start(&r, &o);
        int rc = tide_ctx_inter_round(lc, leader, chan, &ag, &r.acc, tide_ctx_reduce_wait(&r), id);
        if (rc != 0)
            return rc > 0 ? MPI_SUCCESS : rc;
    }
}

/* ---- the builder ---- */

static int ptr_cmp(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) * (struct tide_proc *const *)a, y = (uintptr_t) * (struct tide_proc *const *)b;
    return x < y ? -1 : x > y;
}

/* A process in both lists, or NULL (a list may name a process more than
 * once: its endpoints). */
static struct tide_proc *common_proc(int n1, struct tide_proc *const *p1, int n2, struct tide_proc *const *p2)
{
    struct tide_proc **a = malloc((size_t)(n1 + 1) * sizeof *a), **b = malloc((size_t)(n2 + 1) * sizeof *b);
    struct tide_proc *hit = NULL;
    if (!a || !b) { /* slow but right */
        free(a);
        free(b);
        for (int i = 0; i < n1 && !hit; i++)
            for (int j = 0; j < n2 && !hit; j++)
                if (p1[i] == p2[j])
                    hit = p1[i];
        return hit;
    }
    memcpy(a, p1, (size_t)n1 * sizeof *a);
    memcpy(b, p2, (size_t)n2 * sizeof *b);
    qsort(a, (size_t)n1, sizeof *a, ptr_cmp);
    qsort(b, (size_t)n2, sizeof *b, ptr_cmp);
    for (int i = 0, j = 0; i < n1 && j < n2 && !hit;) {
        int c = ptr_cmp(&a[i], &b[j]);
        if (c == 0)
            hit = a[i];
        else if (c < 0)
            i++;
        else
            j++;
    }
    free(a);
    free(b);
    return hit;
}

int tide_intercomm_build(struct tide_comm *lc, int leader, const struct tide_leader_chan *chan, int leader_status,
                         const char *fn, struct tide_comm **out)
{
    *out = NULL;
    int code = MPI_SUCCESS;
    struct outcome o = {0};
    void *list = NULL;
    size_t len = 0;
    if (lc->rank == leader) {
        code = leader_status;
        void *mine = NULL;
        size_t mlen = 0;
        if (code == MPI_SUCCESS) {
            int cls = tide_procs_encode(lc->size, lc->group->procs, &mine, &mlen);
            if (cls != MPI_SUCCESS)
                code = tide_err(cls, "%s: out of memory", fn);
        }
        if (code == MPI_SUCCESS) {
            code = xchg_var(chan, mine, mlen, &list, &len);
            if (code != MPI_SUCCESS)
                code = tide_err(tide_error_class_of(code), "%s: the exchange with the other group's leader failed",
                                fn);
        }
        /* then which endpoints the members are (nothing for processes) */
        void *theirs_ep = NULL;
        size_t tlen = 0;
        if (code == MPI_SUCCESS) {
            code = xchg_var(chan, lc->group->ep, lc->group->ep ? (size_t)lc->size * sizeof(int) : 0, &theirs_ep,
                            &tlen);
            if (code != MPI_SUCCESS)
                code = tide_err(tide_error_class_of(code), "%s: the exchange with the other group's leader failed",
                                fn);
        }
        if (code == MPI_SUCCESS) {
            void *both = realloc(list, len + tlen + 1);
            if (!both) {
                code = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
            } else {
                list = both;
                memcpy((char *)list + len, theirs_ep, tlen);
                o.a = (uint32_t)len;
                len += tlen;
            }
        }
        free(mine);
        if (code == MPI_SUCCESS) {
            /* the groups must not overlap; a process may have endpoints
             * in both when both are groups of endpoints (never one
             * endpoint in both) */
            int rn;
            struct tide_proc **rp;
            int cls = tide_procs_decode(list, o.a, &rn, &rp);
            if (cls != MPI_SUCCESS) {
                code = tide_err(cls, "%s: unreadable member list from the other group's leader", fn);
            } else {
                struct tide_proc *both = common_proc(lc->size, lc->group->procs, rn, rp);
                const int *rs = tlen == (size_t)rn * sizeof(int) ? theirs_ep : NULL;
                if (both && lc->group->ep && rs) {
                    both = NULL;
                    for (int i = 0; i < lc->size && !both; i++)
                        for (int j = 0; j < rn && !both; j++)
                            if (lc->group->procs[i] == rp[j] && lc->group->ep[i] == rs[j])
                                both = rp[j];
                    if (both)
                        code = tide_err(MPI_ERR_ARG,
                                        "%s: the local and remote groups overlap: an endpoint of process %s:%u "
                                        "is in both (arguments local_comm, peer_comm and remote_leader)",
                                        fn, both->nspace, both->rank);
                } else if (both) {
                    code = tide_err(MPI_ERR_ARG,
                                    "%s: the local and remote groups overlap: process %s:%u is in both "
                                    "(arguments local_comm, peer_comm and remote_leader)",
                                    fn, both->nspace, both->rank);
                }
                free(rp);
            }
        }
        free(theirs_ep);
        if (code != MPI_SUCCESS) {
            free(list);
            list = NULL;
        }
        o.len = code == MPI_SUCCESS ? len : 0;
    }
    int rc = share_outcome(lc, leader, &code, &o, &list);
    if (rc == MPI_SUCCESS)
        rc = code;
    if (rc != MPI_SUCCESS) {
        free(list);
        return rc;
    }
    len = o.len;
    int rn = 0;
    struct tide_proc **rp = NULL;
    size_t plen = o.a <= len ? o.a : len;
    int cls = tide_procs_decode(list, plen, &rn, &rp);
    if (cls != MPI_SUCCESS) {
        free(list);
        return tide_err(cls, "%s: unreadable member list from the other group", fn);
    }
    if (lc->ep || len > plen) {
        /* endpoints on either side */
        int *rserials = NULL;
        if (len > plen) {
            if (len - plen != (size_t)rn * sizeof(int)) {
                free(list);
                free(rp);
                return tide_err(MPI_ERR_INTERN, "%s: unreadable endpoint list from the other group", fn);
            }
            rserials = malloc((size_t)rn * sizeof *rserials);
            if (rserials)
                memcpy(rserials, (char *)list + plen, (size_t)rn * sizeof *rserials);
        }
        free(list);
        rc = (len > plen && !rserials) ? tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn)
                                       : tide_ep_intercomm_finish(lc, leader, chan, rn, rp, rserials, fn, out);
        free(rserials);
        free(rp);
        return rc;
    }
    free(list);
    struct tide_group *rg = tide_group_new(rn, rp);
    free(rp);
    /* the local communicator, then the intercommunicator's own id */
    struct tide_comm *nlc = NULL;
    rc = tide_comm_dup_plain(lc, true, &nlc);
    uint32_t id = 0;
    if (rc == MPI_SUCCESS)
        rc = tide_context_agree_inter(lc, leader, chan, true, &id);
    if (rc == MPI_SUCCESS && !rg)
        rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    if (rc != MPI_SUCCESS) {
        if (nlc)
            tide_comm_release(nlc);
        tide_group_release(rg);
        return rc;
    }
    *out = tide_comm_derive(lc, lc->group, rg, id, nlc);
    tide_group_release(rg);
    return *out ? MPI_SUCCESS : tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
}

/* ---- MPI_Intercomm_create ---- */

int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                          MPI_Comm *newintercomm)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Intercomm_create";
    struct tide_comm *lc = tide_comm_get(local_comm);
    if (!lc)
        return TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator%s (argument local_comm)", fn,
                        local_comm == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
    if (lc->is_inter)
        return TIDE_ERR_COMM(lc, MPI_ERR_COMM, "%s: local_comm must be an intracommunicator (argument local_comm)",
                             fn);
    if (local_leader < 0 || local_leader >= lc->size)
        return TIDE_ERR_COMM(lc, MPI_ERR_RANK, "%s: invalid rank %d (argument local_leader; local_comm has %d ranks)",
                             fn, local_leader, lc->size);
    if (!newintercomm)
        return TIDE_ERR_COMM(lc, MPI_ERR_ARG, "%s: newintercomm must not be NULL", fn);
    /* the peer arguments matter at the leader only; what is wrong there
     * fails the call at every member of local_comm */
    int status = MPI_SUCCESS;
    struct tide_leader_chan ch;
    struct tide_pt2pt_chan pc;
    if (lc->rank == local_leader) {
        struct tide_comm *peer = tide_comm_get(peer_comm);
        int n = peer ? (peer->is_inter ? peer->remote_size : peer->size) : 0;
        if (!peer)
            status = tide_err(MPI_ERR_COMM, "%s: invalid communicator%s at the local leader (argument peer_comm)", fn,
                              peer_comm == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
        else if (remote_leader < 0 || remote_leader >= n)
            status = tide_err(MPI_ERR_RANK, "%s: invalid rank %d (argument remote_leader; peer_comm has %d ranks)", fn,
                              remote_leader, n);
        else if (tag < 0)
            status = tide_err(MPI_ERR_TAG, "%s: invalid tag %d (argument tag; tags are 0 to MPI_TAG_UB)", fn, tag);
        else
            tide_leader_chan_pt2pt(&ch, &pc, peer, remote_leader, peer->context_id + 1, tide_tag_intercomm(tag));
    }
    struct tide_comm *ic;
    int rc = tide_intercomm_build(lc, local_leader, status == MPI_SUCCESS ? &ch : NULL, status, fn, &ic);
    if (rc != MPI_SUCCESS)
        return tide_raise_comm(lc, rc);
    *newintercomm = ic->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Intercomm_create)

/* ---- MPI_Intercomm_merge ---- */

static struct tide_comm *get_inter(MPI_Comm h, const char *fn, int *rc)
{
    struct tide_comm *c = tide_comm_get(h);
    if (!c) {
        *rc = TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator%s (argument intercomm)", fn,
                       h == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
        return NULL;
    }
    if (!c->is_inter) {
        *rc = TIDE_ERR_COMM(c, MPI_ERR_COMM, "%s: %s is an intracommunicator (argument intercomm)", fn,
                            c->name[0] ? c->name : "the communicator");
        return NULL;
    }
    return c;
}

int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Intercomm_merge";
    int rc;
    struct tide_comm *c = get_inter(intercomm, fn, &rc);
    if (!c)
        return rc;
    if (!newintracomm)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: newintracomm must not be NULL", fn);
    struct tide_comm *lc = c->local_comm;
    struct tide_leader_chan ch;
    struct tide_pt2pt_chan pc;
    tide_intercomm_chan(c, &ch, &pc);
    /* the leaders swap their groups' high; the leader's value stands for
     * its group (the standard asks every member for the same) */
    int code = MPI_SUCCESS;
    struct outcome o = {0};
    if (lc->rank == 0) {
        int32_t mine = high ? 1 : 0, theirs = 0;
        code = ch.xchg(ch.arg, &mine, sizeof mine, &theirs, sizeof theirs);
        o.a = (uint32_t)mine;
        o.b = (uint32_t)theirs;
    }
    void *none = NULL;
    rc = share_outcome(lc, 0, &code, &o, &none);
    free(none);
    if (rc == MPI_SUCCESS)
        rc = code;
    if (rc != MPI_SUCCESS)
        return tide_raise_comm(c, rc);
    bool local_first;
    if (o.a != o.b)
        local_first = o.a < o.b; /* the group that said false comes first */
    else /* same value: any order, the same at both groups */
        local_first = tide_proc_cmp(c->group->procs[0], c->remote_group->procs[0]) < 0;
    if (c->ep) {
        struct tide_comm *nc;
        rc = tide_ep_intercomm_merge(c, &ch, local_first, &nc);
        if (rc != MPI_SUCCESS)
            return tide_raise_comm(c, rc);
        *newintracomm = nc->handle;
        return MPI_SUCCESS;
    }
    int n = c->size + c->remote_size;
    struct tide_proc **procs = malloc((size_t)n * sizeof *procs);
    uint32_t id;
    rc = tide_context_agree_inter(lc, 0, &ch, true, &id);
    if (rc != MPI_SUCCESS) {
        free(procs);
        return tide_raise_comm(c, rc);
    }
    struct tide_group *g = NULL;
    if (procs) {
        struct tide_group *first = local_first ? c->group : c->remote_group;
        struct tide_group *second = local_first ? c->remote_group : c->group;
        memcpy(procs, first->procs, (size_t)first->size * sizeof *procs);
        memcpy(procs + first->size, second->procs, (size_t)second->size * sizeof *procs);
        g = tide_group_new(n, procs);
        free(procs);
    }
    struct tide_comm *nc = g ? tide_comm_derive(c, g, NULL, id, NULL) : NULL;
    if (!g)
        tide_context_release(id);
    tide_group_release(g);
    if (!nc)
        return TIDE_ERR_COMM(c, MPI_ERR_NO_MEM, "%s: out of memory", fn);
    *newintracomm = nc->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Intercomm_merge)

/* ---- intercommunicator forms of dup, create, split ---- */

int tide_intercomm_dup(struct tide_comm *c, struct tide_comm **out)
{
    if (c->ep)
        return tide_ep_intercomm_split(c, 0, 0, out);
    struct tide_leader_chan ch;
    struct tide_pt2pt_chan pc;
    tide_intercomm_chan(c, &ch, &pc);
    struct tide_comm *nlc = NULL;
    int rc = tide_comm_dup_plain(c->local_comm, true, &nlc);
    uint32_t id = 0;
    if (rc == MPI_SUCCESS)
        rc = tide_context_agree_inter(c->local_comm, 0, &ch, true, &id);
    if (rc != MPI_SUCCESS) {
        if (nlc)
            tide_comm_release(nlc);
        return rc;
    }
    *out = tide_comm_derive(c, c->group, c->remote_group, id, nlc);
    return *out ? MPI_SUCCESS : tide_err(MPI_ERR_NO_MEM, "out of memory for a new intercommunicator");
}

int tide_intercomm_swap(struct tide_comm *c, const struct tide_leader_chan *ch, const void *mine, size_t mlen,
                          void **theirs, size_t rlen)
{
    struct tide_comm *lc = c->local_comm;
    int code = MPI_SUCCESS;
    struct outcome o = {0};
    *theirs = NULL;
    if (lc->rank == 0) {
        if (!(*theirs = malloc(rlen ? rlen : 1)))
            code = tide_err(MPI_ERR_NO_MEM, "out of memory for the other group's data");
        else
            code = ch->xchg(ch->arg, mine, mlen, *theirs, rlen);
        o.len = code == MPI_SUCCESS ? rlen : 0;
    }
    int rc = share_outcome(lc, 0, &code, &o, theirs);
    if (rc == MPI_SUCCESS)
        rc = code;
    if (rc != MPI_SUCCESS) {
        free(*theirs);
        *theirs = NULL;
    }
    return rc;
}

/* Both agreements of a new intercommunicator among the members: the id of
 * its local communicator (within this group) and its own (both groups);
 * then the two communicators, if this process is a member. */
static int make_sub_inter(struct tide_comm *c, const struct tide_leader_chan *ch, struct tide_group *lg,
                          struct tide_group *rg, struct tide_comm **out)
{
    bool member = lg != NULL && rg != NULL;
    uint32_t lid = 0, id = 0;
    int rc = tide_context_agree(c->local_comm, member, &lid);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = tide_context_agree_inter(c->local_comm, 0, ch, member, &id);
    if (rc != MPI_SUCCESS) {
        if (member)
            tide_context_release(lid);
        return rc;
    }
    if (!member)
        return MPI_SUCCESS;
    struct tide_comm *nlc = tide_comm_derive(c, lg, NULL, lid, NULL);
    if (!nlc) {
        tide_context_release(id);
        return tide_err(MPI_ERR_NO_MEM, "out of memory for a new intercommunicator");
    }
    *out = tide_comm_derive(c, lg, rg, id, nlc);
    return *out ? MPI_SUCCESS : tide_err(MPI_ERR_NO_MEM, "out of memory for a new intercommunicator");
}

int tide_intercomm_create_sub(struct tide_comm *c, struct tide_group *g, struct tide_comm **out)
{
    if (c->ep)
        return tide_ep_intercomm_create(c, g, out);
    *out = NULL;
    struct tide_leader_chan ch;
    struct tide_pt2pt_chan pc;
    tide_intercomm_chan(c, &ch, &pc);
    /* the group as ranks of the local group, swapped for the other side's */
    uint32_t *mine = malloc(((size_t)g->size + 1) * sizeof *mine);
    if (!mine)
        return tide_err(MPI_ERR_NO_MEM, "MPI_Comm_create: out of memory");
    mine[0] = (uint32_t)g->size;
    for (int i = 0; i < g->size; i++)
        mine[i + 1] = (uint32_t)tide_group_rank_of(c->group, g->procs[i]);
    uint32_t *rn = NULL, *theirs = NULL;
    int rc = tide_intercomm_swap(c, &ch, mine, sizeof *mine, (void **)&rn, sizeof *rn);
    if (rc == MPI_SUCCESS && *rn > (uint32_t)c->remote_size)
        rc = tide_err(MPI_ERR_INTERN, "MPI_Comm_create: the other group named %u processes", *rn);
    if (rc == MPI_SUCCESS)
        rc = tide_intercomm_swap(c, &ch, mine + 1, (size_t)g->size * sizeof *mine, (void **)&theirs,
                            (size_t)*rn * sizeof *theirs);
    free(mine);
    struct tide_group *rg = NULL;
    if (rc == MPI_SUCCESS && *rn > 0 && g->size > 0) {
        struct tide_proc **procs = malloc((size_t)*rn * sizeof *procs);
        for (uint32_t i = 0; procs && i < *rn; i++) {
            if (theirs[i] >= (uint32_t)c->remote_size) {
                rc = tide_err(MPI_ERR_INTERN, "MPI_Comm_create: the other group named rank %u", theirs[i]);
                break;
            }
            procs[i] = c->remote_group->procs[theirs[i]];
        }
        if (!procs)
            rc = tide_err(MPI_ERR_NO_MEM, "MPI_Comm_create: out of memory");
        else if (rc == MPI_SUCCESS && !(rg = tide_group_new((int)*rn, procs)))
            rc = tide_err(MPI_ERR_NO_MEM, "MPI_Comm_create: out of memory");
        free(procs);
    }
    bool empty = rc != MPI_SUCCESS || *rn == 0 || g->size == 0;
    free(rn);
    free(theirs);
    if (rc != MPI_SUCCESS || empty) { /* an empty side: MPI_COMM_NULL everywhere */
        tide_group_release(rg);
        return rc;
    }
    rc = make_sub_inter(c, &ch, g->rank != MPI_UNDEFINED ? g : NULL, rg, out);
    tide_group_release(rg);
    return rc;
}

int tide_intercomm_split(struct tide_comm *c, int color, int key, struct tide_comm **out)
{
    if (c->ep)
        return tide_ep_intercomm_split(c, color, key, out);
    *out = NULL;
    struct tide_leader_chan ch;
    struct tide_pt2pt_chan pc;
    tide_intercomm_chan(c, &ch, &pc);
    int mine[2] = {color, key};
    int *all = malloc((size_t)c->size * sizeof mine), *theirs = NULL;
    if (!all)
        return tide_err(MPI_ERR_NO_MEM, "MPI_Comm_split: out of memory");
    int rc = tide_exchange_allgather(c->local_comm, mine, sizeof mine, all);
    if (rc == MPI_SUCCESS)
        rc = tide_intercomm_swap(c, &ch, all, (size_t)c->size * sizeof mine, (void **)&theirs,
                            (size_t)c->remote_size * sizeof mine);
    struct tide_group *lg = NULL, *rg = NULL;
    if (rc == MPI_SUCCESS && color != MPI_UNDEFINED) {
        lg = tide_group_by_color(c->group, all, 2, color);
        rg = tide_group_by_color(c->remote_group, theirs, 2, color);
    }
    free(all);
    free(theirs);
    if (rc == MPI_SUCCESS)
        rc = make_sub_inter(c, &ch, lg, rg, out);
    tide_group_release(lg);
    tide_group_release(rg);
    return rc;
}
