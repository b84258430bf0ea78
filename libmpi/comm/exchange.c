/*
 * exchange.c: the internal exchanges of exchange.h, over point-to-point:
 * a ring for allgather, a binomial tree for broadcast, recursive doubling
 * (with the usual fold for sizes that are not powers of two) for the
 * reductions.
 */
#include "runtime/api.h"
#include "comm/comm.h"
#include "comm/exchange.h"
#include "datatype/datatype.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"

#include <stdlib.h>
#include <string.h>

/* intercommunicator exchanges run over the local group */
static struct tide_comm *local_of(struct tide_comm *c)
{
    return c->is_inter ? c->local_comm : c;
}

static struct tide_datatype *bytes_type(void)
{
    return tide_datatype_get(MPI_BYTE);
}

static int allgather(struct tide_comm *c, const void *mine, size_t len, void *all, int mode)
{
    c = local_of(c);
    if (!c)
        return tide_err(MPI_ERR_INTERN, "exchange on an intercommunicator without a local communicator");
    uint32_t seq = c->coll_seq++;
    uint32_t ctx = c->context_id + 1;
    int n = c->size, me = c->rank;
    char *out = all;
    memcpy(out + (size_t)me * len, mine, len);
    int right = (me + 1) % n, left = (me + n - 1) % n;
    for (int step = 0; step < n - 1; step++) {
        int send_block = (me - step + n) % n, recv_block = (me - step - 1 + n) % n;
        struct tide_request *rr, *sr;
        int rc = tide_irecv(out + (size_t)recv_block * len, (int)len, bytes_type(), left,
                            tide_coll_tag(seq, step), c, ctx, &rr);
        if (rc)
            return rc;
        rc = tide_isend(out + (size_t)send_block * len, (int)len, bytes_type(), right, tide_coll_tag(seq, step), c,
                        ctx, mode, &sr);
        if (rc) {
            tide_wait_free(rr, MPI_STATUS_IGNORE);
            return rc;
        }
        int e1 = tide_wait_free(sr, MPI_STATUS_IGNORE), e2 = tide_wait_free(rr, MPI_STATUS_IGNORE);
        if (e1 || e2)
            return e1 ? e1 : e2;
    }
    return MPI_SUCCESS;
}

int tide_exchange_allgather(struct tide_comm *c, const void *mine, size_t len, void *all)
{
    return allgather(c, mine, len, all, TIDE_MODE_STANDARD);
}

int tide_exchange_allgather_sealed(struct tide_comm *c, const void *mine, size_t len, void *all)
{
    return allgather(c, mine, len, all, TIDE_MODE_STANDARD | TIDE_SEND_SEALED);
}

static int bcast(struct tide_comm *c, void *buf, size_t len, int root, bool sealed)
{
    c = local_of(c);
    if (!c)
        return tide_err(MPI_ERR_INTERN, "exchange on an intercommunicator without a local communicator");
    uint32_t seq = c->coll_seq++;
    uint32_t ctx = c->context_id + 1;
    int n = c->size, vr = (c->rank - root + n) % n;
    int mask = 1;
    while (mask < n) {
        if (vr & mask) {
            int src = (vr - mask + root) % n;
            int rc = tide_recv_blocking(buf, (int)len, bytes_type(), src, tide_coll_tag(seq, 0), c, ctx,
                                        MPI_STATUS_IGNORE);
            if (rc)
                return rc;
            break;
        }
        mask <<= 1;
    }
    mask >>= 1;
    while (mask > 0) {
        if (vr + mask < n) {
            int dst = (vr + mask + root) % n;
            int rc = sealed ? tide_send_blocking_sealed(buf, (int)len, bytes_type(), dst, tide_coll_tag(seq, 0), c, ctx)
                            : tide_send_blocking(buf, (int)len, bytes_type(), dst, tide_coll_tag(seq, 0), c, ctx);
            if (rc)
                return rc;
        }
        mask >>= 1;
    }
    return MPI_SUCCESS;
}

int tide_exchange_bcast(struct tide_comm *c, void *buf, size_t len, int root)
{
    return bcast(c, buf, len, root, false);
}

int tide_exchange_bcast_sealed(struct tide_comm *c, void *buf, size_t len, int root)
{
    return bcast(c, buf, len, root, true);
}

typedef void combine_fn(void *acc, const void *in, size_t len);

static void and_words(void *acc, const void *in, size_t len)
{
    uint64_t *a = acc;
    const uint64_t *b = in;
    for (size_t i = 0; i < len / 8; i++)
        a[i] &= b[i];
}

static void max_i64(void *acc, const void *in, size_t len)
{
    (void)len;
    int64_t *a = acc;
    const int64_t *b = in;
    if (*b > *a)
        *a = *b;
}

/* commutative allreduce by recursive doubling */
static int allreduce(struct tide_comm *c, void *data, size_t len, combine_fn *fn)
{
    c = local_of(c);
    if (!c)
        return tide_err(MPI_ERR_INTERN, "exchange on an intercommunicator without a local communicator");
    uint32_t seq = c->coll_seq++;
    uint32_t ctx = c->context_id + 1;
    int n = c->size, me = c->rank;
    char *tmp = malloc(len ? len : 1);
    if (!tmp)
        return tide_err(MPI_ERR_NO_MEM, "exchange: out of memory");
    int pof2 = 1;
    while (pof2 * 2 <= n)
        pof2 *= 2;
    int rem = n - pof2, rc = MPI_SUCCESS;
    int newrank;
    /* fold the extra ranks into the power of two */
    if (me < 2 * rem) {
        if (me % 2 == 0) {
            rc = tide_send_blocking(data, (int)len, bytes_type(), me + 1, tide_coll_tag(seq, 0), c, ctx);
            newrank = -1;
        } else {
            rc = tide_recv_blocking(tmp, (int)len, bytes_type(), me - 1, tide_coll_tag(seq, 0), c, ctx,
                                    MPI_STATUS_IGNORE);
            fn(data, tmp, len);
            newrank = me / 2;
        }
    } else {
        newrank = me - rem;
    }
    if (rc == MPI_SUCCESS && newrank >= 0) {
        for (int mask = 1, step = 1; mask < pof2; mask <<= 1, step++) {
            int np = newrank ^ mask;
            int peer = np < rem ? np * 2 + 1 : np + rem;
            struct tide_request *rr, *sr;
            rc = tide_irecv(tmp, (int)len, bytes_type(), peer, tide_coll_tag(seq, step), c, ctx, &rr);
            if (rc)
                break;
            rc = tide_isend(data, (int)len, bytes_type(), peer, tide_coll_tag(seq, step), c, ctx, 0, &sr);
            if (rc) {
                tide_wait_free(rr, MPI_STATUS_IGNORE);
                break;
            }
            int e1 = tide_wait_free(sr, MPI_STATUS_IGNORE), e2 = tide_wait_free(rr, MPI_STATUS_IGNORE);
            if (e1 || e2) {
                rc = e1 ? e1 : e2;
                break;
            }
            fn(data, tmp, len);
        }
    }
    /* hand the result back to the folded ranks */
    if (rc == MPI_SUCCESS && me < 2 * rem) {
        if (me % 2)
            rc = tide_send_blocking(data, (int)len, bytes_type(), me - 1, tide_coll_tag(seq, 1000), c, ctx);
        else
            rc = tide_recv_blocking(data, (int)len, bytes_type(), me + 1, tide_coll_tag(seq, 1000), c, ctx,
                                    MPI_STATUS_IGNORE);
    }
    free(tmp);
    return rc;
}

int tide_exchange_allreduce_and(struct tide_comm *c, uint64_t *mask, int words)
{
    return allreduce(c, mask, (size_t)words * 8, and_words);
}

int tide_exchange_allreduce_max(struct tide_comm *c, int64_t *value)
{
    return allreduce(c, value, sizeof *value, max_i64);
}

int tide_exchange_barrier(struct tide_comm *c)
{
    int64_t v = 0;
    return tide_exchange_allreduce_max(c, &v);
}
