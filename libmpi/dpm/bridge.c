/*
 * bridge.c: joining two groups into an intercommunicator through their
 * leaders (dpm.h). Used by MPI_Comm_accept/connect and by spawn.
 *
 * Leader conversation on context TIDE_CONTEXT_DPM:
 *   connector -> acceptor, tag = port tag:  CONNECT {magic, port token,
 *       conversation tag, connector's name and card}
 *   acceptor -> connector, tag = conv:      ANSWER {1 accepted | 0 refused}
 *   both ways, tag = conv + 1:              GROUP {member list with cards
 *       and link keys, free context-id mask of the whole group}
 * Each leader then knows both groups and both masks, computes the same
 * context id, and broadcasts the outcome to its group. Answers and groups
 * are taken only from the process the conversation is with.
 *
 * The port's token and the link keys are secrets: every message that
 * holds one (the leaders' conversation, the gathering of the member list
 * within a group, the broadcast of the other group's list) is sent
 * TIDE_SEND_SEALED, so it is sealed between hosts whatever `encrypt`
 * says (transport/tcp.c).
 *
 * Between two universes the connector reaches the acceptor with the
 * port's token (a PORT-kind TCP connection, tcp_auth.h) and nothing more;
 * afterwards the members of each group authenticate to the other group's
 * with the link keys of the member lists: each member makes a fresh key
 * for each connect/accept and proves it, so neither group learns anything
 * that lets it pass for a process of the other's universe. Cards and keys
 * in a list are ignored for processes of our own universe (those are
 * known through PMIx and prove rank keys).
 */
#include "runtime/api.h"
#include "ft/ft.h"
#include "comm/comm.h"
#include "comm/context.h"
#include "comm/exchange.h"
#include "comm/group.h"
#include "dpm/dpm.h"
#include "pt2pt/match.h"
#include "pt2pt/progress.h"
#include "pt2pt/protocol.h"
#include "pt2pt/pt2pt.h"
#include "runtime/errhandler.h"
#include "runtime/proc.h"
#include "transport/card.h"
#include "transport/peer_keys.h"
#include "transport/tcp_auth.h"
#include "transport/transport.h"
#include "wire.h"

#include <openssl/rand.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CONNECT_MAGIC 0x4e4f4354u /* "TCON" */
#define MASK_WORDS 16             /* context ids agreed within the first 1024 */
#define MAX_MEMBERS (1 << 20)

void tide_dpm_set_card(struct tide_proc *p, const char *card)
{
    if (p == tide.me || !card || !*card)
        return;
    /* a process of our universe is known through PMIx: another group
     * cannot say where it listens */
    if (tide.have_pmix && tide_auth_same_universe(p->nspace, tide.nspace))
        return;
    if (p->card && strcmp(p->card, card) == 0)
        return;
    char *c = strdup(card);
    if (!c)
        return;
    free(p->card);
    p->card = c;
    p->card_len = (uint32_t)strlen(c) + 1;
}

/* A two-process intercommunicator on the DPM context, to talk to one peer. */
static struct tide_comm *pair_comm(struct tide_proc *peer)
{
    struct tide_group *me = tide_group_new(1, &tide.me), *them = tide_group_new(1, &peer);
    struct tide_comm *c = (me && them) ? tide_comm_create(me, them, TIDE_CONTEXT_DPM, MPI_COMM_NULL) : NULL;
    tide_group_release(me);
    tide_group_release(them);
    if (c)
        c->errhandler = MPI_ERRORS_RETURN;
    return c;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct blob_wait {
    int tag;
    double deadline;
    struct tide_proc *only;
    struct tide_unexpected *u;
};

/* the oldest message with this tag from this process */
static struct tide_unexpected *from_only(struct tide_matchq *q, int tag, struct tide_proc *only)
{
    struct tide_unexpected *best = NULL;
    for (struct tide_unexpected *u = tide_match_uq_first(q); u; u = tide_match_uq_next(q, u))
        if (u->tag == tag && u->from == only && (!best || u->stamp < best->stamp))
            best = u;
    return best;
}

/* The namespace of the children a spawn waits for (NULL: none): if one
 * of them fails before it connects (recovery mode), none will. */
static char *expected_nspace;

void tide_dpm_expect_nspace(const char *nspace)
{
    free(expected_nspace);
    expected_nspace = nspace ? strdup(nspace) : NULL;
}

static bool blob_here(void *arg)
{
    struct blob_wait *w = arg;
    struct tide_matchq *q = tide_matchq_find(TIDE_CONTEXT_DPM);
    if (!q)
        w->u = NULL;
    else if (w->only)
        w->u = from_only(q, w->tag, w->only);
    else
        w->u = tide_match_find_unexpected(q, MPI_ANY_SOURCE, w->tag, false);
    /* the process we talk to failed (ft/ft.h): nothing more will come */
    return w->u || (w->deadline > 0 && now() > w->deadline) || (w->only && w->only->failed) ||
           (!w->only && expected_nspace && tide_ft_nspace_failed(expected_nspace));
}

/* Receive the next message with this tag on the DPM context, from only
 * (NULL: whoever sent it). Returns a malloc'd payload and the sender. */
static int recv_blob(int tag, double deadline, struct tide_proc *only, void **out, size_t *len,
                     struct tide_proc **who)
{
    struct blob_wait w = {tag, deadline, only, NULL};
    tide_progress_until(blob_here, &w);
    if (!w.u)
        return -1;
    struct tide_matchq *q = tide_matchq_find(TIDE_CONTEXT_DPM);
    struct tide_unexpected *u = w.u;
    tide_match_remove(q, u);
    size_t n = u->len;
    struct tide_proc *from = u->from;
    void *buf = malloc(n ? n : 1);
    struct tide_request *r = buf ? tide_request_new(TIDE_REQ_RECV) : NULL;
    if (!r) {
        free(buf);
        tide_unexpected_free(u);
        return -1;
    }
    r->buf = buf;
    r->count = (int)n;
    r->dt = tide_datatype_get(MPI_BYTE);
    r->dtype = MPI_BYTE;
    r->peer = MPI_ANY_SOURCE;
    r->tag = tag;
    r->ctx = TIDE_CONTEXT_DPM;
    r->bytes = n;
    tide_conv_init(&r->conv, r->dt, n, buf);
    tide_recv_unexpected(r, u);
    tide_wait_request(r);
    int err = r->error;
    tide_request_free(r);
    if (err != MPI_SUCCESS) {
        free(buf);
        return -1;
    }
    if (who)
        *who = from;
    *out = buf;
    *len = n;
    return 0;
}

/* Every message of the leaders' conversation is sealed between hosts
 * (TIDE_SEND_SEALED): CONNECT holds the port's token, GROUP the LINK keys. */
static int send_blob(struct tide_comm *pc, int tag, const void *data, size_t len)
{
    return tide_send_blocking_sealed(data, (int)len, tide_datatype_get(MPI_BYTE), 0, tag, pc, TIDE_CONTEXT_DPM);
}

/* ---- the member list of a group ---- */

struct member {
    char *nspace;
    uint32_t rank;
    char *card;
    uint8_t key[TIDE_KEY_LEN]; /* its link key for the other group */
};

static void members_free(struct member *m, uint32_t n)
{
    for (uint32_t i = 0; m && i < n; i++) {
        free(m[i].nspace);
        free(m[i].card);
    }
    free(m);
}

/* Gather every member's name and card at every member (an allgather of
 * fixed-size slots is simplest: names and cards are short). */
#define SLOT 1536

#define SLOT_KEY 264
#define SLOT_CARD (SLOT_KEY + TIDE_KEY_LEN)

static int gather_members(struct tide_comm *comm, struct tide_wbuf *w, const uint8_t mykey[TIDE_KEY_LEN])
{
    char mine[SLOT];
    memset(mine, 0, sizeof mine);
    int n = snprintf(mine, 256, "%s", tide.nspace);
    (void)n;
    memcpy(mine + 256, &tide.rank, sizeof tide.rank);
    memcpy(mine + SLOT_KEY, mykey, TIDE_KEY_LEN);
    snprintf(mine + SLOT_CARD, SLOT - SLOT_CARD, "%s", tide_card_text());
    char *all = malloc((size_t)comm->size * SLOT);
    if (!all)
        return tide_err(MPI_ERR_NO_MEM, "connect: out of memory");
    int rc = tide_exchange_allgather_sealed(comm, mine, SLOT, all);
    memset(mine + SLOT_KEY, 0, TIDE_KEY_LEN);
    if (rc) {
        free(all);
        return rc;
    }
    tide_wire_put_u32(w, (uint32_t)comm->size);
    for (int i = 0; i < comm->size; i++) {
        char *slot = all + (size_t)i * SLOT;
        slot[255] = '\0';
        slot[SLOT - 1] = '\0';
        uint32_t rank;
        memcpy(&rank, slot + 256, sizeof rank);
        tide_wire_put_str(w, slot);
        tide_wire_put_u32(w, rank);
        tide_wire_put_str(w, slot + SLOT_CARD);
        tide_wire_put_bytes(w, slot + SLOT_KEY, TIDE_KEY_LEN);
    }
    free(all);
    return MPI_SUCCESS;
}

static struct member *parse_members(struct tide_rbuf *r, uint32_t *n)
{
    *n = tide_wire_get_u32(r);
    if (!tide_wire_ok(r) || *n == 0 || *n > MAX_MEMBERS)
        return NULL;
    struct member *m = calloc(*n, sizeof *m);
    for (uint32_t i = 0; m && i < *n; i++) {
        m[i].nspace = tide_wire_get_str(r);
        m[i].rank = tide_wire_get_u32(r);
        m[i].card = tide_wire_get_str(r);
        size_t kl = 0;
        const void *k = tide_wire_get_bytes(r, &kl);
        if (k && kl == TIDE_KEY_LEN)
            memcpy(m[i].key, k, TIDE_KEY_LEN);
        if (!m[i].nspace || !m[i].card || !k || kl != TIDE_KEY_LEN || !tide_wire_ok(r)) {
            members_free(m, *n);
            return NULL;
        }
    }
    return m;
}

/* ---- the outcome each leader broadcasts to its group ---- */

/* Pack [status][inter ctx][local ctx][remote member list] and broadcast
 * it from root; every member builds the intercommunicator from it. */
static int finish_group(struct tide_comm *comm, int root, int status, uint32_t ctx, uint32_t lctx,
                        const void *remote_list, size_t remote_len, const uint8_t mykey[TIDE_KEY_LEN],
                        struct tide_comm **inter, const char *fn)
{
    /* first the size, then the body */
    uint64_t hdr[4] = {(uint64_t)(int64_t)status, ctx, lctx, remote_len};
    int rc = tide_exchange_bcast(comm, hdr, sizeof hdr, root);
    if (rc)
        return rc;
    status = (int)(int64_t)hdr[0];
    ctx = (uint32_t)hdr[1];
    lctx = (uint32_t)hdr[2];
    remote_len = (size_t)hdr[3];
    if (status != MPI_SUCCESS && comm->rank == root)
        return status; /* its message says what went wrong */
    if (status != MPI_SUCCESS)
        return tide_err(tide_error_class_of(status) > 0 ? tide_error_class_of(status) : MPI_ERR_PORT,
                        "%s: the leader could not reach the other group", fn);
    void *list = comm->rank == root ? (void *)remote_list : malloc(remote_len ? remote_len : 1);
    if (!list)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    rc = tide_exchange_bcast_sealed(comm, list, remote_len, root);
    if (rc) {
        if (comm->rank != root)
            free(list);
        return rc;
    }
    struct tide_rbuf r;
    tide_wire_reader(&r, list, remote_len);
    uint32_t n;
    struct member *m = parse_members(&r, &n);
    if (comm->rank != root)
        free(list);
    if (!m)
        return tide_err(MPI_ERR_INTERN, "%s: malformed member list from the other group", fn);
    struct tide_proc **procs = malloc(n * sizeof *procs);
    for (uint32_t i = 0; procs && i < n; i++) {
        procs[i] = tide_proc_get(m[i].nspace, m[i].rank);
        if (procs[i]) {
            tide_dpm_test_print_key("link key (theirs)", m[i].key, TIDE_KEY_LEN);
            tide_dpm_set_card(procs[i], m[i].card);
            tide_peer_keys_set_link(procs[i], mykey, m[i].key); /* not for our universe */
        }
    }
    members_free(m, n);
    if (!procs)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    struct tide_group *rg = tide_group_new((int)n, procs);
    free(procs);
    if (!rg)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    tide_context_reserve(ctx);
    tide_context_reserve(lctx);
    struct tide_comm *ic = tide_comm_create(comm->group, rg, ctx, MPI_COMM_NULL);
    struct tide_comm *lc = tide_comm_create(comm->group, NULL, lctx, MPI_COMM_NULL);
    tide_group_release(rg);
    if (!ic || !lc) {
        if (ic)
            tide_comm_release(ic);
        if (lc)
            tide_comm_release(lc);
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    ic->local_comm = lc;
    tide_errhandler_retain(comm->errhandler);
    ic->errhandler = comm->errhandler;
    *inter = ic;
    return MPI_SUCCESS;
}

/* Leader side of the group exchange over pc (a pair communicator with the
 * other leader). Fills ctx/lctx and the remote list; returns an error
 * code or MPI_SUCCESS. */
static int leaders_swap(struct tide_comm *pc, int conv, const void *mylist, size_t mylen, const uint64_t *mymask,
                        double deadline, uint32_t *ctx, uint32_t *lctx, void **rlist, size_t *rlen, const char *fn)
{
    struct tide_wbuf w;
    tide_wire_begin(&w, 0);
    tide_wire_put_bytes(&w, mylist, mylen);
    tide_wire_put_bytes(&w, mymask, MASK_WORDS * 8);
    if (tide_wire_finish(&w) != 0) {
        tide_wire_free(&w);
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    void *buf = NULL;
    int rc = send_blob(pc, conv + 1, w.data + TIDE_WIRE_HEADER, w.len - TIDE_WIRE_HEADER);
    tide_wire_free(&w);
    if (rc)
        return tide_err(MPI_ERR_PORT, "%s: cannot reach the other group's leader", fn);
    size_t len;
    if (recv_blob(conv + 1, deadline, pc->remote_group->procs[0], &buf, &len, NULL) != 0)
        return tide_err(MPI_ERR_PORT, "%s: the other group's leader did not answer in time", fn);
    struct tide_rbuf r;
    tide_wire_reader(&r, buf, len);
    size_t ll, ml;
    const void *l = tide_wire_get_bytes(&r, &ll);
    const void *m = tide_wire_get_bytes(&r, &ml);
    if (!tide_wire_done(&r) || ml != MASK_WORDS * 8) {
        free(buf);
        return tide_err(MPI_ERR_PORT, "%s: malformed answer from the other group's leader", fn);
    }
    uint64_t both[MASK_WORDS], mine_only[MASK_WORDS];
    memcpy(both, m, sizeof both);
    for (int i = 0; i < MASK_WORDS; i++) {
        both[i] &= mymask[i];
        mine_only[i] = mymask[i];
    }
    uint32_t c = tide_context_lowest(both, MASK_WORDS);
    if (c == UINT32_MAX) {
        free(buf);
        return tide_err(MPI_ERR_OTHER, "%s: no context id is free in both groups", fn);
    }
    /* the local communicator's id: free in our group, other than c */
    mine_only[(c / 2) / 64] &= ~(1ull << ((c / 2) % 64));
    uint32_t lc = tide_context_lowest(mine_only, MASK_WORDS);
    if (lc == UINT32_MAX) {
        free(buf);
        return tide_err(MPI_ERR_OTHER, "%s: no context id is free", fn);
    }
    *ctx = c;
    *lctx = lc;
    *rlist = malloc(ll ? ll : 1);
    if (*rlist)
        memcpy(*rlist, l, ll);
    *rlen = ll;
    free(buf);
    return *rlist ? MPI_SUCCESS : tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
}

/* Everyone: this group's member list and free mask (at the root). */
static int group_prepare(struct tide_comm *comm, struct tide_wbuf *list, uint64_t *mask, uint8_t mykey[TIDE_KEY_LEN])
{
    tide_peer_keys_new_link(mykey);
    tide_dpm_test_print_key("link key (ours)", mykey, TIDE_KEY_LEN);
    tide_wire_begin(list, 0);
    int rc = gather_members(comm, list, mykey);
    if (rc)
        return rc;
    if (tide_wire_finish(list) != 0)
        return tide_err(MPI_ERR_NO_MEM, "connect: out of memory");
    tide_context_free_mask(mask, MASK_WORDS);
    return tide_exchange_allreduce_and(comm, mask, MASK_WORDS);
}

/* ---- accept ---- */

int tide_dpm_accept(const uint8_t token[TIDE_PORT_TOKEN_LEN], int root, struct tide_comm *comm, double timeout,
                    int pre_status, struct tide_comm **inter, const char *fn)
{
    struct tide_wbuf list;
    uint64_t mask[MASK_WORDS];
    uint8_t mykey[TIDE_KEY_LEN];
    int rc = group_prepare(comm, &list, mask, mykey);
    if (rc) {
        tide_wire_free(&list);
        return rc;
    }
    int status = pre_status;
    uint32_t ctx = 0, lctx = 0;
    void *rlist = NULL;
    size_t rlen = 0;
    if (comm->rank == root && status == MPI_SUCCESS) {
        double deadline = timeout > 0 ? now() + timeout : 0;
        void *req = NULL;
        size_t len;
        struct tide_proc *who = NULL;
        if (recv_blob(tide_port_tag(token), deadline, NULL, &req, &len, &who) != 0) {
            if (expected_nspace && tide_ft_nspace_failed(expected_nspace))
                status = tide_err(MPI_ERR_SPAWN, "%s: a spawned process failed before it could connect", fn);
            else
                status = tide_err(MPI_ERR_PORT, "%s: no connection arrived within %.0f seconds", fn, timeout);
        } else {
            struct tide_rbuf r;
            tide_wire_reader(&r, req, len);
            uint32_t magic = tide_wire_get_u32(&r);
            size_t tl;
            const void *tok = tide_wire_get_bytes(&r, &tl);
            int conv = (int)tide_wire_get_u32(&r);
            char *card = tide_wire_get_str(&r);
            if (magic != CONNECT_MAGIC || tl != TIDE_PORT_TOKEN_LEN || !card || !tide_wire_done(&r) ||
                memcmp(tok, token, TIDE_PORT_TOKEN_LEN) != 0 || !who) {
                status = tide_err(MPI_ERR_PORT, "%s: a malformed connection request arrived", fn);
            } else {
                tide_tcp_port_accepted(who); /* its group's member list may be long */
                tide_dpm_set_card(who, card);
                struct tide_comm *pc = pair_comm(who);
                uint32_t yes = 1;
                if (!pc || send_blob(pc, conv, &yes, sizeof yes) != 0)
                    status = tide_err(MPI_ERR_PORT, "%s: cannot answer the connecting process", fn);
                else
                    status = leaders_swap(pc, conv, list.data + TIDE_WIRE_HEADER, list.len - TIDE_WIRE_HEADER, mask,
                                          deadline ? deadline : now() + 60, &ctx, &lctx, &rlist, &rlen, fn);
                if (pc)
                    tide_comm_release(pc);
            }
            free(card);
            free(req);
        }
    }
    tide_wire_free(&list);
    rc = finish_group(comm, root, status, ctx, lctx, rlist, rlen, mykey, inter, fn);
    free(rlist);
    return rc;
}

/* ---- connect ---- */

int tide_dpm_connect(const struct tide_port *port, int root, struct tide_comm *comm, double timeout,
                     struct tide_comm **inter, const char *fn)
{
    struct tide_wbuf list;
    uint64_t mask[MASK_WORDS];
    uint8_t mykey[TIDE_KEY_LEN];
    int rc = group_prepare(comm, &list, mask, mykey);
    if (rc) {
        tide_wire_free(&list);
        return rc;
    }
    int status = MPI_SUCCESS;
    uint32_t ctx = 0, lctx = 0;
    void *rlist = NULL;
    size_t rlen = 0;
    if (comm->rank == root) {
        double deadline = timeout > 0 ? now() + timeout : 0;
        struct tide_proc *acc = tide_proc_get(port->nspace, port->rank);
        struct tide_comm *pc = NULL;
        if (!acc || acc == tide.me) {
            status = tide_err(MPI_ERR_PORT, "%s: cannot connect to a port of this same process", fn);
        } else {
            tide_dpm_set_card(acc, port->card);
            tide_dpm_test_print_key("port token", port->token, TIDE_PORT_TOKEN_LEN);
            tide_peer_keys_set_port(acc, port->token); /* not for our universe */
            pc = pair_comm(acc);
            uint32_t conv_raw;
            if (RAND_bytes((uint8_t *)&conv_raw, sizeof conv_raw) != 1)
                conv_raw = (uint32_t)rand();
            int conv = (int)((conv_raw & 0x3ffffff0u) | 2);
            struct tide_wbuf w;
            tide_wire_begin(&w, 0);
            tide_wire_put_u32(&w, CONNECT_MAGIC);
            tide_wire_put_bytes(&w, port->token, TIDE_PORT_TOKEN_LEN);
            tide_wire_put_u32(&w, (uint32_t)conv);
            tide_wire_put_str(&w, tide_card_text());
            tide_wire_finish(&w);
            if (!pc || !tide_transport_for(acc) ||
                send_blob(pc, tide_port_tag(port->token), w.data + TIDE_WIRE_HEADER, w.len - TIDE_WIRE_HEADER) != 0) {
                status = tide_err(MPI_ERR_PORT, "%s: cannot reach the process that opened the port", fn);
            } else {
                void *ans = NULL;
                size_t al;
                if (recv_blob(conv, deadline, acc, &ans, &al, NULL) != 0)
                    status = tide_err(MPI_ERR_PORT, "%s: no accept on that port within %.0f seconds", fn, timeout);
                else if (al != sizeof(uint32_t) || *(uint32_t *)ans != 1)
                    status = tide_err(MPI_ERR_PORT, "%s: the port is closed", fn);
                else
                    status = leaders_swap(pc, conv, list.data + TIDE_WIRE_HEADER, list.len - TIDE_WIRE_HEADER, mask,
                                          deadline ? deadline : now() + 60, &ctx, &lctx, &rlist, &rlen, fn);
                free(ans);
            }
            tide_wire_free(&w);
        }
        if (pc)
            tide_comm_release(pc);
    }
    tide_wire_free(&list);
    rc = finish_group(comm, root, status, ctx, lctx, rlist, rlen, mykey, inter, fn);
    free(rlist);
    return rc;
}

/* ---- refusing connections to ports that are not open ---- */

static int refuse_closed_ports(void)
{
    struct tide_matchq *q = tide_matchq_find(TIDE_CONTEXT_DPM);
    if (!q || !q->nunexpected)
        return 0;
    int n = 0;
    for (struct tide_unexpected *u = tide_match_uq_first(q), *next; u; u = next) {
        next = tide_match_uq_next(q, u);
        if (u->type != 1 /* eager */ || u->data_len < 8)
            continue;
        struct tide_rbuf r;
        tide_wire_reader(&r, u->data, u->data_len);
        if (tide_wire_get_u32(&r) != CONNECT_MAGIC)
            continue;
        size_t tl;
        const void *tok = tide_wire_get_bytes(&r, &tl);
        int conv = (int)tide_wire_get_u32(&r);
        char *card = tide_wire_get_str(&r);
        if (tide_wire_ok(&r) && tl == TIDE_PORT_TOKEN_LEN && tide_port_is_open(tok)) {
            free(card); /* waits for its MPI_Comm_accept */
            continue;
        }
        /* refuse it: answer "closed" if we can, and drop it */
        tide_match_remove(q, u);
        if (card && tide_wire_ok(&r)) {
            tide_dpm_set_card(u->from, card);
            struct tide_comm *pc = pair_comm(u->from);
            uint32_t no = 0;
            struct tide_request *sr;
            if (pc && tide_isend(&no, (int)sizeof no, tide_datatype_get(MPI_BYTE), 0, conv, pc, TIDE_CONTEXT_DPM, 0,
                                 &sr) == 0)
                tide_request_free(sr);
            if (pc)
                tide_comm_release(pc);
        }
        free(card);
        tide_unexpected_free(u);
        n++;
    }
    return n;
}

int tide_dpm_init(void)
{
    tide_context_reserve(TIDE_CONTEXT_DPM);
    tide_progress_register(refuse_closed_ports);
    return 0;
}
