/*
 * test_group.c: the group algebra on made-up process lists (processes of
 * two jobs mixed): size, rank, translate_ranks, compare, union,
 * intersection, difference, incl, excl, range_incl, range_excl (negative
 * strides, the error cases), free and MPI_GROUP_EMPTY; large groups (the
 * hashed lookups); MPI_Comm_group / MPI_Comm_remote_group,
 * MPI_Comm_compare, test_inter, remote_size and names on intra- and
 * intercommunicators built here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "runtime/api.h"
#include "runtime/errhandler.h"
#include "runtime/proc.h"
#include "comm/comm.h"
#include "comm/group.h"

static struct tide_proc *A(int r) { return tide_proc_get("jobA", (uint32_t)r); }
static struct tide_proc *Bp(int r) { return tide_proc_get("jobB", (uint32_t)r); }

static int setup(void **state)
{
    (void)state;
    tide_errhandler_init();
    snprintf(tide.nspace, sizeof tide.nspace, "jobA");
    tide.rank = 2;
    tide.size = 6;
    tide.me = A(2);
    if (tide_comm_init_predefined() != 0)
        return -1;
    tide_comm_world->errhandler = MPI_ERRORS_RETURN;
    tide_comm_self->errhandler = MPI_ERRORS_RETURN;
    tide.initialized = 1;
    return 0;
}

static int err_class(int rc)
{
    int c = -1;
    PMPI_Error_class(rc, &c);
    return c;
}

static void assert_error_names(int rc, int cls, const char *needle)
{
    assert_int_equal(err_class(rc), cls);
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    assert_int_equal(PMPI_Error_string(rc, s, &len), MPI_SUCCESS);
    if (!strstr(s, needle))
        fail_msg("message '%s' does not name '%s'", s, needle);
}

static MPI_Group mkgroup(int n, struct tide_proc *const *procs)
{
    if (n == 0)
        return MPI_GROUP_EMPTY;
    struct tide_group *g = tide_group_new(n, procs);
    assert_non_null(g);
    MPI_Group h = tide_group_handle(g);
    assert_int_not_equal(h, MPI_GROUP_NULL);
    return h;
}

/* jobA ranks 0..n-1 */
static MPI_Group seq(int n)
{
    struct tide_proc **p = malloc((size_t)(n ? n : 1) * sizeof *p);
    assert_non_null(p);
    for (int i = 0; i < n; i++)
        p[i] = A(i);
    MPI_Group h = mkgroup(n, p);
    free(p);
    return h;
}

/* the group's members must be exactly these */
static void assert_members(MPI_Group h, int n, struct tide_proc *const *expect)
{
    struct tide_group *g = tide_group_get(h);
    assert_non_null(g);
    int size = -1;
    assert_int_equal(PMPI_Group_size(h, &size), MPI_SUCCESS);
    assert_int_equal(size, n);
    if (n == 0)
        assert_int_equal(h, MPI_GROUP_EMPTY);
    for (int i = 0; i < n; i++)
        if (g->procs[i] != expect[i])
            fail_msg("member %d is %s:%u, expected %s:%u", i, g->procs[i]->nspace, g->procs[i]->rank,
                     expect[i]->nspace, expect[i]->rank);
}

static void gfree(MPI_Group *h)
{
    assert_int_equal(PMPI_Group_free(h), MPI_SUCCESS);
    assert_int_equal(*h, MPI_GROUP_NULL);
}

static void test_size_rank(void **state)
{
    (void)state;
    MPI_Group g = seq(4);
    int size, rank;
    assert_int_equal(PMPI_Group_size(g, &size), MPI_SUCCESS);
    assert_int_equal(size, 4);
    assert_int_equal(PMPI_Group_rank(g, &rank), MPI_SUCCESS);
    assert_int_equal(rank, 2); /* tide.me is jobA:2 */
    struct tide_proc *others[2] = {Bp(0), A(5)};
    MPI_Group o = mkgroup(2, others);
    assert_int_equal(PMPI_Group_rank(o, &rank), MPI_SUCCESS);
    assert_int_equal(rank, MPI_UNDEFINED);
    assert_int_equal(PMPI_Group_size(MPI_GROUP_EMPTY, &size), MPI_SUCCESS);
    assert_int_equal(size, 0);
    assert_int_equal(PMPI_Group_rank(MPI_GROUP_EMPTY, &rank), MPI_SUCCESS);
    assert_int_equal(rank, MPI_UNDEFINED);
    int rc = PMPI_Group_size(MPI_GROUP_NULL, &size);
    assert_error_names(rc, MPI_ERR_GROUP, "MPI_Group_size");
    assert_int_equal(err_class(PMPI_Group_rank(MPI_COMM_WORLD, &rank)), MPI_ERR_GROUP);
    assert_int_equal(err_class(PMPI_Group_size(g, NULL)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Group_rank(g, NULL)), MPI_ERR_ARG);
    gfree(&g);
    gfree(&o);
}

static void test_translate(void **state)
{
    (void)state;
    MPI_Group g1 = seq(4);
    struct tide_proc *p2[3] = {A(3), Bp(0), A(1)};
    MPI_Group g2 = mkgroup(3, p2);
    int r1[5] = {0, 1, 2, 3, MPI_PROC_NULL}, r2[5];
    assert_int_equal(PMPI_Group_translate_ranks(g1, 5, r1, g2, r2), MPI_SUCCESS);
    int exp[5] = {MPI_UNDEFINED, 2, MPI_UNDEFINED, 0, MPI_PROC_NULL};
    assert_memory_equal(r2, exp, sizeof exp);
    /* the same group: identity */
    assert_int_equal(PMPI_Group_translate_ranks(g1, 5, r1, g1, r2), MPI_SUCCESS);
    assert_memory_equal(r2, r1, sizeof r1);
    /* into the empty group: all absent */
    assert_int_equal(PMPI_Group_translate_ranks(g1, 2, r1, MPI_GROUP_EMPTY, r2), MPI_SUCCESS);
    assert_int_equal(r2[0], MPI_UNDEFINED);
    assert_int_equal(r2[1], MPI_UNDEFINED);
    /* errors */
    int bad[2] = {1, 4};
    int rc = PMPI_Group_translate_ranks(g1, 2, bad, g2, r2);
    assert_error_names(rc, MPI_ERR_RANK, "MPI_Group_translate_ranks");
    bad[1] = -7;
    assert_int_equal(err_class(PMPI_Group_translate_ranks(g1, 2, bad, g2, r2)), MPI_ERR_RANK);
    assert_int_equal(err_class(PMPI_Group_translate_ranks(g1, -1, r1, g2, r2)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Group_translate_ranks(g1, 1, NULL, g2, r2)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Group_translate_ranks(MPI_GROUP_NULL, 1, r1, g2, r2)), MPI_ERR_GROUP);
    assert_int_equal(err_class(PMPI_Group_translate_ranks(g1, 1, r1, MPI_GROUP_NULL, r2)), MPI_ERR_GROUP);
    assert_int_equal(PMPI_Group_translate_ranks(g1, 0, NULL, g2, NULL), MPI_SUCCESS);
    gfree(&g1);
    gfree(&g2);
}

static void test_large_groups(void **state)
{
    (void)state;
    enum { N = 3000 };
    struct tide_proc **fwd = malloc(N * sizeof *fwd), **rev = malloc(N * sizeof *rev);
    assert_non_null(fwd);
    assert_non_null(rev);
    for (int i = 0; i < N; i++) {
        fwd[i] = i % 2 ? Bp(i) : A(i);
        rev[N - 1 - i] = fwd[i];
    }
    MPI_Group gf = mkgroup(N, fwd), gr = mkgroup(N, rev);
    int *r1 = malloc(N * sizeof *r1), *r2 = malloc(N * sizeof *r2);
    assert_non_null(r1);
    assert_non_null(r2);
    for (int i = 0; i < N; i++)
        r1[i] = i;
    assert_int_equal(PMPI_Group_translate_ranks(gf, N, r1, gr, r2), MPI_SUCCESS);
    for (int i = 0; i < N; i++)
        assert_int_equal(r2[i], N - 1 - i);
    int res;
    assert_int_equal(PMPI_Group_compare(gf, gr, &res), MPI_SUCCESS);
    assert_int_equal(res, MPI_SIMILAR);
    /* the odd members (jobB) minus ... */
    MPI_Group gd, gi, gu;
    int ranges[1][3] = {{1, N - 1, 2}};
    MPI_Group odd;
    assert_int_equal(PMPI_Group_range_incl(gf, 1, ranges, &odd), MPI_SUCCESS);
    assert_int_equal(PMPI_Group_difference(gr, odd, &gd), MPI_SUCCESS);
    assert_int_equal(PMPI_Group_intersection(gr, odd, &gi), MPI_SUCCESS);
    assert_int_equal(PMPI_Group_union(gd, gi, &gu), MPI_SUCCESS);
    int s1, s2, s3;
    PMPI_Group_size(gd, &s1);
    PMPI_Group_size(gi, &s2);
    PMPI_Group_size(gu, &s3);
    assert_int_equal(s1, N / 2);
    assert_int_equal(s2, N / 2);
    assert_int_equal(s3, N);
    assert_int_equal(PMPI_Group_compare(gu, gf, &res), MPI_SUCCESS);
    assert_int_equal(res, MPI_SIMILAR);
    /* intersection keeps gr's order: the last odd rank first */
    struct tide_group *g = tide_group_get(gi);
    assert_ptr_equal(g->procs[0], fwd[N - 1]);
    free(fwd);
    free(rev);
    free(r1);
    free(r2);
    gfree(&gf);
    gfree(&gr);
    gfree(&odd);
    gfree(&gd);
    gfree(&gi);
    gfree(&gu);
}

static void test_compare(void **state)
{
    (void)state;
    MPI_Group a = seq(4), b = seq(4), c, d, e;
    struct tide_proc *perm[4] = {A(2), A(0), A(3), A(1)};
    struct tide_proc *other[4] = {A(0), A(1), A(2), Bp(3)};
    c = mkgroup(4, perm);
    d = mkgroup(4, other);
    e = seq(3);
    int r;
    assert_int_equal(PMPI_Group_compare(a, a, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_IDENT);
    assert_int_equal(PMPI_Group_compare(a, b, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_IDENT); /* different objects, same members, same order */
    assert_int_equal(PMPI_Group_compare(a, c, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_SIMILAR);
    assert_int_equal(PMPI_Group_compare(a, d, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_UNEQUAL);
    assert_int_equal(PMPI_Group_compare(a, e, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_UNEQUAL);
    assert_int_equal(PMPI_Group_compare(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_IDENT);
    assert_int_equal(PMPI_Group_compare(MPI_GROUP_EMPTY, a, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_UNEQUAL);
    assert_int_equal(err_class(PMPI_Group_compare(a, MPI_GROUP_NULL, &r)), MPI_ERR_GROUP);
    assert_int_equal(err_class(PMPI_Group_compare(a, b, NULL)), MPI_ERR_ARG);
    gfree(&a);
    gfree(&b);
    gfree(&c);
    gfree(&d);
    gfree(&e);
}

static void test_union_intersection_difference(void **state)
{
    (void)state;
    struct tide_proc *p1[3] = {A(2), A(0), A(1)}, *p2[3] = {Bp(0), A(1), A(3)};
    MPI_Group g1 = mkgroup(3, p1), g2 = mkgroup(3, p2), r;
    /* union: group1's members, then group2's others in group2's order */
    assert_int_equal(PMPI_Group_union(g1, g2, &r), MPI_SUCCESS);
    struct tide_proc *u[5] = {A(2), A(0), A(1), Bp(0), A(3)};
    assert_members(r, 5, u);
    int rank;
    assert_int_equal(PMPI_Group_rank(r, &rank), MPI_SUCCESS);
    assert_int_equal(rank, 0); /* tide.me = jobA:2 */
    gfree(&r);
    assert_int_equal(PMPI_Group_union(g2, g1, &r), MPI_SUCCESS);
    struct tide_proc *u2[5] = {Bp(0), A(1), A(3), A(2), A(0)};
    assert_members(r, 5, u2);
    gfree(&r);
    /* intersection and difference: group1's order */
    assert_int_equal(PMPI_Group_intersection(g1, g2, &r), MPI_SUCCESS);
    struct tide_proc *in[1] = {A(1)};
    assert_members(r, 1, in);
    gfree(&r);
    assert_int_equal(PMPI_Group_difference(g1, g2, &r), MPI_SUCCESS);
    struct tide_proc *df[2] = {A(2), A(0)};
    assert_members(r, 2, df);
    gfree(&r);
    /* empty results are MPI_GROUP_EMPTY */
    assert_int_equal(PMPI_Group_difference(g1, g1, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_GROUP_EMPTY);
    gfree(&r);
    struct tide_proc *p3[1] = {Bp(7)};
    MPI_Group g3 = mkgroup(1, p3);
    assert_int_equal(PMPI_Group_intersection(g1, g3, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_GROUP_EMPTY);
    /* with the empty group */
    assert_int_equal(PMPI_Group_union(MPI_GROUP_EMPTY, g1, &r), MPI_SUCCESS);
    assert_members(r, 3, p1);
    gfree(&r);
    assert_int_equal(PMPI_Group_union(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_GROUP_EMPTY);
    assert_int_equal(PMPI_Group_difference(g1, MPI_GROUP_EMPTY, &r), MPI_SUCCESS);
    assert_members(r, 3, p1);
    gfree(&r);
    assert_int_equal(PMPI_Group_intersection(MPI_GROUP_EMPTY, g1, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_GROUP_EMPTY);
    /* errors */
    int rc = PMPI_Group_union(g1, MPI_GROUP_NULL, &r);
    assert_error_names(rc, MPI_ERR_GROUP, "MPI_Group_union");
    assert_error_names(rc, MPI_ERR_GROUP, "group2");
    assert_int_equal(err_class(PMPI_Group_intersection(MPI_GROUP_NULL, g1, &r)), MPI_ERR_GROUP);
    assert_int_equal(err_class(PMPI_Group_difference(g1, g2, NULL)), MPI_ERR_ARG);
    gfree(&g1);
    gfree(&g2);
    gfree(&g3);
}

static void test_incl_excl(void **state)
{
    (void)state;
    MPI_Group g = seq(6), r;
    int ranks[3] = {4, 1, 3};
    assert_int_equal(PMPI_Group_incl(g, 3, ranks, &r), MPI_SUCCESS);
    struct tide_proc *inc[3] = {A(4), A(1), A(3)};
    assert_members(r, 3, inc);
    gfree(&r);
    assert_int_equal(PMPI_Group_excl(g, 3, ranks, &r), MPI_SUCCESS);
    struct tide_proc *exc[3] = {A(0), A(2), A(5)};
    assert_members(r, 3, exc);
    int rank;
    assert_int_equal(PMPI_Group_rank(r, &rank), MPI_SUCCESS);
    assert_int_equal(rank, 1);
    gfree(&r);
    /* n = 0: incl gives the empty group, excl the same members */
    assert_int_equal(PMPI_Group_incl(g, 0, NULL, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_GROUP_EMPTY);
    assert_int_equal(PMPI_Group_excl(g, 0, NULL, &r), MPI_SUCCESS);
    int cmp;
    assert_int_equal(PMPI_Group_compare(g, r, &cmp), MPI_SUCCESS);
    assert_int_equal(cmp, MPI_IDENT);
    gfree(&r);
    /* all of them */
    int all[6] = {5, 4, 3, 2, 1, 0};
    assert_int_equal(PMPI_Group_excl(g, 6, all, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_GROUP_EMPTY);
    assert_int_equal(PMPI_Group_incl(g, 6, all, &r), MPI_SUCCESS);
    assert_int_equal(PMPI_Group_compare(g, r, &cmp), MPI_SUCCESS);
    assert_int_equal(cmp, MPI_SIMILAR);
    gfree(&r);
    /* errors: invalid and duplicate ranks, bad n */
    int badr[2] = {1, 6};
    int rc = PMPI_Group_incl(g, 2, badr, &r);
    assert_error_names(rc, MPI_ERR_RANK, "MPI_Group_incl");
    badr[1] = -1;
    assert_int_equal(err_class(PMPI_Group_excl(g, 2, badr, &r)), MPI_ERR_RANK);
    int dup[3] = {1, 2, 1};
    rc = PMPI_Group_incl(g, 3, dup, &r);
    assert_error_names(rc, MPI_ERR_RANK, "more than once");
    assert_int_equal(err_class(PMPI_Group_excl(g, 3, dup, &r)), MPI_ERR_RANK);
    assert_int_equal(err_class(PMPI_Group_incl(g, -1, ranks, &r)), MPI_ERR_ARG);
    int seven[7] = {0, 1, 2, 3, 4, 5, 0}; /* more ranks than members */
    assert_int_equal(err_class(PMPI_Group_incl(g, 7, seven, &r)), MPI_ERR_RANK);
    assert_int_equal(err_class(PMPI_Group_excl(g, 7, seven, &r)), MPI_ERR_RANK);
    assert_int_equal(err_class(PMPI_Group_excl(g, 2, NULL, &r)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Group_incl(MPI_GROUP_NULL, 1, ranks, &r)), MPI_ERR_GROUP);
    assert_int_equal(err_class(PMPI_Group_incl(MPI_GROUP_EMPTY, 1, ranks, &r)), MPI_ERR_RANK);
    assert_int_equal(PMPI_Group_incl(MPI_GROUP_EMPTY, 0, NULL, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_GROUP_EMPTY);
    gfree(&g);
}

static void check_range(MPI_Group g, int n, int ranges[][3], bool incl, int nexp, const int *exp)
{
    MPI_Group r;
    int rc = incl ? PMPI_Group_range_incl(g, n, ranges, &r) : PMPI_Group_range_excl(g, n, ranges, &r);
    assert_int_equal(rc, MPI_SUCCESS);
    struct tide_proc *e[16];
    for (int i = 0; i < nexp; i++)
        e[i] = A(exp[i]);
    assert_members(r, nexp, e);
    gfree(&r);
}

static void test_range_incl_excl(void **state)
{
    (void)state;
    MPI_Group g = seq(10), r;
    int r1[1][3] = {{0, 9, 3}};
    check_range(g, 1, r1, true, 4, (int[]){0, 3, 6, 9});
    check_range(g, 1, r1, false, 6, (int[]){1, 2, 4, 5, 7, 8});
    int r2[1][3] = {{9, 0, -4}}; /* negative stride */
    check_range(g, 1, r2, true, 3, (int[]){9, 5, 1});
    check_range(g, 1, r2, false, 7, (int[]){0, 2, 3, 4, 6, 7, 8});
    int r3[2][3] = {{1, 3, 1}, {7, 5, -1}};
    check_range(g, 2, r3, true, 6, (int[]){1, 2, 3, 7, 6, 5});
    check_range(g, 2, r3, false, 4, (int[]){0, 4, 8, 9});
    int r4[1][3] = {{2, 2, 1}};
    check_range(g, 1, r4, true, 1, (int[]){2});
    int r5[1][3] = {{4, 9, 20}}; /* stride past last: first only */
    check_range(g, 1, r5, true, 1, (int[]){4});
    int r6[1][3] = {{3, 2, -1}};
    check_range(g, 1, r6, true, 2, (int[]){3, 2});
    check_range(g, 0, NULL, false, 10, (int[]){0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    assert_int_equal(PMPI_Group_range_incl(g, 0, NULL, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_GROUP_EMPTY);
    int all[1][3] = {{9, 0, -1}};
    assert_int_equal(PMPI_Group_range_excl(g, 1, all, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_GROUP_EMPTY);
    /* errors */
    int e1[2][3] = {{0, 4, 2}, {4, 6, 1}}; /* 4 twice */
    int rc = PMPI_Group_range_incl(g, 2, e1, &r);
    assert_error_names(rc, MPI_ERR_RANK, "MPI_Group_range_incl");
    assert_int_equal(err_class(PMPI_Group_range_excl(g, 2, e1, &r)), MPI_ERR_RANK);
    int e2[1][3] = {{0, 5, 0}};
    rc = PMPI_Group_range_incl(g, 1, e2, &r);
    assert_error_names(rc, MPI_ERR_ARG, "stride 0");
    int e3[1][3] = {{10, 11, 1}};
    assert_int_equal(err_class(PMPI_Group_range_incl(g, 1, e3, &r)), MPI_ERR_RANK);
    int e4[1][3] = {{0, -1, -1}};
    assert_int_equal(err_class(PMPI_Group_range_excl(g, 1, e4, &r)), MPI_ERR_RANK);
    int e5[1][3] = {{5, 1, 1}}; /* first > last with a positive stride */
    assert_int_equal(err_class(PMPI_Group_range_incl(g, 1, e5, &r)), MPI_ERR_ARG);
    int e6[1][3] = {{1, 5, -2}};
    assert_int_equal(err_class(PMPI_Group_range_excl(g, 1, e6, &r)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Group_range_incl(g, -1, r1, &r)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Group_range_incl(g, 1, NULL, &r)), MPI_ERR_ARG);
    int e7[3][3] = {{0, 9, 1}, {0, 9, 1}, {0, 9, 1}}; /* more ranks named than members */
    assert_int_equal(err_class(PMPI_Group_range_incl(g, 3, e7, &r)), MPI_ERR_RANK);
    gfree(&g);
}

static void test_group_free(void **state)
{
    (void)state;
    MPI_Group g = seq(3), saved = g;
    gfree(&g);
    int size;
    assert_int_equal(err_class(PMPI_Group_size(saved, &size)), MPI_ERR_GROUP);
    assert_int_equal(err_class(PMPI_Group_free(&saved)), MPI_ERR_GROUP);
    MPI_Group n = MPI_GROUP_NULL;
    int rc = PMPI_Group_free(&n);
    assert_error_names(rc, MPI_ERR_GROUP, "MPI_Group_free");
    assert_int_equal(err_class(PMPI_Group_free(NULL)), MPI_ERR_ARG);
    /* MPI_GROUP_EMPTY from a constructor is freed like any group */
    MPI_Group e = MPI_GROUP_EMPTY;
    gfree(&e);
    assert_int_equal(PMPI_Group_size(MPI_GROUP_EMPTY, &size), MPI_SUCCESS);
    assert_int_equal(size, 0);
}

static struct tide_comm *mkcomm(MPI_Group local, MPI_Group remote, uint32_t ctx)
{
    struct tide_comm *c = tide_comm_create(tide_group_get(local),
                                           remote == MPI_GROUP_NULL ? NULL : tide_group_get(remote), ctx,
                                           MPI_COMM_NULL);
    assert_non_null(c);
    c->errhandler = MPI_ERRORS_RETURN;
    return c;
}

static void test_comm_groups(void **state)
{
    (void)state;
    MPI_Group gw, gs;
    assert_int_equal(PMPI_Comm_group(MPI_COMM_WORLD, &gw), MPI_SUCCESS);
    int size, rank, cmp;
    assert_int_equal(PMPI_Group_size(gw, &size), MPI_SUCCESS);
    assert_int_equal(size, 6);
    assert_int_equal(PMPI_Group_rank(gw, &rank), MPI_SUCCESS);
    assert_int_equal(rank, 2);
    assert_int_equal(PMPI_Comm_group(MPI_COMM_SELF, &gs), MPI_SUCCESS);
    assert_int_equal(PMPI_Group_size(gs, &size), MPI_SUCCESS);
    assert_int_equal(size, 1);
    /* the same group twice; each handle reference freed on its own */
    MPI_Group gw2;
    int before = tide_comm_world->group->refcount;
    assert_int_equal(PMPI_Comm_group(MPI_COMM_WORLD, &gw2), MPI_SUCCESS);
    assert_int_equal(PMPI_Group_compare(gw, gw2, &cmp), MPI_SUCCESS);
    assert_int_equal(cmp, MPI_IDENT);
    gfree(&gw2);
    assert_int_equal(tide_comm_world->group->refcount, before);
    /* translate SELF's rank into WORLD */
    int zero = 0, out;
    assert_int_equal(PMPI_Group_translate_ranks(gs, 1, &zero, gw, &out), MPI_SUCCESS);
    assert_int_equal(out, 2);
    gfree(&gw);
    gfree(&gs);
    assert_int_equal(tide_comm_world->group->refcount, before - 1);
    assert_int_equal(PMPI_Comm_group(MPI_COMM_WORLD, &gw), MPI_SUCCESS);
    gfree(&gw);
    /* intercommunicator: local and remote groups */
    MPI_Group la = seq(3);
    struct tide_proc *pb[2] = {Bp(0), Bp(1)};
    MPI_Group lb = mkgroup(2, pb);
    struct tide_comm *inter = mkcomm(la, lb, 200);
    MPI_Group lg, rg;
    assert_int_equal(PMPI_Comm_group(inter->handle, &lg), MPI_SUCCESS);
    assert_int_equal(PMPI_Comm_remote_group(inter->handle, &rg), MPI_SUCCESS);
    assert_int_equal(PMPI_Group_compare(lg, la, &cmp), MPI_SUCCESS);
    assert_int_equal(cmp, MPI_IDENT);
    assert_int_equal(PMPI_Group_compare(rg, lb, &cmp), MPI_SUCCESS);
    assert_int_equal(cmp, MPI_IDENT);
    gfree(&lg);
    gfree(&rg);
    /* an intracommunicator has no remote group */
    struct tide_comm *intra = mkcomm(la, MPI_GROUP_NULL, 202);
    int rc = PMPI_Comm_remote_group(intra->handle, &rg);
    assert_error_names(rc, MPI_ERR_COMM, "MPI_Comm_remote_group");
    assert_error_names(rc, MPI_ERR_COMM, "intracommunicator");
    assert_int_equal(err_class(PMPI_Comm_group(MPI_COMM_NULL, &lg)), MPI_ERR_COMM);
    assert_int_equal(err_class(PMPI_Comm_group(intra->handle, NULL)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Comm_remote_group(MPI_COMM_NULL, &rg)), MPI_ERR_COMM);
    /* the user's group handles may go before the communicators */
    gfree(&la);
    gfree(&lb);
    assert_int_equal(PMPI_Comm_group(inter->handle, &lg), MPI_SUCCESS);
    assert_int_equal(PMPI_Group_size(lg, &size), MPI_SUCCESS);
    assert_int_equal(size, 3);
    gfree(&lg);
    tide_comm_release(inter);
    tide_comm_release(intra);
}

static void test_comm_compare_and_inter(void **state)
{
    (void)state;
    int r, flag, size;
    assert_int_equal(PMPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_IDENT);
    assert_int_equal(PMPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_UNEQUAL);
    MPI_Group gw;
    assert_int_equal(PMPI_Comm_group(MPI_COMM_WORLD, &gw), MPI_SUCCESS);
    struct tide_comm *dup = mkcomm(gw, MPI_GROUP_NULL, 300);
    assert_int_equal(PMPI_Comm_compare(MPI_COMM_WORLD, dup->handle, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_CONGRUENT);
    int rev[6] = {5, 4, 3, 2, 1, 0};
    MPI_Group grev;
    assert_int_equal(PMPI_Group_incl(gw, 6, rev, &grev), MPI_SUCCESS);
    struct tide_comm *perm = mkcomm(grev, MPI_GROUP_NULL, 302);
    assert_int_equal(PMPI_Comm_compare(MPI_COMM_WORLD, perm->handle, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_SIMILAR);
    /* intercommunicators compare both groups */
    MPI_Group a = seq(3);
    struct tide_proc *pb[2] = {Bp(0), Bp(1)}, *pb2[2] = {Bp(1), Bp(0)}, *pc[2] = {Bp(0), Bp(5)};
    MPI_Group b = mkgroup(2, pb), b2 = mkgroup(2, pb2), c = mkgroup(2, pc);
    struct tide_comm *i1 = mkcomm(a, b, 310), *i2 = mkcomm(a, b, 312), *i3 = mkcomm(a, b2, 314),
                     *i4 = mkcomm(a, c, 316), *intra = mkcomm(a, MPI_GROUP_NULL, 318);
    assert_int_equal(PMPI_Comm_compare(i1->handle, i1->handle, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_IDENT);
    assert_int_equal(PMPI_Comm_compare(i1->handle, i2->handle, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_CONGRUENT);
    assert_int_equal(PMPI_Comm_compare(i1->handle, i3->handle, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_SIMILAR);
    assert_int_equal(PMPI_Comm_compare(i1->handle, i4->handle, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_UNEQUAL);
    assert_int_equal(PMPI_Comm_compare(i1->handle, intra->handle, &r), MPI_SUCCESS);
    assert_int_equal(r, MPI_UNEQUAL);
    /* test_inter and remote_size */
    assert_int_equal(PMPI_Comm_test_inter(i1->handle, &flag), MPI_SUCCESS);
    assert_int_equal(flag, 1);
    assert_int_equal(PMPI_Comm_test_inter(MPI_COMM_WORLD, &flag), MPI_SUCCESS);
    assert_int_equal(flag, 0);
    assert_int_equal(PMPI_Comm_remote_size(i1->handle, &size), MPI_SUCCESS);
    assert_int_equal(size, 2);
    int rc = PMPI_Comm_remote_size(MPI_COMM_WORLD, &size);
    assert_error_names(rc, MPI_ERR_COMM, "MPI_Comm_remote_size");
    assert_error_names(rc, MPI_ERR_COMM, "MPI_COMM_WORLD");
    /* bad arguments */
    rc = PMPI_Comm_compare(MPI_COMM_NULL, MPI_COMM_WORLD, &r);
    assert_error_names(rc, MPI_ERR_COMM, "MPI_Comm_compare");
    assert_error_names(rc, MPI_ERR_COMM, "comm1");
    assert_int_equal(err_class(PMPI_Comm_compare(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &r)), MPI_ERR_COMM);
    assert_int_equal(err_class(PMPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, NULL)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Comm_test_inter(MPI_COMM_NULL, &flag)), MPI_ERR_COMM);
    assert_int_equal(err_class(PMPI_Comm_test_inter(MPI_COMM_WORLD, NULL)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Comm_remote_size(i1->handle, NULL)), MPI_ERR_ARG);
    tide_comm_release(dup);
    tide_comm_release(perm);
    tide_comm_release(i1);
    tide_comm_release(i2);
    tide_comm_release(i3);
    tide_comm_release(i4);
    tide_comm_release(intra);
    gfree(&gw);
    gfree(&grev);
    gfree(&a);
    gfree(&b);
    gfree(&b2);
    gfree(&c);
}

static void test_comm_names(void **state)
{
    (void)state;
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    assert_int_equal(PMPI_Comm_get_name(MPI_COMM_WORLD, name, &len), MPI_SUCCESS);
    assert_string_equal(name, "MPI_COMM_WORLD");
    assert_int_equal(len, 14);
    assert_int_equal(PMPI_Comm_get_name(MPI_COMM_SELF, name, &len), MPI_SUCCESS);
    assert_string_equal(name, "MPI_COMM_SELF");
    MPI_Group g = seq(2);
    struct tide_comm *c = mkcomm(g, MPI_GROUP_NULL, 400);
    assert_int_equal(PMPI_Comm_get_name(c->handle, name, &len), MPI_SUCCESS);
    assert_string_equal(name, "");
    assert_int_equal(len, 0);
    assert_int_equal(PMPI_Comm_set_name(c->handle, "solver"), MPI_SUCCESS);
    assert_int_equal(PMPI_Comm_get_name(c->handle, name, &len), MPI_SUCCESS);
    assert_string_equal(name, "solver");
    assert_int_equal(len, 6);
    /* too long: truncated to MPI_MAX_OBJECT_NAME - 1 characters */
    char longname[300];
    memset(longname, 'n', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_int_equal(PMPI_Comm_set_name(c->handle, longname), MPI_SUCCESS);
    memset(name, 'X', sizeof name);
    assert_int_equal(PMPI_Comm_get_name(c->handle, name, &len), MPI_SUCCESS);
    assert_int_equal(len, MPI_MAX_OBJECT_NAME - 1);
    assert_int_equal(strlen(name), MPI_MAX_OBJECT_NAME - 1);
    /* errors name the comm's own name once set */
    assert_int_equal(PMPI_Comm_set_name(c->handle, "mine"), MPI_SUCCESS);
    int rc = PMPI_Comm_remote_size(c->handle, &len);
    assert_error_names(rc, MPI_ERR_COMM, "mine");
    /* renaming a predefined communicator is allowed */
    assert_int_equal(PMPI_Comm_set_name(MPI_COMM_SELF, "me"), MPI_SUCCESS);
    assert_int_equal(PMPI_Comm_get_name(MPI_COMM_SELF, name, &len), MPI_SUCCESS);
    assert_string_equal(name, "me");
    assert_int_equal(PMPI_Comm_set_name(MPI_COMM_SELF, "MPI_COMM_SELF"), MPI_SUCCESS);
    assert_int_equal(err_class(PMPI_Comm_set_name(c->handle, NULL)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Comm_get_name(c->handle, NULL, &len)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Comm_get_name(c->handle, name, NULL)), MPI_ERR_ARG);
    rc = PMPI_Comm_set_name(MPI_COMM_NULL, "x");
    assert_error_names(rc, MPI_ERR_COMM, "MPI_Comm_set_name");
    assert_int_equal(err_class(PMPI_Comm_get_name(MPI_COMM_NULL, name, &len)), MPI_ERR_COMM);
    tide_comm_release(c);
    gfree(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_size_rank),
        cmocka_unit_test(test_translate),
        cmocka_unit_test(test_large_groups),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_union_intersection_difference),
        cmocka_unit_test(test_incl_excl),
        cmocka_unit_test(test_range_incl_excl),
        cmocka_unit_test(test_group_free),
        cmocka_unit_test(test_comm_groups),
        cmocka_unit_test(test_comm_compare_and_inter),
        cmocka_unit_test(test_comm_names),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
