/*
 * test_wire.c: the control-message codec, including truncated and
 * corrupted input (every prefix of a valid frame and random bit flips
 * must be rejected or decoded safely, never crash).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "argv.h"
#include "wire.h"

static void build_sample(struct tide_wbuf *w)
{
    char *v[] = {"a", "", "hello world", NULL};
    tide_wire_begin(w, 7);
    tide_wire_put_u8(w, 0xab);
    tide_wire_put_u16(w, 0xbeef);
    tide_wire_put_u32(w, 0xdeadbeefu);
    tide_wire_put_u64(w, 0x0123456789abcdefull);
    tide_wire_put_i32(w, -5);
    tide_wire_put_str(w, "string");
    tide_wire_put_str(w, NULL);
    tide_wire_put_bytes(w, "\0\1\2", 3);
    tide_wire_put_strv(w, v);
}

static void test_roundtrip(void **state)
{
    (void)state;
    struct tide_wbuf w;
    build_sample(&w);
    assert_int_equal(tide_wire_finish(&w), 0);
    uint16_t type;
    uint32_t len;
    assert_int_equal(tide_wire_header(w.data, &type, &len), 0);
    assert_int_equal(type, 7);
    assert_int_equal(len, w.len - TIDE_WIRE_HEADER);
    struct tide_rbuf r;
    tide_wire_reader(&r, w.data + TIDE_WIRE_HEADER, len);
    assert_int_equal(tide_wire_get_u8(&r), 0xab);
    assert_int_equal(tide_wire_get_u16(&r), 0xbeef);
    assert_int_equal(tide_wire_get_u32(&r), 0xdeadbeefu);
    assert_true(tide_wire_get_u64(&r) == 0x0123456789abcdefull);
    assert_int_equal(tide_wire_get_i32(&r), -5);
    char *s = tide_wire_get_str(&r);
    assert_string_equal(s, "string");
    free(s);
    assert_null(tide_wire_get_str(&r));
    assert_true(tide_wire_ok(&r));
    size_t n;
    const uint8_t *b = tide_wire_get_bytes(&r, &n);
    assert_int_equal(n, 3);
    assert_int_equal(b[2], 2);
    char **v = tide_wire_get_strv(&r);
    assert_non_null(v);
    assert_int_equal(tide_argv_count(v), 3);
    assert_string_equal(v[2], "hello world");
    tide_argv_free(v);
    assert_true(tide_wire_done(&r));
    tide_wire_free(&w);
}

/* Decoding every truncation of the payload must fail cleanly. */
static void test_truncated(void **state)
{
    (void)state;
    struct tide_wbuf w;
    build_sample(&w);
    tide_wire_finish(&w);
    size_t plen = w.len - TIDE_WIRE_HEADER;
    for (size_t cut = 0; cut < plen; cut++) {
        uint8_t *copy = malloc(cut ? cut : 1);
        memcpy(copy, w.data + TIDE_WIRE_HEADER, cut);
        struct tide_rbuf r;
        tide_wire_reader(&r, copy, cut);
        tide_wire_get_u8(&r);
        tide_wire_get_u16(&r);
        tide_wire_get_u32(&r);
        tide_wire_get_u64(&r);
        tide_wire_get_i32(&r);
        free(tide_wire_get_str(&r));
        free(tide_wire_get_str(&r));
        size_t n;
        tide_wire_get_bytes(&r, &n);
        char **v = tide_wire_get_strv(&r);
        tide_argv_free(v);
        assert_false(tide_wire_done(&r));
        free(copy);
    }
    tide_wire_free(&w);
}

static void test_bad_headers(void **state)
{
    (void)state;
    uint8_t h[TIDE_WIRE_HEADER] = {0};
    uint16_t type;
    uint32_t len;
    assert_int_equal(tide_wire_header(h, &type, &len), -1); /* no magic */
    struct tide_wbuf w;
    tide_wire_begin(&w, 1);
    tide_wire_finish(&w);
    memcpy(h, w.data, sizeof h);
    assert_int_equal(tide_wire_header(h, &type, &len), 0);
    h[4] = 9; /* version */
    assert_int_equal(tide_wire_header(h, &type, &len), -1);
    memcpy(h, w.data, sizeof h);
    h[11] = 0xff; /* length beyond the limit */
    assert_int_equal(tide_wire_header(h, &type, &len), -1);
    tide_wire_free(&w);
}

/* Hostile lengths: a huge string length or array count must not allocate
 * or read out of bounds. */
static void test_hostile_lengths(void **state)
{
    (void)state;
    uint8_t buf[8] = {0xff, 0xff, 0xff, 0x7f, 'x', 'y', 'z', 0};
    struct tide_rbuf r;
    tide_wire_reader(&r, buf, sizeof buf);
    assert_null(tide_wire_get_str(&r));
    assert_false(tide_wire_ok(&r));
    tide_wire_reader(&r, buf, sizeof buf);
    assert_null(tide_wire_get_strv(&r));
    assert_false(tide_wire_ok(&r));
    uint8_t nul[6] = {2, 0, 0, 0, 'a', 0}; /* embedded NUL */
    tide_wire_reader(&r, nul, sizeof nul);
    assert_null(tide_wire_get_str(&r));
    assert_false(tide_wire_ok(&r));
}

/* Random corruption: decode must terminate without crashing. */
static void test_random_corruption(void **state)
{
    (void)state;
    struct tide_wbuf w;
    build_sample(&w);
    tide_wire_finish(&w);
    size_t plen = w.len - TIDE_WIRE_HEADER;
    srand(1234);
    for (int iter = 0; iter < 20000; iter++) {
        uint8_t *copy = malloc(plen);
        memcpy(copy, w.data + TIDE_WIRE_HEADER, plen);
        int flips = 1 + rand() % 4;
        for (int f = 0; f < flips; f++)
            copy[rand() % plen] ^= (uint8_t)(1u << (rand() % 8));
        struct tide_rbuf r;
        tide_wire_reader(&r, copy, plen);
        tide_wire_get_u8(&r);
        tide_wire_get_u16(&r);
        tide_wire_get_u32(&r);
        tide_wire_get_u64(&r);
        tide_wire_get_i32(&r);
        free(tide_wire_get_str(&r));
        free(tide_wire_get_str(&r));
        size_t n;
        tide_wire_get_bytes(&r, &n);
        tide_argv_free(tide_wire_get_strv(&r));
        free(copy);
    }
    tide_wire_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_bad_headers),
        cmocka_unit_test(test_hostile_lengths),
        cmocka_unit_test(test_random_corruption),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
