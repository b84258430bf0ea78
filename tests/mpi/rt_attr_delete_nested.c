/*
 * rt_attr_delete_nested.c: a delete callback that deletes other attributes
 * of the same object. The callback of one key deletes the attributes of
 * the keys set before and after it, when its attribute is deleted
 * (MPI_Comm_delete_attr, MPI_Type_delete_attr), when its value is
 * replaced (MPI_Comm_set_attr) and when the communicator is freed; every
 * callback runs once and the object is left without those attributes.
 */
#include "testutil.h"

static int key_before, key_cb, key_after;
static int tkey_before, tkey_cb, tkey_after;
static int plain_deletes, cb_deletes;

static int plain_delete(MPI_Comm c, int kv, void *val, void *extra)
{
    (void)c;
    (void)kv;
    (void)val;
    (void)extra;
    plain_deletes++;
    return MPI_SUCCESS;
}

static int comm_cb_delete(MPI_Comm c, int kv, void *val, void *extra)
{
    (void)kv;
    (void)val;
    (void)extra;
    cb_deletes++;
    int keys[2] = {key_before, key_after};
    for (int i = 0; i < 2; i++) {
        void *v;
        int flag = 0, rc = MPI_Comm_get_attr(c, keys[i], &v, &flag);
        if (rc == MPI_SUCCESS && flag)
            rc = MPI_Comm_delete_attr(c, keys[i]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

static int type_plain_delete(MPI_Datatype t, int kv, void *val, void *extra)
{
    return plain_delete((MPI_Comm)t, kv, val, extra);
}

static int type_cb_delete(MPI_Datatype t, int kv, void *val, void *extra)
{
    (void)kv;
    (void)val;
    (void)extra;
    cb_deletes++;
    int rc1 = MPI_Type_delete_attr(t, tkey_before);
    int rc2 = MPI_Type_delete_attr(t, tkey_after);
    return rc1 != MPI_SUCCESS ? rc1 : rc2;
}

static void set_three(MPI_Comm c)
{
    CHECK_OK(MPI_Comm_set_attr(c, key_before, (void *)1));
    CHECK_OK(MPI_Comm_set_attr(c, key_cb, (void *)2));
    CHECK_OK(MPI_Comm_set_attr(c, key_after, (void *)3));
}

static void expect_unset(MPI_Comm c, int kv, const char *what)
{
    void *v;
    int flag = 1;
    CHECK_OK(MPI_Comm_get_attr(c, kv, &v, &flag));
    CHECK(!flag, "%s: attribute still set", what);
}

static void test_comm(void)
{
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, plain_delete, &key_before, NULL));
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_cb_delete, &key_cb, NULL));
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, plain_delete, &key_after, NULL));
    MPI_Comm c;
    CHECK_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));

    set_three(c);
    CHECK_OK(MPI_Comm_delete_attr(c, key_cb));
    CHECK(cb_deletes == 1 && plain_deletes == 2, "delete: %d/%d callbacks", cb_deletes, plain_deletes);
    expect_unset(c, key_before, "delete");
    expect_unset(c, key_cb, "delete");
    expect_unset(c, key_after, "delete");

    set_three(c);
    CHECK_OK(MPI_Comm_set_attr(c, key_cb, (void *)4));
    CHECK(cb_deletes == 2 && plain_deletes == 4, "replace: %d/%d callbacks", cb_deletes, plain_deletes);
    expect_unset(c, key_before, "replace");
    expect_unset(c, key_after, "replace");
    void *v = NULL;
    int flag = 0;
    CHECK_OK(MPI_Comm_get_attr(c, key_cb, &v, &flag));
    CHECK(flag && v == (void *)4, "replace: the new value is not there (flag %d)", flag);
    CHECK_OK(MPI_Comm_delete_attr(c, key_cb)); /* its callback finds nothing else to delete */

    set_three(c);
    cb_deletes = plain_deletes = 0;
    CHECK_OK(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
    MPI_Comm_free(&c);
    CHECK(cb_deletes == 1 && plain_deletes == 2, "free: %d/%d callbacks", cb_deletes, plain_deletes);

    MPI_Comm_free_keyval(&key_before);
    MPI_Comm_free_keyval(&key_cb);
    MPI_Comm_free_keyval(&key_after);
}

static void test_type(void)
{
    CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_plain_delete, &tkey_before, NULL));
    CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_cb_delete, &tkey_cb, NULL));
    CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_plain_delete, &tkey_after, NULL));
    MPI_Datatype t;
    CHECK_OK(MPI_Type_contiguous(3, MPI_INT, &t));
    CHECK_OK(MPI_Type_set_attr(t, tkey_before, (void *)1));
    CHECK_OK(MPI_Type_set_attr(t, tkey_cb, (void *)2));
    CHECK_OK(MPI_Type_set_attr(t, tkey_after, (void *)3));
    cb_deletes = plain_deletes = 0;
    CHECK_OK(MPI_Type_delete_attr(t, tkey_cb));
    CHECK(cb_deletes == 1 && plain_deletes == 2, "type delete: %d/%d callbacks", cb_deletes, plain_deletes);
    void *v;
    int flag = 1;
    CHECK_OK(MPI_Type_get_attr(t, tkey_before, &v, &flag));
    CHECK(!flag, "type delete: attribute still set");
    CHECK_OK(MPI_Type_free(&t));
    CHECK(plain_deletes == 2, "type free: %d more callbacks", plain_deletes - 2);
    MPI_Type_free_keyval(&tkey_before);
    MPI_Type_free_keyval(&tkey_cb);
    MPI_Type_free_keyval(&tkey_after);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_comm();
    test_type();
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("rt_attr_delete_nested: ok\n");
    MPI_Finalize();
    return 0;
}
