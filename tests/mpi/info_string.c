/*
 * info_string.c: MPI_Info_get_string (MPI-4.0 section 10: buflen in and
 * out, the value cut to buflen - 1 characters and a NUL, buflen 0 asks
 * the length only) and MPI_Info_create_env before MPI_Init (the keys of
 * MPI_INFO_ENV from the given arguments); the environment's keys agree
 * before MPI_Init, between MPI_Init and MPI_Finalize and after it (as
 * MPICH's infocreateenv checks). Usage: info_string NPROCS [ARGS...]
 */
#include "testutil.h"

#include <unistd.h>

static void check_string(MPI_Info info, const char *key, const char *want)
{
    int need = (int)strlen(want) + 1, flag = 0, buflen = 0;
    char buf[MPI_MAX_INFO_VAL + 2];
    /* buflen 0: the length only, value untouched (may be NULL) */
    CHECK_OK(MPI_Info_get_string(info, key, &buflen, NULL, &flag));
    CHECK(flag == 1 && buflen == need, "%s: buflen 0 gave flag %d buflen %d, expected %d", key, flag, buflen, need);
    /* too short by one: buflen - 1 characters */
    memset(buf, 'Z', sizeof buf);
    buflen = need - 1;
    CHECK_OK(MPI_Info_get_string(info, key, &buflen, buf, &flag));
    CHECK(buflen == need, "%s: short buffer gave buflen %d, expected %d", key, buflen, need);
    CHECK(strlen(buf) == (size_t)need - 2 && strncmp(buf, want, (size_t)need - 2) == 0,
          "%s: short buffer holds '%s'", key, buf);
    /* one character */
    buflen = 1;
    memset(buf, 'Z', sizeof buf);
    CHECK_OK(MPI_Info_get_string(info, key, &buflen, buf, &flag));
    CHECK(buf[0] == '\0' && buf[1] == 'Z' && buflen == need, "%s: buflen 1 gave '%s', buflen %d", key, buf, buflen);
    /* exactly enough, and more than enough */
    for (int extra = 0; extra < 2; extra++) {
        buflen = need + extra;
        memset(buf, 'Z', sizeof buf);
        CHECK_OK(MPI_Info_get_string(info, key, &buflen, buf, &flag));
        CHECK(flag == 1 && buflen == need && strcmp(buf, want) == 0, "%s: full buffer gave '%s' buflen %d", key, buf,
              buflen);
    }
}

static const char *const env_keys[] = {"command", "argv", "maxprocs", "soft", "host", "arch", "wdir", "file",
                                       "thread_level"};

/* a and b have the same environment keys with the same values */
static void check_same_env(MPI_Info a, MPI_Info b, const char *when)
{
    for (size_t i = 0; i < sizeof env_keys / sizeof env_keys[0]; i++) {
        char va[MPI_MAX_INFO_VAL + 1] = "", vb[MPI_MAX_INFO_VAL + 1] = "";
        int fa = 0, fb = 0, la = sizeof va, lb = sizeof vb;
        CHECK_OK(MPI_Info_get_string(a, env_keys[i], &la, va, &fa));
        CHECK_OK(MPI_Info_get_string(b, env_keys[i], &lb, vb, &fb));
        CHECK(fa == fb && (!fa || strcmp(va, vb) == 0), "%s: key %s: '%s' (%d) before MPI_Init, '%s' (%d) %s",
              when, env_keys[i], va, fa, vb, fb, when);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: info_string NPROCS [ARGS...]\n");
        return 2;
    }
    char cwd[4096];
    CHECK(getcwd(cwd, sizeof cwd) != NULL, "getcwd");

    /* before MPI_Init */
    MPI_Info env;
    CHECK_OK(MPI_Info_create_env(argc, argv, &env));
    char v[MPI_MAX_INFO_VAL + 1];
    int flag = 0, buflen;
    buflen = sizeof v;
    CHECK_OK(MPI_Info_get_string(env, "command", &buflen, v, &flag));
    CHECK(flag && strcmp(v, argv[0]) == 0, "command '%s', expected '%s'", v, argv[0]);
    char args[MPI_MAX_INFO_VAL + 1] = "";
    for (int i = 1; i < argc; i++) {
        if (i > 1)
            strcat(args, " ");
        strcat(args, argv[i]);
    }
    buflen = sizeof v;
    CHECK_OK(MPI_Info_get_string(env, "argv", &buflen, v, &flag));
    CHECK(flag && strcmp(v, args) == 0, "argv '%s', expected '%s'", v, args);
    buflen = sizeof v;
    CHECK_OK(MPI_Info_get_string(env, "maxprocs", &buflen, v, &flag));
    CHECK(flag && strcmp(v, argv[1]) == 0, "maxprocs '%s', expected %s", v, argv[1]);
    buflen = sizeof v;
    CHECK_OK(MPI_Info_get_string(env, "wdir", &buflen, v, &flag));
    CHECK(flag && strcmp(v, cwd) == 0, "wdir '%s', expected '%s'", v, cwd);
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    buflen = sizeof v;
    CHECK_OK(MPI_Info_get_string(env, "host", &buflen, v, &flag));
    CHECK(flag && v[0], "no host");
    buflen = sizeof v;
    CHECK_OK(MPI_Info_get_string(env, "arch", &buflen, v, &flag));
    CHECK(flag && v[0], "no arch");
    check_string(env, "command", argv[0]);
    /* no arguments: the process's own command line */
    MPI_Info own;
    CHECK_OK(MPI_Info_create_env(0, NULL, &own));
    buflen = sizeof v;
    CHECK_OK(MPI_Info_get_string(own, "command", &buflen, v, &flag));
    CHECK(flag && strstr(v, "info_string") != NULL, "command of create_env(0, NULL) '%s'", v);
    CHECK_OK(MPI_Info_free(&own));

    MPI_Info first;
    CHECK_OK(MPI_Info_create_env(argc, argv, &first));

    MPI_Init(&argc, &argv);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    /* the object made before MPI_Init is still good */
    check_string(env, "wdir", cwd);
    CHECK_OK(MPI_Info_free(&env));
    CHECK_OK(MPI_Info_create_env(argc, argv, &env));
    buflen = sizeof v;
    CHECK_OK(MPI_Info_get_string(env, "thread_level", &buflen, v, &flag));
    CHECK(flag && strcmp(v, "MPI_THREAD_SINGLE") == 0, "thread_level '%s'", v);
    check_same_env(first, env, "after MPI_Init");
    CHECK_OK(MPI_Info_free(&env));

    MPI_Info info;
    CHECK_OK(MPI_Info_create(&info));
    CHECK_OK(MPI_Info_set(info, "k", "abcdefgh"));
    CHECK_OK(MPI_Info_set(info, "empty", ""));
    check_string(info, "k", "abcdefgh");
    buflen = 0;
    CHECK_OK(MPI_Info_get_string(info, "empty", &buflen, NULL, &flag));
    CHECK(flag && buflen == 1, "empty value: flag %d buflen %d", flag, buflen);
    buflen = 5;
    strcpy(v, "keep");
    CHECK_OK(MPI_Info_get_string(info, "absent", &buflen, v, &flag));
    CHECK(flag == 0 && buflen == 5 && strcmp(v, "keep") == 0, "absent key: flag %d buflen %d '%s'", flag, buflen, v);
    char big[MPI_MAX_INFO_VAL + 1];
    memset(big, 'x', MPI_MAX_INFO_VAL);
    big[MPI_MAX_INFO_VAL] = '\0';
    CHECK_OK(MPI_Info_set(info, "big", big));
    check_string(info, "big", big);
    buflen = -1;
    CHECK_ERR(MPI_Info_get_string(info, "k", &buflen, v, &flag), MPI_ERR_ARG);
    buflen = 4;
    CHECK_ERR(MPI_Info_get_string(MPI_INFO_NULL, "k", &buflen, v, &flag), MPI_ERR_INFO);
    CHECK_ERR(MPI_Info_get_string(info, "", &buflen, v, &flag), MPI_ERR_INFO_KEY);
    CHECK_OK(MPI_Info_free(&info));
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Finalize();
    CHECK_OK(MPI_Info_create_env(argc, argv, &env));
    check_same_env(first, env, "after MPI_Finalize");
    CHECK_OK(MPI_Info_free(&env));
    CHECK_OK(MPI_Info_free(&first));
    if (rank == 0)
        printf("info_string: ok\n");
    return 0;
}
