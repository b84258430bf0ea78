/*
 * ep_errors.c: the errors of MPI Endpoints. Every invalid argument of
 * MPIX_Comm_create_endpoints returns its error class under
 * MPI_ERRORS_RETURN (MPI_COMM_NULL, an intercommunicator, a negative
 * count, NULL handles, a freed info), and every operation endpoints
 * communicators do not support returns MPI_ERR_COMM at once from each
 * handle: MPI_Comm_spawn(_multiple), MPI_Comm_connect / MPI_Comm_accept
 * and the failure-mitigation calls
 * (MPIX_Comm_shrink, _agree, _iagree, _revoke, _failure_ack,
 * _ack_failed); groups of endpoints given to MPI_Comm_create_from_group
 * and MPI_Intercomm_create_from_groups are MPI_ERR_GROUP;
 * MPI_Intercomm_create whose groups share an endpoint is MPI_ERR_ARG,
 * MPI_Comm_create and MPI_Comm_create_group with a group of processes
 * MPI_ERR_GROUP; afterwards the communicator still works. Each error's
 * MPI_Error_string is printed.
 * Usage: ep_errors [multiple T | single | serialized]: "single" starts
 * with MPI_Init, "serialized" with MPI_THREAD_SERIALIZED; there more than
 * one endpoint per process is an MPI_ERR_ARG and one endpoint works.
 */
#include "ep_testutil.h"

#include <pthread.h>
#include <unistd.h>

#define MAX_EP 16

static int wrank, wsize;
static _Thread_local int verbose; /* this thread prints the error strings */

/* call must fail with class cls; its message is printed */
#define EXPECT(call, cls)                                                                                  \
    do {                                                                                                   \
        int rc_ = (call), c_ = -1;                                                                         \
        if (rc_ != MPI_SUCCESS)                                                                            \
            MPI_Error_class(rc_, &c_);                                                                     \
        char s_[MPI_MAX_ERROR_STRING] = "";                                                                \
        int l_ = 0;                                                                                        \
        if (rc_ != MPI_SUCCESS)                                                                            \
            MPI_Error_string(rc_, s_, &l_);                                                                \
        CHECK(c_ == (cls), "%s returned class %d (%s), expected %s", #call, c_, s_, #cls);                 \
        if (verbose)                                                                                       \
            printf("  %-13s %s\n", #cls, s_);                                                              \
    } while (0)

/* ---- the arguments of MPIX_Comm_create_endpoints ---- */

static void bad_arguments(void)
{
    MPI_Comm hs[4] = {MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL};
    EXPECT(MPIX_Comm_create_endpoints(MPI_COMM_NULL, 1, MPI_INFO_NULL, hs), MPI_ERR_COMM);
    EXPECT(MPIX_Comm_create_endpoints(MPI_COMM_WORLD, -1, MPI_INFO_NULL, hs), MPI_ERR_ARG);
    EXPECT(MPIX_Comm_create_endpoints(MPI_COMM_WORLD, 1, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
    MPI_Info info;
    CHECK_OK(MPI_Info_create(&info));
    MPI_Info freed = info;
    CHECK_OK(MPI_Info_free(&info));
    EXPECT(MPIX_Comm_create_endpoints(MPI_COMM_WORLD, 1, freed, hs), MPI_ERR_INFO);
    for (int i = 0; i < 4; i++)
        CHECK(hs[i] == MPI_COMM_NULL, "a failed call wrote handle %d", i);
    if (wsize > 1) {
        /* an intercommunicator between the even and the odd ranks */
        MPI_Comm half, inter;
        CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wrank, &half));
        CHECK_OK(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, wrank % 2 ? 0 : 1, 5, &inter));
        CHECK_OK(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
        EXPECT(MPIX_Comm_create_endpoints(inter, 1, MPI_INFO_NULL, hs), MPI_ERR_COMM);
        CHECK_OK(MPI_Comm_free(&inter));
        CHECK_OK(MPI_Comm_free(&half));
    } else if (verbose)
        printf("  (no intercommunicator with one process)\n");
    /* MPI_COMM_NULL results in no handle, and 0 endpoints is no error */
    CHECK_OK(MPIX_Comm_create_endpoints(MPI_COMM_WORLD, 0, MPI_INFO_NULL, NULL));
}

/* ---- what endpoints communicators refuse ---- */

struct ep_arg {
    MPI_Comm comm;
    int local;
};

static void refused(MPI_Comm c)
{
    MPI_Comm nc = MPI_COMM_NULL;
    char *args[] = {NULL};
    int codes[1];
    EXPECT(MPI_Comm_spawn("/bin/true", args, 1, MPI_INFO_NULL, 0, c, &nc, codes), MPI_ERR_COMM);
    char *cmds[1] = {"/bin/true"};
    char **argvs[1] = {args};
    int maxprocs[1] = {1};
    MPI_Info infos[1] = {MPI_INFO_NULL};
    EXPECT(MPI_Comm_spawn_multiple(1, cmds, argvs, maxprocs, infos, 0, c, &nc, codes), MPI_ERR_COMM);
    EXPECT(MPI_Comm_connect("no-such-port", MPI_INFO_NULL, 0, c, &nc), MPI_ERR_COMM);
    EXPECT(MPI_Comm_accept("no-such-port", MPI_INFO_NULL, 0, c, &nc), MPI_ERR_COMM);
    /* groups that share endpoints (the same group on both sides) */
    EXPECT(MPI_Intercomm_create(c, 0, MPI_COMM_WORLD, 0, 9, &nc), MPI_ERR_ARG);
    /* MPI_Comm_create takes groups of endpoints, not of processes */
    MPI_Group wg;
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    EXPECT(MPI_Comm_create(c, wg, &nc), MPI_ERR_GROUP);
    CHECK_OK(MPI_Group_free(&wg));


    MPI_Request rq = MPI_REQUEST_NULL;
    /* MPI_Comm_create_group too takes groups of endpoints */
    MPI_Group g;
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &g));
    EXPECT(MPI_Comm_create_group(c, g, 3, &nc), MPI_ERR_GROUP);
    CHECK_OK(MPI_Group_free(&g));
    EXPECT(MPIX_Comm_shrink(c, &nc), MPI_ERR_COMM);
    CHECK(nc == MPI_COMM_NULL, "a refused call made a communicator");
    /* the rest of failure mitigation */
    int flag = 1, nacked = 0;
    EXPECT(MPIX_Comm_agree(c, &flag), MPI_ERR_COMM);
    EXPECT(MPIX_Comm_iagree(c, &flag, &rq), MPI_ERR_COMM);
    EXPECT(MPIX_Comm_revoke(c), MPI_ERR_COMM);
    EXPECT(MPIX_Comm_failure_ack(c), MPI_ERR_COMM);
    EXPECT(MPIX_Comm_ack_failed(c, 0, &nacked), MPI_ERR_COMM);
    /* the sessions model's constructors take groups of processes */
    CHECK_OK(MPI_Comm_group(c, &g));
    EXPECT(MPI_Comm_create_from_group(g, "tide.ep_errors", MPI_INFO_NULL, MPI_ERRORS_RETURN, &nc), MPI_ERR_GROUP);
    EXPECT(MPI_Intercomm_create_from_groups(g, 0, g, 0, "tide.ep_errors", MPI_INFO_NULL, MPI_ERRORS_RETURN, &nc),
           MPI_ERR_GROUP);
    CHECK(nc == MPI_COMM_NULL, "a refused call made a communicator");
    CHECK_OK(MPI_Group_free(&g));
}

static void *endpoint_main(void *p)
{
    struct ep_arg *a = p;
    MPI_Comm c = a->comm;
    int me, n;
    CHECK_OK(MPI_Comm_rank(c, &me));
    CHECK_OK(MPI_Comm_size(c, &n));
    CHECK_OK(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
    verbose = me == 0;
    if (verbose)
        printf("refused on an endpoints communicator:\n");
    CHECK_OK(MPI_Barrier(c));
    refused(c);
    /* still usable */
    int sum = -1;
    CHECK_OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c));
    CHECK(sum == n * (n - 1) / 2, "allreduce after the refused calls: %d", sum);
    int in = -1;
    CHECK_OK(MPI_Sendrecv(&me, 1, MPI_INT, (me + 1) % n, 1, &in, 1, MPI_INT, (me - 1 + n) % n, 1, c,
                          MPI_STATUS_IGNORE));
    CHECK(in == (me - 1 + n) % n, "ring after the refused calls: %d", in);
    /* a dup inherits MPI_ERRORS_RETURN and refuses the same */
    MPI_Comm d, nc = MPI_COMM_NULL;
    CHECK_OK(MPI_Comm_dup(c, &d));
    int saved = verbose;
    verbose = 0;
    EXPECT(MPI_Comm_accept("no-such-port", MPI_INFO_NULL, 0, d, &nc), MPI_ERR_COMM);
    verbose = saved;
    CHECK_OK(MPI_Comm_free(&d));
    CHECK_OK(MPI_Comm_free(&a->comm));
    return NULL;
}

static void threads_multiple(int t)
{
    verbose = wrank == 0;
    if (verbose)
        printf("invalid arguments of MPIX_Comm_create_endpoints:\n");
    bad_arguments();
    MPI_Comm hs[MAX_EP];
    CHECK_OK(MPIX_Comm_create_endpoints(MPI_COMM_WORLD, t, MPI_INFO_NULL, hs));
    pthread_t th[MAX_EP];
    struct ep_arg args[MAX_EP];
    fflush(stdout);
    for (int i = 0; i < t; i++) {
        args[i] = (struct ep_arg){hs[i], i};
        CHECK(pthread_create(&th[i], NULL, endpoint_main, &args[i]) == 0, "pthread_create");
    }
    for (int i = 0; i < t; i++)
        pthread_join(th[i], NULL);
}

/* without MPI_THREAD_MULTIPLE: one endpoint per process only */
static void not_multiple(void)
{
    verbose = wrank == 0;
    int level = -1;
    CHECK_OK(MPI_Query_thread(&level));
    if (verbose)
        printf("thread level %d:\n", level);
    bad_arguments();
    MPI_Comm hs[2] = {MPI_COMM_NULL, MPI_COMM_NULL};
    if (level < MPI_THREAD_MULTIPLE) {
        EXPECT(MPIX_Comm_create_endpoints(MPI_COMM_WORLD, 2, MPI_INFO_NULL, hs), MPI_ERR_ARG);
        CHECK(hs[0] == MPI_COMM_NULL && hs[1] == MPI_COMM_NULL, "a refused call wrote handles");
    } else if (verbose)
        printf("  (the library gave MPI_THREAD_MULTIPLE: 2 endpoints would be allowed)\n");
    /* one endpoint per process, and one process with none */
    int mine = wsize > 1 && wrank == wsize - 1 ? 0 : 1;
    CHECK_OK(MPIX_Comm_create_endpoints(MPI_COMM_WORLD, mine, MPI_INFO_NULL, hs));
    if (mine) {
        int me, n, sum = -1;
        CHECK_OK(MPI_Comm_rank(hs[0], &me));
        CHECK_OK(MPI_Comm_size(hs[0], &n));
        int want_n = wsize > 1 ? wsize - 1 : 1;
        CHECK(me == wrank && n == want_n, "one endpoint each: rank %d size %d", me, n);
        CHECK_OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, hs[0]));
        CHECK(sum == n * (n - 1) / 2, "one endpoint each: allreduce %d", sum);
        CHECK_OK(MPI_Comm_set_errhandler(hs[0], MPI_ERRORS_RETURN));
        if (verbose)
            printf("refused on an endpoints communicator of one endpoint per process:\n");
        refused(hs[0]);
        CHECK_OK(MPI_Comm_free(&hs[0]));
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "multiple";
    int provided = -1;
    if (strcmp(mode, "single") == 0)
        MPI_Init(&argc, &argv);
    else if (strcmp(mode, "serialized") == 0)
        MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    else {
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
        CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    if (strcmp(mode, "single") == 0 || strcmp(mode, "serialized") == 0)
        not_multiple();
    else {
        int t = argc > 2 ? atoi(argv[2]) : 2;
        CHECK(t >= 1 && t <= MAX_EP, "bad endpoint count %d", t);
        threads_multiple(t);
    }
    fflush(stdout);
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (wrank == 0)
        printf("ep_errors: ok (%s, %d processes)\n", mode, wsize);
    MPI_Finalize();
    return 0;
}
