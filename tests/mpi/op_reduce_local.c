/*
 * op_reduce_local.c: MPI_Reduce_local with every predefined operation on
 * several types each (values depend on the rank), MAXLOC/MINLOC ties, a
 * non-commutative user operation whose result shows the order it was
 * applied in, MPI_Op_create/free/commutative, and bad input through
 * MPI_ERRORS_RETURN (error class, and a message naming the function).
 * Each rank checks its own results; the one exchange is an MPI_Allreduce
 * of MPI_CHAR with each C-integer operation (not in the standard's
 * table, but accepted by Open MPI and MPICH, and used so by benchmarks).
 */
#include "testutil.h"

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>

static int rank;

static void check_names(int rc, int cls, const char *fn)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    CHECK(c == cls, "%s: error class %d, expected %d", fn, c, cls);
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    CHECK_OK(MPI_Error_string(rc, s, &len));
    CHECK(strstr(s, fn) != NULL, "message '%s' does not name %s", s, fn);
}

static void test_max_min(void)
{
    int r = rank;
    int ia[3] = {r, -r, 5}, ib[3] = {2, 0, 5};
    CHECK_OK(MPI_Reduce_local(ia, ib, 3, MPI_INT, MPI_MAX));
    CHECK(ib[0] == (r > 2 ? r : 2) && ib[1] == 0 && ib[2] == 5, "MAX int");
    double da[2] = {1.5 * r, -1.0}, db[2] = {2.0, -0.5};
    CHECK_OK(MPI_Reduce_local(da, db, 2, MPI_DOUBLE, MPI_MIN));
    CHECK(db[0] == (1.5 * r < 2.0 ? 1.5 * r : 2.0) && db[1] == -1.0, "MIN double");
    unsigned char ua[2] = {200, 7}, ub[2] = {100, 9};
    CHECK_OK(MPI_Reduce_local(ua, ub, 2, MPI_UNSIGNED_CHAR, MPI_MAX));
    CHECK(ub[0] == 200 && ub[1] == 9, "MAX unsigned char");
    long long la = -5000000000LL, lb = 3;
    CHECK_OK(MPI_Reduce_local(&la, &lb, 1, MPI_LONG_LONG, MPI_MIN));
    CHECK(lb == -5000000000LL, "MIN long long");
    float fa = 2.5f, fb = 2.25f;
    CHECK_OK(MPI_Reduce_local(&fa, &fb, 1, MPI_FLOAT, MPI_MAX));
    CHECK(fb == 2.5f, "MAX float");
    int32_t fi[2] = {4, -4}, fj[2] = {-3, 3};
    CHECK_OK(MPI_Reduce_local(fi, fj, 2, MPI_INTEGER, MPI_MIN));
    CHECK(fj[0] == -3 && fj[1] == -4, "MIN INTEGER");
}

static void test_sum_prod(void)
{
    int r = rank;
    int ia[2] = {r, 3}, ib[2] = {10, -4};
    CHECK_OK(MPI_Reduce_local(ia, ib, 2, MPI_INT, MPI_SUM));
    CHECK(ib[0] == 10 + r && ib[1] == -1, "SUM int");
    CHECK_OK(MPI_Reduce_local(ia, ib, 2, MPI_INT, MPI_PROD));
    CHECK(ib[0] == r * (10 + r) && ib[1] == -3, "PROD int");
    double d[3] = {0.5, 0.25, 1e300}, e[3] = {0.25, 4.0, 1e300};
    CHECK_OK(MPI_Reduce_local(d, e, 3, MPI_DOUBLE, MPI_SUM));
    CHECK(e[0] == 0.75 && e[1] == 4.25 && e[2] == 2e300, "SUM double");
    double f[1] = {3.0}, g[1] = {0.5};
    CHECK_OK(MPI_Reduce_local(f, g, 1, MPI_DOUBLE, MPI_PROD));
    CHECK(g[0] == 1.5, "PROD double");
    float _Complex ca = 1.0f + 2.0f * I, cb = 3.0f - 1.0f * I;
    CHECK_OK(MPI_Reduce_local(&ca, &cb, 1, MPI_C_FLOAT_COMPLEX, MPI_PROD));
    CHECK(crealf(cb) == 5.0f && cimagf(cb) == 5.0f, "PROD float complex");
    double _Complex za = 1.0 + 1.0 * I, zb = -2.0 + 0.5 * I;
    CHECK_OK(MPI_Reduce_local(&za, &zb, 1, MPI_C_DOUBLE_COMPLEX, MPI_SUM));
    CHECK(creal(zb) == -1.0 && cimag(zb) == 1.5, "SUM double complex");
    int64_t x = INT64_MAX, y = 1;
    CHECK_OK(MPI_Reduce_local(&x, &y, 1, MPI_INT64_T, MPI_SUM));
    CHECK(y == INT64_MIN, "SUM int64 wraps");
    float ra[2] = {1.5f, 2.0f}, rb[2] = {2.0f, 0.25f};
    CHECK_OK(MPI_Reduce_local(ra, rb, 2, MPI_REAL, MPI_PROD));
    CHECK(rb[0] == 3.0f && rb[1] == 0.5f, "PROD REAL");
}

static void test_logical(void)
{
    int a[4] = {0, 0, 7, 7}, b[4] = {0, -1, 0, 2};
    int t[4];
    memcpy(t, b, sizeof t);
    CHECK_OK(MPI_Reduce_local(a, t, 4, MPI_INT, MPI_LAND));
    CHECK(t[0] == 0 && t[1] == 0 && t[2] == 0 && t[3] == 1, "LAND int");
    memcpy(t, b, sizeof t);
    CHECK_OK(MPI_Reduce_local(a, t, 4, MPI_INT, MPI_LOR));
    CHECK(t[0] == 0 && t[1] == 1 && t[2] == 1 && t[3] == 1, "LOR int");
    memcpy(t, b, sizeof t);
    CHECK_OK(MPI_Reduce_local(a, t, 4, MPI_INT, MPI_LXOR));
    CHECK(t[0] == 0 && t[1] == 1 && t[2] == 1 && t[3] == 0, "LXOR int");
    bool ba[2] = {true, false}, bb[2] = {true, true};
    CHECK_OK(MPI_Reduce_local(ba, bb, 2, MPI_C_BOOL, MPI_LAND));
    CHECK(bb[0] && !bb[1], "LAND C_BOOL");
    int32_t la[2] = {1, 0}, lb[2] = {0, 0};
    CHECK_OK(MPI_Reduce_local(la, lb, 2, MPI_LOGICAL, MPI_LOR));
    CHECK(lb[0] == 1 && lb[1] == 0, "LOR LOGICAL");
}

static void test_bitwise(void)
{
    unsigned a = 0xF0F0u | (unsigned)rank, b = 0xFF00u;
    unsigned t = b;
    CHECK_OK(MPI_Reduce_local(&a, &t, 1, MPI_UNSIGNED, MPI_BAND));
    CHECK(t == (a & b), "BAND unsigned");
    t = b;
    CHECK_OK(MPI_Reduce_local(&a, &t, 1, MPI_UNSIGNED, MPI_BOR));
    CHECK(t == (a | b), "BOR unsigned");
    t = b;
    CHECK_OK(MPI_Reduce_local(&a, &t, 1, MPI_UNSIGNED, MPI_BXOR));
    CHECK(t == (a ^ b), "BXOR unsigned");
    unsigned char c[2] = {0x0F, 0xAA}, d[2] = {0xFF, 0x55};
    CHECK_OK(MPI_Reduce_local(c, d, 2, MPI_BYTE, MPI_BXOR));
    CHECK(d[0] == 0xF0 && d[1] == 0xFF, "BXOR byte");
    int64_t e = -1, f = 0x1234;
    CHECK_OK(MPI_Reduce_local(&e, &f, 1, MPI_INT64_T, MPI_BAND));
    CHECK(f == 0x1234, "BAND int64");
}

static void test_loc(void)
{
    struct {
        int v, i;
    } a[3] = {{5, rank + 1}, {7, 4}, {1, 9}}, b[3] = {{5, rank}, {7, 2}, {2, 0}};
    CHECK_OK(MPI_Reduce_local(a, b, 3, MPI_2INT, MPI_MAXLOC));
    CHECK(b[0].v == 5 && b[0].i == rank && b[1].i == 2 && b[2].v == 2 && b[2].i == 0, "MAXLOC 2INT");
    struct {
        double v;
        int i;
    } x[2] = {{-1.5, 3}, {2.0, 1}}, y[2] = {{-1.5, 8}, {1.0, 0}};
    CHECK_OK(MPI_Reduce_local(x, y, 2, MPI_DOUBLE_INT, MPI_MINLOC));
    CHECK(y[0].v == -1.5 && y[0].i == 3 && y[1].v == 1.0 && y[1].i == 0, "MINLOC DOUBLE_INT");
    struct {
        float v;
        int i;
    } fx = {3.0f, 6}, fy = {3.0f, 2};
    CHECK_OK(MPI_Reduce_local(&fx, &fy, 1, MPI_FLOAT_INT, MPI_MINLOC));
    CHECK(fy.i == 2, "MINLOC FLOAT_INT tie");
    struct {
        short v;
        int i;
    } sx = {9, 1}, sy = {8, 0};
    CHECK_OK(MPI_Reduce_local(&sx, &sy, 1, MPI_SHORT_INT, MPI_MAXLOC));
    CHECK(sy.v == 9 && sy.i == 1, "MAXLOC SHORT_INT");
    struct {
        long v;
        int i;
    } lx = {-4, 5}, ly = {-4, 7};
    CHECK_OK(MPI_Reduce_local(&lx, &ly, 1, MPI_LONG_INT, MPI_MAXLOC));
    CHECK(ly.v == -4 && ly.i == 5, "MAXLOC LONG_INT tie");
}

/* Concatenating decimal numbers: (v1, n1) o (v2, n2) = (v1 * 10^n2 + v2,
 * n1 + n2). Associative, not commutative. */
static MPI_Datatype seen;
static void concat(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    seen = *dt;
    long long *a = in, *b = inout;
    int pairs = *dt == MPI_LONG_LONG ? *len / 2 : *len;
    for (int k = 0; k < pairs; k++, a += 2, b += 2) {
        long long p = 1;
        for (long long j = 0; j < b[1]; j++)
            p *= 10;
        b[0] = a[0] * p + b[0];
        b[1] = a[1] + b[1];
    }
}

static void test_user_op(void)
{
    MPI_Op op;
    CHECK_OK(MPI_Op_create(concat, 0, &op));
    int c = -1;
    CHECK_OK(MPI_Op_commutative(op, &c));
    CHECK(c == 0, "user op commutative %d", c);
    CHECK_OK(MPI_Op_commutative(MPI_MAXLOC, &c));
    CHECK(c == 1, "MPI_MAXLOC commutative %d", c);
    /* fold "ranks" 0..4 as a reduction would: acc = x[i] o acc, from the top */
    long long x[5][2] = {{1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}};
    long long acc[2] = {x[4][0], x[4][1]};
    for (int i = 3; i >= 0; i--)
        CHECK_OK(MPI_Reduce_local(x[i], acc, 2, MPI_LONG_LONG, op));
    CHECK(acc[0] == 12345 && acc[1] == 5, "canonical order gives %lld", acc[0]);
    CHECK(seen == MPI_LONG_LONG, "the user function saw datatype %d", (int)seen);
    /* the other way round shows the operands are not swapped */
    long long one[2] = {1, 1}, two[2] = {2, 1};
    CHECK_OK(MPI_Reduce_local(two, one, 2, MPI_LONG_LONG, op));
    CHECK(one[0] == 21, "in o inout = %lld", one[0]);
    /* with a derived type, when the type constructors exist */
    MPI_Datatype pair;
    if (MPI_Type_contiguous(2, MPI_LONG_LONG, &pair) == MPI_SUCCESS) {
        CHECK_OK(MPI_Type_commit(&pair));
        long long p[2][2] = {{7, 1}, {8, 1}}, q[2][2] = {{9, 1}, {6, 1}};
        CHECK_OK(MPI_Reduce_local(p, q, 2, pair, op));
        CHECK(seen == pair, "the user function saw the derived type");
        CHECK(q[0][0] == 79 && q[1][0] == 86, "derived: %lld %lld", q[0][0], q[1][0]);
        long long s[4] = {1, 2, 3, 4}, t[4] = {10, 20, 30, 40};
        CHECK_OK(MPI_Reduce_local(s, t, 2, pair, MPI_SUM));
        CHECK(t[0] == 11 && t[3] == 44, "SUM on a contiguous type");
        CHECK_OK(MPI_Type_free(&pair));
    } else if (rank == 0) {
        printf("op_reduce_local: derived types not available, that part skipped\n");
    }
    CHECK_OK(MPI_Op_free(&op));
    CHECK(op == MPI_OP_NULL, "MPI_Op_free leaves %d", (int)op);
}

static void test_errors(void)
{
    int a = 1, b = 2;
    wchar_t ca = L'a', cb = L'b';
    check_names(MPI_Reduce_local(&ca, &cb, 1, MPI_WCHAR, MPI_SUM), MPI_ERR_OP, "MPI_Reduce_local");
    check_names(MPI_Reduce_local(&a, &b, -1, MPI_INT, MPI_SUM), MPI_ERR_COUNT, "MPI_Reduce_local");
    check_names(MPI_Reduce_local(MPI_IN_PLACE, &b, 1, MPI_INT, MPI_SUM), MPI_ERR_BUFFER, "MPI_Reduce_local");
    check_names(MPI_Reduce_local(&a, &b, 1, MPI_INT, MPI_OP_NULL), MPI_ERR_OP, "MPI_Reduce_local");
    check_names(MPI_Reduce_local(&a, &b, 1, MPI_DATATYPE_NULL, MPI_SUM), MPI_ERR_TYPE, "MPI_Reduce_local");
    check_names(MPI_Reduce_local(&a, &b, 1, MPI_INT, MPI_REPLACE), MPI_ERR_OP, "MPI_Reduce_local");
    double d = 1, e = 2;
    check_names(MPI_Reduce_local(&d, &e, 1, MPI_DOUBLE, MPI_BAND), MPI_ERR_OP, "MPI_Reduce_local");
    check_names(MPI_Reduce_local(&a, &b, 1, MPI_INT, MPI_MAXLOC), MPI_ERR_OP, "MPI_Reduce_local");
    CHECK(b == 2 && e == 2, "refused calls changed the buffers");
    MPI_Op sum = MPI_SUM;
    check_names(MPI_Op_free(&sum), MPI_ERR_OP, "MPI_Op_free");
    MPI_Op null = MPI_OP_NULL;
    check_names(MPI_Op_free(&null), MPI_ERR_OP, "MPI_Op_free");
    check_names(MPI_Op_create(NULL, 1, &null), MPI_ERR_ARG, "MPI_Op_create");
    int c;
    check_names(MPI_Op_commutative(MPI_OP_NULL, &c), MPI_ERR_OP, "MPI_Op_commutative");
}

/* MPI_CHAR reduced as a C integer (a char), across the ranks */
static void test_char_allreduce(void)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const MPI_Op ops[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND,
                          MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR};
    const char *names[] = {"MAX", "MIN", "SUM", "PROD", "LAND", "LOR", "LXOR", "BAND", "BOR", "BXOR"};
    for (int o = 0; o < 10; o++) {
        char in[3] = {(char)(rank + 1), (char)(rank % 2), (char)(1 << (rank % 7))}, out[3] = {0, 0, 0};
        CHECK_OK(MPI_Allreduce(in, out, 3, MPI_CHAR, ops[o], MPI_COMM_WORLD));
        /* the reference, in rank order, with the same char arithmetic */
        char ref[3];
        for (int k = 0; k < 3; k++) {
            for (int r = 0; r < size; r++) {
                char v = k == 0 ? (char)(r + 1) : k == 1 ? (char)(r % 2) : (char)(1 << (r % 7));
                if (r == 0) {
                    ref[k] = (o >= 4 && o <= 6) ? (char)(v != 0) : v;
                    continue;
                }
                char a = ref[k];
                switch (o) {
                case 0: ref[k] = a > v ? a : v; break;
                case 1: ref[k] = a < v ? a : v; break;
                case 2: ref[k] = (char)(a + v); break;
                case 3: ref[k] = (char)(a * v); break;
                case 4: ref[k] = (char)(a && v); break;
                case 5: ref[k] = (char)(a || v); break;
                case 6: ref[k] = (char)(!a != !v); break;
                case 7: ref[k] = (char)(a & v); break;
                case 8: ref[k] = (char)(a | v); break;
                default: ref[k] = (char)(a ^ v); break;
                }
            }
            CHECK(out[k] == ref[k], "MPI_Allreduce MPI_%s on MPI_CHAR, element %d: %d, expected %d", names[o], k,
                  out[k], ref[k]);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    test_max_min();
    test_sum_prod();
    test_logical();
    test_bitwise();
    test_loc();
    test_user_op();
    test_errors();
    test_char_allreduce();
    if (rank == 0)
        printf("op_reduce_local: ok\n");
    MPI_Finalize();
    return 0;
}
