/*
 * ep_create.c: making and freeing endpoints communicators. Endpoints of
 * MPI_COMM_SELF, of a part of MPI_COMM_WORLD (MPI_Comm_split) and of a
 * reordered MPI_COMM_WORLD (their ranks follow the parent's order); two
 * endpoints communicators alive at once with traffic on both (a message
 * of one never matches a receive of the other); many rounds of create,
 * use and free with a changing number of endpoints per process (some
 * rounds none), which must not run out of context ids; MPI_PROC_NULL on
 * an endpoint; a split where every endpoint of one process is
 * MPI_UNDEFINED (and endpoints made of it, 2 per endpoint) and
 * MPI_Comm_split_type with MPI_UNDEFINED; nonblocking collectives left
 * outstanding across MPI_Comm_dup and MPI_Comm_split.
 * Usage: ep_create [T (endpoints per process, default 3)] [rounds]
 */
#include "ep_testutil.h"

#include <pthread.h>

#define MAX_EP 16

static int wrank, wsize, nthreads, rounds = 40;

/* run fn(i, arg) on i = 0 .. n - 1, one thread each */
struct job {
    void (*fn)(int, void *);
    void *arg;
    int i;
};

static void *job_main(void *p)
{
    struct job *j = p;
    j->fn(j->i, j->arg);
    return NULL;
}

static void run_threads(int n, void (*fn)(int, void *), void *arg)
{
    pthread_t th[MAX_EP];
    struct job jobs[MAX_EP];
    for (int i = 0; i < n; i++) {
        jobs[i] = (struct job){fn, arg, i};
        CHECK(pthread_create(&th[i], NULL, job_main, &jobs[i]) == 0, "pthread_create");
    }
    for (int i = 0; i < n; i++)
        pthread_join(th[i], NULL);
}

/* rank, size, an allreduce of the ranks and a ring */
static void use(MPI_Comm c, int expect_rank, int expect_size, const char *what)
{
    int me = -1, n = -1;
    CHECK_OK(MPI_Comm_rank(c, &me));
    CHECK_OK(MPI_Comm_size(c, &n));
    CHECK(me == expect_rank && n == expect_size, "%s: rank %d size %d, expected %d %d", what, me, n, expect_rank,
          expect_size);
    int sum = -1;
    CHECK_OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c));
    CHECK(sum == n * (n - 1) / 2, "%s: allreduce %d", what, sum);
    int in = -1, prev = (me - 1 + n) % n;
    CHECK_OK(MPI_Sendrecv(&me, 1, MPI_INT, (me + 1) % n, 2, &in, 1, MPI_INT, prev, 2, c, MPI_STATUS_IGNORE));
    CHECK(in == prev, "%s: ring got %d, expected %d", what, in, prev);
}

/* ---- endpoints of MPI_COMM_SELF, of a split and of a reordered world ---- */

struct parents {
    MPI_Comm self[MAX_EP], half[MAX_EP], rev[MAX_EP];
    int half_rank, half_size;
};

static void parents_work(int i, void *p)
{
    struct parents *a = p;
    use(a->self[i], i, nthreads, "endpoints of MPI_COMM_SELF");
    use(a->half[i], a->half_rank * nthreads + i, a->half_size * nthreads, "endpoints of a split of the world");
    int rev_rank = (wsize - 1 - wrank) * nthreads + i;
    use(a->rev[i], rev_rank, wsize * nthreads, "endpoints of the reversed world");
    MPI_Group g, wg;
    CHECK_OK(MPI_Comm_group(a->rev[i], &g));
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    int w = -1;
    CHECK_OK(MPI_Group_translate_ranks(g, 1, &rev_rank, wg, &w));
    CHECK(w == wrank, "reversed world: endpoint %d translates to world rank %d, expected %d", rev_rank, w, wrank);
    CHECK_OK(MPI_Group_free(&g));
    CHECK_OK(MPI_Group_free(&wg));
    CHECK_OK(MPI_Comm_free(&a->self[i]));
    CHECK_OK(MPI_Comm_free(&a->rev[i]));
    CHECK_OK(MPI_Comm_free(&a->half[i]));
}

static void parents(void)
{
    struct parents a;
    MPI_Comm half, rev;
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wrank, &half));
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, 0, wsize - wrank, &rev));
    CHECK_OK(MPI_Comm_rank(half, &a.half_rank));
    CHECK_OK(MPI_Comm_size(half, &a.half_size));
    CHECK_OK(MPIX_Comm_create_endpoints(MPI_COMM_SELF, nthreads, MPI_INFO_NULL, a.self));
    CHECK_OK(MPIX_Comm_create_endpoints(half, nthreads, MPI_INFO_NULL, a.half));
    CHECK_OK(MPIX_Comm_create_endpoints(rev, nthreads, MPI_INFO_NULL, a.rev));
    /* the parents may go first */
    CHECK_OK(MPI_Comm_free(&half));
    CHECK_OK(MPI_Comm_free(&rev));
    run_threads(nthreads, parents_work, &a);
}

/* ---- two endpoints communicators at once ---- */

struct two {
    MPI_Comm a[MAX_EP], b[MAX_EP];
    int na, nb, first_a, first_b, size_a, size_b;
};

static void two_work(int i, void *p)
{
    struct two *t = p;
    MPI_Comm a = t->a[i], b = i < t->nb ? t->b[i] : MPI_COMM_NULL;
    int ma = t->first_a + i, mb = t->first_b + i;
    /* one message on each to the next rank, same tag; received on b
     * first, with wildcards, then on a */
    int va = 1000 + ma, vb = 2000 + mb, in = -1;
    MPI_Request rq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    CHECK_OK(MPI_Isend(&va, 1, MPI_INT, (ma + 1) % t->size_a, 5, a, &rq[0]));
    if (b != MPI_COMM_NULL) {
        CHECK_OK(MPI_Isend(&vb, 1, MPI_INT, (mb + 1) % t->size_b, 5, b, &rq[1]));
        MPI_Status st;
        CHECK_OK(MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, b, &st));
        int pb = (mb - 1 + t->size_b) % t->size_b;
        CHECK(in == 2000 + pb && st.MPI_SOURCE == pb, "two communicators: b got %d from %d, expected %d from %d", in,
              st.MPI_SOURCE, 2000 + pb, pb);
    }
    CHECK_OK(MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 5, a, MPI_STATUS_IGNORE));
    int pa = (ma - 1 + t->size_a) % t->size_a;
    CHECK(in == 1000 + pa, "two communicators: a got %d, expected %d", in, 1000 + pa);
    CHECK_OK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    /* collectives interleaved: nonblocking on a, blocking on b */
    MPI_Request ra;
    int sa = -1, sb = -1;
    CHECK_OK(MPI_Iallreduce(&ma, &sa, 1, MPI_INT, MPI_SUM, a, &ra));
    if (b != MPI_COMM_NULL)
        CHECK_OK(MPI_Allreduce(&mb, &sb, 1, MPI_INT, MPI_SUM, b));
    CHECK_OK(MPI_Wait(&ra, MPI_STATUS_IGNORE));
    CHECK(sa == t->size_a * (t->size_a - 1) / 2, "two communicators: allreduce on a %d", sa);
    if (b != MPI_COMM_NULL) {
        CHECK(sb == t->size_b * (t->size_b - 1) / 2, "two communicators: allreduce on b %d", sb);
        CHECK_OK(MPI_Comm_free(&t->b[i]));
    }
    CHECK_OK(MPI_Comm_free(&t->a[i]));
}

static void two_at_once(void)
{
    struct two t;
    t.na = nthreads;
    t.nb = 1 + wrank % nthreads; /* at most na */
    t.first_a = wrank * t.na;
    t.size_a = wsize * t.na;
    t.first_b = 0;
    t.size_b = 0;
    for (int r = 0; r < wsize; r++) {
        if (r == wrank)
            t.first_b = t.size_b;
        t.size_b += 1 + r % nthreads;
    }
    CHECK_OK(MPIX_Comm_create_endpoints(MPI_COMM_WORLD, t.na, MPI_INFO_NULL, t.a));
    CHECK_OK(MPIX_Comm_create_endpoints(MPI_COMM_WORLD, t.nb, MPI_INFO_NULL, t.b));
    run_threads(t.na, two_work, &t);
}

/* ---- rounds of create, use, free ---- */

struct round_arg {
    MPI_Comm h[MAX_EP];
    int first, total;
};

static void round_work(int i, void *p)
{
    struct round_arg *r = p;
    use(r->h[i], r->first + i, r->total, "a round of create and free");
    /* a dup and a split of it, freed before it */
    MPI_Comm d, s;
    CHECK_OK(MPI_Comm_dup(r->h[i], &d));
    CHECK_OK(MPI_Comm_split(d, (r->first + i) % 2, 0, &s));
    CHECK_OK(MPI_Comm_free(&d));
    CHECK_OK(MPI_Barrier(s));
    CHECK_OK(MPI_Comm_free(&s));
    CHECK_OK(MPI_Comm_free(&r->h[i]));
}

static void create_rounds(void)
{
    for (int round = 0; round < rounds; round++) {
        struct round_arg r;
        int total = 0, mine = 0;
        r.first = 0;
        for (int q = 0; q < wsize; q++) {
            int cnt = (q + round) % (nthreads + 1);
            if (q == 0 && cnt == 0)
                cnt = 1; /* never an empty communicator */
            if (q == wrank) {
                r.first = total;
                mine = cnt;
            }
            total += cnt;
        }
        r.total = total;
        CHECK_OK(MPIX_Comm_create_endpoints(MPI_COMM_WORLD, mine, MPI_INFO_NULL, r.h));
        run_threads(mine, round_work, &r);
    }
}

/* ---- nonblocking collectives outstanding across dup and split ---- */

#define OVERLAP_INTS 4096

struct overlap_arg {
    MPI_Comm h[MAX_EP];
};

static void overlap_work(int i, void *p)
{
    struct overlap_arg *o = p;
    MPI_Comm c = o->h[i];
    int me, n;
    CHECK_OK(MPI_Comm_rank(c, &me));
    CHECK_OK(MPI_Comm_size(c, &n));
    int *big = malloc(OVERLAP_INTS * sizeof *big), *bigr = malloc(OVERLAP_INTS * sizeof *bigr);
    CHECK(big && bigr, "out of memory");
    for (int k = 0; k < 10; k++) {
        MPI_Request r[2];
        int sum = -1, sum_dup = -1;
        for (int j = 0; j < OVERLAP_INTS; j++)
            big[j] = me + j + k;
        CHECK_OK(MPI_Iallreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c, &r[0]));
        CHECK_OK(MPI_Iallreduce(big, bigr, OVERLAP_INTS, MPI_INT, MPI_SUM, c, &r[1]));
        MPI_Comm d, sp;
        CHECK_OK(MPI_Comm_dup(c, &d));
        CHECK_OK(MPI_Comm_split(c, me % 2, -me, &sp));
        CHECK_OK(MPI_Allreduce(&me, &sum_dup, 1, MPI_INT, MPI_SUM, d));
        CHECK_OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
        CHECK(sum == n * (n - 1) / 2 && sum_dup == sum, "overlap: allreduces %d %d", sum, sum_dup);
        for (int j = 0; j < OVERLAP_INTS; j++)
            CHECK(bigr[j] == n * (n - 1) / 2 + n * (j + k), "overlap: element %d is %d", j, bigr[j]);
        CHECK_OK(MPI_Barrier(sp));
        CHECK_OK(MPI_Comm_free(&d));
        CHECK_OK(MPI_Comm_free(&sp));
    }
    free(big);
    free(bigr);
    CHECK_OK(MPI_Comm_free(&o->h[i]));
}

/* ---- MPI_PROC_NULL, undefined colors ---- */

struct nested {
    MPI_Comm h[2];
    int first, total;
};

static void nested_work(int j, void *p)
{
    struct nested *nd = p;
    use(nd->h[j], nd->first + j, nd->total, "endpoints of a split of endpoints");
    CHECK_OK(MPI_Comm_free(&nd->h[j]));
}

struct misc_arg {
    MPI_Comm h[MAX_EP];
};

static void misc_work(int i, void *p)
{
    struct misc_arg *m = p;
    MPI_Comm c = m->h[i];
    int me, n;
    CHECK_OK(MPI_Comm_rank(c, &me));
    CHECK_OK(MPI_Comm_size(c, &n));
    int v = 7;
    MPI_Status st;
    CHECK_OK(MPI_Sendrecv(&v, 1, MPI_INT, MPI_PROC_NULL, 1, &v, 1, MPI_INT, MPI_PROC_NULL, 1, c, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && v == 7, "MPI_PROC_NULL: source %d value %d", st.MPI_SOURCE, v);
    /* every endpoint of world rank 0 is MPI_UNDEFINED */
    MPI_Comm s;
    CHECK_OK(MPI_Comm_split(c, wrank == 0 ? MPI_UNDEFINED : 1, me, &s));
    if (wrank == 0)
        CHECK(s == MPI_COMM_NULL, "split: MPI_UNDEFINED gave a communicator");
    else {
        use(s, me - nthreads, n - nthreads, "split without world rank 0");
        /* endpoints of it: 2 per endpoint, each with a thread */
        struct nested nd;
        CHECK_OK(MPIX_Comm_create_endpoints(s, 2, MPI_INFO_NULL, nd.h));
        nd.first = 2 * (me - nthreads);
        nd.total = 2 * (n - nthreads);
        run_threads(2, nested_work, &nd);
        CHECK_OK(MPI_Comm_free(&s));
    }
    CHECK_OK(MPI_Comm_split_type(c, i == 0 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &s));
    if (i == 0)
        CHECK(s == MPI_COMM_NULL, "split_type: MPI_UNDEFINED gave a communicator");
    else {
        int sn = -1;
        CHECK_OK(MPI_Comm_size(s, &sn));
        CHECK(sn >= nthreads - 1, "split_type: size %d", sn);
        CHECK_OK(MPI_Barrier(s));
        CHECK_OK(MPI_Comm_free(&s));
    }
    CHECK_OK(MPI_Comm_free(&m->h[i]));
}

int main(int argc, char **argv)
{
    ep_init(&argc, &argv, &wrank, &wsize);
    nthreads = argc > 1 ? atoi(argv[1]) : 3;
    if (argc > 2)
        rounds = atoi(argv[2]);
    CHECK(nthreads >= 2 && nthreads <= MAX_EP, "bad endpoint count %d (2 .. %d)", nthreads, MAX_EP);
    parents();
    two_at_once();
    create_rounds();
    struct overlap_arg o;
    CHECK_OK(MPIX_Comm_create_endpoints(MPI_COMM_WORLD, nthreads, MPI_INFO_NULL, o.h));
    run_threads(nthreads, overlap_work, &o);
    if (wsize > 1) {
        struct misc_arg m;
        CHECK_OK(MPIX_Comm_create_endpoints(MPI_COMM_WORLD, nthreads, MPI_INFO_NULL, m.h));
        run_threads(nthreads, misc_work, &m);
    }
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (wrank == 0)
        printf("ep_create: ok (%d processes x %d endpoints, %d rounds)\n", wsize, nthreads, rounds);
    MPI_Finalize();
    return 0;
}
