/*
 * session_basic.c: the sessions model (MPI-4.0 chapter 11).
 * Usage: session_basic NPROCS MODE, MODE one of
 *   only    a program that never calls MPI_Init: a session, the group of
 *           mpi://WORLD, a communicator from it, an allreduce and a ring
 *           of sends, then MPI_Session_finalize;
 *   twice   the same with two sessions one after the other (the second
 *           after the first was finalized), and two at once;
 *   world   sessions beside the world model: one before MPI_Init that
 *           outlives MPI_Finalize, one inside;
 *   after   a session after MPI_Finalize, once nothing held the runtime.
 * Every mode checks the process sets (names, lengths, mpi_size), the
 * hints in use, the session's error handler, and the errors: a process
 * set that does not exist (MPI_ERR_ARG), MPI_SESSION_NULL (MPI_ERR_SESSION).
 */
#include "testutil.h"

static int nprocs;
static int handler_calls, handler_code;
static MPI_Session handler_session;

static void on_error(MPI_Session *s, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_session = *s;
}

static void check_psets(MPI_Session s)
{
    int n = 0;
    CHECK_OK(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    CHECK(n >= 2, "%d process sets", n);
    int seen_world = 0, seen_self = 0;
    for (int i = 0; i < n; i++) {
        int len = 0;
        CHECK_OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL));
        CHECK(len > 1 && len <= MPI_MAX_PSET_NAME_LEN, "length of process set %d: %d", i, len);
        char name[MPI_MAX_PSET_NAME_LEN];
        int l2 = len;
        CHECK_OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &l2, name));
        CHECK(l2 == len && (int)strlen(name) == len - 1, "process set %d: '%s', length %d then %d", i, name, len, l2);
        /* too short: cut to len - 2 characters */
        char shortname[MPI_MAX_PSET_NAME_LEN];
        int l3 = len - 1;
        CHECK_OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &l3, shortname));
        CHECK(l3 == len && strlen(shortname) == (size_t)len - 2 && strncmp(shortname, name, (size_t)len - 2) == 0,
              "process set %d cut: '%s'", i, shortname);
        seen_world |= strcmp(name, "mpi://WORLD") == 0;
        seen_self |= strcmp(name, "mpi://SELF") == 0;
        MPI_Info info;
        CHECK_OK(MPI_Session_get_pset_info(s, name, &info));
        char v[64];
        int flag = 0;
        CHECK_OK(MPI_Info_get(info, "mpi_size", sizeof v - 1, v, &flag));
        CHECK(flag, "process set %s has no mpi_size", name);
        if (strcmp(name, "mpi://WORLD") == 0)
            CHECK(atoi(v) == nprocs, "mpi_size of mpi://WORLD is %s, expected %d", v, nprocs);
        if (strcmp(name, "mpi://SELF") == 0)
            CHECK(atoi(v) == 1, "mpi_size of mpi://SELF is %s", v);
        CHECK_OK(MPI_Info_free(&info));
    }
    CHECK(seen_world && seen_self, "mpi://WORLD %d, mpi://SELF %d", seen_world, seen_self);
}

static void check_errors(MPI_Session s)
{
    MPI_Group g;
    CHECK_ERR(MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g), MPI_ERR_ARG);
    MPI_Info info;
    CHECK_ERR(MPI_Session_get_pset_info(s, "tide://none", &info), MPI_ERR_ARG);
    int n, len = 0;
    CHECK_ERR(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 99, &len, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Session_get_num_psets(MPI_SESSION_NULL, MPI_INFO_NULL, &n), MPI_ERR_SESSION);
    CHECK_ERR(MPI_Group_from_session_pset(MPI_SESSION_NULL, "mpi://WORLD", &g), MPI_ERR_SESSION);
    CHECK_ERR(MPI_Session_get_info(MPI_SESSION_NULL, &info), MPI_ERR_SESSION);
    MPI_Session none = MPI_SESSION_NULL;
    CHECK_ERR(MPI_Session_finalize(&none), MPI_ERR_SESSION);
    /* the session's own handler: called with the code, given the session */
    MPI_Errhandler eh, got;
    CHECK_OK(MPI_Session_create_errhandler(on_error, &eh));
    CHECK_OK(MPI_Session_set_errhandler(s, eh));
    CHECK_OK(MPI_Session_get_errhandler(s, &got));
    CHECK(got == eh, "MPI_Session_get_errhandler gave another handler");
    CHECK_OK(MPI_Errhandler_free(&got));
    handler_calls = 0;
    CHECK_OK(MPI_Session_call_errhandler(s, MPI_ERR_OTHER));
    CHECK(handler_calls == 1 && handler_code == MPI_ERR_OTHER && handler_session == s,
          "handler called %d times, code %d", handler_calls, handler_code);
    int rc = MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(handler_calls == 2 && cls == MPI_ERR_ARG && handler_code == rc, "bad pset: handler calls %d, class %d",
          handler_calls, cls);
    CHECK_OK(MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Errhandler_free(&eh));
    CHECK(MPI_Session_f2c(MPI_Session_c2f(s)) == s, "c2f/f2c");
}

/* A communicator over mpi://WORLD made from the session, and some
 * traffic on it; its halves by the same string tag (disjoint groups). */
static void use(MPI_Session s, const char *tag)
{
    MPI_Group world, self;
    CHECK_OK(MPI_Group_from_session_pset(s, "mpi://WORLD", &world));
    CHECK_OK(MPI_Group_from_session_pset(s, "mpi://SELF", &self));
    int gsize, grank, ssize;
    CHECK_OK(MPI_Group_size(world, &gsize));
    CHECK_OK(MPI_Group_rank(world, &grank));
    CHECK_OK(MPI_Group_size(self, &ssize));
    CHECK(gsize == nprocs && ssize == 1 && grank >= 0, "group sizes %d and %d, rank %d", gsize, ssize, grank);
    MPI_Info hints;
    CHECK_OK(MPI_Info_create(&hints));
    CHECK_OK(MPI_Info_set(hints, "tide_test_hint", tag));
    MPI_Comm comm;
    CHECK_OK(MPI_Comm_create_from_group(world, tag, hints, MPI_ERRORS_RETURN, &comm));
    CHECK_OK(MPI_Info_free(&hints));
    int rank, size;
    CHECK_OK(MPI_Comm_rank(comm, &rank));
    CHECK_OK(MPI_Comm_size(comm, &size));
    CHECK(rank == grank && size == nprocs, "communicator rank %d size %d", rank, size);
    MPI_Info used;
    CHECK_OK(MPI_Comm_get_info(comm, &used));
    char v[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    CHECK_OK(MPI_Info_get(used, "tide_test_hint", MPI_MAX_INFO_VAL, v, &flag));
    CHECK(flag && strcmp(v, tag) == 0, "the communicator's hint: %d '%s'", flag, flag ? v : "");
    CHECK_OK(MPI_Info_free(&used));
    MPI_Errhandler eh;
    CHECK_OK(MPI_Comm_get_errhandler(comm, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "the communicator's error handler is not the one given");
    CHECK_OK(MPI_Errhandler_free(&eh));

    int one = rank + 1, sum = 0;
    CHECK_OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm));
    CHECK(sum == size * (size + 1) / 2, "allreduce gave %d", sum);
    int token = -1, next = (rank + 1) % size, prev = (rank + size - 1) % size;
    CHECK_OK(MPI_Sendrecv(&rank, 1, MPI_INT, next, 5, &token, 1, MPI_INT, prev, 5, comm, MPI_STATUS_IGNORE));
    CHECK(token == prev, "ring: got %d from %d", token, prev);
    if (size > 1) {
        double big[4096];
        for (int i = 0; i < 4096; i++)
            big[i] = rank * 10000 + i;
        if (rank == 0) {
            CHECK_OK(MPI_Recv(big, 4096, MPI_DOUBLE, size - 1, 6, comm, MPI_STATUS_IGNORE));
            for (int i = 0; i < 4096; i++)
                CHECK(big[i] == (size - 1) * 10000 + i, "big message word %d is %g", i, big[i]);
        } else if (rank == size - 1) {
            CHECK_OK(MPI_Send(big, 4096, MPI_DOUBLE, 0, 6, comm));
        }
    }

    /* halves, each its own communicator, made with one string tag */
    int half = rank < size / 2 ? 0 : 1, lo = half ? size / 2 : 0, hi = half ? size - 1 : size / 2 - 1;
    if (hi >= lo) {
        int range[1][3] = {{lo, hi, 1}};
        MPI_Group hg;
        CHECK_OK(MPI_Group_range_incl(world, 1, range, &hg));
        MPI_Comm hc;
        CHECK_OK(MPI_Comm_create_from_group(hg, "org.tide.test.half", MPI_INFO_NULL, MPI_ERRORS_RETURN, &hc));
        int hs = 0, hsum = 0;
        CHECK_OK(MPI_Comm_size(hc, &hs));
        CHECK_OK(MPI_Allreduce(&rank, &hsum, 1, MPI_INT, MPI_SUM, hc));
        CHECK(hs == hi - lo + 1 && hsum == (lo + hi) * (hi - lo + 1) / 2, "half %d: size %d sum %d", half, hs, hsum);
        CHECK_OK(MPI_Comm_free(&hc));
        CHECK_OK(MPI_Group_free(&hg));
    }
    /* an intercommunicator between the halves, from the two groups */
    if (size >= 2) {
        int lrange[1][3] = {{lo, hi, 1}};
        int rlo = half ? 0 : size / 2, rhi = half ? size / 2 - 1 : size - 1;
        int rrange[1][3] = {{rlo, rhi, 1}};
        MPI_Group lg, rg;
        CHECK_OK(MPI_Group_range_incl(world, 1, lrange, &lg));
        CHECK_OK(MPI_Group_range_incl(world, 1, rrange, &rg));
        MPI_Comm ic;
        CHECK_OK(MPI_Intercomm_create_from_groups(lg, 0, rg, 0, "org.tide.test.inter", MPI_INFO_NULL,
                                                  MPI_ERRORS_RETURN, &ic));
        int inter = 0, rsize = 0, lrank = -1;
        CHECK_OK(MPI_Comm_test_inter(ic, &inter));
        CHECK_OK(MPI_Comm_remote_size(ic, &rsize));
        CHECK_OK(MPI_Comm_rank(ic, &lrank));
        CHECK(inter && rsize == rhi - rlo + 1 && lrank == rank - lo, "intercommunicator: inter %d remote size %d rank %d",
              inter, rsize, lrank);
        /* each local rank 0 sends its world rank to the other's rank 0 */
        if (lrank == 0) {
            int theirs = -1;
            CHECK_OK(MPI_Sendrecv(&rank, 1, MPI_INT, 0, 9, &theirs, 1, MPI_INT, 0, 9, ic, MPI_STATUS_IGNORE));
            CHECK(theirs == rlo, "the other group's leader is %d, expected %d", theirs, rlo);
        }
        CHECK_OK(MPI_Comm_free(&ic));
        CHECK_OK(MPI_Group_free(&lg));
        CHECK_OK(MPI_Group_free(&rg));
    }
    /* a communicator over mpi://SELF */
    MPI_Comm sc;
    CHECK_OK(MPI_Comm_create_from_group(self, "org.tide.test.self", MPI_INFO_NULL, MPI_ERRORS_RETURN, &sc));
    CHECK_OK(MPI_Comm_size(sc, &ssize));
    CHECK(ssize == 1, "self communicator of %d", ssize);
    CHECK_OK(MPI_Comm_free(&sc));
    CHECK_OK(MPI_Comm_free(&comm));
    CHECK_OK(MPI_Group_free(&world));
    CHECK_OK(MPI_Group_free(&self));
}

static MPI_Session open_session(const char *level)
{
    MPI_Info info;
    CHECK_OK(MPI_Info_create(&info));
    CHECK_OK(MPI_Info_set(info, "thread_level", level));
    MPI_Session s = MPI_SESSION_NULL;
    CHECK_OK(MPI_Session_init(info, MPI_ERRORS_RETURN, &s));
    CHECK(s != MPI_SESSION_NULL, "no session");
    CHECK_OK(MPI_Info_free(&info));
    MPI_Info used;
    CHECK_OK(MPI_Session_get_info(s, &used));
    char v[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    CHECK_OK(MPI_Info_get(used, "thread_level", MPI_MAX_INFO_VAL, v, &flag));
    CHECK(flag && strncmp(v, "MPI_THREAD_", 11) == 0, "thread_level in use: %d '%s'", flag, flag ? v : "");
    CHECK_OK(MPI_Info_free(&used));
    return s;
}

static void close_session(MPI_Session *s)
{
    CHECK_OK(MPI_Session_finalize(s));
    CHECK(*s == MPI_SESSION_NULL, "MPI_Session_finalize left the handle");
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: session_basic NPROCS only|twice|world|after\n");
        return 2;
    }
    nprocs = atoi(argv[1]);
    const char *mode = argv[2];
    int flag = 1, rank = 0;
    if (strcmp(mode, "only") == 0 || strcmp(mode, "twice") == 0) {
        int rounds = strcmp(mode, "twice") == 0 ? 2 : 1;
        for (int r = 0; r < rounds; r++) {
            MPI_Session s = open_session(r ? "MPI_THREAD_MULTIPLE" : "MPI_THREAD_SINGLE");
            CHECK_OK(MPI_Initialized(&flag));
            CHECK(!flag, "MPI_Initialized is true in a program of sessions only");
            check_psets(s);
            check_errors(s);
            use(s, r ? "org.tide.test.second" : "org.tide.test.first");
            if (r == 1) { /* two at once */
                MPI_Session t = open_session("MPI_THREAD_SINGLE");
                use(t, "org.tide.test.other");
                close_session(&t);
                use(s, "org.tide.test.again");
            }
            MPI_Group w;
            CHECK_OK(MPI_Group_from_session_pset(s, "mpi://WORLD", &w));
            CHECK_OK(MPI_Group_rank(w, &rank));
            CHECK_OK(MPI_Group_free(&w));
            close_session(&s);
        }
        CHECK_OK(MPI_Finalized(&flag));
        CHECK(!flag, "MPI_Finalized is true in a program of sessions only");
    } else if (strcmp(mode, "after") == 0) {
        MPI_Init(&argc, &argv);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Finalize();
        MPI_Session s = open_session("MPI_THREAD_SINGLE");
        check_psets(s);
        use(s, "org.tide.test.after");
        close_session(&s);
    } else {
        MPI_Session before = open_session("MPI_THREAD_SINGLE");
        use(before, "org.tide.test.before");
        MPI_Init(&argc, &argv);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        int size = 0;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        CHECK(size == nprocs, "MPI_COMM_WORLD has %d ranks", size);
        MPI_Session inside = open_session("MPI_THREAD_FUNNELED");
        check_psets(inside);
        check_errors(inside);
        use(inside, "org.tide.test.inside");
        int one = 1, sum = 0;
        CHECK_OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        CHECK(sum == size, "allreduce on MPI_COMM_WORLD gave %d", sum);
        close_session(&inside);
        MPI_Finalize();
        CHECK_OK(MPI_Finalized(&flag));
        CHECK(flag, "MPI_Finalized is false after MPI_Finalize");
        /* the session still works after the world model ended */
        use(before, "org.tide.test.after");
        close_session(&before);
    }
    if (rank == 0)
        printf("session_basic: ok (%s) on %d ranks\n", mode, nprocs);
    return 0;
}
