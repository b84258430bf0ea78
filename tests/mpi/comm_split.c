/*
 * comm_split.c: MPI_Comm_split (colors, keys, ties, MPI_UNDEFINED, a
 * hand-computed table at 6 ranks), MPI_Comm_create (MPI-2 form: one group;
 * MPI-3 form: disjoint groups; the empty group; a group that is not a
 * subset), MPI_Comm_create_group (disjoint groups at the same time, tags),
 * MPI_Comm_split_type (MPI_COMM_TYPE_SHARED against the processor names
 * the members report, keys, MPI_UNDEFINED, a bad type), and bad input.
 * Only point-to-point is used to check results.
 */
#include "testutil.h"

static int rank, size;

/* Everyone's value of v on comm, by point-to-point. */
static void allgather_int(MPI_Comm comm, int v, int *out)
{
    int r, n;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    MPI_Request *rq = malloc(2 * (size_t)n * sizeof *rq);
    for (int i = 0; i < n; i++) {
        CHECK_OK(MPI_Irecv(&out[i], 1, MPI_INT, i, 77, comm, &rq[2 * i]));
        CHECK_OK(MPI_Isend(&v, 1, MPI_INT, i, 77, comm, &rq[2 * i + 1]));
    }
    CHECK_OK(MPI_Waitall(2 * n, rq, MPI_STATUSES_IGNORE));
    free(rq);
}

/* The world ranks of comm's members, in comm's rank order. */
static void world_ranks(MPI_Comm comm, int *out)
{
    MPI_Group g, w;
    int n;
    MPI_Comm_group(comm, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    MPI_Group_size(g, &n);
    int *idx = malloc((size_t)n * sizeof *idx);
    for (int i = 0; i < n; i++)
        idx[i] = i;
    MPI_Group_translate_ranks(g, n, idx, w, out);
    free(idx);
    MPI_Group_free(&g);
    MPI_Group_free(&w);
    /* and they agree: every member reports its world rank at its place */
    int *check = malloc((size_t)n * sizeof *check);
    allgather_int(comm, rank, check);
    for (int i = 0; i < n; i++)
        CHECK(check[i] == out[i], "member %d of a communicator is world rank %d, its group says %d", i, check[i],
              out[i]);
    free(check);
}

static void expect_members(MPI_Comm comm, int n, const int *expect, const char *what)
{
    int sz;
    CHECK(comm != MPI_COMM_NULL, "%s: MPI_COMM_NULL", what);
    MPI_Comm_size(comm, &sz);
    CHECK(sz == n, "%s: size %d, expected %d", what, sz, n);
    int *w = malloc((size_t)n * sizeof *w);
    world_ranks(comm, w);
    for (int i = 0; i < n; i++)
        CHECK(w[i] == expect[i], "%s: rank %d is world rank %d, expected %d", what, i, w[i], expect[i]);
    free(w);
}

static void test_split_table(void)
{
    if (size != 6)
        return;
    static const int colors[6] = {0, 1, 0, MPI_UNDEFINED, 1, 0};
    static const int keys[6] = {5, 3, 5, 0, 1, -2};
    static const int c0[] = {5, 0, 2}, c1[] = {4, 1};
    MPI_Comm s;
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, colors[rank], keys[rank], &s));
    if (rank == 3)
        CHECK(s == MPI_COMM_NULL, "MPI_UNDEFINED got a communicator");
    else if (colors[rank] == 0)
        expect_members(s, 3, c0, "split table color 0");
    else
        expect_members(s, 2, c1, "split table color 1");
    if (s != MPI_COMM_NULL)
        MPI_Comm_free(&s);
}

static void test_split_general(void)
{
    MPI_Comm s;
    /* rank % 3, keys reversing the order */
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, rank % 3, -rank, &s));
    int n = 0, exp[64] = {0};
    for (int r = size - 1; r >= 0; r--)
        if (r % 3 == rank % 3)
            exp[n++] = r;
    expect_members(s, n, exp, "split rank%3 reversed");
    /* split of the split: equal keys keep the parent's order */
    MPI_Comm ss;
    int sr;
    MPI_Comm_rank(s, &sr);
    CHECK_OK(MPI_Comm_split(s, sr % 2, 0, &ss));
    int m = 0, exp2[64] = {0};
    for (int i = 0; i < n; i++)
        if (i % 2 == sr % 2)
            exp2[m++] = exp[i];
    expect_members(ss, m, exp2, "split of a split");
    MPI_Comm_free(&ss);
    MPI_Comm_free(&s);
    /* one color: a congruent-size communicator ordered by key */
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, 4, size - rank, &s));
    for (int i = 0; i < size; i++)
        exp[i] = size - 1 - i;
    expect_members(s, size, exp, "split one color");
    int res;
    MPI_Comm_compare(s, MPI_COMM_WORLD, &res);
    CHECK(res == (size == 1 ? MPI_CONGRUENT : MPI_SIMILAR), "compare(reversed, world) = %d", res);
    MPI_Comm_free(&s);
    /* everyone MPI_UNDEFINED */
    CHECK_OK(MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, 0, &s));
    CHECK(s == MPI_COMM_NULL, "all undefined: got a communicator");
    /* bad color */
    CHECK_ERR(MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &s), MPI_ERR_ARG);
    CHECK_ERR(MPI_Comm_split(MPI_COMM_NULL, 0, 0, &s), MPI_ERR_COMM);
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &s), msg, &len);
    CHECK(strstr(msg, "color"), "message '%s'", msg);
}

static void test_create(void)
{
    MPI_Group w, evens, odds, empty;
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    int range_e[1][3] = {{0, size - 1, 2}}, range_o[1][3] = {{1, size - 1, 2}};
    MPI_Group_range_incl(w, 1, range_e, &evens);
    if (size > 1)
        MPI_Group_range_incl(w, 1, range_o, &odds);
    else
        odds = MPI_GROUP_EMPTY;
    int ne = (size + 1) / 2, no = size / 2, exp_e[64] = {0}, exp_o[64] = {0};
    for (int i = 0; i < ne; i++)
        exp_e[i] = 2 * i;
    for (int i = 0; i < no; i++)
        exp_o[i] = 2 * i + 1;
    /* MPI-2: the same group everywhere */
    MPI_Comm c;
    CHECK_OK(MPI_Comm_create(MPI_COMM_WORLD, evens, &c));
    if (rank % 2 == 0) {
        expect_members(c, ne, exp_e, "create(evens)");
        MPI_Comm_free(&c);
    } else {
        CHECK(c == MPI_COMM_NULL, "an odd rank got create(evens)");
    }
    /* MPI-3: disjoint groups, each process its own */
    CHECK_OK(MPI_Comm_create(MPI_COMM_WORLD, rank % 2 ? odds : evens, &c));
    if (rank % 2)
        expect_members(c, no, exp_o, "create(odds | evens)");
    else
        expect_members(c, ne, exp_e, "create(evens | odds)");
    MPI_Comm_free(&c);
    /* the empty group */
    CHECK_OK(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &c));
    CHECK(c == MPI_COMM_NULL, "create(empty) gave a communicator");
    /* the whole group, reordered */
    int *rev = malloc((size_t)size * sizeof *rev);
    for (int i = 0; i < size; i++)
        rev[i] = size - 1 - i;
    MPI_Group rg;
    MPI_Group_incl(w, size, rev, &rg);
    CHECK_OK(MPI_Comm_create(MPI_COMM_WORLD, rg, &c));
    expect_members(c, size, rev, "create(reversed world)");
    int cr;
    MPI_Comm_rank(c, &cr);
    CHECK(cr == size - 1 - rank, "rank in the reversed communicator %d", cr);
    MPI_Comm_free(&c);
    MPI_Group_free(&rg);
    free(rev);
    /* a group that is not a subset of the communicator */
    if (size > 1) {
        MPI_Comm half;
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
        MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN);
        int rc = MPI_Comm_create(half, w, &c);
        int cls;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_GROUP, "create with a bigger group: class %d", cls);
        char msg[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(rc, msg, &len);
        CHECK(strstr(msg, "MPI_Comm_create") && strstr(msg, "group"), "message '%s'", msg);
        MPI_Comm_free(&half);
    }
    CHECK_ERR(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &c), MPI_ERR_GROUP);
    CHECK_ERR(MPI_Comm_create(MPI_COMM_WORLD, w, NULL), MPI_ERR_ARG);

    /* create_group: evens and odds at the same time, same tag */
    CHECK_OK(MPI_Comm_create_group(MPI_COMM_WORLD, rank % 2 ? odds : evens, 7, &c));
    if (rank % 2)
        expect_members(c, no, exp_o, "create_group(odds)");
    else
        expect_members(c, ne, exp_e, "create_group(evens)");
    MPI_Comm_free(&c);
    /* only some processes call it; the others go on with other work */
    MPI_Group first3;
    int n3 = size < 3 ? size : 3, r3[3] = {0, 1, 2};
    MPI_Group_incl(w, n3, r3, &first3);
    if (rank < n3) {
        CHECK_OK(MPI_Comm_create_group(MPI_COMM_WORLD, first3, 12345, &c));
        expect_members(c, n3, r3, "create_group(first 3)");
        MPI_Comm_free(&c);
    }
    /* a caller outside the group gets MPI_COMM_NULL */
    if (rank >= n3) {
        CHECK_OK(MPI_Comm_create_group(MPI_COMM_WORLD, first3, 1, &c));
        CHECK(c == MPI_COMM_NULL, "create_group outside its group");
    }
    CHECK_ERR(MPI_Comm_create_group(MPI_COMM_WORLD, first3, -1, &c), MPI_ERR_TAG);
    MPI_Group_free(&first3);
    MPI_Group_free(&w);
    MPI_Group_free(&evens);
    if (odds != MPI_GROUP_EMPTY)
        MPI_Group_free(&odds);
    (void)empty;
}

static void test_split_type(void)
{
    MPI_Comm s;
    CHECK_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -rank, MPI_INFO_NULL, &s));
    /* the members are exactly the ranks reporting this node's name */
    char me[MPI_MAX_PROCESSOR_NAME] = "";
    int len;
    MPI_Get_processor_name(me, &len);
    char *all = calloc((size_t)size, MPI_MAX_PROCESSOR_NAME);
    MPI_Request *rq = malloc(2 * (size_t)size * sizeof *rq);
    for (int i = 0; i < size; i++) {
        MPI_Irecv(all + (size_t)i * MPI_MAX_PROCESSOR_NAME, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, i, 88, MPI_COMM_WORLD,
                  &rq[2 * i]);
        MPI_Isend(me, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, i, 88, MPI_COMM_WORLD, &rq[2 * i + 1]);
    }
    MPI_Waitall(2 * size, rq, MPI_STATUSES_IGNORE);
    int n = 0, exp[64] = {0};
    for (int r = size - 1; r >= 0; r--) /* key -rank: reversed */
        if (strcmp(all + (size_t)r * MPI_MAX_PROCESSOR_NAME, me) == 0)
            exp[n++] = r;
    expect_members(s, n, exp, "split_type(shared)");
    int nodes = 0;
    for (int r = 0; r < size; r++) {
        int first = 1;
        for (int q = 0; q < r; q++)
            if (strcmp(all + (size_t)q * MPI_MAX_PROCESSOR_NAME, all + (size_t)r * MPI_MAX_PROCESSOR_NAME) == 0)
                first = 0;
        nodes += first;
    }
    if (rank == 0)
        printf("split_type: %d node(s), %d rank(s) on mine\n", nodes, n);
    MPI_Comm_free(&s);
    free(all);
    free(rq);
    /* rank 0 opts out */
    CHECK_OK(MPI_Comm_split_type(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                                 &s));
    if (rank == 0) {
        CHECK(s == MPI_COMM_NULL, "MPI_UNDEFINED got a communicator");
    } else {
        int sz;
        MPI_Comm_size(s, &sz);
        CHECK(sz == n - (exp[n - 1] == 0), "split_type without rank 0: size %d", sz); /* exp ends with the lowest */
        MPI_Comm_free(&s);
    }
    CHECK_ERR(MPI_Comm_split_type(MPI_COMM_WORLD, 99, 0, MPI_INFO_NULL, &s), MPI_ERR_ARG);
    CHECK_ERR(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, (MPI_Info)424242, &s), MPI_ERR_INFO);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size <= 64, "at most 64 ranks");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    test_split_table();
    test_split_general();
    test_create();
    test_split_type();
    if (rank == 0)
        printf("comm_split: ok on %d ranks\n", size);
    MPI_Finalize();
    return 0;
}
