/*
 * test_spawnreq.c: decoding of spawn requests and evaluation of 'soft'
 * info values (launcher/spawnreq.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "spawnreq.h"

static void test_soft_values(void **state)
{
    (void)state;
    assert_int_equal(spawn_soft_choose("4", 10), 4);
    assert_int_equal(spawn_soft_choose("1:4", 10), 4);
    assert_int_equal(spawn_soft_choose("1:4", 3), 3);
    assert_int_equal(spawn_soft_choose("0:16:4", 10), 8);
    assert_int_equal(spawn_soft_choose("2,4,8", 7), 4);
    assert_int_equal(spawn_soft_choose("1:4,8", 100), 8);
    assert_int_equal(spawn_soft_choose(" 1 : 4 ", 10), 4);
    assert_int_equal(spawn_soft_choose("5:9", 4), -1); /* none fits */
    assert_int_equal(spawn_soft_choose("9:5", 100), -1);
}

/* A stride that overflows an int: the answer is the range's first value
 * (the loop stepped v += c on a wrapped int and answered 2147483646). */
static void test_soft_stride_overflow(void **state)
{
    (void)state;
    assert_int_equal(spawn_soft_choose("1:2147483647:2147483647", 2147483647), 1);
    assert_int_equal(spawn_soft_choose("2147483647", 2147483647), 2147483647);
}

/* Malformed values are refused, not read as a number prefix. */
static void test_soft_malformed(void **state)
{
    (void)state;
    assert_int_equal(spawn_soft_choose("", 10), -1);
    assert_int_equal(spawn_soft_choose("4abc", 10), -1);
    assert_int_equal(spawn_soft_choose("-1:4", 10), -1);
    assert_int_equal(spawn_soft_choose("1:4:0", 10), -1);
    assert_int_equal(spawn_soft_choose("1,,2", 10), -1);
    assert_int_equal(spawn_soft_choose("1:", 10), -1);
    assert_int_equal(spawn_soft_choose("99999999999", 2000000000), -1);
}

static void put_app(struct tide_wbuf *w, const char *exe, uint32_t np, const char *soft)
{
    char *argv[] = {(char *)exe, NULL}, *env[] = {NULL};
    tide_wire_put_str(w, exe);
    tide_wire_put_strv(w, argv);
    tide_wire_put_strv(w, env);
    tide_wire_put_str(w, NULL);
    tide_wire_put_u32(w, np);
    tide_wire_put_str(w, NULL);
    tide_wire_put_str(w, NULL);
    tide_wire_put_str(w, soft);
    tide_wire_put_str(w, NULL); /* enable_recovery */
}

static void test_decode(void **state)
{
    (void)state;
    struct tide_wbuf w;
    tide_wire_begin(&w, 15);
    tide_wire_put_u32(&w, 77);
    tide_wire_put_str(&w, "tide.parent");
    tide_wire_put_u32(&w, 1);
    tide_wire_put_u32(&w, 2);
    put_app(&w, "./a", 2, NULL);
    put_app(&w, "./b", 3, "1:3");
    tide_wire_finish(&w);
    struct tide_rbuf r;
    tide_wire_reader(&r, w.data + TIDE_WIRE_HEADER, w.len - TIDE_WIRE_HEADER);
    struct spawn_request req;
    char err[256];
    assert_int_equal(spawn_request_decode(&r, &req, err, sizeof err), 0);
    assert_int_equal(req.reqid, 77);
    assert_string_equal(req.parent_nspace, "tide.parent");
    assert_int_equal(req.napps, 2);
    assert_int_equal(req.total, 5);
    assert_string_equal(req.specs[1].exe, "./b");
    assert_null(req.softs[0]);
    assert_string_equal(req.softs[1], "1:3");
    assert_null(req.recoveries[1]);
    spawn_request_free(&req);

    /* truncated: refused, with the request id kept for the answer */
    tide_wire_reader(&r, w.data + TIDE_WIRE_HEADER, w.len - TIDE_WIRE_HEADER - 1);
    assert_int_equal(spawn_request_decode(&r, &req, err, sizeof err), -1);
    assert_int_equal(req.reqid, 77);
    assert_string_equal(err, "malformed spawn request");
    spawn_request_free(&req);
    tide_wire_free(&w);
}

static void test_recovery_choice(void **state)
{
    (void)state;
    char *none[] = {NULL, NULL}, *on[] = {NULL, "true"}, *off[] = {"false", NULL}, *agree[] = {"true", "1"},
         *disagree[] = {"true", "false"}, *bad[] = {"yes", NULL};
    struct spawn_request req = {.napps = 2};
    char err[256];
    req.recoveries = none;
    assert_int_equal(spawn_recovery_choose(&req, err, sizeof err), -1);
    req.recoveries = on;
    assert_int_equal(spawn_recovery_choose(&req, err, sizeof err), 1);
    req.recoveries = off;
    assert_int_equal(spawn_recovery_choose(&req, err, sizeof err), 0);
    req.recoveries = agree;
    assert_int_equal(spawn_recovery_choose(&req, err, sizeof err), 1);
    req.recoveries = disagree;
    assert_int_equal(spawn_recovery_choose(&req, err, sizeof err), -2);
    assert_non_null(strstr(err, "disagree"));
    req.recoveries = bad;
    assert_int_equal(spawn_recovery_choose(&req, err, sizeof err), -2);
    assert_non_null(strstr(err, "'yes'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_soft_values),
        cmocka_unit_test(test_soft_stride_overflow),
        cmocka_unit_test(test_soft_malformed),
        cmocka_unit_test(test_recovery_choice),
        cmocka_unit_test(test_decode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
