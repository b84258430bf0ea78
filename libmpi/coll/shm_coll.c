/*
 * shm_coll.c: barrier, bcast, allreduce, allgather(v), alltoall and
 * reduce_scatter(_block) through the shared region of a one-node
 * communicator (shm_coll.h). One round each: every rank packs what it
 * contributes into its slot, publishes, waits for every other rank's
 * (bcast: the root's alone), and reads what it needs straight from their
 * slots. No message is sent, so a call costs each rank one wait instead
 * of one per peer or per step, which matters most when ranks outnumber
 * cores and every wait is a trip through the scheduler. Bcast alone
 * takes data of any length: the root fills all the slots of a round, and
 * longer data goes in pieces, a round each.
 *
 * Allreduce combines the slots in rank order (v0 op (v1 op (... op
 * v[n-1]))) on every rank, so non-commutative operations are served and
 * every rank gets the same bits, call after call; reduce_scatter does the
 * same for each rank's own block.
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/shm_coll.h"
#include "coll/shm_region.h"
#include "op/op.h"

#include <string.h>

bool tide_shm_coll_fits(struct tide_comm *c, size_t slot_bytes)
{
    return slot_bytes <= tide_region_slot_bytes(c->size) && tide_coll_region_possible(c);
}

bool tide_shm_plain(const struct tide_datatype *dt)
{
    return dt->contig && dt->true_lb == 0 && dt->extent == (MPI_Aint)dt->size;
}

int tide_shm_barrier(struct tide_comm *c)
{
    struct tide_coll_region *r = tide_coll_region_get(c);
    if (!r)
        return -1;
    tide_region_barrier(r);
    return tide_region_error(r);
}

/* Bcast: the root packs its buffer into the round's slots (all of them:
 * no other rank writes in a bcast) and leaves; the others wait for it
 * alone, say they have seen it (so the root may go on to the next round,
 * in the other buffer) and unpack. Data longer than a round goes in
 * pieces, one round each: the readers copy one piece out while the root
 * copies the next in. The root's length goes with its counter, and the
 * readers take as many rounds as it needs whatever their own count says:
 * a rank whose buffer is too short gets MPI_ERR_TRUNCATE, not a round out
 * of step with the others. */
int tide_shm_bcast(struct tide_comm *c, void *buf, size_t count, struct tide_datatype *dt, int root)
{
    struct tide_coll_region *r = tide_coll_region_get(c);
    if (!r)
        return -1;
    size_t mine = count * dt->size, room = tide_region_round_bytes(c->size);
    size_t total = c->rank == root ? mine : SIZE_MAX; /* a reader learns it in the first round */
    /* the convertor copies contiguous data in one run, and unpacks no more
     * than this rank's buffer holds */
    struct tide_convertor cv;
    tide_conv_init(&cv, dt, count, buf);
    for (size_t off = 0; off == 0 || off < total; off += room) {
        uint64_t s = tide_region_begin(r);
        char *in_region = tide_region_slot(r, s, 0);
        if (c->rank == root) {
            tide_region_set_word(r, total);
            tide_conv_pack(&cv, in_region, room);
            tide_region_publish(r, s);
            if (tide_region_error(r))
                return tide_region_error(r);
            continue;
        }
        /* publishing s says this rank is done with round s - 1, which is
         * true as soon as it has seen s: the root may fill the other
         * buffer (round s + 1) while this rank copies round s out */
        tide_region_wait_one(r, s, root);
        if (tide_region_error(r))
            return tide_region_error(r);
        total = (size_t)tide_region_word(r, root);
        tide_region_publish(r, s);
        tide_conv_unpack(&cv, in_region, total - off < room ? total - off : room);
    }
    if (total > mine)
        return tide_err(MPI_ERR_TRUNCATE, "MPI_Bcast: the root sends %zu bytes, more than the %zu of this rank's buffer",
                        total, mine);
    return MPI_SUCCESS;
}

/* The reductions: every rank publishes its vector of total elements and
 * combines, in rank order, the mc elements from element off of every
 * rank's into rbuf. */
static int reduce_round(struct tide_comm *c, const void *in, size_t total, size_t off, size_t mc, void *rbuf,
                        struct tide_datatype *dt, struct tide_op *op)
{
    struct tide_coll_region *r = tide_coll_region_get(c);
    if (!r)
        return -1;
    int n = c->size, me = c->rank;
    size_t sz = dt->size;
    uint64_t s = tide_region_begin(r);
    if (total)
        memcpy(tide_region_slot(r, s, me), in, total * sz);
    tide_region_publish(r, s);
    tide_region_wait_all(r, s);
    if (tide_region_error(r))
        return tide_region_error(r);
    if (mc) {
        memcpy(rbuf, (uint8_t *)tide_region_slot(r, s, n - 1) + off * sz, mc * sz);
        for (int i = n - 2; i >= 0; i--)
            tide_op_apply(op, (uint8_t *)tide_region_slot(r, s, i) + off * sz, rbuf, mc, dt);
    }
    return MPI_SUCCESS;
}

int tide_shm_allreduce(struct tide_comm *c, const void *sbuf, void *rbuf, size_t count, struct tide_datatype *dt,
                       struct tide_op *op)
{
    return reduce_round(c, sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, 0, count, rbuf, dt, op);
}

int tide_shm_allgather(struct tide_comm *c, const void *sbuf, size_t scount, struct tide_datatype *sdt, void *rbuf,
                       size_t rcount, struct tide_datatype *rdt)
{
    struct tide_coll_region *r = tide_coll_region_get(c);
    if (!r)
        return -1;
    int n = c->size, me = c->rank;
    struct tide_datatype *byte = tide_coll_byte();
    size_t b = rcount * rdt->size;
    int rc = MPI_SUCCESS;
    bool in_place = sbuf == MPI_IN_PLACE;
    uint64_t s = tide_region_begin(r);
    if (b) {
        if (in_place)
            keep_error(&rc, tide_coll_copy(elem_at(rbuf, rdt, (size_t)me * rcount), rcount, rdt,
                                           tide_region_slot(r, s, me), b, byte));
        else
            keep_error(&rc, tide_coll_copy(sbuf, scount, sdt, tide_region_slot(r, s, me), b, byte));
    }
    tide_region_publish(r, s);
    tide_region_wait_all(r, s);
    if (tide_region_error(r))
        return tide_region_error(r);
    if (b)
        for (int i = 0; i < n; i++)
            if (i != me || !in_place)
                keep_error(&rc, tide_coll_copy(tide_region_slot(r, s, i), b, byte,
                                               elem_at(rbuf, rdt, (size_t)i * rcount), rcount, rdt));
    return rc;
}

int tide_shm_allgatherv(struct tide_comm *c, const void *sbuf, size_t scount, struct tide_datatype *sdt, void *rbuf,
                        const MPI_Count *rcounts, const MPI_Aint *displs, struct tide_datatype *rdt)
{
    struct tide_coll_region *r = tide_coll_region_get(c);
    if (!r)
        return -1;
    int n = c->size, me = c->rank;
    struct tide_datatype *byte = tide_coll_byte();
    int rc = MPI_SUCCESS;
    bool in_place = sbuf == MPI_IN_PLACE;
    size_t mine = (size_t)rcounts[me] * rdt->size;
    uint64_t s = tide_region_begin(r);
    if (mine) {
        if (in_place)
            keep_error(&rc, tide_coll_copy(elem_at(rbuf, rdt, (size_t)displs[me]), (size_t)rcounts[me], rdt,
                                           tide_region_slot(r, s, me), mine, byte));
        else
            keep_error(&rc, tide_coll_copy(sbuf, scount, sdt, tide_region_slot(r, s, me), mine, byte));
    }
    tide_region_publish(r, s);
    tide_region_wait_all(r, s);
    if (tide_region_error(r))
        return tide_region_error(r);
    for (int i = 0; i < n; i++)
        if (rcounts[i] && (i != me || !in_place))
            keep_error(&rc, tide_coll_copy(tide_region_slot(r, s, i), (size_t)rcounts[i] * rdt->size, byte,
                                           elem_at(rbuf, rdt, (size_t)displs[i]), (size_t)rcounts[i], rdt));
    return rc;
}

int tide_shm_reduce_scatter(struct tide_comm *c, const void *sbuf, void *rbuf, const MPI_Count *counts,
                            struct tide_datatype *dt, struct tide_op *op)
{
    int me = c->rank;
    size_t total = 0, off = 0;
    for (int i = 0; i < c->size; i++) {
        if (i == me)
            off = total;
        total += (size_t)counts[i];
    }
    return reduce_round(c, sbuf == MPI_IN_PLACE ? rbuf : sbuf, total, off, (size_t)counts[me], rbuf, dt, op);
}

int tide_shm_alltoall(struct tide_comm *c, const void *sbuf, size_t scount, struct tide_datatype *sdt, void *rbuf,
                      size_t rcount, struct tide_datatype *rdt)
{
    struct tide_coll_region *r = tide_coll_region_get(c);
    if (!r)
        return -1;
    int n = c->size, me = c->rank;
    struct tide_datatype *byte = tide_coll_byte();
    size_t b = rcount * rdt->size;
    int rc = MPI_SUCCESS;
    uint64_t s = tide_region_begin(r);
    /* the row of blocks for ranks 0..n-1, packed one after the other */
    if (b) {
        if (sbuf == MPI_IN_PLACE)
            keep_error(&rc, tide_coll_copy(rbuf, (size_t)n * rcount, rdt, tide_region_slot(r, s, me), (size_t)n * b,
                                           byte));
        else
            keep_error(&rc, tide_coll_copy(sbuf, (size_t)n * scount, sdt, tide_region_slot(r, s, me), (size_t)n * b,
                                           byte));
    }
    tide_region_publish(r, s);
    tide_region_wait_all(r, s);
    if (tide_region_error(r))
        return tide_region_error(r);
    if (b)
        for (int i = 0; i < n; i++) {
            const uint8_t *row = tide_region_slot(r, s, i);
            keep_error(&rc, tide_coll_copy(row + (size_t)me * b, b, byte, elem_at(rbuf, rdt, (size_t)i * rcount),
                                           rcount, rdt));
        }
    return rc;
}
