/*
 * shm_get.c: bcast, allgather and alltoall for long data on a one-node
 * communicator whose ranks can read each other's memory (algorithm
 * "get", shm_get.h).
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
 * reader leaves as soon as it has its copy.
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
 * buffer itself when it is one, otherwise a packed copy (*copy, to be
 * freed after the second round). */
static struct exposed expose(const void *buf, size_t count, struct tide_datatype *dt, void **copy)
{
    size_t bytes = count * dt->size;
    *copy = NULL;
    if (dt->contig)
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

/* Keep the first error. */
static void note(int *rc, int e)
{
    if (e != MPI_SUCCESS && *rc == MPI_SUCCESS)
        *rc = e;
}

static const struct exposed *exposed_by(struct tide_coll_region *r, uint64_t s, int i)
{
    return tide_region_slot(r, s, i);
}

/* Allgather and alltoall: publish e (and its packed copy, if any), read
 * bytes [off, off + b) of what every other rank i exposed into block i of
 * rbuf (rcount elements of rdt each), and wait until every rank has done
 * the same before copy goes and the caller returns. */
static int read_from_all(struct tide_comm *c, struct tide_coll_region *r, const char *fn, struct exposed e, void *copy,
                         size_t off, size_t b, void *rbuf, size_t rcount, struct tide_datatype *rdt)
{
    int n = c->size, me = c->rank, rc = MPI_SUCCESS;
    if (e.err != MPI_SUCCESS)
        rc = tide_err(e.err, "%s: out of memory", fn);
    uint64_t s = tide_region_begin(r);
    memcpy(tide_region_slot(r, s, me), &e, sizeof e);
    tide_region_publish(r, s);
    tide_region_wait_all(r, s);
    for (int k = 1; k < n; k++) {
        int i = (me + n - k) % n;
        note(&rc, fetch(r, fn, i, exposed_by(r, s, i), off, b, elem_at(rbuf, rdt, (size_t)i * rcount), rcount, rdt));
    }
    s = tide_region_begin(r);
    tide_region_publish(r, s);
    tide_region_wait_all(r, s);
    free(copy);
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
        struct exposed e = expose(buf, count, dt, &copy);
        memcpy(tide_region_slot(r, s, me), &e, sizeof e);
        tide_region_publish(r, s);
        tide_region_wait_all(r, s); /* everyone has read it */
        free(copy);
        return e.err == MPI_SUCCESS ? MPI_SUCCESS : tide_err(e.err, "MPI_Bcast: out of memory");
    }
    tide_region_wait_one(r, s, root);
    struct exposed e;
    memcpy(&e, exposed_by(r, s, root), sizeof e);
    int rc = fetch(r, "MPI_Bcast", root, &e, 0, count * dt->size, buf, count, dt);
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
    struct exposed e = in_place ? expose(mine, rcount, rdt, &copy) : expose(sbuf, scount, sdt, &copy);
    int rc = read_from_all(c, r, "MPI_Allgather", e, copy, 0, rcount * rdt->size, rbuf, rcount, rdt);
    if (!in_place)
        note(&rc, tide_coll_copy(sbuf, scount, sdt, mine, rcount, rdt));
    return rc;
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
    void *copy = NULL;
    struct exposed e;
    if (in_place) {
        /* my receive buffer is about to be overwritten: the others read a
         * copy of its blocks */
        size_t all = (size_t)n * b;
        copy = malloc(all ? all : 1);
        e = copy ? (struct exposed){.addr = (uint64_t)(uintptr_t)copy, .bytes = all}
                 : (struct exposed){.err = MPI_ERR_NO_MEM};
        if (copy)
            e.err = tide_coll_copy(rbuf, (size_t)n * rcount, rdt, copy, all, tide_coll_byte());
    } else {
        e = expose(sbuf, (size_t)n * scount, sdt, &copy);
    }
    int rc = read_from_all(c, r, "MPI_Alltoall", e, copy, (size_t)me * b, b, rbuf, rcount, rdt);
    if (!in_place)
        note(&rc, tide_coll_copy(elem_at(sbuf, sdt, (size_t)me * scount), scount, sdt,
                                 elem_at(rbuf, rdt, (size_t)me * rcount), rcount, rdt));
    return rc;
}
