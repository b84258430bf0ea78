/*
 * bsend.c: MPI_Buffer_attach, MPI_Buffer_detach and buffered mode. A
 * buffered send packs the message into a block of the attached buffer
 * (first fit, each message taking its packed size plus MPI_BSEND_OVERHEAD
 * bytes, exactly the standard's sizing rule; the data starts at the first
 * 16-byte aligned address of its block, which the overhead leaves room
 * for) and sends the block as a standard nonblocking send; the block is
 * freed when that send completes. Detach waits until every buffered
 * message has been delivered.
 */
#include "runtime/api.h"
#include "pt2pt/bsend.h"
#include "pt2pt/progress.h"
#include "pt2pt/protocol.h"
#include "pt2pt/pt2pt.h"
#include "comm/comm.h"
#include "datatype/datatype.h"

#include <stdint.h>
#include <stdlib.h>

struct blk {
    size_t off, len; /* len includes the overhead */
    struct blk *next;
};

static char *bbase;
static size_t bsize;
static struct blk *blocks; /* sorted by offset */
static size_t pending;

size_t tide_bsend_pending(void)
{
    return pending;
}

static struct blk *blk_alloc(size_t need)
{
    size_t off = 0;
    struct blk **pp = &blocks;
    while (*pp) {
        if ((*pp)->off - off >= need)
            break;
        off = (*pp)->off + (*pp)->len;
        pp = &(*pp)->next;
    }
    if (!*pp && bsize - off < need)
        return NULL;
    if (off + need > bsize)
        return NULL;
    struct blk *b = malloc(sizeof *b);
    if (!b)
        return NULL;
    b->off = off;
    b->len = need;
    b->next = *pp;
    *pp = b;
    return b;
}

static void blk_free(struct blk *b)
{
    for (struct blk **pp = &blocks; *pp; pp = &(*pp)->next)
        if (*pp == b) {
            *pp = b->next;
            free(b);
            return;
        }
}

static size_t free_bytes(void)
{
    size_t used = 0;
    for (struct blk *b = blocks; b; b = b->next)
        used += b->len;
    return bsize - used;
}

static void bsend_done(struct tide_request *r)
{
    blk_free(r->cb_data);
    pending--;
}

int tide_bsend_start(const void *buf, int count, struct tide_datatype *dt, int dest, int tag,
                     struct tide_comm *comm, struct tide_request **out, const char *fn)
{
    struct tide_request *u = tide_request_new(TIDE_REQ_SEND);
    if (!u)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory for a request", fn);
    u->peer = dest;
    if (dest != MPI_PROC_NULL) {
        size_t bytes = (size_t)count * dt->size;
        size_t need = bytes + MPI_BSEND_OVERHEAD;
        struct blk *b = bbase ? blk_alloc(need) : NULL;
        if (!b) {
            u->complete = true;
            tide_request_free(u);
            if (!bbase)
                return tide_err(MPI_ERR_BUFFER, "%s: no buffer is attached (MPI_Buffer_attach)", fn);
            return tide_err(MPI_ERR_BUFFER,
                            "%s: the attached buffer has %zu bytes free; this message needs %zu "
                            "(its size plus MPI_BSEND_OVERHEAD)",
                            fn, free_bytes(), need);
        }
        char *data = bbase + b->off;
        data += (16 - (uintptr_t)data % 16) % 16; /* at most 15 of the overhead bytes */
        struct tide_convertor cv;
        tide_conv_init(&cv, dt, (size_t)count, buf);
        tide_conv_pack(&cv, data, bytes);
        struct tide_request *s;
        int rc = tide_isend(data, (int)bytes, tide_datatype_get(MPI_PACKED), dest, tag, comm,
                            comm->context_id, TIDE_MODE_STANDARD, &s);
        if (rc != MPI_SUCCESS) {
            blk_free(b);
            u->complete = true;
            tide_request_free(u);
            return rc;
        }
        pending++;
        if (s->complete) {
            blk_free(b);
            pending--;
            tide_request_free(s);
        } else {
            s->cb_data = b;
            s->on_complete = bsend_done;
            s->user_freed = true; /* goes away by itself when delivered */
        }
    }
    tide_request_complete(u);
    *out = u;
    return MPI_SUCCESS;
}

int PMPI_Buffer_attach(void *buffer, int size)
{
    TIDE_API_ENTER();
    if (size < 0)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Buffer_attach: negative size %d (argument size)", size);
    if (!buffer && size > 0)
        return TIDE_ERR(MPI_ERR_BUFFER, "MPI_Buffer_attach: NULL buffer (argument buffer)");
    if (bbase)
        return TIDE_ERR(MPI_ERR_BUFFER, "MPI_Buffer_attach: a buffer is already attached (detach it first)");
    bbase = buffer;
    bsize = (size_t)size;
    if (!bbase)
        bbase = (char *)"", bsize = 0;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Buffer_attach)

static bool drained(void *arg)
{
    (void)arg;
    return pending == 0;
}

int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    TIDE_API_ENTER();
    if (!buffer_addr || !size)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Buffer_detach: buffer_addr and size must not be NULL");
    if (!bbase) {
        *(void **)buffer_addr = NULL;
        *size = 0;
        return MPI_SUCCESS;
    }
    tide_progress_until(drained, NULL);
    *(void **)buffer_addr = bsize ? bbase : NULL;
    *size = (int)bsize;
    bbase = NULL;
    bsize = 0;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Buffer_detach)
