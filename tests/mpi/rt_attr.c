/*
 * rt_attr.c: attribute caching on communicators: keyvals, set/get/delete,
 * the delete callback on replace/delete/free-of-MPI_COMM_SELF-at-finalize,
 * freed keyvals that stay usable by attached attributes, wrong keyvals.
 */
#include "testutil.h"

static int deletes, self_deletes;

static int count_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)val;
    (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

static int self_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)keyval;
    (void)extra;
    /* called from MPI_Finalize: MPI must still work here */
    int flag;
    MPI_Finalized(&flag);
    if (comm == MPI_COMM_SELF && !flag && val == (void *)0x42) {
        self_deletes++;
        printf("self attribute deleted in MPI_Finalize\n");
        fflush(stdout);
    }
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int kv, kv2;
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &kv, NULL));
    CHECK_OK(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &kv2, NULL));
    int a = 1, b = 2, *p, flag;
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, kv, &p, &flag));
    CHECK(!flag, "unset attribute found");
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kv, &a));
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, kv, &p, &flag));
    CHECK(flag && p == &a, "get after set");
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kv, &b));
    CHECK(deletes == 1, "replacing did not call delete (%d)", deletes);
    CHECK_OK(MPI_Attr_get(MPI_COMM_WORLD, kv, &p, &flag));
    CHECK(flag && p == &b, "deprecated get");
    CHECK_OK(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv));
    CHECK(deletes == 2, "delete count %d", deletes);
    CHECK_ERR(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv), MPI_ERR_KEYVAL);
    CHECK_OK(MPI_Attr_put(MPI_COMM_WORLD, kv2, &a));
    CHECK_OK(MPI_Attr_delete(MPI_COMM_WORLD, kv2));
    /* a freed keyval's attribute still works until deleted */
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, kv, &a));
    int kvcopy = kv;
    CHECK_OK(MPI_Comm_free_keyval(&kv));
    CHECK(kv == MPI_KEYVAL_INVALID, "free did not invalidate");
    CHECK_ERR(MPI_Comm_get_attr(MPI_COMM_SELF, kvcopy, &p, &flag), MPI_ERR_KEYVAL);
    /* predefined keyvals cannot be set, deleted or freed */
    CHECK_ERR(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &a), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB), MPI_ERR_KEYVAL);
    int tag_ub = MPI_TAG_UB;
    CHECK_ERR(MPI_Comm_free_keyval(&tag_ub), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Comm_get_attr(MPI_COMM_WORLD, 424242, &p, &flag), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Comm_set_attr(MPI_COMM_NULL, kv2, &a), MPI_ERR_COMM);
    CHECK_OK(MPI_Keyval_free(&kv2));
    /* MPI_Finalize deletes MPI_COMM_SELF's attributes first */
    int skv;
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &skv, NULL));
    CHECK_OK(MPI_Comm_set_attr(MPI_COMM_SELF, skv, (void *)0x42));
    int before = deletes;
    MPI_Finalize();
    CHECK(self_deletes == 1, "self delete callback ran %d times", self_deletes);
    CHECK(deletes == before + 1, "freed keyval's attribute not deleted at finalize (%d)", deletes - before);
    return 0;
}
