/*
 * coll_args.h: argument checks shared by the collective MPI functions
 * (coll_args.c), and the optional agreement check (parameter coll_check)
 * that makes mismatched roots, counts and operations an error on every
 * rank instead of a hang. Each check returns MPI_SUCCESS or an error code
 * whose message names the function and the argument; the caller raises
 * it on the communicator.
 */
#ifndef TIDE_COLL_ARGS_H
#define TIDE_COLL_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "mpi.h"
#include "coll/coll_notice.h"

struct tide_comm;
struct tide_datatype;
struct tide_op;
struct tide_sched;

/* How a collective MPI function runs. */
enum tide_coll_mode {
    TIDE_COLL_BLOCKING = 0,
    TIDE_COLL_NONBLOCKING,
    /* an _init call: checks and keeps the arguments (pcoll.h); it learns
     * the node layout like a blocking call, so that every start of the
     * request chooses the same algorithm on every rank */
    TIDE_COLL_PERSISTENT,
};

/* The communicator (*c NULL if invalid: raise with tide_coll_raise). */
int tide_coll_check_comm(MPI_Comm comm, const char *fn, struct tide_comm **c);
int tide_coll_check_intra(struct tide_comm *c, const char *fn);
int tide_coll_check_request(MPI_Request *request, const char *fn);
/* A (count, datatype) pair: valid committed type, count >= 0. */
int tide_coll_check_type(MPI_Datatype h, MPI_Count count, const char *fn, const char *argname,
                         struct tide_datatype **dt);
/* A buffer that will be read or written: not NULL when it holds data. */
int tide_coll_check_buf(const void *buf, MPI_Count count, struct tide_datatype *dt, const char *fn,
                        const char *argname);
/* MPI_IN_PLACE where the standard does not allow it. */
int tide_coll_no_in_place(const void *buf, const char *fn, const char *argname, const char *why);
/* The blocks one side of a collective reads or writes in its buffer, for
 * the alias check: block i is counts[i] (or, with counts NULL, count)
 * elements of dts[i] (or dt) at displs[i] from the buffer's start, in
 * extents of dt (in bytes when dts is set); with displs NULL there is one
 * block, at the start. */
struct tide_coll_blocks {
    int n;
    MPI_Count count;
    const MPI_Count *counts;
    const MPI_Aint *displs;
    struct tide_datatype *dt;
    struct tide_datatype **dts;
};
/* One block of count elements of dt at the start of the buffer. */
#define TIDE_COLL_BLOCK(cnt, type) (&(struct tide_coll_blocks){.n = 1, .count = (cnt), .dt = (type)})
/* sendbuf and recvbuf may not overlap (MPI forbids aliasing an OUT argument
 * with another; MPI_IN_PLACE is the way to say "in place"). Only bytes
 * that are really read and written count: two zero-length buffers, or
 * blocks side by side, may share an address. Looked at when both are the
 * same address; MPI_BOTTOM (NULL) is exempt: two absolute-address types
 * may share it. Call after the types and counts were checked. */
int tide_coll_no_alias(const void *sbuf, const struct tide_coll_blocks *snd, const void *rbuf,
                       const struct tide_coll_blocks *rcv, const char *fn);
/* root: a rank of the group (intracommunicator), or MPI_ROOT /
 * MPI_PROC_NULL / a remote rank (intercommunicator). */
int tide_coll_check_root(struct tide_comm *c, int root, const char *fn);
/* The op, and the (op, type) pair. */
int tide_coll_check_op(MPI_Op op, struct tide_datatype *dt, const char *fn, struct tide_op **o);
/* An array of n counts (and optionally displacements) of type dt
 * describing blocks of one buffer: non-NULL, counts >= 0, the byte span
 * representable; if `written`, no two blocks may overlap. */
int tide_coll_check_counts(const MPI_Count *counts, const MPI_Aint *displs, int n, struct tide_datatype *dt, bool written,
                           const char *fn, const char *cname, const char *dname);
/* Alltoallw form: per-block types and byte displacements. */
int tide_coll_check_countsw(const MPI_Count *counts, const MPI_Aint *displs, const MPI_Datatype *types, int n,
                            bool written, const char *fn, const char *cname, const char *dname,
                            const char *tname, struct tide_datatype **dts);
/* The int forms' count and displacement arrays widened to the MPI_Count
 * counts and MPI_Aint displacements the collectives work on: each call
 * makes an n-entry copy of a non-NULL array (a NULL one stays NULL, for
 * the checks to report), owned by w until tide_coll_wide_free. The copies
 * are made where the arrays are significant (the checks), and are needed
 * only while the schedule is built. */
struct tide_coll_wide {
    void *mem[4];
    int used;
};
int tide_coll_widen_counts(struct tide_coll_wide *w, const int *in, int n, const char *fn, const MPI_Count **out);
int tide_coll_widen_displs(struct tide_coll_wide *w, const int *in, int n, const char *fn, const MPI_Aint **out);
void tide_coll_wide_free(struct tide_coll_wide *w);
/* Both of a (counts, displs) pair; displs NULL: counts only. */
int tide_coll_widen(struct tide_coll_wide *w, const int *icounts, const int *idispls, int n, const char *fn,
                    const MPI_Count **counts, const MPI_Aint **displs);
/* Sum of n counts, MPI_ERR_COUNT if it overflows. */
int tide_coll_sum_counts(const MPI_Count *counts, int n, const char *fn, const char *cname, MPI_Count *sum);
/* The send side must fit in the receive side: (scount, sdt) packed bytes
 * at most (rcount, rdt) ones, and exactly as many under coll_check. */
int tide_coll_check_fit(MPI_Count scount, struct tide_datatype *sdt, MPI_Count rcount, struct tide_datatype *rdt,
                        const char *fn);

/* First thing of every collective call, once the communicator is known
 * (before any check that may fail): a blocking call learns the node
 * layout if it is not known yet (every rank does so at the same call). */
void tide_coll_enter(struct tide_comm *c, bool blocking);

/* A call whose checks failed (c valid): tide_coll_local_error, but for
 * an _init call, which takes part in no agreement and always sends
 * notices. Returns code. */
int tide_coll_mode_error(struct tide_comm *c, enum tide_coll_mode mode, int code, int root, const char *fn);

/* Raise code on c (or, with no communicator, on MPI_COMM_WORLD). */
int tide_coll_raise(struct tide_comm *c, int code);

/* ---- agreement (coll_check) ---- */

struct tide_coll_agree {
    int root;        /* as passed, or 0 where there is none */
    long long bytes; /* a size every rank must agree on, or -1 */
    int op;          /* MPI_Op handle, or 0 */
    int err;         /* this rank's error class, 0 if none */
};

/* Is coll_check on? */
bool tide_coll_checking(void);
/* Put the agreement in front of the schedule: if the ranks disagree (or
 * one of them has an error), every rank's schedule stops there with an
 * error. */
void tide_coll_agree_add(struct tide_sched *s, struct tide_comm *c, const struct tide_coll_agree *a,
                         const char *fn);
/* A rank whose arguments are wrong still takes part in the agreement (so
 * the others do not wait for it), then returns its error. */
int tide_coll_agree_fail(struct tide_comm *c, int code, int root, const char *fn);
/* A call that fails its checks on a valid communicator: under coll_check
 * joins the agreement and takes the sequence numbers the collective would
 * have taken (every rank fails with it); otherwise takes them too and
 * sends the other ranks its error notice (coll_notice.h). Returns code. */
int tide_coll_local_error(struct tide_comm *c, int code, int root, const char *fn);

#endif
