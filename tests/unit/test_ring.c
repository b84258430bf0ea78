/*
 * test_ring.c: the shared-memory ring: order, wrap-around with skip
 * entries, full detection, stale data of earlier laps never read as new,
 * a consumer that writes nothing into the ring, and a producer and a
 * consumer thread moving a million messages; on a larger ring, the
 * producer going back to the lap's start whenever it finds the ring
 * empty past the rewind point, alone and with both threads at work.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <cmocka.h>

#include "transport/shm_ring.h"

#define SIZE 4096

struct ring {
    struct tide_ring_ctrl ctrl;
    _Alignas(64) uint8_t cells[SIZE];
    uint64_t payload_cells[SIZE / 64 / 64];
};

static void setup(struct ring *r, struct tide_ring_prod *p, struct tide_ring_cons *c)
{
    memset(r, 0, sizeof *r);
    tide_ring_prod_init(p, &r->ctrl, r->cells, SIZE, r->payload_cells);
    tide_ring_cons_init(c, &r->ctrl, r->cells, SIZE);
}

static int put(struct tide_ring_prod *p, uint32_t v, size_t len)
{
    uint8_t *d = tide_ring_reserve(p, len);
    if (!d)
        return -1;
    memset(d, (int)(v & 0xff), len);
    if (len >= 4)
        memcpy(d, &v, 4);
    tide_ring_commit(p, len);
    return 0;
}

static void test_order_and_wrap(void **state)
{
    (void)state;
    struct ring *r = aligned_alloc(64, sizeof *r);
    struct tide_ring_prod p;
    struct tide_ring_cons c;
    setup(r, &p, &c);
    size_t len = 0;
    assert_null(tide_ring_peek(&c, &len));
    uint32_t next_put = 0, next_get = 0;
    /* many laps with odd sizes: forces skip entries at the end */
    for (int round = 0; round < 2000; round++) {
        size_t sz = 4 + (size_t)(round * 37) % 900;
        while (put(&p, next_put, sz) == 0)
            next_put++;
        /* full: consume a few, then more fit */
        int k = 1 + round % 5;
        while (k-- > 0) {
            const uint8_t *m = tide_ring_peek(&c, &len);
            if (!m) { /* fewer entries than that fit: all consumed */
                assert_int_equal(next_get, next_put);
                break;
            }
            uint32_t v;
            memcpy(&v, m, 4);
            assert_int_equal(v, next_get);
            for (size_t i = 4; i < len; i++)
                assert_int_equal(m[i], (uint8_t)(v & 0xff));
            tide_ring_release(&c, len, 0);
            next_get++;
        }
    }
    while (tide_ring_peek(&c, &len)) {
        uint32_t v;
        memcpy(&v, tide_ring_peek(&c, &len), 4);
        assert_int_equal(v, next_get++);
        tide_ring_release(&c, len, 0);
    }
    assert_int_equal(next_get, next_put);
    /* a drained ring publishes its head: the producer sees all the room */
    assert_int_equal(atomic_load(&r->ctrl.head), c.head);
    free(r);
}

static void test_full_and_empty(void **state)
{
    (void)state;
    struct ring *r = aligned_alloc(64, sizeof *r);
    struct tide_ring_prod p;
    struct tide_ring_cons c;
    setup(r, &p, &c);
    int n = 0;
    while (put(&p, (uint32_t)n, 56) == 0) /* one cell each */
        n++;
    assert_int_equal(n, SIZE / 64); /* every cell can hold an entry */
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        assert_non_null(tide_ring_peek(&c, &len));
        assert_int_equal(len, 56);
        tide_ring_release(&c, len, 0);
    }
    assert_null(tide_ring_peek(&c, &len));
    assert_int_equal(put(&p, 1, 56), 0);
    free(r);
}

static void test_stale_laps(void **state)
{
    (void)state;
    struct ring *r = aligned_alloc(64, sizeof *r);
    struct tide_ring_prod p;
    struct tide_ring_cons c;
    setup(r, &p, &c);
    size_t len = 0;
    /* fill and drain one lap; the old words stay in memory */
    for (int i = 0; i < SIZE / 64; i++)
        assert_int_equal(put(&p, (uint32_t)i, 56), 0);
    for (int i = 0; i < SIZE / 64; i++) {
        assert_non_null(tide_ring_peek(&c, &len));
        tide_ring_release(&c, len, 0);
    }
    /* nothing new: the old lap's entries must not look valid */
    assert_null(tide_ring_peek(&c, &len));
    assert_int_equal(put(&p, 99, 56), 0);
    const uint8_t *m = tide_ring_peek(&c, &len);
    assert_non_null(m);
    uint32_t v;
    memcpy(&v, m, 4);
    assert_int_equal(v, 99);
    tide_ring_release(&c, len, 0);
    assert_null(tide_ring_peek(&c, &len));
    free(r);
}

/* Payloads full of words that would be valid entry words of the next laps
 * (the worst a user's data can hold): entries of later laps start inside
 * them, and none of it may ever be taken for an entry. */
static int put_forged(struct tide_ring_prod *p, uint32_t v, size_t len)
{
    uint8_t *d = tide_ring_reserve(p, len);
    if (!d)
        return -1;
    uint64_t lap = (p->tail >> p->shift) + 1;
    for (size_t i = 0; i + 8 <= len; i += 8) {
        uint64_t forged = ((lap + 1 + (i / 8) % 3) << TIDE_RING_LEN_BITS) | (uint64_t)(8 + (i % 200));
        memcpy(d + i, &forged, 8);
    }
    memcpy(d, &v, 4);
    tide_ring_commit(p, len);
    return 0;
}

static void test_forged_payloads(void **state)
{
    (void)state;
    struct ring *r = aligned_alloc(64, sizeof *r);
    struct tide_ring_prod p;
    struct tide_ring_cons c;
    setup(r, &p, &c);
    size_t len = 0;
    uint32_t next_put = 0, next_get = 0;
    srand(7);
    for (int round = 0; round < 20000; round++) {
        /* a few in, a few out, sizes from one to several cells */
        int in = rand() % 4, out = rand() % 4;
        while (in-- > 0 && put_forged(&p, next_put, 8 + (size_t)(rand() % 700)) == 0)
            next_put++;
        while (out-- > 0) {
            const uint8_t *m = tide_ring_peek(&c, &len);
            if (next_get == next_put) {
                assert_null(m);
                break;
            }
            assert_non_null(m);
            uint32_t v;
            memcpy(&v, m, 4);
            assert_int_equal(v, next_get);
            tide_ring_release(&c, len, rand() % 2);
            next_get++;
        }
    }
    while (next_get < next_put) {
        const uint8_t *m = tide_ring_peek(&c, &len);
        assert_non_null(m);
        tide_ring_release(&c, len, 0);
        next_get++;
    }
    assert_null(tide_ring_peek(&c, &len));
    free(r);
}

/* The consumer reads the ring and writes nothing into it (so the
 * producer never has to take a line back from the consumer's cache). */
static void test_consumer_read_only(void **state)
{
    (void)state;
    struct ring *r = aligned_alloc(64, sizeof *r);
    static uint8_t before[SIZE];
    struct tide_ring_prod p;
    struct tide_ring_cons c;
    setup(r, &p, &c);
    size_t len = 0;
    uint32_t next_put = 0;
    for (int round = 0; round < 300; round++) {
        /* odd sizes: later laps start inside earlier payloads, and skips */
        while (put_forged(&p, next_put, 8 + (size_t)(round * 53 + next_put * 11) % 900) == 0)
            next_put++;
        memcpy(before, r->cells, SIZE);
        while (tide_ring_peek(&c, &len))
            tide_ring_release(&c, len, round % 2);
        assert_memory_equal(before, r->cells, SIZE);
    }
    free(r);
}

#define THREAD_MSGS 1000000
static struct ring *tr;

static void *producer(void *arg)
{
    (void)arg;
    struct tide_ring_prod p;
    tide_ring_prod_init(&p, &tr->ctrl, tr->cells, SIZE, tr->payload_cells);
    for (uint32_t i = 0; i < THREAD_MSGS; i++) {
        size_t sz = 4 + i % 200;
        while (put(&p, i, sz) != 0)
            ;
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    tr = aligned_alloc(64, sizeof *tr);
    memset(tr, 0, sizeof *tr);
    struct tide_ring_cons c;
    tide_ring_cons_init(&c, &tr->ctrl, tr->cells, SIZE);
    pthread_t t;
    pthread_create(&t, NULL, producer, NULL);
    for (uint32_t i = 0; i < THREAD_MSGS; i++) {
        size_t len = 0;
        const uint8_t *m;
        while (!(m = tide_ring_peek(&c, &len)))
            ;
        uint32_t v;
        memcpy(&v, m, 4);
        if (v != i || len != 4 + i % 200)
            fail_msg("message %u: got %u, %zu bytes", i, v, len);
        tide_ring_release(&c, len, 0);
    }
    pthread_join(t, NULL);
    free(tr);
}

/* ---- rewinding (a ring larger than the rewind point) ---- */

#define BIG (64 * 1024)

/* Take messages from..to-1 out of c, checking their order; the ring is
 * then empty. Returns to. */
static uint32_t drain_checked(struct tide_ring_cons *c, uint32_t from, uint32_t to)
{
    size_t len = 0;
    for (uint32_t k = from; k < to; k++) {
        const uint8_t *m = tide_ring_peek(c, &len);
        assert_non_null(m);
        uint32_t v;
        memcpy(&v, m, 4);
        assert_int_equal(v, k);
        tide_ring_release(c, len, 0);
    }
    assert_null(tide_ring_peek(c, &len));
    return to;
}

struct big_ring {
    struct tide_ring_ctrl ctrl;
    _Alignas(64) uint8_t cells[BIG];
    uint64_t payload_cells[BIG / 64 / 64];
};

/* One message at a time, of sizes up to several KiB, with forged
 * payloads: every message comes out in order, and the producer keeps to
 * the first part of the ring. An empty ring always takes a message; a
 * burst may find the ring full after a rewind (the skipped part is the
 * producer's again once the consumer has passed it) and then goes on
 * once the consumer has drained it. */
static void test_rewind(void **state)
{
    (void)state;
    struct big_ring *r = aligned_alloc(64, sizeof *r);
    memset(r, 0, sizeof *r);
    struct tide_ring_prod p;
    struct tide_ring_cons c;
    tide_ring_prod_init(&p, &r->ctrl, r->cells, BIG, r->payload_cells);
    tide_ring_cons_init(&c, &r->ctrl, r->cells, BIG);
    size_t far = 0;
    uint64_t laps_before = 0;
    srand(11);
    for (uint32_t i = 0; i < 200000; i++) {
        /* mostly one at a time; now and then a burst that goes further */
        int burst = rand() % 50 == 0 ? 1 + rand() % 4 : 1;
        uint32_t next_get = i;
        for (int b = 0; b < burst; b++, i++) {
            /* now and then longer than the rewind point: an empty ring
             * takes it all the same (not rewinding then) */
            size_t sz = 8 + (size_t)(rand() % (rand() % 8 ? 3000 : 7000));
            if (put_forged(&p, i, sz) != 0) {
                assert_true(b > 0); /* the ring was empty */
                next_get = drain_checked(&c, next_get, i);
                assert_int_equal(put_forged(&p, i, sz), 0);
            }
        }
        i--;
        drain_checked(&c, next_get, i + 1);
        if ((p.tail & p.mask) > TIDE_RING_REWIND + TIDE_RING_REWIND_EVERY + 4096)
            far++;
    }
    laps_before = p.tail >> p.shift;
    /* rewinds happened (each starts a lap), and one message at a time
     * rarely went past the rewind point by more than a message */
    assert_true(laps_before > 1000);
    assert_true(far < 20000);
    free(r);
}

#define REWIND_MSGS 1000000
static struct big_ring *br;

static void *bursty_producer(void *arg)
{
    (void)arg;
    struct tide_ring_prod p;
    tide_ring_prod_init(&p, &br->ctrl, br->cells, BIG, br->payload_cells);
    unsigned sizes = 5, waits = 9;
    for (uint32_t i = 0; i < REWIND_MSGS; i++) {
        size_t sz = 4 + (size_t)(rand_r(&sizes) % 2500);
        while (put(&p, i, sz) != 0)
            ;
        /* now and then let the consumer catch up, so the ring runs empty */
        if (rand_r(&waits) % 4 == 0)
            while (atomic_load_explicit(&br->ctrl.head, memory_order_acquire) != p.tail &&
                   rand_r(&waits) % 1000 != 0)
                ;
    }
    return NULL;
}

static void test_threads_rewind(void **state)
{
    (void)state;
    br = aligned_alloc(64, sizeof *br);
    memset(br, 0, sizeof *br);
    struct tide_ring_cons c;
    tide_ring_cons_init(&c, &br->ctrl, br->cells, BIG);
    pthread_t t;
    pthread_create(&t, NULL, bursty_producer, NULL);
    unsigned sizes = 5;
    for (uint32_t i = 0; i < REWIND_MSGS; i++) {
        size_t want = 4 + (size_t)(rand_r(&sizes) % 2500), len = 0;
        const uint8_t *m;
        while (!(m = tide_ring_peek(&c, &len)))
            ;
        uint32_t v;
        memcpy(&v, m, 4);
        if (v != i || len != want)
            fail_msg("message %u: got %u, %zu bytes (%zu expected)", i, v, len, want);
        tide_ring_release(&c, len, 0);
    }
    pthread_join(t, NULL);
    free(br);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_wrap),
        cmocka_unit_test(test_full_and_empty),
        cmocka_unit_test(test_stale_laps),
        cmocka_unit_test(test_forged_payloads),
        cmocka_unit_test(test_consumer_read_only),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_rewind),
        cmocka_unit_test(test_threads_rewind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
