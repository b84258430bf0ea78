/*
 * topo.c: topology objects (topo.h): making, sharing and freeing them,
 * the neighbour lists the neighbourhood collectives read, and
 * MPI_Topo_test. The Cartesian functions are in topo_cart.c, the graph
 * and distributed graph ones in topo_graph.c.
 */
#include "runtime/api.h"
#include "comm/comm.h"
#include "comm/topo.h"

#include <stdlib.h>

struct tide_topo *tide_topo_new(int kind)
{
    struct tide_topo *t = calloc(1, sizeof *t);
    if (t) {
        t->kind = kind;
        t->refcount = 1;
    }
    return t;
}

void tide_topo_retain(struct tide_topo *t)
{
    if (t)
        t->refcount++;
}

void tide_topo_release(struct tide_topo *t)
{
    if (!t || --t->refcount > 0)
        return;
    free(t->dims);
    free(t->periods);
    free(t->coords);
    free(t->index);
    free(t->edges);
    /* a Cartesian or graph topology uses one list both ways */
    if (t->out != t->in)
        free(t->out);
    free(t->in);
    free(t->inw);
    free(t->outw);
    free(t);
}

int tide_topo_neighbors(const struct tide_comm *c, int *indegree, const int **sources, int *outdegree,
                        const int **destinations)
{
    const struct tide_topo *t = c ? c->topo : NULL;
    if (!t)
        return MPI_ERR_TOPOLOGY;
    if (indegree)
        *indegree = t->indegree;
    if (sources)
        *sources = t->in;
    if (outdegree)
        *outdegree = t->outdegree;
    if (destinations)
        *destinations = t->out;
    return MPI_SUCCESS;
}

int tide_topo_neighbor_weights(const struct tide_comm *c, const int **sourceweights, const int **destweights)
{
    const struct tide_topo *t = c ? c->topo : NULL;
    if (!t)
        return MPI_ERR_TOPOLOGY;
    if (sourceweights)
        *sourceweights = t->weighted ? t->inw : NULL;
    if (destweights)
        *destweights = t->weighted ? t->outw : NULL;
    return MPI_SUCCESS;
}

static const char *kind_name(int kind)
{
    return kind == MPI_CART ? "Cartesian" : kind == MPI_GRAPH ? "graph" : "distributed graph";
}

struct tide_topo *tide_topo_of(MPI_Comm comm, int kind, const char *fn, struct tide_comm **cp, int *rc)
{
    struct tide_comm *c = tide_comm_get(comm);
    *cp = c;
    if (!c) {
        *rc = TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator%s (argument comm)", fn,
                       comm == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
        return NULL;
    }
    if (!c->topo) {
        *rc = TIDE_ERR_COMM(c, MPI_ERR_TOPOLOGY, "%s: the communicator has no topology (argument comm)", fn);
        return NULL;
    }
    if (c->topo->kind != kind) {
        *rc = TIDE_ERR_COMM(c, MPI_ERR_TOPOLOGY, "%s: the communicator has a %s topology, not a %s one (argument comm)",
                            fn, kind_name(c->topo->kind), kind_name(kind));
        return NULL;
    }
    return c->topo;
}

int PMPI_Topo_test(MPI_Comm comm, int *status)
{
    TIDE_API_ENTER();
    struct tide_comm *c = tide_comm_get(comm);
    if (!c)
        return TIDE_ERR(MPI_ERR_COMM, "MPI_Topo_test: invalid communicator%s (argument comm)",
                        comm == MPI_COMM_NULL ? " MPI_COMM_NULL" : "");
    if (!status)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "MPI_Topo_test: status must not be NULL");
    *status = c->topo ? c->topo->kind : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Topo_test)
