/*
 * group_world.c: the group functions on MPI_COMM_WORLD's group (any
 * number of ranks): size and rank agree with the communicator, translate
 * between WORLD, a reversed copy and SELF, incl/excl/range_incl/
 * range_excl, union/intersection/difference, compare; MPI_Comm_compare
 * and MPI_Comm_test_inter on WORLD and SELF; bad input through
 * MPI_ERRORS_RETURN with the error class and the function's name.
 */
#include "testutil.h"

static void expect(int rc, int cls, const char *fn)
{
    int c = -1;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &c);
    CHECK(c == cls, "%s: error class %d, expected %d", fn, c, cls);
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    CHECK_OK(MPI_Error_string(rc, s, &len));
    CHECK(strstr(s, fn) != NULL, "message '%s' does not name %s", s, fn);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    MPI_Group world, self, rev, r;
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_OK(MPI_Comm_group(MPI_COMM_SELF, &self));
    int gs, gr;
    CHECK_OK(MPI_Group_size(world, &gs));
    CHECK_OK(MPI_Group_rank(world, &gr));
    CHECK(gs == size && gr == rank, "group size %d rank %d", gs, gr);
    CHECK_OK(MPI_Group_size(self, &gs));
    CHECK_OK(MPI_Group_rank(self, &gr));
    CHECK(gs == 1 && gr == 0, "self size %d rank %d", gs, gr);

    /* reversed: rank i of rev is world rank size-1-i */
    int *ranks = malloc((size_t)size * sizeof *ranks), *out = malloc((size_t)size * sizeof *out);
    CHECK(ranks && out, "malloc");
    for (int i = 0; i < size; i++)
        ranks[i] = size - 1 - i;
    CHECK_OK(MPI_Group_incl(world, size, ranks, &rev));
    CHECK_OK(MPI_Group_rank(rev, &gr));
    CHECK(gr == size - 1 - rank, "rank in reversed group %d", gr);
    for (int i = 0; i < size; i++)
        ranks[i] = i;
    CHECK_OK(MPI_Group_translate_ranks(world, size, ranks, rev, out));
    for (int i = 0; i < size; i++)
        CHECK(out[i] == size - 1 - i, "translate %d -> %d", i, out[i]);
    int zero = 0, pn = MPI_PROC_NULL, t;
    CHECK_OK(MPI_Group_translate_ranks(self, 1, &zero, world, &t));
    CHECK(t == rank, "SELF rank 0 is world rank %d", t);
    CHECK_OK(MPI_Group_translate_ranks(self, 1, &pn, world, &t));
    CHECK(t == MPI_PROC_NULL, "MPI_PROC_NULL translated to %d", t);
    int other = (rank + 1) % size;
    CHECK_OK(MPI_Group_translate_ranks(world, 1, &other, self, &t));
    CHECK(t == (size == 1 ? 0 : MPI_UNDEFINED), "world rank %d in SELF: %d", other, t);

    int cmp;
    CHECK_OK(MPI_Group_compare(world, rev, &cmp));
    CHECK(cmp == (size == 1 ? MPI_IDENT : MPI_SIMILAR), "world vs reversed %d", cmp);
    CHECK_OK(MPI_Group_compare(world, self, &cmp));
    CHECK(cmp == (size == 1 ? MPI_IDENT : MPI_UNEQUAL), "world vs self %d", cmp);

    /* even ranks by range, odd ones by exclusion; together they are world again */
    MPI_Group even, odd, u, in, diff;
    int rg[1][3] = {{0, size - 1, 2}};
    CHECK_OK(MPI_Group_range_incl(world, 1, rg, &even));
    CHECK_OK(MPI_Group_range_excl(world, 1, rg, &odd));
    int ne, no;
    CHECK_OK(MPI_Group_size(even, &ne));
    CHECK_OK(MPI_Group_size(odd, &no));
    CHECK(ne == (size + 1) / 2 && no == size / 2, "even %d odd %d", ne, no);
    CHECK_OK(MPI_Group_rank(even, &gr));
    CHECK(gr == (rank % 2 == 0 ? rank / 2 : MPI_UNDEFINED), "rank in even %d", gr);
    CHECK_OK(MPI_Group_union(even, odd, &u));
    CHECK_OK(MPI_Group_compare(u, world, &cmp));
    CHECK(cmp == (size <= 2 ? MPI_IDENT : MPI_SIMILAR), "even u odd vs world %d", cmp);
    CHECK_OK(MPI_Group_intersection(even, odd, &in));
    CHECK(in == MPI_GROUP_EMPTY, "even and odd intersect");
    CHECK_OK(MPI_Group_difference(world, odd, &diff));
    CHECK_OK(MPI_Group_compare(diff, even, &cmp));
    CHECK(cmp == MPI_IDENT, "world - odd vs even %d", cmp);
    /* negative stride: the last rank down to 0 */
    int down[1][3] = {{size - 1, 0, -1}};
    CHECK_OK(MPI_Group_range_incl(world, 1, down, &r));
    CHECK_OK(MPI_Group_compare(r, rev, &cmp));
    CHECK(cmp == MPI_IDENT, "range down vs reversed %d", cmp);
    CHECK_OK(MPI_Group_free(&r));
    CHECK_OK(MPI_Group_excl(world, 1, &rank, &r));
    CHECK_OK(MPI_Group_rank(r, &gr));
    CHECK(gr == MPI_UNDEFINED, "rank after excluding myself %d", gr);
    CHECK_OK(MPI_Group_size(r, &gs));
    CHECK(gs == size - 1, "size after excluding one %d", gs);
    CHECK_OK(MPI_Group_free(&r));

    /* communicators */
    CHECK_OK(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &cmp));
    CHECK(cmp == MPI_IDENT, "WORLD vs WORLD %d", cmp);
    CHECK_OK(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, &cmp));
    CHECK(cmp == (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL), "WORLD vs SELF %d", cmp);
    int flag = -1;
    CHECK_OK(MPI_Comm_test_inter(MPI_COMM_WORLD, &flag));
    CHECK(flag == 0, "WORLD is an intercommunicator");

    /* bad input */
    int bad = size;
    expect(MPI_Group_incl(world, 1, &bad, &r), MPI_ERR_RANK, "MPI_Group_incl");
    int twice[2] = {0, 0};
    expect(MPI_Group_excl(world, 2, twice, &r), MPI_ERR_RANK, "MPI_Group_excl");
    int zs[1][3] = {{0, 0, 0}};
    expect(MPI_Group_range_incl(world, 1, zs, &r), MPI_ERR_ARG, "MPI_Group_range_incl");
    expect(MPI_Group_translate_ranks(world, 1, &bad, self, &t), MPI_ERR_RANK, "MPI_Group_translate_ranks");
    expect(MPI_Group_size(MPI_GROUP_NULL, &gs), MPI_ERR_GROUP, "MPI_Group_size");
    MPI_Group gnull = MPI_GROUP_NULL;
    expect(MPI_Group_free(&gnull), MPI_ERR_GROUP, "MPI_Group_free");
    expect(MPI_Comm_remote_group(MPI_COMM_WORLD, &r), MPI_ERR_COMM, "MPI_Comm_remote_group");
    expect(MPI_Comm_remote_size(MPI_COMM_WORLD, &gs), MPI_ERR_COMM, "MPI_Comm_remote_size");
    expect(MPI_Comm_group(MPI_COMM_NULL, &r), MPI_ERR_COMM, "MPI_Comm_group");
    expect(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_NULL, &cmp), MPI_ERR_COMM, "MPI_Comm_compare");

    MPI_Group *all[] = {&world, &self, &rev, &even, &odd, &u, &in, &diff};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        CHECK_OK(MPI_Group_free(all[i]));
        CHECK(*all[i] == MPI_GROUP_NULL, "MPI_Group_free left the handle");
    }
    free(ranks);
    free(out);
    if (rank == 0)
        printf("group_world: ok on %d ranks\n", size);
    MPI_Finalize();
    return 0;
}
