/*
 * file_coll.c: collective data access (MPI_File_read_all, write_all, the
 * _at forms, the nonblocking and split forms) as one schedule of the
 * collective engine (coll/sched.h), run in the caller or advanced by the
 * progress engine.
 *
 * 1. Every rank turns its buffer into its stream (tide_io_mem_start) and
 *    the stream into file segments (tide_io_view_segments), and all ranks
 *    exchange their ranges [first offset, end), their errors so far and
 *    the hints that decide the plan (rank 0's are used, so every rank
 *    makes the same plan).
 * 2. If collective buffering is off for the direction, or automatic and
 *    no two ranks' ranges overlap, every rank does its own independent
 *    access (tide_io_rw).
 * 3. Otherwise two-phase I/O: cb_nodes aggregators spread evenly over the
 *    ranks each own one file domain (the global range cut in equal parts,
 *    their bounds on multiples of the striping unit when there is one).
 *    Every rank sends each aggregator the count and the list of its
 *    segments in that domain. A domain is handled in windows of
 *    cb_buffer_size bytes, one window per round (rounds are numbered by
 *    window, so every rank knows which of its messages go in which round
 *    without being told; a rank with nothing in a round skips it).
 *    Writing: each rank sends the slice of its stream a window holds
 *    (file order is stream order: it is one run), the aggregator
 *    assembles the window and writes the span its pieces cover with one
 *    pwrite; if the pieces leave holes in the span (or in atomic mode) it
 *    first locks the span exclusively and, for holes, reads it, before
 *    the pieces arrive, and unlocks after the write. Reading: the
 *    aggregator reads the span once (under a shared lock in atomic mode)
 *    and sends every rank its pieces, received straight into the rank's
 *    stream. Domains are disjoint, so aggregators never contend.
 * 4. All ranks exchange their outcome (error class, and where a read met
 *    the end of the file): an error anywhere is the result everywhere
 *    (an aggregator that failed writes nothing more but keeps exchanging
 *    messages, so nobody waits forever), and a read's count ends at the
 *    first byte of the stream that is not in the file, as an independent
 *    read's would.
 *
 * The caller has checked the arguments and counted the call; every rank
 * of the file's group must make it, with the same hints in force.
 */
#include "runtime/api.h"
#include "io/io.h"
#include "coll/algo.h"
#include "coll/sched.h"
#include "comm/comm.h"
#include "datatype/datatype.h"
#include "pt2pt/request.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* message steps of the phases (tags are tide_coll_tag(seq, step)) */
enum {
    STEP_RANGES = 0,
    STEP_COUNTS = TIDE_STEP_PHASE,
    STEP_LISTS = TIDE_STEP_PHASE + 1,
    STEP_DATA = TIDE_STEP_PHASE + 2,
    STEP_OUTCOME = 2 * TIDE_STEP_PHASE,
};

/* a window is never more than this, so every message fits an int count */
#define MAX_WINDOW ((size_t)1 << 30)

/* What each rank tells every other before the access. */
struct coll_range {
    int64_t lo, hi;          /* file range of its segments; lo == hi: none */
    int64_t err_class;       /* its error so far (0: none) */
    int64_t cb_mode;         /* its hints (rank 0's decide) */
    int64_t cb_nodes;
    int64_t cb_buffer_size;
    int64_t striping_unit;
    int64_t pad;
};

/* ... and after it. */
struct coll_outcome {
    int64_t err_class;
    int64_t eof; /* an aggregator's read met the end of the file here; INT64_MAX: never */
};

/* A segment list on the wire. */
struct wire_seg {
    int64_t off, len;
};

/* One of my segments cut at the domain bounds. */
struct my_piece {
    MPI_Offset off;
    size_t len;
    size_t soff; /* its first byte's place in my stream */
};

/* A rank's share of one window: the run of my stream it sends or receives. */
struct my_slice {
    int64_t round;
    int aggr;
    size_t soff, len;
};

/* An aggregator's window: pieces of every rank. A rank whose data in
 * the window are one run sends (or gets) them straight from (or into)
 * the window buffer; the pieces of a rank with several runs go through
 * the staging buffer, rank after rank; the aggregator's own are copied
 * from (or to) its stream. */
enum { FROM_STAGE, FROM_DIRECT, FROM_OWN };
struct win_piece {
    MPI_Offset off;
    size_t len;
    int from;
    size_t at; /* FROM_STAGE: where in the staging buffer; FROM_OWN: in my stream */
};
struct win_source {
    int rank;
    bool direct;
    MPI_Offset off; /* direct: where its run starts in the file */
    size_t stage, len;
};
struct agg_window {
    int64_t round;
    MPI_Offset first, last; /* the span the pieces cover, holes included */
    bool holes;             /* the pieces do not cover all of it */
    struct win_piece *p;
    size_t np;
    struct win_source *src;
    int nsrc;
};

struct coll_op {
    struct tide_file *f;
    bool write, blocking;
    MPI_Offset sb;
    const char *fn;
    struct tide_io_mem m;
    bool mem_ok;
    struct tide_io_segs segs;
    struct tide_cv v;
    int err;                /* this rank's first error */
    bool two_phase;
    size_t done;            /* bytes moved by this rank */
    int result;             /* the outcome (blocking calls read it) */
    bool finished;
    MPI_Offset eof_seen;    /* lowest end of file my reads met */
    struct coll_range mine, *ranges;
    struct coll_outcome outcome, *outcomes;
    /* the plan (same on every rank) */
    int naggr, my_aggr;
    int *aggr_rank;
    MPI_Offset *dom_lo, *dom_hi, *dom_base;
    size_t window;
    bool atomic;
    /* as a sender */
    struct my_piece *pieces;
    size_t npieces;
    size_t *aggr_first;     /* pieces of aggregator a: [aggr_first[a], aggr_first[a + 1]) */
    int64_t *send_count;
    struct wire_seg *send_segs;
    /* as an aggregator */
    int64_t *recv_count;
    struct wire_seg **recv_segs;
    struct agg_window *wins;
    size_t nwins;
    char *winbuf, *stage;
    /* every block allocated for the operation */
    void **blocks;
    size_t nblocks, capblocks;
};

/* ---- memory of an operation ---- */

static void *op_alloc(struct coll_op *op, size_t bytes)
{
    if (op->nblocks == op->capblocks) {
        size_t ncap = op->capblocks ? op->capblocks * 2 : 16;
        void **n = realloc(op->blocks, ncap * sizeof *n);
        if (!n)
            return NULL;
        op->blocks = n;
        op->capblocks = ncap;
    }
    void *p = calloc(1, bytes ? bytes : 1);
    if (p)
        op->blocks[op->nblocks++] = p;
    return p;
}

/* Give back the memory side and segments (once). */
static void op_release_io(struct coll_op *op)
{
    tide_io_mem_free(&op->m); /* also after a failed start, which may leave a temporary */
    tide_io_segs_free(&op->segs);
}

static void op_free(struct coll_op *op)
{
    op_release_io(op);
    for (size_t i = 0; i < op->nblocks; i++)
        free(op->blocks[i]);
    free(op->blocks);
    free(op);
}

static void keep_err(struct coll_op *op, int code)
{
    if (code != MPI_SUCCESS && op->err == MPI_SUCCESS)
        op->err = code;
}

/* Out of memory in the middle of a running schedule: nothing sensible is
 * left to do but end it with the error. */
static bool nomem(struct tide_sched *s, struct coll_op *op, const void *p)
{
    if (p)
        return false;
    int e = tide_err(MPI_ERR_NO_MEM, "%s: out of memory for collective I/O", op->fn);
    keep_err(op, e);
    tide_sched_stop(s, e);
    return true;
}

/* ---- the outcome ---- */

static void finish(struct tide_sched *s, void *arg);

static int64_t class_of(int code)
{
    if (code == MPI_SUCCESS)
        return 0;
    int cls = tide_error_class_of(code);
    return cls > 0 ? cls : MPI_ERR_OTHER;
}

/* When the access is over: what this rank tells the others. */
static void set_outcome(struct tide_sched *s, void *arg)
{
    struct coll_op *op = arg;
    op->outcome.err_class = class_of(op->err);
    op->outcome.eof = op->eof_seen;
}

/* Every rank tells every other its error and the end of file it met. */
static void add_outcome_exchange(struct tide_sched *s, struct coll_op *op)
{
    tide_sched_fence(s);
    tide_sched_call(s, set_outcome, op);
    tide_allgather_build(s, &op->v, &op->outcome, sizeof op->outcome, tide_coll_byte(), op->outcomes,
                         sizeof op->outcome, tide_coll_byte(), TA_BRUCK, STEP_OUTCOME);
    tide_sched_fence(s);
    tide_sched_call(s, finish, op);
}

/* Stream bytes of my segments that lie before eof (a prefix: file order is
 * stream order). */
static size_t bytes_before(const struct tide_io_segs *segs, MPI_Offset eof)
{
    size_t n = 0;
    for (size_t i = 0; i < segs->n; i++) {
        const struct tide_io_seg *g = &segs->v[i];
        if (g->off >= eof)
            break;
        if (g->off + (MPI_Offset)g->len <= eof) {
            n += g->len;
        } else {
            n += (size_t)(eof - g->off);
            break;
        }
    }
    return n;
}

static void finish(struct tide_sched *s, void *arg)
{
    struct coll_op *op = arg;
    struct tide_file *f = op->f;
    int result = op->err;
    if (result == MPI_SUCCESS) {
        for (int r = 0; r < f->size; r++) {
            if (op->outcomes[r].err_class != 0) {
                result = tide_err((int)op->outcomes[r].err_class,
                                  "%s: the collective access failed on rank %d of the file's group", op->fn, r);
                break;
            }
        }
    }
    size_t done = 0;
    if (result == MPI_SUCCESS) {
        if (op->write) {
            done = op->m.len;
        } else if (!op->two_phase) {
            done = op->done;
        } else {
            MPI_Offset eof = INT64_MAX;
            for (int r = 0; r < f->size; r++)
                if (op->outcomes[r].eof < eof)
                    eof = op->outcomes[r].eof;
            done = bytes_before(&op->segs, eof);
        }
        if (!op->write && op->mem_ok)
            result = tide_io_mem_finish(f, &op->m, done, op->fn);
    }
    /* the status counts the user's bytes (a converting representation
     * moves whole elements only) */
    op->done = result == MPI_SUCCESS && op->mem_ok ? tide_io_mem_user_bytes(&op->m, done) : 0;
    op_release_io(op);
    op->result = result;
    op->finished = true;
    if (!op->blocking) {
        struct tide_request *r = tide_sched_request(s);
        if (r)
            tide_io_status(&r->status, op->done);
        tide_sched_fail(s, result);
        op_free(op);
    }
}

/* ---- the independent path ---- */

static void independent(struct tide_sched *s, struct coll_op *op)
{
    if (op->mem_ok && op->m.len > 0) {
        size_t done = 0;
        keep_err(op, tide_io_rw(op->f, op->write, op->sb, &op->m, &done, op->fn));
        op->done = done;
    }
    add_outcome_exchange(s, op);
}

/* ---- two-phase: the plan ---- */

static int cmp_range_lo(const void *a, const void *b)
{
    const struct coll_range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Do two ranks' ranges overlap? */
static bool interleaved(const struct coll_range *ranges, int n, struct coll_range *tmp)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (ranges[i].hi > ranges[i].lo)
            tmp[k++] = ranges[i];
    qsort(tmp, (size_t)k, sizeof *tmp, cmp_range_lo);
    for (int i = 1; i < k; i++)
        if (tmp[i].lo < tmp[i - 1].hi)
            return true;
    return false;
}

static void plan_lists(struct tide_sched *s, void *arg);

/* My segments cut at the domain bounds, grouped by aggregator. */
static bool cut_pieces(struct coll_op *op)
{
    size_t cap = op->segs.n + (size_t)op->naggr;
    op->pieces = op_alloc(op, cap * sizeof *op->pieces);
    op->aggr_first = op_alloc(op, ((size_t)op->naggr + 1) * sizeof *op->aggr_first);
    if (!op->pieces || !op->aggr_first)
        return false;
    size_t np = 0, soff = 0;
    int a = 0;
    op->aggr_first[0] = 0;
    for (size_t i = 0; i < op->segs.n; i++) {
        MPI_Offset off = op->segs.v[i].off;
        size_t len = op->segs.v[i].len;
        while (len > 0) {
            while (a < op->naggr - 1 && off >= op->dom_hi[a])
                op->aggr_first[++a] = np;
            size_t take = len;
            if (a < op->naggr - 1 && off + (MPI_Offset)take > op->dom_hi[a])
                take = (size_t)(op->dom_hi[a] - off);
            op->pieces[np++] = (struct my_piece){off, take, soff};
            off += (MPI_Offset)take;
            soff += take;
            len -= take;
        }
    }
    while (a < op->naggr)
        op->aggr_first[++a] = np;
    op->npieces = np;
    return true;
}

/* After the ranges: choose the path; for two-phase make the plan and send
 * every aggregator my segments in its domain. */
static void plan(struct tide_sched *s, void *arg)
{
    struct coll_op *op = arg;
    struct tide_file *f = op->f;
    int n = f->size;
    const struct coll_range *r0 = &op->ranges[0];
    MPI_Offset gmin = INT64_MAX, gmax = INT64_MIN;
    bool failed = false;
    for (int i = 0; i < n; i++) {
        const struct coll_range *r = &op->ranges[i];
        if (r->err_class)
            failed = true;
        if (r->hi > r->lo) {
            if (r->lo < gmin)
                gmin = r->lo;
            if (r->hi > gmax)
                gmax = r->hi;
        }
    }
    /* an error before any I/O (or nothing to do): nobody touches the file */
    if (failed || gmin >= gmax) {
        add_outcome_exchange(s, op);
        return;
    }
    int mode = (int)r0->cb_mode;
    if (mode == TIDE_IO_DISABLE) {
        independent(s, op);
        return;
    }
    if (mode != TIDE_IO_ENABLE) {
        struct coll_range *tmp = op_alloc(op, (size_t)n * sizeof *tmp);
        if (nomem(s, op, tmp))
            return;
        if (!interleaved(op->ranges, n, tmp)) {
            independent(s, op);
            return;
        }
    }
    op->two_phase = true;

    /* aggregators, spread evenly over the ranks */
    int na = (int)r0->cb_nodes;
    if (na <= 0 || na > n)
        na = n;
    op->naggr = na;
    op->my_aggr = -1;
    op->aggr_rank = op_alloc(op, (size_t)na * sizeof *op->aggr_rank);
    op->dom_lo = op_alloc(op, (size_t)na * sizeof *op->dom_lo);
    op->dom_hi = op_alloc(op, (size_t)na * sizeof *op->dom_hi);
    op->dom_base = op_alloc(op, (size_t)na * sizeof *op->dom_base);
    op->send_count = op_alloc(op, (size_t)na * sizeof *op->send_count);
    op->recv_count = op_alloc(op, (size_t)n * sizeof *op->recv_count);
    op->recv_segs = op_alloc(op, (size_t)n * sizeof *op->recv_segs);
    if (nomem(s, op, op->aggr_rank) || nomem(s, op, op->dom_lo) || nomem(s, op, op->dom_hi) ||
        nomem(s, op, op->dom_base) || nomem(s, op, op->send_count) || nomem(s, op, op->recv_count) ||
        nomem(s, op, op->recv_segs))
        return;
    for (int a = 0; a < na; a++) {
        op->aggr_rank[a] = (int)((int64_t)a * n / na);
        if (op->aggr_rank[a] == f->rank)
            op->my_aggr = a;
    }

    /* file domains: equal parts of [gmin, gmax), on stripe bounds */
    MPI_Offset su = r0->striping_unit > 0 ? r0->striping_unit : 1;
    MPI_Offset base = gmin - gmin % su;
    MPI_Offset span = gmax - base;
    MPI_Offset d = (span + na - 1) / na;
    d = (d + su - 1) / su * su;
    for (int a = 0; a < na; a++) {
        MPI_Offset lo = base + (MPI_Offset)a * d, hi = lo + d;
        op->dom_base[a] = lo;
        op->dom_lo[a] = lo < gmin ? gmin : lo > gmax ? gmax : lo;
        op->dom_hi[a] = hi > gmax ? gmax : hi;
        if (a == na - 1)
            op->dom_hi[a] = gmax;
        if (op->dom_hi[a] < op->dom_lo[a])
            op->dom_hi[a] = op->dom_lo[a];
    }
    size_t w = r0->cb_buffer_size > 0 ? (size_t)r0->cb_buffer_size : 1;
    op->window = w > MAX_WINDOW ? MAX_WINDOW : w;

    if (nomem(s, op, cut_pieces(op) ? op : NULL))
        return;
    op->send_segs = op_alloc(op, op->npieces * sizeof *op->send_segs);
    if (nomem(s, op, op->send_segs))
        return;
    for (size_t i = 0; i < op->npieces; i++)
        op->send_segs[i] = (struct wire_seg){op->pieces[i].off, (int64_t)op->pieces[i].len};

    struct tide_datatype *byte = tide_coll_byte();
    struct tide_comm *c = f->comm;
    int tag_counts = tide_coll_tag(op->v.seq, STEP_COUNTS);
    if (op->my_aggr >= 0)
        for (int j = 0; j < n; j++)
            tide_sched_recv(s, &op->recv_count[j], sizeof(int64_t), byte, j, tag_counts, c);
    for (int a = 0; a < na; a++) {
        op->send_count[a] = (int64_t)(op->aggr_first[a + 1] - op->aggr_first[a]);
        tide_sched_send(s, &op->send_count[a], sizeof(int64_t), byte, op->aggr_rank[a], tag_counts, c);
    }
    tide_sched_fence(s);
    tide_sched_call(s, plan_lists, op);
}

static void plan_rounds(struct tide_sched *s, void *arg);

/* The aggregators know the counts: the lists go (in the same round as
 * their receives, so that a large one never waits for a receive that
 * comes only after it has gone). */
static void plan_lists(struct tide_sched *s, void *arg)
{
    struct coll_op *op = arg;
    struct tide_file *f = op->f;
    int tag_lists = tide_coll_tag(op->v.seq, STEP_LISTS);
    for (int a = 0; a < op->naggr; a++) {
        size_t k0 = op->aggr_first[a], k1 = op->aggr_first[a + 1];
        if (k1 > k0)
            tide_sched_send(s, &op->send_segs[k0], (k1 - k0) * sizeof(struct wire_seg), tide_coll_byte(),
                            op->aggr_rank[a], tag_lists, f->comm);
    }
    if (op->my_aggr >= 0) {
        for (int j = 0; j < f->size; j++) {
            int64_t k = op->recv_count[j];
            if (k <= 0)
                continue;
            op->recv_segs[j] = op_alloc(op, (size_t)k * sizeof(struct wire_seg));
            if (nomem(s, op, op->recv_segs[j]))
                return;
            tide_sched_recv(s, op->recv_segs[j], (size_t)k * sizeof(struct wire_seg), tide_coll_byte(), j,
                            tag_lists, f->comm);
        }
    }
    tide_sched_fence(s);
    tide_sched_call(s, plan_rounds, op);
}

static int cmp_piece_off(const void *a, const void *b)
{
    const struct win_piece *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

static int cmp_slice_round(const void *a, const void *b)
{
    const struct my_slice *x = a, *y = b;
    if (x->round != y->round)
        return x->round < y->round ? -1 : 1;
    return x->aggr < y->aggr ? -1 : x->aggr > y->aggr;
}

/* The windows of my domain that hold data, with their pieces. */
static bool build_windows(struct coll_op *op, size_t *winbuf_len, size_t *stage_len)
{
    struct tide_file *f = op->f;
    int n = f->size;
    MPI_Offset dbase = op->dom_base[op->my_aggr];
    MPI_Offset W = (MPI_Offset)op->window;
    size_t total = 0; /* pieces, before cutting at windows */
    for (int j = 0; j < n; j++)
        total += (size_t)(op->recv_count[j] > 0 ? op->recv_count[j] : 0);
    if (total == 0)
        return true;
    size_t *idx = op_alloc(op, (size_t)n * sizeof *idx);  /* each source's next piece */
    MPI_Offset *at = op_alloc(op, (size_t)n * sizeof *at); /* and where in it */
    if (!idx || !at)
        return false;
    for (int j = 0; j < n; j++)
        if (op->recv_count[j] > 0)
            at[j] = op->recv_segs[j][0].off;
    size_t capw = 16, nw = 0;
    struct agg_window *wins = op_alloc(op, capw * sizeof *wins);
    if (!wins)
        return false;
    for (;;) {
        /* the next window: the lowest one some source still has data in */
        int64_t t = INT64_MAX;
        for (int j = 0; j < n; j++) {
            if ((int64_t)idx[j] >= op->recv_count[j])
                continue;
            int64_t tj = (at[j] - dbase) / W;
            if (tj < t)
                t = tj;
        }
        if (t == INT64_MAX)
            break;
        MPI_Offset w0 = dbase + t * W, w1 = w0 + W;
        /* count first, then fill */
        size_t np = 0;
        int nsrc = 0;
        for (int j = 0; j < n; j++) {
            bool any = false;
            for (size_t i = idx[j]; (int64_t)i < op->recv_count[j]; i++) {
                MPI_Offset o = i == idx[j] ? at[j] : op->recv_segs[j][i].off;
                if (o >= w1)
                    break;
                np++;
                any = true;
            }
            nsrc += any;
        }
        if (nw == capw) {
            struct agg_window *nwins = op_alloc(op, capw * 2 * sizeof *nwins);
            if (!nwins)
                return false;
            memcpy(nwins, wins, capw * sizeof *wins);
            wins = nwins;
            capw *= 2;
        }
        struct agg_window *w = &wins[nw++];
        w->round = t;
        w->p = op_alloc(op, np * sizeof *w->p);
        w->src = op_alloc(op, (size_t)nsrc * sizeof *w->src);
        if (!w->p || !w->src)
            return false;
        w->np = 0;
        w->nsrc = 0;
        size_t stage = 0;
        for (int j = 0; j < n; j++) {
            size_t start = stage, p0 = w->np, len = 0;
            bool own = j == f->rank;
            while ((int64_t)idx[j] < op->recv_count[j]) {
                const struct wire_seg *g = &op->recv_segs[j][idx[j]];
                MPI_Offset end = g->off + g->len;
                if (at[j] >= w1)
                    break;
                MPI_Offset cut = end < w1 ? end : w1;
                struct win_piece *q = &w->p[w->np++];
                *q = (struct win_piece){at[j], (size_t)(cut - at[j]), FROM_STAGE, stage};
                if (own) {
                    /* my own list is my pieces of this domain: its stream place */
                    const struct my_piece *mp = &op->pieces[op->aggr_first[op->my_aggr] + idx[j]];
                    q->from = FROM_OWN;
                    q->at = mp->soff + (size_t)(at[j] - mp->off);
                } else {
                    stage += q->len;
                }
                len += q->len;
                if (cut == end) {
                    idx[j]++;
                    if ((int64_t)idx[j] < op->recv_count[j])
                        at[j] = op->recv_segs[j][idx[j]].off;
                } else {
                    at[j] = cut;
                }
            }
            if (len == 0 || own)
                continue;
            struct win_source *src = &w->src[w->nsrc++];
            *src = (struct win_source){j, false, 0, start, len};
            if (w->np - p0 == 1) {
                /* one run: straight to / from the window buffer */
                src->direct = true;
                src->off = w->p[p0].off;
                w->p[p0].from = FROM_DIRECT;
                stage = start;
            }
        }
        /* the span, and whether the pieces leave holes in it */
        qsort(w->p, w->np, sizeof *w->p, cmp_piece_off);
        w->first = w->p[0].off;
        MPI_Offset reach = w->first;
        w->holes = false;
        for (size_t i = 0; i < w->np; i++) {
            if (w->p[i].off > reach)
                w->holes = true;
            MPI_Offset e = w->p[i].off + (MPI_Offset)w->p[i].len;
            if (e > reach)
                reach = e;
        }
        w->last = reach;
        if ((size_t)(w->last - w->first) > *winbuf_len)
            *winbuf_len = (size_t)(w->last - w->first);
        if (stage > *stage_len)
            *stage_len = stage;
    }
    op->wins = wins;
    op->nwins = nw;
    return true;
}

/* The runs of my stream each aggregator's windows hold, in round order. */
static struct my_slice *build_slices(struct coll_op *op, size_t *count)
{
    MPI_Offset W = (MPI_Offset)op->window;
    /* a piece spans at most len / W + 2 windows */
    size_t cap = 0;
    for (size_t i = 0; i < op->npieces; i++)
        cap += op->pieces[i].len / op->window + 2;
    struct my_slice *v = op_alloc(op, (cap ? cap : 1) * sizeof *v);
    if (!v)
        return NULL;
    size_t k = 0;
    for (int a = 0; a < op->naggr; a++) {
        MPI_Offset dbase = op->dom_base[a];
        size_t first = k;
        for (size_t i = op->aggr_first[a]; i < op->aggr_first[a + 1]; i++) {
            MPI_Offset off = op->pieces[i].off;
            size_t left = op->pieces[i].len, soff = op->pieces[i].soff;
            while (left > 0) {
                int64_t t = (off - dbase) / W;
                MPI_Offset w1 = dbase + (t + 1) * W;
                size_t take = off + (MPI_Offset)left > w1 ? (size_t)(w1 - off) : left;
                if (k > first && v[k - 1].round == t && v[k - 1].soff + v[k - 1].len == soff)
                    v[k - 1].len += take;
                else
                    v[k++] = (struct my_slice){t, a, soff, take};
                off += (MPI_Offset)take;
                soff += take;
                left -= take;
            }
        }
    }
    qsort(v, k, sizeof *v, cmp_slice_round);
    *count = k;
    return v;
}

static void agg_prepare(struct tide_sched *s, void *arg);
static void agg_write(struct tide_sched *s, void *arg);
static void agg_read(struct tide_sched *s, void *arg);

struct win_call {
    struct coll_op *op;
    struct agg_window *w;
    bool locked;
};

/* Where a source's bytes of window w go (write) or come from (read). */
static char *source_buffer(const struct coll_op *op, const struct agg_window *w, const struct win_source *src)
{
    return src->direct ? op->winbuf + (src->off - w->first) : op->stage + src->stage;
}

/* Everyone knows the lists: lay out the rounds. Round t is window t of
 * every domain; a rank takes part in the rounds it has data in (as a
 * sender, or as the aggregator of a window with data), in round order,
 * so the messages of one round never wait for those of a later one. */
static void plan_rounds(struct tide_sched *s, void *arg)
{
    struct coll_op *op = arg;
    struct tide_file *f = op->f;
    size_t winbuf_len = 0, stage_len = 0;
    if (op->my_aggr >= 0) {
        if (nomem(s, op, build_windows(op, &winbuf_len, &stage_len) ? op : NULL))
            return;
        if (op->nwins > 0) {
            op->winbuf = op_alloc(op, winbuf_len);
            op->stage = op_alloc(op, stage_len);
            if (nomem(s, op, op->winbuf) || nomem(s, op, op->stage))
                return;
        }
    }
    size_t nsl = 0;
    struct my_slice *sl = build_slices(op, &nsl);
    if (nomem(s, op, sl))
        return;
    struct win_call *calls = op_alloc(op, (op->nwins ? op->nwins : 1) * sizeof *calls);
    if (nomem(s, op, calls))
        return;

    struct tide_datatype *byte = tide_coll_byte();
    struct tide_comm *c = f->comm;
    int tag = tide_coll_tag(op->v.seq, STEP_DATA);
    char *data = op->m.data;
    size_t iw = 0, is = 0;
    while (iw < op->nwins || is < nsl) {
        int64_t t = INT64_MAX;
        if (iw < op->nwins)
            t = op->wins[iw].round;
        if (is < nsl && sl[is].round < t)
            t = sl[is].round;
        struct win_call *wc = NULL;
        struct agg_window *w = NULL;
        if (iw < op->nwins && op->wins[iw].round == t) {
            w = &op->wins[iw];
            wc = &calls[iw++];
            *wc = (struct win_call){op, w, false};
        }
        if (w && op->write && (w->holes || op->atomic))
            tide_sched_call(s, agg_prepare, wc);
        if (w && !op->write)
            tide_sched_call(s, agg_read, wc);
        for (int k = 0; w && k < w->nsrc; k++) {
            char *b = source_buffer(op, w, &w->src[k]);
            if (op->write)
                tide_sched_recv(s, b, w->src[k].len, byte, w->src[k].rank, tag, c);
            else
                tide_sched_send(s, b, w->src[k].len, byte, w->src[k].rank, tag, c);
        }
        for (; is < nsl && sl[is].round == t; is++) {
            if (sl[is].aggr == op->my_aggr)
                continue; /* my own pieces: copied by the aggregator's call */
            int to = op->aggr_rank[sl[is].aggr];
            if (op->write)
                tide_sched_send(s, data + sl[is].soff, sl[is].len, byte, to, tag, c);
            else
                tide_sched_recv(s, data + sl[is].soff, sl[is].len, byte, to, tag, c);
        }
        tide_sched_fence(s);
        if (w && op->write)
            tide_sched_call(s, agg_write, wc);
    }
    add_outcome_exchange(s, op);
}

/* ---- two-phase: the aggregator's I/O ---- */

/* A window whose pieces leave holes (or any, in atomic mode): lock its
 * span and read what is there, before the pieces arrive. */
static void agg_prepare(struct tide_sched *s, void *arg)
{
    struct win_call *wc = arg;
    struct coll_op *op = wc->op;
    struct agg_window *w = wc->w;
    struct tide_file *f = op->f;
    if (op->err)
        return;
    size_t len = (size_t)(w->last - w->first), got;
    if (tide_fs_lock(f->fd, w->first, (MPI_Offset)len, true) != 0) {
        keep_err(op, tide_fs_error(errno, op->fn, "locking the file failed"));
        return;
    }
    wc->locked = true;
    if (w->holes)
        keep_err(op, tide_fs_pread(f->fd, op->winbuf, len, w->first, &got, op->fn));
}

static void agg_write(struct tide_sched *s, void *arg)
{
    struct win_call *wc = arg;
    struct coll_op *op = wc->op;
    struct agg_window *w = wc->w;
    struct tide_file *f = op->f;
    size_t len = (size_t)(w->last - w->first);
    const char *data = op->m.data;
    if (op->err == MPI_SUCCESS) {
        const char *from = op->winbuf;
        if (w->np == 1 && w->p[0].from == FROM_OWN) {
            from = data + w->p[0].at; /* all mine, and one run */
        } else {
            for (size_t i = 0; i < w->np; i++) {
                const struct win_piece *q = &w->p[i];
                if (q->from != FROM_DIRECT)
                    memcpy(op->winbuf + (q->off - w->first), (q->from == FROM_OWN ? data : op->stage) + q->at,
                           q->len);
            }
        }
        /* independent writers may be sieving blocks that take in this
         * span: they lock them, so a plain write locks too */
        if (!wc->locked && tide_io_writes_lock(f)) {
            if (tide_fs_lock(f->fd, w->first, (MPI_Offset)len, true) != 0)
                keep_err(op, tide_fs_error(errno, op->fn, "locking the file failed"));
            else
                wc->locked = true;
        }
        if (op->err == MPI_SUCCESS)
            keep_err(op, tide_fs_pwrite(f->fd, from, len, w->first, op->fn));
    }
    if (wc->locked)
        tide_fs_unlock(f->fd, w->first, (MPI_Offset)len);
}

static void agg_read(struct tide_sched *s, void *arg)
{
    struct win_call *wc = arg;
    struct coll_op *op = wc->op;
    struct agg_window *w = wc->w;
    struct tide_file *f = op->f;
    size_t len = (size_t)(w->last - w->first), got = 0;
    char *data = op->m.data;
    /* all mine and one run: straight into my stream */
    bool own = w->np == 1 && w->p[0].from == FROM_OWN;
    char *to = own ? data + w->p[0].at : op->winbuf;
    if (op->err == MPI_SUCCESS) {
        int rc;
        if (op->atomic && tide_fs_lock(f->fd, w->first, (MPI_Offset)len, false) != 0) {
            rc = tide_fs_error(errno, op->fn, "locking the file failed");
        } else {
            rc = tide_fs_pread(f->fd, to, len, w->first, &got, op->fn);
            if (op->atomic)
                tide_fs_unlock(f->fd, w->first, (MPI_Offset)len);
        }
        keep_err(op, rc);
    }
    if (op->err) {
        /* the messages still go (the ranks wait for them), with nothing in them */
        memset(to, 0, len);
        got = 0;
    }
    if (got < len && w->first + (MPI_Offset)got < op->eof_seen)
        op->eof_seen = w->first + (MPI_Offset)got;
    if (own)
        return;
    for (size_t i = 0; i < w->np; i++) {
        const struct win_piece *q = &w->p[i];
        if (q->from != FROM_DIRECT)
            memcpy((q->from == FROM_OWN ? data : op->stage) + q->at, op->winbuf + (q->off - w->first), q->len);
    }
}

/* ---- the entry point ---- */

int tide_io_collective(struct tide_file *f, bool write, MPI_Offset sb, void *buf, MPI_Count count,
                       struct tide_datatype *dt, MPI_Request *request, MPI_Status *status, const char *fn)
{
    struct coll_op *op = calloc(1, sizeof *op);
    if (!op)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory for collective I/O", fn);
    op->f = f;
    op->write = write;
    op->blocking = request == NULL;
    op->sb = sb;
    op->fn = fn;
    op->eof_seen = INT64_MAX;
    op->atomic = f->atomic;
    op->ranges = op_alloc(op, (size_t)f->size * sizeof *op->ranges);
    op->outcomes = op_alloc(op, (size_t)f->size * sizeof *op->outcomes);
    struct tide_sched *s = op->ranges && op->outcomes ? tide_sched_new(f->comm) : NULL;
    if (!s) {
        op_free(op);
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory for collective I/O", fn);
    }
    tide_cv_comm(&op->v, f->comm);

    /* my side: the stream, its segments, my range (errors here go to
     * every rank with the ranges, and nobody then touches the file) */
    MPI_Offset pos_etypes = f->esize ? sb / (MPI_Offset)f->esize : 0;
    int rc = f->coll_refused; /* this process refused the call: no data, its error */
    if (rc == MPI_SUCCESS)
        rc = tide_io_mem_start(f, write, buf, count, dt, pos_etypes, &op->m, fn);
    if (rc == MPI_SUCCESS) {
        op->mem_ok = true;
        if (op->m.len > 0)
            rc = tide_io_view_segments(f, sb, op->m.len, &op->segs);
    }
    keep_err(op, rc);
    struct coll_range *me = &op->mine;
    if (op->err == MPI_SUCCESS && op->segs.n > 0) {
        me->lo = op->segs.v[0].off;
        const struct tide_io_seg *last = &op->segs.v[op->segs.n - 1];
        me->hi = last->off + (MPI_Offset)last->len;
    }
    me->err_class = class_of(op->err);
    me->cb_mode = write ? f->hints.cb_write : f->hints.cb_read;
    me->cb_nodes = f->hints.cb_nodes;
    me->cb_buffer_size = (int64_t)f->hints.cb_buffer_size;
    me->striping_unit = (int64_t)f->hints.striping_unit;

    tide_allgather_build(s, &op->v, me, sizeof *me, tide_coll_byte(), op->ranges, sizeof *me, tide_coll_byte(),
                         TA_BRUCK, STEP_RANGES);
    tide_sched_fence(s);
    tide_sched_call(s, plan, op);

    if (!op->blocking) {
        rc = tide_sched_start(s, request);
        if (rc != MPI_SUCCESS && !op->finished)
            op_free(op);
        return rc;
    }
    rc = tide_sched_run(s);
    if (op->finished)
        rc = op->result;
    else if (rc == MPI_SUCCESS)
        rc = op->err;
    if (status && status != MPI_STATUS_IGNORE)
        tide_io_status(status, rc == MPI_SUCCESS ? op->done : 0);
    op_free(op);
    return rc;
}
