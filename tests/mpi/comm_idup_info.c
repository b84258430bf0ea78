/*
 * comm_idup_info.c: MPI_Comm_idup_with_info (MPI-4.0 section 7.4.2): the
 * duplicate has the hints given (not the parent's), seen through
 * MPI_Comm_get_info; the info object may be freed before the request
 * completes; the duplicate is a working communicator with the parent's
 * group; an intercommunicator duplicates too; MPI_INFO_NULL gives a
 * duplicate without hints; bad arguments fail.
 */
#include "testutil.h"

static void expect_hint(MPI_Comm c, const char *key, const char *want)
{
    MPI_Info used;
    CHECK_OK(MPI_Comm_get_info(c, &used));
    char v[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    CHECK_OK(MPI_Info_get(used, key, MPI_MAX_INFO_VAL, v, &flag));
    if (want)
        CHECK(flag && strcmp(v, want) == 0, "hint %s: flag %d value '%s', expected '%s'", key, flag, flag ? v : "",
              want);
    else
        CHECK(!flag, "hint %s present ('%s'), expected none", key, v);
    CHECK_OK(MPI_Info_free(&used));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* the parent has a hint of its own that the duplicate must not get */
    MPI_Comm parent;
    MPI_Info pinfo;
    CHECK_OK(MPI_Info_create(&pinfo));
    CHECK_OK(MPI_Info_set(pinfo, "mpi_assert_exact_length", "true"));
    CHECK_OK(MPI_Comm_dup_with_info(MPI_COMM_WORLD, pinfo, &parent));
    CHECK_OK(MPI_Info_free(&pinfo));

    MPI_Info info;
    CHECK_OK(MPI_Info_create(&info));
    CHECK_OK(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    CHECK_OK(MPI_Info_set(info, "tide_unknown_hint", "42")); /* ignored: Tide does not know it */
    MPI_Comm dup = MPI_COMM_NULL;
    MPI_Request rq = MPI_REQUEST_NULL;
    CHECK_OK(MPI_Comm_idup_with_info(parent, info, &dup, &rq));
    CHECK(rq != MPI_REQUEST_NULL, "no request");
    CHECK_OK(MPI_Info_free(&info)); /* the hints were taken at the call */
    CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(dup != MPI_COMM_NULL, "no communicator");
    expect_hint(dup, "mpi_assert_no_any_tag", "true");
    expect_hint(dup, "tide_unknown_hint", NULL);
    expect_hint(dup, "mpi_assert_exact_length", NULL);
    expect_hint(parent, "mpi_assert_exact_length", "true");
    int result;
    CHECK_OK(MPI_Comm_compare(dup, parent, &result));
    CHECK(result == MPI_CONGRUENT, "compare gave %d, expected MPI_CONGRUENT", result);
    int sum = 0, one = rank + 1;
    CHECK_OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dup));
    CHECK(sum == size * (size + 1) / 2, "allreduce on the duplicate gave %d", sum);

    /* two at once, in order, with different hints */
    MPI_Info i1, i2;
    MPI_Comm d1, d2;
    MPI_Request rqs[2];
    CHECK_OK(MPI_Info_create(&i1));
    CHECK_OK(MPI_Info_create(&i2));
    CHECK_OK(MPI_Info_set(i1, "mpi_assert_allow_overtaking", "false"));
    CHECK_OK(MPI_Info_set(i2, "mpi_assert_allow_overtaking", "true"));
    CHECK_OK(MPI_Comm_idup_with_info(dup, i1, &d1, &rqs[0]));
    CHECK_OK(MPI_Comm_idup_with_info(dup, i2, &d2, &rqs[1]));
    CHECK_OK(MPI_Waitall(2, rqs, MPI_STATUSES_IGNORE));
    expect_hint(d1, "mpi_assert_allow_overtaking", "false");
    expect_hint(d2, "mpi_assert_allow_overtaking", "true");
    CHECK_OK(MPI_Info_free(&i1));
    CHECK_OK(MPI_Info_free(&i2));
    CHECK_OK(MPI_Comm_free(&d1));
    CHECK_OK(MPI_Comm_free(&d2));

    /* an empty info: no hints at all */
    MPI_Info empty;
    CHECK_OK(MPI_Info_create(&empty));
    MPI_Comm d3;
    CHECK_OK(MPI_Comm_idup_with_info(parent, empty, &d3, &rq));
    CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    expect_hint(d3, "mpi_assert_exact_length", NULL);
    CHECK_OK(MPI_Comm_free(&d3));

    /* an intercommunicator: even and odd ranks */
    if (size >= 2) {
        MPI_Comm half, inter, idup;
        CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
        CHECK_OK(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &inter));
        CHECK_OK(MPI_Info_set(empty, "mpi_assert_allow_overtaking", "false"));
        CHECK_OK(MPI_Comm_idup_with_info(inter, empty, &idup, &rq));
        CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        expect_hint(idup, "mpi_assert_allow_overtaking", "false");
        int flag = 0, rs = 0, prs = 0;
        CHECK_OK(MPI_Comm_test_inter(idup, &flag));
        CHECK_OK(MPI_Comm_remote_size(idup, &rs));
        CHECK_OK(MPI_Comm_remote_size(inter, &prs));
        CHECK(flag && rs == prs, "the duplicate of an intercommunicator: inter %d, remote size %d of %d", flag, rs, prs);
        CHECK_OK(MPI_Comm_free(&idup));
        CHECK_OK(MPI_Comm_free(&inter));
        CHECK_OK(MPI_Comm_free(&half));
    }

    /* MPI_INFO_NULL, as for MPI_Comm_dup_with_info: a duplicate with no
     * hints (not the parent's) */
    MPI_Comm bare = MPI_COMM_NULL;
    CHECK_OK(MPI_Comm_idup_with_info(parent, MPI_INFO_NULL, &bare, &rq));
    CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(bare != MPI_COMM_NULL, "no communicator from MPI_INFO_NULL");
    expect_hint(bare, "mpi_assert_exact_length", NULL);
    CHECK_OK(MPI_Barrier(bare));
    CHECK_OK(MPI_Comm_free(&bare));

    /* errors */
    MPI_Comm_set_errhandler(parent, MPI_ERRORS_RETURN);
    MPI_Info freed;
    CHECK_OK(MPI_Info_create(&freed));
    MPI_Info stale = freed;
    CHECK_OK(MPI_Info_free(&freed));
    CHECK_ERR(MPI_Comm_idup_with_info(parent, stale, &d3, &rq), MPI_ERR_INFO);
    CHECK_ERR(MPI_Comm_idup_with_info(MPI_COMM_NULL, empty, &d3, &rq), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_idup_with_info(parent, empty, &d3, NULL), MPI_ERR_ARG);
    CHECK_OK(MPI_Info_free(&empty));

    CHECK_OK(MPI_Comm_free(&dup));
    CHECK_OK(MPI_Comm_free(&parent));
    if (rank == 0)
        printf("comm_idup_info: ok on %d ranks\n", size);
    MPI_Finalize();
    return 0;
}
