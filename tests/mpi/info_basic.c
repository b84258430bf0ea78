/*
 * info_basic.c: the info object through the MPI interface: create, set,
 * get (valuelen truncation), get_valuelen, get_nkeys, get_nthkey (order
 * of first setting), delete, dup, free; the key and value limits and
 * every error class through MPI_ERRORS_RETURN, with messages naming the
 * function.
 */
#include "testutil.h"

static void expect(int rc, int cls, const char *fn)
{
    int c = -1;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &c);
    CHECK(c == cls, "%s: error class %d, expected %d", fn, c, cls);
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    CHECK_OK(MPI_Error_string(rc, s, &len));
    CHECK(strstr(s, fn) != NULL, "message '%s' does not name %s", s, fn);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    MPI_Info info, dup;
    CHECK_OK(MPI_Info_create(&info));
    char mine[32];
    snprintf(mine, sizeof mine, "rank-%d", rank);
    CHECK_OK(MPI_Info_set(info, "b_first", "1"));
    CHECK_OK(MPI_Info_set(info, "a_second", mine));
    CHECK_OK(MPI_Info_set(info, "c_third", "three"));
    CHECK_OK(MPI_Info_set(info, "b_first", "one")); /* keeps its place */
    int n = -1;
    CHECK_OK(MPI_Info_get_nkeys(info, &n));
    CHECK(n == 3, "nkeys %d", n);
    const char *order[3] = {"b_first", "a_second", "c_third"};
    for (int i = 0; i < 3; i++) {
        char key[MPI_MAX_INFO_KEY + 1];
        CHECK_OK(MPI_Info_get_nthkey(info, i, key));
        CHECK(strcmp(key, order[i]) == 0, "key %d is '%s'", i, key);
    }
    char v[MPI_MAX_INFO_VAL + 1];
    int flag = 0, len = 0;
    CHECK_OK(MPI_Info_get(info, "b_first", MPI_MAX_INFO_VAL, v, &flag));
    CHECK(flag && strcmp(v, "one") == 0, "b_first = '%s'", v);
    CHECK_OK(MPI_Info_get_valuelen(info, "a_second", &len, &flag));
    CHECK(flag && len == (int)strlen(mine), "valuelen %d", len);
    CHECK_OK(MPI_Info_get(info, "a_second", 4, v, &flag));
    CHECK(flag && strcmp(v, "rank") == 0, "truncated to '%s'", v);
    CHECK_OK(MPI_Info_get(info, "missing", MPI_MAX_INFO_VAL, v, &flag));
    CHECK(!flag, "missing key found");
    CHECK_OK(MPI_Info_get_valuelen(info, "missing", &len, &flag));
    CHECK(!flag, "missing key has a length");

    CHECK_OK(MPI_Info_dup(info, &dup));
    CHECK_OK(MPI_Info_delete(info, "b_first"));
    CHECK_OK(MPI_Info_get_nkeys(info, &n));
    CHECK(n == 2, "nkeys after delete %d", n);
    CHECK_OK(MPI_Info_get_nkeys(dup, &n));
    CHECK(n == 3, "the dup lost a key: %d", n);
    CHECK_OK(MPI_Info_get(dup, "a_second", MPI_MAX_INFO_VAL, v, &flag));
    CHECK(flag && strcmp(v, mine) == 0, "dup a_second = '%s'", v);

    /* limits and error classes */
    static char longkey[MPI_MAX_INFO_KEY + 2], longval[MPI_MAX_INFO_VAL + 2];
    memset(longkey, 'k', MPI_MAX_INFO_KEY);
    memset(longval, 'v', MPI_MAX_INFO_VAL);
    CHECK_OK(MPI_Info_set(info, longkey, longval)); /* exactly the limits */
    longkey[MPI_MAX_INFO_KEY] = 'k';
    longval[MPI_MAX_INFO_VAL] = 'v';
    expect(MPI_Info_set(info, longkey, "x"), MPI_ERR_INFO_KEY, "MPI_Info_set");
    expect(MPI_Info_set(info, "k", longval), MPI_ERR_INFO_VALUE, "MPI_Info_set");
    expect(MPI_Info_get(info, longkey, 10, v, &flag), MPI_ERR_INFO_KEY, "MPI_Info_get");
    expect(MPI_Info_set(info, "", "x"), MPI_ERR_INFO_KEY, "MPI_Info_set");
    expect(MPI_Info_delete(info, "no-such-key"), MPI_ERR_INFO_NOKEY, "MPI_Info_delete");
    expect(MPI_Info_get(info, "a_second", -1, v, &flag), MPI_ERR_ARG, "MPI_Info_get");
    expect(MPI_Info_get_nthkey(info, 99, v), MPI_ERR_ARG, "MPI_Info_get_nthkey");
    expect(MPI_Info_get_nthkey(info, -1, v), MPI_ERR_ARG, "MPI_Info_get_nthkey");
    expect(MPI_Info_get_nkeys(MPI_INFO_NULL, &n), MPI_ERR_INFO, "MPI_Info_get_nkeys");
    expect(MPI_Info_set(MPI_INFO_NULL, "a", "b"), MPI_ERR_INFO, "MPI_Info_set");
    expect(MPI_Info_get(MPI_INFO_NULL, "a", 1, v, &flag), MPI_ERR_INFO, "MPI_Info_get");
    expect(MPI_Info_get_valuelen(MPI_INFO_NULL, "a", &len, &flag), MPI_ERR_INFO, "MPI_Info_get_valuelen");
    expect(MPI_Info_delete(MPI_INFO_NULL, "a"), MPI_ERR_INFO, "MPI_Info_delete");
    expect(MPI_Info_dup(MPI_INFO_NULL, &dup), MPI_ERR_INFO, "MPI_Info_dup");
    MPI_Info null = MPI_INFO_NULL;
    expect(MPI_Info_free(&null), MPI_ERR_INFO, "MPI_Info_free");
    expect(MPI_Info_create(NULL), MPI_ERR_ARG, "MPI_Info_create");

    CHECK_OK(MPI_Info_free(&info));
    CHECK(info == MPI_INFO_NULL, "MPI_Info_free left the handle");
    CHECK_OK(MPI_Info_free(&dup));
    MPI_Info env = MPI_INFO_ENV;
    expect(MPI_Info_free(&env), MPI_ERR_INFO, "MPI_Info_free");
    if (rank == 0)
        printf("info_basic: ok\n");
    MPI_Finalize();
    return 0;
}
