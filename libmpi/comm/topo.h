/*
 * topo.h: process topologies attached to communicators (comm->topo):
 * Cartesian grids, graphs and distributed graphs (MPI-2.2 chapter 7).
 *
 * A topology never changes once made; communicators share it by
 * reference (MPI_Comm_dup keeps it). Besides what the MPI inquiry
 * functions return, every topology has this process's neighbour lists in
 * the order the neighbourhood collectives use (MPI-3 section 7.6):
 *  - Cartesian: for each dimension d in order, the neighbour at -1 then
 *    the one at +1 (what MPI_Cart_shift(d, 1) gives as source and dest),
 *    MPI_PROC_NULL past the end of a non-periodic dimension; the same
 *    list in both directions, 2 * ndims entries.
 *  - graph: the neighbours of this rank in MPI_Graph_neighbors order, in
 *    both directions.
 *  - distributed graph: sources and destinations as
 *    MPI_Dist_graph_neighbors returns them (with their weights).
 */
#ifndef TIDE_TOPO_H
#define TIDE_TOPO_H

#include <stdbool.h>

#include "mpi.h"

struct tide_comm;

struct tide_topo {
    int kind;       /* MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */
    int refcount;   /* communicators using it */
    /* MPI_CART */
    int ndims;
    int *dims;      /* ndims entries each */
    int *periods;   /* 0 or 1 */
    int *coords;    /* this process's coordinates */
    /* MPI_GRAPH (the whole graph, as given to MPI_Graph_create) */
    int nnodes, nedges;
    int *index;     /* nnodes entries */
    int *edges;     /* nedges entries */
    /* MPI_DIST_GRAPH: weights given (not MPI_UNWEIGHTED) */
    bool weighted;
    /* this process's neighbours, every kind */
    int indegree, outdegree;
    int *in, *out;  /* ranks of the communicator (MPI_PROC_NULL possible) */
    int *inw, *outw; /* weights of a weighted distributed graph, else NULL */
};

/* The neighbour lists of c's topology (owned by it, valid while c lives).
 * Returns MPI_SUCCESS, or MPI_ERR_TOPOLOGY (a class, nothing raised) if c
 * has no topology. Any output pointer may be NULL. */
int tide_topo_neighbors(const struct tide_comm *c, int *indegree, const int **sources, int *outdegree,
                        const int **destinations);
/* The weights of a weighted distributed graph (NULL, NULL otherwise).
 * MPI_SUCCESS or MPI_ERR_TOPOLOGY. */
int tide_topo_neighbor_weights(const struct tide_comm *c, const int **sourceweights, const int **destweights);

/* Objects (topo.c). */
struct tide_topo *tide_topo_new(int kind);
void tide_topo_retain(struct tide_topo *t);
void tide_topo_release(struct tide_topo *t);

/* For the MPI functions: the topology of comm if it is of this kind;
 * otherwise the error (MPI_ERR_COMM, MPI_ERR_TOPOLOGY) is raised, *rc set
 * and NULL returned. *cp gets the communicator (or NULL). */
struct tide_topo *tide_topo_of(MPI_Comm comm, int kind, const char *fn, struct tide_comm **cp, int *rc);

/* Cartesian helpers (topo_cart.c): rank <-> coordinates in row-major
 * order; MPI_Dims_create's factorisation (an error class or MPI_SUCCESS). */
int tide_cart_rank_of(int ndims, const int *dims, const int *coords);
void tide_cart_coords_of(int ndims, const int *dims, int rank, int *coords);
int tide_dims_fill(int nnodes, int ndims, int *dims);

#endif
