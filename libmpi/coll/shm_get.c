/*
 * shm_get.c: bcast, allgather and alltoall for long data, and alltoallv
 * and alltoallw of any size, on a one-node communicator whose ranks can
 * read each other's memory (algorithm "get", shm_get.h).
 *
 * A call is two rounds of the shared region (shm_region.h). In the
 * first, every rank that has data for others publishes in its slot where
 * that data lies: its own buffer when the layout is one contiguous run,
 * otherwise a packed copy. Each rank then reads what it needs straight
 * from the others' memory into its own buffer (a single-copy get by the
 * kernel), and in the second round says it is done, so that no buffer
 * is left or changed while someone may still read it. Every byte is
 * copied once, by the rank that wants it, all ranks at once; no message
 * is sent, and a rank waits twice per call rather than once per peer or
 * per step, which is what counts when ranks outnumber cores.
 *
 * The broadcast needs only the root to wait for the second round: a
 * reader leaves as soon as it has its copy. Alltoallv/w put a rank's
 * blocks in its slot when they all fit there; a call where everyone's
 * did reads no one's memory and ends after the first round.
 */
#include "runtime/api.h"
#include "coll/algo.h"
#include "coll/shm_get.h"
#include "coll/shm_region.h"

#include <stdlib.h>
#include <string.h>

/* What a rank publishes in its slot: where its data lies. */
struct exposed {
    uint64_t addr;
    uint64_t bytes;
    int32_t err; /* MPI_SUCCESS, or why there is nothing to read */
};

/* Make count elements of dt at buf readable as one run of bytes: the
 * buffer itself when it is one and may stay as it is (!must_copy),
 * otherwise a packed copy (*copy, to be freed after the second round). */
static struct exposed expose(const void *buf, size_t count, struct tide_datatype *dt, bool must_copy, void **copy)
{
    size_t bytes = count * dt->size;
    *copy = NULL;
    if (dt->contig && !must_copy)
        return (struct exposed){.addr = (uint64_t)(uintptr_t)((const uint8_t *)buf + dt->true_lb), .bytes = bytes};
    *copy = malloc(bytes ? bytes : 1);
    if (!*copy)
        return (struct exposed){.err = MPI_ERR_NO_MEM};
    int rc = tide_coll_copy(buf, count, dt, *copy, bytes, tide_coll_byte());
    return (struct exposed){.addr = (uint64_t)(uintptr_t)*copy, .bytes = bytes, .err = rc};
}

/* Read the bytes [off, off + bytes) of what rank i exposed into count
 * elements of dt at buf. */
static int fetch(struct tide_coll_region *r, const char *fn, int i, const struct exposed *e, size_t off,
                 size_t bytes, void *buf, size_t count, struct tide_datatype *dt)
{
    if (e->err != MPI_SUCCESS)
        return tide_err(MPI_ERR_OTHER, "%s: rank %d could not make its data readable", fn, i);
    if (off + bytes > e->bytes)
        return tide_err(MPI_ERR_TRUNCATE, "%s: rank %d has %llu bytes where %zu were expected", fn, i,
                        (unsigned long long)e->bytes, off + bytes);
    int rc;
    if (dt->contig) {
        rc = tide_region_read(r, i, (uint8_t *)buf + dt->true_lb, e->addr + off, bytes);
    } else {
        uint8_t *tmp = malloc(bytes ? bytes : 1);
        if (!tmp)
            return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        rc = tide_region_read(r, i, tmp, e->addr + off, bytes);
        if (rc == 0) {
            int crc = tide_coll_copy(tmp, bytes, tide_coll_byte(), buf, count, dt);
            free(tmp);
            return crc;
        }
        free(tmp);
    }
    if (rc != 0)
        return tide_err(MPI_ERR_OTHER, "%s: reading rank %d's memory failed: %s", fn, i, strerror(-rc));
    return MPI_SUCCESS;
}

static const struct exposed *exposed_by(struct tide_coll_region *r, uint64_t s, int i)
{
    return tide_region_slot(r, s, i);
}

/* A rank's own block of an allgather or alltoall: a local copy. */
struct own_block {
    const void *src;
    size_t scount;
    struct tide_datatype *sdt;
    void *dst;
    size_t rcount;
    struct tide_datatype *rdt;
};

/* Allgather and alltoall: publish e (and its packed copy, if any), make
 * this rank's own block (own, if not NULL: a copy that needs no one
 * else, done while the others publish), read bytes [off, off + b) of what
 * every other rank i exposed into block i of rbuf (rcount elements of rdt
 * each), and wait until every rank has done the same before copy goes
 * and the caller returns. */
static int read_from_all(struct tide_comm *c, struct tide_coll_region *r, const char *fn, struct exposed e, void *copy,
                         const struct own_block *own, size_t off, size_t b, void *rbuf, size_t rcount,
                         struct tide_datatype *rdt)
{
    int n = c->size, me = c->rank, rc = MPI_SUCCESS;
    if (e.err != MPI_SUCCESS)
        rc = tide_err(e.err, "%s: could not make this rank's data readable (a packed copy)", fn);
    uint64_t s = tide_region_begin(r);
    memcpy(tide_region_slot(r, s, me), &e, sizeof e);
    tide_region_publish(r, s);
    if (own)
        keep_error(&rc, tide_coll_copy(own->src, own->scount, own->sdt, own->dst, own->rcount, own->rdt));
    tide_region_wait_all(r, s);
    if (tide_region_error(r)) {
        free(copy);
        return tide_region_error(r);
    }
    for (int k = 1; k < n; k++) {
        int i = (me + n - k) % n;
        keep_error(&rc,
                   fetch(r, fn, i, exposed_by(r, s, i), off, b, elem_at(rbuf, rdt, (size_t)i * rcount), rcount, rdt));
    }
    tide_region_barrier(r);
    free(copy);
    keep_error(&rc, tide_region_error(r));
    return rc;
}

int tide_get_bcast(struct tide_comm *c, void *buf, size_t count, struct tide_datatype *dt, int root)
{
    struct tide_coll_region *r = tide_coll_region_get_readable(c);
    if (!r)
        return -1;
    int me = c->rank;
    uint64_t s = tide_region_begin(r);
    if (me == root) {
        void *copy;
        struct exposed e = expose(buf, count, dt, false, &copy);
        memcpy(tide_region_slot(r, s, me), &e, sizeof e);
        tide_region_publish(r, s);
        tide_region_wait_all(r, s); /* everyone has read it */
        free(copy);
        if (tide_region_error(r))
            return tide_region_error(r);
        if (e.err != MPI_SUCCESS)
            return tide_err(e.err, "MPI_Bcast: could not make the root's data readable (a packed copy)");
        return MPI_SUCCESS;
    }
    tide_region_wait_one(r, s, root);
    if (tide_region_error(r))
        return tide_region_error(r);
    int rc = fetch(r, "MPI_Bcast", root, exposed_by(r, s, root), 0, count * dt->size, buf, count, dt);
    tide_region_publish(r, s);
    return rc;
}

int tide_get_allgather(struct tide_comm *c, const void *sbuf, size_t scount, struct tide_datatype *sdt, void *rbuf,
                       size_t rcount, struct tide_datatype *rdt)
{
    struct tide_coll_region *r = tide_coll_region_get_readable(c);
    if (!r)
        return -1;
    int me = c->rank;
    void *copy;
    /* the others read my block where it is: in place, in my receive
     * buffer, which I write only elsewhere */
    void *mine = elem_at(rbuf, rdt, (size_t)me * rcount);
    bool in_place = sbuf == MPI_IN_PLACE;
    struct exposed e = in_place ? expose(mine, rcount, rdt, false, &copy) : expose(sbuf, scount, sdt, false, &copy);
    struct own_block own = {sbuf, scount, sdt, mine, rcount, rdt};
    return read_from_all(c, r, "MPI_Allgather", e, copy, in_place ? NULL : &own, 0, rcount * rdt->size, rbuf, rcount,
                         rdt);
}

int tide_get_alltoall(struct tide_comm *c, const void *sbuf, size_t scount, struct tide_datatype *sdt, void *rbuf,
                      size_t rcount, struct tide_datatype *rdt)
{
    struct tide_coll_region *r = tide_coll_region_get_readable(c);
    if (!r)
        return -1;
    int n = c->size, me = c->rank;
    size_t b = rcount * rdt->size;
    bool in_place = sbuf == MPI_IN_PLACE;
    void *copy;
    /* in place, my receive buffer is about to be overwritten: the others
     * read a copy of its blocks */
    struct exposed e = in_place ? expose(rbuf, (size_t)n * rcount, rdt, true, &copy)
                                : expose(sbuf, (size_t)n * scount, sdt, false, &copy);
    struct own_block own = {elem_at(sbuf, sdt, (size_t)me * scount), scount, sdt,
                            elem_at(rbuf, rdt, (size_t)me * rcount), rcount, rdt};
    return read_from_all(c, r, "MPI_Alltoall", e, copy, in_place ? NULL : &own, (size_t)me * b, b, rbuf, rcount, rdt);
}

/* ---- alltoallv, alltoallw ---- */

/* What a rank publishes for alltoallv/w: where its block for each rank
 * lies. When all its blocks fit in its slot after this header, they are
 * there (inline; to[i].addr is then an offset in the slot), so short
 * calls read no one's memory and take one round. */
struct exposed_v {
    int32_t err;
    int32_t inline_data;
    struct {
        uint64_t addr, bytes;
    } to[];
};

static size_t header_v(int n)
{
    return sizeof(struct exposed_v) + (size_t)n * 2 * sizeof(uint64_t);
}

bool tide_get_alltoallv_fits(int n)
{
    return header_v(n) <= tide_region_slot_bytes(n);
}

static void *block_ptr(const struct tide_get_blocks *b, int i)
{
    return (uint8_t *)b->buf + (b->dts ? (MPI_Aint)b->displs[i] : (MPI_Aint)b->displs[i] * b->dt->extent);
}

static struct tide_datatype *block_type(const struct tide_get_blocks *b, int i)
{
    return b->dts ? b->dts[i] : b->dt;
}

static size_t block_bytes(const struct tide_get_blocks *b, int i)
{
    return (size_t)b->counts[i] * block_type(b, i)->size;
}

/* Fill x (in a slot) with the blocks of snd for the other ranks or where
 * they lie: in the slot if they all fit, else in place where one block is
 * one run, and packed into *copy otherwise (every block when in_place:
 * the receive buffer is about to be overwritten). */
static void expose_blocks(const struct tide_get_blocks *snd, int n, int me, bool in_place, struct exposed_v *x,
                          void **copy)
{
    size_t total = 0, packed = 0;
    *copy = NULL;
    x->err = MPI_SUCCESS;
    for (int i = 0; i < n; i++) {
        if (i == me)
            continue;
        size_t bytes = block_bytes(snd, i);
        total += bytes;
        if (in_place || !block_type(snd, i)->contig)
            packed += bytes;
    }
    uint8_t *area = NULL;
    x->inline_data = header_v(n) + total <= tide_region_slot_bytes(n);
    if (x->inline_data)
        area = (uint8_t *)x + header_v(n);
    else if (packed && !(area = *copy = malloc(packed))) {
        x->err = MPI_ERR_NO_MEM;
        return;
    }
    size_t off = 0;
    for (int i = 0; i < n; i++) {
        struct tide_datatype *t = block_type(snd, i);
        size_t bytes = block_bytes(snd, i);
        const uint8_t *p = block_ptr(snd, i);
        x->to[i].bytes = bytes;
        if (i == me) {
            x->to[i].addr = 0; /* copied by its owner */
            continue;
        }
        if (!x->inline_data && !in_place && t->contig) {
            x->to[i].addr = (uint64_t)(uintptr_t)(p + t->true_lb);
            continue;
        }
        int rc = tide_coll_copy(p, (size_t)snd->counts[i], t, area + off, bytes, tide_coll_byte());
        if (rc != MPI_SUCCESS)
            x->err = rc;
        x->to[i].addr = x->inline_data ? header_v(n) + off : (uint64_t)(uintptr_t)(area + off);
        off += bytes;
    }
}

int tide_get_alltoallv(struct tide_comm *c, const struct tide_get_blocks *snd, const struct tide_get_blocks *rcv)
{
    int n = c->size, me = c->rank;
    if (!tide_get_alltoallv_fits(n))
        return -1;
    struct tide_coll_region *r = tide_coll_region_get_readable(c);
    if (!r)
        return -1;
    const char *fn = rcv->dts ? "MPI_Alltoallw" : "MPI_Alltoallv";
    bool in_place = snd->buf == MPI_IN_PLACE;
    int rc = MPI_SUCCESS;
    void *copy;
    uint64_t s = tide_region_begin(r);
    struct exposed_v *x = tide_region_slot(r, s, me);
    expose_blocks(in_place ? rcv : snd, n, me, in_place, x, &copy);
    if (x->err != MPI_SUCCESS)
        rc = tide_err(x->err, "%s: could not make this rank's data readable (a packed copy)", fn);
    tide_region_publish(r, s);
    tide_region_wait_all(r, s);
    if (tide_region_error(r)) {
        free(copy);
        return tide_region_error(r);
    }
    bool any_read = false;
    for (int k = 1; k < n; k++) {
        int i = (me + n - k) % n;
        const struct exposed_v *xi = tide_region_slot(r, s, i);
        any_read |= !xi->inline_data;
        struct tide_datatype *t = block_type(rcv, i);
        size_t bytes = block_bytes(rcv, i);
        if (xi->err != MPI_SUCCESS || !xi->inline_data) {
            struct exposed e = {.addr = xi->to[me].addr, .bytes = xi->to[me].bytes, .err = xi->err};
            if (bytes || e.bytes)
                keep_error(&rc, fetch(r, fn, i, &e, 0, bytes, block_ptr(rcv, i), (size_t)rcv->counts[i], t));
        } else if (bytes != xi->to[me].bytes) {
            keep_error(&rc, tide_err(MPI_ERR_TRUNCATE, "%s: rank %d sends %llu bytes where %zu were expected", fn, i,
                                     (unsigned long long)xi->to[me].bytes, bytes));
        } else if (bytes) {
            keep_error(&rc, tide_coll_copy((const uint8_t *)xi + xi->to[me].addr, bytes, tide_coll_byte(),
                                           block_ptr(rcv, i), (size_t)rcv->counts[i], t));
        }
    }
    any_read |= !x->inline_data;
    /* if anyone's memory was read, no one leaves before all have read it
     * (every rank knows the same from the slots) */
    if (any_read)
        tide_region_barrier(r);
    free(copy);
    keep_error(&rc, tide_region_error(r));
    if (!in_place)
        keep_error(&rc, tide_coll_copy(block_ptr(snd, me), (size_t)snd->counts[me], block_type(snd, me),
                                       block_ptr(rcv, me), (size_t)rcv->counts[me], block_type(rcv, me)));
    return rc;
}
