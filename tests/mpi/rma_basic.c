/*
 * rma_basic.c: window objects (MPI-3.1 11.2, 6.7, 8.3): MPI_Win_create,
 * MPI_Win_allocate and MPI_Win_free; the attributes MPI_WIN_BASE, _SIZE,
 * _DISP_UNIT, _CREATE_FLAVOR and _MODEL; MPI_Win_get_group; window names;
 * a user error handler set, read back and called; user keyvals whose delete
 * callback runs at MPI_Win_delete_attr and at MPI_Win_free; window info
 * hints; zero-size windows, with a NULL base.
 */
#include "testutil.h"

static int eh_calls;
static MPI_Win eh_win;
static int eh_code;

static void win_eh(MPI_Win *win, int *code, ...)
{
    eh_calls++;
    eh_win = *win;
    eh_code = *code;
}

static int del_calls;
static void *del_val;
static int extra_state_tag = 77;

static int del_fn(MPI_Win win, int keyval, void *val, void *extra)
{
    (void)win;
    (void)keyval;
    CHECK(extra == &extra_state_tag, "delete callback got extra_state %p", extra);
    del_calls++;
    del_val = val;
    return MPI_SUCCESS;
}

static void check_attrs(MPI_Win win, void *base, MPI_Aint size, int disp_unit, int flavor)
{
    void *b = (void *)0x1;
    MPI_Aint *sz = NULL;
    int *du = NULL, *fl = NULL, *model = NULL;
    int flag = 0;
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_BASE, &b, &flag));
    CHECK(flag, "MPI_WIN_BASE not set");
    CHECK(b == base, "MPI_WIN_BASE %p, expected %p", b, base);
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &flag));
    CHECK(flag && sz && *sz == size, "MPI_WIN_SIZE %ld, expected %ld", sz ? (long)*sz : -1L, (long)size);
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &flag));
    CHECK(flag && du && *du == disp_unit, "MPI_WIN_DISP_UNIT %d, expected %d", du ? *du : -1, disp_unit);
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &fl, &flag));
    CHECK(flag && fl && *fl == flavor, "MPI_WIN_CREATE_FLAVOR %d, expected %d", fl ? *fl : -1, flavor);
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag));
    CHECK(flag && model && *model == MPI_WIN_UNIFIED, "MPI_WIN_MODEL %d, expected MPI_WIN_UNIFIED",
          model ? *model : -1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* MPI_Win_create on user memory */
    int buf[10];
    for (int i = 0; i < 10; i++)
        buf[i] = rank * 100 + i;
    MPI_Win win;
    CHECK_OK(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK(win != MPI_WIN_NULL, "MPI_Win_create gave MPI_WIN_NULL");
    check_attrs(win, buf, sizeof buf, sizeof(int), MPI_WIN_FLAVOR_CREATE);

    /* the group of the window is the group of the communicator */
    MPI_Group wg, cg;
    int cmp = -1;
    CHECK_OK(MPI_Win_get_group(win, &wg));
    MPI_Comm_group(MPI_COMM_WORLD, &cg);
    MPI_Group_compare(wg, cg, &cmp);
    CHECK(cmp == MPI_IDENT, "window group compares %d with the world group", cmp);
    MPI_Group_free(&wg);
    MPI_Group_free(&cg);

    /* names: empty by default, then what was set */
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_OK(MPI_Win_get_name(win, name, &len));
    CHECK(len == (int)strlen(name), "name length %d for '%s'", len, name);
    CHECK_OK(MPI_Win_set_name(win, "halo window"));
    CHECK_OK(MPI_Win_get_name(win, name, &len));
    CHECK(strcmp(name, "halo window") == 0 && len == 11, "name '%s' (%d)", name, len);
    CHECK_OK(MPI_Win_set_name(win, "second"));
    CHECK_OK(MPI_Win_get_name(win, name, &len));
    CHECK(strcmp(name, "second") == 0 && len == 6, "renamed '%s' (%d)", name, len);

    /* error handlers: MPI_ERRORS_ARE_FATAL by default, then a user one */
    MPI_Errhandler eh, got;
    CHECK_OK(MPI_Win_get_errhandler(win, &got));
    CHECK(got == MPI_ERRORS_ARE_FATAL, "default window error handler is not MPI_ERRORS_ARE_FATAL");
    MPI_Errhandler_free(&got);
    CHECK_OK(MPI_Win_create_errhandler(win_eh, &eh));
    CHECK_OK(MPI_Win_set_errhandler(win, eh));
    CHECK_OK(MPI_Win_get_errhandler(win, &got));
    CHECK(got == eh, "MPI_Win_get_errhandler does not give the handler set");
    MPI_Errhandler_free(&got);
    CHECK_OK(MPI_Errhandler_free(&eh)); /* the window keeps it alive */
    int rc = MPI_Win_call_errhandler(win, MPI_ERR_OTHER);
    CHECK(rc == MPI_SUCCESS, "MPI_Win_call_errhandler returned %d", rc);
    CHECK(eh_calls == 1 && eh_win == win && eh_code == MPI_ERR_OTHER,
          "user handler: %d calls, code %d", eh_calls, eh_code);
    /* a real error reaches it too: lock of an invalid type */
    rc = MPI_Win_lock(12345, rank, 0, win);
    CHECK(rc != MPI_SUCCESS && eh_calls == 2 && eh_win == win, "invalid lock type: rc %d, %d calls",
          rc, eh_calls);
    CHECK_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));

    /* keyvals: set, get, replace, delete, and the delete callback */
    int kv = MPI_KEYVAL_INVALID, flag = 0;
    int *vp = NULL;
    static int val1 = 1, val2 = 2, val3 = 3;
    CHECK_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, del_fn, &kv, &extra_state_tag));
    CHECK_OK(MPI_Win_get_attr(win, kv, &vp, &flag));
    CHECK(!flag, "attribute set before MPI_Win_set_attr");
    CHECK_OK(MPI_Win_set_attr(win, kv, &val1));
    CHECK_OK(MPI_Win_get_attr(win, kv, &vp, &flag));
    CHECK(flag && vp == &val1, "attribute read back wrong");
    CHECK_OK(MPI_Win_set_attr(win, kv, &val2)); /* replaces: deletes the old value */
    CHECK(del_calls == 1 && del_val == &val1, "replace: %d delete calls", del_calls);
    CHECK_OK(MPI_Win_delete_attr(win, kv));
    CHECK(del_calls == 2 && del_val == &val2, "delete_attr: %d delete calls", del_calls);
    CHECK_OK(MPI_Win_get_attr(win, kv, &vp, &flag));
    CHECK(!flag, "attribute still set after delete");
    CHECK_OK(MPI_Win_set_attr(win, kv, &val3));
    CHECK_OK(MPI_Win_free_keyval(&kv)); /* still in use: the callback stays */
    CHECK(kv == MPI_KEYVAL_INVALID, "MPI_Win_free_keyval did not reset the keyval");

    /* info: get_info gives a new object, set_info accepts unknown keys */
    MPI_Info info, used;
    int nkeys = -1;
    CHECK_OK(MPI_Win_get_info(win, &used));
    CHECK(used != MPI_INFO_NULL, "MPI_Win_get_info gave MPI_INFO_NULL");
    CHECK_OK(MPI_Info_get_nkeys(used, &nkeys));
    CHECK(nkeys >= 0, "nkeys %d", nkeys);
    MPI_Info_free(&used);
    MPI_Info_create(&info);
    MPI_Info_set(info, "tide_test_unknown_hint", "yes");
    MPI_Info_set(info, "accumulate_ordering", "none");
    CHECK_OK(MPI_Win_set_info(win, info));
    MPI_Info_free(&info);
    CHECK_OK(MPI_Win_get_info(win, &used));
    MPI_Info_free(&used);

    /* the window works: read the neighbour's buffer */
    int right = (rank + 1) % size, got3[3] = {-1, -1, -1};
    CHECK_OK(MPI_Win_fence(0, win));
    CHECK_OK(MPI_Get(got3, 3, MPI_INT, right, 4, 3, MPI_INT, win));
    CHECK_OK(MPI_Win_fence(0, win));
    for (int i = 0; i < 3; i++)
        CHECK(got3[i] == right * 100 + 4 + i, "get [%d] = %d", i, got3[i]);

    CHECK_OK(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL, "MPI_Win_free did not set MPI_WIN_NULL");
    CHECK(del_calls == 3 && del_val == &val3, "MPI_Win_free: %d delete calls", del_calls);

    /* MPI_Win_allocate, a different size and unit on every rank */
    MPI_Aint asz = (MPI_Aint)(rank + 1) * 8 * sizeof(double);
    double *abase = NULL;
    CHECK_OK(MPI_Win_allocate(asz, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &abase, &win));
    CHECK(abase != NULL, "MPI_Win_allocate gave no memory");
    check_attrs(win, abase, asz, sizeof(double), MPI_WIN_FLAVOR_ALLOCATE);
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    for (int i = 0; i < (rank + 1) * 8; i++)
        abase[i] = rank + i / 1000.0;
    CHECK_OK(MPI_Win_fence(0, win));
    double d = -1;
    /* the last element of the right neighbour's block */
    CHECK_OK(MPI_Get(&d, 1, MPI_DOUBLE, right, (right + 1) * 8 - 1, 1, MPI_DOUBLE, win));
    CHECK_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK(d == right + ((right + 1) * 8 - 1) / 1000.0, "allocate get %g", d);
    CHECK_OK(MPI_Win_free(&win));

    /* zero-size windows: NULL base on every rank, then only on odd ranks */
    CHECK_OK(MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    check_attrs(win, NULL, 0, 1, MPI_WIN_FLAVOR_CREATE);
    CHECK_OK(MPI_Win_fence(0, win));
    CHECK_OK(MPI_Win_fence(0, win));
    CHECK_OK(MPI_Win_free(&win));
    static int one;
    one = rank;
    int zero_here = rank % 2;
    CHECK_OK(MPI_Win_create(zero_here ? NULL : &one, zero_here ? 0 : sizeof one, sizeof(int),
                            MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    int even = (rank / 2) * 2, from = -1;
    CHECK_OK(MPI_Win_fence(0, win));
    CHECK_OK(MPI_Get(&from, 1, MPI_INT, even, 0, 1, MPI_INT, win));
    CHECK_OK(MPI_Win_fence(0, win));
    CHECK(from == even, "get from rank %d's one-int window: %d", even, from);
    CHECK_OK(MPI_Win_free(&win));
    void *zbase = NULL;
    CHECK_OK(MPI_Win_allocate(0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &zbase, &win));
    MPI_Aint *zsz = NULL;
    CHECK_OK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &zsz, &flag));
    CHECK(flag && *zsz == 0, "zero-size allocate: size %ld", (long)*zsz);
    CHECK_OK(MPI_Win_free(&win));

    /* a window over a sub-communicator: its group is that of the comm */
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
    CHECK_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, half, &win));
    CHECK_OK(MPI_Win_get_group(win, &wg));
    MPI_Comm_group(half, &cg);
    MPI_Group_compare(wg, cg, &cmp);
    CHECK(cmp == MPI_IDENT, "sub-communicator window group compares %d", cmp);
    MPI_Group_free(&wg);
    MPI_Group_free(&cg);
    /* the Fortran handle maps back to the same window */
    CHECK(MPI_Win_f2c(MPI_Win_c2f(win)) == win, "MPI_Win_f2c(MPI_Win_c2f(win)) differs");
    CHECK_OK(MPI_Win_free(&win));
    MPI_Comm_free(&half);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("rma_basic: ok\n");
    MPI_Finalize();
    return 0;
}
