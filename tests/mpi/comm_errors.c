/*
 * comm_errors.c: error handling around communicators (MPI-2.2 section
 * 8.3-8.5): user error classes, codes and strings and
 * MPI_Comm_call_errhandler; error handlers inherited by every constructor
 * (dup, split, create, Cartesian, intercommunicator, merge) and invoked
 * with the new communicator's handle; bad input reported through the
 * handler of the communicator the call was made on (or MPI_COMM_WORLD's
 * for calls without one) with the right class and a message naming the
 * function and the argument.
 */
#include "testutil.h"

static int rank, size;
static int calls, last_class;
static MPI_Comm last_comm;

static void handler(MPI_Comm *comm, int *code, ...)
{
    calls++;
    last_comm = *comm;
    MPI_Error_class(*code, &last_class);
}

static void expect_call(int cls, MPI_Comm comm, const char *what)
{
    CHECK(calls == 1 && last_class == cls && last_comm == comm,
          "%s: handler called %d times, class %d (expected %d), on %d (expected %d)", what, calls, last_class, cls,
          (int)last_comm, (int)comm);
    calls = 0;
}

static void expect_message(int rc, int cls, const char *a, const char *b)
{
    int c;
    MPI_Error_class(rc, &c);
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, msg, &len);
    CHECK(c == cls && strstr(msg, a) && (!b || strstr(msg, b)), "class %d (expected %d), message '%s' (wanted %s, %s)",
          c, cls, msg, a, b ? b : "");
}

static void test_user_classes(void)
{
    int cls1, cls2, code1, code2, code3;
    CHECK_OK(MPI_Add_error_class(&cls1));
    CHECK_OK(MPI_Add_error_class(&cls2));
    CHECK(cls1 > MPI_ERR_LASTCODE && cls2 > cls1, "new classes %d %d", cls1, cls2);
    CHECK_OK(MPI_Add_error_code(cls1, &code1));
    CHECK_OK(MPI_Add_error_code(cls1, &code2));
    CHECK_OK(MPI_Add_error_code(cls2, &code3));
    CHECK(code1 != code2 && code1 != code3, "codes %d %d %d", code1, code2, code3);
    int c;
    MPI_Error_class(code1, &c);
    CHECK(c == cls1, "class of code1 %d", c);
    MPI_Error_class(code3, &c);
    CHECK(c == cls2, "class of code3 %d", c);
    MPI_Error_class(cls2, &c);
    CHECK(c == cls2, "a class is its own class: %d", c);
    CHECK_OK(MPI_Add_error_string(cls1, "tide test class one"));
    CHECK_OK(MPI_Add_error_string(code2, "tide test code two"));
    char s[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(cls1, s, &len);
    CHECK(strcmp(s, "tide test class one") == 0 && len == (int)strlen(s), "class string '%s'", s);
    MPI_Error_string(code2, s, &len);
    CHECK(strcmp(s, "tide test code two") == 0, "code string '%s'", s);
    /* MPI_LASTUSEDCODE follows */
    int *last, flag;
    CHECK_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag));
    CHECK(flag && *last >= code3 && *last >= cls2, "MPI_LASTUSEDCODE %d below %d", flag ? *last : -1, code3);
    /* MPI_Comm_call_errhandler hands the user's code to the handler */
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(handler, &eh);
    MPI_Comm_set_errhandler(d, eh);
    MPI_Errhandler_free(&eh);
    calls = 0;
    int rc = MPI_Comm_call_errhandler(d, code2);
    CHECK(rc == MPI_SUCCESS, "MPI_Comm_call_errhandler returned %d", rc);
    expect_call(cls1, d, "call_errhandler with a user code");
    MPI_Comm_free(&d);
}

static void test_inheritance(void)
{
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(handler, &eh);
    MPI_Comm_set_errhandler(d, eh);
    MPI_Errhandler_free(&eh); /* the communicators keep it alive */
    MPI_Comm made[8];
    int n = 0;
    MPI_Comm_dup(d, &made[n++]);
    MPI_Comm_split(d, 0, rank, &made[n++]);
    MPI_Group g;
    MPI_Comm_group(d, &g);
    MPI_Comm_create(d, g, &made[n++]);
    MPI_Comm_create_group(d, g, 3, &made[n++]);
    MPI_Group_free(&g);
    int dims[1] = {size}, per[1] = {0};
    MPI_Cart_create(d, 1, dims, per, 0, &made[n++]);
    MPI_Request rq;
    MPI_Comm_idup(d, &made[n], &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    n++;
    if (size >= 2) {
        MPI_Comm local, ic;
        MPI_Comm_split(d, rank % 2, rank, &local);
        MPI_Intercomm_create(local, 0, d, rank % 2 ? 0 : 1, 9, &ic);
        made[n++] = ic;
        MPI_Intercomm_merge(ic, rank % 2, &made[n++]);
        MPI_Comm_free(&local);
    }
    for (int i = 0; i < n; i++) {
        MPI_Errhandler got;
        MPI_Comm_get_errhandler(made[i], &got);
        calls = 0;
        int x = 0, flag;
        MPI_Comm_test_inter(made[i], &flag);
        int bad = 1000;
        int rc = MPI_Send(&x, 1, MPI_INT, bad, 0, made[i]);
        CHECK(rc != MPI_SUCCESS, "communicator %d: a send to rank %d succeeded", i, bad);
        expect_call(MPI_ERR_RANK, made[i], "inherited handler");
        MPI_Errhandler_free(&got);
    }
    for (int i = 0; i < n; i++)
        MPI_Comm_free(&made[i]);
    MPI_Comm_free(&d);
}

static void test_bad_input(void)
{
    MPI_Group w, ng;
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    int bad[2] = {0, size + 3};
    expect_message(MPI_Group_incl(w, 2, bad, &ng), MPI_ERR_RANK, "MPI_Group_incl", "ranks");
    int dup[2] = {0, 0};
    if (size >= 1)
        expect_message(MPI_Group_incl(w, 2, dup, &ng), MPI_ERR_RANK, "MPI_Group_incl", "more than once");
    expect_message(MPI_Group_excl(w, 2, bad, &ng), MPI_ERR_RANK, "MPI_Group_excl", "ranks");
    MPI_Group_free(&w);
    MPI_Comm c;
    expect_message(MPI_Comm_split(MPI_COMM_WORLD, -3, 0, &c), MPI_ERR_ARG, "MPI_Comm_split", "color");
    expect_message(MPI_Comm_dup(MPI_COMM_NULL, &c), MPI_ERR_COMM, "MPI_Comm_dup", "comm");
    int dims[2] = {size + 1, 1}, per[2] = {0, 0};
    expect_message(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &c), MPI_ERR_DIMS, "MPI_Cart_create", "dims");
    int d7[2] = {0, 3};
    expect_message(MPI_Dims_create(7, 2, d7), MPI_ERR_DIMS, "MPI_Dims_create", "dims");
    expect_message(MPI_Intercomm_create(MPI_COMM_WORLD, size, MPI_COMM_WORLD, 0, 0, &c), MPI_ERR_RANK,
                   "MPI_Intercomm_create", "local_leader");
    int kv;
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &kv, NULL);
    expect_message(MPI_Comm_set_attr(MPI_COMM_WORLD, kv, NULL), MPI_ERR_KEYVAL, "MPI_Comm_set_attr", "keyval");
    MPI_Type_free_keyval(&kv);
    /* through the handler of the communicator the call was made on */
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(handler, &eh);
    MPI_Comm_set_errhandler(d, eh);
    calls = 0;
    MPI_Comm_split(d, -3, 0, &c);
    expect_call(MPI_ERR_ARG, d, "split with a bad color");
    MPI_Comm_create(d, MPI_GROUP_NULL, &c);
    expect_call(MPI_ERR_GROUP, d, "create with MPI_GROUP_NULL");
    MPI_Cart_create(d, 2, dims, per, 0, &c);
    expect_call(MPI_ERR_DIMS, d, "cart_create with too many points");
    int coords[2];
    MPI_Cart_coords(d, 0, 2, coords);
    expect_call(MPI_ERR_TOPOLOGY, d, "cart_coords without a topology");
    /* calls without a communicator: MPI_COMM_WORLD's handler */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Dims_create(6, -1, coords);
    expect_call(MPI_ERR_DIMS, MPI_COMM_WORLD, "dims_create with negative ndims");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    MPI_Comm_free(&d);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    test_user_classes();
    test_inheritance();
    test_bad_input();
    if (rank == 0)
        printf("comm_errors: ok on %d ranks\n", size);
    MPI_Finalize();
    return 0;
}
