/*
 * ft_revoke_spread.c: a revocation reaches every survivor, also one that
 * only calls operations failing at once (run under mpiexec
 * --enable-recovery, at least 3 ranks). Every survivor posts a receive
 * nobody will match and a large (rendezvous) send nobody will receive on
 * a duplicate of MPI_COMM_WORLD; rank 2 (or the last, at 3 ranks) kills
 * itself; all loop on MPI_Barrier, which fails from the death on. Rank 0
 * revokes the communicator at its first error. Every survivor must then
 * see the communicator revoked (MPIX_Comm_is_revoked, or MPIX_ERR_REVOKED
 * from the barrier) within 30 s, and its two pending requests must end
 * with MPIX_ERR_REVOKED. The error handler of the communicator counts
 * the classes it is called with: they must be the fault-tolerance
 * classes themselves (the value returned is compared with ==, as ULFM
 * codes do).
 *
 * Argument: "wait" (default) completes the two requests with MPI_Wait;
 * "waitall", "testall", "waitsome" with those calls, whose handler call
 * must carry the failed request's own class and which return
 * MPI_ERR_IN_STATUS; "waitany" with MPI_Waitany, which returns the
 * request's class.
 */
#include "testutil.h"

#include <mpi-ext.h>
#include <signal.h>
#include <unistd.h>

#define BIG (1 << 20)

static int handler_calls, handler_bad;
/* a code returned that is not its class (ULFM codes compare with ==) */
static int not_class;

static int class_of(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    if (rc != cls && !not_class)
        not_class = rc;
    return cls;
}

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_calls++;
    if (*code != MPIX_ERR_PROC_FAILED && *code != MPIX_ERR_REVOKED)
        handler_bad = *code;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 3, "needs 3 ranks");
    const char *mode = argc > 1 ? argv[1] : "wait";
    int victim = size > 3 ? 2 : size - 1;
    MPI_Comm comm;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_Errhandler eh;
    CHECK_OK(MPI_Comm_create_errhandler(count_errors, &eh));
    CHECK_OK(MPI_Comm_set_errhandler(comm, eh));

    /* the next survivor in a ring: a receive from it and a send to it
     * that never match */
    int next = (rank + 1) % size;
    if (next == victim)
        next = (next + 1) % size;
    int prev = (rank + size - 1) % size;
    if (prev == victim)
        prev = (prev + size - 1) % size;
    char *out = calloc(BIG, 1), *in = calloc(BIG, 1);
    CHECK(out && in, "out of memory");
    MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    if (rank != victim) {
        CHECK_OK(MPI_Irecv(in, BIG, MPI_CHAR, prev, 77, comm, &reqs[0]));
        CHECK_OK(MPI_Isend(out, BIG, MPI_CHAR, next, 78, comm, &reqs[1]));
    }
    /* everyone has posted (an agreement: it cannot hang on the death) */
    int flag = 1;
    CHECK(MPIX_Comm_agree(comm, &flag) == MPI_SUCCESS, "agree failed");
    if (rank == victim)
        raise(SIGKILL);

    double t0 = MPI_Wtime();
    long barriers = 0, failed = 0;
    int revoked = 0, first_class = -1;
    while (!revoked && MPI_Wtime() - t0 < 30) {
        int rc = MPI_Barrier(comm);
        barriers++;
        if (rc != MPI_SUCCESS) {
            int cls = class_of(rc);
            CHECK(cls == MPIX_ERR_PROC_FAILED || cls == MPIX_ERR_REVOKED,
                  "MPI_Barrier returned class %d, not MPIX_ERR_PROC_FAILED or MPIX_ERR_REVOKED", cls);
            if (failed++ == 0) {
                first_class = cls;
                if (rank == 0)
                    CHECK_OK(MPIX_Comm_revoke(comm));
            }
            if (cls == MPIX_ERR_REVOKED)
                revoked = 1;
        }
        if (!revoked)
            CHECK_OK(MPIX_Comm_is_revoked(comm, &revoked));
    }
    CHECK(revoked, "the communicator is not revoked here after %ld barriers (%ld failed, the first with class %d) "
                   "in %.0f s", barriers, failed, first_class, MPI_Wtime() - t0);

    /* the pending requests end with the revocation; each completion
     * call that fails calls the handler once */
    long wait_errors = 0;
    MPI_Status st[2];
    if (strcmp(mode, "waitall") == 0 || strcmp(mode, "testall") == 0) {
        int rc, done = 1;
        if (mode[0] == 'w')
            rc = MPI_Waitall(2, reqs, st);
        else
            rc = MPI_Testall(2, reqs, &done, st); /* both ended at the revocation */
        wait_errors++;
        CHECK(done, "MPI_Testall: the requests did not end with the revocation");
        CHECK(class_of(rc) == MPI_ERR_IN_STATUS, "%s returned %#x, expected MPI_ERR_IN_STATUS", mode, rc);
        CHECK(class_of(st[0].MPI_ERROR) == MPIX_ERR_REVOKED && class_of(st[1].MPI_ERROR) == MPIX_ERR_REVOKED,
              "statuses: %#x %#x, expected MPIX_ERR_REVOKED", st[0].MPI_ERROR, st[1].MPI_ERROR);
    } else if (strcmp(mode, "waitsome") == 0 || strcmp(mode, "waitany") == 0) {
        for (int done = 0; done < 2;) {
            int out = 0, idx[2], rc;
            if (mode[4] == 's') {
                rc = MPI_Waitsome(2, reqs, &out, idx, st);
                CHECK(class_of(rc) == MPI_ERR_IN_STATUS, "MPI_Waitsome returned %#x, expected MPI_ERR_IN_STATUS", rc);
            } else {
                rc = MPI_Waitany(2, reqs, &idx[0], &st[0]);
                out = 1;
                CHECK(class_of(rc) == MPIX_ERR_REVOKED, "MPI_Waitany returned %#x, expected MPIX_ERR_REVOKED", rc);
                st[0].MPI_ERROR = rc; /* (Waitany leaves the status's MPI_ERROR alone) */
            }
            wait_errors++;
            for (int k = 0; k < out; k++)
                CHECK(class_of(st[k].MPI_ERROR) == MPIX_ERR_REVOKED, "status %d: %#x, expected MPIX_ERR_REVOKED", k,
                      st[k].MPI_ERROR);
            done += out;
        }
    } else {
        int rc = MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
        CHECK(class_of(rc) == MPIX_ERR_REVOKED, "MPI_Wait of the receive returned %#x, expected MPIX_ERR_REVOKED", rc);
        rc = MPI_Wait(&reqs[1], MPI_STATUS_IGNORE);
        CHECK(class_of(rc) == MPIX_ERR_REVOKED, "MPI_Wait of the send returned %#x, expected MPIX_ERR_REVOKED", rc);
        wait_errors += 2;
    }
    long calls = failed + wait_errors;
    CHECK(handler_calls == calls, "the error handler was called %d times, not %ld", handler_calls, calls);

    /* the survivors go on together */
    MPI_Comm shrunk;
    CHECK_OK(MPIX_Comm_shrink(comm, &shrunk));
    int n;
    MPI_Comm_size(shrunk, &n);
    CHECK(n == size - 1, "shrunk to %d", n);
    CHECK_OK(MPI_Barrier(shrunk));
    /* every survivor has seen the revocation and its requests end: now
     * the values themselves */
    CHECK(not_class == 0, "an error code %#x is not its class", not_class);
    CHECK(handler_bad == 0, "the error handler was called with %#x, not a class", handler_bad);
    if (rank == 0)
        printf("ft_revoke_spread: ok (%d survivors)\n", n);
    MPI_Comm_free(&shrunk);
    MPI_Comm_free(&comm);
    MPI_Errhandler_free(&eh);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
