/*
 * topo_graph.c: graph and distributed graph topologies (MPI-2.2 sections
 * 7.5.3, 7.5.4, 7.5.5, 7.5.7): MPI_Graph_create, MPI_Graphdims_get,
 * MPI_Graph_get, MPI_Graph_neighbors_count, MPI_Graph_neighbors,
 * MPI_Graph_map, MPI_Dist_graph_create_adjacent, MPI_Dist_graph_create,
 * MPI_Dist_graph_neighbors_count, MPI_Dist_graph_neighbors.
 *
 * Reordering is not done (reorder and the info hints are ignored; ranks
 * are kept). MPI_Dist_graph_create sends every edge to both of its ends:
 * a process learns its in- and out-edges ordered by the rank that named
 * them, then by their order in that rank's arrays.
 */
#include "runtime/api.h"
#include "runtime/info.h"
#include "comm/comm.h"
#include "comm/comm_create.h"
#include "comm/exchange.h"
#include "comm/group.h"
#include "comm/topo.h"
#include "datatype/datatype.h"
#include "pt2pt/pt2pt.h"

#include <stdlib.h>
#include <string.h>

static struct tide_comm *get_intra(MPI_Comm h, const char *fn, const char *arg, int *rc)
{
    struct tide_comm *c = tide_comm_get(h);
    if (!c) {
        *rc = TIDE_ERR(MPI_ERR_COMM, "%s: invalid communicator%s (argument %s)", fn,
                       h == MPI_COMM_NULL ? " MPI_COMM_NULL" : "", arg);
        return NULL;
    }
    if (c->is_inter) {
        *rc = TIDE_ERR_COMM(c, MPI_ERR_COMM, "%s: %s must be an intracommunicator (argument %s)", fn, arg, arg);
        return NULL;
    }
    return c;
}

static int *int_dup(const int *v, int n)
{
    int *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
    if (p && n > 0)
        memcpy(p, v, (size_t)n * sizeof *p);
    return p;
}

/* ---- graphs ---- */

static int check_graph(const char *fn, int size, int nnodes, const int index[], const int edges[])
{
    if (nnodes < 0 || nnodes > size)
        return tide_err(MPI_ERR_ARG,
                        "%s: nnodes is %d; it must be 0 to %d, the size of the communicator (argument nnodes)", fn,
                        nnodes, size);
    if (nnodes == 0)
        return MPI_SUCCESS;
    if (!index)
        return tide_err(MPI_ERR_ARG, "%s: index must not be NULL", fn);
    for (int i = 0; i < nnodes; i++)
        if (index[i] < (i ? index[i - 1] : 0))
            return tide_err(MPI_ERR_ARG, "%s: index[%d] = %d is below %s (argument index; it must not decrease)", fn, i,
                            index[i], i ? "the entry before it" : "0");
    int nedges = index[nnodes - 1];
    if (nedges > 0 && !edges)
        return tide_err(MPI_ERR_ARG, "%s: edges must not be NULL", fn);
    for (int i = 0; i < nedges; i++)
        if (edges[i] < 0 || edges[i] >= nnodes)
            return tide_err(MPI_ERR_RANK, "%s: edges[%d] = %d names no node (argument edges; nodes are 0 to %d)", fn, i,
                            edges[i], nnodes - 1);
    return MPI_SUCCESS;
}

static struct tide_topo *graph_new(int nnodes, const int *index, const int *edges, int rank)
{
    struct tide_topo *t = tide_topo_new(MPI_GRAPH);
    if (!t)
        return NULL;
    t->nnodes = nnodes;
    t->nedges = index[nnodes - 1];
    t->index = int_dup(index, nnodes);
    t->edges = int_dup(edges, t->nedges);
    int first = rank ? index[rank - 1] : 0;
    t->indegree = t->outdegree = index[rank] - first;
    t->in = int_dup(edges + first, t->indegree);
    t->out = t->in;
    if (!t->index || !t->edges || !t->in) {
        tide_topo_release(t);
        return NULL;
    }
    return t;
}

int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                      MPI_Comm *comm_graph)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Graph_create";
    (void)reorder;
    int rc;
    struct tide_comm *c = get_intra(comm_old, fn, "comm_old", &rc);
    if (!c)
        return rc;
    if (!comm_graph)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: comm_graph must not be NULL", fn);
    *comm_graph = MPI_COMM_NULL; /* what a failed call leaves */
    rc = check_graph(fn, c->size, nnodes, index, edges);
    if (rc != MPI_SUCCESS)
        return tide_raise_comm(c, rc);
    if (nnodes == 0) { /* an empty graph: MPI_COMM_NULL everywhere */
        *comm_graph = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    struct tide_group *g = NULL;
    struct tide_topo *t = NULL;
    if (c->rank < nnodes) {
        g = tide_group_new(nnodes, c->group->procs);
        t = graph_new(nnodes, index, edges, c->rank);
        if (!g || !t)
            rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    struct tide_comm *nc = NULL;
    int rc2 = tide_comm_make_split(c, rc == MPI_SUCCESS ? g : NULL, 0, c->rank, &nc);
    tide_group_release(g);
    if (rc == MPI_SUCCESS)
        rc = rc2;
    if (rc != MPI_SUCCESS) {
        tide_topo_release(t);
        if (nc)
            tide_comm_release(nc);
        return tide_raise_comm(c, rc);
    }
    if (nc)
        nc->topo = t;
    *comm_graph = tide_comm_handle_of(nc);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Graph_create)

int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    TIDE_API_ENTER();
    int rc;
    struct tide_comm *c;
    struct tide_topo *t = tide_topo_of(comm, MPI_GRAPH, "MPI_Graphdims_get", &c, &rc);
    if (!t)
        return rc;
    if (!nnodes || !nedges)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "MPI_Graphdims_get: nnodes and nedges must not be NULL");
    *nnodes = t->nnodes;
    *nedges = t->nedges;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Graphdims_get)

int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Graph_get";
    int rc;
    struct tide_comm *c;
    struct tide_topo *t = tide_topo_of(comm, MPI_GRAPH, fn, &c, &rc);
    if (!t)
        return rc;
    if (maxindex < 0 || maxedges < 0)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: negative maxindex %d or maxedges %d", fn, maxindex, maxedges);
    if ((maxindex > 0 && !index) || (maxedges > 0 && !edges))
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: index and edges must not be NULL", fn);
    /* as much as the arrays hold */
    for (int i = 0; i < t->nnodes && i < maxindex; i++)
        index[i] = t->index[i];
    for (int i = 0; i < t->nedges && i < maxedges; i++)
        edges[i] = t->edges[i];
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Graph_get)

static int graph_rank(struct tide_comm *c, const struct tide_topo *t, int rank, const char *fn)
{
    if (rank < 0 || rank >= t->nnodes)
        return TIDE_ERR_COMM(c, MPI_ERR_RANK, "%s: invalid rank %d (argument rank; the graph has %d nodes)", fn, rank,
                             t->nnodes);
    return MPI_SUCCESS;
}

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Graph_neighbors_count";
    int rc;
    struct tide_comm *c;
    struct tide_topo *t = tide_topo_of(comm, MPI_GRAPH, fn, &c, &rc);
    if (!t)
        return rc;
    if ((rc = graph_rank(c, t, rank, fn)) != MPI_SUCCESS)
        return rc;
    if (!nneighbors)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: nneighbors must not be NULL", fn);
    *nneighbors = t->index[rank] - (rank ? t->index[rank - 1] : 0);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Graph_neighbors_count)

int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Graph_neighbors";
    int rc;
    struct tide_comm *c;
    struct tide_topo *t = tide_topo_of(comm, MPI_GRAPH, fn, &c, &rc);
    if (!t)
        return rc;
    if ((rc = graph_rank(c, t, rank, fn)) != MPI_SUCCESS)
        return rc;
    if (maxneighbors < 0)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: negative maxneighbors %d", fn, maxneighbors);
    if (maxneighbors > 0 && !neighbors)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: neighbors must not be NULL", fn);
    int first = rank ? t->index[rank - 1] : 0;
    for (int i = first; i < t->index[rank] && i - first < maxneighbors; i++)
        neighbors[i - first] = t->edges[i];
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Graph_neighbors)

int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Graph_map";
    int rc;
    struct tide_comm *c = get_intra(comm, fn, "comm", &rc);
    if (!c)
        return rc;
    if (!newrank)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: newrank must not be NULL", fn);
    if ((rc = check_graph(fn, c->size, nnodes, index, edges)) != MPI_SUCCESS)
        return tide_raise_comm(c, rc);
    *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Graph_map)

/* ---- distributed graphs ---- */

static bool is_unweighted(const int *w)
{
    return w == MPI_UNWEIGHTED;
}

/* Weights array usable (NULL allowed when there are no edges). */
static const int *weights_or_null(const int *w)
{
    return (w == MPI_UNWEIGHTED || w == MPI_WEIGHTS_EMPTY) ? NULL : w;
}

static int check_ranks(const char *fn, const char *arg, int n, const int *ranks, int size)
{
    if (n > 0 && !ranks)
        return tide_err(MPI_ERR_ARG, "%s: %s must not be NULL", fn, arg);
    for (int i = 0; i < n; i++)
        if (ranks[i] < 0 || ranks[i] >= size)
            return tide_err(MPI_ERR_RANK, "%s: invalid rank %d in %s[%d] (the communicator has %d ranks)", fn,
                            ranks[i], arg, i, size);
    return MPI_SUCCESS;
}

static int check_weights(const char *fn, const char *arg, int n, const int *w)
{
    if (n > 0 && w == MPI_WEIGHTS_EMPTY)
        return tide_err(MPI_ERR_ARG, "%s: %s is MPI_WEIGHTS_EMPTY but there are %d edges", fn, arg, n);
    if (n > 0 && !w)
        return tide_err(MPI_ERR_ARG, "%s: %s must not be NULL (MPI_UNWEIGHTED for none)", fn, arg);
    if (is_unweighted(w))
        return MPI_SUCCESS;
    for (int i = 0; i < n; i++)
        if (w[i] < 0)
            return tide_err(MPI_ERR_ARG, "%s: negative weight %d in %s[%d]", fn, w[i], arg, i);
    return MPI_SUCCESS;
}

static struct tide_topo *dist_new(int indeg, const int *src, const int *srcw, int outdeg, const int *dst,
                                  const int *dstw, bool weighted)
{
    struct tide_topo *t = tide_topo_new(MPI_DIST_GRAPH);
    if (!t)
        return NULL;
    t->weighted = weighted;
    t->indegree = indeg;
    t->outdegree = outdeg;
    t->in = int_dup(src, indeg);
    t->out = int_dup(dst, outdeg);
    bool ok = t->in && t->out;
    if (weighted) {
        t->inw = srcw ? int_dup(srcw, indeg) : calloc(1, sizeof *t->inw);
        t->outw = dstw ? int_dup(dstw, outdeg) : calloc(1, sizeof *t->outw);
        ok = ok && t->inw && t->outw;
    }
    if (!ok) {
        tide_topo_release(t);
        return NULL;
    }
    return t;
}

/* A communicator over comm_old's group with topology t. */
static int dist_finish(struct tide_comm *c, struct tide_topo *t, int rc, MPI_Comm *out, const char *fn)
{
    if (rc == MPI_SUCCESS && !t)
        rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    struct tide_comm *nc = NULL;
    int rc2 = tide_comm_make_split(c, rc == MPI_SUCCESS ? c->group : NULL, 0, c->rank, &nc);
    if (rc == MPI_SUCCESS)
        rc = rc2;
    if (rc != MPI_SUCCESS) {
        tide_topo_release(t);
        if (nc)
            tide_comm_release(nc);
        return tide_raise_comm(c, rc);
    }
    nc->topo = t;
    *out = nc->handle;
    return MPI_SUCCESS;
}

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                                    int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                    int reorder, MPI_Comm *comm_dist_graph)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Dist_graph_create_adjacent";
    (void)reorder;
    int rc;
    struct tide_comm *c = get_intra(comm_old, fn, "comm_old", &rc);
    if (!c)
        return rc;
    if (!comm_dist_graph)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: comm_dist_graph must not be NULL", fn);
    if (info != MPI_INFO_NULL && !tide_info_get(info))
        return TIDE_ERR_COMM(c, MPI_ERR_INFO, "%s: invalid info object (argument info)", fn);
    if (indegree < 0 || outdegree < 0)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: negative %s %d", fn, indegree < 0 ? "indegree" : "outdegree",
                             indegree < 0 ? indegree : outdegree);
    if ((rc = check_ranks(fn, "sources", indegree, sources, c->size)) != MPI_SUCCESS ||
        (rc = check_ranks(fn, "destinations", outdegree, destinations, c->size)) != MPI_SUCCESS ||
        (rc = check_weights(fn, "sourceweights", indegree, sourceweights)) != MPI_SUCCESS ||
        (rc = check_weights(fn, "destweights", outdegree, destweights)) != MPI_SUCCESS)
        return tide_raise_comm(c, rc);
    bool weighted = !is_unweighted(sourceweights) && !is_unweighted(destweights);
    struct tide_topo *t = dist_new(indegree, sources, weights_or_null(sourceweights), outdegree, destinations,
                                   weights_or_null(destweights), weighted);
    return dist_finish(c, t, MPI_SUCCESS, comm_dist_graph, fn);
}
TIDE_ALIAS(MPI_Dist_graph_create_adjacent)

/* An edge as the process at one of its ends learns it. */
struct edge_rec {
    int out;    /* 1: an out-edge of the receiver, 0: an in-edge */
    int peer;   /* the other end */
    int weight;
};

/* Every process sends each of its edges to both ends; *recs gets what
 * reached this process, ordered by sender. Collective over c. */
static int spread_edges(struct tide_comm *c, int n, const int *sources, const int *degrees, const int *dests,
                        const int *weights, struct edge_rec **recs, int *nrecs, const char *fn)
{
    int size = c->size, me = c->rank;
    int *scount = calloc((size_t)size, sizeof *scount), *rcount = calloc((size_t)size, sizeof *rcount);
    int *soff = calloc((size_t)size + 1, sizeof *soff);
    struct edge_rec *sbuf = NULL, *rbuf = NULL;
    struct tide_request **reqs = calloc(2 * (size_t)size, sizeof *reqs);
    int rc = MPI_SUCCESS, nedges = 0;
    for (int i = 0; i < n; i++)
        nedges += degrees[i];
    if (!scount || !rcount || !soff || !reqs || !(sbuf = malloc((size_t)(2 * nedges + 1) * sizeof *sbuf))) {
        rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        goto out;
    }
    /* count, then place, the records per receiver in the order given */
    for (int i = 0, k = 0; i < n; i++)
        for (int j = 0; j < degrees[i]; j++, k++) {
            scount[sources[i]]++;
            scount[dests[k]]++;
        }
    for (int p = 0; p < size; p++)
        soff[p + 1] = soff[p] + scount[p];
    memset(scount, 0, (size_t)size * sizeof *scount);
    for (int i = 0, k = 0; i < n; i++)
        for (int j = 0; j < degrees[i]; j++, k++) {
            int s = sources[i], d = dests[k], w = weights ? weights[k] : 1;
            sbuf[soff[s] + scount[s]++] = (struct edge_rec){1, d, w};
            sbuf[soff[d] + scount[d]++] = (struct edge_rec){0, s, w};
        }
    /* counts, then the records, over the collective context */
    struct tide_datatype *byte = tide_datatype_get(MPI_BYTE);
    uint32_t seq = c->coll_seq++, ctx = c->context_id + 1;
    for (int p = 0; p < size && rc == MPI_SUCCESS; p++) {
        if (p == me) {
            rcount[p] = scount[p];
            continue;
        }
        rc = tide_irecv(&rcount[p], (int)sizeof(int), byte, p, tide_coll_tag(seq, 0), c, ctx, &reqs[2 * p]);
        if (rc == MPI_SUCCESS)
            rc = tide_isend(&scount[p], (int)sizeof(int), byte, p, tide_coll_tag(seq, 0), c, ctx, TIDE_MODE_STANDARD,
                            &reqs[2 * p + 1]);
    }
    int e = tide_waitall_free(2 * size, reqs);
    if (rc == MPI_SUCCESS)
        rc = e;
    if (rc != MPI_SUCCESS)
        goto out;
    int total = 0;
    for (int p = 0; p < size; p++)
        total += rcount[p];
    if (!(rbuf = malloc((size_t)(total + 1) * sizeof *rbuf))) {
        rc = tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        goto out;
    }
    for (int p = 0, off = 0; p < size && rc == MPI_SUCCESS; off += rcount[p], p++) {
        if (p == me) {
            memcpy(rbuf + off, sbuf + soff[me], (size_t)rcount[p] * sizeof *rbuf);
            continue;
        }
        if (rcount[p])
            rc = tide_irecv(rbuf + off, rcount[p] * (int)sizeof *rbuf, byte, p, tide_coll_tag(seq, 1), c, ctx,
                            &reqs[2 * p]);
        if (rc == MPI_SUCCESS && scount[p])
            rc = tide_isend(sbuf + soff[p], scount[p] * (int)sizeof *sbuf, byte, p, tide_coll_tag(seq, 1), c, ctx,
                            TIDE_MODE_STANDARD, &reqs[2 * p + 1]);
    }
    e = tide_waitall_free(2 * size, reqs);
    if (rc == MPI_SUCCESS)
        rc = e;
    if (rc == MPI_SUCCESS) {
        *recs = rbuf;
        *nrecs = total;
        rbuf = NULL;
    }
out:
    free(scount);
    free(rcount);
    free(soff);
    free(sbuf);
    free(rbuf);
    free(reqs);
    return rc;
}

int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[], const int destinations[],
                           const int weights[], MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Dist_graph_create";
    (void)reorder;
    int rc;
    struct tide_comm *c = get_intra(comm_old, fn, "comm_old", &rc);
    if (!c)
        return rc;
    if (!comm_dist_graph)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: comm_dist_graph must not be NULL", fn);
    if (info != MPI_INFO_NULL && !tide_info_get(info))
        return TIDE_ERR_COMM(c, MPI_ERR_INFO, "%s: invalid info object (argument info)", fn);
    if (n < 0)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: negative n %d (argument n)", fn, n);
    if (n > 0 && !degrees)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: degrees must not be NULL", fn);
    long long nedges = 0;
    for (int i = 0; i < n; i++) {
        if (degrees[i] < 0)
            return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: negative degrees[%d] = %d", fn, i, degrees[i]);
        nedges += degrees[i];
    }
    if (nedges > INT32_MAX / 2)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: %lld edges are too many", fn, nedges);
    if ((rc = check_ranks(fn, "sources", n, sources, c->size)) != MPI_SUCCESS ||
        (rc = check_ranks(fn, "destinations", (int)nedges, destinations, c->size)) != MPI_SUCCESS ||
        (rc = check_weights(fn, "weights", (int)nedges, weights)) != MPI_SUCCESS)
        return tide_raise_comm(c, rc);
    bool weighted = !is_unweighted(weights);
    struct edge_rec *recs = NULL;
    int nrecs = 0;
    rc = spread_edges(c, n, sources, degrees, destinations, weights_or_null(weights), &recs, &nrecs, fn);
    struct tide_topo *t = NULL;
    if (rc == MPI_SUCCESS) {
        int nin = 0, nout = 0;
        for (int i = 0; i < nrecs; i++)
            recs[i].out ? nout++ : nin++;
        int *src = malloc((size_t)(nin + 1) * sizeof *src), *srcw = malloc((size_t)(nin + 1) * sizeof *srcw);
        int *dst = malloc((size_t)(nout + 1) * sizeof *dst), *dstw = malloc((size_t)(nout + 1) * sizeof *dstw);
        if (src && srcw && dst && dstw) {
            int a = 0, b = 0;
            for (int i = 0; i < nrecs; i++) {
                if (recs[i].out) {
                    dst[b] = recs[i].peer;
                    dstw[b++] = recs[i].weight;
                } else {
                    src[a] = recs[i].peer;
                    srcw[a++] = recs[i].weight;
                }
            }
            t = dist_new(nin, src, srcw, nout, dst, dstw, weighted);
        }
        free(src);
        free(srcw);
        free(dst);
        free(dstw);
    }
    free(recs);
    return dist_finish(c, t, rc, comm_dist_graph, fn);
}
TIDE_ALIAS(MPI_Dist_graph_create)

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Dist_graph_neighbors_count";
    int rc;
    struct tide_comm *c;
    struct tide_topo *t = tide_topo_of(comm, MPI_DIST_GRAPH, fn, &c, &rc);
    if (!t)
        return rc;
    if (!indegree || !outdegree || !weighted)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: indegree, outdegree and weighted must not be NULL", fn);
    *indegree = t->indegree;
    *outdegree = t->outdegree;
    *weighted = t->weighted ? 1 : 0;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Dist_graph_neighbors_count)

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree,
                              int destinations[], int destweights[])
{
    TIDE_API_ENTER();
    static const char fn[] = "MPI_Dist_graph_neighbors";
    int rc;
    struct tide_comm *c;
    struct tide_topo *t = tide_topo_of(comm, MPI_DIST_GRAPH, fn, &c, &rc);
    if (!t)
        return rc;
    if (maxindegree < 0 || maxoutdegree < 0)
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: negative maxindegree %d or maxoutdegree %d", fn, maxindegree,
                             maxoutdegree);
    int nin = t->indegree < maxindegree ? t->indegree : maxindegree;
    int nout = t->outdegree < maxoutdegree ? t->outdegree : maxoutdegree;
    if ((nin > 0 && !sources) || (nout > 0 && !destinations))
        return TIDE_ERR_COMM(c, MPI_ERR_ARG, "%s: sources and destinations must not be NULL", fn);
    bool want_sw = t->weighted && sourceweights && !is_unweighted(sourceweights) && sourceweights != MPI_WEIGHTS_EMPTY;
    bool want_dw = t->weighted && destweights && !is_unweighted(destweights) && destweights != MPI_WEIGHTS_EMPTY;
    for (int i = 0; i < nin; i++) {
        sources[i] = t->in[i];
        if (want_sw)
            sourceweights[i] = t->inw[i];
    }
    for (int i = 0; i < nout; i++) {
        destinations[i] = t->out[i];
        if (want_dw)
            destweights[i] = t->outw[i];
    }
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Dist_graph_neighbors)
