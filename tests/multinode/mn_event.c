/*
 * mn_event.c: PMIx events across hosts (tests/multinode). Every rank
 * registers a handler; rank 0 raises event A (with a payload) for the
 * whole session, every other rank must see it exactly once, wherever it
 * runs; then event B the same way, which also shows that A did not come
 * round again (events travel in order along one path).
 * Prints "mn_event: ok on N ranks" from rank 0 when every rank agrees.
 */
#include <mpi.h>
#include <pmix.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CODE_A (PMIX_EXTERNAL_ERR_BASE - 71)
#define CODE_B (PMIX_EXTERNAL_ERR_BASE - 72)

static atomic_int got_a, got_b, bad_payload, bad_source;

static void handler(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                    pmix_info_t results[], size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc,
                    void *cbdata)
{
    (void)id;
    (void)results;
    (void)nresults;
    if (!source || source->rank != 0)
        atomic_fetch_add(&bad_source, 1);
    if (status == CODE_A) {
        int seen = 0;
        for (size_t i = 0; i < ninfo; i++)
            if (PMIX_CHECK_KEY(&info[i], "mn.payload") && info[i].value.type == PMIX_STRING &&
                strcmp(info[i].value.data.string, "from rank 0") == 0)
                seen = 1;
        if (!seen)
            atomic_fetch_add(&bad_payload, 1);
        atomic_fetch_add(&got_a, 1);
    } else if (status == CODE_B) {
        atomic_fetch_add(&got_b, 1);
    }
    if (cbfunc)
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

/* Wait (at most 20 s) until the counter is nonzero. */
static int wait_for(atomic_int *c)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (atomic_load(c) == 0) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (t.tv_sec - t0.tv_sec > 20)
            return -1;
        usleep(1000);
    }
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pmix_proc_t me;
    if (PMIx_Init(&me, NULL, 0) != PMIX_SUCCESS) {
        fprintf(stderr, "mn_event: rank %d: PMIx_Init failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    pmix_status_t codes[] = {CODE_A, CODE_B};
    pmix_status_t rc = PMIx_Register_event_handler(codes, 2, NULL, 0, handler, NULL, NULL);
    if (rc < 0) {
        fprintf(stderr, "mn_event: rank %d: cannot register a handler: %s\n", rank, PMIx_Error_string(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int fail = 0;
    atomic_int *counters[] = {&got_a, &got_b};
    for (int round = 0; round < 2; round++) {
        if (rank == 0) {
            pmix_info_t info;
            PMIX_INFO_LOAD(&info, "mn.payload", "from rank 0", PMIX_STRING);
            rc = PMIx_Notify_event(round == 0 ? CODE_A : CODE_B, &me, PMIX_RANGE_SESSION, &info, 1, NULL, NULL);
            PMIX_INFO_DESTRUCT(&info);
            if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) {
                fprintf(stderr, "mn_event: PMIx_Notify_event: %s\n", PMIx_Error_string(rc));
                fail = 1;
            }
        } else if (wait_for(counters[round]) != 0) {
            fprintf(stderr, "mn_event: rank %d never saw event %c\n", rank, 'A' + round);
            fail = 1;
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank != 0 && (got_a != 1 || got_b != 1 || bad_payload || bad_source)) {
        fprintf(stderr, "mn_event: rank %d saw A %d times, B %d times (%d without the payload, %d not from rank 0)\n",
                rank, (int)got_a, (int)got_b, (int)bad_payload, (int)bad_source);
        fail = 1;
    }
    int any;
    MPI_Allreduce(&fail, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && !any)
        printf("mn_event: ok on %d ranks\n", size);
    PMIx_Finalize(NULL, 0);
    MPI_Finalize();
    return any;
}
