/*
 * test_alloc.c: the allocation: --host lists, hostfiles (formats and
 * errors), Slurm's node lists and tasks per node, the choice of source,
 * and recognising this machine's names.
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

#include "alloc.h"
#include "argv.h"

static char tmpdir[] = "/tmp/tide-test-alloc-XXXXXX";

static const char *write_file(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void test_hostlist(void **state)
{
    (void)state;
    struct tide_alloc a;
    char err[512];
    assert_int_equal(tide_alloc_parse_hostlist("h1:4,h2:2", 8, &a, err, sizeof err), 0);
    assert_int_equal(a.nnodes, 2);
    assert_string_equal(a.hosts[0], "h1");
    assert_string_equal(a.hosts[1], "h2");
    assert_null(a.hosts[2]);
    assert_int_equal(a.slots[0], 4);
    assert_int_equal(a.slots[1], 2);
    assert_int_equal(tide_alloc_slots(&a), 6);
    assert_int_equal(a.source, TIDE_ALLOC_HOSTS);
    tide_alloc_free(&a);
    /* each mention of a host without a count is one slot */
    assert_int_equal(tide_alloc_parse_hostlist("h1,h1,h2,h1", 8, &a, err, sizeof err), 0);
    assert_int_equal(a.nnodes, 2);
    assert_int_equal(a.slots[0], 3);
    assert_int_equal(a.slots[1], 1);
    tide_alloc_free(&a);
    /* a repeated host with counts: the slots add */
    assert_int_equal(tide_alloc_parse_hostlist("a:2,b,a:3", 8, &a, err, sizeof err), 0);
    assert_int_equal(a.nnodes, 2);
    assert_int_equal(a.slots[0], 5);
    tide_alloc_free(&a);
    assert_int_equal(tide_alloc_parse_hostlist("localhost:3", 8, &a, err, sizeof err), 0);
    assert_true(a.local[0]);
    tide_alloc_free(&a);
}

static void test_hostlist_errors(void **state)
{
    (void)state;
    struct tide_alloc a;
    char err[512];
    assert_int_equal(tide_alloc_parse_hostlist("h1:0", 8, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "h1:0"));
    assert_int_equal(tide_alloc_parse_hostlist("h1:x", 8, &a, err, sizeof err), -1);
    assert_int_equal(tide_alloc_parse_hostlist("h1,,h2", 8, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "empty host name"));
    assert_int_equal(tide_alloc_parse_hostlist("", 8, &a, err, sizeof err), -1);
    assert_int_equal(tide_alloc_parse_hostlist("bad name", 8, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "bad host name"));
}

static void test_hostfile_formats(void **state)
{
    (void)state;
    struct tide_alloc a;
    char err[512];
    const char *p = write_file("hf1", "# a cluster\n"
                                      "\n"
                                      "  n1 slots=4   # the first\n"
                                      "n2 slots=2 max_slots=8\n"
                                      "n3:3\n"
                                      "\tn4\t\n"
                                      "n1 slots=2\n");
    assert_int_equal(tide_alloc_parse_hostfile(p, 16, &a, err, sizeof err), 0);
    assert_int_equal(a.source, TIDE_ALLOC_HOSTFILE);
    assert_int_equal(a.nnodes, 4);
    assert_string_equal(a.hosts[0], "n1");
    assert_int_equal(a.slots[0], 6); /* listed twice: slots add */
    assert_string_equal(a.hosts[1], "n2");
    assert_int_equal(a.slots[1], 2);
    assert_int_equal(a.max_slots[1], 8);
    assert_int_equal(a.max_slots[0], 0); /* no limit */
    assert_string_equal(a.hosts[2], "n3");
    assert_int_equal(a.slots[2], 3);
    assert_string_equal(a.hosts[3], "n4");
    assert_int_equal(a.slots[3], 16); /* no count: the default (cores) */
    assert_false(a.slots_given);
    tide_alloc_free(&a);
    p = write_file("hf2", "localhost slots=2\n");
    assert_int_equal(tide_alloc_parse_hostfile(p, 16, &a, err, sizeof err), 0);
    assert_true(a.slots_given);
    assert_true(a.local[0]);
    assert_int_equal(tide_alloc_slots(&a), 2);
    tide_alloc_free(&a);
}

static void test_hostfile_errors(void **state)
{
    (void)state;
    struct tide_alloc a;
    char err[512];
    const char *p = write_file("bad1", "n1 slots=2\n\nn2 slots=zero\n");
    assert_int_equal(tide_alloc_parse_hostfile(p, 4, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "bad1 line 3"));
    assert_non_null(strstr(err, "slots='zero'"));
    p = write_file("bad2", "n1 cores=2\n");
    assert_int_equal(tide_alloc_parse_hostfile(p, 4, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "line 1: unknown keyword 'cores'"));
    p = write_file("bad3", "n1 slots=4 max_slots=2\n");
    assert_int_equal(tide_alloc_parse_hostfile(p, 4, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "more than max_slots=2"));
    p = write_file("bad4", "n1 extra\n");
    assert_int_equal(tide_alloc_parse_hostfile(p, 4, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "line 1: unexpected 'extra'"));
    p = write_file("bad5", "n1:0\n");
    assert_int_equal(tide_alloc_parse_hostfile(p, 4, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "line 1"));
    p = write_file("bad6", "n1 max_slots=-1\n");
    assert_int_equal(tide_alloc_parse_hostfile(p, 4, &a, err, sizeof err), -1);
    p = write_file("empty", "# nothing here\n\n   \n");
    assert_int_equal(tide_alloc_parse_hostfile(p, 4, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "no hosts"));
    char missing[600];
    snprintf(missing, sizeof missing, "%s/no-such-file", tmpdir);
    assert_int_equal(tide_alloc_parse_hostfile(missing, 4, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "no-such-file"));
    assert_non_null(strstr(err, "No such file"));
}

static void expect_names(const char *list, const char *const *want, int n)
{
    char **names = NULL;
    char err[512];
    int got = tide_slurm_expand_nodelist(list, &names, err, sizeof err);
    if (got != n)
        fail_msg("%s: %d names (%s), expected %d", list, got, got < 0 ? err : "", n);
    for (int i = 0; i < n; i++)
        assert_string_equal(names[i], want[i]);
    assert_null(names[n]);
    tide_argv_free(names);
}

static void test_slurm_nodelist(void **state)
{
    (void)state;
    const char *const a[] = {"n01", "n02", "n03", "n04", "n07"};
    expect_names("n[01-04,07]", a, 5);
    const char *const b[] = {"a1", "b2", "b3"};
    expect_names("a1,b[2-3]", b, 3);
    const char *const c[] = {"rack1-n1", "rack1-n2", "rack2-n1", "rack2-n2"};
    expect_names("rack[1-2]-n[1-2]", c, 4);
    const char *const d[] = {"single"};
    expect_names("single", d, 1);
    const char *const e[] = {"x8", "x9", "x10", "gpu003", "gpu010", "login"};
    expect_names("x[8-10],gpu[003,010],login", e, 6);
    const char *const f[] = {"n1-ib", "n2-ib"};
    expect_names("n[1-2]-ib", f, 2);
    char **names;
    char err[512];
    assert_int_equal(tide_slurm_expand_nodelist("n[1-", &names, err, sizeof err), -1);
    assert_int_equal(tide_slurm_expand_nodelist("n[3-1]", &names, err, sizeof err), -1);
    assert_non_null(strstr(err, "backwards"));
    assert_int_equal(tide_slurm_expand_nodelist("n[a-b]", &names, err, sizeof err), -1);
    assert_int_equal(tide_slurm_expand_nodelist("n]1", &names, err, sizeof err), -1);
    assert_int_equal(tide_slurm_expand_nodelist("", &names, err, sizeof err), -1);
    assert_int_equal(tide_slurm_expand_nodelist("n[1-99999999]", &names, err, sizeof err), -1);
}

static void test_slurm_tasks(void **state)
{
    (void)state;
    int c[8];
    char err[512];
    assert_int_equal(tide_slurm_expand_tasks("2(x3),1", 4, c, err, sizeof err), 0);
    assert_int_equal(c[0], 2);
    assert_int_equal(c[2], 2);
    assert_int_equal(c[3], 1);
    assert_int_equal(tide_slurm_expand_tasks("16", 1, c, err, sizeof err), 0);
    assert_int_equal(c[0], 16);
    assert_int_equal(tide_slurm_expand_tasks("2(x3),1", 3, c, err, sizeof err), -1);
    assert_int_equal(tide_slurm_expand_tasks("2(x3)", 5, c, err, sizeof err), -1);
    assert_non_null(strstr(err, "describes 3 nodes"));
    assert_int_equal(tide_slurm_expand_tasks("2(3)", 3, c, err, sizeof err), -1);
    assert_int_equal(tide_slurm_expand_tasks("x", 1, c, err, sizeof err), -1);
    assert_int_equal(tide_slurm_expand_tasks("0", 1, c, err, sizeof err), -1);
}

/* a fake environment for tide_alloc_build */
static const char *fake[16][2];

static const char *fake_env(const char *name)
{
    for (int i = 0; fake[i][0]; i++)
        if (strcmp(fake[i][0], name) == 0)
            return fake[i][1];
    return NULL;
}

static void test_build_sources(void **state)
{
    (void)state;
    struct tide_alloc a;
    char err[512];
    memset(fake, 0, sizeof fake);
    /* nothing: this node, default slots */
    assert_int_equal(tide_alloc_build(NULL, NULL, fake_env, 6, &a, err, sizeof err), 0);
    assert_int_equal(a.source, TIDE_ALLOC_LOCAL);
    assert_int_equal(a.nnodes, 1);
    assert_int_equal(a.slots[0], 6);
    assert_true(a.local[0]);
    tide_alloc_free(&a);
    /* Slurm */
    fake[0][0] = "SLURM_JOB_ID";
    fake[0][1] = "42";
    fake[1][0] = "SLURM_JOB_NODELIST";
    fake[1][1] = "c[1-3]";
    fake[2][0] = "SLURM_TASKS_PER_NODE";
    fake[2][1] = "4(x2),2";
    assert_int_equal(tide_alloc_build(NULL, NULL, fake_env, 6, &a, err, sizeof err), 0);
    assert_int_equal(a.source, TIDE_ALLOC_SLURM);
    assert_int_equal(a.nnodes, 3);
    assert_string_equal(a.hosts[2], "c3");
    assert_int_equal(a.slots[2], 2);
    assert_int_equal(tide_alloc_slots(&a), 10);
    tide_alloc_free(&a);
    /* --host wins over Slurm */
    assert_int_equal(tide_alloc_build("x:2", NULL, fake_env, 6, &a, err, sizeof err), 0);
    assert_int_equal(a.source, TIDE_ALLOC_HOSTS);
    tide_alloc_free(&a);
    /* a bad value names the variable */
    fake[2][1] = "4(x5)";
    assert_int_equal(tide_alloc_build(NULL, NULL, fake_env, 6, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "SLURM_TASKS_PER_NODE=4(x5)"));
    fake[1][1] = "c[1-";
    assert_int_equal(tide_alloc_build(NULL, NULL, fake_env, 6, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "SLURM_JOB_NODELIST=c[1-"));
    /* the older names, and the cpus fallback */
    memset(fake, 0, sizeof fake);
    fake[0][0] = "SLURM_JOBID";
    fake[0][1] = "7";
    fake[1][0] = "SLURM_NODELIST";
    fake[1][1] = "d1,d2";
    fake[2][0] = "SLURM_JOB_CPUS_PER_NODE";
    fake[2][1] = "8(x2)";
    assert_int_equal(tide_alloc_build(NULL, NULL, fake_env, 6, &a, err, sizeof err), 0);
    assert_int_equal(tide_alloc_slots(&a), 16);
    tide_alloc_free(&a);
    fake[1][0] = "UNRELATED";
    assert_int_equal(tide_alloc_build(NULL, NULL, fake_env, 6, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "SLURM_JOB_NODELIST"));
    memset(fake, 0, sizeof fake);
    assert_int_equal(tide_alloc_build("a", "/nonexistent/f", fake_env, 6, &a, err, sizeof err), -1);
    /* --host picks hosts of the hostfile */
    const char *p = write_file("hf-pick", "n1 slots=4\nn2 slots=3\nn3 slots=2\n");
    assert_int_equal(tide_alloc_build("n3,n1:2", p, fake_env, 6, &a, err, sizeof err), 0);
    assert_int_equal(a.nnodes, 2);
    assert_string_equal(a.hosts[0], "n3");
    assert_int_equal(a.slots[0], 2);
    assert_string_equal(a.hosts[1], "n1");
    assert_int_equal(a.slots[1], 2);
    tide_alloc_free(&a);
    assert_int_equal(tide_alloc_build("n4", p, fake_env, 6, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "--host n4: not in hostfile"));
}

static void test_local_host(void **state)
{
    (void)state;
    char me[256] = "";
    gethostname(me, sizeof me - 1);
    assert_true(tide_alloc_is_local_host("localhost"));
    assert_true(tide_alloc_is_local_host("127.0.0.1"));
    assert_true(tide_alloc_is_local_host("127.0.0.2"));
    assert_true(tide_alloc_is_local_host(me));
    char shortname[256];
    snprintf(shortname, sizeof shortname, "%s", me);
    char *dot = strchr(shortname, '.');
    if (dot)
        *dot = '\0';
    assert_true(tide_alloc_is_local_host(shortname));
    char longer[300];
    snprintf(longer, sizeof longer, "%s.example.invalid", shortname);
    if (!dot)
        assert_true(tide_alloc_is_local_host(longer));
    assert_false(tide_alloc_is_local_host("no-such-host.example.invalid"));
    assert_false(tide_alloc_is_local_host("192.0.2.77"));
    assert_false(tide_alloc_is_local_host(""));
    assert_true(tide_alloc_local_sockets() >= 1);
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hostlist),        cmocka_unit_test(test_hostlist_errors),
        cmocka_unit_test(test_hostfile_formats), cmocka_unit_test(test_hostfile_errors),
        cmocka_unit_test(test_slurm_nodelist),  cmocka_unit_test(test_slurm_tasks),
        cmocka_unit_test(test_build_sources),   cmocka_unit_test(test_local_host),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
