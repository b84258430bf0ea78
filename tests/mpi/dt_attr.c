/*
 * dt_attr.c: attributes on datatypes (MPI_Type_create_keyval and friends:
 * set/get/delete, replacing a value runs the delete callback, copy
 * callbacks on MPI_Type_dup including MPI_TYPE_DUP_FN and
 * MPI_TYPE_NULL_COPY_FN, delete callbacks on MPI_Type_free, attributes on
 * predefined types, a keyval freed while in use: its handle is not
 * reused and its attributes can still be deleted with it) and datatype names
 * (predefined names, set/get, truncation, not copied by dup).
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"

static int deleted, copied;
static void *last_deleted;

static int copy_fn(MPI_Datatype t, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)t;
    (void)kv;
    CHECK(extra == (void *)&copied, "copy callback got the wrong extra_state");
    copied++;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Datatype t, int kv, void *val, void *extra)
{
    (void)t;
    (void)kv;
    (void)extra;
    deleted++;
    last_deleted = val;
    return MPI_SUCCESS;
}

static int failing_copy(MPI_Datatype t, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)t, (void)kv, (void)extra, (void)in, (void)out;
    *flag = 0;
    return MPI_ERR_OTHER;
}

static int failing_delete(MPI_Datatype t, int kv, void *val, void *extra)
{
    (void)t;
    (void)kv;
    (void)val;
    (void)extra;
    return MPI_ERR_OTHER;
}

static void attributes(void)
{
    int kv, kdup, knull, kfail;
    CHECK_OK(MPI_Type_create_keyval(copy_fn, delete_fn, &kv, &copied));
    CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kdup, NULL));
    CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &knull, NULL));
    CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, failing_delete, &kfail, NULL));
    MPI_Datatype t, d;
    MPI_Type_vector(2, 1, 2, MPI_INT, &t);
    char *base = (char *)0x1000;
    CHECK_OK(MPI_Type_set_attr(t, kv, base));
    CHECK_OK(MPI_Type_set_attr(t, kdup, base + 100));
    CHECK_OK(MPI_Type_set_attr(t, knull, base + 200));
    void *v;
    int flag;
    CHECK_OK(MPI_Type_get_attr(t, kv, &v, &flag));
    CHECK(flag && v == base, "get_attr after set");
    /* replacing runs the delete callback on the old value */
    CHECK_OK(MPI_Type_set_attr(t, kv, base + 10));
    CHECK(deleted == 1 && last_deleted == base, "replacing an attribute: %d deletes", deleted);
    /* dup copies through the callbacks */
    CHECK_OK(MPI_Type_dup(t, &d));
    CHECK(copied == 1, "dup ran the copy callback %d times", copied);
    CHECK_OK(MPI_Type_get_attr(d, kv, &v, &flag));
    CHECK(flag && v == base + 11, "copied attribute %p", v);
    CHECK_OK(MPI_Type_get_attr(d, kdup, &v, &flag));
    CHECK(flag && v == base + 100, "MPI_TYPE_DUP_FN attribute");
    CHECK_OK(MPI_Type_get_attr(d, knull, &v, &flag));
    CHECK(!flag, "MPI_TYPE_NULL_COPY_FN attribute was copied");
    /* delete */
    CHECK_OK(MPI_Type_delete_attr(t, kv));
    CHECK(deleted == 2 && last_deleted == base + 10, "delete_attr ran the callback");
    CHECK_OK(MPI_Type_get_attr(t, kv, &v, &flag));
    CHECK(!flag, "attribute still there after delete");
    CHECK_ERR(MPI_Type_delete_attr(t, kv), MPI_ERR_KEYVAL);
    /* free runs the delete callbacks of what is left */
    CHECK_OK(MPI_Type_free(&d));
    CHECK(deleted == 3 && last_deleted == base + 11, "free ran the delete callback (%d)", deleted);
    /* a keyval freed while attached stays usable by the objects that have it */
    CHECK_OK(MPI_Type_set_attr(t, kv, base + 20));
    CHECK_OK(MPI_Type_free_keyval(&kv));
    CHECK(kv == MPI_KEYVAL_INVALID, "free_keyval did not reset the keyval");
    CHECK_OK(MPI_Type_free(&t));
    CHECK(deleted == 4 && last_deleted == base + 20, "free after free_keyval ran the callback");
    /* the attributes of a freed keyval are deleted with that keyval, whose
     * handle is not given to a new keyval meanwhile (MPI-2.2 section 6.7.2) */
    int kfree, kcopy, knew;
    CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, delete_fn, &kfree, NULL));
    CHECK_OK(MPI_Type_set_attr(MPI_INT, kfree, base + 30));
    kcopy = kfree;
    CHECK_OK(MPI_Type_free_keyval(&kfree));
    CHECK_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &knew, NULL));
    CHECK(knew != kcopy, "a new keyval reuses the handle %d of a freed keyval still in use", kcopy);
    CHECK_ERR(MPI_Type_set_attr(MPI_INT, kcopy, base), MPI_ERR_KEYVAL);
    /* freeing it again while it is in use does nothing more (as in Open
     * MPI and MPICH) and resets the variable */
    int kcopy2 = kcopy;
    CHECK_OK(MPI_Type_free_keyval(&kcopy2));
    CHECK(kcopy2 == MPI_KEYVAL_INVALID, "second free_keyval did not reset the keyval");
    CHECK_OK(MPI_Type_delete_attr(MPI_INT, kcopy));
    CHECK(deleted == 5 && last_deleted == base + 30, "delete_attr with a freed keyval ran the callback");
    CHECK_ERR(MPI_Type_get_attr(MPI_INT, kcopy, &v, &flag), MPI_ERR_KEYVAL);
    /* once its last attribute is gone, the handle is invalid */
    CHECK_ERR(MPI_Type_free_keyval(&kcopy), MPI_ERR_KEYVAL);
    CHECK_OK(MPI_Type_free_keyval(&knew));
    /* attributes on a predefined type */
    CHECK_OK(MPI_Type_set_attr(MPI_DOUBLE, knull, base + 7));
    CHECK_OK(MPI_Type_get_attr(MPI_DOUBLE, knull, &v, &flag));
    CHECK(flag && v == base + 7, "attribute on MPI_DOUBLE");
    CHECK_OK(MPI_Type_delete_attr(MPI_DOUBLE, knull));
    /* a failing delete callback makes the call fail */
    MPI_Type_contiguous(2, MPI_INT, &t);
    CHECK_OK(MPI_Type_set_attr(t, kfail, base));
    CHECK_ERR(MPI_Type_delete_attr(t, kfail), MPI_ERR_OTHER);
    /* a failing copy callback fails MPI_Type_dup, and the new handle is
     * MPI_DATATYPE_NULL */
    {
        int kcf;
        MPI_Datatype u = MPI_INT, w;
        CHECK_OK(MPI_Type_create_keyval(failing_copy, MPI_TYPE_NULL_DELETE_FN, &kcf, NULL));
        MPI_Type_contiguous(3, MPI_INT, &w);
        CHECK_OK(MPI_Type_set_attr(w, kcf, base));
        CHECK_ERR(MPI_Type_dup(w, &u), MPI_ERR_OTHER);
        CHECK(u == MPI_DATATYPE_NULL, "failing copy: the new type handle is not MPI_DATATYPE_NULL");
        CHECK_OK(MPI_Type_free(&w));
        CHECK_OK(MPI_Type_free_keyval(&kcf));
    }
    /* bad keyvals */
    int ckv;
    CHECK_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ckv, NULL));
    CHECK_ERR(MPI_Type_set_attr(t, ckv, base), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Type_get_attr(t, 12345, &v, &flag), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Type_set_attr(MPI_DATATYPE_NULL, knull, base), MPI_ERR_TYPE);
    MPI_Comm_free_keyval(&ckv);
    MPI_Type_free_keyval(&kdup);
    MPI_Type_free_keyval(&knull);
}

static void names(void)
{
    struct { MPI_Datatype t; const char *name; } tab[] = {
        {MPI_INT, "MPI_INT"}, {MPI_DOUBLE, "MPI_DOUBLE"}, {MPI_LONG_LONG, "MPI_LONG_LONG_INT"},
        {MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR"}, {MPI_WCHAR, "MPI_WCHAR"}, {MPI_C_BOOL, "MPI_C_BOOL"},
        {MPI_INT8_T, "MPI_INT8_T"}, {MPI_UINT64_T, "MPI_UINT64_T"}, {MPI_AINT, "MPI_AINT"},
        {MPI_OFFSET, "MPI_OFFSET"}, {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX"},
        {MPI_FLOAT_INT, "MPI_FLOAT_INT"}, {MPI_DOUBLE_INT, "MPI_DOUBLE_INT"}, {MPI_LONG_INT, "MPI_LONG_INT"},
        {MPI_2INT, "MPI_2INT"}, {MPI_SHORT_INT, "MPI_SHORT_INT"}, {MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT"},
        {MPI_INTEGER, "MPI_INTEGER"}, {MPI_REAL, "MPI_REAL"}, {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION"},
        {MPI_COMPLEX, "MPI_COMPLEX"}, {MPI_LOGICAL, "MPI_LOGICAL"}, {MPI_CHARACTER, "MPI_CHARACTER"},
        {MPI_2INTEGER, "MPI_2INTEGER"}, {MPI_PACKED, "MPI_PACKED"}, {MPI_BYTE, "MPI_BYTE"},
        {MPI_LB, "MPI_LB"}, {MPI_UB, "MPI_UB"},
    };
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        CHECK_OK(MPI_Type_get_name(tab[i].t, name, &len));
        CHECK(strcmp(name, tab[i].name) == 0 && len == (int)strlen(tab[i].name), "name of %s is \"%s\"",
              tab[i].name, name);
    }
    MPI_Datatype t, d;
    MPI_Type_contiguous(2, MPI_INT, &t);
    CHECK_OK(MPI_Type_get_name(t, name, &len));
    CHECK(len == 0 && name[0] == 0, "a new type has the name \"%s\"", name);
    CHECK_OK(MPI_Type_set_name(t, "pair of ints"));
    CHECK_OK(MPI_Type_get_name(t, name, &len));
    CHECK(strcmp(name, "pair of ints") == 0 && len == 12, "set_name/get_name: \"%s\"", name);
    MPI_Type_dup(t, &d);
    CHECK_OK(MPI_Type_get_name(d, name, &len));
    CHECK(len == 0, "dup copied the name \"%s\"", name);
    char longname[300];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = 0;
    CHECK_OK(MPI_Type_set_name(d, longname));
    CHECK_OK(MPI_Type_get_name(d, name, &len));
    CHECK(len == MPI_MAX_OBJECT_NAME - 1, "a long name is kept to %d characters", len);
    CHECK_OK(MPI_Type_set_name(MPI_FLOAT, "my float"));
    CHECK_OK(MPI_Type_get_name(MPI_FLOAT, name, &len));
    CHECK(strcmp(name, "my float") == 0, "renaming a predefined type");
    CHECK_OK(MPI_Type_set_name(MPI_FLOAT, "MPI_FLOAT"));
    CHECK_ERR(MPI_Type_set_name(t, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len), MPI_ERR_TYPE);
    MPI_Type_free(&t);
    MPI_Type_free(&d);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    attributes();
    names();
    printf("dt_attr: ok\n");
    MPI_Finalize();
    return 0;
}
