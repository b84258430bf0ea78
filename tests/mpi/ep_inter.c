/*
 * ep_inter.c: intercommunicators with endpoints. MPI_COMM_WORLD's even
 * ranks form group A, the odd ranks group B; A's processes have T
 * endpoints each, B's T + 1 (mode "both"), or B is a group of processes
 * (mode "one": one rank per process), or both groups are splits of one
 * endpoints communicator that is also the peer communicator (mode
 * "peer"), or every process has endpoints in both groups, its even ones
 * in A and its odd ones in B (mode "overlap", which the note allows: an
 * endpoint is in one group only, its process may be in both).
 * MPI_Intercomm_create from every member, then: sizes and
 * ranks, messages between every pair of members across the groups
 * (MPI_ANY_SOURCE receives included), the intercommunicator collectives
 * (MPI_Barrier, MPI_Bcast and MPI_Reduce with MPI_ROOT, MPI_Allreduce,
 * MPI_Allgather, MPI_Alltoall, MPI_Ibcast, MPI_Iallreduce), MPI_Comm_dup,
 * MPI_Comm_split (by the parity of the rank, so that a process's
 * endpoints go to different new intercommunicators, in reverse order) and
 * MPI_Comm_create (A's whole group reversed, B's without its first
 * member), each checked by its sizes, ranks, a message between every pair
 * and a reduction, and MPI_Intercomm_merge (B high): an intracommunicator
 * of A's members then B's, used for messages and collectives.
 * Usage: ep_inter [both|one|peer|overlap] [T]   (at least 2 processes but
 * for overlap, T >= 2 there)
 */
#include "ep_testutil.h"

#include <pthread.h>

#define MAX_EP 16
#define NMAX 128

static int wrank, wsize, t_a, t_b, n_a, n_b;
static const char *mode;

struct member {
    MPI_Comm local;   /* this member's handle of its group's communicator */
    MPI_Comm peer;    /* the peer communicator */
    int remote_leader;
    int in_b;         /* group B */
    int lrank;        /* expected rank in the group */
};

static int val(int group, int r, int i)
{
    return group * 100000 + r * 100 + i + 1;
}

/* ---- intercommunicators derived from one of endpoints ----
 * old_local[i] / old_remote[i]: the rank in ic of the new
 * intercommunicator's local / remote member i. Every member sends its
 * rank in ic to every remote member; each checks what came from whom,
 * and an allreduce of those ranks. */
static void check_derived(MPI_Comm nc, const char *what, int want_rank, const int *old_local, int want_n,
                          const int *old_remote, int want_rn, int old_me)
{
    int inter = 0, r = -1, sz = -1, rsz = -1;
    CHECK_OK(MPI_Comm_test_inter(nc, &inter));
    CHECK_OK(MPI_Comm_rank(nc, &r));
    CHECK_OK(MPI_Comm_size(nc, &sz));
    CHECK_OK(MPI_Comm_remote_size(nc, &rsz));
    CHECK(inter && r == want_rank && sz == want_n && rsz == want_rn,
          "%s: inter %d rank %d size %d remote size %d, expected rank %d size %d remote size %d", what, inter, r, sz,
          rsz, want_rank, want_n, want_rn);
    CHECK(old_local[r] == old_me, "%s: local member %d is rank %d of the parent, expected %d", what, r, old_me,
          old_local[r]);
    MPI_Request rq[NMAX];
    int got[NMAX];
    for (int k = 0; k < rsz; k++)
        CHECK_OK(MPI_Isend(&old_me, 1, MPI_INT, k, 11, nc, &rq[k]));
    for (int k = 0; k < rsz; k++) {
        MPI_Status st;
        int v = -1;
        CHECK_OK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 11, nc, &st));
        got[st.MPI_SOURCE] = v;
    }
    CHECK_OK(MPI_Waitall(rsz, rq, MPI_STATUSES_IGNORE));
    int want_sum = 0, sum = -1;
    for (int k = 0; k < rsz; k++) {
        CHECK(got[k] == old_remote[k], "%s: remote rank %d is rank %d of the parent, expected %d", what, k, got[k],
              old_remote[k]);
        want_sum += old_remote[k];
    }
    CHECK_OK(MPI_Allreduce(&old_me, &sum, 1, MPI_INT, MPI_SUM, nc));
    CHECK(sum == want_sum, "%s: allreduce %d, expected %d", what, sum, want_sum);
}

static void derived_dup(MPI_Comm ic, int me, int n, int rn)
{
    int ol[NMAX], orr[NMAX];
    for (int r = 0; r < n; r++)
        ol[r] = r;
    for (int r = 0; r < rn; r++)
        orr[r] = r;
    MPI_Comm d;
    CHECK_OK(MPI_Comm_dup(ic, &d));
    check_derived(d, "dup", me, ol, n, orr, rn, me);
    CHECK_OK(MPI_Comm_free(&d));
}

/* the members of a group of size n with rank parity p, in reverse */
static int parity_members(int n, int p, int *list)
{
    int k = 0;
    for (int r = n - 1; r >= 0; r--)
        if (r % 2 == p)
            list[k++] = r;
    return k;
}

static void derived_split(MPI_Comm ic, int me, int n, int rn)
{
    int p = me % 2, ol[NMAX], orr[NMAX];
    int nl = parity_members(n, p, ol), nr = parity_members(rn, p, orr);
    MPI_Comm s;
    CHECK_OK(MPI_Comm_split(ic, p, -me, &s));
    if (nr == 0) {
        CHECK(s == MPI_COMM_NULL, "split: color %d has no remote member, yet a communicator came", p);
        return;
    }
    CHECK(s != MPI_COMM_NULL, "split: no communicator for color %d", p);
    int want = 0;
    while (ol[want] != me)
        want++;
    check_derived(s, "split", want, ol, nl, orr, nr, me);
    CHECK_OK(MPI_Comm_free(&s));
}

/* A: every member, reversed; B: all but its first member */
static int create_members(int group, int n, int *list)
{
    int k = 0;
    for (int r = 0; r < n; r++)
        if (group == 0)
            list[k++] = n - 1 - r;
        else if (r > 0)
            list[k++] = r;
    return k;
}

static void derived_create(MPI_Comm ic, int g, int me, int n, int rn)
{
    int ol[NMAX], orr[NMAX];
    int nl = create_members(g, n, ol), nr = create_members(!g, rn, orr);
    MPI_Group lg, sub;
    CHECK_OK(MPI_Comm_group(ic, &lg));
    CHECK_OK(MPI_Group_incl(lg, nl, ol, &sub));
    MPI_Comm c;
    CHECK_OK(MPI_Comm_create(ic, sub, &c));
    CHECK_OK(MPI_Group_free(&sub));
    CHECK_OK(MPI_Group_free(&lg));
    int want = -1;
    for (int k = 0; k < nl; k++)
        if (ol[k] == me)
            want = k;
    if (want < 0 || nl == 0 || nr == 0) {
        CHECK(c == MPI_COMM_NULL, "create: a communicator came for a rank not in it (or an empty side)");
        return;
    }
    CHECK(c != MPI_COMM_NULL, "create: no communicator for member %d", me);
    check_derived(c, "create", want, ol, nl, orr, nr, me);
    CHECK_OK(MPI_Comm_free(&c));
}

static void *member_main(void *p)
{
    struct member *m = p;
    int me = -1, n = -1;
    CHECK_OK(MPI_Comm_rank(m->local, &me));
    CHECK_OK(MPI_Comm_size(m->local, &n));
    int want_n = m->in_b ? n_b : n_a, want_rn = m->in_b ? n_a : n_b;
    CHECK(me == m->lrank && n == want_n, "local group: rank %d size %d, expected %d %d", me, n, m->lrank, want_n);
    MPI_Comm ic;
    CHECK_OK(MPI_Intercomm_create(m->local, 0, m->peer, m->remote_leader, 77, &ic));
    int inter = 0, rn = -1, irank = -1, isize = -1;
    CHECK_OK(MPI_Comm_test_inter(ic, &inter));
    CHECK_OK(MPI_Comm_remote_size(ic, &rn));
    CHECK_OK(MPI_Comm_rank(ic, &irank));
    CHECK_OK(MPI_Comm_size(ic, &isize));
    CHECK(inter && rn == want_rn && irank == me && isize == n,
          "intercommunicator: inter %d rank %d size %d remote size %d, expected %d %d %d", inter, irank, isize, rn, me,
          n, want_rn);
    int g = m->in_b, og = !g;

    /* every member sends to every remote member */
    int *out = malloc((size_t)rn * sizeof *out), *in = malloc((size_t)rn * sizeof *in);
    int *seen = calloc((size_t)rn, sizeof *seen);
    MPI_Request *rq = malloc((size_t)rn * sizeof *rq);
    for (int r = 0; r < rn; r++) {
        out[r] = val(g, me, r);
        CHECK_OK(MPI_Isend(&out[r], 1, MPI_INT, r, 5, ic, &rq[r]));
    }
    for (int k = 0; k < rn; k++) {
        MPI_Status st;
        int v = -1;
        /* every other receive names a source not heard from yet */
        int src = MPI_ANY_SOURCE;
        if (k % 2 == 0)
            for (int r = rn - 1; r >= 0; r--)
                if (!seen[r])
                    src = r;
        CHECK_OK(MPI_Recv(&v, 1, MPI_INT, src, 5, ic, &st));
        int s = st.MPI_SOURCE;
        CHECK(s >= 0 && s < rn && !seen[s], "intercommunicator message: source %d", s);
        seen[s] = 1;
        CHECK(v == val(og, s, me), "intercommunicator message from remote %d: %d, expected %d", s, v, val(og, s, me));
        (void)in;
    }
    CHECK_OK(MPI_Waitall(rn, rq, MPI_STATUSES_IGNORE));

    /* collectives */
    CHECK_OK(MPI_Barrier(ic));
    int root_a = n_a - 1; /* A's last member broadcasts to B, B's reduce to it */
    int bc[3];
    for (int i = 0; i < 3; i++)
        bc[i] = (!g && me == root_a) ? val(0, root_a, i) : -1;
    int root_arg = g ? root_a : (me == root_a ? MPI_ROOT : MPI_PROC_NULL);
    CHECK_OK(MPI_Bcast(bc, 3, MPI_INT, root_arg, ic));
    if (g)
        for (int i = 0; i < 3; i++)
            CHECK(bc[i] == val(0, root_a, i), "intercommunicator bcast: B member %d element %d is %d", me, i, bc[i]);
    int contrib = val(g, me, 0), red = -1, sum_a = 0, sum_b = 0;
    for (int r = 0; r < n_a; r++)
        sum_a += val(0, r, 0);
    for (int r = 0; r < n_b; r++)
        sum_b += val(1, r, 0);
    CHECK_OK(MPI_Reduce(&contrib, &red, 1, MPI_INT, MPI_SUM, root_arg, ic));
    if (!g && me == root_a)
        CHECK(red == sum_b, "intercommunicator reduce: %d, expected %d", red, sum_b);
    CHECK_OK(MPI_Allreduce(&contrib, &red, 1, MPI_INT, MPI_SUM, ic));
    CHECK(red == (g ? sum_a : sum_b), "intercommunicator allreduce: group %d member %d got %d, expected %d", g, me, red,
          g ? sum_a : sum_b);
    int *all = malloc((size_t)rn * 2 * sizeof *all), *a2s = malloc((size_t)rn * sizeof *a2s);
    CHECK_OK(MPI_Allgather(&contrib, 1, MPI_INT, all, 1, MPI_INT, ic));
    for (int r = 0; r < rn; r++)
        CHECK(all[r] == val(og, r, 0), "intercommunicator allgather: element %d is %d", r, all[r]);
    for (int r = 0; r < rn; r++)
        a2s[r] = val(g, me, r);
    CHECK_OK(MPI_Alltoall(a2s, 1, MPI_INT, all, 1, MPI_INT, ic));
    for (int r = 0; r < rn; r++)
        CHECK(all[r] == val(og, r, me), "intercommunicator alltoall: from %d got %d", r, all[r]);
    MPI_Request nb[2];
    for (int i = 0; i < 3; i++)
        bc[i] = (!g && me == root_a) ? val(0, root_a, i + 7) : -1;
    int ired = -1;
    CHECK_OK(MPI_Ibcast(bc, 3, MPI_INT, root_arg, ic, &nb[0]));
    CHECK_OK(MPI_Iallreduce(&contrib, &ired, 1, MPI_INT, MPI_SUM, ic, &nb[1]));
    CHECK_OK(MPI_Waitall(2, nb, MPI_STATUSES_IGNORE));
    if (g)
        CHECK(bc[0] == val(0, root_a, 7), "intercommunicator ibcast: %d", bc[0]);
    CHECK(ired == (g ? sum_a : sum_b), "intercommunicator iallreduce: %d", ired);

    derived_dup(ic, me, n, rn);
    derived_split(ic, me, n, rn);
    derived_create(ic, g, me, n, rn);

    /* merged: A's members first */
    MPI_Comm merged;
    CHECK_OK(MPI_Intercomm_merge(ic, g, &merged));
    int mr = -1, mn = -1;
    CHECK_OK(MPI_Comm_rank(merged, &mr));
    CHECK_OK(MPI_Comm_size(merged, &mn));
    int want_mr = g ? n_a + me : me;
    CHECK(mr == want_mr && mn == n_a + n_b, "merged: rank %d size %d, expected %d %d", mr, mn, want_mr, n_a + n_b);
    CHECK_OK(MPI_Comm_test_inter(merged, &inter));
    CHECK(!inter, "the merged communicator is an intercommunicator");
    int msum = -1;
    CHECK_OK(MPI_Allreduce(&mr, &msum, 1, MPI_INT, MPI_SUM, merged));
    CHECK(msum == mn * (mn - 1) / 2, "merged allreduce: %d", msum);
    int prev = (mr - 1 + mn) % mn, got = -1;
    CHECK_OK(MPI_Sendrecv(&mr, 1, MPI_INT, (mr + 1) % mn, 9, &got, 1, MPI_INT, prev, 9, merged, MPI_STATUS_IGNORE));
    CHECK(got == prev, "merged ring: got %d, expected %d", got, prev);
    int *mall = malloc((size_t)mn * sizeof *mall);
    CHECK_OK(MPI_Allgather(&mr, 1, MPI_INT, mall, 1, MPI_INT, merged));
    for (int r = 0; r < mn; r++)
        CHECK(mall[r] == r, "merged allgather: element %d is %d", r, mall[r]);
    MPI_Comm md;
    CHECK_OK(MPI_Comm_dup(merged, &md));
    CHECK_OK(MPI_Barrier(md));
    CHECK_OK(MPI_Comm_free(&md));
    CHECK_OK(MPI_Comm_free(&merged));
    CHECK_OK(MPI_Comm_free(&ic));
    free(out);
    free(in);
    free(seen);
    free(rq);
    free(all);
    free(a2s);
    free(mall);
    return NULL;
}

/* mode "peer": this member's group is its part of the peer endpoints
 * communicator, split by process parity */
static void *member_split(void *p)
{
    struct member *m = p;
    int er = -1;
    CHECK_OK(MPI_Comm_rank(m->peer, &er));
    CHECK_OK(MPI_Comm_split(m->peer, m->in_b, er, &m->local));
    return NULL;
}

int main(int argc, char **argv)
{
    ep_init(&argc, &argv, &wrank, &wsize);
    mode = argc > 1 ? argv[1] : "both";
    int t = argc > 2 ? atoi(argv[2]) : 2;
    CHECK(t >= 1 && t + 1 <= MAX_EP, "bad endpoint count %d", t);
    int one = strcmp(mode, "one") == 0, peer_ep = strcmp(mode, "peer") == 0;
    int overlap = strcmp(mode, "overlap") == 0;
    CHECK(wsize >= 2 || overlap, "needs at least 2 processes");
    int in_b = wrank % 2;
    int procs_a = (wsize + 1) / 2, procs_b = wsize / 2;
    t_a = t;
    t_b = one ? 1 : t + 1;
    n_a = procs_a * t_a;
    n_b = procs_b * t_b;
    int mine = in_b ? t_b : t_a;
    int my_index = wrank / 2; /* this process's place in its group */
    if (overlap) {
        /* every process in both groups: its even endpoints in A, its odd
         * ones in B */
        CHECK(t >= 2, "overlap needs 2 endpoints or more per process");
        t_a = (t + 1) / 2;
        t_b = t / 2;
        n_a = wsize * t_a;
        n_b = wsize * t_b;
        mine = t;
        peer_ep = 1;
    }
    CHECK(n_a <= NMAX && n_b <= NMAX, "too many endpoints");

    struct member mem[MAX_EP];
    MPI_Comm half, local[MAX_EP], peers[MAX_EP];
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, in_b, wrank, &half));
    if (peer_ep) {
        /* one endpoints communicator over all, split by process parity
         * (overlap: by endpoint parity); the leaders are world ranks 0
         * and 1's first endpoints (overlap: process 0's first two) */
        CHECK_OK(MPIX_Comm_create_endpoints(MPI_COMM_WORLD, mine, MPI_INFO_NULL, peers));
    } else if (one && in_b) {
        local[0] = half;
    } else
        CHECK_OK(MPIX_Comm_create_endpoints(half, mine, MPI_INFO_NULL, local));
    pthread_t th[MAX_EP];
    for (int i = 0; i < mine; i++) {
        mem[i].in_b = in_b;
        mem[i].lrank = my_index * mine + i;
        if (overlap) {
            mem[i].in_b = i % 2;
            mem[i].lrank = wrank * (i % 2 ? t_b : t_a) + i / 2;
            mem[i].peer = peers[i];
            mem[i].local = MPI_COMM_NULL;
            mem[i].remote_leader = i % 2 ? 0 : 1; /* process 0's endpoints 0 (A) and 1 (B) */
        } else if (peer_ep) {
            mem[i].peer = peers[i];
            mem[i].local = MPI_COMM_NULL;
            mem[i].remote_leader = in_b ? 0 : t_a; /* world rank 1 follows rank 0's t_a endpoints */
        } else {
            mem[i].peer = MPI_COMM_WORLD;
            mem[i].local = local[i];
            mem[i].remote_leader = in_b ? 0 : 1;
        }
    }
    if (peer_ep) {
        /* the split is collective: one thread per endpoint */
        for (int i = 0; i < mine; i++)
            CHECK(pthread_create(&th[i], NULL, member_split, &mem[i]) == 0, "pthread_create");
        for (int i = 0; i < mine; i++)
            pthread_join(th[i], NULL);
    }
    for (int i = 0; i < mine; i++)
        CHECK(pthread_create(&th[i], NULL, member_main, &mem[i]) == 0, "pthread_create");
    for (int i = 0; i < mine; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < mine; i++) {
        if (peer_ep)
            CHECK_OK(MPI_Comm_free(&mem[i].peer));
        if (mem[i].local != half)
            CHECK_OK(MPI_Comm_free(&mem[i].local));
    }
    CHECK_OK(MPI_Comm_free(&half));
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (wrank == 0)
        printf("ep_inter: ok (%s, %d processes, %d + %d members)\n", mode, wsize, n_a, n_b);
    MPI_Finalize();
    return 0;
}
