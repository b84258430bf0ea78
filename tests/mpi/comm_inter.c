/*
 * comm_inter.c: intercommunicators. Two groups (the even and the odd
 * world ranks, so local and world ranks differ) joined by
 * MPI_Intercomm_create with leaders that are not rank 0, over a peer
 * communicator that also carries user messages with the same tag;
 * inquiries; point-to-point on the intercommunicator (ranks name the
 * remote group; ANY_SOURCE, status, probe); MPI_Comm_dup, MPI_Comm_idup,
 * MPI_Comm_create and MPI_Comm_split of an intercommunicator (colors on
 * one side only, MPI_UNDEFINED, an empty group); MPI_Intercomm_merge with
 * each combination of high; unequal groups; bad input (overlapping groups,
 * a bad leader, a bad remote leader found at the leader only, an
 * intracommunicator where an intercommunicator is needed).
 */
#include "testutil.h"

static int rank, size;
static int in_a;       /* even world rank */
static int na, nb;     /* sizes of the even and odd groups */

static int world_of(int is_a, int local)
{
    return is_a ? 2 * local : 2 * local + 1;
}

static void check_remote(MPI_Comm ic, int n, const int *expect, const char *what)
{
    int rs, flag;
    CHECK_OK(MPI_Comm_test_inter(ic, &flag));
    CHECK(flag, "%s: not an intercommunicator", what);
    CHECK_OK(MPI_Comm_remote_size(ic, &rs));
    CHECK(rs == n, "%s: remote size %d, expected %d", what, rs, n);
    MPI_Group rg, wg;
    CHECK_OK(MPI_Comm_remote_group(ic, &rg));
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int idx[64], out[64];
    for (int i = 0; i < n; i++)
        idx[i] = i;
    MPI_Group_translate_ranks(rg, n, idx, wg, out);
    for (int i = 0; i < n; i++)
        CHECK(out[i] == expect[i], "%s: remote rank %d is world %d, expected %d", what, i, out[i], expect[i]);
    MPI_Group_free(&rg);
    MPI_Group_free(&wg);
}

/* Every process sends one message to every remote rank and receives one
 * from each: values say who sent them to whom. */
static void exchange(MPI_Comm ic, int salt)
{
    int lr, rs;
    MPI_Comm_rank(ic, &lr);
    MPI_Comm_remote_size(ic, &rs);
    int rg0[64];
    MPI_Group g, wg;
    MPI_Comm_remote_group(ic, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int idx[64];
    for (int i = 0; i < rs; i++)
        idx[i] = i;
    MPI_Group_translate_ranks(g, rs, idx, wg, rg0);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    int *out = malloc((size_t)rs * sizeof *out), *in = malloc((size_t)rs * sizeof *in);
    MPI_Request *rq = malloc(2 * (size_t)rs * sizeof *rq);
    for (int j = 0; j < rs; j++) {
        out[j] = salt + rank * 1000 + rg0[j];
        CHECK_OK(MPI_Irecv(&in[j], 1, MPI_INT, j, 31, ic, &rq[2 * j]));
        CHECK_OK(MPI_Isend(&out[j], 1, MPI_INT, j, 31, ic, &rq[2 * j + 1]));
    }
    MPI_Status st[128];
    CHECK_OK(MPI_Waitall(2 * rs, rq, st));
    for (int j = 0; j < rs; j++) {
        CHECK(in[j] == salt + rg0[j] * 1000 + rank, "intercomm message from remote %d: %d", j, in[j]);
        CHECK(st[2 * j].MPI_SOURCE == j, "status source %d for remote %d", st[2 * j].MPI_SOURCE, j);
    }
    /* ANY_SOURCE with probe: remote rank 0 sends to everyone remote */
    if (lr == 0)
        for (int j = 0; j < rs; j++)
            CHECK_OK(MPI_Send(&salt, 1, MPI_INT, j, 32, ic));
    MPI_Status s;
    CHECK_OK(MPI_Probe(MPI_ANY_SOURCE, 32, ic, &s));
    CHECK(s.MPI_SOURCE == 0 && s.MPI_TAG == 32, "probe on an intercommunicator: source %d tag %d", s.MPI_SOURCE,
          s.MPI_TAG);
    int v = -1;
    CHECK_OK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 32, ic, &s));
    CHECK(v == salt && s.MPI_SOURCE == 0, "ANY_SOURCE on an intercommunicator: %d from %d", v, s.MPI_SOURCE);
    /* a rank of the remote group that does not exist */
    int bad = rs;
    int rc = MPI_Send(&v, 1, MPI_INT, bad, 0, ic), cls;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_RANK, "send to remote rank %d: class %d", bad, cls);
    free(out);
    free(in);
    free(rq);
}

static MPI_Comm make_inter(MPI_Comm *local_out)
{
    MPI_Comm local, peer;
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, in_a ? 0 : 1, rank, &local));
    MPI_Comm_set_errhandler(local, MPI_ERRORS_RETURN);
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &peer));
    int lsize;
    MPI_Comm_size(local, &lsize);
    int leader = lsize > 1 ? 1 : 0;                  /* not rank 0 where possible */
    int other = in_a ? (nb > 1 ? 1 : 0) : (na > 1 ? 1 : 0);
    int remote_leader = world_of(!in_a, other);      /* its rank in peer */
    int lr;
    MPI_Comm_rank(local, &lr);
    /* a user message on peer with the same tag, sent before and received
     * after: the leaders' own exchange must not take it */
    if (lr == leader && in_a) {
        int m = 4242;
        CHECK_OK(MPI_Send(&m, 1, MPI_INT, remote_leader, 1234, peer));
    }
    MPI_Comm ic;
    CHECK_OK(MPI_Intercomm_create(local, leader, peer, remote_leader, 1234, &ic));
    if (lr == leader && !in_a) {
        int m = 0;
        MPI_Status st;
        CHECK_OK(MPI_Recv(&m, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, peer, &st));
        CHECK(m == 4242 && st.MPI_TAG == 1234 && st.MPI_SOURCE == remote_leader,
              "user message on the peer communicator: %d tag %d from %d", m, st.MPI_TAG, st.MPI_SOURCE);
    }
    MPI_Comm_free(&peer);
    *local_out = local;
    return ic;
}

static void test_create_and_p2p(MPI_Comm ic, MPI_Comm local)
{
    int lr, ls, r, s;
    MPI_Comm_rank(local, &lr);
    MPI_Comm_size(local, &ls);
    MPI_Comm_rank(ic, &r);
    MPI_Comm_size(ic, &s);
    CHECK(r == lr && s == ls, "intercomm rank %d size %d, local %d %d", r, s, lr, ls);
    int exp[64];
    int rn = in_a ? nb : na;
    for (int i = 0; i < rn; i++)
        exp[i] = world_of(!in_a, i);
    check_remote(ic, rn, exp, "intercomm");
    /* the local group */
    MPI_Group g, lg;
    int res;
    MPI_Comm_group(ic, &g);
    MPI_Comm_group(local, &lg);
    MPI_Group_compare(g, lg, &res);
    CHECK(res == MPI_IDENT, "local group of the intercomm vs local_comm: %d", res);
    MPI_Group_free(&g);
    MPI_Group_free(&lg);
    MPI_Comm_compare(ic, ic, &res);
    CHECK(res == MPI_IDENT, "compare(ic, ic) = %d", res);
    MPI_Comm_compare(ic, local, &res);
    CHECK(res == MPI_UNEQUAL, "compare(ic, local) = %d", res);
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(ic, &eh);
    CHECK(eh == MPI_ERRORS_RETURN, "intercomm error handler not local_comm's");
    MPI_Errhandler_free(&eh);
    exchange(ic, 1);
}

static void test_dup(MPI_Comm ic)
{
    MPI_Comm d, e;
    CHECK_OK(MPI_Comm_dup(ic, &d));
    int res;
    CHECK_OK(MPI_Comm_compare(ic, d, &res));
    CHECK(res == MPI_CONGRUENT, "compare(ic, dup) = %d", res);
    exchange(d, 2);
    /* messages on the dup and on the original do not mix */
    int lr;
    MPI_Comm_rank(ic, &lr);
    if (lr == 0) {
        int a = 1, b = 2;
        MPI_Send(&a, 1, MPI_INT, 0, 9, d);
        MPI_Send(&b, 1, MPI_INT, 0, 9, ic);
        int x, y;
        MPI_Recv(&y, 1, MPI_INT, 0, 9, ic, MPI_STATUS_IGNORE);
        MPI_Recv(&x, 1, MPI_INT, 0, 9, d, MPI_STATUS_IGNORE);
        CHECK(x == 1 && y == 2, "dup isolation on intercomms: %d %d", x, y);
    }
    MPI_Request rq;
    CHECK_OK(MPI_Comm_idup(ic, &e, &rq));
    exchange(d, 3); /* traffic while it runs */
    CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK_OK(MPI_Comm_compare(ic, e, &res));
    CHECK(res == MPI_CONGRUENT, "compare(ic, idup) = %d", res);
    exchange(e, 4);
    /* dup of the dup */
    MPI_Comm f;
    CHECK_OK(MPI_Comm_dup(e, &f));
    exchange(f, 5);
    MPI_Comm_free(&f);
    MPI_Comm_free(&e);
    MPI_Comm_free(&d);
}

static void test_comm_create(MPI_Comm ic)
{
    MPI_Group lg, sub;
    MPI_Comm_group(ic, &lg);
    int ls, lr;
    MPI_Comm_size(ic, &ls);
    MPI_Comm_rank(ic, &lr);
    /* A keeps its local rank 0 only; B keeps all, reversed */
    int ranks[64], n;
    if (in_a) {
        n = 1;
        ranks[0] = 0;
    } else {
        n = ls;
        for (int i = 0; i < ls; i++)
            ranks[i] = ls - 1 - i;
    }
    MPI_Group_incl(lg, n, ranks, &sub);
    MPI_Comm c;
    CHECK_OK(MPI_Comm_create(ic, sub, &c));
    int member = in_a ? lr == 0 : 1;
    if (!member) {
        CHECK(c == MPI_COMM_NULL, "intercomm create: a non-member got a communicator");
    } else {
        int exp[64], rn;
        if (in_a) {
            rn = nb;
            for (int i = 0; i < nb; i++)
                exp[i] = world_of(0, nb - 1 - i);
        } else {
            rn = 1;
            exp[0] = world_of(1, 0);
        }
        check_remote(c, rn, exp, "intercomm create");
        int r;
        MPI_Comm_rank(c, &r);
        CHECK(r == (in_a ? 0 : ls - 1 - lr), "rank in intercomm create: %d", r);
        exchange(c, 6);
        MPI_Comm_free(&c);
    }
    MPI_Group_free(&sub);
    /* one side empty: MPI_COMM_NULL everywhere */
    CHECK_OK(MPI_Comm_create(ic, in_a ? MPI_GROUP_EMPTY : lg, &c));
    CHECK(c == MPI_COMM_NULL, "intercomm create with an empty side gave a communicator");
    MPI_Group_free(&lg);
}

static void test_split(MPI_Comm ic)
{
    int lr, ls;
    MPI_Comm_rank(ic, &lr);
    MPI_Comm_size(ic, &ls);
    /* color = local rank % 2, key = -local rank; A's local rank 2 takes a
     * color B does not have; B's last rank (if B has 3+) is undefined */
    int color_of[2][64];
    for (int side = 0; side < 2; side++) {
        int n = side ? na : nb; /* side 1: A */
        for (int i = 0; i < n; i++) {
            color_of[side][i] = i % 2;
            if (side == 1 && i == 2)
                color_of[side][i] = 5;
            if (side == 0 && n >= 3 && i == n - 1)
                color_of[side][i] = MPI_UNDEFINED;
        }
    }
    int mycolor = color_of[in_a][lr];
    MPI_Comm c;
    CHECK_OK(MPI_Comm_split(ic, mycolor, -lr, &c));
    /* expected: remote processes of my color, by key (-rank): reversed */
    int exp[64], rn = 0, ln = 0, myidx = -1;
    int other = !in_a, on = other ? na : nb;
    for (int j = on - 1; j >= 0; j--)
        if (mycolor != MPI_UNDEFINED && color_of[other][j] == mycolor)
            exp[rn++] = world_of(other, j);
    for (int j = ls - 1; j >= 0; j--)
        if (color_of[in_a][j] == mycolor) {
            if (j == lr)
                myidx = ln;
            ln++;
        }
    if (mycolor == MPI_UNDEFINED || rn == 0) {
        CHECK(c == MPI_COMM_NULL, "intercomm split: color %d without a remote side got a communicator", mycolor);
        return;
    }
    check_remote(c, rn, exp, "intercomm split");
    int r, s;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &s);
    CHECK(r == myidx && s == ln, "intercomm split: rank %d size %d, expected %d %d", r, s, myidx, ln);
    exchange(c, 7);
    MPI_Comm_free(&c);
}

static void test_merge(MPI_Comm ic)
{
    for (int ha = 0; ha < 2; ha++)
        for (int hb = 0; hb < 2; hb++) {
            MPI_Comm m;
            CHECK_OK(MPI_Intercomm_merge(ic, in_a ? ha : hb, &m));
            int s, flag;
            MPI_Comm_size(m, &s);
            MPI_Comm_test_inter(m, &flag);
            CHECK(s == size && !flag, "merge: size %d inter %d", s, flag);
            /* the order: the low group first; equal: either, the same for all */
            MPI_Group g, wg;
            MPI_Comm_group(m, &g);
            MPI_Comm_group(MPI_COMM_WORLD, &wg);
            int idx[64], w[64];
            for (int i = 0; i < size; i++)
                idx[i] = i;
            MPI_Group_translate_ranks(g, size, idx, wg, w);
            MPI_Group_free(&g);
            MPI_Group_free(&wg);
            int a_first = w[0] % 2 == 0;
            if (ha != hb)
                CHECK(a_first == (ha < hb), "merge(%d, %d): the %s group comes first", ha, hb,
                      a_first ? "even" : "odd");
            int first_n = a_first ? na : nb;
            for (int i = 0; i < size; i++) {
                int expect = i < first_n ? world_of(a_first, i) : world_of(!a_first, i - first_n);
                CHECK(w[i] == expect, "merge(%d, %d): rank %d is world %d, expected %d", ha, hb, i, w[i], expect);
            }
            /* every member agrees (a ring on the merged communicator) */
            int r;
            MPI_Comm_rank(m, &r);
            int out = w[0] * 100 + r, in = -1;
            MPI_Sendrecv(&out, 1, MPI_INT, (r + 1) % s, 3, &in, 1, MPI_INT, (r + s - 1) % s, 3, m, MPI_STATUS_IGNORE);
            CHECK(in == w[0] * 100 + (r + s - 1) % s, "merge(%d, %d): members disagree on the order", ha, hb);
            CHECK(w[r] == rank, "merge: my rank %d names world %d", r, w[r]);
            MPI_Comm_free(&m);
        }
}

static void test_errors(MPI_Comm ic, MPI_Comm local)
{
    MPI_Comm x;
    /* overlap: the whole world with itself (the leader is its own remote leader) */
    int rc = MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_WORLD, 0, 5, &x), cls;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ARG, "overlapping groups: class %d", cls);
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, "MPI_Intercomm_create") && strstr(msg, "overlap"), "message '%s'", msg);
    /* a bad remote leader, seen only at the leader: every member fails */
    rc = MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 999, 5, &x);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_RANK, "bad remote leader: class %d", cls);
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, "remote_leader"), "message '%s'", msg);
    rc = MPI_Intercomm_create(local, 0, MPI_COMM_NULL, 0, 5, &x);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COMM, "bad peer_comm: class %d", cls);
    /* bad arguments checked everywhere */
    CHECK_ERR(MPI_Intercomm_create(local, 77, MPI_COMM_WORLD, 0, 5, &x), MPI_ERR_RANK);
    CHECK_ERR(MPI_Intercomm_create(ic, 0, MPI_COMM_WORLD, 0, 5, &x), MPI_ERR_COMM);
    CHECK_ERR(MPI_Intercomm_create(MPI_COMM_NULL, 0, MPI_COMM_WORLD, 0, 5, &x), MPI_ERR_COMM);
    CHECK_ERR(MPI_Intercomm_merge(local, 0, &x), MPI_ERR_COMM);
    CHECK_ERR(MPI_Intercomm_merge(MPI_COMM_NULL, 0, &x), MPI_ERR_COMM);
    MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
    MPI_Group g;
    MPI_Comm_group(ic, &g);
    CHECK_ERR(MPI_Comm_create_group(ic, g, 0, &x), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_split_type(ic, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &x), MPI_ERR_COMM);
    int d[1] = {1}, p[1] = {0};
    CHECK_ERR(MPI_Cart_create(ic, 1, d, p, 0, &x), MPI_ERR_COMM);
    /* a group that is not part of the local group */
    MPI_Group wg;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    CHECK_ERR(MPI_Comm_create(ic, wg, &x), MPI_ERR_GROUP);
    MPI_Group_free(&wg);
    MPI_Group_free(&g);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2 && size <= 64, "needs 2 to 64 ranks");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    in_a = rank % 2 == 0;
    na = (size + 1) / 2;
    nb = size / 2;
    MPI_Comm local, ic = make_inter(&local);
    test_create_and_p2p(ic, local);
    test_dup(ic);
    test_comm_create(ic);
    test_split(ic);
    test_merge(ic);
    test_errors(ic, local);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
    if (rank == 0)
        printf("comm_inter: ok on %d ranks\n", size);
    MPI_Finalize();
    return 0;
}
