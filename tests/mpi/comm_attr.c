/*
 * comm_attr.c: attribute callbacks called exactly as MPI-2.2 section 6.7
 * says, counted: copy callbacks on MPI_Comm_dup (intra and inter,
 * MPI_Comm_idup, MPI_Comm_dup_with_info) with the old communicator, the
 * keyval, the extra state and the value; the flag deciding whether the
 * copy exists; MPI_COMM_NULL_COPY_FN and MPI_COMM_DUP_FN; no copies on
 * split and create; delete callbacks on MPI_Comm_free, on
 * MPI_Comm_delete_attr and when a value is replaced, still after the
 * keyval is freed; a failing copy callback fails the dup; the MPI-1 forms;
 * a keyval of the wrong kind (MPI_ERR_KEYVAL); a keyval in use freed
 * more than once (accepted); and the attribute on MPI_COMM_SELF deleted
 * at the start of MPI_Finalize.
 */
#include "testutil.h"

#include <stdint.h>

static int rank, size;
static int ncopy, ndelete;
static MPI_Comm last_copy_comm, last_delete_comm;
static intptr_t last_copy_in, last_delete_val;
static int extra_token = 77;
static int fail_copy;

static int copy_cb(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)keyval;
    CHECK(extra == &extra_token, "copy callback: wrong extra_state");
    ncopy++;
    last_copy_comm = oldcomm;
    last_copy_in = (intptr_t)in;
    if (fail_copy)
        return MPI_ERR_OTHER;
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int nocopy_cb(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)oldcomm, (void)keyval, (void)extra, (void)in, (void)out;
    ncopy++;
    *flag = 0;
    return MPI_SUCCESS;
}

static int delete_cb(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)keyval;
    CHECK(extra == &extra_token, "delete callback: wrong extra_state");
    ndelete++;
    last_delete_comm = comm;
    last_delete_val = (intptr_t)val;
    return MPI_SUCCESS;
}

static int self_deleted;
static int self_delete_cb(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)val, (void)extra;
    int fin = 1;
    MPI_Finalized(&fin);
    if (comm != MPI_COMM_SELF) {
        /* the attribute on a duplicate of SELF: frees the keyval it is
         * called with, which main frees again later */
        CHECK_OK(MPI_Comm_free_keyval(&keyval));
        return MPI_SUCCESS;
    }
    CHECK(!fin, "SELF attribute deleted after MPI_Finalize");
    /* main freed this keyval twice already; freeing it again while the
     * attribute keeps it alive is accepted as in the other MPIs */
    CHECK_OK(MPI_Comm_free_keyval(&keyval));
    self_deleted++;
    if (rank == 0)
        printf("self attribute deleted at MPI_Finalize\n");
    fflush(stdout);
    return MPI_SUCCESS;
}

#define EXPECT(c, d, what)                                                                                    \
    CHECK(ncopy == (c) && ndelete == (d), "%s: %d copies and %d deletes, expected %d and %d", what, ncopy, \
          ndelete, (c), (d))

static void *get(MPI_Comm c, int kv, int *flag)
{
    void *v = NULL;
    CHECK_OK(MPI_Comm_get_attr(c, kv, &v, flag));
    return v;
}

static void make_inter(MPI_Comm *ic, MPI_Comm *local)
{
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, local);
    CHECK_OK(MPI_Intercomm_create(*local, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 1, ic));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int kv_copy, kv_none, kv_null, kv_dup, flag;
    CHECK_OK(MPI_Comm_create_keyval(copy_cb, delete_cb, &kv_copy, &extra_token));
    CHECK_OK(MPI_Comm_create_keyval(nocopy_cb, delete_cb, &kv_none, &extra_token));
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_cb, &kv_null, &extra_token));
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, delete_cb, &kv_dup, &extra_token));
    MPI_Comm d, e;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN);
    CHECK_OK(MPI_Comm_set_attr(d, kv_copy, (void *)10));
    CHECK_OK(MPI_Comm_set_attr(d, kv_none, (void *)20));
    CHECK_OK(MPI_Comm_set_attr(d, kv_null, (void *)30));
    CHECK_OK(MPI_Comm_set_attr(d, kv_dup, (void *)40));
    EXPECT(0, 0, "after set");

    /* dup: one copy call per attribute with a user copy function */
    CHECK_OK(MPI_Comm_dup(d, &e));
    EXPECT(2, 0, "after dup");
    CHECK(last_copy_comm == d, "copy callback got comm %d, not the old one", (int)last_copy_comm);
    CHECK((intptr_t)get(e, kv_copy, &flag) == 11 && flag, "copied value wrong");
    get(e, kv_none, &flag);
    CHECK(!flag, "an attribute whose copy said flag = 0 exists on the dup");
    get(e, kv_null, &flag);
    CHECK(!flag, "MPI_COMM_NULL_COPY_FN copied");
    CHECK((intptr_t)get(e, kv_dup, &flag) == 40 && flag, "MPI_COMM_DUP_FN did not copy");
    CHECK((intptr_t)get(d, kv_copy, &flag) == 10 && flag, "the old value changed");

    /* replacing a value deletes the old one */
    CHECK_OK(MPI_Comm_set_attr(d, kv_copy, (void *)12));
    EXPECT(2, 1, "after replacing");
    CHECK(last_delete_val == 10 && last_delete_comm == d, "replace deleted %ld on %d", (long)last_delete_val,
          (int)last_delete_comm);
    /* delete_attr */
    CHECK_OK(MPI_Comm_delete_attr(e, kv_dup));
    EXPECT(2, 2, "after delete_attr");
    CHECK(last_delete_val == 40 && last_delete_comm == e, "delete_attr deleted %ld", (long)last_delete_val);
    CHECK_ERR(MPI_Comm_delete_attr(e, kv_dup), MPI_ERR_KEYVAL);
    EXPECT(2, 2, "deleting a missing attribute");

    /* split and create copy nothing */
    MPI_Comm s, cr;
    CHECK_OK(MPI_Comm_split(d, 0, rank, &s));
    MPI_Group g;
    MPI_Comm_group(d, &g);
    CHECK_OK(MPI_Comm_create(d, g, &cr));
    MPI_Group_free(&g);
    EXPECT(2, 2, "after split and create");
    get(s, kv_copy, &flag);
    CHECK(!flag, "split copied an attribute");
    MPI_Comm_free(&s);
    MPI_Comm_free(&cr);
    EXPECT(2, 2, "after freeing split and create");

    /* free: one delete per attribute left: e has kv_copy (11) */
    CHECK_OK(MPI_Comm_free(&e));
    EXPECT(2, 3, "after freeing the dup");
    CHECK(last_delete_val == 11, "free deleted %ld", (long)last_delete_val);

    /* dup_with_info and idup copy too (idup: at the call) */
    MPI_Info info;
    MPI_Info_create(&info);
    CHECK_OK(MPI_Comm_dup_with_info(d, info, &e));
    MPI_Info_free(&info);
    EXPECT(4, 3, "after dup_with_info");
    MPI_Comm_free(&e);
    EXPECT(4, 5, "after freeing it"); /* kv_copy and kv_dup (copied by MPI_COMM_DUP_FN) on e */
    ndelete = ncopy = 0;
    MPI_Request rq;
    CHECK_OK(MPI_Comm_idup(d, &e, &rq));
    EXPECT(2, 0, "after idup");
    CHECK_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK((intptr_t)get(e, kv_copy, &flag) == 13 && flag, "idup's copy wrong");
    EXPECT(2, 0, "after idup completes");
    MPI_Comm_free(&e);
    EXPECT(2, 2, "after freeing the idup");

    /* a copy callback that fails fails the dup, and nothing leaks */
    ndelete = ncopy = 0;
    fail_copy = 1;
    e = MPI_COMM_SELF; /* the new handle is MPI_COMM_NULL, whatever it held */
    int rc = MPI_Comm_dup(d, &e), cls;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_OTHER && e == MPI_COMM_NULL, "failing copy: class %d", cls);
    /* copying stops at the failure */
    CHECK(ncopy >= 1 && ncopy <= 2, "failing copy: %d copy calls", ncopy);
    e = MPI_COMM_SELF;
    rc = MPI_Comm_dup_with_info(d, MPI_INFO_NULL, &e);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_OTHER && e == MPI_COMM_NULL, "failing copy in dup_with_info: class %d", cls);
    /* nonblocking, failing on rank 0 only: the other ranks' agreement is
     * not left waiting, and rank 0's request completes with the error and
     * MPI_COMM_NULL */
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    fail_copy = me == 0;
    e = MPI_COMM_SELF;
    CHECK_OK(MPI_Comm_idup(d, &e, &rq));
    rc = MPI_Wait(&rq, MPI_STATUS_IGNORE);
    if (me == 0) {
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_OTHER && e == MPI_COMM_NULL, "failing copy in idup: class %d", cls);
    } else {
        CHECK_OK(rc);
        CHECK(e != MPI_COMM_NULL && e != MPI_COMM_SELF, "idup where the copy worked");
        CHECK_OK(MPI_Comm_free(&e));
    }
    fail_copy = 0;

    /* a freed keyval's attributes are still deleted */
    ndelete = ncopy = 0;
    int kv_late;
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_cb, &kv_late, &extra_token));
    CHECK_OK(MPI_Comm_set_attr(d, kv_late, (void *)99));
    CHECK_OK(MPI_Comm_free_keyval(&kv_late));
    CHECK(kv_late == MPI_KEYVAL_INVALID, "free_keyval did not reset the handle");
    CHECK_OK(MPI_Comm_free(&d));
    /* d had kv_copy (12), kv_none (20), kv_null (30), kv_dup (40), kv_late (99) */
    EXPECT(0, 5, "after freeing d");

    /* intercommunicator dup copies */
    if (size >= 2) {
        MPI_Comm ic, local, ic2;
        make_inter(&ic, &local);
        CHECK_OK(MPI_Comm_set_attr(ic, kv_copy, (void *)50));
        ndelete = ncopy = 0;
        CHECK_OK(MPI_Comm_dup(ic, &ic2));
        EXPECT(1, 0, "after an intercommunicator dup");
        CHECK(last_copy_comm == ic && last_copy_in == 50, "intercomm copy got %d %ld", (int)last_copy_comm,
              (long)last_copy_in);
        CHECK((intptr_t)get(ic2, kv_copy, &flag) == 51 && flag, "intercomm copy wrong");
        MPI_Comm m;
        CHECK_OK(MPI_Intercomm_merge(ic, 0, &m));
        EXPECT(1, 0, "merge copies nothing");
        MPI_Comm_free(&m);
        MPI_Comm_free(&ic2);
        MPI_Comm_free(&ic);
        EXPECT(1, 2, "after freeing the intercommunicators");
        MPI_Comm_free(&local);
    }

    /* the MPI-1 forms */
    int kv1;
    ndelete = ncopy = 0;
    CHECK_OK(MPI_Keyval_create(MPI_DUP_FN, delete_cb, &kv1, &extra_token));
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    CHECK_OK(MPI_Attr_put(d, kv1, (void *)7));
    CHECK_OK(MPI_Comm_dup(d, &e));
    CHECK((intptr_t)get(e, kv1, &flag) == 7 && flag, "MPI_DUP_FN did not copy");
    void *v = NULL;
    CHECK_OK(MPI_Attr_get(e, kv1, &v, &flag));
    CHECK(flag && (intptr_t)v == 7, "MPI_Attr_get");
    CHECK_OK(MPI_Attr_delete(e, kv1));
    EXPECT(0, 1, "MPI_Attr_delete");
    MPI_Comm_free(&e);
    MPI_Comm_free(&d);
    EXPECT(0, 2, "after freeing with an MPI-1 keyval");
    CHECK_OK(MPI_Keyval_free(&kv1));

    /* a keyval of the wrong kind */
    int tkv;
    CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tkv, NULL));
    rc = MPI_Comm_set_attr(MPI_COMM_WORLD, tkv, (void *)1);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_KEYVAL, "a datatype keyval on a communicator: class %d", cls);
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, "keyval"), "message '%s'", msg);
    CHECK_ERR(MPI_Comm_get_attr(MPI_COMM_WORLD, tkv, &v, &flag), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, (void *)1), MPI_ERR_KEYVAL);
    MPI_Type_free_keyval(&tkv);

    /* window keyvals: created and freed, of their own kind */
    int wkv = MPI_KEYVAL_INVALID, wkv2;
    CHECK_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &wkv, NULL));
    CHECK_OK(MPI_Win_create_keyval(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, &wkv2, NULL));
    CHECK(wkv != MPI_KEYVAL_INVALID && wkv != wkv2, "window keyvals %d %d", wkv, wkv2);
    CHECK_ERR(MPI_Comm_set_attr(MPI_COMM_WORLD, wkv, (void *)1), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Comm_free_keyval(&wkv), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Type_free_keyval(&wkv), MPI_ERR_KEYVAL);
    CHECK_OK(MPI_Win_free_keyval(&wkv));
    CHECK(wkv == MPI_KEYVAL_INVALID, "MPI_Win_free_keyval did not reset the keyval");
    CHECK_ERR(MPI_Win_free_keyval(&wkv), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Win_free_keyval(NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, NULL, NULL), MPI_ERR_ARG);
    CHECK_OK(MPI_Win_free_keyval(&wkv2));

    MPI_Comm_free_keyval(&kv_copy);
    MPI_Comm_free_keyval(&kv_none);
    MPI_Comm_free_keyval(&kv_null);
    MPI_Comm_free_keyval(&kv_dup);

    /* deleted at the start of MPI_Finalize */
    int kv_self;
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete_cb, &kv_self, NULL));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, kv_self, (void *)1));
    MPI_Comm self_dup;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_SELF, &self_dup));
    CHECK_OK(MPI_Comm_set_attr(self_dup, kv_self, (void *)2));
    CHECK_OK(MPI_Comm_free(&self_dup)); /* its callback frees kv_self */
    int kv_self2 = kv_self;
    CHECK_OK(MPI_Comm_free_keyval(&kv_self));
    CHECK(kv_self == MPI_KEYVAL_INVALID, "free_keyval of a freed keyval did not reset it");
    CHECK_OK(MPI_Keyval_free(&kv_self2));
    if (rank == 0)
        printf("comm_attr: ok on %d ranks\n", size);
    fflush(stdout);
    MPI_Finalize();
    CHECK(self_deleted == 1, "SELF attribute deleted %d times", self_deleted);
    return 0;
}
