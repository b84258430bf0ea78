/*
 * bsend.c: MPI_Buffer_attach, MPI_Buffer_detach and buffered mode. A
 * buffered send packs the message into a block of the attached buffer
 * (first fit, each message taking its packed size plus MPI_BSEND_OVERHEAD
 * bytes, exactly the standard's sizing rule; the data starts at the first
 * 16-byte aligned address of its block, which the overhead leaves room
 * for) and sends the block as a standard nonblocking send; the block is
 * freed when that send completes. The user's request, complete at once,
 * stays linked to that send while it exists, so that MPI_Cancel reaches
 * a message the receiver has not matched (the user's request then waits
 * for the answer). Detach waits until every buffered message has been
 * delivered.
 */
#include "runtime/api.h"
#include "pt2pt/bsend.h"
#include "pt2pt/progress.h"
#include "pt2pt/protocol.h"
#include "pt2pt/pt2pt.h"
#include "comm/comm.h"
#include "datatype/datatype.h"

#include <limits.h>
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

/* The send from the attached buffer no longer needs its block. */
static void block_release(struct tide_request *s)
{
    if (s->cb_data) {
        blk_free(s->cb_data);
        s->cb_data = NULL;
        pending--;
    }
}

/* The send from the attached buffer has finished (delivered, or
 * cancelled, or a cancel was refused): the block goes, the send goes by
 * itself, and a user's request waiting for the cancel's answer gets it. */
static void bsend_done(struct tide_request *s)
{
    block_release(s);
    struct tide_request *u = s->bsend_link;
    if (!u)
        return;
    u->bsend_link = NULL;
    s->bsend_link = NULL;
    s->user_freed = true;
    if (u->cancel_pending) {
        u->cancel_pending = false;
        if (s->cancelled) {
            u->cancelled = true;
            u->status.tide_cancelled = 1;
        }
        tide_request_complete(u);
    }
}

/* Copy the message of the user's request u into the attached buffer and
 * send it from there, linked to u. */
static int bsend_copy(struct tide_request *u, const void *buf, MPI_Count count, struct tide_datatype *dt, int dest,
                      int tag, struct tide_comm *comm, const char *fn)
{
    size_t bytes = (size_t)count * dt->size;
    size_t need = bytes + MPI_BSEND_OVERHEAD;
    struct blk *b = bbase ? blk_alloc(need) : NULL;
    if (!b) {
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
    int rc = tide_isend(data, (MPI_Count)bytes, tide_datatype_get(MPI_PACKED), dest, tag, comm, comm->context_id,
                        TIDE_MODE_STANDARD, &s);
    if (rc != MPI_SUCCESS) {
        blk_free(b);
        return rc;
    }
    pending++;
    s->cb_data = b;
    s->on_complete = bsend_done;
    if (s->complete) {
        /* gone out eagerly: the block is free again, the send stays (for a
         * cancel) while u does */
        block_release(s);
    }
    s->bsend_link = u;
    u->bsend_link = s;
    return MPI_SUCCESS;
}

int tide_bsend_start(const void *buf, MPI_Count count, struct tide_datatype *dt, int dest, int tag,
                     struct tide_comm *comm, struct tide_request **out, const char *fn)
{
    struct tide_request *u = tide_request_new(TIDE_REQ_SEND);
    if (!u)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory for a request", fn);
    u->mode = TIDE_MODE_BUFFERED;
    u->peer = dest;
    if (dest != MPI_PROC_NULL) {
        int rc = bsend_copy(u, buf, count, dt, dest, tag, comm, fn);
        if (rc != MPI_SUCCESS) {
            u->complete = true;
            tide_request_free(u);
            return rc;
        }
    }
    tide_request_complete(u);
    *out = u;
    return MPI_SUCCESS;
}

int tide_bsend_restart(struct tide_request *r, const char *fn)
{
    tide_request_unlink_bsend(r); /* the previous round's send goes on alone */
    r->cancelled = false;
    r->status.tide_cancelled = 0;
    if (r->peer != MPI_PROC_NULL)
        return bsend_copy(r, r->buf, r->count, r->dt, r->peer, r->tag, r->comm, fn);
    return MPI_SUCCESS;
}

int tide_bsend_cancel(struct tide_request *u)
{
    struct tide_request *s = u->bsend_link;
    if (!s || u->cancelled || u->cancel_pending)
        return MPI_SUCCESS; /* delivered already (or to MPI_PROC_NULL): no effect */
    /* u waits for the answer, which bsend_done passes on (at once for a
     * send to this process) */
    u->cancel_pending = true;
    u->complete = false;
    int rc = tide_request_cancel(s);
    if (u->bsend_link && !s->cancel_pending) {
        /* no effect (the message is being received): u stays complete */
        u->cancel_pending = false;
        u->complete = true;
    }
    return rc;
}

int tide_buffer_attach(const char *fn, void *buffer, MPI_Count size)
{
    if (size < 0)
        return TIDE_ERR(MPI_ERR_ARG, "%s: negative size %lld (argument size)", fn, size);
    if (!buffer && size > 0)
        return TIDE_ERR(MPI_ERR_BUFFER, "%s: NULL buffer (argument buffer)", fn);
    if (bbase)
        return TIDE_ERR(MPI_ERR_BUFFER, "%s: a buffer is already attached (detach it first)", fn);
    bbase = buffer;
    bsize = (size_t)size;
    if (!bbase)
        bbase = (char *)"", bsize = 0;
    return MPI_SUCCESS;
}

int PMPI_Buffer_attach(void *buffer, int size)
{
    TIDE_API_ENTER();
    return tide_buffer_attach("MPI_Buffer_attach", buffer, size);
}
TIDE_ALIAS(MPI_Buffer_attach)

static bool drained(void *arg)
{
    (void)arg;
    return pending == 0;
}

int tide_buffer_detach(const char *fn, void *buffer_addr, MPI_Count *size)
{
    if (!buffer_addr || !size)
        return TIDE_ERR(MPI_ERR_ARG, "%s: buffer_addr and size must not be NULL", fn);
    if (!bbase) {
        *(void **)buffer_addr = NULL;
        *size = 0;
        return MPI_SUCCESS;
    }
    tide_progress_until(drained, NULL);
    *(void **)buffer_addr = bsize ? bbase : NULL;
    *size = (MPI_Count)bsize;
    bbase = NULL;
    bsize = 0;
    return MPI_SUCCESS;
}

int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    TIDE_API_ENTER();
    MPI_Count n = 0;
    int rc = tide_buffer_detach("MPI_Buffer_detach", buffer_addr, size ? &n : NULL);
    if (rc == MPI_SUCCESS) /* a buffer attached by MPI_Buffer_attach_c may be larger than an int */
        *size = n > INT_MAX ? MPI_UNDEFINED : (int)n;
    return rc;
}
TIDE_ALIAS(MPI_Buffer_detach)
