/*
 * type_create.c: the datatype constructors (contiguous, vector, hvector,
 * indexed, hindexed, indexed_block, hindexed_block, struct, resized, dup
 * and the deprecated MPI-1 forms), MPI_Type_commit and MPI_Type_free.
 *
 * A type keeps its constructor arguments (what MPI_Type_get_contents
 * returns) and references to the types it was built from; its size,
 * bounds and base type are computed here, from the type map rules of
 * MPI-2.2 section 4.1 (explicit MPI_LB/MPI_UB markers are sticky, resized
 * types carry markers, the extent of a type without an upper-bound marker
 * is padded to the alignment of its basic types). The engine program is
 * built at commit (engine.c).
 *
 * The standard's formula pads the end of the type map's last basic entry;
 * Open MPI (and MPICH, with its own padding) place a copy of an old type
 * as the whole [lb, ub) of that type, its padding included, and so does
 * Tide: the padding of an inner type counts towards the upper bound of the
 * type built from it, then that type is padded to its own alignment.
 * hvector(2, 3, 273) of hvector(3, 4, 25, MPI_INT) (extent 68: 66 bytes of
 * data padded to 4) thus ends at 273 + 3 * 68 = 477 and has extent 480,
 * where its last byte of data (475) alone would give 476. (Open MPI pads
 * after each piece it adds; Tide pads once, at the end.)
 */
#include "runtime/api.h"
#include "runtime/attr.h"
#include "datatype/datatype.h"
#include "datatype/engine.h"

#include <stdlib.h>
#include <string.h>

/* ---- objects ---- */

struct tide_datatype *tide_dt_alloc_c(int combiner, int ni, int na, size_t nc, int nd)
{
    struct tide_datatype *dt = calloc(1, sizeof *dt);
    if (!dt)
        return NULL;
    dt->combiner = combiner;
    dt->refcount = 1;
    dt->ni = ni;
    dt->na = na;
    dt->nd = nd;
    dt->nc = nc;
    dt->ints = ni ? calloc((size_t)ni, sizeof *dt->ints) : NULL;
    dt->addrs = na ? calloc((size_t)na, sizeof *dt->addrs) : NULL;
    dt->counts = nc ? calloc(nc, sizeof *dt->counts) : NULL;
    dt->types = nd ? calloc((size_t)nd, sizeof *dt->types) : NULL;
    dt->olds = nd ? calloc((size_t)nd, sizeof *dt->olds) : NULL;
    if ((ni && !dt->ints) || (na && !dt->addrs) || (nc && !dt->counts) || (nd && (!dt->types || !dt->olds))) {
        free(dt->ints);
        free(dt->addrs);
        free(dt->counts);
        free(dt->types);
        free(dt->olds);
        free(dt);
        return NULL;
    }
    return dt;
}

struct tide_datatype *tide_dt_alloc(int combiner, int ni, int na, int nd)
{
    return tide_dt_alloc_c(combiner, ni, na, 0, nd);
}

static void destroy_deferred(void *arg)
{
    tide_dt_destroy(arg);
}

void tide_datatype_release_shared(struct tide_datatype *dt)
{
    if (!dt->predefined && __atomic_sub_fetch(&dt->refcount, 1, __ATOMIC_ACQ_REL) == 0)
        tide_lock_defer(destroy_deferred, dt);
}

void tide_dt_destroy(struct tide_datatype *dt)
{
    if (dt->attrs)
        tide_attr_delete_all(TIDE_ATTR_TYPE, dt->handle, &dt->attrs);
    for (int i = 0; i < dt->nd; i++)
        if (dt->olds[i])
            tide_datatype_release(dt->olds[i]);
    if (dt->inner)
        tide_datatype_release(dt->inner);
    if (dt->prog)
        tide_dt_program_free(dt->prog);
    if (dt->tprog)
        tide_dt_program_free(dt->tprog);
    if (dt->handle != MPI_DATATYPE_NULL)
        tide_handle_release(dt->handle);
    free(dt->ints);
    free(dt->addrs);
    free(dt->counts);
    free(dt->types);
    free(dt->olds);
    free(dt);
}

/* ---- size and bounds ---- */

struct acc {
    bool any_data, has_lb, has_ub, any_base, mixed, overflow;
    MPI_Aint tlb, tub, lbm, ubm;
    MPI_Aint pub;  /* upper bound of the copies holding data, each copy's
                      alignment padding included (valid when any_data) */
    size_t align, size, nbase;
    int base;
};

static void acc_init(struct acc *a)
{
    memset(a, 0, sizeof *a);
    a->align = 1;
}

/* reps copies of t at d + k * extent(t), k = 0 .. reps-1: bounds only */
static void acc_place(struct acc *a, MPI_Aint d, size_t reps, const struct tide_datatype *t)
{
    if (reps == 0)
        return;
    if (t->handle == MPI_LB) {
        a->lbm = a->has_lb ? (d < a->lbm ? d : a->lbm) : d;
        a->has_lb = true;
        return;
    }
    if (t->handle == MPI_UB) {
        a->ubm = a->has_ub ? (d > a->ubm ? d : a->ubm) : d;
        a->has_ub = true;
        return;
    }
    MPI_Aint span, lo, hi;
    if (reps > (size_t)INTPTR_MAX || __builtin_mul_overflow((MPI_Aint)(reps - 1), t->extent, &span)) {
        a->overflow = true;
        return;
    }
    if (__builtin_add_overflow(d, span < 0 ? span : 0, &lo) ||
        __builtin_add_overflow(d, span > 0 ? span : 0, &hi)) {
        a->overflow = true;
        return;
    }
    if (t->size > 0) {
        MPI_Aint l = lo + t->true_lb, h = hi + t->true_ub;
        /* without an upper-bound marker, t's ub is its data padded to its
         * alignment (a marker makes the copy's own ub irrelevant: the
         * markers then give the upper bound) */
        MPI_Aint p = t->has_ub ? h : hi + t->ub;
        if (!a->any_data || l < a->tlb)
            a->tlb = l;
        if (!a->any_data || h > a->tub)
            a->tub = h;
        if (!a->any_data || p > a->pub)
            a->pub = p;
        a->any_data = true;
    }
    if (t->has_lb) {
        MPI_Aint l = lo + t->lb;
        a->lbm = a->has_lb ? (l < a->lbm ? l : a->lbm) : l;
        a->has_lb = true;
    }
    if (t->has_ub) {
        MPI_Aint h = hi + t->ub;
        a->ubm = a->has_ub ? (h > a->ubm ? h : a->ubm) : h;
        a->has_ub = true;
    }
    if (t->align > a->align)
        a->align = t->align;
}

/* reps copies of t: data size and base type */
static void acc_size(struct acc *a, size_t reps, const struct tide_datatype *t)
{
    size_t s, nb;
    if (reps == 0 || t->handle == MPI_LB || t->handle == MPI_UB)
        return;
    if (__builtin_mul_overflow(reps, t->size, &s) || __builtin_add_overflow(a->size, s, &a->size) ||
        a->size > (size_t)INTPTR_MAX) {
        a->overflow = true;
        return;
    }
    if (t->size == 0)
        return;
    if (!a->any_base) {
        a->any_base = true;
        a->base = t->base;
    } else if (a->base != t->base) {
        a->mixed = true;
    }
    if (__builtin_mul_overflow(reps, t->nbase, &nb) || __builtin_add_overflow(a->nbase, nb, &a->nbase))
        a->overflow = true;
}

static void acc_piece(struct acc *a, MPI_Aint d, size_t reps, const struct tide_datatype *t)
{
    acc_place(a, d, reps, t);
    acc_size(a, reps, t);
}

static int scaled(MPI_Aint v, MPI_Aint by, MPI_Aint *out)
{
    return __builtin_mul_overflow(v, by, out) ? -1 : 0;
}

static void copy_props(struct tide_datatype *dt, const struct tide_datatype *o)
{
    dt->size = o->size;
    dt->lb = o->lb;
    dt->ub = o->ub;
    dt->extent = o->extent;
    dt->true_lb = o->true_lb;
    dt->true_ub = o->true_ub;
    dt->has_lb = o->has_lb;
    dt->has_ub = o->has_ub;
    dt->align = o->align;
    dt->base = o->base;
    dt->nbase = o->nbase;
}

int tide_dt_compute(struct tide_datatype *dt, const char *fn)
{
    struct tide_datatype *o = dt->nd ? dt->olds[0] : NULL;
    struct acc a;
    acc_init(&a);
    switch (dt->combiner) {
    case MPI_COMBINER_DUP:
        copy_props(dt, o);
        return MPI_SUCCESS;
    case MPI_COMBINER_SUBARRAY:
    case MPI_COMBINER_DARRAY:
    case MPI_COMBINER_F90_REAL:
    case MPI_COMBINER_F90_COMPLEX:
    case MPI_COMBINER_F90_INTEGER:
        copy_props(dt, dt->inner);
        return MPI_SUCCESS;
    case MPI_COMBINER_RESIZED:
        copy_props(dt, o);
        dt->has_lb = dt->has_ub = true;
        dt->lb = (MPI_Aint)tide_dt_arg(dt, 0);
        dt->extent = (MPI_Aint)tide_dt_arg(dt, 1);
        if (__builtin_add_overflow(dt->lb, dt->extent, &dt->ub))
            return tide_err(MPI_ERR_ARG, "%s: lb + extent overflows", fn);
        return MPI_SUCCESS;
    case MPI_COMBINER_CONTIGUOUS:
        acc_piece(&a, 0, (size_t)tide_dt_arg(dt, 0), o);
        break;
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR: {
        size_t count = (size_t)tide_dt_arg(dt, 0), bl = (size_t)tide_dt_arg(dt, 1), total;
        MPI_Aint stride = (MPI_Aint)tide_dt_arg(dt, 2), last;
        if (dt->combiner == MPI_COMBINER_VECTOR && scaled(stride, o->extent, &stride))
            a.overflow = true;
        if (count == 0 || bl == 0)
            break;
        acc_place(&a, 0, bl, o);
        if (scaled((MPI_Aint)(count - 1), stride, &last))
            a.overflow = true;
        else
            acc_place(&a, last, bl, o);
        if (__builtin_mul_overflow(count, bl, &total))
            a.overflow = true;
        else
            acc_size(&a, total, o);
        break;
    }
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK: {
        size_t count = (size_t)tide_dt_arg(dt, 0);
        bool blk = dt->combiner == MPI_COMBINER_INDEXED_BLOCK || dt->combiner == MPI_COMBINER_HINDEXED_BLOCK;
        bool bytes = dt->combiner == MPI_COMBINER_HINDEXED || dt->combiner == MPI_COMBINER_HINDEXED_BLOCK;
        for (size_t i = 0; i < count; i++) {
            size_t bl = (size_t)tide_dt_arg(dt, blk ? 1 : 1 + i);
            MPI_Aint d = (MPI_Aint)tide_dt_arg(dt, blk ? 2 + i : 1 + count + i);
            if (!bytes && scaled(d, o->extent, &d))
                a.overflow = true;
            acc_piece(&a, d, bl, o);
        }
        break;
    }
    case MPI_COMBINER_STRUCT: {
        size_t count = (size_t)tide_dt_arg(dt, 0);
        for (size_t i = 0; i < count; i++)
            acc_piece(&a, (MPI_Aint)tide_dt_arg(dt, 1 + count + i), (size_t)tide_dt_arg(dt, 1 + i), dt->olds[i]);
        break;
    }
    default:
        return tide_err(MPI_ERR_INTERN, "%s: unknown combiner %d", fn, dt->combiner);
    }
    if (a.overflow)
        return tide_err(MPI_ERR_ARG, "%s: the datatype would be larger than the address space", fn);
    dt->size = a.size;
    dt->has_lb = a.has_lb;
    dt->has_ub = a.has_ub;
    dt->align = a.align;
    dt->true_lb = a.any_data ? a.tlb : 0;
    dt->true_ub = a.any_data ? a.tub : 0;
    dt->lb = a.has_lb ? a.lbm : dt->true_lb;
    dt->ub = a.has_ub ? a.ubm : a.any_data ? a.pub : 0;
    if (!a.has_ub && a.align > 1 && dt->ub > dt->lb) {
        MPI_Aint ext = dt->ub - dt->lb, r = ext % (MPI_Aint)a.align;
        if (r)
            dt->ub += (MPI_Aint)a.align - r;
    }
    dt->extent = dt->ub - dt->lb;
    if (a.any_base && !a.mixed) {
        dt->base = a.base;
        dt->nbase = a.nbase;
    } else if (!a.any_base && dt->nd == 1 && o) {
        dt->base = o->base; /* no data: keep the type it is made of */
        dt->nbase = 0;
    } else {
        dt->base = 0;
        dt->nbase = 0;
    }
    return MPI_SUCCESS;
}

int tide_dt_finish(struct tide_datatype *dt, bool internal, const char *fn)
{
    for (int i = 0; i < dt->nd; i++)
        if (dt->olds[i])
            tide_datatype_retain(dt->olds[i]);
    int rc = tide_dt_compute(dt, fn);
    if (rc != MPI_SUCCESS) {
        tide_dt_destroy(dt);
        return rc;
    }
    if (!internal) {
        dt->handle = tide_handle_alloc(TIDE_KIND_DATATYPE, dt);
        if (dt->handle == MPI_DATATYPE_NULL) {
            tide_dt_destroy(dt);
            return tide_err(MPI_ERR_NO_MEM, "%s: too many datatypes", fn);
        }
        dt->urefs = 1;
    }
    return MPI_SUCCESS;
}

static int commit(struct tide_datatype *dt)
{
    if (dt->committed)
        return MPI_SUCCESS;
    if (dt->size > 0 && !dt->prog) {
        dt->prog = tide_dt_build(dt, false);
        if (!dt->prog)
            return MPI_ERR_NO_MEM;
    }
    const struct dt_node *r = dt->prog ? dt->prog->root : NULL;
    dt->contig = dt->size == 0 ||
                 (r && r->kind == DT_CONTIG && r->blen == dt->size && dt->extent == (MPI_Aint)dt->size);
    dt->npieces = tide_dt_count_pieces(dt->prog);
    dt->committed = true;
    return MPI_SUCCESS;
}

/* ---- internal constructors (subarray, darray) ---- */

static int internal_new(struct tide_datatype *dt, struct tide_datatype **out)
{
    int rc = tide_dt_finish(dt, true, "internal datatype");
    if (rc == MPI_SUCCESS)
        *out = dt;
    return rc;
}

int tide_dt_hvector(size_t count, size_t bl, MPI_Aint stride, struct tide_datatype *old,
                    struct tide_datatype **out)
{
    if (count > (size_t)INT64_MAX || bl > (size_t)INT64_MAX)
        return tide_err(MPI_ERR_ARG, "internal datatype: count too large");
    struct tide_datatype *dt = tide_dt_alloc_c(MPI_COMBINER_HVECTOR, 0, 0, 3, 1);
    if (!dt)
        return tide_err(MPI_ERR_NO_MEM, "out of memory building a datatype");
    dt->counts[0] = (MPI_Count)count;
    dt->counts[1] = (MPI_Count)bl;
    dt->counts[2] = stride;
    dt->types[0] = old->handle;
    dt->olds[0] = old;
    return internal_new(dt, out);
}

int tide_dt_struct(size_t count, const size_t *bl, const MPI_Aint *disp,
                   struct tide_datatype *const *types, struct tide_datatype **out)
{
    if (count > (size_t)INT32_MAX)
        return tide_err(MPI_ERR_ARG, "internal datatype: count too large");
    struct tide_datatype *dt = tide_dt_alloc_c(MPI_COMBINER_STRUCT, 0, 0, 2 * count + 1, (int)count);
    if (!dt)
        return tide_err(MPI_ERR_NO_MEM, "out of memory building a datatype");
    dt->counts[0] = (MPI_Count)count;
    for (size_t i = 0; i < count; i++) {
        if (bl[i] > (size_t)INT64_MAX) {
            dt->nd = 0;
            tide_dt_destroy(dt);
            return tide_err(MPI_ERR_ARG, "internal datatype: block too large");
        }
        dt->counts[1 + i] = (MPI_Count)bl[i];
        dt->counts[1 + count + i] = disp[i];
        dt->types[i] = types[i]->handle;
        dt->olds[i] = types[i];
    }
    return internal_new(dt, out);
}

int tide_dt_resized(struct tide_datatype *old, MPI_Aint lb, MPI_Aint extent, struct tide_datatype **out)
{
    struct tide_datatype *dt = tide_dt_alloc(MPI_COMBINER_RESIZED, 0, 2, 1);
    if (!dt)
        return tide_err(MPI_ERR_NO_MEM, "out of memory building a datatype");
    dt->addrs[0] = lb;
    dt->addrs[1] = extent;
    dt->types[0] = old->handle;
    dt->olds[0] = old;
    return internal_new(dt, out);
}

/* ---- argument checks ---- */

static int get_type(MPI_Datatype h, const char *fn, const char *arg, struct tide_datatype **out)
{
    struct tide_datatype *dt = tide_datatype_get(h);
    if (!dt) {
        if (h == MPI_DATATYPE_NULL)
            return TIDE_ERR(MPI_ERR_TYPE, "%s: MPI_DATATYPE_NULL is not a datatype (argument %s)", fn, arg);
        return TIDE_ERR(MPI_ERR_TYPE, "%s: invalid datatype (argument %s)", fn, arg);
    }
    *out = dt;
    return MPI_SUCCESS;
}

#define CHECK_NEWTYPE(fn, p)                                                              \
    do {                                                                                  \
        if (!(p))                                                                         \
            return TIDE_ERR(MPI_ERR_ARG, "%s: newtype must not be NULL (argument newtype)", fn); \
    } while (0)
#define CHECK_COUNT(fn, c)                                                                \
    do {                                                                                  \
        if ((c) < 0)                                                                      \
            return TIDE_ERR(MPI_ERR_COUNT, "%s: negative count %d (argument count)", fn, (c)); \
    } while (0)
#define CHECK_BLEN(fn, b)                                                                 \
    do {                                                                                  \
        if ((b) < 0)                                                                      \
            return TIDE_ERR(MPI_ERR_ARG, "%s: negative blocklength %d (argument blocklength)", fn, (b)); \
    } while (0)
#define CHECK_ARRAY(fn, count, a, name)                                                   \
    do {                                                                                  \
        if ((count) > 0 && !(a))                                                          \
            return TIDE_ERR(MPI_ERR_ARG, "%s: %s must not be NULL (argument %s)", fn, name, name); \
    } while (0)

static int check_blocklengths(const char *fn, int count, const int *bl)
{
    for (int i = 0; i < count; i++)
        if (bl[i] < 0)
            return TIDE_ERR(MPI_ERR_ARG, "%s: array_of_blocklengths[%d] is negative (%d)", fn, i, bl[i]);
    return MPI_SUCCESS;
}

static int publish(struct tide_datatype *dt, const char *fn, MPI_Datatype *newtype)
{
    int rc = tide_dt_finish(dt, false, fn);
    if (rc != MPI_SUCCESS)
        return tide_raise(rc);
    *newtype = dt->handle;
    return MPI_SUCCESS;
}

#define NEW_OR_FAIL(dt, fn, comb, ni, na, nd)                                             \
    struct tide_datatype *dt = tide_dt_alloc(comb, ni, na, nd);                           \
    if (!dt)                                                                              \
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);

/* ---- the constructors ---- */

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_contiguous";
    struct tide_datatype *old;
    CHECK_COUNT(fn, count);
    int rc = get_type(oldtype, fn, "oldtype", &old);
    if (rc)
        return rc;
    CHECK_NEWTYPE(fn, newtype);
    NEW_OR_FAIL(dt, fn, MPI_COMBINER_CONTIGUOUS, 1, 0, 1);
    dt->ints[0] = count;
    dt->types[0] = oldtype;
    dt->olds[0] = old;
    return publish(dt, fn, newtype);
}
TIDE_ALIAS(MPI_Type_contiguous)

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_vector";
    struct tide_datatype *old;
    CHECK_COUNT(fn, count);
    CHECK_BLEN(fn, blocklength);
    int rc = get_type(oldtype, fn, "oldtype", &old);
    if (rc)
        return rc;
    CHECK_NEWTYPE(fn, newtype);
    NEW_OR_FAIL(dt, fn, MPI_COMBINER_VECTOR, 3, 0, 1);
    dt->ints[0] = count;
    dt->ints[1] = blocklength;
    dt->ints[2] = stride;
    dt->types[0] = oldtype;
    dt->olds[0] = old;
    return publish(dt, fn, newtype);
}
TIDE_ALIAS(MPI_Type_vector)

static int hvector(const char *fn, int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                   MPI_Datatype *newtype)
{
    struct tide_datatype *old;
    CHECK_COUNT(fn, count);
    CHECK_BLEN(fn, blocklength);
    int rc = get_type(oldtype, fn, "oldtype", &old);
    if (rc)
        return rc;
    CHECK_NEWTYPE(fn, newtype);
    NEW_OR_FAIL(dt, fn, MPI_COMBINER_HVECTOR, 2, 1, 1);
    dt->ints[0] = count;
    dt->ints[1] = blocklength;
    dt->addrs[0] = stride;
    dt->types[0] = oldtype;
    dt->olds[0] = old;
    return publish(dt, fn, newtype);
}

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    return hvector("MPI_Type_create_hvector", count, blocklength, stride, oldtype, newtype);
}
TIDE_ALIAS(MPI_Type_create_hvector)

int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    return hvector("MPI_Type_hvector", count, blocklength, stride, oldtype, newtype);
}
TIDE_ALIAS(MPI_Type_hvector)

int PMPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[],
                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_indexed";
    struct tide_datatype *old;
    CHECK_COUNT(fn, count);
    CHECK_ARRAY(fn, count, array_of_blocklengths, "array_of_blocklengths");
    CHECK_ARRAY(fn, count, array_of_displacements, "array_of_displacements");
    int rc = check_blocklengths(fn, count, array_of_blocklengths);
    if (rc)
        return rc;
    if ((rc = get_type(oldtype, fn, "oldtype", &old)))
        return rc;
    CHECK_NEWTYPE(fn, newtype);
    if (count > (INT32_MAX - 1) / 2)
        return TIDE_ERR(MPI_ERR_COUNT, "%s: count %d is too large (argument count)", fn, count);
    NEW_OR_FAIL(dt, fn, MPI_COMBINER_INDEXED, 2 * count + 1, 0, 1);
    dt->ints[0] = count;
    if (count) {
        memcpy(dt->ints + 1, array_of_blocklengths, (size_t)count * sizeof(int));
        memcpy(dt->ints + 1 + count, array_of_displacements, (size_t)count * sizeof(int));
    }
    dt->types[0] = oldtype;
    dt->olds[0] = old;
    return publish(dt, fn, newtype);
}
TIDE_ALIAS(MPI_Type_indexed)

static int hindexed(const char *fn, int count, const int *bl, const MPI_Aint *disp, MPI_Datatype oldtype,
                    MPI_Datatype *newtype)
{
    struct tide_datatype *old;
    CHECK_COUNT(fn, count);
    CHECK_ARRAY(fn, count, bl, "array_of_blocklengths");
    CHECK_ARRAY(fn, count, disp, "array_of_displacements");
    int rc = check_blocklengths(fn, count, bl);
    if (rc)
        return rc;
    if ((rc = get_type(oldtype, fn, "oldtype", &old)))
        return rc;
    CHECK_NEWTYPE(fn, newtype);
    if (count > INT32_MAX - 1)
        return TIDE_ERR(MPI_ERR_COUNT, "%s: count %d is too large (argument count)", fn, count);
    NEW_OR_FAIL(dt, fn, MPI_COMBINER_HINDEXED, count + 1, count, 1);
    dt->ints[0] = count;
    if (count) {
        memcpy(dt->ints + 1, bl, (size_t)count * sizeof(int));
        memcpy(dt->addrs, disp, (size_t)count * sizeof(MPI_Aint));
    }
    dt->types[0] = oldtype;
    dt->olds[0] = old;
    return publish(dt, fn, newtype);
}

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    return hindexed("MPI_Type_create_hindexed", count, array_of_blocklengths, array_of_displacements,
                    oldtype, newtype);
}
TIDE_ALIAS(MPI_Type_create_hindexed)

int PMPI_Type_hindexed(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    return hindexed("MPI_Type_hindexed", count, array_of_blocklengths, array_of_displacements, oldtype,
                    newtype);
}
TIDE_ALIAS(MPI_Type_hindexed)

int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_create_indexed_block";
    struct tide_datatype *old;
    CHECK_COUNT(fn, count);
    CHECK_BLEN(fn, blocklength);
    CHECK_ARRAY(fn, count, array_of_displacements, "array_of_displacements");
    int rc = get_type(oldtype, fn, "oldtype", &old);
    if (rc)
        return rc;
    CHECK_NEWTYPE(fn, newtype);
    if (count > INT32_MAX - 2)
        return TIDE_ERR(MPI_ERR_COUNT, "%s: count %d is too large (argument count)", fn, count);
    NEW_OR_FAIL(dt, fn, MPI_COMBINER_INDEXED_BLOCK, count + 2, 0, 1);
    dt->ints[0] = count;
    dt->ints[1] = blocklength;
    if (count)
        memcpy(dt->ints + 2, array_of_displacements, (size_t)count * sizeof(int));
    dt->types[0] = oldtype;
    dt->olds[0] = old;
    return publish(dt, fn, newtype);
}
TIDE_ALIAS(MPI_Type_create_indexed_block)

int PMPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[],
                                    MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_create_hindexed_block";
    struct tide_datatype *old;
    CHECK_COUNT(fn, count);
    CHECK_BLEN(fn, blocklength);
    CHECK_ARRAY(fn, count, array_of_displacements, "array_of_displacements");
    int rc = get_type(oldtype, fn, "oldtype", &old);
    if (rc)
        return rc;
    CHECK_NEWTYPE(fn, newtype);
    NEW_OR_FAIL(dt, fn, MPI_COMBINER_HINDEXED_BLOCK, 2, count, 1);
    dt->ints[0] = count;
    dt->ints[1] = blocklength;
    if (count)
        memcpy(dt->addrs, array_of_displacements, (size_t)count * sizeof(MPI_Aint));
    dt->types[0] = oldtype;
    dt->olds[0] = old;
    return publish(dt, fn, newtype);
}
TIDE_ALIAS(MPI_Type_create_hindexed_block)

static int type_struct(const char *fn, int count, const int *bl, const MPI_Aint *disp,
                       const MPI_Datatype *types, MPI_Datatype *newtype)
{
    CHECK_COUNT(fn, count);
    CHECK_ARRAY(fn, count, bl, "array_of_blocklengths");
    CHECK_ARRAY(fn, count, disp, "array_of_displacements");
    CHECK_ARRAY(fn, count, types, "array_of_types");
    int rc = check_blocklengths(fn, count, bl);
    if (rc)
        return rc;
    for (int i = 0; i < count; i++) {
        if (!tide_datatype_get(types[i])) {
            if (types[i] == MPI_DATATYPE_NULL)
                return TIDE_ERR(MPI_ERR_TYPE, "%s: array_of_types[%d] is MPI_DATATYPE_NULL", fn, i);
            return TIDE_ERR(MPI_ERR_TYPE, "%s: array_of_types[%d] is not a valid datatype", fn, i);
        }
    }
    CHECK_NEWTYPE(fn, newtype);
    if (count > INT32_MAX - 1)
        return TIDE_ERR(MPI_ERR_COUNT, "%s: count %d is too large (argument count)", fn, count);
    NEW_OR_FAIL(dt, fn, MPI_COMBINER_STRUCT, count + 1, count, count);
    dt->ints[0] = count;
    for (int i = 0; i < count; i++) {
        dt->ints[1 + i] = bl[i];
        dt->addrs[i] = disp[i];
        dt->types[i] = types[i];
        dt->olds[i] = tide_datatype_get(types[i]);
    }
    return publish(dt, fn, newtype);
}

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                            MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    return type_struct("MPI_Type_create_struct", count, array_of_blocklengths, array_of_displacements,
                       array_of_types, newtype);
}
TIDE_ALIAS(MPI_Type_create_struct)

int PMPI_Type_struct(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                     MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    return type_struct("MPI_Type_struct", count, array_of_blocklengths, array_of_displacements,
                       array_of_types, newtype);
}
TIDE_ALIAS(MPI_Type_struct)

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_create_resized";
    struct tide_datatype *old;
    int rc = get_type(oldtype, fn, "oldtype", &old);
    if (rc)
        return rc;
    CHECK_NEWTYPE(fn, newtype);
    NEW_OR_FAIL(dt, fn, MPI_COMBINER_RESIZED, 0, 2, 1);
    dt->addrs[0] = lb;
    dt->addrs[1] = extent;
    dt->types[0] = oldtype;
    dt->olds[0] = old;
    return publish(dt, fn, newtype);
}
TIDE_ALIAS(MPI_Type_create_resized)

int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_dup";
    struct tide_datatype *old;
    int rc = get_type(oldtype, fn, "oldtype", &old);
    if (rc)
        return rc;
    CHECK_NEWTYPE(fn, newtype);
    NEW_OR_FAIL(dt, fn, MPI_COMBINER_DUP, 0, 0, 1);
    dt->types[0] = oldtype;
    dt->olds[0] = old;
    rc = tide_dt_finish(dt, false, fn);
    if (rc != MPI_SUCCESS)
        return tide_raise(rc);
    if (old->committed && (rc = commit(dt)) != MPI_SUCCESS) {
        tide_datatype_release(dt);
        return TIDE_ERR(rc, "%s: out of memory", fn);
    }
    rc = tide_attr_copy_all(TIDE_ATTR_TYPE, oldtype, old->attrs, &dt->attrs);
    if (rc != MPI_SUCCESS) {
        /* a copy callback failed: no new type */
        dt->urefs = 0;
        tide_datatype_release(dt);
        *newtype = MPI_DATATYPE_NULL;
        return tide_raise(rc);
    }
    *newtype = dt->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_dup)

/* ---- commit and free ---- */

int PMPI_Type_commit(MPI_Datatype *datatype)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_commit";
    if (!datatype)
        return TIDE_ERR(MPI_ERR_ARG, "%s: datatype must not be NULL (argument datatype)", fn);
    struct tide_datatype *dt;
    int rc = get_type(*datatype, fn, "datatype", &dt);
    if (rc)
        return rc;
    rc = commit(dt);
    if (rc != MPI_SUCCESS)
        return TIDE_ERR(rc, "%s: out of memory building the type's program", fn);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_commit)

int PMPI_Type_free(MPI_Datatype *datatype)
{
    TIDE_API_ENTER();
    const char *fn = "MPI_Type_free";
    if (!datatype)
        return TIDE_ERR(MPI_ERR_ARG, "%s: datatype must not be NULL (argument datatype)", fn);
    struct tide_datatype *dt;
    int rc = get_type(*datatype, fn, "datatype", &dt);
    if (rc)
        return rc;
    if (dt->predefined)
        return TIDE_ERR(MPI_ERR_TYPE, "%s: %s is a predefined datatype and cannot be freed (argument datatype)",
                        fn, dt->name[0] ? dt->name : "the type");
    if (dt->urefs == 1 && dt->attrs) {
        rc = tide_attr_delete_all(TIDE_ATTR_TYPE, dt->handle, &dt->attrs);
        if (rc != MPI_SUCCESS)
            return tide_raise(rc);
    }
    dt->urefs--;
    *datatype = MPI_DATATYPE_NULL;
    tide_datatype_release(dt);
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Type_free)
