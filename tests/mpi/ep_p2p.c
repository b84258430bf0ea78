/*
 * ep_p2p.c: point-to-point messaging on an endpoints communicator
 * (MPIX_Comm_create_endpoints), one thread per endpoint. Every endpoint
 * checks its rank and size, then, phase by phase (each closed by a
 * barrier on the endpoints communicator): a ring, an exchange between
 * every pair of endpoints (of the same process and of other processes),
 * MPI_ANY_SOURCE / MPI_ANY_TAG receives with their status, message order
 * per pair of endpoints (many messages of one tag), MPI_Ssend, MPI_Bsend,
 * MPI_Rsend after a handshake, windows of MPI_Issend / MPI_Irecv,
 * persistent requests, MPI_Probe / MPI_Iprobe / MPI_Mprobe / MPI_Improbe
 * with MPI_Mrecv, 1 MiB messages (rendezvous) between endpoints of one
 * process and of different processes, MPI_Sendrecv_replace, MPI_Ibsend,
 * MPI_Irsend, MPI_Ssend_init, MPI_Bsend_init, a cancelled receive, and
 * 1 MiB messages found by MPI_Mprobe and received by MPI_Imrecv.
 * Usage: ep_p2p RULE, where RULE is a number T (T endpoints in every
 * process), "uneven" (parent rank r gets 1 + r % 3) or "zero" (odd
 * parent ranks get none, even ones 2).
 */
#include "ep_testutil.h"

#include <pthread.h>
#include <stdint.h>

#define MAX_EP 16
#define ORDER_MSGS 300  /* messages of one tag per pair, in order (a fifth of it past 8 endpoints) */
#define WINDOW 8        /* outstanding MPI_Issend per endpoint */
#define WINDOW_ROUNDS 20
#define PERSIST_ROUNDS 10
#define BSEND_MSGS 6 /* 4 by MPI_Bsend, 1 by MPI_Ibsend, 1 by MPI_Bsend_init */
#define BSEND_INTS 256
#define LARGE_BYTES (1 << 20)

static int wrank, wsize;

/* the number of endpoints parent rank r asks for under rule */
struct ep_arg {
    MPI_Comm comm;
    int expect_rank, expect_size;
    int local, nlocal, first; /* this process's endpoints: index, count, first rank */
};

static uint32_t pattern(int src, int dst, int round, size_t i)
{
    return (uint32_t)(src * 0x1000193u) ^ (uint32_t)(dst << 20) ^ (uint32_t)(round << 12) ^
           (uint32_t)(i * 2654435761u);
}

static void barrier(MPI_Comm c)
{
    CHECK_OK(MPI_Barrier(c));
}

static void phase_ring(MPI_Comm c, int me, int n)
{
    int next = (me + 1) % n, prev = (me - 1 + n) % n;
    int out = 1000 + me, in = -1;
    MPI_Status st;
    CHECK_OK(MPI_Sendrecv(&out, 1, MPI_INT, next, 7, &in, 1, MPI_INT, prev, 7, c, &st));
    CHECK(in == 1000 + prev, "ring: endpoint %d got %d from %d, expected %d", me, in, prev, 1000 + prev);
    CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == 7, "ring: status source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
}

static void phase_all_pairs(MPI_Comm c, int me, int n)
{
    int *out = malloc((size_t)n * sizeof *out), *in = malloc((size_t)n * sizeof *in);
    MPI_Request *rq = malloc((size_t)2 * n * sizeof *rq);
    for (int p = 0; p < n; p++) {
        out[p] = me * 1000 + p;
        in[p] = -1;
        CHECK_OK(MPI_Irecv(&in[p], 1, MPI_INT, p, 11, c, &rq[p]));
    }
    for (int p = 0; p < n; p++)
        CHECK_OK(MPI_Isend(&out[p], 1, MPI_INT, p, 11, c, &rq[n + p]));
    CHECK_OK(MPI_Waitall(2 * n, rq, MPI_STATUSES_IGNORE));
    for (int p = 0; p < n; p++)
        CHECK(in[p] == p * 1000 + me, "all-pairs: endpoint %d got %d from %d, expected %d", me, in[p], p,
              p * 1000 + me);
    free(out);
    free(in);
    free(rq);
}

/* every endpoint sends to every other one with its rank as tag; the
 * receives are all wildcards */
static void phase_wildcards(MPI_Comm c, int me, int n)
{
    int *out = malloc((size_t)n * sizeof *out), *seen = calloc((size_t)n, sizeof *seen);
    MPI_Request *rq = malloc((size_t)n * sizeof *rq);
    for (int p = 0; p < n; p++) {
        out[p] = me * 7 + p;
        CHECK_OK(MPI_Isend(&out[p], 1, MPI_INT, p, 100 + me, c, &rq[p]));
    }
    for (int k = 0; k < n; k++) {
        int v = -1, count = -1;
        MPI_Status st;
        CHECK_OK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, c, &st));
        int s = st.MPI_SOURCE;
        CHECK(s >= 0 && s < n, "wildcards: endpoint %d: status source %d out of range", me, s);
        CHECK(!seen[s], "wildcards: endpoint %d: two messages from %d", me, s);
        seen[s] = 1;
        CHECK(st.MPI_TAG == 100 + s, "wildcards: endpoint %d: tag %d from source %d, expected %d", me, st.MPI_TAG, s,
              100 + s);
        CHECK(v == s * 7 + me, "wildcards: endpoint %d: value %d from %d, expected %d (a message for another "
                               "endpoint?)", me, v, s, s * 7 + me);
        CHECK_OK(MPI_Get_count(&st, MPI_INT, &count));
        CHECK(count == 1, "wildcards: count %d", count);
    }
    CHECK_OK(MPI_Waitall(n, rq, MPI_STATUSES_IGNORE));
    free(out);
    free(seen);
    free(rq);
}

/* ORDER_MSGS messages of one tag to every endpoint; received with
 * MPI_ANY_SOURCE, each source's messages must come in order */
static void phase_order(MPI_Comm c, int me, int n)
{
    int msgs = n > 8 ? ORDER_MSGS / 5 : ORDER_MSGS;
    int total = msgs * n;
    int *out = malloc((size_t)total * sizeof *out), *next_seq = calloc((size_t)n, sizeof *next_seq);
    MPI_Request *rq = malloc((size_t)total * sizeof *rq);
    for (int k = 0; k < msgs; k++)
        for (int p = 0; p < n; p++) {
            out[k * n + p] = k;
            CHECK_OK(MPI_Isend(&out[k * n + p], 1, MPI_INT, p, 5, c, &rq[k * n + p]));
        }
    for (int k = 0; k < total; k++) {
        int v = -1;
        MPI_Status st;
        /* every other receive names its source */
        int src = (k % 2) ? MPI_ANY_SOURCE : (me + k / 2) % n;
        if (src != MPI_ANY_SOURCE && next_seq[src] == msgs)
            src = MPI_ANY_SOURCE;
        CHECK_OK(MPI_Recv(&v, 1, MPI_INT, src, 5, c, &st));
        int s = st.MPI_SOURCE;
        CHECK(s >= 0 && s < n, "order: source %d", s);
        CHECK(v == next_seq[s], "order: endpoint %d got message %d from %d, expected %d (overtaken)", me, v, s,
              next_seq[s]);
        next_seq[s]++;
    }
    CHECK_OK(MPI_Waitall(total, rq, MPI_STATUSES_IGNORE));
    free(out);
    free(next_seq);
    free(rq);
}

static void phase_modes(MPI_Comm c, int me, int n)
{
    int next = (me + 1) % n, prev = (me - 1 + n) % n;
    MPI_Request r;
    /* synchronous: the receive is posted first, so a ring cannot block */
    int out = me + 1, in = -1;
    CHECK_OK(MPI_Irecv(&in, 1, MPI_INT, prev, 21, c, &r));
    CHECK_OK(MPI_Ssend(&out, 1, MPI_INT, next, 21, c));
    CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(in == prev + 1, "ssend: got %d, expected %d", in, prev + 1);

    /* buffered: 4 messages to next before receiving any */
    int bout[BSEND_MSGS][BSEND_INTS], bin[BSEND_INTS];
    for (int m = 0; m < 4; m++) {
        for (int i = 0; i < BSEND_INTS; i++)
            bout[m][i] = (int)pattern(me, next, m, (size_t)i);
        CHECK_OK(MPI_Bsend(bout[m], BSEND_INTS, MPI_INT, next, 22, c));
    }
    for (int m = 0; m < 4; m++) {
        CHECK_OK(MPI_Recv(bin, BSEND_INTS, MPI_INT, prev, 22, c, MPI_STATUS_IGNORE));
        for (int i = 0; i < BSEND_INTS; i++)
            CHECK(bin[i] == (int)pattern(prev, me, m, (size_t)i), "bsend: message %d from %d element %d wrong", m,
                  prev, i);
    }

    /* ready: post the receive, tell the sender, wait for the word of the
     * receiver, then MPI_Rsend */
    in = -1;
    out = 500 + me;
    int token = 0;
    CHECK_OK(MPI_Irecv(&in, 1, MPI_INT, prev, 23, c, &r));
    MPI_Request tr;
    CHECK_OK(MPI_Isend(&token, 0, MPI_INT, prev, 24, c, &tr));
    CHECK_OK(MPI_Recv(NULL, 0, MPI_INT, next, 24, c, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Rsend(&out, 1, MPI_INT, next, 23, c));
    CHECK_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Wait(&tr, MPI_STATUS_IGNORE));
    CHECK(in == 500 + prev, "rsend: got %d, expected %d", in, 500 + prev);
}

static void phase_window(MPI_Comm c, int me, int n)
{
    int next = (me + 1) % n, prev = (me - 1 + n) % n;
    int out[WINDOW], in[WINDOW];
    MPI_Request rq[2 * WINDOW];
    for (int round = 0; round < WINDOW_ROUNDS; round++) {
        for (int w = 0; w < WINDOW; w++) {
            in[w] = -1;
            out[w] = (int)pattern(me, next, round, (size_t)w);
            CHECK_OK(MPI_Irecv(&in[w], 1, MPI_INT, prev, 30, c, &rq[w]));
        }
        for (int w = 0; w < WINDOW; w++)
            CHECK_OK(MPI_Issend(&out[w], 1, MPI_INT, next, 30, c, &rq[WINDOW + w]));
        CHECK_OK(MPI_Waitall(2 * WINDOW, rq, MPI_STATUSES_IGNORE));
        for (int w = 0; w < WINDOW; w++)
            CHECK(in[w] == (int)pattern(prev, me, round, (size_t)w), "issend window: round %d message %d from %d "
                                                                     "wrong", round, w, prev);
    }
}

static void phase_persistent(MPI_Comm c, int me, int n)
{
    int next = (me + 1) % n, prev = (me - 1 + n) % n;
    int out[4], in[4];
    MPI_Request rq[2];
    CHECK_OK(MPI_Recv_init(in, 4, MPI_INT, prev, 40, c, &rq[0]));
    CHECK_OK(MPI_Send_init(out, 4, MPI_INT, next, 40, c, &rq[1]));
    for (int round = 0; round < PERSIST_ROUNDS; round++) {
        for (int i = 0; i < 4; i++) {
            out[i] = (int)pattern(me, next, round, (size_t)i);
            in[i] = -1;
        }
        if (round % 2)
            CHECK_OK(MPI_Startall(2, rq));
        else {
            CHECK_OK(MPI_Start(&rq[0]));
            CHECK_OK(MPI_Start(&rq[1]));
        }
        MPI_Status st[2];
        CHECK_OK(MPI_Waitall(2, rq, st));
        CHECK(st[0].MPI_SOURCE == prev && st[0].MPI_TAG == 40, "persistent: status source %d tag %d",
              st[0].MPI_SOURCE, st[0].MPI_TAG);
        for (int i = 0; i < 4; i++)
            CHECK(in[i] == (int)pattern(prev, me, round, (size_t)i), "persistent: round %d element %d wrong", round,
                  i);
    }
    CHECK_OK(MPI_Request_free(&rq[0]));
    CHECK_OK(MPI_Request_free(&rq[1]));
}

/* one message at a time from prev, found by each kind of probe; a
 * barrier keeps the rounds apart so a wildcard probe sees only it */
static void phase_probe(MPI_Comm c, int me, int n)
{
    int next = (me + 1) % n, prev = (me - 1 + n) % n;
    for (int kind = 0; kind < 4; kind++) {
        int out[3] = {me, kind, 77}, in[3] = {-1, -1, -1};
        int tag = 50 + kind;
        MPI_Request sr;
        CHECK_OK(MPI_Isend(out, 3, MPI_INT, next, tag, c, &sr));
        MPI_Status st;
        MPI_Message msg = MPI_MESSAGE_NULL;
        int flag = 0;
        switch (kind) {
        case 0:
            CHECK_OK(MPI_Probe(prev, tag, c, &st));
            break;
        case 1:
            while (!flag)
                CHECK_OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, c, &flag, &st));
            break;
        case 2:
            CHECK_OK(MPI_Mprobe(MPI_ANY_SOURCE, tag, c, &msg, &st));
            break;
        case 3:
            while (!flag)
                CHECK_OK(MPI_Improbe(prev, MPI_ANY_TAG, c, &flag, &msg, &st));
            break;
        }
        int count = -1;
        CHECK_OK(MPI_Get_count(&st, MPI_INT, &count));
        CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == tag && count == 3,
              "probe kind %d: endpoint %d saw source %d tag %d count %d, expected %d %d 3", kind, me, st.MPI_SOURCE,
              st.MPI_TAG, count, prev, tag);
        if (kind < 2)
            CHECK_OK(MPI_Recv(in, 3, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, c, &st));
        else
            CHECK_OK(MPI_Mrecv(in, 3, MPI_INT, &msg, &st));
        CHECK(msg == MPI_MESSAGE_NULL, "probe kind %d: message handle not reset", kind);
        CHECK(in[0] == prev && in[1] == kind && in[2] == 77, "probe kind %d: got %d %d %d", kind, in[0], in[1],
              in[2]);
        CHECK_OK(MPI_Wait(&sr, MPI_STATUS_IGNORE));
        barrier(c);
    }
}

/* 1 MiB messages: a shift by d over all ranks and a ring among this
 * process's endpoints */
static void large_shift(MPI_Comm c, int me, int to, int from, int round, unsigned char *out, unsigned char *in)
{
    for (size_t i = 0; i < LARGE_BYTES; i++)
        out[i] = (unsigned char)pattern(me, to, round, i);
    memset(in, 0, LARGE_BYTES);
    MPI_Status st;
    CHECK_OK(MPI_Sendrecv(out, LARGE_BYTES, MPI_BYTE, to, 60 + round, in, LARGE_BYTES, MPI_BYTE, from, 60 + round, c,
                          &st));
    int count = -1;
    CHECK_OK(MPI_Get_count(&st, MPI_BYTE, &count));
    CHECK(count == LARGE_BYTES && st.MPI_SOURCE == from, "large round %d: count %d source %d", round, count,
          st.MPI_SOURCE);
    for (size_t i = 0; i < LARGE_BYTES; i++)
        CHECK(in[i] == (unsigned char)pattern(from, me, round, i), "large round %d: byte %zu from %d wrong", round, i,
              from);
}

static void phase_large(MPI_Comm c, const struct ep_arg *a, int me, int n)
{
    unsigned char *out = malloc(LARGE_BYTES), *in = malloc(LARGE_BYTES);
    CHECK(out && in, "out of memory");
    /* across processes when they have the same counts: d = n / 2 */
    int shifts[2] = {1, n / 2 > 1 ? n / 2 : 0};
    for (int k = 0; k < 2; k++)
        large_shift(c, me, (me + shifts[k]) % n, (me - shifts[k] + n) % n, k, out, in);
    /* among this process's endpoints */
    int l = a->local, nl = a->nlocal;
    large_shift(c, me, a->first + (l + 1) % nl, a->first + (l - 1 + nl) % nl, 2, out, in);
    /* nonblocking, the partner by xor within the process, else self */
    int partner = (l ^ 1) < nl ? a->first + (l ^ 1) : me;
    for (size_t i = 0; i < LARGE_BYTES; i++)
        out[i] = (unsigned char)pattern(me, partner, 3, i);
    MPI_Request rq[2];
    CHECK_OK(MPI_Irecv(in, LARGE_BYTES, MPI_BYTE, partner, 64, c, &rq[0]));
    CHECK_OK(MPI_Isend(out, LARGE_BYTES, MPI_BYTE, partner, 64, c, &rq[1]));
    CHECK_OK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    for (size_t i = 0; i < LARGE_BYTES; i++)
        CHECK(in[i] == (unsigned char)pattern(partner, me, 3, i), "large nonblocking: byte %zu from %d wrong", i,
              partner);
    free(out);
    free(in);
}

/* the other send modes: MPI_Ibsend, MPI_Irsend after a handshake,
 * MPI_Ssend_init and MPI_Bsend_init; a cancelled receive */
static void phase_more_modes(MPI_Comm c, int me, int n)
{
    int next = (me + 1) % n, prev = (me - 1 + n) % n;
    int out[4], in[4] = {-1, -1, -1, -1};
    MPI_Request rq[4];
    out[0] = 10 * me + 1;
    CHECK_OK(MPI_Ibsend(&out[0], 1, MPI_INT, next, 80, c, &rq[0]));
    CHECK_OK(MPI_Recv(&in[0], 1, MPI_INT, prev, 80, c, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
    CHECK(in[0] == 10 * prev + 1, "ibsend: got %d", in[0]);

    out[1] = 10 * me + 2;
    CHECK_OK(MPI_Irecv(&in[1], 1, MPI_INT, prev, 81, c, &rq[0]));
    CHECK_OK(MPI_Sendrecv(NULL, 0, MPI_INT, prev, 82, NULL, 0, MPI_INT, next, 82, c, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Irsend(&out[1], 1, MPI_INT, next, 81, c, &rq[1]));
    CHECK_OK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    CHECK(in[1] == 10 * prev + 2, "irsend: got %d", in[1]);

    CHECK_OK(MPI_Ssend_init(&out[2], 1, MPI_INT, next, 83, c, &rq[0]));
    CHECK_OK(MPI_Bsend_init(&out[3], 1, MPI_INT, next, 84, c, &rq[1]));
    for (int round = 0; round < 3; round++) {
        out[2] = 100 * me + round;
        out[3] = 200 * me + round;
        CHECK_OK(MPI_Irecv(&in[2], 1, MPI_INT, prev, 83, c, &rq[2]));
        CHECK_OK(MPI_Irecv(&in[3], 1, MPI_INT, prev, 84, c, &rq[3]));
        CHECK_OK(MPI_Startall(2, rq));
        CHECK_OK(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
        CHECK(in[2] == 100 * prev + round && in[3] == 200 * prev + round, "ssend_init/bsend_init: round %d got %d %d",
              round, in[2], in[3]);
    }
    CHECK_OK(MPI_Request_free(&rq[0]));
    CHECK_OK(MPI_Request_free(&rq[1]));

    /* a receive nobody sends to, cancelled */
    MPI_Request cr;
    MPI_Status st;
    int flag = 0;
    CHECK_OK(MPI_Irecv(&in[0], 1, MPI_INT, next, 85, c, &cr));
    CHECK_OK(MPI_Cancel(&cr));
    CHECK_OK(MPI_Wait(&cr, &st));
    CHECK_OK(MPI_Test_cancelled(&st, &flag));
    CHECK(flag, "a cancelled receive was not cancelled");
}

/* a 1 MiB message from the rank d further on, found by MPI_Mprobe and
 * received by MPI_Imrecv */
static void phase_large_mprobe(MPI_Comm c, int me, int n, int d)
{
    int to = (me + d) % n, from = (me - d + n) % n;
    unsigned char *out = malloc(LARGE_BYTES), *in = malloc(LARGE_BYTES);
    CHECK(out && in, "out of memory");
    for (size_t i = 0; i < LARGE_BYTES; i++)
        out[i] = (unsigned char)pattern(me, to, 5, i);
    MPI_Request sr, rr;
    CHECK_OK(MPI_Isend(out, LARGE_BYTES, MPI_BYTE, to, 90, c, &sr));
    MPI_Message msg;
    MPI_Status st;
    CHECK_OK(MPI_Mprobe(MPI_ANY_SOURCE, 90, c, &msg, &st));
    int count = -1;
    CHECK_OK(MPI_Get_count(&st, MPI_BYTE, &count));
    CHECK(st.MPI_SOURCE == from && count == LARGE_BYTES, "large mprobe: source %d count %d, expected %d %d",
          st.MPI_SOURCE, count, from, LARGE_BYTES);
    CHECK_OK(MPI_Imrecv(in, LARGE_BYTES, MPI_BYTE, &msg, &rr));
    CHECK_OK(MPI_Wait(&rr, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Wait(&sr, MPI_STATUS_IGNORE));
    for (size_t i = 0; i < LARGE_BYTES; i++)
        CHECK(in[i] == (unsigned char)pattern(from, me, 5, i), "large mprobe: byte %zu from %d wrong", i, from);
    free(out);
    free(in);
}

static void phase_replace(MPI_Comm c, int me, int n)
{
    int next = (me + 1) % n, prev = (me - 1 + n) % n;
    int buf[64];
    for (int i = 0; i < 64; i++)
        buf[i] = (int)pattern(me, next, 9, (size_t)i);
    MPI_Status st;
    CHECK_OK(MPI_Sendrecv_replace(buf, 64, MPI_INT, next, 70, prev, 70, c, &st));
    CHECK(st.MPI_SOURCE == prev, "sendrecv_replace: source %d", st.MPI_SOURCE);
    for (int i = 0; i < 64; i++)
        CHECK(buf[i] == (int)pattern(prev, me, 9, (size_t)i), "sendrecv_replace: element %d wrong", i);
}

static void *endpoint_main(void *p)
{
    struct ep_arg *a = p;
    MPI_Comm c = a->comm;
    int me = -1, n = -1;
    CHECK_OK(MPI_Comm_rank(c, &me));
    CHECK_OK(MPI_Comm_size(c, &n));
    CHECK(me == a->expect_rank, "rank %d, expected %d", me, a->expect_rank);
    CHECK(n == a->expect_size, "size %d, expected %d", n, a->expect_size);
    int inter = 1;
    CHECK_OK(MPI_Comm_test_inter(c, &inter));
    CHECK(!inter, "an endpoints communicator says it is an intercommunicator");
    barrier(c);
    phase_ring(c, me, n);
    barrier(c);
    phase_all_pairs(c, me, n);
    barrier(c);
    phase_wildcards(c, me, n);
    barrier(c);
    phase_order(c, me, n);
    barrier(c);
    phase_modes(c, me, n);
    barrier(c);
    phase_window(c, me, n);
    barrier(c);
    phase_persistent(c, me, n);
    barrier(c);
    phase_probe(c, me, n);
    phase_large(c, a, me, n);
    barrier(c);
    phase_replace(c, me, n);
    barrier(c);
    phase_more_modes(c, me, n);
    barrier(c);
    phase_large_mprobe(c, me, n, 1);
    barrier(c);
    phase_large_mprobe(c, me, n, n / 2);
    barrier(c);
    CHECK_OK(MPI_Comm_free(&a->comm));
    CHECK(a->comm == MPI_COMM_NULL, "MPI_Comm_free did not reset the handle");
    return NULL;
}

int main(int argc, char **argv)
{
    ep_init(&argc, &argv, &wrank, &wsize);
    const char *rule = argc > 1 ? argv[1] : "2";
    int total, first;
    int mine = ep_layout(rule, wrank, wsize, &first, &total);
    CHECK(mine >= 0 && mine <= MAX_EP, "bad endpoint count %d", mine);

    /* room for every endpoint's buffered sends at once */
    int bsize = (mine ? mine : 1) * BSEND_MSGS * (BSEND_INTS * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    void *bbuf = malloc((size_t)bsize);
    CHECK_OK(MPI_Buffer_attach(bbuf, bsize));

    MPI_Comm hs[MAX_EP];
    for (int i = 0; i < MAX_EP; i++)
        hs[i] = MPI_COMM_NULL;
    CHECK_OK(MPIX_Comm_create_endpoints(MPI_COMM_WORLD, mine, MPI_INFO_NULL, hs));
    for (int i = 0; i < mine; i++)
        CHECK(hs[i] != MPI_COMM_NULL, "handle %d is MPI_COMM_NULL", i);
    pthread_t th[MAX_EP];
    struct ep_arg args[MAX_EP];
    for (int i = 0; i < mine; i++) {
        args[i] = (struct ep_arg){hs[i], first + i, total, i, mine, first};
        CHECK(pthread_create(&th[i], NULL, endpoint_main, &args[i]) == 0, "pthread_create");
    }
    for (int i = 0; i < mine; i++)
        pthread_join(th[i], NULL);
    int size_out = 0;
    void *addr;
    CHECK_OK(MPI_Buffer_detach(&addr, &size_out));
    free(bbuf);
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (wrank == 0)
        printf("ep_p2p: ok (%d processes, %d endpoints, rule %s)\n", wsize, total, rule);
    MPI_Finalize();
    return 0;
}
