/*
 * datatype.h: datatype objects and the type engine, as the rest of libmpi
 * sees them. Point-to-point, collectives, one-sided and I/O move data
 * only through this interface.
 *
 * A committed type has a compact description (the engine's program,
 * private to datatype/) with contiguous runs merged. The convertor walks
 * `count` elements of a type over a user buffer and can start or resume
 * at any byte offset of the packed stream, so large non-contiguous
 * messages move in chunks without being packed whole first.
 */
#ifndef TIDE_DATATYPE_H
#define TIDE_DATATYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "mpi.h"

struct tide_attr_list;
struct tide_dt_program; /* engine-private */

struct tide_datatype {
    int handle;
    int refcount;          /* user handle + pending operations + types built on it */
    bool predefined;
    bool committed;
    bool contig;           /* count elements form one run of count*size bytes at
                              buf + true_lb (size == extent, no holes) */
    int combiner;          /* MPI_COMBINER_* */
    size_t size;           /* bytes of data in one element */
    MPI_Aint lb, ub, extent;
    MPI_Aint true_lb, true_ub;
    int base;              /* index of the one predefined type the type map is made
                              of (see tide_datatype_base), or 0 if mixed */
    size_t nbase;          /* how many of it one element holds */
    struct tide_dt_program *prog;
    struct tide_attr_list *attrs;
    char name[MPI_MAX_OBJECT_NAME];
    /* constructor arguments, for MPI_Type_get_envelope/contents */
    int ni, na, nd;
    int *ints;
    MPI_Aint *addrs;
    MPI_Datatype *types;
};

/* Resolve a handle (predefined or derived); NULL if invalid. */
struct tide_datatype *tide_datatype_get(MPI_Datatype h);
/* The predefined type with builtin index i (1..TIDE_BUILTIN_TYPE_COUNT-1). */
struct tide_datatype *tide_datatype_builtin(int i);
void tide_datatype_retain(struct tide_datatype *dt);
void tide_datatype_release(struct tide_datatype *dt);

/* Check a (count, datatype) argument for communication: NULL type,
 * uncommitted derived type, negative count. Returns MPI_SUCCESS or an
 * error code whose message names fn and the argument. */
int tide_datatype_check(struct tide_datatype *dt, MPI_Datatype h, int count, const char *fn,
                        const char *argname);

/* The one predefined type a homogeneous type is made of: sets *base to its
 * builtin index and *n to how many one element holds; returns false if the
 * type mixes predefined types (or contains none). */
bool tide_datatype_base(const struct tide_datatype *dt, int *base, size_t *n);

/* For MPI_Get_elements: how many predefined elements nbytes of packed data
 * of this type hold; MPI_UNDEFINED if nbytes ends inside a predefined
 * element. */
MPI_Count tide_datatype_elements(const struct tide_datatype *dt, MPI_Count nbytes);

/* ---- The convertor ---- */

struct tide_convertor {
    struct tide_datatype *dt;
    char *buf;            /* user buffer (MPI_BOTTOM-relative addresses work) */
    size_t count;
    size_t total;         /* count * dt->size bytes */
    size_t pos;           /* current byte offset in the packed stream */
    /* engine cursor (private to datatype/) */
    size_t elem;          /* current element */
    size_t elem_off;      /* byte offset inside the current element's packed form */
    uint32_t pc;          /* engine program counter */
    size_t loop[8];       /* loop counters of nested program loops */
};

void tide_conv_init(struct tide_convertor *cv, struct tide_datatype *dt, size_t count, const void *buf);
/* Move to byte `offset` of the packed stream (0 <= offset <= total). */
void tide_conv_seek(struct tide_convertor *cv, size_t offset);
/* Copy up to max bytes of packed data out of / into the user buffer,
 * from the current position; returns the bytes moved (0 at the end). */
size_t tide_conv_pack(struct tide_convertor *cv, void *out, size_t max);
size_t tide_conv_unpack(struct tide_convertor *cv, const void *in, size_t len);
/* The next contiguous pieces of the user buffer, at most maxiov of them
 * and at most maxbytes in all, advancing the position past them. Returns
 * the number of iovecs filled; *bytes gets their total. */
int tide_conv_iov(struct tide_convertor *cv, struct iovec *iov, int maxiov, size_t maxbytes,
                  size_t *bytes);

/* Module start/stop (predefined types). */
int tide_datatype_init(void);
void tide_datatype_finalize(void);

#endif
