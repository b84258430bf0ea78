/*
 * test_sender_check.c: what a process of another universe may send
 * (pt2pt/sender_check.c), without other processes: envelopes of our own
 * universe pass unchecked; another universe's pass only on the contexts
 * of communicators that include the process and with its rank there,
 * always on the DPM context, never on MPI_COMM_WORLD's; envelopes for a
 * context not installed yet are held (at most TIDE_SENDER_HOLD_MAX) and
 * delivered, in order, when the communicator is installed; a freed
 * communicator's context is withdrawn.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "runtime/api.h"
#include "runtime/proc.h"
#include "comm/comm.h"
#include "comm/context.h"
#include "dpm/dpm.h"
#include "pt2pt/match.h"
#include "pt2pt/sender_check.h"
#include "transport/transport.h"

static struct tide_proc *me, *mate, *spawned, *other0, *other1;

static void fake_comm(struct tide_comm *c, uint32_t ctx, bool inter, int n, struct tide_proc **peers)
{
    memset(c, 0, sizeof *c);
    c->context_id = ctx;
    c->is_inter = inter;
    c->size = inter ? 1 : n;
    c->remote_size = inter ? n : 0;
    c->peers = peers;
}

static struct tide_hdr env(uint32_t ctx, int src, int tag)
{
    return (struct tide_hdr){.type = TIDE_MSG_EAGER, .ctx = ctx, .src = src, .tag = tag, .len = 4};
}

static int check(struct tide_proc *from, uint32_t ctx, int src, int tag)
{
    struct tide_hdr h = env(ctx, src, tag);
    int v = tag;
    return tide_sender_check_envelope(from, &h, &v, sizeof v);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tide.nspace, sizeof tide.nspace, "tide.host.100.0");
    me = tide.me = tide_proc_get("tide.host.100.0", 0);
    mate = tide_proc_get("tide.host.100.0", 1);
    spawned = tide_proc_get("tide.host.100.1", 0);
    other0 = tide_proc_get("tide.host.200.0", 0);
    other1 = tide_proc_get("tide.host.200.0", 1);
    return 0;
}

static void test_universe(void **state)
{
    (void)state;
    assert_false(tide_sender_is_foreign(me));
    assert_false(tide_sender_is_foreign(mate));
    assert_false(tide_sender_is_foreign(spawned));
    assert_true(tide_sender_is_foreign(other0));
    assert_true(tide_sender_trusted(spawned));
    assert_false(tide_sender_trusted(other0));
    /* ours: anything passes here (no membership check) */
    assert_int_equal(check(spawned, TIDE_CONTEXT_WORLD, 1, 5), TIDE_SENDER_ACCEPT);
}

static void test_membership(void **state)
{
    (void)state;
    struct tide_proc *world_peers[] = {me, mate};
    struct tide_comm world, inter, merged;
    fake_comm(&world, TIDE_CONTEXT_WORLD, false, 2, world_peers);
    tide_sender_comm_installed(&world);
    /* forged on MPI_COMM_WORLD as rank 1 (or any rank): dropped */
    assert_int_equal(check(other0, TIDE_CONTEXT_WORLD, 1, 5), TIDE_SENDER_DROP);
    assert_int_equal(check(other0, TIDE_CONTEXT_WORLD + 1, 0, -3), TIDE_SENDER_DROP);
    /* the connect/accept conversation */
    assert_int_equal(check(other0, TIDE_CONTEXT_DPM, 7, 1), TIDE_SENDER_ACCEPT);
    /* no such context */
    assert_int_equal(check(other0, TIDE_CONTEXT_MAX + 2, 0, 1), TIDE_SENDER_DROP);
    assert_int_equal(check(other0, UINT32_MAX, 0, 1), TIDE_SENDER_DROP);

    /* an intercommunicator with the other job: its ranks there */
    struct tide_proc *remote[] = {other0, other1};
    fake_comm(&inter, 10, true, 2, remote);
    tide_sender_comm_installed(&inter);
    assert_int_equal(check(other0, 10, 0, 1), TIDE_SENDER_ACCEPT);
    assert_int_equal(check(other0, 11, 0, -2), TIDE_SENDER_ACCEPT);
    assert_int_equal(check(other1, 10, 1, 1), TIDE_SENDER_ACCEPT);
    assert_int_equal(check(other0, 10, 1, 1), TIDE_SENDER_DROP); /* as the other one */
    assert_int_equal(check(other1, 11, 0, 1), TIDE_SENDER_DROP);

    /* merged: the other job's ranks after ours */
    struct tide_proc *all[] = {me, mate, other0, other1};
    fake_comm(&merged, 12, false, 4, all);
    tide_sender_comm_installed(&merged);
    assert_int_equal(check(other0, 12, 2, 1), TIDE_SENDER_ACCEPT);
    assert_int_equal(check(other1, 13, 3, 1), TIDE_SENDER_ACCEPT);
    assert_int_equal(check(other1, 12, 1, 1), TIDE_SENDER_DROP);

    /* freed: the context is no longer theirs (and not installed: held) */
    tide_sender_comm_withdrawn(&inter);
    assert_int_equal(check(other0, 10, 0, 1), TIDE_SENDER_HELD);
    tide_sender_comm_withdrawn(&merged);
    tide_sender_comm_withdrawn(&world);
    tide_sender_check_finalize();
}

static void test_held_then_installed(void **state)
{
    (void)state;
    struct tide_proc *world_peers[] = {me, mate};
    struct tide_comm world, inter;
    fake_comm(&world, TIDE_CONTEXT_WORLD, false, 2, world_peers);
    tide_sender_comm_installed(&world);
    /* early: three for context 20 (one with a wrong source), one for 22 */
    assert_int_equal(check(other0, 20, 0, 1), TIDE_SENDER_HELD);
    assert_int_equal(check(other0, 20, 1, 2), TIDE_SENDER_HELD);
    assert_int_equal(check(other0, 21, 0, 3), TIDE_SENDER_HELD);
    assert_int_equal(check(other0, 22, 0, 4), TIDE_SENDER_HELD);
    assert_null(tide_matchq_find(20));
    struct tide_proc *remote[] = {other0};
    fake_comm(&inter, 20, true, 1, remote);
    tide_sender_comm_installed(&inter);
    /* delivered in order, the forged one dropped, 22 still held */
    struct tide_matchq *q = tide_matchq_find(20), *qc = tide_matchq_find(21);
    assert_non_null(q);
    assert_non_null(qc);
    assert_int_equal(q->nunexpected, 1);
    assert_int_equal(qc->nunexpected, 1);
    struct tide_unexpected *u = tide_match_find_unexpected(q, MPI_ANY_SOURCE, MPI_ANY_TAG, true);
    assert_non_null(u);
    assert_int_equal(u->tag, 1);
    assert_int_equal(u->src, 0);
    assert_ptr_equal(u->from, other0);
    tide_unexpected_free(u);
    u = tide_match_find_unexpected(qc, MPI_ANY_SOURCE, MPI_ANY_TAG, true);
    assert_non_null(u);
    assert_int_equal(u->tag, 3);
    tide_unexpected_free(u);
    assert_null(tide_matchq_find(22));
    tide_sender_comm_withdrawn(&inter);
    tide_sender_comm_withdrawn(&world);
    tide_sender_check_finalize();
}

static void test_hold_bounded(void **state)
{
    (void)state;
    /* at most TIDE_SENDER_HOLD_MAX per process */
    for (int i = 0; i < TIDE_SENDER_HOLD_MAX; i++)
        assert_int_equal(check(other1, 30, 1, i), TIDE_SENDER_HELD);
    assert_int_equal(check(other1, 30, 1, 999), TIDE_SENDER_DROP);
    /* another process has its own bound */
    assert_int_equal(check(other0, 30, 0, 1), TIDE_SENDER_HELD);
    /* bytes: a payload beyond the bound is not held */
    struct tide_hdr h = env(32, 0, 1);
    static uint8_t big[TIDE_SENDER_HOLD_BYTES + 1];
    h.len = sizeof big;
    assert_int_equal(tide_sender_check_envelope(other0, &h, big, sizeof big), TIDE_SENDER_DROP);
    tide_sender_check_finalize();
    assert_null(other0->sender_state);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_universe),
        cmocka_unit_test(test_membership),
        cmocka_unit_test(test_held_then_installed),
        cmocka_unit_test(test_hold_bounded),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
