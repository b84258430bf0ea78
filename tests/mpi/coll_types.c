/*
 * coll_types.c: every predefined operation on every predefined datatype
 * through MPI_Allreduce, MPI_Reduce and MPI_Scan. The pairs the standard's
 * table allows (MPI-2.2 5.9.2, with MPI-3's multi-language types, and
 * MPI_CHAR taken as a C integer and logical ops allowed on the
 * multi-language types and on the C floating types, as other
 * implementations do) must
 * give the reduction computed locally with MPI_Reduce_local in rank
 * order; every other pair must fail with MPI_ERR_OP on every rank (and so
 * must a derived type mixing basic types, and MPI_REPLACE / MPI_NO_OP,
 * which belong to one-sided accumulate). Optional Fortran types this build
 * cannot compute with may be refused with MPI_ERR_OP. Also MPI_Reduce_local
 * on every predefined operation with values worked out by hand.
 *
 * Prints "coll_types: ok N pairs" on success.
 */
#include "testutil.h"

#include <complex.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

enum { G_CINT = 1, G_FINT = 2, G_FLOAT = 4, G_LOGICAL = 8, G_COMPLEX = 16, G_BYTE = 32, G_PAIR = 64, G_MULTI = 128,
       G_CFLOAT = 256 /* the C floating types: also the logical ops, as in MPICH */ };
enum { K_SINT, K_UINT, K_FLT, K_CPLX, K_BOOL, K_BYTE, K_PAIR, K_OTHER };

struct tinfo {
    const char *name;
    MPI_Datatype dt;
    int group;
    int kind;
    int size;      /* bytes of the value (one part for complex and pairs) */
    bool optional; /* may be unsupported by a build */
    int ioff, isize, ikind; /* pairs: where the index is and what it is */
};

#define TI(t, g, k, s) {#t, t, g, k, s, false, 0, 0, 0}
#define TO(t, g, k, s) {#t, t, g, k, s, true, 0, 0, 0}
#define TP(t, k, s, io, is, ik) {#t, t, G_PAIR, K_PAIR, s, false, io, is, ik}

static struct tinfo types[] = {
    TI(MPI_INT, G_CINT, K_SINT, sizeof(int)),
    TI(MPI_LONG, G_CINT, K_SINT, sizeof(long)),
    TI(MPI_SHORT, G_CINT, K_SINT, sizeof(short)),
    TI(MPI_UNSIGNED_SHORT, G_CINT, K_UINT, sizeof(short)),
    TI(MPI_UNSIGNED, G_CINT, K_UINT, sizeof(int)),
    TI(MPI_UNSIGNED_LONG, G_CINT, K_UINT, sizeof(long)),
    TI(MPI_LONG_LONG_INT, G_CINT, K_SINT, sizeof(long long)),
    TI(MPI_UNSIGNED_LONG_LONG, G_CINT, K_UINT, sizeof(long long)),
    TI(MPI_SIGNED_CHAR, G_CINT, K_SINT, 1),
    TI(MPI_UNSIGNED_CHAR, G_CINT, K_UINT, 1),
    /* not in the table: a C char, as in Open MPI and MPICH */
    TI(MPI_CHAR, G_CINT, (char)-1 < 0 ? K_SINT : K_UINT, 1),
    TI(MPI_INT8_T, G_CINT, K_SINT, 1),
    TI(MPI_INT16_T, G_CINT, K_SINT, 2),
    TI(MPI_INT32_T, G_CINT, K_SINT, 4),
    TI(MPI_INT64_T, G_CINT, K_SINT, 8),
    TI(MPI_UINT8_T, G_CINT, K_UINT, 1),
    TI(MPI_UINT16_T, G_CINT, K_UINT, 2),
    TI(MPI_UINT32_T, G_CINT, K_UINT, 4),
    TI(MPI_UINT64_T, G_CINT, K_UINT, 8),
    TI(MPI_INTEGER, G_FINT, K_SINT, 4),
    TO(MPI_INTEGER1, G_FINT, K_SINT, 1),
    TO(MPI_INTEGER2, G_FINT, K_SINT, 2),
    TO(MPI_INTEGER4, G_FINT, K_SINT, 4),
    TO(MPI_INTEGER8, G_FINT, K_SINT, 8),
    TO(MPI_INTEGER16, G_FINT, K_SINT, 16),
    TI(MPI_FLOAT, G_FLOAT | G_CFLOAT, K_FLT, sizeof(float)),
    TI(MPI_DOUBLE, G_FLOAT | G_CFLOAT, K_FLT, sizeof(double)),
    TI(MPI_LONG_DOUBLE, G_FLOAT | G_CFLOAT, K_FLT, sizeof(long double)),
    TI(MPI_REAL, G_FLOAT, K_FLT, 4),
    TI(MPI_DOUBLE_PRECISION, G_FLOAT, K_FLT, 8),
    TO(MPI_REAL2, G_FLOAT, K_FLT, 2),
    TO(MPI_REAL4, G_FLOAT, K_FLT, 4),
    TO(MPI_REAL8, G_FLOAT, K_FLT, 8),
    TO(MPI_REAL16, G_FLOAT, K_FLT, 16),
    TI(MPI_LOGICAL, G_LOGICAL, K_BOOL, 4),
    TI(MPI_C_BOOL, G_LOGICAL, K_BOOL, sizeof(bool)),
    TO(MPI_CXX_BOOL, G_LOGICAL, K_BOOL, sizeof(bool)),
    TI(MPI_C_FLOAT_COMPLEX, G_COMPLEX, K_CPLX, sizeof(float)),
    TI(MPI_C_DOUBLE_COMPLEX, G_COMPLEX, K_CPLX, sizeof(double)),
    TI(MPI_C_LONG_DOUBLE_COMPLEX, G_COMPLEX, K_CPLX, sizeof(long double)),
    TI(MPI_COMPLEX, G_COMPLEX, K_CPLX, 4),
    TI(MPI_DOUBLE_COMPLEX, G_COMPLEX, K_CPLX, 8),
    TO(MPI_COMPLEX8, G_COMPLEX, K_CPLX, 4),
    TO(MPI_COMPLEX16, G_COMPLEX, K_CPLX, 8),
    TO(MPI_COMPLEX32, G_COMPLEX, K_CPLX, 16),
    TO(MPI_CXX_FLOAT_COMPLEX, G_COMPLEX, K_CPLX, sizeof(float)),
    TO(MPI_CXX_DOUBLE_COMPLEX, G_COMPLEX, K_CPLX, sizeof(double)),
    TO(MPI_CXX_LONG_DOUBLE_COMPLEX, G_COMPLEX, K_CPLX, sizeof(long double)),
    TI(MPI_BYTE, G_BYTE, K_BYTE, 1),
    TI(MPI_AINT, G_MULTI, K_SINT, sizeof(MPI_Aint)),
    TI(MPI_OFFSET, G_MULTI, K_SINT, sizeof(MPI_Offset)),
    TI(MPI_COUNT, G_MULTI, K_SINT, sizeof(MPI_Count)),
    TP(MPI_FLOAT_INT, K_FLT, sizeof(float), 4, 4, K_SINT),
    TP(MPI_DOUBLE_INT, K_FLT, sizeof(double), 8, 4, K_SINT),
    TP(MPI_LONG_INT, K_SINT, sizeof(long), sizeof(long), 4, K_SINT),
    TP(MPI_2INT, K_SINT, 4, 4, 4, K_SINT),
    TP(MPI_SHORT_INT, K_SINT, sizeof(short), 4, 4, K_SINT),
    TP(MPI_LONG_DOUBLE_INT, K_FLT, sizeof(long double), sizeof(long double), 4, K_SINT),
    TP(MPI_2REAL, K_FLT, 4, 4, 4, K_FLT),
    TP(MPI_2DOUBLE_PRECISION, K_FLT, 8, 8, 8, K_FLT),
    TP(MPI_2INTEGER, K_SINT, 4, 4, 4, K_SINT),
    /* in no group */
    TI(MPI_WCHAR, 0, K_OTHER, sizeof(wchar_t)),
    TI(MPI_CHARACTER, 0, K_OTHER, 1),
    TI(MPI_PACKED, 0, K_OTHER, 1),
};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

static const struct {
    const char *name;
    MPI_Op op;
    int groups;
} ops[] = {
    {"MPI_MAX", MPI_MAX, G_CINT | G_FINT | G_FLOAT | G_MULTI},
    {"MPI_MIN", MPI_MIN, G_CINT | G_FINT | G_FLOAT | G_MULTI},
    {"MPI_SUM", MPI_SUM, G_CINT | G_FINT | G_FLOAT | G_COMPLEX | G_MULTI},
    {"MPI_PROD", MPI_PROD, G_CINT | G_FINT | G_FLOAT | G_COMPLEX | G_MULTI},
    {"MPI_LAND", MPI_LAND, G_CINT | G_LOGICAL | G_MULTI | G_CFLOAT},
    {"MPI_LOR", MPI_LOR, G_CINT | G_LOGICAL | G_MULTI | G_CFLOAT},
    {"MPI_LXOR", MPI_LXOR, G_CINT | G_LOGICAL | G_MULTI | G_CFLOAT},
    {"MPI_BAND", MPI_BAND, G_CINT | G_FINT | G_BYTE | G_MULTI},
    {"MPI_BOR", MPI_BOR, G_CINT | G_FINT | G_BYTE | G_MULTI},
    {"MPI_BXOR", MPI_BXOR, G_CINT | G_FINT | G_BYTE | G_MULTI},
    {"MPI_MAXLOC", MPI_MAXLOC, G_PAIR},
    {"MPI_MINLOC", MPI_MINLOC, G_PAIR},
    {"MPI_REPLACE", MPI_REPLACE, 0},
    {"MPI_NO_OP", MPI_NO_OP, 0},
};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

#define COUNT 5

static int rank, size;

/* a small value for (rank, element, op): products of up to 17 of them
 * stay exact in every floating type */
static long small(int r, int k, MPI_Op op)
{
    if (op == MPI_PROD)
        return 1 + (r + k) % 2;
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
        return (r + k) % 3 != 0;
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
        return (r * 37 + k * 11 + 5) & 0x7f;
    return (r * 7 + k * 3) % 11 - (op == MPI_MAXLOC || op == MPI_MINLOC ? 0 : 3);
}

/* sz 16 with quad set: the IEEE binary128 of MPI_REAL16 / MPI_COMPLEX32 */
static void put_num_q(void *p, int kind, int sz, long v, bool quad)
{
    if (kind == K_FLT) {
        if (sz == 2) {
#ifdef __FLT16_MAX__
            _Float16 h = (_Float16)v;
            memcpy(p, &h, sizeof h);
#else
            memset(p, 0, 2);
#endif
        } else if (sz == 16 && quad) {
#ifdef __FLT128_MAX__
            _Float128 q = (_Float128)v;
            memcpy(p, &q, sizeof q);
#else
            memset(p, 0, 16);
#endif
        } else if (sz == sizeof(float)) {
            float f = (float)v;
            memcpy(p, &f, sizeof f);
        } else if (sz == sizeof(double)) {
            double d = (double)v;
            memcpy(p, &d, sizeof d);
        } else if (sz == sizeof(long double)) {
            long double d = (long double)v;
            memset(p, 0, (size_t)sz);
            memcpy(p, &d, sizeof d);
        } else {
            memset(p, 0, (size_t)sz);
        }
        return;
    }
    /* integers, little-endian two's complement of any width */
    long long x = v;
    unsigned char *b = p;
    for (int i = 0; i < sz; i++)
        b[i] = (unsigned char)((unsigned long long)(i < 8 ? x >> (8 * i) : (x < 0 ? -1 : 0)) & 0xff);
}

static void put_num(void *p, int kind, int sz, long v)
{
    put_num_q(p, kind, sz, v, false);
}

static bool is_quad(const struct tinfo *t)
{
    return t->dt == MPI_REAL16 || t->dt == MPI_COMPLEX32;
}

static void fill(const struct tinfo *t, MPI_Aint ext, void *buf, int r, MPI_Op op)
{
    memset(buf, 0, (size_t)(ext * COUNT));
    for (int k = 0; k < COUNT; k++) {
        char *e = (char *)buf + k * ext;
        long v = small(r, k, op);
        switch (t->kind) {
        case K_CPLX:
            put_num_q(e, K_FLT, t->size, v, is_quad(t));
            put_num_q(e + t->size, K_FLT, t->size, (op == MPI_PROD) ? (r % 2) : v - 1, is_quad(t));
            break;
        case K_FLT:
            put_num_q(e, K_FLT, t->size, v, is_quad(t));
            break;
        case K_BOOL:
            put_num(e, K_UINT, t->size, v != 0);
            break;
        case K_PAIR:
            break; /* below */
        default:
            put_num(e, t->kind == K_BYTE ? K_UINT : t->kind, t->size, v);
            break;
        }
        if (t->kind == K_PAIR) {
            /* value with the value's kind, index = rank with the index's kind */
            int vk = (t->dt == MPI_FLOAT_INT || t->dt == MPI_DOUBLE_INT || t->dt == MPI_LONG_DOUBLE_INT ||
                      t->dt == MPI_2REAL || t->dt == MPI_2DOUBLE_PRECISION)
                         ? K_FLT
                         : K_SINT;
            put_num(e, vk, t->size, v);
            put_num(e + t->ioff, t->ikind, t->isize, r);
        }
    }
}

/* compare what matters (padding of long double and pairs aside) */
static bool same(const struct tinfo *t, MPI_Aint ext, const void *a, const void *b)
{
    for (int k = 0; k < COUNT; k++) {
        const char *x = (const char *)a + k * ext, *y = (const char *)b + k * ext;
        int parts = t->kind == K_CPLX ? 2 : 1;
        int vsz = t->size;
        if (t->kind == K_FLT || t->kind == K_CPLX ||
            (t->kind == K_PAIR && (t->dt == MPI_FLOAT_INT || t->dt == MPI_DOUBLE_INT ||
                                   t->dt == MPI_LONG_DOUBLE_INT || t->dt == MPI_2REAL ||
                                   t->dt == MPI_2DOUBLE_PRECISION))) {
            for (int p = 0; p < parts; p++) {
                const char *xp = x + p * vsz, *yp = y + p * vsz;
                /* by value: an exact zero may come out as +0 or -0 depending
                 * on the order of the products */
                if (vsz == sizeof(long double) && vsz != sizeof(double) && !is_quad(t)) {
                    long double u, w;
                    memcpy(&u, xp, sizeof u);
                    memcpy(&w, yp, sizeof w);
                    if (u != w)
                        return false;
                } else if (vsz == sizeof(double)) {
                    double u, w;
                    memcpy(&u, xp, sizeof u);
                    memcpy(&w, yp, sizeof w);
                    if (u != w)
                        return false;
                } else if (vsz == sizeof(float)) {
                    float u, w;
                    memcpy(&u, xp, sizeof u);
                    memcpy(&w, yp, sizeof w);
                    if (u != w)
                        return false;
#ifdef __FLT128_MAX__
                } else if (vsz == 16 && is_quad(t)) {
                    _Float128 u, w;
                    memcpy(&u, xp, sizeof u);
                    memcpy(&w, yp, sizeof w);
                    if (u != w)
                        return false;
#endif
                } else if (memcmp(xp, yp, (size_t)vsz) != 0) {
                    return false;
                }
            }
        } else if (memcmp(x, y, (size_t)(vsz * parts)) != 0) {
            return false;
        }
        if (t->kind == K_PAIR && memcmp(x + t->ioff, y + t->ioff, (size_t)t->isize) != 0)
            return false;
    }
    return true;
}

static int err_class(int rc)
{
    int c = -1;
    if (rc == MPI_SUCCESS)
        return MPI_SUCCESS;
    MPI_Error_class(rc, &c);
    return c;
}

static int npairs;

static void one_pair(int ti, int oi)
{
    const struct tinfo *t = &types[ti];
    MPI_Op op = ops[oi].op;
    bool allowed = (ops[oi].groups & t->group) != 0;
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t->dt, &lb, &ext);
    char *s = calloc(COUNT, (size_t)ext), *r = calloc(COUNT, (size_t)ext), *want = calloc(COUNT, (size_t)ext);
    char *tmp = calloc(COUNT, (size_t)ext);
    fill(t, ext, s, rank, op);
    int rc = MPI_Allreduce(s, r, COUNT, t->dt, op, MPI_COMM_WORLD);
    int cls = err_class(rc);
    if (!allowed) {
        CHECK(cls == MPI_ERR_OP, "MPI_Allreduce(%s, %s): class %d, expected MPI_ERR_OP (the pair is not allowed)",
              ops[oi].name, t->name, cls);
        char msg[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(rc, msg, &len);
        CHECK(strstr(msg, "MPI_Allreduce") != NULL, "message '%s' does not name MPI_Allreduce", msg);
        /* MPI_Reduce refuses it too, at root and elsewhere */
        rc = MPI_Reduce(s, r, COUNT, t->dt, op, 0, MPI_COMM_WORLD);
        CHECK(err_class(rc) == MPI_ERR_OP, "MPI_Reduce(%s, %s): class %d, expected MPI_ERR_OP", ops[oi].name,
              t->name, err_class(rc));
    } else if (cls == MPI_ERR_OP && t->optional) {
        /* a type the build cannot compute with: refused everywhere alike */
    } else {
        CHECK(cls == MPI_SUCCESS, "MPI_Allreduce(%s, %s) failed with class %d", ops[oi].name, t->name, cls);
        /* the reference: x0 op (x1 op (... op x_{n-1})) with MPI_Reduce_local */
        fill(t, ext, want, size - 1, op);
        for (int q = size - 2; q >= 0; q--) {
            fill(t, ext, tmp, q, op);
            CHECK_OK(MPI_Reduce_local(tmp, want, COUNT, t->dt, op));
        }
        CHECK(same(t, ext, r, want), "MPI_Allreduce(%s, %s): wrong result", ops[oi].name, t->name);
        memset(r, 0, (size_t)(COUNT * ext));
        CHECK_OK(MPI_Reduce(s, r, COUNT, t->dt, op, size - 1, MPI_COMM_WORLD));
        if (rank == size - 1)
            CHECK(same(t, ext, r, want), "MPI_Reduce(%s, %s): wrong result", ops[oi].name, t->name);
        /* scan: the prefix of ranks 0..rank */
        CHECK_OK(MPI_Scan(s, r, COUNT, t->dt, op, MPI_COMM_WORLD));
        fill(t, ext, want, rank, op);
        for (int q = rank - 1; q >= 0; q--) {
            fill(t, ext, tmp, q, op);
            CHECK_OK(MPI_Reduce_local(tmp, want, COUNT, t->dt, op));
        }
        CHECK(same(t, ext, r, want), "MPI_Scan(%s, %s): wrong result", ops[oi].name, t->name);
    }
    npairs++;
    free(s);
    free(r);
    free(want);
    free(tmp);
}

/* MPI_Reduce_local on every predefined op, values worked out by hand */
static void reduce_local_by_hand(void)
{
    int a[2] = {3, 6}, b[2];
#define RL(op, b0, b1, w0, w1)                                                                  \
    do {                                                                                        \
        b[0] = b0;                                                                              \
        b[1] = b1;                                                                              \
        CHECK_OK(MPI_Reduce_local(a, b, 2, MPI_INT, op));                                       \
        CHECK(b[0] == (w0) && b[1] == (w1), "MPI_Reduce_local(" #op "): got %d %d, want %d %d", \
              b[0], b[1], w0, w1);                                                              \
    } while (0)
    RL(MPI_MAX, 5, 2, 5, 6);
    RL(MPI_MIN, 5, 2, 3, 2);
    RL(MPI_SUM, 5, 2, 8, 8);
    RL(MPI_PROD, 5, 2, 15, 12);
    RL(MPI_LAND, 0, 2, 0, 1);
    RL(MPI_LOR, 0, 0, 1, 1);
    RL(MPI_LXOR, 1, 0, 0, 1);
    RL(MPI_BAND, 5, 3, 1, 2);
    RL(MPI_BOR, 5, 3, 7, 7);
    RL(MPI_BXOR, 5, 3, 6, 5);
#undef RL
    struct {
        int v, i;
    } x[3] = {{4, 1}, {7, 3}, {2, 9}}, y[3] = {{4, 0}, {5, 2}, {2, 9}};
    CHECK_OK(MPI_Reduce_local(x, y, 3, MPI_2INT, MPI_MAXLOC));
    CHECK(y[0].v == 4 && y[0].i == 0 && y[1].v == 7 && y[1].i == 3 && y[2].i == 9, "MAXLOC (ties: lower index)");
    struct {
        double v;
        int i;
    } dx[2] = {{1.5, 4}, {-2.0, 8}}, dy[2] = {{1.5, 6}, {-1.0, 1}};
    CHECK_OK(MPI_Reduce_local(dx, dy, 2, MPI_DOUBLE_INT, MPI_MINLOC));
    CHECK(dy[0].v == 1.5 && dy[0].i == 4 && dy[1].v == -2.0 && dy[1].i == 8, "MINLOC double-int");
    bool ba[2] = {true, false}, bb[2] = {true, true};
    CHECK_OK(MPI_Reduce_local(ba, bb, 2, MPI_C_BOOL, MPI_LXOR));
    CHECK(!bb[0] && bb[1], "LXOR C_BOOL");
    unsigned char ua = 0xf0, ub = 0x3c;
    CHECK_OK(MPI_Reduce_local(&ua, &ub, 1, MPI_BYTE, MPI_BXOR));
    CHECK(ub == 0xcc, "BXOR BYTE");
    double _Complex ca = 1 + 2 * I, cb = 3 - 1 * I;
    CHECK_OK(MPI_Reduce_local(&ca, &cb, 1, MPI_C_DOUBLE_COMPLEX, MPI_PROD));
    CHECK(creal(cb) == 5 && cimag(cb) == 5, "PROD double complex");
    /* the one-sided ops and forbidden pairs are MPI_ERR_OP here too */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_ERR(MPI_Reduce_local(a, b, 2, MPI_INT, MPI_REPLACE), MPI_ERR_OP);
    CHECK_ERR(MPI_Reduce_local(a, b, 2, MPI_INT, MPI_NO_OP), MPI_ERR_OP);
    CHECK_ERR(MPI_Reduce_local(&ca, &cb, 1, MPI_C_DOUBLE_COMPLEX, MPI_MAX), MPI_ERR_OP);
    CHECK_ERR(MPI_Reduce_local(a, b, 1, MPI_2INT, MPI_SUM), MPI_ERR_OP);
}

/* MPI_LAND/LOR/LXOR on the C floating types across the ranks, with the
 * values C reads as false (+0.0, -0.0) and true (NaN, infinities, any
 * other number): element k of rank r is true as truth(k, r) says; the
 * result is 1.0 or +0.0 by how many ranks hold a true value (on one rank
 * there is nothing to combine: the value comes back as it is). */
static bool fl_truth(int k, int r)
{
    switch (k) {
    case 0: return false;              /* all zero, both signs */
    case 1: return true;               /* NaN at rank 0, 1.0 elsewhere */
    case 2: return r % 2 == 1;         /* mixed: -2.5 at odd ranks, 0 at even */
    case 3: return true;               /* all NaN */
    case 4: return r != size - 1;      /* -0.0 at the last rank, 3.0 elsewhere */
    default: return r == 0;            /* -inf at rank 0, -0.0 elsewhere */
    }
}

static long double fl_value(int k, int r)
{
    switch (k) {
    case 0: return r % 2 ? -0.0L : 0.0L;
    case 1: return r == 0 ? (long double)NAN : 1.0L;
    case 2: return r % 2 ? -2.5L : 0.0L;
    case 3: return (long double)NAN;
    case 4: return r == size - 1 ? -0.0L : 3.0L;
    default: return r == 0 ? -(long double)INFINITY : -0.0L;
    }
}

#define FL_N 6
#define FLOAT_LOGICAL_ACROSS(dt, T)                                                                  \
    do {                                                                                             \
        const MPI_Op lops[3] = {MPI_LAND, MPI_LOR, MPI_LXOR};                                        \
        const char *lnames[3] = {"MPI_LAND", "MPI_LOR", "MPI_LXOR"};                                 \
        for (int o = 0; o < 3; o++) {                                                                \
            T in[FL_N], out[FL_N];                                                                   \
            for (int k = 0; k < FL_N; k++) {                                                         \
                in[k] = (T)fl_value(k, rank);                                                        \
                CHECK((in[k] != 0) == fl_truth(k, rank), "value %d of rank %d", k, rank);            \
            }                                                                                        \
            for (int red = 0; red < 2; red++) { /* MPI_Allreduce, then MPI_Reduce to the last */    \
                memset(out, 0x55, sizeof out);                                                       \
                if (!red)                                                                            \
                    CHECK_OK(MPI_Allreduce(in, out, FL_N, dt, lops[o], MPI_COMM_WORLD));             \
                else                                                                                 \
                    CHECK_OK(MPI_Reduce(in, out, FL_N, dt, lops[o], size - 1, MPI_COMM_WORLD));      \
                if (red && rank != size - 1)                                                         \
                    continue;                                                                        \
                if (size == 1) { /* one value: nothing to combine, it comes back as it is */    \
                    CHECK(memcmp(out, in, sizeof out) == 0, "%s(%s, %s) on one rank changed the value", \
                          red ? "MPI_Reduce" : "MPI_Allreduce", lnames[o], #dt);                     \
                    continue;                                                                        \
                }                                                                                    \
                for (int k = 0; k < FL_N; k++) {                                                     \
                    int ntrue = 0;                                                                   \
                    for (int r = 0; r < size; r++)                                                   \
                        ntrue += fl_truth(k, r);                                                     \
                    int w = o == 0 ? ntrue == size : o == 1 ? ntrue > 0 : ntrue % 2;                 \
                    CHECK(out[k] == (T)w && !signbit(out[k]), "%s(%s, %s) element %d: %Lg, expected %d", \
                          red ? "MPI_Reduce" : "MPI_Allreduce", lnames[o], #dt, k,                   \
                          (long double)out[k], w);                                                   \
                }                                                                                    \
            }                                                                                        \
        }                                                                                            \
    } while (0)

static void float_logical_across_ranks(void)
{
    FLOAT_LOGICAL_ACROSS(MPI_FLOAT, float);
    FLOAT_LOGICAL_ACROSS(MPI_DOUBLE, double);
    FLOAT_LOGICAL_ACROSS(MPI_LONG_DOUBLE, long double);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int ti = 0; ti < NTYPES; ti++)
        for (int oi = 0; oi < NOPS; oi++)
            one_pair(ti, oi);
    float_logical_across_ranks();
    /* a derived type mixing basic types: no predefined op applies */
    MPI_Datatype mixed;
    int bl[2] = {1, 1};
    MPI_Aint dp[2] = {0, 8};
    MPI_Datatype tt[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(2, bl, dp, tt, &mixed);
    MPI_Type_commit(&mixed);
    char s[64] = {0}, r[64];
    for (int oi = 0; oi < NOPS; oi++)
        CHECK_ERR(MPI_Allreduce(s, r, 2, mixed, ops[oi].op, MPI_COMM_WORLD), MPI_ERR_OP);
    /* a homogeneous derived type: the standard lists only predefined types;
     * an implementation that extends the table to such types (as
     * MPI_Reduce_local tells) must compute it right, one that does not must
     * refuse it with MPI_ERR_OP, collectives and MPI_Reduce_local alike */
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int iv[4] = {rank, -1, -1, 2 * rank}, ov[4] = {0, 0, 0, 0}, lv[4] = {1, 0, 0, 1};
    int ext_ok = MPI_Reduce_local(iv, lv, 1, vec, MPI_SUM) == MPI_SUCCESS;
    int rc = MPI_Allreduce(iv, ov, 1, vec, MPI_SUM, MPI_COMM_WORLD);
    if (ext_ok) {
        CHECK(rc == MPI_SUCCESS, "MPI_Allreduce(SUM, vector) refused though MPI_Reduce_local takes it");
        CHECK(ov[0] == size * (size - 1) / 2 && ov[3] == size * (size - 1) && ov[1] == 0,
              "SUM on a vector of int");
    } else {
        CHECK(err_class(rc) == MPI_ERR_OP, "MPI_Allreduce(SUM, vector): class %d, expected MPI_ERR_OP",
              err_class(rc));
    }
    CHECK_ERR(MPI_Allreduce(iv, ov, 1, vec, MPI_MAXLOC, MPI_COMM_WORLD), MPI_ERR_OP);
    MPI_Type_free(&vec);
    MPI_Type_free(&mixed);
    reduce_local_by_hand();
    int total = 0;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Allreduce(&npairs, &total, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rank == 0)
        printf("coll_types: ok %d pairs\n", total);
    MPI_Finalize();
    return 0;
}
