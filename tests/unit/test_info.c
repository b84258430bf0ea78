/*
 * test_info.c: info objects: every MPI_Info function, the key and value
 * limits and their error classes, the order of keys, valuelen semantics,
 * MPI_INFO_NULL and invalid handles, MPI_INFO_ENV, and the internal
 * interface other parts use (lookup, bool hints, private copies).
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
#include "runtime/info.h"
#include "runtime/proc.h"
#include "comm/comm.h"

static int setup(void **state)
{
    (void)state;
    tide_errhandler_init();
    snprintf(tide.nspace, sizeof tide.nspace, "unit-info");
    snprintf(tide.hostname, sizeof tide.hostname, "unithost");
    tide.rank = 0;
    tide.size = 1;
    tide.me = tide_proc_get(tide.nspace, 0);
    if (tide_comm_init_predefined() != 0)
        return -1;
    tide_comm_world->errhandler = MPI_ERRORS_RETURN;
    tide.initialized = 1;
    tide.thread_level = MPI_THREAD_FUNNELED;
    return tide_info_init();
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

static void nth(MPI_Info info, int n, const char *expect)
{
    char key[MPI_MAX_INFO_KEY + 1];
    assert_int_equal(PMPI_Info_get_nthkey(info, n, key), MPI_SUCCESS);
    assert_string_equal(key, expect);
}

static void test_set_get(void **state)
{
    (void)state;
    MPI_Info info;
    assert_int_equal(PMPI_Info_create(&info), MPI_SUCCESS);
    assert_int_not_equal(info, MPI_INFO_NULL);
    assert_int_not_equal(info, MPI_INFO_ENV);
    int n = -1;
    assert_int_equal(PMPI_Info_get_nkeys(info, &n), MPI_SUCCESS);
    assert_int_equal(n, 0);
    assert_int_equal(PMPI_Info_set(info, "host", "node1"), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_set(info, "wdir", "/tmp"), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_set(info, "Host", "case matters"), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_get_nkeys(info, &n), MPI_SUCCESS);
    assert_int_equal(n, 3);
    char v[64];
    int flag = -1;
    assert_int_equal(PMPI_Info_get(info, "host", sizeof v - 1, v, &flag), MPI_SUCCESS);
    assert_int_equal(flag, 1);
    assert_string_equal(v, "node1");
    assert_int_equal(PMPI_Info_get(info, "Host", sizeof v - 1, v, &flag), MPI_SUCCESS);
    assert_string_equal(v, "case matters");
    /* absent key: flag 0, value untouched */
    strcpy(v, "untouched");
    assert_int_equal(PMPI_Info_get(info, "nope", sizeof v - 1, v, &flag), MPI_SUCCESS);
    assert_int_equal(flag, 0);
    assert_string_equal(v, "untouched");
    /* setting again replaces the value */
    assert_int_equal(PMPI_Info_set(info, "host", "node2"), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_get(info, "host", sizeof v - 1, v, &flag), MPI_SUCCESS);
    assert_string_equal(v, "node2");
    assert_int_equal(PMPI_Info_get_nkeys(info, &n), MPI_SUCCESS);
    assert_int_equal(n, 3);
    /* empty values are values */
    assert_int_equal(PMPI_Info_set(info, "empty", ""), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_get(info, "empty", sizeof v - 1, v, &flag), MPI_SUCCESS);
    assert_int_equal(flag, 1);
    assert_string_equal(v, "");
    assert_int_equal(PMPI_Info_free(&info), MPI_SUCCESS);
    assert_int_equal(info, MPI_INFO_NULL);
}

static void test_valuelen(void **state)
{
    (void)state;
    MPI_Info info;
    assert_int_equal(PMPI_Info_create(&info), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_set(info, "k", "abcdef"), MPI_SUCCESS);
    int len = -1, flag = -1;
    assert_int_equal(PMPI_Info_get_valuelen(info, "k", &len, &flag), MPI_SUCCESS);
    assert_int_equal(flag, 1);
    assert_int_equal(len, 6); /* without the NUL */
    flag = -1;
    assert_int_equal(PMPI_Info_get_valuelen(info, "other", &len, &flag), MPI_SUCCESS);
    assert_int_equal(flag, 0);
    /* MPI_Info_get: at most valuelen characters plus a NUL */
    char v[16];
    memset(v, 'X', sizeof v);
    assert_int_equal(PMPI_Info_get(info, "k", 3, v, &flag), MPI_SUCCESS);
    assert_int_equal(flag, 1);
    assert_string_equal(v, "abc");
    assert_int_equal(v[4], 'X'); /* nothing written past the NUL */
    memset(v, 'X', sizeof v);
    assert_int_equal(PMPI_Info_get(info, "k", 0, v, &flag), MPI_SUCCESS);
    assert_int_equal(flag, 1);
    assert_int_equal(v[0], '\0');
    assert_int_equal(v[1], 'X');
    memset(v, 'X', sizeof v);
    assert_int_equal(PMPI_Info_get(info, "k", 6, v, &flag), MPI_SUCCESS);
    assert_string_equal(v, "abcdef");
    assert_int_equal(v[7], 'X');
    assert_int_equal(PMPI_Info_get(info, "k", 15, v, &flag), MPI_SUCCESS);
    assert_string_equal(v, "abcdef");
    assert_int_equal(PMPI_Info_free(&info), MPI_SUCCESS);
}

static void test_key_order(void **state)
{
    (void)state;
    MPI_Info info;
    assert_int_equal(PMPI_Info_create(&info), MPI_SUCCESS);
    const char *keys[] = {"zeta", "alpha", "mid", "beta"};
    for (int i = 0; i < 4; i++)
        assert_int_equal(PMPI_Info_set(info, keys[i], "v"), MPI_SUCCESS);
    for (int i = 0; i < 4; i++)
        nth(info, i, keys[i]);
    /* re-setting a key keeps its place */
    assert_int_equal(PMPI_Info_set(info, "alpha", "again"), MPI_SUCCESS);
    nth(info, 1, "alpha");
    /* deleting closes the gap; setting it again puts it last */
    assert_int_equal(PMPI_Info_delete(info, "alpha"), MPI_SUCCESS);
    nth(info, 0, "zeta");
    nth(info, 1, "mid");
    nth(info, 2, "beta");
    assert_int_equal(PMPI_Info_set(info, "alpha", "back"), MPI_SUCCESS);
    nth(info, 3, "alpha");
    int n;
    assert_int_equal(PMPI_Info_get_nkeys(info, &n), MPI_SUCCESS);
    assert_int_equal(n, 4);
    char key[MPI_MAX_INFO_KEY + 1];
    assert_int_equal(err_class(PMPI_Info_get_nthkey(info, 4, key)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Info_get_nthkey(info, -1, key)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Info_get_nthkey(info, 0, NULL)), MPI_ERR_ARG);
    /* many keys */
    for (int i = 0; i < 500; i++) {
        char k[32];
        snprintf(k, sizeof k, "key%d", i);
        assert_int_equal(PMPI_Info_set(info, k, k), MPI_SUCCESS);
    }
    assert_int_equal(PMPI_Info_get_nkeys(info, &n), MPI_SUCCESS);
    assert_int_equal(n, 504);
    nth(info, 4, "key0");
    nth(info, 503, "key499");
    assert_int_equal(PMPI_Info_free(&info), MPI_SUCCESS);
}

static void test_delete(void **state)
{
    (void)state;
    MPI_Info info;
    assert_int_equal(PMPI_Info_create(&info), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_set(info, "a", "1"), MPI_SUCCESS);
    int rc = PMPI_Info_delete(info, "b");
    assert_error_names(rc, MPI_ERR_INFO_NOKEY, "MPI_Info_delete");
    assert_int_equal(PMPI_Info_delete(info, "a"), MPI_SUCCESS);
    assert_int_equal(err_class(PMPI_Info_delete(info, "a")), MPI_ERR_INFO_NOKEY);
    int n;
    assert_int_equal(PMPI_Info_get_nkeys(info, &n), MPI_SUCCESS);
    assert_int_equal(n, 0);
    assert_int_equal(PMPI_Info_free(&info), MPI_SUCCESS);
}

static void test_limits(void **state)
{
    (void)state;
    MPI_Info info;
    assert_int_equal(PMPI_Info_create(&info), MPI_SUCCESS);
    char key[MPI_MAX_INFO_KEY + 2], val[MPI_MAX_INFO_VAL + 2];
    memset(key, 'k', sizeof key);
    memset(val, 'v', sizeof val);
    /* the longest key and value are fine */
    key[MPI_MAX_INFO_KEY] = '\0';
    val[MPI_MAX_INFO_VAL] = '\0';
    assert_int_equal(PMPI_Info_set(info, key, val), MPI_SUCCESS);
    int len, flag;
    assert_int_equal(PMPI_Info_get_valuelen(info, key, &len, &flag), MPI_SUCCESS);
    assert_int_equal(len, MPI_MAX_INFO_VAL);
    char *out = malloc(MPI_MAX_INFO_VAL + 1);
    assert_non_null(out);
    assert_int_equal(PMPI_Info_get(info, key, MPI_MAX_INFO_VAL, out, &flag), MPI_SUCCESS);
    assert_int_equal(strlen(out), MPI_MAX_INFO_VAL);
    free(out);
    char nk[MPI_MAX_INFO_KEY + 1];
    assert_int_equal(PMPI_Info_get_nthkey(info, 0, nk), MPI_SUCCESS);
    assert_int_equal(strlen(nk), MPI_MAX_INFO_KEY);
    /* one more is too long */
    key[MPI_MAX_INFO_KEY] = 'k';
    key[MPI_MAX_INFO_KEY + 1] = '\0';
    int rc = PMPI_Info_set(info, key, "x");
    assert_error_names(rc, MPI_ERR_INFO_KEY, "MPI_MAX_INFO_KEY");
    assert_error_names(rc, MPI_ERR_INFO_KEY, "MPI_Info_set");
    assert_int_equal(err_class(PMPI_Info_get(info, key, 10, nk, &flag)), MPI_ERR_INFO_KEY);
    assert_int_equal(err_class(PMPI_Info_get_valuelen(info, key, &len, &flag)), MPI_ERR_INFO_KEY);
    assert_int_equal(err_class(PMPI_Info_delete(info, key)), MPI_ERR_INFO_KEY);
    val[MPI_MAX_INFO_VAL] = 'v';
    val[MPI_MAX_INFO_VAL + 1] = '\0';
    rc = PMPI_Info_set(info, "ok", val);
    assert_error_names(rc, MPI_ERR_INFO_VALUE, "MPI_MAX_INFO_VAL");
    /* the empty key is not a key */
    assert_int_equal(err_class(PMPI_Info_set(info, "", "x")), MPI_ERR_INFO_KEY);
    assert_int_equal(err_class(PMPI_Info_get(info, "", 10, nk, &flag)), MPI_ERR_INFO_KEY);
    /* NULL pointers and a negative valuelen */
    assert_int_equal(err_class(PMPI_Info_set(info, NULL, "x")), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Info_set(info, "x", NULL)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Info_get(info, "ok", -1, nk, &flag)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Info_get(info, "ok", 10, NULL, &flag)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Info_get(info, "ok", 10, nk, NULL)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Info_get_valuelen(info, "ok", NULL, &flag)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Info_get_valuelen(info, "ok", &len, NULL)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Info_get_nkeys(info, NULL)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Info_dup(info, NULL)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Info_create(NULL)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Info_free(NULL)), MPI_ERR_ARG);
    /* failed calls changed nothing */
    int n;
    assert_int_equal(PMPI_Info_get_nkeys(info, &n), MPI_SUCCESS);
    assert_int_equal(n, 1);
    assert_int_equal(PMPI_Info_free(&info), MPI_SUCCESS);
}

static void test_null_and_invalid_handles(void **state)
{
    (void)state;
    const MPI_Info bad[] = {MPI_INFO_NULL, MPI_COMM_WORLD, TIDE_HANDLE(TIDE_KIND_INFO, 12345)};
    for (int b = 0; b < 3; b++) {
        MPI_Info h = bad[b], out;
        char v[16];
        int flag, n;
        int rc = PMPI_Info_set(h, "a", "b");
        assert_error_names(rc, MPI_ERR_INFO, "MPI_Info_set");
        if (b == 0)
            assert_error_names(rc, MPI_ERR_INFO, "MPI_INFO_NULL");
        assert_int_equal(err_class(PMPI_Info_get(h, "a", 10, v, &flag)), MPI_ERR_INFO);
        assert_int_equal(err_class(PMPI_Info_get_valuelen(h, "a", &n, &flag)), MPI_ERR_INFO);
        assert_int_equal(err_class(PMPI_Info_get_nkeys(h, &n)), MPI_ERR_INFO);
        assert_int_equal(err_class(PMPI_Info_get_nthkey(h, 0, v)), MPI_ERR_INFO);
        assert_int_equal(err_class(PMPI_Info_delete(h, "a")), MPI_ERR_INFO);
        assert_int_equal(err_class(PMPI_Info_dup(h, &out)), MPI_ERR_INFO);
        assert_int_equal(err_class(PMPI_Info_free(&h)), MPI_ERR_INFO);
    }
    /* a freed handle is invalid */
    MPI_Info info, saved;
    assert_int_equal(PMPI_Info_create(&info), MPI_SUCCESS);
    saved = info;
    assert_int_equal(PMPI_Info_free(&info), MPI_SUCCESS);
    int n;
    assert_int_equal(err_class(PMPI_Info_get_nkeys(saved, &n)), MPI_ERR_INFO);
    assert_int_equal(err_class(PMPI_Info_free(&saved)), MPI_ERR_INFO);
}

static void test_dup(void **state)
{
    (void)state;
    MPI_Info a, b;
    assert_int_equal(PMPI_Info_create(&a), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_set(a, "second", "2"), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_set(a, "first", "1"), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_dup(a, &b), MPI_SUCCESS);
    assert_int_not_equal(a, b);
    nth(b, 0, "second");
    nth(b, 1, "first");
    /* independent copies */
    assert_int_equal(PMPI_Info_set(a, "second", "changed"), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_delete(a, "first"), MPI_SUCCESS);
    char v[16];
    int flag, n;
    assert_int_equal(PMPI_Info_get(b, "second", 15, v, &flag), MPI_SUCCESS);
    assert_string_equal(v, "2");
    assert_int_equal(PMPI_Info_get_nkeys(b, &n), MPI_SUCCESS);
    assert_int_equal(n, 2);
    assert_int_equal(PMPI_Info_free(&a), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_get(b, "first", 15, v, &flag), MPI_SUCCESS);
    assert_string_equal(v, "1");
    /* an empty one */
    MPI_Info e, e2;
    assert_int_equal(PMPI_Info_create(&e), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_dup(e, &e2), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_get_nkeys(e2, &n), MPI_SUCCESS);
    assert_int_equal(n, 0);
    assert_int_equal(PMPI_Info_free(&e), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_free(&e2), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_free(&b), MPI_SUCCESS);
}

static void test_info_env(void **state)
{
    (void)state;
    int n = 0, flag = 0;
    assert_int_equal(PMPI_Info_get_nkeys(MPI_INFO_ENV, &n), MPI_SUCCESS);
    assert_true(n >= 4);
    char v[MPI_MAX_INFO_VAL + 1];
    assert_int_equal(PMPI_Info_get(MPI_INFO_ENV, "command", MPI_MAX_INFO_VAL, v, &flag), MPI_SUCCESS);
    assert_int_equal(flag, 1);
    assert_non_null(strstr(v, "test_info"));
    assert_int_equal(PMPI_Info_get(MPI_INFO_ENV, "maxprocs", MPI_MAX_INFO_VAL, v, &flag), MPI_SUCCESS);
    assert_int_equal(flag, 1);
    assert_string_equal(v, "1");
    assert_int_equal(PMPI_Info_get(MPI_INFO_ENV, "host", MPI_MAX_INFO_VAL, v, &flag), MPI_SUCCESS);
    assert_string_equal(v, "unithost");
    assert_int_equal(PMPI_Info_get(MPI_INFO_ENV, "thread_level", MPI_MAX_INFO_VAL, v, &flag), MPI_SUCCESS);
    assert_int_equal(flag, 1);
    assert_string_equal(v, "MPI_THREAD_FUNNELED");
    assert_int_equal(PMPI_Info_get(MPI_INFO_ENV, "arch", MPI_MAX_INFO_VAL, v, &flag), MPI_SUCCESS);
    assert_int_equal(flag, 1);
    assert_int_equal(PMPI_Info_get(MPI_INFO_ENV, "wdir", MPI_MAX_INFO_VAL, v, &flag), MPI_SUCCESS);
    assert_int_equal(flag, 1);
    assert_int_equal(v[0], '/');
    /* MPI 4.0: the initial error handler, the default here */
    assert_int_equal(PMPI_Info_get(MPI_INFO_ENV, "mpi_initial_errhandler", MPI_MAX_INFO_VAL, v, &flag),
                     MPI_SUCCESS);
    assert_int_equal(flag, 1);
    assert_string_equal(v, "mpi_errors_are_fatal");
    /* every listed key is one of the standard's (MPI 4.0 section 11.2.2) */
    const char *known[] = {"command", "argv", "maxprocs", "soft", "host", "arch", "wdir", "file",
                           "thread_level", "mpi_initial_errhandler"};
    for (int i = 0; i < n; i++) {
        char k[MPI_MAX_INFO_KEY + 1];
        assert_int_equal(PMPI_Info_get_nthkey(MPI_INFO_ENV, i, k), MPI_SUCCESS);
        int ok = 0;
        for (size_t j = 0; j < sizeof known / sizeof known[0]; j++)
            ok |= strcmp(k, known[j]) == 0;
        if (!ok)
            fail_msg("MPI_INFO_ENV has key '%s'", k);
    }
    /* predefined: not freed, not changed; a dup is an ordinary object */
    MPI_Info env = MPI_INFO_ENV;
    int rc = PMPI_Info_free(&env);
    assert_error_names(rc, MPI_ERR_INFO, "MPI_INFO_ENV");
    assert_int_equal(env, MPI_INFO_ENV);
    assert_int_equal(err_class(PMPI_Info_set(MPI_INFO_ENV, "x", "y")), MPI_ERR_INFO);
    assert_int_equal(err_class(PMPI_Info_delete(MPI_INFO_ENV, "command")), MPI_ERR_INFO);
    MPI_Info copy;
    assert_int_equal(PMPI_Info_dup(MPI_INFO_ENV, &copy), MPI_SUCCESS);
    int n2;
    assert_int_equal(PMPI_Info_get_nkeys(copy, &n2), MPI_SUCCESS);
    assert_int_equal(n2, n);
    assert_int_equal(PMPI_Info_set(copy, "x", "y"), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_delete(copy, "command"), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_free(&copy), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_get_nkeys(MPI_INFO_ENV, &n2), MPI_SUCCESS);
    assert_int_equal(n2, n);
}

static void test_internal_interface(void **state)
{
    (void)state;
    assert_null(tide_info_get(MPI_INFO_NULL));
    assert_null(tide_info_lookup(NULL, "x"));
    assert_true(tide_info_lookup_bool(NULL, "x", true));
    MPI_Info h;
    assert_int_equal(PMPI_Info_create(&h), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_set(h, "wdir", "/work"), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_set(h, "on", "TRUE"), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_set(h, "off", "false"), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_set(h, "junk", "maybe"), MPI_SUCCESS);
    struct tide_info *i = tide_info_get(h);
    assert_non_null(i);
    assert_string_equal(tide_info_lookup(i, "wdir"), "/work");
    assert_null(tide_info_lookup(i, "host"));
    assert_true(tide_info_lookup_bool(i, "on", false));
    assert_false(tide_info_lookup_bool(i, "off", true));
    assert_true(tide_info_lookup_bool(i, "junk", true));
    assert_false(tide_info_lookup_bool(i, "absent", false));
    assert_string_equal(tide_info_nth_key(i, 0), "wdir");
    assert_string_equal(tide_info_nth_value(i, 0), "/work");
    assert_null(tide_info_nth_key(i, 4));
    /* a private copy survives the user's MPI_Info_free */
    MPI_Info priv;
    assert_int_equal(tide_info_dup_internal(i, &priv), MPI_SUCCESS);
    assert_int_equal(PMPI_Info_free(&h), MPI_SUCCESS);
    struct tide_info *p = tide_info_get(priv);
    assert_non_null(p);
    assert_string_equal(tide_info_lookup(p, "wdir"), "/work");
    assert_int_equal(tide_info_set_internal(p, "wdir", "/elsewhere"), MPI_SUCCESS);
    assert_string_equal(tide_info_lookup(p, "wdir"), "/elsewhere");
    assert_int_equal(tide_info_set_internal(p, "", "x"), MPI_ERR_INFO_KEY);
    assert_int_equal(tide_info_set_internal(tide_info_get(MPI_INFO_ENV), "a", "b"), MPI_ERR_INFO);
    tide_info_free_internal(&priv);
    assert_int_equal(priv, MPI_INFO_NULL);
    /* empty copy of nothing: what MPI_Comm_get_info returns without hints */
    MPI_Info empty;
    assert_int_equal(tide_info_dup_internal(NULL, &empty), MPI_SUCCESS);
    int n;
    assert_int_equal(PMPI_Info_get_nkeys(empty, &n), MPI_SUCCESS);
    assert_int_equal(n, 0);
    assert_int_equal(PMPI_Info_free(&empty), MPI_SUCCESS);
    MPI_Info env = MPI_INFO_ENV;
    tide_info_free_internal(&env); /* never frees the predefined one */
    assert_non_null(tide_info_get(MPI_INFO_ENV));
}

static int teardown(void **state)
{
    (void)state;
    tide_info_finalize();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_get),
        cmocka_unit_test(test_valuelen),
        cmocka_unit_test(test_key_order),
        cmocka_unit_test(test_delete),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_null_and_invalid_handles),
        cmocka_unit_test(test_dup),
        cmocka_unit_test(test_info_env),
        cmocka_unit_test(test_internal_interface),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
