/*
 * algo.h: what the collective algorithms share inside libmpi/coll: views
 * (a group of ranks of a communicator as an algorithm sees it), the
 * algorithm ids and the selection interface (select.c), the node layout
 * (hier.c), and the schedule builders of each file.
 *
 * Builders add the entries of one algorithm to a schedule. They work on
 * a view: v->n ranks numbered 0..n-1, this process is v->me, and view
 * rank i is rank map[i] of v->comm (identity when map is NULL). Message
 * tags are tide_coll_tag(v->seq, step) with the step numbers the builder
 * is given (base + round), so several phases of one collective, each on
 * its own view, keep apart.
 */
#ifndef TIDE_COLL_ALGO_H
#define TIDE_COLL_ALGO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"
#include "coll/sched.h"
#include "comm/comm.h"
#include "comm/exchange.h"
#include "datatype/datatype.h"

struct tide_op;

struct tide_cv {
    struct tide_comm *comm; /* messages go on its collective context */
    int n, me;
    const int *map;         /* view rank -> rank of comm; NULL: the same */
    uint32_t seq;           /* the collective's sequence number on comm */
};

static inline int cv_rank(const struct tide_cv *v, int i)
{
    return v->map ? v->map[i] : i;
}

static inline int cv_tag(const struct tide_cv *v, int step)
{
    return tide_coll_tag(v->seq, step);
}

/* The whole communicator (local group), with a new sequence number. */
static inline void tide_cv_comm(struct tide_cv *v, struct tide_comm *c)
{
    v->comm = c;
    v->n = c->size;
    v->me = c->rank;
    v->map = NULL;
    v->seq = c->coll_seq++;
}

static inline void cv_send(struct tide_sched *s, const struct tide_cv *v, int to, int step, const void *buf,
                           size_t count, struct tide_datatype *dt)
{
    tide_sched_send(s, buf, count, dt, cv_rank(v, to), cv_tag(v, step), v->comm);
}

static inline void cv_recv(struct tide_sched *s, const struct tide_cv *v, int from, int step, void *buf,
                           size_t count, struct tide_datatype *dt)
{
    tide_sched_recv(s, buf, count, dt, cv_rank(v, from), cv_tag(v, step), v->comm);
}

/* Element i of a buffer of dt (pointer arithmetic that also works from
 * MPI_BOTTOM). */
static inline void *elem_at(const void *buf, const struct tide_datatype *dt, size_t i)
{
    return (void *)((uintptr_t)buf + (uintptr_t)((MPI_Aint)i * dt->extent));
}

struct tide_datatype *tide_coll_byte(void);
/* If count elements of *dt are one contiguous run, describe them as
 * bytes (buf moved to the first byte). */
void tide_coll_as_bytes(void **buf, size_t *count, struct tide_datatype **dt);

/* Keep the first error: *rc becomes e unless it holds one already. */
static inline void keep_error(int *rc, int e)
{
    if (e != MPI_SUCCESS && *rc == MPI_SUCCESS)
        *rc = e;
}

static inline bool is_pof2(int n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

static inline int pof2_floor(int n)
{
    int p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

/* ---- algorithm ids and selection (select.c) ---- */

enum tide_coll_kind {
    TC_BARRIER,
    TC_BCAST,
    TC_GATHER,
    TC_GATHERV,
    TC_SCATTER,
    TC_SCATTERV,
    TC_ALLGATHER,
    TC_ALLGATHERV,
    TC_ALLTOALL,
    TC_ALLTOALLV,
    TC_ALLTOALLW,
    TC_REDUCE,
    TC_ALLREDUCE,
    TC_REDUCE_SCATTER_BLOCK,
    TC_REDUCE_SCATTER,
    TC_SCAN,
    TC_EXSCAN,
    TC_NKINDS
};

enum tide_coll_alg {
    TA_AUTO = 0,
    TA_LINEAR,          /* everything straight to / from one rank, or all pairs at once */
    TA_BINOMIAL,        /* binomial tree */
    TA_DISSEMINATION,   /* barrier: dissemination */
    TA_TREE,            /* barrier: binomial fan-in and fan-out */
    TA_SCATTER_RING,    /* bcast: binomial scatter + ring allgather */
    TA_SCATTER_RD,      /* bcast: binomial scatter + recursive-doubling allgather */
    TA_PIPELINE,        /* bcast: segmented chain */
    TA_RING,            /* allgather(v), allreduce, reduce_scatter, reduce */
    TA_RD,              /* recursive doubling: allgather(v), allreduce, scan */
    TA_BRUCK,           /* allgather, alltoall */
    TA_PAIRWISE,        /* alltoall(v,w), reduce_scatter */
    TA_RABENSEIFNER,    /* allreduce, reduce: reduce-scatter + allgather / gather */
    TA_REDUCE_BCAST,    /* allreduce: reduce then broadcast */
    TA_REDUCE_SCATTERV, /* reduce_scatter: reduce then scatterv */
    TA_HALVING,         /* reduce_scatter: recursive halving */
    TA_HIER,            /* node-aware two-level */
    TA_DIRECT,          /* every message of each phase at once: reduce-scatter / allgather / gather */
    TA_SHM,             /* through a region of memory the ranks of one node share (blocking calls) */
    TA_GET,             /* each rank reads straight from the others' buffers (one node, blocking calls) */
    TA_NALGS
};

/* A parsed set of override rules (coll_tuning syntax). */
struct tide_coll_rules;

/* Facts the selection depends on; identical on every rank of the call. */
struct tide_coll_sel {
    const struct tide_coll_rules *over; /* the communicator's own overrides (hint
                                           tide_coll_tuning), tried first */
    int kind;
    int n;           /* communicator (local group) size */
    size_t bytes;    /* see docs/COLLECTIVES.md: the message size of the call */
    bool commute;    /* the reduction is commutative (or there is none) */
    bool hier;       /* the node layout is known and two-level pays */
    bool oversub;    /* ranks outnumber cores (as agreed by the communicator) */
    bool even;       /* every rank's block is the same size (v-variants: false) */
    bool shm;        /* a blocking call the shared region can carry (shm_coll.c) */
    bool get;        /* a blocking call on ranks that may read each other's memory (shm_get.c) */
};

int tide_coll_select(const struct tide_coll_sel *sel);
const char *tide_coll_alg_name(int alg);
const char *tide_coll_kind_name(int kind);
/* Parse a coll_tuning string into the process-wide override table
 * (replacing it); 0, or -1 with a message in err (good entries are kept).
 * Used at first selection with the parameter's value, and by tests. */
int tide_coll_tuning_set(const char *text, char *err, size_t errlen);
/* Parse into a separate rule set (communicator hints); NULL with a
 * message in err if out of memory; bad entries are skipped. */
struct tide_coll_rules *tide_coll_rules_parse(const char *text, char *err, size_t errlen);
void tide_coll_rules_free(struct tide_coll_rules *r);
/* Is alg one the op can use? */
bool tide_coll_alg_valid(int kind, int alg);

/* ---- node layout (hier.c) ---- */

/* A blocking call's last choice on a communicator, reused by the next
 * call of the same size while nothing that weighs in the choice has
 * changed (tide_coll_memo_find). */
struct tide_coll_memo {
    size_t bytes;
    unsigned version;   /* the communicator's state version it was made under */
    unsigned rules_gen; /* and the process-wide rules' */
    int alg;            /* 0: nothing kept */
};

struct tide_coll_state {
    unsigned version;  /* bumped whenever a change here could change a choice */
    struct tide_coll_memo bcast_memo;
    int layout;        /* 0: unknown yet, 1: flat, 2: two-level */
    bool oversub;      /* agreed: ranks outnumber cores somewhere */
    int nnodes;
    int *leaders;      /* node -> its lowest rank (the leader), nodes in leader order */
    int *node_of;      /* rank -> node */
    int *local;        /* ranks on my node, ascending */
    int nlocal, local_me, my_node;
    bool agreed;       /* layout and flags came from an exchange */
    bool one_node;     /* known: every rank is on this node */
    char *hint;        /* the communicator's tide_coll_tuning hint, as parsed */
    struct tide_coll_rules *hint_rules;
    int region_state;  /* shared region: 0 not tried yet, 1 ready, -1 not to be had */
    struct tide_coll_region *region;
};

/* The choice kept in m for a call of bytes on c, or 0 (then choose with
 * tide_coll_select and keep the choice with tide_coll_memo_keep). A
 * communicator with hints never keeps one: its hints are read afresh. */
int tide_coll_memo_find(const struct tide_comm *c, const struct tide_coll_memo *m, size_t bytes);
void tide_coll_memo_keep(const struct tide_comm *c, struct tide_coll_memo *m, size_t bytes, int alg);

/* The communicator's collective state, learning the node layout if it
 * is not known yet and may_block allows the exchange it needs (blocking
 * collectives allow it; nonblocking ones use what is known). NULL only
 * if out of memory. */
struct tide_coll_state *tide_coll_state(struct tide_comm *c, bool may_block);
/* Fill sel->n, hier, oversub from what is known of the communicator
 * (never communicates: blocking collectives call tide_coll_state(c,
 * true) first thing, before any other exchange of the call). */
void tide_coll_sel_comm(struct tide_coll_sel *sel, struct tide_comm *c);
/* Views of a two-level layout: my node's ranks, and the nodes' leaders. */
void tide_cv_node(struct tide_cv *v, const struct tide_coll_state *st, const struct tide_cv *all);
void tide_cv_leaders(struct tide_cv *v, const struct tide_coll_state *st, const struct tide_cv *all);

/* ---- builders ---- */

/* barrier.c */
void tide_barrier_dissemination(struct tide_sched *s, const struct tide_cv *v, int step);
void tide_barrier_tree(struct tide_sched *s, const struct tide_cv *v, int step);
void tide_barrier_linear(struct tide_sched *s, const struct tide_cv *v, int step);
/* zero-byte binomial fan-in to view rank 0 / fan-out from it */
void tide_barrier_fan_in(struct tide_sched *s, const struct tide_cv *v, int step);
void tide_barrier_fan_out(struct tide_sched *s, const struct tide_cv *v, int step);

/* bcast.c */
void tide_bcast_linear(struct tide_sched *s, const struct tide_cv *v, void *buf, size_t count,
                       struct tide_datatype *dt, int root, int step);
void tide_bcast_binomial(struct tide_sched *s, const struct tide_cv *v, void *buf, size_t count,
                         struct tide_datatype *dt, int root, int step);
void tide_bcast_build(struct tide_sched *s, const struct tide_cv *v, void *buf, size_t count,
                      struct tide_datatype *dt, int root, int alg, int step);

/* gather.c / scatter.c: blocks of one type, as for the intercommunicator
 * forms: gather count elements of sdt from each view rank into rbuf at
 * root (rbuf: n blocks of rcount elements of rdt in view-rank order). */
void tide_gather_build(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, size_t scount,
                       struct tide_datatype *sdt, void *rbuf, size_t rcount, struct tide_datatype *rdt,
                       int root, int alg, int step);
void tide_scatter_build(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, size_t scount,
                        struct tide_datatype *sdt, void *rbuf, size_t rcount, struct tide_datatype *rdt,
                        int root, int alg, int step);

/* allgather.c: sbuf may be MPI_IN_PLACE (own block already in rbuf). */
void tide_allgather_build(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, size_t scount,
                          struct tide_datatype *sdt, void *rbuf, size_t rcount, struct tide_datatype *rdt,
                          int alg, int step);

/* reduce.c: sbuf may be MPI_IN_PLACE at root (data in rbuf); rbuf is
 * significant at root only. Non-commutative ops combine in view-rank
 * order. */
void tide_reduce_build(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, void *rbuf, size_t count,
                       struct tide_datatype *dt, struct tide_op *op, int root, int alg, int step);

/* allreduce.c: sbuf may be MPI_IN_PLACE. */
void tide_allreduce_build(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, void *rbuf,
                          size_t count, struct tide_datatype *dt, struct tide_op *op, int alg, int step);

/* reduce_scatter.c: counts[i] elements of the reduction to view rank i;
 * sbuf may be MPI_IN_PLACE (input in rbuf). */
void tide_reduce_scatter_build(struct tide_sched *s, const struct tide_cv *v, const void *sbuf, void *rbuf,
                               const MPI_Count *counts, struct tide_datatype *dt, struct tide_op *op, int alg,
                               int step);

/* The steps one builder may use: phases of one collective take bases
 * this far apart (tags wrap modulo 1024, which message order makes safe). */
#define TIDE_STEP_PHASE 256

#endif
