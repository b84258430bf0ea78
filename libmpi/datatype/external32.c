/*
 * external32.c: MPI_Pack_external, MPI_Unpack_external and
 * MPI_Pack_external_size for the "external32" representation (MPI-2.2
 * section 13.5.2): every basic value big-endian, with the standard's
 * sizes (MPI_LONG 4 bytes, MPI_WCHAR 2, MPI_LONG_DOUBLE 16 as IEEE
 * binary128, ...), values one after the other with no padding. Integers
 * that do not fit their external size are a conversion error.
 *
 * The walk is over the type's typed program (engine.h), whose leaves are
 * runs of one basic type.
 */
#include "runtime/api.h"
#include "datatype/datatype.h"
#include "datatype/engine.h"

#include <float.h>
#include <math.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_BIG_ENDIAN 1
#else
#define HOST_BIG_ENDIAN 0
#endif

/* ---- sizes ---- */

static size_t ext_size(const struct dt_node *n)
{
    switch (n->kind) {
    case DT_CONTIG:
    case DT_VECLEAF:
    case DT_BLOCKS:
        return (size_t)n->nelem * tide_dt_builtin_info(n->btype)->ext32;
    case DT_VEC:
        return n->count * ext_size(n->child);
    case DT_SEQ: {
        size_t s = 0;
        for (size_t i = 0; i < n->count; i++)
            s += ext_size(n->kids[i]);
        return s;
    }
    default:
        return 0;
    }
}

/* external32 bytes of one element of dt; -1 on out of memory */
static long long type_ext_size(struct tide_datatype *dt)
{
    if (dt->size == 0)
        return 0;
    struct tide_dt_program *p = tide_dt_typed(dt);
    if (!p)
        return -1;
    return p->root ? (long long)ext_size(p->root) : 0;
}

/* ---- value conversions ---- */

static void swap_copy(unsigned char *d, const unsigned char *s, size_t n)
{
    if (HOST_BIG_ENDIAN) {
        memcpy(d, s, n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        d[i] = s[n - 1 - i];
}

/* native integer of ns bytes -> external of es bytes (big-endian); -1 if out of range */
static int int_to_ext(unsigned char *d, const unsigned char *s, size_t ns, size_t es, bool sgn)
{
    if (ns == es) {
        swap_copy(d, s, ns);
        return 0;
    }
    uint64_t u = 0;
    int64_t v = 0;
    switch (ns) {
    case 2: { uint16_t x; memcpy(&x, s, 2); u = x; v = (int16_t)x; break; }
    case 4: { uint32_t x; memcpy(&x, s, 4); u = x; v = (int32_t)x; break; }
    case 8: { uint64_t x; memcpy(&x, s, 8); u = x; v = (int64_t)x; break; }
    default: return -1;
    }
    if (es < 8) {
        int bits = (int)es * 8;
        if (sgn ? (v < -(INT64_C(1) << (bits - 1)) || v >= (INT64_C(1) << (bits - 1)))
                : u >= (UINT64_C(1) << bits))
            return -1;
    }
    uint64_t w = sgn ? (uint64_t)v : u;
    for (size_t i = 0; i < es; i++)
        d[es - 1 - i] = (unsigned char)(i < 8 ? w >> (8 * i) : (sgn && v < 0 ? 0xff : 0));
    return 0;
}

static int int_from_ext(unsigned char *d, const unsigned char *s, size_t ns, size_t es, bool sgn)
{
    if (ns == es) {
        swap_copy(d, s, ns);
        return 0;
    }
    uint64_t w = 0;
    for (size_t i = 0; i < es && i < 8; i++)
        w |= (uint64_t)s[es - 1 - i] << (8 * i);
    if (sgn && es < 8 && (w >> (es * 8 - 1)) & 1)
        w |= ~UINT64_C(0) << (es * 8);
    if (ns < 8 && es > ns) {
        /* narrowing on the way in (a native type smaller than external) */
        int bits = (int)ns * 8;
        int64_t v = (int64_t)w;
        if (sgn ? (v < -(INT64_C(1) << (bits - 1)) || v >= (INT64_C(1) << (bits - 1))) : w >= (UINT64_C(1) << bits))
            return -1;
    }
    switch (ns) {
    case 2: { uint16_t x = (uint16_t)w; memcpy(d, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)w; memcpy(d, &x, 4); break; }
    case 8: memcpy(d, &w, 8); break;
    default: return -1;
    }
    return 0;
}

/* C long double <-> IEEE binary128 big-endian (hi: sign, exponent, top 48
 * fraction bits; lo: the other 64 fraction bits) */
static void put_u64be(unsigned char *d, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        d[i] = (unsigned char)(v >> (56 - 8 * i));
}

static uint64_t get_u64be(const unsigned char *s)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | s[i];
    return v;
}

static void ldouble_to_ext(unsigned char *d, const unsigned char *s)
{
#if LDBL_MANT_DIG == 113
    swap_copy(d, s, 16);
#else
    long double x;
    memcpy(&x, s, sizeof x);
    uint64_t sign = signbit(x) ? UINT64_C(1) << 63 : 0, hi, lo;
    if (isnan(x)) {
        hi = sign | UINT64_C(0x7fff) << 48 | UINT64_C(1) << 47;
        lo = 0;
    } else if (isinf(x)) {
        hi = sign | UINT64_C(0x7fff) << 48;
        lo = 0;
    } else if (x == 0) {
        hi = sign;
        lo = 0;
    } else {
        int e;
        long double m = frexpl(fabsl(x), &e); /* |x| = m * 2^e, m in [0.5, 1) */
        uint64_t mant = (uint64_t)ldexpl(m, 64); /* bit 63 set */
        int E = e - 1 + 16383;
        if (E > 0) {
            uint64_t f = mant << 1; /* 64 fraction bits, implicit bit dropped */
            hi = sign | (uint64_t)E << 48 | f >> 16;
            lo = f << 48;
        } else {
            /* subnormal in binary128: fraction = mant * 2^(e + 16430) as 112 bits */
            int sh = e + 16430; /* bit position of mant's lowest bit */
            uint64_t h = 0, l = 0;
            if (sh >= 64) {
                h = mant << (sh - 64);
            } else if (sh > 0) {
                h = mant >> (64 - sh);
                l = mant << sh;
            } else if (sh > -64) {
                l = mant >> -sh;
            }
            hi = sign | (h & ((UINT64_C(1) << 48) - 1));
            lo = l;
        }
    }
    put_u64be(d, hi);
    put_u64be(d + 8, lo);
#endif
}

static void ldouble_from_ext(unsigned char *d, const unsigned char *s)
{
#if LDBL_MANT_DIG == 113
    swap_copy(d, s, 16);
#else
    uint64_t hi = get_u64be(s), lo = get_u64be(s + 8);
    int sign = (int)(hi >> 63);
    int E = (int)(hi >> 48) & 0x7fff;
    uint64_t fh = hi & ((UINT64_C(1) << 48) - 1);
    long double x;
    if (E == 0x7fff) {
        x = (fh | lo) ? (long double)NAN : (long double)INFINITY;
    } else if (E == 0 && !fh && !lo) {
        x = 0;
    } else {
        /* top 64 bits of the significand (with the implicit bit for normals) */
        uint64_t m = (E ? UINT64_C(1) << 63 : 0) | fh << 15 | lo >> 49;
        uint64_t rest = lo & ((UINT64_C(1) << 49) - 1), half = UINT64_C(1) << 48;
        int ex = E ? E - 16383 - 63 : 1 - 16383 - 63;
        if (rest > half || (rest == half && (m & 1))) {
            if (++m == 0) {
                m = UINT64_C(1) << 63;
                ex++;
            }
        }
        x = ldexpl((long double)m, ex);
    }
    if (sign)
        x = -x;
    memset(d, 0, sizeof(long double));
#if LDBL_MANT_DIG == 64
    memcpy(d, &x, 10); /* x87: the padding bytes stay zero */
#else
    memcpy(d, &x, sizeof x);
#endif
#endif
}

/* ---- the walk ---- */

struct xstate {
    unsigned char *ext; /* external stream position */
    bool pack;
    int bad_type;       /* builtin index of a value that did not convert */
};

static int convert_run(uintptr_t addr, size_t nbytes, int bt, void *arg)
{
    struct xstate *x = arg;
    const struct tide_builtin_info *bi = tide_dt_builtin_info(bt);
    size_t ns = bi->size, es = bi->ext32, n = nbytes / ns;
    unsigned char *u = (unsigned char *)addr;
    switch (bi->conv) {
    case DT_CONV_BYTES:
        if (x->pack)
            memcpy(x->ext, u, nbytes);
        else
            memcpy(u, x->ext, nbytes);
        x->ext += nbytes;
        return 0;
    case DT_CONV_INT:
        for (size_t i = 0; i < n; i++, u += ns, x->ext += es) {
            int rc = x->pack ? int_to_ext(x->ext, u, ns, es, bi->is_signed)
                             : int_from_ext(u, x->ext, ns, es, bi->is_signed);
            if (rc) {
                x->bad_type = bt;
                return -1;
            }
        }
        return 0;
    case DT_CONV_FLOAT:
        for (size_t i = 0; i < n; i++, u += ns, x->ext += es) {
            if (x->pack)
                swap_copy(x->ext, u, ns);
            else
                swap_copy(u, x->ext, ns);
        }
        return 0;
    case DT_CONV_COMPLEX:
        for (size_t i = 0; i < 2 * n; i++, u += ns / 2, x->ext += es / 2) {
            if (x->pack)
                swap_copy(x->ext, u, ns / 2);
            else
                swap_copy(u, x->ext, ns / 2);
        }
        return 0;
    case DT_CONV_LDOUBLE:
    case DT_CONV_LDCOMPLEX: {
        size_t parts = bi->conv == DT_CONV_LDCOMPLEX ? 2 * n : n;
        for (size_t i = 0; i < parts; i++, u += sizeof(long double), x->ext += 16) {
            if (x->pack)
                ldouble_to_ext(x->ext, u);
            else
                ldouble_from_ext(u, x->ext);
        }
        return 0;
    }
    default:
        return 0;
    }
}

static int check_datarep(const char *fn, const char *datarep)
{
    if (!datarep)
        return TIDE_ERR(MPI_ERR_ARG, "%s: datarep must not be NULL (argument datarep)", fn);
    if (strcmp(datarep, "external32") != 0)
        return TIDE_ERR(MPI_ERR_ARG, "%s: data representation \"%s\" is not supported; only \"external32\" is (argument datarep)",
                        fn, datarep);
    return MPI_SUCCESS;
}

int tide_external32_convert(const char *fn, struct tide_datatype *dt, MPI_Count count, void *user,
                            unsigned char *ext, bool pack)
{
    struct xstate x = {ext, pack, 0};
    int rc = tide_dt_visit_typed(dt, (size_t)count, (uintptr_t)user, convert_run, &x);
    if (rc == MPI_ERR_NO_MEM)
        return tide_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    if (rc)
        return tide_err(MPI_ERR_CONVERSION, "%s: a %s value does not fit its external32 size (%zu bytes)", fn,
                        tide_dt_builtin_info(x.bad_type)->name, tide_dt_builtin_info(x.bad_type)->ext32);
    return MPI_SUCCESS;
}

long long tide_external32_size(struct tide_datatype *dt)
{
    return type_ext_size(dt);
}

static int run(const char *fn, struct tide_datatype *dt, MPI_Count count, void *user, unsigned char *ext, bool pack)
{
    int rc = tide_external32_convert(fn, dt, count, user, ext, pack);
    return rc ? tide_raise(rc) : MPI_SUCCESS;
}

/* external32 bytes of count elements of dt into *need; an error if they
 * exceed what a count can hold */
static int ext_bytes(const char *fn, struct tide_datatype *dt, MPI_Count count, long long *need)
{
    long long each = type_ext_size(dt);
    if (each < 0)
        return TIDE_ERR(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    if (__builtin_mul_overflow(each, count, need))
        return TIDE_ERR(MPI_ERR_COUNT, "%s: %lld elements take more bytes than a count can hold", fn, count);
    return MPI_SUCCESS;
}

int tide_pack_external(const char *fn, const char datarep[], const void *inbuf, MPI_Count incount,
                       MPI_Datatype datatype, void *outbuf, MPI_Count outsize, MPI_Count *position)
{
    int rc = check_datarep(fn, datarep);
    if (rc)
        return rc;
    struct tide_datatype *dt = tide_datatype_get(datatype);
    if (incount < 0)
        return TIDE_ERR(MPI_ERR_COUNT, "%s: negative count %lld (argument incount)", fn, incount);
    if ((rc = tide_datatype_check(dt, datatype, incount, fn, "datatype")))
        return tide_raise(rc);
    if (!position)
        return TIDE_ERR(MPI_ERR_ARG, "%s: position must not be NULL (argument position)", fn);
    if (*position < 0 || *position > outsize)
        return TIDE_ERR(MPI_ERR_ARG, "%s: position %lld is outside the output buffer of %lld bytes (argument position)",
                        fn, *position, outsize);
    long long need;
    if ((rc = ext_bytes(fn, dt, incount, &need)))
        return rc;
    if (need > outsize - *position)
        return TIDE_ERR(MPI_ERR_TRUNCATE, "%s: %lld bytes to pack but only %lld left in the output buffer (arguments outsize, position)",
                        fn, need, outsize - *position);
    if (need == 0)
        return MPI_SUCCESS;
    if (!outbuf)
        return TIDE_ERR(MPI_ERR_BUFFER, "%s: outbuf must not be NULL (argument outbuf)", fn);
    rc = run(fn, dt, incount, (void *)inbuf, (unsigned char *)outbuf + *position, true);
    if (rc == MPI_SUCCESS)
        *position += need;
    return rc;
}

int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype,
                       void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
    TIDE_API_ENTER();
    MPI_Count pos = position ? *position : 0;
    int rc = tide_pack_external("MPI_Pack_external", datarep, inbuf, incount, datatype, outbuf, outsize,
                                position ? &pos : NULL);
    if (rc == MPI_SUCCESS)
        *position = (MPI_Aint)pos;
    return rc;
}
TIDE_ALIAS(MPI_Pack_external)

int tide_unpack_external(const char *fn, const char datarep[], const void *inbuf, MPI_Count insize,
                         MPI_Count *position, void *outbuf, MPI_Count outcount, MPI_Datatype datatype)
{
    int rc = check_datarep(fn, datarep);
    if (rc)
        return rc;
    struct tide_datatype *dt = tide_datatype_get(datatype);
    if (outcount < 0)
        return TIDE_ERR(MPI_ERR_COUNT, "%s: negative count %lld (argument outcount)", fn, outcount);
    if ((rc = tide_datatype_check(dt, datatype, outcount, fn, "datatype")))
        return tide_raise(rc);
    if (!position)
        return TIDE_ERR(MPI_ERR_ARG, "%s: position must not be NULL (argument position)", fn);
    if (*position < 0 || *position > insize)
        return TIDE_ERR(MPI_ERR_ARG, "%s: position %lld is outside the input buffer of %lld bytes (argument position)",
                        fn, *position, insize);
    long long need;
    if ((rc = ext_bytes(fn, dt, outcount, &need)))
        return rc;
    if (need > insize - *position)
        return TIDE_ERR(MPI_ERR_TRUNCATE, "%s: %lld bytes to unpack but only %lld left in the input buffer (arguments insize, position)",
                        fn, need, insize - *position);
    if (need == 0)
        return MPI_SUCCESS;
    if (!inbuf)
        return TIDE_ERR(MPI_ERR_BUFFER, "%s: inbuf must not be NULL (argument inbuf)", fn);
    rc = run(fn, dt, outcount, outbuf, (unsigned char *)inbuf + *position, false);
    if (rc == MPI_SUCCESS)
        *position += need;
    return rc;
}

int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position,
                         void *outbuf, int outcount, MPI_Datatype datatype)
{
    TIDE_API_ENTER();
    MPI_Count pos = position ? *position : 0;
    int rc = tide_unpack_external("MPI_Unpack_external", datarep, inbuf, insize, position ? &pos : NULL, outbuf,
                                  outcount, datatype);
    if (rc == MPI_SUCCESS)
        *position = (MPI_Aint)pos;
    return rc;
}
TIDE_ALIAS(MPI_Unpack_external)

int tide_pack_external_size(const char *fn, const char datarep[], MPI_Count incount, MPI_Datatype datatype,
                            MPI_Count *size)
{
    int rc = check_datarep(fn, datarep);
    if (rc)
        return rc;
    struct tide_datatype *dt = tide_datatype_get(datatype);
    if (!dt) {
        if (datatype == MPI_DATATYPE_NULL)
            return TIDE_ERR(MPI_ERR_TYPE, "%s: MPI_DATATYPE_NULL is not a datatype (argument datatype)", fn);
        return TIDE_ERR(MPI_ERR_TYPE, "%s: invalid datatype (argument datatype)", fn);
    }
    if (incount < 0)
        return TIDE_ERR(MPI_ERR_COUNT, "%s: negative count %lld (argument incount)", fn, incount);
    if (!size)
        return TIDE_ERR(MPI_ERR_ARG, "%s: size must not be NULL (argument size)", fn);
    long long need;
    if ((rc = ext_bytes(fn, dt, incount, &need)))
        return rc;
    *size = need;
    return MPI_SUCCESS;
}

int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint *size)
{
    TIDE_API_ENTER();
    MPI_Count n = 0;
    int rc = tide_pack_external_size("MPI_Pack_external_size", datarep, incount, datatype, size ? &n : NULL);
    if (rc == MPI_SUCCESS)
        *size = (MPI_Aint)n;
    return rc;
}
TIDE_ALIAS(MPI_Pack_external_size)
