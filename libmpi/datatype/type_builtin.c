/*
 * type_builtin.c: the predefined datatypes (sizes, extents, alignments,
 * names, external32 sizes, the components of the pair types), handle
 * resolution for all datatypes, reference counting, and the checks other
 * parts of the library apply to a (count, datatype) argument.
 */
#include "runtime/api.h"
#include "datatype/datatype.h"
#include "datatype/engine.h"

#include <complex.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#define PAIR(t1, t2) struct { t1 a; t2 b; }
typedef PAIR(float, int) float_int;
typedef PAIR(double, int) double_int;
typedef PAIR(long, int) long_int;
typedef PAIR(short, int) short_int;
typedef PAIR(long double, int) long_double_int;
typedef PAIR(int, int) int_int;

#define IDX(h) (TIDE_HANDLE_INDEX(h) & 0xff)

/* A basic type: C type T, external32 size, conversion, signedness. */
#define B(h, T, e32, cv, sg) \
    [IDX(h)] = {#h, sizeof(T), _Alignof(T), e32, cv, sg, 0, {0, 0}, {0, 0}}
/* A basic type given by size and alignment (Fortran types). */
#define BS(h, sz, al, e32, cv, sg) [IDX(h)] = {#h, sz, al, e32, cv, sg, 0, {0, 0}, {0, 0}}
/* A pair type: two components at offsets 0 and off1; size/alignment of the
 * whole as the C struct lays it out. */
#define P(h, T, c0, c1, off1) \
    [IDX(h)] = {#h, sizeof(T), _Alignof(T), 0, DT_CONV_NONE, false, 2, {IDX(c0), IDX(c1)}, {0, off1}}
#define PS(h, sz, al, c0, c1, off1) \
    [IDX(h)] = {#h, sz, al, 0, DT_CONV_NONE, false, 2, {IDX(c0), IDX(c1)}, {0, off1}}

static const struct tide_builtin_info builtin_info[TIDE_BUILTIN_TYPE_COUNT] = {
    B(MPI_CHAR, char, 1, DT_CONV_BYTES, false),
    B(MPI_SIGNED_CHAR, signed char, 1, DT_CONV_BYTES, false),
    B(MPI_UNSIGNED_CHAR, unsigned char, 1, DT_CONV_BYTES, false),
    B(MPI_BYTE, unsigned char, 1, DT_CONV_BYTES, false),
    B(MPI_WCHAR, wchar_t, 2, DT_CONV_INT, false),
    B(MPI_SHORT, short, 2, DT_CONV_INT, true),
    B(MPI_UNSIGNED_SHORT, unsigned short, 2, DT_CONV_INT, false),
    B(MPI_INT, int, 4, DT_CONV_INT, true),
    B(MPI_UNSIGNED, unsigned, 4, DT_CONV_INT, false),
    B(MPI_LONG, long, 4, DT_CONV_INT, true),
    B(MPI_UNSIGNED_LONG, unsigned long, 4, DT_CONV_INT, false),
    B(MPI_LONG_LONG_INT, long long, 8, DT_CONV_INT, true),
    B(MPI_UNSIGNED_LONG_LONG, unsigned long long, 8, DT_CONV_INT, false),
    B(MPI_FLOAT, float, 4, DT_CONV_FLOAT, true),
    B(MPI_DOUBLE, double, 8, DT_CONV_FLOAT, true),
    B(MPI_LONG_DOUBLE, long double, 16, DT_CONV_LDOUBLE, true),
    B(MPI_C_BOOL, _Bool, 1, DT_CONV_BYTES, false),
    B(MPI_INT8_T, int8_t, 1, DT_CONV_BYTES, true),
    B(MPI_INT16_T, int16_t, 2, DT_CONV_INT, true),
    B(MPI_INT32_T, int32_t, 4, DT_CONV_INT, true),
    B(MPI_INT64_T, int64_t, 8, DT_CONV_INT, true),
    B(MPI_UINT8_T, uint8_t, 1, DT_CONV_BYTES, false),
    B(MPI_UINT16_T, uint16_t, 2, DT_CONV_INT, false),
    B(MPI_UINT32_T, uint32_t, 4, DT_CONV_INT, false),
    B(MPI_UINT64_T, uint64_t, 8, DT_CONV_INT, false),
    B(MPI_AINT, MPI_Aint, 8, DT_CONV_INT, true),
    B(MPI_OFFSET, MPI_Offset, 8, DT_CONV_INT, true),
    B(MPI_C_COMPLEX, float _Complex, 8, DT_CONV_COMPLEX, true),
    B(MPI_C_DOUBLE_COMPLEX, double _Complex, 16, DT_CONV_COMPLEX, true),
    B(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex, 32, DT_CONV_LDCOMPLEX, true),
    BS(MPI_PACKED, 1, 1, 1, DT_CONV_BYTES, false),
    BS(MPI_LB, 0, 1, 0, DT_CONV_NONE, false),
    BS(MPI_UB, 0, 1, 0, DT_CONV_NONE, false),
    P(MPI_FLOAT_INT, float_int, MPI_FLOAT, MPI_INT, offsetof(float_int, b)),
    P(MPI_DOUBLE_INT, double_int, MPI_DOUBLE, MPI_INT, offsetof(double_int, b)),
    P(MPI_LONG_INT, long_int, MPI_LONG, MPI_INT, offsetof(long_int, b)),
    P(MPI_2INT, int_int, MPI_INT, MPI_INT, offsetof(int_int, b)),
    P(MPI_SHORT_INT, short_int, MPI_SHORT, MPI_INT, offsetof(short_int, b)),
    P(MPI_LONG_DOUBLE_INT, long_double_int, MPI_LONG_DOUBLE, MPI_INT, offsetof(long_double_int, b)),
    BS(MPI_CHARACTER, 1, 1, 1, DT_CONV_BYTES, false),
    BS(MPI_LOGICAL, 4, 4, 4, DT_CONV_INT, true),
    BS(MPI_INTEGER, 4, 4, 4, DT_CONV_INT, true),
    BS(MPI_REAL, 4, 4, 4, DT_CONV_FLOAT, true),
    BS(MPI_DOUBLE_PRECISION, 8, 8, 8, DT_CONV_FLOAT, true),
    BS(MPI_COMPLEX, 8, 4, 8, DT_CONV_COMPLEX, true),
    BS(MPI_DOUBLE_COMPLEX, 16, 8, 16, DT_CONV_COMPLEX, true),
    PS(MPI_2REAL, 8, 4, MPI_REAL, MPI_REAL, 4),
    PS(MPI_2DOUBLE_PRECISION, 16, 8, MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, 8),
    PS(MPI_2INTEGER, 8, 4, MPI_INTEGER, MPI_INTEGER, 4),
    BS(MPI_INTEGER1, 1, 1, 1, DT_CONV_BYTES, true),
    BS(MPI_INTEGER2, 2, 2, 2, DT_CONV_INT, true),
    BS(MPI_INTEGER4, 4, 4, 4, DT_CONV_INT, true),
    BS(MPI_INTEGER8, 8, 8, 8, DT_CONV_INT, true),
    BS(MPI_INTEGER16, 16, 16, 16, DT_CONV_INT, true),
    BS(MPI_REAL2, 2, 2, 2, DT_CONV_FLOAT, true),
    BS(MPI_REAL4, 4, 4, 4, DT_CONV_FLOAT, true),
    BS(MPI_REAL8, 8, 8, 8, DT_CONV_FLOAT, true),
    BS(MPI_REAL16, 16, 16, 16, DT_CONV_FLOAT, true),
    BS(MPI_COMPLEX8, 8, 4, 8, DT_CONV_COMPLEX, true),
    BS(MPI_COMPLEX16, 16, 8, 16, DT_CONV_COMPLEX, true),
    BS(MPI_COMPLEX32, 32, 16, 32, DT_CONV_COMPLEX, true),
    B(MPI_COUNT, MPI_Count, 8, DT_CONV_INT, true),
    B(MPI_CXX_BOOL, _Bool, 1, DT_CONV_BYTES, false),
    B(MPI_CXX_FLOAT_COMPLEX, float _Complex, 8, DT_CONV_COMPLEX, true),
    B(MPI_CXX_DOUBLE_COMPLEX, double _Complex, 16, DT_CONV_COMPLEX, true),
    B(MPI_CXX_LONG_DOUBLE_COMPLEX, long double _Complex, 32, DT_CONV_LDCOMPLEX, true),
    PS(MPI_2COMPLEX, 16, 4, MPI_COMPLEX, MPI_COMPLEX, 8),
    PS(MPI_2DOUBLE_COMPLEX, 32, 8, MPI_DOUBLE_COMPLEX, MPI_DOUBLE_COMPLEX, 16),
};

struct tide_datatype tide_builtin_types[TIDE_BUILTIN_TYPE_COUNT];

const struct tide_builtin_info *tide_dt_builtin_info(int index)
{
    if (index <= 0 || index >= TIDE_BUILTIN_TYPE_COUNT)
        return NULL;
    return &builtin_info[index];
}

struct tide_datatype *tide_datatype_builtin(int i)
{
    if (i <= 0 || i >= TIDE_BUILTIN_TYPE_COUNT || !tide_builtin_types[i].handle)
        return NULL;
    return &tide_builtin_types[i];
}

struct tide_datatype *tide_datatype_get(MPI_Datatype h)
{
    if (h & TIDE_DATATYPE_BUILTIN_BIT) {
        if (TIDE_HANDLE_KIND(h) != TIDE_KIND_DATATYPE)
            return NULL;
        unsigned i = (unsigned)h & 0xff;
        if ((h & ~(TIDE_HANDLE(TIDE_KIND_DATATYPE, TIDE_DATATYPE_BUILTIN_BIT) | 0xff)) != 0)
            return NULL;
        return (i > 0 && i < TIDE_BUILTIN_TYPE_COUNT && tide_builtin_types[i].handle) ? &tide_builtin_types[i] : NULL;
    }
    struct tide_datatype *dt = tide_handle_get(TIDE_KIND_DATATYPE, h);
    return dt && dt->urefs > 0 ? dt : NULL;
}

static void init_builtin(int i)
{
    const struct tide_builtin_info *d = &builtin_info[i];
    struct tide_datatype *t = &tide_builtin_types[i];
    memset(t, 0, sizeof *t);
    t->handle = TIDE_BUILTIN_TYPE(i);
    t->refcount = 1;
    t->urefs = 1;
    t->predefined = true;
    t->committed = true;
    t->combiner = MPI_COMBINER_NAMED;
    t->align = d->align;
    t->lb = 0;
    t->true_lb = 0;
    t->extent = (MPI_Aint)d->size;
    t->ub = (MPI_Aint)d->size;
    if (d->ncomp == 2) {
        const struct tide_builtin_info *c0 = &builtin_info[d->comp[0]];
        const struct tide_builtin_info *c1 = &builtin_info[d->comp[1]];
        t->size = c0->size + c1->size;
        t->true_ub = (MPI_Aint)(d->comp_off[1] + c1->size);
    } else {
        t->size = d->size;
        t->true_ub = (MPI_Aint)d->size;
    }
    t->contig = t->size == (size_t)t->extent && t->true_ub == t->extent;
    t->base = i;
    t->nbase = t->size ? 1 : 0;
    snprintf(t->name, sizeof t->name, "%s", d->name);
}

int tide_datatype_init(void)
{
    for (int i = 1; i < TIDE_BUILTIN_TYPE_COUNT; i++)
        if (builtin_info[i].name)
            init_builtin(i);
    for (int i = 1; i < TIDE_BUILTIN_TYPE_COUNT; i++)
        if (tide_builtin_types[i].handle && !tide_builtin_types[i].contig && tide_builtin_types[i].size) {
            tide_builtin_types[i].prog = tide_dt_build(&tide_builtin_types[i], false);
            if (!tide_builtin_types[i].prog)
                return -1;
            tide_builtin_types[i].npieces = tide_dt_count_pieces(tide_builtin_types[i].prog);
        }
    return 0;
}

void tide_datatype_finalize(void)
{
    tide_dt_f90_finalize();
    for (int i = 1; i < TIDE_BUILTIN_TYPE_COUNT; i++) {
        struct tide_datatype *t = &tide_builtin_types[i];
        if (t->prog)
            tide_dt_program_free(t->prog);
        if (t->tprog)
            tide_dt_program_free(t->tprog);
        t->prog = t->tprog = NULL;
    }
}

void tide_dt_user_retain(struct tide_datatype *dt)
{
    if (dt->predefined)
        return;
    dt->refcount++;
    dt->urefs++;
}

int tide_datatype_prepare(struct tide_datatype *dt)
{
    if (dt->prog || dt->contig)
        return MPI_SUCCESS;
    dt->prog = tide_dt_build(dt, false);
    return dt->prog ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

/* "sendtype" -> "sendcount", "datatype" -> "count", "origin_datatype" ->
 * "origin_count": the count argument that goes with a datatype argument. */
static void count_argname(const char *argname, char *out, size_t outlen)
{
    size_t n = strlen(argname);
    const char *suffix = n >= 8 && strcmp(argname + n - 8, "datatype") == 0 ? argname + n - 8
                         : n >= 4 && strcmp(argname + n - 4, "type") == 0   ? argname + n - 4
                                                                            : NULL;
    if (!suffix) {
        snprintf(out, outlen, "count");
        return;
    }
    snprintf(out, outlen, "%.*scount", (int)(suffix - argname), argname);
}

int tide_datatype_check(struct tide_datatype *dt, MPI_Datatype h, MPI_Count count, const char *fn,
                        const char *argname)
{
    if (!dt) {
        if (h == MPI_DATATYPE_NULL)
            return tide_err(MPI_ERR_TYPE, "%s: MPI_DATATYPE_NULL is not a datatype (argument %s)", fn, argname);
        return tide_err(MPI_ERR_TYPE, "%s: invalid datatype (argument %s)", fn, argname);
    }
    if (!dt->committed)
        return tide_err(MPI_ERR_TYPE, "%s: the datatype has not been committed (argument %s)", fn, argname);
    if (count < 0) {
        char cname[64];
        count_argname(argname, cname, sizeof cname);
        return tide_err(MPI_ERR_COUNT, "%s: negative count %lld (argument %s)", fn, count, cname);
    }
    return MPI_SUCCESS;
}

bool tide_datatype_base(const struct tide_datatype *dt, int *base, size_t *n)
{
    if (!dt->base)
        return false;
    *base = dt->base;
    *n = dt->nbase;
    return true;
}
