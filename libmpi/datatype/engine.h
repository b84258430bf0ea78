/*
 * engine.h: the type engine's private representation, shared by the
 * files of libmpi/datatype/ only.
 *
 * A committed type is described by a small tree of nodes (the program)
 * built by engine.c from the constructor arguments. Leaves are contiguous
 * runs; inner nodes repeat or sequence their children:
 *
 *   CONTIG   blen bytes at off
 *   VECLEAF  count blocks of blen bytes, block i at off + i*stride
 *   BLOCKS   count blocks, block i of len[i] (or blen) bytes at off + disp[i]
 *   VEC      count copies of child, copy i at off + i*stride
 *   SEQ      count children, child i at off + disp[i]
 *
 * Adjacent runs are merged and regular patterns folded while the tree is
 * built, so a vector of doubles is one VECLEAF and a contiguous type one
 * CONTIG. Nodes of zero size never appear. Two programs exist per type:
 * the native one (all merges allowed: what pack/unpack/iov walk) and the
 * typed one, where each leaf holds one basic type (btype, its builtin
 * index) so that external32 can convert values and MPI_Get_elements can
 * count them. The typed one is built when first needed.
 */
#ifndef TIDE_DT_ENGINE_H
#define TIDE_DT_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "datatype/datatype.h"

enum dt_kind { DT_CONTIG = 1, DT_VECLEAF, DT_BLOCKS, DT_VEC, DT_SEQ };

struct dt_node {
    uint8_t kind;
    uint8_t btype;        /* typed program: builtin index of the leaf's basic type */
    uint16_t depth;       /* levels from this node down to its leaves (leaf: 1) */
    MPI_Aint off;         /* displacement of the node from its parent's position */
    size_t size;          /* packed bytes */
    MPI_Count nelem;      /* typed program: basic elements */
    size_t count;         /* blocks (VECLEAF, BLOCKS), copies (VEC), children (SEQ) */
    MPI_Aint stride;      /* VECLEAF, VEC */
    size_t blen;          /* CONTIG, VECLEAF; BLOCKS when all blocks have this length */
    MPI_Aint *disp;       /* BLOCKS, SEQ */
    size_t *len;          /* BLOCKS with varying lengths (else NULL) */
    size_t *poff;         /* BLOCKS with varying lengths, SEQ: packed offset of
                             block/child i (count + 1 entries) */
    struct dt_node *child;  /* VEC */
    struct dt_node **kids;  /* SEQ */
};

struct dt_chunk;

struct tide_dt_program {
    struct dt_chunk *chunks; /* arena: every node and array of the program */
    struct dt_node *root;    /* NULL if the type holds no data */
    int depth;
    bool typed;
};

/* Build the native (typed = false) or typed program of a type from its
 * constructor description. NULL on out of memory. */
struct tide_dt_program *tide_dt_build(struct tide_datatype *dt, bool typed);
void tide_dt_program_free(struct tide_dt_program *p);
/* The typed program of dt, building it if needed; NULL on out of memory. */
struct tide_dt_program *tide_dt_typed(struct tide_datatype *dt);

/* Contiguous pieces of one element of the program's type. */
size_t tide_dt_count_pieces(const struct tide_dt_program *p);

/* Visit the leaves of a typed program over count elements at buf, in
 * type-map order: fn(addr, nbytes, btype, arg) for each run of one basic
 * type. Returns the first nonzero value fn returns, else 0. */
typedef int (*tide_dt_visit_fn)(uintptr_t addr, size_t nbytes, int btype, void *arg);
int tide_dt_visit_typed(struct tide_datatype *dt, size_t count, uintptr_t buf,
                        tide_dt_visit_fn fn, void *arg);

/* Builtin table (type_builtin.c). */
struct tide_builtin_info {
    const char *name;
    size_t size, align;
    size_t ext32;         /* external32 size of one basic element */
    uint8_t conv;         /* external32 conversion (external32.c) */
    bool is_signed;
    uint8_t ncomp;        /* pair types: 2 components (comp[0], comp[1]) */
    uint8_t comp[2];      /* builtin indices of the components */
    size_t comp_off[2];
};
enum dt_conv {
    DT_CONV_NONE = 0,     /* not a basic type (pairs, LB/UB) */
    DT_CONV_BYTES,        /* copied as they are */
    DT_CONV_INT,          /* integer: big-endian, resized to ext32 with range check */
    DT_CONV_FLOAT,        /* IEEE float of the same size: byte order only */
    DT_CONV_LDOUBLE,      /* C long double: to/from IEEE binary128 */
    DT_CONV_COMPLEX,      /* two IEEE floats of size/2 */
    DT_CONV_LDCOMPLEX     /* two C long doubles */
};
const struct tide_builtin_info *tide_dt_builtin_info(int index);

/* Constructors usable inside the library (type_create.c): they build
 * objects without a user handle when `internal` is set. Each returns
 * MPI_SUCCESS or an error code whose message names fn. */
struct tide_datatype *tide_dt_alloc(int combiner, int ni, int na, int nd);
/* The same with room for nc large counts (tide_datatype.counts). */
struct tide_datatype *tide_dt_alloc_c(int combiner, int ni, int na, size_t nc, int nd);
int tide_dt_finish(struct tide_datatype *dt, bool internal, const char *fn);
int tide_dt_hvector(size_t count, size_t bl, MPI_Aint stride, struct tide_datatype *old,
                    struct tide_datatype **out);
int tide_dt_struct(size_t count, const size_t *bl, const MPI_Aint *disp,
                   struct tide_datatype *const *types, struct tide_datatype **out);
int tide_dt_resized(struct tide_datatype *old, MPI_Aint lb, MPI_Aint extent,
                    struct tide_datatype **out);
/* Argument k of the constructor description of a derived type in the
 * large-count order of MPI_Type_get_contents_c, whichever form it is
 * stored in: CONTIGUOUS count; (H)VECTOR count, blocklength, stride;
 * (H)INDEXED and STRUCT count, blocklengths[count], displacements[count];
 * (H)INDEXED_BLOCK count, blocklength, displacements[count]; RESIZED lb,
 * extent. */
static inline MPI_Count tide_dt_arg(const struct tide_datatype *dt, size_t k)
{
    if (dt->nc)
        return dt->counts[k];
    switch (dt->combiner) {
    case MPI_COMBINER_HVECTOR:
    case MPI_COMBINER_HINDEXED_BLOCK:
        return k < 2 ? dt->ints[k] : dt->addrs[k - 2];
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_STRUCT:
        return k <= (size_t)dt->ints[0] ? dt->ints[k] : dt->addrs[k - 1 - (size_t)dt->ints[0]];
    case MPI_COMBINER_RESIZED:
        return dt->addrs[k];
    default:
        return dt->ints[k];
    }
}

/* MPI_Type_create_subarray/darray for both forms (type_darray.c): the
 * large form keeps the sizes as large counts, the int form as ints (its
 * arguments then fit an int). Errors are raised; fn names the caller. */
int tide_dt_subarray(const char *fn, bool large, int ndims, const MPI_Count array_of_sizes[],
                     const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[], int order,
                     MPI_Datatype oldtype, MPI_Datatype *newtype);
int tide_dt_darray(const char *fn, bool large, int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                   const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[],
                   int order, MPI_Datatype oldtype, MPI_Datatype *newtype);

/* Compute size/bounds/base of dt from its constructor description. */
int tide_dt_compute(struct tide_datatype *dt, const char *fn);

/* The next user-visible handle reference (get_contents). */
void tide_dt_user_retain(struct tide_datatype *dt);

/* Free the F90 parameterized types (type_f90.c). */
void tide_dt_f90_finalize(void);

#endif
