/*
 * op.c: reduction operation objects (predefined and user-defined), the
 * (op, datatype) check, applying an op to two buffers of any datatype,
 * and MPI_Op_create, MPI_Op_free, MPI_Op_commutative.
 */
#include "runtime/api.h"
#include "datatype/datatype.h"
#include "op/op.h"
#include "op/op_kernels.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PREDEF(h) [TIDE_OPI(h)] = {.handle = (h), .refcount = 1, .predefined = true, \
                                   .commute = true, .index = TIDE_OPI(h)}
static struct tide_op builtin_ops[TIDE_BUILTIN_OP_COUNT] = {
    PREDEF(MPI_MAX),    PREDEF(MPI_MIN),    PREDEF(MPI_SUM),     PREDEF(MPI_PROD),
    PREDEF(MPI_LAND),   PREDEF(MPI_BAND),   PREDEF(MPI_LOR),     PREDEF(MPI_BOR),
    PREDEF(MPI_LXOR),   PREDEF(MPI_BXOR),   PREDEF(MPI_MAXLOC),  PREDEF(MPI_MINLOC),
    PREDEF(MPI_REPLACE), PREDEF(MPI_NO_OP),
};

static const char *const op_names[TIDE_BUILTIN_OP_COUNT] = {
    [TIDE_OPI(MPI_MAX)] = "MPI_MAX",         [TIDE_OPI(MPI_MIN)] = "MPI_MIN",
    [TIDE_OPI(MPI_SUM)] = "MPI_SUM",         [TIDE_OPI(MPI_PROD)] = "MPI_PROD",
    [TIDE_OPI(MPI_LAND)] = "MPI_LAND",       [TIDE_OPI(MPI_BAND)] = "MPI_BAND",
    [TIDE_OPI(MPI_LOR)] = "MPI_LOR",         [TIDE_OPI(MPI_BOR)] = "MPI_BOR",
    [TIDE_OPI(MPI_LXOR)] = "MPI_LXOR",       [TIDE_OPI(MPI_BXOR)] = "MPI_BXOR",
    [TIDE_OPI(MPI_MAXLOC)] = "MPI_MAXLOC",   [TIDE_OPI(MPI_MINLOC)] = "MPI_MINLOC",
    [TIDE_OPI(MPI_REPLACE)] = "MPI_REPLACE", [TIDE_OPI(MPI_NO_OP)] = "MPI_NO_OP",
};

static bool op_initialized;
static struct tide_op *user_ops; /* live user ops */

int tide_op_init(void)
{
    if (op_initialized)
        return 0;
    for (int i = 1; i < TIDE_BUILTIN_OP_COUNT; i++)
        if (tide_handle_set(TIDE_KIND_OP, (unsigned)i, &builtin_ops[i]) != 0)
            return -1;
    tide_handle_reserve(TIDE_KIND_OP, TIDE_BUILTIN_OP_COUNT);
    op_initialized = true;
    return 0;
}

void tide_op_finalize(void)
{
    while (user_ops) {
        struct tide_op *o = user_ops;
        user_ops = o->next;
        if (o->handle != MPI_OP_NULL)
            tide_handle_release(o->handle);
        free(o);
    }
}

struct tide_op *tide_op_get(MPI_Op h)
{
    if (TIDE_HANDLE_KIND(h) != TIDE_KIND_OP)
        return NULL;
    unsigned idx = TIDE_HANDLE_INDEX(h);
    if (idx == 0 || h != TIDE_HANDLE(TIDE_KIND_OP, idx))
        return NULL;
    if (idx < TIDE_BUILTIN_OP_COUNT)
        return &builtin_ops[idx];
    struct tide_op *o = tide_handle_get(TIDE_KIND_OP, h);
    return (o && o->handle == h) ? o : NULL;
}

const char *tide_op_name(const struct tide_op *op)
{
    if (op && op->predefined && op->index > 0 && op->index < TIDE_BUILTIN_OP_COUNT)
        return op_names[op->index];
    return "a user-defined operation";
}

void tide_op_retain(struct tide_op *op)
{
    if (op && !op->predefined)
        op->refcount++;
}

void tide_op_release(struct tide_op *op)
{
    if (!op || op->predefined || --op->refcount > 0)
        return;
    for (struct tide_op **p = &user_ops; *p; p = &(*p)->next)
        if (*p == op) {
            *p = op->next;
            break;
        }
    if (op->handle != MPI_OP_NULL)
        tide_handle_release(op->handle);
    free(op);
}

/* ---- the (op, datatype) check ---- */

static bool rma_only(const struct tide_op *op)
{
    return op->predefined &&
           (op->index == TIDE_OPI(MPI_REPLACE) || op->index == TIDE_OPI(MPI_NO_OP));
}

/* Can the loops work on elements of predefined type b as the convertor
 * packs them? (Yes unless the engine packs a type in a form that is
 * neither its C layout nor, for pairs, value then index.) */
static bool layout_ok(int b)
{
    const struct tide_op_ctype *ct = tide_op_ctype(b);
    struct tide_datatype *bt = tide_datatype_builtin(b);
    if (!ct || !bt)
        return false;
    return bt->size == ct->size || (ct->isize && bt->size == ct->vsize + ct->isize);
}

static const char *type_name(int b)
{
    struct tide_datatype *bt = tide_datatype_builtin(b);
    return bt && bt->name[0] ? bt->name : "an unnamed predefined type";
}

int tide_op_check(struct tide_op *op, struct tide_datatype *dt, const char *fn)
{
    if (!op)
        return tide_err(MPI_ERR_OP, "%s: invalid operation (argument op)", fn);
    if (!dt)
        return tide_err(MPI_ERR_TYPE, "%s: invalid datatype (argument datatype)", fn);
    if (!op->predefined)
        return MPI_SUCCESS;
    const char *opname = op_names[op->index];
    int b = dt->base;
    if (b <= 0 || b >= TIDE_BUILTIN_TYPE_COUNT)
        return tide_err(MPI_ERR_OP,
                        "%s: %s is not defined for datatype %s, which mixes several basic types "
                        "(arguments op and datatype)",
                        fn, opname, dt->name[0] ? dt->name : "(a derived datatype)");
    const char *derived = dt->predefined ? "" : "a derived datatype of ";
    if (rma_only(op)) {
        struct tide_datatype *bt = tide_datatype_builtin(b);
        if (!bt || bt->size == 0 || b == TIDE_TYI(MPI_PACKED))
            return tide_err(MPI_ERR_OP, "%s: %s is not defined for datatype %s%s (arguments op and datatype)",
                            fn, opname, derived, type_name(b));
        return MPI_SUCCESS;
    }
    if (!tide_op_kernel(op->index, b))
        return tide_err(MPI_ERR_OP,
                        "%s: %s is not defined for datatype %s%s (arguments op and datatype; %s "
                        "applies to %s types)",
                        fn, opname, derived, type_name(b), opname, tide_op_groups(op->index));
    if (!layout_ok(b))
        return tide_err(MPI_ERR_OP, "%s: %s on datatype %s%s is not supported by this build", fn,
                        opname, derived, type_name(b));
    return MPI_SUCCESS;
}

int tide_op_check_reduce(struct tide_op *op, struct tide_datatype *dt, const char *fn)
{
    if (op && rma_only(op))
        return tide_err(MPI_ERR_OP,
                        "%s: %s may only be used in one-sided accumulate operations (argument op)",
                        fn, op_names[op->index]);
    return tide_op_check(op, dt, fn);
}

/* ---- applying an op ---- */

#define STAGE_BYTES 4096 /* three of these on the stack */

/* The convertor packs pair types with index right after the value when
 * their C struct has padding there; move between that and the C layout. */
static void pairs_to_c(const struct tide_op_ctype *ct, const char *packed, size_t psize, char *c,
                       size_t n)
{
    for (size_t k = 0; k < n; k++) {
        memcpy(c + k * ct->size, packed + k * psize, ct->vsize);
        memcpy(c + k * ct->size + ct->ioff, packed + k * psize + ct->vsize, ct->isize);
    }
}

static void pairs_from_c(const struct tide_op_ctype *ct, const char *c, char *packed, size_t psize,
                         size_t n)
{
    for (size_t k = 0; k < n; k++) {
        memcpy(packed + k * psize, c + k * ct->size, ct->vsize);
        memcpy(packed + k * psize + ct->vsize, c + k * ct->size + ct->ioff, ct->isize);
    }
}

/* Non-contiguous or misaligned buffers: pack a stretch of both operands
 * into aligned staging buffers, apply the loop there, unpack the result. */
static void apply_staged(int opi, tide_op_kernel_fn *k, const struct tide_op_ctype *ct, size_t esize,
                         const void *in, void *inout, size_t count, struct tide_datatype *dt)
{
    _Alignas(64) char sin[STAGE_BYTES];
    _Alignas(64) char sio[STAGE_BYTES];
    _Alignas(64) char spk[STAGE_BYTES];
    bool relayout = ct && esize != ct->size;
    size_t csize = ct ? ct->size : esize;
    size_t per = STAGE_BYTES / (csize > esize ? csize : esize); /* elements per stretch */
    struct tide_convertor cin, cio, cout;
    tide_conv_init(&cin, dt, count, in);
    tide_conv_init(&cio, dt, count, inout);
    tide_conv_init(&cout, dt, count, inout);
    for (;;) {
        if (opi == TIDE_OPI(MPI_REPLACE)) {
            size_t got = tide_conv_pack(&cin, sin, per * esize);
            if (got == 0)
                break;
            tide_conv_unpack(&cout, sin, got);
            continue;
        }
        size_t got;
        if (relayout) {
            got = tide_conv_pack(&cin, spk, per * esize);
            if (got == 0)
                break;
            pairs_to_c(ct, spk, esize, sin, got / esize);
            tide_conv_pack(&cio, spk, got);
            pairs_to_c(ct, spk, esize, sio, got / esize);
            k(sin, sio, got / esize);
            pairs_from_c(ct, sio, spk, esize, got / esize);
            tide_conv_unpack(&cout, spk, got);
        } else {
            got = tide_conv_pack(&cin, sin, per * esize);
            if (got == 0)
                break;
            tide_conv_pack(&cio, sio, got);
            k(sin, sio, got / esize);
            tide_conv_unpack(&cout, sio, got);
        }
    }
}

static bool aligned(const void *p, size_t a)
{
    return a <= 1 || ((uintptr_t)p & (a - 1)) == 0;
}

static void apply_predefined(struct tide_op *op, const void *in, void *inout, size_t count,
                             struct tide_datatype *dt)
{
    int opi = op->index;
    if (opi == TIDE_OPI(MPI_NO_OP) || count == 0)
        return;
    int b = dt->base;
    struct tide_datatype *bt = tide_datatype_builtin(b);
    if (!bt || bt->size == 0)
        return;
    size_t esize = bt->size;
    size_t n = count * dt->nbase;
    tide_op_kernel_fn *k = NULL;
    const struct tide_op_ctype *ct = NULL;
    if (opi != TIDE_OPI(MPI_REPLACE)) {
        k = tide_op_kernel(opi, b);
        ct = tide_op_ctype(b);
        if (!k || !ct)
            return; /* refused by tide_op_check */
    }
    if (dt->contig && dt->size == dt->nbase * esize) {
        /* integer arithmetic: in may be MPI_BOTTOM with absolute addresses */
        const char *pin = (const char *)((uintptr_t)in + (uintptr_t)dt->true_lb);
        char *pio = (char *)((uintptr_t)inout + (uintptr_t)dt->true_lb);
        if (!k) {
            if (pin != pio)
                memmove(pio, pin, n * esize);
            return;
        }
        if (esize == ct->size && aligned(pin, ct->align) && aligned(pio, ct->align)) {
            k(pin, pio, n);
            return;
        }
    }
    apply_staged(opi, k, ct, esize, in, inout, count, dt);
}

static void apply_user(struct tide_op *op, const void *in, void *inout, size_t count,
                       struct tide_datatype *dt)
{
    char *pin = (char *)(uintptr_t)in;
    char *pio = inout;
    while (count > 0) {
        int len = count > (size_t)INT_MAX ? INT_MAX : (int)count;
        MPI_Datatype h = dt->handle;
        op->user_fn(pin, pio, &len, &h);
        pin += (size_t)len * (size_t)dt->extent;
        pio += (size_t)len * (size_t)dt->extent;
        count -= (size_t)len;
    }
}

void tide_op_apply(struct tide_op *op, const void *in, void *inout, size_t count,
                   struct tide_datatype *dt)
{
    if (op->predefined)
        apply_predefined(op, in, inout, count, dt);
    else
        apply_user(op, in, inout, count, dt);
}

/* ---- MPI functions ---- */

int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    TIDE_API_ENTER();
    if (!user_fn)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Op_create: the user function must not be NULL (argument user_fn)");
    if (!op)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Op_create: op must not be NULL");
    if (tide_op_init() != 0)
        return TIDE_ERR(MPI_ERR_NO_MEM, "MPI_Op_create: out of memory");
    struct tide_op *o = calloc(1, sizeof *o);
    if (!o)
        return TIDE_ERR(MPI_ERR_NO_MEM, "MPI_Op_create: out of memory");
    o->refcount = 1;
    o->predefined = false;
    o->commute = commute != 0;
    o->user_fn = user_fn;
    o->index = 0;
    o->handle = tide_handle_alloc(TIDE_KIND_OP, o);
    if (o->handle == MPI_OP_NULL) {
        free(o);
        return TIDE_ERR(MPI_ERR_NO_MEM, "MPI_Op_create: no handle left for a new operation");
    }
    o->next = user_ops;
    user_ops = o;
    *op = o->handle;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Op_create)

int PMPI_Op_free(MPI_Op *op)
{
    TIDE_API_ENTER();
    if (!op)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Op_free: op must not be NULL");
    struct tide_op *o = tide_op_get(*op);
    if (!o) {
        if (*op == MPI_OP_NULL)
            return TIDE_ERR(MPI_ERR_OP, "MPI_Op_free: MPI_OP_NULL cannot be freed (argument op)");
        return TIDE_ERR(MPI_ERR_OP, "MPI_Op_free: invalid operation (argument op)");
    }
    if (o->predefined)
        return TIDE_ERR(MPI_ERR_OP, "MPI_Op_free: %s is a predefined operation and cannot be freed (argument op)",
                        op_names[o->index]);
    /* the handle goes now; the object lives while operations use it */
    tide_handle_release(o->handle);
    o->handle = MPI_OP_NULL;
    tide_op_release(o);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Op_free)

int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    TIDE_API_ENTER();
    struct tide_op *o = tide_op_get(op);
    if (!o)
        return TIDE_ERR(MPI_ERR_OP, "MPI_Op_commutative: invalid operation%s (argument op)",
                        op == MPI_OP_NULL ? " MPI_OP_NULL" : "");
    if (!commute)
        return TIDE_ERR(MPI_ERR_ARG, "MPI_Op_commutative: commute must not be NULL");
    *commute = o->commute ? 1 : 0;
    return MPI_SUCCESS;
}
TIDE_ALIAS(MPI_Op_commutative)
