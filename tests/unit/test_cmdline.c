/*
 * test_cmdline.c: mpiexec's command line, MPMD contexts, allocation and
 * mapping options, options accepted and ignored, and bad input.
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
    /* no -n: 0, one rank per slot of the allocation later */
    assert_int_equal(parse(&o, err, "mpiexec prog"), 0);
    assert_int_equal(o.apps[0].np, 0);
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
    assert_int_equal(o.apps[2].np, 0);
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
    expect_error("mpiexec --map-by diagonal p", "--map-by 'diagonal'");
    expect_error("mpiexec --map-by ppr:x:node p", "ppr:N:node");
    expect_error("mpiexec --rank-by fast p", "--rank-by 'fast'");
    expect_error("mpiexec -ppn 0 p", "-ppn");
    expect_error("mpiexec --npernode two p", "--npernode");
    expect_error("mpiexec --bind-to rack p", "--bind-to: 'rack'");
    expect_error("mpiexec --cpus-per-rank 0 p", "--cpus-per-rank");
    expect_error("mpiexec --map-by slot:PE=2 --cpus-per-rank 3 p", "disagree");
    expect_error("mpiexec -ppn 2 --map-by node p", "cannot be combined");
    expect_error("mpiexec --mca btl", "NAME and a VALUE");
    expect_error("mpiexec -launcher pigeon p", "'pigeon'");
    expect_error("mpiexec --launch-agent= p", "empty command");
}

static void test_mapping_options(void **state)
{
    (void)state;
    struct mpiexec_opts o;
    char err[512];
    assert_int_equal(parse(&o, err, "mpiexec --host a:2,b:2 --map-by node --rank-by slot "
                                    "--bind-to socket --report-bindings --display-map -n 4 p"),
                     0);
    assert_string_equal(o.hosts, "a:2,b:2");
    assert_string_equal(o.map_by, "node");
    assert_string_equal(o.rank_by, "slot");
    assert_string_equal(o.bind_to, "socket");
    assert_true(o.report_bindings);
    assert_true(o.display_map);
    assert_int_equal(o.apps[0].np, 4);
    mpiexec_opts_free(&o);
    assert_int_equal(parse(&o, err, "mpiexec -H h1 --machinefile hf -ppn 3 --cpus-per-proc 2 p"), 0);
    assert_string_equal(o.hosts, "h1");
    assert_string_equal(o.hostfile, "hf");
    assert_int_equal(o.npernode, 3);
    assert_int_equal(o.cpus_per_rank, 2);
    mpiexec_opts_free(&o);
    assert_int_equal(parse(&o, err, "mpiexec -npernode 2 -bind-to core p"), 0);
    assert_int_equal(o.npernode, 2);
    assert_string_equal(o.bind_to, "core");
    mpiexec_opts_free(&o);
    /* :PE=n is cpus per rank; modifiers set oversubscription */
    assert_int_equal(parse(&o, err, "mpiexec --map-by slot:PE=2:OVERSUBSCRIBE p"), 0);
    assert_int_equal(o.cpus_per_rank, 2);
    assert_int_equal(o.oversubscribe, 1);
    mpiexec_opts_free(&o);
    assert_int_equal(parse(&o, err, "mpiexec --map-by=ppr:2:node:NOOVERSUBSCRIBE --cpus-per-rank=1 p"), 0);
    assert_string_equal(o.map_by, "ppr:2:node:NOOVERSUBSCRIBE");
    assert_int_equal(o.oversubscribe, 0);
    mpiexec_opts_free(&o);
    assert_int_equal(parse(&o, err, "mpiexec --launch-agent /usr/bin/rsh p"), 0);
    assert_string_equal(o.launch_agent, "/usr/bin/rsh");
    mpiexec_opts_free(&o);
    assert_int_equal(parse(&o, err, "mpiexec -launcher-exec myssh p"), 0);
    assert_string_equal(o.launch_agent, "myssh");
    mpiexec_opts_free(&o);
    assert_int_equal(parse(&o, err, "mpiexec -launcher ssh p"), 0);
    assert_string_equal(o.launch_agent, "ssh");
    mpiexec_opts_free(&o);
}

static void test_ignored_options(void **state)
{
    (void)state;
    struct mpiexec_opts o;
    char err[512];
    assert_int_equal(parse(&o, err, "mpiexec --mca btl tcp -gmca a b --allow-run-as-root --prefix /opt/x "
                                    "-launcher fork -n 2 p --mca keep me"),
                     0);
    assert_int_equal(tide_argv_count(o.notices), 5);
    assert_string_equal(o.notices[0], "ignoring --mca btl tcp (not used by Tide)");
    assert_string_equal(o.notices[2], "ignoring --allow-run-as-root (not needed by Tide)");
    assert_non_null(strstr(o.notices[3], "--prefix /opt/x"));
    assert_null(o.launch_agent);
    assert_int_equal(o.apps[0].np, 2);
    /* the program's own arguments are left alone */
    assert_string_equal(o.apps[0].argv[1], "--mca");
    mpiexec_opts_free(&o);
}

/* recovery mode: Tide's and Open MPI's spellings */
static void test_recovery_options(void **state)
{
    (void)state;
    struct mpiexec_opts o;
    char err[512];
    assert_int_equal(parse(&o, err, "mpiexec -n 2 p"), 0);
    assert_int_equal(o.recovery, -1);
    mpiexec_opts_free(&o);
    static const char *const on[] = {"mpiexec --enable-recovery p", "mpiexec --with-ft ulfm p",
                                     "mpiexec --with-ft=ulfm p", "mpiexec --with-ft mpi p",
                                     "mpiexec --disable-recovery --enable-recovery p"};
    for (size_t i = 0; i < sizeof on / sizeof on[0]; i++) {
        assert_int_equal(parse(&o, err, on[i]), 0);
        assert_int_equal(o.recovery, 1);
        assert_string_equal(o.apps[0].exe, "p");
        mpiexec_opts_free(&o);
    }
    assert_int_equal(parse(&o, err, "mpiexec --enable-recovery --disable-recovery p"), 0);
    assert_int_equal(o.recovery, 0);
    mpiexec_opts_free(&o);
    assert_int_equal(parse(&o, err, "mpiexec --with-ft=none p"), 0);
    assert_int_equal(o.recovery, 0);
    mpiexec_opts_free(&o);
    expect_error("mpiexec --with-ft cr p", "'cr' is not ulfm");
    expect_error("mpiexec --with-ft", "needs a value");
}

/* MPI 4.0's mpi_initial_errhandler: --initial-errhandler NAME becomes the
 * parameter initial_errhandler, in the standard's spelling */
static void test_initial_errhandler(void **state)
{
    (void)state;
    struct mpiexec_opts o;
    char err[512];
    assert_int_equal(parse(&o, err, "mpiexec --initial-errhandler mpi_errors_return -n 2 p"), 0);
    assert_int_equal(tide_argv_count(o.params), 1);
    assert_string_equal(o.params[0], "initial_errhandler=mpi_errors_return");
    mpiexec_opts_free(&o);
    assert_int_equal(parse(&o, err, "mpiexec --initial-errhandler=MPI_ERRORS_ABORT p"), 0);
    assert_string_equal(o.params[0], "initial_errhandler=mpi_errors_abort");
    mpiexec_opts_free(&o);
    assert_int_equal(parse(&o, err, "mpiexec -initial-errhandler errors_are_fatal p"), 0);
    assert_string_equal(o.params[0], "initial_errhandler=mpi_errors_are_fatal");
    mpiexec_opts_free(&o);
    expect_error("mpiexec --initial-errhandler mpi_errors_ignore p",
                 "--initial-errhandler: 'mpi_errors_ignore' is not mpi_errors_are_fatal, mpi_errors_abort or "
                 "mpi_errors_return");
    expect_error("mpiexec --initial-errhandler= p", "is not mpi_errors_are_fatal");
    expect_error("mpiexec p --x : --initial-errhandler", "needs a value");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_simple),
        cmocka_unit_test(test_mpmd),
        cmocka_unit_test(test_env_options),
        cmocka_unit_test(test_globals),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_mapping_options),
        cmocka_unit_test(test_ignored_options),
        cmocka_unit_test(test_recovery_options),
        cmocka_unit_test(test_initial_errhandler),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
