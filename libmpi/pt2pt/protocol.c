/*
 * protocol.c: the point-to-point protocol (protocol.h).
 *
 * Sender: EAGER carries the data when it is at most the transport's eager
 * limit; otherwise RTS announces it. With a single-copy transport the RTS
 * lists the sender's buffer and the receiver reads it directly, then says
 * FIN; otherwise the receiver answers CTS and the sender streams DATA.
 * MPI_Ssend's eager message asks for an ACK when it is matched.
 * Receiver: an arriving envelope matches the first posted receive that
 * fits, or waits in the unexpected queue.
 * Messages that a transport cannot take at the moment wait in a per-peer
 * queue, and every later message to that peer waits behind them, so the
 * order of messages between two processes is always the order of sends.
 */
#include "runtime/api.h"
#include "pt2pt/protocol.h"
#include "pt2pt/protocol_internal.h"
#include "pt2pt/bsend.h"
#include "pt2pt/match.h"
#include "pt2pt/progress.h"
#include "pt2pt/request.h"
#include "pt2pt/sender_check.h"
#include "comm/comm.h"
#include "comm/comm_fault.h"
#include "coll/coll_notice.h"
#include "ft/ft.h"
#include "mpi-ext.h"
#include "runtime/proc.h"
#include "transport/transport.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum pend_kind { PEND_START, PEND_CTRL, PEND_DATA };

struct tide_pending {
    struct tide_pending *next;
    int kind;
    struct tide_request *req;
    struct tide_hdr hdr;
};

static struct tide_proc *pend_list; /* processes with waiting messages */
static struct tide_pending *pend_free;

#define GET_MAX_IOV 64
#define ZC_FRAME (64u << 20) /* largest zero-copy DATA frame */
/* Gets at least this large are shared with the sender: from SPLIT_MIN
 * when this process sends nothing large itself (the sender is likely
 * waiting idle), from SPLIT_MIN_BUSY when it does (both sides copy
 * already: exchanges, bidirectional streams; below 1 MiB the extra round
 * trip costs more than sharing gains there). Never when ranks outnumber
 * cores: there the sender's half waits until it is scheduled, and a
 * sender with several receivers (a broadcast's root) would copy for all
 * of them on its one core. */
#define SPLIT_MIN (64 * 1024)
#define SPLIT_MIN_BUSY (1024 * 1024)

static int start_split(struct tide_request *r, struct tide_proc *from, const struct iovec *riov, int nr, size_t n,
                       uint64_t sreq);

/* The single-copy reads of one burst of messages from one process (a
 * transport's delivery pass, tide_protocol_burst_begin/end): contiguous
 * reads up to BURST_GET_MAX bytes are gathered and done with one call at
 * the end of the pass, so a stream of rendezvous messages (a window of
 * nonblocking sends) costs one system call per pass instead of one per
 * message. */
#define BURST_GETS 64
#define BURST_GET_MAX (128 * 1024)
static struct {
    int depth;
    int n;
    struct tide_proc *from;
    struct tide_request *req[BURST_GETS];
    struct iovec local[BURST_GETS], remote[BURST_GETS];
} burst;

static void burst_flush(void);
static bool burst_add(struct tide_request *r, struct tide_proc *from, void *remote, size_t n);
static void get_finish(struct tide_request *r, struct tide_proc *from, int rc);
static void ask_for_data(struct tide_request *r, struct tide_proc *from);

/* Is r a request with `from` (a message naming r by its id must come
 * from the process r talks to; anything else is dropped)? */
static inline bool bound_to(const struct tide_request *r, const struct tide_proc *from, const struct tide_hdr *h)
{
    if (__builtin_expect(r->proc == from, 1))
        return true;
    if (tide.tuning.verbose > 0)
        fprintf(stderr, "tide[%u]: dropped a message of type %d from %.64s:%u naming a request it has no part in\n",
                tide.rank, h->type, from->nspace, from->rank);
    return false;
}

/* ---- per-peer queues ---- */

static struct tide_pending *pend_new(int kind, struct tide_request *req)
{
    struct tide_pending *p = pend_free;
    if (p)
        pend_free = p->next;
    else if (!(p = malloc(sizeof *p)))
        return NULL;
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->req = req;
    return p;
}

static void pend_push(struct tide_proc *proc, struct tide_pending *p)
{
    p->next = NULL;
    if (proc->pend_tail)
        proc->pend_tail->next = p;
    else
        proc->pend_head = p;
    proc->pend_tail = p;
    if (!proc->on_pend_list) {
        proc->on_pend_list = true;
        proc->pend_next = pend_list;
        pend_list = proc;
    }
}

bool tide_protocol_has_pending(void)
{
    return pend_list != NULL;
}

bool tide_protocol_output_queued(const struct tide_proc *p)
{
    return p->on_pend_list;
}

static struct tide_transport *tx_of(struct tide_proc *p)
{
    return p->tx ? p->tx : tide_transport_for(p);
}

/* Send a control message, or queue it behind what is waiting. */
static void send_ctrl(struct tide_proc *to, const struct tide_hdr *h)
{
    struct tide_transport *tx = tx_of(to);
    if (!tx)
        return;
    if (!to->pend_head && tx->send(to, h, NULL, 0, NULL, 0) == 0)
        return;
    struct tide_pending *p = pend_new(PEND_CTRL, NULL);
    if (!p)
        return;
    p->hdr = *h;
    pend_push(to, p);
}

static void fill_envelope(struct tide_hdr *h, const struct tide_request *req)
{
    h->flags = req->sealed ? TIDE_MSGF_SEALED : 0;
    h->niov = 0;
    h->ctx = req->ctx;
    h->src = req->comm->rank;
    h->tag = req->tag;
    h->len = req->bytes;
    h->sreq = req->id;
    h->aux = 0;
}

/* ---- copying between convertors (sends to oneself) ---- */

size_t tide_copy_conv(struct tide_convertor *dst, struct tide_convertor *src, size_t n)
{
    if (n == 0) /* the buffers may be NULL */
        return 0;
    if (dst->dt->contig && src->dt->contig) {
        memcpy(dst->buf + dst->dt->true_lb + dst->pos, src->buf + src->dt->true_lb + src->pos, n);
        dst->pos += n;
        src->pos += n;
        return n;
    }
    char bounce[16384];
    size_t done = 0;
    while (done < n) {
        size_t want = n - done < sizeof bounce ? n - done : sizeof bounce;
        size_t got = tide_conv_pack(src, bounce, want);
        if (got == 0)
            break;
        tide_conv_unpack(dst, bounce, got);
        done += got;
    }
    return done;
}

/* ---- receive side ---- */

static int truncation_error(size_t len, size_t bytes, int src, int tag)
{
    return tide_err(MPI_ERR_TRUNCATE,
                    "message truncated: %zu bytes arrived for a receive of %zu bytes (source %d, tag %d)", len,
                    bytes, src, tag);
}

struct tide_msg_counters tide_msg_counters;

static void recv_finish_status(struct tide_request *r, struct tide_proc *from, int src, int tag, size_t len)
{
    tide_msg_counters.msgs_received++;
    tide_msg_counters.bytes_received += len;
    r->proc = from;
    r->status.MPI_SOURCE = src;
    r->status.MPI_TAG = tag;
    size_t n = len < r->bytes ? len : r->bytes;
    r->status.tide_nbytes = (MPI_Count)n;
    if (len > r->bytes) {
        r->truncated = true;
        r->error = truncation_error(len, r->bytes, src, tag);
    }
}

static void recv_setup(struct tide_request *r)
{
    r->bytes = (size_t)r->count * r->dt->size;
    tide_conv_init(&r->conv, r->dt, (size_t)r->count, r->buf);
}

/* Split the byte range [off, off+n) of a remote iovec list. */
static int slice_iov(const struct iovec *in, int nin, size_t off, size_t n, struct iovec *out, int max)
{
    int k = 0;
    for (int i = 0; i < nin && n > 0 && k < max; i++) {
        size_t l = in[i].iov_len;
        if (off >= l) {
            off -= l;
            continue;
        }
        size_t take = l - off < n ? l - off : n;
        out[k].iov_base = (char *)in[i].iov_base + off;
        out[k].iov_len = take;
        k++;
        n -= take;
        off = 0;
    }
    return k;
}

/* Receives whose type is made of small pieces are not read with one iovec
 * per piece, where the kernel's work per iovec outweighs the copy: below
 * an average of GET_STREAM_PIECE bytes the sender streams the message
 * (clear to send and DATA chunks, its copying overlapping our unpacking),
 * except when ranks outnumber cores; there, below GET_BOUNCE_PIECE bytes,
 * the sender's bytes are read in chunks of GET_BOUNCE_CHUNK into a buffer
 * and unpacked from it. Otherwise a read takes up to GET_LOCAL_IOV
 * iovecs (the kernel's limit). */
#define GET_STREAM_PIECE 2048
#define GET_BOUNCE_PIECE 128
#define GET_BOUNCE_CHUNK (256 * 1024)
#define GET_LOCAL_IOV 1024

static bool has_small_pieces(const struct tide_datatype *dt, size_t below)
{
    return !dt->contig && dt->npieces && dt->size / dt->npieces < below;
}

int tide_protocol_get_span(struct tide_proc *from, const struct iovec *riov, int nriov, size_t off, size_t n,
                           void *dst)
{
    struct tide_transport *tx = tx_of(from);
    if (!tx || !tx->get)
        return -EIO;
    size_t got = 0;
    while (got < n) {
        struct iovec rs[GET_MAX_IOV];
        int nr = slice_iov(riov, nriov, off + got, n - got, rs, GET_MAX_IOV);
        struct iovec l = {.iov_base = (uint8_t *)dst + got, .iov_len = n - got};
        long rc = tx->get(from, &l, 1, rs, nr);
        if (rc < 0)
            return (int)rc;
        if (rc == 0)
            return -EIO;
        got += (size_t)rc;
    }
    return 0;
}

static int do_get_bounced(struct tide_request *r, struct tide_proc *from, const struct iovec *riov, int nriov,
                          size_t off, size_t n)
{
    size_t cap = n < GET_BOUNCE_CHUNK ? n : GET_BOUNCE_CHUNK;
    uint8_t *buf = malloc(cap ? cap : 1);
    if (!buf)
        return -ENOMEM;
    tide_conv_seek(&r->conv, off);
    int rc = 0;
    for (size_t done = 0; done < n && rc == 0; done += cap) {
        size_t chunk = n - done < cap ? n - done : cap;
        rc = tide_protocol_get_span(from, riov, nriov, off + done, chunk, buf);
        if (rc == 0)
            tide_conv_unpack(&r->conv, buf, chunk);
    }
    free(buf);
    return rc;
}

/* Single-copy read of bytes [off, off + n) of the sender's buffer into the
 * receive. 0 or -errno. */
static int do_get(struct tide_request *r, struct tide_proc *from, const struct iovec *riov, int nriov,
                  size_t off, size_t n)
{
    if (has_small_pieces(r->dt, GET_BOUNCE_PIECE))
        return do_get_bounced(r, from, riov, nriov, off, n);
    struct tide_transport *tx = tx_of(from);
    size_t done = 0;
    tide_conv_seek(&r->conv, off);
    n += off;
    done = off;
    while (done < n) {
        struct iovec liov[GET_LOCAL_IOV], rs[GET_MAX_IOV];
        size_t bytes;
        int nl = tide_conv_iov(&r->conv, liov, GET_LOCAL_IOV, n - done, &bytes);
        if (nl <= 0 || bytes == 0)
            break;
        int nr = slice_iov(riov, nriov, done, bytes, rs, GET_MAX_IOV);
        size_t got = 0;
        while (got < bytes) {
            long rc = tx->get(from, liov, nl, rs, nr);
            if (rc < 0)
                return (int)rc;
            if (rc == 0)
                return -EIO;
            got += (size_t)rc;
            if (got < bytes) { /* partial: advance both lists */
                size_t skip = (size_t)rc;
                int i = 0;
                while (i < nl && skip >= liov[i].iov_len)
                    skip -= liov[i++].iov_len;
                memmove(liov, liov + i, (size_t)(nl - i) * sizeof *liov);
                nl -= i;
                liov[0].iov_base = (char *)liov[0].iov_base + skip;
                liov[0].iov_len -= skip;
                nr = slice_iov(riov, nriov, done + got, bytes - got, rs, GET_MAX_IOV);
            }
        }
        done += bytes;
    }
    return 0;
}

/* A matched message arrives for receive r (or was waiting for it). */
static void recv_matched(struct tide_request *r, struct tide_proc *from, int type, int flags, int src,
                         int tag, uint64_t len, uint64_t sreq, const void *data, size_t data_len,
                         int niov)
{
    recv_finish_status(r, from, src, tag, len);
    size_t n = len < r->bytes ? len : r->bytes;
    if (type == TIDE_MSG_EAGER) {
        tide_unpack_eager(&r->conv, data, n);
        if (flags & TIDE_MSGF_SYNC) {
            struct tide_hdr ack = {.type = TIDE_MSG_ACK, .sreq = sreq};
            send_ctrl(from, &ack);
        }
        tide_request_complete(r);
        return;
    }
    /* rendezvous */
    r->proc = from;
    r->remote = sreq;
    r->msg_len = len;
    r->done_bytes = 0;
    struct tide_transport *tx = tx_of(from);
    /* a receive of small pieces: the sender copies into the transport
     * while we unpack, two cores at work (unless the sender must first be
     * scheduled) */
    bool streamed = !tide.oversubscribed && has_small_pieces(r->dt, GET_STREAM_PIECE);
    if ((flags & TIDE_MSGF_GET) && tx && tx->can_get && !from->no_get && niov > 0 && !streamed &&
        data_len >= (size_t)niov * sizeof(struct iovec)) {
        struct iovec riov[GET_MAX_IOV];
        int nr = niov < GET_MAX_IOV ? niov : GET_MAX_IOV;
        memcpy(riov, data, (size_t)nr * sizeof *riov);
        size_t split_min = tide.oversubscribed            ? SIZE_MAX
                           : tide_rdv_sends_in_flight > 0 ? SPLIT_MIN_BUSY
                                                          : SPLIT_MIN;
        if (n >= split_min && from->get_ok && tx->put && start_split(r, from, riov, nr, n, sreq) == 0)
            return; /* completes when the sender has written its part */
        if (burst.depth && nr == 1 && n <= BURST_GET_MAX && riov[0].iov_len >= n &&
            burst_add(r, from, riov[0].iov_base, n))
            return; /* read at the end of the delivery pass */
        get_finish(r, from, do_get(r, from, riov, nr, 0, n));
        return;
    }
    ask_for_data(r, from);
}

/* Rendezvous without a single-copy read: clear to send, the data follows. */
static void ask_for_data(struct tide_request *r, struct tide_proc *from)
{
    r->state = TIDE_RS_RECEIVING;
    struct tide_hdr cts = {.type = TIDE_MSG_CTS, .sreq = r->remote, .aux = r->id};
    send_ctrl(from, &cts);
}

/* A single-copy read of receive r ended with rc (0 or -errno). */
static void get_finish(struct tide_request *r, struct tide_proc *from, int rc)
{
    if (rc == 0) {
        from->get_ok = true;
        struct tide_hdr fin = {.type = TIDE_MSG_FIN, .sreq = r->remote};
        send_ctrl(from, &fin);
        tide_request_complete(r);
        return;
    }
    /* not allowed to read that process: fall back to DATA for good */
    from->no_get = true;
    tide_conv_seek(&r->conv, 0);
    ask_for_data(r, from);
}

/* Gather the read of n bytes at remote into receive r (contiguous there
 * too), for the end of the pass. False if r's buffer is not one piece. */
static bool burst_add(struct tide_request *r, struct tide_proc *from, void *remote, size_t n)
{
    struct iovec liov;
    size_t bytes;
    tide_conv_seek(&r->conv, 0);
    if (tide_conv_iov(&r->conv, &liov, 1, n, &bytes) != 1 || bytes != n)
        return false;
    if (burst.n && (burst.from != from || burst.n == BURST_GETS))
        burst_flush();
    burst.from = from;
    burst.req[burst.n] = r;
    burst.local[burst.n] = liov;
    burst.remote[burst.n] = (struct iovec){.iov_base = remote, .iov_len = n};
    burst.n++;
    return true;
}

/* Do the gathered reads: one call for all; a read it did not finish is
 * done again on its own (which also finds out why). */
static void burst_flush(void)
{
    int n = burst.n;
    if (!n)
        return;
    /* completions below may start new reads (callbacks): work on a copy */
    struct tide_request *req[BURST_GETS];
    struct iovec local[BURST_GETS], remote[BURST_GETS];
    memcpy(req, burst.req, (size_t)n * sizeof *req);
    memcpy(local, burst.local, (size_t)n * sizeof *local);
    memcpy(remote, burst.remote, (size_t)n * sizeof *remote);
    burst.n = 0;
    struct tide_proc *from = burst.from;
    struct tide_transport *tx = tx_of(from);
    long got = tx ? tx->get(from, local, n, remote, n) : -EIO;
    size_t left = got > 0 ? (size_t)got : 0;
    for (int i = 0; i < n; i++) {
        size_t len = local[i].iov_len;
        if (left >= len) {
            left -= len;
            get_finish(req[i], from, 0);
        } else {
            left = 0;
            get_finish(req[i], from, do_get(req[i], from, &remote[i], 1, 0, len));
        }
    }
}

void tide_protocol_burst_begin(void)
{
    burst.depth++;
}

void tide_protocol_burst_end(void)
{
    if (--burst.depth == 0)
        burst_flush();
}

/* A large get shared between both sides: ask the sender to write the
 * second part into our buffer while we read the first. */
static int start_split(struct tide_request *r, struct tide_proc *from, const struct iovec *riov, int nr, size_t n,
                       uint64_t sreq)
{
    size_t half = (n / 2) & ~(size_t)4095;
    struct iovec liov[GET_MAX_IOV];
    size_t bytes;
    tide_conv_seek(&r->conv, half);
    int nl = tide_conv_iov(&r->conv, liov, GET_MAX_IOV, n - half, &bytes);
    tide_conv_seek(&r->conv, 0);
    if (nl <= 0 || bytes != n - half)
        return -1;
    r->riov = malloc((size_t)nr * sizeof *riov);
    if (!r->riov)
        return -1;
    memcpy(r->riov, riov, (size_t)nr * sizeof *riov);
    r->nriov = nr;
    uint8_t extra[8 + GET_MAX_IOV * sizeof(struct iovec)];
    uint64_t off = half;
    memcpy(extra, &off, 8);
    memcpy(extra + 8, liov, (size_t)nl * sizeof *liov);
    struct tide_hdr put = {.type = TIDE_MSG_PUT, .niov = (uint16_t)nl, .len = n - half, .sreq = sreq, .aux = r->id};
    struct tide_transport *tx = tx_of(from);
    if (from->pend_head || tx->send(from, &put, extra, 8 + (size_t)nl * sizeof *liov, NULL, 0) != 0) {
        free(r->riov);
        r->riov = NULL;
        return -1;
    }
    r->split = 2;
    r->split_off = half;
    r->state = TIDE_RS_RECEIVING;
    if (do_get(r, from, riov, nr, 0, half) != 0)
        r->error = tide_err(MPI_ERR_OTHER, "receive: cannot read the sender's memory");
    return 0;
}

/* The sender wrote its part (or could not): finish the receive. */
static void put_done(struct tide_proc *from, const struct tide_hdr *h)
{
    struct tide_request *r = tide_request_by_id(h->aux);
    if (!r || r->split != 2 || !bound_to(r, from, h))
        return;
    r->split = 0;
    size_t n = r->bytes < r->msg_len ? r->bytes : r->msg_len;
    if (h->len != n - r->split_off && r->error == MPI_SUCCESS &&
        do_get(r, r->proc, r->riov, r->nriov, r->split_off, n - r->split_off) != 0)
        r->error = tide_err(MPI_ERR_OTHER, "receive: cannot read the sender's memory");
    free(r->riov);
    r->riov = NULL;
    struct tide_hdr fin = {.type = TIDE_MSG_FIN, .sreq = r->remote};
    send_ctrl(r->proc, &fin);
    tide_request_complete(r);
}

/* Sender: write the part the receiver asked for straight into its buffer. */
static void do_put(struct tide_proc *from, const struct tide_hdr *h, const void *payload, size_t plen)
{
    struct tide_request *s = tide_request_by_id(h->sreq);
    if (s && !bound_to(s, from, h))
        return;
    struct tide_hdr done = {.type = TIDE_MSG_PUT_DONE, .aux = h->aux, .len = 0};
    struct tide_transport *tx = tx_of(from);
    if (s && s->state == TIDE_RS_WAIT_FIN && tx && tx->put && h->niov > 0 && h->niov <= GET_MAX_IOV &&
        plen == 8 + (size_t)h->niov * sizeof(struct iovec)) {
        uint64_t off;
        struct iovec riov[GET_MAX_IOV];
        memcpy(&off, payload, 8);
        memcpy(riov, (const uint8_t *)payload + 8, (size_t)h->niov * sizeof *riov);
        if (off <= s->bytes && h->len <= s->bytes - off) {
            size_t written = 0;
            tide_conv_seek(&s->conv, off);
            while (written < h->len) {
                struct iovec liov[256], rs[256];
                size_t bytes;
                int nl = tide_conv_iov(&s->conv, liov, 256, h->len - written, &bytes);
                if (nl <= 0)
                    break;
                int nr = slice_iov(riov, h->niov, written, bytes, rs, 256);
                long rc = tx->put(from, liov, nl, rs, nr);
                if (rc != (long)bytes)
                    break; /* partial or refused: the receiver reads the rest */
                written += bytes;
            }
            if (written == h->len)
                done.len = written;
        }
    }
    send_ctrl(from, &done);
}

static void self_send_done(struct tide_request *s)
{
    tide_request_complete(s);
}

/* r is an operation of a revoked collective context (not an error
 * notice): it gets its error and is not started. */
static bool revoked_coll(struct tide_request *r)
{
    if (!tide_ctx_is_coll(r->ctx) || !tide_ctx_revoked_tag(r->ctx, r->tag))
        return false;
    r->error = tide_coll_revoked_error(r->ctx);
    r->status.MPI_ERROR = r->error;
    return true;
}

/* Receive r takes unexpected message u. */
void tide_recv_unexpected(struct tide_request *r, struct tide_unexpected *u)
{
    if (u->self_sreq) {
        struct tide_request *s = u->self_sreq;
        recv_finish_status(r, tide.me, u->src, u->tag, u->len);
        size_t n = u->len < r->bytes ? u->len : r->bytes;
        tide_conv_seek(&s->conv, 0);
        tide_copy_conv(&r->conv, &s->conv, n);
        tide_request_complete(r);
        self_send_done(s);
    } else {
        recv_matched(r, u->from, u->type, u->flags, u->src, u->tag, u->len, u->sreq, u->data,
                     u->data_len, u->niov);
    }
    tide_unexpected_free(u);
}

int tide_recv_start(struct tide_request *r)
{
    r->complete = false;
    r->cancelled = false;
    r->truncated = false;
    r->error = MPI_SUCCESS;
    tide_status_empty(&r->status);
    if (r->peer == MPI_PROC_NULL) {
        r->status.MPI_SOURCE = MPI_PROC_NULL;
        r->status.MPI_TAG = MPI_ANY_TAG;
        r->status.tide_nbytes = 0;
        tide_request_complete(r);
        return MPI_SUCCESS;
    }
    if (__builtin_expect(tide_comm_faults, 0) && (revoked_coll(r) || tide_ft_refuse_op(r))) {
        tide_request_complete(r);
        return MPI_SUCCESS;
    }
    recv_setup(r);
    struct tide_matchq *q = tide_matchq_get(r->ctx);
    if (!q)
        return tide_err(MPI_ERR_NO_MEM, "receive: out of memory");
    struct tide_unexpected *u = tide_match_find_unexpected(q, r->peer, r->tag, true);
    if (u) {
        tide_recv_unexpected(r, u);
        return MPI_SUCCESS;
    }
    r->state = TIDE_RS_POSTED;
    tide_match_post(q, r);
    return MPI_SUCCESS;
}

/* A blocking receive straight from an eager message that has already
 * arrived: no request. -1 when it needs one (nothing there yet, a
 * rendezvous, a synchronous send, a send to ourselves). */
int tide_recv_immediate(void *buf, MPI_Count count, struct tide_datatype *dt, int source, int tag, uint32_t ctx,
                        MPI_Status *status)
{
    struct tide_matchq *q = tide_matchq_find(ctx);
    if (!q || !q->nunexpected || source == MPI_PROC_NULL)
        return -1;
    struct tide_unexpected *u = tide_match_find_unexpected(q, source, tag, false);
    if (!u || u->type != TIDE_MSG_EAGER || (u->flags & TIDE_MSGF_SYNC) || u->self_sreq)
        return -1;
    tide_match_remove(q, u);
    tide_msg_counters.msgs_received++;
    tide_msg_counters.bytes_received += u->len;
    size_t bytes = (size_t)count * dt->size, n = u->len < bytes ? u->len : bytes;
    int rc = MPI_SUCCESS;
    if (u->len > bytes)
        rc = truncation_error((size_t)u->len, bytes, u->src, u->tag);
    struct tide_convertor cv;
    tide_conv_init(&cv, dt, (size_t)count, buf);
    tide_unpack_eager(&cv, u->data, n);
    if (status != MPI_STATUS_IGNORE && status) {
        status->MPI_SOURCE = u->src;
        status->MPI_TAG = u->tag;
        status->tide_cancelled = 0;
        status->tide_nbytes = (MPI_Count)n;
    }
    tide_unexpected_free(u);
    return rc;
}

/* ---- send side ---- */

static inline size_t chunk_for(const struct tide_proc *p, const struct tide_transport *tx)
{
    return p->msg_max && p->msg_max < tx->max_chunk ? p->msg_max : tx->max_chunk;
}

/* Try to put the send out: 0 done (or waiting for an answer), 1 busy, <0 error */
static int send_try(struct tide_request *s)
{
    /* queued here when its communicator was revoked or its receiver
     * failed: it would wait for an answer that will not come (the
     * revocation ended only the sends already waiting) */
    if (__builtin_expect(tide_comm_faults, 0) && (revoked_coll(s) || tide_ft_refuse_op(s))) {
        tide_request_complete(s);
        return 0;
    }
    struct tide_transport *tx = s->tx;
    struct tide_hdr h;
    fill_envelope(&h, s);
    if (tide_goes_eager(s->proc, tx, s->ctx, s->bytes)) {
        h.type = TIDE_MSG_EAGER;
        if (s->mode == TIDE_MODE_SYNC)
            h.flags |= TIDE_MSGF_SYNC;
        tide_conv_seek(&s->conv, 0);
        int rc = tx->send(s->proc, &h, NULL, 0, &s->conv, s->bytes);
        if (rc != 0)
            return rc;
        if (s->mode == TIDE_MODE_SYNC)
            s->state = TIDE_RS_WAIT_ACK;
        else
            tide_request_complete(s);
        return 0;
    }
    h.type = TIDE_MSG_RTS;
    struct iovec iov[GET_MAX_IOV];
    size_t extra_len = 0;
    if (tx->can_get && !s->proc->no_get) {
        size_t bytes;
        tide_conv_seek(&s->conv, 0);
        int n = tide_conv_iov(&s->conv, iov, GET_MAX_IOV, s->bytes, &bytes);
        if (n > 0 && bytes == s->bytes) {
            h.flags |= TIDE_MSGF_GET;
            h.niov = (uint16_t)n;
            extra_len = (size_t)n * sizeof(struct iovec);
        }
        tide_conv_seek(&s->conv, 0);
    }
    int rc = tx->send(s->proc, &h, extra_len ? iov : NULL, extra_len, NULL, 0);
    if (rc != 0)
        return rc;
    s->state = (h.flags & TIDE_MSGF_GET) ? TIDE_RS_WAIT_FIN : TIDE_RS_WAIT_CTS;
    tide_request_count_rdv(s);
    return 0;
}

static void zc_done(void *arg)
{
    struct tide_request *s = arg;
    if (--s->zc_pending == 0 && s->done_bytes >= s->bytes)
        tide_request_complete(s);
}

/* Stream DATA for a rendezvous send after CTS. 0 done, 1 busy. */
static int send_data(struct tide_request *s)
{
    struct tide_transport *tx = s->tx;
    uint8_t flags = s->sealed ? TIDE_MSGF_SEALED : 0;
    if (tx->send_zc && s->dt->contig && !s->sealed) {
        /* frames written straight from the user's buffer */
        while (s->done_bytes < s->bytes) {
            size_t len = s->bytes - s->done_bytes;
            if (len > ZC_FRAME)
                len = ZC_FRAME;
            struct tide_hdr h = {.type = TIDE_MSG_DATA, .len = len, .sreq = s->done_bytes, .aux = s->remote};
            tide_conv_seek(&s->conv, s->done_bytes);
            s->zc_pending++;
            int rc = tx->send_zc(s->proc, &h, &s->conv, len, zc_done, s);
            if (rc != 0) {
                s->zc_pending--;
                return rc;
            }
            s->done_bytes += len;
        }
        if (s->zc_pending == 0)
            tide_request_complete(s);
        return 0;
    }
    while (s->done_bytes < s->bytes) {
        size_t chunk = s->bytes - s->done_bytes;
        size_t most = chunk_for(s->proc, tx);
        if (chunk > most)
            chunk = most;
        struct tide_hdr h = {
            .type = TIDE_MSG_DATA, .flags = flags, .len = chunk, .sreq = s->done_bytes, .aux = s->remote};
        tide_conv_seek(&s->conv, s->done_bytes);
        int rc = tx->send(s->proc, &h, NULL, 0, &s->conv, chunk);
        if (rc != 0)
            return rc;
        s->done_bytes += chunk;
    }
    tide_request_complete(s);
    return 0;
}

/* A send to another endpoint of this process on a context with an
 * arrival handler (a window's): the handler sees it first, as it sees
 * messages from other processes; true when it took it (then s is
 * complete). A rank's messages to itself are left to matching, whose
 * waits run the progress engine (a rank spinning on a window of its own
 * keeps the others' operations moving). */
static bool self_arrival(struct tide_matchq *q, struct tide_request *s)
{
    if (s->mode == TIDE_MODE_SYNC || s->bytes > tide.tuning.self_eager_limit) {
        /* announced as a large message is: it then waits for a receive */
        return q->arrival(q->arrival_arg, s->comm->rank, s->tag, false, NULL, 0);
    }
    void *copy = malloc(s->bytes ? s->bytes : 1);
    if (!copy)
        return false;
    struct tide_convertor cv;
    tide_conv_init(&cv, s->dt, (size_t)s->count, s->buf);
    tide_conv_pack(&cv, copy, s->bytes);
    bool taken = q->arrival(q->arrival_arg, s->comm->rank, s->tag, true, copy, s->bytes);
    free(copy);
    if (taken)
        tide_request_complete(s);
    return taken;
}

static int send_to_self(struct tide_request *s)
{
    struct tide_matchq *q = tide_matchq_get(s->ctx);
    if (!q)
        return tide_err(MPI_ERR_NO_MEM, "send: out of memory");
    if (__builtin_expect(q->arrival != NULL, 0) && s->peer != s->comm->rank && self_arrival(q, s))
        return MPI_SUCCESS;
    struct tide_request *r = tide_match_take_posted(q, s->comm->rank, s->tag);
    if (r) {
        recv_finish_status(r, tide.me, s->comm->rank, s->tag, s->bytes);
        size_t n = s->bytes < r->bytes ? s->bytes : r->bytes;
        tide_copy_conv(&r->conv, &s->conv, n);
        tide_request_complete(r);
        tide_request_complete(s);
        return MPI_SUCCESS;
    }
    bool buffer = s->mode != TIDE_MODE_SYNC && s->bytes <= tide.tuning.self_eager_limit;
    struct tide_unexpected *u = tide_unexpected_new(buffer ? s->bytes : 0);
    if (!u)
        return tide_err(MPI_ERR_NO_MEM, "send: out of memory");
    u->ctx = s->ctx;
    u->src = s->comm->rank;
    u->tag = s->tag;
    u->from = tide.me;
    u->type = TIDE_MSG_EAGER;
    u->len = s->bytes;
    u->sreq = s->id;
    if (buffer) {
        tide_conv_pack(&s->conv, u->data, s->bytes);
        tide_match_add_unexpected(q, u);
        tide_request_complete(s);
    } else {
        u->self_sreq = s; /* copied when a receive matches */
        tide_match_add_unexpected(q, u);
    }
    return MPI_SUCCESS;
}

int tide_send_start(struct tide_request *s)
{
    s->complete = false;
    s->cancelled = false;
    s->status.tide_cancelled = 0; /* a persistent send's previous round may have been cancelled */
    s->error = MPI_SUCCESS;
    s->done_bytes = 0;
    if (s->peer == MPI_PROC_NULL) {
        tide_request_complete(s);
        return MPI_SUCCESS;
    }
    if (__builtin_expect(tide_comm_faults, 0) && (revoked_coll(s) || tide_ft_refuse_op(s))) {
        tide_request_complete(s);
        return MPI_SUCCESS;
    }
    s->bytes = (size_t)s->count * s->dt->size;
    tide_msg_counters.msgs_sent++;
    tide_msg_counters.bytes_sent += s->bytes;
    tide_conv_init(&s->conv, s->dt, (size_t)s->count, s->buf);
    s->proc = s->comm->peers[s->peer];
    s->state = TIDE_RS_POSTED;
    if (s->proc == tide.me)
        return send_to_self(s);
    s->tx = tx_of(s->proc);
    if (!s->tx)
        return tide_err(MPI_ERR_OTHER, "send: no transport can reach rank %d (%s:%u)", s->peer,
                        s->proc->nspace, s->proc->rank);
    if (!s->proc->pend_head) {
        int rc = send_try(s);
        if (rc <= 0)
            return rc == 0 ? MPI_SUCCESS
                           : tide_err(MPIX_ERR_PROC_FAILED, "send: the connection to rank %d failed", s->peer);
    }
    struct tide_pending *p = pend_new(PEND_START, s);
    if (!p)
        return tide_err(MPI_ERR_NO_MEM, "send: out of memory");
    pend_push(s->proc, p);
    return MPI_SUCCESS;
}

/* An eager message put out now if the transport takes it (nothing queued
 * before it, within the eager limit): its process and transport, or
 * NULL. sreq names the sender's request (0: none). */
/* Inlined into both callers: a layer less on the path of every small message. */
static inline __attribute__((always_inline)) struct tide_proc *
eager_now(const void *prefix, size_t prefix_len, const void *buf, MPI_Count count, struct tide_datatype *dt, int dest,
          int tag, struct tide_comm *comm, uint32_t ctx, uint64_t sreq, struct tide_transport **txp)
{
    struct tide_proc *p = comm->peers[dest];
    if (p == tide.me || p->pend_head)
        return NULL;
    /* a revoked context, a failed process: the request path gives the error */
    if (__builtin_expect(tide_comm_faults != 0, 0))
        return NULL;
    struct tide_transport *tx = p->tx ? p->tx : tx_of(p);
    size_t bytes = (size_t)count * dt->size + prefix_len;
    if (!tx || !tide_goes_eager(p, tx, ctx, bytes))
        return NULL;
    struct tide_hdr h = {.type = TIDE_MSG_EAGER, .ctx = ctx, .src = comm->rank, .tag = tag, .len = bytes,
                         .sreq = sreq};
    int rc;
    if (prefix_len) {
        /* the prefix as the header's extra data, the buffer after it */
        struct tide_convertor cv;
        tide_conv_init(&cv, dt, (size_t)count, buf);
        rc = tx->send(p, &h, prefix, prefix_len, &cv, bytes - prefix_len);
    } else if (dt->contig) {
        /* the bytes go as they are, as the header's extra data */
        rc = tx->send(p, &h, (const void *)((uintptr_t)buf + (uintptr_t)dt->true_lb), bytes, NULL, 0);
    } else {
        struct tide_convertor cv;
        tide_conv_init(&cv, dt, (size_t)count, buf);
        rc = tx->send(p, &h, NULL, 0, &cv, bytes);
    }
    if (rc != 0)
        return NULL;
    tide_msg_counters.msgs_sent++;
    tide_msg_counters.bytes_sent += bytes;
    *txp = tx;
    return p;
}

int tide_send_immediate(const void *buf, MPI_Count count, struct tide_datatype *dt, int dest, int tag,
                        struct tide_comm *comm, uint32_t ctx)
{
    struct tide_transport *tx;
    return eager_now(NULL, 0, buf, count, dt, dest, tag, comm, tide_comm_send_ctx(comm, dest, ctx), 0, &tx) != NULL;
}

int tide_send_immediate_prefixed(const void *prefix, size_t prefix_len, const void *buf, MPI_Count count,
                                 struct tide_datatype *dt, int dest, int tag, struct tide_comm *comm, uint32_t ctx)
{
    struct tide_transport *tx;
    return eager_now(prefix, prefix_len, buf, count, dt, dest, tag, comm, tide_comm_send_ctx(comm, dest, ctx), 0,
                     &tx) != NULL;
}

int tide_isend_eager_now(struct tide_request *r, const void *buf, MPI_Count count, struct tide_datatype *dt, int dest,
                         int tag, struct tide_comm *comm, uint32_t ctx, int mode)
{
    struct tide_transport *tx;
    struct tide_proc *p = eager_now(NULL, 0, buf, count, dt, dest, tag, comm, ctx, r->id, &tx);
    if (!p)
        return 0;
    tide_request_eager_sent(r, mode, dest, tag, ctx, p, tx, (size_t)count * dt->size);
    return 1;
}

/* ---- arrivals ---- */

static void incoming_envelope(struct tide_proc *from, const struct tide_hdr *h, const void *payload,
                              size_t plen)
{
    /* a collective's error notice, or a message for a revoked collective
     * context (nobody will receive it): coll/coll_notice.c takes it */
    if (__builtin_expect(h->tag < 0 || tide_comm_faults, 0)) {
        if (tide_ctx_is_coll(h->ctx) ? tide_coll_arrival(from, h->ctx, h->src, h->tag, payload, plen)
                                     : tide_ctx_revoked(h->ctx))
            return; /* taken here, or for a revoked communicator (MPIX_Comm_revoke) */
    }
    struct tide_matchq *q = tide_matchq_get(h->ctx);
    if (!q)
        return;
    if (q->arrival && q->arrival(q->arrival_arg, h->src, h->tag, h->type == TIDE_MSG_EAGER, payload, plen))
        return;
    struct tide_request *r = q->posted_head ? tide_match_take_posted(q, h->src, h->tag) : NULL;
    if (r) {
        recv_matched(r, from, h->type, h->flags, h->src, h->tag, h->len, h->sreq, payload, plen, h->niov);
        return;
    }
    struct tide_unexpected *u = tide_unexpected_new(plen);
    if (!u)
        return;
    tide_unexpected_fill(u, from, h, payload, plen);
    tide_match_add_unexpected(q, u);
}

void tide_protocol_incoming_eager(struct tide_proc *from, uint32_t ctx, int32_t src, int32_t tag, uint64_t sreq,
                                  const void *payload, size_t plen)
{
    /* the common case, a posted receive waiting for it, straight there;
     * the rest (collectives' and windows' contexts, failures, other
     * universes, no receive) as incoming_envelope does it */
    struct tide_matchq *q;
    struct tide_request *r;
    if (__builtin_expect(tag >= 0 && !tide_comm_faults && tide_sender_trusted(from), 1) &&
        (q = tide_matchq_find(ctx)) && !q->arrival && q->posted_head && (r = tide_match_take_posted(q, src, tag))) {
        if (__builtin_expect(plen > r->bytes || r->kind != TIDE_REQ_RECV || r->cancel_pending || r->on_complete ||
                                 r->user_freed || r->rdv_counted,
                             0)) {
            recv_matched(r, from, TIDE_MSG_EAGER, 0, src, tag, plen, sreq, payload, plen, 0);
            return;
        }
        /* recv_matched and tide_request_complete of a plain receive */
        tide_msg_counters.msgs_received++;
        tide_msg_counters.bytes_received += plen;
        r->proc = from;
        r->status.MPI_SOURCE = src;
        r->status.MPI_TAG = tag;
        r->status.tide_nbytes = (MPI_Count)plen;
        tide_unpack_eager(&r->conv, payload, plen);
        r->state = TIDE_RS_DONE;
        r->complete = true;
        if (__builtin_expect(tide_progress_sleepers, 0))
            tide_progress_wake_sleepers();
        return;
    }
    struct tide_hdr h = {.type = TIDE_MSG_EAGER, .ctx = ctx, .src = src, .tag = tag, .len = plen, .sreq = sreq};
    tide_protocol_incoming(from, &h, payload, plen);
}

static void incoming_data(struct tide_proc *from, const struct tide_hdr *h, const void *payload, size_t plen)
{
    struct tide_request *r = tide_request_by_id(h->aux);
    if (!r || r->state != TIDE_RS_RECEIVING || plen != h->len || !bound_to(r, from, h))
        return;
    uint64_t off = h->sreq;
    if (off < r->bytes) {
        size_t n = plen;
        if (off + n > r->bytes)
            n = r->bytes - off;
        if (r->conv.pos != off)
            tide_conv_seek(&r->conv, off);
        tide_conv_unpack(&r->conv, payload, n);
    }
    r->done_bytes += plen;
    if (r->done_bytes >= r->msg_len)
        tide_request_complete(r);
}

int tide_protocol_data_target(struct tide_proc *from, const struct tide_hdr *h, struct iovec *iov, int max)
{
    struct tide_request *r = tide_request_by_id(h->aux);
    if (!r || r->state != TIDE_RS_RECEIVING || r->proc != from || h->sreq + h->len > r->bytes ||
        h->sreq != r->done_bytes)
        return 0; /* truncation or out of order: the copying path handles it */
    tide_conv_seek(&r->conv, h->sreq);
    size_t bytes;
    int n = tide_conv_iov(&r->conv, iov, max, h->len, &bytes);
    if (n <= 0 || bytes != h->len) {
        tide_conv_seek(&r->conv, h->sreq);
        return 0;
    }
    return n;
}

void tide_protocol_data_arrived(struct tide_proc *from, const struct tide_hdr *h)
{
    struct tide_request *r = tide_request_by_id(h->aux);
    if (!r || r->state != TIDE_RS_RECEIVING || r->proc != from)
        return;
    r->done_bytes += h->len;
    if (r->done_bytes >= r->msg_len)
        tide_request_complete(r);
}

static void incoming_cancel(struct tide_proc *from, const struct tide_hdr *h)
{
    struct tide_matchq *q = tide_matchq_find(h->ctx);
    struct tide_unexpected *u = q ? tide_match_take_by_sender(q, from, h->sreq) : NULL;
    struct tide_hdr rep = {.type = TIDE_MSG_CANCEL_REPLY, .sreq = h->sreq, .aux = u != NULL};
    if (u)
        tide_unexpected_free(u);
    send_ctrl(from, &rep);
}

void tide_protocol_incoming(struct tide_proc *from, const struct tide_hdr *h, const void *payload,
                            size_t plen)
{
    struct tide_request *s;
    switch (h->type) {
    case TIDE_MSG_EAGER:
        if (plen != h->len)
            return;
        /* fall through */
    case TIDE_MSG_RTS:
        /* a process of another universe sends only where it is a member */
        if (!tide_sender_trusted(from) &&
            tide_sender_check_envelope(from, h, payload, plen) != TIDE_SENDER_ACCEPT)
            return;
        incoming_envelope(from, h, payload, plen);
        break;
    case TIDE_MSG_CTS:
        s = tide_request_by_id(h->sreq);
        if (!s || (s->state != TIDE_RS_WAIT_CTS && s->state != TIDE_RS_WAIT_FIN) || !bound_to(s, from, h))
            return;
        s->remote = h->aux;
        s->state = TIDE_RS_SENDING;
        s->done_bytes = 0;
        if (s->proc->pend_head || send_data(s) == 1) {
            struct tide_pending *p = pend_new(PEND_DATA, s);
            if (p)
                pend_push(s->proc, p);
        }
        break;
    case TIDE_MSG_DATA:
        incoming_data(from, h, payload, plen);
        break;
    case TIDE_MSG_FIN:
        s = tide_request_by_id(h->sreq);
        if (s && s->state == TIDE_RS_WAIT_FIN && bound_to(s, from, h))
            tide_request_complete(s);
        break;
    case TIDE_MSG_ACK:
        s = tide_request_by_id(h->sreq);
        if (s && s->state == TIDE_RS_WAIT_ACK && bound_to(s, from, h))
            tide_request_complete(s);
        break;
    case TIDE_MSG_CANCEL:
        incoming_cancel(from, h);
        break;
    case TIDE_MSG_PUT:
        do_put(from, h, payload, plen);
        break;
    case TIDE_MSG_PUT_DONE:
        put_done(from, h);
        break;
    case TIDE_MSG_CANCEL_REPLY:
        s = tide_request_by_id(h->sreq);
        if (!s || !s->cancel_pending || !bound_to(s, from, h))
            return;
        s->cancel_pending = false;
        if (h->aux) {
            s->cancelled = true;
            s->status.tide_cancelled = 1;
            tide_request_complete(s);
        } else if (s->state == TIDE_RS_DONE) {
            tide_request_complete(s);
        }
        break;
    default:
        break;
    }
}

/* ---- cancel ---- */

int tide_request_cancel(struct tide_request *r)
{
    if (r->complete && r->kind == TIDE_REQ_RECV)
        return MPI_SUCCESS; /* already received: cancel has no effect */
    if (r->kind == TIDE_REQ_RECV) {
        struct tide_matchq *q = tide_matchq_find(r->ctx);
        if (r->state == TIDE_RS_POSTED && q && tide_match_unpost(q, r)) {
            r->cancelled = true;
            r->status.tide_cancelled = 1;
            tide_request_complete(r);
        }
        return MPI_SUCCESS;
    }
    if (r->kind == TIDE_REQ_SEND && r->mode == TIDE_MODE_BUFFERED)
        return tide_bsend_cancel(r);
    if (r->kind != TIDE_REQ_SEND || r->peer == MPI_PROC_NULL || r->cancelled || r->cancel_pending)
        return MPI_SUCCESS;
    if (r->proc == tide.me) {
        struct tide_matchq *q = tide_matchq_find(r->ctx);
        struct tide_unexpected *u = q ? tide_match_take_by_sender(q, tide.me, r->id) : NULL;
        if (u) {
            tide_unexpected_free(u);
            r->cancelled = true;
            r->status.tide_cancelled = 1;
            r->complete = false;
            tide_request_complete(r);
        }
        return MPI_SUCCESS;
    }
    if (r->state == TIDE_RS_SENDING || r->state == TIDE_RS_POSTED)
        return MPI_SUCCESS; /* matched (data flowing) or still queued here: let it finish */
    /* ask the receiver to drop it if it has not been matched */
    r->cancel_pending = true;
    r->complete = false;
    struct tide_hdr h = {.type = TIDE_MSG_CANCEL, .ctx = r->ctx, .sreq = r->id};
    send_ctrl(r->proc, &h);
    return MPI_SUCCESS;
}

/* ---- progress of waiting messages ---- */

static int pend_run(struct tide_proc *proc, struct tide_pending *p)
{
    switch (p->kind) {
    case PEND_START:
        return send_try(p->req);
    case PEND_DATA:
        return send_data(p->req);
    case PEND_CTRL: {
        struct tide_transport *tx = tx_of(proc);
        return tx ? tx->send(proc, &p->hdr, NULL, 0, NULL, 0) : -1;
    }
    }
    return -1;
}

int tide_protocol_progress(void)
{
    if (!pend_list)
        return 0;
    int n = 0;
    struct tide_proc **pp = &pend_list;
    while (*pp) {
        struct tide_proc *proc = *pp;
        if (__builtin_expect(proc->failed, 0)) {
            /* queued for a failed process after it failed (answers to
             * its messages): they would wait for ever */
            *pp = proc->pend_next;
            proc->pend_next = NULL;
            proc->on_pend_list = false;
            tide_protocol_drop_peer(proc, tide_err(MPIX_ERR_PROC_FAILED, "send: the process %.64s:%u has failed",
                                                   proc->nspace, proc->rank));
            n++;
            continue;
        }
        while (proc->pend_head) {
            struct tide_pending *p = proc->pend_head;
            int rc = pend_run(proc, p);
            if (rc == 1)
                break;
            proc->pend_head = p->next;
            if (!proc->pend_head)
                proc->pend_tail = NULL;
            if (rc < 0 && p->req) {
                p->req->error = tide_err(MPIX_ERR_PROC_FAILED, "send: the connection to %s:%u failed",
                                         proc->nspace, proc->rank);
                tide_request_complete(p->req);
            }
            p->next = pend_free;
            pend_free = p;
            n++;
        }
        if (!proc->pend_head) {
            proc->on_pend_list = false;
            *pp = proc->pend_next;
        } else {
            pp = &proc->pend_next;
        }
    }
    return n;
}

void tide_protocol_drop_peer(struct tide_proc *proc, int err)
{
    while (proc->pend_head) {
        struct tide_pending *p = proc->pend_head;
        proc->pend_head = p->next;
        if (p->req && !p->req->complete) {
            p->req->error = err;
            p->req->status.MPI_ERROR = err;
            tide_request_complete(p->req);
        }
        p->next = pend_free;
        pend_free = p;
    }
    proc->pend_tail = NULL;
    if (proc->on_pend_list) {
        for (struct tide_proc **pp = &pend_list; *pp; pp = &(*pp)->pend_next)
            if (*pp == proc) {
                *pp = proc->pend_next;
                break;
            }
        proc->on_pend_list = false;
    }
}

int tide_protocol_init(void)
{
    return 0;
}

void tide_protocol_finalize(void)
{
    tide_sender_check_finalize();
    while (pend_free) {
        struct tide_pending *p = pend_free;
        pend_free = p->next;
        free(p);
    }
}
