/*
 * op.h: reduction operations as collectives, one-sided and MPI_Reduce_local
 * see them: looking up an MPI_Op, checking that an (op, datatype) pair is
 * one the standard allows, and applying an op element-wise to two buffers.
 *
 * Predefined ops (MPI_MAX ... MPI_MINLOC, and MPI_REPLACE / MPI_NO_OP for
 * one-sided) are static objects at fixed handles and need no set-up;
 * user ops come from MPI_Op_create and are reference counted (the user's
 * handle is one reference; a pending operation may hold more).
 */
#ifndef TIDE_OP_H
#define TIDE_OP_H

#include <stdbool.h>
#include <stddef.h>

#include "mpi.h"

struct tide_datatype;

struct tide_op {
    int handle;                /* MPI_OP_NULL once MPI_Op_free dropped the handle */
    int refcount;              /* user handle + pending operations (user ops only) */
    bool predefined;
    bool commute;
    MPI_User_function *user_fn; /* user ops */
    int index;                 /* predefined op index (handle index), 0 for user ops */
    struct tide_op *next;      /* list of live user ops (freed at finalize) */
};

/* Resolve a handle; NULL if it is not a live op (MPI_OP_NULL included). */
struct tide_op *tide_op_get(MPI_Op h);

/* Is the (op, datatype) pair allowed? MPI_SUCCESS, or an MPI_ERR_OP code
 * whose message names fn, the op and the type. User ops accept any type.
 * Predefined ops follow the standard's table on the predefined type a
 * homogeneous derived type is made of (dt->base); a type mixing several
 * predefined types is refused. MPI_REPLACE and MPI_NO_OP are accepted
 * with any predefined type (their use is one-sided accumulate). */
int tide_op_check(struct tide_op *op, struct tide_datatype *dt, const char *fn);
/* As tide_op_check, and also refuses the one-sided-only MPI_REPLACE and
 * MPI_NO_OP: the check for collectives and MPI_Reduce_local. */
int tide_op_check_reduce(struct tide_op *op, struct tide_datatype *dt, const char *fn);

/* inout[i] = in[i] op inout[i] for count elements of dt (in is the left
 * operand, as MPI orders a non-commutative reduction). Both buffers have
 * the layout of count elements of dt (the same type map, at in and at
 * inout). The pair must have passed tide_op_check. User functions are
 * called as user_fn(in, inout, &len, &dt->handle). */
void tide_op_apply(struct tide_op *op, const void *in, void *inout, size_t count,
                   struct tide_datatype *dt);

/* The name of a predefined op ("MPI_SUM") or "a user-defined operation". */
const char *tide_op_name(const struct tide_op *op);

void tide_op_retain(struct tide_op *op);
/* Drop a reference; the last one frees a user op. No-op for predefined. */
void tide_op_release(struct tide_op *op);

/* Module start/stop (runtime/modules.c). tide_op_get works before
 * tide_op_init; MPI_Op_create initialises on first use. */
int tide_op_init(void);
void tide_op_finalize(void);

/* MPI_Reduce_local of both forms (reduce_local.c; fn names the caller,
 * errors are raised). */
int tide_reduce_local_api(const char *fn, const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype,
                          MPI_Op op);

#endif
