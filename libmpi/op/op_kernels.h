/*
 * op_kernels.h: the loops behind the predefined reduction operations,
 * private to libmpi/op/. One loop per (op, C type), chosen through a
 * table indexed by (op index, predefined datatype index); the table holds
 * exactly the pairs the standard allows, so "is there a kernel" is also
 * "is the pair allowed" (MPI_REPLACE and MPI_NO_OP need no kernel).
 */
#ifndef TIDE_OP_KERNELS_H
#define TIDE_OP_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

#include "mpi.h"

/* Op indices are the handle indices of mpi.h. */
#define TIDE_OPI(h) ((int)((unsigned)(h) & ((1u << 25) - 1)))
/* Predefined datatype indices (1..TIDE_BUILTIN_TYPE_COUNT-1). */
#define TIDE_TYI(h) ((int)((unsigned)(h) & 0xffu))

/* inout[i] = in[i] op inout[i] for n elements of the kernel's C type;
 * both arrays aligned for that type; they may be the same array. */
typedef void tide_op_kernel_fn(const void *in, void *inout, size_t n);

/* The C layout a kernel works on. For the (value, index) pair types,
 * vsize is the value's size and ioff/isize place the index. */
struct tide_op_ctype {
    size_t size, align;
    size_t vsize, ioff, isize; /* pairs only (isize 0 otherwise) */
};

/* NULL if (op, type) is not an allowed pair (or the type is not
 * available in this build, e.g. MPI_REAL2 without _Float16). */
tide_op_kernel_fn *tide_op_kernel(int opi, int tyi);
/* NULL if the predefined type has no C layout here. */
const struct tide_op_ctype *tide_op_ctype(int tyi);
/* The datatype groups an op allows, for messages ("C integer, logical"). */
const char *tide_op_groups(int opi);

#endif
