/*
 * ep_comm.c: communicators made from an endpoints communicator
 * (MPIX_Comm_create_endpoints) and its handles' local state, one thread
 * per endpoint: MPI_Comm_dup and MPI_Comm_dup_with_info, MPI_Comm_split
 * (several colors, keys that reverse the order, MPI_UNDEFINED for some),
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), MPI_Comm_create from groups
 * made of the endpoints group (MPI_Group_incl, _excl, _range_incl,
 * _union), MPI_Comm_create_group (disjoint groups with one tag at once,
 * a group of all but one, a group of one), MPI_Comm_idup and
 * MPI_Comm_idup_with_info (two at once, outstanding across an allreduce
 * on the parent), messages and collectives on
 * each result, MPI_Comm_compare,
 * MPI_Group_translate_ranks to MPI_COMM_WORLD's group, attributes (the
 * copy callback run by dup, the delete callback by free and delete),
 * names, error handlers per handle, MPI_Comm_free in different orders,
 * and endpoints communicators made from an endpoints communicator (each
 * endpoint asks for 2).
 * Usage: ep_comm RULE (as ep_p2p: T, "uneven" or "zero")
 */
#include "ep_testutil.h"

#include <pthread.h>
#include <stdint.h>

#define MAX_EP 16
#define NMAX 128

static int wrank, wsize;
static int owner[NMAX]; /* the world rank of each endpoint */

struct ep_arg {
    MPI_Comm comm;
    int expect_rank, expect_size, local, nlocal;
};

/* rank and size, an allreduce of the ranks of parent, a ring with
 * the parent ranks, a barrier */
static void exercise(MPI_Comm c, int expect_rank, int expect_size, int parent_rank, const int *parent_of,
                     const char *what)
{
    int me = -1, n = -1;
    CHECK_OK(MPI_Comm_rank(c, &me));
    CHECK_OK(MPI_Comm_size(c, &n));
    CHECK(me == expect_rank && n == expect_size, "%s: rank %d size %d, expected %d %d", what, me, n, expect_rank,
          expect_size);
    int sum = -1, want = 0;
    CHECK_OK(MPI_Allreduce(&parent_rank, &sum, 1, MPI_INT, MPI_SUM, c));
    for (int r = 0; r < n; r++)
        want += parent_of[r];
    CHECK(sum == want, "%s: allreduce of the parent ranks %d, expected %d", what, sum, want);
    int prev = (me - 1 + n) % n, in = -1;
    MPI_Status st;
    CHECK_OK(MPI_Sendrecv(&parent_rank, 1, MPI_INT, (me + 1) % n, 3, &in, 1, MPI_INT, prev, 3, c, &st));
    CHECK(in == parent_of[prev] && st.MPI_SOURCE == prev, "%s: ring got %d from %d, expected %d", what, in,
          st.MPI_SOURCE, parent_of[prev]);
    int all[NMAX];
    CHECK_OK(MPI_Allgather(&parent_rank, 1, MPI_INT, all, 1, MPI_INT, c));
    for (int r = 0; r < n; r++)
        CHECK(all[r] == parent_of[r], "%s: allgather: rank %d is parent rank %d, expected %d", what, r, all[r],
              parent_of[r]);
    CHECK_OK(MPI_Barrier(c));
}

/* ---- attributes ---- */

struct attr_counts {
    int copied, deleted;
};

static int copy_attr(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)oldcomm;
    (void)keyval;
    ((struct attr_counts *)extra)->copied++;
    *(intptr_t *)out = (intptr_t)in + 1000;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_attr(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)value;
    ((struct attr_counts *)extra)->deleted++;
    return MPI_SUCCESS;
}

/* ---- error handlers ---- */

/* the keyval of the error count a handle with count_errors keeps */
static int errors_keyval = MPI_KEYVAL_INVALID;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    (void)code;
    int *count = NULL, flag = 0;
    MPI_Comm_get_attr(*comm, errors_keyval, &count, &flag);
    if (flag)
        (*count)++;
}

/* ---- nested endpoints ---- */

struct nested_arg {
    MPI_Comm comm;
    int expect_rank, expect_size;
    int parent_of[NMAX];
};

static void *nested_main(void *p)
{
    struct nested_arg *a = p;
    exercise(a->comm, a->expect_rank, a->expect_size, a->expect_rank / 2, a->parent_of, "nested endpoints");
    int world_of = -1;
    MPI_Group g, wg;
    CHECK_OK(MPI_Comm_group(a->comm, &g));
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    CHECK_OK(MPI_Group_translate_ranks(g, 1, &a->expect_rank, wg, &world_of));
    CHECK(world_of == wrank, "nested: rank %d translates to world rank %d, expected %d", a->expect_rank, world_of,
          wrank);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    /* a dup, and a split of it in reverse order of the nested ranks
     * with the second endpoint of each pair on its own */
    MPI_Comm d, s;
    CHECK_OK(MPI_Comm_dup(a->comm, &d));
    exercise(d, a->expect_rank, a->expect_size, a->expect_rank / 2, a->parent_of, "dup of nested endpoints");
    int half = a->expect_size / 2, odd = a->expect_rank % 2;
    CHECK_OK(MPI_Comm_split(d, odd, a->expect_size - a->expect_rank, &s));
    int members[NMAX];
    for (int k = 0; k < half; k++)
        members[k] = (half - 1 - k); /* parent rank of the k-th member: pairs in reverse */
    exercise(s, half - 1 - a->expect_rank / 2, half, a->expect_rank / 2, members, "split of nested endpoints");
    CHECK_OK(MPI_Comm_free(&d));
    CHECK_OK(MPI_Comm_free(&s));
    CHECK_OK(MPI_Comm_free(&a->comm));
    return NULL;
}

static void *endpoint_main(void *p)
{
    struct ep_arg *a = p;
    MPI_Comm c = a->comm;
    int me, n;
    ep_expect(c, a->expect_rank, a->expect_size, &me, &n);
    CHECK(n <= NMAX, "too many endpoints");
    int ident[NMAX];
    for (int r = 0; r < n; r++)
        ident[r] = r;
    exercise(c, me, n, me, ident, "endpoints communicator");

    /* names per handle */
    char name[MPI_MAX_OBJECT_NAME], want_name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    snprintf(want_name, sizeof want_name, "endpoint %d of %d", me, n);
    CHECK_OK(MPI_Comm_set_name(c, want_name));

    /* attributes per handle: each sets its own rank */
    struct attr_counts counts = {0, 0};
    int keyval = MPI_KEYVAL_INVALID;
    CHECK_OK(MPI_Comm_create_keyval(copy_attr, delete_attr, &keyval, &counts));
    CHECK_OK(MPI_Comm_set_attr(c, keyval, (void *)(intptr_t)me));
    CHECK_OK(MPI_Barrier(c));
    CHECK_OK(MPI_Comm_get_name(c, name, &len));
    CHECK(strcmp(name, want_name) == 0, "name of handle %d is \"%s\"", me, name);
    intptr_t *got = NULL;
    int flag = 0;
    CHECK_OK(MPI_Comm_get_attr(c, keyval, &got, &flag));
    CHECK(flag && (intptr_t)got == me, "attribute of handle %d: flag %d value %ld", me, flag, (long)(intptr_t)got);

    /* dup: the copy callback runs once, the attribute is the copy */
    MPI_Comm d;
    CHECK_OK(MPI_Comm_dup(c, &d));
    CHECK(counts.copied == 1, "dup: copy callback ran %d times", counts.copied);
    CHECK_OK(MPI_Comm_get_attr(d, keyval, &got, &flag));
    CHECK(flag && (intptr_t)got == me + 1000, "dup: attribute flag %d value %ld", flag, (long)(intptr_t)got);
    int cmp = -1;
    CHECK_OK(MPI_Comm_compare(c, d, &cmp));
    CHECK(cmp == MPI_CONGRUENT, "compare(endpoints, dup) is %d, expected MPI_CONGRUENT", cmp);
    CHECK_OK(MPI_Comm_compare(c, c, &cmp));
    CHECK(cmp == MPI_IDENT, "compare(c, c) is %d", cmp);
    exercise(d, me, n, me, ident, "dup");
    char dname[MPI_MAX_OBJECT_NAME];
    CHECK_OK(MPI_Comm_get_name(d, dname, &len));
    CHECK(strcmp(dname, want_name) != 0, "dup copied the name \"%s\"", dname);
    MPI_Info info;
    CHECK_OK(MPI_Info_create(&info));
    CHECK_OK(MPI_Info_set(info, "mpi_assert_no_any_tag", "false"));
    MPI_Comm di;
    CHECK_OK(MPI_Comm_dup_with_info(d, info, &di));
    CHECK_OK(MPI_Info_free(&info));
    exercise(di, me, n, me, ident, "dup_with_info");
    CHECK(counts.copied == 2, "dup_with_info: copy callback ran %d times in all", counts.copied);

    /* split: colors me % 3, keys reversing the order, every fifth
     * endpoint undefined */
    int color = me % 5 == 4 ? MPI_UNDEFINED : me % 3;
    MPI_Comm s;
    CHECK_OK(MPI_Comm_split(c, color, n - me, &s));
    if (color == MPI_UNDEFINED)
        CHECK(s == MPI_COMM_NULL, "split: MPI_UNDEFINED gave a communicator");
    else {
        int members[NMAX], nm = 0, my_new = -1;
        for (int r = n - 1; r >= 0; r--)
            if (r % 5 != 4 && r % 3 == color) {
                if (r == me)
                    my_new = nm;
                members[nm++] = r;
            }
        exercise(s, my_new, nm, me, members, "split");
        CHECK_OK(MPI_Comm_compare(s, c, &cmp));
        CHECK(cmp == (n == 1 ? MPI_CONGRUENT : nm == n ? MPI_SIMILAR : MPI_UNEQUAL), "compare(split, endpoints) %d",
              cmp);
    }

    /* split_type shared: every process is on this node unless the
     * launcher says otherwise; ordered by key = rank */
    MPI_Comm sh;
    CHECK_OK(MPI_Comm_split_type(c, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &sh));
    CHECK(sh != MPI_COMM_NULL, "split_type shared gave MPI_COMM_NULL");
    int shn = -1, shme = -1;
    CHECK_OK(MPI_Comm_size(sh, &shn));
    CHECK_OK(MPI_Comm_rank(sh, &shme));
    CHECK(shn >= a->nlocal, "split_type shared: size %d, fewer than this process's %d endpoints", shn, a->nlocal);
    int shared_members[NMAX];
    CHECK_OK(MPI_Allgather(&me, 1, MPI_INT, shared_members, 1, MPI_INT, sh));
    for (int r = 1; r < shn; r++)
        CHECK(shared_members[r] > shared_members[r - 1], "split_type shared: not in key order");
    exercise(sh, shme, shn, me, shared_members, "split_type shared");

    /* create from groups of the endpoints group */
    MPI_Group g, g_even, g_front, g_union, g_excl;
    CHECK_OK(MPI_Comm_group(c, &g));
    int even[NMAX], ne = 0;
    for (int r = n - 1; r >= 0; r--)
        if (r % 2 == 0)
            even[ne++] = r;
    CHECK_OK(MPI_Group_incl(g, ne, even, &g_even));
    MPI_Comm ce;
    CHECK_OK(MPI_Comm_create(c, g_even, &ce));
    if (me % 2)
        CHECK(ce == MPI_COMM_NULL, "create(incl): a rank not in the group got a communicator");
    else
        exercise(ce, (ne - 1) - me / 2, ne, me, even, "create(incl)");
    int range[1][3] = {{0, (n - 1) / 2, 1}};
    CHECK_OK(MPI_Group_range_incl(g, 1, range, &g_front));
    CHECK_OK(MPI_Group_union(g_front, g_even, &g_union));
    int un[NMAX], nu = 0, my_u = -1;
    for (int r = 0; r <= (n - 1) / 2; r++)
        un[nu++] = r;
    for (int k = 0; k < ne; k++)
        if (even[k] > (n - 1) / 2)
            un[nu++] = even[k];
    for (int k = 0; k < nu; k++)
        if (un[k] == me)
            my_u = k;
    int gsize = -1;
    CHECK_OK(MPI_Group_size(g_union, &gsize));
    CHECK(gsize == nu, "group union size %d, expected %d", gsize, nu);
    MPI_Comm cu;
    CHECK_OK(MPI_Comm_create(c, g_union, &cu));
    if (my_u < 0)
        CHECK(cu == MPI_COMM_NULL, "create(union): a rank not in the group got a communicator");
    else
        exercise(cu, my_u, nu, me, un, "create(union)");
    int ex0 = 0;
    CHECK_OK(MPI_Group_excl(g, 1, &ex0, &g_excl));
    MPI_Comm cx;
    CHECK_OK(MPI_Comm_create(c, g_excl, &cx));
    if (me == 0)
        CHECK(cx == MPI_COMM_NULL, "create(excl): rank 0 got a communicator");
    else
        exercise(cx, me - 1, n - 1, me, ident + 1, "create(excl)");

    /* create_group, called by the members only: the even ranks (in
     * reverse) and the odd ranks with the same tag at once (disjoint
     * groups), then the ranks but the last with another tag, while the
     * last makes a group of itself */
    MPI_Group g_odd;
    int odd[NMAX], no = 0;
    for (int r = 1; r < n; r += 2)
        odd[no++] = r;
    CHECK_OK(MPI_Group_incl(g, no, odd, &g_odd));
    MPI_Comm cg = MPI_COMM_NULL;
    CHECK_OK(MPI_Comm_create_group(c, me % 2 ? g_odd : g_even, 5, &cg));
    CHECK(cg != MPI_COMM_NULL, "create_group: a member got MPI_COMM_NULL");
    if (me % 2)
        exercise(cg, me / 2, no, me, odd, "create_group(odd)");
    else
        exercise(cg, (ne - 1) - me / 2, ne, me, even, "create_group(even)");
    CHECK_OK(MPI_Comm_free(&cg));
    MPI_Group g_most;
    if (me < n - 1) {
        int last = n - 1;
        CHECK_OK(MPI_Group_excl(g, 1, &last, &g_most));
        CHECK_OK(MPI_Comm_create_group(c, g_most, 6, &cg));
        exercise(cg, me, n - 1, me, ident, "create_group(all but the last)");
    } else {
        CHECK_OK(MPI_Group_incl(g, 1, &me, &g_most));
        CHECK_OK(MPI_Comm_create_group(c, g_most, 6, &cg));
        exercise(cg, 0, 1, me, &ident[me], "create_group(self)");
    }
    CHECK_OK(MPI_Comm_free(&cg));
    CHECK_OK(MPI_Group_free(&g_most));
    CHECK_OK(MPI_Group_free(&g_odd));

    /* MPI_Comm_idup: two at once, outstanding across traffic on c, one
     * completed by MPI_Waitall, the other (with hints) by an MPI_Test loop */
    MPI_Comm ia = MPI_COMM_NULL, ib = MPI_COMM_NULL;
    MPI_Request irq[2];
    MPI_Info hint;
    CHECK_OK(MPI_Info_create(&hint));
    CHECK_OK(MPI_Info_set(hint, "mpi_assert_no_any_tag", "true"));
    CHECK_OK(MPI_Comm_idup(c, &ia, &irq[0]));
    CHECK_OK(MPI_Comm_idup_with_info(c, hint, &ib, &irq[1]));
    CHECK_OK(MPI_Info_free(&hint));
    int around = -1;
    CHECK_OK(MPI_Allreduce(&me, &around, 1, MPI_INT, MPI_MAX, c));
    CHECK(around == n - 1, "allreduce while MPI_Comm_idup runs: %d", around);
    CHECK_OK(MPI_Wait(&irq[0], MPI_STATUS_IGNORE));
    int idone = 0;
    while (!idone)
        CHECK_OK(MPI_Test(&irq[1], &idone, MPI_STATUS_IGNORE));
    CHECK(ia != MPI_COMM_NULL && ib != MPI_COMM_NULL, "MPI_Comm_idup made no communicator");
    exercise(ia, me, n, me, ident, "idup");
    exercise(ib, me, n, me, ident, "idup_with_info");
    int icmp = -1;
    CHECK_OK(MPI_Comm_compare(c, ia, &icmp));
    CHECK(icmp == MPI_CONGRUENT, "idup: compare %d, expected MPI_CONGRUENT", icmp);
    /* the attribute was copied at the call (its copy callback ran), and
     * goes with the duplicates */
    void *iattr = NULL;
    int iflag = 0, deleted_before = counts.deleted;
    CHECK_OK(MPI_Comm_get_attr(ia, keyval, &iattr, &iflag));
    CHECK(iflag && (intptr_t)iattr == me + 1000, "idup: attribute %ld, expected %d", (long)(intptr_t)iattr,
          me + 1000);
    CHECK_OK(MPI_Comm_free(&ia));
    CHECK_OK(MPI_Comm_free(&ib));
    CHECK(counts.deleted == deleted_before + 2, "idup: the delete callback ran %d times for the two duplicates",
          counts.deleted - deleted_before);
    counts.deleted = deleted_before;

    /* translate to the world group: each endpoint's process */
    MPI_Group wg;
    CHECK_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    int world_of[NMAX];
    CHECK_OK(MPI_Group_translate_ranks(g, n, ident, wg, world_of));
    for (int r = 0; r < n; r++)
        CHECK(world_of[r] == owner[r], "translate: endpoint %d is world rank %d, expected %d", r, world_of[r],
              owner[r]);
    MPI_Group dg;
    CHECK_OK(MPI_Comm_group(d, &dg));
    int to_dup[NMAX];
    CHECK_OK(MPI_Group_translate_ranks(g, n, ident, dg, to_dup));
    for (int r = 0; r < n; r++)
        CHECK(to_dup[r] == r, "translate to the dup's group: %d is %d", r, to_dup[r]);
    int gcmp = -1;
    CHECK_OK(MPI_Group_compare(g, dg, &gcmp));
    CHECK(gcmp == MPI_IDENT, "group compare(endpoints, dup) %d", gcmp);
    if (n != wsize) {
        CHECK_OK(MPI_Group_compare(g, wg, &gcmp));
        CHECK(gcmp == MPI_UNEQUAL, "group compare(endpoints, world) %d", gcmp);
    }
    MPI_Group_free(&dg);
    MPI_Group_free(&wg);
    MPI_Group_free(&g_excl);
    MPI_Group_free(&g_union);
    MPI_Group_free(&g_front);
    MPI_Group_free(&g_even);
    MPI_Group_free(&g);

    /* error handlers: the first endpoint of each process returns errors,
     * the second counts them in a handler of its own, the others keep
     * the default */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL, counting = MPI_ERRHANDLER_NULL;
    int nerrors = 0;
    if (a->local == 0)
        CHECK_OK(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
    if (a->local == 1) {
        CHECK_OK(MPI_Comm_create_errhandler(count_errors, &counting));
        CHECK_OK(MPI_Comm_set_attr(c, errors_keyval, &nerrors));
        CHECK_OK(MPI_Comm_set_errhandler(c, counting));
    }
    CHECK_OK(MPI_Barrier(c));
    CHECK_OK(MPI_Comm_get_errhandler(c, &eh));
    if (a->local == 0) {
        CHECK(eh == MPI_ERRORS_RETURN, "errhandler of handle %d is not MPI_ERRORS_RETURN", me);
        int v = 0;
        CHECK_ERR(MPI_Send(&v, 1, MPI_INT, n + 3, 0, c), MPI_ERR_RANK);
    } else if (a->local == 1) {
        int v = 0;
        MPI_Send(&v, 1, MPI_INT, n + 3, 0, c);
        CHECK(nerrors == 1, "the counting error handler ran %d times", nerrors);
        CHECK_OK(MPI_Errhandler_free(&counting));
    } else
        CHECK(eh == MPI_ERRORS_ARE_FATAL, "errhandler of handle %d changed by another handle", me);
    if (eh != MPI_ERRHANDLER_NULL)
        MPI_Errhandler_free(&eh);
    CHECK_OK(MPI_Barrier(c));
    CHECK_OK(MPI_Comm_get_errhandler(d, &eh));
    CHECK(eh == MPI_ERRORS_ARE_FATAL, "the errhandler of a dup made before it was set changed");
    MPI_Errhandler_free(&eh);

    /* attributes again: still this handle's own */
    CHECK_OK(MPI_Comm_get_attr(c, keyval, &got, &flag));
    CHECK(flag && (intptr_t)got == me, "attribute of handle %d changed to %ld", me, (long)(intptr_t)got);

    /* nested: an endpoints communicator from this one, 2 per endpoint */
    MPI_Comm nested[2];
    CHECK_OK(MPIX_Comm_create_endpoints(c, 2, MPI_INFO_NULL, nested));
    struct nested_arg na[2];
    pthread_t nt[2];
    for (int j = 0; j < 2; j++) {
        na[j].comm = nested[j];
        na[j].expect_rank = 2 * me + j;
        na[j].expect_size = 2 * n;
        for (int r = 0; r < 2 * n && r < NMAX; r++)
            na[j].parent_of[r] = r / 2;
        CHECK(2 * n <= NMAX, "too many nested endpoints");
        CHECK(pthread_create(&nt[j], NULL, nested_main, &na[j]) == 0, "pthread_create");
    }
    for (int j = 0; j < 2; j++)
        pthread_join(nt[j], NULL);

    /* free in different orders; the delete callback runs for the dups */
    MPI_Comm *order[7] = {&d, &di, &s, &sh, &ce, &cu, &cx};
    for (int k = 0; k < 7; k++) {
        MPI_Comm *f = order[(me % 2) ? 6 - k : (k + me) % 7];
        if (*f != MPI_COMM_NULL)
            CHECK_OK(MPI_Comm_free(f));
    }
    CHECK(counts.deleted == 2, "the delete callback ran %d times after freeing the dups, expected 2", counts.deleted);
    CHECK_OK(MPI_Comm_delete_attr(c, keyval));
    CHECK(counts.deleted == 3, "MPI_Comm_delete_attr: delete callback ran %d times in all", counts.deleted);
    CHECK_OK(MPI_Comm_set_attr(c, keyval, (void *)(intptr_t)(me + 1)));
    CHECK_OK(MPI_Comm_free_keyval(&keyval));
    CHECK_OK(MPI_Barrier(a->comm));
    CHECK_OK(MPI_Comm_free(&a->comm));
    CHECK(counts.deleted == 4, "MPI_Comm_free: delete callback ran %d times in all", counts.deleted);
    return NULL;
}

int main(int argc, char **argv)
{
    ep_init(&argc, &argv, &wrank, &wsize);
    const char *rule = argc > 1 ? argv[1] : "2";
    int total = 0, first = 0;
    for (int r = 0; r < wsize; r++) {
        if (r == wrank)
            first = total;
        for (int j = 0; j < ep_count_for(rule, r) && total < NMAX; j++)
            owner[total++] = r;
    }
    int mine = ep_count_for(rule, wrank);
    CHECK(mine >= 0 && mine <= MAX_EP && total * 2 <= NMAX, "bad endpoint count %d", mine);
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &errors_keyval, NULL));
    MPI_Comm hs[MAX_EP];
    CHECK_OK(MPIX_Comm_create_endpoints(MPI_COMM_WORLD, mine, MPI_INFO_NULL, hs));
    /* two handles of one endpoints communicator are the same one */
    for (int i = 1; i < mine; i++) {
        int cmp = -1;
        CHECK_OK(MPI_Comm_compare(hs[0], hs[i], &cmp));
        CHECK(cmp == MPI_IDENT, "compare(handle 0, handle %d) is %d, expected MPI_IDENT", i, cmp);
    }
    if (mine > 0 && total != wsize) {
        int cmp = -1;
        CHECK_OK(MPI_Comm_compare(hs[0], MPI_COMM_WORLD, &cmp));
        CHECK(cmp == MPI_UNEQUAL, "compare(endpoints, world) is %d, expected MPI_UNEQUAL", cmp);
    }
    pthread_t th[MAX_EP];
    struct ep_arg args[MAX_EP];
    for (int i = 0; i < mine; i++) {
        args[i] = (struct ep_arg){hs[i], first + i, total, i, mine};
        CHECK(pthread_create(&th[i], NULL, endpoint_main, &args[i]) == 0, "pthread_create");
    }
    for (int i = 0; i < mine; i++)
        pthread_join(th[i], NULL);
    CHECK_OK(MPI_Comm_free_keyval(&errors_keyval));
    CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (wrank == 0)
        printf("ep_comm: ok (%d processes, %d endpoints, rule %s)\n", wsize, total, rule);
    MPI_Finalize();
    return 0;
}
