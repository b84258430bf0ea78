/*
 * type_builtin.c: the predefined datatypes (sizes, extents, names) and
 * handle resolution for all datatypes.
 */
#include "runtime/api.h"
#include "datatype/datatype.h"

#include <complex.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

struct builtin_desc {
    int index;
    const char *name;
    size_t size;
    size_t align;
};

#define PAIR(t1, t2) struct { t1 a; t2 b; }
typedef PAIR(float, int) float_int;
typedef PAIR(double, int) double_int;
typedef PAIR(long, int) long_int;
typedef PAIR(short, int) short_int;
typedef PAIR(long double, int) long_double_int;
typedef PAIR(int, int) int_int;

#define B(h, nm, T) {TIDE_HANDLE_INDEX(h) & 0xff, nm, sizeof(T), _Alignof(T)}
#define BS(h, nm, sz, al) {TIDE_HANDLE_INDEX(h) & 0xff, nm, sz, al}

static const struct builtin_desc builtin_descs[] = {
    B(MPI_CHAR, "MPI_CHAR", char),
    B(MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", signed char),
    B(MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", unsigned char),
    B(MPI_BYTE, "MPI_BYTE", unsigned char),
    B(MPI_WCHAR, "MPI_WCHAR", wchar_t),
    B(MPI_SHORT, "MPI_SHORT", short),
    B(MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", unsigned short),
    B(MPI_INT, "MPI_INT", int),
    B(MPI_UNSIGNED, "MPI_UNSIGNED", unsigned),
    B(MPI_LONG, "MPI_LONG", long),
    B(MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", unsigned long),
    B(MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", long long),
    B(MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", unsigned long long),
    B(MPI_FLOAT, "MPI_FLOAT", float),
    B(MPI_DOUBLE, "MPI_DOUBLE", double),
    B(MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", long double),
    B(MPI_C_BOOL, "MPI_C_BOOL", _Bool),
    B(MPI_INT8_T, "MPI_INT8_T", int8_t),
    B(MPI_INT16_T, "MPI_INT16_T", int16_t),
    B(MPI_INT32_T, "MPI_INT32_T", int32_t),
    B(MPI_INT64_T, "MPI_INT64_T", int64_t),
    B(MPI_UINT8_T, "MPI_UINT8_T", uint8_t),
    B(MPI_UINT16_T, "MPI_UINT16_T", uint16_t),
    B(MPI_UINT32_T, "MPI_UINT32_T", uint32_t),
    B(MPI_UINT64_T, "MPI_UINT64_T", uint64_t),
    B(MPI_AINT, "MPI_AINT", MPI_Aint),
    B(MPI_OFFSET, "MPI_OFFSET", MPI_Offset),
    B(MPI_C_COMPLEX, "MPI_C_COMPLEX", float _Complex),
    B(MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", double _Complex),
    B(MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", long double _Complex),
    BS(MPI_PACKED, "MPI_PACKED", 1, 1),
    BS(MPI_LB, "MPI_LB", 0, 1),
    BS(MPI_UB, "MPI_UB", 0, 1),
    B(MPI_FLOAT_INT, "MPI_FLOAT_INT", float_int),
    B(MPI_DOUBLE_INT, "MPI_DOUBLE_INT", double_int),
    B(MPI_LONG_INT, "MPI_LONG_INT", long_int),
    B(MPI_2INT, "MPI_2INT", int_int),
    B(MPI_SHORT_INT, "MPI_SHORT_INT", short_int),
    B(MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", long_double_int),
    BS(MPI_CHARACTER, "MPI_CHARACTER", 1, 1),
    BS(MPI_LOGICAL, "MPI_LOGICAL", 4, 4),
    BS(MPI_INTEGER, "MPI_INTEGER", 4, 4),
    BS(MPI_REAL, "MPI_REAL", 4, 4),
    BS(MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8, 8),
    BS(MPI_COMPLEX, "MPI_COMPLEX", 8, 4),
    BS(MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16, 8),
    BS(MPI_2REAL, "MPI_2REAL", 8, 4),
    BS(MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", 16, 8),
    BS(MPI_2INTEGER, "MPI_2INTEGER", 8, 4),
    BS(MPI_INTEGER1, "MPI_INTEGER1", 1, 1),
    BS(MPI_INTEGER2, "MPI_INTEGER2", 2, 2),
    BS(MPI_INTEGER4, "MPI_INTEGER4", 4, 4),
    BS(MPI_INTEGER8, "MPI_INTEGER8", 8, 8),
    BS(MPI_INTEGER16, "MPI_INTEGER16", 16, 16),
    BS(MPI_REAL2, "MPI_REAL2", 2, 2),
    BS(MPI_REAL4, "MPI_REAL4", 4, 4),
    BS(MPI_REAL8, "MPI_REAL8", 8, 8),
    BS(MPI_REAL16, "MPI_REAL16", 16, 16),
    BS(MPI_COMPLEX8, "MPI_COMPLEX8", 8, 4),
    BS(MPI_COMPLEX16, "MPI_COMPLEX16", 16, 8),
    BS(MPI_COMPLEX32, "MPI_COMPLEX32", 32, 16),
    B(MPI_COUNT, "MPI_COUNT", MPI_Count),
    B(MPI_CXX_BOOL, "MPI_CXX_BOOL", _Bool),
    B(MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", float _Complex),
    B(MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", double _Complex),
    B(MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX", long double _Complex),
    BS(MPI_2COMPLEX, "MPI_2COMPLEX", 16, 4),
    BS(MPI_2DOUBLE_COMPLEX, "MPI_2DOUBLE_COMPLEX", 32, 8),
};

static struct tide_datatype builtins[TIDE_BUILTIN_TYPE_COUNT];

struct tide_datatype *tide_datatype_builtin(int i)
{
    if (i <= 0 || i >= TIDE_BUILTIN_TYPE_COUNT)
        return NULL;
    return &builtins[i];
}

struct tide_datatype *tide_datatype_get(MPI_Datatype h)
{
    if (h & TIDE_DATATYPE_BUILTIN_BIT) {
        if (TIDE_HANDLE_KIND(h) != TIDE_KIND_DATATYPE)
            return NULL;
        unsigned i = (unsigned)h & 0xff;
        if ((h & ~(TIDE_HANDLE(TIDE_KIND_DATATYPE, TIDE_DATATYPE_BUILTIN_BIT) | 0xff)) != 0)
            return NULL;
        return (i > 0 && i < TIDE_BUILTIN_TYPE_COUNT && builtins[i].handle) ? &builtins[i] : NULL;
    }
    return tide_handle_get(TIDE_KIND_DATATYPE, h);
}

int tide_datatype_init(void)
{
    memset(builtins, 0, sizeof builtins);
    for (size_t k = 0; k < sizeof builtin_descs / sizeof builtin_descs[0]; k++) {
        const struct builtin_desc *d = &builtin_descs[k];
        struct tide_datatype *t = &builtins[d->index];
        t->handle = TIDE_BUILTIN_TYPE(d->index);
        t->refcount = 1;
        t->predefined = true;
        t->committed = true;
        t->combiner = MPI_COMBINER_NAMED;
        t->size = d->size;
        t->lb = 0;
        t->ub = (MPI_Aint)d->size;
        t->extent = (MPI_Aint)d->size;
        t->true_lb = 0;
        t->true_ub = (MPI_Aint)d->size;
        t->contig = true;
        t->base = d->index;
        t->nbase = d->size ? 1 : 0;
        snprintf(t->name, sizeof t->name, "%s", d->name);
    }
    return 0;
}

void tide_datatype_finalize(void) {}

void tide_datatype_retain(struct tide_datatype *dt)
{
    if (!dt->predefined)
        dt->refcount++;
}

void tide_datatype_release(struct tide_datatype *dt)
{
    if (dt->predefined)
        return;
    --dt->refcount;
    /* derived types are freed by the type module when the count reaches 0 */
}

int tide_datatype_check(struct tide_datatype *dt, MPI_Datatype h, int count, const char *fn,
                        const char *argname)
{
    if (!dt) {
        if (h == MPI_DATATYPE_NULL)
            return tide_err(MPI_ERR_TYPE, "%s: MPI_DATATYPE_NULL is not a datatype (argument %s)", fn, argname);
        return tide_err(MPI_ERR_TYPE, "%s: invalid datatype (argument %s)", fn, argname);
    }
    if (!dt->committed)
        return tide_err(MPI_ERR_TYPE, "%s: the datatype has not been committed (argument %s)", fn, argname);
    if (count < 0)
        return tide_err(MPI_ERR_COUNT, "%s: negative count %d", fn, count);
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

MPI_Count tide_datatype_elements(const struct tide_datatype *dt, MPI_Count nbytes)
{
    if (dt->size == 0)
        return 0;
    if (dt->base && dt->nbase) {
        size_t esz = dt->size / dt->nbase;
        if (esz == 0 || nbytes % (MPI_Count)esz)
            return MPI_UNDEFINED;
        return nbytes / (MPI_Count)esz;
    }
    return nbytes % (MPI_Count)dt->size ? MPI_UNDEFINED : nbytes / (MPI_Count)dt->size;
}
