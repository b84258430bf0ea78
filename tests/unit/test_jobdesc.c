/*
 * test_jobdesc.c: job descriptions survive encoding, and inconsistent or
 * truncated ones are rejected with a reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "argv.h"
#include "jobdesc.h"

static void sample(struct tide_job *j)
{
    memset(j, 0, sizeof *j);
    j->jobid = 3;
    j->nspace = strdup("tide.test.3");
    j->nprocs = 5;
    j->universe_size = 8;
    j->napps = 2;
    j->apps = calloc(2, sizeof *j->apps);
    char *a0[] = {"./a", "x", NULL}, *a1[] = {"./b", NULL}, *e[] = {"A=1", NULL}, *none[] = {NULL};
    j->apps[0] = (struct tide_app){2, 0, strdup("/bin/a"), tide_argv_copy(a0), tide_argv_copy(e), strdup("/tmp")};
    j->apps[1] = (struct tide_app){3, 2, strdup("/bin/b"), tide_argv_copy(a1), tide_argv_copy(none), NULL};
    j->nnodes = 2;
    char *hosts[] = {"n0", "n1", NULL};
    j->hosts = tide_argv_copy(hosts);
    j->node_slots = calloc(2, sizeof(int));
    j->node_slots[0] = j->node_slots[1] = 4;
    j->rank_node = calloc(5, sizeof(int));
    j->rank_node[4] = 1;
    j->parent_rank = -1;
    j->params = tide_argv_copy(none);
}

static void encode(struct tide_job *j, struct tide_wbuf *w)
{
    tide_wire_begin(w, 2);
    tide_job_encode(j, w);
    tide_wire_finish(w);
}

static void test_roundtrip(void **state)
{
    (void)state;
    struct tide_job j, d;
    sample(&j);
    struct tide_wbuf w;
    encode(&j, &w);
    struct tide_rbuf r;
    tide_wire_reader(&r, w.data + TIDE_WIRE_HEADER, w.len - TIDE_WIRE_HEADER);
    char err[256];
    assert_int_equal(tide_job_decode(&r, &d, err, sizeof err), 0);
    assert_string_equal(d.nspace, "tide.test.3");
    assert_int_equal(d.nprocs, 5);
    assert_int_equal(d.napps, 2);
    assert_string_equal(d.apps[0].wdir, "/tmp");
    assert_null(d.apps[1].wdir);
    assert_string_equal(d.apps[0].env[0], "A=1");
    assert_int_equal(d.rank_node[4], 1);
    assert_int_equal(tide_job_app_of(&d, 3), 1);
    assert_null(d.parent_nspace);
    tide_job_free(&d);
    tide_job_free(&j);
    tide_wire_free(&w);
}

static int decode_of(struct tide_job *j, char *err)
{
    struct tide_wbuf w;
    encode(j, &w);
    struct tide_rbuf r;
    tide_wire_reader(&r, w.data + TIDE_WIRE_HEADER, w.len - TIDE_WIRE_HEADER);
    struct tide_job d;
    int rc = tide_job_decode(&r, &d, err, 256);
    if (rc == 0)
        tide_job_free(&d);
    tide_wire_free(&w);
    return rc;
}

static void test_inconsistent(void **state)
{
    (void)state;
    char err[256];
    struct tide_job j;
    sample(&j);
    j.apps[1].first_rank = 1; /* overlaps app 0 */
    assert_int_equal(decode_of(&j, err), -1);
    assert_non_null(strstr(err, "inconsistent"));
    tide_job_free(&j);
    sample(&j);
    j.rank_node[2] = 7; /* no such node */
    assert_int_equal(decode_of(&j, err), -1);
    tide_job_free(&j);
    sample(&j);
    j.nprocs = 6; /* apps cover 5 */
    j.rank_node = realloc(j.rank_node, 6 * sizeof(int));
    j.rank_node[5] = 0;
    assert_int_equal(decode_of(&j, err), -1);
    tide_job_free(&j);
}

static void test_truncated(void **state)
{
    (void)state;
    struct tide_job j;
    sample(&j);
    struct tide_wbuf w;
    encode(&j, &w);
    size_t plen = w.len - TIDE_WIRE_HEADER;
    for (size_t cut = 0; cut < plen; cut++) {
        struct tide_rbuf r;
        tide_wire_reader(&r, w.data + TIDE_WIRE_HEADER, cut);
        struct tide_job d;
        char err[256];
        assert_int_equal(tide_job_decode(&r, &d, err, sizeof err), -1);
    }
    /* trailing garbage is rejected too */
    uint8_t *longer = malloc(plen + 1);
    memcpy(longer, w.data + TIDE_WIRE_HEADER, plen);
    longer[plen] = 0;
    struct tide_rbuf r;
    tide_wire_reader(&r, longer, plen + 1);
    struct tide_job d;
    char err[256];
    assert_int_equal(tide_job_decode(&r, &d, err, sizeof err), -1);
    free(longer);
    tide_wire_free(&w);
    tide_job_free(&j);
}

/* A short payload claiming a million ranks and app contexts is refused
 * before the decoder allocates for them (48 MB of app contexts and 4 MB
 * of rank map for 30 bytes of input, found by fuzz_jobdesc). */
static void test_counts_beyond_payload(void **state)
{
    (void)state;
    struct tide_wbuf w;
    tide_wire_begin(&w, 2);
    tide_wire_put_u32(&w, 0);
    tide_wire_put_str(&w, "tide.big");
    tide_wire_put_u32(&w, 1u << 20); /* nprocs */
    tide_wire_put_u32(&w, 0);
    tide_wire_put_u32(&w, 0);
    tide_wire_put_u32(&w, 1u << 20); /* napps */
    tide_wire_put_u32(&w, 0);
    tide_wire_finish(&w);
    struct tide_rbuf r;
    tide_wire_reader(&r, w.data + TIDE_WIRE_HEADER, w.len - TIDE_WIRE_HEADER);
    struct tide_job d;
    char err[256] = "";
    assert_int_equal(tide_job_decode(&r, &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "do not fit"));
    assert_null(d.apps);
    tide_wire_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_inconsistent),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_counts_beyond_payload),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
