/*
 * test_dt_props.c: sizes, bounds and extents of datatypes by the rules of
 * MPI-2.2 section 4.1 (alignment padding of the extent, sticky MPI_LB and
 * MPI_UB markers, resized types carrying markers), the predefined pair
 * types, the base type used by reductions, and element counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "datatype/datatype.h"
#include "runtime/handles.h"
#include <wchar.h>

static int setup(void **state)
{
    (void)state;
    return tide_datatype_init();
}

static int teardown(void **state)
{
    (void)state;
    tide_datatype_finalize();
    return 0;
}

static void expect(MPI_Datatype t, int size, MPI_Aint lb, MPI_Aint ext, MPI_Aint tlb, MPI_Aint text,
                   const char *what)
{
    int s;
    MPI_Aint l, e, tl, te;
    assert_int_equal(PMPI_Type_size(t, &s), MPI_SUCCESS);
    PMPI_Type_get_extent(t, &l, &e);
    PMPI_Type_get_true_extent(t, &tl, &te);
    if (s != size || l != lb || e != ext || tl != tlb || te != text)
        fail_msg("%s: size %d lb %ld extent %ld true lb %ld true extent %ld; expected %d %ld %ld %ld %ld", what, s,
                 (long)l, (long)e, (long)tl, (long)te, size, (long)lb, (long)ext, (long)tlb, (long)text);
}

static MPI_Datatype mkstruct(int n, const MPI_Datatype *ts, const MPI_Aint *ds)
{
    int bl[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    MPI_Datatype t;
    assert_int_equal(PMPI_Type_create_struct(n, bl, ds, ts, &t), MPI_SUCCESS);
    return t;
}

static void test_alignment_padding(void **state)
{
    (void)state;
    MPI_Datatype t, u;
    t = mkstruct(2, (MPI_Datatype[]){MPI_DOUBLE, MPI_CHAR}, (MPI_Aint[]){0, 8});
    expect(t, 9, 0, 16, 0, 9, "struct{double, char@8}");
    PMPI_Type_contiguous(2, t, &u);
    expect(u, 18, 0, 32, 0, 25, "contiguous(2, struct{double, char})");
    PMPI_Type_free(&u);
    PMPI_Type_free(&t);
    t = mkstruct(2, (MPI_Datatype[]){MPI_CHAR, MPI_INT}, (MPI_Aint[]){0, 4});
    expect(t, 5, 0, 8, 0, 8, "struct{char, int@4}");
    PMPI_Type_free(&t);
    t = mkstruct(2, (MPI_Datatype[]){MPI_LONG_DOUBLE, MPI_CHAR}, (MPI_Aint[]){0, sizeof(long double)});
    MPI_Aint al = (MPI_Aint)_Alignof(long double), ldext = ((MPI_Aint)sizeof(long double) + 1 + al - 1) / al * al;
    expect(t, (int)sizeof(long double) + 1, 0, ldext, 0, (MPI_Aint)sizeof(long double) + 1,
           "struct{long double, char}");
    PMPI_Type_free(&t);
    t = mkstruct(2, (MPI_Datatype[]){MPI_C_COMPLEX, MPI_CHAR}, (MPI_Aint[]){0, 8});
    expect(t, 9, 0, 12, 0, 9, "struct{float complex, char@8}");
    PMPI_Type_free(&t);
    t = mkstruct(1, (MPI_Datatype[]){MPI_DOUBLE}, (MPI_Aint[]){4});
    expect(t, 8, 4, 8, 4, 8, "struct{double@4}");
    PMPI_Type_free(&t);
    t = mkstruct(1, (MPI_Datatype[]){MPI_DOUBLE}, (MPI_Aint[]){-3});
    expect(t, 8, -3, 8, -3, 8, "struct{double@-3}");
    PMPI_Type_free(&t);
    int bl[2] = {1, 1};
    MPI_Aint hd[2] = {0, 4};
    PMPI_Type_create_hindexed(2, bl, hd, MPI_DOUBLE, &t);
    expect(t, 16, 0, 16, 0, 12, "hindexed double {0, 4}");
    PMPI_Type_free(&t);
    PMPI_Type_create_hvector(2, 1, 12, MPI_DOUBLE, &t);
    expect(t, 16, 0, 24, 0, 20, "hvector(2, 1, 12, double)");
    PMPI_Type_free(&t);
    PMPI_Type_vector(3, 1, -2, MPI_INT, &t);
    expect(t, 12, -16, 20, -16, 20, "vector(3, 1, -2, int)");
    PMPI_Type_free(&t);
    PMPI_Type_vector(0, 1, 2, MPI_INT, &t);
    expect(t, 0, 0, 0, 0, 0, "vector(0, ...)");
    PMPI_Type_free(&t);
    int zb[2] = {0, 1}, zd[2] = {3, 5};
    PMPI_Type_indexed(2, zb, zd, MPI_INT, &t);
    expect(t, 4, 20, 4, 20, 4, "indexed {0@3, 1@5} of int");
    PMPI_Type_free(&t);
}

static void test_markers(void **state)
{
    (void)state;
    MPI_Datatype t, u;
    int bl[3] = {1, 1, 1};
    MPI_Datatype ts[3] = {MPI_LB, MPI_INT, MPI_UB};
    MPI_Aint ds[3] = {-4, 0, 20};
    PMPI_Type_struct(3, bl, ds, ts, &t);
    expect(t, 4, -4, 24, 0, 4, "struct{LB@-4, int, UB@20}");
    PMPI_Type_contiguous(2, t, &u);
    expect(u, 8, -4, 48, 0, 28, "contiguous(2, ...)");
    PMPI_Type_free(&u);
    PMPI_Type_create_resized(t, 0, 8, &u);
    expect(u, 4, 0, 8, 0, 4, "resized(0, 8) of it");
    PMPI_Type_free(&u);
    PMPI_Type_vector(2, 1, 1, t, &u);
    expect(u, 8, -4, 48, 0, 28, "vector(2, 1, 1) of it");
    PMPI_Type_free(&u);
    PMPI_Type_free(&t);

    t = mkstruct(2, (MPI_Datatype[]){MPI_INT, MPI_UB}, (MPI_Aint[]){0, 2});
    expect(t, 4, 0, 2, 0, 4, "struct{int, UB@2}");
    /* the upper bound marker of a component is sticky */
    u = mkstruct(2, (MPI_Datatype[]){t, MPI_CHAR}, (MPI_Aint[]){0, 30});
    expect(u, 5, 0, 2, 0, 31, "struct{struct{int, UB@2}, char@30}");
    PMPI_Type_free(&u);
    PMPI_Type_free(&t);

    t = mkstruct(3, (MPI_Datatype[]){MPI_LB, MPI_LB, MPI_INT}, (MPI_Aint[]){8, 2, 4});
    expect(t, 4, 2, 8, 4, 4, "struct{LB@8, LB@2, int@4}: lowest marker, extent padded to 4");
    PMPI_Type_free(&t);

    t = mkstruct(2, (MPI_Datatype[]){MPI_CHAR, MPI_UB}, (MPI_Aint[]){0, 3});
    expect(t, 1, 0, 3, 0, 1, "struct{char, UB@3}");
    u = mkstruct(2, (MPI_Datatype[]){t, MPI_DOUBLE}, (MPI_Aint[]){0, 8});
    expect(u, 9, 0, 3, 0, 16, "struct{struct{char, UB@3}, double@8}");
    PMPI_Type_free(&u);
    PMPI_Type_free(&t);
}

static void test_resized_markers(void **state)
{
    (void)state;
    MPI_Datatype r, t;
    PMPI_Type_create_resized(MPI_INT, 2, 3, &r);
    expect(r, 4, 2, 3, 0, 4, "resized(int, 2, 3)");
    t = mkstruct(2, (MPI_Datatype[]){r, MPI_DOUBLE}, (MPI_Aint[]){0, 8});
    expect(t, 12, 2, 3, 0, 16, "struct{resized(int, 2, 3), double@8}");
    PMPI_Type_free(&t);
    PMPI_Type_free(&r);
    PMPI_Type_create_resized(MPI_DOUBLE, 0, 3, &r);
    t = mkstruct(2, (MPI_Datatype[]){r, MPI_CHAR}, (MPI_Aint[]){0, 8});
    expect(t, 9, 0, 3, 0, 9, "struct{resized(double, 0, 3), char@8}");
    PMPI_Type_free(&t);
    PMPI_Type_contiguous(3, r, &t);
    expect(t, 24, 0, 9, 0, 14, "contiguous(3, resized(double, 0, 3))");
    PMPI_Type_free(&t);
    PMPI_Type_free(&r);
}

static void test_pairs(void **state)
{
    (void)state;
    struct si { short a; int b; };
    struct di { double a; int b; };
    struct ldi { long double a; int b; };
    expect(MPI_FLOAT_INT, 8, 0, 8, 0, 8, "MPI_FLOAT_INT");
    expect(MPI_DOUBLE_INT, 12, 0, sizeof(struct di), 0, 12, "MPI_DOUBLE_INT");
    expect(MPI_LONG_INT, (int)sizeof(long) + 4, 0, sizeof(struct { long a; int b; }), 0, (MPI_Aint)sizeof(long) + 4,
           "MPI_LONG_INT");
    expect(MPI_2INT, 8, 0, 8, 0, 8, "MPI_2INT");
    expect(MPI_SHORT_INT, 6, 0, sizeof(struct si), 0, sizeof(struct si), "MPI_SHORT_INT");
    expect(MPI_LONG_DOUBLE_INT, (int)sizeof(long double) + 4, 0, sizeof(struct ldi), 0,
           (MPI_Aint)offsetof(struct ldi, b) + 4, "MPI_LONG_DOUBLE_INT");
    expect(MPI_2INTEGER, 8, 0, 8, 0, 8, "MPI_2INTEGER");
    expect(MPI_2DOUBLE_PRECISION, 16, 0, 16, 0, 16, "MPI_2DOUBLE_PRECISION");
    /* two basic elements per pair */
    assert_int_equal(tide_datatype_elements(tide_datatype_get(MPI_DOUBLE_INT), 24), 4);
    assert_int_equal(tide_datatype_elements(tide_datatype_get(MPI_DOUBLE_INT), 20), 3);
    assert_int_equal(tide_datatype_elements(tide_datatype_get(MPI_DOUBLE_INT), 10), MPI_UNDEFINED);
    assert_int_equal(tide_datatype_elements(tide_datatype_get(MPI_SHORT_INT), 6), 2);
    assert_int_equal(tide_datatype_elements(tide_datatype_get(MPI_2INT), 12), 3);
    assert_int_equal(tide_datatype_elements(tide_datatype_get(MPI_C_DOUBLE_COMPLEX), 32), 2);
    assert_int_equal(tide_datatype_elements(tide_datatype_get(MPI_C_DOUBLE_COMPLEX), 24), MPI_UNDEFINED);
}

static void test_predefined_sizes(void **state)
{
    (void)state;
    struct { MPI_Datatype t; size_t size; } tab[] = {
        {MPI_CHAR, sizeof(char)}, {MPI_SIGNED_CHAR, 1}, {MPI_UNSIGNED_CHAR, 1}, {MPI_BYTE, 1},
        {MPI_WCHAR, sizeof(wchar_t)}, {MPI_SHORT, sizeof(short)}, {MPI_UNSIGNED_SHORT, sizeof(short)},
        {MPI_INT, sizeof(int)}, {MPI_UNSIGNED, sizeof(int)}, {MPI_LONG, sizeof(long)},
        {MPI_UNSIGNED_LONG, sizeof(long)}, {MPI_LONG_LONG, sizeof(long long)},
        {MPI_UNSIGNED_LONG_LONG, sizeof(long long)}, {MPI_FLOAT, sizeof(float)}, {MPI_DOUBLE, sizeof(double)},
        {MPI_LONG_DOUBLE, sizeof(long double)}, {MPI_C_BOOL, sizeof(_Bool)}, {MPI_INT8_T, 1}, {MPI_INT16_T, 2},
        {MPI_INT32_T, 4}, {MPI_INT64_T, 8}, {MPI_UINT8_T, 1}, {MPI_UINT16_T, 2}, {MPI_UINT32_T, 4},
        {MPI_UINT64_T, 8}, {MPI_AINT, sizeof(MPI_Aint)}, {MPI_OFFSET, sizeof(MPI_Offset)},
        {MPI_C_COMPLEX, sizeof(float _Complex)}, {MPI_C_FLOAT_COMPLEX, sizeof(float _Complex)},
        {MPI_C_DOUBLE_COMPLEX, sizeof(double _Complex)},
        {MPI_C_LONG_DOUBLE_COMPLEX, sizeof(long double _Complex)}, {MPI_PACKED, 1}, {MPI_LB, 0}, {MPI_UB, 0},
        {MPI_CHARACTER, 1}, {MPI_LOGICAL, 4}, {MPI_INTEGER, 4}, {MPI_REAL, 4}, {MPI_DOUBLE_PRECISION, 8},
        {MPI_COMPLEX, 8}, {MPI_DOUBLE_COMPLEX, 16}, {MPI_2REAL, 8}, {MPI_INTEGER1, 1}, {MPI_INTEGER2, 2},
        {MPI_INTEGER4, 4}, {MPI_INTEGER8, 8}, {MPI_INTEGER16, 16}, {MPI_REAL4, 4}, {MPI_REAL8, 8},
        {MPI_REAL16, 16}, {MPI_COMPLEX8, 8}, {MPI_COMPLEX16, 16}, {MPI_COMPLEX32, 32}, {MPI_COUNT, 8},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        int s;
        assert_int_equal(PMPI_Type_size(tab[i].t, &s), MPI_SUCCESS);
        assert_int_equal(s, tab[i].size);
        struct tide_datatype *dt = tide_datatype_get(tab[i].t);
        assert_true(dt->predefined && dt->committed);
        assert_int_equal(dt->combiner, MPI_COMBINER_NAMED);
    }
}

static void test_base(void **state)
{
    (void)state;
    MPI_Datatype v, s, p, r, e;
    int base;
    size_t n;
    PMPI_Type_vector(10, 3, 5, MPI_DOUBLE, &v);
    assert_true(tide_datatype_base(tide_datatype_get(v), &base, &n));
    assert_int_equal(TIDE_BUILTIN_TYPE(base), MPI_DOUBLE);
    assert_int_equal(n, 30);
    s = mkstruct(2, (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, (MPI_Aint[]){0, 8});
    assert_false(tide_datatype_base(tide_datatype_get(s), &base, &n));
    PMPI_Type_contiguous(4, MPI_DOUBLE_INT, &p);
    assert_true(tide_datatype_base(tide_datatype_get(p), &base, &n));
    assert_int_equal(TIDE_BUILTIN_TYPE(base), MPI_DOUBLE_INT);
    assert_int_equal(n, 4);
    PMPI_Type_create_resized(v, 0, 1000, &r);
    assert_true(tide_datatype_base(tide_datatype_get(r), &base, &n));
    assert_int_equal(n, 30);
    int bl[3] = {1, 1, 1};
    MPI_Datatype ts[3] = {MPI_LB, MPI_FLOAT, MPI_UB};
    MPI_Aint ds[3] = {0, 4, 16};
    PMPI_Type_struct(3, bl, ds, ts, &e); /* markers do not mix the base */
    assert_true(tide_datatype_base(tide_datatype_get(e), &base, &n));
    assert_int_equal(TIDE_BUILTIN_TYPE(base), MPI_FLOAT);
    assert_int_equal(n, 1);
    PMPI_Type_free(&v);
    PMPI_Type_free(&s);
    PMPI_Type_free(&p);
    PMPI_Type_free(&r);
    PMPI_Type_free(&e);
}

static void test_refcount(void **state)
{
    (void)state;
    MPI_Datatype v, c;
    PMPI_Type_vector(3, 1, 2, MPI_INT, &v);
    PMPI_Type_contiguous(2, v, &c);
    struct tide_datatype *dv = tide_datatype_get(v), *dc = tide_datatype_get(c);
    assert_int_equal(dv->refcount, 2); /* the handle and c */
    PMPI_Type_commit(&c);
    tide_datatype_retain(dc);          /* a pending operation */
    PMPI_Type_free(&v);
    assert_int_equal(v, MPI_DATATYPE_NULL);
    assert_int_equal(dv->refcount, 1);
    PMPI_Type_free(&c);
    assert_null(tide_datatype_get(c));
    /* still usable by the operation */
    int in[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, out[6];
    struct tide_convertor cv;
    tide_conv_init(&cv, dc, 1, in);
    assert_int_equal(tide_conv_pack(&cv, out, sizeof out), 24);
    assert_int_equal(out[2], 5);
    assert_int_equal(out[3], 6);
    assert_int_equal(out[5], 10);
    size_t live = tide_handle_live(TIDE_KIND_DATATYPE);
    tide_datatype_release(dc);         /* frees c, then v */
    assert_int_equal(tide_handle_live(TIDE_KIND_DATATYPE), live - 2);
}

static void test_elements_struct(void **state)
{
    (void)state;
    int bl[3] = {2, 1, 3};
    MPI_Datatype t, ts[3] = {MPI_SHORT, MPI_DOUBLE, MPI_CHAR};
    MPI_Aint ds[3] = {0, 8, 16};
    PMPI_Type_create_struct(3, bl, ds, ts, &t);
    struct tide_datatype *dt = tide_datatype_get(t);
    /* 2 shorts (4 bytes), a double (8), 3 chars: 15 bytes, 6 elements */
    MPI_Count want[16] = {0, MPI_UNDEFINED, 1, MPI_UNDEFINED, 2, -1, -1, -1, -1, -1, -1, -1, 3, 4, 5, 6};
    for (int nb = 0; nb <= 15; nb++)
        assert_int_equal(tide_datatype_elements(dt, nb), want[nb] == -1 ? MPI_UNDEFINED : want[nb]);
    assert_int_equal(tide_datatype_elements(dt, 15 * 3 + 4), 6 * 3 + 2);
    assert_int_equal(tide_datatype_elements_bytes(dt, 6 * 2 + 3), 15 * 2 + 12);
    PMPI_Type_free(&t);
}

static void test_pieces(void **state)
{
    (void)state;
    MPI_Datatype v, c, s;
    PMPI_Type_vector(10, 1, 2, MPI_DOUBLE, &v);
    PMPI_Type_contiguous(10, MPI_DOUBLE, &c);
    int bl[2] = {1, 1};
    MPI_Aint ds[2] = {0, 16};
    MPI_Datatype ts[2] = {MPI_INT, MPI_INT};
    PMPI_Type_create_struct(2, bl, ds, ts, &s);
    PMPI_Type_commit(&v);
    PMPI_Type_commit(&c);
    PMPI_Type_commit(&s);
    assert_int_equal(tide_datatype_pieces(tide_datatype_get(v), 3), 30);
    assert_int_equal(tide_datatype_pieces(tide_datatype_get(c), 3), 1);
    assert_int_equal(tide_datatype_pieces(tide_datatype_get(s), 4), 8);
    assert_int_equal(tide_datatype_pieces(tide_datatype_get(MPI_SHORT_INT), 5), 10);
    assert_int_equal(tide_datatype_pieces(tide_datatype_get(MPI_DOUBLE), 5), 1);
    PMPI_Type_free(&v);
    PMPI_Type_free(&c);
    PMPI_Type_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alignment_padding),
        cmocka_unit_test(test_markers),
        cmocka_unit_test(test_resized_markers),
        cmocka_unit_test(test_pairs),
        cmocka_unit_test(test_predefined_sizes),
        cmocka_unit_test(test_base),
        cmocka_unit_test(test_refcount),
        cmocka_unit_test(test_elements_struct),
        cmocka_unit_test(test_pieces),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
