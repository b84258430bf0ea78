/*
 * dt_external32.c: MPI_Pack_external / MPI_Unpack_external /
 * MPI_Pack_external_size for "external32", byte for byte against known
 * encodings (big-endian, the standard's sizes: MPI_LONG 4 bytes,
 * MPI_WCHAR 2, MPI_LONG_DOUBLE 16 as IEEE binary128, pair types without
 * padding), round trips of every basic type, derived types (no padding
 * between values), and the errors (a value that does not fit, a buffer
 * too small, another data representation).
 */
#include <complex.h>
#include <float.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "testutil.h"

static void dump(const char *what, const unsigned char *b, size_t n)
{
    fprintf(stderr, "%s:", what);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, " %02x", b[i]);
    fprintf(stderr, "\n");
}

/* pack count values of t, compare with want, unpack and compare with the original */
static void vec(const char *what, const void *val, int count, MPI_Datatype t, const unsigned char *want,
                size_t nwant)
{
    unsigned char out[256], back[256];
    MPI_Aint pos = 0, size;
    CHECK_OK(MPI_Pack_external_size("external32", count, t, &size));
    CHECK(size == (MPI_Aint)nwant, "%s: external32 size %ld, expected %zu", what, (long)size, nwant);
    memset(out, 0xcc, sizeof out);
    CHECK_OK(MPI_Pack_external("external32", val, count, t, out, sizeof out, &pos));
    CHECK(pos == (MPI_Aint)nwant, "%s: position %ld after pack, expected %zu", what, (long)pos, nwant);
    if (memcmp(out, want, nwant) != 0) {
        dump("got     ", out, nwant);
        dump("expected", want, nwant);
        CHECK(0, "%s: wrong external32 encoding", what);
    }
    CHECK(out[nwant] == 0xcc, "%s: wrote past the end", what);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    memset(back, 0, sizeof back);
    pos = 0;
    CHECK_OK(MPI_Unpack_external("external32", out, (MPI_Aint)nwant, &pos, back - lb, count, t));
    CHECK(pos == (MPI_Aint)nwant, "%s: position %ld after unpack", what, (long)pos);
    /* the values unpacked encode the same again */
    unsigned char again[256];
    pos = 0;
    CHECK_OK(MPI_Pack_external("external32", back - lb, count, t, again, sizeof again, &pos));
    CHECK(memcmp(again, out, nwant) == 0, "%s: unpacked values encode differently", what);
    /* and are the same bytes natively (long double has padding bytes that may differ) */
    if (!strstr(what, "LONG_DOUBLE")) {
        unsigned char n1[256], n2[256];
        int p1 = 0, p2 = 0;
        MPI_Pack(val, count, t, n1, sizeof n1, &p1, MPI_COMM_WORLD);
        MPI_Pack(back - lb, count, t, n2, sizeof n2, &p2, MPI_COMM_WORLD);
        CHECK(p1 == p2 && memcmp(n1, n2, (size_t)p1) == 0, "%s: unpacked values differ", what);
    }
}

#define V(what, val, count, t, ...)                                                  \
    do {                                                                             \
        const unsigned char w_[] = {__VA_ARGS__};                                    \
        vec(what, val, count, t, w_, sizeof w_);                                     \
    } while (0)

static void basic(void)
{
    int i[2] = {0x01020304, -2};
    V("MPI_INT", i, 2, MPI_INT, 1, 2, 3, 4, 0xff, 0xff, 0xff, 0xfe);
    unsigned u = 0xcafef00d;
    V("MPI_UNSIGNED", &u, 1, MPI_UNSIGNED, 0xca, 0xfe, 0xf0, 0x0d);
    short s[2] = {-2, 0x1234};
    V("MPI_SHORT", s, 2, MPI_SHORT, 0xff, 0xfe, 0x12, 0x34);
    unsigned short us = 0xabcd;
    V("MPI_UNSIGNED_SHORT", &us, 1, MPI_UNSIGNED_SHORT, 0xab, 0xcd);
    long l[2] = {-5, 0x12345678};
    V("MPI_LONG (4 bytes)", l, 2, MPI_LONG, 0xff, 0xff, 0xff, 0xfb, 0x12, 0x34, 0x56, 0x78);
    unsigned long ul = 0xdeadbeefUL;
    V("MPI_UNSIGNED_LONG (4 bytes)", &ul, 1, MPI_UNSIGNED_LONG, 0xde, 0xad, 0xbe, 0xef);
    long long ll = 0x0102030405060708LL;
    V("MPI_LONG_LONG", &ll, 1, MPI_LONG_LONG, 1, 2, 3, 4, 5, 6, 7, 8);
    unsigned long long ull = 0xf0e0d0c0b0a09080ULL;
    V("MPI_UNSIGNED_LONG_LONG", &ull, 1, MPI_UNSIGNED_LONG_LONG, 0xf0, 0xe0, 0xd0, 0xc0, 0xb0, 0xa0, 0x90, 0x80);
    char c[3] = {'A', 'z', 0};
    V("MPI_CHAR", c, 3, MPI_CHAR, 0x41, 0x7a, 0);
    signed char sc = -1;
    V("MPI_SIGNED_CHAR", &sc, 1, MPI_SIGNED_CHAR, 0xff);
    unsigned char uc[2] = {0x5a, 0xa5};
    V("MPI_BYTE", uc, 2, MPI_BYTE, 0x5a, 0xa5);
    V("MPI_UNSIGNED_CHAR", uc, 2, MPI_UNSIGNED_CHAR, 0x5a, 0xa5);
    V("MPI_PACKED", uc, 2, MPI_PACKED, 0x5a, 0xa5);
    wchar_t wc[2] = {L'A', (wchar_t)0x20ac};
    V("MPI_WCHAR (2 bytes)", wc, 2, MPI_WCHAR, 0x00, 0x41, 0x20, 0xac);
    float f[2] = {-2.5f, 1.0f};
    V("MPI_FLOAT", f, 2, MPI_FLOAT, 0xc0, 0x20, 0, 0, 0x3f, 0x80, 0, 0);
    double d[2] = {1.0, 0.1};
    V("MPI_DOUBLE", d, 2, MPI_DOUBLE, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0x3f, 0xb9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9a);
    long double ld[3] = {1.5L, -2.0L, 0.0L};
    V("MPI_LONG_DOUBLE (binary128)", ld, 3, MPI_LONG_DOUBLE, 0x3f, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      0xc0, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
#if LDBL_MANT_DIG >= 64
    long double tiny_step = 1.0L + 1.0L / 9223372036854775808.0L; /* 1 + 2^-63 */
    V("MPI_LONG_DOUBLE 1 + 2^-63", &tiny_step, 1, MPI_LONG_DOUBLE, 0x3f, 0xff, 0, 0, 0, 0, 0, 0, 0, 0x02, 0, 0, 0, 0,
      0, 0);
#endif
    long double third = 1.0L / 3.0L;
    unsigned char tb[16];
    MPI_Aint tp = 0;
    CHECK_OK(MPI_Pack_external("external32", &third, 1, MPI_LONG_DOUBLE, tb, 16, &tp));
    CHECK(tb[0] == 0x3f && tb[1] == 0xfd && tb[2] == 0x55 && tb[3] == 0x55, "1/3 as binary128 starts %02x%02x%02x%02x",
          tb[0], tb[1], tb[2], tb[3]);
    _Bool b[2] = {1, 0};
    V("MPI_C_BOOL", b, 2, MPI_C_BOOL, 1, 0);
    int8_t i8 = -3;
    V("MPI_INT8_T", &i8, 1, MPI_INT8_T, 0xfd);
    int16_t i16 = 0x1234;
    V("MPI_INT16_T", &i16, 1, MPI_INT16_T, 0x12, 0x34);
    int32_t i32 = -0x01020304;
    V("MPI_INT32_T", &i32, 1, MPI_INT32_T, 0xfe, 0xfd, 0xfc, 0xfc);
    int64_t i64 = -2;
    V("MPI_INT64_T", &i64, 1, MPI_INT64_T, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe);
    uint8_t u8 = 200;
    V("MPI_UINT8_T", &u8, 1, MPI_UINT8_T, 200);
    uint16_t u16 = 0xbeef;
    V("MPI_UINT16_T", &u16, 1, MPI_UINT16_T, 0xbe, 0xef);
    uint32_t u32 = 0x89abcdef;
    V("MPI_UINT32_T", &u32, 1, MPI_UINT32_T, 0x89, 0xab, 0xcd, 0xef);
    uint64_t u64 = 0x0011223344556677ULL;
    V("MPI_UINT64_T", &u64, 1, MPI_UINT64_T, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77);
    MPI_Aint a = -1;
    V("MPI_AINT", &a, 1, MPI_AINT, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
    MPI_Offset o = 0x0102030405060708LL;
    V("MPI_OFFSET", &o, 1, MPI_OFFSET, 1, 2, 3, 4, 5, 6, 7, 8);
    MPI_Count cnt = 258;
    V("MPI_COUNT", &cnt, 1, MPI_COUNT, 0, 0, 0, 0, 0, 0, 1, 2);
    float _Complex fc = CMPLXF(1.0f, -2.5f);
    V("MPI_C_COMPLEX", &fc, 1, MPI_C_COMPLEX, 0x3f, 0x80, 0, 0, 0xc0, 0x20, 0, 0);
    double _Complex dc = CMPLX(1.0, 2.0);
    V("MPI_C_DOUBLE_COMPLEX", &dc, 1, MPI_C_DOUBLE_COMPLEX, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0);
    long double _Complex lc = CMPLXL(1.5L, -2.0L);
    V("MPI_C_LONG_DOUBLE_COMPLEX", &lc, 1, MPI_C_LONG_DOUBLE_COMPLEX, 0x3f, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 0xc0, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    /* Fortran types */
    int fi = 7;
    V("MPI_INTEGER", &fi, 1, MPI_INTEGER, 0, 0, 0, 7);
    V("MPI_LOGICAL", &fi, 1, MPI_LOGICAL, 0, 0, 0, 7);
    V("MPI_REAL", f, 1, MPI_REAL, 0xc0, 0x20, 0, 0);
    V("MPI_DOUBLE_PRECISION", d, 1, MPI_DOUBLE_PRECISION, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0);
    V("MPI_COMPLEX", &fc, 1, MPI_COMPLEX, 0x3f, 0x80, 0, 0, 0xc0, 0x20, 0, 0);
    V("MPI_CHARACTER", c, 2, MPI_CHARACTER, 0x41, 0x7a);
    int16_t i2 = -2;
    V("MPI_INTEGER2", &i2, 1, MPI_INTEGER2, 0xff, 0xfe);
    int64_t i8f = 0x100;
    V("MPI_INTEGER8", &i8f, 1, MPI_INTEGER8, 0, 0, 0, 0, 0, 0, 1, 0);
    V("MPI_REAL8", d, 1, MPI_REAL8, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0);
}

static void pairs(void)
{
    struct { double v; int i; } di = {1.0, 7};
    V("MPI_DOUBLE_INT (12 bytes)", &di, 1, MPI_DOUBLE_INT, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7);
    struct { short v; int i; } si[2] = {{-2, 3}, {1, -1}};
    V("MPI_SHORT_INT (6 bytes)", si, 2, MPI_SHORT_INT, 0xff, 0xfe, 0, 0, 0, 3, 0, 1, 0xff, 0xff, 0xff, 0xff);
    struct { long v; int i; } li = {5, 6};
    V("MPI_LONG_INT (8 bytes)", &li, 1, MPI_LONG_INT, 0, 0, 0, 5, 0, 0, 0, 6);
    struct { float v; int i; } fi = {1.0f, 2};
    V("MPI_FLOAT_INT", &fi, 1, MPI_FLOAT_INT, 0x3f, 0x80, 0, 0, 0, 0, 0, 2);
    int ii[2] = {1, 2};
    V("MPI_2INT", ii, 1, MPI_2INT, 0, 0, 0, 1, 0, 0, 0, 2);
    V("MPI_2INTEGER", ii, 1, MPI_2INTEGER, 0, 0, 0, 1, 0, 0, 0, 2);
    struct { long double v; int i; } ldi = {-2.0L, 9};
    V("MPI_LONG_DOUBLE_INT (20 bytes)", &ldi, 1, MPI_LONG_DOUBLE_INT, 0xc0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 0, 9);
}

static void derived(void)
{
    /* a struct with padding: values back to back */
    struct { char c; double d; short s; } x[2] = {{'A', 1.0, -2}, {'B', -2.5, 3}};
    int bl[3] = {1, 1, 1};
    MPI_Aint ds[3] = {offsetof(__typeof__(x[0]), c), offsetof(__typeof__(x[0]), d), offsetof(__typeof__(x[0]), s)};
    MPI_Datatype ts[3] = {MPI_CHAR, MPI_DOUBLE, MPI_SHORT}, st, rs;
    MPI_Type_create_struct(3, bl, ds, ts, &st);
    MPI_Type_create_resized(st, 0, sizeof x[0], &rs);
    MPI_Type_commit(&rs);
    V("struct{char, double, short} x 2", x, 2, rs, 0x41, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0xff, 0xfe, 0x42, 0xc0, 0x04,
      0, 0, 0, 0, 0, 0, 0, 3);
    /* a vector of longs: 4 bytes each */
    long lv[5] = {1, -1, 2, -2, 3};
    MPI_Datatype v;
    MPI_Type_vector(3, 1, 2, MPI_LONG, &v);
    MPI_Type_commit(&v);
    V("vector(3, 1, 2, MPI_LONG)", lv, 1, v, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3);
    /* a subarray of doubles */
    double g[6] = {0, 1, 2, 3, 4, 5};
    int sz[2] = {2, 3}, sub[2] = {2, 1}, start[2] = {0, 1};
    MPI_Datatype sa;
    MPI_Type_create_subarray(2, sz, sub, start, MPI_ORDER_C, MPI_DOUBLE, &sa);
    MPI_Type_commit(&sa);
    V("subarray column of doubles", g, 1, sa, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0x40, 0x10, 0, 0, 0, 0, 0, 0);
    /* several packs into one buffer */
    unsigned char buf[64];
    MPI_Aint pos = 0, sz3;
    int one = 1;
    CHECK_OK(MPI_Pack_external("external32", &one, 1, MPI_INT, buf, sizeof buf, &pos));
    CHECK_OK(MPI_Pack_external("external32", lv, 1, v, buf, sizeof buf, &pos));
    CHECK(pos == 16, "position after two packs: %ld", (long)pos);
    CHECK_OK(MPI_Pack_external_size("external32", 3, rs, &sz3));
    CHECK(sz3 == 33, "external32 size of 3 structs: %ld", (long)sz3);
    MPI_Type_free(&st);
    MPI_Type_free(&rs);
    MPI_Type_free(&v);
    MPI_Type_free(&sa);
}

static void errors(void)
{
    unsigned char buf[16];
    MPI_Aint pos = 0;
    long big = 0x100000000L;
    if (sizeof(long) > 4)
        CHECK_ERR(MPI_Pack_external("external32", &big, 1, MPI_LONG, buf, sizeof buf, &pos), MPI_ERR_CONVERSION);
    wchar_t wbig = (wchar_t)0x1f600;
    pos = 0;
    CHECK_ERR(MPI_Pack_external("external32", &wbig, 1, MPI_WCHAR, buf, sizeof buf, &pos), MPI_ERR_CONVERSION);
    double d[3] = {1, 2, 3};
    pos = 0;
    CHECK_ERR(MPI_Pack_external("external32", d, 3, MPI_DOUBLE, buf, sizeof buf, &pos), MPI_ERR_TRUNCATE);
    CHECK(pos == 0, "position moved on error");
    pos = 0;
    CHECK_ERR(MPI_Unpack_external("external32", buf, 8, &pos, d, 2, MPI_DOUBLE), MPI_ERR_TRUNCATE);
    CHECK_ERR(MPI_Pack_external("native", d, 1, MPI_DOUBLE, buf, sizeof buf, &pos), MPI_ERR_ARG);
    MPI_Aint sz;
    CHECK_ERR(MPI_Pack_external_size("external32", -1, MPI_DOUBLE, &sz), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Pack_external_size("external32", 1, MPI_DATATYPE_NULL, &sz), MPI_ERR_TYPE);
    MPI_Datatype v;
    MPI_Type_vector(2, 1, 2, MPI_INT, &v);
    CHECK_ERR(MPI_Pack_external("external32", d, 1, v, buf, sizeof buf, &pos), MPI_ERR_TYPE); /* not committed */
    MPI_Type_free(&v);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    basic();
    pairs();
    derived();
    errors();
    printf("dt_external32: ok\n");
    MPI_Finalize();
    return 0;
}
