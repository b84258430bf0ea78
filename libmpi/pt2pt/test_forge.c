/*
 * test_forge.c: a testing aid (parameter test_forge_envelope): a process
 * that connected to another job sends it one envelope forged as a rank
 * of that job on MPI_COMM_WORLD's context, so tests can check that the
 * receiver drops it (sender_check.h).
 */
#include "runtime/api.h"
#include "pt2pt/sender_check.h"
#include "comm/comm.h"
#include "comm/context.h"
#include "params.h"
#include "transport/transport.h"

#include <stdio.h>

void tide_test_forge_envelope(struct tide_comm *ic)
{
    long long src = tide_config_int("test_forge_envelope");
    if (src < 0 || !ic || !ic->is_inter || ic->remote_size < 1)
        return;
    struct tide_proc *p = ic->peers[0];
    struct tide_transport *tx = p->tx ? p->tx : tide_transport_for(p);
    int32_t v = TIDE_TEST_FORGE_VALUE;
    struct tide_hdr h = {.type = TIDE_MSG_EAGER, .ctx = TIDE_CONTEXT_WORLD, .src = (int32_t)src,
                         .tag = TIDE_TEST_FORGE_TAG, .len = sizeof v};
    int rc = tx ? tx->send(p, &h, &v, sizeof v, NULL, 0) : -1;
    fprintf(stderr, "tide[%u]: test_forge_envelope: %s a forged message as rank %lld to %.64s:%u\n", tide.rank,
            rc == 0 ? "sent" : "could not send", src, p->nspace, p->rank);
}
