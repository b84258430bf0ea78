/*
 * rt_errors.c: error classes, codes and strings; user-defined classes,
 * codes and strings; error handlers on communicators (create, set, get,
 * call, free, the deprecated forms) and MPI_ERRORS_RETURN.
 */
#include "testutil.h"

static int handler_calls;
static int handler_last_code;

static void my_handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_calls++;
    handler_last_code = *code;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    /* every class has a distinct string */
    char s1[MPI_MAX_ERROR_STRING], s2[MPI_MAX_ERROR_STRING];
    int len;
    for (int c = 0; c <= MPI_ERR_RMA_FLAVOR; c++) {
        CHECK_OK(MPI_Error_string(c, s1, &len));
        CHECK(len > 0 && len == (int)strlen(s1), "class %d string", c);
        int cls;
        CHECK_OK(MPI_Error_class(c, &cls));
        CHECK(cls == c, "class of class %d is %d", c, cls);
        for (int d = 0; d < c; d++) {
            MPI_Error_string(d, s2, &len);
            CHECK(strcmp(s1, s2) != 0, "classes %d and %d share '%s'", c, d, s1);
        }
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /* an error returns a code with the right class and a message naming the call */
    int dummy;
    int rc = MPI_Comm_size(MPI_COMM_NULL, &dummy);
    int cls;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COMM, "class %d", cls);
    MPI_Error_string(rc, s1, &len);
    CHECK(strstr(s1, "MPI_Comm_size") && strstr(s1, "comm"), "message '%s'", s1);
    CHECK_ERR(MPI_Error_class(123456, &cls), MPI_ERR_ARG);

    /* user classes and codes */
    int lastused, *lu, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &lu, &flag);
    lastused = *lu;
    int myclass, mycode, mycode2;
    CHECK_OK(MPI_Add_error_class(&myclass));
    CHECK(myclass > MPI_ERR_LASTCODE && myclass > lastused - 1, "class %d", myclass);
    CHECK_OK(MPI_Add_error_code(myclass, &mycode));
    CHECK_OK(MPI_Add_error_code(MPI_ERR_ARG, &mycode2));
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &lu, &flag);
    CHECK(*lu >= mycode2 && *lu >= mycode, "MPI_LASTUSEDCODE %d", *lu);
    CHECK_OK(MPI_Add_error_string(myclass, "my class"));
    CHECK_OK(MPI_Add_error_string(mycode, "my code"));
    MPI_Error_string(mycode, s1, &len);
    CHECK(strcmp(s1, "my code") == 0, "'%s'", s1);
    MPI_Error_string(myclass, s1, &len);
    CHECK(strcmp(s1, "my class") == 0, "'%s'", s1);
    MPI_Error_class(mycode, &cls);
    CHECK(cls == myclass, "class of user code %d", cls);
    MPI_Error_class(mycode2, &cls);
    CHECK(cls == MPI_ERR_ARG, "class of user code on MPI_ERR_ARG %d", cls);
    CHECK_ERR(MPI_Add_error_string(MPI_ERR_ARG, "no"), MPI_ERR_ARG);
    CHECK_ERR(MPI_Add_error_code(999999, &mycode), MPI_ERR_ARG);

    /* user error handlers */
    MPI_Errhandler eh, got;
    CHECK_OK(MPI_Comm_create_errhandler(my_handler, &eh));
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh));
    CHECK_OK(MPI_Comm_get_errhandler(MPI_COMM_SELF, &got));
    CHECK(got == eh, "get returned another handler");
    CHECK_OK(MPI_Errhandler_free(&got));
    CHECK_OK(MPI_Comm_call_errhandler(MPI_COMM_SELF, mycode));
    CHECK(handler_calls == 1 && handler_last_code == mycode, "calls %d code %d", handler_calls,
          handler_last_code);
    CHECK_OK(MPI_Errhandler_free(&eh));
    CHECK(eh == MPI_ERRHANDLER_NULL, "free did not null the handle");
    /* still attached to MPI_COMM_SELF: it keeps working */
    int dummy2;
    MPI_Comm_get_attr(MPI_COMM_SELF, 12345, &dummy2, &flag);
    CHECK(handler_calls == 2, "handler not called on a bad keyval (%d)", handler_calls);
    CHECK_OK(MPI_Errhandler_set(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_OK(MPI_Errhandler_get(MPI_COMM_SELF, &got));
    CHECK(got == MPI_ERRORS_RETURN, "deprecated get");
    CHECK_OK(MPI_Errhandler_free(&got));
    MPI_Errhandler old;
    CHECK_OK(MPI_Errhandler_create(my_handler, &old));
    CHECK_OK(MPI_Errhandler_free(&old));
    CHECK_ERR(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL), MPI_ERR_ARG);
    MPI_Finalize();
    return 0;
}
