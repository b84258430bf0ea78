/*
 * test_ctlauth.c: authentication of control links (common/ctlauth.c and
 * common/ctllisten.c): a daemon holding the secret is handed over with the
 * node it proved; a wrong secret, a forged answer, garbage, a peer that
 * says nothing and a flood of silent peers are dropped, and none of them
 * is handed over; the daemon's side refuses a listener without the secret.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <event2/event.h>
#include <event2/thread.h>

#include "ctlauth.h"
#include "ctlcrypt.h"
#include "ctllisten.h"

static uint8_t secret[TIDE_CTL_SECRET_LEN];
static int accepted_node = -1, accepted_count;
static struct tide_ctlcrypt *accepted_keys; /* the listener's end of the last link */

static int on_link(int fd, uint32_t node, struct tide_ctlcrypt *crypt, void *arg)
{
    (void)arg;
    accepted_node = (int)node;
    accepted_count++;
    close(fd);
    tide_ctlcrypt_free(accepted_keys);
    accepted_keys = crypt;
    return 0;
}

static int port_of(struct tide_ctllisten *l)
{
    const char *a = tide_ctllisten_addresses(l);
    const char *colon = strrchr(a, ':');
    return colon ? atoi(colon + 1) : -1;
}

static int dial(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    return fd;
}

struct client {
    int port;
    uint8_t key[TIDE_CTL_SECRET_LEN];
    uint32_t node;
    int rc;
    struct tide_ctlcrypt *keys;
    char err[256];
    volatile bool done;
};

static void *client_main(void *arg)
{
    struct client *c = arg;
    int fd = dial(c->port);
    c->rc = tide_ctlauth_connect(fd, c->key, c->node, 5000, &c->keys, c->err, sizeof c->err);
    close(fd);
    c->done = true;
    return NULL;
}

/* Run the loop until cond() or about `ms` milliseconds. */
static void loop_until(struct event_base *base, bool (*cond)(void *), void *arg, int ms)
{
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        if (cond && cond(arg))
            return;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 > ms)
            return;
        struct timeval tv = {0, 20000};
        event_base_loopexit(base, &tv);
        event_base_dispatch(base);
    }
}

static bool client_done(void *arg)
{
    return ((struct client *)arg)->done;
}

static struct tide_ctllisten *make(struct event_base *base, int timeout_s, int max_pending)
{
    char err[256];
    struct tide_ctllisten *l =
        tide_ctllisten_new(base, secret, "lo", timeout_s, max_pending, on_link, NULL, err, sizeof err);
    assert_non_null(l);
    assert_true(port_of(l) > 0);
    return l;
}

static void run_client(struct event_base *base, struct client *c)
{
    pthread_t t;
    pthread_create(&t, NULL, client_main, c);
    loop_until(base, client_done, c, 8000);
    pthread_join(t, NULL);
}

static void test_right_secret_is_handed_over(void **state)
{
    (void)state;
    struct event_base *base = event_base_new();
    struct tide_ctllisten *l = make(base, 3, 8);
    struct client c = {.port = port_of(l), .node = 5};
    memcpy(c.key, secret, sizeof secret);
    accepted_count = 0;
    accepted_node = -1;
    run_client(base, &c);
    assert_int_equal(c.rc, 0);
    assert_int_equal(accepted_count, 1);
    assert_int_equal(accepted_node, 5);
    assert_int_equal(tide_ctllisten_rejected(l), 0);
    /* both ends hold the same keys, one per direction */
    assert_non_null(c.keys);
    assert_non_null(accepted_keys);
    static const uint8_t msg[] = "HELLO node 5";
    uint8_t rec[sizeof msg + TIDE_CRYPT_OVERHEAD], back[sizeof msg];
    assert_int_equal(tide_ctlcrypt_seal(c.keys, msg, sizeof msg, rec), sizeof rec);
    assert_null(memmem(rec, sizeof rec, "HELLO", 5));
    assert_int_equal(tide_ctlcrypt_open(accepted_keys, rec, sizeof rec, back), 0);
    assert_memory_equal(back, msg, sizeof msg);
    assert_int_equal(tide_ctlcrypt_seal(accepted_keys, msg, sizeof msg, rec), sizeof rec);
    assert_int_equal(tide_ctlcrypt_open(c.keys, rec, sizeof rec, back), 0);
    tide_ctlcrypt_free(c.keys);
    tide_ctlcrypt_free(accepted_keys);
    accepted_keys = NULL;
    tide_ctllisten_free(l);
    event_base_free(base);
}

static void test_wrong_secret_is_dropped(void **state)
{
    (void)state;
    struct event_base *base = event_base_new();
    struct tide_ctllisten *l = make(base, 3, 8);
    struct client c = {.port = port_of(l), .node = 1};
    memcpy(c.key, secret, sizeof secret);
    c.key[7] ^= 1;
    accepted_count = 0;
    run_client(base, &c);
    assert_int_equal(c.rc, -1);
    assert_int_equal(accepted_count, 0);
    assert_int_equal(tide_ctllisten_rejected(l), 1);
    tide_ctllisten_free(l);
    event_base_free(base);
}

static bool rejected_at_least(void *arg)
{
    void **a = arg;
    return tide_ctllisten_rejected(a[0]) >= (unsigned long)(uintptr_t)a[1];
}

static void test_garbage_and_replay_are_dropped(void **state)
{
    (void)state;
    struct event_base *base = event_base_new();
    struct tide_ctllisten *l = make(base, 3, 8);
    accepted_count = 0;
    /* garbage of the answer's length */
    int fd = dial(port_of(l));
    uint8_t junk[TIDE_CTLAUTH_ANSWER_LEN];
    memset(junk, 'A', sizeof junk);
    assert_int_equal(write(fd, junk, sizeof junk), (ssize_t)sizeof junk);
    void *arg[2] = {l, (void *)(uintptr_t)1};
    loop_until(base, rejected_at_least, arg, 5000);
    assert_int_equal(tide_ctllisten_rejected(l), 1);
    close(fd);
    /* a correct answer to another challenge (a replay) */
    uint8_t chal[TIDE_CTLAUTH_CHALLENGE_LEN], nonce[TIDE_CTLAUTH_NONCE];
    assert_int_equal(tide_ctlauth_challenge(chal, nonce), 0);
    fd = dial(port_of(l));
    uint8_t answer[TIDE_CTLAUTH_ANSWER_LEN];
    memcpy(answer, "TIDECTL1", 8);
    memset(answer + 8, 0x11, sizeof answer - 8);
    assert_int_equal(write(fd, answer, sizeof answer), (ssize_t)sizeof answer);
    arg[1] = (void *)(uintptr_t)2;
    loop_until(base, rejected_at_least, arg, 5000);
    assert_int_equal(tide_ctllisten_rejected(l), 2);
    assert_int_equal(accepted_count, 0);
    close(fd);
    tide_ctllisten_free(l);
    event_base_free(base);
}

static void test_silent_peer_times_out(void **state)
{
    (void)state;
    struct event_base *base = event_base_new();
    struct tide_ctllisten *l = make(base, 1, 8);
    int fd = dial(port_of(l));
    void *arg[2] = {l, (void *)(uintptr_t)1};
    loop_until(base, rejected_at_least, arg, 5000);
    assert_int_equal(tide_ctllisten_rejected(l), 1);
    /* the listener hung up: we read the challenge, then end of stream */
    uint8_t buf[64];
    ssize_t n = read(fd, buf, sizeof buf);
    assert_int_equal(n, TIDE_CTLAUTH_CHALLENGE_LEN);
    assert_int_equal(read(fd, buf, sizeof buf), 0);
    close(fd);
    tide_ctllisten_free(l);
    event_base_free(base);
}

static void test_pending_peers_are_capped(void **state)
{
    (void)state;
    struct event_base *base = event_base_new();
    struct tide_ctllisten *l = make(base, 30, 2);
    int fds[5];
    for (int i = 0; i < 5; i++)
        fds[i] = dial(port_of(l));
    void *arg[2] = {l, (void *)(uintptr_t)3};
    loop_until(base, rejected_at_least, arg, 5000);
    assert_int_equal(tide_ctllisten_rejected(l), 3);
    /* a real daemon still gets in */
    struct client c = {.port = port_of(l), .node = 2};
    memcpy(c.key, secret, sizeof secret);
    accepted_count = 0;
    run_client(base, &c);
    assert_int_equal(c.rc, 0);
    assert_int_equal(accepted_count, 1);
    tide_ctlcrypt_free(c.keys);
    tide_ctlcrypt_free(accepted_keys);
    accepted_keys = NULL;
    for (int i = 0; i < 5; i++)
        close(fds[i]);
    tide_ctllisten_free(l);
    event_base_free(base);
}

/* A listener without the secret: the daemon refuses it. */
static void test_daemon_refuses_fake_listener(void **state)
{
    (void)state;
    int sv[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    uint8_t chal[TIDE_CTLAUTH_CHALLENGE_LEN], nonce[TIDE_CTLAUTH_NONCE];
    assert_int_equal(tide_ctlauth_challenge(chal, nonce), 0);
    assert_int_equal(write(sv[0], chal, sizeof chal), (ssize_t)sizeof chal);
    uint8_t fake_proof[TIDE_CTLAUTH_PROOF_LEN];
    memset(fake_proof, 0x42, sizeof fake_proof);
    assert_int_equal(write(sv[0], fake_proof, sizeof fake_proof), (ssize_t)sizeof fake_proof);
    char err[256];
    struct tide_ctlcrypt *keys;
    assert_int_equal(tide_ctlauth_connect(sv[1], secret, 3, 2000, &keys, err, sizeof err), -1);
    assert_null(keys);
    assert_non_null(strstr(err, "secret"));
    close(sv[0]);
    close(sv[1]);
}

static void test_hex_roundtrip(void **state)
{
    (void)state;
    char hex[2 * TIDE_CTL_SECRET_LEN + 1];
    uint8_t back[TIDE_CTL_SECRET_LEN];
    tide_ctlauth_hex(secret, hex);
    assert_int_equal(tide_ctlauth_unhex(hex, back), 0);
    assert_memory_equal(back, secret, sizeof back);
    assert_int_equal(tide_ctlauth_unhex("abc", back), -1);
    hex[5] = 'z';
    assert_int_equal(tide_ctlauth_unhex(hex, back), -1);
}

int main(void)
{
    evthread_use_pthreads();
    tide_ctlauth_random(secret, sizeof secret);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_right_secret_is_handed_over),
        cmocka_unit_test(test_wrong_secret_is_dropped),
        cmocka_unit_test(test_garbage_and_replay_are_dropped),
        cmocka_unit_test(test_silent_peer_times_out),
        cmocka_unit_test(test_pending_peers_are_capped),
        cmocka_unit_test(test_daemon_refuses_fake_listener),
        cmocka_unit_test(test_hex_roundtrip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
