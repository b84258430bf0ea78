/*
 * ep_rma.c: one-sided communication on an endpoints communicator, one
 * thread per endpoint: windows made by MPI_Win_create, MPI_Win_allocate
 * and MPI_Win_allocate_shared over the endpoints communicator (and a
 * dynamic one, written by MPI_Put at the addresses attached), each
 * endpoint a rank of the window with memory of its own. Checked in every
 * window: MPI_Win_get_group (MPI_IDENT to the communicator's group);
 * fence epochs with MPI_Put (each rank writes its rank into its slot at
 * every rank), MPI_Get (from the next rank) and MPI_Accumulate (a sum at
 * every rank); passive target with MPI_Win_lock_all and MPI_Fetch_and_op
 * on a counter at rank 0, and exclusive MPI_Win_lock, MPI_Get, flush,
 * MPI_Put of the value plus one and MPI_Win_unlock on another counter
 * there (mutual exclusion between endpoints of one process included:
 * every increment must survive); PSCW (post to the previous rank, start
 * on the next, a put, complete, wait); and for the shared window,
 * MPI_Win_shared_query and a load of the next rank's memory.
 * Usage: ep_rma RULE [noshared]   (RULE: T endpoints per process,
 * "uneven", or "zero"; noshared leaves out MPI_Win_allocate_shared, for
 * processes on several nodes)
 */
#include "ep_testutil.h"

#define NMAX 64

static int with_shared = 1;

/* slots: 0..n-1 the puts, n the accumulate, n+1 the gets' target value,
 * n+2 and n+3 the counters */
static int slots(int n)
{
    return n + 4;
}

static void check_window(MPI_Win win, int *mem, MPI_Comm c, int me, int n, const char *kind)
{
    MPI_Group wg, cg;
    int cmp = -1;
    CHECK_OK(MPI_Win_get_group(win, &wg));
    CHECK_OK(MPI_Comm_group(c, &cg));
    CHECK_OK(MPI_Group_compare(wg, cg, &cmp));
    CHECK(cmp == MPI_IDENT, "%s: the window's group compares %d to the communicator's", kind, cmp);
    int wr = -1;
    CHECK_OK(MPI_Group_rank(wg, &wr));
    CHECK(wr == me, "%s: rank %d in the window's group, expected %d", kind, wr, me);

    /* fence: puts, gets, accumulates */
    CHECK_OK(MPI_Win_fence(0, win));
    for (int i = 0; i < slots(n); i++)
        mem[i] = -1;
    mem[n] = 0;
    mem[n + 1] = 1000 + me;
    mem[n + 2] = 0;
    mem[n + 3] = 0;
    CHECK_OK(MPI_Win_fence(0, win));
    int got = -1, one = me + 1;
    for (int t = 0; t < n; t++) {
        CHECK_OK(MPI_Put(&me, 1, MPI_INT, t, me, 1, MPI_INT, win));
        CHECK_OK(MPI_Accumulate(&one, 1, MPI_INT, t, n, 1, MPI_INT, MPI_SUM, win));
    }
    CHECK_OK(MPI_Get(&got, 1, MPI_INT, (me + 1) % n, n + 1, 1, MPI_INT, win));
    CHECK_OK(MPI_Win_fence(0, win));
    for (int i = 0; i < n; i++)
        CHECK(mem[i] == i, "%s: rank %d slot %d is %d after the puts", kind, me, i, mem[i]);
    CHECK(mem[n] == n * (n + 1) / 2, "%s: rank %d accumulated %d, expected %d", kind, me, mem[n], n * (n + 1) / 2);
    CHECK(got == 1000 + (me + 1) % n, "%s: rank %d got %d from rank %d", kind, me, got, (me + 1) % n);
    CHECK_OK(MPI_Win_fence(0, win));

    /* passive target: an atomic counter and a read-modify-write under an
     * exclusive lock, both at rank 0 */
    int inc = 1, old = -1;
    CHECK_OK(MPI_Win_lock_all(0, win));
    CHECK_OK(MPI_Fetch_and_op(&inc, &old, MPI_INT, 0, n + 2, MPI_SUM, win));
    CHECK_OK(MPI_Win_flush(0, win));
    CHECK(old >= 0 && old < n, "%s: fetch-and-op returned %d", kind, old);
    CHECK_OK(MPI_Win_unlock_all(win));
    CHECK_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
    int v = -1;
    CHECK_OK(MPI_Get(&v, 1, MPI_INT, 0, n + 3, 1, MPI_INT, win));
    CHECK_OK(MPI_Win_flush(0, win));
    v++;
    CHECK_OK(MPI_Put(&v, 1, MPI_INT, 0, n + 3, 1, MPI_INT, win));
    CHECK_OK(MPI_Win_unlock(0, win));
    CHECK_OK(MPI_Barrier(c));
    if (me == 0) {
        CHECK_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        int counters[2] = {-1, -1};
        CHECK_OK(MPI_Get(counters, 2, MPI_INT, 0, n + 2, 2, MPI_INT, win));
        CHECK_OK(MPI_Win_unlock(0, win));
        CHECK(counters[0] == n && counters[1] == n, "%s: counters %d and %d, expected %d", kind, counters[0],
              counters[1], n);
    }
    CHECK_OK(MPI_Barrier(c));

    /* PSCW: each rank exposes to the previous one and writes to the next */
    int next = (me + 1) % n, prev = (me + n - 1) % n;
    MPI_Group gnext, gprev;
    CHECK_OK(MPI_Group_incl(wg, 1, &next, &gnext));
    CHECK_OK(MPI_Group_incl(wg, 1, &prev, &gprev));
    int mark = 5000 + me;
    CHECK_OK(MPI_Win_post(gprev, 0, win));
    CHECK_OK(MPI_Win_start(gnext, 0, win));
    CHECK_OK(MPI_Put(&mark, 1, MPI_INT, next, n + 1, 1, MPI_INT, win));
    CHECK_OK(MPI_Win_complete(win));
    CHECK_OK(MPI_Win_wait(win));
    CHECK(mem[n + 1] == 5000 + prev, "%s: rank %d has %d from PSCW, expected %d", kind, me, mem[n + 1], 5000 + prev);
    CHECK_OK(MPI_Group_free(&gnext));
    CHECK_OK(MPI_Group_free(&gprev));
    CHECK_OK(MPI_Group_free(&wg));
    CHECK_OK(MPI_Group_free(&cg));
    CHECK_OK(MPI_Barrier(c));
}

static void *endpoint_main(void *p)
{
    struct ep_thread_arg *a = p;
    int me, n;
    ep_expect(a->comm, a->rank, a->size, &me, &n);
    CHECK(n <= NMAX, "too many endpoints");
    size_t bytes = (size_t)slots(n) * sizeof(int);

    int *mem = malloc(bytes);
    MPI_Win win;
    CHECK_OK(MPI_Win_create(mem, (MPI_Aint)bytes, sizeof(int), MPI_INFO_NULL, a->comm, &win));
    check_window(win, mem, a->comm, me, n, "MPI_Win_create");
    CHECK_OK(MPI_Win_free(&win));
    free(mem);

    int *amem = NULL;
    CHECK_OK(MPI_Win_allocate((MPI_Aint)bytes, sizeof(int), MPI_INFO_NULL, a->comm, &amem, &win));
    check_window(win, amem, a->comm, me, n, "MPI_Win_allocate");
    CHECK_OK(MPI_Win_free(&win));

    /* a dynamic window: each rank attaches a buffer of its own, the
     * others write at its address */
    int dyn[2] = {-1, -1};
    MPI_Aint mine_at, *at = malloc((size_t)n * sizeof *at);
    CHECK_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, a->comm, &win));
    CHECK_OK(MPI_Win_attach(win, dyn, sizeof dyn));
    CHECK_OK(MPI_Get_address(dyn, &mine_at));
    CHECK_OK(MPI_Allgather(&mine_at, 1, MPI_AINT, at, 1, MPI_AINT, a->comm));
    CHECK_OK(MPI_Win_fence(0, win));
    int nx = (me + 1) % n, pv = (me + n - 1) % n;
    CHECK_OK(MPI_Put(&me, 1, MPI_INT, nx, at[nx], 1, MPI_INT, win));
    CHECK_OK(MPI_Win_fence(0, win));
    CHECK(dyn[0] == pv && dyn[1] == -1, "dynamic window: rank %d has %d %d, expected %d -1", me, dyn[0], dyn[1], pv);
    CHECK_OK(MPI_Win_detach(win, dyn));
    CHECK_OK(MPI_Win_free(&win));
    free(at);

    if (!with_shared) {
        CHECK_OK(MPI_Comm_free(&a->comm));
        return NULL;
    }
    int *smem = NULL;
    CHECK_OK(MPI_Win_allocate_shared((MPI_Aint)bytes, sizeof(int), MPI_INFO_NULL, a->comm, &smem, &win));
    check_window(win, smem, a->comm, me, n, "MPI_Win_allocate_shared");
    /* the next rank's memory, by load */
    MPI_Aint qsize = 0;
    int qunit = 0, *qbase = NULL;
    int next = (me + 1) % n;
    CHECK_OK(MPI_Win_shared_query(win, next, &qsize, &qunit, &qbase));
    CHECK(qsize == (MPI_Aint)bytes && qunit == (int)sizeof(int) && qbase, "shared query: size %ld unit %d",
          (long)qsize, qunit);
    CHECK_OK(MPI_Win_lock_all(0, win));
    CHECK_OK(MPI_Win_sync(win));
    CHECK(qbase[next] == next, "shared window: rank %d's slot %d read as %d", next, next, qbase[next]);
    CHECK_OK(MPI_Win_unlock_all(win));
    CHECK_OK(MPI_Win_free(&win));
    CHECK_OK(MPI_Comm_free(&a->comm));
    return NULL;
}

int main(int argc, char **argv)
{
    int wrank, wsize;
    ep_init(&argc, &argv, &wrank, &wsize);
    const char *rule = argc > 1 ? argv[1] : "2";
    with_shared = !(argc > 2 && strcmp(argv[2], "noshared") == 0);
    ep_run_threads("ep_rma", rule, wrank, wsize, endpoint_main);
    MPI_Finalize();
    return 0;
}
