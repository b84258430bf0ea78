/*
 * test_context.c: context ids (comm/context.c) without other processes:
 * the bitmap (reserve, release, fixed ids, counts, the old mask
 * interface), offers and their combination (commutative, associative,
 * an "anything" offer constrains nothing), picking and the next floor,
 * claims that keep agreements of one process apart (shared offers that a
 * lower key may take too, confirmations and their hold), the rounds of
 * one agreement (confirming, again from the same floor), and whole
 * agreements among simulated members (each member's bitmap installed in
 * turn) that must end on an id free at every member: identical members,
 * far-apart members, random ones, exhaustion, and a hundred thousand ids
 * in use. Also the agreement over a one-process communicator.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "runtime/api.h"
#include "runtime/errhandler.h"
#include "runtime/proc.h"
#include "comm/comm.h"
#include "comm/context.h"

#define NSLOTS (TIDE_CONTEXT_MAX / 2)

static int setup(void **state)
{
    (void)state;
    tide_errhandler_init();
    snprintf(tide.nspace, sizeof tide.nspace, "ctxjob");
    tide.rank = 0;
    tide.size = 1;
    tide.me = tide_proc_get("ctxjob", 0);
    if (tide_comm_init_predefined() != 0)
        return -1;
    tide_comm_world->errhandler = MPI_ERRORS_RETURN;
    tide.initialized = 1;
    return 0;
}

/* Back to: only the fixed ids used (and the predefined communicators'). */
static void reset(void)
{
    for (uint32_t s = TIDE_CONTEXT_FIXED_END / 2; s < NSLOTS; s++)
        tide_context_release(2 * s);
}

static void test_bitmap(void **state)
{
    (void)state;
    reset();
    unsigned base = tide_context_in_use();
    assert_int_equal(base, TIDE_CONTEXT_FIXED_END / 2);
    for (uint32_t id = 0; id < TIDE_CONTEXT_FIXED_END; id += 2)
        assert_false(tide_context_is_free(id));
    assert_true(tide_context_is_free(TIDE_CONTEXT_FIXED_END));
    tide_context_reserve(100);
    tide_context_reserve(100); /* twice counts once */
    assert_false(tide_context_is_free(100));
    assert_false(tide_context_is_free(101)); /* the odd id goes with it */
    assert_int_equal(tide_context_in_use(), base + 1);
    tide_context_release(100);
    tide_context_release(100);
    assert_true(tide_context_is_free(100));
    assert_int_equal(tide_context_in_use(), base);
    /* fixed ids are never released */
    tide_context_release(TIDE_CONTEXT_WORLD);
    tide_context_release(TIDE_CONTEXT_SELF);
    tide_context_release(4);
    assert_false(tide_context_is_free(TIDE_CONTEXT_WORLD));
    assert_false(tide_context_is_free(4));
    /* out of range */
    tide_context_reserve(TIDE_CONTEXT_MAX + 10);
    assert_false(tide_context_is_free(TIDE_CONTEXT_MAX + 10));
    assert_int_equal(tide_context_in_use(), base);
    /* the mask interface */
    uint64_t mask[4];
    tide_context_free_mask(mask, 4);
    assert_int_equal(tide_context_lowest(mask, 4), TIDE_CONTEXT_FIXED_END);
    tide_context_reserve(TIDE_CONTEXT_FIXED_END);
    tide_context_free_mask(mask, 4);
    assert_int_equal(tide_context_lowest(mask, 4), TIDE_CONTEXT_FIXED_END + 2);
    uint64_t zero[2] = {0, 0};
    assert_int_equal(tide_context_lowest(zero, 2), UINT32_MAX);
    reset();
}

static void test_offer_pick(void **state)
{
    (void)state;
    reset();
    struct tide_ctx_offer o;
    struct tide_ctx_claim cl;
    tide_context_claim_init(&cl, 10);
    tide_context_offer(0, &o, &cl);
    assert_int_equal(o.start, 0);
    assert_int_equal(o.any, 0);
    assert_int_equal(o.shared, 0); /* no other agreement registered */
    assert_int_equal(tide_context_pick(&o), TIDE_CONTEXT_FIXED_END);
    /* claimed: another agreement does not see those ids */
    uint64_t mask[1];
    tide_context_free_mask(mask, 1);
    assert_int_equal(mask[0], 0);
    /* another agreement meanwhile: it offers only unclaimed ids (the
     * first window is all claimed, so its offer starts after it), and
     * its offer is shared */
    struct tide_ctx_offer o2;
    struct tide_ctx_claim cl2;
    tide_context_claim_init(&cl2, 20);
    tide_context_offer(0, &o2, &cl2);
    assert_int_equal(o2.start, TIDE_CONTEXT_WINDOW);
    assert_int_equal(o2.shared, 1);
    uint32_t w2 = TIDE_CONTEXT_WINDOW * 64 * 2; /* the first id of that window */
    assert_int_equal(tide_context_pick(&o2), w2);
    /* a lower key: the first offer was not shared, so it stays out of
     * it; the second one's bits it offers as well */
    struct tide_ctx_offer o3;
    struct tide_ctx_claim cl3;
    tide_context_claim_init(&cl3, 5);
    tide_context_offer(0, &o3, &cl3);
    assert_int_equal(o3.start, TIDE_CONTEXT_WINDOW);
    assert_int_equal(tide_context_pick(&o3), w2);
    /* a higher key than both: past both claims */
    struct tide_ctx_offer o4;
    struct tide_ctx_claim cl4;
    tide_context_claim_init(&cl4, 30);
    tide_context_offer(3, &o4, &cl4);
    assert_int_equal(o4.start, 2 * TIDE_CONTEXT_WINDOW);
    tide_context_claim_end(&cl4);
    /* both find w2: the higher key's confirmation fails while the lower
     * one claims it, the lower one's succeeds and holds it */
    tide_context_offer_confirm(w2, &o2, &cl2);
    assert_int_equal(o2.start, w2 / 128);
    assert_int_equal(tide_context_pick(&o2), TIDE_CONTEXT_NONE);
    tide_context_offer_confirm(w2, &o3, &cl3);
    assert_int_equal(tide_context_pick(&o3), w2);
    /* held: the higher key's confirmation fails again, its next offer
     * leaves it out */
    tide_context_offer_confirm(w2, &o2, &cl2);
    assert_int_equal(tide_context_pick(&o2), TIDE_CONTEXT_NONE);
    tide_context_offer(0, &o2, &cl2);
    assert_int_equal(o2.start, TIDE_CONTEXT_WINDOW);
    assert_int_equal(tide_context_pick(&o2), w2 + 2);
    /* the hold keeps it from every other agreement */
    tide_context_unclaim(&cl2);
    uint64_t wm[TIDE_CONTEXT_WINDOW + 1];
    tide_context_free_mask(wm, TIDE_CONTEXT_WINDOW + 1);
    assert_int_equal(wm[TIDE_CONTEXT_WINDOW], ~1ull);
    /* a member whose window was claimed meets the others a round later:
     * the combined offer is empty and the next floor is its window; a
     * shared offer makes the combination shared */
    struct tide_ctx_offer acc;
    tide_context_offer_any(0, &acc);
    struct tide_ctx_offer other;
    memset(&other, 0, sizeof other);
    for (int j = 0; j < TIDE_CONTEXT_WINDOW; j++)
        other.mask[j] = ~0ull;
    tide_context_combine(&acc, &other);
    assert_int_equal(acc.shared, 0);
    tide_context_offer(0, &o2, &cl2);
    tide_context_combine(&acc, &o2);
    assert_int_equal(acc.shared, 1);
    assert_int_equal(tide_context_pick(&acc), TIDE_CONTEXT_NONE);
    assert_int_equal(tide_context_next_floor(&acc, 0), TIDE_CONTEXT_WINDOW);
    /* claims given back: the low ids are offered again, not shared when
     * the agreement is alone */
    tide_context_claim_end(&cl3);
    tide_context_claim_end(&cl2);
    tide_context_unclaim(&cl);
    tide_context_offer(0, &o2, &cl);
    assert_int_equal(o2.start, 0);
    assert_int_equal(o2.shared, 0);
    assert_int_equal(tide_context_pick(&o2), TIDE_CONTEXT_FIXED_END);
    tide_context_unclaim(&cl);
    tide_context_free_mask(mask, 1);
    assert_int_equal(tide_context_lowest(mask, 1), TIDE_CONTEXT_FIXED_END);
    /* a floor above the low free ids */
    tide_context_offer(5, &o, &cl);
    assert_int_equal(o.start, 5);
    assert_int_equal(tide_context_pick(&o), 5 * 64 * 2);
    tide_context_unclaim(&cl);
    /* full words are skipped */
    for (uint32_t s = 0; s < 64 * 3; s++)
        tide_context_reserve(2 * s);
    tide_context_offer(0, &o, &cl);
    assert_int_equal(o.start, 3);
    assert_int_equal(tide_context_pick(&o), 3 * 64 * 2);
    tide_context_unclaim(&cl);
    /* releasing a low id brings the window back */
    tide_context_release(2 * 70);
    tide_context_offer(0, &o, &cl);
    assert_int_equal(o.start, 1);
    assert_int_equal(tide_context_pick(&o), 2 * 70);
    tide_context_unclaim(&cl);
    /* "anything" */
    struct tide_ctx_offer any;
    tide_context_offer_any(7, &any);
    assert_int_equal(any.any, 1);
    assert_int_equal(tide_context_pick(&any), 7 * 64 * 2);
    tide_context_claim_end(&cl);
    reset();
}

/* The rounds of one agreement as its members see them. */
static void test_agreement_rounds(void **state)
{
    (void)state;
    reset();
    struct tide_ctx_agreement a;
    struct tide_ctx_offer o, acc;
    uint32_t id, floor_word;
    /* alone: one round, the id reserved */
    tide_ctx_agreement_begin(&a, tide_ctx_key(100, 1), true);
    tide_ctx_agreement_offer(&a, &o);
    assert_int_equal(o.shared, 0);
    assert_int_equal(tide_ctx_agreement_outcome(&a, &o, &id, &floor_word), TIDE_CTX_DONE);
    assert_int_equal(tide_ctx_agreement_next(&a, TIDE_CTX_DONE, id, floor_word), TIDE_CTX_DONE);
    assert_int_equal(id, TIDE_CONTEXT_FIXED_END);
    assert_false(tide_context_is_free(id));
    /* another member's offer was shared: the id is confirmed first */
    tide_ctx_agreement_begin(&a, tide_ctx_key(100, 2), true);
    tide_ctx_agreement_offer(&a, &o);
    acc = o;
    acc.shared = 1;
    assert_int_equal(tide_ctx_agreement_outcome(&a, &acc, &id, &floor_word), TIDE_CTX_CONFIRM);
    assert_int_equal(id, TIDE_CONTEXT_FIXED_END + 2);
    tide_ctx_agreement_next(&a, TIDE_CTX_CONFIRM, id, floor_word);
    assert_true(tide_context_is_free(id));
    tide_ctx_agreement_offer(&a, &o);
    assert_int_equal(tide_context_pick(&o), id);
    /* not confirmed at another member: again from the same floor */
    acc = o;
    acc.mask[0] = 0;
    assert_int_equal(tide_ctx_agreement_outcome(&a, &acc, &id, &floor_word), TIDE_CTX_AGAIN);
    assert_int_equal(floor_word, 0);
    tide_ctx_agreement_next(&a, TIDE_CTX_AGAIN, id, floor_word);
    tide_ctx_agreement_offer(&a, &o);
    assert_int_equal(o.start, 0);
    assert_int_equal(tide_context_pick(&o), TIDE_CONTEXT_FIXED_END + 2);
    acc = o;
    acc.shared = 1;
    assert_int_equal(tide_ctx_agreement_outcome(&a, &acc, &id, &floor_word), TIDE_CTX_CONFIRM);
    tide_ctx_agreement_next(&a, TIDE_CTX_CONFIRM, id, floor_word);
    tide_ctx_agreement_offer(&a, &o);
    assert_int_equal(tide_ctx_agreement_outcome(&a, &o, &id, &floor_word), TIDE_CTX_DONE);
    tide_ctx_agreement_next(&a, TIDE_CTX_DONE, id, floor_word);
    assert_int_equal(id, TIDE_CONTEXT_FIXED_END + 2);
    assert_false(tide_context_is_free(id));
    /* nothing in common: the next floor */
    tide_ctx_agreement_begin(&a, tide_ctx_key(100, 3), true);
    tide_ctx_agreement_offer(&a, &o);
    memset(acc.mask, 0, sizeof acc.mask);
    acc.start = 0;
    acc.any = 0;
    acc.shared = 0;
    assert_int_equal(tide_ctx_agreement_outcome(&a, &acc, &id, &floor_word), TIDE_CTX_AGAIN);
    assert_int_equal(floor_word, TIDE_CONTEXT_WINDOW);
    tide_ctx_agreement_end(&a);
    /* a member that takes no part registers nothing */
    tide_ctx_agreement_begin(&a, tide_ctx_key(100, 4), false);
    tide_ctx_agreement_offer(&a, &o);
    assert_int_equal(o.any, 1);
    uint64_t mask[1];
    tide_context_free_mask(mask, 1);
    assert_int_equal(tide_context_lowest(mask, 1), TIDE_CONTEXT_FIXED_END + 4);
    tide_ctx_agreement_end(&a);
    reset();
}

static void make(struct tide_ctx_offer *o, uint32_t start, uint64_t fill)
{
    memset(o, 0, sizeof *o);
    o->start = start;
    for (int j = 0; j < TIDE_CONTEXT_WINDOW; j++)
        o->mask[j] = fill;
}

static bool same(const struct tide_ctx_offer *a, const struct tide_ctx_offer *b)
{
    return a->start == b->start && a->any == b->any && memcmp(a->mask, b->mask, sizeof a->mask) == 0;
}

static void test_combine(void **state)
{
    (void)state;
    struct tide_ctx_offer a, b, c, any;
    /* overlapping windows: the higher start, ANDed, unknown words empty */
    make(&a, 10, ~0ull);
    make(&b, 12, 0xf0ull);
    c = a;
    tide_context_combine(&c, &b);
    assert_int_equal(c.start, 12);
    for (int j = 0; j < TIDE_CONTEXT_WINDOW; j++)
        assert_int_equal(c.mask[j], j < TIDE_CONTEXT_WINDOW - 2 ? 0xf0ull : 0);
    assert_int_equal(tide_context_pick(&c), (12 * 64 + 4) * 2);
    /* disjoint windows: nothing; the next floor is the higher start */
    make(&b, 10 + TIDE_CONTEXT_WINDOW, ~0ull);
    c = a;
    tide_context_combine(&c, &b);
    assert_int_equal(tide_context_pick(&c), TIDE_CONTEXT_NONE);
    assert_int_equal(tide_context_next_floor(&c, 10), 10 + TIDE_CONTEXT_WINDOW);
    /* same window, nothing in common: the floor moves a window on */
    make(&a, 10, 0x0full);
    make(&b, 10, 0xf0ull);
    c = a;
    tide_context_combine(&c, &b);
    assert_int_equal(tide_context_pick(&c), TIDE_CONTEXT_NONE);
    assert_int_equal(tide_context_next_floor(&c, 10), 10 + TIDE_CONTEXT_WINDOW);
    assert_int_equal(tide_context_next_floor(&c, TIDE_CONTEXT_MASK_WORDS - 1), TIDE_CONTEXT_NONE);
    /* anything constrains nothing, from either side */
    tide_context_offer_any(0, &any);
    c = a;
    tide_context_combine(&c, &any);
    assert_true(same(&c, &a));
    c = any;
    tide_context_combine(&c, &a);
    assert_true(same(&c, &a));
    /* commutative and associative, on random offers */
    srand(12345);
    for (int t = 0; t < 2000; t++) {
        struct tide_ctx_offer v[3];
        for (int i = 0; i < 3; i++) {
            if (rand() % 7 == 0) {
                tide_context_offer_any((uint32_t)(rand() % 20), &v[i]);
                continue;
            }
            make(&v[i], (uint32_t)(rand() % 20), 0);
            for (int j = 0; j < TIDE_CONTEXT_WINDOW; j++)
                v[i].mask[j] = ((uint64_t)rand() << 33) ^ ((uint64_t)rand() << 11) ^ (uint64_t)rand();
        }
        struct tide_ctx_offer x = v[0], y = v[1];
        tide_context_combine(&x, &v[1]);
        tide_context_combine(&y, &v[0]);
        assert_true(same(&x, &y));
        struct tide_ctx_offer l = v[0], r = v[1];
        tide_context_combine(&l, &v[1]);
        tide_context_combine(&l, &v[2]); /* (0 1) 2 */
        tide_context_combine(&r, &v[2]);
        struct tide_ctx_offer r2 = v[0];
        tide_context_combine(&r2, &r); /* 0 (1 2) */
        assert_true(same(&l, &r2));
    }
}

/* ---- simulated agreements ---- */

#define MAXM 8

struct member {
    uint8_t *used; /* per slot */
    bool participates;
};

static void install(const struct member *m)
{
    reset();
    for (uint32_t s = TIDE_CONTEXT_FIXED_END / 2; s < NSLOTS; s++)
        if (m->used[s])
            tide_context_reserve(2 * s);
}

/* Rounds of offers until an id: what every member would compute. */
static uint32_t simulate(struct member *m, int n, int *rounds)
{
    uint32_t floor_word = 0;
    *rounds = 0;
    for (;;) {
        struct tide_ctx_offer acc;
        tide_context_offer_any(floor_word, &acc);
        for (int i = 0; i < n; i++) {
            struct tide_ctx_offer o;
            struct tide_ctx_claim cl;
            tide_context_claim_init(&cl, 1);
            install(&m[i]);
            if (m[i].participates) {
                tide_context_offer(floor_word, &o, &cl);
                tide_context_claim_end(&cl);
            } else {
                tide_context_claim_end(&cl);
                tide_context_offer_any(floor_word, &o);
            }
            tide_context_combine(&acc, &o);
        }
        ++*rounds;
        uint32_t id = tide_context_pick(&acc);
        if (id != TIDE_CONTEXT_NONE)
            return id;
        floor_word = tide_context_next_floor(&acc, floor_word);
        if (floor_word == TIDE_CONTEXT_NONE)
            return TIDE_CONTEXT_NONE;
    }
}

static void members_new(struct member *m, int n)
{
    for (int i = 0; i < n; i++) {
        m[i].used = calloc(NSLOTS, 1);
        assert_non_null(m[i].used);
        for (uint32_t s = 0; s < TIDE_CONTEXT_FIXED_END / 2; s++)
            m[i].used[s] = 1;
        m[i].participates = true;
    }
}

static void members_free(struct member *m, int n)
{
    for (int i = 0; i < n; i++)
        free(m[i].used);
    reset();
}

static void assert_free_everywhere(struct member *m, int n, uint32_t id)
{
    assert_int_not_equal(id, TIDE_CONTEXT_NONE);
    assert_int_equal(id % 2, 0);
    for (int i = 0; i < n; i++)
        if (m[i].participates && m[i].used[id / 2])
            fail_msg("id %u is in use at member %d", id, i);
}

static void test_agree_simulated(void **state)
{
    (void)state;
    struct member m[MAXM];
    int rounds;
    /* identical members: the lowest free id, one round */
    members_new(m, 4);
    for (int i = 0; i < 4; i++)
        for (uint32_t s = 4; s < 300; s++)
            m[i].used[s] = 1;
    uint32_t id = simulate(m, 4, &rounds);
    assert_int_equal(id, 600);
    assert_int_equal(rounds, 1);
    members_free(m, 4);
    /* one member far ahead: two rounds */
    members_new(m, 3);
    for (uint32_t s = 4; s < 64 * 1000; s++)
        m[1].used[s] = 1;
    id = simulate(m, 3, &rounds);
    assert_int_equal(id, 2 * 64 * 1000);
    assert_true(rounds <= 2);
    members_free(m, 3);
    /* interleaved members: even slots used at one, odd at the other, for
     * a long stretch; then one slot free at both */
    members_new(m, 2);
    for (uint32_t s = 4; s < 64 * 50; s++)
        m[s % 2].used[s] = 1;
    id = simulate(m, 2, &rounds);
    assert_int_equal(id, 2 * 64 * 50);
    members_free(m, 2);
    /* members that take no part do not matter */
    members_new(m, 3);
    for (uint32_t s = 4; s < 64 * 20; s++)
        m[2].used[s] = 1;
    m[2].participates = false;
    id = simulate(m, 3, &rounds);
    assert_int_equal(id, TIDE_CONTEXT_FIXED_END);
    members_free(m, 3);
    /* random members */
    srand(777);
    for (int t = 0; t < 30; t++) {
        int n = 2 + rand() % (MAXM - 1);
        members_new(m, n);
        for (int i = 0; i < n; i++) {
            uint32_t dense = (uint32_t)(rand() % 3000);
            for (uint32_t s = 4; s < dense; s++)
                m[i].used[s] = (uint8_t)(rand() % 8 != 0);
            for (int k = 0; k < 200; k++)
                m[i].used[rand() % 5000] = 1;
        }
        id = simulate(m, n, &rounds);
        assert_free_everywhere(m, n, id);
        members_free(m, n);
    }
    /* exhaustion: no id free anywhere at one member */
    members_new(m, 2);
    memset(m[0].used, 1, NSLOTS);
    id = simulate(m, 2, &rounds);
    assert_int_equal(id, TIDE_CONTEXT_NONE);
    memset(m[0].used, 0, NSLOTS);
    for (uint32_t s = 0; s < NSLOTS - 1; s++)
        m[0].used[s] = 1;
    id = simulate(m, 2, &rounds); /* the very last one */
    assert_int_equal(id, 2 * (NSLOTS - 1));
    members_free(m, 2);
}

static void test_many_ids(void **state)
{
    (void)state;
    reset();
    /* 100000 ids in use: finding the next stays cheap */
    clock_t t0 = clock();
    for (int i = 0; i < 100000; i++) {
        struct tide_ctx_offer o;
        struct tide_ctx_claim cl;
        tide_context_claim_init(&cl, 1);
        tide_context_offer(0, &o, &cl);
        uint32_t id = tide_context_pick(&o);
        tide_context_claim_end(&cl);
        assert_int_not_equal(id, TIDE_CONTEXT_NONE);
        tide_context_reserve(id);
    }
    assert_int_equal(tide_context_in_use(), 100000 + TIDE_CONTEXT_FIXED_END / 2);
    /* free and take again, 10000 times, at the top */
    for (int i = 0; i < 10000; i++) {
        struct tide_ctx_offer o;
        struct tide_ctx_claim cl;
        tide_context_claim_init(&cl, 1);
        tide_context_offer(0, &o, &cl);
        uint32_t id = tide_context_pick(&o);
        tide_context_claim_end(&cl);
        tide_context_reserve(id);
        tide_context_release(id);
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    if (secs > 5)
        fail_msg("110000 offers took %.2f s", secs);
    reset();
    assert_int_equal(tide_context_in_use(), TIDE_CONTEXT_FIXED_END / 2);
}

static void test_agree_alone(void **state)
{
    (void)state;
    reset();
    uint32_t a, b;
    assert_int_equal(tide_context_agree(tide_comm_world, true, &a), MPI_SUCCESS);
    assert_int_equal(tide_context_agree(tide_comm_world, true, &b), MPI_SUCCESS);
    assert_int_not_equal(a, b);
    assert_false(tide_context_is_free(a));
    assert_false(tide_context_is_free(b));
    uint32_t c;
    unsigned used = tide_context_in_use();
    assert_int_equal(tide_context_agree(tide_comm_world, false, &c), MPI_SUCCESS);
    assert_int_equal(tide_context_in_use(), used); /* not a member: nothing reserved */
    int rank0 = 0;
    assert_int_equal(tide_context_agree_sub(tide_comm_world, 1, 0, &rank0, -7, &c), MPI_SUCCESS);
    assert_false(tide_context_is_free(c));
    reset();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bitmap),
        cmocka_unit_test(test_offer_pick),
        cmocka_unit_test(test_agreement_rounds),
        cmocka_unit_test(test_combine),
        cmocka_unit_test(test_agree_simulated),
        cmocka_unit_test(test_many_ids),
        cmocka_unit_test(test_agree_alone),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
