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
    int handle;            /* MPI_DATATYPE_NULL for internal types without one */
    int refcount;          /* user handle + pending operations + types built on it */
    int urefs;             /* how many of those are user handle references (the
                              handle resolves while this is > 0) */
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
    bool has_lb, has_ub;   /* explicit lower/upper bound markers (MPI_LB/MPI_UB,
                              resized types) in the type map */
    size_t align;          /* largest alignment of the basic types it holds */
    struct tide_dt_program *prog;  /* the engine program (built at commit) */
    struct tide_dt_program *tprog; /* per-basic-type program (external32,
                                      element counts), built when first needed */
    struct tide_datatype *inner;   /* subarray/darray/F90 types: the equivalent
                                      type they are implemented by */
    struct tide_datatype **olds;   /* the objects of `types` (held references) */
    size_t npieces;        /* contiguous pieces of one element (set at commit) */
    struct tide_attr_list *attrs;
    char name[MPI_MAX_OBJECT_NAME];
    /* constructor arguments, for MPI_Type_get_envelope/contents */
    int ni, na, nd;
    int *ints;
    MPI_Aint *addrs;
    MPI_Datatype *types;
    /* large counts (the MPI-4 large-count constructors, and the library's
     * own types): when nc > 0 the counts, block lengths and displacements
     * are here, in the order MPI_Type_get_contents_c gives them, and not
     * in ints/addrs (tide_dt_arg reads either form) */
    size_t nc;
    MPI_Count *counts;
};

/* Resolve a handle (predefined or derived); NULL if invalid. */
struct tide_datatype *tide_datatype_get(MPI_Datatype h);
/* The predefined type with builtin index i (1..TIDE_BUILTIN_TYPE_COUNT-1). */
struct tide_datatype *tide_datatype_builtin(int i);
/* The predefined types by builtin index (0 and unset ones have handle 0). */
extern struct tide_datatype tide_builtin_types[TIDE_BUILTIN_TYPE_COUNT];
/* tide_datatype_get with the predefined types looked up inline (the
 * message calls' short path). */
static inline struct tide_datatype *tide_datatype_lookup(MPI_Datatype h)
{
    unsigned i = (unsigned)h - (unsigned)TIDE_BUILTIN_TYPE(0);
    if (i - 1 < TIDE_BUILTIN_TYPE_COUNT - 1 && tide_builtin_types[i].handle)
        return &tide_builtin_types[i];
    return tide_datatype_get(h);
}
/* Reference counting of derived types (inline: every request takes and
 * drops one; predefined types are never freed). */
static inline void tide_datatype_retain(struct tide_datatype *dt)
{
    if (!dt->predefined)
        dt->refcount++;
}
/* Free a derived type whose last reference has gone. */
void tide_dt_destroy(struct tide_datatype *dt);
static inline void tide_datatype_release(struct tide_datatype *dt)
{
    if (!dt->predefined && --dt->refcount == 0)
        tide_dt_destroy(dt);
}
/* The same under the shared library lock (runtime/lock.h): the last
 * reference's free is left to the next exclusive holder. */
static inline void tide_datatype_retain_shared(struct tide_datatype *dt)
{
    if (!dt->predefined)
        __atomic_fetch_add(&dt->refcount, 1, __ATOMIC_RELAXED);
}
void tide_datatype_release_shared(struct tide_datatype *dt);

/* Check a (count, datatype) argument for communication: NULL type,
 * uncommitted derived type, negative count. Returns MPI_SUCCESS or an
 * error code whose message names fn and the argument. */
int tide_datatype_check(struct tide_datatype *dt, MPI_Datatype h, MPI_Count count, const char *fn,
                        const char *argname);

/* The one predefined type a homogeneous type is made of: sets *base to its
 * builtin index and *n to how many one element holds; returns false if the
 * type mixes predefined types (or contains none). */
bool tide_datatype_base(const struct tide_datatype *dt, int *base, size_t *n);

/* For MPI_Get_elements: how many predefined elements nbytes of packed data
 * of this type hold; MPI_UNDEFINED if nbytes ends inside a predefined
 * element. */
MPI_Count tide_datatype_elements(const struct tide_datatype *dt, MPI_Count nbytes);
/* The inverse (MPI_Status_set_elements): how many packed bytes the first
 * `elements` predefined elements of a stream of this type take; -1 if the
 * type holds no elements and elements > 0. */
MPI_Count tide_datatype_elements_bytes(const struct tide_datatype *dt, MPI_Count elements);

/* How many contiguous pieces count elements of dt are made of (what
 * tide_conv_iov returns over the whole buffer; an upper bound when the
 * elements' pieces touch). A protocol can use it to choose between
 * single-copy transfers through iovecs (few large pieces) and packing
 * (many small ones): bytes / pieces is the average piece. */
size_t tide_datatype_pieces(const struct tide_datatype *dt, size_t count);

/* Make sure the engine program exists (types used without commit by
 * internal code); 0 or an MPI error class. Committed types have one. */
int tide_datatype_prepare(struct tide_datatype *dt);

/* ---- The convertor ---- */

struct tide_convertor {
    struct tide_datatype *dt;
    char *buf;            /* user buffer (MPI_BOTTOM-relative addresses work) */
    size_t count;
    size_t total;         /* count * dt->size bytes */
    size_t pos;           /* current byte offset in the packed stream */
    /* engine cursor (private to datatype/): where the last call stopped,
     * so the next call at that position resumes without a search */
    size_t elem;          /* position (pos) the cursor below is valid for, or SIZE_MAX */
    size_t elem_off;      /* byte offset inside the current leaf block */
    uint32_t pc;          /* depth of the saved cursor (0: none) */
    size_t loop[8];       /* loop indices of the saved cursor, outermost first */
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

/* The same walk over a type in memory as tide_conv_iov, without a
 * convertor: calls fn(addr, len, arg) for each contiguous piece of count
 * elements at buf, in type-map order (adjacent pieces merged); stops
 * early and returns fn's nonzero value if it returns one. */
int tide_datatype_foreach(struct tide_datatype *dt, size_t count, const void *buf,
                          int (*fn)(void *addr, size_t len, void *arg), void *arg);

/* MPI_Pack/MPI_Unpack/MPI_Pack_size and their external32 forms with
 * large counts: the int and the large-count MPI functions share them (fn
 * names the caller in messages; errors are raised). tide_pack_size fails
 * if the size exceeds limit. */
int tide_pack(const char *fn, const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
              MPI_Count outsize, MPI_Count *position, MPI_Comm comm);
int tide_unpack(const char *fn, const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm);
int tide_pack_size(const char *fn, MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count limit,
                   MPI_Count *size);
int tide_pack_external(const char *fn, const char datarep[], const void *inbuf, MPI_Count incount,
                       MPI_Datatype datatype, void *outbuf, MPI_Count outsize, MPI_Count *position);
int tide_unpack_external(const char *fn, const char datarep[], const void *inbuf, MPI_Count insize,
                         MPI_Count *position, void *outbuf, MPI_Count outcount, MPI_Datatype datatype);
int tide_pack_external_size(const char *fn, const char datarep[], MPI_Count incount, MPI_Datatype datatype,
                            MPI_Count *size);

/* The external32 conversion itself, for MPI-IO's views: count elements
 * of dt at user to (pack) or from the external32 bytes at ext. Returns
 * MPI_SUCCESS or an error code (not raised) naming fn. */
int tide_external32_convert(const char *fn, struct tide_datatype *dt, MPI_Count count, void *user,
                            unsigned char *ext, bool pack);
/* external32 bytes of one element of dt; -1 when out of memory. */
long long tide_external32_size(struct tide_datatype *dt);

/* Module start/stop (predefined types). */
int tide_datatype_init(void);
void tide_datatype_finalize(void);

#endif
