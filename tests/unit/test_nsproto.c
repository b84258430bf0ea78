/*
 * test_nsproto.c: the tide-nameserver protocol (common/nsproto.c): every
 * frame round-trips; every truncation, trailing byte and random corruption
 * is rejected or decoded safely; the limits; the authentication proofs;
 * URIs, URI files, secret files and the per-user directory checks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "nsproto.h"

static const uint8_t nonce[TIDE_NS_NONCE_LEN] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
static const uint8_t mac[TIDE_NS_MAC_LEN] = {0xaa, 0xbb, 0xcc};
static const uint8_t cred[TIDE_NS_CRED_LEN] = {0xc0, 0xde, 7};
static const char *const set_svc[2] = {"svc", "other"};
static const uint8_t set_cred[2][TIDE_NS_CRED_LEN] = {{1}, {2, 3}};

/* build frame k of the sample set; returns 0 when k is past the end */
static int sample(int k, struct tide_wbuf *w)
{
    switch (k) {
    case 0: tide_ns_enc_server_hello(w, nonce, TIDE_NS_AUTH_SECRET); break;
    case 1: tide_ns_enc_hello(w, nonce, mac, "tided@node1"); break;
    case 2: tide_ns_enc_hello(w, nonce, NULL, NULL); break;
    case 3: tide_ns_enc_welcome(w, TIDE_NS_OK, mac, NULL); break;
    case 4: tide_ns_enc_welcome(w, TIDE_NS_AUTH, NULL, "wrong secret"); break;
    case 5: tide_ns_enc_publish(w, 7, TIDE_NS_PUB_REASSERT, "svc", "tide-port://x", "job/1", cred); break;
    case 6: tide_ns_enc_lookup(w, 8, "svc", 2500); break;
    case 7: tide_ns_enc_unpublish(w, 9, "svc", cred); break;
    case 8: tide_ns_enc_unpublish_set(w, 10, 2, set_svc, set_cred); break;
    case 9: tide_ns_enc_ping(w, 11); break;
    case 10: tide_ns_enc_status(w, 12); break;
    case 11: tide_ns_enc_reply(w, 13, TIDE_NS_OK, "port", 42, NULL, cred); break;
    case 12: tide_ns_enc_reply(w, 14, TIDE_NS_NOT_FOUND, NULL, 0, "no such name", NULL); break;
    case 13: tide_ns_enc_unpublish(w, 15, "svc", NULL); break;
    default: return 0;
    }
    assert_int_equal(tide_wire_finish(w), 0);
    return 1;
}

static int decode_frame(const struct tide_wbuf *w, size_t len, struct tide_ns_msg *m)
{
    uint16_t type;
    uint32_t plen;
    assert_int_equal(tide_wire_header(w->data, &type, &plen), 0);
    struct tide_rbuf r;
    tide_wire_reader(&r, w->data + TIDE_WIRE_HEADER, len);
    return tide_ns_decode(type, &r, m);
}

static void test_roundtrip(void **state)
{
    (void)state;
    struct tide_wbuf w;
    struct tide_ns_msg m;
    for (int k = 0; sample(k, &w); k++) {
        assert_int_equal(decode_frame(&w, w.len - TIDE_WIRE_HEADER, &m), TIDE_NS_OK);
        switch (k) {
        case 0:
            assert_int_equal(m.version, TIDE_NS_PROTO_VERSION);
            assert_memory_equal(m.nonce, nonce, sizeof nonce);
            assert_int_equal(m.flags, TIDE_NS_AUTH_SECRET);
            break;
        case 1:
            assert_true(m.has_mac);
            assert_memory_equal(m.mac, mac, sizeof mac);
            assert_string_equal(m.client, "tided@node1");
            break;
        case 2:
            assert_false(m.has_mac);
            assert_null(m.client);
            break;
        case 4:
            assert_int_equal(m.status, TIDE_NS_AUTH);
            assert_string_equal(m.message, "wrong secret");
            break;
        case 5:
            assert_int_equal(m.id, 7);
            assert_int_equal(m.flags, TIDE_NS_PUB_REASSERT);
            assert_string_equal(m.service, "svc");
            assert_string_equal(m.port, "tide-port://x");
            assert_string_equal(m.owner, "job/1");
            assert_true(m.has_cred);
            assert_memory_equal(m.cred, cred, sizeof cred);
            break;
        case 6:
            assert_int_equal(m.wait_ms, 2500);
            break;
        case 7:
            assert_true(m.has_cred);
            assert_memory_equal(m.cred, cred, sizeof cred);
            break;
        case 8:
            assert_int_equal(m.nset, 2);
            assert_string_equal(m.set_service[1], "other");
            assert_memory_equal(m.set_cred[1], set_cred[1], TIDE_NS_CRED_LEN);
            break;
        case 11:
            assert_int_equal(m.id, 13);
            assert_string_equal(m.value, "port");
            assert_true(m.count == 42);
            assert_true(m.has_cred);
            assert_memory_equal(m.cred, cred, sizeof cred);
            break;
        case 12:
            assert_int_equal(m.status, TIDE_NS_NOT_FOUND);
            assert_null(m.value);
            assert_false(m.has_cred);
            break;
        case 13:
            assert_false(m.has_cred);
            break;
        }
        tide_ns_msg_clear(&m);
        tide_wire_free(&w);
    }
}

static void test_truncated_and_trailing(void **state)
{
    (void)state;
    struct tide_wbuf w;
    struct tide_ns_msg m;
    for (int k = 0; sample(k, &w); k++) {
        size_t full = w.len - TIDE_WIRE_HEADER;
        for (size_t n = 0; n < full; n++) {
            /* decode from a heap copy of exactly n bytes, so ASan sees overreads */
            uint8_t *copy = malloc(n ? n : 1);
            memcpy(copy, w.data + TIDE_WIRE_HEADER, n);
            uint16_t type;
            uint32_t plen;
            tide_wire_header(w.data, &type, &plen);
            struct tide_rbuf r;
            tide_wire_reader(&r, copy, n);
            assert_int_equal(tide_ns_decode(type, &r, &m), TIDE_NS_BAD_REQUEST);
            assert_null(m.service);
            assert_null(m.client);
            free(copy);
        }
        /* one byte too many */
        uint8_t *longer = malloc(full + 1);
        memcpy(longer, w.data + TIDE_WIRE_HEADER, full);
        longer[full] = 0;
        uint16_t type;
        uint32_t plen;
        tide_wire_header(w.data, &type, &plen);
        struct tide_rbuf r;
        tide_wire_reader(&r, longer, full + 1);
        assert_int_equal(tide_ns_decode(type, &r, &m), TIDE_NS_BAD_REQUEST);
        free(longer);
        tide_wire_free(&w);
    }
}

static void test_corrupted(void **state)
{
    (void)state;
    srand(12345);
    struct tide_wbuf w;
    struct tide_ns_msg m;
    int decoded = 0, rejected = 0;
    for (int round = 0; round < 4000; round++) {
        sample(round % 14, &w);
        size_t full = w.len - TIDE_WIRE_HEADER;
        uint8_t *p = malloc(full);
        memcpy(p, w.data + TIDE_WIRE_HEADER, full);
        int flips = 1 + rand() % 6;
        for (int f = 0; f < flips; f++)
            p[rand() % full] ^= (uint8_t)(1u << (rand() % 8));
        uint16_t type;
        uint32_t plen;
        tide_wire_header(w.data, &type, &plen);
        if (rand() % 5 == 0)
            type = (uint16_t)rand();
        struct tide_rbuf r;
        tide_wire_reader(&r, p, full);
        int rc = tide_ns_decode(type, &r, &m);
        assert_true(rc == TIDE_NS_OK || rc == TIDE_NS_BAD_REQUEST || rc == TIDE_NS_UNSUPPORTED);
        if (rc == TIDE_NS_OK) {
            decoded++;
            char why[256];
            /* whatever decoded must be safe to check and print */
            (void)tide_ns_check_request(&m, why, sizeof why);
            if (m.service)
                assert_true(strlen(m.service) < full);
        } else {
            rejected++;
        }
        tide_ns_msg_clear(&m);
        free(p);
        tide_wire_free(&w);
    }
    assert_true(rejected > 0);
    assert_true(decoded > 0);
}

static void test_unknown_type(void **state)
{
    (void)state;
    struct tide_wbuf w;
    tide_wire_begin(&w, 0x4eff);
    tide_wire_put_u32(&w, 77);
    tide_wire_put_str(&w, "future");
    tide_wire_finish(&w);
    struct tide_ns_msg m;
    struct tide_rbuf r;
    tide_wire_reader(&r, w.data + TIDE_WIRE_HEADER, w.len - TIDE_WIRE_HEADER);
    assert_int_equal(tide_ns_decode(0x4eff, &r, &m), TIDE_NS_UNSUPPORTED);
    assert_int_equal(m.id, 77);
    tide_wire_free(&w);
}

static void test_bad_lengths(void **state)
{
    (void)state;
    struct tide_wbuf w;
    struct tide_ns_msg m;
    /* a nonce of the wrong size */
    tide_wire_begin(&w, TIDE_NS_SERVER_HELLO);
    tide_wire_put_u16(&w, 1);
    tide_wire_put_bytes(&w, nonce, 16);
    tide_wire_put_u32(&w, 0);
    tide_wire_finish(&w);
    assert_int_equal(decode_frame(&w, w.len - TIDE_WIRE_HEADER, &m), TIDE_NS_BAD_REQUEST);
    tide_wire_free(&w);
    /* a MAC of the wrong size */
    tide_wire_begin(&w, TIDE_NS_HELLO);
    tide_wire_put_u16(&w, 1);
    tide_wire_put_bytes(&w, nonce, TIDE_NS_NONCE_LEN);
    tide_wire_put_bytes(&w, mac, 16);
    tide_wire_put_str(&w, "x");
    tide_wire_finish(&w);
    assert_int_equal(decode_frame(&w, w.len - TIDE_WIRE_HEADER, &m), TIDE_NS_BAD_REQUEST);
    tide_wire_free(&w);
    /* a string length far beyond the payload */
    tide_wire_begin(&w, TIDE_NS_LOOKUP);
    tide_wire_put_u32(&w, 1);
    tide_wire_put_u32(&w, 0x7fffffff);
    tide_wire_put_u32(&w, 0);
    tide_wire_finish(&w);
    assert_int_equal(decode_frame(&w, w.len - TIDE_WIRE_HEADER, &m), TIDE_NS_BAD_REQUEST);
    tide_wire_free(&w);
    /* a credential of the wrong size */
    tide_wire_begin(&w, TIDE_NS_UNPUBLISH);
    tide_wire_put_u32(&w, 1);
    tide_wire_put_str(&w, "svc");
    tide_wire_put_bytes(&w, cred, 31);
    tide_wire_finish(&w);
    assert_int_equal(decode_frame(&w, w.len - TIDE_WIRE_HEADER, &m), TIDE_NS_BAD_REQUEST);
    tide_wire_free(&w);
    /* a set claiming more names than the frame holds, and more than the limit */
    uint32_t counts[2] = {3, TIDE_NS_MAX_SET + 1};
    for (int k = 0; k < 2; k++) {
        tide_wire_begin(&w, TIDE_NS_UNPUBLISH_SET);
        tide_wire_put_u32(&w, 1);
        tide_wire_put_u32(&w, counts[k]);
        for (int j = 0; j < 2; j++) {
            tide_wire_put_str(&w, "svc");
            tide_wire_put_bytes(&w, cred, TIDE_NS_CRED_LEN);
        }
        tide_wire_finish(&w);
        assert_int_equal(decode_frame(&w, w.len - TIDE_WIRE_HEADER, &m), TIDE_NS_BAD_REQUEST);
        assert_null(m.set_service);
        tide_wire_free(&w);
    }
    /* a set entry without its credential */
    tide_wire_begin(&w, TIDE_NS_UNPUBLISH_SET);
    tide_wire_put_u32(&w, 1);
    tide_wire_put_u32(&w, 1);
    tide_wire_put_str(&w, "svc");
    tide_wire_put_bytes(&w, NULL, 0);
    tide_wire_finish(&w);
    assert_int_equal(decode_frame(&w, w.len - TIDE_WIRE_HEADER, &m), TIDE_NS_BAD_REQUEST);
    tide_wire_free(&w);
    /* an embedded NUL in a string */
    tide_wire_begin(&w, TIDE_NS_LOOKUP);
    tide_wire_put_u32(&w, 1);
    tide_wire_put_bytes(&w, "a\0b", 3);
    tide_wire_put_u32(&w, 0);
    tide_wire_finish(&w);
    assert_int_equal(decode_frame(&w, w.len - TIDE_WIRE_HEADER, &m), TIDE_NS_BAD_REQUEST);
    tide_wire_free(&w);
}

static void test_limits(void **state)
{
    (void)state;
    char why[256];
    char *s = malloc(4096);
    memset(s, 'a', 4096);
    s[TIDE_NS_MAX_SERVICE] = '\0';
    assert_int_equal(tide_ns_check_args(s, "p", "o", why, sizeof why), TIDE_NS_OK);
    s[TIDE_NS_MAX_SERVICE] = 'a';
    s[TIDE_NS_MAX_SERVICE + 1] = '\0';
    assert_int_equal(tide_ns_check_args(s, "p", "o", why, sizeof why), TIDE_NS_TOO_LONG);
    assert_non_null(strstr(why, "service name"));
    assert_non_null(strstr(why, "1024"));
    assert_int_equal(tide_ns_check_args("svc", s, "o", why, sizeof why), TIDE_NS_TOO_LONG);
    assert_non_null(strstr(why, "port name"));
    assert_int_equal(tide_ns_check_args("svc", "p", s, why, sizeof why), TIDE_NS_TOO_LONG);
    assert_int_equal(tide_ns_check_args("", "p", "o", why, sizeof why), TIDE_NS_BAD_REQUEST);
    assert_int_equal(tide_ns_check_args("s", "", "o", why, sizeof why), TIDE_NS_BAD_REQUEST);
    assert_int_equal(tide_ns_check_args("s", "p", "", why, sizeof why), TIDE_NS_BAD_REQUEST);
    assert_int_equal(tide_ns_check_args(NULL, NULL, NULL, why, sizeof why), TIDE_NS_OK);
    struct tide_ns_msg m = {.type = TIDE_NS_PUBLISH, .service = "s", .port = NULL, .owner = "o"};
    assert_int_equal(tide_ns_check_request(&m, why, sizeof why), TIDE_NS_BAD_REQUEST);
    /* a publish needs its key */
    m.port = "p";
    assert_int_equal(tide_ns_check_request(&m, why, sizeof why), TIDE_NS_BAD_REQUEST);
    assert_non_null(strstr(why, "key"));
    m.has_cred = 1;
    assert_int_equal(tide_ns_check_request(&m, why, sizeof why), TIDE_NS_OK);
    m.port = NULL;
    m.type = TIDE_NS_LOOKUP;
    assert_int_equal(tide_ns_check_request(&m, why, sizeof why), TIDE_NS_OK);
    m.type = TIDE_NS_REPLY;
    assert_int_equal(tide_ns_check_request(&m, why, sizeof why), TIDE_NS_BAD_REQUEST);
    free(s);
    for (int st = 0; st < 80; st++)
        assert_non_null(tide_ns_strstatus(st));
}

static void test_macs(void **state)
{
    (void)state;
    const uint8_t secret[] = "0123456789abcdef0123456789abcdef";
    uint8_t sn[TIDE_NS_NONCE_LEN] = {1}, cn[TIDE_NS_NONCE_LEN] = {2};
    uint8_t a[TIDE_NS_MAC_LEN], b[TIDE_NS_MAC_LEN], c[TIDE_NS_MAC_LEN];
    assert_int_equal(tide_ns_client_mac(secret, 32, sn, cn, "ff", a), 0);
    assert_int_equal(tide_ns_client_mac(secret, 32, sn, cn, "ff", b), 0);
    assert_true(tide_ns_mac_equal(a, b));
    assert_int_equal(tide_ns_server_mac(secret, 32, sn, cn, "ff", c), 0);
    assert_false(tide_ns_mac_equal(a, c)); /* the two directions differ */
    assert_int_equal(tide_ns_client_mac(secret, 31, sn, cn, "ff", b), 0);
    assert_false(tide_ns_mac_equal(a, b));
    assert_int_equal(tide_ns_client_mac(secret, 32, sn, cn, "fe", b), 0);
    assert_false(tide_ns_mac_equal(a, b)); /* bound to the certificate */
    sn[5] = 9;
    assert_int_equal(tide_ns_client_mac(secret, 32, sn, cn, "ff", b), 0);
    assert_false(tide_ns_mac_equal(a, b));
    assert_int_equal(tide_ns_client_mac(secret, 0, sn, cn, "", b), -1);
}

static void test_creds(void **state)
{
    (void)state;
    const uint8_t k1[TIDE_NS_CRED_LEN] = {1}, k2[TIDE_NS_CRED_LEN] = {2};
    const uint8_t key[TIDE_NS_CRED_LEN] = {9}, key2[TIDE_NS_CRED_LEN] = {8};
    uint8_t a[TIDE_NS_CRED_LEN], b[TIDE_NS_CRED_LEN], h1[TIDE_NS_CRED_LEN], h2[TIDE_NS_CRED_LEN];
    assert_int_equal(tide_ns_cred_derive(k1, "svc", key, a), 0);
    assert_int_equal(tide_ns_cred_derive(k1, "svc", key, b), 0);
    assert_memory_equal(a, b, sizeof a); /* a resent publish gets the same credential */
    assert_int_equal(tide_ns_cred_derive(k2, "svc", key, b), 0);
    assert_memory_not_equal(a, b, sizeof a); /* another server's key */
    assert_int_equal(tide_ns_cred_derive(k1, "svc2", key, b), 0);
    assert_memory_not_equal(a, b, sizeof a); /* another name */
    assert_int_equal(tide_ns_cred_derive(k1, "svc", key2, b), 0);
    assert_memory_not_equal(a, b, sizeof a); /* another client key */
    assert_int_equal(tide_ns_cred_hash(a, h1), 0);
    assert_int_equal(tide_ns_cred_hash(a, h2), 0);
    assert_memory_equal(h1, h2, sizeof h1);
    assert_memory_not_equal(h1, a, sizeof a); /* the server keeps a hash, not the credential */
    char big[TIDE_NS_MAX_SERVICE + 2];
    memset(big, 's', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    assert_int_equal(tide_ns_cred_derive(k1, big, key, b), -1);
}

static void test_hex(void **state)
{
    (void)state;
    uint8_t in[4] = {0x00, 0x7f, 0xab, 0xff}, out[4];
    char hex[9];
    tide_hex(in, 4, hex);
    assert_string_equal(hex, "007fabff");
    assert_int_equal(tide_unhex("007FABff", out, 4), 4);
    assert_memory_equal(in, out, 4);
    assert_int_equal(tide_unhex("007", out, 4), -1);
    assert_int_equal(tide_unhex("zz", out, 4), -1);
    assert_int_equal(tide_unhex("0011223344", out, 4), -1);
}

#define FP "53dab711de4629a043f4657a97d695f6a93ab24184988a0ff29d5518706ba17c"

static void test_uri(void **state)
{
    (void)state;
    struct tide_ns_uri u;
    char err[512], out[1024];
    assert_int_equal(tide_ns_uri_parse("tide-ns://node1:4567/#sha256=" FP, &u, err, sizeof err), 0);
    assert_int_equal(u.kind, TIDE_NS_URI_TCP);
    assert_string_equal(u.host, "node1");
    assert_int_equal(u.port, 4567);
    assert_string_equal(u.fingerprint, FP);
    assert_int_equal(tide_ns_uri_format(&u, out, sizeof out), 0);
    assert_string_equal(out, "tide-ns://node1:4567/#sha256=" FP);
    assert_int_equal(tide_ns_uri_parse("tide-ns://[::1]:80#sha256=53DAB711DE4629A043F4657A97D695F6A93AB24184988A0FF29D5518706BA17C",
                                       &u, err, sizeof err),
                     0);
    assert_string_equal(u.host, "::1");
    assert_string_equal(u.fingerprint, FP);
    assert_int_equal(tide_ns_uri_format(&u, out, sizeof out), 0);
    assert_string_equal(out, "tide-ns://[::1]:80/#sha256=" FP);
    assert_int_equal(tide_ns_uri_parse("tide-ns+unix:///tmp/x/ns.sock", &u, err, sizeof err), 0);
    assert_int_equal(u.kind, TIDE_NS_URI_UNIX);
    assert_string_equal(u.path, "/tmp/x/ns.sock");
    static const char *bad[] = {
        "",
        "garbage",
        "http://x:1/#sha256=" FP,
        "tide-ns://x/#sha256=" FP,
        "tide-ns://x:/#sha256=" FP,
        "tide-ns://:5/#sha256=" FP,
        "tide-ns://x:0/#sha256=" FP,
        "tide-ns://x:65536/#sha256=" FP,
        "tide-ns://x:1234567/#sha256=" FP,
        "tide-ns://x:5/",
        "tide-ns://x:5/#sha256=abc",
        "tide-ns://x:5/#sha256=" FP "00",
        "tide-ns://x:5/#sha256=zz3dab711de4629a043f4657a97d695f6a93ab24184988a0ff29d5518706ba17c",
        "tide-ns://[::1:5/#sha256=" FP,
        "tide-ns+unix://relative",
        "tide-ns+unix:///" "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        NULL,
    };
    for (int i = 0; bad[i]; i++) {
        err[0] = '\0';
        assert_int_equal(tide_ns_uri_parse(bad[i], &u, err, sizeof err), -1);
        assert_true(err[0] != '\0');
    }
    assert_int_equal(tide_ns_uri_parse(NULL, &u, err, sizeof err), -1);
}

static char tmpdir[64];

static int setup_tmp(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/tide-nsproto-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_tmp(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *path, const char *text, mode_t mode)
{
    unlink(path);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    chmod(path, mode);
}

static void test_files(void **state)
{
    (void)state;
    char path[128], uri[1024], err[512];
    uint8_t sec[TIDE_NS_SECRET_MAX];
    size_t sl;
    snprintf(path, sizeof path, "%s/uri", tmpdir);
    write_file(path, "tide-ns://h:1/#sha256=" FP "\nsecret=00112233445566778899aabbccddeeff\npid=5\n", 0600);
    assert_int_equal(tide_ns_urifile_read(path, uri, sizeof uri, sec, &sl, err, sizeof err), 0);
    assert_string_equal(uri, "tide-ns://h:1/#sha256=" FP);
    assert_int_equal(sl, 16);
    assert_int_equal(sec[15], 0xff);
    /* a URI file is also a secret file */
    assert_int_equal(tide_ns_secret_load(path, sec, &sl, err, sizeof err), 0);
    assert_int_equal(sl, 16);
    /* readable by others: refused, with the reason */
    chmod(path, 0644);
    assert_int_equal(tide_ns_urifile_read(path, uri, sizeof uri, sec, &sl, err, sizeof err), -1);
    assert_non_null(strstr(err, "0600"));
    assert_int_equal(tide_ns_secret_load(path, sec, &sl, err, sizeof err), -1);
    /* a URI file without a secret may be public */
    write_file(path, "tide-ns+unix:///tmp/s\n", 0644);
    assert_int_equal(tide_ns_urifile_read(path, uri, sizeof uri, sec, &sl, err, sizeof err), 0);
    assert_int_equal(sl, 0);
    /* bad secret lines */
    write_file(path, "tide-ns://h:1/#sha256=" FP "\nsecret=0011\n", 0600);
    assert_int_equal(tide_ns_urifile_read(path, uri, sizeof uri, sec, &sl, err, sizeof err), -1);
    write_file(path, "tide-ns://h:1/#sha256=" FP "\nsecret=xyz\n", 0600);
    assert_int_equal(tide_ns_urifile_read(path, uri, sizeof uri, sec, &sl, err, sizeof err), -1);
    write_file(path, "\n\n", 0600);
    assert_int_equal(tide_ns_urifile_read(path, uri, sizeof uri, sec, &sl, err, sizeof err), -1);
    /* a plain secret file */
    write_file(path, "a plain secret of some length\n\n", 0600);
    assert_int_equal(tide_ns_secret_load(path, sec, &sl, err, sizeof err), 0);
    assert_int_equal(sl, strlen("a plain secret of some length"));
    write_file(path, "short\n", 0600);
    assert_int_equal(tide_ns_secret_load(path, sec, &sl, err, sizeof err), -1);
    snprintf(path, sizeof path, "%s/missing", tmpdir);
    assert_int_equal(tide_ns_secret_load(path, sec, &sl, err, sizeof err), -1);
    assert_int_equal(tide_ns_urifile_read(path, uri, sizeof uri, sec, &sl, err, sizeof err), -1);
    assert_non_null(strstr(err, "missing"));
}

static void test_user_dir(void **state)
{
    (void)state;
    char dir[4096], sock[108], lock[4096], err[512], want[256];
    snprintf(want, sizeof want, "%s/ud", tmpdir);
    setenv("TIDE_NS_DIR", want, 1);
    errno = 0;
    assert_int_equal(tide_ns_user_dir(dir, sizeof dir, 0, err, sizeof err), -1);
    assert_int_equal(errno, ENOENT);
    assert_int_equal(tide_ns_user_dir(dir, sizeof dir, 1, err, sizeof err), 0);
    assert_string_equal(dir, want);
    assert_int_equal(tide_ns_user_paths(sock, sizeof sock, lock, sizeof lock, 0, err, sizeof err), 0);
    assert_non_null(strstr(sock, "/ud/ns.sock"));
    assert_non_null(strstr(lock, "/ud/ns.lock"));
    /* a directory others can enter is refused */
    chmod(want, 0755);
    assert_int_equal(tide_ns_user_dir(dir, sizeof dir, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "0700"));
    rmdir(want);
    /* a socket path too long for sockaddr_un */
    snprintf(want, sizeof want, "%s/%0120d", tmpdir, 0);
    setenv("TIDE_NS_DIR", want, 1);
    assert_int_equal(tide_ns_user_paths(sock, sizeof sock, lock, sizeof lock, 1, err, sizeof err), -1);
    rmdir(want);
    unsetenv("TIDE_NS_DIR");
    /* the default place: XDG_RUNTIME_DIR only when private, else in the
     * home (never a name in /tmp another user can make first) */
    char xdg[200], home[200];
    snprintf(xdg, sizeof xdg, "%s/xdg", tmpdir);
    snprintf(home, sizeof home, "%s/home", tmpdir);
    mkdir(xdg, 0700);
    chmod(xdg, 0777);
    mkdir(home, 0755);
    chmod(home, 0755);
    const char *old_home = getenv("HOME");
    char saved_home[4096];
    snprintf(saved_home, sizeof saved_home, "%s", old_home ? old_home : "");
    setenv("XDG_RUNTIME_DIR", xdg, 1);
    setenv("HOME", home, 1);
    errno = 0;
    assert_int_equal(tide_ns_user_dir(dir, sizeof dir, 0, err, sizeof err), -1);
    assert_int_equal(errno, ENOENT); /* nothing listens yet */
    assert_int_equal(tide_ns_user_dir(dir, sizeof dir, 1, err, sizeof err), 0);
    snprintf(want, sizeof want, "%s/.tide/ns-", home);
    assert_int_equal(strncmp(dir, want, strlen(want)), 0);
    struct stat st;
    assert_int_equal(lstat(dir, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(st.st_mode & 0777, 0700);
    rmdir(dir);
    /* a .tide open to others is refused, not used */
    snprintf(want, sizeof want, "%s/.tide", home);
    chmod(want, 0755);
    assert_int_equal(tide_ns_user_dir(dir, sizeof dir, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "0700"));
    rmdir(want);
    /* a private XDG_RUNTIME_DIR is preferred */
    chmod(xdg, 0700);
    assert_int_equal(tide_ns_user_dir(dir, sizeof dir, 1, err, sizeof err), 0);
    snprintf(want, sizeof want, "%s/tide", xdg);
    assert_string_equal(dir, want);
    rmdir(want);
    rmdir(xdg);
    rmdir(home);
    unsetenv("XDG_RUNTIME_DIR");
    if (saved_home[0])
        setenv("HOME", saved_home, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_truncated_and_trailing),
        cmocka_unit_test(test_corrupted),
        cmocka_unit_test(test_unknown_type),
        cmocka_unit_test(test_bad_lengths),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_macs),
        cmocka_unit_test(test_creds),
        cmocka_unit_test(test_hex),
        cmocka_unit_test(test_uri),
        cmocka_unit_test_setup_teardown(test_files, setup_tmp, teardown_tmp),
        cmocka_unit_test_setup_teardown(test_user_dir, setup_tmp, teardown_tmp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
