/*
 * test_cmdline.c: mpiexec's command line, MPMD contexts and bad input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "argv.h"
#include "cmdline.h"

static const char *fake_timeout; /* MPIEXEC_TIMEOUT in the fake environment */

static const char *fake_env(const char *name)
{
    if (strcmp(name, "MPIEXEC_TIMEOUT") == 0)
        return fake_timeout;
    return strcmp(name, "HOME") == 0 ? "/home/me" : NULL;
}

static int parse(struct mpiexec_opts *o, char *err, const char *line)
{
    char **words = tide_argv_split(line, ' ');
    int rc = mpiexec_parse((int)tide_argv_count(words), words, o, err, 512, fake_env);
    tide_argv_free(words);
    return rc;
}

static void test_simple(void **state)
{
    (void)state;
    struct mpiexec_opts o;
    char err[512];
    assert_int_equal(parse(&o, err, "mpiexec -n 4 ./a.out x y"), 0);
    assert_int_equal(o.napps, 1);
    assert_int_equal(o.apps[0].np, 4);
    assert_string_equal(o.apps[0].exe, "./a.out");
    assert_int_equal(tide_argv_count(o.apps[0].argv), 3);
    assert_string_equal(o.apps[0].argv[2], "y");
    mpiexec_opts_free(&o);
    /* options after the program belong to the program */
    assert_int_equal(parse(&o, err, "mpiexec -np 2 prog -n 7 --tag-output"), 0);
    assert_int_equal(o.apps[0].np, 2);
    assert_false(o.tag_output);
    assert_string_equal(o.apps[0].argv[1], "-n");
    mpiexec_opts_free(&o);
    assert_int_equal(parse(&o, err, "mpiexec prog"), 0);
    assert_int_equal(o.apps[0].np, 1);
    mpiexec_opts_free(&o);
}

static void test_mpmd(void **state)
{
    (void)state;
    struct mpiexec_opts o;
    char err[512];
    assert_int_equal(parse(&o, err, "mpiexec -n 2 --wdir /tmp ./a : -c 3 -env K V ./b arg : ./c"), 0);
    assert_int_equal(o.napps, 3);
    assert_int_equal(o.apps[0].np, 2);
    assert_string_equal(o.apps[0].wdir, "/tmp");
    assert_int_equal(o.apps[1].np, 3);
    assert_null(o.apps[1].wdir);
    assert_string_equal(tide_env_get(o.apps[1].env, "K"), "V");
    assert_null(tide_env_get(o.apps[0].env, "K"));
    assert_int_equal(o.apps[2].np, 1);
    assert_string_equal(o.apps[1].argv[1], "arg");
    mpiexec_opts_free(&o);
}

static void test_env_options(void **state)
{
    (void)state;
    struct mpiexec_opts o;
    char err[512];
    assert_int_equal(parse(&o, err, "mpiexec -x FOO=bar -x HOME --env=Z=1 -genv G g -n 1 p"), 0);
    assert_string_equal(tide_env_get(o.global_env, "FOO"), "bar");
    assert_string_equal(tide_env_get(o.global_env, "HOME"), "/home/me");
    assert_string_equal(tide_env_get(o.global_env, "G"), "g");
    assert_string_equal(tide_env_get(o.apps[0].env, "Z"), "1");
    mpiexec_opts_free(&o);
    assert_int_equal(parse(&o, err, "mpiexec -x NOT_SET p"), -1);
    assert_non_null(strstr(err, "NOT_SET"));
    mpiexec_opts_free(&o);
}

static void test_globals(void **state)
{
    (void)state;
    struct mpiexec_opts o;
    char err[512];
    assert_int_equal(parse(&o, err, "mpiexec --timeout 5 --tag-output --no-oversubscribe "
                                    "--param verbose=2 --universe-size 9 -v -v p"),
                     0);
    assert_int_equal(o.timeout, 5);
    assert_true(o.tag_output);
    assert_int_equal(o.oversubscribe, 0);
    assert_string_equal(o.params[0], "verbose=2");
    assert_int_equal(o.universe_size, 9);
    assert_int_equal(o.verbose, 2);
    mpiexec_opts_free(&o);
    assert_int_equal(parse(&o, err, "mpiexec --timeout=3 --oversubscribe p"), 0);
    assert_int_equal(o.timeout, 3);
    assert_int_equal(o.oversubscribe, 1);
    mpiexec_opts_free(&o);
    /* MPIEXEC_TIMEOUT when --timeout is not given */
    fake_timeout = "7";
    assert_int_equal(parse(&o, err, "mpiexec p"), 0);
    assert_int_equal(o.timeout, 7);
    mpiexec_opts_free(&o);
    assert_int_equal(parse(&o, err, "mpiexec --timeout 2 p"), 0);
    assert_int_equal(o.timeout, 2);
    mpiexec_opts_free(&o);
    fake_timeout = "0";
    assert_int_equal(parse(&o, err, "mpiexec p"), 0);
    assert_int_equal(o.timeout, 0);
    mpiexec_opts_free(&o);
    fake_timeout = "soon";
    assert_int_equal(parse(&o, err, "mpiexec p"), -1);
    assert_non_null(strstr(err, "MPIEXEC_TIMEOUT"));
    mpiexec_opts_free(&o);
    fake_timeout = NULL;
    assert_int_equal(parse(&o, err, "mpiexec --help"), 0);
    assert_true(o.help);
    mpiexec_opts_free(&o);
    assert_int_equal(parse(&o, err, "mpiexec --version"), 0);
    assert_true(o.version);
    mpiexec_opts_free(&o);
}

static void expect_error(const char *line, const char *fragment)
{
    struct mpiexec_opts o;
    char err[512] = "";
    assert_int_equal(parse(&o, err, line), -1);
    if (!strstr(err, fragment))
        fail_msg("'%s': error '%s' lacks '%s'", line, err, fragment);
    mpiexec_opts_free(&o);
}

static void test_bad_input(void **state)
{
    (void)state;
    expect_error("mpiexec -n 0 p", "at least 1");
    expect_error("mpiexec -n -3 p", "at least 1");
    expect_error("mpiexec -n x p", "not a number");
    expect_error("mpiexec -n", "needs a value");
    expect_error("mpiexec --bogus p", "unknown option '--bogus'");
    expect_error("mpiexec", "no program");
    expect_error("mpiexec -n 2 a :", "followed by a program");
    expect_error("mpiexec : b", "must follow a program");
    expect_error("mpiexec --timeout 0 p", "positive");
    expect_error("mpiexec --param novalue p", "NAME=VALUE");
    expect_error("mpiexec -n 99999999999 p", "not a number");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_simple),
        cmocka_unit_test(test_mpmd),
        cmocka_unit_test(test_env_options),
        cmocka_unit_test(test_globals),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
