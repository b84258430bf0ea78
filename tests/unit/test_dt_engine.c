/*
 * test_dt_engine.c: the type engine against a reference model
 * (test_dt_ref.h). For every constructor, nested types, negative strides
 * and displacements, zero-count blocks, resized types, MPI_LB/MPI_UB
 * markers, subarrays and darrays: pack all at once, resumed at every
 * offset (or many, for big types), in chunks of odd sizes and after a
 * seek; unpack likewise; the iovec walk with small limits; element
 * counts of partial streams. Everything is compared byte for byte with
 * the reference.
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
#include "datatype/engine.h"
#include "test_dt_ref.h"

static unsigned rng = 12345;
static unsigned rnd(void)
{
    rng = rng * 1103515245u + 12345u;
    return (rng >> 8) & 0xffffff;
}

struct layout {
    struct ref_map m;
    size_t esize, total;
    MPI_Aint ext, lo, hi;
    int count;
    unsigned char *src, *ref;
    uintptr_t base;
};

static void layout_init(struct layout *L, MPI_Datatype t, int count)
{
    memset(L, 0, sizeof *L);
    L->m = ref_map_of(t);
    L->count = count;
    L->ext = ref_extent(t);
    for (size_t i = 0; i < L->m.n; i++)
        L->esize += L->m.e[i].len;
    L->total = L->esize * (size_t)count;
    bool first = true;
    for (int e = 0; e < count; e++)
        for (size_t i = 0; i < L->m.n; i++) {
            MPI_Aint a = e * L->ext + L->m.e[i].d, b = a + (MPI_Aint)L->m.e[i].len;
            if (first || a < L->lo)
                L->lo = a;
            if (first || b > L->hi)
                L->hi = b;
            first = false;
        }
    size_t span = (size_t)(L->hi - L->lo) + 1;
    L->src = malloc(span);
    for (size_t i = 0; i < span; i++)
        L->src[i] = (unsigned char)(i * 7 + 3 + (i >> 8));
    L->base = (uintptr_t)L->src - (uintptr_t)L->lo;
    L->ref = malloc(L->total + 1);
    size_t k = 0;
    for (int e = 0; e < count; e++)
        for (size_t i = 0; i < L->m.n; i++) {
            memcpy(L->ref + k, (void *)(L->base + (uintptr_t)(e * L->ext + L->m.e[i].d)), L->m.e[i].len);
            k += L->m.e[i].len;
        }
}

static void layout_free(struct layout *L)
{
    free(L->m.e);
    free(L->src);
    free(L->ref);
}

static void check_pack(struct layout *L, struct tide_datatype *dt)
{
    size_t T = L->total;
    unsigned char *out = malloc(T + 1);
    struct tide_convertor cv;

    /* all at once */
    tide_conv_init(&cv, dt, (size_t)L->count, (void *)L->base);
    assert_int_equal(cv.total, T);
    assert_int_equal(tide_conv_pack(&cv, out, T + 100), T);
    assert_memory_equal(out, L->ref, T);
    assert_int_equal(tide_conv_pack(&cv, out, 10), 0);

    /* stopped at k, resumed */
    size_t nsplit = T <= 3000 ? T + 1 : 300;
    for (size_t s = 0; s < nsplit; s++) {
        size_t k = T <= 3000 ? s : rnd() % (T + 1);
        memset(out, 0xee, T);
        tide_conv_init(&cv, dt, (size_t)L->count, (void *)L->base);
        assert_int_equal(tide_conv_pack(&cv, out, k), k);
        assert_int_equal(tide_conv_pack(&cv, out + k, T), T - k);
        if (memcmp(out, L->ref, T) != 0)
            fail_msg("pack resumed at %zu of %zu differs", k, T);
        /* a fresh convertor that seeks to k */
        memset(out, 0xee, T);
        tide_conv_init(&cv, dt, (size_t)L->count, (void *)L->base);
        tide_conv_seek(&cv, k);
        size_t n = T - k > 777 ? 777 : T - k;
        assert_int_equal(tide_conv_pack(&cv, out, n), n);
        if (memcmp(out, L->ref + k, n) != 0)
            fail_msg("pack after seek to %zu differs", k);
    }

    /* chunks of odd sizes */
    static const size_t chunks[] = {1, 2, 3, 5, 7, 8, 13, 64, 1000, 4099};
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        if (T / chunks[c] > 200000)
            continue;
        memset(out, 0xee, T);
        tide_conv_init(&cv, dt, (size_t)L->count, (void *)L->base);
        size_t pos = 0;
        while (pos < T) {
            size_t n = tide_conv_pack(&cv, out + pos, chunks[c]);
            assert_true(n > 0 && n <= chunks[c]);
            pos += n;
        }
        if (memcmp(out, L->ref, T) != 0)
            fail_msg("pack in chunks of %zu differs", chunks[c]);
    }
    free(out);
}

static void check_unpack(struct layout *L, struct tide_datatype *dt)
{
    size_t span = (size_t)(L->hi - L->lo) + 1, T = L->total;
    unsigned char *want = calloc(1, span), *got = malloc(span);
    uintptr_t wbase = (uintptr_t)want - (uintptr_t)L->lo, gbase = (uintptr_t)got - (uintptr_t)L->lo;
    size_t k = 0;
    for (int e = 0; e < L->count; e++)
        for (size_t i = 0; i < L->m.n; i++) {
            memcpy((void *)(wbase + (uintptr_t)(e * L->ext + L->m.e[i].d)), L->ref + k, L->m.e[i].len);
            k += L->m.e[i].len;
        }
    static const size_t chunks[] = {1, 3, 8, 61, 4096, SIZE_MAX};
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        if (chunks[c] != SIZE_MAX && T / chunks[c] > 200000)
            continue;
        memset(got, 0, span);
        struct tide_convertor cv;
        tide_conv_init(&cv, dt, (size_t)L->count, (void *)gbase);
        size_t pos = 0;
        while (pos < T) {
            size_t n = tide_conv_unpack(&cv, L->ref + pos, chunks[c] < T - pos ? chunks[c] : T - pos);
            assert_true(n > 0);
            pos += n;
        }
        if (memcmp(got, want, span) != 0)
            fail_msg("unpack in chunks of %zu differs", chunks[c]);
    }
    /* resumed at random offsets after a seek */
    for (int s = 0; s < 50 && T; s++) {
        size_t at = rnd() % T;
        memset(got, 0, span);
        struct tide_convertor cv;
        tide_conv_init(&cv, dt, (size_t)L->count, (void *)gbase);
        assert_int_equal(tide_conv_unpack(&cv, L->ref, at), at);
        tide_conv_init(&cv, dt, (size_t)L->count, (void *)gbase);
        tide_conv_seek(&cv, at);
        assert_int_equal(tide_conv_unpack(&cv, L->ref + at, T - at), T - at);
        if (memcmp(got, want, span) != 0)
            fail_msg("unpack split by a seek at %zu differs", at);
    }
    free(want);
    free(got);
}

static void check_iov(struct layout *L, struct tide_datatype *dt)
{
    size_t T = L->total;
    unsigned char *out = malloc(T + 1);
    static const int maxiovs[] = {1, 3, 16};
    static const size_t maxbytes[] = {SIZE_MAX, 5, 13, 4096};
    for (size_t a = 0; a < 3; a++)
        for (size_t b = 0; b < 4; b++) {
            if (T / (maxbytes[b] < 16 ? maxbytes[b] : 16) > 100000 && maxiovs[a] < 16)
                continue;
            struct tide_convertor cv;
            tide_conv_init(&cv, dt, (size_t)L->count, (void *)L->base);
            struct iovec iov[16];
            size_t pos = 0, bytes, total_iov = 0;
            for (;;) {
                int n = tide_conv_iov(&cv, iov, maxiovs[a], maxbytes[b], &bytes);
                if (n == 0)
                    break;
                total_iov += (size_t)n;
                assert_true(n <= maxiovs[a]);
                assert_true(bytes <= maxbytes[b]);
                size_t sum = 0;
                for (int i = 0; i < n; i++) {
                    assert_true(pos + iov[i].iov_len <= T);
                    memcpy(out + pos, iov[i].iov_base, iov[i].iov_len);
                    pos += iov[i].iov_len;
                    sum += iov[i].iov_len;
                }
                assert_int_equal(sum, bytes);
            }
            assert_int_equal(pos, T);
            if (maxbytes[b] == SIZE_MAX && total_iov > tide_datatype_pieces(dt, (size_t)L->count))
                fail_msg("%zu iovecs but tide_datatype_pieces says %zu", total_iov,
                         tide_datatype_pieces(dt, (size_t)L->count));
            if (memcmp(out, L->ref, T) != 0)
                fail_msg("iov walk (maxiov %d, maxbytes %zu) differs", maxiovs[a], maxbytes[b]);
        }
    free(out);
}

static void check_elements(struct layout *L, struct tide_datatype *dt)
{
    size_t T = L->total, per = L->m.n;
    size_t nsample = T <= 2000 ? T + 1 : 500;
    for (size_t s = 0; s < nsample; s++) {
        size_t nb = T <= 2000 ? s : rnd() % (T + 1);
        /* reference: whole elements, then the entries of one element */
        size_t full = L->esize ? nb / L->esize : 0, rem = L->esize ? nb % L->esize : 0;
        MPI_Count want = (MPI_Count)(full * per);
        for (size_t i = 0; i < per && rem; i++) {
            if (rem < L->m.e[i].len) {
                want = MPI_UNDEFINED;
                break;
            }
            rem -= L->m.e[i].len;
            want++;
        }
        MPI_Count got = tide_datatype_elements(dt, (MPI_Count)nb);
        if (got != want)
            fail_msg("elements of %zu bytes: %lld, expected %lld", nb, (long long)got, (long long)want);
    }
    for (size_t e = 0; per && e <= per * (size_t)L->count && e < 3000; e++) {
        size_t want = (e / per) * L->esize;
        for (size_t i = 0; i < e % per; i++)
            want += L->m.e[i].len;
        assert_int_equal(tide_datatype_elements_bytes(dt, (MPI_Count)e), want);
    }
}

/* The whole battery for one type (consumes the handle). */
static void check_type(MPI_Datatype t, int count)
{
    assert_int_equal(PMPI_Type_commit(&t), MPI_SUCCESS);
    struct tide_datatype *dt = tide_datatype_get(t);
    assert_non_null(dt);
    struct layout L;
    layout_init(&L, t, count);
    assert_int_equal(dt->size, L.esize);
    if (L.m.n) {
        MPI_Aint tlb = L.m.e[0].d, tub = L.m.e[0].d + (MPI_Aint)L.m.e[0].len;
        for (size_t i = 0; i < L.m.n; i++) {
            if (L.m.e[i].d < tlb)
                tlb = L.m.e[i].d;
            if (L.m.e[i].d + (MPI_Aint)L.m.e[i].len > tub)
                tub = L.m.e[i].d + (MPI_Aint)L.m.e[i].len;
        }
        assert_int_equal(dt->true_lb, tlb);
        assert_int_equal(dt->true_ub, tub);
    }
    if (L.total) {
        check_pack(&L, dt);
        check_unpack(&L, dt);
        check_iov(&L, dt);
    }
    check_elements(&L, dt);
    layout_free(&L);
    if (!dt->predefined)
        assert_int_equal(PMPI_Type_free(&t), MPI_SUCCESS);
}

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

/* ---- the types ---- */

static void test_predefined(void **state)
{
    (void)state;
    for (int i = 1; i < TIDE_BUILTIN_TYPE_COUNT; i++) {
        MPI_Datatype t = TIDE_BUILTIN_TYPE(i);
        if (t == MPI_LB || t == MPI_UB)
            continue;
        check_type(t, 3);
    }
}

static void test_contiguous(void **state)
{
    (void)state;
    MPI_Datatype t;
    assert_int_equal(PMPI_Type_contiguous(5, MPI_INT, &t), MPI_SUCCESS);
    struct tide_datatype *dt = tide_datatype_get(t);
    check_type(t, 4);
    PMPI_Type_contiguous(3, MPI_SHORT_INT, &t);
    check_type(t, 2);
    PMPI_Type_contiguous(0, MPI_DOUBLE, &t);
    check_type(t, 5);
    (void)dt;
}

static void test_contig_flag(void **state)
{
    (void)state;
    MPI_Datatype a, b, c, d;
    PMPI_Type_contiguous(7, MPI_DOUBLE, &a);
    PMPI_Type_commit(&a);
    assert_true(tide_datatype_get(a)->contig);
    PMPI_Type_vector(3, 2, 2, MPI_INT, &b); /* stride == blocklength */
    PMPI_Type_commit(&b);
    assert_true(tide_datatype_get(b)->contig);
    PMPI_Type_vector(3, 1, 2, MPI_INT, &c);
    PMPI_Type_commit(&c);
    assert_false(tide_datatype_get(c)->contig);
    int bl[2] = {1, 1};
    int ds[2] = {1, 0}; /* in memory order reversed: not one run in pack order */
    PMPI_Type_indexed(2, bl, ds, MPI_INT, &d);
    PMPI_Type_commit(&d);
    assert_false(tide_datatype_get(d)->contig);
    PMPI_Type_free(&a);
    PMPI_Type_free(&b);
    PMPI_Type_free(&c);
    PMPI_Type_free(&d);
    assert_true(tide_datatype_get(MPI_DOUBLE)->contig);
    assert_false(tide_datatype_get(MPI_SHORT_INT)->contig);
    assert_false(tide_datatype_get(MPI_DOUBLE_INT)->contig);
}

static void test_vector(void **state)
{
    (void)state;
    MPI_Datatype t;
    PMPI_Type_vector(4, 2, 3, MPI_DOUBLE, &t);
    check_type(t, 3);
    PMPI_Type_vector(1000, 1, 2, MPI_DOUBLE, &t); /* 1 double every 2 */
    check_type(t, 2);
    PMPI_Type_vector(20, 64, 100, MPI_DOUBLE, &t); /* blocks of 64 */
    check_type(t, 2);
    PMPI_Type_vector(5, 3, 3, MPI_CHAR, &t); /* contiguous in disguise */
    check_type(t, 3);
    PMPI_Type_vector(5, 0, 3, MPI_INT, &t); /* empty blocks */
    check_type(t, 3);
    PMPI_Type_vector(4, 1, 0, MPI_INT, &t); /* zero stride: same int 4 times */
    check_type(t, 2);
    for (int bl = 1; bl <= 9; bl++) { /* every specialised block size */
        PMPI_Type_vector(7, bl, bl + 2, MPI_FLOAT, &t);
        check_type(t, 3);
        PMPI_Type_vector(7, bl, bl + 1, MPI_CHAR, &t);
        check_type(t, 3);
    }
}

static void test_vector_negative(void **state)
{
    (void)state;
    MPI_Datatype t, u;
    PMPI_Type_vector(3, 1, -2, MPI_INT, &t);
    check_type(t, 3);
    PMPI_Type_create_hvector(3, 2, -20, MPI_SHORT, &t);
    check_type(t, 4);
    PMPI_Type_vector(4, 2, -3, MPI_DOUBLE, &u);
    PMPI_Type_vector(3, 1, -2, u, &t);
    PMPI_Type_free(&u);
    check_type(t, 2);
}

static void test_hvector(void **state)
{
    (void)state;
    MPI_Datatype t, v;
    PMPI_Type_create_hvector(5, 3, 17, MPI_CHAR, &t);
    check_type(t, 3);
    PMPI_Type_hvector(4, 1, 12, MPI_DOUBLE, &t);
    check_type(t, 2);
    PMPI_Type_vector(3, 2, 4, MPI_INT, &v);
    PMPI_Type_create_hvector(3, 2, 100, v, &t); /* vector of a vector */
    PMPI_Type_free(&v);
    check_type(t, 2);
}

static void test_indexed(void **state)
{
    (void)state;
    MPI_Datatype t, v;
    int bl[5] = {3, 0, 2, 1, 4}, ds[5] = {4, 10, 0, -3, 7};
    PMPI_Type_indexed(5, bl, ds, MPI_INT, &t);
    check_type(t, 3);
    int bl2[3] = {0, 0, 0};
    PMPI_Type_indexed(3, bl2, ds, MPI_DOUBLE, &t); /* all blocks empty */
    check_type(t, 2);
    PMPI_Type_vector(2, 1, 3, MPI_SHORT, &v);
    PMPI_Type_indexed(5, bl, ds, v, &t); /* indexed of a non-contiguous type */
    PMPI_Type_free(&v);
    check_type(t, 2);
    int bl3[4] = {1, 1, 1, 1}, ds3[4] = {0, 2, 4, 6}; /* regular: becomes a vector */
    PMPI_Type_indexed(4, bl3, ds3, MPI_DOUBLE, &t);
    check_type(t, 3);
    int ds4[4] = {3, 2, 1, 0}; /* reversed order */
    PMPI_Type_indexed(4, bl3, ds4, MPI_DOUBLE, &t);
    check_type(t, 3);
}

static void test_hindexed(void **state)
{
    (void)state;
    MPI_Datatype t;
    int bl[3] = {1, 2, 3};
    MPI_Aint ds[3] = {-8, 16, 5};
    PMPI_Type_create_hindexed(3, bl, ds, MPI_DOUBLE, &t);
    check_type(t, 3);
    PMPI_Type_hindexed(3, bl, ds, MPI_CHAR, &t);
    check_type(t, 4);
}

static void test_indexed_block(void **state)
{
    (void)state;
    MPI_Datatype t, v;
    int ds[4] = {5, 1, 3, 9};
    PMPI_Type_create_indexed_block(4, 2, ds, MPI_FLOAT, &t);
    check_type(t, 3);
    PMPI_Type_create_indexed_block(4, 0, ds, MPI_FLOAT, &t);
    check_type(t, 3);
    MPI_Aint hd[3] = {0, 100, 50};
    PMPI_Type_create_hindexed_block(3, 3, hd, MPI_CHAR, &t);
    check_type(t, 3);
    PMPI_Type_vector(2, 2, 3, MPI_INT, &v);
    PMPI_Type_create_hindexed_block(3, 2, hd, v, &t);
    PMPI_Type_free(&v);
    check_type(t, 2);
}

static void test_struct(void **state)
{
    (void)state;
    MPI_Datatype t, v;
    int bl[3] = {2, 1, 3};
    MPI_Aint ds[3] = {0, 8, 16};
    MPI_Datatype ts[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    PMPI_Type_create_struct(3, bl, ds, ts, &t);
    check_type(t, 5);
    MPI_Aint ds2[3] = {40, -16, 3};
    PMPI_Type_vector(3, 1, 2, MPI_SHORT, &v);
    MPI_Datatype ts2[3] = {MPI_DOUBLE_INT, v, MPI_LONG_DOUBLE};
    int bl2[3] = {2, 2, 0};
    PMPI_Type_struct(3, bl2, ds2, ts2, &t);
    PMPI_Type_free(&v);
    check_type(t, 3);
    /* many small fields: a BLOCKS leaf of varying lengths */
    int bl3[40];
    MPI_Aint ds3[40];
    MPI_Datatype ts3[40];
    for (int i = 0; i < 40; i++) {
        bl3[i] = 1 + i % 3;
        ds3[i] = i * 24 + (i % 5);
        ts3[i] = i % 2 ? MPI_CHAR : MPI_SHORT;
    }
    PMPI_Type_create_struct(40, bl3, ds3, ts3, &t);
    check_type(t, 3);
}

static void test_markers(void **state)
{
    (void)state;
    MPI_Datatype t, u;
    int bl[3] = {1, 1, 1};
    MPI_Aint ds[3] = {-8, 0, 32};
    MPI_Datatype ts[3] = {MPI_LB, MPI_INT, MPI_UB};
    PMPI_Type_struct(3, bl, ds, ts, &t);
    struct tide_datatype *dt = tide_datatype_get(t);
    assert_int_equal(dt->lb, -8);
    assert_int_equal(dt->extent, 40);
    assert_int_equal(dt->size, 4);
    PMPI_Type_contiguous(3, t, &u); /* copies 40 bytes apart */
    dt = tide_datatype_get(u);
    assert_int_equal(dt->lb, -8);
    assert_int_equal(dt->extent, 120);
    check_type(u, 2);
    check_type(t, 3);
}

static void test_resized(void **state)
{
    (void)state;
    MPI_Datatype t, v;
    PMPI_Type_vector(2, 1, 2, MPI_INT, &v);
    PMPI_Type_create_resized(v, -4, 24, &t);
    PMPI_Type_free(&v);
    check_type(t, 4);
    PMPI_Type_create_resized(MPI_DOUBLE, 0, 16, &t); /* 1 double every 2 as a count */
    check_type(t, 500);
    PMPI_Type_create_resized(MPI_INT, 0, 2, &t); /* overlapping elements */
    check_type(t, 5);
    PMPI_Type_vector(3, 2, 5, MPI_CHAR, &v);
    PMPI_Type_create_resized(v, 0, 15, &t); /* copies tile: one long vector */
    PMPI_Type_free(&v);
    check_type(t, 7);
}

static void test_dup(void **state)
{
    (void)state;
    MPI_Datatype t, v;
    int bl[2] = {1, 2};
    MPI_Aint ds[2] = {4, 16};
    MPI_Datatype ts[2] = {MPI_FLOAT, MPI_DOUBLE};
    PMPI_Type_create_struct(2, bl, ds, ts, &v);
    PMPI_Type_dup(v, &t);
    PMPI_Type_free(&v);
    check_type(t, 3);
    PMPI_Type_dup(MPI_INT, &t);
    check_type(t, 3);
}

static void test_nested(void **state)
{
    (void)state;
    MPI_Datatype s, v, w, t, r;
    int bl[3] = {1, 2, 1};
    MPI_Aint ds[3] = {0, 4, 16};
    MPI_Datatype ts[3] = {MPI_CHAR, MPI_SHORT, MPI_DOUBLE};
    PMPI_Type_create_struct(3, bl, ds, ts, &s);
    PMPI_Type_vector(3, 2, 4, s, &v);
    PMPI_Type_create_resized(v, 8, 300, &r);
    int ibl[3] = {2, 1, 3}, ids[3] = {1, -2, 5};
    PMPI_Type_indexed(3, ibl, ids, r, &w);
    MPI_Datatype ts2[3] = {w, v, MPI_INT};
    MPI_Aint ds2[3] = {0, 5000, -4};
    int bl2[3] = {1, 2, 3};
    PMPI_Type_create_struct(3, bl2, ds2, ts2, &t);
    PMPI_Type_free(&s);
    PMPI_Type_free(&v);
    PMPI_Type_free(&r);
    PMPI_Type_free(&w);
    check_type(t, 2);
}

static void test_subarray(void **state)
{
    (void)state;
    MPI_Datatype t;
    int sz[3] = {6, 5, 7}, sub[3] = {3, 2, 4}, st[3] = {1, 3, 2};
    PMPI_Type_create_subarray(3, sz, sub, st, MPI_ORDER_C, MPI_DOUBLE, &t);
    check_type(t, 2);
    PMPI_Type_create_subarray(3, sz, sub, st, MPI_ORDER_FORTRAN, MPI_INT, &t);
    check_type(t, 2);
    int sz1[1] = {10}, sub1[1] = {10}, st1[1] = {0};
    PMPI_Type_create_subarray(1, sz1, sub1, st1, MPI_ORDER_C, MPI_SHORT_INT, &t);
    check_type(t, 3);
    /* a face of a 3-D array in each direction */
    int f0[3] = {1, 5, 7}, f1[3] = {6, 1, 7}, f2[3] = {6, 5, 1}, e0[3] = {5, 0, 0}, e1[3] = {0, 4, 0};
    PMPI_Type_create_subarray(3, sz, f0, e0, MPI_ORDER_C, MPI_DOUBLE, &t);
    check_type(t, 1);
    PMPI_Type_create_subarray(3, sz, f1, e1, MPI_ORDER_C, MPI_DOUBLE, &t);
    check_type(t, 1);
    int e2[3] = {0, 0, 6};
    PMPI_Type_create_subarray(3, sz, f2, e2, MPI_ORDER_C, MPI_DOUBLE, &t);
    check_type(t, 1);
}

static void test_darray(void **state)
{
    (void)state;
    MPI_Datatype t;
    int gs[2] = {10, 9}, ps[2] = {2, 3};
    int dist[4][2] = {{MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK},
                      {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_CYCLIC},
                      {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
                      {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK}};
    int dargs[3][2] = {{MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, {2, 3}, {5, 2}};
    for (int o = 0; o < 2; o++)
        for (int d = 0; d < 4; d++)
            for (int a = 0; a < 3; a++)
                for (int rank = 0; rank < 6; rank++) {
                    int da[2] = {dargs[a][0], dargs[a][1]};
                    if (dist[d][0] == MPI_DISTRIBUTE_BLOCK && da[0] != MPI_DISTRIBUTE_DFLT_DARG && da[0] * 2 < 10)
                        continue;
                    if (dist[d][1] == MPI_DISTRIBUTE_BLOCK && da[1] != MPI_DISTRIBUTE_DFLT_DARG && da[1] * 3 < 9)
                        continue;
                    assert_int_equal(PMPI_Type_create_darray(6, rank, 2, gs, dist[d], da, ps,
                                                             o ? MPI_ORDER_FORTRAN : MPI_ORDER_C, MPI_INT, &t),
                                     MPI_SUCCESS);
                    struct tide_datatype *dt = tide_datatype_get(t);
                    assert_int_equal(dt->lb, 0);
                    assert_int_equal(dt->extent, 90 * 4);
                    check_type(t, 2);
                }
    int g3[3] = {4, 6, 5}, p3[3] = {1, 2, 1};
    int d3[3] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK};
    int a3[3] = {MPI_DISTRIBUTE_DFLT_DARG, 4, MPI_DISTRIBUTE_DFLT_DARG};
    for (int rank = 0; rank < 2; rank++) {
        PMPI_Type_create_darray(2, rank, 3, g3, d3, a3, p3, MPI_ORDER_C, MPI_DOUBLE, &t);
        check_type(t, 1);
    }
}

static void test_large_indexed(void **state)
{
    (void)state;
    enum { N = 3000 };
    int *bl = malloc(N * sizeof *bl), *ds = malloc(N * sizeof *ds);
    int at = 0;
    for (int i = 0; i < N; i++) {
        bl[i] = 1 + (int)(rnd() % 5);
        ds[i] = at;
        at += bl[i] + (int)(rnd() % 3);
    }
    MPI_Datatype t;
    PMPI_Type_indexed(N, bl, ds, MPI_DOUBLE, &t);
    check_type(t, 2);
    for (int i = 0; i < N; i++)
        bl[i] = 2;
    PMPI_Type_indexed(N, bl, ds, MPI_FLOAT, &t); /* fixed block length */
    check_type(t, 2);
    free(bl);
    free(ds);
}

/* deeper than the saved cursor (8 levels) and than the frames kept on the stack */
static void test_deep(void **state)
{
    (void)state;
    MPI_Datatype t = MPI_CHAR, n;
    for (int level = 0; level < 12; level++) {
        PMPI_Type_create_hvector(2, 1, 3 + level, t, &n);
        if (t != MPI_CHAR)
            PMPI_Type_free(&t);
        PMPI_Type_create_resized(n, 0, 2, &t);
        PMPI_Type_free(&n);
    }
    check_type(t, 3);

    /* 25 levels: the i-th char of the stream is at 3 * popcount(i) */
    t = MPI_CHAR;
    for (int level = 0; level < 25; level++) {
        PMPI_Type_create_hvector(2, 1, 3, t, &n);
        if (t != MPI_CHAR)
            PMPI_Type_free(&t);
        PMPI_Type_create_resized(n, 0, 1, &t);
        PMPI_Type_free(&n);
    }
    PMPI_Type_commit(&t);
    struct tide_datatype *dt = tide_datatype_get(t);
    assert_true(dt->prog->depth > 24);
    size_t T = dt->size, span = (size_t)(dt->true_ub - dt->true_lb);
    unsigned char *buf = malloc(span), *a = malloc(T), *b = malloc(T), *back = calloc(1, span);
    for (size_t i = 0; i < span; i++)
        buf[i] = (unsigned char)(i * 13 + 1);
    struct tide_convertor cv;
    tide_conv_init(&cv, dt, 1, buf - dt->true_lb);
    assert_int_equal(tide_conv_pack(&cv, a, T), T);
    tide_conv_init(&cv, dt, 1, buf - dt->true_lb);
    for (size_t pos = 0; pos < T;)
        pos += tide_conv_pack(&cv, b + pos, 1000003);
    assert_memory_equal(a, b, T);
    for (size_t i = 0; i < T; i += 9973)
        assert_int_equal(a[i], buf[3 * (size_t)__builtin_popcountl(i)]);
    assert_int_equal(a[T - 1], buf[75]);
    free(buf);
    free(a);
    free(b);
    free(back);
    PMPI_Type_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_predefined),
        cmocka_unit_test(test_contiguous),
        cmocka_unit_test(test_contig_flag),
        cmocka_unit_test(test_vector),
        cmocka_unit_test(test_vector_negative),
        cmocka_unit_test(test_hvector),
        cmocka_unit_test(test_indexed),
        cmocka_unit_test(test_hindexed),
        cmocka_unit_test(test_indexed_block),
        cmocka_unit_test(test_struct),
        cmocka_unit_test(test_markers),
        cmocka_unit_test(test_resized),
        cmocka_unit_test(test_dup),
        cmocka_unit_test(test_nested),
        cmocka_unit_test(test_subarray),
        cmocka_unit_test(test_darray),
        cmocka_unit_test(test_large_indexed),
        cmocka_unit_test(test_deep),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
