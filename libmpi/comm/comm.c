/*
 * comm.c: communicator objects: creation, references, MPI_COMM_WORLD and
 * MPI_COMM_SELF, and the simplest inquiries (size, rank).
 */
#include "runtime/api.h"
#include "mpi-ext.h"
#include "runtime/attr.h"
#include "runtime/errhandler.h"
#include "runtime/proc.h"
#include "comm/comm.h"
#include "ft/ft.h"
#include "comm/comm_fault.h"
#include "comm/context.h"
#include "comm/endpoints.h"
#include "comm/group.h"
#include "comm/topo.h"
#include "pt2pt/match.h"
#include "pt2pt/sender_check.h"
#include "runtime/info.h"

#include <stdlib.h>
#include <string.h>

struct tide_comm *tide_comm_world;
struct tide_comm *tide_comm_self;

/* hooks other modules install: pt2pt matching state and collective state */
int (*tide_comm_attach_hook)(struct tide_comm *c);
void (*tide_comm_detach_hook)(struct tide_comm *c);

struct tide_comm *tide_comm_get(MPI_Comm h)
{
    struct tide_comm *c = tide_handle_get(TIDE_KIND_COMM, h);
    return (c && !c->freed) ? c : NULL;
}

struct tide_comm *tide_comm_create(struct tide_group *local, struct tide_group *remote,
                                   uint32_t context_id, MPI_Comm fixed_handle)
{
    struct tide_comm *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->refcount = 1;
    c->context_id = context_id;
    tide_comm_fault_born(context_id + 1);
    c->group = local;
    tide_group_retain(local);
    c->rank = local->rank;
    c->size = local->size;
    c->is_inter = remote != NULL;
    if (remote) {
        c->remote_group = remote;
        tide_group_retain(remote);
        c->remote_size = remote->size;
        c->peers = remote->procs;
    } else {
        c->peers = local->procs;
    }
    c->errhandler = MPI_ERRORS_ARE_FATAL;
    c->info = MPI_INFO_NULL;
    if (fixed_handle != MPI_COMM_NULL) {
        c->handle = fixed_handle;
        tide_handle_set(TIDE_KIND_COMM, TIDE_HANDLE_INDEX(fixed_handle), c);
    } else {
        c->handle = tide_handle_alloc(TIDE_KIND_COMM, c);
    }
    if (tide_comm_attach_hook && tide_comm_attach_hook(c) != 0) {
        tide_handle_release(c->handle);
        tide_group_release(local);
        tide_group_release(remote);
        free(c);
        return NULL;
    }
    tide_sender_comm_installed(c); /* its members of another universe may send on its contexts */
    /* A member that finished making it may have revoked it before it was
     * made here: the notice found no communicator and revoked only its
     * collective context. Its point-to-point side is revoked now too, or
     * operations posted on it would wait for peers that drop them. */
    struct tide_comm_fault *f = tide_comm_faults ? tide_comm_fault_find(context_id + 1) : NULL;
    if (f && f->revoked && f->cause.cls == MPIX_ERR_REVOKED)
        tide_ft_revoke_local(c, f->cause.rank, f->cause.remote);
    return c;
}

static void destroy_deferred(void *arg)
{
    tide_comm_destroy(arg);
}

void tide_comm_release_shared(struct tide_comm *c)
{
    if (__atomic_sub_fetch(&c->refcount, 1, __ATOMIC_ACQ_REL) <= 0)
        tide_lock_defer(destroy_deferred, c);
}

void tide_comm_destroy(struct tide_comm *c)
{
    if (tide_comm_detach_hook)
        tide_comm_detach_hook(c);
    tide_sender_comm_withdrawn(c);
    if (c->local_comm)
        tide_comm_release(c->local_comm);
    /* the context and its matching queues go with the last reference;
     * a queue still holding messages nobody received stays, and then the
     * id is not given out again (the next communicator would get them) */
    bool reuse = true;
    if (c->context_id >= TIDE_CONTEXT_FIXED_END) {
        tide_matchq_drop(c->context_id);
        tide_matchq_drop(c->context_id + 1);
        reuse = !tide_matchq_find(c->context_id) && !tide_matchq_find(c->context_id + 1);
    }
    tide_comm_fault_drop(c->context_id + 1);
    tide_ft_comm_free(c);
    tide_topo_release(c->topo);
    tide_info_free_internal(&c->info);
    if (reuse)
        tide_context_release(c->context_id);
    tide_errhandler_release(c->errhandler);
    tide_handle_release(c->handle);
    tide_group_release(c->group);
    tide_group_release(c->remote_group);
    tide_ep_set_release(c->ep);
    free(c);
}

int tide_comm_init_predefined(void)
{
    struct tide_proc **world = malloc((size_t)tide.size * sizeof *world);
    if (!world)
        return -1;
    for (uint32_t r = 0; r < tide.size; r++) {
        world[r] = tide_proc_get(tide.nspace, r);
        if (!world[r]) {
            free(world);
            return -1;
        }
    }
    struct tide_group *gw = tide_group_new((int)tide.size, world);
    free(world);
    struct tide_group *gs = tide_group_new(1, &tide.me);
    if (!gw || !gs)
        return -1;
    tide_handle_reserve(TIDE_KIND_COMM, 3);
    tide_handle_reserve(TIDE_KIND_GROUP, 2);
    /* WORLD, SELF and the other fixed ids */
    for (uint32_t id = 0; id < TIDE_CONTEXT_FIXED_END; id += 2)
        tide_context_reserve(id);
    tide_comm_world = tide_comm_create(gw, NULL, TIDE_CONTEXT_WORLD, MPI_COMM_WORLD);
    tide_comm_self = tide_comm_create(gs, NULL, TIDE_CONTEXT_SELF, MPI_COMM_SELF);
    tide_group_release(gw);
    tide_group_release(gs);
    if (!tide_comm_world || !tide_comm_self)
        return -1;
    strcpy(tide_comm_world->name, "MPI_COMM_WORLD");
    strcpy(tide_comm_self->name, "MPI_COMM_SELF");
    tide_comm_world->errhandler = tide_comm_self->errhandler = tide_initial_errhandler();
    return 0;
}

void tide_comm_finalize_predefined(void)
{
    tide_attr_delete_all(TIDE_ATTR_COMM, MPI_COMM_WORLD, &tide_comm_world->attrs);
    tide_comm_release(tide_comm_self);
    tide_comm_release(tide_comm_world);
    tide_comm_self = tide_comm_world = NULL;
}

int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    TIDE_API_ENTER();
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "MPI_Comm_size: invalid communicator (argument comm)");
    if (!size)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "MPI_Comm_size: size must not be NULL");
    *size = c->size;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_size)

int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    TIDE_API_ENTER();
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "MPI_Comm_rank: invalid communicator (argument comm)");
    if (!rank)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "MPI_Comm_rank: rank must not be NULL");
    *rank = c->rank;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Comm_rank)
