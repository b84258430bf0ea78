/*
 * test_rank_auth.c: the rank handshake's codec and proofs
 * (transport/tcp_auth.c) and the strict port-name parser
 * (dpm/port_name.c): a hello round-trips; a proof made with one rank's
 * key does not check out as another rank's or for another listener; rank
 * keys depend on the secret; universes are told apart by namespace; port
 * names with signed or short hex, signed or padded ranks, or another
 * version are refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dpm/port_name.h"
#include "transport/tcp_auth.h"

static struct tide_hello make_hello(uint8_t kind, const char *from, uint32_t fr, const char *to, uint32_t tr)
{
    struct tide_hello h;
    memset(&h, 0, sizeof h);
    h.kind = kind;
    strcpy(h.from.nspace, from);
    h.from.rank = fr;
    strcpy(h.to.nspace, to);
    h.to.rank = tr;
    memset(h.nonce_c, 9, sizeof h.nonce_c);
    return h;
}

static void hello_roundtrip(void **state)
{
    (void)state;
    struct tide_hello h = make_hello(TIDE_AUTH_PORT, "tide.a.1.0", 3, "tide.b.2.0", 0), d;
    memset(h.mac, 0x42, sizeof h.mac);
    uint8_t b[TIDE_HS_HELLO_MAX];
    size_t n = tide_hs_hello_encode(&h, b);
    assert_int_equal(tide_hs_hello_decode(b, n, &d), (int)n);
    assert_string_equal(d.from.nspace, "tide.a.1.0");
    assert_int_equal(d.to.rank, 0);
    assert_memory_equal(d.mac, h.mac, sizeof h.mac);
    for (size_t k = 0; k < n; k++)
        assert_int_equal(tide_hs_hello_decode(b, k, &d), 0);
    b[5] = 7; /* unknown kind */
    assert_int_equal(tide_hs_hello_decode(b, n, &d), -1);
    b[5] = TIDE_AUTH_PORT;
    b[TIDE_HS_HELLO_FIXED] = ' '; /* a name with a space */
    assert_int_equal(tide_hs_hello_decode(b, n, &d), -1);
    b[0] ^= 1;
    assert_int_equal(tide_hs_hello_decode(b, 4, &d), -1);
}

static void proofs_bind_names(void **state)
{
    (void)state;
    uint8_t s[TIDE_SECRET_LEN];
    memset(s, 1, sizeof s);
    tide_auth_set_secret(s);
    uint8_t k0[TIDE_KEY_LEN], k1[TIDE_KEY_LEN], k1b[TIDE_KEY_LEN];
    assert_int_equal(tide_auth_rank_key("tide.h.9.0", 0, k0), 0);
    assert_int_equal(tide_auth_rank_key("tide.h.9.0", 1, k1), 0);
    assert_memory_not_equal(k0, k1, sizeof k0);
    uint8_t nonce[TIDE_NONCE_LEN] = {5}, m1[TIDE_MAC_LEN], m2[TIDE_MAC_LEN];
    struct tide_hello h = make_hello(TIDE_AUTH_RANK, "tide.h.9.0", 1, "tide.h.9.0", 0);
    tide_hs_hello_mac(k1, sizeof k1, nonce, &h, m1);
    /* the same proof claiming another rank, or for another listener, fails */
    struct tide_hello h2 = make_hello(TIDE_AUTH_RANK, "tide.h.9.0", 2, "tide.h.9.0", 0);
    tide_hs_hello_mac(k1, sizeof k1, nonce, &h2, m2);
    assert_memory_not_equal(m1, m2, sizeof m1);
    h2 = make_hello(TIDE_AUTH_RANK, "tide.h.9.0", 1, "tide.h.9.0", 3);
    tide_hs_hello_mac(k1, sizeof k1, nonce, &h2, m2);
    assert_memory_not_equal(m1, m2, sizeof m1);
    /* the reply's proof differs from the hello's, and on the verdict */
    tide_hs_reply_mac(k1, sizeof k1, nonce, &h, true, m2);
    assert_memory_not_equal(m1, m2, sizeof m1);
    tide_hs_reply_mac(k1, sizeof k1, nonce, &h, false, m1);
    assert_memory_not_equal(m1, m2, sizeof m1);
    /* another secret, other keys */
    memset(s, 2, sizeof s);
    tide_auth_set_secret(s);
    assert_int_equal(tide_auth_rank_key("tide.h.9.0", 1, k1b), 0);
    assert_memory_not_equal(k1, k1b, sizeof k1);
    tide_auth_forget_secret();
    assert_int_equal(tide_auth_rank_key("tide.h.9.0", 1, k1b), -1);
}

static void universes(void **state)
{
    (void)state;
    assert_true(tide_auth_same_universe("tide.host.12.0", "tide.host.12.3"));
    assert_true(tide_auth_same_universe("tide.a.b.c.12.0", "tide.a.b.c.12.7"));
    assert_false(tide_auth_same_universe("tide.host.12.0", "tide.host.13.0"));
    assert_false(tide_auth_same_universe("tide.host.12.0", "tide.host.1.0"));
    assert_false(tide_auth_same_universe("singleton.h.5", "singleton.h.6"));
    assert_true(tide_auth_same_universe("singleton.h.5", "singleton.h.5"));
}

#define TOK "00112233445566778899aabbccddeeff"

static void port_names_strict(void **state)
{
    (void)state;
    struct tide_port p;
    assert_int_equal(tide_port_name_parse("tide-port:v2|tide.h.1.0|7|" TOK "|host=h;tcp=127.0.0.1:5;", &p), 0);
    assert_int_equal(p.rank, 7);
    assert_int_equal(p.token[15], 0xff);
    char out[TIDE_PORT_NAME_MAX];
    assert_int_equal(tide_port_name_format(&p, out, sizeof out), 0);
    assert_string_equal(out, "tide-port:v2|tide.h.1.0|7|" TOK "|host=h;tcp=127.0.0.1:5;");
    const char *bad[] = {
        "tide-port:v2|ns|0|+f112233445566778899aabbccddeeff|host=h;", /* sscanf %x takes "+f" */
        "tide-port:v2|ns|0|-1112233445566778899aabbccddeeff|host=h;", /* and "-1" */
        "tide-port:v2|ns|0| f112233445566778899aabbccddeeff|host=h;",
        "tide-port:v2|ns|0|0x112233445566778899aabbccddeeff|host=h;",
        "tide-port:v2|ns|0|" TOK "00|host=h;",
        "tide-port:v2|ns|+1|" TOK "|host=h;",
        "tide-port:v2|ns|-1|" TOK "|host=h;",
        "tide-port:v2|ns|01|" TOK "|host=h;",
        "tide-port:v2|ns|4294967296|" TOK "|host=h;",
        "tide-port:v2|ns| 1|" TOK "|host=h;",
        "tide-port:v2||1|" TOK "|host=h;",
        "tide-port:v2|n s|1|" TOK "|host=h;",
        "tide-port:v2|ns|1|" TOK "|",
        "tide-port:v2|ns|1|" TOK "|host=h",
        "tide-port:v2|ns|1|" TOK "|=h;",
        "tide-port:v2|ns|1|" TOK "|host=h;|x",
        "tide-port:v1|ns|1|" TOK "|host=h;",
        "tide-port:v2|ns|1",
        "",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (tide_port_name_parse(bad[i], &p) == 0)
            fail_msg("accepted '%s'", bad[i]);
    }
    char big[3000];
    memset(big, 'a', sizeof big);
    memcpy(big, "tide-port:v2|", 13);
    big[sizeof big - 1] = '\0';
    assert_int_equal(tide_port_name_parse(big, &p), -1);
    uint8_t t[2];
    assert_int_equal(tide_port_unhex("+f00", 4, t, 2), -1);
    assert_int_equal(tide_port_unhex("0aFf", 4, t, 2), 0);
    assert_int_equal(t[1], 0xff);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hello_roundtrip),
        cmocka_unit_test(proofs_bind_names),
        cmocka_unit_test(universes),
        cmocka_unit_test(port_names_strict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
