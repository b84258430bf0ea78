/*
 * ep_omp.c: MPI Endpoints with OpenMP threads, in the way the endpoints
 * design presents them: the master thread of a parallel region makes an
 * endpoints communicator with one endpoint per thread, thread t uses
 * handle t. A broadcast from rank 4 (on 4 processes x 3 threads, the
 * twelve ranks of the examples: rank 4 is the second thread of the
 * second process), an allreduce of the ranks, a split of the endpoints
 * by thread parity with messages and a reduction on each half, and the
 * handles freed by their threads.
 * Usage: ep_omp [threads per process, default 3]
 */
/* test-build-flags: -fopenmp */
#include "ep_testutil.h"

#include <omp.h>

#define MAX_EP 16

int main(int argc, char **argv)
{
    int wrank, wsize;
    ep_init(&argc, &argv, &wrank, &wsize);
    int nthreads = argc > 1 ? atoi(argv[1]) : 3;
    CHECK(nthreads >= 1 && nthreads <= MAX_EP, "bad thread count %d", nthreads);
    MPI_Comm ep_comm[MAX_EP];
    int created = MPI_SUCCESS, got_threads = 0, published = 0;

#pragma omp parallel num_threads(nthreads)
    {
        int tn = omp_get_thread_num();
#pragma omp master
        {
            got_threads = omp_get_num_threads();
            created = MPIX_Comm_create_endpoints(MPI_COMM_WORLD, got_threads, MPI_INFO_NULL, ep_comm);
            __atomic_store_n(&published, 1, __ATOMIC_RELEASE);
        }
#pragma omp barrier
        /* set before the barrier; the atomic read shows thread checkers,
         * which do not see into the OpenMP runtime, that the master's
         * writes come first */
        while (!__atomic_load_n(&published, __ATOMIC_ACQUIRE))
            ;
        CHECK(got_threads == nthreads, "the parallel region has %d threads, asked for %d", got_threads, nthreads);
        CHECK_OK(created);
        MPI_Comm c = ep_comm[tn];
        int me = -1, n = -1;
        CHECK_OK(MPI_Comm_rank(c, &me));
        CHECK_OK(MPI_Comm_size(c, &n));
        CHECK(me == wrank * nthreads + tn && n == wsize * nthreads, "thread %d: rank %d size %d, expected %d %d", tn,
              me, n, wrank * nthreads + tn, wsize * nthreads);

        /* the broadcast of the examples: root 4 when there are enough ranks */
        int root = n > 4 ? 4 : n - 1;
        int data[8];
        for (int i = 0; i < 8; i++)
            data[i] = me == root ? 4000 + i : -1;
        CHECK_OK(MPI_Bcast(data, 8, MPI_INT, root, c));
        for (int i = 0; i < 8; i++)
            CHECK(data[i] == 4000 + i, "bcast from %d: rank %d element %d is %d", root, me, i, data[i]);

        /* an allreduce of the ranks */
        int sum = -1;
        CHECK_OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c));
        CHECK(sum == n * (n - 1) / 2, "allreduce: rank %d got %d, expected %d", me, sum, n * (n - 1) / 2);

        /* split by thread parity, keeping the order */
        MPI_Comm half;
        CHECK_OK(MPI_Comm_split(c, tn % 2, me, &half));
        int hme = -1, hn = -1;
        CHECK_OK(MPI_Comm_rank(half, &hme));
        CHECK_OK(MPI_Comm_size(half, &hn));
        int per_proc = (nthreads + 1 - tn % 2) / 2; /* threads of this parity in a process */
        CHECK(hn == wsize * per_proc && hme == wrank * per_proc + tn / 2,
              "split by parity: thread %d of process %d has rank %d of %d, expected %d of %d", tn, wrank, hme, hn,
              wrank * per_proc + tn / 2, wsize * per_proc);
        int in = -1;
        CHECK_OK(MPI_Sendrecv(&me, 1, MPI_INT, (hme + 1) % hn, 9, &in, 1, MPI_INT, (hme - 1 + hn) % hn, 9, half,
                              MPI_STATUS_IGNORE));
        int prev_h = (hme - 1 + hn) % hn;
        int prev_me = (prev_h / per_proc) * nthreads + (prev_h % per_proc) * 2 + tn % 2;
        CHECK(in == prev_me, "split by parity: ring got %d, expected %d", in, prev_me);
        int hsum = -1, want = 0;
        CHECK_OK(MPI_Allreduce(&tn, &hsum, 1, MPI_INT, MPI_SUM, half));
        for (int p = 0; p < wsize; p++)
            for (int t = tn % 2; t < nthreads; t += 2)
                want += t;
        CHECK(hsum == want, "split by parity: allreduce of the thread numbers %d, expected %d", hsum, want);
        CHECK_OK(MPI_Comm_free(&half));
        CHECK_OK(MPI_Barrier(c));
        CHECK_OK(MPI_Comm_free(&ep_comm[tn]));
    }
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (wrank == 0)
        printf("ep_omp: ok (%d processes x %d threads)\n", wsize, nthreads);
    MPI_Finalize();
    return 0;
}
