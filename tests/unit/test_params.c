/*
 * test_params.c: the parameter table, config-file parsing, environment
 * and command-line precedence, sizes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "argv.h"
#include "params.h"

static void test_defaults(void **state)
{
    (void)state;
    tide_config_reset();
    assert_int_equal(tide_config_int("shm_eager_limit"), 16384);
    assert_int_equal(tide_config_int("shm_eager_limit_coll"), 16384);
    assert_int_equal(tide_config_source("shm_eager_limit"), TIDE_SRC_DEFAULT);
    assert_true(tide_config_known("verbose"));
    assert_false(tide_config_known("no_such_thing"));
}

static void test_file(void **state)
{
    (void)state;
    tide_config_reset();
    char err[256];
    const char *text = "# comment\n\n  verbose = 2  # trailing\nSHM_EAGER_LIMIT=4k\nbogus = 1\n";
    assert_int_equal(tide_config_parse_text(text, "t.conf", err, sizeof err), 0);
    assert_non_null(strstr(err, "unknown parameter 'bogus'"));
    assert_int_equal(tide_config_int("verbose"), 2);
    assert_int_equal(tide_config_int("shm_eager_limit"), 4096);
    assert_int_equal(tide_config_source("verbose"), TIDE_SRC_FILE);
    assert_string_equal(tide_config_origin("verbose"), "t.conf:3");
    assert_int_equal(tide_config_parse_text("novalue\n", "b.conf", err, sizeof err), -1);
    assert_non_null(strstr(err, "b.conf:1"));
}

static void test_precedence(void **state)
{
    (void)state;
    tide_config_reset();
    char path[] = "/tmp/tide-test-conf-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text = "verbose = 1\ntcp_eager_limit = 1000\n";
    assert_int_equal(write(fd, text, strlen(text)), (int)strlen(text));
    close(fd);
    setenv("TIDE_VERBOSE", "3", 1);
    unsetenv("TIDE_CONF");
    char err[256];
    assert_int_equal(tide_config_load(path, err, sizeof err), 0);
    assert_int_equal(tide_config_int("verbose"), 3);
    assert_int_equal(tide_config_source("verbose"), TIDE_SRC_ENV);
    assert_int_equal(tide_config_int("tcp_eager_limit"), 1000);
    assert_int_equal(tide_config_set("verbose", "4", TIDE_SRC_CMDLINE), 0);
    assert_int_equal(tide_config_int("verbose"), 4);
    assert_int_equal(tide_config_set("nope", "4", TIDE_SRC_CMDLINE), -1);
    char **env = NULL;
    tide_config_export(&env);
    assert_string_equal(tide_env_get(env, "TIDE_VERBOSE"), "4");
    assert_string_equal(tide_env_get(env, "TIDE_TCP_EAGER_LIMIT"), "1000");
    assert_null(tide_env_get(env, "TIDE_SHM_EAGER_LIMIT"));
    tide_argv_free(env);
    unsetenv("TIDE_VERBOSE");
    unlink(path);
    FILE *devnull = fopen("/dev/null", "w");
    tide_config_show(devnull);
    fclose(devnull);
}

static void test_sizes(void **state)
{
    (void)state;
    assert_int_equal(tide_parse_size("12"), 12);
    assert_int_equal(tide_parse_size("4k"), 4096);
    assert_int_equal(tide_parse_size("2M"), 2 * 1024 * 1024);
    assert_int_equal(tide_parse_size("1g"), 1024LL * 1024 * 1024);
    assert_int_equal(tide_parse_size("3KB"), 3072);
    assert_int_equal(tide_parse_size("x"), -1);
    assert_int_equal(tide_parse_size("5q"), -1);
    assert_int_equal(tide_parse_size(""), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_file),
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
