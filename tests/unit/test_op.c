/*
 * test_op.c: reduction operations: every (op, predefined type) pair the
 * standard's table allows checked against hand-computed results, every
 * other pair refused with MPI_ERR_OP, MAXLOC/MINLOC ties, wrap-around of
 * integer sums, long and misaligned buffers (the vector loops and the
 * staged path give the same bits), derived types, MPI_REPLACE/MPI_NO_OP,
 * user ops (non-commutative order, the datatype handle they receive),
 * MPI_Op_create/free/commutative and MPI_Reduce_local's argument checks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <complex.h>
#include <limits.h>
#include <math.h>
#include <cmocka.h>

#include "runtime/api.h"
#include "runtime/errhandler.h"
#include "runtime/proc.h"
#include "comm/comm.h"
#include "datatype/datatype.h"
#include "op/op.h"

/* ---- a library that looks initialised, errors returned ---- */

static int setup(void **state)
{
    (void)state;
    tide_errhandler_init();
    tide_datatype_init();
    snprintf(tide.nspace, sizeof tide.nspace, "unit-op");
    tide.rank = 0;
    tide.size = 1;
    tide.me = tide_proc_get(tide.nspace, 0);
    if (tide_comm_init_predefined() != 0)
        return -1;
    tide_comm_world->errhandler = MPI_ERRORS_RETURN;
    tide.initialized = 1;
    return tide_op_init();
}

static int err_class(int rc)
{
    int c = -1;
    PMPI_Error_class(rc, &c);
    return c;
}

static void assert_error_names(int rc, int cls, const char *needle)
{
    assert_int_equal(err_class(rc), cls);
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    assert_int_equal(PMPI_Error_string(rc, s, &len), MPI_SUCCESS);
    if (!strstr(s, needle))
        fail_msg("message '%s' does not name '%s'", s, needle);
}

static const MPI_Op all_ops[] = {MPI_MAX,  MPI_MIN, MPI_SUM,  MPI_PROD,   MPI_LAND,  MPI_BAND, MPI_LOR,
                                 MPI_BOR,  MPI_LXOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC};
#define NOPS ((int)(sizeof all_ops / sizeof all_ops[0]))
static const char *const op_str[] = {"MAX", "MIN", "SUM", "PROD", "LAND", "BAND", "LOR", "BOR",
                                     "LXOR", "BXOR", "MAXLOC", "MINLOC"};

/* which ops a type group allows (bit i: all_ops[i]) */
#define B(i) (1u << (i))
enum { iMAX, iMIN, iSUM, iPROD, iLAND, iBAND, iLOR, iBOR, iLXOR, iBXOR, iMAXLOC, iMINLOC };
#define G_CINT (B(iMAX) | B(iMIN) | B(iSUM) | B(iPROD) | B(iLAND) | B(iLOR) | B(iLXOR) | B(iBAND) | B(iBOR) | B(iBXOR))
#define G_FINT (B(iMAX) | B(iMIN) | B(iSUM) | B(iPROD) | B(iBAND) | B(iBOR) | B(iBXOR))
#define G_FLOAT (B(iMAX) | B(iMIN) | B(iSUM) | B(iPROD))
#define G_LOGICAL (B(iLAND) | B(iLOR) | B(iLXOR))
#define G_COMPLEX (B(iSUM) | B(iPROD))
#define G_BYTE (B(iBAND) | B(iBOR) | B(iBXOR))
#define G_PAIR (B(iMAXLOC) | B(iMINLOC))
#define G_NONE 0u

/* The ops a type does not allow must be refused, through the internal
 * check and through MPI_Reduce_local. */
static void check_refused(MPI_Datatype dt, unsigned allowed, const char *tname)
{
    struct tide_datatype *t = tide_datatype_get(dt);
    assert_non_null(t);
    char buf[64] = {0}, buf2[64] = {0};
    for (int i = 0; i < NOPS; i++) {
        if (allowed & B(i))
            continue;
        struct tide_op *o = tide_op_get(all_ops[i]);
        int rc = tide_op_check(o, t, "unit");
        if (err_class(rc) != MPI_ERR_OP)
            fail_msg("MPI_%s on %s was not refused", op_str[i], tname);
        rc = PMPI_Reduce_local(buf, buf2, 1, dt, all_ops[i]);
        if (err_class(rc) != MPI_ERR_OP)
            fail_msg("MPI_Reduce_local: MPI_%s on %s was not refused", op_str[i], tname);
    }
}

/* ---- integers ---- */

#define NI 7
static const long long int_in[NI] = {5, 2, 0, 7, 12, 1, -4};
static const long long int_io[NI] = {3, 9, 0, 7, 10, 0, 3};
/* hand-computed: the last column only for signed types */
static const long long int_exp[10][NI] = {
    [iMAX] = {5, 9, 0, 7, 12, 1, 3},     [iMIN] = {3, 2, 0, 7, 10, 0, -4},
    [iSUM] = {8, 11, 0, 14, 22, 1, -1},  [iPROD] = {15, 18, 0, 49, 120, 0, -12},
    [iLAND] = {1, 1, 0, 1, 1, 0, 1},     [iLOR] = {1, 1, 0, 1, 1, 1, 1},
    [iLXOR] = {0, 0, 0, 0, 0, 1, 0},     [iBAND] = {1, 0, 0, 7, 8, 0, 0},
    [iBOR] = {7, 11, 0, 7, 14, 1, -1},   [iBXOR] = {6, 11, 0, 0, 6, 1, -1},
};

#define INT_CONV(tag, T)                                                   \
    static void to_##tag(const long long *s, void *d, int n)              \
    {                                                                      \
        for (int i = 0; i < n; i++)                                        \
            ((T *)d)[i] = (T)s[i];                                         \
    }                                                                      \
    static long long from_##tag(const void *d, int i) { return (long long)((const T *)d)[i]; }

typedef void to_fn(const long long *, void *, int);
typedef long long from_fn(const void *, int);

static void check_int_type(const char *tname, MPI_Datatype dt, size_t size, int is_signed,
                           unsigned allowed, to_fn *to, from_fn *from)
{
    int n = is_signed ? NI : NI - 1;
    struct tide_datatype *t = tide_datatype_get(dt);
    assert_non_null(t);
    assert_int_equal(t->size, size);
    for (int i = 0; i < 10; i++) {
        if (!(allowed & B(i)))
            continue;
        _Alignas(16) unsigned char in[NI * 16], io[NI * 16];
        to(int_in, in, n);
        to(int_io, io, n);
        int rc = PMPI_Reduce_local(in, io, n, dt, all_ops[i]);
        if (rc != MPI_SUCCESS)
            fail_msg("MPI_%s on %s: error class %d", op_str[i], tname, err_class(rc));
        for (int k = 0; k < n; k++)
            if (from(io, k) != int_exp[i][k])
                fail_msg("MPI_%s on %s element %d: %lld, expected %lld", op_str[i], tname, k,
                         from(io, k), int_exp[i][k]);
    }
    check_refused(dt, allowed, tname);
}

typedef signed char schar;
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned long ulong;
typedef unsigned long long ullong;
typedef long long llong;
INT_CONV(char, char)
INT_CONV(schar, schar)
INT_CONV(uchar, uchar)
INT_CONV(short, short)
INT_CONV(ushort, ushort)
INT_CONV(int, int)
INT_CONV(uint, unsigned)
INT_CONV(long, long)
INT_CONV(ulong, ulong)
INT_CONV(llong, llong)
INT_CONV(ullong, ullong)
INT_CONV(i8, int8_t)
INT_CONV(i16, int16_t)
INT_CONV(i32, int32_t)
INT_CONV(i64, int64_t)
INT_CONV(u8, uint8_t)
INT_CONV(u16, uint16_t)
INT_CONV(u32, uint32_t)
INT_CONV(u64, uint64_t)
INT_CONV(aint, MPI_Aint)
#ifdef __SIZEOF_INT128__
INT_CONV(i128, __int128)
#endif

#define CI(dt, tag, T, sgn, grp) check_int_type(#dt, dt, sizeof(T), sgn, grp, to_##tag, from_##tag)

static void test_c_integer(void **state)
{
    (void)state;
    CI(MPI_SIGNED_CHAR, schar, schar, 1, G_CINT);
    /* not in the standard's table; taken as a C integer, as Open MPI and MPICH do */
    CI(MPI_CHAR, char, char, (char)-1 < 0, G_CINT);
    CI(MPI_UNSIGNED_CHAR, uchar, uchar, 0, G_CINT);
    CI(MPI_SHORT, short, short, 1, G_CINT);
    CI(MPI_UNSIGNED_SHORT, ushort, ushort, 0, G_CINT);
    CI(MPI_INT, int, int, 1, G_CINT);
    CI(MPI_UNSIGNED, uint, unsigned, 0, G_CINT);
    CI(MPI_LONG, long, long, 1, G_CINT);
    CI(MPI_UNSIGNED_LONG, ulong, ulong, 0, G_CINT);
    CI(MPI_LONG_LONG_INT, llong, llong, 1, G_CINT);
    CI(MPI_LONG_LONG, llong, llong, 1, G_CINT);
    CI(MPI_UNSIGNED_LONG_LONG, ullong, ullong, 0, G_CINT);
    CI(MPI_INT8_T, i8, int8_t, 1, G_CINT);
    CI(MPI_INT16_T, i16, int16_t, 1, G_CINT);
    CI(MPI_INT32_T, i32, int32_t, 1, G_CINT);
    CI(MPI_INT64_T, i64, int64_t, 1, G_CINT);
    CI(MPI_UINT8_T, u8, uint8_t, 0, G_CINT);
    CI(MPI_UINT16_T, u16, uint16_t, 0, G_CINT);
    CI(MPI_UINT32_T, u32, uint32_t, 0, G_CINT);
    CI(MPI_UINT64_T, u64, uint64_t, 0, G_CINT);
}

static void test_fortran_and_multilanguage_integer(void **state)
{
    (void)state;
    CI(MPI_INTEGER, i32, int32_t, 1, G_FINT);
    CI(MPI_INTEGER1, i8, int8_t, 1, G_FINT);
    CI(MPI_INTEGER2, i16, int16_t, 1, G_FINT);
    CI(MPI_INTEGER4, i32, int32_t, 1, G_FINT);
    CI(MPI_INTEGER8, i64, int64_t, 1, G_FINT);
#ifdef __SIZEOF_INT128__
    CI(MPI_INTEGER16, i128, __int128, 1, G_FINT);
#endif
    /* the multi-language types take the logical ops as well */
    CI(MPI_AINT, aint, MPI_Aint, 1, G_CINT);
    CI(MPI_OFFSET, llong, MPI_Offset, 1, G_CINT);
    CI(MPI_COUNT, llong, MPI_Count, 1, G_CINT);
}

static void test_byte(void **state)
{
    (void)state;
    const unsigned char in[3] = {0xF0, 0x0F, 0xAA}, io0[3] = {0xCC, 0xFF, 0x55};
    const unsigned char exp[3][3] = {{0xC0, 0x0F, 0x00}, {0xFC, 0xFF, 0xFF}, {0x3C, 0xF0, 0xFF}};
    const MPI_Op ops[3] = {MPI_BAND, MPI_BOR, MPI_BXOR};
    for (int i = 0; i < 3; i++) {
        unsigned char io[3];
        memcpy(io, io0, 3);
        assert_int_equal(PMPI_Reduce_local(in, io, 3, MPI_BYTE, ops[i]), MPI_SUCCESS);
        assert_memory_equal(io, exp[i], 3);
    }
    check_refused(MPI_BYTE, G_BYTE, "MPI_BYTE");
}

/* the types no op applies to (MPI_WCHAR, MPI_CHARACTER: characters) */
static void test_types_without_ops(void **state)
{
    (void)state;
    check_refused(MPI_WCHAR, G_NONE, "MPI_WCHAR");
    check_refused(MPI_CHARACTER, G_NONE, "MPI_CHARACTER");
    check_refused(MPI_PACKED, G_NONE, "MPI_PACKED");
    check_refused(MPI_2COMPLEX, G_NONE, "MPI_2COMPLEX");
    check_refused(MPI_2DOUBLE_COMPLEX, G_NONE, "MPI_2DOUBLE_COMPLEX");
    /* the message names the function, the op and the type */
    wchar_t a = 1, b = 2;
    int rc = PMPI_Reduce_local(&a, &b, 1, MPI_WCHAR, MPI_SUM);
    assert_error_names(rc, MPI_ERR_OP, "MPI_Reduce_local");
    assert_error_names(rc, MPI_ERR_OP, "MPI_SUM");
    assert_error_names(rc, MPI_ERR_OP, "MPI_WCHAR");
    assert_int_equal(b, 2);
}

/* signed sums and products wrap (two's complement), never trap */
static void test_integer_wraparound(void **state)
{
    (void)state;
    int8_t a8[2] = {100, -128}, b8[2] = {100, -1};
    assert_int_equal(PMPI_Reduce_local(a8, b8, 2, MPI_INT8_T, MPI_SUM), MPI_SUCCESS);
    assert_int_equal(b8[0], -56);
    assert_int_equal(b8[1], 127);
    uint8_t u8a[1] = {200}, u8b[1] = {100};
    assert_int_equal(PMPI_Reduce_local(u8a, u8b, 1, MPI_UINT8_T, MPI_SUM), MPI_SUCCESS);
    assert_int_equal(u8b[0], 44);
    unsigned short us_a = 65535, us_b = 65535;
    assert_int_equal(PMPI_Reduce_local(&us_a, &us_b, 1, MPI_UNSIGNED_SHORT, MPI_PROD), MPI_SUCCESS);
    assert_int_equal(us_b, 1); /* 65535^2 mod 65536 */
    int ia = INT_MAX, ib = 1;
    assert_int_equal(PMPI_Reduce_local(&ia, &ib, 1, MPI_INT, MPI_SUM), MPI_SUCCESS);
    assert_int_equal(ib, INT_MIN);
    long long la = LLONG_MAX, lb = 2;
    assert_int_equal(PMPI_Reduce_local(&la, &lb, 1, MPI_LONG_LONG, MPI_PROD), MPI_SUCCESS);
    assert_true(lb == -2);
}

/* ---- floating point ---- */

#define NF 4
static const double fl_in[NF] = {1.5, -2.0, 0.25, 3.0};
static const double fl_io[NF] = {2.0, -3.0, 0.25, -1.0};
static const double fl_exp[4][NF] = {
    [iMAX] = {2.0, -2.0, 0.25, 3.0},
    [iMIN] = {1.5, -3.0, 0.25, -1.0},
    [iSUM] = {3.5, -5.0, 0.5, 2.0},
    [iPROD] = {3.0, 6.0, 0.0625, -3.0},
};

#define FLOAT_CONV(tag, T)                                                 \
    static void fto_##tag(const double *s, void *d, int n)                \
    {                                                                      \
        for (int i = 0; i < n; i++)                                        \
            ((T *)d)[i] = (T)s[i];                                         \
    }                                                                      \
    static double ffrom_##tag(const void *d, int i) { return (double)((const T *)d)[i]; }
FLOAT_CONV(float, float)
FLOAT_CONV(double, double)
FLOAT_CONV(ldouble, long double)
#if defined(__FLT16_MAX__) && !defined(__clang__)
FLOAT_CONV(f16, _Float16)
#endif
#if defined(__FLT128_MAX__) && !defined(__clang__)
FLOAT_CONV(f128, _Float128)
#endif

static void check_float_type(const char *tname, MPI_Datatype dt, size_t size, unsigned allowed,
                             void (*to)(const double *, void *, int), double (*from)(const void *, int))
{
    struct tide_datatype *t = tide_datatype_get(dt);
    assert_non_null(t);
    assert_int_equal(t->size, size);
    for (int i = 0; i < 4; i++) {
        _Alignas(16) unsigned char in[NF * 16], io[NF * 16];
        to(fl_in, in, NF);
        to(fl_io, io, NF);
        int rc = PMPI_Reduce_local(in, io, NF, dt, all_ops[i]);
        if (rc != MPI_SUCCESS)
            fail_msg("MPI_%s on %s: error class %d", op_str[i], tname, err_class(rc));
        for (int k = 0; k < NF; k++)
            if (from(io, k) != fl_exp[i][k])
                fail_msg("MPI_%s on %s element %d: %g, expected %g", op_str[i], tname, k, from(io, k),
                         fl_exp[i][k]);
    }
    check_refused(dt, allowed, tname);
}

/* the C floating types also take the logical ops (an extension, as in
 * MPICH); the Fortran ones do not */
#define CF(dt, tag, T) check_float_type(#dt, dt, sizeof(T), G_FLOAT, fto_##tag, ffrom_##tag)
#define CF_C(dt, tag, T) check_float_type(#dt, dt, sizeof(T), G_FLOAT | G_LOGICAL, fto_##tag, ffrom_##tag)

static void test_floating_point(void **state)
{
    (void)state;
    CF_C(MPI_FLOAT, float, float);
    CF_C(MPI_DOUBLE, double, double);
    CF_C(MPI_LONG_DOUBLE, ldouble, long double);
    CF(MPI_REAL, float, float);
    CF(MPI_DOUBLE_PRECISION, double, double);
    CF(MPI_REAL4, float, float);
    CF(MPI_REAL8, double, double);
#if defined(__FLT16_MAX__) && !defined(__clang__)
    CF(MPI_REAL2, f16, _Float16);
#endif
#if defined(__FLT128_MAX__) && !defined(__clang__)
    CF(MPI_REAL16, f128, _Float128);
#endif
}

/* ---- logical ---- */

static void test_logical(void **state)
{
    (void)state;
    const int lin[4] = {1, 1, 0, 0}, lio[4] = {1, 0, 1, 0};
    const int lexp[3][4] = {{1, 0, 0, 0}, {1, 1, 1, 0}, {0, 1, 1, 0}};
    const MPI_Op ops[3] = {MPI_LAND, MPI_LOR, MPI_LXOR};
    const MPI_Datatype bools[2] = {MPI_C_BOOL, MPI_CXX_BOOL};
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < 3; i++) {
            _Bool in[4], io[4];
            for (int k = 0; k < 4; k++) {
                in[k] = lin[k];
                io[k] = lio[k];
            }
            assert_int_equal(PMPI_Reduce_local(in, io, 4, bools[t], ops[i]), MPI_SUCCESS);
            for (int k = 0; k < 4; k++)
                assert_int_equal(io[k], lexp[i][k]);
        }
    check_refused(MPI_C_BOOL, G_LOGICAL, "MPI_C_BOOL");
    check_refused(MPI_CXX_BOOL, G_LOGICAL, "MPI_CXX_BOOL");
    /* Fortran LOGICAL: 4 bytes, nonzero is true, results 0/1 */
    for (int i = 0; i < 3; i++) {
        int32_t in[4], io[4];
        for (int k = 0; k < 4; k++) {
            in[k] = lin[k] * 5;
            io[k] = lio[k] * -1;
        }
        assert_int_equal(PMPI_Reduce_local(in, io, 4, MPI_LOGICAL, ops[i]), MPI_SUCCESS);
        for (int k = 0; k < 4; k++)
            assert_int_equal(io[k], lexp[i][k]);
    }
    check_refused(MPI_LOGICAL, G_LOGICAL, "MPI_LOGICAL");
}

/* The logical ops on the C floating types: a value is true when it
 * compares unequal to zero, as in C (NaN and infinities are true, -0.0 is
 * false); the result is 1.0 or +0.0. */
#define NFL 12
static const int fl_truth_in[NFL] = {0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1};
static const int fl_truth_io[NFL] = {0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1};
/* hand-computed from the truth values above */
static const int fl_logical_exp[3][NFL] = {
    /* LAND */ {0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1},
    /* LOR */ {0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1},
    /* LXOR */ {0, 0, 0, 1, 0, 0, 1, 1, 1, 1, 0, 0},
};

#define FLOAT_LOGICAL_CHECK(dt, T)                                                              \
    do {                                                                                        \
        const MPI_Op lops[3] = {MPI_LAND, MPI_LOR, MPI_LXOR};                                   \
        const char *lnames[3] = {"LAND", "LOR", "LXOR"};                                        \
        T nan = (T)NAN, inf = (T)INFINITY, tiny = (T)1e-40L; /* subnormal as a float */         \
        for (int o = 0; o < 3; o++) {                                                           \
            /* all zero (both signs), mixed, NaN, infinities, tiny and large values */        \
            T in[NFL] = {0.0, -0.0, 0.0, 2.5, -1.0, nan, nan, 0.0, -0.0, tiny, inf, (T)1e30};   \
            T io[NFL] = {0.0, 0.0, -0.0, 0.0, 3.0, 1.0, -0.0, nan, 7.0, -0.0, -inf, nan};     \
            for (int k = 0; k < NFL; k++) {                                                     \
                assert_int_equal(in[k] != 0, fl_truth_in[k]);                                   \
                assert_int_equal(io[k] != 0, fl_truth_io[k]);                                   \
            }                                                                                   \
            int rc = PMPI_Reduce_local(in, io, NFL, dt, lops[o]);                               \
            if (rc != MPI_SUCCESS)                                                              \
                fail_msg("MPI_%s on %s: error class %d", lnames[o], #dt, err_class(rc));       \
            for (int k = 0; k < NFL; k++) {                                                     \
                T want = (T)fl_logical_exp[o][k];                                               \
                if (io[k] != want || signbit(io[k]))                                            \
                    fail_msg("MPI_%s on %s element %d: %Lg, expected %Lg", lnames[o], #dt, k,  \
                             (long double)io[k], (long double)want);                            \
            }                                                                                   \
        }                                                                                       \
    } while (0)

static void test_float_logical(void **state)
{
    (void)state;
    FLOAT_LOGICAL_CHECK(MPI_FLOAT, float);
    FLOAT_LOGICAL_CHECK(MPI_DOUBLE, double);
    FLOAT_LOGICAL_CHECK(MPI_LONG_DOUBLE, long double);
    /* longer than one vector loop, misaligned (the staged path) */
    _Alignas(16) unsigned char buf[8 * 1001 + 8 * 1001 + 8];
    double *in = (double *)(void *)(buf + 4), *io = in + 1001;
    for (int k = 0; k < 1001; k++) {
        double a = k % 3 == 0 ? 0.0 : k % 3 == 1 ? -0.5 : NAN, b = k % 5 == 0 ? -0.0 : 4.0;
        memcpy(&in[k], &a, sizeof a);
        memcpy(&io[k], &b, sizeof b);
    }
    assert_int_equal(PMPI_Reduce_local(in, io, 1001, MPI_DOUBLE, MPI_LXOR), MPI_SUCCESS);
    for (int k = 0; k < 1001; k++) {
        double r;
        memcpy(&r, &io[k], sizeof r);
        double want = (k % 3 != 0) != (k % 5 != 0) ? 1.0 : 0.0;
        if (r != want || signbit(r))
            fail_msg("MPI_LXOR on 1001 misaligned doubles, element %d: %g, expected %g", k, r, want);
    }
}

/* ---- complex ---- */

#define CPLX_CHECK(dt, T)                                                                  \
    do {                                                                                   \
        T in[2], io[2];                                                                    \
        in[0] = (T)(1.0 + 2.0 * I);                                                        \
        in[1] = (T)(-1.0 + 0.5 * I);                                                       \
        io[0] = (T)(3.0 - 1.0 * I);                                                        \
        io[1] = (T)(2.0 + 2.0 * I);                                                        \
        assert_int_equal(PMPI_Reduce_local(in, io, 2, dt, MPI_SUM), MPI_SUCCESS);         \
        assert_true(creal(io[0]) == 4.0 && cimag(io[0]) == 1.0);                           \
        assert_true(creal(io[1]) == 1.0 && cimag(io[1]) == 2.5);                           \
        io[0] = (T)(3.0 - 1.0 * I);                                                        \
        io[1] = (T)(2.0 + 2.0 * I);                                                        \
        assert_int_equal(PMPI_Reduce_local(in, io, 2, dt, MPI_PROD), MPI_SUCCESS);        \
        assert_true(creal(io[0]) == 5.0 && cimag(io[0]) == 5.0);                           \
        assert_true(creal(io[1]) == -3.0 && cimag(io[1]) == -1.0);                         \
        check_refused(dt, G_COMPLEX, #dt);                                                 \
    } while (0)

static void test_complex(void **state)
{
    (void)state;
    CPLX_CHECK(MPI_C_COMPLEX, float _Complex);
    CPLX_CHECK(MPI_C_FLOAT_COMPLEX, float _Complex);
    CPLX_CHECK(MPI_C_DOUBLE_COMPLEX, double _Complex);
    CPLX_CHECK(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex);
    CPLX_CHECK(MPI_CXX_FLOAT_COMPLEX, float _Complex);
    CPLX_CHECK(MPI_CXX_DOUBLE_COMPLEX, double _Complex);
    CPLX_CHECK(MPI_CXX_LONG_DOUBLE_COMPLEX, long double _Complex);
    CPLX_CHECK(MPI_COMPLEX, float _Complex);
    CPLX_CHECK(MPI_DOUBLE_COMPLEX, double _Complex);
    CPLX_CHECK(MPI_COMPLEX8, float _Complex);
    CPLX_CHECK(MPI_COMPLEX16, double _Complex);
#if defined(__FLT128_MAX__) && !defined(__clang__)
    {
        _Complex _Float128 in[2], io[2];
        in[0] = 1.0 + 2.0 * I;
        in[1] = -1.0 + 0.5 * I;
        io[0] = 3.0 - 1.0 * I;
        io[1] = 2.0 + 2.0 * I;
        assert_int_equal(PMPI_Reduce_local(in, io, 2, MPI_COMPLEX32, MPI_PROD), MPI_SUCCESS);
        assert_true((double)__real__ io[0] == 5.0 && (double)__imag__ io[0] == 5.0);
        assert_true((double)__real__ io[1] == -3.0 && (double)__imag__ io[1] == -1.0);
        io[0] = 3.0 - 1.0 * I;
        assert_int_equal(PMPI_Reduce_local(in, io, 1, MPI_COMPLEX32, MPI_SUM), MPI_SUCCESS);
        assert_true((double)__real__ io[0] == 4.0 && (double)__imag__ io[0] == 1.0);
        check_refused(MPI_COMPLEX32, G_COMPLEX, "MPI_COMPLEX32");
    }
#endif
}

/* ---- MAXLOC / MINLOC ---- */

#define NP 5
static const int pv_in[NP] = {3, 5, 4, 2, 6}, pi_in[NP] = {1, 2, 7, 9, 2};
static const int pv_io[NP] = {3, 4, 4, 8, 6}, pi_io[NP] = {0, 5, 3, 1, 4};
/* ties (elements 0, 2, 4) take the smaller index whichever side has it */
static const int maxloc_v[NP] = {3, 5, 4, 8, 6}, maxloc_i[NP] = {0, 2, 3, 1, 2};
static const int minloc_v[NP] = {3, 4, 4, 2, 6}, minloc_i[NP] = {0, 5, 3, 9, 2};

#define PAIR_CHECK(dt, VT, IT)                                                              \
    do {                                                                                    \
        struct {                                                                            \
            VT v;                                                                           \
            IT i;                                                                           \
        } in[NP], io[NP];                                                                   \
        assert_int_equal(tide_datatype_get(dt)->extent, sizeof in[0]);                      \
        for (int pass = 0; pass < 2; pass++) {                                              \
            memset(in, 0, sizeof in);                                                       \
            memset(io, 0, sizeof io);                                                       \
            for (int k = 0; k < NP; k++) {                                                  \
                in[k].v = (VT)pv_in[k];                                                     \
                in[k].i = (IT)pi_in[k];                                                     \
                io[k].v = (VT)pv_io[k];                                                     \
                io[k].i = (IT)pi_io[k];                                                     \
            }                                                                               \
            MPI_Op op_ = pass ? MPI_MINLOC : MPI_MAXLOC;                                    \
            assert_int_equal(PMPI_Reduce_local(in, io, NP, dt, op_), MPI_SUCCESS);          \
            for (int k = 0; k < NP; k++) {                                                  \
                int ev = pass ? minloc_v[k] : maxloc_v[k], ei = pass ? minloc_i[k] : maxloc_i[k]; \
                if (io[k].v != (VT)ev || io[k].i != (IT)ei)                                 \
                    fail_msg("%s %s element %d: (%g, %g), expected (%d, %d)",               \
                             pass ? "MINLOC" : "MAXLOC", #dt, k, (double)io[k].v,           \
                             (double)io[k].i, ev, ei);                                      \
            }                                                                               \
        }                                                                                   \
        check_refused(dt, G_PAIR, #dt);                                                     \
    } while (0)

static void test_maxloc_minloc(void **state)
{
    (void)state;
    PAIR_CHECK(MPI_FLOAT_INT, float, int);
    PAIR_CHECK(MPI_DOUBLE_INT, double, int);
    PAIR_CHECK(MPI_LONG_INT, long, int);
    PAIR_CHECK(MPI_2INT, int, int);
    PAIR_CHECK(MPI_SHORT_INT, short, int);
    PAIR_CHECK(MPI_LONG_DOUBLE_INT, long double, int);
    PAIR_CHECK(MPI_2REAL, float, float);
    PAIR_CHECK(MPI_2DOUBLE_PRECISION, double, double);
    PAIR_CHECK(MPI_2INTEGER, int32_t, int32_t);
}

/* MAXLOC over many "ranks" in any order gives the same (value, min index) */
static void test_maxloc_order_independent(void **state)
{
    (void)state;
    struct {
        double v;
        int i;
    } vals[6] = {{1, 4}, {7, 5}, {7, 2}, {3, 0}, {7, 3}, {-1, 1}};
    int orders[3][6] = {{0, 1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0}, {2, 4, 0, 5, 1, 3}};
    for (int o = 0; o < 3; o++) {
        __typeof__(vals[0]) acc = vals[orders[o][0]];
        for (int k = 1; k < 6; k++)
            assert_int_equal(PMPI_Reduce_local(&vals[orders[o][k]], &acc, 1, MPI_DOUBLE_INT, MPI_MAXLOC),
                             MPI_SUCCESS);
        assert_true(acc.v == 7 && acc.i == 2);
    }
}

/* ---- long, misaligned, reproducible ---- */

static void test_long_and_misaligned_buffers(void **state)
{
    (void)state;
    enum { N = 1003 };
    double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *ref = malloc(N * sizeof *ref);
    char *ma = malloc(N * sizeof(double) + 1), *mb = malloc(N * sizeof(double) + 1);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(ref);
    assert_non_null(ma);
    assert_non_null(mb);
    for (int i = 0; i < N; i++) {
        a[i] = 1.0 / (i + 1);
        b[i] = (i % 7) * 0.1 - 0.3;
        ref[i] = a[i] + b[i];
    }
    memcpy(ma + 1, a, N * sizeof(double));
    memcpy(mb + 1, b, N * sizeof(double));
    assert_int_equal(PMPI_Reduce_local(a, b, N, MPI_DOUBLE, MPI_SUM), MPI_SUCCESS);
    assert_memory_equal(b, ref, N * sizeof(double));
    /* misaligned: staged through aligned buffers, same bits */
    assert_int_equal(PMPI_Reduce_local(ma + 1, mb + 1, N, MPI_DOUBLE, MPI_SUM), MPI_SUCCESS);
    assert_memory_equal(mb + 1, ref, N * sizeof(double));
    /* max on ints over a long vector */
    int *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    assert_non_null(x);
    assert_non_null(y);
    for (int i = 0; i < N; i++) {
        x[i] = (i * 37) % 101 - 50;
        y[i] = (i * 53) % 97 - 48;
    }
    int *yref = malloc(N * sizeof *yref);
    assert_non_null(yref);
    for (int i = 0; i < N; i++)
        yref[i] = x[i] > y[i] ? x[i] : y[i];
    assert_int_equal(PMPI_Reduce_local(x, y, N, MPI_INT, MPI_MAX), MPI_SUCCESS);
    assert_memory_equal(y, yref, N * sizeof(int));
    /* the same buffer on both sides aliases inbuf and inoutbuf: refused,
     * and the buffer left alone */
    assert_int_equal(err_class(PMPI_Reduce_local(x, x, N, MPI_INT, MPI_SUM)), MPI_ERR_BUFFER);
    for (int i = 0; i < N; i++)
        assert_int_equal(x[i], (i * 37) % 101 - 50);
    free(a);
    free(b);
    free(ref);
    free(ma);
    free(mb);
    free(x);
    free(y);
    free(yref);
}

/* ---- derived datatypes ----
 * Made with the type constructors when they are available, otherwise as
 * objects built here the way the type module builds them. */

struct tt {
    MPI_Datatype h;
    struct tide_datatype *t;
    bool fake;
};

static struct tt fake_type(int base, size_t nbase, bool committed)
{
    struct tide_datatype *bt = tide_datatype_builtin(base ? base : (int)(TIDE_HANDLE_INDEX(MPI_INT) & 0xff));
    struct tide_datatype *t = calloc(1, sizeof *t);
    assert_non_null(t);
    t->refcount = 1;
    t->committed = committed;
    t->contig = true;
    t->combiner = MPI_COMBINER_CONTIGUOUS;
    t->size = bt->size * nbase;
    t->extent = (MPI_Aint)t->size;
    t->ub = t->extent;
    t->true_ub = t->extent;
    t->base = base;
    t->nbase = nbase;
    snprintf(t->name, sizeof t->name, "fake");
    t->handle = tide_handle_alloc(TIDE_KIND_DATATYPE, t);
    return (struct tt){t->handle, t, true};
}

static struct tt contig_type(MPI_Datatype base, int n, bool commit)
{
    MPI_Datatype h;
    if (PMPI_Type_contiguous(n, base, &h) == MPI_SUCCESS) {
        if (commit)
            assert_int_equal(PMPI_Type_commit(&h), MPI_SUCCESS);
        struct tt r = {h, tide_datatype_get(h), false};
        assert_non_null(r.t);
        return r;
    }
    return fake_type((int)(TIDE_HANDLE_INDEX(base) & 0xff), (size_t)n, commit);
}

static struct tt mixed_type(void)
{
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, h;
    if (PMPI_Type_create_struct(2, bl, disp, types, &h) == MPI_SUCCESS) {
        assert_int_equal(PMPI_Type_commit(&h), MPI_SUCCESS);
        return (struct tt){h, tide_datatype_get(h), false};
    }
    return fake_type(0, 1, true);
}

static void free_type(struct tt *t)
{
    if (t->fake) {
        tide_handle_release(t->t->handle);
        free(t->t);
    } else {
        assert_int_equal(PMPI_Type_free(&t->h), MPI_SUCCESS);
    }
}

static void test_derived_types(void **state)
{
    (void)state;
    struct tt tri = contig_type(MPI_INT, 3, true);
    int a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {10, 20, 30, 40, 50, 60};
    assert_int_equal(PMPI_Reduce_local(a, b, 2, tri.h, MPI_SUM), MPI_SUCCESS);
    for (int i = 0; i < 6; i++)
        assert_int_equal(b[i], 11 * (i + 1));
    /* the base type's table applies: no MPI_MAXLOC on a type made of MPI_INT */
    assert_int_equal(err_class(PMPI_Reduce_local(a, b, 2, tri.h, MPI_MAXLOC)), MPI_ERR_OP);
    /* a type made of MPI_2INT does allow it */
    struct tt pairs = contig_type(MPI_2INT, 2, true);
    int p[4] = {5, 1, 2, 3}, q[4] = {5, 0, 9, 9};
    assert_int_equal(PMPI_Reduce_local(p, q, 1, pairs.h, MPI_MAXLOC), MPI_SUCCESS);
    assert_int_equal(q[0], 5);
    assert_int_equal(q[1], 0);
    assert_int_equal(q[2], 9);
    assert_int_equal(q[3], 9);
    /* a type mixing basic types: predefined ops refused */
    struct tt mixed = mixed_type();
    int rc = PMPI_Reduce_local(a, b, 1, mixed.h, MPI_SUM);
    assert_error_names(rc, MPI_ERR_OP, "mixes");
    /* uncommitted derived type */
    struct tt unc = contig_type(MPI_INT, 1, false);
    assert_int_equal(err_class(PMPI_Reduce_local(a, b, 1, unc.h, MPI_SUM)), MPI_ERR_TYPE);
    free_type(&tri);
    free_type(&pairs);
    free_type(&mixed);
    free_type(&unc);
    /* a type with holes: only its elements change */
    MPI_Datatype vec;
    if (PMPI_Type_vector(3, 1, 2, MPI_INT, &vec) == MPI_SUCCESS) {
        assert_int_equal(PMPI_Type_commit(&vec), MPI_SUCCESS);
        int x[12], y[12];
        for (int i = 0; i < 12; i++) {
            x[i] = i;
            y[i] = 100 * i;
        }
        /* two elements: extent 5 ints, so the second starts at int 5 */
        assert_int_equal(PMPI_Reduce_local(x, y, 2, vec, MPI_SUM), MPI_SUCCESS);
        for (int i = 0; i < 12; i++) {
            int in_type = i == 0 || i == 2 || i == 4 || i == 5 || i == 7 || i == 9;
            assert_int_equal(y[i], in_type ? 101 * i : 100 * i);
        }
        assert_int_equal(PMPI_Type_free(&vec), MPI_SUCCESS);
    } else {
        print_message("MPI_Type_vector not available: the non-contiguous case is not exercised\n");
    }
}

/* ---- MPI_REPLACE and MPI_NO_OP (one-sided only) ---- */

static void test_replace_and_no_op(void **state)
{
    (void)state;
    struct tide_op *rep = tide_op_get(MPI_REPLACE), *nop = tide_op_get(MPI_NO_OP);
    assert_non_null(rep);
    assert_non_null(nop);
    struct tide_datatype *tc = tide_datatype_get(MPI_CHAR), *td = tide_datatype_get(MPI_DOUBLE);
    /* allowed on any predefined type for accumulate */
    assert_int_equal(tide_op_check(rep, tc, "unit"), MPI_SUCCESS);
    assert_int_equal(tide_op_check(nop, td, "unit"), MPI_SUCCESS);
    assert_int_equal(tide_op_check(rep, tide_datatype_get(MPI_DOUBLE_INT), "unit"), MPI_SUCCESS);
    assert_int_equal(err_class(tide_op_check(rep, tide_datatype_get(MPI_PACKED), "unit")), MPI_ERR_OP);
    /* not in reductions */
    assert_error_names(tide_op_check_reduce(rep, td, "MPI_Allreduce"), MPI_ERR_OP, "MPI_REPLACE");
    double x[3] = {1, 2, 3}, y[3] = {7, 8, 9};
    assert_error_names(PMPI_Reduce_local(x, y, 3, MPI_DOUBLE, MPI_REPLACE), MPI_ERR_OP, "one-sided");
    assert_int_equal(err_class(PMPI_Reduce_local(x, y, 3, MPI_DOUBLE, MPI_NO_OP)), MPI_ERR_OP);
    tide_op_apply(nop, x, y, 3, td);
    assert_true(y[0] == 7 && y[1] == 8 && y[2] == 9);
    tide_op_apply(rep, x, y, 3, td);
    assert_true(y[0] == 1 && y[1] == 2 && y[2] == 3);
    char s[4] = "abc", d[4] = "xyz";
    tide_op_apply(rep, s, d, 3, tc);
    assert_string_equal(d, "abc");
    assert_string_equal(tide_op_name(rep), "MPI_REPLACE");
}

/* ---- user operations ---- */

static MPI_Datatype seen_type;
static int seen_calls, seen_len;

/* 2x2 integer matrices, row-major: inout = in * inout (not commutative) */
static void matmul(void *vin, void *vio, int *len, MPI_Datatype *dt)
{
    seen_type = *dt;
    seen_calls++;
    seen_len = *len;
    int *a = vin, *b = vio;
    int n = *len / 4;
    if (*dt != MPI_INT)
        n = *len; /* a derived type of 4 ints: one matrix per element */
    for (int k = 0; k < n; k++, a += 4, b += 4) {
        int c0 = a[0] * b[0] + a[1] * b[2], c1 = a[0] * b[1] + a[1] * b[3];
        int c2 = a[2] * b[0] + a[3] * b[2], c3 = a[2] * b[1] + a[3] * b[3];
        b[0] = c0;
        b[1] = c1;
        b[2] = c2;
        b[3] = c3;
    }
}

static void test_user_op_order(void **state)
{
    (void)state;
    MPI_Op op;
    assert_int_equal(PMPI_Op_create(matmul, 0, &op), MPI_SUCCESS);
    int commute = -1;
    assert_int_equal(PMPI_Op_commutative(op, &commute), MPI_SUCCESS);
    assert_int_equal(commute, 0);
    struct tide_op *o = tide_op_get(op);
    assert_non_null(o);
    assert_false(o->predefined);
    assert_int_equal(o->index, 0);
    /* any datatype is fine for a user op */
    assert_int_equal(tide_op_check(o, tide_datatype_get(MPI_CHAR), "unit"), MPI_SUCCESS);
    int A[4] = {1, 2, 3, 4}, B[4] = {0, 1, 1, 0};
    /* A*B = {2,1,4,3}; B*A would be {3,4,1,2} */
    seen_calls = 0;
    assert_int_equal(PMPI_Reduce_local(A, B, 4, MPI_INT, op), MPI_SUCCESS);
    assert_int_equal(seen_calls, 1);
    assert_int_equal(seen_len, 4);
    assert_int_equal(seen_type, MPI_INT);
    int AB[4] = {2, 1, 4, 3};
    assert_memory_equal(B, AB, sizeof AB);
    /* a derived type: the user function gets that handle and count */
    struct tt matt = contig_type(MPI_INT, 4, true);
    MPI_Datatype mat = matt.h;
    int A2[8] = {1, 2, 3, 4, 1, 0, 0, 1}, B2[8] = {0, 1, 1, 0, 2, 0, 0, 2};
    assert_int_equal(PMPI_Reduce_local(A2, B2, 2, mat, op), MPI_SUCCESS);
    assert_int_equal(seen_type, mat);
    assert_int_equal(seen_len, 2);
    int exp2[8] = {2, 1, 4, 3, 2, 0, 0, 2};
    assert_memory_equal(B2, exp2, sizeof exp2);
    free_type(&matt);
    assert_int_equal(PMPI_Op_free(&op), MPI_SUCCESS);
    assert_int_equal(op, MPI_OP_NULL);
}

static void sum_fn(void *vin, void *vio, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)vio)[i] += ((int *)vin)[i];
}

static void test_op_create_free(void **state)
{
    (void)state;
    MPI_Op op, op2;
    assert_int_equal(err_class(PMPI_Op_create(NULL, 1, &op)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Op_create(sum_fn, 1, NULL)), MPI_ERR_ARG);
    assert_int_equal(PMPI_Op_create(sum_fn, 1, &op), MPI_SUCCESS);
    assert_int_equal(PMPI_Op_create(sum_fn, 7, &op2), MPI_SUCCESS);
    assert_int_not_equal(op, op2);
    /* user handles never collide with the predefined ones */
    assert_true(TIDE_HANDLE_INDEX(op) >= TIDE_BUILTIN_OP_COUNT);
    int c = 0;
    assert_int_equal(PMPI_Op_commutative(op2, &c), MPI_SUCCESS);
    assert_int_equal(c, 1);
    assert_int_equal(PMPI_Op_commutative(MPI_SUM, &c), MPI_SUCCESS);
    assert_int_equal(c, 1);
    assert_int_equal(err_class(PMPI_Op_commutative(MPI_OP_NULL, &c)), MPI_ERR_OP);
    assert_int_equal(err_class(PMPI_Op_commutative(MPI_SUM, NULL)), MPI_ERR_ARG);
    assert_int_equal(err_class(PMPI_Op_commutative(MPI_COMM_WORLD, &c)), MPI_ERR_OP);
    /* a pending operation keeps the op alive after MPI_Op_free */
    struct tide_op *o = tide_op_get(op);
    tide_op_retain(o);
    MPI_Op saved = op;
    assert_int_equal(PMPI_Op_free(&op), MPI_SUCCESS);
    assert_int_equal(op, MPI_OP_NULL);
    assert_null(tide_op_get(saved));
    int x[2] = {1, 2}, y[2] = {3, 4};
    tide_op_apply(o, x, y, 2, tide_datatype_get(MPI_INT));
    assert_int_equal(y[0], 4);
    assert_int_equal(y[1], 6);
    tide_op_release(o);
    /* freeing again, NULL, predefined */
    assert_int_equal(err_class(PMPI_Op_free(&saved)), MPI_ERR_OP);
    assert_int_equal(err_class(PMPI_Op_free(&op)), MPI_ERR_OP);
    assert_int_equal(err_class(PMPI_Op_free(NULL)), MPI_ERR_ARG);
    MPI_Op sum = MPI_SUM;
    int rc = PMPI_Op_free(&sum);
    assert_error_names(rc, MPI_ERR_OP, "MPI_Op_free");
    assert_int_equal(sum, MPI_SUM);
    /* predefined retain/release are no-ops */
    tide_op_retain(tide_op_get(MPI_SUM));
    tide_op_release(tide_op_get(MPI_SUM));
    assert_non_null(tide_op_get(MPI_SUM));
    assert_int_equal(PMPI_Op_free(&op2), MPI_SUCCESS);
}

static void test_op_lookup(void **state)
{
    (void)state;
    const MPI_Op ops[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR,
                          MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        struct tide_op *o = tide_op_get(ops[i]);
        assert_non_null(o);
        assert_true(o->predefined);
        assert_true(o->commute);
        assert_int_equal(o->handle, ops[i]);
        assert_int_equal(o->index, (int)TIDE_HANDLE_INDEX(ops[i]));
        assert_true(strncmp(tide_op_name(o), "MPI_", 4) == 0);
    }
    assert_null(tide_op_get(MPI_OP_NULL));
    assert_null(tide_op_get(MPI_INT));
    assert_null(tide_op_get(TIDE_HANDLE(TIDE_KIND_OP, 999)));
    assert_null(tide_op_get(MPI_SUM | (1 << 25)));
}

/* ---- MPI_Reduce_local argument checks ---- */

static void test_reduce_local_errors(void **state)
{
    (void)state;
    int a[2] = {1, 2}, b[2] = {3, 4};
    int rc = PMPI_Reduce_local(a, b, -1, MPI_INT, MPI_SUM);
    assert_error_names(rc, MPI_ERR_COUNT, "MPI_Reduce_local");
    assert_int_equal(err_class(PMPI_Reduce_local(a, b, 2, MPI_DATATYPE_NULL, MPI_SUM)), MPI_ERR_TYPE);
    assert_int_equal(err_class(PMPI_Reduce_local(a, b, 2, MPI_COMM_WORLD, MPI_SUM)), MPI_ERR_TYPE);
    rc = PMPI_Reduce_local(a, b, 2, MPI_INT, MPI_OP_NULL);
    assert_error_names(rc, MPI_ERR_OP, "MPI_OP_NULL");
    assert_int_equal(err_class(PMPI_Reduce_local(a, b, 2, MPI_INT, MPI_INT)), MPI_ERR_OP);
    rc = PMPI_Reduce_local(b, b, 2, MPI_INT, MPI_SUM);
    assert_error_names(rc, MPI_ERR_BUFFER, "inoutbuf");
    rc = PMPI_Reduce_local(MPI_IN_PLACE, b, 2, MPI_INT, MPI_SUM);
    assert_error_names(rc, MPI_ERR_BUFFER, "MPI_IN_PLACE");
    assert_int_equal(err_class(PMPI_Reduce_local(a, MPI_IN_PLACE, 2, MPI_INT, MPI_SUM)), MPI_ERR_BUFFER);
    assert_int_equal(err_class(PMPI_Reduce_local(NULL, b, 2, MPI_INT, MPI_SUM)), MPI_ERR_BUFFER);
    assert_int_equal(err_class(PMPI_Reduce_local(a, NULL, 2, MPI_INT, MPI_SUM)), MPI_ERR_BUFFER);
    /* count 0: nothing to do, NULL buffers fine */
    assert_int_equal(PMPI_Reduce_local(NULL, NULL, 0, MPI_INT, MPI_SUM), MPI_SUCCESS);
    assert_int_equal(b[0], 3);
    /* the (op, type) table is checked even with count 0 */
    assert_int_equal(err_class(PMPI_Reduce_local(a, b, 0, MPI_FLOAT, MPI_BAND)), MPI_ERR_OP);
    assert_int_equal(err_class(PMPI_Reduce_local(a, b, 1, MPI_DOUBLE_PRECISION, MPI_LAND)), MPI_ERR_OP);
    assert_int_equal(err_class(PMPI_Reduce_local(a, b, 1, MPI_C_DOUBLE_COMPLEX, MPI_LOR)), MPI_ERR_OP);
    assert_int_equal(err_class(PMPI_Reduce_local(a, b, 1, MPI_INTEGER, MPI_LOR)), MPI_ERR_OP);
    assert_int_equal(err_class(PMPI_Reduce_local(a, b, 1, MPI_INTEGER8, MPI_LXOR)), MPI_ERR_OP);
    assert_int_equal(err_class(PMPI_Reduce_local(a, b, 1, MPI_C_BOOL, MPI_SUM)), MPI_ERR_OP);
    assert_int_equal(err_class(PMPI_Reduce_local(a, b, 1, MPI_C_DOUBLE_COMPLEX, MPI_MAX)), MPI_ERR_OP);
    assert_int_equal(err_class(PMPI_Reduce_local(a, b, 1, MPI_INT, MPI_MINLOC)), MPI_ERR_OP);
    assert_int_equal(err_class(PMPI_Reduce_local(a, b, 1, MPI_2INT, MPI_SUM)), MPI_ERR_OP);
    assert_int_equal(err_class(PMPI_Reduce_local(a, b, 1, MPI_UB, MPI_SUM)), MPI_ERR_OP);
    /* nothing was changed by the refused calls */
    assert_int_equal(b[0], 3);
    assert_int_equal(b[1], 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_op_lookup),
        cmocka_unit_test(test_c_integer),
        cmocka_unit_test(test_fortran_and_multilanguage_integer),
        cmocka_unit_test(test_byte),
        cmocka_unit_test(test_types_without_ops),
        cmocka_unit_test(test_integer_wraparound),
        cmocka_unit_test(test_floating_point),
        cmocka_unit_test(test_logical),
        cmocka_unit_test(test_float_logical),
        cmocka_unit_test(test_complex),
        cmocka_unit_test(test_maxloc_minloc),
        cmocka_unit_test(test_maxloc_order_independent),
        cmocka_unit_test(test_long_and_misaligned_buffers),
        cmocka_unit_test(test_derived_types),
        cmocka_unit_test(test_replace_and_no_op),
        cmocka_unit_test(test_user_op_order),
        cmocka_unit_test(test_op_create_free),
        cmocka_unit_test(test_reduce_local_errors),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
