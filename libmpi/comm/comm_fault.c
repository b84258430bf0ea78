/*
 * comm_fault.c: the fault state of collective contexts (comm_fault.h): a
 * short list, one entry per context that ever had a refused collective
 * call, looked at only once something failed.
 */
#include "runtime/api.h"
#include "comm/comm.h"
#include "comm/comm_fault.h"
#include "runtime/handles.h"
#include "mpi-ext.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tide_comm_faults;
static struct tide_comm_fault *faults;

struct tide_comm_fault *tide_comm_fault_find(uint32_t ctx)
{
    for (struct tide_comm_fault *f = faults; f; f = f->next)
        if (f->ctx == ctx)
            return f;
    return NULL;
}

struct tide_comm_fault *tide_comm_fault_get(uint32_t ctx)
{
    struct tide_comm_fault *f = tide_comm_fault_find(ctx);
    if (f)
        return f;
    if (!(f = calloc(1, sizeof *f)))
        return NULL;
    f->ctx = ctx;
    f->next = faults;
    faults = f;
    tide_comm_faults++;
    return f;
}

struct tide_fault_call *tide_comm_fault_call(struct tide_comm_fault *f, uint32_t call)
{
    for (int i = f->ncalls - 1; i >= 0; i--)
        if (f->calls[i].call == call)
            return &f->calls[i];
    return NULL;
}

struct tide_fault_call *tide_comm_fault_add_call(struct tide_comm_fault *f, const struct tide_fault_call *rec)
{
    struct tide_fault_call *slot = tide_comm_fault_call(f, rec->call);
    if (slot) {
        slot->own |= rec->own;
        return slot;
    }
    if (f->ncalls == f->capcalls) {
        int ncap = f->capcalls ? f->capcalls * 2 : 8;
        struct tide_fault_call *n = realloc(f->calls, (size_t)ncap * sizeof *n);
        if (!n)
            return NULL;
        f->calls = n;
        f->capcalls = ncap;
    }
    slot = &f->calls[f->ncalls++];
    *slot = *rec;
    return slot;
}

void tide_comm_fault_prune(struct tide_comm_fault *f, uint32_t call, uint32_t own_window)
{
    int m = 0;
    for (int i = 0; i < f->ncalls; i++) {
        int32_t age = (int32_t)(call - f->calls[i].call);
        if (age > 0 && (!f->calls[i].own || (uint32_t)age > own_window))
            continue;
        f->calls[m++] = f->calls[i];
    }
    f->ncalls = m;
}

#define GONE 64
static uint32_t gone[GONE];
static unsigned ngone;

void tide_comm_fault_born(uint32_t ctx)
{
    for (unsigned i = 0; i < GONE && i < ngone; i++)
        if (gone[i] == ctx)
            gone[i] = 0;
}

bool tide_comm_fault_gone(uint32_t ctx)
{
    for (unsigned i = 0; i < GONE && i < ngone; i++)
        if (gone[i] == ctx)
            return true;
    return false;
}

void tide_comm_fault_drop(uint32_t ctx)
{
    gone[ngone++ % GONE] = ctx;
    for (struct tide_comm_fault **pp = &faults; *pp; pp = &(*pp)->next) {
        if ((*pp)->ctx == ctx) {
            struct tide_comm_fault *f = *pp;
            *pp = f->next;
            free(f->calls);
            free(f);
            tide_comm_faults--;
            return;
        }
    }
}

int tide_comm_fault_error(const struct tide_fault_call *rec, bool revoked)
{
    if (rec->cls == MPIX_ERR_PROC_FAILED)
        return tide_err(MPIX_ERR_PROC_FAILED, "%s: rank %d of the %s has failed; collective operations on the "
                                              "communicator end with this error",
                        rec->fn, rec->rank, rec->remote ? "remote group" : "communicator");
    if (rec->cls == MPIX_ERR_REVOKED)
        return tide_err(MPIX_ERR_REVOKED, "%s: the communicator was revoked (MPIX_Comm_revoke at rank %d of the %s)",
                        rec->fn, rec->rank, rec->remote ? "remote group" : "communicator");
    return tide_err(MPI_ERR_OTHER, "%s: rank %d of the %s failed its argument check (%s)%s", rec->fn, rec->rank,
                    rec->remote ? "remote group" : "communicator", tide_error_class_string(rec->cls),
                    revoked ? "; collective operations on the communicator are revoked" : "");
}

struct tide_comm *tide_comm_by_coll_ctx(uint32_t ctx, bool *via_local)
{
    struct tide_handle_table *t = &tide_handle_tables[TIDE_KIND_COMM];
    *via_local = false;
    struct tide_comm *local = NULL;
    for (unsigned i = 0; i < t->next; i++) {
        unsigned ch = i >> TIDE_HANDLE_CHUNK_BITS;
        if (ch >= t->nchunks || !t->chunks[ch])
            continue;
        struct tide_comm *c = t->chunks[ch][i & (TIDE_HANDLE_CHUNK - 1)];
        if (!c)
            continue;
        if (c->context_id + 1 == ctx)
            return c;
        if (c->is_inter && c->local_comm && c->local_comm->context_id + 1 == ctx)
            local = c;
    }
    *via_local = local != NULL;
    return local;
}

void tide_comm_faults_finalize(void)
{
    while (faults) {
        struct tide_comm_fault *f = faults;
        faults = f->next;
        free(f->calls);
        free(f);
    }
    tide_comm_faults = 0;
}
