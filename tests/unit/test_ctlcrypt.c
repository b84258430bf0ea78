/*
 * test_ctlcrypt.c: the sealed records of links (common/ctlcrypt.c) and a
 * sealed channel (common/channel.c): a record round-trips and hides its
 * content; a record tampered with (length, ciphertext or tag), replayed,
 * reordered, reflected back to its sender, or sealed with other keys is
 * refused and leaves the link unusable; a sealed channel delivers frames
 * both ways and closes on a record that fails.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>
#include <cmocka.h>

#include <event2/event.h>

#include "channel.h"
#include "ctlcrypt.h"
#include "wire.h"

static const uint8_t secret[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                   17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
static const uint8_t transcript[] = "nonce-l nonce-d node";
static const char marker[] = "tide.usecret: a secret payload";

struct pair {
    struct tide_ctlcrypt *a, *b; /* initiator, responder */
};

static void make_pair(struct pair *p)
{
    p->a = tide_ctlcrypt_new(secret, sizeof secret, transcript, sizeof transcript, "test", TIDE_CRYPT_INITIATOR);
    p->b = tide_ctlcrypt_new(secret, sizeof secret, transcript, sizeof transcript, "test", TIDE_CRYPT_RESPONDER);
    assert_non_null(p->a);
    assert_non_null(p->b);
}

static void free_pair(struct pair *p)
{
    tide_ctlcrypt_free(p->a);
    tide_ctlcrypt_free(p->b);
}

static size_t seal(struct tide_ctlcrypt *c, const void *msg, size_t len, uint8_t *rec)
{
    size_t n = tide_ctlcrypt_seal(c, msg, len, rec);
    assert_int_equal(n, len + TIDE_CRYPT_OVERHEAD);
    return n;
}

static void test_round_trip(void **state)
{
    (void)state;
    struct pair p;
    make_pair(&p);
    uint8_t rec[256], back[256];
    for (int i = 0; i < 5; i++) {
        size_t n = seal(p.a, marker, sizeof marker, rec);
        assert_null(memmem(rec, n, "usecret", 7));
        size_t len;
        assert_int_equal(tide_ctlcrypt_record_len(rec, 1000, &len), 0);
        assert_int_equal(len, sizeof marker);
        assert_int_equal(tide_ctlcrypt_open(p.b, rec, n, back), 0);
        assert_memory_equal(back, marker, sizeof marker);
        /* and the other way */
        n = seal(p.b, marker, sizeof marker, rec);
        assert_int_equal(tide_ctlcrypt_open(p.a, rec, n, back), 0);
        assert_memory_equal(back, marker, sizeof marker);
    }
    /* the same message twice does not look the same */
    uint8_t rec2[256];
    seal(p.a, marker, sizeof marker, rec);
    seal(p.a, marker, sizeof marker, rec2);
    assert_memory_not_equal(rec + TIDE_CRYPT_HEADER, rec2 + TIDE_CRYPT_HEADER, sizeof marker);
    assert_int_equal(tide_ctlcrypt_open(p.b, rec, sizeof marker + TIDE_CRYPT_OVERHEAD, back), 0);
    assert_int_equal(tide_ctlcrypt_open(p.b, rec2, sizeof marker + TIDE_CRYPT_OVERHEAD, back), 0);
    /* gathered pieces and an empty record */
    struct iovec v[3] = {{(void *)marker, 4}, {NULL, 0}, {(void *)(marker + 4), sizeof marker - 4}};
    assert_int_equal(tide_ctlcrypt_sealv(p.a, v, 3, rec), sizeof marker + TIDE_CRYPT_OVERHEAD);
    assert_int_equal(tide_ctlcrypt_open(p.b, rec, sizeof marker + TIDE_CRYPT_OVERHEAD, back), 0);
    assert_memory_equal(back, marker, sizeof marker);
    assert_int_equal(tide_ctlcrypt_seal(p.a, NULL, 0, rec), TIDE_CRYPT_OVERHEAD);
    assert_int_equal(tide_ctlcrypt_open(p.b, rec, TIDE_CRYPT_OVERHEAD, back), 0);
    assert_true(tide_ctlcrypt_usable(p.a) && tide_ctlcrypt_usable(p.b));
    free_pair(&p);
}

/* Flipping any bit of a record (its length, ciphertext or tag) fails it,
 * and the link stays failed even for the genuine record afterwards. */
static void test_tampered_record_is_refused(void **state)
{
    (void)state;
    uint8_t rec[256], bad[256], back[256];
    size_t n = 0;
    size_t where[] = {0, TIDE_CRYPT_HEADER, TIDE_CRYPT_HEADER + 10, sizeof marker + TIDE_CRYPT_OVERHEAD - 1};
    for (size_t i = 0; i < sizeof where / sizeof *where; i++) {
        struct pair p;
        make_pair(&p);
        n = seal(p.a, marker, sizeof marker, rec);
        memcpy(bad, rec, n);
        bad[where[i]] ^= 0x01;
        assert_int_equal(tide_ctlcrypt_open(p.b, bad, n, back), -1);
        assert_false(tide_ctlcrypt_usable(p.b));
        assert_int_equal(tide_ctlcrypt_open(p.b, rec, n, back), -1);
        free_pair(&p);
    }
    /* a record cut short */
    struct pair p;
    make_pair(&p);
    n = seal(p.a, marker, sizeof marker, rec);
    assert_int_equal(tide_ctlcrypt_open(p.b, rec, n - 1, back), -1);
    free_pair(&p);
}

static void test_replayed_record_is_refused(void **state)
{
    (void)state;
    struct pair p;
    make_pair(&p);
    uint8_t rec[256], back[256];
    size_t n = seal(p.a, marker, sizeof marker, rec);
    assert_int_equal(tide_ctlcrypt_open(p.b, rec, n, back), 0);
    assert_int_equal(tide_ctlcrypt_open(p.b, rec, n, back), -1);
    assert_false(tide_ctlcrypt_usable(p.b));
    free_pair(&p);
}

static void test_reordered_record_is_refused(void **state)
{
    (void)state;
    struct pair p;
    make_pair(&p);
    uint8_t r1[256], r2[256], back[256];
    size_t n1 = seal(p.a, "first", 5, r1);
    size_t n2 = seal(p.a, "second", 6, r2);
    assert_int_equal(tide_ctlcrypt_open(p.b, r2, n2, back), -1);
    free_pair(&p);
    /* a dropped record is the same: the next one is refused */
    make_pair(&p);
    seal(p.a, "first", 5, r1);
    n2 = seal(p.a, "second", 6, r2);
    assert_int_equal(tide_ctlcrypt_open(p.b, r2, n2, back), -1);
    (void)n1;
    free_pair(&p);
}

/* A record sent back to its sender (the other direction's key). */
static void test_reflected_record_is_refused(void **state)
{
    (void)state;
    struct pair p;
    make_pair(&p);
    uint8_t rec[256], back[256];
    size_t n = seal(p.a, marker, sizeof marker, rec);
    assert_int_equal(tide_ctlcrypt_open(p.a, rec, n, back), -1);
    free_pair(&p);
}

static void test_wrong_key_is_refused(void **state)
{
    (void)state;
    uint8_t other[32];
    memcpy(other, secret, sizeof other);
    other[31] ^= 0x80;
    static const uint8_t other_transcript[] = "nonce-l nonce-X node";
    struct {
        const uint8_t *secret, *transcript;
        size_t tlen;
        const char *label;
    } wrong[] = {
        {other, transcript, sizeof transcript, "test"},
        {secret, other_transcript, sizeof other_transcript, "test"},
        {secret, transcript, sizeof transcript, "other link"},
    };
    for (size_t i = 0; i < sizeof wrong / sizeof *wrong; i++) {
        struct tide_ctlcrypt *a =
            tide_ctlcrypt_new(secret, sizeof secret, transcript, sizeof transcript, "test", TIDE_CRYPT_INITIATOR);
        struct tide_ctlcrypt *b = tide_ctlcrypt_new(wrong[i].secret, 32, wrong[i].transcript, wrong[i].tlen,
                                                    wrong[i].label, TIDE_CRYPT_RESPONDER);
        uint8_t rec[256], back[256];
        size_t n = seal(a, marker, sizeof marker, rec);
        assert_int_equal(tide_ctlcrypt_open(b, rec, n, back), -1);
        tide_ctlcrypt_free(a);
        tide_ctlcrypt_free(b);
    }
}

static void test_bad_lengths(void **state)
{
    (void)state;
    uint8_t hdr[TIDE_CRYPT_HEADER] = {0xff, 0xff, 0xff, 0xff};
    size_t len;
    assert_int_equal(tide_ctlcrypt_record_len(hdr, 1u << 30, &len), -1);
    uint8_t small[TIDE_CRYPT_HEADER] = {100, 0, 0, 0};
    assert_int_equal(tide_ctlcrypt_record_len(small, 99, &len), -1);
    assert_int_equal(tide_ctlcrypt_record_len(small, 100, &len), 0);
    assert_int_equal(len, 100);
    struct pair p;
    make_pair(&p);
    uint8_t back[16];
    assert_int_equal(tide_ctlcrypt_open(p.b, small, sizeof small, back), -1);
    free_pair(&p);
}

/* ---- a sealed channel over a socketpair ---- */

struct chan_state {
    int got;
    char text[128];
    bool closed;
    char why[128];
};

static void on_msg(struct tide_channel *ch, uint16_t type, struct tide_rbuf *r, void *arg)
{
    (void)ch;
    struct chan_state *s = arg;
    char *t = tide_wire_get_str(r);
    if (type == 7 && t) {
        snprintf(s->text, sizeof s->text, "%s", t);
        s->got++;
    }
    free(t);
}

static void on_close(struct tide_channel *ch, const char *why, void *arg)
{
    (void)ch;
    struct chan_state *s = arg;
    s->closed = true;
    snprintf(s->why, sizeof s->why, "%s", why);
}

static void spin(struct event_base *base)
{
    for (int i = 0; i < 20; i++)
        event_base_loop(base, EVLOOP_NONBLOCK);
}

static void send_text(struct tide_channel *ch, const char *text)
{
    struct tide_wbuf w;
    tide_wire_begin(&w, 7);
    tide_wire_put_str(&w, text);
    assert_int_equal(tide_channel_send(ch, &w), 0);
}

static void test_sealed_channel(void **state)
{
    (void)state;
    struct event_base *base = event_base_new();
    int sv[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    struct pair p;
    make_pair(&p);
    struct chan_state sa = {0}, sb = {0};
    struct tide_channel *a = tide_channel_new_sealed(base, sv[0], p.a, on_msg, on_close, &sa, "a");
    struct tide_channel *b = tide_channel_new_sealed(base, sv[1], p.b, on_msg, on_close, &sb, "b");
    assert_non_null(a);
    assert_non_null(b);
    send_text(a, marker);
    send_text(b, "back");
    send_text(a, "again");
    spin(base);
    assert_int_equal(sb.got, 2);
    assert_string_equal(sb.text, "again");
    assert_int_equal(sa.got, 1);
    assert_string_equal(sa.text, "back");
    /* an injected record (a plain frame, or garbage) closes the channel */
    static const uint8_t junk[40] = {20, 0, 0, 0, 'T', 'I', 'D', 'E'};
    assert_int_equal(write(tide_channel_fd(a), junk, sizeof junk), (ssize_t)sizeof junk);
    spin(base);
    assert_true(sb.closed);
    assert_string_equal(sb.why, "record failed authentication");
    assert_int_equal(sb.got, 2);
    tide_channel_free(a);
    tide_channel_free(b);
    event_base_free(base);
}

/* What a sealed channel writes holds nothing of the frame in clear. */
static void test_sealed_channel_hides_content(void **state)
{
    (void)state;
    struct event_base *base = event_base_new();
    int sv[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    struct pair p;
    make_pair(&p);
    struct chan_state sa = {0};
    struct tide_channel *a = tide_channel_new_sealed(base, sv[0], p.a, on_msg, on_close, &sa, "a");
    send_text(a, marker);
    spin(base);
    uint8_t buf[512];
    ssize_t n = read(sv[1], buf, sizeof buf);
    assert_true(n > 0);
    assert_null(memmem(buf, (size_t)n, "usecret", 7));
    assert_null(memmem(buf, (size_t)n, "TIDE", 4));
    size_t len;
    assert_int_equal(tide_ctlcrypt_record_len(buf, 1000, &len), 0);
    assert_int_equal((size_t)n, len + TIDE_CRYPT_OVERHEAD);
    uint8_t plain[512];
    assert_int_equal(tide_ctlcrypt_open(p.b, buf, (size_t)n, plain), 0);
    assert_non_null(memmem(plain, len, "usecret", 7));
    tide_channel_free(a);
    tide_ctlcrypt_free(p.b);
    close(sv[1]);
    event_base_free(base);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_tampered_record_is_refused),
        cmocka_unit_test(test_replayed_record_is_refused),
        cmocka_unit_test(test_reordered_record_is_refused),
        cmocka_unit_test(test_reflected_record_is_refused),
        cmocka_unit_test(test_wrong_key_is_refused),
        cmocka_unit_test(test_bad_lengths),
        cmocka_unit_test(test_sealed_channel),
        cmocka_unit_test(test_sealed_channel_hides_content),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
